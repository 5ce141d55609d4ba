/* test_perft.c - xq_perft (movegen.c's fast perft: pieces kept in lists,
 * the leaves counted without being listed, legality read from what each
 * piece stands on) against the plain count: every legal move of
 * xq_legal_moves made with xq_make, to the same depth.  On boards built
 * for the cases the fast path decides without a full test (a cannon
 * facing a general with no screen or two, pins by chariots and cannons
 * on files and ranks, the flying general, horse legs, checks and double
 * checks, a cannon over its own general), on the positions along master
 * games and the checks one move from them, on random games that seek
 * lines and captures, and on odd and impossible boards (the plain path).
 * Every count must be equal, and the position left as the plain count
 * leaves it (unchanged, on every board with one general a side). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

static long compared, compared_in_check;

/* xq_perft of pos to depths 1..depth equals the plain count, and leaves
 * pos as it was. */
static void same_perft(const xq_position *pos, int depth)
{
    for (int d = 1; d <= depth; d++) {
        xq_position a = *pos, b = *pos;
        uint64_t fast = xq_perft(&a, d), plain = xqt_perft_with(&b, d, xq_legal_moves);
        if (fast != plain) {
            char fen[XQ_FEN_MAX];
            xq_fen_write(pos, fen, sizeof fen);
            fail_msg("perft %d of %s: %llu, plain count %llu", d, fen, (unsigned long long)fast,
                     (unsigned long long)plain);
        }
        /* as the plain count leaves it: unchanged, but on boards with
         * two generals of a side, whose unmake may name the other one */
        const char *diff = xqt_position_diff(&a, &b);
        if (diff) fail_msg("xq_perft left the position's %s unlike the plain count", diff);
        assert_true(xq_position_masks_ok(&a));
    }
    compared++;
    compared_in_check += xq_in_check(pos, pos->side);
}

static void same_perft_fen(const char *fen, int depth)
{
    xq_position p;
    char err[128];
    if (!xq_fen_read(&p, fen, err, sizeof err)) fail_msg("%s: %s", fen, err);
    same_perft(&p, depth);
}

/* Boards for each case the fast count decides by itself (a side to move
 * whose general the other side does not attack, one general each). */
static const char *const CASES[] = {
    /* a cannon facing the general with nothing between: a piece stepping
     * in (chariot, horse, advisor, soldier, elephant) becomes its screen */
    "4k4/9/9/9/9/4c4/9/R8/2N6/3AK1B2 w",
    "3akab2/9/9/9/9/4C4/9/9/9/3K5 b",
    "4k4/9/9/9/c3P3K/9/9/9/9/9 w",
    /* two screens: either one moving off the line checks; one moving
     * along it or taking the cannon does not */
    "4k4/9/9/4c4/4P4/9/9/4N4/9/4K4 w",
    "4k4/9/9/4c4/4p4/9/9/4R4/9/3AK4 w",
    "4k4/4a4/4c4/4C4/4p4/9/9/4R4/9/3AK4 w",
    "c2NR1K2/9/9/9/9/9/9/9/9/5k3 b",
    "4k4/9/9/9/9/4c4/9/4N4/4c4/4K4 w",   /* an enemy cannon first, then the screen */
    /* chariot pins on a file and a rank, and captures along the pin */
    "3k5/9/9/9/9/9/9/9/9/r2NK4 w",
    "3k5/9/9/9/9/r8/9/9/4R4/r3K4 w",
    "5k3/9/9/9/4r4/9/4C4/4N4/9/4K4 w",
    "5k3/9/9/4r4/4c4/9/9/4C4/4A4/4K4 w",
    /* the flying general: the one piece between the generals is pinned */
    "4k4/9/9/9/9/9/9/9/4N4/4K4 w",
    "4k4/4a4/9/9/9/9/9/9/9/4K4 b",
    "4k4/9/9/9/4p4/4P4/9/9/9/4K4 w",
    "4k4/9/9/4c4/9/9/9/4C4/9/4K4 b",
    /* horse legs: a piece on a leg with an enemy horse behind it */
    "4k4/9/9/9/9/9/9/3n5/3R5/4K4 w",
    "4k4/9/9/9/9/9/9/3n1n3/3A1A3/4K4 w",
    "4k4/9/9/9/9/9/9/5n3/3P1C3/4K4 w",
    "3k5/4a4/2N1N4/9/9/9/9/9/9/4K4 b",
    /* in check: by a chariot, a cannon (its screen may move away), a
     * horse, a soldier, the flying general being none (both in check) */
    "3k5/9/9/9/9/9/9/9/9/r2AK4 w",
    "4k4/9/9/9/4c4/9/9/4N4/9/3AK4 w",
    "3k5/9/9/9/9/9/9/3n5/2R6/4K4 w",
    "3k5/9/9/9/9/9/9/9/4p4/3AK4 w",
    "3k5/9/9/9/9/9/9/9/4p4/3AKA3 w",
    /* double checks: chariot and horse, cannon and chariot, two horses */
    "3k5/9/9/9/R8/9/9/3n5/9/r3K1C2 w",
    "3k5/9/9/9/4c4/9/9/4N4/9/r3K4 w",
    "3k5/9/9/9/9/9/9/3n1n3/9/4K4 w",
    /* a cannon taking over its own general, a general beside an open
     * file of the other general */
    "9/9/3k5/9/9/9/9/9/9/2C1Kn1r1 w",
    "9/9/3k5/9/9/9/9/9/9/2C1K2r1 w",
    "4k4/9/9/9/9/9/9/9/9/3K5 w",
    /* after 炮二平五 (engines-survey.md); the start and the twelve perft positions: xqt_perft_fens */
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b",
};

static void built_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) same_perft_fen(CASES[i], 3);
    for (size_t i = 0; i < sizeof xqt_perft_fens / sizeof xqt_perft_fens[0]; i++) same_perft_fen(xqt_perft_fens[i], 3);
    assert_true(compared_in_check >= 9);
}

/* The engines' counts (engines-survey.md "Goal 4") from the start. */
static void start_counts(void **state)
{
    (void)state;
    static const uint64_t want[] = {1, 44, 1920, 79666, 3290240};
    xq_position p, start;
    xq_position_start(&p);
    start = p;
    for (int d = 0; d <= 4; d++) assert_int_equal(xq_perft(&p, d), want[d]);
    assert_null(xqt_position_diff(&p, &start));
}

/* Every position along the main lines of master games (depth 2, every
 * 24th ply also depth 3), and each position in check one legal move away
 * from them (depth 2). */
static void check_replies(const xq_position *pos)
{
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_legal_moves(pos, moves);
    for (int i = 0; i < n; i++) {
        xq_position p = *pos;
        xq_undo u;
        xq_make(&p, moves[i], &u);
        if (xq_in_check(&p, p.side)) same_perft(&p, 2);
    }
}

static void master_lines(void **state)
{
    (void)state;
    long before = compared_in_check;
    xqt_lines w;
    xqt_lines_open(&w, XQ_SHARED "/corpus/ccpd/masters.pgn.gz", 40);
    while (xqt_lines_game(&w)) {
        xq_move m;
        do {
            same_perft(&w.pos, w.ply % 24 == 12 ? 3 : 2);
            if (w.ply % 4 == 0) check_replies(&w.pos);
        } while (xqt_lines_move(&w, &m) && (xqt_lines_play(&w, m), true));
    }
    xqt_lines_close(&w);
    assert_true(compared_in_check - before >= 200);
}

/* Random games from the start that seek lines and captures (thinned
 * boards, generals on open files, screens), depth 2 at every ply. */
static void visit(xqt_walk *w) { same_perft(&w->pos, 2); }

static void random_walks(void **state)
{
    (void)state;
    uint64_t rng = 16;
    xqt_walk w = {.rng = &rng, .visit = visit, .visit_end = true};
    XQT_WALK_SERIES(&w, {XQT_LINES, 12, 150}, {XQT_CAPTURES, 12, 150});
    size_t n;
    const char *const *odd = xqt_odd_fens(&n);
    w.bias = XQT_LINES;
    xqt_walk_fens(&w, odd, n, 30);
}

/* Boards the fast path leaves to the plain one (two generals of a side,
 * none, the side not to move in check), and other odd ones: the same
 * counts. */
static void odd_boards(void **state)
{
    (void)state;
    size_t n;
    const xqt_odd_board *b = xqt_impossible_boards(&n);
    for (size_t i = 0; i < n; i++) {
        xq_position p;
        xqt_impossible_position(&b[i], &p);
        same_perft(&p, 3);
    }
    const char *const *odd = xqt_odd_fens(&n);
    for (size_t i = 0; i < n; i++) same_perft_fen(odd[i], 3);
    static const char *const more[] = {
        "RRRRRRRRR/9/9/9/4k4/9/9/9/9/4K4 w",
        "rrrrrrrrr/9/9/9/9/9/9/9/9/RRRR1RRRR b",
        "9/9/9/9/4k4/4K4/9/9/9/9 b",
        "K8/9/9/9/9/9/9/9/9/8k w",
        "9/9/9/4n4/3nKn3/4n4/9/9/9/4k4 w",
        "c3k3c/9/9/9/C3C3C/9/9/9/9/C3K3C w",
        "PPPPkPPPP/PPPPPPPPP/9/9/9/9/9/9/ppppppppp/ppppKpppp w",
        "NNNNNNNNN/NNNNNNNNN/9/9/4k4/9/9/9/nnnnnnnnn/4K4 w",
        "2k1K4/9/9/9/9/9/9/9/9/9 w",
        "9/9/9/9/9/9/9/9/9/9 w",
    };
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) same_perft_fen(more[i], 2);
    /* a second Red general, the one general[] names, taken by xq_make:
     * general[] still names its square, the other one stands */
    xq_position p;
    xqt_impossible_position(&b[0], &p);
    xq_position_set_side(&p, XQ_BLACK);
    xq_undo u;
    xq_make(&p, XQ_MOVE(XQ_SQ(4, 5), XQ_SQ(4, 1)), &u);
    assert_int_equal(p.general[XQ_RED], XQ_SQ(4, 1));
    same_perft(&p, 3);
    print_message("%ld positions compared, %ld in check\n", compared, compared_in_check);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(built_cases),
        cmocka_unit_test(start_counts),
        cmocka_unit_test(master_lines),
        cmocka_unit_test(random_walks),
        cmocka_unit_test(odd_boards),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
