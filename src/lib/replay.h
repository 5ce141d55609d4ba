/* replay.h - replay one game record under the rules and collect findings.
 *
 * The one place where a record meets the board: xq-validate, xq-stats and
 * xq-convert all replay through here, so every tool agrees on what a game
 * is, where it breaks and how it ended.
 */
#ifndef XQ_REPLAY_H
#define XQ_REPLAY_H

#include "game.h"
#include "line_memo.h"
#include "position.h"
#include "repetition.h"

/* Parse a result as written in a Result tag: the PGN tokens (game.h
 * xq_result), also "1:0"-style, full-width digits, and the words 紅勝/红胜,
 * 黑勝/黑胜, 和棋/和局/和.  "*" parses as XQ_RESULT_UNKNOWN.  Returns false
 * (and *out = XQ_RESULT_NONE) when text is not a result. */
bool xq_result_parse(const char *text, xq_result *out);

/* How the game ended on the board. */
typedef enum {
    XQ_TERM_NONE = 0,        /* the record simply stops (resignation, agreement, unknown) */
    XQ_TERM_CHECKMATE,       /* CXA1999 §3.1 */
    XQ_TERM_STALEMATE,       /* CXA1999 §3.2: no legal move, a loss */
    XQ_TERM_REPETITION,      /* a position occurred `repetitions` times (§23.2); the verdict
                                (§24, §26) is in xq_replay.repetition */
    XQ_TERM_MOVE_LIMIT,      /* natural move limit reached (§4.2.4) */
    XQ_TERM_DEAD_POSITION,   /* neither side has an attacking piece (§4.2.1) */
    XQ_TERM_ILLEGAL_MOVE     /* an illegal move loses (§4.1.6) */
} xq_termination;

/* "checkmate", "stalemate", "repetition", "move-limit", "dead-position",
 * "illegal-move" or "none". */
const char *xq_termination_str(xq_termination t);

/* Replay status of a game. */
typedef enum {
    XQ_STATUS_VALID = 0,     /* every move decoded and legal */
    XQ_STATUS_ILLEGAL,       /* a move is illegal or cannot be decoded */
    XQ_STATUS_UNREADABLE     /* no start position (bad FEN) or no record at all */
} xq_status;

const char *xq_status_str(xq_status s);   /* "valid", "illegal", "unreadable" */

/* Kinds of findings, for reports and for xq-stats' "errors by kind". */
typedef enum {
    XQ_FIND_ILLEGAL_MOVE = 0,  /* a decoded move breaks a move rule */
    XQ_FIND_UNDECODABLE_MOVE,  /* a move text names no move here */
    XQ_FIND_AMBIGUOUS_MOVE,    /* a move text names several legal moves */
    XQ_FIND_GAME_OVER,         /* a move after checkmate or stalemate */
    XQ_FIND_BAD_FEN,           /* the FEN tag does not parse */
    XQ_FIND_IMPOSSIBLE_POSITION, /* the FEN position cannot arise (warning) */
    XQ_FIND_RESULT_MISMATCH,   /* Result tag contradicts the board */
    XQ_FIND_RESULT_MISSING,    /* the board decides, the Result tag does not say */
    XQ_FIND_BAD_TAG,           /* a Result or Date tag that does not parse (warning) */
    XQ_FIND_TANDEM_PLAIN_FILE, /* plain file where 前/後 was needed (warning) */
    XQ_FIND_AFTER_END,         /* moves after a move limit / repetition / dead position (warning) */
    XQ_FIND_SYNTAX,            /* the record reader's diagnostics */
    XQ_FIND_KIND_COUNT
} xq_finding_kind;

/* Short machine name of a kind: "illegal-move", "tandem-plain-file", ... */
const char *xq_finding_kind_str(xq_finding_kind k);

typedef struct {
    xq_finding_kind kind;
    xq_severity severity;
    int ply;                 /* 1-based ply, 0 when about the whole game */
    uint32_t line, col;      /* where in the file (1-based), 0 if unknown */
    char message[256];
} xq_finding;

/* Where finding f of game g is told, as text and JSON reports give it:
 * its own line and column (1-based), else, for a finding about the whole
 * game (the result, a repetition: line 0), the record's first line and
 * column 1.  Both outputs always the same. */
static inline void xq_finding_place(const xq_finding *f, const xq_game *g, unsigned long *line, unsigned long *col)
{
    *line = f->line ? f->line : (unsigned long)g->first_line;
    *col = f->line ? f->col : 1;
}

/* Rule options, from the command line. */
typedef struct {
    int move_limit;      /* rounds without capture for the natural limit (§4.2.4), default 60 */
    int check_cap;       /* checks per side counted by the move limit, 0 = all (CXA1999 text); AXF: 10 */
    int repetitions;     /* occurrences of a position that end the game, default 3 */
    xq_rules rules;      /* repetition rules (棋例): XQ_RULES_CXA1999 (default) or XQ_RULES_AXF */
    bool strict;         /* warnings that --strict makes errors */
    bool no_warning_text; /* leave the message of every warning empty (""), for a caller that
                             prints only errors: warnings are still counted and kept with their
                             kind, severity, ply and place, and errors keep their text.  Spares
                             formatting them (most are plain-file tandem warnings).  Without
                             strict, the repetition verdict's kind, clause and reason are left
                             empty too (only warnings quote them then).  Default false */
    bool no_moves;       /* the caller reads no main-line node->move after xq_replay_game_memo
                            (xq-validate: its reports quote the verdict's own moves): a main line
                            taken from the memo of main lines (xq_replay_game_memo) then leaves
                            the nodes' move fields as they were, and the memo keeps no moves for
                            it (2 bytes a ply of fresh memory a new line; a line with variations
                            is played, as check_branch starts from its moves).  Every other field
                            of the result is the same.  Default false */
    bool no_final;       /* the caller reads no out->final after xq_replay_game_memo (no tool
                            does): it is left all zero, so that a main line taken from the memo
                            of main lines is not set up as its final position (xq_position_place
                            on every repeated game: 13.3 M of masters.pgn's 1,431.6 M
                            instructions).  The memo then keeps no final position either (the
                            line's key holds no_final, so such a line is taken only by a
                            caller with no_final): final_pack on every line kept cost 20 M of
                            masters.pgn's 1,920 M in the cache and branch model.  Every other
                            field of the result is the same.  Default false */
} xq_replay_options;

/* Defaults of the CXA 1999 rule set. */
void xq_replay_options_default(xq_replay_options *opt);

enum { XQ_REPLAY_MAX_FINDINGS = 16 };

/* The outcome of replaying one game.  Plain value, no pointers to free. */
typedef struct {
    xq_status status;
    xq_termination termination;
    xq_result result_tag;        /* Result tag, else the movetext result; NONE if neither */
    xq_result result_board;      /* what the board and the rules prove; UNKNOWN if nothing */
    int plies;                   /* moves played legally */
    int bad_ply;                 /* 1-based ply of the first illegal move, 0 if none */
    char bad_move[64];           /* that move as written */
    int bad_number;              /* its move number (1-based, "12." or "12..."), 0 if none */
    xq_color bad_side;
    uint32_t bad_line, bad_col;
    char reason[192];            /* why it is illegal / unreadable */
    char fen_before[XQ_FEN_MAX]; /* the position before the illegal move */
    /* The xq_move_read flags the record's coordinates are read with, for
     * the whole game: XQ_READ_RANKS_FROM_1 when its ICCS/UCCI/SAN moves
     * count ranks 1 to 10 (Fairy-Stockfish; decided from the main line:
     * a rank 10 and no rank 0 written, or a first move that reads only
     * so, when its first move is a coordinate; formats.md §1c), else
     * XQ_READ_RANKS_FROM_0 (a rank 10 is an error); 0 for no moves.
     * Writers that read the record's variations again read them with
     * these */
    unsigned read_flags;
    int error_count, warning_count;
    /* Every finding counted by kind and severity ([kind][xq_severity]),
     * kept in findings[] or not: a count or kind taken from the list
     * alone misses what did not fit (a game with 20 plain-file warnings
     * and then an illegal move) */
    int kind_counts[XQ_FIND_KIND_COUNT][2];
    /* The findings kept: the first XQ_REPLAY_MAX_FINDINGS, errors before
     * warnings (an error met with the list full takes the place of its
     * latest warning; so the first min(error_count, XQ_REPLAY_MAX_FINDINGS)
     * errors are always listed), in the order found */
    int nfindings;
    xq_finding findings[XQ_REPLAY_MAX_FINDINGS];
    xq_position start, final;
    /* The first position that occurred `repetitions` times, judged under
     * opt->rules (repetition.h); when the record goes on past it and ends
     * on another such position, that last one.  repeated is false when no
     * position repeated so often; then repetition is not written (it may
     * hold an earlier game's verdict: read it only when repeated), which
     * spares clearing its 1.5 KB every game. */
    bool repeated;
    xq_rep_verdict repetition;
    /* Memory ran out during the replay where the rules needed it (the
     * positions' keys of a long game, a repetition's judgement): a
     * repetition may have gone unjudged, so the findings may be
     * incomplete.  The pipeline then fails the run (pipeline.h). */
    bool out_of_memory;
} xq_replay;

/* The move of main-line ply `ply` (1-based) of g as a record numbers it,
 * from r's start position (the replay of g): "12. 炮二平五" for Red,
 * "12... 炮２平５" for Black, the text cut to fit size bytes on a UTF-8
 * character boundary, into buf (caller-owned, size > 0).  "" when ply is
 * not one of the main line's or r has no start (an unreadable game).  What
 * a report names a finding's ply by, as the first illegal move's
 * (bad_number, bad_move). */
void xq_replay_ply_move(const xq_game *g, const xq_replay *r, int ply, char *buf, size_t size);

/* Replay the main line of g from its FEN tag (or the start position),
 * decoding each move with the notation the Format tag names (auto when
 * absent), and fill *out.  Also stores the decoded move in each main-line
 * node of g (node->move).  Never fails: problems become findings. */
void xq_replay_game(xq_game *g, const xq_replay_options *opt, xq_replay *out);

/* Does the board alone end r's game, with no claim and no arbiter: every
 * move legal and the game over by checkmate or stalemate (CXA1999 §4.1.1,
 * §4.1.3) or in a dead position (§4.2.1, a draw with nothing to claim)?
 * False for a repetition verdict (judged when a player asks, §23.2, §24)
 * and for the natural move limit (a draw when claimed, §23.3), which a
 * Result tag may rightly overrule, and for a game the board does not end.
 * What xq-validate --fix-results may write into a Result tag. */
bool xq_replay_board_decides(const xq_replay *r);

/* What a thread keeps between the games it replays, to spare work on
 * games a database holds twice: the judge's classifications of
 * (position, move) pairs (repetition.h) and whole main lines already
 * replayed (line_memo.h), its own or one that several threads share.
 * Caller-owned; zero-initialise, release with xq_replay_memo_free; used
 * by one thread at a time. */
typedef struct {
    xq_rep_memo judge;
    xq_line_memo lines;          /* the thread's own memo of main lines */
    xq_line_memo *shared_lines;  /* not owned: a shared one (xq_line_memo_share) used instead of
                                    lines when set (the pipeline's threads share one) */
    uint16_t *key;               /* owned: scratch for a main line's key (replay.c) */
    size_t key_cap;              /* its room, in uint16_t */
} xq_replay_memo;

/* Free what *memo owns (not shared_lines) and zero it (it may be used
 * again).  NULL: nothing. */
void xq_replay_memo_free(xq_replay_memo *memo);

/* xq_replay_game, with memo (NULL: as xq_replay_game): the repetition
 * judge takes the classifications made in earlier games from memo->judge
 * and adds the new ones; and a main line from the standard start
 * replayed before under the same options and notation (the same node
 * descs, and texts where a desc is no full form), every move played and
 * no finding with a text, is taken from the memo of main lines
 * (memo->shared_lines, else memo->lines): its moves (node->move; not
 * with opt->no_moves, see there), findings (placed at this game's nodes),
 * ending and final position, instead of being played again.  The result
 * is the same as with memo NULL, byte for byte (test_line_memo.c). */
void xq_replay_game_memo(xq_game *g, const xq_replay_options *opt, xq_replay_memo *memo, xq_replay *out);

#endif
