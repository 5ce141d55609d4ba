/* fuzz_common.h - shared by the libFuzzer targets tests/fuzz/fuzz_*.c.
 *
 * Each target defines LLVMFuzzerTestOneInput.  The same sources are also
 * compiled without libFuzzer by tests/unit/test_fuzz_regressions.c, which
 * feeds every seed and every saved crasher through them under the normal
 * test suite (and `make asan`), so a fixed crash stays fixed.
 *
 * The reader API opens files by path, so the bytes go into an in-memory
 * file (memfd) opened again through /proc/self/fd: nothing touches the
 * disk and the reader sees a regular file, as with a real record.
 */
#ifndef XQ_FUZZ_COMMON_H
#define XQ_FUZZ_COMMON_H

#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "game.h"
#include "game_io.h"
#include "notation.h"
#include "pgn_read.h"
#include "position.h"
#include "replay.h"
#include "write.h"

/* A fuzz target found a broken promise (not a crash): stop loudly, so
 * libFuzzer saves the input. */
#define FUZZ_CHECK(cond)                                                        \
    do {                                                                        \
        if (!(cond)) {                                                          \
            fprintf(stderr, "%s:%d: fuzz check failed: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                            \
        }                                                                       \
    } while (0)

/* Keep glibc's GB18030, GBK, CP950 and BIG5 converters loaded: the library
 * opens and closes iconv descriptors per file and per write, and closing
 * the last one unloads the module (dlclose), which would otherwise cost
 * most of the time of a fuzz run. */
static inline void fuzz_keep_iconv(void)
{
    static int done;
    if (done) return;
    done = 1;
    static const char *const names[] = {"GB18030", "GBK", "CP950", "BIG5"};
    static iconv_t keep[8];   /* never closed, on purpose; reachable, so no leak report */
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        keep[2 * i] = iconv_open("UTF-8", names[i]);
        keep[2 * i + 1] = iconv_open(names[i], "UTF-8");
    }
    (void)keep;
}

/* Put data into the process's in-memory file and return a path that
 * opens it (the same file every call). */
static inline const char *fuzz_file(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    fuzz_keep_iconv();
    if (fd < 0) {
        fd = memfd_create("fuzz-input", MFD_CLOEXEC);
        if (fd < 0) { perror("memfd_create"); abort(); }
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) != 0) { perror("ftruncate"); abort(); }
    size_t done = 0;
    while (done < size) {
        ssize_t w = pwrite(fd, data + done, size - done, (off_t)done);
        if (w <= 0) { perror("pwrite"); abort(); }
        done += (size_t)w;
    }
    return path;
}

/* A sink for writer output. */
static inline FILE *fuzz_null(void)
{
    static FILE *f;
    if (!f) f = fopen("/dev/null", "w");
    if (!f) abort();
    return f;
}

/* FNV-1a of the input, to vary options deterministically. */
static inline uint32_t fuzz_hash(const uint8_t *data, size_t size)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 16777619u;
    return h;
}

/* Replay g and run it through every writer, as xq-validate, xq-convert
 * and xq-stats do.  variant picks notation, encoding and options. */
static inline void fuzz_replay_and_write(xq_game *g, uint32_t variant)
{
    xq_replay_options ro;
    xq_replay_options_default(&ro);
    ro.strict = variant & 1;
    if (variant & 2) ro.check_cap = 10;
    xq_replay r;
    xq_replay_game(g, &ro, &r);
    FUZZ_CHECK(r.plies >= 0 && (size_t)r.plies <= g->main.count);
    FUZZ_CHECK(r.nfindings <= XQ_REPLAY_MAX_FINDINGS);
    FUZZ_CHECK(r.bad_ply == 0 || r.bad_ply == r.plies + 1);
    FUZZ_CHECK(strlen(r.reason) < sizeof r.reason);

    FILE *out = fuzz_null();
    static const xq_encoding encs[] = {XQ_ENC_UTF8, XQ_ENC_UTF8, XQ_ENC_GBK, XQ_ENC_BIG5};
    for (int f = 0; f < XQ_OUT_COUNT; f++) {
        xq_write_options wo;
        memset(&wo, 0, sizeof wo);
        wo.format = (xq_out_format)f;
        wo.notation = (xq_notation)((variant >> 2) % XQ_NOTATION_COUNT);
        wo.notation_flags = (variant >> 5) & 0xFF;
        wo.no_comments = (variant >> 13) & 1;
        wo.no_variations = (variant >> 14) & 1;
        wo.encoding = encs[(variant >> 15) & 3];
        xq_write_report rep;
        xq_write_begin(out, &wo);
        xq_write_game(out, g, &r, &wo, &rep);
        xq_write_end(out, &wo);
        FUZZ_CHECK(strlen(rep.why) < sizeof rep.why);
    }
    xq_write_json(out, g, &r);
    xq_write_raw_with_result(out, g, "1-0");
}

/* Sanity of a record as a reader returned it: every pointer set, every
 * diagnostic inside the input. */
static inline void fuzz_check_branch(const xq_branch *b, int depth)
{
    FUZZ_CHECK(depth <= XQ_MAX_VARIATION_DEPTH + 1);
    FUZZ_CHECK(b->count == 0 || b->nodes);
    for (size_t i = 0; i < b->count; i++) {
        const xq_node *n = &b->nodes[i];
        FUZZ_CHECK(n->text);
        FUZZ_CHECK(n->nag_count == 0 || n->nags);
        FUZZ_CHECK(n->variation_count == 0 || n->variations);
        for (uint32_t v = 0; v < n->variation_count; v++) fuzz_check_branch(&n->variations[v], depth + 1);
    }
}

static inline void fuzz_check_game(const xq_game *g, uint64_t index, uint64_t stream_size)
{
    FUZZ_CHECK(g->index == index);
    FUZZ_CHECK(g->file);
    FUZZ_CHECK(g->tag_count == 0 || g->tags);
    for (size_t i = 0; i < g->tag_count; i++) FUZZ_CHECK(g->tags[i].name && g->tags[i].value);
    FUZZ_CHECK(g->diag_count <= XQ_GAME_MAX_DIAGS + 1);
    for (size_t i = 0; i < g->diag_count; i++) {
        FUZZ_CHECK(g->diags[i].msg);
        if (stream_size != UINT64_MAX) FUZZ_CHECK(g->diags[i].offset <= stream_size);
    }
    fuzz_check_branch(&g->main, 0);
}

/* Read every game of rd: check each (fuzz_check_game, stream_size bytes
 * of input or UINT64_MAX when unknown), replay and write it; a failed read
 * must say why.  Closes rd. */
static inline void fuzz_each_game(xq_reader *rd, const uint8_t *data, size_t size, uint64_t stream_size)
{
    uint32_t variant = fuzz_hash(data, size);
    xq_game g;
    xq_game_init(&g);
    uint64_t n = 0;
    int rc;
    while ((rc = xq_reader_next(rd, &g)) == 1) {
        n++;
        fuzz_check_game(&g, n, stream_size);
        fuzz_replay_and_write(&g, variant + (uint32_t)n);
    }
    if (rc < 0) FUZZ_CHECK(xq_reader_error(rd)[0]);
    xq_game_free(&g);
    xq_reader_close(rd);
}

/* A reader of data[0..size) with the format forced (as `--from FORMAT`),
 * or NULL when it could not be opened, which must say why. */
static inline xq_reader *fuzz_open_as(const uint8_t *data, size_t size, xq_format format)
{
    const char *path = fuzz_file(data, size);
    xq_read_options o = {.encoding = XQ_ENC_AUTO, .format = format};
    char err[512];
    err[0] = 0;
    xq_reader *rd = xq_reader_open(path, &o, err, sizeof err);
    if (!rd) FUZZ_CHECK(err[0]);
    return rd;
}

#endif
