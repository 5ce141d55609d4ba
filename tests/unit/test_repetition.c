/* test_repetition.c - the repetition rules (棋例): move classification
 * (check, mate threat, chase, idle), the judge, the replay's use of it,
 * and every repetition case of ../shared/cases under both rule sets:
 * the R-series of cxa1999-cases.txt (expected_cxa1999, expected_axf) and
 * every row of axf-diagrams.tsv under AXF, and under CXA 1999 where the
 * rule sets differ.
 *
 * Where our verdict differs from a case file, the difference is listed in
 * KNOWN below with the clause that decides it; the test pins our verdict
 * for those rows and prints them, so a change either way is noticed.
 */
#define XQ_REPETITION_INTERNAL   /* xq_mate_search (R17) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <cmocka.h>

#include "test_util.h"

#include "pgn_read.h"
#include "repetition.h"
#include "replay.h"

#ifndef XQ_SHARED
#define XQ_SHARED "../shared"
#endif

/* ---- helpers ----------------------------------------------------------- */

static xq_move iccs(const char *s)
{
    return XQ_MOVE((s[0] - 'a') + (s[1] - '0') * 9, (s[2] - 'a') + (s[3] - '0') * 9);
}

static void fen(xq_position *pos, const char *text)
{
    char err[160];
    assert_true(xq_fen_read(pos, text, err, sizeof err));
}

/* Classify move `m` (ICCS) in the position `f`. */
static xq_move_class classify(const char *f, const char *m, xq_rules rules)
{
    xq_position pos;
    fen(&pos, f);
    assert_int_equal(xq_move_legality(&pos, iccs(m)), XQ_LEGAL);
    xq_move_class mc;
    xq_classify_move(&pos, iccs(m), rules, &mc);
    return mc;
}

/* Play "h8h9 f9f8 ..." from f, into moves[]; returns the count. */
static int parse_moves(const char *f, const char *list, xq_position *start, xq_move *moves, int max)
{
    fen(start, f);
    xq_position pos = *start;
    int n = 0;
    for (const char *p = list; *p && n < max;) {
        while (*p == ' ') p++;
        if (!*p) break;
        xq_move m = iccs(p);
        assert_int_equal(xq_move_legality(&pos, m), XQ_LEGAL);
        xq_undo u;
        xq_make(&pos, m, &u);
        moves[n++] = m;
        p += 4;
    }
    return n;
}

static void replay_moves(const char *f, const char *moves, const char *result, xq_rules rules, bool strict,
                         xq_replay *r)
{
    static char text[65536];
    snprintf(text, sizeof text, "[FEN \"%s\"]\n[Format \"ICCS\"]\n%s%s%s\n%s %s\n", f,
             result ? "[Result \"" : "", result ? result : "", result ? "\"]" : "", moves, result ? result : "");
    xq_replay_options opt;
    xq_replay_options_default(&opt);
    opt.rules = rules;
    opt.strict = strict;
    replay_text(text, &opt, r);
}

static const xq_finding *finding(const xq_replay *r, xq_finding_kind k)
{
    for (int i = 0; i < r->nfindings; i++)
        if (r->findings[i].kind == k) return &r->findings[i];
    return NULL;
}

/* ---- positions from the case files ------------------------------------- */

static const char R01[] = "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w - - 0 1";
static const char R01_MOVES[] = "h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9";
static const char R07[] = "4kab2/4a4/4b4/3rC2R1/9/9/4n4/4B4/4A4/4KAB1c w - - 0 1";
static const char R07_MOVES[] = "h6i6 i0h0 i6h6 h0i0 h6i6 i0h0 i6h6 h0i0";
static const char R33[] = "4k4/2R1a2n1/9/9/9/9/9/9/9/3K5 w - - 0 1";
static const char R33_MOVES[] = "c8c9 e8d9 c9c8 d9e8 c8c9 e8d9 c9c8 d9e8";

/* ---- classification ---------------------------------------------------- */

static void classify_check_and_chase(void **state)
{
    (void)state;
    /* R01: the chariot checks (§28.1) */
    xq_move_class mc = classify(R01, "h8h9", XQ_RULES_CXA1999);
    assert_true(mc.check);
    assert_int_equal(mc.act, XQ_ACT_CHECK);
    assert_int_equal(mc.side, XQ_RED);

    /* R07: the chariot newly attacks the unprotected cannon on i0 (§28.3) */
    mc = classify(R07, "h6i6", XQ_RULES_CXA1999);
    assert_int_equal(mc.act, XQ_ACT_CHASE);
    assert_int_equal(mc.nvictims, 1);
    assert_int_equal(mc.victims[0], XQ_SQ(8, 0));
    assert_int_equal(mc.chasers[0], XQ_SQ(8, 6));

    /* D42 (R13): a horse attacking a protected chariot still chases it
     * (ch.7 item 3: a lesser piece against a greater one) */
    mc = classify("1rb1kabr1/4a1c2/1cn3n2/p1C1pR2p/9/9/P1P1P1P1P/2N1C1N2/9/R1BAKAB2 b - - 0 1", "g7h5",
                  XQ_RULES_CXA1999);
    assert_int_equal(mc.act, XQ_ACT_CHASE);
    bool rook = false;
    for (int i = 0; i < mc.nvictims; i++) rook |= mc.victims[i] == XQ_SQ(5, 6);
    assert_true(rook);

    /* D83: a false root (the protector may not recapture) is no root (§28.16) */
    mc = classify("2baka3/9/4b4/9/6c2/3R5/4c4/4C4/4N4/3AKA3 w - - 0 1", "d4g4", XQ_RULES_CXA1999);
    assert_int_equal(mc.act, XQ_ACT_CHASE);
    assert_int_equal(mc.victims[0], XQ_SQ(6, 5));

    /* R09: the soldier steps in front of the cannon on b0, which now takes
     * the chariot over it; the soldier's own attack is kept apart (§27.2) */
    mc = classify("2bakabr1/9/9/1rp1p1p2/P7R/9/9/9/9/CC1AKA3 w - - 1 2", "a5b5", XQ_RULES_CXA1999);
    assert_int_equal(mc.act, XQ_ACT_CHASE);
    assert_int_equal(mc.nvictims, 1);
    assert_int_equal(mc.victims[0], XQ_SQ(1, 6));
    assert_int_equal(mc.chasers[0], XQ_SQ(1, 0));
}

static void classify_mate_threat(void **state)
{
    (void)state;
    /* R23: h6g6 threatens g6g9 mate (§28.2); also attacks the elephant,
     * but the heaviest counts (§27.4) */
    xq_move_class mc = classify("3ak1b2/4a4/4b4/r3C2R1/p8/9/P8/4p4/4p4/5K3 w - - 0 1", "h6g6", XQ_RULES_CXA1999);
    assert_true(mc.mate_threat);
    assert_false(mc.check);
    assert_int_equal(mc.act, XQ_ACT_MATE_THREAT);
    assert_true(mc.nvictims >= 1);

    /* R17: the black cannon's move opens c9c0+ e2c0 h0g0 mate */
    mc = classify("1c1ak4/NP1Na4/9/9/5P3/9/9/4Bp3/9/3p1K1p1 b - - 0 1", "b9c9", XQ_RULES_CXA1999);
    assert_int_equal(mc.act, XQ_ACT_MATE_THREAT);
}

static void classify_idle_kinds(void **state)
{
    (void)state;
    /* D67: the general alone attacks a soldier: idle (§27.1) */
    xq_move_class mc = classify("4ka3/4a4/4b4/p7p/9/4C4/4P4/4B4/3K5/3Ac1B2 w - - 0 1", "d1e1", XQ_RULES_CXA1999);
    assert_int_equal(mc.act, XQ_ACT_IDLE);
    assert_int_equal(mc.idle, XQ_IDLE_GENERAL_CHASE);

    /* R10: a soldier alone attacks the chariot: idle (§27.2), kept apart */
    mc = classify("2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/1C1AKA3 w - - 0 1", "a4a5", XQ_RULES_CXA1999);
    assert_int_equal(mc.act, XQ_ACT_IDLE);
    assert_int_equal(mc.idle, XQ_IDLE_SOLDIER_CHASE);
    assert_int_equal(mc.nsoldier_victims, 1);

    /* D106: the chariot keeps attacking the cannon it attacked before:
     * from chase to chase is idle (ch.7 item 6) */
    mc = classify("3k2b2/4P4/4b4/9/8p/6Bc1/6P1P/3AB4/4pp3/1p1K3R1 w - - 0 1", "h0h1", XQ_RULES_CXA1999);
    assert_int_equal(mc.act, XQ_ACT_IDLE);
    assert_int_equal(mc.idle, XQ_IDLE_CHASE_KEPT);

    /* R11: a chariot against a protected cannon wins nothing: follow (§28.8) */
    mc = classify("2b1ka3/4a4/4b4/9/9/9/9/4B3R/4A1rc1/4KA3 w - - 0 1", "i2h2", XQ_RULES_CXA1999);
    assert_int_equal(mc.act, XQ_ACT_IDLE);
    assert_int_equal(mc.idle, XQ_IDLE_FOLLOW);

    /* D101: chariot against chariot, each may take the other: exchange offer (§28.5) */
    mc = classify("2bak4/4a4/4b4/9/2p2r3/r8/1R7/4B4/9/1R2K1B2 w - - 0 1", "b3b4", XQ_RULES_CXA1999);
    assert_int_equal(mc.act, XQ_ACT_IDLE);
    assert_int_equal(mc.idle, XQ_IDLE_EXCHANGE);

    /* D99: the cannon steps into the black cannon's line: block (§28.7) */
    mc = classify("4k4/3P2P1P/9/9/6b1c/5p1C1/9/9/4A4/3AK1p2 w - - 0 1", "h4i4", XQ_RULES_CXA1999);
    assert_int_equal(mc.act, XQ_ACT_IDLE);
    assert_int_equal(mc.idle, XQ_IDLE_BLOCK);
}

/* §29.2 ("the chase comes from the move just made and did not exist the
 * move before"), ch.7 item 6 (from chase to chase is idle): under CXA
 * 1999 a piece that some piece of the mover could already win before
 * the move is not newly chased by another one after it.  AXF keeps the
 * attacker: a second piece taking up the chase of the same piece chases
 * (two pieces may not chase one piece in turn, AXF rule 15, diagram 21). */
static void classify_chase_to_chase(void **state)
{
    (void)state;
    /* the red elephant on e2 already wins the unprotected cannon on g0;
     * the chariot joins in */
    const char *joined = "3k5/9/9/9/9/9/9/4B2R1/9/4K1c2 w - - 0 1";
    xq_move_class mc = classify(joined, "h2h0", XQ_RULES_CXA1999);
    assert_int_equal(mc.act, XQ_ACT_IDLE);
    assert_int_equal(mc.idle, XQ_IDLE_CHASE_KEPT);
    assert_int_equal(mc.nvictims, 0);
    mc = classify(joined, "h2h0", XQ_RULES_AXF);
    assert_int_equal(mc.act, XQ_ACT_CHASE);
    assert_int_equal(mc.nvictims, 1);
    assert_int_equal(mc.victims[0], XQ_SQ(6, 0));
    assert_int_equal(mc.chasers[0], XQ_SQ(7, 0));
    /* without the elephant the chariot's attack is new under both */
    for (int r = 0; r < 2; r++) {
        mc = classify("3k5/9/9/9/9/9/9/7R1/9/4K1c2 w - - 0 1", "h2h0", (xq_rules)r);
        assert_int_equal(mc.act, XQ_ACT_CHASE);
        assert_int_equal(mc.victims[0], XQ_SQ(6, 0));
    }

    /* FSF-L1203 (axf-diagrams.tsv): the cannon on d4 wins the red horse on
     * d2 by the exchange (cannon for horse, then the advisor: §29.1, ch.7
     * item 3); d4e4 pins the advisor, and the chariot takes over the chase
     * of the same horse: CXA 1999 from chase to chase, AXF a chase (the
     * advisor protected the horse before: no chase then under AXF) */
    const char *pin = "5k3/9/9/9/9/3c5/3r5/3NB4/4A4/4K4 b - - 0 1";
    mc = classify(pin, "d4e4", XQ_RULES_CXA1999);
    assert_int_equal(mc.act, XQ_ACT_IDLE);
    assert_int_equal(mc.idle, XQ_IDLE_CHASE_KEPT);
    mc = classify(pin, "d4e4", XQ_RULES_AXF);
    assert_int_equal(mc.act, XQ_ACT_CHASE);
    assert_int_equal(mc.victims[0], XQ_SQ(3, 2));
    assert_int_equal(mc.chasers[0], XQ_SQ(3, 3));

    /* OX-L550: the cannon on a8 was attacked before d8d6 (by the chariot
     * on d8) but protected (the cannon on i8 takes back over f8): d8d6
     * takes the screen away, from no chase to chase (ch.7 item 2), under
     * both rule sets; so is the cannon on i8 */
    for (int r = 0; r < 2; r++) {
        mc = classify("3akab2/c2R1R2c/4b4/9/9/9/9/4B4/4K4/2B6 w - - 0 1", "d8d6", (xq_rules)r);
        assert_int_equal(mc.act, XQ_ACT_CHASE);
        assert_int_equal(mc.nvictims, 2);
        assert_int_equal(mc.victims[0], XQ_SQ(0, 8));
        assert_int_equal(mc.victims[1], XQ_SQ(8, 8));
    }
}

static void classify_rule_sets(void **state)
{
    (void)state;
    /* D86: the cannon on i6 is attacked twice and protected once.  CXA 1999
     * counts an insufficient root as none (§28.16, §29.1: the exchange wins
     * a cannon); AXF calls a piece that can be taken back protected */
    const char *d86 = "3akab2/9/4b3r/8c/p8/7R1/P8/9/4A4/r1BAK3R w - - 0 1";
    assert_int_equal(classify(d86, "h4h6", XQ_RULES_CXA1999).act, XQ_ACT_CHASE);
    assert_int_equal(classify(d86, "h4h6", XQ_RULES_AXF).act, XQ_ACT_IDLE);

    /* D39: a chariot held by a horse attacks it: a chase under CXA 1999
     * (no exception in the text), not under AXF rule 19 */
    const char *d39 = "2baka3/CR3rN2/4b1n2/2p5p/6p2/2P6/4c1P1c/4B3C/4A4/4KAB2 b - - 0 1";
    xq_move_class cxa = classify(d39, "f9e8", XQ_RULES_CXA1999);
    assert_int_equal(cxa.act, XQ_ACT_CHASE);
    assert_int_equal(cxa.npinner_victims, 1);
    assert_int_equal(cxa.pinner_victims[0], XQ_SQ(6, 8));
}

/* ---- the judge --------------------------------------------------------- */

static void judge_basics(void **state)
{
    (void)state;
    xq_position start;
    xq_move moves[64];
    int n = parse_moves(R01, R01_MOVES, &start, moves, 64);
    assert_int_equal(n, 8);

    xq_rep_verdict v;
    assert_false(xq_repetition_judge(&start, 0, moves, 0, 3, XQ_RULES_CXA1999, &v));
    assert_false(xq_repetition_judge(&start, 0, moves, 7, 3, XQ_RULES_CXA1999, &v));   /* not back yet */
    assert_false(xq_repetition_judge(&start, 0, moves, n, 4, XQ_RULES_CXA1999, &v));   /* only 3 times */

    assert_true(xq_repetition_judge(&start, 10, moves, n, 3, XQ_RULES_CXA1999, &v));
    assert_int_equal(v.occurrences, 3);
    assert_int_equal(v.first_ply, 10);
    assert_int_equal(v.last_ply, 18);
    assert_int_equal(v.loser, XQ_RED);
    assert_int_equal(v.result, XQ_RESULT_BLACK);
    assert_int_equal(v.side[XQ_RED].pattern, XQ_PAT_PERPETUAL_CHECK);
    assert_int_equal(v.side[XQ_RED].checks, 4);
    assert_true(v.side[XQ_RED].forbidden);
    assert_string_equal(v.kind, "perpetual check");
    assert_string_equal(v.clause, "CXA1999 §26.1, §24.1");
    assert_non_null(strstr(v.reason, "red gives perpetual check"));
    assert_non_null(strstr(v.reason, "plies 11-18"));
    assert_int_equal(v.nplies, 8);
    assert_int_equal(v.plies[0].ply, 11);
    assert_int_equal(v.plies[0].move, iccs("h8h9"));
    assert_int_equal(v.plies[0].act, XQ_ACT_CHECK);

    /* 2 occurrences are enough when asked: the last cycle only */
    assert_true(xq_repetition_judge(&start, 0, moves, n, 2, XQ_RULES_CXA1999, &v));
    assert_int_equal(v.first_ply, 4);
    assert_int_equal(v.nplies, 4);

    /* R07: perpetual chase of the cannon, named with its square */
    n = parse_moves(R07, R07_MOVES, &start, moves, 64);
    assert_true(xq_repetition_judge(&start, 0, moves, n, 3, XQ_RULES_CXA1999, &v));
    assert_int_equal(v.result, XQ_RESULT_BLACK);
    assert_string_equal(v.kind, "perpetual chase of the black cannon on i0");
    assert_int_equal(v.side[XQ_RED].victim_sq, XQ_SQ(8, 0));
    assert_int_equal(XQ_KIND(v.side[XQ_RED].victim), XQ_CANNON);
    assert_false(v.side[XQ_BLACK].forbidden);
    assert_string_equal(v.clause, "CXA1999 §26.4, §24.3");

    /* R33: one check one chase: forbidden under CXA 1999, allowed under AXF */
    n = parse_moves(R33, R33_MOVES, &start, moves, 64);
    assert_true(xq_repetition_judge(&start, 0, moves, n, 3, XQ_RULES_CXA1999, &v));
    assert_int_equal(v.result, XQ_RESULT_BLACK);
    assert_int_equal(v.side[XQ_RED].pattern, XQ_PAT_CHECK_CHASE);
    assert_true(xq_repetition_judge(&start, 0, moves, n, 3, XQ_RULES_AXF, &v));
    assert_int_equal(v.result, XQ_RESULT_DRAW);
    assert_int_equal(v.rules, XQ_RULES_AXF);
    assert_false(v.side[XQ_RED].forbidden);
}

/* Judge the cycle of `moves` from f (a third occurrence at its end). */
static void judge_moves(const char *f, const char *moves, xq_rules rules, xq_rep_verdict *v)
{
    xq_position start;
    xq_move list[64];
    int n = parse_moves(f, moves, &start, list, 64);
    assert_true(xq_repetition_judge(&start, 0, list, n, 3, rules, v));
    assert_int_equal(v->last_ply, n);
}

/* Cases whose verdict under the rule text differs from a case file or
 * from a tester's reading: each verdict with the clause that makes it. */
static void judge_case_rulings(void **state)
{
    (void)state;
    xq_rep_verdict v;

    /* R09: black's chariot chases the red cannons on b0 and a0 in turn.
     * CXA1999 §28.12: 長捉 is chasing "一子或數子" (one piece or several),
     * so black is forbidden as red is: draw (§26.3; the case file's "red
     * loses" is the AXF verdict, rule 32) */
    const char *r09 = "2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/CC1AKA3 w - - 0 1";
    const char *r09_moves = "a4a5 a6b6 a5b5 b6a6 b5a5 a6b6 a5b5 b6a6 b5a5";
    judge_moves(r09, r09_moves, XQ_RULES_CXA1999, &v);
    assert_int_equal(v.result, XQ_RESULT_DRAW);
    assert_int_equal(v.side[XQ_BLACK].pattern, XQ_PAT_PERPETUAL_CHASE);
    assert_int_equal(v.side[XQ_BLACK].victim_sq, -1);   /* several pieces */
    assert_true(v.side[XQ_BLACK].forbidden && v.side[XQ_RED].forbidden);
    judge_moves(r09, r09_moves, XQ_RULES_AXF, &v);
    assert_int_equal(v.result, XQ_RESULT_BLACK);

    /* R17: each black cannon move makes the mate threat c9c0+ (or b9b0+)
     * e2c0 h0g0# (§28.2): the red soldier has just closed the cannon's
     * file, and before the move black has no mate by checks, after it
     * black would have one: the threat is the move's own, so 長殺
     * (§28.11), forbidden (§25.2); red chases the cannon every move:
     * both forbidden, draw (§26.3).  (The case file's "red loses", medium
     * confidence, treats the mate threats as idle, as AXF rule 9 does.) */
    int left;
    xq_position p;
    fen(&p, "1c1ak4/NP1Na4/9/9/5P3/9/9/4Bp3/9/3p1K1p1 b - - 0 1");   /* before b9c9 */
    assert_false(xq_mate_search(&p, 7, 1000000, false, NULL, &left));
    assert_true(left >= 0);   /* searched to the end */
    fen(&p, "2cak4/NP1Na4/9/9/5P3/9/9/4Bp3/9/3p1K1p1 b - - 0 1");    /* after it, red passing */
    assert_true(xq_mate_search(&p, 7, 1000000, true, NULL, &left));
    const char *r17 = "1c1ak4/N1PNa4/9/9/5P3/9/9/4Bp3/9/3p1K1p1 w - - 0 1";
    const char *r17_moves = "c8b8 b9c9 b8c8 c9b9 c8b8 b9c9 b8c8 c9b9";
    judge_moves(r17, r17_moves, XQ_RULES_CXA1999, &v);
    assert_int_equal(v.side[XQ_BLACK].pattern, XQ_PAT_PERPETUAL_MATE_THREAT);
    assert_int_equal(v.side[XQ_RED].pattern, XQ_PAT_PERPETUAL_CHASE);
    assert_int_equal(v.result, XQ_RESULT_DRAW);
    assert_string_equal(v.clause, "CXA1999 §26.3, §24.2");
    judge_moves(r17, r17_moves, XQ_RULES_AXF, &v);
    assert_int_equal(v.result, XQ_RESULT_BLACK);

    /* FSF-L1203: black's d4e4 goes from chase to chase (classify_chase_to_chase):
     * two chases and two idle moves, allowed (數捉一閑, §25.2), red idle:
     * draw under CXA 1999 (§26.2); under AXF every black move chases the
     * horse: red wins, as the row says */
    const char *l1203 = "5k3/9/9/9/9/4c4/3r5/3NB4/4A4/4K4 w - - 0 1";
    const char *l1203_moves = "e0d0 e4d4 d0e0 d4e4 e0d0 e4d4 d0e0 d4e4";
    judge_moves(l1203, l1203_moves, XQ_RULES_CXA1999, &v);
    assert_int_equal(v.side[XQ_BLACK].pattern, XQ_PAT_ATTACKS_WITH_IDLE);
    assert_int_equal(v.side[XQ_BLACK].chases, 2);
    assert_int_equal(v.result, XQ_RESULT_DRAW);
    judge_moves(l1203, l1203_moves, XQ_RULES_AXF, &v);
    assert_int_equal(v.result, XQ_RESULT_RED);
    assert_int_equal(v.side[XQ_BLACK].victim_sq, XQ_SQ(3, 2));

    /* OX-L550: every move of both sides chases (the red ones newly, see
     * classify_chase_to_chase).  CXA 1999: both forbidden, draw (§26.3), as
     * the row says.  AXF: red chases the same two cannons every move,
     * black's two cannons chase the two chariots in turn, neither one
     * every move: red alone is forbidden and loses (the row's draw is
     * disputed: see KNOWN) */
    const char *l550 = "3akab2/c2R1R2c/4b4/9/9/9/9/4B4/4K4/2B6 w - - 0 1";
    const char *l550_moves = "d8d6 d9e8 d6d8 e8d9 f8f6 f9e8 f6f8 e8f9 d8d6 d9e8 d6d8 e8d9 f8f6 f9e8 f6f8 e8f9";
    judge_moves(l550, l550_moves, XQ_RULES_CXA1999, &v);
    assert_int_equal(v.result, XQ_RESULT_DRAW);
    assert_true(v.side[XQ_RED].forbidden && v.side[XQ_BLACK].forbidden);
    judge_moves(l550, l550_moves, XQ_RULES_AXF, &v);
    assert_int_equal(v.result, XQ_RESULT_BLACK);
    assert_false(v.side[XQ_BLACK].forbidden);
}

static void rules_names(void **state)
{
    (void)state;
    xq_rules r = XQ_RULES_AXF;
    assert_true(xq_rules_parse("cxa1999", &r));
    assert_int_equal(r, XQ_RULES_CXA1999);
    assert_true(xq_rules_parse("AXF", &r));
    assert_int_equal(r, XQ_RULES_AXF);
    assert_false(xq_rules_parse("wxf2018", &r));
    assert_int_equal(r, XQ_RULES_AXF);
    assert_string_equal(xq_rules_str(XQ_RULES_CXA1999), "cxa1999");
    assert_string_equal(xq_rules_str(XQ_RULES_AXF), "axf");
    assert_string_equal(xq_rep_pattern_str(XQ_PAT_CHECK_CHASE), "one check one chase");
    assert_string_equal(xq_act_str(XQ_ACT_MATE_THREAT), "mate threat");
    assert_string_equal(xq_idle_str(XQ_IDLE_EXCHANGE), "exchange offer");
}

/* ---- the replay -------------------------------------------------------- */

static void replay_verdicts(void **state)
{
    (void)state;
    xq_replay r;
    /* the record ends on the verdict and agrees: nothing to say */
    replay_moves(R01, R01_MOVES, "0-1", XQ_RULES_CXA1999, false, &r);
    assert_int_equal(r.status, XQ_STATUS_VALID);
    assert_int_equal(r.termination, XQ_TERM_REPETITION);
    assert_true(r.repeated);
    assert_int_equal(r.result_board, XQ_RESULT_BLACK);
    assert_int_equal(r.nfindings, 0);

    /* a draw recorded: the verdict is named; a warning (§24: on a claim),
     * an error with --strict */
    replay_moves(R01, R01_MOVES, "1/2-1/2", XQ_RULES_CXA1999, false, &r);
    const xq_finding *f = finding(&r, XQ_FIND_RESULT_MISMATCH);
    assert_non_null(f);
    assert_int_equal(f->severity, XQ_SEV_WARNING);
    assert_non_null(strstr(f->message, "repetition: perpetual check, CXA1999 §26.1"));
    assert_int_equal(r.error_count, 0);
    replay_moves(R01, R01_MOVES, "1/2-1/2", XQ_RULES_CXA1999, true, &r);
    assert_int_equal(finding(&r, XQ_FIND_RESULT_MISMATCH)->severity, XQ_SEV_ERROR);

    /* no result: the board gives one */
    replay_moves(R01, R01_MOVES, NULL, XQ_RULES_CXA1999, false, &r);
    assert_int_equal(finding(&r, XQ_FIND_RESULT_MISSING)->severity, XQ_SEV_WARNING);

    /* the rule set decides R33 */
    replay_moves(R33, R33_MOVES, "0-1", XQ_RULES_CXA1999, false, &r);
    assert_int_equal(r.result_board, XQ_RESULT_BLACK);
    assert_int_equal(r.nfindings, 0);
    replay_moves(R33, R33_MOVES, "0-1", XQ_RULES_AXF, false, &r);
    assert_int_equal(r.result_board, XQ_RESULT_DRAW);
    assert_non_null(finding(&r, XQ_FIND_RESULT_MISMATCH));

    /* one occurrence short: no verdict */
    static char part[64];
    snprintf(part, sizeof part, "%.*s", (int)strlen(R01_MOVES) - 5, R01_MOVES);
    replay_moves(R01, part, "*", XQ_RULES_CXA1999, false, &r);
    assert_false(r.repeated);
    assert_int_equal(r.termination, XQ_TERM_NONE);

    /* --repetitions 4 */
    xq_replay_options opt;
    xq_replay_options_default(&opt);
    assert_int_equal(opt.rules, XQ_RULES_CXA1999);
    opt.repetitions = 4;
    static char text[1024];
    snprintf(text, sizeof text, "[FEN \"%s\"]\n[Format \"ICCS\"]\n%s\n", R01, R01_MOVES);
    replay_text(text, &opt, &r);
    assert_false(r.repeated);
    snprintf(text, sizeof text, "[FEN \"%s\"]\n[Format \"ICCS\"]\n%s h8h9 f9f8 h9h8 f8f9\n", R01, R01_MOVES);
    replay_text(text, &opt, &r);
    assert_true(r.repeated);
    assert_int_equal(r.repetition.occurrences, 4);
    assert_int_equal(r.repetition.last_ply, 12);
}

static void replay_after_verdict(void **state)
{
    (void)state;
    xq_replay r;
    /* R07 then a different move: a warning, and the verdict stands */
    replay_moves(R07, "h6i6 i0h0 i6h6 h0i0 h6i6 i0h0 i6h6 h0i0 h6h7", "1/2-1/2", XQ_RULES_CXA1999, false, &r);
    assert_int_equal(r.status, XQ_STATUS_VALID);
    const xq_finding *f = finding(&r, XQ_FIND_AFTER_END);
    assert_non_null(f);
    assert_int_equal(f->ply, 9);
    assert_int_equal(f->severity, XQ_SEV_WARNING);
    assert_non_null(strstr(f->message, "repetition at ply 8"));
    assert_int_equal(r.termination, XQ_TERM_REPETITION);
    assert_int_equal(r.result_board, XQ_RESULT_BLACK);
    assert_int_equal(r.repetition.last_ply, 8);

    /* R01's perpetual check, then idle moves (the red general, the black
     * cannon) repeat until the record ends on that second repetition: it
     * is how the game ended */
    replay_moves(R01, "h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9 e1e0 a9a8 e0e1 a8a9 e1e0 a9a8 e0e1 a8a9",
                 "1/2-1/2", XQ_RULES_CXA1999, false, &r);
    assert_non_null(finding(&r, XQ_FIND_AFTER_END));
    assert_null(finding(&r, XQ_FIND_RESULT_MISMATCH));
    assert_int_equal(r.result_board, XQ_RESULT_DRAW);
    assert_int_equal(r.repetition.first_ply, 8);
    assert_int_equal(r.repetition.last_ply, 16);
    assert_string_equal(r.repetition.kind, "both sides allowed");

    /* a capture starts a new stretch: the repetition is judged from there */
    replay_moves("4k4/2R1a2n1/9/9/9/9/9/9/p8/3K5 w - - 0 1",
                 "c8a8 e8d9 a8a1 d9e8 a1c1 e8d9 c1c8 d9e8 c8c9 e8d9 c9c8 d9e8 c8c9 e8d9 c9c8 d9e8", NULL,
                 XQ_RULES_CXA1999, false, &r);
    assert_int_equal(r.status, XQ_STATUS_VALID);
    assert_true(r.repeated);
    assert_true(r.repetition.first_ply >= 6);
}

/* ---- the case files ---------------------------------------------------- */

/* Our verdict where it differs from a case file, and why (the clause). */
typedef struct {
    const char *id;
    xq_rules rules;
    xq_result ours;    /* XQ_RESULT_NONE: no verdict (no repetition in the moves) */
    const char *why;
} known_case;

static const known_case KNOWN[] = {
    {"R09", XQ_RULES_CXA1999, XQ_RESULT_DRAW,
     "black's chariot attacks the unprotected red cannons on b0 and a0 in turn: 長捉 covers chasing "
     "'one piece or several' (CXA1999 §28.12), so both sides are forbidden: draw (§26.3, ch.7 item 8); "
     "the expected 'red loses' matches AXF rule 32 (we give it under --rules axf)"},
    {"R17", XQ_RULES_CXA1999, XQ_RESULT_DRAW,
     "every black cannon move threatens mate by checks (after b9c9: c9c0+ e2c0 h0g0#), a threat the "
     "move makes (the red soldier had closed the cannon's file: no mate by checks before it), so a "
     "perpetual mate threat (長殺), forbidden (CXA1999 §25.2, §28.2, §28.11); with red's perpetual "
     "chase both sides are forbidden: draw (§26.3); the case's medium-confidence 'red loses' counts "
     "mate threats as idle, as AXF rule 9 does (we give it under --rules axf); see judge_case_rulings"},
    {"OX-L550", XQ_RULES_AXF, XQ_RESULT_BLACK,
     "each red move newly chases both black cannons: before it the cannon was attacked but protected "
     "(the other cannon takes back over the chariot that moves: from no chase to chase, CXA1999 ch.7 "
     "item 2, not from chase to chase, item 6), while black's two cannons chase the two red chariots "
     "in turn, neither every move (allowed, AXF rule 32), so only red chases the same pieces "
     "perpetually and loses; the source calls it a mutual chase (draw), which needs black's alternate "
     "chases to count as perpetual (CXA 1999 does count them, §28.12: a draw there)"},
    {"OX-L650", XQ_RULES_AXF, XQ_RESULT_BLACK, "the same position and cycle as OX-L550"},
    {"OX-L574", XQ_RULES_AXF, XQ_RESULT_NONE,
     "the row has no cycle to replay (moves_3fold is empty: the source's sequence does not reach a "
     "repetition), so there is nothing to judge"},
};

static const known_case *known(const char *id, xq_rules rules)
{
    for (size_t i = 0; i < sizeof KNOWN / sizeof KNOWN[0]; i++)
        if (!strcmp(KNOWN[i].id, id) && KNOWN[i].rules == rules) return &KNOWN[i];
    return NULL;
}

/* "red loses", "black wins (red loses)", "draw [high]" -> a result;
 * XQ_RESULT_NONE when the text gives no verdict ("undetermined", ...). */
static xq_result expected(const char *text)
{
    char low[256];
    size_t n = 0;
    for (; text[n] && n < sizeof low - 1; n++) low[n] = (char)(text[n] >= 'A' && text[n] <= 'Z' ? text[n] + 32 : text[n]);
    low[n] = 0;
    if (!strncmp(low, "undetermined", 12)) return XQ_RESULT_NONE;
    if (strstr(low, "red loses") || !strncmp(low, "black wins", 10)) return XQ_RESULT_BLACK;
    if (strstr(low, "black loses") || !strncmp(low, "red wins", 8)) return XQ_RESULT_RED;
    if (!strncmp(low, "draw", 4)) return XQ_RESULT_DRAW;
    return XQ_RESULT_NONE;
}

typedef struct {
    int pass, fail, skipped;
} case_tally;

/* Replay one case and compare; known differences must give our documented verdict. */
static void check_case(const char *id, const char *f, const char *moves, xq_rules rules, const char *exp_text,
                       case_tally *t)
{
    xq_result want = expected(exp_text);
    if (want == XQ_RESULT_NONE) {
        t->skipped++;
        return;
    }
    xq_result got = XQ_RESULT_NONE;
    if (*moves) {
        xq_replay r;
        replay_moves(f, moves, NULL, rules, false, &r);
        if (r.status != XQ_STATUS_VALID) fail_msg("%s: the moves do not replay: %s", id, r.reason);
        got = r.repeated ? r.repetition.result : XQ_RESULT_NONE;
    }
    const known_case *k = known(id, rules);
    if (got == want) {
        if (k) fail_msg("%s (%s) now agrees with the case file: remove it from KNOWN", id, xq_rules_str(rules));
        t->pass++;
        return;
    }
    if (!k) fail_msg("%s (%s): expected %s, got %s", id, xq_rules_str(rules), xq_result_str(want), xq_result_str(got));
    if (got != k->ours)
        fail_msg("%s (%s): documented %s, got %s", id, xq_rules_str(rules), xq_result_str(k->ours), xq_result_str(got));
    print_message("# %s (%s): expected %s, ours %s: %s\n", id, xq_rules_str(rules), xq_result_str(want),
                  k->ours == XQ_RESULT_NONE ? "no verdict" : xq_result_str(k->ours), k->why);
    t->fail++;
}

/* Every R case of cxa1999-cases.txt, under both rule sets. */
static void cxa_cases(void **state)
{
    (void)state;
    FILE *fp = fopen(XQ_SHARED "/cases/cxa1999-cases.txt", "r");
    if (!fp) skip();
    static char line[16384], f[256], moves[8192], id[32], exp_cxa[256], exp_axf[256];
    case_tally cxa = {0, 0, 0}, axf = {0, 0, 0};
    bool more = true;
    f[0] = moves[0] = id[0] = exp_cxa[0] = exp_axf[0] = 0;
    while (more) {
        more = fgets(line, sizeof line, fp) != NULL;
        if (!more || line[0] == '\n') {   /* end of a block */
            if (id[0] == 'R') {
                check_case(id, f, moves, XQ_RULES_CXA1999, exp_cxa, &cxa);
                check_case(id, f, moves, XQ_RULES_AXF, exp_axf[0] ? exp_axf : exp_cxa, &axf);
            }
            f[0] = moves[0] = id[0] = exp_cxa[0] = exp_axf[0] = 0;
            continue;
        }
        line[strcspn(line, "\n")] = 0;
        if (!strncmp(line, "id: ", 4)) snprintf(id, sizeof id, "%.30s", line + 4);
        else if (!strncmp(line, "fen: ", 5)) snprintf(f, sizeof f, "%.250s", line + 5);
        else if (!strncmp(line, "moves: ", 7)) snprintf(moves, sizeof moves, "%.8000s", line + 7);
        else if (!strncmp(line, "expected_cxa1999: ", 18)) snprintf(exp_cxa, sizeof exp_cxa, "%.250s", line + 18);
        else if (!strncmp(line, "expected_axf: ", 14)) snprintf(exp_axf, sizeof exp_axf, "%.250s", line + 14);
    }
    fclose(fp);
    print_message("# cxa1999-cases.txt, CXA 1999 rules: %d pass, %d differ, %d without a verdict\n", cxa.pass,
                  cxa.fail, cxa.skipped);
    print_message("# cxa1999-cases.txt, AXF rules: %d pass, %d differ, %d without a verdict\n", axf.pass, axf.fail,
                  axf.skipped);
    assert_true(cxa.pass >= 22);
    assert_true(axf.pass >= 25);
}

/* Every row of axf-diagrams.tsv, under AXF. */
static void axf_diagrams(void **state)
{
    (void)state;
    FILE *fp = fopen(XQ_SHARED "/cases/axf-diagrams.tsv", "r");
    if (!fp) skip();
    static char line[65536];
    case_tally t = {0, 0, 0};
    int rows = 0;
    assert_non_null(fgets(line, sizeof line, fp));   /* the header */
    static const char header[] = "id\tsource\truleset\tdiagram\tkind\tfen\tmoves\tmoves_3fold\tverdict\t";
    assert_true(!strncmp(line, header, sizeof header - 1));
    while (fgets(line, sizeof line, fp)) {
        line[strcspn(line, "\r\n")] = 0;
        char *col[14] = {0};
        int n = 0;
        for (char *p = line; n < 14;) {
            col[n++] = p;
            char *tab = strchr(p, '\t');
            if (!tab) break;
            *tab = 0;
            p = tab + 1;
        }
        if (n < 9) continue;
        rows++;
        static char f[256];
        snprintf(f, sizeof f, "%s - - 0 1", col[5]);
        check_case(col[0], f, col[7], XQ_RULES_AXF, col[8], &t);
    }
    fclose(fp);
    print_message("# axf-diagrams.tsv, AXF rules: %d rows: %d pass, %d differ, %d without a verdict\n", rows, t.pass,
                  t.fail, t.skipped);
    assert_int_equal(rows, 178);
    assert_true(t.pass >= 172);
}

/* Why our CXA 1999 and AXF verdicts on one cycle differ: the rule
 * difference that makes one side forbidden under one set and not under
 * the other (NULL: none we know of). */
static const char *rule_difference(const xq_rep_verdict *cxa, const xq_rep_verdict *axf)
{
    for (int c = 0; c < 2; c++) {
        const xq_rep_side *sc = &cxa->side[c], *sa = &axf->side[c];
        if (sc->forbidden == sa->forbidden) continue;
        xq_rep_pattern p = sc->pattern;
        if (sc->forbidden && p == XQ_PAT_PERPETUAL_MATE_THREAT) return "perpetual mate threat (CXA §25.2; AXF rule 9)";
        if (sc->forbidden && (p == XQ_PAT_CHECK_CHASE || p == XQ_PAT_CHECK_MATE_THREAT ||
                              p == XQ_PAT_MATE_THREAT_CHASE || p == XQ_PAT_CHECK_MATE_THREAT_CHASE))
            return "checks or mate threats mixed with chases (CXA §25.2; AXF rules 9, 12)";
        if (sc->forbidden && p == XQ_PAT_PERPETUAL_CHASE && sc->victim_sq < 0)
            return "several pieces chased in turn (CXA §28.12; AXF rule 32)";
        if (sc->forbidden && p == XQ_PAT_PERPETUAL_CHASE)
            return "a chase under CXA that AXF does not count (an insufficient root is none, CXA §28.16, §29.1; "
                   "AXF: any taking back protects, rules 17, 19)";
        if (!sc->forbidden && sa->pattern == XQ_PAT_PERPETUAL_CHASE && sc->chases > 0)
            return "a chase new per piece chased (CXA §29.2, ch.7 item 6; AXF rule 15: per chaser)";
        return NULL;
    }
    /* the same sides forbidden: AXF rule 15 (a chariot chased) decides */
    return axf->clause[0] && strstr(axf->clause, "rule 15") ? "a chariot chased in a mutual chase (AXF rule 15)" : NULL;
}

/* Every row of axf-diagrams.tsv under both rule sets: where our verdicts
 * differ, a known difference between the rule sets must make it. */
static void axf_diagrams_both_rule_sets(void **state)
{
    (void)state;
    FILE *fp = fopen(XQ_SHARED "/cases/axf-diagrams.tsv", "r");
    if (!fp) skip();
    static char line[65536];
    assert_non_null(fgets(line, sizeof line, fp));   /* the header */
    int judged = 0, differ = 0;
    while (fgets(line, sizeof line, fp)) {
        line[strcspn(line, "\r\n")] = 0;
        char *col[9] = {0};
        int n = 0;
        for (char *p = line; n < 9;) {
            col[n++] = p;
            char *tab = strchr(p, '\t');
            if (!tab) break;
            *tab = 0;
            p = tab + 1;
        }
        if (n < 9 || !*col[7]) continue;
        static char f[256];
        snprintf(f, sizeof f, "%s - - 0 1", col[5]);
        xq_replay r[2];
        for (int k = 0; k < 2; k++) replay_moves(f, col[7], NULL, (xq_rules)k, false, &r[k]);
        if (!r[0].repeated || !r[1].repeated) continue;
        judged++;
        if (r[0].repetition.result == r[1].repetition.result) continue;
        differ++;
        const char *why = rule_difference(&r[XQ_RULES_CXA1999].repetition, &r[XQ_RULES_AXF].repetition);
        if (!why)
            fail_msg("%s: cxa1999 %s (%s), axf %s (%s): no known rule difference", col[0],
                     xq_result_str(r[0].repetition.result), r[0].repetition.kind,
                     xq_result_str(r[1].repetition.result), r[1].repetition.kind);
        print_message("# %s: cxa1999 %s, axf %s: %s\n", col[0], xq_result_str(r[XQ_RULES_CXA1999].repetition.result),
                      xq_result_str(r[XQ_RULES_AXF].repetition.result), why);
    }
    fclose(fp);
    print_message("# axf-diagrams.tsv: %d cycles judged, %d with another verdict under CXA 1999\n", judged, differ);
    assert_true(judged >= 170);
    assert_true(differ > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(classify_check_and_chase),
        cmocka_unit_test(classify_mate_threat),
        cmocka_unit_test(classify_idle_kinds),
        cmocka_unit_test(classify_rule_sets),
        cmocka_unit_test(classify_chase_to_chase),
        cmocka_unit_test(judge_basics),
        cmocka_unit_test(judge_case_rulings),
        cmocka_unit_test(rules_names),
        cmocka_unit_test(replay_verdicts),
        cmocka_unit_test(replay_after_verdict),
        cmocka_unit_test(cxa_cases),
        cmocka_unit_test(axf_diagrams),
        cmocka_unit_test(axf_diagrams_both_rule_sets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
