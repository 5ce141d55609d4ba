/* notation_coord.c - coordinate notations, formats.md §1c: ICCS "H2-E2",
 * UCCI "h2e2" (ranks 0..9; 1..10 as Fairy-Stockfish's UCI writes them on
 * request or when a rank "10" appears, unless 0..9 is asked for), and XBoard SAN as GNU XBoard's
 * CoordsToAlgebraic writes Xiangqi: letters R H E A K C (N B read too),
 * none for soldiers, file/rank disambiguation, 'x' for captures, "+"/"#"
 * appended for check/mate. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "notation_internal.h"

/* Read a rank written at s[*i] (one or two digits); -1 if none. */
static int read_rank(const char *s, int n, int *i)
{
    if (*i >= n || !isdigit((unsigned char)s[*i])) return -1;
    int v = s[(*i)++] - '0';
    if (*i < n && isdigit((unsigned char)s[*i])) v = v * 10 + (s[(*i)++] - '0');
    return v;
}

/* Ranks as written -> 0..9, or -1. */
static int map_rank(int v, bool one_based)
{
    if (one_based) return v >= 1 && v <= 10 ? v - 1 : -1;
    return v >= 0 && v <= 9 ? v : -1;
}

xq_note_status xqn_read_coord(xqn_ctx *c, const char *s, int n)
{
    int i = 0;
    int f1, f2, r1, r2, c1, c2;
    if (i >= n || tolower((unsigned char)s[i]) < 'a' || tolower((unsigned char)s[i]) > 'i')
        return xqn_fail(c, XQ_NOTE_SYNTAX, 1, "expected a file letter a-i at column 1");
    f1 = tolower((unsigned char)s[i++]) - 'a';
    c1 = i + 1;
    if ((r1 = read_rank(s, n, &i)) < 0)
        return xqn_fail(c, XQ_NOTE_SYNTAX, i + 1, "expected a rank digit at column %d", i + 1);
    c->res->notation = XQ_NOTATION_UCCI;
    if (i < n && s[i] == '-') {
        i++;
        c->res->notation = XQ_NOTATION_ICCS;
    }
    if (i >= n || tolower((unsigned char)s[i]) < 'a' || tolower((unsigned char)s[i]) > 'i')
        return xqn_fail(c, XQ_NOTE_SYNTAX, i + 1, "expected a file letter a-i at column %d", i + 1);
    f2 = tolower((unsigned char)s[i++]) - 'a';
    c2 = i + 1;
    if ((r2 = read_rank(s, n, &i)) < 0)
        return xqn_fail(c, XQ_NOTE_SYNTAX, i + 1, "expected a rank digit at column %d", i + 1);
    if (i != n) return xqn_fail(c, XQ_NOTE_SYNTAX, i + 1, "unexpected '%c' at column %d", s[i], i + 1);
    bool one = (c->flags & XQ_READ_RANKS_FROM_1) || (!(c->flags & XQ_READ_RANKS_FROM_0) && (r1 == 10 || r2 == 10));
    int a = map_rank(r1, one), b = map_rank(r2, one);
    if (a < 0) return xqn_fail(c, XQ_NOTE_SYNTAX, c1, "no rank %d (ranks are %s)", r1, one ? "1-10" : "0-9");
    if (b < 0) return xqn_fail(c, XQ_NOTE_SYNTAX, c2, "no rank %d (ranks are %s)", r2, one ? "1-10" : "0-9");
    int from = XQ_SQ(f1, a), to = XQ_SQ(f2, b);
    xq_piece p = c->pos->board[from];
    char fs[3];
    xqn_sqname(from, fs);
    if (!p) return xqn_fail(c, XQ_NOTE_NO_PIECE, 0, "no piece on %s", fs);
    if (XQ_COLOR(p) != c->pos->side)
        return xqn_fail(c, XQ_NOTE_NO_PIECE, 0, "the %s on %s is %s's, but %s is to move", xqn_kind_en(XQ_KIND(p)),
                        fs, XQ_COLOR(p) == XQ_RED ? "Red" : "Black",
                        c->pos->side == XQ_RED ? "Red" : "Black");
    return xqn_finish(c, XQ_MOVE(from, to));
}

static xq_kind san_kind(char ch)
{
    switch (ch) {
    case 'K': return XQ_GENERAL;
    case 'A': return XQ_ADVISOR;
    case 'E': case 'B': return XQ_ELEPHANT;
    case 'H': case 'N': return XQ_HORSE;
    case 'R': return XQ_CHARIOT;
    case 'C': return XQ_CANNON;
    case 'P': return XQ_SOLDIER;
    default: return XQ_NONE;
    }
}

static bool file_letter(char ch) { return ch >= 'a' && ch <= 'i'; }

xq_note_status xqn_read_san(xqn_ctx *c, const char *s, int n)
{
    int e = n;
    while (e > 0 && strchr("+#!?", s[e - 1])) e--;
    int i = 0;
    xq_kind kind = XQ_SOLDIER;
    if (i < e && san_kind(s[i])) kind = san_kind(s[i++]);
    /* the target square is at the end: file letter, 1-2 digits */
    int k = e;
    while (k > i && isdigit((unsigned char)s[k - 1]) && e - k < 2) k--;
    if (k == e) return xqn_fail(c, XQ_NOTE_SYNTAX, e ? e : 1, "expected a rank digit at the end");
    if (k - 1 < i || !file_letter(s[k - 1]))
        return xqn_fail(c, XQ_NOTE_SYNTAX, k, "expected a file letter a-i at column %d", k);
    int tf = s[k - 1] - 'a';
    int tr_written = 0;
    for (int j = k; j < e; j++) tr_written = tr_written * 10 + (s[j] - '0');
    int mid_end = k - 1;
    if (mid_end > i && (s[mid_end - 1] == 'x' || s[mid_end - 1] == ':')) mid_end--;
    int ff = -1, fr_written = -1, j = i;
    if (j < mid_end && file_letter(s[j])) ff = s[j++] - 'a';
    if (j < mid_end) {
        if ((fr_written = read_rank(s, mid_end, &j)) < 0 || j != mid_end)
            return xqn_fail(c, XQ_NOTE_SYNTAX, j + 1, "unexpected '%c' at column %d", s[j], j + 1);
    }
    bool one = (c->flags & XQ_READ_RANKS_FROM_1) ||
               (!(c->flags & XQ_READ_RANKS_FROM_0) && (tr_written == 10 || fr_written == 10));
    int tr = map_rank(tr_written, one);
    if (tr < 0) return xqn_fail(c, XQ_NOTE_SYNTAX, k + 1, "no rank %d (ranks are %s)", tr_written, one ? "1-10" : "0-9");
    int fr = -1;
    if (fr_written >= 0 && (fr = map_rank(fr_written, one)) < 0)
        return xqn_fail(c, XQ_NOTE_SYNTAX, 0, "no rank %d (ranks are %s)", fr_written, one ? "1-10" : "0-9");
    if (kind == XQ_SOLDIER && ff < 0) ff = tf;      /* XBoard "e4": the file is the soldier's */
    return xqn_resolve_target(c, kind, XQ_SQ(tf, tr), ff, fr, 0, false, NULL);
}

static void put_rank(char *t, int *k, int r, bool one)
{
    int v = r + (one ? 1 : 0);
    if (v >= 10) t[(*k)++] = '1', v -= 10;
    t[(*k)++] = (char)('0' + v);
}

size_t xqn_write_coord(const xq_position *pos, xq_move m, xq_notation n, unsigned flags,
                       char *buf, size_t size)
{
    (void)pos;
    bool one = (flags & XQ_WRITE_RANKS_FROM_1) != 0;
    int from = XQ_FROM(m), to = XQ_TO(m);
    char t[12];
    int k = 0;
    char base = n == XQ_NOTATION_ICCS ? 'A' : 'a';
    t[k++] = (char)(base + XQ_FILE(from));
    put_rank(t, &k, XQ_RANK(from), one);
    if (n == XQ_NOTATION_ICCS) t[k++] = '-';
    t[k++] = (char)(base + XQ_FILE(to));
    put_rank(t, &k, XQ_RANK(to), one);
    t[k] = 0;
    size_t len = 0;
    return xqn_put_str(buf, size, &len, t) ? len : 0;
}

size_t xqn_write_san(const xq_position *pos, xq_move m, unsigned flags, char *buf, size_t size)
{
    bool one = (flags & XQ_WRITE_RANKS_FROM_1) != 0;
    int from = XQ_FROM(m), to = XQ_TO(m);
    xq_piece p = pos->board[from];
    bool capture = pos->board[to] != 0;
    char t[16];
    int k = 0;
    if (XQ_KIND(p) == XQ_SOLDIER) {
        t[k++] = (char)('a' + XQ_FILE(from));
        if (XQ_FILE(from) == XQ_FILE(to) && !capture) {
            put_rank(t, &k, XQ_RANK(to), one);         /* e4 */
        } else {
            if (capture) t[k++] = 'x';                 /* exd5, ef5, exe5 */
            t[k++] = (char)('a' + XQ_FILE(to));
            put_rank(t, &k, XQ_RANK(to), one);
        }
    } else {
        t[k++] = "?KAEHRCP"[XQ_KIND(p)];
        /* other pieces of the kind with a legal move to the target */
        int same_rank = 0, same_file = 0, either = 0;
        for (int sq = 0; sq < XQ_SQUARES; sq++) {
            if (sq == from || pos->board[sq] != p) continue;
            if (xq_move_legality(pos, XQ_MOVE(sq, to)) != XQ_LEGAL) continue;
            if (XQ_RANK(sq) == XQ_RANK(from)) same_rank++;
            else if (XQ_FILE(sq) == XQ_FILE(from)) same_file++;
            else either++;
        }
        if (same_rank || (either && !same_file)) t[k++] = (char)('a' + XQ_FILE(from));
        if (same_file) put_rank(t, &k, XQ_RANK(from), one);
        if (capture) t[k++] = 'x';
        t[k++] = (char)('a' + XQ_FILE(to));
        put_rank(t, &k, XQ_RANK(to), one);
    }
    if (!(flags & XQ_WRITE_NO_CHECK_MARK)) {
        xq_position q = *pos;
        xq_undo u;
        xq_make(&q, m, &u);
        if (xq_in_check(&q, q.side)) t[k++] = xq_has_legal_move(&q) ? '+' : '#';
    }
    t[k] = 0;
    size_t len = 0;
    return xqn_put_str(buf, size, &len, t) ? len : 0;
}
