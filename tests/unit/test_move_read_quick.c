/* test_move_read_quick.c - the per-ply shortcuts of a replay against the code
 * they stand for:
 *
 * - xq_position_start copies a constant position: it must equal the one
 *   built piece by piece with xq_position_put and the one read from
 *   XQ_START_FEN (board, generals, side, counters, key, masks); it holds
 *   the 22 attacking pieces replay.c assumes for it.
 * - xq_quiet_move_safe (the own-general test alone, for a side not in
 *   check moving a piece other than its general, geometry checked by the
 *   caller) must equal xq_move_legality_known(pos, m, false) == XQ_LEGAL
 *   for every move whose geometry passes, on positions of random games
 *   (all pieces, then thinned out by captures: open lines, generals
 *   facing on files) and of odd FENs.
 * - xq_move_read_quick (the Chinese full form, geometry tested by the
 *   piece it names, then xq_quiet_move_safe) must give either nothing or
 *   exactly the move xq_move_read gives with XQ_NOTE_OK, for every text
 *   "piece file action arg" (every kind, file, action and argument, three
 *   numeral spellings), under the flags a replay passes (none, told not in
 *   check, unchecked), on the same positions; and it must take every
 *   legal move of those positions as the writer spells it when its file
 *   holds one piece of the kind; and the tandem forms it takes (前/中/後
 *   with one tandem file, advisors or elephants the action tells apart)
 *   the same way, on positions with tandem pieces.  The reference is the
 *   general path alone (XQN_READ_NO_FAST).
 * - xq_play (make and check state in one call) must give the position,
 *   captured piece and check state of xq_make and xq_checks_after, the
 *   check state that of xq_in_check, along every game played here. */
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

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static unsigned rnd(unsigned n)
{
    return xqt_rnd(&rng_state, n);
}

static void same_position(const xq_position *a, const xq_position *b, const char *what)
{
    const char *diff = xqt_position_diff(a, b);
    if (diff) fail_msg("%s: %s differs", what, diff);
}

static void start_position(void **state)
{
    (void)state;
    static const xq_kind back[9] = {XQ_CHARIOT, XQ_HORSE, XQ_ELEPHANT, XQ_ADVISOR, XQ_GENERAL,
                                    XQ_ADVISOR, XQ_ELEPHANT, XQ_HORSE, XQ_CHARIOT};
    xq_position built, copied, read;
    xq_position_clear(&built);
    for (int f = 0; f < 9; f++) {
        xq_position_put(&built, XQ_SQ(f, 0), XQ_PIECE(back[f], XQ_RED));
        xq_position_put(&built, XQ_SQ(f, 9), XQ_PIECE(back[f], XQ_BLACK));
    }
    for (int f = 0; f < 9; f += 2) {
        xq_position_put(&built, XQ_SQ(f, 3), XQ_PIECE(XQ_SOLDIER, XQ_RED));
        xq_position_put(&built, XQ_SQ(f, 6), XQ_PIECE(XQ_SOLDIER, XQ_BLACK));
    }
    for (int f = 1; f < 9; f += 6) {
        xq_position_put(&built, XQ_SQ(f, 2), XQ_PIECE(XQ_CANNON, XQ_RED));
        xq_position_put(&built, XQ_SQ(f, 7), XQ_PIECE(XQ_CANNON, XQ_BLACK));
    }
    xq_position_start(&copied);
    same_position(&copied, &built, "start vs built");
    char err[128];
    if (!xq_fen_read(&read, XQ_START_FEN, err, sizeof err)) fail_msg("start FEN: %s", err);
    same_position(&copied, &read, "start vs FEN");
    assert_true(xq_position_masks_ok(&copied));
    /* replay.c takes 22 attacking pieces (chariot, horse, cannon, soldier)
     * for the start without counting them */
    int attackers = 0;
    for (int sq = 0; sq < XQ_SQUARES; sq++) {
        xq_kind k = XQ_KIND(copied.board[sq]);
        attackers += k == XQ_CHARIOT || k == XQ_HORSE || k == XQ_CANNON || k == XQ_SOLDIER;
    }
    assert_int_equal(attackers, 22);
}

static uint64_t safe_tested, quick_taken, quick_tested;
static uint64_t tandem_taken;   /* taken texts of tandem pieces (前/中/後, two advisors or elephants on a file) */

/* xq_quiet_move_safe against xq_move_legality_known for every move of a
 * non-general whose geometry passes, when the side is not in check. */
static void check_quiet_safe(const xq_position *pos)
{
    if (xq_in_check(pos, pos->side)) return;
    for (int from = 0; from < XQ_SQUARES; from++) {
        xq_piece p = pos->board[from];
        if (!p || XQ_COLOR(p) != pos->side || XQ_KIND(p) == XQ_GENERAL) continue;
        for (int to = 0; to < XQ_SQUARES; to++) {
            if (to == from) continue;
            xq_move m = XQ_MOVE(from, to);
            xq_illegal why = xq_move_legality_known(pos, m, false);
            if (why != XQ_LEGAL && why != XQ_ILL_LEAVES_CHECK && why != XQ_ILL_GENERALS_FACE) continue;
            bool safe = xq_quiet_move_safe(pos, from, to);
            safe_tested++;
            if (safe != (why == XQ_LEGAL)) {
                char fen[XQ_FEN_MAX];
                xq_fen_write(pos, fen, sizeof fen);
                fail_msg("%s: move %d-%d: quiet_move_safe %d, legality %s", fen, from, to, safe,
                         xq_illegal_str(why));
            }
        }
    }
}

/* One text read both ways under flags: the shortcut gives nothing or the
 * move of an XQ_NOTE_OK reading. */
static void same_quick(const xq_position *pos, const char *text, unsigned flags)
{
    size_t len = strlen(text);
    xq_move q = xq_move_read_quick(pos, text, len, XQ_NOTATION_CHINESE, flags);
    xq_move qa = xq_move_read_quick(pos, text, len, XQ_NOTATION_AUTO, flags);
    xq_note_result r;
    /* the general path alone (xq_move_read would try the shortcut first) */
    xq_move_read(pos, text, len, XQ_NOTATION_CHINESE, flags | XQN_READ_NO_FAST, &r, NULL, 0);
    quick_tested++;
    if (q != qa) fail_msg("'%s': quick differs between CHINESE and AUTO", text);
    if (q == XQ_MOVE_NONE) return;
    quick_taken++;
    xq_piece p = pos->board[XQ_FROM(q)];
    int onfile = 0;
    for (int sq = XQ_FILE(XQ_FROM(q)); sq < XQ_SQUARES; sq += 9) onfile += pos->board[sq] == p;
    tandem_taken += onfile > 1;
    if (r.status != XQ_NOTE_OK || r.move != q) {
        char fen[XQ_FEN_MAX];
        xq_fen_write(pos, fen, sizeof fen);
        fail_msg("%s: '%s' (flags %u): quick %u, read %s move %u", fen, text, flags, q,
                 xq_note_status_str(r.status), r.move);
    }
    if (xq_move_read_quick(pos, text, len, XQ_NOTATION_WXF, flags) != XQ_MOVE_NONE)
        fail_msg("'%s': quick read a WXF token", text);
}

/* Every "piece file action arg" text, Chinese numerals, full-width and
 * ASCII digits, traditional piece characters. */
static void all_texts(const xq_position *pos, unsigned flags)
{
    static const char *const pieces[] = {"帥", "將", "仕", "士", "相", "象", "馬", "車", "炮", "砲", "兵", "卒"};
    static const char *const actions[] = {"進", "退", "平"};
    static const char *const cn[10] = {"〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"};
    static const char *const fw[10] = {"０", "１", "２", "３", "４", "５", "６", "７", "８", "９"};
    char t[32];
    for (size_t p = 0; p < sizeof pieces / sizeof pieces[0]; p++)
        for (int f = 1; f <= 9; f++)
            for (int a = 0; a < 3; a++)
                for (int g = 0; g <= 9; g++) {
                    int style = (int)rnd(4);
                    if (style == 0) snprintf(t, sizeof t, "%s%s%s%s", pieces[p], cn[f], actions[a], cn[g]);
                    else if (style == 1) snprintf(t, sizeof t, "%s%s%s%s", pieces[p], fw[f], actions[a], fw[g]);
                    else if (style == 2) snprintf(t, sizeof t, "%s%d%s%d", pieces[p], f, actions[a], g);
                    else snprintf(t, sizeof t, "%s%s%s%d", pieces[p], cn[f], actions[a], g);
                    same_quick(pos, t, flags);
                }
    /* 前/中/後 (and 后) before the piece: tandem pieces */
    static const char *const marks[] = {"前", "中", "後", "后"};
    for (size_t k = 0; k < sizeof marks / sizeof marks[0]; k++)
        for (size_t p = 0; p < sizeof pieces / sizeof pieces[0]; p++)
            for (int a = 0; a < 3; a++)
                for (int g = 0; g <= 9; g++) {
                    if (rnd(2)) snprintf(t, sizeof t, "%s%s%s%s", marks[k], pieces[p], actions[a], cn[g]);
                    else snprintf(t, sizeof t, "%s%s%s%d", marks[k], pieces[p], actions[a], g);
                    same_quick(pos, t, flags);
                }
}

/* Every legal move as the writer spells it: the shortcut must take those
 * whose file holds one piece of the kind (plain four-character form). */
static void legal_moves_taken(const xq_position *pos, unsigned flags)
{
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_legal_moves(pos, moves);
    for (int i = 0; i < n; i++) {
        char t[XQ_NOTATION_MAX];
        size_t len = xq_move_write(pos, moves[i], XQ_NOTATION_CHINESE, XQ_WRITE_TRADITIONAL, t, sizeof t);
        if (!len) continue;
        same_quick(pos, t, flags);
        xq_piece p = pos->board[XQ_FROM(moves[i])];
        int onfile = 0;
        for (int sq = XQ_FILE(XQ_FROM(moves[i])); sq < XQ_SQUARES; sq += 9) onfile += pos->board[sq] == p;
        if (onfile == 1 && xq_move_read_quick(pos, t, len, XQ_NOTATION_CHINESE, flags) != moves[i])
            fail_msg("'%s': a legal plain move the shortcut did not take", t);
    }
}

static void check_position(const xq_position *pos, bool texts)
{
    check_quiet_safe(pos);
    bool chk = xq_in_check(pos, pos->side);
    unsigned told = chk ? 0u : XQ_READ_NOT_IN_CHECK;
    legal_moves_taken(pos, 0);
    legal_moves_taken(pos, told);
    if (texts) {
        all_texts(pos, told);
        all_texts(pos, 0);
        all_texts(pos, XQ_READ_UNCHECKED);
    }
}

/* Play legal m with xq_play (a replay's one call) and with xq_make and
 * xq_checks_after: same position, masks, captured piece and check state,
 * and the check state that of xq_in_check. */
static void play_both(xqt_walk *w, xq_move m)
{
    xq_position *pos = &w->pos;
    xq_checks *checks = &w->checks;
    xq_position made = *pos;
    xq_checks after = *checks;
    xq_undo u;
    xq_make(&made, m, &u);
    xq_checks_after(&after, &made, m);
    xq_piece cap = xq_play(pos, m, checks);
    same_position(pos, &made, "xq_play vs xq_make");
    assert_true(xq_position_masks_ok(pos));
    assert_int_equal(cap, u.captured);
    for (int c = 0; c < 2; c++) {
        assert_int_equal(checks->in_check[c], after.in_check[c]);
        assert_int_equal(checks->in_check[c], xq_in_check(pos, (xq_color)c));
    }
}

/* Every position of a random game from the start checked, the texts of
 * every sixth. */
static void visit_game(xqt_walk *w)
{
    check_position(&w->pos, w->ply % 6 == 0);
}

/* Random legal games from the start, captures preferred now and then
 * (thinned boards open the lines), played both ways. */
static void random_games(void **state)
{
    (void)state;
    xqt_walk w = {.rng = &rng_state, .bias = XQT_CAPTURES, .visit = visit_game, .play = play_both};
    xqt_walk_games(&w, 40, 200);
    printf("quiet_move_safe: %llu moves; quick: %llu of %llu texts taken\n", (unsigned long long)safe_tested,
           (unsigned long long)quick_taken, (unsigned long long)quick_tested);
    assert_true(safe_tested > 100000 && quick_taken > 10000);
}

/* Every position of random play from an odd one checked, the texts of
 * the odd one itself and of the positions after moves 1, 4, 7, ... */
static void visit_odd(xqt_walk *w)
{
    check_position(&w->pos, w->ply == 0 || w->ply % 3 == 1);
}

/* Odd positions (xqt_odd_fens: generals facing behind one piece, cannons
 * and chariots on the generals' lines, horses on the legs, soldiers across
 * the river, tandem pieces, impossible starts) and 30 plies of random play
 * from each. */
static void odd_positions(void **state)
{
    (void)state;
    size_t n;
    const char *const *fens = xqt_odd_fens(&n);
    xqt_walk w = {.rng = &rng_state, .bias = XQT_UNIFORM, .visit = visit_odd, .play = play_both, .visit_end = true};
    xqt_walk_fens(&w, fens, n, 30);
    printf("tandem texts taken by the shortcut: %llu\n", (unsigned long long)tandem_taken);
    assert_true(tandem_taken > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(start_position),
        cmocka_unit_test(random_games),
        cmocka_unit_test(odd_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
