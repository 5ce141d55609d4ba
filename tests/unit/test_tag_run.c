/* test_tag_run.c - the reader's run of usual tag lines (pgn_read.c
 * tag_run) against the general way, on records whose tags stop it
 * anywhere: more tags than tag_pred guesses (17 to 24), values the fast
 * value scans refuse (a '\\', a quote inside, text after the `"]`, a
 * byte pair the encoding has no character for, a value longer than
 * TAG_LEGACY_MAX), repeated names (the next record starts), a blank line
 * between tags, names of another case, FEN tags (the first one is the
 * record's FEN), and a first record read into a fresh game (no tag array
 * yet).  Every file is read with and without the fast paths, game by
 * game, field by field (same_game: diagnostics included). */
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

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint32_t rnd(uint32_t n)
{
    return xqt_xorshift(&rng_state, n);
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *const MOVES4[] = {
    "炮二平五", "馬８進７", "車一平二", "兵七進一", "帥五平四", "相三進五", "傌二進三", "車九平八",
    "卒３進１", "馬二進三", "炮８平５", "車１進１", "仕四進五", "將５平４", "士４進５", "車二進六",
};

/* The usual names in the usual order, then more known and unknown ones
 * (a record has up to 24 tags: more than tag_pred's 16), a second FEN
 * last. */
static const char *const NAMES[] = {
    "Game",  "Event",   "Round", "Date",  "Site",      "Red",    "RedTeam", "Black",
    "BlackTeam", "Result", "ECCO", "FEN", "Opening", "Variation", "Annotator", "PlyCount",
    "TimeControl", "Time", "Mode", "Termination", "Remark", "Author", "RedElo", "FEN",
};

/* A tag value: mostly a usual one (empty, ASCII, Chinese text of
 * several lengths, the start FEN), now and then one the fast scans
 * refuse or cut short. */
static void value(out_file *o, const char *name)
{
    static const char *const V[] = {
        "",   "C55", "1-0", "全國象棋個人賽", "張三", "4/17/1996", "a b",
        "象棋 1 象棋", "第9屆世錦賽男子組 20050802SIRCI負GEREMY", "柳大華",
    };
    unsigned odd = rnd(60);
    if (!strcmp(name, "FEN") && rnd(3)) {
        put(o, rnd(4) ? START_FEN_TEXT : "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
    } else if (odd == 0) {
        put(o, "a\\\\b");   /* an escape: tag_line's way */
    } else if (odd == 1) {
        put(o, "中\"國");   /* a quote inside */
    } else if (odd == 2) {
        put_raw(o, "\xFF\xFE", 2);   /* no character of the encoding */
    } else if (odd == 3) {
        for (int i = 0; i < 50; i++) put(o, "象棋");   /* over TAG_LEGACY_MAX bytes */
    } else if (odd == 4) {
        for (int i = 0; i < 30; i++) put(o, "abcdefghij");   /* a long ASCII value */
    } else {
        put(o, V[rnd(COUNT(V))]);
    }
}

/* A record's tags: 0 to 24 of NAMES in order, now and then one left out,
 * repeated, of another case, after a blank line, or with text after its
 * `"]`. */
static void tags(out_file *o)
{
    if (rnd(40) == 0) return;   /* a record without tags */
    size_t n = rnd(4) ? 12 : 1 + rnd(COUNT(NAMES));
    for (size_t i = 0; i < n; i++) {
        unsigned odd = rnd(50);
        if (odd == 0) continue;
        if (odd == 1) put(o, "\n");   /* a blank line inside the tags */
        const char *name = NAMES[i];
        if (odd == 2) name = NAMES[rnd((unsigned)i + 1)];   /* (maybe repeated) */
        if (odd == 3) name = "event";
        put(o, "[");
        put(o, name);
        put(o, " \"");
        value(o, name);
        put(o, odd == 4 ? "\"] x" : "\"]");
        put(o, rnd(30) ? "\n" : "\r\n");
    }
}

static void record(out_file *o)
{
    tags(o);
    if (rnd(6)) put(o, "\n");
    unsigned lines = rnd(40);
    for (unsigned i = 0; i < lines; i++) {
        char num[16];
        snprintf(num, sizeof num, "%u. ", i + 1);
        put(o, num);
        put(o, MOVES4[rnd(COUNT(MOVES4))]);
        put(o, " ");
        put(o, MOVES4[rnd(COUNT(MOVES4))]);
        put(o, "\n");
    }
    put(o, rnd(4) ? "1-0\n" : "0-1\n");
    if (rnd(4)) put(o, "\n");
}

static void record_of(out_file *o, int i, int n)
{
    (void)i;
    (void)n;
    record(o);
}

static void test_big5(void **state)
{
    (void)state;
    for (int iter = 0; iter < 10; iter++)
        xqt_check_encoded(XQ_ENC_BIG5, "CP950", 80 + (int)rnd(300), record_of);
}

static void test_gbk(void **state)
{
    (void)state;
    for (int iter = 0; iter < 6; iter++)
        xqt_check_encoded(XQ_ENC_GBK, "GB18030", 80 + (int)rnd(300), record_of);
}

/* UTF-8 (no pair cache: the values' UTF-8 ways), read both ways. */
static void test_utf8(void **state)
{
    (void)state;
    for (int iter = 0; iter < 6; iter++) {
        out_file o = {.cd = (iconv_t)-1};
        int n = 80 + (int)rnd(300);
        for (int i = 0; i < n; i++) record(&o);
        xqt_both t = {0};
        xqt_read_both_out(&o, XQ_ENC_UTF8, true, &t);
        assert_true(t.games > 0);
        assert_true(t.tags > t.games);
    }
}

/* The same records read into one game and into a fresh game each
 * (xq_game_init: no tag array, tag_cap 0: the tag array grows within a
 * run), which must be the same as each other. */
static void test_fresh_games(void **state)
{
    (void)state;
    char path[64];
    xqt_big5_file(record, 200, path);
    xq_read_options opt = {.encoding = XQ_ENC_BIG5, .format = XQ_FMT_PGN};
    char err[256];
    xq_reader *one = xq_reader_open(path, &opt, err, sizeof err);
    xq_reader *each = xq_reader_open(path, &opt, err, sizeof err);
    assert_non_null(one);
    assert_non_null(each);
    xq_game a;
    xq_game_init(&a);
    size_t n = 0, tagged = 0;
    for (;; n++) {
        xq_game b;
        xq_game_init(&b);
        int ra = xq_reader_next(one, &a), rb = xq_reader_next(each, &b);
        assert_int_equal(ra, rb);
        if (ra == 1) {
            same_game(&a, &b);
            tagged += a.tag_count > 1;
        }
        xq_game_free(&b);
        if (ra != 1) break;
    }
    assert_true(n >= 200);
    assert_true(tagged > 100);
    xq_game_free(&a);
    xq_reader_close(one);
    xq_reader_close(each);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_big5),
        cmocka_unit_test(test_gbk),
        cmocka_unit_test(test_utf8),
        cmocka_unit_test(test_fresh_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
