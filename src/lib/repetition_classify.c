/* repetition_classify.c - what one move does, for the repetition rules:
 * check (將), mate threat (殺), chase (捉) or idle (閑) and which kind of
 * idle (兌 獻 攔 跟 ...), after CXA1999 §27-§29 and chapter 7.
 *
 * The facts are computed by search on the real board, not by patterns:
 *  - a chase is a capture the mover could make next if the other side
 *    passed, legal (pins, flying general), that wins material once the
 *    exchange on that square has run its course (each side may stop), that
 *    does not get the mover mated at once, and that the mover could not
 *    make before the move (§29.1-29.4, ch.7 items 2, 3, 6, 7): under CXA
 *    1999 of a piece no piece of the mover could win before the move
 *    (the chase is the victim's, §28.3, §29.2: from chase to chase when
 *    another piece takes over), under AXF by an attacker that could not
 *    win it before (two pieces may not chase one piece in turn);
 *  - a mate threat is a mate by consecutive checks the mover would have if
 *    the other side passed and did not have before the move (§28.2).
 * The rule sets differ in three facts: AXF calls a piece protected when it
 * can be taken back at all (a lesser piece still chases a greater one),
 * an attack that existed before but would have got the mover mated is
 * not new under AXF, and a chase is new per victim under CXA 1999 but
 * per attacker under AXF.
 *
 * This runs only when a position repeats.  The searches generate their
 * own moves (the same sets as filtering xq_legal_moves): the captures
 * piece by piece, the captures onto one square from that square, the
 * moves that may give check, and the answers to a check from the squares
 * that can answer it; each is then tested for legality once (a move of
 * the mate search is played only when it gives check, which is read on
 * the board before it).  Lines are scanned on the occupancy masks of the
 * position.  A node of the mate search finds the mover's pieces by kind
 * as square sets in one pass over the board (kind_sets) and walks only
 * those whose moves may give check (the horses and soldiers only near
 * the other general); a chariot's or cannon's move onto the other
 * general's lines says whether it checks as it is generated, and a piece
 * whose leaving the general's line opens nothing gives no check off its
 * lines.  A reply that steps the general is judged on the board as it
 * is, made only when a search follows it.  The
 * search tries the same moves in the same order, and spends its budget
 * the same way, as the search before that change (git b28f3f1), kept in
 * tests/unit/ref_mate_search.h (test_mate_search.c; test_judge_lines.c on
 * positions built for these shortcuts).  The mate searches
 * are bounded by budgets; their answers are kept in a table
 * (xq_mate_table), emptied at each classification, so a
 * position met again within one classification's searches is not searched
 * again (and a classification depends on its position and move alone).
 */
#define XQ_REPETITION_INTERNAL   /* xq_light_make, xq_light_key, xq_mate_table */
#include "repetition.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "board_tables.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

enum {
    MATE_DEPTH = 7,           /* plies of a mate by checks that make a threat (§28.2) */
    MATE_BUDGET = 6000,       /* moves tried per mate-threat search */
    CAPTURE_MATE_DEPTH = 3,    /* "mated at once" after a capture (§29.4): plies */
    CAPTURE_MATE_BUDGET = 1500,
    EXCHANGE_DEPTH = 24        /* captures on one square, at most */
};

const char *xq_act_str(xq_act a)
{
    static const char *const names[] = {"idle", "chase", "mate threat", "check"};
    return (unsigned)a < 4 ? names[a] : "idle";
}

const char *xq_idle_str(xq_idle_kind k)
{
    static const char *const names[XQ_IDLE_KIND_COUNT] = {
        [XQ_IDLE_PLAIN] = "idle",
        [XQ_IDLE_EXCHANGE] = "exchange offer",
        [XQ_IDLE_OFFER] = "offer",
        [XQ_IDLE_BLOCK] = "block",
        [XQ_IDLE_FOLLOW] = "follow",
        [XQ_IDLE_GENERAL_CHASE] = "general chase",
        [XQ_IDLE_SOLDIER_CHASE] = "soldier chase",
        [XQ_IDLE_CHASE_KEPT] = "chase kept",
        [XQ_IDLE_CAPTURE_MATED] = "capture would be mated",
        [XQ_IDLE_UNKNOWN] = "unknown",
    };
    return (unsigned)k < XQ_IDLE_KIND_COUNT ? names[k] : "idle";
}

/* ---- values (CXA1999 §25.3) -------------------------------------------- */

/* Value in half-horses: chariot = 2 horses = 2 cannons = horse + cannon,
 * advisor = elephant, a crossed soldier like an advisor, an uncrossed one
 * half of it.  The general is never captured by a legal move; its value
 * only keeps exchanges honest. */
static int value_of(xq_piece p, int sq)
{
    switch (XQ_KIND(p)) {
    case XQ_CHARIOT: return 8;
    case XQ_HORSE:
    case XQ_CANNON: return 4;
    case XQ_ADVISOR:
    case XQ_ELEPHANT: return 2;
    case XQ_SOLDIER: return xq_own_half(xq_rank_of[sq], XQ_COLOR(p)) ? 1 : 2;
    case XQ_GENERAL: return 1000;
    default: return 0;
    }
}

/* A "piece of value" (子力, §25.3): not the general, not an uncrossed soldier. */
static bool of_value(xq_piece p, int sq)
{
    xq_kind k = XQ_KIND(p);
    if (k == XQ_NONE || k == XQ_GENERAL) return false;
    if (k == XQ_SOLDIER && xq_own_half(xq_rank_of[sq], XQ_COLOR(p))) return false;
    return true;
}

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
 * try the pieces in. */
static inline sqset color_set(const xq_position *pos, xq_color c)
{
    sqset s = {{0, 0}};
#ifdef __SSE2__
    uint8_t b[96] = {0};
    memcpy(b, pos->board, XQ_SQUARES);
    const __m128i lo = _mm_set1_epi8(c == XQ_RED ? 0 : 8), hi = _mm_set1_epi8(c == XQ_RED ? 8 : 16);
    for (int k = 0; k < 6; k++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(b + 16 * k));
        __m128i in = _mm_and_si128(_mm_cmpgt_epi8(v, lo), _mm_cmplt_epi8(v, hi));
        uint64_t bits = (uint64_t)(unsigned)_mm_movemask_epi8(in);
        int at = 16 * k;
        if (at < 64) {
            s.w[0] |= bits << at;
            if (at + 16 > 64) s.w[1] |= bits >> (64 - at);
        } else {
            s.w[1] |= bits << (at - 64);
        }
    }
#endif
#if !defined(__SSE2__) || !defined(NDEBUG)
    /* the plain way (debug builds with SSE2: the same set, or assert) */
    sqset plain = {{0, 0}};
    for (int sq = 0; sq < XQ_SQUARES; sq++)
        if (pos->board[sq] && XQ_COLOR(pos->board[sq]) == c) set_add(&plain, sq);
#ifdef __SSE2__
    assert(plain.w[0] == s.w[0] && plain.w[1] == s.w[1]);
#else
    s = plain;
#endif
#endif
    return s;
}

/* The pieces of colour c as square sets, by what the mate search asks
 * of them (check_ctx_init): all of them, the chariots and cannons, the
 * cannons, the horses, and the pieces that may give check themselves
 * (chariots, cannons, horses, soldiers: kinds 4..7).  One pass over the
 * board as color_set, each set read off the same 16-byte loads. */
typedef struct {
    sqset own, sliders, cannons, horses, active;
} kind_sets;

/* Chunk j of 16 squares (squares 16 j .. 16 j + 15) into the word of
 * each set: chunks 0..3 fill word 0, 4 and 5 word 1 (no chunk straddles). */
static inline void kind_sets_add(kind_sets *k, int j, unsigned own, unsigned sliders, unsigned cannons,
                                 unsigned horses, unsigned active)
{
    int w = j >> 2, shift = 16 * (j & 3);
    k->own.w[w] |= (uint64_t)own << shift;
    k->sliders.w[w] |= (uint64_t)sliders << shift;
    k->cannons.w[w] |= (uint64_t)cannons << shift;
    k->horses.w[w] |= (uint64_t)horses << shift;
    k->active.w[w] |= (uint64_t)active << shift;
}

static inline void kind_sets_of(const xq_position *pos, xq_color c, kind_sets *k)
{
    memset(k, 0, sizeof *k);
#ifdef __SSE2__
    uint8_t b[96] = {0};
    memcpy(b, pos->board, XQ_SQUARES);
    const __m128i lo = _mm_set1_epi8(c == XQ_RED ? 0 : 8), hi = _mm_set1_epi8(c == XQ_RED ? 8 : 16);
    const __m128i seven = _mm_set1_epi8(7), three = _mm_set1_epi8(3);
    const __m128i horse = _mm_set1_epi8(XQ_HORSE), chariot = _mm_set1_epi8(XQ_CHARIOT),
                  cannon = _mm_set1_epi8(XQ_CANNON);
    for (int j = 0; j < 6; j++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(b + 16 * j));
        __m128i in = _mm_and_si128(_mm_cmpgt_epi8(v, lo), _mm_cmplt_epi8(v, hi));
        __m128i kind = _mm_and_si128(v, seven);
        __m128i is_cannon = _mm_cmpeq_epi8(kind, cannon);
        __m128i is_slider = _mm_or_si128(is_cannon, _mm_cmpeq_epi8(kind, chariot));
        unsigned own = (unsigned)_mm_movemask_epi8(in);
        if (!own) continue;
        kind_sets_add(k, j, own, own & (unsigned)_mm_movemask_epi8(is_slider),
                      own & (unsigned)_mm_movemask_epi8(is_cannon),
                      own & (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(kind, horse)),
                      own & (unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(kind, three)));
    }
#endif
#if !defined(__SSE2__) || !defined(NDEBUG)
    /* the plain way (debug builds with SSE2: the same sets, or assert) */
    kind_sets plain;
    memset(&plain, 0, sizeof plain);
    for (int sq = 0; sq < XQ_SQUARES; sq++) {
        xq_piece p = pos->board[sq];
        if (!p || XQ_COLOR(p) != c) continue;
        xq_kind kd = XQ_KIND(p);
        set_add(&plain.own, sq);
        if (kd == XQ_CHARIOT || kd == XQ_CANNON) set_add(&plain.sliders, sq);
        if (kd == XQ_CANNON) set_add(&plain.cannons, sq);
        if (kd == XQ_HORSE) set_add(&plain.horses, sq);
        if (kd >= XQ_HORSE) set_add(&plain.active, sq);
    }
#ifdef __SSE2__
    assert(!memcmp(&plain, k, sizeof plain));
#else
    *k = plain;
#endif
#endif
}

/* Move bit from to bit to in s, when s has from. */
static inline void set_move(sqset *s, int from, int to)
{
    uint64_t bit = (s->w[from >> 6] >> (from & 63)) & 1;
    s->w[from >> 6] &= ~((uint64_t)1 << (from & 63));
    s->w[to >> 6] |= bit << (to & 63);
}

static inline void set_drop(sqset *s, int sq) { s->w[sq >> 6] &= ~((uint64_t)1 << (sq & 63)); }

/* The sets k of one side after its piece on from moved to to (empty, or
 * holding a piece of the other side): what kind_sets_of would find on the
 * board after the move, without reading it. */
static inline void kind_sets_move(kind_sets *k, int from, int to)
{
    set_move(&k->own, from, to);
    set_move(&k->sliders, from, to);
    set_move(&k->cannons, from, to);
    set_move(&k->horses, from, to);
    set_move(&k->active, from, to);
}

/* The sets k after the piece on sq (one of k's, or none) was taken. */
static inline void kind_sets_drop(kind_sets *k, int sq)
{
    set_drop(&k->own, sq);
    set_drop(&k->sliders, sq);
    set_drop(&k->cannons, sq);
    set_drop(&k->horses, sq);
    set_drop(&k->active, sq);
}

#ifndef NDEBUG
/* Are k the sets of the side to move of pos (debug builds: the sets a
 * mate search hands down its recursion)? */
static bool kind_sets_agree(const xq_position *pos, const kind_sets *k)
{
    kind_sets fresh;
    kind_sets_of(pos, pos->side, &fresh);
    return !memcmp(&fresh, k, sizeof fresh);
}
#endif

/* The squares of file f and of rank r as sets (bit sq of word sq >> 6),
 * by the preprocessor (the shift count masked: clang checks it on the
 * branch not taken too, where it is out of range). */
#define FS_BIT(sq, w) \
    ((sq) >= 64 * (w) && (sq) < 64 * (w) + 64 && (sq) < XQ_SQUARES ? 1ull << ((unsigned)((sq) - 64 * (w)) & 63u) : 0ull)
#define FS_FILE_W(f, w)                                                                                      \
    (FS_BIT((f), w) | FS_BIT((f) + 9, w) | FS_BIT((f) + 18, w) | FS_BIT((f) + 27, w) | FS_BIT((f) + 36, w) | \
     FS_BIT((f) + 45, w) | FS_BIT((f) + 54, w) | FS_BIT((f) + 63, w) | FS_BIT((f) + 72, w) | FS_BIT((f) + 81, w))
#define FS_FILE(f) {{FS_FILE_W(f, 0), FS_FILE_W(f, 1)}}
#define FS_RANK_W(r, w)                                                                                      \
    (FS_BIT(9 * (r), w) | FS_BIT(9 * (r) + 1, w) | FS_BIT(9 * (r) + 2, w) | FS_BIT(9 * (r) + 3, w) |         \
     FS_BIT(9 * (r) + 4, w) | FS_BIT(9 * (r) + 5, w) | FS_BIT(9 * (r) + 6, w) | FS_BIT(9 * (r) + 7, w) |     \
     FS_BIT(9 * (r) + 8, w))
#define FS_RANK(r) {{FS_RANK_W(r, 0), FS_RANK_W(r, 1)}}
static const sqset FILE_SET[XQ_FILES] = {FS_FILE(0), FS_FILE(1), FS_FILE(2), FS_FILE(3), FS_FILE(4),
                                         FS_FILE(5), FS_FILE(6), FS_FILE(7), FS_FILE(8)};
static const sqset RANK_SET[XQ_RANKS] = {FS_RANK(0), FS_RANK(1), FS_RANK(2), FS_RANK(3), FS_RANK(4),
                                         FS_RANK(5), FS_RANK(6), FS_RANK(7), FS_RANK(8), FS_RANK(9)};

static inline sqset set_and(sqset a, sqset b)
{
    a.w[0] &= b.w[0];
    a.w[1] &= b.w[1];
    return a;
}

static inline sqset set_or(sqset a, sqset b)
{
    a.w[0] |= b.w[0];
    a.w[1] |= b.w[1];
    return a;
}

/* ---- moves on the board ------------------------------------------------
 * The searches generate their own pseudo-legal moves (the geometry of
 * CXA1999 §2.2, as movegen.c does) and test the mover's general once per
 * move (§3.1, §4.1.2), so that they look only at the moves that matter:
 * the captures, the moves that may give check, and the replies that can
 * answer a check.  Every set they generate is the same as filtering
 * xq_legal_moves (tests/unit/test_repetition_fast.c compares the
 * classifications with those of the plain implementation this replaced). */

#ifndef NDEBUG   /* (the directions of the lines and diagonals; read only by attackers_to_plain) */
static const int8_t ORTH_F[4] = {0, 0, 1, -1}, ORTH_R[4] = {1, -1, 0, 0};
static const int8_t DIAG_F[4] = {1, 1, -1, -1}, DIAG_R[4] = {1, -1, 1, -1};
#endif
static const int8_t HORSE_F[8] = {1, -1, 1, -1, 2, 2, -2, -2}, HORSE_R[8] = {2, 2, -2, -2, 1, -1, 1, -1};
/* For each horse move d: the offset of its leg from the horse. */
static const int8_t HORSE_LEG[8] = {9, 9, -9, -9, 1, 1, -1, -1};

static inline bool on_board(int f, int r) { return (unsigned)f < 9 && (unsigned)r < 10; }

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

/* The squares at most two files and two ranks from each square (itself
 * included): where a general, advisor, elephant, horse or soldier on it
 * can move to. */
#define NB_BIT(s, df, dr, w) (T_AT(s, df, dr) != NO_SQ ? FS_BIT(T_AT(s, df, dr), w) : 0ull)
#define NB_RANK(s, dr, w) \
    (NB_BIT(s, -2, dr, w) | NB_BIT(s, -1, dr, w) | NB_BIT(s, 0, dr, w) | NB_BIT(s, 1, dr, w) | NB_BIT(s, 2, dr, w))
#define NB_W(s, w) (NB_RANK(s, -2, w) | NB_RANK(s, -1, w) | NB_RANK(s, 0, w) | NB_RANK(s, 1, w) | NB_RANK(s, 2, w))
#define NB_ROW(s) {{NB_W(s, 0), NB_W(s, 1)}}
static const sqset NEAR2[XQ_SQUARES] = {T_EACH_SQ(NB_ROW)};

/* Seen from the other general's square s, for a node of the mate search
 * (check_ctx_init, near_attackers), so that the mover's horses and
 * soldiers are sorted by two set operations instead of a test each:
 *  - HORSE_AWAY: the squares a horse's move from s (a horse there checks
 *    s when its leg is empty);
 *  - HORSE_NEAR: within 4 files, 4 ranks and 6 steps of s (a horse there
 *    may reach a square of HORSE_AWAY in one move);
 *  - SOLDIER_NEAR: within 2 steps of s (a soldier there may step next to
 *    s). */
#define HA_W(s, w)                                                                                          \
    (NB_BIT(s, 1, 2, w) | NB_BIT(s, -1, 2, w) | NB_BIT(s, 1, -2, w) | NB_BIT(s, -1, -2, w) | NB_BIT(s, 2, 1, w) | \
     NB_BIT(s, 2, -1, w) | NB_BIT(s, -2, 1, w) | NB_BIT(s, -2, -1, w))
#define HA_ROW(s) {{HA_W(s, 0), HA_W(s, 1)}}
static const sqset HORSE_AWAY[XQ_SQUARES] = {T_EACH_SQ(HA_ROW)};
/* (the files -e .. e of rank offset dr) */
#define NR1(s, dr, w) (NB_BIT(s, -1, dr, w) | NB_BIT(s, 0, dr, w) | NB_BIT(s, 1, dr, w))
#define NR2(s, dr, w) (NB_BIT(s, -2, dr, w) | NR1(s, dr, w) | NB_BIT(s, 2, dr, w))
#define NR3(s, dr, w) (NB_BIT(s, -3, dr, w) | NR2(s, dr, w) | NB_BIT(s, 3, dr, w))
#define NR4(s, dr, w) (NB_BIT(s, -4, dr, w) | NR3(s, dr, w) | NB_BIT(s, 4, dr, w))
#define HN_W(s, w)                                                                                         \
    (NR2(s, -4, w) | NR3(s, -3, w) | NR4(s, -2, w) | NR4(s, -1, w) | NR4(s, 0, w) | NR4(s, 1, w) | NR4(s, 2, w) | \
     NR3(s, 3, w) | NR2(s, 4, w))
#define HN_ROW(s) {{HN_W(s, 0), HN_W(s, 1)}}
static const sqset HORSE_NEAR[XQ_SQUARES] = {T_EACH_SQ(HN_ROW)};
#define SN_W(s, w) (NB_BIT(s, 0, -2, w) | NR1(s, -1, w) | NR2(s, 0, w) | NR1(s, 1, w) | NB_BIT(s, 0, 2, w))
#define SN_ROW(s) {{SN_W(s, 0), SN_W(s, 1)}}
static const sqset SOLDIER_NEAR[XQ_SQUARES] = {T_EACH_SQ(SN_ROW)};

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
    case XQ_GENERAL:
    case XQ_ADVISOR: {
        /* one step, orthogonal or diagonal, within the palace */
        const uint8_t *st = XQ_KIND(p) == XQ_GENERAL ? xq_general_to[c][from] : xq_advisor_to[c][from];
        for (int d = 0; d < 4; d++)
            if (st[d] != NO_SQ) ADD(st[d]);
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

#ifndef NDEBUG
/* attackers_to as it was written before its tables (debug builds check
 * that both list the same squares in the same order).  The squares of
 * the pieces of colour `by` that could move to sq by their
 * geometry alone (as piece_moves: lines, screens, legs, eyes, palace,
 * river), sq being empty or holding a piece of the other colour (a
 * capture: a cannon needs a screen), into from[SQUARE_ATTACKERS]; returns
 * the count.  (A piece of `by` on sq: the captures of it.) */
static int attackers_to_plain(const xq_position *pos, int sq, xq_color by, uint8_t *from)
{
    const xq_piece *b = pos->board;
    int n = line_attackers_to(pos, sq, by, from), sf = xq_file_of[sq], sr = xq_rank_of[sq];
    xq_piece horse = XQ_PIECE(XQ_HORSE, by);
    for (int d = 0; d < 4; d++) {
        /* a horse a horse's move away has its leg next to it, on one of the
         * four squares diagonal to sq (the eye): an empty eye lets the two
         * horse squares beyond it attack */
        int ef = sf + DIAG_F[d], er = sr + DIAG_R[d];
        if (!on_board(ef, er) || b[XQ_SQ(ef, er)]) continue;
        int f = sf + 2 * DIAG_F[d], r = er;
        if (on_board(f, r) && b[XQ_SQ(f, r)] == horse) from[n++] = (uint8_t)XQ_SQ(f, r);
        f = ef, r = sr + 2 * DIAG_R[d];
        if (on_board(f, r) && b[XQ_SQ(f, r)] == horse) from[n++] = (uint8_t)XQ_SQ(f, r);
    }
    n = soldier_attackers_to(b, sq, by, from, n);
    if (xq_in_palace(sf, sr, by)) {
        for (int d = 0; d < 4; d++) {
            int f = sf + ORTH_F[d], r = sr + ORTH_R[d];
            if (on_board(f, r) && b[XQ_SQ(f, r)] == XQ_PIECE(XQ_GENERAL, by)) from[n++] = (uint8_t)XQ_SQ(f, r);
            f = sf + DIAG_F[d], r = sr + DIAG_R[d];
            if (on_board(f, r) && b[XQ_SQ(f, r)] == XQ_PIECE(XQ_ADVISOR, by)) from[n++] = (uint8_t)XQ_SQ(f, r);
        }
    }
    if (xq_own_half(sr, by)) {
        for (int d = 0; d < 4; d++) {
            int f = sf + 2 * DIAG_F[d], r = sr + 2 * DIAG_R[d];
            if (on_board(f, r) && b[XQ_SQ(f, r)] == XQ_PIECE(XQ_ELEPHANT, by) && !b[XQ_SQ(sf + DIAG_F[d], sr + DIAG_R[d])])
                from[n++] = (uint8_t)XQ_SQ(f, r);
        }
    }
    return n;
}

#endif

#ifndef NDEBUG
/* attackers_to against attackers_to_plain (debug builds). */
static bool attackers_agree(const xq_position *pos, int sq, xq_color by, const uint8_t *from, int n)
{
    uint8_t plain[SQUARE_ATTACKERS];
    int k = attackers_to_plain(pos, sq, by, plain);
    return k == n && !memcmp(plain, from, (size_t)n);
}
#endif

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
    assert(attackers_agree(pos, sq, by, from, n));
    return n;
}

/* A copy of pos with side c to move (a "pass" by the other side). */
static xq_position with_side(const xq_position *pos, xq_color c)
{
    xq_position p = *pos;
    if (p.side != c) xq_position_set_side(&p, c);
    return p;
}

/* Squares of the pieces other than the general that attack the general of
 * colour c (those that could move onto its square: lines, screens, legs). */
static sqset checkers_of_color(const xq_position *pos, xq_color c)
{
    sqset s = {{0, 0}};
    int g = pos->general[c];
    if (g >= XQ_SQUARES) return s;
    uint8_t from[SQUARE_ATTACKERS];
    int n = attackers_to(pos, g, (xq_color)(c ^ 1), from);
    for (int i = 0; i < n; i++)
        if (XQ_KIND(pos->board[from[i]]) != XQ_GENERAL) set_add(&s, from[i]);
    return s;
}

/* Squares of the pieces that attack the general of the side to move. */
static sqset checkers_of(const xq_position *pos) { return checkers_of_color(pos, pos->side); }

/* Do the generals face each other on one open file? */
static bool generals_face(const xq_position *pos)
{
    int r = pos->general[XQ_RED], k = pos->general[XQ_BLACK];
    if (r >= XQ_SQUARES || k >= XQ_SQUARES || xq_file_of[r] != xq_file_of[k]) return false;
    int step = r < k ? 9 : -9;
    for (int sq = r + step; sq != k; sq += step)
        if (pos->board[sq]) return false;
    return true;
}

/* capture_allowed's test, on the position after the capture (made with
 * xq_light_make) by side me: exchange_below makes each capture once for
 * the test and the exchange after it. */
static inline bool capture_allowed_made(const xq_position *pos, xq_color me, const sqset *relax)
{
    bool ok = !xq_in_check(pos, me);
    if (!ok && relax && !generals_face(pos)) {
        sqset now = checkers_of_color(pos, me);
        ok = set_empty_of(set_minus(now, *relax));
    }
    return ok;
}

/* May the side to move make the pseudo-legal capture from -> to?  Legal,
 * or with `relax` (the check standing on the board answered by a fictional
 * pass) leaving its general attacked only by the pieces in *relax and not
 * facing the other general. */
static bool capture_allowed(xq_position *pos, int from, int to, const sqset *relax)
{
    xq_color me = pos->side;
    xq_piece cap = xq_light_make(pos, from, to);
    bool ok = capture_allowed_made(pos, me, relax);
    xq_light_unmake(pos, from, to, cap);
    return ok;
}

/* Can the piece on `from` (of the side to move) capture on `to` by its
 * geometry? */
static bool can_reach(const xq_position *pos, int from, int to)
{
    xq_move moves[PIECE_MOVES];
    int n = piece_moves(pos, from, true, moves, 0);
    for (int i = 0; i < n; i++)
        if (XQ_TO(moves[i]) == to) return true;
    return false;
}

/* Is there a capture on sq the side to move may make (as capture_allowed)? */
static bool can_take(xq_position *pos, int sq, const sqset *relax)
{
    xq_piece v = pos->board[sq];
    if (!v || XQ_COLOR(v) == pos->side) return false;
    uint8_t from[SQUARE_ATTACKERS];
    int n = attackers_to(pos, sq, pos->side, from);
    for (int i = 0; i < n; i++)
        if (capture_allowed(pos, from[i], sq, relax)) return true;
    return false;
}

/* Is the most the side to move can gain by capturing on sq and letting
 * the exchange there run its course, each side free to stop (>= 0), less
 * than limit?  Legal moves only: a pinned or "false" protector does not
 * recapture (§28.16); `relax` (first capture only) as in
 * capture_allowed; at most EXCHANGE_DEPTH captures (the gain past them
 * counts as 0).  The gain is the largest of 0 and, for each legal
 * capture, the value of the piece taken less the other side's gain on
 * the square after it; every such term is at most that value.  So the
 * answer is yes at once when limit exceeds that value, no when limit <= 0,
 * and else yes exactly when no capture's term reaches limit, that is when
 * after each capture the other side's gain is not below value - limit + 1
 * (a bounded search, null-window: it stops at the first capture that
 * decides, and asks each exchange after a capture only about one bound,
 * where the full gain would weigh every capture at every step).  The
 * callers read only whether the gain is below a bound (the chase rules:
 * does the exchange win material, §29.1; the 獻 offer: any gain at all). */
static bool exchange_below(xq_position *pos, int sq, int depth, const sqset *relax, int limit)
{
    if (limit <= 0) return false;
    xq_piece v = pos->board[sq];
    if (depth >= EXCHANGE_DEPTH || !v || XQ_COLOR(v) == pos->side) return true;   /* (a gain of 0) */
    int value = value_of(v, sq);
    if (limit > value) return true;
    uint8_t from[SQUARE_ATTACKERS];
    int n = attackers_to(pos, sq, pos->side, from);
    xq_color me = pos->side;
    for (int i = 0; i < n; i++) {
        /* (one make for the legality test and the exchange after it) */
        xq_piece cap = xq_light_make(pos, from[i], sq);
        bool reaches = capture_allowed_made(pos, me, relax) && exchange_below(pos, sq, depth + 1, NULL, value - limit + 1);
        xq_light_unmake(pos, from[i], sq, cap);
        if (reaches) return false;
    }
    return true;
}

/* ---- mate by checks (§28.2, §29.4) ---------------------------------------- */

/* Where checks can come from, for the side to move against the other
 * general: computed once per node of the mate search from the sets of
 * the mover's pieces (kind_sets: one pass over the board, no test per
 * piece), which the node then walks in ascending square order, the
 * order of the moves tried. */
typedef struct {
    int king, kf, kr;              /* the general to check, its file and rank */
    bool slider_file, slider_rank; /* an own chariot or cannon on its file / rank */
    bool cannon_file, cannon_rank; /* an own cannon there (a new screen may check) */
    sqset legs;                    /* legs of own horses a horse's move from it */
    sqset screen_to;               /* where a piece landing may become the screen of an own
                                      cannon's check (check_ctx_screens) */
    sqset own;                     /* the mover's pieces */
    sqset active;                  /* its chariots, cannons, horses and soldiers */
    sqset sliders, horses;         /* its chariots and cannons; its horses */
    sqset uncovers;                /* its pieces whose move may uncover a check: on the
                                      general's file (rank) when an own chariot or cannon
                                      is there too, or on a leg of legs */
} check_ctx;

#ifndef NDEBUG
/* check_ctx_init's legs against the test of every horse (debug builds). */
static bool legs_agree(const kind_sets *k, const check_ctx *c)
{
    sqset legs = {{0, 0}};
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = k->horses.w[w]; bits; bits &= bits - 1) {
            int sq = w * 64 + __builtin_ctzll(bits), f = xq_file_of[sq], r = xq_rank_of[sq];
            int df = c->kf - f, dr = c->kr - r;
            if ((abs(df) == 1 && abs(dr) == 2) || (abs(df) == 2 && abs(dr) == 1))
                set_add(&legs, XQ_SQ(f + (abs(df) == 2 ? df / 2 : 0), r + (abs(dr) == 2 ? dr / 2 : 0)));
        }
    return !memcmp(&legs, &c->legs, sizeof legs);
}
#endif

/* The context of a node whose mover (the side to move) has the pieces
 * k (kind_sets_of); false when the other side has no general. */
static bool check_ctx_init(const xq_position *pos, const kind_sets *k, check_ctx *c)
{
    xq_color me = pos->side;
    c->king = pos->general[me ^ 1];
    if (c->king >= XQ_SQUARES) {
        /* (no screens then: what check_ctx_screens reads is set on every
         * path, which gcc's profiling build cannot otherwise see) */
        c->cannon_file = c->cannon_rank = false;
        return false;
    }
    c->kf = xq_file_of[c->king];
    c->kr = xq_rank_of[c->king];
    c->legs.w[0] = c->legs.w[1] = 0;
    c->own = k->own;
    c->active = k->active;
    c->sliders = k->sliders;
    c->horses = k->horses;
    sqset file = FILE_SET[c->kf], rank = RANK_SET[c->kr];
    c->slider_file = !set_empty_of(set_and(k->sliders, file));
    c->slider_rank = !set_empty_of(set_and(k->sliders, rank));
    c->cannon_file = !set_empty_of(set_and(k->cannons, file));
    c->cannon_rank = !set_empty_of(set_and(k->cannons, rank));
    /* the legs of the horses a horse's move from the general (at most two) */
    sqset away = set_and(k->horses, HORSE_AWAY[c->king]);
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = away.w[w]; bits; bits &= bits - 1) {
            int sq = w * 64 + __builtin_ctzll(bits), f = xq_file_of[sq], r = xq_rank_of[sq];
            int df = c->kf - f, dr = c->kr - r;
            set_add(&c->legs, XQ_SQ(f + (abs(df) == 2 ? df / 2 : 0), r + (abs(dr) == 2 ? dr / 2 : 0)));
        }
    assert(legs_agree(k, c));
    sqset lines = {{0, 0}};
    if (c->slider_file) lines = file;
    if (c->slider_rank) lines = set_or(lines, rank);
    c->uncovers = set_and(c->own, set_or(lines, c->legs));
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
    if (!c->cannon_file && !c->cannon_rank) return;
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
static inline bool line_checks(const xq_piece *b, unsigned occ, int k, bool up, int t, int sq0, int step,
                               xq_piece p, xq_color me)
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
 * every move that leaves that line, so it is read on the masks once).
 * Always inline: in the loop over one piece's moves (piece_mates, about
 * 200,000 calls on masters.pgn) what it reads of the moved piece is
 * then read once for all of them. */
__attribute__((always_inline)) static inline bool quiet_move_checks(const xq_position *pos, const check_ctx *c,
                                                                    int from, int to, int8_t *uncovered)
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

/* Does a chariot or cannon (cannon) of colour me that lands on index at
 * of the other general's file or rank give check there, the general
 * standing on index k of that line, whose occupancy is occ (square sq0 +
 * step * i is index i; the mover comes from off the line, so only its
 * landing changes the line: it attacks over no piece as a chariot, over
 * one as a cannon, or it becomes the only screen of an own cannon right
 * behind it)?  What quiet_move_checks finds for such a move, read here
 * on the line the move is generated on. */
static inline bool crossing_checks(const xq_piece *b, unsigned occ, int at, int k, int sq0, int step, bool cannon,
                                   xq_color me)
{
    occ &= ~(1u << at);   /* (what stood on the landing square is taken) */
    int lo = at < k ? at : k, hi = at < k ? k : at;
    unsigned between = occ & ((1u << hi) - 1) & ~((2u << lo) - 1);
    if (between) return cannon && !(between & (between - 1));
    if (!cannon) return true;
    unsigned beyond = at < k ? occ & ((1u << at) - 1) : occ & (~1u << at);
    if (!beyond) return false;
    int i = at < k ? 31 - __builtin_clz(beyond) : __builtin_ctz(beyond);
    return b[sq0 + step * i] == XQ_PIECE(XQ_CANNON, me);
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
 * without generating the ~17 others; gives[i] says whether move i gives
 * check (crossing_checks, read on the general's line; the other general
 * not attacked before: quiet). */
static int slider_check_moves(const xq_position *pos, const check_ctx *c, int from, xq_move *moves, int8_t *gives)
{
    const xq_piece *b = pos->board;
    bool cannon = XQ_KIND(b[from]) == XQ_CANNON;
    xq_color me = XQ_COLOR(b[from]);
    int ff = xq_file_of[from], fr = xq_rank_of[from];
    int n = crossing_move(b, pos->file_occ[ff], fr, c->kr, XQ_SQ(ff, c->kr), cannon, from, moves, 0);
    if (n) gives[0] = crossing_checks(b, pos->rank_occ[c->kr], ff, c->kf, c->kr * 9, 1, cannon, me);
    int m = crossing_move(b, pos->rank_occ[fr], ff, c->kf, XQ_SQ(c->kf, fr), cannon, from, moves, n);
    if (m > n) gives[n] = crossing_checks(b, pos->file_occ[c->kf], fr, c->kr, c->kf, 9, cannon, me);
    return m;
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
 * leg that its move may open (then every move may check).  gives[i]
 * (room for PIECE_MOVES): whether move i gives check when known here (a
 * chariot's or cannon's move onto the general's lines,
 * slider_check_moves), else -1. */
static int check_candidates(const xq_position *pos, const check_ctx *c, int sq, bool uncovers, xq_move *moves,
                            int8_t *gives)
{
    xq_kind k = XQ_KIND(pos->board[sq]);
    if (!uncovers && (k == XQ_CHARIOT || k == XQ_CANNON)) return slider_check_moves(pos, c, sq, moves, gives);
    /* the other pieces move at most two files and two ranks: with no
     * square of screen_to that near, only their own attacks may check
     * (a general, advisor or elephant has none) */
    bool screens = !set_empty_of(set_and(c->screen_to, NEAR2[sq]));
    if (!uncovers && !screens && k != XQ_HORSE && k != XQ_SOLDIER) return 0;
    /* a soldier checks from next to the general, one step from where it
     * stands; else only as a new screen */
    int df = abs(xq_file_of[sq] - c->kf), dr = abs(xq_rank_of[sq] - c->kr);
    if (!uncovers && k == XQ_SOLDIER && !screens && df + dr > 2) return 0;
    /* a horse checks from a horse's move from the general, one horse's
     * move from where it stands: two such moves make at most 4 files or
     * ranks and 6 steps in all */
    int n;
    if (!uncovers && k == XQ_HORSE && !screens) {
        n = df > 4 || dr > 4 || df + dr > 6 ? 0 : horse_check_moves(pos, c, sq, moves);
    } else if (uncovers) {
        n = piece_moves(pos, sq, false, moves, 0);   /* (every move may uncover a check) */
    } else {
        xq_move buf[PIECE_MOVES];
        int all = piece_moves(pos, sq, false, buf, 0);
        n = 0;
        for (int i = 0; i < all; i++)
            if (may_check(pos, c, buf[i])) moves[n++] = buf[i];
    }
    memset(gives, -1, PIECE_MOVES);   /* (all of them: a fixed size, stored inline) */
    return n;
}

#ifndef NDEBUG
/* No check left out (debug builds): every pseudo-legal move of the piece
 * on sq that is not among the candidates moves[0..n) gives no legal check
 * when played, the other general not being attacked before (quiet). */
static bool no_check_missed(const xq_position *pos, int sq, const xq_move *moves, int n)
{
    xq_move buf[PIECE_MOVES];
    int k = piece_moves(pos, sq, false, buf, 0);
    for (int i = 0; i < k; i++) {
        bool listed = false;
        for (int j = 0; j < n && !listed; j++) listed = moves[j] == buf[i];
        if (listed) continue;
        xq_position p = *pos;
        xq_undo u;
        xq_make(&p, buf[i], &u);
        if (!xq_in_check(&p, pos->side) && xq_in_check(&p, (xq_color)(pos->side ^ 1))) return false;
    }
    return true;
}

/* check_candidates against piece_moves filtered by may_check (debug
 * builds): the same moves in the same order, so the budget is spent the
 * same way. */
static bool candidates_agree(const xq_position *pos, const check_ctx *c, int sq, const xq_move *moves, int n)
{
    xq_move buf[PIECE_MOVES];
    int k = piece_moves(pos, sq, false, buf, 0), m = 0;
    for (int i = 0; i < k; i++)
        if (may_check(pos, c, buf[i]) && (m >= n || moves[m++] != buf[i])) return false;
    return m == n;
}
#endif

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

struct xq_mate_table {
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
static void mate_table_clear(xq_mate_table *t)
{
    if (t) memset(t->used, 0, sizeof t->used);
}

xq_mate_table *xq_mate_table_new(void) { return calloc(1, sizeof(xq_mate_table)); }

void xq_mate_table_free(xq_mate_table *t) { free(t); }

/* The slot of key. */
static inline unsigned mate_index(uint64_t key) { return (unsigned)(key >> (64 - MATE_TABLE_BITS)); }

/* Was slot i written since the table was emptied? */
static inline bool mate_used(const xq_mate_table *t, unsigned i) { return (t->used[i / 64] >> (i % 64)) & 1; }

/* Ask the cache for the slot of key (tt NULL: nothing), ahead of its
 * lookup: the table is cold when a classification starts (the replay's
 * work since the last one has evicted it), and a search reads a slot at
 * random at each of its nodes. */
static inline void mate_prefetch(const xq_mate_table *t, uint64_t key)
{
    if (!t) return;
    const char *e = (const char *)&t->slot[mate_index(key)];
    __builtin_prefetch(e);
    __builtin_prefetch(e + sizeof(mate_entry) - 1);
}

/* The known answer for pos at depth: 1 (mate), 0 (no mate), -1 (unknown). */
static int mate_lookup(xq_mate_table *t, const xq_position *pos, int depth)
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
static void mate_store(xq_mate_table *t, const xq_position *pos, int depth, bool mate)
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

static bool mate_by_checks(xq_position *pos, int depth, int *budget, bool quiet, xq_mate_table *tt,
                           const kind_sets *mine);

/* What to do with each legal reply to a check (for_each_reply): with
 * depth < 3 only whether one exists; else whether the mover, after it,
 * can no longer mate by checks within depth - 2 plies. */
typedef struct {
    int depth;
    int *budget;
    xq_mate_table *tt;
    int checker;              /* where the checking move landed: its captures come first */
    const kind_sets *mover;   /* the mover's pieces after its check (depth >= 3): the next
                                 node's, unless the reply takes one of them */
} reply_visit;

#ifndef NDEBUG
/* Is the pseudo-legal move from -> to by the side to move legal, tested
 * by playing it (debug builds: visit_reply's test of a general's step and
 * piece_mates' test of a check before it is made agree)? */
static bool move_safe_played(const xq_position *pos, int from, int to)
{
    xq_position p = *pos;
    xq_piece cap = xq_light_make(&p, from, to);
    (void)cap;
    return !xq_in_check(&p, pos->side);
}
#endif

/* Play the pseudo-legal reply from -> to and, when it is legal (its
 * general neither attacked nor facing the other after it, §3.1, §4.1.2),
 * look at it as v says; true when it stops the walk (a legal reply, or
 * one after which the mover cannot mate).  The legality test and the
 * search share one xq_light_make (the position is changed only through
 * xq_light_make / xq_light_unmake, which keep its derived fields). */
static bool visit_reply(xq_position *pos, int from, int to, const reply_visit *v)
{
    xq_color me = pos->side;
    bool general = from == pos->general[me];
    if (general) {
        /* a step of the general (most replies): whether its new square is
         * attacked is read on the board as it is (xq_move_safe), so the
         * move is made only when it is legal and a search follows */
        bool safe = xq_move_safe(pos, from, to);
        assert(safe == move_safe_played(pos, from, to));
        if (!safe || v->depth < 3) return safe;
    }
    uint64_t key = pos->key, after = 0;
    xq_piece cap = xq_light_make(pos, from, to);
    /* (the search after the reply reads its key, and its slot of the
     * table: asked for while the legality is tested) */
    if (v->depth >= 3) {
        after = xq_light_key(pos, key, from, to, cap);
        mate_prefetch(v->tt, after);
    }
    bool stop = general || !xq_in_check(pos, me);
    /* (a legal reply leaves its general unattacked: quiet) */
    if (stop && v->depth >= 3) {
        pos->key = after;
        /* (the mover's pieces handed down: the ones after its check, but
         * the one the reply took) */
        kind_sets left;
        const kind_sets *mine = v->mover;
        if (cap) {
            left = *v->mover;
            kind_sets_drop(&left, to);
            mine = &left;
        }
        stop = !mate_by_checks(pos, v->depth - 2, v->budget, true, v->tt, mine);
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

#ifndef NDEBUG
/* for_each_reply's steps of the general on g are piece_moves' (debug
 * builds): the same targets in the same order. */
static bool general_steps_agree(const xq_position *pos, int g)
{
    xq_move buf[PIECE_MOVES];
    int k = piece_moves(pos, g, false, buf, 0), m = 0;
    const uint8_t *step = xq_general_to[pos->side][g];
    for (int d = 0; d < 4; d++) {
        int t = step[d];
        if (t == NO_SQ || (pos->board[t] && XQ_COLOR(pos->board[t]) == pos->side)) continue;
        if (m >= k || XQ_TO(buf[m++]) != t) return false;
    }
    return m == k;
}
#endif

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
    /* the general's steps, as piece_moves lists them (its palace table,
     * onto an empty square or a piece of the other side) */
    const uint8_t *step = xq_general_to[me][g];
    for (int d = 0; d < 4; d++) {
        int t = step[d];
        if (t == NO_SQ || t == taken || (pos->board[t] && XQ_COLOR(pos->board[t]) == me)) continue;
        if (visit_reply(pos, g, t, v)) return true;
    }
    assert(general_steps_agree(pos, g));
    xq_move buf[PIECE_MOVES];
    int k;
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

/* After the mover's check (its piece moved from `from` to `checker`; its
 * pieces before the move: mine), the first ply of a mate by checks within
 * depth plies: is the defender (to move) mated whatever it replies?  A
 * defender without a legal move is mated (§3.1).  The replies are tried
 * in the order of for_each_reply and the first one that escapes ends the
 * test. */
static bool all_replies_mated(xq_position *pos, int depth, int *budget, xq_mate_table *tt, int from, int checker,
                              const kind_sets *mine)
{
    kind_sets after;
    if (depth >= 3) {
        after = *mine;
        kind_sets_move(&after, from, checker);
    }
    reply_visit v = {depth, budget, tt, checker, &after};
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
#ifndef NDEBUG
/* Both generals in their palaces (debug builds).  The cross-checks of the
 * search's check tests (no_check_missed, check_test_agrees) hold only
 * then: the search moves a general within its palace, as the rules do,
 * while a general a FEN put outside it (an impossible position, which the
 * replay warns of and still replays) attacks as the attack tests read the
 * board.  On such a board the search still gives an answer, the same in
 * every build, but not one the rules define. */
static bool generals_in_palace(const xq_position *pos)
{
    for (int c = 0; c < 2; c++) {
        int g = pos->general[c];
        if (g >= XQ_SQUARES || !xq_in_palace(xq_file_of[g], xq_rank_of[g], (xq_color)c)) return false;
    }
    return true;
}

/* quiet_move_checks against the move played (debug builds): the same
 * answer, unless the move leaves the mover's own general attacked. */
static bool check_test_agrees(xq_position *pos, xq_move m, bool checks)
{
    xq_color me = pos->side;
    xq_undo u;
    xq_make(pos, m, &u);
    bool agree = xq_in_check(pos, me) || xq_in_check(pos, (xq_color)(me ^ 1)) == checks;
    xq_unmake(pos, m, &u);
    return agree;
}
#endif

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

static bool mate_by_checks_search(xq_position *pos, int depth, int *budget, bool quiet, xq_mate_table *tt,
                                  const kind_sets *mine);

#ifndef NDEBUG
/* The Zobrist key of pos computed afresh equals pos->key (debug builds:
 * the keys the search keeps with xq_light_key, which the table reads). */
static bool key_agrees(const xq_position *pos)
{
    uint64_t k = pos->side == XQ_BLACK ? XQ_ZOBRIST_BLACK : 0;
    for (int sq = 0; sq < XQ_SQUARES; sq++)
        if (pos->board[sq]) k ^= xq_zobrist_table[pos->board[sq] & 15][sq];
    return k == pos->key;
}
#endif

/* mate_by_checks_search, answered from the table tt when it knows (tt
 * NULL: none), and its complete answers kept there.  mine: the pieces of
 * the side to move (kind_sets_of), known to the caller, or NULL. */
static bool mate_by_checks(xq_position *pos, int depth, int *budget, bool quiet, xq_mate_table *tt,
                           const kind_sets *mine)
{
    assert(!tt || key_agrees(pos));
    int known = mate_lookup(tt, pos, depth);
    if (known >= 0) return known;
    bool mate = mate_by_checks_search(pos, depth, budget, quiet, tt, mine);
    if (*budget >= 0) mate_store(tt, pos, depth, mate);
    return mate;
}

/* What a node of mate_by_checks_search knows while it tries the checks
 * of its pieces one after the other. */
typedef struct {
    check_ctx c;
    const kind_sets *k; /* the mover's pieces */
    int depth, *budget;
    bool quiet;
    xq_mate_table *tt;
    int own;            /* the mover's general (XQ_SQUARES or more: none) */
    int own_attacked;   /* whether it is attacked now: -1 until a check first needs it */
} mate_node;

/* Does the mover's piece on sq, standing on the other general's file
 * with an own chariot or cannon there (or on its rank with one there),
 * open a check by leaving that line?  What quiet_move_checks reads for
 * such a move (the first piece met from the general on that side an own
 * chariot, or the second an own cannon, once sq is empty), read once for
 * the piece. */
static inline bool leaving_opens(const xq_position *pos, const check_ctx *c, int sq)
{
    const xq_piece *b = pos->board;
    int f = xq_file_of[sq], r = xq_rank_of[sq];
    xq_color me = pos->side;
    if (f == c->kf && c->slider_file &&
        line_checks(b, pos->file_occ[f] & ~(1u << r), c->kr, r > c->kr, -1, f, 9, XQ_NONE, me))
        return true;
    return r == c->kr && c->slider_rank &&
           line_checks(b, pos->rank_occ[r] & ~(1u << f), c->kf, f > c->kf, -1, r * 9, 1, XQ_NONE, me);
}

/* Try the moves of the mover's piece on sq that may give check (in the
 * order of check_candidates, each one counted against the budget): 1 when
 * one of them is a legal check after which every reply is mated, -1 when
 * the budget ran out, else 0. */
static int piece_mates(xq_position *pos, mate_node *nd, int sq)
{
    const check_ctx *c = &nd->c;
    xq_color me = pos->side, them = (xq_color)(me ^ 1);
    xq_kind k = XQ_KIND(pos->board[sq]);
    bool uncovers = set_has(&c->uncovers, sq), quiet = nd->quiet;
    xq_move buf[PIECE_MOVES];
    int8_t gives[PIECE_MOVES];
    int n = check_candidates(pos, c, sq, uncovers, buf, gives);
    assert(candidates_agree(pos, c, sq, buf, n));
    assert(!quiet || !generals_in_palace(pos) || no_check_missed(pos, sq, buf, n));
    int8_t uncovered = -1;   /* (quiet_move_checks' cache for this piece) */
    /* a piece listed for the line it stands on, whose leaving it opens no
     * check: its moves that land off the general's file and rank give
     * none (a horse's may: it attacks off the lines) */
    bool off_lines_quiet = quiet && uncovers && k != XQ_HORSE && !set_has(&c->legs, sq) && !leaving_opens(pos, c, sq);
    for (int i = 0; i < n; i++) {
        if (--*nd->budget < 0) return -1;
        int to = XQ_TO(buf[i]);
        bool checks = !quiet || (gives[i] >= 0 ? gives[i] > 0
                                 : off_lines_quiet && xq_file_of[to] != c->kf && xq_rank_of[to] != c->kr
                                     ? false
                                     : quiet_move_checks(pos, c, sq, to, &uncovered));
        assert(!quiet || checks == quiet_move_checks(pos, c, sq, to, &uncovered));
        assert(!quiet || !generals_in_palace(pos) || check_test_agrees(pos, buf[i], checks));
        if (!checks) continue;
        /* legal without playing it, its own general not attacked now: a
         * move of another piece that cannot touch that general's lines or
         * legs; in a quiet node (the move a check) any move of another
         * piece, by the own-general test on the board as it is
         * (xq_quiet_move_safe).  Else (-1) tested once the move is made. */
        int legal = -1;
        if (nd->own < XQ_SQUARES && k != XQ_GENERAL) {
            bool touches = touches_general(nd->own, sq, to);
            if ((quiet || !touches) && nd->own_attacked < 0) nd->own_attacked = xq_in_check(pos, me);
            if (!nd->own_attacked && (quiet || !touches)) legal = !touches || xq_quiet_move_safe(pos, sq, to);
        }
        assert(legal < 0 || legal == move_safe_played(pos, sq, to));
        if (!legal) continue;   /* (an illegal check: no search, no budget spent) */
        uint64_t key = pos->key;
        xq_piece cap = xq_light_make(pos, sq, to);
        /* (the searches after the replies read the key) */
        if (nd->depth >= 3) pos->key = xq_light_key(pos, key, sq, to, cap);
        /* a check (the cheaper test first), by a legal move */
        bool mate = (quiet || xq_in_check(pos, them)) && (legal > 0 || !xq_in_check(pos, me)) &&
                    all_replies_mated(pos, nd->depth, nd->budget, nd->tt, sq, to, nd->k);
        pos->key = key;
        xq_light_unmake(pos, sq, to, cap);
        if (mate) return 1;
        if (*nd->budget < 0) return -1;
    }
    return 0;
}

#ifndef NDEBUG
/* near_attackers by a test of each horse and soldier (debug builds). */
static sqset near_attackers_plain(const check_ctx *c)
{
    sqset near = {{0, 0}}, short_range = set_minus(c->active, c->sliders);
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = short_range.w[w]; bits; bits &= bits - 1) {
            int sq = w * 64 + __builtin_ctzll(bits);
            int df = abs(xq_file_of[sq] - c->kf), dr = abs(xq_rank_of[sq] - c->kr);
            if (set_has(&c->horses, sq) ? df <= 4 && dr <= 4 && df + dr <= 6 : df + dr <= 2) set_add(&near, sq);
        }
    return near;
}
#endif

/* The mover's horses and soldiers that may check the general themselves
 * (check_candidates' tests, for pieces that uncover nothing, with no new
 * screen possible): a horse within 4 files, 4 ranks and 6 steps of it
 * (two horse's moves: HORSE_NEAR), a soldier within 2 steps (one step,
 * then next to it: SOLDIER_NEAR).  The others have no candidate move
 * then: found here by two set operations on the general's rows of those
 * tables (no test per piece, no branch a piece's place decides), instead
 * of by a call for each. */
static inline sqset near_attackers(const check_ctx *c)
{
    /* (active less the sliders: the horses and soldiers) */
    sqset soldiers = set_minus(set_minus(c->active, c->sliders), c->horses);
    sqset near = set_or(set_and(c->horses, HORSE_NEAR[c->king]), set_and(soldiers, SOLDIER_NEAR[c->king]));
#ifndef NDEBUG
    sqset plain = near_attackers_plain(c);
    assert(!memcmp(&plain, &near, sizeof near));
#endif
    return near;
}

static bool mate_by_checks_search(xq_position *pos, int depth, int *budget, bool quiet, xq_mate_table *tt,
                                  const kind_sets *mine)
{
    mate_node nd;
    if (pos->general[pos->side ^ 1] >= XQ_SQUARES) return false;   /* (no general to check) */
    /* the mover's pieces: handed down by the search, else found */
    kind_sets own;
    if (!mine) {
        kind_sets_of(pos, pos->side, &own);
        mine = &own;
    }
    assert(kind_sets_agree(pos, mine));
    nd.k = mine;
    check_ctx_init(pos, mine, &nd.c);
    nd.depth = depth;
    nd.budget = budget;
    nd.tt = tt;
    nd.own_attacked = -1;
    nd.own = pos->general[pos->side];
    /* the other general not attacked now: a move is a check when
     * quiet_move_checks says so, without playing it */
    nd.quiet = quiet || !xq_in_check(pos, (xq_color)(pos->side ^ 1));
    check_ctx_screens(pos, &nd.c, nd.quiet);
    /* the pieces that may give check: every one when a new screen may
     * check; else the chariots and cannons, the horses and soldiers near
     * enough to the general to check it themselves, and the pieces that
     * may uncover a line or a leg (the others have no candidate move:
     * check_candidates lists none, so leaving them out spends no budget
     * differently) */
    sqset movers = set_empty(&nd.c.screen_to) ? set_or(set_or(nd.c.sliders, nd.c.uncovers), near_attackers(&nd.c))
                                              : nd.c.own;
#ifndef NDEBUG
    sqset idle = set_minus(nd.c.own, movers);
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = idle.w[w]; bits; bits &= bits - 1) {
            int sq = w * 64 + __builtin_ctzll(bits);
            xq_move buf[PIECE_MOVES];
            int8_t gives[PIECE_MOVES];
            assert(check_candidates(pos, &nd.c, sq, set_has(&nd.c.uncovers, sq), buf, gives) == 0);
            assert(!nd.quiet || !generals_in_palace(pos) || no_check_missed(pos, sq, NULL, 0));
        }
#endif
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = movers.w[w]; bits; bits &= bits - 1) {
            int r = piece_mates(pos, &nd, w * 64 + __builtin_ctzll(bits));
            if (r) return r > 0;
        }
    return false;
}

/* Mate by checks for the side to move within max_depth plies, searched
 * at once (a deeper search finds every shorter mate too, and iterating
 * deeper searches would double the work).  quiet: the caller knows that
 * the other general is not attacked (as mate_by_checks; the search would
 * find the same, with one more test). */
static bool has_mate_by_checks(const xq_position *pos, int max_depth, int budget, bool quiet, xq_mate_table *tt)
{
    xq_position p = *pos;
    int left = budget;
    bool mate = mate_by_checks(&p, max_depth, &left, quiet, tt, NULL);
    /* A search cut short by its budget has spent it on the deep lines it
     * tried first and may have missed a shorter mate: then search each
     * shorter depth with a budget of its own, deepest first, until one
     * finds a mate or runs to its end (a complete "no" at depth d is one
     * for every shorter depth too).  Never needed on the corpus; a case
     * built to need it is in test_mate_table.c. */
    for (int d = max_depth - 2; !mate && left < 0 && d >= 1; d -= 2) {
        p = *pos;
        left = budget;
        mate = mate_by_checks(&p, d, &left, quiet, tt, NULL);
    }
    return mate;
}

bool xq_mate_search(const xq_position *pos, int depth, int budget, bool quiet, xq_mate_table *mates, int *left)
{
    mate_table_clear(mates);
    xq_position p = *pos;
    *left = budget;
    return mate_by_checks(&p, depth, left, quiet, mates, NULL);
}

/* ---- who can take what ------------------------------------------------- */

/* What a capture by side s (s to move) would mean for the chase rules. */
typedef enum {
    CAP_PIECE = 0,   /* wins material, by a piece other than general and soldier */
    CAP_SOLDIER,     /* wins material, by a soldier (idle alone, §27.2) */
    CAP_GENERAL,     /* wins material, by the general (idle alone, §27.1) */
    CAP_MATED,       /* wins material, but the mover is then mated (§29.4) */
    CAP_FOLLOW,      /* wins nothing: the victim is protected (跟, §28.8) */
    CAP_EXCHANGE,    /* equal pieces attacking each other (兌, §28.5) */
    CAP_PINNER       /* the attacker cannot move but to take the victim (AXF rule 19) */
} cap_kind;

typedef struct {
    uint8_t from, to, kind;
} cap_pair;

/* Every capture of a piece of value side s could make (s to move). */
typedef struct {
    int n;
    cap_pair pair[XQ_MAX_MOVES];
} capture_scan;

/* What weighing the captures of side s in a position needs: the position
 * with s to move and with the other side to move, and the checks on the
 * board, either way, which a fictional pass answers.  The other side's
 * position and checks are made when first needed (ctx_them,
 * ctx_relax_theirs): many scans weigh no capture, and only a capture
 * between equal pieces asks for `them`. */
typedef struct {
    xq_position pos, them;
    sqset mine, theirs;
    const sqset *relax_mine, *relax_theirs;   /* NULL, or &mine / &theirs */
    bool them_made, theirs_made;              /* them / theirs and relax_theirs made */
    xq_color s;
    bool in_check;                            /* s's general attacked in pos */
    xq_rules rules;
    xq_mate_table *tt;                        /* for the mate searches, or NULL */
} capture_ctx;

static void capture_ctx_init(capture_ctx *x, const xq_position *in, xq_color s, xq_rules rules, xq_mate_table *tt)
{
    sqset none = {{0, 0}};
    x->tt = tt;
    x->s = s;
    x->rules = rules;
    x->pos = with_side(in, s);
    x->them_made = x->theirs_made = false;
    x->in_check = xq_in_check(&x->pos, s);
    x->mine = x->in_check ? checkers_of(&x->pos) : none;
    x->relax_mine = set_empty(&x->mine) ? NULL : &x->mine;
}

/* The position with the other side to move (made once). */
static xq_position *ctx_them(capture_ctx *x)
{
    if (!x->them_made) {
        x->them = with_side(&x->pos, (xq_color)(x->s ^ 1));
        x->them_made = true;
    }
    return &x->them;
}

/* The checks on the other side's general that a fictional pass answers
 * when it takes back, or NULL for none (made once, on the board of pos:
 * the same as on `them`, which differs only in the side to move). */
static const sqset *ctx_relax_theirs(capture_ctx *x)
{
    if (!x->theirs_made) {
        sqset none = {{0, 0}};
        xq_color o = (xq_color)(x->s ^ 1);
        x->theirs = xq_in_check(&x->pos, o) ? checkers_of_color(&x->pos, o) : none;
        x->relax_theirs = set_empty(&x->theirs) ? NULL : &x->theirs;
        x->theirs_made = true;
    }
    return x->relax_theirs;
}

/* What the capture from -> to by side x->s means (x->pos is left as it
 * was); x->relax_mine / ctx_relax_theirs the checks answered by a
 * fictional pass. */
static cap_kind capture_kind(capture_ctx *x, int from, int to)
{
    xq_position *pos = &x->pos;
    const sqset *relax_mine = x->relax_mine, *relax_theirs = ctx_relax_theirs(x);
    xq_piece a = pos->board[from], v = pos->board[to];
    int va = value_of(a, from), vv = value_of(v, to);
    /* equal pieces that may take each other: the other side may take
     * first, an offer to exchange */
    if (va == vv && can_reach(ctx_them(x), to, from) && capture_allowed(ctx_them(x), to, from, relax_theirs))
        return CAP_EXCHANGE;
    uint64_t key = pos->key;
    xq_piece cap = xq_light_make(pos, from, to);
    pos->key = xq_light_key(pos, key, from, to, cap);   /* (for the mate search's table) */
    int gain;
    if (x->rules == XQ_RULES_AXF) {
        /* AXF: a piece is protected when it can be taken back at all; a
         * protected piece is chased only by a lesser one */
        gain = can_take(pos, to, relax_theirs) ? vv - va : vv;
    } else {
        /* CXA1999 §29.1, ch.7 item 3: the complete exchange wins material
         * (a false or insufficient root counts as none, §28.16) */
        gain = exchange_below(pos, to, 0, relax_theirs, vv) ? 1 : 0;   /* (the sign of vv - the exchange's gain) */
    }
    /* (not when the capture stands under the fictional pass: the other
     * side would simply take the general; else the capture was legal, so
     * the capturer's general is not attacked: quiet) */
    bool mated =
        gain > 0 && !relax_mine && has_mate_by_checks(pos, CAPTURE_MATE_DEPTH, CAPTURE_MATE_BUDGET, true, x->tt);
    pos->key = key;
    xq_light_unmake(pos, from, to, cap);
    if (gain <= 0) return CAP_FOLLOW;
    if (mated) return CAP_MATED;
    if (XQ_KIND(a) == XQ_GENERAL) return CAP_GENERAL;
    if (XQ_KIND(a) == XQ_SOLDIER) return CAP_SOLDIER;
    return CAP_PIECE;
}

/* Is the pseudo-legal capture from `from` by the side to move of pos
 * legal without playing it?  When that side is not in check and the
 * capturer is not its general and stands neither on its general's file
 * or rank nor next to it: the capture leaves its square empty (opening
 * no line to the general and no horse leg next to it) and the square it
 * takes stays occupied, so nothing attacks the general after it
 * (capture_allowed then says true too). */
static inline bool capture_surely_legal(const xq_position *pos, bool in_check, int from)
{
    int g = pos->general[pos->side];
    if (in_check || g >= XQ_SQUARES || from == g) return false;
    bool far = xq_file_of[from] != xq_file_of[g] && xq_rank_of[from] != xq_rank_of[g] &&
               (abs(xq_file_of[from] - xq_file_of[g]) > 1 || abs(xq_rank_of[from] - xq_rank_of[g]) > 1);
    return far;
}

/* The pseudo-legal capture from -> to by side x->s (from holds a piece of
 * s): false when it is no capture of a piece of value that s may make;
 * else true and *kind says what it means (capture_kind, and a chariot
 * held by the horse it takes, AXF rule 19). */
static bool weigh_capture(capture_ctx *x, int from, int to, cap_kind *kind)
{
    xq_piece a = x->pos.board[from], v = x->pos.board[to];
    if (!of_value(v, to)) return false;
    bool sure = capture_surely_legal(&x->pos, x->in_check, from);
    assert(!sure || capture_allowed(&x->pos, from, to, x->relax_mine));
    if (!sure && !capture_allowed(&x->pos, from, to, x->relax_mine)) return false;
    *kind = capture_kind(x, from, to);
    if (*kind == CAP_PIECE && XQ_KIND(a) == XQ_CHARIOT && XQ_KIND(v) == XQ_HORSE && !x->relax_mine) {
        /* a chariot whose only legal move is this capture is held
         * by the horse (AXF rule 19); not judged while in check */
        xq_move own[XQ_MAX_MOVES];
        int k = xq_legal_moves_from(&x->pos, from, own);
        bool other = false;
        for (int j = 0; j < k && !other; j++) other = XQ_TO(own[j]) != to;
        if (!other) *kind = CAP_PINNER;
    }
    return true;
}

/* Every capture of a piece of value side s could make in `in` (s to move
 * after a pass if need be), with its meaning. */
static void scan_captures(const xq_position *in, xq_color s, xq_rules rules, xq_mate_table *tt, capture_scan *out)
{
    out->n = 0;
    capture_ctx x;
    capture_ctx_init(&x, in, s, rules, tt);
    /* by attacker square, ascending (fresh_attacker names the first; every
     * capture tried below is taken back before the next) */
    sqset own = color_set(&x.pos, s);
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = own.w[w]; bits; bits &= bits - 1) {
            int from = w * 64 + __builtin_ctzll(bits);
            xq_move caps[PIECE_MOVES];
            int n = piece_moves(&x.pos, from, true, caps, 0);
            for (int i = 0; i < n && out->n < XQ_MAX_MOVES; i++) {
                int to = XQ_TO(caps[i]);
                cap_kind kind;
                if (weigh_capture(&x, from, to, &kind))
                    out->pair[out->n++] = (cap_pair){(uint8_t)from, (uint8_t)to, (uint8_t)kind};
            }
        }
}

/* For each capture of `after` (the position after m, its mover to move
 * again), what the same attacker, followed back to its square before m,
 * could do on that square before m: was[i] = the kind of that capture in
 * the scan of `before`, or -1 when that scan has no such capture.  Only
 * these pairs of the scan of `before` are ever looked at (§29.2: is the
 * attack new?), so they are weighed alone instead of scanning every
 * capture of before.  A scan holds at most one pair per (from, to). */
static void captures_before(const xq_position *before, xq_rules rules, xq_mate_table *tt, const capture_scan *after,
                            xq_move m, int8_t *was)
{
    if (!after->n) return;
    capture_ctx x;
    capture_ctx_init(&x, before, before->side, rules, tt);
    int from = XQ_FROM(m), to = XQ_TO(m);
    for (int i = 0; i < after->n; i++) {
        const cap_pair *p = &after->pair[i];
        int sq = p->from == to ? from : p->from;
        xq_piece a = x.pos.board[sq];
        cap_kind kind;
        /* the pairs scan_captures would list: a piece of the mover that
         * reaches the square by its geometry, then weighed alike */
        was[i] = (int8_t)(a && XQ_COLOR(a) == x.s && can_reach(&x.pos, sq, p->to) && weigh_capture(&x, sq, p->to, &kind)
                              ? (int)kind
                              : -1);
    }
}

/* Is capture i of after new with that meaning (kind): the same attacker
 * could not make it so before m (§29.2, ch.7 items 2 and 6), nor, when
 * mated_counts (AXF), could it make it before only at the price of being
 * mated? */
static inline bool fresh_pair(const int8_t *was, int i, cap_kind kind, bool mated_counts)
{
    return was[i] != (int8_t)kind && !(mated_counts && was[i] == (int8_t)CAP_MATED);
}

/* Victims of the captures of `kind` in after that are new (fresh_pair). */
static sqset fresh_victims(const int8_t *was, const capture_scan *after, cap_kind kind, bool mated_counts)
{
    sqset s = {{0, 0}};
    for (int i = 0; i < after->n; i++) {
        const cap_pair *p = &after->pair[i];
        if (p->kind == kind && fresh_pair(was, i, kind, mated_counts)) set_add(&s, p->to);
    }
    return s;
}

static bool attacker_has(const capture_scan *sc, int from, cap_kind kind)
{
    for (int i = 0; i < sc->n; i++)
        if (sc->pair[i].from == from && sc->pair[i].kind == kind) return true;
    return false;
}

static int legal_count(const xq_position *pos, xq_color c)
{
    xq_position p = with_side(pos, c);
    xq_move moves[XQ_MAX_MOVES];
    return xq_legal_moves(&p, moves);
}

/* The larger of the file and rank distances between squares a and b. */
static inline int sq_dist(int a, int b)
{
    int df = abs(xq_file_of[a] - xq_file_of[b]), dr = abs(xq_rank_of[a] - xq_rank_of[b]);
    return df > dr ? df : dr;
}

/* Is square x on the file or rank of square a? */
static inline bool sq_lines(int x, int a) { return xq_file_of[x] == xq_file_of[a] || xq_rank_of[x] == xq_rank_of[a]; }

#ifndef NDEBUG
/* May the legal moves of the piece of o on x differ before and after m =
 * from -> to (a quiet move of the other side off the file and rank of
 * o's general g, o in check neither time: see fewer_legal_moves)?  Its
 * pseudo-legal moves read only the squares of its file and rank (a
 * chariot or cannon) or within two steps of it (the others: legs, eyes,
 * targets), and from and to are the only squares m changes.  A move of
 * a piece other than the general is legal unless it exposes g (o not in
 * check), through g's file and rank (opened at x, or screened where it
 * lands: lines that m left alone) or, from a leg of g (diagonal to it),
 * to a horse behind that leg, two steps from g (where m may have moved).
 * So the general, the pieces whose moves read from or to, and, when m
 * touches a square within two steps of g, the pieces on its legs; no
 * other.  (Debug builds: may_change_set, which names them all at once, is
 * checked against it.) */
static inline bool moves_may_change(const xq_position *pos, int x, int from, int to, int g)
{
    xq_kind k = XQ_KIND(pos->board[x]);
    if (k == XQ_GENERAL) return true;
    if (sq_dist(x, g) == 1 && !sq_lines(x, g) && (sq_dist(from, g) <= 2 || sq_dist(to, g) <= 2)) return true;
    if ((k == XQ_CHARIOT || k == XQ_CANNON) && (sq_lines(x, from) || sq_lines(x, to))) return true;
    return sq_dist(x, from) <= 2 || sq_dist(x, to) <= 2;
}
#endif

/* What decides, for the side to move (not in check, its general on g),
 * whether a move of a piece other than the general exposes g
 * (CXA1999 §3.1, §4.1.2), read once per position:
 *  - danger: the squares where a piece landing becomes the only screen
 *    between g and a cannon of the other side on g's file or rank (before
 *    the first piece met from g when that piece is such a cannon; that
 *    piece's own square when the second one is: a screen taken,
 *    impossible without a check, kept for safety);
 *  - opens: the own pieces on g's file or rank whose leaving that line
 *    lets a chariot, the other general (on the file) or a cannon attack
 *    g: the first piece met when the second is a chariot or general or
 *    the third a cannon, the second when the first is a chariot or
 *    general or the third a cannon; a piece further away leaves the first
 *    two pieces as they were. */
typedef struct {
    sqset danger, opens;
} quiet_guard;

static void quiet_guard_init(const xq_position *pos, int g, quiet_guard *q)
{
    static const int8_t STEP[4] = {9, -9, 1, -1};   /* as ORTH_F / ORTH_R */
    xq_color e = (xq_color)(pos->side ^ 1);
    xq_piece chariot = XQ_PIECE(XQ_CHARIOT, e), cannon = XQ_PIECE(XQ_CANNON, e), general = XQ_PIECE(XQ_GENERAL, e);
    memset(q, 0, sizeof *q);
    for (int d = 0; d < 4; d++) {
        int at[3], n = 0;
        int edge = past_edge(g, d);
        for (int sq = g + STEP[d]; sq != edge && n < 3; sq += STEP[d])
            if (pos->board[sq]) at[n++] = sq;
        if (!n) continue;
        xq_piece p1 = pos->board[at[0]], p2 = n > 1 ? pos->board[at[1]] : XQ_NONE,
                 p3 = n > 2 ? pos->board[at[2]] : XQ_NONE;
        bool first1 = p1 == chariot || (d < 2 && p1 == general), first2 = p2 == chariot || (d < 2 && p2 == general);
        if (p1 == cannon)
            for (int sq = g + STEP[d]; sq != at[0]; sq += STEP[d]) set_add(&q->danger, sq);
        if (p2 == cannon) set_add(&q->danger, at[0]);
        if (XQ_COLOR(p1) != e && (first2 || p3 == cannon)) set_add(&q->opens, at[0]);
        if (n > 1 && XQ_COLOR(p2) != e && (first1 || p3 == cannon)) set_add(&q->opens, at[1]);
    }
}

/* How many pseudo-legal moves the chariot or cannon (cannon) on from
 * has (piece_moves' count, without writing the moves): per direction the
 * empty squares up to the first piece or the edge, and the capture of the
 * first piece (chariot) or of the one beyond it (cannon) when it is the
 * other side's. */
static int slider_move_count(const xq_position *pos, int from, bool cannon)
{
    static const int8_t STEP[4] = {9, -9, 1, -1};   /* as ORTH_F / ORTH_R */
    xq_color c = XQ_COLOR(pos->board[from]);
    int n = 0;
    for (int d = 0; d < 4; d++) {
        line_pair h = line_scan(pos, from, d);
        int end = h.first >= 0 ? h.first : past_edge(from, d);
        n += (end - from) / STEP[d] - 1;
        int t = cannon ? (h.first >= 0 ? h.second : -1) : h.first;
        n += t >= 0 && XQ_COLOR(pos->board[t]) != c;
    }
    return n;
}

/* The legal moves of the piece on x, of the side to move, which is not
 * in check and has its general on g: its pseudo-legal moves
 * (piece_moves, the sets of xq_legal_moves_from before its legality
 * filter), each legal unless it exposes g.  A move lands on a square of
 * q->danger or not; leaving g's file or rank opens it when q->opens has
 * x; leaving a leg of g (diagonal to it) lets an enemy horse behind it
 * attack, unless the move takes that horse; nothing else can expose g.
 * The general's moves, and a piece's moves along the line of g it stands
 * on, are played to see.  pos is left as it was.  A piece off g's lines
 * and legs, with no square of danger, has every move legal: only counted
 * (a chariot's or cannon's on the masks, slider_move_count). */
static int quiet_legal_from(xq_position *pos, int x, int g, const quiet_guard *q)
{
    bool on_file = xq_file_of[x] == xq_file_of[g], on_rank = xq_rank_of[x] == xq_rank_of[g];
    int horse1 = NO_SQ, horse2 = NO_SQ;   /* enemy horses behind x when x is a leg of g */
    if (!on_file && !on_rank && sq_dist(x, g) == 1) {
        xq_piece horse = XQ_PIECE(XQ_HORSE, pos->side ^ 1);
        const uint8_t(*ho)[3] = HORSE_OVER[g];
        for (int d = 0; d < 4; d++)
            if (ho[d][0] == x) {
                if (ho[d][1] != NO_SQ && pos->board[ho[d][1]] == horse) horse1 = ho[d][1];
                if (ho[d][2] != NO_SQ && pos->board[ho[d][2]] == horse) horse2 = ho[d][2];
            }
    }
    xq_kind k = XQ_KIND(pos->board[x]);
    /* off g's lines and legs with no square of danger: every move is
     * legal (nothing below can expose g), so only their count matters */
    bool unexposed = x != g && !on_file && !on_rank && horse1 == NO_SQ && horse2 == NO_SQ && set_empty(&q->danger);
    if (unexposed && (k == XQ_CHARIOT || k == XQ_CANNON)) return slider_move_count(pos, x, k == XQ_CANNON);
    xq_move moves[PIECE_MOVES];
    int n = piece_moves(pos, x, false, moves, 0), legal = 0;
    if (unexposed) return n;
    bool opens = set_has(&q->opens, x);
    for (int i = 0; i < n; i++) {
        int to = XQ_TO(moves[i]);
        bool along = (on_file && xq_file_of[to] == xq_file_of[g]) || (on_rank && xq_rank_of[to] == xq_rank_of[g]);
        if (x == g || along) {
            xq_piece cap = xq_light_make(pos, x, to);
            legal += !xq_in_check(pos, (xq_color)(pos->side ^ 1));
            xq_light_unmake(pos, x, to, cap);
            continue;
        }
        bool exposed = set_has(&q->danger, to) || opens || (horse1 != NO_SQ && horse1 != to) ||
                       (horse2 != NO_SQ && horse2 != to);
        legal += !exposed;
    }
    return legal;
}

/* The pieces of the side to move (k: its kind_sets_of, its general on
 * g) that moves_may_change names for a move from -> to, as one set: the
 * general; the pieces on the legs of g (its diagonal neighbours) when
 * from or to is within two steps of g; the chariots and cannons on the
 * file or rank of from or of to; and every piece within two steps of
 * from or of to (NEAR2 holds the squares at most two files and two ranks
 * away, sq_dist's "two steps").  Found by set operations instead of a
 * test per piece. */
static sqset may_change_set(const kind_sets *k, int from, int to, int g)
{
    sqset names = set_or(NEAR2[from], NEAR2[to]);
    sqset lines = set_or(set_or(FILE_SET[xq_file_of[from]], RANK_SET[xq_rank_of[from]]),
                         set_or(FILE_SET[xq_file_of[to]], RANK_SET[xq_rank_of[to]]));
    names = set_or(names, set_and(k->sliders, lines));
    set_add(&names, g);
    if (set_has(&NEAR2[g], from) || set_has(&NEAR2[g], to))
        for (int d = 0; d < 4; d++)
            if (STEP_OVER[g][d][1] != NO_SQ) set_add(&names, STEP_OVER[g][d][1]);
    return set_and(names, k->own);
}

#ifndef NDEBUG
/* may_change_set against moves_may_change asked of each piece (debug
 * builds). */
static bool may_change_agrees(const xq_position *pos, const kind_sets *k, int from, int to, int g, sqset names)
{
    sqset plain = {{0, 0}};
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = k->own.w[w]; bits; bits &= bits - 1) {
            int x = w * 64 + __builtin_ctzll(bits);
            if (moves_may_change(pos, x, from, to, g)) set_add(&plain, x);
        }
    return !memcmp(&plain, &names, sizeof names);
}
#endif

/* The legal moves of the side to move, which is not in check and has a
 * general (quiet_legal_from for each of its pieces); with `only`, of the
 * pieces moves_may_change names for a move from -> to alone
 * (may_change_set). */
static int quiet_legal_count(xq_position *pos, int from, int to, bool only)
{
    int g = pos->general[pos->side], n = 0;
    quiet_guard q;
    quiet_guard_init(pos, g, &q);
    kind_sets k;
    kind_sets_of(pos, pos->side, &k);
    sqset count = k.own;
    if (only) {
        count = may_change_set(&k, from, to, g);
        assert(may_change_agrees(pos, &k, from, to, g, count));
    }
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = count.w[w]; bits; bits &= bits - 1) n += quiet_legal_from(pos, w * 64 + __builtin_ctzll(bits), g, &q);
    return n;
}

/* legal_count(after, o) - legal_count(before, o), after = before + m
 * (o to move), m not a check (§28.7: does m hinder the other side's
 * pieces?).  When o is in check neither time (after: m is no check) and
 * m is no capture, the counts skip the legality test of the moves that
 * cannot expose o's general (quiet_legal_count); and when neither from
 * nor to is on the file or rank of o's general, they differ only by the
 * moves of the pieces moves_may_change names, so only those are counted,
 * in both positions (xq_legal_delta; test_judge_block.c compares it with
 * the two full counts of xq_legal_moves).  Else both counts in full. */
static int legal_delta(const xq_position *before, const xq_position *after, xq_move m, xq_color o)
{
    int from = XQ_FROM(m), to = XQ_TO(m), g = before->general[o];
    xq_position b = with_side(before, o), a = *after;
    if (g >= XQ_SQUARES || before->board[to] || a.side != o || xq_in_check(&b, o) || xq_in_check(&a, o))
        return legal_count(after, o) - legal_count(before, o);
    bool only = !sq_lines(from, g) && !sq_lines(to, g);
    int delta = quiet_legal_count(&a, from, to, only) - quiet_legal_count(&b, from, to, only);
    assert(delta == legal_count(after, o) - legal_count(before, o));
    return delta;
}

int xq_legal_delta(const xq_position *before, xq_move m)
{
    xq_position after = *before;
    xq_undo u;
    xq_make(&after, m, &u);
    return legal_delta(before, &after, m, after.side);
}

/* Was the piece on victim already chased before m (CXA1999 §28.3, §29.2,
 * ch.7 item 6)?  A chase is the threat to take a piece (§28.3: "capture
 * some unprotected piece"), not the attacker's: when some piece of the
 * mover (the side to move of before) could already take it so before m,
 * the chase existed and m goes from chase to chase, whichever piece
 * chases it after m (the one that moved, or another uncovered or left
 * unblocked by it: ch.7 item 6's "related piece").  "So" is a capture of
 * kind CAP_PIECE, or one counted as a chase under the rule set: a
 * chariot held by the horse it takes (CAP_PINNER) under CXA 1999, and
 * under AXF an attack that would have got the mover mated (as
 * fresh_pair).  The victim stands where it stood: m is the mover's and
 * takes nothing (a capture ends the stretch). */
static bool chased_before(const xq_position *before, xq_rules rules, xq_mate_table *tt, int victim)
{
    capture_ctx x;
    capture_ctx_init(&x, before, before->side, rules, tt);
    uint8_t from[SQUARE_ATTACKERS];
    int n = attackers_to(&x.pos, victim, x.s, from);
    for (int i = 0; i < n; i++) {
        cap_kind kind;
        if (!weigh_capture(&x, from[i], victim, &kind)) continue;
        if (kind == CAP_PIECE || (rules == XQ_RULES_CXA1999 && kind == CAP_PINNER) ||
            (rules == XQ_RULES_AXF && kind == CAP_MATED))
            return true;
    }
    return false;
}

/* The victims of `fresh` that were not chased before m (chased_before). */
static sqset newly_chased(const xq_position *before, xq_rules rules, xq_mate_table *tt, sqset fresh)
{
    sqset out = fresh;
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = fresh.w[w]; bits; bits &= bits - 1) {
            int sq = w * 64 + __builtin_ctzll(bits);
            if (chased_before(before, rules, tt, sq)) set_drop(&out, sq);
        }
    return out;
}

/* The square of an attacker that makes a fresh capture of `kind` on victim. */
static int fresh_attacker(const int8_t *was, const capture_scan *after, cap_kind kind, bool mated_counts, int victim)
{
    for (int i = 0; i < after->n; i++) {
        const cap_pair *p = &after->pair[i];
        if (p->kind == kind && p->to == victim && fresh_pair(was, i, kind, mated_counts)) return p->from;
    }
    return victim;
}

/* The squares of s, ascending, at most XQ_MAX_VICTIMS of them. */
static int set_to_list(const sqset *s, uint8_t *list)
{
    int n = 0;
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = s->w[w]; bits && n < XQ_MAX_VICTIMS; bits &= bits - 1)
            list[n++] = (uint8_t)(w * 64 + __builtin_ctzll(bits));
    return n;
}

void xq_classify_move(const xq_position *before, xq_move m, xq_rules rules, xq_move_class *out)
{
    xq_classify_move_with(before, m, rules, NULL, out);
}

/* Which kind of idle move m is (evidence only: the verdict reads the act,
 * never the kind), for xq_classify_move_with; sa and was as classify
 * found them, after = before + m, o the other side. */
static xq_idle_kind idle_kind_of(const xq_position *before, const xq_position *after, xq_move m, xq_color o,
                                 const capture_scan *sa, const int8_t *was, bool axf, bool soldier_chase)
{
    int to = XQ_TO(m);
    if (soldier_chase) return XQ_IDLE_SOLDIER_CHASE;
    if (!set_empty_of(fresh_victims(was, sa, CAP_GENERAL, axf))) return XQ_IDLE_GENERAL_CHASE;
    if (!set_empty_of(fresh_victims(was, sa, CAP_MATED, axf))) return XQ_IDLE_CAPTURE_MATED;
    for (int i = 0; i < sa->n; i++)
        if (sa->pair[i].kind == CAP_PIECE) return XQ_IDLE_CHASE_KEPT;   /* (a chase, none new) */
    if (attacker_has(sa, to, CAP_EXCHANGE)) return XQ_IDLE_EXCHANGE;
    xq_position reply = *after;   /* the other side to move: can it win the moved piece? */
    if (!exchange_below(&reply, to, 0, NULL, 1)) return XQ_IDLE_OFFER;
    if (attacker_has(sa, to, CAP_FOLLOW) && !set_empty_of(fresh_victims(was, sa, CAP_FOLLOW, axf)))
        return XQ_IDLE_FOLLOW;
    if (legal_delta(before, after, m, o) < 0) return XQ_IDLE_BLOCK;
    return XQ_IDLE_PLAIN;
}

/* xq_classify_move_with, and with idle_kind false
 * xq_classify_move_act. */
static void classify(const xq_position *before, xq_move m, xq_rules rules, xq_mate_table *tt, bool idle_kind,
                     xq_move_class *out)
{
    memset(out, 0, sizeof *out);
    mate_table_clear(tt);
    out->move = m;
    xq_color s = before->side, o = (xq_color)(s ^ 1);
    out->side = s;
    xq_position after = *before;
    xq_undo u;
    xq_make(&after, m, &u);

    out->check = xq_in_check(&after, o);

    /* §29.2: only attacks that did not exist before the move */
    capture_scan sa;
    int8_t was[XQ_MAX_MOVES];
    scan_captures(&after, s, rules, tt, &sa);
    captures_before(before, rules, tt, &sa, m, was);
    /* AXF looks at attacks: one that existed before but would have got the
     * mover mated is not new; CXA 1999 counts the first safe one (ch.7 item 2) */
    bool axf = rules == XQ_RULES_AXF;
    sqset fresh = fresh_victims(was, &sa, CAP_PIECE, axf);
    sqset fresh_pinner = set_minus(fresh_victims(was, &sa, CAP_PINNER, axf), fresh);
    sqset fresh_soldier = set_minus(set_minus(fresh_victims(was, &sa, CAP_SOLDIER, axf), fresh), fresh_pinner);
    out->nsoldier_victims = set_to_list(&fresh_soldier, out->soldier_victims);

    /* §28.2: a mate by checks if the other side passed, new with this move */
    if (!out->check) {
        xq_position threat = with_side(&after, s);
        /* (threat: the other general is not attacked, as m gives no check;
         * before: not known, the position may be any) */
        if (has_mate_by_checks(&threat, MATE_DEPTH, MATE_BUDGET, true, tt) &&
            !has_mate_by_checks(before, MATE_DEPTH, MATE_BUDGET, false, tt))
            out->mate_threat = true;
    }

    /* §29.2, ch.7 item 6: a piece already chased before m is not newly
     * chased, whoever chases it now (after the mate search, whose table
     * and budget stay as they were) */
    if (!axf) {
        fresh = newly_chased(before, rules, tt, fresh);
        fresh_pinner = newly_chased(before, rules, tt, fresh_pinner);
    }
    out->nvictims = set_to_list(&fresh, out->victims);
    for (int k = 0; k < out->nvictims; k++)
        out->chasers[k] = (uint8_t)fresh_attacker(was, &sa, CAP_PIECE, axf, out->victims[k]);
    out->npinner_victims = set_to_list(&fresh_pinner, out->pinner_victims);

    /* §27.4: the heaviest counts */
    if (out->check) out->act = XQ_ACT_CHECK;
    else if (out->mate_threat) out->act = XQ_ACT_MATE_THREAT;
    else if (out->nvictims || out->npinner_victims) out->act = XQ_ACT_CHASE;
    else out->act = XQ_ACT_IDLE;
    if (out->act != XQ_ACT_IDLE) return;
    /* (the kind of an idle move is found last, and searches nothing: a
     * classification without it finds every other fact alike) */
    out->idle = idle_kind ? idle_kind_of(before, &after, m, o, &sa, was, axf, !set_empty(&fresh_soldier))
                          : XQ_IDLE_UNKNOWN;
}

void xq_classify_move_with(const xq_position *before, xq_move m, xq_rules rules, xq_mate_table *tt,
                           xq_move_class *out)
{
    classify(before, m, rules, tt, true, out);
}

void xq_classify_move_act(const xq_position *before, xq_move m, xq_rules rules, xq_mate_table *tt,
                          xq_move_class *out)
{
    classify(before, m, rules, tt, false, out);
}
