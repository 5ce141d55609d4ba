/* test_mate_table.c - the move classification with a table of
 * mate-search results (xq_classify_move_with, repetition_classify.c)
 * against the classification without one (xq_classify_move, itself
 * compared with the plain reference implementation by
 * test_repetition_fast.c): every fact of every move (check, mate threat,
 * victims and chasers, soldier and pinner victims, act, idle kind) must
 * be the same, byte for byte, under both rule sets.
 *
 * The table keeps, for a position and a depth, whether the side to move
 * mates by checks within it, and answers later searches from it (a mate
 * within d is one within every deeper search, no mate within d none
 * within every shallower one).  One table is passed to every
 * classification of a test, as one is kept by every worker; each
 * classification empties it first, so answers are reused within its own
 * searches, at other depths (the threat searches of 7 plies, the capture
 * searches of 3).  Positions: every ply
 * of the repetition records in tests/data with every legal move; plies of
 * the endgame, middlegame and masters sets of ../shared (skipped when it
 * is missing), the move played and, at some plies, every legal move; and
 * random games from the start position (every legal move of every ply).
 */
#define XQ_REPETITION_INTERNAL   /* xq_classify_move_with, xq_mate_table */
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
    xq_mate_table *table;   /* shared by every comparison of a test */
    long moves, differ, threats, checks, chases;
} tally_tt;

/* Classify m in pos with and without the table, under both rule sets. */
static void compare_move(const xq_position *pos, xq_move m, tally_tt *t)
{
    for (int r = 0; r < 2; r++) {
        xq_move_class with, without;
        xq_classify_move_with(pos, m, (xq_rules)r, t->table, &with);
        xq_classify_move(pos, m, (xq_rules)r, &without);
        t->moves++;
        t->threats += without.mate_threat;
        t->checks += without.check;
        t->chases += without.nvictims > 0;
        if (memcmp(&with, &without, sizeof with)) {
            char fen[XQ_FEN_MAX];
            xq_fen_write(pos, fen, sizeof fen);
            print_message("# differ (%s): %s move %d-%d: act %d/%d threat %d/%d victims %d/%d\n",
                          xq_rules_str((xq_rules)r), fen, XQ_FROM(m), XQ_TO(m), with.act, without.act,
                          with.mate_threat, without.mate_threat, with.nvictims, without.nvictims);
            t->differ++;
        }
    }
}

/* compare_move for every legal move of pos. */
static void compare_all_moves(const xq_position *pos, tally_tt *t)
{
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_legal_moves(pos, moves);
    for (int i = 0; i < n; i++) compare_move(pos, moves[i], t);
}

/* The main lines of the first max_games records of path: the move played
 * at every `every`-th ply, and every legal move at every `all_every`-th
 * ply (0: never). */
static void compare_file(const char *path, int every, int all_every, int max_games, tally_tt *t)
{
    xqt_lines w;
    xqt_lines_open(&w, path, max_games);
    long ply = 0;
    while (xqt_lines_game(&w))
        for (xq_move m; xqt_lines_move(&w, &m); xqt_lines_play(&w, m), ply++) {
            if (ply % every == 0) compare_move(&w.pos, m, t);
            if (all_every && ply % all_every == 0) compare_all_moves(&w.pos, t);
        }
    xqt_lines_close(&w);
}

static void report(const char *what, const tally_tt *t)
{
    print_message("# %s: %ld classifications, %ld differ (%ld checks, %ld mate threats, %ld chases)\n", what,
                  t->moves, t->differ, t->checks, t->threats, t->chases);
}

static void tally_open(tally_tt *t)
{
    memset(t, 0, sizeof *t);
    t->table = xq_mate_table_new();
    assert_non_null(t->table);
}

static void repetition_records(void **state)
{
    (void)state;
    tally_tt t;
    tally_open(&t);
    compare_file("tests/data/repetition-cases.pgn", 1, 1, 1000, &t);
    compare_file("tests/data/repetition-later.pgn", 1, 1, 1000, &t);
    report("tests/data/repetition-*.pgn, every legal move", &t);
    xq_mate_table_free(t.table);
    assert_true(t.moves > 0);
    assert_int_equal(t.differ, 0);
}

static void corpus(void **state)
{
    (void)state;
    tally_tt t;
    tally_open(&t);
    compare_file(XQ_SHARED "/corpus/ccpd/endgames.pgn.gz", 2, 97, 600, &t);
    compare_file(XQ_SHARED "/corpus/ccpd/middlegames.pgn.gz", 7, 211, 400, &t);
    compare_file(XQ_SHARED "/corpus/ccpd/masters.pgn.gz", 5, 307, 300, &t);
    report("endgames, middlegames, masters", &t);
    xq_mate_table_free(t.table);
    assert_true(t.threats > 0 && t.chases > 0 && t.checks > 0);
    assert_int_equal(t.differ, 0);
}

/* Every legal move of every third position of a random game. */
static void visit_game(xqt_walk *w)
{
    if (w->ply % 3 == 0) compare_all_moves(&w->pos, w->ctx);
}

/* Random games from the start position (a fixed seed): every legal move
 * of every third ply classified, then one played at random; a game stops
 * at mate or after 120 plies.  Random play hangs pieces and walks into
 * checks and mates far more often than masters do. */
static void random_games(void **state)
{
    (void)state;
    tally_tt t;
    tally_open(&t);
    uint64_t seed = 0x2545F4914F6CDD1Dull;
    xqt_walk w = {.rng = &seed, .bias = XQT_UNIFORM, .visit = visit_game, .ctx = &t};
    xqt_walk_games(&w, 24, 120);
    report("random games", &t);
    xq_mate_table_free(t.table);
    assert_true(t.threats > 0 && t.chases > 0);
    assert_int_equal(t.differ, 0);
}

/* A NULL table may be freed; a new one is empty (answers nothing). */
static void table_new_free(void **state)
{
    (void)state;
    xq_mate_table_free(NULL);
    xq_mate_table *tt = xq_mate_table_new();
    assert_non_null(tt);
    xq_position pos;
    xq_position_start(&pos);
    xq_move_class a, b;
    xq_classify_move_with(&pos, XQ_MOVE(XQ_SQ(1, 2), XQ_SQ(4, 2)), XQ_RULES_CXA1999, tt, &a);
    xq_classify_move(&pos, XQ_MOVE(XQ_SQ(1, 2), XQ_SQ(4, 2)), XQ_RULES_CXA1999, &b);
    assert_memory_equal(&a, &b, sizeof a);
    xq_mate_table_free(tt);
}

/* A position built to cut the old threat search short (break-it test,
 * round five): Black to move after 1... e7d7 2. c1b1 already mates by
 * checks within 3 plies (2... e3d1+ first), but a search of 7 plies that
 * tries deep lines first ran out of its budget and said "no", so 2... d7e7,
 * after which Black again mates within 3 plies, was called a new mate
 * threat (and Black's moves "attacks with idle moves").  The threat is
 * not new: d7e7 is an idle move, with and without the table. */
static void mate_not_new_after_cut_search(void **state)
{
    (void)state;
    xq_position pos;
    char err[160];
    assert_true(xq_fen_read(&pos, "3a5/4a4/4k4/1c7/5C3/6r2/3cn2N1/5K3/2C5N/2B1rp3 b - - 0 1", err, sizeof err));
    const xq_move line[] = {XQ_MOVE(XQ_SQ(4, 7), XQ_SQ(3, 7)), XQ_MOVE(XQ_SQ(2, 1), XQ_SQ(1, 1))};
    for (int i = 0; i < 2; i++) {
        xq_undo u;
        assert_int_equal(xq_move_legality(&pos, line[i]), XQ_LEGAL);
        xq_make(&pos, line[i], &u);
    }
    xq_move d7e7 = XQ_MOVE(XQ_SQ(3, 7), XQ_SQ(4, 7));
    xq_mate_table *tt = xq_mate_table_new();
    xq_move_class a, b;
    xq_classify_move(&pos, d7e7, XQ_RULES_CXA1999, &a);
    xq_classify_move_with(&pos, d7e7, XQ_RULES_CXA1999, tt, &b);
    assert_false(a.mate_threat);
    assert_int_equal(a.act, XQ_ACT_IDLE);
    assert_memory_equal(&a, &b, sizeof a);
    xq_mate_table_free(tt);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_new_free),
        cmocka_unit_test(mate_not_new_after_cut_search),
        cmocka_unit_test(repetition_records),
        cmocka_unit_test(random_games),
        cmocka_unit_test(corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
