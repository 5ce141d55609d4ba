/* test_line_memo_pack.c - the shortcuts of the memo of main lines
 * (replay.c, included here for its static functions) against the plain
 * code they stand for:
 *  - final_pack and final_restore (a kept line's final position as its
 *    pieces and the fields a board does not give) against the position
 *    itself, on every position of random games from the start (uniform
 *    and capture-biased: boards thinned to a few pieces) and from odd and
 *    impossible positions (no general, tandem pieces): the same board,
 *    file-major board, occupancy masks, key, generals, side and counters,
 *    the masks consistent (xq_position_masks_ok), the pieces in square
 *    order, two bytes each, and the padding left zero;
 *  - line_key (eight and four full-form descs a step) against a key built node by
 *    node as its comment says, on random lines of every length 1..40 mixing
 *    full-form descs, other descs with their texts, and unknown descs (0)
 *    whose text is or is not a full form, in Chinese and in WXF notation
 *    (where no desc counts as a full form), under option sets with and
 *    without strict and no_moves; and line_key_hash (from the nodes,
 *    before the key) the same for the same key whatever the descs given
 *    (all unknown, all decoded), and different for most different lines;
 *    the same on lines of up to 80 nodes nearly all full forms (long runs
 *    for the eight-at-a-time step);
 *  - moves_take (four moves a step) against a move-by-move copy, with the
 *    variation counts or'ed, for every length 0..40. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "replay.c"
#include "test_util.h"

static uint64_t rng_state = 0x51ED2701A3B4C5D7ull;

/* ---- final_pack, final_restore ----------------------------------------- */

/* Pack w's position, restore it into a dirty buffer, and compare. */
static void visit_pack(xqt_walk *w)
{
    const xq_position *pos = &w->pos;
    line_head h;
    memset(&h, 0xA5, sizeof h);
    unsigned char pieces[2 * XQ_SQUARES];
    size_t n = final_pack(pos, &h, pieces);
    /* the pieces, in square order, two bytes each */
    size_t want = 0;
    for (int sq = 0; sq < XQ_SQUARES; sq++)
        if (pos->board[sq]) {
            assert_true(want + 2 <= n);
            assert_int_equal(pieces[want], sq);
            assert_int_equal(pieces[want + 1], pos->board[sq]);
            want += 2;
        }
    assert_int_equal(n, want);
    assert_int_equal(h.npieces, n / 2);

    xq_position back;
    memset(&back, 0x5A, sizeof back);   /* every byte written by the restore, padding zeroed */
    final_restore(&back, &h, pieces);
    const char *d = xqt_position_diff(pos, &back);
    if (d) fail_msg("restored position differs in %s", d);
    assert_memory_equal(pos->fboard, back.fboard, sizeof back.fboard);
    assert_true(xq_position_masks_ok(&back));

    /* as xq_position_clear and xq_position_put would make it, byte for
     * byte (padding included), but for the key and the generals, which
     * the restore takes as kept */
    xq_position put;
    xq_position_clear(&put);
    for (int sq = 0; sq < XQ_SQUARES; sq++)
        if (pos->board[sq]) xq_position_put(&put, sq, pos->board[sq]);
    xq_position_set_side(&put, pos->side);
    put.halfmove = pos->halfmove;
    put.fullmove = pos->fullmove;
    put.key = back.key;
    put.general[0] = back.general[0];
    put.general[1] = back.general[1];
    assert_memory_equal(&put, &back, sizeof put);
}

static void pack_random_games(void **state)
{
    (void)state;
    xqt_walk w = {.rng = &rng_state, .visit = visit_pack, .visit_end = true};
    XQT_WALK_SERIES(&w, {XQT_UNIFORM, 60, 200}, {XQT_CAPTURES, 200, 300});
}

static void pack_odd_positions(void **state)
{
    (void)state;
    size_t n;
    const char *const *fens = xqt_odd_fens(&n);
    xqt_walk w = {.rng = &rng_state, .bias = XQT_CAPTURES, .visit = visit_pack, .visit_end = true};
    for (int r = 0; r < 10; r++) xqt_walk_fens(&w, fens, n, 60);
    /* the empty board and a full one (every square) */
    xq_position p;
    xq_position_clear(&p);
    w.pos = p;
    visit_pack(&w);
    for (int sq = 0; sq < XQ_SQUARES; sq++) xq_position_put(&p, sq, XQ_PIECE(XQ_SOLDIER, sq & 1));
    w.pos = p;
    visit_pack(&w);
}

/* ---- line_key ------------------------------------------------------------ */

/* The key line_key's comment describes, one node at a time, into k
 * (room enough); its length in bytes. */
static size_t key_plain(const xq_replay_options *opt, xq_notation notation, unsigned desc_full,
                        const xq_node *nodes, size_t count, uint16_t *k)
{
    uint16_t head[LINE_KEY_HEAD] = {
        (uint16_t)opt->move_limit, (uint16_t)opt->check_cap,
        (uint16_t)(opt->repetitions | (int)opt->rules << 8 | opt->strict << 12 | opt->no_warning_text << 13 |
                   opt->no_moves << 14),
        (uint16_t)notation};
    memcpy(k, head, sizeof head);
    size_t n = LINE_KEY_HEAD;
    for (size_t i = 0; i < count; i++) {
        size_t len = strlen(nodes[i].text);
        unsigned d = nodes[i].desc;
        if (!d && desc_full) d = xq_move_desc(nodes[i].text, len);
        if (d & desc_full) {
            k[n++] = (uint16_t)d;
        } else {
            k[n++] = (uint16_t)d;
            k[n++] = (uint16_t)len;
            memset(k + n, 0, (len + 1) / 2 * 2);
            memcpy(k + n, nodes[i].text, len);
            n += (len + 1) / 2;
        }
    }
    return n * 2;
}

/* line_key of the nodes under opt and notation against key_plain's key
 * (into plain, room enough); returns the key's length in bytes. */
static size_t key_check(xq_replay_memo *memo, const xq_replay_options *opt, xq_notation notation,
                        const xq_node *nodes, size_t count, uint16_t *plain)
{
    unsigned desc_full = (unsigned)notation <= XQ_NOTATION_CHINESE_3DIGIT ? XQ_DESC_OTHER - 1 : 0;
    uint16_t head[LINE_KEY_HEAD];
    assert_true(line_key_head(opt, notation, head));
    size_t len;
    const uint16_t *k = line_key(memo, head, desc_full, nodes, count, &len);
    assert_non_null(k);
    size_t want = key_plain(opt, notation, desc_full, nodes, count, plain);
    assert_int_equal(len, want);
    assert_memory_equal(k, plain, len);
    return want;
}

/* Texts for the nodes: full forms (a desc of their own) and others. */
static const char *const texts[] = {"炮二平五", "馬８進７", "車一平二", "兵七進一", "相三進五",
                                    "前炮平四", "炮25",     "h2e2",     "C2.5",     "後車進三"};

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static uint64_t hashes[4000];

static void key_agrees(void **state)
{
    (void)state;
    xq_replay_options opt;
    xq_replay_options_default(&opt);
    xq_replay_memo memo = {0};
    xq_node nodes[40];
    uint16_t plain[2000];
    for (int round = 0; round < 4000; round++) {
        size_t count = 1 + xqt_rnd(&rng_state, 40);
        memset(nodes, 0, sizeof nodes);
        for (size_t i = 0; i < count; i++) {
            /* most nodes full forms with their desc, the rest mixed */
            unsigned pick = xqt_rnd(&rng_state, 10);
            const char *t = pick < 7 ? texts[xqt_rnd(&rng_state, 5)] : texts[xqt_rnd(&rng_state, 10)];
            nodes[i].text = t;
            nodes[i].text_len = xqt_rnd(&rng_state, 2) ? (uint16_t)strlen(t) : 0;
            nodes[i].desc = xqt_rnd(&rng_state, 5) ? xq_move_desc(t, strlen(t)) : 0;
        }
        xq_notation notation = round & 1 ? XQ_NOTATION_CHINESE : XQ_NOTATION_WXF;
        unsigned desc_full = (unsigned)notation <= XQ_NOTATION_CHINESE_3DIGIT ? XQ_DESC_OTHER - 1 : 0;
        opt.move_limit = 60 + round % 3;
        opt.no_moves = round % 5 == 0;
        opt.strict = round % 7 == 0;
        size_t want = key_check(&memo, &opt, notation, nodes, count, plain);
        uint16_t head[LINE_KEY_HEAD];
        assert_true(line_key_head(&opt, notation, head));
        /* the hash from the nodes is one of the key alone: in a Chinese
         * notation the same with every desc unknown (0) or every desc
         * decoded (the same key; elsewhere the key holds the desc as it
         * is) */
        uint64_t h = line_key_hash(head, desc_full, nodes, count);
        xq_node other[40];
        for (int mode = 0; mode < 2 && desc_full; mode++) {
            memcpy(other, nodes, sizeof other);
            for (size_t i = 0; i < count; i++)
                other[i].desc = mode ? xq_move_desc(other[i].text, strlen(other[i].text)) : 0;
            size_t olen;
            const uint16_t *ok = line_key(&memo, head, desc_full, other, count, &olen);
            assert_non_null(ok);
            assert_int_equal(olen, want);
            assert_memory_equal(ok, plain, olen);
            assert_true(line_key_hash(head, desc_full, other, count) == h);
        }
        hashes[round] = h;
    }
    /* and a function of its words: different lines (most of these 4,000)
     * mostly differ in it */
    qsort(hashes, 4000, sizeof hashes[0], cmp_u64);
    int same = 0;
    for (int i = 1; i < 4000; i++) same += hashes[i] == hashes[i - 1];
    assert_true(same < 4000 / 4);
    xq_replay_memo_free(&memo);
}

/* line_key's steps of eight and four descs (octet_copy_full,
 * quad_copy_full) against key_plain on lines of 1..80 nodes that are
 * nearly all full forms with their desc (long runs, broken now and then by
 * a desc left unknown or another form), in Chinese and in WXF (where no
 * desc is a full form). */
static void key_agrees_runs(void **state)
{
    (void)state;
    xq_replay_options opt;
    xq_replay_options_default(&opt);
    xq_replay_memo memo = {0};
    xq_node nodes[80];
    uint16_t plain[4000];
    for (int round = 0; round < 3000; round++) {
        size_t count = 1 + xqt_rnd(&rng_state, 80);
        memset(nodes, 0, sizeof nodes);
        for (size_t i = 0; i < count; i++) {
            const char *t = xqt_rnd(&rng_state, 20) ? texts[xqt_rnd(&rng_state, 5)] : texts[xqt_rnd(&rng_state, 10)];
            nodes[i].text = t;
            nodes[i].desc = xqt_rnd(&rng_state, 30) ? xq_move_desc(t, strlen(t)) : 0;
        }
        key_check(&memo, &opt, round % 4 ? XQ_NOTATION_CHINESE : XQ_NOTATION_WXF, nodes, count, plain);
    }
    xq_replay_memo_free(&memo);
}

/* ---- moves_take ------------------------------------------------------------ */

static void moves_agree(void **state)
{
    (void)state;
    xq_node nodes[40];
    unsigned char v[80];
    for (int round = 0; round < 2000; round++) {
        size_t count = xqt_rnd(&rng_state, 41);
        uint32_t want = 0;
        memset(nodes, 0, sizeof nodes);
        for (size_t i = 0; i < count; i++) {
            xq_move m = (xq_move)(1 + xqt_rnd(&rng_state, 0x3000));
            memcpy(v + 2 * i, &m, 2);
            nodes[i].variation_count = xqt_rnd(&rng_state, 8) ? 0 : 1u << xqt_rnd(&rng_state, 5);
            want |= nodes[i].variation_count;
        }
        assert_int_equal(moves_take(v, nodes, count), want);
        for (size_t i = 0; i < count; i++) {
            xq_move m;
            memcpy(&m, v + 2 * i, 2);
            assert_int_equal(nodes[i].move, m);
        }
        for (size_t i = count; i < 40; i++) assert_int_equal(nodes[i].move, XQ_MOVE_NONE);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pack_random_games),
        cmocka_unit_test(pack_odd_positions),
        cmocka_unit_test(key_agrees),
        cmocka_unit_test(key_agrees_runs),
        cmocka_unit_test(moves_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
