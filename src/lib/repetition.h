/* repetition.h - the repetition rules (棋例): find the cycle of a repeated
 * position, classify every move in it, and say who, if anyone, loses.
 *
 * Rule sets: CXA 1999 (中國象棋競賽規則 1999, chapters 6-7; the default) and
 * the Asian Xiangqi Federation rules (AXF 2003, as described in
 * ../shared/rules/engines-survey.md §2.2 and the AXF book's diagrams).
 * Both classify the moves by the same facts (check, mate threat, chase,
 * idle), with two differences in what a chase is (xq_classify_move), and
 * differ in which patterns are forbidden:
 *
 *   pattern of one side            CXA 1999            AXF
 *   perpetual check 長將           forbidden, loses    forbidden, loses
 *   perpetual mate threat 長殺     forbidden (§25.2)   allowed (rule 9)
 *   perpetual chase 長捉           forbidden           forbidden, if one
 *                                                      piece is chased by
 *                                                      every move (rule 32)
 *   one check one chase 一將一捉   forbidden (§25.2)   allowed (rule 12)
 *   one check one mate threat      forbidden           allowed
 *   one mate threat one chase      forbidden           allowed unless the
 *                                                      same piece is chased
 *   with an idle move (數將一閑)   allowed             allowed
 *
 * Verdicts (CXA1999 §24, §26; AXF rules 6-8): perpetual check by one side
 * alone loses; both sides allowed, or both forbidden, is a draw; one side
 * forbidden and the other allowed: the forbidden side loses.  AXF only:
 * in a mutual perpetual chase, the side chasing a chariot with lesser
 * pieces loses unless the chariot's side chases the chaser itself (rule 15).
 *
 * CXA 1999 counts pawn chases in a mutual perpetual attack (§27.2, ch.7
 * item 11); AXF lets generals and soldiers chase (rule 28).  Not modelled:
 * §27.3 (occupying a defensive key point that makes a simple draw), and
 * mate threats longer than 7 plies (4 checks).
 *
 * Everything here runs only when a position repeats; nothing is global,
 * every function is reentrant.
 */
#ifndef XQ_REPETITION_H
#define XQ_REPETITION_H

#include <stdbool.h>
#include <stdint.h>

#include "game.h"
#include "position.h"

/* The rule set that judges repetitions. */
typedef enum { XQ_RULES_CXA1999 = 0, XQ_RULES_AXF = 1 } xq_rules;

/* "cxa1999" or "axf" (static storage). */
const char *xq_rules_str(xq_rules r);

/* Parse "cxa1999" / "cxa" / "axf" / "asian" (case-insensitive).  Returns
 * false and leaves *out unchanged when text names no rule set. */
bool xq_rules_parse(const char *text, xq_rules *out);

/* What one move does, heaviest first (CXA1999 §27.4: a move that does
 * several things is named and judged by the heaviest). */
typedef enum {
    XQ_ACT_IDLE = 0,     /* 閑 (§28.9), including 兌 獻 攔 跟 */
    XQ_ACT_CHASE,        /* 捉 (§28.3, §29) */
    XQ_ACT_MATE_THREAT,  /* 殺 (§28.2) */
    XQ_ACT_CHECK         /* 將 (§28.1) */
} xq_act;

/* Why an idle move is idle, or what kind of idle move it is (evidence
 * only: every idle move is allowed). */
typedef enum {
    XQ_IDLE_PLAIN = 0,       /* nothing in particular */
    XQ_IDLE_EXCHANGE,        /* 兌: offers an exchange of equal pieces (§28.5) */
    XQ_IDLE_OFFER,           /* 獻: puts a piece en prise (§28.6) */
    XQ_IDLE_BLOCK,           /* 攔: hinders the other side's pieces (§28.7) */
    XQ_IDLE_FOLLOW,          /* 跟: attacks a protected piece without gain (§28.8) */
    XQ_IDLE_GENERAL_CHASE,   /* the general alone attacks a piece (§27.1) */
    XQ_IDLE_SOLDIER_CHASE,   /* a soldier alone attacks a piece (§27.2) */
    XQ_IDLE_CHASE_KEPT,      /* the attack existed before the move (§29.2, ch.7 item 6) */
    XQ_IDLE_CAPTURE_MATED,   /* the capture would get the mover mated (§29.4, ch.7 item 7) */
    XQ_IDLE_UNKNOWN,         /* not found: asked for the act alone (xq_classify_move_act, a
                                judge without text, xq_repetition_judge_back) */
    XQ_IDLE_KIND_COUNT
} xq_idle_kind;

/* "idle", "chase", "mate threat", "check" (static storage). */
const char *xq_act_str(xq_act a);
/* "idle", "exchange offer", "offer", "block", "follow", "general chase",
 * "soldier chase", "chase kept", "capture would be mated", "unknown". */
const char *xq_idle_str(xq_idle_kind k);

enum { XQ_MAX_VICTIMS = 16 };

/* The facts about one move, as xq_classify_move finds them. */
typedef struct {
    xq_move move;
    xq_color side;                  /* the mover */
    xq_act act;                     /* the heaviest of what the move does (§27.4) */
    xq_idle_kind idle;              /* when act is XQ_ACT_IDLE */
    bool check;                     /* gives check (§28.1) */
    bool mate_threat;               /* threatens mate by checks (§28.2) */
    int nvictims;                   /* pieces newly chased (§28.3, §29) */
    uint8_t victims[XQ_MAX_VICTIMS];/* their squares */
    uint8_t chasers[XQ_MAX_VICTIMS];/* for each, the square of a piece chasing it (after m) */
    int nsoldier_victims;           /* newly attacked by a soldier alone (§27.2) */
    uint8_t soldier_victims[XQ_MAX_VICTIMS];
    int npinner_victims;            /* horses newly attacked only by a chariot that cannot
                                       move but to take them (AXF rule 19: no chase there) */
    uint8_t pinner_victims[XQ_MAX_VICTIMS];
} xq_move_class;

/* Classify move m (legal for the side to move in *before) into *out
 * (caller-owned, overwritten).  Never fails; reads nothing global.
 *
 * check: after m the other general is attacked (§28.1).  mate_threat: not
 * a check, and if the other side passed, the mover would mate by
 * consecutive checks within 7 plies, which it could not do before m
 * (§28.2).  Victims: pieces of value (§25.3: not the general, not an
 * uncrossed soldier) that after m, with the mover to move again, the mover
 * could take with a legal capture (pins and the flying general respected,
 * so a false root is no root, §28.16) that wins material, without then
 * being mated at once (§29.4, ch.7 item 7), where that same attacker could
 * not make that capture so before m (§29.2, ch.7 items 2 and 6: new
 * attacks only, discovered ones included; from chase to chase is idle)
 * and, under CXA 1999, no piece of the mover could win that piece so
 * before m either (§28.3 defines the chase by the piece that can be
 * taken, §29.2 asks that the chase did not exist before the move: a
 * second piece joining or taking over the chase of a piece already
 * chased goes from chase to chase; a piece attacked before but protected
 * is newly chased when m takes its protection away).
 * "Wins material": under CXA 1999 the complete exchange on the square
 * gains value (§29.1, ch.7 item 3: a lesser piece chases a protected
 * greater one, an insufficient root is no root); under AXF the victim
 * cannot be taken back at all, or the attacker is the lesser piece (AXF
 * rules 15, 17), an attack that existed before but would have got the
 * mover mated is not new, and a piece already chased by one piece is
 * newly chased by another (two pieces may not chase one in turn, AXF
 * rule 15, diagram 21).  A check on the board is treated as answered by
 * a pass when captures are weighed (the fictional null move of a check in
 * a chase cycle).  Captures by the general alone do not count (§27.1);
 * captures by a soldier alone are kept apart (soldier_victims, §27.2); a
 * chariot that cannot move but to take the horse holding it is kept apart
 * (pinner_victims: a chase under CXA 1999, not under AXF rule 19); two
 * pieces of equal value that may take each other offer an exchange, not a
 * chase (§28.5).  act is the heaviest of check, mate threat, chase and
 * idle (§27.4); for an idle move, idle says which kind. */
void xq_classify_move(const xq_position *before, xq_move m, xq_rules rules, xq_move_class *out);

/* Patterns of one side's moves in a cycle (§25.2, §28.10-28.15). */
typedef enum {
    XQ_PAT_IDLE = 0,              /* idle moves only (閑) */
    XQ_PAT_ATTACKS_WITH_IDLE,     /* checks, threats or chases with an idle move (數將一閑 ...) */
    XQ_PAT_PERPETUAL_CHECK,       /* 長將 */
    XQ_PAT_PERPETUAL_MATE_THREAT, /* 長殺 */
    XQ_PAT_PERPETUAL_CHASE,       /* 長捉 */
    XQ_PAT_CHECK_MATE_THREAT,     /* 一將一殺 */
    XQ_PAT_CHECK_CHASE,           /* 一將一捉 */
    XQ_PAT_MATE_THREAT_CHASE,     /* 一殺一捉 */
    XQ_PAT_CHECK_MATE_THREAT_CHASE,
    XQ_PAT_COUNT
} xq_rep_pattern;

/* "idle", "attacks with idle moves", "perpetual check", "perpetual mate
 * threat", "perpetual chase", "one check one mate threat", "one check one
 * chase", "one mate threat one chase", "checks, mate threats and chases". */
const char *xq_rep_pattern_str(xq_rep_pattern p);

/* What one side did in the cycle. */
typedef struct {
    xq_rep_pattern pattern;
    bool forbidden;             /* under the rule set of the verdict */
    int moves, checks, mate_threats, chases, idles;
    int victim_sq;              /* a piece chased by every chasing move: its square when
                                   first chased in the cycle, else -1 */
    xq_piece victim;            /* that piece, or XQ_NONE */
} xq_rep_side;

/* One classified ply of the cycle, as evidence. */
typedef struct {
    int ply;                    /* game ply (1-based) */
    xq_move move;
    uint8_t act;                /* xq_act */
    uint8_t idle;               /* xq_idle_kind */
    int8_t victim;              /* square of one newly chased piece, -1 if none */
} xq_rep_ply;

enum { XQ_REP_MAX_PLIES = 64 };

/* The verdict on a repetition.  Plain value, no pointers. */
typedef struct {
    xq_rules rules;
    xq_result result;            /* XQ_RESULT_RED, XQ_RESULT_BLACK or XQ_RESULT_DRAW */
    int loser;                   /* XQ_RED or XQ_BLACK, -1 for a draw */
    int occurrences;             /* of the repeated position */
    int first_ply, last_ply;     /* the position stood after first_ply and again after
                                    last_ply (0 = the start); the cycle is the plies
                                    first_ply+1 .. last_ply */
    xq_rep_side side[2];         /* indexed by xq_color */
    char kind[112];              /* what decided, e.g. "perpetual check", "perpetual chase
                                    of the black horse on e5", "one check one chase", or
                                    "both sides idle" */
    char clause[48];             /* e.g. "CXA1999 §26.1" */
    char reason[448];            /* one sentence: who, what, the verdict, the clause */
    int nplies;                  /* evidence kept: the first XQ_REP_MAX_PLIES plies */
    xq_rep_ply plies[XQ_REP_MAX_PLIES];
    bool out_of_memory;          /* with false returned: the judgement could not have the memory it
                                    needs (not a collision); the rest is zero */
} xq_rep_verdict;

/* Judge the repetition that ends a stretch of moves.
 *
 * base is the position before moves[0] and stands after game ply base_ply
 * (0 = the start position); moves[0..n-1] are legal moves played from it
 * (the replay passes the stretch since the last capture).  The position
 * after the last move is compared in full (board and side to move, not only
 * the Zobrist key) with every earlier one of the same side to move; when it
 * occurs at least `occurrences` (>= 2) times, the cycle runs from its
 * occurrence `occurrences`-1 times back to the last move, every move in it
 * is classified (xq_classify_move; a position and move met again in the
 * cycle is classified once) and *out (caller-owned) gets the verdict under
 * `rules` (CXA1999 §24, §26, ch.7 items 1, 8, 11; AXF rules 6-9, 12, 15,
 * 19, 32) and true is returned.  Otherwise (a Zobrist collision, too few
 * occurrences, n <= 0, occurrences < 2, or an allocation failure) returns
 * false and *out is zeroed.  Memory: n+1 positions and the cycle's
 * lookups (on the stack up to 48 moves, else allocated), a memo of the
 * cycle's classifications and a table of mate-search results (about
 * 200 KB), freed before returning (a failure to allocate the memo or the
 * table only costs time: each move is then classified where it occurs,
 * each mate searched in full). */
bool xq_repetition_judge(const xq_position *base, int base_ply, const xq_move *moves, int n,
                         int occurrences, xq_rules rules, xq_rep_verdict *out);

/* Classifications kept from one judge call to the next (a replay judges
 * the first repetition of a record and, when the record goes on and ends
 * on another one, judges again a stretch that mostly holds the same
 * positions and moves).  xq_classify_move depends on nothing but its
 * (position, move, rules), so a kept classification is the one it would
 * compute again: the verdicts are the same with or without a memo.
 *
 * Caller-owned; zero-initialise it (`xq_rep_memo m = {0};`, or a zeroed
 * field of a larger struct) before the first use, pass it to
 * xq_repetition_judge_memo any number of times (any positions, either
 * rule set), and release it with xq_rep_memo_free.  Not shared between
 * threads. */
typedef struct xq_rep_memo_entry xq_rep_memo_entry;   /* private to repetition.c */
typedef struct xq_rep_memo_slot xq_rep_memo_slot;     /* private to repetition.c */
struct xq_mate_table;                                  /* private to repetition_classify.c */
enum { XQ_REP_MEMO_SEG = 256 };   /* entries per block of entries (below) */
typedef struct {
    xq_rep_memo_entry **entry;  /* owned: XQ_REP_MEMO_MAX / XQ_REP_MEMO_SEG blocks of XQ_REP_MEMO_SEG
                                   entries each, allocated as they are first used and never moved
                                   (entry i is entry[i / SEG][i % SEG]); NULL until the first
                                   classification */
    xq_rep_memo_slot *slot;     /* owned (or in `big`): mask + 1 slots, open addressing: each
                                   a 32-bit hash of an entry's (key, move, rules) and its
                                   index, so a lookup that finds nothing reads no entry */
    int n, cap;                 /* entries used / room for */
    unsigned mask;              /* slots - 1: 2 * cap slots while the memo is small, then
                                   2 * XQ_REP_MEMO_MAX in `big` */
    void *big;                  /* owned, NULL while the memo is small: one region, in huge
                                   pages where the system gives them, for the slots at their
                                   largest and the blocks of entries past the first few
                                   (first-touch page faults are dear on a VM) */
    int oldest;                 /* when full: the entry to be replaced next (the oldest) */
    struct xq_mate_table *mates;/* owned: room for the mate searches' results, NULL until
                                   the first classification (which empties it: kept only
                                   to spare an allocation per classification) */
} xq_rep_memo;

/* Free the entries and the mate-search table of *memo and zero it (it may
 * be used again).  NULL or a zeroed memo: nothing to do. */
void xq_rep_memo_free(xq_rep_memo *memo);

/* xq_repetition_judge, looking classifications up in *memo first and
 * adding the new ones to it (memo NULL: a memo local to the call, as
 * xq_repetition_judge does).  Same verdicts, same return value.  The memo
 * grows to at most XQ_REP_MEMO_MAX entries (80 bytes each: the position
 * with its board packed, the move, and only what the verdict reads of
 * the classification; in blocks of XQ_REP_MEMO_SEG that never move: 1.3 MB
 * and 256 KB of slots at most, past 1,024 entries in one 2 MiB region, a
 * huge page where the system has them; masters.pgn needs 11,038) and then
 * replaces its oldest entry with each new classification (so its memory
 * stays bounded whatever the input's size, and what was classified
 * recently is kept); it also holds a table of mate-search results (about
 * 200 KB, allocated with the first classification).  When it cannot grow
 * (allocation failure) it replaces its oldest entries, or, with none, the
 * moves are classified without it.  One memo may serve many games (a
 * worker's games, e.g. a corpus holding a game twice). */
enum { XQ_REP_MEMO_MAX = 16384 };
bool xq_repetition_judge_memo(const xq_position *base, int base_ply, const xq_move *moves, int n,
                              int occurrences, xq_rules rules, xq_rep_memo *memo, xq_rep_verdict *out);

/* xq_repetition_judge_memo for a stretch known from its end, as a replay
 * holds it: now is the position after game ply now_ply, reached by
 * moves[0..n-1], none of them a capture (the replay's stretch since the
 * last capture), from the position after ply now_ply - n; keys[k] is the
 * Zobrist key of the position after moves[0..k) (keys[n] is now's, as
 * xq_make keeps it; keys[0..n-1] are read).  The positions are made back
 * from now, each move taken back (xq_unmake), and only until the
 * occurrences are found: the cycle's positions, not the whole stretch's.
 * text false: the verdict's kind, clause and reason are left empty (""),
 * and the idle kind of each idle ply in plies is XQ_IDLE_UNKNOWN (not
 * found: xq_classify_move_act), for a caller that never reads them (a
 * replay whose warnings have no text and that has no --strict: only
 * warnings and the JSON report quote them, and those ask for text);
 * every other field is the one xq_repetition_judge_memo gives with the
 * base position after ply now_ply - n, as is the return value
 * (tests/unit/test_judge_back.c).  A memo entry kept without the kind is
 * completed when a judge with text meets it. */
bool xq_repetition_judge_back(const xq_position *now, int now_ply, const xq_move *moves, const uint64_t *keys,
                              int n, int occurrences, xq_rules rules, bool text, xq_rep_memo *memo,
                              xq_rep_verdict *out);

/* ---- internal: for repetition_classify.c and its unit tests only ------
 * (visible where XQ_REPETITION_INTERNAL is defined before this header is
 * first included; not part of the library's interface). */
#ifdef XQ_REPETITION_INTERNAL
#include "board_tables.h"

/* A lighter xq_make for the searches of repetition_classify.c: board,
 * occupancy masks, generals and side to move, as xq_make keeps them, but
 * not the Zobrist key, the halfmove clock nor the move number, which
 * nothing there reads but the table of mate-search results, which gets
 * the key where it needs it from xq_light_key (xq_light_unmake then
 * restores the position exactly as xq_unmake would: those fields never
 * changed).  pos: a position whose
 * masks match its board; from holds a piece of the side to move, to is
 * empty or holds a piece of the other side.  Returns the piece taken
 * (XQ_NONE for none), which xq_light_unmake needs back.  Compared with
 * xq_make / xq_unmake by tests/unit/test_repetition_fast.c. */
static inline xq_piece xq_light_make(xq_position *pos, int from, int to)
{
    xq_piece p = pos->board[from], cap = pos->board[to];
    pos->board[to] = p;
    pos->board[from] = XQ_NONE;
    pos->fboard[xq_sq_occ_of[to].fsq] = p;
    pos->fboard[xq_sq_occ_of[from].fsq] = XQ_NONE;
    pos->rank_occ[xq_rank_of[from]] &= (uint16_t)~xq_rank_bit[from];
    pos->file_occ[xq_file_of[from]] &= (uint16_t)~xq_file_bit[from];
    pos->rank_occ[xq_rank_of[to]] |= xq_rank_bit[to];
    pos->file_occ[xq_file_of[to]] |= xq_file_bit[to];
    if (XQ_KIND(p) == XQ_GENERAL) pos->general[XQ_COLOR(p)] = (uint8_t)to;
    pos->side = (xq_color)(pos->side ^ 1);
    return cap;
}

/* The Zobrist key of pos after xq_light_make(pos, from, to) returned
 * cap, from the key before it (what xq_make would have made of it). */
static inline uint64_t xq_light_key(const xq_position *pos, uint64_t before, int from, int to, xq_piece cap)
{
    xq_piece p = pos->board[to];
    uint64_t k = before ^ xq_zobrist_table[p & 15][from] ^ xq_zobrist_table[p & 15][to] ^ XQ_ZOBRIST_BLACK;
    return cap ? k ^ xq_zobrist_table[cap & 15][to] : k;
}

/* Take back xq_light_make(pos, from, to), which returned cap. */
static inline void xq_light_unmake(xq_position *pos, int from, int to, xq_piece cap)
{
    xq_piece p = pos->board[to];
    pos->board[from] = p;
    pos->board[to] = cap;
    pos->fboard[xq_sq_occ_of[from].fsq] = p;
    pos->fboard[xq_sq_occ_of[to].fsq] = cap;
    pos->rank_occ[xq_rank_of[from]] |= xq_rank_bit[from];
    pos->file_occ[xq_file_of[from]] |= xq_file_bit[from];
    if (!cap) {
        pos->rank_occ[xq_rank_of[to]] &= (uint16_t)~xq_rank_bit[to];
        pos->file_occ[xq_file_of[to]] &= (uint16_t)~xq_file_bit[to];
    }
    if (XQ_KIND(p) == XQ_GENERAL) pos->general[XQ_COLOR(p)] = (uint8_t)from;
    pos->side = (xq_color)(pos->side ^ 1);
}

/* The results of the mate-by-checks searches (§28.2, §29.4) already
 * found: for a position (board and side to move, compared in full) and a
 * depth, whether the side to move mates by checks within it.  A fact of
 * the position, found by a search that ran to its end; but a hit also
 * saves budget, so where a budget would run out the answer could depend
 * on what the table held: xq_classify_move_with therefore empties it
 * first, and a classification depends on its position and move alone
 * (the same under -j N, whatever other games a thread judged).  Not
 * shared between threads. */
typedef struct xq_mate_table xq_mate_table;

/* A new empty table (about 200 KB), or NULL when memory runs out (the
 * searches then run without one).  Free with xq_mate_table_free (NULL:
 * nothing to do). */
xq_mate_table *xq_mate_table_new(void);
void xq_mate_table_free(xq_mate_table *t);

/* The mate-by-checks search of the classification alone (§28.2, §29.4),
 * for tests: whether the side to move of *pos mates by consecutive
 * checks within depth plies (1, 3, 5 or 7), trying at most `budget`
 * moves that may give check, with the table *mates (emptied first; NULL:
 * none) holding its results.  quiet: the caller knows that the other
 * general is not attacked.  *left gets the budget left (negative: the
 * search ran out of it and answered "no").  One search at depth, not the
 * shorter ones a search cut short is followed by in a classification;
 * the same moves in the same order as the search before its per-node
 * work was cut (git b28f3f1: tests/unit/ref_mate_search.h, compared
 * in tests/unit/test_mate_search.c). */
bool xq_mate_search(const xq_position *pos, int depth, int budget, bool quiet, xq_mate_table *mates, int *left);

/* xq_classify_move, with *mates (emptied first) holding its mate
 * searches' results (mates NULL: none kept).  The same classification,
 * with less work. */
void xq_classify_move_with(const xq_position *before, xq_move m, xq_rules rules, xq_mate_table *mates,
                           xq_move_class *out);

/* xq_classify_move_with without the kind of an idle move: out->idle is
 * XQ_IDLE_UNKNOWN when out->act is XQ_ACT_IDLE, and every other field
 * (the act, check, mate threat, the victims, chasers, soldier and pinner
 * victims) the one xq_classify_move_with gives, with the same searches
 * (the kind is found last and searches nothing: its 攔 block count of
 * legal moves and 獻 exchange cost about a tenth of a judge on
 * masters.pgn).  For a judge whose verdict nobody quotes the plies of
 * (xq_repetition_judge_back without text): the verdict never reads the
 * kind (tests/unit/test_judge_back.c, test_judge_idle.c). */
void xq_classify_move_act(const xq_position *before, xq_move m, xq_rules rules, xq_mate_table *mates,
                          xq_move_class *out);

/* How many more legal moves the other side has after m than before it
 * (with it to move both times; negative: m hinders its pieces, §28.7),
 * m legal for the side to move in *before and not a check.  Counted
 * only for the pieces whose moves m may change where it can tell
 * (repetition_classify.c: legal_delta), else in full; the same number as
 * the two full counts (tests/unit/test_judge_block.c). */
int xq_legal_delta(const xq_position *before, xq_move m);

#endif /* XQ_REPETITION_INTERNAL */

#endif
