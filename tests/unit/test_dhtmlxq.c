/* test_dhtmlxq.c - DhtmlXQ and DHJHtmlXQ (formats.md §1f) into the game
 * model and back: the corpus file (1,446 variations), blocks in HTML,
 * GBK text whose trail bytes look like '[', variation numbering
 * move_<parent>_<ply>_<id>, comments, binit in both listings, the numeric
 * DHJHtmlXQ tags, damaged fields (diagnostics with line, column and byte
 * offset), and the round trip DhtmlXQ -> model -> DhtmlXQ -> model. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "notation.h"
#include "pgn_read.h"
#include "replay.h"
#include "write.h"

#ifndef XQ_SHARED
#define XQ_SHARED "../shared"
#endif
#define CORPUS XQ_SHARED "/corpus/dhtmlxq/dhtmlxq.txt"

/* ---- helpers --------------------------------------------------------------- */

/* A diagnostic of that severity at line:col containing part. */
static bool has_diag(const xq_game *g, xq_severity sev, uint32_t line, uint32_t col, const char *part)
{
    for (size_t i = 0; i < g->diag_count; i++)
        if (g->diags[i].severity == sev && g->diags[i].line == line && g->diags[i].col == col &&
            strstr(g->diags[i].msg, part))
            return true;
    for (size_t i = 0; i < g->diag_count; i++)
        fprintf(stderr, "  have: %s %u:%u @%llu %s\n", g->diags[i].severity ? "warning" : "error", g->diags[i].line,
                g->diags[i].col, (unsigned long long)g->diags[i].offset, g->diags[i].msg);
    return false;
}


static void assert_same_branch(const xq_branch *a, const xq_branch *b)
{
    assert_int_equal(a->count, b->count);
    assert_true((a->comment == NULL) == (b->comment == NULL));
    if (a->comment) assert_string_equal(a->comment, b->comment);
    for (size_t i = 0; i < a->count; i++) {
        const xq_node *x = &a->nodes[i], *y = &b->nodes[i];
        assert_string_equal(x->text, y->text);
        assert_true((x->comment == NULL) == (y->comment == NULL));
        if (x->comment) assert_string_equal(x->comment, y->comment);
        assert_int_equal(x->variation_count, y->variation_count);
        for (uint32_t v = 0; v < x->variation_count; v++) assert_same_branch(&x->variations[v], &y->variations[v]);
    }
}

/* g written as DhtmlXQ into a malloc'd string. */
static char *write_dhtmlxq(xq_game *g, xq_write_report *rep, size_t *len)
{
    xq_replay_options ro;
    xq_replay_options_default(&ro);
    xq_replay r;
    xq_replay_game(g, &ro, &r);
    char *buf = NULL;
    FILE *out = open_memstream(&buf, len);
    xq_write_options wo = {.format = XQ_OUT_DHTMLXQ};
    xq_write_game(out, g, &r, &wo, rep);
    fclose(out);
    return buf;
}

/* UTF-8 text to GBK (the test's own strings are all in GBK). */
static size_t to_gbk(const char *s, char *out, size_t size)
{
    iconv_t cd = iconv_open("GBK", "UTF-8");
    assert_true(cd != (iconv_t)-1);
    char *in = (char *)s, *o = out;
    size_t left = strlen(s), room = size;
    assert_true(iconv(cd, &in, &left, &o, &room) != (size_t)-1);
    iconv_close(cd);
    return (size_t)(o - out);
}

/* ---- the corpus ------------------------------------------------------------------ */

static void test_corpus(void **state)
{
    (void)state;
    xq_game g[2];
    xq_format fmt;
    xq_encoding enc;
    assert_int_equal(read_path_enc(CORPUS, g, 2, &fmt, &enc), 1);
    assert_int_equal(fmt, XQ_FMT_DHTMLXQ);
    assert_int_equal(enc, XQ_ENC_UTF8);
    assert_int_equal(g[0].diag_count, 0);
    assert_int_equal(g[0].raw_len, 546463);
    assert_int_equal(g[0].offset, 0);
    assert_int_equal(g[0].first_line, 1);
    assert_null(g[0].fen);
    tally t = tally_of(&g[0]);
    assert_int_equal(g[0].main.count, 53);
    assert_int_equal(t.variations, 1446);
    assert_int_equal(t.moves, 107001);
    assert_int_equal(t.comments, 314);
    assert_int_equal(t.depth, 11);
    assert_int_equal(g[0].tag_count, 4);
    xqt_assert_tag(&g[0], "Title", "仙人指路全集（史上最全最新版）");
    xqt_assert_tag(&g[0], "Result", "*");
    xqt_assert_tag(&g[0], "Annotator", "东方剑客");
    xqt_assert_tag(&g[0], "Author", "东方剑客");
    assert_int_equal(strncmp(g[0].main.comment, "　　本文介绍20世纪90年代", 31), 0);
    assert_non_null(strstr(g[0].main.comment, "喜欢。\n　　由于时间紧"));   /* "||" */
    assert_string_equal(g[0].main.nodes[0].text, "c3c4");   /* 兵七进一 */
    assert_int_equal(g[0].main.nodes[0].line, 323);
    assert_int_equal(g[0].main.nodes[0].col, 19);
    assert_string_equal(g[0].main.nodes[52].comment, "和");   /* comment53 */
    /* branch 1 (move_0_7_1) replaces ply 7; its ply 44 carries comment1_44 */
    const xq_node *n7 = &g[0].main.nodes[6];
    assert_true(n7->variation_count >= 1);
    const xq_branch *b1 = &n7->variations[0];
    assert_true(b1->count > 37);
    assert_string_equal(b1->nodes[37].comment, "和");
    /* one move of the corpus is illegal: branch 1194 at ply 65 */
    const xq_node *bad;
    assert_int_equal(bad_lines_game(&g[0], &bad, false), 1);
    assert_string_equal(bad->text, "e2g4");
    assert_int_equal(bad->line, 1517);
    assert_int_equal(bad->col, 244);
    xq_game_free(&g[0]);
}

/* ---- blocks in a page, encodings ---------------------------------------------------- */

/* Two blocks in an HTML page in GBK, with text around them, a GBK
 * character whose trail byte is '[' right before "DhtmlXQ_movelist]", a
 * mismatched closing tag, and raw bytes that give the file back. */
static void test_html_gbk(void **state)
{
    (void)state;
    char page[4096];
    size_t n = 0;
    n += to_gbk("<html><head><meta charset=\"gbk\"><title>棋谱</title></head><body>\n<p>前言</p>\n"
                "[DhtmlXQ]\n[DhtmlXQ_title]",
                page + n, sizeof page - n);
    memcpy(page + n, "\x81[\x81]", 4);   /* two characters with trail bytes '[' and ']' */
    n += 4;
    n += to_gbk("[/DhtmlXQ_title]\n[DhtmlXQ_event]全国赛[/DhtmlXQ_event]\n"
                "[DhtmlXQ_red]胡荣华[/DhtmlXQ_red][DhtmlXQ_black]杨官璘[/DhtmlXQ_black]\n"
                "[DhtmlXQ_blacktime]10分[/DhtmlXQ_time]\n[DhtmlXQ_result]红胜[/DhtmlXQ_result]\n"
                "[DhtmlXQ_open]E27 仙人指路转左中炮对卒底炮飞左象[/DhtmlXQ_open]\n"
                "[DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]\n[DhtmlXQ_comment1]好棋||",
                page + n, sizeof page - n);
    memcpy(page + n, "\x81[DhtmlXQ_movelist]9999", 23);   /* no field: one character and text */
    n += 23;
    n += to_gbk("[/DhtmlXQ_comment1]\n[/DhtmlXQ]\n<p>中间</p>\n"
                "[DhtmlXQ][DhtmlXQ_date]1960[/DhtmlXQ_date][DhtmlXQ_movelist]7242[/DhtmlXQ_movelist][/DhtmlXQ]\n"
                "</body></html>\n",
                page + n, sizeof page - n);
    xq_game g[4];
    xq_format fmt;
    int k = read_tmp_bytes(page, n, g, 4, &fmt);
    assert_int_equal(fmt, XQ_FMT_DHTMLXQ);
    assert_int_equal(k, 2);
    assert_int_equal(g[0].encoding, XQ_ENC_GBK);
    assert_int_equal(g[0].diag_count, 0);
    assert_int_equal(strlen(xq_game_tag(&g[0], "Title")), 6);   /* two CJK characters */
    xqt_assert_tag(&g[0], "Event", "全国赛");
    xqt_assert_tag(&g[0], "Red", "胡荣华");
    xqt_assert_tag(&g[0], "Black", "杨官璘");
    xqt_assert_tag(&g[0], "BlackTime", "10分");
    xqt_assert_tag(&g[0], "Result", "1-0");
    xqt_assert_tag(&g[0], "ECCO", "E27");
    xqt_assert_tag(&g[0], "Opening", "仙人指路转左中炮对卒底炮飞左象");
    assert_int_equal(g[0].main.count, 2);
    assert_string_equal(g[0].main.nodes[1].text, "h9g7");
    assert_int_equal(strncmp(g[0].main.nodes[0].comment, "好棋\n", 7), 0);
    assert_non_null(strstr(g[0].main.nodes[0].comment, "DhtmlXQ_movelist]9999"));
    assert_int_equal(g[0].first_line, 3);
    assert_int_equal(g[1].first_line, 14);
    xqt_assert_tag(&g[1], "Date", "1960");
    assert_string_equal(g[1].main.nodes[0].text, "h7e7");
    assert_int_equal(g[1].main.nodes[0].line, 14);
    /* the raw bytes of both games give the page back */
    assert_int_equal(g[0].raw_len + g[1].raw_len, n);
    assert_int_equal(memcmp(g[0].raw, page, g[0].raw_len), 0);
    assert_int_equal(memcmp(g[1].raw, page + g[0].raw_len, g[1].raw_len), 0);
    assert_int_equal(g[1].offset, g[0].raw_len);
    free_all(g, k);
}

/* A page whose block comes after a long head (past the format sniffer's
 * 4 KiB), many blocks in one file. */
static void test_deep_and_many(void **state)
{
    (void)state;
    size_t n = 0, cap = 1 << 20;
    char *page = malloc(cap);
    n += (size_t)sprintf(page, "<html><head><title>x</title>\n");
    while (n < 6000) n += (size_t)sprintf(page + n, "<meta name=\"k%zu\" content=\"v\">\n", n);
    n += (size_t)sprintf(page + n, "</head><body>\n");
    uint64_t head_lines = 0;
    for (size_t i = 0; i < n; i++) head_lines += page[i] == '\n';
    for (int i = 0; i < 2000; i++)
        n += (size_t)sprintf(page + n, "<div>[DhtmlXQ][DhtmlXQ_round]%d[/DhtmlXQ_round]"
                                       "[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]</div>\n", i + 1);
    n += (size_t)sprintf(page + n, "</body></html>\n");
    static xq_game g[2001];
    xq_format fmt;
    int k = read_tmp_bytes(page, n, g, 2001, &fmt);
    assert_int_equal(fmt, XQ_FMT_DHTMLXQ);
    assert_int_equal(k, 2000);
    size_t raw = 0;
    for (int i = 0; i < k; i++) {
        raw += g[i].raw_len;
        assert_int_equal(g[i].main.count, 1);
        assert_int_equal(g[i].diag_count, 0);
        assert_int_equal(atoi(xq_game_tag(&g[i], "Round")), i + 1);
        assert_int_equal(g[i].first_line, head_lines + 1 + (uint64_t)i);
    }
    assert_int_equal(raw, n);
    free_all(g, k);
    free(page);
}

/* ---- variations and comments --------------------------------------------------------- */

static const char VARIATIONS[] =
    "\xEF\xBB\xBF[DhtmlXQ]\n"
    "[DhtmlXQ_movelist]7747706279678070[/DhtmlXQ_movelist]\n"   /* h2e2 h9g7 h0g2 i9h9 */
    "[DhtmlXQ_move_0_2_1]72421927[/DhtmlXQ_move_0_2_1]\n"        /* 2... h7e7 3. b0c2 */
    "[DhtmlXQ_move_1_2_2]7082[/DhtmlXQ_move_1_2_2]\n"            /* 2... h9i7: first move of 1 */
    "[DhtmlXQ_move_1_4_3]1022[/DhtmlXQ_move_1_4_3]\n"            /* continues 1: 3... b9c7 */
    "[DhtmlXQ_move_0_9_4]1022[/DhtmlXQ_move_0_9_4]\n"            /* ply 9: outside */
    "[DhtmlXQ_move_7_3_5]1022[/DhtmlXQ_move_7_3_5]\n"            /* no branch 7 */
    "[DhtmlXQ_move_0_2_1]1022[/DhtmlXQ_move_0_2_1]\n"            /* branch 1 again */
    "[DhtmlXQ_comment0]开局[/DhtmlXQ_comment0]\n"
    "[DhtmlXQ_comment2]主||线 \\u005b\\u4e2d[/DhtmlXQ_comment2]\n"
    "[DhtmlXQ_comment1_2]c12[/DhtmlXQ_comment1_2]\n"
    "[DhtmlXQ_comment3_4]c34[/DhtmlXQ_comment3_4]\n"
    "[DhtmlXQ_comment9_9]orphan[/DhtmlXQ_comment9_9]\n"
    "[/DhtmlXQ]\n";

static void test_variations(void **state)
{
    (void)state;
    xq_game g[2];
    assert_int_equal(read_tmp_bytes(VARIATIONS, sizeof VARIATIONS - 1, g, 2, NULL), 1);
    const xq_branch *m = &g[0].main;
    assert_int_equal(m->count, 4);
    assert_string_equal(m->comment, "开局");
    assert_string_equal(m->nodes[1].comment, "主\n线 [中");
    assert_int_equal(m->nodes[1].variation_count, 2);
    const xq_branch *v1 = &m->nodes[1].variations[0], *v2 = &m->nodes[1].variations[1];
    assert_int_equal(v1->count, 3);
    assert_string_equal(v1->nodes[0].text, "h7e7");
    assert_string_equal(v1->nodes[0].comment, "c12");
    assert_string_equal(v1->nodes[1].text, "b0c2");
    assert_string_equal(v1->nodes[2].text, "b9c7");   /* appended by branch 3 */
    assert_string_equal(v1->nodes[2].comment, "c34");
    assert_int_equal(v2->count, 1);
    assert_string_equal(v2->nodes[0].text, "h9i7");
    assert_int_equal(tally_of(&g[0]).variations, 2);
    const xq_node *bad;
    assert_int_equal(bad_lines_game(&g[0], &bad, false), 0);
    /* lines and columns count characters after the BOM */
    assert_int_equal(m->nodes[0].line, 2);
    assert_int_equal(m->nodes[0].col, 19);
    assert_int_equal(m->nodes[3].col, 31);
    assert_int_equal(v2->nodes[0].line, 4);
    assert_int_equal(v2->nodes[0].col, 21);
    assert_true(has_diag(&g[0], XQ_SEV_ERROR, 6, 1, "variation 0_9_4: ply 9 is outside branch 0 (plies 1-4)"));
    assert_true(has_diag(&g[0], XQ_SEV_ERROR, 7, 1, "variation 7_3_5: branch 7 is not in this record"));
    assert_true(has_diag(&g[0], XQ_SEV_ERROR, 8, 1, "variation 0_2_1 repeats an earlier branch number"));
    assert_true(has_diag(&g[0], XQ_SEV_WARNING, 13, 1, "comment 9_9 belongs to no move"));
    assert_int_equal(g[0].diag_count, 4);
    /* the repeated branch is found first; its tag is at byte 301: BOM,
     * lines 1 to 7 of 10, 54, 50 and 4 x 46 bytes */
    assert_int_equal(g[0].diags[0].offset, 3 + 10 + 54 + 50 + 4 * 46);
    free_all(g, 1);
}

/* binit in both listings, Black moving first, a FEN field. */
static void test_start_positions(void **state)
{
    (void)state;
    /* red advisor d0 (slot 3), red king e0 (4), black rook a9 (16), black king e9 (20) */
    const char *ltr = "[DhtmlXQ][DhtmlXQ_binit]9999993949999999999999999999999900999999409999999999999999999999"
                      "[/DhtmlXQ_binit][DhtmlXQ_movelist]0001[/DhtmlXQ_movelist][/DhtmlXQ]";
    /* right to left: the advisor in slot 5, the rook in slot 24 */
    const char *rtl = "[DhtmlXQ][DhtmlXQ_binit]9999999949399999999999999999999999999999409999990099999999999999"
                      "[/DhtmlXQ_binit][DhtmlXQ_movelist]0001[/DhtmlXQ_movelist][/DhtmlXQ]";
    xq_game g[2];
    assert_int_equal(read_tmp_bytes(ltr, strlen(ltr), g, 2, NULL), 1);
    assert_int_equal(g[0].diag_count, 0);
    assert_string_equal(g[0].fen, "r3k4/9/9/9/9/9/9/9/9/3AK4 b - - 0 1");
    assert_string_equal(g[0].main.nodes[0].text, "a9a8");
    xq_game_free(&g[0]);
    assert_int_equal(read_tmp_bytes(rtl, strlen(rtl), g, 2, NULL), 1);
    assert_string_equal(g[0].fen, "r3k4/9/9/9/9/9/9/9/9/3AK4 b - - 0 1");
    xq_game_free(&g[0]);

    /* vschess's fen field wins over binit; no moves: its side stays */
    const char *fen = "[DhtmlXQ][DhtmlXQ_fen]4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1[/DhtmlXQ_fen]"
                      "[DhtmlXQ_binit]99999999499999999999999999999999999999994099999999999999999999[/DhtmlXQ_binit]"
                      "[/DhtmlXQ]";
    assert_int_equal(read_tmp_bytes(fen, strlen(fen), g, 2, NULL), 1);
    assert_string_equal(g[0].fen, "4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1");
    assert_true(has_diag(&g[0], XQ_SEV_ERROR, 1, 70, "binit holds 62 digits"));
    xq_game_free(&g[0]);
}

/* DHJHtmlXQ: numeric tags, y counted from the bottom, its comment tags,
 * found by content. */
static void test_dhj(void **state)
{
    (void)state;
    const char *a = "<p>广东象棋网</p>\n[DHJHtmlXQ]\n[DHJHtmlXQ_34]72427747[/DHJHtmlXQ_34]\n"
                    "[comment_1]炮二平五[/comment_1][game_comment_2]炮8平5[/game_comment_2]\n[/DHJHtmlXQ]\n";
    xq_game g[2];
    xq_format fmt;
    assert_int_equal(read_tmp_bytes(a, strlen(a), g, 2, &fmt), 1);
    assert_int_equal(fmt, XQ_FMT_DHTMLXQ);
    assert_int_equal(g[0].diag_count, 0);
    assert_int_equal(g[0].main.count, 2);
    assert_string_equal(g[0].main.nodes[0].text, "h2e2");
    assert_string_equal(g[0].main.nodes[1].text, "h7e7");
    assert_string_equal(g[0].main.nodes[0].comment, "炮二平五");
    assert_string_equal(g[0].main.nodes[1].comment, "炮8平5");
    assert_null(g[0].fen);
    xq_game_free(&g[0]);

    /* _31 the board (row 9 first), _32 = 1: Black moves, _33 the ply */
    char board[91];
    memset(board, '*', 90);
    board[90] = 0;
    board[4] = 'k';                /* e9 */
    board[81 + 4] = 'K';           /* e0 */
    board[81 + 3] = 'A';           /* d0 */
    char b[512];
    snprintf(b, sizeof b, "[DHJHtmlXQ][DHJHtmlXQ_31]%s[/DHJHtmlXQ_31][DHJHtmlXQ_32]1[/DHJHtmlXQ_32]"
                          "[DHJHtmlXQ_33]9[/DHJHtmlXQ_33][DHJHtmlXQ_34]4948[/DHJHtmlXQ_34][/DHJHtmlXQ]",
             board);
    assert_int_equal(read_tmp_bytes(b, strlen(b), g, 2, NULL), 1);
    assert_string_equal(g[0].fen, "4k4/9/9/9/9/9/9/9/9/3AK4 b - - 0 6");
    assert_string_equal(g[0].main.nodes[0].text, "e9e8");
    xq_game_free(&g[0]);

    /* a PGN file that mentions DHJHtmlXQ after its tags stays PGN */
    const char *pgn = "[Event \"x\"]\n{[DHJHtmlXQ]} 1. 炮二平五 *\n";
    assert_int_equal(read_tmp_bytes(pgn, strlen(pgn), g, 2, &fmt), 1);
    assert_int_equal(fmt, XQ_FMT_PGN);
    xq_game_free(&g[0]);
}

/* ---- damage ---------------------------------------------------------------------------- */

static void test_damaged(void **state)
{
    (void)state;
    const char *t = "[DhtmlXQ]\n"
                    "[DhtmlXQ_movelist]7747 7062\n79x78070[/DhtmlXQ_movelist]\n"
                    "[DhtmlXQ_move_0_2_1]7242192[/DhtmlXQ_move_0_2_1]\n"
                    "[DhtmlXQ_move_0_3_2]9967[/DhtmlXQ_move_0_3_2]\n"
                    "[DhtmlXQ_title]no end\n"
                    "[DhtmlXQ_result]平[/DhtmlXQ_result]\n"
                    "[DhtmlXQ_fen]xyz[/DhtmlXQ_fen]\n"
                    "[DhtmlXQ_comment1_x]?[/DhtmlXQ_comment1_x]\n"
                    "[DhtmlXQ_move_0_2]7242[/DhtmlXQ_move_0_2]\n";
    xq_game g[2];
    assert_int_equal(read_tmp_bytes(t, strlen(t), g, 2, NULL), 1);
    assert_int_equal(g[0].main.count, 2);   /* the rest of the list after 'x' is left out */
    assert_true(has_diag(&g[0], XQ_SEV_ERROR, 3, 3, "'x' in a move list"));
    assert_true(has_diag(&g[0], XQ_SEV_ERROR, 4, 25, "move list ends with 3 digits"));
    assert_true(has_diag(&g[0], XQ_SEV_ERROR, 5, 21, "move 9967 names file 9"));
    assert_true(has_diag(&g[0], XQ_SEV_WARNING, 6, 1, "[DhtmlXQ_title] has no closing tag"));
    assert_true(has_diag(&g[0], XQ_SEV_WARNING, 7, 1, "result \"平\" is none of"));
    assert_true(has_diag(&g[0], XQ_SEV_ERROR, 8, 1, "the fen field does not parse"));
    assert_true(has_diag(&g[0], XQ_SEV_WARNING, 9, 1, "not a comment number"));
    assert_true(has_diag(&g[0], XQ_SEV_WARNING, 10, 1, "not a variation number"));
    assert_true(has_diag(&g[0], XQ_SEV_WARNING, 1, 1, "block without its closing tag"));
    xqt_assert_tag(&g[0], "Title", "no end");
    xqt_assert_tag(&g[0], "Result", "*");
    assert_int_equal(g[0].main.nodes[1].variation_count, 1);
    assert_int_equal(g[0].main.nodes[1].variations[0].count, 1);   /* 7242, then 3 digits */
    xq_game_free(&g[0]);

    /* an empty container is no game; fields without a container are one */
    const char *e = "[DhtmlXQ][/DhtmlXQ] text [DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]";
    assert_int_equal(read_tmp_bytes(e, strlen(e), g, 2, NULL), 1);
    assert_int_equal(g[0].main.count, 1);
    assert_int_equal(g[0].raw_len, strlen(e));
    xq_game_free(&g[0]);

    /* every cut of the variation sample: no crash, raw bytes add up */
    for (size_t len = 9; len < sizeof VARIATIONS; len++) {
        xq_game h[2];
        char path[64];
        save_tmp(VARIATIONS, len, path);
        xq_read_options opt = {.format = XQ_FMT_DHTMLXQ};
        char err[256];
        xq_reader *r = xq_reader_open(path, &opt, err, sizeof err);
        assert_non_null(r);
        xq_game_init(&h[0]);
        int rc = xq_reader_next(r, &h[0]);
        assert_true(rc >= 0);
        if (rc) assert_int_equal(h[0].raw_len, len);
        xq_game_free(&h[0]);
        xq_reader_close(r);
        unlink(path);
    }
}

/* ---- the writer ---------------------------------------------------------------------------- */

/* DhtmlXQ -> model -> DhtmlXQ -> model: the same game; written twice,
 * the same bytes. */
static void test_round_trip(void **state)
{
    (void)state;
    xq_game g[2], b[2], c[2];
    assert_int_equal(read_tmp_bytes(VARIATIONS, sizeof VARIATIONS - 1, g, 2, NULL), 1);
    xq_write_report rep;
    size_t n1, n2;
    char *t1 = write_dhtmlxq(&g[0], &rep, &n1);
    assert_int_equal(rep.why[0], 0);
    assert_int_equal(read_tmp_bytes(t1, n1, b, 2, NULL), 1);
    assert_int_equal(b[0].diag_count, 0);
    assert_same_branch(&g[0].main, &b[0].main);
    char *t2 = write_dhtmlxq(&b[0], &rep, &n2);
    assert_int_equal(n1, n2);
    assert_int_equal(memcmp(t1, t2, n1), 0);
    assert_non_null(strstr(t1, "[DhtmlXQ_move_0_2_1]724219271022[/DhtmlXQ_move_0_2_1]"));
    assert_non_null(strstr(t1, "[DhtmlXQ_move_0_2_2]7082[/DhtmlXQ_move_0_2_2]"));
    assert_non_null(strstr(t1, "[DhtmlXQ_comment2]主||线 [中[/DhtmlXQ_comment2]"));
    free(t1);
    free(t2);
    free_all(g, 1);
    free_all(b, 1);

    /* the corpus: everything but the 4 moves after its illegal one */
    assert_int_equal(read_path_enc(CORPUS, g, 2, NULL, NULL), 1);
    t1 = write_dhtmlxq(&g[0], &rep, &n1);
    assert_non_null(strstr(rep.why, "variation at ply 65 (e2g4)"));
    assert_int_equal(read_tmp_bytes(t1, n1, b, 2, NULL), 1);
    tally x = tally_of(&g[0]), y = tally_of(&b[0]);
    assert_int_equal(y.moves, x.moves - 4);
    assert_int_equal(y.variations, x.variations);
    assert_int_equal(y.comments, x.comments);
    assert_string_equal(b[0].main.comment, g[0].main.comment);
    t2 = write_dhtmlxq(&b[0], &rep, &n2);
    assert_int_equal(read_tmp_bytes(t2, n2, c, 2, NULL), 1);
    assert_same_branch(&b[0].main, &c[0].main);
    assert_int_equal(n1, n2);
    assert_int_equal(memcmp(t1, t2, n1), 0);
    free(t1);
    free(t2);
    free_all(g, 1);
    free_all(b, 1);
    free_all(c, 1);
}

/* PGN -> DhtmlXQ: tags, a non-standard start with Black to move, nested
 * variations of a variation's first move, a variation's leading comment,
 * brackets in text. */
static void test_write_from_pgn(void **state)
{
    (void)state;
    const char *pgn = "[Game \"Chinese Chess\"]\n[Event \"杯[赛] [/DhtmlXQ_event]\"]\n[Round \"3\"]\n[Red \"甲\"]\n[ECCO \"A00\"]\n"
                      "[PlyCount \"2\"]\n[Result \"0-1\"]\n[FEN \"4k4/9/9/9/9/9/9/9/4A4/3AK4 b - - 0 1\"]\n"
                      "{a\nb} 1... 将5平4 (1... 将5进1 {x} (1... 将5平6)) ({lead} 1... 将5平6 {y}) 2. 帅五平四 0-1\n";
    xq_game g[2], b[2];
    assert_int_equal(read_tmp_bytes(pgn, strlen(pgn), g, 2, NULL), 1);
    xq_write_report rep;
    size_t n;
    char *t = write_dhtmlxq(&g[0], &rep, &n);
    assert_int_equal(rep.why[0], 0);
    assert_non_null(strstr(t, "[DhtmlXQ_event]杯[赛] ［/DhtmlXQ_event][/DhtmlXQ_event]"));
    assert_non_null(strstr(t, "[DhtmlXQ_round]3[/DhtmlXQ_round]"));
    assert_non_null(strstr(t, "[DhtmlXQ_open]A00[/DhtmlXQ_open]"));
    assert_non_null(strstr(t, "[DhtmlXQ_PlyCount]2[/DhtmlXQ_PlyCount]"));
    assert_non_null(strstr(t, "[DhtmlXQ_result]黑胜[/DhtmlXQ_result]"));
    assert_non_null(strstr(t, "[DhtmlXQ_comment0]a||b[/DhtmlXQ_comment0]"));
    assert_non_null(strstr(t, "[DhtmlXQ_fen]4k4/9/9/9/9/9/9/9/4A4/3AK4 b - - 0 1[/DhtmlXQ_fen]"));
    assert_int_equal(read_tmp_bytes(t, n, b, 2, NULL), 1);
    assert_int_equal(b[0].diag_count, 0);
    assert_string_equal(b[0].fen, "4k4/9/9/9/9/9/9/9/4A4/3AK4 b - - 0 1");
    xqt_assert_tag(&b[0], "Event", "杯[赛] ［/DhtmlXQ_event]");
    xqt_assert_tag(&b[0], "Result", "0-1");
    xqt_assert_tag(&b[0], "ECCO", "A00");
    xqt_assert_tag(&b[0], "PlyCount", "2");
    assert_string_equal(b[0].main.comment, "a\nb");
    const xq_node *n0 = &b[0].main.nodes[0];
    assert_string_equal(n0->text, "e9d9");
    assert_int_equal(n0->variation_count, 3);   /* the nested alternative comes up one level */
    assert_string_equal(n0->variations[0].nodes[0].text, "e9e8");
    assert_string_equal(n0->variations[0].nodes[0].comment, "x");
    assert_string_equal(n0->variations[1].nodes[0].text, "e9f9");
    assert_string_equal(n0->variations[2].nodes[0].comment, "lead\ny");
    assert_int_equal(b[0].main.count, 2);
    free(t);
    free_all(g, 1);
    free_all(b, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus),
        cmocka_unit_test(test_html_gbk),
        cmocka_unit_test(test_deep_and_many),
        cmocka_unit_test(test_variations),
        cmocka_unit_test(test_start_positions),
        cmocka_unit_test(test_dhj),
        cmocka_unit_test(test_damaged),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_write_from_pgn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
