/* test_jsonl_read.c - JSON Lines records read back (jsonl_read.h): every
 * record of the project's corpus and of the public one (PGN, XML, XQF,
 * CBR/CBL, DhtmlXQ) written by xq_write_json and read again gives the
 * same tags, start FEN, moves, comments, NAGs, variations and result, at
 * the JSON Lines line; each kind of error as one diagnostic with its exact
 * LINE:COL and message, reading going on at the next line; the sniffing
 * (and --from jsonl), a BOM, CRLF, blank lines, a last line without '\n',
 * gzip, a line over XQ_MAX_LINE, variations nested to the limit and far
 * past it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "pgn_read.h"
#include "replay.h"
#include "write.h"

#ifndef XQ_SHARED
#define XQ_SHARED "../shared"
#endif

/* ---- helpers --------------------------------------------------------------- */

/* Exactly one diagnostic, an error at line:col saying msg. */
static void one_error(const xq_game *g, uint32_t line, uint32_t col, const char *msg)
{
    if (g->diag_count != 1 || g->diags[0].line != line || g->diags[0].col != col || strcmp(g->diags[0].msg, msg))
        for (size_t i = 0; i < g->diag_count; i++)
            fprintf(stderr, "  have: %u:%u %s\n", g->diags[i].line, g->diags[i].col, g->diags[i].msg);
    assert_int_equal(g->diag_count, 1);
    assert_int_equal(g->diags[0].severity, XQ_SEV_ERROR);
    assert_int_equal(g->diags[0].line, line);
    assert_int_equal(g->diags[0].col, col);
    assert_string_equal(g->diags[0].msg, msg);
    /* an empty game: nothing of the line half read */
    assert_int_equal(g->tag_count, 0);
    assert_int_equal(g->main.count, 0);
    assert_null(g->fen);
    assert_null(g->result);
}

static xq_format sniff(const char *text)
{
    return xq_sniff_format((const unsigned char *)text, strlen(text));
}

static void str_eq(const char *a, const char *b)
{
    if (!a || !b) assert_ptr_equal(a, b);
    else assert_string_equal(a, b);
}

/* b, read from JSON Lines line `line`, holds a's line of play. */
static void same_line_of_play(const xq_branch *a, const xq_branch *b, uint32_t line)
{
    assert_int_equal(a->count, b->count);
    str_eq(a->comment, b->comment);
    for (size_t i = 0; i < a->count; i++) {
        const xq_node *x = &a->nodes[i], *y = &b->nodes[i];
        assert_string_equal(x->text, y->text);
        assert_int_equal(y->line, line);
        assert_true(y->col > 1);
        assert_int_equal(y->text_len, strlen(y->text));
        assert_int_equal(y->move, XQ_MOVE_NONE);
        str_eq(x->comment, y->comment);
        assert_int_equal(x->nag_count, y->nag_count);
        for (size_t k = 0; k < x->nag_count; k++) assert_int_equal(x->nags[k], y->nags[k]);
        assert_int_equal(x->variation_count, y->variation_count);
        for (uint32_t k = 0; k < x->variation_count; k++)
            same_line_of_play(&x->variations[k], &y->variations[k], line);
    }
}

/* Every record of path written as JSON Lines and read back; returns the
 * number of records. */
static size_t round_trip(const char *path)
{
    char jpath[64];
    strcpy(jpath, "/tmp/xq-test-XXXXXX");
    int fd = mkstemp(jpath);
    assert_true(fd >= 0);
    FILE *out = fdopen(fd, "w");
    assert_non_null(out);
    xq_replay_options opt;
    xq_replay_options_default(&opt);
    static xq_replay r;
    xq_game a;
    xq_game_init(&a);
    xq_reader *ra = xqt_reader_open(path);
    while (xq_reader_next(ra, &a) == 1) {
        xq_replay_game(&a, &opt, &r);
        xq_write_json(out, &a, &r);
    }
    xq_reader_close(ra);
    assert_int_equal(fclose(out), 0);

    xq_game b;
    xq_game_init(&b);
    ra = xqt_reader_open(path);
    xq_reader *rb = xqt_reader_open(jpath);
    size_t n = 0;
    while (xq_reader_next(ra, &a) == 1) {
        n++;
        assert_int_equal(xq_reader_next(rb, &b), 1);
        xq_replay_game(&a, &opt, &r);
        assert_int_equal(b.index, n);
        assert_int_equal(b.first_line, n);
        assert_int_equal(b.raw_len, 0);
        assert_int_equal(b.diag_count, 0);
        assert_int_equal(b.encoding, XQ_ENC_UTF8);
        assert_string_equal(b.file, jpath);
        assert_int_equal(a.tag_count, b.tag_count);
        for (size_t i = 0; i < a.tag_count; i++) {
            assert_string_equal(a.tags[i].name, b.tags[i].name);
            assert_string_equal(a.tags[i].value, b.tags[i].value);
        }
        str_eq(a.fen, b.fen);
        same_line_of_play(&a.main, &b.main, (uint32_t)n);
        /* the movetext's result comes back ("result", or "movetext_result"
         * where the Result tag's "result" is not it: write.h) */
        assert_int_equal(b.result_code, a.result_code);
        if (a.result_code != XQ_RESULT_NONE) assert_string_equal(b.result, xq_result_str(a.result_code));
        else assert_null(b.result);
    }
    assert_int_equal(xq_reader_next(rb, &b), 0);
    if (n) assert_int_equal(xq_reader_format(rb), XQ_FMT_JSONL);   /* (an empty file is PGN) */
    xq_reader_close(ra);
    xq_reader_close(rb);
    xq_game_free(&a);
    xq_game_free(&b);
    unlink(jpath);
    return n;
}

static size_t round_trip_glob(const char *pattern)
{
    glob_t gl;
    size_t n = 0;
    if (glob(pattern, 0, NULL, &gl) != 0) return 0;
    for (size_t i = 0; i < gl.gl_pathc; i++) n += round_trip(gl.gl_pathv[i]);
    globfree(&gl);
    return n;
}

/* ---- tests --------------------------------------------------------------- */

static void test_round_trip_corpus(void **state)
{
    (void)state;
    size_t n = round_trip_glob("corpus/*.pgn") + round_trip_glob("corpus/broken/*.pgn") +
               round_trip_glob("tests/data/*.pgn") + round_trip_glob("tests/data/convert-sample.out.xml");
    assert_true(n >= 45);
    if (access(XQ_SHARED "/corpus", R_OK) != 0) return;
    size_t m = round_trip_glob(XQ_SHARED "/corpus/xqf-spec/*.XQF") +
               round_trip_glob(XQ_SHARED "/corpus/cchess-testdata/*.[xX][qQ][fF]") +
               round_trip_glob(XQ_SHARED "/corpus/cchess-testdata/*.cb[rl]") +
               round_trip_glob(XQ_SHARED "/corpus/cchess-testdata/*.CBL") +
               round_trip_glob(XQ_SHARED "/corpus/cchess-testdata/*.pgn") +
               round_trip_glob(XQ_SHARED "/corpus/dhtmlxq/*.txt") +
               round_trip_glob(XQ_SHARED "/corpus/ccpd/openings.pgn.gz");
    assert_true(m > 100);
}

static void test_fields(void **state)
{
    (void)state;
    static const char text[] =
        "{\"file\":\"x\",\"game\":7,\"line\":9,\"tags\":{\"Event\":\"E \\\"1\\\"\",\"Round\":\"1\",\"Event\":\"E2\"},"
        "\"comment\":\"before\",\"moves\":[{\"text\":\"炮二平五\",\"iccs\":\"h2e2\",\"comment\":\"c1\\nc2\",\"nags\":[1,65535],"
        "\"variations\":[[{\"comment\":\"vc\"},{\"text\":\"h2d2\"}],[{\"text\":null,\"iccs\":\"b2e2\"}]]},"
        "{\"iccs\":\"h9g7\"}],\"result\":\"0-1\",\"status\":\"valid\",\"plies\":2,\"unknown\":[{}]}\n"
        /* the "fen" is the start only without a FEN tag */
        "{\"fen\":\"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\",\"result\":null}\n"
        "{\"fen\":\"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"}\n"
        "{\"tags\":{\"fen\":\"3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"},\"fen\":\"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"}\n"
        "{}\n";
    xq_game g[8];
    xq_format fmt;
    assert_int_equal(read_tmp_bytes(text, sizeof text - 1, g, 8, &fmt), 5);
    assert_int_equal(fmt, XQ_FMT_JSONL);
    assert_int_equal(g[0].index, 1);
    assert_int_equal(g[0].diag_count, 0);
    assert_int_equal(g[0].tag_count, 3);
    assert_string_equal(g[0].tags[0].value, "E \"1\"");
    assert_string_equal(g[0].tags[2].name, "Event");   /* duplicates kept */
    assert_string_equal(g[0].tags[2].value, "E2");
    assert_null(g[0].fen);
    assert_string_equal(g[0].main.comment, "before");
    assert_int_equal(g[0].main.count, 2);
    const xq_node *n = &g[0].main.nodes[0];
    assert_string_equal(n->text, "炮二平五");   /* "text" before "iccs" */
    assert_int_equal(n->col, strstr(text, "\"炮二平五") - text + 1);   /* the byte column of its text */
    assert_string_equal(n->comment, "c1\nc2");
    assert_int_equal(n->nag_count, 2);
    assert_int_equal(n->nags[1], 65535);
    assert_int_equal(n->variation_count, 2);
    assert_string_equal(n->variations[0].comment, "vc");
    assert_int_equal(n->variations[0].count, 1);
    assert_string_equal(n->variations[0].nodes[0].text, "h2d2");
    assert_null(n->variations[1].comment);
    assert_string_equal(n->variations[1].nodes[0].text, "b2e2");   /* text null: iccs */
    assert_string_equal(g[0].main.nodes[1].text, "h9g7");
    assert_string_equal(g[0].result, "0-1");
    assert_int_equal(g[0].result_code, XQ_RESULT_BLACK);
    assert_null(g[1].fen);
    assert_null(g[1].result);
    assert_string_equal(g[2].fen, "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
    assert_string_equal(g[3].fen, "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");   /* the tag wins */
    /* a record of no tag, move or result: no game (pgn_read.c no_game) */
    one_error(&g[4], 5, 1, "no game: no tag, move or result");
    assert_int_equal(g[4].main.count, 0);
    assert_int_equal(g[4].first_line, 5);
    free_all(g, 5);
}

static void test_errors(void **state)
{
    (void)state;
    static const char text[] =
        "{\"tags\":{\"Event\":1}}\n"                              /* 1 */
        "{bad\n"                                                    /* 2 */
        "[1,2]\n"                                                   /* 3 */
        "{\"moves\":[{\"text\":\"h2e2\",\"nags\":[1,\"x\"]}]}\n"    /* 4 */
        "{\"moves\":[{\"text\":\"h2e2\",\"nags\":[65536]}]}\n"      /* 5 */
        "{\"moves\":[{\"text\":\"h2e2\",\"comment\":\"a\\u0000b\"}]}\n"  /* 6 */
        "{\"moves\":[{\"text\":\"\xff\"}]}\n"                       /* 7 */
        "{\"result\":\"2-0\"}\n"                                    /* 8 */
        "{\"moves\":{}}\n"                                          /* 9 */
        "{\"moves\":[{\"comment\":\"c\"}]}\n"                       /* 10 */
        "{\"moves\":[{\"text\":\"a\"},{\"text\":\"b\",\"variations\":[[{\"text\":\"c\"},7]]}]}\n"  /* 11 */
        "{\"a\":\"\0\"}\n"                                          /* 12 */
        "{\"tags\":[]}\n"                                           /* 13 */
        "{\"moves\":[{\"text\":\"h2e2\",\"nags\":[1.0]}]}\n"        /* 14 */
        "{\"tags\":{\"Event\":\"ok\"}}\n"                           /* 15 */
        "{\"comment\":\"x\"";                                       /* 16, no '\n', cut */
    xq_game g[20];
    assert_int_equal(read_tmp_bytes(text, sizeof text - 1, g, 20, NULL), 16);
    one_error(&g[0], 1, 18, "tags.Event: expected a string, not a number");
    one_error(&g[1], 2, 2, "not valid JSON: expected a key");
    one_error(&g[2], 3, 1, "expected a JSON object (a record), not an array");
    one_error(&g[3], 4, 36, "moves[0].nags[1]: expected a whole number from 0 to 65535, not a string");
    one_error(&g[4], 5, 34, "moves[0].nags[0]: expected a whole number from 0 to 65535, not 65536");
    one_error(&g[5], 6, 36, "moves[0].comment: NUL character (\\u0000) in a string");
    one_error(&g[6], 7, 20, "not valid JSON: invalid UTF-8 in a string");
    one_error(&g[7], 8, 11, "result: expected 1-0, 0-1, 1/2-1/2, * or null");
    one_error(&g[8], 9, 10, "moves: expected an array, not an object");
    one_error(&g[9], 10, 11, "moves[0]: a move without \"text\" or \"iccs\"");
    one_error(&g[10], 11, 64, "moves[1].variations[0][1]: expected a move (an object), not a number");
    one_error(&g[11], 12, 7, "not valid JSON: control character in a string");
    one_error(&g[12], 13, 9, "tags: expected an object, not an array");
    one_error(&g[13], 14, 34, "moves[0].nags[0]: expected a whole number from 0 to 65535, not 1.0");
    assert_int_equal(g[14].diag_count, 0);
    assert_string_equal(g[14].tags[0].value, "ok");
    one_error(&g[15], 16, 15, "not valid JSON: expected ',' or '}'");
    for (int i = 0; i < 16; i++) {
        assert_int_equal(g[i].index, (uint64_t)i + 1);
        assert_int_equal(g[i].first_line, (uint64_t)i + 1);
    }
    /* the replay reports the reader's error as a syntax finding, the game
     * counted with errors (as a PGN record's syntax error) */
    xq_replay_options opt;
    xq_replay_options_default(&opt);
    static xq_replay r;
    xq_replay_game(&g[1], &opt, &r);
    assert_int_equal(r.status, XQ_STATUS_VALID);
    assert_int_equal(r.error_count, 1);
    assert_int_equal(r.nfindings, 1);
    assert_int_equal(r.findings[0].kind, XQ_FIND_SYNTAX);
    assert_int_equal(r.findings[0].line, 2);
    assert_int_equal(r.findings[0].col, 2);
    free_all(g, 16);
}

static void test_layout(void **state)
{
    (void)state;
    /* BOM, blank lines (spaces, tabs, CR), CRLF, a last line without '\n' */
    static const char text[] = "\xEF\xBB\xBF \t{\"tags\":{\"A\":\"1\"}}\r\n\r\n  \t \n{\"tags\":{\"A\":2}}\r\n\n{}";
    xq_game g[4];
    xq_format fmt;
    assert_int_equal(read_tmp_bytes(text, sizeof text - 1, g, 4, &fmt), 3);
    assert_int_equal(fmt, XQ_FMT_JSONL);
    assert_int_equal(g[0].diag_count, 0);
    assert_string_equal(g[0].tags[0].value, "1");
    one_error(&g[1], 4, 14, "tags.A: expected a string, not a number");
    uint64_t line4 = (uint64_t)(strstr(text, "{\"tags\":{\"A\":2") - text);
    assert_int_equal(g[1].offset, line4);
    assert_int_equal(g[1].diags[0].offset, line4 + 13);
    assert_int_equal(g[2].first_line, 6);
    one_error(&g[2], 6, 1, "no game: no tag, move or result");
    free_all(g, 3);

    /* what is sniffed as JSON Lines, and what stays PGN */
    assert_int_equal(sniff("\xEF\xBB\xBF\r\n {\"a\":1}"), XQ_FMT_JSONL);
    assert_int_equal(sniff("[Event \"{\"]\n{"), XQ_FMT_PGN);
    assert_int_equal(sniff("1. h2e2 {c}"), XQ_FMT_PGN);
    /* a PGN file may start with a comment: only an object's start is JSON */
    assert_int_equal(sniff("{start} 1. h2e2"), XQ_FMT_PGN);
    assert_int_equal(sniff("{\"quoted\"} 1. h2e2"), XQ_FMT_PGN);
    assert_int_equal(sniff("{\"a\b"), XQ_FMT_PGN);
    assert_int_equal(sniff("{\"a"), XQ_FMT_PGN);
    /* a whole first line must be an object naming a record field: a
     * {comment} that is valid JSON stays PGN, and so does an object
     * spread over lines (not JSON Lines) */
    assert_int_equal(sniff("{ }\n"), XQ_FMT_PGN);
    assert_int_equal(sniff("{}\n[Event \"x\"]\n"), XQ_FMT_PGN);
    assert_int_equal(sniff("{\"Note\": 1}\n1. h2e2 *\n"), XQ_FMT_PGN);
    assert_int_equal(sniff("{\"t\\\"x\" \r\n:1}"), XQ_FMT_PGN);
    assert_int_equal(sniff("{\"moves\":[]}\n"), XQ_FMT_JSONL);
    assert_int_equal(sniff("{\"x\":1,\"game\":2}\r\n"), XQ_FMT_JSONL);
    /* a line in GBK or Big5 (no JSON parse reads it: a character may end
     * in '\\', Big5 許 is B3 5C): a record when its first key is a field,
     * as the writer writes it; a {comment} in those encodings stays PGN */
    assert_int_equal(sniff("{\"file\":\"\xB3\x5C.pgn\",\"game\":1}\n"), XQ_FMT_JSONL);
    assert_int_equal(sniff("{ \"tags\" :{\"Event\":\"\xD6\xD0\"}}\n"), XQ_FMT_JSONL);
    assert_int_equal(sniff("{\"\xD6\xD0\":\"file\"}\n1. h2e2 *\n"), XQ_FMT_PGN);
    assert_int_equal(sniff("{\xD6\xD0} 1. h2e2 *\n"), XQ_FMT_PGN);
    assert_int_equal(sniff("{\"Note\": \"\xD6\xD0\"}\n1. h2e2 *\n"), XQ_FMT_PGN);
    /* a first line longer than the sample: judged by its start */
    assert_int_equal(sniff("\n{\"tags\":{}}"), XQ_FMT_JSONL);
    assert_string_equal(xq_format_name(XQ_FMT_JSONL), "jsonl");

    /* forced: a file that does not start with '{' read as JSON Lines */
    char path[64];
    save_tmp("[1]\n{}\n", 7, path);
    xq_read_options ro = {.format = XQ_FMT_JSONL};
    char err[256];
    xq_reader *r = xq_reader_open(path, &ro, err, sizeof err);
    assert_non_null(r);
    assert_int_equal(xq_reader_format(r), XQ_FMT_JSONL);
    xq_game a;
    xq_game_init(&a);
    assert_int_equal(xq_reader_next(r, &a), 1);
    one_error(&a, 1, 1, "expected a JSON object (a record), not an array");
    assert_int_equal(xq_reader_next(r, &a), 1);
    one_error(&a, 2, 1, "no game: no tag, move or result");   /* (read: no record's field) */
    assert_int_equal(xq_reader_next(r, &a), 0);
    xq_reader_close(r);
    xq_game_free(&a);
    unlink(path);
}

/* Columns count characters, as the other readers do (man xq(7)): the
 * same line in UTF-8, GBK and Big5 gives the same columns, those of its
 * characters (not of its bytes, nor of its UTF-8 decoding): a move's
 * text (its opening quote), a FEN value's first character, a JSON syntax
 * error, a field of the wrong type; and a diagnostic's byte offset is
 * in the file's bytes. */
static void test_columns_in_characters(void **state)
{
    (void)state;
    static const char *const text[3] = {
        "{\"tags\":{\"Event\":\"\xE4\xB8\xAD\xE6\x96\x87\"},\"moves\":[{\"text\":\"\xE7\x82\xAE\xE4\xBA\x8C\xE5\xB9\xB3\xE4\xBA\x94\"},{\"text\":\"\xE8\xB1\xA1\xE6\xA3\x8B\"}]}\n"
        "{\"tags\":{\"Event\":\"\xE4\xB8\xAD\xE6\x96\x87\"},x}\n"
        "{\"tags\":{\"Event\":\"\xE4\xB8\xAD\xE6\x96\x87\"},\"moves\":5}\n"
        "{\"tags\":{\"Event\":\"\xE4\xB8\xAD\xE6\x96\x87\",\"FEN\":\"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"},\"moves\":[{\"text\":\"\xE5\xB8\xA5\xE4\xBA\x94\xE5\xB9\xB3\xE5\x9B\x9B\"}]}\n",
        "{\"tags\":{\"Event\":\"\xD6\xD0\xCE\xC4\"},\"moves\":[{\"text\":\"\xC5\xDA\xB6\xFE\xC6\xBD\xCE\xE5\"},{\"text\":\"\xCF\xF3\xC6\xE5\"}]}\n"
        "{\"tags\":{\"Event\":\"\xD6\xD0\xCE\xC4\"},x}\n"
        "{\"tags\":{\"Event\":\"\xD6\xD0\xCE\xC4\"},\"moves\":5}\n"
        "{\"tags\":{\"Event\":\"\xD6\xD0\xCE\xC4\",\"FEN\":\"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"},\"moves\":[{\"text\":\"\x8E\x9B\xCE\xE5\xC6\xBD\xCB\xC4\"}]}\n",
        "{\"tags\":{\"Event\":\"\xA4\xA4\xA4\xE5\"},\"moves\":[{\"text\":\"\xAC\xB6\xA4G\xA5\xAD\xA4\xAD\"},{\"text\":\"\xB6H\xB4\xD1\"}]}\n"
        "{\"tags\":{\"Event\":\"\xA4\xA4\xA4\xE5\"},x}\n"
        "{\"tags\":{\"Event\":\"\xA4\xA4\xA4\xE5\"},\"moves\":5}\n"
        "{\"tags\":{\"Event\":\"\xA4\xA4\xA4\xE5\",\"FEN\":\"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"},\"moves\":[{\"text\":\"\xAB\xD3\xA4\xAD\xA5\xAD\xA5|\"}]}\n",
    };
    static const xq_encoding enc[3] = {XQ_ENC_AUTO, XQ_ENC_GBK, XQ_ENC_BIG5};
    for (int e = 0; e < 3; e++) {
        char path[64], err[256];
        save_tmp(text[e], strlen(text[e]), path);
        xq_read_options ro = {.encoding = enc[e], .format = XQ_FMT_JSONL};
        xq_reader *r = xq_reader_open(path, &ro, err, sizeof err);
        assert_non_null(r);
        xq_game g;
        xq_game_init(&g);
        assert_int_equal(xq_reader_next(r, &g), 1);
        assert_int_equal(g.diag_count, 0);
        assert_string_equal(xq_game_tag(&g, "Event"), "\xE4\xB8\xAD\xE6\x96\x87");
        assert_int_equal(g.main.count, 2);
        assert_int_equal(g.main.nodes[0].col, 41);   /* 41 characters, 51 bytes of UTF-8 */
        assert_int_equal(g.main.nodes[1].col, 57);
        assert_int_equal(xq_reader_next(r, &g), 1);
        assert_int_equal(g.diag_count, 1);
        assert_int_equal(g.diags[0].col, 24);       /* the x */
        /* offsets are in the file's own bytes, not in its decoding */
        assert_int_equal(g.diags[0].offset, (uint64_t)(strstr(text[e], ",x}") + 1 - text[e]));
        assert_int_equal(xq_reader_next(r, &g), 1);
        assert_int_equal(g.diag_count, 1);
        assert_int_equal(g.diags[0].col, 32);       /* the 5 */
        assert_int_equal(g.diags[0].offset, (uint64_t)(strstr(text[e], ":5}") + 1 - text[e]));
        assert_int_equal(xq_reader_next(r, &g), 1);
        assert_int_equal(g.fen_line, 4);
        assert_int_equal(g.fen_col, 30);            /* the FEN's 4k4 */
        assert_int_equal(g.main.nodes[0].col, 83);
        assert_int_equal(xq_reader_next(r, &g), 0);
        xq_reader_close(r);
        xq_game_free(&g);
        unlink(path);
    }
}

static void test_gzip(void **state)
{
    (void)state;
    static const char text[] = "{\"moves\":[{\"text\":\"h2e2\"}]}\n{\"moves\":[{\"text\":\"b2e2\"}]}\n";
    char path[64];
    save_tmp_gz(text, sizeof text - 1, 6, path);
    xq_game g[3];
    xq_format fmt;
    assert_int_equal(read_path(path, g, 3, &fmt), 2);
    assert_int_equal(fmt, XQ_FMT_JSONL);
    assert_string_equal(g[1].main.nodes[0].text, "b2e2");
    assert_int_equal(g[1].main.nodes[0].col, 19);
    free_all(g, 2);

    /* cut in the middle of the second line: the first record, the cut
     * one with its error, then the read error */
    size_t n;
    unsigned char *gz = load(path, &n);
    char cut[64];
    save_tmp(gz, n - 12, cut);
    free(gz);
    char err[256];
    xq_reader *r = xq_reader_open(cut, NULL, err, sizeof err);
    assert_non_null(r);
    xq_game a;
    xq_game_init(&a);
    int rc, records = 0;
    while ((rc = xq_reader_next(r, &a)) == 1) records++;
    assert_int_equal(rc, -1);
    assert_true(records >= 1);
    assert_non_null(strstr(xq_reader_error(r), cut));
    xq_reader_close(r);
    xq_game_free(&a);
    unlink(cut);
    unlink(path);
}

/* A record whose main line's first move has variations nested depth deep. */
static char *deep_record(int depth)
{
    static const char open[] = "[{\"text\":\"h2e2\",\"variations\":[", close[] = "]}]";
    size_t n = 16 + (size_t)depth * (sizeof open + sizeof close) + 16;
    char *s = malloc(n), *p = s;
    assert_non_null(s);
    p += sprintf(p, "{\"moves\":");
    for (int i = 0; i < depth; i++) p += sprintf(p, "%s", open);
    p += sprintf(p, "[]");
    for (int i = 0; i < depth; i++) p += sprintf(p, "%s", close);
    p += sprintf(p, "}\n");
    return s;
}

static void test_limits(void **state)
{
    (void)state;
    /* variations nested as deep as the PGN reader keeps them: read */
    char *ok = deep_record(XQ_MAX_VARIATION_DEPTH);
    xq_game g[3];
    assert_int_equal(read_tmp_bytes(ok, strlen(ok), g, 3, NULL), 1);
    assert_int_equal(g[0].diag_count, 0);
    const xq_branch *b = &g[0].main;
    int depth = 0;
    while (b->count && b->nodes[0].variation_count) {
        b = &b->nodes[0].variations[0];
        depth++;
    }
    assert_int_equal(depth, XQ_MAX_VARIATION_DEPTH);
    free_all(g, 1);
    free(ok);

    /* 10,000 deep: one error where the nesting passes the limit, and the
     * next line read */
    char *deep = deep_record(10000);
    size_t n = strlen(deep);
    deep = realloc(deep, n + 4);
    assert_non_null(deep);
    memcpy(deep + n, "{}\n", 4);
    assert_int_equal(read_tmp_bytes(deep, n + 3, g, 3, NULL), 2);
    /* each level is 30 bytes from column 10; the text of the move one
     * level past the deepest variation kept is the first value too deep */
    one_error(&g[0], 1, 10 + 30 * (XQ_MAX_VARIATION_DEPTH + 1) + 9, "not valid JSON: nesting too deep");
    one_error(&g[1], 2, 1, "no game: no tag, move or result");   /* (read: no record's field) */
    free_all(g, 2);
    free(deep);

    /* a line longer than XQ_MAX_LINE: one error, not read, the next one is */
    size_t big = (size_t)XQ_MAX_LINE + 100;
    char *huge = malloc(big + 8);
    assert_non_null(huge);
    memcpy(huge, "{\"a\":\"", 6);
    memset(huge + 6, 'x', big - 8);
    memcpy(huge + big - 2, "\"}\n{}\n", 6);
    assert_int_equal(read_tmp_bytes(huge, big + 4, g, 3, NULL), 2);
    one_error(&g[0], 1, 1, "line longer than 16777216 bytes (a JSON Lines record is one line): not read");
    one_error(&g[1], 2, 1, "no game: no tag, move or result");   /* (read: no record's field) */
    assert_int_equal(g[1].first_line, 2);
    free_all(g, 2);
    free(huge);
}

int main(int argc, char **argv)
{
    (void)argc;
    xqt_chdir_to_root(argv[0], "corpus/broken.pgn");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_corpus),
        cmocka_unit_test(test_fields),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_gzip),
        cmocka_unit_test(test_columns_in_characters),
        cmocka_unit_test(test_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
