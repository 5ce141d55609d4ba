/* test_xqf.c - XQF files (formats.md §1f) into the game model and back:
 * the corpus files of cchess-testdata and xqf-spec with their known
 * values (game counts, moves, variations, comments, tags, FEN), the
 * broken files' diagnostics, damaged copies (cut and corrupted at every
 * offset: diagnostics with byte offsets, never a crash), the version-11
 * rotation question, and the round trip XQF -> model -> XQF 10 -> model. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "pgn_read.h"
#include "notation.h"
#include "replay.h"
#include "write.h"

#ifndef XQ_SHARED
#define XQ_SHARED "../shared"
#endif
#define TD XQ_SHARED "/corpus/cchess-testdata/"
#define SPEC XQ_SHARED "/corpus/xqf-spec/"

/* ---- helpers ------------------------------------------------------------ */

/* One game from bytes (through a temporary file). */
static void read_bytes(const void *p, size_t n, xq_game *g)
{
    char path[64];
    save_tmp(p, n, path);
    xq_game two[2];
    assert_int_equal(read_path(path, two, 2, NULL), 1);
    *g = two[0];
    unlink(path);
}

/* Same trees: texts, comments, variations. */
static void assert_same_branch(const xq_branch *a, const xq_branch *b)
{
    assert_int_equal(a->count, b->count);
    if (a->comment || b->comment) {
        assert_non_null(a->comment);
        assert_non_null(b->comment);
        assert_string_equal(a->comment, b->comment);
    }
    for (size_t i = 0; i < a->count; i++) {
        const xq_node *x = &a->nodes[i], *y = &b->nodes[i];
        assert_string_equal(x->text, y->text);
        if (x->comment || y->comment) {
            assert_non_null(x->comment);
            assert_non_null(y->comment);
            assert_string_equal(x->comment, y->comment);
        }
        assert_int_equal(x->variation_count, y->variation_count);
        for (uint32_t v = 0; v < x->variation_count; v++) assert_same_branch(&x->variations[v], &y->variations[v]);
    }
}

static void assert_same_game(const xq_game *a, const xq_game *b, bool tags)
{
    assert_same_branch(&a->main, &b->main);
    if (a->fen || b->fen) {
        assert_non_null(a->fen);
        assert_non_null(b->fen);
        assert_string_equal(a->fen, b->fen);
    }
    if (!tags) return;
    assert_int_equal(a->tag_count, b->tag_count);
    for (size_t i = 0; i < a->tag_count; i++) {
        assert_string_equal(a->tags[i].name, b->tags[i].name);
        assert_string_equal(a->tags[i].value, b->tags[i].value);
    }
}

static bool has_diag(const xq_game *g, xq_severity sev, uint64_t offset, const char *part)
{
    for (size_t i = 0; i < g->diag_count; i++)
        if (g->diags[i].severity == sev && g->diags[i].offset == offset && strstr(g->diags[i].msg, part)) return true;
    for (size_t i = 0; i < g->diag_count; i++)
        fprintf(stderr, "  have: %s @%llu %s\n", g->diags[i].severity ? "warning" : "error",
                (unsigned long long)g->diags[i].offset, g->diags[i].msg);
    return false;
}

/* ---- the corpus ------------------------------------------------------------ */

/* test1.xqf (version 10, plain) and test.xqf (version 18, encrypted) hold
 * the same game; test1_move.txt lists its moves in Chinese. */
static void test_versions_10_and_18(void **state)
{
    (void)state;
    xq_game a[2], b[2];
    xq_format fmt;
    assert_int_equal(read_path(TD "test1.xqf", a, 2, &fmt), 1);
    assert_int_equal(fmt, XQ_FMT_XQF);
    assert_int_equal(read_path(TD "test.xqf", b, 2, NULL), 1);
    assert_int_equal(a[0].main.count, 110);
    /* the same moves and comments, except that test1.xqf's last comment
     * carries an advert after the text */
    const char *last1 = a[0].main.nodes[109].comment, *last = b[0].main.nodes[109].comment;
    assert_int_equal(strncmp(last1, last, strlen(last)), 0);
    assert_non_null(strstr(last1 + strlen(last), "elephantbase"));
    a[0].main.nodes[109].comment = last;
    assert_same_branch(&a[0].main, &b[0].main);
    assert_null(a[0].fen);
    assert_int_equal(a[0].diag_count, 0);
    assert_int_equal(b[0].diag_count, 0);
    assert_string_equal(xq_game_tag(&a[0], "Red"), "柳大华");
    assert_string_equal(xq_game_tag(&a[0], "Black"), "吕  钦");
    assert_string_equal(xq_game_tag(&a[0], "Date"), "1997年11月16日");
    assert_string_equal(xq_game_tag(&a[0], "Site"), "北京");
    assert_string_equal(xq_game_tag(&a[0], "Result"), "0-1");
    assert_null(xq_game_tag(&a[0], "Event"));
    assert_string_equal(xq_game_tag(&b[0], "Title"), "仙人指路对起马局");
    assert_string_equal(xq_game_tag(&b[0], "Event"), "\"中立杯\"象棋电视快棋赛");
    assert_string_equal(xq_game_tag(&b[0], "Author"), "过河象");
    tally t = tally_of(&a[0]);
    assert_int_equal(t.comments, 11);
    assert_int_equal(t.variations, 0);
    assert_int_equal(a[0].raw_len, 5898);
    assert_int_equal(b[0].raw_len, 5376);
    assert_int_equal(a[0].offset, 0);
    assert_int_equal(a[0].encoding, XQ_ENC_UTF8);
    assert_int_equal(memcmp(a[0].raw, "XQ\x0a", 3), 0);

    /* the Chinese move list of test1_move.txt, decoded on the board */
    size_t n;
    unsigned char *txt = load(TD "test1_move.txt", &n);
    txt[n] = 0;
    char *save = NULL, *lineptr = strtok_r((char *)txt, "\r\n", &save);
    xq_position pos;
    assert_true(xq_fen_read(&pos, lineptr, NULL, 0));
    size_t ply = 0;
    for (lineptr = strtok_r(NULL, "\r\n", &save); lineptr; lineptr = strtok_r(NULL, "\r\n", &save)) {
        size_t len = strlen(lineptr);
        while (len && lineptr[len - 1] == ' ') len--;
        if (ply == a[0].main.count) {
            assert_int_equal(strncmp(lineptr, "黑胜", len), 0);   /* the result line */
            break;
        }
        xq_note_result res;
        assert_int_equal(xq_move_read(&pos, lineptr, len, XQ_NOTATION_CHINESE, 0, &res, NULL, 0), XQ_NOTE_OK);
        assert_int_equal(res.move, a[0].main.nodes[ply].move);
        xq_undo u;
        xq_make(&pos, res.move, &u);
        ply++;
    }
    assert_int_equal(ply, 110);
    free(txt);
    xq_game_free(&a[0]);
    xq_game_free(&b[0]);
}

/* XQStudio ends every comment with "\r\n", its line end: the reader drops
 * that one and no more, so a comment that ends with an empty line
 * (test1.xqf and test.xqf: "...内有隐忧了。\r\n\r\n") keeps its line break
 * and the others end with their text. */
static void test_comment_line_end(void **state)
{
    (void)state;
    static const char *const FILES[] = {TD "test1.xqf", TD "test.xqf"};
    for (size_t f = 0; f < 2; f++) {
        xq_game a[2];
        assert_int_equal(read_path(FILES[f], a, 2, NULL), 1);
        size_t with_break = 0, comments = 0;
        for (size_t i = 0; i < a[0].main.count; i++) {
            const char *c = a[0].main.nodes[i].comment;
            if (!c) continue;
            comments++;
            size_t n = strlen(c);
            assert_true(n > 0);
            assert_int_not_equal(c[n - 1], '\r');
            if (c[n - 1] != '\n') continue;
            with_break++;
            assert_true(n >= 2 && c[n - 2] != '\n');
            assert_non_null(strstr(c, "内有隐忧了。\n"));
        }
        assert_int_equal(comments, 10);   /* and the game comment */
        assert_int_equal(with_break, 1);
        xq_game_free(&a[0]);
    }
    /* made-up records: no line end, one, two, a lone line end */
    static const struct { const char *bytes, *text; } C[] = {
        {"x", "x"}, {"x\r\n", "x"}, {"x\r\n\r\n", "x\n"}, {"a\r\nb\r\n", "a\nb"}, {"\r\n", NULL},
        {"\r\n\r\n", "\n"}, {"x\n", "x"}, {"x\r", "x\r"},
    };
    for (size_t i = 0; i < sizeof C / sizeof *C; i++) {
        unsigned char f[0x400 + 8 + 8 + 16] = {'X', 'Q', 10};
        for (int k = 0; k < 32; k++) f[0x10 + k] = 0xFF;
        f[0x10 + 4] = 40;    /* red general e0 */
        f[0x10 + 20] = 49;   /* black general e9 */
        f[0x10 + 0] = 0;     /* red chariot a0 */
        f[0x40] = 3;
        size_t at = 0x400, n = strlen(C[i].bytes);
        memcpy(f + at, "\x18\x20\xF0\xFF\0\0\0\0", 8);   /* the root, no comment */
        at += 8;
        unsigned char rec[8] = {0x18 + 0, 0x20 + 1, 0, 0, (unsigned char)n, 0, 0, 0};   /* a0-a1 */
        memcpy(f + at, rec, 8);
        memcpy(f + at + 8, C[i].bytes, n);
        xq_game g;
        read_bytes(f, at + 8 + n, &g);
        assert_int_equal(g.main.count, 1);
        if (C[i].text) assert_string_equal(g.main.nodes[0].comment, C[i].text);
        else assert_null(g.main.nodes[0].comment);
        xq_game_free(&g);
    }
}

/* xqf-spec/SAMPLE.XQF and the PGN XQStudio made of it: same tags, start
 * position, moves and comments. */
static void test_sample_against_pgn(void **state)
{
    (void)state;
    xq_game x[2], p[2];
    assert_int_equal(read_path(SPEC "SAMPLE.XQF", x, 2, NULL), 1);
    assert_int_equal(read_path(SPEC "SAMPLE.PGN", p, 2, NULL), 1);
    assert_int_equal(x[0].diag_count, 0);
    static const char *const tags[] = {"Event", "Date", "Site", "Red", "Black", "Result"};
    for (size_t i = 0; i < 6; i++) assert_string_equal(xq_game_tag(&x[0], tags[i]), xq_game_tag(&p[0], tags[i]));
    assert_string_equal(x[0].fen, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w - - 0 1");
    xq_replay_options ro;
    xq_replay_options_default(&ro);
    xq_replay rx, rp;
    xq_replay_game(&x[0], &ro, &rx);
    xq_replay_game(&p[0], &ro, &rp);
    assert_int_equal(rx.status, XQ_STATUS_VALID);
    assert_int_equal(rp.status, XQ_STATUS_VALID);
    assert_int_equal(x[0].main.count, 75);
    assert_int_equal(x[0].main.count, p[0].main.count);
    assert_string_equal(x[0].main.comment, p[0].main.comment);
    for (size_t i = 0; i < x[0].main.count; i++) {
        assert_int_equal(x[0].main.nodes[i].move, p[0].main.nodes[i].move);
        const char *a = x[0].main.nodes[i].comment, *b = p[0].main.nodes[i].comment;
        assert_true((a == NULL) == (b == NULL));
        if (a) assert_string_equal(a, b);
    }
    assert_int_equal(rx.result_board, rp.result_board);
    xq_game_free(&x[0]);
    xq_game_free(&p[0]);
}

/* Variation trees, their counts (walker's test values: 5, 6 and 139
 * lines) and legality of every line. */
static void test_variation_trees(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        size_t main, moves, variations, comments, depth, bad;
    } F[] = {
        {"test_5_variations.xqf", 6, 24, 4, 0, 2, 0},
        {"game_varations.xqf", 8, 24, 5, 0, 2, 0},
        /* one variation of WildHouse has an illegal move (walker's test
         * leaves verify_moves out for it) */
        {"WildHouse.xqf", 65, 1679, 138, 203, 5, 1},
        {"FiveGoatsTest.xqf", 77, 32124, 348, 51, 7, 0},
        {"BadMoveTest2.xqf", 35, 39, 1, 3, 1, 0},
        {"UnitTest.xqf", 5, 19, 2, 3, 1, 0},
        {"ucci_test2.xqf", 7, 33, 4, 1, 2, 0},
    };
    for (size_t i = 0; i < sizeof F / sizeof F[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, TD "%s", F[i].file);
        xq_game g[2];
        assert_int_equal(read_path(path, g, 2, NULL), 1);
        tally t = tally_of(&g[0]);
        assert_int_equal(g[0].main.count, F[i].main);
        assert_int_equal(t.moves, F[i].moves);
        assert_int_equal(t.variations, F[i].variations);
        assert_int_equal(t.comments, F[i].comments);
        assert_int_equal(t.depth, F[i].depth);
        assert_int_equal(bad_lines_game(&g[0], NULL, true), F[i].bad);
        assert_int_equal(g[0].diag_count, 0);
        xq_game_free(&g[0]);
    }

    /* walker's five lines of test_5_variations.xqf, in Chinese */
    static const char *const lines[5] = {
        "炮二平五,炮８平５,马二进三,马８进７,兵三进一,车９平８",
        "炮二平五,炮８平５,马二进三,马８进７,车一平二,车９进１,车二进六,车９平４",
        "炮二平五,炮８平５,马二进三,马８进７,车一平二,卒７进１,兵七进一,车９进１",
        "炮二平五,炮８平５,马二进三,马８进７,车一进一,车９平８,车一平六,马２进３,马八进七,卒３进１",
        "炮二平六,马８进７,马二进三,车９平８,车一平二",
    };
    xq_game g[2];
    assert_int_equal(read_path(TD "test_5_variations.xqf", g, 2, NULL), 1);
    /* every root-to-leaf line: follow the main line, branching into each variation */
    bool found[5] = {false};
    int leaves = 0;
    struct { const xq_branch *b; size_t i; char text[512]; xq_position pos; } stack[32];
    int sp = 0;
    stack[0].b = &g[0].main;
    stack[0].i = 0;
    stack[0].text[0] = 0;
    xq_position_start(&stack[0].pos);
    sp = 1;
    while (sp) {
        sp--;
        const xq_branch *b = stack[sp].b;
        size_t i = stack[sp].i;
        char text[512];
        strcpy(text, stack[sp].text);
        xq_position pos = stack[sp].pos;
        for (; i < b->count; i++) {
            const xq_node *n = &b->nodes[i];
            for (uint32_t v = 0; v < n->variation_count; v++) {
                assert_true(sp < 32);
                stack[sp].b = &n->variations[v];
                stack[sp].i = 0;
                strcpy(stack[sp].text, text);
                stack[sp].pos = pos;
                sp++;
            }
            char mv[XQ_NOTATION_MAX];
            xq_move m = XQ_MOVE(XQ_FROM(n->move), XQ_TO(n->move));
            assert_true(xq_move_write(&pos, m, XQ_NOTATION_CHINESE, XQ_WRITE_PAWNS_WALKER, mv, sizeof mv) > 0);
            size_t k = strlen(text);
            snprintf(text + k, sizeof text - k, "%s%s", k ? "," : "", mv);
            xq_undo u;
            xq_make(&pos, m, &u);
        }
        leaves++;
        for (int l = 0; l < 5; l++)
            if (!strcmp(text, lines[l])) found[l] = true;
    }
    assert_int_equal(leaves, 5);
    for (int l = 0; l < 5; l++) assert_true(found[l]);
    xq_game_free(&g[0]);
}

/* Endgame files (version 16): the start FEN of ucci_test1_move.txt and
 * its moves; files without moves; the header strings of UnitTest.xqf. */
static void test_positions_and_tags(void **state)
{
    (void)state;
    xq_game g[2];
    assert_int_equal(read_path(TD "ucci_test1.xqf", g, 2, NULL), 1);
    assert_string_equal(g[0].fen, "2b1kabn1/4aR3/3R2N2/4p1p2/5P3/4P4/3N2Pr1/4C1n2/3pAr3/4K3c w - - 0 1");
    assert_int_equal(g[0].main.count, 43);
    assert_string_equal(xq_game_tag(&g[0], "Title"), "第006局 蝇垂骥尾");
    assert_string_equal(xq_game_tag(&g[0], "Result"), "1-0");
    size_t n;
    unsigned char *txt = load(TD "ucci_test1_move.txt", &n);
    txt[n] = 0;
    char *save = NULL, *l = strtok_r((char *)txt, "\r\n", &save);
    xq_position pos;
    assert_true(xq_fen_read(&pos, l, NULL, 0));
    for (size_t i = 0; i < 43; i++) {
        l = strtok_r(NULL, "\r\n", &save);
        assert_non_null(l);
        size_t len = strlen(l);
        while (len && l[len - 1] == ' ') len--;
        xq_note_result res;
        assert_int_equal(xq_move_read(&pos, l, len, XQ_NOTATION_CHINESE, 0, &res, NULL, 0), XQ_NOTE_OK);
        assert_int_equal(res.move, g[0].main.nodes[i].move);
        xq_undo u;
        xq_make(&pos, res.move, &u);
    }
    free(txt);
    xq_game_free(&g[0]);

    assert_int_equal(read_path(TD "NoMove.xqf", g, 2, NULL), 1);
    assert_int_equal(g[0].main.count, 0);
    assert_int_equal(g[0].tag_count, 1);   /* Result "*" */
    assert_string_equal(xq_game_tag(&g[0], "Result"), "*");
    assert_int_equal(g[0].diag_count, 0);
    assert_null(g[0].fen);
    xq_game_free(&g[0]);

    assert_int_equal(read_path(TD "EmptyTest.xqf", g, 2, NULL), 1);
    assert_int_equal(g[0].main.count, 0);
    assert_string_equal(xq_game_tag(&g[0], "TimeControl"), "30-10-60");
    assert_string_equal(xq_game_tag(&g[0], "Red"), "雅趣居士(日帅)");
    assert_string_equal(xq_game_tag(&g[0], "Result"), "0-1");
    xq_game_free(&g[0]);

    assert_int_equal(read_path(TD "UnitTest.xqf", g, 2, NULL), 1);
    static const char *const want[][2] = {
        {"Event", "比赛名称"}, {"Date", "比赛日期"},     {"Site", "比赛地点"},      {"Red", "红方棋手"},
        {"Black", "黑方棋手"}, {"Result", "1/2-1/2"},    {"Title", "标题"},         {"TimeControl", "用时规则"},
        {"RedTime", "红方用时"}, {"BlackTime", "黑方用时"}, {"Annotator", "棋谱讲评"}, {"Author", "文件作者"},
    };
    assert_int_equal(g[0].tag_count, 12);
    for (size_t i = 0; i < 12; i++) {
        assert_string_equal(g[0].tags[i].name, want[i][0]);
        assert_string_equal(g[0].tags[i].value, want[i][1]);
    }
    xq_game_free(&g[0]);
}

/* The broken files: BadMoveTest3 has an illegal 10th ply; the others
 * replay; game_test.xqf has one bad GBK sequence in a comment. */
static void test_broken_files(void **state)
{
    (void)state;
    xq_replay_options ro;
    xq_replay_options_default(&ro);
    static const struct { const char *file; xq_status status; int bad_ply; size_t diags; } F[] = {
        {"BadMoveTest1.xqf", XQ_STATUS_VALID, 0, 0},
        {"BadMoveTest2.xqf", XQ_STATUS_VALID, 0, 0},
        {"BadMoveTest3.xqf", XQ_STATUS_ILLEGAL, 10, 0},
        {"BadMoveTest4.xqf", XQ_STATUS_VALID, 0, 0},
        {"game_test.xqf", XQ_STATUS_VALID, 0, 1},
    };
    for (size_t i = 0; i < sizeof F / sizeof F[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, TD "%s", F[i].file);
        xq_game g[2];
        assert_int_equal(read_path(path, g, 2, NULL), 1);
        xq_replay r;
        xq_replay_game(&g[0], &ro, &r);
        assert_int_equal(r.status, F[i].status);
        assert_int_equal(r.bad_ply, F[i].bad_ply);
        assert_int_equal(g[0].diag_count, F[i].diags);
        if (F[i].bad_ply) {
            assert_string_equal(r.bad_move, "e1f0");
            assert_non_null(strstr(r.reason, "no piece"));
        }
        if (F[i].diags) assert_true(has_diag(&g[0], XQ_SEV_WARNING, 1032, "invalid GBK"));
        xq_game_free(&g[0]);
    }
}

/* ---- damage -------------------------------------------------------------------- */

/* Cut copies of a version-10 and a version-18 file: exact diagnostics at
 * chosen places, and no crash at any length. */
static void test_cut_files(void **state)
{
    (void)state;
    size_t n10, n18;
    unsigned char *v10 = load(TD "test1.xqf", &n10), *v18 = load(TD "test.xqf", &n18);
    xq_game g;

    read_bytes(v10, 1000, &g);
    assert_true(has_diag(&g, XQ_SEV_ERROR, 1000, "shorter than its 1024-byte header"));
    assert_int_equal(g.main.count, 0);
    xq_game_free(&g);

    read_bytes(v18, 1024, &g);
    assert_true(has_diag(&g, XQ_SEV_ERROR, 1024, "file ends at byte 1024 where a move record was announced"));
    xq_game_free(&g);

    read_bytes(v18, 1026, &g);
    assert_true(has_diag(&g, XQ_SEV_ERROR, 1024, "cut by the end of the file (2 of 4 bytes)"));
    xq_game_free(&g);

    /* version 10: the root record is 8 bytes, its comment 0x1b8 bytes */
    read_bytes(v10, 1040, &g);
    assert_true(has_diag(&g, XQ_SEV_ERROR, 1028, "comment length at byte 1028 is 440, but 8 bytes are left"));
    assert_null(g.main.comment);
    xq_game_free(&g);

    /* cut in the middle of the moves: the moves before the cut are kept */
    read_bytes(v10, n10 - 100, &g);
    assert_true(g.diag_count == 1 && g.diags[0].severity == XQ_SEV_ERROR);
    assert_true(g.main.count > 50 && g.main.count < 110);
    assert_int_equal(bad_lines_game(&g, NULL, true), 0);
    xq_game_free(&g);

    for (size_t len = 3; len <= n18; len += len < 1100 ? 1 : 7) {
        read_bytes(v18, len, &g);
        if (len < n18) assert_true(xq_game_count_diags(&g, XQ_SEV_ERROR) >= 1);
        else assert_int_equal(g.diag_count, 0);
        xq_game_free(&g);
    }
    for (size_t len = 1024; len <= n10; len += 3) {
        read_bytes(v10, len, &g);
        xq_game_free(&g);
    }
    free(v10);
    free(v18);
}

/* Corrupted bytes: a comment length past the end, a square off the board,
 * pieces on one square, a bad result byte; random bytes everywhere. */
static void test_corrupt_files(void **state)
{
    (void)state;
    size_t n;
    unsigned char *v10 = load(TD "test1.xqf", &n);
    unsigned char *buf = malloc(n);
    xq_game g;

    memcpy(buf, v10, n);
    buf[1028] = 0xFF, buf[1029] = 0xFF, buf[1030] = 0xFF, buf[1031] = 0x7F;
    read_bytes(buf, n, &g);
    assert_true(has_diag(&g, XQ_SEV_ERROR, 1028, "is 2147483647, but"));
    assert_int_equal(g.main.count, 0);
    xq_game_free(&g);

    /* the first move's from-square: 0x18 + 95 */
    memcpy(buf, v10, n);
    size_t first = 1024 + 8 + 440;
    buf[first] = 0x18 + 95;
    read_bytes(buf, n, &g);
    assert_true(has_diag(&g, XQ_SEV_ERROR, first, "square out of the board"));
    assert_int_equal(g.main.count, 0);
    xq_game_free(&g);

    /* two pieces on one square; a result byte of 9 */
    memcpy(buf, v10, n);
    buf[0x10 + 1] = buf[0x10];
    buf[0x33] = 9;
    read_bytes(buf, n, &g);
    assert_true(has_diag(&g, XQ_SEV_ERROR, 0x11, "a square already taken"));
    assert_true(has_diag(&g, XQ_SEV_WARNING, 0x33, "result byte"));
    assert_string_equal(xq_game_tag(&g, "Result"), "*");
    xq_game_free(&g);

    /* a full game (type 0) whose piece array is all zero: the standard
     * start, as ElephantEye reads it */
    memcpy(buf, v10, n);
    memset(buf + 0x10, 0, 32);
    buf[0x40] = 0;
    read_bytes(buf, n, &g);
    assert_true(has_diag(&g, XQ_SEV_WARNING, 0x10, "starts from the standard position"));
    assert_int_equal(g.diag_count, 1);
    assert_null(g.fen);
    assert_int_equal(g.main.count, 110);
    assert_int_equal(bad_lines_game(&g, NULL, true), 0);
    xq_game_free(&g);

    /* a Pascal string longer than its field */
    memcpy(buf, v10, n);
    buf[0x130] = 40;
    read_bytes(buf, n, &g);
    assert_true(has_diag(&g, XQ_SEV_WARNING, 0x130, "does not fit its 16-byte field"));
    xq_game_free(&g);

    /* not "XQ" (read as XQF only when forced) */
    memcpy(buf, v10, n);
    buf[0] = 'Y';
    char path[64];
    save_tmp(buf, n, path);
    xq_read_options opt = {.format = XQ_FMT_XQF};
    char err[256];
    xq_reader *r = xq_reader_open(path, &opt, err, sizeof err);
    assert_non_null(r);
    xq_game_init(&g);
    assert_int_equal(xq_reader_next(r, &g), 1);
    assert_true(has_diag(&g, XQ_SEV_ERROR, 0, "not an XQF file"));
    assert_int_equal(xq_reader_next(r, &g), 0);
    xq_reader_close(r);
    xq_game_free(&g);
    unlink(path);

    /* random damage to both versions: never a crash */
    size_t n18;
    unsigned char *v18 = load(TD "WildHouse.xqf", &n18);
    unsigned char *b18 = malloc(n18);
    unsigned seed = 12345;
    for (int round = 0; round < 400; round++) {
        const unsigned char *src = round & 1 ? v18 : v10;
        size_t len = round & 1 ? n18 : n;
        unsigned char *dst = round & 1 ? b18 : buf;
        memcpy(dst, src, len);
        for (int k = 0; k < 1 + round % 8; k++) {
            seed = seed * 1103515245u + 12345u;
            size_t at = (seed >> 8) % len;
            seed = seed * 1103515245u + 12345u;
            dst[at] = (unsigned char)(seed >> 16);
        }
        dst[0] = 'X', dst[1] = 'Q';
        if (dst[2] >= 0x20) dst[2] = 18;
        read_bytes(dst, len, &g);
        xq_replay rp;
        xq_replay_options ro;
        xq_replay_options_default(&ro);
        xq_replay_game(&g, &ro, &rp);
        xq_game_free(&g);
    }
    free(b18);
    free(v18);
    free(buf);
    free(v10);
}

/* A gzip bomb: 40 MiB of version-10 move records, each "the line goes
 * on".  Only 32 MiB are read, and only XQ_MAX_RECORD_MOVES moves kept. */
static void test_limits(void **state)
{
    (void)state;
    size_t n;
    unsigned char *v10 = load(TD "test1.xqf", &n);
    char path[64];
    strcpy(path, "/tmp/xq-test-xqf-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    gzFile gz = gzdopen(fd, "wb");
    v10[0x400 + 2] = 0xF0;   /* the root: a next move */
    memset(v10 + 0x404, 0, 4);
    assert_int_equal(gzwrite(gz, v10, 0x408), 0x408);
    static unsigned char rec[8 * 4096];
    for (size_t i = 0; i < sizeof rec; i += 8) {
        rec[i] = 0x18 + 0, rec[i + 1] = 0x20 + 1, rec[i + 2] = 0xF0;   /* a0a1 and on */
    }
    for (int i = 0; i < 40 * 32; i++) assert_int_equal(gzwrite(gz, rec, sizeof rec), (int)sizeof rec);
    gzclose(gz);
    xq_game g[2];
    assert_int_equal(read_path(path, g, 2, NULL), 1);
    unlink(path);
    assert_true(has_diag(&g[0], XQ_SEV_ERROR, XQ_MAX_RECORD_BYTES, "XQF file longer than 32 MiB"));
    assert_true(has_diag(&g[0], XQ_SEV_ERROR, 0x400 + 8 + 8 * (size_t)XQ_MAX_RECORD_MOVES, "more than 1048576 moves"));
    assert_int_equal(g[0].main.count, XQ_MAX_RECORD_MOVES);
    assert_int_equal(g[0].raw_len, XQ_MAX_RECORD_BYTES);
    xq_game_free(&g[0]);
    free(v10);
}

/* Version 11: the piece rotation is decided by the position it gives. */
static void test_version_11(void **state)
{
    (void)state;
    static const char *const files[] = {"WildHouse.xqf", "030-黄松轩先胜冯敬如.XQF"};
    for (size_t f = 0; f < 2; f++) {
        char path[512];
        snprintf(path, sizeof path, TD "%s", files[f]);
        size_t n;
        unsigned char *v18 = load(path, &n);
        xq_game ref;
        read_bytes(v18, n, &ref);
        unsigned char b13 = v18[13];
        unsigned kxy = (unsigned)((54u * b13 * b13 + 221u) * b13) & 255u;

        /* stored rotated (as version 12+), labelled 11 */
        unsigned char *v11 = malloc(n);
        memcpy(v11, v18, n);
        v11[2] = 11;
        xq_game g;
        read_bytes(v11, n, &g);
        assert_same_game(&ref, &g, true);
        assert_int_equal(g.diag_count, 0);
        xq_game_free(&g);

        /* stored without the rotation */
        for (unsigned i = 0; i < 32; i++) v11[0x10 + (kxy + 1 + i) % 32] = v18[0x10 + i];
        read_bytes(v11, n, &g);
        assert_same_game(&ref, &g, true);
        assert_int_equal(g.diag_count, 0);
        xq_game_free(&g);
        xq_game_free(&ref);
        free(v11);
        free(v18);
    }
}

/* ---- the XQF writer ---------------------------------------------------------------- */

/* Write g as XQF 10 and read it back. */
static void write_and_read(xq_game *g, xq_game *back, xq_write_report *rep)
{
    xq_replay_options ro;
    xq_replay_options_default(&ro);
    xq_replay r;
    xq_replay_game(g, &ro, &r);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    xq_write_options wo = {.format = XQ_OUT_XQF};
    xq_write_game(out, g, &r, &wo, rep);
    fclose(out);
    assert_true(len >= 1024 + 8);
    assert_int_equal(buf[2], 10);
    read_bytes(buf, len, back);
    free(buf);
}

/* XQF -> model -> XQF 10 -> model gives the same game, for every corpus
 * file; writing it again gives the same bytes. */
static void test_round_trip(void **state)
{
    (void)state;
    static const char *const files[] = {
        TD "test1.xqf",      TD "test.xqf",           TD "test_5_variations.xqf", TD "game_varations.xqf",
        TD "FiveGoatsTest.xqf",  TD "BadMoveTest1.xqf",      TD "BadMoveTest2.xqf",
        TD "BadMoveTest4.xqf", TD "UnitTest.xqf",     TD "ucci_test1.xqf",        TD "ucci_test2.xqf",
        TD "ucci_test3.xqf", TD "pawn_move.xqf",      TD "save.xqf",              TD "NoMove.xqf",
        TD "EmptyTest.xqf",  TD "030-黄松轩先胜冯敬如.XQF", SPEC "SAMPLE.XQF",   SPEC "XQFEXAMB.XQF",
    };
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        xq_game g[2], back, again;
        assert_int_equal(read_path(files[f], g, 2, NULL), 1);
        xq_write_report rep;
        write_and_read(&g[0], &back, &rep);
        if (rep.why[0]) fprintf(stderr, "%s: %s\n", files[f], rep.why);
        assert_int_equal(rep.why[0], 0);
        assert_same_game(&g[0], &back, true);
        assert_int_equal(back.diag_count, 0);
        write_and_read(&back, &again, &rep);
        assert_int_equal(back.raw_len, again.raw_len);
        assert_int_equal(memcmp(back.raw, again.raw, back.raw_len), 0);
        xq_game_free(&again);
        xq_game_free(&back);
        xq_game_free(&g[0]);
    }
}

/* A variation with an illegal move: the line is written up to it, and the
 * report says so. */
static void test_round_trip_untranslated(void **state)
{
    (void)state;
    xq_game g[2], back;
    assert_int_equal(read_path(TD "WildHouse.xqf", g, 2, NULL), 1);
    xq_write_report rep;
    write_and_read(&g[0], &back, &rep);
    assert_non_null(strstr(rep.why, "variation at ply 74 (e7f7): no piece on e7"));
    tally a = tally_of(&g[0]), b = tally_of(&back);
    assert_true(rep.untranslated > 0);
    assert_int_equal(b.moves, a.moves - rep.untranslated);
    assert_int_equal(bad_lines_game(&back, NULL, true), 0);
    assert_int_equal(back.main.count, g[0].main.count);
    xq_game_free(&back);
    xq_game_free(&g[0]);
}

/* PGN -> XQF: what XQF cannot hold (NAGs, a variation's leading comment,
 * long names) and a Black-to-move start. */
static void test_write_from_pgn(void **state)
{
    (void)state;
    const char *pgn =
        "[Game \"Chinese Chess\"]\n[Event \"E\"]\n[Red \"一二三四五六七八九\"]\n[Result \"1-0\"]\n"
        "[FEN \"4k4/9/9/9/9/9/9/9/4A4/3AK4 b - - 0 1\"]\n"
        "{start} 1... 将5平4 $1 {c1} (1... 将5进1 {c2} (1... 将5平6)) 2. 帅五平四 1-0\n";
    char path[64];
    save_tmp(pgn, strlen(pgn), path);
    xq_game g[2];
    assert_int_equal(read_path(path, g, 2, NULL), 1);
    unlink(path);
    xq_game back;
    xq_write_report rep;
    write_and_read(&g[0], &back, &rep);
    assert_non_null(strstr(rep.why, "Red"));   /* 18 bytes of GBK in a 15-byte field */
    assert_string_equal(back.fen, "4k4/9/9/9/9/9/9/9/4A4/3AK4 b - - 0 1");
    assert_string_equal(xq_game_tag(&back, "Event"), "E");
    assert_string_equal(xq_game_tag(&back, "Red"), "一二三四五六七");
    assert_string_equal(xq_game_tag(&back, "Result"), "1-0");
    assert_string_equal(back.main.comment, "start");
    assert_int_equal(back.main.count, 2);
    assert_string_equal(back.main.nodes[0].text, "e9d9");
    assert_string_equal(back.main.nodes[0].comment, "c1");
    assert_int_equal(back.main.nodes[0].variation_count, 2);   /* nested alternatives: one level */
    assert_string_equal(back.main.nodes[0].variations[0].nodes[0].text, "e9e8");
    assert_string_equal(back.main.nodes[0].variations[0].nodes[0].comment, "c2");
    assert_string_equal(back.main.nodes[0].variations[1].nodes[0].text, "e9f9");
    xq_game_free(&back);

    /* no moves, Black to move: WhoPlay keeps the side */
    const char *pgn2 = "[Game \"Chinese Chess\"]\n[FEN \"4k4/9/9/9/9/9/9/9/4A4/3AK4 b - - 0 1\"]\n*\n";
    save_tmp(pgn2, strlen(pgn2), path);
    xq_game_free(&g[0]);
    assert_int_equal(read_path(path, g, 2, NULL), 1);
    unlink(path);
    write_and_read(&g[0], &back, &rep);
    assert_string_equal(back.fen, "4k4/9/9/9/9/9/9/9/4A4/3AK4 b - - 0 1");
    xq_game_free(&back);
    xq_game_free(&g[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_versions_10_and_18),
        cmocka_unit_test(test_comment_line_end),
        cmocka_unit_test(test_sample_against_pgn),
        cmocka_unit_test(test_variation_trees),
        cmocka_unit_test(test_positions_and_tags),
        cmocka_unit_test(test_broken_files),
        cmocka_unit_test(test_cut_files),
        cmocka_unit_test(test_corrupt_files),
        cmocka_unit_test(test_version_11),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_round_trip_untranslated),
        cmocka_unit_test(test_write_from_pgn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
