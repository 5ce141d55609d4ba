/* notation_chinese.c - Chinese notations: full 4-character form and its
 * tandem variants (formats.md §1a), abbreviated 炮25 (CXA1999 §7.5) and
 * 一字三碼 馬325 (xiangqi-basics-notes.zh-Hant.txt §9). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "board_tables.h"
#include "notation_internal.h"

/* --- characters ------------------------------------------------------- */

enum { CT_PIECE = 1, CT_NUM, CT_ACT, CT_MARK };

typedef struct { unsigned char cls, val; } ctok;

/* Every character the Chinese forms use (formats.md §1a "Piece characters
 * and the variants readers accept"): pieces (val = kind), numerals (val
 * 0..9: Chinese, financial 壹..玖, 〇/零, full-width ０..９), actions
 * (XQN_FWD/BACK/SIDE, old 上/下 too) and position markers
 * (XQN_M_FRONT/MIDDLE/REAR).  All are 3-byte UTF-8 characters, so the
 * table is keyed by their three bytes as one number (U8KEY, the first
 * byte lowest: what a 4-byte little-endian load of the character gives,
 * masked to 24 bits): the reader looks a character up without decoding
 * it.  A perfect hash: slot U8SLOT(key), the top 8 bits of
 * key * 0x2C94CDD3 mod 2^32 (found by a search over multipliers).  Two
 * characters in one slot would be a duplicate designated initializer,
 * which -Wextra -Werror rejects (-Woverride-init), so a collision cannot
 * compile. */
#define U8KEY(cp) ((0xE0u | (unsigned)(cp) >> 12) | (0x80u | ((unsigned)(cp) >> 6 & 0x3Fu)) << 8 \
                   | (0x80u | ((unsigned)(cp) & 0x3Fu)) << 16)
#define U8SLOT(key) ((uint32_t)((uint32_t)(key) * 0x2C94CDD3u) >> 24)
#define CH(cp, c, v) [U8SLOT(U8KEY(cp))] = {U8KEY(cp), c, v}
typedef struct { uint32_t key; unsigned char cls, val; } cn_char;
static const cn_char chars[256] = {
    CH(0x4ED5, CT_PIECE, XQ_ADVISOR),   /* 仕 */
    CH(0x58EB, CT_PIECE, XQ_ADVISOR),   /* 士 */
    CH(0x5305, CT_PIECE, XQ_CANNON),   /* 包 */
    CH(0x70AE, CT_PIECE, XQ_CANNON),   /* 炮 */
    CH(0x7832, CT_PIECE, XQ_CANNON),   /* 砲 */
    CH(0x4FE5, CT_PIECE, XQ_CHARIOT),   /* 俥 */
    CH(0x7868, CT_PIECE, XQ_CHARIOT),   /* 硨 */
    CH(0x8ECA, CT_PIECE, XQ_CHARIOT),   /* 車 */
    CH(0x8F66, CT_PIECE, XQ_CHARIOT),   /* 车 */
    CH(0x76F8, CT_PIECE, XQ_ELEPHANT),   /* 相 */
    CH(0x8C61, CT_PIECE, XQ_ELEPHANT),   /* 象 */
    CH(0x5C06, CT_PIECE, XQ_GENERAL),   /* 将 */
    CH(0x5C07, CT_PIECE, XQ_GENERAL),   /* 將 */
    CH(0x5E05, CT_PIECE, XQ_GENERAL),   /* 帅 */
    CH(0x5E25, CT_PIECE, XQ_GENERAL),   /* 帥 */
    CH(0x508C, CT_PIECE, XQ_HORSE),   /* 傌 */
    CH(0x99AC, CT_PIECE, XQ_HORSE),   /* 馬 */
    CH(0x9A6C, CT_PIECE, XQ_HORSE),   /* 马 */
    CH(0x5175, CT_PIECE, XQ_SOLDIER),   /* 兵 */
    CH(0x5352, CT_PIECE, XQ_SOLDIER),   /* 卒 */
    CH(0x3007, CT_NUM, 0),   /* 〇 */
    CH(0x96F6, CT_NUM, 0),   /* 零 */
    CH(0xFF10, CT_NUM, 0),   /* ０ */
    CH(0x4E00, CT_NUM, 1),   /* 一 */
    CH(0x58F9, CT_NUM, 1),   /* 壹 */
    CH(0xFF11, CT_NUM, 1),   /* １ */
    CH(0x4E8C, CT_NUM, 2),   /* 二 */
    CH(0x8CB3, CT_NUM, 2),   /* 貳 */
    CH(0x8D30, CT_NUM, 2),   /* 贰 */
    CH(0xFF12, CT_NUM, 2),   /* ２ */
    CH(0x4E09, CT_NUM, 3),   /* 三 */
    CH(0x53C1, CT_NUM, 3),   /* 叁 */
    CH(0x53C3, CT_NUM, 3),   /* 參 */
    CH(0xFF13, CT_NUM, 3),   /* ３ */
    CH(0x56DB, CT_NUM, 4),   /* 四 */
    CH(0x8086, CT_NUM, 4),   /* 肆 */
    CH(0xFF14, CT_NUM, 4),   /* ４ */
    CH(0x4E94, CT_NUM, 5),   /* 五 */
    CH(0x4F0D, CT_NUM, 5),   /* 伍 */
    CH(0xFF15, CT_NUM, 5),   /* ５ */
    CH(0x516D, CT_NUM, 6),   /* 六 */
    CH(0x9646, CT_NUM, 6),   /* 陆 */
    CH(0x9678, CT_NUM, 6),   /* 陸 */
    CH(0xFF16, CT_NUM, 6),   /* ６ */
    CH(0x4E03, CT_NUM, 7),   /* 七 */
    CH(0x67D2, CT_NUM, 7),   /* 柒 */
    CH(0xFF17, CT_NUM, 7),   /* ７ */
    CH(0x516B, CT_NUM, 8),   /* 八 */
    CH(0x634C, CT_NUM, 8),   /* 捌 */
    CH(0xFF18, CT_NUM, 8),   /* ８ */
    CH(0x4E5D, CT_NUM, 9),   /* 九 */
    CH(0x7396, CT_NUM, 9),   /* 玖 */
    CH(0xFF19, CT_NUM, 9),   /* ９ */
    CH(0x4E0B, CT_ACT, XQN_BACK),   /* 下 */
    CH(0x9000, CT_ACT, XQN_BACK),   /* 退 */
    CH(0x4E0A, CT_ACT, XQN_FWD),   /* 上 */
    CH(0x8FDB, CT_ACT, XQN_FWD),   /* 进 */
    CH(0x9032, CT_ACT, XQN_FWD),   /* 進 */
    CH(0x5E73, CT_ACT, XQN_SIDE),   /* 平 */
    CH(0x524D, CT_MARK, XQN_M_FRONT),   /* 前 */
    CH(0x4E2D, CT_MARK, XQN_M_MIDDLE),   /* 中 */
    CH(0x540E, CT_MARK, XQN_M_REAR),   /* 后 */
    CH(0x5F8C, CT_MARK, XQN_M_REAR),   /* 後 */
};
#undef CH

/* The entry of the 3-byte character whose bytes are key, or NULL. */
static inline const cn_char *char_of_key(uint32_t key)
{
    const cn_char *e = &chars[U8SLOT(key)];
    return e->key == key ? e : NULL;
}

/* Classify one code point; ASCII and full-width digits are numerals too. */
static inline bool classify(long cp, ctok *t)
{
    if (cp >= '0' && cp <= '9') { t->cls = CT_NUM; t->val = (unsigned char)(cp - '0'); return true; }
    if (cp < 0x800 || cp > 0xFFFF) return false;
    const cn_char *e = char_of_key(U8KEY(cp));
    if (!e) return false;
    t->cls = e->cls;
    t->val = e->val;
    return true;
}

bool xqn_chinese_char(long cp)
{
    ctok t;
    return cp >= 0x80 && classify(cp, &t);
}

/* Shapes: P piece, N numeral, A action, M marker or numeral 1-5 (一兵),
 * K marker only.  First match wins. */
enum { SH_FULL, SH_MARK, SH_POP_SHORT, SH_MARK_AFTER, SH_3DIGIT, SH_3DIGIT_DIR, SH_ABBR, SH_POP_LONG };
static const struct { const char *pat; int len, shape; } shapes[] = {
    {"PNAN", 4, SH_FULL},        /* 炮二平五 */
    {"MPAN", 4, SH_MARK},        /* 前炮退二, 一兵平四 */
    {"MNAN", 4, SH_POP_SHORT},   /* 前九平八 (popular, soldiers) */
    {"PKAN", 4, SH_MARK_AFTER},  /* 炮前退二 */
    {"PNNN", 4, SH_3DIGIT},      /* 馬325 */
    {"PANN", 4, SH_3DIGIT_DIR},  /* 車進20 */
    {"PNN", 3, SH_ABBR},         /* 炮25 */
    {"MPNAN", 5, SH_POP_LONG},   /* 前兵九平八 */
};

static int match_len(const ctok *t, int n, const char *pat)
{
    int i = 0;
    for (; i < n && pat[i]; i++) {
        const ctok *k = &t[i];
        bool ok;
        switch (pat[i]) {
        case 'P': ok = k->cls == CT_PIECE; break;
        case 'N': ok = k->cls == CT_NUM; break;
        case 'A': ok = k->cls == CT_ACT; break;
        case 'K': ok = k->cls == CT_MARK; break;
        default: ok = k->cls == CT_MARK || (k->cls == CT_NUM && k->val >= 1 && k->val <= 5); break;
        }
        if (!ok) break;
    }
    return i;
}

/* Tokenise character by character: returns the count, or -(column) of a
 * bad character (its code point in *badcp, -1 for invalid UTF-8), or 0
 * when longer than cap.  The exact path, for tokens tokenise_fast leaves. */
static int tokenise_slow(const char *text, size_t len, ctok *t, int cap, long *badcp)
{
    size_t i = 0;
    int n = 0;
    while (i < len) {
        long cp = xqn_utf8_next(text, len, &i);
        *badcp = cp;
        if (cp < 0) return -(n + 1);
        if (n >= cap) return 0;
        if (!classify(cp, &t[n])) return -(n + 1);
        n++;
    }
    return n;
}

/* The common token: ASCII digits and table characters only, at most cap
 * of them.  Looks each 3-byte character up by its bytes without decoding
 * it: a table key is a valid UTF-8 sequence, so a match is exactly what
 * xqn_utf8_next and classify would give.  Returns the count, or -1 for
 * anything else (tokenise_slow then finds the error). */
static inline int tokenise_fast(const char *text, size_t len, ctok *t, int cap)
{
    const unsigned char *u = (const unsigned char *)text;
    size_t i = 0;
    int n = 0;
    while (i < len) {
        if (n >= cap) return -1;
        unsigned b = u[i];
        if (b - '0' <= 9u) {
            t[n].cls = CT_NUM;
            t[n].val = (unsigned char)(b - '0');
            i++;
        } else {
            if (b < 0xE0 || len - i < 3) return -1;
            const cn_char *e = char_of_key(b | (unsigned)u[i + 1] << 8 | (unsigned)u[i + 2] << 16);
            if (!e) return -1;
            t[n].cls = e->cls;
            t[n].val = e->val;
            i += 3;
        }
        n++;
    }
    return n > 0 ? n : -1;
}

/* Tokenise (tokenise_slow's contract), the common token without decoding
 * unless fast is false (XQN_READ_NO_FAST). */
static inline int tokenise(const char *text, size_t len, ctok *t, int cap, long *badcp, bool fast)
{
    int n = fast ? tokenise_fast(text, len, t, cap) : -1;
    return n > 0 ? n : tokenise_slow(text, len, t, cap, badcp);
}

static int find_shape(const ctok *t, int n, int *best)
{
    *best = 0;
    /* the full form 炮二平五, nearly every move of real records: the first
     * pattern, so the loop below would return the same */
    if (n == 4 && t[0].cls == CT_PIECE && t[1].cls == CT_NUM && t[2].cls == CT_ACT && t[3].cls == CT_NUM)
        return SH_FULL;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int m = match_len(t, n, shapes[s].pat);
        if (m == n && shapes[s].len == n) return shapes[s].shape;
        if (m > *best) *best = m;
    }
    return -1;
}

xq_notation xqn_chinese_shape(const char *text, size_t len)
{
    ctok t[6];
    long bad;
    int n = tokenise(text, len, t, 6, &bad, true), best;
    if (n <= 0) return XQ_NOTATION_AUTO;
    switch (find_shape(t, n, &best)) {
    case -1: return XQ_NOTATION_AUTO;
    case SH_ABBR: return XQ_NOTATION_CHINESE_ABBR;
    case SH_3DIGIT: case SH_3DIGIT_DIR: return XQ_NOTATION_CHINESE_3DIGIT;
    default: return XQ_NOTATION_CHINESE;
    }
}

/* --- 一字三碼 coordinates --------------------------------------------- */

/* The notes number files 1..9 "以棋手為準從左至右" (from the player's left);
 * XQ_*_3DIGIT_FROM_RIGHT selects the usual right-to-left count of §1a. */
static int file3_x(xq_color side, int num, bool from_right)
{
    if (from_right) return xqn_file_x(side, num);
    return side == XQ_RED ? num - 1 : 9 - num;
}

/* Ranks 1..10 from the player's side, 10 written 0 (notes §9). */
static int file3_num(xq_color side, int x, bool from_right)
{
    if (from_right) return xqn_file_num(side, x);
    return side == XQ_RED ? x + 1 : 9 - x;
}

static int rank3_r(xq_color side, int digit)
{
    int k = digit == 0 ? 10 : digit;
    return side == XQ_RED ? k - 1 : 10 - k;
}

static int rank3_digit(xq_color side, int r)
{
    int k = side == XQ_RED ? r + 1 : 10 - r;
    return k == 10 ? 0 : k;
}

static const char *const hint_3digit = " (write 進/退 in place of the from-file)";

/* --- reading ---------------------------------------------------------- */

/* The 3 bytes at u as a table key (U8KEY): one 4-byte load, so 4 bytes
 * must be there. */
static inline uint32_t key_at(const unsigned char *u)
{
    uint32_t w;
    memcpy(&w, u, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap32(w);
#endif
    return w & 0xFFFFFFu;
}

/* The last 3 bytes before end as a table key: one load of the 4 bytes
 * before end (the token has at least 4). */
static inline uint32_t key_before(const unsigned char *end)
{
    uint32_t w;
    memcpy(&w, end - 4, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap32(w);
#endif
    return w >> 8;
}

/* The table entry of key if it has class cls, else NULL. */
static inline const cn_char *char_cls(uint32_t key, int cls)
{
    const cn_char *e = char_of_key(key);
    return e && e->cls == cls ? e : NULL;
}

/* A numeral 1..9 of the table (not an ASCII digit) with key; -1 if none. */
static inline int num_of_key(uint32_t key)
{
    const cn_char *e = char_cls(key, CT_NUM);
    return e && e->val ? e->val : -1;
}

/* Pieces strictly between line indices a and z of a rank or file mask. */
static inline unsigned line_between(unsigned occ, int a, int z)
{
    if (a > z) {
        int t = a;
        a = z;
        z = t;
    }
    return occ & (~1u << a) & ((1u << z) - 1);
}

/* The to-square of the side to move's piece of `kind` on file x, rank r
 * for 進退平 action and arg (1..9), when that move passes the geometry of
 * xq_move_legality (CXA1999 §2.2-2.3); -1 when it leaves the board, names
 * no move (xqn_target_xr) or fails the geometry (the general path then
 * says why).  The piece and the shape come from the text, so only the
 * rest is tested: one step and the palace (general, advisor), river,
 * soldier direction, eye, leg, path or screen, and an own piece on the
 * target. */
__attribute__((always_inline)) static inline int fast_target(const xq_position *pos, xq_kind kind, int x, int r, int action, int arg)
{
    const xq_piece *b = pos->board;
    xq_color side = pos->side;
    int tx = xqn_file_x(side, arg), tr = r;
    int dx = tx > x ? tx - x : x - tx;
    if (action == XQN_SIDE) {
        if (kind == XQ_SOLDIER) {   /* one step, across the river only */
            if (dx != 1 || xq_own_half(r, side)) return -1;
        } else if (kind == XQ_GENERAL) {   /* one step, in the palace */
            if (dx != 1 || !xq_in_palace(tx, r, side)) return -1;
        } else if (kind != XQ_CHARIOT && kind != XQ_CANNON) {
            return -1;
        } else if (dx == 0) {
            return -1;
        }
    } else {
        int d = (action == XQN_FWD) == (side == XQ_RED) ? 1 : -1;   /* in ranks */
        switch (kind) {
        case XQ_SOLDIER:   /* one step forward only */
            if (action != XQN_FWD || arg != 1) return -1;
            tx = x;
            tr = r + d;
            break;
        case XQ_GENERAL:   /* one step, in the palace */
            if (arg != 1) return -1;
            tx = x;
            tr = r + d;
            if (!xq_in_palace(tx, tr, side)) return -1;
            break;
        case XQ_CHARIOT:
        case XQ_CANNON:
            tx = x;
            tr = r + d * arg;
            break;
        case XQ_ADVISOR:
            tr = r + d;
            if (dx != 1 || !xq_in_palace(tx, tr, side)) return -1;
            break;
        case XQ_ELEPHANT:
            tr = r + 2 * d;
            if (dx != 2 || tr < 0 || tr > 9 || !xq_own_half(tr, side)) return -1;
            if (b[(XQ_SQ(x, r) + XQ_SQ(tx, tr)) / 2]) return -1;   /* the eye */
            break;
        case XQ_HORSE:
            if (dx != 1 && dx != 2) return -1;
            tr = r + d * (3 - dx);
            if (tr < 0 || tr > 9) return -1;
            if (b[dx == 2 ? XQ_SQ((x + tx) / 2, r) : XQ_SQ(x, r + d)]) return -1;   /* the leg */
            break;
        default:
            return -1;
        }
        if (tr < 0 || tr > 9) return -1;
    }
    int to = XQ_SQ(tx, tr);
    xq_piece t = b[to];
    if (t && XQ_COLOR(t) == side) return -1;
    if (kind == XQ_CHARIOT || kind == XQ_CANNON) {
        unsigned between = tx == x ? line_between(pos->file_occ[x], r, tr) : line_between(pos->rank_occ[r], x, tx);
        if (kind == XQ_CHARIOT || !t) return between ? -1 : to;
        return between && !(between & (between - 1)) ? to : -1;   /* exactly one screen */
    }
    return to;
}

/* The legal move of the side to move's piece on file x, rank r (not a
 * general) for 進退平 action and arg, when that side is not in check:
 * geometry (fast_target), then the general's safety; XQ_MOVE_NONE when
 * illegal. */
__attribute__((always_inline)) static inline xq_move quick_legal(const xq_position *pos, xq_kind kind, int x, int r, int action, int arg)
{
    int to = fast_target(pos, kind, x, r, action, arg);
    int from = XQ_SQ(x, r);
    if (to < 0) return XQ_MOVE_NONE;
    return xq_quiet_move_safe_inline(pos, from, to) ? XQ_MOVE(from, to) : XQ_MOVE_NONE;
}

/* The legal move of the side to move's piece (the general too) on file
 * x, rank r for 進退平 action and arg, in check or not: geometry
 * (fast_target), then the full own-general test (xq_move_safe);
 * XQ_MOVE_NONE when illegal.  Out of line: a few plies in twenty. */
__attribute__((noinline)) static xq_move quick_any(const xq_position *pos, xq_kind kind, int x, int r, int action,
                                                   int arg)
{
    int to = fast_target(pos, kind, x, r, action, arg);
    return to >= 0 && xq_move_safe(pos, XQ_SQ(x, r), to) ? XQ_MOVE(XQ_SQ(x, r), to) : XQ_MOVE_NONE;
}

/* An advisor or elephant on a file that holds several of them, read as
 * xqn_resolve and choose do (no 前/後 needed when the action tells them
 * apart, so no warning): the pieces whose action stays on the board
 * (xqn_target_xr) are the candidates; of several, those whose target is
 * in their palace or on their half (confined_ok) when there are any.  The
 * rank of the one candidate left, or -1 when none or several are (the
 * general path then tests each one's legality or says why). */
static int confined_only_rank(const xq_position *pos, xq_piece p, int x, int action, int arg)
{
    xq_color side = pos->side;
    xq_kind kind = XQ_KIND(p);
    int cand = -1, ncand = 0, conf = -1, nconf = 0;
    for (int r = 0; r < XQ_RANKS; r++) {
        if (pos->board[XQ_SQ(x, r)] != p) continue;
        int t = xqn_target_xr(side, kind, x, r, action, arg);
        if (t < 0) continue;
        cand = r;
        ncand++;
        bool ok = kind == XQ_ADVISOR ? xq_in_palace(XQ_FILE(t), XQ_RANK(t), side) : xq_own_half(XQ_RANK(t), side);
        if (ok) {
            conf = r;
            nconf++;
        }
    }
    if (ncand == 1) return cand;
    return nconf == 1 ? conf : -1;
}

/* The move of the one candidate of confined_only_rank, when legal (out
 * of line: a few plies in a hundred). */
__attribute__((noinline)) static xq_move quick_confined(const xq_position *pos, xq_piece p, int x, int action, int arg)
{
    int r = confined_only_rank(pos, p, x, action, arg);
    return r < 0 ? XQ_MOVE_NONE : quick_legal(pos, XQ_KIND(p), x, r, action, arg);
}

/* The ranks of piece p on file x, front first as its owner sees them
 * (Red's front is rank 9), into rk; returns how many. */
static int file_ranks_front_first(const xq_position *pos, xq_piece p, int x, int rk[XQ_RANKS])
{
    int n = 0;
    for (int i = 0; i < XQ_RANKS; i++) {
        int r = XQ_COLOR(p) == XQ_RED ? 9 - i : i;
        if (pos->board[XQ_SQ(x, r)] == p) rk[n++] = r;
    }
    return n;
}

/* The one file that holds two or more of piece p, or -1 when none or
 * several do (xqn_board_lists_fill's ntandem == 1). */
static int only_tandem_file(const xq_position *pos, xq_piece p)
{
    int found = -1;
    for (int x = 0; x < XQ_FILES; x++) {
        int n = 0;
        for (unsigned occ = pos->file_occ[x]; occ; occ &= occ - 1)
            n += pos->board[XQ_SQ(x, __builtin_ctz(occ))] == p;
        if (n >= 2) {
            if (found >= 0) return -1;
            found = x;
        }
    }
    return found;
}

/* 前炮退二 / 後馬進五 / 中兵平四 (marker 前, 中 or 後 of CXA notation,
 * then piece, action, numeral: 10 or 12 bytes, u[0..2] the marker
 * mark), for a side not in check and a piece other than its general, when
 * one file holds two or more of the piece: the piece the marker names on
 * it (xqn_marker_index), its geometry and its general's safety.  This is
 * what xqn_resolve does with one tandem file (SH_MARK, no file): one
 * candidate, no warning.  XQ_MOVE_NONE otherwise (several tandem files,
 * pooled orders and every error go to the general path). */
__attribute__((noinline)) static xq_move quick_marker(const xq_position *pos, const unsigned char *u, size_t len, int marker)
{
    if (len != 10 && len != 12) return XQ_MOVE_NONE;
    const cn_char *piece = char_cls(key_at(u + 3), CT_PIECE);
    const cn_char *act = char_cls(key_at(u + 6), CT_ACT);
    if (!piece || !act || piece->val == XQ_GENERAL) return XQ_MOVE_NONE;
    int arg = len == 10 ? ((unsigned)(u[9] - '1') < 9u ? u[9] - '0' : -1) : num_of_key(key_before(u + len));
    if (arg < 0) return XQ_MOVE_NONE;
    xq_piece p = XQ_PIECE(piece->val, pos->side);
    int x = only_tandem_file(pos, p);
    if (x < 0) return XQ_MOVE_NONE;
    int rk[XQ_RANKS];
    int n = file_ranks_front_first(pos, p, x, rk);
    int ix = xqn_marker_index(marker, 0, n);
    if (ix < 0) return XQ_MOVE_NONE;
    return quick_legal(pos, (xq_kind)piece->val, x, rk[ix], act->val, arg);
}

/* The four characters of the full form 炮二平五 / 馬８進７ / 馬8進7 as
 * numbers: piece kind, file numeral 1..9 as written, action (XQN_FWD,
 * BACK, SIDE), numeral 1..9 as written. */
typedef struct { unsigned char kind, file, action, arg; } full_desc;

/* What decode_full found in a token. */
enum { DEC_NONE, DEC_FULL, DEC_MARK };

/* Decode the full form straight from its bytes (piece and action are 3
 * bytes, each numeral 1 or 3, so 8 to 12 bytes: the caller checks len):
 * DEC_FULL with *d filled; DEC_MARK when the first character is a marker
 * 前/中/後 (its XQN_M_* in d->kind); DEC_NONE for anything else.  The
 * 4-byte loads stay inside the token, the last one ends at its end. */
__attribute__((always_inline)) static inline int decode_full(const unsigned char *u, size_t len, full_desc *d)
{
    const cn_char *piece = char_of_key(key_at(u));
    if (!piece) return DEC_NONE;
    if (piece->cls != CT_PIECE) {
        d->kind = piece->val;
        return piece->cls == CT_MARK ? DEC_MARK : DEC_NONE;
    }
    size_t i = 4;
    int file = u[3] - '0';
    if ((unsigned)(u[3] - '1') >= 9u) {   /* not an ASCII 1..9: a 3-byte numeral */
        file = num_of_key(key_at(u + 3));
        i = 6;
    }
    if (file < 0 || len - i < 4) return DEC_NONE;
    const cn_char *act = char_cls(key_at(u + i), CT_ACT);
    if (!act) return DEC_NONE;
    i += 3;
    int arg;
    if (len == i + 1 && (unsigned)(u[i] - '1') < 9u) arg = u[i] - '0';
    else if (len == i + 3) arg = num_of_key(key_before(u + len));
    else return DEC_NONE;
    if (arg < 0) return DEC_NONE;
    *d = (full_desc){piece->val, (unsigned char)file, act->val, (unsigned char)arg};
    return DEC_FULL;
}

/* xq_move_read_quick (notation.h): the full form 炮二平五 / 馬８進７ /
 * 馬8進7 whose file holds one piece of the kind, nearly every move of a
 * real record.  Decodes the four characters straight from their bytes
 * (decode_full), finds the from-square (the one piece on its file,
 * xqn_only_rank_on_file) and, for a side told not in check moving a
 * piece other than its general, the to-square with only the board's part
 * of the geometry left to test (fast_target), then the general's safety
 * (xq_quiet_move_safe).  A general and a side that may be in check take
 * the same geometry, then the core's full own-general test (quick_any,
 * xq_move_safe); XQ_READ_UNCHECKED no test at all (xqn_target_xr) as
 * before.  Told not in check, it also takes two forms of tandem pieces:
 * an advisor or elephant whose action tells the pieces on its file apart
 * (confined_only_rank), and 前/中/後 with one tandem file (quick_marker).
 * XQ_MOVE_NONE for every other token or position, and for an illegal
 * move: the general path then reads it and gives the reason (tokenise,
 * SH_FULL, xqn_resolve with one candidate, xqn_finish), and for the moves
 * taken here the same move, which test_notation_fast.c and
 * test_move_read_quick.c check. */
xq_move xq_move_read_quick(const xq_position *pos, const char *text, size_t len, xq_notation notation,
                           unsigned flags)
{
    if ((unsigned)notation > XQ_NOTATION_CHINESE_3DIGIT || (flags & XQN_READ_NO_FAST) || !text)
        return XQ_MOVE_NONE;
    const unsigned char *u = (const unsigned char *)text;
    if (len < 8 || len > 12) return XQ_MOVE_NONE;
    bool quiet = (flags & (XQ_READ_UNCHECKED | XQ_READ_NOT_IN_CHECK)) == XQ_READ_NOT_IN_CHECK;
    full_desc d;
    int dec = decode_full(u, len, &d);
    if (dec != DEC_FULL) {
        if (dec != DEC_MARK || !quiet) return XQ_MOVE_NONE;
        return quick_marker(pos, u, len, d.kind);
    }

    xq_color side = pos->side;
    xq_kind kind = (xq_kind)d.kind;
    int x = xqn_file_x(side, d.file);
    int r = xqn_only_rank_on_file(pos, XQ_PIECE(kind, side), x);
    if (r < 0) {
        if (!quiet || (kind != XQ_ADVISOR && kind != XQ_ELEPHANT)) return XQ_MOVE_NONE;
        return quick_confined(pos, XQ_PIECE(kind, side), x, d.action, d.arg);
    }
    int from = XQ_SQ(x, r);
    if (quiet && kind != XQ_GENERAL) {
        /* the common case: geometry here, then the general's safety */
        return quick_legal(pos, kind, x, r, d.action, d.arg);
    }
    if (flags & XQ_READ_UNCHECKED) {
        int to = xqn_target_xr(side, kind, x, r, d.action, d.arg);
        return to < 0 ? XQ_MOVE_NONE : XQ_MOVE(from, to);
    }
    /* a general, or a side that may be in check: geometry here, then the
     * full own-general test (what xq_move_legality and, for a general,
     * xq_move_legality_known ask after the geometry) */
    return quick_any(pos, kind, x, r, d.action, d.arg);
}

/* --- reading and playing in one step (xq_move_read_play) --------------- */

/* full_desc d packed as xq_move_desc gives it (notation.h): never 0 (the
 * kind is 1..7) and never XQ_DESC_OTHER. */
static inline uint16_t desc_pack(const full_desc *d)
{
    return (uint16_t)(d->arg | d->action << 4 | d->file << 6 | d->kind << 10);
}

/* xq_move_desc (notation.h): decode_full, packed. */
uint16_t xq_move_desc(const char *text, size_t len)
{
    full_desc d;
    if (!text || len < 8 || len > 12 || decode_full((const unsigned char *)text, len, &d) != DEC_FULL)
        return XQ_DESC_OTHER;
    return desc_pack(&d);
}

/* The descs (xq_move_desc) of the tokens met lately, by their bytes, for
 * the readers that keep none in their nodes (xq_node.desc 0: UTF-8
 * input, XML, DhtmlXQ ...): a record repeats few texts (炮二平五,
 * 馬８進７ ...: 1,400 in 5,000 games), and one look-up of the whole token
 * costs less than decoding its four characters.  A token of 8 to 12
 * bytes is known by its first 8 bytes (head), its last 4 (tail) and its
 * length: together they hold every byte.  The slot keeps the length (0:
 * an empty slot, no token is that short) and the desc: 16 bytes.  Two
 * slots a bucket (2,048 buckets), the newer token first: a token evicts
 * the older of the two.  Per thread (workers replay in parallel). */
typedef struct {
    uint64_t head;
    uint32_t tail;
    uint16_t len, desc;
} tok_slot;
_Static_assert(sizeof(tok_slot) == 16, "a token slot is 16 bytes");
enum { TOK_BITS = 11, TOK_BUCKETS = 1 << TOK_BITS };
static _Thread_local tok_slot tok_cache[TOK_BUCKETS][2];

/* The bucket of the token whose first 8 bytes are head, last 4 tail (the
 * length is left to the compare).  Two multiplications: head and tail
 * share bytes of the same characters, and their differences must reach
 * the top bits that pick the bucket. */
static inline tok_slot *tok_bucket_of(uint64_t head, uint32_t tail)
{
    uint64_t h = (head ^ tail * 0x9E3779B97F4A7C15ull) * 0xD6E8FEB86659FD93ull;
    return tok_cache[h >> (64 - TOK_BITS)];
}

/* Whether slot e holds the token head, tail, len. */
static inline bool tok_is(const tok_slot *e, uint64_t head, uint32_t tail, size_t len)
{
    return e->head == head && e->tail == tail && e->len == len;
}

/* A cache miss: decode the token (xq_move_desc) and keep it in the first
 * slot of its bucket (the one there moves to the second); its desc. */
__attribute__((noinline)) static uint16_t tok_fill(tok_slot *bucket, const unsigned char *u, size_t len,
                                                   uint64_t head, uint32_t tail)
{
    uint16_t desc = xq_move_desc((const char *)u, len);
    bucket[1] = bucket[0];
    bucket[0] = (tok_slot){head, tail, (uint16_t)len, desc};
    return desc;
}

/* The desc of the token u[0..len) (8 to 12 bytes) if the cache holds
 * it, else 0 (then tok_read has it).  No call: its caller can stay free
 * of saved registers. */
__attribute__((always_inline)) static inline uint16_t tok_probe(const unsigned char *u, size_t len)
{
    uint64_t head;
    uint32_t tail;
    memcpy(&head, u, 8);
    memcpy(&tail, u + len - 4, 4);
    const tok_slot *bucket = tok_bucket_of(head, tail);
    if (tok_is(&bucket[0], head, tail, len)) return bucket[0].desc;
    if (tok_is(&bucket[1], head, tail, len)) return bucket[1].desc;
    return 0;
}

/* The desc of the token u[0..len) (8 to 12 bytes) through the cache. */
static inline uint16_t tok_read(const unsigned char *u, size_t len)
{
    uint16_t desc = tok_probe(u, len);
    if (desc) return desc;
    uint64_t head;
    uint32_t tail;
    memcpy(&head, u, 8);
    memcpy(&tail, u + len - 4, 4);
    return tok_fill(tok_bucket_of(head, tail), u, len, head, tail);
}

/* The out-of-line steps of xq_move_read_play_desc: not inlined, and with
 * the signatures as written (GCC's noipa: no interprocedural change that
 * would drop an unused argument and make a jump to them move the others
 * between registers).  Other compilers: noinline. */
#if defined(__GNUC__) && !defined(__clang__)
#define READ_PLAY_OUT __attribute__((noipa))
#else
#define READ_PLAY_OUT __attribute__((noinline))
#endif

/* Every case xq_move_read_play leaves to the two calls it stands for
 * (前/中/後, a file with several pieces of the kind, a token not of the
 * full form): xq_move_read_quick, then xq_play when it
 * gave a move.  Out of line: a few plies in twenty.  The arguments of
 * xq_move_read_play_desc in its order (d unused), as for every function
 * it jumps to: the jump then moves no argument. */
READ_PLAY_OUT static xq_played read_play_other(xq_position *pos, unsigned d, const char *text,
                                               size_t len, xq_notation notation, xq_checks *s)
{
    (void)d;
    xq_played out = {xq_move_read_quick(pos, text, len, notation, s->in_check[pos->side] ? 0u : XQ_READ_NOT_IN_CHECK),
                     XQ_NONE};
    if (out.move != XQ_MOVE_NONE) out.captured = xq_play_inline(pos, out.move, s);
    return out;
}

/* A full form (desc d) whose file holds none or several pieces of the
 * kind: what xq_move_read_quick does then (for a side not in check, an
 * advisor or elephant that its action tells apart from the others on
 * the file: quick_confined; nothing else), then xq_play_inline.  Out of
 * line: a few plies in a hundred. */
READ_PLAY_OUT static xq_played read_play_confined(xq_position *pos, unsigned d, xq_checks *s)
{
    xq_color side = pos->side;
    xq_kind kind = (xq_kind)(d >> 10);
    xq_played out = {XQ_MOVE_NONE, XQ_NONE};
    if (s->in_check[side] || (kind != XQ_ADVISOR && kind != XQ_ELEPHANT)) return out;
    out.move = quick_confined(pos, XQ_PIECE(kind, side), xqn_file_x(side, (int)(d >> 6 & 15)), (int)(d >> 4 & 3),
                              (int)(d & 15));
    if (out.move != XQ_MOVE_NONE) out.captured = xq_play_inline(pos, out.move, s);
    return out;
}

/* xq_move_play_desc for a general or a side in check, the piece on rank r
 * (xq_move_read_quick: quick_any), then xq_play_inline.  Out of line:
 * the common path then keeps its move's squares in registers. */
READ_PLAY_OUT static xq_played read_play_any(xq_position *pos, unsigned d, int r, xq_checks *s)
{
    xq_kind kind = (xq_kind)(d >> 10);
    xq_played out = {quick_any(pos, kind, xqn_file_x(pos->side, (int)(d >> 6 & 15)), r, (int)(d >> 4 & 3),
                               (int)(d & 15)),
                     XQ_NONE};
    if (out.move != XQ_MOVE_NONE) out.captured = xq_play_inline(pos, out.move, s);
    return out;
}

/* The full form of desc d (desc_pack) read and played, the plain way
 * (xq_move_play_desc's fast path, desc_plan, does the same in fewer
 * steps; this one takes every ply that path leaves): its four fields,
 * the file numeral as a board file (xqn_file_x), the one piece on that
 * file, the geometry (fast_target), the own general's safety (two table
 * reads, else xq_quiet_move_safe; a general or a side in check:
 * read_play_any), then the move made and the check state of the side now
 * to move (xq_play_known); a file with none or several pieces of the
 * kind: read_play_confined.  What xq_move_read_quick and xq_play do with
 * the text, from d alone: out of line and jumped to with three
 * arguments, so that the common path keeps few registers to save. */
READ_PLAY_OUT static xq_played play_desc_full(xq_position *pos, unsigned d, xq_checks *s)
{
    xq_color side = pos->side;
    xq_kind kind = (xq_kind)(d >> 10);
    int num = (int)(d >> 6 & 15), action = (int)(d >> 4 & 3), arg = (int)(d & 15);
    int x = xqn_file_x(side, num);
    int r = xqn_only_rank_on_file(pos, XQ_PIECE(kind, side), x);
    if (r < 0) return read_play_confined(pos, d, s);
    /* xq_move_read_quick's choice for one piece on the file */
    if (kind == XQ_GENERAL || s->in_check[side]) return read_play_any(pos, d, r, s);
    /* quick_legal, then the move played from what is known here: the
     * mover (kind, side) and the piece on the to-square (xq_play_known) */
    xq_played out = {XQ_MOVE_NONE, XQ_NONE};
    int to = fast_target(pos, kind, x, r, action, arg), from = XQ_SQ(x, r);
    if (to < 0 || !xq_quiet_move_safe_inline(pos, from, to)) return out;
    out.move = XQ_MOVE(from, to);
    out.captured = xq_play_known(pos, from, to, XQ_PIECE(kind, side), pos->board[to], s);
    return out;
}

/* What the fast path of xq_move_play_desc needs of a full-form desc
 * for one side, worked out once (plan_build) instead of once a ply: the
 * mover, its file, the to-square as an offset from the from-square (the
 * same from every rank: 進退平 fix the file and the rank step), the
 * ranks from which the move passes the geometry that needs no board
 * (on the board, palace, river, soldier direction: what fast_target
 * tests without reading the board), and the one board test left, as one
 * recipe for every kind (plan_board_ok): an occupancy mask (a rank's,
 * or a file's), shifted right, the bits of the squares that must be
 * empty, and whether a capture needs exactly one of them occupied (a
 * cannon's screen).  A horse's leg, an elephant's eye and a chariot's
 * or cannon's path are then one formula with no branch on the kind:
 * the kind of the mover is as good as random from ply to ply, and the
 * branches on it were the most mispredicted of the replay.
 * head == 0: not built yet.  8 bytes, so that the plans of args 1..8
 * of one (kind, file, action) share one cache line (plan_of; at 16
 * bytes they took three).  The plan's load still misses the first-level
 * cache on about two plies in three (cachegrind, the first 5,255 master
 * games): the reader's tables evict the plans between games. */
enum {
    PT_RANK = 1,       /* a rank's mask (from's rank picks it); else a file's (from's rank adds to the shift) */
    PT_AT = 62,        /* where the mask is: bytes past rank_occ (rank_occ and file_occ: one array of 19 masks) */
    PT_NEED = 192,     /* the row of plan_need: PT_CANNON | the side */
    PT_CANNON = 128,   /* a capture needs exactly one piece on the bits (a cannon's screen); else none */
    PT_HORSE = XQ_REL_HORSE   /* in head: a horse (plan_check_touched reads horse squares) */
};
_Static_assert(PT_HORSE == 64, "head's bits 4 to 7 are free for the horse's");
_Static_assert(offsetof(xq_position, file_occ) == offsetof(xq_position, rank_occ) + 2 * XQ_RANKS,
               "the plan's PT_AT reads rank_occ and file_occ as one array");
typedef struct {
    /* p | PT_HORSE for a horse | fx << 8 | ranks << 16 | PLAN_BUILT |
     * x << 28: the mover (kind | side << 3), x * 10 (where its file
     * starts in fboard), bit r of ranks: playable from rank r as far as
     * no board matters, the mover's file x.  0: not built.  Written
     * last, with release order, by the one thread that builds the plan
     * (under plan_lock), and read with acquire order: the fields below,
     * written before it and never after, are read only once it is not
     * 0. */
    _Atomic uint32_t head;
    int8_t delta;       /* to - from */
    uint8_t test;       /* the mask (PT_AT, PT_RANK), the count needed (PT_NEED) */
    int8_t aux;         /* the shift of the mask (PT_RANK), or what from's rank adds to it (a file's mask) */
    uint8_t between;    /* the bits of the shifted mask that must be empty (0: no board test) */
} desc_plan;
_Static_assert(sizeof(desc_plan) == 8, "a plan is 8 bytes");
#define PLAN_BUILT (1u << 26)

/* Plans by side and desc (bits 0-12), built as descs come (a file
 * repeats few: about 1,400 in 5,000 games), shared by the threads; the
 * plan of (side, d) at side * PLAN_DESCS + d + 7 (plan_of), so that
 * args 1..8 of a (kind, file, action) fill one 64-byte line. */
enum { PLAN_DESCS = 1 << 13 };
static _Alignas(64) desc_plan plans[2 * PLAN_DESCS + 8];
static pthread_mutex_t plan_lock = PTHREAD_MUTEX_INITIALIZER;

/* The plans as bytes, for a caller that knows the next ply's desc
 * before it plays this one (the replay loop: nodes[i + 1].desc, the
 * other side) and starts loading its plan: the plan of (side, d) is the
 * 8 bytes at xq_desc_plans + 8 * (side * 8192 + (d & 8191) + 7)
 * (plan_of; any d is safe).  Its load misses the first-level cache on
 * about two plies in three (the reader's tables evict the plans between
 * games), and is the first thing xq_move_play_desc waits for.  Read only
 * as a prefetch address (xq_move_desc_prefetch, notation.h): no effect
 * on any result. */
const unsigned char *const xq_desc_plans = (const unsigned char *)plans;
_Static_assert(sizeof(desc_plan) == 8 && PLAN_DESCS == 8192, "the layout xq_desc_plans' users assume");

/* The plan of desc d (bits 0-12 count) for side. */
static inline desc_plan *plan_of(xq_color side, unsigned d)
{
    return &plans[(unsigned)side * PLAN_DESCS + (d & (PLAN_DESCS - 1)) + 7];
}

/* The board with no piece, side to move c: the one on which
 * fast_target tests only what needs no board. */
static const xq_position empty_board[2] = {{.side = XQ_RED}, {.side = XQ_BLACK}};

/* The REL bits of the to-square that matter for the check state after
 * a move of piece p (not a general): g's lines and g itself, and for a
 * horse the horse squares (check_by_move). */
static inline unsigned plan_rel_to(xq_piece p)
{
    return XQ_REL_LINES | XQ_REL_SELF | (XQ_KIND(p) == XQ_HORSE ? XQ_REL_HORSE : 0);
}

/* The test byte of a plan whose mask is file fx's (shifted by from's
 * rank + aux). */
static inline uint8_t plan_file_test(int fx) { return (uint8_t)(2 * (XQ_RANKS + fx)); }

/* Work out the plan of full-form desc d for side (see desc_plan) into
 * *pl, head last: the ranks from which fast_target finds a target on the
 * empty board, the offset it gives (the same from each), and the test
 * it makes on a real board as a mask recipe (plan_board_ok): a horse's
 * leg on from's rank (rank mask, the leg's file bit) or file (file
 * mask, the leg's rank bit), an elephant's eye (the eye's file mask, its
 * rank bit), a chariot's or cannon's path (the ranks strictly between
 * from and to on the file mask shifted right by from's rank + aux, or
 * the files strictly between on the rank mask); no bits for an advisor,
 * a soldier or the general (its own tests in play_plan_any).  The
 * caller holds plan_lock. */
static void plan_fill(desc_plan *pl, xq_color side, unsigned d)
{
    xq_kind kind = (xq_kind)(d >> 10 & 7);
    int num = (int)(d >> 6 & 15), action = (int)(d >> 4 & 3), arg = (int)(d & 15);
    unsigned ranks = 0;
    int x = 0;
    pl->delta = 0;
    pl->test = PT_RANK;   /* rank_occ[r], no bits */
    pl->aux = 0;
    pl->between = 0;
    if (kind != XQ_NONE && num >= 1 && num <= 9 && action >= 1 && arg >= 1 && arg <= 9) {
        x = xqn_file_x(side, num);
        for (int r = 0; r < XQ_RANKS; r++) {
            int to = fast_target(&empty_board[side], kind, x, r, action, arg);
            if (to < 0) continue;
            ranks |= 1u << r;
            pl->delta = (int8_t)(to - XQ_SQ(x, r));   /* the same from every rank */
        }
        int tx = xqn_file_x(side, arg);
        int dir = (action == XQN_FWD) == (side == XQ_RED) ? 1 : -1;   /* in ranks, as fast_target */
        if (kind == XQ_ELEPHANT) {
            /* the eye: the file between, one rank on */
            pl->test = plan_file_test((x + tx) / 2);
            pl->aux = (int8_t)dir;
            pl->between = 1;
        } else if (kind == XQ_HORSE && (tx - x == 2 || x - tx == 2)) {
            /* the leg on from's rank, on the file between */
            pl->aux = (int8_t)((x + tx) / 2);
            pl->between = 1;
        } else if (kind == XQ_HORSE) {
            /* the leg on from's file, one rank on */
            pl->test = plan_file_test(x);
            pl->aux = (int8_t)dir;
            pl->between = 1;
        } else if ((kind == XQ_CHARIOT || kind == XQ_CANNON) && action == XQN_SIDE) {
            int lo = tx < x ? tx : x, hi = tx < x ? x : tx;
            pl->between = (uint8_t)(((1u << hi) - 1) & (~1u << lo));   /* bits 1..7 */
        } else if (kind == XQ_CHARIOT || kind == XQ_CANNON) {
            /* ranks r+1 .. r+dr-1 or r+dr+1 .. r-1: arg - 1 of them
             * from the lower end's next rank, r + aux */
            int dr = dir * arg;
            pl->test = plan_file_test(x);
            pl->aux = (int8_t)((dr > 0 ? 0 : dr) + 1);
            pl->between = (uint8_t)((1u << (arg - 1)) - 1);   /* arg <= 9: 8 bits */
        }
        if (kind == XQ_CANNON) pl->test |= PT_CANNON;
    }
    pl->test |= (uint8_t)(side << 6);   /* plan_need's row: PT_CANNON | side */
    atomic_store_explicit(&pl->head, XQ_PIECE(kind, side) | (kind == XQ_HORSE ? PT_HORSE : 0) |
                                         (unsigned)x * XQ_RANKS << 8 | ranks << 16 | PLAN_BUILT | (unsigned)x << 28,
                          memory_order_release);
}

/* Build the plan of desc d (bits 0-12) for side if no thread has yet:
 * once a desc and side in a process, out of line. */
__attribute__((noinline, cold)) static void plan_build(xq_color side, unsigned d)
{
    desc_plan *pl = plan_of(side, d);
    pthread_mutex_lock(&plan_lock);
    if (!atomic_load_explicit(&pl->head, memory_order_relaxed)) plan_fill(pl, side, d);
    pthread_mutex_unlock(&plan_lock);
}

/* What xq_move_play_desc leaves to the full path: a plan not built yet
 * (built here first), a file with none or several pieces of the kind, a
 * rank the plan's geometry rules out.  The arguments of
 * xq_move_play_desc, so the jump here moves none. */
READ_PLAY_OUT static xq_played play_desc_other(xq_position *pos, unsigned d, xq_checks *s)
{
    unsigned i = d & (PLAN_DESCS - 1);
    if (!atomic_load_explicit(&plan_of(pos->side, i)->head, memory_order_acquire)) plan_build(pos->side, i);
    return play_desc_full(pos, d, s);
}

/* play_check_rest's rare cases: the full test (rel 0: the side now to
 * move was in check: xq_play_check_full), or a move that touched
 * several of its general's lines and legs (xq_play_check_moved). */
READ_PLAY_OUT static xq_played play_check_slow(xq_position *pos, unsigned ft, xq_checks *s, xq_played out,
                                               unsigned rel)
{
    xq_color side = pos->side;
    if (!rel) xq_play_check_full(pos, s, out.captured);
    else s->in_check[side] = xq_play_check_moved(pos, (xq_move)ft, pos->general[side], rel);
    return out;
}

/* The check state of the side now to move after the fast path's move
 * ft (from | to << 7; played: pos is the position after it), when
 * plan_check_touched says its first test does not settle it (rel: what
 * it found, 0 when that side was in check, else the REL bits of from
 * that matter | those of to << 8): the full test
 * (xq_play_check_full), or the one of xq_play_known's tests after its
 * first that fits.  Returns out (the move played), so the fast path
 * jumps here. */
READ_PLAY_OUT static xq_played play_check_rest(xq_position *pos, unsigned ft, xq_checks *s, xq_played out,
                                               unsigned rel)
{
    /* the two common cases jump to a leaf that stores the answer */
    unsigned rf = rel & 0xFF, rt = rel >> 8;
    int g = pos->general[pos->side];
    if (rel && (rt & XQ_REL_LINES) && (!rf || rf == rt)) return xq_play_entered_out(pos, g, (int)(ft >> 7), rt, s, out);
    if (rel && !rt && (rf & XQ_REL_LINES)) return xq_play_opened_out(pos, g, rf, s, out);
    return play_check_slow(pos, ft, s, out, rel);
}

/* After the fast path's move from -> to of piece p (made or not: a
 * mover that is not a general changes no general square; the mover was
 * not in check and is not now), for the other side (opp, the side to
 * move after it): 0 when its check state stays false, which most
 * moves settle by two table reads (they touch no line or leg of its
 * general, nor for a horse a horse square: check_by_move looks at that
 * square for a horse there and nothing else); else what
 * play_check_rest needs: 0x10000 when that side was in check (an
 * impossible start), else the REL bits of from that matter | those of
 * to << 8 (not 0).  A side without a general reads xq_rel's row of 0:
 * 0, no check (xq_in_check's answer).  rel_to: plan_rel_to(p) (a
 * plan's head keeps its horse bit, PT_HORSE). */
__attribute__((always_inline)) static inline unsigned plan_check_touched(const xq_position *pos, xq_color opp,
                                                                         int from, int to, unsigned rel_to,
                                                                         const xq_checks *s)
{
    int g = pos->general[opp];   /* a mover that is not a general moves neither */
    if (s->in_check[opp]) return 0x10000;   /* none: a row of 0 (xq_rel), no check */
    return (xq_rel[g][from] & (XQ_REL_LINES | XQ_REL_SELF | XQ_REL_LEG)) | (xq_rel[g][to] & rel_to) << 8;
}

/* xq_move_play_desc past its board tests when the move touches a line
 * or leg of the mover's general g in a way neither plan_safe_at_once nor
 * plan_guard_clear settles (ft: from | to << 7 | g << 14):
 * xq_quiet_move_safe_inline's tests past its first, then the move made
 * (xq_make_known_plain: the mover is not a general) and the check state
 * kept (plan_check_touched, play_check_rest).  Out of line: the fast
 * path keeps no register across its calls. */
READ_PLAY_OUT static xq_played play_plan_guarded(xq_position *pos, unsigned ft, xq_checks *s)
{
    int from = (int)(ft & 127), to = (int)(ft >> 7 & 127), g = (int)(ft >> 14);
    unsigned rf = xq_rel[g][from], rt = xq_rel[g][to];
    unsigned df = rf & XQ_REL_LINES, dt = rt & XQ_REL_LINES;
    xq_piece p = pos->board[from], t = pos->board[to];
    bool safe;
    if ((rf | rt) & XQ_REL_SELF) safe = !xq_safe_exposes_general(pos, from, to);
    else if (df && df == dt) safe = !xq_safe_opened_by_capture(pos, g, df, from, to);   /* t: not at once */
    else if (df && !dt) safe = !xq_safe_opened_by(pos, g, df, from);
    else if (!rf) safe = !xq_safe_screen_made(pos, g, dt, to);   /* t empty: not at once */
    else safe = !xq_safe_exposed_rest(pos, g, from, to, rf, rt);
    if (!safe) return (xq_played){XQ_MOVE_NONE, XQ_NONE};
    ft &= 0x3FFF;
    xq_played out = {(xq_move)ft, xq_make_known_plain(pos, from, to, p, t)};
    unsigned rel = plan_check_touched(pos, pos->side, from, to, plan_rel_to(p), s);
    if (rel) return play_check_rest(pos, ft, s, out, rel & 0xFFFF);
    return out;
}

/* The 16 bytes of each piece (0..15): the line compares below. */
#define SPLAT_(p) {p, p, p, p, p, p, p, p, p, p, p, p, p, p, p, p}
static const uint8_t splat16[16][16] __attribute__((aligned(16))) = {
    SPLAT_(0), SPLAT_(1), SPLAT_(2), SPLAT_(3), SPLAT_(4), SPLAT_(5), SPLAT_(6), SPLAT_(7),
    SPLAT_(8), SPLAT_(9), SPLAT_(10), SPLAT_(11), SPLAT_(12), SPLAT_(13), SPLAT_(14), SPLAT_(15)};
#undef SPLAT_

/* Each square's four rays (north, south, east, west: the order of the
 * XQ_REL_LINES bits) for plan_ray_holding: where its line starts in
 * xq_position (its file in fboard, bit = rank; its rank in board, bit =
 * file) and the bits of that line beyond the square that way. */
typedef struct { uint16_t off, ray; } plan_ray;
#define PR_FB_ offsetof(xq_position, fboard)
#define PR_(s)                                                                                               \
    {{PR_FB_ + (s) % 9 * 10, (~1u << (s) / 9) & 0x3FFu}, {PR_FB_ + (s) % 9 * 10, (1u << (s) / 9) - 1},      \
     {offsetof(xq_position, board) + (s) / 9 * 9, (~1u << (s) % 9) & 0x1FFu},                                \
     {offsetof(xq_position, board) + (s) / 9 * 9, (1u << (s) % 9) - 1}}
#define PR9_(b) PR_(b), PR_((b) + 1), PR_((b) + 2), PR_((b) + 3), PR_((b) + 4), PR_((b) + 5), PR_((b) + 6), \
                PR_((b) + 7), PR_((b) + 8)
static const plan_ray plan_rays[XQ_SQUARES][4] = {PR9_(0),  PR9_(9),  PR9_(18), PR9_(27), PR9_(36),
                                                  PR9_(45), PR9_(54), PR9_(63), PR9_(72), PR9_(81)};
#undef PR9_
#undef PR_
#undef PR_FB_

/* The squares on ray dir (one XQ_REL_LINES bit) of the general g that
 * hold piece a or piece b (0..15), as bits of g's file mask (bit =
 * rank) or rank mask (bit = file), like file_occ and rank_occ: one
 * 16-byte compare of the file in fboard or of the rank in board (the
 * bytes past the line, the next rank or fboard's first ones, are off
 * the ray's bits). */
static inline unsigned plan_ray_holding(const xq_position *pos, int g, unsigned dir, unsigned a, unsigned b)
{
    const plan_ray *r = &plan_rays[g][__builtin_ctz(dir)];
    const unsigned char *line = (const unsigned char *)pos + r->off;
#ifdef __SSE2__
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)line);
    __m128i ea = _mm_cmpeq_epi8(v, _mm_load_si128((const __m128i *)(const void *)splat16[a]));
    __m128i eb = _mm_cmpeq_epi8(v, _mm_load_si128((const __m128i *)(const void *)splat16[b]));
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(ea, eb)) & r->ray;
#else
    unsigned m = 0;
    for (unsigned k = 0; k < 10; k++)
        if (line[k] == a || line[k] == b) m |= 1u << k;
    return m & r->ray;
#endif
}

/* Whether colour e could attack the general g along ray dir (one
 * XQ_REL_LINES bit) with the square whose bit in g's file mask is clear
 * (0: none) read as empty: a chariot or cannon of e on the ray, or on a
 * file e's general on it with nothing between (flying general, CXA1999
 * §4.1.2).  False: no piece on that ray can attack g (what the scans
 * of movegen.c would find, without the scan). */
static inline bool plan_ray_armed(const xq_position *pos, int g, unsigned dir, xq_color e, unsigned clear)
{
    if (plan_ray_holding(pos, g, dir, XQ_PIECE(XQ_CHARIOT, e), XQ_PIECE(XQ_CANNON, e))) return true;
    int eg = pos->general[e];
    if (eg >= XQ_SQUARES || !(xq_rel[g][eg] & dir & (XQ_REL_NORTH | XQ_REL_SOUTH))) return false;
    /* the ranks strictly between the generals */
    unsigned gr = xq_rank_of[g], er = xq_rank_of[eg], lo = gr < er ? gr : er, hi = gr < er ? er : gr;
    return !(pos->file_occ[xq_file_of[g]] & ((1u << hi) - (2u << lo)) & ~clear);
}

/* Whether a horse of colour e stands beyond the leg `leg` (a diagonal
 * neighbour of the general g) on a square other than to (the mover's
 * target takes a horse there): what the leg held off, and what taking
 * the mover off it lets attack (movegen.c's horse_behind). */
static inline bool plan_leg_horse(const xq_position *pos, int g, int leg, int to, xq_color e)
{
    const uint8_t *h = xq_horse_attack[g][(xq_file_of[leg] < xq_file_of[g]) * 2 + (xq_rank_of[leg] < xq_rank_of[g])];
    xq_piece horse = XQ_PIECE(XQ_HORSE, e);
    return (h[1] != to && pos->board[h[1]] == horse) || (h[2] != to && pos->board[h[2]] == horse);
}

/* Whether the fast path's move from -> to (t on to) of a piece other
 * than the general, by a side not in check, cannot expose its general g
 * (< 90; rf, rt: the REL of from and to) because the other side (e) has
 * nothing on the lines and legs it touches that could attack that way:
 * on the ray from leaves, nothing armed (plan_ray_armed, from taken
 * off); beyond a leg from leaves, no horse that to does not take
 * (plan_leg_horse: an advisor's step off the palace corner, most of
 * these); on the ray an empty to enters, no cannon of e (a new screen
 * is all a piece put there can make, the side not being in check:
 * xq_safe_screen_made); g itself not touched.  A capture on to's ray
 * changes no occupancy there.  True: safe (the scans of
 * xq_quiet_move_safe_inline would find no attacker); false: ask them
 * (play_plan_guarded). */
static inline bool plan_guard_clear(const xq_position *pos, int g, int from, int to, unsigned rf, unsigned rt,
                                    xq_piece t)
{
    if ((rf | rt) & XQ_REL_SELF) return false;
    xq_color e = (xq_color)(pos->side ^ 1);
    if ((rf & XQ_REL_LEG) && plan_leg_horse(pos, g, from, to, e)) return false;
    unsigned df = rf & XQ_REL_LINES, dt = rt & XQ_REL_LINES;
    if (df && plan_ray_armed(pos, g, df, e, xq_file_bit[from])) return false;
    if (dt && dt != df && !t) {
        xq_piece cannon = XQ_PIECE(XQ_CANNON, e);
        if (plan_ray_holding(pos, g, dt, cannon, cannon)) return false;
    }
    return true;
}

/* xq_move_play_desc past its board tests for a general's move or a side
 * in check: the move made first (xq_make_known), then the mover's own
 * general tested on the board it leads to (xq_in_check), and undone
 * (xq_unmake) when that finds it attacked: what xq_move_safe (as
 * quick_any) tests on a copy of the board with the move made, without
 * the copy and without making the move a second time, as xq_play_inline
 * after it did (read_play_any).  Then the check state of the side now
 * to move (xq_play_check_after).  test_play_plan.c compares it with
 * reading then playing, test_play_any.c on in-check and general moves
 * (illegal ones too: the position must come back unchanged). */
READ_PLAY_OUT static xq_played play_plan_any(xq_position *pos, unsigned ft, xq_checks *s)
{
    int from = (int)(ft & 127), to = (int)(ft >> 7);
    xq_undo u = {pos->board[to], pos->halfmove, pos->key};
    uint8_t general[2] = {pos->general[0], pos->general[1]};
    xq_make_known(pos, from, to, pos->board[from], u.captured);
    if (xq_in_check(pos, (xq_color)(pos->side ^ 1))) {
        /* illegal (a recorded error, rare): undone, the general squares
         * too (a board with two generals of a side may have named the
         * other one) */
        xq_unmake(pos, (xq_move)ft, &u);
        pos->general[0] = general[0];
        pos->general[1] = general[1];
        return (xq_played){XQ_MOVE_NONE, XQ_NONE};
    }
    return (xq_played){(xq_move)ft, xq_play_check_after(pos, from, to, u.captured, s)};
}

/* Whether a move from -> to (t on to) of a piece other than the
 * general, by a side not in check, is safe for its general g (its
 * square, or 0xFF for none: a row of 0, safe) by two table reads: it
 * touches none of g's lines and legs, or moves along one line without a
 * capture (the pieces keep their order), or enters a
 * line with a capture and leaves none (every square keeps its
 * occupancy).  The cases of xq_quiet_move_safe_inline that need no scan;
 * false: ask it. */
__attribute__((always_inline)) static inline bool plan_safe_at_once(int g, int from, int to, xq_piece t)
{
    unsigned rf = xq_rel[g][from], rt = xq_rel[g][to];
    if (!((rf | rt) & (XQ_REL_LINES | XQ_REL_SELF)) && !(rf & XQ_REL_LEG)) return true;
    unsigned df = rf & XQ_REL_LINES, dt = rt & XQ_REL_LINES;
    if (df) return df == dt && !t;
    return !rf && t && !(rt & XQ_REL_SELF);
}

/* The pieces on a plan's bits (plan_board_ok), counted up to 2: 0, 1,
 * or 2 for more. */
#define PLAN_N2_(b) ((b) == 0 ? 0 : ((b) & ((b) - 1)) == 0 ? 1 : 2)
#define PLAN_N8_(b) PLAN_N2_((b) + 0), PLAN_N2_((b) + 1), PLAN_N2_((b) + 2), PLAN_N2_((b) + 3), \
                    PLAN_N2_((b) + 4), PLAN_N2_((b) + 5), PLAN_N2_((b) + 6), PLAN_N2_((b) + 7)
#define PLAN_N64_(b) PLAN_N8_((b) + 0), PLAN_N8_((b) + 8), PLAN_N8_((b) + 16), PLAN_N8_((b) + 24), \
                     PLAN_N8_((b) + 32), PLAN_N8_((b) + 40), PLAN_N8_((b) + 48), PLAN_N8_((b) + 56)
static const uint8_t plan_pieces_on[256] = {PLAN_N64_(0), PLAN_N64_(64), PLAN_N64_(128), PLAN_N64_(192)};
#undef PLAN_N64_
#undef PLAN_N8_
#undef PLAN_N2_

/* The count of pieces on a plan's bits that a move onto t needs, by
 * [cannon][side][t] (the plan's PT_NEED row): 0 (an empty target, or
 * another kind's capture), 1 (a cannon's capture: its screen), none
 * (0xFF: t is the mover's own piece, refused whatever the bits hold). */
#define PLAN_NEED_(cannon, side)                                                                            \
    {0, (side) ? (cannon) : 0xFF, (side) ? (cannon) : 0xFF, (side) ? (cannon) : 0xFF, (side) ? (cannon) : 0xFF, \
     (side) ? (cannon) : 0xFF, (side) ? (cannon) : 0xFF, (side) ? (cannon) : 0xFF, 0,                           \
     (side) ? 0xFF : (cannon), (side) ? 0xFF : (cannon), (side) ? 0xFF : (cannon), (side) ? 0xFF : (cannon),   \
     (side) ? 0xFF : (cannon), (side) ? 0xFF : (cannon), (side) ? 0xFF : (cannon)}
static const uint8_t plan_need[4][16] = {PLAN_NEED_(0, 0), PLAN_NEED_(0, 1), PLAN_NEED_(1, 0), PLAN_NEED_(1, 1)};
_Static_assert(PT_CANNON >> 6 == 2, "plan_need's rows: cannon * 2 + side");
#undef PLAN_NEED_

/* Whether the move of the piece on rank r onto t passes the plan's board
 * test and the own-piece test (its recipe, desc_plan: a leg or eye
 * empty, or the line between from and to clear, a cannon's capture: one
 * piece there; no bits for the others; t not the mover's own), with no
 * branch: the mask read (as bytes of the position past rank_occ: PT_AT,
 * + 2r for a rank's), shifted (aux, + r for a file's), the bits kept,
 * and their count (plan_pieces_on) compared with the one the target
 * needs (plan_need's PT_NEED row). */
__attribute__((always_inline)) static inline bool plan_board_ok(const xq_position *pos, const desc_plan *e, int r,
                                                                xq_piece t)
{
    unsigned test = e->test;
    unsigned on_rank = (test & PT_RANK) * (unsigned)r;   /* a rank's mask: r; a file's: 0 */
    unsigned at = (unsigned)offsetof(xq_position, rank_occ) + (test & PT_AT) + 2 * on_rank;
    unsigned occ = *(const uint16_t *)(const void *)((const unsigned char *)pos + at);
    unsigned bits = occ >> (unsigned)(e->aux + r - (int)on_rank) & e->between;
    return plan_pieces_on[bits] == plan_need[test >> 6][t];
}

/* The ranks of the file starting at fboard[fx] that hold piece p (0..15):
 * xqn_ranks_on_file, with p's 16 copies read from a table instead of
 * spread across a register. */
static inline unsigned plan_ranks_on_file(const xq_position *pos, unsigned p, unsigned fx)
{
#ifdef __SSE2__
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(pos->fboard + fx));
    __m128i w = _mm_load_si128((const __m128i *)(const void *)splat16[p]);
    return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, w)) & 0x3FFu;
#else
    return xqn_ranks_on_file(pos, (xq_piece)p, (int)fx);
#endif
}

/* xq_move_play_desc (notation.h): the full form of desc d read and
 * played.  From the plan of (side, d) (desc_plan, built on first use):
 * the one piece of the kind on its file (one 16-byte compare of fboard,
 * as xqn_only_rank_on_file), whose rank the plan's geometry allows, the
 * to-square by the plan's offset, the own-piece and board test; a
 * general or a side in check: play_plan_any; else the general's safety
 * when two table reads settle it (plan_safe_at_once) or, for a move on
 * its lines, a compare of the lines touched finds nothing of the other
 * side that could attack along them (plan_guard_clear: 120 K of 147 K
 * such plies on the first 5,255 master games, each of which the scans
 * of play_plan_guarded took ~130 more instructions); else
 * play_plan_guarded; then the move made and the check state kept
 * (plan_check_touched, play_check_rest).  The rest (none or several
 * pieces on the file, a rank the geometry rules out, a plan not built
 * yet) the full path (play_desc_other, play_desc_full).  Same moves and
 * results as that path: test_play_plan.c compares the two,
 * test_play_guard.c on the positions of recorded games too. */
xq_played xq_move_play_desc(xq_position *pos, unsigned d, xq_checks *s)
{
    xq_color side = pos->side;
    const desc_plan *e = plan_of(side, d);
    uint32_t head = atomic_load_explicit(&e->head, memory_order_acquire);
    unsigned m = plan_ranks_on_file(pos, head & 15, head >> 8 & 0xFF);
    if (!(m & head >> 16) || (m & (m - 1))) return play_desc_other(pos, d, s);
    int x = (int)(head >> 28), r = __builtin_ctz(m), from = XQ_SQ(x, r), to = from + e->delta;
    xq_piece t = pos->board[to], p = (xq_piece)(head & 15);
    /* one branch, rarely taken (a recorded error) */
    if (!plan_board_ok(pos, e, r, t)) return (xq_played){XQ_MOVE_NONE, XQ_NONE};
    unsigned ft = (unsigned)XQ_MOVE(from, to);
    if ((XQ_KIND(p) == XQ_GENERAL) | s->in_check[side]) return play_plan_any(pos, ft, s);
    int g = pos->general[side];
    if (!plan_safe_at_once(g, from, to, t) &&   /* no general: a row of 0, safe at once */
        !plan_guard_clear(pos, g, from, to, xq_rel[g][from], xq_rel[g][to], t))
        return play_plan_guarded(pos, ft | (unsigned)g << 14, s);
    xq_played out = {(xq_move)ft, xq_make_known_plain(pos, from, to, p, t)};
    unsigned rel = plan_check_touched(pos, pos->side, from, to, (head & PT_HORSE) | XQ_REL_LINES | XQ_REL_SELF, s);
    if (rel) return play_check_rest(pos, ft, s, out, rel & 0xFFFF);
    return out;
}

/* read_play_tok on a cache miss: the token's desc decoded and kept
 * (tok_read), then as with one. */
READ_PLAY_OUT static xq_played read_play_miss(xq_position *pos, unsigned desc, const char *text, size_t len,
                                              xq_notation notation, xq_checks *s)
{
    (void)desc;   /* 0 */
    unsigned d = tok_read((const unsigned char *)text, len);
    if (d == XQ_DESC_OTHER) return read_play_other(pos, d, text, len, notation, s);
    return xq_move_play_desc(pos, d, s);
}

/* xq_move_read_play_desc without a desc: the token's desc from the cache
 * (tok_probe, read_play_miss when it is not there), then as with one.
 * Only jumps on: no register to save. */
READ_PLAY_OUT static xq_played read_play_tok(xq_position *pos, unsigned desc, const char *text, size_t len,
                                             xq_notation notation, xq_checks *s)
{
    (void)desc;   /* 0 */
    unsigned d = tok_probe((const unsigned char *)text, len);
    if (!d) return read_play_miss(pos, d, text, len, notation, s);
    if (d == XQ_DESC_OTHER) return read_play_other(pos, d, text, len, notation, s);
    return xq_move_play_desc(pos, d, s);
}

/* xq_move_read_play_desc (notation.h).  The common case in one pass: the
 * token's four characters from the reader's desc, else from the cache
 * (read_play_tok), then xq_move_play_desc: what xq_move_read_quick and
 * xq_play do, without the second call, its set-up and a second decoding.
 * Only jumps on (no register to save; no return of its own, which GCC
 * would make a common exit that the jumps become calls to).  A full-form
 * desc stands for a text of 8 to 12 bytes, so its length needs no test.
 * test_move_read_play.c compares it with the two calls, test_move_desc.c
 * the desc and the cache paths. */
xq_played xq_move_read_play_desc(xq_position *pos, uint16_t desc, const char *text, size_t len,
                                 xq_notation notation, xq_checks *s)
{
    assert(!desc || desc == xq_move_desc(text, len));
    bool chinese = (unsigned)notation <= XQ_NOTATION_CHINESE_3DIGIT;
    if (chinese && (desc & (XQ_DESC_OTHER - 1))) return xq_move_play_desc(pos, desc, s);
    if (chinese && !desc && len - 8 <= 4u && text) return read_play_tok(pos, desc, text, len, notation, s);
    /* the rest, whose answer xq_move_read_quick gives: no move for
     * another notation or a text of no full form's length */
    return read_play_other(pos, desc, text, len, notation, s);
}

/* xq_move_read_plain_file (notation.h).  The full reader's steps for a
 * plain file (notation.c xqn_resolve, choose): each piece's target
 * (xqn_target_xr), then legality.  The reader first keeps the candidates
 * the rules needing no other piece allow (CXA1999 §2.2: palace, river, a
 * soldier's step), when any; a candidate they refuse is illegal too, so
 * the one legal candidate is the same without that step.
 * test_replay_plain.c compares the replay's use of it with xq_move_read
 * on every such text of many positions. */
xq_move xq_move_read_plain_file(const xq_position *pos, unsigned d, bool in_check, bool *resolved)
{
    xq_color side = pos->side;
    xq_kind kind = (xq_kind)(d >> 10 & 7);
    int x = xqn_file_x(side, (int)(d >> 6 & 15)), action = (int)(d >> 4 & 3), arg = (int)(d & 15);
    if (x < 0 || x > 8) return XQ_MOVE_NONE;
    xq_piece p = XQ_PIECE(kind, side);
    xq_move found = XQ_MOVE_NONE;
    int pieces = 0;
    for (unsigned ranks = xqn_ranks_on_file(pos, p, x * XQ_RANKS); ranks; ranks &= ranks - 1) {
        int r = __builtin_ctz(ranks);
        pieces++;
        int to = xqn_target_xr(side, kind, x, r, action, arg);
        if (to < 0) continue;
        xq_move m = XQ_MOVE(XQ_SQ(x, r), to);
        /* as xqn_legality: told the check state when not in check */
        if ((in_check ? xq_move_legality(pos, m) : xq_move_legality_known(pos, m, false)) != XQ_LEGAL) continue;
        if (found != XQ_MOVE_NONE) return XQ_MOVE_NONE;   /* several legal: ambiguous */
        found = m;
    }
    if (pieces < 2) return XQ_MOVE_NONE;
    *resolved = kind != XQ_ADVISOR && kind != XQ_ELEPHANT;
    return found;
}

/* xq_move_read_play (notation.h): no desc at hand. */
xq_move xq_move_read_play(xq_position *pos, const char *text, size_t len, xq_notation notation, xq_checks *s,
                          xq_piece *captured)
{
    xq_played out = xq_move_read_play_desc(pos, 0, text, len, notation, s);
    if (out.move != XQ_MOVE_NONE) *captured = out.captured;
    return out.move;
}

xq_note_status xqn_read_chinese(xqn_ctx *c, const char *text, size_t len)
{
    bool fast = !(c->flags & XQN_READ_NO_FAST);
    ctok t[6];
    long bad = 0;
    int n = tokenise(text, len, t, 6, &bad, fast);
    if (n == 0) return xqn_fail(c, XQ_NOTE_SYNTAX, 0, "too long for a Chinese move");
    if (n < 0) {
        if (bad < 0) return xqn_fail(c, XQ_NOTE_BAD_CHAR, -n, "invalid UTF-8 at column %d", -n);
        char u[8];
        size_t un = 0;
        xqn_put_cp(u, sizeof u, &un, (unsigned long)bad);
        if (bad < 0x80) return xqn_fail(c, XQ_NOTE_BAD_CHAR, -n, "unknown character '%s' at column %d", u, -n);
        return xqn_fail(c, XQ_NOTE_BAD_CHAR, -n, "unknown character '%s' (U+%04lX) at column %d",
                        u, (unsigned long)bad, -n);
    }
    int best;
    int shape = find_shape(t, n, &best);
    if (shape < 0) {
        if (best >= n)
            return xqn_fail(c, XQ_NOTE_SYNTAX, 0, "incomplete move: a number or action is missing");
        if (n < 3 || n > 5)
            return xqn_fail(c, XQ_NOTE_SYNTAX, 0, "a Chinese move has 3 to 5 characters, not %d", n);
        return xqn_fail(c, XQ_NOTE_SYNTAX, best + 1, "unexpected character at column %d "
                        "(a move reads like 炮二平五, 前炮退二, 炮25 or 馬325)", best + 1);
    }
    xq_color side = c->pos->side;
    /* numbers used as files or counts must be 1..9 */
    for (int i = 0; i < n; i++) {
        bool may_be_zero = (shape == SH_3DIGIT && i == 3) || (shape == SH_3DIGIT_DIR && i == 3);
        if (t[i].cls == CT_NUM && t[i].val == 0 && !may_be_zero)
            return xqn_fail(c, XQ_NOTE_SYNTAX, i + 1, "0 at column %d is not a file or a count", i + 1);
    }
    c->res->notation = shape == SH_ABBR ? XQ_NOTATION_CHINESE_ABBR
                       : shape == SH_3DIGIT || shape == SH_3DIGIT_DIR ? XQ_NOTATION_CHINESE_3DIGIT
                       : XQ_NOTATION_CHINESE;
    if (shape == SH_3DIGIT || shape == SH_3DIGIT_DIR) {
        bool right = (c->flags & XQ_READ_3DIGIT_FROM_RIGHT) != 0;
        int to = XQ_SQ(file3_x(side, t[2].val, right), rank3_r(side, t[3].val));
        if (shape == SH_3DIGIT)
            return xqn_resolve_target(c, (xq_kind)t[0].val, to, file3_x(side, t[1].val, right), -1, 0,
                                      true, hint_3digit);
        if (t[1].val == XQN_SIDE)
            return xqn_fail(c, XQ_NOTE_SYNTAX, 2, "平 cannot stand for the from-file in 一字三碼; use 進 or 退");
        return xqn_resolve_target(c, (xq_kind)t[0].val, to, -1, -1, t[1].val == XQN_FWD ? 1 : -1,
                                  true, hint_3digit);
    }
    xqn_desc d = { .kind = XQ_NONE, .file = -1, .marker = XQN_M_NONE, .nth = 0,
                   .action = 0, .arg = 0, .wxf = false };
    const ctok *mk = NULL;
    switch (shape) {
    case SH_FULL:
        d.kind = t[0].val; d.file = xqn_file_x(side, t[1].val); d.action = t[2].val; d.arg = t[3].val;
        break;
    case SH_MARK:
        mk = &t[0]; d.kind = t[1].val; d.action = t[2].val; d.arg = t[3].val;
        break;
    case SH_POP_SHORT:
        mk = &t[0]; d.kind = XQ_SOLDIER; d.file = xqn_file_x(side, t[1].val);
        d.action = t[2].val; d.arg = t[3].val;
        break;
    case SH_MARK_AFTER:
        mk = &t[1]; d.kind = t[0].val; d.action = t[2].val; d.arg = t[3].val;
        break;
    case SH_POP_LONG:
        mk = &t[0]; d.kind = t[1].val; d.file = xqn_file_x(side, t[2].val);
        d.action = t[3].val; d.arg = t[4].val;
        break;
    case SH_ABBR:
        d.kind = t[0].val; d.file = xqn_file_x(side, t[1].val); d.action = XQN_ANY; d.arg = t[2].val;
        break;
    }
    if (mk) {
        if (mk->cls == CT_MARK) d.marker = mk->val;
        else { d.marker = XQN_M_NTH; d.nth = mk->val; }
    }
    return xqn_resolve(c, &d);
}

/* --- writing ---------------------------------------------------------- */

static const unsigned short piece_cp[2][2][8] = {
    {   /* simplified */
        {0, 0x5E05, 0x4ED5, 0x76F8, 0x9A6C, 0x8F66, 0x70AE, 0x5175},   /* 帅仕相马车炮兵 */
        {0, 0x5C06, 0x58EB, 0x8C61, 0x9A6C, 0x8F66, 0x70AE, 0x5352},   /* 将士象马车炮卒 */
    },
    {   /* traditional */
        {0, 0x5E25, 0x4ED5, 0x76F8, 0x99AC, 0x8ECA, 0x70AE, 0x5175},   /* 帥仕相馬車炮兵 */
        {0, 0x5C07, 0x58EB, 0x8C61, 0x99AC, 0x8ECA, 0x70AE, 0x5352},   /* 將士象馬車炮卒 */
    },
};
static const unsigned short cn_num[10] = {
    0x3007, 0x4E00, 0x4E8C, 0x4E09, 0x56DB, 0x4E94, 0x516D, 0x4E03, 0x516B, 0x4E5D
};
enum { CP_FRONT = 0x524D, CP_MIDDLE = 0x4E2D, CP_SIDE = 0x5E73, CP_BACK = 0x9000 };

static unsigned long action_cp(int action, bool trad)
{
    return action == XQN_FWD ? (trad ? 0x9032 : 0x8FDB) : action == XQN_BACK ? CP_BACK : CP_SIDE;
}

static unsigned long rear_cp(bool trad) { return trad ? 0x5F8C : 0x540E; }

/* A number as the mover writes it: Red 一..九, Black １..９ or 1..9. */
static unsigned long num_cp(xq_color side, int v, unsigned flags)
{
    if (side == XQ_RED) return cn_num[v];
    return (flags & XQ_WRITE_ASCII_DIGITS) ? (unsigned long)('0' + v) : 0xFF10ul + (unsigned long)v;
}

/* Marker for the idx-th (0-based, front first) of n pieces.  style 0:
 * XQBase (2 前後, 3 前中後, 4-5 一..五); 1 popular (4+: 前二三四五);
 * 2 walker (4+: 前二三..後).  Returns 0 when n is too large. */
static unsigned long marker_cp(int idx, int n, int style, bool trad)
{
    if (n == 2) return idx == 0 ? CP_FRONT : rear_cp(trad);
    if (n == 3) return idx == 0 ? CP_FRONT : idx == 1 ? CP_MIDDLE : rear_cp(trad);
    if (n > 5) return 0;
    if (style == 0) return cn_num[idx + 1];
    if (idx == 0) return CP_FRONT;
    if (style == 2 && idx == n - 1) return rear_cp(trad);
    return cn_num[idx + 1];
}

static int index_in(const xqn_list *l, int sq)
{
    for (int i = 0; i < l->n; i++)
        if (l->sq[i] == sq) return i;
    return -1;
}

size_t xqn_write_chinese(const xq_position *pos, xq_move m, unsigned flags, char *buf, size_t size)
{
    xq_kind kind;
    int action, arg;
    if (!xqn_describe(pos, m, &kind, &action, &arg)) return 0;
    xq_color side = pos->side;
    bool trad = (flags & XQ_WRITE_TRADITIONAL) != 0;
    int from = XQ_FROM(m), x = XQ_FILE(from);
    xq_piece p = pos->board[from];
    unsigned long pc = piece_cp[trad][side][kind];
    unsigned long cps[6];
    int n = 0;
    unsigned long mk = 0;
    bool with_file = false;

    if (kind != XQ_SOLDIER) {
        xqn_list l;
        xqn_file_list(pos, p, x, &l);
        if (xqn_needs_marker(pos, m, kind, action, arg, &l))
            mk = marker_cp(index_in(&l, from), l.n, 0, trad);
    } else {
        xqn_board_lists bl;
        xqn_board_lists_fill(pos, p, &bl);
        const xqn_list *l = &bl.file[x];
        int style = (flags & XQ_WRITE_PAWNS_WALKER) ? 2 : (flags & XQ_WRITE_PAWNS_POPULAR) ? 1 : 0;
        if (l->n >= 2) {
            if (bl.ntandem == 1) {
                mk = marker_cp(index_in(l, from), l->n, style, trad);
            } else if (style == 0) {
                xqn_list pool;
                xqn_pooled(&bl, &pool);
                mk = marker_cp(index_in(&pool, from), pool.n, 0, trad);
            }
            if (!mk) {                  /* several files: 前兵九平八 */
                mk = marker_cp(index_in(l, from), l->n, style ? style : 1, trad);
                with_file = true;
            }
            if (!mk) return 0;
        }
    }
    if (mk) {
        cps[n++] = mk;
        cps[n++] = pc;
        if (with_file) cps[n++] = num_cp(side, xqn_file_num(side, x), flags);
    } else {
        cps[n++] = pc;
        cps[n++] = num_cp(side, xqn_file_num(side, x), flags);
    }
    cps[n++] = action_cp(action, trad);
    cps[n++] = num_cp(side, arg, flags);
    size_t len = 0;
    for (int i = 0; i < n; i++)
        if (!xqn_put_cp(buf, size, &len, cps[i])) return 0;
    return len;
}

/* CXA1999 §7.5: 炮25 馬87 車98 炮84 - the full form without its action
 * character, Arabic digits for both sides.  Written only when reading it
 * back gives this move and nothing else; otherwise the full form. */
size_t xqn_write_abbr(const xq_position *pos, xq_move m, unsigned flags, char *buf, size_t size)
{
    xq_kind kind;
    int action, arg;
    if (!xqn_describe(pos, m, &kind, &action, &arg)) return 0;
    xq_color side = pos->side;
    bool trad = (flags & XQ_WRITE_TRADITIONAL) != 0;
    char t[16];
    size_t len = 0;
    xqn_put_cp(t, sizeof t, &len, piece_cp[trad][side][kind]);
    xqn_put_cp(t, sizeof t, &len, (unsigned long)('0' + xqn_file_num(side, XQ_FILE(XQ_FROM(m)))));
    xqn_put_cp(t, sizeof t, &len, (unsigned long)('0' + arg));
    xq_note_result r;
    if (xq_move_read(pos, t, len, XQ_NOTATION_CHINESE, 0, &r, NULL, 0) == XQ_NOTE_OK && r.move == m) {
        if (len + 1 > size) return 0;
        memcpy(buf, t, len + 1);
        return len;
    }
    return xqn_write_chinese(pos, m, flags, buf, size);
}

/* 一字三碼: piece, from-file, to-file, to-rank (0 = the tenth); when
 * another piece of the kind on the same file also reaches the target,
 * 進/退 replaces the from-file (notes §9). */
size_t xqn_write_3digit(const xq_position *pos, xq_move m, unsigned flags, char *buf, size_t size)
{
    int from = XQ_FROM(m), to = XQ_TO(m);
    xq_piece p = pos->board[from];
    xq_color side = pos->side;
    xq_kind kind = XQ_KIND(p);
    bool trad = (flags & XQ_WRITE_TRADITIONAL) != 0;
    bool right = (flags & XQ_WRITE_3DIGIT_FROM_RIGHT) != 0;
    int dir = (XQ_RANK(to) - XQ_RANK(from)) * xqn_forward(side);
    unsigned long second = 0;
    if (dir != 0) {
        for (int sq = XQ_FILE(from); sq < XQ_SQUARES; sq += 9)
            if (sq != from && sq != to && pos->board[sq] == p
                && xqn_pseudo_ok(xq_move_legality(pos, XQ_MOVE(sq, to)))) {
                second = dir > 0 ? action_cp(XQN_FWD, trad) : CP_BACK;
                break;
            }
    }
    if (!second) second = (unsigned long)('0' + file3_num(side, XQ_FILE(from), right));
    int tnum = file3_num(side, XQ_FILE(to), right);
    size_t len = 0;
    if (!xqn_put_cp(buf, size, &len, piece_cp[trad][side][kind])
        || !xqn_put_cp(buf, size, &len, second)
        || !xqn_put_cp(buf, size, &len, (unsigned long)('0' + tnum))
        || !xqn_put_cp(buf, size, &len, (unsigned long)('0' + rank3_digit(side, XQ_RANK(to)))))
        return 0;
    return len;
}
