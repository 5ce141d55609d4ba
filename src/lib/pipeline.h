/* pipeline.h - process the games of a file on several cores, in input order.
 *
 * Games are read, processed and handed back in input order, so a tool's
 * output is byte-identical whatever the number of threads (issue: speed
 * and scale, "-j N").  With N threads each one in turn reads a few games
 * (under a lock: the reader is sequential) and processes them itself, so
 * a game is read and replayed on the same core.  Each game sits in a slot
 * with its own output buffers: `process` writes what the game produces to
 * slot->out and slot->err (memory streams); then, in input order and one
 * game at a time, they are written to the output (stdout by default) and
 * stderr and `account` is called for totals.
 *
 * Memory: at most 32 * threads games in flight, each in a reused slot, so it
 * does not grow with the input.
 */
#ifndef XQ_PIPELINE_H
#define XQ_PIPELINE_H

#include <stdio.h>

#include "game.h"
#include "pgn_read.h"
#include "replay.h"

/* One game in flight.  Owned by the pipeline; valid during the callbacks. */
typedef struct {
    xq_game game;
    xq_replay replay;
    FILE *out, *err;         /* memory streams the worker writes into */
    void *user;              /* per-slot scratch of the tool (see user_size) */
    xq_replay_memo *memo;    /* the processing thread's memo of repetition classifications and main lines,
                                for xq_replay_game_memo (replay.h); only that thread uses it */
    /* private */
    char *out_buf, *err_buf;
    size_t out_len, err_len;
} xq_slot;

/* The memos of the pipeline's threads (replay.h), kept by the caller
 * from one run to the next: the games of all the files of a tool's run
 * then share them (a game two files hold is replayed once) and a file
 * sets up nothing.  Each thread has its judge's memo; all share one memo
 * of main lines (under its lock), so a game repeated on another thread
 * is found too, and its memory does not grow with the threads.
 * Zero-initialise; a run makes what it lacks; release with
 * xq_pipeline_memos_free. */
typedef struct {
    xq_replay_memo *memo;    /* owned: count memos, thread t of a run uses memo[t] */
    int count;
    xq_line_memo lines;      /* the main lines every memo[t] shares (memo[t].shared_lines) */
} xq_pipeline_memos;

/* Free every memo, the array and the shared main lines, and zero *m.
 * NULL: nothing. */
void xq_pipeline_memos_free(xq_pipeline_memos *m);

typedef struct {
    int threads;             /* threads, the calling one included; 1 = no other thread;
                                0 = as many as there are CPUs, or with light one fewer for a
                                file a thread of its own inflates (xq_pipeline_threads) */
    bool light;              /* a game's processing costs about what inflating its bytes does
                                (xq-validate, xq-parse, xq-stats; not xq-convert) */
    xq_pipeline_memos *memos;/* the threads' memos, kept between runs; NULL: a run's own */
    FILE *out;               /* where slot->out goes, in order; NULL = stdout */
    size_t user_size;        /* bytes of zeroed per-slot scratch (slot->user), may be 0 */
    void *ctx;               /* passed to the callbacks */
    /* In any of the threads, several games at once: process slot->game
     * (replay into slot->replay, write output to slot->out / slot->err).
     * Must not touch shared state except read-only ctx. */
    void (*process)(void *ctx, xq_slot *slot);
    /* In input order, one game at a time (under a lock, so no two calls
     * overlap and each sees every earlier call's writes), after the slot's
     * output was written: add the game to the tool's totals.  The thread
     * may be any of the pipeline's, not necessarily the calling one. */
    void (*account)(void *ctx, xq_slot *slot);
} xq_pipeline_options;

/* Read every game of rd through the pipeline (with threads > 1, rd is read
 * from several threads, one call at a time under a lock).  Returns 0 at the
 * end of the file, -1 when the reader failed (xq_reader_error says why;
 * every game read before it has been processed and emitted) or memory
 * could not be had (then *err_msg is set to a static message): to read
 * on, or for a game's record, output or findings (slot->game.out_of_memory:
 * a part of the record dropped; a failed write to its memory streams;
 * slot->replay.out_of_memory: a repetition left unjudged);
 * in that last case every game is still read, processed and emitted, and
 * the run fails at the end.  Threads that cannot be started leave the
 * work to the others. */
int xq_pipeline_run(xq_reader *rd, const xq_pipeline_options *opt, const char **err_msg);

/* Number of online CPUs (at least 1). */
int xq_cpu_count(void);

/* The threads a run over rd uses when told 0 (-j not given): the online
 * CPUs; for light work (xq_pipeline_options.light) one fewer, at least 1,
 * when rd's data is inflated by a thread of its own (xq_reader_inflating):
 * then inflating is the limit, and a thread more only takes CPU time
 * from it.  Measured on masters.pgn.gz, 2 CPUs, medians of 5: xq-validate
 * -j1 0.208 s, -j2 0.246 s; xq-parse 0.262 s, 0.276 s; xq-stats 0.433 s,
 * 0.436 s; but xq-convert --to xml 1.669 s, 1.041 s. */
int xq_pipeline_threads(const xq_reader *rd, bool light);

#endif
