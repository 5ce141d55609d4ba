/* test_tag_fast.c - the record reader's window walker (pgn_read.c
 * fast_lines) on the lines around the moves: tag lines (fast_tag,
 * fast_tag_value), blank lines, the first line of moves after the tags,
 * results (fast_result) and the tag line that starts the next record,
 * against the general way (decode, starts_record, take_line, tag_line).
 *
 * Random files in UTF-8, Big5 and GBK whose records mix the common tag
 * line `[Name "value"]` with everything that must go the general way or
 * end a record: repeated names (any case), tags after a blank line, after
 * moves, after the result, inside an open comment or variation; escapes
 * \" and \\, unescaped quotes, values without quotes, unclosed values and
 * tags, several tags on a line, text after a tag, unusual spacing (blanks
 * before '[', around the value, Unicode blanks), empty names and values,
 * non-ASCII names, bad bytes and NULs in names and values, CRLF; results
 * with and without text after them, in variations.  Each file is read
 * with and without the fast paths (the reader's no_fast switch) and every
 * field of every game must be the same, diagnostics (line:col, offset,
 * message) included; the raw bytes of the records give the file back.
 *
 * The reader's and the input's sources are included so that no_fast can
 * be reached. */
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

/* Deterministic pseudo-random numbers (xorshift64). */
static uint64_t rng_state = 0x2545F4914F6CDD1Du;
static uint32_t rnd(uint32_t n)
{
    return xqt_xorshift(&rng_state, n);
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- random files --------------------------------------------------------- */

static void eol(out_file *o)
{
    if (rnd(12) == 0) put_raw(o, "\r\n", 2);
    else put_raw(o, "\n", 1);
}

static const char *const NAMES[] = {
    "Game", "Event", "Round", "Date", "Site", "Red", "RedTeam", "Black", "BlackTeam",
    "Result", "ECCO", "Opening", "FEN", "fen", "EVENT", "event", "X", "a_b-c.d", "Name1",
    "RESULT", "result", "Format", "format", "FORMAT", "Resul", "Results", "Forma",
};
static const char *const VALUES[] = {
    "Chinese Chess", "全國象棋個人賽", "4/17/1996", "", "1-0", "C55", "張三", "李四 王五",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "中炮對屏風馬", "x", "0123456789abcdefghij", "［全形］", "炮二平五", "一二三四五六七八九十",
    "a]b", "a[b", "tab\there", "~!@#$%^&*()_+{}|:<>?",
};
/* odd pieces for names and values */
static const char *const ODD_VALUE[] = {
    "a\\\"b", "a\\\\b", "\\\"", "\\\\", "1999年\"中行杯\"賽", "a\"b", "end\\", "\\", "\"",
    "\xE3\x80\x80空白", "\xC2\xA0", "\xEF\xBB\xBF",
};
static const char *const BAD[] = {"\xFF", "\x80", "\xA1", "\xC3", "\xE9\xA6", "\x81\x30"};

/* A value: mostly common, sometimes odd or with a bad byte or a NUL. */
static void put_value(out_file *o)
{
    switch (rnd(14)) {
    case 0: put(o, ODD_VALUE[rnd(COUNT(ODD_VALUE))]); break;
    case 1: {
        put(o, VALUES[rnd(COUNT(VALUES))]);
        const char *b = BAD[rnd(COUNT(BAD))];
        put_raw(o, b, strlen(b));
        put(o, "尾");
        break;
    }
    case 2: put(o, "n"); put_raw(o, "\0", 1); put(o, "ul"); break;
    default: put(o, VALUES[rnd(COUNT(VALUES))]); break;
    }
}

static void put_name(out_file *o)
{
    switch (rnd(30)) {
    case 0: put(o, "名稱"); break;                 /* non-ASCII */
    case 1: put(o, ""); break;                     /* empty */
    case 2: put(o, "Na\xE3\x80\x80me"); break;     /* U+3000 inside */
    case 3: put_raw(o, "N\x01m", 3); break;        /* a control byte */
    case 4: put_raw(o, "N\xFFm", 3); break;        /* a bad byte */
    default: put(o, NAMES[rnd(COUNT(NAMES))]); break;
    }
}

/* One tag line: mostly `[Name "value"]`, sometimes anything. */
static void tag_line_out(out_file *o)
{
    if (rnd(4)) {   /* the common shape */
        put(o, "[");
        put(o, NAMES[rnd(COUNT(NAMES))]);
        put(o, " \"");
        put(o, rnd(6) ? VALUES[rnd(COUNT(VALUES))] : ODD_VALUE[rnd(COUNT(ODD_VALUE))]);
        put(o, "\"]");
        eol(o);
        return;
    }
    static const char *const PRE[] = {"", "", "", " ", "\t", "\xE3\x80\x80", "\xEF\xBB\xBF"};
    static const char *const MID[] = {" ", " ", "  ", "\t", "", "\xE3\x80\x80", " \xC2\xA0"};
    static const char *const POST[] = {"]", "]", "] ", " ]", "", "]]", "] 1. 炮二平五",
                                       "][Round \"2\"]", "] {c}", "]\t", "]\xE3\x80\x80", "] ;x"};
    put(o, PRE[rnd(COUNT(PRE))]);
    put(o, "[");
    put_name(o);
    put(o, MID[rnd(COUNT(MID))]);
    switch (rnd(6)) {
    case 0: put_value(o); break;                       /* no quotes */
    case 1: put(o, "\""); put_value(o); break;         /* not closed */
    default: put(o, "\""); put_value(o); put(o, "\""); break;
    }
    put(o, POST[rnd(COUNT(POST))]);
    eol(o);
}

static const char *const MOVES[] = {
    "炮二平五", "馬８進７", "車一平二", "兵七進一", "帥五平四", "相三進五", "傌二進三",
    "車九平八", "卒３進１", "h2e2", "C2.5",
};
static const char *const RESULTS[] = {"1-0", "0-1", "1/2-1/2", "*", "１－０", "紅勝", "1-0 text",
                                      "1-0 ", "*\t", "1-0)", "1-01", "0-1{c}"};

static void moves_line(out_file *o, unsigned *number)
{
    if (rnd(10) == 0) put(o, " ");
    char num[32];
    snprintf(num, sizeof num, "%u.", (*number)++);
    put(o, num);
    put(o, " ");
    put(o, MOVES[rnd(COUNT(MOVES))]);
    if (rnd(4)) {
        put(o, rnd(8) ? " " : "  ");
        put(o, MOVES[rnd(COUNT(MOVES))]);
    }
    eol(o);
}

static void record_out(out_file *o)
{
    if (rnd(10) == 0) put(o, rnd(2) ? "\n" : "  \n");
    int ntags = (int)rnd(14);
    for (int i = 0; i < ntags; i++) {
        if (rnd(25) == 0) put(o, rnd(2) ? "\n" : " \t\n");   /* a blank line in the tags */
        if (rnd(40) == 0) put(o, "%escape\n");
        tag_line_out(o);
    }
    if (rnd(4)) put(o, rnd(6) ? "\n" : " \n");
    unsigned number = 1;
    int lines = (int)rnd(12);
    for (int i = 0; i < lines; i++) {
        switch (rnd(30)) {
        case 0: put(o, "\n"); break;
        case 1: put(o, "{open comment\n"); break;        /* a tag line may come inside it */
        case 2: put(o, "1. 炮二平五 (馬８進７\n"); break;    /* an open variation */
        case 3: tag_line_out(o); break;                   /* a tag after moves */
        case 4: put(o, "{comment}\n"); break;
        case 5: put(o, "\xE3\x80\x80\n"); break;
        default: moves_line(o, &number); break;
        }
    }
    if (rnd(5)) {
        put(o, RESULTS[rnd(COUNT(RESULTS))]);
        eol(o);
    }
    if (rnd(8) == 0) put(o, "after the result\n");
    if (rnd(8) == 0) put(o, "1. 炮二平五\n");   /* a record without tags */
    if (rnd(3)) put(o, rnd(5) ? "\n" : "\t\n");
}

/* ---- comparing games ----------------------------------------------------- */

/* Files of random records in an encoding, each read both ways
 * (xqt_read_both), with that encoding and detected. */
static void check_encoding(xq_encoding enc, const char *iconv_name, int files)
{
    xqt_both t = {0};
    for (int iter = 0; iter < files; iter++) {
        out_file o = {0};
        o.cd = iconv_name ? iconv_open(iconv_name, "UTF-8") : (iconv_t)-1;
        if (iconv_name) assert_true(o.cd != (iconv_t)-1);
        /* a few files over the input's 64 KiB buffer: lines cut by the
         * end of the window, kept runs of raw bytes that move */
        int records = iter % 10 == 0 ? 300 + (int)rnd(500) : 1 + (int)rnd(10);
        if (iter % 7 == 3) put(&o, "炮\n");   /* decide the encoding on the first line */
        for (int i = 0; i < records; i++) record_out(&o);
        if (rnd(4) == 0 && o.len && o.p[o.len - 1] == '\n') o.len--;   /* no final '\n' */
        if (iconv_name) iconv_close(o.cd);
        xqt_read_both_out(&o, enc, true, &t);
    }
    assert_true(t.games > 0);
    assert_true(t.tags > 0);
}

static void test_utf8(void **state)
{
    (void)state;
    check_encoding(XQ_ENC_UTF8, NULL, 250);
}

static void test_big5(void **state)
{
    (void)state;
    check_encoding(XQ_ENC_BIG5, "CP950", 250);
}

static void test_gbk(void **state)
{
    (void)state;
    check_encoding(XQ_ENC_GBK, "GB18030", 250);
}

/* Hand-written files around each rule the walker mirrors, each with a
 * long run of plain lines before it so that the walker meets it in its
 * window (the first line of a file goes the general way). */
static void test_fixed_cases(void **state)
{
    (void)state;
    static const char *const CASES[] = {
        /* a result inside an open variation: a warning, no result */
        "[Game \"x\"]\n\n1. 炮二平五 (馬８進７\n2. 炮二平五 馬８進７\n1-0\n\n[Game \"y\"]\n",
        /* a result with text after it, then a move number 1 */
        "[Game \"x\"]\n\n1. 炮二平五 馬８進７\n1-0 junk\n1. 炮二平五\n",
        "[Game \"x\"]\n\n1. 炮二平五 馬８進７\n*\n\n1. 炮二平五\n[Event \"e\"]\n",
        /* a repeated name, any case; a tag after a blank line in the tags */
        "[Event \"a\"]\n[event \"b\"]\n[Round \"1\"]\n\n[Date \"d\"]\n1. 炮二平五\n",
        /* a tag line after a comment alone: no play, the same record */
        "{file comment}\n[Event \"a\"]\n1. 炮二平五\n",
        "[Event \"a\"]\n{c}\n[Round \"1\"]\n1. 炮二平五\n",
        /* a tag line inside an open comment: strict or not */
        "[Event \"a\"]\n1. 炮二平五 {open\n[Round \"1\"]\n1. 炮二平五\n",
        "[Event \"a\"]\n1. 炮二平五 {open\n[Round \"1\"] x\n}\n",
        /* escapes, quotes, spacing */
        ("[Event \"a\\\"b\"]\n[Site \"c\\\\d\"]\n[Red \"1999年\"中行杯\"\"]\n[Black  \"x\"]\n"
         "[Date \"y\" ]\n[Round \"z\"] \n [Opening \"o\"]\n[ECCO\"C55\"]\n[X \"\"]\n[Y \"v\"]]\n"),
        "[Event \"a\"][Site \"b\"]\n[Red \"r\"] 1. 炮二平五\n[Black b]\n[Date \"unclosed]\n",
        /* bad bytes, NUL, Unicode blanks in tags */
        "[Event \"a\xFF\"]\n[Site \"b\"]\n[Red \"\xE3\x80\x80r\"]\n[Na\xE3\x80\x80me \"v\"]\n",
        "[Event \"\xE9\xA6\"]\n[Black \"\xC3\"]\n",
        /* CRLF, a last line without '\n' */
        "[Event \"a\"]\r\n[Site \"b\"]\r\n\r\n1. 炮二平五 馬８進７\r\n0-1\r\n",
        "[Event \"a\"]\n[Site \"b\"]",
        "[Event \"a\"]\n\n1. 炮二平五\n1/2-1/2",
    };
    static const char *const ENCS[] = {NULL, "CP950", "GB18030"};
    static const xq_encoding ENC[] = {XQ_ENC_UTF8, XQ_ENC_BIG5, XQ_ENC_GBK};
    xqt_both t = {0};
    for (size_t c = 0; c < COUNT(CASES); c++) {
        for (size_t k = 0; k < 3; k++) {
            for (int before = 0; before < 2; before++) {
                out_file o = {0};
                o.cd = ENCS[k] ? iconv_open(ENCS[k], "UTF-8") : (iconv_t)-1;
                if (before)
                    for (int i = 0; i < 3; i++)
                        put(&o, "[Game \"g\"]\n[Event \"全國賽\"]\n\n1. 炮二平五 馬８進７\n1-0\n\n");
                if (ENCS[k] && strchr(CASES[c], '\xFF')) {   /* raw bytes as they are */
                    put_raw(&o, CASES[c], strlen(CASES[c]));
                } else {
                    put(&o, CASES[c]);
                }
                if (ENCS[k]) iconv_close(o.cd);
                xqt_read_both_out(&o, ENC[k], false, &t);
            }
        }
    }
    assert_true(t.games > 0);
}

/* The walker really takes the common lines: a file of plain records read
 * with the fast paths leaves the general way only the lines it must see
 * (here: none but the first of the file and those at the window's end),
 * checked through the decoder's line count being far below the file's. */
static void test_takes_common_lines(void **state)
{
    (void)state;
    out_file o = {0};
    o.cd = iconv_open("CP950", "UTF-8");
    assert_true(o.cd != (iconv_t)-1);
    size_t file_lines = 0;
    for (int i = 0; i < 200; i++) {
        put(&o, "[Game \"Chinese Chess\"]\n[Event \"全國賽\"]\n[Red \"張三\"]\n"
                "[Black \"李四\"]\n[Result \"1-0\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/"
                "P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n\n"
                "1. 炮二平五 馬８進７\n2. 傌二進三 車９平８\n1-0\n\n");
        file_lines += 12;
    }
    iconv_close(o.cd);
    char path[64];
    save_tmp(o.p, o.len, path);
    xq_read_options opt = {.encoding = XQ_ENC_BIG5, .format = XQ_FMT_PGN};
    char err[256];
    xq_reader *r = xq_reader_open(path, &opt, err, sizeof err);
    assert_non_null(r);
    xq_game g;
    xq_game_init(&g);
    size_t games = 0, general = 0;
    uint64_t last = 0;
    while (xq_reader_next(r, &g) == 1) {
        games++;
        assert_int_equal(g.tag_count, 6);
        assert_string_equal(g.tags[1].value, "全國賽");
        assert_non_null(g.fen);
        assert_int_equal(g.main.count, 4);
        assert_int_equal(g.result_code, XQ_RESULT_RED);
        assert_int_equal(g.diag_count, 0);
        if (r->line.number != last) general++;   /* a line went the general way */
        last = r->line.number;
    }
    assert_int_equal(games, 200);
    assert_true(general < 20);
    (void)file_lines;
    xq_game_free(&g);
    xq_reader_close(r);
    unlink(path);
    free(o.p);
}

/* plain_ascii against its definition, on random bytes at every length
 * and alignment. */
static void test_plain_ascii(void **state)
{
    (void)state;
    unsigned char buf[40];
    for (int iter = 0; iter < 200000; iter++) {
        size_t n = rnd(33);
        for (size_t i = 0; i < n; i++) {
            switch (rnd(6)) {
            case 0: buf[i] = (unsigned char)rnd(256); break;
            case 1: buf[i] = "\"\\\0\x7F\x80\x01"[rnd(6)]; break;
            default: buf[i] = (unsigned char)(0x20 + rnd(0x5F)); break;
            }
        }
        bool want = true;
        for (size_t i = 0; i < n; i++)
            if (buf[i] == 0 || buf[i] >= 0x80 || buf[i] == '"' || buf[i] == '\\') want = false;
        assert_int_equal(plain_ascii(buf, n), want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_utf8),
        cmocka_unit_test(test_big5),
        cmocka_unit_test(test_gbk),
        cmocka_unit_test(test_fixed_cases),
        cmocka_unit_test(test_takes_common_lines),
        cmocka_unit_test(test_plain_ascii),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
