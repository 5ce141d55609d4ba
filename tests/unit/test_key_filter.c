/* test_key_filter.c - the replay's filter of a game's position keys
 * (replay.c key_stamps: a byte a slot holding the number of the thread's
 * game that last met a key there, all cleared when the numbers wrap,
 * every 255 games).  A repetition must be found at every game number,
 * before and after each wrap, with games without a repetition between
 * them (their keys stamp the slots the repeating game's keys use: the
 * start position's key first), and a game must find no repetition that
 * an earlier game left in the slots.  The verdicts are compared with the
 * first game's, field by field; the replay without a memo and with one. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "replay.h"
#include "test_util.h"

/* The horses out and back twice: the start position stands a third time
 * after ply 8 (a draw by repetition, CXA1999). */
static const char REPEATS[] = "[Format \"ICCS\"]\n"
                              "1. h0g2 h9g7 2. g2h0 g7h9 3. h0g2 h9g7 4. g2h0 g7h9 *\n";
/* The same moves but one: no position three times. */
static const char NO_REPEAT[] = "[Format \"ICCS\"]\n"
                                "1. h0g2 h9g7 2. g2h0 g7h9 3. h0g2 h9g7 4. g2h0 i9h9 *\n";

/* (the verdict only when repeated: else out holds an earlier game's, replay.h) */
static void check_same(const xq_replay *want, const xq_replay *got, int game)
{
    if (got->repeated != want->repeated || got->termination != want->termination ||
        got->result_board != want->result_board || got->plies != want->plies ||
        (want->repeated && memcmp(&got->repetition, &want->repetition, sizeof got->repetition) != 0))
        fail_msg("game %d: repeated %d termination %d plies %d, want %d %d %d", game, got->repeated,
                 got->termination, got->plies, want->repeated, want->termination, want->plies);
}

static void run_games(bool with_memo)
{
    xqt_loaded rep, plain;
    xqt_load(&rep, REPEATS, sizeof REPEATS - 1);
    xqt_load(&plain, NO_REPEAT, sizeof NO_REPEAT - 1);
    assert_true(rep.r.repeated);
    assert_int_equal(rep.r.termination, XQ_TERM_REPETITION);
    assert_int_equal(rep.r.repetition.occurrences, 3);
    assert_int_equal(rep.r.repetition.last_ply, 8);
    assert_false(plain.r.repeated);
    assert_int_equal(plain.r.plies, 8);

    xq_replay_options opt;
    xq_replay_options_default(&opt);
    xq_replay_memo memo = {0};
    static xq_replay out;
    /* over two wraps of the game numbers (255 games each), the repeating
     * game at every number, either after itself or after the other */
    for (int k = 0; k < 3 * 256; k++) {
        bool repeat = (k % 3) != 1;
        xqt_loaded *l = repeat ? &rep : &plain;
        if (with_memo) xq_replay_game_memo(&l->g, &opt, &memo, &out);
        else xq_replay_game(&l->g, &opt, &out);
        check_same(&l->r, &out, k);
    }
    xq_replay_memo_free(&memo);
    xq_game_free(&rep.g);
    xq_game_free(&plain.g);
}

static void test_filter_across_wraps(void **state)
{
    (void)state;
    run_games(false);
}

static void test_filter_across_wraps_memo(void **state)
{
    (void)state;
    run_games(true);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_filter_across_wraps),
        cmocka_unit_test(test_filter_across_wraps_memo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
