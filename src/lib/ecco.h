/* ecco.h - ECCO opening codes (中国象棋开局编号, formats.md §3): code
 * numbering, names, and a move-prefix classifier whose table is derived
 * from the tagged games of a corpus.
 *
 * Codes: a letter A-E and two digits, "A00".."E99", numbered here as an
 * index 0..499 (letter * 100 + number); -1 means "no code".
 *
 * Names: src/lib/ecco_names.inc, generated from ../shared/ecco-names.tsv
 * (extracted from FastLight126/vschess, LGPL-3.0; the ECCO system is
 * xqbase.com's).  260 codes are named; the others have empty names.
 *
 * Classifier: the longest prefix of the game's moves found in a table of
 * (move prefix -> code) entries.  A prefix's code is the one its moves
 * determine, so that a short or off-book game gets its family and not the
 * most common deep line through its prefix (see xq_ecco_learner_table).  Moves are written as 4-character
 * coordinates, ICCS without the dash and in lower case ("h2e2", formats.md
 * §1c), concatenated without separators.  Before lookup the game is put in
 * a canonical orientation: when the first move that is not its own mirror
 * image starts (or, for a move along the centre file, ends) left of the
 * centre file, files a..i of every move of both colours are mirrored
 * (a<->i), as the vschess classifier does for Red's first move.  So
 * 炮八平五 and 炮二平五 openings share their entries.
 *
 * The built-in table (src/lib/ecco_table.inc) is derived by xq_ecco_learn
 * (`xq-stats --derive-ecco`) from the start-position games with an ECCO
 * tag of CCPD masters.pgn.gz (CC BY 4.0, Yu-Han Tseng) whose move hash
 * (xq_stats_move_hash) is even; games with an odd move hash were never
 * learned from, so agreement on them is an honest held-out measure, and a
 * game filed twice in the corpus (by player and by event) falls on one
 * side only.  The table's header comment records its provenance.
 *
 * No global mutable state; every function is safe from several threads.
 */
#ifndef XQ_ECCO_H
#define XQ_ECCO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "position.h"

enum {
    XQ_ECCO_CODES = 500,     /* A00..E99 */
    XQ_ECCO_MAX_PLIES = 40   /* longest prefix a table may hold */
};

/* Parse a code written like "C55" (ASCII, surrounding blanks ignored,
 * lower-case letter accepted).  Returns 0..499, or -1 for anything else
 * (NULL, "", "C5", "F00", "C55x"). */
int xq_ecco_parse(const char *text);

/* Write code index (0..499) as "C55" into buf (4 bytes, NUL-terminated).
 * An index out of range writes "". Returns buf. */
char *xq_ecco_format(int code, char buf[4]);

/* Opening and variation names of a code, simplified Chinese UTF-8
 * (static storage; "" when unnamed or out of range).  Source:
 * ecco-names.tsv, vschess (LGPL-3.0). */
const char *xq_ecco_opening(int code);
const char *xq_ecco_variation(int code);

/* One table entry: a canonical move prefix (4 characters per ply, see
 * above; "" for the empty prefix) and its code ("C55"). */
typedef struct {
    const char *prefix;
    const char *code;
} xq_ecco_entry;

/* A classification table: entries sorted by strcmp of prefix, prefixes
 * at most max_plies plies long.  Read-only. */
typedef struct {
    const xq_ecco_entry *entries;
    size_t count;
    int max_plies;
} xq_ecco_table;

/* The table compiled into the library (static storage). */
const xq_ecco_table *xq_ecco_builtin(void);

/* Canonical key of the first min(n, max_plies) moves (see above) into buf:
 * 4 characters per ply plus NUL, so buf needs 4 * max_plies + 1 bytes.
 * moves are legal moves from the start position, in order.  Returns the
 * number of plies written. */
int xq_ecco_key(const xq_move *moves, int n, int max_plies, char *buf, size_t size);

/* Classify a game from the start position by its moves (n plies, legal,
 * in order): the code of the longest table prefix that the canonical key
 * starts with; -1 when the table has no matching entry (an empty table,
 * or no "" entry and no match).  Cost: at most max_plies + 1 binary
 * searches.  table NULL means the built-in one. */
int xq_ecco_classify(const xq_ecco_table *table, const xq_move *moves, int n);

/* ---- deriving a table (xq-stats --derive-ecco) ------------------------ */

typedef struct xq_ecco_learner xq_ecco_learner;

/* A learner counting codes per canonical prefix of up to max_plies plies
 * (1..XQ_ECCO_MAX_PLIES).  Entries are kept for prefixes seen in at least
 * min_support games (>= 1).  NULL on out-of-memory.  Memory: one trie
 * node (20 bytes) per distinct prefix and one 12-byte counter per distinct
 * (prefix, code) pair. */
xq_ecco_learner *xq_ecco_learner_new(int max_plies, int min_support);
void xq_ecco_learner_free(xq_ecco_learner *l);

/* Count one game (moves from the start position) with its tagged code
 * (0..499).  false on out-of-memory. */
bool xq_ecco_learner_add(xq_ecco_learner *l, const xq_move *moves, int n, int code);

/* Games counted so far. */
uint64_t xq_ecco_learner_games(const xq_ecco_learner *l);

/* Build the pruned table.  A prefix's code: A00 (其他开局) for the empty
 * prefix; ECCO's family for a first move (A01..A08 上仕局..边兵局, A10 飞相局,
 * A40 起马局, A50 仕角炮局, A60 过宫炮局, B00 中炮局, E00 仙人指路局; any
 * other first move A00); for a longer prefix the smallest code among the
 * learned games through it: their code when they all agree, else the
 * family the prefix determines, since ECCO numbers a family before its
 * branches (C00 before C01..C99).  A prefix is an entry when at least
 * min_support learned games start with it and its code differs from the
 * code its longest shorter entry gives; the empty prefix is always an
 * entry when anything was learned, and so is a family's first move that
 * no learned game made.  So the table classifies every learned prefix
 * with enough support exactly as the full count tree would.  The table and its strings are owned by the
 * learner and valid until xq_ecco_learner_free.  NULL on out-of-memory. */
const xq_ecco_table *xq_ecco_learner_table(xq_ecco_learner *l);

#endif
