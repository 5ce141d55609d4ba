/* stats_json.c - the accumulator as JSON, out and back in (see stats.h).
 *
 * The JSON object, version 1 (every number is a non-negative integer
 * except in "derived"):
 *   "format": "xq-stats", "version": 1,
 *   "options": {"rules", "move_limit", "check_cap", "repetitions", "strict", "event"},
 *   "records": N,
 *   "files_failed": N      input files that failed (xq_stats_add_failed_file):
 *                          not 0 means the statistics are incomplete; absent
 *                          (JSON written before it existed) reads as 0
 *   "games": {"from_start", "from_fen", "unreadable", "valid", "illegal", "with_errors"},
 *   "plies": {"total": N, "histogram": [[plies, games], ...]}     ascending plies
 *   "findings": {"illegal-move": N, ...}                          every kind
 *   "outcomes": [[tag, termination, board, games], ...]           nonzero cells
 *   "openings": {"tagged": {"C55": N, ...}, "classified": {...},
 *                "bad_tag": N, "unclassified": N,
 *                "heldout": {"games": N, "agree": N}},
 *   "players": [[name, games, wins, draws, losses], ...]          by name
 *   "events": [[name, games], ...]                                by name
 *   "event": null | {"name": s, "games": [[round, red, black, result], ...]}
 *   "distinct": {"moves": ["16 hex digits", ...], "moves_tags": [...]}  ascending
 *   "derived": {...}                                              ignored when read
 * Results are "1-0", "0-1", "1/2-1/2", "*", or "" (none recorded);
 * terminations as xq_termination_str.
 */
#include "stats_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

static const char *result_name(int r)
{
    return r == XQ_RESULT_NONE ? "" : xq_result_str((xq_result)r);
}

/* ---- writing ----------------------------------------------------------- */

/* The writers below return false when memory ran out and a part is
 * missing (xq_stats_write_json). */
static bool write_hashes(FILE *o, const hset *h)
{
    uint64_t *v = xq_hset_sorted(h);
    bool ok = v != NULL;
    putc('[', o);
    if (v)
        for (size_t i = 0; i < h->count; i++) fprintf(o, "%s\"%016" PRIx64 "\"", i ? "," : "", v[i]);
    putc(']', o);
    free(v);
    return ok;
}

static void write_codes(FILE *o, const uint64_t *counts)
{
    int first = 1;
    putc('{', o);
    for (int c = 0; c < XQ_ECCO_CODES; c++) {
        if (!counts[c]) continue;
        char code[4];
        xq_json_key(o, xq_ecco_format(c, code), &first);
        fprintf(o, "%" PRIu64, counts[c]);
    }
    putc('}', o);
}

static bool write_derived(FILE *o, const xq_stats *s, xq_event_system system)
{
    bool ok = true;
    int first = 1;
    uint64_t games = xq_stats_games(s);
    putc('{', o);
    xq_json_key(o, "games", &first);
    fprintf(o, "%" PRIu64, games);
    xq_json_key(o, "plies_mean", &first);
    fprintf(o, "%.2f", games ? (double)s->plies_total / (double)games : 0.0);
    xq_json_key(o, "plies_median", &first);
    fprintf(o, "%.1f", xq_stats_median(s));
    xq_json_key(o, "distinct_moves", &first);
    fprintf(o, "%zu", s->moves.count);
    xq_json_key(o, "distinct_moves_tags", &first);
    fprintf(o, "%zu", s->tagged.count);
    xq_json_key(o, "players", &first);
    fprintf(o, "%zu", s->players.count);
    xq_json_key(o, "events", &first);
    fprintf(o, "%zu", s->events.count);
    xq_json_key(o, "heldout_agreement", &first);
    if (s->heldout_games) fprintf(o, "%.4f", (double)s->heldout_agree / (double)s->heldout_games);
    else fputs("null", o);
    if (s->opt.event) {
        xq_event_game *games_v = xq_stats_event_games(s);
        xq_standings st;
        xq_json_key(o, "standings", &first);
        if ((games_v || !s->nev) && xq_standings_compute(games_v, s->nev, system, &st)) {
            int f2 = 1;
            putc('{', o);
            xq_json_key(o, "system", &f2);
            xq_json_string(o, st.system == XQ_SYSTEM_ROUND_ROBIN ? "round-robin" : "swiss");
            xq_json_key(o, "rows", &f2);
            putc('[', o);
            for (size_t i = 0; i < st.nplayers; i++) {
                const xq_standing *r = &st.rows[i];
                if (i) putc(',', o);
                int f3 = 1;
                putc('{', o);
                xq_json_key(o, "rank", &f3); fprintf(o, "%d", r->rank);
                xq_json_key(o, "player", &f3); xq_json_string(o, r->name);
                xq_json_key(o, "games", &f3); fprintf(o, "%d", r->games);
                xq_json_key(o, "wins", &f3); fprintf(o, "%d", r->wins);
                xq_json_key(o, "draws", &f3); fprintf(o, "%d", r->draws);
                xq_json_key(o, "losses", &f3); fprintf(o, "%d", r->losses);
                xq_json_key(o, "score", &f3); fprintf(o, "%g", r->score2 / 2.0);
                xq_json_key(o, st.system == XQ_SYSTEM_ROUND_ROBIN ? "sonneborn_berger" : "opponents_score", &f3);
                fprintf(o, "%g", r->tb4 / 4.0);
                if (st.system == XQ_SYSTEM_ROUND_ROBIN) {
                    xq_json_key(o, "direct", &f3);
                    if (r->direct2 >= 0) fprintf(o, "%g", r->direct2 / 2.0);
                    else fputs("null", o);
                }
                putc('}', o);
            }
            fputs("]}", o);
            xq_standings_free(&st);
        } else {
            fputs("null", o);
            ok = false;
        }
        free(games_v);
    }
    putc('}', o);
    return ok;
}

bool xq_stats_write_json(FILE *o, const xq_stats *s, const xq_stats_report_options *opt)
{
    int first = 1;
    putc('{', o);
    xq_json_key(o, "format", &first); xq_json_string(o, "xq-stats");
    xq_json_key(o, "version", &first); fputs("1", o);

    xq_json_key(o, "options", &first);
    {
        int f = 1;
        putc('{', o);
        xq_json_key(o, "rules", &f); xq_json_string(o, xq_rules_str(s->opt.rules.rules));
        xq_json_key(o, "move_limit", &f); fprintf(o, "%d", s->opt.rules.move_limit);
        xq_json_key(o, "check_cap", &f); fprintf(o, "%d", s->opt.rules.check_cap);
        xq_json_key(o, "repetitions", &f); fprintf(o, "%d", s->opt.rules.repetitions);
        xq_json_key(o, "strict", &f); fputs(s->opt.rules.strict ? "true" : "false", o);
        xq_json_key(o, "event", &f); xq_json_string(o, s->opt.event);
        putc('}', o);
    }
    xq_json_key(o, "records", &first); fprintf(o, "%" PRIu64, s->records);
    xq_json_key(o, "files_failed", &first); fprintf(o, "%" PRIu64, s->files_failed);
    xq_json_key(o, "games", &first);
    fprintf(o, "{\"from_start\":%" PRIu64 ",\"from_fen\":%" PRIu64 ",\"unreadable\":%" PRIu64
               ",\"valid\":%" PRIu64 ",\"illegal\":%" PRIu64 ",\"with_errors\":%" PRIu64 "}",
            s->from_start, s->from_fen, s->unreadable, s->valid, s->illegal, s->with_errors);

    xq_json_key(o, "plies", &first);
    fprintf(o, "{\"total\":%" PRIu64 ",\"histogram\":[", s->plies_total);
    for (size_t i = 0, n = 0; i < s->ply_len; i++)
        if (s->ply_hist[i]) fprintf(o, "%s[%zu,%" PRIu64 "]", n++ ? "," : "", i, s->ply_hist[i]);
    fputs("]}", o);

    xq_json_key(o, "findings", &first);
    {
        int f = 1;
        putc('{', o);
        for (int k = 0; k < XQ_FIND_KIND_COUNT; k++) {
            xq_json_key(o, xq_finding_kind_str((xq_finding_kind)k), &f);
            fprintf(o, "%" PRIu64, s->kinds[k]);
        }
        putc('}', o);
    }

    xq_json_key(o, "outcomes", &first);
    putc('[', o);
    for (int a = 0, n = 0; a < XQ_NRESULTS; a++)
        for (int b = 0; b < XQ_NTERMS; b++)
            for (int c = 0; c < XQ_NRESULTS; c++) {
                if (!s->outcome[a][b][c]) continue;
                fprintf(o, "%s[", n++ ? "," : "");
                xq_json_string(o, result_name(a));
                putc(',', o);
                xq_json_string(o, xq_termination_str((xq_termination)b));
                putc(',', o);
                xq_json_string(o, result_name(c));
                fprintf(o, ",%" PRIu64 "]", s->outcome[a][b][c]);
            }
    putc(']', o);

    xq_json_key(o, "openings", &first);
    fputs("{\"tagged\":", o);
    write_codes(o, s->ecco_tagged);
    fputs(",\"classified\":", o);
    write_codes(o, s->ecco_class);
    fprintf(o, ",\"bad_tag\":%" PRIu64 ",\"unclassified\":%" PRIu64 ",\"heldout\":{\"games\":%" PRIu64
               ",\"agree\":%" PRIu64 "}}",
            s->ecco_bad_tag, s->ecco_unclassified, s->heldout_games, s->heldout_agree);

    xq_json_key(o, "players", &first);
    putc('[', o);
    smap_entry **pl = xq_smap_sorted(&s->players);
    bool ok = pl != NULL;
    for (size_t i = 0; pl && i < s->players.count; i++) {
        const smap_entry *e = pl[i];
        fputs(i ? ",[" : "[", o);
        xq_json_string(o, e->key);
        fprintf(o, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "]", e->v[PL_GAMES], e->v[PL_WINS],
                e->v[PL_DRAWS], e->v[PL_LOSSES]);
    }
    free(pl);
    putc(']', o);

    xq_json_key(o, "events", &first);
    putc('[', o);
    smap_entry **ev = xq_smap_sorted(&s->events);
    if (!ev) ok = false;
    for (size_t i = 0; ev && i < s->events.count; i++) {
        fputs(i ? ",[" : "[", o);
        xq_json_string(o, ev[i]->key);
        fprintf(o, ",%" PRIu64 "]", ev[i]->v[PL_GAMES]);
    }
    free(ev);
    putc(']', o);

    xq_json_key(o, "event", &first);
    if (!s->opt.event) {
        fputs("null", o);
    } else {
        fputs("{\"name\":", o);
        xq_json_string(o, s->opt.event);
        fputs(",\"games\":[", o);
        xq_event_game *g = xq_stats_event_games(s);
        if (!g && s->nev) ok = false;
        for (size_t i = 0; g && i < s->nev; i++) {
            fprintf(o, "%s[%d,", i ? "," : "", g[i].round);
            xq_json_string(o, g[i].red);
            putc(',', o);
            xq_json_string(o, g[i].black);
            putc(',', o);
            xq_json_string(o, result_name(g[i].result));
            putc(']', o);
        }
        free(g);
        fputs("]}", o);
    }

    xq_json_key(o, "distinct", &first);
    fputs("{\"moves\":", o);
    ok = write_hashes(o, &s->moves) && ok;
    fputs(",\"moves_tags\":", o);
    ok = write_hashes(o, &s->tagged) && ok;
    putc('}', o);

    xq_json_key(o, "derived", &first);
    ok = write_derived(o, s, opt ? opt->system : XQ_SYSTEM_AUTO) && ok;
    fputs("}\n", o);
    return ok;
}

/* ---- a small JSON reader (RFC 8259) ------------------------------------ */

typedef enum { J_NULL, J_FALSE, J_TRUE, J_NUM, J_STR, J_ARR, J_OBJ } jtype;

typedef struct jval jval;
struct jval {
    jtype type;
    char *str;          /* J_STR: decoded UTF-8; J_NUM: the number's text */
    jval *items;        /* J_ARR, J_OBJ: values */
    char **keys;        /* J_OBJ: keys, parallel to items */
    size_t n;
};

typedef struct {
    const char *p, *end;
    int line;
    char *err;
    size_t errsz;
    int depth;
    bool at_end;        /* failed because the text ended */
} jparser;

static bool jfail(jparser *ps, const char *what)
{
    if (ps->p >= ps->end) ps->at_end = true;
    if (ps->err && !ps->err[0]) snprintf(ps->err, ps->errsz, "line %d: %s", ps->line, what);
    return false;
}

static void jskip(jparser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')) {
        if (*ps->p == '\n') ps->line++;
        ps->p++;
    }
}

static void jfree(jval *v)
{
    if (v->type == J_ARR || v->type == J_OBJ) {
        for (size_t i = 0; i < v->n; i++) {
            jfree(&v->items[i]);
            if (v->keys) free(v->keys[i]);
        }
        free(v->items);
        free(v->keys);
    }
    free(v->str);
    memset(v, 0, sizeof *v);
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

static bool hex4(jparser *ps, unsigned long *out)
{
    if (ps->end - ps->p < 4) return jfail(ps, "bad \\u escape");
    unsigned long v = 0;
    for (int i = 0; i < 4; i++) {
        char c = *ps->p++;
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return jfail(ps, "bad \\u escape");
        v = v * 16 + (unsigned long)d;
    }
    *out = v;
    return true;
}

/* At the opening quote: decode the string into a malloc'd buffer. */
static bool jstring(jparser *ps, char **out)
{
    ps->p++;
    const char *start = ps->p;
    while (ps->p < ps->end && *ps->p != '"') ps->p += *ps->p == '\\' ? 2 : 1;
    if (ps->p >= ps->end) return jfail(ps, "unterminated string");
    size_t max = (size_t)(ps->p - start);
    char *buf = malloc(max + 4);
    if (!buf) return jfail(ps, "out of memory");
    size_t n = 0;
    ps->p = start;
    while (*ps->p != '"') {
        unsigned char c = (unsigned char)*ps->p++;
        if (c < 0x20) {
            free(buf);
            return jfail(ps, "control character in a string");
        }
        if (c != '\\') {
            buf[n++] = (char)c;
            continue;
        }
        char e = *ps->p++;
        unsigned long cp;
        switch (e) {
        case '"': case '\\': case '/': buf[n++] = e; break;
        case 'b': buf[n++] = '\b'; break;
        case 'f': buf[n++] = '\f'; break;
        case 'n': buf[n++] = '\n'; break;
        case 'r': buf[n++] = '\r'; break;
        case 't': buf[n++] = '\t'; break;
        case 'u':
            if (!hex4(ps, &cp)) {
                free(buf);
                return false;
            }
            if (cp >= 0xD800 && cp <= 0xDBFF && ps->end - ps->p >= 6 && ps->p[0] == '\\' && ps->p[1] == 'u') {
                unsigned long lo;
                ps->p += 2;
                if (!hex4(ps, &lo)) {
                    free(buf);
                    return false;
                }
                cp = lo >= 0xDC00 && lo <= 0xDFFF ? 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00) : 0xFFFD;
            } else if (cp >= 0xD800 && cp <= 0xDFFF) {
                cp = 0xFFFD;
            }
            put_utf8(buf, &n, cp);   /* 6 escape bytes give at most 4 */
            break;
        default:
            free(buf);
            return jfail(ps, "bad escape in a string");
        }
    }
    ps->p++;
    buf[n] = '\0';
    *out = buf;
    return true;
}

static bool jvalue(jparser *ps, jval *v);

static bool jpush(jparser *ps, jval *v, size_t *cap, char *key)
{
    if (v->n == *cap) {
        size_t c = *cap ? *cap * 2 : 8;
        jval *items = realloc(v->items, c * sizeof *items);
        if (!items) return jfail(ps, "out of memory");
        v->items = items;
        if (v->type == J_OBJ) {
            char **keys = realloc(v->keys, c * sizeof *keys);
            if (!keys) return jfail(ps, "out of memory");
            v->keys = keys;
        }
        *cap = c;
    }
    memset(&v->items[v->n], 0, sizeof v->items[v->n]);
    if (v->type == J_OBJ) v->keys[v->n] = key;
    v->n++;
    return jvalue(ps, &v->items[v->n - 1]);
}

static bool jvalue(jparser *ps, jval *v)
{
    jskip(ps);
    if (ps->p >= ps->end) return jfail(ps, "unexpected end of input");
    if (++ps->depth > 64) return jfail(ps, "nesting too deep");
    bool ok = true;
    char c = *ps->p;
    if (c == '{' || c == '[') {
        v->type = c == '{' ? J_OBJ : J_ARR;
        char close = c == '{' ? '}' : ']';
        size_t cap = 0;
        ps->p++;
        jskip(ps);
        if (ps->p < ps->end && *ps->p == close) {
            ps->p++;
        } else {
            for (;;) {
                char *key = NULL;
                if (v->type == J_OBJ) {
                    jskip(ps);
                    if (ps->p >= ps->end || *ps->p != '"') { ok = jfail(ps, "expected a key"); break; }
                    if (!jstring(ps, &key)) { ok = false; break; }
                    jskip(ps);
                    if (ps->p >= ps->end || *ps->p != ':') { free(key); ok = jfail(ps, "expected ':'"); break; }
                    ps->p++;
                }
                if (!jpush(ps, v, &cap, key)) { ok = false; break; }
                jskip(ps);
                if (ps->p < ps->end && *ps->p == ',') { ps->p++; continue; }
                if (ps->p < ps->end && *ps->p == close) { ps->p++; break; }
                ok = jfail(ps, v->type == J_OBJ ? "expected ',' or '}'" : "expected ',' or ']'");
                break;
            }
        }
    } else if (c == '"') {
        v->type = J_STR;
        ok = jstring(ps, &v->str);
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        const char *s = ps->p;
        while (ps->p < ps->end && ((*ps->p && strchr("+-.eE", *ps->p)) || (*ps->p >= '0' && *ps->p <= '9'))) ps->p++;
        v->type = J_NUM;
        v->str = strndup(s, (size_t)(ps->p - s));
        if (!v->str) ok = jfail(ps, "out of memory");
    } else {
        static const struct { const char *word; jtype t; } words[] = {
            {"null", J_NULL}, {"true", J_TRUE}, {"false", J_FALSE}};
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
        if (!ok) jfail(ps, "unexpected character");
    }
    ps->depth--;
    return ok;
}

/* ---- from the JSON tree to an accumulator ------------------------------ */

static const jval *jget(const jval *obj, const char *key)
{
    if (!obj || obj->type != J_OBJ) return NULL;
    for (size_t i = 0; i < obj->n; i++)
        if (!strcmp(obj->keys[i], key)) return &obj->items[i];
    return NULL;
}

typedef struct {
    char *err;
    size_t errsz;
} jctx;

static bool bad(jctx *c, const char *what, const char *name)
{
    snprintf(c->err, c->errsz, "%s: %s", name, what);
    return false;
}

/* A non-negative integer that fits 64 bits. */
static bool jnum(jctx *c, const jval *v, const char *name, uint64_t *out)
{
    if (!v || v->type != J_NUM) return bad(c, "expected a whole number", name);
    uint64_t x = 0;
    const char *p = v->str;
    if (!*p) return bad(c, "expected a whole number", name);
    for (; *p; p++) {
        if (*p < '0' || *p > '9') return bad(c, "expected a whole number", name);
        unsigned d = (unsigned)(*p - '0');
        if (x > (UINT64_MAX - d) / 10) return bad(c, "number too large", name);
        x = x * 10 + d;
    }
    *out = x;
    return true;
}

static bool jint(jctx *c, const jval *v, const char *name, int max, int *out)
{
    uint64_t x;
    if (!jnum(c, v, name, &x)) return false;
    if (x > (uint64_t)max) return bad(c, "number out of range", name);
    *out = (int)x;
    return true;
}

static bool jtype_is(jctx *c, const jval *v, jtype t, const char *name)
{
    static const char *const what[] = {"expected null", "expected false", "expected true", "expected a number",
                                       "expected a string", "expected an array", "expected an object"};
    if (!v || v->type != t) return bad(c, what[t], name);
    return true;
}

static bool read_codes(jctx *c, const jval *obj, const char *name, uint64_t *counts)
{
    if (!jtype_is(c, obj, J_OBJ, name)) return false;
    for (size_t i = 0; i < obj->n; i++) {
        int code = xq_ecco_parse(obj->keys[i]);
        if (code < 0) return bad(c, "not an ECCO code", name);
        uint64_t n;
        if (!jnum(c, &obj->items[i], name, &n)) return false;
        counts[code] += n;
    }
    return true;
}

static bool read_hashes(jctx *c, const jval *arr, const char *name, hset *h)
{
    if (!jtype_is(c, arr, J_ARR, name)) return false;
    for (size_t i = 0; i < arr->n; i++) {
        const jval *v = &arr->items[i];
        if (v->type != J_STR || strlen(v->str) != 16) return bad(c, "expected 16 hex digits", name);
        char *end;
        uint64_t k = strtoull(v->str, &end, 16);
        if (*end) return bad(c, "expected 16 hex digits", name);
        if (!xq_hset_add(h, k)) return bad(c, "out of memory", name);
    }
    return true;
}

static bool read_result(jctx *c, const jval *v, const char *name, xq_result *out)
{
    if (!jtype_is(c, v, J_STR, name)) return false;
    if (!xq_stats_result_from_str(v->str, out)) return bad(c, "not a result", name);
    return true;
}

static bool from_tree(jctx *c, const jval *root, xq_stats *s)
{
    if (!jtype_is(c, root, J_OBJ, "top level")) return false;
    const jval *fmt = jget(root, "format");
    if (!fmt || fmt->type != J_STR || strcmp(fmt->str, "xq-stats")) return bad(c, "not xq-stats output", "format");
    uint64_t version;
    if (!jnum(c, jget(root, "version"), "version", &version)) return false;
    if (version != 1) return bad(c, "unknown version (this program reads 1)", "version");

    const jval *games = jget(root, "games");
    static const char *const gnames[] = {"from_start", "from_fen", "unreadable", "valid", "illegal", "with_errors"};
    uint64_t *gfields[] = {&s->from_start, &s->from_fen, &s->unreadable, &s->valid, &s->illegal, &s->with_errors};
    if (!jtype_is(c, games, J_OBJ, "games")) return false;
    for (int i = 0; i < 6; i++)
        if (!jnum(c, jget(games, gnames[i]), gnames[i], gfields[i])) return false;
    if (!jnum(c, jget(root, "records"), "records", &s->records)) return false;
    /* optional: the JSON of earlier versions has no failed files to count */
    const jval *failed = jget(root, "files_failed");
    if (failed && !jnum(c, failed, "files_failed", &s->files_failed)) return false;

    const jval *plies = jget(root, "plies");
    if (!jtype_is(c, plies, J_OBJ, "plies")) return false;
    if (!jnum(c, jget(plies, "total"), "plies.total", &s->plies_total)) return false;
    const jval *hist = jget(plies, "histogram");
    if (!jtype_is(c, hist, J_ARR, "plies.histogram")) return false;
    for (size_t i = 0; i < hist->n; i++) {
        const jval *pair = &hist->items[i];
        uint64_t p, n;
        if (pair->type != J_ARR || pair->n != 2) return bad(c, "expected [plies, games]", "plies.histogram");
        if (!jnum(c, &pair->items[0], "plies.histogram", &p) || !jnum(c, &pair->items[1], "plies.histogram", &n))
            return false;
        if (p > 1000000) return bad(c, "number out of range", "plies.histogram");
        if (!xq_stats_hist_add(s, (size_t)p, n)) return bad(c, "out of memory", "plies.histogram");
    }

    const jval *kinds = jget(root, "findings");
    if (!jtype_is(c, kinds, J_OBJ, "findings")) return false;
    for (size_t i = 0; i < kinds->n; i++) {
        int k = 0;
        while (k < XQ_FIND_KIND_COUNT && strcmp(xq_finding_kind_str((xq_finding_kind)k), kinds->keys[i])) k++;
        if (k == XQ_FIND_KIND_COUNT) return bad(c, "unknown kind of finding", "findings");
        if (!jnum(c, &kinds->items[i], "findings", &s->kinds[k])) return false;
    }

    const jval *outc = jget(root, "outcomes");
    if (!jtype_is(c, outc, J_ARR, "outcomes")) return false;
    for (size_t i = 0; i < outc->n; i++) {
        const jval *row = &outc->items[i];
        xq_result tag, board;
        uint64_t n;
        if (row->type != J_ARR || row->n != 4) return bad(c, "expected [tag, termination, board, games]", "outcomes");
        if (!read_result(c, &row->items[0], "outcomes", &tag) || !read_result(c, &row->items[2], "outcomes", &board))
            return false;
        if (!jtype_is(c, &row->items[1], J_STR, "outcomes")) return false;
        int t = 0;
        while (t < XQ_NTERMS && strcmp(xq_termination_str((xq_termination)t), row->items[1].str)) t++;
        if (t == XQ_NTERMS) return bad(c, "unknown termination", "outcomes");
        if (!jnum(c, &row->items[3], "outcomes", &n)) return false;
        s->outcome[tag][t][board] += n;
    }

    const jval *op = jget(root, "openings");
    if (!jtype_is(c, op, J_OBJ, "openings")) return false;
    if (!read_codes(c, jget(op, "tagged"), "openings.tagged", s->ecco_tagged) ||
        !read_codes(c, jget(op, "classified"), "openings.classified", s->ecco_class) ||
        !jnum(c, jget(op, "bad_tag"), "openings.bad_tag", &s->ecco_bad_tag) ||
        !jnum(c, jget(op, "unclassified"), "openings.unclassified", &s->ecco_unclassified))
        return false;
    const jval *ho = jget(op, "heldout");
    if (!jtype_is(c, ho, J_OBJ, "openings.heldout") ||
        !jnum(c, jget(ho, "games"), "openings.heldout.games", &s->heldout_games) ||
        !jnum(c, jget(ho, "agree"), "openings.heldout.agree", &s->heldout_agree))
        return false;

    const jval *pl = jget(root, "players");
    if (!jtype_is(c, pl, J_ARR, "players")) return false;
    for (size_t i = 0; i < pl->n; i++) {
        const jval *row = &pl->items[i];
        uint64_t v[PL_NVALUES];
        if (row->type != J_ARR || row->n != 5 || row->items[0].type != J_STR)
            return bad(c, "expected [name, games, wins, draws, losses]", "players");
        for (int k = 0; k < PL_NVALUES; k++)
            if (!jnum(c, &row->items[1 + k], "players", &v[k])) return false;
        if (!xq_smap_add(&s->players, row->items[0].str, strlen(row->items[0].str), v))
            return bad(c, "out of memory", "players");
    }
    const jval *ev = jget(root, "events");
    if (!jtype_is(c, ev, J_ARR, "events")) return false;
    for (size_t i = 0; i < ev->n; i++) {
        const jval *row = &ev->items[i];
        uint64_t v[PL_NVALUES] = {0, 0, 0, 0};
        if (row->type != J_ARR || row->n != 2 || row->items[0].type != J_STR)
            return bad(c, "expected [name, games]", "events");
        if (!jnum(c, &row->items[1], "events", &v[PL_GAMES])) return false;
        if (!xq_smap_add(&s->events, row->items[0].str, strlen(row->items[0].str), v))
            return bad(c, "out of memory", "events");
    }
    const jval *one = jget(root, "event");
    if (one && one->type == J_OBJ) {
        const jval *eg = jget(one, "games");
        if (!jtype_is(c, eg, J_ARR, "event.games")) return false;
        for (size_t i = 0; i < eg->n; i++) {
            const jval *row = &eg->items[i];
            int round;
            xq_result res;
            if (row->type != J_ARR || row->n != 4 || row->items[1].type != J_STR || row->items[2].type != J_STR)
                return bad(c, "expected [round, red, black, result]", "event.games");
            if (!jint(c, &row->items[0], "event.games", 1000000, &round) ||
                !read_result(c, &row->items[3], "event.games", &res))
                return false;
            if (!xq_stats_event_add(s, row->items[1].str, strlen(row->items[1].str), row->items[2].str,
                                    strlen(row->items[2].str), round, res))
                return bad(c, "out of memory", "event.games");
        }
    } else if (!one || one->type != J_NULL) {
        return bad(c, "expected an object or null", "event");
    }
    const jval *d = jget(root, "distinct");
    if (!jtype_is(c, d, J_OBJ, "distinct")) return false;
    return read_hashes(c, jget(d, "moves"), "distinct.moves", &s->moves) &&
           read_hashes(c, jget(d, "moves_tags"), "distinct.moves_tags", &s->tagged);
}

xq_stats *xq_stats_read_json(const char *text, size_t len, bool *incomplete, char *err, size_t errsz)
{
    char dummy[1];
    if (incomplete) *incomplete = false;
    if (!err || !errsz) {
        err = dummy;
        errsz = sizeof dummy;
    }
    err[0] = '\0';
    jparser ps = {.p = text, .end = text + len, .line = 1, .err = err, .errsz = errsz};
    jval root = {0};
    if (!jvalue(&ps, &root)) {
        if (incomplete) *incomplete = ps.at_end;
        jfree(&root);
        return NULL;
    }
    jskip(&ps);
    if (ps.p != ps.end) {
        jfail(&ps, "text after the JSON object");
        jfree(&root);
        return NULL;
    }

    /* options first: they make the accumulator */
    jctx c = {err, errsz};
    xq_stats_options opt;
    xq_replay_options_default(&opt.rules);
    opt.event = NULL;
    const jval *o = jget(&root, "options");
    xq_stats *s = NULL;
    if (jtype_is(&c, o, J_OBJ, "options") &&
        jint(&c, jget(o, "move_limit"), "options.move_limit", 100000, &opt.rules.move_limit) &&
        jint(&c, jget(o, "check_cap"), "options.check_cap", 100000, &opt.rules.check_cap) &&
        jint(&c, jget(o, "repetitions"), "options.repetitions", 100, &opt.rules.repetitions)) {
        const jval *strict = jget(o, "strict"), *event = jget(o, "event"), *rules = jget(o, "rules");
        if (!rules || rules->type != J_STR || !xq_rules_parse(rules->str, &opt.rules.rules)) {
            bad(&c, "expected \"cxa1999\" or \"axf\"", "options.rules");
        } else if (!strict || (strict->type != J_TRUE && strict->type != J_FALSE)) {
            bad(&c, "expected true or false", "options.strict");
        } else if (!event || (event->type != J_NULL && event->type != J_STR)) {
            bad(&c, "expected a string or null", "options.event");
        } else {
            opt.rules.strict = strict->type == J_TRUE;
            opt.event = event->type == J_STR ? event->str : NULL;
            s = xq_stats_new(&opt);
            if (!s) snprintf(err, errsz, "out of memory");
            else if (!from_tree(&c, &root, s)) {
                xq_stats_free(s);
                s = NULL;
            }
        }
    }
    jfree(&root);
    return s;
}
