/* ref_mate_search.h - the mate-by-checks search of the repetition judge
 * (repetition_classify.c, §28.2, §29.4) as it was before its per-node
 * work was cut (git b28f3f1), kept as the reference of test_mate_search.c: the
 * search since made cheaper per node must try the same moves in the same
 * order and spend its budget the same way, so that every answer, a
 * budget-exhausted one included, stays what this one gives.  A verbatim
 * copy of that code (its debug-build self-checks left out, the colour
 * sets found square by square), every function static; the table of
 * results is ref_mate_table.  Included by one test only.
 */
#ifndef REF_MATE_SEARCH_H
#define REF_MATE_SEARCH_H

#ifndef XQ_REPETITION_INTERNAL
#define XQ_REPETITION_INTERNAL   /* xq_light_make, xq_light_key */
#endif
#include <stdlib.h>
#include <string.h>

#include "board_tables.h"
#include "repetition.h"

typedef struct ref_mate_table ref_mate_table;

/* ---- square sets ------------------------------------------------------- */

typedef struct {
    uint64_t w[2];
} sqset;

static inline void set_add(sqset *s, int sq) { s->w[sq >> 6] |= (uint64_t)1 << (sq & 63); }
static inline bool set_has(const sqset *s, int sq) { return (s->w[sq >> 6] >> (sq & 63)) & 1; }
static inline bool set_empty(const sqset *s) { return !(s->w[0] | s->w[1]); }
static inline bool set_empty_of(sqset s) { return !(s.w[0] | s.w[1]); }
static inline sqset set_minus(sqset a, sqset b)
{
    a.w[0] &= ~b.w[0];
    a.w[1] &= ~b.w[1];
    return a;
}

/* The squares of the pieces of colour c (pieces are kind | colour << 3,
 * kinds 1..7: Red's bytes are 1..7, Black's 9..15), found 16 squares at
 * a time with SSE2 where there is SSE2, else square by square: one pass
 * over the 90 bytes instead of a colour test per piece, and read in
 * ascending square order (bit sq of the set), the order the searches
 * try the pieces in.  (Here square by square: the set is the same.) */
static inline sqset color_set(const xq_position *pos, xq_color c)
{
    sqset s = {{0, 0}};
    for (int sq = 0; sq < XQ_SQUARES; sq++)
        if (pos->board[sq] && XQ_COLOR(pos->board[sq]) == c) set_add(&s, sq);
    return s;
}

/* ---- moves on the board ------------------------------------------------
 * The searches generate their own pseudo-legal moves (the geometry of
 * CXA1999 §2.2, as movegen.c does) and test the mover's general once per
 * move (§3.1, §4.1.2), so that they look only at the moves that matter:
 * the captures, the moves that may give check, and the replies that can
 * answer a check.  Every set they generate is the same as filtering
 * xq_legal_moves (tests/unit/test_repetition_fast.c compares the
 * classifications with those of the plain implementation this replaced). */

static const int8_t HORSE_F[8] = {1, -1, 1, -1, 2, 2, -2, -2}, HORSE_R[8] = {2, 2, -2, -2, 1, -1, 1, -1};
/* For each horse move d: the offset of its leg from the horse. */
static const int8_t HORSE_LEG[8] = {9, 9, -9, -9, 1, 1, -1, -1};

static inline bool on_board(int f, int r) { return (unsigned)f < 9 && (unsigned)r < 10; }

/* The palace of each colour as a square set (files d..f, ranks 0..2 for
 * Red, 7..9 for Black), for the one-step moves of generals and advisors:
 * a step from any square that leaves the board sideways lands on file a
 * or i of the next rank, never in a palace, so `from + step` inside the
 * palace is exactly xq_in_palace of the step's file and rank. */
static const uint64_t PALACE_SET[2][2] = {
    {(7ull << 3) | (7ull << 12) | (7ull << 21), 0},
    {0, (7ull << (66 - 64)) | (7ull << (75 - 64)) | (7ull << (84 - 64))},
};

static inline bool palace_has(xq_color c, int sq)
{
    return (unsigned)sq < XQ_SQUARES && ((PALACE_SET[c][sq >> 6] >> (sq & 63)) & 1);
}
static inline int sgn(int x) { return (x > 0) - (x < 0); }

/* Room for the moves of one piece (a chariot has at most 17) or the
 * pieces that can reach one square (at most 8 on the lines, 8 horses, 3
 * soldiers, 4 advisors, 4 elephants and 4 general steps). */
enum { PIECE_MOVES = 24, SQUARE_ATTACKERS = 40 };

/* The squares of the first and second pieces met from sq in direction d
 * (0..3: north, south, east, west, as ORTH_F / ORTH_R), -1 for none, read
 * from the occupancy masks of the position instead of walking the board. */
typedef struct {
    int first, second;
} line_pair;

static inline line_pair line_scan(const xq_position *pos, int sq, int d)
{
    int f = xq_file_of[sq], r = xq_rank_of[sq];
    bool file = d < 2, down = d & 1;
    unsigned occ = file ? pos->file_occ[f] : pos->rank_occ[r];
    int i = file ? r : f, base = file ? f : r * 9, step = file ? 9 : 1;
    unsigned m = down ? occ & ((1u << i) - 1) : occ & (~1u << i);
    line_pair h = {-1, -1};
    if (!m) return h;
    int i1 = down ? 31 - __builtin_clz(m) : __builtin_ctz(m);
    h.first = base + step * i1;
    m ^= 1u << i1;
    if (m) h.second = base + step * (down ? 31 - __builtin_clz(m) : __builtin_ctz(m));
    return h;
}

/* The square one step beyond the board's edge from sq in direction d. */
static inline int past_edge(int sq, int d)
{
    int f = xq_file_of[sq], r = xq_rank_of[sq];
    switch (d) {
    case 0: return XQ_SQ(f, XQ_RANKS);
    case 1: return XQ_SQ(f, -1);
    case 2: return XQ_SQ(XQ_FILES, r);
    default: return XQ_SQ(-1, r);
    }
}

/* Neighbour tables of piece_moves and attackers_to, one row per square,
 * NO_SQ where a step leaves the board; directions in the order of
 * ORTH_F / ORTH_R (north, south, east, west) and DIAG_F / DIAG_R (NE, SE,
 * NW, SW).  Built by the preprocessor: nothing is computed at run time,
 * and threads share them as constants. */
#define NO_SQ 255
#define T_F(s) ((s) % 9)
#define T_R(s) ((s) / 9)
#define T_AT(s, df, dr) \
    ((unsigned)(T_F(s) + (df)) < 9u && (unsigned)(T_R(s) + (dr)) < 10u ? (s) + (df) + 9 * (dr) : NO_SQ)
#define T_SQ10(X, b) X(b), X(b + 1), X(b + 2), X(b + 3), X(b + 4), X(b + 5), X(b + 6), X(b + 7), X(b + 8), X(b + 9)
#define T_EACH_SQ(X) \
    T_SQ10(X, 0), T_SQ10(X, 10), T_SQ10(X, 20), T_SQ10(X, 30), T_SQ10(X, 40), T_SQ10(X, 50), T_SQ10(X, 60), \
    T_SQ10(X, 70), T_SQ10(X, 80)
/* by diagonal d (as DIAG_F / DIAG_R): {eye, horse, horse}, the horses
 * that reach s over the eye, in the order attackers_to lists them */
#define T_HORSE_PT(s, df, dr) {T_AT(s, df, dr), T_AT(s, 2 * (df), dr), T_AT(s, df, 2 * (dr))}
#define T_HORSE_ROW(s) {T_HORSE_PT(s, 1, 1), T_HORSE_PT(s, 1, -1), T_HORSE_PT(s, -1, 1), T_HORSE_PT(s, -1, -1)}
static const uint8_t HORSE_OVER[XQ_SQUARES][4][3] = {T_EACH_SQ(T_HORSE_ROW)};
/* by diagonal d: {eye, elephant square} */
#define T_ELE_PT(s, df, dr) {T_AT(s, df, dr), T_AT(s, 2 * (df), 2 * (dr))}
#define T_ELE_ROW(s) {T_ELE_PT(s, 1, 1), T_ELE_PT(s, 1, -1), T_ELE_PT(s, -1, 1), T_ELE_PT(s, -1, -1)}
static const uint8_t ELEPHANT_OVER[XQ_SQUARES][4][2] = {T_EACH_SQ(T_ELE_ROW)};
/* by d: {orthogonal step (as ORTH_F / ORTH_R), diagonal step (as DIAG_F / DIAG_R)} */
#define T_STEP_ROW(s) \
    {{T_AT(s, 0, 1), T_AT(s, 1, 1)}, {T_AT(s, 0, -1), T_AT(s, 1, -1)}, {T_AT(s, 1, 0), T_AT(s, -1, 1)}, \
     {T_AT(s, -1, 0), T_AT(s, -1, -1)}}
static const uint8_t STEP_OVER[XQ_SQUARES][4][2] = {T_EACH_SQ(T_STEP_ROW)};

/* by horse move d (as HORSE_F / HORSE_R): its target */
#define T_HORSE_TO(s) \
    {T_AT(s, 1, 2), T_AT(s, -1, 2), T_AT(s, 1, -2), T_AT(s, -1, -2), T_AT(s, 2, 1), T_AT(s, 2, -1), T_AT(s, -2, 1), \
     T_AT(s, -2, -1)}
static const uint8_t HORSE_TARGET[XQ_SQUARES][8] = {T_EACH_SQ(T_HORSE_TO)};

/* Append to moves[n..] the pseudo-legal moves of the piece on `from`
 * (geometry, blocking and own pieces; not the safety of its own general):
 * only the captures when caps_only.  Returns the new count. */
static int piece_moves(const xq_position *pos, int from, bool caps_only, xq_move *moves, int n)
{
    const xq_piece *b = pos->board;
    xq_piece p = b[from];
    xq_color c = XQ_COLOR(p);
    int ff = xq_file_of[from], fr = xq_rank_of[from];
    /* a target is taken when it holds an enemy, or is empty and quiet moves are wanted */
#define ADD(sq)                                                                  \
    do {                                                                         \
        int t_ = (sq);                                                           \
        if (b[t_] ? XQ_COLOR(b[t_]) != c : !caps_only) moves[n++] = XQ_MOVE(from, t_); \
    } while (0)
    switch (XQ_KIND(p)) {
    case XQ_GENERAL: {
        static const int8_t STEP[4] = {9, -9, 1, -1};   /* as ORTH_F / ORTH_R */
        for (int d = 0; d < 4; d++)
            if (palace_has(c, from + STEP[d])) ADD(from + STEP[d]);
        break;
    }
    case XQ_ADVISOR: {
        static const int8_t STEP[4] = {10, -8, 8, -10};   /* as DIAG_F / DIAG_R */
        for (int d = 0; d < 4; d++)
            if (palace_has(c, from + STEP[d])) ADD(from + STEP[d]);
        break;
    }
    case XQ_ELEPHANT: {
        const uint8_t(*el)[2] = ELEPHANT_OVER[from];
        for (int d = 0; d < 4; d++) {
            int t = el[d][1];
            if (t != NO_SQ && xq_own_half(xq_rank_of[t], c) && !b[el[d][0]]) ADD(t);
        }
        break;
    }
    case XQ_HORSE: {
        const uint8_t *ht = HORSE_TARGET[from];
        for (int d = 0; d < 8; d++) {
            int t = ht[d];
            /* (captures only: the target first, the likelier refusal) */
            if (t != NO_SQ && (!caps_only || b[t]) && !b[from + HORSE_LEG[d]]) ADD(t);
        }
        break;
    }
    case XQ_CHARIOT:
    case XQ_CANNON: {
        bool cannon = XQ_KIND(p) == XQ_CANNON;
        static const int8_t STEP[4] = {9, -9, 1, -1};
        for (int d = 0; d < 4; d++) {
            line_pair h = line_scan(pos, from, d);
            if (!caps_only) {
                int end = h.first >= 0 ? h.first : past_edge(from, d);
                for (int t = from + STEP[d]; t != end; t += STEP[d]) moves[n++] = XQ_MOVE(from, t);
            }
            int t = cannon ? (h.first >= 0 ? h.second : -1) : h.first;   /* over the screen */
            if (t >= 0 && XQ_COLOR(b[t]) != c) moves[n++] = XQ_MOVE(from, t);
        }
        break;
    }
    case XQ_SOLDIER: {
        int r = fr + xq_forward(c);
        if (r >= 0 && r <= 9) ADD(XQ_SQ(ff, r));
        if (!xq_own_half(fr, c)) {
            if (ff > 0) ADD(from - 1);
            if (ff < 8) ADD(from + 1);
        }
        break;
    }
    default:
        break;
    }
#undef ADD
    return n;
}

/* attackers_to's first part, shared with its debug reference: the
 * chariots and cannons of colour `by` on sq's four lines (the first piece
 * each way; a cannon beyond one screen when sq holds a piece), into
 * from[0..]; returns the count. */
static inline int line_attackers_to(const xq_position *pos, int sq, xq_color by, uint8_t *from)
{
    const xq_piece *b = pos->board;
    int n = 0;
    xq_piece chariot = XQ_PIECE(XQ_CHARIOT, by), cannon = XQ_PIECE(XQ_CANNON, by);
    for (int d = 0; d < 4; d++) {
        line_pair h = line_scan(pos, sq, d);
        if (h.first < 0) continue;
        xq_piece first = b[h.first];
        if (first == chariot || (!b[sq] && first == cannon)) from[n++] = (uint8_t)h.first;
        /* a cannon moves to an empty square as a chariot */
        if (b[sq] && h.second >= 0 && b[h.second] == cannon) from[n++] = (uint8_t)h.second;
    }
    return n;
}

/* attackers_to's soldier part, shared with its debug reference: the
 * soldiers of colour `by` that step to sq (forward, or sideways once
 * across the river), appended to from[n..]; returns the new count. */
static inline int soldier_attackers_to(const xq_piece *b, int sq, xq_color by, uint8_t *from, int n)
{
    int sf = xq_file_of[sq], sr = xq_rank_of[sq];
    int back = sr - xq_forward(by);   /* a soldier steps forward, or sideways once across */
    if (back >= 0 && back <= 9 && b[XQ_SQ(sf, back)] == XQ_PIECE(XQ_SOLDIER, by)) from[n++] = (uint8_t)XQ_SQ(sf, back);
    if (!xq_own_half(sr, by)) {
        if (sf > 0 && b[sq - 1] == XQ_PIECE(XQ_SOLDIER, by)) from[n++] = (uint8_t)(sq - 1);
        if (sf < 8 && b[sq + 1] == XQ_PIECE(XQ_SOLDIER, by)) from[n++] = (uint8_t)(sq + 1);
    }
    return n;
}


/* The squares of the pieces of colour `by` that could move to sq by their
 * geometry alone (as piece_moves: lines, screens, legs, eyes, palace,
 * river), sq being empty or holding a piece of the other colour (a
 * capture: a cannon needs a screen), into from[SQUARE_ATTACKERS]; returns
 * the count.  (A piece of `by` on sq: the captures of it.)  The order is
 * fixed (lines, horses, soldiers, general and advisors, elephants: the
 * order the searches try the captures in); the neighbours come from the
 * tables above. */
static int attackers_to(const xq_position *pos, int sq, xq_color by, uint8_t *from)
{
    const xq_piece *b = pos->board;
    int n = line_attackers_to(pos, sq, by, from), sf = xq_file_of[sq], sr = xq_rank_of[sq];
    xq_piece horse = XQ_PIECE(XQ_HORSE, by);
    const uint8_t(*ho)[3] = HORSE_OVER[sq];
    for (int d = 0; d < 4; d++) {
        /* an empty eye (diagonal to sq) lets the two horse squares beyond it attack */
        if (ho[d][0] == NO_SQ || b[ho[d][0]]) continue;
        if (ho[d][1] != NO_SQ && b[ho[d][1]] == horse) from[n++] = ho[d][1];
        if (ho[d][2] != NO_SQ && b[ho[d][2]] == horse) from[n++] = ho[d][2];
    }
    n = soldier_attackers_to(b, sq, by, from, n);
    if (xq_in_palace(sf, sr, by)) {
        const uint8_t(*st)[2] = STEP_OVER[sq];
        for (int d = 0; d < 4; d++) {
            if (st[d][0] != NO_SQ && b[st[d][0]] == XQ_PIECE(XQ_GENERAL, by)) from[n++] = st[d][0];
            if (st[d][1] != NO_SQ && b[st[d][1]] == XQ_PIECE(XQ_ADVISOR, by)) from[n++] = st[d][1];
        }
    }
    if (xq_own_half(sr, by)) {
        const uint8_t(*el)[2] = ELEPHANT_OVER[sq];
        for (int d = 0; d < 4; d++)
            if (el[d][1] != NO_SQ && b[el[d][1]] == XQ_PIECE(XQ_ELEPHANT, by) && !b[el[d][0]]) from[n++] = el[d][1];
    }
    return n;
}

/* A copy of pos with side c to move (a "pass" by the other side). */
/* ---- mate by checks (§28.2, §29.4) ---------------------------------------- */

/* Where checks can come from, for the side to move against the other
 * general: computed once per node of the mate search, with the list of
 * the mover's pieces (found by color_set, so the node looks at its ~16
 * pieces only, and met in ascending square order, the order of the moves
 * tried). */
typedef struct {
    int king, kf, kr;              /* the general to check, its file and rank */
    bool slider_file, slider_rank; /* an own chariot or cannon on its file / rank */
    bool cannon_file, cannon_rank; /* an own cannon there (a new screen may check) */
    sqset legs;                    /* legs of own horses a horse's move from it */
    sqset screen_to;               /* where a piece landing may become the screen of an own
                                      cannon's check (check_ctx_screens) */
    int npieces;
    uint8_t pieces[XQ_SQUARES];    /* squares of the mover's pieces, ascending */
} check_ctx;

static bool check_ctx_init(const xq_position *pos, check_ctx *c)
{
    xq_color me = pos->side;
    c->king = pos->general[me ^ 1];
    if (c->king >= XQ_SQUARES) return false;
    c->kf = xq_file_of[c->king];
    c->kr = xq_rank_of[c->king];
    c->slider_file = c->slider_rank = c->cannon_file = c->cannon_rank = false;
    c->legs.w[0] = c->legs.w[1] = 0;
    c->npieces = 0;
    sqset own = color_set(pos, me);
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = own.w[w]; bits; bits &= bits - 1) {
            int sq = w * 64 + __builtin_ctzll(bits), f = xq_file_of[sq], r = xq_rank_of[sq];
            xq_piece p = pos->board[sq];
            c->pieces[c->npieces++] = (uint8_t)sq;
            xq_kind k = XQ_KIND(p);
            if (k == XQ_CHARIOT || k == XQ_CANNON) {
                if (f == c->kf) c->slider_file = true, c->cannon_file |= k == XQ_CANNON;
                if (r == c->kr) c->slider_rank = true, c->cannon_rank |= k == XQ_CANNON;
            } else if (k == XQ_HORSE) {
                int df = c->kf - f, dr = c->kr - r;
                if ((abs(df) == 1 && abs(dr) == 2) || (abs(df) == 2 && abs(dr) == 1))
                    set_add(&c->legs, XQ_SQ(f + (abs(df) == 2 ? df / 2 : 0), r + (abs(dr) == 2 ? dr / 2 : 0)));
            }
        }
    return true;
}

/* Fill c->screen_to: the squares where a move that uncovers nothing may
 * give check by becoming the screen of an own cannon (may_check).  With
 * the other general attacked already (not quiet), every square of its
 * file or rank that an own cannon stands on, its own square included (a
 * capture of it too), as any move keeping that check counts.  Else (quiet) only the squares between the general and
 * an own cannon that is the first piece met from it on a line: a cannon
 * behind one piece or more does not check now, and a piece added on the
 * line (no piece leaves it: the move uncovers nothing) gives it a screen
 * only there; elsewhere it adds a second one or lands behind. */
static void check_ctx_screens(const xq_position *pos, check_ctx *c, bool quiet)
{
    c->screen_to.w[0] = c->screen_to.w[1] = 0;
    static const int8_t STEP[4] = {9, -9, 1, -1};   /* as ORTH_F / ORTH_R */
    xq_piece cannon = XQ_PIECE(XQ_CANNON, pos->side);
    for (int d = 0; d < 4; d++) {
        if (!(d < 2 ? c->cannon_file : c->cannon_rank)) continue;
        int end;
        if (quiet) {
            line_pair h = line_scan(pos, c->king, d);
            if (h.first < 0 || pos->board[h.first] != cannon) continue;
            end = h.first;
        } else {
            end = past_edge(c->king, d);
            set_add(&c->screen_to, c->king);
        }
        for (int sq = c->king + STEP[d]; sq != end; sq += STEP[d]) set_add(&c->screen_to, sq);
    }
}

/* Does an own chariot (first piece met) or cannon (second) attack the
 * general at line index k from the side of the higher indices (up) or
 * the lower ones, on a line whose occupancy after a move is occ (bit i:
 * index i), the move having put p on index t (-1: not on this line)?
 * sq0 + step * i is the square of index i. */
static bool line_checks(const xq_piece *b, unsigned occ, int k, bool up, int t, int sq0, int step, xq_piece p,
                        xq_color me)
{
    unsigned m = up ? occ & (~1u << k) : occ & ((1u << k) - 1);
    if (!m) return false;
    int i1 = up ? __builtin_ctz(m) : 31 - __builtin_clz(m), i2 = -1;
    m ^= 1u << i1;
    if (m) i2 = up ? __builtin_ctz(m) : 31 - __builtin_clz(m);
    if ((i1 == t ? p : b[sq0 + step * i1]) == XQ_PIECE(XQ_CHARIOT, me)) return true;
    return i2 >= 0 && (i2 == t ? p : b[sq0 + step * i2]) == XQ_PIECE(XQ_CANNON, me);
}

/* Does the pseudo-legal move from -> to attack the other general, which
 * is not attacked before it?  Read on the board before the move, which is
 * not played: only what touches `from` or `to` can have changed, so a
 * check comes from the moved piece on `to` (its lines, horse leg or
 * soldier step), from an own horse whose leg was `from`, or along the
 * general's file or rank through `from` (uncovered) or `to` (the moved
 * piece, or a new screen of an own cannon).  A move that makes the
 * generals face may be answered either way: the mover's own general is
 * then attacked too, so it is no legal check.  *uncovered caches, for the
 * moves of the piece on `from`, whether leaving the general's file or
 * rank it stands on uncovers a check (-1: not known yet; the same for
 * every move that leaves that line, so it is read on the masks once). */
static bool quiet_move_checks(const xq_position *pos, const check_ctx *c, int from, int to, int8_t *uncovered)
{
    const xq_piece *b = pos->board;
    xq_piece p = b[from];
    xq_color me = XQ_COLOR(p);
    xq_kind k = XQ_KIND(p);
    if (set_has(&c->legs, from)) return true;
    int ff = xq_file_of[from], fr = xq_rank_of[from], tf = xq_file_of[to], tr = xq_rank_of[to];
    int df = tf - c->kf, dr = tr - c->kr;
    if (k == XQ_HORSE && df && dr && abs(df) + abs(dr) == 3 && !b[XQ_SQ(c->kf + sgn(df), c->kr + sgn(dr))])
        return true;
    if (k == XQ_SOLDIER &&
        ((!df && dr == -xq_forward(me)) || (!dr && abs(df) == 1 && !xq_own_half(c->kr, me))))
        return true;
    bool slider = k == XQ_CHARIOT || k == XQ_CANNON;
    if (ff == c->kf || !df) {
        unsigned occ = pos->file_occ[c->kf];
        if (ff == c->kf) occ &= ~(1u << fr);
        if (!df) occ |= 1u << tr;
        int t = df ? -1 : tr;
        if (!df && (slider || c->cannon_file) && line_checks(b, occ, c->kr, tr > c->kr, t, c->kf, 9, p, me))
            return true;
        if (ff == c->kf && c->slider_file) {
            /* (leaving the file: the same answer for every such move) */
            bool checks = df && *uncovered >= 0 ? *uncovered
                                                : line_checks(b, occ, c->kr, fr > c->kr, t, c->kf, 9, p, me);
            if (df) *uncovered = checks;
            if (checks) return true;
        }
    }
    if (fr == c->kr || !dr) {
        unsigned occ = pos->rank_occ[c->kr];
        if (fr == c->kr) occ &= ~(1u << ff);
        if (!dr) occ |= 1u << tf;
        int t = dr ? -1 : tf, sq0 = c->kr * 9;
        if (!dr && (slider || c->cannon_rank) && line_checks(b, occ, c->kf, tf > c->kf, t, sq0, 1, p, me))
            return true;
        if (fr == c->kr && c->slider_rank) {
            bool checks = dr && *uncovered >= 0 ? *uncovered
                                                : line_checks(b, occ, c->kf, ff > c->kf, t, sq0, 1, p, me);
            if (dr) *uncovered = checks;
            if (checks) return true;
        }
    }
    return false;
}

/* Could move m give check?  A cheap necessary condition: it uncovers an
 * own chariot or cannon on the general's file or rank, or leaves a horse
 * leg; or the piece itself attacks from its new square (chariot or cannon
 * on the line, horse a horse's move away, soldier next to it); or it lands
 * where an own cannon may use it as a screen (c->screen_to). */
static bool may_check(const xq_position *pos, const check_ctx *c, xq_move m)
{
    int from = XQ_FROM(m), to = XQ_TO(m);
    int ff = xq_file_of[from], fr = xq_rank_of[from], tf = xq_file_of[to], tr = xq_rank_of[to];
    if ((ff == c->kf && c->slider_file) || (fr == c->kr && c->slider_rank) || set_has(&c->legs, from)) return true;
    int df = abs(tf - c->kf), dr = abs(tr - c->kr);
    switch (XQ_KIND(pos->board[from])) {
    case XQ_CHARIOT:
    case XQ_CANNON:
        if (!df || !dr) return true;
        break;
    case XQ_HORSE:
        if (df + dr == 3 && df && dr) return true;
        break;
    case XQ_SOLDIER:
        if (df + dr == 1) return true;
        break;
    default:
        break;
    }
    return set_has(&c->screen_to, to);
}

/* The move of a chariot or cannon (on index `at` of a line whose
 * occupancy is occ, `from` its square) onto index `cross` of that line,
 * square x, if it can make it: a quiet move when x is empty and nothing
 * stands between, a capture of a piece of the other colour on x over no
 * piece (chariot) or over exactly one (cannon).  Appended to moves[n..];
 * returns the new count. */
static inline int crossing_move(const xq_piece *b, unsigned occ, int at, int cross, int x, bool cannon, int from,
                                xq_move *moves, int n)
{
    int lo = at < cross ? at : cross, hi = at < cross ? cross : at;
    unsigned between = occ & ((1u << hi) - 1) & ~((2u << lo) - 1);   /* indices lo+1 .. hi-1 */
    bool one = between && !(between & (between - 1));
    if (!b[x] ? !between : XQ_COLOR(b[x]) != XQ_COLOR(b[from]) && (cannon ? one : !between))
        moves[n++] = XQ_MOVE(from, x);
    return n;
}

/* The moves of the chariot or cannon on `from` that may give check
 * (may_check), when it neither stands on the general's file or rank nor
 * uncovers a line or a horse leg: those that land on the general's file
 * or rank.  Moving along its file it meets the general's rank at one
 * square, and along its rank the general's file at one square (no other
 * square of its lines is on them), so these are at most two moves, a
 * quiet move or a capture onto each crossing square, read on the
 * occupancy masks.  The same moves in the same order as piece_moves
 * filtered by may_check (its file's directions come before its rank's),
 * without generating the ~17 others. */
static int slider_check_moves(const xq_position *pos, const check_ctx *c, int from, xq_move *moves)
{
    const xq_piece *b = pos->board;
    bool cannon = XQ_KIND(b[from]) == XQ_CANNON;
    int ff = xq_file_of[from], fr = xq_rank_of[from];
    int n = crossing_move(b, pos->file_occ[ff], fr, c->kr, XQ_SQ(ff, c->kr), cannon, from, moves, 0);
    return crossing_move(b, pos->rank_occ[fr], ff, c->kf, XQ_SQ(c->kf, fr), cannon, from, moves, n);
}

/* The moves of the horse on `from` that may give check (may_check), when
 * it uncovers no line nor leg and no own cannon stands on the general's
 * file or rank (so it checks only from a horse's move from the general):
 * the same moves in the same order as piece_moves filtered by may_check,
 * the target tested before the board is read. */
static int horse_check_moves(const xq_position *pos, const check_ctx *c, int from, xq_move *moves)
{
    const xq_piece *b = pos->board;
    xq_color me = XQ_COLOR(b[from]);
    int ff = xq_file_of[from], fr = xq_rank_of[from], n = 0;
    for (int d = 0; d < 8; d++) {
        int f = ff + HORSE_F[d], r = fr + HORSE_R[d];
        int df = abs(f - c->kf), dr = abs(r - c->kr);
        if (!on_board(f, r) || df + dr != 3 || !df || !dr || b[from + HORSE_LEG[d]]) continue;
        int t = XQ_SQ(f, r);
        if (!b[t] || XQ_COLOR(b[t]) != me) moves[n++] = XQ_MOVE(from, t);
    }
    return n;
}

/* The moves of the piece on sq that may give check (may_check), in the
 * order of piece_moves; `uncovers`: the piece stands on a line or a horse
 * leg that its move may open (then every move may check). */
static int check_candidates(const xq_position *pos, const check_ctx *c, int sq, bool uncovers, xq_move *moves)
{
    xq_kind k = XQ_KIND(pos->board[sq]);
    if (!uncovers && (k == XQ_CHARIOT || k == XQ_CANNON)) return slider_check_moves(pos, c, sq, moves);
    /* a soldier checks from next to the general, one step from where it
     * stands; else only as a new screen */
    int df = abs(xq_file_of[sq] - c->kf), dr = abs(xq_rank_of[sq] - c->kr);
    bool screens = !set_empty(&c->screen_to);
    if (!uncovers && k == XQ_SOLDIER && !screens && df + dr > 2) return 0;
    /* a horse checks from a horse's move from the general, one horse's
     * move from where it stands: two such moves make at most 4 files or
     * ranks and 6 steps in all */
    if (!uncovers && k == XQ_HORSE && !screens)
        return df > 4 || dr > 4 || df + dr > 6 ? 0 : horse_check_moves(pos, c, sq, moves);
    xq_move buf[PIECE_MOVES];
    int n = piece_moves(pos, sq, false, buf, 0), m = 0;
    for (int i = 0; i < n; i++)
        if (uncovers || may_check(pos, c, buf[i])) moves[m++] = buf[i];
    return m;
}


/* Where a check on the general of the side to move can be answered by a
 * piece other than the general: `to` gets the checkers' squares, the
 * squares between a checking chariot, cannon or facing general and the
 * general, and the legs of checking horses; `from` gets the screens of
 * checking cannons (moving one away answers).  A move of another piece
 * that lands on none of `to` and leaves none of `from` leaves every
 * checker attacking, so it is illegal.  False when the side has no
 * general. */
static bool answer_squares(const xq_position *pos, sqset *to, sqset *from)
{
    xq_color c = pos->side, e = (xq_color)(c ^ 1);
    int g = pos->general[c];
    memset(to, 0, sizeof *to);
    memset(from, 0, sizeof *from);
    if (g >= XQ_SQUARES) return false;
    const xq_piece *b = pos->board;
    int gf = xq_file_of[g], gr = xq_rank_of[g];
    /* the lines, read from the occupancy masks: a chariot or the facing
     * general (first piece met), or a cannon over its screen (second) */
    static const int8_t STEP[4] = {9, -9, 1, -1};
    for (int d = 0; d < 4; d++) {
        line_pair h = line_scan(pos, g, d);
        if (h.first < 0) continue;
        if (b[h.first] == XQ_PIECE(XQ_CHARIOT, e) || (b[h.first] == XQ_PIECE(XQ_GENERAL, e) && d < 2)) {
            for (int sq = g + STEP[d]; sq != h.first; sq += STEP[d]) set_add(to, sq);
            set_add(to, h.first);
        } else if (h.second >= 0 && b[h.second] == XQ_PIECE(XQ_CANNON, e)) {
            /* the squares on both sides of the screen, and the cannon */
            for (int sq = g + STEP[d]; sq != h.second; sq += STEP[d])
                if (sq != h.first) set_add(to, sq);
            set_add(to, h.second);
            set_add(from, h.first);
        }
    }
    for (int d = 0; d < 8; d++) {
        int f = gf + HORSE_F[d], r = gr + HORSE_R[d];
        int leg = XQ_SQ(gf + sgn(HORSE_F[d]), gr + sgn(HORSE_R[d]));
        if (on_board(f, r) && b[XQ_SQ(f, r)] == XQ_PIECE(XQ_HORSE, e) && !b[leg]) {
            set_add(to, XQ_SQ(f, r));
            set_add(to, leg);
        }
    }
    int sr = gr - xq_forward(e);
    if (sr >= 0 && sr <= 9 && b[XQ_SQ(gf, sr)] == XQ_PIECE(XQ_SOLDIER, e)) set_add(to, XQ_SQ(gf, sr));
    if (!xq_own_half(gr, e)) {
        if (gf > 0 && b[g - 1] == XQ_PIECE(XQ_SOLDIER, e)) set_add(to, g - 1);
        if (gf < 8 && b[g + 1] == XQ_PIECE(XQ_SOLDIER, e)) set_add(to, g + 1);
    }
    return true;
}

/* ---- the table of mate-search results ------------------------------------ */

/* One result: in the position (board and side to move), the side to move
 * mates by checks within `depth` plies (mate) or does not (depth 0: an
 * empty slot; searched depths are odd).  A mate within d is one within
 * every d' >= d too, and no mate within d none within every d' <= d
 * (mate_by_checks at depth d + 2 tries every line it tries at depth d). */
typedef struct {
    uint64_t key;
    uint8_t depth, mate, side;
    xq_piece board[XQ_SQUARES];
} mate_entry;

enum { MATE_TABLE_BITS = 11 };   /* 2048 slots (about 200 KB), one entry each: the newer
                                    replaces (a larger table finds no more on the corpus) */

struct ref_mate_table {
    /* bit i: slot i was written since the table was last emptied (the
     * others are empty, whatever they hold); 256 bytes that stay in the
     * cache, so a lookup of an empty slot reads no entry (the entries
     * are cold when a classification starts: the replay's work since the
     * last one has evicted them) */
    uint64_t used[(1 << MATE_TABLE_BITS) / 64];
    mate_entry slot[1 << MATE_TABLE_BITS];
};

/* Empty the table: no slot is used.  Each classification starts with an
 * empty table, so what it answers depends on its position and move alone,
 * not on the searches before it: were a budget to run out, a table filled
 * by earlier games (another thread's under -j N) could otherwise change
 * the answer, and the memo would keep it for later games. */
static void mate_table_clear(ref_mate_table *t)
{
    if (t) memset(t->used, 0, sizeof t->used);
}


/* The slot of key. */
static inline unsigned mate_index(uint64_t key) { return (unsigned)(key >> (64 - MATE_TABLE_BITS)); }

/* Was slot i written since the table was emptied? */
static inline bool mate_used(const ref_mate_table *t, unsigned i) { return (t->used[i / 64] >> (i % 64)) & 1; }

/* Ask the cache for the slot of key (tt NULL: nothing), ahead of its
 * lookup: the table is cold when a classification starts (the replay's
 * work since the last one has evicted it), and a search reads a slot at
 * random at each of its nodes. */
static inline void mate_prefetch(const ref_mate_table *t, uint64_t key)
{
    if (!t) return;
    const char *e = (const char *)&t->slot[mate_index(key)];
    __builtin_prefetch(e);
    __builtin_prefetch(e + sizeof(mate_entry) - 1);
}

/* The known answer for pos at depth: 1 (mate), 0 (no mate), -1 (unknown). */
static int mate_lookup(ref_mate_table *t, const xq_position *pos, int depth)
{
    if (!t) return -1;
    unsigned i = mate_index(pos->key);
    if (!mate_used(t, i)) return -1;
    const mate_entry *e = &t->slot[i];
    if (e->key != pos->key || e->side != pos->side || memcmp(e->board, pos->board, sizeof e->board)) return -1;
    if (e->mate && e->depth <= depth) return 1;
    if (!e->mate && e->depth >= depth) return 0;
    return -1;
}

/* Keep the answer of a search of pos at depth that ran to its end (not
 * cut short by the budget, whose "no" is no fact). */
static void mate_store(ref_mate_table *t, const xq_position *pos, int depth, bool mate)
{
    if (!t) return;
    unsigned i = mate_index(pos->key);
    t->used[i / 64] |= (uint64_t)1 << (i % 64);
    mate_entry *e = &t->slot[i];
    e->key = pos->key;
    e->depth = (uint8_t)depth;
    e->mate = mate;
    e->side = (uint8_t)pos->side;
    memcpy(e->board, pos->board, sizeof e->board);
}

/* ---- mate search ---------------------------------------------------------- */

static bool mate_by_checks(xq_position *pos, int depth, int *budget, bool quiet, ref_mate_table *tt);

/* What to do with each legal reply to a check (for_each_reply): with
 * depth < 3 only whether one exists; else whether the mover, after it,
 * can no longer mate by checks within depth - 2 plies. */
typedef struct {
    int depth;
    int *budget;
    ref_mate_table *tt;
    int checker;     /* where the checking move landed: its captures come first */
} reply_visit;

/* Play the pseudo-legal reply from -> to and, when it is legal (its
 * general neither attacked nor facing the other after it, §3.1, §4.1.2),
 * look at it as v says; true when it stops the walk (a legal reply, or
 * one after which the mover cannot mate).  The legality test and the
 * search share one xq_light_make (the position is changed only through
 * xq_light_make / xq_light_unmake, which keep its derived fields). */
static bool visit_reply(xq_position *pos, int from, int to, const reply_visit *v)
{
    xq_color me = pos->side;
    uint64_t key = pos->key, after = 0;
    xq_piece cap = xq_light_make(pos, from, to);
    /* (the search after the reply reads its key, and its slot of the
     * table: asked for while the legality is tested) */
    if (v->depth >= 3) {
        after = xq_light_key(pos, key, from, to, cap);
        mate_prefetch(v->tt, after);
    }
    bool stop = !xq_in_check(pos, me);
    /* (a legal reply leaves its general unattacked: quiet) */
    if (stop && v->depth >= 3) {
        pos->key = after;
        stop = !mate_by_checks(pos, v->depth - 2, v->budget, true, v->tt);
        pos->key = key;
    }
    xq_light_unmake(pos, from, to, cap);
    return stop;
}

/* Visit first the captures of the piece that just gave check (on
 * v->checker): taking the checker removes attacking force, so the mover's
 * search after it is smaller than after a move of the general.  The same
 * answer either way: every legal reply is still visited until one stops
 * the walk, only the order changes (when the check was uncovered, taking
 * the moved piece answers nothing and visit_reply finds it illegal).
 * Returns the checker's square (for_each_reply then skips the moves onto
 * it: all of them were visited here), -2 when a capture stopped the walk. */
static int capture_checker_first(xq_position *pos, const reply_visit *v)
{
    uint8_t src[SQUARE_ATTACKERS];
    int n = attackers_to(pos, v->checker, pos->side, src);
    for (int i = 0; i < n; i++)
        if (visit_reply(pos, src[i], v->checker, v)) return -2;
    return v->checker;
}

/* Walk the legal moves of the side to move, which is in check, visiting
 * each (visit_reply) until one stops the walk: when a search follows the
 * replies (depth >= 3), the captures of the checking piece first
 * (capture_checker_first); then the general's moves (the likeliest
 * answers), then every move of an own screen of a checking cannon, then
 * the moves of the other pieces onto the answer squares (answer_squares),
 * each move once.  The replies are generated as they are visited, so a
 * walk that stops early never tests the legality of the others.  True
 * when the walk was stopped. */
static bool for_each_reply(xq_position *pos, const reply_visit *v)
{
    xq_color me = pos->side;
    int g = pos->general[me];
    if (g >= XQ_SQUARES) {
        /* no general: every legal move */
        xq_move all[XQ_MAX_MOVES];
        int n = xq_legal_moves(pos, all);
        for (int i = 0; i < n; i++)
            if (visit_reply(pos, XQ_FROM(all[i]), XQ_TO(all[i]), v)) return true;
        return false;
    }
    /* the checking piece's square, whose captures come first (-1: none) */
    int taken = v->depth >= 3 ? capture_checker_first(pos, v) : -1;
    if (taken == -2) return true;
    xq_move buf[PIECE_MOVES];
    int k = piece_moves(pos, g, false, buf, 0);
    for (int i = 0; i < k; i++)
        if (XQ_TO(buf[i]) != taken && visit_reply(pos, g, XQ_TO(buf[i]), v)) return true;
    /* (the answer squares only when no move of the general answers) */
    sqset to, from;
    answer_squares(pos, &to, &from);
    sqset screens = {{0, 0}};
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = from.w[w]; bits; bits &= bits - 1) {
            int sq = w * 64 + __builtin_ctzll(bits);
            xq_piece p = pos->board[sq];
            if (!p || XQ_COLOR(p) != me) continue;
            set_add(&screens, sq);
            k = piece_moves(pos, sq, false, buf, 0);
            for (int i = 0; i < k; i++)
                if (XQ_TO(buf[i]) != taken && visit_reply(pos, sq, XQ_TO(buf[i]), v)) return true;
        }
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = to.w[w]; bits; bits &= bits - 1) {
            int t = w * 64 + __builtin_ctzll(bits);
            if (t == taken) continue;
            uint8_t src[SQUARE_ATTACKERS];
            k = attackers_to(pos, t, me, src);
            for (int i = 0; i < k; i++) {
                /* the general and the screens: all their moves are above */
                if (src[i] == g || set_has(&screens, src[i])) continue;
                if (visit_reply(pos, src[i], t, v)) return true;
            }
        }
    return false;
}

/* After the mover's check (its piece now on `checker`), the first ply of
 * a mate by checks within depth plies: is the defender (to move) mated
 * whatever it replies?  A defender without a legal move is mated (§3.1).
 * The replies are tried in the order of for_each_reply and the first one
 * that escapes ends the test. */
static bool all_replies_mated(xq_position *pos, int depth, int *budget, ref_mate_table *tt, int checker)
{
    reply_visit v = {depth, budget, tt, checker};
    return !for_each_reply(pos, &v);
}

/* Can the side to move mate by consecutive checks within depth plies
 * (1, 3, 5, ...)?  Every legal reply of the defender is tried; a defender
 * left without a legal move after a check is mated (§3.1).  quiet: the
 * caller knows that the other general is not attacked (after a legal
 * reply); then a move is played only when quiet_move_checks finds it a
 * check, and only its legality is tested on the board (not even that
 * when the move cannot touch the lines or legs of the mover's general,
 * which is not attacked: touches_general).  *budget
 * counts the moves tried (pseudo-legal moves that may give check); when
 * it runs out the answer is "no".  It never runs out on the corpus nor on
 * the rule cases, so the answer is the exact one there and the order of
 * the moves does not matter (on masters.pgn the largest threat search
 * uses 1,860 of MATE_BUDGET, the largest capture search 299 of
 * CAPTURE_MATE_BUDGET; before the table of results and the captures of
 * the checker first, 4,140 and 309).  The table and the order change how
 * much of a budget a search spends (on the corpus: less), so only where a
 * budget runs out could an answer differ from the searches before them. */

/* Can the move from -> to of a piece other than the general change
 * whether the general on g is attacked?  Only through g's file or rank
 * (the lines of chariots, cannons and the other general, opened at from
 * or closed or screened at to) or a horse's leg next to g, diagonally,
 * opened at from: soldiers and horses do not move, and the piece taken
 * on to, if any, only stops attacking.  So when it is false, the move
 * leaves g attacked exactly when it was before. */
static inline bool touches_general(int g, int from, int to)
{
    int gf = xq_file_of[g], gr = xq_rank_of[g];
    int ff = xq_file_of[from], fr = xq_rank_of[from];
    return ff == gf || fr == gr || xq_file_of[to] == gf || xq_rank_of[to] == gr ||
           (abs(ff - gf) == 1 && abs(fr - gr) == 1);
}

static bool mate_by_checks_search(xq_position *pos, int depth, int *budget, bool quiet, ref_mate_table *tt);


/* mate_by_checks_search, answered from the table tt when it knows (tt
 * NULL: none), and its complete answers kept there. */
static bool mate_by_checks(xq_position *pos, int depth, int *budget, bool quiet, ref_mate_table *tt)
{
    int known = mate_lookup(tt, pos, depth);
    if (known >= 0) return known;
    bool mate = mate_by_checks_search(pos, depth, budget, quiet, tt);
    if (*budget >= 0) mate_store(tt, pos, depth, mate);
    return mate;
}

static bool mate_by_checks_search(xq_position *pos, int depth, int *budget, bool quiet, ref_mate_table *tt)
{
    check_ctx c;
    if (!check_ctx_init(pos, &c)) return false;
    xq_color me = pos->side, them = (xq_color)(me ^ 1);
    /* the mover's general, and whether it is attacked now (-1: not yet
     * known; tested once, when a check first needs it) */
    int own = pos->general[me], own_attacked = -1;
    /* the other general not attacked now: a move is a check when
     * quiet_move_checks says so, without playing it */
    if (!quiet) quiet = !xq_in_check(pos, them);
    check_ctx_screens(pos, &c, quiet);
    bool screens = !set_empty(&c.screen_to);
    for (int j = 0; j < c.npieces; j++) {
        int sq = c.pieces[j];
        xq_kind k = XQ_KIND(pos->board[sq]);
        int f = xq_file_of[sq], r = xq_rank_of[sq];
        /* only these pieces can give check themselves; the others only by
         * uncovering a line or a leg, or by becoming a screen */
        bool active = k == XQ_CHARIOT || k == XQ_CANNON || k == XQ_HORSE || k == XQ_SOLDIER;
        bool uncovers = (f == c.kf && c.slider_file) || (r == c.kr && c.slider_rank) || set_has(&c.legs, sq);
        if (!active && !uncovers && !screens) {
            continue;
        }
        xq_move buf[PIECE_MOVES];
        int n = check_candidates(pos, &c, sq, uncovers, buf);
        int8_t uncovered = -1;   /* (quiet_move_checks' cache for this piece) */
        for (int i = 0; i < n; i++) {
            if (--*budget < 0) return false;
            bool checks = !quiet || quiet_move_checks(pos, &c, sq, XQ_TO(buf[i]), &uncovered);
            if (!checks) continue;
            int to = XQ_TO(buf[i]);
            /* legal without playing it: a move that cannot touch the lines
             * or legs of its own general, which is not attacked now */
            bool legal = own < XQ_SQUARES && k != XQ_GENERAL && !touches_general(own, sq, to);
            if (legal && own_attacked < 0) own_attacked = xq_in_check(pos, me);
            legal = legal && !own_attacked;
            uint64_t key = pos->key;
            xq_piece cap = xq_light_make(pos, sq, to);
            /* (the searches after the replies read the key) */
            if (depth >= 3) pos->key = xq_light_key(pos, key, sq, to, cap);
            /* a check (the cheaper test first), by a legal move */
            bool mate = (quiet || xq_in_check(pos, them)) && (legal || !xq_in_check(pos, me)) &&
                        all_replies_mated(pos, depth, budget, tt, to);
            pos->key = key;
            xq_light_unmake(pos, sq, to, cap);
            if (mate) return true;
            if (*budget < 0) return false;
        }
    }
    return false;
}

/* Mate by checks for the side to move within max_depth plies, searched
 * at once (a deeper search finds every shorter mate too, and iterating
 * deeper searches would double the work).  quiet: the caller knows that
 * the other general is not attacked (as mate_by_checks; the search would
 * find the same, with one more test). */

/* The reference search of pos (copied, not changed) for a mate by checks
 * within depth plies with `budget` moves, the table t (NULL: none)
 * emptied first: the answer, and in *left the budget left (negative: it
 * ran out). */
static bool ref_mate_search(const xq_position *pos, int depth, int budget, bool quiet, ref_mate_table *t, int *left)
{
    mate_table_clear(t);
    xq_position p = *pos;
    *left = budget;
    return mate_by_checks(&p, depth, left, quiet, t);
}

#endif
