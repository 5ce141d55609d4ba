/* test_judge_sets.c - the set shortcuts of the repetition judge
 * (repetition_classify.c, included here for its static tables and
 * functions) against the plain definitions they stand for, in every
 * build (the library's own cross-checks of them are asserts, gone with
 * NDEBUG):
 *  - the per-square tables HORSE_AWAY (a horse's move away), HORSE_NEAR
 *    (within 4 files, 4 ranks and 6 steps), SOLDIER_NEAR (within 2
 *    steps) and NEAR2 (within 2 files and 2 ranks), square by square;
 *  - a mate-search node's horse legs (check_ctx_init) and its horses and
 *    soldiers near the other general (near_attackers) against a test of
 *    each piece, for both sides of every position of random walks
 *    (uniform, capture- and line-biased) and of walks from odd starts;
 *  - may_change_set (the pieces whose legal moves a move may change, for
 *    the 攔 block count) against moves_may_change's definition asked of
 *    each piece, for every legal move of the other side and for random
 *    square pairs, on the same positions;
 *  - exchange_below (is the gain of the exchange on a square below a
 *    bound: a bounded search) against the full exchange it replaced, kept
 *    here, at every bound around the piece's value, on every square of
 *    positions of capture- and line-biased walks and odd starts, with
 *    and without the checks on the board answered by a pass.
 * Tables and sets that differ change which moves a mate search tries
 * (and so its budget), the block count or what is a chase:
 * test_mate_search.c, test_judge_block.c and test_repetition_fast.c see
 * the consequences; this test names the cause. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "repetition_classify.c"
#include "test_util.h"

static uint64_t rng_state = 0x7A11E5C0DE15F00Dull;

static int dist_file(int a, int b) { return abs(xq_file_of[a] - xq_file_of[b]); }
static int dist_rank(int a, int b) { return abs(xq_rank_of[a] - xq_rank_of[b]); }

/* ---- the tables, square by square ----------------------------------------- */

static void test_tables_by_definition(void **state)
{
    (void)state;
    long away = 0, near = 0, soldier = 0;
    for (int s = 0; s < XQ_SQUARES; s++)
        for (int x = 0; x < XQ_SQUARES; x++) {
            int df = dist_file(s, x), dr = dist_rank(s, x);
            bool a = (df == 1 && dr == 2) || (df == 2 && dr == 1);
            bool h = df <= 4 && dr <= 4 && df + dr <= 6;
            bool so = df + dr <= 2;
            bool n2 = df <= 2 && dr <= 2;
            assert_int_equal(set_has(&HORSE_AWAY[s], x), a);
            assert_int_equal(set_has(&HORSE_NEAR[s], x), h);
            assert_int_equal(set_has(&SOLDIER_NEAR[s], x), so);
            assert_int_equal(set_has(&NEAR2[s], x), n2);
            away += a, near += h, soldier += so;
        }
    /* no bit past the board */
    for (int s = 0; s < XQ_SQUARES; s++) {
        uint64_t past = ~(uint64_t)0 << (XQ_SQUARES - 64);
        assert_int_equal(HORSE_AWAY[s].w[1] & past, 0);
        assert_int_equal(HORSE_NEAR[s].w[1] & past, 0);
        assert_int_equal(SOLDIER_NEAR[s].w[1] & past, 0);
    }
    /* the middle of the board sees every offset */
    int mid = XQ_SQ(4, 4);
    assert_int_equal(__builtin_popcountll(HORSE_AWAY[mid].w[0]) + __builtin_popcountll(HORSE_AWAY[mid].w[1]), 8);
    assert_int_equal(__builtin_popcountll(SOLDIER_NEAR[mid].w[0]) + __builtin_popcountll(SOLDIER_NEAR[mid].w[1]), 13);
    assert_true(away > 0 && near > away && soldier > 0);
}

/* ---- a node's sets on walked positions ------------------------------------ */

typedef struct {
    long nodes, legs, near, moves, names;
} sets_tally;

static sets_tally seen;

/* The node of side me (to move in p) against the plain tests: legs and
 * near attackers. */
static void node_sets_agree(const xq_position *p)
{
    kind_sets k;
    kind_sets_of(p, p->side, &k);
    check_ctx c;
    if (!check_ctx_init(p, &k, &c)) return;
    sqset legs = {{0, 0}}, near = {{0, 0}};
    for (int sq = 0; sq < XQ_SQUARES; sq++) {
        xq_piece pc = p->board[sq];
        if (!pc || XQ_COLOR(pc) != p->side) continue;
        int df = c.kf - xq_file_of[sq], dr = c.kr - xq_rank_of[sq];
        int adf = abs(df), adr = abs(dr);
        if (XQ_KIND(pc) == XQ_HORSE) {
            if ((adf == 1 && adr == 2) || (adf == 2 && adr == 1))
                set_add(&legs, XQ_SQ(xq_file_of[sq] + (adf == 2 ? df / 2 : 0), xq_rank_of[sq] + (adr == 2 ? dr / 2 : 0)));
            if (adf <= 4 && adr <= 4 && adf + adr <= 6) set_add(&near, sq);
        } else if (XQ_KIND(pc) == XQ_SOLDIER && adf + adr <= 2) {
            set_add(&near, sq);
        }
    }
    assert_memory_equal(&legs, &c.legs, sizeof legs);
    sqset got = near_attackers(&c);
    assert_memory_equal(&near, &got, sizeof near);
    seen.nodes++;
    seen.legs += !set_empty(&legs);
    seen.near += !set_empty(&near);
}

/* moves_may_change as its comment defines it, asked of the piece on x. */
static bool may_change_plain(const xq_position *pos, int x, int from, int to, int g)
{
    xq_kind k = XQ_KIND(pos->board[x]);
    int dfg = dist_file(x, g), drg = dist_rank(x, g);
    bool near_g = (dist_file(from, g) <= 2 && dist_rank(from, g) <= 2) || (dist_file(to, g) <= 2 && dist_rank(to, g) <= 2);
    if (k == XQ_GENERAL) return true;
    if (dfg == 1 && drg == 1 && near_g) return true;
    bool lines = xq_file_of[x] == xq_file_of[from] || xq_rank_of[x] == xq_rank_of[from] ||
                 xq_file_of[x] == xq_file_of[to] || xq_rank_of[x] == xq_rank_of[to];
    if ((k == XQ_CHARIOT || k == XQ_CANNON) && lines) return true;
    return (dist_file(x, from) <= 2 && dist_rank(x, from) <= 2) || (dist_file(x, to) <= 2 && dist_rank(x, to) <= 2);
}

/* may_change_set for side o of p (its pieces k, general g) and from -> to,
 * against the plain test of each of o's pieces. */
static void names_agree(const xq_position *p, const kind_sets *k, int g, int from, int to)
{
    sqset plain = {{0, 0}};
    for (int x = 0; x < XQ_SQUARES; x++)
        if (set_has(&k->own, x) && may_change_plain(p, x, from, to, g)) set_add(&plain, x);
    sqset got = may_change_set(k, from, to, g);
    assert_memory_equal(&plain, &got, sizeof plain);
    seen.names++;
}

static void visit(xqt_walk *w)
{
    for (int s = 0; s < 2; s++) {
        xq_position p = w->pos;
        if (p.side != (xq_color)s) xq_position_set_side(&p, (xq_color)s);
        node_sets_agree(&p);
        /* the block count's names: o = s, the moves of the other side */
        int g = p.general[s];
        if (g >= XQ_SQUARES) continue;
        kind_sets k;
        kind_sets_of(&p, (xq_color)s, &k);
        xq_position mover = p;
        xq_position_set_side(&mover, (xq_color)(s ^ 1));
        xq_move moves[XQ_MAX_MOVES];
        int n = xq_legal_moves(&mover, moves);
        for (int i = 0; i < n; i++) names_agree(&p, &k, g, XQ_FROM(moves[i]), XQ_TO(moves[i]));
        seen.moves += n;
        for (int i = 0; i < 8; i++)
            names_agree(&p, &k, g, (int)xqt_rnd(&rng_state, XQ_SQUARES), (int)xqt_rnd(&rng_state, XQ_SQUARES));
    }
}

static void test_node_sets_on_walks(void **state)
{
    (void)state;
    memset(&seen, 0, sizeof seen);
    xqt_walk w = {.rng = &rng_state, .visit = visit};
    XQT_WALK_SERIES(&w, {XQT_UNIFORM, 6, 120}, {XQT_CAPTURES, 8, 160}, {XQT_LINES, 8, 160});
    size_t nf;
    const char *const *fens = xqt_odd_fens(&nf);
    w.bias = XQT_LINES;
    xqt_walk_fens(&w, fens, nf, 60);
    /* the walks reached horses and soldiers near a general, horse legs
     * and many moves */
    assert_true(seen.nodes > 2000);
    assert_true(seen.legs > 20);
    assert_true(seen.near > 200);
    assert_true(seen.moves > 20000);
    assert_true(seen.names > seen.moves);
}

/* ---- the exchange on one square ------------------------------------------- */

/* The gain of the exchange on sq as repetition_classify.c computed it
 * before exchange_below (the reference): every capture weighed in full,
 * at every step. */
static int exchange_gain_ref(xq_position *pos, int sq, int depth, const sqset *relax)
{
    if (depth >= EXCHANGE_DEPTH) return 0;
    xq_piece v = pos->board[sq];
    if (!v || XQ_COLOR(v) == pos->side) return 0;
    uint8_t from[SQUARE_ATTACKERS];
    int n = attackers_to(pos, sq, pos->side, from);
    int best = 0, value = value_of(v, sq);
    xq_color me = pos->side;
    for (int i = 0; i < n && best < value; i++) {
        xq_piece cap = xq_light_make(pos, from[i], sq);
        if (capture_allowed_made(pos, me, relax)) {
            int g = value - exchange_gain_ref(pos, sq, depth + 1, NULL);
            if (g > best) best = g;
        }
        xq_light_unmake(pos, from[i], sq, cap);
    }
    return best;
}

static long exchanges, gains;

/* For every square of p holding a piece of the side not to move (and
 * every empty one, a gain of 0), with and without the checks on the
 * board relaxed: exchange_below against the reference at every bound
 * from -1 to the piece's value + 2, and p left as it was. */
static void exchanges_agree(xqt_walk *w)
{
    for (int s = 0; s < 2; s++) {
        xq_position p = w->pos;
        if (p.side != (xq_color)s) xq_position_set_side(&p, (xq_color)s);
        sqset checkers = checkers_of(&p);
        const sqset *relaxes[2] = {NULL, set_empty(&checkers) ? NULL : &checkers};
        for (int sq = 0; sq < XQ_SQUARES; sq++) {
            if (p.board[sq] && XQ_COLOR(p.board[sq]) == p.side) continue;
            for (int r = 0; r < 2; r++) {
                const xq_position keep = p;
                int gain = exchange_gain_ref(&p, sq, 0, relaxes[r]);
                int top = p.board[sq] ? value_of(p.board[sq], sq) + 2 : 2;
                for (int limit = -1; limit <= top; limit++)
                    assert_int_equal(exchange_below(&p, sq, 0, relaxes[r], limit), gain < limit);
                assert_memory_equal(&keep, &p, sizeof p);
                exchanges++;
                gains += gain > 0;
            }
        }
    }
}

static void test_exchange_below(void **state)
{
    (void)state;
    exchanges = gains = 0;
    xqt_walk w = {.rng = &rng_state, .visit = exchanges_agree};
    XQT_WALK_SERIES(&w, {XQT_CAPTURES, 6, 120}, {XQT_LINES, 6, 120});
    size_t nf;
    const char *const *fens = xqt_odd_fens(&nf);
    w.bias = XQT_CAPTURES;
    xqt_walk_fens(&w, fens, nf, 40);
    /* exchanges that win something were among them */
    assert_true(exchanges > 50000);
    assert_true(gains > 500);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables_by_definition),
        cmocka_unit_test(test_node_sets_on_walks),
        cmocka_unit_test(test_exchange_below),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
