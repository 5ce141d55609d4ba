/* test_input_cr.c - line ends of text input (input.h xq_input_text_lines):
 * a file whose lines end in a lone CR (old Mac OS) reads as the same lines
 * as with LF, at the same offsets, plain and gzip, larger than the read
 * buffer, with a first line longer than the first read; LF and CRLF files
 * and a stray CR in an LF file are read as before, and an input that is
 * not declared text (a binary reader's) keeps its CR bytes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "test_util.h"

#include "input.h"

/* Write n bytes to a temporary file (gzip-compressed when gz) at path. */
static void save_file(const char *bytes, size_t n, bool gz, char path[64])
{
    strcpy(path, "/tmp/xq-test-cr-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    if (gz) {
        gzFile z = gzopen(path, "wb");
        assert_non_null(z);
        assert_int_equal(gzwrite(z, bytes, (unsigned)n), (int)n);
        gzclose(z);
    } else {
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(bytes, 1, n, f), n);
        fclose(f);
    }
}

/* The lines of text (terminators: sep, the content without them), read
 * from a file of its bytes as text (xq_input_text_lines), checked one by
 * one: content, number, offset in the file; or, not as_text, one line
 * (the text holds no '\n') of every byte as it is.  Returns the input's
 * xq_input_cr_lines. */
static bool check_lines(const char *text, size_t n, bool gz, bool as_text, const char *sep)
{
    char path[64], err[256];
    save_file(text, n, gz, path);
    xq_input *in = xq_input_open(path, XQ_ENC_UTF8, err, sizeof err);
    assert_non_null(in);
    xq_raw_line l;
    if (!as_text) {   /* one line, every byte as in the file (CRs kept) */
        assert_int_equal(xq_input_line(in, &l), 1);
        assert_int_equal(l.raw_len, n);
        assert_memory_equal(l.bytes, text, n);
        assert_int_equal(xq_input_line(in, &l), 0);
        bool cr = xq_input_cr_lines(in);
        xq_input_close(in);
        unlink(path);
        return cr;
    }
    xq_input_text_lines(in);
    size_t seplen = strlen(sep), at = 0;
    uint64_t number = 0;
    while (at < n) {
        const char *e = memmem(text + at, n - at, sep, seplen);
        size_t len = e ? (size_t)(e - (text + at)) : n - at;
        assert_int_equal(xq_input_line(in, &l), 1);
        assert_int_equal(l.number, ++number);
        assert_int_equal(l.offset, at);
        assert_int_equal(l.len, len);
        assert_memory_equal(l.bytes, text + at, len);
        assert_int_equal(l.raw_len, len + (e ? seplen : 0));
        at += len + (e ? seplen : 0);
    }
    assert_int_equal(xq_input_line(in, &l), 0);
    bool cr = xq_input_cr_lines(in);
    xq_input_close(in);
    unlink(path);
    return cr;
}

static void small_files(void **state)
{
    (void)state;
    static const char cr[] = "[Event \"A\"]\r\r1. h2e2 *\r\r[Event \"B\"]\r\r1. h2e2 h9g7 *\r";
    assert_true(check_lines(cr, sizeof cr - 1, false, true, "\r"));
    assert_true(check_lines(cr, sizeof cr - 1, true, true, "\r"));
    static const char cr_open[] = "a\rbb\r\rccc";   /* no line end at the end */
    assert_true(check_lines(cr_open, sizeof cr_open - 1, false, true, "\r"));
    /* LF, CRLF and a stray CR in an LF file: as before */
    static const char lf[] = "a\nbb\n\nccc\n";
    assert_false(check_lines(lf, sizeof lf - 1, false, true, "\n"));
    static const char crlf[] = "a\r\nbb\r\n\r\nccc\r\n";
    assert_false(check_lines(crlf, sizeof crlf - 1, false, true, "\r\n"));
    static const char stray[] = "x\ry\nz\n";
    assert_false(check_lines(stray, sizeof stray - 1, false, true, "\n"));
    /* not declared text (a binary reader): its CR bytes are kept */
    assert_false(check_lines(cr, sizeof cr - 1, false, false, ""));
}

/* A CR file of 3 MB (more than the read buffer and the gzip reader's
 * blocks), and one whose first line is longer than the first read. */
static void large_files(void **state)
{
    (void)state;
    size_t cap = 3u << 20, n = 0;
    char *text = malloc(cap + 64);
    assert_non_null(text);
    for (unsigned i = 0; n < cap; i++) n += (size_t)snprintf(text + n, 64, "line %09u of the CR test\r", i);
    assert_true(check_lines(text, n, false, true, "\r"));
    assert_true(check_lines(text, n, true, true, "\r"));
    memset(text, 'x', 700000);   /* a first line of 700,000 bytes and more */
    assert_true(check_lines(text, n, false, true, "\r"));
    assert_true(check_lines(text, n, true, true, "\r"));
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(small_files),
        cmocka_unit_test(large_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
