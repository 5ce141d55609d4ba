/* test_transcode.c - xq_transcode, xq_text_ascii and xq_text_place
 * (transcode.h), which xq-validate --keep uses to write records of files
 * in different encodings as one database: every pair of encodings against
 * a one-shot iconv of the same text, characters the target lacks ('?',
 * counted, the first one's offset), bytes the source has no character for
 * (U+FFFD in UTF-8, '?' in Big5/GBK), the same encoding copied unchanged,
 * line endings kept; counting without a sink the same; the ASCII test against a plain loop; the place of a
 * byte (lines, columns in characters) in each encoding. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transcode.h"

/* xq_transcode of s[0..n) as a malloc'd string (its length in *len). */
static char *transcoded(const char *s, size_t n, xq_encoding from, xq_encoding to, xq_transcode_report *rep,
                        size_t *len)
{
    char *buf = NULL;
    size_t blen = 0;
    FILE *f = open_memstream(&buf, &blen);
    assert_non_null(f);
    assert_true(xq_transcode(f, s, n, from, to, rep));
    assert_int_equal(fclose(f), 0);
    /* counting only (no sink) finds the same losses */
    xq_transcode_report counted;
    assert_true(xq_transcode(NULL, s, n, from, to, &counted));
    if (rep) {
        assert_int_equal(counted.bad, rep->bad);
        assert_int_equal(counted.unencodable, rep->unencodable);
        assert_int_equal(counted.first_lost, rep->first_lost);
    }
    *len = blen;
    return buf;
}

/* s (UTF-8, every character in every encoding) in enc by a plain iconv. */
static char *reference(const char *s, xq_encoding enc, size_t *len)
{
    const char *name = enc == XQ_ENC_BIG5 ? "CP950" : enc == XQ_ENC_GBK ? "GBK" : "UTF-8";
    iconv_t cd = iconv_open(name, "UTF-8");
    assert_true(cd != (iconv_t)-1);
    size_t n = strlen(s), cap = 4 * n + 1, left = n, oleft = cap;
    char *out = malloc(cap), *in = (char *)s, *o = out;
    assert_int_not_equal(iconv(cd, &in, &left, &o, &oleft), (size_t)-1);
    iconv_close(cd);
    *len = (size_t)(o - out);
    return out;
}

static const char COMMON[] = "[Event \"象棋 對局\"]\r\n[Red \"許銀川\"]\n\n1. 炮二平五 馬８進７ {好}\n2. 兵七進一 *\n";

static void every_pair(void **state)
{
    (void)state;
    const xq_encoding encs[] = {XQ_ENC_UTF8, XQ_ENC_GBK, XQ_ENC_BIG5};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            size_t slen, wlen, glen;
            char *src = reference(COMMON, encs[i], &slen), *want = reference(COMMON, encs[j], &wlen);
            xq_transcode_report rep;
            char *got = transcoded(src, slen, encs[i], encs[j], &rep, &glen);
            assert_int_equal(glen, wlen);
            assert_memory_equal(got, want, wlen);
            assert_int_equal(rep.bad, 0);
            assert_int_equal(rep.unencodable, 0);
            assert_true(rep.first_lost == SIZE_MAX);
            assert_non_null(memchr(got, '\r', glen));   /* (the CRLF kept) */
            free(src);
            free(want);
            free(got);
        }
}

static void lacking(void **state)
{
    (void)state;
    size_t len;
    xq_transcode_report rep;
    /* simplified 马 车 are not in Big5 */
    char *got = transcoded("a马车 x", strlen("a马车 x"), XQ_ENC_UTF8, XQ_ENC_BIG5, &rep, &len);
    assert_int_equal(len, 5);
    assert_memory_equal(got, "a?? x", 5);
    assert_int_equal(rep.unencodable, 2);
    assert_int_equal(rep.bad, 0);
    assert_int_equal(rep.first_lost, 1);
    free(got);
    /* from GBK bytes too: 马 is GBK C2 ED */
    got = transcoded("\xC2\xED" "1", 3, XQ_ENC_GBK, XQ_ENC_BIG5, &rep, &len);
    assert_int_equal(len, 2);
    assert_memory_equal(got, "?1", 2);
    assert_int_equal(rep.unencodable, 1);
    assert_int_equal(rep.first_lost, 0);
    free(got);
    /* a GB18030 four-byte character (U+1F600) read from a GBK file: strict
     * GBK lacks it, UTF-8 has it */
    const char emoji_utf8[] = "\xF0\x9F\x98\x80";
    iconv_t cd = iconv_open("GB18030", "UTF-8");
    assert_true(cd != (iconv_t)-1);
    char g4[8], *in = (char *)emoji_utf8, *o = g4;
    size_t left = 4, oleft = sizeof g4;
    assert_int_not_equal(iconv(cd, &in, &left, &o, &oleft), (size_t)-1);
    iconv_close(cd);
    size_t g4len = (size_t)(o - g4);
    assert_int_equal(g4len, 4);
    got = transcoded(g4, g4len, XQ_ENC_GBK, XQ_ENC_UTF8, &rep, &len);
    assert_int_equal(len, 4);
    assert_memory_equal(got, emoji_utf8, 4);
    assert_int_equal(rep.unencodable + rep.bad, 0);
    free(got);
    memcpy(g4 + 4, "z", 1);
    got = transcoded(g4, 5, XQ_ENC_GBK, XQ_ENC_GBK, &rep, &len);   /* the same: unchanged */
    assert_int_equal(len, 5);
    assert_memory_equal(got, g4, 5);
    free(got);
    got = transcoded(emoji_utf8, 4, XQ_ENC_UTF8, XQ_ENC_GBK, &rep, &len);
    assert_int_equal(len, 1);
    assert_memory_equal(got, "?", 1);
    assert_int_equal(rep.unencodable, 1);
    free(got);
}

static void bad_bytes(void **state)
{
    (void)state;
    size_t len;
    xq_transcode_report rep;
    /* invalid UTF-8: each byte U+FFFD in UTF-8... the same encoding copies */
    char *got = transcoded("x\xFF" "ab", 4, XQ_ENC_UTF8, XQ_ENC_UTF8, &rep, &len);
    assert_int_equal(len, 4);
    assert_memory_equal(got, "x\xFF" "ab", 4);
    assert_int_equal(rep.bad, 0);
    free(got);
    /* ... and '?' in Big5 */
    got = transcoded("x\xFF\xFE" "ab", 5, XQ_ENC_UTF8, XQ_ENC_BIG5, &rep, &len);
    assert_int_equal(len, 5);
    assert_memory_equal(got, "x??ab", 5);
    assert_int_equal(rep.bad, 2);
    assert_int_equal(rep.unencodable, 0);
    assert_int_equal(rep.first_lost, 1);
    free(got);
    /* a Big5 pair cut by the end, and one whose trail is no trail byte */
    got = transcoded("a\xA4", 2, XQ_ENC_BIG5, XQ_ENC_UTF8, &rep, &len);
    assert_int_equal(len, 4);
    assert_memory_equal(got, "a\xEF\xBF\xBD", 4);
    assert_int_equal(rep.bad, 1);
    assert_int_equal(rep.first_lost, 1);
    free(got);
    got = transcoded("\xA4\x0A" "b", 3, XQ_ENC_BIG5, XQ_ENC_GBK, &rep, &len);
    assert_int_equal(len, 3);
    assert_memory_equal(got, "?\nb", 3);   /* (the line feed is kept) */
    assert_int_equal(rep.bad, 1);
    free(got);
}

static void ascii(void **state)
{
    (void)state;
    unsigned seed = 12345;
    char buf[300];
    for (int t = 0; t < 20000; t++) {
        size_t n = (size_t)(t % 300);
        for (size_t i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            buf[i] = (char)((seed >> 16) & 0x7F);
        }
        if (t % 3 == 0 && n) {   /* one high byte, anywhere (each block, the tail) */
            seed = seed * 1103515245u + 12345u;
            buf[(seed >> 8) % n] |= (char)0x80;
        }
        bool plain = true;
        for (size_t i = 0; i < n; i++) plain &= (unsigned char)buf[i] < 0x80;
        assert_int_equal(xq_text_ascii(buf, n), plain);
    }
    assert_true(xq_text_ascii("", 0));
    assert_false(xq_text_ascii("\xEF\xBB\xBF", 3));   /* a BOM is not ASCII */
}

static void place(void **state)
{
    (void)state;
    unsigned long line, col;
    const char u[] = "ab\n炮x\n";
    xq_text_place(u, sizeof u - 1, 6, XQ_ENC_UTF8, &line, &col);
    assert_int_equal(line, 1);
    assert_int_equal(col, 2);
    xq_text_place(u, sizeof u - 1, 0, XQ_ENC_UTF8, &line, &col);
    assert_int_equal(line, 0);
    assert_int_equal(col, 1);
    xq_text_place(u, sizeof u - 1, 8, XQ_ENC_UTF8, &line, &col);   /* past the last line feed */
    assert_int_equal(line, 2);
    assert_int_equal(col, 1);
    const char b[] = "\r\n\xAC\xB6\xA4\x47x";   /* Big5 炮二 (0x47: a trail byte that is ASCII 'G') */
    xq_text_place(b, sizeof b - 1, 6, XQ_ENC_BIG5, &line, &col);
    assert_int_equal(line, 1);
    assert_int_equal(col, 3);
    const char g[] = "\x94\x39\xFC\x36" "\xC2\xED" "y";   /* GB18030 four bytes, a pair */
    xq_text_place(g, sizeof g - 1, 6, XQ_ENC_GBK, &line, &col);
    assert_int_equal(line, 0);
    assert_int_equal(col, 3);
    const char bom[] = "\xEF\xBB\xBF" "ab";
    xq_text_place(bom, sizeof bom - 1, 4, XQ_ENC_UTF8, &line, &col);
    assert_int_equal(col, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_pair),
        cmocka_unit_test(lacking),
        cmocka_unit_test(bad_bytes),
        cmocka_unit_test(ascii),
        cmocka_unit_test(place),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
