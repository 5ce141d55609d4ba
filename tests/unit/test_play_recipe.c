/* test_play_recipe.c - the planned play's board test as one recipe
 * (notation_chinese.c's desc_plan and plan_board_ok: a mask of the
 * position, shifted, its bits counted and compared with the count the
 * target needs, with no branch on the mover's kind) against the plain
 * tests it stands for: a horse's leg and an elephant's eye empty, the
 * squares between a chariot and its target empty, a cannon's exactly
 * one when it captures and none when not, and the mover's own piece on
 * the target refused.
 *
 * Every full-form desc of every kind, for both sides, from every rank
 * the plan allows, on crowded random boards (legs, eyes and lines often
 * blocked, cannons with 0, 1 or 2 screens, targets of both colours and
 * empty), where each outcome of each test must be met; the counting and
 * need tables against their definitions; the head's mover and horse bit.
 * Includes notation_chinese.c for its static plan functions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_util.h"   /* first: input.h's names would shadow notation_chinese.c's */
#include "notation_chinese.c"

/* The plain test: whether the piece of kind on from may go to to as far
 * as the squares between, the leg or eye, and the target's colour tell
 * (the board-free geometry being the plan's). */
static bool plain_board_ok(const xq_position *pos, xq_kind kind, xq_color side, int from, int to)
{
    xq_piece t = pos->board[to];
    if (t && XQ_COLOR(t) == side) return false;
    int x = XQ_FILE(from), r = XQ_RANK(from), tx = XQ_FILE(to), tr = XQ_RANK(to);
    if (kind == XQ_HORSE) {
        int leg = (tx - x == 2 || x - tx == 2) ? XQ_SQ((x + tx) / 2, r) : XQ_SQ(x, r + (tr > r ? 1 : -1));
        return !pos->board[leg];
    }
    if (kind == XQ_ELEPHANT) return !pos->board[(from + to) / 2];
    if (kind != XQ_CHARIOT && kind != XQ_CANNON) return true;
    int step = tx == x ? (to > from ? 9 : -9) : (to > from ? 1 : -1), between = 0;
    for (int sq = from + step; sq != to; sq += step) between += pos->board[sq] != XQ_NONE;
    return kind == XQ_CANNON && t ? between == 1 : between == 0;
}

/* A crowded random board (no generals needed: the board test reads no
 * general), density n pieces of any kind and colour. */
static void random_board(uint64_t *rng, int n, xq_position *pos)
{
    xq_position_clear(pos);
    for (int i = 0; i < n; i++) {
        int sq = (int)xqt_rnd(rng, XQ_SQUARES);
        xq_position_put(pos, sq, XQ_PIECE(1 + xqt_rnd(rng, 7), xqt_rnd(rng, 2)));
    }
}

static void test_count_tables(void **state)
{
    (void)state;
    for (unsigned b = 0; b < 256; b++) {
        unsigned n = 0;
        for (unsigned k = 0; k < 8; k++) n += b >> k & 1;
        assert_int_equal(plan_pieces_on[b], n > 2 ? 2 : n);
    }
    for (unsigned cannon = 0; cannon < 2; cannon++)
        for (unsigned side = 0; side < 2; side++)
            for (unsigned t = 0; t < 16; t++) {
                unsigned want = !(t & 7) ? 0 : XQ_COLOR(t) == side ? 0xFF : cannon;   /* 0 and 8: no piece */
                assert_int_equal(plan_need[cannon * 2 + side][t], want);
            }
}

/* Every desc and side: the plan's head names the mover (and a horse), and
 * from each rank it allows, on many boards, plan_board_ok gives the plain
 * answer; each kind's tests are seen both passing and failing. */
static void test_recipe_against_plain(void **state)
{
    (void)state;
    uint64_t rng = 0x9E3779B97F4A7C15ull;
    long seen[8][2] = {{0}};
    long cannon_capture_ok = 0, cannon_capture_refused = 0, own_refused = 0;
    xq_position pos;
    for (xq_color side = XQ_RED; side <= XQ_BLACK; side++)
        for (unsigned kind = XQ_GENERAL; kind <= XQ_SOLDIER; kind++)
            for (unsigned num = 1; num <= 9; num++)
                for (unsigned action = 1; action <= 3; action++)
                    for (unsigned arg = 1; arg <= 9; arg++) {
                        unsigned d = arg | action << 4 | num << 6 | kind << 10;
                        desc_plan pl;
                        memset(&pl, 0, sizeof pl);
                        plan_fill(&pl, side, d);
                        uint32_t head = atomic_load(&pl.head);
                        xq_piece p = XQ_PIECE(kind, side);
                        assert_int_equal(head & 15, p);
                        assert_int_equal((head & PT_HORSE) != 0, kind == XQ_HORSE);
                        int x = xqn_file_x(side, (int)num);
                        for (int r = 0; r < XQ_RANKS; r++) {
                            if (!(head >> 16 & 1u << r)) continue;
                            int from = XQ_SQ(x, r), to = from + pl.delta;
                            assert_true(to >= 0 && to < XQ_SQUARES);
                            for (int b = 0; b < 24; b++) {
                                random_board(&rng, 8 + b * 3, &pos);
                                xq_position_put(&pos, from, p);
                                bool want = plain_board_ok(&pos, (xq_kind)kind, side, from, to);
                                assert_int_equal(plan_board_ok(&pos, &pl, r, pos.board[to]), want);
                                seen[kind][want]++;
                                xq_piece t = pos.board[to];
                                if (t && XQ_COLOR(t) == side) own_refused++;
                                if (kind == XQ_CANNON && t && XQ_COLOR(t) != side) {
                                    if (want) cannon_capture_ok++;
                                    else cannon_capture_refused++;
                                }
                            }
                        }
                    }
    for (unsigned kind = XQ_GENERAL; kind <= XQ_SOLDIER; kind++) {
        assert_true(seen[kind][0] > 100);
        assert_true(seen[kind][1] > 100);
    }
    assert_true(cannon_capture_ok > 100);
    assert_true(cannon_capture_refused > 100);
    assert_true(own_refused > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_count_tables),
        cmocka_unit_test(test_recipe_against_plain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
