/* test_tag_escape.c - escaped quotes and backslashes in PGN tag values:
 * \" and \\ are read as " and \ with no warning (our PGN writer writes
 * them), a bare " inside a value is read and warned about; and every
 * value the writer escapes reads back as itself with no diagnostic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "test_util.h"

#include "game.h"
#include "pgn_read.h"
#include "write.h"

/* Read text, one record, into g[0] (caller frees it; g[1] is room for the
 * reader's look past it). */
static void read_one(const char *text, xq_game g[2])
{
    xq_format fmt;
    assert_int_equal(read_tmp_bytes(text, strlen(text), g, 2, &fmt), 1);
}

static size_t warnings_about_quotes(const xq_game *g)
{
    size_t n = 0;
    for (size_t i = 0; i < g->diag_count; i++) n += strstr(g->diags[i].msg, "not escaped") != NULL;
    return n;
}

/* The Event value of text and its count of unescaped-quote warnings. */
static void event_is(const char *text, const char *value, size_t warnings)
{
    xq_game g[2];
    read_one(text, g);
    const char *v = xq_game_tag(&g[0], "Event");
    if (!v || strcmp(v, value) || warnings_about_quotes(&g[0]) != warnings)
        fail_msg("%s: Event %s, %zu warnings (expected %s, %zu)", text, v ? v : "(none)",
                 warnings_about_quotes(&g[0]), value, warnings);
    xq_game_free(&g[0]);
}

static void escapes_read_without_warning(void **state)
{
    (void)state;
    event_is("[Event \"a\\\"b\"]\n\n1. 炮二平五 *\n", "a\"b", 0);             /* the tester's case */
    event_is("[Event \"a\\\\b\"]\n\n1. 炮二平五 *\n", "a\\b", 0);
    event_is("[Event \"\\\"q\\\"\"]\n\n1. 炮二平五 *\n", "\"q\"", 0);
    event_is("[Event \"a\\\\\"]\n\n1. 炮二平五 *\n", "a\\", 0);               /* \\ then the closing quote */
    event_is("[Event \"x\\\\\\\"y\"]\n\n1. 炮二平五 *\n", "x\\\"y", 0);       /* \\ then \" */
    event_is("[Event \"a\\\"b\"] [Site \"c\"]\n\n1. 炮二平五 *\n", "a\"b", 0); /* two tags on a line */
}

static void bare_quote_warned(void **state)
{
    (void)state;
    event_is("[Event \"a\"b\"]\n\n1. 炮二平五 *\n", "a\"b", 1);
    event_is("[Event \"a\\\"b\"c\"]\n\n1. 炮二平五 *\n", "a\"b\"c", 1);    /* one escaped, one bare */
    event_is("[Event \"a\\\\\"b\"]\n\n1. 炮二平五 *\n", "a\\\"b", 1);      /* \\ then a bare quote */
}

/* What the PGN writer writes reads back unchanged, with no diagnostic:
 * values of quotes and backslashes in every mix. */
static void writer_output_reads_back(void **state)
{
    (void)state;
    static const char *const values[] = {"a\"b", "\"", "\\", "\\\"", "\"\\", "a\\\\b", "\"\"", "x\\", "q\" ]",
                                         "甲\"乙\\丙"};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        xq_game gs[2], *g = &gs[0];
        read_one("[Event \"e\"]\n\n1. 炮二平五 馬8進7 *\n", gs);
        for (size_t t = 0; t < g->tag_count; t++)
            if (!strcmp(g->tags[t].name, "Event")) g->tags[t].value = values[i];
        xq_replay r;
        xq_replay_options o;
        xq_replay_options_default(&o);
        xq_replay_game(g, &o, &r);
        xq_write_options wo = {.format = XQ_OUT_PGN, .notation = XQ_NOTATION_AUTO};
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        assert_true(xq_write_game(f, g, &r, &wo, NULL));
        fclose(f);
        xq_game backs[2], *back = &backs[0];
        read_one(buf, backs);
        const char *v = xq_game_tag(back, "Event");
        if (!v || strcmp(v, values[i]) || back->diag_count)
            fail_msg("value %s written as %s read back as %s with %zu diagnostics (%s)", values[i], buf,
                     v ? v : "(none)", back->diag_count, back->diag_count ? back->diags[0].msg : "");
        xq_game_free(back);
        xq_game_free(g);
        free(buf);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(escapes_read_without_warning),
        cmocka_unit_test(bare_quote_warned),
        cmocka_unit_test(writer_output_reads_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
