/* test_movegen_fast.c - the table- and mask-driven rules core (movegen.c)
 * against the plain board-walking implementation it replaced, kept here
 * as the reference (ref_*): the same check tests, attacks, move lists (in
 * the same order), legality reasons and perft counts, on positions from
 * random legal games, random pseudo-legal walks (generals captured, check
 * ignored), perft trees, odd FENs (generals outside the palace or facing,
 * nine chariots, no general) and random boards; and the occupancy masks
 * of xq_position against its board after every make and unmake.  Also
 * xq_move_legality_known (told the check state) and the check state kept
 * along a game (xq_checks) against the reference, on the same positions. */
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

/* --- The reference: movegen.c as it was, reading only board[] ----------- */

static const int ORTH[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
static const int DIAG[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
static const int KNIGHT[8][2] = {{1, 2}, {-1, 2}, {1, -2}, {-1, -2}, {2, 1}, {2, -1}, {-2, 1}, {-2, -1}};

static bool on_board(int f, int r) { return (unsigned)f < 9 && (unsigned)r < 10; }
static int sgn(int x) { return (x > 0) - (x < 0); }
static bool in_palace(int f, int r, xq_color c)
{
    if (f < 3 || f > 5) return false;
    return c == XQ_RED ? (r >= 0 && r <= 2) : (r >= 7 && r <= 9);
}
static bool own_half(int r, xq_color c) { return c == XQ_RED ? r <= 4 : r >= 5; }
static int forward(xq_color c) { return c == XQ_RED ? 1 : -1; }

static bool ref_in_check(const xq_position *pos, xq_color c)
{
    int g = pos->general[c];
    if (g >= XQ_SQUARES) return false;
    const xq_piece *b = pos->board;
    xq_color e = (xq_color)(c ^ 1);
    int gf = XQ_FILE(g), gr = XQ_RANK(g);
    for (int d = 0; d < 4; d++) {
        int f = gf + ORTH[d][0], r = gr + ORTH[d][1], seen = 0;
        for (; on_board(f, r); f += ORTH[d][0], r += ORTH[d][1]) {
            xq_piece p = b[XQ_SQ(f, r)];
            if (!p) continue;
            if (!seen) {
                if (p == XQ_PIECE(XQ_CHARIOT, e) || (p == XQ_PIECE(XQ_GENERAL, e) && d < 2)) return true;
                seen = 1;
            } else {
                if (p == XQ_PIECE(XQ_CANNON, e)) return true;
                break;
            }
        }
    }
    for (int k = 0; k < 8; k++) {
        int f = gf + KNIGHT[k][0], r = gr + KNIGHT[k][1];
        if (!on_board(f, r) || b[XQ_SQ(f, r)] != XQ_PIECE(XQ_HORSE, e)) continue;
        if (!b[XQ_SQ(gf + sgn(KNIGHT[k][0]), gr + sgn(KNIGHT[k][1]))]) return true;
    }
    int sr = gr - forward(e);
    xq_piece es = XQ_PIECE(XQ_SOLDIER, e);
    if (on_board(gf, sr) && b[XQ_SQ(gf, sr)] == es) return true;
    if (gf > 0 && b[XQ_SQ(gf - 1, gr)] == es && !own_half(gr, e)) return true;
    if (gf < 8 && b[XQ_SQ(gf + 1, gr)] == es && !own_half(gr, e)) return true;
    return false;
}

static bool ref_attacked(const xq_position *pos, int sq, xq_color by)
{
    const xq_piece *b = pos->board;
    int sf = XQ_FILE(sq), sr = XQ_RANK(sq);
    for (int d = 0; d < 4; d++) {
        int df = ORTH[d][0], dr = ORTH[d][1];
        int f = sf + df, r = sr + dr, seen = 0;
        for (; on_board(f, r); f += df, r += dr) {
            xq_piece p = b[XQ_SQ(f, r)];
            if (!p) continue;
            if (seen == 0) {
                if (XQ_COLOR(p) == by) {
                    xq_kind k = XQ_KIND(p);
                    if (k == XQ_CHARIOT) return true;
                    if (k == XQ_GENERAL && ((abs(f - sf) + abs(r - sr) == 1 && in_palace(sf, sr, by)) ||
                                            (df == 0 && XQ_KIND(b[sq]) == XQ_GENERAL)))
                        return true;
                }
                seen = 1;
            } else {
                if (p == XQ_PIECE(XQ_CANNON, by)) return true;
                break;
            }
        }
    }
    for (int k = 0; k < 8; k++) {
        int f = sf + KNIGHT[k][0], r = sr + KNIGHT[k][1];
        if (!on_board(f, r) || b[XQ_SQ(f, r)] != XQ_PIECE(XQ_HORSE, by)) continue;
        if (!b[XQ_SQ(sf + sgn(KNIGHT[k][0]), sr + sgn(KNIGHT[k][1]))]) return true;
    }
    int r0 = sr - forward(by);
    if (on_board(sf, r0) && b[XQ_SQ(sf, r0)] == XQ_PIECE(XQ_SOLDIER, by)) return true;
    if (!own_half(sr, by)) {
        if (sf > 0 && b[XQ_SQ(sf - 1, sr)] == XQ_PIECE(XQ_SOLDIER, by)) return true;
        if (sf < 8 && b[XQ_SQ(sf + 1, sr)] == XQ_PIECE(XQ_SOLDIER, by)) return true;
    }
    for (int d = 0; d < 4; d++) {
        int f = sf + DIAG[d][0], r = sr + DIAG[d][1];
        if (on_board(f, r) && b[XQ_SQ(f, r)] == XQ_PIECE(XQ_ADVISOR, by) && in_palace(sf, sr, by)) return true;
        int f2 = sf + 2 * DIAG[d][0], r2 = sr + 2 * DIAG[d][1];
        if (on_board(f2, r2) && b[XQ_SQ(f2, r2)] == XQ_PIECE(XQ_ELEPHANT, by) && !b[XQ_SQ(f, r)] &&
            own_half(sr, by))
            return true;
    }
    return false;
}

static int ref_gen_piece(const xq_position *pos, int from, xq_move *moves, int n)
{
    const xq_piece *b = pos->board;
    xq_piece p = b[from];
    xq_color c = XQ_COLOR(p);
    int ff = XQ_FILE(from), fr = XQ_RANK(from);
#define TARGET_OK(sq) (!b[sq] || XQ_COLOR(b[sq]) != c)
    switch (XQ_KIND(p)) {
    case XQ_GENERAL:
        for (int d = 0; d < 4; d++) {
            int f = ff + ORTH[d][0], r = fr + ORTH[d][1];
            if (in_palace(f, r, c) && TARGET_OK(XQ_SQ(f, r))) moves[n++] = XQ_MOVE(from, XQ_SQ(f, r));
        }
        break;
    case XQ_ADVISOR:
        for (int d = 0; d < 4; d++) {
            int f = ff + DIAG[d][0], r = fr + DIAG[d][1];
            if (in_palace(f, r, c) && TARGET_OK(XQ_SQ(f, r))) moves[n++] = XQ_MOVE(from, XQ_SQ(f, r));
        }
        break;
    case XQ_ELEPHANT:
        for (int d = 0; d < 4; d++) {
            int f = ff + 2 * DIAG[d][0], r = fr + 2 * DIAG[d][1];
            if (!on_board(f, r) || !own_half(r, c)) continue;
            if (b[XQ_SQ(ff + DIAG[d][0], fr + DIAG[d][1])]) continue;
            if (TARGET_OK(XQ_SQ(f, r))) moves[n++] = XQ_MOVE(from, XQ_SQ(f, r));
        }
        break;
    case XQ_HORSE:
        for (int d = 0; d < 4; d++) {
            int lf = ff + ORTH[d][0], lr = fr + ORTH[d][1];
            if (!on_board(lf, lr) || b[XQ_SQ(lf, lr)]) continue;
            /* two targets beyond each free leg */
            for (int s = -1; s <= 1; s += 2) {
                int f = lf + ORTH[d][0] + (ORTH[d][0] == 0 ? s : 0);
                int r = lr + ORTH[d][1] + (ORTH[d][1] == 0 ? s : 0);
                if (on_board(f, r) && TARGET_OK(XQ_SQ(f, r))) moves[n++] = XQ_MOVE(from, XQ_SQ(f, r));
            }
        }
        break;
    case XQ_CHARIOT:
        for (int d = 0; d < 4; d++) {
            int f = ff + ORTH[d][0], r = fr + ORTH[d][1];
            for (; on_board(f, r); f += ORTH[d][0], r += ORTH[d][1]) {
                int sq = XQ_SQ(f, r);
                if (!b[sq]) { moves[n++] = XQ_MOVE(from, sq); continue; }
                if (XQ_COLOR(b[sq]) != c) moves[n++] = XQ_MOVE(from, sq);
                break;
            }
        }
        break;
    case XQ_CANNON:
        for (int d = 0; d < 4; d++) {
            int f = ff + ORTH[d][0], r = fr + ORTH[d][1];
            for (; on_board(f, r); f += ORTH[d][0], r += ORTH[d][1]) {
                int sq = XQ_SQ(f, r);
                if (!b[sq]) { moves[n++] = XQ_MOVE(from, sq); continue; }
                break;
            }
            for (f += ORTH[d][0], r += ORTH[d][1]; on_board(f, r); f += ORTH[d][0], r += ORTH[d][1]) {
                int sq = XQ_SQ(f, r);
                if (!b[sq]) continue;
                if (XQ_COLOR(b[sq]) != c) moves[n++] = XQ_MOVE(from, sq);
                break;
            }
        }
        break;
    case XQ_SOLDIER: {
        int r = fr + forward(c);
        if (r >= 0 && r <= 9 && TARGET_OK(XQ_SQ(ff, r))) moves[n++] = XQ_MOVE(from, XQ_SQ(ff, r));
        if (!own_half(fr, c)) {
            if (ff > 0 && TARGET_OK(from - 1)) moves[n++] = XQ_MOVE(from, from - 1);
            if (ff < 8 && TARGET_OK(from + 1)) moves[n++] = XQ_MOVE(from, from + 1);
        }
        break;
    }
    default:
        break;
    }
#undef TARGET_OK
    return n;
}

/* Make m on a copy of the board (masks not kept: the reference never
 * reads them) and test the mover's general. */
static bool ref_safe(const xq_position *pos, xq_move m, xq_position *after)
{
    *after = *pos;
    int from = XQ_FROM(m), to = XQ_TO(m);
    xq_piece p = after->board[from];
    after->board[to] = p;
    after->board[from] = XQ_NONE;
    if (XQ_KIND(p) == XQ_GENERAL) after->general[pos->side] = (uint8_t)to;
    return !ref_in_check(after, pos->side);
}

/* The old shortcut, kept as it was: it is what the move lists have always
 * been (it trusts general[] to be the one general of the side, so with
 * several generals of a side, which only xq_position_put can set up, the
 * lists skip a test that xq_move_legality makes). */
static bool ref_needs_test(const xq_position *pos, xq_move m, bool in_check)
{
    if (in_check) return true;
    int g = pos->general[pos->side], from = XQ_FROM(m), to = XQ_TO(m);
    if (g >= XQ_SQUARES) return false;
    int gf = XQ_FILE(g), gr = XQ_RANK(g);
    if (from == g) return true;
    int ff = XQ_FILE(from), fr = XQ_RANK(from);
    if (ff == gf || fr == gr || XQ_FILE(to) == gf || XQ_RANK(to) == gr) return true;
    return abs(ff - gf) == 1 && abs(fr - gr) == 1;
}

static int ref_filter(const xq_position *pos, xq_move *moves, int n)
{
    xq_position tmp;
    bool chk = ref_in_check(pos, pos->side);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!ref_needs_test(pos, moves[i], chk) || ref_safe(pos, moves[i], &tmp)) moves[k++] = moves[i];
    return k;
}

static int ref_legal_moves(const xq_position *pos, xq_move *moves)
{
    int n = 0;
    for (int sq = 0; sq < XQ_SQUARES; sq++)
        if (pos->board[sq] && XQ_COLOR(pos->board[sq]) == pos->side) n = ref_gen_piece(pos, sq, moves, n);
    return ref_filter(pos, moves, n);
}

static int ref_pseudo_moves(const xq_position *pos, xq_move *moves)
{
    int n = 0;
    for (int sq = 0; sq < XQ_SQUARES; sq++)
        if (pos->board[sq] && XQ_COLOR(pos->board[sq]) == pos->side) n = ref_gen_piece(pos, sq, moves, n);
    return n;
}

static int ref_between(const xq_piece *b, int from, int to)
{
    int step = sgn(XQ_FILE(to) - XQ_FILE(from)) + 9 * sgn(XQ_RANK(to) - XQ_RANK(from)), count = 0;
    for (int sq = from + step; sq != to; sq += step) count += b[sq] != 0;
    return count;
}

static xq_illegal ref_geometry(const xq_position *pos, int from, int to)
{
    const xq_piece *b = pos->board;
    xq_piece p = b[from];
    xq_color c = XQ_COLOR(p);
    int ff = XQ_FILE(from), fr = XQ_RANK(from), tf = XQ_FILE(to), tr = XQ_RANK(to);
    int df = tf - ff, dr = tr - fr, adf = abs(df), adr = abs(dr);
    xq_illegal own = (b[to] && XQ_COLOR(b[to]) == c) ? XQ_ILL_OWN_PIECE : XQ_LEGAL;
    switch (XQ_KIND(p)) {
    case XQ_GENERAL:
        if (adf + adr != 1) return XQ_ILL_GEOMETRY;
        if (!in_palace(tf, tr, c)) return XQ_ILL_PALACE;
        return own;
    case XQ_ADVISOR:
        if (adf != 1 || adr != 1) return XQ_ILL_GEOMETRY;
        if (!in_palace(tf, tr, c)) return XQ_ILL_PALACE;
        return own;
    case XQ_ELEPHANT:
        if (adf != 2 || adr != 2) return XQ_ILL_GEOMETRY;
        if (!own_half(tr, c)) return XQ_ILL_ELEPHANT_RIVER;
        if (b[XQ_SQ(ff + df / 2, fr + dr / 2)]) return XQ_ILL_ELEPHANT_EYE;
        return own;
    case XQ_HORSE: {
        if (!((adf == 1 && adr == 2) || (adf == 2 && adr == 1))) return XQ_ILL_GEOMETRY;
        int leg = adf == 2 ? XQ_SQ(ff + sgn(df), fr) : XQ_SQ(ff, fr + sgn(dr));
        if (b[leg]) return XQ_ILL_HORSE_LEG;
        return own;
    }
    case XQ_CHARIOT:
        if ((df != 0) == (dr != 0)) return XQ_ILL_GEOMETRY;
        if (ref_between(b, from, to)) return XQ_ILL_PATH_BLOCKED;
        return own;
    case XQ_CANNON: {
        if ((df != 0) == (dr != 0)) return XQ_ILL_GEOMETRY;
        if (own) return own;
        int between = ref_between(b, from, to);
        if (b[to]) return between == 1 ? XQ_LEGAL : XQ_ILL_CANNON_SCREEN;
        return between ? XQ_ILL_PATH_BLOCKED : XQ_LEGAL;
    }
    case XQ_SOLDIER:
        if (dr == -forward(c) && df == 0) return XQ_ILL_SOLDIER_BACKWARD;
        if (adf + adr != 1) return XQ_ILL_GEOMETRY;
        if (dr == -forward(c)) return XQ_ILL_SOLDIER_BACKWARD;
        if (adf == 1 && own_half(fr, c)) return XQ_ILL_SOLDIER_SIDEWAYS;
        return own;
    default:
        return XQ_ILL_NO_PIECE;
    }
}

static xq_illegal ref_legality(const xq_position *pos, xq_move m)
{
    int from = XQ_FROM(m), to = XQ_TO(m);
    if (from >= XQ_SQUARES || to >= XQ_SQUARES || !pos->board[from]) return XQ_ILL_NO_PIECE;
    if (XQ_COLOR(pos->board[from]) != pos->side) return XQ_ILL_WRONG_SIDE;
    if (from == to) return XQ_ILL_GEOMETRY;
    xq_illegal why = ref_geometry(pos, from, to);
    if (why != XQ_LEGAL) return why;
    xq_position tmp;
    if (ref_safe(pos, m, &tmp)) return XQ_LEGAL;
    int r = tmp.general[XQ_RED], k = tmp.general[XQ_BLACK];
    bool face = r < XQ_SQUARES && k < XQ_SQUARES && XQ_FILE(r) == XQ_FILE(k) && ref_between(tmp.board, r, k) == 0;
    return face ? XQ_ILL_GENERALS_FACE : XQ_ILL_LEAVES_CHECK;
}


/* --- Comparing ---------------------------------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 32);
}

static void show(const xq_position *pos, char *fen)
{
    xq_fen_write(pos, fen, XQ_FEN_MAX);
}

/* Everything the fast core answers about *pos against the reference;
 * `full` also tries every from -> to pair for xq_move_legality. */
static long compared;
static void compare_position(const xq_position *pos, bool full)
{
    char fen[XQ_FEN_MAX];
    show(pos, fen);
    if (!xq_position_masks_ok(pos)) fail_msg("masks differ from the board: %s", fen);
    for (int c = 0; c < 2; c++)
        if (xq_in_check(pos, (xq_color)c) != ref_in_check(pos, (xq_color)c))
            fail_msg("xq_in_check(%d) differs: %s", c, fen);
    for (int sq = 0; sq < XQ_SQUARES; sq++)
        for (int c = 0; c < 2; c++)
            if (xq_attacked(pos, sq, (xq_color)c) != ref_attacked(pos, sq, (xq_color)c))
                fail_msg("xq_attacked(%d, %d) differs: %s", sq, c, fen);
    static xq_move got[XQ_MAX_MOVES], want[XQ_MAX_MOVES];
    int n = xq_legal_moves(pos, got), k = ref_legal_moves(pos, want);
    if (n != k || memcmp(got, want, (size_t)n * sizeof got[0]))
        fail_msg("xq_legal_moves differs (%d, want %d): %s", n, k, fen);
    if (xq_has_legal_move(pos) != (k > 0)) fail_msg("xq_has_legal_move differs: %s", fen);
    for (int sq = 0; sq < XQ_SQUARES; sq++) {
        int a = xq_legal_moves_from(pos, sq, got), b = 0;
        for (int i = 0; i < k; i++)
            if (XQ_FROM(want[i]) == sq) {
                if (b >= a || got[b] != want[i]) fail_msg("xq_legal_moves_from(%d) differs: %s", sq, fen);
                b++;
            }
        if (a != b) fail_msg("xq_legal_moves_from(%d) count differs: %s", sq, fen);
    }
    /* every pseudo-legal move, and (full) every pair of squares; with the
     * check state told (xq_move_legality_known) too; and the check state
     * after every move that xq_move_legality finds legal (not the move
     * lists': with two generals of a side they differ), from a fresh one */
    bool chk = ref_in_check(pos, pos->side);
    xq_checks start;
    xq_checks_init(&start, pos);
    for (int c = 0; c < 2; c++)
        if (start.in_check[c] != ref_in_check(pos, (xq_color)c)) fail_msg("xq_checks_init(%d) differs: %s", c, fen);
    int p = ref_pseudo_moves(pos, want);
    for (int i = 0; i < p; i++) {
        xq_illegal b = ref_legality(pos, want[i]);
        if (xq_move_legality(pos, want[i]) != b)
            fail_msg("xq_move_legality(%d-%d) differs: %s", XQ_FROM(want[i]), XQ_TO(want[i]), fen);
        if (xq_move_legality_known(pos, want[i], chk) != b)
            fail_msg("xq_move_legality_known(%d-%d) differs: %s", XQ_FROM(want[i]), XQ_TO(want[i]), fen);
        if (b != XQ_LEGAL) continue;
        xq_position after = *pos;
        xq_undo u;
        xq_make(&after, want[i], &u);
        xq_checks s = start;
        xq_checks_after(&s, &after, want[i]);
        for (int c = 0; c < 2; c++)
            if (s.in_check[c] != ref_in_check(&after, (xq_color)c))
                fail_msg("xq_checks_after(%d-%d) side %d differs: %s", XQ_FROM(want[i]), XQ_TO(want[i]), c, fen);
    }
    for (int from = 0; from < XQ_SQUARES; from++) {
        if (!full && (!pos->board[from] || rnd() % 4)) continue;
        for (int to = 0; to < XQ_SQUARES; to++) {
            xq_move m = XQ_MOVE(from, to);
            xq_illegal a = xq_move_legality(pos, m), b = ref_legality(pos, m);
            if (a != b) fail_msg("xq_move_legality(%d-%d) = %d, want %d: %s", from, to, a, b, fen);
            a = xq_move_legality_known(pos, m, chk);
            if (a != b) fail_msg("xq_move_legality_known(%d-%d) = %d, want %d: %s", from, to, a, b, fen);
        }
    }
    compared++;
}

/* A game of up to `plies` random moves from *start: legal ones, or with
 * `pseudo` any pseudo-legal move (check ignored, generals captured: the
 * general squares then go stale, which the core must read as before). */
static void random_walk(const xq_position *start, int plies, bool pseudo, int full_every)
{
    xq_position pos = *start;
    static xq_move moves[XQ_MAX_MOVES];
    xq_checks checks;   /* carried along a legal walk as a replay does */
    xq_checks_init(&checks, &pos);
    for (int ply = 0; ply < plies; ply++) {
        compare_position(&pos, full_every > 0 && ply % full_every == 0);
        for (int c = 0; !pseudo && c < 2; c++)
            if (checks.in_check[c] != ref_in_check(&pos, (xq_color)c)) fail_msg("carried check state differs");
        int n = pseudo ? ref_pseudo_moves(&pos, moves) : ref_legal_moves(&pos, moves);
        if (n == 0) break;
        xq_move m = moves[rnd() % (unsigned)n];
        /* a move the lists allow that legality refuses (two generals of
         * a side) would void the carried state: such walks stop */
        if (!pseudo && xq_move_legality(&pos, m) != XQ_LEGAL) break;
        xq_position before = pos;
        xq_undo u;
        xq_make(&pos, m, &u);
        xq_checks_after(&checks, &pos, m);
        if (!xq_position_masks_ok(&pos)) fail_msg("masks wrong after xq_make");
        xq_position again = pos;
        xq_unmake(&again, m, &u);
        /* (general[] is not compared: with two generals of a side, a board
         * only xq_position_put makes, it follows the one that moved) */
        if (memcmp(again.board, before.board, sizeof before.board) || again.key != before.key ||
            memcmp(again.rank_occ, before.rank_occ, sizeof before.rank_occ) ||
            memcmp(again.file_occ, before.file_occ, sizeof before.file_occ))
            fail_msg("xq_unmake does not restore the position");
    }
}

static void read_fen(xq_position *p, const char *fen)
{
    char err[128];
    if (!xq_fen_read(p, fen, err, sizeof err)) fail_msg("FEN %s: %s", fen, err);
}

/* Positions a real game reaches, and the twelve perft positions. */
#define NORMAL xqt_perft_fens

/* Boards no game reaches, which the FEN reader still accepts. */
static const char *const ODD[] = {
    "RRRRRRRRR/9/9/9/4k4/9/9/9/9/4K4 w",                 /* nine chariots */
    "rrrrrrrrr/9/9/9/9/9/9/9/9/RRRR1RRRR b",              /* no generals, nine chariots */
    "4k4/9/9/9/9/9/9/9/9/4K4 w",                          /* generals facing */
    "9/9/9/9/4k4/4K4/9/9/9/9 b",                          /* generals outside the palace */
    "K8/9/9/9/9/9/9/9/9/8k w",                            /* generals in corners */
    "8K/9/9/9/9/9/9/9/9/k8 b",
    "4k4/4P4/9/9/9/9/9/9/4p4/4K4 w",                      /* soldiers on the generals */
    "3PkP3/4P4/9/9/9/9/9/9/4p4/3pKp3 b",
    "9/9/9/4n4/3nKn3/4n4/9/9/9/4k4 w",                    /* horses around a general */
    "9/9/9/3n1n3/4K4/3n1n3/9/9/9/4k4 w",
    "4k4/9/9/9/2B1B1B2/9/9/2b1b1b2/9/4K4 w",              /* elephants across the river */
    "4k4/9/9/9/9/A1A1A1A1A/9/9/9/4K4 b",                  /* advisors anywhere */
    "c3k3c/9/9/9/C3C3C/9/9/9/9/C3K3C w",                  /* cannons everywhere */
    "4k4/9/4c4/9/4c4/9/4C4/9/4C4/4K4 w",
    "PPPPkPPPP/PPPPPPPPP/9/9/9/9/9/9/ppppppppp/ppppKpppp w", /* soldiers behind their start */
    "3k5/9/9/9/9/9/9/9/9/3K5 b",
    "4k4/9/9/9/9/9/9/9/9/9 w",                            /* one general */
    "9/9/9/9/9/9/9/9/9/4K4 b",
    "9/9/9/9/9/9/9/9/9/9 w",                              /* empty */
    "NNNNNNNNN/NNNNNNNNN/9/9/4k4/9/9/9/nnnnnnnnn/4K4 w",
    "2k1K4/9/9/9/9/9/9/9/9/9 w",                          /* generals on one rank */
    "r3k4/4a4/9/9/9/9/9/9/4R4/R3K4 b",                    /* side not to move in check */
    "4k4/4R4/9/9/9/9/9/9/9/4K4 w",
};

static void normal_positions(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof NORMAL / sizeof NORMAL[0]; i++) {
        xq_position p;
        read_fen(&p, NORMAL[i]);
        compare_position(&p, true);
        for (int g = 0; g < 20; g++) random_walk(&p, 120, false, 25);
    }
}

static void odd_positions(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof ODD / sizeof ODD[0]; i++) {
        xq_position p;
        read_fen(&p, ODD[i]);
        compare_position(&p, true);
        for (int g = 0; g < 10; g++) {
            random_walk(&p, 60, false, 10);
            random_walk(&p, 60, true, 10);
        }
    }
    /* pseudo-legal walks from real positions reach captured generals */
    for (size_t i = 0; i < sizeof NORMAL / sizeof NORMAL[0]; i++) {
        xq_position p;
        read_fen(&p, NORMAL[i]);
        for (int g = 0; g < 10; g++) random_walk(&p, 200, true, 0);
    }
}

/* Any piece anywhere: a random board, both sides to move. */
static void random_boards(void **state)
{
    (void)state;
    static const xq_piece kinds[] = {XQ_GENERAL, XQ_ADVISOR, XQ_ELEPHANT, XQ_HORSE, XQ_CHARIOT, XQ_CANNON, XQ_SOLDIER};
    for (int i = 0; i < 2000; i++) {
        xq_position p;
        xq_position_clear(&p);
        int pieces = 1 + (int)(rnd() % 40);
        for (int k = 0; k < pieces; k++) {
            xq_piece q = XQ_PIECE(kinds[rnd() % 7], rnd() % 2);
            xq_position_put(&p, (int)(rnd() % XQ_SQUARES), q);
        }
        /* a general of each side most of the time */
        if (rnd() % 8) xq_position_put(&p, (int)(rnd() % XQ_SQUARES), XQ_PIECE(XQ_GENERAL, XQ_RED));
        if (rnd() % 8) xq_position_put(&p, (int)(rnd() % XQ_SQUARES), XQ_PIECE(XQ_GENERAL, XQ_BLACK));
        /* and some squares emptied again through put */
        for (int k = (int)(rnd() % 4); k > 0; k--) xq_position_put(&p, (int)(rnd() % XQ_SQUARES), XQ_NONE);
        xq_position_set_side(&p, (xq_color)(rnd() % 2));
        compare_position(&p, i % 8 == 0);
        random_walk(&p, 8, true, 0);
    }
}

/* Every node of the perft trees to depth 3 (2 for the widest). */
static long tree_nodes;
static void walk_tree(xq_position *pos, int depth)
{
    compare_position(pos, false);
    tree_nodes++;
    if (depth == 0) return;
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_legal_moves(pos, moves);
    for (int i = 0; i < n; i++) {
        xq_undo u;
        xq_make(pos, moves[i], &u);
        walk_tree(pos, depth - 1);
        xq_unmake(pos, moves[i], &u);
    }
}

static void perft_trees(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof NORMAL / sizeof NORMAL[0]; i++) {
        xq_position p;
        read_fen(&p, NORMAL[i]);
        walk_tree(&p, i == 11 ? 1 : 2);
        for (int d = 1; d <= 3; d++) {
            uint64_t a = xq_perft(&p, d), b = xqt_perft_with(&p, d, ref_legal_moves);
            if (a != b) fail_msg("perft %d of %s: %llu, want %llu", d, NORMAL[i], (unsigned long long)a,
                                 (unsigned long long)b);
        }
    }
    for (size_t i = 0; i < sizeof ODD / sizeof ODD[0]; i++) {
        xq_position p;
        read_fen(&p, ODD[i]);
        walk_tree(&p, 2);
        for (int d = 1; d <= 3; d++) {
            uint64_t a = xq_perft(&p, d), b = xqt_perft_with(&p, d, ref_legal_moves);
            if (a != b) fail_msg("perft %d of %s: %llu, want %llu", d, ODD[i], (unsigned long long)a,
                                 (unsigned long long)b);
        }
    }
    print_message("%ld positions compared, %ld tree nodes\n", compared, tree_nodes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(normal_positions),
        cmocka_unit_test(odd_positions),
        cmocka_unit_test(random_boards),
        cmocka_unit_test(perft_trees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
