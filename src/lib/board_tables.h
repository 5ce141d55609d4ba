/* board_tables.h - constant geometry shared by the rules core (internal).
 * Files and ranks of each square, their bits in the occupancy masks,
 * palace and river tests (CXA1999 §1.1). */
#ifndef XQ_BOARD_TABLES_H
#define XQ_BOARD_TABLES_H

#include <stddef.h>

#include "position.h"

#define XQ_R9_(r) r, r, r, r, r, r, r, r, r
#define XQ_F9_ 0, 1, 2, 3, 4, 5, 6, 7, 8
static const uint8_t xq_rank_of[XQ_SQUARES] = {
    XQ_R9_(0), XQ_R9_(1), XQ_R9_(2), XQ_R9_(3), XQ_R9_(4),
    XQ_R9_(5), XQ_R9_(6), XQ_R9_(7), XQ_R9_(8), XQ_R9_(9)};
static const uint8_t xq_file_of[XQ_SQUARES] = {
    XQ_F9_, XQ_F9_, XQ_F9_, XQ_F9_, XQ_F9_, XQ_F9_, XQ_F9_, XQ_F9_, XQ_F9_, XQ_F9_};
/* The bit of each square in its rank's mask (1 << file) and in its file's
 * mask (1 << rank): xq_position's rank_occ and file_occ. */
#define XQ_B9_ 1, 2, 4, 8, 16, 32, 64, 128, 256
static const uint16_t xq_rank_bit[XQ_SQUARES] = {
    XQ_B9_, XQ_B9_, XQ_B9_, XQ_B9_, XQ_B9_, XQ_B9_, XQ_B9_, XQ_B9_, XQ_B9_, XQ_B9_};
static const uint16_t xq_file_bit[XQ_SQUARES] = {
    XQ_R9_(1), XQ_R9_(2), XQ_R9_(4), XQ_R9_(8), XQ_R9_(16),
    XQ_R9_(32), XQ_R9_(64), XQ_R9_(128), XQ_R9_(256), XQ_R9_(512)};
#undef XQ_B9_
#undef XQ_R9_
#undef XQ_F9_

/* Zobrist keys by piece (0..15) and square, defined in position.c
 * (xq_zobrist reads one); the key of Black to move. */
extern const uint64_t xq_zobrist_table[16][XQ_SQUARES];
#define XQ_ZOBRIST_BLACK 0x6A09E667F3BCC909ull

/* Each square's place in the occupancy masks and the file-major board,
 * in one row of 8 bytes so that a make reads one table: where its
 * rank's mask and its file's mask lie in xq_position (in bytes: then
 * xq_occ_flip is one xor into memory each, where an index into
 * rank_occ[] took two more instructions), bit in its rank's mask (1 <<
 * file), bit in its file's mask (1 << rank), index in xq_position.fboard
 * (file * 10 + rank). */
typedef struct { uint8_t rank_at, file_at; uint16_t rank_bit, file_bit; uint8_t fsq; } xq_sq_occ;
#define XQ_SQO_(s) {(uint8_t)(offsetof(xq_position, rank_occ) + 2 * ((s) / 9)),                                  \
                    (uint8_t)(offsetof(xq_position, file_occ) + 2 * ((s) % 9)), 1u << ((s) % 9), 1u << ((s) / 9), \
                    (s) % 9 * 10 + (s) / 9}
#define XQ_SQO9_(b) XQ_SQO_((b) + 0), XQ_SQO_((b) + 1), XQ_SQO_((b) + 2), XQ_SQO_((b) + 3), XQ_SQO_((b) + 4), \
                    XQ_SQO_((b) + 5), XQ_SQO_((b) + 6), XQ_SQO_((b) + 7), XQ_SQO_((b) + 8)
static const xq_sq_occ xq_sq_occ_of[XQ_SQUARES] = {
    XQ_SQO9_(0), XQ_SQO9_(9), XQ_SQO9_(18), XQ_SQO9_(27), XQ_SQO9_(36),
    XQ_SQO9_(45), XQ_SQO9_(54), XQ_SQO9_(63), XQ_SQO9_(72), XQ_SQO9_(81)};
#undef XQ_SQO9_
#undef XQ_SQO_
_Static_assert(offsetof(xq_position, file_occ) + 2 * XQ_FILES <= 256 &&
                   offsetof(xq_position, rank_occ) + 2 * XQ_RANKS <= 256,
               "xq_sq_occ: the masks' byte places fit in a byte");

/* Flip square sq between occupied and empty in the rank and file masks. */
static inline void xq_occ_flip(xq_position *pos, int sq)
{
    const xq_sq_occ *o = &xq_sq_occ_of[sq];
    *(uint16_t *)(void *)((unsigned char *)pos + o->rank_at) ^= o->rank_bit;
    *(uint16_t *)(void *)((unsigned char *)pos + o->file_at) ^= o->file_bit;
}

/* Mark square sq occupied or empty in the rank and file masks. */
static inline void xq_occ_set(xq_position *pos, int sq)
{
    pos->rank_occ[xq_rank_of[sq]] |= xq_rank_bit[sq];
    pos->file_occ[xq_file_of[sq]] |= xq_file_bit[sq];
}

static inline void xq_occ_clear(xq_position *pos, int sq)
{
    pos->rank_occ[xq_rank_of[sq]] &= (uint16_t)~xq_rank_bit[sq];
    pos->file_occ[xq_file_of[sq]] &= (uint16_t)~xq_file_bit[sq];
}

/* xq_make_known for a mover p that is not a general (the general squares
 * stay): the Chinese fast path, whose plan for a desc says so, saves the
 * test. */
__attribute__((always_inline)) static inline xq_piece xq_make_known_plain(xq_position *pos, int from, int to,
                                                                          xq_piece p, xq_piece cap)
{
    uint64_t k = pos->key ^ xq_zobrist_table[p & 15][from] ^ xq_zobrist_table[p & 15][to] ^ XQ_ZOBRIST_BLACK;
    if (cap) {
        k ^= xq_zobrist_table[cap & 15][to];
        pos->halfmove = 0;
    } else {
        pos->halfmove++;
        /* a capture leaves to occupied; a quiet move fills it */
        xq_occ_flip(pos, to);
    }
    pos->board[to] = p;
    pos->board[from] = XQ_NONE;
    pos->fboard[xq_sq_occ_of[to].fsq] = p;
    pos->fboard[xq_sq_occ_of[from].fsq] = XQ_NONE;
    xq_occ_flip(pos, from);   /* occupied before: now empty */
    pos->fullmove += pos->side;   /* after Black's move (XQ_BLACK is 1) */
    pos->side = (xq_color)(pos->side ^ 1);
    pos->key = k;
    return cap;
}

/* xq_make_core for a caller that knows the move's squares and pieces
 * (the Chinese fast path has read them): p = board[from] (a piece),
 * cap = board[to] (XQ_NONE or the other side's piece).  Play them
 * (board, file-major board, masks, general square, key, counters, side)
 * and return cap. */
__attribute__((always_inline)) static inline xq_piece xq_make_known(xq_position *pos, int from, int to, xq_piece p,
                                                                    xq_piece cap)
{
    if (XQ_KIND(p) == XQ_GENERAL) pos->general[XQ_COLOR(p)] = (uint8_t)to;
    return xq_make_known_plain(pos, from, to, p, cap);
}

/* xq_make without the undo record: play pseudo-legal m (board, masks,
 * general square, key, counters, side); returns the piece it captured
 * (XQ_NONE for none).  Inline for the per-ply callers (xq_make, and
 * xq_play, which a replay calls once per move). */
__attribute__((always_inline)) static inline xq_piece xq_make_core(xq_position *pos, xq_move m)
{
    int from = XQ_FROM(m), to = XQ_TO(m);
    return xq_make_known(pos, from, to, pos->board[from], pos->board[to]);
}

/* Where square s lies as seen from a general on g (movegen.c's REL
 * table, xq_rel[g][s]: one bit at most): on g's file north (higher
 * ranks) or south, on its rank east (higher files) or west, g itself, a
 * diagonal neighbour (a horse leg), a horse move away; 0 elsewhere.
 * A row for every value of a general square (uint8_t), the rows from 90
 * on all 0: for a side without a general (square 0xFF, impossible
 * boards only) every square reads as off its lines, which is what the
 * per-ply tests answer for it (nothing to expose, no check), so they
 * need no test of the square first. */
enum {
    XQ_REL_NORTH = 1, XQ_REL_SOUTH = 2, XQ_REL_EAST = 4, XQ_REL_WEST = 8,
    XQ_REL_SELF = 16, XQ_REL_LEG = 32, XQ_REL_HORSE = 64, XQ_REL_LINES = 15
};
enum { XQ_REL_ROWS = 256 };
extern const uint8_t xq_rel[XQ_REL_ROWS][XQ_SQUARES];

/* The horses that attack a general on s (movegen.c's HORSE_ATTACK):
 * per diagonal neighbour (NE, SE, NW, SW) {that leg, the two horse
 * squares beyond it}; an off-board leg reads as s itself, an off-board
 * horse square as its leg (no bounds test in the attack tests). */
extern const uint8_t xq_horse_attack[XQ_SQUARES][4][3];

/* The steps of a general (north, south, east, west) and of an advisor
 * (NE, SE, NW, SW) of colour c from each square that stay in c's palace
 * (files d..f, ranks 0..2 for Red, 7..9 for Black; CXA1999 §2.2), 0xFF
 * for the others (movegen.c; the judge's searches use them too). */
extern const uint8_t xq_general_to[2][XQ_SQUARES][4];
extern const uint8_t xq_advisor_to[2][XQ_SQUARES][4];

/* The out-of-line parts of xq_quiet_move_safe_inline (movegen.c): a
 * line of the general g in direction dir (XQ_REL_NORTH ...) that the
 * mover leaves, without or with a capture on it (to); a piece entering a
 * line or leaving a leg; a move from or to g itself; a piece entering
 * direction dt of g's lines on the empty square to, and nothing else (a
 * new cannon screen?). */
bool xq_safe_opened_by(const xq_position *pos, int g, unsigned dir, int from);
bool xq_safe_opened_by_capture(const xq_position *pos, int g, unsigned dir, int from, int to);
bool xq_safe_exposed_rest(const xq_position *pos, int g, int from, int to, unsigned rf, unsigned rt);
bool xq_safe_screen_made(const xq_position *pos, int g, unsigned dt, int to);
bool xq_safe_exposes_general(const xq_position *pos, int from, int to);

/* xq_quiet_move_safe (position.h, which says what it answers and why)
 * inline, for the per-ply caller (the Chinese fast path): most moves
 * touch none of the general's lines and leave none of its horse legs, so
 * they cannot expose it (two table reads); the rest by what the move
 * changes on the line it leaves or enters, out of line. */
__attribute__((always_inline)) static inline bool xq_quiet_move_safe_inline(const xq_position *pos, int from,
                                                                            int to)
{
    int g = pos->general[pos->side];   /* no general: a row of 0, nothing to expose */
    unsigned rf = xq_rel[g][from], rt = xq_rel[g][to];
    if (!((rf | rt) & (XQ_REL_LINES | XQ_REL_SELF)) && !(rf & XQ_REL_LEG)) return true;
    if ((rf | rt) & XQ_REL_SELF) return !xq_safe_exposes_general(pos, from, to);
    unsigned df = rf & XQ_REL_LINES, dt = rt & XQ_REL_LINES;
    /* along one line: unchanged, or from gone and to an own piece */
    if (df && df == dt) return !pos->board[to] || !xq_safe_opened_by_capture(pos, g, df, from, to);
    if (df && !dt) return !xq_safe_opened_by(pos, g, df, from);   /* from on a line is no leg */
    /* only entering a line (rf is 0, so dt is not): a capture there
     * keeps every square's occupancy and only takes an attacker away */
    if (!rf) return pos->board[to] || !xq_safe_screen_made(pos, g, dt, to);
    return !xq_safe_exposed_rest(pos, g, from, to, rf, rt);
}

/* The out-of-line parts of xq_play_inline (movegen.c): the full check
 * test (the side to move was in check before m, or has no general), and
 * check_by_move's look at the lines and legs m touched (g: the general of
 * the side now to move; rel = the REL bits of from | those of to << 8),
 * with its two commonest cases apart (m entered direction dt of g's lines,
 * or moved along it, and touched nothing else; or left direction df and
 * touched nothing else): true when that side is in check. */
xq_piece xq_play_check_full(const xq_position *pos, xq_checks *s, xq_piece cap);
bool xq_play_check_moved(const xq_position *pos, xq_move m, int g, unsigned rel);
bool xq_play_check_entered(const xq_position *pos, int g, int to, unsigned dt);
bool xq_play_check_opened(const xq_position *pos, int g, unsigned df);

/* xq_play_check_entered and xq_play_check_opened for a caller that
 * jumps to them with its result out in hand: each stores its answer in
 * s->in_check[pos->side] and returns out unchanged. */
xq_played xq_play_entered_out(const xq_position *pos, int g, int to, unsigned dt, xq_checks *s, xq_played out);
xq_played xq_play_opened_out(const xq_position *pos, int g, unsigned df, xq_checks *s, xq_played out);

/* The second half of xq_play_known, for a caller that has made the move
 * from -> to (capturing cap) itself: the check state of the side now to
 * move (pos is the position after the move, which was legal where *s
 * described the position before it); returns cap. */
__attribute__((always_inline)) static inline xq_piece xq_play_check_after(const xq_position *pos, int from, int to,
                                                                          xq_piece cap, xq_checks *s)
{
    xq_color side = pos->side;
    s->in_check[side ^ 1] = false;   /* legal: the mover is not in check */
    int g = pos->general[side];   /* none: a row of 0 (xq_rel), no check */
    if (s->in_check[side]) return xq_play_check_full(pos, s, cap);
    /* check_by_move's first test here: most moves touch no line or leg
     * of the general (in_check[side] then stays false) */
    unsigned rf = xq_rel[g][from] & (XQ_REL_LINES | XQ_REL_SELF | XQ_REL_LEG),
             rt = xq_rel[g][to] & (XQ_REL_LINES | XQ_REL_SELF | XQ_REL_HORSE);
    if (!(rf | rt)) return cap;
    /* a line entered (or a move along it) or left, nothing else: a leaf
     * each; the rest */
    if ((rt & XQ_REL_LINES) && (!rf || rf == rt)) s->in_check[side] = xq_play_check_entered(pos, g, to, rt);
    else if (!rt && (rf & XQ_REL_LINES)) s->in_check[side] = xq_play_check_opened(pos, g, rf);
    else s->in_check[side] = xq_play_check_moved(pos, XQ_MOVE(from, to), g, rf | rt << 8);
    return cap;
}

/* xq_play (position.h: xq_make and xq_checks_after in one step) inline,
 * for a caller that knows the move's squares and pieces (as
 * xq_make_known takes them: the Chinese fast path, which has read them
 * and need not pack them into a move and load them again): make the
 * move, then the check state of the side now to move, which most moves
 * leave false after two table reads (the move touches none of its
 * general's lines, legs or horse squares); returns cap. */
__attribute__((always_inline)) static inline xq_piece xq_play_known(xq_position *pos, int from, int to, xq_piece p,
                                                                    xq_piece cap, xq_checks *s)
{
    xq_make_known(pos, from, to, p, cap);
    return xq_play_check_after(pos, from, to, cap, s);
}

/* xq_play_known for move m (legal in *pos, which *s describes): its
 * squares and pieces read from the board. */
__attribute__((always_inline)) static inline xq_piece xq_play_inline(xq_position *pos, xq_move m, xq_checks *s)
{
    int from = XQ_FROM(m), to = XQ_TO(m);
    return xq_play_known(pos, from, to, pos->board[from], pos->board[to], s);
}

/* Palace of colour c: files d..f, ranks 0..2 (Red) or 7..9 (Black). */
static inline bool xq_in_palace(int file, int rank, xq_color c)
{
    if (file < 3 || file > 5) return false;
    return c == XQ_RED ? (rank >= 0 && rank <= 2) : (rank >= 7 && rank <= 9);
}

/* A rank on colour c's own side of the river (ranks 0..4 Red, 5..9 Black). */
static inline bool xq_own_half(int rank, xq_color c)
{
    return c == XQ_RED ? rank <= 4 : rank >= 5;
}

/* Direction "forward" for colour c, in ranks. */
static inline int xq_forward(xq_color c) { return c == XQ_RED ? 1 : -1; }

#endif
