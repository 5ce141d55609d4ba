/* stats.h - statistics of a game database, mergeable for map-reduce
 * (issue #7, xq-stats).
 *
 * Flow: a worker replays a game (replay.h, the same replay as xq-validate)
 * and condenses it with xq_stats_analyse into an xq_stats_game, a small
 * value with no allocation; the caller adds the summaries in input order
 * into an xq_stats accumulator with xq_stats_add.  Accumulators merge
 * (xq_stats_merge) and round-trip through JSON (xq_stats_write_json,
 * xq_stats_read_json) exactly: every statistic kept is a sum, a histogram,
 * a map of sums (players, events, ECCO codes), a set (64-bit game hashes
 * for the distinct counts) or a list (the games of the one selected
 * event), and every derived figure (mean, median, score, standings) is
 * computed from those when reporting.  So
 *     stats(A ++ B) == merge(stats(A), stats(B))
 * for any split of the input, in any order, and the reports are
 * byte-identical.
 *
 * Memory: per game, nothing beyond the xq_stats_game value; the
 * accumulator grows with the distinct values it must keep exactly: plies
 * histogram (one counter per ply length), players and events (one entry
 * per distinct name), two hash sets (16 bytes per distinct game, about
 * twice that with the table's slack), and the selected event's games.
 * In JSON a hash is 16 hex digits: about 19 bytes per distinct game per
 * set, ~40 MB per million distinct games (CCPD masters, 53,685 records:
 * 1.4 MB of hashes, 2.8 MB of event names, 4.3 MB in all).
 *
 * No global mutable state: accumulators are independent values.
 */
#ifndef XQ_STATS_H
#define XQ_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "game.h"
#include "replay.h"

/* Tie-break systems for the selected event's standings. */
typedef enum {
    XQ_SYSTEM_AUTO = 0,     /* round robin when every pair of players met equally often, else Swiss */
    XQ_SYSTEM_ROUND_ROBIN,  /* CXA1999 §15.1: score, 小分 (Sonneborn-Berger), wins, direct encounter */
    XQ_SYSTEM_SWISS         /* CXA1999 §15.2: score, 對手分 (opponents' scores), wins */
} xq_event_system;

/* What the accumulation depends on, and the event's tie-break system;
 * recorded in the JSON, and two accumulators merge only when these are
 * equal. */
typedef struct {
    xq_replay_options rules;   /* the replay rules (move limit, repetitions, ...) */
    const char *event;         /* Event tag (compared with surrounding blanks
                                  trimmed) whose games are kept for standings
                                  and crosstable, or NULL for none; copied */
    xq_event_system system;    /* the event's tie-breaks as the user chose them
                                  (--system; AUTO when not chosen): not used to
                                  accumulate, but recorded so that a merge of
                                  parts ranks the event as each part would */
    bool system_unrecorded;    /* read from JSON of an earlier version, which
                                  did not record the system: system is AUTO
                                  there, and a merge takes the other part's */
} xq_stats_options;

/* A view of text inside a game record: n bytes at s (not NUL-terminated);
 * s is NULL when absent. */
typedef struct {
    const char *s;
    size_t n;
} xq_stats_str;

/* One game condensed for the statistics.  Plain value; the xq_stats_str views
 * point into the game record and are valid as long as it is. */
typedef struct {
    xq_status status;
    xq_termination termination;
    xq_result result_tag;        /* as xq_replay: Result tag, else movetext; NONE if neither */
    xq_result result_board;      /* as xq_replay: UNKNOWN when the board says nothing */
    int plies;                   /* moves played legally */
    bool from_start;             /* no FEN, or a FEN of the standard start position */
    bool has_error;              /* a finding of error severity */
    uint32_t finding_kinds;      /* bit k set: a finding of kind k (xq_finding_kind) */
    int ecco_tag;                /* ECCO tag as a code 0..499; -1 no tag (or empty); -2 not a code */
    int ecco_class;              /* classifier's code (start-position games only), else -1 */
    uint64_t move_hash;          /* xq_stats_move_hash */
    uint64_t tag_hash;           /* move_hash combined with every tag (name case-folded,
                                    value trimmed), independent of tag order */
    xq_stats_str red, black;          /* Red and Black tags, trimmed; s NULL when empty */
    xq_stats_str event;               /* Event tag, trimmed */
    int round;                   /* first number in the Round tag (ASCII or full-width
                                    digits, e.g. 第01輪 -> 1), 0 when none */
    uint64_t when;               /* for a readable record without a move, the
                                    xq_stats_when_hash of its Date and Time tags;
                                    XQ_WHEN_UNKNOWN for the others (their moves
                                    tell them apart) */
} xq_stats_game;

/* When a game was played, as a hash of its Date and Time tags (values
 * trimmed; one holding a '?', PGN's "not known", counts as absent):
 * XQ_WHEN_NONE when it has neither, else a hash >= 2 (0 is
 * left for "not known": xq_event_game from JSON of an earlier version).
 * What tells two records without a move apart when their round is not
 * known (xq_standings_compute). */
enum { XQ_WHEN_UNKNOWN = 0, XQ_WHEN_NONE = 1 };
uint64_t xq_stats_when_hash(const char *date, const char *time);

/* Hash of a game's moves: the start position (board and side to move,
 * whatever FEN spelled it) and the moves played legally; for a game that
 * breaks off at an illegal or unreadable move, also the text of the
 * remaining main-line moves; for an unreadable start, the FEN text and
 * all move texts.  SplitMix64-style mixing, stable across machines and
 * versions of this library's position code (it hashes coordinates, not
 * Zobrist keys).  Needs the node moves filled by xq_replay_game. */
uint64_t xq_stats_move_hash(const xq_game *g, const xq_replay *r);

/* Condense game g, just replayed into r (xq_replay_game(g, ...)), into
 * *out.  Runs the ECCO classifier (built-in table) on start-position games.
 * Pure: safe in worker threads. */
void xq_stats_analyse(const xq_game *g, const xq_replay *r, xq_stats_game *out);

typedef struct xq_stats xq_stats;

/* A new empty accumulator with options opt (copied; NULL = defaults:
 * CXA1999 rules, no event).  NULL on out-of-memory. */
xq_stats *xq_stats_new(const xq_stats_options *opt);

/* Free (NULL is fine). */
void xq_stats_free(xq_stats *s);

/* The options an accumulator was made with (event NULL when none). */
const xq_stats_options *xq_stats_get_options(const xq_stats *s);

/* Set the tie-break system recorded in s (xq_stats_options.system): a
 * merge's own --system, which overrides the one its parts were made with. */
void xq_stats_set_system(xq_stats *s, xq_event_system system);

/* The name of a system as --system and the JSON spell it: "auto",
 * "round-robin" or "swiss"; xq_event_system_parse reads those (any case)
 * and "rr", false for anything else. */
const char *xq_event_system_str(xq_event_system system);
bool xq_event_system_parse(const char *text, xq_event_system *out);

/* Records counted so far (games added, readable or not). */
uint64_t xq_stats_records(const xq_stats *s);

/* Add one game.  false on out-of-memory (the accumulator is then
 * incomplete but consistent enough to free). */
bool xq_stats_add(xq_stats *s, const xq_stats_game *g);

/* Count one input file that failed: it could not be opened, or its
 * reading stopped at an I/O, decompression or format error.  The games
 * read from it before the failure are added as usual; the rest are
 * missing, so the statistics are incomplete: every writer says how many
 * files failed, xq_stats_merge sums the count, and the JSON carries it. */
void xq_stats_add_failed_file(xq_stats *s);

/* Input files counted by xq_stats_add_failed_file, summed over merges
 * and JSON round trips: 0 exactly when no input of the statistics failed. */
uint64_t xq_stats_files_failed(const xq_stats *s);

/* Add everything of `from` into `into`.  Fails (false, one-line reason in
 * err, errsz bytes) when their options differ (the system too) or on
 * out-of-memory. */
bool xq_stats_merge(xq_stats *into, const xq_stats *from, char *err, size_t errsz);

/* Read one object written by xq_stats_write_json (text, len bytes; blanks
 * around it allowed) into a new accumulator.  NULL on a syntax error, a
 * missing or ill-typed member, or an unknown format version, with
 * "line L: reason" or "MEMBER: reason" in err (errsz bytes); then
 * *incomplete (may be NULL) tells whether the text merely ended before the
 * object did, so that a caller reading line by line can append the next
 * line and try again. */
xq_stats *xq_stats_read_json(const char *text, size_t len, bool *incomplete, char *err, size_t errsz);

/* ---- reports ----------------------------------------------------------- */

typedef struct {
    int top;                 /* rows of the players, events and openings tables; 0 = all */
    xq_event_system system;
} xq_stats_report_options;

/* Write the accumulator as one JSON object on one line, then a newline:
 * the mergeable state (every sum, histogram, map, set and list, in a
 * canonical order: maps and sets sorted) plus a "derived" object (mean and
 * median plies, distinct counts, held-out agreement, the event's standings
 * under opt->system) that readers ignore.  The format is described at the
 * top of stats_json.c.  opt NULL means defaults.
 * Each writer returns false when memory ran out and a part of the report
 * was left out (what was written is then incomplete and must not be taken
 * for the statistics); a failed write is left to the stream (ferror). */
bool xq_stats_write_json(FILE *out, const xq_stats *s, const xq_stats_report_options *opt);

/* Aligned text tables (UTF-8; widths count CJK characters as two
 * columns): counts, game lengths, findings, results, openings, players,
 * events (top rows each), and with an event its standings and crosstable.
 * opt NULL means top 20, AUTO system.  Returns as xq_stats_write_json. */
bool xq_stats_write_text(FILE *out, const xq_stats *s, const xq_stats_report_options *opt);

/* CSV (RFC 4180 quoting, LF line ends): every row starts with its
 * table's name (counts, lengths, findings, outcomes, openings, players,
 * events, and with an event standings, crosstable); each table begins
 * with a header row whose first field is "table" and whose other fields
 * name the columns.  Every player and event is listed (top is ignored).
 * The counts table ends with files_failed.  Returns as xq_stats_write_json. */
bool xq_stats_write_csv(FILE *out, const xq_stats *s, const xq_stats_report_options *opt);

/* ---- standings (CXA1999 §14.1, §15.1, §15.2) --------------------------- */

/* One game of the event: players, round (0 unknown), Result, and what the
 * board says of it.  Zero for the last four fields means "not known" (the
 * JSON of an older version). */
typedef struct {
    const char *red, *black;
    int round;
    xq_result result;        /* the Result tag: what the arbiter recorded, and what
                                is scored; games without 1-0, 0-1 or 1/2-1/2 are
                                left out */
    xq_result board;         /* the board's result when the rules decide one
                                (checkmate, stalemate, ...), else XQ_RESULT_NONE */
    xq_termination ending;   /* how the board ended the game (XQ_TERM_NONE: it
                                says nothing) */
    bool no_moves;           /* the record holds no move: decisive, a forfeit
                                (棄權, CXA1999 §20.3-20.4, or lost by lateness
                                §21.1) or an unplayed game */
    uint64_t move_hash;      /* xq_stats_move_hash of the record; 0 unknown */
    uint64_t when;           /* xq_stats_game.when (XQ_WHEN_UNKNOWN too from JSON
                                of an earlier version) */
} xq_event_game;

/* One player's line, in rank order.  Points are in halves (score2 = 2 x
 * the §14.1 score: win 1, draw 0.5, loss 0). */
typedef struct {
    const char *name;        /* points into the games given */
    int games, wins, draws, losses;
    int score2;
    int tb4;                 /* round robin: 小分 x 4 (a beaten opponent's score,
                                half a drawn one's: Sonneborn-Berger); Swiss:
                                對手分 x 4 (the opponents' scores, once per game) */
    int direct2;             /* round robin: points x 2 against the players tied on
                                score, 小分 and wins; -1 when not tied */
    int rank;                /* 1-based; equal for players no tie-break separates */
} xq_standing;

typedef struct {
    xq_event_system system;  /* as applied (never AUTO) */
    size_t nplayers;
    xq_standing *rows;       /* nplayers, best first */
    size_t ngames;           /* games counted (with a decisive or drawn result) */
    size_t *red_row, *black_row;  /* per counted game: its players' rows */
    const xq_event_game **game;   /* per counted game: the game, in the given order */
    size_t left_out;         /* games without a result */
    /* records not counted because an earlier one is the same game: same
     * round, players, result and moves (xq_event_game.move_hash; without a
     * move, a known round or the same Date and Time) */
    size_t nduplicates;
    const xq_event_game **duplicate;   /* nduplicates records */
    /* XQ_SYSTEM_AUTO chose Swiss because these two pairs of players met a
     * different number of times (names NULL when there were fewer than two
     * players or no pair met) */
    const char *uneven[4];   /* first pair's red/black names, then the other pair's */
    int uneven_met[2];       /* how often each pair met */
} xq_standings;

/* Standings of the games (n of them; kept by pointer in out->game, so they
 * must outlive out).  A record that repeats a counted one (same round,
 * players, result and a known, equal move hash) is counted once and listed
 * in out->duplicate; for records without a move (a forfeit: the moves tell
 * nothing) that takes a known round, or else the same Date and Time
 * (xq_event_game.when) with at least one of them recorded: two forfeits
 * between the same players with neither are two games (a double round
 * robin without Round tags).  Fouls (犯規, the last tie-break of §15.1 and §15.2)
 * are not in game records: players still tied share the rank.  false on
 * out-of-memory. */
bool xq_standings_compute(const xq_event_game *games, size_t n, xq_event_system system,
                          xq_standings *out);
void xq_standings_free(xq_standings *st);

#endif
