/* test_ecco.c - the ECCO classifier on short and off-book games: a game
 * gets the code its moves determine (ECCO's family for a first move, the
 * family a prefix determines when the games through it part ways later),
 * not the most common deep line through its prefix (the new-user tester's
 * cases of session 14, checked against the decision tree of vschess,
 * formats.md §3). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "ecco.h"
#include "test_util.h"


/* The built-in table's code for the moves in text, as "C00". */
static const char *builtin_code(const char *text, char buf[4])
{
    xq_move m[XQ_ECCO_MAX_PLIES];
    int n = xqt_iccs_moves(text, m, XQ_ECCO_MAX_PLIES);
    return xq_ecco_format(xq_ecco_classify(NULL, m, n), buf);
}

static void test_first_moves(void **state)
{
    (void)state;
    char b[4];
    assert_string_equal(builtin_code("c3c4", b), "E00");   /* 兵七進一: 仙人指路局, was E37 */
    assert_string_equal(builtin_code("g3g4", b), "E00");   /* 兵三進一 */
    assert_string_equal(builtin_code("g0e2", b), "A10");   /* 相三進五: 飞相局, was A28 */
    assert_string_equal(builtin_code("c0e2", b), "A10");   /* 相七進五 */
    assert_string_equal(builtin_code("i3i4", b), "A08");   /* 兵一進一: 边兵局, was A45 */
    assert_string_equal(builtin_code("a3a4", b), "A08");   /* 兵九進一 */
    assert_string_equal(builtin_code("e0e1", b), "A00");   /* 帥五進一: 其他开局, was A45 */
    assert_string_equal(builtin_code("e3e4", b), "A00");   /* 兵五進一 */
    assert_string_equal(builtin_code("", b), "A00");       /* no move */
    assert_string_equal(builtin_code("h2e2", b), "B00");   /* 炮二平五: 中炮局 */
    assert_string_equal(builtin_code("b2e2", b), "B00");   /* 炮八平五 */
    assert_string_equal(builtin_code("h0g2", b), "A40");   /* 馬二進三: 起马局 */
    assert_string_equal(builtin_code("f0e1", b), "A01");   /* 仕四進五: 上仕局 */
    assert_string_equal(builtin_code("h0i2", b), "A02");   /* 馬二進一: 边马局 */
    assert_string_equal(builtin_code("h2i2", b), "A03");   /* 炮二平一: 边炮局 */
    assert_string_equal(builtin_code("h2h4", b), "A04");   /* 炮二進二: 巡河炮局 */
    assert_string_equal(builtin_code("h2h6", b), "A05");   /* 炮二進四: 过河炮局 */
    assert_string_equal(builtin_code("h2g2", b), "A06");   /* 炮二平三: 兵底炮局 */
    assert_string_equal(builtin_code("b2g2", b), "A07");   /* 炮八平三 = 炮二平七: 金钩炮局 */
    assert_string_equal(builtin_code("h2f2", b), "A50");   /* 炮二平四: 仕角炮局 */
    assert_string_equal(builtin_code("h2d2", b), "A60");   /* 炮二平六: 过宫炮局 */
}

static void test_short_games(void **state)
{
    (void)state;
    char b[4];
    /* 炮二平五 炮８平５: 顺炮, was D14 (a deep 顺炮直车 line) */
    assert_string_equal(builtin_code("h2e2 h7e7", b), "D00");
    /* 炮二平五 炮２平５: 列炮 */
    assert_string_equal(builtin_code("h2e2 b7e7", b), "D50");
    /* 炮二平五 馬８進７ 馬二進三 車９平８, was C49: black has one horse out,
     * the reference tree says 中炮对进左马 (B05) */
    assert_string_equal(builtin_code("h2e2 h9g7 h0g2 i9h9", b), "B05");
    assert_string_equal(builtin_code("h2e2 h9g7", b), "B05");
    /* 仙人指路 对兵局 (mirrored: 兵七進一 卒７進１) */
    assert_string_equal(builtin_code("c3c4 g6g5", b), "E40");
}

static void test_off_book(void **state)
{
    (void)state;
    char b[4];
    /* a move no game made, at several depths: the code of the prefix
     * before it, the family, never a deep line */
    assert_string_equal(builtin_code("e0e1 e9e8", b), "A00");                        /* ply 1 */
    assert_string_equal(builtin_code("h2e2 e9e8", b), "B00");                        /* ply 2 */
    assert_string_equal(builtin_code("g3g4 e9e8", b), "E00");
    assert_string_equal(builtin_code("g0e2 e9e8", b), "A10");
    assert_string_equal(builtin_code("h2e2 h9g7 e0e1", b), "B05");                   /* ply 3, was C49 */
    assert_string_equal(builtin_code("h2e2 h7e7 h0g2 e9e8", b), "D00");              /* ply 4 */
    assert_string_equal(builtin_code("h2e2 h7e7 h0g2 h9g7 e0e1", b), "D00");         /* ply 5 */
    /* ply 10: 中炮过河车 (車二進六) against 屏风马, then 帥五進一 */
    assert_string_equal(builtin_code("h2e2 h9g7 h0g2 i9h9 i0h0 g6g5 h0h6 b9c7 g3g4 e0e1", b), "C17");
    /* ply 7: 屏风马 with red's right chariot out, then 帥五進一; the reference
     * tree says C00, the learned games through it are all C01 or later, so
     * the table can only say its family's letter */
    assert_string_equal(builtin_code("h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 e0e1", b), "C01");
}

/* A learned table: the smallest code through a prefix, first-move
 * families, A00 at the root. */
static void test_learner_rule(void **state)
{
    (void)state;
    xq_ecco_learner *l = xq_ecco_learner_new(6, 1);
    assert_non_null(l);
    xq_move m[8];
    /* three games through h2e2 h9g7: C49 twice, C01 once */
    int n = xqt_iccs_moves("h2e2 h9g7 h0g2 i9h9 i0h0 g6g5", m, 8);
    assert_true(xq_ecco_learner_add(l, m, n, xq_ecco_parse("C49")));
    assert_true(xq_ecco_learner_add(l, m, n, xq_ecco_parse("C49")));
    n = xqt_iccs_moves("h2e2 h9g7 h0g2 i9h9 b0c2", m, 8);
    assert_true(xq_ecco_learner_add(l, m, n, xq_ecco_parse("C01")));
    const xq_ecco_table *t = xq_ecco_learner_table(l);
    assert_non_null(t);
    char b[4];
    /* where the games part ways: the smallest (family) code; where they
     * agree: theirs */
    n = xqt_iccs_moves("h2e2 h9g7 h0g2 i9h9", m, 8);
    assert_string_equal(xq_ecco_format(xq_ecco_classify(t, m, n), b), "C01");
    n = xqt_iccs_moves("h2e2 h9g7 h0g2 i9h9 i0h0", m, 8);
    assert_string_equal(xq_ecco_format(xq_ecco_classify(t, m, n), b), "C49");
    /* a first move is its family whatever the games say */
    n = xqt_iccs_moves("h2e2", m, 8);
    assert_string_equal(xq_ecco_format(xq_ecco_classify(t, m, n), b), "B00");
    /* a family's first move no game made still has its entry; the rest A00 */
    n = xqt_iccs_moves("g3g4", m, 8);
    assert_string_equal(xq_ecco_format(xq_ecco_classify(t, m, n), b), "E00");
    n = xqt_iccs_moves("e3e4", m, 8);
    assert_string_equal(xq_ecco_format(xq_ecco_classify(t, m, n), b), "A00");
    /* entries are sorted and unique */
    for (size_t i = 1; i < t->count; i++) assert_true(strcmp(t->entries[i - 1].prefix, t->entries[i].prefix) < 0);
    xq_ecco_learner_free(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_moves),
        cmocka_unit_test(test_short_games),
        cmocka_unit_test(test_off_book),
        cmocka_unit_test(test_learner_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
