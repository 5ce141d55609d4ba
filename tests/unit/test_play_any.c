/* test_play_any.c - the replay's read-and-play of a full-form desc
 * (xq_move_play_desc) where it takes its general path
 * (notation_chinese.c's play_plan_any): a general's move, or any move of
 * a side in check.  That path makes the move first, asks whether the
 * mover's general is attacked on the board it leads to, and undoes the
 * move when it is; the check state of the other side then comes from the
 * lines and legs the move touched (board_tables.h's xq_play_check_after;
 * the fast path's own, play_check_rest, jumps to movegen.c's
 * xq_play_entered_out and xq_play_opened_out, which these walks and
 * test_play_plan.c's reach too).  Checked against reading
 * the desc's text (xq_move_read_quick) then playing it (xq_play), on
 * every full form (1,701 descs) at positions where the side to move is
 * in check (reached by a checking move from the positions of random
 * games and odd starts), at the positions of those games themselves
 * (every general move), and on impossible boards (two generals of a
 * side, generals facing, no general): the same move, captured piece,
 * position (board, file-major board, masks, general squares, key,
 * counters) and check state.  Counts that refused moves (a move the
 * geometry allows that leaves the general attacked: the undo) and
 * played ones both occur, many times. */
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

/* What the descs did: tried, played, refused by the undo (the text
 * names one geometric move that leaves the general attacked), and the
 * positions in check visited. */
static long tried, played, refused, in_check_positions;

/* The desc of kind, file numeral, action and last numeral (notation.h's
 * packing), and its text into buf (NUL-terminated); its length. */
static unsigned desc_of(int kind, int num, int action, int arg, char buf[32], size_t *len)
{
    *len = (size_t)snprintf(buf, 32, "%s%s%s%s", PIECE[kind], NUM[num], ACT[action], NUM[arg]);
    return (unsigned)(arg | action << 4 | num << 6 | kind << 10);
}

/* Whether the text names a move the geometry allows (read unchecked)
 * that the rules refuse for the mover's general (left attacked, or
 * facing the other one): the moves the general path must undo. */
static bool refused_move(const xq_position *pos, const char *text, size_t len)
{
    xq_move m = xq_move_read_quick(pos, text, len, XQ_NOTATION_CHINESE, XQ_READ_UNCHECKED);
    if (m == XQ_MOVE_NONE) return false;
    xq_illegal why = xq_move_legality(pos, m);
    return why == XQ_ILL_LEAVES_CHECK || why == XQ_ILL_GENERALS_FACE;
}

/* Every full form of kind (0: every kind) at pos with check state c,
 * compared (xqt_play_desc_agrees) and counted. */
static void try_descs(const xq_position *pos, const xq_checks *c, int only_kind)
{
    char text[32];
    size_t len;
    for (int kind = 1; kind <= 7; kind++) {
        if (only_kind && kind != only_kind) continue;
        for (int num = 1; num <= 9; num++)
            for (int action = 1; action <= 3; action++)
                for (int arg = 1; arg <= 9; arg++) {
                    unsigned d = desc_of(kind, num, action, arg, text, &len);
                    tried++;
                    bool moved = xqt_play_desc_agrees(pos, c, d, text, len);
                    played += moved;
                    if (!moved && refused_move(pos, text, len)) refused++;
                }
    }
}

/* Every desc in pos, whose side to move is in check. */
static void try_in_check(const xq_position *pos, const xq_checks *c)
{
    assert_true(xq_in_check(pos, pos->side));
    in_check_positions++;
    try_descs(pos, c, 0);
}

/* At the walk's position: every general move (the general's descs), and
 * for each legal move that gives check, every desc in the position it
 * leads to (the side to move there in check). */
static void visit_checks(xqt_walk *w)
{
    try_descs(&w->pos, &w->checks, XQ_GENERAL);
    xqt_each_check_reply(w, try_in_check);
}

static void test_any_random_games(void **state)
{
    (void)state;
    uint64_t rng = 0xC4EC4ull;
    tried = played = refused = in_check_positions = 0;
    xqt_walk w = {.rng = &rng, .visit = visit_checks, .visit_end = true};
    XQT_WALK_SERIES(&w, {XQT_LINES, 4, 100}, {XQT_CAPTURES, 4, 120});
    assert_true(in_check_positions > 400);
    assert_true(tried > 1000000);
    assert_true(played > 2500);
    assert_true(refused > 10000);
}

static void test_any_odd_positions(void **state)
{
    (void)state;
    uint64_t rng = 99;
    size_t n;
    const char *const *fens = xqt_odd_fens(&n);
    tried = played = refused = 0;
    xqt_walk w = {.rng = &rng, .bias = XQT_LINES, .visit = visit_checks, .visit_end = true};
    xqt_walk_fens(&w, fens, n, 10);
    assert_true(played > 400);
    assert_true(refused > 600);
}

/* Impossible boards (xqt_impossible_boards): two generals of a side
 * (the general square names the one put last, and a refused move of the
 * other must leave it so), the side to move in check by a facing general,
 * or by a chariot with the other side in check too; a side without a
 * general.  Every desc at each, then along short walks of those the FEN
 * reader takes. */
static void test_any_impossible(void **state)
{
    (void)state;
    size_t n;
    const xqt_odd_board *boards = xqt_impossible_boards(&n);
    const char *fens[32];
    size_t nf = 0;
    tried = played = refused = 0;
    assert_true(n <= 32);
    for (size_t i = 0; i < n; i++) {
        xq_position pos;
        xqt_impossible_position(&boards[i], &pos);
        if (boards[i].sq < 0) fens[nf++] = boards[i].fen;
        assert_true(xq_position_masks_ok(&pos));
        xq_checks c;
        xq_checks_init(&c, &pos);
        try_descs(&pos, &c, 0);
    }
    assert_true(played > 15);
    assert_true(refused > 20);
    uint64_t rng = 5;
    xqt_walk w = {.rng = &rng, .bias = XQT_CAPTURES, .visit = visit_checks, .visit_end = true};
    xqt_walk_fens(&w, fens, nf, 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_any_random_games),
        cmocka_unit_test(test_any_odd_positions),
        cmocka_unit_test(test_any_impossible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
