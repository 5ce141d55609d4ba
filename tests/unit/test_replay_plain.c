/* test_replay_plain.c - the replay's reading of a full-form move on a
 * file that holds several pieces of its kind from the node's desc
 * (xq_move_read_plain_file, taken when no warning text is wanted) against the full reader
 * (xq_move_read, which the replay takes when the text is wanted).
 *
 * At every position of many random walks (and of the odd FENs), for the
 * side to move, every file holding two or more pieces of a kind and every
 * full-form text that names it (three actions, numerals 1..9, the
 * numerals written three ways), a one-move record is replayed twice: with
 * no_warning_text (the replay's path) and without (the reader's path).
 * Both must give the same outcome: the move, the findings (kind,
 * severity, ply), status, final position; and both must agree with
 * xq_move_read called directly (XQ_NOTE_OK / XQ_NOTE_RESOLVED: the move,
 * and the plain-file warning exactly for RESOLVED). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "notation.h"
#include "position.h"
#include "replay.h"
#include "test_util.h"

/* Piece characters by kind (1..7) and side, as records write them. */
static const char *const piece_red[8] = {"", "帥", "仕", "相", "馬", "車", "炮", "兵"};
static const char *const piece_black[8] = {"", "將", "士", "象", "馬", "車", "砲", "卒"};
static const char *const cn_num[10] = {"", "一", "二", "三", "四", "五", "六", "七", "八", "九"};
static const char *const fw_num[10] = {"", "１", "２", "３", "４", "５", "６", "７", "８", "９"};
static const char *const action_cn[4] = {"", "進", "退", "平"};

/* A numeral 1..9 in one of three styles: 0 the side's own (Chinese for
 * Red, full-width for Black), 1 ASCII, 2 the other side's. */
static void put_num(char *buf, size_t size, xq_color side, int style, int v)
{
    size_t n = strlen(buf);
    if (style == 1) snprintf(buf + n, size - n, "%d", v);
    else snprintf(buf + n, size - n, "%s", (side == XQ_RED) == (style == 0) ? cn_num[v] : fw_num[v]);
}

typedef struct {
    int texts;        /* texts tried */
    int moves;        /* of them, read as a legal move */
    int resolved;     /* of them, with the plain-file warning */
    int in_check;     /* texts tried with the side to move in check */
    uint64_t rng;
} tally_plain;

/* Replay the one-move record (fen, text) under opt into *r; the move the
 * replay stored in *m.  desc_known: the node carries the text's desc as
 * the PGN reader gives it for GBK/Big5 input, else 0 (decoded here). */
static void replay_one(const char *fen, const char *text, bool desc_known, const char *format,
                       const xq_replay_options *opt, xq_replay *r, xq_move *m)
{
    xq_game g;
    xq_game_init(&g);
    if (format) assert_true(xq_game_add_tag_ref(&g, "Format", format));
    xq_node node;
    memset(&node, 0, sizeof node);
    node.text = text;
    node.text_len = (uint16_t)strlen(text);
    node.desc = desc_known ? xq_move_desc(text, strlen(text)) : 0;
    node.line = 3;
    node.col = 4;
    g.fen = fen;
    g.main.nodes = &node;
    g.main.count = 1;
    xq_replay_game(&g, opt, r);
    *m = node.move;
    xq_game_free(&g);
}

/* The two replays of one text against each other and against the reader. */
static void check_text(tally_plain *t, const xq_position *pos, const char *fen, const char *text)
{
    xq_replay_options quiet, loud;
    xq_replay_options_default(&quiet);
    quiet.no_warning_text = true;
    xq_replay_options_default(&loud);
    bool desc_known = xqt_rnd(&t->rng, 2) != 0;
    /* the notations of the Chinese family, as Format tags name them */
    static const char *const formats[] = {NULL, "Chinese", "abbr", "3digit"};
    const char *format = formats[xqt_rnd(&t->rng, 4)];
    static xq_replay a, b;
    xq_move ma, mb;
    replay_one(fen, text, desc_known, format, &quiet, &a, &ma);
    replay_one(fen, text, desc_known, format, &loud, &b, &mb);

    bool chk = xq_in_check(pos, pos->side);
    xq_note_result nr;
    xq_move_read(pos, text, strlen(text), xq_notation_from_format_tag(format), chk ? 0 : XQ_READ_NOT_IN_CHECK, &nr,
                 NULL, 0);
    bool ok = nr.status == XQ_NOTE_OK || nr.status == XQ_NOTE_RESOLVED;

    t->texts++;
    t->in_check += chk;
    if (ok) {
        t->moves++;
        t->resolved += nr.status == XQ_NOTE_RESOLVED;
    }
    if (a.plies != b.plies || ma != mb || a.status != b.status || a.nfindings != b.nfindings ||
        a.error_count != b.error_count || a.warning_count != b.warning_count ||
        (ok && (a.plies != 1 || ma != nr.move)) || (!ok && a.plies != 0))
        fail_msg("%s %s: quiet plies %d move %u status %d findings %d; loud plies %d move %u status %d findings %d;"
                 " reader status %d move %u",
                 fen, text, a.plies, ma, a.status, a.nfindings, b.plies, mb, b.status, b.nfindings, nr.status,
                 nr.move);
    for (int i = 0; i < a.nfindings; i++) {
        assert_int_equal(a.findings[i].kind, b.findings[i].kind);
        assert_int_equal(a.findings[i].severity, b.findings[i].severity);
        assert_int_equal(a.findings[i].ply, b.findings[i].ply);
        assert_int_equal(a.findings[i].line, b.findings[i].line);
        assert_int_equal(a.findings[i].col, b.findings[i].col);
        if (a.findings[i].severity == XQ_SEV_ERROR) assert_string_equal(a.findings[i].message, b.findings[i].message);
    }
    bool warned = false;
    for (int i = 0; i < a.nfindings; i++) warned |= a.findings[i].kind == XQ_FIND_TANDEM_PLAIN_FILE;
    if (ok) assert_int_equal(warned, nr.status == XQ_NOTE_RESOLVED);
    assert_true(a.final.key == b.final.key);
    assert_null(xqt_position_diff(&a.final, &b.final));
    assert_string_equal(a.reason, b.reason);
}

/* Every full-form text naming a piece of kind k on board file x of the
 * side to move (which holds two or more of them). */
static void texts_for_file(tally_plain *t, const xq_position *pos, const char *fen, xq_kind k, int x)
{
    xq_color side = pos->side;
    int num = side == XQ_RED ? 9 - x : x + 1;
    for (int action = 1; action <= 3; action++) {
        for (int arg = 1; arg <= 9; arg++) {
            char text[64];
            int style = (int)xqt_rnd(&t->rng, 3);
            snprintf(text, sizeof text, "%s", side == XQ_RED ? piece_red[k] : piece_black[k]);
            put_num(text, sizeof text, side, style, num);
            snprintf(text + strlen(text), sizeof text - strlen(text), "%s", action_cn[action]);
            put_num(text, sizeof text, side, style, arg);
            check_text(t, pos, fen, text);
        }
    }
}

/* A walk's visit: every file of the side to move with several pieces of
 * a kind. */
static void visit(xqt_walk *w)
{
    tally_plain *t = w->ctx;
    const xq_position *pos = &w->pos;
    /* a start where a general can be taken is not replayed (replay.c
     * start_position): nothing to compare */
    if (xq_in_check(pos, (xq_color)(pos->side ^ 1))) return;
    char fen[XQ_FEN_MAX];
    bool fen_done = false;
    for (int k = XQ_GENERAL; k <= XQ_SOLDIER; k++) {
        xq_piece p = XQ_PIECE(k, pos->side);
        for (int x = 0; x < XQ_FILES; x++) {
            int n = 0;
            for (int r = 0; r < XQ_RANKS; r++) n += pos->board[XQ_SQ(x, r)] == p;
            if (n < 2) continue;
            if (!fen_done) {
                xq_fen_write(pos, fen, sizeof fen);
                fen_done = true;
            }
            texts_for_file(t, pos, fen, (xq_kind)k, x);
        }
    }
}

static void test_plain_file_walks(void **state)
{
    (void)state;
    tally_plain t = {0};
    t.rng = 0x9e3779b97f4a7c15ull;
    xqt_walk w = {0};
    w.rng = &t.rng;
    w.visit = visit;
    w.ctx = &t;
    w.visit_end = true;
    XQT_WALK_SERIES(&w, {XQT_UNIFORM, 60, 120}, {XQT_CAPTURES, 60, 160}, {XQT_LINES, 60, 160});
    size_t nfens;
    const char *const *fens = xqt_odd_fens(&nfens);
    xqt_walk_fens(&w, fens, nfens, 40);
    /* the replay's path was taken often, in each of its outcomes */
    assert_true(t.texts > 20000);
    assert_true(t.moves > 2000);
    assert_true(t.resolved > 500);
    assert_true(t.moves - t.resolved > 200);
    assert_true(t.in_check > 200);
}

/* Records as written: a plain file where 前/後 was due, in check and not,
 * the way real records give them. */
static void test_plain_file_examples(void **state)
{
    (void)state;
    static const struct { const char *fen, *text; } cases[] = {
        /* two red chariots on file 8 (h): only the one on h4 can go 平六 legally? both can: ambiguous */
        {"3k5/9/9/9/9/9/7R1/9/7R1/4K4 w - - 0 1", "車二平六"},
        /* two red chariots on file h, the rear one pinned by nothing: front goes forward */
        {"3k5/9/9/9/9/9/7R1/9/7R1/4K4 w - - 0 1", "車二進五"},
        /* two red horses on one file */
        {"3k5/9/9/9/9/9/6N2/9/6N2/4K4 w - - 0 1", "馬三進五"},
        /* two black advisors on file 6 (d), the action tells them apart */
        {"4k4/3a5/3a5/9/9/9/9/9/9/4K4 b - - 0 1", "士６進５"},
        {"3aka3/9/9/9/9/9/9/9/9/3K5 b - - 0 1", "士4進5"},
    };
    tally_plain t = {0};
    t.rng = 7;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        xq_position pos;
        char err[128];
        if (!xq_fen_read(&pos, cases[i].fen, err, sizeof err)) fail_msg("%s: %s", cases[i].fen, err);
        check_text(&t, &pos, cases[i].fen, cases[i].text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_file_examples),
        cmocka_unit_test(test_plain_file_walks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
