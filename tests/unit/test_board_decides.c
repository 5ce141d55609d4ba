/* test_board_decides.c - xq_replay_board_decides, what xq-validate
 * --fix-results may write into a Result tag: checkmate, stalemate and a
 * dead position decide (CXA1999 §4.1.1, §4.1.3, §4.2.1); a repetition
 * verdict (§23.2, §24), also one followed by more play, and the natural
 * move limit (§23.3) are claims and do not; neither does an illegal
 * record or one the board does not end. */
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

#include "replay.h"

/* Replay text and assert its termination and whether the board decides. */
static void decides(const char *text, xq_termination term, bool expect)
{
    xq_replay r;
    replay_text(text, NULL, &r);
    if (r.termination != term || xq_replay_board_decides(&r) != expect)
        fail_msg("%s: termination %s, decides %d (expected %s, %d)", text, xq_termination_str(r.termination),
                 xq_replay_board_decides(&r), xq_termination_str(term), expect);
}

static void board_endings_decide(void **state)
{
    (void)state;
    decides("[FEN \"4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1\"]\n[Result \"0-1\"]\n1. i0i9\n", XQ_TERM_CHECKMATE, true);
    decides("[FEN \"3k5/9/9/9/9/9/9/9/9/4K3R w - - 0 1\"]\n1. i0i8\n", XQ_TERM_STALEMATE, true);
    decides("[FEN \"3ak4/4a4/4b4/9/9/9/9/4B4/4r4/3AK4 w - - 0 1\"]\n[Result \"1-0\"]\n1. e0e1\n",
            XQ_TERM_DEAD_POSITION, true);
}

static void claims_do_not_decide(void **state)
{
    (void)state;
    /* the tester's represign.pgn: a perpetual check (red loses by the
     * verdict) over by ply 8, then play goes on and black resigns */
    static const char represign[] =
        "[FEN \"3k5/9/9/9/9/9/9/9/9/R4K2R w - - 0 1\"]\n[Result \"1-0\"]\n\n"
        "1. a0a9 d9d8 2. a9a0 d8d9 3. a0a9 d9d8 4. a9a0 d8d9 5. i0i8 d9e9 1-0\n";
    xq_replay r;
    replay_text(represign, NULL, &r);
    assert_int_equal(r.status, XQ_STATUS_VALID);
    assert_true(r.repeated);
    assert_int_equal(r.termination, XQ_TERM_REPETITION);
    assert_int_not_equal(r.result_board, XQ_RESULT_RED);   /* the verdict differs from the tag */
    assert_false(xq_replay_board_decides(&r));
    /* the same repetition as the record's end */
    decides("[FEN \"3k5/9/9/9/9/9/9/9/9/R4K2R w - - 0 1\"]\n"
            "1. a0a9 d9d8 2. a9a0 d8d9 3. a0a9 d9d8 4. a9a0 d8d9\n", XQ_TERM_REPETITION, false);
    /* an unfinished record, an illegal move (the record is broken: not fixed) */
    decides("1. 炮二平五 馬8進7 *\n", XQ_TERM_NONE, false);
    decides("[FEN \"4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1\"]\n1. a8b7\n", XQ_TERM_ILLEGAL_MOVE, false);
}

/* N01 of cxa1999-cases.txt: 120 plies without a capture, a draw only when
 * claimed (§23.3). */
static void move_limit_does_not_decide(void **state)
{
    (void)state;
    FILE *f = fopen(XQ_SHARED "/cases/cxa1999-cases.txt", "r");
    if (!f) skip();
    static char line[8192], text[16384];
    char fen[256] = "", id[16] = "";
    bool done = false;
    while (!done && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (!strncmp(line, "id: ", 4)) snprintf(id, sizeof id, "%.15s", line + 4);
        else if (!strncmp(line, "fen: ", 5)) snprintf(fen, sizeof fen, "%.250s", line + 5);
        else if (!strncmp(line, "moves: ", 7) && !strcmp(id, "N01")) {
            snprintf(text, sizeof text, "[FEN \"%s\"]\n[Result \"1-0\"]\n%s\n", fen, line + 7);
            decides(text, XQ_TERM_MOVE_LIMIT, false);
            done = true;
        }
    }
    fclose(f);
    assert_true(done);
}

static xq_severity result_finding(const char *text, bool strict)
{
    xq_replay_options opt;
    xq_replay_options_default(&opt);
    opt.strict = strict;
    xq_replay r;
    replay_text(text, &opt, &r);
    for (int i = 0; i < r.nfindings; i++)
        if (r.findings[i].kind == XQ_FIND_RESULT_MISSING || r.findings[i].kind == XQ_FIND_RESULT_MISMATCH)
            return r.findings[i].severity;
    fail_msg("%s: no result finding", text);
    return XQ_SEV_WARNING;
}

/* The tag against the board: an error exactly where the board decides
 * (what --fix-results rewrites), a warning (--strict: error) for a claim,
 * the tag missing or decisive alike. */
static void result_severities(void **state)
{
    (void)state;
    static const char mate[] = "[FEN \"4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1\"]\n[Result \"*\"]\n1. i0i9\n";
    static const char rep[] = "[FEN \"3k5/9/9/9/9/9/9/9/9/R4K2R w - - 0 1\"]\n[Result \"1-0\"]\n"
                              "1. a0a9 d9d8 2. a9a0 d8d9 3. a0a9 d9d8 4. a9a0 d8d9 5. i0i8 d9e9 1-0\n";
    assert_int_equal(result_finding(mate, false), XQ_SEV_ERROR);
    assert_int_equal(result_finding(rep, false), XQ_SEV_WARNING);
    assert_int_equal(result_finding(rep, true), XQ_SEV_ERROR);
    FILE *f = fopen(XQ_SHARED "/cases/cxa1999-cases.txt", "r");
    if (!f) return;
    static char line[8192], text[16384];
    char fen[256] = "", id[16] = "";
    int done = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (!strncmp(line, "id: ", 4)) snprintf(id, sizeof id, "%.15s", line + 4);
        else if (!strncmp(line, "fen: ", 5)) snprintf(fen, sizeof fen, "%.250s", line + 5);
        else if (!strncmp(line, "moves: ", 7) && !strcmp(id, "N01")) {
            for (int k = 0; k < 2; k++) {   /* the tag missing, then decisive */
                snprintf(text, sizeof text, "[FEN \"%s\"]\n[Result \"%s\"]\n%s\n", fen, k ? "0-1" : "*", line + 7);
                assert_int_equal(result_finding(text, false), XQ_SEV_WARNING);
                assert_int_equal(result_finding(text, true), XQ_SEV_ERROR);
                done++;
            }
        }
    }
    fclose(f);
    assert_int_equal(done, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(board_endings_decide),
        cmocka_unit_test(claims_do_not_decide),
        cmocka_unit_test(move_limit_does_not_decide),
        cmocka_unit_test(result_severities),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
