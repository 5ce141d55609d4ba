/* test_notation_fast.c - the fast reading paths of notation*.c against the
 * general ones.  xq_move_read takes shortcuts for the common Chinese full
 * form (炮二平五 with one piece of the kind on its file: bytes looked up
 * without decoding, one file scanned, one legality call), for one piece on
 * a plain file in xqn_resolve (WXF too), and tokenises table characters
 * without decoding them.  XQN_READ_NO_FAST (notation_internal.h) turns all
 * of them off; every text here is read both ways and must give the same
 * status, move, reason, notation, column and message, byte for byte.
 *
 * Texts: every piece character with every numeral spelling, action and
 * argument (0 too), the tandem forms, WXF, every legal move as the writers
 * spell it, and those texts cut short, lengthened or with a byte broken
 * (bad UTF-8, NUL, ASCII), in perft, random-game and tandem positions, for
 * both sides to move and under the read flags. */
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tandem_positions),
        cmocka_unit_test(perft_positions),
        cmocka_unit_test(random_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
