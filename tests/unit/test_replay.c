/* test_replay.c - replaying records: endings (checkmate, stalemate, dead
 * position, natural move limit), the first illegal move and its reason,
 * moves after the end, and the Result tag against the board.  Positions
 * and verdicts from ../shared/cases/cxa1999-cases.txt where named. */
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

#include "pgn_read.h"
#include "replay.h"

static bool has_finding(const xq_replay *r, xq_finding_kind k, xq_severity sev)
{
    for (int i = 0; i < r->nfindings; i++)
        if (r->findings[i].kind == k && r->findings[i].severity == sev) return true;
    return false;
}

static void checkmate_b01(void **state)
{
    (void)state;
    xq_replay r;
    replay_text("[FEN \"4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1\"]\n[Result \"1-0\"]\n[Format \"ICCS\"]\n"
                "1. i0i9 1-0\n", NULL, &r);
    assert_int_equal(r.status, XQ_STATUS_VALID);
    assert_int_equal(r.termination, XQ_TERM_CHECKMATE);
    assert_int_equal(r.result_board, XQ_RESULT_RED);
    assert_int_equal(r.error_count, 0);
    assert_int_equal(r.plies, 1);

    /* the same game tagged as a draw: the tag contradicts the board */
    replay_text("[FEN \"4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1\"]\n[Result \"1/2-1/2\"]\n1. i0i9\n", NULL, &r);
    assert_int_equal(r.termination, XQ_TERM_CHECKMATE);
    assert_true(has_finding(&r, XQ_FIND_RESULT_MISMATCH, XQ_SEV_ERROR));

    /* a move recorded after the mate: game already over */
    replay_text("[FEN \"4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1\"]\n[Result \"1-0\"]\n1. i0i9 e9e8\n", NULL, &r);
    assert_int_equal(r.status, XQ_STATUS_ILLEGAL);
    assert_int_equal(r.bad_ply, 2);
    assert_string_equal(r.bad_move, "e9e8");
    assert_string_equal(r.reason, "game already over: black is checkmated");
    assert_int_equal(r.termination, XQ_TERM_CHECKMATE);
    assert_int_equal(r.result_board, XQ_RESULT_RED);
    assert_true(has_finding(&r, XQ_FIND_GAME_OVER, XQ_SEV_ERROR));
}

static void stalemate_b02(void **state)
{
    (void)state;
    xq_replay r;
    /* B02 reached by a red move: i0i8 leaves black without a legal move */
    replay_text("[FEN \"3k5/9/9/9/9/9/9/9/9/4K3R w - - 0 1\"]\n[Result \"*\"]\n1. i0i8\n", NULL, &r);
    assert_int_equal(r.status, XQ_STATUS_VALID);
    assert_int_equal(r.termination, XQ_TERM_STALEMATE);
    assert_int_equal(r.result_board, XQ_RESULT_RED);       /* CXA1999 §3.2: stalemate loses */
    assert_true(has_finding(&r, XQ_FIND_RESULT_MISSING, XQ_SEV_ERROR));
}

static void dead_position_b14(void **state)
{
    (void)state;
    xq_replay r;
    replay_text("[FEN \"3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w - - 0 1\"]\n[Result \"1/2-1/2\"]\n1. e2c4\n", NULL,
                &r);
    assert_int_equal(r.termination, XQ_TERM_DEAD_POSITION);
    assert_int_equal(r.result_board, XQ_RESULT_DRAW);
    assert_int_equal(r.error_count, 0);
    /* a capture that leaves no attacking piece makes the position dead */
    replay_text("[FEN \"3ak4/4a4/4b4/9/9/9/9/4B4/4r4/3AK4 w - - 0 1\"]\n[Result \"1/2-1/2\"]\n1. e0e1\n", NULL,
                &r);
    assert_int_equal(r.status, XQ_STATUS_VALID);
    assert_int_equal(r.termination, XQ_TERM_DEAD_POSITION);
}

/* N01 / N02 of cxa1999-cases.txt: the natural move limit. */
static void move_limit_cases(void **state)
{
    (void)state;
    FILE *f = fopen(XQ_SHARED "/cases/cxa1999-cases.txt", "r");
    if (!f) skip();
    char line[8192], fen[256] = "", id[16] = "";
    static char text[16384];
    int done = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (!strncmp(line, "id: ", 4)) snprintf(id, sizeof id, "%.15s", line + 4);
        else if (!strncmp(line, "fen: ", 5)) snprintf(fen, sizeof fen, "%.250s", line + 5);
        else if (!strncmp(line, "moves: ", 7) && (!strcmp(id, "N01") || !strcmp(id, "N02"))) {
            char *moves = line + 7;
            int n = 1;
            for (char *p = moves; *p; p++) n += *p == ' ';
            xq_replay_options opt;
            xq_replay_options_default(&opt);
            xq_replay r;
            /* all the plies: the limit is reached (120 plies without capture) */
            snprintf(text, sizeof text, "[FEN \"%s\"]\n[Result \"1/2-1/2\"]\n%s\n", fen, moves);
            replay_text(text, &opt, &r);
            assert_int_equal(r.status, XQ_STATUS_VALID);
            assert_int_equal(r.plies, n);
            assert_int_equal(r.termination, XQ_TERM_MOVE_LIMIT);
            /* one ply fewer than 120: not yet */
            char *cut = moves;
            for (int k = 0; k < 119; k++) cut = strchr(cut, ' ') + 1;
            cut[-1] = 0;
            snprintf(text, sizeof text, "[FEN \"%s\"]\n[Result \"*\"]\n%s\n", fen, moves);
            replay_text(text, &opt, &r);
            assert_int_equal(r.plies, 119);
            assert_int_not_equal(r.termination, XQ_TERM_MOVE_LIMIT);
            if (!strcmp(id, "N02")) {
                /* AXF's cap: red's 12 checks count as 10, so 124 plies are needed */
                cut[-1] = ' ';
                opt.check_cap = 10;
                for (int plies = 120; plies <= 124; plies++) {
                    char *end = moves;
                    for (int k = 0; k < plies && end; k++) {
                        end = strchr(end, ' ');
                        if (end) end++;
                    }
                    int len = end ? (int)(end - moves - 1) : (int)strlen(moves);
                    snprintf(text, sizeof text, "[FEN \"%s\"]\n%.*s\n", fen, len, moves);
                    replay_text(text, &opt, &r);
                    assert_int_equal(r.plies, plies);
                    if (plies < 124) assert_int_not_equal(r.termination, XQ_TERM_MOVE_LIMIT);
                    else assert_int_equal(r.termination, XQ_TERM_MOVE_LIMIT);
                }
            }
            done++;
        }
    }
    fclose(f);
    assert_int_equal(done, 2);
}

static void illegal_moves(void **state)
{
    (void)state;
    xq_replay r;
    /* I01: b0c2 with no piece on b0 */
    replay_text("[FEN \"1Cba1rb2/4kn3/1R7/p2R4p/4p4/2p6/P1r5P/4B4/9/2BAKA3 w - - 0 1\"]\n"
                "1. b7e7 b0c2 2. b9c7 h0g2\n", NULL, &r);
    assert_int_equal(r.status, XQ_STATUS_ILLEGAL);
    assert_int_equal(r.bad_ply, 2);
    assert_string_equal(r.bad_move, "b0c2");
    assert_int_equal(r.termination, XQ_TERM_ILLEGAL_MOVE);
    assert_int_equal(r.result_board, XQ_RESULT_RED);      /* CXA1999 §4.1.6: black's illegal move loses */

    /* horse leg blocked, in Chinese notation; the FEN before the move is reported */
    replay_text("[Event \"t\"]\n1. 炮二平五 炮８平５\n2. 馬二進三 馬８進７\n3. 車一平二 *\n", NULL, &r);
    assert_int_equal(r.status, XQ_STATUS_VALID);
    replay_text("1. 兵三進一 卒３進１\n2. 馬二進四\n", NULL, &r);
    assert_int_equal(r.status, XQ_STATUS_ILLEGAL);
    assert_int_equal(r.bad_ply, 3);
    assert_string_equal(r.reason, "horse leg blocked");
    assert_string_equal(r.fen_before, "rnbakabnr/9/1c5c1/p3p1p1p/2p6/6P2/P1P1P3P/1C5C1/9/RNBAKABNR w - - 2 2");
    assert_int_equal(r.bad_number, 2);

    /* a black move where red is to move */
    replay_text("[Format \"ICCS\"]\n1. h2e2 h9g7 b9c7\n", NULL, &r);
    assert_int_equal(r.status, XQ_STATUS_ILLEGAL);
    assert_int_equal(r.bad_ply, 3);
    assert_string_equal(r.reason, "wrong side to move: it is red's turn");

    /* a FEN that does not parse: unreadable */
    replay_text("[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w\"]\n1. h2e2\n", NULL, &r);
    assert_int_equal(r.status, XQ_STATUS_UNREADABLE);
    assert_true(has_finding(&r, XQ_FIND_BAD_FEN, XQ_SEV_ERROR));
}

static void impossible_fen_i03(void **state)
{
    (void)state;
    xq_replay r;
    replay_text("[FEN \"3a2b1r/4ak3/8p/7P1/9/9/9/B2NN3B/3K5/4p4 w - - 0 1\"]\n", NULL, &r);
    assert_true(has_finding(&r, XQ_FIND_IMPOSSIBLE_POSITION, XQ_SEV_WARNING));
    assert_int_equal(r.error_count, 0);
    xq_replay_options strict;
    xq_replay_options_default(&strict);
    strict.strict = true;
    replay_text("[FEN \"3a2b1r/4ak3/8p/7P1/9/9/9/B2NN3B/3K5/4p4 w - - 0 1\"]\n", &strict, &r);
    assert_true(has_finding(&r, XQ_FIND_IMPOSSIBLE_POSITION, XQ_SEV_ERROR));
    /* a general the side to move could take, behind an advisor off its
     * points: an error, and no move is played (the first one here would
     * take the black general) */
    replay_text("[FEN \"7B1/3Pk4/9/9/9/9/8n/3K5/9/1A7 w - - 0 1\"]\n"
                "1. 兵六平五 馬９退７ 2. 帥六退一 馬７退５ *\n", NULL, &r);
    assert_int_equal(r.status, XQ_STATUS_UNREADABLE);
    assert_true(has_finding(&r, XQ_FIND_IMPOSSIBLE_POSITION, XQ_SEV_ERROR));
    assert_string_equal(r.reason, "FEN position cannot arise: the side not to move is in check");
    assert_int_equal(r.plies, 0);
    replay_text("[FEN \"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"]\n1. 帥五進一 *\n", NULL, &r);
    assert_int_equal(r.status, XQ_STATUS_UNREADABLE);
    assert_string_equal(r.reason, "FEN position cannot arise: the generals face each other");
}

/* The place of a finding about the FEN tag: the bad character (the FEN
 * reader's byte column, counted in characters from the value's column),
 * the value's start for a position that cannot arise or a value with an
 * escape, the record's start (0) when no reader said where it is. */
static void fen_finding_places(void **state)
{
    (void)state;
    xq_replay r;
    long at;
    xq_position pos;
    assert_false(xq_fen_read_at(&pos, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w", NULL, 0, &at));
    assert_int_equal(at, 59);
    assert_false(xq_fen_read_at(&pos, "9/9/9 w", NULL, 0, &at));
    assert_int_equal(at, 0);   /* the board ends early: no one character */
    assert_true(xq_fen_read_at(&pos, XQ_START_FEN, NULL, 0, &at));
    assert_int_equal(at, 0);
    replay_text("[Event \"x\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w 红 - 0 x\"]\n", NULL, &r);
    assert_int_equal(r.nfindings, 1);
    assert_int_equal(r.findings[0].kind, XQ_FIND_BAD_FEN);
    assert_int_equal(r.findings[0].line, 2);
    assert_int_equal(r.findings[0].col, 7 + 68);   /* 'x': byte 71 of the FEN, character 69 */
    replay_text("[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/\\\\NBAKABNR w\"]\n", NULL, &r);
    assert_int_equal(r.findings[0].line, 1);
    assert_int_equal(r.findings[0].col, 7);   /* an escape in the value: its start */
    replay_text("\n[FEN \"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"]\n", NULL, &r);
    assert_int_equal(r.findings[0].kind, XQ_FIND_IMPOSSIBLE_POSITION);
    assert_int_equal(r.findings[0].line, 2);
    assert_int_equal(r.findings[0].col, 7);
    xq_game g;
    xq_game_init(&g);
    g.fen = "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1";   /* made by no reader */
    xq_replay_options def;
    xq_replay_options_default(&def);
    xq_replay_game(&g, &def, &r);
    assert_int_equal(r.findings[0].line, 0);
    xq_game_free(&g);
}

static void results_parse(void **state)
{
    (void)state;
    xq_result r;
    assert_true(xq_result_parse("1-0", &r));
    assert_int_equal(r, XQ_RESULT_RED);
    assert_true(xq_result_parse("紅勝", &r));
    assert_int_equal(r, XQ_RESULT_RED);
    assert_true(xq_result_parse("1/2-1/2", &r));
    assert_int_equal(r, XQ_RESULT_DRAW);
    assert_true(xq_result_parse("*", &r));
    assert_int_equal(r, XQ_RESULT_UNKNOWN);
    assert_false(xq_result_parse("2-0", &r));
    assert_int_equal(r, XQ_RESULT_NONE);
}

/* xq_replay_ply_move: a ply's move as the record numbers it, from Red's
 * start and from Black's at another move number; out of range, cut to
 * the buffer on a character boundary, and an unreadable game. */
static void ply_moves_named(void **state)
{
    (void)state;
    xqt_loaded l;
    const char *red = "[Event \"r\"]\n\n1. 炮二平五 馬８進７ 2. 馬二進三 *\n";
    xqt_load(&l, red, strlen(red));
    char buf[64];
    xq_replay_ply_move(&l.g, &l.r, 1, buf, sizeof buf);
    assert_string_equal(buf, "1. 炮二平五");
    xq_replay_ply_move(&l.g, &l.r, 2, buf, sizeof buf);
    assert_string_equal(buf, "1... 馬８進７");
    xq_replay_ply_move(&l.g, &l.r, 3, buf, sizeof buf);
    assert_string_equal(buf, "2. 馬二進三");
    xq_replay_ply_move(&l.g, &l.r, 0, buf, sizeof buf);
    assert_string_equal(buf, "");
    xq_replay_ply_move(&l.g, &l.r, 4, buf, sizeof buf);
    assert_string_equal(buf, "");
    xq_replay_ply_move(&l.g, &l.r, 1, buf, 9);   /* "1. " and two of the four characters (3 bytes each) */
    assert_string_equal(buf, "1. 炮");
    xq_replay_ply_move(&l.g, &l.r, 1, buf, 3);   /* no room for the number and its blank */
    assert_string_equal(buf, "");
    xq_game_free(&l.g);

    const char *black = "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 7\"]\n\n"
                        "7... h7e7 8. h0g2 *\n";
    xqt_load(&l, black, strlen(black));
    assert_int_equal(l.r.plies, 2);
    xq_replay_ply_move(&l.g, &l.r, 1, buf, sizeof buf);
    assert_string_equal(buf, "7... h7e7");
    xq_replay_ply_move(&l.g, &l.r, 2, buf, sizeof buf);
    assert_string_equal(buf, "8. h0g2");
    xq_game_free(&l.g);

    const char *bad = "[FEN \"rnbakabnr/9/9 w - - 0 1\"]\n\n1. h2e2 *\n";
    xqt_load(&l, bad, strlen(bad));
    assert_int_equal(l.r.status, XQ_STATUS_UNREADABLE);
    xq_replay_ply_move(&l.g, &l.r, 1, buf, sizeof buf);
    assert_string_equal(buf, "");
    xq_game_free(&l.g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(checkmate_b01),
        cmocka_unit_test(stalemate_b02),
        cmocka_unit_test(dead_position_b14),
        cmocka_unit_test(move_limit_cases),
        cmocka_unit_test(illegal_moves),
        cmocka_unit_test(impossible_fen_i03),
        cmocka_unit_test(fen_finding_places),
        cmocka_unit_test(results_parse),
        cmocka_unit_test(ply_moves_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
