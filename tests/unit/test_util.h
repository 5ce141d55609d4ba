/* test_util.h - helpers shared by the unit tests of the record readers:
 * whole files in and out of temporary files, every record of a file into
 * an array of games, and counts over a game's move tree; and by the tests
 * that compare a fast path with the general one: a seeded generator,
 * random legal games (xqt_walk) and the main lines of recorded games
 * (xqt_lines).  Tests that read ../shared (XQ_SHARED) skip when it is not
 * there.  Include after cmocka.h. */
#ifndef XQ_TEST_UTIL_H
#define XQ_TEST_UTIL_H

#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "notation.h"
#include "position.h"
#include "pgn_read.h"
#include "replay.h"

/* Skip the calling test when path lies in ../shared and is missing. */
static inline void skip_without_shared(const char *path)
{
    if (access(path, R_OK) != 0 && !strncmp(path, XQ_SHARED, strlen(XQ_SHARED))) skip();
}

/* The whole file at path, malloc'd (caller frees) with a NUL after its
 * bytes, its size in *n. */
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
    buf[*n] = 0;
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

/* A game read from bytes (any format the readers sniff: the first
 * record) and replayed under the default rules; free g with
 * xq_game_free. */
typedef struct {
    xq_game g;
    xq_replay r;
} xqt_loaded;

static inline void xqt_load(xqt_loaded *l, const void *bytes, size_t len)
{
    char path[64], err[512];
    save_tmp(bytes, len, path);
    xq_reader *rd = xq_reader_open(path, NULL, err, sizeof err);
    assert_non_null(rd);
    xq_game_init(&l->g);
    assert_int_equal(xq_reader_next(rd, &l->g), 1);
    xq_replay_options o;
    xq_replay_options_default(&o);
    xq_replay_game(&l->g, &o, &l->r);
    xq_reader_close(rd);
    unlink(path);
}

/* Moves from ICCS text "h2e2 h9g7 ..." into moves[] (at most max);
 * returns the count. */
static inline int xqt_iccs_moves(const char *text, xq_move *moves, int max)
{
    int n = 0;
    for (const char *p = text; *p && n < max;) {
        while (*p == ' ') p++;
        if (!*p) break;
        int from = XQ_SQ(p[0] - 'a', p[1] - '0'), to = XQ_SQ(p[2] - 'a', p[3] - '0');
        moves[n++] = XQ_MOVE(from, to);
        p += 4;
    }
    return n;
}

/* Write n bytes gzip-compressed (level level) to a fresh temporary file;
 * path receives its name. */
static inline void save_tmp_gz(const void *p, size_t n, int level, char path[64])
{
    strcpy(path, "/tmp/xq-test-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    char mode[4] = {'w', 'b', (char)('0' + level), 0};
    gzFile z = gzdopen(fd, mode);
    assert_non_null(z);
    assert_int_equal(gzwrite(z, p, (unsigned)n), (int)n);
    assert_int_equal(gzclose(z), Z_OK);
}

/* Fixtures are found relative to the repository root: run from there, or
 * from anywhere as build/tests/NAME (argv0; the root is three levels up).
 * Moves there unless probe, a path relative to the root, can be read
 * already. */
static inline void xqt_chdir_to_root(const char *argv0, const char *probe)
{
    if (access(probe, R_OK) == 0) return;
    char path[4096];
    if (!realpath(argv0, path)) return;
    for (int i = 0; i < 3; i++) {
        char *slash = strrchr(path, '/');
        if (slash) *slash = '\0';
    }
    if (chdir(path) != 0) perror(path);
}

/* A reader of path with the default options; fails the test (after the
 * reader's message) when it cannot be opened.  The caller closes it. */
static inline xq_reader *xqt_reader_open(const char *path)
{
    char err[256];
    xq_reader *r = xq_reader_open(path, NULL, err, sizeof err);
    if (!r) fprintf(stderr, "%s\n", err);
    assert_non_null(r);
    return r;
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

/* read_path of the n bytes p, written to a temporary file (removed after). */
static inline int read_tmp_bytes(const void *p, size_t n, xq_game *g, int max, xq_format *fmt)
{
    char path[64];
    save_tmp(p, n, path);
    int k = read_path(path, g, max, fmt);
    unlink(path);
    return k;
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

/* n records, each written by record (UTF-8 text through put), in Big5
 * (CP950) into a new temporary file, its name in path (the caller
 * unlinks it). */
static inline void xqt_big5_file(void (*record)(out_file *), int n, char path[64])
{
    out_file o = {0};
    o.cd = iconv_open("CP950", "UTF-8");
    assert_true(o.cd != (iconv_t)-1);
    for (int i = 0; i < n; i++) record(&o);
    iconv_close(o.cd);
    save_tmp(o.p, o.len, path);
    free(o.p);
}

/* Two games read from the same bytes are the same, field by field: tags,
 * every node of every line of play, raw bytes, diagnostics with place
 * (the fast paths of the reader against the general way). */
/* Replay outcome b against a in the fields every replay of the same
 * record gives alike (status to findings; texts up to their NUL): equal,
 * but that with quiet (b replayed with no_warning_text) b's warnings have
 * empty messages.  The start and final positions and the verdict are the
 * caller's to compare (when they are kept, replay.h). */
static inline void xqt_same_outcome(const xq_replay *a, const xq_replay *b, bool quiet)
{
    assert_int_equal(a->status, b->status);
    assert_int_equal(a->termination, b->termination);
    assert_int_equal(a->result_tag, b->result_tag);
    assert_int_equal(a->result_board, b->result_board);
    assert_int_equal(a->plies, b->plies);
    assert_int_equal(a->bad_ply, b->bad_ply);
    assert_string_equal(a->bad_move, b->bad_move);
    assert_int_equal(a->bad_number, b->bad_number);
    assert_int_equal(a->bad_side, b->bad_side);
    assert_int_equal(a->bad_line, b->bad_line);
    assert_int_equal(a->bad_col, b->bad_col);
    assert_string_equal(a->reason, b->reason);
    assert_string_equal(a->fen_before, b->fen_before);
    assert_int_equal(a->error_count, b->error_count);
    assert_int_equal(a->warning_count, b->warning_count);
    assert_int_equal(a->nfindings, b->nfindings);
    for (int i = 0; i < a->nfindings; i++) {
        const xq_finding *f = &a->findings[i], *h = &b->findings[i];
        assert_int_equal(f->kind, h->kind);
        assert_int_equal(f->severity, h->severity);
        assert_int_equal(f->ply, h->ply);
        assert_int_equal(f->line, h->line);
        assert_int_equal(f->col, h->col);
        assert_string_equal(quiet && f->severity == XQ_SEV_WARNING ? "" : f->message, h->message);
    }
}

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

/* 1 + the index of g's first tag named name (ASCII letters, case
 * ignored, as xq_game_tag matches), 0 when there is none. */
static inline uint32_t xqt_first_tag(const xq_game *g, const char *name)
{
    for (size_t i = 0; i < g->tag_count; i++) {
        const char *t = g->tags[i].name, *n = name;
        while (*n && ((unsigned char)*t | 0x20) == ((unsigned char)*n | 0x20)) t++, n++;
        if (!*n && !*t) return (uint32_t)i + 1;
    }
    return 0;
}

/* The Result and Format tags a reader noted (xq_game.tags_noted, when
 * still the tag count) are the first of their names, none when the
 * record has none. */
static inline void xqt_same_tag_index(const xq_game *g)
{
    if (!g->tags_noted || g->tags_noted != g->tag_count) return;
    assert_int_equal(g->result_tag, xqt_first_tag(g, "Result"));
    assert_int_equal(g->format_tag, xqt_first_tag(g, "Format"));
}

static inline void same_game(const xq_game *a, const xq_game *b)
{
    xqt_same_tag_index(a);
    xqt_same_tag_index(b);
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
    assert_int_equal(a->fen_line, b->fen_line);   /* where findings about the start go */
    assert_int_equal(a->fen_col, b->fen_col);
    assert_int_equal(a->fen_verbatim, b->fen_verbatim);
    same_branch(&a->main, &b->main);
    same_str(a->result, b->result);
    assert_int_equal(a->result_code, b->result_code);
    assert_int_equal(a->diag_count, b->diag_count);
    assert_int_equal(a->diag_dropped[0], b->diag_dropped[0]);
    assert_int_equal(a->diag_dropped[1], b->diag_dropped[1]);
    for (size_t i = 0; i < a->diag_count; i++) {
        assert_int_equal(a->diags[i].severity, b->diags[i].severity);
        assert_int_equal(a->diags[i].line, b->diags[i].line);
        assert_int_equal(a->diags[i].col, b->diags[i].col);
        assert_int_equal(a->diags[i].offset, b->diags[i].offset);
        assert_string_equal(a->diags[i].msg, b->diags[i].msg);
    }
}

/* ---- random games and recorded main lines ------------------------------
 * Shared by the tests that compare a fast path with the general one on
 * many positions.  New names here carry the prefix xqt_ so that they do
 * not meet a test file's own static helpers. */

/* The tests' generator (a 64-bit LCG, Knuth's MMIX constants): a number
 * in 0..n-1 (n > 0) from *state, which it advances.  Fixed seeds make a
 * failing position come back on every run. */
static inline unsigned xqt_rnd(uint64_t *state, unsigned n)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(*state >> 33) % n;
}

/* The readers' tests' generator (xorshift64): a number in 0..n-1 (n > 0)
 * from *state (not 0), which it advances. */
static inline uint32_t xqt_xorshift(uint64_t *state, uint32_t n)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return (uint32_t)(*state % n);
}

/* The movegen tests' generator (xorshift64*): a number in 0..n-1 (n > 0)
 * from *state (not 0), which it advances. */
static inline unsigned xqt_xorshift_star(uint64_t *state, unsigned n)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return (unsigned)((*state * 0x2545F4914F6CDD1Dull) >> 33) % n;
}

/* g's tag name (xq_game_tag) is value, or absent when value is NULL:
 * the readers' tests of the tags a record gives. */
static inline void xqt_assert_tag(const xq_game *g, const char *name, const char *value)
{
    const char *v = xq_game_tag(g, name);
    if (!value) {
        assert_null(v);
        return;
    }
    if (!v) fprintf(stderr, "no tag %s\n", name);
    assert_non_null(v);
    assert_string_equal(v, value);
}

/* The start position and the twelve perft positions of
 * ../shared/rules/engines-survey.md (FEN boards and side to move): the
 * positions a real game reaches, for the move generator's tests. */
static const char *const xqt_perft_fens[13] = {
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w",
    "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w",
    "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w",
    "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w",
    "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w",
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w",
};

/* A generator of the legal moves of pos into moves (room for
 * XQ_MAX_MOVES), returning their count: xq_legal_moves, or a test's own
 * reference generator. */
typedef int (*xqt_move_source)(const xq_position *pos, xq_move *moves);

/* The perft count of pos to depth (>= 0) by making every move legal_moves
 * gives (xq_make, xq_unmake): the plain count the fast perft paths are
 * held to.  pos comes back as it was, as the unmake leaves it. */
static inline uint64_t xqt_perft_with(xq_position *pos, int depth, xqt_move_source legal_moves)
{
    if (depth == 0) return 1;
    xq_move moves[XQ_MAX_MOVES];
    int n = legal_moves(pos, moves);
    if (depth == 1) return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        xq_undo u;
        xq_make(pos, moves[i], &u);
        total += xqt_perft_with(pos, depth - 1, legal_moves);
        xq_unmake(pos, moves[i], &u);
    }
    return total;
}

/* The first field in which two positions differ ("board", "generals",
 * "side or counters", "key", "masks"), or NULL when they are the same. */
static inline const char *xqt_position_diff(const xq_position *a, const xq_position *b)
{
    if (memcmp(a->board, b->board, sizeof a->board) != 0) return "board";
    if (a->general[0] != b->general[0] || a->general[1] != b->general[1]) return "generals";
    if (a->side != b->side || a->halfmove != b->halfmove || a->fullmove != b->fullmove) return "side or counters";
    if (a->key != b->key) return "key";
    if (memcmp(a->rank_occ, b->rank_occ, sizeof a->rank_occ) != 0 ||
        memcmp(a->file_occ, b->file_occ, sizeof a->file_occ) != 0)
        return "masks";
    return NULL;
}

/* xq_move_play_desc(d) on a copy of pos against the text read
 * (xq_move_read_quick) and played (xq_play) on another, in the check
 * state *checks: the same move, capture, position (masks and fboard
 * included) and check state, else the test fails naming the text and
 * the FEN.  d must be xq_move_desc(text, len).  Returns whether a move
 * was played. */
static inline bool xqt_play_desc_agrees(const xq_position *pos, const xq_checks *checks, unsigned d,
                                        const char *text, size_t len)
{
    xq_position a = *pos, b = *pos;
    xq_checks ca = *checks, cb = *checks;
    assert_int_equal(xq_move_desc(text, len), d);
    xq_played pa = xq_move_play_desc(&a, d, &ca);
    unsigned flags = cb.in_check[b.side] ? 0u : XQ_READ_NOT_IN_CHECK;
    xq_move mb = xq_move_read_quick(&b, text, len, XQ_NOTATION_CHINESE, flags);
    xq_piece capb = XQ_NONE;
    if (mb != XQ_MOVE_NONE) capb = xq_play(&b, mb, &cb);
    if (pa.move != mb || pa.captured != capb) {
        char fen[XQ_FEN_MAX];
        xq_fen_write(pos, fen, sizeof fen);
        fail_msg("%s on %s (in check %d/%d): plan %04x cap %d, read+play %04x cap %d", text, fen,
                 checks->in_check[0], checks->in_check[1], pa.move, pa.captured, mb, capb);
    }
    const char *diff = xqt_position_diff(&a, &b);
    if (diff) fail_msg("%s: positions differ in %s", text, diff);
    assert_memory_equal(a.fboard, b.fboard, sizeof a.fboard);
    assert_true(xq_position_masks_ok(&a));
    assert_int_equal(ca.in_check[0], cb.in_check[0]);
    assert_int_equal(ca.in_check[1], cb.in_check[1]);
    return pa.move != XQ_MOVE_NONE;
}

/* How a random walk picks among the legal moves. */
typedef enum {
    XQT_UNIFORM,    /* every legal move alike */
    XQT_CAPTURES,   /* now and then the last capture in move order instead:
                     * thinned boards open lines, generals come to face */
    XQT_LINES       /* half the time up to 8 tries for a capture or a move
                     * onto a general's file or rank (screens, pins) */
} xqt_bias;

/* A random legal game being walked, and what the walk does at each step.
 * The caller fills rng, bias, visit (and play, visit_end, ctx when
 * needed); xqt_walk fills pos, checks and ply. */
typedef struct xqt_walk_s xqt_walk;
struct xqt_walk_s {
    xq_position pos;     /* the position reached */
    xq_checks checks;    /* its check state, kept by play */
    int ply;             /* moves played since the walk's start */
    uint64_t *rng;       /* the test's xqt_rnd state, shared with its other draws */
    xqt_bias bias;
    /* called at every position before its move is picked, and at a
     * position without legal moves (where the walk ends) */
    void (*visit)(xqt_walk *w);
    /* plays m, legal in w->pos (NULL: xq_play, masks checked) */
    void (*play)(xqt_walk *w, xq_move m);
    bool visit_end;      /* visit also the position after the last move of a full walk */
    void *ctx;           /* the caller's */
};

/* Call f on every position a legal move from the walk's position leads
 * to where the side to move is in check (the position, its check state
 * as xq_play kept it). */
static inline void xqt_each_check_reply(const xqt_walk *w, void (*f)(const xq_position *, const xq_checks *))
{
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_legal_moves(&w->pos, moves);
    for (int i = 0; i < n; i++) {
        xq_position p = w->pos;
        xq_checks c = w->checks;
        xq_play(&p, moves[i], &c);
        if (c.in_check[p.side]) f(&p, &c);
    }
}

/* Whether m lands on a piece or on the file or rank of either general. */
static inline bool xqt_onto_line(const xq_position *pos, xq_move m)
{
    int to = XQ_TO(m);
    if (pos->board[to]) return true;
    for (int s = 0; s < 2; s++) {
        int g = pos->general[s];
        if (g < XQ_SQUARES && (XQ_FILE(g) == XQ_FILE(to) || XQ_RANK(g) == XQ_RANK(to))) return true;
    }
    return false;
}

/* One of the n (> 0) legal moves, picked under w's bias from w's rng. */
static inline xq_move xqt_pick(const xqt_walk *w, const xq_move *moves, int n)
{
    xq_move m = moves[xqt_rnd(w->rng, (unsigned)n)];
    if (w->bias == XQT_CAPTURES) {
        for (int k = 0; k < n && xqt_rnd(w->rng, 3) == 0; k++)
            if (w->pos.board[XQ_TO(moves[k])]) m = moves[k];
    } else if (w->bias == XQT_LINES && !xqt_rnd(w->rng, 2)) {
        for (int tries = 0; tries < 8; tries++) {
            xq_move c = moves[xqt_rnd(w->rng, (unsigned)n)];
            if (xqt_onto_line(&w->pos, c)) return c;
        }
    }
    return m;
}

/* One walk of up to plies random legal moves from fen (NULL: the start
 * position; a FEN that does not read fails the test), visiting each
 * position on the way as w says. */
static inline void xqt_walk_from(xqt_walk *w, const char *fen, int plies)
{
    char err[128];
    if (!fen) xq_position_start(&w->pos);
    else if (!xq_fen_read(&w->pos, fen, err, sizeof err)) fail_msg("%s: %s", fen, err);
    xq_checks_init(&w->checks, &w->pos);
    for (w->ply = 0; w->ply < plies; w->ply++) {
        w->visit(w);
        xq_move moves[XQ_MAX_MOVES];
        int n = xq_legal_moves(&w->pos, moves);
        if (n == 0) return;
        xq_move m = xqt_pick(w, moves, n);
        if (w->play) {
            w->play(w, m);
        } else {
            xq_play(&w->pos, m, &w->checks);
            assert_true(xq_position_masks_ok(&w->pos));
        }
    }
    if (w->visit_end) w->visit(w);
}

/* games walks of up to plies moves from the start position. */
static inline void xqt_walk_games(xqt_walk *w, int games, int plies)
{
    for (int g = 0; g < games; g++) xqt_walk_from(w, NULL, plies);
}

/* One step of a series of walks (xqt_walk_series): games walks of up to
 * plies moves from the start position under bias. */
typedef struct {
    xqt_bias bias;
    int games, plies;
} xqt_walk_step;

/* The n steps in turn, w->bias set to each one's (and left at the last
 * one's): the mix of uniform, capture and line walks a test wants, in
 * one call. */
static inline void xqt_walk_series(xqt_walk *w, const xqt_walk_step *steps, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        w->bias = steps[i].bias;
        xqt_walk_games(w, steps[i].games, steps[i].plies);
    }
}

/* xqt_walk_series(w, the steps written out, their count):
 * XQT_WALK_SERIES(&w, {XQT_LINES, 4, 100}, {XQT_CAPTURES, 4, 120}). */
#define XQT_WALK_SERIES(w, ...)                                     \
    xqt_walk_series((w), (const xqt_walk_step[]){__VA_ARGS__},      \
                    sizeof((const xqt_walk_step[]){__VA_ARGS__}) / sizeof(xqt_walk_step))

/* One walk of up to plies moves from each of the n FENs. */
static inline void xqt_walk_fens(xqt_walk *w, const char *const *fens, size_t n, int plies)
{
    for (size_t i = 0; i < n; i++) xqt_walk_from(w, fens[i], plies);
}

/* Odd and impossible positions for the walks of the move readers' tests
 * (*n of them): generals facing behind one piece or on open files, cannons
 * and chariots on the generals' lines, horses on the legs, soldiers across
 * the river; tandem pieces (two advisors or elephants on a file, two
 * cannons, horses, three soldiers on one file, soldiers on two files);
 * a side in check at the start (the side to move, or the other one); a
 * board without a Red general. */
static inline const char *const *xqt_odd_fens(size_t *n)
{
    static const char *const fens[] = {
        "4k4/9/9/9/4R4/9/9/9/9/4K4 w - - 0 1",
        "4k4/9/9/9/4R4/9/9/9/9/4K4 b - - 0 1",
        "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
        "4k4/4a4/9/9/9/4c4/9/4C4/4A4/4K4 w - - 0 1",
        "4k4/9/4n4/9/9/9/9/3N5/4P4/3K5 w - - 0 1",
        "3ak4/4a4/9/9/2p1p4/9/9/4c4/3PA4/4K4 w - - 0 1",
        "r3k3r/9/9/9/9/9/9/9/9/R3K3R w - - 0 1",
        "4k4/9/9/9/9/9/9/4n4/3PP4/3AKA3 w - - 0 1",
        "4kc3/9/9/9/9/9/9/9/5R3/4KC3 w - - 0 1",
        "2bak4/4a4/4b4/9/4C4/4c4/9/4B4/4A4/3AK4 w - - 0 1",
        "4k4/4P4/9/9/9/9/9/9/4p4/4K4 b - - 0 1",
        "4k4/3P5/9/9/9/9/9/9/3p5/4K4 w - - 0 1",
        /* tandem pieces */
        "3ak4/9/3a5/9/9/9/9/3A5/9/3AK4 w - - 0 1",
        "3ak4/9/3a5/9/9/9/9/3A5/9/3AK4 b - - 0 1",
        "4k4/9/2b6/9/2b6/2B6/9/9/9/2B1K4 w - - 0 1",
        "4k4/9/2b6/9/2b6/2B6/9/9/9/2B1K4 b - - 0 1",
        "2b1k4/9/9/9/2P3P2/2P3P2/9/1C7/1C7/4K4 w - - 0 1",
        "4k4/4a4/2P6/2P6/2P6/7R1/9/9/1N7/1N2K2R1 w - - 0 1",
        "1r2k4/1r2a4/2c1c4/9/2p6/2p6/2p6/9/9/4K4 b - - 0 1",
        /* impossible starts */
        "4k4/9/9/9/4R4/9/9/9/9/3K5 w - - 0 1",   /* Black in check, Red to move */
        "4k4/9/9/9/9/9/9/9/9/9 w - - 0 1",       /* no Red general */
    };
    *n = sizeof fens / sizeof fens[0];
    return fens;
}

/* Impossible boards for the tests of play and legality: two generals of
 * a side (the FEN reader refuses them, so the extra one is put after the
 * FEN: sq and extra; sq -1 for none), the generals facing (a flying
 * general's check), the side to move in check with the other one in check
 * too, a side without a general.  *n of them. */
typedef struct { const char *fen; int sq; xq_piece extra; } xqt_odd_board;

static inline const xqt_odd_board *xqt_impossible_boards(size_t *n)
{
    static const xqt_odd_board boards[] = {
        {"4k4/9/9/9/4r4/9/9/9/9/3K5 w - - 0 1", XQ_SQ(4, 1), XQ_PIECE(XQ_GENERAL, XQ_RED)},
        {"4k4/9/9/9/3r5/9/9/9/9/4K4 w - - 0 1", XQ_SQ(3, 1), XQ_PIECE(XQ_GENERAL, XQ_RED)},
        {"3k5/9/9/9/9/4R4/9/9/9/3K5 b - - 0 1", XQ_SQ(4, 8), XQ_PIECE(XQ_GENERAL, XQ_BLACK)},
        {"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", -1, XQ_NONE},
        {"4k4/9/9/9/9/9/9/9/4A4/4K4 b - - 0 1", -1, XQ_NONE},
        {"9/9/9/9/4r4/9/9/9/4A4/4K4 w - - 0 1", -1, XQ_NONE},
        {"4k4/4R4/9/9/9/9/9/9/4r4/4K4 w - - 0 1", -1, XQ_NONE},
        {"3k5/9/9/9/9/9/9/4c4/4P4/4K4 w - - 0 1", -1, XQ_NONE},
        {"3k5/9/9/9/9/9/9/9/3n5/4K4 w - - 0 1", -1, XQ_NONE},
        {"3k5/9/9/9/9/9/9/9/4p4/3RK4 w - - 0 1", -1, XQ_NONE},
        {"3k5/9/9/9/9/9/9/9/9/3K5 w - - 0 1", -1, XQ_NONE},
        {"3k5/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1", -1, XQ_NONE},
        {"5k3/9/9/9/9/9/9/9/4R4/5K3 b - - 0 1", -1, XQ_NONE},
    };
    *n = sizeof boards / sizeof boards[0];
    return boards;
}

/* The position of board b into *pos: its FEN read, its extra general put. */
static inline void xqt_impossible_position(const xqt_odd_board *b, xq_position *pos)
{
    char err[128];
    if (!xq_fen_read(pos, b->fen, err, sizeof err)) fail_msg("%s: %s", b->fen, err);
    if (b->sq >= 0) xq_position_put(pos, b->sq, b->extra);
}

/* The main lines of the records of a file as the replay decodes them, one
 * position at a time; a line ends at its first missing or illegal move:
 *
 *     xqt_lines w;
 *     xqt_lines_open(&w, path, max_games);   (skips the test without ../shared)
 *     while (xqt_lines_game(&w))             (w.pos: the game's start)
 *         for (xq_move m; xqt_lines_move(&w, &m); xqt_lines_play(&w, m))
 *             ... w.pos is the position before m, w.ply the moves played ...
 *     xqt_lines_close(&w);
 */
typedef struct {
    xq_reader *rd;
    xq_replay_options opt;
    xq_game game;        /* the record being walked (owned) */
    bool have_game;
    int games_left;
    xq_position pos;     /* the position reached in its main line */
    int ply;             /* moves played in its main line */
} xqt_lines;

static inline void xqt_lines_open(xqt_lines *w, const char *path, int max_games)
{
    skip_without_shared(path);
    char err[256];
    w->rd = xq_reader_open(path, NULL, err, sizeof err);
    if (!w->rd) fail_msg("%s", err);
    xq_replay_options_default(&w->opt);
    w->have_game = false;
    w->games_left = max_games;
}

/* Read and replay the next record (false after the last one or
 * max_games); w->pos is its start position. */
static inline bool xqt_lines_game(xqt_lines *w)
{
    if (w->have_game) xq_game_free(&w->game);
    w->have_game = false;
    if (w->games_left <= 0) return false;
    w->games_left--;
    xq_game_init(&w->game);
    if (xq_reader_next(w->rd, &w->game) <= 0) {
        xq_game_free(&w->game);
        return false;
    }
    w->have_game = true;
    xq_replay r;
    xq_replay_game(&w->game, &w->opt, &r);
    w->pos = r.start;
    w->ply = 0;
    return true;
}

/* The next move of the main line into *m: false at its end or at a move
 * that is missing or not legal in w->pos. */
static inline bool xqt_lines_move(const xqt_lines *w, xq_move *m)
{
    if ((size_t)w->ply >= w->game.main.count) return false;
    *m = w->game.main.nodes[w->ply].move;
    return *m != XQ_MOVE_NONE && xq_move_legality(&w->pos, *m) == XQ_LEGAL;
}

/* Play m (from xqt_lines_move) in w->pos; returns the piece it captured. */
static inline xq_piece xqt_lines_play(xqt_lines *w, xq_move m)
{
    xq_undo u;
    xq_make(&w->pos, m, &u);
    w->ply++;
    return u.captured;
}

static inline void xqt_lines_close(xqt_lines *w)
{
    if (w->have_game) xq_game_free(&w->game);
    w->have_game = false;
    xq_reader_close(w->rd);
}


/* One repetition met by xqt_each_repetition: the stretch since the last
 * capture (base after base_ply plies), its moves[0..n-1], the keys of its
 * positions keys[0..n] (keys[0] the base's), and now, the position after
 * the last move, which stood before within the stretch. */
typedef struct {
    const xq_position *base, *now;
    int base_ply, n;
    const xq_move *moves;
    const uint64_t *keys;
} xqt_repetition;

/* Walk the main lines of the first max_games records of path, calling
 * game(ctx) before each game (NULL: none) and found(r, ctx) at each ply
 * whose position repeats one of its stretch (a capture, or 1,024 moves,
 * starts a new stretch).  The judge tests compare judges on these. */
static inline void xqt_each_repetition(const char *path, int max_games, void (*game)(void *),
                                       void (*found)(const xqt_repetition *, void *), void *ctx)
{
    xqt_lines w;
    xqt_lines_open(&w, path, max_games);
    enum { MAX_STRETCH = 1024 };
    xq_move *moves = malloc(MAX_STRETCH * sizeof *moves);
    uint64_t *keys = malloc((MAX_STRETCH + 1) * sizeof *keys);
    assert_non_null(moves);
    assert_non_null(keys);
    while (xqt_lines_game(&w)) {
        if (game) game(ctx);
        xq_position base = w.pos;
        int base_ply = 0, n = 0;
        keys[0] = w.pos.key;
        for (xq_move m; xqt_lines_move(&w, &m);) {
            if (xqt_lines_play(&w, m) || n == MAX_STRETCH) {   /* a capture starts a new stretch */
                base = w.pos;
                base_ply = w.ply;
                n = 0;
                keys[0] = w.pos.key;
                continue;
            }
            moves[n++] = m;
            keys[n] = w.pos.key;
            bool repeated = false;
            for (int j = n - 2; j >= 0 && !repeated; j -= 2) repeated = keys[j] == keys[n];
            if (!repeated) continue;
            xqt_repetition r = {&base, &w.pos, base_ply, n, moves, keys};
            found(&r, ctx);
        }
    }
    free(moves);
    free(keys);
    xqt_lines_close(&w);
}

#endif
