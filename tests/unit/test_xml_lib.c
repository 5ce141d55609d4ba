/* test_xml_lib.c - libxml2 is loaded only for XML input (xml_lib.h).
 *
 * This binary, like the tools, is not linked with libxml2 (the tests link
 * it --as-needed, and nothing here calls it directly): reading PGN leaves
 * it unmapped; the first XML input maps it, once, even when several
 * threads start reading XML at the same moment (pthread_once), and every
 * thread then reads the same games as one thread alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "pgn_read.h"
#include "test_util.h"
#include "xml_lib.h"

#define XML_FILE "tests/data/convert-sample.out.xml"
#define PGN_FILE "tests/data/convert-sample.pgn"

enum { MAX_GAMES = 16, THREADS = 4 };

/* Whether a file whose name contains "libxml2" is mapped in this process. */
static bool libxml2_mapped(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    assert_non_null(f);
    char line[4096];
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) found = strstr(line, "libxml2") != NULL;
    fclose(f);
    return found;
}

/* One thread's read of XML_FILE (no cmocka assertion off the main thread:
 * the result is checked by the caller). */
typedef struct {
    pthread_barrier_t *start;
    xq_game g[MAX_GAMES];
    int n, rc;
    char err[256];
} xml_read_job;

static void *read_xml(void *arg)
{
    xml_read_job *j = arg;
    if (j->start) pthread_barrier_wait(j->start);   /* all threads open at once */
    xq_reader *r = xq_reader_open(XML_FILE, NULL, j->err, sizeof j->err);
    j->rc = r ? 1 : -1;
    for (j->n = 0; r && j->n < MAX_GAMES; j->n++) {
        xq_game_init(&j->g[j->n]);
        if ((j->rc = xq_reader_next(r, &j->g[j->n])) <= 0) {
            xq_game_free(&j->g[j->n]);
            break;
        }
    }
    xq_reader_close(r);
    return NULL;
}

/* PGN input does not load libxml2. */
static void pgn_leaves_libxml2_unloaded(void **state)
{
    assert_false(libxml2_mapped());
    xq_game g[MAX_GAMES];
    int n = read_path(PGN_FILE, g, MAX_GAMES, NULL);
    assert_int_equal(n, 4);
    free_all(g, n);
    assert_false(libxml2_mapped());
}

/* The first load happens in THREADS racing readers; each reads the same
 * games as a read by this thread afterwards. */
static void racing_threads_load_it_once(void **state)
{
    static xml_read_job jobs[THREADS], alone;
    pthread_barrier_t start;
    assert_int_equal(pthread_barrier_init(&start, NULL, THREADS), 0);
    pthread_t tid[THREADS];
    for (int t = 0; t < THREADS; t++) {
        jobs[t].start = &start;
        assert_int_equal(pthread_create(&tid[t], NULL, read_xml, &jobs[t]), 0);
    }
    for (int t = 0; t < THREADS; t++) pthread_join(tid[t], NULL);
    pthread_barrier_destroy(&start);
    assert_true(libxml2_mapped());
    read_xml(&alone);
    assert_int_equal(alone.rc, 0);
    assert_int_equal(alone.n, 4);
    assert_true(alone.g[0].tag_count > 0);
    assert_true(alone.g[0].main.count > 0);
    for (int t = 0; t < THREADS; t++) {
        if (jobs[t].rc) fprintf(stderr, "thread %d: %s\n", t, jobs[t].err);
        assert_int_equal(jobs[t].rc, 0);
        assert_int_equal(jobs[t].n, alone.n);
        for (int i = 0; i < alone.n; i++) same_game(&jobs[t].g[i], &alone.g[i]);
        free_all(jobs[t].g, jobs[t].n);
    }
    free_all(alone.g, alone.n);
}

/* Once loaded, every call gives the same complete table, and XML read as
 * XML, the same games as the PGN it was converted from. */
static void loaded_table_is_complete_and_stable(void **state)
{
    const char *why = "unset";
    const xq_libxml2 *a = xq_libxml2_load(&why), *b = xq_libxml2_load(NULL);
    assert_non_null(a);
    assert_ptr_equal(a, b);
    assert_string_equal(why, "unset");   /* left alone on success */
#define XQ_TEST_FIELD_SET(name) assert_non_null(a->name);
    XQ_LIBXML2_FUNCS(XQ_TEST_FIELD_SET)
#undef XQ_TEST_FIELD_SET
    xq_game x[MAX_GAMES], p[MAX_GAMES];
    xq_format fx, fp;
    int nx = read_path(XML_FILE, x, MAX_GAMES, &fx), np = read_path(PGN_FILE, p, MAX_GAMES, &fp);
    assert_int_equal(fx, XQ_FMT_XML);
    assert_int_equal(fp, XQ_FMT_PGN);
    assert_int_equal(nx, np);
    for (int i = 0; i < nx; i++) {
        assert_int_equal(x[i].main.count, p[i].main.count);
        assert_int_equal(x[i].result_code, p[i].result_code);
    }
    free_all(x, nx);
    free_all(p, np);
}

int main(int argc, char **argv)
{
    (void)argc;
    xqt_chdir_to_root(argv[0], XML_FILE);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pgn_leaves_libxml2_unloaded),
        cmocka_unit_test(racing_threads_load_it_once),
        cmocka_unit_test(loaded_table_is_complete_and_stable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
