/* test_pipeline.c - the threaded pipeline (pipeline.c) against the serial
 * one: the same output, byte for byte, and every game accounted once, in
 * input order, one call at a time, with at most 32 * threads games in
 * flight; at the end of the file, after a read error (cut gzip data), with
 * fewer games than threads, and with none; a file of one batch (16 games)
 * or less is done by the calling thread alone; a game that ran out of
 * memory fails the run without losing the others. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "pipeline.h"

/* What the callbacks share: checks the pipeline's promises as it runs. */
typedef struct {
    int threads;
    atomic_ullong accounted;   /* games accounted so far */
    atomic_int in_account;     /* 1 while account runs */
    atomic_int max_ahead;      /* largest index - accounted seen in process */
    unsigned long long order_errors, overlap_errors;
    /* each memo seen and the thread that used it first: a memo must stay
     * with one thread (pipeline.h, slot->memo) */
    pthread_mutex_t memo_lock;
    const xq_replay_memo *memos[64];
    pthread_t memo_thread[64];
    int nmemos;
    unsigned long long memo_errors;
    pthread_t caller;            /* the thread that called xq_pipeline_run */
    atomic_ullong on_workers;    /* games processed on another thread */
} run_check;

/* Note that this thread uses memo m; count an error if another did. */
static void check_memo_owner(run_check *c, const xq_replay_memo *m)
{
    pthread_mutex_lock(&c->memo_lock);
    int k = 0;
    while (k < c->nmemos && c->memos[k] != m) k++;
    if (m == NULL) c->memo_errors++;
    else if (k < c->nmemos) {
        if (!pthread_equal(c->memo_thread[k], pthread_self())) c->memo_errors++;
    } else if (k < 64) {
        c->memos[k] = m;
        c->memo_thread[k] = pthread_self();
        c->nmemos++;
    }
    pthread_mutex_unlock(&c->memo_lock);
}

/* Write what identifies the game; now and then pause so that games finish
 * out of order, and note how far reading ran ahead of accounting. */
static void process(void *ctx, xq_slot *slot)
{
    run_check *c = ctx;
    const xq_game *g = &slot->game;
    int ahead = (int)(g->index - atomic_load(&c->accounted));
    int seen = atomic_load(&c->max_ahead);
    while (ahead > seen && !atomic_compare_exchange_weak(&c->max_ahead, &seen, ahead)) {}
    if (g->index % 37 == 5 || g->index % 101 == 0) {
        struct timespec ts = {0, (long)(g->index % 7) * 100000L};
        nanosleep(&ts, NULL);
    }
    /* the records repeat a cycle of moves: the judge runs, with the
     * thread's memo, and its verdict must not depend on what that memo
     * saw before (other games, another thread's share of them) */
    check_memo_owner(c, slot->memo);
    if (!pthread_equal(pthread_self(), c->caller)) atomic_fetch_add(&c->on_workers, 1);
    xq_replay_options ro;
    xq_replay_options_default(&ro);
    xq_replay_game_memo(&slot->game, &ro, slot->memo, &slot->replay);
    const xq_replay *r = &slot->replay;
    /* (the verdict only when repeated: else it is an earlier game's, replay.h) */
    fprintf(slot->out, "game %llu line %llu bytes %zu nodes %zu plies %d repeated %d at %d-%d: %s\n",
            (unsigned long long)g->index, (unsigned long long)g->first_line, g->raw_len, g->main.count, r->plies,
            r->repeated, r->repeated ? r->repetition.first_ply : 0, r->repeated ? r->repetition.last_ply : 0,
            r->repeated ? r->repetition.reason : "");
    fwrite(g->raw, 1, g->raw_len, slot->out);
}

/* Must be called for game 1, 2, 3 ... in turn, never two at once. */
static void account(void *ctx, xq_slot *slot)
{
    run_check *c = ctx;
    if (atomic_exchange(&c->in_account, 1)) c->overlap_errors++;
    if (slot->game.index != atomic_load(&c->accounted) + 1) c->order_errors++;
    atomic_fetch_add(&c->accounted, 1);
    atomic_store(&c->in_account, 0);
}

/* Run path through the pipeline on threads threads (0: the default,
 * light work); the output (malloc'd) goes to *out, its status is
 * returned, the accounted games to *games, the games processed by a
 * thread other than the caller's to *on_workers (when not NULL). */
static int run_on(const char *path, int threads, char **out, unsigned long long *games,
                  unsigned long long *on_workers)
{
    char err[256];
    xq_reader *rd = xq_reader_open(path, NULL, err, sizeof err);
    assert_non_null(rd);
    int asked = threads;
    if (threads == 0) threads = xq_pipeline_threads(rd, true);
    size_t len = 0;
    FILE *f = open_memstream(out, &len);
    assert_non_null(f);
    run_check c = {.threads = threads, .caller = pthread_self()};
    pthread_mutex_init(&c.memo_lock, NULL);
    xq_pipeline_options po = {.threads = asked, .light = true, .out = f, .ctx = &c, .process = process,
                               .account = account};
    const char *why = NULL;
    int st = xq_pipeline_run(rd, &po, &why);
    fclose(f);
    xq_reader_close(rd);
    assert_null(why);
    assert_int_equal(c.order_errors, 0);
    assert_int_equal(c.overlap_errors, 0);
    assert_int_equal(c.memo_errors, 0);
    assert_true(c.nmemos <= threads && (c.nmemos >= 1 || atomic_load(&c.accounted) == 0));
    pthread_mutex_destroy(&c.memo_lock);
    assert_true(atomic_load(&c.max_ahead) <= 32 * threads);
    *games = atomic_load(&c.accounted);
    if (on_workers) *on_workers = atomic_load(&c.on_workers);
    return st;
}

static int run(const char *path, int threads, char **out, unsigned long long *games)
{
    return run_on(path, threads, out, games, NULL);
}

/* ngames records of varied lengths (0 to 60 plies), as PGN text. */
static char *make_pgn(int ngames, size_t *n)
{
    /* legal moves that bring the start position back every 4 plies */
    static const char *cycle[] = {"h2e2", "h9g7", "e2h2", "g7h9", "b2e2", "b9c7", "e2b2", "c7b9"};
    char *text;
    FILE *f = open_memstream(&text, n);
    assert_non_null(f);
    for (int i = 0; i < ngames; i++) {
        fprintf(f, "[Game \"%d\"]\n[Event \"pipeline test\"]\n\n", i + 1);
        int plies = (i * 7919) % 61;
        for (int p = 0; p < plies; p++) {
            if (p % 2 == 0) fprintf(f, "%d. ", p / 2 + 1);
            fprintf(f, "%s%s", cycle[p % 8], p % 10 == 9 ? "\n" : " ");
        }
        fputs("*\n\n", f);
    }
    fclose(f);
    return text;
}

static void save(const void *p, size_t n, char path[64], bool gzip, size_t cut)
{
    strcpy(path, "/tmp/xq-test-pipe-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    if (!gzip) {
        assert_int_equal(write(fd, p, n), (ssize_t)n);
        close(fd);
        return;
    }
    close(fd);
    gzFile z = gzopen(path, "wb");
    assert_non_null(z);
    assert_int_equal(gzwrite(z, p, (unsigned)n), (int)n);
    gzclose(z);
    if (cut) {
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        fseek(f, 0, SEEK_END);
        long len = ftell(f);
        fclose(f);
        assert_int_equal(truncate(path, (off_t)((size_t)len * cut / 100)), 0);
    }
}

/* Every thread count gives the serial run's status, output and count. */
static void same_as_serial(const char *path, unsigned long long want_min)
{
    char *base;
    unsigned long long base_games;
    int base_st = run(path, 1, &base, &base_games);
    assert_true(base_games >= want_min);
    static const int threads[] = {0, 2, 3, 4, 7};   /* (0: the default) */
    for (size_t k = 0; k < sizeof threads / sizeof *threads; k++)
        for (int rep = 0; rep < 3; rep++) {
            char *out;
            unsigned long long games;
            int st = run(path, threads[k], &out, &games);
            assert_int_equal(st, base_st);
            assert_int_equal(games, base_games);
            assert_string_equal(out, base);
            free(out);
        }
    free(base);
}

static void test_many_games(void **state)
{
    size_t n;
    char *text = make_pgn(1500, &n), path[64];
    save(text, n, path, false, 0);
    same_as_serial(path, 1500);
    unlink(path);
    free(text);
}

/* A read error ends every thread; the games read before it all come out. */
static void test_read_error(void **state)
{
    size_t n;
    char *text = make_pgn(1500, &n), path[64];
    save(text, n, path, true, 60);
    char *out;
    unsigned long long games;
    assert_int_equal(run(path, 1, &out, &games), -1);
    free(out);
    assert_true(games > 100 && games < 1500);
    same_as_serial(path, 100);
    unlink(path);
    free(text);
}

static void test_few_games(void **state)
{
    for (int ngames = 0; ngames <= 9; ngames += 3) {
        size_t n;
        char *text = make_pgn(ngames, &n), path[64];
        save(text, n, path, false, 0);
        same_as_serial(path, (unsigned long long)ngames);
        unlink(path);
        free(text);
    }
}

/* Up to one batch of games (CLAIM_BATCH, 16): no worker is started, the
 * calling thread does all (a thread per small file cost more than the
 * file); one game more and the output is still the serial run's. */
static void test_one_batch(void **state)
{
    static const int counts[] = {1, 2, 15, 16, 17, 33};
    for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
        size_t n;
        char *text = make_pgn(counts[k], &n), path[64];
        save(text, n, path, false, 0);
        char *out;
        unsigned long long games, on_workers;
        assert_int_equal(run_on(path, 4, &out, &games, &on_workers), 0);
        assert_int_equal(games, (unsigned long long)counts[k]);
        if (counts[k] <= 16) assert_int_equal(on_workers, 0);
        free(out);
        same_as_serial(path, (unsigned long long)counts[k]);
        unlink(path);
        free(text);
    }
}

/* A game whose record or replay ran out of memory (xq_game.out_of_memory,
 * xq_replay.out_of_memory: something of it dropped or a repetition left
 * unjudged) fails the run, at every -j: every game is still processed and
 * emitted, the run returns -1 with a message. */
static int mark_every;   /* game index modulo which process_marked marks */
static bool mark_game;   /* the record's flag, else the replay's */

static void process_marked(void *ctx, xq_slot *slot)
{
    process(ctx, slot);
    if (slot->game.index % (uint64_t)mark_every == (uint64_t)mark_every - 1) {   /* games 49, 99 of 100 at 50 */
        if (mark_game) slot->game.out_of_memory = true;
        else slot->replay.out_of_memory = true;
    }
}

static void test_out_of_memory_fails(void **state)
{
    size_t n;
    char *text = make_pgn(100, &n), path[64];
    save(text, n, path, false, 0);
    static const int threads[] = {1, 2, 3};
    for (int every = 50; every <= 1000; every *= 20)   /* (1000: no game marked) */
        for (int which = 0; which < 2; which++)
            for (size_t k = 0; k < sizeof threads / sizeof *threads; k++) {
                mark_every = every;
                mark_game = which;
                char err[256];
                xq_reader *rd = xq_reader_open(path, NULL, err, sizeof err);
                assert_non_null(rd);
                char *out;
                size_t len = 0;
                FILE *f = open_memstream(&out, &len);
                run_check c = {.threads = threads[k], .caller = pthread_self()};
                pthread_mutex_init(&c.memo_lock, NULL);
                xq_pipeline_options po = {.threads = threads[k], .out = f, .ctx = &c, .process = process_marked,
                                          .account = account};
                const char *why = NULL;
                int st = xq_pipeline_run(rd, &po, &why);
                fclose(f);
                xq_reader_close(rd);
                pthread_mutex_destroy(&c.memo_lock);
                assert_int_equal(atomic_load(&c.accounted), 100);   /* every game still emitted */
                assert_int_equal(c.order_errors, 0);
                if (every == 50) {
                    assert_int_equal(st, -1);
                    assert_non_null(why);
                    assert_non_null(strstr(why, "out of memory"));
                } else {
                    assert_int_equal(st, 0);
                    assert_null(why);
                }
                free(out);
            }
    unlink(path);
    free(text);
}

/* ngames games with a comment of 200 random hex digits each: text that
 * gzip cannot shrink much, so that 1,500 of them make a gzip file of over
 * 128 KiB, which a thread of its own inflates (zin.h). */
static char *make_noisy_pgn(int ngames, size_t *n)
{
    char *text;
    FILE *f = open_memstream(&text, n);
    assert_non_null(f);
    uint64_t s = 0x9e3779b97f4a7c15u;
    for (int i = 0; i < ngames; i++) {
        fprintf(f, "[Game \"%d\"]\n\n{", i + 1);
        for (int k = 0; k < 200; k++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            putc("0123456789abcdef"[s & 15], f);
        }
        fputs("}\n1. h2e2 h9g7 2. h0g2 *\n\n", f);
    }
    fclose(f);
    return text;
}

/* The default number of threads (-j not given): every CPU, but for light
 * work one fewer on a file that a thread of its own inflates; and the
 * output is the serial run's. */
static void test_default_threads(void **state)
{
    int cpus = xq_cpu_count();
    size_t n, small_n;
    char *text = make_noisy_pgn(1500, &n), *small = make_pgn(20, &small_n);
    char big_gz[64], plain[64], small_gz[64];
    save(text, n, big_gz, true, 0);
    save(text, n, plain, false, 0);
    save(small, small_n, small_gz, true, 0);
    struct stat st;
    assert_int_equal(stat(big_gz, &st), 0);
    assert_true(st.st_size >= 128 * 1024);
    const struct {
        const char *path;
        bool inflating;
    } files[] = {{big_gz, true}, {plain, false}, {small_gz, false}};
    for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
        char err[256];
        xq_reader *rd = xq_reader_open(files[k].path, NULL, err, sizeof err);
        assert_non_null(rd);
        assert_int_equal(xq_reader_inflating(rd), files[k].inflating);
        int light = files[k].inflating && cpus > 1 ? cpus - 1 : cpus;
        assert_int_equal(xq_pipeline_threads(rd, true), light);
        assert_int_equal(xq_pipeline_threads(rd, false), cpus);
        xq_reader_close(rd);
    }
    same_as_serial(big_gz, 1500);
    unlink(big_gz);
    unlink(plain);
    unlink(small_gz);
    free(text);
    free(small);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_many_games),
        cmocka_unit_test(test_read_error),
        cmocka_unit_test(test_few_games),
        cmocka_unit_test(test_one_batch),
        cmocka_unit_test(test_out_of_memory_fails),
        cmocka_unit_test(test_default_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
