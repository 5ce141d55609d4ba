/* test_replay_no_final.c - xq_replay_options.no_final (replay.h): with it
 * xq_replay_game_memo leaves out->final all zero, and a main line taken
 * from the memo of main lines is not set up as its final position; every
 * other byte of the result, and every node's move, is the same as
 * without it.  Games: the first 3,000 master games (about one in twelve a
 * repeat of an earlier line, taken from the memo), the corpus records
 * and made-up duplicates (a FEN start, variations, an illegal move),
 * under the tools' option sets (no_warning_text, no_moves, AXF, strict,
 * a move limit); each game replayed by two replayers, each with its own
 * memo, one with no_final.  That memo hits happened with no_final is
 * checked too (the memo's ring did not move for a repeated line), and
 * that with one memo for both a line kept under no_final is not taken
 * where the final position is read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "test_util.h"

#include "line_memo.h"
#include "pgn_read.h"
#include "replay.h"

#ifndef XQ_SHARED
#define XQ_SHARED "../shared"
#endif

enum { NOPT = 5 };
static xq_replay_options opts[NOPT];

static void opts_init(void)
{
    for (int i = 0; i < NOPT; i++) xq_replay_options_default(&opts[i]);
    opts[0].no_warning_text = true;   /* xq-stats' */
    opts[1].no_warning_text = true;   /* xq-validate's */
    opts[1].no_moves = true;
    /* opts[2]: xq-convert's and xq-parse's (the defaults) */
    opts[3].rules = XQ_RULES_AXF;
    opts[3].check_cap = 10;
    opts[3].strict = true;
    opts[4].move_limit = 5;
    opts[4].repetitions = 2;
}

/* What the two replays hold in all: games, memo hits with no_final. */
typedef struct {
    size_t games, hits, with_final;
} tally_final;

enum { COUNT_MOVES = 1 << 16 };   /* node moves compared per game */

static bool all_zero(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i]) return false;
    return true;
}

/* Game g replayed under opt (plain, its memo mp) and opt with no_final
 * (memo mf): the same result but final, all zero with no_final; the same
 * node moves. */
static void compare_game(xq_game *g, const xq_replay_options *opt, xq_replay_memo *mp, xq_replay_memo *mf,
                         tally_final *t)
{
    static xq_replay a, b;
    static xq_move moves[COUNT_MOVES];
    xq_replay_options of = *opt;
    of.no_final = true;
    size_t n = g->main.count < COUNT_MOVES ? g->main.count : COUNT_MOVES;
    for (size_t i = 0; i < g->main.count; i++) g->main.nodes[i].move = XQ_MOVE_NONE;
    memset(&a, 0, sizeof a);
    uint64_t head_p = mp->lines.head;
    xq_replay_game_memo(g, opt, mp, &a);
    bool kept_p = mp->lines.head != head_p;
    for (size_t i = 0; i < n; i++) {
        moves[i] = g->main.nodes[i].move;
        g->main.nodes[i].move = XQ_MOVE_NONE;
    }
    memset(&b, 0, sizeof b);
    uint64_t head = mf->lines.head;
    xq_replay_game_memo(g, &of, mf, &b);
    bool kept = mf->lines.head != head;
    assert_int_equal(kept, kept_p);   /* the same lines kept, final or not */
    for (size_t i = 0; i < n; i++) assert_int_equal(g->main.nodes[i].move, moves[i]);
    assert_true(all_zero(&b.final, sizeof b.final));
    t->with_final += !all_zero(&a.final, sizeof a.final);
    /* the rest byte for byte: final set equal first */
    b.final = a.final;
    if (memcmp(&a, &b, sizeof a)) {
        const unsigned char *x = (const void *)&a, *y = (const void *)&b;
        size_t i = 0;
        while (x[i] == y[i]) i++;
        fail_msg("game at line %llu: the results differ at byte %zu", (unsigned long long)g->first_line, i);
    }
    t->games++;
    /* a repeated keepable line is not kept again: taken from the memo */
    t->hits += !kept && a.status == XQ_STATUS_VALID && g->main.count;
}
static void compare_path(const char *path, int max, tally_final *t)
{
    xq_reader *rd = xqt_reader_open(path);
    if (!rd) return;
    for (int o = 0; o < NOPT; o++) {
        xq_replay_memo mp = {0}, mf = {0};
        xq_game g;
        xq_game_init(&g);
        xq_reader_close(rd);
        rd = xqt_reader_open(path);
        assert_non_null(rd);
        for (int k = 0; k < max && xq_reader_next(rd, &g) == 1; k++) compare_game(&g, &opts[o], &mp, &mf, t);
        xq_game_free(&g);
        xq_replay_memo_free(&mp);
        xq_replay_memo_free(&mf);
    }
    xq_reader_close(rd);
}

static void test_masters(void **state)
{
    (void)state;
    const char *path = XQ_SHARED "/corpus/ccpd/masters.pgn.gz";
    skip_without_shared(path);
    opts_init();
    tally_final t = {0};
    compare_path(path, 3000, &t);
    print_message("%zu replays, %zu with a final position, %zu from the memo with no_final\n", t.games,
                  t.with_final, t.hits);
    assert_int_equal(t.games, NOPT * 3000);
    assert_true(t.with_final > t.games * 9 / 10);
    assert_true(t.hits > 100);
}

/* Made-up records: a repeated line, the same from a FEN of the start and
 * another FEN, with a variation, with an illegal move, without moves. */
static const char made_up[] =
    "[Event \"a\"]\n\n1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ 3. 車一平二 卒７進１ 1-0\n\n"
    "[Event \"b\"]\n\n1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ 3. 車一平二 卒７進１ 0-1\n\n"
    "[Event \"c\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n\n"
    "1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ 3. 車一平二 卒７進１ *\n\n"
    "[Event \"d\"]\n[FEN \"4k4/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1\"]\n\n1. 車五進八 *\n\n"
    "[Event \"e\"]\n\n1. 炮二平五 (1. 兵七進一) 馬８進７ 2. 馬二進三 車９平８ *\n\n"
    "[Event \"f\"]\n\n1. 炮二平五 馬８進７ 2. 馬二進九 *\n\n"
    "[Event \"g\"]\n\n1. 炮二平五 馬８進７ 2. 馬二進九 *\n\n"
    "[Event \"h\"]\n\n*\n\n"
    "[Event \"i\"]\n\n1. 馬二進三 馬８進７ 2. 馬三退二 馬７退８ 3. 馬二進三 馬８進７ 4. 馬三退二 馬７退８ "
    "5. 馬二進三 馬８進７ 6. 馬三退二 馬７退８ *\n\n"
    "[Event \"j\"]\n\n1. 馬二進三 馬８進７ 2. 馬三退二 馬７退８ 3. 馬二進三 馬８進７ 4. 馬三退二 馬７退８ "
    "5. 馬二進三 馬８進７ 6. 馬三退二 馬７退８ *\n";

static void test_made_up(void **state)
{
    (void)state;
    opts_init();
    char path[64];
    save_tmp(made_up, sizeof made_up - 1, path);
    tally_final t = {0};
    compare_path(path, 100, &t);
    unlink(path);
    assert_int_equal(t.games, NOPT * 10);
    assert_true(t.hits >= NOPT);   /* b after a, at least */
}

/* One memo for both: the made-up games replayed with no_final (their
 * lines kept without a final position), then without it, twice: each
 * replay's final position is the one a replay without a memo gives (a
 * line kept under no_final is not taken by a caller that reads final:
 * the key holds no_final), the second pass keeps lines anew and the
 * third takes them. */
static void test_one_memo_both_ways(void **state)
{
    (void)state;
    opts_init();
    enum { MAX = 16 };
    static xq_game g[MAX];
    static xq_replay want, got;
    xq_format fmt;
    int n = read_tmp_bytes(made_up, sizeof made_up - 1, g, MAX, &fmt);
    assert_int_equal(n, 10);
    for (int o = 0; o < NOPT; o++) {
        xq_replay_memo memo = {0};
        xq_replay_options of = opts[o], ow = opts[o];
        of.no_final = true;
        ow.no_final = false;
        for (int i = 0; i < n; i++) xq_replay_game_memo(&g[i], &of, &memo, &got);
        size_t kept_with_final[2] = {0, 0}, with_final = 0;
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < n; i++) {
                xq_replay_game(&g[i], &ow, &want);
                uint64_t head = memo.lines.head;
                xq_replay_game_memo(&g[i], &ow, &memo, &got);
                kept_with_final[pass] += memo.lines.head != head;
                assert_memory_equal(&want.final, &got.final, sizeof want.final);
                with_final += pass == 0 && !all_zero(&want.final, sizeof want.final);
            }
        assert_true(with_final >= 7);
        assert_true(kept_with_final[0] >= 2);   /* a and f at least: not taken from the no_final lines */
        assert_int_equal(kept_with_final[1], 0);   /* taken from the lines of the pass before */
        xq_replay_memo_free(&memo);
    }
    free_all(g, n);
}

/* Every corpus PGN file of this tree. */
static void test_corpus(void **state)
{
    (void)state;
    opts_init();
    static const char *const files[] = {
        "corpus/sample-games.pgn", "corpus/edge-cases.pgn", "corpus/broken.pgn",
    };
    tally_final t = {0};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) compare_path(files[i], 1000, &t);
    assert_true(t.games > 0);
}

int main(int argc, char **argv)
{
    (void)argc;
    xqt_chdir_to_root(argv[0], "corpus/sample-games.pgn");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_made_up),
        cmocka_unit_test(test_one_memo_both_ways),
        cmocka_unit_test(test_corpus),
        cmocka_unit_test(test_masters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
