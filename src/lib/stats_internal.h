/* stats_internal.h - the accumulator's layout, shared by stats.c (adding,
 * merging), stats_json.c (JSON in and out) and stats_report.c (text and
 * CSV reports, standings).  Not part of the public API. */
#ifndef XQ_STATS_INTERNAL_H
#define XQ_STATS_INTERNAL_H

#include <string.h>

#include "ecco.h"
#include "stats.h"

enum {
    XQ_NRESULTS = 5,   /* xq_result: NONE, RED, BLACK, DRAW, UNKNOWN */
    XQ_NTERMS = 7      /* xq_termination: NONE .. ILLEGAL_MOVE */
};

/* Per-player sums (players map) or per-event sums (events map: v[0] games). */
enum { PL_GAMES, PL_WINS, PL_DRAWS, PL_LOSSES, PL_NVALUES };

typedef struct {
    char *key;                    /* owned; NULL = empty slot */
    uint64_t v[PL_NVALUES];
} smap_entry;

/* Open-addressing map from strings to sums. */
typedef struct {
    smap_entry *slots;
    size_t cap, count;            /* cap is 0 or a power of two */
    bool overflow;                /* a sum passed UINT64_MAX (saturated there): xq_count_add */
} smap;

/* Open-addressing set of 64-bit hashes; 0 is stored as a flag. */
typedef struct {
    uint64_t *slots;
    size_t cap, count;            /* count includes the zero flag */
    bool has_zero;
} hset;

typedef struct {
    char *red, *black;            /* owned; "" when absent */
    xq_event_game g;              /* round, result and the board's facts (g.red and
                                     g.black unset: see xq_stats_event_games) */
} ev_game;

struct xq_stats {
    xq_stats_options opt;         /* opt.event owned (malloc'd), or NULL */

    uint64_t records;
    uint64_t files_failed;                          /* input files that failed (xq_stats_add_failed_file) */
    uint64_t from_start, from_fen, unreadable;      /* partition of records */
    uint64_t valid, illegal;                        /* status (unreadable above) */
    uint64_t with_errors;                           /* games with an error finding */
    uint64_t plies_total;
    uint64_t *ply_hist;                             /* [plies] -> games (readable games) */
    size_t ply_len;
    uint64_t kinds[XQ_FIND_KIND_COUNT];             /* games with a finding of the kind */
    uint64_t outcome[XQ_NRESULTS][XQ_NTERMS][XQ_NRESULTS];  /* [tag][termination][board] */
    uint64_t forfeit_red, forfeit_black;  /* of outcome[1-0 or 0-1][none][*]: readable games
                                             without a move, a forfeit (棄權) or unplayed */

    uint64_t ecco_tagged[XQ_ECCO_CODES];            /* by ECCO tag */
    uint64_t ecco_class[XQ_ECCO_CODES];             /* untagged start games, by classifier */
    uint64_t ecco_bad_tag;                          /* ECCO tag that is not a code */
    uint64_t ecco_unclassified;                     /* untagged, not classified (FEN, no moves, ...) */
    uint64_t heldout_games, heldout_agree;          /* tagged start games with an odd move hash */

    /* a sum passed UINT64_MAX in a merge or a read of JSON (saturated
     * there, never wrapped: xq_count_add); the merge then fails */
    bool overflow;

    smap players, events;
    hset moves, tagged;
    ev_game *ev;
    size_t nev, ev_cap;
};

/* *into += n, saturated at UINT64_MAX with *overflow set when the sum
 * does not fit: a wrapped count would be a wrong figure told as right
 * (the parts of a merge are other runs' JSON, which may be made up). */
static inline void xq_count_add(uint64_t *into, uint64_t n, bool *overflow)
{
    if (__builtin_add_overflow(*into, n, into)) {
        *into = UINT64_MAX;
        *overflow = true;
    }
}

/* Did any sum of s pass UINT64_MAX (xq_stats.overflow, its maps')? */
static inline bool xq_stats_overflowed(const xq_stats *s)
{
    return s->overflow || s->players.overflow || s->events.overflow;
}

/* stats.c */
bool xq_smap_add(smap *m, const char *key, size_t keylen, const uint64_t v[PL_NVALUES]);
smap_entry **xq_smap_sorted(const smap *m);            /* malloc'd, count entries, by strcmp */
bool xq_hset_add(hset *h, uint64_t k);
uint64_t *xq_hset_sorted(const hset *h);               /* malloc'd, count keys, ascending */
bool xq_stats_hist_add(xq_stats *s, size_t plies, uint64_t n);
/* What one game adds to the sums of its player of colour me (PL_GAMES 1,
 * and a win, draw or loss by the Result tag res). */
void xq_stats_player_values(xq_result res, xq_color me, uint64_t v[PL_NVALUES]);
/* Keep one game of the selected event: the players' names (copied) and
 * the rest of *g (its red and black are not read).  false on OOM. */
bool xq_stats_event_add(xq_stats *s, const char *red, size_t red_len, const char *black,
                        size_t black_len, const xq_event_game *g);
/* The event's games in canonical order (round, red, black, result, then
 * the board's facts, the move hash and when, so that copies are neighbours), as a
 * malloc'd array of s->nev views into s->ev (NULL when none or OOM). */
xq_event_game *xq_stats_event_games(const xq_stats *s);

/* Derived figures shared by the writers. */
uint64_t xq_stats_games(const xq_stats *s);            /* readable games: records - unreadable */
double xq_stats_median(const xq_stats *s);             /* of plies, 0 when no games */

/* stats_report.c: the notes under the event's standings (records
 * counted once, Result tags the board contradicts, forfeits), each given
 * to sink with its kind ("copy", "board", "forfeit") and its text (valid
 * during the call), in the order the text report prints them.  false when
 * memory ran out or the sink said so (the other notes are still given). */
typedef bool (*xq_note_sink)(void *ctx, const char *kind, const char *text);
bool xq_stats_event_notes(const xq_standings *st, xq_note_sink sink, void *ctx);

/* Result names in the JSON: "1-0", "0-1", "1/2-1/2", "*", and "" for NONE. */
bool xq_stats_result_from_str(const char *text, xq_result *out);

/* Order of event games by their pairing: round, Red, Black, result.  The
 * first keys of the games' order (stats.c) and of the search for copies
 * of one game (stats_report.c). */
static inline int xq_event_pairing_cmp(const xq_event_game *x, const xq_event_game *y)
{
    if (x->round != y->round) return x->round < y->round ? -1 : 1;
    int c = strcmp(x->red, y->red);
    if (c) return c;
    c = strcmp(x->black, y->black);
    if (c) return c;
    return x->result != y->result ? (x->result < y->result ? -1 : 1) : 0;
}

#endif
