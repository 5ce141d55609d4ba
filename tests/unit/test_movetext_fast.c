/* test_movetext_fast.c - the record reader's line fast path (pgn_read.c
 * fast_scan through fast_line and fast_lines, which takes runs of lines
 * straight from the input's buffer with xq_input_window / xq_input_skip,
 * its cache of decoded 8-byte moves, and input.c xq_input_decode_word)
 * against the general path
 * it bypasses, and the raw bytes of records taken as runs of the input
 * (xq_input_keep) against the file.
 *
 * Random files of records in UTF-8, Big5 and GBK, mostly plain lines of
 * numbered moves (what the fast path takes) mixed with everything that
 * must send a line the general way: comments, variations, results, NAGs,
 * glued numbers and suffixes, placeholders, Unicode blanks, bad bytes,
 * NULs, '%' lines, tags.  Each file is read twice, with and without the
 * fast path, and every field of every game must be the same; the raw
 * bytes of the records put together must give the file back.
 *
 * The reader's and the input's sources are included so that the reader's
 * private switch (no_fast) can be reached. */
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
static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint32_t rnd(uint32_t n)
{
    return xqt_xorshift(&rng_state, n);
}

/* ---- random records ------------------------------------------------------ */

static const char *const MOVES[] = {
    "炮二平五", "馬８進７", "車一平二", "兵七進一", "帥五平四", "相三進五", "傌二進三",
    "車九平八", "卒３進１", "前炮平四", "馬二進三", "h2e2", "C2.5", "R2+3", "包8平5",
};
/* tokens that are not plain moves (or may not be) */
static const char *const ODD[] = {
    "炮二平五!?", "馬８進７?", "紅勝", "和棋", "1-0", "0-1", "1/2-1/2", "*", "１－０",
    "…", "．．．", "...", "$1", "!", "?!", "62.5", "1.炮二平五", "3…", "4．", "12abc",
    "{a comment 炮}", "{", "}", "(", ")", ";rest of line", "(馬二進三)", "{x}炮二平五",
    "[Event \"y\"]", "%", "０－１", "½-½", "黑勝", "和局", "$", "$12x", "炮!二",
};
static const char *const BLANKS[] = {" ", "  ", "\t", "\xE3\x80\x80", "\xC2\xA0", "\xEF\xBB\xBF", "\r"};
static const char *const BAD[] = {"\xFF", "\x80", "", "\xA1", "\xC3", "\xE9\xA6"};

static void put_blank(out_file *o)
{
    if (rnd(12) == 0) put(o, BLANKS[rnd(sizeof BLANKS / sizeof BLANKS[0])]);
    else put(o, rnd(4) ? " " : "  ");
}

/* A line of movetext: mostly "N. move move", sometimes anything. */
static void movetext_line(out_file *o, unsigned *number)
{
    int odd = rnd(4) == 0;
    if (rnd(8) == 0) put_blank(o);
    int count = 1 + (int)rnd(odd ? 6 : 3);
    for (int k = 0; k < count; k++) {
        if (k) put_blank(o);
        if (rnd(3) == 0 || k == 0) {
            char num[32];
            snprintf(num, sizeof num, "%u.", (*number)++);
            put(o, num);
            put_blank(o);
        }
        if (odd && rnd(4) == 0) put(o, ODD[rnd(sizeof ODD / sizeof ODD[0])]);
        else put(o, MOVES[rnd(sizeof MOVES / sizeof MOVES[0])]);
        if (odd && rnd(10) == 0) {
            const char *b = BAD[rnd(sizeof BAD / sizeof BAD[0])];
            put_raw(o, b, *b ? strlen(b) : 1);
        }
    }
    if (rnd(10) == 0) put_blank(o);
    put_raw(o, rnd(10) ? "\n" : "\r\n", rnd(10) ? 1 : 2);
}

static void record(out_file *o)
{
    static const char *const TAGS[] = {
        "[Game \"Chinese Chess\"]", "[Event \"全國賽\"]", "[Red \"張三\"]", "[Black \"李四\"]",
        "[Result \"1-0\"]", "[Date \"1996\"]", "[Event \"again\"]",
    };
    int ntags = (int)rnd(6);
    for (int i = 0; i < ntags; i++) {
        put(o, TAGS[rnd(sizeof TAGS / sizeof TAGS[0])]);
        put_raw(o, "\n", 1);
    }
    if (rnd(3)) put_raw(o, "\n", 1);
    unsigned number = 1;
    int lines = (int)rnd(40);
    for (int i = 0; i < lines; i++) {
        switch (rnd(40)) {
        case 0: put_raw(o, "\n", 1); break;
        case 1: put(o, "%escape 炮\n"); break;
        case 2: put(o, "{a comment\nover lines}\n"); break;
        case 3: put(o, "1. 炮二平五 馬８進７\n"); break;
        default: movetext_line(o, &number); break;
        }
    }
    if (rnd(4)) put(o, rnd(2) ? "1-0\n" : "1/2-1/2\n");
    if (rnd(10) == 0) put(o, "text after the result\n");
    if (rnd(3)) put_raw(o, "\n", 1);
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
        /* a few big files, over the input's 64 KiB buffer, so that the
         * kept runs of lines move with it */
        int records = iter % 10 == 0 ? 400 + (int)rnd(400) : 1 + (int)rnd(8);
        for (int i = 0; i < records; i++) record(&o);
        if (iconv_name) iconv_close(o.cd);
        xqt_read_both_out(&o, enc, true, &t);
    }
    assert_true(t.moves > 0);
}

static void test_utf8(void **state)
{
    (void)state;
    check_encoding(XQ_ENC_UTF8, NULL, 300);
}

static void test_big5(void **state)
{
    (void)state;
    check_encoding(XQ_ENC_BIG5, "CP950", 300);
}

static void test_gbk(void **state)
{
    (void)state;
    check_encoding(XQ_ENC_GBK, "GB18030", 300);
}

/* xq_input_decode_word's text is xq_input_decode's, on random words. */
static void test_decode_word(void **state)
{
    (void)state;
    static const xq_encoding encs[] = {XQ_ENC_UTF8, XQ_ENC_BIG5, XQ_ENC_GBK};
    char path[64];
    save_tmp("", 0, path);   /* an empty file: the decoder is used on its own */
    for (size_t e = 0; e < 3; e++) {
        char err[256];
        xq_input *in = xq_input_open(path, encs[e], err, sizeof err);
        assert_non_null(in);
        unsigned char buf[64];
        char word[3 * 64 + 4];
        for (int iter = 0; iter < 300000; iter++) {
            size_t n = 1 + rnd(12);
            for (size_t i = 0; i < n; i++) {
                switch (rnd(5)) {
                case 0: buf[i] = (unsigned char)(0x20 + rnd(0x60)); break;
                case 1: buf[i] = (unsigned char)rnd(256); break;
                default: buf[i] = (unsigned char)(0x80 + rnd(0x80)); break;
                }
            }
            xq_raw_line line = {buf, n, n, 1000, 2, false};
            xq_text t;
            int nbad = xq_input_decode(in, &line, &t, NULL, NULL);
            size_t len;
            uint32_t chars;
            size_t k = xq_input_decode_word(in, buf, n, word, &len, &chars);
            if (k == 0) continue;
            /* the bytes decoded as a word decode the same as a line */
            xq_raw_line part = {buf, k, k, 1000, 2, false};
            nbad = xq_input_decode(in, &part, &t, NULL, NULL);
            assert_int_equal(nbad, 0);
            assert_int_equal(t.len, len);
            assert_memory_equal(t.s, word, len);
            assert_int_equal(nchars(t.s, t.s + t.len), chars);
            /* and hold no blank or delimiter */
            for (size_t i = 0; i < len; i++) {
                assert_true(CLASS[(unsigned char)word[i]] != C_BLANK);
                assert_true(CLASS[(unsigned char)word[i]] != C_DELIM);
                assert_true(word[i] != 0);
                assert_int_equal(blank_len(word + i, word + len), 0);
            }
        }
        xq_input_close(in);
    }
    unlink(path);
}

/* ---- encoding detection ------------------------------------------------- */

/* mostly_utf8 before its early exit. */
static bool ref_mostly_utf8(const unsigned char *s, size_t n)
{
    size_t i = 0, good = 0, bad = 0, blen;
    while (i < n) {
        if (s[i] < 0x80) { i++; continue; }
        int k = utf8_seq(s + i, n - i, &blen);
        if (k < 0) break;
        if (k > 0) { good++; i += (size_t)k; continue; }
        bad++;
        i += blen;
    }
    return good > 0 && good >= 4 * bad;
}

/* mostly_utf8 on random samples: UTF-8 text with damage, Big5 and GBK
 * records, bytes (the scores of the legacy encodings: test_detect_fast.c). */
static void test_detection(void **state)
{
    (void)state;
    for (int iter = 0; iter < 3000; iter++) {
        out_file o = {0};
        int kind = (int)rnd(4);
        o.cd = kind == 1 ? iconv_open("CP950", "UTF-8") : kind == 2 ? iconv_open("GB18030", "UTF-8")
                                                        : (iconv_t)-1;
        if (kind == 3) {
            for (int k = 0, n = (int)rnd(400); k < n; k++) {
                char b = (char)rnd(256);
                put_raw(&o, &b, 1);
            }
        } else {
            for (int k = 0, n = 1 + (int)rnd(3); k < n; k++) record(&o);
        }
        if (o.cd != (iconv_t)-1) iconv_close(o.cd);
        if (kind == 0) {   /* damage some UTF-8 */
            for (int k = 0, n = (int)rnd(8); k < n && o.len; k++)
                o.p[rnd((uint32_t)o.len)] = (char)(0x80 + rnd(0x80));
        }
        const unsigned char *u = (const unsigned char *)(o.p ? o.p : "");
        assert_int_equal(mostly_utf8(u, o.len), ref_mostly_utf8(u, o.len));
        free(o.p);
    }
}

/* The inline word-byte test against the table the pairs are made with. */
static void test_word_ascii(void **state)
{
    (void)state;
    for (unsigned b = 0; b < 256; b++) assert_int_equal(xq_word_ascii(b), WORD_ASCII[b] != 0);
    for (unsigned b = 0; b < 256; b++)
        assert_int_equal(WORD_UTF8[b] == 1, WORD_ASCII[b] != 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_word_ascii),
        cmocka_unit_test(test_detection),
        cmocka_unit_test(test_decode_word),
        cmocka_unit_test(test_utf8),
        cmocka_unit_test(test_big5),
        cmocka_unit_test(test_gbk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
