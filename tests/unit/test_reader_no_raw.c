/* test_reader_no_raw.c - xq_read_options.no_raw (pgn_read.h): a text
 * record read without its raw bytes is the record read with them, field
 * by field, but for raw, which is NULL; raw_len counts the same bytes
 * (the records' raw_len still add up to the file's decompressed size),
 * offsets and lines are the same.  On the corpora, the repository's
 * records (broken ones, every encoding, CRLF, gzip) and crafted records
 * with cut over-long lines and no final newline. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <zlib.h>

#include "test_util.h"

static xq_reader *open_with(const char *path, bool no_raw)
{
    char err[256];
    xq_read_options o = {.no_raw = no_raw};
    xq_reader *r = xq_reader_open(path, &o, err, sizeof err);
    if (!r) fprintf(stderr, "%s\n", err);
    assert_non_null(r);
    return r;
}

/* Read path both ways in step (at most max records, 0: all); returns the
 * records' raw_len summed. */
static uint64_t read_both(const char *path, size_t max)
{
    skip_without_shared(path);
    xq_reader *with = open_with(path, false), *without = open_with(path, true);
    xq_game a, b;
    xq_game_init(&a);
    xq_game_init(&b);
    uint64_t bytes = 0;
    for (size_t n = 0; !max || n < max; n++) {
        int sa = xq_reader_next(with, &a), sb = xq_reader_next(without, &b);
        assert_int_equal(sa, sb);
        if (sa != 1) break;
        assert_null(b.raw);
        xq_game bb = b;
        bb.raw = a.raw;   /* all but the bytes themselves */
        same_game(&a, &bb);
        bytes += b.raw_len;
    }
    xq_game_free(&a);
    xq_game_free(&b);
    xq_reader_close(with);
    xq_reader_close(without);
    return bytes;
}

/* The decompressed size of path (a gzip file or not). */
static uint64_t file_bytes(const char *path)
{
    gzFile z = gzopen(path, "rb");
    assert_non_null(z);
    char buf[65536];
    uint64_t n = 0;
    int k;
    while ((k = gzread(z, buf, sizeof buf)) > 0) n += (uint64_t)k;
    gzclose(z);
    return n;
}

static void test_corpora(void **state)
{
    (void)state;
    uint64_t n = read_both(XQ_SHARED "/corpus/ccpd/endgames.pgn.gz", 0);
    assert_int_equal(n, file_bytes(XQ_SHARED "/corpus/ccpd/endgames.pgn.gz"));
    assert_true(read_both(XQ_SHARED "/corpus/ccpd/masters.pgn.gz", 3000) > 1000000);
}

static void test_repository(void **state)
{
    (void)state;
    static const char *const files[] = {
        "corpus/broken.pgn", "corpus/edge-cases.pgn", "corpus/sample-games.pgn",
        "tests/data/big5.pgn", "tests/data/big5.pgn.gz", "tests/data/gbk.pgn",
        "tests/data/bom.pgn", "corpus/broken/invalid-big5.pgn", "corpus/broken/invalid-utf8.pgn",
        "corpus/broken/mixed-crlf.pgn", "corpus/broken/nul-bytes.pgn", "corpus/broken/only-tags.pgn",
        "corpus/broken/truncated-comment.pgn", "corpus/broken/truncated-move.pgn",
        "corpus/broken/truncated-tag.pgn", "corpus/broken/unterminated-variation.pgn",
        "corpus/broken/gbk-with-utf8-bom.pgn",
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        assert_int_equal(read_both(files[i], 0), file_bytes(files[i]));
    read_both("corpus/broken/gzip-truncated.pgn.gz", 0);   /* a read error part way */
}

/* Records with a comment line longer than the reader keeps (cut: its
 * rest skipped, missing from raw bytes either way), CRLF line ends and
 * no final newline. */
static void test_crafted(void **state)
{
    (void)state;
    out_file o = {0};
    o.cd = (iconv_t)-1;
    enum { LONG = 300000 };
    char *x = malloc(LONG);
    assert_non_null(x);
    memset(x, 'x', LONG);
    for (int i = 0; i < 6; i++) {
        char line[128];
        snprintf(line, sizeof line, "[Event \"crafted %d\"]\r\n[Result \"*\"]\r\n\r\n1. 炮二平五 ", i);
        put(&o, line);
        if (i % 2) {
            put(&o, "{");
            int times = i == 3 ? XQ_MAX_LINE / LONG + 1 : i;   /* record 3: a line cut at XQ_MAX_LINE */
            for (int k = 0; k < times; k++) put_raw(&o, x, LONG);
            put(&o, "} ");
        }
        put(&o, i == 5 ? "馬８進７ *" : "馬８進７ *\r\n\r\n");
    }
    free(x);
    char path[64];
    save_tmp(o.p, o.len, path);
    uint64_t with = 0;
    {
        xq_reader *r = open_with(path, false);
        xq_game g;
        xq_game_init(&g);
        while (xq_reader_next(r, &g) == 1) with += g.raw_len;
        xq_game_free(&g);
        xq_reader_close(r);
    }
    assert_int_equal(read_both(path, 0), with);
    unlink(path);
    free(o.p);
}

int main(int argc, char **argv)
{
    (void)argc;
    xqt_chdir_to_root(argv[0], "corpus");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpora),
        cmocka_unit_test(test_repository),
        cmocka_unit_test(test_crafted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
