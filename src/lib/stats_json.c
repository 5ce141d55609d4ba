/* stats_json.c - the accumulator as JSON, out and back in (see stats.h).
 *
 * The JSON object, version 1 (every number is a non-negative integer
 * except in "derived"):
 *   "format": "xq-stats", "version": 1,
 *   "options": {"rules", "move_limit", "check_cap", "repetitions", "strict", "event",
 *               "system"}     system: the event's tie-breaks as chosen (--system:
 *                          "auto", "round-robin" or "swiss"); absent (earlier
 *                          versions) reads as "auto"
 *   "records": N,
 *   "files_failed": N      input files that failed (xq_stats_add_failed_file):
 *                          not 0 means the statistics are incomplete; absent
 *                          (JSON written before it existed) reads as 0
 *   "games": {"from_start", "from_fen", "unreadable", "valid", "illegal", "with_errors"},
 *   "plies": {"total": N, "histogram": [[plies, games], ...]}     ascending plies
 *   "findings": {"illegal-move": N, ...}                          every kind
 *   "outcomes": [[tag, termination, board, games], ...]           nonzero cells
 *   "forfeits": {"1-0": N, "0-1": N}   of the outcomes 1-0 and 0-1 with no
 *                          ending, the games without a move (a forfeit or
 *                          unplayed); absent (earlier versions) reads as 0
 *   "openings": {"tagged": {"C55": N, ...}, "classified": {...},
 *                "bad_tag": N, "unclassified": N,
 *                "heldout": {"games": N, "agree": N}},
 *   "players": [[name, games, wins, draws, losses], ...]          by name
 *   "events": [[name, games], ...]                                by name
 *   "event": null | {"name": s, "games": [[round, red, black, result, ending,
 *                     board, no_moves, move_hash, when], ...]}         ending
 *                and board: what the board decides ("" when nothing),
 *                no_moves true or false, move_hash and when (of the Date
 *                and Time tags, xq_stats_when_hash) 16 hex digits (rows of
 *                four or eight, from before, are read with those missing
 *                unknown)
 *   "distinct": {"moves": ["16 hex digits", ...], "moves_tags": [...]}  ascending
 *   "derived": {...}                                              ignored when read;
 *                with an event, "standings": {"system", "rows": [...],
 *                "notes": [{"kind", "note"}, ...]}: the text report's notes
 *                under the standings (kind "copy", "board" or "forfeit")
 * Results are "1-0", "0-1", "1/2-1/2", "*", or "" (none recorded);
 * terminations as xq_termination_str.
 */
#include "stats_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "json_read.h"

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

/* The notes array being written (xq_stats_event_notes' sink). */
typedef struct {
    FILE *o;
    bool first;
} json_notes;

static bool json_note(void *ctx, const char *kind, const char *text)
{
    json_notes *j = ctx;
    if (!j->first) putc(',', j->o);
    j->first = false;
    int f = 1;
    putc('{', j->o);
    xq_json_key(j->o, "kind", &f);
    xq_json_string(j->o, kind);
    xq_json_key(j->o, "note", &f);
    xq_json_string(j->o, text);
    putc('}', j->o);
    return true;
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
            putc(']', o);
            json_notes j = {o, true};
            xq_json_key(o, "notes", &f2);
            putc('[', o);
            ok = xq_stats_event_notes(&st, json_note, &j) && ok;
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
        if (!s->opt.system_unrecorded) {   /* (not recorded: left so, for the next merge) */
            xq_json_key(o, "system", &f);
            xq_json_string(o, xq_event_system_str(s->opt.system));
        }
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

    xq_json_key(o, "forfeits", &first);
    fprintf(o, "{\"1-0\":%" PRIu64 ",\"0-1\":%" PRIu64 "}", s->forfeit_red, s->forfeit_black);

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
            putc(',', o);
            xq_json_string(o, g[i].ending == XQ_TERM_NONE ? "" : xq_termination_str(g[i].ending));
            putc(',', o);
            xq_json_string(o, result_name(g[i].board));
            fprintf(o, ",%s,\"%016" PRIx64 "\",\"%016" PRIx64 "\"]", g[i].no_moves ? "true" : "false",
                    g[i].move_hash, g[i].when);
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

/* ---- the JSON tree (json_read.h) --------------------------------------- */

typedef xq_json_value jval;

/* How --merge has always read: lenient numbers and string bytes (the
 * members are checked one by one below), 64 levels deep. */
static const xq_json_options MERGE_JSON = {.max_depth = 64, .strict = false};

/* ---- from the JSON tree to an accumulator ------------------------------ */

static const jval *jget(const jval *obj, const char *key)
{
    return xq_json_get(obj, key);
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
    if (!v || v->type != XQ_JSON_NUMBER) return bad(c, "expected a whole number", name);
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

static bool jtype_is(jctx *c, const jval *v, xq_json_type t, const char *name)
{
    static const char *const what[] = {"expected null", "expected false", "expected true", "expected a number",
                                       "expected a string", "expected an array", "expected an object"};
    if (!v || v->type != t) return bad(c, what[t], name);
    return true;
}

static bool read_codes(jctx *c, const jval *obj, const char *name, uint64_t *counts, bool *overflow)
{
    if (!jtype_is(c, obj, XQ_JSON_OBJECT, name)) return false;
    for (size_t i = 0; i < obj->len; i++) {
        int code = xq_ecco_parse(obj->keys[i]);
        if (code < 0) return bad(c, "not an ECCO code", name);
        uint64_t n;
        if (!jnum(c, &obj->items[i], name, &n)) return false;
        xq_count_add(&counts[code], n, overflow);   /* (a key may repeat) */
    }
    return true;
}

static bool read_hashes(jctx *c, const jval *arr, const char *name, hset *h)
{
    if (!jtype_is(c, arr, XQ_JSON_ARRAY, name)) return false;
    for (size_t i = 0; i < arr->len; i++) {
        const jval *v = &arr->items[i];
        if (v->type != XQ_JSON_STRING || strlen(v->str) != 16) return bad(c, "expected 16 hex digits", name);
        char *end;
        uint64_t k = strtoull(v->str, &end, 16);
        if (*end) return bad(c, "expected 16 hex digits", name);
        if (!xq_hset_add(h, k)) return bad(c, "out of memory", name);
    }
    return true;
}

static bool read_result(jctx *c, const jval *v, const char *name, xq_result *out)
{
    if (!jtype_is(c, v, XQ_JSON_STRING, name)) return false;
    if (!xq_stats_result_from_str(v->str, out)) return bad(c, "not a result", name);
    return true;
}

/* 16 hex digits (a hash) into *out. */
static bool read_hex64(jctx *c, const jval *v, const char *name, uint64_t *out)
{
    if (v->type != XQ_JSON_STRING || strlen(v->str) != 16 || strspn(v->str, "0123456789abcdefABCDEF") != 16)
        return bad(c, "expected 16 hex digits", name);
    *out = strtoull(v->str, NULL, 16);
    return true;
}

/* An event game's ending, board, no_moves and move_hash (v[0..3]) into g. */
static bool read_event_facts(jctx *c, const jval *v, xq_event_game *g)
{
    const char *name = "event.games";
    if (!jtype_is(c, &v[0], XQ_JSON_STRING, name) || !read_result(c, &v[1], name, &g->board)) return false;
    int t = 0;
    if (v[0].str[0]) {
        while (t < XQ_NTERMS && strcmp(xq_termination_str((xq_termination)t), v[0].str)) t++;
        if (t == XQ_NTERMS) return bad(c, "unknown termination", name);
    }
    g->ending = (xq_termination)t;
    if (v[2].type != XQ_JSON_TRUE && v[2].type != XQ_JSON_FALSE) return bad(c, "expected true or false", name);
    g->no_moves = v[2].type == XQ_JSON_TRUE;
    if (v[3].type != XQ_JSON_STRING || strlen(v[3].str) != 16) return bad(c, "expected 16 hex digits", name);
    char *end;
    g->move_hash = strtoull(v[3].str, &end, 16);
    if (*end) return bad(c, "expected 16 hex digits", name);
    return true;
}

/* The tallies of one record each (its outcome, its opening, its length,
 * its event) sum to at most the records, and a player's results to at
 * most their games, as every run writes them: a part that says otherwise
 * is made up or damaged, refused, so that no sum a report makes of them
 * (totals, 2 x wins + draws) passes 64 bits, in it or in a merge of such
 * parts (the sums of parts keep the bounds). */
static bool counts_consistent(jctx *c, const xq_stats *s)
{
    typedef unsigned __int128 u128;
    /* (a game of a bad ECCO tag is classified too: bad_tag is no part of the sum) */
    u128 outcomes = 0, openings = s->ecco_unclassified, lengths = 0, events = 0;
    for (int a = 0; a < XQ_NRESULTS; a++)
        for (int b = 0; b < XQ_NTERMS; b++)
            for (int d = 0; d < XQ_NRESULTS; d++) outcomes += s->outcome[a][b][d];
    for (int i = 0; i < XQ_ECCO_CODES; i++) openings += (u128)s->ecco_tagged[i] + s->ecco_class[i];
    for (size_t i = 0; i < s->ply_len; i++) lengths += s->ply_hist[i];
    for (size_t i = 0; i < s->events.cap; i++)
        if (s->events.slots[i].key) events += s->events.slots[i].v[PL_GAMES];
    const u128 records = s->records;
    if (outcomes > records) return bad(c, "they count more games than the records", "outcomes");
    if (openings > records || s->ecco_bad_tag > s->records)
        return bad(c, "they count more games than the records", "openings");
    if (lengths > records) return bad(c, "it counts more games than the records", "plies.histogram");
    if (events > records) return bad(c, "they count more games than the records", "events");
    if ((u128)s->forfeit_red + s->forfeit_black > records) return bad(c, "more than the records", "forfeits");
    if ((u128)s->from_start + s->from_fen + s->unreadable != records)
        return bad(c, "from_start, from_fen and unreadable do not add up to the records", "games");
    for (int k = 0; k < XQ_FIND_KIND_COUNT; k++)
        if (s->kinds[k] > s->records) return bad(c, "a kind counts more games than the records", "findings");
    if ((u128)s->valid + s->illegal + s->unreadable != records || s->with_errors > s->records)
        return bad(c, "valid, illegal and unreadable do not add up to the records", "games");
    if (s->heldout_games > s->records || s->heldout_agree > s->heldout_games)
        return bad(c, "more agreeing games than games, or games than the records", "openings.heldout");
    for (size_t i = 0; i < s->players.cap; i++) {
        const smap_entry *e = &s->players.slots[i];
        if (e->key && (u128)e->v[PL_WINS] + e->v[PL_DRAWS] + e->v[PL_LOSSES] > e->v[PL_GAMES])
            return bad(c, "a player's wins, draws and losses pass their games", "players");
        if (e->key && e->v[PL_GAMES] > s->records) return bad(c, "a player has more games than the records", "players");
    }
    return true;
}

static bool from_tree(jctx *c, const jval *root, xq_stats *s)
{
    if (!jtype_is(c, root, XQ_JSON_OBJECT, "top level")) return false;
    const jval *fmt = jget(root, "format");
    if (!fmt || fmt->type != XQ_JSON_STRING || strcmp(fmt->str, "xq-stats")) return bad(c, "not xq-stats output", "format");
    uint64_t version;
    if (!jnum(c, jget(root, "version"), "version", &version)) return false;
    if (version != 1) return bad(c, "unknown version (this program reads 1)", "version");

    const jval *games = jget(root, "games");
    static const char *const gnames[] = {"from_start", "from_fen", "unreadable", "valid", "illegal", "with_errors"};
    uint64_t *gfields[] = {&s->from_start, &s->from_fen, &s->unreadable, &s->valid, &s->illegal, &s->with_errors};
    if (!jtype_is(c, games, XQ_JSON_OBJECT, "games")) return false;
    for (int i = 0; i < 6; i++)
        if (!jnum(c, jget(games, gnames[i]), gnames[i], gfields[i])) return false;
    if (!jnum(c, jget(root, "records"), "records", &s->records)) return false;
    /* optional: the JSON of earlier versions has no failed files to count */
    const jval *failed = jget(root, "files_failed");
    if (failed && !jnum(c, failed, "files_failed", &s->files_failed)) return false;

    const jval *plies = jget(root, "plies");
    if (!jtype_is(c, plies, XQ_JSON_OBJECT, "plies")) return false;
    if (!jnum(c, jget(plies, "total"), "plies.total", &s->plies_total)) return false;
    const jval *hist = jget(plies, "histogram");
    if (!jtype_is(c, hist, XQ_JSON_ARRAY, "plies.histogram")) return false;
    for (size_t i = 0; i < hist->len; i++) {
        const jval *pair = &hist->items[i];
        uint64_t p, n;
        if (pair->type != XQ_JSON_ARRAY || pair->len != 2) return bad(c, "expected [plies, games]", "plies.histogram");
        if (!jnum(c, &pair->items[0], "plies.histogram", &p) || !jnum(c, &pair->items[1], "plies.histogram", &n))
            return false;
        if (p > 1000000) return bad(c, "number out of range", "plies.histogram");
        if (!xq_stats_hist_add(s, (size_t)p, n)) return bad(c, "out of memory", "plies.histogram");
    }

    const jval *kinds = jget(root, "findings");
    if (!jtype_is(c, kinds, XQ_JSON_OBJECT, "findings")) return false;
    for (size_t i = 0; i < kinds->len; i++) {
        int k = 0;
        while (k < XQ_FIND_KIND_COUNT && strcmp(xq_finding_kind_str((xq_finding_kind)k), kinds->keys[i])) k++;
        if (k == XQ_FIND_KIND_COUNT) return bad(c, "unknown kind of finding", "findings");
        if (!jnum(c, &kinds->items[i], "findings", &s->kinds[k])) return false;
    }

    const jval *outc = jget(root, "outcomes");
    if (!jtype_is(c, outc, XQ_JSON_ARRAY, "outcomes")) return false;
    for (size_t i = 0; i < outc->len; i++) {
        const jval *row = &outc->items[i];
        xq_result tag, board;
        uint64_t n;
        if (row->type != XQ_JSON_ARRAY || row->len != 4) return bad(c, "expected [tag, termination, board, games]", "outcomes");
        if (!read_result(c, &row->items[0], "outcomes", &tag) || !read_result(c, &row->items[2], "outcomes", &board))
            return false;
        if (!jtype_is(c, &row->items[1], XQ_JSON_STRING, "outcomes")) return false;
        int t = 0;
        while (t < XQ_NTERMS && strcmp(xq_termination_str((xq_termination)t), row->items[1].str)) t++;
        if (t == XQ_NTERMS) return bad(c, "unknown termination", "outcomes");
        if (!jnum(c, &row->items[3], "outcomes", &n)) return false;
        xq_count_add(&s->outcome[tag][t][board], n, &s->overflow);   /* (a row may repeat) */
    }
    /* optional: the JSON of earlier versions has no forfeits */
    const jval *forfeits = jget(root, "forfeits");
    if (forfeits && (!jtype_is(c, forfeits, XQ_JSON_OBJECT, "forfeits") ||
                     !jnum(c, jget(forfeits, "1-0"), "forfeits", &s->forfeit_red) ||
                     !jnum(c, jget(forfeits, "0-1"), "forfeits", &s->forfeit_black)))
        return false;

    const jval *op = jget(root, "openings");
    if (!jtype_is(c, op, XQ_JSON_OBJECT, "openings")) return false;
    if (!read_codes(c, jget(op, "tagged"), "openings.tagged", s->ecco_tagged, &s->overflow) ||
        !read_codes(c, jget(op, "classified"), "openings.classified", s->ecco_class, &s->overflow) ||
        !jnum(c, jget(op, "bad_tag"), "openings.bad_tag", &s->ecco_bad_tag) ||
        !jnum(c, jget(op, "unclassified"), "openings.unclassified", &s->ecco_unclassified))
        return false;
    const jval *ho = jget(op, "heldout");
    if (!jtype_is(c, ho, XQ_JSON_OBJECT, "openings.heldout") ||
        !jnum(c, jget(ho, "games"), "openings.heldout.games", &s->heldout_games) ||
        !jnum(c, jget(ho, "agree"), "openings.heldout.agree", &s->heldout_agree))
        return false;

    const jval *pl = jget(root, "players");
    if (!jtype_is(c, pl, XQ_JSON_ARRAY, "players")) return false;
    for (size_t i = 0; i < pl->len; i++) {
        const jval *row = &pl->items[i];
        uint64_t v[PL_NVALUES];
        if (row->type != XQ_JSON_ARRAY || row->len != 5 || row->items[0].type != XQ_JSON_STRING)
            return bad(c, "expected [name, games, wins, draws, losses]", "players");
        for (int k = 0; k < PL_NVALUES; k++)
            if (!jnum(c, &row->items[1 + k], "players", &v[k])) return false;
        size_t before = s->players.count;
        if (!xq_smap_add(&s->players, row->items[0].str, strlen(row->items[0].str), v))
            return bad(c, "out of memory", "players");
        if (s->players.count == before) return bad(c, "a player given twice", "players");
    }
    const jval *ev = jget(root, "events");
    if (!jtype_is(c, ev, XQ_JSON_ARRAY, "events")) return false;
    for (size_t i = 0; i < ev->len; i++) {
        const jval *row = &ev->items[i];
        uint64_t v[PL_NVALUES] = {0, 0, 0, 0};
        if (row->type != XQ_JSON_ARRAY || row->len != 2 || row->items[0].type != XQ_JSON_STRING)
            return bad(c, "expected [name, games]", "events");
        if (!jnum(c, &row->items[1], "events", &v[PL_GAMES])) return false;
        size_t before = s->events.count;
        if (!xq_smap_add(&s->events, row->items[0].str, strlen(row->items[0].str), v))
            return bad(c, "out of memory", "events");
        if (s->events.count == before) return bad(c, "an event given twice", "events");
    }
    const jval *one = jget(root, "event");
    if (one && one->type == XQ_JSON_OBJECT) {
        const jval *eg = jget(one, "games");
        if (!jtype_is(c, eg, XQ_JSON_ARRAY, "event.games")) return false;
        for (size_t i = 0; i < eg->len; i++) {
            const jval *row = &eg->items[i];
            xq_event_game g = {0};
            if (row->type != XQ_JSON_ARRAY || (row->len != 4 && row->len != 8 && row->len != 9) ||
                row->items[1].type != XQ_JSON_STRING || row->items[2].type != XQ_JSON_STRING)
                return bad(c, "expected [round, red, black, result, ending, board, no_moves, move_hash, when]",
                           "event.games");
            if (!jint(c, &row->items[0], "event.games", 1000000, &g.round) ||
                !read_result(c, &row->items[3], "event.games", &g.result) ||
                (row->len >= 8 && !read_event_facts(c, row->items + 4, &g)) ||
                (row->len == 9 && !read_hex64(c, &row->items[8], "event.games", &g.when)))
                return false;
            if (!xq_stats_event_add(s, row->items[1].str, strlen(row->items[1].str), row->items[2].str,
                                    strlen(row->items[2].str), &g))
                return bad(c, "out of memory", "event.games");
        }
    } else if (!one || one->type != XQ_JSON_NULL) {
        return bad(c, "expected an object or null", "event");
    }
    const jval *d = jget(root, "distinct");
    if (!jtype_is(c, d, XQ_JSON_OBJECT, "distinct")) return false;
    if (!read_hashes(c, jget(d, "moves"), "distinct.moves", &s->moves) ||
        !read_hashes(c, jget(d, "moves_tags"), "distinct.moves_tags", &s->tagged))
        return false;
    if (xq_stats_overflowed(s)) return bad(c, "their counts sum past 18446744073709551615 (64 bits)", "repeated entries");
    return counts_consistent(c, s);
}

/* The first key that an object in v repeats (its own, or a nested
 * object's), or NULL.  Every run writes each key once; a part with one
 * twice would have one value read and the other ignored, or both summed,
 * field by field.  (Recursion: bounded by the parser's depth limit.) */
static const char *repeated_key(const jval *v)
{
    if (v->type != XQ_JSON_OBJECT && v->type != XQ_JSON_ARRAY) return NULL;
    for (size_t i = 0; i < v->len; i++) {
        if (v->type == XQ_JSON_OBJECT)
            for (size_t j = 0; j < i; j++)
                if (!strcmp(v->keys[i], v->keys[j])) return v->keys[i];
        const char *in = repeated_key(&v->items[i]);
        if (in) return in;
    }
    return NULL;
}

xq_stats *xq_stats_read_json(const char *text, size_t len, bool *incomplete, char *err, size_t errsz)
{
    char dummy[128];   /* no err given: room for any message all the same (no cut to warn of) */
    if (incomplete) *incomplete = false;
    if (!err || !errsz) {
        err = dummy;
        errsz = sizeof dummy;
    }
    err[0] = '\0';
    xq_json_doc doc = {0};
    xq_json_error e;
    if (!xq_json_parse(&doc, text, len, &MERGE_JSON, &e)) {
        snprintf(err, errsz, "line %d: %s", e.line, e.msg);
        if (incomplete) *incomplete = e.at_end;
        xq_json_doc_free(&doc);
        return NULL;
    }
    const jval root = doc.root;
    jctx c = {err, errsz};
    const char *twice = repeated_key(&root);
    if (twice) {   /* (which of the two values would count: neither) */
        bad(&c, "a key given twice in one object", twice);
        xq_json_doc_free(&doc);
        return NULL;
    }

    /* options first: they make the accumulator */
    xq_stats_options opt = {.event = NULL, .system = XQ_SYSTEM_AUTO};
    xq_replay_options_default(&opt.rules);
    const jval *o = jget(&root, "options");
    xq_stats *s = NULL;
    if (jtype_is(&c, o, XQ_JSON_OBJECT, "options") &&
        jint(&c, jget(o, "move_limit"), "options.move_limit", 100000, &opt.rules.move_limit) &&
        jint(&c, jget(o, "check_cap"), "options.check_cap", 100000, &opt.rules.check_cap) &&
        jint(&c, jget(o, "repetitions"), "options.repetitions", 100, &opt.rules.repetitions)) {
        const jval *strict = jget(o, "strict"), *event = jget(o, "event"), *rules = jget(o, "rules");
        const jval *system = jget(o, "system");
        if (!rules || rules->type != XQ_JSON_STRING || !xq_rules_parse(rules->str, &opt.rules.rules)) {
            bad(&c, "expected \"cxa1999\" or \"axf\"", "options.rules");
        } else if (!strict || (strict->type != XQ_JSON_TRUE && strict->type != XQ_JSON_FALSE)) {
            bad(&c, "expected true or false", "options.strict");
        } else if (!event || (event->type != XQ_JSON_NULL && event->type != XQ_JSON_STRING)) {
            bad(&c, "expected a string or null", "options.event");
        } else if (system && (system->type != XQ_JSON_STRING || !xq_event_system_parse(system->str, &opt.system))) {
            bad(&c, "expected \"auto\", \"round-robin\" or \"swiss\"", "options.system");
        } else {
            opt.rules.strict = strict->type == XQ_JSON_TRUE;
            opt.event = event->type == XQ_JSON_STRING ? event->str : NULL;
            opt.system_unrecorded = !system;
            s = xq_stats_new(&opt);
            if (!s) snprintf(err, errsz, "out of memory");
            else if (!from_tree(&c, &root, s)) {
                xq_stats_free(s);
                s = NULL;
            }
        }
    }
    xq_json_doc_free(&doc);
    return s;
}
