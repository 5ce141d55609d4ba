/* json_read.c - see json_read.h.  A recursive-descent parser (recursion
 * bounded by max_depth) whose containers collect their members on one
 * shared stack and move them into the arena, exactly sized, when they
 * close; strings are decoded straight into the arena. */
#include "json_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"

/* ---- the arena ---------------------------------------------------------- */

struct xq_json_chunk {
    struct xq_json_chunk *next;
    size_t size, used;
    max_align_t data[];
};

enum {
    CHUNK_MIN = 64 * 1024,          /* kept between parses */
    CHUNK_MAX = 4 * 1024 * 1024,    /* chunks double up to this size */
    STACK_KEEP = 64 * 1024          /* stack entries kept between parses */
};

static void *arena_alloc(xq_json_doc *d, size_t n)
{
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    struct xq_json_chunk *c = d->chunks;
    if (!c || c->size - c->used < n) {
        size_t size = c && c->size < CHUNK_MAX ? c->size * 2 : c ? CHUNK_MAX : CHUNK_MIN;
        if (size < n) size = n;
        struct xq_json_chunk *fresh = malloc(sizeof *fresh + size);
        if (!fresh) return NULL;
        fresh->size = size;
        fresh->used = 0;
        fresh->next = c;
        d->chunks = c = fresh;
    }
    void *p = (char *)c->data + c->used;
    c->used += n;
    return p;
}

/* Empty the arena for the next parse, keeping its first chunk when it is
 * of the smallest size (memory for one huge text is not kept). */
static void arena_reset(xq_json_doc *d)
{
    struct xq_json_chunk *c = d->chunks;
    while (c && c->next) {
        struct xq_json_chunk *next = c->next;
        free(c);
        c = next;
    }
    if (c && c->size > CHUNK_MIN) {
        free(c);
        c = NULL;
    }
    if (c) c->used = 0;
    d->chunks = c;
}

void xq_json_doc_free(xq_json_doc *d)
{
    arena_reset(d);
    free(d->chunks);
    free(d->stack);
    free(d->stack_keys);
    memset(d, 0, sizeof *d);
}

/* ---- the parser --------------------------------------------------------- */

typedef struct {
    xq_json_doc *d;
    const char *text, *p, *end;
    int line, depth;
    size_t values;
    xq_json_options opt;
    xq_json_error *err;
    bool failed;
} parser;

/* Record the first failure: msg at text offset `at` (the parser's place
 * decides at_end, as xq-stats --merge always told a cut text). */
static bool fail_at(parser *ps, const char *at, const char *msg)
{
    if (ps->failed) return false;
    ps->failed = true;
    snprintf(ps->err->msg, sizeof ps->err->msg, "%s", msg);
    ps->err->offset = (size_t)(at - ps->text);
    ps->err->line = ps->line;
    ps->err->at_end = ps->p >= ps->end;
    return false;
}

static bool fail(parser *ps, const char *msg)
{
    return fail_at(ps, ps->p < ps->end ? ps->p : ps->end, msg);
}

static void skip_blanks(parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')) {
        if (*ps->p == '\n') ps->line++;
        ps->p++;
    }
}

static void put_utf8(char *out, size_t *n, unsigned long cp)
{
    if (cp < 0x80) out[(*n)++] = (char)cp;
    else if (cp < 0x800) {
        out[(*n)++] = (char)(0xC0 | cp >> 6);
        out[(*n)++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out[(*n)++] = (char)(0xE0 | cp >> 12);
        out[(*n)++] = (char)(0x80 | (cp >> 6 & 0x3F));
        out[(*n)++] = (char)(0x80 | (cp & 0x3F));
    } else {
        out[(*n)++] = (char)(0xF0 | cp >> 18);
        out[(*n)++] = (char)(0x80 | (cp >> 12 & 0x3F));
        out[(*n)++] = (char)(0x80 | (cp >> 6 & 0x3F));
        out[(*n)++] = (char)(0x80 | (cp & 0x3F));
    }
}

/* Four hex digits at ps->p into *out. */
static bool hex4(parser *ps, unsigned long *out)
{
    const char *at = ps->p - 2;   /* the "\u" */
    if (ps->end - ps->p < 4) return fail_at(ps, at, "bad \\u escape");
    unsigned long v = 0;
    for (int i = 0; i < 4; i++) {
        char c = *ps->p++;
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return fail_at(ps, at, "bad \\u escape");
        v = v * 16 + (unsigned long)d;
    }
    *out = v;
    return true;
}

/* Bytes of the well-formed UTF-8 sequence at p (before end), 0 if none. */
static size_t utf8_seq(const char *p, const char *end)
{
    unsigned char c = (unsigned char)*p;
    size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (!n || (size_t)(end - p) < n || !xq_utf8_valid((const unsigned char *)p, n, false)) return 0;
    return n;
}

/* A \u escape (after "\u") into out: a surrogate pair joined, an unpaired
 * surrogate as U+FFFD (the escape after it, if any, read on its own),
 * counted in the document (xq_json_doc.lone_surrogates). */
static bool unicode_escape(parser *ps, char *out, size_t *n)
{
    unsigned long cp;
    const char *at = ps->p - 2;
    bool lone = false;
    if (!hex4(ps, &cp)) return false;
    if (cp >= 0xD800 && cp <= 0xDBFF && ps->end - ps->p >= 6 && ps->p[0] == '\\' && ps->p[1] == 'u') {
        const char *second = ps->p;
        unsigned long lo;
        ps->p += 2;
        if (!hex4(ps, &lo)) return false;
        if (lo >= 0xDC00 && lo <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        } else {
            cp = 0xFFFD;
            lone = true;
            ps->p = second;
        }
    } else if (cp >= 0xD800 && cp <= 0xDFFF) {
        cp = 0xFFFD;
        lone = true;
    }
    if (lone && !ps->d->lone_surrogates++) ps->d->lone_surrogate_at = (size_t)(at - ps->text);
    put_utf8(out, n, cp);   /* 6 escape bytes give at most 4 */
    return true;
}

/* At the opening quote: decode the string into the arena. */
static bool parse_string(parser *ps, const char **out, size_t *out_len)
{
    const char *quote = ps->p++, *start = ps->p;
    while (ps->p < ps->end && *ps->p != '"') ps->p += *ps->p == '\\' ? 2 : 1;
    if (ps->p >= ps->end) return fail_at(ps, quote, "unterminated string");
    char *buf = arena_alloc(ps->d, (size_t)(ps->p - start) + 4);
    if (!buf) return fail(ps, "out of memory");
    size_t n = 0;
    ps->p = start;
    while (*ps->p != '"') {
        unsigned char c = (unsigned char)*ps->p;
        if (c < 0x20) return fail_at(ps, ps->p, "control character in a string");
        if (c >= 0x80 && ps->opt.strict) {
            size_t k = utf8_seq(ps->p, ps->end);
            if (!k) return fail_at(ps, ps->p, "invalid UTF-8 in a string");
            memcpy(buf + n, ps->p, k);
            n += k;
            ps->p += k;
            continue;
        }
        ps->p++;
        if (c != '\\') {
            buf[n++] = (char)c;
            continue;
        }
        char e = *ps->p++;
        switch (e) {
        case '"': case '\\': case '/': buf[n++] = e; break;
        case 'b': buf[n++] = '\b'; break;
        case 'f': buf[n++] = '\f'; break;
        case 'n': buf[n++] = '\n'; break;
        case 'r': buf[n++] = '\r'; break;
        case 't': buf[n++] = '\t'; break;
        case 'u':
            if (!unicode_escape(ps, buf, &n)) return false;
            break;
        default:
            return fail_at(ps, ps->p - 2, "bad escape in a string");
        }
    }
    ps->p++;
    buf[n] = '\0';
    *out = buf;
    *out_len = n;
    return true;
}

static bool is_digit(const char *p, const char *end)
{
    return p < end && *p >= '0' && *p <= '9';
}

/* The end of the RFC 8259 number at p, or NULL when there is none:
 * -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static const char *number_end(const char *p, const char *end)
{
    if (p < end && *p == '-') p++;
    if (!is_digit(p, end)) return NULL;
    if (*p++ != '0')
        while (is_digit(p, end)) p++;
    if (p < end && *p == '.') {
        if (!is_digit(++p, end)) return NULL;
        while (is_digit(p, end)) p++;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-')) p++;
        if (!is_digit(p, end)) return NULL;
        while (is_digit(p, end)) p++;
    }
    return p;
}

static bool parse_number(parser *ps, xq_json_value *v)
{
    const char *s = ps->p;
    if (ps->opt.strict) {
        const char *e = number_end(s, ps->end);
        if (!e) return fail_at(ps, s, "bad number");
        ps->p = e;
    } else {
        while (ps->p < ps->end && ((*ps->p && strchr("+-.eE", *ps->p)) || (*ps->p >= '0' && *ps->p <= '9')))
            ps->p++;
    }
    size_t n = (size_t)(ps->p - s);
    char *t = arena_alloc(ps->d, n + 1);
    if (!t) return fail(ps, "out of memory");
    memcpy(t, s, n);
    t[n] = '\0';
    v->type = XQ_JSON_NUMBER;
    v->str = t;
    v->len = n;
    return true;
}

static bool parse_value(parser *ps, xq_json_value *v);

/* Push member v (key NULL in an array) on the stack of open containers. */
static bool push(parser *ps, const xq_json_value *v, const char *key)
{
    xq_json_doc *d = ps->d;
    if (d->stack_n == d->stack_cap) {
        size_t cap = d->stack_cap ? d->stack_cap * 2 : 64;
        xq_json_value *s = realloc(d->stack, cap * sizeof *s);
        if (!s) return fail(ps, "out of memory");
        d->stack = s;
        const char **k = realloc(d->stack_keys, cap * sizeof *k);
        if (!k) return fail(ps, "out of memory");
        d->stack_keys = k;
        d->stack_cap = cap;
    }
    d->stack[d->stack_n] = *v;
    d->stack_keys[d->stack_n++] = key;
    return true;
}

/* Move the members pushed since base into v's arrays. */
static bool close_container(parser *ps, xq_json_value *v, size_t base)
{
    xq_json_doc *d = ps->d;
    size_t n = d->stack_n - base;
    v->len = n;
    if (!n) return true;
    xq_json_value *items = arena_alloc(d, n * sizeof *items);
    if (!items) return fail(ps, "out of memory");
    memcpy(items, d->stack + base, n * sizeof *items);
    v->items = items;
    if (v->type == XQ_JSON_OBJECT) {
        const char **keys = arena_alloc(d, n * sizeof *keys);
        if (!keys) return fail(ps, "out of memory");
        memcpy(keys, d->stack_keys + base, n * sizeof *keys);
        v->keys = keys;
    }
    d->stack_n = base;
    return true;
}

/* At '{' or '[': the members, then the closing bracket. */
static bool parse_container(parser *ps, xq_json_value *v)
{
    bool object = *ps->p == '{';
    char close = object ? '}' : ']';
    v->type = object ? XQ_JSON_OBJECT : XQ_JSON_ARRAY;
    size_t base = ps->d->stack_n;
    ps->p++;
    skip_blanks(ps);
    if (ps->p < ps->end && *ps->p == close) {
        ps->p++;
        return true;
    }
    for (;;) {
        const char *key = NULL;
        if (object) {
            size_t klen;
            skip_blanks(ps);
            if (ps->p >= ps->end || *ps->p != '"') return fail(ps, "expected a key");
            const char *at = ps->p;
            if (!parse_string(ps, &key, &klen)) return false;
            if (ps->opt.strict && strlen(key) != klen)   /* (keys are C strings: it would cut them) */
                return fail_at(ps, at, "a NUL character (\\u0000) in a key");
            skip_blanks(ps);
            if (ps->p >= ps->end || *ps->p != ':') return fail(ps, "expected ':'");
            ps->p++;
        }
        xq_json_value m = {0};
        if (!parse_value(ps, &m) || !push(ps, &m, key)) return false;
        skip_blanks(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == close) {
            ps->p++;
            break;
        }
        return fail(ps, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
    return close_container(ps, v, base);
}

static bool parse_value(parser *ps, xq_json_value *v)
{
    skip_blanks(ps);
    if (ps->p >= ps->end) return fail(ps, "unexpected end of input");
    if (++ps->depth > ps->opt.max_depth) return fail(ps, "nesting too deep");
    if (ps->opt.max_values && ++ps->values > ps->opt.max_values) return fail(ps, "too many values");
    v->offset = (size_t)(ps->p - ps->text);
    bool ok;
    char c = *ps->p;
    if (c == '{' || c == '[') {
        ok = parse_container(ps, v);
    } else if (c == '"') {
        v->type = XQ_JSON_STRING;
        ok = parse_string(ps, &v->str, &v->len);
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        ok = parse_number(ps, v);
    } else {
        static const struct { const char *word; xq_json_type t; } words[] = {
            {"null", XQ_JSON_NULL}, {"true", XQ_JSON_TRUE}, {"false", XQ_JSON_FALSE}};
        ok = false;
        for (int i = 0; i < 3; i++) {
            size_t n = strlen(words[i].word);
            if ((size_t)(ps->end - ps->p) >= n && !memcmp(ps->p, words[i].word, n)) {
                v->type = words[i].t;
                ps->p += n;
                ok = true;
                break;
            }
        }
        if (!ok) fail(ps, "unexpected character");
    }
    ps->depth--;
    return ok;
}

bool xq_json_parse(xq_json_doc *d, const char *text, size_t len, const xq_json_options *opt,
                   xq_json_error *err)
{
    static const xq_json_options defaults = {.max_depth = 512, .strict = true};
    xq_json_error local;
    arena_reset(d);
    if (d->stack_cap > STACK_KEEP) {   /* memory for one huge text is not kept */
        free(d->stack);
        free(d->stack_keys);
        d->stack = NULL;
        d->stack_keys = NULL;
        d->stack_cap = 0;
    }
    d->stack_n = 0;
    d->lone_surrogates = d->lone_surrogate_at = 0;
    memset(&d->root, 0, sizeof d->root);
    parser ps = {.d = d, .text = text, .p = text, .end = text + len, .line = 1,
                 .opt = opt ? *opt : defaults, .err = err ? err : &local};
    bool ok = parse_value(&ps, &d->root);
    if (ok) {
        skip_blanks(&ps);
        if (ps.p != ps.end) ok = fail(&ps, "text after the JSON object");
    }
    if (!ok) memset(&d->root, 0, sizeof d->root);
    return ok;
}

const xq_json_value *xq_json_get(const xq_json_value *obj, const char *key)
{
    if (!obj || obj->type != XQ_JSON_OBJECT) return NULL;
    for (size_t i = 0; i < obj->len; i++)
        if (!strcmp(obj->keys[i], key)) return &obj->items[i];
    return NULL;
}

const char *xq_json_type_name(xq_json_type t)
{
    static const char *const names[] = {"null", "false", "true", "a number", "a string", "an array", "an object"};
    return (unsigned)t < sizeof names / sizeof *names ? names[t] : "?";
}
