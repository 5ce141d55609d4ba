/* test_start_fen.c - the usual FEN tag known by its address: the PGN
 * reader gives the standard start position's FEN tag value as
 * XQ_START_FEN itself (pgn_read.c tag_line_value), and the replay takes
 * a FEN at that address for the start without comparing it
 * (replay.c fen_names_start).  Records whose FEN tag spells the start in
 * other ways (read by the reader's general way, a copy of the same text,
 * another text of the same position, none, empty) must replay exactly as
 * the usual one: the same status, plies, ending, findings. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "replay.h"
#include "test_util.h"

#define START "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
#define MOVES "\n1. 炮二平五 馬８進７\n2. 馬二進三 車９平８\n3. 車一平二 卒７進１ 1-0\n"

/* The last of n copies of record rec, read and replayed into *l (the
 * reader's window walker takes the records after the first). */
static void load_last(xqt_loaded *l, const char *rec, int n)
{
    out_file f = {0};
    for (int i = 0; i < n; i++) put_raw(&f, rec, strlen(rec));
    char path[64], err[512];
    save_tmp(f.p, f.len, path);
    free(f.p);
    xq_reader *rd = xq_reader_open(path, NULL, err, sizeof err);
    assert_non_null(rd);
    xq_game_init(&l->g);
    for (int i = 0; i < n; i++) assert_int_equal(xq_reader_next(rd, &l->g), 1);
    xq_replay_options o;
    xq_replay_options_default(&o);
    xq_replay_game(&l->g, &o, &l->r);
    xq_reader_close(rd);
    unlink(path);
}

static void test_reader_gives_the_address(void **state)
{
    (void)state;
    assert_string_equal(XQ_START_FEN, START);
    xqt_loaded l;
    load_last(&l, "[Event \"e\"]\n[Result \"1-0\"]\n[FEN \"" START "\"]\n" MOVES "\n", 3);
    assert_ptr_equal(l.g.fen, XQ_START_FEN);
    xq_game_free(&l.g);
    /* CRLF line ends: the same */
    load_last(&l, "[Event \"e\"]\r\n[FEN \"" START "\"]\r\n\r\n1. 炮二平五 馬８進７ *\r\n\r\n", 3);
    assert_ptr_equal(l.g.fen, XQ_START_FEN);
    xq_game_free(&l.g);
}

static void check_same(const xq_replay *a, const xq_replay *b, const char *what)
{
    if (a->status != b->status || a->plies != b->plies || a->termination != b->termination ||
        a->result_board != b->result_board || a->result_tag != b->result_tag || a->nfindings != b->nfindings ||
        a->error_count != b->error_count || a->warning_count != b->warning_count ||
        memcmp(&a->start, &b->start, sizeof a->start) || memcmp(&a->final, &b->final, sizeof a->final))
        fail_msg("%s: status %d/%d plies %d/%d findings %d/%d", what, a->status, b->status, a->plies, b->plies,
                 a->nfindings, b->nfindings);
    for (int i = 0; i < a->nfindings; i++)
        if (a->findings[i].kind != b->findings[i].kind || a->findings[i].ply != b->findings[i].ply ||
            strcmp(a->findings[i].message, b->findings[i].message))
            fail_msg("%s: finding %d: %s / %s", what, i, a->findings[i].message, b->findings[i].message);
}

static void test_other_spellings_replay_alike(void **state)
{
    (void)state;
    static const char usual[] = "[Result \"1-0\"]\n[FEN \"" START "\"]\n" MOVES "\n";
    static const char *const others[] = {
        /* the start's text, read by the general way (a blank before the
         * quote, an escaped character in another tag before it) */
        "[Result \"1-0\"]\n[FEN  \"" START "\"]\n" MOVES,
        "[Result \"1-0\"]\n[Remark \"a \\\"b\\\"\"]\n[FEN \"" START "\" ]\n" MOVES,
        /* no FEN, an empty one */
        "[Result \"1-0\"]\n" MOVES,
        "[Result \"1-0\"]\n[FEN \"\"]\n" MOVES,
        /* the same position in other words: parsed */
        "[Result \"1-0\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1\"]\n" MOVES,
        "[Result \"1-0\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w\"]\n" MOVES,
    };
    xqt_loaded a;
    load_last(&a, usual, 3);
    assert_ptr_equal(a.g.fen, XQ_START_FEN);
    assert_int_equal(a.r.plies, 6);
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        xqt_loaded b;
        char rec[512];
        snprintf(rec, sizeof rec, "%s\n", others[i]);
        load_last(&b, rec, 3);
        if (b.g.fen && *b.g.fen) assert_ptr_not_equal(b.g.fen, XQ_START_FEN);   /* (another way in) */
        check_same(&a.r, &b.r, others[i]);
        /* and with a memo, twice (the second from the memo of lines) */
        xq_replay_options opt;
        xq_replay_options_default(&opt);
        xq_replay_memo memo = {0};
        static xq_replay out;
        for (int k = 0; k < 2; k++) {
            xq_replay_game_memo(&b.g, &opt, &memo, &out);
            check_same(&a.r, &out, others[i]);
        }
        xq_replay_memo_free(&memo);
        xq_game_free(&b.g);
    }
    xq_game_free(&a.g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reader_gives_the_address),
        cmocka_unit_test(test_other_spellings_replay_alike),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
