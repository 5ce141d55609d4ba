/* test_write.c - the writers (PGN in every notation, XBoard, UCCI, XML,
 * JSON Lines), the shared move walk and tag order, output encodings, and
 * the XML reader: round trips, schema validity through libxml2's RELAX NG
 * API (src/xq-game.rng), and refusal of hostile XML. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/relaxng.h>

#include "pgn_read.h"
#include "replay.h"
#include "write.h"
#include "test_util.h"

/* src/xq-game.rng, relative to this file (tests run from the top directory). */
static const char *schema_path(void)
{
    static char path[512];
    const char *f = __FILE__, *slash = strstr(f, "tests/unit/");
    snprintf(path, sizeof path, "%.*ssrc/xq-game.rng", slash ? (int)(slash - f) : 0, f);
    return path;
}

static char *tmp_text(const char *text)
{
    static char path[64];
    save_tmp(text, strlen(text), path);
    return path;
}

/* A game read from text and replayed; free with done(). */
typedef xqt_loaded loaded;

static void load_text(loaded *l, const char *text)
{
    xqt_load(l, text, strlen(text));
}

static void done(loaded *l)
{
    xq_game_free(&l->g);
}

/* Write one game (with document begin/end) in fmt; returns malloc'd text. */
static char *render(loaded *l, xq_out_format fmt, xq_notation n, bool *full, xq_write_report *rep)
{
    xq_write_options opt = {.format = fmt, .notation = n};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    xq_write_report local;
    xq_write_begin(f, &opt);
    bool ok = xq_write_game(f, &l->g, &l->r, &opt, rep ? rep : &local);
    xq_write_end(f, &opt);
    fclose(f);
    if (full) *full = ok;
    return buf;
}

/* Read text as a file and render its first game as Chinese PGN. */
static char *as_pgn(const char *text)
{
    loaded l;
    load_text(&l, text);
    char *s = render(&l, XQ_OUT_PGN, XQ_NOTATION_AUTO, NULL, NULL);
    done(&l);
    return s;
}

static const char GAME[] =
    "[Game \"Chinese Chess\"]\n[Foo \"bar\"]\n[Black \"乙\"]\n[White \"甲\"]\n[Event \"E & <x> \\\"q\\\"\"]\n"
    "[Result \"1-0\"]\n[Format \"Chinese\"]\n"
    "{before}\n"
    "1. 炮二平五 {good} 馬8進7 (1... 炮８平５ $2 {same} 2. 马二进三 (2. 马八进七) 马８进７) "
    "2. 马二进三 $1 车９平８\n3. 车一平二 马２进３ 4. 车二进六 炮８退九 5. 兵七进一 1-0\n";

static void format_names(void **state)
{
    (void)state;
    xq_out_format f;
    for (int i = 0; i < XQ_OUT_COUNT; i++) {
        assert_true(xq_out_format_parse(xq_out_format_name((xq_out_format)i), &f));
        assert_int_equal(f, i);
    }
    assert_true(xq_out_format_parse("json", &f));
    assert_int_equal(f, XQ_OUT_JSONL);
    assert_false(xq_out_format_parse("pdf", &f));
    assert_int_equal(xq_out_format_holds(XQ_OUT_UCCI), 0);
    assert_true(xq_out_format_holds(XQ_OUT_XML) & XQ_HOLDS_VARIATIONS);
}

static void pgn_tags_order_and_untranslated(void **state)
{
    (void)state;
    loaded l;
    load_text(&l, GAME);
    assert_int_equal(xq_game_contents(&l.g),
                     XQ_HOLDS_TAGS | XQ_HOLDS_COMMENTS | XQ_HOLDS_NAGS | XQ_HOLDS_VARIATIONS);
    bool full;
    xq_write_report rep;
    char *s = render(&l, XQ_OUT_PGN, XQ_NOTATION_AUTO, &full, &rep);
    assert_false(full);
    assert_int_equal(rep.untranslated, 2);
    assert_int_equal(rep.line, 10);
    assert_non_null(strstr(rep.why, "ply 8 (炮８退九)"));
    assert_string_equal(s,
        "[Game \"Chinese Chess\"]\n[Event \"E & <x> \\\"q\\\"\"]\n[Red \"甲\"]\n[Black \"乙\"]\n"
        "[Result \"1-0\"]\n[Foo \"bar\"]\n\n"
        "{before}\n"
        "1. 炮二平五 {good} 1... 马８进７ (1... 炮８平５ $2 {same} 2. 马二进三 (2. 马八进七) 2... 马８进７)\n"
        "2. 马二进三 $1 车９平８\n3. 车一平二 马２进３\n"
        "4. 车二进六 炮８退九\n5. 兵七进一 1-0\n\n");
    free(s);
    done(&l);
}

static void pgn_notations_and_format_tag(void **state)
{
    (void)state;
    loaded l;
    load_text(&l, "[FEN \"4k4/9/9/9/9/9/9/9/9/3A1K3 w - - 0 1\"]\n1. 仕六进五 將5平4 *\n");
    char *s = render(&l, XQ_OUT_PGN, XQ_NOTATION_WXF, NULL, NULL);
    assert_non_null(strstr(s, "[FEN \"4k4/9/9/9/9/9/9/9/9/3A1K3 w - - 0 1\"]\n[Format \"WXF\"]\n\n1. A6+5 K5.4 *\n"));
    free(s);
    s = render(&l, XQ_OUT_PGN, XQ_NOTATION_ICCS, NULL, NULL);
    assert_non_null(strstr(s, "[Format \"ICCS\"]\n\n1. D0-E1 E9-D9 *\n"));
    free(s);
    done(&l);

    /* the start position: no FEN tag unless the record had one */
    char *p = as_pgn("1. h2e2 h9g7 *\n");
    assert_string_equal(p, "[Game \"Chinese Chess\"]\n\n1. 炮二平五 马８进７ *\n\n");
    free(p);
    /* Black to move first */
    p = as_pgn("[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1\"]\n1... 马８进７\n");
    assert_non_null(strstr(p, "\n1... 马８进７ *\n"));
    free(p);
}

static void variations_from_branch_position(void **state)
{
    (void)state;
    /* the variation at ply 3 is decoded from the position after ply 2;
     * a bad move inside a variation leaves the main line alone */
    loaded l;
    load_text(&l, "[Format \"ICCS\"]\n1. h2e2 h9g7 2. h0g2 (2. b0c2 b9c7 (2... x9x9 3. a0a1)) i9h9 *\n");
    bool full;
    xq_write_report rep;
    char *s = render(&l, XQ_OUT_PGN, XQ_NOTATION_CHINESE, &full, &rep);
    assert_false(full);
    assert_int_equal(rep.untranslated, 2);
    assert_non_null(strstr(rep.why, "variation at ply 4 (x9x9)"));
    assert_non_null(strstr(s, "2. 马二进三 (2. 马八进七 马２进３ (2... x9x9 3. a0a1)) "
                              "2... 车９平８ *\n"));
    free(s);
    xq_write_options opt = {.format = XQ_OUT_PGN, .no_variations = true, .no_comments = true};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_true(xq_write_game(f, &l.g, &l.r, &opt, NULL));
    fclose(f);
    assert_non_null(strstr(buf, "\n1. 炮二平五 马８进７\n2. 马二进三 车９平８ *\n"));
    free(buf);
    done(&l);
}

static void xboard_and_ucci(void **state)
{
    (void)state;
    loaded l;
    load_text(&l, "[Red \"A\"]\n[Black \"B\"]\n[Event \"E\"]\n[ECCO \"A00\"]\n"
             "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n"
             "1. 炮二平五 {c} 马８进７ 2. 炮五进四 马２进３ *\n");
    char *s = render(&l, XQ_OUT_XBOARD, XQ_NOTATION_AUTO, NULL, NULL);
    assert_string_equal(s,
        "[Event \"E\"]\n[White \"A\"]\n[Black \"B\"]\n[ECCO \"A00\"]\n[Variant \"xiangqi\"]\n"
        "[FEN \"rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1\"]\n[SetUp \"1\"]\n\n"
        "1. Che2 {c} 1... Hg7\n2. Cxe6 Hc7 *\n\n");
    free(s);
    bool full;
    s = render(&l, XQ_OUT_UCCI, XQ_NOTATION_AUTO, &full, NULL);
    assert_true(full);
    assert_string_equal(s, "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 "
                           "moves h2e2 h9g7 e2e6 b9c7\n");
    free(s);
    done(&l);

    /* XBoard PGN reads back to the same game */
    char *a = as_pgn(GAME);
    load_text(&l, GAME);
    s = render(&l, XQ_OUT_XBOARD, XQ_NOTATION_AUTO, NULL, NULL);
    done(&l);
    char *b = as_pgn(s);
    assert_string_equal(a, b);
    free(a);
    free(b);
    free(s);
}

static void json_lines(void **state)
{
    (void)state;
    loaded l;
    load_text(&l, GAME);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    xq_write_json(f, &l.g, &l.r);
    fclose(f);
    assert_non_null(strstr(buf, "\"tags\":{\"Game\":\"Chinese Chess\",\"Foo\":\"bar\""));
    assert_non_null(strstr(buf, "\"comment\":\"before\",\"moves\":[{\"text\":\"炮二平五\",\"iccs\":\"h2e2\","
                                "\"comment\":\"good\"},{\"text\":\"馬8進7\",\"iccs\":\"h9g7\",\"variations\":"
                                "[[{\"text\":\"炮８平５\",\"iccs\":\"h7e7\",\"comment\":\"same\",\"nags\":[2]},"));
    assert_non_null(strstr(buf, "{\"text\":\"炮８退九\",\"iccs\":null}"));
    assert_non_null(strstr(buf, "\"status\":\"illegal\",\"plies\":7,\"ply\":8,\"reason\":"));
    assert_int_equal(buf[len - 1], '\n');
    assert_null(memchr(buf, '\n', len - 1));
    free(buf);
    done(&l);
}

static void encodings(void **state)
{
    (void)state;
    loaded l;
    load_text(&l, "[Red \"許銀川\"]\n1. 炮二平五 *\n");
    xq_write_options opt = {.format = XQ_OUT_PGN, .encoding = XQ_ENC_BIG5, .notation_flags = XQ_WRITE_TRADITIONAL};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    xq_write_report rep;
    assert_true(xq_write_game(f, &l.g, &l.r, &opt, &rep));
    fclose(f);
    /* 許 is B3 5C in Big5 (a trail byte that is '\\', not escaped); 炮 AC B6 */
    assert_non_null(strstr(buf, "[Red \"\xB3\\\xBB"));
    assert_non_null(strstr(buf, "1. \xAC\xB6"));
    free(buf);
    done(&l);

    load_text(&l, "[Red \"☃\"]\n1. 炮二平五 *\n");
    opt.encoding = XQ_ENC_GBK;
    f = open_memstream(&buf, &len);
    assert_false(xq_write_game(f, &l.g, &l.r, &opt, &rep));
    fclose(f);
    assert_int_equal(rep.unencodable, 1);
    assert_non_null(strstr(buf, "[Red \"?\"]"));
    free(buf);
    done(&l);
}

static void quiet(void *ctx, xmlErrorPtr e) { (void)ctx; (void)e; }

/* Validate an XML document (in memory) against src/xq-game.rng. */
static int validate_xml(const char *xml)
{
    xmlRelaxNGParserCtxtPtr pc = xmlRelaxNGNewParserCtxt(schema_path());
    assert_non_null(pc);
    xmlRelaxNGPtr schema = xmlRelaxNGParse(pc);
    assert_non_null(schema);
    xmlRelaxNGValidCtxtPtr vc = xmlRelaxNGNewValidCtxt(schema);
    xmlRelaxNGSetValidStructuredErrors(vc, quiet, NULL);
    xmlDocPtr doc = xmlReadMemory(xml, (int)strlen(xml), "test.xml", NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    int rc = xmlRelaxNGValidateDoc(vc, doc);
    xmlFreeDoc(doc);
    xmlRelaxNGFreeValidCtxt(vc);
    xmlRelaxNGFree(schema);
    xmlRelaxNGFreeParserCtxt(pc);
    return rc;
}

static void xml_schema_and_round_trip(void **state)
{
    (void)state;
    static const char *const games[] = {
        GAME,
        "[FEN \"4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1\"]\n[Note \"a\x01" "b\"]\n1. 仕四退五 {x]]>y & z} 將5平4 1/2-1/2\n",
        "[FEN \"bad fen\"]\n1. 炮二平五 *\n",
        "1. 炮二平五\n",
    };
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        loaded l;
        load_text(&l, games[i]);
        char *xml = render(&l, XQ_OUT_XML, XQ_NOTATION_AUTO, NULL, NULL);
        done(&l);
        assert_int_equal(validate_xml(xml), 0);
        char *a = as_pgn(games[i]), *b = as_pgn(xml);
        assert_string_equal(a, b);
        free(a);
        free(b);
        free(xml);
    }
    /* a document the schema refuses */
    assert_int_not_equal(validate_xml("<games xmlns=\"urn:xq-tools:game:1\"><game><move iccs=\"z9z9\" text=\"x\"/>"
                                      "</game></games>"), 0);
}

static void xml_reader_details(void **state)
{
    (void)state;
    loaded l;
    load_text(&l, "<?xml version=\"1.0\"?>\n<!-- c -->\n<games xmlns=\"urn:xq-tools:game:1\">\n<game result=\"0-1\">\n"
             "<tag name=\"Red\">R</tag><fen>4k4/9/9/9/9/9/9/9/9/3A1K3 w - - 0 1</fen><odd/>\n"
             "<move iccs=\"d0e1\" text=\"whatever\" nags=\"1 14\"><comment>a</comment><comment>b</comment></move>\n"
             "<move text=\"將5平4\"/>\n<move/>\n</game></games>\n");
    assert_string_equal(xq_game_tag(&l.g, "Red"), "R");
    assert_string_equal(l.g.fen, "4k4/9/9/9/9/9/9/9/9/3A1K3 w - - 0 1");
    assert_int_equal(l.g.result_code, XQ_RESULT_BLACK);
    assert_int_equal(l.g.first_line, 4);
    assert_int_equal(l.g.main.count, 3);
    assert_string_equal(l.g.main.nodes[0].text, "d0e1");
    assert_string_equal(l.g.main.nodes[0].comment, "a\nb");
    assert_int_equal(l.g.main.nodes[0].nag_count, 2);
    assert_int_equal(l.g.main.nodes[0].nags[1], 14);
    assert_int_equal(l.g.main.nodes[1].line, 7);
    assert_int_equal(l.g.diag_count, 2);   /* <odd/> and the empty move */
    assert_int_equal(l.g.diags[0].severity, XQ_SEV_WARNING);
    assert_int_equal(l.g.diags[1].severity, XQ_SEV_ERROR);
    assert_int_equal(l.r.plies, 2);
    done(&l);
}

static int read_all(const char *text, char *err, size_t errsz)
{
    char *path = tmp_text(text);
    xq_read_options o = {.format = XQ_FMT_XML};
    xq_reader *rd = xq_reader_open(path, &o, err, errsz);
    int rc = 1, n = 0;
    if (rd) {
        xq_game g;
        xq_game_init(&g);
        while ((rc = xq_reader_next(rd, &g)) == 1) n++;
        if (rc < 0) snprintf(err, errsz, "%s", xq_reader_error(rd));
        xq_game_free(&g);
        xq_reader_close(rd);
    }
    unlink(path);
    return rd ? (rc < 0 ? -1 : n) : -2;
}

static void xml_hostile_and_broken(void **state)
{
    (void)state;
    char err[512];
    assert_int_equal(read_all("<?xml version=\"1.0\"?>\n<!DOCTYPE g [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n"
                              "<games xmlns=\"urn:xq-tools:game:1\"><game><tag name=\"a\">&x;</tag></game></games>\n",
                              err, sizeof err), -2);
    assert_non_null(strstr(err, ":2: XML document type declarations (DOCTYPE) are refused"));

    /* a DOCTYPE too far in for the prolog scan: refused by the reader loop */
    size_t pad = 70000;
    char *big = malloc(pad + 400);
    strcpy(big, "<!--");
    memset(big + 4, 'a', pad);
    strcpy(big + 4 + pad, "-->\n<!DOCTYPE games SYSTEM \"http://127.0.0.1:9/x.dtd\">\n"
                          "<games xmlns=\"urn:xq-tools:game:1\"><game/></games>\n");
    assert_int_equal(read_all(big, err, sizeof err), -1);
    assert_non_null(strstr(err, "DOCTYPE"));
    free(big);

    /* an entity reference without a declaration is a well-formedness error */
    assert_int_equal(read_all("<games xmlns=\"urn:xq-tools:game:1\"><game><tag name=\"a\">&x;</tag></game></games>",
                              err, sizeof err), -1);
    assert_non_null(strstr(err, "XML error"));

    /* a file broken after two games: two games, then the error with its line */
    assert_int_equal(read_all("<games xmlns=\"urn:xq-tools:game:1\">\n<game/>\n<game/>\n<game>\n</gmae>\n</games>\n",
                              err, sizeof err), -1);
    assert_non_null(strstr(err, ":5:"));
    assert_int_equal(read_all("<games xmlns=\"urn:xq-tools:game:1\">\n<game/>\n<game/>\n</games>\n", err, sizeof err), 2);
    assert_int_equal(read_all("<other/>", err, sizeof err), -1);
    assert_non_null(strstr(err, "root element <other>"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(format_names),
        cmocka_unit_test(pgn_tags_order_and_untranslated),
        cmocka_unit_test(pgn_notations_and_format_tag),
        cmocka_unit_test(variations_from_branch_position),
        cmocka_unit_test(xboard_and_ucci),
        cmocka_unit_test(json_lines),
        cmocka_unit_test(encodings),
        cmocka_unit_test(xml_schema_and_round_trip),
        cmocka_unit_test(xml_reader_details),
        cmocka_unit_test(xml_hostile_and_broken),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
