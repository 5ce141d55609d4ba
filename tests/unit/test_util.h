/* test_util.h - helpers shared by the unit tests of the record readers:
 * whole files in and out of temporary files, every record of a file into
 * an array of games, and counts over a game's move tree.  Tests that read
 * ../shared (XQ_SHARED) skip when it is not there.  Include after cmocka.h. */
#ifndef XQ_TEST_UTIL_H
#define XQ_TEST_UTIL_H

#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "notation.h"
#include "pgn_read.h"
#include "replay.h"

/* Skip the calling test when path lies in ../shared and is missing. */
static inline void skip_without_shared(const char *path)
{
    if (access(path, R_OK) != 0 && !strncmp(path, XQ_SHARED, strlen(XQ_SHARED))) skip();
}

/* The whole file at path, malloc'd (caller frees), its size in *n. */
static inline unsigned char *load(const char *path, size_t *n)
{
    skip_without_shared(path);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)len + 1);
    assert_non_null(buf);
    *n = fread(buf, 1, (size_t)len, f);
    fclose(f);
    return buf;
}

/* Write n bytes to a fresh temporary file; path receives its name. */
static inline void save_tmp(const void *p, size_t n, char path[64])
{
    strcpy(path, "/tmp/xq-test-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, p, n), (ssize_t)n);
    close(fd);
}

/* Read every record of path into g[0..max) (each initialised; the caller
 * frees them); the format the reader chose goes to *fmt and the first
 * game's encoding to *enc when not NULL.  Returns the number of records. */
static inline int read_path_enc(const char *path, xq_game *g, int max, xq_format *fmt, xq_encoding *enc)
{
    skip_without_shared(path);
    char err[256];
    xq_reader *r = xq_reader_open(path, NULL, err, sizeof err);
    if (!r) fprintf(stderr, "%s\n", err);
    assert_non_null(r);
    if (fmt) *fmt = xq_reader_format(r);
    int n = 0;
    for (;;) {
        assert_true(n < max);
        xq_game_init(&g[n]);
        int rc = xq_reader_next(r, &g[n]);
        assert_true(rc >= 0);
        if (rc == 0) {
            xq_game_free(&g[n]);
            break;
        }
        n++;
    }
    xq_reader_close(r);
    if (enc && n) *enc = g[0].encoding;
    return n;
}

static inline int read_path(const char *path, xq_game *g, int max, xq_format *fmt)
{
    return read_path_enc(path, g, max, fmt, NULL);
}

static inline void free_all(xq_game *g, int n)
{
    for (int i = 0; i < n; i++) xq_game_free(&g[i]);
}

/* Moves, variations, comments and nesting depth of a move tree. */
typedef struct {
    size_t moves, variations, comments, depth;
} tally;

static inline void count(const xq_branch *b, size_t depth, tally *t)
{
    if (depth > t->depth) t->depth = depth;
    if (b->comment) t->comments++;
    for (size_t i = 0; i < b->count; i++) {
        t->moves++;
        if (b->nodes[i].comment) t->comments++;
        for (uint32_t v = 0; v < b->nodes[i].variation_count; v++) {
            t->variations++;
            count(&b->nodes[i].variations[v], depth + 1, t);
        }
    }
}

static inline tally tally_of(const xq_game *g)
{
    tally t = {0};
    count(&g->main, 0, &t);
    return t;
}

/* Lines of a move tree (the branch and every variation, each replayed from
 * its branch position; moves as UCCI text) that hold a move that is not
 * legal.  The first such node goes to *first when first is not NULL; with
 * check_stored, each legal move must equal the reader's node->move. */
static inline size_t bad_lines_in(const xq_branch *b, const xq_position *start, const xq_node **first,
                                  bool check_stored)
{
    xq_position pos = *start;
    size_t bad = 0;
    for (size_t i = 0; i < b->count; i++) {
        const xq_node *n = &b->nodes[i];
        for (uint32_t v = 0; v < n->variation_count; v++)
            bad += bad_lines_in(&n->variations[v], &pos, first, check_stored);
        xq_note_result res;
        xq_move_read(&pos, n->text, strlen(n->text), XQ_NOTATION_UCCI, 0, &res, NULL, 0);
        if (res.status != XQ_NOTE_OK) {
            if (first && !*first) *first = n;
            return bad + 1;
        }
        if (check_stored) assert_int_equal(res.move, n->move);
        xq_undo u;
        xq_make(&pos, res.move, &u);
    }
    return bad;
}

/* bad_lines_in over a whole game, from its FEN tag or the start. */
static inline size_t bad_lines_game(const xq_game *g, const xq_node **first, bool check_stored)
{
    xq_position pos;
    if (g->fen) assert_true(xq_fen_read(&pos, g->fen, NULL, 0));
    else xq_position_start(&pos);
    if (first) *first = NULL;
    return bad_lines_in(&g->main, &pos, first, check_stored);
}

/* Read the first record of text (through a temporary file) and replay it
 * under opt (NULL: the default CXA 1999 options) into *r. */
static inline void replay_text(const char *text, const xq_replay_options *opt, xq_replay *r)
{
    char path[64];
    save_tmp(text, strlen(text), path);
    char err[256];
    xq_reader *rd = xq_reader_open(path, NULL, err, sizeof err);
    assert_non_null(rd);
    xq_game g;
    xq_game_init(&g);
    assert_int_equal(xq_reader_next(rd, &g), 1);
    xq_replay_options def;
    xq_replay_options_default(&def);
    xq_replay_game(&g, opt ? opt : &def, r);
    xq_game_free(&g);
    xq_reader_close(rd);
    unlink(path);
}

/* A file being built in memory for the readers' tests, in a target
 * encoding: cd converts from UTF-8, or is (iconv_t)-1 for UTF-8 itself.
 * p is malloc'd (the caller frees it). */
typedef struct {
    char *p;
    size_t len, cap;
    iconv_t cd;
} out_file;

/* Append the bytes s[0..n) as they are (room for a NUL is kept). */
static inline void put_raw(out_file *o, const char *s, size_t n)
{
    if (o->len + n + 1 > o->cap) {
        o->cap = (o->len + n + 1) * 2;
        o->p = realloc(o->p, o->cap);
        assert_non_null(o->p);
    }
    memcpy(o->p + o->len, s, n);
    o->len += n;
}

/* Append UTF-8 text s (under 1 KiB converted) in the file's encoding;
 * text the encoding has no character for is left out. */
static inline void put(out_file *o, const char *s)
{
    size_t n = strlen(s);
    if (o->cd == (iconv_t)-1) {
        put_raw(o, s, n);
        return;
    }
    char buf[1024];
    char *in = (char *)s, *out = buf;
    size_t inleft = n, outleft = sizeof buf;
    iconv(o->cd, NULL, NULL, NULL, NULL);
    if (iconv(o->cd, &in, &inleft, &out, &outleft) == (size_t)-1) return;
    put_raw(o, buf, (size_t)(out - buf));
}

/* Two games read from the same bytes are the same, field by field: tags,
 * every node of every line of play, raw bytes, diagnostics with place
 * (the fast paths of the reader against the general way). */
static inline void same_str(const char *a, const char *b)
{
    if (!a || !b) assert_ptr_equal(a, b);
    else assert_string_equal(a, b);
}

static inline void same_branch(const xq_branch *a, const xq_branch *b)
{
    assert_int_equal(a->count, b->count);
    same_str(a->comment, b->comment);
    for (size_t i = 0; i < a->count; i++) {
        const xq_node *x = &a->nodes[i], *y = &b->nodes[i];
        same_str(x->text, y->text);
        same_str(x->comment, y->comment);
        assert_int_equal(x->line, y->line);
        assert_int_equal(x->col, y->col);
        assert_int_equal(x->number, y->number);
        assert_int_equal(x->text_len, y->text_len);
        assert_int_equal(x->move, y->move);
        assert_int_equal(x->nag_count, y->nag_count);
        for (size_t k = 0; k < x->nag_count; k++) assert_int_equal(x->nags[k], y->nags[k]);
        assert_int_equal(x->variation_count, y->variation_count);
        for (size_t k = 0; k < x->variation_count; k++)
            same_branch(&x->variations[k], &y->variations[k]);
    }
}

static inline void same_game(const xq_game *a, const xq_game *b)
{
    same_str(a->file, b->file);
    assert_int_equal(a->index, b->index);
    assert_int_equal(a->first_line, b->first_line);
    assert_int_equal(a->offset, b->offset);
    assert_int_equal(a->encoding, b->encoding);
    assert_int_equal(a->raw_len, b->raw_len);
    assert_memory_equal(a->raw, b->raw, a->raw_len);
    assert_int_equal(a->tag_count, b->tag_count);
    for (size_t i = 0; i < a->tag_count; i++) {
        same_str(a->tags[i].name, b->tags[i].name);
        same_str(a->tags[i].value, b->tags[i].value);
    }
    same_str(a->fen, b->fen);
    same_branch(&a->main, &b->main);
    same_str(a->result, b->result);
    assert_int_equal(a->result_code, b->result_code);
    assert_int_equal(a->diag_count, b->diag_count);
    assert_int_equal(a->diag_dropped, b->diag_dropped);
    for (size_t i = 0; i < a->diag_count; i++) {
        assert_int_equal(a->diags[i].severity, b->diags[i].severity);
        assert_int_equal(a->diags[i].line, b->diags[i].line);
        assert_int_equal(a->diags[i].col, b->diags[i].col);
        assert_int_equal(a->diags[i].offset, b->diags[i].offset);
        assert_string_equal(a->diags[i].msg, b->diags[i].msg);
    }
}

#endif
