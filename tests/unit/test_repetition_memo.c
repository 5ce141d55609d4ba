/* test_repetition_memo.c - the repetition judge with a memo of classifications
 * (xq_repetition_judge_memo) against the judge without one
 * (xq_repetition_judge): the same return value and the same verdict, byte
 * for byte, on every repetition of the records.
 *
 * The memo keeps the classification of each (position, move, rules) from
 * one judge call to the next; it may only save work.  The records are
 * replayed here and the judge is called at every ply whose position has
 * occurred twice or more since the last capture (occurrences 2 and 3),
 * under both rule sets, with a memo per game (as the replay keeps one) and
 * with one memo kept over all the games of a file (positions and moves
 * met in other games, both rule sets mixed).  Positions: the repetition
 * records in tests/data and, when ../shared is there, the first games of
 * the masters, endgame and middlegame sets.
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

#include "pgn_read.h"
#include "repetition.h"
#include "replay.h"

#ifndef XQ_SHARED
#define XQ_SHARED "../shared"
#endif

typedef struct {
    long judged;     /* judge calls that gave a verdict */
    long differ;     /* calls where a memo changed anything */
} tally_memo;

/* Judge the stretch base + moves[0..n-1] without a memo and with each of
 * the memos, under both rule sets and for 2 and 3 occurrences. */
static void compare_stretch(const xq_position *base, int base_ply, const xq_move *moves, int n,
                            xq_rep_memo *game_memo, xq_rep_memo *file_memo, tally_memo *t)
{
    for (int r = 0; r < 2; r++)
        for (int occ = 2; occ <= 3; occ++) {
            xq_rep_verdict plain, per_game, per_file;
            bool a = xq_repetition_judge(base, base_ply, moves, n, occ, (xq_rules)r, &plain);
            bool b = xq_repetition_judge_memo(base, base_ply, moves, n, occ, (xq_rules)r, game_memo, &per_game);
            bool c = xq_repetition_judge_memo(base, base_ply, moves, n, occ, (xq_rules)r, file_memo, &per_file);
            t->judged += a;
            if (a != b || a != c || memcmp(&plain, &per_game, sizeof plain) ||
                memcmp(&plain, &per_file, sizeof plain)) {
                print_message("# differ: ply %d, %d occurrences, %s: %s / %s / %s\n", base_ply + n, occ,
                              xq_rules_str((xq_rules)r), plain.kind, per_game.kind, per_file.kind);
                t->differ++;
            }
        }
}

typedef struct {
    xq_rep_memo game_memo, file_memo;
    tally_memo *t;
} walk_memo;

/* A new game: its memo starts empty (and a freed memo holds nothing). */
static void new_game(void *ctx)
{
    walk_memo *wm = ctx;
    xq_rep_memo_free(&wm->game_memo);
    assert_null(wm->game_memo.entry);
}

static void compare_found(const xqt_repetition *r, void *ctx)
{
    walk_memo *wm = ctx;
    compare_stretch(r->base, r->base_ply, r->moves, r->n, &wm->game_memo, &wm->file_memo, wm->t);
}

/* Every repetition in the main lines of the first max_games records of
 * path, with a memo per game and one for the file. */
static void compare_file(const char *path, int max_games, tally_memo *t)
{
    walk_memo wm = {.t = t};
    xqt_each_repetition(path, max_games, new_game, compare_found, &wm);
    new_game(&wm);
    xq_rep_memo_free(&wm.file_memo);
}

static void report(const char *what, const tally_memo *t)
{
    print_message("# %s: %ld verdicts, %ld differ with a memo\n", what, t->judged, t->differ);
}

static void repetition_records(void **state)
{
    (void)state;
    tally_memo t = {0};
    compare_file("tests/data/repetition-cases.pgn", 1000, &t);
    compare_file("tests/data/repetition-later.pgn", 1000, &t);
    report("tests/data/repetition-*.pgn", &t);
    assert_true(t.judged > 0);
    assert_int_equal(t.differ, 0);
}

static void corpus(void **state)
{
    (void)state;
    tally_memo t = {0};
    compare_file(XQ_SHARED "/corpus/ccpd/masters.pgn.gz", 400, &t);
    compare_file(XQ_SHARED "/corpus/ccpd/endgames.pgn.gz", 400, &t);
    compare_file(XQ_SHARED "/corpus/ccpd/middlegames.pgn.gz", 400, &t);
    report("masters, endgames, middlegames: first 400 games each", &t);
    assert_true(t.judged > 0);
    assert_int_equal(t.differ, 0);
}

/* A zeroed memo, and a freed one, may be freed again. */
static void memo_free_twice(void **state)
{
    (void)state;
    xq_rep_memo m = {0};
    xq_rep_memo_free(&m);
    xq_rep_memo_free(&m);
    xq_rep_memo_free(NULL);
    assert_null(m.entry);
    assert_int_equal(m.n, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(memo_free_twice),
        cmocka_unit_test(repetition_records),
        cmocka_unit_test(corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
