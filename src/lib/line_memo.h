/* line_memo.h - a bounded memo of replayed main lines.
 *
 * About half the records of a real database repeat another game move for
 * move (the same game from two sources, or entered twice).  Replaying a
 * main line is a pure function of its start, its moves as decoded and the
 * rule options, so the replay (replay.c) keeps what a replay found under
 * a key made of exactly those, and a later game with the same key takes it
 * from here instead of playing its moves again.
 *
 * The memo itself knows nothing of games: it maps a key (bytes) to a
 * value (bytes), both copied in.  Entries are written one after another
 * into a ring of XQ_LINE_MEMO_BYTES; a new entry overwrites the oldest
 * ones, so the memory stays bounded whatever the input (the ring is
 * allocated by the first xq_line_memo_add; its pages are touched only as
 * they are written).  A table of 4-way buckets finds an entry by the
 * key's hash; a key is compared in full before its value is handed out,
 * so a hash collision costs a lookup, never a wrong value.
 *
 * Caller-owned; zero-initialise (`xq_line_memo m = {0};`), free with
 * xq_line_memo_free.  One thread at a time, unless shared
 * (xq_line_memo_share): then every use is between xq_line_memo_lock and
 * xq_line_memo_unlock (a pipeline's threads share one: pipeline.h).
 */
#ifndef XQ_LINE_MEMO_H
#define XQ_LINE_MEMO_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The ring's size in bytes (a power of two), the table's slots, and the
 * entries a bucket holds (its slots share a cache line).  On masters.pgn
 * an entry takes about 475 bytes (2 bytes of key and 2 of moves per ply,
 * 87 plies a game), 305 without the moves (xq_replay_options.no_moves,
 * xq-validate's), some 40 fewer without the final position (no_final,
 * every tool's): 16 MiB keep the last 35,000 or so different games
 * (55,000 without the moves), all of masters.pgn's 27,800 (8 MiB kept
 * 17,000 and cost 5% more instructions there).  Only the bytes written
 * are touched: a masters.pgn run writes 13.2 MB (8.5 MB without moves). */
enum { XQ_LINE_MEMO_BYTES = 16 << 20, XQ_LINE_MEMO_SLOTS = 1 << 17, XQ_LINE_MEMO_WAYS = 4 };

typedef struct {
    uint8_t *ring;        /* in slot's mapping: XQ_LINE_MEMO_BYTES, NULL until the first entry */
    uint64_t *slot;       /* owned: XQ_LINE_MEMO_SLOTS, 1 + an entry's ring position (low 40 bits;
                             0 for none) and the top 24 bits of its hash; the ring follows it in
                             one mapping (line_memo.c) */
    uint64_t head;        /* ring position of the next entry (counts every byte ever written:
                             an entry at position p is intact while head - p <= the ring's size) */
    bool shared;          /* xq_line_memo_share was called: lock is in use */
    pthread_mutex_t lock;
} xq_line_memo;

/* A 64-bit hash of len bytes (any alignment), as the memo files keys by:
 * its low bits choose the bucket (XQ_LINE_MEMO_BUCKET_BITS), its top 24
 * are the slot's tag. */
uint64_t xq_line_memo_hash(const void *bytes, size_t len);

/* The bits of a hash that choose its bucket. */
#define XQ_LINE_MEMO_BUCKET_BITS ((uint64_t)(XQ_LINE_MEMO_SLOTS - XQ_LINE_MEMO_WAYS))

/* The value kept for the key (key_len bytes; hash a function of the
 * key alone, the same for every use of the memo: xq_line_memo_hash of its
 * bytes, or of some of them as the replay's line_key_hash), or NULL;
 * *value_len its length.  The value stays valid until the next
 * xq_line_memo_add or xq_line_memo_free (shared: until the lock is
 * released). */
const void *xq_line_memo_find(const xq_line_memo *m, uint64_t hash, const void *key, size_t key_len,
                              size_t *value_len);

/* Start loading the table's bucket for hash into the cache, so that an
 * xq_line_memo_find of it a little later need not wait for memory (the
 * bucket is at a random place in a megabyte, most often not cached).  A
 * hint: no effect on any result.  Only for an unshared memo (a shared
 * one's table is read under its lock); nothing before the first entry. */
static inline void xq_line_memo_prefetch(const xq_line_memo *m, uint64_t hash)
{
    if (!m->shared && m->slot) __builtin_prefetch(&m->slot[hash & XQ_LINE_MEMO_BUCKET_BITS]);
}

/* A new entry for key (key_len bytes, copied; hash as for find) with
 * room for a value of value_len bytes, which the caller writes at the
 * pointer returned before the memo is used again (shared: before the
 * lock is released); NULL when the entry
 * would take more than an eighth of the ring, or memory could not be had
 * (then nothing is kept: the memo only spares work). */
void *xq_line_memo_add(xq_line_memo *m, uint64_t hash, const void *key, size_t key_len, size_t value_len);

/* Make *m (zeroed, or freed) usable by several threads, each use between
 * xq_line_memo_lock and xq_line_memo_unlock; false when the lock cannot
 * be made (then *m stays unshared: keep it to one thread). */
bool xq_line_memo_share(xq_line_memo *m);

/* Take and release a shared memo's lock; nothing for an unshared one. */
void xq_line_memo_lock(xq_line_memo *m);
void xq_line_memo_unlock(xq_line_memo *m);

/* Free what *m owns (its lock too) and zero it (it may be used again).
 * No thread may be using it.  NULL: nothing. */
void xq_line_memo_free(xq_line_memo *m);

#endif
