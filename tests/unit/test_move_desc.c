/* test_move_desc.c - the decoded move text a reader keeps in a node
 * (xq_node.desc, xq_move_desc) and the replay's read-and-play with it
 * (xq_move_read_play_desc) against the text decoded again:
 *  - xq_move_desc: every full form "piece file action arg" (every kind,
 *    file, action and numeral 1..9, each character in every spelling the
 *    reader accepts: simplified and traditional pieces, Chinese,
 *    financial, full-width and ASCII numerals, old 上/下) packs its four
 *    fields as notation.h says; every other text (markers, 0, other
 *    lengths, truncated characters, ASCII, junk) gives XQ_DESC_OTHER;
 *    never 0;
 *  - xq_move_read_play_desc with the desc, with 0 (the token cache) and
 *    xq_move_read_play: the same move, captured piece, position and check
 *    state for every text tried on positions of random games (every legal
 *    move as the writer spells it in each style, every full form of the
 *    mover's pieces, junk), in notations AUTO, CHINESE and WXF; when no
 *    move, all leave the position alone;
 *  - the PGN reader on the masters file (Big5: its word cache fills
 *    desc): every node's desc is 0 or xq_move_desc of its text, most are
 *    known, and replaying each game with the nodes' descs and without
 *    gives the same moves and positions ply by ply (skipped when
 *    ../shared is missing). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "game.h"
#include "notation.h"
#include "pgn_read.h"
#include "position.h"

#ifndef XQ_SHARED
#define XQ_SHARED "../shared"
#endif

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static unsigned rnd(unsigned n)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(rng_state >> 33) % n;
}

/* ---- texts ------------------------------------------------------------------ */

/* Spellings of each piece kind (index xq_kind), of each numeral 0..9 and
 * of each action (1 進, 2 退, 3 平), as UTF-8. */
static const char *const PIECES[8][4] = {
    {NULL},
    {"帥", "帅", "將", "将"}, {"仕", "士", NULL}, {"相", "象", NULL}, {"馬", "马", "傌", NULL},
    {"車", "车", "俥", "硨"}, {"炮", "砲", "包", NULL}, {"兵", "卒", NULL},
};
static const char *const NUMS[10][5] = {
    {"〇", "零", "０", "0", NULL},
    {"一", "壹", "１", "1", NULL}, {"二", "貳", "贰", "２", "2"}, {"三", "叁", "參", "３", "3"},
    {"四", "肆", "４", "4", NULL}, {"五", "伍", "５", "5", NULL}, {"六", "陆", "陸", "６", "6"},
    {"七", "柒", "７", "7", NULL}, {"八", "捌", "８", "8", NULL}, {"九", "玖", "９", "9", NULL},
};
static const char *const ACTS[4][3] = {{NULL}, {"進", "进", "上"}, {"退", "下", NULL}, {"平", NULL, NULL}};

static const char *pick(const char *const *list, int n)
{
    int k = 0;
    while (k < n && list[k]) k++;
    return list[rnd((unsigned)k)];
}

/* A random spelling of the full form kind, numeral file, action, numeral arg. */
static size_t full_text(char *buf, size_t size, int kind, int file, int action, int arg)
{
    int n = snprintf(buf, size, "%s%s%s%s", pick(PIECES[kind], 4), pick(NUMS[file], 5), pick(ACTS[action], 3),
                     pick(NUMS[arg], 5));
    return (size_t)n;
}

static uint16_t packed(int kind, int file, int action, int arg)
{
    return (uint16_t)(arg | action << 4 | file << 6 | kind << 10);
}

static void test_desc_of_full_forms(void **state)
{
    (void)state;
    char t[64];
    for (int kind = 1; kind <= 7; kind++)
        for (int file = 0; file <= 9; file++)
            for (int action = 1; action <= 3; action++)
                for (int arg = 0; arg <= 9; arg++)
                    for (int rep = 0; rep < 6; rep++) {
                        size_t n = full_text(t, sizeof t, kind, file, action, arg);
                        uint16_t d = xq_move_desc(t, n);
                        uint16_t want = file && arg ? packed(kind, file, action, arg) : XQ_DESC_OTHER;
                        if (d != want) fail_msg("'%s': desc %#x, want %#x", t, d, want);
                        assert_int_not_equal(d, 0);
                        /* a prefix or a longer text is not the same move */
                        for (size_t k = 0; k < n; k++) assert_int_not_equal(xq_move_desc(t, k), 0);
                        if (file && arg && n + 3 < sizeof t) {
                            memcpy(t + n, "五", 4);
                            assert_int_equal(xq_move_desc(t, n + 3), XQ_DESC_OTHER);
                        }
                    }
}

static void test_desc_of_other_texts(void **state)
{
    (void)state;
    static const char *const other[] = {
        "前炮退二", "後馬進五", "中兵平四", "一兵平四", "炮25", "馬325", "車進20", "前兵九平八", "炮前退二",
        "h2e2", "C2.5", "H2-E2", "炮二平", "炮二平五五", "炮二平五!", "炮二二五", "二炮平五", "", "12345678",
        "炮二平\xe4\xba", "炮\xff平五", "炮二平 五",
    };
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
        assert_int_equal(xq_move_desc(other[i], strlen(other[i])), XQ_DESC_OTHER);
    assert_int_equal(xq_move_desc(NULL, 0), XQ_DESC_OTHER);
    /* random bytes of the lengths a full form has */
    char t[16];
    for (int i = 0; i < 200000; i++) {
        size_t n = 8 + rnd(5);
        for (size_t k = 0; k < n; k++) t[k] = (char)(rnd(3) ? 0xE0 + rnd(32) : rnd(256));
        uint16_t d = xq_move_desc(t, n);
        assert_int_not_equal(d, 0);
        if (d != XQ_DESC_OTHER) {   /* then it is a full form: a prefix is not */
            assert_int_equal(d & ~0x1FFFu, 0);
            assert_int_equal(xq_move_desc(t, n - 1), XQ_DESC_OTHER);
        }
    }
}

/* ---- read and play with and without the desc --------------------------------- */

static void same_position(const xq_position *a, const xq_position *b, const char *text)
{
    if (memcmp(a->board, b->board, sizeof a->board) != 0 || a->general[0] != b->general[0] ||
        a->general[1] != b->general[1] || a->side != b->side || a->halfmove != b->halfmove ||
        a->fullmove != b->fullmove || a->key != b->key || memcmp(a->rank_occ, b->rank_occ, sizeof a->rank_occ) ||
        memcmp(a->file_occ, b->file_occ, sizeof a->file_occ))
        fail_msg("'%s': positions differ", text);
}

static uint64_t tried, played;

/* One text on pos: with its desc, without, and xq_move_read_play agree. */
static void same_three(const xq_position *pos, const xq_checks *checks, const char *text, size_t len,
                       xq_notation notation)
{
    uint16_t desc = xq_move_desc(text, len);
    xq_position pa = *pos, pb = *pos, pc = *pos;
    xq_checks ca = *checks, cb = *checks, cc = *checks;
    xq_played a = xq_move_read_play_desc(&pa, desc, text, len, notation, &ca);
    xq_played b = xq_move_read_play_desc(&pb, 0, text, len, notation, &cb);
    xq_piece cap = 0xEE;
    xq_move m = xq_move_read_play(&pc, text, len, notation, &cc, &cap);
    tried++;
    if (a.move != b.move || a.move != m) fail_msg("'%s': moves %u %u %u", text, a.move, b.move, m);
    same_position(&pa, &pb, text);
    same_position(&pa, &pc, text);
    assert_memory_equal(&ca, &cb, sizeof ca);
    assert_memory_equal(&ca, &cc, sizeof ca);
    if (a.move == XQ_MOVE_NONE) {
        same_position(&pa, pos, text);
        assert_memory_equal(&ca, checks, sizeof ca);
        assert_int_equal(cap, 0xEE);
        return;
    }
    played++;
    assert_int_equal(a.captured, b.captured);
    assert_int_equal(a.captured, cap);
}

static void texts_on(const xq_position *pos, const xq_checks *checks)
{
    static const xq_notation notations[] = {XQ_NOTATION_AUTO, XQ_NOTATION_CHINESE, XQ_NOTATION_WXF};
    xq_notation nt = notations[rnd(3)];
    xq_move moves[XQ_MAX_MOVES];
    size_t n = xq_legal_moves(pos, moves);
    char t[XQ_NOTATION_MAX + 8];
    for (size_t i = 0; i < n; i++) {
        static const unsigned styles[] = {0, XQ_WRITE_TRADITIONAL, XQ_WRITE_ASCII_DIGITS,
                                          XQ_WRITE_TRADITIONAL | XQ_WRITE_ASCII_DIGITS};
        size_t len = xq_move_write(pos, moves[i], XQ_NOTATION_CHINESE, styles[rnd(4)], t, sizeof t);
        if (len) same_three(pos, checks, t, len, nt);
    }
    /* full forms of the mover's pieces, right or wrong, in any spelling */
    for (int i = 0; i < 40; i++) {
        size_t len = full_text(t, sizeof t, 1 + (int)rnd(7), 1 + (int)rnd(9), 1 + (int)rnd(3), 1 + (int)rnd(9));
        same_three(pos, checks, t, len, nt);
    }
    static const char *const junk[] = {"前炮退二", "後馬進五", "一兵平四", "炮25", "h2e2", "炮二平五五", "12345678"};
    const char *j = junk[rnd(sizeof junk / sizeof junk[0])];
    same_three(pos, checks, j, strlen(j), nt);
}

static void test_read_play_desc_random_games(void **state)
{
    (void)state;
    for (int game = 0; game < 300; game++) {
        xq_position pos;
        xq_position_start(&pos);
        xq_checks checks;
        xq_checks_init(&checks, &pos);
        for (int ply = 0; ply < 160; ply++) {
            texts_on(&pos, &checks);
            xq_move moves[XQ_MAX_MOVES];
            size_t n = xq_legal_moves(&pos, moves);
            if (!n) break;
            xq_move m = moves[rnd((unsigned)n)];
            if (rnd(3) == 0)   /* captures now and then: open lines, checks, generals facing */
                for (size_t i = 0; i < n; i++)
                    if (pos.board[XQ_TO(moves[i])]) {
                        m = moves[i];
                        break;
                    }
            xq_play(&pos, m, &checks);
        }
    }
    print_message("%llu texts, %llu read and played\n", (unsigned long long)tried, (unsigned long long)played);
    assert_true(played > tried / 10);
}

/* ---- the reader's descs on the masters file ------------------------------ */

/* Replay the main line of g with the nodes' descs and with none, side by
 * side; the plies read. */
static size_t replay_both(const xq_game *g)
{
    xq_position a, b;
    if (g->fen) {
        if (!xq_fen_read(&a, g->fen, NULL, 0)) return 0;
    } else {
        xq_position_start(&a);
    }
    b = a;
    xq_checks ca, cb;
    xq_checks_init(&ca, &a);
    cb = ca;
    xq_notation nt = xq_notation_from_format_tag(xq_game_tag(g, "Format"));
    size_t plies = 0;
    for (size_t i = 0; i < g->main.count; i++) {
        const xq_node *nd = &g->main.nodes[i];
        size_t len = nd->text_len ? nd->text_len : strlen(nd->text);
        xq_played pa = xq_move_read_play_desc(&a, nd->desc, nd->text, len, nt, &ca);
        xq_played pb = xq_move_read_play_desc(&b, 0, nd->text, len, nt, &cb);
        if (pa.move != pb.move) fail_msg("game %llu ply %zu '%s': %u vs %u", (unsigned long long)g->index, i + 1,
                                         nd->text, pa.move, pb.move);
        if (pa.move == XQ_MOVE_NONE) {   /* the general reader, on both */
            xq_note_result res;
            if (xq_move_read(&a, nd->text, len, nt, 0, &res, NULL, 0) > XQ_NOTE_RESOLVED) break;
            xq_play(&a, res.move, &ca);
            xq_play(&b, res.move, &cb);
        } else {
            assert_int_equal(pa.captured, pb.captured);
        }
        same_position(&a, &b, nd->text);
        assert_memory_equal(&ca, &cb, sizeof ca);
        plies++;
    }
    return plies;
}

static void test_reader_desc_masters(void **state)
{
    (void)state;
    char err[256];
    xq_reader *rd = xq_reader_open(XQ_SHARED "/corpus/ccpd/masters.pgn.gz", NULL, err, sizeof err);
    if (!rd) {
        print_message("skipped: %s\n", err);
        skip();
    }
    xq_game g;
    xq_game_init(&g);
    uint64_t nodes = 0, known = 0, plies = 0, games = 0;
    while (xq_reader_next(rd, &g) == 1) {
        games++;
        for (size_t i = 0; i < g.main.count; i++) {
            const xq_node *nd = &g.main.nodes[i];
            nodes++;
            if (!nd->desc) continue;
            known++;
            size_t len = nd->text_len ? nd->text_len : strlen(nd->text);
            if (nd->desc != xq_move_desc(nd->text, len))
                fail_msg("game %llu ply %zu '%s': desc %#x, text's %#x", (unsigned long long)g.index, i + 1,
                         nd->text, nd->desc, xq_move_desc(nd->text, len));
        }
        plies += replay_both(&g);
    }
    xq_game_free(&g);
    xq_reader_close(rd);
    print_message("%llu games, %llu nodes, %llu with a desc, %llu plies replayed both ways\n",
                  (unsigned long long)games, (unsigned long long)nodes, (unsigned long long)known,
                  (unsigned long long)plies);
    assert_true(known > nodes / 2);   /* the word cache gave most of them */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_desc_of_full_forms),
        cmocka_unit_test(test_desc_of_other_texts),
        cmocka_unit_test(test_read_play_desc_random_games),
        cmocka_unit_test(test_reader_desc_masters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
