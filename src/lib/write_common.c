/* write_common.c - what every writer shares: format names, the dispatch
 * and output encoding of xq_write_game, the move walk, the tag order,
 * FEN and result helpers.  See write.h and write_internal.h. */
#include "write_internal.h"
#include "jsonl_read.h"

#include <errno.h>
#include <iconv.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- format names and capabilities -------------------------------------- */

static const char *const FORMAT_NAMES[XQ_OUT_COUNT] = {
    [XQ_OUT_PGN] = "pgn", [XQ_OUT_JSONL] = "jsonl", [XQ_OUT_XML] = "xml",
    [XQ_OUT_XBOARD] = "xboard", [XQ_OUT_UCCI] = "ucci", [XQ_OUT_XQF] = "xqf", [XQ_OUT_DHTMLXQ] = "dhtmlxq",
};

const char *xq_out_format_name(xq_out_format f)
{
    return (unsigned)f < XQ_OUT_COUNT ? FORMAT_NAMES[f] : "?";
}

bool xq_out_format_parse(const char *name, xq_out_format *out)
{
    for (int f = 0; f < XQ_OUT_COUNT; f++)
        if (!strcasecmp(name, FORMAT_NAMES[f])) { *out = (xq_out_format)f; return true; }
    if (!strcasecmp(name, "json")) { *out = XQ_OUT_JSONL; return true; }
    return false;
}

unsigned xq_out_format_holds(xq_out_format f)
{
    if (f == XQ_OUT_XQF || f == XQ_OUT_DHTMLXQ) return XQ_HOLDS_TAGS | XQ_HOLDS_COMMENTS | XQ_HOLDS_VARIATIONS;
    return f == XQ_OUT_UCCI ? 0u : XQ_HOLDS_TAGS | XQ_HOLDS_COMMENTS | XQ_HOLDS_NAGS | XQ_HOLDS_VARIATIONS;
}

static unsigned branch_contents(const xq_branch *b)
{
    unsigned bits = b->comment ? XQ_HOLDS_COMMENTS : 0u;
    for (size_t i = 0; i < b->count; i++) {
        const xq_node *n = &b->nodes[i];
        if (n->comment) bits |= XQ_HOLDS_COMMENTS;
        if (n->nag_count) bits |= XQ_HOLDS_NAGS;
        if (n->variation_count) bits |= XQ_HOLDS_VARIATIONS;
        for (uint32_t v = 0; v < n->variation_count; v++) bits |= branch_contents(&n->variations[v]);
    }
    return bits;
}

unsigned xq_game_contents(const xq_game *g)
{
    return branch_contents(&g->main) | (g->tag_count ? XQ_HOLDS_TAGS : 0u);
}

/* ---- the move walk -------------------------------------------------------- */

typedef struct {
    const xq_game *g;
    const xq_replay *r;
    const xq_walk_ops *ops;
    void *ctx;
    bool variations;
    xq_notation notation;
    xq_write_report *rep;
} walk;

/* The notation named by the record's Format tag (formats.md §1e), else auto,
 * as xq_replay_game reads the main line. */
static void fail(walk *w, const xq_node *n, const char *what, int ply, const char *reason)
{
    if (w->rep->why[0]) return;
    snprintf(w->rep->why, sizeof w->rep->why, "%sply %d (%s): %s; later moves kept untranslated", what, ply,
             n->text ? n->text : "", reason);
    w->rep->line = n->line;
    w->rep->col = n->col;
}

/* The place of the replay's finding that it could not start (a FEN tag
 * that does not parse, or gives a position that cannot arise: at the
 * tag, where the reader knows it), or NULL. */
static const xq_finding *start_finding(const xq_replay *r)
{
    for (int i = 0; i < r->nfindings; i++) {
        const xq_finding *f = &r->findings[i];
        if (f->severity == XQ_SEV_ERROR && (f->kind == XQ_FIND_BAD_FEN || f->kind == XQ_FIND_IMPOSSIBLE_POSITION))
            return f->line ? f : NULL;
    }
    return NULL;
}

/* How many leading moves of line b decode from start (NULL: none), their
 * moves in moves[] (variations only: the main line was decoded by the
 * replay, up to r->plies); the first failure goes to the report. */
static size_t decode_line(walk *w, const xq_branch *b, const xq_position *start, int depth, int ply0,
                          xq_move *moves)
{
    if (!b->count) return 0;
    if (depth == 0) {
        size_t n = start ? (size_t)w->r->plies : 0;
        if (n > b->count) n = b->count;
        if (n < b->count) {
            bool first = !w->rep->why[0];
            fail(w, &b->nodes[n], "", ply0 + (int)n, w->r->reason[0] ? w->r->reason : "move not decoded");
            const xq_finding *f = start ? NULL : start_finding(w->r);
            if (first && f) {   /* the moves are fine: the start is not */
                w->rep->line = f->line;
                w->rep->col = f->col;
            }
        }
        return n;
    }
    if (!start) return 0;
    xq_position pos = *start;
    for (size_t i = 0; i < b->count; i++) {
        const xq_node *n = &b->nodes[i];
        char msg[192];
        xq_note_result res;
        xq_move_read(&pos, n->text, strlen(n->text), w->notation, w->r->read_flags, &res, msg, sizeof msg);
        if (res.status != XQ_NOTE_OK && res.status != XQ_NOTE_RESOLVED) {
            fail(w, n, "variation at ", ply0 + (int)i, msg);
            return i;
        }
        xq_undo u;
        xq_make(&pos, res.move, &u);
        moves[i] = res.move;
    }
    return b->count;
}

/* Walk line b from start (NULL: no position, everything untranslated);
 * ply0 is the 1-based ply of its first node counted from the game start,
 * number/side those of its first ply, vindex its index among the
 * variations of its node. */
static void walk_branch(walk *w, const xq_branch *b, const xq_position *start, int depth, size_t vindex,
                        int ply0, int number, xq_color side)
{
    xq_move local[128], *moves = local;
    if (depth > 0 && b->count > 128 && !(moves = malloc(b->count * sizeof *moves))) {
        moves = local;
        start = NULL;   /* out of memory: keep the line as text */
    }
    size_t translated = decode_line(w, b, start, depth, ply0, moves);
    xq_walk_line line = {b, depth, vindex, translated, number, side};
    if (w->ops->line_begin) w->ops->line_begin(w->ctx, &line);
    xq_position pos;
    if (start) pos = *start;
    for (size_t i = 0; i < b->count; i++, number += side == XQ_BLACK, side = (xq_color)!side) {
        const xq_node *n = &b->nodes[i];
        xq_move mv = i >= translated ? XQ_MOVE_NONE : depth == 0 ? n->move : moves[i];
        if (!mv) w->rep->untranslated++;
        xq_walk_move m = {.line = &line, .node = n, .pos = mv ? &pos : NULL, .move = mv, .depth = depth,
                          .index = i, .number = number, .side = side,
                          .last_translated = i + 1 == translated && translated < b->count,
                          .fail_pos = i == translated && start ? &pos : NULL};
        if (w->ops->move_begin) w->ops->move_begin(w->ctx, &m);
        for (uint32_t v = 0; w->variations && v < n->variation_count; v++)
            walk_branch(w, &n->variations[v], i <= translated && start ? &pos : NULL, depth + 1, v,
                        ply0 + (int)i, number, side);
        if (w->ops->move_end) w->ops->move_end(w->ctx, &m);
        if (mv) {
            xq_undo u;
            xq_make(&pos, mv, &u);
        }
    }
    if (w->ops->line_end) w->ops->line_end(w->ctx, &line);
    if (moves != local) free(moves);
}

void xq_walk_game(const xq_game *g, const xq_replay *r, bool variations, const xq_walk_ops *ops,
                  void *ctx, xq_write_report *rep)
{
    walk w = {g, r, ops, ctx, variations, xq_notation_from_format_tag(xq_game_tag(g, "Format")), rep};
    bool readable = r->status != XQ_STATUS_UNREADABLE;
    walk_branch(&w, &g->main, readable ? &r->start : NULL, 0, 0, 1, readable ? r->start.fullmove : 1,
                readable ? r->start.side : XQ_RED);
}

/* ---- tags ------------------------------------------------------------------- */

bool xq_tag_is(const char *a, const char *b)
{
    return !strcasecmp(a, b) || (!strcasecmp(b, "Red") && !strcasecmp(a, "White"));
}

static bool named_in(const char *name, const char *const *list)
{
    for (; list && *list; list++)
        if (xq_tag_is(name, *list)) return true;
    return false;
}

const xq_tag **xq_tags_ordered(const xq_game *g, const char *const *order, const char *const *skip,
                               size_t *count)
{
    *count = 0;
    if (!g->tag_count) return NULL;
    const xq_tag **out = malloc(g->tag_count * sizeof *out);
    bool *used = calloc(g->tag_count, 1);
    if (!out || !used) {
        free(out);
        free(used);
        return NULL;
    }
    size_t n = 0;
    for (; order && *order; order++) {
        if (named_in(*order, skip)) continue;
        for (size_t i = 0; i < g->tag_count; i++) {
            if (!used[i] && xq_tag_is(g->tags[i].name, *order)) {
                used[i] = true;
                out[n++] = &g->tags[i];
                break;
            }
        }
    }
    for (size_t i = 0; i < g->tag_count; i++)
        if (!used[i] && !named_in(g->tags[i].name, skip)) out[n++] = &g->tags[i];
    free(used);
    *count = n;
    return out;
}

/* Is value (trimmed of blanks) word, in any ASCII case? */
static bool value_is(const char *value, const char *word)
{
    if (!value) return false;
    while (*value == ' ' || *value == '\t') value++;
    size_t n = strlen(value), w = strlen(word);
    while (n && (value[n - 1] == ' ' || value[n - 1] == '\t')) n--;
    return n == w && !strncasecmp(value, word, w);
}

bool xq_tag_said_by_own(const xq_tag *t, bool fen_written)
{
    if (xq_tag_is(t->name, "Variant")) return value_is(t->value, "xiangqi");
    if (xq_tag_is(t->name, "SetUp")) return value_is(t->value, fen_written ? "1" : "0");
    return false;
}

size_t xq_tags_drop_said(const xq_tag **tags, size_t n, bool fen_written)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!xq_tag_said_by_own(tags[i], fen_written)) tags[k++] = tags[i];
    return k;
}

bool xq_jsonl_name_bad(unsigned char c)
{
    return c && strchr(XQ_JSONL_TAG_NAME_BAD, c);
}

/* Do tag names x and y read the same as written (xq_tags_drop_repeats)? */
static bool same_written(const char *x, const char *y, bool (*bad)(unsigned char), bool any_case)
{
    if (any_case && xq_tag_is(x, "Red") && xq_tag_is(y, "Red")) return true;   /* (White is written Red) */
    if (!*x) x = "_";
    if (!*y) y = "_";
    for (;; x++, y++) {
        unsigned char a = (unsigned char)*x, b = (unsigned char)*y;
        if (!a || !b) return a == b;
        if (bad(a)) a = '_';
        if (bad(b)) b = '_';
        if (any_case && (unsigned)(a - 'A') < 26u) a = (unsigned char)(a | 0x20);
        if (any_case && (unsigned)(b - 'A') < 26u) b = (unsigned char)(b | 0x20);
        if (a != b) return false;
    }
}

/* A hash of name as written (same_written): names that read the same
 * hash the same. */
static uint64_t written_hash(const char *x, bool (*bad)(unsigned char), bool any_case)
{
    if (any_case && xq_tag_is(x, "Red")) x = "red";
    if (!*x) x = "_";
    uint64_t h = 0xcbf29ce484222325u;
    for (; *x; x++) {
        unsigned char a = (unsigned char)*x;
        if (bad(a)) a = '_';
        if (any_case && (unsigned)(a - 'A') < 26u) a = (unsigned char)(a | 0x20);
        h = (h ^ a) * 0x100000001b3u;
    }
    return h;
}

/* Whether tags[i] reads as a name among the kept tags[0..kept), which a
 * table of their hashes indexes (slots: kept index + 1, 0 empty; mask + 1
 * slots), and, when not, enter it as tags[kept] (the caller's next).
 * Without a table (no memory for it) a search of them all. */
static bool seen_written(const xq_tag **tags, size_t i, size_t kept, uint32_t *table, size_t mask,
                         bool (*bad)(unsigned char), bool any_case)
{
    if (!table) {
        for (size_t k = 0; k < kept; k++)
            if (same_written(tags[i]->name, tags[k]->name, bad, any_case)) return true;
        return false;
    }
    size_t s = (size_t)written_hash(tags[i]->name, bad, any_case) & mask;
    for (; table[s]; s = (s + 1) & mask)
        if (same_written(tags[i]->name, tags[table[s] - 1]->name, bad, any_case)) return true;
    table[s] = (uint32_t)kept + 1;
    return false;
}

size_t xq_tags_drop_repeats(const xq_tag **tags, size_t n, bool (*bad)(unsigned char), bool any_case,
                            xq_write_report *rep, const char *format)
{
    char names[128] = "";
    size_t kept = 0, dropped = 0, len = 0;
    /* the kept names by hash: linear in the tags (a search of every kept
     * name took 80 s for a record of 100,000 tags) */
    size_t slots = 16;
    while (slots < 2 * n) slots *= 2;
    uint32_t *table = n > 8 && n < UINT32_MAX / 4 ? calloc(slots, sizeof *table) : NULL;
    for (size_t i = 0; i < n; i++) {
        if (!seen_written(tags, i, kept, table, slots - 1, bad, any_case)) {
            tags[kept++] = tags[i];
            continue;
        }
        if (len + 1 < sizeof names)
            len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", dropped ? ", " : "", tags[i]->name);
        if (len >= sizeof names) len = sizeof names - 1;
        dropped++;
    }
    free(table);
    if (dropped) xq_write_note(rep, "%s cannot hold a second tag of a name: %s dropped", format, names);
    return kept;
}

/* ---- positions, results, text --------------------------------------------- */

bool xq_is_start_position(const xq_position *pos)
{
    xq_position start;
    xq_position_start(&start);
    return pos->side == XQ_RED && !memcmp(pos->board, start.board, sizeof start.board);
}

const char *xq_write_fen(const xq_game *g, const xq_replay *r, char *buf)
{
    if (r->status == XQ_STATUS_UNREADABLE) return g->fen && *g->fen ? g->fen : NULL;
    if (!(g->fen && *g->fen) && xq_is_start_position(&r->start)) return NULL;
    xq_fen_write(&r->start, buf, XQ_FEN_MAX);
    return buf;
}

const char *xq_write_result_token(const xq_game *g)
{
    if (g->result_code != XQ_RESULT_NONE) return xq_result_str(g->result_code);
    xq_result res;
    if (xq_result_parse(xq_game_tag(g, "Result"), &res) && res != XQ_RESULT_NONE) return xq_result_str(res);
    return "*";
}

const char *xq_write_comment(const char *s, size_t *empty)
{
    if (s && !*s) {
        ++*empty;
        return NULL;
    }
    return s;
}

void xq_write_note(xq_write_report *rep, const char *fmt, ...)
{
    size_t n = strlen(rep->note);
    if (n && n + 2 < sizeof rep->note) n += (size_t)snprintf(rep->note + n, sizeof rep->note - n, "; ");
    if (n + 1 >= sizeof rep->note) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rep->note + n, sizeof rep->note - n, fmt, ap);
    va_end(ap);
}

void xq_put_clean(FILE *out, const char *s, const char *bad, const char *repl, bool keep_newlines)
{
    const char *run = s;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        bool ctl = (c < 0x20 || c == 0x7f) && !(keep_newlines && c == '\n');
        if (!ctl && !strchr(bad, c)) continue;
        fwrite(run, 1, (size_t)(s - run), out);
        fputs(ctl ? " " : repl, out);
        run = s + 1;
    }
    fwrite(run, 1, (size_t)(s - run), out);
}

/* ---- output encoding -------------------------------------------------------- */

/* Length of the UTF-8 sequence led by byte c (1 for a stray byte). */
static size_t utf8_seq_len(unsigned char c)
{
    return c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
}

/* Write UTF-8 text s[0..n) to out in enc; characters enc lacks become '?'
 * and are counted in rep->unencodable. */
static void put_encoded(FILE *out, const char *s, size_t n, xq_encoding enc, xq_write_report *rep)
{
    const char *name = enc == XQ_ENC_BIG5 ? "CP950" : "GBK";
    iconv_t cd = iconv_open(name, "UTF-8");
    if (cd == (iconv_t)-1) {
        snprintf(rep->why, sizeof rep->why, "cannot convert to %s: %s", name, strerror(errno));
        return;
    }
    char obuf[8192];
    char *in = (char *)s;
    size_t left = n;
    while (left) {
        char *o = obuf;
        size_t oleft = sizeof obuf;
        size_t rc = iconv(cd, &in, &left, &o, &oleft);
        fwrite(obuf, 1, (size_t)(o - obuf), out);
        if (rc == (size_t)-1 && errno != E2BIG) {   /* EILSEQ / EINVAL: one character lacks */
            size_t skip = utf8_seq_len((unsigned char)*in);
            if (skip > left) skip = left;
            in += skip;
            left -= skip;
            putc('?', out);
            rep->unencodable++;
        }
    }
    iconv_close(cd);
    if (rep->unencodable && !rep->why[0])
        snprintf(rep->why, sizeof rep->why, "%u characters cannot be written in %s; written as '?'",
                 rep->unencodable, xq_encoding_name(enc));
}

static bool encodes(const xq_write_options *opt)
{
    return (opt->encoding == XQ_ENC_GBK || opt->encoding == XQ_ENC_BIG5) &&
           (opt->format == XQ_OUT_PGN || opt->format == XQ_OUT_XBOARD || opt->format == XQ_OUT_XML ||
            opt->format == XQ_OUT_DHTMLXQ);
}

/* A format without move text (UCCI, XQF, DhtmlXQ: squares only) ends a
 * line before its first untranslated move: the walk's "later moves kept
 * untranslated" becomes "not written", and a note counts them. */
static void untranslated_dropped(xq_write_report *rep, const char *format)
{
    static const char kept[] = "; later moves kept untranslated";
    size_t n = strlen(rep->why), k = sizeof kept - 1;
    if (n >= k && !strcmp(rep->why + n - k, kept))
        snprintf(rep->why + n - k, sizeof rep->why - (n - k), "; later moves not written");
    xq_write_note(rep, "%s cannot hold untranslated moves: %u dropped", format, rep->untranslated);
}

/* ---- the entry points --------------------------------------------------------- */

bool xq_write_begin(FILE *out, const xq_write_options *opt)
{
    if (opt->format == XQ_OUT_XML) xq_write_xml_begin(out, encodes(opt) ? opt->encoding : XQ_ENC_UTF8);
    return !ferror(out);
}

bool xq_write_end(FILE *out, const xq_write_options *opt)
{
    if (opt->format == XQ_OUT_XML) xq_write_xml_end(out);
    return !ferror(out);
}

bool xq_write_game(FILE *out, const xq_game *g, const xq_replay *r, const xq_write_options *opt,
                   xq_write_report *rep)
{
    xq_write_report local;
    if (!rep) rep = &local;
    memset(rep, 0, sizeof *rep);
    char *buf = NULL;
    size_t len = 0;
    FILE *dst = out;
    if (encodes(opt) && !(dst = open_memstream(&buf, &len))) {
        snprintf(rep->why, sizeof rep->why, "out of memory");
        return false;
    }
    switch (opt->format) {
    case XQ_OUT_PGN: xq_write_pgn(dst, g, r, opt, rep); break;
    case XQ_OUT_JSONL: xq_write_jsonl(dst, g, r, opt, rep); break;
    case XQ_OUT_XML: xq_write_xml(dst, g, r, opt, rep); break;
    case XQ_OUT_XBOARD: xq_write_xboard(dst, g, r, opt, rep); break;
    case XQ_OUT_UCCI: xq_write_ucci(dst, g, r, rep); break;
    case XQ_OUT_XQF: xq_write_xqf(dst, g, r, opt, rep); break;
    case XQ_OUT_DHTMLXQ: xq_write_dhtmlxq(dst, g, r, opt, rep); break;
    default: snprintf(rep->why, sizeof rep->why, "unknown output format"); break;
    }
    if (rep->untranslated && (opt->format == XQ_OUT_UCCI || opt->format == XQ_OUT_XQF || opt->format == XQ_OUT_DHTMLXQ))
        untranslated_dropped(rep, xq_out_format_name(opt->format));
    if (dst != out) {
        if (fclose(dst) == 0) put_encoded(out, buf, len, opt->encoding, rep);
        else snprintf(rep->why, sizeof rep->why, "out of memory");
        free(buf);
    }
    return !rep->why[0] && !rep->note[0];
}
