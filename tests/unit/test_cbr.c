/* test_cbr.c - CBR records and CBL libraries (formats.md §1f) into the game
 * model: the corpus files with their known values (game counts, tags,
 * moves, variations, comments), the library's capacity against its game
 * count, records running over several 4096-byte slots, section headings,
 * and damaged copies (diagnostics with byte offsets, never a crash). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "notation.h"
#include "pgn_read.h"
#include "replay.h"

#ifndef XQ_SHARED
#define XQ_SHARED "../shared"
#endif
#define TD XQ_SHARED "/corpus/cchess-testdata/"
#define CBL1956 TD "1956年全国象棋锦标赛93局.CBL"
#define CBL1989 TD "1989年龙化杯象棋名师邀请赛35局.CBL"

enum { FIRST = 101952, SLOT = 4096, MAXG = 128 };

/* ---- helpers --------------------------------------------------------------- */

static bool has_diag(const xq_game *g, xq_severity sev, uint64_t offset, const char *part)
{
    for (size_t i = 0; i < g->diag_count; i++)
        if (g->diags[i].severity == sev && g->diags[i].offset == offset && strstr(g->diags[i].msg, part)) return true;
    for (size_t i = 0; i < g->diag_count; i++)
        fprintf(stderr, "  have: %s @%llu %s\n", g->diags[i].severity ? "warning" : "error",
                (unsigned long long)g->diags[i].offset, g->diags[i].msg);
    return false;
}


/* ---- the corpus --------------------------------------------------------------- */

/* The 1956 library: capacity 128, 93 games, all legal; game 1 is the one
 * formats.md checked against chasoft's DhtmlXQ (82 plies). */
static void test_cbl_1956(void **state)
{
    (void)state;
    static xq_game g[MAXG];
    xq_format fmt;
    int n = read_path(CBL1956, g, MAXG, &fmt);
    assert_int_equal(fmt, XQ_FMT_CBL);
    assert_int_equal(n, 93);
    xq_replay_options ro;
    xq_replay_options_default(&ro);
    for (int i = 0; i < n; i++) {
        assert_int_equal(g[i].index, (uint64_t)i + 1);
        assert_int_equal(g[i].offset, FIRST + (uint64_t)i * SLOT);
        assert_int_equal(g[i].raw_len, SLOT);
        assert_int_equal(memcmp(g[i].raw, "CCBridge Record", 16), 0);
        assert_int_equal(g[i].diag_count, 0);
        assert_null(g[i].fen);
        assert_int_equal(bad_lines_game(&g[i], NULL, false), 0);
        xq_replay r;
        xq_replay_game(&g[i], &ro, &r);
        assert_int_equal(r.status, XQ_STATUS_VALID);
    }
    assert_int_equal(g[0].main.count, 82);
    assert_string_equal(g[0].main.nodes[0].text, "h2e2");
    xqt_assert_tag(&g[0], "Title", "初赛 保定邓裕如(红先负)哈尔滨王嘉良");
    xqt_assert_tag(&g[0], "Event", "1956年全国象棋锦标赛（初赛）");
    xqt_assert_tag(&g[0], "Date", "1956年12月17日");
    xqt_assert_tag(&g[0], "Site", "北京市");
    xqt_assert_tag(&g[0], "Red", "保定邓裕如");
    xqt_assert_tag(&g[0], "Black", "哈尔滨王嘉良");
    xqt_assert_tag(&g[0], "Result", "0-1");
    xqt_assert_tag(&g[1], "Result", "1-0");
    xqt_assert_tag(&g[37], "Result", "1/2-1/2");
    assert_int_equal(g[1].main.count, 55);
    free_all(g, n);
}

/* The 1989 library: 38 records, two of them section headings. */
static void test_cbl_1989(void **state)
{
    (void)state;
    static xq_game g[MAXG];
    int n = read_path(CBL1989, g, MAXG, NULL);
    assert_int_equal(n, 38);
    int headings = 0;
    for (int i = 0; i < n; i++) {
        assert_int_equal(bad_lines_game(&g[i], NULL, false), 0);
        if (g[i].diag_count) {
            assert_int_equal(g[i].diag_count, 1);
            assert_true(has_diag(&g[i], XQ_SEV_WARNING, g[i].offset + 2120, "a section heading"));
            assert_int_equal(g[i].main.count, 0);
            headings++;
        }
    }
    assert_int_equal(headings, 2);
    assert_int_equal(g[0].diag_count, 1);
    assert_int_equal(g[21].diag_count, 1);
    xqt_assert_tag(&g[0], "Title", "龙化杯象棋名师邀请赛对局（男子组20局）");
    assert_non_null(g[0].main.comment);
    xqt_assert_tag(&g[1], "Title", "    第一轮 徐天红 先和 徐天利");
    xqt_assert_tag(&g[1], "Opening", "挺兵对飞象");
    xqt_assert_tag(&g[1], "Event", "1989年龙化杯象棋名师邀请赛");
    xqt_assert_tag(&g[1], "Date", "1989年6月3日");
    xqt_assert_tag(&g[1], "Site", "柳州市");
    xqt_assert_tag(&g[1], "Red", "徐天红");
    xqt_assert_tag(&g[1], "RedTeam", "江苏");
    xqt_assert_tag(&g[1], "Black", "徐天利");
    xqt_assert_tag(&g[1], "BlackTeam", "上海");
    xqt_assert_tag(&g[1], "Annotator", "覃瑞忠、屠景明、许纯钦");
    xqt_assert_tag(&g[1], "Author", "千秋雪");
    xqt_assert_tag(&g[1], "Result", "1/2-1/2");
    assert_int_equal(g[1].main.count, 60);
    free_all(g, n);
}

/* Single records: test.cbr (variations, comments), test2.cbr (炮二平五
 * 炮８平５, walker's test). */
static void test_cbr_files(void **state)
{
    (void)state;
    xq_game g[2];
    xq_format fmt;
    assert_int_equal(read_path(TD "test.cbr", g, 2, &fmt), 1);
    assert_int_equal(fmt, XQ_FMT_CBR);
    tally t = tally_of(&g[0]);
    assert_int_equal(g[0].main.count, 28);
    assert_int_equal(t.moves, 102);
    assert_int_equal(t.variations, 11);
    assert_int_equal(t.comments, 13);
    assert_int_equal(t.depth, 7);
    assert_int_equal(bad_lines_game(&g[0], NULL, false), 0);
    assert_int_equal(g[0].diag_count, 0);
    assert_int_equal(g[0].raw_len, 2842);
    xqt_assert_tag(&g[0], "Title", "黄丹青讲座004-破解新式弃马局的攻防要领");
    xqt_assert_tag(&g[0], "Result", "*");
    xq_game_free(&g[0]);

    assert_int_equal(read_path(TD "test2.cbr", g, 2, NULL), 1);
    assert_int_equal(g[0].main.count, 2);
    assert_string_equal(g[0].main.nodes[0].text, "h2e2");
    assert_string_equal(g[0].main.nodes[1].text, "h7e7");
    xqt_assert_tag(&g[0], "Title", "Test");
    assert_int_equal(tally_of(&g[0]).comments, 3);
    assert_int_equal(g[0].diag_count, 0);
    xq_game_free(&g[0]);
}

/* ---- libraries: capacity, slots ------------------------------------------------------ */

/* The capacity at byte 60 is the index size, not the game count: a
 * capacity that puts the records elsewhere gives a warning, and the games
 * are still found. */
static void test_capacity(void **state)
{
    (void)state;
    size_t n;
    unsigned char *cbl = load(CBL1956, &n);
    static xq_game g[MAXG];
    cbl[60] = 0, cbl[61] = 2;   /* 512 */
    int k = read_tmp_bytes(cbl, n, g, MAXG, NULL);
    assert_int_equal(k, 93);
    assert_true(has_diag(&g[0], XQ_SEV_WARNING, FIRST, "not at 207936"));
    assert_int_equal(g[1].diag_count, 0);
    free_all(g, k);

    /* only the first 10 games and 10 stray bytes (no record magic) */
    k = read_tmp_bytes(cbl, FIRST + 10 * SLOT + 10, g, MAXG, NULL);
    assert_int_equal(k, 10);
    assert_int_equal(g[9].raw_len, SLOT + 10);
    free_all(g, k);

    /* no games at all; a header cut before the capacity */
    assert_int_equal(read_tmp_bytes(cbl, FIRST, g, MAXG, NULL), 0);
    k = read_tmp_bytes(cbl, 40, g, MAXG, NULL);
    assert_int_equal(k, 1);
    assert_true(has_diag(&g[0], XQ_SEV_ERROR, 40, "cut inside its header"));
    free_all(g, k);
    free(cbl);
}

/* A record longer than one slot runs on into the next; empty slots after
 * the last record belong to it. */
static void test_multi_slot_record(void **state)
{
    (void)state;
    size_t nl, n1, n2;
    unsigned char *cbl = load(CBL1956, &nl), *r1 = load(TD "test.cbr", &n1), *r2 = load(TD "test2.cbr", &n2);
    assert_int_equal(memcmp(r1 + 2214, "\0\0\0\0", 4), 0);
    enum { CLEN = 3000 };
    size_t len = FIRST + 4 * SLOT;
    unsigned char *f = calloc(1, len);
    memcpy(f, cbl, FIRST);
    unsigned char *p = f + FIRST;
    memcpy(p, r1, 2214);
    p[2214] = 4;   /* the start record gets a comment */
    p[2218] = CLEN & 0xFF, p[2219] = CLEN >> 8;
    for (int i = 0; i < CLEN; i += 2) p[2222 + i] = 0x61, p[2222 + i + 1] = 0x8C;   /* 象 */
    memcpy(p + 2222 + CLEN, r1 + 2218, n1 - 2218);
    assert_true(2222 + CLEN + n1 - 2218 > SLOT);
    memcpy(f + FIRST + 2 * SLOT, r2, n2);
    static xq_game g[MAXG];
    int k = read_tmp_bytes(f, len, g, MAXG, NULL);
    assert_int_equal(k, 2);
    assert_int_equal(g[0].raw_len, 2 * SLOT);
    assert_int_equal(g[1].raw_len, 2 * SLOT);
    assert_int_equal(g[1].offset, FIRST + 2 * SLOT);
    assert_int_equal(strlen(g[0].main.comment), CLEN / 2 * 3);
    assert_int_equal(memcmp(g[0].main.comment, "象象", 6), 0);
    assert_int_equal(tally_of(&g[0]).moves, 102);
    assert_int_equal(g[0].diag_count, 0);
    assert_int_equal(g[1].main.count, 2);
    free_all(g, k);
    free(f);
    free(cbl);
    free(r1);
    free(r2);
}

/* ---- damage --------------------------------------------------------------------------- */

static void test_damaged_records(void **state)
{
    (void)state;
    size_t n;
    unsigned char *r = load(TD "test.cbr", &n);
    unsigned char *b = malloc(n);
    xq_game g[2];

    assert_int_equal(read_tmp_bytes(r, 2000, g, 2, NULL), 1);
    assert_true(has_diag(&g[0], XQ_SEV_ERROR, 2000, "shorter than its 2218-byte header"));
    xq_game_free(&g[0]);

    assert_int_equal(read_tmp_bytes(r, 2218, g, 2, NULL), 1);
    assert_true(has_diag(&g[0], XQ_SEV_ERROR, 2218, "ends at byte 2218 where a move record was announced"));
    xq_game_free(&g[0]);

    assert_int_equal(read_tmp_bytes(r, 2220, g, 2, NULL), 1);
    assert_true(has_diag(&g[0], XQ_SEV_ERROR, 2218, "cut by the end of the record"));
    xq_game_free(&g[0]);

    /* a comment length past the end: the first commented move is at 2262 */
    memcpy(b, r, n);
    size_t at = 2218;
    while (!(b[at] & 4)) at += 4;
    b[at + 4] = 0xFF, b[at + 5] = 0xFF;
    assert_int_equal(read_tmp_bytes(b, n, g, 2, NULL), 1);
    assert_true(has_diag(&g[0], XQ_SEV_ERROR, at + 4, "past the end of the record"));
    assert_int_equal(g[0].main.count, (at - 2218) / 4);
    xq_game_free(&g[0]);

    /* a board byte that is no piece, a square past 89, an empty record
     * where a move is announced */
    memcpy(b, r, n);
    b[2120 + 40] = 0x39;
    b[2218 + 4 + 2] = 95;
    b[2218 + 12] = b[2218 + 13] = b[2218 + 14] = b[2218 + 15] = 0;
    assert_int_equal(read_tmp_bytes(b, n, g, 2, NULL), 1);
    assert_true(has_diag(&g[0], XQ_SEV_ERROR, 2160, "not a piece"));
    assert_true(has_diag(&g[0], XQ_SEV_ERROR, 2222, "square out of the board"));
    assert_true(has_diag(&g[0], XQ_SEV_ERROR, 2230, "empty (all zero)"));
    assert_int_equal(g[0].main.count, 1);
    xq_game_free(&g[0]);

    /* the first mover says Black, the first move is Red's */
    memcpy(b, r, n);
    b[2112] = 2;
    assert_int_equal(read_tmp_bytes(b, n, g, 2, NULL), 1);
    assert_true(has_diag(&g[0], XQ_SEV_WARNING, 2112, "first move moves a Red piece"));
    assert_null(g[0].fen);
    xq_game_free(&g[0]);

    /* every cut and random bytes: no crash */
    for (size_t len = 16; len <= n; len += len < 2300 ? 1 : 3) {
        assert_int_equal(read_tmp_bytes(r, len, g, 2, NULL), 1);
        if (len < n) assert_true(xq_game_count_diags(&g[0], XQ_SEV_ERROR) >= 1);
        xq_game_free(&g[0]);
    }
    unsigned seed = 777;
    xq_replay_options ro;
    xq_replay_options_default(&ro);
    for (int round = 0; round < 300; round++) {
        memcpy(b, r, n);
        for (int k = 0; k < 1 + round % 6; k++) {
            seed = seed * 1103515245u + 12345u;
            size_t pos = 2076 + (seed >> 8) % (n - 2076);
            seed = seed * 1103515245u + 12345u;
            b[pos] = (unsigned char)(seed >> 16);
        }
        assert_int_equal(read_tmp_bytes(b, n, g, 2, NULL), 1);
        xq_replay rp;
        xq_replay_game(&g[0], &ro, &rp);
        xq_game_free(&g[0]);
    }
    free(b);
    free(r);
}

/* A damaged library: one record's move stream corrupted, later slots cut. */
static void test_damaged_library(void **state)
{
    (void)state;
    size_t n;
    unsigned char *cbl = load(CBL1956, &n);
    static xq_game g[MAXG];
    size_t rec = FIRST + 3 * SLOT;
    cbl[rec + 2218 + 8 + 4] = 0x04;                         /* a comment flag on a move */
    cbl[rec + 2218 + 8 + 8] = 0x00, cbl[rec + 2218 + 8 + 9] = 0x10;   /* of 4096 bytes */
    int k = read_tmp_bytes(cbl, FIRST + 5 * SLOT + 100, g, MAXG, NULL);
    assert_int_equal(k, 6);
    assert_true(has_diag(&g[3], XQ_SEV_ERROR, rec + 2218 + 8 + 8, "past the end of the record"));
    assert_int_equal(g[3].main.count, 3);
    assert_int_equal(g[4].diag_count, 0);
    assert_int_equal(g[5].raw_len, 100);
    assert_true(has_diag(&g[5], XQ_SEV_ERROR, FIRST + 5 * SLOT + 100, "shorter than its 2218-byte header"));
    free_all(g, k);
    free(cbl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cbl_1956),
        cmocka_unit_test(test_cbl_1989),
        cmocka_unit_test(test_cbr_files),
        cmocka_unit_test(test_capacity),
        cmocka_unit_test(test_multi_slot_record),
        cmocka_unit_test(test_damaged_records),
        cmocka_unit_test(test_damaged_library),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
