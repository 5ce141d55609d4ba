/* test_notation.c - reading and writing moves (notation.h): every worked
 * example of formats.md §1a-§1c with its expected ICCS, the CXA1999 §7.5
 * abbreviated table, 一字三碼 (xiangqi-basics-notes §9), error statuses,
 * and the round-trip property read(write(m)) == m for every legal move of
 * every position in perft trees (engines-survey.md "Goal 4") and in
 * deterministic random games, in every notation and writer style. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "notation.h"

static void read_fen(xq_position *p, const char *fen)
{
    char err[128];
    if (!xq_fen_read(p, fen, err, sizeof err)) fail_msg("FEN %s: %s", fen, err);
}

static int sq_of(const char *s) { return XQ_SQ(s[0] - 'a', s[1] - '0'); }
static xq_move mv(const char *s) { return XQ_MOVE(sq_of(s), sq_of(s + 2)); }

static const char *iccs(xq_move m, char out[5])
{
    out[0] = (char)('a' + XQ_FILE(XQ_FROM(m)));
    out[1] = (char)('0' + XQ_RANK(XQ_FROM(m)));
    out[2] = (char)('a' + XQ_FILE(XQ_TO(m)));
    out[3] = (char)('0' + XQ_RANK(XQ_TO(m)));
    out[4] = 0;
    if (m == XQ_MOVE_NONE) strcpy(out, "none");
    return out;
}

/* Read text in pos; check status and (if want != NULL) the move. */
static xq_note_result expect_read(const xq_position *pos, const char *text, xq_notation n,
                                  unsigned flags, xq_note_status st, const char *want)
{
    xq_note_result r;
    char msg[256], got[5];
    xq_move_read(pos, text, strlen(text), n, flags, &r, msg, sizeof msg);
    if (r.status != st)
        fail_msg("'%s': status %s (%s), want %s", text, xq_note_status_str(r.status), msg,
                 xq_note_status_str(st));
    if (want && r.move != mv(want))
        fail_msg("'%s': move %s, want %s (%s)", text, iccs(r.move, got), want, msg);
    if (st == XQ_NOTE_OK) assert_string_equal(msg, "");
    else assert_true(msg[0] != 0);
    return r;
}

static void ok(const xq_position *pos, const char *text, const char *want)
{
    expect_read(pos, text, XQ_NOTATION_AUTO, 0, XQ_NOTE_OK, want);
}

/* Read a sequence "text=iccs" of moves in fen one after the other. */
static void ok_each(const char *fen, const char *const *pairs, int n)
{
    xq_position p;
    read_fen(&p, fen);
    for (int i = 0; i < n; i++) ok(&p, pairs[2 * i], pairs[2 * i + 1]);
}

static void expect_write(const xq_position *pos, const char *move, xq_notation n,
                         unsigned flags, const char *want)
{
    char buf[XQ_NOTATION_MAX];
    size_t len = xq_move_write(pos, mv(move), n, flags, buf, sizeof buf);
    if (strcmp(buf, want))
        fail_msg("write %s as %s (flags %u): '%s', want '%s'", move, xq_notation_name(n), flags,
                 buf, want);
    assert_int_equal(len, strlen(want));
}

/* --- formats.md §1a worked examples ----------------------------------- */

static void chinese_worked_examples(void **state)
{
    (void)state;
    static const char *red[] = {
        "炮二平五", "h2e2", "马二进三", "h0g2", "相七进五", "c0e2",
        "仕四进五", "f0e1", "兵七进一", "c3c4", "车九进一", "a0a1",
    };
    ok_each("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", red, 6);
    static const char *black[] = {
        "马８进７", "h9g7", "炮８平５", "h7e7", "象３进５", "c9e7",
        "士４进５", "d9e8", "卒３进１", "c6c5", "车１进１", "a9a8",
    };
    ok_each("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1", black, 6);
    static const char *cannons[] = { "前炮平四", "e3f3", "后炮平六", "e1d1" };
    ok_each("3k5/9/9/9/9/9/4C4/9/4C4/4K4 w", cannons, 2);
    static const char *horses[] = { "前马进６", "g5f3", "后马退５", "g7e8" };
    ok_each("4k4/9/6n2/9/6n2/9/9/9/9/3K5 b", horses, 2);
    static const char *three[] = {
        "前兵平四", "g7f7", "中兵平四", "g6f6", "后兵平四", "g5f5",
        "P+.4", "g7f7", "P3.4", "g6f6", "P-.4", "g5f5",
    };
    ok_each("3k5/9/6P2/6P2/6P2/9/9/9/9/4K4 w", three, 6);
    static const char *three_b[] = { "前卒平６", "e2f2", "中卒平４", "e3d3", "后卒平４", "e4d4" };
    ok_each("4k4/9/9/9/9/4p4/4p4/4p4/9/3K5 b", three_b, 3);
    static const char *four[] = {
        "一兵平四", "g8f8", "二兵平四", "g7f7", "三兵平四", "g6f6", "四兵平四", "g5f5",  /* XQBase */
        "前兵平四", "g8f8", "后兵平四", "g5f5",                                        /* walker */
        "++.4", "g8f8", "P+.4", "g7f7", "P-.4", "g6f6", "--.4", "g5f5",                /* WXF */
    };
    ok_each("3k5/6P2/6P2/6P2/6P2/9/9/9/9/4K4 w", four, 10);
    static const char *two_two[] = {
        "一兵平四", "g6f6", "二兵平四", "g5f5", "三兵平六", "c6d6", "四兵平六", "c5d5",
        "前兵三平四", "g6f6", "前三平四", "g6f6",
        "3+.4", "g6f6", "3-.4", "g5f5", "7+.6", "c6d6", "7-.6", "c5d5",
        "+3.4", "g6f6", "-7.6", "c5d5",                                  /* vschess */
    };
    ok_each("3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w", two_two, 12);
    static const char *advisors[] = { "仕六进五", "d0e1", "仕六退五", "d2e1" };
    ok_each("3k5/9/9/9/9/9/9/3A5/9/3AK4 w", advisors, 2);
}

/* formats.md §1a "Real-world deviations": a plain file although another
 * piece of the kind shares it; only one can move, so legality decides,
 * with a warning (an error in strict mode). */
static void chinese_resolved_by_legality(void **state)
{
    (void)state;
    xq_position p;
    read_fen(&p, "2baka3/8c/nC2b1nR1/p1p1p1r2/6p1c/2P3P2/P3P4/2N1B1C2/9/2BAKA3 b - - 0 1");
    expect_read(&p, "炮９進５", XQ_NOTATION_AUTO, 0, XQ_NOTE_RESOLVED, "i5i0");
    expect_read(&p, "後炮退１", XQ_NOTATION_AUTO, 0, XQ_NOTE_OK, "i8i9");
    xq_note_result r = expect_read(&p, "炮９進５", XQ_NOTATION_CHINESE, XQ_READ_STRICT,
                                   XQ_NOTE_AMBIGUOUS, "i5i0");
    assert_int_equal(r.notation, XQ_NOTATION_CHINESE);
    read_fen(&p, "2baka1r1/9/n2cb1n2/p1p1p3p/9/PR5r1/2P1P3P/N3BC3/3R5/2BAKAC2 b - - 0 1");
    expect_read(&p, "車８平２", XQ_NOTATION_AUTO, 0, XQ_NOTE_RESOLVED, "h4b4");
    expect_read(&p, "車８平２", XQ_NOTATION_AUTO, XQ_READ_UNCHECKED, XQ_NOTE_RESOLVED, "h4b4");
    expect_read(&p, "R8.2", XQ_NOTATION_AUTO, 0, XQ_NOTE_RESOLVED, "h4b4");
    /* both cannons can make the plain move: ambiguous, candidates listed */
    read_fen(&p, "3k5/9/9/9/9/9/4C4/9/4C4/4K4 w");
    char msg[256];
    xq_move_read(&p, "炮五平四", strlen("炮五平四"), XQ_NOTATION_AUTO, 0, &r, msg, sizeof msg);
    assert_int_equal(r.status, XQ_NOTE_AMBIGUOUS);
    assert_int_equal(r.move, XQ_MOVE_NONE);
    assert_non_null(strstr(msg, "e3"));
    assert_non_null(strstr(msg, "e1"));
}

/* Variant characters: traditional, 俥傌砲包, 上/下, digits of any set. */
static void chinese_variants(void **state)
{
    (void)state;
    xq_position p;
    xq_position_start(&p);
    ok(&p, "炮2平5", "h2e2");
    ok(&p, "砲二平五", "h2e2");
    ok(&p, "包二平五", "h2e2");
    ok(&p, "傌二上三", "h0g2");
    ok(&p, "俥一進一", "i0i1");
    ok(&p, "硨九进一", "a0a1");
    ok(&p, "帥五進一", "e0e1");
    ok(&p, "炮２平５", "h2e2");
    ok(&p, "炮贰平伍", "h2e2");
    ok(&p, "炮二下一", "h2h1");
    read_fen(&p, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b");
    ok(&p, "馬8進7", "h9g7");
    ok(&p, "馬八進七", "h9g7");     /* Chinese numerals for Black */
    ok(&p, "將5進1", "e9e8");
    /* tandem marker after the piece, 後 for 后 */
    read_fen(&p, "3k5/9/9/9/9/9/4C4/9/4C4/4K4 w");
    ok(&p, "炮前平四", "e3f3");
    ok(&p, "後炮平六", "e1d1");
}

/* CXA1999 §7.5: the full and the abbreviated record of the same opening. */
static void chinese_abbreviated(void **state)
{
    (void)state;
    static const char *const full[] = { "炮二平五", "馬8進7", "馬二進三", "車9平8", "車一平二", "炮8進4" };
    static const char *const abbr[] = { "炮25", "馬87", "馬23", "車98", "車12", "炮84" };
    static const char *const want[] = { "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "h7h3" };
    xq_position a, b;
    xq_position_start(&a);
    xq_position_start(&b);
    for (int i = 0; i < 6; i++) {
        ok(&a, full[i], want[i]);
        xq_note_result r = expect_read(&b, abbr[i], XQ_NOTATION_AUTO, 0, XQ_NOTE_OK, want[i]);
        assert_int_equal(r.notation, XQ_NOTATION_CHINESE_ABBR);
        assert_int_equal(xq_notation_detect(abbr[i], strlen(abbr[i])), XQ_NOTATION_CHINESE_ABBR);
        expect_write(&a, want[i], XQ_NOTATION_CHINESE_ABBR, XQ_WRITE_TRADITIONAL, abbr[i]);
        expect_write(&a, want[i], XQ_NOTATION_CHINESE, XQ_WRITE_TRADITIONAL | XQ_WRITE_ASCII_DIGITS,
                     full[i]);
        xq_undo u;
        xq_make(&a, mv(want[i]), &u);
        xq_make(&b, mv(want[i]), &u);
    }
    /* when the short form is not unique the writer falls back to the full one */
    xq_position p;
    read_fen(&p, "3k5/9/9/9/9/9/9/9/9/R3K4 w");
    expect_read(&p, "車91", XQ_NOTATION_AUTO, 0, XQ_NOTE_OK, "a0a1");   /* 平一 blocked by e0 */
    read_fen(&p, "3k5/9/9/9/R8/9/9/9/9/4K4 w");
    expect_read(&p, "車91", XQ_NOTATION_AUTO, 0, XQ_NOTE_OK, "a5i5");   /* the file first */
    expect_write(&p, "a5a6", XQ_NOTATION_CHINESE_ABBR, 0, "车九进一");
    expect_write(&p, "a5i5", XQ_NOTATION_CHINESE_ABBR, 0, "车91");
    read_fen(&p, "3k5/9/9/9/9/7R1/9/9/9/4K4 w");
    expect_read(&p, "車22", XQ_NOTATION_AUTO, 0, XQ_NOTE_AMBIGUOUS, NULL);  /* h4h6 or h4h2 */
    expect_write(&p, "h4h6", XQ_NOTATION_CHINESE_ABBR, 0, "车二进二");
    expect_read(&p, "車23", XQ_NOTATION_AUTO, 0, XQ_NOTE_OK, "h4g4");
}

/* 一字三碼 (xiangqi-basics-notes.zh-Hant.txt §9): piece, from-file,
 * to-file, to-rank; files from the player's left as the notes define 位標,
 * ranks 1..10 from the player, 10 written 0; 進/退 replace the from-file
 * when two pieces on one file reach the point. */
static void chinese_3digit(void **state)
{
    (void)state;
    xq_position p;
    read_fen(&p, "5k3/9/9/9/9/9/9/9/1R7/3K5 w");
    xq_note_result r = expect_read(&p, "將451", XQ_NOTATION_AUTO, 0, XQ_NOTE_OK, "d0e0");
    assert_int_equal(r.notation, XQ_NOTATION_CHINESE_3DIGIT);
    ok(&p, "車220", "b1b9");
    expect_write(&p, "b1b9", XQ_NOTATION_CHINESE_3DIGIT, XQ_WRITE_TRADITIONAL, "車220");
    expect_write(&p, "d0e0", XQ_NOTATION_CHINESE_3DIGIT, 0, "帅451");
    /* the usual right-to-left file count on request: 帅651 */
    expect_read(&p, "帅651", XQ_NOTATION_AUTO, XQ_READ_3DIGIT_FROM_RIGHT, XQ_NOTE_OK, "d0e0");
    expect_write(&p, "d0e0", XQ_NOTATION_CHINESE_3DIGIT, XQ_WRITE_3DIGIT_FROM_RIGHT, "帅651");
    expect_read(&p, "帅451", XQ_NOTATION_AUTO, XQ_READ_3DIGIT_FROM_RIGHT, XQ_NOTE_NO_PIECE, NULL);
    /* 馬325: horse on file 3 (c) to file 2 (b), rank 5 (b4); the leg c3 is blocked */
    xq_position_start(&p);
    expect_read(&p, "馬325", XQ_NOTATION_AUTO, 0, XQ_NOTE_NO_PIECE, NULL);   /* no horse on c */
    read_fen(&p, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN4C1/9/R1BAKABNR w");
    r = expect_read(&p, "馬325", XQ_NOTATION_AUTO, 0, XQ_NOTE_ILLEGAL, "c2b4");
    assert_int_equal(r.why, XQ_ILL_HORSE_LEG);
    /* two chariots on the b-file both reach b5: 進/退 instead of the file */
    read_fen(&p, "5k3/9/1R7/9/9/9/9/9/1R7/3K5 w");
    ok(&p, "車進26", "b1b5");
    ok(&p, "車退26", "b7b5");
    expect_read(&p, "車226", XQ_NOTATION_AUTO, 0, XQ_NOTE_AMBIGUOUS, NULL);
    expect_write(&p, "b1b5", XQ_NOTATION_CHINESE_3DIGIT, 0, "车进26");
    expect_write(&p, "b7b5", XQ_NOTATION_CHINESE_3DIGIT, XQ_WRITE_TRADITIONAL, "車退26");
    expect_write(&p, "b1c1", XQ_NOTATION_CHINESE_3DIGIT, 0, "车232");
    expect_write(&p, "b1b2", XQ_NOTATION_CHINESE_3DIGIT, 0, "车进23");   /* b7 reaches b2 too */
}

/* --- WXF, formats.md §1b ---------------------------------------------- */

static void wxf_forms(void **state)
{
    (void)state;
    xq_position p;
    xq_position_start(&p);
    static const char *const start[][2] = {
        {"C2.5", "h2e2"}, {"C2=5", "h2e2"}, {"C25", "h2e2"}, {"c2.5", "h2e2"}, {"Ｃ２＝５", "h2e2"},
        {"62.5", "h2e2"}, {"H2+3", "h0g2"}, {"N2+3", "h0g2"}, {"42+3", "h0g2"}, {"E3+5", "g0e2"},
        {"B7+5", "c0e2"}, {"A4+5", "f0e1"}, {"K5+1", "e0e1"}, {"R1+2", "i0i2"}, {"P7+1", "c3c4"},
        {"r9+1", "a0a1"},
    };
    for (size_t i = 0; i < sizeof start / sizeof start[0]; i++) {
        xq_note_result r = expect_read(&p, start[i][0], XQ_NOTATION_AUTO, 0, XQ_NOTE_OK, start[i][1]);
        assert_int_equal(r.notation, XQ_NOTATION_WXF);
        expect_read(&p, start[i][0], XQ_NOTATION_WXF, 0, XQ_NOTE_OK, start[i][1]);
    }
    read_fen(&p, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b");
    ok(&p, "H8+7", "h9g7");
    read_fen(&p, "3k5/9/9/9/9/9/8R/9/9/4K4 w");
    ok(&p, "R1-2", "i3i1");
    expect_write(&p, "i3i1", XQ_NOTATION_WXF, 0, "R1-2");
    expect_write(&p, "i3c3", XQ_NOTATION_WXF, 0, "R1.7");
}

static void wxf_tandem(void **state)
{
    (void)state;
    xq_position p;
    read_fen(&p, "3k5/9/9/9/9/9/4C4/9/4C4/4K4 w");
    static const char *const cannons[][2] = {
        {"C+.4", "e3f3"}, {"+C.4", "e3f3"}, {"C+=4", "e3f3"}, {"fC.4", "e3f3"}, {"＋Ｃ．４", "e3f3"},
        {"C-.6", "e1d1"}, {"-C.6", "e1d1"}, {"rC.6", "e1d1"},
    };
    for (size_t i = 0; i < sizeof cannons / sizeof cannons[0]; i++) ok(&p, cannons[i][0], cannons[i][1]);
    expect_read(&p, "C--1", XQ_NOTATION_AUTO, 0, XQ_NOTE_ILLEGAL, "e1e0");   /* own general */
    expect_write(&p, "e3f3", XQ_NOTATION_WXF, 0, "C+.4");
    expect_write(&p, "e1d1", XQ_NOTATION_WXF, 0, "C-.6");
    /* xqinenglish R++7 */
    read_fen(&p, "3k5/9/9/9/9/2R6/9/2R6/9/4K4 w");
    ok(&p, "R++3", "c4c7");
    ok(&p, "R-=4", "c2f2");
    /* soldiers: +P+1 / -P+1 (wukong dump), ElephantEye '.' middle and a..e */
    read_fen(&p, "3k5/9/6P2/6P2/6P2/9/9/9/9/4K4 w");
    ok(&p, "+P+1", "g7g8");
    ok(&p, "＋Ｐ＋１", "g7g8");
    ok(&p, "-P.4", "g5f5");
    ok(&p, "P..4", "g6f6");
    ok(&p, "Pb.4", "g6f6");
    expect_write(&p, "g7f7", XQ_NOTATION_WXF, 0, "P+.4");
    expect_write(&p, "g6f6", XQ_NOTATION_WXF, 0, "P3.4");
    expect_write(&p, "g5f5", XQ_NOTATION_WXF, 0, "P-.4");
    read_fen(&p, "3k2P2/6P2/6P2/6P2/6P2/9/9/9/9/4K4 w");      /* five on a file */
    static const char *const five[][2] = {
        {"++.4", "g9f9"}, {"P+.4", "g8f8"}, {"P3.4", "g7f7"}, {"P-.4", "g6f6"}, {"--.4", "g5f5"},
    };
    for (int i = 0; i < 5; i++) {
        ok(&p, five[i][0], five[i][1]);
        expect_write(&p, five[i][1], XQ_NOTATION_WXF, 0, five[i][0]);
    }
    /* two files: the file first; 33.4 is the middle of three on file 3 */
    read_fen(&p, "3k5/9/6P2/2P3P2/2P3P2/9/9/9/9/4K4 w");
    static const char *const two_files[][2] = {
        {"3+.4", "g7f7"}, {"33.4", "g6f6"}, {"3-.4", "g5f5"}, {"7+.6", "c6d6"}, {"7-.6", "c5d5"},
    };
    for (int i = 0; i < 5; i++) {
        ok(&p, two_files[i][0], two_files[i][1]);
        expect_write(&p, two_files[i][1], XQ_NOTATION_WXF, 0, two_files[i][0]);
    }
    expect_write(&p, "g7g8", XQ_NOTATION_WXF, XQ_WRITE_WXF_BN, "3++1");
    read_fen(&p, "3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w");
    expect_write(&p, "g6f6", XQ_NOTATION_WXF, 0, "3+.4");
    expect_write(&p, "c5d5", XQ_NOTATION_WXF, 0, "7-.6");
    read_fen(&p, "3k5/6P2/6P2/6P2/6P2/9/9/9/9/4K4 w");
    expect_write(&p, "g8f8", XQ_NOTATION_WXF, 0, "++.4");
    expect_write(&p, "g5f5", XQ_NOTATION_WXF, 0, "--.4");
}

/* --- coordinates and SAN, formats.md §1c ------------------------------ */

static void coordinates(void **state)
{
    (void)state;
    xq_position p;
    xq_position_start(&p);
    xq_note_result r = expect_read(&p, "H2-E2", XQ_NOTATION_AUTO, 0, XQ_NOTE_OK, "h2e2");
    assert_int_equal(r.notation, XQ_NOTATION_ICCS);
    r = expect_read(&p, "h2e2", XQ_NOTATION_AUTO, 0, XQ_NOTE_OK, "h2e2");
    assert_int_equal(r.notation, XQ_NOTATION_UCCI);
    ok(&p, "h2-e2", "h2e2");
    ok(&p, "H2E2", "h2e2");
    expect_read(&p, "h3e3", XQ_NOTATION_UCCI, XQ_READ_RANKS_FROM_1, XQ_NOTE_OK, "h2e2");
    expect_read(&p, "a1a2", XQ_NOTATION_AUTO, XQ_READ_RANKS_FROM_1, XQ_NOTE_OK, "a0a1");
    expect_write(&p, "h2e2", XQ_NOTATION_ICCS, 0, "H2-E2");
    expect_write(&p, "h2e2", XQ_NOTATION_UCCI, 0, "h2e2");
    expect_write(&p, "h2e2", XQ_NOTATION_UCCI, XQ_WRITE_RANKS_FROM_1, "h3e3");
    read_fen(&p, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b");
    ok(&p, "a10a9", "a9a8");                                  /* "10": 1-based ranks */
    /* unless the game's ranks were found to count from 0 (replay.c) */
    expect_read(&p, "a10a9", XQ_NOTATION_AUTO, XQ_READ_RANKS_FROM_0, XQ_NOTE_SYNTAX, NULL);
    expect_read(&p, "a9a8", XQ_NOTATION_AUTO, XQ_READ_RANKS_FROM_0, XQ_NOTE_OK, "a9a8");
    expect_write(&p, "a9a8", XQ_NOTATION_UCCI, XQ_WRITE_RANKS_FROM_1, "a10a9");
    expect_write(&p, "h9g7", XQ_NOTATION_ICCS, 0, "H9-G7");
    /* errors */
    expect_read(&p, "e5e6", XQ_NOTATION_AUTO, 0, XQ_NOTE_NO_PIECE, NULL);
    expect_read(&p, "h2e2", XQ_NOTATION_AUTO, 0, XQ_NOTE_NO_PIECE, NULL);    /* Red's cannon */
    r = expect_read(&p, "h9h7", XQ_NOTATION_UCCI, 0, XQ_NOTE_ILLEGAL, "h9h7");
    assert_int_equal(r.why, xq_move_legality(&p, mv("h9h7")));
    r = expect_read(&p, "h2e2x", XQ_NOTATION_UCCI, 0, XQ_NOTE_SYNTAX, NULL);
    assert_int_equal(r.column, 5);
}

static void san_xboard(void **state)
{
    (void)state;
    xq_position p;
    xq_position_start(&p);
    static const char *const start[][2] = {
        {"Che2", "h2e2"}, {"Cbe2", "b2e2"}, {"Hg2", "h0g2"}, {"Ng2", "h0g2"}, {"c4", "c3c4"},
        {"Ra1", "a0a1"}, {"Ece2", "c0e2"}, {"Bge2", "g0e2"}, {"Afe1", "f0e1"}, {"Ke1", "e0e1"},
        {"Cxh9", "h2h9"}, {"Chxh9", "h2h9"},
    };
    for (size_t i = 0; i < sizeof start / sizeof start[0]; i++) {
        xq_note_result r = expect_read(&p, start[i][0], XQ_NOTATION_AUTO, 0, XQ_NOTE_OK, start[i][1]);
        assert_int_equal(r.notation, XQ_NOTATION_SAN);
    }
    expect_write(&p, "h2e2", XQ_NOTATION_SAN, 0, "Che2");
    expect_write(&p, "c0e2", XQ_NOTATION_SAN, 0, "Ece2");
    expect_write(&p, "h0g2", XQ_NOTATION_SAN, 0, "Hg2");
    expect_write(&p, "c3c4", XQ_NOTATION_SAN, 0, "c4");
    expect_write(&p, "h2h9", XQ_NOTATION_SAN, 0, "Cxh9");
    expect_write(&p, "c3c4", XQ_NOTATION_SAN, XQ_WRITE_RANKS_FROM_1, "c5");
    expect_read(&p, "Rb10", XQ_NOTATION_SAN, XQ_READ_RANKS_FROM_0, XQ_NOTE_SYNTAX, NULL);
    expect_read(&p, "Ce2", XQ_NOTATION_AUTO, 0, XQ_NOTE_AMBIGUOUS, NULL);
    /* Rxa9 with check; soldier moves across the river */
    read_fen(&p, "r2k5/9/9/9/3pP4/9/9/9/9/R3K4 w");
    ok(&p, "Rxa9", "a0a9");
    ok(&p, "Rxa9+", "a0a9");
    expect_write(&p, "a0a9", XQ_NOTATION_SAN, 0, "Rxa9+");
    expect_write(&p, "a0a9", XQ_NOTATION_SAN, XQ_WRITE_NO_CHECK_MARK, "Rxa9");
    ok(&p, "e6", "e5e6");
    ok(&p, "ef5", "e5f5");
    ok(&p, "exd5", "e5d5");
    expect_write(&p, "e5e6", XQ_NOTATION_SAN, 0, "e6");
    expect_write(&p, "e5f5", XQ_NOTATION_SAN, 0, "ef5");
    expect_write(&p, "e5d5", XQ_NOTATION_SAN, 0, "exd5");
    /* rank disambiguation: two chariots on one file */
    read_fen(&p, "3k5/9/R8/9/9/9/9/9/R8/4K4 w");
    expect_write(&p, "a1a4", XQ_NOTATION_SAN, 0, "R1a4");
    ok(&p, "R7a4", "a7a4");
    /* mate mark: 'R' to the back rank */
    read_fen(&p, "4k4/R8/9/9/9/9/9/9/9/3K4R w");
    expect_write(&p, "i0i9", XQ_NOTATION_SAN, 0, "Ri9#");
}

/* --- errors ------------------------------------------------------------ */

static void errors(void **state)
{
    (void)state;
    xq_position p;
    xq_position_start(&p);
    xq_note_result r;
    r = expect_read(&p, "炮二X五", XQ_NOTATION_AUTO, 0, XQ_NOTE_BAD_CHAR, NULL);
    assert_int_equal(r.column, 3);
    r = expect_read(&p, "炮二平Ⅴ", XQ_NOTATION_CHINESE, 0, XQ_NOTE_BAD_CHAR, NULL);
    assert_int_equal(r.column, 4);
    r = expect_read(&p, "C2.Z", XQ_NOTATION_AUTO, 0, XQ_NOTE_BAD_CHAR, NULL);
    assert_int_equal(r.column, 4);
    r = expect_read(&p, "\xff", XQ_NOTATION_AUTO, 0, XQ_NOTE_BAD_CHAR, NULL);
    assert_int_equal(r.column, 1);
    expect_read(&p, "", XQ_NOTATION_AUTO, 0, XQ_NOTE_EMPTY, NULL);
    r = expect_read(&p, "炮炮平五", XQ_NOTATION_AUTO, 0, XQ_NOTE_SYNTAX, NULL);
    assert_int_equal(r.column, 2);
    expect_read(&p, "炮二平", XQ_NOTATION_AUTO, 0, XQ_NOTE_SYNTAX, NULL);
    expect_read(&p, "炮二平五五五", XQ_NOTATION_AUTO, 0, XQ_NOTE_SYNTAX, NULL);
    expect_read(&p, "C2.5", XQ_NOTATION_UCCI, 0, XQ_NOTE_SYNTAX, NULL);
    expect_read(&p, "C2*5", XQ_NOTATION_WXF, 0, XQ_NOTE_SYNTAX, NULL);
    /* no such piece on that file */
    char msg[256];
    xq_move_read(&p, "炮三平五", strlen("炮三平五"), XQ_NOTATION_AUTO, 0, &r, msg, sizeof msg);
    assert_int_equal(r.status, XQ_NOTE_NO_PIECE);
    assert_non_null(strstr(msg, "cannon"));
    expect_read(&p, "前炮平五", XQ_NOTATION_AUTO, 0, XQ_NOTE_NO_PIECE, NULL);
    expect_read(&p, "C3.5", XQ_NOTATION_AUTO, 0, XQ_NOTE_NO_PIECE, NULL);
    expect_read(&p, "Hd2", XQ_NOTATION_AUTO, 0, XQ_NOTE_NO_PIECE, NULL);
    /* action impossible for the piece */
    xq_move_read(&p, "馬二平三", strlen("馬二平三"), XQ_NOTATION_AUTO, 0, &r, msg, sizeof msg);
    assert_int_equal(r.status, XQ_NOTE_BAD_ACTION);
    assert_non_null(strstr(msg, "horse cannot move sideways"));
    expect_read(&p, "象三平五", XQ_NOTATION_AUTO, 0, XQ_NOTE_BAD_ACTION, NULL);
    expect_read(&p, "馬二進五", XQ_NOTATION_AUTO, 0, XQ_NOTE_BAD_ACTION, NULL);
    expect_read(&p, "仕四進六", XQ_NOTATION_AUTO, 0, XQ_NOTE_BAD_ACTION, NULL);
    expect_read(&p, "車九退一", XQ_NOTATION_AUTO, 0, XQ_NOTE_BAD_ACTION, NULL);
    expect_read(&p, "炮二平二", XQ_NOTATION_AUTO, 0, XQ_NOTE_BAD_ACTION, NULL);
    expect_read(&p, "H2.3", XQ_NOTATION_AUTO, 0, XQ_NOTE_BAD_ACTION, NULL);
    /* decoded but not legal: the move is returned with the core's reason */
    read_fen(&p, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C7/7C1/RNBAKABNR w");
    xq_move_read(&p, "馬二進三", strlen("馬二進三"), XQ_NOTATION_AUTO, 0, &r, msg, sizeof msg);
    assert_int_equal(r.status, XQ_NOTE_ILLEGAL);
    assert_int_equal(r.move, mv("h0g2"));
    assert_int_equal(r.why, XQ_ILL_HORSE_LEG);
    assert_non_null(strstr(msg, xq_illegal_str(XQ_ILL_HORSE_LEG)));
    r = expect_read(&p, "H2+3", XQ_NOTATION_AUTO, 0, XQ_NOTE_ILLEGAL, "h0g2");
    assert_int_equal(r.why, XQ_ILL_HORSE_LEG);
    r = expect_read(&p, "Hg2", XQ_NOTATION_AUTO, 0, XQ_NOTE_ILLEGAL, "h0g2");
    assert_int_equal(r.why, XQ_ILL_HORSE_LEG);
    r = expect_read(&p, "h0g2", XQ_NOTATION_AUTO, 0, XQ_NOTE_ILLEGAL, "h0g2");
    assert_int_equal(r.why, XQ_ILL_HORSE_LEG);
    /* XQ_READ_UNCHECKED: one from/to pair is returned without the core */
    expect_read(&p, "馬二進三", XQ_NOTATION_AUTO, XQ_READ_UNCHECKED, XQ_NOTE_OK, "h0g2");
    read_fen(&p, "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C4NC1/9/RNBAKAB1R w");
    r = expect_read(&p, "炮二平五", XQ_NOTATION_AUTO, 0, XQ_NOTE_ILLEGAL, "h2e2");
    assert_int_equal(r.why, xq_move_legality(&p, mv("h2e2")));
    assert_int_not_equal(r.why, XQ_LEGAL);
    r = expect_read(&p, "C2.5", XQ_NOTATION_AUTO, 0, XQ_NOTE_ILLEGAL, "h2e2");
    r = expect_read(&p, "兵三進二", XQ_NOTATION_AUTO, 0, XQ_NOTE_ILLEGAL, "g3g5");
    assert_int_equal(r.why, xq_move_legality(&p, mv("g3g5")));
    r = expect_read(&p, "兵三平四", XQ_NOTATION_AUTO, 0, XQ_NOTE_ILLEGAL, "g3f3");
    assert_int_equal(r.why, xq_move_legality(&p, mv("g3f3")));
    /* in check: the only move of that text leaves the general attacked */
    read_fen(&p, "3rk4/9/9/9/9/9/9/9/9/3K1A3 w");
    r = expect_read(&p, "仕四進五", XQ_NOTATION_AUTO, 0, XQ_NOTE_ILLEGAL, "f0e1");
    assert_int_equal(r.why, XQ_ILL_LEAVES_CHECK);
    /* messages may be omitted */
    xq_position_start(&p);
    assert_int_equal(xq_move_read(&p, "炮二平五", strlen("炮二平五"), XQ_NOTATION_AUTO, 0, &r, NULL, 0), XQ_NOTE_OK);
    assert_int_equal(xq_move_read(&p, "X", 1, XQ_NOTATION_AUTO, 0, &r, NULL, 0), XQ_NOTE_BAD_CHAR);
    /* writing a move of the wrong side, or a non-move */
    char buf[XQ_NOTATION_MAX];
    assert_int_equal(xq_move_write(&p, mv("h7e7"), XQ_NOTATION_CHINESE, 0, buf, sizeof buf), 0);
    assert_int_equal(xq_move_write(&p, mv("h2e2"), XQ_NOTATION_AUTO, 0, buf, sizeof buf), 0);
    assert_int_equal(xq_move_write(&p, mv("h2e2"), XQ_NOTATION_CHINESE, 0, buf, 5), 0);
    assert_string_equal(buf, "");
}

/* --- writers: forms and tandem conventions ------------------------------ */

static void write_chinese(void **state)
{
    (void)state;
    xq_position p;
    read_fen(&p, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b");
    expect_write(&p, "h9g7", XQ_NOTATION_CHINESE, 0, "马８进７");
    expect_write(&p, "h9g7", XQ_NOTATION_CHINESE, XQ_WRITE_TRADITIONAL, "馬８進７");
    expect_write(&p, "h9g7", XQ_NOTATION_CHINESE, XQ_WRITE_ASCII_DIGITS, "马8进7");
    expect_write(&p, "e9e8", XQ_NOTATION_CHINESE, XQ_WRITE_TRADITIONAL, "將５進１");
    expect_write(&p, "c6c5", XQ_NOTATION_CHINESE, 0, "卒３进１");
    xq_position_start(&p);
    expect_write(&p, "e0e1", XQ_NOTATION_CHINESE, 0, "帅五进一");
    expect_write(&p, "e0e1", XQ_NOTATION_CHINESE, XQ_WRITE_TRADITIONAL, "帥五進一");
    expect_write(&p, "h2h1", XQ_NOTATION_CHINESE, 0, "炮二退一");
    read_fen(&p, "3k5/9/9/9/9/9/4C4/9/4C4/4K4 w");
    expect_write(&p, "e3f3", XQ_NOTATION_CHINESE, 0, "前炮平四");
    expect_write(&p, "e1d1", XQ_NOTATION_CHINESE, 0, "后炮平六");
    expect_write(&p, "e1d1", XQ_NOTATION_CHINESE, XQ_WRITE_TRADITIONAL, "後炮平六");
    read_fen(&p, "4k4/9/6n2/9/6n2/9/9/9/9/3K5 b");
    expect_write(&p, "g5f3", XQ_NOTATION_CHINESE, 0, "前马进６");
    expect_write(&p, "g7e8", XQ_NOTATION_CHINESE, 0, "后马退５");
    read_fen(&p, "3k5/9/9/9/9/9/9/3A5/9/3AK4 w");
    expect_write(&p, "d0e1", XQ_NOTATION_CHINESE, 0, "仕六进五");
    expect_write(&p, "d2e1", XQ_NOTATION_CHINESE, 0, "仕六退五");
    read_fen(&p, "4k4/9/9/9/9/4p4/4p4/4p4/9/3K5 b");
    expect_write(&p, "e2f2", XQ_NOTATION_CHINESE, 0, "前卒平６");
    expect_write(&p, "e3d3", XQ_NOTATION_CHINESE, 0, "中卒平４");
    expect_write(&p, "e4d4", XQ_NOTATION_CHINESE, XQ_WRITE_ASCII_DIGITS, "后卒平4");
    /* four on a file: XQBase / popular / walker */
    read_fen(&p, "3k5/6P2/6P2/6P2/6P2/9/9/9/9/4K4 w");
    static const char *const sq4[] = { "g8f8", "g7f7", "g6f6", "g5f5" };
    static const char *const xqbase4[] = { "一兵平四", "二兵平四", "三兵平四", "四兵平四" };
    static const char *const popular4[] = { "前兵平四", "二兵平四", "三兵平四", "四兵平四" };
    static const char *const walker4[] = { "前兵平四", "二兵平四", "三兵平四", "后兵平四" };
    for (int i = 0; i < 4; i++) {
        expect_write(&p, sq4[i], XQ_NOTATION_CHINESE, 0, xqbase4[i]);
        expect_write(&p, sq4[i], XQ_NOTATION_CHINESE, XQ_WRITE_PAWNS_POPULAR, popular4[i]);
        expect_write(&p, sq4[i], XQ_NOTATION_CHINESE, XQ_WRITE_PAWNS_WALKER, walker4[i]);
    }
    /* five on a file */
    read_fen(&p, "3k2P2/6P2/6P2/6P2/6P2/9/9/9/9/4K4 w");
    expect_write(&p, "g5f5", XQ_NOTATION_CHINESE, 0, "五兵平四");
    expect_write(&p, "g5f5", XQ_NOTATION_CHINESE, XQ_WRITE_PAWNS_POPULAR, "五兵平四");
    expect_write(&p, "g5f5", XQ_NOTATION_CHINESE, XQ_WRITE_PAWNS_WALKER, "后兵平四");
    expect_write(&p, "g6f6", XQ_NOTATION_CHINESE, XQ_WRITE_PAWNS_WALKER, "四兵平四");
    expect_write(&p, "g9f9", XQ_NOTATION_CHINESE, XQ_WRITE_PAWNS_WALKER, "前兵平四");
    ok(&p, "后兵平四", "g5f5");
    ok(&p, "五兵平四", "g5f5");
    ok(&p, "中兵平四", "g7f7");
    /* 2 + 2: pooled numbering, or the file after the piece */
    read_fen(&p, "3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w");
    static const char *const sq22[] = { "g6f6", "g5f5", "c6d6", "c5d5" };
    static const char *const xqbase22[] = { "一兵平四", "二兵平四", "三兵平六", "四兵平六" };
    static const char *const popular22[] = { "前兵三平四", "后兵三平四", "前兵七平六", "后兵七平六" };
    for (int i = 0; i < 4; i++) {
        expect_write(&p, sq22[i], XQ_NOTATION_CHINESE, 0, xqbase22[i]);
        expect_write(&p, sq22[i], XQ_NOTATION_CHINESE, XQ_WRITE_PAWNS_POPULAR, popular22[i]);
        expect_write(&p, sq22[i], XQ_NOTATION_CHINESE, XQ_WRITE_PAWNS_WALKER, popular22[i]);
        ok(&p, popular22[i], sq22[i]);
    }
    /* a plain file with a single soldier although other files hold two */
    read_fen(&p, "3k5/9/9/2P3P2/2P3P2/4P4/9/9/9/4K4 w");
    expect_write(&p, "e4e5", XQ_NOTATION_CHINESE, 0, "兵五进一");
    /* 前兵平六 with soldiers on two files: the pooled front one (g6) cannot
     * go to file 六, so the marker is tried on each file: resolved, warned */
    read_fen(&p, "3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w");
    expect_read(&p, "后兵平六", XQ_NOTATION_AUTO, 0, XQ_NOTE_OK, "c5d5");   /* pooled: last */
    expect_read(&p, "前兵平六", XQ_NOTATION_AUTO, 0, XQ_NOTE_RESOLVED, "c6d6");
}

/* --- recognition and names ---------------------------------------------- */

static void detect_and_names(void **state)
{
    (void)state;
    static const struct { const char *t; xq_notation n; } cases[] = {
        {"炮二平五", XQ_NOTATION_CHINESE}, {"前兵九平八", XQ_NOTATION_CHINESE},
        {"炮25", XQ_NOTATION_CHINESE_ABBR}, {"馬325", XQ_NOTATION_CHINESE_3DIGIT},
        {"車進20", XQ_NOTATION_CHINESE_3DIGIT}, {"C2.5", XQ_NOTATION_WXF},
        {"Ｃ２＝５", XQ_NOTATION_WXF}, {"+P+1", XQ_NOTATION_WXF}, {"33.4", XQ_NOTATION_WXF},
        {"C25", XQ_NOTATION_WXF}, {"H2-E2", XQ_NOTATION_ICCS}, {"h2e2", XQ_NOTATION_UCCI},
        {"a10a9", XQ_NOTATION_UCCI}, {"Che2", XQ_NOTATION_SAN}, {"exd5", XQ_NOTATION_SAN},
        {"e4", XQ_NOTATION_SAN}, {"Rxa9+", XQ_NOTATION_SAN}, {"A9e8", XQ_NOTATION_SAN},
        {"hello", XQ_NOTATION_AUTO}, {"炮二", XQ_NOTATION_AUTO}, {"", XQ_NOTATION_AUTO},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (xq_notation_detect(cases[i].t, strlen(cases[i].t)) != cases[i].n)
            fail_msg("detect '%s': %s, want %s", cases[i].t,
                     xq_notation_name(xq_notation_detect(cases[i].t, strlen(cases[i].t))),
                     xq_notation_name(cases[i].n));
    for (int n = 0; n < XQ_NOTATION_COUNT; n++) {
        xq_notation back;
        assert_true(xq_notation_from_name(xq_notation_name((xq_notation)n), &back));
        assert_int_equal(back, n);
    }
    xq_notation x;
    assert_true(xq_notation_from_name("XBoard", &x));
    assert_int_equal(x, XQ_NOTATION_SAN);
    assert_false(xq_notation_from_name("klingon", &x));
    for (int s = 0; s < XQ_NOTE_COUNT; s++) assert_true(strlen(xq_note_status_str((xq_note_status)s)) > 0);
}

/* --- round trip --------------------------------------------------------- */

/* Every writer style; the reader gets the matching read flags and, for
 * the Chinese forms, AUTO recognition. */
static const struct { xq_notation n; unsigned wflags, rflags; } styles[] = {
    {XQ_NOTATION_CHINESE, 0, 0},
    {XQ_NOTATION_CHINESE, XQ_WRITE_TRADITIONAL | XQ_WRITE_ASCII_DIGITS, 0},
    {XQ_NOTATION_CHINESE, XQ_WRITE_PAWNS_POPULAR, 0},
    {XQ_NOTATION_CHINESE, XQ_WRITE_PAWNS_WALKER | XQ_WRITE_TRADITIONAL, 0},
    {XQ_NOTATION_CHINESE_ABBR, 0, 0},
    {XQ_NOTATION_CHINESE_3DIGIT, 0, 0},
    {XQ_NOTATION_CHINESE_3DIGIT, XQ_WRITE_3DIGIT_FROM_RIGHT, XQ_READ_3DIGIT_FROM_RIGHT},
    {XQ_NOTATION_WXF, 0, 0},
    {XQ_NOTATION_WXF, XQ_WRITE_WXF_BN, 0},
    {XQ_NOTATION_ICCS, 0, 0},
    {XQ_NOTATION_UCCI, 0, 0},
    {XQ_NOTATION_UCCI, XQ_WRITE_RANKS_FROM_1, XQ_READ_RANKS_FROM_1},
    {XQ_NOTATION_SAN, 0, 0},
    {XQ_NOTATION_SAN, XQ_WRITE_RANKS_FROM_1 | XQ_WRITE_NO_CHECK_MARK, XQ_READ_RANKS_FROM_1},
};
enum { NSTYLES = sizeof styles / sizeof styles[0] };

typedef struct { uint64_t positions, moves, reads; } rt_count;

/* read(write(m)) == m with status OK for every legal move of pos, in every
 * style, read both as AUTO and as the notation written. */
static void round_trip_position(const xq_position *pos, rt_count *cnt)
{
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_legal_moves(pos, moves);
    cnt->positions++;
    cnt->moves += (uint64_t)n;
    for (int i = 0; i < n; i++) {
        for (int s = 0; s < NSTYLES; s++) {
            char buf[XQ_NOTATION_MAX], msg[256], fen[XQ_FEN_MAX], a[5];
            size_t len = xq_move_write(pos, moves[i], styles[s].n, styles[s].wflags, buf, sizeof buf);
            for (int k = 0; k < 2; k++) {
                xq_notation rn = k ? styles[s].n : XQ_NOTATION_AUTO;
                if (rn == XQ_NOTATION_CHINESE_ABBR) rn = XQ_NOTATION_CHINESE;   /* may fall back */
                xq_note_result r;
                xq_move_read(pos, buf, len, rn, styles[s].rflags, &r, msg, sizeof msg);
                cnt->reads++;
                if (len == 0 || r.status != XQ_NOTE_OK || r.move != moves[i]) {
                    xq_fen_write(pos, fen, sizeof fen);
                    fail_msg("%s: %s in %s (flags %u) wrote '%s', read back %s as %s: %s", fen,
                             iccs(moves[i], a), xq_notation_name(styles[s].n), styles[s].wflags,
                             buf, xq_note_status_str(r.status), iccs(r.move, a), msg);
                }
            }
        }
    }
}

/* Every position of the perft tree to `depth` whose moves lie in the tree
 * (plies 0..depth-1), so the moves checked number perft(1)+..+perft(depth). */
static void round_trip_tree(xq_position *pos, int depth, rt_count *cnt)
{
    if (depth == 0) return;
    round_trip_position(pos, cnt);
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_legal_moves(pos, moves);
    for (int i = 0; i < n; i++) {
        xq_undo u;
        xq_make(pos, moves[i], &u);
        round_trip_tree(pos, depth - 1, cnt);
        xq_unmake(pos, moves[i], &u);
    }
}

static void round_trip_start_depth3(void **state)
{
    (void)state;
    xq_position p;
    xq_position_start(&p);
    rt_count cnt = {0, 0, 0};
    round_trip_tree(&p, 3, &cnt);
    /* engines-survey.md Goal 4: perft 44, 1920, 79666 */
    assert_int_equal(cnt.positions, 1 + 44 + 1920);
    assert_int_equal(cnt.moves, 44 + 1920 + 79666);
    assert_int_equal(cnt.reads, cnt.moves * NSTYLES * 2);
    print_message("start position, depth 3: %llu positions, %llu moves, %llu reads\n",
                  (unsigned long long)cnt.positions, (unsigned long long)cnt.moves,
                  (unsigned long long)cnt.reads);
}

static void round_trip_goal4_depth2(void **state)
{
    (void)state;
    static const struct { const char *fen; uint64_t d1, d2; } cases[] = {
        {"r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2", 38, 1128},
        {"1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1", 7, 281},
        {"5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2", 25, 424},
        {"CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3", 28, 516},
        {"R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3", 21, 364},
        {"C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3", 28, 222},
        {"4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5", 23, 345},
        {"2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5", 21, 195},
        {"1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4", 30, 830},
        {"CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3", 19, 583},
        {"1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4", 49, 2265},
        {"4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2", 13, 272},
    };
    rt_count total = {0, 0, 0};
    uint64_t want_moves = 0, want_positions = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char fen[160];
        snprintf(fen, sizeof fen, "%s w - - 0 1", cases[i].fen);
        xq_position p;
        read_fen(&p, fen);
        rt_count cnt = {0, 0, 0};
        round_trip_tree(&p, 2, &cnt);
        assert_int_equal(cnt.positions, 1 + cases[i].d1);
        assert_int_equal(cnt.moves, cases[i].d1 + cases[i].d2);
        total.positions += cnt.positions;
        total.moves += cnt.moves;
        total.reads += cnt.reads;
        want_positions += 1 + cases[i].d1;
        want_moves += cases[i].d1 + cases[i].d2;
    }
    assert_int_equal(total.moves, want_moves);            /* 302 + 7425 = 7727 */
    assert_int_equal(total.positions, want_positions);    /* 12 + 302 = 314 */
    assert_int_equal(total.reads, total.moves * NSTYLES * 2);
    print_message("12 Goal-4 positions, depth 2: %llu positions, %llu moves, %llu reads\n",
                  (unsigned long long)total.positions, (unsigned long long)total.moves,
                  (unsigned long long)total.reads);
}

/* Random games (fixed LCG seed) from positions rich in tandem soldiers,
 * chariots and horses, to reach 3-5 soldiers on a file and soldiers on
 * several files, which perft trees from real openings do not. */
static void round_trip_random_games(void **state)
{
    (void)state;
    static const char *const fens[] = {
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "2bakab2/9/9/ppppp4/9/9/PPPPP4/9/9/2BAKAB2 w - - 0 1",
        "r1bakab1r/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RN1AKA1NR w - - 0 1",
        "2bak4/4a4/4b4/9/2p1p1p2/2P1P1P2/9/4B4/4A4/2BAK4 w - - 0 1",
    };
    uint32_t seed = 12345;
    rt_count cnt = {0, 0, 0};
    for (int g = 0; g < 24; g++) {
        xq_position p;
        read_fen(&p, fens[g % 4]);
        for (int ply = 0; ply < 160; ply++) {
            round_trip_position(&p, &cnt);
            xq_move moves[XQ_MAX_MOVES];
            int n = xq_legal_moves(&p, moves);
            if (n == 0) break;
            seed = seed * 1103515245u + 12345u;
            xq_undo u;
            xq_make(&p, moves[(seed >> 16) % (uint32_t)n], &u);
        }
    }
    assert_true(cnt.positions > 1000);
    print_message("random games: %llu positions, %llu moves, %llu reads\n",
                  (unsigned long long)cnt.positions, (unsigned long long)cnt.moves,
                  (unsigned long long)cnt.reads);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(chinese_worked_examples),
        cmocka_unit_test(chinese_resolved_by_legality),
        cmocka_unit_test(chinese_variants),
        cmocka_unit_test(chinese_abbreviated),
        cmocka_unit_test(chinese_3digit),
        cmocka_unit_test(wxf_forms),
        cmocka_unit_test(wxf_tandem),
        cmocka_unit_test(coordinates),
        cmocka_unit_test(san_xboard),
        cmocka_unit_test(errors),
        cmocka_unit_test(write_chinese),
        cmocka_unit_test(detect_and_names),
        cmocka_unit_test(round_trip_start_depth3),
        cmocka_unit_test(round_trip_goal4_depth2),
        cmocka_unit_test(round_trip_random_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
