/* notation.c - move notation: dispatch, recognition, and the one place that
 * decides which piece a text means (formats.md §1a-§1c, CXA1999 §7.5).
 * Chinese forms are in notation_chinese.c, WXF in notation_wxf.c,
 * coordinates and SAN in notation_coord.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "notation_internal.h"

/* --- small helpers ---------------------------------------------------- */

static const char *const kind_en[] = {
    "piece", "general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier"
};

const char *xqn_kind_en(xq_kind k) { return kind_en[(unsigned)k < 8 ? k : 0]; }

void xqn_sqname(int sq, char out[3])
{
    out[0] = (char)('a' + XQ_FILE(sq));
    out[1] = (char)('0' + XQ_RANK(sq));
    out[2] = 0;
}

long xqn_utf8_slow(const char *s, size_t len, size_t *i)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t k = *i;
    if (k >= len) return -1;
    unsigned long c = u[k];
    int extra;
    unsigned long min;
    if (c < 0x80) { *i = k + 1; return (long)c; }
    else if ((c & 0xE0) == 0xC0) { extra = 1; c &= 0x1F; min = 0x80; }
    else if ((c & 0xF0) == 0xE0) { extra = 2; c &= 0x0F; min = 0x800; }
    else if ((c & 0xF8) == 0xF0) { extra = 3; c &= 0x07; min = 0x10000; }
    else return -1;
    if (k + (size_t)extra >= len) return -1;
    for (int j = 1; j <= extra; j++) {
        unsigned char b = u[k + (size_t)j];
        if ((b & 0xC0) != 0x80) return -1;
        c = c << 6 | (b & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return -1;
    *i = k + (size_t)extra + 1;
    return (long)c;
}

bool xqn_put_cp(char *buf, size_t size, size_t *n, unsigned long cp)
{
    char t[4];
    size_t k;
    if (cp < 0x80) { t[0] = (char)cp; k = 1; }
    else if (cp < 0x800) { t[0] = (char)(0xC0 | cp >> 6); t[1] = (char)(0x80 | (cp & 0x3F)); k = 2; }
    else if (cp < 0x10000) {
        t[0] = (char)(0xE0 | cp >> 12); t[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        t[2] = (char)(0x80 | (cp & 0x3F)); k = 3;
    } else {
        t[0] = (char)(0xF0 | cp >> 18); t[1] = (char)(0x80 | (cp >> 12 & 0x3F));
        t[2] = (char)(0x80 | (cp >> 6 & 0x3F)); t[3] = (char)(0x80 | (cp & 0x3F)); k = 4;
    }
    if (*n + k + 1 > size) return false;
    memcpy(buf + *n, t, k);
    *n += k;
    buf[*n] = 0;
    return true;
}

bool xqn_put_str(char *buf, size_t size, size_t *n, const char *s)
{
    size_t k = strlen(s);
    if (*n + k + 1 > size) return false;
    memcpy(buf + *n, s, k + 1);
    *n += k;
    return true;
}

int xqn_to_ascii(const char *text, size_t len, char *out, int cap)
{
    size_t i = 0;
    int n = 0;
    while (i < len) {
        long cp = xqn_utf8_next(text, len, &i);
        if (cp >= 0xFF01 && cp <= 0xFF5E) cp -= 0xFEE0;        /* full-width ASCII */
        if (cp < 0x21 || cp > 0x7E) return -(n + 1);
        if (n >= cap - 1) return 0;
        out[n++] = (char)cp;
    }
    out[n] = 0;
    return n;
}

xq_note_status xqn_fail(xqn_ctx *c, xq_note_status st, int column, const char *fmt, ...)
{
    c->res->status = st;
    c->res->column = column;
    if (c->msg && c->msg_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->msg, c->msg_size, fmt, ap);
        va_end(ap);
    }
    return st;
}

/* Append to the message already in c->msg. */
static void msg_add(xqn_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void msg_add(xqn_ctx *c, const char *fmt, ...)
{
    if (!c->msg || !c->msg_size) return;
    size_t k = strlen(c->msg);
    if (k + 1 >= c->msg_size) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg + k, c->msg_size - k, fmt, ap);
    va_end(ap);
}

/* A message built piece by piece, for the one warning that real records
 * give often: a plain file holding two pieces of the kind (炮二平五 where
 * 前炮平五 was due, about one ply in 150).  snprintf costs a thousand
 * instructions a call; these give the same bytes as the printf formats
 * they replace ("%s", "%d" of a non-negative int), truncated as snprintf
 * truncates: at most size - 1 characters, then NUL.  size > 0. */
typedef struct { char *buf; size_t size, n; } msg_text;

static void text_mem(msg_text *t, const char *s, size_t k)
{
    if (t->n + 1 < t->size) {
        size_t room = t->size - 1 - t->n;
        memcpy(t->buf + t->n, s, k < room ? k : room);
    }
    t->n += k;
}

static void text_str(msg_text *t, const char *s) { text_mem(t, s, strlen(s)); }

/* A string literal: its length known when compiling. */
#define TEXT_LIT(t, lit) text_mem((t), "" lit, sizeof lit - 1)

static void text_uint(msg_text *t, unsigned v)
{
    char d[12];
    int k = 0;
    do d[k++] = (char)('0' + v % 10); while ((v /= 10) != 0);
    while (k > 0) {
        if (t->n + 1 < t->size) t->buf[t->n] = d[k - 1];
        t->n++;
        k--;
    }
}

static void text_end(msg_text *t) { t->buf[t->n < t->size ? t->n : t->size - 1] = 0; }

/* xqn_fail(c, XQ_NOTE_RESOLVED, 0, "%s; only the one on %s%s", warn_msg,
 * square of from, tail) without the printf. */
static void fail_only_one(xqn_ctx *c, const char *warn_msg, int from, const char *tail)
{
    c->res->status = XQ_NOTE_RESOLVED;
    c->res->column = 0;
    if (!c->msg || !c->msg_size) return;
    char a[3];
    xqn_sqname(from, a);
    msg_text t = {c->msg, c->msg_size, 0};
    text_str(&t, warn_msg);
    TEXT_LIT(&t, "; only the one on ");
    text_mem(&t, a, 2);
    text_str(&t, tail);
    text_end(&t);
}

static const char *side_en(xq_color s) { return s == XQ_RED ? "Red" : "Black"; }

/* --- board scans ------------------------------------------------------ */

void xqn_file_list(const xq_position *pos, xq_piece p, int x, xqn_list *out)
{
    int n = 0;
    if (XQ_COLOR(p) == XQ_RED) {
        for (int sq = 81 + x; sq >= 0; sq -= 9)
            if (pos->board[sq] == p) out->sq[n++] = (unsigned char)sq;
    } else {
        for (int sq = x; sq < XQ_SQUARES; sq += 9)
            if (pos->board[sq] == p) out->sq[n++] = (unsigned char)sq;
    }
    out->n = n;
}

void xqn_board_lists_fill(const xq_position *pos, xq_piece p, xqn_board_lists *bl)
{
    xq_color side = XQ_COLOR(p);
    for (int x = 0; x < XQ_FILES; x++) bl->file[x].n = 0;
    /* front to back: Red from rank 9 down, Black from rank 0 up */
    for (int i = 0; i < XQ_RANKS; i++) {
        int r = side == XQ_RED ? 9 - i : i;
        for (int x = 0; x < XQ_FILES; x++)
            if (pos->board[XQ_SQ(x, r)] == p) {
                xqn_list *l = &bl->file[x];
                l->sq[l->n++] = (unsigned char)XQ_SQ(x, r);
            }
    }
    bl->ntandem = 0;
    for (int i = 0; i < XQ_FILES; i++) {
        int x = side == XQ_RED ? 8 - i : i;     /* the owner's right first */
        if (bl->file[x].n >= 2) bl->tandem[bl->ntandem++] = x;
    }
}

void xqn_pooled(const xqn_board_lists *bl, xqn_list *out)
{
    int n = 0;
    for (int t = 0; t < bl->ntandem; t++) {
        const xqn_list *l = &bl->file[bl->tandem[t]];
        for (int j = 0; j < l->n && n < XQ_RANKS; j++) out->sq[n++] = l->sq[j];
    }
    out->n = n;
}

int xqn_marker_index(int marker, int nth, int n)
{
    switch (marker) {
    case XQN_M_FRONT: return n >= 1 ? 0 : -1;
    case XQN_M_REAR: return n >= 1 ? n - 1 : -1;
    case XQN_M_MIDDLE: return n >= 3 && n % 2 ? n / 2 : -1;
    case XQN_M_NTH:
    case XQN_M_POOLED: return nth >= 1 && nth <= n ? nth - 1 : -1;
    case XQN_M_PLUS: return n >= 4 ? 1 : n >= 1 ? 0 : -1;
    case XQN_M_MINUS: return n >= 4 ? n - 2 : n >= 1 ? n - 1 : -1;
    default: return -1;
    }
}

/* --- geometry --------------------------------------------------------- */

int xqn_target(xq_color side, xq_kind k, int from, int action, int arg)
{
    return xqn_target_xr(side, k, XQ_FILE(from), XQ_RANK(from), action, arg);
}

static bool in_palace(int sq, xq_color side)
{
    int x = XQ_FILE(sq), r = XQ_RANK(sq);
    return x >= 3 && x <= 5 && (side == XQ_RED ? r <= 2 : r >= 7);
}

static bool crossed_river(int sq, xq_color side)
{
    return side == XQ_RED ? XQ_RANK(sq) >= 5 : XQ_RANK(sq) <= 4;
}

/* Where a piece may stand and how far a general or soldier steps: rules
 * that need no other piece (CXA1999 §2.2).  Used only to choose among
 * several candidates before asking the core about legality. */
static bool confined_ok(xq_color side, xq_kind k, int from, int to)
{
    int dx = abs(XQ_FILE(to) - XQ_FILE(from)), dr = XQ_RANK(to) - XQ_RANK(from);
    switch (k) {
    case XQ_GENERAL: return in_palace(to, side) && dx + abs(dr) == 1;
    case XQ_ADVISOR: return in_palace(to, side);
    case XQ_ELEPHANT: return !crossed_river(to, side);
    case XQ_SOLDIER:
        if (dr * xqn_forward(side) < 0) return false;
        if (dr == 0) return dx == 1 && crossed_river(from, side);
        return abs(dr) == 1 && dx == 0;
    default: return true;
    }
}

/* Whether legality failed only for a reason that depends on other pieces
 * standing in the way or the general's safety, i.e. the piece "reaches"
 * the square (一字三碼 "能同達", SAN disambiguation). */
bool xqn_pseudo_ok(xq_illegal why)
{
    return why == XQ_LEGAL || why == XQ_ILL_LEAVES_CHECK || why == XQ_ILL_GENERALS_FACE;
}

/* Pure shape of a move of kind k, no other piece considered. */
static bool shape_ok(xq_color side, xq_kind k, int from, int to)
{
    int dx = abs(XQ_FILE(to) - XQ_FILE(from)), adr = abs(XQ_RANK(to) - XQ_RANK(from));
    int dr = XQ_RANK(to) - XQ_RANK(from);
    switch (k) {
    case XQ_GENERAL: return dx + adr == 1;
    case XQ_ADVISOR: return dx == 1 && adr == 1;
    case XQ_ELEPHANT: return dx == 2 && adr == 2;
    case XQ_HORSE: return (dx == 1 && adr == 2) || (dx == 2 && adr == 1);
    case XQ_CHARIOT:
    case XQ_CANNON: return (dx == 0) != (adr == 0);
    case XQ_SOLDIER: return dx + adr == 1 && dr * xqn_forward(side) >= 0;
    default: return false;
    }
}

/* --- deciding among candidates --------------------------------------- */

/* Candidate moves: at most 10 pieces on a file times 3 actions, or the
 * pieces of one kind (never more than 16 in a position). */
enum { CAND_MAX = 32 };
typedef struct {
    int n;
    xq_move m[CAND_MAX];
    xq_illegal why[CAND_MAX];
} cand_set;

static void cand_add(cand_set *cs, int from, int to)
{
    xq_move m = XQ_MOVE(from, to);
    for (int i = 0; i < cs->n; i++)
        if (cs->m[i] == m) return;
    if (cs->n < CAND_MAX) cs->m[cs->n++] = m;
}

static void list_moves(xqn_ctx *c, const cand_set *cs, bool with_why, bool from_only)
{
    for (int i = 0; i < cs->n; i++) {
        char a[3], b[3];
        xqn_sqname(XQ_FROM(cs->m[i]), a);
        xqn_sqname(XQ_TO(cs->m[i]), b);
        if (from_only) msg_add(c, "%s%s", i ? ", " : "", a);
        else msg_add(c, "%s%s%s", i ? ", " : "", a, b);
        if (with_why) msg_add(c, " (%s)", xq_illegal_str(cs->why[i]));
    }
}

xq_note_status xqn_finish_known(xqn_ctx *c, xq_move m, xq_illegal why)
{
    c->res->move = m;
    if (why == XQ_LEGAL) {
        c->res->status = XQ_NOTE_OK;
        if (c->msg && c->msg_size) c->msg[0] = 0;
        return XQ_NOTE_OK;
    }
    char a[3], b[3];
    xqn_sqname(XQ_FROM(m), a);
    xqn_sqname(XQ_TO(m), b);
    c->res->why = why;
    return xqn_fail(c, XQ_NOTE_ILLEGAL, 0, "%s%s is illegal: %s", a, b, xq_illegal_str(why));
}

xq_note_status xqn_finish(xqn_ctx *c, xq_move m)
{
    return xqn_finish_known(c, m, (c->flags & XQ_READ_UNCHECKED) ? XQ_LEGAL : xqn_legality(c, m));
}

/* The only legal candidate was found by legality although the text should
 * have named it: RESOLVED (AMBIGUOUS in strict mode).  c->msg holds the
 * explanation already. */
static xq_note_status resolved(xqn_ctx *c, xq_move m)
{
    c->res->move = m;
    c->res->status = (c->flags & XQ_READ_STRICT) ? XQ_NOTE_AMBIGUOUS : XQ_NOTE_RESOLVED;
    return c->res->status;
}

/* Choose among candidate moves whose targets are on the board: first by
 * the rules that need no other piece, then by legality.  warn: the text was
 * under-specified (plain file with several pieces on it), so even a unique
 * answer is XQ_NOTE_RESOLVED, explained by warn_msg. */
static xq_note_status choose(xqn_ctx *c, cand_set *cs, bool warn, const char *warn_msg)
{
    const xq_position *pos = c->pos;
    xq_color side = pos->side;
    if (cs->n > 1) {                       /* rules that need no other piece */
        cand_set k;
        k.n = 0;
        for (int i = 0; i < cs->n; i++) {
            int from = XQ_FROM(cs->m[i]), to = XQ_TO(cs->m[i]);
            if (confined_ok(side, XQ_KIND(pos->board[from]), from, to)) k.m[k.n++] = cs->m[i];
        }
        if (k.n >= 1) *cs = k;
    }
    if (cs->n == 1) {
        xq_note_status st = xqn_finish(c, cs->m[0]);
        if (st == XQ_NOTE_OK && warn) {
            fail_only_one(c, warn_msg, XQ_FROM(cs->m[0]), " can move so");
            return resolved(c, cs->m[0]);
        }
        return st;
    }
    cand_set legal;
    legal.n = 0;
    for (int i = 0; i < cs->n; i++) {
        cs->why[i] = xqn_legality(c, cs->m[i]);
        if (cs->why[i] == XQ_LEGAL) legal.m[legal.n++] = cs->m[i];
    }
    if (legal.n == 1) {
        if (!warn) return xqn_finish_known(c, legal.m[0], XQ_LEGAL);
        fail_only_one(c, warn_msg, XQ_FROM(legal.m[0]), " can make this move legally");
        return resolved(c, legal.m[0]);
    }
    if (legal.n == 0) {
        xqn_fail(c, XQ_NOTE_ILLEGAL, 0, "no legal move fits: ");
        list_moves(c, cs, true, false);
        return XQ_NOTE_ILLEGAL;
    }
    bool same_from = false;
    for (int i = 1; i < legal.n; i++) same_from |= XQ_FROM(legal.m[i]) == XQ_FROM(legal.m[0]);
    if (same_from) {                       /* abbreviated: one piece, several moves */
        xqn_fail(c, XQ_NOTE_AMBIGUOUS, 0, "ambiguous: legal moves ");
        list_moves(c, &legal, false, false);
        msg_add(c, " all fit");
        return XQ_NOTE_AMBIGUOUS;
    }
    xqn_fail(c, XQ_NOTE_AMBIGUOUS, 0, "ambiguous: the %ss on ", xqn_kind_en(XQ_KIND(pos->board[XQ_FROM(legal.m[0])])));
    list_moves(c, &legal, false, true);
    msg_add(c, " can all move so");
    return XQ_NOTE_AMBIGUOUS;
}

/* CXA1999 §7.5 abbreviated form (炮25 車12 炮84): the number is first read
 * as the target file (平 of a straight mover, any move of a horse,
 * elephant or advisor); only when no legal move goes to that file is it the
 * steps of 進/退 (炮8進4 -> 炮84).  The table's 車12 (車一平二, while
 * 車一進二 is legal too) needs that order. */
static xq_note_status choose_abbr(xqn_ctx *c, cand_set *cs)
{
    const xq_position *pos = c->pos;
    cand_set tier[2];
    tier[0].n = tier[1].n = 0;
    for (int i = 0; i < cs->n; i++) {
        int from = XQ_FROM(cs->m[i]), to = XQ_TO(cs->m[i]);
        bool steps = xqn_straight(XQ_KIND(pos->board[from])) && XQ_FILE(from) == XQ_FILE(to);
        cand_set *t = &tier[steps];
        t->m[t->n++] = cs->m[i];
    }
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < tier[k].n; i++)
            if (xqn_legality(c, tier[k].m[i]) == XQ_LEGAL) return choose(c, &tier[k], false, "");
    return choose(c, cs, false, "");
}

static const char *action_en(int a)
{
    return a == XQN_FWD ? "forward (進)" : a == XQN_BACK ? "back (退)" : a == XQN_SIDE ? "sideways (平)" : "";
}

/* Explain why the piece on from cannot do action/arg (xqn_target said -1). */
static xq_note_status bad_target(xqn_ctx *c, xq_kind k, int from, int action, int arg)
{
    xq_color side = c->pos->side;
    char a[3];
    xqn_sqname(from, a);
    if (action == XQN_SIDE && xqn_file_x(side, arg) == XQ_FILE(from))
        return xqn_fail(c, XQ_NOTE_BAD_ACTION, 0, "the %s on %s is already on file %d", xqn_kind_en(k), a, arg);
    if (!xqn_straight(k)) {
        int dx = abs(xqn_file_x(side, arg) - XQ_FILE(from));
        int need = k == XQ_ADVISOR ? 1 : 2;
        if (k == XQ_HORSE ? (dx < 1 || dx > 2) : dx != need)
            return xqn_fail(c, XQ_NOTE_BAD_ACTION, 0, "a%s %s cannot go from file %d to file %d",
                            k == XQ_ELEPHANT || k == XQ_ADVISOR ? "n" : "", xqn_kind_en(k),
                            xqn_file_num(side, XQ_FILE(from)), arg);
    }
    return xqn_fail(c, XQ_NOTE_BAD_ACTION, 0, "the %s on %s would leave the board going %s %d",
                    xqn_kind_en(k), a, action_en(action), arg);
}

static const char *const marker_en[] = {
    "", "front", "middle", "rear", "numbered", "'+'", "'-'", "numbered"
};

xq_note_status xqn_resolve(xqn_ctx *c, const xqn_desc *d)
{
    const xq_position *pos = c->pos;
    xq_color side = pos->side;
    xq_piece p = XQ_PIECE(d->kind, side);

    /* Nearly every move of a record: a plain file with one piece of the
     * kind and an action that stays on the board.  The general path below
     * gives the same (one candidate, no warning: xqn_finish), and also
     * finds every message when this does not apply. */
    if (d->marker == XQN_M_NONE && d->action != XQN_ANY && !(c->flags & XQN_READ_NO_FAST)) {
        int r = xqn_only_rank_on_file(pos, p, d->file);
        int to = r >= 0 ? xqn_target_xr(side, d->kind, d->file, r, d->action, d->arg) : -1;
        if (to >= 0) return xqn_finish(c, XQ_MOVE(XQ_SQ(d->file, r), to));
    }

    const char *kn = xqn_kind_en(d->kind);

    if (d->action == XQN_SIDE && !xqn_straight(d->kind))
        return xqn_fail(c, XQ_NOTE_BAD_ACTION, 0, "a%s %s cannot move sideways (平)",
                        d->kind == XQ_ELEPHANT || d->kind == XQ_ADVISOR ? "n" : "", kn);

    cand_set cs;
    cs.n = 0;
    int first_from = -1;
    bool warn = false;
    char warn_msg[96];
    warn_msg[0] = 0;
    /* the warning's text goes only into c->msg (fail_only_one): not
     * built for a caller that takes none (a replay printing no warnings) */
    const bool want_text = c->msg && c->msg_size;

    if (d->marker == XQN_M_NONE) {
        xqn_list l;
        xqn_file_list(pos, p, d->file, &l);
        if (l.n == 0)
            return xqn_fail(c, XQ_NOTE_NO_PIECE, 0, "no %s %s on file %d (%c)", side_en(side), kn,
                            xqn_file_num(side, d->file), 'a' + d->file);
        if (d->wxf && d->kind == XQ_SOLDIER && l.n % 2 && l.n >= 3) {   /* WXF P3.4 */
            l.sq[0] = l.sq[l.n / 2];
            l.n = 1;
        }
        if (l.n > 1 && d->action != XQN_ANY && d->kind != XQ_ADVISOR && d->kind != XQ_ELEPHANT) {
            warn = true;
            /* "%d %ss on file %d without 前/後", built only for a caller
             * that takes the message (fail_only_one reads it then) */
            if (want_text) {
                msg_text t = {warn_msg, sizeof warn_msg, 0};
                text_uint(&t, (unsigned)l.n);
                TEXT_LIT(&t, " ");
                text_str(&t, kn);
                TEXT_LIT(&t, "s on file ");
                text_uint(&t, (unsigned)xqn_file_num(side, d->file));
                TEXT_LIT(&t, " without 前/後");
                text_end(&t);
            }
        }
        first_from = l.sq[0];
        for (int i = 0; i < l.n; i++) {
            if (d->action == XQN_ANY) {
                for (int a = XQN_FWD; a <= XQN_SIDE; a++) {
                    int t = xqn_target(side, d->kind, l.sq[i], a, d->arg);
                    if (t >= 0) cand_add(&cs, l.sq[i], t);
                }
            } else {
                int t = xqn_target(side, d->kind, l.sq[i], d->action, d->arg);
                if (t >= 0) cand_add(&cs, l.sq[i], t);
            }
        }
    } else {
        xqn_list scope, sel;
        sel.n = 0;
        if (d->file >= 0) {
            xqn_file_list(pos, p, d->file, &scope);
            int ix = xqn_marker_index(d->marker, d->nth, scope.n);
            if (ix < 0)
                return xqn_fail(c, XQ_NOTE_NO_PIECE, 0, "no %s %s %s on file %d (%d there)",
                                marker_en[d->marker], side_en(side), kn,
                                xqn_file_num(side, d->file), scope.n);
            sel.sq[sel.n++] = scope.sq[ix];
        } else {
            xqn_board_lists bl;
            xqn_board_lists_fill(pos, p, &bl);
            if (d->marker == XQN_M_POOLED || bl.ntandem >= 2) {
                xqn_pooled(&bl, &scope);
            } else if (bl.ntandem == 1) {
                scope = bl.file[bl.tandem[0]];
            } else {
                return xqn_fail(c, XQ_NOTE_NO_PIECE, 0, "no two %s %ss on one file for a %s marker",
                                side_en(side), kn, marker_en[d->marker]);
            }
            int ix = xqn_marker_index(d->marker, d->nth, scope.n);
            if (ix >= 0) {
                int t = d->action == XQN_ANY ? -1
                        : xqn_target(side, d->kind, scope.sq[ix], d->action, d->arg);
                if (t >= 0 && (bl.ntandem < 2 || confined_ok(side, d->kind, scope.sq[ix], t)))
                    sel.sq[sel.n++] = scope.sq[ix];
            }
            if (sel.n == 0 && bl.ntandem >= 2 && d->marker != XQN_M_POOLED) {
                /* not XQBase pooled numbering: try the marker on each file */
                for (int f = 0; f < bl.ntandem; f++) {
                    const xqn_list *l = &bl.file[bl.tandem[f]];
                    int jx = xqn_marker_index(d->marker, d->nth, l->n);
                    if (jx >= 0) sel.sq[sel.n++] = l->sq[jx];
                }
                warn = sel.n > 0;
                if (want_text)
                    snprintf(warn_msg, sizeof warn_msg, "%ss on %d files: the %s marker names one on each",
                             kn, bl.ntandem, marker_en[d->marker]);
            }
            if (sel.n == 0 && ix >= 0)
                sel.sq[sel.n++] = scope.sq[ix];    /* report its impossible action below */
            if (sel.n == 0)
                return xqn_fail(c, XQ_NOTE_NO_PIECE, 0, "no %s %s %s: %d on the tandem file%s",
                                marker_en[d->marker], side_en(side), kn, scope.n,
                                bl.ntandem > 1 ? "s" : "");
        }
        first_from = sel.sq[0];
        for (int i = 0; i < sel.n; i++) {
            int t = xqn_target(side, d->kind, sel.sq[i], d->action, d->arg);
            if (t >= 0) cand_add(&cs, sel.sq[i], t);
        }
    }
    if (d->action == XQN_ANY && cs.n > 0) return choose_abbr(c, &cs);
    if (cs.n == 0) {
        if (d->action == XQN_ANY) {
            char a[3];
            xqn_sqname(first_from, a);
            return xqn_fail(c, XQ_NOTE_BAD_ACTION, 0, "the %s on %s cannot move to or by %d",
                            kn, a, d->arg);
        }
        return bad_target(c, d->kind, first_from, d->action, d->arg);
    }
    return choose(c, &cs, warn, warn_msg);
}

xq_note_status xqn_resolve_target(xqn_ctx *c, xq_kind kind, int to, int from_file,
                                  int from_rank, int dir, bool warn, const char *hint)
{
    const xq_position *pos = c->pos;
    xq_color side = pos->side;
    xq_piece p = XQ_PIECE(kind, side);
    cand_set all, ps, shape;
    all.n = ps.n = shape.n = 0;
    for (int sq = 0; sq < XQ_SQUARES; sq++) {
        if (pos->board[sq] != p || sq == to) continue;
        if (from_file >= 0 && XQ_FILE(sq) != from_file) continue;
        if (from_rank >= 0 && XQ_RANK(sq) != from_rank) continue;
        if (dir && (XQ_RANK(to) - XQ_RANK(sq)) * xqn_forward(side) * dir <= 0) continue;
        if (all.n == CAND_MAX) break;          /* only in made-up positions */
        xq_move m = XQ_MOVE(sq, to);
        xq_illegal why = xqn_legality(c, m);
        all.why[all.n] = why;
        all.m[all.n++] = m;
        if (xqn_pseudo_ok(why)) { ps.why[ps.n] = why; ps.m[ps.n++] = m; }
        if (shape_ok(side, kind, sq, to)) { shape.why[shape.n] = why; shape.m[shape.n++] = m; }
    }
    char t[3];
    xqn_sqname(to, t);
    if (all.n == 0) {
        if (from_file >= 0)
            return xqn_fail(c, XQ_NOTE_NO_PIECE, 0, "no %s %s on the %c-file", side_en(side),
                            xqn_kind_en(kind), 'a' + from_file);
        return xqn_fail(c, XQ_NOTE_NO_PIECE, 0, "no %s %s that could move to %s", side_en(side),
                        xqn_kind_en(kind), t);
    }
    if (ps.n == 0) {
        const cand_set *one = shape.n == 1 ? &shape : all.n == 1 ? &all : NULL;
        if (!one && shape.n == 0)
            return xqn_fail(c, XQ_NOTE_NO_PIECE, 0, "no %s %s can move to %s", side_en(side),
                            xqn_kind_en(kind), t);
        if (one) {
            c->res->move = one->m[0];
            c->res->why = one->why[0];
            char a[3];
            xqn_sqname(XQ_FROM(one->m[0]), a);
            return xqn_fail(c, XQ_NOTE_ILLEGAL, 0, "%s%s is illegal: %s", a, t,
                            xq_illegal_str(one->why[0]));
        }
        xqn_fail(c, XQ_NOTE_ILLEGAL, 0, "no %s can legally move to %s: ", xqn_kind_en(kind), t);
        list_moves(c, &shape, true, false);
        return XQ_NOTE_ILLEGAL;
    }
    if (ps.n == 1) return xqn_finish_known(c, ps.m[0], ps.why[0]);
    cand_set legal;
    legal.n = 0;
    for (int i = 0; i < ps.n; i++)
        if (ps.why[i] == XQ_LEGAL) legal.m[legal.n++] = ps.m[i];
    if (legal.n == 1) {
        if (!warn) return xqn_finish_known(c, legal.m[0], XQ_LEGAL);
        char a[3];
        xqn_sqname(XQ_FROM(legal.m[0]), a);
        xqn_fail(c, XQ_NOTE_RESOLVED, 0, "%d %ss can reach %s; only the one on %s legally%s",
                 ps.n, xqn_kind_en(kind), t, a, hint ? hint : "");
        return resolved(c, legal.m[0]);
    }
    if (legal.n == 0) {
        xqn_fail(c, XQ_NOTE_ILLEGAL, 0, "no legal move to %s: ", t);
        list_moves(c, &ps, true, false);
        return XQ_NOTE_ILLEGAL;
    }
    xqn_fail(c, XQ_NOTE_AMBIGUOUS, 0, "ambiguous: the %ss on ", xqn_kind_en(kind));
    list_moves(c, &legal, false, true);
    msg_add(c, " can all move to %s", t);
    return XQ_NOTE_AMBIGUOUS;
}

/* --- describing a move for writers ------------------------------------ */

bool xqn_describe(const xq_position *pos, xq_move m, xq_kind *kind, int *action, int *arg)
{
    int from = XQ_FROM(m), to = XQ_TO(m);
    if (from >= XQ_SQUARES || to >= XQ_SQUARES || from == to) return false;
    xq_piece p = pos->board[from];
    if (!p || XQ_COLOR(p) != pos->side) return false;
    xq_color side = pos->side;
    xq_kind k = XQ_KIND(p);
    int dr = XQ_RANK(to) - XQ_RANK(from), dx = XQ_FILE(to) - XQ_FILE(from);
    *kind = k;
    if (dr == 0) {
        if (!xqn_straight(k)) return false;
        *action = XQN_SIDE;
        *arg = xqn_file_num(side, XQ_FILE(to));
    } else {
        *action = dr * xqn_forward(side) > 0 ? XQN_FWD : XQN_BACK;
        if (xqn_straight(k)) {
            if (dx) return false;
            *arg = abs(dr);
        } else {
            if (!dx) return false;
            *arg = xqn_file_num(side, XQ_FILE(to));
        }
    }
    return xqn_target(side, k, from, *action, *arg) == to;
}

bool xqn_needs_marker(const xq_position *pos, xq_move m, xq_kind kind, int action, int arg,
                      const xqn_list *onfile)
{
    if (onfile->n < 2) return false;
    if (kind != XQ_ADVISOR && kind != XQ_ELEPHANT) return true;
    int from = XQ_FROM(m);
    for (int i = 0; i < onfile->n; i++) {
        int sq = onfile->sq[i];
        if (sq == from) continue;
        int t = xqn_target(pos->side, kind, sq, action, arg);
        if (t >= 0 && confined_ok(pos->side, kind, sq, t)) return true;
    }
    return false;
}

/* --- recognition and dispatch ----------------------------------------- */

static bool is_file_letter(char ch) { return (ch >= 'a' && ch <= 'i') || (ch >= 'A' && ch <= 'I'); }
static bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }

/* letter digit{1,2} '-'? letter digit{1,2}, both letters of one case. */
static bool is_coord(const char *s, int n)
{
    int i = 0;
    if (i >= n || !is_file_letter(s[i])) return false;
    bool upper = s[i] <= 'I';
    i++;
    if (i >= n || !is_digit(s[i])) return false;
    i++;
    if (i < n && is_digit(s[i])) i++;
    if (i < n && s[i] == '-') i++;
    if (i >= n || !is_file_letter(s[i]) || (s[i] <= 'I') != upper) return false;
    i++;
    if (i >= n || !is_digit(s[i])) return false;
    i++;
    if (i < n && is_digit(s[i])) i++;
    return i == n;
}

static bool is_wxf_piece(char ch) { return ch && strchr("KAEBHNRCPkaebhnrcp", ch) != NULL; }

static bool is_wxf(const char *s, int n)
{
    if (n == 3) return (is_wxf_piece(s[0]) || (s[0] >= '1' && s[0] <= '7'))
                       && s[1] >= '1' && s[1] <= '9' && s[2] >= '1' && s[2] <= '9';
    if (n != 4) return false;
    return strchr("+-.=", s[2]) && s[3] >= '1' && s[3] <= '9';
}

xq_notation xqn_ascii_kind(const char *s, int n)
{
    if (is_coord(s, n)) return s[2] == '-' || s[3] == '-' ? XQ_NOTATION_ICCS : XQ_NOTATION_UCCI;
    if (is_wxf(s, n)) return XQ_NOTATION_WXF;
    /* SAN: optional piece letter, then a square at the end (before +#!?) */
    int e = n;
    while (e > 0 && strchr("+#!?", s[e - 1])) e--;
    if (e >= 2 && is_digit(s[e - 1])) {
        int k = e - 1;
        if (k >= 1 && is_digit(s[k - 1])) k--;
        if (k >= 1 && s[k - 1] >= 'a' && s[k - 1] <= 'i') return XQ_NOTATION_SAN;
    }
    return XQ_NOTATION_AUTO;
}

static bool first_is_ascii(const char *text, size_t len)
{
    size_t i = 0;
    long cp = xqn_utf8_next(text, len, &i);
    return cp >= 0 && (cp < 0x80 || (cp >= 0xFF01 && cp <= 0xFF5E));
}

xq_notation xq_notation_detect(const char *text, size_t len)
{
    if (!len) return XQ_NOTATION_AUTO;
    if (!first_is_ascii(text, len)) return xqn_chinese_shape(text, len);
    char s[24];
    int n = xqn_to_ascii(text, len, s, (int)sizeof s);
    return n > 0 ? xqn_ascii_kind(s, n) : XQ_NOTATION_AUTO;
}

/* xq_move_read after its checks: recognise the notation (AUTO), then its
 * reader.  Kept out of xq_move_read so the common case pays for none of
 * its locals. */
__attribute__((noinline))
static xq_note_status read_general(xqn_ctx *c, const char *text, size_t len, xq_notation notation)
{
    xq_note_result *res = c->res;
    bool chinese = notation == XQ_NOTATION_CHINESE || notation == XQ_NOTATION_CHINESE_ABBR
                   || notation == XQ_NOTATION_CHINESE_3DIGIT;
    if (notation == XQ_NOTATION_AUTO) {
        size_t i = 0;
        if (xqn_utf8_next(text, len, &i) < 0)
            return xqn_fail(c, XQ_NOTE_BAD_CHAR, 1, "invalid UTF-8 byte 0x%02X at column 1",
                            (unsigned)(unsigned char)text[0]);
        chinese = !first_is_ascii(text, len);
    }
    if (chinese) {
        if (notation == XQ_NOTATION_AUTO) res->notation = XQ_NOTATION_CHINESE;
        return xqn_read_chinese(c, text, len);
    }
    if (notation < XQ_NOTATION_AUTO || notation >= XQ_NOTATION_COUNT)
        return xqn_fail(c, XQ_NOTE_SYNTAX, 0, "unknown notation %d", (int)notation);

    char s[24];
    int n = xqn_to_ascii(text, len, s, (int)sizeof s);
    if (n == 0) return xqn_fail(c, XQ_NOTE_SYNTAX, 0, "too long for a move");
    if (n < 0) {
        size_t i = 0;
        long cp = 0;
        for (int k = 0; k < -n; k++) cp = xqn_utf8_next(text, len, &i);
        /* 'X８平７', '?二平五': a Chinese move with a wrong character
         * before its first Chinese one; the Chinese reader names that one */
        if (notation == XQ_NOTATION_AUTO && xqn_chinese_char(cp)) {
            res->notation = XQ_NOTATION_CHINESE;
            return xqn_read_chinese(c, text, len);
        }
        if (cp < 0)
            return xqn_fail(c, XQ_NOTE_BAD_CHAR, -n, "invalid UTF-8 at column %d", -n);
        if (cp < 0x80)
            return xqn_fail(c, XQ_NOTE_BAD_CHAR, -n, "unknown character '%c' at column %d", (int)cp, -n);
        char u[8];
        size_t un = 0;
        xqn_put_cp(u, sizeof u, &un, (unsigned long)cp);
        return xqn_fail(c, XQ_NOTE_BAD_CHAR, -n, "unknown character '%s' (U+%04lX) at column %d",
                        u, (unsigned long)cp, -n);
    }
    xq_notation kind = notation;
    if (kind == XQ_NOTATION_AUTO) {
        kind = xqn_ascii_kind(s, n);
        if (kind == XQ_NOTATION_AUTO) {
            for (int k = 0; k < n; k++)
                if (!strchr("abcdefghiABCDEFGHIKkNnPpRrx+-.=#!?0123456789", s[k]))
                    return xqn_fail(c, XQ_NOTE_BAD_CHAR, k + 1, "unknown character '%c' at column %d",
                                    s[k], k + 1);
            return xqn_fail(c, XQ_NOTE_SYNTAX, 0,
                            "'%s' is not a move in Chinese, WXF, ICCS, UCCI or SAN notation", s);
        }
        res->notation = kind;
    }
    switch (kind) {
    case XQ_NOTATION_WXF: return xqn_read_wxf(c, s, n);
    case XQ_NOTATION_ICCS:
    case XQ_NOTATION_UCCI: return xqn_read_coord(c, s, n);
    case XQ_NOTATION_SAN: return xqn_read_san(c, s, n);
    default: return xqn_fail(c, XQ_NOTE_SYNTAX, 0, "unknown notation");
    }
}

xq_note_status xq_move_read(const xq_position *pos, const char *text, size_t len,
                            xq_notation notation, unsigned flags,
                            xq_note_result *res, char *msg, size_t msg_size)
{
    xqn_ctx c = { pos, flags, res, msg, msg_size };
    res->status = XQ_NOTE_OK;
    res->move = XQ_MOVE_NONE;
    res->why = XQ_LEGAL;
    res->notation = notation;
    res->column = 0;
    if (msg && msg_size) msg[0] = 0;
    if (!text || len == 0) return xqn_fail(&c, XQ_NOTE_EMPTY, 0, "empty move");
    /* the Chinese full form with one piece on its file, nearly every move
     * of a real record (AUTO would recognise it as Chinese too); the
     * shortcut looks at no other notation and not under XQN_READ_NO_FAST */
    xq_move m = xq_move_read_quick(pos, text, len, notation, flags);
    if (m != XQ_MOVE_NONE) {
        res->notation = XQ_NOTATION_CHINESE;
        res->move = m;           /* status OK and msg "" as set above */
        return XQ_NOTE_OK;
    }
    return read_general(&c, text, len, notation);
}

size_t xq_move_write(const xq_position *pos, xq_move m, xq_notation notation,
                     unsigned flags, char *buf, size_t size)
{
    if (size) buf[0] = 0;
    int from = XQ_FROM(m), to = XQ_TO(m);
    if (from >= XQ_SQUARES || to >= XQ_SQUARES || from == to) return 0;
    xq_piece p = pos->board[from];
    if (!p || XQ_COLOR(p) != pos->side) return 0;
    size_t n;
    switch (notation) {
    case XQ_NOTATION_CHINESE: n = xqn_write_chinese(pos, m, flags, buf, size); break;
    case XQ_NOTATION_CHINESE_ABBR: n = xqn_write_abbr(pos, m, flags, buf, size); break;
    case XQ_NOTATION_CHINESE_3DIGIT: n = xqn_write_3digit(pos, m, flags, buf, size); break;
    case XQ_NOTATION_WXF: n = xqn_write_wxf(pos, m, flags, buf, size); break;
    case XQ_NOTATION_ICCS:
    case XQ_NOTATION_UCCI: n = xqn_write_coord(pos, m, notation, flags, buf, size); break;
    case XQ_NOTATION_SAN: n = xqn_write_san(pos, m, flags, buf, size); break;
    default: n = 0; break;
    }
    if (n == 0 && size) buf[0] = 0;
    return n;
}

/* --- names ------------------------------------------------------------ */

static const char *const notation_names[XQ_NOTATION_COUNT] = {
    "auto", "chinese", "abbr", "3digit", "wxf", "iccs", "ucci", "san"
};

const char *xq_notation_name(xq_notation n)
{
    return (unsigned)n < XQ_NOTATION_COUNT ? notation_names[n] : "?";
}

bool xq_notation_from_name(const char *name, xq_notation *out)
{
    static const struct { const char *name; xq_notation n; } alias[] = {
        {"chinese-abbr", XQ_NOTATION_CHINESE_ABBR}, {"abbreviated", XQ_NOTATION_CHINESE_ABBR},
        {"chinese-3digit", XQ_NOTATION_CHINESE_3DIGIT}, {"xboard", XQ_NOTATION_SAN},
        {"uci", XQ_NOTATION_UCCI}, {"cn", XQ_NOTATION_CHINESE},
    };
    for (int i = 0; i < XQ_NOTATION_COUNT; i++)
        if (!strcasecmp(name, notation_names[i])) { *out = (xq_notation)i; return true; }
    for (size_t i = 0; i < sizeof alias / sizeof alias[0]; i++)
        if (!strcasecmp(name, alias[i].name)) { *out = alias[i].n; return true; }
    return false;
}

const char *xq_note_status_str(xq_note_status st)
{
    static const char *const s[XQ_NOTE_COUNT] = {
        "ok", "resolved by legality", "empty move", "unknown character", "syntax error",
        "no such piece", "impossible action for that piece", "ambiguous", "illegal move"
    };
    return (unsigned)st < XQ_NOTE_COUNT ? s[st] : "?";
}

xq_notation xq_notation_from_format_tag(const char *value)
{
    xq_notation n;
    if (!value || !*value) return XQ_NOTATION_AUTO;
    if (!strcasecmp(value, "Chinese")) return XQ_NOTATION_CHINESE;
    return xq_notation_from_name(value, &n) ? n : XQ_NOTATION_AUTO;
}
