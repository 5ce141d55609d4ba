/* repetition.c - the cycle of a repeated position and the verdict on it
 * (CXA1999 §24-§26 and chapter 7; AXF rules 6-12, 32).  The moves are
 * classified by repetition_classify.c. */
#define XQ_REPETITION_INTERNAL   /* xq_classify_move_with, xq_mate_table */
#include "repetition.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <assert.h>
#include "huge_pages.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Append text[0..len) to buf[*at..size-1), cutting it short at the end. */
static void put(char *buf, size_t size, size_t *at, const char *text, size_t len)
{
    size_t room = size - 1 - *at;
    if (len > room) len = room;
    memcpy(buf + *at, text, len);
    *at += len;
}

/* snprintf that may cut the text short: reasons are one line for people.
 * Only the conversions the verdicts use, %s, %d, %c and %%, as snprintf
 * writes them (the same bytes, cut at the same place: snprintf costs ten
 * times more, once per verdict string).  size > 0. */
static void say(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t at = 0;
    for (const char *f = fmt; *f; f++) {
        const char *pct = strchr(f, '%');
        if (!pct) {
            put(buf, size, &at, f, strlen(f));
            break;
        }
        put(buf, size, &at, f, (size_t)(pct - f));
        f = pct + 1;
        if (*f == 's') {
            const char *t = va_arg(ap, const char *);
            put(buf, size, &at, t, strlen(t));
        } else if (*f == 'd') {
            char digits[16];
            int v = va_arg(ap, int), n = 0;
            unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
            do digits[sizeof digits - 1 - n++] = (char)('0' + u % 10); while (u /= 10);
            if (v < 0) digits[sizeof digits - 1 - n++] = '-';
            put(buf, size, &at, digits + sizeof digits - n, (size_t)n);
        } else if (*f == 'c') {
            char c = (char)va_arg(ap, int);
            put(buf, size, &at, &c, 1);
        } else {
            put(buf, size, &at, "%", 1);   /* %% */
            if (!*f) break;
        }
    }
    buf[at] = '\0';
    va_end(ap);
}

const char *xq_rules_str(xq_rules r) { return r == XQ_RULES_AXF ? "axf" : "cxa1999"; }

bool xq_rules_parse(const char *text, xq_rules *out)
{
    if (!text) return false;
    if (!strcasecmp(text, "cxa1999") || !strcasecmp(text, "cxa") || !strcasecmp(text, "cxa-1999")) {
        *out = XQ_RULES_CXA1999;
        return true;
    }
    if (!strcasecmp(text, "axf") || !strcasecmp(text, "asian")) {
        *out = XQ_RULES_AXF;
        return true;
    }
    return false;
}

const char *xq_rep_pattern_str(xq_rep_pattern p)
{
    static const char *const names[XQ_PAT_COUNT] = {
        [XQ_PAT_IDLE] = "idle",
        [XQ_PAT_ATTACKS_WITH_IDLE] = "attacks with idle moves",
        [XQ_PAT_PERPETUAL_CHECK] = "perpetual check",
        [XQ_PAT_PERPETUAL_MATE_THREAT] = "perpetual mate threat",
        [XQ_PAT_PERPETUAL_CHASE] = "perpetual chase",
        [XQ_PAT_CHECK_MATE_THREAT] = "one check one mate threat",
        [XQ_PAT_CHECK_CHASE] = "one check one chase",
        [XQ_PAT_MATE_THREAT_CHASE] = "one mate threat one chase",
        [XQ_PAT_CHECK_MATE_THREAT_CHASE] = "checks, mate threats and chases",
    };
    return (unsigned)p < XQ_PAT_COUNT ? names[p] : "idle";
}

/* The rule book's name of a pattern (CXA1999 §25.2, §28.10-28.12). */
static const char *pattern_zh(xq_rep_pattern p)
{
    static const char *const names[XQ_PAT_COUNT] = {
        [XQ_PAT_IDLE] = "閑",
        [XQ_PAT_ATTACKS_WITH_IDLE] = "數打一閑",
        [XQ_PAT_PERPETUAL_CHECK] = "長將",
        [XQ_PAT_PERPETUAL_MATE_THREAT] = "長殺",
        [XQ_PAT_PERPETUAL_CHASE] = "長捉",
        [XQ_PAT_CHECK_MATE_THREAT] = "一將一殺",
        [XQ_PAT_CHECK_CHASE] = "一將一捉",
        [XQ_PAT_MATE_THREAT_CHASE] = "一殺一捉",
        [XQ_PAT_CHECK_MATE_THREAT_CHASE] = "將殺捉",
    };
    return (unsigned)p < XQ_PAT_COUNT ? names[p] : "閑";
}

static const char *color_name(int c) { return c == XQ_RED ? "red" : "black"; }

static const char *kind_name(xq_kind k)
{
    static const char *const names[] = {"piece", "general", "advisor", "elephant",
                                        "horse", "chariot", "cannon", "soldier"};
    return (unsigned)k < 8 ? names[k] : "piece";
}

/* "the black horse on e5" */
static void piece_phrase(char *buf, size_t size, xq_piece p, int sq)
{
    say(buf, size, "the %s %s on %c%d", color_name(XQ_COLOR(p)), kind_name(XQ_KIND(p)),
             'a' + XQ_FILE(sq), XQ_RANK(sq));
}

static bool same_position(const xq_position *a, const xq_position *b)
{
    return a->side == b->side && !memcmp(a->board, b->board, sizeof a->board);
}

/* The pattern of a side from its counts (§25.2): forbidden when no move is idle. */
static xq_rep_pattern pattern_of(int checks, int mates, int chases, int idles)
{
    if (idles) return checks + mates + chases ? XQ_PAT_ATTACKS_WITH_IDLE : XQ_PAT_IDLE;
    int bits = (checks > 0) | (mates > 0) << 1 | (chases > 0) << 2;
    switch (bits) {
    case 1: return XQ_PAT_PERPETUAL_CHECK;
    case 2: return XQ_PAT_PERPETUAL_MATE_THREAT;
    case 4: return XQ_PAT_PERPETUAL_CHASE;
    case 3: return XQ_PAT_CHECK_MATE_THREAT;
    case 5: return XQ_PAT_CHECK_CHASE;
    case 6: return XQ_PAT_MATE_THREAT_CHASE;
    case 7: return XQ_PAT_CHECK_MATE_THREAT_CHASE;
    default: return XQ_PAT_IDLE;
    }
}

/* Per side, while walking the cycle. */
typedef struct {
    int moves, checks, mates, chases, idles;
    int soldier_attacks;      /* moves that attack counting soldier chases (§27.2) */
    uint64_t every;           /* pieces (ids) newly chased by every move (AXF rule 32) */
    uint64_t every_chase;     /* pieces chased by every chasing move */
    int first_sq[64];         /* square of each piece id when first chased, -1 */
    uint64_t chasers[64];     /* for each piece id, the ids of the pieces that chased it */
} side_acc;

/* One side's description, e.g. "perpetual chase (長捉) of the black horse on e5". */
static void describe_side(char *buf, size_t size, const xq_rep_side *s, bool axf_alternate, xq_rules rules)
{
    char victim[64] = "";
    bool chasing = s->pattern == XQ_PAT_PERPETUAL_CHASE || s->pattern == XQ_PAT_CHECK_CHASE ||
                   s->pattern == XQ_PAT_MATE_THREAT_CHASE || s->pattern == XQ_PAT_CHECK_MATE_THREAT_CHASE;
    if (chasing && s->victim_sq >= 0) {
        char p[48];
        piece_phrase(p, sizeof p, s->victim, s->victim_sq);
        say(victim, sizeof victim, " of %s", p);
    } else if (chasing) {
        say(victim, sizeof victim, " of different pieces in turn");
    }
    if (axf_alternate)
        say(buf, size, "chases of different pieces in turn (allowed, AXF rule 32)");
    else if (s->pattern == XQ_PAT_IDLE)
        say(buf, size, "idle moves (閑)");
    else if (s->pattern == XQ_PAT_ATTACKS_WITH_IDLE)
        say(buf, size, "%d check%s, %d mate threat%s, %d chase%s and %d idle move%s (數打一閑)", s->checks,
                 s->checks == 1 ? "" : "s", s->mate_threats, s->mate_threats == 1 ? "" : "s", s->chases,
                 s->chases == 1 ? "" : "s", s->idles, s->idles == 1 ? "" : "s");
    else if (rules == XQ_RULES_AXF && !s->forbidden)
        say(buf, size, "%s (%s)%s, allowed under AXF rule %s", xq_rep_pattern_str(s->pattern),
            pattern_zh(s->pattern), victim,
            s->pattern == XQ_PAT_CHECK_CHASE ? "12" : s->pattern == XQ_PAT_PERPETUAL_MATE_THREAT ||
                                                      s->pattern == XQ_PAT_CHECK_MATE_THREAT ? "9" : "9, 12");
    else
        say(buf, size, "%s (%s)%s", xq_rep_pattern_str(s->pattern), pattern_zh(s->pattern), victim);
}

/* Fill pattern, victim and (under `rules`) forbidden for one side. */
static void finish_side(xq_rep_side *s, const side_acc *a, xq_rules rules, bool *axf_alternate)
{
    s->moves = a->moves;
    s->checks = a->checks;
    s->mate_threats = a->mates;
    s->chases = a->chases;
    s->idles = a->idles;
    s->pattern = pattern_of(a->checks, a->mates, a->chases, a->idles);
    s->victim_sq = -1;
    s->victim = XQ_NONE;
    *axf_alternate = false;
    if (a->chases && a->every_chase) s->victim_sq = a->first_sq[__builtin_ctzll(a->every_chase)];
    if (rules == XQ_RULES_CXA1999) {
        /* §25.2: every move an attack (check, mate threat or chase) */
        s->forbidden = a->idles == 0;
    } else {
        /* AXF: perpetual check (rule 6), or a chase of one same piece by
         * every move; mate threats and one check one chase are allowed
         * (rules 9, 12), and so is chasing two or more pieces in turn
         * (rule 32) */
        bool check = a->moves > 0 && a->checks == a->moves;
        bool chase = a->moves > 0 && !check && a->every != 0;
        s->forbidden = check || chase;
        if (chase) {
            s->pattern = XQ_PAT_PERPETUAL_CHASE;
            s->victim_sq = a->first_sq[__builtin_ctzll(a->every)];
        } else if (!check && a->chases && a->idles == 0 && a->checks + a->mates == 0) {
            *axf_alternate = true;
        }
    }
}

/* ---- the memo of classifications --------------------------------------- */

/* What the verdict reads of a classification (xq_move_class): the act,
 * the idle kind, the pieces newly chased and by whom, the chariots held
 * by the horse they chase (AXF rule 19), and whether a soldier alone
 * newly attacks a piece (§27.2; only that it does).  The judge walks
 * the cycle on these, from the memo or from a fresh classification. */
typedef struct {
    uint8_t act, idle;          /* xq_act, xq_idle_kind */
    uint8_t nvictims, npinner;  /* counts of victims / pinner_victims */
    bool soldier;               /* nsoldier_victims > 0 */
    uint8_t victims[XQ_MAX_VICTIMS], chasers[XQ_MAX_VICTIMS], pinners[XQ_MAX_VICTIMS];
} move_facts;

static void facts_of(const xq_move_class *mc, move_facts *f)
{
    f->act = (uint8_t)mc->act;
    f->idle = (uint8_t)mc->idle;
    f->nvictims = (uint8_t)mc->nvictims;
    f->npinner = (uint8_t)mc->npinner_victims;
    f->soldier = mc->nsoldier_victims > 0;
    memcpy(f->victims, mc->victims, (size_t)mc->nvictims);
    memcpy(f->chasers, mc->chasers, (size_t)mc->nvictims);
    memcpy(f->pinners, mc->pinner_victims, (size_t)mc->npinner_victims);
}

/* A board of 90 pieces (4 bits each: kind | colour << 3) as 45 bytes,
 * two squares a byte (square 2i in the low half of byte i): the memo
 * keeps positions in full at half the room.  With SSE2 two bytes a, b of
 * a 16-bit lane pack as (lane | lane >> 4) & 0xFF = a | b << 4, then the
 * lanes narrow to bytes; else square by square (debug builds with SSE2
 * check one against the other).  out: 48 bytes, the last 3 zero. */
enum { PACKED_BOARD = 45 };
static void board_pack(const xq_piece *board, uint8_t *out)
{
#ifdef __SSE2__
    uint8_t b[96] = {0};
    memcpy(b, board, XQ_SQUARES);
    const __m128i low = _mm_set1_epi16(0xFF);
    for (int k = 0; k < 3; k++) {
        __m128i v0 = _mm_loadu_si128((const __m128i *)(const void *)(b + 32 * k));
        __m128i v1 = _mm_loadu_si128((const __m128i *)(const void *)(b + 32 * k + 16));
        v0 = _mm_and_si128(_mm_or_si128(v0, _mm_srli_epi16(v0, 4)), low);
        v1 = _mm_and_si128(_mm_or_si128(v1, _mm_srli_epi16(v1, 4)), low);
        _mm_storeu_si128((__m128i *)(void *)(out + 16 * k), _mm_packus_epi16(v0, v1));
    }
#endif
#if !defined(__SSE2__) || !defined(NDEBUG)
    uint8_t plain[48] = {0};
    for (int i = 0; i < PACKED_BOARD; i++) plain[i] = (uint8_t)((board[2 * i] & 15) | (board[2 * i + 1] & 15) << 4);
#ifdef __SSE2__
    assert(!memcmp(plain, out, sizeof plain));
#else
    memcpy(out, plain, sizeof plain);
#endif
#endif
}

/* One classification: the position in full (its key, side to move and
 * packed board), the move and the rule set it was made under, and the
 * facts the verdict reads, their squares in `sq` (victims, their
 * chasers, then the pinner victims).  80 bytes, so that the memo at its
 * largest fits one huge page with its slots (masters.pgn keeps 11,038);
 * a classification with more squares than `sq` holds is not kept. */
enum { ENTRY_SQUARES = 21 };
struct xq_rep_memo_entry {
    uint64_t key;
    xq_move move;
    uint8_t rules_side;           /* rules | side << 1 */
    uint8_t act_idle;             /* act | idle << 2 | soldier << 6 */
    uint8_t nvictims, npinner;
    uint8_t board[PACKED_BOARD];  /* board_pack */
    uint8_t sq[ENTRY_SQUARES];
};
_Static_assert(sizeof(struct xq_rep_memo_entry) == 80, "memo entry: 80 bytes");

/* Can entry e hold f?  (2 squares a victim, 1 a pinner victim.) */
static inline bool facts_fit(const move_facts *f) { return 2 * f->nvictims + f->npinner <= ENTRY_SQUARES; }

static void entry_put_facts(xq_rep_memo_entry *e, const move_facts *f)
{
    e->act_idle = (uint8_t)(f->act | f->idle << 2 | (unsigned)f->soldier << 6);
    e->nvictims = f->nvictims;
    e->npinner = f->npinner;
    memcpy(e->sq, f->victims, f->nvictims);
    memcpy(e->sq + f->nvictims, f->chasers, f->nvictims);
    memcpy(e->sq + 2 * f->nvictims, f->pinners, f->npinner);
}

static void entry_get_facts(const xq_rep_memo_entry *e, move_facts *f)
{
    f->act = e->act_idle & 3;
    f->idle = (e->act_idle >> 2) & 15;
    f->soldier = (e->act_idle >> 6) & 1;
    f->nvictims = e->nvictims;
    f->npinner = e->npinner;
    memcpy(f->victims, e->sq, e->nvictims);
    memcpy(f->chasers, e->sq + e->nvictims, e->nvictims);
    memcpy(f->pinners, e->sq + 2 * e->nvictims, e->npinner);
}

/* A slot of the open-addressed table: the 32-bit hash of an entry's
 * (key, move, rules) and the entry's index + 1 (0: an empty slot).  A
 * lookup compares the hash first, so only a likely hit reads an entry
 * (the entries are cold: the replay's work between two repetitions has
 * evicted them). */
struct xq_rep_memo_slot {
    uint32_t hash;
    uint32_t idx1;
};

enum {
    MEMO_SEGS = XQ_REP_MEMO_MAX / XQ_REP_MEMO_SEG,
    MEMO_SMALL_SEGS = 4,   /* blocks allocated one by one (1,024 entries: a game's or a
                              call's memo); the others live in the big region */
    MEMO_MAX_SLOTS = 2 * XQ_REP_MEMO_MAX
};

/* The big region's layout: the slots at their largest, then the blocks
 * MEMO_SMALL_SEGS .. MEMO_SEGS - 1. */
#define MEMO_BIG_SLOTS ((size_t)MEMO_MAX_SLOTS * sizeof(xq_rep_memo_slot))
#define MEMO_BIG_BYTES \
    (MEMO_BIG_SLOTS + (size_t)(MEMO_SEGS - MEMO_SMALL_SEGS) * XQ_REP_MEMO_SEG * sizeof(xq_rep_memo_entry))
/* one huge page: a memo that grows past its small blocks faults once */
_Static_assert(MEMO_BIG_BYTES <= ((size_t)2 << 20), "the memo's big region: one 2 MiB huge page");

void xq_rep_memo_free(xq_rep_memo *memo)
{
    if (!memo) return;
    if (memo->entry)
        for (int s = 0; s < MEMO_SMALL_SEGS; s++) free(memo->entry[s]);
    free(memo->entry);
    if (memo->big) xq_huge_free(memo->big, MEMO_BIG_BYTES);
    else free(memo->slot);
    xq_mate_table_free(memo->mates);
    memo->entry = NULL;
    memo->slot = NULL;
    memo->big = NULL;
    memo->mates = NULL;
    memo->n = memo->cap = memo->oldest = 0;
    memo->mask = 0;
}

/* Entry i of the memo (its block allocated). */
static inline xq_rep_memo_entry *memo_entry(const xq_rep_memo *memo, int i)
{
    return &memo->entry[i / XQ_REP_MEMO_SEG][i % XQ_REP_MEMO_SEG];
}

/* The 32-bit hash of (key, move, rules): its low bits pick the first slot
 * to probe, all of it is compared before an entry is read. */
static inline uint32_t memo_hash(uint64_t key, xq_move m, xq_rules rules)
{
    uint64_t h = (key ^ ((uint64_t)m << 1 | (uint64_t)rules)) * 0x9E3779B97F4A7C15ull;
    return (uint32_t)(h >> 32);
}

/* The mask of slot indices (a power of two of slots, at least 2 * cap). */
static inline unsigned memo_mask(const xq_rep_memo *memo) { return memo->mask; }

/* Does entry e hold the classification of m from pos under rules?  The
 * key, move, rules and side first; the board (packed) only when they
 * agree. */
static inline bool memo_same(const xq_rep_memo_entry *e, const xq_position *pos, xq_move m, xq_rules rules)
{
    if (e->key != pos->key || e->move != m || e->rules_side != (uint8_t)(rules | pos->side << 1)) return false;
    uint8_t packed[48];
    board_pack(pos->board, packed);
    return !memcmp(e->board, packed, PACKED_BOARD);
}

/* The index of the entry holding the classification of m from pos under
 * rules (h its memo_hash), or -1. */
static int memo_find(const xq_rep_memo *memo, const xq_position *pos, xq_move m, xq_rules rules, uint32_t h)
{
    if (!memo->n) return -1;
    unsigned mask = memo_mask(memo);
    for (unsigned i = h & mask; memo->slot[i].idx1; i = (i + 1) & mask) {
        if (memo->slot[i].hash != h) continue;
        int k = (int)memo->slot[i].idx1 - 1;
        if (memo_same(memo_entry(memo, k), pos, m, rules)) return k;
    }
    return -1;
}

/* The entry named by the first slot of h's probe whose hash is h, or -1
 * (the probe reads slots only: a likely hit, to ask the cache for). */
static int memo_candidate(const xq_rep_memo *memo, uint32_t h)
{
    if (!memo->n) return -1;
    unsigned mask = memo_mask(memo);
    for (unsigned i = h & mask; memo->slot[i].idx1; i = (i + 1) & mask)
        if (memo->slot[i].hash == h) return (int)memo->slot[i].idx1 - 1;
    return -1;
}

/* Put (h, entry i) in the first empty slot from h's (the table has room:
 * at most cap of its 2 * cap slots are used). */
static void slot_put(xq_rep_memo_slot *slot, unsigned mask, uint32_t h, int i)
{
    unsigned at = h & mask;
    while (slot[at].idx1) at = (at + 1) & mask;
    slot[at].hash = h;
    slot[at].idx1 = (uint32_t)i + 1;
}

/* Take entry i (the oldest) out of the slots and return it, to be used
 * again: a full memo forgets its oldest classification first.  The slots
 * after it that were displaced past its slot move back (deletion from a
 * linear-probing table, so every entry stays reachable from its first
 * slot without any empty slot between). */
static int memo_drop(xq_rep_memo *memo, int i)
{
    const xq_rep_memo_entry *e = memo_entry(memo, i);
    unsigned mask = memo_mask(memo), at = memo_hash(e->key, e->move, (xq_rules)(e->rules_side & 1)) & mask;
    xq_rep_memo_slot *slot = memo->slot;
    while (slot[at].idx1 != (uint32_t)i + 1) at = (at + 1) & mask;
    for (unsigned j = (at + 1) & mask; slot[j].idx1; j = (j + 1) & mask) {
        unsigned home = slot[j].hash & mask;
        /* slot j may fill the hole at `at` when its home is not in (at, j] (cyclically) */
        bool stays = at < j ? home > at && home <= j : home > at || home <= j;
        if (stays) continue;
        slot[at] = slot[j];
        at = j;
    }
    slot[at].idx1 = 0;
    return i;
}

/* The region of the slots at their largest and the entries past the
 * small blocks (MEMO_BIG_BYTES), in huge pages where the system has them
 * for the asking (Linux: transparent huge pages in "madvise" mode): in
 * 4 KiB pages its first-touch faults cost this machine (a VM) more than
 * all the lookups. */
static void *memo_big_alloc(void) { return xq_huge_alloc(MEMO_BIG_BYTES); }

/* The slots built again in `slot` (`slots` of them, a power of two,
 * zeroed), from the old slots' hashes alone: no entry is read. */
static void memo_rehash(xq_rep_memo *memo, xq_rep_memo_slot *slot, unsigned slots)
{
    unsigned mask = slots - 1;
    if (memo->slot)
        for (unsigned i = 0; i <= memo->mask; i++)
            if (memo->slot[i].idx1) slot_put(slot, mask, memo->slot[i].hash, (int)memo->slot[i].idx1 - 1);
    if (!memo->big) free(memo->slot);
    memo->slot = slot;
    memo->mask = mask;
}

/* Room for entries cap .. 2 cap - 1 (cap doubled, first 16).  A small
 * memo gets its block when missing and twice the slots; past
 * MEMO_SMALL_SEGS blocks, the big region, once (the slots at their
 * largest and every other block: nothing is allocated or rehashed
 * again).  False when memory runs out (nothing changed then). */
static bool memo_grow(xq_rep_memo *memo)
{
    int cap = memo->cap ? 2 * memo->cap : 16;
    if (!memo->entry && !(memo->entry = calloc(MEMO_SEGS, sizeof *memo->entry))) return false;
    if (cap > MEMO_SMALL_SEGS * XQ_REP_MEMO_SEG && !memo->big) {
        char *big = memo_big_alloc();
        if (!big) return false;
        xq_rep_memo_entry *blocks = (xq_rep_memo_entry *)(void *)(big + MEMO_BIG_SLOTS);
        for (int s = MEMO_SMALL_SEGS; s < MEMO_SEGS; s++)
            memo->entry[s] = blocks + (size_t)(s - MEMO_SMALL_SEGS) * XQ_REP_MEMO_SEG;
        memo_rehash(memo, (xq_rep_memo_slot *)(void *)big, MEMO_MAX_SLOTS);
        memo->big = big;
    } else if (!memo->big) {
        for (int s = memo->cap / XQ_REP_MEMO_SEG; s * XQ_REP_MEMO_SEG < cap; s++)
            if (!memo->entry[s] && !(memo->entry[s] = malloc(XQ_REP_MEMO_SEG * sizeof(xq_rep_memo_entry))))
                return false;
        xq_rep_memo_slot *slot = calloc(2 * (size_t)cap, sizeof *slot);
        if (!slot) return false;
        memo_rehash(memo, slot, 2 * (unsigned)cap);
    }
    memo->cap = cap;
    memo->oldest = 0;
    return true;
}

/* The entry where a new classification goes: a free one (the memo grown
 * when all are used), or, at XQ_REP_MEMO_MAX entries, the oldest one,
 * dropped (entries are used in turn, so memory stays bounded and the
 * recent ones are kept).  -1 when memory runs out with no entry at all
 * (nothing is kept then; when the memo cannot grow it drops its oldest
 * entry instead). */
static int memo_room(xq_rep_memo *memo)
{
    if (memo->n < memo->cap) return memo->n++;
    if (memo->cap < XQ_REP_MEMO_MAX && memo_grow(memo)) return memo->n++;
    if (!memo->cap) return -1;
    int i = memo_drop(memo, memo->oldest);
    memo->oldest = (memo->oldest + 1) % memo->cap;
    return i;
}

/* The entry the next memo_add will write, when it is there already (to
 * ask the cache for it ahead: it is written whole, and when the memo is
 * full its old key is read first), else NULL. */
static const xq_rep_memo_entry *memo_next(const xq_rep_memo *memo)
{
    if (!memo->cap) return NULL;
    int i = memo->n < memo->cap ? memo->n : memo->cap < XQ_REP_MEMO_MAX ? -1 : memo->oldest;
    return i >= 0 ? memo_entry(memo, i) : NULL;
}

/* Keep f as the classification of m from pos under rules (h its
 * memo_hash; not found in the memo); when there is no room, or f has more
 * squares than an entry holds, nothing is kept (the move is classified
 * again if met).  True when kept. */
static bool memo_add(xq_rep_memo *memo, const xq_position *pos, xq_move m, xq_rules rules, uint32_t h,
                     const move_facts *f)
{
    if (!facts_fit(f)) return false;
    int i = memo_room(memo);
    if (i < 0) return false;
    xq_rep_memo_entry *e = memo_entry(memo, i);
    uint8_t packed[48];
    board_pack(pos->board, packed);
    e->key = pos->key;
    e->move = m;
    e->rules_side = (uint8_t)(rules | pos->side << 1);
    memcpy(e->board, packed, PACKED_BOARD);
    entry_put_facts(e, f);
    slot_put(memo->slot, memo_mask(memo), h, i);
    return true;
}

bool xq_repetition_judge(const xq_position *base, int base_ply, const xq_move *moves, int n,
                         int occurrences, xq_rules rules, xq_rep_verdict *out)
{
    return xq_repetition_judge_memo(base, base_ply, moves, n, occurrences, rules, NULL, out);
}

/* Look up every ply first .. n-1 of the cycle at once, before any is
 * classified: h[k] gets ply first+k's memo_hash and found[k] the index of
 * its entry, or -1.  The slots of every ply are asked of the cache first,
 * then read, then the entries they name asked for, then compared: the
 * misses (the memo is cold when a repetition comes: the replay's work
 * since the last one has evicted it) overlap instead of coming one after
 * the other.  Also asks for the entry the first new classification will
 * write. */
static void memo_find_cycle(const xq_rep_memo *memo, const xq_position *pos, const xq_move *moves, int first,
                            int n, xq_rules rules, uint32_t *h, int32_t *found)
{
    int len = n - first;
    for (int k = 0; k < len; k++) {
        h[k] = memo_hash(pos[first + k].key, moves[first + k], rules);
        if (memo->n) __builtin_prefetch(&memo->slot[h[k] & memo_mask(memo)]);
    }
    for (int k = 0; k < len; k++) {
        found[k] = memo_candidate(memo, h[k]);
        if (found[k] < 0) continue;
        const char *e = (const char *)memo_entry(memo, found[k]);
        for (size_t at = 0; at < sizeof(xq_rep_memo_entry); at += 64) __builtin_prefetch(e + at);
    }
    for (int k = 0; k < len; k++)
        if (found[k] >= 0 && !memo_same(memo_entry(memo, found[k]), &pos[first + k], moves[first + k], rules))
            found[k] = memo_find(memo, &pos[first + k], moves[first + k], rules, h[k]);
    const xq_rep_memo_entry *next = memo_next(memo);
    if (next)
        for (size_t at = 0; at < sizeof *next; at += 64) __builtin_prefetch((const char *)next + at, 1);
}

/* The kept classification of ply first+k (memo_find_cycle found found[k]
 * before the cycle was walked; added[j]: ply first+j was classified and
 * added since; added_bits: bit h[j] % 64 of each such ply, so that the
 * usual ply, whose bit no added ply set, skips the walk over the earlier
 * plies, which made a cycle of new plies cost its length squared).  The
 * entry found is still the one when it still holds the
 * ply (a full memo may have replaced it since); a ply found in none was
 * added since only if an earlier ply of the same hash was: then looked up
 * again, else known to be missing without reading a slot. */
static xq_rep_memo_entry *memo_kept(const xq_rep_memo *memo, const xq_position *pos, xq_move m, xq_rules rules,
                                    const uint32_t *h, const int32_t *found, const bool *added, uint64_t added_bits,
                                    int k)
{
    if (found[k] >= 0) {
        xq_rep_memo_entry *e = memo_entry(memo, found[k]);
        if (memo_same(e, pos, m, rules)) return e;
    }
    bool again = false;
    if ((added_bits >> (h[k] & 63)) & 1)
        for (int j = 0; j < k && !again; j++) again = added[j] && h[j] == h[k];
    int i = again ? memo_find(memo, pos, m, rules, h[k]) : -1;
    return i >= 0 ? memo_entry(memo, i) : NULL;
}

/* Which case of the verdict decides (CXA1999 §24, §26, ch.7 items 1, 8;
 * AXF rules 6-8, 15). */
typedef enum {
    BY_PERPETUAL_CHECK,   /* one side alone gives perpetual check: it loses */
    BY_MUTUAL_CHECK,      /* both do: draw */
    BY_RULE15,            /* AXF rule 15: one side chases a chariot perpetually: it loses */
    BY_BOTH_ALIKE,        /* both sides forbidden, or both allowed: draw */
    BY_ONE_FORBIDDEN      /* the forbidden side loses */
} verdict_case;

/* The verdict's kind, clause and reason (out->loser, rules, sides and
 * plies set; decided by `by`): one line for people.  alternate[c]: side
 * c chased different pieces in turn (AXF rule 32); soldier_note: a
 * soldier's attacks counted as chases (CXA1999 §27.2).  Not inlined: a
 * run that reads no text never executes it, and judge_cycle stays small. */
__attribute__((noinline)) static void verdict_text(xq_rep_verdict *out, verdict_case by, const bool *alternate,
                                                   bool soldier_note)
{
    xq_rules rules = out->rules;
    bool axf = rules == XQ_RULES_AXF;
    char d[2][128];
    for (int c = 0; c < 2; c++) describe_side(d[c], sizeof d[c], &out->side[c], alternate[c], rules);
    char cycle[80];
    say(cycle, sizeof cycle, "plies %d-%d, the position occurring %d times", out->first_ply + 1,
             out->last_ply, out->occurrences);
    int loser = out->loser;

    if (by == BY_PERPETUAL_CHECK) {
        say(out->kind, sizeof out->kind, "perpetual check");
        say(out->clause, sizeof out->clause, "%s", axf ? "AXF rules 6, 8" : "CXA1999 §26.1, §24.1");
        say(out->reason, sizeof out->reason,
                 "%s gives perpetual check (長將), %s does not (%s): a one-sided perpetual check loses (%s; %s)",
                 color_name(loser), color_name(loser ^ 1), d[loser ^ 1], out->clause, cycle);
    } else if (by == BY_MUTUAL_CHECK) {
        say(out->kind, sizeof out->kind, "mutual perpetual check");
        say(out->clause, sizeof out->clause, "%s", axf ? "AXF rule 7" : "CXA1999 §26.3");
        say(out->reason, sizeof out->reason, "both sides give perpetual check (長將): draw (%s; %s)",
                 out->clause, cycle);
    } else if (by == BY_RULE15) {
        /* AXF rule 15: cannons or horses may not perpetually chase a
         * chariot, even when the chariot's replies chase in turn */
        char p[48];
        piece_phrase(p, sizeof p, out->side[loser].victim, out->side[loser].victim_sq);
        say(out->kind, sizeof out->kind, "perpetual chase of %s", p);
        say(out->clause, sizeof out->clause, "AXF rule 15");
        say(out->reason, sizeof out->reason,
                 "%s: %s; %s: %s; a chariot may not be chased perpetually even when its side chases back: "
                 "%s loses (%s; %s)",
                 color_name(loser), d[loser], color_name(loser ^ 1), d[loser ^ 1], color_name(loser), out->clause,
                 cycle);
    } else if (by == BY_BOTH_ALIKE) {
        bool both = out->side[0].forbidden;
        say(out->kind, sizeof out->kind, "%s", both ? "both sides forbidden" : "both sides allowed");
        if (axf)
            say(out->clause, sizeof out->clause, "%s", both ? "AXF: mutual perpetual chase" : "AXF: no violation");
        else
            say(out->clause, sizeof out->clause, "%s", both ? "CXA1999 §26.3, §24.2" : "CXA1999 §26.2, §24.2");
        say(out->reason, sizeof out->reason, "red: %s; black: %s; %s: draw (%s; %s)", d[0], d[1],
                 both ? "both sides' moves are forbidden" : "both sides' moves are allowed", out->clause, cycle);
    } else {
        const xq_rep_side *ls = &out->side[loser];
        char victim[64] = "";
        bool chasing = ls->pattern == XQ_PAT_PERPETUAL_CHASE || ls->pattern == XQ_PAT_CHECK_CHASE ||
                       ls->pattern == XQ_PAT_MATE_THREAT_CHASE || ls->pattern == XQ_PAT_CHECK_MATE_THREAT_CHASE;
        if (chasing && ls->victim_sq >= 0) {
            char p[48];
            piece_phrase(p, sizeof p, ls->victim, ls->victim_sq);
            say(victim, sizeof victim, " of %s", p);
        } else if (chasing) {
            say(victim, sizeof victim, " of different pieces in turn");
        }
        say(out->kind, sizeof out->kind, "%s%s", xq_rep_pattern_str(ls->pattern), victim);
        if (axf)
            say(out->clause, sizeof out->clause, "AXF: perpetual chase forbidden");
        else
            say(out->clause, sizeof out->clause, "CXA1999 §26.4, §24.3%s", soldier_note ? ", §27.2" : "");
        say(out->reason, sizeof out->reason,
                 "%s: %s, forbidden; %s: %s, allowed; the forbidden side must vary and loses (%s; %s)",
                 color_name(loser), d[loser], color_name(loser ^ 1), d[loser ^ 1], out->clause, cycle);
    }
}

enum { JUDGE_LOCAL = 48 };   /* stretches of up to this many moves need no allocation */

/* Room for one judge call: the positions of its stretch (n + 1) and its
 * cycle's memo lookups (n each), on the stack for the usual short
 * stretch, else allocated (room_take; room_free gives it back). */
typedef struct {
    xq_position local_pos[JUDGE_LOCAL + 1];
    uint32_t local_hash[JUDGE_LOCAL];
    int32_t local_found[JUDGE_LOCAL];
    bool local_added[JUDGE_LOCAL];
    bool big;                   /* the four below allocated */
    xq_position *pos;
    uint32_t *hash;
    int32_t *found;
    bool *added;                /* all false */
} judge_room;

static void room_free(judge_room *r)
{
    if (r->big) free(r->pos), free(r->hash), free(r->found), free(r->added);
}

/* Room for a stretch of n moves (n >= 1); false when memory runs out
 * (nothing to free then). */
static bool room_take(judge_room *r, int n)
{
    r->big = n > JUDGE_LOCAL;
    if (!r->big) {
        r->pos = r->local_pos;
        r->hash = r->local_hash;
        r->found = r->local_found;
        r->added = r->local_added;
        memset(r->local_added, 0, sizeof r->local_added);
        return true;
    }
    r->pos = malloc(((size_t)n + 1) * sizeof *r->pos);
    r->hash = malloc((size_t)n * sizeof *r->hash);
    r->found = malloc((size_t)n * sizeof *r->found);
    r->added = calloc((size_t)n, sizeof *r->added);
    if (r->pos && r->hash && r->found && r->added) return true;
    room_free(r);
    return false;
}

static void judge_cycle(const xq_position *pos, const xq_move *moves, int first, int n, int count, int base_ply,
                        xq_rules rules, bool text, xq_rep_memo *memo, judge_room *room, xq_rep_verdict *out);

/* judge_cycle with the caller's memo, or (memo NULL) one for this call:
 * a position and move met again in the cycle is classified once. */
static void judge_cycle_memo(const xq_position *pos, const xq_move *moves, int first, int n, int count,
                             int base_ply, xq_rules rules, bool text, xq_rep_memo *memo, judge_room *room,
                             xq_rep_verdict *out)
{
    if (memo) {
        judge_cycle(pos, moves, first, n, count, base_ply, rules, text, memo, room, out);
        return;
    }
    xq_rep_memo local = {0};
    judge_cycle(pos, moves, first, n, count, base_ply, rules, text, &local, room, out);
    xq_rep_memo_free(&local);
}

bool xq_repetition_judge_memo(const xq_position *base, int base_ply, const xq_move *moves, int n,
                              int occurrences, xq_rules rules, xq_rep_memo *memo, xq_rep_verdict *out)
{
    memset(out, 0, sizeof *out);
    if (n <= 0 || occurrences < 2) return false;
    judge_room room;
    if (!room_take(&room, n)) {
        out->out_of_memory = true;
        return false;
    }
    xq_position *pos = room.pos;
    pos[0] = *base;
    for (int i = 0; i < n; i++) {
        xq_undo u;
        pos[i + 1] = pos[i];
        xq_make(&pos[i + 1], moves[i], &u);
    }

    /* the occurrences of the last position, compared in full */
    int count = 0, first = n;
    for (int j = n; j >= 0 && count < occurrences; j -= 2) {
        if (pos[j].key == pos[n].key && same_position(&pos[j], &pos[n])) {
            count++;
            first = j;
        }
    }
    bool ok = count >= occurrences;
    if (ok) judge_cycle_memo(pos, moves, first, n, count, base_ply, rules, true, memo, &room, out);
    room_free(&room);
    return ok;
}

bool xq_repetition_judge_back(const xq_position *now, int now_ply, const xq_move *moves, const uint64_t *keys,
                              int n, int occurrences, xq_rules rules, bool text, xq_rep_memo *memo,
                              xq_rep_verdict *out)
{
    memset(out, 0, sizeof *out);
    if (n <= 0 || occurrences < 2) return false;
    judge_room room;
    if (!room_take(&room, n)) {
        out->out_of_memory = true;
        return false;
    }
    /* back from now, one position a move, until the occurrences are
     * found (compared in full, as xq_repetition_judge_memo does from the
     * end): only the cycle's positions are made (pos[first..n]) */
    xq_position *pos = room.pos;
    pos[n] = *now;
    int count = 1, first = n;
    for (int j = n - 1; j >= 0 && count < occurrences; j--) {
        xq_undo u = {.captured = XQ_NONE, .halfmove = pos[j + 1].halfmove - 1, .key = keys[j]};
        pos[j] = pos[j + 1];
        xq_unmake(&pos[j], moves[j], &u);
        if (!((n - j) & 1) && pos[j].key == pos[n].key && same_position(&pos[j], &pos[n])) {
            count++;
            first = j;
        }
    }
    bool ok = count >= occurrences;
    if (ok) judge_cycle_memo(pos, moves, first, n, count, now_ply - n, rules, text, memo, &room, out);
    room_free(&room);
    return ok;
}

/* The facts of m from pos under rules (xq_classify_move_with, or with
 * idle_kind false xq_classify_move_act: the kind of an idle move left
 * XQ_IDLE_UNKNOWN), with memo's table of mate-search results. */
static void classify_facts(const xq_position *pos, xq_move m, xq_rules rules, xq_rep_memo *memo, bool idle_kind,
                           move_facts *f)
{
    /* (the mate searches' table comes with the first classification) */
    if (!memo->mates) memo->mates = xq_mate_table_new();
    xq_move_class full;
    if (idle_kind) xq_classify_move_with(pos, m, rules, memo->mates, &full);
    else xq_classify_move_act(pos, m, rules, memo->mates, &full);
    facts_of(&full, f);
}

/* The verdict on the cycle pos[first..n] (the position of pos[n] occurring
 * count times from pos[first] on; moves[i] leads from pos[i] to
 * pos[i + 1], pos[0] after game ply base_ply) into *out (zeroed): each
 * move classified once (memo), the sides' patterns, the verdict, and with
 * `text` its kind, clause and reason (else left empty) and the kinds of
 * the idle moves in its plies (else XQ_IDLE_UNKNOWN: the verdict never
 * reads them, and they are the costliest part of an idle move's
 * classification). */
static void judge_cycle(const xq_position *pos, const xq_move *moves, int first, int n, int count, int base_ply,
                        xq_rules rules, bool text, xq_rep_memo *memo, judge_room *room, xq_rep_verdict *out)
{
    uint32_t *hash = room->hash;
    int32_t *found = room->found;
    bool *added = room->added;
    memo_find_cycle(memo, pos, moves, first, n, rules, hash, found);

    out->rules = rules;
    out->occurrences = count;
    out->first_ply = base_ply + first;
    out->last_ply = base_ply + n;

    /* piece identities across the cycle, for "the same piece" (ids < 64) */
    int8_t id[XQ_SQUARES];
    memset(id, -1, sizeof id);
    xq_piece id_piece[64];
    int nid = 0;
    /* the pieces in ascending square order, through the rank masks */
    for (int r = 0; r < XQ_RANKS && nid < 64; r++)
        for (unsigned bits = pos[first].rank_occ[r]; bits && nid < 64; bits &= bits - 1) {
            int sq = XQ_SQ(__builtin_ctz(bits), r);
            id_piece[nid] = pos[first].board[sq];
            id[sq] = (int8_t)nid++;
        }

    /* (only the entries of the nid pieces: every piece id read below is
     * one of theirs, as id_piece's are; each side moves in the cycle,
     * so `every` holds ids only) */
    side_acc acc[2];
    for (int c = 0; c < 2; c++) {
        memset(&acc[c], 0, offsetof(side_acc, first_sq));
        acc[c].every = acc[c].every_chase = ~(uint64_t)0;
        for (int k = 0; k < nid; k++) {
            acc[c].first_sq[k] = -1;
            acc[c].chasers[k] = 0;
        }
    }
    bool any_chase[2] = {false, false};
    uint64_t added_bits = 0;   /* (memo_kept's filter of the plies added) */

    /* the cycle is played `occurrences`-1 times: classify each distinct
     * (position, move) once (and not again when the memo has it from an
     * earlier call) */
    for (int i = first; i < n; i++) {
        move_facts mc;
        xq_rep_memo_entry *kept =
            memo_kept(memo, &pos[i], moves[i], rules, hash, found, added, added_bits, i - first);
        if (kept) entry_get_facts(kept, &mc);
        if (kept && text && mc.idle == XQ_IDLE_UNKNOWN) {
            /* kept by a judge without text, whose idle move's kind the
             * plies now quote: classified again with it, the entry
             * completed (its other facts are the same) */
            classify_facts(&pos[i], moves[i], rules, memo, true, &mc);
            entry_put_facts(kept, &mc);
        } else if (!kept) {
            classify_facts(&pos[i], moves[i], rules, memo, text, &mc);
            added[i - first] = memo_add(memo, &pos[i], moves[i], rules, hash[i - first], &mc);
            if (added[i - first]) added_bits |= (uint64_t)1 << (hash[i - first] & 63);
        }
        if (rules == XQ_RULES_CXA1999) {
            /* CXA 1999 has no exception for a piece held by its victim */
            for (int k = 0; k < mc.npinner && mc.nvictims < XQ_MAX_VICTIMS; k++) {
                mc.chasers[mc.nvictims] = mc.pinners[k];   /* (chasers serve AXF only) */
                mc.victims[mc.nvictims++] = mc.pinners[k];
            }
        } else if (mc.act == XQ_ACT_CHASE && !mc.nvictims) {
            mc.act = XQ_ACT_IDLE;   /* AXF rule 19: a chariot held by a horse does not chase it */
        }
        xq_color mover = pos[i].side;
        side_acc *a = &acc[mover];
        a->moves++;
        switch (mc.act) {
        case XQ_ACT_CHECK: a->checks++; break;
        case XQ_ACT_MATE_THREAT: a->mates++; break;
        case XQ_ACT_CHASE: a->chases++; break;
        default: a->idles++; break;
        }
        if (mc.act != XQ_ACT_IDLE || mc.soldier) a->soldier_attacks++;
        uint64_t ids = 0;
        for (int k = 0; k < mc.nvictims; k++) {
            int v = id[mc.victims[k]];
            if (v < 0) continue;
            ids |= (uint64_t)1 << v;
            if (a->first_sq[v] < 0) a->first_sq[v] = mc.victims[k];
            /* the chaser stands on its square after the move */
            int ch = mc.chasers[k] == XQ_TO(moves[i]) ? id[XQ_FROM(moves[i])] : id[mc.chasers[k]];
            if (ch >= 0) a->chasers[v] |= (uint64_t)1 << ch;
        }
        a->every &= ids;
        if (mc.act == XQ_ACT_CHASE) {
            a->every_chase &= ids;
            any_chase[mover] = true;
        }
        if (out->nplies < XQ_REP_MAX_PLIES) {
            xq_rep_ply *p = &out->plies[out->nplies++];
            p->ply = base_ply + i + 1;
            p->move = moves[i];
            p->act = (uint8_t)mc.act;
            /* (without text every idle ply's kind unknown, whatever
             * the memo kept: the same verdict from any memo) */
            p->idle = (uint8_t)(text || mc.act != XQ_ACT_IDLE ? mc.idle : XQ_IDLE_UNKNOWN);
            p->victim = (int8_t)(mc.nvictims ? mc.victims[0] : -1);
        }
        /* follow the pieces */
        int from = XQ_FROM(moves[i]), to = XQ_TO(moves[i]);
        id[to] = id[from];
        id[from] = -1;
    }
    for (int c = 0; c < 2; c++)
        if (!any_chase[c]) acc[c].every_chase = 0;

    bool alternate[2];
    for (int c = 0; c < 2; c++) {
        finish_side(&out->side[c], &acc[c], rules, &alternate[c]);
        if (out->side[c].victim_sq >= 0) {
            /* the piece as it stood when first chased */
            uint64_t ids = rules == XQ_RULES_AXF && out->side[c].forbidden && acc[c].every ? acc[c].every
                                                                                            : acc[c].every_chase;
            out->side[c].victim = ids ? id_piece[__builtin_ctzll(ids)] : XQ_NONE;
        }
    }

    /* CXA1999 §27.2, ch.7 item 11: in a mutual perpetual attack a
     * soldier's attacks count as chases */
    bool soldier_note = false;
    if (rules == XQ_RULES_CXA1999) {
        for (int c = 0; c < 2; c++) {
            xq_rep_side *me = &out->side[c], *other = &out->side[c ^ 1];
            if (!me->forbidden && other->forbidden && acc[c].soldier_attacks == acc[c].moves) {
                me->forbidden = true;
                int soldier_chases = acc[c].moves - acc[c].checks - acc[c].mates;
                me->pattern = pattern_of(acc[c].checks, acc[c].mates, soldier_chases, 0);
                soldier_note = true;
            }
        }
    }

    /* the verdict: CXA1999 §24, §26 (ch.7 items 1, 8); AXF rules 6-8 */
    bool axf = rules == XQ_RULES_AXF;
    /* AXF rule 15: in a mutual perpetual chase, the side chasing a chariot
     * loses when the other side does not chase back the chasing piece
     * itself (a mutual attack of two pieces stays a draw) */
    bool rule15[2] = {false, false};
    if (axf && out->side[0].forbidden && out->side[1].forbidden) {
        for (int c = 0; c < 2; c++) {
            uint64_t mine = acc[c].every, theirs = acc[c ^ 1].every;
            if (!mine || !theirs || XQ_KIND(out->side[c].victim) != XQ_CHARIOT) continue;
            int v = __builtin_ctzll(mine);
            rule15[c] = (acc[c].chasers[v] & theirs) == 0;
        }
    }
    bool pc[2] = {out->side[0].pattern == XQ_PAT_PERPETUAL_CHECK, out->side[1].pattern == XQ_PAT_PERPETUAL_CHECK};
    verdict_case by;
    if (pc[0] != pc[1]) {
        by = BY_PERPETUAL_CHECK;
        out->loser = pc[0] ? XQ_RED : XQ_BLACK;
    } else if (pc[0]) {
        by = BY_MUTUAL_CHECK;
        out->loser = -1;
    } else if (axf && rule15[0] != rule15[1]) {
        by = BY_RULE15;
        out->loser = rule15[0] ? XQ_RED : XQ_BLACK;
    } else if (out->side[0].forbidden == out->side[1].forbidden) {
        by = BY_BOTH_ALIKE;
        out->loser = -1;
    } else {
        by = BY_ONE_FORBIDDEN;
        out->loser = out->side[0].forbidden ? XQ_RED : XQ_BLACK;
    }
    out->result = out->loser < 0 ? XQ_RESULT_DRAW : out->loser == XQ_RED ? XQ_RESULT_BLACK : XQ_RESULT_RED;
    if (text) verdict_text(out, by, alternate, soldier_note);
}
