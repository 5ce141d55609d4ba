/* test_play_fast.c - playing a move and testing legality the cheap way
 * (movegen.c, board_tables.h) against the full tests.
 *
 * - xq_play (make plus the check state from what the move changed:
 *   xq_play_check_moved's ray tables, horse and soldier tests) against
 *   xq_make and xq_in_check of both sides, and xq_checks_after likewise;
 * - xq_move_safe and xq_quiet_move_safe (the own-general test alone, the
 *   latter's lines read through the same ray tables) against
 *   xq_move_legality, for every move whose geometry it accepts;
 * - xq_has_legal_move and xq_has_legal_move_known (their one-step
 *   shortcuts) against xq_legal_moves.
 * Positions: random legal games from the start (captures preferred half
 * the time, down to mates and stalemates), random pseudo-legal walks
 * (generals captured, checks ignored), random boards however impossible
 * (generals anywhere or missing, facing, the side not to move in check,
 * nine chariots) and odd FENs the reader accepts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "position.h"
#include "test_util.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

/* A fixed pseudo-random sequence (xorshift64*): the same cases each run. */
static unsigned rnd(unsigned n)
{
    return xqt_xorshift_star(&rng_state, n);
}

/* Every field of two positions equal (the masks through the board). */
static void same_position(const xq_position *a, const xq_position *b)
{
    assert_memory_equal(a->board, b->board, sizeof a->board);
    assert_int_equal(a->general[0], b->general[0]);
    assert_int_equal(a->general[1], b->general[1]);
    assert_int_equal(a->side, b->side);
    assert_int_equal(a->halfmove, b->halfmove);
    assert_int_equal(a->fullmove, b->fullmove);
    assert_true(a->key == b->key);
    assert_memory_equal(a->rank_occ, b->rank_occ, sizeof a->rank_occ);
    assert_memory_equal(a->file_occ, b->file_occ, sizeof a->file_occ);
    assert_true(xq_position_masks_ok(a));
}

/* Whether xq_move_legality accepts the geometry of m (its answer is
 * then legal or one of the two own-general reasons). */
static bool shape_ok(xq_illegal why)
{
    return why == XQ_LEGAL || why == XQ_ILL_LEAVES_CHECK || why == XQ_ILL_GENERALS_FACE;
}

static int checks_seen, plays_seen, unsafe_seen;

/* Every move of the side to move with an accepted geometry: the safety
 * tests against xq_move_legality; every legal one played with xq_play
 * and xq_checks_after against xq_make and xq_in_check. */
static void check_position(const xq_position *pos)
{
    xq_checks s0;
    xq_checks_init(&s0, pos);
    bool chk = xq_in_check(pos, pos->side);
    assert_int_equal(s0.in_check[pos->side], chk);
    for (int from = 0; from < XQ_SQUARES; from++) {
        xq_piece p = pos->board[from];
        if (!p || XQ_COLOR(p) != pos->side) continue;
        for (int to = 0; to < XQ_SQUARES; to++) {
            xq_move m = XQ_MOVE(from, to);
            xq_illegal why = xq_move_legality(pos, m);
            if (!shape_ok(why)) continue;
            bool legal = why == XQ_LEGAL;
            unsafe_seen += !legal;
            if (xq_move_safe(pos, from, to) != legal) fail_msg("xq_move_safe %d-%d", from, to);
            if (!chk && XQ_KIND(p) != XQ_GENERAL && xq_quiet_move_safe(pos, from, to) != legal)
                fail_msg("xq_quiet_move_safe %d-%d", from, to);
            assert_int_equal(xq_move_legality_known(pos, m, chk), why);
            if (!legal) continue;
            xq_position ref = *pos, fast = *pos, after = *pos;
            xq_undo u;
            xq_make(&ref, m, &u);
            xq_checks s = s0, t = s0;
            xq_piece cap = xq_play(&fast, m, &s);
            assert_int_equal(cap, u.captured);
            same_position(&fast, &ref);
            xq_make(&after, m, &u);
            xq_checks_after(&t, &after, m);
            for (int c = 0; c < 2; c++) {
                bool want = xq_in_check(&ref, (xq_color)c);
                /* the mover is never in check after a legal move; the
                 * other side as xq_in_check says */
                if (c == (int)pos->side) want = false;
                if (s.in_check[c] != want) fail_msg("xq_play check %d-%d colour %d", from, to, c);
                if (t.in_check[c] != want) fail_msg("xq_checks_after %d-%d colour %d", from, to, c);
            }
            checks_seen += s.in_check[ref.side];
            plays_seen++;
        }
    }
    static xq_move moves[XQ_MAX_MOVES];
    bool any = xq_legal_moves(pos, moves) > 0;
    assert_int_equal(xq_has_legal_move(pos), any);
    assert_int_equal(xq_has_legal_move_known(pos, chk), any);
}

/* A random legal move (a capture half the time when there is one), or
 * XQ_MOVE_NONE at a mate or stalemate. */
static xq_move random_legal(const xq_position *pos)
{
    static xq_move moves[XQ_MAX_MOVES];
    int n = xq_legal_moves(pos, moves);
    if (n == 0) return XQ_MOVE_NONE;
    xq_move m = moves[rnd((unsigned)n)];
    if (rnd(2))
        for (int i = 0; i < n; i++)
            if (pos->board[XQ_TO(moves[i])]) return moves[i];
    return m;
}

/* Random legal games from the start: every position. */
static void random_games(void **state)
{
    (void)state;
    int ends = 0;
    for (int game = 0; game < 150; game++) {
        xq_position pos;
        xq_position_start(&pos);
        for (int ply = 0; ply < 300; ply++) {
            check_position(&pos);
            xq_move m = random_legal(&pos);
            if (m == XQ_MOVE_NONE) {
                ends++;
                break;
            }
            xq_undo u;
            xq_make(&pos, m, &u);
        }
    }
    assert_true(ends > 0);
    assert_true(checks_seen > 1000);
    assert_true(unsafe_seen > 1000);
}

/* Random pseudo-legal walks: moves whose geometry is accepted, legal or
 * not, so generals get captured and sides stay in check. */
static void random_walks(void **state)
{
    (void)state;
    for (int game = 0; game < 150; game++) {
        xq_position pos;
        xq_position_start(&pos);
        for (int ply = 0; ply < 200; ply++) {
            check_position(&pos);
            xq_move cand[XQ_MAX_MOVES];
            int n = 0;
            for (int from = 0; from < XQ_SQUARES; from++)
                for (int to = 0; to < XQ_SQUARES && n < XQ_MAX_MOVES; to++)
                    if (pos.board[from] && shape_ok(xq_move_legality(&pos, XQ_MOVE(from, to))))
                        cand[n++] = XQ_MOVE(from, to);
            if (n == 0) break;
            xq_undo u;
            xq_make(&pos, cand[rnd((unsigned)n)], &u);
        }
    }
}

/* Random boards, however impossible: generals in or out of their
 * palaces (or missing), up to 20 other pieces anywhere, either side to
 * move. */
static void random_boards(void **state)
{
    (void)state;
    static const uint8_t palace[2][9] = {{3, 4, 5, 12, 13, 14, 21, 22, 23}, {66, 67, 68, 75, 76, 77, 84, 85, 86}};
    int none = 0;
    for (int k = 0; k < 6000; k++) {
        xq_position pos;
        xq_position_clear(&pos);
        for (int c = 0; c < 2; c++) {
            unsigned how = rnd(12);
            if (how == 0) continue;   /* no general */
            int sq = how == 1 ? (int)rnd(XQ_SQUARES) : palace[c][rnd(9)];
            if (!pos.board[sq]) xq_position_put(&pos, sq, XQ_PIECE(XQ_GENERAL, c));
        }
        /* the generals on one file now and then, facing or screened */
        if (rnd(4) == 0 && pos.general[0] < XQ_SQUARES && pos.general[1] < XQ_SQUARES &&
            !pos.board[XQ_SQ(XQ_FILE(pos.general[0]), 8)]) {
            int g = pos.general[1];
            xq_position_put(&pos, g, XQ_NONE);
            xq_position_put(&pos, XQ_SQ(XQ_FILE(pos.general[0]), 8), XQ_PIECE(XQ_GENERAL, XQ_BLACK));
        }
        int extra = (int)rnd(21);
        for (int i = 0; i < extra; i++) {
            int sq = (int)rnd(XQ_SQUARES);
            if (pos.board[sq]) continue;
            xq_position_put(&pos, sq, XQ_PIECE(2 + rnd(5) + (rnd(3) == 0), rnd(2)));
        }
        xq_position_set_side(&pos, (xq_color)rnd(2));
        check_position(&pos);
        static xq_move moves[XQ_MAX_MOVES];
        none += xq_legal_moves(&pos, moves) == 0;
    }
    assert_true(none > 0);
}

/* Odd FENs the reader accepts: generals facing, outside the palace or
 * missing, the side not to move in check, nine chariots, cannons and
 * horses around a general, soldiers beside it. */
static void odd_fens(void **state)
{
    (void)state;
    static const char *const fens[] = {
        "4k4/9/9/9/9/9/9/9/9/4K4 w",
        "4k4/9/9/9/9/9/9/9/9/4K4 b",
        "3k5/9/9/9/9/9/9/9/9/4K4 w",
        "4k4/4c4/9/9/4P4/9/9/9/4C4/4K4 w",
        "4k4/9/4r4/9/9/9/9/9/9/4K4 w",
        "4k4/9/9/9/9/9/9/9/9/R3K3R b",
        "RRRRkRRRR/9/9/9/9/9/9/9/9/4K4 b",
        "9/9/9/9/9/9/9/9/9/4K4 w",
        "4k4/9/9/9/9/9/9/9/9/9 b",
        "k8/9/9/9/9/9/9/9/9/8K w",
        "4k4/3PPP3/9/9/9/9/9/9/3ppp3/4K4 w",
        "4k4/3PPP3/9/9/9/9/9/9/3ppp3/4K4 b",
        "3ak4/4a4/2n1bn3/9/2c1C1c2/9/9/3N1N3/4A4/3AK4 w",
        "3ak4/4a4/2n1bn3/9/2c1C1c2/9/9/3N1N3/4A4/3AK4 b",
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w",
        "2bakab2/9/2n4c1/p3p1p1p/2p6/6P2/P1P1P3P/2N1C2C1/4A4/1RBAK1B1r b",
        "3k5/4P4/9/9/9/9/9/9/4p4/5K3 w",
        "4K4/9/9/9/9/9/9/9/9/4k4 w",
        "C3k4/9/4c4/9/4R4/9/9/4r4/9/4K3c w",
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        xq_position pos;
        char err[128];
        if (!xq_fen_read(&pos, fens[i], err, sizeof err)) fail_msg("FEN %s: %s", fens[i], err);
        check_position(&pos);
        /* and a few plies on from each, legal moves only */
        for (int ply = 0; ply < 30; ply++) {
            xq_move m = random_legal(&pos);
            if (m == XQ_MOVE_NONE) break;
            xq_undo u;
            xq_make(&pos, m, &u);
            check_position(&pos);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_games),
        cmocka_unit_test(random_walks),
        cmocka_unit_test(random_boards),
        cmocka_unit_test(odd_fens),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
