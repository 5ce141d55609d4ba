/* test_judge_fast.c - the fast paths of the repetition judge against plain
 * references:
 *  - the memo of classifications (xq_repetition_judge_memo), bounded and
 *    replacing its oldest entries once full, against the judge without a
 *    memo, on many cycles made by random walks that go back and forth,
 *    with one memo kept over all of them (so it fills, replaces entries
 *    and finds some again);
 *  - the tables of repetition_classify.c (attackers_to's neighbours, the
 *    SSE2 colour sets of the searches) against the plain code they
 *    replaced: in builds without NDEBUG each call asserts that both give
 *    the same squares in the same order, so classifying every legal move
 *    of random positions under both rule sets (odd positions included:
 *    generals facing, pieces on the generals' lines; not the impossible
 *    starts, where the side not to move is in check) compares them on
 *    every square and side the searches ask about.  In NDEBUG builds it
 *    still checks that a classification is a function of its position and
 *    move (the same facts twice).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "test_util.h"

#include "repetition.h"

#ifndef XQ_SHARED
#define XQ_SHARED "../shared"
#endif

/* ---- the bounded memo ------------------------------------------------- */

typedef struct {
    xq_rep_memo memo;    /* one over every cycle */
    long judged, found;
} memo_tally;

/* Judge the stretch base + moves[0..n-1] without a memo and with the
 * shared one, under both rule sets: the same answer and verdict. */
static void same_verdicts(const xq_position *base, const xq_move *moves, int n, memo_tally *t)
{
    for (int r = 0; r < 2; r++) {
        xq_rep_verdict plain, kept;
        bool a = xq_repetition_judge(base, 0, moves, n, 2, (xq_rules)r, &plain);
        bool b = xq_repetition_judge_memo(base, 0, moves, n, 2, (xq_rules)r, &t->memo, &kept);
        assert_int_equal(a, b);
        assert_memory_equal(&plain, &kept, sizeof plain);
        t->judged++;
        t->found += a;
    }
    assert_true(t->memo.n <= t->memo.cap && t->memo.cap <= XQ_REP_MEMO_MAX);
}

/* From each position of a walk, a cycle: a legal move of each side and
 * a move back of each when it is legal (a piece that went and came back),
 * judged when the position repeats. */
static void visit_cycle(xqt_walk *w)
{
    memo_tally *t = w->ctx;
    xq_position p = w->pos;
    xq_move moves[XQ_MAX_MOVES], cycle[8];
    int n = xq_legal_moves(&p, moves);
    if (!n) return;
    int len = 0;
    for (int k = 0; k < 2; k++) {
        xq_move out = moves[xqt_rnd(w->rng, (unsigned)n)];
        cycle[len++] = out;
        xq_undo u;
        xq_make(&p, out, &u);
        n = xq_legal_moves(&p, moves);
        if (!n) return;
    }
    /* back: the first mover's piece, then the second's */
    for (int k = 0; k < 2; k++) {
        xq_move back = XQ_MOVE(XQ_TO(cycle[k]), XQ_FROM(cycle[k]));
        bool legal = false;
        for (int i = 0; i < n && !legal; i++) legal = moves[i] == back;
        if (!legal || p.board[XQ_FROM(cycle[k])]) return;
        cycle[len++] = back;
        xq_undo u;
        xq_make(&p, back, &u);
        n = xq_legal_moves(&p, moves);
    }
    same_verdicts(&w->pos, cycle, len, t);
}

static void memo_bounded(void **state)
{
    (void)state;
    uint64_t rng = 0x1d9e04b7c3a5f261ull;
    memo_tally t;
    memset(&t, 0, sizeof t);
    xqt_walk w = {.rng = &rng, .visit = visit_cycle, .ctx = &t, .bias = XQT_LINES};
    xqt_walk_games(&w, 80, 120);
    print_message("# memo: %ld judge calls, %ld repetitions, %d entries kept (at most %d)\n", t.judged, t.found,
                  t.memo.n, XQ_REP_MEMO_MAX);
    assert_true(t.found > 100);
    xq_rep_memo_free(&t.memo);
    assert_null(t.memo.entry);
}

/* ---- the tables, through the classification -------------------------- */

typedef struct {
    long classified;
} class_tally;

/* Classify every legal move of the walk's position (at most 12, spread
 * over the list) under both rule sets, twice each: the same facts. */
static void visit_classify(xqt_walk *w)
{
    class_tally *t = w->ctx;
    /* (the searches assume a reachable position: both generals, and the
     * side not to move not in check, as in every replayed game) */
    const xq_position *p = &w->pos;
    if (p->general[0] >= XQ_SQUARES || p->general[1] >= XQ_SQUARES || xq_in_check(p, (xq_color)(p->side ^ 1))) return;
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_legal_moves(&w->pos, moves);
    int step = n > 12 ? n / 12 : 1;
    for (int i = 0; i < n; i += step)
        for (int r = 0; r < 2; r++) {
            xq_move_class a, b;
            xq_classify_move(&w->pos, moves[i], (xq_rules)r, &a);
            xq_classify_move(&w->pos, moves[i], (xq_rules)r, &b);
            assert_memory_equal(&a, &b, sizeof a);
            t->classified++;
        }
}

static void classify_walks(void **state)
{
    (void)state;
    uint64_t rng = 0x5bd1e9955bd1e995ull;
    class_tally t = {0};
    xqt_walk w = {.rng = &rng, .visit = visit_classify, .ctx = &t};
    for (int b = 0; b < 3; b++) {
        w.bias = (xqt_bias)b;
        xqt_walk_games(&w, 3, 60);
        size_t n;
        const char *const *fens = xqt_odd_fens(&n);
        xqt_walk_fens(&w, fens, n, 6);
    }
    print_message("# %ld classifications, the tables agreeing with the plain code\n", t.classified);
    assert_true(t.classified > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(memo_bounded),
        cmocka_unit_test(classify_walks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
