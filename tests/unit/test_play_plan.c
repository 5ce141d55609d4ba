/* test_play_plan.c - the replay's read-and-play of a full-form desc
 * (xq_move_play_desc), whose fast path plays from a plan worked out once
 * per desc and side (notation_chinese.c's desc_plan: the mover, the
 * to-square as an offset, the ranks the board-free geometry allows, the
 * one board test left), against what it stands for: the text of the desc
 * read by xq_move_read_quick (told the check state as the replay keeps
 * it) and played by xq_play.  For every full form (each kind, file,
 * action and numeral 1..9: 1,701 descs) on positions of random games
 * (uniform, capture-biased, line-biased: pins, screens, facing
 * generals) and of odd and impossible starts (sides in check, no
 * general, tandem pieces): the same move, captured piece, position
 * (board, file-major board, masks, key, counters) and check state; no
 * move leaves both alone.  Each desc is tried before and after its plan
 * exists (the first try builds it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "game.h"
#include "notation.h"
#include "position.h"
#include "test_util.h"

/* UTF-8 of each kind (index xq_kind), numeral 1..9 and action (1 進,
 * 2 退, 3 平), as the reader takes them. */
static const char *const PIECE[8] = {NULL, "帥", "仕", "相", "馬", "車", "炮", "兵"};
static const char *const NUM[10] = {NULL, "一", "二", "三", "四", "五", "六", "七", "八", "九"};
static const char *const ACT[4] = {NULL, "進", "退", "平"};

/* The desc of kind, file numeral, action and last numeral (notation.h's
 * packing), and its text into buf (NUL-terminated); its length. */
static unsigned desc_of(int kind, int num, int action, int arg, char buf[32], size_t *len)
{
    *len = (size_t)snprintf(buf, 32, "%s%s%s%s", PIECE[kind], NUM[num], ACT[action], NUM[arg]);
    return (unsigned)(arg | action << 4 | num << 6 | kind << 10);
}

static long compared, played;

/* xq_move_play_desc(d) at the walk's position against reading then
 * playing the text (xqt_play_desc_agrees), counted. */
static void compare_desc(const xqt_walk *w, unsigned d, const char *text, size_t len)
{
    compared++;
    played += xqt_play_desc_agrees(&w->pos, &w->checks, d, text, len);
}

/* Every full form at the walk's position. */
static void visit_all_descs(xqt_walk *w)
{
    char text[32];
    size_t len;
    for (int kind = 1; kind <= 7; kind++)
        for (int num = 1; num <= 9; num++)
            for (int action = 1; action <= 3; action++)
                for (int arg = 1; arg <= 9; arg++) {
                    unsigned d = desc_of(kind, num, action, arg, text, &len);
                    compare_desc(w, d, text, len);
                }
}

/* The start position (each side to move) first: every desc's first try
 * there builds its plan, so the walks below meet both paths. */
static void test_plan_start(void **state)
{
    (void)state;
    uint64_t rng = 1;
    xqt_walk w = {.rng = &rng, .bias = XQT_UNIFORM, .visit = visit_all_descs};
    for (int side = 0; side < 2; side++) {
        xq_position_start(&w.pos);
        xq_position_set_side(&w.pos, (xq_color)side);
        xq_checks_init(&w.checks, &w.pos);
        visit_all_descs(&w);
        visit_all_descs(&w);
    }
}

static void test_plan_random_games(void **state)
{
    (void)state;
    uint64_t rng = 0x5EED5EEDull;
    compared = played = 0;
    xqt_walk w = {.rng = &rng, .visit = visit_all_descs, .visit_end = true};
    XQT_WALK_SERIES(&w, {XQT_UNIFORM, 6, 120}, {XQT_CAPTURES, 6, 150}, {XQT_LINES, 8, 150});
    /* most descs name no legal move; enough of them do */
    assert_true(played > 2000);
    assert_true(compared > 1000000);
}

static void test_plan_odd_positions(void **state)
{
    (void)state;
    uint64_t rng = 77;
    size_t n;
    const char *const *fens = xqt_odd_fens(&n);
    xqt_walk w = {.rng = &rng, .bias = XQT_LINES, .visit = visit_all_descs, .visit_end = true};
    xqt_walk_fens(&w, fens, n, 12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plan_start),
        cmocka_unit_test(test_plan_random_games),
        cmocka_unit_test(test_plan_odd_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
