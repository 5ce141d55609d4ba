/* test_line_memo.c - the memo of replayed main lines (line_memo.c) and
 * the replay that takes lines from it (xq_replay_game_memo).
 *
 * The claim under test: with a memo, whatever it holds, a game's replay
 * is exactly the replay without one (memo NULL), field by field, finding
 * by finding and node->move by node->move; and the memo is a correct
 * bounded map (found after add, overwritten entries gone, equal hashes
 * with different keys kept apart, oversized entries refused, empty when
 * used again after xq_line_memo_free, xq_line_memo_prefetch only a hint).  A check
 * on memo->lines.head shows that lines are really kept and taken back
 * (a test that the memo serves, not only that it does no harm).
 * Records: the first master games of ../shared (skipped without them)
 * and made-up ones in UTF-8 and GBK, each with its nodes' descs as the
 * reader left them (it decodes only the GBK/Big5 words of its word
 * cache), all 0 (unknown: the replay decodes them, and so does the key)
 * and all decoded; and two threads sharing one memo of main lines, as a
 * pipeline's threads do.  Under no_moves (xq-validate's options) a line
 * taken from the memo leaves the nodes' moves as they were (checked: as
 * cleared, every other field the same), and a game with variations is
 * played (its moves the same as without memo). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pthread.h>
#include <cmocka.h>

#include "test_util.h"

#include "line_memo.h"
#include "pgn_read.h"
#include "replay.h"

/* ==== the memo itself ==================================================== */

static uint64_t seed = 0x1234567887654321ull;

static unsigned rnd(unsigned n)
{
    return xqt_rnd(&seed, n);
}

/* The bytes of entry i (key or value): a pattern from i and the role, so
 * a value handed out for another key shows as a mismatch. */
static void fill(unsigned char *p, size_t n, uint32_t i, unsigned role)
{
    uint64_t s = (uint64_t)i * 0x9E3779B97F4A7C15ull + role + 1;
    /* 8 bytes a step: the wrap test writes tens of MiB */
    for (size_t k = 0; k < n; k += 8) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t w = s ^ (s >> 29);
        memcpy(p + k, &w, n - k < 8 ? n - k : 8);
    }
}

/* Add entry i (key of klen bytes, value of vlen), written in full;
 * false when refused. */
static bool add_entry(xq_line_memo *m, uint64_t hash, uint32_t i, size_t klen, size_t vlen)
{
    unsigned char key[512];
    assert_true(klen <= sizeof key);
    fill(key, klen, i, 0);
    unsigned char *v = xq_line_memo_add(m, hash, key, klen, vlen);
    if (!v) return false;
    fill(v, vlen, i, 1);
    return true;
}

/* Find entry i: NULL, or its own value exactly (never another's). */
static bool find_entry(const xq_line_memo *m, uint64_t hash, uint32_t i, size_t klen, size_t vlen)
{
    unsigned char key[512], want[4096];
    assert_true(klen <= sizeof key && vlen <= sizeof want);
    fill(key, klen, i, 0);
    size_t got_len = 12345;
    const unsigned char *v = xq_line_memo_find(m, hash, key, klen, &got_len);
    if (!v) return false;
    assert_int_equal(got_len, vlen);
    fill(want, vlen, i, 1);
    assert_memory_equal(v, want, vlen);
    return true;
}

/* Random keys and values: each found right after its add, and all of
 * them later (far from filling the ring, buckets permitting: an entry
 * pushed out of its 2-way bucket by two newer ones is not found, never
 * found wrong).  Keys that differ only in their last byte or length are
 * told apart. */
static void memo_round_trips(void **state)
{
    (void)state;
    xq_line_memo m = {0};
    size_t dummy;
    assert_null(xq_line_memo_find(&m, 1, "x", 1, &dummy));   /* empty: nothing, no ring yet */
    assert_null(m.ring);
    enum { N = 3000 };
    static size_t klen[N], vlen[N];
    static uint64_t hash[N];
    for (uint32_t i = 0; i < N; i++) {
        klen[i] = 8 + rnd(300);   /* 8 bytes at least: every entry's key is its own */
        vlen[i] = rnd(2000);   /* a value may be empty */
        unsigned char key[512];
        fill(key, klen[i], i, 0);
        hash[i] = xq_line_memo_hash(key, klen[i]);
        uint64_t before = m.head;
        assert_true(add_entry(&m, hash[i], i, klen[i], vlen[i]));
        assert_true(m.head > before);
        assert_true(find_entry(&m, hash[i], i, klen[i], vlen[i]));
    }
    int found = 0;
    for (uint32_t i = 0; i < N; i++) found += find_entry(&m, hash[i], i, klen[i], vlen[i]);
    /* 3,000 entries in 32,768 buckets of four: a bucket holds five only
     * rarely, so nearly all stay */
    assert_true(found >= N - 10);
    /* the same hash, a key one byte shorter or with its last byte changed: not found */
    unsigned char key[512];
    fill(key, klen[7], 7, 0);
    assert_null(xq_line_memo_find(&m, hash[7], key, klen[7] - 1, &dummy));
    key[klen[7] - 1] ^= 1;
    assert_null(xq_line_memo_find(&m, hash[7], key, klen[7], &dummy));
    /* the hash reads any alignment and length the same way */
    unsigned char buf[64 + 1];
    for (size_t len = 0; len <= 40; len++) {
        fill(buf + 1, len, (uint32_t)len, 2);
        unsigned char al[64];
        memcpy(al, buf + 1, len);
        assert_true(xq_line_memo_hash(al, len) == xq_line_memo_hash(buf + 1, len));
    }
    xq_line_memo_free(&m);
    assert_null(m.ring);
    assert_null(m.slot);
    assert_int_equal(m.head, 0);
    xq_line_memo_free(&m);   /* twice: harmless */
    xq_line_memo_free(NULL);
}

/* The memo freed and used again starts empty: its ring and table (one
 * fresh mapping: the table reads as zeros without clearing) hold nothing
 * of before.  xq_line_memo_prefetch is a hint: on a memo without
 * a table, with entries, shared or not, it changes nothing. */
static void memo_reuse_and_prefetch(void **state)
{
    (void)state;
    xq_line_memo m = {0};
    xq_line_memo_prefetch(&m, 12345);   /* no table yet: nothing */
    assert_null(m.ring);
    enum { N = 500 };
    static uint64_t hash[N];
    static size_t klen[N];
    for (int round = 0; round < 3; round++) {
        /* a memo used again finds nothing of before (the keys are
         * add_entry's, the same each round; so are the hashes) */
        if (round) {
            for (uint32_t i = 0; i < N; i++) assert_false(find_entry(&m, hash[i], i, klen[i], 24));
            assert_null(m.ring);
        }
        for (uint32_t i = 0; i < N; i++) {
            unsigned char key[64];
            klen[i] = 8 + i % 40;
            fill(key, klen[i], i, 0);
            hash[i] = xq_line_memo_hash(key, klen[i]);
            xq_line_memo_prefetch(&m, hash[i]);
            assert_true(add_entry(&m, hash[i], i, klen[i], 24));
        }
        assert_non_null(m.slot);
        for (uint32_t i = 0; i < N; i++) {
            xq_line_memo_prefetch(&m, hash[i]);
            assert_true(find_entry(&m, hash[i], i, klen[i], 24));
        }
        /* no slot of the table names an entry beyond the ones added */
        size_t used = 0;
        for (size_t s = 0; s < XQ_LINE_MEMO_SLOTS; s++) used += m.slot[s] != 0;
        assert_int_equal(used, N);
        xq_line_memo_free(&m);
        assert_null(m.ring);
    }
    /* a shared memo: prefetch does nothing, find and add as before */
    assert_true(xq_line_memo_share(&m));
    unsigned char key[16];
    fill(key, sizeof key, 9, 7);
    uint64_t h = xq_line_memo_hash(key, sizeof key);
    xq_line_memo_lock(&m);
    assert_true(add_entry(&m, h, 9, sizeof key, 10));
    xq_line_memo_unlock(&m);
    xq_line_memo_prefetch(&m, h);
    xq_line_memo_lock(&m);
    assert_true(find_entry(&m, h, 9, sizeof key, 10));
    xq_line_memo_unlock(&m);
    xq_line_memo_free(&m);
}

/* Many more entries than the ring holds (16 MiB): the ring wraps several
 * times; the last ones written (well within a ring's worth) are all
 * found, the first ones (overwritten) none, and whatever is found is
 * right.  Then the memo is freed and used again from empty. */
static void memo_wraps(void **state)
{
    (void)state;
    xq_line_memo m = {0};
    enum { N = 30000, KLEN = 200, VLEN = 2800 };   /* ~3 KiB an entry: 90 MiB, 5 rings and more */
    static uint64_t hash[N], at[N];
    for (int round = 0; round < 2; round++) {
        for (uint32_t i = 0; i < N; i++) {
            unsigned char key[KLEN];
            fill(key, KLEN, i, 0);
            hash[i] = xq_line_memo_hash(key, KLEN);
            at[i] = m.head;
            assert_true(add_entry(&m, hash[i], i, KLEN, VLEN));
        }
        assert_true(m.head > 4ull * XQ_LINE_MEMO_BYTES);
        int recent = 0, old = 0, recent_n = 0;
        for (uint32_t i = 0; i < N; i++) {
            bool f = find_entry(&m, hash[i], i, KLEN, VLEN);   /* right when found */
            if (m.head - at[i] > XQ_LINE_MEMO_BYTES) old += f;   /* overwritten: never */
            else if (m.head - at[i] < XQ_LINE_MEMO_BYTES / 2) {
                recent += f;
                recent_n++;
            }
        }
        assert_int_equal(old, 0);
        /* the newest half ring: found but for a bucket's fifth entry */
        assert_true(recent_n > 1500);
        assert_true(recent >= recent_n - recent_n / 50);
        xq_line_memo_free(&m);
        assert_int_equal(m.head, 0);
    }
}

/* Different keys filed under one hash (as a collision would): the
 * bucket keeps XQ_LINE_MEMO_WAYS; each lookup gives its own value or
 * NULL, never another's.  One key more under that hash: the oldest gives
 * way. */
static void memo_collisions(void **state)
{
    (void)state;
    xq_line_memo m = {0};
    enum { W = XQ_LINE_MEMO_WAYS };
    for (uint64_t h = 0; h < 200; h++) {
        uint64_t hash = (h * W) * 0x10001ull;   /* a bucket of its own, high bits set too */
        uint32_t first = (uint32_t)((W + 1) * h);
        /* W keys under one hash: all kept */
        for (uint32_t k = 0; k < W; k++) assert_true(add_entry(&m, hash, first + k, 16, 40 + k));
        for (uint32_t k = 0; k < W; k++) assert_true(find_entry(&m, hash, first + k, 16, 40 + k));
        /* same bucket and tag, another hash (no caller's: the hash is the
         * key's): the entry holds no hash, its key decides */
        assert_true(find_entry(&m, hash ^ 1, first, 16, 40));
        assert_false(find_entry(&m, hash ^ 1, first + W + 7, 16, 40));   /* another key: no */
        /* one more: the oldest gives way */
        assert_true(add_entry(&m, hash, first + W, 16, 40 + W));
        assert_false(find_entry(&m, hash, first, 16, 40));   /* pushed out */
        for (uint32_t k = 1; k <= W; k++) assert_true(find_entry(&m, hash, first + k, 16, 40 + k));
        /* the same key added again: the newest value is the one found */
        assert_true(add_entry(&m, hash, first + 1, 16, 41));
        assert_true(find_entry(&m, hash, first + 1, 16, 41));
    }
    /* hashes in the same bucket (they differ in the bucket's low bit only) */
    uint64_t h0 = 0xABCDE0ull, h1 = h0 | 1;
    assert_true(add_entry(&m, h0, 9001, 8, 8));
    assert_true(add_entry(&m, h1, 9002, 8, 8));
    assert_true(find_entry(&m, h0, 9001, 8, 8));
    assert_true(find_entry(&m, h1, 9002, 8, 8));
    assert_false(find_entry(&m, h1, 9003, 8, 8));   /* a key never added */
    /* the same bucket, another tag (the hash's top 24 bits): a key
     * filed under another hash is not looked at */
    assert_false(find_entry(&m, h0 | UINT64_C(1) << 63, 9001, 8, 8));
    xq_line_memo_free(&m);
}

/* An entry over an eighth of the ring is refused (NULL, nothing kept:
 * head unchanged); one just under is taken. */
static void memo_refuses_large(void **state)
{
    (void)state;
    xq_line_memo m = {0};
    const size_t eighth = XQ_LINE_MEMO_BYTES / 8;
    unsigned char key[16] = {1, 2, 3};
    assert_null(xq_line_memo_add(&m, 5, key, sizeof key, eighth));
    assert_null(xq_line_memo_add(&m, 5, key, sizeof key, SIZE_MAX / 2));
    assert_int_equal(m.head, 0);
    unsigned char *big = malloc(eighth + 1);
    assert_non_null(big);
    memset(big, 7, eighth + 1);
    assert_null(xq_line_memo_add(&m, 6, big, eighth + 1, 0));
    assert_int_equal(m.head, 0);
    size_t ok = eighth - sizeof key - 8;   /* head 8 bytes, padded to 8 */
    unsigned char *v = xq_line_memo_add(&m, 5, key, sizeof key, ok);
    assert_non_null(v);
    memset(v, 0x5A, ok);
    size_t got;
    const unsigned char *f = xq_line_memo_find(&m, 5, key, sizeof key, &got);
    assert_non_null(f);
    assert_int_equal(got, ok);
    assert_int_equal(f[0], 0x5A);
    assert_int_equal(f[ok - 1], 0x5A);
    uint64_t head = m.head;
    assert_null(xq_line_memo_add(&m, 5, key, sizeof key, ok + 1));   /* one byte over */
    assert_int_equal(m.head, head);
    assert_non_null(xq_line_memo_find(&m, 5, key, sizeof key, &got));   /* the refusal kept it */
    free(big);
    xq_line_memo_free(&m);
}

/* ==== the replay with and without the memo =============================== */

/* The option sets the replays are compared under. */
enum { NOPT = 10 };
static xq_replay_options opts[NOPT];

static void opts_init(void)
{
    for (int i = 0; i < NOPT; i++) xq_replay_options_default(&opts[i]);
    opts[0].no_warning_text = true;   /* the tools' default: no text, lines kept */
    /* opts[1]: warning texts wanted (tandem warnings are then not kept) */
    opts[2].strict = true;
    opts[2].no_warning_text = true;
    opts[3].rules = XQ_RULES_AXF;
    opts[3].check_cap = 10;
    opts[3].no_warning_text = true;
    opts[4].move_limit = 0;
    opts[4].no_warning_text = true;
    opts[5].move_limit = 5;   /* reached at ply 10 of a game without capture: AFTER_END after */
    opts[5].no_warning_text = true;
    opts[6].repetitions = 2;
    opts[6].no_warning_text = true;
    opts[7].move_limit = 3;
    opts[7].no_warning_text = false;
    /* xq-validate's: no warning text, no moves read after the replay (a
     * line from the memo leaves them as they were) */
    opts[8].no_warning_text = true;
    opts[8].no_moves = true;
    opts[9].rules = XQ_RULES_AXF;
    opts[9].check_cap = 10;
    opts[9].repetitions = 2;
    opts[9].no_moves = true;
}

/* What a comparison found, for the report of a failure. */
static char where[256];

#define SAME_INT(f)                                                                                  \
    do {                                                                                             \
        if ((long long)a->f != (long long)b->f) {                                                    \
            snprintf(why, sizeof why, #f ": %lld vs %lld", (long long)a->f, (long long)b->f);        \
            return why;                                                                              \
        }                                                                                            \
    } while (0)
#define SAME_STR(f)                                                                                  \
    do {                                                                                             \
        if (strcmp(a->f, b->f)) {                                                                    \
            snprintf(why, sizeof why, #f ": \"%.100s\" vs \"%.100s\"", a->f, b->f);                  \
            return why;                                                                              \
        }                                                                                            \
    } while (0)

/* The first field in which two positions differ, fboard and the masks'
 * consistency included, or NULL. */
static const char *position_diff(const xq_position *a, const xq_position *b)
{
    const char *d = xqt_position_diff(a, b);
    if (d) return d;
    if (memcmp(a->fboard, b->fboard, sizeof a->fboard)) return "fboard";
    if (xq_position_masks_ok(a) != xq_position_masks_ok(b)) return "masks_ok";
    return NULL;
}

/* The first field in which two replays differ (named, with both values),
 * or NULL when they are the same in every field. */
static const char *replay_diff(const xq_replay *a, const xq_replay *b)
{
    static char why[512];
    SAME_INT(status);
    SAME_INT(termination);
    SAME_INT(result_tag);
    SAME_INT(result_board);
    SAME_INT(plies);
    SAME_INT(bad_ply);
    SAME_STR(bad_move);
    SAME_INT(bad_number);
    SAME_INT(bad_side);
    SAME_INT(bad_line);
    SAME_INT(bad_col);
    SAME_STR(reason);
    SAME_STR(fen_before);
    SAME_INT(error_count);
    SAME_INT(warning_count);
    SAME_INT(nfindings);
    for (int i = 0; i < a->nfindings; i++) {
        const xq_finding *fa = &a->findings[i], *fb = &b->findings[i];
        if (fa->kind != fb->kind || fa->severity != fb->severity || fa->ply != fb->ply || fa->line != fb->line ||
            fa->col != fb->col || strcmp(fa->message, fb->message)) {
            snprintf(why, sizeof why, "finding %d: kind %d/%d severity %d/%d ply %d/%d at %u:%u/%u:%u \"%.150s\" vs \"%.150s\"",
                     i, (int)fa->kind, (int)fb->kind, (int)fa->severity, (int)fb->severity, fa->ply, fb->ply,
                     (unsigned)fa->line, (unsigned)fa->col, (unsigned)fb->line, (unsigned)fb->col, fa->message,
                     fb->message);
            return why;
        }
    }
    const char *d = position_diff(&a->start, &b->start);
    if (d) {
        snprintf(why, sizeof why, "start: %s", d);
        return why;
    }
    if ((d = position_diff(&a->final, &b->final))) {
        char fa[XQ_FEN_MAX], fb[XQ_FEN_MAX];
        xq_fen_write(&a->final, fa, sizeof fa);
        xq_fen_write(&b->final, fb, sizeof fb);
        snprintf(why, sizeof why, "final: %s (%s vs %s)", d, fa, fb);
        return why;
    }
    SAME_INT(repeated);
    /* a verdict (read only when repeated: replay.h) is written whole by
     * the judge, which zeroes it first, or taken whole from the memo into
     * a zeroed one: the same bytes */
    if (a->repeated && memcmp(&a->repetition, &b->repetition, sizeof a->repetition)) {
        snprintf(why, sizeof why, "repetition: \"%.200s\" vs \"%.200s\"", a->repetition.reason, b->repetition.reason);
        return why;
    }
    return NULL;
}

/* A game's main-line moves, saved, then cleared (so that a replay that
 * leaves a node's move unwritten shows). */
static void moves_take(xq_game *g, xq_move *save)
{
    for (size_t i = 0; i < g->main.count; i++) {
        save[i] = g->main.nodes[i].move;
        g->main.nodes[i].move = XQ_MOVE_NONE;
    }
}

static void fail_with(const xq_game *g, const char *what, const char *d)
{
    const char *ev = xq_game_tag(g, "Event");
    fprintf(stderr, "memo and no memo differ (%s), game at line %u (Event \"%s\"): %s\n", where,
            g->main.count ? (unsigned)g->main.nodes[0].line : 0u, ev ? ev : "", what);
    fprintf(stderr, "  %s\n", d);
    fail();
}

/* Tallies of the memo's use over a run. */
typedef struct {
    int games;
    int added;      /* first replays with memo that kept their line (head moved) */
    int repeated;   /* replays that ended on a repetition (their verdicts compared too) */
    int bare;       /* replays with memo under no_moves that left every move as it was (a hit) */
} tally_memo;

/* Do some of g's main-line nodes have variations? */
static bool has_variations(const xq_game *g)
{
    for (size_t i = 0; i < g->main.count; i++)
        if (g->main.nodes[i].variation_count) return true;
    return false;
}

/* Are the n moves all XQ_MOVE_NONE (as moves_take left them)? */
static bool all_none(const xq_move *m, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (m[i] != XQ_MOVE_NONE) return false;
    return true;
}

/* Replay g without memo (A), with memo (B) and again with memo (B2: a
 * hit when B kept the line): A, B and B2 must be the same in every field
 * and every main-line move; under opt->no_moves a replay with memo may
 * instead leave every move as it was (none: a line taken from the memo),
 * but not a game with variations (check_branch needs the moves: played). */
static void compare_game(xq_game *g, const xq_replay_options *opt, xq_replay_memo *memo, tally_memo *t)
{
    static xq_replay a, b;
    size_t n = g->main.count;
    xq_move *ma = malloc((n + 1) * sizeof *ma), *mb = malloc((n + 1) * sizeof *mb);
    assert_non_null(ma);
    assert_non_null(mb);
    moves_take(g, ma);   /* (readers leave them NONE; a memo hit must write them all) */
    xq_replay_game(g, opt, &a);
    moves_take(g, ma);
    bool kept_first = false;
    for (int pass = 0; pass < 2; pass++) {
        uint64_t head = memo->lines.head;
        xq_replay_game_memo(g, opt, memo, &b);
        bool kept = memo->lines.head != head;
        moves_take(g, mb);
        const char *d = replay_diff(&a, &b);
        if (d) fail_with(g, pass ? "second replay with memo" : "first replay with memo", d);
        bool bare = opt->no_moves && n && !has_variations(g) && all_none(mb, n);
        t->bare += bare;
        for (size_t i = 0; i < n && !bare; i++)
            if (ma[i] != mb[i]) {
                char m[96];
                snprintf(m, sizeof m, "node %zu (\"%s\") move %d vs %d", i, g->main.nodes[i].text, (int)ma[i],
                         (int)mb[i]);
                fail_with(g, pass ? "second replay with memo" : "first replay with memo", m);
            }
        if (pass == 0) {
            t->added += kept;
            kept_first = kept;
        } else if (kept_first && kept) {
            /* the line the first replay kept was not found by the second
             * (nothing came between them) */
            fail_with(g, "second replay with memo", "kept again: not found");
        }
    }
    for (size_t i = 0; i < n; i++) g->main.nodes[i].move = ma[i];
    t->games++;
    t->repeated += a.repeated;
    free(ma);
    free(mb);
}

/* How the main line's descs are given to the replay: as the reader left
 * them (it decodes only some words: GBK and Big5 words of its word
 * cache), all 0 (unknown: the key holds the texts), or all decoded (the
 * key holds the full forms' descs).  The replay must give the same in
 * each way; node.desc is a pure function of the text (game.h). */
enum { DESC_AS_READ, DESC_NONE, DESC_ALL, DESC_MODES };

static void descs_set(xq_game *g, int mode)
{
    for (size_t i = 0; i < g->main.count; i++) {
        xq_node *nd = &g->main.nodes[i];
        if (mode == DESC_NONE) nd->desc = 0;
        else if (mode == DESC_ALL) nd->desc = xq_move_desc(nd->text, nd->text_len ? nd->text_len : strlen(nd->text));
    }
}

/* Every record of path (the first max) under every option set, all with
 * one memo (the key holds the options: one memo serves them all), its
 * descs as mode says. */
static void compare_file(const char *path, int max, int mode, xq_replay_memo *memo, tally_memo *t)
{
    xq_reader *rd = xqt_reader_open(path);
    xq_game g;
    xq_game_init(&g);
    for (int i = 0; i < max && xq_reader_next(rd, &g) == 1; i++) {
        descs_set(&g, mode);
        for (int o = 0; o < NOPT; o++) {
            snprintf(where, sizeof where, "%s, record %d, options %d, descs %d", path, i + 1, o, mode);
            compare_game(&g, &opts[o], memo, t);
        }
    }
    xq_game_free(&g);
    xq_reader_close(rd);
}

/* The master games' path (the test is skipped without them), the
 * option sets made. */
static const char *masters_path(void)
{
    const char *path = XQ_SHARED "/corpus/ccpd/masters.pgn.gz";
    skip_without_shared(path);
    opts_init();
    return path;
}

/* The first 1,500 master games (Big5, many of them twice, 前/後 moves
 * whose desc is not a full form): with and without memo the same. */
static void masters_agree(void **state)
{
    (void)state;
    const char *path = masters_path();
    xq_replay_memo memo = {0};
    tally_memo t = {0};
    compare_file(path, 1500, DESC_AS_READ, &memo, &t);
    assert_int_equal(t.games, 1500 * NOPT);
    fprintf(stderr, "masters: %d replays, %d lines kept, %d with a repetition\n", t.games, t.added, t.repeated);
    /* most lines are kept (every move played, findings without text) */
    assert_true(t.added > t.games / 3);
    /* a second pass over the same games: the lines are in the memo
     * (~1,500 x 8 entries of ~500 bytes do not wrap the ring), hardly
     * anything is added, and the results are still those of no memo */
    tally_memo t2 = {0};
    compare_file(path, 1500, DESC_AS_READ, &memo, &t2);
    /* the rest: lines pushed out of a bucket by two newer ones (12,000
     * entries in 32,768 buckets of four) */
    fprintf(stderr, "masters, second pass: %d lines kept again\n", t2.added);
    assert_true(t2.added < t.added / 20);
    /* under the two no_moves option sets most second replays take their
     * line without its moves (all but lines pushed out, and games with
     * variations) */
    fprintf(stderr, "masters, second pass: %d replays left the moves as they were\n", t2.bare);
    assert_true(t2.bare > 2 * 1500 && t2.bare <= 2 * 2 * 1500);   /* two option sets, two replays a game */
    xq_replay_memo_free(&memo);
    xq_replay_memo_free(&memo);   /* twice: harmless */
}

/* ---- made-up records ----------------------------------------------------- */

/* One main line M, used under several tags, places and spellings. */
#define M1A "1. 炮二平五 馬８進７ 2. 馬二進三 車９平８\n"
#define M1B "3. 車一平二 馬２進３ 4. 兵七進一 卒７進１ 5. 車二進六 砲８平９ 6. 車二平三 砲９退１\n"
#define M1 M1A M1B
/* two red cannons on file 2: 3. 炮二進二 can only be the front one's, 4.
 * 炮二進一 only the rear one's (the front one would take without a screen) */
#define TANDEM "1. 炮二進二 馬８進７ 2. 炮八平二 車９平８ 3. 炮二進二 車８進１ 4. 炮二進一 卒７進１\n"
/* horses out and back: the start stands again after plies 4 and 8 */
#define REP "1. 馬二進三 馬８進７ 2. 馬三退二 馬７退８ 3. 馬二進三 馬８進７ 4. 馬三退二 馬７退８\n"

static const char made_up[] =
    "[Game \"Chinese Chess\"]\n[Event \"base\"]\n[Result \"*\"]\n\n" M1 "*\n\n"
    "[Game \"Chinese Chess\"]\n[Event \"base again, other tags, other lines\"]\n[Red \"x\"]\n[Black \"y\"]\n"
    "[Result \"*\"]\n\n\n\n" M1A "\n  " M1B "*\n\n"
    "[Event \"base, FEN spelled short\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w\"]\n\n"
    M1 "*\n\n"
    "[Event \"base, FEN spelled long\"]\n"
    "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n\n" M1 "*\n\n"
    "[Event \"base, FEN start position with other counters\"]\n"
    "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 3 7\"]\n\n" M1 "*\n\n"
    "[Event \"base, FEN not the start (a soldier missing)\"]\n"
    "[FEN \"rnbakabnr/9/1c5c1/2p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n\n" M1 "*\n\n"
    "[Event \"base with variations, one of them illegal\"]\n\n"
    "1. 炮二平五 (1. 兵七進一 卒７進１) 馬８進７ 2. 馬二進三 (2. 相三進三) 車９平８\n" M1B "*\n\n"
    "[Event \"base with variations again\"]\n\n"
    "1. 炮二平五 (1. 兵七進一 卒７進１) 馬８進７ 2. 馬二進三 (2. 相三進三) 車９平８\n" M1B "*\n\n"
    "[Event \"base in simplified characters\"]\n\n"
    "1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 车一平二 马２进３ 4. 兵七进一 卒７进１ 5. 车二进六 炮８平９ "
    "6. 车二平三 炮９退１ *\n\n"
    "[Event \"base in half-width digits\"]\n\n"
    "1. 炮二平五 馬8進7 2. 馬二進三 車9平8 3. 車一平二 馬2進3 4. 兵七進一 卒7進1 5. 車二進六 砲8平9 "
    "6. 車二平三 砲9退1 *\n\n"
    "[Event \"base in simplified characters, half-width digits\"]\n\n"
    "1. 炮二平五 马8进7 2. 马二进三 车9平8 3. 车一平二 马2进3 4. 兵七进一 卒7进1 5. 车二进六 炮8平9 "
    "6. 车二平三 炮9退1 *\n\n"
    "[Event \"tandem\"]\n\n" TANDEM "*\n\n"
    "[Event \"tandem again\"]\n[Round \"2\"]\n\n\n" TANDEM "*\n\n"
    "[Event \"tandem in simplified characters, half-width\"]\n\n"
    "1. 炮二进二 马8进7 2. 炮八平二 车9平8 3. 炮二进二 车8进1 4. 炮二进一 卒7进1 *\n\n"
    "[Event \"tandem with 前/後\"]\n\n"
    "1. 炮二進二 馬８進７ 2. 炮八平二 車９平８ 3. 前炮進二 車８進１ 4. 後炮進一 卒７進１ *\n\n"
    "[Event \"tandem with 前/后 simplified\"]\n\n"
    "1. 炮二进二 马８进７ 2. 炮八平二 车９平８ 3. 前炮进二 车８进１ 4. 后炮进一 卒７进１ *\n\n"
    "[Event \"tandem after syntax trouble\"]\n\n"
    "1. 炮二進二 {a} ) ) ) ) ) ) ) ) ) ) ) ) ) ) ) 馬８進７ 2. 炮八平二 車９平８ 3. 炮二進二 車８進１ "
    "4. 炮二進一 卒７進１ *\n\n"
    "[Event \"illegal move\"]\n\n" M1 "7. 相三進三 *\n\n"
    "[Event \"illegal move again\"]\n\n" M1 "7. 相三進三 *\n\n"
    "[Event \"undecodable move\"]\n\n" M1A "3. 車一平十 *\n\n"
    "[Event \"repetition, then on\"]\n[Result \"1/2-1/2\"]\n\n" REP "5. 炮二平五 1/2-1/2\n\n"
    "[Event \"repetition, then on, other result\"]\n[Result \"1-0\"]\n\n" REP "5. 炮二平五 1-0\n\n"
    "[Event \"repetition, then on, no result\"]\n\n" REP "5. 炮二平五\n\n"
    "[Event \"repetition, then on, twice\"]\n[Result \"0-1\"]\n\n\n" REP REP "9. 炮二平五 0-1\n\n"
    "[Event \"ICCS\"]\n[Format \"ICCS\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 *\n\n"
    "[Event \"ICCS again\"]\n[Format \"ICCS\"]\n[Result \"1-0\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 1-0\n\n"
    "[Event \"WXF\"]\n[Format \"WXF\"]\n\n1. C2.5 H8+7 2. H2+3 R9.8 *\n\n"
    "[Event \"WXF again\"]\n[Format \"WXF\"]\n\n1. C2.5 H8+7 2. H2+3 R9.8 *\n\n"
    "[Event \"no moves\"]\n\n*\n\n"
    "[Event \"base at the end\"]\n[Result \"0-1\"]\n\n" M1 "0-1\n";

/* The made-up records written in an encoding (NULL: UTF-8) to a
 * temporary file; path receives its name. */
static void write_made_up(const char *encoding, char path[64])
{
    out_file o = {NULL, 0, 0, encoding ? iconv_open(encoding, "UTF-8") : (iconv_t)-1};
    assert_true(!encoding || o.cd != (iconv_t)-1);
    /* line by line: put converts up to 1 KiB at a time */
    const char *p = made_up;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
        char line[1024];
        assert_true(n < sizeof line);
        memcpy(line, p, n);
        line[n] = '\0';
        size_t before = o.len;
        put(&o, line);
        assert_true(o.len > before);   /* every line has a spelling in the encoding */
        p += n;
    }
    save_tmp(o.p, o.len, path);
    free(o.p);
    if (encoding) iconv_close(o.cd);
}

/* The made-up records, in UTF-8 and GBK, with descs as read, none and
 * all, each twice over, all through one memo: with memo as without. */
static void made_up_agree(void **state)
{
    (void)state;
    opts_init();
    /* (not Big5: it has no simplified characters; the masters are Big5) */
    static const char *const encodings[] = {NULL, "GBK"};
    for (size_t e = 0; e < sizeof encodings / sizeof encodings[0]; e++) {
        char path[64];
        write_made_up(encodings[e], path);
        xq_replay_memo memo = {0};
        tally_memo t = {0};
        /* one memo for all: lines kept with texts in the key are looked
         * up with descs and the other way round */
        for (int mode = 0; mode < DESC_MODES; mode++) {
            compare_file(path, 1000, mode, &memo, &t);
            compare_file(path, 1000, mode, &memo, &t);
        }
        assert_true(t.games >= 2 * DESC_MODES * 30 * NOPT);
        assert_true(t.added > 0);
        xq_replay_memo_free(&memo);
        unlink(path);
    }
}

/* Did replaying record `event` of games (under opt, with memo) keep a
 * line (head moved)? */
static bool keeps(xq_game *games, int n, const char *event, const xq_replay_options *opt, xq_replay_memo *memo)
{
    static xq_replay r, a;
    for (int i = 0; i < n; i++) {
        const char *ev = xq_game_tag(&games[i], "Event");
        if (!ev || strcmp(ev, event)) continue;
        uint64_t head = memo->lines.head;
        xq_replay_game(&games[i], opt, &a);
        xq_replay_game_memo(&games[i], opt, memo, &r);
        snprintf(where, sizeof where, "keeps(%s)", event);
        const char *d = replay_diff(&a, &r);
        if (d) fail_with(&games[i], "replay with memo", d);
        return memo->lines.head != head;
    }
    fprintf(stderr, "no record \"%s\"\n", event);
    fail();
    return false;
}

/* What is kept and what is taken, with descs (every node decoded) and
 * without (0, unknown: the key decodes them, so the same full forms): a line
 * is kept once and found by its copies, whatever their tags, places,
 * Result or spelling of the start; illegal lines, lines from another
 * start, lines with warning texts are never kept. */
static void made_up_hits(void **state)
{
    (void)state;
    opts_init();
    char path[64];
    write_made_up(NULL, path);
    static xq_game games[64];
    int n = read_path(path, games, 64, NULL);
    assert_true(n >= 30);
    unlink(path);
    const xq_replay_options *quiet = &opts[0], *loud = &opts[1];
    for (int mode = DESC_NONE; mode <= DESC_ALL; mode++) {
        for (int i = 0; i < n; i++) descs_set(&games[i], mode);
        xq_replay_memo memo = {0};
        assert_true(keeps(games, n, "base", quiet, &memo));                                   /* added */
        assert_false(keeps(games, n, "base again, other tags, other lines", quiet, &memo));   /* taken */
        assert_false(keeps(games, n, "base, FEN spelled short", quiet, &memo));
        assert_false(keeps(games, n, "base, FEN spelled long", quiet, &memo));
        assert_false(keeps(games, n, "base with variations, one of them illegal", quiet, &memo));
        assert_false(keeps(games, n, "base at the end", quiet, &memo));
        /* another start: never keyed */
        assert_false(keeps(games, n, "base, FEN start position with other counters", quiet, &memo));
        assert_false(keeps(games, n, "base, FEN not the start (a soldier missing)", quiet, &memo));
        /* other options: another key */
        assert_true(keeps(games, n, "base", loud, &memo));
        assert_false(keeps(games, n, "base again, other tags, other lines", loud, &memo));
        /* the same moves in other characters and digits: the same key
         * (taken), the descs given or decoded for the key (0: unknown) */
        assert_false(keeps(games, n, "base in simplified characters", quiet, &memo));
        assert_false(keeps(games, n, "base in half-width digits", quiet, &memo));
        assert_false(keeps(games, n, "base in simplified characters, half-width digits", quiet, &memo));
        /* tandem warnings without text: kept and taken; with text: never kept */
        assert_true(keeps(games, n, "tandem", quiet, &memo));
        assert_false(keeps(games, n, "tandem again", quiet, &memo));
        assert_false(keeps(games, n, "tandem after syntax trouble", quiet, &memo));
        assert_false(keeps(games, n, "tandem in simplified characters, half-width", quiet, &memo));
        assert_false(keeps(games, n, "tandem", loud, &memo));
        assert_false(keeps(games, n, "tandem again", loud, &memo));
        assert_false(keeps(games, n, "tandem in simplified characters, half-width", loud, &memo));
        /* 前/後 is no full form: its text is in the key */
        assert_true(keeps(games, n, "tandem with 前/後", quiet, &memo));
        assert_true(keeps(games, n, "tandem with 前/后 simplified", quiet, &memo));
        /* --strict: the tandem warning is an error with a text */
        assert_false(keeps(games, n, "tandem", &opts[2], &memo));
        /* illegal: never kept */
        assert_false(keeps(games, n, "illegal move", quiet, &memo));
        assert_false(keeps(games, n, "illegal move again", quiet, &memo));
        assert_false(keeps(games, n, "undecodable move", quiet, &memo));
        /* a repetition then a move after the end: kept, taken whatever the Result */
        assert_true(keeps(games, n, "repetition, then on", quiet, &memo));
        assert_false(keeps(games, n, "repetition, then on, other result", quiet, &memo));
        assert_false(keeps(games, n, "repetition, then on, no result", quiet, &memo));
        assert_true(keeps(games, n, "repetition, then on, twice", quiet, &memo));
        assert_true(keeps(games, n, "repetition, then on", &opts[6], &memo));   /* twice is enough */
        assert_false(keeps(games, n, "repetition, then on, other result", &opts[6], &memo));
        /* the move limit reached, moves after it */
        assert_true(keeps(games, n, "base", &opts[5], &memo));
        assert_false(keeps(games, n, "base again, other tags, other lines", &opts[5], &memo));
        /* other notations are keyed by their texts */
        assert_true(keeps(games, n, "ICCS", quiet, &memo));
        assert_false(keeps(games, n, "ICCS again", quiet, &memo));
        assert_true(keeps(games, n, "WXF", quiet, &memo));
        assert_false(keeps(games, n, "WXF again", quiet, &memo));
        assert_false(keeps(games, n, "no moves", quiet, &memo));
        xq_replay_memo_free(&memo);
    }
    free_all(games, n);
}

/* A signature of what a line's key is made of (the FEN and Format tags,
 * each node's text and desc): equal lines, equal signatures. */
static uint64_t signature(const xq_game *g)
{
    uint64_t h = 1469598103934665603ull;
    const char *tags[2] = {xq_game_tag(g, "FEN"), xq_game_tag(g, "Format")};
    for (int k = 0; k < 2; k++) {
        const char *t = tags[k] ? tags[k] : "-";
        h = (h ^ xq_line_memo_hash(t, strlen(t))) * 1099511628211ull;
    }
    for (size_t i = 0; i < g->main.count; i++) {
        const xq_node *nd = &g->main.nodes[i];
        h = (h ^ xq_line_memo_hash(nd->text, strlen(nd->text))) * 1099511628211ull;
        h = (h ^ nd->desc) * 1099511628211ull;
    }
    return h;
}

/* The memo serves the database's duplicates: replaying the first 1,500
 * master games once under the tools' options, each game whose line (by
 * signature) an earlier game kept keeps nothing (taken from the memo:
 * head does not move; a line not found would be kept again). */
static void masters_duplicates_hit(void **state)
{
    (void)state;
    const char *path = masters_path();
    xq_reader *rd = xqt_reader_open(path);
    xq_replay_memo memo = {0};
    static xq_replay r;
    static uint64_t kept_sig[1500];
    int nkept_sig = 0;
    xq_game g;
    xq_game_init(&g);
    int games = 0, kept = 0, hits = 0, dups = 0;
    while (games < 1500 && xq_reader_next(rd, &g) == 1) {
        games++;
        uint64_t sig = signature(&g);
        bool dup = false;
        for (int i = 0; i < nkept_sig && !dup; i++) dup = kept_sig[i] == sig;
        uint64_t head = memo.lines.head;
        xq_replay_game_memo(&g, &opts[0], &memo, &r);
        bool added = memo.lines.head != head;
        kept += added;
        dups += dup;
        if (dup) {
            /* the same key as a line kept before (so a keepable one): not
             * kept again, so found */
            hits += !added;
            assert_false(added);
        } else if (added) {
            kept_sig[nkept_sig++] = sig;
        }
    }
    xq_game_free(&g);
    xq_reader_close(rd);
    xq_replay_memo_free(&memo);
    fprintf(stderr, "masters: %d games, %d lines kept, %d taken from the memo\n", games, kept, hits);
    assert_int_equal(games, 1500);
    assert_true(kept > 1000);
    assert_int_equal(hits, dups);   /* every repeat of a kept line taken */
    assert_true(hits >= 30);        /* 39 repeated games among the first 1,500 */
}

/* ---- one memo of main lines shared by threads ---------------------------- */

enum { SHARED_GAMES = 800 };

/* One thread's share: its own copy of the games (a replay writes
 * node->move), its own replay memo whose main lines are the shared ones,
 * and its results. */
typedef struct {
    xq_game *games;
    int n;
    bool reverse;            /* replay them last to first */
    xq_replay_memo memo;
    xq_replay *out;
} shared_job;

static void *shared_run(void *arg)
{
    shared_job *j = arg;
    for (int k = 0; k < j->n; k++) {
        int i = j->reverse ? j->n - 1 - k : k;
        xq_replay_game_memo(&j->games[i], &opts[0], &j->memo, &j->out[i]);
    }
    return NULL;
}

/* The first games of path into g[0..max) (initialised; the caller frees
 * them); returns how many. */
static int read_first(const char *path, xq_game *g, int max)
{
    xq_reader *rd = xqt_reader_open(path);
    int n = 0;
    while (n < max) {
        xq_game_init(&g[n]);
        if (xq_reader_next(rd, &g[n]) != 1) {
            xq_game_free(&g[n]);
            break;
        }
        n++;
    }
    xq_reader_close(rd);
    return n;
}

/* Two threads replay the same master games (one first to last, the other
 * last to first), each with its own memo but one shared memo of main
 * lines (as a pipeline's threads do): every result and every move is
 * that of the replay without memo; then the lines kept serve a second
 * pass (nothing is added). */
static void masters_shared_threads(void **state)
{
    (void)state;
    const char *path = masters_path();
    static xq_game games[2][SHARED_GAMES];
    static xq_replay out[2][SHARED_GAMES];
    xq_line_memo shared = {0};
    assert_true(xq_line_memo_share(&shared));
    shared_job job[2];
    for (int t = 0; t < 2; t++) {
        job[t] = (shared_job){.games = games[t], .reverse = t == 1, .out = out[t]};
        job[t].n = read_first(path, games[t], SHARED_GAMES);
        assert_int_equal(job[t].n, SHARED_GAMES);
        job[t].memo.shared_lines = &shared;
    }
    pthread_t tid;
    assert_int_equal(pthread_create(&tid, NULL, shared_run, &job[1]), 0);
    shared_run(&job[0]);
    assert_int_equal(pthread_join(tid, NULL), 0);
    /* the threads' own memos of main lines stayed empty */
    assert_null(job[0].memo.lines.ring);
    assert_null(job[1].memo.lines.ring);
    static xq_replay a;
    int kept = 0;
    for (int i = 0; i < SHARED_GAMES; i++) {
        xq_game *g = &games[0][i];
        xq_move *saved = malloc((g->main.count + 1) * sizeof *saved);
        assert_non_null(saved);
        for (int t = 0; t < 2; t++) {
            xq_game *gt = &games[t][i];
            for (size_t k = 0; k < gt->main.count; k++) saved[k] = gt->main.nodes[k].move;
            xq_replay_game(gt, &opts[0], &a);
            snprintf(where, sizeof where, "%s, record %d, thread %d", path, i + 1, t);
            const char *d = replay_diff(&a, &out[t][i]);
            if (d) fail_with(gt, "shared memo", d);
            for (size_t k = 0; k < gt->main.count; k++) assert_int_equal(saved[k], gt->main.nodes[k].move);
        }
        free(saved);
        kept += a.status == XQ_STATUS_VALID;
    }
    uint64_t head = shared.head;
    assert_true(head > 0);
    fprintf(stderr, "shared: %d valid games, %llu bytes of entries for 1,600 replays\n", kept,
            (unsigned long long)head);
    /* a second pass of one thread over its games adds nothing: all found */
    job[0].reverse = false;
    shared_run(&job[0]);
    assert_true(shared.head == head);
    for (int t = 0; t < 2; t++) {
        xq_replay_memo_free(&job[t].memo);
        free_all(games[t], SHARED_GAMES);
    }
    xq_line_memo_free(&shared);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(memo_round_trips),
        cmocka_unit_test(memo_reuse_and_prefetch),
        cmocka_unit_test(memo_wraps),
        cmocka_unit_test(memo_collisions),
        cmocka_unit_test(memo_refuses_large),
        cmocka_unit_test(made_up_agree),
        cmocka_unit_test(made_up_hits),
        cmocka_unit_test(masters_agree),
        cmocka_unit_test(masters_duplicates_hit),
        cmocka_unit_test(masters_shared_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
