/* test_detect_fast.c - encoding detection (input.c xq_detect_encoding,
 * detect_pairs, score_pairs) against the former one, kept here as the
 * reference: the same scores and answers when the sample is decoded with
 * the pair cache (table_decode, iconv once per distinct byte pair)
 * instead of iconv over the whole sample (iconv_decode).  Samples: every
 * file of ../shared/corpus (decompressed, at the start and at its first
 * non-ASCII line, as the input samples it, whole and cut), and crafted
 * Big5, GBK and UTF-8 text with damage, NULs, GB18030 four-byte forms,
 * cut characters and random bytes.  Also: pair_entry (one iconv call for
 * the usual pair) against pair_entry_ref on every byte pair of both
 * encodings, and the pair cache handed to the input after detection
 * against entries made afresh.
 *
 * The input's sources are included to reach them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#include "input.c"

#include <ftw.h>

#ifndef XQ_SHARED
#define XQ_SHARED "../shared"
#endif

/* Deterministic pseudo-random numbers (xorshift64). */
static uint64_t rng_state = 0xD1B54A32D192ED03u;
static uint32_t rnd(uint32_t n)
{
    return xqt_xorshift(&rng_state, n);
}

/* ---- the former detection ------------------------------------------------ */

/* score_as before the pair cache: iconv over the whole sample. */
static long ref_score_as(xq_encoding enc, const unsigned char *s, size_t n,
                         const uint32_t *markers, size_t nm)
{
    iconv_t cd = open_legacy(enc);
    if (cd == (iconv_t)-1) return -(long)n;
    xq_buf out = {0};
    int nbad = iconv_decode(cd, "", s, n, 0, &out, NULL, NULL);
    iconv_close(cd);
    long score = -(long)(nbad < 0 ? 0 : nbad);
    const unsigned char *u = (const unsigned char *)out.p;
    size_t i = 0, blen;
    while (i < out.len) {
        int k = utf8_seq(u + i, out.len - i, &blen);
        if (k <= 0) { i++; continue; }
        if (k == 3) {
            uint32_t cp = utf8_cp(u + i, k);
            if (bsearch(&cp, markers, nm, sizeof *markers, cmp_u32)) score++;
        }
        i += (size_t)k;
    }
    xq_buf_free(&out);
    return score;
}

/* xq_detect_encoding before the pair cache. */
static xq_encoding ref_detect(const unsigned char *sample, size_t n)
{
    if (n >= 3 && memcmp(sample, "\xEF\xBB\xBF", 3) == 0) return XQ_ENC_UTF8;
    if (utf8_valid(sample, n, true, true)) return XQ_ENC_UTF8;
    if (mostly_utf8(sample, n)) return XQ_ENC_UTF8;
    uint32_t markers[64];
    size_t nm = marker_list(markers);
    long big5 = ref_score_as(XQ_ENC_BIG5, sample, n, markers, nm);
    long gbk = ref_score_as(XQ_ENC_GBK, sample, n, markers, nm);
    return big5 > gbk ? XQ_ENC_BIG5 : XQ_ENC_GBK;
}

/* The new detection equals the old on s[0..n), scores included, and the
 * pair cache it hands over holds the entries pair_entry_ref makes. */
static void check_sample(const unsigned char *s, size_t n)
{
    static unsigned calls;
    xq_encoding want = ref_detect(s, n);
    uint32_t *pairs = NULL;
    if (want == XQ_ENC_UTF8 || calls++ % 8 == 0) {   /* the whole function now and then */
        assert_int_equal(xq_detect_encoding(s, n), want);
        assert_int_equal(detect_pairs(s, n, &pairs), want);
        if (want == XQ_ENC_UTF8) {
            assert_null(pairs);
            return;
        }
    } else {   /* the scores it compares (one pair cache each, kept) */
        uint32_t markers[64], *p_big5 = NULL, *p_gbk = NULL;
        size_t nm = marker_list(markers);
        long big5 = score_pairs(XQ_ENC_BIG5, s, n, markers, nm, &p_big5);
        long gbk = score_pairs(XQ_ENC_GBK, s, n, markers, nm, &p_gbk);
        assert_int_equal(big5, ref_score_as(XQ_ENC_BIG5, s, n, markers, nm));
        assert_int_equal(gbk, ref_score_as(XQ_ENC_GBK, s, n, markers, nm));
        assert_int_equal(big5 > gbk ? XQ_ENC_BIG5 : XQ_ENC_GBK, want);
        pairs = want == XQ_ENC_BIG5 ? p_big5 : p_gbk;
        free(want == XQ_ENC_BIG5 ? p_gbk : p_big5);
    }
    if (!pairs) return;   /* (out of memory) */
    iconv_t cd = open_legacy(want);
    assert_true(cd != (iconv_t)-1);
    for (size_t k = rnd(64); k < ((size_t)256 << 8); k += 1 + rnd(64)) {
        uint32_t e = pairs[k];
        if (!e) continue;
        unsigned char p[2] = {(unsigned char)(k & 0xFF), (unsigned char)(k >> 8)};
        assert_int_equal(xq_pair_key(p), k);
        if (p[0] < 0x80) {   /* decode_slow's ASCII entries, no iconv */
            assert_int_equal(e, 1u << 28 | 1u << 24 | p[0] | (WORD_ASCII[p[0]] ? PAIR_WORD : 0));
        } else {
            assert_int_equal(e, pair_entry_ref(cd, p[0], p[1]));
        }
    }
    iconv_close(cd);
    free(pairs);
}

/* ---- corpus files ----------------------------------------------------------- */

static size_t files_seen;

/* The samples the input would take of the file: from its start, and
 * from its first line with a non-ASCII byte (detect_here); whole (up to
 * SAMPLE_SIZE) and cut at a random length. */
static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (type != FTW_F) return 0;
    char err[256];
    xq_input *in = xq_input_open(path, XQ_ENC_UTF8, err, sizeof err);
    if (!in) return 0;
    const unsigned char *p = NULL;
    size_t n = xq_input_peek(in, 4 * SAMPLE_SIZE, &p);
    size_t first = 0;
    while (first < n && p[first] < 0x80) first++;
    while (first > 0 && p[first - 1] != '\n') first--;
    size_t starts[2] = {0, first};
    for (int k = 0; k < 2; k++) {
        size_t len = n - starts[k] < SAMPLE_SIZE ? n - starts[k] : SAMPLE_SIZE;
        check_sample(p + starts[k], len);
        if (len) check_sample(p + starts[k], rnd((uint32_t)len));
    }
    xq_input_close(in);
    files_seen++;
    return 0;
}

static void test_corpus(void **state)
{
    (void)state;
    skip_without_shared(XQ_SHARED "/corpus");
    files_seen = 0;
    assert_int_equal(nftw(XQ_SHARED "/corpus", visit, 16, FTW_PHYS), 0);
    assert_true(files_seen > 0);
}

/* ---- crafted samples ---------------------------------------------------------- */

static const char *const TEXT[] = {
    "[Event \"全國象棋個人賽\"]\n", "[Red \"胡榮華\"]\n", "[Black \"许银川\"]\n",
    "1. 炮二平五 馬８進７\n", "2. 馬二進三 車９平８\n", "3. 车一平二 马2进3\n",
    "4. 兵七進一 卒７進１\n", "{好棋！}", "後炮平四", "前車進二", "帥五平四", "將5平6",
    "仕四進五", "士4进5", "相三進五", "象7进5", "傌八進七", "砲8平9", "1-0\n", "和棋",
    "一二三四五六七八九", "０１２３４５６７８９", "€™©®", "日本語のテキスト", "한국어",
    "Ｒｅｄ", "ﾊﾝｶｸ", "😀", "\t \r\n", "plain ascii text\n",
};

/* A random sample in enc (0 UTF-8, 1 Big5, 2 GBK) or random bytes (3),
 * damaged now and then: bytes changed, NULs, cut characters, GB18030
 * four-byte forms. */
static size_t crafted(unsigned char *buf, size_t cap)
{
    int kind = (int)rnd(4);
    out_file o = {0};
    o.cd = kind == 1 ? iconv_open("CP950", "UTF-8") : kind == 2 ? iconv_open("GB18030", "UTF-8")
                                                    : (iconv_t)-1;
    if (kind == 3) {
        for (size_t k = 0, n = rnd(600); k < n; k++) {
            char b = (char)rnd(256);
            put_raw(&o, &b, 1);
        }
    } else {
        for (size_t k = 0, n = rnd(80); k < n; k++) put(&o, TEXT[rnd(sizeof TEXT / sizeof *TEXT)]);
    }
    if (o.cd != (iconv_t)-1) iconv_close(o.cd);
    for (size_t k = 0, n = rnd(4) ? 0 : rnd(10); k < n && o.len; k++) {
        size_t at = rnd((uint32_t)o.len);
        switch (rnd(4)) {
        case 0: o.p[at] = (char)rnd(256); break;
        case 1: o.p[at] = 0; break;
        case 2: o.p[at] = (char)(0x80 + rnd(0x80)); break;
        default:   /* a GB18030 four-byte form, maybe cut */
            if (at + 4 <= o.len) {
                o.p[at] = (char)(0x81 + rnd(0x7E));
                o.p[at + 1] = (char)(0x30 + rnd(10));
                o.p[at + 2] = (char)(0x81 + rnd(0x7E));
                o.p[at + 3] = (char)(0x30 + rnd(10));
            }
            break;
        }
    }
    size_t n = o.len < cap ? o.len : cap;
    if (n && rnd(3) == 0) n = rnd((uint32_t)n);   /* cut anywhere */
    if (n) memcpy(buf, o.p, n);
    free(o.p);
    return n;
}

static void test_crafted(void **state)
{
    (void)state;
    static unsigned char buf[8192];
    for (int iter = 0; iter < 1500; iter++) {
        size_t n = crafted(buf, sizeof buf);
        check_sample(buf, n);
    }
}

/* ---- pair entries -------------------------------------------------------------- */

static void check_pairs(xq_encoding enc)
{
    iconv_t cd = open_legacy(enc);
    assert_true(cd != (iconv_t)-1);
    for (unsigned a = 0; a < 256; a++)
        for (unsigned b = 0; b < 256; b++)
            assert_int_equal(pair_entry(cd, (unsigned char)a, (unsigned char)b),
                             pair_entry_ref(cd, (unsigned char)a, (unsigned char)b));
    iconv_close(cd);
}

/* Detection hands the winner's pair cache over whatever the sample's
 * size, and takes both caches from the thread's stash: given back, the
 * same cache comes out of the next detection, with the entries the first
 * one made (a small file after the first costs no new cache: 256 KiB
 * caches made per encoding and file once made a thousand small files 7
 * times slower). */
static void test_cache_handed_over(void **state)
{
    (void)state;
    out_file o = {0};
    o.cd = iconv_open("CP950", "UTF-8");
    assert_true(o.cd != (iconv_t)-1);
    while (o.len < 4096) put(&o, "[Red \"胡榮華\"]\n1. 炮二平五 馬８進７\n");
    iconv_close(o.cd);
    const unsigned char *u = (const unsigned char *)o.p;
    uint32_t *pairs = NULL;
    assert_int_equal(detect_pairs(u, 100, &pairs), XQ_ENC_BIG5);
    assert_non_null(pairs);
    uint32_t *first = pairs;
    size_t known = 0;
    for (size_t k = 0; k < ((size_t)256 << 8); k++) known += pairs[k] != 0;
    assert_true(known > 0);
    pairs_give(XQ_ENC_BIG5, pairs);
    assert_int_equal(detect_pairs(u, o.len, &pairs), XQ_ENC_BIG5);
    assert_ptr_equal(pairs, first);
    size_t known2 = 0;
    for (size_t k = 0; k < ((size_t)256 << 8); k++) known2 += pairs[k] != 0;
    assert_true(known2 >= known);
    pairs_give(XQ_ENC_BIG5, pairs);
    free(o.p);
}

static void test_pairs_big5(void **state)
{
    (void)state;
    check_pairs(XQ_ENC_BIG5);
}

static void test_pairs_gbk(void **state)
{
    (void)state;
    check_pairs(XQ_ENC_GBK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_handed_over),
        cmocka_unit_test(test_pairs_big5), cmocka_unit_test(test_pairs_gbk),
        cmocka_unit_test(test_crafted),    cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
