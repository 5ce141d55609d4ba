/* test_stats.c - xq-stats' library: ECCO codes and classifier, the
 * accumulator, exact merging (merge of any split == the whole), the JSON
 * round trip, and standings with the CXA1999 §15.1 / §15.2 tie-breaks on
 * small hand-made events. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecco.h"
#include "pgn_read.h"
#include "replay.h"
#include "stats.h"
#include "test_util.h"

#ifndef XQ_SHARED
#define XQ_SHARED "../shared"
#endif

/* ---- helpers ----------------------------------------------------------- */


/* One game summary per record of path, replayed with the default rules. */
typedef struct {
    xq_game *games;          /* kept so the summaries' text views stay valid */
    xq_stats_game *sg;
    size_t n;
} game_list;

static void load_games(const char *path, game_list *out)
{
    char err[256];
    xq_reader *rd = xq_reader_open(path, NULL, err, sizeof err);
    assert_non_null(rd);
    memset(out, 0, sizeof *out);
    size_t cap = 0;
    xq_replay_options ro;
    xq_replay_options_default(&ro);
    xq_replay *r = malloc(sizeof *r);
    assert_non_null(r);
    for (;;) {
        if (out->n == cap) {
            cap = cap ? cap * 2 : 64;
            out->games = realloc(out->games, cap * sizeof *out->games);
            out->sg = realloc(out->sg, cap * sizeof *out->sg);
            assert_non_null(out->games);
            assert_non_null(out->sg);
        }
        xq_game *g = &out->games[out->n];
        xq_game_init(g);
        int st = xq_reader_next(rd, g);
        assert_true(st >= 0);
        if (st == 0) {
            xq_game_free(g);
            break;
        }
        xq_replay_game(g, &ro, r);
        xq_stats_analyse(g, r, &out->sg[out->n]);
        out->n++;
    }
    free(r);
    xq_reader_close(rd);
}

static void free_games(game_list *l)
{
    for (size_t i = 0; i < l->n; i++) xq_game_free(&l->games[i]);
    free(l->games);
    free(l->sg);
}

/* A memory stream (open_memstream) whose buffer pointer and size live
 * in a heap block, not in the caller's locals: with &local, gcc -O3
 * (-Wdangling-pointer) cannot tell that open_memstream stores a heap
 * address there and not the local's own, and takes every use of the
 * text the function returns for a use of a dangling pointer. */
typedef struct {
    char *text;   /* the output, malloc'd, NUL-terminated once closed */
    size_t len;
    FILE *f;
} mem_out;

static mem_out *mem_open(void)
{
    mem_out *m = calloc(1, sizeof *m);
    assert_non_null(m);
    m->f = open_memstream(&m->text, &m->len);
    assert_non_null(m->f);
    return m;
}

/* Close m and hand back its text (the caller frees it). */
static char *mem_close(mem_out *m)
{
    assert_int_equal(fclose(m->f), 0);
    char *text = m->text;
    free(m);
    assert_non_null(text);
    return text;
}

/* The accumulator's JSON as a malloc'd string. */
static char *json_of(const xq_stats *s)
{
    mem_out *m = mem_open();
    xq_stats_write_json(m->f, s, NULL);
    return mem_close(m);
}

static char *text_of(const xq_stats *s, xq_event_system sys)
{
    mem_out *m = mem_open();
    xq_stats_report_options ro = {.top = 0, .system = sys};
    xq_stats_write_text(m->f, s, &ro);
    return mem_close(m);
}

static xq_stats *accumulate(const game_list *l, size_t from, size_t to, const char *event)
{
    xq_stats_options opt = {.event = event};
    xq_replay_options_default(&opt.rules);
    xq_stats *s = xq_stats_new(&opt);
    assert_non_null(s);
    for (size_t i = from; i < to; i++) assert_true(xq_stats_add(s, &l->sg[i]));
    return s;
}

/* ---- ECCO -------------------------------------------------------------- */

static void test_ecco_codes(void **state)
{
    (void)state;
    char buf[4];
    assert_int_equal(xq_ecco_parse("A00"), 0);
    assert_int_equal(xq_ecco_parse(" C55 "), 255);
    assert_int_equal(xq_ecco_parse("e99"), 499);
    assert_int_equal(xq_ecco_parse("F00"), -1);
    assert_int_equal(xq_ecco_parse("C5"), -1);
    assert_int_equal(xq_ecco_parse("C555"), -1);
    assert_int_equal(xq_ecco_parse(""), -1);
    assert_int_equal(xq_ecco_parse(NULL), -1);
    assert_string_equal(xq_ecco_format(255, buf), "C55");
    assert_string_equal(xq_ecco_format(500, buf), "");
    /* names from ecco-names.tsv (vschess) */
    assert_string_equal(xq_ecco_opening(xq_ecco_parse("C00")), "中炮对屏风马");
    assert_string_equal(xq_ecco_opening(xq_ecco_parse("C55")), "五六炮过河车对屏风马");
    assert_string_equal(xq_ecco_variation(xq_ecco_parse("C55")), "黑进７卒右直车");
    assert_string_equal(xq_ecco_opening(xq_ecco_parse("A09")), "");   /* unnamed */
}

static void test_ecco_key_mirror(void **state)
{
    (void)state;
    xq_move a[8], b[8];
    char ka[64], kb[64];
    /* 炮二平五 馬８進７ and its mirror 炮八平五 馬２進３ share a key */
    int na = xqt_iccs_moves("h2e2 h9g7", a, 8), nb = xqt_iccs_moves("b2e2 b9c7", b, 8);
    xq_ecco_key(a, na, 20, ka, sizeof ka);
    xq_ecco_key(b, nb, 20, kb, sizeof kb);
    assert_string_equal(ka, "h2e2h9g7");
    assert_string_equal(kb, "h2e2h9g7");
    /* a centre-file first move decides nothing: the next one does */
    na = xqt_iccs_moves("e3e4 b9c7", a, 8);
    xq_ecco_key(a, na, 20, ka, sizeof ka);
    assert_string_equal(ka, "e3e4h9g7");
    /* the prefix length is capped */
    assert_int_equal(xq_ecco_key(a, na, 1, ka, sizeof ka), 1);
    assert_string_equal(ka, "e3e4");
}

static void test_ecco_classify_table(void **state)
{
    (void)state;
    static const xq_ecco_entry entries[] = {
        {"", "A00"}, {"h2e2", "B00"}, {"h2e2h9g7", "C00"}, {"h2e2h9g7h0g2i9h9", "C01"},
    };
    xq_ecco_table t = {entries, 4, 20};
    xq_move m[8];
    int n = xqt_iccs_moves("h2e2 h9g7 h0g2 i9h9 i0h0", m, 8);
    assert_int_equal(xq_ecco_classify(&t, m, n), xq_ecco_parse("C01"));
    assert_int_equal(xq_ecco_classify(&t, m, 3), xq_ecco_parse("C00"));   /* longest prefix: 2 plies */
    n = xqt_iccs_moves("b2e2 b9c7", m, 8);                                     /* mirrored */
    assert_int_equal(xq_ecco_classify(&t, m, n), xq_ecco_parse("C00"));
    n = xqt_iccs_moves("g3g4", m, 8);
    assert_int_equal(xq_ecco_classify(&t, m, n), xq_ecco_parse("A00"));
    xq_ecco_table empty = {entries, 0, 20};
    assert_int_equal(xq_ecco_classify(&empty, m, n), -1);
    /* the built-in table: 炮二平五 馬８進７ 馬二進三 車９平８ has one black
     * horse out: 中炮对进左马 (B05), as the reference tree says */
    n = xqt_iccs_moves("h2e2 h9g7 h0g2 i9h9", m, 8);
    assert_int_equal(xq_ecco_classify(NULL, m, n), xq_ecco_parse("B05"));
    assert_true(xq_ecco_builtin()->count > 100);
}

static void test_ecco_learner(void **state)
{
    (void)state;
    xq_ecco_learner *l = xq_ecco_learner_new(4, 1);
    assert_non_null(l);
    xq_move m[8];
    int n = xqt_iccs_moves("h2e2 h9g7 h0g2", m, 8);
    assert_true(xq_ecco_learner_add(l, m, n, xq_ecco_parse("C00")));
    assert_true(xq_ecco_learner_add(l, m, n, xq_ecco_parse("C00")));
    n = xqt_iccs_moves("b2e2 b7e7", m, 8);   /* mirror of h2e2 h7e7: 順炮 */
    assert_true(xq_ecco_learner_add(l, m, n, xq_ecco_parse("D00")));
    n = xqt_iccs_moves("g3g4", m, 8);
    assert_true(xq_ecco_learner_add(l, m, n, xq_ecco_parse("E00")));
    assert_int_equal(xq_ecco_learner_games(l), 4);
    const xq_ecco_table *t = xq_ecco_learner_table(l);
    assert_non_null(t);
    /* root: A00; the first moves are their families (h2e2 B00, g3g4 E00;
     * the 12 families no game opened get entries too); h2e2h9g7 -> C00,
     * h2e2h7e7 -> D00; deeper C00 prefixes inherit and are pruned. */
    assert_int_equal(t->count, 17);
    assert_string_equal(t->entries[0].prefix, "");
    assert_string_equal(t->entries[0].code, "A00");
    n = xqt_iccs_moves("g3g4", m, 8);
    assert_int_equal(xq_ecco_classify(t, m, n), xq_ecco_parse("E00"));
    n = xqt_iccs_moves("h2e2", m, 8);
    assert_int_equal(xq_ecco_classify(t, m, n), xq_ecco_parse("B00"));
    n = xqt_iccs_moves("h2e2 h9g7 h0g2", m, 8);
    assert_int_equal(xq_ecco_classify(t, m, n), xq_ecco_parse("C00"));
    n = xqt_iccs_moves("h2e2 h7e7 h0g2", m, 8);
    assert_int_equal(xq_ecco_classify(t, m, n), xq_ecco_parse("D00"));
    n = xqt_iccs_moves("e3e4", m, 8);
    assert_int_equal(xq_ecco_classify(t, m, n), xq_ecco_parse("A00"));
    xq_ecco_learner_free(l);

    /* min_support 2: single-game prefixes are not learned (g3g4 keeps its
     * family entry) */
    l = xq_ecco_learner_new(4, 2);
    n = xqt_iccs_moves("h2e2 h9g7", m, 8);
    xq_ecco_learner_add(l, m, n, xq_ecco_parse("C00"));
    xq_ecco_learner_add(l, m, n, xq_ecco_parse("C00"));
    n = xqt_iccs_moves("g3g4 e9e8", m, 8);
    xq_ecco_learner_add(l, m, n, xq_ecco_parse("E01"));
    t = xq_ecco_learner_table(l);
    assert_int_equal(t->count, 16);
    assert_string_equal(t->entries[0].code, "A00");
    n = xqt_iccs_moves("g3g4 e9e8", m, 8);
    assert_int_equal(xq_ecco_classify(t, m, n), xq_ecco_parse("E00"));
    n = xqt_iccs_moves("h2e2 h9g7", m, 8);
    assert_int_equal(xq_ecco_classify(t, m, n), xq_ecco_parse("C00"));
    xq_ecco_learner_free(l);
}

/* ---- standings --------------------------------------------------------- */

/* One event game with nothing known of its board (what JSON rows of four
 * give). */
#define EG(red, black, round, result) {red, black, round, result, XQ_RESULT_NONE, XQ_TERM_NONE, false, 0, 0}

/* The round robin of tests/data/stats-roundrobin.pgn, hand-checked:
 * scores C 3, D 3, E 3, F 2, A 2, B 2; 小分 (Sonneborn-Berger) C 7, D 7,
 * E 7, F 6, A 4.5, B 4.5; wins C 3, D 2, E 2, A 1, B 1; D beat E (direct
 * encounter); A and B drew: tied on everything, they share 5th. */
static const xq_event_game RR[] = {
    EG("A", "B", 1, XQ_RESULT_DRAW),  EG("C", "D", 1, XQ_RESULT_RED),   EG("E", "F", 1, XQ_RESULT_DRAW),
    EG("C", "A", 2, XQ_RESULT_RED),   EG("B", "E", 2, XQ_RESULT_DRAW),  EG("F", "D", 2, XQ_RESULT_DRAW),
    EG("A", "D", 3, XQ_RESULT_DRAW),  EG("F", "B", 3, XQ_RESULT_BLACK), EG("E", "C", 3, XQ_RESULT_RED),
    EG("E", "A", 4, XQ_RESULT_RED),   EG("D", "B", 4, XQ_RESULT_RED),   EG("F", "C", 4, XQ_RESULT_RED),
    EG("A", "F", 5, XQ_RESULT_RED),   EG("B", "C", 5, XQ_RESULT_BLACK), EG("D", "E", 5, XQ_RESULT_RED),
    EG("A", "B", 6, XQ_RESULT_UNKNOWN),
};

static void test_standings_round_robin(void **state)
{
    (void)state;
    xq_standings st;
    assert_true(xq_standings_compute(RR, sizeof RR / sizeof RR[0], XQ_SYSTEM_AUTO, &st));
    assert_int_equal(st.system, XQ_SYSTEM_ROUND_ROBIN);
    assert_int_equal(st.nplayers, 6);
    assert_int_equal(st.ngames, 15);
    assert_int_equal(st.left_out, 1);
    static const struct { const char *name; int rank, score2, tb4, wins, direct2; } want[] = {
        {"C", 1, 6, 28, 3, -1}, {"D", 2, 6, 28, 2, 2}, {"E", 3, 6, 28, 2, 0},
        {"F", 4, 4, 24, 1, -1}, {"A", 5, 4, 18, 1, 1}, {"B", 5, 4, 18, 1, 1},
    };
    for (size_t i = 0; i < 6; i++) {
        assert_string_equal(st.rows[i].name, want[i].name);
        assert_int_equal(st.rows[i].rank, want[i].rank);
        assert_int_equal(st.rows[i].score2, want[i].score2);
        assert_int_equal(st.rows[i].tb4, want[i].tb4);
        assert_int_equal(st.rows[i].wins, want[i].wins);
        assert_int_equal(st.rows[i].direct2, want[i].direct2);
        assert_int_equal(st.rows[i].games, 5);
    }
    /* every counted game points at its players' rows */
    for (size_t g = 0; g < st.ngames; g++) {
        assert_string_equal(st.rows[st.red_row[g]].name, st.game[g]->red);
        assert_string_equal(st.rows[st.black_row[g]].name, st.game[g]->black);
    }
    xq_standings_free(&st);

    /* the same games ranked as a Swiss event: 對手分 instead of 小分 */
    assert_true(xq_standings_compute(RR, sizeof RR / sizeof RR[0], XQ_SYSTEM_SWISS, &st));
    assert_int_equal(st.system, XQ_SYSTEM_SWISS);
    assert_int_equal(st.rows[0].tb4, 48);   /* C: opponents score 2 + 2 + 3 + 3 + 2 = 12, x 4 */
    xq_standings_free(&st);
}

/* A record that repeats a counted one (same round, players, result and
 * moves) is counted once; the same pairing with other moves, or a record
 * whose moves are not known, counts.  --system auto names a pair that met
 * a different number of times when it picks Swiss. */
static void test_standings_copies(void **state)
{
    (void)state;
    xq_event_game g[] = {
        EG("A", "B", 1, XQ_RESULT_RED), EG("C", "D", 1, XQ_RESULT_DRAW), EG("A", "C", 2, XQ_RESULT_BLACK),
        EG("B", "D", 2, XQ_RESULT_RED), EG("D", "A", 3, XQ_RESULT_DRAW), EG("B", "C", 3, XQ_RESULT_DRAW),
        EG("A", "B", 1, XQ_RESULT_RED),
    };
    for (size_t i = 0; i < 7; i++) g[i].move_hash = 100 + i;
    g[6].move_hash = g[0].move_hash;   /* the last record is the first one again */
    xq_standings st;
    assert_true(xq_standings_compute(g, 7, XQ_SYSTEM_AUTO, &st));
    assert_int_equal(st.ngames, 6);
    assert_int_equal(st.nduplicates, 1);
    assert_ptr_equal(st.duplicate[0], &g[6]);
    assert_int_equal(st.system, XQ_SYSTEM_ROUND_ROBIN);   /* every pair met once */
    assert_null(st.uneven[0]);
    for (size_t i = 0; i < st.nplayers; i++)
        if (!strcmp(st.rows[i].name, "A")) {                /* 1.5 of 3, not 2.5 of 4 */
            assert_int_equal(st.rows[i].score2, 3);
            assert_int_equal(st.rows[i].games, 3);
        }
    xq_standings_free(&st);

    /* other moves: two games, both counted; the pairs met unevenly */
    g[6].move_hash = 999;
    assert_true(xq_standings_compute(g, 7, XQ_SYSTEM_AUTO, &st));
    assert_int_equal(st.ngames, 7);
    assert_int_equal(st.nduplicates, 0);
    assert_int_equal(st.system, XQ_SYSTEM_SWISS);
    assert_string_equal(st.uneven[0], "A");
    assert_string_equal(st.uneven[1], "B");
    assert_int_equal(st.uneven_met[0], 2);
    assert_string_equal(st.uneven[2], "A");
    assert_string_equal(st.uneven[3], "C");
    assert_int_equal(st.uneven_met[1], 1);
    xq_standings_free(&st);

    /* moves not known (0): never taken for copies */
    g[6].move_hash = g[0].move_hash = 0;
    assert_true(xq_standings_compute(g, 7, XQ_SYSTEM_AUTO, &st));
    assert_int_equal(st.nduplicates, 0);
    xq_standings_free(&st);

    /* another result with the same moves is not the same record */
    g[6].move_hash = g[0].move_hash = 7;
    g[6].result = XQ_RESULT_DRAW;
    assert_true(xq_standings_compute(g, 7, XQ_SYSTEM_AUTO, &st));
    assert_int_equal(st.nduplicates, 0);
    xq_standings_free(&st);
}

/* Records without a move (forfeits) have the same moves: they are one game
 * only with a known round, or else the same Date and Time, one of them
 * recorded (a double round robin without Round tags has two forfeits
 * between the same players). */
static void test_standings_forfeit_copies(void **state)
{
    (void)state;
    xq_event_game g[] = {
        EG("A", "B", 0, XQ_RESULT_RED), EG("B", "A", 0, XQ_RESULT_DRAW), EG("A", "B", 0, XQ_RESULT_RED),
        EG("B", "A", 0, XQ_RESULT_DRAW),
    };
    for (size_t i = 0; i < 4; i++) {
        g[i].no_moves = i == 0 || i == 2;
        g[i].move_hash = g[i].no_moves ? 42 : 100 + i;
        g[i].when = XQ_WHEN_NONE;
    }
    xq_standings st;
    /* no round, no Date, no Time: nothing says they are one game */
    assert_true(xq_standings_compute(g, 4, XQ_SYSTEM_AUTO, &st));
    assert_int_equal(st.ngames, 4);
    assert_int_equal(st.nduplicates, 0);
    assert_int_equal(st.rows[0].score2, 6);   /* A: two forfeit wins and two draws */
    xq_standings_free(&st);
    /* other days: two games */
    g[0].when = xq_stats_when_hash("2024.05.01", NULL);
    g[2].when = xq_stats_when_hash("2024.05.03", NULL);
    assert_true(xq_standings_compute(g, 4, XQ_SYSTEM_AUTO, &st));
    assert_int_equal(st.nduplicates, 0);
    xq_standings_free(&st);
    /* the same day (blanks around it do not count), no Time: one game */
    g[2].when = xq_stats_when_hash(" 2024.05.01 ", "");
    assert_int_equal(g[0].when, g[2].when);
    assert_true(xq_standings_compute(g, 4, XQ_SYSTEM_AUTO, &st));
    assert_int_equal(st.ngames, 3);
    assert_int_equal(st.nduplicates, 1);
    assert_ptr_equal(st.duplicate[0], &g[2]);
    xq_standings_free(&st);
    /* the same day, other times (two rounds a day): two games */
    g[0].when = xq_stats_when_hash("2024.05.01", "09:00");
    g[2].when = xq_stats_when_hash("2024.05.01", "14:00");
    assert_true(xq_standings_compute(g, 4, XQ_SYSTEM_AUTO, &st));
    assert_int_equal(st.nduplicates, 0);
    xq_standings_free(&st);
    /* a known round is enough (a pair meets once a round), whatever the dates */
    g[0].round = g[2].round = 3;
    assert_true(xq_standings_compute(g, 4, XQ_SYSTEM_AUTO, &st));
    assert_int_equal(st.nduplicates, 1);
    xq_standings_free(&st);
    /* when not known (JSON of an earlier version) and no round: two games */
    g[0].round = g[2].round = 0;
    g[0].when = g[2].when = XQ_WHEN_UNKNOWN;
    assert_true(xq_standings_compute(g, 4, XQ_SYSTEM_AUTO, &st));
    assert_int_equal(st.nduplicates, 0);
    xq_standings_free(&st);
    /* games with moves: the moves say it, not the dates */
    g[1].when = xq_stats_when_hash("2024.05.02", NULL);
    g[3].when = XQ_WHEN_NONE;
    g[3].move_hash = g[1].move_hash;
    assert_true(xq_standings_compute(g, 4, XQ_SYSTEM_AUTO, &st));
    assert_int_equal(st.nduplicates, 1);
    xq_standings_free(&st);
    assert_int_equal(xq_stats_when_hash(NULL, "  "), XQ_WHEN_NONE);
    /* PGN's marks of a date or time not known, whole or in part, record
     * nothing: two such forfeits are two games (break15) */
    assert_int_equal(xq_stats_when_hash("????.??.??", NULL), XQ_WHEN_NONE);
    assert_int_equal(xq_stats_when_hash(" ? ", "??:??"), XQ_WHEN_NONE);
    assert_int_equal(xq_stats_when_hash("2025.??.??", NULL), XQ_WHEN_NONE);
    assert_int_equal(xq_stats_when_hash("????.??.??", "09:00"), xq_stats_when_hash(NULL, "09:00"));
    g[3].move_hash = 103;   /* (the games with moves two games again) */
    g[0].when = xq_stats_when_hash("????.??.??", NULL);
    g[2].when = xq_stats_when_hash("????.??.??", NULL);
    assert_true(xq_standings_compute(g, 4, XQ_SYSTEM_AUTO, &st));
    assert_int_equal(st.ngames, 4);
    assert_int_equal(st.nduplicates, 0);
    xq_standings_free(&st);
}

/* The Swiss event of tests/data/stats-swiss.pgn, hand-checked: scores
 * P4 2, P3 2, P6 1.5, P1 1.5, P2 1.5, P5 0.5; 對手分 P4 5, P3 5, P6 4.5,
 * P1 4, P2 4, P5 4.5; wins P4 2 > P3 1; P1 and P2 share 4th. */
static const xq_event_game SWISS[] = {
    EG("P1", "P2", 1, XQ_RESULT_BLACK), EG("P3", "P4", 1, XQ_RESULT_RED), EG("P5", "P6", 1, XQ_RESULT_BLACK),
    EG("P1", "P3", 2, XQ_RESULT_DRAW),  EG("P2", "P5", 2, XQ_RESULT_DRAW), EG("P4", "P6", 2, XQ_RESULT_RED),
    EG("P1", "P5", 3, XQ_RESULT_RED),   EG("P3", "P6", 3, XQ_RESULT_DRAW), EG("P2", "P4", 3, XQ_RESULT_BLACK),
};

static void test_standings_swiss(void **state)
{
    (void)state;
    xq_standings st;
    assert_true(xq_standings_compute(SWISS, 9, XQ_SYSTEM_AUTO, &st));
    assert_int_equal(st.system, XQ_SYSTEM_SWISS);
    static const struct { const char *name; int rank, score2, tb4; } want[] = {
        {"P4", 1, 4, 20}, {"P3", 2, 4, 20}, {"P6", 3, 3, 18}, {"P1", 4, 3, 16}, {"P2", 4, 3, 16}, {"P5", 6, 1, 18},
    };
    for (size_t i = 0; i < 6; i++) {
        assert_string_equal(st.rows[i].name, want[i].name);
        assert_int_equal(st.rows[i].rank, want[i].rank);
        assert_int_equal(st.rows[i].score2, want[i].score2);
        assert_int_equal(st.rows[i].tb4, want[i].tb4);
        assert_int_equal(st.rows[i].direct2, -1);
    }
    xq_standings_free(&st);

    assert_true(xq_standings_compute(NULL, 0, XQ_SYSTEM_AUTO, &st));
    assert_int_equal(st.nplayers, 0);
    xq_standings_free(&st);
}

/* ---- accumulating and merging ------------------------------------------ */

static void test_counts_roundrobin_file(void **state)
{
    (void)state;
    game_list l;
    load_games("tests/data/stats-roundrobin.pgn", &l);
    assert_int_equal(l.n, 17);
    xq_stats *s = accumulate(&l, 0, l.n, "Test Cup 2024");
    assert_int_equal(xq_stats_records(s), 17);
    char *text = text_of(s, XQ_SYSTEM_AUTO);
    assert_non_null(strstr(text, "     1  Chao Wang      5     3      0       2      3     7\n"));
    assert_non_null(strstr(text, "     5  Bo Chen        5     1      2       2      2   4.5     0.5\n"));
    assert_non_null(strstr(text, "  (1 game without a result left out)\n"));
    free(text);
    xq_stats_free(s);
    free_games(&l);
}

/* tests/data/stats-event-facts.pgn: the notes under the standings name the
 * contradicted Result tag (scored as the tag), the forfeit and the game
 * filed twice (scored once); the forfeit has its row among the results by
 * the board; the facts go through JSON and back, and rows of four (JSON of
 * an earlier version) still read, with nothing known of the board. */
static void test_event_facts(void **state)
{
    (void)state;
    game_list l;
    load_games("tests/data/stats-event-facts.pgn", &l);
    assert_int_equal(l.n, 4);
    xq_stats *s = accumulate(&l, 0, l.n, "Cup");
    char *text = text_of(s, XQ_SYSTEM_AUTO);
    assert_non_null(strstr(text, "Event \"Cup\": 4 players, 3 games\n"));
    assert_non_null(strstr(text, "  note: round 2, A - C 1/2-1/2 is recorded again with the same moves: the same "
                                 "game, scored once\n"));
    assert_non_null(strstr(text, "  note: round 1, A - B 0-1: the board gives 1-0 (checkmate); scored as the "
                                 "Result tag, the arbiter's record\n"));
    assert_non_null(strstr(text, "  note: round 1, C - D 1-0 has no move: a forfeit"));
    assert_non_null(strstr(text, "  resignation (by the tag)    0    0 "));
    assert_non_null(strstr(text, "  forfeit (no move)           1    0 "));
    /* A: a loss (the tag) and one draw, not two */
    assert_non_null(strstr(text, "  A           2     0      1       1    0.5"));
    char *json = json_of(s);
    assert_non_null(strstr(json, "[1,\"A\",\"B\",\"0-1\",\"checkmate\",\"1-0\",false,\""));
    assert_non_null(strstr(json, "[1,\"C\",\"D\",\"1-0\",\"\",\"\",true,\""));
    assert_non_null(strstr(json, "\"forfeits\":{\"1-0\":1,\"0-1\":0}"));
    bool inc;
    char err[128];
    xq_stats *back = xq_stats_read_json(json, strlen(json), &inc, err, sizeof err);
    assert_non_null(back);
    char *json2 = json_of(back), *text2 = text_of(back, XQ_SYSTEM_AUTO);
    assert_string_equal(json, json2);
    assert_string_equal(text, text2);
    free(json2);
    free(text2);
    xq_stats_free(back);

    /* rows of four and no "forfeits": read as before, nothing noted */
    const char *row = strstr(json, "[1,\"A\",\"B\",\"0-1\",");
    char *old = malloc(strlen(json) + 1);
    assert_non_null(old);
    size_t at = (size_t)(row - json) + strlen("[1,\"A\",\"B\",\"0-1\"");
    memcpy(old, json, at);
    const char *rest = strchr(row, ']');
    strcpy(old + at, rest);
    char *f = strstr(old, "\"forfeits\":");
    memmove(f, strchr(f, '}') + 2, strlen(strchr(f, '}') + 2) + 1);
    back = xq_stats_read_json(old, strlen(old), &inc, err, sizeof err);
    assert_non_null(back);
    text2 = text_of(back, XQ_SYSTEM_AUTO);
    assert_null(strstr(text2, "the board gives"));
    assert_non_null(strstr(text2, "  forfeit (no move)           0    0 "));
    free(text2);
    xq_stats_free(back);
    free(old);
    free(json);
    free(text);
    xq_stats_free(s);
    free_games(&l);
}

/* merge(stats(games[0..k)), stats(games[k..n))) == stats(games) for every k,
 * in both orders, and JSON -> read -> JSON is the identity. */
static void check_split_merge(const game_list *l, const char *event, size_t step)
{
    xq_stats *whole = accumulate(l, 0, l->n, event);
    char *want = json_of(whole);
    for (size_t k = 0; k <= l->n; k += step) {
        for (int order = 0; order < 2; order++) {
            xq_stats *a = accumulate(l, 0, k, event), *b = accumulate(l, k, l->n, event);
            char err[128];
            if (order) {
                xq_stats *t = a;
                a = b;
                b = t;
            }
            /* through JSON, as --merge does */
            char *ja = json_of(a), *jb = json_of(b);
            bool inc;
            xq_stats *ra = xq_stats_read_json(ja, strlen(ja), &inc, err, sizeof err);
            xq_stats *rb = xq_stats_read_json(jb, strlen(jb), &inc, err, sizeof err);
            assert_non_null(ra);
            assert_non_null(rb);
            char *ja2 = json_of(ra);
            assert_string_equal(ja, ja2);
            assert_true(xq_stats_merge(ra, rb, err, sizeof err));
            char *got = json_of(ra);
            assert_string_equal(got, want);
            free(got);
            free(ja2);
            free(ja);
            free(jb);
            xq_stats_free(ra);
            xq_stats_free(rb);
            xq_stats_free(a);
            xq_stats_free(b);
        }
    }
    /* and the text report of a 3-way merge in memory */
    size_t third = l->n / 3;
    xq_stats *p = accumulate(l, 0, third, event), *q = accumulate(l, third, 2 * third, event),
             *r = accumulate(l, 2 * third, l->n, event);
    char err[128];
    assert_true(xq_stats_merge(r, p, err, sizeof err));
    assert_true(xq_stats_merge(r, q, err, sizeof err));
    char *t1 = text_of(r, XQ_SYSTEM_AUTO), *t2 = text_of(whole, XQ_SYSTEM_AUTO);
    assert_string_equal(t1, t2);
    free(t1);
    free(t2);
    xq_stats_free(p);
    xq_stats_free(q);
    xq_stats_free(r);
    free(want);
    xq_stats_free(whole);
}

static void test_merge_split_small(void **state)
{
    (void)state;
    game_list l;
    load_games("tests/data/stats-roundrobin.pgn", &l);
    check_split_merge(&l, "Test Cup 2024", 1);
    check_split_merge(&l, NULL, 1);
    free_games(&l);
    load_games("tests/data/stats-swiss.pgn", &l);
    check_split_merge(&l, "測試公開賽", 1);
    free_games(&l);
}

static void test_merge_split_corpus(void **state)
{
    (void)state;
    const char *path = XQ_SHARED "/corpus/ccpd/mating-drills.pgn.gz";
    FILE *f = fopen(path, "rb");
    if (!f) {
        print_message("skip: %s not present\n", path);
        skip();
    }
    fclose(f);
    game_list l;
    load_games(path, &l);
    assert_int_equal(l.n, 130);
    check_split_merge(&l, NULL, 7);
    free_games(&l);
}

static void test_merge_refuses_other_options(void **state)
{
    (void)state;
    xq_stats_options o1 = {.event = NULL}, o2;
    xq_replay_options_default(&o1.rules);
    o2 = o1;
    o2.rules.move_limit = 50;
    xq_stats *a = xq_stats_new(&o1), *b = xq_stats_new(&o2);
    char err[160];
    assert_false(xq_stats_merge(a, b, err, sizeof err));
    assert_non_null(strstr(err, "different rules"));
    xq_stats_free(b);
    o2 = o1;
    o2.event = "Test Cup 2024";
    b = xq_stats_new(&o2);
    assert_false(xq_stats_merge(a, b, err, sizeof err));
    assert_non_null(strstr(err, "different events"));
    xq_stats_free(b);
    /* the tie-break system a part was made with is kept for the merge:
     * another one is a conflict, named in the one-line reason */
    o2 = o1;
    o2.system = XQ_SYSTEM_SWISS;
    b = xq_stats_new(&o2);
    assert_false(xq_stats_merge(a, b, err, sizeof err));
    assert_string_equal(err, "the statistics were made with different tie-break systems (--system auto and swiss)");
    xq_stats_free(a);
    xq_stats_free(b);
}

/* The system survives the JSON round trip (what --merge reads), and an
 * object from before it was recorded reads as auto. */
static void test_json_system(void **state)
{
    (void)state;
    xq_stats_options o = {.event = "Test Cup 2024", .system = XQ_SYSTEM_ROUND_ROBIN};
    xq_replay_options_default(&o.rules);
    xq_stats *s = xq_stats_new(&o);
    assert_non_null(s);
    char *j = json_of(s);
    assert_non_null(strstr(j, ",\"event\":\"Test Cup 2024\",\"system\":\"round-robin\"}"));
    char err[160];
    xq_stats *back = xq_stats_read_json(j, strlen(j), NULL, err, sizeof err);
    assert_non_null(back);
    assert_int_equal(xq_stats_get_options(back)->system, XQ_SYSTEM_ROUND_ROBIN);
    xq_stats_free(back);
    char *old = strdup(j);
    char *p = strstr(old, ",\"system\":\"round-robin\"");
    memmove(p, p + strlen(",\"system\":\"round-robin\""), strlen(p + strlen(",\"system\":\"round-robin\"")) + 1);
    back = xq_stats_read_json(old, strlen(old), NULL, err, sizeof err);
    assert_non_null(back);
    assert_int_equal(xq_stats_get_options(back)->system, XQ_SYSTEM_AUTO);
    assert_true(xq_stats_get_options(back)->system_unrecorded);
    /* not recorded, and so written again (break15: a part of an earlier
     * version merges with parts of any system, in either order, and takes
     * theirs; two such stay unrecorded) */
    char *again = json_of(back);
    assert_non_null(strstr(again, ",\"event\":\"Test Cup 2024\"}"));   /* options end there */
    xq_stats *old2 = xq_stats_read_json(again, strlen(again), NULL, err, sizeof err);
    assert_non_null(old2);
    assert_true(xq_stats_merge(old2, back, err, sizeof err));
    assert_true(xq_stats_get_options(old2)->system_unrecorded);
    xq_stats *rr = xq_stats_read_json(j, strlen(j), NULL, err, sizeof err);
    assert_non_null(rr);
    assert_true(xq_stats_merge(back, rr, err, sizeof err));
    assert_int_equal(xq_stats_get_options(back)->system, XQ_SYSTEM_ROUND_ROBIN);
    assert_false(xq_stats_get_options(back)->system_unrecorded);
    assert_true(xq_stats_merge(rr, old2, err, sizeof err));
    assert_int_equal(xq_stats_get_options(rr)->system, XQ_SYSTEM_ROUND_ROBIN);
    /* recorded systems that differ are still refused */
    xq_stats_options sw = o;
    sw.system = XQ_SYSTEM_SWISS;
    xq_stats *swiss = xq_stats_new(&sw);
    assert_non_null(swiss);
    assert_false(xq_stats_merge(back, swiss, err, sizeof err));
    assert_string_equal(err, "the statistics were made with different tie-break systems (--system round-robin and swiss)");
    xq_stats_free(swiss);
    xq_stats_free(rr);
    xq_stats_free(old2);
    free(again);
    xq_stats_free(back);
    p = strstr(j, "round-robin");
    memcpy(p, "knock-out!!", 11);
    assert_null(xq_stats_read_json(j, strlen(j), NULL, err, sizeof err));
    assert_string_equal(err, "options.system: expected \"auto\", \"round-robin\" or \"swiss\"");
    free(old);
    free(j);
    xq_stats_free(s);
}

static void test_json_errors(void **state)
{
    (void)state;
    xq_stats *s = xq_stats_new(NULL);
    char *j = json_of(s);
    char err[160];
    bool inc;
    /* cut short: incomplete, so a line reader can append the next line */
    assert_null(xq_stats_read_json(j, strlen(j) / 2, &inc, err, sizeof err));
    assert_true(inc);
    /* not ours */
    const char *other = "{\"format\":\"other\"}";
    assert_null(xq_stats_read_json(other, strlen(other), &inc, err, sizeof err));
    assert_false(inc);
    /* a newer version */
    char *v2 = strdup(j);
    char *p = strstr(v2, "\"version\":1");
    assert_non_null(p);
    p[10] = '2';
    assert_null(xq_stats_read_json(v2, strlen(v2), &inc, err, sizeof err));
    assert_non_null(strstr(err, "version"));
    /* a negative count */
    char *neg = strdup(j);
    p = strstr(neg, "\"records\":0");
    assert_non_null(p);
    memcpy(p, "\"records\":-", 11);
    assert_null(xq_stats_read_json(neg, strlen(neg), &inc, err, sizeof err));
    /* the empty accumulator round-trips */
    xq_stats *r = xq_stats_read_json(j, strlen(j), &inc, err, sizeof err);
    assert_non_null(r);
    char *j2 = json_of(r);
    assert_string_equal(j, j2);
    free(j2);
    free(neg);
    free(v2);
    free(j);
    xq_stats_free(r);
    xq_stats_free(s);
}

/* Median and mean come from the histogram: exact, and mergeable. */
static void test_median(void **state)
{
    (void)state;
    xq_stats *s = xq_stats_new(NULL);
    xq_stats_game g;
    memset(&g, 0, sizeof g);
    g.ecco_tag = g.ecco_class = -1;
    g.from_start = true;
    static const int plies[] = {10, 40, 20, 30};
    for (int i = 0; i < 4; i++) {
        g.plies = plies[i];
        g.move_hash = g.tag_hash = (uint64_t)i + 1;
        assert_true(xq_stats_add(s, &g));
    }
    char *j = json_of(s);
    assert_non_null(strstr(j, "\"histogram\":[[10,1],[20,1],[30,1],[40,1]]"));
    assert_non_null(strstr(j, "\"plies_mean\":25.00,\"plies_median\":25.0"));
    free(j);
    g.plies = 35;
    g.move_hash = g.tag_hash = 9;
    assert_true(xq_stats_add(s, &g));
    j = json_of(s);
    assert_non_null(strstr(j, "\"plies_median\":30.0"));
    /* duplicates: the same hashes twice count once */
    assert_true(xq_stats_add(s, &g));
    free(j);
    j = json_of(s);
    assert_non_null(strstr(j, "\"distinct_moves\":5"));
    free(j);
    xq_stats_free(s);
}

/* ---- input files that failed ------------------------------------------ */

static char *csv_of(const xq_stats *s)
{
    mem_out *m = mem_open();
    xq_stats_write_csv(m->f, s, NULL);
    return mem_close(m);
}

/* Whether the last row of the CSV's counts table is `row` (and the one
 * before it the forfeits, as before the count of failed files came). */
static bool csv_last_count_is(const char *csv, const char *row)
{
    const char *p = strstr(csv, "\ncounts,forfeits_black,");
    if (!p) return false;
    p = strchr(p + 1, '\n') + 1;
    size_t n = strlen(row);
    return !strncmp(p, row, n) && !strncmp(p + n, "\ntable,", 7);
}

/* text with the line starting at `at` (and its newline) taken out, malloc'd */
static char *without_line(const char *text, const char *at)
{
    const char *end = strchr(at, '\n');
    assert_non_null(end);
    size_t head = (size_t)(at - text), tail = strlen(end + 1);
    char *out = malloc(head + tail + 1);
    assert_non_null(out);
    memcpy(out, text, head);
    memcpy(out + head, end + 1, tail + 1);
    return out;
}

/* The count of failed input files: 0 by default and then absent from the
 * text, shown as one more row of Counts once not 0 (nothing else of the
 * report changes), the last counts row of the CSV, carried by the JSON,
 * summed by merging. */
static void test_files_failed_reports(void **state)
{
    (void)state;
    game_list l;
    load_games("tests/data/stats-roundrobin.pgn", &l);
    xq_stats *s = accumulate(&l, 0, l.n, NULL);
    assert_int_equal(xq_stats_files_failed(s), 0);
    char *complete = text_of(s, XQ_SYSTEM_AUTO);
    assert_null(strstr(complete, "failed"));
    char *csv = csv_of(s);
    assert_true(csv_last_count_is(csv, "counts,files_failed,0"));
    free(csv);
    char *j = json_of(s);
    assert_non_null(strstr(j, "\"records\":17,\"files_failed\":0,\"games\":"));
    free(j);

    xq_stats_add_failed_file(s);
    xq_stats_add_failed_file(s);
    assert_int_equal(xq_stats_files_failed(s), 2);
    assert_int_equal(xq_stats_records(s), 17);   /* the games stay counted */
    char *text = text_of(s, XQ_SYSTEM_AUTO);
    const char *row = strstr(text, "  input files failed (incomplete)  ");
    assert_non_null(row);
    assert_ptr_equal(row, strstr(text, "\n") + strlen("  records                             17\n") + 1);
    assert_memory_equal(row, "  input files failed (incomplete)      2\n", 40);
    char *rest = without_line(text, row);
    assert_string_equal(rest, complete);
    free(rest);
    free(text);
    csv = csv_of(s);
    assert_true(csv_last_count_is(csv, "counts,files_failed,2"));
    free(csv);

    /* JSON round trip, then merges: the counts add up */
    j = json_of(s);
    assert_non_null(strstr(j, "\"records\":17,\"files_failed\":2,"));
    char err[160];
    bool inc;
    xq_stats *r = xq_stats_read_json(j, strlen(j), &inc, err, sizeof err);
    assert_non_null(r);
    assert_int_equal(xq_stats_files_failed(r), 2);
    char *j2 = json_of(r);
    assert_string_equal(j, j2);
    free(j2);
    assert_true(xq_stats_merge(r, s, err, sizeof err));
    assert_int_equal(xq_stats_files_failed(r), 4);
    xq_stats *empty = xq_stats_new(NULL);
    xq_stats_add_failed_file(empty);   /* a run whose only file failed at once */
    assert_true(xq_stats_merge(r, empty, err, sizeof err));
    assert_int_equal(xq_stats_files_failed(r), 5);
    assert_int_equal(xq_stats_records(r), 34);
    assert_true(xq_stats_merge(empty, r, err, sizeof err));
    assert_int_equal(xq_stats_files_failed(empty), 6);
    xq_stats *none = xq_stats_new(NULL);
    assert_true(xq_stats_merge(r, none, err, sizeof err));   /* complete parts add nothing */
    assert_int_equal(xq_stats_files_failed(r), 5);
    xq_stats_free(none);
    xq_stats_free(empty);
    xq_stats_free(r);
    free(j);
    free(complete);
    xq_stats_free(s);
    free_games(&l);
}

/* JSON written before files_failed existed reads as 0 (and then writes
 * the field); an ill-typed or negative count is refused. */
static void test_files_failed_json(void **state)
{
    (void)state;
    game_list l;
    load_games("tests/data/stats-swiss.pgn", &l);
    xq_stats *s = accumulate(&l, 0, l.n, NULL);
    char *j = json_of(s);
    char *p = strstr(j, "\"files_failed\":0,");
    assert_non_null(p);
    char *old = strdup(j);
    memmove(old + (p - j), old + (p - j) + strlen("\"files_failed\":0,"), strlen(p) - strlen("\"files_failed\":0,") + 1);
    assert_null(strstr(old, "files_failed"));
    char err[160];
    bool inc;
    xq_stats *r = xq_stats_read_json(old, strlen(old), &inc, err, sizeof err);
    assert_non_null(r);
    assert_int_equal(xq_stats_files_failed(r), 0);
    char *j2 = json_of(r);
    assert_string_equal(j2, j);
    free(j2);
    xq_stats_free(r);

    static const char *const bad_values[] = {"-1", "\"1\"", "1.5", "null", "18446744073709551616"};
    for (size_t i = 0; i < sizeof bad_values / sizeof *bad_values; i++) {
        char *b = malloc(strlen(j) + 32);
        assert_non_null(b);
        size_t head = (size_t)(p - j) + strlen("\"files_failed\":");
        memcpy(b, j, head);
        strcpy(b + head, bad_values[i]);
        strcat(b, p + strlen("\"files_failed\":0"));
        err[0] = '\0';
        assert_null(xq_stats_read_json(b, strlen(b), &inc, err, sizeof err));
        assert_false(inc);
        assert_non_null(strstr(err, "files_failed"));
        free(b);
    }
    /* the largest count reads, and a merge past it fails, the count
     * saturated, never wrapped to 0 (which would call the merged
     * statistics complete) */
    char *big = malloc(strlen(j) + 32);
    assert_non_null(big);
    size_t head = (size_t)(p - j) + strlen("\"files_failed\":");
    memcpy(big, j, head);
    strcpy(big + head, "18446744073709551615");
    strcat(big, p + strlen("\"files_failed\":0"));
    xq_stats *most = xq_stats_read_json(big, strlen(big), &inc, err, sizeof err);
    assert_non_null(most);
    assert_true(xq_stats_files_failed(most) == UINT64_MAX);
    xq_stats *one = xq_stats_new(NULL);
    xq_stats_add_failed_file(one);
    assert_false(xq_stats_merge(one, most, err, sizeof err));
    assert_string_equal(err, "a count passes 18446744073709551615 (64 bits): the sum would be wrong");
    assert_true(xq_stats_files_failed(one) == UINT64_MAX);
    assert_false(xq_stats_merge(most, one, err, sizeof err));
    assert_true(xq_stats_files_failed(most) == UINT64_MAX);
    xq_stats_free(one);
    xq_stats_free(most);
    free(big);
    free(old);
    free(j);
    xq_stats_free(s);
    free_games(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ecco_codes),
        cmocka_unit_test(test_ecco_key_mirror),
        cmocka_unit_test(test_ecco_classify_table),
        cmocka_unit_test(test_ecco_learner),
        cmocka_unit_test(test_standings_round_robin),
        cmocka_unit_test(test_standings_swiss),
        cmocka_unit_test(test_standings_copies),
        cmocka_unit_test(test_standings_forfeit_copies),
        cmocka_unit_test(test_event_facts),
        cmocka_unit_test(test_counts_roundrobin_file),
        cmocka_unit_test(test_merge_split_small),
        cmocka_unit_test(test_merge_split_corpus),
        cmocka_unit_test(test_merge_refuses_other_options),
        cmocka_unit_test(test_json_errors),
        cmocka_unit_test(test_json_system),
        cmocka_unit_test(test_median),
        cmocka_unit_test(test_files_failed_reports),
        cmocka_unit_test(test_files_failed_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
