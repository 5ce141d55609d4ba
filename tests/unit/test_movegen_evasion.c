/* test_movegen_evasion.c - legal move generation for a side in check
 * (movegen.c's filter_legal and has_legal_full), which drop without a
 * test the moves that cannot lift one of the checks (evasion_find,
 * evasion_may: neither taking the attacker, nor standing between it and
 * the general or on a horse's leg, nor taking a cannon's screen away, and
 * not a general's move).  Checked against the rules read move by move:
 * every from -> to pair of the board that xq_move_legality (its own
 * geometry and attack test, no generation) calls legal must be exactly
 * the moves xq_legal_moves and xq_legal_moves_from give, in their
 * order of squares, and xq_has_legal_move must say whether there is one.
 * On the positions a checking move leads to from the positions of random
 * games (line- and capture-biased walks: chariots, cannons with their
 * screens, horses, soldiers, flying generals, double checks), of walks
 * from odd starts, and on impossible boards (two generals of a side, no
 * general, both sides in check).  Counts that checks of each kind were
 * met and that positions without a legal move (mates) occur. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "game.h"
#include "position.h"
#include "test_util.h"

/* Positions compared, those with no legal move, and checks met by the
 * attacker's kind (index xq_kind; several when a double check). */
static long compared, mated, by_kind[8];

/* The kinds of the other side's pieces that attack the general of the
 * side to move, one bit per kind (1 << xq_kind), found by taking each
 * piece of that side off the board in turn: a piece whose removal ends
 * the check attacks (or screens its own cannon: then a cannon is there
 * too, and the screen's kind is counted besides). */
static unsigned checker_kinds(const xq_position *pos)
{
    unsigned kinds = 0;
    xq_color e = (xq_color)(pos->side ^ 1);
    for (int sq = 0; sq < XQ_SQUARES; sq++) {
        xq_piece p = pos->board[sq];
        if (!p || XQ_COLOR(p) != e) continue;
        xq_position q = *pos;
        xq_position_put(&q, sq, XQ_NONE);
        if (!xq_in_check(&q, pos->side)) kinds |= 1u << XQ_KIND(p);
    }
    return kinds;
}

/* The legal moves of pos by the rules alone: every from -> to pair that
 * xq_move_legality accepts, from-square major (xq_legal_moves' order of
 * pieces; within a piece the order is its generator's, so these are
 * compared as sets per piece). */
static int legal_by_rules(const xq_position *pos, xq_move *moves)
{
    int n = 0;
    for (int from = 0; from < XQ_SQUARES; from++) {
        xq_piece p = pos->board[from];
        if (!p || XQ_COLOR(p) != pos->side) continue;
        for (int to = 0; to < XQ_SQUARES; to++)
            if (to != from && xq_move_legality(pos, XQ_MOVE(from, to)) == XQ_LEGAL) moves[n++] = XQ_MOVE(from, to);
    }
    return n;
}

static int cmp_move(const void *a, const void *b)
{
    return (int)*(const xq_move *)a - (int)*(const xq_move *)b;
}

/* xq_legal_moves, xq_legal_moves_from (each piece) and xq_has_legal_move
 * at pos against legal_by_rules. */
static void compare_at(const xq_position *pos)
{
    xq_move got[XQ_MAX_MOVES], want[XQ_MAX_MOVES], part[XQ_MAX_MOVES];
    int n = xq_legal_moves(pos, got), k = legal_by_rules(pos, want);
    assert_int_equal(n, k);
    /* the generator keeps its from-squares in board order */
    for (int i = 1; i < n; i++) assert_true(XQ_FROM(got[i - 1]) <= XQ_FROM(got[i]));
    xq_move sorted[XQ_MAX_MOVES];
    memcpy(sorted, got, (size_t)n * sizeof *got);
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_move);
    qsort(want, (size_t)k, sizeof *want, cmp_move);
    for (int i = 0; i < n; i++) assert_int_equal(sorted[i], want[i]);
    /* per piece: the same moves, in the same order as the whole list */
    int at = 0;
    for (int from = 0; from < XQ_SQUARES; from++) {
        int m = xq_legal_moves_from(pos, from, part);
        for (int i = 0; i < m; i++) assert_int_equal(part[i], got[at + i]);
        at += m;
    }
    assert_int_equal(at, n);
    assert_int_equal(xq_has_legal_move(pos), n > 0);
    assert_int_equal(xq_has_legal_move_known(pos, xq_in_check(pos, pos->side)), n > 0);
    compared++;
    if (n == 0) mated++;
}

/* At a side in check: the comparison and the kinds of its checks. */
static void compare_in_check(const xq_position *pos)
{
    assert_true(xq_in_check(pos, pos->side));
    unsigned kinds = checker_kinds(pos);
    for (int k = 1; k < 8; k++)
        if (kinds >> k & 1) by_kind[k]++;
    compare_at(pos);
}

/* At the walk's position: every position a checking move leads to, and
 * the walk's own position when its side is in check. */
static void compare_checked(const xq_position *pos, const xq_checks *c)
{
    (void)c;
    compare_in_check(pos);
}

static void visit_checks(xqt_walk *w)
{
    if (w->checks.in_check[w->pos.side]) compare_in_check(&w->pos);
    xqt_each_check_reply(w, compare_checked);
}

static void test_evasion_random_games(void **state)
{
    (void)state;
    uint64_t rng = 0xE7A5ull;
    compared = mated = 0;
    memset(by_kind, 0, sizeof by_kind);
    xqt_walk w = {.rng = &rng, .visit = visit_checks, .visit_end = true};
    XQT_WALK_SERIES(&w, {XQT_LINES, 6, 120}, {XQT_CAPTURES, 6, 150}, {XQT_UNIFORM, 3, 150});
    assert_true(compared > 1000);
    assert_true(mated > 10);
    assert_true(by_kind[XQ_CHARIOT] > 100);
    assert_true(by_kind[XQ_CANNON] > 100);
    assert_true(by_kind[XQ_HORSE] > 20);
    assert_true(by_kind[XQ_SOLDIER] > 5);
}

static void test_evasion_odd_positions(void **state)
{
    (void)state;
    uint64_t rng = 77;
    size_t n;
    const char *const *fens = xqt_odd_fens(&n);
    compared = mated = 0;
    xqt_walk w = {.rng = &rng, .bias = XQT_LINES, .visit = visit_checks, .visit_end = true};
    xqt_walk_fens(&w, fens, n, 12);
    assert_true(compared > 50);
}

/* Impossible boards (xqt_impossible_boards): two generals of a side,
 * the side to move in check with the other one in check too, no general
 * of the side not to move, the generals facing (a flying general's check:
 * only an impossible start has one); each position and the checks
 * reached from it. */
static void test_evasion_impossible(void **state)
{
    (void)state;
    size_t n;
    const xqt_odd_board *boards = xqt_impossible_boards(&n);
    compared = 0;
    memset(by_kind, 0, sizeof by_kind);
    for (size_t i = 0; i < n; i++) {
        xq_position pos;
        xqt_impossible_position(&boards[i], &pos);
        if (xq_in_check(&pos, pos.side)) compare_in_check(&pos);
        else compare_at(&pos);
        xqt_walk w = {.pos = pos};
        xq_checks_init(&w.checks, &pos);
        visit_checks(&w);
    }
    assert_true(compared >= 11);
    assert_true(by_kind[XQ_GENERAL] >= 3);   /* the generals facing: the flying general's check */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_evasion_random_games),
        cmocka_unit_test(test_evasion_odd_positions),
        cmocka_unit_test(test_evasion_impossible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
