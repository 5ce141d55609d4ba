/* test_replay_tags.c - what the replay (replay.c) takes from where it was
 * left, not from a search or a cleared result:
 *
 * - the Result and Format tags the PGN reader noted (xq_game.result_tag,
 *   format_tag, tags_noted): the noted ones are the first of their
 *   names (any ASCII case, any path of the reader: fast tag lines, the
 *   general way, several tags on a line, escapes, none at all), and a
 *   replay from them is the same as one that looks the tags up
 *   (tags_noted cleared: what every other reader gives), also when a
 *   tag was appended after the reader; the XML reader notes none;
 * - the repetition verdict, which is not cleared for every game
 *   (replay.h: read only when repeated): a replay into a result full of
 *   an earlier game's bytes (a pattern, or a repeated game's verdict)
 *   gives every field a reader reads as a replay into a zeroed one, with
 *   and without the memo of main lines (lines taken from it too). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Every field of a and b a reader reads the same: texts up to their NUL,
 * findings up to nfindings, the verdict only when repeated. */
static void same_read_fields(const xq_replay *a, const xq_replay *b)
{
    xqt_same_outcome(a, b, false);
    assert_memory_equal(&a->start, &b->start, sizeof a->start);
    assert_memory_equal(&a->final, &b->final, sizeof a->final);
    assert_int_equal(a->repeated, b->repeated);
    if (a->repeated) assert_memory_equal(&a->repetition, &b->repetition, sizeof a->repetition);
    assert_int_equal(a->out_of_memory, b->out_of_memory);
}

/* ---- the noted tags ------------------------------------------------------ */

/* Records whose Result and Format tags stand anywhere, in any case, on
 * any of the reader's paths; the last two have moves that their Format
 * tag refuses (read without it, they would be played). */
static const char RECORDS[] =
    "[Event \"a\"]\n[Result \"1-0\"]\n[Format \"ICCS\"]\n\n1. h2e2 h9g7 1-0\n\n"
    "[Format \"ICCS\"]\n[Event \"b\"]\n[Result \"0-1\"]\n\n1. h2e2 h9g7 1-0\n\n"
    "[result \"0-1\"]\n[FORMAT \"iccs\"]\n\n1. h2e2 h9g7 *\n\n"
    "[Event \"d\"]\n\n1. 炮二平五 馬８進７ *\n\n"
    "[Event \"e\"][Result \"1/2-1/2\"][Format \"ICCS\"]\n\n1. h2e2 h9g7 1/2-1/2\n\n"
    "[Result  \"1-0\"]\n[Format\t\"ICCS\"]\n\n1. h2e2 h9g7 0-1\n\n"
    "[Result \"1-\\\"0\"]\n[Format \"I\\CCS\"]\n\n1. h2e2 h9g7 *\n\n"
    "[Red \"x\"]\n[Black \"y\"]\n[Date \"2000\"]\n[Site \"z\"]\n[Round \"1\"]\n[RedTeam \"t\"]\n"
    "[BlackTeam \"u\"]\n[ECCO \"C55\"]\n[Opening \"o\"]\n[Result \"红胜\"]\n\n1. 炮二平五 馬８進７ 1-0\n\n"
    "[Results \"0-1\"]\n[Forma \"ICCS\"]\n[Result \"0-1\"]\n\n1. 炮二平五 1-0\n\n"
    "[Format \"WXF\"]\n[Result \"nonsense\"]\n\n1. C2=5 H8+7 *\n\n"
    "[Result \"\"]\n[Format \"\"]\n\n1. 炮二平五 *\n\n"
    "1. 炮二平五 馬８進７ 1-0\n\n"
    "[Event \"f\"]\n[Format \"ICCS\"]\n\n1. 炮二平五 *\n\n"
    "[Event \"g\"]\n[format \"chinese\"]\n\n1. h2e2 *\n\n";

/* Replay g from its noted tags and, the note cleared, from a search:
 * the same. */
static void replay_both_ways(xq_game *g)
{
    static xq_replay a, b;
    xq_replay_options opt;
    xq_replay_options_default(&opt);
    size_t noted = g->tags_noted;
    xq_replay_game(g, &opt, &a);
    g->tags_noted = 0;
    xq_replay_game(g, &opt, &b);
    g->tags_noted = noted;
    same_read_fields(&a, &b);
}

static void test_noted_tags(void **state)
{
    (void)state;
    enum { MAX = 64 };
    static xq_game g[MAX];
    xq_format fmt;
    int n = read_tmp_bytes(RECORDS, sizeof RECORDS - 1, g, MAX, &fmt);
    assert_int_equal(n, 14);
    /* where each record's tags are (0: none), as the records above put them */
    static const uint32_t result_at[] = {2, 3, 1, 0, 2, 1, 1, 10, 3, 2, 1, 0, 0, 0};
    static const uint32_t format_at[] = {3, 1, 2, 0, 3, 2, 2, 0, 0, 1, 2, 0, 2, 2};
    for (int i = 0; i < n; i++) {
        assert_int_equal(g[i].tags_noted, g[i].tag_count);
        assert_int_equal(g[i].result_tag, result_at[i]);
        assert_int_equal(g[i].format_tag, format_at[i]);
        xqt_same_tag_index(&g[i]);
        replay_both_ways(&g[i]);
    }
    /* the last two: their Format tag taken (an undecodable first move),
     * from the note and from the search */
    static xq_replay r;
    xq_replay_options opt;
    xq_replay_options_default(&opt);
    for (int i = n - 2; i < n; i++)
        for (int noted = 0; noted < 2; noted++) {
            g[i].tags_noted = noted ? g[i].tag_count : 0;
            xq_replay_game(&g[i], &opt, &r);
            assert_int_equal(r.status, XQ_STATUS_ILLEGAL);
            assert_int_equal(r.bad_ply, 1);
        }
    /* a Result tag appended after the reader: taken where the record had
     * none (d), not where it had one (a, the first stays), and a Format
     * tag appended to d makes its Chinese moves undecodable */
    assert_true(xq_game_add_tag(&g[3], "result", 6, "0-1", 3));
    assert_true(xq_game_add_tag(&g[0], "Result", 6, "0-1", 3));
    xq_replay_game(&g[3], &opt, &r);
    assert_int_equal(r.result_tag, XQ_RESULT_BLACK);
    replay_both_ways(&g[3]);
    xq_replay_game(&g[0], &opt, &r);
    assert_int_equal(r.result_tag, XQ_RESULT_RED);
    replay_both_ways(&g[0]);
    assert_true(xq_game_add_tag(&g[3], "Format", 6, "ICCS", 4));
    xq_replay_game(&g[3], &opt, &r);
    assert_int_equal(r.status, XQ_STATUS_ILLEGAL);
    free_all(g, n);
}

/* The files of tests/data: every PGN game's noted tags are the first of
 * their names and replay as a search would; the XML reader notes none. */
static void test_noted_tags_files(void **state)
{
    (void)state;
    static const char *const paths[] = {
        "tests/data/repetition-cases.pgn", "tests/data/repetition-later.pgn", "tests/data/big5.pgn",
        "tests/data/gbk.pgn", "tests/data/convert-sample.pgn", "tests/data/stats-swiss.pgn",
        "tests/data/stats-roundrobin.pgn", "tests/data/stats-event-facts.pgn",
    };
    enum { MAX = 4096 };
    static xq_game g[MAX];
    int games = 0;
    for (size_t p = 0; p < COUNT(paths); p++) {
        xq_format fmt;
        int n = read_path(paths[p], g, MAX, &fmt);
        for (int i = 0; i < n; i++) {
            xqt_same_tag_index(&g[i]);
            replay_both_ways(&g[i]);
        }
        games += n;
        free_all(g, n);
    }
    assert_true(games > 20);
    xq_format fmt;
    int n = read_path("tests/data/convert-sample.out.xml", g, MAX, &fmt);
    assert_true(n > 0);
    for (int i = 0; i < n; i++) assert_int_equal(g[i].tags_noted, 0);
    free_all(g, n);
}

/* ---- the verdict, not cleared ------------------------------------------- */

/* Games that repeat a position (the horses out and back: the start
 * position a third time after ply 8), go on after it, or do not repeat,
 * in ICCS and in Chinese. */
static const char REPEATING[] =
    "[Format \"ICCS\"]\n\n1. h0g2 h9g7 2. g2h0 g7h9 3. h0g2 h9g7 4. g2h0 g7h9 1/2-1/2\n\n"
    "[Format \"ICCS\"]\n\n1. h0g2 h9g7 2. g2h0 g7h9 3. h0g2 h9g7 4. g2h0 g7h9 5. h2e2 *\n\n"
    "[Format \"ICCS\"]\n\n1. h0g2 h9g7 2. g2h0 g7h9 3. h0g2 h9g7 4. g2h0 i9h9 *\n\n"
    "[Result \"1-0\"]\n\n1. 馬二進三 馬８進７ 2. 馬三退二 馬７退８ 3. 馬二進三 馬８進７ 4. 馬三退二 馬７退８ 1-0\n\n"
    "\n1. 炮二平五 馬８進７ 2. 馬二進三 馬２進３ 3. 馬三退二 馬３退２ 4. 馬二進三 馬２進３ 5. 馬三退二 馬３退２ *\n\n"
    "\n1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ *\n\n";

/* Each game of the files replayed into a result full of a pattern's
 * bytes, and into one holding the last repeated game's result: every
 * field read as from a zeroed result, without a memo, with one (the
 * lines kept), and again (the lines taken from the memo). */
static void test_verdict_not_cleared(void **state)
{
    (void)state;
    static const char *const paths[] = {"tests/data/repetition-cases.pgn", "tests/data/repetition-later.pgn",
                                        "tests/data/repetition-cut-search.pgn", "tests/data/big5.pgn",
                                        "tests/data/convert-sample.pgn"};
    enum { MAX = 4096 };
    static xq_game g[MAX];
    static xq_replay want, got, last_repeated;
    xq_replay_options opt;
    xq_replay_options_default(&opt);
    opt.no_warning_text = true;   /* (xq-validate's: lines with warnings are kept) */
    int repeated = 0, games = 0;
    bool have_repeated = false;
    for (size_t p = 0; p <= COUNT(paths); p++) {
        xq_format fmt;
        int n = p < COUNT(paths) ? read_path(paths[p], g, MAX, &fmt)
                                 : read_tmp_bytes(REPEATING, sizeof REPEATING - 1, g, MAX, &fmt);
        xq_replay_memo memo = {0};
        for (int pass = 0; pass < 3; pass++) {
            for (int i = 0; i < n; i++) {
                memset(&want, 0, sizeof want);
                xq_replay_game(&g[i], &opt, &want);
                for (int dirty = 0; dirty < 2; dirty++) {
                    if (dirty == 0) memset(&got, 0xA5, sizeof got);
                    else if (have_repeated) got = last_repeated;
                    else continue;
                    if (pass == 0) xq_replay_game(&g[i], &opt, &got);
                    else xq_replay_game_memo(&g[i], &opt, &memo, &got);
                    same_read_fields(&want, &got);
                }
                if (want.repeated) {
                    last_repeated = want;
                    have_repeated = true;
                    repeated += pass == 0;
                }
                games += pass == 0;
            }
        }
        xq_replay_memo_free(&memo);
        free_all(g, n);
    }
    assert_int_equal(games, 18);
    assert_int_equal(repeated, 10);
}

int main(int argc, char **argv)
{
    (void)argc;
    xqt_chdir_to_root(argv[0], "tests/data/repetition-cases.pgn");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_noted_tags),
        cmocka_unit_test(test_noted_tags_files),
        cmocka_unit_test(test_verdict_not_cleared),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
