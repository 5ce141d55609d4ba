/* test_notation_fast.c - the fast reading paths of notation*.c against the
 * general ones.  xq_move_read takes shortcuts for the common Chinese full
 * form (炮二平五 with one piece of the kind on its file: bytes looked up
 * without decoding, one file scanned, the geometry tested by the piece it
 * names, then the general's safety), for one piece on a plain file in
 * xqn_resolve (WXF too), and tokenises table characters without decoding
 * them.  XQN_READ_NO_FAST (notation_internal.h) turns all
 * of them off; every text here is read both ways and must give the same
 * status, move, reason, notation, column and message, byte for byte.
 *
 * Texts: every piece character with every numeral spelling, action and
 * argument (0 too), the tandem forms, WXF, every legal move as the writers
 * spell it, and those texts cut short, lengthened or with a byte broken
 * (bad UTF-8, NUL, ASCII), in perft, random-game and tandem positions, for
 * both sides to move and under the read flags.
 *
 * XQ_READ_NOT_IN_CHECK (the check state told, xq_move_legality_known):
 * every text read in a position whose side is not in check is read with
 * it too and must give the same; and over the corpus sample and random
 * games the check state kept along the game (xq_checks, as xq_replay_game
 * keeps it) must equal xq_in_check at every ply, and each move read with
 * the state told must equal the move read without. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "notation.h"
#include "notation_internal.h"
#include "pgn_read.h"
#include "replay.h"

#ifndef XQ_SHARED
#define XQ_SHARED "../shared"
#endif

static uint64_t compared;

static void read_fen(xq_position *p, const char *fen)
{
    char err[128];
    if (!xq_fen_read(p, fen, err, sizeof err)) fail_msg("FEN %s: %s", fen, err);
}

/* Read text both ways (fast paths on and off); everything must agree. */
static void same_both_ways(const xq_position *pos, const char *text, size_t len, xq_notation n,
                           unsigned flags)
{
    xq_note_result a, b;
    char ma[256], mb[256];
    xq_move_read(pos, text, len, n, flags, &a, ma, sizeof ma);
    xq_move_read(pos, text, len, n, flags | XQN_READ_NO_FAST, &b, mb, sizeof mb);
    compared++;
    if (a.status != b.status || a.move != b.move || a.why != b.why || a.notation != b.notation
        || a.column != b.column || strcmp(ma, mb) != 0) {
        char fen[XQ_FEN_MAX];
        xq_fen_write(pos, fen, sizeof fen);
        fail_msg("%s: '%.*s' (notation %d, flags %u): fast %s move %u why %d notation %d col %d '%s'; "
                 "general %s move %u why %d notation %d col %d '%s'",
                 fen, (int)len, text, (int)n, flags,
                 xq_note_status_str(a.status), a.move, a.why, a.notation, a.column, ma,
                 xq_note_status_str(b.status), b.move, b.why, b.notation, b.column, mb);
    }
    /* without a message buffer the result is the same */
    xq_note_result c;
    xq_move_read(pos, text, len, n, flags, &c, NULL, 0);
    if (c.status != a.status || c.move != a.move) fail_msg("'%.*s': differs without msg", (int)len, text);
    /* told that the side is not in check (when it is not) */
    if (!xq_in_check(pos, pos->side)) {
        xq_move_read(pos, text, len, n, flags | XQ_READ_NOT_IN_CHECK, &b, mb, sizeof mb);
        if (a.status != b.status || a.move != b.move || a.why != b.why || a.notation != b.notation
            || a.column != b.column || strcmp(ma, mb) != 0)
            fail_msg("'%.*s' (notation %d, flags %u): differs when told 'not in check'", (int)len, text,
                     (int)n, flags);
    }
}

/* One ply of a game: the kept check state against xq_in_check, and the
 * move read with the state told (as xq_replay_game reads it) against the
 * move read without.  Returns the move read (XQ_MOVE_NONE when not legal). */
static xq_move hinted_ply(const xq_position *pos, const xq_checks *chk, const char *text, xq_notation n)
{
    char fen[XQ_FEN_MAX];
    for (int c = 0; c < 2; c++)
        if (chk->in_check[c] != xq_in_check(pos, (xq_color)c)) {
            xq_fen_write(pos, fen, sizeof fen);
            fail_msg("kept check state of side %d differs from xq_in_check: %s", c, fen);
        }
    unsigned hint = chk->in_check[pos->side] ? 0u : XQ_READ_NOT_IN_CHECK;
    xq_note_result a, b;
    char ma[256], mb[256];
    size_t len = strlen(text);
    xq_move_read(pos, text, len, n, 0, &a, ma, sizeof ma);
    xq_move_read(pos, text, len, n, hint, &b, mb, sizeof mb);
    compared++;
    if (a.status != b.status || a.move != b.move || a.why != b.why || a.notation != b.notation
        || a.column != b.column || strcmp(ma, mb) != 0) {
        xq_fen_write(pos, fen, sizeof fen);
        fail_msg("%s: '%s' read differently when told the check state", fen, text);
    }
    return a.status == XQ_NOTE_OK || a.status == XQ_NOTE_RESOLVED ? a.move : XQ_MOVE_NONE;
}

/* The read settings cycled through (notation, flags). */
static const struct { xq_notation n; unsigned flags; } settings[] = {
    {XQ_NOTATION_AUTO, 0},
    {XQ_NOTATION_CHINESE, XQ_READ_STRICT},
    {XQ_NOTATION_AUTO, XQ_READ_UNCHECKED},
    {XQ_NOTATION_CHINESE_3DIGIT, 0},
    {XQ_NOTATION_CHINESE_ABBR, XQ_READ_STRICT | XQ_READ_UNCHECKED},
};
enum { NSETTINGS = sizeof settings / sizeof settings[0] };

/* --- characters ------------------------------------------------------- */

static const char *const pieces[] = {
    "帥", "帅", "將", "将", "仕", "士", "相", "象", "馬", "马", "傌",
    "車", "车", "俥", "硨", "炮", "砲", "包", "兵", "卒",
};
enum { NPIECES = sizeof pieces / sizeof pieces[0] };

/* Numeral spellings of 0..9: Chinese, full-width, ASCII, financial. */
static const char *const numerals[4][10] = {
    {"〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"},
    {"０", "１", "２", "３", "４", "５", "６", "７", "８", "９"},
    {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"},
    {"零", "壹", "貳", "參", "肆", "伍", "陸", "柒", "捌", "玖"},
};

static const char *const actions[] = {"進", "进", "退", "平", "上", "下"};
enum { NACTIONS = sizeof actions / sizeof actions[0] };

static const char *const markers[] = {"前", "中", "後", "后", "一", "二", "三", "四", "五"};
enum { NMARKERS = sizeof markers / sizeof markers[0] };

static size_t cat(char *buf, size_t n, const char *s)
{
    size_t k = strlen(s);
    memcpy(buf + n, s, k);
    buf[n + k] = 0;
    return n + k;
}

/* --- texts ------------------------------------------------------------ */

/* Every piece x file x action x argument in the full form, numerals
 * spelled in turn every way (the fast path's whole domain and its edges:
 * 0, actions a piece cannot make, files with 0, 1 or several pieces). */
static void full_forms(const xq_position *pos, unsigned salt)
{
    for (int p = 0; p < NPIECES; p++)
        for (int f = 0; f < 10; f++)
            for (int a = 0; a < NACTIONS; a++)
                for (int g = 0; g < 10; g++) {
                    unsigned k = salt + (unsigned)(p + f + a + g);
                    char buf[32];
                    size_t n = 0;
                    n = cat(buf, n, pieces[p]);
                    n = cat(buf, n, numerals[(salt + (unsigned)(f + p)) % 4][f]);
                    n = cat(buf, n, actions[a]);
                    n = cat(buf, n, numerals[(k / 3) % 4][g]);
                    same_both_ways(pos, buf, n, settings[k % NSETTINGS].n, settings[k % NSETTINGS].flags);
                }
}

/* Tandem and short forms: 前炮退二, 炮前退二, 前兵九平八, 前九平八, 炮25, 馬325. */
static void other_forms(const xq_position *pos, unsigned salt)
{
    for (int m = 0; m < NMARKERS; m++)
        for (int p = 0; p < NPIECES; p += 1)
            for (int a = 0; a < NACTIONS; a += 2)
                for (int g = 1; g < 10; g += 2) {
                    unsigned k = salt + (unsigned)(m + p + a + g);
                    const char *num = numerals[k % 4][g];
                    const char *file = numerals[(k + 1) % 4][(g + m) % 9 + 1];
                    char buf[40];
                    size_t n;
                    n = cat(buf, 0, markers[m]); n = cat(buf, n, pieces[p]);
                    n = cat(buf, n, actions[a]); n = cat(buf, n, num);
                    same_both_ways(pos, buf, n, XQ_NOTATION_AUTO, settings[k % NSETTINGS].flags);
                    n = cat(buf, 0, pieces[p]); n = cat(buf, n, markers[m]);
                    n = cat(buf, n, actions[a]); n = cat(buf, n, num);
                    same_both_ways(pos, buf, n, XQ_NOTATION_AUTO, 0);
                    n = cat(buf, 0, markers[m]); n = cat(buf, n, pieces[p]); n = cat(buf, n, file);
                    n = cat(buf, n, actions[a]); n = cat(buf, n, num);
                    same_both_ways(pos, buf, n, XQ_NOTATION_CHINESE, settings[k % NSETTINGS].flags);
                    n = cat(buf, 0, markers[m]); n = cat(buf, n, file);
                    n = cat(buf, n, actions[a]); n = cat(buf, n, num);
                    same_both_ways(pos, buf, n, XQ_NOTATION_AUTO, 0);
                    n = cat(buf, 0, pieces[p]); n = cat(buf, n, numerals[2][(g + m) % 9 + 1]);
                    n = cat(buf, n, numerals[2][g]);
                    same_both_ways(pos, buf, n, XQ_NOTATION_AUTO, 0);
                    n = cat(buf, n, numerals[2][m]);
                    same_both_ways(pos, buf, n, XQ_NOTATION_AUTO, settings[k % NSETTINGS].flags);
                }
}

/* WXF: xqn_resolve's fast path (one piece on a plain file). */
static void wxf_forms(const xq_position *pos)
{
    static const char letters[] = "KAEHRCPBN";
    static const char acts[] = "+-.=";
    for (int l = 0; letters[l]; l++)
        for (int f = 1; f <= 9; f++)
            for (int a = 0; acts[a]; a++)
                for (int g = 0; g <= 9; g += 3) {
                    char buf[8];
                    int n = snprintf(buf, sizeof buf, "%c%d%c%d", letters[l], f, acts[a], g ? g : 1);
                    same_both_ways(pos, buf, (size_t)n, (f + g) % 2 ? XQ_NOTATION_AUTO : XQ_NOTATION_WXF,
                                   (unsigned)(l % 2) * XQ_READ_STRICT);
                }
}

/* One text cut short, lengthened, and with each byte broken. */
static void mutations(const xq_position *pos, const char *text, size_t len)
{
    static const unsigned char broken[] = {0x00, 0x80, 0xBF, 0xE5, 0xEF, 0xFF, '0', '1', 'a', ' '};
    static const char *const tails[] = {"一", "1", "\xE5", "\xE5\x89", "前", "!"};
    char buf[64];
    if (len + 8 > sizeof buf) return;
    for (size_t k = 0; k < len; k++) same_both_ways(pos, text, k, XQ_NOTATION_AUTO, 0);
    for (size_t t = 0; t < sizeof tails / sizeof tails[0]; t++) {
        memcpy(buf, text, len);
        size_t n = cat(buf, len, tails[t]);
        same_both_ways(pos, buf, n, XQ_NOTATION_AUTO, 0);
    }
    for (size_t k = 0; k < len; k++)
        for (size_t b = 0; b < sizeof broken; b++) {
            memcpy(buf, text, len);
            buf[k] = (char)broken[b];
            same_both_ways(pos, buf, len, b % 2 ? XQ_NOTATION_CHINESE : XQ_NOTATION_AUTO, 0);
        }
}

/* Every legal move as the writers spell it, read both ways; the Chinese
 * spellings of the first moves also broken in every way. */
static void written_moves(const xq_position *pos, bool mutate)
{
    static const struct { xq_notation n; unsigned flags; } styles[] = {
        {XQ_NOTATION_CHINESE, 0},
        {XQ_NOTATION_CHINESE, XQ_WRITE_TRADITIONAL},
        {XQ_NOTATION_CHINESE, XQ_WRITE_TRADITIONAL | XQ_WRITE_ASCII_DIGITS | XQ_WRITE_PAWNS_POPULAR},
        {XQ_NOTATION_CHINESE, XQ_WRITE_PAWNS_WALKER},
        {XQ_NOTATION_CHINESE_ABBR, 0},
        {XQ_NOTATION_CHINESE_3DIGIT, 0},
        {XQ_NOTATION_WXF, 0},
        {XQ_NOTATION_ICCS, 0},
    };
    xq_move moves[XQ_MAX_MOVES];
    int nm = xq_legal_moves(pos, moves);
    for (int i = 0; i < nm; i++)
        for (size_t s = 0; s < sizeof styles / sizeof styles[0]; s++) {
            char buf[XQ_NOTATION_MAX];
            size_t len = xq_move_write(pos, moves[i], styles[s].n, styles[s].flags, buf, sizeof buf);
            if (!len) continue;
            same_both_ways(pos, buf, len, XQ_NOTATION_AUTO, 0);
            same_both_ways(pos, buf, len, styles[s].n, XQ_READ_STRICT);
            if (mutate && i < 6 && s < 3) mutations(pos, buf, len);
        }
}

/* All of the above in pos and in pos with the other side to move. */
static void check_position(const xq_position *pos, unsigned salt, bool everything)
{
    xq_position flipped = *pos;
    xq_position_set_side(&flipped, (xq_color)(pos->side ^ 1));
    const xq_position *both[2] = {pos, &flipped};
    for (int s = 0; s < 2; s++) {
        written_moves(both[s], everything);
        if (!everything) continue;
        full_forms(both[s], salt + (unsigned)s);
        other_forms(both[s], salt + (unsigned)s);
        wxf_forms(both[s]);
    }
}

/* --- tests ------------------------------------------------------------ */

/* Positions with tandem pieces (2-5 soldiers on a file, stacked chariots,
 * cannons, horses, advisors, elephants) and checks. */
static void tandem_positions(void **state)
{
    (void)state;
    static const char *const fens[] = {
        "2bakab2/9/9/ppppp4/9/9/PPPPP4/9/9/2BAKAB2 w - - 0 1",
        "2bak4/4a4/4b4/9/2p1p1p2/2P1P1P2/9/4B4/4A4/2BAK4 w - - 0 1",
        "3k5/4P4/4P4/4P4/4P4/4P4/9/9/9/4K4 w - - 0 1",
        "3k5/9/2P1P4/2P1P4/2P6/9/9/9/9/4K4 w - - 0 1",
        "4k4/9/4r4/4r4/9/9/4R4/4R4/9/3K5 w - - 0 1",
        "3akab2/4a4/4b4/9/2c6/2c6/2C6/2C6/3A5/3AK4 w - - 0 1",
        "3k5/9/9/4n4/4n4/4N4/4N4/9/9/3K5 b - - 0 1",
        "2ba1k3/4a4/2b6/9/9/9/9/2B6/3A5/2BAK4 w - - 0 1",
        "3k5/4P4/9/9/9/9/9/9/4r4/3K5 w - - 0 1",
        "4k4/4R4/9/9/9/9/9/9/9/3K5 b - - 0 1",
    };
    compared = 0;
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        xq_position p;
        read_fen(&p, fens[i]);
        check_position(&p, (unsigned)i, true);
    }
    print_message("tandem positions: %llu texts compared\n", (unsigned long long)compared);
}

/* The start position and its perft tree to depth 1 (all texts), depth 2
 * (written moves only). */
static void perft_positions(void **state)
{
    (void)state;
    compared = 0;
    xq_position p;
    xq_position_start(&p);
    check_position(&p, 0, true);
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_legal_moves(&p, moves);
    for (int i = 0; i < n; i++) {
        xq_undo u;
        xq_make(&p, moves[i], &u);
        check_position(&p, (unsigned)i, i % 4 == 0);
        xq_move m2[XQ_MAX_MOVES];
        int n2 = xq_legal_moves(&p, m2);
        for (int j = 0; j < n2; j++) {
            xq_undo u2;
            xq_make(&p, m2[j], &u2);
            written_moves(&p, false);
            xq_unmake(&p, m2[j], &u2);
        }
        xq_unmake(&p, moves[i], &u);
    }
    print_message("perft positions: %llu texts compared\n", (unsigned long long)compared);
}

/* Random games (fixed LCG seed): middlegames and endgames with the pieces
 * spread as in real records; every position's moves, every 8th position
 * all texts. */
static void random_games(void **state)
{
    (void)state;
    static const char *const fens[] = {
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "2bakab2/9/9/ppppp4/9/9/PPPPP4/9/9/2BAKAB2 w - - 0 1",
        "r1bakab1r/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RN1AKA1NR w - - 0 1",
    };
    uint32_t seed = 2024;
    compared = 0;
    for (int g = 0; g < 6; g++) {
        xq_position p;
        read_fen(&p, fens[g % 3]);
        for (int ply = 0; ply < 120; ply++) {
            check_position(&p, (unsigned)ply, ply % 8 == 3);
            xq_move moves[XQ_MAX_MOVES];
            int n = xq_legal_moves(&p, moves);
            if (n == 0) break;
            seed = seed * 1103515245u + 12345u;
            xq_undo u;
            xq_make(&p, moves[(seed >> 16) % (uint32_t)n], &u);
        }
    }
    print_message("random games: %llu texts compared\n", (unsigned long long)compared);
}

/* The corpus sample: the first games of each CCPD file (FEN starts in
 * the endgames, drills and tactics, some with the side to move in check),
 * each main line read ply by ply with the kept check state
 * (hinted_ply) to its first move that does not read; xq_replay_game, which
 * reads with the state told, must agree on how far the game goes. */
static void corpus_games(void **state)
{
    (void)state;
    static const char *const files[] = {"masters", "endgames", "mating-drills", "middlegames", "openings", "tactics"};
    compared = 0;
    long games = 0, in_check = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char path[512], err[512];
        snprintf(path, sizeof path, "%s/corpus/ccpd/%s.pgn.gz", XQ_SHARED, files[f]);
        xq_reader *r = xq_reader_open(path, NULL, err, sizeof err);
        if (!r) {
            print_message("skipped: %s\n", err);
            continue;
        }
        xq_game g;
        xq_game_init(&g);
        xq_replay_options opt;
        xq_replay_options_default(&opt);
        static xq_replay out;
        for (int k = 0; k < 1500 && xq_reader_next(r, &g) == 1; k++, games++) {
            xq_replay_game(&g, &opt, &out);
            if (out.status == XQ_STATUS_UNREADABLE) continue;
            xq_position pos = out.start;
            xq_checks chk;
            xq_checks_init(&chk, &pos);
            xq_notation n = xq_notation_from_format_tag(xq_game_tag(&g, "Format"));
            int plies = 0;
            for (size_t i = 0; i < g.main.count; i++) {
                in_check += chk.in_check[pos.side];
                xq_move m = hinted_ply(&pos, &chk, g.main.nodes[i].text, n);
                if (m == XQ_MOVE_NONE) break;
                xq_undo u;
                xq_make(&pos, m, &u);
                xq_checks_after(&chk, &pos, m);
                plies++;
            }
            if (plies != out.plies) fail_msg("%s game %ld: replay reached ply %d, the reading %d", path, games,
                                             out.plies, plies);
            if (memcmp(pos.board, out.final.board, sizeof pos.board) || pos.side != out.final.side)
                fail_msg("%s game %ld: final positions differ", path, games);
        }
        xq_game_free(&g);
        xq_reader_close(r);
    }
    print_message("corpus: %ld games, %llu plies compared, %ld in check\n", games, (unsigned long long)compared,
                  in_check);
}

/* Random legal games with the kept check state: every legal move written
 * in Chinese and read back told and untold, along games that check often
 * (a move giving check is preferred when there is one). */
static void hinted_random_games(void **state)
{
    (void)state;
    static const char *const fens[] = {
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "2bakab2/9/9/ppppp4/9/9/PPPPP4/9/9/2BAKAB2 w - - 0 1",
        "4k4/4R4/9/9/9/9/9/9/9/4K4 w - - 0 1",          /* the side not to move in check */
        "r3k4/4a4/9/9/9/9/9/9/4R4/R3K4 b - - 0 1",
        "3k5/9/9/9/9/9/9/9/9/3K5 b - - 0 1",
    };
    uint32_t seed = 77;
    compared = 0;
    long checks = 0;
    for (int g = 0; g < 60; g++) {
        xq_position p;
        read_fen(&p, fens[g % 5]);
        xq_checks chk;
        xq_checks_init(&chk, &p);
        for (int ply = 0; ply < 150; ply++) {
            xq_move moves[XQ_MAX_MOVES];
            int n = xq_legal_moves(&p, moves);
            if (n == 0) break;
            char text[XQ_NOTATION_MAX];
            for (int i = 0; i < n; i++)
                if (xq_move_write(&p, moves[i], XQ_NOTATION_CHINESE, XQ_WRITE_TRADITIONAL, text, sizeof text))
                    hinted_ply(&p, &chk, text, XQ_NOTATION_CHINESE);
            seed = seed * 1103515245u + 12345u;
            xq_move m = moves[(seed >> 16) % (uint32_t)n];
            for (int i = 0, start = (int)((seed >> 8) % (uint32_t)n); i < n && g % 2; i++) {
                xq_position t = p;   /* odd games: prefer a checking move */
                xq_undo u;
                xq_move c = moves[(start + i) % n];
                xq_make(&t, c, &u);
                if (xq_in_check(&t, t.side)) { m = c; break; }
            }
            if (xq_move_legality(&p, m) != XQ_LEGAL) break;   /* two generals of a side: not a game */
            xq_undo u;
            xq_make(&p, m, &u);
            xq_checks_after(&chk, &p, m);
            checks += chk.in_check[p.side];
        }
    }
    print_message("hinted random games: %llu texts compared, %ld checks\n", (unsigned long long)compared, checks);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tandem_positions),
        cmocka_unit_test(perft_positions),
        cmocka_unit_test(random_games),
        cmocka_unit_test(corpus_games),
        cmocka_unit_test(hinted_random_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
