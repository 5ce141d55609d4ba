/* replay.c - replay a record's main line, find the first illegal move,
 * how the game ended, and whether the Result tag agrees (CXA1999 §3-§4). */
#include "replay.h"

#include <assert.h>
#include <stdarg.h>
#include <stddef.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "notation.h"

const char *xq_termination_str(xq_termination t)
{
    static const char *const names[] = {"none", "checkmate", "stalemate", "repetition",
                                        "move-limit", "dead-position", "illegal-move"};
    return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "none";
}

const char *xq_status_str(xq_status s)
{
    static const char *const names[] = {"valid", "illegal", "unreadable"};
    return (unsigned)s < 3 ? names[s] : "unreadable";
}

bool xq_replay_board_decides(const xq_replay *r)
{
    if (r->status != XQ_STATUS_VALID) return false;
    return r->termination == XQ_TERM_CHECKMATE || r->termination == XQ_TERM_STALEMATE ||
           r->termination == XQ_TERM_DEAD_POSITION;
}

const char *xq_finding_kind_str(xq_finding_kind k)
{
    static const char *const names[XQ_FIND_KIND_COUNT] = {
        [XQ_FIND_ILLEGAL_MOVE] = "illegal-move",
        [XQ_FIND_UNDECODABLE_MOVE] = "undecodable-move",
        [XQ_FIND_AMBIGUOUS_MOVE] = "ambiguous-move",
        [XQ_FIND_GAME_OVER] = "move-after-game-end",
        [XQ_FIND_BAD_FEN] = "bad-fen",
        [XQ_FIND_IMPOSSIBLE_POSITION] = "impossible-position",
        [XQ_FIND_RESULT_MISMATCH] = "result-mismatch",
        [XQ_FIND_RESULT_MISSING] = "result-missing",
        [XQ_FIND_BAD_TAG] = "bad-tag",
        [XQ_FIND_TANDEM_PLAIN_FILE] = "tandem-plain-file",
        [XQ_FIND_AFTER_END] = "moves-after-end",
        [XQ_FIND_SYNTAX] = "syntax",
    };
    return (unsigned)k < XQ_FIND_KIND_COUNT ? names[k] : "unknown";
}

void xq_replay_options_default(xq_replay_options *opt)
{
    opt->move_limit = 60;    /* CXA1999 §4.2.4 */
    opt->check_cap = 0;      /* the CXA text counts every ply; AXF caps checks at 10 */
    opt->repetitions = 3;    /* CXA1999 §23.2 */
    opt->rules = XQ_RULES_CXA1999;
    opt->strict = false;
    opt->no_warning_text = false;
    opt->no_moves = false;
    opt->no_final = false;
}

/* The results nearly every Result tag holds, "1-0", "0-1", "1/2-1/2" and
 * "*" exactly (no blanks), into *out: true when text is one of them (the
 * table below gives the same), false for any other text.  A few byte
 * compares, each only after the bytes before it matched (none is read
 * past the NUL), where the table walk costs a strlen and a memcmp per
 * word. */
static bool result_common(const char *t, xq_result *out)
{
    if (t[0] == '*') {
        if (t[1]) return false;
        *out = XQ_RESULT_UNKNOWN;
        return true;
    }
    if (t[0] == '0') {
        if (t[1] != '-' || t[2] != '1' || t[3]) return false;
        *out = XQ_RESULT_BLACK;
        return true;
    }
    if (t[0] != '1') return false;
    if (t[1] == '-') {
        if (t[2] != '0' || t[3]) return false;
        *out = XQ_RESULT_RED;
        return true;
    }
    if (t[1] != '/' || t[2] != '2' || t[3] != '-' || t[4] != '1' || t[5] != '/' || t[6] != '2' || t[7]) return false;
    *out = XQ_RESULT_DRAW;
    return true;
}

/* xq_result_parse past the common results: blanks trimmed, then each
 * spelling compared.  Out of line: the common path keeps no registers. */
__attribute__((noinline)) static bool result_parse_table(const char *text, xq_result *out)
{
    /* each word with its length (known at compile time: no strlen per word) */
#define W(s, r) {s, sizeof s - 1, r}
    static const struct { const char *text; size_t len; xq_result r; } words[] = {
        W("1-0", XQ_RESULT_RED), W("0-1", XQ_RESULT_BLACK), W("1/2-1/2", XQ_RESULT_DRAW),
        W("*", XQ_RESULT_UNKNOWN), W("1:0", XQ_RESULT_RED), W("0:1", XQ_RESULT_BLACK),
        W("½-½", XQ_RESULT_DRAW), W("0.5-0.5", XQ_RESULT_DRAW), W("=", XQ_RESULT_DRAW),
        W("１－０", XQ_RESULT_RED), W("０－１", XQ_RESULT_BLACK), W("１／２－１／２", XQ_RESULT_DRAW),
        W("红胜", XQ_RESULT_RED), W("紅勝", XQ_RESULT_RED), W("红先胜", XQ_RESULT_RED), W("紅先勝", XQ_RESULT_RED),
        W("黑胜", XQ_RESULT_BLACK), W("黑勝", XQ_RESULT_BLACK), W("红负", XQ_RESULT_BLACK), W("紅負", XQ_RESULT_BLACK),
        W("和棋", XQ_RESULT_DRAW), W("和局", XQ_RESULT_DRAW), W("和", XQ_RESULT_DRAW),
        W("未知", XQ_RESULT_UNKNOWN), W("?", XQ_RESULT_UNKNOWN),
    };
#undef W
    while (*text == ' ') text++;
    size_t n = strlen(text);
    while (n && text[n - 1] == ' ') n--;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (words[i].len == n && !memcmp(words[i].text, text, n)) {
            *out = words[i].r;
            return true;
        }
    }
    return false;
}

void xq_replay_ply_move(const xq_game *g, const xq_replay *r, int ply, char *buf, size_t size)
{
    buf[0] = '\0';
    if (ply < 1 || (size_t)ply > g->main.count || r->status == XQ_STATUS_UNREADABLE || !r->start.fullmove) return;
    const xq_node *n = &g->main.nodes[ply - 1];
    const char *text = n->text ? n->text : "";
    size_t len = n->text_len ? n->text_len : strlen(text);
    int steps = ply - 1 + (r->start.side == XQ_BLACK);   /* half-moves from Red's move of the start's number */
    int w = snprintf(buf, size, "%d%s ", r->start.fullmove + steps / 2, steps % 2 ? "..." : ".");
    if (w < 0 || (size_t)w >= size) {
        buf[0] = '\0';
        return;
    }
    size_t room = size - 1 - (size_t)w;
    if (len > room) {   /* cut on a UTF-8 character boundary */
        len = room;
        while (len && ((unsigned char)text[len] & 0xC0) == 0x80) len--;
    }
    memcpy(buf + w, text, len);
    buf[(size_t)w + len] = '\0';
}

bool xq_result_parse(const char *text, xq_result *out)
{
    *out = XQ_RESULT_NONE;
    if (!text) return false;
    return result_common(text, out) || result_parse_table(text, out);
}

/* ---- findings ---------------------------------------------------------- */

/* Make room for an error in a full list of findings: the latest warning
 * leaves it (still counted), the others keep their order.  False when
 * every finding kept is an error. */
static __attribute__((noinline, cold)) bool drop_latest_warning(xq_replay *out)
{
    int i = out->nfindings - 1;
    while (i >= 0 && out->findings[i].severity == XQ_SEV_ERROR) i--;
    if (i < 0) return false;
    memmove(&out->findings[i], &out->findings[i + 1], (size_t)(out->nfindings - 1 - i) * sizeof out->findings[0]);
    out->nfindings--;
    return true;
}

/* The next finding slot of *out, its head filled in, or NULL when the
 * list is full (XQ_REPLAY_MAX_FINDINGS) and the finding is a warning or
 * every finding kept is an error: it is then only counted.  Its message
 * is the caller's to write. */
static xq_finding *finding_slot(xq_replay *out, xq_finding_kind kind, xq_severity sev, int ply, const xq_node *at)
{
    out->kind_counts[kind][sev]++;
    if (sev == XQ_SEV_ERROR) out->error_count++;
    else out->warning_count++;
    if (out->nfindings >= XQ_REPLAY_MAX_FINDINGS && (sev != XQ_SEV_ERROR || !drop_latest_warning(out))) return NULL;
    xq_finding *f = &out->findings[out->nfindings++];
    f->kind = kind;
    f->severity = sev;
    f->ply = ply;
    f->line = at ? at->line : 0;
    f->col = at ? at->col : 0;
    f->message[0] = '\0';
    return f;
}

/* n findings of one kind and severity that no list keeps (a record's
 * diagnostics past the reader's cap): counted, as every finding is
 * (kind_counts), the counts kept below INT_MAX. */
static void count_only(xq_replay *out, xq_finding_kind kind, xq_severity sev, size_t n)
{
    int *total = sev == XQ_SEV_ERROR ? &out->error_count : &out->warning_count;
    int room = INT_MAX - *total;
    if (INT_MAX - out->kind_counts[kind][sev] < room) room = INT_MAX - out->kind_counts[kind][sev];
    int k = n < (size_t)room ? (int)n : room;
    *total += k;
    out->kind_counts[kind][sev] += k;
}

/* Is the text of a finding of severity sev wanted?  Warnings' texts are
 * not when the caller said it prints only errors (opt->no_warning_text):
 * their counts, kinds, plies and places are kept all the same. */
static bool text_wanted(const xq_replay_options *opt, xq_severity sev)
{
    return sev == XQ_SEV_ERROR || !opt->no_warning_text;
}

static void add_finding(xq_replay *out, const xq_replay_options *opt, xq_finding_kind kind, xq_severity sev,
                        int ply, const xq_node *at, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* A finding with a printf-style message (formatted only when wanted). */
static void add_finding(xq_replay *out, const xq_replay_options *opt, xq_finding_kind kind, xq_severity sev,
                        int ply, const xq_node *at, const char *fmt, ...)
{
    xq_finding *f = finding_slot(out, kind, sev, ply, at);
    if (!f || !text_wanted(opt, sev)) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->message, sizeof f->message, fmt, ap);
    va_end(ap);
    /* (may quote record text: the tools print it in xq_name_put's rule) */
}

/* add_finding(..., "%s", text) without the printf machinery (most
 * findings quote a message made elsewhere): the same bytes, cut at the
 * same place (vsnprintf cuts bytes, not characters). */
static void add_finding_text(xq_replay *out, const xq_replay_options *opt, xq_finding_kind kind, xq_severity sev,
                             int ply, const xq_node *at, const char *text)
{
    xq_finding *f = finding_slot(out, kind, sev, ply, at);
    if (!f || !text_wanted(opt, sev)) return;
    size_t n = strlen(text);
    if (n >= sizeof f->message) n = sizeof f->message - 1;
    memcpy(f->message, text, n);
    f->message[n] = '\0';
}

/* ---- board facts ------------------------------------------------------- */

/* A chariot, horse, cannon or soldier.  CXA1999 §4.2.1 at least: when
 * neither side has one, neither can possibly win. */
static bool is_attacker(xq_piece p)
{
    /* the kinds 4 to 7, those with bit 2: one test (the replay asks it
     * of every capture) */
    _Static_assert(XQ_HORSE == 4 && XQ_CHARIOT == 5 && XQ_CANNON == 6 && XQ_SOLDIER == 7,
                   "the attacking kinds are those with bit 2");
    return (p & 4) != 0;
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

/* Repetition tracking: the keys of the positions since the last capture
 * (keys[0] the one after it, or the start), at the ply base_ply + index.
 * The moves between them are the main line's (node->move): the judge
 * takes them from there, and the position of keys[0] is replayed from the
 * start, both only when a key repeats (a few times per game at most). */
enum { XQ_KEYS_LOCAL = 256 };

/* Occurrences of the newest of the n keys (n >= 1) among them (same side
 * to move: every second entry). */
static int keys_count(const uint64_t *keys, size_t n)
{
    uint64_t key = keys[n - 1];
    int count = 0;
    for (size_t i = n; i >= 1; i -= 2) {
        count += keys[i - 1] == key;
        if (i < 2) break;
    }
    return count;
}

/* The filter of the keys of a game: slot key % XQ_KEY_FILTER holds the
 * number of the game (of this thread) that last met a key there, so a
 * new game needs no clearing: it takes the next number (the table is
 * cleared only when the numbers wrap, every 255 games).  A byte a slot:
 * 2 KiB, half the cache lines of 16-bit numbers, whose loads missed the
 * cache once in 2.5 plies on the master games.  Per thread: games
 * replayed on several threads at once each have their own. */
enum { XQ_KEY_FILTER = 2048 };
static _Thread_local uint8_t key_stamps[XQ_KEY_FILTER];
static _Thread_local uint8_t key_game;

/* The number of a new game for key_stamps (never 0, the number of none). */
static uint8_t key_filter_game(void)
{
    if (++key_game == 0) {
        memset(key_stamps, 0, sizeof key_stamps);
        key_game = 1;
    }
    return key_game;
}

/* The first position of a stretch into *base: the one after ply
 * base_ply, where now (after ply now_ply) is reached by the moves of
 * nodes[base_ply..now_ply) and keys[0..n) are the keys of the stretch
 * when n == now_ply - base_ply + 1 (all kept).  The shorter way: now's
 * moves taken back (no capture among them: each undo is known, its key
 * from keys), or the moves from the start replayed. */
static void stretch_base(const xq_position *start, const xq_position *now, const xq_node *nodes, int base_ply,
                         int now_ply, const uint64_t *keys, size_t n, xq_position *base)
{
    if ((size_t)(now_ply - base_ply) + 1 == n && now_ply - base_ply < base_ply) {
        *base = *now;
        for (int k = now_ply - 1; k >= base_ply; k--) {
            xq_undo u = {.captured = XQ_NONE, .halfmove = base->halfmove - 1, .key = keys[k - base_ply]};
            xq_unmake(base, nodes[k].move, &u);
        }
        return;
    }
    *base = *start;
    for (int k = 0; k < base_ply; k++) {
        xq_undo u;
        xq_make(base, nodes[k].move, &u);
    }
}

/* Judge the repetition ending at the newest of the n keys of the stretch
 * that began after ply base_ply and reaches now, after ply now_ply
 * (CXA1999 §24, §26 or AXF, per opt->rules); false on a Zobrist collision
 * or when memory runs out (then *out_of_memory is set, and the replay
 * goes on: the caller reports it, pipeline.h).
 * Its moves are copied from nodes; with every key kept, the positions of
 * the cycle are made back from now (xq_repetition_judge_back), else the
 * stretch's first position is found by stretch_base and played forward. */
__attribute__((noinline)) static bool stretch_judge(const xq_position *start, const xq_position *now,
                                                    const xq_node *nodes, int base_ply, int now_ply,
                                                    const uint64_t *keys, size_t n, const xq_replay_options *opt,
                                                    xq_rep_memo *memo, xq_rep_verdict *v, bool *out_of_memory)
{
    xq_move local[XQ_KEYS_LOCAL], *moves = n - 1 <= XQ_KEYS_LOCAL ? local : malloc((n - 1) * sizeof *moves);
    if (!moves) {
        *out_of_memory = true;
        return false;
    }
    for (size_t i = 0; i + 1 < n; i++) moves[i] = nodes[base_ply + (int)i].move;
    bool ok;
    if ((size_t)(now_ply - base_ply) + 1 == n) {
        /* every key kept: the cycle's positions made back from now; the
         * verdict's texts only where a reader may quote them (warnings
         * with text, or --strict making them errors) */
        bool text = !opt->no_warning_text || opt->strict;
        ok = xq_repetition_judge_back(now, now_ply, moves, keys, (int)n - 1, opt->repetitions, opt->rules, text,
                                      memo, v);
    } else {
        xq_position base;
        stretch_base(start, now, nodes, base_ply, now_ply, keys, n, &base);
        ok = xq_repetition_judge_memo(&base, base_ply, moves, (int)n - 1, opt->repetitions, opt->rules, memo, v);
    }
    if (moves != local) free(moves);
    if (!ok && v->out_of_memory) {
        *out_of_memory = true;
        v->out_of_memory = false;   /* (an unjudged verdict stays all zero) */
    }
    return ok;
}

/* What a reason about a move of a game read with flags adds: that its
 * ranks were read 1 to 10 (the squares it names count from 0). */
static const char *rank_note(unsigned flags)
{
    return flags & XQ_READ_RANKS_FROM_1 ? " (this game's ranks read 1 to 10, as Fairy-Stockfish writes them; "
                                          "squares named 0 to 9)"
                                        : "";
}

/* Before moves[i] (at ply i+1) the record has a move the board refuses.
 * Fill in the illegal-move part of *out and decide the result. */
static void record_bad_move(xq_replay *out, const xq_replay_options *opt, const xq_position *pos,
                            const xq_node *node, int ply, xq_finding_kind kind, const char *reason, bool loses)
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
    /* a game read with ranks 1-10: said, as the squares of the reason
     * are named 0-9 (ICCS) */
    snprintf(out->reason, sizeof out->reason, "%s%s", reason, rank_note(out->read_flags));
    reason = out->reason;
    xq_fen_write(pos, out->fen_before, sizeof out->fen_before);
    if (loses) {
        out->termination = XQ_TERM_ILLEGAL_MOVE;
        out->result_board = loss_for(pos->side);   /* CXA1999 §4.1.6 */
    }
    add_finding_text(out, opt, kind, XQ_SEV_ERROR, ply, node, reason);
}

/* The move could not be read for the side to move: would it be a legal
 * move of the other side?  Then the record has the wrong side to move. */
static bool other_side_could(const xq_position *pos, const xq_node *node, xq_notation notation, unsigned flags)
{
    xq_position flipped = *pos;
    xq_position_set_side(&flipped, (xq_color)(pos->side ^ 1));
    xq_note_result r;
    xq_move_read(&flipped, node->text, strlen(node->text), notation, flags, &r, NULL, 0);
    return r.status == XQ_NOTE_OK || r.status == XQ_NOTE_RESOLVED;
}

/* The move read in full failed (r, its message msg): record why; the
 * replay ends there (CXA1999 §3.1-§3.2 when the game was over already,
 * else §4.1.6). */
static void tell_bad_read(xq_replay *out, const xq_replay_options *opt, const xq_position *pos,
                          const xq_node *node, int ply, xq_notation notation, const xq_note_result *r,
                          const char *msg)
{
    char reason[192];
    if (!xq_has_legal_move(pos)) {
        bool chk = xq_in_check(pos, pos->side);
        snprintf(reason, sizeof reason, "game already over: %s is %s", side_name(pos->side),
                 chk ? "checkmated" : "stalemated");
        out->termination = chk ? XQ_TERM_CHECKMATE : XQ_TERM_STALEMATE;
        out->result_board = loss_for(pos->side);   /* §3.1, §3.2 */
        record_bad_move(out, opt, pos, node, ply, XQ_FIND_GAME_OVER, reason, false);
    } else if (r->status == XQ_NOTE_ILLEGAL && r->move != XQ_MOVE_NONE) {
        /* the mover's own piece, and why the board refuses its move (an
         * own piece on the target ...): that, even when the other side
         * could make a move of the text (break17) */
        record_bad_move(out, opt, pos, node, ply, XQ_FIND_ILLEGAL_MOVE, xq_illegal_str(r->why), true);
    } else if ((r->status == XQ_NOTE_NO_PIECE || r->status == XQ_NOTE_ILLEGAL) &&
               other_side_could(pos, node, notation, out->read_flags)) {
        snprintf(reason, sizeof reason, "wrong side to move: it is %s's turn", side_name(pos->side));
        record_bad_move(out, opt, pos, node, ply, XQ_FIND_ILLEGAL_MOVE, reason, true);
    } else {
        xq_finding_kind kind = r->status == XQ_NOTE_AMBIGUOUS ? XQ_FIND_AMBIGUOUS_MOVE
                             : (r->status == XQ_NOTE_ILLEGAL || r->status == XQ_NOTE_NO_PIECE ||
                                r->status == XQ_NOTE_BAD_ACTION) ? XQ_FIND_ILLEGAL_MOVE
                             : XQ_FIND_UNDECODABLE_MOVE;
        record_bad_move(out, opt, pos, node, ply, kind, msg, kind == XQ_FIND_ILLEGAL_MOVE);
    }
}

/* A ply the shortcut (xq_move_read_quick) did not take: read it in full.
 * A move the board refuses ends the replay: its finding is recorded.  A
 * move resolved by legality (plain file where 前/後 was needed) is taken
 * with its warning.  Returns the move read, XQ_MOVE_NONE when it was
 * refused.  The reader writes no message when the warning's text is not
 * wanted (a failed read is read again for its message: once per game at
 * most).  The text's length and the reading flags are found again here,
 * not kept by the replay loop over its call of the shortcut: out of line,
 * the loop keeps none of this. */
__attribute__((noinline)) static xq_move read_move_slow(xq_replay *out, const xq_position *pos,
                                                        const xq_checks *state, const xq_node *node, int ply,
                                                        xq_notation notation, const xq_replay_options *opt)
{
    size_t len = node->text_len ? node->text_len : strlen(node->text);
    unsigned flags = (state->in_check[pos->side] ? 0u : XQ_READ_NOT_IN_CHECK) | out->read_flags;
    char msg[192];
    xq_note_result r;
    xq_severity tandem_sev = opt->strict ? XQ_SEV_ERROR : XQ_SEV_WARNING;
    bool with_msg = text_wanted(opt, tandem_sev);
    if (!with_msg && (unsigned)notation <= XQ_NOTATION_CHINESE_3DIGIT) {
        /* the full form on a file with several pieces of the kind, when
         * no message is wanted: read from the desc (xq_move_read_plain_file) */
        unsigned desc = node->desc ? node->desc : xq_move_desc(node->text, len);
        bool resolved = false;
        xq_move m = desc & (XQ_DESC_OTHER - 1)
                        ? xq_move_read_plain_file(pos, desc, !(flags & XQ_READ_NOT_IN_CHECK), &resolved)
                        : XQ_MOVE_NONE;
        if (m != XQ_MOVE_NONE) {
            if (resolved) add_finding_text(out, opt, XQ_FIND_TANDEM_PLAIN_FILE, tandem_sev, ply, node, "");
            return m;
        }
    }
    xq_move_read(pos, node->text, len, notation, flags, &r, with_msg ? msg : NULL, with_msg ? sizeof msg : 0);
    if (r.status != XQ_NOTE_OK && r.status != XQ_NOTE_RESOLVED) {
        if (!with_msg) xq_move_read(pos, node->text, len, notation, flags, &r, msg, sizeof msg);
        tell_bad_read(out, opt, pos, node, ply, notation, &r, msg);
        return XQ_MOVE_NONE;
    }
    if (r.status == XQ_NOTE_RESOLVED)
        add_finding_text(out, opt, XQ_FIND_TANDEM_PLAIN_FILE, tandem_sev, ply, node, with_msg ? msg : "");
    return r.move;
}

/* The first move recorded after the game ended on the board, by the
 * repetition judged at repetition_ply (when not 0), else by a dead
 * position (dead) or the natural move limit: a warning (--strict: error). */
__attribute__((noinline)) static void tell_after_end(xq_replay *out, const xq_replay_options *opt, int ply,
                                                     const xq_node *node, int repetition_ply, bool dead)
{
    xq_severity sev = opt->strict ? XQ_SEV_ERROR : XQ_SEV_WARNING;
    if (repetition_ply)
        add_finding(out, opt, XQ_FIND_AFTER_END, sev, ply, node,
                    "move recorded after the repetition at ply %d was judged: %s, %s (%s)", repetition_ply,
                    out->repetition.kind, xq_result_str(out->repetition.result), out->repetition.clause);
    else
        add_finding(out, opt, XQ_FIND_AFTER_END, sev, ply, node, "move recorded after the game was drawn by %s",
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
                         xq_notation notation, const xq_replay_options *opt, xq_replay *out)
{
    for (size_t i = 0; i < b->count; i++) {
        xq_node *node = &b->nodes[i];
        int ply = first_ply + (int)i;
        for (uint32_t v = 0; v < node->variation_count; v++)
            check_branch(&node->variations[v], pos, ply, false, 0, notation, opt, out);
        xq_move m;
        if (main_line) {
            if ((int)i >= decoded) return;
            m = node->move;
        } else {
            char msg[192];
            xq_note_result r;
            xq_move_read(&pos, node->text, strlen(node->text), notation, out->read_flags, &r, msg, sizeof msg);
            if (r.status != XQ_NOTE_OK && r.status != XQ_NOTE_RESOLVED) {
                bool illegal = r.status == XQ_NOTE_ILLEGAL && r.move != XQ_MOVE_NONE;
                add_finding(out, opt, illegal ? XQ_FIND_ILLEGAL_MOVE : XQ_FIND_UNDECODABLE_MOVE, XQ_SEV_ERROR, 0,
                            node, "variation at ply %d (%.40s): %s%s", ply, node->text,
                            illegal ? xq_illegal_str(r.why) : msg, rank_note(out->read_flags));
                return;
            }
            m = r.move;
            node->move = m;
        }
        xq_undo u;
        xq_make(&pos, m, &u);
    }
}

static bool is_coord_notation(xq_notation n)
{
    return n == XQ_NOTATION_ICCS || n == XQ_NOTATION_UCCI || n == XQ_NOTATION_SAN;
}

/* The ranks a game's coordinates (ICCS, UCCI, SAN) count, decided once
 * for all of its moves (xq_replay.read_flags): 0-9 as the notations
 * define them, or 1-10 as Fairy-Stockfish's plain UCI writes them
 * (formats.md §1c: h3e3 for 炮二平五), which a move at a time cannot
 * tell (h3e3 reads either way on some boards).  1-10 when a main-line
 * coordinate writes rank 10 and none writes rank 0; when neither is
 * written, when the first move reads at the start only with ranks 1-10;
 * else 0-9 (XQ_READ_RANKS_FROM_0: a rank 10 is then an error, never a
 * move read 1-10 among moves read 0-9).  A game whose first move is no
 * coordinate (every Chinese record) reads its coordinates 0-9, decided by
 * one look at that move.  0 for a game of no moves. */
static unsigned coord_rank_flags(const xq_position *start, const xq_node *nodes, size_t count, xq_notation notation)
{
    if (!count) return 0;
    if (!(notation == XQ_NOTATION_AUTO || is_coord_notation(notation))) return XQ_READ_RANKS_FROM_0;
    const char *first = nodes[0].text ? nodes[0].text : "";
    /* (a move of Chinese characters, every Chinese record's, is no coordinate) */
    if (!notation && (unsigned char)first[0] >= 0x80) return XQ_READ_RANKS_FROM_0;
    size_t first_len = nodes[0].text_len ? nodes[0].text_len : strlen(first);
    if (!is_coord_notation(notation ? notation : xq_notation_detect(first, first_len))) return XQ_READ_RANKS_FROM_0;
    bool zero = false, ten = false;
    for (size_t i = 0; i < count && !zero; i++) {
        const char *t = nodes[i].text ? nodes[i].text : "";
        size_t n = nodes[i].text_len ? nodes[i].text_len : strlen(t);
        if (!notation && !is_coord_notation(xq_notation_detect(t, n))) continue;
        for (size_t j = 0; j < n; j++) {   /* each run of digits is a rank */
            size_t k = j;
            while (k < n && t[k] >= '0' && t[k] <= '9') k++;
            if (k - j == 1 && t[j] == '0') zero = true;
            if (k - j == 2 && t[j] == '1' && t[j + 1] == '0') ten = true;
            j = k;
        }
    }
    if (zero) return XQ_READ_RANKS_FROM_0;
    if (ten) return XQ_READ_RANKS_FROM_1;
    xq_note_result r;
    if (xq_move_read(start, first, first_len, notation, 0, &r, NULL, 0) <= XQ_NOTE_RESOLVED)
        return XQ_READ_RANKS_FROM_0;
    return xq_move_read(start, first, first_len, notation, XQ_READ_RANKS_FROM_1, &r, NULL, 0) <= XQ_NOTE_RESOLVED
               ? XQ_READ_RANKS_FROM_1
               : XQ_READ_RANKS_FROM_0;
}


void xq_replay_game(xq_game *g, const xq_replay_options *opt, xq_replay *out)
{
    xq_replay_game_memo(g, opt, NULL, out);
}



/* Is name the word lower (ASCII lowercase letters only), case ignored
 * (xq_game_tag's rule)?  For a letter y, x | 0x20 == y exactly when x is
 * y or its capital. */
static bool tag_name_is(const char *name, const char *lower)
{
    for (; *lower; name++, lower++)
        if ((unsigned char)(*name | 0x20) != (unsigned char)*lower) return false;
    return !*name;
}

/* The value of tag idx (1-based) of g, NULL for 0 (none). */
static const char *tag_at(const xq_game *g, uint32_t idx)
{
    return idx && idx <= g->tag_count ? g->tags[idx - 1].value : NULL;
}

/* The values of the Result and Format tags (NULL when absent): what
 * xq_game_tag(g, "Result") and xq_game_tag(g, "Format") give (the first
 * of each name, ASCII case ignored).  Where the reader noted them
 * (g->tags_noted: the PGN reader), from there; else in one walk of
 * the tags (on masters.pgn, no Format tag and the Result tag tenth: the
 * walk took 17 M of the cache and branch model's 1,937 M; the reader's
 * note of the tags costs it 2.5 M).  A name is compared in
 * full only when its first three letters fit (Red, RedTeam, Round ...
 * share the first): each letter is read only after the one before it
 * matched, so never past the NUL. */
static void replay_tags(const xq_game *g, const char **result, const char **format)
{
    if (g->tags_noted && g->tags_noted == g->tag_count) {
        *result = tag_at(g, g->result_tag);
        *format = tag_at(g, g->format_tag);
        return;
    }
    const char *r = NULL, *f = NULL;
    for (size_t i = 0; i < g->tag_count; i++) {
        const char *name = g->tags[i].name;
        unsigned c = (unsigned char)(name[0] | 0x20);
        if (c == 'r') {
            if (!r && (name[1] | 0x20) == 'e' && (name[2] | 0x20) == 's' && tag_name_is(name + 3, "ult")) {
                r = g->tags[i].value;
                if (f) break;
            }
        } else if (c == 'f') {
            if (!f && (name[1] | 0x20) == 'o' && (name[2] | 0x20) == 'r' && tag_name_is(name + 3, "mat")) {
                f = g->tags[i].value;
                if (r) break;
            }
        }
    }
    *result = r;
    *format = f;
}

/* The Result tag against the movetext's result: out->result_tag, and a
 * finding when they differ or the tag is no result. */
static void read_result_tag(const xq_game *g, const char *rtag, const xq_replay_options *opt, xq_replay *out)
{
    out->result_tag = g->result_code == XQ_RESULT_NONE ? XQ_RESULT_NONE : g->result_code;
    if (!rtag) return;
    xq_result r;
    if (xq_result_parse(rtag, &r)) {
        if (g->result_code != XQ_RESULT_NONE && g->result_code != XQ_RESULT_UNKNOWN && r != XQ_RESULT_UNKNOWN &&
            r != g->result_code)
            add_finding(out, opt, XQ_FIND_BAD_TAG, XQ_SEV_WARNING, 0, NULL,
                        "Result tag says %s but the movetext ends with %s", xq_result_str(r),
                        xq_result_str(g->result_code));
        out->result_tag = r;
    } else if (*rtag) {
        add_finding(out, opt, XQ_FIND_BAD_TAG, opt->strict ? XQ_SEV_ERROR : XQ_SEV_WARNING, 0, NULL,
                    "Result tag \"%s\" is not a result", rtag);
    }
}

/* The recorded result against the board's (a finding when they differ or
 * the record has none).  An error where the board decides the ending
 * (xq_replay_board_decides: what --fix-results rewrites); a warning
 * (--strict: an error) where it comes from a repetition verdict or the
 * move limit, both draws only when a player claims them (CXA1999 §23.2,
 * §23.3, §24): the record may be unfinished, or the players agreed
 * otherwise. */
static void check_result(const xq_replay_options *opt, xq_replay *out)
{
    bool missing = out->result_tag == XQ_RESULT_NONE || out->result_tag == XQ_RESULT_UNKNOWN;
    if (!missing && out->result_tag == out->result_board) return;
    xq_severity sev = xq_replay_board_decides(out) || opt->strict ? XQ_SEV_ERROR : XQ_SEV_WARNING;
    char how[160] = "";
    if (text_wanted(opt, sev)) {
        if (out->termination == XQ_TERM_REPETITION)   /* name the verdict */
            snprintf(how, sizeof how, "repetition: %.100s, %.40s", out->repetition.kind, out->repetition.clause);
        else
            snprintf(how, sizeof how, "%s", xq_termination_str(out->termination));
    }
    if (missing)
        add_finding(out, opt, XQ_FIND_RESULT_MISSING, sev, 0, NULL, "no result recorded, but the board gives %s (%s)",
                    xq_result_str(out->result_board), how);
    else
        add_finding(out, opt, XQ_FIND_RESULT_MISMATCH, sev, 0, NULL, "Result %s contradicts the board: %s (%s)",
                    xq_result_str(out->result_tag), xq_result_str(out->result_board), how);
}

/* Does g's FEN tag name the standard start position by its text (none,
 * empty, or XQ_START_FEN exactly)?  Most records: their start is not
 * parsed (start_position).  The PGN reader gives the usual FEN tag's
 * value as XQ_START_FEN itself (pgn_read.c tag_line_value): known by its
 * address, without a compare. */
static bool fen_names_start(const xq_game *g)
{
    return g->fen == XQ_START_FEN || !g->fen || !*g->fen || !strcmp(g->fen, XQ_START_FEN);
}

/* The place of a finding about g's FEN tag: its value's first character
 * (in *at; NULL when no reader knows, the finding then at the record's
 * start), or the character byte_col (1-based, 0: none) of the value when
 * the value is as the file has it (fen_verbatim): FEN columns count
 * bytes, a diagnostic's characters. */
static const xq_node *fen_place(const xq_game *g, long byte_col, xq_node *at)
{
    if (!g->fen_line) return NULL;
    at->line = g->fen_line;
    at->col = g->fen_col;
    if (byte_col > 0 && g->fen_verbatim && (size_t)byte_col <= strlen(g->fen))
        for (long i = 0; i + 1 < byte_col; i++) at->col += ((unsigned char)g->fen[i] & 0xC0) != 0x80;
    return at;
}

/* The start position of g into *pos (and out->start), with its check
 * state and attacking pieces; false (out filled in) when its FEN tag does
 * not parse.  named_start: fen_names_start(g), asked once a game. */
static bool start_position(const xq_game *g, bool named_start, const xq_replay_options *opt, xq_replay *out,
                           xq_position *pos, xq_checks *state, int *attackers)
{
    /* none in check in the standard position, any FEN board tested in
     * full, however impossible */
    state->in_check[0] = state->in_check[1] = false;
    if (named_start) {
        xq_position_start(pos);   /* most records name the start position: no parse, no check */
        *attackers = XQ_START_ATTACKERS;
    } else {
        char err[160];
        long bad_col;
        xq_node at;
        if (!xq_fen_read_at(pos, g->fen, err, sizeof err, &bad_col)) {
            out->status = XQ_STATUS_UNREADABLE;
            snprintf(out->reason, sizeof out->reason, "bad FEN tag: %s", err);
            add_finding_text(out, opt, XQ_FIND_BAD_FEN, XQ_SEV_ERROR, 0, fen_place(g, bad_col, &at), out->reason);
            return false;
        }
        const char *why = xq_position_check(pos);
        /* without both generals check and mate mean nothing: an error;
         * other impossible positions can still be replayed: a warning */
        bool no_general = pos->general[XQ_RED] >= XQ_SQUARES || pos->general[XQ_BLACK] >= XQ_SQUARES;
        if (!no_general && xq_in_check(pos, (xq_color)(pos->side ^ 1))) {
            /* a general the side to move could take (CXA1999 §3.1: no
             * move may leave one's general so; the generals facing
             * included): no move of such a game can be judged, so it is
             * not replayed, as a FEN that does not parse */
            out->status = XQ_STATUS_UNREADABLE;
            snprintf(out->reason, sizeof out->reason, "FEN position cannot arise: %s", why);
            add_finding_text(out, opt, XQ_FIND_IMPOSSIBLE_POSITION, XQ_SEV_ERROR, 0, fen_place(g, 0, &at),
                             out->reason);
            return false;
        }
        if (why)
            add_finding(out, opt, XQ_FIND_IMPOSSIBLE_POSITION, opt->strict || no_general ? XQ_SEV_ERROR : XQ_SEV_WARNING,
                        0, fen_place(g, 0, &at), "FEN position cannot arise: %s", why);
        xq_checks_init(state, pos);
        *attackers = attackers_on(pos);
    }
    out->start = *pos;
    return true;
}

/* The fields of *out before the findings as a new replay has them: every
 * number zero (result_board UNKNOWN), every text empty.  The texts'
 * bytes past their NUL are left as they were: each text is written whole
 * (NUL-terminated) before anyone reads it, so a store a field spares
 * zeroing 300 bytes of text a game. */
static void replay_head_clear(xq_replay *out)
{
    out->status = XQ_STATUS_VALID;
    out->termination = XQ_TERM_NONE;
    out->result_tag = XQ_RESULT_NONE;
    out->result_board = XQ_RESULT_UNKNOWN;
    out->plies = out->bad_ply = out->bad_number = 0;
    out->bad_move[0] = out->reason[0] = out->fen_before[0] = '\0';
    out->bad_side = XQ_RED;
    out->bad_line = out->bad_col = 0;
    out->read_flags = 0;
    out->error_count = out->warning_count = out->nfindings = 0;
    memset(out->kind_counts, 0, sizeof out->kind_counts);
}

/* The limit of pos.halfmove at which the natural move limit is reached
 * (CXA1999 §4.2.4): 2 * move_limit plies, plus two for each check beyond
 * check_cap of either side (when checks are capped); INT_MAX when the
 * limit is off or reached. */
static int limit_at(bool watch, int limit_plies, int check_cap, const int checks[2])
{
    if (!watch) return INT_MAX;
    int excess = 0;
    if (check_cap > 0)
        for (int c = 0; c < 2; c++)
            if (checks[c] > check_cap) excess += checks[c] - check_cap;
    return limit_plies + 2 * excess;
}

/* ---- main lines replayed before (line_memo.h) --------------------------
 *
 * A main line's replay (the loop below and the ending after it) reads
 * the start position, the options, the notation and, of each node, its
 * desc when that is a decoded full form, else its text; a message or an
 * illegal move may quote a text, and a finding's place is its node's.  So
 * from the standard start, (options, notation, each node's desc or text)
 * is the key of all the replay finds but places, and a line whose every
 * move was played and whose findings have no text (warnings whose text
 * nobody wants) is kept in the memo with its findings' plies: a game that
 * repeats it takes it back, the places from its own nodes. */

/* The key's head: the options and the notation, 4 uint16_t
 * (line_key_head). */
enum { LINE_KEY_HEAD = 4 };

/* What a kept line holds: this head, the final position's pieces (a
 * square and a piece each, npieces of them, in square order; none, and
 * the head's final-position fields zero, for opt->no_final), nfind
 * line_finding, a uint16_t move per ply, then (repeated) the
 * xq_rep_verdict packed (verdict_pack).  The final position is kept as
 * its pieces and the fields a board does not give (key, generals, side,
 * counters): about 70 bytes where its 90 squares took 106, and taken
 * back by writing each piece once (final_restore) where xq_position_put
 * on each square cost 1,400 instructions a hit.  Read and written with
 * memcpy: the ring keeps no alignment after the key. */
typedef struct {
    uint64_t key;                                         /* the final position's */
    int32_t halfmove, fullmove;                           /* the final position's */
    uint8_t termination, result_board, repeated, side;   /* side: the final position's */
    uint8_t npieces, general[2];                          /* the final position's */
    uint8_t nfind;                                        /* at most XQ_REPLAY_MAX_FINDINGS */
} line_head;
_Static_assert(sizeof(line_head) == 24 && XQ_REPLAY_MAX_FINDINGS <= UINT8_MAX, "a line's head has no padding");

typedef struct {
    uint32_t ply;
    uint8_t kind, severity;
} line_finding;

/* Is pos the standard start position, Red to move, counters 0 and 1
 * (whatever FEN spelled it)?  The rest of a position follows from these
 * (xq_position_put keeps it). */
static bool is_start(const xq_position *pos)
{
    xq_position start;
    xq_position_start(&start);
    return !memcmp(pos->board, start.board, sizeof pos->board) && pos->side == start.side &&
           pos->halfmove == start.halfmove && pos->fullmove == start.fullmove;
}

/* Room for n uint16_t in memo->key (kept from game to game); NULL when
 * memory ran out. */
static uint16_t *key_room(xq_replay_memo *memo, size_t n)
{
    if (n > memo->key_cap) {
        if (n > SIZE_MAX / 4) return NULL;
        size_t cap = memo->key_cap ? memo->key_cap : 512;
        while (cap < n) cap *= 2;
        uint16_t *k = realloc(memo->key, cap * sizeof *k);
        if (!k) return NULL;
        memo->key = k;
        memo->key_cap = cap;
    }
    return memo->key;
}

/* The key's head: the options and the notation, each in its own bits
 * (8 bytes: a key's bytes are fresh memory in the memo, and are hashed
 * and compared); false when an option is out of the range its bits hold
 * (no tool gives such: then the line is not kept, the memo only spares
 * work). */
static bool line_key_head(const xq_replay_options *opt, xq_notation notation, uint16_t head[LINE_KEY_HEAD])
{
    if ((unsigned)opt->move_limit > UINT16_MAX || (unsigned)opt->check_cap > UINT16_MAX ||
        (unsigned)opt->repetitions > UINT8_MAX || (unsigned)opt->rules > 15 || (unsigned)notation > UINT16_MAX)
        return false;
    head[0] = (uint16_t)opt->move_limit;
    head[1] = (uint16_t)opt->check_cap;
    head[2] = (uint16_t)((unsigned)opt->repetitions | (unsigned)opt->rules << 8 | (unsigned)opt->strict << 12 |
                         (unsigned)opt->no_warning_text << 13 | (unsigned)opt->no_moves << 14 |
                         (unsigned)opt->no_final << 15);
    head[3] = (uint16_t)notation;
    return true;
}

/* The descs of the four nodes at q into k[0..4), and whether the four
 * are full forms of a Chinese notation (desc_full XQ_DESC_OTHER - 1): a
 * node's desc is 0 (unknown), XQ_DESC_OTHER or a full form, one of
 * 1..XQ_DESC_OTHER - 1.  The four as the lanes of one word, tested at
 * once: no lane with the top bit, and none zero (the borrow of w - ones
 * reaches a lane's top bit, not set in w, exactly when some lane is zero,
 * the top bits clear).  The stores are made whatever the answer (when it
 * is no, the caller writes over them). */
static inline bool quad_copy_full(const xq_node *q, uint16_t *k)
{
    _Static_assert(XQ_DESC_OTHER == 0x8000, "full forms are 1..XQ_DESC_OTHER - 1, under the top bit");
    const uint64_t ones = 0x0001000100010001ull, tops = ones << 15;
    uint64_t w = (uint64_t)q[0].desc | (uint64_t)q[1].desc << 16 | (uint64_t)q[2].desc << 32 |
                 (uint64_t)q[3].desc << 48;
    k[0] = (uint16_t)w;
    k[1] = (uint16_t)(w >> 16);
    k[2] = (uint16_t)(w >> 32);
    k[3] = (uint16_t)(w >> 48);
    return !((w | ((w - ones) & ~w)) & tops);
}

/* quad_copy_full for the eight nodes at q, the descs gathered into one
 * 16-byte vector and stored at once (k has room for eight words): a full
 * form is a lane above zero as a signed 16-bit number (1..0x7FFF).  Half
 * the instructions a node of two quad steps; without SSE2, the two. */
static inline bool octet_copy_full(const xq_node *q, uint16_t *k)
{
#ifdef __SSE2__
    __m128i v = _mm_cvtsi32_si128(q[0].desc);
    v = _mm_insert_epi16(v, q[1].desc, 1);
    v = _mm_insert_epi16(v, q[2].desc, 2);
    v = _mm_insert_epi16(v, q[3].desc, 3);
    v = _mm_insert_epi16(v, q[4].desc, 4);
    v = _mm_insert_epi16(v, q[5].desc, 5);
    v = _mm_insert_epi16(v, q[6].desc, 6);
    v = _mm_insert_epi16(v, q[7].desc, 7);
    _mm_storeu_si128((__m128i *)(void *)k, v);
    return _mm_movemask_epi8(_mm_cmpgt_epi16(v, _mm_setzero_si128())) == 0xFFFF;
#else
    return quad_copy_full(q, k) && quad_copy_full(q + 4, k + 4);
#endif
}

/* The key of g's main line (nodes[0..count)) in memo->key, its length in
 * bytes in *key_len: the options' head, then per node its desc when it is
 * a full form (desc_full: the bits of one, none outside a Chinese
 * notation; an unknown desc, 0, is decoded here), else what the replay
 * reads then: the desc (no bit of desc_full), the text's length in bytes
 * and its bytes (zero-padded to a uint16_t); head: line_key_head's.
 * NULL when the line cannot be kept: no moves, a text of over 65,535
 * bytes, no memory. */
static const uint16_t *line_key(xq_replay_memo *memo, const uint16_t head[LINE_KEY_HEAD], unsigned desc_full,
                                const xq_node *nodes, size_t count, size_t *key_len)
{
    if (!count) return NULL;
    /* room for a uint16_t per node left at every step: a desc needs no test */
    size_t cap = LINE_KEY_HEAD + count + 256, n = LINE_KEY_HEAD;
    uint16_t *k = key_room(memo, cap);
    if (!k) return NULL;
    cap = memo->key_cap;
    memcpy(k, head, LINE_KEY_HEAD * sizeof *k);
    for (size_t i = 0; i < count; i++) {
        /* eight, then four full-form descs a step (nearly every node of
         * a Chinese record; k has room for a word per node left) */
        if (desc_full) {
            while (i + 8 <= count && octet_copy_full(nodes + i, k + n)) {
                i += 8;
                n += 8;
            }
            while (i + 4 <= count && quad_copy_full(nodes + i, k + n)) {
                i += 4;
                n += 4;
            }
        }
        if (i == count) break;
        unsigned d = nodes[i].desc;
        if (d & desc_full) {
            k[n++] = (uint16_t)d;
            continue;
        }
        size_t len = nodes[i].text_len ? nodes[i].text_len : strlen(nodes[i].text);
        /* a desc the reader left unknown (0: it decodes only the words of
         * its word cache, not a file's first ones): the one it would have
         * kept, so that the same line has one key wherever it stands (the
         * replay reads the same from either: game.h) */
        if (!d && desc_full && ((d = xq_move_desc(nodes[i].text, len)) & desc_full)) {
            k[n++] = (uint16_t)d;
            continue;
        }
        size_t words = (len + 1) / 2, need = n + 2 + words + (count - i - 1);
        if (len > UINT16_MAX) return NULL;
        if (need > cap) {
            if (!(k = key_room(memo, 2 * need))) return NULL;
            cap = memo->key_cap;
        }
        k[n++] = (uint16_t)d;
        k[n++] = (uint16_t)len;
        if (words) k[n + words - 1] = 0;   /* an odd length's pad byte */
        memcpy(k + n, nodes[i].text, len);
        n += words;
    }
    *key_len = n * sizeof *k;
    return k;
}

/* The word line_key writes first for node q: its desc when a full form,
 * else, in a Chinese notation (desc_full not 0), the desc decoded from
 * the text when unknown (0), else the desc as it is. */
static inline uint16_t key_word(const xq_node *q, unsigned desc_full)
{
    unsigned d = q->desc;
    if (__builtin_expect(!(d & desc_full), 0) && !d && desc_full)
        d = xq_move_desc(q->text, q->text_len ? q->text_len : strlen(q->text));
    return (uint16_t)d;
}

/* The hash the memo files a line's key by (line_memo.h: any function of
 * the key alone), from the nodes, before the key is built (so that the
 * table's bucket, prefetched then, has the building's time to come in:
 * the lookup's share of a masters run's perf samples went from 2.3% to
 * 1.6%): of the key's head, the number of plies and the first word
 * line_key writes for each of the first HASH_FRONT and the last HASH_BACK
 * plies (key_word: equal keys, equal words).  Lines alike in all of these
 * (the same length, opening and last moves, not the same moves) only
 * share a bucket and a tag: the key is compared in full before a line is
 * taken (on masters.pgn as many lines are kept as with a hash of every
 * byte). */
enum { HASH_FRONT = 8, HASH_BACK = 4 };
static uint64_t line_key_hash(const uint16_t head[LINE_KEY_HEAD], unsigned desc_full, const xq_node *nodes,
                              size_t count)
{
    /* a word at a time into a polynomial (odd multiplier: no word's bits
     * lost), then every bit mixed into every other (murmur3's finaliser):
     * the memo files keys by the hash's low bits and its top 24 */
    const uint64_t mul = 0x9E3779B97F4A7C15ull;
    uint64_t h, head64;
    memcpy(&head64, head, sizeof head64);
    h = (head64 ^ count) * mul;
    size_t front = count <= HASH_FRONT + HASH_BACK ? count : HASH_FRONT;
    for (size_t i = 0; i < front; i++) h = (h + key_word(&nodes[i], desc_full)) * mul;
    if (count > front)
        for (size_t i = count - HASH_BACK; i < count; i++) h = (h + key_word(&nodes[i], desc_full)) * mul;
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ull;
    return h ^ (h >> 33);
}

/* A repetition verdict as a kept line holds it: the fields before its
 * texts as they are, its three texts each up to its NUL, nplies, and the
 * plies kept (of XQ_REP_MAX_PLIES), about 800 bytes instead of 1,450.
 * Taking it back into a zeroed verdict gives the same bytes: the judge
 * zeroes a verdict before it writes one (xq_repetition_judge_memo), so
 * its texts' unused bytes are zero. */
static size_t verdict_packed_size(const xq_rep_verdict *v)
{
    return offsetof(xq_rep_verdict, kind) + strlen(v->kind) + strlen(v->clause) + strlen(v->reason) + 3 +
           sizeof v->nplies + (size_t)v->nplies * sizeof v->plies[0];
}

static unsigned char *put_bytes(unsigned char *p, const void *src, size_t n)
{
    memcpy(p, src, n);
    return p + n;
}

static void verdict_pack(const xq_rep_verdict *v, unsigned char *p)
{
    p = put_bytes(p, v, offsetof(xq_rep_verdict, kind));
    p = put_bytes(p, v->kind, strlen(v->kind) + 1);
    p = put_bytes(p, v->clause, strlen(v->clause) + 1);
    p = put_bytes(p, v->reason, strlen(v->reason) + 1);
    p = put_bytes(p, &v->nplies, sizeof v->nplies);
    put_bytes(p, v->plies, (size_t)v->nplies * sizeof v->plies[0]);
}

/* A string of the packed verdict at *p into dst (room for it: it was
 * written from a field of the same size), *p past it. */
static void take_text(char *dst, const unsigned char **p)
{
    size_t n = strlen((const char *)*p) + 1;
    memcpy(dst, *p, n);
    *p += n;
}

/* verdict_pack's bytes at p into *v, which is all zero. */
static void verdict_unpack(const unsigned char *p, xq_rep_verdict *v)
{
    memcpy(v, p, offsetof(xq_rep_verdict, kind));
    p += offsetof(xq_rep_verdict, kind);
    take_text(v->kind, &p);
    take_text(v->clause, &p);
    take_text(v->reason, &p);
    memcpy(&v->nplies, p, sizeof v->nplies);
    p += sizeof v->nplies;
    memcpy(v->plies, p, (size_t)v->nplies * sizeof v->plies[0]);
}

/* The top bit of each nonzero byte of w (no carry crosses a byte: each
 * byte's low 7 bits plus 0x7F stay within it). */
static inline uint64_t occupied_bytes(uint64_t w)
{
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7Full;
    return (((w & low7) + low7) | w) & ~low7;
}

/* The final position's pieces into p (2 bytes each: square, piece, in
 * square order) and its other fields into *h; returns the bytes written
 * (at most 2 * XQ_SQUARES). */
static size_t final_pack(const xq_position *pos, line_head *h, unsigned char *p)
{
    /* the board 8 squares a word, the occupied ones found by their bits
     * (a branch per square was mispredicted a square in five, and a
     * branchless write of each cost 10 instructions a square); p has
     * room for every square (2 * XQ_SQUARES bytes) */
    enum { WORDS = (XQ_SQUARES + 7) / 8 };
    uint64_t w[WORDS];
    w[WORDS - 1] = 0;
    memcpy(w, pos->board, XQ_SQUARES);
    size_t n = 0;
    for (int k = 0; k < WORDS; k++) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        w[k] = __builtin_bswap64(w[k]);   /* the first square in the low byte, as below expects */
#endif
        uint64_t bits = occupied_bytes(w[k]);
        for (; bits; bits &= bits - 1) {
            unsigned sq = 8 * (unsigned)k + (unsigned)__builtin_ctzll(bits) / 8;
            p[n++] = (unsigned char)sq;
            p[n++] = pos->board[sq];
        }
    }
    h->key = pos->key;
    h->halfmove = pos->halfmove;
    h->fullmove = pos->fullmove;
    h->side = (uint8_t)pos->side;
    h->npieces = (uint8_t)(n / 2);
    h->general[0] = pos->general[0];
    h->general[1] = pos->general[1];
    return n;
}

/* The position final_pack packed (*h, its pieces at p) into *pos, as
 * xq_position_clear and xq_position_put on each piece would make it, the
 * key and the generals as kept (xq_position_place: each piece written
 * once); test_line_memo_pack.c compares every field with the position
 * packed, test_line_memo.c with the replay's own. */
static void final_restore(xq_position *pos, const line_head *h, const unsigned char *p)
{
    xq_position_place(pos, p, h->npieces, h->key);
    pos->general[0] = h->general[0];
    pos->general[1] = h->general[1];
    pos->side = (xq_color)h->side;
    pos->halfmove = h->halfmove;
    pos->fullmove = h->fullmove;
}

/* The kept moves at v (count uint16_t) into the nodes' move fields;
 * returns the nodes' variation counts or'ed.  Four at a time: the loop's
 * own work is most of it. */
static uint32_t moves_take(const unsigned char *v, xq_node *nodes, size_t count)
{
    uint32_t variations = 0;
    size_t i = 0;
    for (; i + 4 <= count; i += 4, v += 4 * sizeof(xq_move)) {
        xq_move m[4];
        memcpy(m, v, sizeof m);
        nodes[i].move = m[0];
        nodes[i + 1].move = m[1];
        nodes[i + 2].move = m[2];
        nodes[i + 3].move = m[3];
        variations |= nodes[i].variation_count | nodes[i + 1].variation_count | nodes[i + 2].variation_count |
                      nodes[i + 3].variation_count;
    }
    for (; i < count; i++, v += sizeof(xq_move)) {
        memcpy(&nodes[i].move, v, sizeof(xq_move));
        variations |= nodes[i].variation_count;
    }
    return variations;
}

/* The nodes' variation counts or'ed (nonzero: some node has variations),
 * four nodes a step. */
static uint32_t nodes_variations(const xq_node *nodes, size_t count)
{
    uint32_t variations = 0;
    size_t i = 0;
    for (; i + 4 <= count; i += 4)
        variations |= nodes[i].variation_count | nodes[i + 1].variation_count | nodes[i + 2].variation_count |
                      nodes[i + 3].variation_count;
    for (; i < count; i++) variations |= nodes[i].variation_count;
    return variations;
}

/* A kept line's replay into *out and the nodes (which are the key's: one
 * per kept move): the findings, each at its ply's node, the moves (when
 * kept: with_moves, as when the line was kept), how the game ended, the
 * final position (with_final, as when the line was kept: the key holds
 * opt->no_final; else out->final all zero).
 * Returns the nodes' variation counts or'ed (nonzero: check_branch is
 * due; always 0 without the moves: such a line is not taken,
 * xq_replay_game_memo). */
static uint32_t line_take(const unsigned char *v, xq_node *nodes, size_t count, bool with_moves, bool with_final,
                          xq_replay *out)
{
    line_head h;
    memcpy(&h, v, sizeof h);
    v += sizeof h;
    if (with_final) final_restore(&out->final, &h, v);
    else memset(&out->final, 0, sizeof out->final);
    v += 2 * (size_t)h.npieces;
    for (unsigned i = 0; i < h.nfind; i++, v += sizeof(line_finding)) {
        line_finding f;
        memcpy(&f, v, sizeof f);
        /* (a loop's finding is about a ply of the line: 1..count) */
        const xq_node *at = f.ply >= 1 && f.ply <= count ? &nodes[f.ply - 1] : NULL;
        finding_slot(out, (xq_finding_kind)f.kind, (xq_severity)f.severity, (int)f.ply, at);
    }
    uint32_t variations = 0;
    if (with_moves) {
        variations = moves_take(v, nodes, count);
        v += count * sizeof(xq_move);
    }
    if (h.repeated) {   /* (out->repetition is as an earlier game left it) */
        memset(&out->repetition, 0, sizeof out->repetition);
        verdict_unpack(v, &out->repetition);
    }
    out->repeated = h.repeated;
    out->plies = (int)count;
    out->termination = (xq_termination)h.termination;
    out->result_board = (xq_result)h.result_board;
    return variations;
}

/* The value of a line to keep (line_keep) at v: its head h (filled in
 * but for nfind and what final_pack wrote), the final position's pieces
 * (packed bytes), the findings since new_from, the moves (with_moves),
 * the verdict. */
static void line_write(unsigned char *v, line_head *h, const unsigned char *pieces, size_t packed,
                       const xq_replay *out, int new_from, const xq_node *nodes, size_t count, bool with_moves)
{
    h->termination = (uint8_t)out->termination;
    h->result_board = (uint8_t)out->result_board;
    h->repeated = out->repeated;
    h->nfind = (uint8_t)(out->nfindings - new_from);
    memcpy(v, h, sizeof *h);
    v += sizeof *h;
    memcpy(v, pieces, packed);
    v += packed;
    for (int i = new_from; i < out->nfindings; i++, v += sizeof(line_finding)) {
        const xq_finding *f = &out->findings[i];
        line_finding lf = {(uint32_t)f->ply, (uint8_t)f->kind, (uint8_t)f->severity};
        memcpy(v, &lf, sizeof lf);
    }
    if (with_moves)
        for (size_t i = 0; i < count; i++, v += sizeof(xq_move)) memcpy(v, &nodes[i].move, sizeof(xq_move));
    if (out->repeated) verdict_pack(&out->repetition, v);
}

/* Keep the replay of a main line just made (*out, its final position
 * *final, the nodes' moves) under key, when it can be taken back whole: every move played, and
 * every finding since the first new_from (out->findings[new_from..]) kept
 * and without text (counted_before: the errors and warnings counted
 * before them); the moves only with_moves (the caller reads them: no
 * opt->no_moves, which the key holds), the final position only
 * with_final (no opt->no_final, which the key holds too: every tool
 * replays with it, and final_pack cost 20 M of masters.pgn's 1,920 M in
 * the cache and branch model).  Takes the memo's lock when it is
 * shared. */
static void line_keep(xq_line_memo *lm, uint64_t hash, const uint16_t *key, size_t key_len, const xq_replay *out,
                      const xq_position *final, int new_from, int counted_before, const xq_node *nodes, size_t count,
                      bool with_moves, bool with_final)
{
    if (out->status != XQ_STATUS_VALID || (size_t)out->plies != count) return;
    int nfind = out->nfindings - new_from;
    if (out->error_count + out->warning_count - counted_before != nfind) return;   /* some only counted */
    for (int i = new_from; i < out->nfindings; i++)
        if (out->findings[i].message[0]) return;
    line_head h = {0};
    unsigned char pieces[2 * XQ_SQUARES];
    size_t packed = with_final ? final_pack(final, &h, pieces) : 0;   /* (else no pieces: npieces 0) */
    size_t vlen = sizeof h + packed + (size_t)nfind * sizeof(line_finding) +
                  (with_moves ? count * sizeof(xq_move) : 0) +
                  (out->repeated ? verdict_packed_size(&out->repetition) : 0);
    xq_line_memo_lock(lm);
    unsigned char *v = xq_line_memo_add(lm, hash, key, key_len, vlen);
    if (v) line_write(v, &h, pieces, packed, out, new_from, nodes, count, with_moves);
    xq_line_memo_unlock(lm);
}

/* The end of every replay that got past its start: the variations
 * (variations: the main line's nodes' counts or'ed), then the recorded
 * result against the board. */
static void replay_end(xq_game *g, const xq_replay_options *opt, xq_notation notation, uint32_t variations,
                       xq_replay *out)
{
    /* a second walk of the main line only for records that have variations */
    if (variations) check_branch(&g->main, out->start, 1, true, out->plies, notation, opt, out);

    /* the recorded result against the board */
    if (out->result_board != XQ_RESULT_UNKNOWN && out->status == XQ_STATUS_VALID) check_result(opt, out);
}

void xq_replay_memo_free(xq_replay_memo *memo)
{
    if (!memo) return;
    xq_rep_memo_free(&memo->judge);
    xq_line_memo_free(&memo->lines);
    free(memo->key);
    memset(memo, 0, sizeof *memo);
}

void xq_replay_game_memo(xq_game *g, const xq_replay_options *opt, xq_replay_memo *memo, xq_replay *out)
{
    /* all zero but the findings (4.4K of the 6.8K, written by add_finding
     * before anyone reads them: readers stop at nfindings), the start and
     * final positions (written at the end, or zeroed by a start that does
     * not read) and the verdict (1.5K, written whole by the judge or by
     * line_take, read only when repeated: replay.h): the fields before the
     * findings (replay_head_clear), repeated and out_of_memory */
    const char *rtag, *format;
    replay_tags(g, &rtag, &format);
    xq_notation notation = xq_notation_from_format_tag(format);
    /* a Chinese notation: a node's full-form desc is read and played from
     * the desc alone (xq_move_play_desc) */
    const bool chinese = (unsigned)notation <= XQ_NOTATION_CHINESE_3DIGIT;
    /* the bits of a full-form desc in a Chinese notation, none in
     * another: one test a ply tells the decoded full form */
    const unsigned desc_full = chinese ? XQ_DESC_OTHER - 1 : 0;
    /* the main line by pointers (no pointer arithmetic on a record
     * without moves, whose nodes may be NULL: an empty array instead) */
    static xq_node no_nodes[1];
    xq_node *const nodes = g->main.count ? g->main.nodes : no_nodes;
    const size_t count = g->main.count;
    /* a line replayed before (from the standard start) is taken from the
     * memo.  Its key's hash first, from the nodes (line_key_hash), when
     * the FEN tag names the standard start by its text (nearly every
     * record): its bucket in the memo's table is then on its way into the
     * cache (xq_line_memo_prefetch) while the key is built, the output
     * cleared and the findings and the start position made (a prefetch of
     * the entry the bucket names, once it came, only moved the wait to
     * itself); another FEN spelling of the start is keyed after the start
     * position is read. */
    const uint16_t *line = NULL;
    size_t line_len = 0;
    uint64_t line_hash = 0;
    xq_line_memo *lines = memo ? (memo->shared_lines ? memo->shared_lines : &memo->lines) : NULL;
    uint16_t key_head[LINE_KEY_HEAD];
    const bool named_start = fen_names_start(g);
    const bool keyable = memo && count && line_key_head(opt, notation, key_head);
    const bool keyed_early = keyable && named_start;
    if (keyed_early) {
        line_hash = line_key_hash(key_head, desc_full, nodes, count);
        xq_line_memo_prefetch(lines, line_hash);
        line = line_key(memo, key_head, desc_full, nodes, count, &line_len);
    }
    /* (after the prefetch: work done while the bucket comes) */
    replay_head_clear(out);
    out->repeated = out->out_of_memory = false;

    /* the reader's findings; --strict makes its warnings errors too, as
     * every other warning (man xq(7)) */
    for (size_t i = 0; i < g->diag_count; i++) {
        const xq_diag *d = &g->diags[i];
        xq_node at = {.line = d->line, .col = d->col};
        xq_severity sev = opt->strict && d->severity == XQ_SEV_WARNING ? XQ_SEV_ERROR : d->severity;
        add_finding_text(out, opt, XQ_FIND_SYNTAX, sev, 0, &at, d->msg);
    }
    /* and the ones past its list, counted only (game.h diag_dropped) */
    for (int s = XQ_SEV_ERROR; s <= XQ_SEV_WARNING; s++)
        if (g->diag_dropped[s])
            count_only(out, XQ_FIND_SYNTAX, opt->strict ? XQ_SEV_ERROR : (xq_severity)s, g->diag_dropped[s]);

    /* the Result tag, else the movetext result */
    read_result_tag(g, rtag, opt, out);

    xq_position pos;
    xq_checks state;                      /* who is in check (xq_checks_after) */
    int attackers;                        /* attacking pieces on the board (attackers_on) */
    if (!start_position(g, named_start, opt, out, &pos, &state, &attackers)) {
        memset(&out->start, 0, sizeof out->start);   /* no position: both zero */
        memset(&out->final, 0, sizeof out->final);
        return;
    }
    out->read_flags = coord_rank_flags(&pos, nodes, count, notation);

    if (keyable && !named_start && is_start(&pos) &&
        (line = line_key(memo, key_head, desc_full, nodes, count, &line_len)))
        line_hash = line_key_hash(key_head, desc_full, nodes, count);
    if (line) {
        size_t vlen;
        xq_line_memo_lock(lines);
        const unsigned char *v = xq_line_memo_find(lines, line_hash, line, line_len, &vlen);
        /* kept without its moves (opt->no_moves), a line is taken only
         * by a game without variations: check_branch would start from its
         * moves; one with them is played (and not kept again) */
        if (v && opt->no_moves && nodes_variations(nodes, count)) {
            v = NULL;
            line = NULL;
        }
        uint32_t variations = v ? line_take(v, nodes, count, !opt->no_moves, !opt->no_final, out) : 0;
        xq_line_memo_unlock(lines);
        if (v) {
            replay_end(g, opt, notation, variations, out);
            return;
        }
    }
    const int new_from = out->nfindings, counted_before = out->error_count + out->warning_count;
    /* repetition tracking: the keys since the last capture (not
     * zero-filled: written before they are read), and the filter of every
     * key of the game (key_filter_game): most positions are new, and a
     * key whose slot was not stamped by this game spares the scan of the
     * stretch.  A capture makes every earlier position unreachable
     * (CXA1999 §24), so the stretch restarts there; the filter need not (a
     * slot stamped by an older key only costs a scan) */
    /* room for every key of the game (a stretch is at most all of it), so
     * the loop never tests for room; one slot more, a spare (below) */
    uint64_t klocal[XQ_KEYS_LOCAL + 1], *keys = klocal;
    size_t nkeys = 1, kcap = XQ_KEYS_LOCAL;
    bool keys_short = false;   /* out of memory: the keys of a stretch stop at kcap */
    if (g->main.count + 1 > kcap) {
        uint64_t *k = malloc((g->main.count + 2) * sizeof *k);
        if (k) {
            keys = k;
            kcap = g->main.count + 1;
        } else {
            /* repetition detection degrades, the replay goes on: a key
             * past kcap lands in the spare slot, is not judged, and is
             * dropped at the end of its ply; the run is failed for it */
            keys_short = true;
            out->out_of_memory = true;
        }
    }
    size_t base = 0;                 /* keys[0] stood after ply base (0: the start) */
    uint8_t *stamps = key_stamps, gen = key_filter_game();
    keys[0] = pos.key;
    stamps[pos.key & (XQ_KEY_FILTER - 1)] = gen;
    xq_rep_memo own_memo = {0};   /* no memo given: one for this game, freed at its end */
    xq_rep_memo *judge = memo ? &memo->judge : &own_memo;
    int checks[2] = {0, 0};          /* checks per side since the last capture */
    /* the options the loop reads every ply, in locals (a call in the loop
     * would make the compiler read them again from *opt) */
    const int move_limit = opt->move_limit, check_cap = opt->check_cap, repetitions = opt->repetitions;
    const int limit_plies = 2 * move_limit;
    bool limit_reached = false, dead = attackers == 0;
    bool limit_watch = move_limit > 0;   /* the move limit is on and not reached yet */
    int limit = limit_at(limit_watch, limit_plies, check_cap, checks);   /* halfmove that reaches it */
    int repetition_ply = 0;
    /* The end of the game on the board (a repetition, the move limit, a
     * dead position) is told at the first move recorded after it, once:
     * when the game ended at ply k, the tell is due at ply k + 1 (with
     * what ended it at k: tell_rep, tell_dead), if that move reads.  It is
     * made at the end of that ply's work, which adds no finding, so the
     * findings keep their order.  The end, the tell and the move limit
     * share one test per ply: `trigger` is the limit, or INT_MIN while
     * something is to be done at the end of the ply, or always when checks
     * are capped (AXF: the checks are counted there, and the CXA replay,
     * the default, has no test for them) or the keys are short of room. */
    const bool capped = check_cap > 0, always = capped || keys_short;
    bool ended = dead, after_end_told = dead;   /* dead from the start: told at the first move */
    int tell_due = dead ? 1 : 0, tell_rep = 0;
    bool tell_dead = dead, captured_now = false;
    int trigger = tell_due || always ? INT_MIN : limit;
    uint32_t variations = 0;         /* nonzero: a main-line node has variations (check_branch) */

    /* by index: the ply is i + 1, a capture's stretch starts there */
    size_t i;
    for (i = 0; i < count; i++) {
        xq_node *node = &nodes[i];
        variations |= node->variation_count;
        /* the check state kept along the game spares legality its own
         * general's test for most moves (xq_move_legality_known); the
         * shortcut reads and plays nearly every move in one call
         * (xq_move_read_play_desc: with the text's decoding when the
         * reader kept it, node->desc), the full reader reads the rest */
        unsigned desc = node->desc;
        xq_played played;
        if (__builtin_expect((desc & desc_full) != 0, 1)) {   /* the full form, decoded: its text is not needed */
            assert(desc == xq_move_desc(node->text, node->text_len ? node->text_len : strlen(node->text)));
            if (i + 1 < count) xq_move_desc_prefetch((xq_color)(pos.side ^ 1), node[1].desc);
            played = xq_move_play_desc(&pos, desc, &state);
        } else if (__builtin_expect(out->read_flags & XQ_READ_RANKS_FROM_1, 0)) {
            /* ranks 1-10: the full reader takes every move (the
             * shortcut reads coordinates 0-9) */
            played = (xq_played){XQ_MOVE_NONE, XQ_NONE};
        } else {
            played = xq_move_read_play_desc(&pos, (uint16_t)desc, node->text,
                                            node->text_len ? node->text_len : strlen(node->text), notation, &state);
        }
        xq_move m = played.move;
        xq_piece captured = played.captured;
        if (m == XQ_MOVE_NONE) {
            m = read_move_slow(out, &pos, &state, node, (int)i + 1, notation, opt);
            if (m == XQ_MOVE_NONE) break;
            captured = xq_play(&pos, m, &state);   /* xq_make and xq_checks_after */
        }
        node->move = m;

        if (captured) {
            nkeys = 0;   /* a new stretch */
            base = i + 1;
            if (capped) {   /* the limit moves with the checks (else it stays) */
                checks[0] = checks[1] = 0;
                captured_now = true;
                limit = limit_at(limit_watch, limit_plies, check_cap, checks);
            }
            /* the last attacker gone: dead (CXA1999 §4.2.1), noted at
             * the end of the ply (below), where the trigger leads */
            if (is_attacker(captured) && --attackers == 0) trigger = INT_MIN;
        }
        /* the key of the new position, and whether the filter saw it */
        uint64_t key = pos.key;
        uint8_t *stamp = &stamps[key & (XQ_KEY_FILTER - 1)];
        bool fresh = *stamp != gen;
        *stamp = gen;
        keys[nkeys++] = key;
        /* a key the filter saw may repeat (one in the spare slot is not
         * kept: short of room) */
        if (!fresh && nkeys <= kcap && !repetition_ply && nkeys >= 5 && keys_count(keys, nkeys) >= repetitions &&
            stretch_judge(&out->start, &pos, nodes, (int)base, (int)i + 1, keys, nkeys, opt,
                          judge, &out->repetition, &out->out_of_memory)) {
            repetition_ply = (int)i + 1;
            ended = true;
            trigger = INT_MIN;
        }
        if (pos.halfmove >= trigger) {
            int ply = (int)i + 1;
            if (attackers == 0 && !dead) dead = ended = true;   /* by this ply's capture */
            if (capped && !captured_now && state.in_check[pos.side]) {
                checks[pos.side ^ 1]++;   /* the mover's: a check, counted when the move limit caps them */
                limit = limit_at(limit_watch, limit_plies, check_cap, checks);
            }
            captured_now = false;
            if (nkeys > kcap) nkeys = kcap;   /* short of room: the key in the spare slot is dropped */
            if (tell_due == ply) {   /* this move came after the end */
                tell_after_end(out, opt, ply, node, tell_rep, tell_dead);
                tell_due = 0;
            }
            if (limit_watch && pos.halfmove >= limit) {
                limit_reached = ended = true;
                limit_watch = false;
                limit = INT_MAX;
            }
            if (ended && !after_end_told) {   /* the game ended at this ply: tell at the next */
                after_end_told = true;
                tell_due = ply + 1;
                tell_rep = repetition_ply;
                tell_dead = dead;
            }
            trigger = tell_due || always ? INT_MIN : limit;
        }
    }
    out->plies = (int)i;   /* the moves played: all, or those before the one refused */
    /* a node past an illegal move may still have variations */
    for (; i < count && !variations; i++) variations = nodes[i].variation_count;
    /* the record went on after a repetition and ends on another one: that
     * last one is how the game ended */
    if (repetition_ply && repetition_ply < out->plies && out->status == XQ_STATUS_VALID && nkeys >= 5 &&
        keys_count(keys, nkeys) >= opt->repetitions) {
        xq_rep_verdict last;
        if (stretch_judge(&out->start, &pos, nodes, (int)base, out->plies, keys, nkeys, opt, judge, &last,
                          &out->out_of_memory)) {
            out->repetition = last;
            repetition_ply = out->plies;
        }
    }
    out->repeated = repetition_ply > 0;
    if (keys != klocal) free(keys);
    if (judge == &own_memo) xq_rep_memo_free(&own_memo);   /* the caller's memo is the caller's to free */

    /* without both generals (an impossible start, reported as an error)
     * checkmate, stalemate and dead positions mean nothing: an empty board
     * is no stalemate (CXA1999 §3: the general is what is mated) */
    bool generals = pos.general[XQ_RED] < XQ_SQUARES && pos.general[XQ_BLACK] < XQ_SQUARES;
    if (out->status == XQ_STATUS_VALID) {
        if (generals && !xq_has_legal_move_known(&pos, state.in_check[pos.side])) {
            out->termination = xq_in_check(&pos, pos.side) ? XQ_TERM_CHECKMATE : XQ_TERM_STALEMATE;
            out->result_board = loss_for(pos.side);
        } else if (generals && dead) {
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
    if (opt->no_final) memset(&out->final, 0, sizeof out->final);
    else out->final = pos;
    if (line && !out->out_of_memory)
        line_keep(lines, line_hash, line, line_len, out, &pos, new_from, counted_before, nodes, count,
                  !opt->no_moves, !opt->no_final);
    replay_end(g, opt, notation, variations, out);
}
