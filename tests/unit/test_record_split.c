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
 * a name longer than the message keeps.  A comment (and no move) between
 * the tags and the repeated one is the same case (split_after_text),
 * unless a blank line came after the tags; a name repeated in a line of
 * several tags stays in the record, with a warning naming the value read
 * (the first: repeat_on_line_warn). */
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

/* a name repeated in a line of several tags: one record, the first value read */
#define ONLINE(tag, first, second)                                                                           \
    "the tag [" tag "] repeats one of this record's tags, in a line of several tags, which is never split " \
    "into records: its first value \"" first "\" is the one read, \"" second "\" is not"

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
    /* fix17: a comment between the tags and the repeated one (split_after_text) */
    {"a comment on a line of its own before the repeated name: split, the warning",
     "[Event \"a\"]\n[Red \"x\"]\n{c}\n[Event \"b\"]\n" MOVES, 2,
     {{2, 0, REP("Event", 4), 1}, {1, 2, NULL, 0}}},
    {"a comment on the tags' last line before the repeated name: split, the warning",
     "[Event \"a\"]\n[Red \"x\"] {c}\n[Event \"b\"]\n" MOVES, 2,
     {{2, 0, REP("Event", 3), 1}, {1, 2, NULL, 0}}},
    {"usual names, a comment, the repeated name (tag_run's split)",
     USUAL PLAYERS MOVES "\n" USUAL "{c}\n[Game \"Chinese Chess\"]\n[Event \"f\"]\n" PLAYERS MOVES, 3,
     {{8, 2, NULL, 0}, {5, 0, REP("Game", 19), 13}, {5, 2, NULL, 0}}},
    {"names not ASCII, a comment, the repeated name (the general way)",
     "[賽事 \"甲\"]\n[紅方 \"乙\"]\n{註}\n[賽事 \"丙\"]\n" MOVES, 2,
     {{2, 0, REP("賽事", 4), 1}, {1, 2, NULL, 0}}},
    {"comments, a move number and no move before the repeated name: the warning",
     "[Event \"a\"]\n{c}\n{d} 1.\n[Event \"b\"]\n" MOVES, 2,
     {{1, 0, REP("Event", 4), 1}, {1, 2, NULL, 0}}},
    {"a comment, a blank line, the repeated name: split, no warning",
     "[Event \"a\"]\n{c}\n\n[Event \"b\"]\n" MOVES, 2,
     {{1, 0, NULL, 0}, {1, 2, NULL, 0}}},
    {"a comment and a new name: split, no warning (a tag line after movetext)",
     "[Event \"a\"]\n{c}\n[Site \"b\"]\n" MOVES, 2,
     {{1, 0, NULL, 0}, {1, 2, NULL, 0}}},
    /* fix17: a name repeated in a line of several tags (tag_line) */
    {"a name repeated in one line: one record, a warning naming the value read",
     "[Result \"0-1\"] [Format \"ICCS\"] [Result \"1-0\"]\n" MOVES, 1,
     {{3, 2, ONLINE("Result", "0-1", "1-0"), 1}}},
    {"a line of several tags repeating a name of an earlier line: one record, a warning",
     "[Event \"a\"]\n[Site \"s\"] [event \"b\"]\n" MOVES, 1,
     {{3, 2, ONLINE("event", "a", "b"), 2}}},
    {"a name repeated in one line, not ASCII, a long value cut at a character",
     "[賽事 \"甲\"] [賽事 \"一二三四五六七八九十一二三四五六七八九十\"]\n" MOVES, 1,
     {{2, 2, ONLINE("賽事", "甲", "一二三四五六七八九十一二三..."), 1}}},
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
            if (strstr(w->warning, "so it starts the next record"))   /* (a split: at the record's start) */
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

/* The value the tools read of a name repeated in one line: the first
 * (xq_game_tag, and the replay's Result, which the reader notes). */
static void repeated_on_line_reads_first(void **state)
{
    (void)state;
    static const char text[] = "[Result \"0-1\"] [Format \"ICCS\"] [Result \"1-0\"]\n1. h2e2 h9g7 *\n";
    xq_game g[2];
    int n = read_tmp_bytes(text, sizeof text - 1, g, 2, NULL);
    assert_int_equal(n, 1);
    assert_string_equal(xq_game_tag(&g[0], "Result"), "0-1");
    assert_string_equal(xq_game_tag(&g[0], "Format"), "ICCS");
    assert_int_equal(g[0].diags[0].col, 32);   /* at the second [Result */
    free_all(g, n);
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
        cmocka_unit_test(repeated_on_line_reads_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
