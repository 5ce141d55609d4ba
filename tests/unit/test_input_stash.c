/* test_input_stash.c - what a closed input leaves to the next one of its
 * thread (input.c: the read buffer, the legacy converters and pair
 * caches): that the next input takes them, that a grown buffer is not
 * kept, that a thread's stash is freed when it ends (LeakSanitizer in
 * `make asan` would report it), and that an input decodes the same lines,
 * bad bytes included, whatever earlier inputs of its thread left: every
 * file of tests/data, corpus/ and ../shared/corpus, and crafted damaged
 * Big5 and GBK files, read in a thread that read all the others before
 * (one order, then the reverse) against a fresh thread each.
 *
 * The input's sources are included to reach the stash. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#include "input.c"

#include <ftw.h>
#include <pthread.h>

#ifndef XQ_SHARED
#define XQ_SHARED "../shared"
#endif

/* ---- a file read through: its decoded lines and bad-byte reports ------- */

/* What a file decoded to, NUL-terminated: test_util.h's out_file, its
 * bytes as they are (cd unused). */
typedef out_file text;

static void text_put(text *t, const void *s, size_t n)
{
    put_raw(t, s, n);   /* (room for the NUL is kept) */
    t->p[t->len] = '\0';
}

static void note_bad(void *ctx, uint64_t off, size_t out_off, const char *what)
{
    char b[128];
    int n = snprintf(b, sizeof b, "\n<bad %llu %zu %s>\n", (unsigned long long)off, out_off, what);
    text_put(ctx, b, (size_t)n);
}

/* Every line of path decoded (with the encoding detected, or enc), each
 * with its bad-byte reports and the decoder's return value, then the
 * encoding chosen; into *t (reset first). */
static void read_through(const char *path, xq_encoding enc, text *t)
{
    t->len = 0;
    text_put(t, "", 0);
    char err[256];
    xq_input *in = xq_input_open(path, enc, err, sizeof err);
    assert_non_null(in);
    xq_raw_line l;
    int r;
    while ((r = xq_input_line(in, &l)) > 0) {
        xq_text d;
        int nbad = xq_input_decode(in, &l, &d, note_bad, t);
        char b[64];
        int n = snprintf(b, sizeof b, "%d|", nbad);
        text_put(t, b, (size_t)n);
        text_put(t, d.s, d.len);
        text_put(t, "\n", 1);
    }
    char b[64];
    int n = snprintf(b, sizeof b, "end %d %s\n", r, xq_encoding_name(xq_input_encoding(in)));
    text_put(t, b, (size_t)n);
    xq_input_close(in);
}

/* ---- the files -------------------------------------------------------- */

enum { MAX_FILES = 1024 };
static char *files[MAX_FILES];
static size_t nfiles;

static int add_file(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)ftw;
    if (type == FTW_F && nfiles < MAX_FILES && st->st_size < (8 << 20)) files[nfiles++] = strdup(path);
    return 0;
}

/* Crafted legacy files: records of Big5 or GBK text, damaged here and
 * there (bytes changed, NULs, cut characters, lines longer than the
 * first buffer). */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static void add_crafted(int k)
{
    static const char *const TEXT[] = {
        "[Event \"全國象棋個人賽\"]\n", "[Red \"胡榮華\"]\n", "[Black \"许银川\"]\n",
        "1. 炮二平五 馬８進７\n",      "2. 馬二進三 車９平８\n", "3. 车一平二 马2进3\n",
        "{好棋！}\n",                   "後炮平四 前車進二\n",    "1-0\n\n",
    };
    out_file o = {0};
    o.cd = iconv_open(k % 2 ? "GB18030" : "CP950", "UTF-8");
    assert_true(o.cd != (iconv_t)-1);
    size_t lines = 20 + xqt_xorshift(&rng_state, 400);
    for (size_t i = 0; i < lines; i++) put(&o, TEXT[xqt_xorshift(&rng_state, sizeof TEXT / sizeof *TEXT)]);
    if (k % 5 == 4) {   /* a line longer than the first buffer: it grows */
        for (size_t i = 0; i < 7000; i++) put(&o, "炮二平五 ");
        put(&o, "\n");
    }
    iconv_close(o.cd);
    for (size_t i = 0, n = xqt_xorshift(&rng_state, 12); i < n && o.len; i++) {
        size_t at = xqt_xorshift(&rng_state, (uint32_t)o.len);
        o.p[at] = (char)(i % 3 == 0 ? 0 : 0x80 + xqt_xorshift(&rng_state, 0x80));
    }
    char path[64];
    save_tmp(o.p, o.len, path);
    free(o.p);
    files[nfiles++] = strdup(path);
}

/* A gzip file of `bytes` bytes of records whose CRC is damaged: zlib
 * reports it at the end of the stream, and the input hands out what the
 * steps before the failing one decompressed (zin.c).  With a kept
 * buffer of 128 KiB read as such, the first step asked for twice the
 * bytes and a stream failing between 64 and 128 KiB gave nothing. */
static void add_bad_gzip(size_t bytes)
{
    out_file o = {0};
    o.cd = (iconv_t)-1;
    while (o.len < bytes) put(&o, "[Event \"x\"]\n\n1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ 1-0\n\n");
    char path[64];
    save_tmp_gz(o.p, bytes, 9, path);
    free(o.p);
    size_t n;
    unsigned char *gz = load(path, &n);
    assert_true(n > 8);
    gz[n - 8] ^= 0x5A;   /* the CRC-32 of the trailer */
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(gz, 1, n, f), n);
    fclose(f);
    free(gz);
    files[nfiles++] = strdup(path);
}

static void collect(void)
{
    if (nfiles) return;
    nftw("tests/data", add_file, 16, FTW_PHYS);
    nftw("corpus", add_file, 16, FTW_PHYS);
    nftw(XQ_SHARED "/corpus", add_file, 16, FTW_PHYS);
    for (int k = 0; k < 24 && nfiles < MAX_FILES; k++) add_crafted(k);
    if (nfiles + 3 <= MAX_FILES) {
        add_bad_gzip(100000);
        add_bad_gzip(70000);
        add_bad_gzip(30000);
    }
}

/* ---- threads ---------------------------------------------------------- */

typedef struct {
    size_t from, step, count;   /* files[from], files[from + step], ... */
    xq_encoding enc;
    text *out;                  /* one per file, indexed as files */
} job;

static void *run_job(void *p)
{
    job *j = p;
    for (size_t i = 0, f = j->from; i < j->count; i++, f += j->step) read_through(files[f], j->enc, &j->out[f]);
    return NULL;
}

static void run_thread(job *j)
{
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, run_job, j), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
}

/* Every file read in one thread after the others (forward, then
 * backward) decodes as in a thread of its own. */
static void check_orders(xq_encoding enc)
{
    collect();
    assert_true(nfiles > 20);
    text *fresh = calloc(nfiles, sizeof *fresh), *warm = calloc(nfiles, sizeof *warm);
    assert_non_null(fresh);
    assert_non_null(warm);
    for (size_t f = 0; f < nfiles; f++) {
        job j = {f, 1, 1, enc, fresh};
        run_thread(&j);
    }
    for (int dir = 0; dir < 2; dir++) {
        job j = {dir ? nfiles - 1 : 0, dir ? (size_t)-1 : 1, nfiles, enc, warm};
        run_thread(&j);
        for (size_t f = 0; f < nfiles; f++) {
            if (warm[f].len != fresh[f].len || memcmp(warm[f].p, fresh[f].p, fresh[f].len) != 0)
                fail_msg("%s decodes differently after other files (order %d)", files[f], dir);
        }
    }
    for (size_t f = 0; f < nfiles; f++) {
        free(fresh[f].p);
        free(warm[f].p);
    }
    free(fresh);
    free(warm);
}

static void test_same_text_auto(void **state)
{
    (void)state;
    check_orders(XQ_ENC_AUTO);
}

static void test_same_text_forced(void **state)
{
    (void)state;
    check_orders(XQ_ENC_GBK);
    check_orders(XQ_ENC_BIG5);
}

/* ---- what is kept ----------------------------------------------------- */

/* The first line of every file test_next_input_takes_them reads: enough
 * marker characters for the detection to tell Big5 from GBK. */
static const char LINE[] = "1. 炮二平五 馬８進７ 2. 馬二進三 車９平８";

/* A file of LINE in encoding (iconv's name); its path into path. */
static void legacy_file(const char *encoding, char path[64])
{
    out_file o = {0};
    o.cd = iconv_open(encoding, "UTF-8");
    assert_true(o.cd != (iconv_t)-1);
    put(&o, LINE);
    put(&o, "\n");
    iconv_close(o.cd);
    save_tmp(o.p, o.len, path);
    free(o.p);
}

/* The next input takes what the last one left: the same buffer, the same
 * converter and pair cache for the same encoding; another encoding's are
 * its own. */
static void test_next_input_takes_them(void **state)
{
    (void)state;
    char big5[64], gbk[64];
    legacy_file("CP950", big5);
    legacy_file("GB18030", gbk);
    char err[256];
    xq_raw_line l;
    xq_text d;

    xq_input *a = xq_input_open(big5, XQ_ENC_AUTO, err, sizeof err);
    assert_non_null(a);
    assert_int_equal(xq_input_line(a, &l), 1);
    assert_int_equal(xq_input_decode(a, &l, &d, NULL, NULL), 0);
    assert_int_equal(xq_input_encoding(a), XQ_ENC_BIG5);
    const uint32_t *pairs = xq_input_pairs(a);
    unsigned char *buf = a->buf;
    iconv_t cd = a->cd;
    assert_non_null(pairs);
    xq_input_close(a);
    assert_non_null(stash);
    assert_ptr_equal(stash->pairs[0], pairs);
    assert_ptr_equal(stash->buf, buf);
    assert_ptr_equal(stash->cd[0], cd);

    xq_input *b = xq_input_open(big5, XQ_ENC_AUTO, err, sizeof err);
    assert_non_null(b);
    assert_ptr_equal(b->buf, buf);   /* taken at open */
    assert_int_equal(b->cap, READ_CHUNK);   /* (used as a new one: the same read steps) */
    assert_null(stash->buf);
    assert_int_equal(xq_input_line(b, &l), 1);
    assert_int_equal(xq_input_decode(b, &l, &d, NULL, NULL), 0);
    assert_int_equal(d.len, strlen(LINE));
    assert_memory_equal(d.s, LINE, d.len);
    assert_ptr_equal(xq_input_pairs(b), pairs);
    assert_ptr_equal(b->cd, cd);

    /* while b holds the Big5 cache, a GBK input makes or takes its own */
    xq_input *c = xq_input_open(gbk, XQ_ENC_AUTO, err, sizeof err);
    assert_non_null(c);
    assert_true(c->buf != buf);
    assert_int_equal(xq_input_line(c, &l), 1);
    assert_int_equal(xq_input_decode(c, &l, &d, NULL, NULL), 0);
    assert_int_equal(xq_input_encoding(c), XQ_ENC_GBK);
    assert_int_equal(d.len, strlen(LINE));
    assert_memory_equal(d.s, LINE, d.len);
    assert_true(xq_input_pairs(c) != pairs);
    xq_input_close(b);
    xq_input_close(c);
    /* one of each is kept (c's detection made a second Big5 cache while
     * b held the first: one of them was freed) */
    assert_non_null(stash->pairs[0]);
    assert_non_null(stash->pairs[1]);
    assert_true(stash->cd[0] != (iconv_t)-1 && stash->cd[1] != (iconv_t)-1);
    unlink(big5);
    unlink(gbk);
}

/* A buffer grown for a long line goes back to the heap, not the stash. */
static void test_grown_buffer_not_kept(void **state)
{
    (void)state;
    size_t n = 3 * READ_CHUNK;
    char *big = malloc(n + 1);
    assert_non_null(big);
    memset(big, 'a', n);
    big[n] = '\n';
    char path[64];
    save_tmp(big, n + 1, path);
    free(big);
    char err[256];
    xq_input *in = xq_input_open(path, XQ_ENC_AUTO, err, sizeof err);
    assert_non_null(in);
    const unsigned char *p;
    assert_int_equal(xq_input_peek(in, n + 1, &p), n + 1);
    assert_true(in->cap > READ_CHUNK);
    xq_input_close(in);
    assert_null(stash ? stash->buf : NULL);
    unlink(path);
}

/* A thread's stash is its own and goes with it (stash_free): a new
 * thread starts with none; what the ended one kept is freed (make asan's
 * leak check). */
typedef struct {
    const char *path;
    input_stash *before;   /* the thread's stash when it started */
    bool decoded, kept;    /* the line read back; a Big5 pair cache then kept */
} thread_seen;

static void *stash_of_new_thread(void *p)
{
    thread_seen *s = p;
    s->before = stash;
    text t = {0};
    read_through(s->path, XQ_ENC_AUTO, &t);
    s->decoded = strstr(t.p, LINE) != NULL && strstr(t.p, "big5") != NULL;
    free(t.p);
    s->kept = stash && stash->pairs[0];
    return NULL;
}

static void test_thread_stash(void **state)
{
    (void)state;
    char path[64];
    legacy_file("CP950", path);
    thread_seen seen = {path, (input_stash *)1, false, false};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, stash_of_new_thread, &seen), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_null(seen.before);
    assert_true(seen.decoded);
    assert_true(seen.kept);
    unlink(path);
}

int main(int argc, char **argv)
{
    (void)argc;
    xqt_chdir_to_root(argv[0], "tests/data/big5.pgn");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_next_input_takes_them), cmocka_unit_test(test_grown_buffer_not_kept),
        cmocka_unit_test(test_thread_stash),          cmocka_unit_test(test_same_text_auto),
        cmocka_unit_test(test_same_text_forced),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    for (size_t f = 0; f < nfiles; f++) {
        if (strncmp(files[f], "/tmp/xq-test-", 13) == 0) unlink(files[f]);
        free(files[f]);
    }
    return failed;
}
