/* line_memo.c - a bounded memo of replayed main lines (see line_memo.h). */
#include "line_memo.h"

#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "huge_pages.h"

_Static_assert((XQ_LINE_MEMO_BYTES & (XQ_LINE_MEMO_BYTES - 1)) == 0, "the ring's size is a power of two");
_Static_assert((XQ_LINE_MEMO_SLOTS & (XQ_LINE_MEMO_SLOTS - 1)) == 0, "the table's size is a power of two");
_Static_assert((XQ_LINE_MEMO_WAYS & (XQ_LINE_MEMO_WAYS - 1)) == 0 && XQ_LINE_MEMO_WAYS * 8 <= 64,
               "a bucket is a power of two of slots within a cache line");
_Static_assert(XQ_LINE_MEMO_BUCKET_BITS < (UINT64_C(1) << 40), "the bucket bits are below the tag's");

/* The first slot of hash's bucket.  Four ways, not two: with two, a line
 * a full bucket dropped came back as a miss and, re-added, dropped
 * another; on an input read twice over (10x masters.pgn) those re-adds
 * used up the ring's slack and then overwrote the lines next needed, in
 * a cascade (10,000 lines a copy replayed again). */
static size_t bucket_of(uint64_t hash) { return (size_t)(hash & XQ_LINE_MEMO_BUCKET_BITS); }

/* An entry in the ring: this head, the key, the value, no padding (every
 * part is read and written with memcpy, at any alignment).  No hash: the
 * slot's tag (24 bits of it) sorts out nearly every other key before its
 * entry is read, and the key is compared in full anyway; its 8 bytes an
 * entry were fresh memory (a page's first touch costs as much as its
 * bytes' use). */
typedef struct {
    uint32_t key_len, value_len;
} entry_head;

static uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ull;
    return h ^ (h >> 33);
}

uint64_t xq_line_memo_hash(const void *bytes, size_t len)
{
    const unsigned char *p = bytes;
    uint64_t h = 0x9E3779B97F4A7C15ull ^ len;
    size_t i = 0;
    /* two lanes, 16 bytes a step: the multiplies of one lane do not wait
     * for the other's */
    uint64_t h2 = 0x6A09E667F3BCC909ull;
    for (; i + 16 <= len; i += 16) {
        uint64_t a, b;
        memcpy(&a, p + i, 8);
        memcpy(&b, p + i + 8, 8);
        h = (h ^ a) * 0x9E3779B97F4A7C15ull;
        h2 = (h2 ^ b) * 0xC2B2AE3D27D4EB4Full;
        h ^= h >> 29;
        h2 ^= h2 >> 31;
    }
    uint64_t tail[2] = {0, 0};
    memcpy(tail, p + i, len - i);
    h = (h ^ tail[0]) * 0x9E3779B97F4A7C15ull;
    h2 = (h2 ^ tail[1]) * 0xC2B2AE3D27D4EB4Full;
    return mix(h ^ (h2 >> 1) ^ (h2 << 63));
}

/* The table and the ring in one mapping, in huge pages where the system
 * has them for the asking (xq_huge_alloc): the ring is written once
 * through, and in 4 KiB pages its 2,048 first-touch faults cost this
 * machine (a VM) 8% of a masters.pgn run, more than the lookups; the
 * table (1 MiB, read at a random place every game) in 4 KiB pages costs a
 * TLB miss a lookup on top of its cache miss (a twentieth of a run's time
 * went to the lookups' stalls).  The table comes first and the ring right
 * after it: the table's huge page is touched by the first lookup anyway,
 * and its second half takes the ring's first MiB, where a table after the
 * ring's 16 MiB had a huge page of its own, half of it never used (each
 * fresh huge page is zeroed by the kernel: 1-2.5 ms on this VM).  A fresh
 * mapping reads as zeros, so the table needs no clearing. */
enum { TABLE_BYTES = XQ_LINE_MEMO_SLOTS * 8, MAP_BYTES = TABLE_BYTES + XQ_LINE_MEMO_BYTES };

/* m->slot and m->ring in one huge-page mapping (xq_huge_alloc); false
 * when it could not be had. */
static bool memo_alloc(xq_line_memo *m)
{
    uint8_t *p = xq_huge_alloc(MAP_BYTES);
    if (!p) return false;
    m->slot = (uint64_t *)(void *)p;
    m->ring = p + TABLE_BYTES;
    return true;
}

static void memo_release(xq_line_memo *m)
{
    if (m->slot) xq_huge_free(m->slot, MAP_BYTES);
}

/* A slot holds 1 + an entry's ring position in its low 40 bits (0: no
 * entry) and the top 24 bits of the entry's hash above them: a lookup of
 * a key that is not there (most games are new) reads no entry, which
 * would be a cache miss in the ring. */
enum { POS_BITS = 40 };
#define POS_MASK ((UINT64_C(1) << POS_BITS) - 1)

static uint64_t slot_tag(uint64_t hash) { return hash >> POS_BITS << POS_BITS; }

/* The entry a slot names, if its bytes are still there (not overwritten
 * since); NULL for an empty slot. */
static const unsigned char *entry_of(const xq_line_memo *m, uint64_t slot)
{
    uint64_t at1 = slot & POS_MASK;
    if (!at1 || m->head - (at1 - 1) > XQ_LINE_MEMO_BYTES) return NULL;
    return m->ring + ((at1 - 1) & (XQ_LINE_MEMO_BYTES - 1));
}

const void *xq_line_memo_find(const xq_line_memo *m, uint64_t hash, const void *key, size_t key_len,
                              size_t *value_len)
{
    if (!m->ring) return NULL;
    size_t b = bucket_of(hash);
    for (size_t s = b; s < b + XQ_LINE_MEMO_WAYS; s++) {
        if ((m->slot[s] & ~POS_MASK) != slot_tag(hash)) continue;
        const unsigned char *e = entry_of(m, m->slot[s]);
        if (!e) continue;
        entry_head h;
        memcpy(&h, e, sizeof h);
        if (h.key_len != key_len || memcmp(e + sizeof h, key, key_len)) continue;
        *value_len = h.value_len;
        return e + sizeof h + key_len;
    }
    return NULL;
}

void *xq_line_memo_add(xq_line_memo *m, uint64_t hash, const void *key, size_t key_len, size_t value_len)
{
    size_t need = sizeof(entry_head) + key_len + value_len;
    if (key_len > XQ_LINE_MEMO_BYTES / 8 || value_len > XQ_LINE_MEMO_BYTES / 8 || need > XQ_LINE_MEMO_BYTES / 8)
        return NULL;
    if (!m->ring && !memo_alloc(m)) return NULL;
    /* positions fit a slot's 40 bits (a terabyte of entries): past that,
     * start afresh */
    if (m->head + 2 * XQ_LINE_MEMO_BYTES >= POS_MASK) {
        memset(m->slot, 0, XQ_LINE_MEMO_SLOTS * sizeof *m->slot);
        m->head = 0;
    }
    /* an entry does not wrap: one that would is put at the ring's start */
    size_t off = (size_t)(m->head & (XQ_LINE_MEMO_BYTES - 1));
    if (off + need > XQ_LINE_MEMO_BYTES) m->head += XQ_LINE_MEMO_BYTES - off;
    uint64_t at = m->head;
    m->head += need;
    unsigned char *e = m->ring + (at & (XQ_LINE_MEMO_BYTES - 1));
    entry_head h = {(uint32_t)key_len, (uint32_t)value_len};
    memcpy(e, &h, sizeof h);
    memcpy(e + sizeof h, key, key_len);
    /* the bucket's empty or overwritten slot, else its older entry */
    size_t b = bucket_of(hash), s = b;
    for (size_t k = b; k < b + XQ_LINE_MEMO_WAYS; k++) {
        if (!entry_of(m, m->slot[k])) {
            s = k;
            break;
        }
        if ((m->slot[k] & POS_MASK) < (m->slot[s] & POS_MASK)) s = k;
    }
    m->slot[s] = slot_tag(hash) | (at + 1);
    return e + sizeof h + key_len;
}

bool xq_line_memo_share(xq_line_memo *m)
{
    if (!m->shared && pthread_mutex_init(&m->lock, NULL) == 0) m->shared = true;
    return m->shared;
}

void xq_line_memo_lock(xq_line_memo *m)
{
    if (m->shared) pthread_mutex_lock(&m->lock);
}

void xq_line_memo_unlock(xq_line_memo *m)
{
    if (m->shared) pthread_mutex_unlock(&m->lock);
}

void xq_line_memo_free(xq_line_memo *m)
{
    if (!m) return;
    memo_release(m);
    if (m->shared) pthread_mutex_destroy(&m->lock);
    memset(m, 0, sizeof *m);
}
