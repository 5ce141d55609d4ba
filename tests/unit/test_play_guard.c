/* test_play_guard.c - the own-general test of xq_move_play_desc's fast
 * path for a move that touches a line of the mover's general
 * (notation_chinese.c's plan_guard_clear: no chariot or cannon of the
 * other side on the ray the move leaves, no general of it facing across
 * it once the mover is gone, no cannon on the ray an empty to-square
 * enters; then the move is played with no scan), against what it stands
 * for: the text of the desc read by xq_move_read_quick (told the check
 * state as the replay keeps it) and played by xq_play.  On the positions
 * where that test matters most: the main lines of recorded games
 * (openings and middlegames: pieces leaving the general's rank and file,
 * central cannons, facing generals), line-biased random games (pins,
 * screens, chariots on the general's lines) and odd starts.  Every full
 * form of the side to move (1,701 descs) at each position: the same move,
 * captured piece, position and check state; and enough moves that touch
 * the general's lines, played and refused, to have met both answers. */
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

#include "game.h"
#include "notation.h"
#include "position.h"

#ifndef XQ_SHARED
#define XQ_SHARED "../shared"
#endif

/* UTF-8 of each kind (index xq_kind), numeral 1..9 and action (1 進,
 * 2 退, 3 平), as the reader takes them. */
static const char *const PIECE[8] = {NULL, "帥", "仕", "相", "馬", "車", "炮", "兵"};
static const char *const NUM[10] = {NULL, "一", "二", "三", "四", "五", "六", "七", "八", "九"};
static const char *const ACT[4] = {NULL, "進", "退", "平"};

/* What the comparisons met: descs compared, moves played, and among the
 * moves the reference names (not by a general, side not in check) those
 * that start or end on the file or rank of the mover's general: played
 * (legal) and refused (they would expose it). */
static long compared, played, line_legal, line_refused;

/* Does square s lie on the file or rank of square g (not g itself)? */
static bool on_lines(int g, int s)
{
    return s != g && (s % XQ_FILES == g % XQ_FILES || s / XQ_FILES == g / XQ_FILES);
}

/* xq_move_play_desc(d) on a copy of pos against the text read
 * (xq_move_read_quick) and played (xq_play) on another; in the check
 * state *checks. */
static void compare_desc(const xq_position *pos, const xq_checks *checks, int kind, int num, int action, int arg)
{
    char text[32];
    size_t len = (size_t)snprintf(text, sizeof text, "%s%s%s%s", PIECE[kind], NUM[num], ACT[action], NUM[arg]);
    unsigned d = (unsigned)(arg | action << 4 | num << 6 | kind << 10);
    compared++;
    played += xqt_play_desc_agrees(pos, checks, d, text, len);
}

/* Tally the moves of pos that touch the lines of the mover's general
 * (the guarded ones: a piece other than the general from or to its file
 * or rank), legal or refused for exposing it; the side not in check. */
static void tally_lines(const xq_position *pos, const xq_checks *checks)
{
    int g = pos->general[pos->side];
    if (g >= XQ_SQUARES || checks->in_check[pos->side]) return;
    for (int from = 0; from < XQ_SQUARES; from++) {
        xq_piece p = pos->board[from];
        if (!p || XQ_COLOR(p) != pos->side || XQ_KIND(p) == XQ_GENERAL) continue;
        for (int to = 0; to < XQ_SQUARES; to++) {
            if (!on_lines(g, from) && !on_lines(g, to)) continue;
            xq_illegal why = xq_move_legality(pos, XQ_MOVE(from, to));
            if (why == XQ_LEGAL) line_legal++;
            else if (why == XQ_ILL_LEAVES_CHECK || why == XQ_ILL_GENERALS_FACE) line_refused++;
        }
    }
}

/* Every full form at pos (check state *checks). */
static void all_descs(const xq_position *pos, const xq_checks *checks)
{
    tally_lines(pos, checks);
    for (int kind = 1; kind <= 7; kind++)
        for (int num = 1; num <= 9; num++)
            for (int action = 1; action <= 3; action++)
                for (int arg = 1; arg <= 9; arg++) compare_desc(pos, checks, kind, num, action, arg);
}

static void visit_walk(xqt_walk *w)
{
    all_descs(&w->pos, &w->checks);
}

/* The main lines of the first max_games records of path, every desc at
 * every `every`-th ply. */
static void compare_file(const char *path, int every, int max_games)
{
    xqt_lines w;
    xqt_lines_open(&w, path, max_games);
    long ply = 0;
    while (xqt_lines_game(&w)) {
        xq_checks c;
        xq_checks_init(&c, &w.pos);
        for (xq_move m; xqt_lines_move(&w, &m); xqt_lines_play(&w, m), ply++) {
            xq_checks_init(&c, &w.pos);
            if (ply % every == 0) all_descs(&w.pos, &c);
        }
    }
    xqt_lines_close(&w);
}

static void test_guard_recorded(void **state)
{
    (void)state;
    compared = played = line_legal = line_refused = 0;
    compare_file(XQ_SHARED "/corpus/ccpd/masters.pgn.gz", 3, 40);
    compare_file(XQ_SHARED "/corpus/ccpd/middlegames.pgn.gz", 5, 60);
    print_message("# recorded: %ld descs, %ld played; line moves %ld legal, %ld refused\n", compared, played,
                  line_legal, line_refused);
    assert_true(played > 2000);
    assert_true(line_legal > 2000);
}

static void test_guard_random(void **state)
{
    (void)state;
    uint64_t rng = 0x6A7D6A7Dull;
    compared = played = line_legal = line_refused = 0;
    xqt_walk w = {.rng = &rng, .visit = visit_walk, .visit_end = true};
    XQT_WALK_SERIES(&w, {XQT_LINES, 12, 150}, {XQT_CAPTURES, 4, 150});
    size_t n;
    const char *const *fens = xqt_odd_fens(&n);
    w.bias = XQT_LINES;
    xqt_walk_fens(&w, fens, n, 16);
    print_message("# random: %ld descs, %ld played; line moves %ld legal, %ld refused\n", compared, played,
                  line_legal, line_refused);
    assert_true(played > 2000);
    assert_true(line_legal > 1000);
    assert_true(line_refused > 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_guard_recorded),
        cmocka_unit_test(test_guard_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
