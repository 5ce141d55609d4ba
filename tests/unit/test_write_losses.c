/* test_write_losses.c - nothing lost or hidden without a word when a game
 * is written: untranslated moves stay moves in PGN and XBoard (the game
 * read back fails at the same ply, in every notation, also where the
 * record's Format tag differs from the output's), comments holding '}' or
 * empty lines read back as they were, and what a format cannot hold (a
 * line break in a PGN tag value, XQF's missing tag fields, DhtmlXQ's
 * untranslated moves, tags and line breaks) is named in rep.note and makes
 * the game "not in full". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pgn_read.h"
#include "replay.h"
#include "write.h"
#include "test_util.h"

/* A game read from bytes (any format the readers sniff) and replayed. */
typedef xqt_loaded loaded;

/* Write l's game with opt; *full is xq_write_game's answer.  malloc'd. */
static char *render(loaded *l, const xq_write_options *opt, bool *full, xq_write_report *rep, size_t *len)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    xq_write_begin(f, opt);
    *full = xq_write_game(f, &l->g, &l->r, opt, rep);
    xq_write_end(f, opt);
    fclose(f);
    if (len) *len = n;
    return buf;
}

/* ---- untranslated moves stay moves ------------------------------------------- */

/* Records with an illegal or unreadable move: in the main line, after
 * comments, NAGs and variations; under a Format tag whose notation the
 * move is not in; JSON Lines move texts a PGN reader would take for
 * something else (a result, a number, a NAG, two tokens, nothing). */
static const char *const BROKEN[] = {
    "[Game \"Chinese Chess\"]\n\n1. 炮二平五 馬8進7 2. 馬二進四 車9平8 *\n",
    ("1. 炮二平五 {c} 馬8進7 $1 2. 馬二進三 (2. 兵七進一 {v} 卒7進1) 車9平8 3. 車一平二 炮８退九 {x} "
     "(3... 馬2進3 $2 (3... 象3進5)) 4. 兵七進一 $14 {y} 卒7進1 1-0\n"),
    "[Format \"ICCS\"]\n\n1. H2-E2 H9-G7 2. 馬二進三 {c} 車9平8 (2... 炮8平9) *\n",
    "[Format \"WXF\"]\n\n1. C2.5 H8+7 2. h0g2 i9h9 *\n",
    "[Format \"Chinese\"]\n\n1. 炮二平五 h9g7 2. 馬二進三 *\n",
    "1. 炮二平五 馬8進7 2. 炮五進四 士4進5 (2... 象3進5 3. 炮五退二) 3. 炮五退二 *\n",
    "1. h2e2 (1. 兵七進一 象棋很好 2. 馬二進三) h9g7 2. 象棋很好 h7h0 *\n",
    "{\"tags\":{},\"moves\":[{\"text\":\"炮二平五\"},{\"text\":\"1-0\"},{\"text\":\"馬二進三\"}]}\n",
    "{\"tags\":{},\"moves\":[{\"text\":\"炮二平五\"},{\"text\":\"馬8 進7\"},{\"text\":\"*\"}]}\n",
    "{\"tags\":{},\"moves\":[{\"text\":\"炮二平五\"},{\"text\":\"12.\"}]}\n",
    "{\"tags\":{},\"moves\":[{\"text\":\"炮二平五\"},{\"text\":\"$3\"}]}\n",
    "{\"tags\":{},\"moves\":[{\"text\":\"炮二平五\"},{\"text\":\"馬8進7!\"}]}\n",
    "{\"tags\":{},\"moves\":[{\"text\":\"炮二平五\"},{\"text\":\"\"}]}\n",
    "{\"tags\":{},\"moves\":[{\"text\":\"炮二平五\"},{\"text\":\"1.馬8進7\"}]}\n",
    "{\"tags\":{},\"moves\":[{\"text\":\"炮二平五\"},{\"text\":\"(馬8進7)\"}]}\n",
    "{\"tags\":{\"Format\":\"ICCS\"},\"moves\":[{\"text\":\"h2e2\"},{\"text\":\"馬8進7\"}]}\n",
};

/* The first variation of line b that fails, as "index:ply" of its node and
 * the failing ply, or "" - compared between record and output. */
static int variation_errors(const xq_replay *r)
{
    int n = 0;
    for (int i = 0; i < r->nfindings; i++)
        if (r->findings[i].severity == XQ_SEV_ERROR && strstr(r->findings[i].message, "variation")) n++;
    return n;
}

static void untranslated_moves_fail_again(void **state)
{
    (void)state;
    static const struct { xq_out_format f; xq_notation n; } OUT[] = {
        {XQ_OUT_PGN, XQ_NOTATION_AUTO},   {XQ_OUT_PGN, XQ_NOTATION_CHINESE_ABBR},
        {XQ_OUT_PGN, XQ_NOTATION_CHINESE_3DIGIT}, {XQ_OUT_PGN, XQ_NOTATION_WXF},
        {XQ_OUT_PGN, XQ_NOTATION_ICCS},   {XQ_OUT_PGN, XQ_NOTATION_UCCI},
        {XQ_OUT_PGN, XQ_NOTATION_SAN},    {XQ_OUT_XBOARD, XQ_NOTATION_AUTO},
        {XQ_OUT_XML, XQ_NOTATION_AUTO},   {XQ_OUT_JSONL, XQ_NOTATION_AUTO},
    };
    int checked = 0;
    for (size_t i = 0; i < sizeof BROKEN / sizeof BROKEN[0]; i++) {
        loaded a;
        xqt_load(&a, BROKEN[i], strlen(BROKEN[i]));
        assert_int_not_equal(a.r.status, XQ_STATUS_VALID);
        for (size_t k = 0; k < sizeof OUT / sizeof OUT[0]; k++) {
            xq_write_options opt = {.format = OUT[k].f, .notation = OUT[k].n};
            bool full;
            xq_write_report rep;
            size_t len;
            char *s = render(&a, &opt, &full, &rep, &len);
            assert_false(full);
            assert_true(rep.untranslated > 0);
            loaded b;
            xqt_load(&b, s, len);
            if (b.r.status != a.r.status || b.r.bad_ply != a.r.bad_ply)
                fail_msg("record %zu as %s/%s: status %d ply %d, was %d ply %d:\n%s", i, xq_out_format_name(OUT[k].f),
                         xq_notation_name(OUT[k].n), b.r.status, b.r.bad_ply, a.r.status, a.r.bad_ply, s);
            assert_int_equal(b.g.main.count, a.g.main.count);
            assert_int_equal(variation_errors(&b.r), variation_errors(&a.r));
            /* the moves of a PGN record come back with their texts */
            if (i < 7 && OUT[k].f != XQ_OUT_XML)
                for (size_t m = (size_t)a.r.plies + 1; m < a.g.main.count; m++)
                    assert_string_equal(b.g.main.nodes[m].text, a.g.main.nodes[m].text);
            checked++;
            xq_game_free(&b.g);
            free(s);
        }
        xq_game_free(&a.g);
    }
    assert_int_equal(checked, (int)(sizeof BROKEN / sizeof BROKEN[0] * sizeof OUT / sizeof OUT[0]));
}

/* The text written for an untranslated move. */
static void marked_texts(void **state)
{
    (void)state;
    loaded a;
    const char *rec = BROKEN[2];   /* Format ICCS, then Chinese: legal when read as Chinese */
    xqt_load(&a, rec, strlen(rec));
    xq_write_options opt = {.format = XQ_OUT_PGN};
    bool full;
    xq_write_report rep;
    char *s = render(&a, &opt, &full, &rep, NULL);
    assert_non_null(strstr(s, "\n2. ~馬二進三 {c} 2... 車9平8 (2... 炮8平9) *\n"));
    free(s);
    opt.notation = XQ_NOTATION_ICCS;   /* read as ICCS again: as it was */
    s = render(&a, &opt, &full, &rep, NULL);
    assert_non_null(strstr(s, "\n2. 馬二進三 {c} 2... 車9平8 (2... 炮8平9) *\n"));
    free(s);
    xq_game_free(&a.g);

    rec = BROKEN[8];
    xqt_load(&a, rec, strlen(rec));
    opt.notation = XQ_NOTATION_AUTO;
    s = render(&a, &opt, &full, &rep, NULL);
    assert_non_null(strstr(s, "\n1. 炮二平五 ~馬8_進7\n2. ~* *\n"));
    free(s);
    xq_game_free(&a.g);
}

/* ---- comments and tags in PGN ------------------------------------------------- */

static const char RICH[] =
    "{\"tags\":{\"Event\":\"a\\nb\",\"Red\":\"R\"},\"comment\":\"pre } x\","
    "\"moves\":[{\"text\":\"炮二平五\",\"iccs\":\"h2e2\",\"comment\":\"a } b\\n\\nc\"},"
    "{\"text\":\"馬8進7\",\"iccs\":\"h9g7\",\"comment\":\"\\nlead\",\"variations\":[[{\"comment\":\"v } w\"},"
    "{\"text\":\"炮8平5\",\"iccs\":\"h7e7\",\"comment\":\"x}\"}]]},{\"text\":\"馬二進三\",\"iccs\":\"h0g2\"}],"
    "\"result\":\"*\"}\n";

static void pgn_comments_read_back(void **state)
{
    (void)state;
    static const xq_out_format F[] = {XQ_OUT_PGN, XQ_OUT_XBOARD};
    for (size_t k = 0; k < 2; k++) {
        loaded a, b;
        xqt_load(&a, RICH, strlen(RICH));
        assert_int_equal(a.r.status, XQ_STATUS_VALID);
        xq_write_options opt = {.format = F[k]};
        bool full;
        xq_write_report rep;
        size_t len;
        char *s = render(&a, &opt, &full, &rep, &len);
        xqt_load(&b, s, len);
        assert_int_equal(b.r.status, XQ_STATUS_VALID);
        assert_string_equal(b.g.main.comment, "pre } x");
        assert_string_equal(b.g.main.nodes[0].comment, "a } b\n\nc");
        assert_string_equal(b.g.main.nodes[1].comment, "\nlead");
        assert_int_equal(b.g.main.nodes[1].variation_count, 1);
        assert_string_equal(b.g.main.nodes[1].variations[0].comment, "v } w");
        assert_string_equal(b.g.main.nodes[1].variations[0].nodes[0].comment, "x}");
        assert_int_equal(b.g.main.count, 3);
        /* the only loss: the line break of the Event tag */
        assert_false(full);
        assert_string_equal(rep.why, "");
        char want[128];
        snprintf(want, sizeof want, "%s cannot hold a line break in a tag value: written as a space",
                 xq_out_format_name(F[k]));
        assert_string_equal(rep.note, want);
        assert_string_equal(xq_game_tag(&b.g, "Event"), "a b");
        xq_game_free(&b.g);
        xq_game_free(&a.g);
        free(s);
    }
}

static void valid_games_in_full(void **state)
{
    (void)state;
    static const char rec[] = "[Event \"E\"]\n[Round \"1\"]\n{c}\n1. 炮二平五 {d} 馬8進7 $1 (1... 炮8平5) *\n";
    for (int f = 0; f < XQ_OUT_COUNT; f++) {
        if (f == XQ_OUT_XQF) continue;   /* no Round field: see xqf_tags */
        loaded a;
        xqt_load(&a, rec, strlen(rec));
        xq_write_options opt = {.format = (xq_out_format)f};
        bool full;
        xq_write_report rep;
        char *s = render(&a, &opt, &full, &rep, NULL);
        assert_true(full);
        assert_string_equal(rep.note, "");
        free(s);
        xq_game_free(&a.g);
    }
}

/* ---- XQF and DhtmlXQ ----------------------------------------------------------- */

static void xqf_tags(void **state)
{
    (void)state;
    static const char rec[] =
        "[Game \"Chinese Chess\"]\n[Event \"E\"]\n[Round \"1\"]\n[Red \"R\"]\n[Black \"B\"]\n[Result \"1-0\"]\n"
        "[ECCO \"C00\"]\n[Opening \"O\"]\n[Annotator \"A\"]\n[CustomTag \"x\"]\n[Empty \"\"]\n\n"
        "1. 炮二平五 馬8進7 1-0\n";
    loaded a;
    xqt_load(&a, rec, sizeof rec - 1);
    xq_write_options opt = {.format = XQ_OUT_XQF};
    bool full;
    xq_write_report rep;
    size_t len;
    char *s = render(&a, &opt, &full, &rep, &len);
    assert_false(full);
    assert_string_equal(rep.why, "");
    assert_string_equal(rep.note, "xqf cannot hold tags Round, ECCO, Opening, CustomTag: dropped");
    loaded b;
    xqt_load(&b, s, len);
    assert_string_equal(xq_game_tag(&b.g, "Event"), "E");
    assert_string_equal(xq_game_tag(&b.g, "Annotator"), "A");
    xq_game_free(&b.g);
    xq_game_free(&a.g);
    free(s);

    /* only tags XQF holds: in full */
    static const char held[] = "[Event \"E\"]\n[Red \"R\"]\n[Date \"2026\"]\n[Result \"*\"]\n\n1. 炮二平五 *\n";
    xqt_load(&a, held, sizeof held - 1);
    s = render(&a, &opt, &full, &rep, NULL);
    assert_true(full);
    assert_string_equal(rep.note, "");
    xq_game_free(&a.g);
    free(s);

    /* XQF's strings are GBK: a character GBK lacks is counted and told */
    static const char snow[] = "[Red \"☃ x\"]\n\n1. 炮二平五 {☃} *\n";
    xqt_load(&a, snow, sizeof snow - 1);
    s = render(&a, &opt, &full, &rep, NULL);
    assert_false(full);
    assert_int_equal(rep.unencodable, 2);
    assert_string_equal(rep.note, "xqf (GBK) cannot hold 2 characters: written as '?'");
    xq_game_free(&a.g);
    free(s);
}

static void dhtmlxq_losses(void **state)
{
    (void)state;
    static const char rec[] =
        "{\"tags\":{\"Event\":\"E\\nF\",\"Variation\":\"v\",\"My-Tag\":\"x\",\"Plain\":\"y\",\"Site\":\"[DhtmlXQ_z]\"},"
        "\"comment\":\"see [DhtmlXQ_x]\",\"moves\":[{\"text\":\"炮二平五\"},{\"text\":\"馬8進7\"},"
        "{\"text\":\"馬二進四\"},{\"text\":\"車9平8\"}]}\n";
    loaded a;
    xqt_load(&a, rec, sizeof rec - 1);
    xq_write_options opt = {.format = XQ_OUT_DHTMLXQ};
    bool full;
    xq_write_report rep;
    char *s = render(&a, &opt, &full, &rep, NULL);
    assert_false(full);
    assert_string_equal(rep.why, "ply 3 (馬二進四): horse leg blocked; later moves not written");
    assert_string_equal(rep.note, "dhtmlxq cannot hold tags Variation, My-Tag: dropped; "
                                  "dhtmlxq cannot hold a line break in a tag value: written as a space; "
                                  "dhtmlxq cannot hold '[DhtmlXQ' in a tag value: '[' written as '［'; "
                                  "dhtmlxq cannot hold untranslated moves: 2 dropped");
    assert_non_null(strstr(s, "[DhtmlXQ_Plain]y[/DhtmlXQ_Plain]"));
    assert_non_null(strstr(s, "[DhtmlXQ_place]［DhtmlXQ_z][/DhtmlXQ_place]"));
    /* a comment has \uXXXX (the readers decode it): its '[' is one, no note */
    assert_non_null(strstr(s, "[DhtmlXQ_comment0]see \\u005bDhtmlXQ_x][/DhtmlXQ_comment0]"));
    xq_game_free(&a.g);
    free(s);

    opt.format = XQ_OUT_UCCI;
    xqt_load(&a, rec, sizeof rec - 1);
    s = render(&a, &opt, &full, &rep, NULL);
    assert_string_equal(rep.note, "ucci cannot hold untranslated moves: 2 dropped");
    xq_game_free(&a.g);
    free(s);
}

/* Comments through DhtmlXQ and back, each as it was: "||" is DhtmlXQ's
 * line break, so a bar next to a bar or a line break, a backslash before
 * 'u', control characters and markup are written as \uXXXX escapes.
 * Through XQF too, line breaks at a comment's end included: XQStudio ends
 * every comment with one, which the reader drops, so the writer adds one
 * to a comment that ends with a line break. */
static const char *const COMMENTS[] = {
    "a||b", "|", "||", "a|", "|a", "a|\nb", "\n|", "x\\u0041y", "\\u", "\\\\u0041", "tab\tcr\rdel\x7f\x01",
    "[DhtmlXQ_comment1]x[/DhtmlXQ_comment1]", "[/DhtmlXQ]", "a|b c||| d", "\\", "u0041", "\nlead", "two\n\nbreaks",
    "end\n", "end\r\n", "中文||注释|", "a|", "|b", "\n", "\n\n", "end\n\n", "end\r", "end\r\r\n",
};

/* The JSON string of text (ASCII and UTF-8; control characters as \u00XX). */
static void json_str(char *out, size_t size, const char *text)
{
    size_t k = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p && k + 8 < size; p++) {
        if (*p == '"' || *p == '\\') k += (size_t)snprintf(out + k, size - k, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f) k += (size_t)snprintf(out + k, size - k, "\\u%04x", *p);
        else out[k++] = (char)*p;
    }
    out[k] = 0;
}

static void comments_round_trip(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof COMMENTS / sizeof *COMMENTS; i++) {
        char js[256], rec[640];
        json_str(js, sizeof js, COMMENTS[i]);
        snprintf(rec, sizeof rec, "{\"comment\":\"%s\",\"moves\":[{\"text\":\"h2e2\",\"comment\":\"%s\"}]}\n", js, js);
        static const xq_out_format F[] = {XQ_OUT_DHTMLXQ, XQ_OUT_XQF};
        for (size_t f = 0; f < 2; f++) {
            loaded a, b;
            xqt_load(&a, rec, strlen(rec));
            assert_string_equal(a.g.main.nodes[0].comment, COMMENTS[i]);
            xq_write_options opt = {.format = F[f]};
            bool full;
            xq_write_report rep;
            size_t len;
            char *s = render(&a, &opt, &full, &rep, &len);
            xqt_load(&b, s, len);
            assert_true(full);
            assert_string_equal(rep.note, "");
            assert_string_equal(b.g.main.comment, COMMENTS[i]);
            assert_string_equal(b.g.main.nodes[0].comment, COMMENTS[i]);
            xq_game_free(&b.g);
            xq_game_free(&a.g);
            free(s);
        }
    }
}

/* A variation's leading comment and its first move's comment are joined
 * by DhtmlXQ's line break: a bar at the end of one or the start of the
 * other must not make a third bar of it.  Neither DhtmlXQ nor XQF has a
 * place for a comment before a variation's first move: it reads back in
 * that move's comment (joined by a line break to the move's own), so a
 * note says so and the game is not in full. */
static void dhtmlxq_joined_comments(void **state)
{
    (void)state;
    static const char rec[] =
        "{\"moves\":[{\"text\":\"h2e2\",\"variations\":[[{\"comment\":\"|\"},{\"text\":\"c3c4\",\"comment\":\"|x|\"}],"
        "[{\"comment\":\"alone\"},{\"text\":\"b2e2\"}]]},"
        "{\"text\":\"h9g7\"}]}\n";
    static const struct { xq_out_format f; const char *name; } F[] = {{XQ_OUT_DHTMLXQ, "dhtmlxq"}, {XQ_OUT_XQF, "xqf"}};
    for (size_t f = 0; f < 2; f++) {
        loaded a, b;
        xqt_load(&a, rec, sizeof rec - 1);
        const xq_branch *v = &a.g.main.nodes[0].variations[0];
        assert_string_equal(v->comment, "|");
        assert_string_equal(v->nodes[0].comment, "|x|");
        xq_write_options opt = {.format = F[f].f};
        bool full;
        xq_write_report rep;
        size_t len;
        char *s = render(&a, &opt, &full, &rep, &len);
        assert_false(full);
        char want[160];
        snprintf(want, sizeof want, "%s cannot hold a comment before a variation's first move: 2 put in that move's comment",
                 F[f].name);
        assert_string_equal(rep.note, want);
        xqt_load(&b, s, len);
        assert_int_equal(b.g.main.nodes[0].variation_count, 2);
        assert_null(b.g.main.nodes[0].variations[0].comment);
        assert_string_equal(b.g.main.nodes[0].variations[0].nodes[0].comment, "|\n|x|");
        assert_string_equal(b.g.main.nodes[0].variations[1].nodes[0].comment, "alone");
        xq_game_free(&b.g);
        xq_game_free(&a.g);
        free(s);

        /* without variations' leading comments: in full, no note */
        static const char plain[] =
            "{\"moves\":[{\"text\":\"h2e2\",\"variations\":[[{\"text\":\"c3c4\",\"comment\":\"x\"}]]},{\"text\":\"h9g7\"}]}\n";
        xqt_load(&a, plain, sizeof plain - 1);
        s = render(&a, &opt, &full, &rep, &len);
        assert_true(full);
        assert_string_equal(rep.note, "");
        xq_game_free(&a.g);
        free(s);
    }
}

/* An empty comment (game comment, after a move, a variation's leading
 * comment, next to a leading comment that is not empty) cannot go
 * through DhtmlXQ or XQF, whose readers take an empty field or length 0
 * for no comment: none is written, a note counts them and the game is not
 * in full; the other comments read back as they were (an empty leading
 * comment adds no line break to its move's); without comments, no note. */
static void empty_comments(void **state)
{
    (void)state;
    static const char rec[] =
        "{\"comment\":\"\",\"moves\":[{\"text\":\"h2e2\",\"comment\":\"\",\"variations\":["
        "[{\"comment\":\"\"},{\"text\":\"c3c4\",\"comment\":\"x\"}],"
        "[{\"comment\":\"l\"},{\"text\":\"g3g4\",\"comment\":\"\"}],"
        "[{\"comment\":\"\"},{\"text\":\"b2e2\"}]]},"
        "{\"text\":\"h9g7\",\"comment\":\"y\"}]}\n";
    static const xq_out_format F[] = {XQ_OUT_DHTMLXQ, XQ_OUT_XQF};
    static const char *const NOTE[] = {"dhtmlxq cannot hold empty comments: 5 dropped; dhtmlxq cannot hold a comment "
                                       "before a variation's first move: 1 put in that move's comment",
                                       "xqf cannot hold empty comments: 5 dropped; xqf cannot hold a comment before a "
                                       "variation's first move: 1 put in that move's comment"};
    for (size_t f = 0; f < 2; f++) {
        loaded a, b;
        xqt_load(&a, rec, sizeof rec - 1);
        assert_string_equal(a.g.main.comment, "");
        assert_int_equal(a.g.main.nodes[0].variation_count, 3);
        xq_write_options opt = {.format = F[f]};
        bool full;
        xq_write_report rep;
        size_t len;
        char *s = render(&a, &opt, &full, &rep, &len);
        assert_false(full);
        assert_string_equal(rep.note, NOTE[f]);
        xqt_load(&b, s, len);
        assert_null(b.g.main.comment);
        assert_null(b.g.main.nodes[0].comment);
        assert_string_equal(b.g.main.nodes[1].comment, "y");
        assert_int_equal(b.g.main.nodes[0].variation_count, 3);
        const xq_branch *v = b.g.main.nodes[0].variations;
        assert_null(v[0].comment);
        assert_string_equal(v[0].nodes[0].comment, "x");
        assert_string_equal(v[1].nodes[0].comment, "l");   /* the leading comment joins its move's */
        assert_null(v[2].nodes[0].comment);
        xq_game_free(&b.g);
        free(s);

        opt.no_comments = true;
        s = render(&a, &opt, &full, &rep, &len);
        assert_true(full);
        assert_string_equal(rep.note, "");
        xq_game_free(&a.g);
        free(s);
    }
}

/* DhtmlXQ's open field holds the ECCO tag and the Opening ("C55 name"):
 * the readers take a leading code for the ECCO.  What comes back as it
 * was is in full; an ECCO that is not a code, or an Opening that begins
 * with a code and no ECCO, has a note (and what reads back is named). */
static void dhtmlxq_open_field(void **state)
{
    (void)state;
    static const struct {
        const char *ecco, *opening;   /* NULL: no such tag */
        int note;                     /* 0 none, 1 ECCO not a code, 2 Opening with a code */
        const char *ecco_back, *opening_back;
    } C[] = {
        {"C55", "中炮對屏風馬", 0, "C55", "中炮對屏風馬"},
        {"C55", NULL, 0, "C55", NULL},
        {NULL, "中炮對屏風馬", 0, NULL, "中炮對屏風馬"},
        {"C55", "C55 中炮對屏風馬", 0, "C55", "C55 中炮對屏風馬"},
        {"E99", "A00", 0, "E99", "A00"},
        {NULL, "C55x", 0, NULL, "C55x"},
        {NULL, "F55 x", 0, NULL, "F55 x"},
        {NULL, "c55 x", 0, NULL, "c55 x"},
        {NULL, "C55 中炮對屏風馬", 2, "C55", "中炮對屏風馬"},
        {NULL, "C55中炮", 2, "C55", "中炮"},
        {NULL, "A00", 2, "A00", NULL},
        {"", "B12 x", 2, "B12", "x"},
        {"xyz", "o", 1, NULL, "xyz o"},
        {"xyz", NULL, 1, NULL, "xyz"},
        {"c55", "o", 1, NULL, "c55 o"},
        {"C5", "o", 1, NULL, "C5 o"},
        {"C55 x", "o", 1, "C55", "x o"},
        {"C555", NULL, 1, NULL, "C555"},
    };
    static const char *const NOTE[] = {
        "",
        "dhtmlxq cannot hold an ECCO tag that is not a code (A00 to E99): written in the open field before the "
        "Opening, it reads back as part of the Opening",
        "dhtmlxq cannot hold an Opening that begins with an ECCO code without an ECCO tag: the code reads back as "
        "the ECCO",
    };
    for (size_t i = 0; i < sizeof C / sizeof *C; i++) {
        char rec[512] = "[Game \"Chinese Chess\"]\n";
        if (C[i].ecco) snprintf(rec + strlen(rec), sizeof rec - strlen(rec), "[ECCO \"%s\"]\n", C[i].ecco);
        if (C[i].opening) snprintf(rec + strlen(rec), sizeof rec - strlen(rec), "[Opening \"%s\"]\n", C[i].opening);
        snprintf(rec + strlen(rec), sizeof rec - strlen(rec), "\n1. h2e2 h9g7 *\n");
        loaded a, b;
        xqt_load(&a, rec, strlen(rec));
        xq_write_options opt = {.format = XQ_OUT_DHTMLXQ};
        bool full;
        xq_write_report rep;
        size_t len;
        char *s = render(&a, &opt, &full, &rep, &len);
        assert_string_equal(rep.note, NOTE[C[i].note]);
        assert_int_equal(full, C[i].note == 0);
        xqt_load(&b, s, len);
        const char *e = xq_game_tag(&b.g, "ECCO"), *o = xq_game_tag(&b.g, "Opening");
        if (C[i].ecco_back) assert_string_equal(e, C[i].ecco_back);
        else assert_null(e);
        if (C[i].opening_back) assert_string_equal(o, C[i].opening_back);
        else assert_null(o);
        xq_game_free(&b.g);
        xq_game_free(&a.g);
        free(s);
    }
    /* a long pair is not cut (it was at 511 bytes) */
    char rec[2048], name[1200];
    memset(name, 'n', sizeof name - 1);
    name[sizeof name - 1] = 0;
    snprintf(rec, sizeof rec, "[Game \"Chinese Chess\"]\n[ECCO \"A01\"]\n[Opening \"%s\"]\n\n1. h2e2 *\n", name);
    loaded a, b;
    xqt_load(&a, rec, strlen(rec));
    xq_write_options opt = {.format = XQ_OUT_DHTMLXQ};
    bool full;
    xq_write_report rep;
    size_t len;
    char *s = render(&a, &opt, &full, &rep, &len);
    assert_true(full);
    xqt_load(&b, s, len);
    assert_string_equal(xq_game_tag(&b.g, "Opening"), name);
    xq_game_free(&b.g);
    xq_game_free(&a.g);
    free(s);
}

/* Tag values with spaces at their ends go through DhtmlXQ and back as they
 * were, in full (the format holds them: its fields have no trimming, and
 * vschess and walker keep them), the open field's ECCO and Opening too;
 * blanks with a line break or a tab at a value's end are a page's layout
 * and trimmed whole. */
static void dhtmlxq_tag_spaces(void **state)
{
    (void)state;
    static const char rec[] =
        "{\"tags\":{\"Event\":\" x \",\"Red\":\"a \",\"Black\":\" b\",\"Site\":\"   \",\"ECCO\":\"A00\","
        "\"Opening\":\"  o \",\"Plain\":\" p  \"},\"moves\":[{\"text\":\"h2e2\"}]}\n";
    loaded a, b;
    xqt_load(&a, rec, sizeof rec - 1);
    xq_write_options opt = {.format = XQ_OUT_DHTMLXQ};
    bool full;
    xq_write_report rep;
    size_t len;
    char *s = render(&a, &opt, &full, &rep, &len);
    assert_true(full);
    assert_string_equal(rep.note, "");
    xqt_load(&b, s, len);
    static const char *const NAMES[] = {"Event", "Red", "Black", "Site", "ECCO", "Opening", "Plain"};
    for (size_t i = 0; i < sizeof NAMES / sizeof *NAMES; i++) {
        assert_non_null(xq_game_tag(&b.g, NAMES[i]));
        assert_string_equal(xq_game_tag(&b.g, NAMES[i]), xq_game_tag(&a.g, NAMES[i]));
    }
    xq_game_free(&b.g);
    xq_game_free(&a.g);
    free(s);

    static const char page[] =
        "[DhtmlXQ]\n[DhtmlXQ_title]\n  T t \r\n[/DhtmlXQ_title][DhtmlXQ_event]\t E[/DhtmlXQ_event]"
        "[DhtmlXQ_red] R \n[/DhtmlXQ_red][DhtmlXQ_open]\nE27 x\n[/DhtmlXQ_open]"
        "[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]\n";
    xqt_load(&b, page, sizeof page - 1);
    assert_string_equal(xq_game_tag(&b.g, "Title"), "T t");
    assert_string_equal(xq_game_tag(&b.g, "Event"), "E");
    assert_string_equal(xq_game_tag(&b.g, "Red"), " R");
    assert_string_equal(xq_game_tag(&b.g, "ECCO"), "E27");
    assert_string_equal(xq_game_tag(&b.g, "Opening"), "x");
    xq_game_free(&b.g);
}

/* XML 1.0 has no C0 control characters: written as spaces, with a note */
static void xml_controls(void **state)
{
    (void)state;
    static const char rec[] = "{\"tags\":{\"Red\":\"a\\u0011b\"},\"moves\":[{\"text\":\"炮二平五\"}]}\n";
    loaded a;
    xqt_load(&a, rec, sizeof rec - 1);
    xq_write_options opt = {.format = XQ_OUT_XML};
    bool full;
    xq_write_report rep;
    char *s = render(&a, &opt, &full, &rep, NULL);
    assert_false(full);
    assert_non_null(strstr(s, "<tag name=\"Red\">a b</tag>"));
    assert_non_null(strstr(rep.note, "xml cannot hold control characters"));
    opt.format = XQ_OUT_JSONL;   /* JSON holds them */
    free(s);
    s = render(&a, &opt, &full, &rep, NULL);
    assert_true(full);
    free(s);
    xq_game_free(&a.g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(untranslated_moves_fail_again),
        cmocka_unit_test(marked_texts),
        cmocka_unit_test(pgn_comments_read_back),
        cmocka_unit_test(valid_games_in_full),
        cmocka_unit_test(xqf_tags),
        cmocka_unit_test(dhtmlxq_losses),
        cmocka_unit_test(xml_controls),
        cmocka_unit_test(comments_round_trip),
        cmocka_unit_test(dhtmlxq_joined_comments),
        cmocka_unit_test(dhtmlxq_tag_spaces),
        cmocka_unit_test(dhtmlxq_open_field),
        cmocka_unit_test(empty_comments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
