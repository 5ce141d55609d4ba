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

#include "notation.h"
#include "position.h"

static uint64_t rng_state = 0x243F6A8885A308D3ull;

static unsigned rnd(unsigned n)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(rng_state >> 33) % n;
}

static void same_position(const xq_position *a, const xq_position *b, const char *what, const char *text)
{
    if (memcmp(a->board, b->board, sizeof a->board) != 0) fail_msg("%s '%s': board differs", what, text);
    if (a->general[0] != b->general[0] || a->general[1] != b->general[1])
        fail_msg("%s '%s': generals differ", what, text);
    if (a->side != b->side || a->halfmove != b->halfmove || a->fullmove != b->fullmove)
        fail_msg("%s '%s': side or counters differ", what, text);
    if (a->key != b->key) fail_msg("%s '%s': key differs", what, text);
    if (memcmp(a->rank_occ, b->rank_occ, sizeof a->rank_occ) != 0 ||
        memcmp(a->file_occ, b->file_occ, sizeof a->file_occ) != 0)
        fail_msg("%s '%s': masks differ", what, text);
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
    same_position(&fused_pos, &ref_pos, "position after", text);
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

static void play(xq_position *pos, xq_checks *checks, xq_move m)
{
    xq_play(pos, m, checks);
    assert_true(xq_position_masks_ok(pos));
}

/* Random legal games from the start: the legal texts of every position,
 * all texts of every eighth. */
static void random_games(void **state)
{
    (void)state;
    for (int game = 0; game < 30; game++) {
        xq_position pos;
        xq_position_start(&pos);
        xq_checks checks;
        xq_checks_init(&checks, &pos);
        for (int ply = 0; ply < 200; ply++) {
            legal_texts(&pos, &checks);
            if (ply % 8 == 0) all_texts(&pos, &checks);
            xq_move moves[XQ_MAX_MOVES];
            int n = xq_legal_moves(&pos, moves);
            if (n == 0) break;
            xq_move m = moves[rnd((unsigned)n)];
            for (int k = 0; k < n && rnd(3) == 0; k++)
                if (pos.board[XQ_TO(moves[k])]) m = moves[k];
            play(&pos, &checks, m);
        }
    }
    printf("read_play: %llu readings, %llu moves (%llu in check, %llu of a general)\n",
           (unsigned long long)tried, (unsigned long long)taken, (unsigned long long)taken_in_check,
           (unsigned long long)taken_general);
    assert_true(taken > 50000 && taken_in_check > 100 && taken_general > 100);
}

/* Odd and impossible positions: tandem pieces, generals on open files,
 * a side in check at the start (the side to move, or the other one). */
static void odd_positions(void **state)
{
    (void)state;
    static const char *const fens[] = {
        "4k4/9/9/9/4R4/9/9/9/9/4K4 w - - 0 1",
        "4k4/9/9/9/4R4/9/9/9/9/4K4 b - - 0 1",
        "4k4/9/9/9/4R4/9/9/9/9/3K5 w - - 0 1",   /* Black in check, Red to move */
        "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
        "4k4/4a4/9/9/9/4c4/9/4C4/4A4/4K4 w - - 0 1",
        "4k4/9/4n4/9/9/9/9/3N5/4P4/3K5 w - - 0 1",
        "3ak4/4a4/9/9/2p1p4/9/9/4c4/3PA4/4K4 w - - 0 1",
        "r3k3r/9/9/9/9/9/9/9/9/R3K3R w - - 0 1",
        "4k4/9/9/9/9/9/9/4n4/3PP4/3AKA3 w - - 0 1",
        "4kc3/9/9/9/9/9/9/9/5R3/4KC3 w - - 0 1",
        "3ak4/9/3a5/9/9/9/9/3A5/9/3AK4 w - - 0 1",
        "4k4/9/2b6/9/2b6/2B6/9/9/9/2B1K4 b - - 0 1",
        "2b1k4/9/9/9/2P3P2/2P3P2/9/1C7/1C7/4K4 w - - 0 1",
        "4k4/4a4/2P6/2P6/2P6/7R1/9/9/1N7/1N2K2R1 w - - 0 1",
        "1r2k4/1r2a4/2c1c4/9/2p6/2p6/2p6/9/9/4K4 b - - 0 1",
        "4k4/9/9/9/9/9/9/9/9/9 w - - 0 1",   /* no Red general */
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        xq_position pos;
        char err[128];
        if (!xq_fen_read(&pos, fens[i], err, sizeof err)) fail_msg("%s: %s", fens[i], err);
        xq_checks checks;
        xq_checks_init(&checks, &pos);
        for (int ply = 0; ply < 30; ply++) {
            all_texts(&pos, &checks);
            legal_texts(&pos, &checks);
            xq_move moves[XQ_MAX_MOVES];
            int n = xq_legal_moves(&pos, moves);
            if (n == 0) break;
            play(&pos, &checks, moves[rnd((unsigned)n)]);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_games),
        cmocka_unit_test(odd_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
