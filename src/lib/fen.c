/* fen.c - FEN read/write and the "could this position arise" check.
 * Variants read: formats.md §1d.  Position rules: CXA1999 §1-§2. */
#include "board_tables.h"
#include "position.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Write the reason into err (size bytes) and the byte column of the
 * character at fault into *at (0: no one character); false. */
static bool fail(char *err, size_t size, long *at, long col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static bool fail(char *err, size_t size, long *at, long col, const char *fmt, ...)
{
    *at = col;
    if (err && size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, size, fmt, ap);
        va_end(ap);
    }
    return false;
}

/* Kind of a FEN letter, either case; XQ_NONE when unknown. */
static xq_kind kind_of_letter(int ch)
{
    switch (tolower(ch)) {
    case 'k': return XQ_GENERAL;
    case 'a': return XQ_ADVISOR;
    case 'b': case 'e': return XQ_ELEPHANT;
    case 'n': case 'h': return XQ_HORSE;
    case 'r': return XQ_CHARIOT;
    case 'c': return XQ_CANNON;
    case 'p': return XQ_SOLDIER;
    default: return XQ_NONE;
    }
}

static const char LETTER[8] = {'?', 'k', 'a', 'b', 'n', 'r', 'c', 'p'};

/* Print ch for a message: itself when printable, else as a byte value. */
static const char *show(int ch, char buf[8])
{
    if (ch > 32 && ch < 127) snprintf(buf, 8, "'%c'", ch);
    else snprintf(buf, 8, "0x%02X", ch & 0xFF);
    return buf;
}

bool xq_fen_read(xq_position *pos, const char *fen, char *err, size_t err_size)
{
    long at;
    return xq_fen_read_at(pos, fen, err, err_size, &at);
}

bool xq_fen_read_at(xq_position *pos, const char *fen, char *err, size_t err_size, long *at)
{
    char sh[8];
    *at = 0;
    xq_position_clear(pos);
    const char *s = fen;
    while (*s == ' ' || *s == '\t') s++;
    /* field 1: the board, rank 9 first */
    int rank = 9, file = 0;
    for (;; s++) {
        int ch = (unsigned char)*s;
        long col = s - fen + 1;
        if (ch == '/' ) {
            if (file != 9)
                return fail(err, err_size, at, col, "FEN board: rank %d has %d files, not 9 (column %ld)", rank, file, col);
            if (--rank < 0)
                return fail(err, err_size, at, col, "FEN board: more than 10 ranks (column %ld)", col);
            file = 0;
        } else if (ch >= '1' && ch <= '9') {
            file += ch - '0';
            if (file > 9)
                return fail(err, err_size, at, col, "FEN board: rank %d has more than 9 files at %s (column %ld)", rank, show(ch, sh), col);
        } else if (kind_of_letter(ch) != XQ_NONE) {
            if (file >= 9)
                return fail(err, err_size, at, col, "FEN board: rank %d has more than 9 files at %s (column %ld)", rank, show(ch, sh), col);
            xq_color c = isupper(ch) ? XQ_RED : XQ_BLACK;
            int sq = XQ_SQ(file, rank);
            xq_kind k = kind_of_letter(ch);
            if (k == XQ_GENERAL && pos->general[c] < XQ_SQUARES)
                return fail(err, err_size, at, col, "FEN board: two %s generals (column %ld)", c == XQ_RED ? "red" : "black", col);
            xq_position_put(pos, sq, XQ_PIECE(k, c));
            file++;
        } else if (ch == ' ' || ch == '\t' || ch == 0) {
            break;
        } else {
            return fail(err, err_size, at, col, "FEN board: unexpected %s at column %ld", show(ch, sh), col);
        }
    }
    if (rank != 0 || file != 9)
        return fail(err, err_size, at, 0, "FEN board: %d ranks of 9 files needed, board ends in rank %d after %d files",
                    10, rank, file);
    /* field 2: side to move (optional: Red) */
    while (*s == ' ' || *s == '\t') s++;
    xq_color side = XQ_RED;
    if (*s) {
        int ch = tolower((unsigned char)*s);
        if (ch == 'w' || ch == 'r') side = XQ_RED;
        else if (ch == 'b') side = XQ_BLACK;
        else return fail(err, err_size, at, (long)(s - fen + 1), "FEN side to move: unexpected %s at column %ld (w, r or b)", show(*s, sh), (long)(s - fen + 1));
        s++;
        if (*s && *s != ' ' && *s != '\t')
            return fail(err, err_size, at, (long)(s - fen + 1), "FEN side to move: unexpected %s at column %ld", show(*s, sh), (long)(s - fen + 1));
    }
    xq_position_set_side(pos, side);
    /* fields 3-4 (castling/en passant, always "-") are skipped; 5-6 are counters */
    long nums[2] = {0, 1};
    int field = 3, got = 0;
    while (*s) {
        while (*s == ' ' || *s == '\t') s++;
        if (!*s) break;
        const char *start = s;
        while (*s && *s != ' ' && *s != '\t') s++;
        if (field >= 5 && field <= 6) {
            char *end;
            long v = strtol(start, &end, 10);
            if (end != s || v < 0 || v > 100000)
                return fail(err, err_size, at, (long)(start - fen + 1), "FEN field %d: %s is not a move counter (column %ld)", field, show(*start, sh), (long)(start - fen + 1));
            nums[field - 5] = v;
            got++;
        } else if (field > 6) {
            return fail(err, err_size, at, (long)(start - fen + 1), "FEN: unexpected field %d at column %ld", field, (long)(start - fen + 1));
        }
        field++;
    }
    (void)got;
    pos->halfmove = (int)nums[0];
    pos->fullmove = nums[1] > 0 ? (int)nums[1] : 1;
    return true;
}

size_t xq_fen_write(const xq_position *pos, char *buf, size_t size)
{
    char tmp[XQ_FEN_MAX];
    size_t n = 0;
    for (int rank = 9; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 9; file++) {
            xq_piece p = pos->board[XQ_SQ(file, rank)];
            if (!p) { empty++; continue; }
            if (empty) tmp[n++] = (char)('0' + empty);
            empty = 0;
            char l = LETTER[XQ_KIND(p)];
            tmp[n++] = XQ_COLOR(p) == XQ_RED ? (char)toupper(l) : l;
        }
        if (empty) tmp[n++] = (char)('0' + empty);
        if (rank) tmp[n++] = '/';
    }
    int k = snprintf(tmp + n, sizeof tmp - n, " %c - - %d %d", pos->side == XQ_RED ? 'w' : 'b',
                     pos->halfmove, pos->fullmove);
    n += (size_t)(k > 0 ? k : 0);
    if (size) {
        size_t c = n < size ? n : size - 1;
        memcpy(buf, tmp, c);
        buf[c] = 0;
    }
    return n;
}

/* Advisor points (ranks from the owner's side): d0 f0 e1 d2 f2. */
static bool advisor_point(int f, int r)
{
    return (r == 0 || r == 2) ? (f == 3 || f == 5) : (r == 1 && f == 4);
}

/* Elephant points (owner's side): c0 g0 a2 e2 i2 c4 g4. */
static bool elephant_point(int f, int r)
{
    if (r == 0 || r == 4) return f == 2 || f == 6;
    if (r == 2) return f == 0 || f == 4 || f == 8;
    return false;
}

const char *xq_position_check(const xq_position *pos)
{
    static const int max_of[8] = {0, 1, 2, 2, 2, 2, 2, 5};
    int count[2][8] = {{0}};
    /* the first piece off its squares, told only when nothing worse is
     * wrong: a missing general or a general that can be taken (the side
     * not to move in check, the generals facing) make the rules mean
     * nothing, and the replay must see them whatever else is odd */
    const char *placement = NULL;
    for (int sq = 0; sq < XQ_SQUARES; sq++) {
        xq_piece p = pos->board[sq];
        if (!p) continue;
        xq_color c = XQ_COLOR(p);
        xq_kind k = XQ_KIND(p);
        int f = xq_file_of[sq], r = xq_rank_of[sq];
        int own = c == XQ_RED ? r : 9 - r;   /* rank counted from the owner's side */
        count[c][k]++;
        switch (k) {
        case XQ_GENERAL:
            if (!xq_in_palace(f, r, c) && !placement) placement = "a general stands outside its palace";
            break;
        case XQ_ADVISOR:
            if (!advisor_point(f, own) && !placement) placement = "an advisor stands off its points";
            break;
        case XQ_ELEPHANT:
            if (!elephant_point(f, own) && !placement) placement = "an elephant stands off its points";
            break;
        case XQ_SOLDIER:
            if (own < 3 && !placement) placement = "a soldier stands behind its start rank";
            if (own < 5 && f % 2 && !placement) placement = "an uncrossed soldier stands off its start files";
            break;
        default:
            break;
        }
    }
    for (int c = 0; c < 2; c++)
        if (count[c][XQ_GENERAL] == 0) return c == XQ_RED ? "no red general" : "no black general";
    int r = pos->general[XQ_RED], b = pos->general[XQ_BLACK];
    if (xq_file_of[r] == xq_file_of[b]) {
        bool open = true;
        for (int sq = r + 9; sq < b; sq += 9) open = open && !pos->board[sq];
        if (open) return "the generals face each other";
    }
    if (xq_in_check(pos, (xq_color)(pos->side ^ 1))) return "the side not to move is in check";
    for (int c = 0; c < 2; c++)
        for (int k = 1; k < 8; k++)
            if (count[c][k] > max_of[k]) return "more pieces of a kind than a set has";
    return placement;
}
