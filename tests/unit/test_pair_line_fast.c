/* test_pair_line_fast.c - the record reader's shortcuts of round six
 * against what they stand for:
 *  - pgn_read.c fast_pair_line (the line "N. WWWWWWWW WWWWWWWW\n" of a
 *    Big5 or GBK record from the two-way word cache) against the general
 *    way: files of mostly that line shape, with every near miss (numbers
 *    of 1 to 4 digits, two dots, tabs, two spaces, CRLF, a blank at the
 *    end, one or three moves, results, moves of other lengths), read with
 *    and without the fast path, game by game, field by field;
 *  - the word cache (word_find, word_victim): what it finds is what was
 *    stored for those 8 bytes;
 *  - input.c's pair cache without its ASCII leads filled ahead: the word
 *    decoder (xq_pairs_decode_word) on a table whose ASCII-lead entries
 *    are unknown gives what it gives on the table filled ahead (the
 *    old pairs_new, kept here as the reference).
 *
 * The reader's and the input's sources are included so that the reader's
 * private switch (no_fast) and the static helpers can be reached. */
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

/* ---- files --------------------------------------------------------------- */

/* Moves of 4 Chinese characters (8 bytes in Big5 and GBK) and a few
 * others (other lengths, ASCII). */
static const char *const MOVES4[] = {
    "炮二平五", "馬８進７", "車一平二", "兵七進一", "帥五平四", "相三進五", "傌二進三",
    "車九平八", "卒３進１", "前炮平四", "馬二進三", "炮８平５", "車１進１", "仕四進五",
};
static const char *const OTHER[] = {"h2e2", "C2.5", "炮二平", "前馬進三七", "炮二平五!", "1-0"};

static const char *move(void)
{
    return rnd(20) ? MOVES4[rnd(sizeof MOVES4 / sizeof MOVES4[0])]
                   : OTHER[rnd(sizeof OTHER / sizeof OTHER[0])];
}

/* One line of moves: mostly the dominant shape, sometimes a near miss. */
static void moves_line(out_file *o, unsigned number)
{
    char num[32];
    static const unsigned big[] = {0, 7, 10, 99, 100, 999, 1000, 12345};
    unsigned n = rnd(10) ? number : big[rnd(8)];
    snprintf(num, sizeof num, rnd(30) ? "%u." : rnd(2) ? "%u.." : "%u", n);
    put(o, num);
    put(o, rnd(30) ? " " : rnd(2) ? "\t" : "  ");
    put(o, move());
    int count = rnd(15) ? 2 : rnd(2) ? 1 : 3;
    for (int k = 1; k < count; k++) {
        put(o, rnd(30) ? " " : "\t");
        put(o, move());
    }
    if (rnd(30) == 0) put(o, " ");
    put(o, rnd(30) ? "\n" : "\r\n");
}

static void record(out_file *o)
{
    put(o, "[Game \"Chinese Chess\"]\n[Event \"全國賽\"]\n[Result \"1-0\"]\n");
    if (rnd(4)) put(o, "\n");
    int lines = (int)rnd(60);
    for (int i = 0; i < lines; i++) {
        if (rnd(50) == 0) put(o, "{a comment}\n");
        moves_line(o, (unsigned)i + 1);
    }
    if (rnd(4)) put(o, rnd(2) ? "1-0\n" : "0-1\n");
    if (rnd(3)) put(o, "\n");
}

/* ---- comparing games ----------------------------------------------------- */

/* Read path both ways (xqt_read_both); returns the moves read. */
static size_t read_both(const char *path, xq_encoding enc)
{
    xqt_both t = {0};
    xqt_read_both(path, enc, NULL, &t);
    assert_true(t.words);   /* (the files are long enough for the cache) */
    return t.moves;
}

static void check_encoding(xq_encoding enc, const char *iconv_name)
{
    for (int iter = 0; iter < 40; iter++) {
        out_file o = {0};
        o.cd = iconv_open(iconv_name, "UTF-8");
        assert_true(o.cd != (iconv_t)-1);
        int records = 20 + (int)rnd(iter % 5 == 0 ? 600 : 40);
        for (int i = 0; i < records; i++) record(&o);
        iconv_close(o.cd);
        char path[64];
        save_tmp(o.p, o.len, path);
        assert_true(read_both(path, enc) > WORDS_AFTER);
        read_both(path, XQ_ENC_AUTO);
        unlink(path);
        free(o.p);
    }
}

static void test_big5_lines(void **state)
{
    (void)state;
    check_encoding(XQ_ENC_BIG5, "CP950");
}

static void test_gbk_lines(void **state)
{
    (void)state;
    check_encoding(XQ_ENC_GBK, "GB18030");
}

/* ---- the word cache ------------------------------------------------------ */

static void test_word_cache(void **state)
{
    (void)state;
    struct word_slot *ws = calloc(WORD_SLOTS, sizeof *ws);
    assert_non_null(ws);
    for (int iter = 0; iter < 200000; iter++) {
        /* keys from a small set, so that sets fill and words are evicted */
        uint64_t w = (uint64_t)rnd(6000) * 0x0101010101010101u ^ (uint64_t)rnd(3) << 40;
        const struct word_slot *f = word_find(ws, w);
        if (f) {   /* what was stored for w: its text and counts */
            assert_int_equal(f->key, w);
            assert_int_equal(f->len, (uint32_t)(w % 13) + 1);
            assert_int_equal(f->chars, (uint32_t)(w % 5));
            assert_int_equal(f->text[0], (char)w);
            continue;
        }
        struct word_slot *v = word_victim(ws, w);
        size_t h = word_hash(w);
        assert_true(v == &ws[h] || v == &ws[h ^ 1]);
        v->key = w;
        v->len = (uint32_t)(w % 13) + 1;
        v->chars = (uint32_t)(w % 5);
        v->text[0] = (char)w;
        assert_ptr_equal(word_find(ws, w), v);
    }
    free(ws);
}

/* ---- the pair cache's ASCII leads ---------------------------------------- */

/* The pair cache as pairs_new made it before: ASCII leads filled ahead. */
static uint32_t *ref_pairs_new(void)
{
    uint32_t *pt = calloc((size_t)256 << 8, sizeof *pt);
    assert_non_null(pt);
    for (unsigned b = 1; b < 0x80; b++) {
        uint32_t e = 1u << 28 | 1u << 24 | b | (WORD_ASCII[b] ? PAIR_WORD : 0);
        for (unsigned next = 0; next < 256; next++) pt[next << 8 | b] = e;
    }
    return pt;
}

static void test_ascii_leads(void **state)
{
    (void)state;
    /* the reference table and the lazy one, with the same entries made
     * for non-ASCII leads (some words, some not) and, in the lazy one,
     * some ASCII-lead entries made as decode_slow makes them */
    uint32_t *ref = ref_pairs_new(), *lazy = pairs_new();
    assert_non_null(lazy);
    for (int i = 0; i < 20000; i++) {
        unsigned lead = 0x80 + rnd(0x80), next = rnd(256);
        uint32_t e = rnd(3) ? 2u << 28 | 3u << 24 | PAIR_WORD | rnd(1u << 24)
                            : rnd(2) ? PAIR_BAD : 2u << 28 | 2u << 24 | rnd(1u << 16);
        ref[next << 8 | lead] = lazy[next << 8 | lead] = e;
    }
    for (int i = 0; i < 3000; i++) {
        unsigned b = 1 + rnd(0x7F), next = rnd(256);
        lazy[next << 8 | b] = ref[next << 8 | b];
    }
    for (unsigned b = 1; b < 0x80; b++)   /* decode_slow's entry is the one filled ahead */
        assert_int_equal(ref[b], 1u << 28 | 1u << 24 | b | (xq_word_ascii(b) ? PAIR_WORD : 0));
    unsigned char buf[40];
    for (int iter = 0; iter < 500000; iter++) {
        size_t n = rnd(sizeof buf + 1);
        for (size_t i = 0; i < n; i++) {
            switch (rnd(4)) {
            case 0: buf[i] = (unsigned char)rnd(0x80); break;
            case 1: buf[i] = (unsigned char)rnd(256); break;
            default: buf[i] = (unsigned char)(0x80 + rnd(0x80)); break;
            }
        }
        char oa[3 * sizeof buf + 4], ob[3 * sizeof buf + 4];
        size_t la, lb;
        uint32_t ca, cb;
        size_t ka = xq_pairs_decode_word(ref, buf, n, oa, &la, &ca);
        size_t kb = xq_pairs_decode_word(lazy, buf, n, ob, &lb, &cb);
        assert_int_equal(ka, kb);
        assert_int_equal(la, lb);
        assert_int_equal(ca, cb);
        assert_memory_equal(oa, ob, la);
    }
    free(ref);
    free(lazy);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_word_cache),
        cmocka_unit_test(test_ascii_leads),
        cmocka_unit_test(test_big5_lines),
        cmocka_unit_test(test_gbk_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
