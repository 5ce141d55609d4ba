/* test_pgn_read.c - PGN-style text to game records (formats.md §1e). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

#include "pgn_read.h"

#define DATA "tests/data/"

#ifndef XQ_SHARED
#define XQ_SHARED "../shared"
#endif

/* ---- helpers ---------------------------------------------------------- */

/* Open a reader on a temporary file holding text[0..n) (n = -1: strlen). */
static xq_reader *open_text(const char *text, long n, xq_encoding enc)
{
    char path[64];
    save_tmp(text, n < 0 ? strlen(text) : (size_t)n, path);
    xq_read_options opt = {.encoding = enc};
    char err[256];
    xq_reader *r = xq_reader_open(path, &opt, err, sizeof err);
    unlink(path);
    assert_non_null(r);
    return r;
}

static const xq_node *node(const xq_game *g, size_t i)
{
    assert_true(i < g->main.count);
    return &g->main.nodes[i];
}

static void assert_node(const xq_node *n, const char *text, uint32_t line, uint32_t col,
                        uint32_t number)
{
    assert_string_equal(n->text, text);
    assert_int_equal(n->line, line);
    assert_int_equal(n->col, col);
    assert_int_equal(n->number, number);
    assert_int_equal(n->move, XQ_MOVE_NONE);
}

/* Read every record of r into games[] (each initialised here). */
static int read_all(xq_reader *r, xq_game *games, int max)
{
    int n = 0;
    for (;;) {
        assert_true(n < max);
        xq_game_init(&games[n]);
        int rc = xq_reader_next(r, &games[n]);
        assert_true(rc >= 0);
        if (rc == 0) {
            xq_game_free(&games[n]);
            return n;
        }
        n++;
    }
}

/* ---- real layouts ----------------------------------------------------- */

/* CCPD layout in Big5 (fixture with `\` and `}` trail bytes). */
static void check_big5_games(const char *path)
{
    char err[256];
    xq_reader *r = xq_reader_open(path, NULL, err, sizeof err);
    assert_non_null(r);
    xq_game g[4];
    assert_int_equal(read_all(r, g, 4), 2);
    assert_int_equal(xq_reader_encoding(r), XQ_ENC_BIG5);
    assert_int_equal(xq_reader_format(r), XQ_FMT_PGN);
    xq_reader_close(r);

    assert_int_equal(g[0].index, 1);
    assert_int_equal(g[0].first_line, 1);
    assert_int_equal(g[0].offset, 0);
    assert_int_equal(g[0].encoding, XQ_ENC_BIG5);
    assert_int_equal(g[0].tag_count, 5);
    assert_string_equal(g[0].tags[1].name, "Event");
    assert_string_equal(g[0].tags[1].value, "許銀川 對 呂欽");
    assert_string_equal(xq_game_tag(&g[0], "red"), "許");
    assert_string_equal(xq_game_tag(&g[0], "BLACK"), "呂欽");
    assert_null(g[0].fen);
    assert_int_equal(g[0].main.count, 5);
    assert_node(node(&g[0], 0), "炮二平五", 7, 4, 1);
    assert_node(node(&g[0], 1), "馬８進７", 7, 9, 0);
    assert_node(node(&g[0], 3), "車９平８", 8, 9, 0);
    assert_string_equal(node(&g[0], 3)->comment, "陣");
    assert_node(node(&g[0], 4), "車一平二", 9, 4, 3);
    assert_string_equal(g[0].result, "1-0");
    assert_int_equal(g[0].result_code, XQ_RESULT_RED);
    assert_int_equal(g[0].diag_count, 0);

    assert_int_equal(g[1].index, 2);
    assert_int_equal(g[1].first_line, 12);
    assert_int_equal(g[1].offset, g[0].raw_len);
    assert_string_equal(g[1].fen,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
    assert_int_equal(g[1].main.count, 3);
    assert_node(node(&g[1], 0), "炮８平５", 17, 9, 1);   /* after "1. ………… " */
    assert_node(node(&g[1], 1), "兵七進一", 18, 4, 2);
    assert_int_equal(g[1].result_code, XQ_RESULT_BLACK);
    assert_int_equal(g[1].diag_count, 0);

    /* raw bytes: the records tile the (decompressed) file exactly */
    size_t n;
    unsigned char *file = load(DATA "big5.pgn", &n);
    assert_int_equal(g[0].raw_len + g[1].raw_len, n);
    assert_memory_equal(g[0].raw, file, g[0].raw_len);
    assert_memory_equal(g[1].raw, file + g[0].raw_len, g[1].raw_len);
    free(file);
    free_all(g, 2);
}

static void test_big5_fixture(void **state)
{
    (void)state;
    check_big5_games(DATA "big5.pgn");
    check_big5_games(DATA "big5.pgn.gz");
}

/* ElephantEye layout in GBK: CRLF, repeated move number, advert. */
static void test_gbk_elephanteye(void **state)
{
    (void)state;
    char err[256];
    xq_reader *r = xq_reader_open(DATA "gbk.pgn", NULL, err, sizeof err);
    assert_non_null(r);
    xq_game g[2];
    assert_int_equal(read_all(r, g, 2), 1);
    assert_int_equal(xq_reader_encoding(r), XQ_ENC_GBK);
    xq_reader_close(r);
    assert_string_equal(xq_game_tag(&g[0], "Event"), "象棋 淺");
    assert_string_equal(xq_game_tag(&g[0], "Red"), "胡荣华");
    assert_int_equal(g[0].main.count, 4);
    assert_node(node(&g[0], 0), "炮二平五", 6, 6, 1);
    assert_node(node(&g[0], 1), "马８进７", 6, 11, 0);
    assert_node(node(&g[0], 2), "马二进三", 7, 6, 2);
    assert_string_equal(node(&g[0], 2)->comment, "　　注释");
    assert_node(node(&g[0], 3), "车９平８", 9, 15, 2);
    assert_string_equal(g[0].result, "*");
    assert_int_equal(g[0].result_code, XQ_RESULT_UNKNOWN);
    /* the advert: one warning at its first line, bytes kept in raw */
    assert_int_equal(g[0].diag_count, 1);
    assert_int_equal(g[0].diags[0].severity, XQ_SEV_WARNING);
    assert_int_equal(g[0].diags[0].line, 11);
    assert_int_equal(g[0].diags[0].col, 1);
    assert_string_equal(g[0].diags[0].msg, "text after the result ignored");
    size_t n;
    unsigned char *file = load(DATA "gbk.pgn", &n);
    assert_int_equal(g[0].raw_len, n);
    assert_memory_equal(g[0].raw, file, n);
    /* offset of line 11: after "...\r\n *\r\n" */
    const unsigned char *l11 = (const unsigned char *)strstr((const char *)file, "=====");
    assert_int_equal(g[0].diags[0].offset, (uint64_t)(l11 - file));
    free(file);
    free_all(g, 1);
}

static void test_bom_crlf(void **state)
{
    (void)state;
    char err[256];
    xq_reader *r = xq_reader_open(DATA "bom.pgn", NULL, err, sizeof err);
    assert_non_null(r);
    xq_game g[2];
    assert_int_equal(read_all(r, g, 2), 1);
    xq_reader_close(r);
    assert_string_equal(g[0].tags[0].name, "Game");
    assert_string_equal(xq_game_tag(&g[0], "Red"), "柳大華");
    assert_int_equal(g[0].main.count, 2);
    assert_node(node(&g[0], 0), "炮二平五", 4, 4, 1);
    assert_node(node(&g[0], 1), "馬８進７", 4, 9, 0);
    assert_string_equal(g[0].result, "*");
    assert_int_equal(g[0].raw_len, 80);
    assert_memory_equal(g[0].raw, "\xef\xbb\xbf[Game", 8);
    free_all(g, 1);
}

/* A Big5 record with an invalid byte: diagnosed, U+FFFD, still read. */
static void test_bad_bytes_diagnosed(void **state)
{
    (void)state;
    xq_reader *r = open_text("[Red \"\xb3\x5c\xff\"]\n1. h2e2 *\n", -1, XQ_ENC_BIG5);
    xq_game g[2];
    assert_int_equal(read_all(r, g, 2), 1);
    xq_reader_close(r);
    assert_string_equal(xq_game_tag(&g[0], "Red"), "許\xef\xbf\xbd");
    assert_int_equal(g[0].diag_count, 1);
    assert_int_equal(g[0].diags[0].severity, XQ_SEV_ERROR);
    assert_int_equal(g[0].diags[0].line, 1);
    assert_int_equal(g[0].diags[0].col, 8);
    assert_int_equal(g[0].diags[0].offset, 8);
    assert_non_null(strstr(g[0].diags[0].msg, "invalid Big5"));
    assert_int_equal(g[0].main.count, 1);
    free_all(g, 1);

    r = open_text("1. h2e2\0 h9g7 *\n", 16, XQ_ENC_AUTO);
    assert_int_equal(read_all(r, g, 2), 1);
    xq_reader_close(r);
    assert_int_equal(g[0].diag_count, 1);
    assert_int_equal(g[0].diags[0].offset, 7);
    assert_int_equal(g[0].diags[0].col, 8);
    assert_non_null(strstr(g[0].diags[0].msg, "NUL"));
    assert_string_equal(node(&g[0], 0)->text, "h2e2\xef\xbf\xbd");
    free_all(g, 1);
}

/* ---- record boundaries ------------------------------------------------ */

static void test_record_boundaries(void **state)
{
    (void)state;
    const char *text =
        "[Game \"Chinese Chess\"]\n"
        "[Event \"only tags\"]\n"
        "[Game \"Chinese Chess\"]\n"          /* repeated tag: record 2 */
        "[event \"second\"]\n"
        "[Red \"a \\\"b\\\" c\\\\d\"]\n"
        "1. h2e2 h9g7\n"
        "[Event \"after moves\"]\n"           /* tag after movetext: record 3 */
        "1 炮二平五 馬8進7\n"
        "\n"
        "[Event \"x\"]\n"                     /* record 4: tags, blank, tags */
        "\n"
        "[Event2 \"y\"]\n";                   /* record 5 */
    xq_reader *r = open_text(text, -1, XQ_ENC_AUTO);
    xq_game g[8];
    assert_int_equal(read_all(r, g, 8), 5);
    xq_reader_close(r);
    assert_int_equal(g[0].tag_count, 2);
    assert_int_equal(g[0].main.count, 0);
    assert_null(g[0].result);
    assert_int_equal(g[1].tag_count, 3);
    assert_string_equal(xq_game_tag(&g[1], "EVENT"), "second");
    assert_string_equal(xq_game_tag(&g[1], "Red"), "a \"b\" c\\d");
    assert_int_equal(g[1].main.count, 2);
    assert_int_equal(g[1].first_line, 3);
    assert_int_equal(g[2].tag_count, 1);
    assert_int_equal(g[2].main.count, 2);
    assert_node(node(&g[2], 0), "炮二平五", 8, 3, 1);
    assert_node(node(&g[2], 1), "馬8進7", 8, 8, 0);
    assert_string_equal(xq_game_tag(&g[3], "Event"), "x");
    assert_string_equal(xq_game_tag(&g[4], "Event2"), "y");
    /* record 1, split by its repeated tag name, says so (split_warn);
     * the other splits are the format's plain reading: no word */
    assert_int_equal(g[0].diag_count, 1);
    assert_int_equal(g[0].diags[0].severity, XQ_SEV_WARNING);
    assert_int_equal(g[0].diags[0].line, 1);
    assert_string_equal(g[0].diags[0].msg, "tags and no moves: the tag [Game] at line 3 repeats one of this "
                                           "record's tags, so it starts the next record");
    size_t total = 0;
    for (int i = 0; i < 5; i++) {
        assert_int_equal(g[i].index, (uint64_t)i + 1);
        assert_int_equal(g[i].diag_count, i == 0 ? 1 : 0);
        assert_int_equal(g[i].offset, total);
        total += g[i].raw_len;
    }
    assert_int_equal(total, strlen(text));
    free_all(g, 5);
}

/* Plain move lists without tags; a list runs to its result, and a new list
 * (move number 1) after a result is a record. */
static void test_plain_lists_and_results(void **state)
{
    (void)state;
    const char *text =
        "1 炮二平五 馬8進7\n2 馬二進三 車9平8\n"
        "1. h2e2 １－０\n"
        "1. h2e2 h9g7 和棋\n"
        "1. h2e2 0-1\n"
        "1. h2e2 1/2-1/2\n";
    xq_reader *r = open_text(text, -1, XQ_ENC_AUTO);
    xq_game g[8];
    assert_int_equal(read_all(r, g, 8), 4);
    xq_reader_close(r);
    assert_int_equal(g[0].tag_count, 0);
    assert_int_equal(g[0].main.count, 5);
    assert_node(node(&g[0], 2), "馬二進三", 2, 3, 2);
    assert_node(node(&g[0], 4), "h2e2", 3, 4, 1);
    assert_string_equal(g[0].result, "１－０");
    assert_int_equal(g[0].result_code, XQ_RESULT_RED);
    assert_int_equal(g[1].result_code, XQ_RESULT_DRAW);
    assert_string_equal(g[1].result, "和棋");
    assert_int_equal(g[1].main.count, 2);
    assert_int_equal(g[1].first_line, 4);
    assert_int_equal(g[2].result_code, XQ_RESULT_BLACK);
    assert_int_equal(g[3].result_code, XQ_RESULT_DRAW);
    for (int i = 0; i < 4; i++) assert_int_equal(g[i].diag_count, 0);

    /* a list without any result is still a record */
    xq_reader *r2 = open_text("1 炮二平五 馬8進7\n", -1, XQ_ENC_AUTO);
    xq_game h[2];
    assert_int_equal(read_all(r2, h, 2), 1);
    xq_reader_close(r2);
    assert_null(h[0].result);
    assert_int_equal(h[0].result_code, XQ_RESULT_NONE);
    assert_int_equal(h[0].main.count, 2);
    free_all(h, 1);
    free_all(g, 4);
}

/* Junk after the result up to the next tag section: one warning. */
static void test_junk_after_result(void **state)
{
    (void)state;
    const char *text =
        "[Event \"a\"]\n1. h2e2 1-0\n"
        "============\n欢迎访问《象棋百科全书》网站\nhttp://www.xqbase.com/\n"
        "[Event \"b\"]\n1. h2e2 h9g7 *\n";
    xq_reader *r = open_text(text, -1, XQ_ENC_AUTO);
    xq_game g[4];
    assert_int_equal(read_all(r, g, 4), 2);
    xq_reader_close(r);
    assert_int_equal(g[0].diag_count, 1);
    assert_int_equal(g[0].diags[0].line, 3);
    assert_int_equal(g[0].diags[0].offset, strlen("[Event \"a\"]\n1. h2e2 1-0\n"));
    assert_int_equal(g[0].main.count, 1);
    assert_string_equal(xq_game_tag(&g[1], "Event"), "b");
    assert_int_equal(g[1].main.count, 2);
    assert_int_equal(g[1].diag_count, 0);
    assert_int_equal(g[0].raw_len + g[1].raw_len, strlen(text));
    free_all(g, 2);
}

/* ---- movetext --------------------------------------------------------- */

static void test_move_numbers_and_tokens(void **state)
{
    (void)state;
    const char *text =
        "1.炮二平五 1...馬８進７ 2. C2.5 2... Ｃ２＝５ 3. H2-E2 h2e2 4.Che2 62.5 5. … h9g7\n"
        "6.　炮二平五　馬８進７\n"        /* U+3000 is a blank */
        "7. ………… +P+1\n"
        "     -P+1\n";                      /* vertical layout */
    xq_reader *r = open_text(text, -1, XQ_ENC_AUTO);
    xq_game g[2];
    assert_int_equal(read_all(r, g, 2), 1);
    xq_reader_close(r);
    assert_int_equal(g[0].main.count, 13);
    assert_node(node(&g[0], 0), "炮二平五", 1, 3, 1);
    assert_node(node(&g[0], 1), "馬８進７", 1, 12, 1);
    assert_node(node(&g[0], 2), "C2.5", 1, 20, 2);
    assert_node(node(&g[0], 3), "Ｃ２＝５", 1, 30, 2);
    assert_node(node(&g[0], 4), "H2-E2", 1, 38, 3);
    assert_node(node(&g[0], 5), "h2e2", 1, 44, 0);
    assert_node(node(&g[0], 6), "Che2", 1, 51, 4);
    assert_node(node(&g[0], 7), "62.5", 1, 56, 0);
    assert_node(node(&g[0], 8), "h9g7", 1, 66, 5);
    assert_node(node(&g[0], 9), "炮二平五", 2, 4, 6);
    assert_node(node(&g[0], 10), "馬８進７", 2, 9, 0);
    assert_node(node(&g[0], 11), "+P+1", 3, 9, 7);
    assert_node(node(&g[0], 12), "-P+1", 4, 6, 0);
    assert_int_equal(g[0].diag_count, 0);
    free_all(g, 1);
}

static void test_comments_nags_variations(void **state)
{
    (void)state;
    const char *text =
        "{start} 1. h2e2 $1 {after h2e2} h9g7!? ; line comment\n"
        "2. h0g2 (2. b0c2 {alt} b9c7 (2... i9h9) 3. a0a1) (2. c3c4) h7h0?! $14 {multi\n"
        "line} 3. i0h0 *\n";
    xq_reader *r = open_text(text, -1, XQ_ENC_AUTO);
    xq_game g[2];
    assert_int_equal(read_all(r, g, 2), 1);
    xq_reader_close(r);
    const xq_game *x = &g[0];
    assert_int_equal(x->diag_count, 0);
    assert_string_equal(x->main.comment, "start");
    assert_int_equal(x->main.count, 5);
    const xq_node *n = node(x, 0);
    assert_node(n, "h2e2", 1, 12, 1);
    assert_int_equal(n->nag_count, 1);
    assert_int_equal(n->nags[0], 1);
    assert_string_equal(n->comment, "after h2e2");
    n = node(x, 1);
    assert_string_equal(n->text, "h9g7");
    assert_int_equal(n->nag_count, 1);
    assert_int_equal(n->nags[0], 5);
    assert_string_equal(n->comment, " line comment");
    n = node(x, 2);
    assert_node(n, "h0g2", 2, 4, 2);
    assert_int_equal(n->variation_count, 2);
    const xq_branch *v = &n->variations[0];
    assert_int_equal(v->count, 3);
    assert_node(&v->nodes[0], "b0c2", 2, 13, 2);
    assert_string_equal(v->nodes[0].comment, "alt");
    assert_string_equal(v->nodes[1].text, "b9c7");
    assert_int_equal(v->nodes[1].variation_count, 1);
    assert_int_equal(v->nodes[1].variations[0].count, 1);
    assert_node(&v->nodes[1].variations[0].nodes[0], "i9h9", 2, 35, 2);
    assert_node(&v->nodes[2], "a0a1", 2, 44, 3);
    v = &n->variations[1];
    assert_int_equal(v->count, 1);
    assert_string_equal(v->nodes[0].text, "c3c4");
    n = node(x, 3);
    assert_string_equal(n->text, "h7h0");
    assert_int_equal(n->nag_count, 2);
    assert_int_equal(n->nags[0], 6);
    assert_int_equal(n->nags[1], 14);
    assert_string_equal(n->comment, "multi\nline");
    assert_node(node(x, 4), "i0h0", 3, 10, 3);
    assert_string_equal(x->result, "*");
    free_all(g, 1);
}

/* ---- unterminated constructs ------------------------------------------ */

static void test_unterminated(void **state)
{
    (void)state;
    xq_game g[4];
    /* comment at end of input */
    xq_reader *r = open_text("[Event \"x\"]\n1. h2e2 {never\nclosed\n", -1, XQ_ENC_AUTO);
    assert_int_equal(read_all(r, g, 4), 1);
    xq_reader_close(r);
    assert_int_equal(g[0].diag_count, 1);
    assert_int_equal(g[0].diags[0].severity, XQ_SEV_ERROR);
    assert_int_equal(g[0].diags[0].line, 2);
    assert_int_equal(g[0].diags[0].col, 9);
    assert_int_equal(g[0].diags[0].offset, 20);
    assert_string_equal(g[0].diags[0].msg, "comment '{' not closed at end of input");
    assert_string_equal(node(&g[0], 0)->comment, "never\nclosed");
    free_all(g, 1);

    /* comment cut by the next record: both records kept */
    r = open_text("[Event \"x\"]\n1. h2e2 {oops\n[Event \"y\"]\n1. h2e2 *\n", -1, XQ_ENC_AUTO);
    assert_int_equal(read_all(r, g, 4), 2);
    xq_reader_close(r);
    assert_int_equal(g[0].diag_count, 1);
    assert_int_equal(g[0].diags[0].line, 2);
    assert_int_equal(g[0].diags[0].col, 9);
    assert_string_equal(g[0].diags[0].msg,
                        "comment '{' not closed before the next record at line 3");
    assert_string_equal(xq_game_tag(&g[1], "Event"), "y");
    assert_int_equal(g[1].diag_count, 0);
    free_all(g, 2);

    /* variation: the outermost open '(' is reported */
    r = open_text("1. h2e2 (1. c3c4 (1... h9g7\n", -1, XQ_ENC_AUTO);
    assert_int_equal(read_all(r, g, 4), 1);
    xq_reader_close(r);
    assert_int_equal(g[0].diag_count, 1);
    assert_int_equal(g[0].diags[0].line, 1);
    assert_int_equal(g[0].diags[0].col, 9);
    assert_string_equal(g[0].diags[0].msg, "variation '(' not closed at end of input");
    assert_int_equal(g[0].main.count, 1);
    assert_int_equal(node(&g[0], 0)->variation_count, 1);
    assert_int_equal(node(&g[0], 0)->variations[0].nodes[0].variation_count, 1);
    free_all(g, 1);

    /* tag value */
    r = open_text("[Event \"abc", -1, XQ_ENC_AUTO);
    assert_int_equal(read_all(r, g, 4), 1);
    xq_reader_close(r);
    assert_string_equal(xq_game_tag(&g[0], "Event"), "abc");
    assert_int_equal(g[0].diag_count, 1);
    assert_int_equal(g[0].diags[0].line, 1);
    assert_int_equal(g[0].diags[0].col, 8);
    free_all(g, 1);

    /* unescaped quotes inside a value (seen in CCPD) */
    r = open_text("[Event \"1999年\"中行杯\"象棋\"]\n1. h2e2\n", -1, XQ_ENC_AUTO);
    assert_int_equal(read_all(r, g, 4), 1);
    xq_reader_close(r);
    assert_string_equal(xq_game_tag(&g[0], "Event"), "1999年\"中行杯\"象棋");
    assert_int_equal(g[0].diag_count, 1);
    assert_int_equal(g[0].diags[0].severity, XQ_SEV_WARNING);
    assert_int_equal(g[0].main.count, 1);
    free_all(g, 1);
}

/* ---- pathological input ----------------------------------------------- */

static int max_depth(const xq_branch *b)
{
    /* iterative walk down the first variation chain */
    int d = 0;
    while (b->count && b->nodes[0].variation_count) {
        b = &b->nodes[0].variations[0];
        d++;
    }
    return d;
}

static void test_deep_nesting(void **state)
{
    (void)state;
    enum { DEPTH = 100000 };
    size_t cap = 16 + DEPTH * 10 + DEPTH + 16;
    char *text = malloc(cap);
    strcpy(text, "1. h2e2 ");
    size_t len = strlen(text);
    /* each level: "(1. c3c4 " is a variation of the previous ply */
    for (int i = 0; i < DEPTH; i++) {
        memcpy(text + len, "(c3c4 ", 6);
        len += 6;
    }
    memset(text + len, ')', DEPTH);
    len += DEPTH;
    memcpy(text + len, " h9g7 *\n", 8);
    len += 8;
    xq_reader *r = open_text(text, (long)len, XQ_ENC_AUTO);
    xq_game g[2];
    assert_int_equal(read_all(r, g, 2), 1);
    xq_reader_close(r);
    assert_int_equal(g[0].main.count, 2);
    assert_string_equal(node(&g[0], 1)->text, "h9g7");
    assert_string_equal(g[0].result, "*");
    assert_int_equal(max_depth(&g[0].main), XQ_MAX_VARIATION_DEPTH);
    assert_int_equal(g[0].diag_count, 1);
    assert_non_null(strstr(g[0].diags[0].msg, "nested deeper than 256"));
    free_all(g, 1);

    /* the same, never closed */
    r = open_text(text, (long)(len - DEPTH - 8), XQ_ENC_AUTO);
    assert_int_equal(read_all(r, g, 2), 1);
    xq_reader_close(r);
    assert_int_equal(g[0].diag_count, 2);
    assert_string_equal(g[0].diags[1].msg, "variation '(' not closed at end of input");
    assert_int_equal(g[0].diags[1].col, 9);
    free_all(g, 1);
    free(text);
}

static void test_huge_line_and_value(void **state)
{
    (void)state;
    /* a 10 MB line: a comment, then 100,000 moves on one line */
    size_t big = 10u << 20;
    char *text = malloc(big + 64);
    strcpy(text, "1. h2e2 {");
    size_t len = strlen(text);
    memset(text + len, 'x', big);
    len += big;
    strcpy(text + len, "} h9g7 *\n");
    len += strlen("} h9g7 *\n");
    xq_reader *r = open_text(text, (long)len, XQ_ENC_AUTO);
    xq_game g[2];
    assert_int_equal(read_all(r, g, 2), 1);
    xq_reader_close(r);
    assert_int_equal(strlen(node(&g[0], 0)->comment), big);
    assert_node(node(&g[0], 1), "h9g7", 1, (uint32_t)(big + 12), 0);
    assert_int_equal(g[0].raw_len, len);
    free_all(g, 1);

    len = 0;
    for (int i = 0; i < 100000; i++) {
        memcpy(text + len, "h2e2 h9g7 ", 10);
        len += 10;
    }
    r = open_text(text, (long)len, XQ_ENC_AUTO);
    assert_int_equal(read_all(r, g, 2), 1);
    xq_reader_close(r);
    assert_int_equal(g[0].main.count, 200000);
    assert_node(node(&g[0], 199999), "h9g7", 1, 999996, 0);
    free_all(g, 1);

    /* a 1 MB tag value */
    size_t vlen = 1u << 20;
    strcpy(text, "[Event \"");
    len = strlen(text);
    memset(text + len, 'v', vlen);
    len += vlen;
    strcpy(text + len, "\"]\n1. h2e2\n");
    len += strlen("\"]\n1. h2e2\n");
    r = open_text(text, (long)len, XQ_ENC_AUTO);
    assert_int_equal(read_all(r, g, 2), 1);
    xq_reader_close(r);
    assert_int_equal(strlen(xq_game_tag(&g[0], "Event")), vlen);
    assert_int_equal(g[0].main.count, 1);
    free_all(g, 1);
    free(text);
}

/* Inputs that would take quadratic time in a naive reader. */
static void test_many_small_things(void **state)
{
    (void)state;
    enum { N = 500000 };
    char *text = malloc(N * 4 + 64);
    xq_game g[2];

    /* 500,000 comments after one move: joined with '\n' */
    strcpy(text, "1. h2e2 ");
    size_t len = strlen(text);
    for (int i = 0; i < N; i++) {
        memcpy(text + len, "{c}", 3);
        len += 3;
    }
    text[len++] = '\n';
    xq_reader *r = open_text(text, (long)len, XQ_ENC_AUTO);
    assert_int_equal(read_all(r, g, 2), 1);
    xq_reader_close(r);
    assert_int_equal(strlen(node(&g[0], 0)->comment), 2 * N - 1);
    free_all(g, 1);

    /* 500,000 stray '}' on one line: diagnostics capped */
    memset(text + 8, '}', N);
    r = open_text(text, 8 + N, XQ_ENC_AUTO);
    assert_int_equal(read_all(r, g, 2), 1);
    xq_reader_close(r);
    assert_int_equal(g[0].diag_count, XQ_GAME_MAX_DIAGS + 1);
    assert_int_equal(g[0].diag_dropped[XQ_SEV_WARNING], N - XQ_GAME_MAX_DIAGS - 1);   /* (each counted once) */
    assert_int_equal(g[0].diag_dropped[XQ_SEV_ERROR], 0);
    assert_int_equal(g[0].diags[1].col, 10);
    assert_int_equal(g[0].diags[1].offset, 9);
    free_all(g, 1);

    /* 100,000 tags on one line */
    len = 0;
    for (int i = 0; i < 100000; i++) len += (size_t)sprintf(text + len, "[T%d \"v\"]", i);
    r = open_text(text, (long)len, XQ_ENC_AUTO);
    assert_int_equal(read_all(r, g, 2), 1);
    xq_reader_close(r);
    assert_int_equal(g[0].tag_count, 100000);
    assert_string_equal(xq_game_tag(&g[0], "t99999"), "v");
    free_all(g, 1);
    free(text);
}

/* ---- errors ----------------------------------------------------------- */

static void test_open_errors(void **state)
{
    (void)state;
    char err[256];
    assert_null(xq_reader_open("/nonexistent/x.pgn", NULL, err, sizeof err));
    assert_string_equal(err, "/nonexistent/x.pgn: No such file or directory");

    char path[64];
    strcpy(path, "/tmp/xq-test-pgn-XXXXXX");
    int fd = mkstemp(path);
    assert_int_equal(write(fd, "XQ\x12\x00\x00", 5), 5);
    close(fd);
    /* sniffed as XQF by its magic bytes: one game with a precise error */
    xq_reader *r = xq_reader_open(path, NULL, err, sizeof err);
    assert_non_null(r);
    assert_int_equal(xq_reader_format(r), XQ_FMT_XQF);
    xq_game g0;
    xq_game_init(&g0);
    assert_int_equal(xq_reader_next(r, &g0), 1);
    assert_true(g0.diag_count >= 1);
    assert_string_equal(g0.diags[0].msg, "XQF file is 5 bytes, shorter than its 1024-byte header: nothing to read");
    assert_int_equal(xq_reader_next(r, &g0), 0);
    xq_game_free(&g0);
    xq_reader_close(r);
    /* forced PGN reads it as text */
    xq_read_options opt = {.format = XQ_FMT_PGN};
    r = xq_reader_open(path, &opt, err, sizeof err);
    assert_non_null(r);
    assert_int_equal(xq_reader_format(r), XQ_FMT_PGN);
    xq_reader_close(r);
    unlink(path);

    /* truncated gzip: -1 with a message naming the file */
    size_t n;
    unsigned char *gz = load(DATA "big5.pgn.gz", &n);
    strcpy(path, "/tmp/xq-test-pgn-XXXXXX");
    fd = mkstemp(path);
    assert_int_equal(write(fd, gz, n - 12), (ssize_t)(n - 12));
    close(fd);
    free(gz);
    r = xq_reader_open(path, NULL, err, sizeof err);
    assert_non_null(r);
    xq_game g;
    xq_game_init(&g);
    int rc;
    while ((rc = xq_reader_next(r, &g)) == 1) {}
    assert_int_equal(rc, -1);
    assert_non_null(strstr(xq_reader_error(r), path));
    xq_reader_close(r);
    xq_game_free(&g);
    unlink(path);
}

/* ---- the game model --------------------------------------------------- */

static void test_game_model(void **state)
{
    (void)state;
    xq_game g;
    xq_game_init(&g);
    assert_true(xq_game_add_tag(&g, "White", 5, "WukongJS", 8));
    assert_true(xq_game_add_tag(&g, "black", 5, "MaxQi", 5));
    assert_string_equal(xq_game_tag(&g, "Red"), "WukongJS");
    assert_string_equal(xq_game_tag(&g, "Black"), "MaxQi");
    assert_null(xq_game_tag(&g, "Event"));
    for (int i = 0; i < XQ_GAME_MAX_DIAGS + 50; i++)
        assert_true(xq_game_diag(&g, XQ_SEV_WARNING, 1, 2, 3, "w%d", i));
    assert_int_equal(g.diag_count, XQ_GAME_MAX_DIAGS + 1);
    assert_string_equal(g.diags[0].msg, "w0");
    assert_int_equal(g.diag_dropped[XQ_SEV_WARNING], 49);   /* 200 listed, the 201st the list's end */
    assert_int_equal(g.diag_dropped[XQ_SEV_ERROR], 0);
    assert_int_equal(xq_game_count_diags(&g, XQ_SEV_ERROR), 0);   /* (a warning stays one) */
    assert_int_equal(xq_game_count_diags(&g, XQ_SEV_WARNING), XQ_GAME_MAX_DIAGS + 1);
    assert_non_null(strstr(g.diags[XQ_GAME_MAX_DIAGS].msg, "counted, not reported"));
    char *big = xq_game_alloc(&g, 1 << 20);   /* larger than a chunk */
    assert_non_null(big);
    memset(big, 1, 1 << 20);
    uint16_t *a = NULL;
    for (size_t i = 0; i < 100; i++) {
        a = xq_game_grow(&g, a, i, sizeof *a);
        a[i] = (uint16_t)i;
    }
    for (size_t i = 0; i < 100; i++) assert_int_equal(a[i], i);
    assert_true(xq_game_append_raw(&g, "abc", 3));
    xq_game_reset(&g);
    assert_int_equal(g.tag_count, 0);
    assert_int_equal(g.diag_count, 0);
    assert_int_equal(g.raw_len, 0);
    assert_non_null(xq_game_strndup(&g, "x", 1));
    assert_string_equal(xq_result_str(XQ_RESULT_DRAW), "1/2-1/2");
    xq_game_free(&g);
    assert_null(g.arena);
}

/* ---- the real corpus -------------------------------------------------- */

static void test_ccpd_masters(void **state)
{
    (void)state;
    const char *path = XQ_SHARED "/corpus/ccpd/masters.pgn.gz";
    if (access(path, R_OK) != 0) {
        print_message("skipped: %s not found\n", path);
        skip();
    }
    char err[512];
    xq_reader *r = xq_reader_open(path, NULL, err, sizeof err);
    assert_non_null(r);
    xq_game g;
    xq_game_init(&g);
    uint64_t games = 0, plies = 0, bytes = 0, errors = 0, no_result = 0;
    int rc;
    while ((rc = xq_reader_next(r, &g)) == 1) {
        if (games == 0) {
            assert_string_equal(xq_game_tag(&g, "Red"), "柳大華");
            assert_string_equal(xq_game_tag(&g, "Black"), "吳貴臨");
            assert_int_equal(g.main.count, 51);
            assert_node(node(&g, 0), "炮二平五", 14, 4, 1);
            assert_string_equal(g.result, "1-0");
        }
        games++;
        plies += g.main.count;
        bytes += g.raw_len;
        errors += xq_game_count_diags(&g, XQ_SEV_ERROR);
        no_result += g.result == NULL;
    }
    assert_int_equal(rc, 0);
    assert_int_equal(xq_reader_encoding(r), XQ_ENC_BIG5);
    xq_reader_close(r);
    xq_game_free(&g);
    assert_int_equal(games, 53685);
    assert_int_equal(bytes, 67253621);   /* the records tile the whole file */
    assert_int_equal(errors, 0);
    assert_int_equal(no_result, 0);
    assert_int_equal(plies, 4683606);
}

int main(int argc, char **argv)
{
    (void)argc;
    xqt_chdir_to_root(argv[0], DATA "big5.pgn");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_big5_fixture),
        cmocka_unit_test(test_gbk_elephanteye),
        cmocka_unit_test(test_bom_crlf),
        cmocka_unit_test(test_bad_bytes_diagnosed),
        cmocka_unit_test(test_record_boundaries),
        cmocka_unit_test(test_plain_lists_and_results),
        cmocka_unit_test(test_junk_after_result),
        cmocka_unit_test(test_move_numbers_and_tokens),
        cmocka_unit_test(test_comments_nags_variations),
        cmocka_unit_test(test_unterminated),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_huge_line_and_value),
        cmocka_unit_test(test_many_small_things),
        cmocka_unit_test(test_open_errors),
        cmocka_unit_test(test_game_model),
        cmocka_unit_test(test_ccpd_masters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
