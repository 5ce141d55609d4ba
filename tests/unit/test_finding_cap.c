/* test_finding_cap.c - a replay's list of findings when a game has more
 * than XQ_REPLAY_MAX_FINDINGS: the first errors are always listed, the
 * earliest warnings fill what room is left, in the order found; every
 * finding counted by kind and severity (kind_counts) whether listed or
 * not.  The declarative rule is checked against records whose findings
 * come in a known order: one token a line (")" a warning, "(炮二平五)"
 * before any move an error), so a finding's line names its token. */
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

#include "pgn_read.h"
#include "replay.h"

enum { HEAD_LINES = 2, MAX_TOKENS = 64 };

/* A record with pattern[i] ('E' an error, 'W' a warning) on line
 * HEAD_LINES + 1 + i, then one legal move; into buf. */
static size_t record_of(const char *pattern, char *buf, size_t size)
{
    size_t n = (size_t)snprintf(buf, size, "[Event \"cap\"]\n\n");
    for (const char *p = pattern; *p; p++)
        n += (size_t)snprintf(buf + n, size - n, "%s\n", *p == 'E' ? "(炮二平五)" : ")");
    n += (size_t)snprintf(buf + n, size - n, "1. 炮二平五 *\n");
    assert_true(n < size);
    return n;
}

/* The sum of a replay's counts by kind for one severity. */
static int counted(const xq_replay *r, xq_severity sev)
{
    int n = 0;
    for (int k = 0; k < XQ_FIND_KIND_COUNT; k++) n += r->kind_counts[k][sev];
    return n;
}

/* Replay the record of pattern and check the list against the rule:
 * the first min(E, cap) errors and the first min(W, cap - listed errors)
 * warnings, in the order found. */
static void check_pattern(const char *pattern)
{
    char text[8192];
    size_t len = record_of(pattern, text, sizeof text);
    xqt_loaded l;
    xqt_load(&l, text, len);
    const xq_replay *r = &l.r;

    int errors = 0, warnings = 0;
    for (const char *p = pattern; *p; p++) *(*p == 'E' ? &errors : &warnings) += 1;
    assert_int_equal(r->error_count, errors);
    assert_int_equal(r->warning_count, warnings);
    assert_int_equal(r->kind_counts[XQ_FIND_SYNTAX][XQ_SEV_ERROR], errors);
    assert_int_equal(r->kind_counts[XQ_FIND_SYNTAX][XQ_SEV_WARNING], warnings);
    assert_int_equal(counted(r, XQ_SEV_ERROR), errors);
    assert_int_equal(counted(r, XQ_SEV_WARNING), warnings);
    assert_int_equal(r->plies, 1);

    int cap = XQ_REPLAY_MAX_FINDINGS;
    int keep_errors = errors < cap ? errors : cap;
    int keep_warnings = warnings < cap - keep_errors ? warnings : cap - keep_errors;
    /* the lines expected, in the order found */
    uint32_t want[MAX_TOKENS];
    int nwant = 0, e = 0, w = 0;
    for (int i = 0; pattern[i]; i++) {
        bool error = pattern[i] == 'E';
        if (error ? e++ < keep_errors : w++ < keep_warnings) want[nwant++] = (uint32_t)(HEAD_LINES + 1 + i);
    }
    assert_int_equal(r->nfindings, nwant);
    for (int i = 0; i < nwant; i++) {
        const xq_finding *f = &r->findings[i];
        assert_int_equal(f->line, want[i]);
        assert_int_equal(f->kind, XQ_FIND_SYNTAX);
        assert_int_equal(f->severity, pattern[want[i] - HEAD_LINES - 1] == 'E' ? XQ_SEV_ERROR : XQ_SEV_WARNING);
        assert_true(f->message[0] != '\0');
    }
    xq_game_free(&l.g);
}

/* The cases a user meets: many warnings, then an error. */
static void error_after_many_warnings(void **state)
{
    (void)state;
    check_pattern("WWWWWWWWWWWWWWWWWWWWE");   /* 20 warnings, then the error: listed, the 16th warning out */
    check_pattern("WWWWWWWWWWWWWWWWE");       /* exactly full, then the error */
    check_pattern("WWWWWWWWWWWWWWWE");        /* 15 warnings: room for the error */
    check_pattern("EWWWWWWWWWWWWWWWWWWWWWWE");
    check_pattern("EEEEEEEEEEEEEEEEEEEE");    /* 20 errors: the first 16 */
    check_pattern("WEEEEEEEEEEEEEEEEEEEW");   /* the one warning gives way */
    check_pattern("");
}

/* Random mixes, lengths 0..48, against the rule. */
static void random_patterns(void **state)
{
    (void)state;
    uint64_t seed = 0x5eedcafe;
    char pattern[49];
    for (int round = 0; round < 400; round++) {
        unsigned n = xqt_rnd(&seed, 49), bias = 1 + xqt_rnd(&seed, 9);
        for (unsigned i = 0; i < n; i++) pattern[i] = xqt_rnd(&seed, 10) < bias ? 'E' : 'W';
        pattern[n] = '\0';
        check_pattern(pattern);
    }
}

/* A replay's own error after the reader's warnings filled the list: an
 * illegal move, counted by its kind and listed. */
static void illegal_move_after_warnings(void **state)
{
    (void)state;
    char text[4096];
    size_t n = (size_t)snprintf(text, sizeof text, "[Event \"cap\"]\n\n");
    for (int i = 0; i < 20; i++) n += (size_t)snprintf(text + n, sizeof text - n, ")\n");
    n += (size_t)snprintf(text + n, sizeof text - n, "1. 炮二平五 馬8進7 2. 車一進五 *\n");
    xqt_loaded l;
    xqt_load(&l, text, n);
    assert_int_equal(l.r.status, XQ_STATUS_ILLEGAL);
    assert_int_equal(l.r.error_count, 1);
    assert_int_equal(l.r.warning_count, 20);
    assert_int_equal(l.r.kind_counts[XQ_FIND_ILLEGAL_MOVE][XQ_SEV_ERROR], 1);
    assert_int_equal(l.r.kind_counts[XQ_FIND_SYNTAX][XQ_SEV_WARNING], 20);
    assert_int_equal(l.r.nfindings, XQ_REPLAY_MAX_FINDINGS);
    const xq_finding *last = &l.r.findings[XQ_REPLAY_MAX_FINDINGS - 1];
    assert_int_equal(last->kind, XQ_FIND_ILLEGAL_MOVE);
    assert_int_equal(last->ply, 3);
    assert_int_equal(l.r.findings[XQ_REPLAY_MAX_FINDINGS - 2].line, HEAD_LINES + 15);   /* warnings 1..15 */
    xq_game_free(&l.g);
}

/* Past the reader's list of XQ_GAME_MAX_DIAGS diagnostics (game.h): each
 * counted once by its severity, as a warning or an error, under --strict
 * every one an error. */
static void past_the_reader_cap(void **state)
{
    (void)state;
    char pattern[301];
    memset(pattern, 'W', 250);
    memset(pattern + 250, 'E', 10);
    pattern[260] = '\0';
    char *text = malloc(16384);
    assert_non_null(text);
    size_t len = record_of(pattern, text, 16384);
    for (int strict = 0; strict <= 1; strict++) {
        char path[64], err[256];
        save_tmp(text, len, path);
        xq_reader *rd = xq_reader_open(path, NULL, err, sizeof err);
        assert_non_null(rd);
        xq_game g;
        xq_game_init(&g);
        assert_int_equal(xq_reader_next(rd, &g), 1);
        assert_int_equal(g.diag_count, XQ_GAME_MAX_DIAGS + 1);
        assert_int_equal(g.diag_dropped[XQ_SEV_WARNING], 250 - XQ_GAME_MAX_DIAGS - 1);
        assert_int_equal(g.diag_dropped[XQ_SEV_ERROR], 10);
        xq_replay_options o;
        xq_replay_options_default(&o);
        o.strict = strict;
        xq_replay r;
        xq_replay_game(&g, &o, &r);
        assert_int_equal(r.error_count, strict ? 260 : 10);
        assert_int_equal(r.warning_count, strict ? 0 : 250);
        assert_int_equal(r.kind_counts[XQ_FIND_SYNTAX][XQ_SEV_ERROR], r.error_count);
        assert_int_equal(r.kind_counts[XQ_FIND_SYNTAX][XQ_SEV_WARNING], r.warning_count);
        assert_int_equal(r.nfindings, XQ_REPLAY_MAX_FINDINGS);
        xq_game_free(&g);
        xq_reader_close(rd);
        unlink(path);
    }
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(error_after_many_warnings),
        cmocka_unit_test(random_patterns),
        cmocka_unit_test(illegal_move_after_warnings),
        cmocka_unit_test(past_the_reader_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
