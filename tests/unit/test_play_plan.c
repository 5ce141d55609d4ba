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

/* xq_move_play_desc(d) on a copy of the walk's position against the
 * text read (xq_move_read_quick) and played (xq_play) on another. */
static void compare_desc(const xqt_walk *w, unsigned d, const char *text, size_t len)
{
    xq_position a = w->pos, b = w->pos;
    xq_checks ca = w->checks, cb = w->checks;
    assert_int_equal(xq_move_desc(text, len), d);
    xq_played pa = xq_move_play_desc(&a, d, &ca);
    unsigned flags = cb.in_check[b.side] ? 0u : XQ_READ_NOT_IN_CHECK;
    xq_move mb = xq_move_read_quick(&b, text, len, XQ_NOTATION_CHINESE, flags);
    xq_piece capb = XQ_NONE;
    if (mb != XQ_MOVE_NONE) capb = xq_play(&b, mb, &cb);
    if (pa.move != mb || pa.captured != capb) {
        char fen[XQ_FEN_MAX];
        xq_fen_write(&w->pos, fen, sizeof fen);
        fail_msg("%s on %s (in check %d/%d): plan %04x cap %d, read+play %04x cap %d", text, fen,
                 w->checks.in_check[0], w->checks.in_check[1], pa.move, pa.captured, mb, capb);
    }
    const char *diff = xqt_position_diff(&a, &b);
    if (diff) fail_msg("%s: positions differ in %s", text, diff);
    assert_memory_equal(a.fboard, b.fboard, sizeof a.fboard);
    assert_true(xq_position_masks_ok(&a));
    assert_int_equal(ca.in_check[0], cb.in_check[0]);
    assert_int_equal(ca.in_check[1], cb.in_check[1]);
    compared++;
    played += pa.move != XQ_MOVE_NONE;
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
    w.bias = XQT_UNIFORM;
    xqt_walk_games(&w, 6, 120);
    w.bias = XQT_CAPTURES;
    xqt_walk_games(&w, 6, 150);
    w.bias = XQT_LINES;
    xqt_walk_games(&w, 8, 150);
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
