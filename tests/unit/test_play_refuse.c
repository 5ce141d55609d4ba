/* test_play_refuse.c - the planned play's refusals on crowded boards
 * (notation_chinese.c's xq_move_play_desc: an own piece on the target,
 * plan_board_ok's leg, eye, line and screen tests) and the make's mask
 * flips through the masks' byte places (board_tables.h's xq_sq_occ_of
 * rank_at and file_at, xq_occ_flip, which xq_make_known_plain and every
 * make use).
 *
 * The refusals are compared through xq_move_play_desc against reading
 * then playing each desc's text (xqt_play_desc_agrees), on crowded
 * random boards where legs, eyes and lines are often blocked, a cannon
 * has 0, 1 or 2 screens and targets hold own pieces: the counts of the
 * refusals of each kind must all be met, so that a test that only ever
 * sees free moves fails.  The flips are compared with the plain index
 * arithmetic on every square, and the planned path's make
 * (xq_make_known_plain) with xq_make, its masks read back from the
 * board. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "board_tables.h"
#include "game.h"
#include "notation.h"
#include "position.h"
#include "test_util.h"

static const char *const PIECE[8] = {NULL, "帥", "仕", "相", "馬", "車", "炮", "兵"};
static const char *const NUM[10] = {NULL, "一", "二", "三", "四", "五", "六", "七", "八", "九"};
static const char *const ACT[4] = {NULL, "進", "退", "平"};

/* The desc of kind, file numeral, action and last numeral, its text into
 * buf; its length in *len. */
static unsigned desc_of(int kind, int num, int action, int arg, char buf[32], size_t *len)
{
    *len = (size_t)snprintf(buf, 32, "%s%s%s%s", PIECE[kind], NUM[num], ACT[action], NUM[arg]);
    return (unsigned)(arg | action << 4 | num << 6 | kind << 10);
}

/* A crowded random board: both generals in their palaces (files d..f),
 * then n pieces of random kind and colour on random empty squares (no
 * other general), side to move random; the check state from the board. */
static void crowded_board(uint64_t *rng, int n, xq_position *pos, xq_checks *s)
{
    xq_position_clear(pos);
    xq_position_put(pos, XQ_SQ(3 + (int)xqt_rnd(rng, 3), (int)xqt_rnd(rng, 3)), XQ_PIECE(XQ_GENERAL, XQ_RED));
    xq_position_put(pos, XQ_SQ(3 + (int)xqt_rnd(rng, 3), 7 + (int)xqt_rnd(rng, 3)), XQ_PIECE(XQ_GENERAL, XQ_BLACK));
    for (int i = 0; i < n; i++) {
        int sq = (int)xqt_rnd(rng, XQ_SQUARES);
        if (pos->board[sq]) continue;
        xq_kind kind = (xq_kind)(2 + xqt_rnd(rng, 6));
        xq_position_put(pos, sq, XQ_PIECE(kind, xqt_rnd(rng, 2)));
    }
    xq_position_set_side(pos, (xq_color)xqt_rnd(rng, 2));
    xq_checks_init(s, pos);
}

/* What a desc's refusal was, as the board shows it (for the counts). */
enum { R_OWN, R_LEG, R_LINE, R_SCREEN, R_PLAYED, R_KINDS };

/* The one piece of the desc's kind on its file (its square), or -1. */
static int only_on_file(const xq_position *pos, int kind, int num)
{
    int x = pos->side == XQ_RED ? 9 - num : num - 1, found = -1;
    for (int r = 0; r < XQ_RANKS; r++)
        if (pos->board[XQ_SQ(x, r)] == XQ_PIECE(kind, pos->side)) {
            if (found >= 0) return -1;
            found = XQ_SQ(x, r);
        }
    return found;
}

/* Sort a desc the plan refused (xq_move_play_desc gave no move) whose
 * piece stands alone on its file and whose target is on the board, by
 * what blocks it: an own piece there, a leg or eye, a line, a cannon's
 * capture without exactly one screen.  -1: none of these (geometry). */
static int refusal_kind(const xq_position *pos, int kind, int num, int action, int arg)
{
    int from = only_on_file(pos, kind, num);
    if (from < 0) return -1;
    int x = XQ_FILE(from), r = XQ_RANK(from), dir = (action == 1) == (pos->side == XQ_RED) ? 1 : -1;
    int tx = pos->side == XQ_RED ? 9 - arg : arg - 1, to = -1, block = -1;
    if ((kind == XQ_CHARIOT || kind == XQ_CANNON) && action == 3 && tx != x) {
        to = XQ_SQ(tx, r);
    } else if ((kind == XQ_CHARIOT || kind == XQ_CANNON) && action != 3 && r + dir * arg >= 0 && r + dir * arg <= 9) {
        to = XQ_SQ(x, r + dir * arg);
    } else if (kind == XQ_HORSE && action != 3 && (tx - x == 1 || x - tx == 1 || tx - x == 2 || x - tx == 2)) {
        int dx = tx > x ? tx - x : x - tx, tr = r + dir * (3 - dx);
        if (tr < 0 || tr > 9) return -1;
        to = XQ_SQ(tx, tr);
        block = dx == 2 ? XQ_SQ((x + tx) / 2, r) : XQ_SQ(x, r + dir);
    } else if (kind == XQ_ELEPHANT && action != 3 && (tx - x == 2 || x - tx == 2)) {
        int tr = r + 2 * dir;
        if (tr < 0 || tr > 9 || (pos->side == XQ_RED ? tr > 4 : tr < 5)) return -1;
        to = XQ_SQ(tx, tr);
        block = XQ_SQ((x + tx) / 2, r + dir);
    } else {
        return -1;
    }
    xq_piece t = pos->board[to];
    if (t && XQ_COLOR(t) == pos->side) return R_OWN;
    if (block >= 0) return pos->board[block] ? R_LEG : -1;
    int step = XQ_FILE(to) == x ? (to > from ? 9 : -9) : (to > from ? 1 : -1), between = 0;
    for (int sq = from + step; sq != to; sq += step) between += pos->board[sq] != XQ_NONE;
    if (kind == XQ_CANNON && t) return between != 1 ? R_SCREEN : -1;
    return between ? R_LINE : -1;
}

/* Every desc on crowded boards of several densities: the planned play
 * agrees with reading then playing, and each kind of refusal is met
 * (on boards of both sides to move). */
static void test_refuse_crowded(void **state)
{
    (void)state;
    uint64_t rng = 0x5EEDF00Dull;
    long seen[R_KINDS] = {0};
    char text[32];
    size_t len;
    for (int board = 0; board < 1500; board++) {
        xq_position pos;
        xq_checks s;
        crowded_board(&rng, 8 + board % 40, &pos, &s);
        for (int kind = 2; kind <= 7; kind++)
            for (int num = 1; num <= 9; num++)
                for (int action = 1; action <= 3; action++)
                    for (int arg = 1; arg <= 9; arg++) {
                        unsigned d = desc_of(kind, num, action, arg, text, &len);
                        if (xqt_play_desc_agrees(&pos, &s, d, text, len)) {
                            seen[R_PLAYED]++;
                            continue;
                        }
                        int why = refusal_kind(&pos, kind, num, action, arg);
                        if (why >= 0) seen[why]++;
                    }
    }
    for (int k = 0; k < R_KINDS; k++) assert_true(seen[k] > 100);
}

/* xq_sq_occ_of's byte places name each square's rank mask and file mask,
 * and xq_occ_flip flips exactly its bit in both, as the index arithmetic
 * does, on every square of random boards. */
static void test_occ_flip_places(void **state)
{
    (void)state;
    for (int sq = 0; sq < XQ_SQUARES; sq++) {
        const xq_sq_occ *o = &xq_sq_occ_of[sq];
        assert_int_equal(o->rank_at, offsetof(xq_position, rank_occ) + 2 * (size_t)XQ_RANK(sq));
        assert_int_equal(o->file_at, offsetof(xq_position, file_occ) + 2 * (size_t)XQ_FILE(sq));
        assert_int_equal(o->rank_bit, 1u << XQ_FILE(sq));
        assert_int_equal(o->file_bit, 1u << XQ_RANK(sq));
        assert_int_equal(o->fsq, XQ_FILE(sq) * 10 + XQ_RANK(sq));
    }
    uint64_t rng = 0xF11Bull;
    for (int i = 0; i < 200; i++) {
        xq_position pos;
        xq_checks s;
        crowded_board(&rng, 30, &pos, &s);
        for (int sq = 0; sq < XQ_SQUARES; sq++) {
            xq_position a = pos, b = pos;
            xq_occ_flip(&a, sq);
            b.rank_occ[XQ_RANK(sq)] ^= (uint16_t)(1u << XQ_FILE(sq));
            b.file_occ[XQ_FILE(sq)] ^= (uint16_t)(1u << XQ_RANK(sq));
            assert_memory_equal(&a, &b, sizeof a);
        }
    }
}

/* A make through xq_make_known_plain (the planned path's) against
 * xq_make on the legal moves of random walks, captures and quiet moves:
 * the same position, masks that agree with the board. */
static void visit_makes(xqt_walk *w)
{
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_legal_moves(&w->pos, moves);
    for (int i = 0; i < n; i++) {
        int from = XQ_FROM(moves[i]), to = XQ_TO(moves[i]);
        xq_piece p = w->pos.board[from];
        if (XQ_KIND(p) == XQ_GENERAL) continue;   /* xq_make_known_plain: not a general */
        xq_position a = w->pos, b = w->pos;
        xq_undo u;
        assert_int_equal(xq_make_known_plain(&a, from, to, p, a.board[to]), b.board[to]);
        xq_make(&b, moves[i], &u);
        assert_memory_equal(&a, &b, sizeof a);
        assert_true(xq_position_masks_ok(&a));
    }
}

static void test_make_plain(void **state)
{
    (void)state;
    uint64_t rng = 0xAB1Dull;
    xqt_walk w = {.rng = &rng, .bias = XQT_CAPTURES, .visit = visit_makes};
    xqt_walk_games(&w, 20, 120);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refuse_crowded),
        cmocka_unit_test(test_occ_flip_places),
        cmocka_unit_test(test_make_plain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
