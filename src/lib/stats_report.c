/* stats_report.c - text and CSV reports of an accumulator, and event
 * standings with the CXA1999 §15.1 / §15.2 tie-breaks (see stats.h). */
#include "stats_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- standings --------------------------------------------------------- */

static int cmp_str_ptr(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static size_t name_index(const char **names, size_t n, const char *name)
{
    const char **p = bsearch(&name, names, n, sizeof *names, cmp_str_ptr);
    return (size_t)(p - names);
}

/* A row to sort, with the player's index before sorting. */
typedef struct {
    const xq_standing *row;
    xq_event_system system;
    size_t index;
} sort_item;

static int cmp_standing(const void *a, const void *b)
{
    const xq_standing *x = ((const sort_item *)a)->row, *y = ((const sort_item *)b)->row;
    if (x->score2 != y->score2) return x->score2 > y->score2 ? -1 : 1;
    if (x->tb4 != y->tb4) return x->tb4 > y->tb4 ? -1 : 1;
    if (x->wins != y->wins) return x->wins > y->wins ? -1 : 1;
    if (x->direct2 != y->direct2) return x->direct2 > y->direct2 ? -1 : 1;
    return strcmp(x->name, y->name);
}

static bool tied(const xq_standing *x, const xq_standing *y, bool direct)
{
    return x->score2 == y->score2 && x->tb4 == y->tb4 && x->wins == y->wins &&
           (!direct || x->direct2 == y->direct2);
}

void xq_standings_free(xq_standings *st)
{
    free(st->rows);
    free(st->red_row);
    free(st->black_row);
    free(st->game);
    free(st->duplicate);
    memset(st, 0, sizeof *st);
}

static bool decisive_or_draw(xq_result r)
{
    return r == XQ_RESULT_RED || r == XQ_RESULT_BLACK || r == XQ_RESULT_DRAW;
}

/* points x 2 of the red player (CXA1999 §14.1: win 1, draw 0.5, loss 0) */
static int red_points2(xq_result r)
{
    return r == XQ_RESULT_RED ? 2 : r == XQ_RESULT_DRAW ? 1 : 0;
}

/* Order of event games that puts copies of one game side by side:
 * round, players, result, move hash, when. */
static int cmp_same_game(const void *a, const void *b)
{
    const xq_event_game *x = *(const xq_event_game *const *)a, *y = *(const xq_event_game *const *)b;
    int c = xq_event_pairing_cmp(x, y);
    if (c) return c;
    if (x->move_hash != y->move_hash) return x->move_hash < y->move_hash ? -1 : 1;
    if (x->when != y->when) return x->when < y->when ? -1 : 1;
    return x < y ? -1 : x > y;   /* the first given stays the one counted */
}

/* Whether records x and y (neighbours in cmp_same_game's order) are one
 * game: the same round, players and result, and the same moves (a known
 * move hash).  A record without a move (a forfeit) has the moves of every
 * other one: its round must be known (a pair meets once a round), or else
 * its Date and Time agree with at least one of them recorded (two
 * forfeits of a double round robin without Round tags are two games). */
static bool same_game(const xq_event_game *x, const xq_event_game *y)
{
    if (!y->move_hash || x->round != y->round || strcmp(x->red, y->red) || strcmp(x->black, y->black) ||
        x->result != y->result || x->move_hash != y->move_hash)
        return false;
    if (!(x->no_moves || y->no_moves) || y->round) return true;
    return x->when == y->when && y->when != XQ_WHEN_UNKNOWN && y->when != XQ_WHEN_NONE;
}

/* Mark in copy[] the games (of n) that repeat an earlier one (same_game).
 * Such a record is the same game filed twice (by player and by event, or
 * two sources merged); counting it twice would score one game two times.
 * false on out-of-memory. */
static bool mark_copies(const xq_event_game *games, size_t n, bool *copy)
{
    const xq_event_game **v = malloc((n + 1) * sizeof *v);
    if (!v) return false;
    for (size_t i = 0; i < n; i++) v[i] = &games[i];
    qsort(v, n, sizeof *v, cmp_same_game);
    for (size_t i = 1; i < n; i++)
        if (same_game(v[i - 1], v[i])) copy[v[i] - games] = true;
    free(v);
    return true;
}

/* For XQ_SYSTEM_AUTO's choice: when the pairs of np players did not all
 * meet the same number of times (meet: np x np counts), name the first
 * pair and one that met a different number of times. */
static void find_uneven(xq_standings *st, const int *meet, size_t np, const char *const *names)
{
    int k = meet[1];
    for (size_t i = 0; i < np; i++)
        for (size_t j = i + 1; j < np; j++)
            if (meet[i * np + j] != k) {
                st->uneven[0] = names[0];
                st->uneven[1] = names[1];
                st->uneven[2] = names[i];
                st->uneven[3] = names[j];
                st->uneven_met[0] = k;
                st->uneven_met[1] = meet[i * np + j];
                return;
            }
}

bool xq_standings_compute(const xq_event_game *games, size_t n, xq_event_system system, xq_standings *st)
{
    memset(st, 0, sizeof *st);
    const char **names = malloc((2 * n + 1) * sizeof *names);
    size_t *pr = malloc((n + 1) * sizeof *pr), *pb = malloc((n + 1) * sizeof *pb);
    sort_item *items = NULL;
    size_t *row_of = NULL;
    int *meet = NULL;
    bool *copy = calloc(n + 1, sizeof *copy);
    bool ok = false;
    if (!names || !pr || !pb || !copy || !mark_copies(games, n, copy)) goto done;
    st->duplicate = malloc((n + 1) * sizeof *st->duplicate);
    if (!st->duplicate) goto done;
    size_t nn = 0, ng = 0;
    for (size_t i = 0; i < n; i++) {
        if (copy[i]) {
            st->duplicate[st->nduplicates++] = &games[i];
            continue;
        }
        if (!decisive_or_draw(games[i].result)) {
            st->left_out++;
            continue;
        }
        names[nn++] = games[i].red;
        names[nn++] = games[i].black;
    }
    qsort(names, nn, sizeof *names, cmp_str_ptr);
    size_t np = 0;
    for (size_t i = 0; i < nn; i++)
        if (!np || strcmp(names[np - 1], names[i])) names[np++] = names[i];

    st->rows = calloc(np + 1, sizeof *st->rows);
    st->game = malloc((n + 1) * sizeof *st->game);
    if (!st->rows || !st->game) goto done;
    st->nplayers = np;
    for (size_t i = 0; i < np; i++) {
        st->rows[i].name = names[i];
        st->rows[i].direct2 = -1;
    }
    /* per player sums; pr/pb: player index of each counted game */
    for (size_t i = 0; i < n; i++) {
        if (copy[i] || !decisive_or_draw(games[i].result)) continue;
        size_t r = name_index(names, np, games[i].red), b = name_index(names, np, games[i].black);
        int p2 = red_points2(games[i].result);
        xq_standing *R = &st->rows[r], *B = &st->rows[b];
        R->games++;
        B->games++;
        R->score2 += p2;
        B->score2 += 2 - p2;
        if (p2 == 2) { R->wins++; B->losses++; }
        else if (p2 == 0) { B->wins++; R->losses++; }
        else { R->draws++; B->draws++; }
        pr[ng] = r;
        pb[ng] = b;
        st->game[ng++] = &games[i];
    }
    st->ngames = ng;

    /* round robin when every pair met equally often (at least once) */
    if (system == XQ_SYSTEM_AUTO) {
        system = XQ_SYSTEM_SWISS;
        if (np >= 2 && np <= 4096) {
            meet = calloc(np * np, sizeof *meet);
            if (!meet) goto done;
            for (size_t g = 0; g < ng; g++) {
                meet[pr[g] * np + pb[g]]++;
                meet[pb[g] * np + pr[g]]++;
            }
            int k = meet[1];
            bool all = k > 0;
            for (size_t i = 0; i < np && all; i++)
                for (size_t j = i + 1; j < np && all; j++) all = meet[i * np + j] == k;
            if (all) system = XQ_SYSTEM_ROUND_ROBIN;
            else find_uneven(st, meet, np, names);
        }
    }
    st->system = system;

    /* 小分 (Sonneborn-Berger) or 對手分 (opponents' scores), x 4 */
    for (size_t g = 0; g < ng; g++) {
        xq_standing *R = &st->rows[pr[g]], *B = &st->rows[pb[g]];
        if (system == XQ_SYSTEM_ROUND_ROBIN) {
            int p2 = red_points2(st->game[g]->result);
            R->tb4 += p2 * B->score2;        /* win: 2 x opponent's score2 = 4 x score; draw: half */
            B->tb4 += (2 - p2) * R->score2;
        } else {
            R->tb4 += 2 * B->score2;
            B->tb4 += 2 * R->score2;
        }
    }

    items = malloc((np + 1) * sizeof *items);
    row_of = malloc((np + 1) * sizeof *row_of);
    if (!items || !row_of) goto done;
    for (size_t i = 0; i < np; i++) items[i] = (sort_item){&st->rows[i], system, i};
    qsort(items, np, sizeof *items, cmp_standing);

    /* direct encounter (直勝): points among the players tied on score, 小分 and wins */
    if (system == XQ_SYSTEM_ROUND_ROBIN) {
        size_t *group = calloc(np + 1, sizeof *group);   /* player -> 1 + first item of its tie group */
        if (!group) goto done;
        for (size_t i = 0; i < np;) {
            size_t j = i + 1;
            while (j < np && tied(items[i].row, items[j].row, false)) j++;
            if (j - i >= 2)
                for (size_t k = i; k < j; k++) {
                    group[items[k].index] = i + 1;
                    st->rows[items[k].index].direct2 = 0;
                }
            i = j;
        }
        for (size_t g = 0; g < ng; g++) {
            size_t r = pr[g], b = pb[g];
            if (!group[r] || group[r] != group[b]) continue;
            int p2 = red_points2(st->game[g]->result);
            st->rows[r].direct2 += p2;
            st->rows[b].direct2 += 2 - p2;
        }
        free(group);
        qsort(items, np, sizeof *items, cmp_standing);
    }

    /* the rows in rank order, shared ranks for what no tie-break separates */
    xq_standing *sorted = malloc((np + 1) * sizeof *sorted);
    if (!sorted) goto done;
    for (size_t i = 0; i < np; i++) {
        sorted[i] = *items[i].row;
        row_of[items[i].index] = i;
        sorted[i].rank = i && tied(&sorted[i - 1], &sorted[i], system == XQ_SYSTEM_ROUND_ROBIN)
                             ? sorted[i - 1].rank : (int)i + 1;
    }
    free(st->rows);
    st->rows = sorted;
    st->red_row = malloc((ng + 1) * sizeof *st->red_row);
    st->black_row = malloc((ng + 1) * sizeof *st->black_row);
    if (!st->red_row || !st->black_row) goto done;
    for (size_t g = 0; g < ng; g++) {
        st->red_row[g] = row_of[pr[g]];
        st->black_row[g] = row_of[pb[g]];
    }
    ok = true;
done:
    free(names);
    free(pr);
    free(pb);
    free(items);
    free(row_of);
    free(meet);
    free(copy);
    if (!ok) xq_standings_free(st);
    return ok;
}

/* ---- aligned text tables ----------------------------------------------- */

/* Display columns of one code point (East Asian Wide and Fullwidth: 2). */
static int cp_width(unsigned long c)
{
    if (c == 0) return 0;
    if (c >= 0x300 && c <= 0x36F) return 0;   /* combining marks */
    if ((c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0x303E) || (c >= 0x3041 && c <= 0x33FF) ||
        (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xA000 && c <= 0xA4CF) ||
        (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE30 && c <= 0xFE4F) ||
        (c >= 0xFF00 && c <= 0xFF60) || (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x20000 && c <= 0x3FFFD))
        return 2;
    return 1;
}

static int text_width(const char *s)
{
    int w = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned long c;
        int len;
        if (*p < 0x80) { c = *p; len = 1; }
        else if ((*p & 0xE0) == 0xC0 && p[1]) { c = (*p & 0x1Fu) << 6 | (p[1] & 0x3Fu); len = 2; }
        else if ((*p & 0xF0) == 0xE0 && p[1] && p[2]) {
            c = (*p & 0x0Fu) << 12 | (p[1] & 0x3Fu) << 6 | (p[2] & 0x3Fu);
            len = 3;
        } else if ((*p & 0xF8) == 0xF0 && p[1] && p[2] && p[3]) {
            c = (*p & 0x07u) << 18 | (p[1] & 0x3Fu) << 12 | (p[2] & 0x3Fu) << 6 | (p[3] & 0x3Fu);
            len = 4;
        } else { c = 0xFFFD; len = 1; }
        w += cp_width(c);
        p += len;
    }
    return w;
}

typedef struct {
    char **cells;            /* rows x ncols, malloc'd strings */
    size_t ncols, nrows, cap;
    unsigned right;          /* bit c: column c right-aligned */
    bool oom;
} table;

static void table_init(table *t, size_t ncols, unsigned right)
{
    memset(t, 0, sizeof *t);
    t->ncols = ncols;
    t->right = right;
}

/* Append one row of ncols printf-formatted cells: a format string per
 * cell is not practical, so cells are given as already-formatted strings. */
static void table_row(table *t, ...)
{
    if (t->oom) return;
    if ((t->nrows + 1) * t->ncols > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 16 * t->ncols;
        char **c = realloc(t->cells, cap * sizeof *c);
        if (!c) { t->oom = true; return; }
        t->cells = c;
        t->cap = cap;
    }
    va_list ap;
    va_start(ap, t);
    for (size_t i = 0; i < t->ncols; i++) {
        const char *s = va_arg(ap, const char *);
        char *d = xq_name_dup(s ? s : "");   /* names in the one rule (game.h): widths counted escaped */
        if (!d) t->oom = true;
        t->cells[t->nrows * t->ncols + i] = d;
    }
    va_end(ap);
    t->nrows++;
}

/* Same, from an array of cells. */
static void table_row_v(table *t, char *const *cells)
{
    if (t->oom) return;
    if ((t->nrows + 1) * t->ncols > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 16 * t->ncols;
        while (cap < (t->nrows + 1) * t->ncols) cap *= 2;
        char **c = realloc(t->cells, cap * sizeof *c);
        if (!c) { t->oom = true; return; }
        t->cells = c;
        t->cap = cap;
    }
    for (size_t i = 0; i < t->ncols; i++) {
        char *d = xq_name_dup(cells[i] ? cells[i] : "");
        if (!d) t->oom = true;
        t->cells[t->nrows * t->ncols + i] = d;
    }
    t->nrows++;
}

/* Print with two spaces between columns and `indent` spaces before;
 * trailing blanks are not written.  Frees the table.  False when memory
 * ran out, here or for a row (t->oom): rows are then missing. */
static bool table_print(FILE *o, table *t, int indent)
{
    bool ok = !t->oom;
    int *w = calloc(t->ncols ? t->ncols : 1, sizeof *w);
    for (size_t r = 0; w && r < t->nrows; r++)
        for (size_t c = 0; c < t->ncols; c++) {
            const char *s = t->cells[r * t->ncols + c];
            int x = s ? text_width(s) : 0;
            if (x > w[c]) w[c] = x;
        }
    for (size_t r = 0; w && r < t->nrows; r++) {
        /* last non-empty cell, so no trailing blanks */
        size_t last = 0;
        for (size_t c = 0; c < t->ncols; c++) {
            const char *s = t->cells[r * t->ncols + c];
            if (s && *s) last = c + 1;
        }
        fprintf(o, "%*s", indent, "");
        for (size_t c = 0; c < last; c++) {
            const char *s = t->cells[r * t->ncols + c];
            if (!s) s = "";
            int pad = w[c] - text_width(s);
            if (c) fputs("  ", o);
            if (t->right & (1u << c)) fprintf(o, "%*s%s", pad, "", s);
            else if (c + 1 < last) fprintf(o, "%s%*s", s, pad, "");
            else fputs(s, o);
        }
        putc('\n', o);
    }
    if (!w) ok = false;
    free(w);
    for (size_t i = 0; i < t->nrows * t->ncols; i++) free(t->cells[i]);
    free(t->cells);
    memset(t, 0, sizeof *t);
    return ok;
}

/* Number formatting into rotating static-free buffers: each call site
 * passes its own buffer. */
static const char *u64s(char buf[24], uint64_t v)
{
    snprintf(buf, 24, "%" PRIu64, v);
    return buf;
}

static const char *pct(char buf[24], uint64_t part, uint64_t whole)
{
    if (!whole) snprintf(buf, 24, "-");
    else snprintf(buf, 24, "%.1f%%", 100.0 * (double)part / (double)whole);
    return buf;
}

/* A score in halves as "2.5". */
static const char *halves(char buf[24], int64_t v2)
{
    if (v2 % 2) snprintf(buf, 24, "%" PRId64 ".5", v2 / 2);
    else snprintf(buf, 24, "%" PRId64, v2 / 2);
    return buf;
}

/* A player's score, wins + draws / 2 (CXA1999 §14.1), as "2.5", exact
 * for any counts (a merge may sum them near 2^64: 2 x wins does not fit
 * 64 bits). buf: 48 bytes. */
static const char *score_text(char buf[48], uint64_t wins, uint64_t draws)
{
    unsigned __int128 whole = (unsigned __int128)wins + draws / 2;
    char digits[48];
    size_t n = 0;
    do {
        digits[n++] = (char)('0' + (int)(whole % 10));
        whole /= 10;
    } while (whole);
    for (size_t i = 0; i < n; i++) buf[i] = digits[n - 1 - i];
    snprintf(buf + n, 48 - n, "%s", draws % 2 ? ".5" : "");
    return buf;
}

/* The part of a player's games with a result that the score is, as
 * "62.5%", or "-" when none has one. buf: 24 bytes. */
static const char *score_share(char buf[24], const uint64_t v[PL_NVALUES])
{
    long double scored = (long double)v[PL_WINS] + (long double)v[PL_DRAWS] + (long double)v[PL_LOSSES];
    if (scored == 0) snprintf(buf, 24, "-");
    else snprintf(buf, 24, "%.1f%%", (double)(100.0L * ((long double)v[PL_WINS] + (long double)v[PL_DRAWS] / 2) / scored));
    return buf;
}

/* A value in quarters as "2.75". */
static const char *quarters(char buf[24], int64_t v4)
{
    snprintf(buf, 24, "%g", (double)v4 / 4.0);
    return buf;
}

/* ---- the report's building blocks, shared by text and CSV --------------- */

static const char *result_label(int r)
{
    return r == XQ_RESULT_NONE ? "none" : xq_result_str((xq_result)r);
}

static const char *const ENDING_NAMES[XQ_NTERMS] = {
    [XQ_TERM_NONE] = "no ending on the board",
    [XQ_TERM_CHECKMATE] = "checkmate",
    [XQ_TERM_STALEMATE] = "stalemate",
    [XQ_TERM_REPETITION] = "repetition",
    [XQ_TERM_MOVE_LIMIT] = "move limit",
    [XQ_TERM_DEAD_POSITION] = "dead position",
    [XQ_TERM_ILLEGAL_MOVE] = "illegal move",
};

/* Games by Result tag. */
static uint64_t by_tag(const xq_stats *s, int tag)
{
    uint64_t n = 0;
    for (int t = 0; t < XQ_NTERMS; t++)
        for (int b = 0; b < XQ_NRESULTS; b++) n += s->outcome[tag][t][b];
    return n;
}

/* Games by ending and board result. */
static uint64_t by_board(const xq_stats *s, int term, int board)
{
    uint64_t n = 0;
    for (int a = 0; a < XQ_NRESULTS; a++) n += s->outcome[a][term][board];
    return n;
}

/* Ordering for the top-N tables: by count desc, then key. */
typedef struct {
    const char *key;
    uint64_t n;
    int code;
    const uint64_t *v;
} ranked;

static int cmp_ranked(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->n != y->n) return x->n > y->n ? -1 : 1;
    if (x->key && y->key) return strcmp(x->key, y->key);
    return (x->code > y->code) - (x->code < y->code);
}

static ranked *rank_map(const smap *m)
{
    ranked *v = malloc((m->count + 1) * sizeof *v);
    if (!v) return NULL;
    size_t n = 0;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].key) v[n++] = (ranked){m->slots[i].key, m->slots[i].v[PL_GAMES], 0, m->slots[i].v};
    qsort(v, n, sizeof *v, cmp_ranked);
    return v;
}

static size_t limit(size_t n, int top)
{
    return top > 0 && (size_t)top < n ? (size_t)top : n;
}

/* histogram bucket width: a multiple of 10 giving at most 25 buckets */
static size_t bucket_width(const xq_stats *s)
{
    size_t max = 0;
    for (size_t i = 0; i < s->ply_len; i++)
        if (s->ply_hist[i]) max = i;
    size_t w = 10;
    while ((max / w) + 1 > 25) w += 10;
    return w;
}

/* ---- text -------------------------------------------------------------- */

/* (titles quote event names: in the one rule, game.h xq_name_put) */
static void heading(FILE *o, const char *title)
{
    putc('\n', o);
    xq_name_put(o, title);
    putc('\n', o);
}

/* Each text_* section returns false when memory ran out and a part of it
 * is missing (xq_stats_write_text). */
static bool text_counts(FILE *o, const xq_stats *s)
{
    char a[24], b[24], c[24];
    uint64_t games = xq_stats_games(s);
    table t;
    table_init(&t, 3, 6);
    fputs("Counts\n", o);
    table_row(&t, "records", u64s(a, s->records), "");
    /* only when some input failed, so that a complete report reads as before;
     * a label no wider than the others, so that the row is the only change */
    if (s->files_failed) table_row(&t, "input files failed (incomplete)", u64s(a, s->files_failed), "");
    table_row(&t, "games from the start position", u64s(a, s->from_start), pct(b, s->from_start, s->records));
    table_row(&t, "games from a FEN position", u64s(a, s->from_fen), pct(b, s->from_fen, s->records));
    table_row(&t, "unreadable (no position)", u64s(a, s->unreadable), pct(b, s->unreadable, s->records));
    table_row(&t, "valid (every move legal)", u64s(a, s->valid), pct(b, s->valid, s->records));
    table_row(&t, "with an illegal or unreadable move", u64s(a, s->illegal), pct(b, s->illegal, s->records));
    table_row(&t, "with errors (as xq-validate)", u64s(a, s->with_errors), pct(b, s->with_errors, s->records));
    table_row(&t, "distinct games by moves", u64s(a, s->moves.count), pct(b, s->moves.count, s->records));
    table_row(&t, "distinct games by moves and tags", u64s(a, s->tagged.count), pct(b, s->tagged.count, s->records));
    bool ok = table_print(o, &t, 2);

    heading(o, "Plies (half-moves played legally, games with a position)");
    table_init(&t, 2, 2);
    table_row(&t, "total", u64s(a, s->plies_total));
    snprintf(b, sizeof b, "%.2f", games ? (double)s->plies_total / (double)games : 0.0);
    table_row(&t, "mean", b);
    snprintf(c, sizeof c, "%.1f", xq_stats_median(s));
    table_row(&t, "median", c);
    ok = table_print(o, &t, 2) && ok;

    if (!games) return ok;
    heading(o, "Game lengths");
    size_t w = bucket_width(s);
    uint64_t most = 0;
    size_t nb = 0;
    for (size_t i = 0; i < s->ply_len; i++)
        if (s->ply_hist[i]) nb = i / w + 1;
    uint64_t *bucket = calloc(nb + 1, sizeof *bucket);
    if (!bucket) return false;
    for (size_t i = 0; i < s->ply_len; i++)
        if (s->ply_hist[i]) bucket[i / w] += s->ply_hist[i];
    for (size_t i = 0; i < nb; i++)
        if (bucket[i] > most) most = bucket[i];
    table_init(&t, 4, 2);
    table_row(&t, "plies", "games", "", "");
    for (size_t i = 0; i < nb; i++) {
        char range[48], bar[64];
        snprintf(range, sizeof range, "%zu-%zu", i * w, i * w + w - 1);
        size_t len = most ? (size_t)((bucket[i] * 40 + most - 1) / most) : 0;
        memset(bar, '#', len);
        bar[len] = '\0';
        table_row(&t, range, u64s(a, bucket[i]), pct(b, bucket[i], games), bar);
    }
    free(bucket);
    return table_print(o, &t, 2) && ok;
}

static bool text_findings(FILE *o, const xq_stats *s)
{
    char a[24], b[24];
    heading(o, "Games with findings, by kind (as xq-validate; warnings included)");
    table t;
    table_init(&t, 3, 6);
    int rows = 0;
    for (int k = 0; k < XQ_FIND_KIND_COUNT; k++) {
        if (!s->kinds[k]) continue;
        table_row(&t, xq_finding_kind_str((xq_finding_kind)k), u64s(a, s->kinds[k]), pct(b, s->kinds[k], s->records));
        rows++;
    }
    if (!rows) table_row(&t, "none", "", "");
    return table_print(o, &t, 2);
}

static bool text_results(FILE *o, const xq_stats *s)
{
    char a[24], b[24], c[24], d[24], e[24];
    heading(o, "Results by the Result tag");
    table t;
    table_init(&t, 3, 6);
    static const int order[] = {XQ_RESULT_RED, XQ_RESULT_BLACK, XQ_RESULT_DRAW, XQ_RESULT_UNKNOWN, XQ_RESULT_NONE};
    for (int i = 0; i < 5; i++) {
        uint64_t n = by_tag(s, order[i]);
        table_row(&t, result_label(order[i]), u64s(a, n), pct(b, n, s->records));
    }
    bool ok = table_print(o, &t, 2);

    /* the endings are CXA1999's under either rule set; the verdicts on
     * repetitions are the set's (--rules axf: the Asian rules) */
    heading(o, s->opt.rules.rules == XQ_RULES_AXF
                   ? "Results by the board (what the rules prove; CXA1999 §3, §4; repetition by the AXF rules)"
                   : "Results by the board (what the rules prove; CXA1999 §3, §4)");
    table_init(&t, 6, 0x3E);
    table_row(&t, "ending", "1-0", "0-1", "1/2-1/2", "undecided", "games");
    for (int term = 1; term < XQ_NTERMS; term++) {
        uint64_t tot = 0;
        for (int r = 0; r < XQ_NRESULTS; r++) tot += by_board(s, term, r);
        const char *name = term == XQ_TERM_REPETITION ? "repetition (verdict)" : ENDING_NAMES[term];
        table_row(&t, name, u64s(a, by_board(s, term, XQ_RESULT_RED)), u64s(b, by_board(s, term, XQ_RESULT_BLACK)),
                  u64s(c, by_board(s, term, XQ_RESULT_DRAW)), u64s(d, by_board(s, term, XQ_RESULT_UNKNOWN)),
                  u64s(e, tot));
    }
    /* no ending on the board: the tag tells resignation, agreement, or nothing */
    uint64_t red = 0, black = 0, draw = 0, unknown = 0;
    for (int b2 = 0; b2 < XQ_NRESULTS; b2++) {
        red += s->outcome[XQ_RESULT_RED][XQ_TERM_NONE][b2];
        black += s->outcome[XQ_RESULT_BLACK][XQ_TERM_NONE][b2];
        draw += s->outcome[XQ_RESULT_DRAW][XQ_TERM_NONE][b2];
        unknown += s->outcome[XQ_RESULT_UNKNOWN][XQ_TERM_NONE][b2] + s->outcome[XQ_RESULT_NONE][XQ_TERM_NONE][b2];
    }
    /* a decisive game without a move was not resigned: forfeited (棄權,
     * CXA1999 §20.3-20.4), lost by lateness (§21.1) or never played */
    red -= s->forfeit_red < red ? s->forfeit_red : red;
    black -= s->forfeit_black < black ? s->forfeit_black : black;
    table_row(&t, "resignation (by the tag)", u64s(a, red), u64s(b, black), "", "", u64s(e, red + black));
    table_row(&t, "forfeit (no move)", u64s(a, s->forfeit_red), u64s(b, s->forfeit_black), "", "",
              u64s(e, s->forfeit_red + s->forfeit_black));
    table_row(&t, "agreed draw (by the tag)", "", "", u64s(c, draw), "", u64s(e, draw));
    table_row(&t, "unknown (no result)", "", "", "", u64s(d, unknown), u64s(e, unknown));
    ok = table_print(o, &t, 2) && ok;

    heading(o, "Where the Result tag and the board disagree");
    table_init(&t, 4, 8);
    table_row(&t, "Result tag", "board", "ending", "games");
    int rows = 0;
    for (int tag = 0; tag < XQ_NRESULTS; tag++)
        for (int term = 0; term < XQ_NTERMS; term++)
            for (int board = 0; board < XQ_NRESULTS; board++) {
                uint64_t n = s->outcome[tag][term][board];
                if (!n || board == XQ_RESULT_UNKNOWN || board == tag) continue;
                table_row(&t, result_label(tag), result_label(board), ENDING_NAMES[term], u64s(a, n));
                rows++;
            }
    if (!rows) table_row(&t, "none", "", "", "");
    return table_print(o, &t, 2) && ok;
}

static ranked *rank_codes(const xq_stats *s, size_t *count)
{
    ranked *v = malloc(XQ_ECCO_CODES * sizeof *v);
    size_t n = 0;
    for (int c = 0; v && c < XQ_ECCO_CODES; c++) {
        uint64_t tot = s->ecco_tagged[c] + s->ecco_class[c];
        if (tot) v[n++] = (ranked){NULL, tot, c, NULL};
    }
    if (v) qsort(v, n, sizeof *v, cmp_ranked);
    *count = n;
    return v;
}

static bool text_openings(FILE *o, const xq_stats *s, int top)
{
    char a[24], b[24], c[24], d[96];
    size_t n;
    ranked *v = rank_codes(s, &n);
    if (!v) return false;
    uint64_t tagged = 0, classified = 0;
    for (int i = 0; i < XQ_ECCO_CODES; i++) {
        tagged += s->ecco_tagged[i];
        classified += s->ecco_class[i];
    }
    char title[128];
    if (limit(n, top) < n) snprintf(title, sizeof title, "Openings (ECCO; the %zu most frequent of %zu codes)", limit(n, top), n);
    else snprintf(title, sizeof title, "Openings (ECCO; %zu code%s)", n, n == 1 ? "" : "s");
    heading(o, title);
    table t;
    table_init(&t, 6, 0x38);
    table_row(&t, "code", "opening", "", "tagged", "classified", "games");
    for (size_t i = 0; i < limit(n, top); i++) {
        int code = v[i].code;
        char cs[4];
        table_row(&t, xq_ecco_format(code, cs), xq_ecco_opening(code), xq_ecco_variation(code),
                  u64s(a, s->ecco_tagged[code]), u64s(b, s->ecco_class[code]), u64s(c, v[i].n));
    }
    bool ok = table_print(o, &t, 2);
    free(v);
    fputc('\n', o);
    table_init(&t, 2, 2);
    table_row(&t, "games with an ECCO tag", u64s(a, tagged));
    table_row(&t, "ECCO tag that is not a code", u64s(a, s->ecco_bad_tag));
    table_row(&t, "untagged, classified from the moves", u64s(a, classified));
    table_row(&t, "untagged, not classified (FEN start, no moves)", u64s(a, s->ecco_unclassified));
    snprintf(d, sizeof d, "%s of %s (%s)", u64s(a, s->heldout_agree), u64s(b, s->heldout_games),
             pct(c, s->heldout_agree, s->heldout_games));
    table_row(&t, "classifier = tag, on tagged games it did not learn", d);
    return table_print(o, &t, 2) && ok;
}

/* The players' sums as the reports show them: s->players less the
 * records of the selected event that its standings count once (copies of
 * one game: xq_standings_compute), so that the Players table and the
 * standings agree.  Copies elsewhere in the database are not known (only
 * the event's games are kept): those count as records. */
typedef struct {
    ranked *rows;       /* n, by name (strcmp); v points into vals */
    uint64_t *vals;     /* n x PL_NVALUES sums */
    size_t n;
    size_t copies;      /* event records taken off (each once, for both players) */
} player_rows;

/* Frees the rows; copies stays (for the notes). */
static void player_rows_free(player_rows *p)
{
    free(p->rows);
    free(p->vals);
    p->rows = NULL;
    p->vals = NULL;
    p->n = 0;
}

static int cmp_row_name(const void *key, const void *row)
{
    return strcmp(key, ((const ranked *)row)->key);
}

/* Take one game of colour me off its player's row (none: a name the map
 * does not hold, an absent one). */
static void player_row_take(player_rows *p, const char *name, xq_result result, xq_color me)
{
    ranked *r = *name ? bsearch(name, p->rows, p->n, sizeof *p->rows, cmp_row_name) : NULL;
    if (!r) return;
    uint64_t one[PL_NVALUES], *v = p->vals + (size_t)(r - p->rows) * PL_NVALUES;
    xq_stats_player_values(result, me, one);
    for (int k = 0; k < PL_NVALUES; k++) v[k] -= one[k];
    r->n = v[PL_GAMES];
}

/* by_name: p->rows in name order (else in the map's, when no copy is to
 * be taken off: the text report sorts them by games anyway).  false on
 * out-of-memory (*p then empty). */
static bool players_counted(const xq_stats *s, player_rows *p, bool by_name)
{
    memset(p, 0, sizeof *p);
    bool copies = s->opt.event && s->nev;
    smap_entry **e = by_name || copies ? xq_smap_sorted(&s->players) : NULL;
    p->rows = malloc((s->players.count + 1) * sizeof *p->rows);
    p->vals = malloc((s->players.count + 1) * PL_NVALUES * sizeof *p->vals);
    bool ok = (e || !(by_name || copies)) && p->rows && p->vals;
    for (size_t i = 0, k = 0; ok && i < (e ? s->players.count : s->players.cap); i++) {
        const smap_entry *x = e ? e[i] : &s->players.slots[i];
        if (!x->key) continue;
        uint64_t *v = p->vals + k * PL_NVALUES;
        memcpy(v, x->v, PL_NVALUES * sizeof *v);
        p->rows[k++] = (ranked){x->key, v[PL_GAMES], 0, v};
    }
    free(e);
    p->n = ok ? s->players.count : 0;
    if (ok && copies) {
        xq_event_game *games = xq_stats_event_games(s);
        xq_standings st;
        ok = games && xq_standings_compute(games, s->nev, XQ_SYSTEM_AUTO, &st);
        for (size_t i = 0; ok && i < st.nduplicates; i++) {
            player_row_take(p, st.duplicate[i]->red, st.duplicate[i]->result, XQ_RED);
            player_row_take(p, st.duplicate[i]->black, st.duplicate[i]->result, XQ_BLACK);
        }
        if (ok) {
            p->copies = st.nduplicates;
            xq_standings_free(&st);
        }
        free(games);
    }
    if (!ok) player_rows_free(p);
    if (!ok) memset(p, 0, sizeof *p);
    return ok;
}

/* The records of the selected event that its standings count once
 * (copies of one of its games: xq_standings_compute) into *copies, 0
 * without --event: the events table takes them off that event's row as
 * players_counted takes them off the players' rows, so that the two
 * tables and the standings agree.  false on out-of-memory. */
static bool event_copies(const xq_stats *s, size_t *copies)
{
    *copies = 0;
    if (!s->opt.event || !s->nev) return true;
    xq_event_game *games = xq_stats_event_games(s);
    xq_standings st;
    bool ok = games && xq_standings_compute(games, s->nev, XQ_SYSTEM_AUTO, &st);
    if (ok) {
        *copies = st.nduplicates;
        xq_standings_free(&st);
    }
    free(games);
    return ok;
}

/* The count of an events row (name key, n records) as the reports show
 * it: less the selected event's copies (event_copies). */
static uint64_t event_games(const xq_stats *s, const char *key, uint64_t n, size_t copies)
{
    return copies && !strcmp(key, s->opt.event) ? n - copies : n;
}

/* ---- notes ------------------------------------------------------------ */

/* A note as a text line under its table (ctx: the FILE). */
static bool text_note(void *ctx, const char *kind, const char *text)
{
    (void)kind;
    fputs("  note: ", ctx);
    xq_name_put(ctx, text);   /* (quotes names: the one rule, game.h) */
    putc('\n', ctx);
    return true;
}

/* A note's text as a malloc'd string (NULL when memory ran out): game e
 * named ("round 3, A - B 1-0"; NULL: none), then fmt. */
static char *note_text(const xq_event_game *e, const char *fmt, ...)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return NULL;
    if (e) {
        if (e->round) fprintf(m, "round %d, ", e->round);
        else fputs("round unknown, ", m);
        fprintf(m, "%s - %s %s", e->red, e->black, xq_result_str(e->result));
    }
    va_list ap;
    va_start(ap, fmt);
    vfprintf(m, fmt, ap);
    va_end(ap);
    bool failed = ferror(m) != 0;
    if (fclose(m) != 0 || failed) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Give text (taken: freed here) to sink; false when it is NULL (no memory)
 * or the sink failed. */
static bool note_give(xq_note_sink sink, void *ctx, const char *kind, char *text)
{
    bool ok = text && sink(ctx, kind, text);
    free(text);
    return ok;
}

bool xq_stats_event_notes(const xq_standings *st, xq_note_sink sink, void *ctx)
{
    bool ok = true;
    for (size_t i = 0; i < st->nduplicates; i++)
        ok = note_give(sink, ctx, "copy",
                       note_text(st->duplicate[i], " is recorded again with the same moves: the same game, scored once")) &&
             ok;
    for (size_t g = 0; g < st->ngames; g++) {
        const xq_event_game *e = st->game[g];
        if (e->board != XQ_RESULT_NONE && e->board != e->result)
            ok = note_give(sink, ctx, "board",
                           note_text(e, ": the board gives %s (%s); scored as the Result tag, the arbiter's record",
                                     xq_result_str(e->board), xq_termination_str(e->ending))) &&
                 ok;
        if (e->no_moves && e->result != XQ_RESULT_DRAW)
            ok = note_give(sink, ctx, "forfeit",
                           note_text(e, " has no move: a forfeit (棄權, CXA1999 §20.3-20.4, §21.1) or not played; "
                                        "scored as the tag")) &&
                 ok;
    }
    return ok;
}

/* The note that a players table counts the event's copies once (none
 * when there were none: true). */
static bool note_player_copies(const xq_stats *s, const player_rows *p, xq_note_sink sink, void *ctx)
{
    if (!p->copies) return true;
    return note_give(sink, ctx, "players",
                     note_text(NULL, "%zu record%s of event \"%s\" repeat%s one of its games (same round, players, "
                                     "result and moves): counted once in the players and events tables, as in its standings",
                               p->copies, p->copies == 1 ? "" : "s", s->opt.event, p->copies == 1 ? "s" : ""));
}

static bool text_players(FILE *o, const xq_stats *s, int top)
{
    char a[24], b[24], c[24], d[24], e[24];
    player_rows pr;
    if (!players_counted(s, &pr, false)) return false;
    ranked *v = pr.rows;
    size_t n = pr.n;
    qsort(v, n, sizeof *v, cmp_ranked);
    char title[160];
    snprintf(title, sizeof title, "Players (%s%zu of %zu, by games; score CXA1999 §14.1: win 1, draw 0.5, loss 0)",
             limit(n, top) < n ? "the " : "", limit(n, top), n);
    heading(o, title);
    table t;
    table_init(&t, 8, 0xFE);
    table_row(&t, "player", "games", "wins", "draws", "losses", "no result", "score", "score %");
    for (size_t i = 0; i < limit(n, top); i++) {
        const uint64_t *pv = v[i].v;
        /* (the games without a result: none when made-up parts say more
         * results than games) */
        unsigned __int128 scored = (unsigned __int128)pv[PL_WINS] + pv[PL_DRAWS] + pv[PL_LOSSES];
        uint64_t unscored = scored < pv[PL_GAMES] ? pv[PL_GAMES] - (uint64_t)scored : 0;
        char sp[24], score[48];
        table_row(&t, v[i].key, u64s(a, pv[PL_GAMES]), u64s(b, pv[PL_WINS]), u64s(c, pv[PL_DRAWS]),
                  u64s(d, pv[PL_LOSSES]), u64s(e, unscored), score_text(score, pv[PL_WINS], pv[PL_DRAWS]),
                  score_share(sp, pv));
    }
    bool ok = table_print(o, &t, 2);
    ok = note_player_copies(s, &pr, text_note, o) && ok;
    player_rows_free(&pr);
    return ok;
}

static bool text_events(FILE *o, const xq_stats *s, int top)
{
    char a[24];
    size_t copies;
    if (!event_copies(s, &copies)) return false;
    ranked *v = rank_map(&s->events);
    if (!v) return false;
    size_t n = s->events.count;
    if (copies) {   /* (the event's row moves down by its copies) */
        for (size_t i = 0; i < n; i++) v[i].n = event_games(s, v[i].key, v[i].n, copies);
        qsort(v, n, sizeof *v, cmp_ranked);
    }
    char title[128];
    snprintf(title, sizeof title, "Events (%s%zu of %zu, by games)", limit(n, top) < n ? "the " : "", limit(n, top), n);
    heading(o, title);
    table t;
    table_init(&t, 2, 2);
    table_row(&t, "event", "games");
    for (size_t i = 0; i < limit(n, top); i++) table_row(&t, v[i].key, u64s(a, v[i].n));
    bool ok = table_print(o, &t, 2);
    free(v);
    return ok;
}

/* Result of a counted game for the player on row `me`: "1", "½", "0"
 * (ascii: "1", "=", "0"). */
static const char *result_for(const xq_standings *st, size_t g, size_t me, bool ascii)
{
    int p2 = red_points2(st->game[g]->result);
    if (st->black_row[g] == me) p2 = 2 - p2;
    return p2 == 2 ? "1" : p2 == 0 ? "0" : ascii ? "=" : "½";
}

/* Whether rounds can be the crosstable's columns: every game has a
 * round and no player plays twice in one. */
static int cmp_seat(const void *a, const void *b)
{
    const size_t *x = a, *y = b;
    if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
    return (x[1] > y[1]) - (x[1] < y[1]);
}

/* (*ok_mem set false when memory ran out for the test: then false too) */
static bool rounds_usable(const xq_standings *st, int *max_round, bool *ok_mem)
{
    int max = 0;
    for (size_t g = 0; g < st->ngames; g++) {
        if (st->game[g]->round <= 0) return false;
        if (st->game[g]->round > max) max = st->game[g]->round;
    }
    if (max > 1000) return false;
    /* (row, round) of both players of every game: no pair twice */
    size_t *seat = malloc((2 * st->ngames + 1) * 2 * sizeof *seat);
    if (!seat) {
        *ok_mem = false;
        return false;
    }
    for (size_t g = 0; g < st->ngames; g++) {
        seat[4 * g] = st->red_row[g];
        seat[4 * g + 1] = (size_t)st->game[g]->round;
        seat[4 * g + 2] = st->black_row[g];
        seat[4 * g + 3] = (size_t)st->game[g]->round;
    }
    qsort(seat, 2 * st->ngames, 2 * sizeof *seat, cmp_seat);
    bool ok = true;
    for (size_t i = 1; i < 2 * st->ngames && ok; i++)
        ok = seat[2 * i] != seat[2 * i - 2] || seat[2 * i + 1] != seat[2 * i - 1];
    free(seat);
    *max_round = max;
    return ok;
}

/* A copy of a crosstable cell; *ok set false when memory ran out. */
static char *cell_dup(const char *text, bool *ok)
{
    char *c = strdup(text);
    if (!c) *ok = false;
    return c;
}

static bool text_event(FILE *o, const xq_stats *s, xq_event_system system)
{
    char a[24], b[24], c[24], d[24], e[24], f[24], g2[24];
    xq_event_game *games = xq_stats_event_games(s);
    xq_standings st;
    if ((!games && s->nev) || !xq_standings_compute(games, s->nev, system, &st)) {
        free(games);
        return false;
    }
    bool rr = st.system == XQ_SYSTEM_ROUND_ROBIN;
    char title[512];
    snprintf(title, sizeof title, "Event \"%s\": %zu player%s, %zu game%s", s->opt.event, st.nplayers,
             st.nplayers == 1 ? "" : "s", st.ngames, st.ngames == 1 ? "" : "s");
    heading(o, title);
    if (st.left_out) fprintf(o, "  (%zu game%s without a result left out)\n", st.left_out, st.left_out == 1 ? "" : "s");
    if (!st.ngames) {
        fputs("  no game of this event has a result\n", o);
        xq_standings_free(&st);
        free(games);
        return true;
    }
    fprintf(o, "  ranked by score (CXA1999 §14.1: win 1, draw 0.5, loss 0), then %s\n",
            rr ? "§15.1 (round robin): 小分 (Sonneborn-Berger), wins, direct encounter"
               : "§15.2 (Swiss): 對手分 (opponents' scores), wins");
    if (system == XQ_SYSTEM_AUTO && st.uneven[0]) {   /* (quotes names: the one rule, game.h) */
        xq_name_printf(o, "  (Swiss by --system auto: not every two players met equally often; %s and %s met %d time%s, "
                          "%s and %s %d)",
                       st.uneven[0], st.uneven[1], st.uneven_met[0], st.uneven_met[0] == 1 ? "" : "s", st.uneven[2],
                       st.uneven[3], st.uneven_met[1]);
        putc('\n', o);
    }
    table t;
    table_init(&t, rr ? 9 : 8, rr ? 0x1FDu : 0xFDu);
    if (rr) table_row(&t, "rank", "player", "games", "wins", "draws", "losses", "score", "小分", "direct");
    else table_row(&t, "rank", "player", "games", "wins", "draws", "losses", "score", "對手分");
    for (size_t i = 0; i < st.nplayers; i++) {
        const xq_standing *r = &st.rows[i];
        char dir[24] = "";
        if (rr && r->direct2 >= 0) halves(dir, r->direct2);
        table_row(&t, u64s(a, (uint64_t)r->rank), r->name, u64s(b, (uint64_t)r->games), u64s(c, (uint64_t)r->wins),
                  u64s(d, (uint64_t)r->draws), u64s(e, (uint64_t)r->losses), halves(f, r->score2),
                  quarters(g2, r->tb4), rr ? dir : NULL);
    }
    bool ok = table_print(o, &t, 2);
    fputs("  (fouls, the last tie-break, are not in game records: a shared rank stays shared)\n", o);
    if (!xq_stats_event_notes(&st, text_note, o)) ok = false;

    /* crosstable */
    heading(o, "Crosstable");
    int max_round = 0;
    bool by_round = !rr && rounds_usable(&st, &max_round, &ok);
    size_t ncols = 0;
    if (rr) ncols = st.nplayers;
    else if (by_round) ncols = (size_t)max_round;
    else
        for (size_t i = 0; i < st.nplayers; i++)
            if ((size_t)st.rows[i].games > ncols) ncols = (size_t)st.rows[i].games;
    size_t width = ncols + 3;
    char **cells = calloc(width * (st.nplayers + 1), sizeof *cells);
    size_t *filled = calloc(st.nplayers + 1, sizeof *filled);
    if (cells && filled) {
        table_init(&t, width, ~0u & ~2u);
        char **hdr = cells;
        hdr[0] = cell_dup("#", &ok);
        hdr[1] = cell_dup("player", &ok);
        for (size_t c2 = 0; c2 < ncols; c2++) {
            char x[24];
            snprintf(x, sizeof x, rr ? "%zu" : by_round ? "R%zu" : "G%zu", c2 + 1);
            hdr[2 + c2] = cell_dup(x, &ok);
        }
        hdr[2 + ncols] = cell_dup("score", &ok);
        for (size_t i = 0; i < st.nplayers; i++) {
            char **row = cells + (i + 1) * width;
            char x[48];
            snprintf(x, sizeof x, "%zu", i + 1);
            row[0] = cell_dup(x, &ok);
            row[1] = cell_dup(st.rows[i].name, &ok);
            if (rr) row[2 + i] = cell_dup("x", &ok);
            row[2 + ncols] = cell_dup(halves(x, st.rows[i].score2), &ok);
        }
        for (size_t g = 0; g < st.ngames; g++) {
            for (int side = 0; side < 2; side++) {
                size_t me = side ? st.black_row[g] : st.red_row[g];
                size_t opp = side ? st.red_row[g] : st.black_row[g];
                char **row = cells + (me + 1) * width;
                size_t col;
                char cell[64];
                if (rr) {
                    col = opp;
                    snprintf(cell, sizeof cell, "%s%s", row[2 + col] ? row[2 + col] : "", result_for(&st, g, me, false));
                } else {
                    col = by_round ? (size_t)st.game[g]->round - 1 : filled[me]++;
                    snprintf(cell, sizeof cell, "%zu%s%s", opp + 1, side ? "b" : "r", result_for(&st, g, me, false));
                }
                free(row[2 + col]);
                row[2 + col] = cell_dup(cell, &ok);
            }
        }
        for (size_t i = 0; i <= st.nplayers; i++) table_row_v(&t, cells + i * width);
        ok = table_print(o, &t, 2) && ok;
        if (!rr) fputs("  (cell: opponent's number, r or b for the colour played, result)\n", o);
        for (size_t i = 0; i < width * (st.nplayers + 1); i++) free(cells[i]);
    } else {
        ok = false;
    }
    free(cells);
    free(filled);
    xq_standings_free(&st);
    free(games);
    return ok;
}

bool xq_stats_write_text(FILE *o, const xq_stats *s, const xq_stats_report_options *opt)
{
    int top = opt ? opt->top : 20;
    /* every section is written, each saying whether it is whole */
    bool ok = text_counts(o, s);
    ok = text_findings(o, s) && ok;
    ok = text_results(o, s) && ok;
    ok = text_openings(o, s, top) && ok;
    ok = text_players(o, s, top) && ok;
    ok = text_events(o, s, top) && ok;
    if (s->opt.event) ok = text_event(o, s, opt ? opt->system : XQ_SYSTEM_AUTO) && ok;
    return ok;
}

/* ---- CSV --------------------------------------------------------------- */

/* One CSV field (RFC 4180: quoted when it holds a comma, quote or line break). */
static void csv_field(FILE *o, const char *s, bool first)
{
    if (!first) putc(',', o);
    if (!s) return;
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, o);
        return;
    }
    putc('"', o);
    for (; *s; s++) {
        if (*s == '"') putc('"', o);
        putc(*s, o);
    }
    putc('"', o);
}

/* A row: table name, then the NULL-terminated fields. */
static void csv_row(FILE *o, const char *table_name, ...)
{
    csv_field(o, table_name, true);
    va_list ap;
    va_start(ap, table_name);
    for (const char *f; (f = va_arg(ap, const char *)) != NULL;) csv_field(o, f, false);
    va_end(ap);
    putc('\n', o);
}

/* A note as a row of the notes table (ctx: the FILE). */
static bool csv_note(void *ctx, const char *kind, const char *text)
{
    csv_row(ctx, "notes", kind, text, NULL);
    return true;
}

bool xq_stats_write_csv(FILE *o, const xq_stats *s, const xq_stats_report_options *opt)
{
    char a[24], b[24], c[24], d[24], e[24], f[24], g[24], h[24];
    uint64_t games = xq_stats_games(s);
    csv_row(o, "table", "name", "value", NULL);
    csv_row(o, "counts", "records", u64s(a, s->records), NULL);
    csv_row(o, "counts", "from_start", u64s(a, s->from_start), NULL);
    csv_row(o, "counts", "from_fen", u64s(a, s->from_fen), NULL);
    csv_row(o, "counts", "unreadable", u64s(a, s->unreadable), NULL);
    csv_row(o, "counts", "valid", u64s(a, s->valid), NULL);
    csv_row(o, "counts", "illegal", u64s(a, s->illegal), NULL);
    csv_row(o, "counts", "with_errors", u64s(a, s->with_errors), NULL);
    csv_row(o, "counts", "distinct_moves", u64s(a, s->moves.count), NULL);
    csv_row(o, "counts", "distinct_moves_tags", u64s(a, s->tagged.count), NULL);
    csv_row(o, "counts", "plies_total", u64s(a, s->plies_total), NULL);
    snprintf(b, sizeof b, "%.2f", games ? (double)s->plies_total / (double)games : 0.0);
    csv_row(o, "counts", "plies_mean", b, NULL);
    snprintf(c, sizeof c, "%.1f", xq_stats_median(s));
    csv_row(o, "counts", "plies_median", c, NULL);
    csv_row(o, "counts", "heldout_games", u64s(a, s->heldout_games), NULL);
    csv_row(o, "counts", "heldout_agree", u64s(a, s->heldout_agree), NULL);
    csv_row(o, "counts", "ecco_bad_tag", u64s(a, s->ecco_bad_tag), NULL);
    csv_row(o, "counts", "ecco_unclassified", u64s(a, s->ecco_unclassified), NULL);
    csv_row(o, "counts", "forfeits_red", u64s(a, s->forfeit_red), NULL);
    csv_row(o, "counts", "forfeits_black", u64s(a, s->forfeit_black), NULL);
    /* last of its table, so that the rows before it keep their places */
    csv_row(o, "counts", "files_failed", u64s(a, s->files_failed), NULL);

    csv_row(o, "table", "plies", "games", NULL);
    for (size_t i = 0; i < s->ply_len; i++)
        if (s->ply_hist[i]) csv_row(o, "lengths", u64s(a, i), u64s(b, s->ply_hist[i]), NULL);

    csv_row(o, "table", "kind", "games", NULL);
    for (int k = 0; k < XQ_FIND_KIND_COUNT; k++)
        csv_row(o, "findings", xq_finding_kind_str((xq_finding_kind)k), u64s(a, s->kinds[k]), NULL);

    csv_row(o, "table", "result_tag", "termination", "result_board", "games", NULL);
    for (int tag = 0; tag < XQ_NRESULTS; tag++)
        for (int term = 0; term < XQ_NTERMS; term++)
            for (int board = 0; board < XQ_NRESULTS; board++)
                if (s->outcome[tag][term][board])
                    csv_row(o, "outcomes", result_label(tag), xq_termination_str((xq_termination)term),
                            board == XQ_RESULT_UNKNOWN ? "*" : result_label(board), u64s(a, s->outcome[tag][term][board]),
                            NULL);

    /* the text table's columns, in code order (the text ranks by games) */
    csv_row(o, "table", "code", "opening", "variation", "tagged", "classified", "games", NULL);
    for (int code = 0; code < XQ_ECCO_CODES; code++) {
        if (!s->ecco_tagged[code] && !s->ecco_class[code]) continue;
        char cs[4];
        csv_row(o, "openings", xq_ecco_format(code, cs), xq_ecco_opening(code), xq_ecco_variation(code),
                u64s(a, s->ecco_tagged[code]), u64s(b, s->ecco_class[code]),
                u64s(c, s->ecco_tagged[code] + s->ecco_class[code]), NULL);
    }

    csv_row(o, "table", "player", "games", "wins", "draws", "losses", "score", NULL);
    player_rows pl;
    bool ok = players_counted(s, &pl, true);
    for (size_t i = 0; i < pl.n; i++) {
        const uint64_t *v = pl.rows[i].v;
        char score[48];
        csv_row(o, "players", pl.rows[i].key, u64s(a, v[PL_GAMES]), u64s(b, v[PL_WINS]), u64s(c, v[PL_DRAWS]),
                u64s(d, v[PL_LOSSES]), score_text(score, v[PL_WINS], v[PL_DRAWS]), NULL);
    }
    player_rows_free(&pl);   /* (keeps pl.copies for the notes) */

    csv_row(o, "table", "event", "games", NULL);
    size_t copies;
    if (!event_copies(s, &copies)) ok = false;
    smap_entry **ev = xq_smap_sorted(&s->events);
    if (!ev) ok = false;
    for (size_t i = 0; ev && i < s->events.count; i++)
        csv_row(o, "events", ev[i]->key, u64s(a, event_games(s, ev[i]->key, ev[i]->v[PL_GAMES], copies)), NULL);
    free(ev);

    if (!s->opt.event) return ok;
    xq_event_game *gv = xq_stats_event_games(s);
    xq_standings st;
    if ((!gv && s->nev) || !xq_standings_compute(gv, s->nev, opt ? opt->system : XQ_SYSTEM_AUTO, &st)) {
        ok = false;
    } else {
        bool rr = st.system == XQ_SYSTEM_ROUND_ROBIN;
        csv_row(o, "table", "rank", "player", "games", "wins", "draws", "losses", "score",
                rr ? "sonneborn_berger" : "opponents_score", "direct", NULL);
        for (size_t i = 0; i < st.nplayers; i++) {
            const xq_standing *r = &st.rows[i];
            char dir[24] = "";
            if (r->direct2 >= 0) halves(dir, r->direct2);
            csv_row(o, "standings", u64s(a, (uint64_t)r->rank), r->name, u64s(b, (uint64_t)r->games),
                    u64s(c, (uint64_t)r->wins), u64s(d, (uint64_t)r->draws), u64s(e, (uint64_t)r->losses),
                    halves(f, r->score2), quarters(g, r->tb4), dir, NULL);
        }
        csv_row(o, "table", "number", "round", "opponent", "colour", "result", NULL);
        for (size_t gi = 0; gi < st.ngames; gi++)
            for (int side = 0; side < 2; side++) {
                size_t me = side ? st.black_row[gi] : st.red_row[gi], opp = side ? st.red_row[gi] : st.black_row[gi];
                int p2 = red_points2(st.game[gi]->result);
                if (side) p2 = 2 - p2;
                csv_row(o, "crosstable", u64s(a, me + 1), u64s(b, (uint64_t)st.game[gi]->round), u64s(c, opp + 1),
                        side ? "black" : "red", halves(h, p2), NULL);
            }
        /* the text report's notes, as a table of their own: a CSV reader
         * keeps every row of the report's data, and standard error is for
         * the run's own troubles */
        csv_row(o, "table", "kind", "note", NULL);
        ok = note_player_copies(s, &pl, csv_note, o) && ok;
        ok = xq_stats_event_notes(&st, csv_note, o) && ok;
        xq_standings_free(&st);
    }
    free(gv);
    return ok;
}
