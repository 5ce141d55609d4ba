/* test_gzip_read.c - xq_zin_read (zin.h) against a reference: the
 * single-threaded reader it replaced (copied below as ref_*), call by
 * call (every count, every byte, every error message), and the data
 * against zlib's own one-shot inflate of each member.
 *
 * Files: one member, several members with boundaries at odd offsets and
 * an empty member, cut short at many offsets, bytes after the last member,
 * corrupted bytes, plain text; large ones (inflated by zin's producer
 * thread through its ring) and small ones (inflated inline), each read in
 * many read sizes (fixed and pseudo-random). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "zin.h"

/* ---- the reference: zin.c as it was before the producer thread -------- */
/* (and, since, with a member whose CRC-32 or length fails after its data:
 * its data delivered, the next member read, the fault told at the end) */

enum { REF_CHUNK = 1 << 16 };
typedef enum { R_UNKNOWN, R_PLAIN, R_GZIP, R_DONE, R_FAILED } ref_mode;
typedef struct {
    int fd;
    ref_mode mode;
    z_stream zs;
    bool zinit, in_member;
    unsigned char in[REF_CHUNK];
    size_t pos, len;
    uint64_t raw_done;
    bool raw_eof;
    char err[160];
    char bad_check[160];   /* the first member whose check failed, told at the end */
} ref_zin;

static ssize_t ref_fail(ref_zin *z, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static ssize_t ref_fail(ref_zin *z, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(z->err, sizeof z->err, fmt, ap);
    va_end(ap);
    z->mode = R_FAILED;
    return -1;
}

static bool ref_fill(ref_zin *z, size_t want)
{
    if (z->pos > 0 && z->len - z->pos < want) {
        memmove(z->in, z->in + z->pos, z->len - z->pos);
        z->raw_done += z->pos;
        z->len -= z->pos;
        z->pos = 0;
    }
    while (z->len - z->pos < want && !z->raw_eof && z->len < REF_CHUNK) {
        ssize_t n = read(z->fd, z->in + z->len, REF_CHUNK - z->len);
        if (n < 0) {
            if (errno == EINTR) continue;
            ref_fail(z, "%s", strerror(errno));
            return false;
        }
        if (n == 0) z->raw_eof = true;
        z->len += (size_t)n;
    }
    return true;
}

static bool ref_magic(const ref_zin *z)
{
    return z->len - z->pos >= 2 && z->in[z->pos] == 0x1F && z->in[z->pos + 1] == 0x8B;
}

static ssize_t ref_after_member(ref_zin *z)
{
    if (!ref_fill(z, 2)) return -1;
    if (z->len == z->pos) {
        if (z->bad_check[0]) return ref_fail(z, "%s", z->bad_check);
        z->mode = R_DONE;
        return 0;
    }
    if (ref_magic(z)) {
        inflateReset(&z->zs);
        z->in_member = true;
        return 1;
    }
    uint64_t at = z->raw_done + z->pos, extra = z->len - z->pos;
    while (!z->raw_eof) {
        z->raw_done += z->len;
        z->pos = z->len = 0;
        if (!ref_fill(z, REF_CHUNK)) return -1;
        extra += z->len;
    }
    return ref_fail(z, "%llu bytes after the end of the gzip data at byte offset %llu are not read; "
                    "the games before them were read whole",
                    (unsigned long long)extra, (unsigned long long)at);
}

static ssize_t ref_read(ref_zin *z, void *dst, size_t room)
{
    if (room == 0) return 0;
    if (z->mode == R_FAILED) return -1;
    if (z->mode == R_DONE) return 0;
    if (z->mode == R_UNKNOWN) {
        if (!ref_fill(z, 2)) return -1;
        if (ref_magic(z)) {
            if (inflateInit2(&z->zs, 15 + 16) != Z_OK) return ref_fail(z, "cannot start zlib");
            z->zinit = z->in_member = true;
            z->mode = R_GZIP;
        } else {
            z->mode = R_PLAIN;
        }
    }
    if (z->mode == R_PLAIN) {
        if (z->pos == z->len) {
            z->raw_done += z->len;
            z->pos = z->len = 0;
            if (!ref_fill(z, 1)) return -1;
            if (z->len == 0) {
                z->mode = R_DONE;
                return 0;
            }
        }
        size_t n = z->len - z->pos < room ? z->len - z->pos : room;
        memcpy(dst, z->in + z->pos, n);
        z->pos += n;
        return (ssize_t)n;
    }
    for (;;) {
        if (!z->in_member) {
            ssize_t r = ref_after_member(z);
            if (r <= 0) return r;
        }
        if (z->pos == z->len) {
            z->raw_done += z->len;
            z->pos = z->len = 0;
            if (!ref_fill(z, 1)) return -1;
            if (z->len == 0) return ref_fail(z, "unexpected end of file: the gzip data is cut short");
        }
        z->zs.next_in = z->in + z->pos;
        z->zs.avail_in = (uInt)(z->len - z->pos);
        z->zs.next_out = dst;
        z->zs.avail_out = (uInt)room;
        int r = inflate(&z->zs, Z_NO_FLUSH);
        z->pos = z->len - z->zs.avail_in;
        size_t made = room - z->zs.avail_out;
        if (r == Z_STREAM_END) z->in_member = false;
        else if (r == Z_DATA_ERROR && z->zs.msg &&
                 (!strcmp(z->zs.msg, "incorrect data check") || !strcmp(z->zs.msg, "incorrect length check"))) {
            bool crc = !strcmp(z->zs.msg, "incorrect data check");
            if (!z->bad_check[0])
                snprintf(z->bad_check, sizeof z->bad_check,
                         "gzip data damaged: the %s of the member ending at byte offset %llu does not match "
                         "(every game was read, some may differ from the original)",
                         crc ? "CRC-32" : "length", (unsigned long long)(z->raw_done + z->pos + (crc ? 4 : 0)));
            if (crc && ref_fill(z, 4)) z->pos += z->len - z->pos < 4 ? z->len - z->pos : 4;
            z->in_member = false;
            if (made) return (ssize_t)made;
            continue;
        } else if (r != Z_OK && r != Z_BUF_ERROR)
            return ref_fail(z, "corrupt gzip data near byte offset %llu (%s)",
                            (unsigned long long)(z->raw_done + z->pos), z->zs.msg ? z->zs.msg : "zlib error");
        if (made) return (ssize_t)made;
    }
}

/* ---- test data ---------------------------------------------------------- */

static uint32_t rng = 12345;
static uint32_t next_rand(void)
{
    rng = rng * 1103515245u + 12345u;
    return rng >> 8;
}

/* n bytes of record-like text: words from a small list and some noise,
 * so it compresses about as well as real records do. */
static unsigned char *make_text(size_t n)
{
    static const char *const words[] = {"[Event \"", "\"]\n", "1. ", "炮二平五 ", "馬８進７ ", "h2e2 ",
                                        "{a comment} ", "1-0\n\n", "車一平二 ", "(", ") ", "\n"};
    unsigned char *t = malloc(n);
    size_t i = 0;
    while (i < n) {
        if (next_rand() % 8 == 0) {
            t[i++] = (unsigned char)next_rand();
            continue;
        }
        const char *w = words[next_rand() % (sizeof words / sizeof words[0])];
        for (size_t k = 0; w[k] && i < n; k++) t[i++] = (unsigned char)w[k];
    }
    return t;
}

typedef struct {
    unsigned char *p;
    size_t n, cap;
} bytes;

static void put(bytes *b, const void *p, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2;
        b->p = realloc(b->p, b->cap);
        assert_non_null(b->p);
    }
    if (n) memcpy(b->p + b->n, p, n);
    b->n += n;
}

/* Append text[0..n) as one gzip member (level picks the block layout). */
static void gzip_member(bytes *out, const unsigned char *text, size_t n, int level)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    assert_int_equal(deflateInit2(&zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    uLong bound = deflateBound(&zs, (uLong)n) + 64;
    unsigned char *buf = malloc(bound);
    zs.next_in = (unsigned char *)text;
    zs.avail_in = (uInt)n;
    zs.next_out = buf;
    zs.avail_out = (uInt)bound;
    assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
    put(out, buf, bound - zs.avail_out);
    deflateEnd(&zs);
    free(buf);
}

/* text cut at the given offsets, each piece one member. */
static bytes gzip_members(const unsigned char *text, size_t n, const size_t *cuts, size_t ncuts, int level)
{
    bytes b = {0};
    size_t from = 0;
    for (size_t i = 0; i <= ncuts; i++) {
        size_t to = i < ncuts ? cuts[i] : n;
        gzip_member(&b, text + from, to - from, level);
        from = to;
    }
    return b;
}

/* zlib's one-shot inflate of every member: the data a correct reader
 * delivers (gzip -d).  Stops at the first byte that is not a member. */
static bytes one_shot(const bytes *gz)
{
    bytes out = {0};
    size_t at = 0;
    while (at + 2 <= gz->n && gz->p[at] == 0x1F && gz->p[at + 1] == 0x8B) {
        z_stream zs;
        memset(&zs, 0, sizeof zs);
        assert_int_equal(inflateInit2(&zs, 15 + 16), Z_OK);
        zs.next_in = gz->p + at;
        zs.avail_in = (uInt)(gz->n - at);
        unsigned char buf[1 << 16];
        int r;
        do {
            zs.next_out = buf;
            zs.avail_out = sizeof buf;
            r = inflate(&zs, Z_NO_FLUSH);
            put(&out, buf, sizeof buf - zs.avail_out);
        } while (r == Z_OK);
        assert_int_equal(r, Z_STREAM_END);
        at = gz->n - zs.avail_in;
        inflateEnd(&zs);
    }
    return out;
}

/* Everything zlib's inflate makes of a single member, up to an error. */
static bytes decodable(const bytes *gz)
{
    bytes out = {0};
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    assert_int_equal(inflateInit2(&zs, 15 + 16), Z_OK);
    zs.next_in = gz->p;
    zs.avail_in = (uInt)gz->n;
    unsigned char buf[1 << 16];
    int r;
    do {
        zs.next_out = buf;
        zs.avail_out = sizeof buf;
        r = inflate(&zs, Z_NO_FLUSH);
        put(&out, buf, sizeof buf - zs.avail_out);
    } while (r == Z_OK);
    inflateEnd(&zs);
    return out;
}

static char dir[64];

static const char *write_file(const bytes *b)
{
    static char path[128];
    static int seq;
    snprintf(path, sizeof path, "%s/f%d", dir, seq++);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b->p, 1, b->n, f), b->n);
    fclose(f);
    return path;
}

/* ---- the comparison ------------------------------------------------------ */

/* Read all of path through xq_zin or the reference in read sizes of
 * size (0: pseudo-random sizes); returns the data, the end (0 or -1) in
 * *end and the message in msg. */
static bytes read_all(const char *path, size_t size, bool ref, int *end, char *msg)
{
    xq_zin *z = NULL;
    ref_zin *r = NULL;
    if (ref) {
        r = calloc(1, sizeof *r);
        r->fd = open(path, O_RDONLY);
        assert_true(r->fd >= 0);
    } else {
        z = xq_zin_open(open(path, O_RDONLY));
        assert_non_null(z);
    }
    size_t cap = size ? size : 300000;
    unsigned char *a = malloc(cap);
    bytes got = {0};
    uint32_t seed = (uint32_t)size * 7919u + 1u;
    for (;;) {
        size_t room = size;
        if (!room) {
            seed = seed * 1103515245u + 12345u;
            room = 1 + (seed >> 8) % (seed & 1 ? 300000 : 600);
        }
        ssize_t n = ref ? ref_read(r, a, room) : xq_zin_read(z, a, room);
        assert_true(n <= (ssize_t)room);
        if (n > 0) {
            put(&got, a, (size_t)n);
            continue;
        }
        *end = (int)n;
        strcpy(msg, ref ? r->err : xq_zin_error(z));
        /* bytes after whole gzip data and a member's failed check, and only
         * they, are told apart (the data was whole: input.c ends it
         * without cutting a record) */
        if (!ref)
            assert_int_equal(xq_zin_trailing(z), n < 0 && (strstr(msg, "bytes after the end of the gzip data") ||
                                                           strstr(msg, "gzip data damaged: the ")));
        /* the end stays */
        assert_int_equal(ref ? ref_read(r, a, room) : xq_zin_read(z, a, room), n);
        break;
    }
    if (ref) {
        if (r->zinit) inflateEnd(&r->zs);
        close(r->fd);
        free(r);
    } else {
        xq_zin_close(z);
    }
    free(a);
    return got;
}

/* xq_zin in read sizes of size and the reference in one large read
 * size (its results with small ones depended on them: when a read filled
 * the caller's room just as the input chunk ran out, it read on and lost
 * what zlib still held) end the same way with the same message and the
 * same data; or, for corrupt data (exact: false), a prefix of it: output
 * of the inflate run that fails is never delivered, and where that run
 * starts depends on read sizes. */
static bytes compare_reads(const char *path, size_t size, bool exact, bool *failed)
{
    int ea, eb;
    char ma[200], mb[200];
    bytes a = read_all(path, size, false, &ea, ma);
    bytes b = read_all(path, 3 << 20, true, &eb, mb);
    assert_int_equal(ea, eb);
    assert_string_equal(ma, mb);
    if (exact && a.n != b.n) fail_msg("%s: size %zu: %zu bytes vs reference %zu (%s)", path, size, a.n, b.n, ma);
    if (!exact) assert_true(a.n >= b.n);   /* and a prefix of what zlib decodes: test_corrupt */
    free(b.p);
    *failed = ea < 0;
    return a;
}

static const size_t sizes[] = {0, 7, 1000, 4096, 65536, 65537, 262144, 262145, 1 << 20, 3 << 20};

/* Every read size agrees with the reference; the data of a valid file
 * equals zlib's one-shot output (want: NULL when not checked), and a
 * prefix of it otherwise. */
static void check_file(const bytes *file, const bytes *want, bool want_fail, bool tiny_reads)
{
    const char *path = write_file(file);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] + (tiny_reads ? 1 : 0); i++) {
        size_t size = i < sizeof sizes / sizeof sizes[0] ? sizes[i] : 1;
        bool failed = false;
        bytes got = compare_reads(path, size, true, &failed);
        assert_int_equal(failed, want_fail);
        if (want) {
            assert_true(got.n <= want->n);
            if (!want_fail) assert_int_equal(got.n, want->n);
            if (got.n) assert_memory_equal(got.p, want->p, got.n);
        }
        free(got.p);
    }
    unlink(path);
}

static int setup(void **state)
{
    strcpy(dir, "/tmp/xq-test-gzip-XXXXXX");
    assert_non_null(mkdtemp(dir));
    return 0;
}

static int teardown(void **state)
{
    rmdir(dir);
    return 0;
}

enum { BIG = 1500000 };

/* text (BIG bytes) gzipped in members cut at cuts[0..ncuts) at level:
 * read whole, in every read size, as zlib inflates it at once. */
static void check_whole(const unsigned char *text, const size_t *cuts, size_t ncuts, int level)
{
    bytes gz = gzip_members(text, BIG, cuts, ncuts, level);
    bytes want = one_shot(&gz);
    assert_int_equal(want.n, BIG);
    check_file(&gz, &want, false, false);
    free(gz.p);
    free(want.p);
}

static void test_single_member(void **state)
{
    unsigned char *text = make_text(BIG);
    for (int level = 1; level <= 9; level += 4) check_whole(text, NULL, 0, level);
    free(text);
}

static void test_multi_member(void **state)
{
    unsigned char *text = make_text(BIG);
    const size_t cuts[][6] = {
        {1, 3, 65537, 65537, 300001, 1048577},   /* an empty member too */
        {262144, 524288, 786432, 1048576, 1310720, 1310721},
        {99991, 199999, 333331, 700001, 1000003, 1499999},
    };
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) check_whole(text, cuts[i], 6, 6);
    free(text);
}

static void test_truncated(void **state)
{
    unsigned char *text = make_text(BIG);
    const size_t cuts[] = {65537, 700001};
    bytes gz = gzip_members(text, BIG, cuts, 2, 6);
    bytes want = one_shot(&gz);
    const size_t keep[] = {gz.n - 1, gz.n - 4, gz.n - 8, gz.n - 9, gz.n / 2, 65535, 65536, 65537, 131073, 10, 3};
    for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++) {
        bytes cut = {gz.p, keep[i], gz.n};
        check_file(&cut, &want, true, keep[i] < 1000);
    }
    free(gz.p);
    free(want.p);
    free(text);
}

static void test_garbage_after(void **state)
{
    unsigned char *text = make_text(BIG);
    const size_t cuts[] = {123457};
    bytes gz = gzip_members(text, BIG, cuts, 1, 6);
    bytes want = one_shot(&gz);
    const char *tails[] = {"x", "\x1f", "\x1f\x8b", "\n\n\n", NULL};
    for (size_t i = 0; i <= sizeof tails / sizeof tails[0] - 1; i++) {
        bytes f = {0};
        put(&f, gz.p, gz.n);
        if (tails[i]) put(&f, tails[i], strlen(tails[i]));
        else put(&f, text, 200000);   /* a lot of plain text after it */
        /* "\x1f\x8b" alone is taken for a member and cut short */
        check_file(&f, &want, true, false);
        free(f.p);
    }
    free(gz.p);
    free(want.p);
    free(text);
}

static void test_corrupt(void **state)
{
    unsigned char *text = make_text(BIG);
    bytes gz = gzip_members(text, BIG, NULL, 0, 6);
    bytes want = one_shot(&gz);
    const size_t at[] = {20, 1000, 65536, 100000, 250001, gz.n / 2, gz.n - 100, gz.n - 6, gz.n - 2};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        bytes f = {0};
        put(&f, gz.p, gz.n);
        f.p[at[i]] ^= 0x55;
        /* the data before the error is a prefix of the good data (or it
         * fails later: a flipped bit can still decode, so only agreement
         * with the reference is required) */
        const char *path = write_file(&f);
        bytes dec = decodable(&f);
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            bool failed = false;
            bytes got = compare_reads(path, sizes[k], false, &failed);
            assert_true(got.n <= dec.n);
            if (got.n) assert_memory_equal(got.p, dec.p, got.n);
            free(got.p);
        }
        unlink(path);
        free(dec.p);
        free(f.p);
    }
    free(gz.p);
    free(want.p);
    free(text);
}

/* A member whose CRC-32 or length does not match, after its data: every
 * byte of every member is delivered (as zcat does), then -1 with the
 * message, told apart as a late error (xq_zin_trailing); large files
 * (the producer thread) and small ones (inline), the bad member first of
 * two or last, in every read size. */
static void test_bad_check(void **state)
{
    unsigned char *text = make_text(BIG);
    for (int big = 0; big <= 1; big++) {
        size_t n = big ? BIG : 3000;
        bytes one = gzip_members(text, n, NULL, 0, 6);
        for (int field = 0; field < 2; field++) {       /* 0: the CRC-32, 1: the length */
            for (int second = 0; second <= 1; second++) {  /* a good member after it */
                bytes f = {0};
                put(&f, one.p, one.n);
                f.p[one.n - (field ? 2 : 6)] ^= 0x20;
                if (second) put(&f, one.p, one.n);
                const char *path = write_file(&f);
                bytes want = {0};
                put(&want, text, n);
                if (second) put(&want, text, n);
                char expect[200];
                snprintf(expect, sizeof expect,
                         "gzip data damaged: the %s of the member ending at byte offset %zu does not match "
                         "(every game was read, some may differ from the original)",
                         field ? "length" : "CRC-32", one.n);
                for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
                    int end;
                    char msg[200];
                    bytes got = read_all(path, sizes[k], false, &end, msg);
                    assert_int_equal(end, -1);
                    assert_string_equal(msg, expect);
                    assert_int_equal(got.n, want.n);
                    assert_memory_equal(got.p, want.p, want.n);
                    free(got.p);
                }
                unlink(path);
                free(want.p);
                free(f.p);
            }
        }
        free(one.p);
    }
    free(text);
}

static void test_small_and_plain(void **state)
{
    unsigned char *text = make_text(BIG);
    /* small gzip files: inflated inline */
    const size_t cuts[] = {5, 77};
    bytes gz = gzip_members(text, 3000, cuts, 2, 9);
    bytes want = one_shot(&gz);
    check_file(&gz, &want, false, true);
    bytes cut = {gz.p, gz.n - 3, gz.n};
    check_file(&cut, &want, true, true);
    bytes f = {0};
    put(&f, gz.p, gz.n);
    put(&f, "garbage", 7);
    check_file(&f, &want, true, true);
    /* plain files: read straight into the caller's buffer */
    const size_t plain[] = {0, 1, 2, 3, 65535, 65536, 65537, BIG};
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
        bytes p = {text, plain[i], plain[i]};
        check_file(&p, &p, false, plain[i] < 100000);
    }
    bytes one = {(unsigned char *)"\x1f", 1, 1};
    check_file(&one, &one, false, true);
    free(f.p);
    free(gz.p);
    free(want.p);
    free(text);
}

/* Closing in the middle of a large file stops the producer. */
static void test_close_early(void **state)
{
    unsigned char *text = make_text(BIG);
    bytes gz = gzip_members(text, BIG, NULL, 0, 1);
    const char *path = write_file(&gz);
    unsigned char buf[4096];
    for (int reads = 0; reads < 40; reads += 3) {
        xq_zin *z = xq_zin_open(open(path, O_RDONLY));
        assert_non_null(z);
        for (int i = 0; i < reads; i++) assert_true(xq_zin_read(z, buf, sizeof buf) > 0);
        if (reads) assert_true(xq_zin_gzipped(z));
        xq_zin_close(z);
    }
    unlink(path);
    free(gz.p);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_member),
        cmocka_unit_test(test_multi_member),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_garbage_after),
        cmocka_unit_test(test_corrupt),
        cmocka_unit_test(test_bad_check),
        cmocka_unit_test(test_small_and_plain),
        cmocka_unit_test(test_close_early),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
