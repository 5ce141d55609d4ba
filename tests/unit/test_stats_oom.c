/* test_stats_oom.c - xq-stats' writers when memory runs out: the text,
 * CSV and JSON writers (stats.h) either write exactly what they write with
 * all the memory they want, or say that they did not (return false), so
 * that xq-stats never prints partial numbers silently.
 *
 * Each writer runs once per allocation it makes, with that one allocation
 * refused (malloc, calloc and realloc are this program's own, forwarding
 * to glibc's __libc_* functions and refusing the one counted down to).
 * An allocation whose failure the writer gets around (glibc's qsort falls
 * back to sorting in place) may return true, but then its output must be
 * the whole one.  Not under AddressSanitizer, whose own allocator the
 * replacement would bypass. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgn_read.h"
#include "replay.h"
#include "stats.h"

#if defined(__SANITIZE_ADDRESS__)
#define NO_MALLOC_REPLACEMENT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define NO_MALLOC_REPLACEMENT 1
#endif
#endif

/* ---- the allocator that refuses one allocation ------------------------- */

static long refuse_in = -1;   /* allocations to let through before the refused one; -1: none refused */
static bool refused;          /* the one was refused */

#ifndef NO_MALLOC_REPLACEMENT
/* Whether this allocation is the one to refuse. */
static bool refuse_now(void)
{
    if (refuse_in < 0) return false;
    if (refuse_in-- > 0) return false;
    refused = true;
    return true;
}

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);

void *malloc(size_t n)
{
    return refuse_now() ? NULL : __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
    return refuse_now() ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
    return refuse_now() ? NULL : __libc_realloc(p, n);
}

void free(void *p)
{
    __libc_free(p);
}
#endif

/* ---- statistics to write ----------------------------------------------- */

/* Every game of path accumulated with the default rules, for event. */
static xq_stats *stats_of(const char *path, const char *event)
{
    char err[256];
    xq_reader *rd = xq_reader_open(path, NULL, err, sizeof err);
    assert_non_null(rd);
    xq_stats_options opt = {.event = event};
    xq_replay_options_default(&opt.rules);
    xq_stats *s = xq_stats_new(&opt);
    assert_non_null(s);
    xq_replay *r = malloc(sizeof *r);
    assert_non_null(r);
    xq_game g;
    xq_game_init(&g);
    int st;
    while ((st = xq_reader_next(rd, &g)) == 1) {
        xq_stats_game sg;
        xq_replay_game(&g, &opt.rules, r);
        xq_stats_analyse(&g, r, &sg);
        assert_true(xq_stats_add(s, &sg));
    }
    assert_int_equal(st, 0);
    xq_game_free(&g);
    free(r);
    xq_reader_close(rd);
    xq_stats_add_failed_file(s);   /* the count's row too */
    return s;
}

typedef bool (*writer)(FILE *out, const xq_stats *s, const xq_stats_report_options *opt);

/* One run of w into a temporary file with its own buffer (so that the
 * stream allocates nothing), allocation `refuse` refused (-1: none).
 * Returns the output (malloc'd, read back with every allocation allowed);
 * *whole is w's result, *stream_ok whether the stream saw no error. */
static char *write_once(writer w, const xq_stats *s, long refuse, bool *whole, bool *stream_ok)
{
    static char buf[1 << 16];
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(setvbuf(f, buf, _IOFBF, sizeof buf), 0);
    xq_stats_report_options ro = {.top = 0, .system = XQ_SYSTEM_AUTO};
    refused = false;
    refuse_in = refuse;
    *whole = w(f, s, &ro);
    *stream_ok = fflush(f) == 0 && !ferror(f);
    refuse_in = -1;
    long len = ftell(f);
    assert_true(len >= 0);
    char *out = malloc((size_t)len + 1);
    assert_non_null(out);
    rewind(f);
    assert_int_equal(fread(out, 1, (size_t)len, f), (size_t)len);
    out[len] = '\0';
    fclose(f);
    return out;
}

/* w with each of its allocations refused in turn: whole (true) only when
 * the output is the one written with all the memory wanted.  Returns the
 * number of runs that said false. */
static long check_writer(writer w, const xq_stats *s, const char *name)
{
    bool whole, stream_ok;
    char *want = write_once(w, s, -1, &whole, &stream_ok);
    assert_true(whole);
    assert_true(stream_ok);
    assert_true(strlen(want) > 100);
    long said_short = 0, k;
    for (k = 0;; k++) {
        char *got = write_once(w, s, k, &whole, &stream_ok);
        bool was_refused = refused;
        if (!was_refused) {   /* k is past the writer's last allocation */
            assert_true(whole);
            assert_string_equal(got, want);
            free(got);
            break;
        }
        if (strcmp(got, want) && stream_ok && whole)
            fail_msg("%s: allocation %ld refused: a different output, said to be whole", name, k);
        if (!whole) said_short++;
        free(got);
    }
    free(want);
    print_message("%s: %ld allocations, %ld runs said incomplete\n", name, k, said_short);
    assert_true(k > 0);
    return said_short;
}

static void check_all(const char *path, const char *event)
{
    xq_stats *s = stats_of(path, event);
    assert_true(check_writer(xq_stats_write_text, s, "text") > 0);
    assert_true(check_writer(xq_stats_write_csv, s, "csv") > 0);
    assert_true(check_writer(xq_stats_write_json, s, "json") > 0);
    xq_stats_free(s);
}

/* Round robin: standings with direct encounters, a player-by-player
 * crosstable. */
static void test_writers_round_robin(void **state)
{
    (void)state;
#ifdef NO_MALLOC_REPLACEMENT
    skip();
#endif
    check_all("tests/data/stats-roundrobin.pgn", "Test Cup 2024");
}

/* Swiss: a crosstable by rounds (rounds_usable's own allocation). */
static void test_writers_swiss(void **state)
{
    (void)state;
#ifdef NO_MALLOC_REPLACEMENT
    skip();
#endif
    check_all("tests/data/stats-swiss.pgn", "測試公開賽");
}

/* No event: openings, players and events only. */
static void test_writers_no_event(void **state)
{
    (void)state;
#ifdef NO_MALLOC_REPLACEMENT
    skip();
#endif
    check_all("corpus/edge-cases.pgn", NULL);
}

/* The replacement allocator itself: refuses exactly the one counted. */
static void test_refuse_one(void **state)
{
    (void)state;
#ifdef NO_MALLOC_REPLACEMENT
    skip();
#endif
    void *(*volatile alloc)(size_t) = malloc;   /* not a builtin the compiler may fold */
    refused = false;
    refuse_in = 1;
    void *a = alloc(16), *b = alloc(16), *c = alloc(16);
    refuse_in = -1;
    assert_non_null(a);
    assert_null(b);
    assert_non_null(c);
    assert_true(refused);
    free(a);
    free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refuse_one),
        cmocka_unit_test(test_writers_round_robin),
        cmocka_unit_test(test_writers_swiss),
        cmocka_unit_test(test_writers_no_event),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
