/* test_pair_fit_fast.c - the record reader's and the input's shortcuts of
 * round eight (second part) against the general way:
 *  - fast_pair_lines' room test made once per run (`fit`: the lines whose
 *    two texts surely fit in the block of move texts), with cached words
 *    of 8 raw bytes whose texts are 8, 10 and 12 bytes of UTF-8 (ASCII,
 *    Big5 / GBK and ASCII mixed, Big5 / GBK), in records long enough to
 *    fill several blocks, read with and without the fast paths
 *    (reader_both.h), game by game, field by field;
 *  - fast_result's one compare for "1-0\n" and "0-1\n" (and its near
 *    misses: CRLF, blanks, text after it, inside an open variation, at the
 *    end of the file without a '\n');
 *  - score_decode (the detection's scoring as it decodes with the pair
 *    cache) against the scoring of iconv_decode's text, on random samples
 *    of Big5 / GBK text, markers, ASCII, bad bytes and NULs.
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

static uint64_t rng_state = 0xA0761D6478BD642Fu;
static uint32_t rnd(uint32_t n)
{
    return xqt_xorshift(&rng_state, n);
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Words of 8 raw bytes in Big5 and GBK: texts of 12, 10 and 8 bytes. */
static const char *const WORDS[] = {
    "炮二平五", "馬８進７", "車一平二", "前炮平四",   /* 12 */
    "炮二h2e2", "馬8進7x",  "車1平2ab",                /* 10 */
    "h2e2h3e3", "C2.5N8+7", "b0c2h9g7",                /* 8 */
};

static const char *word(void)
{
    return rnd(40) ? WORDS[rnd(COUNT(WORDS))] : "炮二平";   /* (now and then a short one) */
}

static void eol(out_file *o)
{
    put(o, rnd(30) ? "\n" : "\r\n");
}

/* A result line: mostly "1-0" and "0-1" (fast_result's compare), and its
 * near misses. */
static void result_line(out_file *o)
{
    static const char *const R[] = {"1-0", "0-1", "1/2-1/2", "*"};
    static const char *const ODD[] = {"1-0 ", "0-1\t", "1-0x", "0-1 {c}", "1-0)", "0-10", "1-1",
                                      "0-1 0-1", "1-", "0", "1-0\r"};
    put(o, rnd(6) ? R[rnd(2)] : rnd(2) ? R[rnd(COUNT(R))] : ODD[rnd(COUNT(ODD))]);
}

static void record(out_file *o, bool last)
{
    put(o, "[Game \"Chinese Chess\"]\n[Event \"全國象棋個人賽\"]\n[Red \"張三\"]\n");
    if (rnd(2)) put(o, "[Black \"李四\"]\n");
    put(o, "\n");
    /* long records now and then: several blocks of move texts */
    int lines = rnd(8) == 0 ? 100 + (int)rnd(400) : (int)rnd(70);
    int open = rnd(12) == 0 ? (int)rnd(lines + 1) : -1;   /* an open '(' there */
    for (int i = 0; i < lines; i++) {
        char num[32];
        snprintf(num, sizeof num, "%d. ", i + 1);
        put(o, num);
        put(o, word());
        if (i + 1 == lines && rnd(3) == 0) {   /* a last line of one move */
            eol(o);
            break;
        }
        put(o, " ");
        put(o, word());
        if (i == open) put(o, " (");
        eol(o);
    }
    if (rnd(8)) {
        result_line(o);
        if (!last || rnd(2)) eol(o);   /* (the file's last line: a '\n' or not) */
    }
    if (!last && rnd(3)) put(o, "\n");
}

/* record for xqt_check_encoded: record i of n. */
static void record_of(out_file *o, int i, int n)
{
    record(o, i + 1 == n);
}

/* Files of many records in the encoding of iconv_name (several 64 KiB
 * windows), read both ways with the encoding given and detected. */
static void check_encoding(xq_encoding enc, const char *iconv_name, int iters)
{
    for (int iter = 0; iter < iters; iter++)
        xqt_check_encoded(enc, iconv_name, 30 + (int)rnd(iter % 3 == 0 ? 300 : 60), record_of);
}

static void test_big5(void **state)
{
    (void)state;
    check_encoding(XQ_ENC_BIG5, "CP950", 16);
}

static void test_gbk(void **state)
{
    (void)state;
    check_encoding(XQ_ENC_GBK, "GB18030", 16);
}

/* ---- the detection's scoring ------------------------------------------- */

/* A random sample of about n bytes: text of iconv_name (markers, other
 * characters, ASCII), raw bytes (leads, trails, NUL, 0x80, 0xFF). */
static unsigned char *sample(const char *iconv_name, size_t n, size_t *len)
{
    static const char *const TEXT[] = {"車", "馬", "炮", "進", "退", "平", "兵", "卒", "一", "五",
                                       "１", "９", "象棋", "全國", "張三", "中炮對屏風馬", "a",
                                       "1. ", "\n", " ", "h2e2", "傌", "俥", "後"};
    out_file o = {0};
    o.cd = iconv_open(iconv_name, "UTF-8");
    assert_true(o.cd != (iconv_t)-1);
    while (o.len < n) {
        if (rnd(20) == 0) {
            static const unsigned char RAW[] = {0x00, 0x80, 0xFF, 0xA4, 0x81, 0x40, 0x7F, 0xFE};
            put_raw(&o, (const char *)&RAW[rnd(COUNT(RAW))], 1);
        } else {
            put(&o, TEXT[rnd(COUNT(TEXT))]);
        }
    }
    iconv_close(o.cd);
    *len = o.len;
    return (unsigned char *)o.p;
}

/* score_pairs with the pair cache (score_decode) and without it (the
 * scoring of iconv_decode's text) give the same score, for both
 * encodings, on samples of either; the cache left is the one
 * table_decode leaves (its entries, decoding the sample again, give the
 * same text as a fresh cache). */
static void test_score_decode(void **state)
{
    (void)state;
    uint32_t markers[64];
    size_t nm = marker_list(markers);
    static const char *const ENC[] = {"CP950", "GB18030"};
    for (int iter = 0; iter < 40; iter++) {
        size_t n;
        unsigned char *s = sample(ENC[iter % 2], iter < 4 ? 40000 + rnd(30000) : 1 + rnd(5000), &n);
        for (int e = 0; e < 2; e++) {
            xq_encoding enc = e ? XQ_ENC_GBK : XQ_ENC_BIG5;
            uint32_t *pairs = NULL;
            long fast = score_pairs(enc, s, n, markers, nm, &pairs);
            long slow = score_pairs(enc, s, n, markers, nm, NULL);
            assert_int_equal(fast, slow);
            assert_non_null(pairs);
            /* the cache as table_decode's: decoding with it and afresh agree */
            iconv_t cd = open_legacy(enc);
            assert_true(cd != (iconv_t)-1);
            uint32_t *fresh = NULL;
            xq_buf a = {0}, b = {0};
            int na = table_decode(cd, &pairs, "", s, n, 0, &a, NULL, NULL);
            int nb = table_decode(cd, &fresh, "", s, n, 0, &b, NULL, NULL);
            assert_int_equal(na, nb);
            assert_int_equal(a.len, b.len);
            assert_memory_equal(a.p, b.p, a.len);
            iconv_close(cd);
            xq_buf_free(&a);
            xq_buf_free(&b);
            free(fresh);
            free(pairs);
        }
        free(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_big5),
        cmocka_unit_test(test_gbk),
        cmocka_unit_test(test_score_decode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
