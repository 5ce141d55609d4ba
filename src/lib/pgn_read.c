/* pgn_read.c - the record reader: format dispatch and the PGN-style text
 * tokenizer and record builder (formats.md §1e), UCCI position lines
 * among it (one record a line).  See pgn_read.h. */
#include "pgn_read.h"
#include "xml_read.h"
#include "jsonl_read.h"
#include "binread.h"
#include "notation.h"
#include "huge_pages.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

enum { SNIFF_SIZE = 4096, MAX_LINE_BAD = 32 };

/* Bytes of a block of move texts (fast_scan, fast_pair_lines), from the
 * record's arena.  A run of pair lines stops where the block may be short
 * (fast_pair_lines' `fit`, 32 bytes a line): 4 KiB holds the texts of
 * about 120 lines, so that most records' moves are one run (2 KiB, 58
 * lines, split every long record's: masters.pgn 111,666 -> 91,943 calls
 * of pair_run, pgn_next 41.9 -> 39.5 M instructions, 3.9 M fewer in all) */
enum { MT_BLOCK = 4096 };

typedef enum { PH_START, PH_TAGS, PH_MOVES, PH_AFTER_RESULT } phase;

/* One line of play being built: the main line (depth 0) or an open
 * variation.  nodes is reader scratch (malloc), copied into the game's
 * arena when the line is closed. */
typedef struct {
    xq_node *nodes;
    size_t count, cap;
    const char *comment;      /* before the first move (arena) */
    size_t parent;            /* index of the node it is a variation of */
    uint32_t line, col;       /* where its '(' is */
    uint64_t offset;
    /* comments waiting for their node: consecutive comments are joined
     * here and copied into the arena once (linear in their size) */
    xq_buf pend;
    bool pend_on;
    size_t pend_node;         /* node index, or SIZE_MAX: before the first move */
} frame;

typedef struct {
    uint64_t offset;
    size_t pos;
    const char *why;
} bad_bytes;

struct xq_reader {
    xq_input *in;
    xq_format format;
    bool no_raw;              /* xq_read_options.no_raw: raw bytes counted, not copied */
    int (*next)(xq_reader *, xq_game *);
    union {                   /* (one of them, by format: the reader's size stays) */
        xq_xml_reader *xml;       /* XQ_FMT_XML: xml_read.c does the reading */
        xq_jsonl_reader *jsonl;   /* XQ_FMT_JSONL: jsonl_read.c does */
    };
    xq_sub_reader *sub;       /* XQF, CBR/CBL, DhtmlXQ: binread.h readers */
    uint64_t index;           /* records returned */
    const char *path;         /* xq_input_path(in), path_len bytes: each record's file */
    size_t path_len;
    char err[512];

    /* current line */
    xq_raw_line line;
    xq_text text;
    char *cut;                /* move_text: arena copy of text[cut_from..cut_to) + NUL, or NULL */
    size_t cut_from, cut_to;
    uint32_t walk_col;        /* off_at cache: column walk_col is at byte walk_byte */
    size_t walk_byte;
    bad_bytes bad[MAX_LINE_BAD];
    size_t nbad;

    /* record state */
    phase ph;
    bool any_line;            /* a non-blank line belongs to the record */
    bool blank_in_tags;
    /* a tag line ends the record (starts the next one: split_at_tag): its
     * name, for record_end's warning when the record has no moves */
    bool split_tag;
    uint8_t split_name_len;
    char split_name[32];
    bool junk_warned, depth_warned;
    bool position_taken;   /* the record is a UCCI position line (ucci_position) */
    uint32_t pending_number;
    bool failed;              /* a read error ended the last record: next returns -1 */
    bool no_fast;             /* tests: every line the general way (no fast_line, fast_lines) */
    char *mt, *mt_end;        /* fast_line: free room for move texts in the arena */
    uint64_t raw_from, raw_to; /* lines taken, not yet in the game's raw bytes (raw_take) */
    size_t fen_tag;           /* 1 + index of the record's first FEN tag, 0 if none */
    uint32_t result_tag, format_tag; /* the same of its Result and Format tags (xq_game.result_tag) */
    const uint32_t *pairs;    /* xq_input_pairs after the last xq_input_decode (fast_line) */
    size_t moves;             /* move nodes in the record, all lines of play */
    uint64_t file_moves;      /* move nodes in the records before it */
    bool moves_warned;
    uint32_t end_line, end_col;  /* just after the last line taken (for that error) */
    uint64_t end_off;

    /* line-of-play stack: frames[0..depth] */
    frame *frames;
    size_t depth, frame_cap;
    uint64_t skip;            /* nesting of skipped '(' (too deep / no move) */
    uint32_t skip_line, skip_col;
    uint64_t skip_off;

    /* open {comment} */
    bool in_comment;
    uint32_t com_line, com_col;
    uint64_t com_off;
    xq_buf com;

    xq_buf scratch;           /* tag value unescaping */

    /* fast_scan: moves of 8 raw bytes decoded before (word_cache), in
     * words_mask + 1 slots (words_size) */
    struct word_slot *words;
    size_t words_mask;
    bool words_utf8;          /* the cache holds UTF-8 words of 12 bytes (u8_word_hash) */

    /* tag names seen in this record: KNOWN ones as bits (known_seen),
     * others by open addressing (tag index + 1; names_n of them) */
    uint64_t known_seen;
    uint32_t *names;
    size_t names_cap, names_n;
    /* fast_tag: the KNOWN name (index + 1, 0 none) of tag i in the last
     * record that had one, as the guess for tag i of this one; the room
     * left in the record's block of tag values */
    uint8_t tag_pred[16];
    char *tt, *tt_end;
};

/* ---- small helpers ---------------------------------------------------- */

static uint32_t nchars(const char *p, const char *q)
{
    uint32_t n = 0;
    for (; p < q; p++) n += ((unsigned char)*p & 0xC0) != 0x80;
    return n;
}

/* Byte classes for the tokenizer. */
enum { C_OTHER = 0, C_BLANK, C_DELIM, C_MAYBE_BLANK };
static const unsigned char CLASS[256] = {
    [' '] = C_BLANK, ['\t'] = C_BLANK, ['\r'] = C_BLANK, ['\v'] = C_BLANK, ['\f'] = C_BLANK,
    ['{'] = C_DELIM, ['}'] = C_DELIM, ['('] = C_DELIM, [')'] = C_DELIM, [';'] = C_DELIM,
    [0xC2] = C_MAYBE_BLANK, [0xE3] = C_MAYBE_BLANK, [0xEF] = C_MAYBE_BLANK,
};

/* Byte length of the blank character at p, or 0: ASCII blanks, U+00A0,
 * U+3000 (ideographic space), U+FEFF. */
static inline size_t blank_len(const char *p, const char *end)
{
    const unsigned char *u = (const unsigned char *)p;
    switch (CLASS[u[0]]) {
    case C_BLANK:
        return 1;
    case C_MAYBE_BLANK:
        if (u[0] == 0xC2) return end - p >= 2 && u[1] == 0xA0 ? 2 : 0;
        if (u[0] == 0xE3) return end - p >= 3 && u[1] == 0x80 && u[2] == 0x80 ? 3 : 0;
        return end - p >= 3 && u[1] == 0xBB && u[2] == 0xBF ? 3 : 0;
    default:
        return 0;
    }
}

/* How the token scanner steps over the character a byte starts (the
 * decoded text is well-formed UTF-8): 0 ends a token (ASCII blank or
 * delimiter, CLASS C_BLANK / C_DELIM); 1..4 a character of that many bytes;
 * STEP_CHECK | length: the lead byte of a character that may be a blank
 * (CLASS C_MAYBE_BLANK, see blank_len); STEP_CONT a continuation byte
 * where a character should start (only in text that is not UTF-8):
 * stepped over, not counted.  For UTF-8 text the count is that of nchars.
 * tests/unit/test_reader_fast.c checks the table against CLASS. */
enum { STEP_CHECK = 0x10, STEP_CONT = 0x20 };
static const unsigned char STEP[256] = {
    0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x01,
    0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,
    0x00, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x00, 0x00, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,
    0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x00, 0x01, 0x01, 0x01, 0x01,
    0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,
    0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,
    0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,
    0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x00, 0x01, 0x00, 0x01, 0x01,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x02, 0x02, 0x12, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02,
    0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02,
    0x03, 0x03, 0x03, 0x13, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x13,
    0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,
};

/* blank_len(p, ...) != 0 for a lead byte of STEP_CHECK class (C2, E3,
 * EF) whose character is k bytes long, with n bytes left: the test of the
 * blank's bytes alone, without CLASS (a full-width digit, EF BC xx, is
 * the usual lead-EF character in moves). */
static inline bool maybe_blank(const char *p, size_t n, unsigned k)
{
    const unsigned char *u = (const unsigned char *)p;
    if (n < k) return false;
    if (k == 2) return u[1] == 0xA0;                          /* U+00A0 */
    uint32_t w = (uint32_t)u[0] << 16 | (uint32_t)u[1] << 8 | u[2];
    return w == 0xE38080u || w == 0xEFBBBFu;                  /* U+3000, U+FEFF */
}

/* End of the token starting at p; adds its length in characters to *col.
 * One step per character, not per byte: a Chinese move of 4 characters
 * is 4 table lookups.  A character cut by `end` (not UTF-8) ends there. */
static inline const char *token_end_col(const char *p, const char *end, uint32_t *col)
{
    size_t i = 0, len = (size_t)(end - p);
    uint32_t n = 0;
    while (i < len) {
        unsigned v = STEP[(unsigned char)p[i]];
        if (v - 1u < 4u) {              /* the common case: 1..4 */
            i += v;
            n++;
        } else if (v == STEP_CONT) {
            i++;
        } else if (v == 0 || maybe_blank(p + i, len - i, v & 7)) {
            break;
        } else {
            i += v & 7;
            n++;
        }
    }
    *col += n;
    return i < len ? p + i : end;
}

/* End of the token starting at p. */
static const char *token_end(const char *p, const char *end)
{
    uint32_t col = 0;
    return token_end_col(p, end, &col);
}

static inline const char *skip_blanks(const char *p, const char *end)
{
    size_t k;
    while (p < end && (k = blank_len(p, end))) p += k;
    return p;
}

/* Length of a "move number dot" at p: '.', U+2026 '…', U+FF0E '．'. */
static inline size_t dot_len(const char *p, const char *end)
{
    if (*p == '.') return 1;
    if ((unsigned char)*p != 0xE2 && (unsigned char)*p != 0xEF) return 0;
    if (end - p >= 3 && memcmp(p, "\xE2\x80\xA6", 3) == 0) return 3;
    if (end - p >= 3 && memcmp(p, "\xEF\xBC\x8E", 3) == 0) return 3;
    return 0;
}

/* Can a token of n bytes be a result (result_of)?  Byte lengths of the
 * results: most tokens are none of them. */
static inline bool result_length(size_t n)
{
    const uint32_t lengths = 1u << 1 | 1u << 3 | 1u << 5 | 1u << 6 | 1u << 7 | 1u << 9 |
                             1u << 17 | 1u << 21;
    return n <= 21 && (lengths >> n & 1);
}

static xq_result result_of(const char *t, size_t n)
{
#define R(s, r) {s, sizeof s - 1, r}
    static const struct { const char *s; size_t n; xq_result r; } results[] = {
        R("1-0", XQ_RESULT_RED), R("0-1", XQ_RESULT_BLACK),
        R("1/2-1/2", XQ_RESULT_DRAW), R("*", XQ_RESULT_UNKNOWN),
        R("½-½", XQ_RESULT_DRAW), R("１－０", XQ_RESULT_RED),
        R("０－１", XQ_RESULT_BLACK), R("１/２－１/２", XQ_RESULT_DRAW),
        R("１／２－１／２", XQ_RESULT_DRAW), R("＊", XQ_RESULT_UNKNOWN),
        R("红胜", XQ_RESULT_RED), R("紅勝", XQ_RESULT_RED),
        R("黑胜", XQ_RESULT_BLACK), R("黑勝", XQ_RESULT_BLACK),
        R("和棋", XQ_RESULT_DRAW), R("和局", XQ_RESULT_DRAW),
    };
#undef R
    if (!result_length(n)) return XQ_RESULT_NONE;
    for (size_t i = 0; i < sizeof results / sizeof results[0]; i++)
        if (results[i].n == n && memcmp(results[i].s, t, n) == 0) return results[i].r;
    return XQ_RESULT_NONE;
}

/* NAG code of "!", "?", "!!", "??", "!?", "?!", else 0. */
static uint16_t suffix_nag(const char *t, size_t n)
{
    static const char *const s[] = {"!", "?", "!!", "??", "!?", "?!"};
    if (n == 0 || n > 2 || (t[0] != '!' && t[0] != '?')) return 0;
    for (size_t i = 0; i < 6; i++)
        if (strlen(s[i]) == n && memcmp(s[i], t, n) == 0) return (uint16_t)(i + 1);
    return 0;
}

/* Split a token into a move number and the rest: returns true for a move
 * number ("1", "1.", "1...", "1…", and "1.炮二平五" with *rest set to the
 * glued move).  "62.5" (ElephantEye digit notation) is a move, not a
 * number. */
static bool move_number(const char *t, const char *end, uint32_t *num, const char **rest)
{
    const char *p = t;
    uint64_t v = 0;
    while (p < end && *p >= '0' && *p <= '9') {
        if (v < 1000000000) v = v * 10 + (uint64_t)(*p - '0');
        p++;
    }
    if (p == t) return false;
    const char *digits_end = p;
    size_t k;
    while (p < end && (k = dot_len(p, end))) p += k;
    if (p < end) {
        if (p == digits_end) return false;            /* "12abc" */
        if (*p >= '0' && *p <= '9') return false;     /* "62.5" */
    }
    *num = (uint32_t)v;
    *rest = p;
    return true;
}

/* True when the token is only dots / ellipses: a skipped-move placeholder. */
static bool placeholder(const char *t, const char *end)
{
    size_t k;
    while (t < end && (k = dot_len(t, end))) t += k;
    return t == end;
}

/* ---- diagnostics ------------------------------------------------------ */

/* File offset of column col of the current line; linear in total when
 * columns increase along the line. */
static uint64_t off_at(xq_reader *r, uint32_t col)
{
    if (col == 0) col = 1;
    if (col < r->walk_col) {
        r->walk_col = 1;
        r->walk_byte = 0;
    }
    r->walk_byte = xq_input_col_bytes(r->in, &r->line, r->walk_byte, col - r->walk_col);
    r->walk_col = col;
    return r->line.offset + r->walk_byte;
}

/* Add a diagnostic at column col of the current line (cheap once the
 * game's diagnostic list is full). */
static void diag(xq_reader *r, xq_game *g, xq_severity sev, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void diag(xq_reader *r, xq_game *g, xq_severity sev, uint32_t col, const char *fmt, ...)
{
    if (g->diag_count > XQ_GAME_MAX_DIAGS) {
        g->diag_dropped[sev]++;
        return;
    }
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    xq_game_diag(g, sev, (uint32_t)r->line.number, col, off_at(r, col), "%s", buf);
}

/* Running column of increasing positions in a decoded line. */
typedef struct {
    const char *p;
    uint32_t col;
} colpos;

static uint32_t col_of(colpos *c, const char *p)
{
    c->col += nchars(c->p, p);
    c->p = p;
    return c->col;
}

static void on_bad(void *ctx, uint64_t offset, size_t out_pos, const char *why)
{
    xq_reader *r = ctx;
    if (r->nbad < MAX_LINE_BAD) {
        r->bad[r->nbad].offset = offset;
        r->bad[r->nbad].pos = out_pos;
        r->bad[r->nbad].why = why;
    }
    r->nbad++;
}

/* ---- tag-name set ----------------------------------------------------- */

/* The usual tag names (formats.md §1c and what the corpora use), letters
 * only, grouped by length (KNOWN_FROM): a name is matched against the few
 * of its length by bytes, ASCII case ignored, instead of being hashed.  A
 * record's names that match one are kept as a bit set (known_seen), the
 * others in the hash set below.  A name written exactly as here is stored
 * as the static string (xq_game_add_tag_ref), not copied.
 * tests/unit/test_tag_names.c checks the table (lengths, groups, letters
 * only) and the set against a plain list of names. */
struct known {
    const char *name;
    char pat[16];   /* the name, ' ', '"' (what starts a common tag line's rest), zeros */
    uint8_t len;    /* strlen(name) */
};
/* The names in table order, for KNOWN and KNOWN_TAG. */
#define KNOWN_NAMES(X)                                                     \
    X("Red") X("FEN")                                           /* 3 */  \
    X("Game") X("Site") X("Date") X("ECCO") X("Time")           /* 4 */  \
    X("Event") X("Round") X("Black") X("White")                 /* 5 */  \
    X("Result") X("Format") X("RedElo") X("Remark") X("Author") /* 6 */  \
    X("RedTeam") X("Opening") X("Variant") X("RedTime")         /* 7 */  \
    X("PlyCount") X("BlackElo") X("WhiteElo")                   /* 8 */  \
    X("BlackTeam") X("Variation") X("WhiteTeam") X("Annotator") /* 9 */  \
    X("EventDate") X("BlackTime") X("WhiteTime")                /* 9 */  \
    X("TimeControl") X("Termination")                           /* 11 */
#define K(s) {s, s " \"", sizeof s - 1},
enum { K_FEN = 1, K_RESULT = 11, K_FORMAT = 12 };   /* indices of "FEN", "Result", "Format" in KNOWN */
/* The KNOWN names whose first tag a record notes (tag_noted): a bit each,
 * so that a tag of another name costs one test. */
#define NOTED_IDS ((uint64_t)1 << K_FEN | (uint64_t)1 << K_RESULT | (uint64_t)1 << K_FORMAT)
static const struct known KNOWN[] = {KNOWN_NAMES(K)};
#undef K
/* What tag_run needs of each KNOWN name, in one entry of 32 bytes: the
 * start of its tag line as it is written, '[', the name, ' ', '"', then
 * zeros (compared with a line's first 16 bytes at once: known_line), the
 * mask of those bytes' bits (bit i: byte i), the name (the static string
 * a tag keeps) and its length. */
struct known_tag {
    _Alignas(16) char line[16];
    const char *name;
    uint16_t mask;
    uint8_t len;
};
#define K(s) {"[" s " \"", s, (uint16_t)((1u << (sizeof s + 2)) - 1), sizeof s - 1},
static const struct known_tag KNOWN_TAG[] = {KNOWN_NAMES(K)};
#undef K
#undef KNOWN_NAMES
enum { KNOWN_COUNT = sizeof KNOWN / sizeof KNOWN[0], KNOWN_MAX = 16 };
_Static_assert(sizeof KNOWN_TAG / sizeof KNOWN_TAG[0] == KNOWN_COUNT, "KNOWN_TAG: one a name");
/* KNOWN[KNOWN_FROM[n] .. KNOWN_FROM[n + 1]) are the names of n bytes. */
static const uint8_t KNOWN_FROM[KNOWN_MAX + 1] = {
    0, 0, 0, 0, 2, 7, 11, 16, 20, 23, 30, 30, 32, 32, 32, 32, 32,
};

/* Index in KNOWN of the name s[0..n) (ASCII case ignored: the names are
 * letters, for which bit 0x20 is the case), or -1; *exact tells whether
 * it is written as there. */
static inline int known_name(const char *s, size_t n, bool *exact)
{
    if (n - 3 > KNOWN_MAX - 4) return -1;   /* n < 3 or n >= KNOWN_MAX */
    for (unsigned k = KNOWN_FROM[n]; k < KNOWN_FROM[n + 1]; k++) {
        const unsigned char *u = (const unsigned char *)s, *t = (const unsigned char *)KNOWN[k].name;
        unsigned d = u[0] ^ t[0], x = 0;   /* (letters: bit 0x20 is the case) */
        if (d & ~0x20u) continue;
        size_t i = 1;
        for (; i < n && !((x = u[i] ^ t[i]) & ~0x20u); i++) d |= x;
        if (i < n) continue;
        *exact = d == 0;
        return (int)k;
    }
    return -1;
}

/* FNV-1a over every byte of the name, with bit 0x20 set so that names
 * equal but for ASCII case (name_is) hash alike.  Every byte counts: a
 * hash of a few bytes (length, first, last) put the names T1 ... T4000 of
 * one record in a handful of chains, and reading it took minutes.  Only
 * names that are not KNOWN are hashed. */
static uint32_t name_hash(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ (u[i] | 0x20u)) * 16777619u;
    return h ^ h >> 16;
}

static void names_clear(xq_reader *r)
{
    r->known_seen = 0;
    if (!r->names_n) return;
    r->names_n = 0;
    if (r->names_cap > 64) {
        free(r->names);
        r->names = NULL;
        r->names_cap = 0;
    } else {
        memset(r->names, 0, r->names_cap * sizeof *r->names);
    }
}

/* Is the NUL-terminated name t equal to s[0..n), but for ASCII case? */
static bool name_is(const char *t, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char x = (unsigned char)t[i], y = (unsigned char)s[i];
        if (!x) return false;
        if (x >= 'A' && x <= 'Z') x = (unsigned char)(x + 32);
        if (y >= 'A' && y <= 'Z') y = (unsigned char)(y + 32);
        if (x != y) return false;
    }
    return t[n] == '\0';
}

/* Has the record a tag named s[0..n) (any ASCII case), which is not a
 * KNOWN name, in the hash set? */
static bool names_seen_other(const xq_reader *r, const xq_game *g, const char *s, size_t n)
{
    if (!r->names_n) return false;
    size_t mask = r->names_cap - 1;
    for (size_t i = name_hash(s, n) & mask; r->names[i]; i = (i + 1) & mask)
        if (name_is(g->tags[r->names[i] - 1].name, s, n)) return true;
    return false;
}

/* Has the record a tag named s[0..n) (any ASCII case)?  id is
 * known_name's answer for it. */
static inline bool names_seen_id(const xq_reader *r, const xq_game *g, const char *s, size_t n,
                                 int id)
{
    return id >= 0 ? r->known_seen >> id & 1 : names_seen_other(r, g, s, n);
}

static inline __attribute__((always_inline)) bool names_seen(const xq_reader *r, const xq_game *g, const char *s, size_t n)
{
    bool exact;
    return names_seen_id(r, g, s, n, known_name(s, n, &exact));
}

/* Put tag index idx (0-based) of g, whose name is not KNOWN and has
 * name_hash h, in the hash set (which grows to stay at most half full). */
static bool names_add_other(xq_reader *r, const xq_game *g, size_t idx, uint32_t h)
{
    if ((r->names_n + 1) * 2 > r->names_cap) {
        size_t cap = r->names_cap ? r->names_cap * 2 : 64, old = r->names_cap;
        uint32_t *t = calloc(cap, sizeof *t), *o = r->names;
        if (!t) return false;
        r->names = t;
        r->names_cap = cap;
        for (size_t i = 0; i < old; i++)
            if (o[i]) {
                const char *s = g->tags[o[i] - 1].name;
                size_t j = name_hash(s, strlen(s)) & (cap - 1);
                while (t[j]) j = (j + 1) & (cap - 1);
                t[j] = o[i];
            }
        free(o);
    }
    size_t mask = r->names_cap - 1, i = h & mask;
    while (r->names[i]) i = (i + 1) & mask;
    r->names[i] = (uint32_t)idx + 1;
    r->names_n++;
    return true;
}

/* ---- the line-of-play stack ------------------------------------------- */

static frame *top(xq_reader *r) { return &r->frames[r->depth]; }

/* Room for one more node at the end of f (grows its scratch array);
 * NULL on out-of-memory. */
static inline xq_node *frame_new_node(frame *f)
{
    if (f->count == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 128;
        xq_node *p = realloc(f->nodes, cap * sizeof *p);
        if (!p) return NULL;
        f->nodes = p;
        f->cap = cap;
    }
    return &f->nodes[f->count++];
}

/* The bytes of an xq_node from its comment to its end: all zero in a
 * node as read (NULL, 0, XQ_MOVE_NONE), cleared in two 16-byte stores. */
enum { NODE_EMPTY_AT = offsetof(xq_node, comment), NODE_EMPTY = sizeof(xq_node) - NODE_EMPTY_AT };
_Static_assert(NODE_EMPTY == 32 && XQ_MOVE_NONE == 0, "node_fill: the empty part of a node");

/* A move node as read: text (len bytes, 0 = unknown) at line:col, after
 * move number `number` (0 = none), with desc (xq_node.desc: the text's
 * xq_move_desc, or 0 = unknown); no comment, NAG or variation yet.
 * Field by field, no compound literal, and the empty fields (comment
 * to move) as one block: a tighter store sequence on the tokenizer's
 * hot path (7 stores a node, not 10). */
static inline void node_fill(xq_node *n, const char *text, size_t len, uint32_t line, uint32_t col,
                             uint32_t number, uint16_t desc)
{
    n->text = text;
    n->line = line;
    n->col = col;
    n->number = number;
    n->text_len = (uint16_t)len;
    n->desc = desc;
    memset((char *)n + NODE_EMPTY_AT, 0, NODE_EMPTY);
}

/* Copy the nodes of f into the arena as a branch. */
static xq_branch frame_branch(xq_game *g, const frame *f)
{
    xq_branch b = {NULL, 0, f->comment};
    if (f->count) {
        b.nodes = xq_game_alloc(g, f->count * sizeof *b.nodes);
        if (b.nodes) {
            memcpy(b.nodes, f->nodes, f->count * sizeof *b.nodes);
            b.count = f->count;
        }
    }
    return b;
}

/* Copy the pending comments of f to their node (or f's pre-comment). */
static void flush_comment(xq_game *g, frame *f)
{
    if (!f->pend_on) return;
    const char *c = xq_game_strndup(g, f->pend.p ? f->pend.p : "", f->pend.len);
    if (f->pend_node == SIZE_MAX) f->comment = c;
    else f->nodes[f->pend_node].comment = c;
    f->pend_on = false;
    f->pend.len = 0;
}

/* Close the innermost variation and hang it on its parent node. */
static void close_variation(xq_reader *r, xq_game *g)
{
    flush_comment(g, top(r));
    xq_branch b = frame_branch(g, top(r));
    r->depth--;
    xq_node *parent = &top(r)->nodes[r->frames[r->depth + 1].parent];
    xq_branch *v = xq_game_grow(g, parent->variations, parent->variation_count, sizeof *v);
    if (v) {
        v[parent->variation_count++] = b;
        parent->variations = v;
    }
    r->pending_number = 0;
}

static void open_variation(xq_reader *r, xq_game *g, uint32_t col)
{
    if (r->skip) {
        r->skip++;
        return;
    }
    if (top(r)->count == 0 || r->depth >= XQ_MAX_VARIATION_DEPTH) {
        if (top(r)->count == 0)
            diag(r, g, XQ_SEV_ERROR, col, "variation before any move; skipped");
        else if (!r->depth_warned)
            diag(r, g, XQ_SEV_ERROR, col, "variations nested deeper than %d; skipped",
                 (int)XQ_MAX_VARIATION_DEPTH);
        if (top(r)->count) r->depth_warned = true;
        r->skip = 1;
        r->skip_line = (uint32_t)r->line.number;
        r->skip_col = col;
        r->skip_off = off_at(r, col);
        return;
    }
    if (r->depth + 1 >= r->frame_cap) {
        size_t cap = r->frame_cap * 2;
        frame *f = realloc(r->frames, cap * sizeof *f);
        if (!f) {
            g->out_of_memory = true;   /* the variation is dropped */
            return;
        }
        memset(f + r->frame_cap, 0, (cap - r->frame_cap) * sizeof *f);
        r->frames = f;
        r->frame_cap = cap;
    }
    size_t parent = top(r)->count - 1;
    r->depth++;
    frame *f = top(r);
    f->count = 0;
    f->comment = NULL;
    f->pend_on = false;
    f->parent = parent;
    f->line = (uint32_t)r->line.number;
    f->col = col;
    f->offset = off_at(r, col);
    r->pending_number = 0;
}

/* ---- comments --------------------------------------------------------- */

/* A comment after the last move of the current line, or before its first
 * move; several in a row are joined with '\n'. */
static void attach_comment(xq_reader *r, xq_game *g, const char *s, size_t n)
{
    if (r->skip) return;
    frame *f = top(r);
    size_t target = f->count ? f->count - 1 : SIZE_MAX;
    if (f->pend_on && f->pend_node != target) flush_comment(g, f);
    if (f->pend_on) {
        xq_buf_append(&f->pend, "\n", 1);
    } else {
        f->pend_on = true;
        f->pend_node = target;
        f->pend.len = 0;
    }
    xq_buf_append(&f->pend, s, n);
}

/* ---- tokens ----------------------------------------------------------- */

static void add_nag(xq_reader *r, xq_game *g, uint16_t nag, uint32_t col)
{
    if (r->skip) return;
    frame *f = top(r);
    if (!f->count) {
        diag(r, g, XQ_SEV_WARNING, col, "annotation before any move ignored");
        return;
    }
    xq_node *node = &f->nodes[f->count - 1];
    if (node->nag_count == UINT16_MAX) return;
    uint16_t *v = xq_game_grow(g, (void *)node->nags, node->nag_count, sizeof *v);
    if (!v) return;
    v[node->nag_count++] = nag;
    node->nags = v;
}

/* Bytes of the current line copied into the arena at once for the moves
 * that follow (a line of moves is shorter; a longer comment after a move
 * is not copied for nothing). */
enum { CUT_WINDOW = 256 };

/* The move t[0..end), a token of the current decoded line r->text, as a
 * NUL-terminated string in g's arena.  Moves are carved out of one arena
 * copy of a window of the line: the byte after a token (a blank, a
 * delimiter, a suffix annotation, or the line end) becomes its NUL in the
 * copy, so a line of moves costs one allocation and one memcpy, not one
 * per move.  Tokens come left to right and never overlap, so a NUL never
 * lands inside a later move.  NULL on out-of-memory. */
static const char *move_text(xq_reader *r, xq_game *g, const char *t, const char *end)
{
    size_t from = (size_t)(t - r->text.s), to = (size_t)(end - r->text.s);
    if (!r->cut || from < r->cut_from || to > r->cut_to) {
        size_t stop = r->text.len - from > CUT_WINDOW ? from + CUT_WINDOW : r->text.len;
        if (stop < to) stop = to;
        r->cut = xq_game_alloc(g, stop - from + 1);
        if (!r->cut) return NULL;
        memcpy(r->cut, t, stop - from);
        r->cut_from = from;
        r->cut_to = stop;
    }
    char *m = r->cut + (from - r->cut_from);
    m[to - from] = '\0';
    return m;
}

static void add_move(xq_reader *r, xq_game *g, const char *t, const char *end, uint32_t col)
{
    if (r->skip) return;
    if (r->moves >= XQ_MAX_RECORD_MOVES) {   /* bounded memory */
        if (!r->moves_warned)
            diag(r, g, XQ_SEV_ERROR, col, "more than %d moves in one record; the rest are skipped",
                 (int)XQ_MAX_RECORD_MOVES);
        r->moves_warned = true;
        return;
    }
    r->moves++;
    /* a glued suffix annotation: "炮二平五!?" */
    uint16_t nag = 0;
    if (end[-1] == '!' || end[-1] == '?')
        for (size_t k = 2; k >= 1 && !nag; k--)
            if ((size_t)(end - t) > k && (nag = suffix_nag(end - k, k))) end -= k;
    const char *text = move_text(r, g, t, end);
    if (!text) return;
    uint32_t number = r->pending_number;
    r->pending_number = 0;
    frame *f = top(r);
    if (f->pend_on) flush_comment(g, f);
    xq_node *n = frame_new_node(f);
    if (!n) {
        g->out_of_memory = true;   /* the move is dropped: the pipeline fails the run */
        return;
    }
    size_t len = (size_t)(end - t);
    node_fill(n, text, len <= UINT16_MAX ? len : 0, (uint32_t)r->line.number, col, number, 0);
    if (nag) add_nag(r, g, nag, col);
}

static void on_result(xq_reader *r, xq_game *g, const char *t, size_t n, xq_result res,
                      uint32_t col)
{
    if (r->depth || r->skip) {
        diag(r, g, XQ_SEV_WARNING, col, "result %.*s inside a variation ignored", (int)n, t);
        return;
    }
    g->result = xq_game_strndup(g, t, n);
    g->result_code = res;
    r->ph = PH_AFTER_RESULT;
}

/* First bytes of tokens that may be something else than a move: results
 * (1 0 * ½ full-width 红紅 黑 和), move numbers (digits), NAGs ($ ! ?),
 * placeholders (. … ．).  A token starting with any other byte is a move.
 * tests/unit/test_reader_fast.c checks it against the tests in token(). */
enum { TF_RESULT = 1, TF_OTHER = 2 };
static const unsigned char TOKFIRST[256] = {
    ['*'] = TF_RESULT, ['0'] = TF_RESULT | TF_OTHER, ['1'] = TF_RESULT | TF_OTHER,
    ['2'] = TF_OTHER, ['3'] = TF_OTHER, ['4'] = TF_OTHER, ['5'] = TF_OTHER, ['6'] = TF_OTHER,
    ['7'] = TF_OTHER, ['8'] = TF_OTHER, ['9'] = TF_OTHER, ['$'] = TF_OTHER, ['!'] = TF_OTHER,
    ['?'] = TF_OTHER, ['.'] = TF_OTHER, [0xE2] = TF_OTHER,
    [0xC2] = TF_RESULT, [0xEF] = TF_RESULT | TF_OTHER, [0xE5] = TF_RESULT, [0xE7] = TF_RESULT,
    [0xE9] = TF_RESULT,
};

/* Classify and apply one token t[0..end) starting at column col. */
static void token(xq_reader *r, xq_game *g, const char *t, const char *end, uint32_t col)
{
    size_t n = (size_t)(end - t);
    unsigned char c0 = (unsigned char)t[0];
    unsigned tf = TOKFIRST[c0];
    if (!tf) {                    /* most moves: 車 馬 俥 ... and letters */
        add_move(r, g, t, end, col);
        return;
    }
    if (c0 >= '0' && c0 <= '9') {
        /* a move number first (the common digit token): move_number
         * refuses the results that start with a digit ("1-0", "0-1",
         * "1/2-1/2": a digit run followed by neither a dot nor the end),
         * so trying it before result_of changes nothing */
        uint32_t num;
        const char *rest;
        if (move_number(t, end, &num, &rest)) {
            if (!r->skip) r->pending_number = num;
            if (rest < end) add_move(r, g, rest, end, col + nchars(t, rest));
            return;
        }
    }
    if (tf & TF_RESULT) {
        xq_result res = result_of(t, n);
        if (res != XQ_RESULT_NONE) {
            on_result(r, g, t, n, res, col);
            return;
        }
    }
    if (c0 == '$' && n > 1) {
        uint32_t v = 0;
        size_t i = 1;
        while (i < n && t[i] >= '0' && t[i] <= '9' && v < 100000) v = v * 10 + (uint32_t)(t[i++] - '0');
        if (i == n) {
            if (v > UINT16_MAX) v = UINT16_MAX;
            add_nag(r, g, (uint16_t)v, col);
            return;
        }
    } else if (c0 == '!' || c0 == '?') {
        uint16_t nag = suffix_nag(t, n);
        if (nag) {
            add_nag(r, g, nag, col);
            return;
        }
    } else if ((c0 == '.' || c0 == 0xE2 || c0 == 0xEF) && placeholder(t, end)) {
        return;
    }
    add_move(r, g, t, end, col);
}

/* The rest of an open {comment} on the current line from p (column *col):
 * closes it at its '}' and returns the byte after it (*col advanced), or
 * keeps the whole rest and returns NULL.  Nothing left on the line adds
 * nothing, not even the line break. */
static const char *comment_body(xq_reader *r, xq_game *g, const char *p, const char *end,
                                uint32_t *col)
{
    if (p == end) return NULL;
    const char *q = memchr(p, '}', (size_t)(end - p));
    if (!q) {
        xq_buf_append(&r->com, p, (size_t)(end - p));
        xq_buf_append(&r->com, "\n", 1);
        return NULL;
    }
    xq_buf_append(&r->com, p, (size_t)(q - p));
    attach_comment(r, g, r->com.p ? r->com.p : "", r->com.len);
    r->in_comment = false;
    *col += nchars(p, q) + 1;
    return q + 1;
}

/* Tokenize movetext s[0..end), s being at 1-based column col.  One STEP
 * lookup sends the common byte, the first of a token that is not a
 * blank (STEP 1..4), straight to the token scanner; the rest (blanks,
 * delimiters, possible Unicode blanks) takes the general path. */
static void movetext(xq_reader *r, xq_game *g, const char *s, const char *end, uint32_t col)
{
    const char *p = s;
    if (r->in_comment && !(p = comment_body(r, g, p, end, &col))) return;
    while (p < end) {
        size_t k;
        if (STEP[(unsigned char)*p] - 1u >= 4u) {   /* blank, delimiter or odd byte */
            if (*p == ' ') {
                p++;
                col++;
                continue;
            }
            if ((k = blank_len(p, end))) {
                p += k;
                col++;
                continue;
            }
        }
        if (r->ph == PH_AFTER_RESULT) {
            if (!r->junk_warned)
                diag(r, g, XQ_SEV_WARNING, col, "text after the result ignored");
            r->junk_warned = true;
            return;
        }
        switch (*p) {
        case '{':
            r->in_comment = true;
            r->com.len = 0;
            r->com_line = (uint32_t)r->line.number;
            r->com_col = col;
            r->com_off = off_at(r, col);
            col++;
            if (!(p = comment_body(r, g, p + 1, end, &col))) return;
            continue;
        case '}':
            diag(r, g, XQ_SEV_WARNING, col, "'}' without '{' ignored");
            p++;
            col++;
            continue;
        case ';':
            attach_comment(r, g, p + 1, (size_t)(end - p - 1));
            return;
        case '(':
            open_variation(r, g, col);
            p++;
            col++;
            continue;
        case ')':
            if (r->skip) r->skip--;
            else if (r->depth) close_variation(r, g);
            else diag(r, g, XQ_SEV_WARNING, col, "')' without '(' ignored");
            p++;
            col++;
            continue;
        default: {
            uint32_t c0 = col;
            const char *q = token_end_col(p, end, &col);
            token(r, g, p, q, c0);
            p = q;
        }
        }
    }
}

/* ---- tags ------------------------------------------------------------- */

/* Bytes that end a tag name (NAME_END) or may (NAME_MAYBE: the lead of a
 * Unicode blank, see blank_len); 0 for the rest.  tests/unit/
 * test_reader_fast.c checks name_char against its definition. */
enum { NAME_END = 1, NAME_MAYBE = 2 };
static const unsigned char NAME_STOP[256] = {
    [' '] = NAME_END, ['\t'] = NAME_END, ['\r'] = NAME_END, ['\v'] = NAME_END,
    ['\f'] = NAME_END, ['"'] = NAME_END, [']'] = NAME_END, ['['] = NAME_END,
    [0xC2] = NAME_MAYBE, [0xE3] = NAME_MAYBE, [0xEF] = NAME_MAYBE,
};

/* A tag name character at p: not a blank, '"', ']' or '['. */
static inline bool name_char(const char *p, const char *end)
{
    if (p >= end) return false;
    unsigned c = NAME_STOP[(unsigned char)*p];
    return c == 0 || (c == NAME_MAYBE && !blank_len(p, end));
}

/* Is s (at its first non-blank char) a tag line start: '[' + name char? */
static bool tag_start(const char *p, const char *end)
{
    return p < end && *p == '[' && name_char(p + 1, end);
}

/* Strict tag line: [Name "value"] and nothing else. */
static bool strict_tag_line(const char *p, const char *end)
{
    p = skip_blanks(p, end);
    if (!tag_start(p, end)) return false;
    p++;
    while (name_char(p, end)) p++;
    p = skip_blanks(p, end);
    if (p == end || *p != '"') return false;
    for (p++; p < end && *p != '"'; p++)
        if (*p == '\\' && p + 1 < end) p++;
    if (p == end) return false;
    p = skip_blanks(p + 1, end);
    if (p == end || *p != ']') return false;
    return skip_blanks(p + 1, end) == end;
}

/* The '"' that closes a tag value on this line when the value holds
 * unescaped quotes (`[Event "1999年"中行杯"..."]`): the last '"' followed
 * by blanks and ']'; NULL if none.  p is just after the opening quote. */
static const char *last_close_quote(const char *p, const char *end)
{
    const char *e = end;
    while (e > p && blank_len(e - 1, end) == 1) e--;
    if (e == p || e[-1] != ']') return NULL;
    e--;
    while (e > p && blank_len(e - 1, end) == 1) e--;
    if (e == p || e[-1] != '"') return NULL;
    /* an escaped \" is not a closing quote */
    size_t bs = 0;
    for (const char *q = e - 1; q > p && q[-1] == '\\'; q--) bs++;
    return bs % 2 ? NULL : e - 1;
}

/* The column of a FEN tag's value on a line `[FEN "value"]` (the fast
 * paths' lines: the name as KNOWN has it, one blank). */
enum { FEN_FAST_COL = sizeof "[FEN \"" };

/* The tag just added to g is the record's first FEN tag: note it, and
 * where its value starts in g (line, col; verbatim: the value as the
 * line has it), the place of a finding about the start
 * (xq_game.fen_line; the general way corrects col and verbatim after). */
static inline void fen_tag_added(xq_reader *r, xq_game *g, uint64_t line)
{
    r->fen_tag = g->tag_count;
    g->fen_line = (uint32_t)line;
    g->fen_col = FEN_FAST_COL;
    g->fen_verbatim = true;
}

/* The tag just added to g, on line `line`, is named KNOWN[id], one of
 * NOTED_IDS: note it if it is the record's first of the name (what
 * xq_game_tag finds): the FEN tag (fen_tag_added), the Result and Format
 * tags (their index, xq_game.result_tag). */
static inline void tag_noted(xq_reader *r, xq_game *g, int id, uint64_t line)
{
    if (id == K_FEN) {
        if (!r->fen_tag) fen_tag_added(r, g, line);
    } else if (id == K_RESULT) {
        if (!r->result_tag) r->result_tag = (uint32_t)g->tag_count;
    } else if (!r->format_tag) {
        r->format_tag = (uint32_t)g->tag_count;
    }
}

/* Note the tag just added to g, whose name is name_len bytes long (no
 * NUL: decoded text has none) and is KNOWN[id] (id >= 0) or no known
 * name (-1): in the set of names, and as the record's FEN, Result or
 * Format tag if it is the first of its name (tag_noted), on line
 * `line`. */
static inline void tag_added_id(xq_reader *r, xq_game *g, size_t name_len, int id, uint64_t line)
{
    if (id >= 0) {
        r->known_seen |= (uint64_t)1 << id;
        if (NOTED_IDS >> id & 1) tag_noted(r, g, id, line);
        return;
    }
    const char *s = g->tags[g->tag_count - 1].name;
    names_add_other(r, g, g->tag_count - 1, name_hash(s, name_len));
}

/* tag_added_id for a tag of the line s being read the general way, its
 * value starting at value (verbatim or not; the column counted only for
 * a FEN tag). */
static void tag_added(xq_reader *r, xq_game *g, size_t name_len, const char *s, const char *value, bool verbatim)
{
    bool exact;
    bool first_fen = !r->fen_tag;
    tag_added_id(r, g, name_len, known_name(g->tags[g->tag_count - 1].name, name_len, &exact), r->line.number);
    if (first_fen && r->fen_tag) {   /* (this line's place of the value) */
        g->fen_col = 1 + nchars(s, value);
        g->fen_verbatim = verbatim;
    }
}

/* The common tag line, `[Name "value"]` and nothing else (one space, no
 * quote or backslash in the value, nothing after the ']'): the tag added
 * straight from the line, as tag_line's general loop would add it.  p is
 * at the '[' (tag_start).  false, having done nothing, for any other. */
static bool simple_tag(xq_reader *r, xq_game *g, const char *s, const char *p, const char *end)
{
    const char *name = p + 1, *q = name;
    while (q < end && NAME_STOP[(unsigned char)*q] == 0) q++;
    if (end - q < 4 || q[0] != ' ' || q[1] != '"') return false;
    const char *v = q + 2, *close = memchr(v, '"', (size_t)(end - v));
    if (!close || close + 2 != end || close[1] != ']' || memchr(v, '\\', (size_t)(close - v)))
        return false;
    if (xq_game_add_tag(g, name, (size_t)(q - name), v, (size_t)(close - v)))
        tag_added(r, g, (size_t)(q - name), s, v, true);
    return true;
}

/* Up to max bytes of UTF-8 text t[0..n), cut at a character's start:
 * the length to show in a message. */
static int shown_len(const char *t, size_t n, size_t max)
{
    if (n <= max) return (int)n;
    while (max && ((unsigned char)t[max] & 0xC0) == 0x80) max--;
    return (int)max;
}

/* The tag name[0..n) at column col of its line repeats a tag this record
 * has from the same line (a line of tags is never split into records,
 * unlike a tag line: xq(7)), and value[0..vn) is its new value: warn,
 * saying which value the tools read (the first: xq_game_tag, the Result
 * and Format notes).  Before the tag is added. */
static __attribute__((noinline, cold)) void repeat_on_line_warn(xq_reader *r, xq_game *g, uint32_t col,
                                                                const char *name, size_t n,
                                                                const char *value, size_t vn)
{
    const char *first = "";
    for (size_t i = 0; i < g->tag_count; i++)
        if (name_is(g->tags[i].name, name, n)) {
            first = g->tags[i].value;
            break;
        }
    size_t fn = strlen(first);
    diag(r, g, XQ_SEV_WARNING, col,
         "the tag [%.*s] repeats one of this record's tags, in a line of several tags, which is never "
         "split into records: its first value \"%.*s%s\" is the one read, \"%.*s%s\" is not",
         shown_len(name, n, 31), name, shown_len(first, fn, 40), first, fn > 40 ? "..." : "",
         shown_len(value, vn, 40), value, vn > 40 ? "..." : "");
}

/* Parse the tags of a line starting at p ('['); leftover text after the
 * last tag is movetext.  A tag name that repeats one of the record's
 * (a line of tags whose first name is new: starts_record) is kept as a
 * second tag of that name, with a warning (repeat_on_line_warn). */
static void tag_line(xq_reader *r, xq_game *g, const char *s, const char *p, const char *end)
{
    if (simple_tag(r, g, s, p, end)) return;
    const char *line_start = p;
    bool ok = true;
    /* the columns of the tags, counted on from one tag to the next: a line
     * of many tags costs no count from the line's start for each */
    colpos cp = {s, 1};
    while (ok && tag_start(p, end)) {
        const char *tag = p;
        uint32_t tag_col = col_of(&cp, tag);   /* (for diagnostics: nchars(tag, x) on from it) */
        const char *name = ++p;
        while (name_char(p, end)) p++;
        size_t name_len = (size_t)(p - name);
        p = skip_blanks(p, end);
        r->scratch.len = 0;
        /* where the value starts (its column: a FEN tag's) */
        const char *value = p < end && *p == '"' ? p + 1 : p;
        bool verbatim = false;   /* the value as the line has it */
        if (p < end && *p == '"') {
            const char *quote = p;
            const char *v = ++p;
            const char *close = last_close_quote(p, end);
            bool bare_quote = false;   /* a '"' in the value without its '\\' (\" is no warning) */
            while (p < end) {
                if (*p == '\\' && p + 1 < end && (p[1] == '"' || p[1] == '\\')) {
                    xq_buf_append(&r->scratch, v, (size_t)(p - v));
                    v = ++p;
                } else if (*p == '"') {
                    const char *q = skip_blanks(p + 1, end);
                    if ((q < end && *q == ']') || !close || p >= close) break;
                    bare_quote = true;
                }
                p++;
            }
            if (p == end) {
                diag(r, g, XQ_SEV_ERROR, tag_col + nchars(tag, quote),
                     "tag value not closed by '\"' at end of line");
                ok = false;
                const char *e = end;
                while (e > v && (e[-1] == ']' || blank_len(e - 1, end) == 1)) e--;
                xq_buf_append(&r->scratch, v, (size_t)(e - v));
            } else {
                xq_buf_append(&r->scratch, v, (size_t)(p - v));
                verbatim = r->scratch.len == (size_t)(p - value);   /* no escape in it */
                if (bare_quote)
                    diag(r, g, XQ_SEV_WARNING, tag_col + nchars(tag, quote),
                         "'\"' inside a tag value not escaped");
                p = skip_blanks(p + 1, end);
                if (p < end && *p == ']') {
                    p++;
                } else {
                    diag(r, g, XQ_SEV_ERROR, tag_col + nchars(tag, p), "tag not closed by ']'");
                    ok = false;
                }
            }
        } else {
            /* [Name value] without quotes */
            const char *v = p;
            while (p < end && *p != ']') p++;
            const char *e = p;
            while (e > v && blank_len(e - 1, end) == 1) e--;
            xq_buf_append(&r->scratch, v, (size_t)(e - v));
            if (p < end) p++;
            else diag(r, g, XQ_SEV_ERROR, tag_col, "tag not closed by ']'");
            diag(r, g, XQ_SEV_WARNING, tag_col, "tag value not in quotes");
        }
        /* (the line's first name never repeats one: starts_record would
         * have ended the record at this line) */
        if (tag != line_start && names_seen(r, g, name, name_len)) {
            /* (its search of the tags only while the list takes warnings:
             * a line of many repeats stays linear) */
            if (g->diag_count > XQ_GAME_MAX_DIAGS) g->diag_dropped[XQ_SEV_WARNING]++;
            else repeat_on_line_warn(r, g, tag_col, name, name_len, r->scratch.p ? r->scratch.p : "", r->scratch.len);
        }
        if (xq_game_add_tag(g, name, name_len, r->scratch.p ? r->scratch.p : "", r->scratch.len))
            tag_added(r, g, name_len, s, value, verbatim);
        p = skip_blanks(p, end);
    }
    if (ok && p < end) {
        r->ph = PH_MOVES;
        movetext(r, g, p, end, col_of(&cp, p));
    }
}

/* ---- records ---------------------------------------------------------- */

/* Raw bytes of the record: the lines taken are a run of the input
 * (raw_from..raw_to, kept in the input's buffer with xq_input_keep) copied
 * into the game at once when the run breaks (a cut line skips bytes) and
 * at the end of the record, instead of line by line. */

/* Copy the pending run into g's raw bytes (no_raw: count it). */
static void raw_flush(xq_reader *r, xq_game *g)
{
    if (r->raw_to > r->raw_from) {
        size_t n = (size_t)(r->raw_to - r->raw_from);
        if (r->no_raw) g->raw_len += n;
        else xq_game_append_raw(g, xq_input_kept(r->in, r->raw_from), n);
    }
    r->raw_from = r->raw_to;
    xq_input_keep(r->in, UINT64_MAX);
}

/* Bytes of the record so far, taken lines (raw_take) included. */
static inline uint64_t raw_bytes(const xq_reader *r, const xq_game *g)
{
    return g->raw_len + (r->raw_to - r->raw_from);
}

/* Add the current line, not a cut one, to the record's raw bytes. */
static inline void raw_take_whole(xq_reader *r, xq_game *g)
{
    if (r->raw_to > r->raw_from && r->line.offset == r->raw_to) {
        r->raw_to += r->line.raw_len;
        return;
    }
    raw_flush(r, g);
    if (g->raw_len == 0) g->offset = r->line.offset;
    r->raw_from = r->line.offset;
    r->raw_to = r->line.offset + r->line.raw_len;
    xq_input_keep(r->in, r->raw_from);
}

/* Add the current line to the record's raw bytes.  A cut line ends the
 * run at once: the input then skips the rest of the line (up to any
 * size) without keeping anything. */
static void raw_take(xq_reader *r, xq_game *g)
{
    raw_take_whole(r, g);
    if (r->line.cut) raw_flush(r, g);
}

/* Swap the reader's main-line node array (frame 0's) with the game's
 * spare one.  At a record's start it takes the one the game's last
 * record used (handed over to it by record_end, which swaps the same
 * way; free since the reset), the reader's other one kept by the game
 * meanwhile.  So every record of
 * a game read again and again (the -j 1 loop) is read into the same
 * array, the one the last record's replay has just read (in the cache),
 * not into one left alone for a whole record (on the first 7 MB of the
 * masters file, in callgrind's model of a 32 KiB L1, pair_run's stores
 * missed it 398 K times for 497 K nodes, now 149 K). */
static void main_nodes_take(xq_reader *r, xq_game *g)
{
    frame *f0 = &r->frames[0];
    xq_node *mine = f0->nodes;
    size_t cap = f0->cap;
    f0->nodes = g->node_buf;
    f0->cap = g->node_cap;
    g->node_buf = mine;
    g->node_cap = cap;
}

static void record_begin(xq_reader *r, xq_game *g)
{
    xq_game_reset(g);
    main_nodes_take(r, g);
    r->ph = PH_START;
    r->any_line = r->blank_in_tags = r->junk_warned = r->depth_warned = r->split_tag = false;
    r->position_taken = false;
    r->file_moves += r->moves;
    r->moves = 0;
    r->moves_warned = false;
    r->pending_number = 0;
    r->depth = 0;
    r->frames[0].count = 0;
    r->frames[0].comment = NULL;
    r->frames[0].pend_on = false;
    r->skip = 0;
    r->in_comment = false;
    r->cut = NULL;
    r->mt = r->mt_end = NULL;
    r->raw_from = r->raw_to = 0;
    r->fen_tag = 0;
    r->result_tag = r->format_tag = 0;
    r->tt = r->tt_end = NULL;
    names_clear(r);
}

static bool has_play(const xq_reader *r, const xq_game *g)
{
    return r->frames[0].count || r->depth || r->skip || g->result;
}

/* The tag line of name[0..n) ends the record (it starts the next one)
 * while the record is in its tags with no blank line since (the case of
 * split_warn): kept for record_end.  Not called at the usual ends of
 * records (a tag line after the movetext), so that they pay nothing. */
static __attribute__((noinline, cold)) void split_at_tag(xq_reader *r, const char *name, size_t n)
{
    r->split_tag = true;
    r->split_name_len = (uint8_t)(n < sizeof r->split_name ? n : sizeof r->split_name - 1);
    memcpy(r->split_name, name, r->split_name_len);
}

/* A record of tags and no play (no move, no result) that a tag line at
 * next_line ended because its name repeats one of the record's (no blank
 * line between: one tag section).  That is one record's tag section with
 * a tag written twice as often as a record of tags alone (a forfeit, a
 * game not played) run into the next one; both are kept, and the split
 * is said, so that the user can tell.  A record of tags ended by a blank
 * line and a tag line, or by a tag line after movetext, is the format's
 * plain reading (xq(7)): no warning. */
static __attribute__((noinline, cold)) void split_warn(xq_reader *r, xq_game *g, uint64_t next_line)
{
    xq_game_diag(g, XQ_SEV_WARNING, (uint32_t)g->first_line, 1, g->offset,
                 "tags and no moves: the tag [%.*s] at line %llu repeats one of this record's tags, so it "
                 "starts the next record",
                 (int)r->split_name_len, r->split_name, (unsigned long long)next_line);
}

/* Is there a blank line (ASCII blanks only) among the record's lines
 * after its last line that starts with '[' (a tag line)?  Read back from
 * the end of the record's run of raw bytes in the input's buffer
 * (raw_take_whole); true, as the plain reading of a record of tags,
 * when that run does not reach back to a tag line (a cut line flushed
 * it): no warning then. */
static bool blank_after_tags(const xq_reader *r)
{
    if (r->raw_to <= r->raw_from) return true;
    const unsigned char *b = xq_input_kept(r->in, r->raw_from);
    size_t end = (size_t)(r->raw_to - r->raw_from);
    while (end) {
        size_t start = end - 1;   /* (end - 1: the line's '\n') */
        while (start && b[start - 1] != '\n') start--;
        size_t i = start;
        while (i < end && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n')) i++;
        if (i == end) return true;
        if (b[i] == '[') return false;
        end = start;
    }
    return true;
}

/* A record of tags, then text but no play (a comment, on the tags' last
 * line or a line of its own), that a tag line at next_line ended: the
 * tag line after movetext starts the next record (starts_record,
 * tag_run, fast_tag) whatever its name.  When the name repeats one of
 * the record's tags and no blank line came after the tags, it is
 * split_warn's case with a comment between: warn the same.  The tag line is the one left unread: at the start of the
 * input's window after the fast path (ASCII names only there), else
 * pushed back (the window empty) and decoded in r->text. */
static __attribute__((noinline, cold)) void split_after_text(xq_reader *r, xq_game *g, uint64_t next_line)
{
    const unsigned char *w;
    uint64_t off, number;
    size_t wn = xq_input_window(r->in, &w, &off, &number);
    const char *p, *end;
    if (wn) {
        p = (const char *)w;
        const char *nl = memchr(p, '\n', wn);
        end = nl ? nl : p + wn;
    } else {
        end = r->text.s + r->text.len;
        p = skip_blanks(r->text.s, end);
    }
    if (!tag_start(p, end)) return;
    const char *name = p + 1, *q = name;
    while (name_char(q, end)) q++;
    if (!names_seen(r, g, name, (size_t)(q - name)) || blank_after_tags(r)) return;
    split_at_tag(r, name, (size_t)(q - name));
    split_warn(r, g, next_line);
}

/* record_end's warnings about a record that a tag line at next_line (0:
 * the end of the input) ended before any play: split_warn's case, or
 * split_after_text's. */
static __attribute__((noinline, cold)) void split_check(xq_reader *r, xq_game *g, uint64_t next_line)
{
    if (!next_line || has_play(r, g)) return;
    if (r->split_tag) split_warn(r, g, next_line);
    else if (r->ph == PH_MOVES && g->tag_count && !r->in_comment) split_after_text(r, g, next_line);
}

/* Close everything still open and fill the rest of g.  next_line is the
 * line that starts the next record, 0 at the end of the input. */
/* A record with no tag, move or result, in any format, holds no game: kept
 * (converted, counted), as every record is, but an error, never a valid
 * game (a file of notes, a line of % escapes or stray ')', a JSON object
 * with none of a record's fields).  A comment before a PGN record's tags
 * joins that record and one after its result (or a position line) that
 * one, so this is no record's note; a position line is a game (of the
 * start position, `position startpos`, with no move).  One the reader
 * has an error for already (an unreadable JSON Lines line) is left with
 * that. */
static __attribute__((noinline, cold)) void no_game(const xq_reader *r, xq_game *g)
{
    if (xq_game_count_diags(g, XQ_SEV_ERROR)) return;
    const char *c = g->main.comment;
    bool json = c && c[0] == '"' && r->format == XQ_FMT_PGN;
    xq_game_diag(g, XQ_SEV_ERROR, (uint32_t)g->first_line, 1, g->offset, "no game: %s%s",
                 c ? "a comment alone, with no tag, move or result" : "no tag, move or result",
                 json ? " (JSON Lines records have one of the fields tags, moves, fen, result, comment, file or "
                        "game)"
                      : "");
}

static void record_end(xq_reader *r, xq_game *g, uint64_t next_line)
{
    /* (a record that ends in its movetext without a result is rare: a
     * test of two flags for the usual ones) */
    if (__builtin_expect(r->split_tag || r->ph == PH_MOVES, 0)) split_check(r, g, next_line);
    char where[64] = "";
    if (r->in_comment || r->depth || r->skip) {   /* only for these messages */
        if (next_line) snprintf(where, sizeof where, "before the next record at line %llu",
                                (unsigned long long)next_line);
        else snprintf(where, sizeof where, "at end of input");
    }
    if (r->in_comment) {
        xq_game_diag(g, XQ_SEV_ERROR, r->com_line, r->com_col, r->com_off,
                     "comment '{' not closed %s", where);
        if (r->com.len && r->com.p[r->com.len - 1] == '\n') r->com.len--;
        attach_comment(r, g, r->com.p ? r->com.p : "", r->com.len);
        r->in_comment = false;
    }
    if (r->depth)
        xq_game_diag(g, XQ_SEV_ERROR, r->frames[1].line, r->frames[1].col, r->frames[1].offset,
                     "variation '(' not closed %s", where);
    else if (r->skip)
        xq_game_diag(g, XQ_SEV_ERROR, r->skip_line, r->skip_col, r->skip_off,
                     "variation '(' not closed %s", where);
    r->skip = 0;
    while (r->depth) close_variation(r, g);
    frame *f0 = &r->frames[0];
    flush_comment(g, f0);
    /* the main line: hand the scratch array over to the game (no copy) and
     * take back the reader's other array, which the game kept meanwhile
     * (main_nodes_take) */
    raw_flush(r, g);
    g->main = (xq_branch){f0->count ? f0->nodes : NULL, f0->count, f0->comment};
    main_nodes_take(r, g);   /* (a swap: g keeps f0's array, f0 gets g's spare) */
    g->fen = r->fen_tag ? g->tags[r->fen_tag - 1].value : NULL;   /* (its place: fen_tag_added) */
    g->result_tag = r->result_tag;
    g->format_tag = r->format_tag;
    g->tags_noted = g->tag_count;
    g->index = ++r->index;
    g->encoding = xq_input_encoding(r->in);
    g->cr_lines = xq_input_cr_lines(r->in);
    g->file = xq_game_strndup(g, r->path, r->path_len);
    if (__builtin_expect(xq_game_holds_nothing(g) && !r->position_taken, 0)) no_game(r, g);
}

bool xq_pgn_tag_line(const char *p, const char *end)
{
    return strict_tag_line(p, end);
}

/* ---- UCCI position lines ------------------------------------------------ */

/* The word w (a NUL-terminated literal) at p, followed by a blank or the
 * line's end (end, or its CR or LF in a fast path's raw bytes): the byte
 * after it, or NULL. */
static const char *word_at(const char *p, const char *end, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(end - p) < n || memcmp(p, w, n)) return NULL;
    p += n;
    return p == end || *p == ' ' || *p == '\t' || *p == '\r' || *p == '\n' ? p : NULL;
}

/* Is the line (first non-blank at p) a UCCI position command, `position
 * fen FEN [moves ...]` or `position startpos [moves ...]`, as engines
 * take it and xq-convert -t ucci writes it (formats.md §1c; ELEEYE
 * PROTOCOL/cchess_ucci.htm)?  Each such line is one game. */
static bool position_line(const char *p, const char *end)
{
    if (end - p < 12 || *p != 'p' || !(p = word_at(p, end, "position"))) return false;
    p = skip_blanks(p, end);
    const char *q = word_at(p, end, "startpos");
    if (!q && !(q = word_at(p, end, "fen"))) return false;
    /* what follows: nothing, `moves`, or (fen) a board with its '/':
     * prose that starts so ("position startpos is better") is no command */
    q = skip_blanks(q, end);
    if (q == end || *q == '\r' || *q == '\n' || word_at(q, end, "moves")) return true;
    if (p[0] == 's') return false;
    while (q < end && *q != ' ' && *q != '\t' && *q != '\r' && *q != '\n' && *q != '/') q++;
    return q < end && *q == '/';
}

/* The end of the FEN field at q (not a blank: skip_blanks before): the
 * next ASCII blank or the line's end.  Past q by one byte at least. */
static const char *field_end(const char *q, const char *end)
{
    do q++;
    while (q < end && *q != ' ' && *q != '\t');
    return q;
}

/* Is t[0..n) a coordinate move (h2e2, H2-E2, h10g8: notation.h's
 * recognition)?  Such a token ends a position line's FEN that has no
 * `moves` before its moves. */
static bool coord_token(const char *t, size_t n)
{
    xq_notation k = xq_notation_detect(t, n);
    return k == XQ_NOTATION_ICCS || k == XQ_NOTATION_UCCI;
}

/* Do two FENs name the same board and side to move (their first two
 * fields; the side's letter as the FEN reader takes it: w or r red, b
 * black, either case)? */
static bool same_start(const char *a, size_t an, const char *b, size_t bn)
{
    size_t i = 0, j = 0;
    for (int field = 0; field < 2; field++) {
        while (i < an && (a[i] == ' ' || a[i] == '\t')) i++;
        while (j < bn && (b[j] == ' ' || b[j] == '\t')) j++;
        size_t a0 = i, b0 = j;
        while (i < an && a[i] != ' ' && a[i] != '\t') i++;
        while (j < bn && b[j] != ' ' && b[j] != '\t') j++;
        if (field == 1 && i - a0 == 1 && j - b0 == 1) {
            char x = (char)(a[a0] | 0x20), y = (char)(b[b0] | 0x20);
            return (x == 'r' ? 'w' : x) == (y == 'r' ? 'w' : y);
        }
        if (i - a0 != j - b0 || memcmp(a + a0, b + b0, i - a0)) return false;
    }
    return true;
}

/* position_line for a fast path: the raw line at s (its blanks not
 * skipped yet), before end (the line's end or the window's).  A line
 * whose first non-blank byte is no 'p' (every move line) costs a
 * compare. */
static inline bool position_raw(const unsigned char *s, const unsigned char *end)
{
    while (s < end && (*s == ' ' || *s == '\t')) s++;
    return s < end && *s == 'p' && position_line((const char *)s, (const char *)end);
}

/* Take the position line s (first non-blank at p; position_line) as the
 * record: its FEN as the FEN tag (none for startpos), the moves after
 * `moves` as the movetext; the next line starts the next record. */
static void ucci_position(xq_reader *r, xq_game *g, const char *s, const char *p, const char *end)
{
    r->position_taken = true;
    r->ph = PH_MOVES;
    p = skip_blanks(word_at(p, end, "position"), end);
    const char *after = word_at(p, end, "startpos");
    const char *fen = XQ_START_FEN, *fen_end = fen + strlen(fen);
    if (!after) {
        /* the FEN: up to `moves`, or to a move written without it; its
         * fields are runs of bytes between blanks (a PGN token could end
         * at once, at a delimiter in a damaged FEN: no progress) */
        const char *q = fen = skip_blanks(word_at(p, end, "fen"), end);
        while (q < end && !word_at(q, end, "moves") && !coord_token(q, (size_t)(field_end(q, end) - q)))
            q = skip_blanks(field_end(q, end), end);
        fen_end = q;
        while (fen_end > fen && (fen_end[-1] == ' ' || fen_end[-1] == '\t')) fen_end--;
        after = q;
    }
    const char *tag = r->fen_tag ? g->tags[r->fen_tag - 1].value : NULL;
    if (fen_end == fen) {   /* (no FEN tag: the moves are read from the start, this error told) */
        diag(r, g, XQ_SEV_ERROR, 1 + nchars(s, fen), "no FEN after 'position fen'");
    } else if (tag) {   /* after tags with a FEN tag: one start is read, the tag's */
        if (!same_start(tag, strlen(tag), fen, (size_t)(fen_end - fen)))
            diag(r, g, XQ_SEV_ERROR, 1 + nchars(s, p),
                 "the position line's start differs from the FEN tag's (the tag's is read)");
    } else if (fen != XQ_START_FEN && xq_game_add_tag(g, "FEN", 3, fen, (size_t)(fen_end - fen))) {
        tag_added(r, g, 3, s, fen, true);
    }
    after = skip_blanks(after, end);
    const char *moves = word_at(after, end, "moves");
    if (moves) {
        moves = skip_blanks(moves, end);
        movetext(r, g, moves, end, 1 + nchars(s, moves));
    } else if (after < end) {
        movetext(r, g, after, end, 1 + nchars(s, after));   /* (told as what it is) */
    }
}

/* Does the line (first non-blank at p) start the next record? */
static bool starts_record(xq_reader *r, xq_game *g, const char *p, const char *end)
{
    if (r->position_taken) {   /* a line after a position line: the next record, but a comment */
        if (position_line(p, end) || tag_start(p, end)) return true;   /* (an open comment told by record_end) */
        return !r->in_comment && !(p < end && (*p == '{' || *p == ';'));
    }
    if (r->in_comment) return strict_tag_line(p, end);
    if (position_line(p, end)) return has_play(r, g);   /* (after tags: their movetext, as in PGN) */
    if (tag_start(p, end)) {
        if (r->ph == PH_TAGS) {
            if (r->blank_in_tags) return true;
            const char *name = p + 1, *q = name;
            while (name_char(q, end)) q++;
            return names_seen(r, g, name, (size_t)(q - name));
        }
        return g->tag_count || has_play(r, g);
    }
    if (r->ph == PH_AFTER_RESULT) {
        uint32_t num;
        const char *rest;
        return move_number(p, token_end(p, end), &num, &rest) && num == 1;
    }
    return false;
}

/* Take the current line into g: raw bytes, bad-byte diagnostics, text.
 * p is the first non-blank byte of the decoded line (or its end). */
static void take_line(xq_reader *r, xq_game *g, const char *p)
{
    raw_take(r, g);
    /* bad bytes: one diagnostic per line, at the first (a file in the
     * wrong encoding would otherwise bury everything else) */
    if (r->nbad) {
        colpos cp = {r->text.s, 1};
        uint32_t col = col_of(&cp, r->text.s + r->bad[0].pos);
        if (r->nbad == 1)
            xq_game_diag(g, XQ_SEV_ERROR, (uint32_t)r->line.number, col, r->bad[0].offset,
                         "%s replaced by U+FFFD", r->bad[0].why);
        else
            xq_game_diag(g, XQ_SEV_ERROR, (uint32_t)r->line.number, col, r->bad[0].offset,
                         "%s replaced by U+FFFD, and %zu more bad byte sequence%s on this line",
                         r->bad[0].why, r->nbad - 1, r->nbad > 2 ? "s" : "");
    }
    if (r->line.cut)
        xq_game_diag(g, XQ_SEV_ERROR, (uint32_t)r->line.number,
                     nchars(r->text.s, r->text.s + r->text.len) + 1, r->line.offset + r->line.len,
                     "line longer than %d bytes: cut here, the rest of the line is skipped",
                     (int)XQ_MAX_LINE);
    r->end_off = r->line.offset + r->line.raw_len;
    if (r->line.raw_len && r->line.bytes[r->line.raw_len - 1] == '\n') {
        r->end_line = (uint32_t)r->line.number + 1;
        r->end_col = 1;
    } else {   /* the last line, without '\n' */
        r->end_line = (uint32_t)r->line.number;
        r->end_col = nchars(r->text.s, r->text.s + r->text.len) + 1;
    }

    const char *s = r->text.s, *end = s + r->text.len;
    if (r->in_comment) {
        movetext(r, g, s, end, 1);
        return;
    }
    if (p == end) {
        if (r->ph == PH_TAGS) r->blank_in_tags = true;
        return;
    }
    if (!r->any_line) {
        r->any_line = true;
        g->first_line = r->line.number;
    }
    if (tag_start(p, end)) {
        if (r->ph == PH_START || r->ph == PH_MOVES) r->ph = PH_TAGS;
        tag_line(r, g, s, p, end);
        return;
    }
    if (s[0] == '%') return;  /* PGN escape line */
    if (position_line(p, end)) {
        ucci_position(r, g, s, p, end);
        return;
    }
    if (r->ph != PH_AFTER_RESULT) r->ph = PH_MOVES;
    movetext(r, g, p, end, 1 + nchars(s, p));
}

/* Is the token t[0..n), decoded by the fast path and not starting with an
 * ASCII digit, a plain move for token() and add_move: no result, NAG,
 * placeholder or glued suffix annotation? */
static inline bool fast_move(const char *t, size_t n)
{
    unsigned char c0 = (unsigned char)t[0];
    unsigned tf = TOKFIRST[c0];
    if (t[n - 1] == '!' || t[n - 1] == '?') return false;
    if (!tf) return true;
    if ((tf & TF_RESULT) && result_length(n) && result_of(t, n) != XQ_RESULT_NONE) return false;
    if (!(tf & TF_OTHER)) return true;   /* none of the tests below */
    if (c0 == '$' || c0 == '!' || c0 == '?') return false;
    return !((c0 == '.' || c0 == 0xE2 || c0 == 0xEF) && placeholder(t, t + n));
}

/* The end of take_line for a line taken by the fast path, whose last
 * character ends before column col: raw bytes and where the record ends. */
static void fast_take(xq_reader *r, xq_game *g, uint32_t col)
{
    raw_take_whole(r, g);   /* (fast_line takes no cut line) */
    r->end_off = r->line.offset + r->line.raw_len;
    if (r->line.raw_len > r->line.len && r->line.bytes[r->line.raw_len - 1] == '\n') {
        r->end_line = (uint32_t)r->line.number + 1;
        r->end_col = 1;
    } else {
        r->end_line = (uint32_t)r->line.number;
        r->end_col = col;
    }
}

/* Longest word the fast path decodes (bytes): the room it needs in the
 * move-text block is then bounded per word (3 bytes of UTF-8 per input
 * byte, 1 for the decoders' 4-byte stores, a NUL).  A longer word makes
 * the fast path refuse its line. */
enum { FAST_WORD = 64, FAST_ROOM = 3 * FAST_WORD + 4 };

/* A cache of the words of 8 raw bytes (a Chinese move in GBK or Big5:
 * 4 byte pairs; for UTF-8 input, words of 12: u8_probe below) that the
 * pair decoder took whole and fast_move accepted:
 * the same 8 bytes followed by a blank decode to the same text (the pair
 * cache only ever gains entries), so a move seen before costs one lookup
 * instead of one table step per character.  Two-way set associative by
 * a hash of the 8 bytes (slots h and h ^ 1, one cache line).  A slot with
 * len 0 is empty.  The slot also keeps the text's xq_move_desc, made once
 * when the word is stored: every node made from the slot gets it
 * (xq_node.desc), so the replay decodes each distinct move once, not once
 * per ply.
 *
 * Its size: 4,096 slots (128 KiB) when made (WORDS_AFTER), 32,768 (1 MiB)
 * once the input has WORDS_GROW moves (words_grow).  In 4,096 slots the
 * few sets that drew three or more of the ~1,400 distinct moves of a
 * large corpus (~60 words) kept evicting: 5,600 words decoded again on
 * the first 7 MB of the masters file, each line of one refused by
 * fast_pair_lines and decoded by fast_scan, its move decoded again by the
 * replay (no desc): 1.5% of all the instructions of xq-validate.  1 MiB
 * from the start cost the small inputs a 1 MiB memset each (calloc from
 * the heap once glibc raised its mmap threshold): 3% more instructions
 * over a thousand small files.  The index is the hash's low bits under
 * the table's mask (words_mask), so both sizes share one hash. */
enum { WORD_BITS = 15, WORD_SLOTS = 1 << WORD_BITS, WORD_SLOTS_FIRST = 1 << 12 };

/* The word cache is made once the input has this many moves: a small
 * input (a test, a fuzzer's) never pays for its 128 KiB; it grows to
 * WORD_SLOTS at WORDS_GROW moves. */
enum { WORDS_AFTER = 256, WORDS_GROW = 4096 };
struct word_slot {
    uint64_t key;        /* the 8 raw bytes, as loaded */
    char text[16];       /* their UTF-8 (len bytes, at most 15), then zeros: a copy
                            of the 16 bytes is the text and its NUL */
    uint16_t len;        /* bytes of text (at most 16) */
    uint16_t desc;       /* xq_move_desc(text, len); next to len as in xq_node */
    uint32_t chars;      /* code points of text (at most 8) */
};
_Static_assert(sizeof(struct word_slot) == 32, "two word slots a cache line");

static inline size_t word_hash(uint64_t w)
{
    return (size_t)((w * 0x9E3779B97F4A7C15u) >> (64 - WORD_BITS));
}

/* The slot of ws (mask + 1 slots) holding word w, or NULL. */
static inline const struct word_slot *word_find_in(const struct word_slot *ws, size_t mask,
                                                   uint64_t w)
{
    const struct word_slot *s = &ws[word_hash(w) & mask];
    if (s->key == w && s->len) return s;
    s = &ws[(word_hash(w) & mask) ^ 1];
    return s->key == w && s->len ? s : NULL;
}

/* word_find_in for a table of WORD_SLOTS (the tests' form: the reader
 * itself passes its mask). */
__attribute__((unused)) static inline const struct word_slot *word_find(const struct word_slot *ws,
                                                                        uint64_t w)
{
    return word_find_in(ws, WORD_SLOTS - 1, w);
}

/* The slot of ws (mask + 1 slots) whose key is w, empty or not, or NULL:
 * word_find_in without the test of len, for a caller that tests it (the
 * tests' form; the reader's is pair_probe). */
__attribute__((unused)) static inline const struct word_slot *
word_probe(const struct word_slot *ws, size_t mask, uint64_t w)
{
    const struct word_slot *s = &ws[word_hash(w) & mask];
    if (s->key == w) return s;
    s = &ws[(word_hash(w) & mask) ^ 1];
    return s->key == w ? s : NULL;
}

/* The slot of ws (mask + 1 slots) to store word w in (not there yet): the
 * first slot of its set when empty, else the second (the first keeps its
 * word). */
static inline struct word_slot *word_victim_in(struct word_slot *ws, size_t mask, uint64_t w)
{
    struct word_slot *s = &ws[word_hash(w) & mask];
    return s->len ? &ws[(word_hash(w) & mask) ^ 1] : s;
}

/* word_victim_in for a table of WORD_SLOTS. */
static inline struct word_slot *word_victim(struct word_slot *ws, uint64_t w)
{
    return word_victim_in(ws, WORD_SLOTS - 1, w);
}

/* The key of the empty slots 0 and 1 (the others' is 0): a word whose
 * set (word_hash under either table's mask, without its last bit) is not
 * theirs, as 0's is, so that no slot whose key is a word w is empty and
 * pair_probe needs no test of len (test_reader_run.c checks it). */
enum { WORD_KEY_EMPTY0 = 1 };

/* A word cache of n slots, all empty (slots 0 and 1 keyed
 * WORD_KEY_EMPTY0), or NULL; release it with words_free(t, n).  The
 * large one (WORD_SLOTS, 1 MiB) in huge pages (xq_huge_alloc): it is
 * probed at random places, and in 4 KiB pages its 256 first-touch faults
 * were a third of a masters.pgn run's. */
static struct word_slot *words_new(size_t n)
{
    struct word_slot *t = n == WORD_SLOTS ? xq_huge_alloc(n * sizeof *t) : calloc(n, sizeof *t);
    if (t) t[0].key = t[1].key = WORD_KEY_EMPTY0;
    return t;
}

/* Release a word cache of n slots (words_new(n); NULL: nothing). */
static void words_free(struct word_slot *t, size_t n)
{
    if (n == WORD_SLOTS) xq_huge_free(t, n * sizeof *t);
    else free(t);
}

/* The word cache of a UTF-8 input: the words of 12 raw bytes that
 * utf8_word took whole and fast_move accepted (a Chinese move of four
 * 3-byte characters: 炮二平五, 馬８進７, 前車進一; its text is its bytes).
 * The same struct word_slot: key the first 8 bytes, text the 12 bytes
 * then zeros (so text[8..11] holds the last 4 raw bytes: the key's
 * other part), len 12, desc and chars as for GBK and Big5.  The slot's
 * set is word_hash of the first 8 bytes XOR the last 4 (u8_word_hash):
 * the last character (the file or steps) differs in the last 4 bytes
 * only, and the bits of the product above them depend on them (every
 * bit of the set's index).  An empty slot is never taken for a word
 * (u8_probe_at). */
enum { U8_WORD = 12 };

static inline uint64_t u8_word_mix(uint64_t w, uint32_t t) { return w ^ (uint64_t)t; }

static inline size_t u8_word_hash(uint64_t w, uint32_t t) { return word_hash(u8_word_mix(w, t)); }

/* The last 4 raw bytes of a UTF-8 slot's word (text[8..11]). */
static inline uint32_t u8_tail(const struct word_slot *s)
{
    uint32_t t;
    memcpy(&t, s->text + 8, 4);
    return t;
}

/* The slot of the set at byte offset at of ws (a UTF-8 cache) holding
 * the word of first 8 bytes w and last 4 bytes t, or NULL.  No test of
 * len: an empty slot's key is 0 (1 in slots 0 and 1: WORD_KEY_EMPTY0)
 * and its tail 0, and the only words of those bytes, (0, 0) and (1, 0),
 * fall in set 0 (key 1) and in the set of word_hash(1) (key 0, not 0 under
 * either mask): test_utf8_words_fast.c checks both.  Which of the two
 * slots holds it is chosen without a branch (see pair_probe). */
static inline const struct word_slot *u8_probe_at(const struct word_slot *ws, size_t at,
                                                  uint64_t w, uint32_t t)
{
    const struct word_slot *s = (const struct word_slot *)(const void *)((const char *)ws + at);
    uint64_t miss = (s->key ^ w) | (uint64_t)(u8_tail(s) ^ t);
#if defined(__x86_64__) && defined(__GNUC__)
    const struct word_slot *second = s + 1;
    __asm__("testq %1, %1\n\tcmovne %2, %0" : "+r"(s) : "r"(miss), "r"(second) : "cc");
#else
    s += miss != 0;
#endif
    return ((s->key ^ w) | (uint64_t)(u8_tail(s) ^ t)) == 0 ? s : NULL;
}

/* The byte offset in a UTF-8 cache of the set of word (w, t), under
 * bmask = (mask & ~1) x 32 (as pair_probe finds its set). */
static inline size_t u8_set_at(size_t bmask, uint64_t w, uint32_t t)
{
    return (size_t)((u8_word_mix(w, t) * 0x9E3779B97F4A7C15u) >> (64 - WORD_BITS - 5)) & bmask;
}

/* The slot of ws (mask + 1 slots, a UTF-8 cache) holding the word of
 * first 8 bytes w and last 4 bytes t, or NULL. */
static inline const struct word_slot *u8_probe(const struct word_slot *ws, size_t mask,
                                               uint64_t w, uint32_t t)
{
    return u8_probe_at(ws, u8_set_at((mask & ~(size_t)1) * sizeof *ws, w, t), w, t);
}

/* The slot of a UTF-8 cache ws (mask + 1 slots) to store the word (w, t)
 * in (not there yet), as word_victim_in chooses. */
static inline struct word_slot *u8_victim(struct word_slot *ws, size_t mask, uint64_t w,
                                          uint32_t t)
{
    struct word_slot *s = &ws[u8_word_hash(w, t) & mask];
    return s->len ? &ws[(u8_word_hash(w, t) & mask) ^ 1] : s;
}

/* Where slot s (a word of r's cache) goes in a fresh cache of WORD_SLOTS. */
static inline struct word_slot *words_victim(const xq_reader *r, struct word_slot *t,
                                             const struct word_slot *s)
{
    return r->words_utf8 ? u8_victim(t, WORD_SLOTS - 1, s->key, u8_tail(s))
                         : word_victim(t, s->key);
}

/* Make the word cache, or grow it to WORD_SLOTS with the words it holds,
 * as the input's moves pass WORDS_AFTER and WORDS_GROW (no cache, or the
 * smaller one, when out of memory).  It is made for a GBK or Big5 input
 * once its pair cache exists, and for an input whose encoding is UTF-8
 * (called from fast_lines after xq_input_window gave bytes: the
 * encoding is then decided, never XQ_ENC_AUTO, and stays what it is). */
static void words_size(xq_reader *r)
{
    uint64_t moves = r->file_moves + r->moves;
    if (!r->words) {
        if (moves < WORDS_AFTER) return;
        bool utf8 = !r->pairs && xq_input_encoding(r->in) == XQ_ENC_UTF8;
        if (!r->pairs && !utf8) return;
        if ((r->words = words_new(WORD_SLOTS_FIRST))) {
            r->words_mask = WORD_SLOTS_FIRST - 1;
            r->words_utf8 = utf8;
        }
        return;
    }
    if (r->words_mask == WORD_SLOTS - 1 || moves < WORDS_GROW) return;
    struct word_slot *t = words_new(WORD_SLOTS);
    if (!t) return;
    for (size_t i = 0; i <= r->words_mask; i++)
        if (r->words[i].len) *words_victim(r, t, &r->words[i]) = r->words[i];
    words_free(r->words, r->words_mask + 1);
    r->words = t;
    r->words_mask = WORD_SLOTS - 1;
}

/* Can the fast path (fast_scan) take lines of the record now?  The state
 * it needs is the middle of the main line's movetext: none of it changes
 * along the lines it takes. */
static inline bool fast_state(const xq_reader *r)
{
    const frame *f = &r->frames[r->depth];
    return !r->no_fast && r->ph == PH_MOVES && !r->in_comment && !r->skip && !f->pend_on &&
           r->any_line;
}

/* xq_result_str's text of the ASCII results, without its call: the same
 * bytes (a static string; g->result is never compared by address). */
static inline const char *ascii_result_text(xq_result res)
{
    return res == XQ_RESULT_RED ? "1-0" : res == XQ_RESULT_BLACK ? "0-1"
         : res == XQ_RESULT_DRAW ? "1/2-1/2" : "*";
}

/* result_of for an ASCII token p[0..n): "1-0", "0-1", "1/2-1/2", "*". */
static inline xq_result ascii_result(const unsigned char *p, size_t n)
{
    if (n == 3 && p[1] == '-') {
        if (p[0] == '1' && p[2] == '0') return XQ_RESULT_RED;
        if (p[0] == '0' && p[2] == '1') return XQ_RESULT_BLACK;
    }
    if (n == 1 && p[0] == '*') return XQ_RESULT_UNKNOWN;
    if (n == 7 && memcmp(p, "1/2-1/2", 7) == 0) return XQ_RESULT_DRAW;
    return XQ_RESULT_NONE;
}

/* The result token at p (raw bytes up to e, the end of the line or of
 * the window) when it is an ASCII result ("1-0", "0-1", "1/2-1/2", "*")
 * on the main line and only ASCII blanks follow it on its line: set as
 * on_result sets it (the phase after the result), and the end of the
 * line returned (its '\n', or e).  NULL, having done nothing, for
 * anything else (a variation's result, text after the result: for the
 * general way and its diagnostics). */
static const unsigned char *fast_result(xq_reader *r, xq_game *g, const unsigned char *p,
                                        const unsigned char *e)
{
    /* the usual line, "1-0\n" or "0-1\n", by one compare (what the scans
     * below find for it: the token of 3 bytes, q at its '\n') */
    if (e - p >= 4 && !r->depth) {
        uint32_t x, red, black;
        memcpy(&x, p, 4);
        memcpy(&red, "1-0\n", 4);
        memcpy(&black, "0-1\n", 4);
        if (x == red || x == black) {
            xq_result res = x == red ? XQ_RESULT_RED : XQ_RESULT_BLACK;
            g->result = ascii_result_text(res);
            g->result_code = res;
            r->ph = PH_AFTER_RESULT;
            return p + 3;
        }
    }
    const unsigned char *t = p;
    while (t < e && *t - 0x21u < 0x5Eu) t++;   /* ASCII, not a blank */
    const unsigned char *q = t;
    while (q < e && CLASS[*q] == C_BLANK) q++;
    if (r->depth || (q < e && *q != '\n')) return NULL;
    xq_result res = ascii_result(p, (size_t)(t - p));
    if (res == XQ_RESULT_NONE) return NULL;
    g->result = ascii_result_text(res);   /* (static: the same bytes as the token) */
    g->result_code = res;
    r->ph = PH_AFTER_RESULT;
    return q;
}

/* The fast path's scanner, for the common line of a record: moves and
 * move numbers ("12." and the like) separated by ASCII blanks, in the
 * middle of the movetext, and an ASCII result on the main line with
 * nothing after it (fast_result).  It walks the raw bytes once from s, up to the
 * first '\n' or e, decoding each move straight into the arena (the pair
 * cache pt of a GBK or Big5 input, else xq_input_decode_word; a word
 * the word cache holds, 8 raw bytes in GBK or Big5 and 12 in UTF-8, from
 * its slot with its desc), instead of
 * decoding the line, then scanning blanks, tokens and columns.  Nodes get
 * line number `lineno`.  Returns where it stopped (the '\n' or e), with
 * the column after the last character in *colp, or NULL when the line
 * holds anything else (comments, variations, other results, NAGs, Unicode
 * blanks, bad bytes, a tag, a glued number, a word longer than
 * FAST_WORD...): the caller then undoes the line's nodes (fast_undo) and
 * sends it the general way (decode, take_line), which gives the same
 * nodes.  tests/unit/test_movetext_fast.c reads records both ways. */
static inline __attribute__((always_inline)) const unsigned char *
fast_scan(xq_reader *r, xq_game *g, frame *f, const unsigned char *s, const unsigned char *e,
          uint32_t lineno, uint32_t *colp)
{
    const uint32_t *pt = r->pairs;   /* GBK, Big5: the word decoder inline */
    const unsigned char *p = s;
    uint32_t col = 1;
    char *o = r->mt;
    while (p < e) {
        unsigned c = *p;
        if (CLASS[c] == C_BLANK) {
            p++;
            col++;
            continue;
        }
        if (c == '\n') break;
        if (c - '0' < 10u || c == '*') {   /* a move number or a result */
            const unsigned char *q = p;
            uint64_t v = 0;
            for (; q < e && (unsigned)(*q - '0') < 10u; q++)
                if (v < 1000000000) v = v * 10 + (uint64_t)(*q - '0');
            while (q < e && *q == '.') q++;
            if (c == '*' || (q < e && CLASS[*q] != C_BLANK && *q != '\n')) {
                /* not a number (move_number): "1-0", "*" and the like */
                if (!(q = fast_result(r, g, p, e))) return NULL;
            } else {   /* digits, dots, then a blank (move_number) */
                r->pending_number = (uint32_t)v;
            }
            col += (uint32_t)(q - p);   /* (ASCII) */
            p = q;
            continue;
        }
        if (c == '[') return NULL;   /* a tag line? */
        if (r->mt_end - o < FAST_ROOM) {   /* a new block for the moves' texts */
            if (!(o = xq_game_alloc(g, MT_BLOCK))) return NULL;
            r->mt = o;   /* (the block stays consistent if the line is refused) */
            r->mt_end = o + MT_BLOCK;
        }
        size_t len, k;
        uint32_t chars;
        const unsigned char *q;
        uint64_t w = 0;
        uint32_t wt = 0;       /* a UTF-8 word's last 4 bytes */
        const struct word_slot *ws = NULL;
        bool cached = false;   /* w is a word the cache may hold */
        uint16_t desc = 0;     /* the node's xq_node.desc: known for cached words */
        size_t wlen = pt ? 8 : U8_WORD;   /* the cached words' raw bytes */
        if (r->words && (pt || r->words_utf8) && (size_t)(e - p) > wlen &&
            (CLASS[p[wlen]] == C_BLANK || p[wlen] == '\n')) {
            memcpy(&w, p, 8);
            if (pt) {
                ws = word_find_in(r->words, r->words_mask, w);
            } else {   /* a UTF-8 input's cache */
                memcpy(&wt, p + 8, 4);
                ws = u8_probe(r->words, r->words_mask, w, wt);
            }
            cached = true;
        }
        if (ws) {   /* a move seen before: decoded, checked */
            memcpy(o, ws->text, 16);
            len = ws->len;
            chars = ws->chars;
            desc = ws->desc;
            q = p + wlen;
        } else {
            size_t lim = (size_t)(e - p) < FAST_WORD ? (size_t)(e - p) : FAST_WORD;
            k = pt ? xq_pairs_decode_word(pt, p, lim, o, &len, &chars)
                   : xq_input_decode_word(r->in, p, lim, o, &len, &chars);
            q = p + k;
            if (k == 0 || (q < e && CLASS[*q] != C_BLANK && *q != '\n') || !fast_move(o, len))
                return NULL;
            if (cached && k == wlen && len < 16) {   /* whole, and a move: remember it */
                struct word_slot *v = pt ? word_victim_in(r->words, r->words_mask, w)
                                         : u8_victim(r->words, r->words_mask, w, wt);
                v->key = w;
                memset(v->text, 0, 16);
                memcpy(v->text, o, len);
                v->len = (uint16_t)len;
                v->chars = chars;
                v->desc = desc = xq_move_desc(o, len);   /* once per distinct word */
            }
        }
        if (r->moves >= XQ_MAX_RECORD_MOVES) return NULL;
        xq_node *nd = frame_new_node(f);
        if (!nd) return NULL;
        r->moves++;
        o[len] = '\0';
        node_fill(nd, o, len, lineno, col, r->pending_number, desc);   /* len <= 3 * FAST_WORD */
        r->pending_number = 0;
        o += len + 1;
        col += chars;
        p = q;
    }
    r->mt = o;
    *colp = col;
    return p;
}

/* What fast_scan changed in the reader for a line, to undo it (a
 * result it sets is the line's last step: nothing refuses the line
 * after it). */
typedef struct {
    size_t count, moves;
    uint32_t pending;
} fast_mark;

static inline fast_mark fast_save(const xq_reader *r, const frame *f)
{
    return (fast_mark){f->count, r->moves, r->pending_number};
}

static inline void fast_undo(xq_reader *r, frame *f, fast_mark m)
{
    f->count = m.count;
    r->moves = m.moves;
    r->pending_number = m.pending;
}

/* The fast path for the current line r->line (fast_scan); true when it
 * took the line. */
static bool fast_line(xq_reader *r, xq_game *g)
{
    frame *f = top(r);
    const unsigned char *s = r->line.bytes;
    size_t n = r->line.len;
    if (!fast_state(r) || r->line.cut || r->line.offset == 0 || n == 0 || s[0] == '%' ||
        raw_bytes(r, g) >= XQ_MAX_RECORD_BYTES || r->position_taken)
        return false;
    if (position_raw(s, s + n)) return false;
    fast_mark m = fast_save(r, f);
    uint32_t col;
    if (!fast_scan(r, g, f, s, s + n, (uint32_t)r->line.number, &col)) {
        fast_undo(r, f, m);
        return false;
    }
    fast_take(r, g, col);
    return true;
}

/* Bytes of a tag name the window walker (fast_tag) takes as they are:
 * ASCII but NUL (a bad byte) and the bytes that end a
 * name (NAME_END); nor '\n', so that a scan stops at its line's end
 * without a bound ('\r' is NAME_END).  tests/unit/test_tag_names.c checks
 * it against NAME_STOP. */
static const unsigned char NAME_FAST[256] = {
    0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* All ones in the first 16 bytes, zeros in the next 16: the byte masks
 * of fast_tag's word compare and of plain_ascii's last word, loaded from an offset. */
static const unsigned char MASK_BYTES[32] = {
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
};

/* Are the n bytes at v ASCII but NUL, '"' and '\\' (a tag value that
 * every supported encoding decodes to itself, with nothing for
 * tag_line's escapes)?  8 bytes at a time, the last piece too: it reads
 * up to 7 bytes past v + n (the input window's pad, XQ_INPUT_PAD), which
 * count as blanks. */
static bool plain_ascii(const unsigned char *v, size_t n)
{
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    const uint64_t quote = ones * '"', bslash = ones * '\\', blanks = ones * ' ';
#define BAD_WORD(x) \
    (((x) & highs) || HAS_ZERO(x) || HAS_ZERO((x) ^ quote) || HAS_ZERO((x) ^ bslash))
#define HAS_ZERO(x) (((x) - ones) & ~(x) & highs)
    size_t i = 0;
    uint64_t x;
    for (; i + 8 <= n; i += 8) {
        memcpy(&x, v + i, 8);
        if (BAD_WORD(x)) return false;
    }
    if (i < n) {
        uint64_t keep;   /* the bytes before v + n; blanks after them */
        memcpy(&x, v + i, 8);
        memcpy(&keep, MASK_BYTES + 16 - (n - i), 8);
        x = (x & keep) | (blanks & ~keep);
        if (BAD_WORD(x)) return false;
    }
#undef HAS_ZERO
#undef BAD_WORD
    return true;
}

/* Bytes of a block of tag values (fast_tag's copies), from the arena. */
enum { TT_BLOCK = 1024 };

/* At least n bytes of room in the record's block of tag values r->tt (a
 * new block when short; r->tt is advanced by the caller, past what it
 * keeps); NULL on out-of-memory. */
static inline char *tag_text_room(xq_reader *r, xq_game *g, size_t n)
{
    if ((size_t)(r->tt_end - r->tt) < n) {
        size_t size = n > TT_BLOCK ? n : TT_BLOCK;
        char *b = xq_game_alloc(g, size);
        if (!b) return NULL;
        r->tt = b;
        r->tt_end = b + size;
    }
    return r->tt;
}

/* v[0..n), copied as it is into the record's block of tag values and
 * NUL-terminated (r->tt advanced past it); NULL on out-of-memory.  A value
 * of up to 16 bytes is copied as one 16-byte block: v + 16 must be
 * readable (the input's window and its pad, XQ_INPUT_PAD). */
static inline __attribute__((always_inline)) char *tag_copy(xq_reader *r, xq_game *g, const unsigned char *v, size_t n)
{
    char *o = tag_text_room(r, g, n < 16 ? 16 : n + 1);
    if (!o) return NULL;
    if (n <= 16) memcpy(o, v, 16);
    else memcpy(o, v, n);
    o[n] = '\0';
    r->tt = o + n + 1;
    return o;
}

/* The value of a tag line whose raw bytes from just after its opening
 * quote are v[0..ce) (ce: the end of the line's content, in the input's
 * window, which may be read XQ_INPUT_PAD bytes past its end), as
 * simple_tag takes it: the line must end with `"]`, the value before it
 * must hold no '"' and no '\\', and decode without a bad byte.  Returns
 * the decoded value, NUL-terminated, copied into the record's block of
 * tag values (r->tt, advanced past it): v's bytes for ASCII and for UTF-8
 * input, else decoded with the pair cache pt (cached entries of non-ASCII
 * characters only; ASCII bytes are themselves), as xq_input_decode
 * decodes it.  NULL for anything else, and on out-of-memory. */
static const char *fast_tag_value(xq_reader *r, xq_game *g, const uint32_t *pt, bool utf8,
                                  const unsigned char *v, const unsigned char *ce)
{
    if (ce - v < 2 || ce[-2] != '"' || ce[-1] != ']') return NULL;
    const unsigned char *close = ce - 2;
    size_t n = (size_t)(close - v);
    if (plain_ascii(v, n) ||
        (utf8 && !memchr(v, '"', n) && !memchr(v, '\\', n) && xq_utf8_valid(v, n, false))) {
        return tag_copy(r, g, v, n);
    }
    if (utf8 || !pt) return NULL;
    char *o = tag_text_room(r, g, 3 * n + 4), *o0 = o;
    if (!o) return NULL;
    const unsigned char *s = v;
    while (s < close) {
        unsigned b = *s;
        if (b < 0x80) {
            if (b == '"' || b == '\\' || b == 0) return NULL;
            *o++ = (char)b;
            s++;
            continue;
        }
        uint32_t e = pt[xq_pair_key(s)];   /* (s + 1 < ce) */
        /* a known character, not ASCII: 2 or 3 bytes of UTF-8, from 2
         * bytes of input (GB18030's 4-byte forms are not cached) */
        if ((e >> 24 & 3) < 2 || e >> 28 != 2) return NULL;
        xq_pair_store3(o, e);
        o += e >> 24 & 3;
        s += 2;
    }
    if (s != close) return NULL;   /* (a character over the quote) */
    *o = '\0';
    r->tt = o + 1;
    return o0;
}

/* Index of the first byte from v that is '"', '\\', NUL, '\n' or not
 * ASCII: the end of a plain value (plain_ascii) and what ends it.  v is
 * in the input's window, whose every line ends with a '\n' before the
 * window's end: 16 bytes at a time with SSE2, else 8, reading up to 15
 * (7) bytes past that '\n' (the window's pad, XQ_INPUT_PAD = 16).
 * tests/unit/test_tag_names.c checks it against its definition. */
_Static_assert(XQ_INPUT_PAD >= 16, "plain_run reads 15 bytes past a line's end");
static inline size_t plain_run(const unsigned char *v)
{
#if defined(__SSE2__) && defined(__GNUC__)
    /* 16 bytes a step (the same bytes: a step reads at most 15 past the
     * '\n'): the special bytes as a bit mask, the first one its lowest */
    const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\'),
                  nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
    for (size_t i = 0;; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(v + i));
        __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, bslash)),
                                 _mm_or_si128(_mm_cmpeq_epi8(x, nl), _mm_cmpeq_epi8(x, zero)));
        unsigned bits = (unsigned)_mm_movemask_epi8(_mm_or_si128(m, x));   /* (x: bytes >= 0x80) */
        if (bits) return i + (unsigned)__builtin_ctz(bits);
    }
#else
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    const uint64_t quote = ones * '"', bslash = ones * '\\', nl = ones * '\n';
#define HAS_ZERO(x) (((x) - ones) & ~(x) & highs)
    for (size_t i = 0;; i += 8) {
        uint64_t x;
        memcpy(&x, v + i, 8);
        /* a flag in the high bit of each special byte (and maybe of bytes
         * after the first: HAS_ZERO's borrow), none before the first */
        uint64_t m = (x & highs) | HAS_ZERO(x) | HAS_ZERO(x ^ quote) | HAS_ZERO(x ^ bslash) |
                     HAS_ZERO(x ^ nl);
        if (!m) continue;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        return i + ((unsigned)__builtin_ctzll(m) >> 3);   /* (the first byte is the lowest) */
#else
        while (v[i] - 1u < 0x7Fu && v[i] != '"' && v[i] != '\\' && v[i] != '\n') i++;
        return i;
#endif
    }
#undef HAS_ZERO
#endif
}

/* The line end after a tag value's closing quote c: the '\n' when `"]`
 * and the line's end ('\n', or "\r\n") follow, else NULL.  Always
 * inlined: fast_tag calls it at 4 places per tag line, and the compiler
 * left it a function (a call per tag line on the hot path). */
static inline __attribute__((always_inline)) const unsigned char *tag_close(const unsigned char *c)
{
    if (c[0] != '"' || c[1] != ']') return NULL;
    if (c[2] == '\n') return c + 2;
    return c[2] == '\r' && c[3] == '\n' ? c + 3 : NULL;
}

/* The ASCII bytes that end tag_legacy's run of a value: its closing
 * '"', and what it refuses ('\\', NUL, '\n'). */
static const unsigned char VALUE_STOP[128] = {[0] = 1, ['\n'] = 1, ['"'] = 1, ['\\'] = 1};

/* Longest value (input bytes) fast_tag decodes with the pair cache
 * before it knows where the value ends: its room in the block of tag
 * values is then bounded (3 bytes of UTF-8 per input byte). */
enum { TAG_LEGACY_MAX = 256 };

/* The value from v, in a GBK or Big5 input (pair cache pt), decoded as
 * fast_tag_value decodes it, up to its closing quote (the first '"' at a
 * character boundary: no trail byte is a '"'), which must end the line
 * as `"]` (tag_close); *nl is then the line's '\n'.  NULL, having kept
 * nothing, for anything else (a value fast_tag_value would refuse, one
 * longer than TAG_LEGACY_MAX bytes: the caller then tries
 * fast_tag_value). */
static inline __attribute__((always_inline)) const char *
tag_legacy(xq_reader *r, xq_game *g, const uint32_t *pt, const unsigned char *v,
           const unsigned char **nl)
{
    char *o = tag_text_room(r, g, 3 * TAG_LEGACY_MAX + 4), *o0 = o;
    if (!o) return NULL;
    const unsigned char *s = v, *stop = v + TAG_LEGACY_MAX;
    while (s < stop) {
        unsigned b = *s;
        if (b >= 0x80) {   /* the usual: two characters of two bytes in a row */
            uint32_t e = pt[xq_pair_key(s)];   /* (s[1]: at most the line's '\n') */
            /* fast_tag_value's test, (e >> 24 & 3) >= 2 && e >> 28 == 2, in one */
            if ((e & 0x32000000u) != 0x22000000u) return NULL;
            xq_pair_store3(o, e);
            o += e >> 24 & 3;
            s += 2;   /* (a character whose trail byte is no '\n': s[0] is readable) */
            if (s[0] < 0x80) continue;
            e = pt[xq_pair_key(s)];   /* (the room: stop is passed by 2 bytes at most) */
            if ((e & 0x32000000u) != 0x22000000u) return NULL;
            xq_pair_store3(o, e);
            o += e >> 24 & 3;
            s += 2;
            continue;
        }
        if (VALUE_STOP[b]) {   /* (one test for the usual ASCII byte) */
            if (b == '"') break;
            return NULL;   /* '\\', NUL, '\n' */
        }
        *o++ = (char)b;
        s++;
    }
    if (s >= stop || !(*nl = tag_close(s))) return NULL;
    *o = '\0';
    r->tt = o + 1;
    return o0;
}

/* Bytes of the input's window the walker (fast_lines) looks at per call. */
enum { FAST_WINDOW = 64 * 1024 };

/* What the window walker does with a line. */
enum { FT_REFUSE, FT_TAKEN, FT_RECORD };

/* Does the tag line's rest s (just after its '[', in the input's window
 * or its pad: 16 bytes readable) start with KNOWN[k]'s name, ' ', '"',
 * exactly?  Two 8-byte compares under a mask of the pattern's bytes. */
static inline bool known_at(const unsigned char *s, unsigned k)
{
    uint64_t a, b, ka, kb, ma, mb;
    unsigned m = KNOWN[k].len + 2u;   /* <= 16 */
    memcpy(&a, s, 8);
    memcpy(&b, s + 8, 8);
    memcpy(&ka, KNOWN[k].pat, 8);
    memcpy(&kb, KNOWN[k].pat + 8, 8);
    memcpy(&ma, MASK_BYTES + 16 - m, 8);
    memcpy(&mb, MASK_BYTES + 24 - m, 8);
    return (((a ^ ka) & ma) | ((b ^ kb) & mb)) == 0;
}

/* The usual FEN tag's value, the start position (every record of the
 * CCPD corpora has it): fast_tag compares it at once and keeps it as
 * position.h's XQ_START_FEN, the same text (tests/unit/test_start_fen.c),
 * whose address the replay knows. */
#define START_FEN_TEXT "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
#define START_FEN START_FEN_TEXT   /* (a literal: sizeof, strlen) */

/* fast_tag's last step, the tag taken: tag idx of g, name n (NULL: out
 * of memory, the tag is dropped as xq_game_add_tag_ref drops it) of
 * name_len bytes, KNOWN index id (or -1), value val, on line lineno. */
static inline __attribute__((always_inline)) void tag_take(xq_reader *r, xq_game *g, size_t idx,
                                                           const char *n, size_t name_len, int id,
                                                           const char *val, uint64_t lineno)
{
    if (!r->any_line) {
        r->any_line = true;
        g->first_line = lineno;
    }
    if (r->ph == PH_START || r->ph == PH_MOVES) r->ph = PH_TAGS;
    if (n && xq_game_add_tag_ref(g, n, val)) tag_added_id(r, g, name_len, id, lineno);
    if (idx < sizeof r->tag_pred) r->tag_pred[idx] = (uint8_t)(id + 1);
}

/* Are the 16 bytes at a and at b the same? */
static inline bool same16(const unsigned char *a, const unsigned char *b)
{
#if defined(__SSE2__) && defined(__GNUC__)
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)a);
    __m128i y = _mm_loadu_si128((const __m128i *)(const void *)b);
    return _mm_movemask_epi8(_mm_cmpeq_epi8(x, y)) == 0xFFFF;
#else
    return memcmp(a, b, 16) == 0;
#endif
}

/* Does v start with the usual FEN tag's value and its `"]`
 * (START_FEN_TEXT "\"]", 73 bytes: v must have them)?  Five compares of
 * 16 bytes (the last overlapping), no call of memcmp. */
static inline bool start_fen_at(const unsigned char *v)
{
    static const unsigned char want[] = START_FEN_TEXT "\"]";
    enum { N = sizeof want - 1 };
    _Static_assert(N > 64 && N <= 80, "start_fen_at: five pieces of 16 bytes");
    return same16(v, want) && same16(v + 16, want + 16) && same16(v + 32, want + 32) &&
           same16(v + 48, want + 48) && same16(v + N - 16, want + N - 16);
}

/* The value of a tag line whose name ends at q (at its ' "', tested by
 * the caller; raw bytes of the input's window, whose complete lines end
 * before e), of KNOWN name id (or -1), as fast_tag takes it (see there):
 * the decoded value (static, or in the record's block of tag values),
 * with *nlp at the line's '\n'; NULL for a line fast_tag refuses. */
static inline __attribute__((always_inline)) const char *
tag_line_value(xq_reader *r, xq_game *g, int id, const unsigned char *q, const unsigned char *e,
          const unsigned char **nlp)
{
    const unsigned char *v = q + 2, *nl;
    const uint32_t *pt = r->pairs;   /* (GBK, Big5: not UTF-8) */
    const char *val = NULL;
    /* the value in one pass up to its closing quote: plain ASCII (the
     * usual), or GBK / Big5 text; anything else the way of the line's end
     * first (memchr) and fast_tag_value */
    size_t k;
    if (id == K_FEN && (size_t)(e - v) > sizeof START_FEN + 1 && start_fen_at(v) &&
        (nl = tag_close(v + sizeof START_FEN - 1))) {
        /* (static: no copy, no scan; position.h's own string, so that
         * the replay knows it by its address: replay.c fen_names_start) */
        val = XQ_START_FEN;
    } else if (v[0] == '"' && (nl = tag_close(v))) {
        val = "";   /* (static, as the names: no copy, no scan) */
    } else if ((k = plain_run(v)) == 0 && (nl = tag_close(v))) {
        val = "";   /* (static, as the names: no copy) */
    } else if ((nl = tag_close(v + k))) {
        if (!(val = tag_copy(r, g, v, k))) return NULL;
    } else if (!(v[k] >= 0x80 && pt && (val = tag_legacy(r, g, pt, v, &nl)))) {
        nl = memchr(v + k, '\n', (size_t)(e - (v + k)));   /* (v + k <= the '\n') */
        const unsigned char *ce = nl[-1] == '\r' ? nl - 1 : nl;
        if (ce - q < 4) return NULL;
        val = fast_tag_value(r, g, pt, !pt && xq_input_encoding(r->in) == XQ_ENC_UTF8, v, ce);
        if (!val) return NULL;
    }
    *nlp = nl;
    return val;
}

/* The window walker's tag line at p (raw bytes, '[' first, line number
 * lineno; in the input's window, whose lines end with a '\n' before e,
 * readable XQ_INPUT_PAD bytes past its end): FT_RECORD when it starts the
 * next record (what starts_record says: it only looks at the name),
 * FT_TAKEN, with *nlp at the line's '\n', when it was the common shape
 * `[Name "value"]` (ASCII name, one space, value without '"' or '\\',
 * nothing else) and its tag was added as take_line and tag_line
 * (simple_tag) add it, FT_REFUSE (nothing done) for any other line, which
 * then goes the general way.  The name is first tried as the KNOWN name
 * of the same tag in the last record (tag_pred: records repeat their
 * names in order) by one word compare, then scanned and looked up. */
static inline __attribute__((always_inline)) int fast_tag(xq_reader *r, xq_game *g, const unsigned char *p, const unsigned char *e,
                    uint64_t lineno, const unsigned char **nlp)
{
    const char *name = (const char *)p + 1;
    const unsigned char *q;
    size_t idx = g->tag_count;
    unsigned guess = idx < sizeof r->tag_pred ? r->tag_pred[idx] : 0;
    bool exact = false;
    int id;
    if (guess && known_at(p + 1, guess - 1)) {   /* (a name of letters, then ' "') */
        id = (int)guess - 1;
        exact = true;
        q = p + 1 + KNOWN[id].len;
    } else {
        /* (the scan stops at the line's '\r' or '\n' at the latest) */
        for (q = p + 1; NAME_FAST[*q]; q++) continue;
        /* the name must end at an ASCII byte that ends it in the decoded
         * text too (NAME_END), or at the line end ('\r', '\n') */
        if (q == p + 1 || *q >= 0x80 || *q == 0) return FT_REFUSE;
        id = known_name(name, (size_t)(q - (p + 1)), &exact);
    }
    size_t name_len = (size_t)(q - (p + 1));
    if (r->any_line) {   /* starts_record */
        bool starts = r->ph == PH_TAGS
                          ? r->blank_in_tags || names_seen_id(r, g, name, name_len, id)
                          : g->tag_count || has_play(r, g);
        if (starts) {
            if (r->ph == PH_TAGS && !r->blank_in_tags) split_at_tag(r, name, name_len);   /* (split_warn's case) */
            return FT_RECORD;
        }
    }
    if (q[0] != ' ' || q[1] != '"') return FT_REFUSE;   /* (q is at most the line's end) */
    const unsigned char *nl;
    const char *val = tag_line_value(r, g, id, q, e, &nl);
    if (!val) return FT_REFUSE;
    /* a usual name as written: the static string, not a copy */
    const char *n = exact ? KNOWN[id].name : xq_game_strndup(g, name, name_len);
    tag_take(r, g, idx, n, name_len, id, val, lineno);
    *nlp = nl;
    return FT_TAKEN;
}

/* Does the line at p (in the input's window or its pad: 16 bytes
 * readable) start with `[Name "` for the KNOWN name of kt as written?
 * One compare of 16 bytes under the mask of the pattern's. */
static inline bool known_line(const unsigned char *p, const struct known_tag *kt)
{
#if defined(__SSE2__) && defined(__GNUC__)
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i y = _mm_load_si128((const __m128i *)(const void *)kt->line);
    unsigned bits = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, y));
    return (bits & kt->mask) == kt->mask;
#else
    for (unsigned i = 0; i < 16; i++)
        if ((kt->mask >> i & 1) && p[i] != (unsigned char)kt->line[i]) return false;
    return true;
#endif
}

/* The window walker's run of tag lines from p (fast_lines: lines that
 * start before stop, complete before e; p's line number lineno): the
 * lines whose name is the KNOWN name of the same tag in the last record
 * (tag_pred), written as there, taken as fast_tag takes them (the same
 * test of the record's start, value, tag), line after line without the
 * walker's per-line tests, fast_tag's name scan and its other cases.
 * After its first tag the record's state is the usual one (a tag line
 * seen, PH_TAGS, no blank line: `steady`), in which a line starts the
 * next record only when its name was seen (known_seen, kept in a
 * register meanwhile), and tag_take's state changes are none.  Returns
 * the first line not taken (the caller's, for fast_tag: any other name,
 * the line that starts the next record, a value fast_tag refuses), with
 * the count of lines taken in *taken, and *record set when that line
 * starts the next record after the tags and play of this one (fast_tag's
 * FT_RECORD; p is then the line).  p is a line starting with '['.  Not
 * inlined, as pair_run. */
static __attribute__((noinline)) const unsigned char *
tag_run(xq_reader *r, xq_game *g, const unsigned char *p, const unsigned char *stop,
        const unsigned char *e, uint64_t lineno, uint64_t *taken, bool *record)
{
    *taken = 0;
    *record = false;
    if (r->any_line && r->ph != PH_TAGS && (g->tag_count || has_play(r, g))) {
        /* a tag line after the record's tags and play starts the next
         * record whatever its name (starts_record), when fast_tag takes
         * the name at all (ASCII, ending at an ASCII byte but NUL): its
         * FT_RECORD without its name scan and look-up */
        const unsigned char *q = p + 1;
        while (NAME_FAST[*q]) q++;
        *record = q != p + 1 && *q < 0x80 && *q != 0;
        return p;
    }
    uint64_t n = 0, seen = r->known_seen;
    bool steady = r->any_line && r->ph == PH_TAGS && !r->blank_in_tags;
    for (size_t idx; p < stop && (idx = g->tag_count) < sizeof r->tag_pred; n++) {
        unsigned guess = r->tag_pred[idx];
        if (!guess) break;
        const struct known_tag *kt = &KNOWN_TAG[guess - 1];
        if (!known_line(p, kt)) break;
        int id = (int)guess - 1;
        if (steady ? (seen >> id & 1)
                   : r->any_line && (r->ph == PH_TAGS ? r->blank_in_tags || (seen >> id & 1)
                                                      : g->tag_count || has_play(r, g)))
            break;   /* (starts_record: fast_tag's FT_RECORD) */
        const unsigned char *nl;
        const char *val = tag_line_value(r, g, id, p + 1 + kt->len, e, &nl);
        if (!val) break;
        if (!steady) {   /* (tag_take's state changes) */
            if (!r->any_line) {
                r->any_line = true;
                g->first_line = lineno + n;
            }
            if (r->ph == PH_START || r->ph == PH_MOVES) r->ph = PH_TAGS;
            steady = !r->blank_in_tags;
        }
        /* tag_take's tag (tag_added_id's note of it; tag_pred[idx] is
         * guess already) */
        if (xq_game_add_tag_ref(g, kt->name, val)) {
            seen |= (uint64_t)1 << id;
            if (NOTED_IDS >> id & 1) tag_noted(r, g, id, lineno + n);
        }
        p = nl + 1;
    }
    r->known_seen = seen;
    *taken = n;
    return p;
}

/* The window walker's line of movetext from p (fast_scan, e the end of
 * the window's complete lines, so that the line's '\n' comes before it):
 * the line's '\n', or NULL, having done nothing, when fast_scan refused
 * it or the state is not the middle of the movetext.  A line right after
 * the tags (PH_TAGS) that does not start with a blank (blank lines are
 * the caller's) is movetext for take_line too: it starts the moves
 * (PH_MOVES). */
static inline const unsigned char *fast_moves(xq_reader *r, xq_game *g, const unsigned char *p,
                                              const unsigned char *e, uint64_t lineno)
{
    frame *f = top(r);
    phase ph = r->ph;
    if (!(ph == PH_MOVES || (ph == PH_TAGS && CLASS[*p] != C_BLANK)) || r->skip || f->pend_on ||
        !r->any_line || *p == '%')
        return NULL;
    r->ph = PH_MOVES;
    fast_mark m = fast_save(r, f);
    uint32_t col;
    const unsigned char *q = fast_scan(r, g, f, p, e, (uint32_t)lineno, &col);
    if (!q) {   /* (no result set: fast_result is the line's last step) */
        fast_undo(r, f, m);
        r->ph = ph;
    }
    return q;
}

/* The move node of a cached word ws (a word_slot hit) written at o in the
 * move-text block, as fast_scan writes it; returns the room after it. */
static inline char *fast_pair_node(xq_node *nd, char *o, const struct word_slot *ws,
                                   uint32_t lineno, uint32_t col, uint32_t number)
{
    size_t len = ws->len;       /* (read once: the text's bytes may alias the slot) */
    uint16_t desc = ws->desc;
    memcpy(o, ws->text, 16);    /* (the text and its NUL: zeros follow it in the slot) */
    node_fill(nd, o, len, lineno, col, number, desc);
    return o + len + 1;
}

/* "N. " for the move numbers 0..999 (N as written without leading zeros),
 * as pair_run compares it with a line's first 8 bytes (one little-endian
 * load): N's digits, '.', ' ' from the low byte up, then a zero; in the
 * byte below the top one its length in bytes (3..5), in the top byte the
 * shift (64 - 8 x that length) that keeps only its bytes.  Built by
 * macros (a table of constants: no set-up, nothing shared to fill at run
 * time). */
#define NP_D(c) ((uint64_t)('0' + (c)))
#define NP1(c) (NP_D(c) | (uint64_t)'.' << 8 | (uint64_t)' ' << 16 | (uint64_t)3 << 48 | \
                (uint64_t)40 << 56)
#define NP2(b, c) (NP_D(b) | NP_D(c) << 8 | (uint64_t)'.' << 16 | (uint64_t)' ' << 24 | \
                   (uint64_t)4 << 48 | (uint64_t)32 << 56)
#define NP3(a, b, c) (NP_D(a) | NP_D(b) << 8 | NP_D(c) << 16 | (uint64_t)'.' << 24 | \
                      (uint64_t)' ' << 32 | (uint64_t)5 << 48 | (uint64_t)24 << 56)
#define NP(a, b, c) ((a) ? NP3(a, b, c) : (b) ? NP2(b, c) : NP1(c))
#define NP10(a, b) NP(a, b, 0), NP(a, b, 1), NP(a, b, 2), NP(a, b, 3), NP(a, b, 4), \
                   NP(a, b, 5), NP(a, b, 6), NP(a, b, 7), NP(a, b, 8), NP(a, b, 9)
#define NP100(a) NP10(a, 0), NP10(a, 1), NP10(a, 2), NP10(a, 3), NP10(a, 4), NP10(a, 5), \
                 NP10(a, 6), NP10(a, 7), NP10(a, 8), NP10(a, 9)
enum { NUMBER_PREFIXES = 1000 };
static const uint64_t NUMBER_PREFIX[NUMBER_PREFIXES] = {
    NP100(0), NP100(1), NP100(2), NP100(3), NP100(4),
    NP100(5), NP100(6), NP100(7), NP100(8), NP100(9),
};
#undef NP100
#undef NP10
#undef NP
#undef NP3
#undef NP2
#undef NP1
#undef NP_D

/* Where a run of pair lines is (pair_run's arguments and results). */
typedef struct {
    const unsigned char *p;     /* the next line */
    const unsigned char *last;  /* the '\n' of the last line taken, or NULL */
    xq_node *nd;                /* the next node */
    char *o;                    /* the next text in the move-text block */
    uint32_t line;              /* p's line number */
} pair_pos;

/* Word w in the word cache: word_find_in (the slot of its set that holds
 * w, or NULL), without its test of len (an empty slot's key is never a
 * word of its set: WORD_KEY_EMPTY0).  The set's first slot, word_hash(w)
 * & mask & ~1 (the sets are the slot pairs h, h ^ 1), is found as a byte
 * offset (the hash shifted 5 bits less, under bmask = (mask & ~1) x 32):
 * one shift less per word. */
_Static_assert(sizeof(struct word_slot) == 32, "pair_probe: byte offsets of slots");
static inline const struct word_slot *pair_probe(const struct word_slot *ws, size_t bmask,
                                                 uint64_t w)
{
    size_t at = (size_t)((w * 0x9E3779B97F4A7C15u) >> (64 - WORD_BITS - 5)) & bmask;
    const struct word_slot *s = (const struct word_slot *)(const void *)((const char *)ws + at);
    /* the second slot unless the first holds w, without a branch: which
     * of the two a word is in is as good as random (a branch on it was
     * mispredicted about every other word) */
#if defined(__x86_64__) && defined(__GNUC__)
    /* a conditional move (3 instructions; the compilers make a branch of
     * the select, or setne, shift and add: pair_run 207.2 -> 198.0 M
     * instructions on masters.pgn) */
    const struct word_slot *second = s + 1;
    __asm__("cmpq %2, %1\n\tcmovne %3, %0" : "+r"(s) : "m"(s->key), "r"(w), "r"(second) : "cc");
#else
    s += s->key != w;
#endif
    return s->key == w ? s : NULL;
}

/* The move number that starts a pair line at p, "N. " (1 to 3 digits,
 * one dot, one space), read digit by digit into *v, for pair_run and
 * u8_pair_run when their guess ("v. ", NUMBER_PREFIX: in a run the
 * numbers count up by one) did not match.  Returns the first byte after
 * the blank, or NULL when the line does not start so.  p[0] is a digit
 * (the caller's test) or the line is not one: each byte read follows one
 * that is not a '\n'. */
static inline __attribute__((always_inline)) const unsigned char *pair_number(const unsigned char *p, uint32_t *v)
{
    if ((unsigned)p[0] - '0' >= 10u) return NULL;
    const unsigned char *q = p + 1;
    uint32_t n = (uint32_t)(p[0] - '0');
    if ((unsigned)q[0] - '0' < 10u) {
        n = n * 10 + (uint32_t)(q[0] - '0');
        q++;
        if ((unsigned)q[0] - '0' < 10u) {
            n = n * 10 + (uint32_t)(q[0] - '0');
            q++;
        }
    }
    *v = n;
    if (q[0] != '.' || q[1] != ' ') return NULL;
    return q + 2;
}

/* fast_pair_lines' loop: the lines from ps->p while each is one of the
 * run ("N. WWWWWWWW WWWWWWWW\n", or the last line "N. WWWWWWWW\n", which
 * ends it), starts before lim and leaves room for its nodes before
 * nd_lim; ps advanced past the lines taken.  The move number is read as
 * fast_pair_lines read it (up to 3 digits, then ". "), but first the
 * line is compared with "N. " for the number after the last line's
 * (NUMBER_PREFIX: in a run they count up by one), which is that number
 * when it matches.  Not inlined: in fast_lines' frame its locals did not
 * fit in registers. */
static __attribute__((noinline)) void pair_run(const struct word_slot *words, size_t mask,
                                               const unsigned char *lim, xq_node *nd_lim,
                                               pair_pos *ps)
{
    const unsigned char *p = ps->p;
    xq_node *const nd0 = ps->nd;
    xq_node *nd = nd0;
    char *o = ps->o;
    uint32_t line = ps->line;
    const size_t bmask = (mask & ~(size_t)1) * sizeof *words;
    uint32_t v = 1;   /* the guess: the line's number */
    while (p < lim && nd < nd_lim) {
        uint64_t x, t = NUMBER_PREFIX[v];
        memcpy(&x, p, 8);
        const unsigned char *m;
        if (((x ^ t) << (t >> 56)) == 0) m = p + (uint8_t)(t >> 48);   /* "v. " (the shift drops the bytes after it) */
        else if (!(m = pair_number(p, &v))) break;
        uint32_t col = (uint32_t)(m - p) + 1;
        uint64_t w1;
        memcpy(&w1, m, 8);
        if (m[8] != ' ') {
            if (m[8] != '\n') break;
            /* "N. WWWWWWWW\n": a last line of one move */
            const struct word_slot *s1 = pair_probe(words, bmask, w1);
            if (!s1) break;
            o = fast_pair_node(nd, o, s1, line, col, v);
            nd++;
            line++;
            p = m + 9;
            break;   /* (the result line, usually, comes next) */
        }
        if (m[17] != '\n') break;
        uint64_t w2;
        memcpy(&w2, m + 9, 8);
        const struct word_slot *s1 = pair_probe(words, bmask, w1), *s2 = pair_probe(words, bmask, w2);
        /* (a cached word holds no blank and no '\n': the line has the shape) */
        if (!s1 || !s2) break;
        o = fast_pair_node(nd, o, s1, line, col, v);
        o = fast_pair_node(nd + 1, o, s2, line, col + s1->chars + 1, 0);
        nd += 2;
        line++;
        p = m + 18;
        v += v < NUMBER_PREFIXES - 1;   /* (past 999: "999. ", read as 999 either way) */
    }
    ps->p = p;
    ps->last = nd != nd0 ? p - 1 : NULL;   /* (the '\n' before p) */
    ps->nd = nd;
    ps->o = o;
    ps->line = line;
}

/* pair_run for a UTF-8 input's cache (words_utf8): the lines "N.
 * WWWWWWWWWWWW WWWWWWWWWWWW\n" (two words of 12 raw bytes, U8_WORD: the
 * usual Chinese move, four 3-byte characters) or the last line "N.
 * WWWWWWWWWWWW\n", under the same contract (lim: a line that starts
 * before it has its 26 bytes after "N. " before the window's end). */
static __attribute__((noinline)) void u8_pair_run(const struct word_slot *words, size_t mask,
                                                  const unsigned char *lim, xq_node *nd_lim,
                                                  pair_pos *ps)
{
    const unsigned char *p = ps->p;
    xq_node *const nd0 = ps->nd;
    xq_node *nd = nd0;
    char *o = ps->o;
    uint32_t line = ps->line;
    const size_t bmask = (mask & ~(size_t)1) * sizeof *words;
    uint32_t v = 1;   /* the guess: the line's number */
    while (p < lim && nd < nd_lim) {
        uint64_t x, t = NUMBER_PREFIX[v];
        memcpy(&x, p, 8);
        const unsigned char *m;
        if (((x ^ t) << (t >> 56)) == 0) m = p + (uint8_t)(t >> 48);   /* "v. " (the shift drops the bytes after it) */
        else if (!(m = pair_number(p, &v))) break;
        uint32_t col = (uint32_t)(m - p) + 1;
        uint64_t w1;
        uint32_t t1;
        memcpy(&w1, m, 8);
        memcpy(&t1, m + 8, 4);
        if (m[U8_WORD] != ' ') {
            if (m[U8_WORD] != '\n') break;
            /* "N. WWWWWWWWWWWW\n": a last line of one move */
            const struct word_slot *s1 = u8_probe_at(words, u8_set_at(bmask, w1, t1), w1, t1);
            if (!s1) break;
            o = fast_pair_node(nd, o, s1, line, col, v);
            nd++;
            line++;
            p = m + U8_WORD + 1;
            break;   /* (the result line, usually, comes next) */
        }
        if (m[2 * U8_WORD + 1] != '\n') break;
        uint64_t w2;
        uint32_t t2;
        memcpy(&w2, m + U8_WORD + 1, 8);
        memcpy(&t2, m + U8_WORD + 9, 4);
        const struct word_slot *s1 = u8_probe_at(words, u8_set_at(bmask, w1, t1), w1, t1),
                               *s2 = u8_probe_at(words, u8_set_at(bmask, w2, t2), w2, t2);
        /* (a cached word holds no blank and no '\n': the line has the shape) */
        if (!s1 || !s2) break;
        o = fast_pair_node(nd, o, s1, line, col, v);
        o = fast_pair_node(nd + 1, o, s2, line, col + s1->chars + 1, 0);
        nd += 2;
        line++;
        p = m + 2 * U8_WORD + 2;
        v += v < NUMBER_PREFIXES - 1;   /* (past 999: "999. ", read as 999 either way) */
    }
    ps->p = p;
    ps->last = nd != nd0 ? p - 1 : NULL;   /* (the '\n' before p) */
    ps->nd = nd;
    ps->o = o;
    ps->line = line;
}

/* The dominant line of a GBK or Big5 record, "N. WWWWWWWW WWWWWWWW\n"
 * (of a UTF-8 one, with words of 12 bytes: u8_pair_run): a
 * move number of 1 to 3 digits, one dot, one space, then two moves of 8
 * raw bytes each that the word cache holds (the second followed by the
 * '\n'; or one move, "N. WWWWWWWW\n", the last line of a record that
 * ends with a move of Red: it ends the run), taken as fast_scan would
 * take it (same nodes, texts, columns;
 * a new move-text block when the one in use is short of room for a
 * line, as fast_scan makes one), with every test made before anything
 * is written, so that there is nothing to undo (but a new block, which
 * fast_scan then uses).  A record is mostly a run of
 * such lines, so this takes the run: line after line from p while each
 * is one and starts before stop (fast_lines' byte limit, at most e) and
 * 23 bytes before e, the reader's and the frame's counters kept in
 * locals meanwhile.  p (a
 * digit: the caller's test) starts a complete line of the window (e is
 * past the '\n' of its last line), in the middle of the main line's
 * movetext (fast_moves' state; PH_TAGS becomes PH_MOVES as there; no
 * line taken changes that state).  lineno is p's line number.  Returns
 * the '\n' of the last line taken, with the count of lines taken in
 * *taken, or NULL (nothing done) when p's line is not one: it then goes
 * to fast_moves.  tests/unit/test_movetext_fast.c and
 * test_pair_line_fast.c compare it with the general way. */
static inline const unsigned char *fast_pair_lines(xq_reader *r, xq_game *g, frame *f,
                                                   const unsigned char *p,
                                                   const unsigned char *stop, const unsigned char *e,
                                                   uint64_t lineno, uint64_t *taken)
{
    const struct word_slot *const words = r->words;
    const size_t mask = r->words_mask;
    /* the node array and the move limit leave room for `left` lines
     * (fast_scan's tests before each move): two nodes a line, so line k
     * (from 0) needs cap - count >= 2 (k + 1) and moves + 2 k <=
     * XQ_MAX_RECORD_MOVES - 2; none (a node array not made yet, NULL):
     * fast_scan's turn */
    size_t left = (f->cap - f->count) / 2;
    size_t by_moves = r->moves <= XQ_MAX_RECORD_MOVES ? (XQ_MAX_RECORD_MOVES - r->moves) / 2 : 0;
    if (by_moves < left) left = by_moves;
    if (!left) return NULL;
    xq_node *const nd0 = f->nodes + f->count;
    /* a block for the moves' texts with room for the first line at least,
     * as fast_scan makes one (a record's first line of moves finds none:
     * it was sent to fast_scan for that) */
    if ((size_t)(r->mt_end - r->mt) < FAST_ROOM + 17) {
        char *b = xq_game_alloc(g, MT_BLOCK);
        if (!b) return NULL;
        r->mt = b;
        r->mt_end = b + MT_BLOCK;
    }
    char *o = r->mt;
    /* fast_scan's room test before each line, (o_end - o) >= FAST_ROOM +
     * 17, made once: a line takes at most 2 x 16 bytes of the block (two
     * texts of at most 15 bytes and their NULs), so the first `fit` lines
     * pass it; the run stops after them (the caller's next call makes a
     * new block when the room is short, as after the failed test: the
     * same texts in the same places) */
    size_t fit = ((size_t)(r->mt_end - o) - (FAST_ROOM + 17)) / 32 + 1;
    if (fit < left) left = fit;
    xq_node *const nd_lim = nd0 + 2 * left;   /* (line k is taken while k < left) */
    /* a line starts before lim: then its moves' 18 bytes ("WWWWWWWW
     * WWWWWWWW\n", at most 5 bytes after its start) end before e, and it
     * starts before stop; a line in the last 23 bytes of the window goes
     * to fast_moves (one test a line instead of two); for UTF-8 words 31
     * bytes ("WWWWWWWWWWWW WWWWWWWWWWWW\n", 26 bytes after "NNN. ") */
    const size_t tail = r->words_utf8 ? 31 : 23;   /* (UTF-8: "WWWWWWWWWWWW x12\n", 26 bytes) */
    const unsigned char *const lim = (size_t)(e - p) <= tail ? p
                                   : (size_t)(e - stop) > tail ? stop : e - tail;
    pair_pos ps = {p, NULL, nd0, o, (uint32_t)lineno};
    if (r->words_utf8) u8_pair_run(words, mask, lim, nd_lim, &ps);
    else pair_run(words, mask, lim, nd_lim, &ps);
    if (ps.nd == nd0) return NULL;
    size_t count = (size_t)(ps.nd - nd0);
    f->count += count;
    r->moves += count;
    r->mt = ps.o;
    r->pending_number = 0;
    r->ph = PH_MOVES;
    *taken = ps.line - (uint32_t)lineno;
    return ps.last;
}

/* The fast path over a run of lines straight from the input's buffer
 * (xq_input_window), without one xq_input_line call, decoding and set-up
 * per line: blank lines, common tag lines (fast_tag), common lines of
 * moves (fast_moves), up to the first line it refuses, the last complete
 * line of the window, or a line that starts no later than the record's
 * byte limit; the lines taken are then consumed at once (xq_input_skip)
 * and added to the record's run of raw bytes.  A tag line that starts
 * the next record ends the record here (record_end), the line left in
 * the input for the next call.  Returns FT_RECORD then, FT_REFUSE when
 * it stopped at a line it refused (the next line is for the general way,
 * not for fast_line), FT_TAKEN otherwise. */
static int fast_lines(xq_reader *r, xq_game *g)
{
    if (r->no_fast || r->in_comment || r->position_taken) return FT_TAKEN;
    const unsigned char *w;
    uint64_t off, number;
    size_t wn = xq_input_window(r->in, &w, &off, &number);
    /* the raw bytes must continue the record's run (raw_take_whole), or
     * start the record */
    bool run = r->raw_to > r->raw_from;
    if (wn == 0 || (run ? r->raw_to != off : g->raw_len != 0) || off == 0 ||
        raw_bytes(r, g) >= XQ_MAX_RECORD_BYTES)
        return FT_TAKEN;
    uint64_t room = XQ_MAX_RECORD_BYTES - raw_bytes(r, g);   /* bytes before the limit */
    words_size(r);
    /* complete lines only, from the first FAST_WINDOW bytes: the search
     * for the last '\n' costs at most that per call, whatever follows (a
     * long line being read after many lines refused one by one) */
    const unsigned char *p = w, *e = memrchr(w, '\n', wn < FAST_WINDOW ? wn : FAST_WINDOW);
    if (!e) return FT_TAKEN;
    e++;
    uint64_t lines = 0;
    int rc = FT_TAKEN;
    /* fast_pair_lines' state (fast_moves' tests that no line taken here
     * changes: fast_scan opens no variation, comment or skip; the phase
     * and any_line are tested per line) */
    frame *f = top(r);
    const bool pair_ok = r->words && !r->skip && !f->pend_on;
    const unsigned char *stop = (uint64_t)(e - w) > room ? w + room : e;   /* lines start before it */
    uint64_t pairs;   /* lines taken by fast_pair_lines */
    while (p < e && (uint64_t)(p - w) < room) {
        uint64_t lineno = number + lines;
        const unsigned char *q = p;
        if (*p == '[') {   /* (first: a tag line is no blank line) */
            uint64_t tags;   /* the usual tag lines first, then fast_tag for the next */
            bool record;
            p = tag_run(r, g, p, stop, e, lineno, &tags, &record);
            lines += tags;
            if (record) {
                rc = FT_RECORD;
                break;
            }
            if (p >= stop || *p != '[') continue;
            lineno = number + lines;
            q = p;
            int t = fast_tag(r, g, p, e, lineno, &q);   /* (q: the line's '\n') */
            if (t != FT_TAKEN) {
                rc = t;
                break;
            }
            p = q + 1;
            lines++;
            continue;
        }
        if (r->ph != PH_MOVES) {   /* a blank line (take_line: p == end) */
            while (CLASS[*q] == C_BLANK) q++;
            if (*q == '\n') {
                if (r->ph == PH_TAGS) r->blank_in_tags = true;
                p = q + 1;
                lines++;
                continue;
            }
        }
        /* (a pair line's number is followed by a digit or its dot: not a
         * result line such as "1-0", which goes to fast_result at once) */
        if ((unsigned)*p - '0' < 10u && (p[1] == '.' || (unsigned)p[1] - '0' < 10u) && pair_ok &&
            (r->ph == PH_MOVES || r->ph == PH_TAGS) &&
            r->any_line && (q = fast_pair_lines(r, g, f, p, stop, e, lineno, &pairs))) {
            lines += pairs - 1;   /* taken: a run of the dominant line (the last one counted below) */
        } else if ((*p == '1' || *p == '0' || *p == '*') && r->ph == PH_MOVES && !r->skip &&
                   !f->pend_on && r->any_line && (q = fast_result(r, g, p, e))) {
            /* the result line after the moves, as fast_moves takes it (fast_scan
             * at its first token: nothing but fast_result) */
        } else if (position_raw(p, e) || !(q = fast_moves(r, g, p, e, lineno))) {
            /* (blank lines taken too; a UCCI position line, which starts with
             * no digit, is the general way's: ucci_position) */
            rc = FT_REFUSE;
            break;
        }
        p = q + 1;
        lines++;
    }
    if (lines) {
        size_t taken = (size_t)(p - w);
        if (!run) {   /* the record's first lines (raw_take_whole) */
            g->offset = off;
            r->raw_from = r->raw_to = off;
            xq_input_keep(r->in, off);
        }
        r->raw_to += taken;
        r->end_off = off + taken;
        r->end_line = (uint32_t)(number + lines);
        r->end_col = 1;
        xq_input_skip(r->in, taken, lines);
    }
    if (rc == FT_RECORD) record_end(r, g, number + lines);
    return rc;
}

static int pgn_next(xq_reader *r, xq_game *g)
{
    if (r->failed) return -1;
    record_begin(r, g);
    for (;;) {
        int fl = fast_lines(r, g);
        if (fl == FT_RECORD) return 1;   /* (the line that starts the next one is left unread) */
        bool refused = fl == FT_REFUSE;
        int rc = xq_input_line(r->in, &r->line);
        if (rc < 0) {
            snprintf(r->err, sizeof r->err, "%s", xq_input_error(r->in));
            if (!r->any_line) return -1;
            /* never lose the record read so far: return it, cut, with the
             * reason where the data ends; the next call returns -1 */
            const char *why = r->err, *path = xq_input_path(r->in);
            size_t pl = strlen(path);
            if (!strncmp(why, path, pl) && !strncmp(why + pl, ": ", 2)) why += pl + 2;
            r->failed = true;
            xq_game_diag(g, XQ_SEV_ERROR, r->end_line, r->end_col, r->end_off,
                         "input ends early (%s); the record is cut here", why);
            record_end(r, g, 0);
            return 1;
        }
        if (rc == 0) {
            if (!r->any_line) return 0;
            record_end(r, g, 0);
            return 1;
        }
        if (!refused && fast_line(r, g)) continue;   /* (uses none of the line state below) */
        r->nbad = 0;
        r->walk_col = 1;
        r->walk_byte = 0;
        r->cut = NULL;
        if (xq_input_decode(r->in, &r->line, &r->text, on_bad, r) < 0) {
            snprintf(r->err, sizeof r->err, "%s: out of memory", xq_input_path(r->in));
            return -1;
        }
        r->pairs = xq_input_pairs(r->in);   /* made by the first legacy decoding */
        const char *s = r->text.s, *end = s + r->text.len, *p = skip_blanks(s, end);
        if (r->any_line && starts_record(r, g, p, end)) {
            if (r->ph == PH_TAGS && !r->blank_in_tags && tag_start(p, end)) {   /* (split_warn's case) */
                const char *q = p + 1;
                while (name_char(q, end)) q++;
                split_at_tag(r, p + 1, (size_t)(q - (p + 1)));
            }
            xq_input_unread(r->in);
            record_end(r, g, r->line.number);
            return 1;
        }
        if (raw_bytes(r, g) >= XQ_MAX_RECORD_BYTES) {   /* bounded memory */
            xq_game_diag(g, XQ_SEV_ERROR, (uint32_t)r->line.number, 1, r->line.offset,
                         "record longer than %d bytes: it ends before this line, which starts "
                         "the next record", (int)XQ_MAX_RECORD_BYTES);
            xq_input_unread(r->in);
            record_end(r, g, r->line.number);
            return 1;
        }
        take_line(r, g, p);
    }
}

static int xml_next(xq_reader *r, xq_game *g)
{
    return xq_xml_reader_next(r->xml, g, r->err, sizeof r->err);
}

static int jsonl_next(xq_reader *r, xq_game *g)
{
    return xq_jsonl_reader_next(r->jsonl, g, r->err, sizeof r->err);
}

static int sub_next(xq_reader *r, xq_game *g)
{
    return r->sub->next(r->sub, g);
}

/* ---- the reader ------------------------------------------------------- */

/* Copy msg into err[0..errsz) (errsz > 0): cut to fit when longer (a
 * caller's buffer may be shorter than the input's message, which names
 * the file), and then before the UTF-8 character the cut would split
 * (its lead byte and the continuation bytes after it). */
static void copy_error(char *err, size_t errsz, const char *msg)
{
    size_t n = strlen(msg);
    if (n >= errsz) {
        size_t cut = errsz - 1;
        n = cut;
        while (n && ((unsigned char)msg[n] & 0xC0) == 0x80) n--;
        if ((unsigned char)msg[n] < 0xC0) n = cut;   /* no lead byte before: not a character split */
    }
    memcpy(err, msg, n);
    err[n] = 0;
}

xq_reader *xq_reader_open(const char *path, const xq_read_options *opt, char *err, size_t errsz)
{
    xq_read_options o = {0};
    if (opt) o = *opt;
    xq_input *in = xq_input_open(path, o.encoding, err, errsz);
    if (!in) return NULL;
    xq_format fmt = o.format;
    if (fmt == XQ_FMT_AUTO) {
        const unsigned char *p = NULL;
        size_t n = xq_input_peek(in, SNIFF_SIZE, &p);
        if (n == 0 && xq_input_error(in)[0]) {
            if (errsz) copy_error(err, errsz, xq_input_error(in));
            xq_input_close(in);
            return NULL;
        }
        fmt = xq_sniff_format(p, n);
        /* DhtmlXQ deeper in a page, DHJHtmlXQ (not in our own XML, whose
         * namespace the sniff saw: xq_sniff_format) */
        if (fmt == XQ_FMT_PGN || (fmt == XQ_FMT_XML && !xq_sniff_our_xml(p, n))) {
            n = xq_input_peek(in, XQ_DHTMLXQ_SNIFF, &p);
            if (xq_dhtmlxq_sniff(p, n)) fmt = XQ_FMT_DHTMLXQ;
        }
    }
    if (fmt != XQ_FMT_PGN && fmt != XQ_FMT_XML && fmt != XQ_FMT_XQF && fmt != XQ_FMT_CBR &&
        fmt != XQ_FMT_CBL && fmt != XQ_FMT_DHTMLXQ && fmt != XQ_FMT_JSONL) {
        if (errsz)
            snprintf(err, errsz, "%s: %s format is not supported yet", path, xq_format_name(fmt));
        xq_input_close(in);
        return NULL;
    }
    xq_reader *r = calloc(1, sizeof *r);
    if (r) r->frames = calloc(16, sizeof *r->frames);
    if (!r || !r->frames) {
        if (errsz) snprintf(err, errsz, "%s: out of memory", path);
        if (r) free(r);
        xq_input_close(in);
        return NULL;
    }
    r->frame_cap = 16;
    r->in = in;
    r->path = xq_input_path(in);   /* (owned by the input: as long as the reader) */
    r->path_len = strlen(r->path);
    r->format = fmt;
    r->no_raw = o.no_raw;
    r->next = pgn_next;
    if (fmt == XQ_FMT_PGN || fmt == XQ_FMT_JSONL) xq_input_text_lines(in);   /* (CR line ends: input.h) */
    if (fmt == XQ_FMT_XML) {
        if (!(r->xml = xq_xml_reader_open(in, err, errsz))) {
            xq_reader_close(r);
            return NULL;
        }
        xq_xml_reader_keep_source(r->xml, !o.no_raw);   /* (game.h source: a raw for places) */
        r->next = xml_next;
    } else if (fmt == XQ_FMT_JSONL) {
        if (!(r->jsonl = xq_jsonl_reader_open(in, o.encoding, err, errsz))) {
            xq_reader_close(r);
            return NULL;
        }
        xq_jsonl_reader_keep_source(r->jsonl, !o.no_raw);
        r->next = jsonl_next;
    } else if (fmt != XQ_FMT_PGN) {
        r->sub = fmt == XQ_FMT_XQF       ? xq_xqf_reader_open(in, err, errsz)
                 : fmt == XQ_FMT_DHTMLXQ ? xq_dhtmlxq_reader_open(in, o.encoding, err, errsz)
                                         : xq_cbr_reader_open(in, err, errsz);
        if (!r->sub) {
            xq_reader_close(r);
            return NULL;
        }
        r->next = sub_next;
    }
    return r;
}

int xq_reader_next(xq_reader *r, xq_game *g)
{
    int st = r->next(r, g);
    g->format = r->format;
    /* (PGN-style text: record_end, which knows a position line) */
    if (st == 1 && r->format != XQ_FMT_PGN && __builtin_expect(xq_game_holds_nothing(g), 0)) no_game(r, g);
    return st;
}

void xq_reader_close(xq_reader *r)
{
    if (!r) return;
    if (r->format == XQ_FMT_JSONL) xq_jsonl_reader_close(r->jsonl);
    else xq_xml_reader_close(r->xml);
    if (r->sub) r->sub->close(r->sub);
    xq_input_close(r->in);
    for (size_t i = 0; i < r->frame_cap; i++) {
        free(r->frames[i].nodes);
        xq_buf_free(&r->frames[i].pend);
    }
    free(r->frames);
    xq_buf_free(&r->com);
    xq_buf_free(&r->scratch);
    free(r->names);
    if (r->words) words_free(r->words, r->words_mask + 1);
    free(r);
}

xq_encoding xq_reader_encoding(const xq_reader *r) { return xq_input_encoding(r->in); }

xq_format xq_reader_format(const xq_reader *r) { return r->format; }

bool xq_reader_inflating(const xq_reader *r) { return xq_input_inflating(r->in); }

const char *xq_reader_error(const xq_reader *r) { return r->err; }

const char *xq_reader_late_error(const xq_reader *r) { return xq_input_late_error(r->in); }
