/* test_replay_fast.c - the replay's shortcuts against the long way.
 *
 * xq_replay_game_memo (replay.c) was made cheaper per ply and per game:
 * one test per ply for the end of the game, the tell after it and the
 * move limit; a per-thread key filter; the moves of a repetition taken
 * from the nodes and its first position replayed; the Result and Format
 * tags found in one walk; a cheaper search for a legal move at the end
 * (now inside xq_has_legal_move); warnings' texts left out on request
 * (no_warning_text).  Here the replay before those changes (a copy,
 * ref_replay_game_memo, below) and the replay now are run on the same
 * records under several rule options, and every field of the outcome and
 * every finding must agree; xq_has_legal_move must agree with
 * xq_legal_moves on many positions, and no_warning_text must change
 * nothing but the texts of warnings.  Records: the master games of
 * ../shared (skipped without them) and made-up ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "test_util.h"

#include "notation.h"
#include "pgn_read.h"
#include "replay.h"

/* ==== the replay as it was (replay.c at bebce5e), the reference ======== */

/* ---- findings ---------------------------------------------------------- */

static void add_finding(xq_replay *out, xq_finding_kind kind, xq_severity sev, int ply,
                        const xq_node *at, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static void add_finding(xq_replay *out, xq_finding_kind kind, xq_severity sev, int ply,
                        const xq_node *at, const char *fmt, ...)
{
    if (sev == XQ_SEV_ERROR) out->error_count++;
    else out->warning_count++;
    if (out->nfindings >= XQ_REPLAY_MAX_FINDINGS) return;
    xq_finding *f = &out->findings[out->nfindings++];
    f->kind = kind;
    f->severity = sev;
    f->ply = ply;
    f->line = at ? at->line : 0;
    f->col = at ? at->col : 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->message, sizeof f->message, fmt, ap);
    va_end(ap);
    /* (may quote record text: the tools print it in xq_name_put's rule) */
}

/* ---- board facts ------------------------------------------------------- */

/* A chariot, horse, cannon or soldier.  CXA1999 §4.2.1 at least: when
 * neither side has one, neither can possibly win. */
static bool is_attacker(xq_piece p)
{
    xq_kind k = XQ_KIND(p);
    return k == XQ_HORSE || k == XQ_CHARIOT || k == XQ_CANNON || k == XQ_SOLDIER;
}

/* Chariots, horses, cannons and soldiers of both sides on the board: when
 * none is left the position is dead; captures count them down. */
static int attackers_on(const xq_position *pos)
{
    int n = 0;
    for (int sq = 0; sq < XQ_SQUARES; sq++) n += is_attacker(pos->board[sq]);
    return n;
}

/* attackers_on of the start position: 4 chariots, 4 horses, 4 cannons,
 * 10 soldiers (test_move_read_quick.c counts them). */
enum { XQ_START_ATTACKERS = 22 };

static xq_result loss_for(xq_color loser)
{
    return loser == XQ_RED ? XQ_RESULT_BLACK : XQ_RESULT_RED;
}

static const char *side_name(xq_color c) { return c == XQ_RED ? "red" : "black"; }

/* Repetition tracking: the positions since the last capture, as their
 * keys, and the moves between them so that the judge (repetition.h) can
 * replay the stretch from its first position when a key repeats. */
typedef struct {
    uint64_t *keys;
    xq_move *moves;          /* moves[i] leads from the position of keys[i] to keys[i+1] */
    size_t n, cap;
    xq_position base;        /* the position of keys[0] */
    int base_ply;            /* the ply after which it stood (0: the start) */
    uint64_t seen[16];       /* 1024-bit filter of the keys since the stretch began */
    bool fresh;              /* the newest key's filter bit was clear: it cannot repeat */
    uint64_t local[256];
    xq_move mlocal[256];
    xq_rep_memo *memo;       /* classifications kept between judge calls (xq_replay_game_memo) */
} key_history;

/* Double the history's arrays (the first ones are its local buffers);
 * false when memory runs out. */
__attribute__((noinline)) static bool history_grow(key_history *h)
{
    size_t cap = h->cap * 2;
    uint64_t *k = malloc(cap * sizeof *k);
    xq_move *mv = malloc(cap * sizeof *mv);
    if (!k || !mv) {
        free(k);
        free(mv);
        return false;
    }
    memcpy(k, h->keys, h->n * sizeof *k);
    memcpy(mv, h->moves, h->n * sizeof *mv);
    if (h->keys != h->local) {
        free(h->keys);
        free(h->moves);
    }
    h->keys = k;
    h->moves = mv;
    h->cap = cap;
    return true;
}

/* Append the key of the position that move m led to (m is ignored for
 * the first position of a stretch).  Every ply: inline, the growth out of
 * line. */
static inline void history_push(key_history *h, uint64_t key, xq_move m)
{
    if (h->n == h->cap && !history_grow(h)) {
        h->fresh = true;   /* out of memory: repetition detection degrades, replay goes on */
        return;
    }
    if (h->n) h->moves[h->n - 1] = m;
    h->keys[h->n++] = key;
    /* most positions are new: the filter spares history_count's scan of
     * the whole stretch at every ply */
    uint64_t bit = (uint64_t)1 << (key & 63), *word = &h->seen[(key >> 6) & 15];
    h->fresh = !(*word & bit);
    *word |= bit;
}

/* Start a new stretch at pos, after ply (a capture makes every earlier
 * position unreachable, CXA1999 §24). */
static void history_restart(key_history *h, const xq_position *pos, int ply)
{
    h->n = 0;
    h->base = *pos;
    h->base_ply = ply;
    memset(h->seen, 0, sizeof h->seen);
}

/* Judge the repetition ending at the newest position (CXA1999 §24, §26 or
 * AXF, per opt->rules); false on a Zobrist collision. */
static bool history_judge(key_history *h, const xq_replay_options *opt, xq_rep_verdict *v)
{
    return xq_repetition_judge_memo(&h->base, h->base_ply, h->moves, (int)h->n - 1, opt->repetitions, opt->rules,
                                    h->memo, v);
}

/* Occurrences of the newest key among the positions since the last
 * capture (same side to move: every second entry). */
static int history_count(const key_history *h)
{
    uint64_t key = h->keys[h->n - 1];
    int count = 0;
    for (size_t i = h->n; i >= 1; i -= 2) {
        count += h->keys[i - 1] == key;
        if (i < 2) break;
    }
    return count;
}

/* Before moves[i] (at ply i+1) the record has a move the board refuses.
 * Fill in the illegal-move part of *out and decide the result. */
static void record_bad_move(xq_replay *out, const xq_position *pos, const xq_node *node, int ply,
                            xq_finding_kind kind, const char *reason, bool loses)
{
    out->status = XQ_STATUS_ILLEGAL;
    out->bad_ply = ply;
    const char *text = node->text ? node->text : "";
    size_t n = strlen(text);
    if (n >= sizeof out->bad_move) {   /* cut to fit, on a UTF-8 character boundary */
        n = sizeof out->bad_move - 1;
        while (n && ((unsigned char)text[n] & 0xC0) == 0x80) n--;
    }
    memcpy(out->bad_move, text, n);
    out->bad_move[n] = '\0';
    out->bad_number = (int)(pos->fullmove);
    out->bad_side = pos->side;
    out->bad_line = node->line;
    out->bad_col = node->col;
    snprintf(out->reason, sizeof out->reason, "%s", reason);
    xq_fen_write(pos, out->fen_before, sizeof out->fen_before);
    if (loses) {
        out->termination = XQ_TERM_ILLEGAL_MOVE;
        out->result_board = loss_for(pos->side);   /* CXA1999 §4.1.6 */
    }
    add_finding(out, kind, XQ_SEV_ERROR, ply, node, "%s", reason);
}

/* The move could not be read for the side to move: would it be a legal
 * move of the other side?  Then the record has the wrong side to move. */
static bool other_side_could(const xq_position *pos, const xq_node *node, xq_notation notation)
{
    xq_position flipped = *pos;
    xq_position_set_side(&flipped, (xq_color)(pos->side ^ 1));
    xq_note_result r;
    xq_move_read(&flipped, node->text, strlen(node->text), notation, 0, &r, NULL, 0);
    return r.status == XQ_NOTE_OK || r.status == XQ_NOTE_RESOLVED;
}

/* A ply the shortcut (xq_move_read_quick) did not take: read it in full.
 * A move the board refuses ends the replay: its finding is recorded and
 * the result is false.  A move resolved by legality (plain file where
 * 前/後 was needed) is taken with its warning.  *m: the move read.  Out of
 * line: the replay loop keeps none of its buffers. */
__attribute__((noinline)) static bool read_move_slow(xq_replay *out, const xq_position *pos, const xq_node *node,
                                                     int ply, size_t len, xq_notation notation, unsigned flags,
                                                     const xq_replay_options *opt, xq_move *m)
{
    char msg[192];
    xq_note_result r;
    xq_move_read(pos, node->text, len, notation, flags, &r, msg, sizeof msg);
    if (r.status != XQ_NOTE_OK && r.status != XQ_NOTE_RESOLVED) {
        char reason[192];
        if (!xq_has_legal_move(pos)) {
            bool chk = xq_in_check(pos, pos->side);
            snprintf(reason, sizeof reason, "game already over: %s is %s", side_name(pos->side),
                     chk ? "checkmated" : "stalemated");
            out->termination = chk ? XQ_TERM_CHECKMATE : XQ_TERM_STALEMATE;
            out->result_board = loss_for(pos->side);   /* §3.1, §3.2 */
            record_bad_move(out, pos, node, ply, XQ_FIND_GAME_OVER, reason, false);
        } else if ((r.status == XQ_NOTE_NO_PIECE || r.status == XQ_NOTE_ILLEGAL) &&
                   other_side_could(pos, node, notation)) {
            snprintf(reason, sizeof reason, "wrong side to move: it is %s's turn", side_name(pos->side));
            record_bad_move(out, pos, node, ply, XQ_FIND_ILLEGAL_MOVE, reason, true);
        } else if (r.status == XQ_NOTE_ILLEGAL && r.move != XQ_MOVE_NONE) {
            snprintf(reason, sizeof reason, "%s", xq_illegal_str(r.why));
            record_bad_move(out, pos, node, ply, XQ_FIND_ILLEGAL_MOVE, reason, true);
        } else {
            xq_finding_kind kind = r.status == XQ_NOTE_AMBIGUOUS ? XQ_FIND_AMBIGUOUS_MOVE
                                 : (r.status == XQ_NOTE_ILLEGAL || r.status == XQ_NOTE_NO_PIECE ||
                                    r.status == XQ_NOTE_BAD_ACTION) ? XQ_FIND_ILLEGAL_MOVE
                                 : XQ_FIND_UNDECODABLE_MOVE;
            record_bad_move(out, pos, node, ply, kind, msg, kind == XQ_FIND_ILLEGAL_MOVE);
        }
        return false;
    }
    if (r.status == XQ_NOTE_RESOLVED)
        add_finding(out, XQ_FIND_TANDEM_PLAIN_FILE, opt->strict ? XQ_SEV_ERROR : XQ_SEV_WARNING, ply,
                    node, "%s", msg);
    *m = r.move;
    return true;
}

/* The first move recorded after the game ended on the board, by the
 * repetition judged at repetition_ply (when not 0), else by a dead
 * position (dead) or the natural move limit: a warning (--strict: error). */
__attribute__((noinline)) static void tell_after_end(xq_replay *out, const xq_replay_options *opt, int ply,
                                                     const xq_node *node, int repetition_ply, bool dead)
{
    xq_severity sev = opt->strict ? XQ_SEV_ERROR : XQ_SEV_WARNING;
    if (repetition_ply)
        add_finding(out, XQ_FIND_AFTER_END, sev, ply, node,
                    "move recorded after the repetition at ply %d was judged: %s, %s (%s)", repetition_ply,
                    out->repetition.kind, xq_result_str(out->repetition.result), out->repetition.clause);
    else
        add_finding(out, XQ_FIND_AFTER_END, sev, ply, node, "move recorded after the game was drawn by %s",
                    dead ? "a dead position (CXA1999 §4.2.1)" : "the natural move limit (CXA1999 §4.2.4)");
}

/* Variations: each is an alternative to the ply it hangs on, so it is
 * replayed from the position before that ply; its first illegal or
 * undecodable move is an error of the record (the main line's status is
 * not changed by it).  Nested variations are checked the same way, to the
 * reader's nesting limit.  Main-line moves were decoded by the replay
 * (node->move, up to out->plies); variation moves are decoded here and
 * stored in their nodes too. */
static void check_branch(xq_branch *b, xq_position pos, int first_ply, bool main_line, int decoded,
                         xq_notation notation, xq_replay *out)
{
    for (size_t i = 0; i < b->count; i++) {
        xq_node *node = &b->nodes[i];
        int ply = first_ply + (int)i;
        for (uint32_t v = 0; v < node->variation_count; v++)
            check_branch(&node->variations[v], pos, ply, false, 0, notation, out);
        xq_move m;
        if (main_line) {
            if ((int)i >= decoded) return;
            m = node->move;
        } else {
            char msg[192];
            xq_note_result r;
            xq_move_read(&pos, node->text, strlen(node->text), notation, 0, &r, msg, sizeof msg);
            if (r.status != XQ_NOTE_OK && r.status != XQ_NOTE_RESOLVED) {
                bool illegal = r.status == XQ_NOTE_ILLEGAL && r.move != XQ_MOVE_NONE;
                add_finding(out, illegal ? XQ_FIND_ILLEGAL_MOVE : XQ_FIND_UNDECODABLE_MOVE, XQ_SEV_ERROR, 0, node,
                            "variation at ply %d (%.40s): %s", ply, node->text,
                            illegal ? xq_illegal_str(r.why) : msg);
                return;
            }
            m = r.move;
            node->move = m;
        }
        xq_undo u;
        xq_make(&pos, m, &u);
    }
}


static void ref_replay_game_memo(xq_game *g, const xq_replay_options *opt, xq_rep_memo *memo, xq_replay *out)
{
    /* all zero but the findings (4.4K of the 5K, written by add_finding
     * before anyone reads them: readers stop at nfindings) */
    size_t past = offsetof(xq_replay, findings) + sizeof out->findings;
    memset(out, 0, offsetof(xq_replay, findings));
    memset((char *)out + past, 0, sizeof *out - past);
    out->result_board = XQ_RESULT_UNKNOWN;

    for (size_t i = 0; i < g->diag_count; i++) {
        const xq_diag *d = &g->diags[i];
        xq_node at = {.line = d->line, .col = d->col};
        xq_severity sev = opt->strict && d->severity == XQ_SEV_WARNING ? XQ_SEV_ERROR : d->severity;   /* (--strict) */
        add_finding(out, XQ_FIND_SYNTAX, sev, 0, &at, "%s", d->msg);
    }

    /* the Result tag, else the movetext result */
    const char *rtag = xq_game_tag(g, "Result");
    out->result_tag = g->result_code == XQ_RESULT_NONE ? XQ_RESULT_NONE : g->result_code;
    if (rtag) {
        xq_result r;
        if (xq_result_parse(rtag, &r)) {
            if (g->result_code != XQ_RESULT_NONE && g->result_code != XQ_RESULT_UNKNOWN &&
                r != XQ_RESULT_UNKNOWN && r != g->result_code)
                add_finding(out, XQ_FIND_BAD_TAG, XQ_SEV_WARNING, 0, NULL,
                            "Result tag says %s but the movetext ends with %s", xq_result_str(r),
                            xq_result_str(g->result_code));
            out->result_tag = r;
        } else if (*rtag) {
            add_finding(out, XQ_FIND_BAD_TAG, opt->strict ? XQ_SEV_ERROR : XQ_SEV_WARNING, 0, NULL,
                        "Result tag \"%s\" is not a result", rtag);
        }
    }

    /* the start position; whether each side is in check there (none in
     * the standard one, any FEN board tested in full, however impossible) */
    xq_position pos;
    xq_checks state = {{false, false}};   /* who is in check (xq_checks_after) */
    int attackers = -1;                   /* attacking pieces on the board (attackers_on), known for the start */
    if (g->fen && !strcmp(g->fen, XQ_START_FEN)) {
        xq_position_start(&pos);   /* most records name the start position: no parse, no check */
        attackers = XQ_START_ATTACKERS;
    } else if (g->fen && *g->fen) {
        char err[160];
        long bad_col;
        /* the findings about the start at the FEN's value (its bad
         * character's column when the value is verbatim) */
        xq_node at = {.line = g->fen_line, .col = g->fen_col}, *fen_at = g->fen_line ? &at : NULL;
        if (!xq_fen_read_at(&pos, g->fen, err, sizeof err, &bad_col)) {
            out->status = XQ_STATUS_UNREADABLE;
            snprintf(out->reason, sizeof out->reason, "bad FEN tag: %s", err);
            if (g->fen_verbatim && bad_col > 0)
                for (long i = 0; i + 1 < bad_col && g->fen[i]; i++) at.col += ((unsigned char)g->fen[i] & 0xC0) != 0x80;
            add_finding(out, XQ_FIND_BAD_FEN, XQ_SEV_ERROR, 0, fen_at, "%s", out->reason);
            return;
        }
        const char *why = xq_position_check(&pos);
        /* without both generals check and mate mean nothing: an error;
         * other impossible positions can still be replayed: a warning */
        bool no_general = pos.general[XQ_RED] >= XQ_SQUARES || pos.general[XQ_BLACK] >= XQ_SQUARES;
        if (!no_general && xq_in_check(&pos, (xq_color)(pos.side ^ 1))) {
            /* a general the side to move could take: not replayed */
            out->status = XQ_STATUS_UNREADABLE;
            snprintf(out->reason, sizeof out->reason, "FEN position cannot arise: %s", why);
            add_finding(out, XQ_FIND_IMPOSSIBLE_POSITION, XQ_SEV_ERROR, 0, fen_at, "%s", out->reason);
            return;
        }
        if (why)
            add_finding(out, XQ_FIND_IMPOSSIBLE_POSITION,
                        opt->strict || no_general ? XQ_SEV_ERROR : XQ_SEV_WARNING, 0, fen_at,
                        "FEN position cannot arise: %s", why);
        xq_checks_init(&state, &pos);
    } else {
        xq_position_start(&pos);
        attackers = XQ_START_ATTACKERS;
    }
    out->start = pos;

    xq_notation notation = xq_notation_from_format_tag(xq_game_tag(g, "Format"));
    key_history hist;   /* not zero-filled: its 2.5K local buffers are written before they are read */
    hist.keys = hist.local;
    hist.moves = hist.mlocal;
    hist.cap = 256;
    xq_rep_memo own_memo = {0};   /* no memo given: one for this game, freed at its end */
    hist.memo = memo ? memo : &own_memo;
    history_restart(&hist, &pos, 0);
    history_push(&hist, pos.key, XQ_MOVE_NONE);
    int checks[2] = {0, 0};          /* checks per side since the last capture */
    /* the options the loop reads every ply, in locals (a call in the loop
     * would make the compiler read them again from *opt) */
    const int move_limit = opt->move_limit, check_cap = opt->check_cap, repetitions = opt->repetitions;
    int limit_plies = 2 * move_limit;
    if (attackers < 0) attackers = attackers_on(&pos);
    bool limit_reached = false, dead = attackers == 0, after_end_told = false;
    bool limit_watch = move_limit > 0;   /* the move limit is on and not reached yet */
    /* the game has ended on the board (repetition, move limit, dead
     * position) and the next move, the first after the end, is not told
     * yet: one test per ply for the three */
    bool end_untold = dead;
    int repetition_ply = 0;
    bool variations = false;         /* a main-line node has variations (check_branch) */

    xq_node *nodes = g->main.nodes;
    size_t count = g->main.count, i;
    int ply = 0;
    for (i = 0; i < count; i++) {
        xq_node *node = &nodes[i];
        ply = (int)i + 1;
        variations |= node->variation_count != 0;
        /* the check state kept along the game spares legality its own
         * general's test for most moves (xq_move_legality_known); the
         * shortcut takes nearly every move, the full reader the rest */
        unsigned flags = state.in_check[pos.side] ? 0u : XQ_READ_NOT_IN_CHECK;
        size_t len = node->text_len ? node->text_len : strlen(node->text);
        xq_move m = xq_move_read_quick(&pos, node->text, len, notation, flags);
        if (m == XQ_MOVE_NONE && !read_move_slow(out, &pos, node, ply, len, notation, flags, opt, &m)) break;
        if (end_untold) {
            end_untold = false;
            after_end_told = true;
            tell_after_end(out, opt, ply, node, repetition_ply, dead);
        }

        xq_color mover = pos.side;
        xq_piece captured = xq_play(&pos, m, &state);   /* xq_make and xq_checks_after */
        node->move = m;
        out->plies = ply;

        if (captured) {
            history_restart(&hist, &pos, ply);
            checks[0] = checks[1] = 0;
            if (is_attacker(captured) && --attackers == 0) {
                dead = true;
                end_untold = !after_end_told;
            }
        } else if (check_cap > 0 && state.in_check[pos.side]) {
            checks[mover]++;   /* only counted when the move limit caps checks */
        }
        history_push(&hist, pos.key, m);
        /* a key seen before in this stretch (the filter) may repeat */
        if (!hist.fresh && !repetition_ply && hist.n >= 5 && history_count(&hist) >= repetitions &&
            history_judge(&hist, opt, &out->repetition)) {
            repetition_ply = ply;
            end_untold = !after_end_told;
        }

        if (limit_watch) {
            int excess = 0;
            if (check_cap > 0)
                for (int c = 0; c < 2; c++)
                    if (checks[c] > check_cap) excess += checks[c] - check_cap;
            if (pos.halfmove - 2 * excess >= limit_plies) {
                limit_reached = true;
                limit_watch = false;
                end_untold = !after_end_told;
            }
        }
    }
    /* a node past an illegal move may still have variations */
    for (; i < count && !variations; i++) variations = nodes[i].variation_count != 0;
    /* the record went on after a repetition and ends on another one: that
     * last one is how the game ended */
    if (repetition_ply && repetition_ply < out->plies && out->status == XQ_STATUS_VALID && hist.n >= 5 &&
        history_count(&hist) >= opt->repetitions) {
        xq_rep_verdict last;
        if (history_judge(&hist, opt, &last)) {
            out->repetition = last;
            repetition_ply = out->plies;
        }
    }
    out->repeated = repetition_ply > 0;
    if (hist.keys != hist.local) {
        free(hist.keys);
        free(hist.moves);
    }
    xq_rep_memo_free(&own_memo);

    if (out->status == XQ_STATUS_VALID) {
        if (!xq_has_legal_move(&pos)) {
            out->termination = xq_in_check(&pos, pos.side) ? XQ_TERM_CHECKMATE : XQ_TERM_STALEMATE;
            out->result_board = loss_for(pos.side);
        } else if (dead) {
            out->termination = XQ_TERM_DEAD_POSITION;
            out->result_board = XQ_RESULT_DRAW;
        } else if (limit_reached) {
            out->termination = XQ_TERM_MOVE_LIMIT;
            out->result_board = XQ_RESULT_DRAW;
        } else if (repetition_ply) {
            /* CXA1999 §24, §26 (or AXF): a draw, or the forbidden side loses */
            out->termination = XQ_TERM_REPETITION;
            out->result_board = out->repetition.result;
        }
    }
    out->final = pos;
    /* a second walk of the main line only for records that have variations */
    if (variations) check_branch(&g->main, out->start, 1, true, out->plies, notation, out);

    /* the recorded result against the board */
    if (out->result_board != XQ_RESULT_UNKNOWN && out->status == XQ_STATUS_VALID) {
        char how[160];
        if (out->termination == XQ_TERM_REPETITION)   /* name the verdict */
            snprintf(how, sizeof how, "repetition: %.100s, %.40s", out->repetition.kind, out->repetition.clause);
        else
            snprintf(how, sizeof how, "%s", xq_termination_str(out->termination));
        /* an error where the board alone ends the game (checkmate,
         * stalemate, dead position); a repetition verdict or the move
         * limit is a draw only when claimed (CXA1999 §23.2, §23.3, §24),
         * so what the record says against it is a warning (--strict:
         * error), the tag missing or decisive alike */
        bool decides = out->termination == XQ_TERM_CHECKMATE || out->termination == XQ_TERM_STALEMATE ||
                       out->termination == XQ_TERM_DEAD_POSITION;
        xq_severity sev = decides || opt->strict ? XQ_SEV_ERROR : XQ_SEV_WARNING;
        if (out->result_tag == XQ_RESULT_NONE || out->result_tag == XQ_RESULT_UNKNOWN) {
            add_finding(out, XQ_FIND_RESULT_MISSING, sev, 0, NULL,
                        "no result recorded, but the board gives %s (%s)",
                        xq_result_str(out->result_board), how);
        } else if (out->result_tag != out->result_board) {
            add_finding(out, XQ_FIND_RESULT_MISMATCH, sev, 0, NULL,
                        "Result %s contradicts the board: %s (%s)", xq_result_str(out->result_tag),
                        xq_result_str(out->result_board), how);
        }
    }
}

/* ==== helpers ========================================================== */

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static unsigned rnd(unsigned n)
{
    return xqt_xorshift(&rng_state, n);
}

/* ==== the comparisons ================================================== */

static void same_position(const xq_position *a, const xq_position *b)
{
    assert_memory_equal(a->board, b->board, sizeof a->board);
    assert_int_equal(a->side, b->side);
    assert_int_equal(a->halfmove, b->halfmove);
    assert_int_equal(a->fullmove, b->fullmove);
    assert_true(a->key == b->key);
    assert_int_equal(a->general[0], b->general[0]);
    assert_int_equal(a->general[1], b->general[1]);
}

/* Outcome b (the replay now) against a (the reference): equal in every
 * field; with quiet (no_warning_text), warnings' messages are empty, and
 * with verdict_quiet (no_warning_text without strict: only warnings would
 * quote them) so are the repetition verdict's kind, clause and reason,
 * and its idle plies' kinds are unknown (xq_repetition_judge_back). */
static void same_replay(const xq_replay *a, const xq_replay *b, bool quiet, bool verdict_quiet)
{
    xqt_same_outcome(a, b, quiet);
    if (a->status != XQ_STATUS_UNREADABLE) {
        same_position(&a->start, &b->start);
        same_position(&a->final, &b->final);
    }
    assert_int_equal(a->repeated, b->repeated);
    if (!a->repeated) return;   /* b's verdict is then an earlier game's (replay.h) */
    xq_rep_verdict want = a->repetition;
    if (verdict_quiet) {
        memset(want.kind, 0, sizeof want.kind);
        memset(want.clause, 0, sizeof want.clause);
        memset(want.reason, 0, sizeof want.reason);
        for (int i = 0; i < want.nplies; i++)
            if (want.plies[i].act == XQ_ACT_IDLE) want.plies[i].idle = XQ_IDLE_UNKNOWN;
    }
    assert_memory_equal(&want, &b->repetition, sizeof want);
}

/* Moves stored in the nodes of a branch and its variations, in order. */
static size_t moves_of(const xq_branch *br, xq_move *out, size_t n, size_t max)
{
    for (size_t i = 0; i < br->count && n < max; i++) {
        out[n++] = br->nodes[i].move;
        for (uint32_t v = 0; v < br->nodes[i].variation_count; v++)
            n = moves_of(&br->nodes[i].variations[v], out, n, max);
    }
    return n;
}

static void clear_moves(xq_branch *br)
{
    for (size_t i = 0; i < br->count; i++) {
        br->nodes[i].move = XQ_MOVE_NONE;
        for (uint32_t v = 0; v < br->nodes[i].variation_count; v++) clear_moves(&br->nodes[i].variations[v]);
    }
}

/* The rule options the comparisons run under. */
static int option_sets(xq_replay_options *o)
{
    int n = 0;
    for (int k = 0; k < 8; k++) {
        xq_replay_options_default(&o[n]);
        switch (k) {
        case 1: o[n].strict = true; break;
        case 2: o[n].rules = XQ_RULES_AXF; o[n].check_cap = 10; break;
        case 3: o[n].move_limit = 20; o[n].repetitions = 2; break;
        case 4: o[n].check_cap = 3; o[n].move_limit = 25; break;
        case 5: o[n].move_limit = 3; o[n].strict = true; break;
        case 6: o[n].move_limit = 0; break;
        case 7: o[n].check_cap = 1; o[n].move_limit = 2; o[n].rules = XQ_RULES_AXF; break;
        default: break;
        }
        n++;
    }
    return n;
}

typedef struct {
    xq_rep_memo ref_memo;
    xq_replay_memo memo;
    xq_replay *a, *b;
    xq_move *ma, *mb;
    size_t games;
} cmp_ctx;

enum { MAX_MOVES_KEPT = 1 << 16 };

/* Replay g under every option set, the reference and the replay now (with
 * and without warning texts), and compare. */
static void compare_game(cmp_ctx *c, xq_game *g)
{
    xq_replay_options opts[8];
    int n = option_sets(opts);
    for (int k = 0; k < n; k++) {
        clear_moves(&g->main);
        ref_replay_game_memo(g, &opts[k], &c->ref_memo, c->a);
        size_t na = moves_of(&g->main, c->ma, 0, MAX_MOVES_KEPT);
        for (int quiet = 0; quiet < 2; quiet++) {
            xq_replay_options o = opts[k];
            o.no_warning_text = quiet;
            clear_moves(&g->main);
            xq_replay_game_memo(g, &o, quiet ? &c->memo : NULL, c->b);
            same_replay(c->a, c->b, quiet, quiet && !o.strict);
            assert_int_equal(moves_of(&g->main, c->mb, 0, MAX_MOVES_KEPT), na);
            assert_memory_equal(c->ma, c->mb, na * sizeof *c->ma);
        }
    }
    c->games++;
}

static void ctx_init(cmp_ctx *c)
{
    memset(c, 0, sizeof *c);
    c->a = malloc(sizeof *c->a);
    c->b = malloc(sizeof *c->b);
    c->ma = malloc(MAX_MOVES_KEPT * sizeof *c->ma);
    c->mb = malloc(MAX_MOVES_KEPT * sizeof *c->mb);
    assert_true(c->a && c->b && c->ma && c->mb);
}

static void ctx_free(cmp_ctx *c)
{
    xq_rep_memo_free(&c->ref_memo);
    xq_replay_memo_free(&c->memo);
    free(c->a);
    free(c->b);
    free(c->ma);
    free(c->mb);
}

/* compare_game on the first max records of path. */
static void compare_file(cmp_ctx *c, const char *path, size_t max)
{
    xq_reader *rd = xqt_reader_open(path);
    xq_game g;
    xq_game_init(&g);
    for (size_t i = 0; i < max && xq_reader_next(rd, &g) == 1; i++) compare_game(c, &g);
    xq_game_free(&g);
    xq_reader_close(rd);
}

static void corpus_games_agree(void **state)
{
    (void)state;
    static const struct { const char *file; size_t max; } files[] = {
        {"/corpus/ccpd/masters.pgn.gz", 1500}, {"/corpus/ccpd/endgames.pgn.gz", 300},
        {"/corpus/ccpd/mating-drills.pgn.gz", 300}, {"/corpus/ccpd/tactics.pgn.gz", 300},
        {"/corpus/ccpd/middlegames.pgn.gz", 200},
    };
    char path[512];
    snprintf(path, sizeof path, "%s%s", XQ_SHARED, files[0].file);
    skip_without_shared(path);
    cmp_ctx c;
    ctx_init(&c);
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        snprintf(path, sizeof path, "%s%s", XQ_SHARED, files[f].file);
        if (access(path, R_OK) == 0) compare_file(&c, path, files[f].max);
    }
    assert_true(c.games >= 1000);
    ctx_free(&c);
}

/* Records made up for the paths the corpus rarely takes: dead positions
 * (from the start, after a capture), moves after the end, repetitions
 * followed by more moves, tags in other cases and twice, bad FENs,
 * impossible positions, variations, a record longer than the replay's
 * local key buffer. */
static void made_up_games_agree(void **state)
{
    (void)state;
    static const char *const records[] = {
        "[FEN \"3Rk4/9/9/9/9/9/9/9/9/4K4 b - - 0 1\"]\n[Result \"1-0\"]\n\n1... e9d9 2. e0e1 d9d8 3. e1e0 d8d9 1-0\n",
        "[FEN \"3ak4/9/9/9/9/9/9/9/9/3K5 w - - 0 1\"]\n[Result \"*\"]\n\n1. d0d1 d9e8 2. d1d0 e8d9 3. d0d1 d9e8 "
        "4. d1d0 e8d9 5. d0d1 *\n",
        "[FEN \"3ak4/9/9/9/9/9/9/9/9/3K5 w - - 0 1\"]\n\n1. d0d1\n",
        "[FEN \"4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1\"]\n\n*\n",
        "[FEN \"r2ak4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1\"]\n[Result \"0-1\"]\n\n1. d0d1 a9a8 2. d1d0 a8a9 3. d0d1 a9a8 "
        "4. d1d0 a8a9 5. d0d1 a9d9 6. e1d2 d9d2 7. d1e1 0-1\n",
        "[RESULT \"1-0\"]\n[result \"0-1\"]\n[format \"ICCS\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 0-1\n",
        "[Result \"红胜\"]\n[FORMAT \"WXF\"]\n\n1. C2.5 H8+7 2. H2+3 R9.8 1-0\n",
        "[Result \"nonsense\"]\n\n1. h2e2 h9g7 *\n",
        "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR/9 w - - 0 1\"]\n\n1. h2e2 *\n",
        "[FEN \"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"]\n\n1. e0d0 *\n",
        "1. h2e2 (1. b2e2 h9g7 (1... b9c7 2. x9x9) 2. h0g2) h9g7 2. h0g2 i9h9 3. i0h0 *\n",
        "[Result \"1-0\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 h9i9 4. h0i0 i9h9 5. i0h0 h9i9 6. h0i0 i9h9 7. i0h0 "
        "h9i9 8. h0i0 i9h9 9. i0h0 b9c7 1-0\n",
        "[FEN \"4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1\"]\n[Result \"1/2-1/2\"]\n\n1. i0i9 e9e8\n",
        "[FEN \"3k5/9/9/9/9/9/9/9/9/4K3R w - - 0 1\"]\n[Result \"*\"]\n\n1. i0i8\n",
        "1. h2e2 h9g7 2. h2e2\n",
    };
    cmp_ctx c;
    ctx_init(&c);
    for (size_t i = 0; i < sizeof records / sizeof records[0]; i++) {
        char path[64];
        save_tmp(records[i], strlen(records[i]), path);
        compare_file(&c, path, 10);
        unlink(path);
    }
    /* a long record: the key buffer grows (more than 256 plies without a
     * capture), shuffling horses back and forth with repetitions */
    size_t cap = 64 * 1024, len = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    for (int i = 0; i < 200; i++)
        len += (size_t)snprintf(text + len, cap - len, "%d. %s %s ", i + 1, i % 2 ? "g2h0" : "h0g2",
                                i % 2 ? "g7h9" : "h9g7");
    len += (size_t)snprintf(text + len, cap - len, "*\n");
    char path[64];
    save_tmp(text, len, path);
    compare_file(&c, path, 10);
    unlink(path);
    free(text);
    assert_true(c.games >= 16);
    ctx_free(&c);
}

/* The Result and Format tags in any case, twice, or among others named
 * alike (Red, Round, FEN, ...): the first of each name counts, as
 * xq_game_tag finds it (tags added straight to the game: the reader
 * keeps one tag of a name). */
static void tags_in_any_case_agree(void **state)
{
    (void)state;
    static const char *const tags[][2] = {
        {"Red", "x"}, {"RESULT", "1-0"}, {"result", "0-1"}, {"Resul", "1-0"}, {"Results", "0-1"}, {"Format", "ICCS"},
        {"FORMAT", "WXF"}, {"Round", "1"}, {"format", "chinese"}, {"Result", "1/2-1/2"}, {"Forma", "ICCS"},
        {"R", "1-0"}, {"F", "x"}, {"rESULT", "*"}, {"ForMat", "ICCS"},
    };
    enum { NTAGS = sizeof tags / sizeof tags[0] };
    static const char record[] = "1. h2e2 h9g7 2. h0g2 i9h9 0-1\n";
    cmp_ctx c;
    ctx_init(&c);
    char path[64];
    save_tmp(record, strlen(record), path);
    for (unsigned k = 0; k < 400; k++) {
        char err[256];
        xq_reader *rd = xq_reader_open(path, NULL, err, sizeof err);
        assert_non_null(rd);
        xq_game g;
        xq_game_init(&g);
        assert_int_equal(xq_reader_next(rd, &g), 1);
        int n = (int)rnd(6);
        for (int i = 0; i < n; i++) {
            unsigned t = rnd(NTAGS);
            assert_true(xq_game_add_tag(&g, tags[t][0], strlen(tags[t][0]), tags[t][1], strlen(tags[t][1])));
        }
        compare_game(&c, &g);
        xq_game_free(&g);
        xq_reader_close(rd);
    }
    unlink(path);
    ctx_free(&c);
}

/* ==== xq_has_legal_move (its shortcuts) ================================ */

static void same_legal_move_answer(const xq_position *pos)
{
    static xq_move moves[XQ_MAX_MOVES];
    bool any = xq_legal_moves(pos, moves) > 0;
    assert_int_equal(xq_has_legal_move(pos), any);
    assert_int_equal(xq_has_legal_move_known(pos, xq_in_check(pos, pos->side)), any);
}

/* Along random games from the start, captures preferred half the time
 * (down to bare endgames, mates and stalemates): every position. */
static void legal_move_on_random_games(void **state)
{
    (void)state;
    xq_move *moves = malloc(XQ_MAX_MOVES * sizeof *moves);
    assert_non_null(moves);
    int ends = 0;
    for (int game = 0; game < 400; game++) {
        xq_position pos;
        xq_position_start(&pos);
        for (int ply = 0; ply < 400; ply++) {
            same_legal_move_answer(&pos);
            int n = xq_legal_moves(&pos, moves);
            if (n == 0) {
                ends++;
                break;
            }
            xq_move m = moves[rnd((unsigned)n)];
            if (rnd(2))
                for (int i = 0; i < n; i++)
                    if (pos.board[XQ_TO(moves[i])]) {
                        m = moves[i];
                        break;
                    }
            xq_undo u;
            xq_make(&pos, m, &u);
        }
    }
    assert_true(ends > 0);   /* some games reached a mate or stalemate */
    free(moves);
}

/* Random boards, however impossible: the two generals in their palaces,
 * up to 14 other pieces anywhere, either side to move. */
static void legal_move_on_random_boards(void **state)
{
    (void)state;
    static const uint8_t palace[2][9] = {{3, 4, 5, 12, 13, 14, 21, 22, 23}, {66, 67, 68, 75, 76, 77, 84, 85, 86}};
    int none = 0;
    for (int k = 0; k < 60000; k++) {
        xq_position pos;
        xq_position_clear(&pos);
        xq_position_put(&pos, palace[0][rnd(9)], XQ_PIECE(XQ_GENERAL, XQ_RED));
        xq_position_put(&pos, palace[1][rnd(9)], XQ_PIECE(XQ_GENERAL, XQ_BLACK));
        int extra = (int)rnd(15);
        for (int i = 0; i < extra; i++) {
            int sq = (int)rnd(XQ_SQUARES);
            if (pos.board[sq]) continue;
            xq_position_put(&pos, sq, XQ_PIECE(2 + rnd(5) + (rnd(3) == 0), rnd(2)));
        }
        xq_position_set_side(&pos, (xq_color)rnd(2));
        same_legal_move_answer(&pos);
        none += !xq_has_legal_move(&pos);
    }
    assert_true(none > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(corpus_games_agree),
        cmocka_unit_test(made_up_games_agree),
        cmocka_unit_test(tags_in_any_case_agree),
        cmocka_unit_test(legal_move_on_random_games),
        cmocka_unit_test(legal_move_on_random_boards),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
