/* game.c - the game record model and its per-game arena.  See game.h. */
#include "game.h"

#include <stdalign.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- arena ------------------------------------------------------------ */

enum { CHUNK_SIZE = 64 * 1024, ALIGN = alignof(max_align_t) };

typedef struct chunk {
    struct chunk *next;
    size_t cap, used;
    alignas(max_align_t) unsigned char data[];
} chunk;

struct xq_arena {
    chunk *first, *cur;
};

static chunk *chunk_new(size_t cap)
{
    chunk *c = malloc(sizeof *c + cap);
    if (!c) return NULL;
    c->next = NULL;
    c->cap = cap;
    c->used = 0;
    return c;
}

/* An allocation for g failed: note it (g->out_of_memory); NULL. */
static void *game_short(xq_game *g)
{
    g->out_of_memory = true;
    return NULL;
}

void *xq_game_alloc(xq_game *g, size_t n)
{
    n = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    if (n == 0) n = ALIGN;
    xq_arena *a = g->arena;
    if (!a) {
        a = g->arena = calloc(1, sizeof *a);
        if (!a) return game_short(g);
    }
    chunk *c = a->cur;
    if (!c || c->cap - c->used < n) {
        if (c && c->next && c->next->cap - c->next->used >= n) {
            c = c->next;
        } else {
            chunk *nc = chunk_new(n > CHUNK_SIZE ? n : CHUNK_SIZE);
            if (!nc) return game_short(g);
            if (c) {
                nc->next = c->next;
                c->next = nc;
            } else {
                nc->next = a->first;
                a->first = nc;
            }
            c = nc;
        }
        a->cur = c;
    }
    void *p = c->data + c->used;
    c->used += n;
    return p;
}

char *xq_game_strndup(xq_game *g, const char *s, size_t n)
{
    char *p = xq_game_alloc(g, n + 1);
    if (!p) return NULL;
    if (n) memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

void *xq_game_grow(xq_game *g, void *array, size_t count, size_t elem_size)
{
    /* capacity is the next power of two >= count: full when count is 0 or
     * a power of two */
    if (count && (count & (count - 1))) return array;
    size_t cap = count ? count * 2 : 1;
    void *p = xq_game_alloc(g, cap * elem_size);
    if (!p) return NULL;
    if (count) memcpy(p, array, count * elem_size);
    return p;
}

/* ---- lifecycle -------------------------------------------------------- */

void xq_game_init(xq_game *g)
{
    memset(g, 0, sizeof *g);
}

void xq_game_reset(xq_game *g)
{
    xq_arena *a = g->arena;
    if (a) {
        /* rewind; give oversized chunks back so memory stays flat */
        chunk **link = &a->first;
        while (*link) {
            chunk *c = *link;
            if (c->cap > CHUNK_SIZE) {
                *link = c->next;
                free(c);
            } else {
                c->used = 0;
                link = &c->next;
            }
        }
        a->cur = a->first;
    }
    xq_game keep = *g;
    memset(g, 0, sizeof *g);
    g->arena = keep.arena;
    g->raw_buf = keep.raw_buf;
    g->raw_cap = keep.raw_cap;
    g->tags = keep.tags;
    g->tag_cap = keep.tag_cap;
    g->diags = keep.diags;
    g->diag_cap = keep.diag_cap;
    g->node_buf = keep.node_buf;
    g->node_cap = keep.node_cap;
    g->raw = g->raw_buf;
}

void xq_game_free(xq_game *g)
{
    if (g->arena) {
        chunk *c = g->arena->first;
        while (c) {
            chunk *next = c->next;
            free(c);
            c = next;
        }
        free(g->arena);
    }
    free(g->raw_buf);
    free(g->tags);
    free(g->diags);
    free(g->node_buf);
    xq_game_init(g);
}

/* ---- tags ------------------------------------------------------------- */

static bool name_eq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        unsigned char x = (unsigned char)*a, y = (unsigned char)*b;
        if (x >= 'A' && x <= 'Z') x = (unsigned char)(x + 32);
        if (y >= 'A' && y <= 'Z') y = (unsigned char)(y + 32);
        if (x != y) return false;
    }
    return *a == *b;
}

static const char *find_tag(const xq_game *g, const char *name)
{
    for (size_t i = 0; i < g->tag_count; i++)
        if (name_eq(g->tags[i].name, name)) return g->tags[i].value;
    return NULL;
}

const char *xq_game_tag(const xq_game *g, const char *name)
{
    const char *v = find_tag(g, name);
    if (v) return v;
    if (name_eq(name, "Red")) return find_tag(g, "White");
    if (name_eq(name, "White")) return find_tag(g, "Red");
    return NULL;
}

/* Value of a tag with surrounding blanks trimmed into buf, or "" (never
 * NULL): xq_game_label's fields. */
static const char *tag_trimmed(const xq_game *g, const char *name, char *buf, size_t size)
{
    const char *v = xq_game_tag(g, name);
    if (!v) {
        buf[0] = '\0';   /* callers read buf, not only the return value */
        return buf;
    }
    while (*v == ' ' || *v == '\t') v++;
    size_t n = strlen(v);
    while (n && (v[n - 1] == ' ' || v[n - 1] == '\t')) n--;
    if (n >= size) {   /* cut to fit, on a UTF-8 character boundary */
        n = size - 1;
        while (n && ((unsigned char)v[n] & 0xC0) == 0x80) n--;
    }
    snprintf(buf, size, "%.*s", (int)n, v);   /* (raw: the printer escapes) */
    return buf;
}

void xq_game_label(const xq_game *g, char *buf, size_t size)
{
    char ev[160], red[96], black[96], date[64];
    tag_trimmed(g, "Event", ev, sizeof ev);
    tag_trimmed(g, "Red", red, sizeof red);
    tag_trimmed(g, "Black", black, sizeof black);
    tag_trimmed(g, "Date", date, sizeof date);
    if (!*red && !*black) snprintf(buf, size, "%s%s%s", ev, *ev && *date ? "; " : "", date);
    else snprintf(buf, size, "%s%s%s vs %s%s%s", ev, *ev ? "; " : "", *red ? red : "?", *black ? black : "?",
                  *date ? "; " : "", date);
}

bool xq_game_tags_grow(xq_game *g)
{
    if (g->tag_count < g->tag_cap) return true;
    size_t cap = g->tag_cap ? g->tag_cap * 2 : 32;
    xq_tag *t = realloc(g->tags, cap * sizeof *t);
    if (!t) return (void)game_short(g), false;
    g->tags = t;
    g->tag_cap = cap;
    return true;
}

bool xq_game_add_tag(xq_game *g, const char *name, size_t name_len,
                     const char *value, size_t value_len)
{
    /* name and value in one block: "name\0value\0" */
    size_t need = (name_len + value_len + 2 + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    char *n;
    if (!xq_game_tags_grow(g) || !(n = xq_game_alloc(g, need))) return false;
    char *v = n + name_len + 1;
    memcpy(n, name, name_len);
    n[name_len] = '\0';
    if (value_len) memcpy(v, value, value_len);
    v[value_len] = '\0';
    g->tags[g->tag_count].name = n;
    g->tags[g->tag_count].value = v;
    g->tag_count++;
    return true;
}

/* ---- raw bytes and diagnostics ---------------------------------------- */

bool xq_game_append_raw(xq_game *g, const void *bytes, size_t n)
{
    if (g->raw_cap - g->raw_len < n) {
        size_t cap = g->raw_cap ? g->raw_cap : 4096;
        while (cap - g->raw_len < n) cap *= 2;
        char *p = realloc(g->raw_buf, cap);
        if (!p) return (void)game_short(g), false;
        g->raw_buf = p;
        g->raw_cap = cap;
    }
    if (n) memcpy(g->raw_buf + g->raw_len, bytes, n);
    g->raw_len += n;
    g->raw = g->raw_buf;
    return true;
}

bool xq_game_diag(xq_game *g, xq_severity sev, uint32_t line, uint32_t col,
                  uint64_t offset, const char *fmt, ...)
{
    bool last = g->diag_count == XQ_GAME_MAX_DIAGS;
    if (g->diag_count > XQ_GAME_MAX_DIAGS) {
        g->diag_dropped[sev]++;
        return true;
    }
    if (g->diag_count == g->diag_cap) {
        size_t cap = g->diag_cap ? g->diag_cap * 2 : 16;
        if (cap > XQ_GAME_MAX_DIAGS + 1) cap = XQ_GAME_MAX_DIAGS + 1;
        xq_diag *d = realloc(g->diags, cap * sizeof *d);
        if (!d) return (void)game_short(g), false;
        g->diags = d;
        g->diag_cap = cap;
    }
    char buf[512];
    if (last) {   /* (this diagnostic, with its severity and place, stands for the list's end) */
        snprintf(buf, sizeof buf, "more than %d diagnostics: this one and the later ones are counted, not reported",
                 (int)XQ_GAME_MAX_DIAGS);
    } else {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(buf, sizeof buf, fmt, ap);
        va_end(ap);
    }
    char *msg = xq_game_strndup(g, buf, strlen(buf));
    if (!msg) return false;
    xq_diag *d = &g->diags[g->diag_count++];
    d->severity = sev;
    d->line = line;
    d->col = col;
    d->offset = offset;
    d->msg = msg;
    return true;
}

size_t xq_game_count_diags(const xq_game *g, xq_severity sev)
{
    size_t n = 0;
    for (size_t i = 0; i < g->diag_count; i++)
        if (g->diags[i].severity == sev) n++;
    return n;
}

const char *xq_result_str(xq_result r)
{
    switch (r) {
    case XQ_RESULT_RED: return "1-0";
    case XQ_RESULT_BLACK: return "0-1";
    case XQ_RESULT_DRAW: return "1/2-1/2";
    case XQ_RESULT_UNKNOWN: return "*";
    default: return "";
    }
}

/* Length of the control character of xq_name_put's rule at p: 1 for a C0
 * byte (not NUL) or DEL, 2 for a C1 control in UTF-8 (U+0080-U+009F, the
 * bytes C2 80-C2 9F: U+009B is CSI, which terminals act on), 0 if none. */
static int name_control(const unsigned char *p)
{
    if ((p[0] >= 0x01 && p[0] <= 0x1F) || p[0] == 0x7F) return 1;
    return p[0] == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F ? 2 : 0;
}

void xq_name_put(FILE *to, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    bool any = false;
    for (const unsigned char *q = p; *q && !any; q++) any = name_control(q) > 0;
    if (!any) {
        fputs(s, to);
        return;
    }
    for (; *p; p++) {
        switch (*p) {
        case '\\': fputs("\\\\", to); break;
        case '\t': fputs("\\t", to); break;
        case '\n': fputs("\\n", to); break;
        case '\r': fputs("\\r", to); break;
        default:
            if (name_control(p) == 2) fprintf(to, "\\%03o\\%03o", p[0], p[1]), p++;
            else if (name_control(p)) fprintf(to, "\\%03o", *p);
            else putc(*p, to);
        }
    }
}

void xq_name_vprintf(FILE *to, const char *fmt, va_list ap)
{
    /* formatted whole first: the rule looks at the whole text (a control
     * anywhere in it escapes its backslashes too) */
    char small[1024], *msg = small;
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n >= (int)sizeof small && (msg = malloc((size_t)n + 1))) vsnprintf(msg, (size_t)n + 1, fmt, again);
    va_end(again);
    if (!msg) msg = small;   /* (out of memory: the text cut) */
    xq_name_put(to, n < 0 ? fmt : msg);
    if (msg != small) free(msg);
}

void xq_name_printf(FILE *to, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    xq_name_vprintf(to, fmt, ap);
    va_end(ap);
}

char *xq_name_dup(const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return NULL;
    xq_name_put(m, s);
    bool failed = ferror(m) != 0;
    if (fclose(m) != 0 || failed) {
        free(buf);
        return NULL;
    }
    return buf;
}
