/* test_utf8_words_fast.c - the record reader's word cache and pair-line
 * run for UTF-8 input (pgn_read.c: words_utf8, u8_probe, u8_victim,
 * fast_scan's 12-byte words, u8_pair_run) against the general way (the
 * reader's no_fast switch):
 *  - random files of UTF-8 records, mostly "N. WWWWWWWWWWWW WWWWWWWWWWWW"
 *    lines, with moves of every piece name (traditional and simplified),
 *    full-width and ASCII digits, 前/後/中, words of 12 bytes that are
 *    no move or hold 2-byte characters, a Unicode blank, U+FEFF, bad
 *    bytes or a NUL, 8-byte prefixes of a 12-byte move (the Big5 run's
 *    word length), CRLF, tabs, double spaces, results, open comments and
 *    variations, a BOM; given as UTF-8 and detected;
 *  - a move at every offset around the input's 64 KiB window boundary;
 *  - the ccpd corpus files read from ../shared, converted from Big5 to
 *    UTF-8 (masters.pgn.gz: its first records);
 * each file read with and without the fast paths, game by game, field by
 * field (same_game: diagnostics and their places included), the raw
 * bytes of the records giving the file back; and the nodes' descs: each
 * one the fast path gives is xq_move_desc of its text, and most moves of
 * a long file get one (so that the replay decodes none of them again);
 *  - the cache itself: words of every set found after the growth from
 *    4,096 to 32,768 slots, an empty slot never taken for a word of zero
 *    bytes, a UTF-8 cache never made for an input of another encoding.
 *
 * The reader's and the input's sources are included so that no_fast and
 * the static helpers can be reached. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#include "input.c"
#include "pgn_read.c"
#include "reader_both.h"

#include <unistd.h>
#include <zlib.h>

#ifndef XQ_SHARED
#define XQ_SHARED "../shared"
#endif

static uint64_t rng_state = 0x243F6A8885A308D3u;
static uint32_t rnd(uint32_t n)
{
    return xqt_xorshift(&rng_state, n);
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- files --------------------------------------------------------------- */

/* Moves of 12 bytes in UTF-8 (four 3-byte characters): every piece name,
 * traditional and simplified, full-width digits, 前/後/中. */
static const char *const MOVES12[] = {
    "炮二平五", "馬８進７", "車一平二", "兵七進一", "帥五平四", "相三進五", "傌二進三", "俥九平八",
    "卒３進１", "前炮平四", "後車進二", "中兵進一", "仕四進五", "將５平４", "士４進５", "象３進５",
    "砲８平５", "包２進４", "帅五进一", "马８进７", "车一平二", "将５平６", "后马进六", "相七退九",
    "炮２平５", "兵１進１", "前兵平四", "後炮退二", "中卒平４", "傌八進七", "俥一進一", "炮八進二",
    "炮二平六", "馬８進９", "車一進一", "車一平三", /* (first 8 bytes of others) */
};
/* Other words: other lengths (ASCII digits, ICCS, WXF, 3 or 5
 * characters, suffixes), and 12-byte words that are no move or no word:
 * 2-byte characters, ASCII, a Unicode blank, U+FEFF, bad sequences. */
static const char *const OTHER[] = {
    "h2e2", "C2.5", "炮二平", "前馬進三七", "炮二平五!", "兵五進一?", "马8进7", "炮2平5",
    "象棋很好", "abcdefghijkl", "éééééé", "炮\xE3\x80\x80平五", "\xEF\xBB\xBF炮二平",
    "炮二平\xFF\xFF\xFF", "炮二平\xE4\xBA", "炮\xED\xA0\x80平五", "炮二\xC0\x80\xC0\x80平",
    "炮二\xE5\xB9", "炮二平五炮", "１－０", "炮二平五!?", "ｈ２ｅ２", "炮二平五\xC2\xA0",
};

static const char *move(void)
{
    return rnd(20) ? MOVES12[rnd(COUNT(MOVES12))] : OTHER[rnd(COUNT(OTHER))];
}

static void eol(out_file *o)
{
    put(o, rnd(25) ? "\n" : "\r\n");
}

static void sep(out_file *o)
{
    switch (rnd(40)) {
    case 0: put(o, "  "); break;
    case 1: put(o, "\t"); break;
    case 2: put(o, "\xE3\x80\x80"); break;   /* U+3000 */
    default: put(o, " "); break;
    }
}

static void record(out_file *o)
{
    put(o, "[Event \"象棋 UTF-8\"]\n");
    if (rnd(3)) put(o, "[Red \"紅方\"]\n");
    if (rnd(4)) put(o, "\n");
    int lines = rnd(20) == 0 ? 150 + (int)rnd(300) : (int)rnd(60);
    int open = rnd(25) == 0 ? (int)rnd((uint32_t)lines + 1) : -1;
    for (int i = 0; i < lines; i++) {
        char num[32];
        snprintf(num, sizeof num, rnd(60) ? "%d. " : "%d.", i + 1);
        put(o, num);
        put(o, move());
        if (rnd(8) == 0) {   /* a last line of one move, then maybe more */
            eol(o);
            continue;
        }
        sep(o);
        put(o, move());
        if (i == open) put(o, rnd(2) ? " (" : " {");
        if (rnd(60) == 0) put_raw(o, "\0", 1);
        eol(o);
    }
    static const char *const R[] = {"1-0", "0-1", "1/2-1/2", "*", "1-0 ", "紅勝", "1-0 x"};
    if (rnd(6)) {
        put(o, R[rnd(COUNT(R))]);
        eol(o);
    }
    if (rnd(3)) put(o, "\n");
}

/* Read the file at path with the fast paths, as UTF-8: every desc it
 * gives is its text's; adds the nodes and those with a desc. */
static void check_descs(const char *path, uint64_t *nodes, uint64_t *known)
{
    xq_read_options opt = {.encoding = XQ_ENC_UTF8, .format = XQ_FMT_PGN};
    char err[256];
    xq_reader *r = xq_reader_open(path, &opt, err, sizeof err);
    assert_non_null(r);
    xq_game g;
    xq_game_init(&g);
    while (xq_reader_next(r, &g) == 1) {
        for (size_t i = 0; i < g.main.count; i++) {
            const xq_node *nd = &g.main.nodes[i];
            size_t len = nd->text_len ? nd->text_len : strlen(nd->text);
            ++*nodes;
            if (!nd->desc) continue;
            ++*known;
            if (nd->desc != xq_move_desc(nd->text, len))
                fail_msg("'%s': desc %#x, its text's %#x", nd->text, nd->desc,
                         xq_move_desc(nd->text, len));
        }
    }
    if (r->words) {
        assert_true(r->words_utf8);
        for (size_t i = 0; i <= r->words_mask; i++) {   /* texts: their bytes, then zeros */
            const struct word_slot *s = &r->words[i];
            if (!s->len) continue;
            assert_int_equal(s->len, U8_WORD);
            assert_memory_equal(s->text, &s->key, 8);
            for (size_t k = s->len; k < 16; k++) assert_int_equal(s->text[k], 0);
            assert_ptr_equal(u8_probe(r->words, r->words_mask, s->key, u8_tail(s)), s);
        }
    }
    xq_game_free(&g);
    xq_reader_close(r);
}

/* The bytes of o (freed here) read both ways as UTF-8 and detected, and
 * their descs checked; adds to *t, *nodes, *known. */
static void check_file(out_file *o, xqt_both *t, uint64_t *nodes, uint64_t *known)
{
    char path[64];
    save_tmp(o->p ? o->p : "", o->len, path);
    xqt_read_both(path, XQ_ENC_UTF8, o, t);
    xqt_read_both(path, XQ_ENC_AUTO, o, t);
    check_descs(path, nodes, known);
    unlink(path);
    free(o->p);
    o->p = NULL;
    o->len = o->cap = 0;
}

static void test_random_files(void **state)
{
    (void)state;
    uint64_t nodes = 0, known = 0;
    size_t with_words = 0;
    for (int iter = 0; iter < 24; iter++) {
        out_file o = {.cd = (iconv_t)-1};
        if (iter % 6 == 5) put_raw(&o, "\xEF\xBB\xBF", 3);   /* a BOM */
        int n = 40 + (int)rnd(iter % 4 == 0 ? 400 : 80);
        for (int i = 0; i < n; i++) record(&o);
        xqt_both t = {0};
        check_file(&o, &t, &nodes, &known);
        with_words += t.words;
    }
    print_message("%llu nodes, %llu with a desc\n", (unsigned long long)nodes,
                  (unsigned long long)known);
    assert_true(with_words >= 20);
    assert_true(known > nodes / 2);
}

/* A move at every offset around the end of the first 64 KiB (the input's
 * first chunk and fast_lines' window): records of plain lines after k
 * bytes of a tag value. */
static void test_window_boundary(void **state)
{
    (void)state;
    uint64_t nodes = 0, known = 0;
    for (unsigned k = 0; k < 40; k++) {
        out_file o = {.cd = (iconv_t)-1};
        put(&o, "[Event \"");
        for (unsigned i = 0; i < k; i++) put(&o, "a");
        put(&o, "\"]\n\n");
        for (int rec = 0; rec < 6; rec++) {
            if (rec) put(&o, "\n[Event \"x\"]\n\n");
            for (int i = 0; i < 400; i++) {
                char num[32];
                snprintf(num, sizeof num, "%d. ", i + 1);
                put(&o, num);
                put(&o, MOVES12[(unsigned)(i + rec) % COUNT(MOVES12)]);
                put(&o, " ");
                put(&o, MOVES12[(unsigned)(3 * i + 1) % COUNT(MOVES12)]);
                put(&o, "\n");
            }
            put(&o, "1-0\n");
        }
        xqt_both t = {0};
        check_file(&o, &t, &nodes, &known);
        assert_true(t.words);
    }
    print_message("%llu nodes, %llu with a desc\n", (unsigned long long)nodes, (unsigned long long)known);
    assert_true(known > nodes * 3 / 4);   /* (the first record of a file: before the cache) */
}

/* ---- the corpus ------------------------------------------------------------ */

/* The first max bytes (whole lines) of the gzip file path, converted from
 * Big5 (CP950) to UTF-8 into o; false when the file is missing. */
static bool big5_gz_as_utf8(const char *path, size_t max, out_file *o)
{
    gzFile z = gzopen(path, "rb");
    if (!z) return false;
    size_t cap = max + 1, n = 0;
    char *raw = malloc(cap);
    assert_non_null(raw);
    int got;
    while (n < max && (got = gzread(z, raw + n, (unsigned)(max - n > 1 << 20 ? 1 << 20 : max - n))) > 0)
        n += (size_t)got;
    gzclose(z);
    while (n && raw[n - 1] != '\n') n--;   /* whole lines */
    iconv_t cd = iconv_open("UTF-8", "CP950");
    assert_true(cd != (iconv_t)-1);
    o->cap = 4 * n + 16;
    o->p = malloc(o->cap);
    assert_non_null(o->p);
    char *in = raw, *out = o->p;
    size_t inleft = n, outleft = o->cap;
    while (inleft) {
        if (iconv(cd, &in, &inleft, &out, &outleft) == (size_t)-1) {   /* a bad byte: as it is */
            *out++ = *in++;
            inleft--;
            outleft--;
        }
    }
    o->len = (size_t)(out - o->p);
    iconv_close(cd);
    free(raw);
    return true;
}

static void test_corpus(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        size_t max;
    } F[] = {
        {"masters.pgn.gz", 6u << 20}, {"endgames.pgn.gz", 64u << 20},
        {"middlegames.pgn.gz", 64u << 20}, {"openings.pgn.gz", 64u << 20},
        {"tactics.pgn.gz", 64u << 20}, {"mating-drills.pgn.gz", 64u << 20},
    };
    uint64_t nodes = 0, known = 0;
    size_t files = 0;
    for (size_t i = 0; i < COUNT(F); i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/corpus/ccpd/%s", XQ_SHARED, F[i].name);
        out_file o = {.cd = (iconv_t)-1};
        if (!big5_gz_as_utf8(path, F[i].max, &o)) continue;
        xqt_both t = {0};
        check_file(&o, &t, &nodes, &known);
        files++;
    }
    if (!files) {
        print_message("skipped: no %s/corpus/ccpd\n", XQ_SHARED);
        skip();
    }
    print_message("%zu files, %llu nodes, %llu with a desc\n", files, (unsigned long long)nodes,
                  (unsigned long long)known);
    assert_true(known > nodes / 2);
}

/* ---- the cache ------------------------------------------------------------ */

/* A reader of a small UTF-8 file (its input for words_size's encoding
 * test), in encoding enc. */
static xq_reader *small_reader(xq_encoding enc, char path[64])
{
    static const char text[] = "[Event \"x\"]\n\n1. 炮二平五 馬８進７\n";
    save_tmp(text, sizeof text - 1, path);
    xq_read_options opt = {.encoding = enc, .format = XQ_FMT_PGN};
    char err[256];
    xq_reader *r = xq_reader_open(path, &opt, err, sizeof err);
    assert_non_null(r);
    return r;
}

/* words_size on a UTF-8 input: a UTF-8 cache at WORDS_AFTER moves, grown
 * at WORDS_GROW with every word it held found again (u8_probe), the
 * words of other tails not found; words of every set. */
static void test_words_grow(void **state)
{
    (void)state;
    char path[64];
    xq_reader *r = small_reader(XQ_ENC_UTF8, path);
    r->moves = WORDS_AFTER - 1;
    words_size(r);
    assert_null(r->words);
    r->moves = WORDS_AFTER;
    words_size(r);
    assert_non_null(r->words);
    assert_true(r->words_utf8);
    assert_int_equal(r->words_mask, WORD_SLOTS_FIRST - 1);
    /* the words of an empty slot's bytes are no word, in either table
     * size (u8_probe_at tests no len): (0, 0) is in set 0, whose key is
     * WORD_KEY_EMPTY0, and (1, 0) in a set other than 0 */
    assert_int_equal(u8_word_hash(0, 0) & (WORD_SLOTS - 1) & ~(size_t)1, 0);
    assert_int_not_equal(u8_word_hash(1, 0) & (WORD_SLOTS_FIRST - 1) & ~(size_t)1, 0);
    assert_int_not_equal(u8_word_hash(1, 0) & (WORD_SLOTS - 1) & ~(size_t)1, 0);
    for (uint64_t w = 0; w < 2; w++) assert_null(u8_probe(r->words, r->words_mask, w, 0));
    static uint64_t keys[3000];
    static uint32_t tails[3000];
    size_t n = 0;
    for (size_t i = 0; i < 3000; i++) {
        uint64_t w = (uint64_t)rnd(1u << 30) << 32 | rnd(1u << 30);
        uint32_t t = rnd(1u << 30) | 1;
        if (u8_probe(r->words, r->words_mask, w, t)) continue;
        struct word_slot *v = u8_victim(r->words, r->words_mask, w, t);
        v->key = w;
        memset(v->text, 0, 16);
        memcpy(v->text, &w, 8);
        memcpy(v->text + 8, &t, 4);
        v->len = U8_WORD;
        v->chars = (uint32_t)(w % 7);
        v->desc = (uint16_t)t;
        assert_ptr_equal(u8_probe(r->words, r->words_mask, w, t), v);
    }
    for (size_t i = 0; i <= r->words_mask; i++)   /* what the small table kept */
        if (r->words[i].len) {
            keys[n] = r->words[i].key;
            tails[n++] = u8_tail(&r->words[i]);
        }
    assert_true(n > 2000);
    r->file_moves = WORDS_GROW;
    words_size(r);
    assert_int_equal(r->words_mask, WORD_SLOTS - 1);
    for (size_t i = 0; i < n; i++) {
        const struct word_slot *s = u8_probe(r->words, r->words_mask, keys[i], tails[i]);
        assert_non_null(s);
        assert_int_equal(s->chars, (uint32_t)(keys[i] % 7));
        assert_int_equal(s->desc, (uint16_t)tails[i]);
        assert_null(u8_probe(r->words, r->words_mask, keys[i], tails[i] ^ 0x100));
    }
    /* a word of the same first 8 bytes and another tail in the same set
     * is not found (the tail is part of the key) */
    for (size_t i = 0; i < 200; i++) {
        size_t set = u8_word_hash(keys[i], tails[i]) & r->words_mask & ~(size_t)1;
        uint32_t t = tails[i];
        do t = rnd(1u << 30) | 1;
        while (t == tails[i] || (u8_word_hash(keys[i], t) & r->words_mask & ~(size_t)1) != set);
        assert_null(u8_probe(r->words, r->words_mask, keys[i], t));
    }
    /* an empty slot is no word, whatever the bytes (0 and 1: the keys of
     * the empty slots) */
    for (uint64_t w = 0; w < 2; w++) assert_null(u8_probe(r->words, r->words_mask, w, 0));
    xq_reader_close(r);
    unlink(path);
}

/* No UTF-8 cache for an input that is not UTF-8 (a Big5 input's cache
 * waits for its pair table), nor before WORDS_AFTER moves. */
static void test_words_other_encodings(void **state)
{
    (void)state;
    char path[64];
    xq_reader *r = small_reader(XQ_ENC_BIG5, path);
    r->moves = WORDS_AFTER;
    words_size(r);
    assert_null(r->words);
    xq_reader_close(r);
    unlink(path);
    r = small_reader(XQ_ENC_GBK, path);
    r->moves = WORDS_AFTER;
    words_size(r);
    assert_null(r->words);
    xq_reader_close(r);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_files),
        cmocka_unit_test(test_window_boundary),
        cmocka_unit_test(test_corpus),
        cmocka_unit_test(test_words_grow),
        cmocka_unit_test(test_words_other_encodings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
