/* position.c - board state, Zobrist keys, make/unmake (CXA1999 §1-§2). */
#include "position.h"

#include "board_tables.h"

#include <string.h>

const char XQ_START_FEN[] =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/* Zobrist keys, a constant table (zobrist.inc says how it was made);
 * board_tables.h declares it for xq_make_core. */
const uint64_t xq_zobrist_table[16][XQ_SQUARES] = {
#include "zobrist.inc"
};

static inline uint64_t zobrist(xq_piece p, int sq) { return xq_zobrist_table[p & 15][sq]; }

uint64_t xq_zobrist_formula(xq_piece p, int sq)
{
    uint64_t z = (uint64_t)(p * XQ_SQUARES + sq + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t xq_zobrist(xq_piece p, int sq) { return zobrist(p, sq); }


void xq_position_clear(xq_position *pos)
{
    memset(pos, 0, sizeof *pos);
    pos->general[XQ_RED] = pos->general[XQ_BLACK] = 0xFF;
    pos->side = XQ_RED;
    pos->fullmove = 1;
}

static inline void occ_set(xq_position *pos, int sq) { xq_occ_set(pos, sq); }
static inline void occ_clear(xq_position *pos, int sq) { xq_occ_clear(pos, sq); }

void xq_position_put(xq_position *pos, int sq, xq_piece p)
{
    xq_piece old = pos->board[sq];
    if (old) {
        pos->key ^= zobrist(old, sq);
        if (XQ_KIND(old) == XQ_GENERAL && pos->general[XQ_COLOR(old)] == sq)
            pos->general[XQ_COLOR(old)] = 0xFF;
    }
    pos->board[sq] = p;
    pos->fboard[xq_sq_occ_of[sq].fsq] = p;
    if (p) {
        pos->key ^= zobrist(p, sq);
        if (XQ_KIND(p) == XQ_GENERAL) pos->general[XQ_COLOR(p)] = (uint8_t)sq;
        occ_set(pos, sq);
    } else {
        occ_clear(pos, sq);
    }
}

void xq_position_place(xq_position *pos, const uint8_t *pairs, unsigned n, uint64_t key)
{
    xq_position_clear(pos);
    for (unsigned i = 0; i < n; i++, pairs += 2) {
        unsigned sq = pairs[0];
        xq_piece p = pairs[1];
        pos->board[sq] = p;
        pos->fboard[xq_sq_occ_of[sq].fsq] = p;
        occ_set(pos, (int)sq);
        if (XQ_KIND(p) == XQ_GENERAL) pos->general[XQ_COLOR(p)] = (uint8_t)sq;
    }
    pos->key = key;
}

bool xq_position_masks_ok(const xq_position *pos)
{
    for (int sq = 0; sq < XQ_SQUARES; sq++) {
        bool on = pos->board[sq] != XQ_NONE;
        if (((pos->rank_occ[sq / 9] >> (sq % 9)) & 1u) != on) return false;
        if (((pos->file_occ[sq % 9] >> (sq / 9)) & 1u) != on) return false;
    }
    for (int r = 0; r < XQ_RANKS; r++)
        if (pos->rank_occ[r] >> XQ_FILES) return false;
    for (int f = 0; f < XQ_FILES; f++)
        if (pos->file_occ[f] >> XQ_RANKS) return false;
    for (int sq = 0; sq < XQ_SQUARES; sq++)
        if (pos->fboard[XQ_FILE(sq) * XQ_RANKS + XQ_RANK(sq)] != pos->board[sq]) return false;
    for (int i = XQ_SQUARES; i < XQ_FBOARD_SIZE; i++)
        if (pos->fboard[i]) return false;
    return true;
}

/* The start position as xq_position_put builds it (CXA1999 §1.3), a
 * constant: every replay starts here, and a copy costs less than 32 puts.
 * test_move_read_quick.c checks it against the position built piece by piece
 * and against XQ_START_FEN (board, masks, generals and the key). */
#define R_(k) XQ_PIECE(XQ_##k, XQ_RED)
#define B_(k) XQ_PIECE(XQ_##k, XQ_BLACK)
static const xq_position START = {
    .board = {
        R_(CHARIOT), R_(HORSE), R_(ELEPHANT), R_(ADVISOR), R_(GENERAL), R_(ADVISOR), R_(ELEPHANT), R_(HORSE), R_(CHARIOT),
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, R_(CANNON), 0, 0, 0, 0, 0, R_(CANNON), 0,
        R_(SOLDIER), 0, R_(SOLDIER), 0, R_(SOLDIER), 0, R_(SOLDIER), 0, R_(SOLDIER),
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        B_(SOLDIER), 0, B_(SOLDIER), 0, B_(SOLDIER), 0, B_(SOLDIER), 0, B_(SOLDIER),
        0, B_(CANNON), 0, 0, 0, 0, 0, B_(CANNON), 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        B_(CHARIOT), B_(HORSE), B_(ELEPHANT), B_(ADVISOR), B_(GENERAL), B_(ADVISOR), B_(ELEPHANT), B_(HORSE), B_(CHARIOT),
    },
    .fboard = {   /* file-major: a file's ranks 0..9 a row */
        R_(CHARIOT), 0, 0, R_(SOLDIER), 0, 0, B_(SOLDIER), 0, 0, B_(CHARIOT),
        R_(HORSE), 0, R_(CANNON), 0, 0, 0, 0, B_(CANNON), 0, B_(HORSE),
        R_(ELEPHANT), 0, 0, R_(SOLDIER), 0, 0, B_(SOLDIER), 0, 0, B_(ELEPHANT),
        R_(ADVISOR), 0, 0, 0, 0, 0, 0, 0, 0, B_(ADVISOR),
        R_(GENERAL), 0, 0, R_(SOLDIER), 0, 0, B_(SOLDIER), 0, 0, B_(GENERAL),
        R_(ADVISOR), 0, 0, 0, 0, 0, 0, 0, 0, B_(ADVISOR),
        R_(ELEPHANT), 0, 0, R_(SOLDIER), 0, 0, B_(SOLDIER), 0, 0, B_(ELEPHANT),
        R_(HORSE), 0, R_(CANNON), 0, 0, 0, 0, B_(CANNON), 0, B_(HORSE),
        R_(CHARIOT), 0, 0, R_(SOLDIER), 0, 0, B_(SOLDIER), 0, 0, B_(CHARIOT),
    },
    .general = {XQ_SQ(4, 0), XQ_SQ(4, 9)},
    .side = XQ_RED,
    .halfmove = 0,
    .fullmove = 1,
    .key = 0x65F6E3DC3FF25D18ull,   /* the XOR of the 32 pieces' Zobrist keys, Red to move */
    .rank_occ = {0x1FF, 0, 0x82, 0x155, 0, 0, 0x155, 0x82, 0, 0x1FF},
    .file_occ = {0x249, 0x285, 0x249, 0x201, 0x249, 0x201, 0x249, 0x285, 0x249},
};
#undef R_
#undef B_

void xq_position_start(xq_position *pos)
{
    *pos = START;
}

void xq_position_set_side(xq_position *pos, xq_color side)
{
    if (pos->side != side) pos->key ^= XQ_ZOBRIST_BLACK;
    pos->side = side;
}

void xq_make(xq_position *pos, xq_move m, xq_undo *u)
{
    u->halfmove = pos->halfmove;
    u->key = pos->key;
    u->captured = xq_make_core(pos, m);
}

void xq_unmake(xq_position *pos, xq_move m, const xq_undo *u)
{
    int from = XQ_FROM(m), to = XQ_TO(m);
    xq_piece p = pos->board[to];
    pos->board[from] = p;
    pos->board[to] = u->captured;
    pos->fboard[xq_sq_occ_of[from].fsq] = p;
    pos->fboard[xq_sq_occ_of[to].fsq] = u->captured;
    occ_set(pos, from);
    if (!u->captured) occ_clear(pos, to);
    if (XQ_KIND(p) == XQ_GENERAL) pos->general[XQ_COLOR(p)] = (uint8_t)from;
    pos->side = (xq_color)(pos->side ^ 1);
    if (pos->side == XQ_BLACK) pos->fullmove--;
    pos->halfmove = u->halfmove;
    pos->key = u->key;
}

const char *xq_illegal_str(xq_illegal why)
{
    static const char *const text[XQ_ILL_COUNT] = {
        [XQ_LEGAL] = "legal",
        [XQ_ILL_NO_PIECE] = "no piece on that square",
        [XQ_ILL_WRONG_SIDE] = "that piece belongs to the side not to move",
        [XQ_ILL_OWN_PIECE] = "the target square holds a piece of the same side",
        [XQ_ILL_GEOMETRY] = "that piece cannot move so",
        [XQ_ILL_PALACE] = "the move leaves the palace",
        [XQ_ILL_HORSE_LEG] = "horse leg blocked",
        [XQ_ILL_ELEPHANT_EYE] = "elephant eye blocked",
        [XQ_ILL_ELEPHANT_RIVER] = "elephant may not cross the river",
        [XQ_ILL_PATH_BLOCKED] = "a piece stands in the way",
        [XQ_ILL_CANNON_SCREEN] = "cannon needs exactly one screen to capture",
        [XQ_ILL_SOLDIER_SIDEWAYS] = "soldier may not move sideways before crossing the river",
        [XQ_ILL_SOLDIER_BACKWARD] = "soldier may not move backward",
        [XQ_ILL_LEAVES_CHECK] = "general left in check",
        [XQ_ILL_GENERALS_FACE] = "generals face each other",
    };
    return (unsigned)why < XQ_ILL_COUNT ? text[why] : "unknown reason";
}
