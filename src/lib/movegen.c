/* movegen.c - attacks, move generation, legality with reasons, perft.
 *
 * Piece moves follow CXA1999 §2.2 (see ../shared/rules/README.md):
 * general and advisor stay in the palace, elephants never cross the river
 * and are stopped by a piece on the eye, horses by a piece on the leg,
 * cannons capture over exactly one screen, soldiers go sideways only after
 * crossing the river.  A move that leaves one's own general attacked, or
 * leaves the two generals facing on an open file, is illegal (§3.1, §4.1.2).
 */
#include "board_tables.h"
#include "position.h"

#include <stdlib.h>

static const int ORTH[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
static const int DIAG[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
static const int KNIGHT[8][2] = {{1, 2}, {-1, 2}, {1, -2}, {-1, -2},
                                 {2, 1}, {2, -1}, {-2, 1}, {-2, -1}};

/* Square-index steps of the four rays: north, south, east, west. */
static const int RAY_STEP[4] = {9, -9, 1, -1};

static inline bool on_board(int f, int r) { return (unsigned)f < 9 && (unsigned)r < 10; }
static inline int sgn(int x) { return (x > 0) - (x < 0); }

/* Is the general of colour c attacked by the other side, or facing the
 * other general with nothing between?  The hot test of every replay. */
bool xq_in_check(const xq_position *pos, xq_color c)
{
    int g = pos->general[c];
    if (g >= XQ_SQUARES) return false;
    const xq_piece *b = pos->board;
    xq_color e = (xq_color)(c ^ 1);
    int gf = xq_file_of[g], gr = xq_rank_of[g];
    xq_piece echariot = XQ_PIECE(XQ_CHARIOT, e), ecannon = XQ_PIECE(XQ_CANNON, e);
    xq_piece egeneral = XQ_PIECE(XQ_GENERAL, e), ehorse = XQ_PIECE(XQ_HORSE, e);
    xq_piece esoldier = XQ_PIECE(XQ_SOLDIER, e);

    /* rays by square index: north, south (vertical: the flying general
     * counts), east, west; no bounds test inside the walk */
    const int len[4] = {9 - gr, gr, 8 - gf, gf};
    for (int d = 0; d < 4; d++) {
        int step = RAY_STEP[d], n = len[d], sq = g;
        while (n > 0 && !b[sq += step]) n--;
        if (n == 0) continue;
        xq_piece p = b[sq];
        if (p == echariot || (p == egeneral && d < 2)) return true;
        for (n--; n > 0; n--)
            if (b[sq += step]) {
                if (b[sq] == ecannon) return true;
                break;
            }
    }
    for (int k = 0; k < 8; k++) {
        int f = gf + KNIGHT[k][0], r = gr + KNIGHT[k][1];
        if (!on_board(f, r) || b[XQ_SQ(f, r)] != ehorse) continue;
        if (!b[XQ_SQ(gf + sgn(KNIGHT[k][0]), gr + sgn(KNIGHT[k][1]))]) return true;
    }
    int sr = gr - xq_forward(e);
    if (on_board(gf, sr) && b[XQ_SQ(gf, sr)] == esoldier) return true;
    if (gf > 0 && b[XQ_SQ(gf - 1, gr)] == esoldier && !xq_own_half(gr, e)) return true;
    if (gf < 8 && b[XQ_SQ(gf + 1, gr)] == esoldier && !xq_own_half(gr, e)) return true;
    return false;
}

bool xq_attacked(const xq_position *pos, int sq, xq_color by)
{
    const xq_piece *b = pos->board;
    int sf = xq_file_of[sq], sr = xq_rank_of[sq];
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
                    /* the general: one step in the palace, or along an open
                     * file against the other general (flying general) */
                    if (k == XQ_GENERAL &&
                        ((abs(f - sf) + abs(r - sr) == 1 && xq_in_palace(sf, sr, by)) ||
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
    int r0 = sr - xq_forward(by);
    if (on_board(sf, r0) && b[XQ_SQ(sf, r0)] == XQ_PIECE(XQ_SOLDIER, by)) return true;
    if (!xq_own_half(sr, by)) {
        if (sf > 0 && b[XQ_SQ(sf - 1, sr)] == XQ_PIECE(XQ_SOLDIER, by)) return true;
        if (sf < 8 && b[XQ_SQ(sf + 1, sr)] == XQ_PIECE(XQ_SOLDIER, by)) return true;
    }
    for (int d = 0; d < 4; d++) {
        int f = sf + DIAG[d][0], r = sr + DIAG[d][1];
        if (on_board(f, r) && b[XQ_SQ(f, r)] == XQ_PIECE(XQ_ADVISOR, by) &&
            xq_in_palace(sf, sr, by))
            return true;
        int f2 = sf + 2 * DIAG[d][0], r2 = sr + 2 * DIAG[d][1];
        if (on_board(f2, r2) && b[XQ_SQ(f2, r2)] == XQ_PIECE(XQ_ELEPHANT, by) &&
            !b[XQ_SQ(f, r)] && xq_own_half(sr, by))
            return true;
    }
    return false;
}

/* Pseudo-legal moves (geometry and captures; not own-general safety) of
 * the piece on from, appended at moves[n]; returns the new count. */
static int gen_piece(const xq_position *pos, int from, xq_move *moves, int n)
{
    const xq_piece *b = pos->board;
    xq_piece p = b[from];
    xq_color c = XQ_COLOR(p);
    int ff = xq_file_of[from], fr = xq_rank_of[from];
#define TARGET_OK(sq) (!b[sq] || XQ_COLOR(b[sq]) != c)
    switch (XQ_KIND(p)) {
    case XQ_GENERAL:
        for (int d = 0; d < 4; d++) {
            int f = ff + ORTH[d][0], r = fr + ORTH[d][1];
            if (xq_in_palace(f, r, c) && TARGET_OK(XQ_SQ(f, r))) moves[n++] = XQ_MOVE(from, XQ_SQ(f, r));
        }
        break;
    case XQ_ADVISOR:
        for (int d = 0; d < 4; d++) {
            int f = ff + DIAG[d][0], r = fr + DIAG[d][1];
            if (xq_in_palace(f, r, c) && TARGET_OK(XQ_SQ(f, r))) moves[n++] = XQ_MOVE(from, XQ_SQ(f, r));
        }
        break;
    case XQ_ELEPHANT:
        for (int d = 0; d < 4; d++) {
            int f = ff + 2 * DIAG[d][0], r = fr + 2 * DIAG[d][1];
            if (!on_board(f, r) || !xq_own_half(r, c)) continue;
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
        int r = fr + xq_forward(c);
        if (r >= 0 && r <= 9 && TARGET_OK(XQ_SQ(ff, r))) moves[n++] = XQ_MOVE(from, XQ_SQ(ff, r));
        if (!xq_own_half(fr, c)) {
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

/* Would playing pseudo-legal m leave the mover's general safe?  Moves
 * the piece on the board only (no key, no counters: nothing else is
 * looked at by the test) and puts it back. */
static bool keeps_general_safe(xq_position *pos, xq_move m)
{
    int from = XQ_FROM(m), to = XQ_TO(m);
    xq_color me = pos->side;
    xq_piece p = pos->board[from], cap = pos->board[to];
    uint8_t g = pos->general[me];
    pos->board[to] = p;
    pos->board[from] = XQ_NONE;
    if (XQ_KIND(p) == XQ_GENERAL) pos->general[me] = (uint8_t)to;
    bool ok = !xq_in_check(pos, me);
    pos->board[from] = p;
    pos->board[to] = cap;
    pos->general[me] = g;
    return ok;
}

/* Could pseudo-legal m, by the side to move, expose its own general?  Only
 * when the side is in check, the general moves, or the move leaves or
 * enters the general's file or rank (chariot, cannon screen, flying
 * general) or leaves a diagonal neighbour of the general (a horse leg).
 * All other moves are legal without a make/test/unmake. */
static inline bool needs_test(const xq_position *pos, xq_move m, bool in_check)
{
    if (in_check) return true;
    int g = pos->general[pos->side], from = XQ_FROM(m), to = XQ_TO(m);
    if (g >= XQ_SQUARES) return false;   /* no general: nothing to expose */
    int gf = xq_file_of[g], gr = xq_rank_of[g];
    if (from == g) return true;
    int ff = xq_file_of[from], fr = xq_rank_of[from];
    if (ff == gf || fr == gr || xq_file_of[to] == gf || xq_rank_of[to] == gr) return true;
    return abs(ff - gf) == 1 && abs(fr - gr) == 1;
}

static int filter_legal(const xq_position *pos, xq_move *moves, int n)
{
    xq_position tmp = *pos;
    bool chk = xq_in_check(pos, pos->side);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!needs_test(pos, moves[i], chk) || keeps_general_safe(&tmp, moves[i])) moves[k++] = moves[i];
    return k;
}

int xq_legal_moves_from(const xq_position *pos, int from, xq_move *moves)
{
    xq_piece p = pos->board[from];
    if (!p || XQ_COLOR(p) != pos->side) return 0;
    return filter_legal(pos, moves, gen_piece(pos, from, moves, 0));
}

int xq_legal_moves(const xq_position *pos, xq_move *moves)
{
    int n = 0;
    for (int sq = 0; sq < XQ_SQUARES; sq++) {
        xq_piece p = pos->board[sq];
        if (p && XQ_COLOR(p) == pos->side) n = gen_piece(pos, sq, moves, n);
    }
    return filter_legal(pos, moves, n);
}

bool xq_has_legal_move(const xq_position *pos)
{
    xq_position tmp = *pos;
    bool chk = xq_in_check(pos, pos->side);
    xq_move moves[XQ_MAX_MOVES];
    for (int sq = 0; sq < XQ_SQUARES; sq++) {
        xq_piece p = pos->board[sq];
        if (!p || XQ_COLOR(p) != pos->side) continue;
        int n = gen_piece(pos, sq, moves, 0);
        for (int i = 0; i < n; i++)
            if (!needs_test(pos, moves[i], chk) || keeps_general_safe(&tmp, moves[i])) return true;
    }
    return false;
}

/* Number of pieces strictly between two squares on one file or rank. */
static int pieces_between(const xq_piece *b, int from, int to)
{
    int df = sgn(xq_file_of[to] - xq_file_of[from]), dr = sgn(xq_rank_of[to] - xq_rank_of[from]);
    int step = df + 9 * dr, count = 0;
    for (int sq = from + step; sq != to; sq += step) count += b[sq] != 0;
    return count;
}

/* The geometric part of legality: can piece p move from -> to on this
 * board, ignoring the safety of its own general? */
static xq_illegal geometry(const xq_position *pos, int from, int to)
{
    const xq_piece *b = pos->board;
    xq_piece p = b[from];
    xq_color c = XQ_COLOR(p);
    int ff = xq_file_of[from], fr = xq_rank_of[from];
    int tf = xq_file_of[to], tr = xq_rank_of[to];
    int df = tf - ff, dr = tr - fr, adf = abs(df), adr = abs(dr);
    xq_illegal own = (b[to] && XQ_COLOR(b[to]) == c) ? XQ_ILL_OWN_PIECE : XQ_LEGAL;

    switch (XQ_KIND(p)) {
    case XQ_GENERAL:
        if (adf + adr != 1) return XQ_ILL_GEOMETRY;
        if (!xq_in_palace(tf, tr, c)) return XQ_ILL_PALACE;
        return own;
    case XQ_ADVISOR:
        if (adf != 1 || adr != 1) return XQ_ILL_GEOMETRY;
        if (!xq_in_palace(tf, tr, c)) return XQ_ILL_PALACE;
        return own;
    case XQ_ELEPHANT:
        if (adf != 2 || adr != 2) return XQ_ILL_GEOMETRY;
        if (!xq_own_half(tr, c)) return XQ_ILL_ELEPHANT_RIVER;
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
        if (pieces_between(b, from, to)) return XQ_ILL_PATH_BLOCKED;
        return own;
    case XQ_CANNON: {
        if ((df != 0) == (dr != 0)) return XQ_ILL_GEOMETRY;
        if (own) return own;
        int between = pieces_between(b, from, to);
        if (b[to]) return between == 1 ? XQ_LEGAL : XQ_ILL_CANNON_SCREEN;
        return between ? XQ_ILL_PATH_BLOCKED : XQ_LEGAL;
    }
    case XQ_SOLDIER:
        if (dr == -xq_forward(c) && df == 0) return XQ_ILL_SOLDIER_BACKWARD;
        if (adf + adr != 1) return XQ_ILL_GEOMETRY;
        if (dr == -xq_forward(c)) return XQ_ILL_SOLDIER_BACKWARD;
        if (adf == 1 && xq_own_half(fr, c)) return XQ_ILL_SOLDIER_SIDEWAYS;
        return own;
    default:
        return XQ_ILL_NO_PIECE;
    }
}

/* Do the generals face each other on one file with nothing between? */
static bool generals_face(const xq_position *pos)
{
    int r = pos->general[XQ_RED], k = pos->general[XQ_BLACK];
    if (r >= XQ_SQUARES || k >= XQ_SQUARES || xq_file_of[r] != xq_file_of[k]) return false;
    return pieces_between(pos->board, r, k) == 0;
}

xq_illegal xq_move_legality(const xq_position *pos, xq_move m)
{
    int from = XQ_FROM(m), to = XQ_TO(m);
    if (from >= XQ_SQUARES || to >= XQ_SQUARES || !pos->board[from]) return XQ_ILL_NO_PIECE;
    if (XQ_COLOR(pos->board[from]) != pos->side) return XQ_ILL_WRONG_SIDE;
    if (from == to) return XQ_ILL_GEOMETRY;
    xq_illegal why = geometry(pos, from, to);
    if (why != XQ_LEGAL) return why;
    xq_position tmp = *pos;
    if (keeps_general_safe(&tmp, m)) return XQ_LEGAL;
    /* which of the two: facing generals (§4.1.2) or an attacked general (§3.1) */
    xq_piece p = tmp.board[from];
    tmp.board[to] = p;
    tmp.board[from] = XQ_NONE;
    if (XQ_KIND(p) == XQ_GENERAL) tmp.general[pos->side] = (uint8_t)to;
    return generals_face(&tmp) ? XQ_ILL_GENERALS_FACE : XQ_ILL_LEAVES_CHECK;
}

static uint64_t perft_rec(xq_position *pos, int depth)
{
    xq_move moves[XQ_MAX_MOVES];
    int n = 0;
    for (int sq = 0; sq < XQ_SQUARES; sq++) {
        xq_piece p = pos->board[sq];
        if (p && XQ_COLOR(p) == pos->side) n = gen_piece(pos, sq, moves, n);
    }
    xq_color me = pos->side;
    bool chk = xq_in_check(pos, me);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        bool test = needs_test(pos, moves[i], chk);
        if (depth == 1 && !test) { total++; continue; }
        xq_undo u;
        xq_make(pos, moves[i], &u);
        if (!test || !xq_in_check(pos, me)) total += depth == 1 ? 1 : perft_rec(pos, depth - 1);
        xq_unmake(pos, moves[i], &u);
    }
    return total;
}

uint64_t xq_perft(xq_position *pos, int depth)
{
    return depth <= 0 ? 1 : perft_rec(pos, depth);
}
