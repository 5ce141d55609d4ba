/* test_record_source.c - the source text that the XML and JSON Lines
 * readers keep with a game (game.h source, source_len), for placing a
 * character of a record that has no raw bytes (xq-validate --keep's
 * warning about characters its output lacks):
 * - XML: each game's source is exactly the lines of its <game> element,
 *   from its first line to the last holding its text (a comment running
 *   over lines included), for one game, several, games sharing lines,
 *   games far apart (the lines kept between them are dropped, so each
 *   game still gets its own), gzip; none for a document not in UTF-8;
 * - JSON Lines: each record's line (after a BOM; decoded from GBK when
 *   it is forced); none for a line in error;
 * - none at all when the caller reads no raw bytes (no_raw), and none
 *   from the PGN reader;
 * - the source holds the texts the writers write: a game's non-ASCII
 *   text (tags, comments, moves) is found in it at the place its reader
 *   gives (a move node's line). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#include <unistd.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Read every game of the bytes text[0..n) (a temporary file; gzipped
 * first when gz) with no_raw and the encoding given, into g[0..max). */
static int read_with(const char *text, size_t n, bool no_raw, xq_encoding enc, bool gz, xq_game *g, int max)
{
    char path[64];
    save_tmp(text, n, path);
    if (gz) {
        char cmd[160];
        snprintf(cmd, sizeof cmd, "gzip -c %s > %s.gz && mv %s.gz %s", path, path, path, path);
        assert_int_equal(system(cmd), 0);
    }
    xq_read_options o = {.encoding = enc, .no_raw = no_raw};
    char err[256];
    xq_reader *r = xq_reader_open(path, &o, err, sizeof err);
    assert_non_null(r);
    int k = 0;
    for (;;) {
        assert_true(k < max);
        xq_game_init(&g[k]);
        int rc = xq_reader_next(r, &g[k]);
        assert_true(rc >= 0);
        if (rc == 0) {
            xq_game_free(&g[k]);
            break;
        }
        k++;
    }
    xq_reader_close(r);
    unlink(path);
    return k;
}

/* Lines from..to (1-based, each with its '\n') of text. */
static char *lines_of(const char *text, unsigned from, unsigned to)
{
    const char *p = text;
    for (unsigned l = 1; l < from; l++) p = strchr(p, '\n') + 1;
    const char *e = p;
    for (unsigned l = from; l <= to; l++) e = strchr(e, '\n') + 1;
    return strndup(p, (size_t)(e - p));
}

static void assert_source(const xq_game *g, const char *want)
{
    assert_non_null(g->source);
    assert_int_equal(g->source_len, strlen(want));
    assert_memory_equal(g->source, want, g->source_len);
}

static const char XML[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"                       /* 1 */
    "<games xmlns=\"urn:xq-tools:game:1\">\n"                            /* 2 */
    "<game result=\"*\">\n"                                              /* 3 */
    "  <tag name=\"Red\">红方</tag>\n"                                   /* 4 */
    "  <move iccs=\"h2e2\" text=\"炮二平五\"/>\n"                        /* 5 */
    "  <move iccs=\"h9g7\" text=\"马８进７\">\n"                         /* 6 */
    "      <comment>one\nand ☃ two</comment>\n"                          /* 7, 8 */
    "  </move>\n"                                                        /* 9 */
    "</game>\n"                                                          /* 10 */
    "<!-- between ☃ -->\n"                                               /* 11 */
    "<game result=\"1-0\"><tag name=\"Event\">甲</tag></game>"           /* 12 */
    "<game><tag name=\"Event\">乙</tag>\n"                               /* 12 */
    "<move text=\"炮二平五\"/></game>\n"                                 /* 13 */
    "</games>\n";

static void xml_games(void **state)
{
    (void)state;
    for (int gz = 0; gz < 2; gz++) {
        xq_game g[4];
        int n = read_with(XML, sizeof XML - 1, false, XQ_ENC_AUTO, gz, g, 4);
        assert_int_equal(n, 3);
        char *w = lines_of(XML, 3, 8);   /* to the comment's last line */
        assert_source(&g[0], w);
        free(w);
        w = lines_of(XML, 12, 12);
        assert_source(&g[1], w);
        free(w);
        w = lines_of(XML, 12, 13);   /* its line shared with the game before */
        assert_source(&g[2], w);
        free(w);
        /* the reader's places fall in it: a move's line */
        assert_int_equal(g[0].main.nodes[1].line, 6);
        assert_non_null(strstr(g[0].source, "马８进７"));
        free_all(g, n);
        /* no raw bytes wanted: no source */
        n = read_with(XML, sizeof XML - 1, true, XQ_ENC_AUTO, gz, g, 4);
        assert_int_equal(n, 3);
        for (int i = 0; i < n; i++) assert_null(g[i].source);
        free_all(g, n);
    }
}

/* Many games with long stretches between them: each game its own lines
 * (the lines kept before a game are dropped as it is handed over). */
static void xml_far_apart(void **state)
{
    (void)state;
    xq_buf b = {0};
    const char *head = "<?xml version=\"1.0\"?>\n<games xmlns=\"urn:xq-tools:game:1\">\n";
    assert_true(xq_buf_append(&b, head, strlen(head)));
    unsigned line = 3, first[60];
    for (int k = 0; k < 60; k++) {
        for (int c = 0; c < 40 * (k % 7); c++, line++) {
            static const char pad[] = "<!-- 注 padding padding padding padding padding padding -->\n";
            assert_true(xq_buf_append(&b, pad, sizeof pad - 1));
        }
        char gbuf[200];
        int len = snprintf(gbuf, sizeof gbuf, "<game>\n  <tag name=\"Event\">第%d局</tag>\n</game>\n", k);
        assert_true(xq_buf_append(&b, gbuf, (size_t)len));
        first[k] = line;
        line += 3;
    }
    assert_true(xq_buf_append(&b, "</games>\n", 9));
    assert_true(xq_buf_append(&b, "", 1));
    xq_game g[61];
    int n = read_with(b.p, b.len - 1, false, XQ_ENC_AUTO, false, g, 61);
    assert_int_equal(n, 60);
    for (int k = 0; k < n; k++) {
        assert_int_equal(g[k].first_line, first[k]);
        char want[120];
        snprintf(want, sizeof want, "<game>\n  <tag name=\"Event\">第%d局</tag>\n", k);
        assert_source(&g[k], want);
    }
    free_all(g, n);
    xq_buf_free(&b);
}

/* A document in GBK: libxml2 decodes it, its lines are not the UTF-8 the
 * game says: no source. */
static void xml_not_utf8(void **state)
{
    (void)state;
    static const char gbk[] = "<?xml version=\"1.0\" encoding=\"GBK\"?>\n<games xmlns=\"urn:xq-tools:game:1\">\n"
                              "<game>\n  <tag name=\"Red\">\xBA\xEC\xB7\xBD</tag>\n</game>\n</games>\n";
    xq_game g[2];
    int n = read_with(gbk, sizeof gbk - 1, false, XQ_ENC_AUTO, false, g, 2);
    assert_int_equal(n, 1);
    assert_string_equal(xq_game_tag(&g[0], "Red"), "红方");
    assert_null(g[0].source);
    free_all(g, n);
}

static void jsonl_lines(void **state)
{
    (void)state;
    static const char lines[] =
        "\xEF\xBB\xBF{\"tags\":{\"Red\":\"红方\"},\"moves\":[{\"text\":\"炮二平五\"}],\"result\":\"*\"}\n"
        "\n"
        "{\"tags\":{\"Event\":\"甲\"},\"result\":\"1-0\"}\r\n"
        "{\"tags\": not json}\n"
        "{\"tags\":{\"Event\":\"乙\"}}";
    for (int gz = 0; gz < 2; gz++) {
        xq_game g[5];
        int n = read_with(lines, sizeof lines - 1, false, XQ_ENC_AUTO, gz, g, 5);
        assert_int_equal(n, 4);
        assert_source(&g[0], "{\"tags\":{\"Red\":\"红方\"},\"moves\":[{\"text\":\"炮二平五\"}],\"result\":\"*\"}");
        assert_source(&g[1], "{\"tags\":{\"Event\":\"甲\"},\"result\":\"1-0\"}");
        assert_null(g[2].source);   /* (a line in error: an empty game) */
        assert_source(&g[3], "{\"tags\":{\"Event\":\"乙\"}}");
        /* the node's column counts characters of the source */
        const char *q = strstr(g[0].source, "\"炮二平五\"");
        uint32_t chars = 0;
        for (const char *c = g[0].source; c < q; c++) chars += ((unsigned char)*c & 0xC0) != 0x80;
        assert_int_equal(g[0].main.nodes[0].col, 1 + chars);
        free_all(g, n);
        n = read_with(lines, sizeof lines - 1, true, XQ_ENC_AUTO, gz, g, 5);
        for (int i = 0; i < n; i++) assert_null(g[i].source);
        free_all(g, n);
    }
}

/* GBK forced: the source is the decoded line, in the UTF-8 the game says. */
static void jsonl_gbk(void **state)
{
    (void)state;
    static const char line[] = "{\"tags\":{\"Red\":\"\xBA\xEC\xB7\xBD\"}}\n";
    xq_game g[2];
    int n = read_with(line, sizeof line - 1, false, XQ_ENC_GBK, false, g, 2);
    assert_int_equal(n, 1);
    assert_int_equal(g[0].encoding, XQ_ENC_UTF8);
    assert_source(&g[0], "{\"tags\":{\"Red\":\"红方\"}}");
    free_all(g, n);
}

/* Other readers keep none (a PGN record has its raw bytes). */
static void pgn_none(void **state)
{
    (void)state;
    static const char pgn[] = "[Red \"红方\"]\n\n1. 炮二平五 *\n";
    xq_game g[2];
    int n = read_with(pgn, sizeof pgn - 1, false, XQ_ENC_AUTO, false, g, 2);
    assert_int_equal(n, 1);
    assert_null(g[0].source);
    assert_int_equal(g[0].source_len, 0);
    assert_int_equal(g[0].raw_len, sizeof pgn - 1);
    free_all(g, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(xml_games),   cmocka_unit_test(xml_far_apart), cmocka_unit_test(xml_not_utf8),
        cmocka_unit_test(jsonl_lines), cmocka_unit_test(jsonl_gbk),     cmocka_unit_test(pgn_none),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
