/* test_pair_run_fast.c - the record reader's shortcuts of round eight
 * against the general way (pgn_read.c, the reader's no_fast switch):
 *  - fast_pair_lines: its block for the moves' texts made when the one in
 *    use is short (a record's first line of moves), its last line of one
 *    move ("N. WWWWWWWW\n") and every near miss of it (a blank after the
 *    move, CRLF, a result or a second word of other length after it, a
 *    word the cache does not hold), its line budget (records long enough
 *    to grow the node array), and the lines in the last 23 bytes of a
 *    window (files of several 64 KiB windows, lines at every offset);
 *  - fast_lines' result line ("1-0", "0-1", "1/2-1/2", "*", with blanks,
 *    CRLF, text after it, inside an open variation or comment);
 *  - the word cache's texts kept with zeros after them (a node's text is
 *    the 16 bytes copied from its slot), and its growth from 4,096 slots
 *    to 32,768 (words_size: the words it holds kept, found again);
 *  - fast_tag's empty value shortcut and tag_legacy's two characters a
 *    step (values of Big5 / GBK text mixed with ASCII, values around
 *    TAG_LEGACY_MAX bytes, escapes, quotes, NUL and bad bytes in them);
 *  - node_fill's empty part (comment to move) cleared as one block.
 * Every file is read with and without the fast paths, game by game, field
 * by field (same_game: diagnostics included); the raw bytes of the
 * records give the file back.
 *
 * The reader's and the input's sources are included so that no_fast and
 * the static helpers can be reached. */
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

/* ---- files --------------------------------------------------------------- */

/* Moves of 4 characters (8 bytes in Big5 and GBK), and others. */
static const char *const MOVES4[] = {
    "炮二平五", "馬８進７", "車一平二", "兵七進一", "帥五平四", "相三進五", "傌二進三", "車九平八",
    "卒３進１", "前炮平四", "馬二進三", "炮８平５", "車１進１", "仕四進五", "將５平４", "士４進５",
};
static const char *const OTHER[] = {"h2e2", "C2.5", "炮二平", "前馬進三七", "炮二平五!", "兵五進一?"};

static const char *move(void)
{
    return rnd(25) ? MOVES4[rnd(COUNT(MOVES4))] : OTHER[rnd(COUNT(OTHER))];
}

static void eol(out_file *o)
{
    put(o, rnd(25) ? "\n" : "\r\n");
}

/* The last line of a record that ends with a move of Red, and its near
 * misses. */
static void last_line(out_file *o, unsigned number)
{
    char num[32];
    snprintf(num, sizeof num, "%u. ", number);
    put(o, num);
    put(o, move());
    switch (rnd(12)) {
    case 0: put(o, " "); break;
    case 1: put(o, " 1-0"); break;
    case 2: put(o, " 炮二平"); break;
    case 3: put(o, "\t"); break;
    default: break;
    }
    eol(o);
}

/* A result line, mostly the plain one. */
static void result_line(out_file *o)
{
    static const char *const R[] = {"1-0", "0-1", "1/2-1/2", "*"};
    static const char *const ODD[] = {
        "1-0 ", "0-1\t", "1-0 junk", "1-0 {c}", "1-0)", "2-0", "1-00", "1/2", "*x",
        "１－０", "紅勝", "1-0 1-0", " 1-0", "10",
    };
    put(o, rnd(8) ? R[rnd(COUNT(R))] : ODD[rnd(COUNT(ODD))]);
    eol(o);
}

/* A tag value: Big5 / GBK text mixed with ASCII, empty, long, odd. */
static void tag_value(out_file *o)
{
    static const char *const V[] = {
        "全國象棋個人賽", "第 3 輪", "張三", "李四 (北京)", "1999年 中行杯", "", "C55", "x",
        "象棋 a 象棋 bb 象棋", "中炮對屏風馬", "一二三四五六七八九十",
    };
    static const char *const ODD[] = {"a\\\"b", "a\\\\b", "\"", "\\", "象\"棋", "象\\棋"};
    switch (rnd(16)) {
    case 0: {   /* around TAG_LEGACY_MAX bytes: Big5 / GBK text, ASCII in it */
        size_t want = TAG_LEGACY_MAX - 8 + rnd(16);
        size_t start = o->len;
        while (o->len - start < want) put(o, rnd(4) ? "象" : rnd(2) ? "a" : " ");
        break;
    }
    case 1: put(o, ODD[rnd(COUNT(ODD))]); break;
    case 2: put_raw(o, "\0", 1); put(o, "象"); break;
    case 3: put_raw(o, "\xFF\xFF", 2); break;
    case 4: put(o, "象"); put_raw(o, "\x81", 1); break;   /* a lead byte before the quote */
    default: put(o, V[rnd(COUNT(V))]); break;
    }
}

static void tags(out_file *o)
{
    static const char *const N[] = {"Game", "Event", "Round", "Date", "Site", "Red",
                                    "RedTeam", "Black", "BlackTeam", "Result", "ECCO"};
    for (size_t i = 0; i < COUNT(N); i++) {
        if (rnd(8) == 0) continue;
        put(o, "[");
        put(o, N[i]);
        put(o, " \"");
        tag_value(o);
        put(o, rnd(30) ? "\"]" : rnd(2) ? "\" ]" : "\"]x");
        eol(o);
    }
}

static void record(out_file *o)
{
    tags(o);
    if (rnd(4)) put(o, "\n");
    /* now and then a long record: the node array grows under the run */
    int lines = rnd(20) == 0 ? 150 + (int)rnd(300) : (int)rnd(60);
    int open = rnd(25) == 0 ? (int)rnd(lines + 1) : -1;   /* an open '(' or '{' there */
    for (int i = 0; i < lines; i++) {
        char num[32];
        snprintf(num, sizeof num, "%d. ", i + 1);
        put(o, num);
        put(o, move());
        put(o, " ");
        put(o, move());
        if (i == open) put(o, rnd(2) ? " (" : " {");
        eol(o);
    }
    if (rnd(2)) last_line(o, (unsigned)lines + 1);
    if (rnd(6)) result_line(o);
    if (rnd(3)) put(o, "\n");
}

/* record for xqt_check_encoded (every record alike). */
static void record_of(out_file *o, int i, int n)
{
    (void)i;
    (void)n;
    record(o);
}

/* Files of many records in the encoding of iconv_name (> 64 KiB: several
 * windows), read both ways with the encoding given and detected. */
static void check_encoding(xq_encoding enc, const char *iconv_name, int iters)
{
    for (int iter = 0; iter < iters; iter++)
        xqt_check_encoded(enc, iconv_name, 40 + (int)rnd(iter % 4 == 0 ? 400 : 80), record_of);
}

static void test_big5(void **state)
{
    (void)state;
    check_encoding(XQ_ENC_BIG5, "CP950", 24);
}

static void test_gbk(void **state)
{
    (void)state;
    check_encoding(XQ_ENC_GBK, "GB18030", 24);
}

/* ---- pieces -------------------------------------------------------------- */

/* A word slot's text is followed by zeros, whatever was there before:
 * the 16 bytes a node copies are its text and the NUL. */
static void test_slot_text_zeros(void **state)
{
    (void)state;
    char path[64];
    xqt_big5_file(record, 200, path);
    xq_read_options opt = {.encoding = XQ_ENC_BIG5, .format = XQ_FMT_PGN};
    char err[256];
    xq_reader *r = xq_reader_open(path, &opt, err, sizeof err);
    assert_non_null(r);
    xq_game g;
    xq_game_init(&g);
    size_t nodes = 0;
    while (xq_reader_next(r, &g) == 1) {
        for (size_t i = 0; i < g.main.count; i++, nodes++) {
            const xq_node *n = &g.main.nodes[i];
            assert_int_equal(strlen(n->text), n->text_len);
            assert_int_equal(n->move, XQ_MOVE_NONE);
        }
    }
    assert_true(nodes > WORDS_AFTER);
    assert_non_null(r->words);
    assert_true(r->words_mask == WORD_SLOTS_FIRST - 1 || r->words_mask == WORD_SLOTS - 1);
    for (size_t i = 0; i <= r->words_mask; i++) {
        const struct word_slot *s = &r->words[i];
        if (!s->len) continue;
        assert_true(s->len < 16);
        for (size_t k = s->len; k < 16; k++) assert_int_equal(s->text[k], 0);
    }
    xq_game_free(&g);
    xq_reader_close(r);
    unlink(path);
}

/* words_size: the cache made at WORDS_AFTER moves in WORD_SLOTS_FIRST
 * slots, grown at WORDS_GROW to WORD_SLOTS with every word it held found
 * again, text and counts as they were. */
static void test_words_grow(void **state)
{
    (void)state;
    xq_reader r;
    memset(&r, 0, sizeof r);
    uint32_t pairs[1];
    r.pairs = pairs;   /* (only tested for NULL) */
    r.moves = WORDS_AFTER - 1;
    words_size(&r);
    assert_null(r.words);
    r.moves = WORDS_AFTER;
    words_size(&r);
    assert_non_null(r.words);
    assert_int_equal(r.words_mask, WORD_SLOTS_FIRST - 1);
    uint64_t keys[3000];
    size_t n = 0;
    for (size_t i = 0; i < 3000; i++) {
        uint64_t w = ((uint64_t)rnd(1u << 30) << 32 | rnd(1u << 30)) | 1;
        struct word_slot *v = word_victim_in(r.words, r.words_mask, w);
        v->key = w;
        memset(v->text, 0, 16);
        v->text[0] = (char)('a' + w % 26);
        v->len = 1;
        v->chars = (uint32_t)(w % 7);
        v->desc = (uint16_t)w;
    }
    for (size_t i = 0; i <= r.words_mask; i++)   /* what the small table kept */
        if (r.words[i].len) keys[n++] = r.words[i].key;
    r.file_moves = WORDS_GROW;
    words_size(&r);
    assert_int_equal(r.words_mask, WORD_SLOTS - 1);
    for (size_t i = 0; i < n; i++) {
        const struct word_slot *s = word_find_in(r.words, r.words_mask, keys[i]);
        assert_non_null(s);
        assert_int_equal(s->text[0], (char)('a' + keys[i] % 26));
        assert_int_equal(s->chars, (uint32_t)(keys[i] % 7));
        assert_int_equal(s->desc, (uint16_t)keys[i]);
        assert_ptr_equal(word_probe(r.words, r.words_mask, keys[i]), s);
    }
    words_size(&r);   /* (grown: stays) */
    assert_int_equal(r.words_mask, WORD_SLOTS - 1);
    words_free(r.words, r.words_mask + 1);
}

/* The empty part of a node as node_fill leaves it: every byte zero, from
 * comment to the end, whatever the node held. */
static void test_node_fill(void **state)
{
    (void)state;
    xq_node n;
    memset(&n, 0xA5, sizeof n);
    node_fill(&n, "炮二平五", 12, 7, 9, 3, 1234);
    assert_string_equal(n.text, "炮二平五");
    assert_int_equal(n.line, 7);
    assert_int_equal(n.col, 9);
    assert_int_equal(n.number, 3);
    assert_int_equal(n.text_len, 12);
    assert_int_equal(n.desc, 1234);
    assert_null(n.comment);
    assert_null(n.nags);
    assert_null(n.variations);
    assert_int_equal(n.variation_count, 0);
    assert_int_equal(n.nag_count, 0);
    assert_int_equal(n.move, XQ_MOVE_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_big5),
        cmocka_unit_test(test_gbk),
        cmocka_unit_test(test_slot_text_zeros),
        cmocka_unit_test(test_words_grow),
        cmocka_unit_test(test_node_fill),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
