/* pipeline.c - ordered parallel processing of games (see pipeline.h).
 *
 * A ring of slots: the calling thread reads game i into slot i % n once
 * game i - n has been emitted; workers claim read games in order; the
 * calling thread emits slots in order as they are done.  -j N runs N - 1
 * workers: the calling thread is the N-th, reading, and processing games
 * itself whenever the ring is full, so N threads share N cores (a reader
 * beside N workers on N cores left the reader a share of a core that it
 * needed whole). */
#include "pipeline.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Games a worker claims at once, and the backlog that wakes a worker: one
 * wake-up (a futex round trip) per game cost more than the replay of a
 * short game. */
enum { CLAIM_BATCH = 8 };

typedef struct {
    const xq_pipeline_options *opt;
    xq_slot *slots;
    size_t nslots;
    pthread_mutex_t lock;
    pthread_cond_t ready, done;
    size_t read_count, claim_count;   /* games read; games claimed by workers */
    int eof;
} ring;

int xq_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

static bool slot_open_streams(xq_slot *s)
{
    s->out = open_memstream(&s->out_buf, &s->out_len);
    s->err = open_memstream(&s->err_buf, &s->err_len);
    return s->out && s->err;
}

/* Write the slot's buffered output and account for it; ready it for reuse. */
static void emit(const xq_pipeline_options *opt, xq_slot *s)
{
    fflush(s->out);
    fflush(s->err);
    if (s->out_len) fwrite(s->out_buf, 1, s->out_len, opt->out ? opt->out : stdout);
    if (s->err_len) fwrite(s->err_buf, 1, s->err_len, stderr);
    if (opt->account) opt->account(opt->ctx, s);
    rewind(s->out);
    rewind(s->err);
    s->out_len = s->err_len = 0;
    /* rewinding a memstream keeps its buffer; the length restarts at 0 */
}

static void *worker(void *arg)
{
    ring *r = arg;
    for (;;) {
        pthread_mutex_lock(&r->lock);
        while (r->claim_count == r->read_count && !r->eof) pthread_cond_wait(&r->ready, &r->lock);
        if (r->claim_count == r->read_count) {
            pthread_mutex_unlock(&r->lock);
            return NULL;
        }
        size_t first = r->claim_count, n = r->read_count - first;
        if (n > CLAIM_BATCH) n = CLAIM_BATCH;
        r->claim_count += n;
        pthread_mutex_unlock(&r->lock);
        for (size_t k = 0; k < n; k++) r->opt->process(r->opt->ctx, &r->slots[(first + k) % r->nslots]);
        pthread_mutex_lock(&r->lock);
        for (size_t k = 0; k < n; k++) r->slots[(first + k) % r->nslots].done = 1;
        pthread_cond_broadcast(&r->done);
        pthread_mutex_unlock(&r->lock);
    }
}

/* Wait until slot s is done, processing read games that no worker has
 * claimed yet in the meantime (one at a time, so that reading resumes as
 * soon as s is done). */
static void help_until_done(ring *r, xq_slot *s)
{
    pthread_mutex_lock(&r->lock);
    while (!s->done) {
        if (r->claim_count < r->read_count) {
            xq_slot *mine = &r->slots[r->claim_count++ % r->nslots];
            pthread_mutex_unlock(&r->lock);
            r->opt->process(r->opt->ctx, mine);
            pthread_mutex_lock(&r->lock);
            mine->done = 1;
            continue;
        }
        pthread_cond_broadcast(&r->ready);   /* a smaller backlog than a batch: take it now */
        pthread_cond_wait(&r->done, &r->lock);
    }
    s->done = 0;
    pthread_mutex_unlock(&r->lock);
}

static void free_slots(xq_slot *slots, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        xq_game_free(&slots[i].game);
        if (slots[i].out) fclose(slots[i].out);
        if (slots[i].err) fclose(slots[i].err);
        free(slots[i].out_buf);
        free(slots[i].err_buf);
        free(slots[i].user);
    }
    free(slots);
}

/* -j 1: the same steps without threads. */
static int run_serial(xq_reader *rd, const xq_pipeline_options *opt, const char **err_msg)
{
    xq_slot *s = calloc(1, sizeof *s);
    if (!s || !slot_open_streams(s) || (opt->user_size && !(s->user = calloc(1, opt->user_size)))) {
        if (s) free_slots(s, 1);
        *err_msg = "out of memory";
        return -1;
    }
    xq_game_init(&s->game);
    int st;
    while ((st = xq_reader_next(rd, &s->game)) == 1) {
        opt->process(opt->ctx, s);
        emit(opt, s);
    }
    free_slots(s, 1);
    return st < 0 ? -1 : 0;
}

int xq_pipeline_run(xq_reader *rd, const xq_pipeline_options *opt, const char **err_msg)
{
    *err_msg = NULL;
    if (opt->threads <= 1) return run_serial(rd, opt, err_msg);

    ring r;
    memset(&r, 0, sizeof r);
    r.opt = opt;
    r.nslots = (size_t)opt->threads * 4 * CLAIM_BATCH;
    r.slots = calloc(r.nslots, sizeof *r.slots);
    if (!r.slots) {
        *err_msg = "out of memory";
        return -1;
    }
    for (size_t i = 0; i < r.nslots; i++) {
        xq_game_init(&r.slots[i].game);
        if (!slot_open_streams(&r.slots[i]) ||
            (opt->user_size && !(r.slots[i].user = calloc(1, opt->user_size)))) {
            free_slots(r.slots, r.nslots);
            *err_msg = "out of memory";
            return -1;
        }
    }
    pthread_mutex_init(&r.lock, NULL);
    pthread_cond_init(&r.ready, NULL);
    pthread_cond_init(&r.done, NULL);
    int nworkers = opt->threads - 1;   /* the calling thread is one more */
    pthread_t *tids = calloc((size_t)nworkers, sizeof *tids);
    int started = 0;
    for (; tids && started < nworkers; started++)
        if (pthread_create(&tids[started], NULL, worker, &r) != 0) break;

    int st = 1;
    size_t emitted = 0;
    if (!tids) {
        *err_msg = "out of memory";
        st = -1;
    }
    while (st == 1) {
        size_t i = r.read_count;
        xq_slot *s = &r.slots[i % r.nslots];
        if (i >= r.nslots) {          /* the slot still holds game i - nslots */
            help_until_done(&r, s);
            emit(opt, s);
            emitted++;
        }
        st = xq_reader_next(rd, &s->game);
        if (st != 1) break;
        pthread_mutex_lock(&r.lock);
        r.read_count++;
        if (r.read_count - r.claim_count >= CLAIM_BATCH) pthread_cond_signal(&r.ready);
        pthread_mutex_unlock(&r.lock);
    }
    pthread_mutex_lock(&r.lock);
    r.eof = 1;
    pthread_cond_broadcast(&r.ready);
    pthread_mutex_unlock(&r.lock);
    for (; emitted < r.read_count; emitted++) {
        xq_slot *s = &r.slots[emitted % r.nslots];
        help_until_done(&r, s);
        emit(opt, s);
    }
    for (int k = 0; k < started; k++) pthread_join(tids[k], NULL);
    free(tids);
    pthread_cond_destroy(&r.ready);
    pthread_cond_destroy(&r.done);
    pthread_mutex_destroy(&r.lock);
    free_slots(r.slots, r.nslots);
    return st < 0 ? -1 : 0;
}
