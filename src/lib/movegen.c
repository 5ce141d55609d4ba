/* movegen.c - attacks, move generation, legality with reasons, perft.
 *
 * Piece moves follow CXA1999 §2.2 (see ../shared/rules/README.md):
 * general and advisor stay in the palace, elephants never cross the river
 * and are stopped by a piece on the eye, horses by a piece on the leg,
 * cannons capture over exactly one screen, soldiers go sideways only after
 * crossing the river.  A move that leaves one's own general attacked, or
 * leaves the two generals facing on an open file, is illegal (§3.1, §4.1.2).
 *
 * Speed: every replayed ply asks whether a move leaves the mover's general
 * attacked, so that test is table driven and never changes the position
 * (it looks at a 90-byte copy of the board with the move made).  Lines
 * (chariot, cannon, flying general) are read from the rank and file
 * occupancy masks of xq_position (first and second piece in a direction =
 * lowest or highest set bits); the short-range pieces come from constant
 * per-square tables built below by the preprocessor, with no bounds test
 * in the loops.  Move lists know whether the side is in check, and then
 * test only what a move can open (needs_test, exposes_unchecked).  The
 * per-ply tests of a replay (xq_quiet_move_safe's and xq_play's out-of-
 * line parts) read one direction of a general's file or rank through a
 * ray table (RAYS: the squares in order and how to get their occupancy
 * from the masks as one nearest-first mask), each common case a small
 * leaf function.  A general's step is tested without a board copy.
 * tests/unit/test_movegen_fast.c checks every function against the plain
 * board-walking implementation this replaced; tests/unit/test_play_fast.c
 * the per-ply tests against the full ones.
 */
#include "board_tables.h"
#include "position.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* An empty slot in the tables below (no square). */
enum { NONE = 0xFF };

/* --- Constant tables, computed by the preprocessor ----------------------
 * SQ_ON(s, df, dr): is the square df files and dr ranks from s on the
 * board?  SQ_AT(...): that square, or `none` when off the board. */
#define SQ_F(s) ((s) % 9)
#define SQ_R(s) ((s) / 9)
#define SQ_ON(s, df, dr) ((unsigned)(SQ_F(s) + (df)) < 9u && (unsigned)(SQ_R(s) + (dr)) < 10u)
#define SQ_AT(s, df, dr, none) (SQ_ON(s, df, dr) ? (s) + (df) + 9 * (dr) : (none))
/* The square, when it is in the palace of colour c (files d..f, ranks 0..2
 * for Red, 7..9 for Black), else NONE. */
#define SQ_PAL(s, df, dr, c)                                                   \
    (SQ_ON(s, df, dr) && SQ_F(s) + (df) >= 3 && SQ_F(s) + (df) <= 5 &&          \
             ((c) == 0 ? SQ_R(s) + (dr) <= 2 : SQ_R(s) + (dr) >= 7)             \
         ? (s) + (df) + 9 * (dr)                                               \
         : NONE)
/* Rank r on the own half of colour c (ranks 0..4 Red, 5..9 Black). */
#define SQ_OWN_HALF(r, c) ((c) == 0 ? (r) <= 4 : (r) >= 5)

/* One table row per square: M(0), M(1), ..., M(89). */
#define EACH9_(M, b) M((b) + 0), M((b) + 1), M((b) + 2), M((b) + 3), M((b) + 4), \
                     M((b) + 5), M((b) + 6), M((b) + 7), M((b) + 8)
#define EACH_SQ(M) EACH9_(M, 0), EACH9_(M, 9), EACH9_(M, 18), EACH9_(M, 27), EACH9_(M, 36), \
                   EACH9_(M, 45), EACH9_(M, 54), EACH9_(M, 63), EACH9_(M, 72), EACH9_(M, 81)

/* General steps (north, south, east, west) that stay in the palace. */
#define GEN_ROW(s, c) {SQ_PAL(s, 0, 1, c), SQ_PAL(s, 0, -1, c), SQ_PAL(s, 1, 0, c), SQ_PAL(s, -1, 0, c)}
#define GEN_RED(s) GEN_ROW(s, 0)
#define GEN_BLACK(s) GEN_ROW(s, 1)
const uint8_t xq_general_to[2][XQ_SQUARES][4] = {{EACH_SQ(GEN_RED)}, {EACH_SQ(GEN_BLACK)}};

/* Advisor steps (NE, SE, NW, SW) that stay in the palace. */
#define ADV_ROW(s, c) {SQ_PAL(s, 1, 1, c), SQ_PAL(s, 1, -1, c), SQ_PAL(s, -1, 1, c), SQ_PAL(s, -1, -1, c)}
#define ADV_RED(s) ADV_ROW(s, 0)
#define ADV_BLACK(s) ADV_ROW(s, 1)
const uint8_t xq_advisor_to[2][XQ_SQUARES][4] = {{EACH_SQ(ADV_RED)}, {EACH_SQ(ADV_BLACK)}};

/* Elephant points (NE, SE, NW, SW) as {eye, target}; NONE target when off
 * the board or across the river for colour c. */
#define ELE_PT(s, dx, dy, c)                                                   \
    {SQ_AT(s, dx, dy, NONE),                                                   \
     SQ_ON(s, 2 * (dx), 2 * (dy)) && SQ_OWN_HALF(SQ_R(s) + 2 * (dy), c)         \
         ? (s) + 2 * (dx) + 18 * (dy)                                          \
         : NONE}
#define ELE_ROW(s, c) {ELE_PT(s, 1, 1, c), ELE_PT(s, 1, -1, c), ELE_PT(s, -1, 1, c), ELE_PT(s, -1, -1, c)}
#define ELE_RED(s) ELE_ROW(s, 0)
#define ELE_BLACK(s) ELE_ROW(s, 1)
static const uint8_t ELEPHANT_TO[2][XQ_SQUARES][4][2] = {{EACH_SQ(ELE_RED)}, {EACH_SQ(ELE_BLACK)}};

/* Horse moves by leg (north, south, east, west): {leg, target, target},
 * the targets in the order the generator has always emitted them. */
#define HORSE_ROW(s)                                                                      \
    {{SQ_AT(s, 0, 1, NONE), SQ_AT(s, -1, 2, NONE), SQ_AT(s, 1, 2, NONE)},                 \
     {SQ_AT(s, 0, -1, NONE), SQ_AT(s, -1, -2, NONE), SQ_AT(s, 1, -2, NONE)},              \
     {SQ_AT(s, 1, 0, NONE), SQ_AT(s, 2, -1, NONE), SQ_AT(s, 2, 1, NONE)},                 \
     {SQ_AT(s, -1, 0, NONE), SQ_AT(s, -2, -1, NONE), SQ_AT(s, -2, 1, NONE)}}
static const uint8_t HORSE_TO[XQ_SQUARES][4][3] = {EACH_SQ(HORSE_ROW)};

/* Horses that attack square s, by leg: a horse reaches s over a leg that is
 * a diagonal neighbour of s, from the two squares beyond that leg.  Rows
 * {leg, horse, horse}.  No NONE here, so the check test has no bounds
 * test: an off-board leg reads as s itself (the attacked square: occupied,
 * so the leg counts as blocked; if it is empty, its horse squares, also s,
 * read as empty too) and an off-board horse square as its leg (which the
 * test has just found empty). */
#define HLEG_(s, dx, dy) SQ_AT(s, dx, dy, s)
#define HATT_PT(s, dx, dy)                                                     \
    {HLEG_(s, dx, dy), SQ_AT(s, dx, 2 * (dy), HLEG_(s, dx, dy)),               \
     SQ_AT(s, 2 * (dx), dy, HLEG_(s, dx, dy))}
#define HATT_ROW(s) {HATT_PT(s, 1, 1), HATT_PT(s, 1, -1), HATT_PT(s, -1, 1), HATT_PT(s, -1, -1)}
const uint8_t xq_horse_attack[XQ_SQUARES][4][3] = {EACH_SQ(HATT_ROW)};
#define HORSE_ATTACK xq_horse_attack

/* Soldier moves of colour c: forward, then (across the river) west, east. */
#define SOL_FWD(c) ((c) == 0 ? 1 : -1)
#define SOL_ROW(s, c)                                                          \
    {SQ_AT(s, 0, SOL_FWD(c), NONE),                                            \
     SQ_OWN_HALF(SQ_R(s), c) ? NONE : SQ_AT(s, -1, 0, NONE),                   \
     SQ_OWN_HALF(SQ_R(s), c) ? NONE : SQ_AT(s, 1, 0, NONE)}
#define SOL_RED(s) SOL_ROW(s, 0)
#define SOL_BLACK(s) SOL_ROW(s, 1)
static const uint8_t SOLDIER_TO[2][XQ_SQUARES][3] = {{EACH_SQ(SOL_RED)}, {EACH_SQ(SOL_BLACK)}};

/* Squares from which a soldier of colour c attacks s: behind s (as c
 * moves), and beside s when s is across the river for c. */
#define SOLATT_ROW(s, c)                                                       \
    {SQ_AT(s, 0, -SOL_FWD(c), NONE),                                           \
     SQ_OWN_HALF(SQ_R(s), c) ? NONE : SQ_AT(s, -1, 0, NONE),                   \
     SQ_OWN_HALF(SQ_R(s), c) ? NONE : SQ_AT(s, 1, 0, NONE)}
#define SOLATT_RED(s) SOLATT_ROW(s, 0)
#define SOLATT_BLACK(s) SOLATT_ROW(s, 1)
static const uint8_t SOLDIER_ATTACK[2][XQ_SQUARES][3] = {{EACH_SQ(SOLATT_RED)}, {EACH_SQ(SOLATT_BLACK)}};

/* Where square s lies as seen from a general on g, for the tests that
 * ask what a move can change around a general: on g's file north (higher
 * ranks) or south, on its rank east (higher files) or west, g itself, a
 * diagonal neighbour (a horse leg), a horse move away.  REL[g][s], one
 * bit of these at most. */
enum {
    R_NORTH = XQ_REL_NORTH, R_SOUTH = XQ_REL_SOUTH, R_EAST = XQ_REL_EAST, R_WEST = XQ_REL_WEST,
    R_SELF = XQ_REL_SELF, R_LEG = XQ_REL_LEG, R_HORSE = XQ_REL_HORSE,
    R_FILE = R_NORTH | R_SOUTH, R_RANK = R_EAST | R_WEST, R_LINES = XQ_REL_LINES
};
#define ADIFF_(a, b) ((a) > (b) ? (a) - (b) : (b) - (a))
#define REL_OF(g, s)                                                                   \
    ((s) == (g) ? R_SELF                                                               \
     : SQ_F(s) == SQ_F(g) ? (SQ_R(s) > SQ_R(g) ? R_NORTH : R_SOUTH)                    \
     : SQ_R(s) == SQ_R(g) ? (SQ_F(s) > SQ_F(g) ? R_EAST : R_WEST)                      \
     : ADIFF_(SQ_F(s), SQ_F(g)) == 1 && ADIFF_(SQ_R(s), SQ_R(g)) == 1 ? R_LEG           \
     : ADIFF_(SQ_F(s), SQ_F(g)) + ADIFF_(SQ_R(s), SQ_R(g)) == 3 ? R_HORSE              \
     : 0)
#define EACH9G_(M, g, b) M(g, (b) + 0), M(g, (b) + 1), M(g, (b) + 2), M(g, (b) + 3), M(g, (b) + 4), \
                         M(g, (b) + 5), M(g, (b) + 6), M(g, (b) + 7), M(g, (b) + 8)
#define EACH_SQ_G(M, g) EACH9G_(M, g, 0), EACH9G_(M, g, 9), EACH9G_(M, g, 18), EACH9G_(M, g, 27), \
                        EACH9G_(M, g, 36), EACH9G_(M, g, 45), EACH9G_(M, g, 54), EACH9G_(M, g, 63), \
                        EACH9G_(M, g, 72), EACH9G_(M, g, 81)
#define REL_ROW(g) {EACH_SQ_G(REL_OF, g)}
/* Rows 90..255 (a general square of none, 0xFF) stay 0: nothing is on
 * the lines of a missing general (board_tables.h). */
const uint8_t xq_rel[XQ_REL_ROWS][XQ_SQUARES] = {EACH_SQ(REL_ROW)};
#define REL xq_rel

/* The four rays of a square (north, south, east, west: REL's line bits
 * in order, so a ray's index is the bit's position), for the line tests
 * of the check and own-general tests.  A ray's occupancy as one mask
 * whose bit k says whether its (k + 1)-th square from the origin holds
 * a piece: off, the byte offset in xq_position of the rank or file mask
 * it lies on (rank_occ and file_occ are one array of 19 masks); that
 * mask read through RAY_BITS[rev] (rev: bit-reversed over ten bits, for
 * the rays towards bit 0) and shifted right by shift.  sq[k]: the
 * (k + 1)-th square (0 past the edge, never read: its bit is 0); kind2:
 * the piece kind that attacks from the nearest square besides a chariot
 * (the general along a file, flying general §4.1.2; a chariot on a
 * rank); line: the origin's index on the mask (its rank on a file). */
typedef struct { uint8_t off, shift, rev, kind2, line, sq[9], pad[2]; } ray_row;
_Static_assert(sizeof(ray_row) == 16, "a ray is 16 bytes (an index is a shift)");
_Static_assert(offsetof(xq_position, file_occ) == offsetof(xq_position, rank_occ) + 2 * XQ_RANKS,
               "the rank and file masks are one array");
#define RAY_FILE_OFF_(s) (offsetof(xq_position, file_occ) + 2 * SQ_F(s))
#define RAY_RANK_OFF_(s) (offsetof(xq_position, rank_occ) + 2 * SQ_R(s))
#define RAY_SQS_(s, df, dr)                                                                                  \
    {SQ_AT(s, (df), (dr), 0), SQ_AT(s, 2 * (df), 2 * (dr), 0), SQ_AT(s, 3 * (df), 3 * (dr), 0),             \
     SQ_AT(s, 4 * (df), 4 * (dr), 0), SQ_AT(s, 5 * (df), 5 * (dr), 0), SQ_AT(s, 6 * (df), 6 * (dr), 0),     \
     SQ_AT(s, 7 * (df), 7 * (dr), 0), SQ_AT(s, 8 * (df), 8 * (dr), 0), SQ_AT(s, 9 * (df), 9 * (dr), 0)}
#define RAY_ROW_(s)                                                                                          \
    {{RAY_FILE_OFF_(s), SQ_R(s) + 1, 0, XQ_GENERAL, SQ_R(s), RAY_SQS_(s, 0, 1), {0, 0}},                     \
     {RAY_FILE_OFF_(s), 10 - SQ_R(s), 1, XQ_GENERAL, SQ_R(s), RAY_SQS_(s, 0, -1), {0, 0}},                   \
     {RAY_RANK_OFF_(s), SQ_F(s) + 1, 0, XQ_CHARIOT, SQ_F(s), RAY_SQS_(s, 1, 0), {0, 0}},                     \
     {RAY_RANK_OFF_(s), 10 - SQ_F(s), 1, XQ_CHARIOT, SQ_F(s), RAY_SQS_(s, -1, 0), {0, 0}}}
static const ray_row RAYS[XQ_SQUARES][4] = {EACH_SQ(RAY_ROW_)};

/* RAY_BITS[0][x] = x, RAY_BITS[1][x] = x with its ten bits reversed. */
#define REV10_(x)                                                                                            \
    ((((x) & 1) << 9) | (((x) & 2) << 7) | (((x) & 4) << 5) | (((x) & 8) << 3) | (((x) & 16) << 1) |         \
     (((x) & 32) >> 1) | (((x) & 64) >> 3) | (((x) & 128) >> 5) | (((x) & 256) >> 7) | (((x) & 512) >> 9))
#define ID_(x) (x)
#define B4_(M, b) M(b), M((b) + 1), M((b) + 2), M((b) + 3)
#define B16_(M, b) B4_(M, b), B4_(M, (b) + 4), B4_(M, (b) + 8), B4_(M, (b) + 12)
#define B64_(M, b) B16_(M, b), B16_(M, (b) + 16), B16_(M, (b) + 32), B16_(M, (b) + 48)
#define B256_(M, b) B64_(M, b), B64_(M, (b) + 64), B64_(M, (b) + 128), B64_(M, (b) + 192)
#define B1024_(M) B256_(M, 0), B256_(M, 256), B256_(M, 512), B256_(M, 768)
static const uint16_t RAY_BITS[2][1024] = {{B1024_(ID_)}, {B1024_(REV10_)}};

/* The ray of sq in the direction of line bit dir (R_NORTH ...). */
static inline const ray_row *ray_row_of(int sq, unsigned dir)
{
    return &RAYS[sq][__builtin_ctz(dir)];
}

/* The occupancy of ray r on pos, nearest square bit 0; with the square
 * whose bit in r's rank or file mask is clear (0: none) read as empty. */
static inline unsigned ray_occ(const xq_position *pos, const ray_row *r, unsigned clear)
{
    uint16_t w;
    memcpy(&w, (const unsigned char *)pos + r->off, sizeof w);
    return (unsigned)RAY_BITS[r->rev][w & ~clear] >> r->shift;
}

/* Is the origin of ray r attacked along it by colour e on board b, the
 * ray's occupancy being rm: the nearest piece a chariot or kind2 of e,
 * or the next one a cannon of e? */
static inline bool ray_attack(const xq_piece *b, const ray_row *r, unsigned rm, xq_color e)
{
    if (!rm) return false;
    xq_piece p = b[r->sq[__builtin_ctz(rm)]];
    if (p == XQ_PIECE(XQ_CHARIOT, e) || p == XQ_PIECE(r->kind2, e)) return true;
    rm &= rm - 1;
    return rm && b[r->sq[__builtin_ctz(rm)]] == XQ_PIECE(XQ_CANNON, e);
}

/* --- Line scans on the occupancy masks ---------------------------------- */

/* Inline even where the compiler would rather call (the check test is
 * worth its copies: each caller folds its own constants into it). */
#if defined(__GNUC__)
#define ALWAYS_INLINE __attribute__((always_inline))
#else
#define ALWAYS_INLINE
#endif

/* Lowest / highest set bit of a non-zero mask. */
static inline int low_bit(unsigned m)
{
#if defined(__GNUC__)
    return __builtin_ctz(m);
#else
    int i = 0;
    while (!(m & 1u)) m >>= 1, i++;
    return i;
#endif
}

static inline int high_bit(unsigned m)
{
#if defined(__GNUC__)
    return 31 - __builtin_clz(m);
#else
    int i = -1;
    while (m) m >>= 1, i++;
    return i;
#endif
}

/* The occupied squares met from bit i of a line mask, nearest first:
 * first[0..1] towards higher bits, first[2..3] towards lower bits; -1 when
 * there is none.  Line indices, not squares. */
typedef struct { int up1, up2, down1, down2; } line_hits;

static inline line_hits scan_line(unsigned occ, int i)
{
    line_hits h = {-1, -1, -1, -1};
    unsigned up = occ & (~1u << i), down = occ & ((1u << i) - 1);
    if (up) {
        h.up1 = low_bit(up);
        up &= up - 1;
        if (up) h.up2 = low_bit(up);
    }
    if (down) {
        h.down1 = high_bit(down);
        down ^= 1u << h.down1;
        if (down) h.down2 = high_bit(down);
    }
    return h;
}

/* --- Attacks ------------------------------------------------------------ */

/* Is the general standing on g attacked by colour e (chariot, cannon over
 * one screen, the other general along an open file, horse over a free
 * leg, soldier)?  b is the board to look at; fo and ro are the occupancy
 * masks of g's file and rank on that board.  The hot test of every replay:
 * no bounds test anywhere (the line masks stop at the edges, the horse
 * table has no holes, a soldier square is looked at only when its mask
 * bit says it is occupied). */
ALWAYS_INLINE static inline bool general_attacked(const xq_piece *b, int g, xq_color e, unsigned fo, unsigned ro)
{
    int gf = xq_file_of[g], gr = xq_rank_of[g];
    xq_piece chariot = XQ_PIECE(XQ_CHARIOT, e), cannon = XQ_PIECE(XQ_CANNON, e);
    xq_piece general = XQ_PIECE(XQ_GENERAL, e), horse = XQ_PIECE(XQ_HORSE, e);
    xq_piece soldier = XQ_PIECE(XQ_SOLDIER, e);
    unsigned m;

    /* the file: chariot or the other general first (flying general,
     * §4.1.2), cannon second */
    if ((m = fo & (~1u << gr)) != 0) {
        xq_piece p = b[gf + 9 * low_bit(m)];
        if (p == chariot || p == general) return true;
        m &= m - 1;
        if (m && b[gf + 9 * low_bit(m)] == cannon) return true;
    }
    if ((m = fo & ((1u << gr) - 1)) != 0) {
        int r = high_bit(m);
        xq_piece p = b[gf + 9 * r];
        if (p == chariot || p == general) return true;
        m ^= 1u << r;
        if (m && b[gf + 9 * high_bit(m)] == cannon) return true;
    }
    /* the rank, where a general does not count */
    int r0 = g - gf;
    if ((m = ro & (~1u << gf)) != 0) {
        if (b[r0 + low_bit(m)] == chariot) return true;
        m &= m - 1;
        if (m && b[r0 + low_bit(m)] == cannon) return true;
    }
    if ((m = ro & ((1u << gf) - 1)) != 0) {
        int f = high_bit(m);
        if (b[r0 + f] == chariot) return true;
        m ^= 1u << f;
        if (m && b[r0 + high_bit(m)] == cannon) return true;
    }
    /* horses over each free diagonal neighbour (see HORSE_ATTACK) */
    const uint8_t(*ha)[3] = HORSE_ATTACK[g];
#define HORSE_OVER(k) (!b[ha[k][0]] && (b[ha[k][1]] == horse || b[ha[k][2]] == horse))
    if (HORSE_OVER(0) || HORSE_OVER(1) || HORSE_OVER(2) || HORSE_OVER(3)) return true;
#undef HORSE_OVER
    /* soldiers: from behind g as e moves, and from beside g once e has
     * crossed the river; (x << 1) >> i is bit i - 1 of x, 0 below bit 0 */
    unsigned behind = e == XQ_BLACK ? (fo >> (gr + 1)) & 1u : ((fo << 1) >> gr) & 1u;
    if (behind && b[e == XQ_BLACK ? g + 9 : g - 9] == soldier) return true;
    if (!xq_own_half(gr, e)) {
        if (((ro >> (gf + 1)) & 1u) && b[g + 1] == soldier) return true;
        if ((((ro << 1) >> gf) & 1u) && b[g - 1] == soldier) return true;
    }
    return false;
}

bool xq_in_check(const xq_position *pos, xq_color c)
{
    int g = pos->general[c];
    if (g >= XQ_SQUARES) return false;
    return general_attacked(pos->board, g, (xq_color)(c ^ 1), pos->file_occ[xq_file_of[g]],
                            pos->rank_occ[xq_rank_of[g]]);
}

/* exposes_general for a general's step from -> to (one point along a
 * file or rank, CXA1999 §2.2): is `to` attacked once the general stands
 * there?  No copy of the board: the attack test reads from's square only
 * where the masks say it is occupied (its bit is cleared in to's file
 * and rank masks), never reads `to` along a line (it starts beyond it),
 * and reads it as a horse leg only off the board, where an empty `to`
 * leads to itself, no horse, and an occupied one blocks, as the general
 * there would.  On a step along a file from's file bit is its rank, on a
 * step along a rank it is to's own bit (set again): the same
 * expressions serve both. */
static inline bool general_step_attacked(const xq_position *pos, int from, int to)
{
    unsigned fo = ((unsigned)pos->file_occ[xq_file_of[to]] & ~(unsigned)xq_file_bit[from]) | xq_file_bit[to];
    unsigned ro = ((unsigned)pos->rank_occ[xq_rank_of[to]] & ~(unsigned)xq_rank_bit[from]) | xq_rank_bit[to];
    return general_attacked(pos->board, to, (xq_color)(XQ_COLOR(pos->board[from]) ^ 1), fo, ro);
}

/* Would the pseudo-legal move from -> to by the side to move leave its
 * general attacked or facing the other one?  Tests a copy of the board
 * with the move made (90 bytes: cheaper than telling the moved squares
 * apart in every look-up), never the position itself. */
static inline bool exposes_general(const xq_position *pos, int from, int to)
{
    xq_piece p = pos->board[from];
    if (XQ_KIND(p) == XQ_GENERAL) return general_step_attacked(pos, from, to);
    int g = pos->general[pos->side];
    if (g >= XQ_SQUARES) return false;
    xq_piece b[XQ_SQUARES];
    memcpy(b, pos->board, sizeof b);
    b[to] = p;
    b[from] = XQ_NONE;
    int gf = xq_file_of[g], gr = xq_rank_of[g];
    int ff = xq_file_of[from], fr = xq_rank_of[from], tf = xq_file_of[to], tr = xq_rank_of[to];
    unsigned fo = pos->file_occ[gf], ro = pos->rank_occ[gr];
    if (ff == gf) fo &= ~(1u << fr);
    if (fr == gr) ro &= ~(1u << ff);
    if (tf == gf) fo |= 1u << tr;
    if (tr == gr) ro |= 1u << tf;
    return general_attacked(b, g, (xq_color)(pos->side ^ 1), fo, ro);
}

bool xq_move_safe(const xq_position *pos, int from, int to)
{
    return !exposes_general(pos, from, to);
}

/* The first pieces met from sq in each line direction, as squares (-1 for
 * none): [d][0] nearest, [d][1] next; d = north, south, east, west. */
static void line_pieces(const xq_position *pos, int sq, int hit[4][2])
{
    int f = xq_file_of[sq], r = xq_rank_of[sq];
    line_hits v = scan_line(pos->file_occ[f], r), h = scan_line(pos->rank_occ[r], f);
    int idx[4][2] = {{v.up1, v.up2}, {v.down1, v.down2}, {h.up1, h.up2}, {h.down1, h.down2}};
    for (int d = 0; d < 4; d++)
        for (int k = 0; k < 2; k++)
            hit[d][k] = idx[d][k] < 0 ? -1 : d < 2 ? f + 9 * idx[d][k] : r * 9 + idx[d][k];
}

bool xq_attacked(const xq_position *pos, int sq, xq_color by)
{
    const xq_piece *b = pos->board;
    int sf = xq_file_of[sq], sr = xq_rank_of[sq];
    bool palace = xq_in_palace(sf, sr, by);
    int hit[4][2];
    line_pieces(pos, sq, hit);
    for (int d = 0; d < 4; d++) {
        if (hit[d][0] < 0) continue;
        xq_piece p = b[hit[d][0]];
        if (XQ_COLOR(p) == by) {
            xq_kind k = XQ_KIND(p);
            if (k == XQ_CHARIOT) return true;
            /* the general: one step in the palace, or along an open file
             * against the other general (flying general) */
            int dist = abs(hit[d][0] - sq);
            if (k == XQ_GENERAL && (((dist == 1 || dist == 9) && palace) ||
                                    (d < 2 && XQ_KIND(b[sq]) == XQ_GENERAL)))
                return true;
        }
        if (hit[d][1] >= 0 && b[hit[d][1]] == XQ_PIECE(XQ_CANNON, by)) return true;
    }
    const uint8_t(*ha)[3] = HORSE_ATTACK[sq];
    xq_piece horse = XQ_PIECE(XQ_HORSE, by);
    for (int k = 0; k < 4; k++)
        if (!b[ha[k][0]] && (b[ha[k][1]] == horse || b[ha[k][2]] == horse)) return true;
    const uint8_t *sa = SOLDIER_ATTACK[by][sq];
    for (int k = 0; k < 3; k++)
        if (sa[k] != NONE && b[sa[k]] == XQ_PIECE(XQ_SOLDIER, by)) return true;
    /* advisors from a diagonal neighbour when sq is in their palace;
     * elephants two points away over a free eye when sq is on their half */
    static const int DIAG[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    bool own_half = xq_own_half(sr, by);
    for (int k = 0; k < 4; k++) {
        int f = sf + DIAG[k][0], r = sr + DIAG[k][1], f2 = f + DIAG[k][0], r2 = r + DIAG[k][1];
        if ((unsigned)f >= 9 || (unsigned)r >= 10) continue;
        if (palace && b[XQ_SQ(f, r)] == XQ_PIECE(XQ_ADVISOR, by)) return true;
        if (own_half && (unsigned)f2 < 9 && (unsigned)r2 < 10 && !b[XQ_SQ(f, r)] &&
            b[XQ_SQ(f2, r2)] == XQ_PIECE(XQ_ELEPHANT, by))
            return true;
    }
    return false;
}

/* --- Move generation ---------------------------------------------------- */

/* The moves of a chariot or cannon on from along one direction (square
 * step `step`): `quiet` empty squares, then the capture of the piece on
 * `target` (the first piece met for a chariot, the second for a cannon;
 * -1 for none) when it is not of colour c. */
static inline int slide(const xq_piece *b, xq_color c, int from, int step, int quiet, int target,
                        xq_move *moves, int n)
{
    for (int k = 1, sq = from + step; k <= quiet; k++, sq += step) moves[n++] = XQ_MOVE(from, sq);
    if (target >= 0 && XQ_COLOR(b[target]) != c) moves[n++] = XQ_MOVE(from, target);
    return n;
}

/* Chariot or cannon moves, in the order north, south, east, west, each
 * direction nearest first and its capture last. */
static int gen_slider(const xq_position *pos, int from, bool cannon, xq_move *moves, int n)
{
    const xq_piece *b = pos->board;
    xq_color c = XQ_COLOR(b[from]);
    int f = xq_file_of[from], r = xq_rank_of[from], r0 = from - f;
    line_hits v = scan_line(pos->file_occ[f], r), h = scan_line(pos->rank_occ[r], f);
    /* the piece a capture takes: the first met, or for a cannon the second */
    int vu = cannon ? v.up2 : v.up1, vd = cannon ? v.down2 : v.down1;
    int hu = cannon ? h.up2 : h.up1, hd = cannon ? h.down2 : h.down1;
    /* empty squares before the first piece (or the edge) in each direction */
    n = slide(b, c, from, 9, (v.up1 < 0 ? 10 : v.up1) - r - 1, vu < 0 ? -1 : f + 9 * vu, moves, n);
    n = slide(b, c, from, -9, r - v.down1 - 1, vd < 0 ? -1 : f + 9 * vd, moves, n);
    n = slide(b, c, from, 1, (h.up1 < 0 ? 9 : h.up1) - f - 1, hu < 0 ? -1 : r0 + hu, moves, n);
    n = slide(b, c, from, -1, f - h.down1 - 1, hd < 0 ? -1 : r0 + hd, moves, n);
    return n;
}

/* Pseudo-legal moves (geometry and captures; not own-general safety) of
 * the piece on from, appended at moves[n]; returns the new count.  The
 * order is fixed (callers show moves in it): see the tables. */
static int gen_piece(const xq_position *pos, int from, xq_move *moves, int n)
{
    const xq_piece *b = pos->board;
    xq_piece p = b[from];
    xq_color c = XQ_COLOR(p);
#define TARGET_OK(sq) (!b[sq] || XQ_COLOR(b[sq]) != c)
    switch (XQ_KIND(p)) {
    case XQ_GENERAL:
    case XQ_ADVISOR: {
        const uint8_t *t = XQ_KIND(p) == XQ_GENERAL ? xq_general_to[c][from] : xq_advisor_to[c][from];
        for (int k = 0; k < 4; k++)
            if (t[k] != NONE && TARGET_OK(t[k])) moves[n++] = XQ_MOVE(from, t[k]);
        break;
    }
    case XQ_ELEPHANT: {
        const uint8_t(*t)[2] = ELEPHANT_TO[c][from];
        for (int k = 0; k < 4; k++)
            if (t[k][1] != NONE && !b[t[k][0]] && TARGET_OK(t[k][1])) moves[n++] = XQ_MOVE(from, t[k][1]);
        break;
    }
    case XQ_HORSE: {
        const uint8_t(*t)[3] = HORSE_TO[from];
        for (int k = 0; k < 4; k++) {
            if (t[k][0] == NONE || b[t[k][0]]) continue;   /* leg off the board or blocked */
            if (t[k][1] != NONE && TARGET_OK(t[k][1])) moves[n++] = XQ_MOVE(from, t[k][1]);
            if (t[k][2] != NONE && TARGET_OK(t[k][2])) moves[n++] = XQ_MOVE(from, t[k][2]);
        }
        break;
    }
    case XQ_CHARIOT:
    case XQ_CANNON:
        n = gen_slider(pos, from, XQ_KIND(p) == XQ_CANNON, moves, n);
        break;
    case XQ_SOLDIER: {
        const uint8_t *t = SOLDIER_TO[c][from];
        for (int k = 0; k < 3; k++)
            if (t[k] != NONE && TARGET_OK(t[k])) moves[n++] = XQ_MOVE(from, t[k]);
        break;
    }
    default:
        break;
    }
#undef TARGET_OK
    return n;
}

/* Could pseudo-legal m, by the side to move, expose its own general?  Only
 * when the side is in check, the general moves, or the move leaves or
 * enters the general's file or rank (chariot, cannon screen, flying
 * general) or leaves a diagonal neighbour of the general (a horse leg).
 * All other moves are legal without a test. */
static inline bool needs_test(const xq_position *pos, xq_move m, bool in_check)
{
    if (in_check) return true;
    int g = pos->general[pos->side];
    if (g >= XQ_SQUARES) return false;   /* no general: nothing to expose */
    const uint8_t *rel = REL[g];
    return ((rel[XQ_FROM(m)] | rel[XQ_TO(m)]) & (R_LINES | R_SELF)) || (rel[XQ_FROM(m)] & R_LEG);
}

/* Is the general on g attacked along one direction of its file or rank?
 * m: the occupied squares beyond g that way, as line bits (bit i is square
 * base + stride * i), the nearest the lowest bit when `up`.  The nearest
 * piece attacks when it is `first` or `first2` (chariot; the other
 * general on a file), the next when it is `cannon`.  Square `hole` reads
 * as empty (the mover's target on the board before the move: an own piece
 * there, whatever it captured), -1 for none. */
ALWAYS_INLINE static inline bool line_attack(const xq_piece *b, unsigned m, bool up, int base, int stride, int hole,
                                             xq_piece first, xq_piece first2, xq_piece cannon)
{
    if (!m) return false;
    int i = up ? low_bit(m) : high_bit(m), sq = base + stride * i;
    xq_piece p = sq == hole ? XQ_NONE : b[sq];
    if (p == first || p == first2) return true;
    m ^= 1u << i;
    if (!m) return false;
    sq = base + stride * (up ? low_bit(m) : high_bit(m));
    return sq != hole && b[sq] == cannon;
}

/* The line part of the attack test on the general on g by e, in the
 * directions `lines` (R_NORTH ...) only; fo and ro are the masks of g's
 * file and rank on the board looked at, hole as for line_attack. */
ALWAYS_INLINE static inline bool lines_attack(const xq_piece *b, int g, xq_color e, unsigned fo, unsigned ro,
                                              unsigned lines, int hole)
{
    xq_piece chariot = XQ_PIECE(XQ_CHARIOT, e), cannon = XQ_PIECE(XQ_CANNON, e);
    xq_piece general = XQ_PIECE(XQ_GENERAL, e);
    int gf = xq_file_of[g], gr = xq_rank_of[g], r0 = g - gf;
    if ((lines & R_NORTH) && line_attack(b, fo & (~1u << gr), true, gf, 9, hole, chariot, general, cannon))
        return true;
    if ((lines & R_SOUTH) && line_attack(b, fo & ((1u << gr) - 1), false, gf, 9, hole, chariot, general, cannon))
        return true;
    if ((lines & R_EAST) && line_attack(b, ro & (~1u << gf), true, r0, 1, hole, chariot, chariot, cannon))
        return true;
    return (lines & R_WEST) && line_attack(b, ro & ((1u << gf) - 1), false, r0, 1, hole, chariot, chariot, cannon);
}

/* Does a horse of e on one of the two squares behind leg `leg` (a
 * diagonal neighbour of g) attack g over it?  The leg must be empty.
 * HORSE_ATTACK rows are NE, SE, NW, SW; an off-board horse square reads as
 * the leg, empty.  Square `hole` reads as empty, as for line_attack. */
static inline bool horse_behind(const xq_piece *b, int g, int leg, xq_color e, int hole)
{
    const uint8_t *h = HORSE_ATTACK[g][(xq_file_of[leg] < xq_file_of[g]) * 2 + (xq_rank_of[leg] < xq_rank_of[g])];
    xq_piece horse = XQ_PIECE(XQ_HORSE, e);
    return (h[1] != hole && b[h[1]] == horse) || (h[2] != hole && b[h[2]] == horse);
}

/* exposes_general for a side NOT in check, moving a piece other than a
 * general (not from or to the general's square): only what the move
 * changes can attack, so only the directions of the general's file and
 * rank that from or to lies on, and the horses behind from when from is
 * a leg (a diagonal neighbour).  No soldier, and no other line or leg,
 * can start attacking; the mover on `to` never attacks.  rf, rt: REL of
 * from and to as seen from g. */
static bool exposes_unchecked(const xq_position *pos, int from, int to, int g, unsigned rf, unsigned rt)
{
    const xq_piece *b = pos->board;
    xq_color e = (xq_color)(pos->side ^ 1);
    unsigned lines = (rf | rt) & R_LINES;
    if (lines) {
        unsigned fo = pos->file_occ[xq_file_of[g]], ro = pos->rank_occ[xq_rank_of[g]];
        if (rf & R_FILE) fo &= ~(unsigned)xq_file_bit[from];
        if (rt & R_FILE) fo |= xq_file_bit[to];
        if (rf & R_RANK) ro &= ~(unsigned)xq_rank_bit[from];
        if (rt & R_RANK) ro |= xq_rank_bit[to];
        if (lines_attack(b, g, e, fo, ro, lines, to)) return true;
    }
    /* from is a leg; `to` can be one of its horse squares, where the
     * mover takes whatever stood */
    return (rf & R_LEG) && horse_behind(b, g, from, e, to);
}

/* Does pseudo-legal m expose its general (exposes_general), given whether
 * the side to move is in check?  Not in check, a move of a piece other
 * than the general can only open what it touches (exposes_unchecked). */
static inline bool exposed_given(const xq_position *pos, xq_move m, bool in_check)
{
    int from = XQ_FROM(m), to = XQ_TO(m), g = pos->general[pos->side];
    if (!in_check && g < XQ_SQUARES && from != g && to != g && XQ_KIND(pos->board[from]) != XQ_GENERAL)
        return exposes_unchecked(pos, from, to, g, REL[g][from], REL[g][to]);
    return exposes_general(pos, from, to);
}

/* Is pseudo-legal m legal, given whether the side to move is in check? */
static inline bool legal_given(const xq_position *pos, xq_move m, bool in_check)
{
    return !needs_test(pos, m, in_check) || !exposed_given(pos, m, in_check);
}

/* --- Evasions: the moves that may lift a check ------------------------- */

/* What a move of a piece other than the general must do to lift one
 * check on its general g (CXA1999 §2.3, §3.1): take the attacker, or
 * stand between it and g (a chariot, a cannon, a flying general: the
 * squares between; a horse: its leg), or, for a cannon, take its screen
 * away.  A move that does none of these leaves that attacker attacking
 * (its line keeps its pieces, its leg stays empty), so it is illegal
 * whatever else it does: with several attackers, one of them tells.
 * to: the to-squares that may lift it (bit sq of word sq >> 6); screen:
 * the cannon's screen (a from-square that may lift it), or NONE. */
typedef struct {
    uint64_t to[2];
    int screen;
} evasion;

static inline void evasion_add(evasion *ev, int sq) { ev->to[sq >> 6] |= 1ull << (sq & 63); }

/* Each square of ray r from its first one to its k-th (0-based) into ev. */
static inline void evasion_ray(evasion *ev, const ray_row *r, int k)
{
    for (int i = 0; i <= k; i++) evasion_add(ev, r->sq[i]);
}

/* The evasions of one check on the general g of the side to move, by
 * colour e (the checks general_attacked finds: a chariot or, on the
 * file, the other general first on a line, a cannon second, a horse over
 * a free leg, a soldier); false when nothing attacks g (then no move is
 * ruled out).  Only a side in check asks, once per position. */
static bool evasion_find(const xq_position *pos, int g, xq_color e, evasion *ev)
{
    const xq_piece *b = pos->board;
    ev->to[0] = ev->to[1] = 0;
    ev->screen = NONE;
    for (unsigned d = 0; d < 4; d++) {
        const ray_row *r = &RAYS[g][d];
        unsigned rm = ray_occ(pos, r, 0);
        if (!rm) continue;
        int k1 = __builtin_ctz(rm);
        xq_piece p = b[r->sq[k1]];
        if (p == XQ_PIECE(XQ_CHARIOT, e) || p == XQ_PIECE(r->kind2, e)) {
            evasion_ray(ev, r, k1);
            return true;
        }
        rm &= rm - 1;
        if (rm && b[r->sq[__builtin_ctz(rm)]] == XQ_PIECE(XQ_CANNON, e)) {
            evasion_ray(ev, r, __builtin_ctz(rm));
            ev->screen = r->sq[k1];
            return true;
        }
    }
    for (int k = 0; k < 4; k++) {
        const uint8_t *h = HORSE_ATTACK[g][k];
        if (b[h[0]]) continue;   /* a leg blocked or off the board (read as g) */
        for (int j = 1; j <= 2; j++) {
            if (b[h[j]] != XQ_PIECE(XQ_HORSE, e)) continue;
            evasion_add(ev, h[j]);
            evasion_add(ev, h[0]);
            return true;
        }
    }
    const uint8_t *sa = SOLDIER_ATTACK[e][g];
    for (int k = 0; k < 3; k++) {
        if (sa[k] != NONE && b[sa[k]] == XQ_PIECE(XQ_SOLDIER, e)) {
            evasion_add(ev, sa[k]);
            return true;
        }
    }
    return false;
}

/* Whether pseudo-legal m may lift the check ev describes: a general's
 * move (tested in full), or a move onto one of its squares or of its
 * cannon's screen; false: m is illegal. */
static inline bool evasion_may(const xq_position *pos, const evasion *ev, xq_move m)
{
    int from = XQ_FROM(m), to = XQ_TO(m);
    return XQ_KIND(pos->board[from]) == XQ_GENERAL || (ev->to[to >> 6] >> (to & 63) & 1) || from == ev->screen;
}

/* The legal ones of the n pseudo-legal moves, in their order.  A side in
 * check: the moves that cannot lift one of its checks (evasion_may)
 * are dropped without the test of their general's safety (a copy of the
 * board and the full attack test each), most of them. */
static int filter_legal(const xq_position *pos, xq_move *moves, int n)
{
    bool chk = xq_in_check(pos, pos->side);
    evasion ev;
    int k = 0;
    if (chk && evasion_find(pos, pos->general[pos->side], (xq_color)(pos->side ^ 1), &ev)) {
        for (int i = 0; i < n; i++)
            if (evasion_may(pos, &ev, moves[i]) && legal_given(pos, moves[i], true)) moves[k++] = moves[i];
        return k;
    }
    /* not in check (or, on an impossible board, no attacker found): each move */
    for (int i = 0; i < n; i++)
        if (legal_given(pos, moves[i], chk)) moves[k++] = moves[i];
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

/* The full search of xq_has_legal_move: every pseudo-legal move of the
 * side to move until one is legal (chk: whether that side is in check). */
static bool has_legal_full(const xq_position *pos, bool chk)
{
    xq_move moves[XQ_MAX_MOVES];
    evasion ev;   /* in check: the moves that cannot lift it need no test (filter_legal) */
    bool sieve = chk && evasion_find(pos, pos->general[pos->side], (xq_color)(pos->side ^ 1), &ev);
    for (int sq = 0; sq < XQ_SQUARES; sq++) {
        xq_piece p = pos->board[sq];
        if (!p || XQ_COLOR(p) != pos->side) continue;
        int n = gen_piece(pos, sq, moves, 0);
        for (int i = 0; i < n; i++)
            if ((!sieve || evasion_may(pos, &ev, moves[i])) && legal_given(pos, moves[i], chk)) return true;
    }
    return false;
}

/* A one-step move of the piece on sq to an empty square that its geometry
 * allows (CXA1999 §2.2: a chariot or cannon one point along a line, a
 * soldier one point forward) and that leaves its general safe; the side
 * to move is not in check (xq_quiet_move_safe's premise). */
static bool step_is_legal(const xq_position *pos, int sq, xq_kind k, int file, int rank)
{
    const xq_piece *b = pos->board;
    if (k == XQ_SOLDIER) {
        int to = pos->side == XQ_RED ? sq + 9 : sq - 9;
        bool on = pos->side == XQ_RED ? rank < XQ_RANKS - 1 : rank > 0;
        return on && !b[to] && xq_quiet_move_safe(pos, sq, to);
    }
    if (k != XQ_CHARIOT && k != XQ_CANNON) return false;
    return (file < XQ_FILES - 1 && !b[sq + 1] && xq_quiet_move_safe(pos, sq, sq + 1)) ||
           (file > 0 && !b[sq - 1] && xq_quiet_move_safe(pos, sq, sq - 1)) ||
           (rank < XQ_RANKS - 1 && !b[sq + 9] && xq_quiet_move_safe(pos, sq, sq + 9)) ||
           (rank > 0 && !b[sq - 9] && xq_quiet_move_safe(pos, sq, sq - 9));
}

/* A legal one-step move of the general of the side to move (to any of
 * its four neighbours: xq_move_legality_known judges geometry, palace and
 * safety in full, CXA1999 §2.2, §3.1, §4.1.2): the usual answer to a
 * check.  in_check as xq_move_legality_known's. */
static bool general_can_step(const xq_position *pos, bool in_check)
{
    int g = pos->general[pos->side], file = XQ_FILE(g), rank = XQ_RANK(g);
    return (file < XQ_FILES - 1 && xq_move_legality_known(pos, XQ_MOVE(g, g + 1), in_check) == XQ_LEGAL) ||
           (file > 0 && xq_move_legality_known(pos, XQ_MOVE(g, g - 1), in_check) == XQ_LEGAL) ||
           (rank < XQ_RANKS - 1 && xq_move_legality_known(pos, XQ_MOVE(g, g + 9), in_check) == XQ_LEGAL) ||
           (rank > 0 && xq_move_legality_known(pos, XQ_MOVE(g, g - 9), in_check) == XQ_LEGAL);
}

/* xq_has_legal_move (position.h).  The first legal one of a few likely
 * moves answers: not in check, a one-step move of a chariot, cannon or
 * soldier to an empty point, the mover's pieces from its own back rank
 * forward (its chariots and cannons first, most often); then, and in
 * check, a step of the general.  A board where none is legal (mate,
 * stalemate: rare) or without both generals (nothing for the shortcuts
 * to stand on) takes the full search.  test_play_fast.c compares it with
 * xq_legal_moves. */
bool xq_has_legal_move(const xq_position *pos)
{
    return xq_has_legal_move_known(pos, xq_in_check(pos, pos->side));
}

/* xq_has_legal_move told the check state (position.h). */
bool xq_has_legal_move_known(const xq_position *pos, bool chk)
{
    if (pos->general[XQ_RED] >= XQ_SQUARES || pos->general[XQ_BLACK] >= XQ_SQUARES) return has_legal_full(pos, chk);
    if (!chk) {
        bool red = pos->side == XQ_RED;
        for (int i = 0; i < XQ_RANKS; i++) {
            int rank = red ? i : XQ_RANKS - 1 - i;
            for (unsigned occ = pos->rank_occ[rank]; occ; occ &= occ - 1) {
                int file = low_bit(occ), sq = XQ_SQ(file, rank);
                xq_piece p = pos->board[sq];
                if (XQ_COLOR(p) == pos->side && step_is_legal(pos, sq, XQ_KIND(p), file, rank)) return true;
            }
        }
    }
    return general_can_step(pos, chk) || has_legal_full(pos, chk);
}

/* --- Legality with reasons ---------------------------------------------- */

/* Pieces strictly between two squares on one file or rank: 0, 1, or 2
 * for two or more (all that the rules ask). */
static int pieces_between(const xq_position *pos, int from, int to)
{
    int ff = xq_file_of[from], fr = xq_rank_of[from], tf = xq_file_of[to], tr = xq_rank_of[to];
    unsigned occ = ff == tf ? pos->file_occ[ff] : pos->rank_occ[fr];
    int a = ff == tf ? fr : ff, z = ff == tf ? tr : tf;
    if (a > z) {
        int t = a;
        a = z;
        z = t;
    }
    unsigned m = occ & (~1u << a) & ((1u << z) - 1);
    return m == 0 ? 0 : (m & (m - 1)) == 0 ? 1 : 2;
}

/* The geometric part of legality: can piece p move from -> to on this
 * board, ignoring the safety of its own general? */
ALWAYS_INLINE static inline xq_illegal geometry(const xq_position *pos, int from, int to)
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
        if (b[(from + to) / 2]) return XQ_ILL_ELEPHANT_EYE;
        return own;
    case XQ_HORSE: {
        if (!((adf == 1 && adr == 2) || (adf == 2 && adr == 1))) return XQ_ILL_GEOMETRY;
        int leg = adf == 2 ? from + df / 2 : from + 9 * (dr / 2);
        if (b[leg]) return XQ_ILL_HORSE_LEG;
        return own;
    }
    case XQ_CHARIOT:
        if ((df != 0) == (dr != 0)) return XQ_ILL_GEOMETRY;
        if (pieces_between(pos, from, to)) return XQ_ILL_PATH_BLOCKED;
        return own;
    case XQ_CANNON: {
        if ((df != 0) == (dr != 0)) return XQ_ILL_GEOMETRY;
        if (own) return own;
        int between = pieces_between(pos, from, to);
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
    return pieces_between(pos, r, k) == 0;
}

/* Which of the two a move that exposes its general breaks (rare, so on a
 * copy): facing generals (§4.1.2) or an attacked general (§3.1). */
__attribute__((noinline)) static xq_illegal exposed_reason(const xq_position *pos, xq_move m)
{
    xq_position tmp = *pos;
    xq_undo u;
    xq_make(&tmp, m, &u);
    return generals_face(&tmp) ? XQ_ILL_GENERALS_FACE : XQ_ILL_LEAVES_CHECK;
}

/* The geometric part of xq_move_legality: the mover's piece, side and
 * geometry (CXA1999 §2.2-2.3); XQ_LEGAL when only its general's safety is
 * left to test. */
ALWAYS_INLINE static inline xq_illegal move_shape(const xq_position *pos, xq_move m)
{
    int from = XQ_FROM(m), to = XQ_TO(m);
    if (from >= XQ_SQUARES || to >= XQ_SQUARES || !pos->board[from]) return XQ_ILL_NO_PIECE;
    if (XQ_COLOR(pos->board[from]) != pos->side) return XQ_ILL_WRONG_SIDE;
    if (from == to) return XQ_ILL_GEOMETRY;
    return geometry(pos, from, to);
}

xq_illegal xq_move_legality(const xq_position *pos, xq_move m)
{
    xq_illegal why = move_shape(pos, m);
    if (why != XQ_LEGAL) return why;
    return exposes_general(pos, XQ_FROM(m), XQ_TO(m)) ? exposed_reason(pos, m) : XQ_LEGAL;
}

/* The own-general test of xq_move_legality_known when needs_test asks
 * for one (kept out of line: most moves need none). */
__attribute__((noinline)) static xq_illegal safety_known(const xq_position *pos, xq_move m, bool in_check)
{
    return exposed_given(pos, m, in_check) ? exposed_reason(pos, m) : XQ_LEGAL;
}

/* Known and not in check, a move that stays off its general's file, rank
 * and horse legs needs no test at all (needs_test).  A general always
 * takes the test: on a board with two generals of a side (xq_position_put
 * can make one) needs_test looks at the one general[] names only. */
xq_illegal xq_move_legality_known(const xq_position *pos, xq_move m, bool in_check)
{
    xq_illegal why = move_shape(pos, m);
    if (why != XQ_LEGAL) return why;
    bool test = needs_test(pos, m, in_check) || XQ_KIND(pos->board[XQ_FROM(m)]) == XQ_GENERAL;
    return test ? safety_known(pos, m, in_check) : XQ_LEGAL;
}

/* One direction of the general g's file or rank (dir: one R_ line bit):
 * m, the occupied squares beyond g that way as line bits (bit i is square
 * base + stride * i), nearest the lowest bit when up. */
typedef struct { unsigned m; int base, stride; bool up; } ray;

ALWAYS_INLINE static inline ray ray_of(const xq_position *pos, int g, unsigned dir)
{
    int gf = xq_file_of[g], gr = xq_rank_of[g];
    bool file = dir & R_FILE;
    unsigned occ = file ? pos->file_occ[gf] : pos->rank_occ[gr];
    int gi = file ? gr : gf;
    ray r = {0, file ? gf : g - gf, file ? 9 : 1, (dir & (R_NORTH | R_EAST)) != 0};
    r.m = r.up ? occ & (~1u << gi) : occ & ((1u << gi) - 1);
    return r;
}

/* The bit of square sq on g's line in direction dir (its rank on a file,
 * its file on a rank). */
static inline unsigned line_bit(unsigned dir, int sq)
{
    return dir & R_FILE ? xq_file_bit[sq] : xq_rank_bit[sq];
}

/* Does removing the mover's piece from `from` (on g's line in direction
 * dir) leave g attacked that way: a chariot (or on the file the other
 * general) first, a cannon second?  hole: a square that reads as holding
 * no attacker (the mover's target on this line, -1 for none). */
ALWAYS_INLINE static inline bool line_opened_dir(const xq_position *pos, int g, xq_color e, unsigned dir, int from,
                                                 int hole)
{
    ray r = ray_of(pos, g, dir);
    xq_piece chariot = XQ_PIECE(XQ_CHARIOT, e);
    return line_attack(pos->board, r.m & ~line_bit(dir, from), r.up, r.base, r.stride, hole, chariot,
                       dir & R_FILE ? XQ_PIECE(XQ_GENERAL, e) : chariot, XQ_PIECE(XQ_CANNON, e));
}

/* line_opened_dir with the direction a constant in each copy (the scan
 * then knows its stride and which end is nearest). */
ALWAYS_INLINE static inline bool line_opened(const xq_position *pos, int g, xq_color e, unsigned dir, int from,
                                             int hole)
{
    switch (dir) {
    case R_NORTH: return line_opened_dir(pos, g, e, R_NORTH, from, hole);
    case R_SOUTH: return line_opened_dir(pos, g, e, R_SOUTH, from, hole);
    case R_EAST: return line_opened_dir(pos, g, e, R_EAST, from, hole);
    default: return line_opened_dir(pos, g, e, R_WEST, from, hole);
    }
}

/* The parts of xq_quiet_move_safe past its first tests (board_tables.h's
 * xq_quiet_move_safe_inline calls them), out of line and each small, so
 * that the common case (a piece leaving a line: one scan) saves and
 * restores few registers. */
/* Does taking the mover's piece off `from` (on g's ray dir) leave g
 * attacked along that ray? */
static inline bool ray_opened(const xq_position *pos, int g, xq_color e, unsigned dir, int from)
{
    const ray_row *r = ray_row_of(g, dir);
    unsigned clear = dir & R_FILE ? xq_file_bit[from] : xq_rank_bit[from];
    return ray_attack(pos->board, r, ray_occ(pos, r, clear), e);
}

__attribute__((noinline)) bool xq_safe_opened_by(const xq_position *pos, int g, unsigned dir, int from)
{
    return ray_opened(pos, g, (xq_color)(pos->side ^ 1), dir, from);
}

__attribute__((noinline)) bool xq_safe_opened_by_capture(const xq_position *pos, int g, unsigned dir, int from,
                                                         int to)
{
    return line_opened(pos, g, (xq_color)(pos->side ^ 1), dir, from, to);
}

/* Does a piece put on the empty square `to` of g's ray dir (the mover's
 * from-square off that ray) make a screen for a cannon of e: nothing
 * between g and to, and a cannon of e the first piece beyond?  Nothing
 * else can start attacking that way: the first piece beyond to was no
 * chariot, the side not being in check, and a piece behind another one
 * moves no piece closer to g. */
static inline bool ray_screen_made(const xq_position *pos, int g, xq_color e, unsigned dir, int to)
{
    const ray_row *r = ray_row_of(g, dir);
    unsigned rm = ray_occ(pos, r, 0);
    int ti = dir & R_FILE ? xq_rank_of[to] : xq_file_of[to];
    unsigned below = (2u << (ti > r->line ? ti - r->line - 1 : r->line - ti - 1)) - 1;   /* to and nearer */
    if (!rm || (rm & below)) return false;   /* nothing beyond, or a piece between g and to */
    return pos->board[r->sq[__builtin_ctz(rm)]] == XQ_PIECE(XQ_CANNON, e);
}

/* A piece entering direction dt of g's lines on the empty square `to`
 * and leaving none of them nor a leg: ray_screen_made, as a leaf. */
__attribute__((noinline)) bool xq_safe_screen_made(const xq_position *pos, int g, unsigned dt, int to)
{
    return ray_screen_made(pos, g, (xq_color)(pos->side ^ 1), dt, to);
}

/* The rest: a piece entering a line (and maybe leaving another one, or a
 * leg). */
__attribute__((noinline)) bool xq_safe_exposed_rest(const xq_position *pos, int g, int from, int to, unsigned rf,
                                                    unsigned rt)
{
    xq_color e = (xq_color)(pos->side ^ 1);
    unsigned df = rf & R_LINES, dt = rt & R_LINES;
    if (df && ray_opened(pos, g, e, df, from)) return true;
    if (dt && !pos->board[to] && ray_screen_made(pos, g, e, dt, to)) return true;
    return (rf & R_LEG) && horse_behind(pos->board, g, from, e, to);
}

/* from or to is the general's square (only on impossible boards): the
 * full test on a copy (exposes_general), as exposed_given would. */
__attribute__((noinline)) bool xq_safe_exposes_general(const xq_position *pos, int from, int to)
{
    return exposes_general(pos, from, to);
}

/* The own-general part of xq_move_legality_known(pos, m, false) for a
 * mover that is not a general (so the "general always takes the test"
 * rule does not apply), by what the move changes on the general's lines
 * and legs, the side not being in check (every line held no attack):
 * - along one line without a capture (chariot, cannon or soldier: no
 *   jump, so the order of the pieces stays): that line is as it was;
 *   with a capture, from is gone and to holds an own piece (line_opened
 *   with to as its hole);
 * - leaving a line: the pieces beyond from come a place closer
 *   (line_opened);
 * - entering a line with a capture: every square keeps its occupancy and
 *   an enemy piece turns into an own one, which only takes attacks away;
 *   without one, the mover may become a cannon's screen
 *   (ray_screen_made);
 * - leaving a horse leg: the horses behind it (horse_behind; a horse the
 *   mover takes is gone).
 * test_move_read_quick.c compares it with xq_move_legality_known,
 * test_move_safety.c with xq_move_legality.  The body is
 * board_tables.h's xq_quiet_move_safe_inline, which the Chinese fast
 * path inlines. */
bool xq_quiet_move_safe(const xq_position *pos, int from, int to)
{
    return xq_quiet_move_safe_inline(pos, from, to);
}

/* --- Check state along a game -------------------------------------------- */

/* Is the side to move in pos in check, where pos arose by move m from a
 * position in which that side was not (xq_in_check false there)?  Then an
 * attack on its general g can only come from what m changed: the
 * directions of g's file and rank that from or to lies on (a line opened
 * or closed, the mover itself, a new cannon screen), the mover when it is
 * a horse a horse move away or a soldier next to g, the horses behind
 * from when from is a leg (a diagonal neighbour of g).  Every other part
 * of the attack test reads squares m did not touch, and was false before.
 * A move from or to g itself (only on impossible boards: a general
 * captured) takes the whole test.  Most moves touch none of these: two
 * table reads. */
static inline bool check_by_move(const xq_position *pos, xq_move m)
{
    int g = pos->general[pos->side];   /* none: a row of 0, no check (as xq_in_check) */
    unsigned rf = REL[g][XQ_FROM(m)] & (R_LINES | R_SELF | R_LEG), rt = REL[g][XQ_TO(m)] & (R_LINES | R_SELF | R_HORSE);
    return (rf | rt) && xq_play_check_moved(pos, m, g, rf | rt << 8);
}

/* The two commonest cases of xq_play_check_moved, as leaves (no stack
 * frame): the mover entered direction dt of g's file or rank, or moved
 * along it, and left none of g's other lines and legs (a soldier next to
 * g, then that ray, read after the move: it finds the mover as an
 * attacker, a screen it made, a piece it uncovered), or it left direction
 * df and entered none of them (that ray). */
static inline bool check_entered(const xq_position *pos, int g, int to, unsigned dt)
{
    xq_color e = (xq_color)(pos->side ^ 1);
    if (pos->board[to] == XQ_PIECE(XQ_SOLDIER, e)) {
        const uint8_t *sa = SOLDIER_ATTACK[e][g];
        if (sa[0] == to || sa[1] == to || sa[2] == to) return true;
    }
    const ray_row *r = ray_row_of(g, dt);
    return ray_attack(pos->board, r, ray_occ(pos, r, 0), e);
}

static inline bool check_opened(const xq_position *pos, int g, unsigned df)
{
    const ray_row *r = ray_row_of(g, df);
    return ray_attack(pos->board, r, ray_occ(pos, r, 0), (xq_color)(pos->side ^ 1));
}

__attribute__((noinline)) bool xq_play_check_entered(const xq_position *pos, int g, int to, unsigned dt)
{
    return check_entered(pos, g, to, dt);
}

__attribute__((noinline)) bool xq_play_check_opened(const xq_position *pos, int g, unsigned df)
{
    return check_opened(pos, g, df);
}

/* xq_play_check_entered and xq_play_check_opened storing their answer
 * in s (the side to move's entry) and returning out, the caller's own
 * result passed through: the Chinese fast path jumps here instead of
 * calling, so that no frame is set up around the call. */
__attribute__((noinline)) xq_played xq_play_entered_out(const xq_position *pos, int g, int to, unsigned dt,
                                                        xq_checks *s, xq_played out)
{
    s->in_check[pos->side] = check_entered(pos, g, to, dt);
    return out;
}

__attribute__((noinline)) xq_played xq_play_opened_out(const xq_position *pos, int g, unsigned df, xq_checks *s,
                                                       xq_played out)
{
    s->in_check[pos->side] = check_opened(pos, g, df);
    return out;
}

/* check_by_move when m touched g's lines, legs or horse squares (rel:
 * the REL bits of from that matter | those of to << 8; each square has
 * one bit at most).  The horse and soldier tests first (a few loads),
 * then each touched direction of g's file and rank read on the board
 * after m: it finds the mover as a chariot, cannon or flying general, a
 * screen it made, a line it opened; a move along one line takes one
 * scan.  The last scan is a tail call: no stack frame.  Out of line
 * (board_tables.h's xq_play_inline calls it); test_play_fast.c compares
 * it with xq_in_check. */
__attribute__((noinline)) bool xq_play_check_moved(const xq_position *pos, xq_move m, int g, unsigned rel)
{
    unsigned rf = rel & 0xFF, rt = rel >> 8;
    if ((rf | rt) & R_SELF) return xq_in_check(pos, pos->side);   /* a general was taken */
    const xq_piece *b = pos->board;
    xq_color e = (xq_color)(pos->side ^ 1);
    int from = XQ_FROM(m), to = XQ_TO(m);
    unsigned df = rf & R_LINES, dt = rt & R_LINES;
    if (rt & R_HORSE) {
        if (b[to] == XQ_PIECE(XQ_HORSE, e)) {
            /* its leg: the square next to it on its long side towards g */
            int tf = xq_file_of[to], tr = xq_rank_of[to], gf = xq_file_of[g], gr = xq_rank_of[g];
            int leg = ADIFF_(tr, gr) == 2 ? to + (gr > tr ? 9 : -9) : to + (gf > tf ? 1 : -1);
            if (!b[leg]) return true;
        }
    } else if (dt) {
        if (b[to] == XQ_PIECE(XQ_SOLDIER, e)) {
            const uint8_t *sa = SOLDIER_ATTACK[e][g];
            if (sa[0] == to || sa[1] == to || sa[2] == to) return true;
        }
        if (dt != df) {
            const ray_row *r = ray_row_of(g, dt);
            if (ray_attack(b, r, ray_occ(pos, r, 0), e)) return true;
        }
    }
    if (rf & R_LEG) return horse_behind(b, g, from, e, -1);
    if (!df) return false;
    const ray_row *r = ray_row_of(g, df);
    return ray_attack(b, r, ray_occ(pos, r, 0), e);
}

void xq_checks_init(xq_checks *s, const xq_position *pos)
{
    s->in_check[XQ_RED] = xq_in_check(pos, XQ_RED);
    s->in_check[XQ_BLACK] = xq_in_check(pos, XQ_BLACK);
}

void xq_checks_after(xq_checks *s, const xq_position *pos, xq_move m)
{
    xq_color side = pos->side, mover = (xq_color)(side ^ 1);
    /* legal: the mover's general is not attacked (xq_move_legality asked
     * exactly this, on this board) */
    s->in_check[mover] = false;
    /* already in check before m (only an impossible start): no premise */
    s->in_check[side] = s->in_check[side] ? xq_in_check(pos, side) : check_by_move(pos, m);
}

/* The end of xq_play when the side to move was in check before m (only
 * an impossible start gives that) or has no general: the full test (as
 * xq_checks_after; no general reads as not in check).  Out of line
 * (board_tables.h's xq_play_inline calls it). */
__attribute__((noinline)) xq_piece xq_play_check_full(const xq_position *pos, xq_checks *s, xq_piece cap)
{
    xq_color side = pos->side;
    s->in_check[side] = s->in_check[side] && xq_in_check(pos, side);
    return cap;
}

/* xq_play (position.h): the inline body of board_tables.h, which the
 * replay's fused read-and-play (xq_move_read_play) inlines too. */
xq_piece xq_play(xq_position *pos, xq_move m, xq_checks *s)
{
    return xq_play_inline(pos, m, s);
}

/* --- Perft -------------------------------------------------------------- */

/* The plain perft: every pseudo-legal move of a 90-square scan tested
 * with legal_given.  For boards the fast one does not take (see
 * perft_fast_ok): any board the FEN reader accepts. */
static uint64_t perft_plain(xq_position *pos, int depth)
{
    xq_move moves[XQ_MAX_MOVES];
    int n = 0;
    for (int sq = 0; sq < XQ_SQUARES; sq++) {
        xq_piece p = pos->board[sq];
        if (p && XQ_COLOR(p) == pos->side) n = gen_piece(pos, sq, moves, n);
    }
    bool chk = xq_in_check(pos, pos->side);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        if (!legal_given(pos, moves[i], chk)) continue;
        if (depth == 1) {
            total++;
            continue;
        }
        xq_undo u;
        xq_make(pos, moves[i], &u);
        total += perft_plain(pos, depth - 1);
        xq_unmake(pos, moves[i], &u);
    }
    return total;
}

/* The fast perft stands on three facts of a board with one general of
 * each side where the side not to move is not in check (perft_fast_ok),
 * which every legal move keeps: no general is ever taken, so general[]
 * names each side's only general; the side to move's check state after
 * a move is check_by_move's (the side was not in check before it); and a
 * move of a piece other than the general, the side to move not in check,
 * can expose its general g only through what it changes on g's file,
 * rank and horse legs (needs_test).  It keeps each side's pieces in
 * lists along the tree (perft_pieces: no 90-square scan) and finds per
 * node, once, the squares
 * where a piece would become the one screen of an enemy cannon facing g
 * and the pieces whose leaving g's rays lets an attack through
 * (perft_rays_of); then, at the leaves' parents, it counts the moves of
 * each piece off g's lines and legs without listing them (a chariot's
 * or cannon's quiet moves are a length along each ray) and tests the
 * others by what their piece stands on (perft_count_guarded).  A side in
 * check takes the evasion sieve of filter_legal.  test_perft.c compares
 * it with a count of xq_legal_moves on many boards. */
static bool perft_fast_ok(const xq_position *pos)
{
    int generals[2] = {0, 0};
    for (int sq = 0; sq < XQ_SQUARES; sq++) {
        xq_piece p = pos->board[sq];
        if (XQ_KIND(p) == XQ_GENERAL) generals[XQ_COLOR(p)]++;
    }
    for (int c = 0; c < 2; c++)   /* general[] names it (xq_make may leave a taken one's square) */
        if (generals[c] != 1 || pos->general[c] >= XQ_SQUARES ||
            pos->board[pos->general[c]] != XQ_PIECE(XQ_GENERAL, c))
            return false;
    return !xq_in_check(pos, (xq_color)(pos->side ^ 1));
}

/* A set of squares: bit sq of word sq >> 6. */
typedef struct { uint64_t w[2]; } sq_set;

static inline bool sq_set_has(const sq_set *s, int sq) { return s->w[sq >> 6] >> (sq & 63) & 1; }

/* What g's four rays hold for a side to move not in check, found once
 * per node.  screens: the empty squares between g and an enemy (colour
 * e) cannon that is the first piece on one of g's rays: a piece that
 * steps onto one (from off that ray) becomes the cannon's only screen,
 * and its general is in check; the only squares whose entering matters
 * (exposes_unchecked: a capture on g's line only takes attacks away).
 * pinned[d]: the squares of ray d (RAYS order) whose piece, taken off
 * the ray, lets an attack through (ray_opened): the first piece when
 * the second is a chariot (or on a file the other general) or the third
 * a cannon, the second when the third is a cannon (no attack stands
 * now, so none nearer); NONE for none. */
typedef struct {
    sq_set screens;
    uint8_t pinned[4][2];
} perft_rays;

static inline perft_rays perft_rays_of(const xq_position *pos, int g, xq_color e)
{
    const xq_piece *b = pos->board;
    perft_rays pr = {{{0, 0}}, {{NONE, NONE}, {NONE, NONE}, {NONE, NONE}, {NONE, NONE}}};
    xq_piece cannon = XQ_PIECE(XQ_CANNON, e), chariot = XQ_PIECE(XQ_CHARIOT, e);
    for (unsigned d = 0; d < 4; d++) {
        const ray_row *r = &RAYS[g][d];
        unsigned rm = ray_occ(pos, r, 0);
        if (!rm) continue;
        int k1 = __builtin_ctz(rm), s1 = r->sq[k1];
        if (b[s1] == cannon)
            for (int i = 0; i < k1; i++) pr.screens.w[r->sq[i] >> 6] |= 1ull << (r->sq[i] & 63);
        rm &= rm - 1;
        if (!rm) continue;
        int s2 = r->sq[__builtin_ctz(rm)];
        rm &= rm - 1;
        bool third_cannon = rm && b[r->sq[__builtin_ctz(rm)]] == cannon;
        if (b[s2] == chariot || b[s2] == XQ_PIECE(r->kind2, e) || third_cannon) pr.pinned[d][0] = (uint8_t)s1;
        if (third_cannon) pr.pinned[d][1] = (uint8_t)s2;
    }
    return pr;
}

/* Does taking the piece on from (on g's ray `line`) off that ray let an
 * attack through?  ray_opened, read from pr. */
static inline bool perft_opened(const perft_rays *pr, unsigned line, int from)
{
    const uint8_t *p = pr->pinned[__builtin_ctz(line)];
    return p[0] == from || p[1] == from;
}

/* Is square sq empty or an enemy of colour c (a target a move may end
 * on)?  b - 8c - 1 lies in 0..6 exactly for c's own pieces. */
static inline bool perft_target(const xq_piece *b, int sq, xq_color c)
{
    return (unsigned)(b[sq] - (c << 3) - 1) >= 7u;
}

/* The moves of a chariot or cannon on from along its four rays, counted:
 * the empty squares up to the first piece or the edge, and a capture of
 * the first piece met (chariot) or the second (cannon) when it is not
 * of colour c. */
static inline int perft_count_slider(const xq_position *pos, int from, xq_color c, bool cannon)
{
    const xq_piece *b = pos->board;
    int f = xq_file_of[from], r = xq_rank_of[from], r0 = from - f;
    line_hits v = scan_line(pos->file_occ[f], r), h = scan_line(pos->rank_occ[r], f);
    int n = (v.up1 < 0 ? 9 - r : v.up1 - r - 1) + (r - v.down1 - 1) + (h.up1 < 0 ? 8 - f : h.up1 - f - 1) +
            (f - h.down1 - 1);
    int vu = cannon ? v.up2 : v.up1, vd = cannon ? v.down2 : v.down1;
    int hu = cannon ? h.up2 : h.up1, hd = cannon ? h.down2 : h.down1;
    n += vu >= 0 && perft_target(b, f + 9 * vu, c);
    n += vd >= 0 && perft_target(b, f + 9 * vd, c);
    n += hu >= 0 && perft_target(b, r0 + hu, c);
    n += hd >= 0 && perft_target(b, r0 + hd, c);
    return n;
}

/* The pseudo-legal moves of the piece p (not a general) on from,
 * counted: gen_piece's, without the list. */
ALWAYS_INLINE static inline int perft_count_free(const xq_position *pos, int from, xq_piece p)
{
    const xq_piece *b = pos->board;
    xq_color c = XQ_COLOR(p);
    int n = 0;
    switch (XQ_KIND(p)) {
    case XQ_ADVISOR: {
        const uint8_t *t = xq_advisor_to[c][from];
        for (int k = 0; k < 4; k++) n += t[k] != NONE && perft_target(b, t[k], c);
        return n;
    }
    case XQ_ELEPHANT: {
        const uint8_t(*t)[2] = ELEPHANT_TO[c][from];
        for (int k = 0; k < 4; k++) n += t[k][1] != NONE && !b[t[k][0]] && perft_target(b, t[k][1], c);
        return n;
    }
    case XQ_HORSE: {
        const uint8_t(*t)[3] = HORSE_TO[from];
        for (int k = 0; k < 4; k++) {
            if (t[k][0] == NONE || b[t[k][0]]) continue;   /* leg off the board or blocked */
            n += t[k][1] != NONE && perft_target(b, t[k][1], c);
            n += t[k][2] != NONE && perft_target(b, t[k][2], c);
        }
        return n;
    }
    case XQ_CHARIOT: return perft_count_slider(pos, from, c, false);
    case XQ_CANNON: return perft_count_slider(pos, from, c, true);
    case XQ_SOLDIER: {
        const uint8_t *t = SOLDIER_TO[c][from];
        for (int k = 0; k < 3; k++) n += t[k] != NONE && perft_target(b, t[k], c);
        return n;
    }
    default: return 0;
    }
}

/* The quiet moves of a slider on line index i (of a mask whose hits
 * are h) along that line: the empty squares up to the first piece or
 * the edge (edge: the line's length) either way. */
static inline int perft_quiet_along(line_hits h, int i, int edge)
{
    return (h.up1 < 0 ? edge - i - 1 : h.up1 - i - 1) + (i - h.down1 - 1);
}

/* The legal moves of a chariot or cannon on from, which stands on ray
 * `line` of g (the side to move not in check, no screen squares): its
 * quiet moves along the ray's line keep the ray's order (legal); its
 * moves across it leave the ray, legal unless taking it off opens an
 * attack (opened); a capture along the line that stays on the ray takes
 * the full test, one that jumps over g (a cannon) leaves it. */
static int perft_count_line_slider(const xq_position *pos, int from, xq_color c, bool cannon, int g, unsigned line,
                                   bool opened)
{
    const xq_piece *b = pos->board;
    int f = xq_file_of[from], r = xq_rank_of[from], r0 = from - f;
    line_hits v = scan_line(pos->file_occ[f], r), h = scan_line(pos->rank_occ[r], f);
    bool file = line & R_FILE;
    int n = file ? perft_quiet_along(v, r, 10) : perft_quiet_along(h, f, 9);
    if (!opened) {
        n += file ? perft_quiet_along(h, f, 9) : perft_quiet_along(v, r, 10);
        int xu = file ? (cannon ? h.up2 : h.up1) : (cannon ? v.up2 : v.up1);
        int xd = file ? (cannon ? h.down2 : h.down1) : (cannon ? v.down2 : v.down1);
        n += xu >= 0 && perft_target(b, file ? r0 + xu : f + 9 * xu, c);
        n += xd >= 0 && perft_target(b, file ? r0 + xd : f + 9 * xd, c);
    }
    int au = file ? (cannon ? v.up2 : v.up1) : (cannon ? h.up2 : h.up1);
    int ad = file ? (cannon ? v.down2 : v.down1) : (cannon ? h.down2 : h.down1);
    int targets[2] = {au < 0 ? -1 : file ? f + 9 * au : r0 + au, ad < 0 ? -1 : file ? f + 9 * ad : r0 + ad};
    for (int k = 0; k < 2; k++) {
        int t = targets[k];
        if (t < 0 || !perft_target(b, t, c)) continue;
        n += (REL[g][t] & R_LINES) == line ? !exposed_given(pos, XQ_MOVE(from, t), false) : !opened;
    }
    return n;
}

/* The legal ones of the piece on from, which stands on g's lines or legs
 * or is the general (rf: REL[g][from] & (R_LINES | R_LEG | R_SELF)), or
 * any piece when some squares make a cannon screen (screens); the side to
 * move not in check.  A piece on ray rf: a quiet move along that ray
 * keeps the ray's order (legal); any other move leaves it, legal when
 * taking the piece off the ray opens no attack (perft_opened) and it makes no screen elsewhere; a capture along the ray takes
 * the full test.  A horse, elephant or advisor never moves along a ray,
 * so without screens all its moves are legal or none; a chariot's or
 * cannon's are counted by direction (perft_count_line_slider).  A leg: legal
 * unless it makes a screen when no enemy horse stands behind it (else
 * the full test).  The general: the full test. */
static int perft_count_guarded(const xq_position *pos, int from, xq_piece p, int g, unsigned rf,
                               const perft_rays *pr, bool any)
{
    const xq_piece *b = pos->board;
    xq_color e = (xq_color)(pos->side ^ 1);
    unsigned line = rf & R_LINES;
    bool full = (rf & R_SELF) || ((rf & R_LEG) && horse_behind(b, g, from, e, -1));
    bool opened = line && perft_opened(pr, line, from);
    if (!full && !any) {
        xq_kind k = XQ_KIND(p);
        if (!line) return perft_count_free(pos, from, p);   /* a leg with no horse behind */
        if (k == XQ_HORSE || k == XQ_ELEPHANT || k == XQ_ADVISOR) return opened ? 0 : perft_count_free(pos, from, p);
        if (k == XQ_CHARIOT || k == XQ_CANNON)
            return perft_count_line_slider(pos, from, XQ_COLOR(p), k == XQ_CANNON, g, line, opened);
    }
    xq_move moves[32];   /* a piece has at most 17 moves */
    int k = gen_piece(pos, from, moves, 0), n = 0;
    if (full) {
        for (int i = 0; i < k; i++) n += !exposed_given(pos, moves[i], false);
        return n;
    }
    for (int i = 0; i < k; i++) {
        int to = XQ_TO(moves[i]);
        if (line && (REL[g][to] & R_LINES) == line)
            n += !b[to] || !exposed_given(pos, moves[i], false);
        else
            n += !opened && !sq_set_has(&pr->screens, to);
    }
    return n;
}

/* The squares of each side's pieces, kept along perft's tree (the
 * mover's pieces without a scan of the board): sq[c][0..n[c]-1] in no
 * particular order, at[s] the index of the piece on s in its side's
 * list.  Sized for any board (a side may have 90 pieces). */
typedef struct {
    uint8_t sq[2][XQ_SQUARES];
    uint8_t n[2];
    uint8_t at[XQ_SQUARES];
} perft_pieces;

static void perft_pieces_init(perft_pieces *pl, const xq_position *pos)
{
    pl->n[0] = pl->n[1] = 0;
    for (int s = 0; s < XQ_SQUARES; s++) {
        xq_piece p = pos->board[s];
        if (!p) continue;
        xq_color c = XQ_COLOR(p);
        pl->at[s] = pl->n[c];
        pl->sq[c][pl->n[c]++] = (uint8_t)s;
    }
}

/* m, by colour c, is about to be made on board b: move its piece in the
 * list, and take out the piece it captures (the last one of that side
 * fills its place).  Returns the captured piece's index (perft_pieces_unmake
 * puts it back there), or -1 for no capture. */
static inline int perft_pieces_make(perft_pieces *pl, const xq_piece *b, xq_color c, xq_move m)
{
    int from = XQ_FROM(m), to = XQ_TO(m), i = pl->at[from], j = -1;
    if (b[to]) {
        xq_color e = (xq_color)(c ^ 1);
        j = pl->at[to];
        int last = pl->sq[e][--pl->n[e]];
        pl->sq[e][j] = (uint8_t)last;
        pl->at[last] = (uint8_t)j;
    }
    pl->sq[c][i] = (uint8_t)to;
    pl->at[to] = (uint8_t)i;
    return j;
}

/* Undo perft_pieces_make of m by c, which returned j: the piece back on
 * from, the captured one back at index j on to, its filler at the end. */
static inline void perft_pieces_unmake(perft_pieces *pl, xq_color c, xq_move m, int j)
{
    int from = XQ_FROM(m), to = XQ_TO(m), i = pl->at[to];
    pl->sq[c][i] = (uint8_t)from;
    pl->at[from] = (uint8_t)i;
    if (j >= 0) {
        xq_color e = (xq_color)(c ^ 1);
        int last = pl->sq[e][j], n = pl->n[e]++;
        pl->sq[e][n] = (uint8_t)last;
        pl->at[last] = (uint8_t)n;
        pl->sq[e][j] = (uint8_t)to;
        pl->at[to] = (uint8_t)j;
    }
}

/* The legal moves of the side to move, counted (perft's leaves' parents);
 * chk: whether it is in check. */
static int perft_count(const xq_position *pos, const perft_pieces *pl, bool chk)
{
    const xq_piece *b = pos->board;
    xq_color c = pos->side;
    int g = pos->general[c], n = 0, pieces = pl->n[c];
    const uint8_t *own = pl->sq[c];
    if (chk) {
        xq_move moves[XQ_MAX_MOVES];
        int k = 0;
        for (int i = 0; i < pieces; i++) k = gen_piece(pos, own[i], moves, k);
        evasion ev;
        bool sieve = evasion_find(pos, g, (xq_color)(c ^ 1), &ev);
        for (int i = 0; i < k; i++)
            n += (!sieve || evasion_may(pos, &ev, moves[i])) && !exposes_general(pos, XQ_FROM(moves[i]), XQ_TO(moves[i]));
        return n;
    }
    perft_rays pr = perft_rays_of(pos, g, (xq_color)(c ^ 1));
    bool any = (pr.screens.w[0] | pr.screens.w[1]) != 0;
    const uint8_t *rel = REL[g];
    for (int i = 0; i < pieces; i++) {
        int sq = own[i];
        unsigned rf = rel[sq] & (R_LINES | R_LEG | R_SELF);
        n += rf || any ? perft_count_guarded(pos, sq, b[sq], g, rf, &pr, any) : perft_count_free(pos, sq, b[sq]);
    }
    return n;
}

/* The legal moves of the side to move into moves (chk: whether it is in
 * check), as filter_legal finds them. */
static int perft_list(const xq_position *pos, const perft_pieces *pl, bool chk, xq_move *moves)
{
    xq_color c = pos->side;
    int n = 0, k = 0;
    for (int i = 0; i < pl->n[c]; i++) n = gen_piece(pos, pl->sq[c][i], moves, n);
    evasion ev;
    bool sieve = chk && evasion_find(pos, pos->general[c], (xq_color)(c ^ 1), &ev);
    for (int i = 0; i < n; i++)
        if ((!sieve || evasion_may(pos, &ev, moves[i])) && legal_given(pos, moves[i], chk)) moves[k++] = moves[i];
    return k;
}

/* Perft of depth >= 1 on a board perft_fast_ok accepts, the side to
 * move's check state chk, its pieces pl. */
static uint64_t perft_fast(xq_position *pos, perft_pieces *pl, int depth, bool chk)
{
    if (depth == 1) return (uint64_t)perft_count(pos, pl, chk);
    xq_move moves[XQ_MAX_MOVES];
    int n = perft_list(pos, pl, chk, moves);
    xq_color c = pos->side;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        xq_move m = moves[i];
        int j = perft_pieces_make(pl, pos->board, c, m);
        xq_undo u;
        xq_make(pos, m, &u);
        total += perft_fast(pos, pl, depth - 1, check_by_move(pos, m));
        xq_unmake(pos, m, &u);
        perft_pieces_unmake(pl, c, m, j);
    }
    return total;
}

uint64_t xq_perft(xq_position *pos, int depth)
{
    if (depth <= 0) return 1;
    if (!perft_fast_ok(pos)) return perft_plain(pos, depth);
    perft_pieces pl;
    perft_pieces_init(&pl, pos);
    return perft_fast(pos, &pl, depth, xq_in_check(pos, pos->side));
}
