/* test_judge_back.c - the repetition judge from the end of a stretch
 * (xq_repetition_judge_back: the cycle's positions made back from the last
 * one, the verdict's texts only when asked for) against the judge from its
 * first position (xq_repetition_judge_memo, which plays the whole stretch
 * forward).
 *
 * With text, the same return value and the same verdict, byte for byte;
 * without, the same but for kind, clause and reason, which are empty, and
 * the idle kind of each idle ply, which is XQ_IDLE_UNKNOWN (not found).
 * Each with a memo of its own kept over a file, so that the memo's state
 * differs between the calls compared; and a memo shared by a judge
 * without text and then one with text on each stretch (and the other way
 * on the next), whose entries kept without the idle kind are completed
 * when the judge with text meets them: the same verdicts as the judges
 * with memos of their own.  Stretches: every ply of the records'
 * main lines whose position occurred before since the last capture
 * (occurrences 2 and 3, both rule sets), in tests/data's repetition records
 * and, when ../shared is there, the first games of the masters, endgame
 * and middlegame sets; and built ones: a stretch of 60 moves (longer than
 * the judge's room on the stack) asked for every number of occurrences
 * from 2 to 17 (the last ones more than it holds), from ply 0 and later.
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

#include "position.h"
#include "pgn_read.h"
#include "repetition.h"
#include "replay.h"

#ifndef XQ_SHARED
#define XQ_SHARED "../shared"
#endif

typedef struct {
    long judged;     /* calls that gave a verdict */
    long long_ones;  /* of them, on stretches of more than 48 moves */
    long differ;     /* calls where the two ways disagree */
} tally_back;

/* Memos kept over a file: the forward judge's, and the backward judge's
 * with and without text. */
typedef struct {
    xq_rep_memo forward, back, back_quiet, mixed;
    long stretches;   /* (odd ones ask the mixed memo without text first) */
} memos;

static void memos_free(memos *m)
{
    xq_rep_memo_free(&m->forward);
    xq_rep_memo_free(&m->back);
    xq_rep_memo_free(&m->back_quiet);
    xq_rep_memo_free(&m->mixed);
}

/* The verdict v as a judge without text gives it: no kind, clause or
 * reason, and each idle ply's kind unknown. */
static xq_rep_verdict without_text(const xq_rep_verdict *v)
{
    xq_rep_verdict q = *v;
    memset(q.kind, 0, sizeof q.kind);
    memset(q.clause, 0, sizeof q.clause);
    memset(q.reason, 0, sizeof q.reason);
    for (int i = 0; i < q.nplies; i++)
        if (q.plies[i].act == XQ_ACT_IDLE) q.plies[i].idle = XQ_IDLE_UNKNOWN;
    return q;
}

/* Judge the stretch back with the memo shared by both kinds of judge,
 * without text first when quiet_first; true when both verdicts are the
 * ones expected (with_text, with its texts, and no_text). */
static bool mixed_agrees(const xq_position *now, int now_ply, const xq_move *moves, const uint64_t *keys, int n,
                         int occ, xq_rules rules, xq_rep_memo *memo, bool quiet_first, bool ok,
                         const xq_rep_verdict *with_text, const xq_rep_verdict *no_text)
{
    xq_rep_verdict v[2];
    bool agree = true;
    for (int k = 0; k < 2; k++) {
        bool text = quiet_first == (k == 1);
        bool got = xq_repetition_judge_back(now, now_ply, moves, keys, n, occ, rules, text, memo, &v[k]);
        agree = agree && got == ok && !memcmp(&v[k], text ? with_text : no_text, sizeof v[k]);
    }
    return agree;
}

/* Judge the stretch both ways: base (after ply base_ply) + moves[0..n-1]
 * reaching now, keys[k] the key after moves[0..k). */
static void compare_stretch(const xq_position *base, int base_ply, const xq_position *now, const xq_move *moves,
                            const uint64_t *keys, int n, int occ, xq_rules rules, memos *m, tally_back *t)
{
    xq_rep_verdict fw, bk, quiet;
    memset(&bk, 0x55, sizeof bk);   /* (zeroed by the judge, whatever it held) */
    memset(&quiet, 0x55, sizeof quiet);
    bool a = xq_repetition_judge_memo(base, base_ply, moves, n, occ, rules, &m->forward, &fw);
    bool b = xq_repetition_judge_back(now, base_ply + n, moves, keys, n, occ, rules, true, &m->back, &bk);
    bool c = xq_repetition_judge_back(now, base_ply + n, moves, keys, n, occ, rules, false, &m->back_quiet, &quiet);
    t->judged += a;
    t->long_ones += a && n > 48;
    xq_rep_verdict no_text = without_text(&fw);
    bool mixed = mixed_agrees(now, base_ply + n, moves, keys, n, occ, rules, &m->mixed, m->stretches++ % 2, a, &fw,
                              &no_text);
    if (a != b || a != c || memcmp(&fw, &bk, sizeof fw) || memcmp(&no_text, &quiet, sizeof fw) || !mixed) {
        print_message("# differ: ply %d, %d occurrences, %s: %d %d %d, %s / %s\n", base_ply + n, occ,
                      xq_rules_str(rules), a, b, c, fw.kind, bk.kind);
        t->differ++;
    }
    if (a && (!fw.kind[0] || !fw.clause[0] || !fw.reason[0])) t->differ++;   /* (the texts compared were not empty) */
}

typedef struct {
    memos m;
    tally_back *t;
} walk_back;

static void compare_found(const xqt_repetition *r, void *ctx)
{
    walk_back *wb = ctx;
    for (int rules = 0; rules < 2; rules++)
        for (int occ = 2; occ <= 3; occ++)
            compare_stretch(r->base, r->base_ply, r->now, r->moves, r->keys, r->n, occ, (xq_rules)rules, &wb->m,
                            wb->t);
}

/* Every repetition in the main lines of the first max_games records of
 * path (one set of memos for the file). */
static void compare_file(const char *path, int max_games, tally_back *t)
{
    walk_back wb = {.t = t};
    xqt_each_repetition(path, max_games, NULL, compare_found, &wb);
    memos_free(&wb.m);
}

static void report(const char *what, const tally_back *t)
{
    print_message("# %s: %ld verdicts (%ld on stretches over 48 moves), %ld differ\n", what, t->judged,
                  t->long_ones, t->differ);
}

static void repetition_records(void **state)
{
    (void)state;
    tally_back t = {0};
    compare_file("tests/data/repetition-cases.pgn", 1000, &t);
    compare_file("tests/data/repetition-later.pgn", 1000, &t);
    report("tests/data/repetition-*.pgn", &t);
    assert_true(t.judged > 0);
    assert_int_equal(t.differ, 0);
}

static void corpus(void **state)
{
    (void)state;
    tally_back t = {0};
    compare_file(XQ_SHARED "/corpus/ccpd/masters.pgn.gz", 400, &t);
    compare_file(XQ_SHARED "/corpus/ccpd/endgames.pgn.gz", 400, &t);
    compare_file(XQ_SHARED "/corpus/ccpd/middlegames.pgn.gz", 400, &t);
    report("masters, endgames, middlegames: first 400 games each", &t);
    assert_true(t.judged > 0);
    assert_int_equal(t.differ, 0);
}

/* A stretch of 60 moves (more than the 48 the judge keeps on the stack):
 * horses out and back, 15 times; its last position stands 16 times. */
static void long_stretch(void **state)
{
    (void)state;
    static const char *const fens[] = {
        XQ_START_FEN,
        "3k5/9/9/9/9/9/9/9/4A4/3AK3R b - - 7 40",   /* black to move, from a later ply */
    };
    tally_back t = {0};
    for (size_t f = 0; f < sizeof fens / sizeof *fens; f++) {
        xq_position base;
        char err[128];
        assert_true(xq_fen_read(&base, fens[f], err, sizeof err));
        /* four moves out and back: a piece of each side, by its side's
         * first legal quiet move found (not a soldier's), then taken back */
        xq_move cycle[4];
        xq_position p = base;
        for (int k = 0; k < 2; k++) {
            xq_move legal[XQ_MAX_MOVES];
            int nl = xq_legal_moves(&p, legal), i = 0;
            /* (not a soldier: it cannot step back) */
            while (i < nl && (p.board[XQ_TO(legal[i])] || XQ_KIND(p.board[XQ_FROM(legal[i])]) == XQ_SOLDIER)) i++;
            assert_true(i < nl);
            cycle[k] = legal[i];
            xq_undo u;
            xq_make(&p, legal[i], &u);
        }
        cycle[2] = XQ_MOVE(XQ_TO(cycle[0]), XQ_FROM(cycle[0]));
        cycle[3] = XQ_MOVE(XQ_TO(cycle[1]), XQ_FROM(cycle[1]));
        enum { N = 60 };
        xq_move moves[N];
        uint64_t keys[N + 1];
        xq_position now = base;
        keys[0] = now.key;
        for (int i = 0; i < N; i++) {
            moves[i] = cycle[i % 4];
            assert_int_equal(xq_move_legality(&now, moves[i]), XQ_LEGAL);
            xq_undo u;
            xq_make(&now, moves[i], &u);
            keys[i + 1] = now.key;
        }
        int base_ply = f ? 79 : 0;
        for (int r = 0; r < 2; r++)
            for (int occ = 2; occ <= 17; occ++) {
                memos m = {0};
                long before = t.judged;
                compare_stretch(&base, base_ply, &now, moves, keys, N, occ, (xq_rules)r, &m, &t);
                assert_int_equal(t.judged - before, occ <= 16);   /* it stands 16 times */
                memos_free(&m);
            }
    }
    report("built stretches of 60 moves", &t);
    assert_true(t.long_ones > 0);
    assert_int_equal(t.differ, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(long_stretch),
        cmocka_unit_test(repetition_records),
        cmocka_unit_test(corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
