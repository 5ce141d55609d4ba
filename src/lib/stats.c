/* stats.c - condensing a replayed game, the accumulator, merging (see
 * stats.h).  JSON is in stats_json.c, reports in stats_report.c. */
#include "stats_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- hashing ----------------------------------------------------------- */

/* SplitMix64's finalizer (Steele, Lea, Flood 2014): a bijective mix. */
static uint64_t mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static uint64_t step(uint64_t h, uint64_t v)
{
    return mix64(h ^ v);
}

/* FNV-1a 64 of n bytes. */
static uint64_t fnv(const char *s, size_t n)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001B3ull;
    }
    return h;
}

static uint64_t fnv_str(const char *s)
{
    return s ? fnv(s, strlen(s)) : 0;
}

uint64_t xq_stats_move_hash(const xq_game *g, const xq_replay *r)
{
    uint64_t h = 0x58513A6D6F766573ull;   /* "XQ:moves" */
    size_t from_node = 0;
    if (r->status == XQ_STATUS_UNREADABLE) {
        h = step(h, 1);
        h = step(h, fnv_str(g->fen));
    } else {
        for (int sq = 0; sq < XQ_SQUARES; sq++) h = step(h, (uint64_t)r->start.board[sq] << 8 | (uint64_t)sq);
        h = step(h, 0x100 + (uint64_t)r->start.side);
        for (int i = 0; i < r->plies && (size_t)i < g->main.count; i++)
            h = step(h, 0x10000 | (uint64_t)g->main.nodes[i].move);
        from_node = (size_t)r->plies;
    }
    /* what could not be replayed counts by its text */
    if (r->status != XQ_STATUS_VALID)
        for (size_t i = from_node; i < g->main.count; i++) h = step(h, fnv_str(g->main.nodes[i].text));
    return h;
}

/* ---- small text helpers ------------------------------------------------ */

/* Trim ASCII blanks and U+3000 from both ends of s; NULL or empty -> s NULL. */
static xq_stats_str trimmed(const char *s)
{
    xq_stats_str t = {NULL, 0};
    if (!s) return t;
    size_t n = strlen(s);
    for (;;) {
        if (n && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')) {
            s++;
            n--;
        } else if (n >= 3 && !memcmp(s, "\xE3\x80\x80", 3)) {
            s += 3;
            n -= 3;
        } else {
            break;
        }
    }
    for (;;) {
        if (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n')) n--;
        else if (n >= 3 && !memcmp(s + n - 3, "\xE3\x80\x80", 3)) n -= 3;
        else break;
    }
    if (n) {
        t.s = s;
        t.n = n;
    }
    return t;
}

/* First number in s: ASCII digits or full-width ０-９ (EF BC 90-99). */
static int first_number(const char *s)
{
    if (!s) return 0;
    long v = -1;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int d = -1, len = 1;
        if (*p >= '0' && *p <= '9') d = *p - '0';
        else if (p[0] == 0xEF && p[1] == 0xBC && p[2] >= 0x90 && p[2] <= 0x99) {
            d = p[2] - 0x90;
            len = 3;
        }
        if (d >= 0) {
            v = (v < 0 ? 0 : v) * 10 + d;
            if (v > 1000000) return 0;
        } else if (v >= 0) {
            break;
        }
        p += len;
    }
    return v < 0 ? 0 : (int)v;
}

static bool is_start_position(const xq_position *p)
{
    xq_position s;
    xq_position_start(&s);
    return p->side == s.side && !memcmp(p->board, s.board, sizeof s.board);
}

void xq_stats_analyse(const xq_game *g, const xq_replay *r, xq_stats_game *out)
{
    memset(out, 0, sizeof *out);
    out->status = r->status;
    out->termination = r->termination;
    out->result_tag = r->result_tag;
    out->result_board = r->result_board;
    out->plies = r->plies;
    out->from_start = r->status != XQ_STATUS_UNREADABLE && is_start_position(&r->start);
    out->has_error = r->error_count > 0;
    for (int k = 0; k < XQ_FIND_KIND_COUNT; k++)   /* (kept or not: kind_counts) */
        if (r->kind_counts[k][XQ_SEV_ERROR] || r->kind_counts[k][XQ_SEV_WARNING]) out->finding_kinds |= 1u << k;

    const char *ecco = xq_game_tag(g, "ECCO");
    out->ecco_tag = !trimmed(ecco).s ? -1 : xq_ecco_parse(ecco) >= 0 ? xq_ecco_parse(ecco) : -2;
    out->ecco_class = -1;
    if (out->from_start && r->plies > 0) {
        xq_move moves[XQ_ECCO_MAX_PLIES];
        int n = r->plies < XQ_ECCO_MAX_PLIES ? r->plies : XQ_ECCO_MAX_PLIES;
        for (int i = 0; i < n; i++) moves[i] = g->main.nodes[i].move;
        out->ecco_class = xq_ecco_classify(NULL, moves, n);
    }

    out->move_hash = xq_stats_move_hash(g, r);
    uint64_t tags = 0;
    for (size_t i = 0; i < g->tag_count; i++) {
        char lower[64];
        size_t n = strlen(g->tags[i].name);
        uint64_t nh;
        if (n < sizeof lower) {
            for (size_t k = 0; k < n; k++) lower[k] = (char)(g->tags[i].name[k] | (g->tags[i].name[k] >= 'A' && g->tags[i].name[k] <= 'Z' ? 0x20 : 0));
            nh = fnv(lower, n);
        } else {
            nh = fnv(g->tags[i].name, n);
        }
        xq_stats_str v = trimmed(g->tags[i].value);
        tags += mix64(step(step(0x54616773ull, nh), v.s ? fnv(v.s, v.n) : 0));   /* order-free sum */
    }
    out->tag_hash = step(step(out->move_hash ^ 0x2B746167732Bull, tags), g->tag_count);

    out->red = trimmed(xq_game_tag(g, "Red"));
    out->black = trimmed(xq_game_tag(g, "Black"));
    out->event = trimmed(xq_game_tag(g, "Event"));
    out->round = first_number(xq_game_tag(g, "Round"));
    /* only a record without a move needs its Date and Time to be told
     * apart (xq_standings_compute): the others are told by their moves,
     * and two more tag look-ups a game cost xq-stats 1.6% on masters */
    out->when = r->plies == 0 && r->status != XQ_STATUS_UNREADABLE
                    ? xq_stats_when_hash(xq_game_tag(g, "Date"), xq_game_tag(g, "Time"))
                    : XQ_WHEN_UNKNOWN;
}

/* A Date or Time value as recorded (trimmed), or none when it is empty
 * or holds a '?': PGN's mark of a part not known ("????.??.??",
 * "2025.??.??", "?"), which cannot tell two games apart. */
static xq_stats_str when_known(const char *value)
{
    xq_stats_str v = trimmed(value);
    if (v.s && memchr(v.s, '?', v.n)) v.s = NULL, v.n = 0;
    return v;
}

uint64_t xq_stats_when_hash(const char *date, const char *time)
{
    xq_stats_str d = when_known(date), t = when_known(time);
    if (!d.s && !t.s) return XQ_WHEN_NONE;
    /* an absent tag, an empty one and one with a part not known are the
     * same: nothing recorded */
    uint64_t h = step(step(0x7768656E, d.s ? fnv(d.s, d.n) : 0), t.s ? fnv(t.s, t.n) : 0);
    return h >= 2 ? h : h + 2;
}

/* ---- string map -------------------------------------------------------- */

static size_t smap_find(const smap *m, const char *key, size_t keylen)
{
    size_t mask = m->cap - 1, i = (size_t)mix64(fnv(key, keylen)) & mask;
    while (m->slots[i].key &&
           (strlen(m->slots[i].key) != keylen || memcmp(m->slots[i].key, key, keylen)))
        i = (i + 1) & mask;
    return i;
}

static bool smap_grow(smap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    smap_entry *slots = calloc(cap, sizeof *slots);
    if (!slots) return false;
    smap old = *m;
    m->slots = slots;
    m->cap = cap;
    for (size_t i = 0; i < old.cap; i++)
        if (old.slots[i].key) m->slots[smap_find(m, old.slots[i].key, strlen(old.slots[i].key))] = old.slots[i];
    free(old.slots);
    return true;
}

bool xq_smap_add(smap *m, const char *key, size_t keylen, const uint64_t v[PL_NVALUES])
{
    if ((m->count + 1) * 4 > m->cap * 3 && !smap_grow(m)) return false;
    size_t i = smap_find(m, key, keylen);
    smap_entry *e = &m->slots[i];
    if (!e->key) {
        e->key = malloc(keylen + 1);
        if (!e->key) return false;
        memcpy(e->key, key, keylen);
        e->key[keylen] = '\0';
        m->count++;
    }
    for (int k = 0; k < PL_NVALUES; k++) xq_count_add(&e->v[k], v[k], &m->overflow);
    return true;
}

static void smap_free(smap *m)
{
    for (size_t i = 0; i < m->cap; i++) free(m->slots[i].key);
    free(m->slots);
    memset(m, 0, sizeof *m);
}

static int cmp_entry_key(const void *a, const void *b)
{
    return strcmp((*(smap_entry *const *)a)->key, (*(smap_entry *const *)b)->key);
}

smap_entry **xq_smap_sorted(const smap *m)
{
    smap_entry **v = malloc((m->count ? m->count : 1) * sizeof *v);
    if (!v) return NULL;
    size_t n = 0;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].key) v[n++] = &m->slots[i];
    qsort(v, n, sizeof *v, cmp_entry_key);
    return v;
}

/* ---- hash set ---------------------------------------------------------- */

static bool hset_grow(hset *h)
{
    size_t cap = h->cap ? h->cap * 2 : 1024;
    uint64_t *slots = calloc(cap, sizeof *slots);
    if (!slots) return false;
    for (size_t i = 0; i < h->cap; i++) {
        uint64_t k = h->slots[i];
        if (!k) continue;
        size_t j = (size_t)mix64(k) & (cap - 1);
        while (slots[j]) j = (j + 1) & (cap - 1);
        slots[j] = k;
    }
    free(h->slots);
    h->slots = slots;
    h->cap = cap;
    return true;
}

bool xq_hset_add(hset *h, uint64_t k)
{
    if (!k) {
        if (!h->has_zero) h->count++;
        h->has_zero = true;
        return true;
    }
    if ((h->count + 1) * 2 > h->cap && !hset_grow(h)) return false;
    size_t j = (size_t)mix64(k) & (h->cap - 1);
    while (h->slots[j]) {
        if (h->slots[j] == k) return true;
        j = (j + 1) & (h->cap - 1);
    }
    h->slots[j] = k;
    h->count++;
    return true;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

uint64_t *xq_hset_sorted(const hset *h)
{
    uint64_t *v = malloc((h->count ? h->count : 1) * sizeof *v);
    if (!v) return NULL;
    size_t n = 0;
    if (h->has_zero) v[n++] = 0;
    for (size_t i = 0; i < h->cap; i++)
        if (h->slots[i]) v[n++] = h->slots[i];
    qsort(v, n, sizeof *v, cmp_u64);
    return v;
}

/* ---- the accumulator --------------------------------------------------- */

xq_stats *xq_stats_new(const xq_stats_options *opt)
{
    xq_stats *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    if (opt) {
        s->opt.rules = opt->rules;
        s->opt.system = opt->system;
        s->opt.system_unrecorded = opt->system_unrecorded;
        if (opt->event) {
            xq_stats_str t = trimmed(opt->event);
            char *ev = malloc(t.n + 1);
            if (!ev) {
                free(s);
                return NULL;
            }
            if (t.n) memcpy(ev, t.s, t.n);
            ev[t.n] = '\0';
            s->opt.event = ev;
        }
    } else {
        xq_replay_options_default(&s->opt.rules);
    }
    return s;
}

void xq_stats_free(xq_stats *s)
{
    if (!s) return;
    free((char *)s->opt.event);
    free(s->ply_hist);
    smap_free(&s->players);
    smap_free(&s->events);
    free(s->moves.slots);
    free(s->tagged.slots);
    for (size_t i = 0; i < s->nev; i++) {
        free(s->ev[i].red);
        free(s->ev[i].black);
    }
    free(s->ev);
    free(s);
}

const xq_stats_options *xq_stats_get_options(const xq_stats *s)
{
    return &s->opt;
}

bool xq_stats_hist_add(xq_stats *s, size_t plies, uint64_t n)
{
    if (plies >= s->ply_len) {
        size_t len = s->ply_len ? s->ply_len : 256;
        while (len <= plies) len *= 2;
        uint64_t *h = realloc(s->ply_hist, len * sizeof *h);
        if (!h) return false;
        memset(h + s->ply_len, 0, (len - s->ply_len) * sizeof *h);
        s->ply_hist = h;
        s->ply_len = len;
    }
    xq_count_add(&s->ply_hist[plies], n, &s->overflow);
    return true;
}

bool xq_stats_event_add(xq_stats *s, const char *red, size_t red_len, const char *black,
                        size_t black_len, const xq_event_game *g)
{
    if (s->nev == s->ev_cap) {
        size_t cap = s->ev_cap ? s->ev_cap * 2 : 64;
        ev_game *v = realloc(s->ev, cap * sizeof *v);
        if (!v) return false;
        s->ev = v;
        s->ev_cap = cap;
    }
    ev_game *e = &s->ev[s->nev];
    e->red = malloc(red_len + 1);
    e->black = malloc(black_len + 1);
    if (!e->red || !e->black) {
        free(e->red);
        free(e->black);
        return false;
    }
    if (red_len) memcpy(e->red, red, red_len);
    e->red[red_len] = '\0';
    if (black_len) memcpy(e->black, black, black_len);
    e->black[black_len] = '\0';
    e->g = *g;
    e->g.red = e->g.black = NULL;
    s->nev++;
    return true;
}

static int cmp_event_game(const void *a, const void *b)
{
    const xq_event_game *x = a, *y = b;
    int c = xq_event_pairing_cmp(x, y);
    if (c) return c;
    if (x->board != y->board) return x->board < y->board ? -1 : 1;
    if (x->ending != y->ending) return x->ending < y->ending ? -1 : 1;
    if (x->no_moves != y->no_moves) return x->no_moves ? 1 : -1;
    if (x->move_hash != y->move_hash) return x->move_hash < y->move_hash ? -1 : 1;
    return (x->when > y->when) - (x->when < y->when);
}

xq_event_game *xq_stats_event_games(const xq_stats *s)
{
    if (!s->nev) return NULL;
    xq_event_game *v = malloc(s->nev * sizeof *v);
    if (!v) return NULL;
    for (size_t i = 0; i < s->nev; i++) {
        v[i] = s->ev[i].g;
        v[i].red = s->ev[i].red;
        v[i].black = s->ev[i].black;
    }
    qsort(v, s->nev, sizeof *v, cmp_event_game);
    return v;
}

/* Whether the board ends the game whatever was recorded: checkmate,
 * stalemate (CXA1999 §3) and a dead position (§4.2.1) leave no play to
 * follow.  A repetition verdict or the move limit is a draw a player
 * claims, and an illegal move more often a clerk's slip: the Result tag
 * is not contradicted by them here. */
static bool board_decides(xq_termination t)
{
    return t == XQ_TERM_CHECKMATE || t == XQ_TERM_STALEMATE || t == XQ_TERM_DEAD_POSITION;
}

/* Score a player: [games, wins, draws, losses] for the side `me`. */
void xq_stats_player_values(xq_result res, xq_color me, uint64_t v[PL_NVALUES])
{
    memset(v, 0, PL_NVALUES * sizeof *v);
    v[PL_GAMES] = 1;
    if (res == XQ_RESULT_DRAW) v[PL_DRAWS] = 1;
    else if (res == XQ_RESULT_RED) v[me == XQ_RED ? PL_WINS : PL_LOSSES] = 1;
    else if (res == XQ_RESULT_BLACK) v[me == XQ_BLACK ? PL_WINS : PL_LOSSES] = 1;
}

bool xq_stats_add(xq_stats *s, const xq_stats_game *g)
{
    s->records++;
    if (g->status == XQ_STATUS_UNREADABLE) s->unreadable++;
    else if (g->from_start) s->from_start++;
    else s->from_fen++;
    if (g->status == XQ_STATUS_VALID) s->valid++;
    else if (g->status == XQ_STATUS_ILLEGAL) s->illegal++;
    if (g->has_error) s->with_errors++;
    if (g->status != XQ_STATUS_UNREADABLE) {
        s->plies_total += (uint64_t)g->plies;
        if (!xq_stats_hist_add(s, (size_t)(g->plies > 0 ? g->plies : 0), 1)) return false;
    }
    for (int k = 0; k < XQ_FIND_KIND_COUNT; k++)
        if (g->finding_kinds & (1u << k)) s->kinds[k]++;
    if ((unsigned)g->result_tag < XQ_NRESULTS && (unsigned)g->termination < XQ_NTERMS &&
        (unsigned)g->result_board < XQ_NRESULTS)
        s->outcome[g->result_tag][g->termination][g->result_board]++;
    if (g->status != XQ_STATUS_UNREADABLE && g->plies == 0 && g->termination == XQ_TERM_NONE) {
        if (g->result_tag == XQ_RESULT_RED) s->forfeit_red++;
        if (g->result_tag == XQ_RESULT_BLACK) s->forfeit_black++;
    }

    if (g->ecco_tag >= 0) {
        s->ecco_tagged[g->ecco_tag]++;
        if (g->ecco_class >= 0 && (g->move_hash & 1)) {
            s->heldout_games++;
            if (g->ecco_class == g->ecco_tag) s->heldout_agree++;
        }
    } else {
        if (g->ecco_tag == -2) s->ecco_bad_tag++;
        if (g->ecco_class >= 0) s->ecco_class[g->ecco_class]++;
        else s->ecco_unclassified++;
    }

    uint64_t v[PL_NVALUES];
    if (g->red.s) {
        xq_stats_player_values(g->result_tag, XQ_RED, v);
        if (!xq_smap_add(&s->players, g->red.s, g->red.n, v)) return false;
    }
    if (g->black.s) {
        xq_stats_player_values(g->result_tag, XQ_BLACK, v);
        if (!xq_smap_add(&s->players, g->black.s, g->black.n, v)) return false;
    }
    if (g->event.s) {
        uint64_t one[PL_NVALUES] = {1, 0, 0, 0};
        if (!xq_smap_add(&s->events, g->event.s, g->event.n, one)) return false;
        if (s->opt.event && strlen(s->opt.event) == g->event.n && !memcmp(s->opt.event, g->event.s, g->event.n)) {
            xq_event_game eg = {
                .round = g->round,
                .result = g->result_tag,
                .board = board_decides(g->termination) ? g->result_board : XQ_RESULT_NONE,
                .ending = board_decides(g->termination) ? g->termination : XQ_TERM_NONE,
                .no_moves = g->plies == 0 && g->status != XQ_STATUS_UNREADABLE,
                .move_hash = g->move_hash,
                .when = g->when,
            };
            if (!xq_stats_event_add(s, g->red.s ? g->red.s : "", g->red.n, g->black.s ? g->black.s : "", g->black.n,
                                    &eg))
                return false;
        }
    }
    return xq_hset_add(&s->moves, g->move_hash) && xq_hset_add(&s->tagged, g->tag_hash);
}

void xq_stats_add_failed_file(xq_stats *s)
{
    s->files_failed++;
}

static bool same_options(const xq_stats *a, const xq_stats *b, char *err, size_t errsz)
{
    const xq_replay_options *x = &a->opt.rules, *y = &b->opt.rules;
    /* the first setting that differs, named with both values, as the
     * --system refusal below names them */
    if (x->rules != y->rules) {
        snprintf(err, errsz, "the statistics were made with different rules (--rules %s and %s)",
                 xq_rules_str(x->rules), xq_rules_str(y->rules));
        return false;
    }
    static const char *const names[] = {"--move-limit", "--check-cap", "--repetitions"};
    const int xs[] = {x->move_limit, x->check_cap, x->repetitions}, ys[] = {y->move_limit, y->check_cap, y->repetitions};
    for (int i = 0; i < 3; i++)
        if (xs[i] != ys[i]) {
            snprintf(err, errsz, "the statistics were made with different rules (%s %d and %d)", names[i], xs[i],
                     ys[i]);
            return false;
        }
    if (x->strict != y->strict) {
        snprintf(err, errsz, "the statistics were made with different rules (--strict in %s only)",
                 x->strict ? "the first" : "the second");
        return false;
    }
    if ((a->opt.event == NULL) != (b->opt.event == NULL) || (a->opt.event && strcmp(a->opt.event, b->opt.event))) {
        snprintf(err, errsz, "the statistics were made for different events (--event %s%s%s and %s%s%s)",
                 a->opt.event ? "\"" : "", a->opt.event ? a->opt.event : "none", a->opt.event ? "\"" : "",
                 b->opt.event ? "\"" : "", b->opt.event ? b->opt.event : "none", b->opt.event ? "\"" : "");
        return false;
    }
    /* (a part that did not record its system agrees with any) */
    if (a->opt.system != b->opt.system && !a->opt.system_unrecorded && !b->opt.system_unrecorded) {
        snprintf(err, errsz, "the statistics were made with different tie-break systems (--system %s and %s)",
                 xq_event_system_str(a->opt.system), xq_event_system_str(b->opt.system));
        return false;
    }
    return true;
}

void xq_stats_set_system(xq_stats *s, xq_event_system system)
{
    s->opt.system = system;
    s->opt.system_unrecorded = false;
}

const char *xq_event_system_str(xq_event_system system)
{
    return system == XQ_SYSTEM_ROUND_ROBIN ? "round-robin" : system == XQ_SYSTEM_SWISS ? "swiss" : "auto";
}

bool xq_event_system_parse(const char *text, xq_event_system *out)
{
    if (!strcasecmp(text, "auto")) *out = XQ_SYSTEM_AUTO;
    else if (!strcasecmp(text, "round-robin") || !strcasecmp(text, "rr")) *out = XQ_SYSTEM_ROUND_ROBIN;
    else if (!strcasecmp(text, "swiss")) *out = XQ_SYSTEM_SWISS;
    else return false;
    return true;
}

bool xq_stats_merge(xq_stats *into, const xq_stats *from, char *err, size_t errsz)
{
    if (!same_options(into, from, err, errsz)) return false;
    if (into->opt.system_unrecorded && !from->opt.system_unrecorded) xq_stats_set_system(into, from->opt.system);
    bool *over = &into->overflow;
    xq_count_add(&into->records, from->records, over);
    xq_count_add(&into->files_failed, from->files_failed, over);
    xq_count_add(&into->from_start, from->from_start, over);
    xq_count_add(&into->from_fen, from->from_fen, over);
    xq_count_add(&into->unreadable, from->unreadable, over);
    xq_count_add(&into->valid, from->valid, over);
    xq_count_add(&into->illegal, from->illegal, over);
    xq_count_add(&into->with_errors, from->with_errors, over);
    xq_count_add(&into->plies_total, from->plies_total, over);
    for (size_t i = from->ply_len; i-- > 0;)
        if (from->ply_hist[i] && !xq_stats_hist_add(into, i, from->ply_hist[i])) goto oom;
    for (int k = 0; k < XQ_FIND_KIND_COUNT; k++) xq_count_add(&into->kinds[k], from->kinds[k], over);
    for (int a = 0; a < XQ_NRESULTS; a++)
        for (int b = 0; b < XQ_NTERMS; b++)
            for (int c = 0; c < XQ_NRESULTS; c++) xq_count_add(&into->outcome[a][b][c], from->outcome[a][b][c], over);
    xq_count_add(&into->forfeit_red, from->forfeit_red, over);
    xq_count_add(&into->forfeit_black, from->forfeit_black, over);
    for (int i = 0; i < XQ_ECCO_CODES; i++) {
        xq_count_add(&into->ecco_tagged[i], from->ecco_tagged[i], over);
        xq_count_add(&into->ecco_class[i], from->ecco_class[i], over);
    }
    xq_count_add(&into->ecco_bad_tag, from->ecco_bad_tag, over);
    xq_count_add(&into->ecco_unclassified, from->ecco_unclassified, over);
    xq_count_add(&into->heldout_games, from->heldout_games, over);
    xq_count_add(&into->heldout_agree, from->heldout_agree, over);
    for (size_t i = 0; i < from->players.cap; i++) {
        const smap_entry *e = &from->players.slots[i];
        if (e->key && !xq_smap_add(&into->players, e->key, strlen(e->key), e->v)) goto oom;
    }
    for (size_t i = 0; i < from->events.cap; i++) {
        const smap_entry *e = &from->events.slots[i];
        if (e->key && !xq_smap_add(&into->events, e->key, strlen(e->key), e->v)) goto oom;
    }
    if (from->moves.has_zero && !xq_hset_add(&into->moves, 0)) goto oom;
    for (size_t i = 0; i < from->moves.cap; i++)
        if (from->moves.slots[i] && !xq_hset_add(&into->moves, from->moves.slots[i])) goto oom;
    if (from->tagged.has_zero && !xq_hset_add(&into->tagged, 0)) goto oom;
    for (size_t i = 0; i < from->tagged.cap; i++)
        if (from->tagged.slots[i] && !xq_hset_add(&into->tagged, from->tagged.slots[i])) goto oom;
    for (size_t i = 0; i < from->nev; i++) {
        const ev_game *e = &from->ev[i];
        if (!xq_stats_event_add(into, e->red, strlen(e->red), e->black, strlen(e->black), &e->g))
            goto oom;
    }
    if (xq_stats_overflowed(into)) {
        snprintf(err, errsz, "a count passes %llu (64 bits): the sum would be wrong",
                 (unsigned long long)UINT64_MAX);
        return false;
    }
    return true;
oom:
    snprintf(err, errsz, "out of memory");
    return false;
}

/* ---- derived figures --------------------------------------------------- */

uint64_t xq_stats_records(const xq_stats *s)
{
    return s->records;
}

uint64_t xq_stats_files_failed(const xq_stats *s)
{
    return s->files_failed;
}

uint64_t xq_stats_games(const xq_stats *s)
{
    return s->records - s->unreadable;
}

double xq_stats_median(const xq_stats *s)
{
    uint64_t n = xq_stats_games(s);
    if (!n) return 0;
    /* the mean of the elements of rank lo and hi (0-based) */
    uint64_t lo = (n - 1) / 2, hi = n / 2, seen = 0;
    double a = -1, b = -1;
    for (size_t i = 0; i < s->ply_len; i++) {
        uint64_t c = s->ply_hist[i];
        if (!c) continue;
        if (a < 0 && lo < seen + c) a = (double)i;
        if (b < 0 && hi < seen + c) {
            b = (double)i;
            break;
        }
        seen += c;
    }
    return (a + b) / 2;
}

bool xq_stats_result_from_str(const char *text, xq_result *out)
{
    static const char *const names[XQ_NRESULTS] = {"", "1-0", "0-1", "1/2-1/2", "*"};
    for (int i = 0; i < XQ_NRESULTS; i++)
        if (!strcmp(text, names[i])) {
            *out = (xq_result)i;
            return true;
        }
    return false;
}
