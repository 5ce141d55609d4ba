/* test_judge_block.c - the judge's count of the other side's legal moves
 * before and after a move (the 攔 "block" idle kind, CXA1999 §28.7):
 * xq_legal_delta, which counts only the pieces a move may change, against
 * the two full counts of xq_legal_moves, for every legal non-checking move
 * of positions from random walks (uniform, capture-biased and line-biased,
 * which bring generals, screens and pins together), odd start positions,
 * and the recorded main lines of the master games (skipped without
 * ../shared). */
#define XQ_REPETITION_INTERNAL   /* xq_legal_delta */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_util.h"

#include "repetition.h"

#ifndef XQ_SHARED
#define XQ_SHARED "../shared"
#endif

/* Positions and moves compared, and how many of the moves changed the count. */
typedef struct {
    long moves, changed, fewer;
} block_counts;

/* The legal moves of side c in pos (c to move). */
static int count_for(const xq_position *pos, xq_color c)
{
    xq_position p = *pos;
    if (p.side != c) xq_position_set_side(&p, c);
    xq_move moves[XQ_MAX_MOVES];
    return xq_legal_moves(&p, moves);
}

/* Every legal move of pos that gives no check: xq_legal_delta against
 * the two full counts. */
static void compare_all_moves(const xq_position *pos, block_counts *bc)
{
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_legal_moves(pos, moves);
    xq_color o = (xq_color)(pos->side ^ 1);
    if (pos->general[o] < XQ_SQUARES && xq_in_check(pos, o)) return;   /* (not a legal position) */
    int before = count_for(pos, o);
    for (int i = 0; i < n; i++) {
        xq_position after = *pos;
        xq_undo u;
        xq_make(&after, moves[i], &u);
        if (xq_in_check(&after, o)) continue;   /* a check: never asked */
        int full = count_for(&after, o) - before;
        int delta = xq_legal_delta(pos, moves[i]);
        if (delta != full) fail_msg("move %d->%d: delta %d, full counts %d", XQ_FROM(moves[i]), XQ_TO(moves[i]), delta, full);
        bc->moves++;
        bc->changed += delta != 0;
        bc->fewer += delta < 0;
    }
}

static void visit_all_moves(xqt_walk *w) { compare_all_moves(&w->pos, w->ctx); }

static void test_block_random_walks(void **state)
{
    (void)state;
    uint64_t rng = 0x11b10c5eedULL;
    block_counts bc = {0, 0, 0};
    xqt_walk w = {.rng = &rng, .visit = visit_all_moves, .ctx = &bc};
    XQT_WALK_SERIES(&w, {XQT_UNIFORM, 30, 120}, {XQT_CAPTURES, 30, 140}, {XQT_LINES, 40, 140});
    print_message("# %ld moves compared, %ld change the count, %ld hinder\n", bc.moves, bc.changed, bc.fewer);
    assert_true(bc.moves > 100000);
    assert_true(bc.fewer > 1000);
    assert_true(bc.changed > bc.fewer);
}

static void test_block_odd_positions(void **state)
{
    (void)state;
    uint64_t rng = 0x0ddb10c4ULL;
    block_counts bc = {0, 0, 0};
    xqt_walk w = {.rng = &rng, .visit = visit_all_moves, .ctx = &bc, .bias = XQT_LINES};
    size_t nfens = 0;
    const char *const *fens = xqt_odd_fens(&nfens);
    for (int round = 0; round < 4; round++) xqt_walk_fens(&w, fens, nfens, 60);
    print_message("# %ld moves compared from %zu odd positions, %ld hinder\n", bc.moves, nfens, bc.fewer);
    assert_true(bc.moves > 10000);
    assert_true(bc.fewer > 100);
}

/* Every position of the main lines of the first 150 master games (the
 * positions real repetitions come from: palaces crowded, pieces on the
 * generals' lines). */
static void test_block_master_lines(void **state)
{
    (void)state;
    block_counts bc = {0, 0, 0};
    xqt_lines w;
    xqt_lines_open(&w, XQ_SHARED "/corpus/ccpd/masters.pgn.gz", 150);
    while (xqt_lines_game(&w))
        for (xq_move m; xqt_lines_move(&w, &m); xqt_lines_play(&w, m)) compare_all_moves(&w.pos, &bc);
    xqt_lines_close(&w);
    print_message("# %ld moves compared on master lines, %ld hinder\n", bc.moves, bc.fewer);
    assert_true(bc.moves > 100000);
    assert_true(bc.fewer > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_block_random_walks),
        cmocka_unit_test(test_block_odd_positions),
        cmocka_unit_test(test_block_master_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
