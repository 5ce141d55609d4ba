/* board_tables.h - constant geometry shared by the rules core (internal).
 * Files and ranks of each square, their bits in the occupancy masks,
 * palace and river tests (CXA1999 §1.1). */
#ifndef XQ_BOARD_TABLES_H
#define XQ_BOARD_TABLES_H

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
