/* test_move_safety.c - the own-general test of the Chinese shortcut and
 * the warning text of tandem pieces against what they stand for:
 *
 * - xq_quiet_move_safe (by line directions: line_opened, screen_made,
 *   horse_behind) must equal xq_move_legality(pos, m) == XQ_LEGAL (the
 *   full test on a copy of the board, exposes_general, which shares no
 *   code path with it) for every move of a piece other than the general
 *   whose geometry passes, the side not in check, on positions of random
 *   games that favour captures and moves onto the generals' lines (open
 *   files and ranks, cannon screens, pinned pieces, facing generals).
 * - xq_move_safe (the full test without the geometry, for a general or a
 *   side in check) the same, for every mover, in check or not.
 * - The warning of a plain text naming a file with two or more pieces of
 *   its kind ("2 chariots on file 3 without 前/後; only the one on c4 can
 *   move so"), built without printf in notation.c, must be exactly the
 *   printf text, and truncated for every message size as snprintf
 *   truncates, with the same status and move. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_util.h"

#include "notation.h"
#include "notation_internal.h"
#include "position.h"

/* The seed of the random games (xqt_rnd). */
static uint64_t rng_state = 0x2545F4914F6CDD1Dull;

static uint64_t safe_tested, safe_unsafe;

/* xq_quiet_move_safe against the full legality test for every move of a
 * non-general whose geometry passes, when the side is not in check. */
static void check_quiet_safe(const xq_position *pos)
{
    if (xq_in_check(pos, pos->side)) return;
    for (int from = 0; from < XQ_SQUARES; from++) {
        xq_piece p = pos->board[from];
        if (!p || XQ_COLOR(p) != pos->side || XQ_KIND(p) == XQ_GENERAL) continue;
        for (int to = 0; to < XQ_SQUARES; to++) {
            if (to == from) continue;
            xq_illegal why = xq_move_legality(pos, XQ_MOVE(from, to));
            if (why != XQ_LEGAL && why != XQ_ILL_LEAVES_CHECK && why != XQ_ILL_GENERALS_FACE) continue;
            bool safe = xq_quiet_move_safe(pos, from, to);
            safe_tested++;
            safe_unsafe += !safe;
            if (safe != (why == XQ_LEGAL)) {
                char fen[XQ_FEN_MAX];
                xq_fen_write(pos, fen, sizeof fen);
                fail_msg("%s: move %d-%d: quiet_move_safe %d, legality %s", fen, from, to, safe,
                         xq_illegal_str(why));
            }
        }
    }
}

static uint64_t any_tested;

/* xq_move_safe (the full own-general test alone, the Chinese shortcut's
 * test for a general or a side that may be in check) against the full
 * legality test, for every move whose geometry passes, any mover, in
 * check or not. */
static void check_move_safe(const xq_position *pos)
{
    for (int from = 0; from < XQ_SQUARES; from++) {
        xq_piece p = pos->board[from];
        if (!p || XQ_COLOR(p) != pos->side) continue;
        for (int to = 0; to < XQ_SQUARES; to++) {
            if (to == from) continue;
            xq_illegal why = xq_move_legality(pos, XQ_MOVE(from, to));
            if (why != XQ_LEGAL && why != XQ_ILL_LEAVES_CHECK && why != XQ_ILL_GENERALS_FACE) continue;
            any_tested++;
            if (xq_move_safe(pos, from, to) != (why == XQ_LEGAL)) {
                char fen[XQ_FEN_MAX];
                xq_fen_write(pos, fen, sizeof fen);
                fail_msg("%s: move %d-%d: move_safe differs, legality %s", fen, from, to, xq_illegal_str(why));
            }
        }
    }
}

/* Both tests at a position of a random game, xq_move_safe at every
 * second. */
static void visit_game(xqt_walk *w)
{
    check_quiet_safe(&w->pos);
    if (w->ply % 2 == 0) check_move_safe(&w->pos);
}

/* Random games from the start, captures and moves onto a general's file
 * or rank preferred now and then (they make the lines this test is
 * about). */
static void random_games(void **state)
{
    (void)state;
    xqt_walk w = {.rng = &rng_state, .bias = XQT_LINES, .visit = visit_game};
    xqt_walk_games(&w, 60, 160);
    printf("quiet_move_safe: %llu moves, %llu unsafe; move_safe: %llu moves\n", (unsigned long long)safe_tested,
           (unsigned long long)safe_unsafe, (unsigned long long)any_tested);
    assert_true(safe_tested > 200000 && safe_unsafe > 1000 && any_tested > 100000);
}

/* --- the tandem warning ------------------------------------------------ */

static const char *const piece_red[8] = {"", "帥", "仕", "相", "馬", "車", "炮", "兵"};
static const char *const piece_black[8] = {"", "將", "士", "象", "馬", "車", "炮", "卒"};
static const char *const action_cn[4] = {"", "進", "退", "平"};

static uint64_t warned;

/* m, legal in pos, written plainly ("炮2平5": piece, file, action,
 * argument, ASCII digits) although its file holds more of its kind; read
 * with message buffers of every size up to 120, each reading must give
 * the status and move of the full one and its message cut to size - 1
 * bytes; a warning must be the printf text. */
static void plain_text_warning(const xq_position *pos, xq_move m, unsigned flags)
{
    xq_kind kind;
    int action, arg;
    if (!xqn_describe(pos, m, &kind, &action, &arg)) return;
    if (kind == XQ_ADVISOR || kind == XQ_ELEPHANT || kind == XQ_GENERAL) return;
    int from = XQ_FROM(m), x = XQ_FILE(from), n = 0;
    for (int sq = x; sq < XQ_SQUARES; sq += 9) n += pos->board[sq] == pos->board[from];
    if (n < 2) return;
    char text[32];
    int num = xqn_file_num(pos->side, x);
    snprintf(text, sizeof text, "%s%d%s%d", (pos->side == XQ_RED ? piece_red : piece_black)[kind], num,
             action_cn[action], arg);
    xq_note_result full;
    char msg[256];
    xq_note_status st = xq_move_read(pos, text, strlen(text), XQ_NOTATION_CHINESE, flags, &full, msg, sizeof msg);
    if (st == XQ_NOTE_RESOLVED) {
        char a[3], want1[256], want2[256];
        xqn_sqname(XQ_FROM(full.move), a);
        snprintf(want1, sizeof want1, "%d %ss on file %d without 前/後; only the one on %s can move so", n,
                 xqn_kind_en(kind), num, a);
        snprintf(want2, sizeof want2, "%d %ss on file %d without 前/後; only the one on %s can make this move legally",
                 n, xqn_kind_en(kind), num, a);
        if (strcmp(msg, want1) && strcmp(msg, want2)) fail_msg("'%s': message '%s'", text, msg);
        warned++;
    }
    for (size_t size = 1; size <= 120; size++) {
        xq_note_result r;
        char cut[256];
        memset(cut, 'X', sizeof cut);
        xq_note_status s2 = xq_move_read(pos, text, strlen(text), XQ_NOTATION_CHINESE, flags, &r, cut, size);
        assert_int_equal(s2, st);
        assert_int_equal(r.move, full.move);
        size_t want = strlen(msg) < size - 1 ? strlen(msg) : size - 1;
        if (memcmp(cut, msg, want) != 0 || cut[want] != 0 || cut[size] != 'X')
            fail_msg("'%s': message cut to %zu bytes differs", text, size);
    }
}

/* Every legal move of a position written plainly, with and (not in
 * check) without the full check test. */
static void visit_tandem(xqt_walk *w)
{
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_legal_moves(&w->pos, moves);
    bool chk = xq_in_check(&w->pos, w->pos.side);
    for (int k = 0; k < n; k++) {
        plain_text_warning(&w->pos, moves[k], 0);
        if (!chk) plain_text_warning(&w->pos, moves[k], XQ_READ_NOT_IN_CHECK);
    }
}

static void tandem_warnings(void **state)
{
    (void)state;
    static const char *const fens[] = {
        "4k4/9/9/9/9/9/9/9/9/R3K3R w - - 0 1",
        "2bak4/9/2r6/9/2r6/9/2R6/9/2R6/4K4 w - - 0 1",
        "2bak4/9/2r6/9/2r6/9/2R6/9/2R6/4K4 b - - 0 1",
        "3ak4/9/1c7/9/1c7/9/1C7/9/1C7/3K5 w - - 0 1",
        "3ak4/9/1c7/9/1c7/9/1C7/9/1C7/3K5 b - - 0 1",
        "4k4/9/2n6/9/2n6/2N6/9/2N6/9/4K4 w - - 0 1",
        "4k4/9/2n6/9/2n6/2N6/9/2N6/9/4K4 b - - 0 1",
        "4k4/9/9/2P6/2P6/2P6/9/9/9/4K4 w - - 0 1",
        "4k4/4a4/4c4/9/4R4/9/9/4R4/9/4K4 w - - 0 1",
        "4k4/9/9/9/4r4/9/4r4/9/4C4/4K4 b - - 0 1",
        "1r2k4/1r2a4/2c1c4/9/2p6/2p6/2p6/9/9/4K4 b - - 0 1",
    };
    xqt_walk w = {.rng = &rng_state, .bias = XQT_UNIFORM, .visit = visit_tandem};
    xqt_walk_fens(&w, fens, sizeof fens / sizeof fens[0], 12);
    printf("tandem warnings compared: %llu\n", (unsigned long long)warned);
    assert_true(warned > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_games),
        cmocka_unit_test(tandem_warnings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
