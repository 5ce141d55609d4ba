/* test_xml_damage.c - XML input that is not well formed, and XML games
 * kept by xq-validate --keep.
 *
 * The reader hands over every game read before the first XML error, the
 * one the error cuts with an error diagnostic at the error's line and
 * column, then fails with the error on every later call (nothing after
 * it is read); that holds whether the error comes in the first chunk
 * libxml2 reads (so every game is still ahead of its streaming reader)
 * or far into a document (the games behind it already freed), for an
 * error libxml2 would parse on after (an undeclared namespace prefix),
 * and for input that ends early (a cut gzip stream).  xq_write_kept
 * writes a game as XML or PGN with its result fixed, and leaves the game
 * as it was. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "game_io.h"
#include "pgn_read.h"
#include "replay.h"
#include "write.h"

#define HEAD "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<games xmlns=\"urn:xq-tools:game:1\">\n"

/* What a reader gave for one file: the games (each initialised; free
 * with gone()), the last return value and the reader's error then. */
typedef struct {
    xq_game g[256];
    int n, rc, rc_again;
    char err[512];
    char path[64];
} got;

static void write_file(got *o, const void *bytes, size_t n)
{
    strcpy(o->path, "/tmp/xq-test-xmld-XXXXXX");
    int fd = mkstemp(o->path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, bytes, n), (ssize_t)n);
    close(fd);
}

/* Read every game of the file at o->path, and call once more after the end. */
static void read_path(got *o)
{
    char err[512];
    xq_reader *rd = xq_reader_open(o->path, NULL, err, sizeof err);
    assert_non_null(rd);
    assert_int_equal(xq_reader_format(rd), XQ_FMT_XML);
    o->n = 0;
    for (;;) {
        assert_true(o->n < 256);
        xq_game_init(&o->g[o->n]);
        o->rc = xq_reader_next(rd, &o->g[o->n]);
        if (o->rc != 1) break;
        o->n++;
    }
    snprintf(o->err, sizeof o->err, "%s", xq_reader_error(rd));
    o->rc_again = xq_reader_next(rd, &o->g[o->n]);   /* after the end, still the end */
    xq_reader_close(rd);
}

static void read_text(got *o, const char *text)
{
    write_file(o, text, strlen(text));
    read_path(o);
}

static void gone(got *o)
{
    for (int i = 0; i <= o->n; i++) xq_game_free(&o->g[i]);
    unlink(o->path);
}

/* The error text with the temporary path replaced by "F". */
static const char *err_of(got *o)
{
    static char buf[512];
    size_t pl = strlen(o->path);
    if (!strncmp(o->err, o->path, pl)) snprintf(buf, sizeof buf, "F%s", o->err + pl);
    else snprintf(buf, sizeof buf, "%s", o->err);
    return buf;
}

static void no_diags(const got *o, int from, int to)
{
    for (int i = from; i < to; i++) assert_int_equal(o->g[i].diag_count, 0);
}

static void one_diag(const xq_game *g, uint32_t line, uint32_t col, const char *msg)
{
    assert_int_equal(g->diag_count, 1);
    assert_int_equal(g->diags[0].severity, XQ_SEV_ERROR);
    assert_int_equal(g->diags[0].line, line);
    assert_int_equal(g->diags[0].col, col);
    assert_string_equal(g->diags[0].msg, msg);
}

static const char THREE[] = HEAD
    "<game result=\"1-0\">\n"                         /* 3 */
    "  <tag name=\"Event\">one</tag>\n"
    "  <move iccs=\"h2e2\" text=\"炮二平五\"/>\n"
    "</game>\n"
    "<game>\n"                                        /* 7 */
    "  <tag name=\"Event\">two</tag>\n"
    "  <move iccs=\"h2e2\"/>\n"
    "  <move iccs=\"h9g7\"/>\n"
    "</game>\n"
    "<game>\n"                                        /* 12 */
    "  <tag name=\"Event\">three</tag>\n"
    "  <move iccs=\"b2e2\"/>\n"
    "  <move iccs=\"b9c7\"/>\n"
    "</game>\n"
    "</games>\n";

/* The document cut inside its third game, after one move of it. */
static void truncated_in_a_game(void **state)
{
    (void)state;
    got o;
    const char *cut = strstr(THREE, "  <move iccs=\"b9c7\"/>");
    write_file(&o, THREE, (size_t)(cut - THREE));
    read_path(&o);
    assert_int_equal(o.n, 3);
    assert_int_equal(o.rc, -1);
    assert_int_equal(o.rc_again, -1);
    no_diags(&o, 0, 2);
    assert_string_equal(xq_game_tag(&o.g[2], "Event"), "three");
    assert_int_equal(o.g[2].index, 3);
    assert_int_equal(o.g[2].first_line, 12);
    assert_int_equal(o.g[2].main.count, 1);
    assert_string_equal(o.g[2].main.nodes[0].text, "b2e2");
    one_diag(&o.g[2], 14, 22,
             "XML error: the document ends early: <game> (line 12) is not closed; the record is cut here");
    assert_string_equal(err_of(&o), "F:14:22: XML error: the document ends early: <game> (line 12) is not closed");
    gone(&o);
}

/* A mismatched end tag in the second game: the first game, the second cut
 * where the error is (its comment, left open, is kept); the third is not
 * read. */
static void unclosed_element(void **state)
{
    (void)state;
    char text[sizeof THREE + 64];
    const char *at = strstr(THREE, "  <move iccs=\"h9g7\"/>");
    snprintf(text, sizeof text, "%.*s  <move iccs=\"h9g7\"><comment>open</move>\n%s", (int)(at - THREE), THREE,
             at + strlen("  <move iccs=\"h9g7\"/>\n"));
    got o;
    read_text(&o, text);
    assert_int_equal(o.n, 2);
    assert_int_equal(o.rc, -1);
    no_diags(&o, 0, 1);
    assert_string_equal(xq_game_tag(&o.g[1], "Event"), "two");
    assert_int_equal(o.g[1].main.count, 2);
    assert_string_equal(o.g[1].main.nodes[1].comment, "open");
    one_diag(&o.g[1], 10, 41,
             "XML error: Opening and ending tag mismatch: comment line 10 and move; the record is cut here");
    assert_string_equal(err_of(&o), "F:10:41: XML error: Opening and ending tag mismatch: comment line 10 and move");
    gone(&o);
}

/* A character XML forbids, in an attribute of the third game's second move. */
static void bad_character(void **state)
{
    (void)state;
    char text[sizeof THREE + 8];
    snprintf(text, sizeof text, "%s", THREE);
    char *p = strstr(text, "b9c7");
    p[2] = '\x01';
    got o;
    read_text(&o, text);
    assert_int_equal(o.n, 3);
    no_diags(&o, 0, 2);
    assert_int_equal(o.g[2].main.count, 1);   /* the move with the bad attribute is not made */
    one_diag(&o.g[2], 15, 17, "XML error: invalid character in attribute value; the record is cut here");
    assert_string_equal(err_of(&o), "F:15:17: XML error: invalid character in attribute value");
    gone(&o);
}

/* Text after the root element, in the first chunk libxml2 parses (so the
 * error comes before its reader has given any game): all three games,
 * whole, then the error. */
static void junk_after_the_document(void **state)
{
    (void)state;
    char text[sizeof THREE + 16];
    snprintf(text, sizeof text, "%sjunk\n", THREE);
    got o;
    read_text(&o, text);
    assert_int_equal(o.n, 3);
    assert_int_equal(o.rc, -1);
    assert_int_equal(o.rc_again, -1);
    no_diags(&o, 0, 3);
    assert_int_equal(o.g[2].main.count, 2);
    assert_string_equal(err_of(&o), "F:18:1: XML error: Extra content at the end of the document");
    gone(&o);
}

/* A short document (under libxml2's first 512-byte chunk) broken in its
 * third game: the reader fails before giving any game, and two whole games
 * and the cut one come out all the same. */
static void error_in_the_first_chunk(void **state)
{
    (void)state;
    got o;
    read_text(&o, HEAD "<game><move iccs=\"h2e2\"/></game>\n<game><move iccs=\"b2e2\"/></game>\n"
                       "<game><move iccs=\"c3c4\"/><move iccs=\"c6c5\"></game>\n</games>\n");
    assert_int_equal(o.n, 3);
    no_diags(&o, 0, 2);
    assert_string_equal(o.g[1].main.nodes[0].text, "b2e2");
    assert_int_equal(o.g[2].main.count, 2);
    one_diag(&o.g[2], 5, 51, "XML error: Opening and ending tag mismatch: move line 5 and game; the record is cut here");
    gone(&o);
}

/* An undeclared namespace prefix: libxml2 would parse on, the reader
 * stops there all the same (the game after it is not read). */
static void namespace_error(void **state)
{
    (void)state;
    char text[sizeof THREE + 16];
    const char *at = strstr(THREE, "  <tag name=\"Event\">two</tag>\n");
    snprintf(text, sizeof text, "%.*s<x:y/>%s", (int)(at - THREE), THREE, at);
    got o;
    read_text(&o, text);
    assert_int_equal(o.n, 2);
    no_diags(&o, 0, 1);
    assert_int_equal(o.g[1].tag_count, 0);
    assert_int_equal(o.g[1].main.count, 0);
    one_diag(&o.g[1], 8, 5, "XML error: Namespace prefix x on y is not defined; the record is cut here");
    gone(&o);
}

/* An error inside a <game> start tag: no game of it was read, so none is
 * handed over; the ones before are. */
static void error_in_a_game_start_tag(void **state)
{
    (void)state;
    char text[sizeof THREE + 16];
    const char *at = strstr(THREE, "<game>\n  <tag name=\"Event\">three");
    snprintf(text, sizeof text, "%.*s<game result>%s", (int)(at - THREE), THREE, at + strlen("<game>"));
    got o;
    read_text(&o, text);
    assert_int_equal(o.n, 2);
    no_diags(&o, 0, 2);
    assert_string_equal(err_of(&o), "F:12:13: XML error: Specification mandates value for attribute result");
    gone(&o);
}

/* 200 games, the 150th cut: libxml2's reader has freed the games behind
 * it by then; 149 whole games and the cut one come out, in order. */
static void error_far_into_the_document(void **state)
{
    (void)state;
    size_t cap = 200 * 120 + 200, len = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    len += (size_t)snprintf(text + len, cap - len, HEAD);
    for (int i = 1; i <= 200; i++) {
        len += (size_t)snprintf(text + len, cap - len, "<game><tag name=\"Round\">%d</tag><move iccs=\"h2e2\"/>%s</game>\n",
                                i, i == 150 ? "<move iccs=\"h9g7\">&bad</move>" : "<move iccs=\"h9g7\"/>");
    }
    len += (size_t)snprintf(text + len, cap - len, "</games>\n");
    got o;
    read_text(&o, text);
    free(text);
    assert_int_equal(o.n, 150);
    no_diags(&o, 0, 149);
    for (int i = 0; i < 150; i++) {
        char round[8];
        snprintf(round, sizeof round, "%d", i + 1);
        assert_string_equal(xq_game_tag(&o.g[i], "Round"), round);
        assert_int_equal(o.g[i].index, (uint64_t)i + 1);
        assert_int_equal(o.g[i].main.count, 2);
    }
    one_diag(&o.g[149], 152, 75, "XML error: EntityRef: expecting ';'; the record is cut here");
    gone(&o);
}

/* A gzip stream cut inside the second game (its bytes flushed, never
 * finished): the game is cut where the data ends, with the input's own
 * reason, as the PGN reader says it. */
static void gzip_cut(void **state)
{
    (void)state;
    size_t keep = (size_t)(strstr(THREE, "  <move iccs=\"h9g7\"/>") - THREE);
    unsigned char z[2048];
    z_stream s;
    memset(&s, 0, sizeof s);
    assert_int_equal(deflateInit2(&s, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    s.next_in = (Bytef *)THREE;
    s.avail_in = (uInt)keep;
    s.next_out = z;
    s.avail_out = sizeof z;
    assert_int_equal(deflate(&s, Z_SYNC_FLUSH), Z_OK);
    size_t zn = sizeof z - s.avail_out;
    deflateEnd(&s);
    got o;
    write_file(&o, z, zn);
    read_path(&o);
    assert_int_equal(o.n, 2);
    no_diags(&o, 0, 1);
    assert_int_equal(o.g[1].main.count, 1);
    one_diag(&o.g[1], 9, 22,
             "input ends early (unexpected end of file: the gzip data is cut short); the record is cut here");
    assert_string_equal(err_of(&o), "F: unexpected end of file: the gzip data is cut short");
    gone(&o);
}

/* ---- xq_write_kept ------------------------------------------------------------ */

/* The first game of text (XML or PGN), replayed. */
static void load_game(got *o, const char *text, xq_replay *r)
{
    read_text(o, text);
    assert_true(o->n >= 1);
    xq_replay_options opt;
    xq_replay_options_default(&opt);
    xq_replay_game(&o->g[0], &opt, r);
}

static char *kept(const xq_game *g, const xq_replay *r, xq_out_format f, xq_result fixed)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    assert_true(xq_write_kept(out, g, r, f, fixed));
    fclose(out);
    return buf;
}

static const char MATE[] = HEAD
    "<game result=\"0-1\">\n"
    "  <tag name=\"Event\">mate</tag>\n"
    "  <tag name=\"result\">0-1</tag>\n"
    "  <fen>4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1</fen>\n"
    "  <move iccs=\"i0i9\"/>\n"
    "</game>\n"
    "</games>\n";

/* The Result tag replaced (matched in any case) and the result attribute
 * set; without a fix, the game as xq-convert --to xml writes it; the game
 * itself unchanged. */
static void kept_xml_with_fixed_result(void **state)
{
    (void)state;
    got o;
    xq_replay r;
    load_game(&o, MATE, &r);
    assert_int_equal(r.result_board, XQ_RESULT_RED);
    char *s = kept(&o.g[0], &r, XQ_OUT_XML, r.result_board);
    assert_string_equal(s, "<game result=\"1-0\">\n"
                           "  <tag name=\"Event\">mate</tag>\n"
                           "  <tag name=\"result\">1-0</tag>\n"
                           "  <fen>4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1</fen>\n"
                           "  <move iccs=\"i0i9\" text=\"车一进九\"/>\n"
                           "</game>\n");
    free(s);
    s = kept(&o.g[0], &r, XQ_OUT_XML, XQ_RESULT_NONE);
    assert_non_null(strstr(s, "<game result=\"0-1\">\n"));
    assert_non_null(strstr(s, "<tag name=\"result\">0-1</tag>"));
    free(s);
    assert_int_equal(o.g[0].result_code, XQ_RESULT_BLACK);
    assert_string_equal(xq_game_tag(&o.g[0], "Result"), "0-1");
    assert_int_equal(o.g[0].tag_count, 3);   /* Event, result, FEN */
    gone(&o);
}

/* No Result tag: one is added after the others; as PGN, the tag and the
 * movetext result say the fixed result. */
static void kept_pgn_with_added_result(void **state)
{
    (void)state;
    got o;
    xq_replay r;
    char text[sizeof MATE];
    const char *at = strstr(MATE, "  <tag name=\"result\">");
    snprintf(text, sizeof text, "%.*s%s", (int)(at - MATE), MATE, strstr(at, "  <fen>"));
    load_game(&o, text, &r);
    char *s = kept(&o.g[0], &r, XQ_OUT_PGN, XQ_RESULT_RED);
    assert_string_equal(s, "[Game \"Chinese Chess\"]\n"
                           "[Event \"mate\"]\n"
                           "[Result \"1-0\"]\n"
                           "[FEN \"4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1\"]\n"
                           "\n"
                           "1. 车一进九 1-0\n\n");
    free(s);
    assert_int_equal(o.g[0].tag_count, 2);   /* Event, FEN */
    gone(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(truncated_in_a_game),
        cmocka_unit_test(unclosed_element),
        cmocka_unit_test(bad_character),
        cmocka_unit_test(junk_after_the_document),
        cmocka_unit_test(error_in_the_first_chunk),
        cmocka_unit_test(namespace_error),
        cmocka_unit_test(error_in_a_game_start_tag),
        cmocka_unit_test(error_far_into_the_document),
        cmocka_unit_test(gzip_cut),
        cmocka_unit_test(kept_xml_with_fixed_result),
        cmocka_unit_test(kept_pgn_with_added_result),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
