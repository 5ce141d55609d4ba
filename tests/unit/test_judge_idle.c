/* test_judge_idle.c - a classification without the kind of an idle move
 * (xq_classify_move_act, what a judge without text asks for) against the
 * full one (xq_classify_move_with): every field the same but the idle
 * kind, which is XQ_IDLE_UNKNOWN exactly when the act is idle (and 0, as
 * in the full one, when it is not).  Both rule sets, each with a mate
 * table of its own, on the legal moves of positions from random walks
 * (uniform, capture-biased, line-biased), odd start positions, the
 * positions of the repetitions in tests/data's repetition records and the
 * recorded main lines of the first master games (skipped without
 * ../shared).  The kinds left out must have been there to leave out: the
 * tallies assert that the full classification found offers (獻), blocks
 * (攔), follows (跟) and exchange offers (兌) among them.
 */
#define XQ_REPETITION_INTERNAL   /* xq_classify_move_act */
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

/* Moves compared, the idle ones, and the kinds the full classification gave them. */
typedef struct {
    long moves, idle;
    long kinds[XQ_IDLE_KIND_COUNT];
    xq_mate_table *full_table, *act_table;
    int stride;   /* every stride-th legal move of a position (1: all) */
} idle_tally;

static void tally_open(idle_tally *t, int stride)
{
    memset(t, 0, sizeof *t);
    t->full_table = xq_mate_table_new();
    t->act_table = xq_mate_table_new();
    assert_non_null(t->full_table);
    assert_non_null(t->act_table);
    t->stride = stride;
}

static void tally_close(idle_tally *t, const char *what)
{
    print_message("# %s: %ld moves, %ld idle (offer %ld, block %ld, follow %ld, exchange %ld, plain %ld)\n", what,
                  t->moves, t->idle, t->kinds[XQ_IDLE_OFFER], t->kinds[XQ_IDLE_BLOCK], t->kinds[XQ_IDLE_FOLLOW],
                  t->kinds[XQ_IDLE_EXCHANGE], t->kinds[XQ_IDLE_PLAIN]);
    xq_mate_table_free(t->full_table);
    xq_mate_table_free(t->act_table);
    assert_int_equal(t->kinds[XQ_IDLE_UNKNOWN], 0);   /* (the full one always finds the kind) */
}

/* m from pos both ways, under both rule sets. */
static void compare_move(const xq_position *pos, xq_move m, idle_tally *t)
{
    for (int r = 0; r < 2; r++) {
        xq_move_class full, act;
        memset(&act, 0x55, sizeof act);   /* (zeroed by the classification, whatever it held) */
        xq_classify_move_with(pos, m, (xq_rules)r, t->full_table, &full);
        xq_classify_move_act(pos, m, (xq_rules)r, t->act_table, &act);
        xq_move_class expect = full;
        if (full.act == XQ_ACT_IDLE) {
            t->idle++;
            t->kinds[full.idle]++;
            expect.idle = XQ_IDLE_UNKNOWN;
        } else {
            assert_int_equal(full.idle, 0);
        }
        if (memcmp(&expect, &act, sizeof act))
            fail_msg("move %d->%d (%s): act %d/%d, idle %d/%d", XQ_FROM(m), XQ_TO(m), xq_rules_str((xq_rules)r),
                     full.act, act.act, full.idle, act.idle);
        t->moves++;
    }
}

/* Every stride-th legal move of pos. */
static void compare_position(const xq_position *pos, idle_tally *t)
{
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_legal_moves(pos, moves);
    for (int i = 0; i < n; i += t->stride) compare_move(pos, moves[i], t);
}

static void visit_walk(xqt_walk *w)
{
    idle_tally *t = w->ctx;
    if (w->ply % 3 == 0) compare_position(&w->pos, t);
}

static void test_idle_random_walks(void **state)
{
    (void)state;
    uint64_t rng = 0x1d1ec1a55ULL;
    idle_tally t;
    tally_open(&t, 2);
    xqt_walk w = {.rng = &rng, .visit = visit_walk, .ctx = &t};
    XQT_WALK_SERIES(&w, {XQT_UNIFORM, 3, 90}, {XQT_CAPTURES, 3, 110}, {XQT_LINES, 4, 110});
    tally_close(&t, "random walks");
    assert_true(t.moves > 5000);
    assert_true(t.kinds[XQ_IDLE_OFFER] > 50 && t.kinds[XQ_IDLE_BLOCK] > 50);
}

static void test_idle_odd_positions(void **state)
{
    (void)state;
    uint64_t rng = 0x0dd1d1eULL;
    idle_tally t;
    tally_open(&t, 2);
    xqt_walk w = {.rng = &rng, .visit = visit_walk, .ctx = &t, .bias = XQT_LINES};
    size_t nfens = 0;
    const char *const *fens = xqt_odd_fens(&nfens);
    xqt_walk_fens(&w, fens, nfens, 30);
    tally_close(&t, "odd positions");
    assert_true(t.moves > 1000);
    assert_true(t.idle > 500);
}

/* Every legal move of the positions repetitions were judged in. */
static void compare_repetition(const xqt_repetition *r, void *ctx)
{
    idle_tally *t = ctx;
    xq_position p = *r->base;
    for (int i = 0; i < r->n; i++) {
        compare_position(&p, t);
        xq_undo u;
        xq_make(&p, r->moves[i], &u);
    }
}

static void test_idle_repetition_records(void **state)
{
    (void)state;
    idle_tally t;
    tally_open(&t, 1);
    xqt_each_repetition("tests/data/repetition-cases.pgn", 1000, NULL, compare_repetition, &t);
    xqt_each_repetition("tests/data/repetition-later.pgn", 1000, NULL, compare_repetition, &t);
    tally_close(&t, "repetition records");
    assert_true(t.moves > 2000);
    assert_true(t.kinds[XQ_IDLE_FOLLOW] > 0 && t.kinds[XQ_IDLE_EXCHANGE] > 0 && t.kinds[XQ_IDLE_OFFER] > 0 &&
                t.kinds[XQ_IDLE_BLOCK] > 0);
}

/* Every third legal move of every fourth position of the first 40 master games. */
static void test_idle_master_lines(void **state)
{
    (void)state;
    idle_tally t;
    tally_open(&t, 3);
    xqt_lines w;
    xqt_lines_open(&w, XQ_SHARED "/corpus/ccpd/masters.pgn.gz", 40);
    int ply = 0;
    while (xqt_lines_game(&w))
        for (xq_move m; xqt_lines_move(&w, &m); xqt_lines_play(&w, m))
            if (ply++ % 4 == 0) compare_position(&w.pos, &t);
    xqt_lines_close(&w);
    tally_close(&t, "master lines");
    assert_true(t.moves > 5000);
    assert_true(t.kinds[XQ_IDLE_FOLLOW] > 0 && t.kinds[XQ_IDLE_BLOCK] > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_idle_random_walks),
        cmocka_unit_test(test_idle_odd_positions),
        cmocka_unit_test(test_idle_repetition_records),
        cmocka_unit_test(test_idle_master_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
