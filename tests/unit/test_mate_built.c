/* test_mate_built.c - the mate-by-checks search of the repetition judge
 * (xq_mate_search, repetition_classify.c) on positions built around a
 * mate in one: ones where it exists (two chariots, a horse over its leg,
 * the flying general, Black to move) and ones where only a block or a
 * capture prevents it (a chariot's interposition, a second cannon
 * screen, a horse's leg filled, a horse that takes the checker), and a
 * lone chariot.  The depth-1 answer is asserted; at depths 1, 3 and 5,
 * quiet or not, and after every legal move of the side to move (the
 * other side's searches), the answer and budget left equal those of the
 * search before its per-node work was cut (ref_mate_search.h) with the
 * budget that suffices and budgets that cut it short, with and without a
 * table (mate_compare.h).  The tests of a shortcut of the depth-1 search
 * start from these positions.
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

enum { THREAT_BUDGET = 6000, CAPTURE_BUDGET = 1500 };

typedef struct {
    const char *fen;
    bool mate_in_one;   /* the side to move mates in one */
} built;

static void built_positions(void **state)
{
    (void)state;
    static const built cases[] = {
        /* two chariots: a8 holds rank 8, b0-b9 checks along rank 9 */
        {"4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1", true},
        /* the same, but a black chariot on c5 blocks on c9 */
        {"4k4/R8/9/9/2r6/9/9/9/9/1R1K5 w - - 0 1", false},
        /* a cannon's check over the elephant on e7: an advisor to e8
         * makes a second screen, the elephant may step off */
        {"3aka3/9/4b4/9/9/9/9/C8/9/3K5 w - - 0 1", false},
        /* a horse from h6 checks over its leg f8, the advisors hold d9
         * and f9, the chariot on a8 covers e8 */
        {"3aka3/R8/9/7N1/9/9/9/9/9/3K5 w - - 0 1", true},
        /* the flying general: e9 faces the red general on e0 */
        {"3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1", true},
        /* the same with a black horse that takes on b9 from c7 */
        {"3k5/R8/2n6/9/9/9/9/9/9/1R2K4 w - - 0 1", false},
        /* the horse's mate, but a black chariot on f3 fills the leg f8
         * (h6-g8) or takes the horse (h6-f7) */
        {"3aka3/R8/9/7N1/9/9/5r3/9/9/3K5 w - - 0 1", false},
        /* a lone chariot: the general keeps a flight */
        {"4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", false},
        /* Black to move: the mirror of the first */
        {"1r1k5/9/9/9/9/9/9/9/r8/4K4 b - - 0 1", true},
    };
    mate_tally t;
    memset(&t, 0, sizeof t);
    t.table = xq_mate_table_new();
    t.ref_table = calloc(1, sizeof *t.ref_table);
    assert_non_null(t.table);
    assert_non_null(t.ref_table);
    t.rng = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        xq_position pos;
        char err[128];
        assert_true(xq_fen_read(&pos, cases[i].fen, err, sizeof err));
        assert_null(xq_position_check(&pos));
        int left;
        bool mate = xq_mate_search(&pos, 1, THREAT_BUDGET, true, NULL, &left);
        if (mate != cases[i].mate_in_one) print_message("# %s: mate in one %d\n", cases[i].fen, mate);
        assert_int_equal(mate, cases[i].mate_in_one);
        assert_true(left >= 0);
        for (int q = 0; q < 2; q++) {
            compare_search(&pos, 1, THREAT_BUDGET, q, &t);
            compare_search(&pos, 3, CAPTURE_BUDGET, q, &t);
            compare_search(&pos, 5, THREAT_BUDGET, q, &t);
        }
        /* and after each legal move, the other side's searches */
        xq_move moves[XQ_MAX_MOVES];
        int n = xq_legal_moves(&pos, moves);
        for (int k = 0; k < n; k++) {
            xq_position after = pos;
            xq_undo u;
            xq_make(&after, moves[k], &u);
            compare_search(&after, 1, THREAT_BUDGET, false, &t);
            compare_search(&after, 3, CAPTURE_BUDGET, false, &t);
        }
    }
    print_message("# built positions: %ld searches (%ld cut short on purpose), %ld mates, %ld differ\n", t.searches,
                  t.cut, t.mates, t.differ);
    xq_mate_table_free(t.table);
    free(t.ref_table);
    assert_int_equal(t.differ, 0);
    assert_true(t.mates > 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(built_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
