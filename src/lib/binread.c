/* binread.c - helpers shared by the XQF, CBR/CBL and DhtmlXQ readers: the
 * whole-file load, text conversion, the start position, and the pre-order
 * move tree of XQF and CBR (formats.md §1f).  See binread.h. */
#include "binread.h"

#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgn_read.h"

/* ---- whole-file load ------------------------------------------------------ */

bool xq_bin_load(xq_input *in, size_t max, unsigned char **out, size_t *len, bool *cut, char *err,
                 size_t errsz)
{
    *out = NULL;
    *len = 0;
    *cut = false;
    const char *path = xq_input_path(in);
    const unsigned char *p = NULL;
    size_t want = 64 * 1024, n;
    for (;;) {
        if (want > max) want = max + 1;
        n = xq_input_peek(in, want, &p);
        if (n < want) break;
        if (want > max) {   /* one byte more than max: the file is longer */
            *cut = true;
            n = max;
            break;
        }
        want *= 2;
    }
    if (xq_input_error(in)[0]) {
        if (errsz) snprintf(err, errsz, "%s", xq_input_error(in));
        return false;
    }
    if (n == 0) return true;
    unsigned char *buf = malloc(n);
    if (!buf) {
        if (errsz) snprintf(err, errsz, "%s: out of memory", path);
        return false;
    }
    memcpy(buf, p, n);
    *out = buf;
    *len = n;
    return true;
}

/* ---- text ----------------------------------------------------------------- */

/* Append the UTF-8 form of code point c to b. */
static bool put_utf8(xq_buf *b, uint32_t c)
{
    char u[4];
    size_t n;
    if (c < 0x80) { u[0] = (char)c; n = 1; }
    else if (c < 0x800) { u[0] = (char)(0xC0 | c >> 6); u[1] = (char)(0x80 | (c & 0x3F)); n = 2; }
    else if (c < 0x10000) {
        u[0] = (char)(0xE0 | c >> 12); u[1] = (char)(0x80 | ((c >> 6) & 0x3F)); u[2] = (char)(0x80 | (c & 0x3F));
        n = 3;
    } else {
        u[0] = (char)(0xF0 | c >> 18); u[1] = (char)(0x80 | ((c >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((c >> 6) & 0x3F)); u[3] = (char)(0x80 | (c & 0x3F));
        n = 4;
    }
    return xq_buf_append(b, u, n);
}

/* Copy b into the arena and free b, its line breaks as `breaks` says
 * (xq_bin_breaks). */
static const char *finish(xq_game *g, xq_buf *b, xq_bin_breaks breaks)
{
    size_t n = 0;
    if (breaks != XQ_BIN_AS_IS) {
        for (size_t i = 0; i < b->len; i++)
            if (!(b->p[i] == '\r' && i + 1 < b->len && b->p[i + 1] == '\n')) b->p[n++] = b->p[i];
        if (breaks == XQ_BIN_CRLF_LINE) {
            if (n && b->p[n - 1] == '\n') n--;
        } else {
            while (n && (b->p[n - 1] == '\n' || b->p[n - 1] == '\r')) n--;
        }
    } else {
        n = b->len;
    }
    const char *s = xq_game_strndup(g, b->p ? b->p : "", n);
    xq_buf_free(b);
    return s;
}

/* Length of the valid UTF-8 sequence at s[0..n), or 0 when invalid. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
    size_t k = s[0] < 0x80 ? 1 : s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
             : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
    if (k == 0 || k > n) return 0;
    return xq_utf8_valid(s, k, false) ? k : 0;
}

void xq_bin_conv_close(xq_bin_conv *c)
{
    if (c->cd) iconv_close((iconv_t)c->cd);
    c->cd = NULL;
}

const char *xq_bin_text(xq_game *g, xq_bin_conv *c, const unsigned char *s, size_t n, xq_bin_breaks breaks, unsigned *bad)
{
    const unsigned char *nul = memchr(s, 0, n);
    if (nul) n = (size_t)(nul - s);
    xq_buf b = {0};
    if (!xq_buf_reserve(&b, n * 3 / 2 + 4)) return NULL;
    if (c->enc != XQ_ENC_GBK && c->enc != XQ_ENC_BIG5) {
        for (size_t i = 0; i < n;) {
            size_t k = utf8_seq(s + i, n - i);
            if (k) {
                if (!xq_buf_append(&b, s + i, k)) goto oom;
                i += k;
            } else {
                if (!put_utf8(&b, 0xFFFD)) goto oom;
                if (bad) (*bad)++;
                i++;
            }
        }
        return finish(g, &b, breaks);
    }
    if (!c->cd && !c->failed) {
        iconv_t cd = iconv_open("UTF-8", c->enc == XQ_ENC_BIG5 ? "CP950" : "GB18030");
        if (cd == (iconv_t)-1) c->failed = true;
        else c->cd = cd;
    }
    if (!c->cd) {
        /* no converter: keep ASCII, mark the rest */
        for (size_t i = 0; i < n; i++) {
            if (s[i] < 0x80 ? !xq_buf_append(&b, s + i, 1) : !put_utf8(&b, 0xFFFD)) goto oom;
            if (s[i] >= 0x80 && bad) (*bad)++;
        }
        return finish(g, &b, breaks);
    }
    iconv_t cd = (iconv_t)c->cd;
    iconv(cd, NULL, NULL, NULL, NULL);
    char *in = (char *)s;
    size_t left = n;
    while (left) {
        if (!xq_buf_reserve(&b, left * 4 + 16)) goto oom;
        char *o = b.p + b.len;
        size_t room = b.cap - b.len;
        size_t rc = iconv(cd, &in, &left, &o, &room);
        b.len = (size_t)(o - b.p);
        if (rc == (size_t)-1 && errno != E2BIG) {   /* EILSEQ or EINVAL (cut at the end) */
            if (!put_utf8(&b, 0xFFFD)) goto oom;
            if (bad) (*bad)++;
            in++;
            left--;
            iconv(cd, NULL, NULL, NULL, NULL);
        }
    }
    return finish(g, &b, breaks);
oom:
    xq_buf_free(&b);
    return NULL;
}

const char *xq_bin_utf16(xq_game *g, const unsigned char *s, size_t n, xq_bin_breaks breaks, unsigned *bad)
{
    xq_buf b = {0};
    if (!xq_buf_reserve(&b, n * 3 / 2 + 4)) return NULL;
    for (size_t i = 0; i + 1 < n; i += 2) {
        uint32_t c = (uint32_t)(s[i] | s[i + 1] << 8);
        if (c == 0) break;
        if (c >= 0xD800 && c <= 0xDBFF && i + 3 < n) {
            uint32_t lo = (uint32_t)(s[i + 2] | s[i + 3] << 8);
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
                c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
                i += 2;
            }
        }
        if (c >= 0xD800 && c <= 0xDFFF) {
            c = 0xFFFD;
            if (bad) (*bad)++;
        }
        if (!put_utf8(&b, c)) {
            xq_buf_free(&b);
            return NULL;
        }
    }
    return finish(g, &b, breaks);
}

/* ---- records and positions ------------------------------------------------------ */

void xq_bin_set_start(xq_game *g, const xq_position *pos)
{
    xq_position start;
    xq_position_start(&start);
    if (pos->side == XQ_RED && !memcmp(pos->board, start.board, sizeof start.board)) return;
    char fen[XQ_FEN_MAX];
    size_t n = xq_fen_write(pos, fen, sizeof fen);
    if (xq_game_add_tag(g, "FEN", 3, fen, n)) g->fen = g->tags[g->tag_count - 1].value;
}

void xq_bin_record(xq_game *g, const char *path, uint64_t index, uint64_t first_line,
                   uint64_t offset, const unsigned char *bytes, size_t n)
{
    g->file = xq_game_strndup(g, path, strlen(path));
    g->index = index;
    g->first_line = first_line;
    g->offset = offset;
    g->encoding = XQ_ENC_UTF8;
    if (n) xq_game_append_raw(g, bytes, n);
}

void xq_bin_ucci(int from, int to, char buf[5])
{
    buf[0] = (char)('a' + XQ_FILE(from));
    buf[1] = (char)('0' + XQ_RANK(from));
    buf[2] = (char)('a' + XQ_FILE(to));
    buf[3] = (char)('0' + XQ_RANK(to));
    buf[4] = '\0';
}

/* ---- the pre-order move tree ------------------------------------------------------ */

enum { NONE = UINT32_MAX };

typedef struct {
    xq_game *g;
    const xq_bin_move *v;
    const char *what;
    bool deep_warned;
} builder;

static bool usable(const xq_bin_move *m)
{
    return m->from < XQ_SQUARES && m->to < XQ_SQUARES;
}

/* Build the line that starts with record first into *out: first, then its
 * chain of next moves; each node's variations are the chain of siblings
 * of its record (except for the line's first record when alt_head: its
 * siblings are alternatives to the same move and belong to the caller).
 * Recursion depth is the variation depth (bounded). */
static bool build_line(builder *b, uint32_t first, int depth, bool alt_head, xq_branch *out)
{
    memset(out, 0, sizeof *out);
    size_t count = 0;
    for (uint32_t r = first; r != NONE && usable(&b->v[r]); r = b->v[r].child) count++;
    if (!count) return true;
    xq_node *nodes = xq_game_alloc(b->g, count * sizeof *nodes);
    if (!nodes) return false;
    memset(nodes, 0, count * sizeof *nodes);
    out->nodes = nodes;
    out->count = count;
    uint32_t r = first;
    for (size_t i = 0; i < count; i++, r = b->v[r].child) {
        const xq_bin_move *m = &b->v[r];
        xq_node *n = &nodes[i];
        char text[5];
        xq_bin_ucci(m->from, m->to, text);
        if (!(n->text = xq_game_strndup(b->g, text, 4))) return false;
        n->comment = m->comment;
        n->move = XQ_MOVE(m->from, m->to);
        if (i == 0 && alt_head) continue;
        uint32_t nvar = 0;
        for (uint32_t s = m->sibling; s != NONE; s = b->v[s].sibling) nvar += usable(&b->v[s]);
        if (!nvar) continue;
        if (depth >= XQ_MAX_VARIATION_DEPTH) {
            if (!b->deep_warned)
                xq_game_diag(b->g, XQ_SEV_ERROR, 0, 0, b->v[m->sibling].offset,
                             "%s record at byte %llu: variations nested deeper than %d are left out", b->what,
                             (unsigned long long)b->v[m->sibling].offset, XQ_MAX_VARIATION_DEPTH);
            b->deep_warned = true;
            continue;
        }
        if (!(n->variations = xq_game_alloc(b->g, nvar * sizeof *n->variations))) return false;
        for (uint32_t s = m->sibling; s != NONE; s = b->v[s].sibling) {
            if (!usable(&b->v[s])) continue;
            if (!build_line(b, s, depth + 1, true, &n->variations[n->variation_count])) return false;
            n->variation_count++;
        }
    }
    return true;
}

bool xq_bin_tree_read(xq_game *g, xq_bin_record_fn *read_one, void *ctx, size_t pos, const char *what,
                      size_t *end_pos)
{
    xq_bin_move *v = NULL;
    uint32_t *pending = NULL;   /* records whose sibling is still to come */
    size_t n = 0, cap = 0, np = 0, pcap = 0;
    bool ok = false;
    uint32_t parent = NONE;     /* the next record is the child of parent ... */
    uint32_t elder = NONE;      /* ... or the sibling of elder */
    for (;;) {
        if (n == cap) {
            size_t c = cap ? cap * 2 : 64;
            xq_bin_move *nv = realloc(v, c * sizeof *nv);
            if (!nv) goto done;
            v = nv;
            cap = c;
        }
        if (n > XQ_MAX_RECORD_MOVES) {
            xq_game_diag(g, XQ_SEV_ERROR, 0, 0, pos,
                         "%s move record at byte %zu: more than %d moves in one game; the rest are left out", what,
                         pos, XQ_MAX_RECORD_MOVES);
            break;
        }
        xq_bin_move *m = &v[n];
        memset(m, 0, sizeof *m);
        m->offset = pos;
        if (!read_one(ctx, g, &pos, m)) break;
        m->child = m->sibling = NONE;
        uint32_t id = (uint32_t)n++;
        if (id == 0) {
            m->from = m->to = 0;   /* the root carries no move */
        } else if (parent != NONE) {
            v[parent].child = id;
        } else {
            v[elder].sibling = id;
        }
        if (!usable(m) && id != 0)
            xq_game_diag(g, XQ_SEV_ERROR, 0, 0, m->offset,
                         "%s move record at byte %llu: square out of the board; this move and the moves "
                         "after it in its line are left out",
                         what, (unsigned long long)m->offset);
        if (m->has_sibling && id != 0) {
            if (np == pcap) {
                size_t c = pcap ? pcap * 2 : 64;
                uint32_t *p = realloc(pending, c * sizeof *p);
                if (!p) goto done;
                pending = p;
                pcap = c;
            }
            pending[np++] = id;
        }
        parent = elder = NONE;
        if (m->has_next) parent = id;
        else if (np) elder = pending[--np];
        else break;
    }
    if (end_pos) *end_pos = pos;
    ok = true;
    if (n) {
        builder b = {g, v, what, false};
        if (v[0].child != NONE) ok = build_line(&b, v[0].child, 0, false, &g->main);
        g->main.comment = v[0].comment;
    }
done:
    free(v);
    free(pending);
    return ok;
}

/* ---- piece slots ------------------------------------------------------------------ */

int xq_bin_slots(const xq_position *pos, int sq[32])
{
    int lost = 0;
    for (int i = 0; i < 32; i++) sq[i] = -1;
    for (int s = 0; s < XQ_SQUARES; s++) {
        xq_piece p = pos->board[s];
        if (!p) continue;
        int base = XQ_COLOR(p) == XQ_RED ? 0 : 16, i;
        for (i = 0; i < 16; i++)
            if (XQ_BIN_SLOT_KIND[i] == XQ_KIND(p) && sq[base + i] < 0) break;
        if (i < 16) sq[base + i] = s;
        else lost++;
    }
    return lost;
}
