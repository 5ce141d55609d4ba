/* test_input.c - bytes in: files, gzip, lines and offsets, encodings. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

#include "input.h"

#define DATA "tests/data/"

/* Write n bytes to a fresh temporary file; returns its path (static). */
static const char *tmp_file(const void *bytes, size_t n)
{
    static char path[64];
    save_tmp(bytes, n, path);
    return path;
}

/* Decoded text of a line, NUL-terminated (static buffer). */
static const char *decoded(xq_input *in, const xq_raw_line *l)
{
    static char buf[4096];
    xq_text t;
    assert_true(xq_input_decode(in, l, &t, NULL, NULL) >= 0);
    assert_true(t.len < sizeof buf);
    memcpy(buf, t.s, t.len);
    buf[t.len] = '\0';
    return buf;
}

static void test_encoding_names(void **state)
{
    (void)state;
    xq_encoding e = XQ_ENC_AUTO;
    assert_true(xq_encoding_parse("UTF-8", &e));
    assert_int_equal(e, XQ_ENC_UTF8);
    assert_true(xq_encoding_parse("gb18030", &e));
    assert_int_equal(e, XQ_ENC_GBK);
    assert_true(xq_encoding_parse("Big5", &e));
    assert_int_equal(e, XQ_ENC_BIG5);
    assert_true(xq_encoding_parse("auto", &e));
    assert_int_equal(e, XQ_ENC_AUTO);
    assert_false(xq_encoding_parse("latin1", &e));
    assert_string_equal(xq_encoding_name(XQ_ENC_BIG5), "big5");
    assert_string_equal(xq_encoding_name(XQ_ENC_GBK), "gbk");
}

static void test_utf8_valid(void **state)
{
    (void)state;
    const unsigned char ok[] = "\xe7\x82\xae\xe4\xba\x8c h2e2";
    assert_true(xq_utf8_valid(ok, sizeof ok - 1, false));
    assert_false(xq_utf8_valid((const unsigned char *)"\xc0\xaf", 2, false)); /* overlong */
    assert_false(xq_utf8_valid((const unsigned char *)"\xed\xa0\x80", 3, false)); /* surrogate */
    assert_false(xq_utf8_valid((const unsigned char *)"a\0b", 3, false));
    assert_false(xq_utf8_valid((const unsigned char *)"\xe7\x82", 2, false));
    assert_true(xq_utf8_valid((const unsigned char *)"\xe7\x82", 2, true)); /* cut sample */
}

static void test_detect(void **state)
{
    (void)state;
    size_t n;
    unsigned char *b = load(DATA "big5.pgn", &n);
    assert_int_equal(xq_detect_encoding(b, n), XQ_ENC_BIG5);
    free(b);
    b = load(DATA "gbk.pgn", &n);
    assert_int_equal(xq_detect_encoding(b, n), XQ_ENC_GBK);
    free(b);
    b = load(DATA "big5.utf8.pgn", &n);
    assert_int_equal(xq_detect_encoding(b, n), XQ_ENC_UTF8);
    free(b);
    b = load(DATA "bom.pgn", &n);
    assert_int_equal(xq_detect_encoding(b, n), XQ_ENC_UTF8);
    free(b);
    assert_int_equal(xq_detect_encoding((const unsigned char *)"1. h2e2", 7), XQ_ENC_UTF8);
    /* a stray NUL does not turn UTF-8 into a legacy encoding */
    assert_int_equal(xq_detect_encoding((const unsigned char *)"炮\0二", 7), XQ_ENC_UTF8);
}

/* An ASCII start leaves the encoding open; the first non-ASCII line
 * decides it from a sample starting there. */
static void test_late_detection(void **state)
{
    (void)state;
    size_t n;
    unsigned char *gbk = load(DATA "gbk.pgn", &n);
    size_t pad = 100000;
    unsigned char *text = malloc(pad + n);
    for (size_t i = 0; i < pad; i += 10) memcpy(text + i, "1. h2e2 *\n", 10);
    memcpy(text + pad, gbk, n);
    free(gbk);
    char err[256];
    xq_input *in = xq_input_open(tmp_file(text, pad + n), XQ_ENC_AUTO, err, sizeof err);
    free(text);
    assert_non_null(in);
    unlink(xq_input_path(in));
    xq_raw_line l;
    for (int i = 0; i < 10000; i++) assert_int_equal(xq_input_line(in, &l), 1);
    assert_int_equal(xq_input_encoding(in), XQ_ENC_UTF8);   /* ASCII so far */
    assert_int_equal(xq_input_line(in, &l), 1);              /* [Game ...] */
    assert_int_equal(xq_input_line(in, &l), 1);
    assert_int_equal(xq_input_encoding(in), XQ_ENC_GBK);
    assert_int_equal(l.offset, pad + 24);
    assert_string_equal(decoded(in, &l), "[Event \"象棋 淺\"]");
    xq_input_close(in);
}

static void test_sniff(void **state)
{
    (void)state;
    assert_int_equal(xq_sniff_format((const unsigned char *)"XQ\x0a\x00", 4), XQ_FMT_XQF);
    assert_int_equal(xq_sniff_format((const unsigned char *)"CCBridge Record\0x", 17), XQ_FMT_CBR);
    assert_int_equal(xq_sniff_format((const unsigned char *)"\xef\xbb\xbf<?xml", 8), XQ_FMT_XML);
    const char *d = "\xef\xbb\xbf[DhtmlXQ]\n[DhtmlXQ_ver]www_dpxq_com[/DhtmlXQ_ver]";
    assert_int_equal(xq_sniff_format((const unsigned char *)d, strlen(d)), XQ_FMT_DHTMLXQ);
    const char *p = "[Game \"Chinese Chess\"]\n1. h2e2";
    assert_int_equal(xq_sniff_format((const unsigned char *)p, strlen(p)), XQ_FMT_PGN);
    assert_int_equal(xq_sniff_format((const unsigned char *)"", 0), XQ_FMT_PGN);
}

static void test_lines_offsets(void **state)
{
    (void)state;
    const char text[] = "ab\r\n\nc d\nlast";
    char err[256];
    xq_input *in = xq_input_open(tmp_file(text, sizeof text - 1), XQ_ENC_AUTO, err, sizeof err);
    assert_non_null(in);
    unlink(xq_input_path(in));
    xq_raw_line l;
    assert_int_equal(xq_input_line(in, &l), 1);
    assert_int_equal(l.len, 2);               /* CR stripped */
    assert_int_equal(l.raw_len, 4);
    assert_int_equal(l.offset, 0);
    assert_int_equal(l.number, 1);
    assert_memory_equal(l.bytes, "ab", 2);
    assert_int_equal(xq_input_line(in, &l), 1);
    assert_int_equal(l.len, 0);
    assert_int_equal(l.offset, 4);
    assert_int_equal(xq_input_line(in, &l), 1);
    assert_int_equal(l.offset, 5);
    assert_int_equal(l.number, 3);
    xq_input_unread(in);
    assert_int_equal(xq_input_line(in, &l), 1);
    assert_int_equal(l.number, 3);
    assert_string_equal(decoded(in, &l), "c d");
    assert_int_equal(xq_input_line(in, &l), 1);
    assert_int_equal(l.offset, 9);
    assert_int_equal(l.len, 4);
    assert_int_equal(l.raw_len, 4);           /* no final newline */
    assert_int_equal(xq_input_line(in, &l), 0);
    assert_int_equal(xq_input_line(in, &l), 0);
    assert_false(xq_input_gzipped(in));
    xq_input_close(in);
}

/* The gzip fixture yields the same lines, offsets and text as the plain one. */
static void test_gzip_same_as_plain(void **state)
{
    (void)state;
    char err[256];
    xq_input *a = xq_input_open(DATA "big5.pgn", XQ_ENC_AUTO, err, sizeof err);
    xq_input *b = xq_input_open(DATA "big5.pgn.gz", XQ_ENC_AUTO, err, sizeof err);
    assert_non_null(a);
    assert_non_null(b);
    xq_raw_line la, lb;
    int lines = 0;
    for (;;) {
        int ra = xq_input_line(a, &la), rb = xq_input_line(b, &lb);
        assert_int_equal(ra, rb);
        if (ra == 0) break;
        assert_int_equal(la.offset, lb.offset);
        assert_int_equal(la.len, lb.len);
        assert_memory_equal(la.bytes, lb.bytes, la.len);
        char da[4096];
        strcpy(da, decoded(a, &la));
        assert_string_equal(da, decoded(b, &lb));
        lines++;
    }
    assert_int_equal(lines, 19);
    assert_true(xq_input_gzipped(b));
    assert_int_equal(xq_input_encoding(a), XQ_ENC_BIG5);
    assert_int_equal(xq_input_encoding(b), XQ_ENC_BIG5);
    xq_input_close(a);
    xq_input_close(b);
}

static void test_decode_big5_gbk_bom(void **state)
{
    (void)state;
    char err[256];
    xq_raw_line l;
    xq_input *in = xq_input_open(DATA "big5.pgn", XQ_ENC_AUTO, err, sizeof err);
    assert_non_null(in);
    assert_int_equal(xq_input_line(in, &l), 1);
    assert_int_equal(xq_input_line(in, &l), 1);
    assert_string_equal(decoded(in, &l), "[Event \"許銀川 對 呂欽\"]");
    assert_int_equal(xq_input_line(in, &l), 1);
    assert_string_equal(decoded(in, &l), "[Red \"許\"]");
    /* column 7 is 許 at byte 6; column 8 the quote after its 2 bytes */
    assert_int_equal(xq_input_col_offset(in, &l, 7), l.offset + 6);
    assert_int_equal(xq_input_col_offset(in, &l, 8), l.offset + 8);
    xq_input_close(in);

    in = xq_input_open(DATA "gbk.pgn", XQ_ENC_AUTO, err, sizeof err);
    assert_non_null(in);
    assert_int_equal(xq_input_line(in, &l), 1);
    assert_int_equal(xq_input_line(in, &l), 1);
    assert_string_equal(decoded(in, &l), "[Event \"象棋 淺\"]");
    assert_int_equal(xq_input_encoding(in), XQ_ENC_GBK);
    xq_input_close(in);

    in = xq_input_open(DATA "bom.pgn", XQ_ENC_AUTO, err, sizeof err);
    assert_non_null(in);
    assert_int_equal(xq_input_line(in, &l), 1);
    assert_int_equal(l.offset, 0);
    assert_string_equal(decoded(in, &l), "[Game \"Chinese Chess\"]");
    assert_int_equal(xq_input_encoding(in), XQ_ENC_UTF8);
    xq_input_close(in);

    /* forcing the wrong encoding still decodes, with U+FFFD where invalid */
    in = xq_input_open(DATA "gbk.pgn", XQ_ENC_UTF8, err, sizeof err);
    assert_non_null(in);
    assert_int_equal(xq_input_line(in, &l), 1);
    assert_int_equal(xq_input_line(in, &l), 1);
    assert_non_null(strstr(decoded(in, &l), "\xef\xbf\xbd"));
    xq_input_close(in);
}

typedef struct {
    int n;
    uint64_t off[8];
    size_t pos[8];
    const char *why[8];
} bad_log;

static void log_bad(void *ctx, uint64_t offset, size_t out_pos, const char *why)
{
    bad_log *b = ctx;
    if (b->n < 8) {
        b->off[b->n] = offset;
        b->pos[b->n] = out_pos;
        b->why[b->n] = why;
    }
    b->n++;
}

static void test_bad_bytes(void **state)
{
    (void)state;
    char err[256];
    xq_raw_line l;
    xq_text t;
    /* Big5: line 2 has 0xFF at file offset 10 and a NUL at 12 */
    const char big5[] = "\xb3\x5c\xb3\x5c\n"     /* 許許: decides Big5 */
                        "ab\xa4\x40" "c\xff" "d\0e\n";
    xq_input *in = xq_input_open(tmp_file(big5, sizeof big5 - 1), XQ_ENC_BIG5, err, sizeof err);
    assert_non_null(in);
    unlink(xq_input_path(in));
    assert_int_equal(xq_input_line(in, &l), 1);
    assert_int_equal(xq_input_line(in, &l), 1);
    bad_log log = {0};
    assert_int_equal(xq_input_decode(in, &l, &t, log_bad, &log), 2);
    assert_int_equal(log.n, 2);
    assert_int_equal(log.off[0], 10);
    assert_string_equal(log.why[0], "invalid Big5 byte sequence");
    assert_int_equal(log.off[1], 12);
    assert_string_equal(log.why[1], "NUL byte");
    assert_int_equal(t.len, strlen("ab一c\xef\xbf\xbd" "d\xef\xbf\xbd" "e"));
    assert_memory_equal(t.s, "ab一c\xef\xbf\xbd" "d\xef\xbf\xbd" "e", t.len);
    assert_int_equal(log.pos[0], strlen("ab一c"));
    xq_input_close(in);

    /* UTF-8: a lone continuation byte and a cut 3-byte sequence */
    const char u8[] = "x\x80y\xe7\x82z\n";
    in = xq_input_open(tmp_file(u8, sizeof u8 - 1), XQ_ENC_UTF8, err, sizeof err);
    assert_non_null(in);
    unlink(xq_input_path(in));
    assert_int_equal(xq_input_line(in, &l), 1);
    memset(&log, 0, sizeof log);
    assert_int_equal(xq_input_decode(in, &l, &t, log_bad, &log), 2);
    assert_int_equal(log.off[0], 1);
    assert_int_equal(log.off[1], 3);
    assert_memory_equal(t.s, "x\xef\xbf\xbdy\xef\xbf\xbdz", t.len);
    xq_input_close(in);
}

static void test_long_line(void **state)
{
    (void)state;
    size_t n = 10 * 1024 * 1024;
    char *big = malloc(n + 3);
    memset(big, 'a', n);
    memcpy(big + n, "\nb", 2);
    char err[256];
    xq_input *in = xq_input_open(tmp_file(big, n + 2), XQ_ENC_AUTO, err, sizeof err);
    free(big);
    assert_non_null(in);
    unlink(xq_input_path(in));
    xq_raw_line l;
    assert_int_equal(xq_input_line(in, &l), 1);
    assert_int_equal(l.len, n);
    xq_text t;
    assert_int_equal(xq_input_decode(in, &l, &t, NULL, NULL), 0);
    assert_int_equal(t.len, n);
    assert_int_equal(xq_input_line(in, &l), 1);
    assert_int_equal(l.offset, n + 1);
    assert_int_equal(xq_input_line(in, &l), 0);
    xq_input_close(in);
}

static void test_open_errors(void **state)
{
    (void)state;
    char err[256];
    assert_null(xq_input_open("/nonexistent/x.pgn", XQ_ENC_AUTO, err, sizeof err));
    assert_string_equal(err, "/nonexistent/x.pgn: No such file or directory");
    assert_null(xq_input_open("tests", XQ_ENC_AUTO, err, sizeof err));
    assert_string_equal(err, "tests: Is a directory");

    /* a truncated gzip stream is a read error, not a silent end */
    size_t n;
    unsigned char *gz = load(DATA "big5.pgn.gz", &n);
    const char *path = tmp_file(gz, n - 12);
    xq_input *in = xq_input_open(path, XQ_ENC_AUTO, err, sizeof err);
    free(gz);
    assert_non_null(in);
    unlink(xq_input_path(in));
    xq_raw_line l;
    int rc;
    while ((rc = xq_input_line(in, &l)) == 1) {}
    assert_int_equal(rc, -1);
    assert_non_null(strstr(xq_input_error(in), path));   /* the message names the file */
    xq_input_close(in);
}

static void test_stdin(void **state)
{
    (void)state;
    const char text[] = "line one\nline two\n";
    const char *path = tmp_file(text, sizeof text - 1);
    int saved = dup(STDIN_FILENO);
    assert_non_null(freopen(path, "rb", stdin));
    unlink(path);
    char err[256];
    xq_input *in = xq_input_open("-", XQ_ENC_AUTO, err, sizeof err);
    assert_non_null(in);
    xq_raw_line l;
    assert_int_equal(xq_input_line(in, &l), 1);
    assert_int_equal(xq_input_line(in, &l), 1);
    assert_string_equal(decoded(in, &l), "line two");
    assert_int_equal(l.offset, 9);
    xq_input_close(in);
    dup2(saved, STDIN_FILENO);
    close(saved);
}

int main(int argc, char **argv)
{
    (void)argc;
    xqt_chdir_to_root(argv[0], DATA "big5.pgn");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_encoding_names),
        cmocka_unit_test(test_utf8_valid),
        cmocka_unit_test(test_detect),
        cmocka_unit_test(test_late_detection),
        cmocka_unit_test(test_sniff),
        cmocka_unit_test(test_lines_offsets),
        cmocka_unit_test(test_gzip_same_as_plain),
        cmocka_unit_test(test_decode_big5_gbk_bom),
        cmocka_unit_test(test_bad_bytes),
        cmocka_unit_test(test_long_line),
        cmocka_unit_test(test_open_errors),
        cmocka_unit_test(test_stdin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
