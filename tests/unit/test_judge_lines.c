/* test_judge_lines.c - the mate-by-checks search of the repetition judge
 * (xq_mate_search) against the search before its per-node work was cut
 * (ref_mate_search.h), on positions built for two of its shortcuts:
 *  - a piece of the mover on the other general's file or rank, with an
 *    own chariot or cannon on that line, is listed for every move (its
 *    leaving the line may open a check); when leaving it opens none
 *    (leaving_opens), its moves that land off the general's file and
 *    rank are known to give no check without quiet_move_checks;
 *  - the defender's general steps (the usual replies to a check) are
 *    judged on the board as it is (xq_move_safe), the move made only
 *    when a search follows it.
 * Positions: both generals in their palaces, a chariot or cannon of the
 * mover on the other general's file or rank, one to three pieces of
 * either side on that line, a few more pieces anywhere; kept when they
 * could arise (xq_position_check).  For each, the threat search (quiet),
 * the search of the position as it is (not quiet) and the capture search
 * depth give the same answer and budget left as the reference, with the
 * budget that suffices and smaller ones (each cut at another move: every
 * one up to 24, then a sample with the last two before it suffices),
 * with and without a table.  The test also counts the pieces on the line
 * whose leaving opens a check and those whose leaving opens none (both
 * kinds must be met often), and in debug builds each skipped check test
 * and each general step is asserted against the played move.
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

enum { THREAT_BUDGET = 6000, CAPTURE_BUDGET = 1500, POSITIONS = 800 };

typedef struct {
    mate_tally m;             /* the searches compared */
    long opens, opens_none;   /* pieces on the line whose leaving it opens a check / none */
} tally_lines;

/* A random piece of colour c that may stand on sq (the counts and points
 * xq_position_check asks for are tested afterwards). */
static xq_piece random_piece(uint64_t *rng, xq_color c)
{
    static const xq_kind kinds[] = {XQ_ADVISOR, XQ_ELEPHANT, XQ_HORSE, XQ_CHARIOT, XQ_CANNON, XQ_SOLDIER, XQ_SOLDIER};
    return XQ_PIECE(kinds[xqt_rnd(rng, sizeof kinds / sizeof kinds[0])], c);
}

/* Put p on sq when sq is empty. */
static void put_empty(xq_position *pos, int sq, xq_piece p)
{
    if (!pos->board[sq]) xq_position_put(pos, sq, p);
}

/* A position with Red to move, a red chariot or cannon on the black
 * general's file or rank and one to three pieces on that line; false
 * when it could not arise. */
static bool line_position(uint64_t *rng, xq_position *pos)
{
    xq_position_clear(pos);
    int bk = XQ_SQ(3 + (int)xqt_rnd(rng, 3), 7 + (int)xqt_rnd(rng, 3));
    int rk = XQ_SQ(3 + (int)xqt_rnd(rng, 3), (int)xqt_rnd(rng, 3));
    xq_position_put(pos, bk, XQ_PIECE(XQ_GENERAL, XQ_BLACK));
    xq_position_put(pos, rk, XQ_PIECE(XQ_GENERAL, XQ_RED));
    bool file = xqt_rnd(rng, 3) != 0;   /* the file more often: the central cannon */
    int kf = XQ_FILE(bk), kr = XQ_RANK(bk);
    int slider = file ? XQ_SQ(kf, (int)xqt_rnd(rng, XQ_RANKS)) : XQ_SQ((int)xqt_rnd(rng, XQ_FILES), kr);
    put_empty(pos, slider, XQ_PIECE(xqt_rnd(rng, 2) ? XQ_CANNON : XQ_CHARIOT, XQ_RED));
    int on_line = 1 + (int)xqt_rnd(rng, 3);
    for (int i = 0; i < on_line; i++) {
        int sq = file ? XQ_SQ(kf, (int)xqt_rnd(rng, XQ_RANKS)) : XQ_SQ((int)xqt_rnd(rng, XQ_FILES), kr);
        put_empty(pos, sq, random_piece(rng, (xq_color)(xqt_rnd(rng, 3) == 0)));
    }
    int more = 2 + (int)xqt_rnd(rng, 6);
    for (int i = 0; i < more; i++)
        put_empty(pos, (int)xqt_rnd(rng, XQ_SQUARES), random_piece(rng, (xq_color)xqt_rnd(rng, 2)));
    xq_position_set_side(pos, XQ_RED);
    return xq_position_check(pos) == NULL;
}

/* Count the red pieces other than horses on the black general's file or
 * rank, with a red chariot or cannon on that line, by whether taking
 * them off the board checks the black general. */
static void count_line_pieces(const xq_position *pos, tally_lines *t)
{
    int bk = pos->general[XQ_BLACK], kf = XQ_FILE(bk), kr = XQ_RANK(bk);
    for (int line = 0; line < 2; line++) {
        bool slider = false;
        for (int i = 0; i < (line ? XQ_FILES : XQ_RANKS); i++) {
            xq_piece p = pos->board[line ? XQ_SQ(i, kr) : XQ_SQ(kf, i)];
            slider |= p == XQ_PIECE(XQ_CHARIOT, XQ_RED) || p == XQ_PIECE(XQ_CANNON, XQ_RED);
        }
        if (!slider) continue;
        for (int i = 0; i < (line ? XQ_FILES : XQ_RANKS); i++) {
            int sq = line ? XQ_SQ(i, kr) : XQ_SQ(kf, i);
            xq_piece p = pos->board[sq];
            if (!p || XQ_COLOR(p) != XQ_RED || XQ_KIND(p) == XQ_HORSE || sq == bk) continue;
            xq_position off = *pos;
            xq_position_put(&off, sq, XQ_NONE);
            if (xq_in_check(&off, XQ_BLACK)) t->opens++;
            else t->opens_none++;
        }
    }
}

static void line_positions(void **state)
{
    (void)state;
    tally_lines t;
    memset(&t, 0, sizeof t);
    t.m.table = xq_mate_table_new();
    t.m.ref_table = calloc(1, sizeof *t.m.ref_table);
    assert_non_null(t.m.table);
    assert_non_null(t.m.ref_table);
    uint64_t rng = 0xA0761D6478BD642Full;
    t.m.rng = 0x9E3779B97F4A7C15ull;
    int kept = 0;
    for (long tries = 0; kept < POSITIONS && tries < 200L * POSITIONS; tries++) {
        xq_position pos;
        if (!line_position(&rng, &pos)) continue;
        kept++;
        count_line_pieces(&pos, &t);
        compare_search(&pos, 7, THREAT_BUDGET, true, &t.m);
        compare_search(&pos, 5, THREAT_BUDGET, false, &t.m);
        compare_search(&pos, 3, CAPTURE_BUDGET, true, &t.m);
        /* and after each legal move of Red, Black's answer searches */
        xq_move moves[XQ_MAX_MOVES];
        int n = xq_legal_moves(&pos, moves);
        for (int i = 0; i < n; i += 3) {
            xq_position after = pos;
            xq_undo u;
            xq_make(&after, moves[i], &u);
            if (!xq_in_check(&after, XQ_BLACK)) {
                xq_position threat = after;
                xq_position_set_side(&threat, XQ_RED);
                compare_search(&threat, 7, THREAT_BUDGET, true, &t.m);
            }
        }
    }
    print_message("# %d positions, %ld searches, %ld mates, line pieces opening a check %ld, opening none %ld, %ld differ\n",
                  kept, t.m.searches, t.m.mates, t.opens, t.opens_none, t.m.differ);
    xq_mate_table_free(t.m.table);
    free(t.m.ref_table);
    assert_int_equal(kept, POSITIONS);
    assert_int_equal(t.m.differ, 0);
    assert_true(t.m.mates > 100);
    assert_true(t.opens > 100);
    assert_true(t.opens_none > 500);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(line_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
