/* test_move_read_play.c - xq_move_read_play (the replay's one call that
 * reads a Chinese move and plays it) against the two calls it stands for:
 * xq_move_read_quick under the flags a replay passes (none when the side
 * to move is in check, XQ_READ_NOT_IN_CHECK otherwise), then xq_play.
 *
 * For every text tried on a position, both must give the same move; when
 * it is a move, the same position (board, generals, side, counters, key,
 * masks), captured piece and check state; when it is none, the fused call
 * must leave the position, the check state and *captured untouched.
 *
 * Texts: every "piece file action arg" (every kind, file, action and
 * argument 0..9, Chinese numerals, full-width and ASCII digits mixed),
 * 前/中/後 forms, every legal move as the writer spells it, and junk of
 * the lengths the fast path looks at (8 to 12 bytes: ASCII, a marker or a
 * numeral in place of the piece, truncated characters), in notations
 * AUTO, CHINESE, ABBR, 3DIGIT and WXF.  Positions: random games from the
 * start (captures preferred now and then: open lines, generals facing),
 * odd FENs with tandem pieces and generals on open files, and impossible
 * starts where a side is in check (the side to move, or the other one).
 * So many distinct texts pass that the per-thread token cache evicts
 * entries again and again; every text is read twice in a row too (the
 * second time from the cache). */
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
#include "position.h"

static uint64_t rng_state = 0x243F6A8885A308D3ull;

static unsigned rnd(unsigned n)
{
    return xqt_rnd(&rng_state, n);
}

static uint64_t tried, taken, taken_in_check, taken_general;

/* One text, one notation: the fused call against read_quick + xq_play. */
static void same_read_play(const xq_position *pos, const xq_checks *checks, const char *text, size_t len,
                           xq_notation notation)
{
    unsigned flags = checks->in_check[pos->side] ? 0u : XQ_READ_NOT_IN_CHECK;
    xq_move ref = xq_move_read_quick(pos, text, len, notation, flags);
    xq_position ref_pos = *pos;
    xq_checks ref_checks = *checks;
    xq_piece ref_cap = 0xEE;
    if (ref != XQ_MOVE_NONE) ref_cap = xq_play(&ref_pos, ref, &ref_checks);

    xq_position fused_pos = *pos;
    xq_checks fused_checks = *checks;
    xq_piece fused_cap = 0xEE;   /* must stay so when no move is read */
    xq_move fused = xq_move_read_play(&fused_pos, text, len, notation, &fused_checks, &fused_cap);
    tried++;
    if (fused != ref) {
        char fen[XQ_FEN_MAX];
        xq_fen_write(pos, fen, sizeof fen);
        fail_msg("%s: '%.*s' (notation %d): fused %u, quick %u", fen, (int)len, text, (int)notation, fused, ref);
    }
    const char *diff = xqt_position_diff(&fused_pos, &ref_pos);
    if (diff) fail_msg("position after '%.*s': %s differs", (int)len, text, diff);
    assert_int_equal(fused_cap, ref_cap);
    assert_int_equal(fused_checks.in_check[0], ref_checks.in_check[0]);
    assert_int_equal(fused_checks.in_check[1], ref_checks.in_check[1]);
    if (ref != XQ_MOVE_NONE) {
        taken++;
        taken_in_check += checks->in_check[pos->side];
        taken_general += XQ_KIND(pos->board[XQ_FROM(ref)]) == XQ_GENERAL;
    }
}

/* The text in the notations a replay may pass, each read twice. */
static void try_text(const xq_position *pos, const xq_checks *checks, const char *text, size_t len)
{
    static const xq_notation notations[] = {XQ_NOTATION_CHINESE, XQ_NOTATION_AUTO, XQ_NOTATION_CHINESE_ABBR,
                                            XQ_NOTATION_CHINESE_3DIGIT, XQ_NOTATION_WXF};
    xq_notation n = notations[rnd(8) < 5 ? rnd(2) : rnd(5)];
    same_read_play(pos, checks, text, len, n);
    same_read_play(pos, checks, text, len, n);
}

static void try_str(const xq_position *pos, const xq_checks *checks, const char *text)
{
    try_text(pos, checks, text, strlen(text));
}

/* Every plain text, markers, and junk. */
static void all_texts(const xq_position *pos, const xq_checks *checks)
{
    static const char *const pieces[] = {"帥", "將", "帅", "将", "仕", "士", "相", "象", "馬", "马", "傌",
                                         "車", "俥", "车", "炮", "砲", "包", "兵", "卒"};
    static const char *const actions[] = {"進", "进", "退", "平", "上", "下"};
    static const char *const cn[10] = {"〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"};
    static const char *const fw[10] = {"０", "１", "２", "３", "４", "５", "６", "７", "８", "９"};
    char t[40];
    for (size_t p = 0; p < sizeof pieces / sizeof pieces[0]; p++)
        for (int f = 0; f <= 9; f++)
            for (size_t a = 0; a < sizeof actions / sizeof actions[0]; a++)
                for (int g = 0; g <= 9; g++) {
                    if (rnd(3)) continue;   /* a third of them: the cache keeps changing */
                    const char *ff = rnd(2) ? cn[f] : fw[f], *gg = rnd(2) ? cn[g] : fw[g];
                    switch (rnd(4)) {
                    case 0: snprintf(t, sizeof t, "%s%s%s%s", pieces[p], ff, actions[a], gg); break;
                    case 1: snprintf(t, sizeof t, "%s%d%s%d", pieces[p], f, actions[a], g); break;
                    case 2: snprintf(t, sizeof t, "%s%s%s%d", pieces[p], ff, actions[a], g); break;
                    default: snprintf(t, sizeof t, "%s%d%s%s", pieces[p], f, actions[a], gg); break;
                    }
                    try_str(pos, checks, t);
                }
    static const char *const marks[] = {"前", "中", "後", "后"};
    for (size_t k = 0; k < sizeof marks / sizeof marks[0]; k++)
        for (size_t p = 0; p < sizeof pieces / sizeof pieces[0]; p += 2)
            for (int a = 0; a < 4; a++)
                for (int g = 1; g <= 9; g++) {
                    if (rnd(2)) snprintf(t, sizeof t, "%s%s%s%s", marks[k], pieces[p], actions[a], cn[g]);
                    else snprintf(t, sizeof t, "%s%s%s%d", marks[k], pieces[p], actions[a], g);
                    try_str(pos, checks, t);
                }
    /* junk of the lengths the shortcut reads, and texts cut short or
     * running on: none must be read as a move by one and not the other */
    static const char *const junk[] = {
        "abcdefgh", "h2e2h2e2", "C2.5xxxx", "炮二平五五", "炮二平", "二炮平五", "炮二五平", "炮炮平五",
        "炮二平五\n", "炮2平55", "炮22平5", "前炮平五五", "平二平五", "五二平五", "炮二二五", "馬325",
        "馬三進〇", "馬〇進三", "車一平一", "炮二平a", "炮a平五", "炮二x五",
    };
    for (size_t j = 0; j < sizeof junk / sizeof junk[0]; j++) try_str(pos, checks, junk[j]);
    /* a valid text cut at every length (broken UTF-8 at the end) */
    const char *v = "馬８進７";
    for (size_t n = 1; n <= strlen(v); n++) try_text(pos, checks, v, n);
}

/* Every legal move as the writer spells it (simplified or traditional,
 * ASCII digits or full-width ones for Black). */
static void legal_texts(const xq_position *pos, const xq_checks *checks)
{
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_legal_moves(pos, moves);
    for (int i = 0; i < n; i++) {
        char t[XQ_NOTATION_MAX];
        unsigned wf = (rnd(2) ? XQ_WRITE_TRADITIONAL : 0) | (rnd(2) ? XQ_WRITE_ASCII_DIGITS : 0);
        size_t len = xq_move_write(pos, moves[i], XQ_NOTATION_CHINESE, wf, t, sizeof t);
        if (len) try_text(pos, checks, t, len);
    }
}

/* The legal texts of every position of a random game from the start, all
 * texts of every eighth. */
static void visit_game(xqt_walk *w)
{
    legal_texts(&w->pos, &w->checks);
    if (w->ply % 8 == 0) all_texts(&w->pos, &w->checks);
}

/* Random legal games from the start (captures preferred now and then). */
static void random_games(void **state)
{
    (void)state;
    xqt_walk w = {.rng = &rng_state, .bias = XQT_CAPTURES, .visit = visit_game};
    xqt_walk_games(&w, 30, 200);
    printf("read_play: %llu readings, %llu moves (%llu in check, %llu of a general)\n",
           (unsigned long long)tried, (unsigned long long)taken, (unsigned long long)taken_in_check,
           (unsigned long long)taken_general);
    assert_true(taken > 50000 && taken_in_check > 100 && taken_general > 100);
}

/* All texts, then the legal ones, of every position of an odd game. */
static void visit_odd(xqt_walk *w)
{
    all_texts(&w->pos, &w->checks);
    legal_texts(&w->pos, &w->checks);
}

/* Odd and impossible positions (xqt_odd_fens: tandem pieces, generals on
 * open files, a side in check at the start, the side to move or the other
 * one) and 30 plies of random play from each. */
static void odd_positions(void **state)
{
    (void)state;
    size_t n;
    const char *const *fens = xqt_odd_fens(&n);
    xqt_walk w = {.rng = &rng_state, .bias = XQT_UNIFORM, .visit = visit_odd};
    xqt_walk_fens(&w, fens, n, 30);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_games),
        cmocka_unit_test(odd_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
