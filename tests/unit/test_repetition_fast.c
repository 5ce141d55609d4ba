/* test_repetition_fast.c - the move classification of the repetition
 * rules (xq_classify_move, repetition_classify.c) against the plain
 * implementation it replaced, kept below as the reference: every fact of
 * every ply (check, mate threat, victims and chasers in order, soldier and
 * pinner victims, act, idle kind) must agree under both rule sets.
 *
 * The fast one generates captures, checks and the answers to a check
 * itself instead of filtering every legal move or every pair of squares,
 * and orders its mate search differently; the reference here runs its mate
 * searches without a practical budget, so both give the exact answer (the
 * fast search never reaches its budget on these positions, nor on the
 * corpus).  Positions: every ply of the repetition records in tests/data,
 * and plies of the endgame and middlegame sets of ../shared (skipped when
 * it is missing).  In builds without NDEBUG the fast search also asserts,
 * at every move it tries, that its check test read on the board
 * (quiet_move_checks) agrees with the move played.
 */
#define XQ_REPETITION_INTERNAL   /* xq_light_make, compared with xq_make */
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

#include "board_tables.h"
#include "pgn_read.h"
#include "repetition.h"
#include "replay.h"

#ifndef XQ_SHARED
#define XQ_SHARED "../shared"
#endif

/* ==== the reference: the classification before the fast one ============= */

enum {
    MATE_DEPTH = 7,           /* plies of a mate by checks that make a threat (§28.2) */
    MATE_BUDGET = 1000000,    /* moves tried per mate-threat search: unbounded in practice */
    CAPTURE_MATE_DEPTH = 3,    /* "mated at once" after a capture (§29.4): plies */
    CAPTURE_MATE_BUDGET = 1000000,
    EXCHANGE_DEPTH = 24        /* captures on one square, at most */
};

/* ---- values (CXA1999 §25.3) -------------------------------------------- */

/* Value in half-horses: chariot = 2 horses = 2 cannons = horse + cannon,
 * advisor = elephant, a crossed soldier like an advisor, an uncrossed one
 * half of it.  The general is never captured by a legal move; its value
 * only keeps exchanges honest. */
static int value_of(xq_piece p, int sq)
{
    switch (XQ_KIND(p)) {
    case XQ_CHARIOT: return 8;
    case XQ_HORSE:
    case XQ_CANNON: return 4;
    case XQ_ADVISOR:
    case XQ_ELEPHANT: return 2;
    case XQ_SOLDIER: return xq_own_half(xq_rank_of[sq], XQ_COLOR(p)) ? 1 : 2;
    case XQ_GENERAL: return 1000;
    default: return 0;
    }
}

/* A "piece of value" (子力, §25.3): not the general, not an uncrossed soldier. */
static bool of_value(xq_piece p, int sq)
{
    xq_kind k = XQ_KIND(p);
    if (k == XQ_NONE || k == XQ_GENERAL) return false;
    if (k == XQ_SOLDIER && xq_own_half(xq_rank_of[sq], XQ_COLOR(p))) return false;
    return true;
}

/* ---- square sets ------------------------------------------------------- */

typedef struct {
    uint64_t w[2];
} sqset;

static inline void set_add(sqset *s, int sq) { s->w[sq >> 6] |= (uint64_t)1 << (sq & 63); }
static inline bool set_has(const sqset *s, int sq) { return (s->w[sq >> 6] >> (sq & 63)) & 1; }
static inline bool set_empty(const sqset *s) { return !(s->w[0] | s->w[1]); }
static inline bool set_empty_of(sqset s) { return !(s.w[0] | s.w[1]); }
static inline sqset set_minus(sqset a, sqset b)
{
    a.w[0] &= ~b.w[0];
    a.w[1] &= ~b.w[1];
    return a;
}

/* ---- searches ---------------------------------------------------------- */

/* A copy of pos with side c to move (a "pass" by the other side). */
static xq_position with_side(const xq_position *pos, xq_color c)
{
    xq_position p = *pos;
    if (p.side != c) xq_position_set_side(&p, c);
    return p;
}

/* Squares of the pieces that attack the general of the side to move. */
static sqset checkers_of(const xq_position *pos)
{
    sqset s = {{0, 0}};
    xq_color c = pos->side, e = (xq_color)(c ^ 1);
    int g = pos->general[c];
    if (g >= XQ_SQUARES) return s;
    xq_position p = with_side(pos, e);
    for (int sq = 0; sq < XQ_SQUARES; sq++) {
        xq_piece q = pos->board[sq];
        if (!q || XQ_COLOR(q) != e || XQ_KIND(q) == XQ_GENERAL) continue;
        xq_illegal r = xq_move_legality(&p, XQ_MOVE(sq, g));
        if (r == XQ_LEGAL || r == XQ_ILL_LEAVES_CHECK || r == XQ_ILL_GENERALS_FACE) set_add(&s, sq);
    }
    return s;
}

/* The captures of the side to move, into moves[XQ_MAX_MOVES].  With
 * `relax`, the check standing on the board is treated as answered by a
 * pass (the fictional null move of a check inside a chase cycle): a
 * capture may leave the general attacked by the pieces in *relax, never by
 * a new one.  Only captures on `only` when it is a square (>= 0). */
static int gen_captures(const xq_position *pos, const sqset *relax, int only, xq_move *moves)
{
    int n = 0;
    if (!relax) {
        xq_move all[XQ_MAX_MOVES];
        int k = xq_legal_moves(pos, all);
        for (int i = 0; i < k; i++) {
            int to = XQ_TO(all[i]);
            if (pos->board[to] && (only < 0 || to == only)) moves[n++] = all[i];
        }
        return n;
    }
    xq_color c = pos->side;
    for (int from = 0; from < XQ_SQUARES; from++) {
        xq_piece a = pos->board[from];
        if (!a || XQ_COLOR(a) != c) continue;
        for (int to = only < 0 ? 0 : only; to < (only < 0 ? XQ_SQUARES : only + 1); to++) {
            xq_piece v = pos->board[to];
            if (!v || XQ_COLOR(v) == c || n >= XQ_MAX_MOVES) continue;
            xq_move m = XQ_MOVE(from, to);
            xq_illegal r = xq_move_legality(pos, m);
            if (r == XQ_LEGAL) {
                moves[n++] = m;
            } else if (r == XQ_ILL_LEAVES_CHECK) {
                xq_position q = *pos;
                xq_undo u;
                xq_make(&q, m, &u);
                xq_position_set_side(&q, c);
                sqset now = checkers_of(&q);
                if (set_empty_of(set_minus(now, *relax))) moves[n++] = m;
            }
        }
    }
    return n;
}

/* The most the side to move can gain by capturing on sq and letting the
 * exchange there run its course, each side free to stop (>= 0).  Legal
 * moves only: a pinned or "false" protector does not recapture (§28.16);
 * `relax` (first capture only) as in gen_captures. */
static int exchange_gain(xq_position *pos, int sq, int depth, const sqset *relax)
{
    if (depth >= EXCHANGE_DEPTH) return 0;
    xq_move moves[XQ_MAX_MOVES];
    int n = gen_captures(pos, relax, sq, moves);
    int best = 0, v = value_of(pos->board[sq], sq);
    for (int i = 0; i < n; i++) {
        xq_undo u;
        xq_make(pos, moves[i], &u);
        int g = v - exchange_gain(pos, sq, depth + 1, NULL);
        xq_unmake(pos, moves[i], &u);
        if (g > best) best = g;
    }
    return best;
}

/* Where checks can come from, for the side to move against the other
 * general: computed once per node of the mate search. */
typedef struct {
    int king, kf, kr;              /* the general to check, its file and rank */
    bool slider_file, slider_rank; /* an own chariot or cannon on its file / rank */
    bool cannon_file, cannon_rank; /* an own cannon there (a new screen may check) */
    sqset legs;                    /* legs of own horses a horse's move from it */
} check_ctx;

static bool check_ctx_init(const xq_position *pos, check_ctx *c)
{
    memset(c, 0, sizeof *c);
    xq_color me = pos->side;
    c->king = pos->general[me ^ 1];
    if (c->king >= XQ_SQUARES) return false;
    c->kf = xq_file_of[c->king];
    c->kr = xq_rank_of[c->king];
    for (int sq = 0; sq < XQ_SQUARES; sq++) {
        xq_piece p = pos->board[sq];
        if (!p || XQ_COLOR(p) != me) continue;
        xq_kind k = XQ_KIND(p);
        int f = xq_file_of[sq], r = xq_rank_of[sq];
        if (k == XQ_CHARIOT || k == XQ_CANNON) {
            if (f == c->kf) c->slider_file = true, c->cannon_file |= k == XQ_CANNON;
            if (r == c->kr) c->slider_rank = true, c->cannon_rank |= k == XQ_CANNON;
        } else if (k == XQ_HORSE) {
            int df = c->kf - f, dr = c->kr - r;
            if ((abs(df) == 1 && abs(dr) == 2) || (abs(df) == 2 && abs(dr) == 1))
                set_add(&c->legs, XQ_SQ(f + (abs(df) == 2 ? df / 2 : 0), r + (abs(dr) == 2 ? dr / 2 : 0)));
        }
    }
    return true;
}

/* Could move m give check?  A cheap necessary condition: it uncovers an
 * own chariot or cannon on the general's file or rank, or leaves a horse
 * leg; or the piece itself attacks from its new square (chariot or cannon
 * on the line, horse a horse's move away, soldier next to it); or it lands
 * on a line where an own cannon may use it as a screen. */
static bool may_check(const xq_position *pos, const check_ctx *c, xq_move m)
{
    int from = XQ_FROM(m), to = XQ_TO(m);
    int ff = xq_file_of[from], fr = xq_rank_of[from], tf = xq_file_of[to], tr = xq_rank_of[to];
    if ((ff == c->kf && c->slider_file) || (fr == c->kr && c->slider_rank) || set_has(&c->legs, from)) return true;
    int df = abs(tf - c->kf), dr = abs(tr - c->kr);
    switch (XQ_KIND(pos->board[from])) {
    case XQ_CHARIOT:
    case XQ_CANNON:
        if (!df || !dr) return true;
        break;
    case XQ_HORSE:
        if (df + dr == 3 && df && dr) return true;
        break;
    case XQ_SOLDIER:
        if (df + dr == 1) return true;
        break;
    default:
        break;
    }
    return (tf == c->kf && c->cannon_file) || (tr == c->kr && c->cannon_rank);
}

/* The legal moves of the side to move that may give check (a superset of
 * the checks), generated only for the pieces that can give one; into
 * moves[XQ_MAX_MOVES + 32].  Returns the count. */
static int gen_check_candidates(const xq_position *pos, const check_ctx *c, xq_move *moves)
{
    int n = 0;
    xq_color me = pos->side;
    bool screens = c->cannon_file || c->cannon_rank;
    for (int sq = 0; sq < XQ_SQUARES && n < XQ_MAX_MOVES; sq++) {
        xq_piece p = pos->board[sq];
        if (!p || XQ_COLOR(p) != me) continue;
        xq_kind k = XQ_KIND(p);
        int f = xq_file_of[sq], r = xq_rank_of[sq];
        bool active = k == XQ_CHARIOT || k == XQ_CANNON || k == XQ_HORSE || k == XQ_SOLDIER;
        bool uncovers = (f == c->kf && c->slider_file) || (r == c->kr && c->slider_rank) || set_has(&c->legs, sq);
        if (!active && !uncovers && !screens) continue;
        int k0 = n;
        int got = xq_legal_moves_from(pos, sq, moves + n);
        for (int i = k0; i < k0 + got; i++)
            if (may_check(pos, c, moves[i])) moves[n++] = moves[i];
    }
    return n;
}

/* Can the side to move mate by consecutive checks within depth plies
 * (1, 3, 5, ...)?  Every reply of the defender is tried; a defender left
 * without a legal move after a check is mated (§3.1).  *budget counts the
 * moves tried; when it runs out the answer is "no". */
static bool mate_by_checks(xq_position *pos, int depth, int *budget)
{
    check_ctx c;
    if (!check_ctx_init(pos, &c)) return false;
    xq_move moves[XQ_MAX_MOVES + 32];
    int n = gen_check_candidates(pos, &c, moves);
    xq_color them = (xq_color)(pos->side ^ 1);
    for (int i = 0; i < n; i++) {
        if (--*budget < 0) return false;
        xq_undo u;
        xq_make(pos, moves[i], &u);
        bool mate = false;
        if (xq_in_check(pos, them)) {
            if (depth < 3) {
                mate = !xq_has_legal_move(pos);
            } else {
                xq_move replies[XQ_MAX_MOVES];
                int k = xq_legal_moves(pos, replies);
                mate = true;
                for (int j = 0; j < k && mate; j++) {
                    xq_undo v;
                    xq_make(pos, replies[j], &v);
                    mate = mate_by_checks(pos, depth - 2, budget);
                    xq_unmake(pos, replies[j], &v);
                }
            }
        }
        xq_unmake(pos, moves[i], &u);
        if (mate) return true;
        if (*budget < 0) return false;
    }
    return false;
}

/* Mate by checks for the side to move within max_depth plies, searched
 * at once (a deeper search finds every shorter mate too; the budget is
 * rarely reached, and iterating deeper searches would double the work). */
static bool has_mate_by_checks(const xq_position *pos, int max_depth, int budget)
{
    xq_position p = *pos;
    return mate_by_checks(&p, max_depth, &budget);
}

/* ---- who can take what ------------------------------------------------- */

/* What a capture by side s (s to move) would mean for the chase rules. */
typedef enum {
    CAP_PIECE = 0,   /* wins material, by a piece other than general and soldier */
    CAP_SOLDIER,     /* wins material, by a soldier (idle alone, §27.2) */
    CAP_GENERAL,     /* wins material, by the general (idle alone, §27.1) */
    CAP_MATED,       /* wins material, but the mover is then mated (§29.4) */
    CAP_FOLLOW,      /* wins nothing: the victim is protected (跟, §28.8) */
    CAP_EXCHANGE,    /* equal pieces attacking each other (兌, §28.5) */
    CAP_PINNER       /* the attacker cannot move but to take the victim (AXF rule 19) */
} cap_kind;

typedef struct {
    uint8_t from, to, kind;
} cap_pair;

/* Every capture of a piece of value side s could make (s to move). */
typedef struct {
    int n;
    cap_pair pair[XQ_MAX_MOVES];
} capture_scan;

static void scan_captures(const xq_position *in, xq_color s, xq_rules rules, capture_scan *out)
{
    out->n = 0;
    xq_position pos = with_side(in, s);
    xq_position them = with_side(in, (xq_color)(s ^ 1));
    /* a check on the board, either way, is answered by a fictional pass */
    sqset none = {{0, 0}};
    sqset mine = xq_in_check(&pos, s) ? checkers_of(&pos) : none;
    sqset theirs = xq_in_check(&them, (xq_color)(s ^ 1)) ? checkers_of(&them) : none;
    const sqset *relax_mine = set_empty(&mine) ? NULL : &mine;
    const sqset *relax_theirs = set_empty(&theirs) ? NULL : &theirs;
    xq_move moves[XQ_MAX_MOVES];
    int n = gen_captures(&pos, relax_mine, -1, moves);
    for (int i = 0; i < n; i++) {
        int from = XQ_FROM(moves[i]), to = XQ_TO(moves[i]);
        xq_piece v = pos.board[to];
        if (!of_value(v, to)) continue;
        xq_piece a = pos.board[from];
        int va = value_of(a, from), vv = value_of(v, to);
        cap_kind kind;
        bool mutual = false;
        if (va == vv) {
            xq_move back[XQ_MAX_MOVES];
            int k = gen_captures(&them, relax_theirs, from, back);
            for (int j = 0; j < k && !mutual; j++) mutual = XQ_FROM(back[j]) == to;
        }
        if (mutual) {
            kind = CAP_EXCHANGE;   /* the other side may take first: an offer to exchange */
        } else {
            xq_undo u;
            xq_make(&pos, moves[i], &u);
            int gain;
            if (rules == XQ_RULES_AXF) {
                /* AXF: a piece is protected when it can be taken back at
                 * all; a protected piece is chased only by a lesser one */
                xq_move back[XQ_MAX_MOVES];
                gain = gen_captures(&pos, relax_theirs, to, back) > 0 ? vv - va : vv;
            } else {
                /* CXA1999 §29.1, ch.7 item 3: the complete exchange wins
                 * material (a false or insufficient root counts as none, §28.16) */
                gain = vv - exchange_gain(&pos, to, 0, relax_theirs);
            }
            /* (not when the capture stands under the fictional pass: the
             * other side would simply take the general) */
            bool mated = gain > 0 && !relax_mine &&
                         has_mate_by_checks(&pos, CAPTURE_MATE_DEPTH, CAPTURE_MATE_BUDGET);
            xq_unmake(&pos, moves[i], &u);
            if (gain <= 0) kind = CAP_FOLLOW;
            else if (mated) kind = CAP_MATED;
            else if (XQ_KIND(a) == XQ_GENERAL) kind = CAP_GENERAL;
            else if (XQ_KIND(a) == XQ_SOLDIER) kind = CAP_SOLDIER;
            else kind = CAP_PIECE;
        }
        if (kind == CAP_PIECE && XQ_KIND(a) == XQ_CHARIOT && XQ_KIND(v) == XQ_HORSE && !relax_mine) {
            /* a chariot whose only legal move is this capture is held by
             * the horse (AXF rule 19); not judged while in check */
            xq_move own[XQ_MAX_MOVES];
            int k = xq_legal_moves_from(&pos, from, own);
            bool other = false;
            for (int j = 0; j < k && !other; j++) other = XQ_TO(own[j]) != to;
            if (!other) kind = CAP_PINNER;
        }
        out->pair[out->n++] = (cap_pair){(uint8_t)from, (uint8_t)to, (uint8_t)kind};
    }
}

static bool has_pair(const capture_scan *sc, int from, int to, cap_kind kind)
{
    for (int i = 0; i < sc->n; i++)
        if (sc->pair[i].from == from && sc->pair[i].to == to && sc->pair[i].kind == kind) return true;
    return false;
}

/* Victims of the captures of `kind` in after that are new: the same
 * attacker (followed from its square before the move) could not make that
 * capture with that meaning before (§29.2, ch.7 items 2 and 6). */
static sqset fresh_victims(const capture_scan *before, const capture_scan *after, cap_kind kind,
                           xq_move m, bool mated_counts)
{
    sqset s = {{0, 0}};
    int from = XQ_FROM(m), to = XQ_TO(m);
    for (int i = 0; i < after->n; i++) {
        const cap_pair *p = &after->pair[i];
        if (p->kind != kind) continue;
        int was = p->from == to ? from : p->from;
        if (!has_pair(before, was, p->to, kind) && !(mated_counts && has_pair(before, was, p->to, CAP_MATED)))
            set_add(&s, p->to);
    }
    return s;
}

static bool attacker_has(const capture_scan *sc, int from, cap_kind kind)
{
    for (int i = 0; i < sc->n; i++)
        if (sc->pair[i].from == from && sc->pair[i].kind == kind) return true;
    return false;
}

/* The victims of the captures in `before` that are chases under CXA 1999
 * (a capture that wins material, or by a chariot held by the horse it
 * takes): a piece on one of these squares was already chased before the
 * move, by whatever piece (§29.2, ch.7 item 6: from chase to chase). */
static sqset chased_cxa(const capture_scan *before)
{
    sqset s = {{0, 0}};
    for (int i = 0; i < before->n; i++)
        if (before->pair[i].kind == CAP_PIECE || before->pair[i].kind == CAP_PINNER) set_add(&s, before->pair[i].to);
    return s;
}

static int legal_count(const xq_position *pos, xq_color c)
{
    xq_position p = with_side(pos, c);
    xq_move moves[XQ_MAX_MOVES];
    return xq_legal_moves(&p, moves);
}

/* The square of an attacker that makes a fresh capture of `kind` on victim. */
static int fresh_attacker(const capture_scan *before, const capture_scan *after, cap_kind kind, xq_move m,
                          bool mated_counts, int victim)
{
    int from = XQ_FROM(m), to = XQ_TO(m);
    for (int i = 0; i < after->n; i++) {
        const cap_pair *p = &after->pair[i];
        if (p->kind != kind || p->to != victim) continue;
        int was = p->from == to ? from : p->from;
        if (!has_pair(before, was, p->to, kind) && !(mated_counts && has_pair(before, was, p->to, CAP_MATED)))
            return p->from;
    }
    return victim;
}

static int set_to_list(const sqset *s, uint8_t *list)
{
    int n = 0;
    for (int sq = 0; sq < XQ_SQUARES && n < XQ_MAX_VICTIMS; sq++)
        if (set_has(s, sq)) list[n++] = (uint8_t)sq;
    return n;
}

/* Classifications under CXA 1999 where chased_cxa took a victim away:
 * the corpora below must hold some, or the comparison proves nothing
 * about that rule. */
static long ref_chase_to_chase;

static void ref_classify_move(const xq_position *before, xq_move m, xq_rules rules, xq_move_class *out)
{
    memset(out, 0, sizeof *out);
    out->move = m;
    xq_color s = before->side, o = (xq_color)(s ^ 1);
    out->side = s;
    xq_position after = *before;
    xq_undo u;
    xq_make(&after, m, &u);
    int to = XQ_TO(m);

    out->check = xq_in_check(&after, o);

    /* §29.2: only attacks that did not exist before the move */
    capture_scan sb, sa;
    scan_captures(before, s, rules, &sb);
    scan_captures(&after, s, rules, &sa);
    /* AXF looks at attacks: one that existed before but would have got the
     * mover mated is not new; CXA 1999 counts the first safe one (ch.7 item 2) */
    bool axf = rules == XQ_RULES_AXF;
    sqset fresh = fresh_victims(&sb, &sa, CAP_PIECE, m, axf);
    sqset fresh_pinner = set_minus(fresh_victims(&sb, &sa, CAP_PINNER, m, axf), fresh);
    sqset fresh_soldier = set_minus(set_minus(fresh_victims(&sb, &sa, CAP_SOLDIER, m, axf), fresh), fresh_pinner);
    if (!axf) {
        /* CXA 1999: a piece chased before the move by any piece is not newly chased */
        sqset kept = set_minus(fresh, chased_cxa(&sb));
        ref_chase_to_chase += memcmp(&kept, &fresh, sizeof kept) != 0;
        fresh = kept;
        fresh_pinner = set_minus(fresh_pinner, chased_cxa(&sb));
    }
    out->nvictims = set_to_list(&fresh, out->victims);
    for (int k = 0; k < out->nvictims; k++)
        out->chasers[k] = (uint8_t)fresh_attacker(&sb, &sa, CAP_PIECE, m, axf, out->victims[k]);
    out->npinner_victims = set_to_list(&fresh_pinner, out->pinner_victims);
    out->nsoldier_victims = set_to_list(&fresh_soldier, out->soldier_victims);

    /* §28.2: a mate by checks if the other side passed, new with this move */
    if (!out->check) {
        xq_position threat = with_side(&after, s);
        if (has_mate_by_checks(&threat, MATE_DEPTH, MATE_BUDGET) &&
            !has_mate_by_checks(before, MATE_DEPTH, MATE_BUDGET))
            out->mate_threat = true;
    }

    /* §27.4: the heaviest counts */
    if (out->check) out->act = XQ_ACT_CHECK;
    else if (out->mate_threat) out->act = XQ_ACT_MATE_THREAT;
    else if (out->nvictims || out->npinner_victims) out->act = XQ_ACT_CHASE;
    else out->act = XQ_ACT_IDLE;
    if (out->act != XQ_ACT_IDLE) return;

    /* which kind of idle move (evidence only) */
    bool kept = false;
    for (int i = 0; i < sa.n && !kept; i++) kept = sa.pair[i].kind == CAP_PIECE;
    if (!set_empty(&fresh_soldier)) {
        out->idle = XQ_IDLE_SOLDIER_CHASE;
    } else if (!set_empty_of(fresh_victims(&sb, &sa, CAP_GENERAL, m, axf))) {
        out->idle = XQ_IDLE_GENERAL_CHASE;
    } else if (!set_empty_of(fresh_victims(&sb, &sa, CAP_MATED, m, axf))) {
        out->idle = XQ_IDLE_CAPTURE_MATED;
    } else if (kept) {
        out->idle = XQ_IDLE_CHASE_KEPT;
    } else if (attacker_has(&sa, to, CAP_EXCHANGE)) {
        out->idle = XQ_IDLE_EXCHANGE;
    } else {
        xq_position reply = after;   /* the other side to move: can it win the moved piece? */
        if (exchange_gain(&reply, to, 0, NULL) > 0) out->idle = XQ_IDLE_OFFER;
        else if (attacker_has(&sa, to, CAP_FOLLOW) && !set_empty_of(fresh_victims(&sb, &sa, CAP_FOLLOW, m, axf)))
            out->idle = XQ_IDLE_FOLLOW;
        else if (legal_count(&after, o) < legal_count(before, o))
            out->idle = XQ_IDLE_BLOCK;
        else
            out->idle = XQ_IDLE_PLAIN;
    }
}

/* ==== the comparison ====================================================== */

typedef struct {
    long plies, differ, threats, chases, checks;
} tally_rep;

/* Classify m in pos both ways under both rule sets; count and report. */
static void compare_ply(const xq_position *pos, xq_move m, tally_rep *t)
{
    for (int r = 0; r < 2; r++) {
        xq_move_class fast, ref;
        xq_classify_move(pos, m, (xq_rules)r, &fast);
        ref_classify_move(pos, m, (xq_rules)r, &ref);
        t->plies++;
        t->threats += ref.mate_threat;
        t->chases += ref.nvictims > 0;
        t->checks += ref.check;
        if (memcmp(&fast, &ref, sizeof fast)) {
            char fen[XQ_FEN_MAX];
            xq_fen_write(pos, fen, sizeof fen);
            print_message("# differ (%s): %s move %d-%d: act %d/%d idle %d/%d victims %d/%d threat %d/%d\n",
                          xq_rules_str((xq_rules)r), fen, XQ_FROM(m), XQ_TO(m), fast.act, ref.act, fast.idle,
                          ref.idle, fast.nvictims, ref.nvictims, fast.mate_threat, ref.mate_threat);
            t->differ++;
        }
    }
}

/* Call visit(pos, m, ctx) at every `every`-th ply of the main lines of
 * the records in path (the replay decodes the moves), up to max_games
 * games; pos is a copy the visitor may change. */
static void each_ply(const char *path, int every, int max_games,
                     void (*visit)(xq_position *pos, xq_move m, void *ctx), void *ctx)
{
    xqt_lines w;
    xqt_lines_open(&w, path, max_games);
    long ply = 0;
    while (xqt_lines_game(&w))
        for (xq_move m; xqt_lines_move(&w, &m); xqt_lines_play(&w, m))
            if (ply++ % every == 0) {
                xq_position copy = w.pos;
                visit(&copy, m, ctx);
            }
    xqt_lines_close(&w);
}

static void visit_compare(xq_position *pos, xq_move m, void *ctx) { compare_ply(pos, m, ctx); }

/* compare_ply at every `every`-th ply of the main lines of path. */
static void compare_file(const char *path, int every, int max_games, tally_rep *t)
{
    each_ply(path, every, max_games, visit_compare, t);
}

/* The fields of a position that xq_light_make keeps (all but the key and
 * the counters): equal in a and b? */
static bool same_board_state(const xq_position *a, const xq_position *b)
{
    return !memcmp(a->board, b->board, sizeof a->board) && !memcmp(a->general, b->general, sizeof a->general) &&
           a->side == b->side && !memcmp(a->rank_occ, b->rank_occ, sizeof a->rank_occ) &&
           !memcmp(a->file_occ, b->file_occ, sizeof a->file_occ);
}

/* xq_light_make / xq_light_unmake against xq_make / xq_unmake for every
 * legal move of pos and, after each, every pseudo-legal reply (captures of
 * generals included, as the searches never make but tests may meet):
 * the same board, masks, generals and side after the move, and the
 * position restored field for field after the take-back.  Returns the
 * moves compared. */
static long compare_light_make(xq_position *pos)
{
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_legal_moves(pos, moves);
    long count = 0;
    for (int i = 0; i < n; i++) {
        xq_position ref = *pos, light = *pos;
        xq_undo u;
        xq_make(&ref, moves[i], &u);
        xq_piece cap = xq_light_make(&light, XQ_FROM(moves[i]), XQ_TO(moves[i]));
        assert_int_equal(cap, u.captured);
        assert_true(same_board_state(&ref, &light));
        assert_true(xq_position_masks_ok(&light));
        count++;
        xq_move replies[XQ_MAX_MOVES];
        int k = xq_legal_moves(&light, replies);
        for (int j = 0; j < k; j++) {
            xq_position r2 = ref, l2 = light;
            xq_undo u2;
            xq_make(&r2, replies[j], &u2);
            xq_piece c2 = xq_light_make(&l2, XQ_FROM(replies[j]), XQ_TO(replies[j]));
            assert_true(same_board_state(&r2, &l2));
            xq_light_unmake(&l2, XQ_FROM(replies[j]), XQ_TO(replies[j]), c2);
            assert_true(same_board_state(&l2, &light));
            count++;
        }
        xq_light_unmake(&light, XQ_FROM(moves[i]), XQ_TO(moves[i]), cap);
        assert_true(same_board_state(&light, pos));
        assert_true(light.key == pos->key && light.halfmove == pos->halfmove && light.fullmove == pos->fullmove);
    }
    return count;
}

static void visit_light_make(xq_position *pos, xq_move m, void *ctx)
{
    (void)m;
    *(long *)ctx += compare_light_make(pos);
}

/* compare_light_make at every `every`-th ply of the main lines of path. */
static long light_make_file(const char *path, int every, int max_games)
{
    long count = 0;
    each_ply(path, every, max_games, visit_light_make, &count);
    return count;
}

static void light_make(void **state)
{
    (void)state;
    long n = light_make_file("tests/data/repetition-cases.pgn", 1, 1000);
    n += light_make_file("tests/data/repetition-later.pgn", 1, 1000);
    print_message("# xq_light_make: %ld moves and replies compared with xq_make\n", n);
    assert_true(n > 10000);
}

static void report(const char *what, const tally_rep *t)
{
    print_message("# %s: %ld classifications, %ld differ (%ld checks, %ld mate threats, %ld chases; "
                  "%ld from chase to chase so far)\n",
                  what, t->plies, t->differ, t->checks, t->threats, t->chases, ref_chase_to_chase);
}

static void repetition_records(void **state)
{
    (void)state;
    tally_rep t = {0};
    compare_file("tests/data/repetition-cases.pgn", 1, 1000, &t);
    compare_file("tests/data/repetition-later.pgn", 1, 1000, &t);
    report("tests/data/repetition-*.pgn", &t);
    assert_true(t.plies > 0);
    assert_int_equal(t.differ, 0);
}

static void endgames(void **state)
{
    (void)state;
    tally_rep t = {0};
    compare_file(XQ_SHARED "/corpus/ccpd/endgames.pgn.gz", 3, 1000, &t);
    report("endgames.pgn.gz, every 3rd ply", &t);
    assert_true(t.threats > 0 && t.chases > 0);
    assert_int_equal(t.differ, 0);
}

static void middlegames(void **state)
{
    (void)state;
    tally_rep t = {0};
    compare_file(XQ_SHARED "/corpus/ccpd/middlegames.pgn.gz", 11, 1000, &t);
    report("middlegames.pgn.gz, every 11th ply", &t);
    assert_true(t.chases > 0);
    assert_true(ref_chase_to_chase > 0);   /* (after the tests above, in order) */
    assert_int_equal(t.differ, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(light_make),
        cmocka_unit_test(repetition_records),
        cmocka_unit_test(endgames),
        cmocka_unit_test(middlegames),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
