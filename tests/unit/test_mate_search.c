/* test_mate_search.c - the mate-by-checks search of the repetition judge
 * (xq_mate_search, repetition_classify.c: §28.2 mate threats, §29.4
 * captures that get the capturer mated) against the search before its
 * per-node work was cut, copied unchanged into ref_mate_search.h.  The search was made
 * cheaper per node (the mover's pieces and the facts of its checks read
 * from sets of squares found once per node, the checks of a chariot or
 * cannon moving onto the other general's lines told as they are
 * generated), and must still try the same moves in the same order,
 * answer the same replies in the same order and spend its budget the
 * same way: so for each search both give the same answer and leave the
 * same budget, with a budget that suffices and with every budget (or a
 * sample of them, the last ones before it suffices always among them)
 * that cuts it short at another point, with and without a table of
 * results.  A search that stops at move k of its budget has seen the
 * first k moves only: equal answers and leftovers at every k leave no
 * room for another order.
 *
 * Searches: for every legal move m of the positions walked, the threat
 * search of the mover after m (the mover to move again, when m is no
 * check: quiet), the search of the other side after m (its general not
 * attacked: quiet; depths 3, the capture searches, and 7) and the
 * search of the position before m (not quiet), depths 7 and 5 with the
 * threat search's budget.  Positions: every ply of the repetition
 * records of tests/data; random games from the start (uniform, capture
 * and line biased: hung pieces, open lines, checks and mates); plies of
 * the endgame and masters sets of ../shared (skipped when it is
 * missing).
 */
#define XQ_REPETITION_INTERNAL   /* xq_mate_search, xq_mate_table */
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

#include "ref_mate_search.h"
#include "mate_compare.h"
#include "pgn_read.h"
#include "replay.h"

#ifndef XQ_SHARED
#define XQ_SHARED "../shared"
#endif

enum { THREAT_BUDGET = 6000, CAPTURE_BUDGET = 1500 };

/* A copy of pos with side c to move. */
static xq_position side_to_move(const xq_position *pos, xq_color c)
{
    xq_position p = *pos;
    if (p.side != c) xq_position_set_side(&p, c);
    return p;
}

/* The searches of every legal move of pos (see the top of the file). */
static void compare_moves(const xq_position *pos, mate_tally *t)
{
    xq_color s = pos->side, o = (xq_color)(s ^ 1);
    compare_search(pos, 7, THREAT_BUDGET, false, t);
    compare_search(pos, 5, THREAT_BUDGET, false, t);
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_legal_moves(pos, moves);
    for (int i = 0; i < n; i++) {
        xq_position after = *pos;
        xq_undo u;
        xq_make(&after, moves[i], &u);
        compare_search(&after, 3, CAPTURE_BUDGET, true, t);
        compare_search(&after, 7, THREAT_BUDGET, true, t);
        if (!xq_in_check(&after, o)) {
            xq_position threat = side_to_move(&after, s);
            compare_search(&threat, 7, THREAT_BUDGET, true, t);
        }
    }
}

static void tally_open(mate_tally *t)
{
    memset(t, 0, sizeof *t);
    t->table = xq_mate_table_new();
    t->ref_table = calloc(1, sizeof *t->ref_table);
    assert_non_null(t->table);
    assert_non_null(t->ref_table);
    t->rng = 0x9E3779B97F4A7C15ull;
}

static void tally_close(const char *what, mate_tally *t)
{
    print_message("# %s: %ld searches (%ld cut short on purpose), %ld mates, most budget used %ld, %ld differ\n",
                  what, t->searches, t->cut, t->mates, t->most_used, t->differ);
    xq_mate_table_free(t->table);
    free(t->ref_table);
    assert_true(t->searches > 0);
    assert_int_equal(t->differ, 0);
}

/* Every `every`-th ply of the main lines of the first max_games records of path. */
static void compare_file(const char *path, int every, int max_games, mate_tally *t)
{
    xqt_lines w;
    xqt_lines_open(&w, path, max_games);
    long ply = 0;
    while (xqt_lines_game(&w))
        for (xq_move m; xqt_lines_move(&w, &m); xqt_lines_play(&w, m), ply++)
            if (ply % every == 0) compare_moves(&w.pos, t);
    xqt_lines_close(&w);
}

static void repetition_records(void **state)
{
    (void)state;
    mate_tally t;
    tally_open(&t);
    compare_file("tests/data/repetition-cases.pgn", 1, 1000, &t);
    compare_file("tests/data/repetition-later.pgn", 1, 1000, &t);
    compare_file("tests/data/repetition-cut-search.pgn", 1, 1000, &t);
    long mates = t.mates;
    tally_close("tests/data/repetition-*.pgn", &t);
    assert_true(mates > 0);
}

static void visit_game(xqt_walk *w)
{
    if (w->ply % 6 == 0) compare_moves(&w->pos, w->ctx);
}

static void random_games(void **state)
{
    (void)state;
    mate_tally t;
    tally_open(&t);
    uint64_t seed = 0x2545F4914F6CDD1Dull;
    xqt_walk w = {.rng = &seed, .visit = visit_game, .ctx = &t};
    XQT_WALK_SERIES(&w, {XQT_UNIFORM, 4, 120}, {XQT_CAPTURES, 4, 120}, {XQT_LINES, 4, 120});
    long mates = t.mates;
    tally_close("random games", &t);
    assert_true(mates > 0);
}

/* The odd positions of the move readers' tests (generals facing,
 * pieces on the generals' lines, a side in check at the start): their
 * walks, every legal move of every other ply that could arise. */
static void visit_odd(xqt_walk *w)
{
    /* (not the impossible starts, which no replay judges: the search's
     * debug self-checks assume a position that could arise) */
    if (w->ply % 2 == 0 && !xq_position_check(&w->pos)) compare_moves(&w->pos, w->ctx);
}

static void odd_positions(void **state)
{
    (void)state;
    mate_tally t;
    tally_open(&t);
    uint64_t seed = 0x1234567887654321ull;
    size_t n;
    const char *const *fens = xqt_odd_fens(&n);
    xqt_walk w = {.rng = &seed, .bias = XQT_LINES, .visit = visit_odd, .ctx = &t};
    xqt_walk_fens(&w, fens, n, 24);
    tally_close("odd positions", &t);
}

static void corpus(void **state)
{
    (void)state;
    mate_tally t;
    tally_open(&t);
    compare_file(XQ_SHARED "/corpus/ccpd/endgames.pgn.gz", 41, 300, &t);
    compare_file(XQ_SHARED "/corpus/ccpd/masters.pgn.gz", 193, 200, &t);
    long mates = t.mates;
    tally_close("endgames, masters", &t);
    assert_true(mates > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(repetition_records),
        cmocka_unit_test(random_games),
        cmocka_unit_test(odd_positions),
        cmocka_unit_test(corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
