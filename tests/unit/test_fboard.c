/* test_fboard.c - the file-major copy of the board (xq_position.fboard)
 * and the one-piece-on-a-file search that reads it.
 *
 * - fboard equals board (and its 6 tail bytes stay 0:
 *   xq_position_masks_ok) after every step of random games (xq_play,
 *   xq_make, xq_unmake), after random xq_position_put boards and FENs;
 * - xqn_only_rank_on_file (notation_internal.h: one 16-byte compare of
 *   fboard) against a strided scan of board[] for every piece and file
 *   of those positions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "notation_internal.h"
#include "position.h"
#include "test_util.h"

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;

/* A fixed pseudo-random sequence (xorshift64*): the same cases each run. */
static unsigned rnd(unsigned n)
{
    return xqt_xorshift_star(&rng_state, n);
}

/* The reference: the rank of the only piece p on file x by board[], or -1. */
static int ref_only_rank(const xq_position *pos, xq_piece p, int x)
{
    int found = -1;
    for (int r = 0; r < XQ_RANKS; r++)
        if (pos->board[XQ_SQ(x, r)] == p) {
            if (found >= 0) return -1;
            found = r;
        }
    return found;
}

/* fboard agrees with board, and the search with the reference for every
 * piece of both colours on every file. */
static void check_position(const xq_position *pos)
{
    /* the reference itself, once: a position whose fboard was not kept
     * is told apart */
    static bool seen;
    if (!seen) {
        xq_position bad = *pos;
        bad.fboard[XQ_SQUARES - 1] ^= 1;
        assert_false(xq_position_masks_ok(&bad));
        seen = true;
    }
    assert_true(xq_position_masks_ok(pos));
    for (int c = 0; c < 2; c++)
        for (int k = XQ_GENERAL; k <= XQ_SOLDIER; k++)
            for (int x = 0; x < XQ_FILES; x++) {
                xq_piece p = XQ_PIECE(k, c);
                assert_int_equal(xqn_only_rank_on_file(pos, p, x), ref_only_rank(pos, p, x));
            }
}

/* Random legal games from the start, played with xq_play; at each ply
 * also xq_make / xq_unmake of a random legal move, which must give back
 * the position byte for byte. */
static void random_games(void **state)
{
    (void)state;
    static xq_move moves[XQ_MAX_MOVES];
    for (int game = 0; game < 300; game++) {
        xq_position pos;
        xq_position_start(&pos);
        xq_checks s;
        xq_checks_init(&s, &pos);
        check_position(&pos);
        for (int ply = 0; ply < 200; ply++) {
            int n = xq_legal_moves(&pos, moves);
            if (n == 0) break;
            xq_position before = pos;
            xq_undo u;
            xq_move t = moves[rnd((unsigned)n)];
            xq_make(&pos, t, &u);
            check_position(&pos);
            xq_unmake(&pos, t, &u);
            assert_memory_equal(&pos, &before, sizeof pos);
            xq_play(&pos, moves[rnd((unsigned)n)], &s);
            check_position(&pos);
        }
    }
}

/* Random boards built with xq_position_put (pieces put, replaced and
 * taken away again), however impossible: files with many equal pieces. */
static void random_puts(void **state)
{
    (void)state;
    for (int i = 0; i < 2000; i++) {
        xq_position pos;
        xq_position_clear(&pos);
        check_position(&pos);
        int steps = (int)rnd(120);
        for (int j = 0; j < steps; j++) {
            int sq = (int)rnd(XQ_SQUARES);
            unsigned k = rnd(9);   /* 0 and 8: empty the square */
            xq_piece p = (k == 0 || k == 8) ? XQ_NONE : XQ_PIECE(k, rnd(2));
            xq_position_put(&pos, sq, p);
        }
        check_position(&pos);
    }
}

/* Positions from FENs, and the start position against its FEN. */
static void fens(void **state)
{
    (void)state;
    static const char *const fen[] = {
        XQ_START_FEN,
        "4k4/4R4/4R4/4R4/4R4/4R4/4R4/4R4/4R4/4K4 w",
        "RRRRkRRRR/RRRRRRRRR/9/9/9/9/9/9/rrrrrrrrr/rrrrKrrrr w",
        "3k5/9/9/9/9/9/9/9/9/5K3 b",
        "9/9/9/9/9/9/9/9/9/9 w",
    };
    for (size_t i = 0; i < sizeof fen / sizeof fen[0]; i++) {
        xq_position pos;
        char err[128];
        assert_true(xq_fen_read(&pos, fen[i], err, sizeof err));
        check_position(&pos);
    }
    xq_position a, b;
    xq_position_start(&a);
    assert_true(xq_fen_read(&b, XQ_START_FEN, NULL, 0));
    assert_memory_equal(a.fboard, b.fboard, sizeof a.fboard);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_games),
        cmocka_unit_test(random_puts),
        cmocka_unit_test(fens),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
