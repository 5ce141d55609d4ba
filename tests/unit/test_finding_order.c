/* test_finding_order.c - xq_findings_in_order (finding_order.h): the
 * reader's findings merged into the replay's by place.  Made-up finding
 * lists (the case of a cut gzip file: 17:6 tag value not closed, 17:15
 * input ends early, 17:7 bad FEN; ties; whole-game findings; one
 * producer only; none) against their expected orders, and random lists:
 * always a permutation keeping each producer's order, and, when each
 * producer's places rise (as they do but for the replay's whole-game and
 * after-the-verdict findings), a stable sort by place with the reader's
 * first at a tie; and a real record (a cut gzip file) through the
 * reader and the replay, whose told order rises. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#include "finding_order.h"

/* r's findings: kinds[i] 'S' (the reader's) or 'R' (the replay's), at
 * lines[i]:cols[i] (line 0: about the whole game). */
static void make(xq_replay *r, const char *kinds, const uint32_t *lines, const uint32_t *cols)
{
    memset(r, 0, sizeof *r);
    r->nfindings = (int)strlen(kinds);
    for (int i = 0; i < r->nfindings; i++) {
        r->findings[i].kind = kinds[i] == 'S' ? XQ_FIND_SYNTAX : XQ_FIND_BAD_FEN;
        r->findings[i].line = lines[i];
        r->findings[i].col = cols[i];
    }
}

static void expect_order(const char *kinds, const uint32_t *lines, const uint32_t *cols, const int *want)
{
    xq_replay *r = malloc(sizeof *r);
    assert_non_null(r);
    make(r, kinds, lines, cols);
    int order[XQ_REPLAY_MAX_FINDINGS];
    xq_findings_in_order(r, order);
    for (int i = 0; i < r->nfindings; i++) assert_int_equal(order[i], want[i]);
    free(r);
}

static void test_cases(void **state)
{
    (void)state;
    /* the cut gzip file: 17:6, 17:15 (reader), 17:7 (replay) */
    expect_order("SSR", (uint32_t[]){17, 17, 17}, (uint32_t[]){6, 15, 7}, (int[]){0, 2, 1});
    /* a tie: the reader's first (it read the bytes the replay then used) */
    expect_order("SR", (uint32_t[]){5, 5}, (uint32_t[]){4, 4}, (int[]){0, 1});
    expect_order("RS", (uint32_t[]){5, 5}, (uint32_t[]){4, 4}, (int[]){1, 0});
    /* the replay's before the reader's on an earlier line (nul-bytes.pgn) */
    expect_order("SR", (uint32_t[]){5, 5}, (uint32_t[]){6, 4}, (int[]){1, 0});
    /* a whole-game finding (the result) stays after every placed one */
    expect_order("SRR", (uint32_t[]){9, 3, 0}, (uint32_t[]){1, 2, 0}, (int[]){1, 0, 2});
    expect_order("RSS", (uint32_t[]){0, 2, 8}, (uint32_t[]){0, 1, 1}, (int[]){1, 2, 0});
    /* the replay's own order is kept, even where its places fall (a
     * warning about moves after a verdict, found after later ones) */
    expect_order("RRS", (uint32_t[]){10, 3, 5}, (uint32_t[]){1, 1, 1}, (int[]){2, 0, 1});
    expect_order("RRS", (uint32_t[]){10, 3, 12}, (uint32_t[]){1, 1, 1}, (int[]){0, 1, 2});
    expect_order("SRR", (uint32_t[]){4, 10, 3}, (uint32_t[]){1, 1, 1}, (int[]){0, 1, 2});
    /* one producer, or none */
    expect_order("SSS", (uint32_t[]){3, 1, 2}, (uint32_t[]){1, 1, 1}, (int[]){0, 1, 2});
    expect_order("RRR", (uint32_t[]){3, 0, 2}, (uint32_t[]){1, 0, 1}, (int[]){0, 1, 2});
    expect_order("", NULL, NULL, NULL);
}

static uint64_t key(const xq_finding *f)
{
    return f->line ? (uint64_t)f->line << 32 | f->col : UINT64_MAX;
}

static void test_random(void **state)
{
    (void)state;
    xq_replay *r = malloc(sizeof *r);
    assert_non_null(r);
    uint64_t seed = 16;
    for (int round = 0; round < 20000; round++) {
        bool rising = round & 1;
        int n = (int)(xqt_xorshift(&seed, XQ_REPLAY_MAX_FINDINGS + 1));
        memset(r, 0, sizeof *r);
        r->nfindings = n;
        uint32_t at[2] = {1, 1};   /* each producer's last line, for rising lists */
        for (int i = 0; i < n; i++) {
            bool reader = xqt_xorshift(&seed, 2);
            xq_finding *f = &r->findings[i];
            f->kind = reader ? XQ_FIND_SYNTAX : XQ_FIND_ILLEGAL_MOVE;
            if (rising) {
                at[reader] += xqt_xorshift(&seed, 3);
                f->line = at[reader];
                f->col = 1 + xqt_xorshift(&seed, 2);
                if (f->col == 2) at[reader]++;   /* (keep (line, col) rising) */
            } else {
                f->line = xqt_xorshift(&seed, 6);   /* 0: whole game */
                f->col = 1 + xqt_xorshift(&seed, 3);
            }
        }
        int order[XQ_REPLAY_MAX_FINDINGS];
        xq_findings_in_order(r, order);
        bool seen[XQ_REPLAY_MAX_FINDINGS] = {false};
        int last[2] = {-1, -1};
        for (int i = 0; i < n; i++) {
            assert_true(order[i] >= 0 && order[i] < n);
            assert_false(seen[order[i]]);
            seen[order[i]] = true;
            int who = r->findings[order[i]].kind == XQ_FIND_SYNTAX;
            assert_true(order[i] > last[who]);   /* each producer's order kept */
            last[who] = order[i];
            if (rising && i) {   /* a stable sort by place, the reader's first at a tie */
                const xq_finding *a = &r->findings[order[i - 1]], *b = &r->findings[order[i]];
                assert_true(key(a) <= key(b));
                if (key(a) == key(b) && a->kind != b->kind) assert_int_equal(a->kind, XQ_FIND_SYNTAX);
            }
        }
    }
    free(r);
}

/* A record cut inside a FEN tag's value, read and replayed: the reader's
 * findings (the value not closed, the input ending) and the replay's
 * (the FEN) come out by place. */
static void test_cut_record(void **state)
{
    (void)state;
    const char text[] = "[Event \"x\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p";
    char path[] = "/tmp/xq-test-order-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char cmd[200];
    FILE *p = popen((snprintf(cmd, sizeof cmd, "gzip -c | head -c 40 > %s", path), cmd), "w");
    assert_non_null(p);
    for (int i = 0; i < 40; i++) fputs(text, p);   /* enough bytes that 40 of gzip cut the FEN */
    pclose(p);
    xq_reader *rd = xq_reader_open(path, NULL, NULL, 0);
    assert_non_null(rd);
    xq_game *g = malloc(sizeof *g);
    xq_replay *r = malloc(sizeof *r);
    assert_non_null(g);
    assert_non_null(r);
    xq_game_init(g);
    int games = 0;
    while (xq_reader_next(rd, g) == 1) {
        games++;
        xq_replay_options o;
        xq_replay_options_default(&o);
        xq_replay_game(g, &o, r);
        int order[XQ_REPLAY_MAX_FINDINGS], syntax = 0;
        xq_findings_in_order(r, order);
        unsigned long pl = 0, pc = 0;
        for (int i = 0; i < r->nfindings; i++) {
            unsigned long l, c;
            xq_finding_place(&r->findings[order[i]], g, &l, &c);
            assert_true(l > pl || (l == pl && c >= pc));
            pl = l;
            pc = c;
            syntax += r->findings[order[i]].kind == XQ_FIND_SYNTAX;
        }
        assert_true(syntax >= 1);   /* at least the cut */
    }
    assert_true(games >= 1);
    xq_reader_close(rd);
    xq_game_free(g);
    free(g);
    free(r);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_cut_record),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
