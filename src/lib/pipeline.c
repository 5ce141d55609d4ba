/* pipeline.c - ordered parallel processing of games (see pipeline.h).
 *
 * Leader/follower: -j N runs N - 1 workers beside the calling thread, and
 * every one of the N threads loops the same way: under the reader lock it
 * reads the next few games (a batch) into slots it owns, notes their
 * sequence numbers, and lets the lock go; it replays them itself; then,
 * under the output lock, it files them as done and emits, in input order,
 * every done game at the head of the sequence, whichever thread read them.
 *
 * Why not one reader feeding workers: the parsed game (node arrays, the
 * record's bytes, move texts, tags: hundreds of MB for a large corpus) was
 * written on the reading core and replayed on another, and slots reused
 * round robin bounced their cache lines between cores: -j2 cost 30% more
 * CPU than -j1 for the same instructions.  Here a game is read and
 * replayed on one core, and each thread reuses only its own slots; what
 * moves between cores is the reader's state, the input buffer, and the
 * (small) output on its way out.
 *
 * Memory: each thread owns SETS sets of CLAIM_BATCH slots and reads into
 * its next set only once every game of it has been emitted, so at most
 * threads * SETS * CLAIM_BATCH games are in flight, whatever the input. */
#include "pipeline.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef __GLIBC__
#include <stdio_ext.h>   /* __fpending: bytes in a stream's buffer */
#define XQ_HAVE_FPENDING 1
#endif

/* Games read at once under the reader lock: one lock hand-over (a futex
 * round trip when contended) per game cost more than a short game's
 * replay, and each hand-over moves the reader's state and input buffer to
 * another core.  SETS batches per thread let a thread read its next batch
 * while its last one waits for an earlier game of another thread.
 * Measured on masters, -j2 on 2 cores, runs interleaved: 16 x 2 took
 * 1.00 s CPU (0.58 s wall), 8 x 4 1.02 s, 8 x 2 and 4 x 2 no better;
 * -j1 0.97 s, the former single reader 1.27 s (0.67 s wall). */
enum { CLAIM_BATCH = 16, SETS = 2, THREAD_SLOTS = SETS * CLAIM_BATCH };

typedef struct ring ring;

/* One thread's share: its own slots, used a set of CLAIM_BATCH at a time
 * round robin.  Only its thread touches it (besides the emitter reading
 * filed slots under the output lock). */
typedef struct {
    _Alignas(64) ring *r;     /* a crew a cache line or more: its memo is written often */
    xq_slot *slots;           /* THREAD_SLOTS, cache-line aligned, in slots_mem; NULL until the
                                 crew's thread runs (crew_slots_alloc) */
    void *slots_mem;          /* owned: the block slots is in */
    size_t end[SETS];         /* 1 + sequence number of the set's last game; 0 = never used */
    unsigned next_set;
    xq_replay_memo *memo;     /* the thread's memo, shared by its slots (slot->memo) */
    xq_replay_memo own_memo;  /* memo when the caller keeps none (opt->memos NULL) */
} crew;

struct ring {
    const xq_pipeline_options *opt;
    /* reader side, under rlock */
    pthread_mutex_t rlock;
    xq_reader *rd;
    size_t read_count;        /* games read so far = the next sequence number */
    int status;               /* 1 while reading, then 0 (end) or -1 (read error) */
    /* output side, under olock; on its own cache line, away from the reader's */
    _Alignas(64) pthread_mutex_t olock;
    pthread_cond_t freed;     /* broadcast when games were emitted */
    size_t emitted;           /* games emitted so far = the sequence number of the head */
    xq_slot **order;          /* [seq % cap]: the slot of game seq once done, else NULL */
    size_t cap;               /* threads * THREAD_SLOTS >= games in flight */
    xq_line_memo lines;       /* the main lines the crews' own memos share (opt->memos NULL) */
    /* the calling thread's, before and after the workers run */
    crew *crews;              /* threads of them; crews[0] is the calling thread's */
    pthread_t *tids;          /* [1 .. started) the workers started */
    int threads, started;
    bool workers_due;         /* start_workers is yet to be called */
    bool out_of_memory;       /* reading stopped for want of memory (status -1); under rlock */
    bool incomplete;          /* a game's output or findings were cut short (emit); under olock */
};

int xq_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

int xq_pipeline_threads(const xq_reader *rd, bool light)
{
    int n = xq_cpu_count();
    if (light && n > 1 && xq_reader_inflating(rd)) n--;
    return n;
}

/* Make a zeroed slot (its game then an empty one: xq_game_init) ready
 * for a game: its memory streams and the tool's scratch; what an earlier
 * call made stays.  Done when a game is first read into the slot, so a
 * small file sets up only the slots it fills (64 slots' streams and
 * pages made up front cost 6 ms of page faults a file at -j2, most of a
 * small file's run).  False when memory ran out. */
static bool slot_ready(xq_slot *s, size_t user_size)
{
    if (!s->out) s->out = open_memstream(&s->out_buf, &s->out_len);
    if (!s->err) s->err = open_memstream(&s->err_buf, &s->err_len);
    if (user_size && !s->user) s->user = calloc(1, user_size);
    return s->out && s->err && (!user_size || s->user);
}

/* Whether stream f may hold bytes that a fflush would pass on: with
 * glibc, exactly when __fpending says so; elsewhere always.
 * For a memory stream nothing was written to since its last rewind (most
 * games write nothing to one of them, a valid game under -q to either),
 * this spares the fflush, its lock and its sync, about 60 instructions. */
static bool stream_pending(FILE *f)
{
#ifdef XQ_HAVE_FPENDING
    return __fpending(f) != 0;
#else
    (void)f;
    return true;
#endif
}

/* ferror(f), without the stream's lock where the C library has the
 * unlocked form (glibc: an inline read of the flags): a slot's streams
 * are used by one thread at a time, the worker's writes ordered before
 * the emitter's reads by the output lock. */
static bool stream_error(FILE *f)
{
#ifdef XQ_HAVE_FPENDING
    return ferror_unlocked(f) != 0;
#else
    return ferror(f) != 0;
#endif
}

/* What xq_pipeline_run says when a game's output or findings were cut
 * short for want of memory (emit). */
static const char INCOMPLETE[] = "out of memory: a game's record, output or findings are incomplete";

/* Write the slot's buffered output and account for it; ready it for
 * reuse.  False when memory ran out for the game: its record was read
 * incompletely (xq_game.out_of_memory), a write to its memory streams
 * failed (the stream's error, which the rewind below clears), or its
 * replay could not judge a repetition (xq_replay.out_of_memory): what was
 * written is passed on, and the run must fail. */
static bool emit(const xq_pipeline_options *opt, xq_slot *s)
{
    /* out_len and err_len are up to date once the streams are flushed */
    if (stream_pending(s->out)) fflush(s->out);
    if (stream_pending(s->err)) fflush(s->err);
    bool complete = !stream_error(s->out) && !stream_error(s->err) && !s->replay.out_of_memory &&
                    !s->game.out_of_memory;
    if (s->out_len) fwrite(s->out_buf, 1, s->out_len, opt->out ? opt->out : stdout);
    if (s->err_len) fwrite(s->err_buf, 1, s->err_len, stderr);
    if (opt->account) opt->account(opt->ctx, s);
    /* rewinding a memstream keeps its buffer; the length restarts at 0.
     * A stream nothing was written to since (most games write nothing to
     * one of them, a valid game under -q to either) is at 0 already: only
     * a write error, which rewind clears, would make it worth the call */
    if (s->out_len || stream_error(s->out)) rewind(s->out);
    if (s->err_len || stream_error(s->err)) rewind(s->err);
    s->out_len = s->err_len = 0;
    return complete;
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
}

void xq_pipeline_memos_free(xq_pipeline_memos *m)
{
    if (!m) return;
    for (int t = 0; t < m->count; t++) xq_replay_memo_free(&m->memo[t]);
    free(m->memo);
    xq_line_memo_free(&m->lines);
    m->memo = NULL;
    m->count = 0;
}

/* The caller's memos for n threads, made as needed, sharing its memo of
 * main lines when n > 1 (one thread needs no lock); NULL when memory ran
 * out or the lock could not be made. */
static xq_replay_memo *memos_for(xq_pipeline_memos *memos, int n)
{
    if (memos->count < n) {
        xq_replay_memo *m = realloc(memos->memo, (size_t)n * sizeof *m);
        if (!m) return NULL;
        memset(m + memos->count, 0, (size_t)(n - memos->count) * sizeof *m);
        memos->memo = m;
        memos->count = n;
    }
    if (n > 1 && !xq_line_memo_share(&memos->lines)) return NULL;
    for (int t = 0; t < memos->count; t++) memos->memo[t].shared_lines = &memos->lines;
    return memos->memo;
}

/* -j 1: the same steps without threads. */
static int run_serial(xq_reader *rd, const xq_pipeline_options *opt, const char **err_msg)
{
    xq_slot *s = calloc(1, sizeof *s);
    if (!s || !slot_ready(s, opt->user_size)) {
        if (s) free_slots(s, 1);
        free(s);
        *err_msg = "out of memory";
        return -1;
    }
    xq_replay_memo own = {0};
    s->memo = opt->memos ? memos_for(opt->memos, 1) : &own;
    if (!s->memo) {
        free_slots(s, 1);
        free(s);
        *err_msg = "out of memory";
        return -1;
    }
    int st;
    bool complete = true;
    while ((st = xq_reader_next(rd, &s->game)) == 1) {
        opt->process(opt->ctx, s);
        complete &= emit(opt, s);
    }
    xq_replay_memo_free(&own);
    free_slots(s, 1);
    free(s);
    if (!complete && st >= 0) {
        *err_msg = INCOMPLETE;
        return -1;
    }
    return st < 0 ? -1 : 0;
}

/* Under rlock: read up to CLAIM_BATCH games into c's slots from slots
 * on; *first = the sequence number of the first.  Returns how many were
 * read; 0 once the input is over (the end or an error, kept in
 * r->status: reading stops there for every thread, as in the serial
 * loop; a slot that cannot be made ready is an error too). */
static size_t read_batch(ring *r, const crew *c, xq_slot *slots, size_t *first)
{
    size_t n = 0;
    pthread_mutex_lock(&r->rlock);
    *first = r->read_count;
    while (r->status == 1 && n < CLAIM_BATCH) {
        if (!slot_ready(&slots[n], r->opt->user_size)) {
            r->status = -1;
            r->out_of_memory = true;
            break;
        }
        slots[n].memo = c->memo;
        int st = xq_reader_next(r->rd, &slots[n].game);
        if (st == 1) n++;
        else r->status = st;
    }
    r->read_count += n;
    pthread_mutex_unlock(&r->rlock);
    return n;
}

/* Under olock: emit the done games at the head, in order, and wake the
 * threads that wait for their slots. */
static void drain(ring *r)
{
    size_t from = r->emitted;
    xq_slot *s;
    while ((s = r->order[r->emitted % r->cap]) != NULL) {
        r->order[r->emitted % r->cap] = NULL;
        if (!emit(r->opt, s)) r->incomplete = true;
        r->emitted++;
    }
    if (r->emitted != from) pthread_cond_broadcast(&r->freed);
}

/* File n processed games, numbered from first, as done; emit what can be. */
static void publish(ring *r, xq_slot *slots, size_t first, size_t n)
{
    pthread_mutex_lock(&r->olock);
    for (size_t k = 0; k < n; k++) r->order[(first + k) % r->cap] = &slots[k];
    drain(r);
    pthread_mutex_unlock(&r->olock);
}

/* Wait until every game up to sequence number end (exclusive) was emitted,
 * so that the slots holding them may be read into again.  Cannot wait for
 * ever: the games before them were read by threads that replay them
 * without waiting (a thread waits only with no unfiled game). */
static void wait_emitted(ring *r, size_t end)
{
    pthread_mutex_lock(&r->olock);
    while (r->emitted < end) pthread_cond_wait(&r->freed, &r->olock);
    pthread_mutex_unlock(&r->olock);
}

static void *crew_run(void *arg);

/* The calling thread, its first batch read: start the workers when the
 * input goes on (a file of one batch or less is done by one thread: a
 * thread started and joined per small file cost more than the file). */
static void start_workers(ring *r)
{
    r->workers_due = false;
    if (r->status != 1) return;   /* no other thread runs yet */
    while (r->started < r->threads &&
           pthread_create(&r->tids[r->started], NULL, crew_run, &r->crews[r->started]) == 0)
        r->started++;
}

/* Each thread's slots, zeroed, on cache lines of their own (no false
 * sharing): calloc, so that a large block comes as fresh zero pages,
 * touched only as slots are used (not memset).  Owned by the crew. */
static bool crew_slots_alloc(crew *c)
{
    size_t bytes = THREAD_SLOTS * sizeof(xq_slot) + 63;
    c->slots_mem = calloc(1, bytes);
    if (!c->slots_mem) return false;
    c->slots = (xq_slot *)(((uintptr_t)c->slots_mem + 63) & ~(uintptr_t)63);
    return true;
}

/* A thread's loop, the calling thread's as well as the workers'.  A
 * worker makes its slots itself (their pages are then first touched on
 * its core); one that cannot leaves the games to the others. */
static void *crew_run(void *arg)
{
    crew *c = arg;
    ring *r = c->r;
    if (!c->slots && !crew_slots_alloc(c)) return NULL;
    for (;;) {
        unsigned set = c->next_set;
        xq_slot *slots = c->slots + (size_t)set * CLAIM_BATCH;
        wait_emitted(r, c->end[set]);
        size_t first, n = read_batch(r, c, slots, &first);
        if (n == 0) return NULL;
        if (c == r->crews && r->workers_due) start_workers(r);
        c->end[set] = first + n;
        c->next_set = (set + 1) % SETS;
        for (size_t k = 0; k < n; k++) r->opt->process(r->opt->ctx, &slots[k]);
        publish(r, slots, first, n);
    }
}

static void crews_free(crew *crews, int n)
{
    for (int t = 0; t < n; t++) {
        if (crews[t].slots) free_slots(crews[t].slots, THREAD_SLOTS);
        free(crews[t].slots_mem);
        xq_replay_memo_free(&crews[t].own_memo);
    }
    free(crews);
}

/* The crews (the calling thread's with its slots; the workers make
 * theirs) and the order ring; false when memory ran out. */
static bool ring_alloc(ring *r, int threads, crew **crews_out)
{
    r->cap = (size_t)threads * THREAD_SLOTS;
    r->order = calloc(r->cap, sizeof *r->order);
    crew *crews = aligned_alloc(_Alignof(crew), (size_t)threads * sizeof *crews);
    if (crews) memset(crews, 0, (size_t)threads * sizeof *crews);
    *crews_out = crews;
    if (!r->order || !crews) return false;
    xq_replay_memo *kept = r->opt->memos ? memos_for(r->opt->memos, threads) : NULL;
    if (r->opt->memos ? !kept : !xq_line_memo_share(&r->lines)) return false;
    for (int t = 0; t < threads; t++) {
        crews[t].r = r;
        crews[t].memo = kept ? &kept[t] : &crews[t].own_memo;
        crews[t].own_memo.shared_lines = &r->lines;
    }
    return crew_slots_alloc(&crews[0]);
}

int xq_pipeline_run(xq_reader *rd, const xq_pipeline_options *opt, const char **err_msg)
{
    *err_msg = NULL;
    int threads = opt->threads > 0 ? opt->threads : xq_pipeline_threads(rd, opt->light);
    if (threads <= 1) return run_serial(rd, opt, err_msg);

    ring r;
    memset(&r, 0, sizeof r);
    r.opt = opt;
    r.rd = rd;
    r.status = 1;
    crew *crews = NULL;
    pthread_t *tids = calloc((size_t)threads, sizeof *tids);
    if (!tids || !ring_alloc(&r, threads, &crews)) {
        if (crews) crews_free(crews, threads);
        xq_line_memo_free(&r.lines);
        free(r.order);
        free(tids);
        *err_msg = "out of memory";
        return -1;
    }
    pthread_mutex_init(&r.rlock, NULL);
    pthread_mutex_init(&r.olock, NULL);
    pthread_cond_init(&r.freed, NULL);
    r.crews = crews;
    r.tids = tids;
    r.threads = threads;
    r.started = 1;   /* crews[0] is the calling thread's: it starts the others (start_workers) */
    r.workers_due = true;
    crew_run(&crews[0]);
    for (int t = 1; t < r.started; t++) pthread_join(tids[t], NULL);
    /* every game was filed, and the last filing emitted all of them */
    pthread_cond_destroy(&r.freed);
    pthread_mutex_destroy(&r.olock);
    pthread_mutex_destroy(&r.rlock);
    crews_free(crews, threads);
    xq_line_memo_free(&r.lines);
    free(r.order);
    free(tids);
    if (r.out_of_memory) *err_msg = "out of memory";
    else if (r.incomplete && r.status >= 0) *err_msg = INCOMPLETE;
    return r.status < 0 || r.incomplete ? -1 : 0;
}
