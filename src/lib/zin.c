/* zin.c - plain or gzip input from a file descriptor (see zin.h).
 *
 * Plain data is read straight into the caller's buffer.  Gzip data from a
 * large regular file is inflated by a producer thread into a small ring of
 * blocks, so that decompression overlaps with the caller's parsing; small
 * files and pipes are inflated in the caller's thread, into its buffer (a
 * thread would cost more than it saves, and a producer blocked in read()
 * on a pipe could not be stopped at xq_zin_close).
 *
 * Both gzip paths deliver the same bytes, the same short counts where it
 * matters and the same errors at the same points.  The reference is the
 * inline path, one inflate_some call per xq_zin_read: a call returns the
 * output of one inflate run, which ends when the caller's room is full,
 * when the 64 KiB input chunk is used up or at the end of a member (the
 * two "hard" ends, which do not depend on room); and output made by a run
 * that fails is never delivered.  The producer records per block how its
 * last run ended (zin_status), and the reader (ring_read) replays those
 * rules against the caller's room.
 */
#include "zin.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

enum {
    ZIN_CHUNK = 1 << 16,            /* raw bytes per read() */
    ZIN_BLOCK = 256 * 1024,         /* decompressed bytes per ring block */
    ZIN_NBLOCK = 4,                 /* ring blocks: 1 MiB of look-ahead */
    ZIN_THREAD_MIN = 2 * ZIN_CHUNK  /* smaller gzip files are inflated inline */
};

typedef enum { MODE_UNKNOWN, MODE_PLAIN, MODE_GZIP, MODE_DONE, MODE_FAILED } zin_mode;

/* How an inflate run (inflate_some) ended. */
typedef enum {
    ZS_SOFT,    /* the output space is full; more output follows */
    ZS_HARD,    /* input chunk used up or member ended: a call ends here whatever its room */
    ZS_DONE,    /* end of the data (no output in this run) */
    ZS_FAIL     /* error (message in perr); the run's output must not be delivered */
} zin_status;

/* One ring block: data[0..len) then the status of the run that ended it. */
typedef struct {
    unsigned char *data;
    size_t len;
    zin_status st;
} zin_block;

struct xq_zin {
    int fd;
    zin_mode mode;              /* the reader's state (reader thread only) */
    /* inflate state: the producer's once the thread runs */
    z_stream zs;
    bool zinit, in_member;      /* inflate set up; inside a gzip member */
    unsigned char *in;          /* raw bytes read, in[pos..len) not yet used */
    size_t pos, len;
    uint64_t raw_done;          /* raw bytes before in[0] */
    bool raw_eof;
    bool out_full;              /* the last inflate filled its output space */
    char perr[160];             /* the producer's message for ZS_FAIL */
    char bad_check[160];        /* "" or the first member whose check (CRC-32, length) failed
                                   after all its bytes were made: told at the end of the data */
    bool ptrailing;             /* that ZS_FAIL is bytes after whole gzip data (set with perr) */
    /* the ring (threaded gzip only) */
    bool threaded;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t filled, freed;   /* a block was published / released */
    zin_block ring[ZIN_NBLOCK];
    unsigned head, count;       /* ring[head] is the reader's; count published (under mu) */
    size_t head_pos;            /* bytes of ring[head] already delivered (reader only) */
    bool stop;                  /* xq_zin_close wants the producer gone (under mu) */
    char err[160];              /* the reader's message of the last -1 */
    bool trailing;              /* that -1 is bytes after whole gzip data (xq_zin_trailing) */
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
    if (z->threaded) {
        pthread_mutex_lock(&z->mu);
        z->stop = true;
        pthread_cond_signal(&z->freed);
        pthread_mutex_unlock(&z->mu);
        pthread_join(z->thread, NULL);
        pthread_mutex_destroy(&z->mu);
        pthread_cond_destroy(&z->filled);
        pthread_cond_destroy(&z->freed);
    }
    for (int i = 0; i < ZIN_NBLOCK; i++) free(z->ring[i].data);
    if (z->zinit) inflateEnd(&z->zs);
    close(z->fd);
    free(z->in);
    free(z);
}

const char *xq_zin_error(const xq_zin *z) { return z->err; }
bool xq_zin_gzipped(const xq_zin *z) { return z->zinit; }

bool xq_zin_threaded(const xq_zin *z) { return z->threaded; }
bool xq_zin_trailing(const xq_zin *z) { return z->trailing; }

/* The reader fails for good with a message. */
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

/* The inflate side fails: message into perr (the producer must not touch
 * err or mode, which the reader owns). */
static zin_status pfail(xq_zin *z, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static zin_status pfail(xq_zin *z, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(z->perr, sizeof z->perr, fmt, ap);
    va_end(ap);
    return ZS_FAIL;
}

/* Make in[pos..len) hold at least want bytes unless the file ends first.
 * Returns false on a read error (message in perr). */
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
            pfail(z, "%s", strerror(errno));
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

/* At the end of a gzip member: another member (ZS_HARD), the end
 * (ZS_DONE), or trailing bytes (ZS_FAIL). */
static zin_status after_member(xq_zin *z)
{
    if (!fill(z, 2)) return ZS_FAIL;
    if (z->len == z->pos) {
        if (!z->bad_check[0]) return ZS_DONE;
        z->ptrailing = true;   /* (every byte was delivered: a late error, no record cut) */
        return pfail(z, "%s", z->bad_check);
    }
    if (gzip_magic(z)) {
        inflateReset(&z->zs);
        z->in_member = true;
        return ZS_HARD;
    }
    uint64_t at = z->raw_done + z->pos, extra = z->len - z->pos;
    while (!z->raw_eof) {           /* count them all, for the message */
        z->raw_done += z->len;
        z->pos = z->len = 0;
        if (!fill(z, ZIN_CHUNK)) return ZS_FAIL;
        extra += z->len;
    }
    z->ptrailing = true;   /* every byte of the data was made: only what follows it is wrong */
    return pfail(z, "%llu bytes after the end of the gzip data at byte offset %llu are not read; "
                 "the games before them were read whole",
                 (unsigned long long)extra, (unsigned long long)at);
}

/* Did inflate's Z_DATA_ERROR come from a member's trailer (its CRC-32 or
 * length), after the member's data was all made?  zlib says so only in
 * its message. */
static bool check_failed(const z_stream *zs)
{
    return zs->msg && (!strcmp(zs->msg, "incorrect data check") || !strcmp(zs->msg, "incorrect length check"));
}

/* Inflate into out[0..space) (space > 0) until one inflate run makes
 * output, the data ends or fails.  *made is the output of the last run
 * (also when it failed: the caller must then not deliver it).  Runs
 * without output (headers, empty members) do not end the call. */
static zin_status inflate_some(xq_zin *z, unsigned char *out, size_t space, size_t *made)
{
    if (space > UINT32_MAX) space = UINT32_MAX;
    *made = 0;
    for (;;) {
        if (!z->in_member) {
            zin_status s = after_member(z);
            if (s != ZS_HARD) return s;
        }
        /* with the input used up, refill only when zlib holds no more
         * output: a run that filled its output space may have some left */
        if (z->pos == z->len && !z->out_full) {
            z->raw_done += z->len;
            z->pos = z->len = 0;
            if (!fill(z, 1)) return ZS_FAIL;
            if (z->len == 0) return pfail(z, "unexpected end of file: the gzip data is cut short");
        }
        z->zs.next_in = z->in + z->pos;
        z->zs.avail_in = (uInt)(z->len - z->pos);
        z->zs.next_out = out;
        z->zs.avail_out = (uInt)space;
        int r = inflate(&z->zs, Z_NO_FLUSH);
        z->pos = z->len - z->zs.avail_in;
        *made = space - z->zs.avail_out;
        z->out_full = z->zs.avail_out == 0;
        if (r == Z_STREAM_END) z->in_member = false;
        else if (r == Z_DATA_ERROR && check_failed(&z->zs)) {
            /* the member's data all made, its trailer disagrees: what was
             * made is delivered, the next member read, the fault told at
             * the end (zcat does the same; withholding the last run lost
             * its games while the earlier ones, as suspect, were kept) */
            bool crc = !strcmp(z->zs.msg, "incorrect data check");
            if (!z->bad_check[0])
                snprintf(z->bad_check, sizeof z->bad_check,
                         "gzip data damaged: the %s of the member ending at byte offset %llu does not match "
                         "(every game was read, some may differ from the original)",
                         crc ? "CRC-32" : "length", (unsigned long long)(z->raw_done + z->pos + (crc ? 4 : 0)));
            /* (zlib stops after the CRC-32 when it fails: the length, 4
             * bytes, is still to skip) */
            if (crc && fill(z, 4)) z->pos += z->len - z->pos < 4 ? z->len - z->pos : 4;
            z->in_member = false;
            if (*made) return ZS_HARD;
            continue;
        } else if (r != Z_OK && r != Z_BUF_ERROR)
            return pfail(z, "corrupt gzip data near byte offset %llu (%s)",
                         (unsigned long long)(z->raw_done + z->pos), z->zs.msg ? z->zs.msg : "zlib error");
        /* hard: stopped for want of input (with output space left: when
         * both ran out, zlib may still hold output) or at a member's end */
        if (*made)
            return r == Z_STREAM_END || (z->zs.avail_in == 0 && z->zs.avail_out > 0) ? ZS_HARD : ZS_SOFT;
    }
}

/* ---- the producer thread and its ring --------------------------------- */

/* Inflate ahead into free ring blocks, one inflate_some per block, until
 * the data ends or fails or xq_zin_close says stop. */
static void *producer(void *arg)
{
    xq_zin *z = arg;
    for (;;) {
        pthread_mutex_lock(&z->mu);
        while (z->count == ZIN_NBLOCK && !z->stop) pthread_cond_wait(&z->freed, &z->mu);
        bool stop = z->stop;
        unsigned i = (z->head + z->count) % ZIN_NBLOCK;
        pthread_mutex_unlock(&z->mu);
        if (stop) return NULL;
        zin_block *b = &z->ring[i];     /* free: the producer's until published */
        zin_status st = inflate_some(z, b->data, ZIN_BLOCK, &b->len);
        b->st = st;
        pthread_mutex_lock(&z->mu);
        z->count++;
        pthread_cond_signal(&z->filled);
        pthread_mutex_unlock(&z->mu);
        if (st == ZS_DONE || st == ZS_FAIL) return NULL;
    }
}

/* Allocate the ring and start the producer; false (and nothing started)
 * when that fails, and the caller inflates inline instead. */
static bool start_thread(xq_zin *z)
{
    for (int i = 0; i < ZIN_NBLOCK; i++)
        if (!(z->ring[i].data = malloc(ZIN_BLOCK))) return false;
    if (pthread_mutex_init(&z->mu, NULL) != 0) return false;
    if (pthread_cond_init(&z->filled, NULL) != 0) {
        pthread_mutex_destroy(&z->mu);
        return false;
    }
    if (pthread_cond_init(&z->freed, NULL) != 0) {
        pthread_cond_destroy(&z->filled);
        pthread_mutex_destroy(&z->mu);
        return false;
    }
    if (pthread_create(&z->thread, NULL, producer, z) != 0) {
        pthread_cond_destroy(&z->freed);
        pthread_cond_destroy(&z->filled);
        pthread_mutex_destroy(&z->mu);
        return false;
    }
    z->threaded = true;
    return true;
}

/* The reader's current block, waiting for the producer if need be. */
static zin_block *ring_head(xq_zin *z)
{
    pthread_mutex_lock(&z->mu);
    while (z->count == 0) pthread_cond_wait(&z->filled, &z->mu);
    zin_block *b = &z->ring[z->head];
    pthread_mutex_unlock(&z->mu);
    return b;
}

/* Hand the reader's current block back to the producer. */
static void ring_release(xq_zin *z)
{
    pthread_mutex_lock(&z->mu);
    z->head = (z->head + 1) % ZIN_NBLOCK;
    z->count--;
    z->head_pos = 0;
    pthread_cond_signal(&z->freed);
    pthread_mutex_unlock(&z->mu);
}

/* xq_zin_read from the ring, with the inline path's results: up to room
 * bytes, never past a hard end; -1 when the failing run's output reaches
 * into this call (its first byte is at or before the call's last). */
static ssize_t ring_read(xq_zin *z, unsigned char *dst, size_t room)
{
    size_t got = 0;
    for (;;) {
        zin_block *b = ring_head(z);
        size_t n = b->len - z->head_pos;
        if (n > room - got) n = room - got;
        memcpy(dst + got, b->data + z->head_pos, n);
        z->head_pos += n;
        got += n;
        bool drained = z->head_pos == b->len;
        if (b->st == ZS_FAIL && drained) {   /* the failing run ends in this call */
            memcpy(z->err, z->perr, sizeof z->err);
            z->trailing = z->ptrailing;   /* (published with the block, under mu) */
            z->mode = MODE_FAILED;
            return -1;
        }
        if (got == room) return (ssize_t)got;
        /* the block is drained and room is left */
        if (b->st == ZS_DONE) {              /* DONE follows a hard end, so got is 0 */
            if (got) return (ssize_t)got;
            z->mode = MODE_DONE;
            return 0;
        }
        zin_status st = b->st;
        ring_release(z);                     /* b is the producer's from here on */
        if (st == ZS_HARD && got) return (ssize_t)got;
    }
}

/* ---- reading ----------------------------------------------------------- */

/* Read the first bytes and decide plain or gzip; starts the producer for
 * a large regular gzip file. */
static ssize_t start(xq_zin *z)
{
    if (!fill(z, 2)) return fail(z, "%s", z->perr);
    if (!gzip_magic(z)) {
        z->mode = MODE_PLAIN;
        return 0;
    }
    if (inflateInit2(&z->zs, 15 + 16) != Z_OK) return fail(z, "cannot start zlib");
    z->zinit = z->in_member = true;
    z->mode = MODE_GZIP;
    struct stat st;
    if (fstat(z->fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= ZIN_THREAD_MIN)
        start_thread(z);   /* on failure: inline */
    return 0;
}

/* Plain data: what the first read left in the raw buffer, then read()
 * straight into dst. */
static ssize_t plain_read(xq_zin *z, unsigned char *dst, size_t room)
{
    if (z->pos < z->len) {
        size_t n = z->len - z->pos < room ? z->len - z->pos : room;
        memcpy(dst, z->in + z->pos, n);
        z->pos += n;
        return (ssize_t)n;
    }
    if (z->raw_eof) {
        z->mode = MODE_DONE;
        return 0;
    }
    for (;;) {
        ssize_t n = read(z->fd, dst, room);
        if (n > 0) return n;
        if (n == 0) {
            z->mode = MODE_DONE;
            return 0;
        }
        if (errno != EINTR) return fail(z, "%s", strerror(errno));
    }
}

/* Gzip inflated in the caller's thread, straight into dst. */
static ssize_t inline_read(xq_zin *z, unsigned char *dst, size_t room)
{
    size_t made;
    switch (inflate_some(z, dst, room, &made)) {
    case ZS_FAIL:
        z->trailing = z->ptrailing;
        return fail(z, "%s", z->perr);
    case ZS_DONE:
        z->mode = MODE_DONE;
        return 0;
    default:
        return (ssize_t)made;
    }
}

ssize_t xq_zin_read(xq_zin *z, void *dst, size_t room)
{
    if (room == 0) return 0;
    if (z->mode == MODE_UNKNOWN && start(z) < 0) return -1;
    switch (z->mode) {
    case MODE_PLAIN:
        return plain_read(z, dst, room);
    case MODE_GZIP:
        return z->threaded ? ring_read(z, dst, room) : inline_read(z, dst, room);
    case MODE_DONE:
        return 0;
    default:
        return -1;
    }
}
