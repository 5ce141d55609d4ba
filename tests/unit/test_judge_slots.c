/* test_judge_slots.c - the judge's memo of classifications as laid out in
 * round ten (repetition.c): open addressing over 32-bit hashes with
 * deletion by backward shift, entries in blocks that never move (the
 * first ones allocated one by one, the rest and the slots at their
 * largest in one region), and each judge call looking up every ply of its
 * cycle before it classifies any (memo_find_cycle, memo_kept: an entry
 * found then and replaced since by a full memo, or a ply first classified
 * in the same call, is looked up again).  Against the judge without a
 * memo, verdict for verdict, byte for byte:
 *  - cycles of two or four moves out and as many back, the position
 *    occurring three times (so each call meets its first classifications
 *    again) or twice, one memo over all of them, which fills and then
 *    replaces its oldest entries, some of them found at the start of the
 *    same call;
 *  - stretches longer than the judge's stack room (48 moves), with and
 *    without a memo;
 *  - a memo that holds a few entries only (one game's) freed and used
 *    again.
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

typedef struct {
    xq_rep_memo memo;
    long judged, found;
} slot_tally;

/* Judge base + moves[0..n-1] with `occurrences` without a memo and with
 * t's memo, under both rule sets: the same answer and verdict. */
static void same_verdicts(const xq_position *base, const xq_move *moves, int n, int occurrences, slot_tally *t)
{
    for (int r = 0; r < 2; r++) {
        xq_rep_verdict plain, kept;
        bool a = xq_repetition_judge(base, 7, moves, n, occurrences, (xq_rules)r, &plain);
        bool b = xq_repetition_judge_memo(base, 7, moves, n, occurrences, (xq_rules)r, &t->memo, &kept);
        assert_int_equal(a, b);
        assert_memory_equal(&plain, &kept, sizeof plain);
        t->judged++;
        t->found += a;
    }
    assert_true(t->memo.n <= t->memo.cap && t->memo.cap <= XQ_REP_MEMO_MAX);
}

/* From start, k (even) random quiet legal moves, each side in turn, then
 * each moved piece back in the same order (so the turns match), when
 * every move back is legal and the start comes back: a cycle of 2k moves
 * into cycle[]; returns its length, 0 when it could not be made. */
static int make_cycle(const xq_position *start, int k, uint64_t *rng, xq_move *cycle)
{
    xq_position p = *start;
    xq_move moves[XQ_MAX_MOVES];
    for (int i = 0; i < k; i++) {
        int n = xq_legal_moves(&p, moves);
        if (!n) return 0;
        cycle[i] = moves[xqt_rnd(rng, (unsigned)n)];
        if (p.board[XQ_TO(cycle[i])]) return 0;   /* (a capture cannot be taken back) */
        xq_undo u;
        xq_make(&p, cycle[i], &u);
    }
    for (int i = 0; i < k; i++) {
        xq_move out = cycle[i];
        xq_move back = XQ_MOVE(XQ_TO(out), XQ_FROM(out));
        int n = xq_legal_moves(&p, moves);
        bool legal = false;
        for (int j = 0; j < n && !legal; j++) legal = moves[j] == back;
        if (!legal) return 0;
        cycle[k + i] = back;
        xq_undo u;
        xq_make(&p, back, &u);
    }
    return memcmp(p.board, start->board, sizeof p.board) || p.side != start->side ? 0 : 2 * k;
}

typedef struct {
    slot_tally *t;
    uint64_t *rng;
} cycle_ctx;

/* At each position of a walk, a cycle of 4 or 8 moves played twice (the
 * position occurs three times), and once (twice). */
static void visit_long_cycle(xqt_walk *w)
{
    cycle_ctx *x = w->ctx;
    int k = 2 * (1 + (int)xqt_rnd(x->rng, 2));   /* 2 or 4 moves out */
    xq_move cycle[16], stretch[40];
    int len = make_cycle(&w->pos, k, x->rng, cycle);
    if (!len) return;
    int n = 0;
    for (int rep = 0; rep < 2; rep++)
        for (int i = 0; i < len; i++) stretch[n++] = cycle[i];
    same_verdicts(&w->pos, stretch, n, 3, x->t);
    same_verdicts(&w->pos, stretch, len, 2, x->t);
}

static void memo_wraps(void **state)
{
    (void)state;
    uint64_t rng = 0x7f4a7c159e3779b9ull;
    slot_tally t;
    memset(&t, 0, sizeof t);
    cycle_ctx x = {&t, &rng};
    xqt_walk w = {.rng = &rng, .visit = visit_long_cycle, .ctx = &x, .bias = XQT_LINES};
    xqt_walk_games(&w, 60, 110);
    print_message("# %ld judge calls, %ld repetitions, %d entries kept (at most %d)\n", t.judged, t.found, t.memo.n,
                  XQ_REP_MEMO_MAX);
    assert_true(t.found > 1000);
    assert_int_equal(t.memo.n, XQ_REP_MEMO_MAX);   /* full: it replaced entries */
    xq_rep_memo_free(&t.memo);
    assert_null(t.memo.entry);
    assert_null(t.memo.big);
}

/* Horses out and back: a 4-move cycle played 15 times (60 moves, more
 * than the judge's room on the stack), judged with every occurrence
 * count from 2 to 16, with and without a memo. */
static void long_stretch(void **state)
{
    (void)state;
    xq_position start;
    xq_position_start(&start);
    xq_move cycle[4] = {XQ_MOVE(XQ_SQ(1, 0), XQ_SQ(2, 2)), XQ_MOVE(XQ_SQ(1, 9), XQ_SQ(2, 7)),
                        XQ_MOVE(XQ_SQ(2, 2), XQ_SQ(1, 0)), XQ_MOVE(XQ_SQ(2, 7), XQ_SQ(1, 9))};
    xq_move moves[60];
    for (int i = 0; i < 60; i++) moves[i] = cycle[i % 4];
    slot_tally t;
    memset(&t, 0, sizeof t);
    for (int occ = 2; occ <= 16; occ++) same_verdicts(&start, moves, 60, occ, &t);
    assert_int_equal(t.found, 2 * 15);   /* 16 occurrences in 60 moves: the start and after each cycle */
    xq_rep_verdict v;
    assert_true(xq_repetition_judge_memo(&start, 0, moves, 60, 16, XQ_RULES_CXA1999, &t.memo, &v));
    assert_int_equal(v.first_ply, 0);
    assert_int_equal(v.last_ply, 60);
    assert_int_equal(v.nplies, 60);
    assert_int_equal(v.loser, -1);
    xq_rep_memo_free(&t.memo);
}

/* A memo with a few entries, freed and used again (a game's memo). */
static void memo_reused(void **state)
{
    (void)state;
    uint64_t rng = 0x2545f4914f6cdd1dull;
    slot_tally t;
    memset(&t, 0, sizeof t);
    cycle_ctx x = {&t, &rng};
    for (int round = 0; round < 20; round++) {
        xqt_walk w = {.rng = &rng, .visit = visit_long_cycle, .ctx = &x, .bias = XQT_UNIFORM};
        xqt_walk_games(&w, 1, 12);
        assert_true(t.memo.n < 1024);
        assert_null(t.memo.big);
        xq_rep_memo_free(&t.memo);
        assert_int_equal(t.memo.n, 0);
    }
    assert_true(t.found > 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(long_stretch),
        cmocka_unit_test(memo_reused),
        cmocka_unit_test(memo_wraps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
