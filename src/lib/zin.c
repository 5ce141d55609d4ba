/* zin.c - plain or gzip input from a file descriptor (see zin.h). */
#include "zin.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

enum { ZIN_CHUNK = 1 << 16 };

typedef enum { MODE_UNKNOWN, MODE_PLAIN, MODE_GZIP, MODE_DONE, MODE_FAILED } zin_mode;

struct xq_zin {
    int fd;
    zin_mode mode;
    z_stream zs;
    bool zinit, in_member;     /* inflate set up; inside a gzip member */
    unsigned char *in;         /* raw bytes read, in[pos..len) not yet used */
    size_t pos, len;
    uint64_t raw_done;         /* raw bytes before in[0] */
    bool raw_eof;
    char err[160];
};

xq_zin *xq_zin_open(int fd)
{
    xq_zin *z = calloc(1, sizeof *z);
    if (z) z->in = malloc(ZIN_CHUNK);
    if (!z || !z->in) {
        if (z) free(z->in);
        free(z);
        close(fd);
        return NULL;
    }
    z->fd = fd;
    return z;
}

void xq_zin_close(xq_zin *z)
{
    if (!z) return;
    if (z->zinit) inflateEnd(&z->zs);
    close(z->fd);
    free(z->in);
    free(z);
}

const char *xq_zin_error(const xq_zin *z) { return z->err; }
bool xq_zin_gzipped(const xq_zin *z) { return z->zinit; }

static ssize_t fail(xq_zin *z, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static ssize_t fail(xq_zin *z, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(z->err, sizeof z->err, fmt, ap);
    va_end(ap);
    z->mode = MODE_FAILED;
    return -1;
}

/* Make in[pos..len) hold at least want bytes unless the file ends first.
 * Returns false on a read error. */
static bool fill(xq_zin *z, size_t want)
{
    if (z->pos > 0 && z->len - z->pos < want) {
        memmove(z->in, z->in + z->pos, z->len - z->pos);
        z->raw_done += z->pos;
        z->len -= z->pos;
        z->pos = 0;
    }
    while (z->len - z->pos < want && !z->raw_eof && z->len < ZIN_CHUNK) {
        ssize_t n = read(z->fd, z->in + z->len, ZIN_CHUNK - z->len);
        if (n < 0) {
            if (errno == EINTR) continue;
            fail(z, "%s", strerror(errno));
            return false;
        }
        if (n == 0) z->raw_eof = true;
        z->len += (size_t)n;
    }
    return true;
}

static bool gzip_magic(const xq_zin *z)
{
    return z->len - z->pos >= 2 && z->in[z->pos] == 0x1F && z->in[z->pos + 1] == 0x8B;
}

/* At the end of a gzip member: another member, the end, or trailing bytes. */
static ssize_t after_member(xq_zin *z)
{
    if (!fill(z, 2)) return -1;
    if (z->len == z->pos) {
        z->mode = MODE_DONE;
        return 0;
    }
    if (gzip_magic(z)) {
        inflateReset(&z->zs);
        z->in_member = true;
        return 1;
    }
    uint64_t at = z->raw_done + z->pos, extra = z->len - z->pos;
    while (!z->raw_eof) {           /* count them all, for the message */
        z->raw_done += z->len;
        z->pos = z->len = 0;
        if (!fill(z, ZIN_CHUNK)) return -1;
        extra += z->len;
    }
    return fail(z, "%llu bytes after the end of the gzip data at byte offset %llu are not read",
                (unsigned long long)extra, (unsigned long long)at);
}

ssize_t xq_zin_read(xq_zin *z, void *dst, size_t room)
{
    if (room == 0) return 0;
    if (z->mode == MODE_FAILED) return -1;
    if (z->mode == MODE_DONE) return 0;
    if (z->mode == MODE_UNKNOWN) {
        if (!fill(z, 2)) return -1;
        if (gzip_magic(z)) {
            if (inflateInit2(&z->zs, 15 + 16) != Z_OK) return fail(z, "cannot start zlib");
            z->zinit = z->in_member = true;
            z->mode = MODE_GZIP;
        } else {
            z->mode = MODE_PLAIN;
        }
    }
    if (z->mode == MODE_PLAIN) {
        if (z->pos == z->len) {
            z->raw_done += z->len;
            z->pos = z->len = 0;
            if (!fill(z, 1)) return -1;
            if (z->len == 0) {
                z->mode = MODE_DONE;
                return 0;
            }
        }
        size_t n = z->len - z->pos < room ? z->len - z->pos : room;
        memcpy(dst, z->in + z->pos, n);
        z->pos += n;
        return (ssize_t)n;
    }
    if (room > UINT32_MAX) room = UINT32_MAX;
    for (;;) {
        if (!z->in_member) {
            ssize_t r = after_member(z);
            if (r <= 0) return r;
        }
        if (z->pos == z->len) {
            z->raw_done += z->len;
            z->pos = z->len = 0;
            if (!fill(z, 1)) return -1;
            if (z->len == 0) return fail(z, "unexpected end of file: the gzip data is cut short");
        }
        z->zs.next_in = z->in + z->pos;
        z->zs.avail_in = (uInt)(z->len - z->pos);
        z->zs.next_out = dst;
        z->zs.avail_out = (uInt)room;
        int r = inflate(&z->zs, Z_NO_FLUSH);
        z->pos = z->len - z->zs.avail_in;
        size_t made = room - z->zs.avail_out;
        if (r == Z_STREAM_END) z->in_member = false;
        else if (r != Z_OK && r != Z_BUF_ERROR)
            return fail(z, "corrupt gzip data near byte offset %llu (%s)",
                        (unsigned long long)(z->raw_done + z->pos), z->zs.msg ? z->zs.msg : "zlib error");
        if (made) return (ssize_t)made;
    }
}
