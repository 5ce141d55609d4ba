/* test_cbf.c - 象棋橋 CBF records (cbf_read.h) through the reader API: the
 * two corpus files (their moves against a plain decoding of the values in
 * the file's bytes, replayed legal; tags, comments and results where they
 * belong), hand-made records (an empty move list, results, comments, a
 * start FEN) and broken ones (bad values, squares off the board, no
 * <MoveList>, stray elements, moves after end="1", cut XML near the start
 * and far in: diagnostics at their lines, the moves before them kept). */
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

#include "pgn_read.h"
#include "replay.h"

#ifndef XQ_SHARED
#define XQ_SHARED "../shared"
#endif
#define TD XQ_SHARED "/corpus/cchess-testdata/"

#define HEAD "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ChineseChessRecord Version=\"1.0\">\n"

/* ---- helpers --------------------------------------------------------------- */

/* What reading one document gave: the games (up to 4), the status of
 * the call after the last game and its message. */
typedef struct {
    xq_game g[4];
    int n, last;
    char err[512];
} doc_read;

static void read_doc(const char *bytes, size_t len, doc_read *d)
{
    char path[64];
    save_tmp(bytes, len, path);
    xq_reader *r = xq_reader_open(path, NULL, d->err, sizeof d->err);
    assert_non_null(r);
    assert_int_equal(xq_reader_format(r), XQ_FMT_XML);
    d->n = 0;
    d->err[0] = 0;
    for (;;) {
        assert_true(d->n < 4);
        xq_game_init(&d->g[d->n]);
        d->last = xq_reader_next(r, &d->g[d->n]);
        if (d->last != 1) break;
        d->n++;
    }
    xq_game_free(&d->g[d->n]);
    if (d->last < 0) snprintf(d->err, sizeof d->err, "%s", xq_reader_error(r));
    xq_reader_close(r);
    unlink(path);
}

static void read_text(const char *text, doc_read *d)
{
    read_doc(text, strlen(text), d);
}

static void doc_free(doc_read *d)
{
    free_all(d->g, d->n);
}

/* g has a diagnostic of severity sev at line whose message holds part. */
static bool has_diag(const xq_game *g, xq_severity sev, uint32_t line, const char *part)
{
    for (size_t i = 0; i < g->diag_count; i++)
        if (g->diags[i].severity == sev && g->diags[i].line == line && strstr(g->diags[i].msg, part)) return true;
    for (size_t i = 0; i < g->diag_count; i++)
        fprintf(stderr, "  have: %s %u:%u %s\n", g->diags[i].severity ? "warning" : "error", g->diags[i].line,
                g->diags[i].col, g->diags[i].msg);
    return false;
}


static void replay(xq_game *g, xq_replay *r)
{
    xq_replay_options o;
    xq_replay_options_default(&o);
    xq_replay_game(g, &o, r);
}

/* The plies of a CBF file decoded the plain way from its bytes: every
 * value="XY-XY" after the first (the start's 00-00) as ICCS text (file
 * 'a' + X, rank 9 - Y), with the line of its element. */
typedef struct {
    char text[5];
    uint32_t line;
} plain_ply;

static int plain_plies(const char *bytes, plain_ply *out, int max)
{
    int n = -1;   /* the first value is the start's */
    uint32_t line = 1;
    for (const char *p = bytes; *p; p++) {
        if (*p == '\n') line++;
        if (strncmp(p, "value=\"", 7)) continue;
        const char *v = p + 7;
        if (n >= 0) {
            assert_true(n < max);
            out[n].text[0] = (char)('a' + (v[0] - '0'));
            out[n].text[1] = (char)('0' + 9 - (v[1] - '0'));
            out[n].text[2] = (char)('a' + (v[3] - '0'));
            out[n].text[3] = (char)('0' + 9 - (v[4] - '0'));
            out[n].text[4] = 0;
            out[n].line = line;
        }
        n++;
    }
    return n;
}

/* ---- the corpus ------------------------------------------------------------------ */

/* The file's moves are its values decoded the plain way, replayed legal
 * to the end; comments sit on the plies the file gives them. */
static void check_corpus_file(const char *path, int plies, const char *result, doc_read *d)
{
    size_t len;
    char *bytes = (char *)load(path, &len);
    plain_ply want[200];
    assert_int_equal(plain_plies(bytes, want, 200), plies);
    free(bytes);

    xq_format fmt;
    d->n = read_path(path, d->g, 4, &fmt);
    assert_int_equal(d->n, 1);
    assert_int_equal(fmt, XQ_FMT_XML);
    xq_game *g = &d->g[0];
    assert_int_equal(g->diag_count, 0);
    assert_int_equal(g->index, 1);
    assert_int_equal(g->first_line, 2);
    assert_int_equal(g->main.count, (size_t)plies);
    for (int i = 0; i < plies; i++) {
        assert_string_equal(g->main.nodes[i].text, want[i].text);
        assert_int_equal(g->main.nodes[i].line, want[i].line);
        assert_int_equal(g->main.nodes[i].col, 1);
        assert_int_equal(g->main.nodes[i].variation_count, 0);
    }
    xqt_assert_tag(g, "Result", result);
    xqt_assert_tag(g, "FEN", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    assert_int_equal(g->fen_line, 36);
    xqt_assert_tag(g, "Red", NULL);    /* empty fields are no tags */
    xqt_assert_tag(g, "URL", NULL);
    xqt_assert_tag(g, "RecordResult", NULL);
    xqt_assert_tag(g, "Contest", NULL);
    xq_replay r;
    replay(g, &r);
    assert_int_equal(r.status, XQ_STATUS_VALID);
    assert_int_equal(r.plies, plies);
    assert_int_equal(r.error_count, 0);
    assert_int_equal(r.warning_count, 0);
}

static void test_corpus_test_cbf(void **state)
{
    (void)state;
    doc_read d;
    check_corpus_file(TD "test.cbf", 50, "*", &d);   /* RecordResult 0: unknown (the title says a draw) */
    xq_game *g = &d.g[0];
    xqt_assert_tag(g, "Event", "居荣鑫《象棋古谱全局三种》");
    xqt_assert_tag(g, "Title", "第一局 屏风马巡河炮抵当头炮局(和)");   /* <Name>, as CBR's */
    xqt_assert_tag(g, "Annotator", "居荣鑫");                         /* <Commentator> */
    xqt_assert_tag(g, "Name", NULL);
    xqt_assert_tag(g, "Commentator", NULL);
    xqt_assert_tag(g, "ECCO", "C03");
    xqt_assert_tag(g, "DateModified", "2014-09-08 20:19:09");
    xqt_assert_tag(g, "RecordType", "1");
    assert_string_equal(g->main.comment, "中炮横车盘头马对屏风马双炮巡河");
    assert_string_equal(g->main.nodes[0].text, "h2e2");   /* 77-47, 炮二平五 */
    assert_null(g->main.nodes[0].comment);
    assert_non_null(g->main.nodes[6].comment);   /* 46-45, the seventh ply */
    assert_true(!strncmp(g->main.nodes[6].comment, "当对方布成屏风马后", strlen("当对方布成屏风马后")));
    assert_non_null(g->main.nodes[7].comment);
    assert_null(g->main.nodes[8].comment);
    const char *last = g->main.nodes[49].comment;   /* end="1", its trailing blanks dropped */
    assert_non_null(last);
    assert_true(!strncmp(last, "至此，红方多兵", strlen("至此，红方多兵")));
    assert_string_equal(last + strlen(last) - strlen("反黑胜。"), "反黑胜。");
    size_t comments = 0;
    for (size_t i = 0; i < g->main.count; i++) comments += g->main.nodes[i].comment != NULL;
    assert_int_equal(comments, 7);   /* the file's eight CDATA, the first one the start's */
    doc_free(&d);
}

static void test_corpus_test2_cbf(void **state)
{
    (void)state;
    doc_read d;
    check_corpus_file(TD "test2.cbf", 75, "1/2-1/2", &d);   /* RecordResult 3 */
    xq_game *g = &d.g[0];
    xqt_assert_tag(g, "Title", "第十局 当头炮抵当头炮局(和)");
    xqt_assert_tag(g, "ECCO", "D04");
    xqt_assert_tag(g, "Event", NULL);
    assert_string_equal(g->main.comment, "顺炮横车弃马对直车不受弃马局");   /* leading blank dropped */
    assert_string_equal(g->main.nodes[74].comment, "和");
    assert_string_equal(g->main.nodes[74].text, "c3c6");   /* 26-23 */
    doc_free(&d);
}

/* ---- hand-made records --------------------------------------------------------- */

static void test_results_and_head(void **state)
{
    (void)state;
    static const struct { const char *code, *tag; } R[] = {
        {"0", "*"}, {"1", "1-0"}, {"2", "0-1"}, {"3", "1/2-1/2"}, {"4", "*"}, {"9", "*"}, {"1-0", "*"}, {"", NULL},
    };
    for (size_t i = 0; i < sizeof R / sizeof R[0]; i++) {
        char doc[1024];
        snprintf(doc, sizeof doc,
                 HEAD " <Head>\n  <Contest>杯</Contest>\n  <Red>甲</Red>\n  <RedTeam>A</RedTeam>\n  <Black>乙</Black>\n"
                      "  <BlackTeam>B</BlackTeam>\n  <Round>3</Round>\n  <Date>2014-09-08</Date>\n  <Site>北京</Site>\n"
                      "  <RecordResult>%s</RecordResult>\n  <TimeRule>90</TimeRule>\n </Head>\n <MoveList>\n"
                      "  <Move value=\"00-00\" />\n  <Move value=\"77-47\" end=\"1\" />\n </MoveList>\n</ChineseChessRecord>\n",
                 R[i].code);
        doc_read d;
        read_text(doc, &d);
        assert_int_equal(d.n, 1);
        assert_int_equal(d.last, 0);
        xq_game *g = &d.g[0];
        xqt_assert_tag(g, "Result", R[i].tag);
        bool warned = R[i].code[0] && strcmp(R[i].code, "0") && strcmp(R[i].code, "1") && strcmp(R[i].code, "2") &&
                      strcmp(R[i].code, "3") && strcmp(R[i].code, "4");
        assert_int_equal(g->diag_count, warned ? 1 : 0);
        if (warned) assert_true(has_diag(g, XQ_SEV_WARNING, 12, "is not 0-4; read as unknown"));
        xqt_assert_tag(g, "Event", "杯");
        xqt_assert_tag(g, "Red", "甲");
        xqt_assert_tag(g, "RedTeam", "A");
        xqt_assert_tag(g, "Black", "乙");
        xqt_assert_tag(g, "BlackTeam", "B");
        xqt_assert_tag(g, "Round", "3");
        xqt_assert_tag(g, "Date", "2014-09-08");
        xqt_assert_tag(g, "Site", "北京");
        xqt_assert_tag(g, "TimeControl", "90");   /* <TimeRule>, as CBR's and XQF's */
        assert_null(g->fen);
        assert_int_equal(g->main.count, 1);
        assert_string_equal(g->main.nodes[0].text, "h2e2");
        assert_null(g->main.comment);
        doc_free(&d);
    }
}

/* An empty MoveList, or only the start, is a game with no moves. */
static void test_no_moves(void **state)
{
    (void)state;
    static const char *const DOCS[] = {
        HEAD " <Head />\n <MoveList />\n</ChineseChessRecord>\n",
        HEAD " <Head />\n <MoveList>\n </MoveList>\n</ChineseChessRecord>\n",
        HEAD " <Head />\n <MoveList>\n  <Move value=\"00-00\" end=\"1\"><![CDATA[ 开局 ]]></Move>\n </MoveList>\n"
             "</ChineseChessRecord>\n",
    };
    for (size_t i = 0; i < 3; i++) {
        doc_read d;
        read_text(DOCS[i], &d);
        assert_int_equal(d.n, 1);
        assert_int_equal(d.last, 0);
        xq_game *g = &d.g[0];
        /* no head field, move or result: no game (pgn_read.c no_game) */
        assert_int_equal(g->diag_count, 1);
        assert_int_equal(g->diags[0].severity, XQ_SEV_ERROR);
        assert_string_equal(g->diags[0].msg, i == 2 ? "no game: a comment alone, with no tag, move or result"
                                                    : "no game: no tag, move or result");
        assert_int_equal(g->main.count, 0);
        if (i == 2) assert_string_equal(g->main.comment, "开局");
        else assert_null(g->main.comment);
        xq_replay r;
        replay(g, &r);
        assert_int_equal(r.status, XQ_STATUS_VALID);
        assert_int_equal(r.plies, 0);
        doc_free(&d);
    }
}

/* A start FEN (Black to move): the replay starts there; a finding about
 * it is placed at its element. */
static void test_start_fen(void **state)
{
    (void)state;
    doc_read d;
    read_text(HEAD " <Head>\n  <FEN>4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 1</FEN>\n </Head>\n <MoveList>\n"
                   "  <Move value=\"00-00\" />\n  <Move value=\"40-41\" />\n  <Move value=\"38-39\" end=\"1\" />\n"
                   " </MoveList>\n</ChineseChessRecord>\n",
              &d);
    assert_int_equal(d.n, 1);
    xq_game *g = &d.g[0];
    assert_string_equal(g->fen, "4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 1");
    assert_int_equal(g->fen_line, 4);
    assert_int_equal(g->fen_col, 1);
    assert_string_equal(g->main.nodes[0].text, "e9e8");
    assert_string_equal(g->main.nodes[1].text, "d1d0");
    xq_replay r;
    replay(g, &r);
    assert_int_equal(r.plies, 1);   /* e9e8 then d1d0: no piece on d1 */
    assert_int_equal(r.status, XQ_STATUS_ILLEGAL);
    doc_free(&d);
}

/* ---- broken records ------------------------------------------------------------ */

/* A bad value: an error at its element, the moves before it kept, the
 * ones after it dropped. */
static void test_bad_values(void **state)
{
    (void)state;
    static const struct { const char *value, *part; } BAD[] = {
        {"97-47", "has file 9, off the board"}, {"77-97", "has file 9, off the board"},
        {"7a-47", "is not XY-XY"},              {"77-4", "is not XY-XY"},
        {"77 47", "is not XY-XY"},              {"", "is not XY-XY"},
        {"77-477", "is not XY-XY"},             {"00-00", "goes from a square to itself"},
        {"47-47", "goes from a square to itself"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        char doc[1024];
        snprintf(doc, sizeof doc,
                 HEAD " <Head />\n <MoveList>\n  <Move value=\"00-00\" />\n  <Move value=\"77-47\" />\n"
                      "  <Move value=\"70-62\" />\n  <Move value=\"%s\" />\n  <Move value=\"19-27\" end=\"1\" />\n"
                      " </MoveList>\n</ChineseChessRecord>\n",
                 BAD[i].value);
        doc_read d;
        read_text(doc, &d);
        assert_int_equal(d.n, 1);
        assert_int_equal(d.last, 0);
        xq_game *g = &d.g[0];
        assert_int_equal(g->main.count, 2);
        assert_string_equal(g->main.nodes[0].text, "h2e2");
        assert_string_equal(g->main.nodes[1].text, "h9g7");
        assert_int_equal(xq_game_count_diags(g, XQ_SEV_ERROR), 1);
        assert_true(has_diag(g, XQ_SEV_ERROR, 8, BAD[i].part));
        doc_free(&d);
    }
    /* a <Move> without a value */
    doc_read d;
    read_text(HEAD " <Head />\n <MoveList>\n  <Move value=\"00-00\" />\n  <Move />\n </MoveList>\n</ChineseChessRecord>\n",
              &d);
    assert_int_equal(d.g[0].main.count, 0);
    assert_true(has_diag(&d.g[0], XQ_SEV_ERROR, 6, "value \"(none)\" is not XY-XY"));
    doc_free(&d);
}

/* No <MoveList>: the head's tags, no moves, an error at the root. */
static void test_no_move_list(void **state)
{
    (void)state;
    doc_read d;
    read_text(HEAD " <Head>\n  <Red>甲</Red>\n </Head>\n</ChineseChessRecord>\n", &d);
    assert_int_equal(d.n, 1);
    assert_int_equal(d.last, 0);
    xq_game *g = &d.g[0];
    xqt_assert_tag(g, "Red", "甲");
    assert_int_equal(g->main.count, 0);
    assert_int_equal(g->diag_count, 1);
    assert_true(has_diag(g, XQ_SEV_ERROR, 2, "CBF record without <MoveList>"));
    doc_free(&d);
}

/* Stray elements and moves after end="1": warnings, ignored. */
static void test_stray(void **state)
{
    (void)state;
    doc_read d;
    read_text(HEAD " <Head />\n <Extra />\n <MoveList>\n  <Move value=\"00-00\" />\n  <Note />\n"
                   "  <Move value=\"77-47\" end=\"1\" />\n  <Move value=\"70-62\" />\n </MoveList>\n"
                   "</ChineseChessRecord>\n",
              &d);
    assert_int_equal(d.n, 1);
    xq_game *g = &d.g[0];
    assert_int_equal(g->main.count, 1);
    assert_int_equal(xq_game_count_diags(g, XQ_SEV_ERROR), 0);
    assert_true(has_diag(g, XQ_SEV_WARNING, 4, "unknown element <Extra> in <ChineseChessRecord> ignored"));
    assert_true(has_diag(g, XQ_SEV_WARNING, 7, "unknown element <Note> in <MoveList> ignored"));
    assert_true(has_diag(g, XQ_SEV_WARNING, 9, "moves after the one marked end=\"1\" (line 8) ignored"));
    doc_free(&d);
}

/* Only <ChineseChessRecord> in no namespace is CBF: another root, or that
 * name in a namespace, is still refused. */
static void test_other_roots(void **state)
{
    (void)state;
    doc_read d;
    read_text("<?xml version=\"1.0\"?>\n<ChineseChessRecord xmlns=\"urn:x\"><MoveList /></ChineseChessRecord>\n", &d);
    assert_int_equal(d.n, 0);
    assert_int_equal(d.last, -1);
    assert_non_null(strstr(d.err, "root element <ChineseChessRecord> is not <games>"));
    read_text("<?xml version=\"1.0\"?>\n<Record><MoveList /></Record>\n", &d);
    assert_int_equal(d.n, 0);
    assert_int_equal(d.last, -1);
    assert_non_null(strstr(d.err, "root element <Record> is not <games>"));
}

/* A document of plies shuttling horses (h0g2 h9g7 g2h0 g7h9 ...) with a
 * comment on every tenth, into buf; returns its length. */
static size_t shuttle_doc(char *buf, size_t size, int plies)
{
    static const char *const V[4] = {"79-67", "70-62", "67-79", "62-70"};
    size_t n = (size_t)snprintf(buf, size, HEAD " <Head />\n <MoveList>\n  <Move value=\"00-00\" />\n");
    for (int i = 0; i < plies; i++) {
        if (i % 10 == 9)
            n += (size_t)snprintf(buf + n, size - n, "  <Move value=\"%s\"><![CDATA[ply %d]]></Move>\n", V[i % 4], i + 1);
        else n += (size_t)snprintf(buf + n, size - n, "  <Move value=\"%s\" />\n", V[i % 4]);
        assert_true(n < size);
    }
    n += (size_t)snprintf(buf + n, size - n, " </MoveList>\n</ChineseChessRecord>\n");
    assert_true(n < size);
    return n;
}

/* Cut XML, near the start (the whole document in libxml2's first chunk)
 * and far in: the game comes out with the moves whose <Move> start tag
 * was complete, an error "the record is cut here" at libxml2's line and
 * column, and then the reader fails with that error. */
static void test_cut(void **state)
{
    (void)state;
    enum { PLIES = 3000 };
    size_t size = 200 + (size_t)PLIES * 64;
    char *doc = malloc(size);
    assert_non_null(doc);
    size_t len = shuttle_doc(doc, size, PLIES);
    {   /* whole: every ply, replayed (a repetition, but legal) */
        doc_read d;
        read_doc(doc, len, &d);
        assert_int_equal(d.n, 1);
        assert_int_equal(d.last, 0);
        assert_int_equal(d.g[0].main.count, PLIES);
        assert_string_equal(d.g[0].main.nodes[9].comment, "ply 10");
        assert_string_equal(d.g[0].main.nodes[0].text, "h0g2");
        assert_string_equal(d.g[0].main.nodes[3].text, "g7h9");
        doc_free(&d);
    }
    static const size_t CUTS[] = {400, 1500, 40000, 70000};
    for (size_t k = 0; k < sizeof CUTS / sizeof CUTS[0]; k++) {
        size_t cut = CUTS[k];
        assert_true(cut < len);
        /* the plies whose start tag ends before the cut, and the cut's line */
        size_t complete = 0;
        uint32_t line = 1;
        for (size_t i = 0; i < cut; i++) {
            line += doc[i] == '\n';
            if (!strncmp(doc + i, "<Move ", 6)) {
                const char *gt = memchr(doc + i, '>', len - i);
                if (gt && (size_t)(gt - doc) < cut) complete++;
            }
        }
        complete--;   /* the start's 00-00 */
        doc_read d;
        read_doc(doc, cut, &d);
        assert_int_equal(d.n, 1);
        assert_int_equal(d.last, -1);
        xq_game *g = &d.g[0];
        assert_int_equal(g->main.count, complete);
        assert_int_equal(xq_game_count_diags(g, XQ_SEV_ERROR), 1);
        const xq_diag *e = &g->diags[0];
        assert_non_null(strstr(e->msg, "XML error: "));
        assert_non_null(strstr(e->msg, "; the record is cut here"));
        assert_true(e->line == line || e->line == line + 1);
        char where[64];
        snprintf(where, sizeof where, ":%u:%u: XML error: ", e->line, e->col);
        assert_non_null(strstr(d.err, where));
        static const char *const ICCS[4] = {"h0g2", "h9g7", "g2h0", "g7h9"};
        for (size_t i = 0; i < complete; i++) assert_string_equal(g->main.nodes[i].text, ICCS[i % 4]);
        doc_free(&d);
    }
    free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_test_cbf), cmocka_unit_test(test_corpus_test2_cbf),
        cmocka_unit_test(test_results_and_head), cmocka_unit_test(test_no_moves),
        cmocka_unit_test(test_start_fen),       cmocka_unit_test(test_bad_values),
        cmocka_unit_test(test_no_move_list),    cmocka_unit_test(test_stray),
        cmocka_unit_test(test_other_roots),     cmocka_unit_test(test_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
