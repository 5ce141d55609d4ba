/* test_record_split.c - a tag section whose tag name repeats before any
 * move (pgn_read.c starts_record, fast_tag, tag_run): the record of tags
 * ends there and the repeated tag line starts the next record, both
 * kept, and the record of tags gets one warning that names the line
 * (split_warn); two tag sections with a blank line between, and a record
 * of tags alone before the next one, are split without a warning (xq(7):
 * the format's reading).  Every file is read with the reader's fast paths
 * and without (reader_both.h: the same games, diagnostics included, and
 * the records' raw bytes give the file back: nothing dropped), with LF
 * and CRLF line ends, in UTF-8 and Big5; names the fast paths take (usual
 * names in the usual order, after a record that taught tag_run the
 * order), names they refuse (not ASCII: the general way), other names,
 * a name longer than the message keeps. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#include "input.c"
#include "pgn_read.c"
#include "reader_both.h"

#include <unistd.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* What a record of a case must come out as. */
typedef struct {
    size_t tags, moves;
    const char *warning;   /* the one warning's message, or NULL: none */
    uint64_t warning_line;
} want_record;

typedef struct {
    const char *name;
    const char *text;   /* UTF-8, '\n' line ends */
    size_t nrecords;
    want_record rec[4];
} split_case;

#define REP(tag, line)                                                                                      \
    "tags and no moves: the tag [" tag "] at line " #line " repeats one of this record's tags, so it starts " \
    "the next record"

#define USUAL "[Game \"Chinese Chess\"]\n[Event \"e\"]\n[Site \"s\"]\n[Date \"2020.01.01\"]\n[Round \"1\"]\n"
#define PLAYERS "[Red \"r\"]\n[Black \"b\"]\n[Result \"*\"]\n"
#define MOVES "\n1. 炮二平五 馬８進７\n*\n"

static const split_case CASES[] = {
    {"the brief's record: Event repeated",
     "[Event \"a\"]\n[Red \"x\"]\n[Event \"b\"]\n" MOVES, 2,
     {{2, 0, REP("Event", 3), 1}, {1, 2, NULL, 0}}},
    {"usual names after a record that taught their order (tag_run, fast_tag)",
     USUAL PLAYERS MOVES "\n" USUAL "[Game \"Chinese Chess\"]\n[Event \"f\"]\n" PLAYERS MOVES, 3,
     {{8, 2, NULL, 0}, {5, 0, REP("Game", 18), 13}, {5, 2, NULL, 0}}},
    {"a repeated name in the middle of the usual ones",
     USUAL "[Red \"r\"]\n[Event \"again\"]\n[Black \"b\"]\n" MOVES, 2,
     {{6, 0, REP("Event", 7), 1}, {2, 2, NULL, 0}}},
    {"names not ASCII (the general way)",
     "[賽事 \"甲\"]\n[紅方 \"乙\"]\n[賽事 \"丙\"]\n" MOVES, 2,
     {{2, 0, REP("賽事", 3), 1}, {1, 2, NULL, 0}}},
    {"other names, three records of one tag section",
     "[Foo \"1\"]\n[Foo \"2\"]\n[Foo \"3\"]\n" MOVES, 3,
     {{1, 0, REP("Foo", 2), 1}, {1, 0, REP("Foo", 3), 2}, {1, 2, NULL, 0}}},
    {"a name longer than the message keeps",
     "[Abcdefghijabcdefghijabcdefghijabcdefghij \"1\"]\n[Abcdefghijabcdefghijabcdefghijabcdefghij \"2\"]\n" MOVES,
     2, {{1, 0, REP("Abcdefghijabcdefghijabcdefghija", 2), 1}, {1, 2, NULL, 0}}},
    {"two tag sections with a blank line between: split, no warning",
     "[Event \"a\"]\n[Red \"x\"]\n\n[Black \"y\"]\n" MOVES, 2,
     {{2, 0, NULL, 0}, {1, 2, NULL, 0}}},
    {"the same name after a blank line: split, no warning",
     "[Event \"a\"]\n\n[Event \"b\"]\n" MOVES, 2,
     {{1, 0, NULL, 0}, {1, 2, NULL, 0}}},
    {"a record of tags alone (a forfeit) before the next: no warning",
     "[Event \"a\"]\n[Result \"1-0\"]\n\n\n" USUAL PLAYERS MOVES, 2,
     {{2, 0, NULL, 0}, {8, 2, NULL, 0}}},
    {"a name repeated after the moves: the next record, no warning",
     "[Event \"a\"]\n" MOVES "[Event \"b\"]\n" MOVES, 2,
     {{1, 2, NULL, 0}, {1, 2, NULL, 0}}},
    {"a record with a result and no move: no warning",
     "[Event \"a\"]\n\n*\n[Event \"b\"]\n" MOVES, 2,
     {{1, 0, NULL, 0}, {1, 2, NULL, 0}}},
};

/* text with every '\n' made "\r\n" (crlf), in the encoding of iconv_name
 * (NULL: UTF-8). */
static void build(out_file *o, const char *text, bool crlf, const char *iconv_name)
{
    memset(o, 0, sizeof *o);
    o->cd = iconv_name ? iconv_open(iconv_name, "UTF-8") : (iconv_t)-1;
    assert_true(!iconv_name || o->cd != (iconv_t)-1);
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        char line[512];
        size_t n = (size_t)(nl - p);
        assert_true(nl && n < sizeof line);
        memcpy(line, p, n);
        line[n] = '\0';
        put(o, line);
        put_raw(o, crlf ? "\r\n" : "\n", crlf ? 2 : 1);
        p = nl + 1;
    }
    if (iconv_name) iconv_close(o->cd);
}

/* The records of file o as the case wants them (read the usual way). */
static void check_records(const split_case *c, const out_file *o)
{
    xq_game g[8];
    int n = read_tmp_bytes(o->p, o->len, g, (int)COUNT(g), NULL);
    assert_int_equal(n, c->nrecords);
    size_t raw = 0;
    for (int i = 0; i < n; i++) {
        const want_record *w = &c->rec[i];
        assert_int_equal(g[i].tag_count, w->tags);
        assert_int_equal(g[i].main.count, w->moves);
        assert_int_equal(xq_game_count_diags(&g[i], XQ_SEV_ERROR), 0);
        assert_int_equal(xq_game_count_diags(&g[i], XQ_SEV_WARNING), w->warning ? 1 : 0);
        if (w->warning) {
            assert_string_equal(g[i].diags[0].msg, w->warning);
            assert_int_equal(g[i].diags[0].line, w->warning_line);
            assert_int_equal(g[i].diags[0].line, g[i].first_line);
        }
        raw += g[i].raw_len;
    }
    assert_int_equal(raw, o->len);   /* never a record dropped */
    free_all(g, n);
}

static void each_case(const char *iconv_name, xq_encoding enc)
{
    for (size_t k = 0; k < COUNT(CASES); k++) {
        for (int crlf = 0; crlf < 2; crlf++) {
            out_file o;
            build(&o, CASES[k].text, crlf, iconv_name);
            print_message("%s%s\n", CASES[k].name, crlf ? " (CRLF)" : "");
            check_records(&CASES[k], &o);
            xqt_both t = {0};
            xqt_read_both_out(&o, enc, true, &t);   /* (frees o) */
            assert_int_equal(t.games, 2 * CASES[k].nrecords);
        }
    }
}

static void utf8_cases(void **state)
{
    (void)state;
    each_case(NULL, XQ_ENC_UTF8);
}

static void big5_cases(void **state)
{
    (void)state;
    each_case("CP950", XQ_ENC_BIG5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(utf8_cases),
        cmocka_unit_test(big5_cases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
