/* write_xqf.c - XQF version 10 (unencrypted, the XQF.TXT layout of
 * formats.md §1f), so that a record can go back to XQStudio and the other
 * XQF programs.  Read back by xqf_read.c.
 *
 * Layout written (all offsets hex):
 *   000 'XQ', 0x0A; 010-02F the 32 piece bytes X*10+Y (0xFF: no piece) in
 *   the order 车马相仕帅仕相马车炮炮兵×5, Red then Black; 032 1 when Black
 *   moves first (the version-10 spec reserves it; vschess and hbsxcjp read
 *   it as WhoPlay, and the first move's colour says it anyway); 033 the
 *   result (0 unknown, 1 Red, 2 Black, 3 draw); 040 the type (0 a full
 *   game from the standard start, 3 any other start, so that readers that
 *   ignore the piece bytes of full games still see it); Pascal strings in
 *   GBK: 050 Title (64 bytes), 0D0 Event (64), 110 Date, 120 Site, 130
 *   Red, 140 Black (16 each), 150 TimeControl (64), 190 RedTime, 1A0
 *   BlackTime, 1D0 Annotator, 1E0 Author (16 each); longer values are cut
 *   at a character boundary (reported).
 *   400 the records in pre-order: [from+0x18, to+0x20, tag, 0] and an
 *   int32 comment length, then the comment in GBK with CRLF line breaks
 *   (one more CRLF after a comment that ends with a line break: XQStudio
 *   ends every comment with one, which the readers drop);
 *   tag 0xF0 = the line goes on, 0x0F = an alternative to this move
 *   follows.  The root record is 18 20 tag FF with the game comment.
 *
 * The tree: a move's alternatives are its node's variations (nested
 * variations of a variation's first move too: they are alternatives to
 * the same move).  A variation's leading comment goes before the comment
 * of its first move (a record has one comment, after its move), with a
 * note; an empty comment is not written (length 0 is no
 * comment), with a note.  NAGs are not written (XQF has none).  A line ends
 * before its first untranslated move (reported by the walk).
 */
#include "write_internal.h"

#include <errno.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>

#include "binread.h"

enum { HEADER = 0x400 };

/* ---- GBK text ----------------------------------------------------------- */

/* Append UTF-8 s to b in GBK; characters GBK lacks become '?' (counted in
 * rep->unencodable); "\n" becomes "\r\n" when crlf. */
static void put_gbk(xq_buf *b, iconv_t cd, const char *s, bool crlf, xq_write_report *rep)
{
    for (const char *line = s; line;) {
        const char *nl = crlf ? strchr(line, '\n') : NULL;
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        char *in = (char *)line;
        size_t left = n;
        iconv(cd, NULL, NULL, NULL, NULL);
        while (left) {
            if (!xq_buf_reserve(b, left * 2 + 8)) return;
            char *o = b->p + b->len;
            size_t room = b->cap - b->len;
            size_t rc = iconv(cd, &in, &left, &o, &room);
            b->len = (size_t)(o - b->p);
            if (rc == (size_t)-1 && errno != E2BIG) {
                unsigned char c = (unsigned char)*in;
                size_t skip = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
                if (skip > left) skip = left;
                in += skip;
                left -= skip;
                xq_buf_append(b, "?", 1);
                rep->unencodable++;
            }
        }
        if (!nl) break;
        xq_buf_append(b, "\r\n", 2);
        line = nl + 1;
    }
}

/* Length of the longest prefix of GBK bytes s[0..n) that fits max bytes
 * without splitting a character. */
static size_t gbk_cut(const unsigned char *s, size_t n, size_t max)
{
    size_t i = 0;
    while (i < n) {
        size_t k = s[i] >= 0x81 && i + 1 < n ? 2 : 1;
        if (i + k > max) break;
        i += k;
    }
    return i;
}

/* ---- decoded moves by node --------------------------------------------------- */

/* Open addressing from node pointers to their decoded moves. */
typedef struct {
    const xq_node **key;
    xq_move *move;
    size_t cap;
    bool failed;
} move_map;

static size_t slot_of(const move_map *m, const xq_node *n)
{
    uintptr_t h = (uintptr_t)n;
    h ^= h >> 17;
    h *= (uintptr_t)0x9E3779B97F4A7C15ull;
    size_t i = (size_t)(h >> 7) & (m->cap - 1);
    while (m->key[i] && m->key[i] != n) i = (i + 1) & (m->cap - 1);
    return i;
}

static size_t count_nodes(const xq_branch *b)
{
    size_t n = b->count;
    for (size_t i = 0; i < b->count; i++)
        for (uint32_t v = 0; v < b->nodes[i].variation_count; v++) n += count_nodes(&b->nodes[i].variations[v]);
    return n;
}

static void on_move(void *ctx, const xq_walk_move *wm)
{
    move_map *m = ctx;
    if (m->failed || !wm->move) return;
    size_t i = slot_of(m, wm->node);
    m->key[i] = wm->node;
    m->move[i] = wm->move;
}

static xq_move move_of(const move_map *m, const xq_node *n)
{
    size_t i = slot_of(m, n);
    return m->key[i] ? m->move[i] : XQ_MOVE_NONE;
}

/* ---- the tree ------------------------------------------------------------------ */

/* One entry of a group of alternatives: node index i of line b. */
typedef struct {
    const xq_branch *b;
    size_t i;
} alt;

typedef struct {
    alt *v;
    size_t n, cap;
} group;

static bool group_add(group *g, const xq_branch *b, size_t i)
{
    if (g->n == g->cap) {
        size_t c = g->cap ? g->cap * 2 : 4;
        alt *v = realloc(g->v, c * sizeof *v);
        if (!v) return false;
        g->v = v;
        g->cap = c;
    }
    g->v[g->n++] = (alt){b, i};
    return true;
}

/* The alternatives to node i of line b: itself, then the first moves of
 * its variations and theirs (depth first); untranslated ones left out. */
static bool alternatives(const move_map *m, const xq_branch *b, size_t i, bool variations, group *g)
{
    if (i >= b->count) return true;
    /* the alternatives to an untranslated move stay (they continue the
     * line that ends before it) */
    if (move_of(m, &b->nodes[i]) && !group_add(g, b, i)) return false;
    if (!variations) return true;
    const xq_node *n = &b->nodes[i];
    for (uint32_t v = 0; v < n->variation_count; v++)
        if (!alternatives(m, &n->variations[v], 0, variations, g)) return false;
    return true;
}

static void put_u32(xq_buf *b, uint32_t v)
{
    unsigned char x[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
    xq_buf_append(b, x, 4);
}

/* Whether text ends with a line break: XQStudio ends each comment with
 * "\r\n", its line end, which the readers (ours: binread.h
 * XQ_BIN_CRLF_LINE) drop, so such a comment gets one more "\r\n". */
static bool ends_with_break(const char *text)
{
    size_t n = text ? strlen(text) : 0;
    return n && text[n - 1] == '\n';
}

/* A record: 4 bytes, the comment length, the comment (pre, then a line
 * break, then comment, when both are there). */
static void put_record(xq_buf *b, iconv_t cd, int from, int to, bool next, bool sibling, bool root,
                       const char *pre, const char *comment, xq_write_report *rep)
{
    unsigned char r[4] = {(unsigned char)(0x18 + from), (unsigned char)(0x20 + to),
                          (unsigned char)((next ? 0xF0 : 0) | (sibling ? 0x0F : 0)), root ? 0xFF : 0};
    xq_buf_append(b, r, 4);
    size_t at = b->len;
    put_u32(b, 0);
    size_t start = b->len;
    if (pre) put_gbk(b, cd, pre, true, rep);
    if (pre && comment) xq_buf_append(b, "\r\n", 2);
    if (comment) put_gbk(b, cd, comment, true, rep);
    if (comment ? ends_with_break(comment) : ends_with_break(pre)) xq_buf_append(b, "\r\n", 2);
    uint32_t n = (uint32_t)(b->len - start);
    if (b->p && b->len >= at + 4) {
        b->p[at] = (char)n;
        b->p[at + 1] = (char)(n >> 8);
        b->p[at + 2] = (char)(n >> 16);
        b->p[at + 3] = (char)(n >> 24);
    }
}

/* XQF square byte of ICCS square sq. */
static int xqf_square(int sq)
{
    return XQ_FILE(sq) * 10 + XQ_RANK(sq);
}

/* ---- the writer ------------------------------------------------------------------ */

/* The header's string fields and the tags they hold. */
static const struct { size_t off, size; const char *tag; } F[] = {
    {0x50, 64, "Title"},        {0xD0, 64, "Event"},     {0x110, 16, "Date"},     {0x120, 16, "Site"},
    {0x130, 16, "Red"},         {0x140, 16, "Black"},    {0x150, 64, "TimeControl"},
    {0x190, 16, "RedTime"},     {0x1A0, 16, "BlackTime"}, {0x1D0, 16, "Annotator"}, {0x1E0, 16, "Author"},
};

/* True when tag t of g is written: the value of a field's tag (the first
 * of its name), the Result (a byte) or a tag that says what the file is
 * anyway (Game, FEN: the piece bytes, Format, SetUp, Variant). */
static bool xqf_holds(const xq_game *g, const xq_tag *t)
{
    static const char *const OWN[] = {"Game", "FEN", "Format", "SetUp", "Variant", "Result", NULL};
    if (!*t->value) return true;
    for (int i = 0; OWN[i]; i++)
        if (xq_tag_is(t->name, OWN[i])) return true;
    for (size_t i = 0; i < sizeof F / sizeof F[0]; i++)
        if (xq_tag_is(t->name, F[i].tag) && xq_game_tag(g, F[i].tag) == t->value) return true;
    return false;
}

/* A note naming the tags of g that XQF has no field for (also a second
 * tag of a name), in record order. */
static void note_dropped_tags(const xq_game *g, xq_write_report *rep)
{
    char names[160];
    size_t n = 0, more = 0;
    for (size_t i = 0; i < g->tag_count; i++) {
        const xq_tag *t = &g->tags[i];
        if (xqf_holds(g, t)) continue;
        size_t k = strlen(t->name);
        if (n + k + 3 < sizeof names - 8) {
            n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", n ? ", " : "", t->name);
        } else {
            more++;
        }
    }
    if (!n) return;
    if (more) snprintf(names + n, sizeof names - n, " +%zu", more);
    xq_write_note(rep, "xqf cannot hold tags %s: dropped", names);
}

void xq_write_xqf(FILE *out, const xq_game *g, const xq_replay *r, const xq_write_options *opt,
                  xq_write_report *rep)
{
    if (r->status == XQ_STATUS_UNREADABLE) {
        snprintf(rep->why, sizeof rep->why, "no XQF written: the record has no readable start position (%s)",
                 r->reason);
        return;
    }
    iconv_t cd = iconv_open("GBK", "UTF-8");
    if (cd == (iconv_t)-1) {
        snprintf(rep->why, sizeof rep->why, "no XQF written: cannot convert to GBK: %s", strerror(errno));
        return;
    }
    xq_buf b = {0};
    group *stack = NULL;
    size_t depth = 0, cap = 0;
    move_map m = {0};
    char cut[200] = "";

    /* header */
    if (!xq_buf_reserve(&b, HEADER)) goto oom;
    memset(b.p, 0, HEADER);
    b.len = HEADER;
    unsigned char *h = (unsigned char *)b.p;
    h[0] = 'X', h[1] = 'Q', h[2] = 10;
    int sq[32];
    int lost = xq_bin_slots(&r->start, sq);
    for (int i = 0; i < 32; i++) h[0x10 + i] = sq[i] < 0 ? 0xFF : (unsigned char)xqf_square(sq[i]);
    if (lost)
        snprintf(cut, sizeof cut, "%d pieces of the start position do not fit XQF's 32 piece slots; left off", lost);
    h[0x32] = r->start.side == XQ_BLACK;
    const char *res = xq_write_result_token(g);
    h[0x33] = !strcmp(res, "1-0") ? 1 : !strcmp(res, "0-1") ? 2 : !strcmp(res, "1/2-1/2") ? 3 : 0;
    h[0x40] = xq_is_start_position(&r->start) ? 0 : 3;
    for (size_t i = 0; i < sizeof F / sizeof F[0]; i++) {
        const char *v = xq_game_tag(g, F[i].tag);
        if (!v || !*v) continue;
        xq_buf t = {0};
        put_gbk(&t, cd, v, false, rep);
        size_t n = gbk_cut((const unsigned char *)t.p, t.len, F[i].size - 1);
        if (n < t.len && !cut[0])
            snprintf(cut, sizeof cut, "tag %s is %zu bytes in GBK; cut to %zu, the size of its XQF field", F[i].tag,
                     t.len, n);
        h = (unsigned char *)b.p;
        h[F[i].off] = (unsigned char)n;
        if (n) memcpy(h + F[i].off + 1, t.p, n);
        xq_buf_free(&t);
    }

    note_dropped_tags(g, rep);

    /* decoded moves, then the records in pre-order */
    m.cap = 16;
    size_t total = count_nodes(&g->main);
    while (m.cap < 2 * total + 2) m.cap *= 2;
    m.key = calloc(m.cap, sizeof *m.key);
    m.move = calloc(m.cap, sizeof *m.move);
    if (!m.key || !m.move) goto oom;
    xq_walk_ops ops = {.move_begin = on_move};
    xq_walk_game(g, r, !opt->no_variations, &ops, &m, rep);
    bool vars = !opt->no_variations, comments = !opt->no_comments;

    group first = {0};
    if (!alternatives(&m, &g->main, 0, vars, &first)) goto oom;
    size_t empty = 0;   /* empty comments: length 0 is no comment in XQF */
    size_t leads = 0;   /* variations' leading comments joined to their first move's */
    put_record(&b, cd, 0, 0, first.n > 0, false, true, NULL, comments ? xq_write_comment(g->main.comment, &empty) : NULL,
               rep);
    if (first.n) {
        stack = malloc(sizeof *stack);
        if (!stack) { free(first.v); goto oom; }
        cap = 1;
        stack[depth++] = first;
    }
    /* the stack holds the groups whose alternatives are still to be
     * written; a record's next line goes on top, so it is written before
     * the record's remaining alternatives (pre-order) */
    while (depth) {
        group *top = &stack[depth - 1];
        alt e = top->v[0];
        memmove(top->v, top->v + 1, (top->n - 1) * sizeof *top->v);
        top->n--;
        bool sibling = top->n > 0;
        if (!sibling) {
            free(top->v);
            depth--;
        }
        const xq_node *n = &e.b->nodes[e.i];
        xq_move mv = move_of(&m, n);
        group next = {0};
        if (!alternatives(&m, e.b, e.i + 1, vars, &next)) goto oom;
        const char *pre = comments && e.i == 0 && e.b != &g->main ? xq_write_comment(e.b->comment, &empty) : NULL;
        leads += pre != NULL;
        put_record(&b, cd, xqf_square(XQ_FROM(mv)), xqf_square(XQ_TO(mv)), next.n > 0, sibling, false, pre,
                   comments ? xq_write_comment(n->comment, &empty) : NULL, rep);
        if (next.n) {
            if (depth == cap) {
                size_t c = cap ? cap * 2 : 16;
                group *s = realloc(stack, c * sizeof *s);
                if (!s) { free(next.v); goto oom; }
                stack = s;
                cap = c;
            }
            stack[depth++] = next;
        }
    }
    if (!b.p) goto oom;
    fwrite(b.p, 1, b.len, out);
    if (cut[0] && !rep->why[0]) snprintf(rep->why, sizeof rep->why, "%s", cut);
    if (rep->unencodable)   /* XQF's strings are GBK: no --encoding says so */
        xq_write_note(rep, "xqf (GBK) cannot hold %u characters: written as '?'", rep->unencodable);
    if (empty) xq_write_note(rep, "xqf cannot hold empty comments: %zu dropped", empty);
    if (leads)   /* a record has one comment, after its move: none before a variation's first move */
        xq_write_note(rep, "xqf cannot hold a comment before a variation's first move: %zu put in that move's "
                           "comment", leads);
    goto done;
oom:
    snprintf(rep->why, sizeof rep->why, "no XQF written: out of memory");
done:
    while (depth) free(stack[--depth].v);
    free(stack);
    free(m.key);
    free(m.move);
    xq_buf_free(&b);
    iconv_close(cd);
}
