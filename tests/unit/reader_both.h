/* reader_both.h - a file read twice, with the record reader's fast paths
 * and without them (its private switch no_fast), for the tests of those
 * fast paths.  Include after test_util.h and after pgn_read.c itself (the
 * switch lives in the reader's private struct). */
#ifndef XQ_TEST_READER_BOTH_H
#define XQ_TEST_READER_BOTH_H

/* What xqt_read_both read: added to by every call. */
typedef struct {
    size_t games, moves, tags;   /* records; main-line moves and tags in them */
    bool words;                  /* the last fast reader built its word cache */
} xqt_both;

/* Read path in encoding enc twice, game by game: with the fast paths and
 * without, the games must be the same field by field (same_game); with o
 * (NULL: not checked), the file written from, the raw bytes of the
 * records put together must give o's bytes back, each record at its
 * offset.  Adds to *t what was read. */
static inline void xqt_read_both(const char *path, xq_encoding enc, const out_file *o, xqt_both *t)
{
    xq_read_options opt = {.encoding = enc, .format = XQ_FMT_PGN};
    char err[256];
    xq_reader *fast = xq_reader_open(path, &opt, err, sizeof err);
    xq_reader *slow = xq_reader_open(path, &opt, err, sizeof err);
    assert_non_null(fast);
    assert_non_null(slow);
    slow->no_fast = true;
    xq_game a, b;
    xq_game_init(&a);
    xq_game_init(&b);
    size_t raw = 0, n = 0;
    for (;; n++) {
        int ra = xq_reader_next(fast, &a), rb = xq_reader_next(slow, &b);
        assert_int_equal(ra, rb);
        if (ra != 1) break;
        same_game(&a, &b);
        if (o) {
            assert_true(raw + a.raw_len <= o->len);
            assert_memory_equal(a.raw, o->p + raw, a.raw_len);
            assert_int_equal(a.offset, raw);
        }
        raw += a.raw_len;
        t->moves += a.main.count;
        t->tags += a.tag_count;
    }
    if (o && n) assert_int_equal(raw, o->len);   /* (blank lines alone make no record) */
    t->games += n;
    t->words = fast->words != NULL;
    xq_game_free(&a);
    xq_game_free(&b);
    xq_reader_close(fast);
    xq_reader_close(slow);
}

/* The file o (its bytes; freed here) through a temporary file, read both
 * ways (xqt_read_both) in encoding enc and, with detected, again with the
 * encoding detected. */
static inline void xqt_read_both_out(out_file *o, xq_encoding enc, bool detected, xqt_both *t)
{
    char path[64];
    save_tmp(o->p ? o->p : "", o->len, path);
    xqt_read_both(path, enc, o, t);
    if (detected) xqt_read_both(path, XQ_ENC_AUTO, o, t);
    unlink(path);
    free(o->p);
    o->p = NULL;
}

/* A file of n records, record i written by write_record(o, i, n) in
 * UTF-8 and converted to the encoding of iconv_name, read both ways
 * (xqt_read_both_out, with the encoding enc given and detected); the
 * word cache must have served (more moves than WORDS_AFTER, some words). */
static inline void xqt_check_encoded(xq_encoding enc, const char *iconv_name, int n,
                                     void (*write_record)(out_file *o, int i, int n))
{
    out_file o = {0};
    o.cd = iconv_open(iconv_name, "UTF-8");
    assert_true(o.cd != (iconv_t)-1);
    for (int i = 0; i < n; i++) write_record(&o, i, n);
    iconv_close(o.cd);
    o.cd = (iconv_t)-1;
    xqt_both t = {0};
    xqt_read_both_out(&o, enc, true, &t);
    assert_true(t.moves > WORDS_AFTER);
    assert_true(t.words);
}

#endif
