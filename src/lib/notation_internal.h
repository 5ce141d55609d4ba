/* notation_internal.h - helpers shared by notation*.c; not a public API.
 *
 * Every reader turns its text into either an xqn_desc (piece, which one,
 * action, number: Chinese full and abbreviated, WXF) resolved by
 * xqn_resolve, or a target square with filters (一字三碼, SAN) resolved by
 * xqn_resolve_target, or a from/to pair checked by xqn_finish.  So the
 * rules "which piece is meant" live in one place (notation.c).
 */
#ifndef XQ_NOTATION_INTERNAL_H
#define XQ_NOTATION_INTERNAL_H

#include "notation.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Actions: 進 forward (toward the opponent), 退 back, 平 sideways; ANY is
 * the abbreviated form where the action is implied (CXA1999 §7.5). */
enum { XQN_FWD = 1, XQN_BACK, XQN_SIDE, XQN_ANY };

/* Tandem markers (formats.md §1a "Tandem pieces", §1b). */
enum {
    XQN_M_NONE = 0,
    XQN_M_FRONT,    /* 前, WXF "++" / prefix f: the first from the front */
    XQN_M_MIDDLE,   /* 中, ElephantEye '.': the middle of an odd number */
    XQN_M_REAR,     /* 後/后, WXF "--" / prefix r: the last */
    XQN_M_NTH,      /* 一..五: the nth from the front */
    XQN_M_PLUS,     /* WXF '+': first of 2-3, second of 4-5 */
    XQN_M_MINUS,    /* WXF '-': last of 2-3, second to last of 4-5 */
    XQN_M_POOLED    /* ElephantEye 'a'..'e': nth in XQBase pooled order */
};

/* A move described by piece and file (Chinese full/abbreviated, WXF). */
typedef struct {
    xq_kind kind;
    int file;      /* board file 0..8 (a..i), or -1 when a marker names the piece */
    int marker;    /* XQN_M_* */
    int nth;       /* for NTH and POOLED, 1-based */
    int action;    /* XQN_FWD .. XQN_ANY */
    int arg;       /* 1..9 as written: steps or a file number of the mover */
    bool wxf;      /* WXF: a plain file holding 3 or 5 soldiers means the middle one */
} xqn_desc;

/* Internal read flag, above the public XQ_READ_* bits: take the general
 * path only, never a fast path (tests/unit/test_notation_fast.c compares
 * both on every input it makes). */
enum { XQN_READ_NO_FAST = 1u << 30 };

/* Reading context: where results and messages go. */
typedef struct {
    const xq_position *pos;
    unsigned flags;
    xq_note_result *res;
    char *msg;
    size_t msg_size;
} xqn_ctx;

/* xq_move_legality of m in the reading position, told the check state
 * when the caller knows it (XQ_READ_NOT_IN_CHECK): every legality question
 * of the readers goes through here. */
static inline xq_illegal xqn_legality(const xqn_ctx *c, xq_move m)
{
    return (c->flags & XQ_READ_NOT_IN_CHECK) ? xq_move_legality_known(c->pos, m, false)
                                             : xq_move_legality(c->pos, m);
}

/* Set res->status (and column) and format msg; returns st. */
xq_note_status xqn_fail(xqn_ctx *c, xq_note_status st, int column, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Check the one decoded move m: OK if legal (or under XQ_READ_UNCHECKED),
 * else ILLEGAL with the core's reason. */
xq_note_status xqn_finish(xqn_ctx *c, xq_move m);

/* The decoded move m whose legality why is known: OK (msg "") or ILLEGAL
 * ("h0g2 is illegal: horse leg blocked"). */
xq_note_status xqn_finish_known(xqn_ctx *c, xq_move m, xq_illegal why);

xq_note_status xqn_resolve(xqn_ctx *c, const xqn_desc *d);

/* Pieces of `kind` of the side to move that go to square `to`; filters:
 * from_file / from_rank (-1 = any), dir (+1 forward, -1 back, 0 any).
 * warn: several pseudo-legal candidates resolved by legality give
 * XQ_NOTE_RESOLVED with `hint` appended to the message. */
xq_note_status xqn_resolve_target(xqn_ctx *c, xq_kind kind, int to, int from_file,
                                  int from_rank, int dir, bool warn, const char *hint);

/* Legality failed only because of pieces in the way or the general's
 * safety: the piece "reaches" the square (一字三碼 能同達, SAN). */
bool xqn_pseudo_ok(xq_illegal why);

/* Board file (0..8) of the mover's file number 1..9 counted from the
 * mover's right (formats.md §1a), and back. */
static inline int xqn_file_x(xq_color side, int num) { return side == XQ_RED ? 9 - num : num - 1; }
static inline int xqn_file_num(xq_color side, int x) { return side == XQ_RED ? 9 - x : x + 1; }
static inline int xqn_forward(xq_color side) { return side == XQ_RED ? 1 : -1; }

/* Straight movers count steps for 進/退; the others name the target file. */
static inline bool xqn_straight(xq_kind k)
{
    return k == XQ_GENERAL || k == XQ_CHARIOT || k == XQ_CANNON || k == XQ_SOLDIER;
}

/* Squares of piece p on board file x, front to back as seen by its owner. */
typedef struct { int n; unsigned char sq[XQ_RANKS]; } xqn_list;
void xqn_file_list(const xq_position *pos, xq_piece p, int x, xqn_list *out);

/* Files holding two or more of piece p: count and lists for every file. */
typedef struct {
    xqn_list file[XQ_FILES];
    int tandem[XQ_FILES];   /* tandem files, right to left as seen by the owner */
    int ntandem;
} xqn_board_lists;
void xqn_board_lists_fill(const xq_position *pos, xq_piece p, xqn_board_lists *bl);

/* XQBase pooled order (先從右到左，再從前到後): all pieces on tandem files. */
void xqn_pooled(const xqn_board_lists *bl, xqn_list *out);

/* Index (0-based) into a list of n pieces for a marker, or -1. */
int xqn_marker_index(int marker, int nth, int n);

/* The target of the piece on from for action/arg (no board needed), or -1. */
int xqn_target(xq_color side, xq_kind k, int from, int action, int arg);

/* xqn_target for the piece on file x, rank r: the one geometry of 進退平
 * (formats.md §1a), inline for the fast paths, which know x and r. */
static inline int xqn_target_xr(xq_color side, xq_kind k, int x, int r, int action, int arg)
{
    if (arg < 1 || arg > 9) return -1;
    int tx = xqn_file_x(side, arg);
    if (action == XQN_SIDE) {
        if (!xqn_straight(k)) return -1;
        return tx == x ? -1 : XQ_SQ(tx, r);
    }
    int d = action == XQN_FWD ? xqn_forward(side) : -xqn_forward(side);
    int dr;
    if (xqn_straight(k)) {
        tx = x;
        dr = arg;
    } else {
        int dx = tx > x ? tx - x : x - tx;
        switch (k) {
        case XQ_ADVISOR: if (dx != 1) return -1; dr = 1; break;
        case XQ_ELEPHANT: if (dx != 2) return -1; dr = 2; break;
        case XQ_HORSE: if (dx != 1 && dx != 2) return -1; dr = 3 - dx; break;
        default: return -1;
        }
    }
    int nr = r + d * dr;
    if (nr < 0 || nr > 9) return -1;
    return XQ_SQ(tx, nr);
}

/* The ranks of board file x (0..8) that hold piece p, as a mask (bit r
 * for rank r), fx being x * 10 (where the file starts in pos->fboard).
 * The file's 10 squares are contiguous in pos->fboard: one compare of 16
 * bytes (SSE2; else two words, SWAR), bits 10..15 (the next file or the
 * zero tail) masked off; a strided scan of board[] cost 36 instructions a
 * ply.  p may be XQ_NONE (the empty squares).  test_fboard.c compares
 * xqn_only_rank_on_file with that scan. */
static inline unsigned xqn_ranks_on_file(const xq_position *pos, xq_piece p, int fx)
{
    const xq_piece *f = pos->fboard + fx;   /* fx <= 80: 16 bytes stay in fboard */
#ifdef __SSE2__
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)f);
    return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8((char)p))) & 0x3FFu;
#else
    /* bytes and p are below 16: b ^ p is 0..15, and + 0x7F sets a byte's
     * top bit (no carry out) exactly when it is not 0 */
    uint64_t lo, ones = 0x0101010101010101ull;
    uint16_t hi;
    memcpy(&lo, f, 8);
    memcpy(&hi, f + 8, 2);
    uint64_t zl = ~((lo ^ p * ones) + 0x7F * ones) & 0x80 * ones;
    uint64_t zh = ~(((uint64_t)hi ^ p * 0x0101u) + 0x7F7Fu) & 0x8080u;
    unsigned m = 0;
    for (int r = 0; r < 8; r++) m |= (unsigned)(zl >> (8 * r + 7) & 1) << r;
    return m | (unsigned)(zh >> 7 & 1) << 8 | (unsigned)(zh >> 15 & 1) << 9;
#endif
}

/* The rank of the only piece p (not XQ_NONE) on board file x (0..8), or
 * -1 when the file holds none or several (xqn_ranks_on_file). */
static inline int xqn_only_rank_on_file(const xq_position *pos, xq_piece p, int x)
{
    unsigned m = xqn_ranks_on_file(pos, p, x * XQ_RANKS);
    if (!m || (m & (m - 1))) return -1;
    return __builtin_ctz(m);
}

/* "ICCS" square name, lower case: 2 characters + NUL. */
void xqn_sqname(int sq, char out[3]);
const char *xqn_kind_en(xq_kind k);

/* UTF-8: decode one code point at s[*i] (advancing *i); -1 if malformed. */
long xqn_utf8_slow(const char *s, size_t len, size_t *i);
static inline long xqn_utf8_next(const char *s, size_t len, size_t *i)
{
    const unsigned char *u = (const unsigned char *)s + *i;
    size_t left = len - *i;
    if (left >= 1 && u[0] < 0x80) { *i += 1; return u[0]; }
    /* the common case here: a 3-byte CJK or full-width character */
    if (left >= 3 && (u[0] & 0xF0) == 0xE0 && (u[1] & 0xC0) == 0x80 && (u[2] & 0xC0) == 0x80) {
        long cp = (long)(u[0] & 0x0F) << 12 | (long)(u[1] & 0x3F) << 6 | (u[2] & 0x3F);
        if (cp >= 0x800 && (cp < 0xD800 || cp > 0xDFFF)) { *i += 3; return cp; }
        return -1;
    }
    return xqn_utf8_slow(s, len, i);
}
/* Append code point cp to buf at *n if it fits (size includes the NUL). */
bool xqn_put_cp(char *buf, size_t size, size_t *n, unsigned long cp);
bool xqn_put_str(char *buf, size_t size, size_t *n, const char *s);

/* Map a token to ASCII (full-width forms U+FF01..FF5E folded).  Returns the
 * number of characters, or -(column) of the first character that is
 * neither, or 0 when it does not fit in cap-1 characters. */
int xqn_to_ascii(const char *text, size_t len, char *out, int cap);

/* Shape of an ASCII token: ICCS/UCCI coordinates, WXF, or SAN; AUTO if none. */
xq_notation xqn_ascii_kind(const char *s, int n);


/* Per-notation readers and writers. */
xq_note_status xqn_read_chinese(xqn_ctx *c, const char *text, size_t len);

xq_notation xqn_chinese_shape(const char *text, size_t len);
/* Is the code point cp one of the Chinese notation's characters (a piece,
 * numeral, action or marker; full-width digits too)?  For a diagnostic: a
 * token that mixes such characters with others is read as Chinese, so the
 * error names the character that is not. */
bool xqn_chinese_char(long cp);
xq_note_status xqn_read_wxf(xqn_ctx *c, const char *s, int n);
xq_note_status xqn_read_coord(xqn_ctx *c, const char *s, int n);
xq_note_status xqn_read_san(xqn_ctx *c, const char *s, int n);

size_t xqn_write_chinese(const xq_position *pos, xq_move m, unsigned flags, char *buf, size_t size);
size_t xqn_write_abbr(const xq_position *pos, xq_move m, unsigned flags, char *buf, size_t size);
size_t xqn_write_3digit(const xq_position *pos, xq_move m, unsigned flags, char *buf, size_t size);
size_t xqn_write_wxf(const xq_position *pos, xq_move m, unsigned flags, char *buf, size_t size);
size_t xqn_write_coord(const xq_position *pos, xq_move m, xq_notation n, unsigned flags,
                       char *buf, size_t size);
size_t xqn_write_san(const xq_position *pos, xq_move m, unsigned flags, char *buf, size_t size);

/* Decode the move m into piece terms: kind, action and argument as Chinese
 * and WXF write them (false when m cannot be written so). */
bool xqn_describe(const xq_position *pos, xq_move m, xq_kind *kind, int *action, int *arg);

/* Whether another piece on the same file as m's piece would also fit a
 * plain "piece file action arg" text (advisors and elephants only need
 * 前/後 then). */
bool xqn_needs_marker(const xq_position *pos, xq_move m, xq_kind kind, int action, int arg,
                      const xqn_list *onfile);

#endif
