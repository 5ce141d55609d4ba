/* jsonl_read.c - see jsonl_read.h.  Each non-blank line is parsed whole
 * (json_read.h, strict) and its tree copied into the game; the first
 * problem met while copying is named by its path in the object
 * ("moves[3].nags[0]") and turns the record into an empty game with that
 * one diagnostic. */
#include "jsonl_read.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "json_read.h"
#include "pgn_read.h"
#include "position.h"
#include "replay.h"

enum {
    /* JSON nesting of a record whose variations nest XQ_MAX_VARIATION_DEPTH
     * deep: the record (1), "moves" (2), a move (3), each variation level
     * three more ("variations", the line, a move), a move's scalars one
     * more; deeper records are refused, which bounds the recursion */
    JSONL_MAX_DEPTH = 3 * XQ_MAX_VARIATION_DEPTH + 6,
    /* values in one record: a line of XQ_MAX_LINE bytes holds at most
     * half as many; this caps the tree's memory (some 50 bytes a value) */
    JSONL_MAX_VALUES = 1 << 22,
    PATH_SEGS = JSONL_MAX_DEPTH + 2
};

/* One step of the path to a value in the record, for messages: a member
 * name, or (key NULL) an array index. */
typedef struct {
    const char *key;
    size_t index;
} segment;

/* Copying one record's tree into a game. */
typedef struct {
    xq_game *g;
    uint32_t line;           /* the record's line */
    const char *text;        /* the line's text (from offset 0, after a BOM), as parsed */
    size_t cc_at, cc_chars;  /* text_col's last answer: characters in text[0..cc_at) */
    segment path[PATH_SEGS];
    int depth;
    bool failed;
    size_t bad_at;           /* where the first problem is (byte offset in text) */
    char msg[256];
} filler;

/* The 1-based column of byte at of UTF-8 text, in characters: what the
 * other readers count (man xq(7): columns in characters, the same for a
 * record in UTF-8, GBK or Big5, and a BOM not counted), not the bytes of
 * the line or of its UTF-8 decoding. */
static uint32_t char_col(const char *text, size_t at)
{
    size_t n = 0;
    for (size_t i = 0; i < at; i++) n += ((unsigned char)text[i] & 0xC0) != 0x80;
    return n + 1 > UINT32_MAX ? UINT32_MAX : (uint32_t)(n + 1);
}

/* char_col of f's line, counting on from the last answer: the values are
 * met in document order, so a record costs one pass over its line. */
static uint32_t text_col(filler *f, size_t at)
{
    if (at < f->cc_at) f->cc_at = f->cc_chars = 0;
    for (; f->cc_at < at; f->cc_at++) f->cc_chars += ((unsigned char)f->text[f->cc_at] & 0xC0) != 0x80;
    return f->cc_chars + 1 > UINT32_MAX ? UINT32_MAX : (uint32_t)(f->cc_chars + 1);
}

struct xq_jsonl_reader {
    xq_input *in;
    const char *path;
    bool decode;             /* GBK or Big5 forced: each line decoded from it (xq_input_decode) */
    bool keep_source;        /* a record's line copied to its source (xq_jsonl_reader_keep_source) */
    uint64_t index;          /* records returned */
    xq_json_doc doc;         /* reused line after line */
    filler fill;
};

xq_jsonl_reader *xq_jsonl_reader_open(xq_input *in, xq_encoding enc, char *err, size_t errsz)
{
    xq_jsonl_reader *j = calloc(1, sizeof *j);
    if (!j) {
        if (errsz) snprintf(err, errsz, "%s: out of memory", xq_input_path(in));
        return NULL;
    }
    j->in = in;
    j->path = xq_input_path(in);
    j->decode = enc == XQ_ENC_GBK || enc == XQ_ENC_BIG5;
    return j;
}

void xq_jsonl_reader_close(xq_jsonl_reader *j)
{
    if (!j) return;
    xq_json_doc_free(&j->doc);
    free(j);
}

/* ---- the path and the first problem ------------------------------------- */

static void enter_key(filler *f, const char *key)
{
    if (f->depth < PATH_SEGS) f->path[f->depth] = (segment){key, 0};
    f->depth++;
}

static void enter_index(filler *f, size_t index)
{
    if (f->depth < PATH_SEGS) f->path[f->depth] = (segment){NULL, index};
    f->depth++;
}

static void leave(filler *f)
{
    f->depth--;
}

/* Record the first problem, at value v, as "PATH: WHY". */
static bool problem(filler *f, const xq_json_value *v, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool problem(filler *f, const xq_json_value *v, const char *fmt, ...)
{
    if (f->failed) return false;
    f->failed = true;
    f->bad_at = v->offset;
    size_t n = 0;
    for (int i = 0; i < f->depth && i < PATH_SEGS && n < sizeof f->msg; i++) {
        const segment *s = &f->path[i];
        int k = s->key ? snprintf(f->msg + n, sizeof f->msg - n, "%s%s", i ? "." : "", s->key)
                       : snprintf(f->msg + n, sizeof f->msg - n, "[%zu]", s->index);
        n += k > 0 ? (size_t)k : 0;
    }
    if (n < sizeof f->msg) n += (size_t)snprintf(f->msg + n, sizeof f->msg - n, "%s", f->depth ? ": " : "");
    if (n < sizeof f->msg) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(f->msg + n, sizeof f->msg - n, fmt, ap);
        va_end(ap);
    }
    return false;
}

static bool out_of_memory(filler *f, const xq_json_value *v)
{
    f->g->out_of_memory = true;
    return problem(f, v, "out of memory");
}

/* ---- typed members ------------------------------------------------------- */

/* Member key of obj when it is a string (*out its arena copy) or null or
 * missing (*out NULL); otherwise a problem.  *at: the value, or NULL. */
static bool get_string(filler *f, const xq_json_value *obj, const char *key, const char **out,
                       const xq_json_value **at)
{
    const xq_json_value *v = xq_json_get(obj, key);
    *out = NULL;
    if (at) *at = v;
    if (!v || v->type == XQ_JSON_NULL) return true;
    enter_key(f, key);
    bool ok = false;
    if (v->type != XQ_JSON_STRING) problem(f, v, "expected a string, not %s", xq_json_type_name(v->type));
    else if (strlen(v->str) != v->len) problem(f, v, "NUL character (\\u0000) in a string");
    else if (!(*out = xq_game_strndup(f->g, v->str, v->len))) out_of_memory(f, v);
    else ok = true;
    leave(f);
    return ok;
}

/* Member key of obj when it is of type t (*out), null or missing (*out
 * NULL); otherwise a problem. */
static bool get_typed(filler *f, const xq_json_value *obj, const char *key, xq_json_type t,
                      const xq_json_value **out)
{
    const xq_json_value *v = xq_json_get(obj, key);
    *out = NULL;
    if (!v || v->type == XQ_JSON_NULL) return true;
    if (v->type != t) {
        enter_key(f, key);
        problem(f, v, "expected %s, not %s", xq_json_type_name(t), xq_json_type_name(v->type));
        leave(f);
        return false;
    }
    *out = v;
    return true;
}

/* ---- tags ---------------------------------------------------------------- */

static bool fill_tags(filler *f, const xq_json_value *tags)
{
    bool ok = true;
    enter_key(f, "tags");
    for (size_t i = 0; ok && i < tags->len; i++) {
        const xq_json_value *v = &tags->items[i];
        const char *name = tags->keys[i];
        enter_key(f, name);
        /* a name the PGN writer can write back: not empty, no blank,
         * quote or bracket (a tag line `[Name "value"]`) */
        if (!*name || name[strcspn(name, XQ_JSONL_TAG_NAME_BAD)])
            ok = problem(f, v, "a tag name must be a word (not empty, no blank, '\"', '[' or ']')");
        else if (v->type != XQ_JSON_STRING) ok = problem(f, v, "expected a string, not %s", xq_json_type_name(v->type));
        else if (strlen(v->str) != v->len) ok = problem(f, v, "NUL character (\\u0000) in a string");
        else if (!xq_game_add_tag(f->g, name, strlen(name), v->str, v->len)) ok = out_of_memory(f, v);
        leave(f);
    }
    leave(f);
    return ok;
}

/* ---- moves and lines ----------------------------------------------------- */

static bool fill_line(filler *f, const xq_json_value *arr, xq_branch *b, bool variation);

static bool fill_nags(filler *f, const xq_json_value *nags, xq_node *n)
{
    if (!nags || !nags->len) return true;
    if (nags->len > UINT16_MAX) return problem(f, nags, "more than %u NAGs", (unsigned)UINT16_MAX);
    uint16_t *codes = xq_game_alloc(f->g, nags->len * sizeof *codes);
    if (!codes) return out_of_memory(f, nags);
    bool ok = true;
    enter_key(f, "nags");
    for (size_t i = 0; ok && i < nags->len; i++) {
        const xq_json_value *v = &nags->items[i];
        unsigned long x = 0;
        bool whole = v->type == XQ_JSON_NUMBER && v->len <= 5 && strspn(v->str, "0123456789") == v->len;
        if (whole) x = strtoul(v->str, NULL, 10);
        enter_index(f, i);
        if (!whole || x > UINT16_MAX)
            ok = problem(f, v, "expected a whole number from 0 to 65535, not %s",
                         v->type == XQ_JSON_NUMBER ? v->str : xq_json_type_name(v->type));
        codes[i] = (uint16_t)x;
        leave(f);
    }
    leave(f);
    n->nags = codes;
    n->nag_count = (uint16_t)nags->len;
    return ok;
}

static bool fill_variations(filler *f, const xq_json_value *vars, xq_node *n)
{
    if (!vars || !vars->len) return true;
    if (vars->len > UINT32_MAX) return problem(f, vars, "too many variations");
    xq_branch *bs = xq_game_alloc(f->g, vars->len * sizeof *bs);
    if (!bs) return out_of_memory(f, vars);
    memset(bs, 0, vars->len * sizeof *bs);
    bool ok = true;
    enter_key(f, "variations");
    for (size_t i = 0; ok && i < vars->len; i++) {
        const xq_json_value *v = &vars->items[i];
        enter_index(f, i);
        if (v->type != XQ_JSON_ARRAY) ok = problem(f, v, "expected an array of moves, not %s", xq_json_type_name(v->type));
        else ok = fill_line(f, v, &bs[i], true);
        leave(f);
    }
    leave(f);
    n->variations = bs;
    n->variation_count = (uint32_t)vars->len;
    return ok;
}

/* Move object mv into node n. */
static bool fill_move(filler *f, const xq_json_value *mv, xq_node *n)
{
    if (mv->type != XQ_JSON_OBJECT) return problem(f, mv, "expected a move (an object), not %s", xq_json_type_name(mv->type));
    const char *text;
    const xq_json_value *at, *nags, *vars;
    if (!get_string(f, mv, "text", &text, &at)) return false;
    if (!text && !get_string(f, mv, "iccs", &text, &at)) return false;
    if (!text) return problem(f, mv, "a move without \"text\" or \"iccs\"");
    size_t len = strlen(text);
    n->text = text;
    n->text_len = len <= UINT16_MAX ? (uint16_t)len : 0;
    n->line = f->line;
    n->col = text_col(f, at->offset);
    return get_string(f, mv, "comment", &n->comment, NULL) && get_typed(f, mv, "nags", XQ_JSON_ARRAY, &nags) &&
           fill_nags(f, nags, n) && get_typed(f, mv, "variations", XQ_JSON_ARRAY, &vars) &&
           fill_variations(f, vars, n);
}

/* Is member key of object v missing or null (as every field may be)? */
static bool absent(const xq_json_value *v, const char *key)
{
    const xq_json_value *m = xq_json_get(v, key);
    return !m || m->type == XQ_JSON_NULL;
}

/* An object that is a line's leading comment: {"comment": ...} and no
 * move, its "text" and "iccs" missing or null (jq's {comment, text} gives
 * {"comment": ..., "text": null}). */
static bool is_line_comment(const xq_json_value *v)
{
    return v->type == XQ_JSON_OBJECT && xq_json_get(v, "comment") && absent(v, "text") && absent(v, "iccs");
}

/* Array of moves arr into b; a variation's first element may be its
 * leading comment. */
static bool fill_line(filler *f, const xq_json_value *arr, xq_branch *b, bool variation)
{
    size_t first = 0;
    if (variation && arr->len && is_line_comment(&arr->items[0])) {
        enter_index(f, 0);
        bool ok = get_string(f, &arr->items[0], "comment", &b->comment, NULL);
        leave(f);
        if (!ok) return false;
        first = 1;
    }
    size_t count = arr->len - first;
    if (!count) return true;
    xq_node *nodes = xq_game_alloc(f->g, count * sizeof *nodes);
    if (!nodes) return out_of_memory(f, arr);
    memset(nodes, 0, count * sizeof *nodes);
    b->nodes = nodes;
    bool ok = true;
    for (size_t i = 0; ok && i < count; i++) {
        enter_index(f, first + i);
        ok = fill_move(f, &arr->items[first + i], &nodes[i]);
        leave(f);
        b->count = i + 1;
    }
    return ok;
}

/* ---- the record ---------------------------------------------------------- */

/* The movetext's result: "movetext_result" when the record has it (null:
 * none), else "result" (the writer writes the movetext's result apart
 * only when the Result tag's, in "result", is not it). */
static bool fill_result(filler *f, const xq_json_value *rec)
{
    const char *key = xq_json_get(rec, "movetext_result") ? "movetext_result" : "result";
    const char *res;
    const xq_json_value *at;
    if (!get_string(f, rec, key, &res, &at)) return false;
    if (!res) return true;
    xq_result code;
    if (!xq_result_parse(res, &code) || code == XQ_RESULT_NONE) {
        enter_key(f, key);
        problem(f, at, "expected 1-0, 0-1, 1/2-1/2, * or null");
        leave(f);
        return false;
    }
    f->g->result = res;
    f->g->result_code = code;
    return true;
}

/* g's FEN is string v: where it starts (xq_game.fen_line), verbatim
 * when the line holds it as it is (no escape) and in ASCII (the replay
 * counts its columns in the FEN on from there). */
static void fen_from(filler *f, const xq_json_value *v)
{
    const char *raw = f->text + v->offset + 1;   /* (a string's raw text is no shorter than it) */
    bool verbatim = raw[v->len] == '"';
    for (size_t i = 0; verbatim && i < v->len; i++) verbatim = raw[i] == v->str[i] && (unsigned char)raw[i] < 0x80;
    f->g->fen_line = f->line;
    f->g->fen_col = text_col(f, v->offset + 1);
    f->g->fen_verbatim = verbatim;
}

/* The start position: the first FEN tag (of tags, NULL: none), else a
 * "fen" other than the standard start (see jsonl_read.h). */
static bool fill_fen(filler *f, const xq_json_value *rec, const xq_json_value *tags)
{
    xq_game *g = f->g;
    g->fen = xq_game_tag(g, "FEN");
    if (g->fen) {
        for (size_t i = 0; tags && i < tags->len; i++)
            if (!strcasecmp(tags->keys[i], "FEN")) {   /* (as xq_game_tag finds it) */
                fen_from(f, &tags->items[i]);
                break;
            }
        return true;
    }
    const char *fen;
    const xq_json_value *at;
    if (!get_string(f, rec, "fen", &fen, &at)) return false;
    if (fen && strcmp(fen, XQ_START_FEN)) {
        g->fen = fen;
        fen_from(f, at);
    }
    return true;
}

static bool fill_record(filler *f, const xq_json_value *rec)
{
    if (rec->type != XQ_JSON_OBJECT)
        return problem(f, rec, "expected a JSON object (a record), not %s", xq_json_type_name(rec->type));
    const xq_json_value *tags, *moves;
    if (!get_typed(f, rec, "tags", XQ_JSON_OBJECT, &tags) || (tags && !fill_tags(f, tags)) || !fill_fen(f, rec, tags) ||
        !get_string(f, rec, "comment", &f->g->main.comment, NULL) ||
        !get_typed(f, rec, "moves", XQ_JSON_ARRAY, &moves))
        return false;
    if (moves) {
        enter_key(f, "moves");
        bool ok = fill_line(f, moves, &f->g->main, false);
        leave(f);
        if (!ok) return false;
    }
    return fill_result(f, rec);
}

/* Turn g into an empty game with one error at line:col. */
static void record_error(xq_game *g, uint32_t line, uint32_t col, uint64_t offset, const char *msg)
{
    g->tag_count = 0;
    g->fen = NULL;
    g->fen_line = g->fen_col = 0;
    memset(&g->main, 0, sizeof g->main);
    g->result = NULL;
    g->result_code = XQ_RESULT_NONE;
    xq_game_diag(g, XQ_SEV_ERROR, line, col, offset, "%s", msg);
}

/* The first bad byte sequence of a line being decoded (xq_bad_bytes_fn). */
typedef struct {
    bool seen;
    uint64_t offset;   /* in the file */
    size_t pos;        /* in the decoded text */
    const char *why;
} first_bad;

static void note_bad(void *ctx, uint64_t offset, size_t out_pos, const char *why)
{
    first_bad *b = ctx;
    if (b->seen) return;
    *b = (first_bad){true, offset, out_pos, why};
}

/* The text of line l from byte skip on (after a BOM) as UTF-8 into *t:
 * the bytes themselves, or decoded from the GBK or Big5 the caller forced
 * (j->decode).
 * False, with g turned into its error, when a byte sequence is not of
 * that encoding (the line's one error, at the first such sequence) or
 * memory ran out. */
static bool line_text(xq_jsonl_reader *j, xq_game *g, const xq_raw_line *l, size_t skip, xq_text *t)
{
    if (!j->decode) {   /* UTF-8: the JSON parser checks it */
        *t = (xq_text){(const char *)l->bytes + skip, l->len - skip};
        return true;
    }
    xq_raw_line rest = *l;   /* (the BOM is UTF-8's: not decoded) */
    rest.bytes += skip;
    rest.len -= skip;
    rest.offset += skip;
    first_bad bad = {0};
    int n = xq_input_decode(j->in, &rest, t, note_bad, &bad);
    uint32_t line = l->number > UINT32_MAX ? UINT32_MAX : (uint32_t)l->number;
    if (n < 0) {
        g->out_of_memory = true;
        record_error(g, line, 1, l->offset, "out of memory");
        return false;
    }
    if (n > 0) {
        char msg[128];
        snprintf(msg, sizeof msg, "%s (the line read as %s)", bad.why,
                 xq_encoding_name(xq_input_encoding(j->in)));
        record_error(g, line, char_col(t->s, bad.pos), bad.offset, msg);
        return false;
    }
    return true;
}

/* The file offset of byte at of text, the line l from byte skip on as
 * line_text gave it: that byte of the line when the line is read as it
 * is (UTF-8); else (GBK or Big5 forced, decoded to UTF-8) the first byte
 * in the line of the character at counts to (xq_input_col_bytes), so
 * that a diagnostic points into the file as the user has it, not into
 * its decoding. */
static uint64_t file_offset(const xq_jsonl_reader *j, const xq_raw_line *l, size_t skip, const char *text, size_t at)
{
    if (!j->decode) return l->offset + skip + at;
    xq_raw_line rest = *l;   /* (after a BOM: not decoded, and no BOM for xq_input_col_bytes to skip) */
    rest.bytes += skip;
    rest.len -= skip;
    rest.offset += skip;
    return rest.offset + xq_input_col_bytes(j->in, &rest, 0, char_col(text, at) - 1);
}

/* Read the record on line l (not blank) into g. */
static void read_record(xq_jsonl_reader *j, xq_game *g, const xq_raw_line *l, size_t skip)
{
    uint32_t line = l->number > UINT32_MAX ? UINT32_MAX : (uint32_t)l->number;
    g->index = ++j->index;
    g->first_line = l->number;
    g->offset = l->offset;
    g->encoding = XQ_ENC_UTF8;
    g->file = xq_game_strndup(g, j->path, strlen(j->path));
    if (!g->file) g->out_of_memory = true;
    if (l->cut) {
        record_error(g, line, 1, l->offset,
                     "line longer than 16777216 bytes (a JSON Lines record is one line): not read");
        return;
    }
    static const xq_json_options strict = {.max_depth = JSONL_MAX_DEPTH, .max_values = JSONL_MAX_VALUES,
                                           .strict = true};
    xq_json_error e;
    xq_text t;
    if (!line_text(j, g, l, skip, &t)) return;
    const char *text = t.s;
    if (!xq_json_parse(&j->doc, text, t.len, &strict, &e)) {
        if (!strcmp(e.msg, "out of memory")) g->out_of_memory = true;
        char msg[160];
        snprintf(msg, sizeof msg, "not valid JSON: %s", e.msg);
        record_error(g, line, char_col(text, e.offset), file_offset(j, l, skip, text, e.offset), msg);
        return;
    }
    filler *f = &j->fill;
    f->g = g;
    f->line = line;
    f->text = text;
    f->cc_at = f->cc_chars = 0;
    f->depth = 0;
    f->failed = false;
    if (!fill_record(f, &j->doc.root)) {
        record_error(g, line, text_col(f, f->bad_at), file_offset(j, l, skip, text, f->bad_at), f->msg);
        return;
    }
    if (j->doc.lone_surrogates) {   /* text changed: told, as bad bytes of a text record are */
        size_t at = j->doc.lone_surrogate_at, more = j->doc.lone_surrogates - 1;
        char tail[48] = "";
        if (more) snprintf(tail, sizeof tail, ", and %zu more on this line", more);
        xq_game_diag(g, XQ_SEV_ERROR, line, text_col(f, at), file_offset(j, l, skip, text, at),
                     "\\u%.4s escapes an unpaired surrogate (no character): replaced by U+FFFD%s",
                     text + at + 2, tail);
    }
    /* the line as the game's columns count it: decoded, after any BOM */
    if (j->keep_source && (g->source = xq_game_strndup(g, text, t.len))) g->source_len = t.len;
}

void xq_jsonl_reader_keep_source(xq_jsonl_reader *j, bool keep)
{
    j->keep_source = keep;
}

/* Bytes of a UTF-8 BOM at the start of the file's first line, else 0. */
static size_t bom(const xq_raw_line *l)
{
    return l->offset == 0 && l->len >= 3 && !memcmp(l->bytes, "\xEF\xBB\xBF", 3) ? 3 : 0;
}

static bool blank(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r') return false;
    return true;
}

int xq_jsonl_reader_next(xq_jsonl_reader *j, xq_game *g, char *err, size_t errsz)
{
    xq_game_reset(g);
    for (;;) {
        xq_raw_line l;
        int rc = xq_input_line(j->in, &l);
        if (rc < 0) {
            if (errsz) snprintf(err, errsz, "%s", xq_input_error(j->in));
            return -1;
        }
        if (rc == 0) return 0;
        size_t skip = bom(&l);
        if (!l.cut && blank(l.bytes + skip, l.len - skip)) continue;
        read_record(j, g, &l, skip);
        return 1;
    }
}
