/* input.c - bytes in: file/stdin, transparent gzip, lines with offsets,
 * encoding detection and decoding to UTF-8.  See input.h. */
#include "input.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <iconv.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "json_read.h"
#include "xml_read.h"
#include "zin.h"

enum {
    SAMPLE_SIZE = 64 * 1024,     /* encoding detection sample */
    READ_CHUNK = 64 * 1024       /* initial buffer and gzbuffer size */
};

static const char REPLACEMENT[] = "\xEF\xBF\xBD"; /* U+FFFD */

/* ---- names ------------------------------------------------------------ */

const char *xq_encoding_name(xq_encoding enc)
{
    switch (enc) {
    case XQ_ENC_UTF8: return "utf8";
    case XQ_ENC_GBK: return "gbk";
    case XQ_ENC_BIG5: return "big5";
    default: return "auto";
    }
}

static bool ascii_ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a, y = *b;
        if (x >= 'A' && x <= 'Z') x = (char)(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z') y = (char)(y - 'A' + 'a');
        if (x != y) return false;
    }
    return *a == *b;
}

bool xq_encoding_parse(const char *name, xq_encoding *out)
{
    static const struct { const char *name; xq_encoding enc; } names[] = {
        {"auto", XQ_ENC_AUTO}, {"utf8", XQ_ENC_UTF8}, {"utf-8", XQ_ENC_UTF8},
        {"gbk", XQ_ENC_GBK}, {"gb18030", XQ_ENC_GBK}, {"gb2312", XQ_ENC_GBK},
        {"cp936", XQ_ENC_GBK}, {"big5", XQ_ENC_BIG5}, {"cp950", XQ_ENC_BIG5},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (ascii_ieq(name, names[i].name)) {
            *out = names[i].enc;
            return true;
        }
    return false;
}

const char *xq_format_name(xq_format fmt)
{
    switch (fmt) {
    case XQ_FMT_PGN: return "pgn";
    case XQ_FMT_XQF: return "xqf";
    case XQ_FMT_CBR: return "cbr";
    case XQ_FMT_CBL: return "cbl";
    case XQ_FMT_XML: return "xml";
    case XQ_FMT_DHTMLXQ: return "dhtmlxq";
    case XQ_FMT_JSONL: return "jsonl";
    default: return "auto";
    }
}

/* ---- growable buffer -------------------------------------------------- */

bool xq_buf_reserve(xq_buf *b, size_t extra)
{
    if (b->cap - b->len >= extra) return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < extra) {
        if (cap > SIZE_MAX / 2) return false;
        cap *= 2;
    }
    char *p = realloc(b->p, cap);
    if (!p) return false;
    b->p = p;
    b->cap = cap;
    return true;
}

bool xq_buf_append(xq_buf *b, const void *data, size_t n)
{
    if (!xq_buf_reserve(b, n)) return false;
    if (n) memcpy(b->p + b->len, data, n);
    b->len += n;
    return true;
}

void xq_buf_free(xq_buf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

/* ---- UTF-8 ------------------------------------------------------------ */

/* Examine the sequence at s (n > 0 bytes).  Returns its length 1..4 when
 * well-formed; 0 when ill-formed, with *bad the length of the maximal
 * well-formed prefix to replace (at least 1); -1 when a well-formed prefix
 * is cut by the end of the buffer (*bad = its length). NUL is ill-formed. */
static int utf8_seq(const unsigned char *s, size_t n, size_t *bad)
{
    unsigned c = s[0];
    *bad = 1;
    if (c < 0x80) return c ? 1 : 0;
    int need;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) need = 1;
    else if (c == 0xE0) { need = 2; lo = 0xA0; }
    else if (c == 0xED) { need = 2; hi = 0x9F; }
    else if (c >= 0xE1 && c <= 0xEF) need = 2;
    else if (c == 0xF0) { need = 3; lo = 0x90; }
    else if (c == 0xF4) { need = 3; hi = 0x8F; }
    else if (c >= 0xF1 && c <= 0xF3) need = 3;
    else return 0;
    for (int i = 1; i <= need; i++) {
        if ((size_t)i >= n) { *bad = (size_t)i; return -1; }
        if (s[i] < lo || s[i] > hi) { *bad = (size_t)i; return 0; }
        lo = 0x80;
        hi = 0xBF;
    }
    return need + 1;
}

/* True when every byte is 0x01..0x7F; 8 bytes at a time. */
static bool all_ascii(const unsigned char *s, size_t n)
{
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        if ((w & highs) || ((w - ones) & ~w & highs)) return false;
    }
    for (; i < n; i++)
        if (s[i] == 0 || s[i] >= 0x80) return false;
    return true;
}

/* True when s[0..n) is well-formed UTF-8 without NUL bytes: what
 * xq_utf8_valid(s, n, false) says, in one pass that takes ASCII 8 bytes at
 * a time and the common 3-byte characters (U+1000..U+FFFF but the
 * surrogates: CJK, full-width forms) inline. */
static bool utf8_clean(const unsigned char *s, size_t n)
{
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    size_t i = 0, bad;
    while (i < n) {
        unsigned c = s[i];
        if (c < 0x80) {
            if (!c) return false;
            i++;
            while (i + 8 <= n) {
                uint64_t w;
                memcpy(&w, s + i, 8);
                if ((w & highs) || ((w - ones) & ~w & highs)) break;
                i += 8;
            }
            continue;
        }
        if (c >= 0xE1 && c != 0xED && c <= 0xEF && i + 2 < n && (s[i + 1] & 0xC0) == 0x80 &&
            (s[i + 2] & 0xC0) == 0x80) {
            i += 3;
            continue;
        }
        int k = utf8_seq(s + i, n - i, &bad);
        if (k <= 0) return false;
        i += (size_t)k;
    }
    return true;
}

/* xq_utf8_valid, with NUL bytes allowed when nul_ok (for detection: a
 * stray NUL does not make a UTF-8 file look like Big5 or GBK). */
static bool utf8_valid(const unsigned char *s, size_t n, bool allow_cut, bool nul_ok)
{
    size_t i = 0, bad;
    while (i < n) {
        if ((s[i] || nul_ok) && s[i] < 0x80) { i++; continue; }
        int k = utf8_seq(s + i, n - i, &bad);
        if (k > 0) { i += (size_t)k; continue; }
        return k < 0 && allow_cut;
    }
    return true;
}

bool xq_utf8_valid(const unsigned char *s, size_t n, bool allow_cut)
{
    return utf8_valid(s, n, allow_cut, false);
}

/* Decode one UTF-8 code point known to be well-formed, length k. */
static uint32_t utf8_cp(const unsigned char *s, int k)
{
    if (k == 1) return s[0];
    uint32_t cp = s[0] & (0x7F >> k);
    for (int i = 1; i < k; i++) cp = cp << 6 | (s[i] & 0x3F);
    return cp;
}

/* ---- iconv decoding core ---------------------------------------------- */

static iconv_t open_legacy(xq_encoding enc)
{
    iconv_t cd = (iconv_t)-1;
    if (enc == XQ_ENC_BIG5) {
        cd = iconv_open("UTF-8", "CP950");
        if (cd == (iconv_t)-1) cd = iconv_open("UTF-8", "BIG5");
    } else if (enc == XQ_ENC_GBK) {
        cd = iconv_open("UTF-8", "GB18030");
        if (cd == (iconv_t)-1) cd = iconv_open("UTF-8", "GBK");
    }
    return cd;
}

/* Append the UTF-8 decoding of s[0..n) (file offset off) to out with cd.
 * Bad sequences and NUL bytes become U+FFFD, one byte at a time, and are
 * reported.  Returns the count of bad sequences, -1 on out-of-memory.
 * The reference decoder: the library decodes with table_decode (and
 * score_pairs), which the tests compare with it. */
static int iconv_decode(iconv_t cd, const char *what, const unsigned char *s, size_t n,
                        uint64_t off, xq_buf *out, xq_bad_bytes_fn *bad, void *ctx)
{
    int nbad = 0;
    size_t i = 0;
    while (i < n) {
        const unsigned char *nul = memchr(s + i, 0, n - i);
        size_t seg = nul ? (size_t)(nul - s) : n;
        while (i < seg) {
            /* worst case: every byte -> U+FFFD (3 bytes) */
            if (!xq_buf_reserve(out, 3 * (seg - i) + 8)) return -1;
            char *inp = (char *)(s + i), *outp = out->p + out->len;
            size_t inleft = seg - i, outleft = out->cap - out->len;
            size_t r = iconv(cd, &inp, &inleft, &outp, &outleft);
            out->len = (size_t)(outp - out->p);
            i = (size_t)((const unsigned char *)inp - s);
            if (r != (size_t)-1) break;
            if (errno == E2BIG) continue;
            /* EILSEQ or EINVAL (cut at the end of the line) */
            iconv(cd, NULL, NULL, NULL, NULL);
            if (bad) bad(ctx, off + i, out->len, what);
            nbad++;
            xq_buf_append(out, REPLACEMENT, 3);
            i++;
        }
        if (nul) {
            if (!xq_buf_reserve(out, 3)) return -1;
            if (bad) bad(ctx, off + seg, out->len, "NUL byte");
            nbad++;
            xq_buf_append(out, REPLACEMENT, 3);
            i = seg + 1;
        }
    }
    return nbad;
}

/* Cache of the first character of each byte pair (lead byte, next byte)
 * in a legacy encoding, filled from iconv on first use, so that a
 * line decodes in a plain loop and iconv runs once per distinct character.
 * Entry: 0 unknown, PAIR_BAD invalid lead byte, PAIR_SLOW decode with
 * iconv every time (GB18030 4-byte forms), else consumed << 28 | utf8 length
 * << 24 | up to 3 UTF-8 bytes. */
enum { PAIR_BAD = 1, PAIR_SLOW = 2 };

/* Flag of a cached entry that xq_input_decode_word may take: its character
 * is neither an ASCII blank, delimiter or NUL nor a Unicode blank, nor an
 * ASCII character reached from a non-ASCII lead byte.  Bit 27 lies between
 * the length (bits 24-25) and the count of bytes consumed (bits 28-29), so
 * the decoders that mask those fields do not see it. */
enum { PAIR_WORD = XQ_PAIR_WORD };

/* Entries 0x00..0x7F of WORD_ASCII and WORD_UTF8: the ASCII bytes that
 * may be part of a word (1), the others (0). */
#define WORD_ASCII_HALF \
    0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, \
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, \
    0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, \
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, \
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, \
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, \
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, \
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1, 1,

/* ASCII bytes that may be part of a word (xq_input_decode_word): all but
 * NUL, the blanks (space, tab, CR, VT, FF), the line feed (which ends a
 * line, see xq_word_ascii) and the delimiters { } ( ) ; of PGN movetext
 * (pgn_read.c CLASS).  Entries 0x80.. are 0. */
static const unsigned char WORD_ASCII[256] = {
    WORD_ASCII_HALF
};

/* Is the UTF-8 character u[0..len) a Unicode blank of the movetext
 * (U+00A0, U+3000, U+FEFF; pgn_read.c blank_len)? */
static bool utf8_blank(const unsigned char *u, size_t len)
{
    if (len == 2) return u[0] == 0xC2 && u[1] == 0xA0;
    return len == 3 && ((u[0] == 0xE3 && u[1] == 0x80 && u[2] == 0x80) ||
                        (u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF));
}

/* The entry of the pair (lead, next) for the pair cache, from iconv: the
 * first character of the pair, or PAIR_BAD / PAIR_SLOW.  The common pair,
 * one character of two bytes, takes one iconv call (pair_try2); the rest
 * the general way (pair_entry_ref, which tests/unit/test_detect_fast.c
 * compares it with on every pair). */
static uint32_t pair_entry_ref(iconv_t cd, unsigned char lead, unsigned char next);

/* The entry for (lead, next) when iconv decodes the two bytes as one
 * character of 2 or 3 UTF-8 bytes, else 0.  Then the lead alone is no
 * character (the encodings are prefix-free: a byte that is a character
 * starts none), so pair_entry_ref's first try, the lead alone, ends
 * incomplete and its second gives this. */
static uint32_t pair_try2(iconv_t cd, unsigned char lead, unsigned char next)
{
    unsigned char in2[2] = {lead, next};
    char outb[16];
    char *inp = (char *)in2, *outp = outb;
    size_t inleft = 2, outleft = sizeof outb;
    iconv(cd, NULL, NULL, NULL, NULL);
    size_t r = iconv(cd, &inp, &inleft, &outp, &outleft);
    size_t olen = (size_t)(outp - outb);
    const unsigned char *u = (const unsigned char *)outb;
    /* one character: a lead byte of its length, continuation bytes */
    bool one = (olen == 2 && u[0] >= 0xC2 && u[0] <= 0xDF && (u[1] & 0xC0) == 0x80) ||
               (olen == 3 && (u[0] & 0xF0) == 0xE0 && (u[1] & 0xC0) == 0x80 &&
                (u[2] & 0xC0) == 0x80);
    if (r == (size_t)-1 || inleft != 0 || !one) return 0;
    uint32_t e = 2u << 28 | (uint32_t)olen << 24;
    for (size_t i = 0; i < olen; i++) e |= (uint32_t)u[i] << (8 * i);
    if (!utf8_blank(u, olen)) e |= PAIR_WORD;
    return e;
}

static uint32_t pair_entry(iconv_t cd, unsigned char lead, unsigned char next)
{
    if (lead >= 0x80) {
        uint32_t e = pair_try2(cd, lead, next);
        if (e) return e;
    }
    return pair_entry_ref(cd, lead, next);
}

static uint32_t pair_entry_ref(iconv_t cd, unsigned char lead, unsigned char next)
{
    unsigned char in2[2] = {lead, next};
    char outb[16];
    for (size_t inlen = 1; inlen <= 2; inlen++) {
        char *inp = (char *)in2, *outp = outb;
        size_t inleft = inlen, outleft = sizeof outb;
        iconv(cd, NULL, NULL, NULL, NULL);
        size_t r = iconv(cd, &inp, &inleft, &outp, &outleft);
        size_t used = inlen - inleft, olen = (size_t)(outp - outb);
        if (r != (size_t)-1 || used > 0) {
            if (used == 0 || olen == 0 || olen > 3) return PAIR_SLOW;
            uint32_t e = (uint32_t)used << 28 | (uint32_t)olen << 24;
            for (size_t i = 0; i < olen; i++) e |= (uint32_t)(unsigned char)outb[i] << (8 * i);
            if (olen >= 2 && !utf8_blank((const unsigned char *)outb, olen)) e |= PAIR_WORD;
            return e;
        }
        if (errno != EINVAL) return PAIR_BAD;
    }
    iconv(cd, NULL, NULL, NULL, NULL);
    return PAIR_SLOW;
}

static inline size_t pair_key(const unsigned char *p) { return xq_pair_key(p); }
static inline void store3(char *o, uint32_t e) { xq_pair_store3(o, e); }

/* Decode one character at s[i] the slow way: pair cache misses (an
 * ASCII lead byte's entry is made here without iconv: every supported
 * legacy encoding maps 0x01..0x7F to itself), GB18030 4-byte forms, the
 * last byte of the line, bad sequences and NUL (reported, counted in
 * *nbad).  Writes at *o (16 bytes of room) and advances it; returns the
 * input bytes used (>= 1).  Always inlined (table_decode, score_decode):
 * first sights of pairs are most of a small input's decoding, and a call
 * each cost 2 M instructions over 1,120 small files. */
static inline __attribute__((always_inline)) long
decode_slow(iconv_t cd, uint32_t *pairs, const char *what, const unsigned char *s, size_t n,
            size_t i, uint64_t off, xq_buf *out, char **o, xq_bad_bytes_fn *bad, void *ctx,
            int *nbad)
{
    unsigned char b = s[i];
    uint32_t e = PAIR_BAD;
    if (b && b < 0x80) {
        e = 1u << 28 | 1u << 24 | b | (WORD_ASCII[b] ? PAIR_WORD : 0);
        if (i + 1 < n) pairs[pair_key(s + i)] = e;
    } else if (b) {
        if (i + 1 >= n) {
            e = pair_entry(cd, b, 0);    /* last byte: single-byte char or bad */
            if (e >> 28 != 1) e = PAIR_BAD;
        } else {
            uint32_t *slot = &pairs[pair_key(s + i)];
            if (!*slot) *slot = pair_entry(cd, b, s[i + 1]);
            e = *slot;
        }
    }
    if (e == PAIR_SLOW) {
        char *inp = (char *)(s + i), *outp = *o;
        size_t inleft = n - i < 4 ? n - i : 4, outleft = 16;
        iconv(cd, NULL, NULL, NULL, NULL);
        iconv(cd, &inp, &inleft, &outp, &outleft);
        size_t used = (size_t)((const unsigned char *)inp - (s + i));
        if (used) {
            *o = outp;
            return (long)used;
        }
        e = PAIR_BAD;
    }
    if (e == PAIR_BAD) {
        out->len = (size_t)(*o - out->p);
        if (bad) bad(ctx, off + i, out->len, b ? what : "NUL byte");
        (*nbad)++;
        memcpy(*o, REPLACEMENT, 3);
        *o += 3;
        return 1;
    }
    store3(*o, e);
    *o += e >> 24 & 3;
    return (long)(e >> 28);
}

/* A new pair cache, all entries unknown (0).  The entries of ASCII leads
 * are not filled ahead (127 x 256 of them would write the whole 256 KiB
 * table at every reader open, the main cost of a small input, under
 * ASan a page fault per page): every supported legacy encoding maps
 * 0x01..0x7F to itself whatever byte follows, so decode_slow makes such
 * an entry on first sight, and the word decoder (xq_pairs_decode_word),
 * which also meets pairs no line holds (an ASCII byte and the '\n' after
 * it), takes an unknown entry of an ASCII lead as that entry.  Freed
 * with free().  NULL on out-of-memory. */
static uint32_t *pairs_new(void)
{
    return calloc((size_t)256 << 8, sizeof(uint32_t));
}

/* ---- what a closed input leaves to the next (per thread) -------------- */

/* A run over many small files, opened one after another (a directory of
 * one-game files), made per file: the 64 KiB read buffer (zeroed), two
 * iconv converters for the detection and one for the decoding, and a
 * 256 KiB pair cache per legacy encoding scored, zeroed and then filled
 * again pair by pair through iconv; over 2,000 one-game files of
 * masters.pgn that was half of the run's instructions.  None of it
 * depends on the file: a pair cache holds entries that are a function
 * of the encoding and the pair alone (entries are only ever added), a
 * converter is reset before each use (decode_slow, pair_try2), and the
 * bytes of a buffer past the window may be anything (xq_input_window).
 * So a closed input leaves them to its thread, one of each kind, and
 * the next input the thread opens takes them over; an input owns what
 * it took until it is closed, so no two inputs ever share one.  Freed
 * when the thread ends (stash_free); the main thread's stash stays
 * reachable until exit. */
typedef struct {
    unsigned char *buf;      /* READ_CHUNK to STASH_BUF_MAX bytes, every byte defined, or NULL */
    iconv_t cd[2];           /* Big5's and GBK's converters, (iconv_t)-1 for none */
    uint32_t *pairs[2];      /* their pair caches, or NULL */
} input_stash;

static _Thread_local input_stash *stash;
static pthread_key_t stash_key;
static pthread_once_t stash_once = PTHREAD_ONCE_INIT;
static bool stash_keyed;

static void stash_free(void *p)
{
    input_stash *s = p;
    free(s->buf);
    for (int k = 0; k < 2; k++) {
        if (s->cd[k] != (iconv_t)-1) iconv_close(s->cd[k]);
        free(s->pairs[k]);
    }
    free(s);
    stash = NULL;   /* (still this thread's: TLS outlives the key's destructors) */
}

static void stash_make_key(void)
{
    stash_keyed = pthread_key_create(&stash_key, stash_free) == 0;
}

/* This thread's stash, made on first use; NULL when it cannot be (out of
 * memory, no key for its destructor): then nothing is kept. */
static input_stash *stash_here(void)
{
    if (stash) return stash;
    pthread_once(&stash_once, stash_make_key);
    if (!stash_keyed) return NULL;
    input_stash *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->cd[0] = s->cd[1] = (iconv_t)-1;
    if (pthread_setspecific(stash_key, s) != 0) {
        free(s);
        return NULL;
    }
    return stash = s;
}

/* The slot of a legacy encoding in the stash: Big5 0, GBK 1. */
static int stash_slot(xq_encoding enc)
{
    return enc == XQ_ENC_GBK;
}

/* The converter for enc (GBK or Big5): the stash's, else a new one;
 * (iconv_t)-1 when iconv has none.  Give it back with converter_give. */
static iconv_t converter_take(xq_encoding enc)
{
    input_stash *s = stash;
    int k = stash_slot(enc);
    if (s && s->cd[k] != (iconv_t)-1) {
        iconv_t cd = s->cd[k];
        s->cd[k] = (iconv_t)-1;
        return cd;
    }
    return open_legacy(enc);
}

static void converter_give(xq_encoding enc, iconv_t cd)
{
    if (cd == (iconv_t)-1) return;
    input_stash *s = stash_here();
    int k = stash_slot(enc);
    if (s && s->cd[k] == (iconv_t)-1) {
        s->cd[k] = cd;
        return;
    }
    iconv_close(cd);
}

/* The pair cache of enc (GBK or Big5): the stash's, with the entries
 * earlier inputs made, else a new empty one; NULL when out of memory.
 * Give it back with pairs_give. */
static uint32_t *pairs_take(xq_encoding enc)
{
    input_stash *s = stash;
    int k = stash_slot(enc);
    if (s && s->pairs[k]) {
        uint32_t *p = s->pairs[k];
        s->pairs[k] = NULL;
        return p;
    }
    return pairs_new();
}

static void pairs_give(xq_encoding enc, uint32_t *pairs)
{
    if (!pairs) return;
    input_stash *s = stash_here();
    int k = stash_slot(enc);
    if (s && !s->pairs[k]) {
        s->pairs[k] = pairs;
        return;
    }
    free(pairs);
}

/* The largest read buffer the stash keeps: a buffer grows to twice
 * READ_CHUNK for the detection's sample (SAMPLE_SIZE and the pad) or the
 * format sniffing; one grown for a long line or record is not kept. */
enum { STASH_BUF_MAX = 2 * READ_CHUNK };

/* A read buffer used as one of READ_CHUNK bytes (it may be larger), every
 * byte defined: the stash's (holding an earlier input's bytes), else a
 * new zeroed one; NULL when out of memory.  Used as READ_CHUNK bytes
 * whatever it holds, so that an input reads in the same steps as with a
 * new buffer (fill grows it with realloc, which then needs no move): the
 * first read of a larger one asked zlib for more bytes at once, and a
 * gzip stream damaged after the first READ_CHUNK bytes then gave none of
 * them (zin.c hands out nothing of a step that fails). */
static unsigned char *buffer_take(void)
{
    input_stash *s = stash;
    if (s && s->buf) {
        unsigned char *b = s->buf;
        s->buf = NULL;
        return b;
    }
    return calloc(READ_CHUNK, 1);
}

/* Give back a read buffer of cap bytes: kept up to STASH_BUF_MAX bytes,
 * else freed. */
static void buffer_give(unsigned char *buf, size_t cap)
{
    if (!buf) return;
    input_stash *s = cap <= STASH_BUF_MAX ? stash_here() : NULL;
    if (s && !s->buf) {
        s->buf = buf;
        return;
    }
    free(buf);
}

/* Decode s[0..n) with the pair cache (pairs[pair_key], 256 x 256
 * entries for every byte pair, ASCII leads included, allocated on first
 * use, filled on first sight); same contract as iconv_decode.  The loop
 * is one table lookup per character whatever its kind: a pair whose
 * entry is unknown (0: never seen, and always for a NUL lead) or
 * PAIR_BAD / PAIR_SLOW goes to decode_slow, and so does the last byte of
 * the line (it has no pair).  Output room: 3 bytes per input byte (U+FFFD
 * per bad byte is the worst case) + 16 for decode_slow's iconv. */
static int table_decode(iconv_t cd, uint32_t **pairs, const char *what, const unsigned char *s,
                        size_t n, uint64_t off, xq_buf *out, xq_bad_bytes_fn *bad, void *ctx)
{
    if (!xq_buf_reserve(out, 3 * n + 16)) return -1;
    if (!*pairs && !(*pairs = pairs_new())) return -1;
    const uint32_t *pt = *pairs;
    char *o = out->p + out->len;
    int nbad = 0;
    const unsigned char *p = s, *end = s + n;
    while (p < end) {
        while (end - p >= 2) {          /* the hot loop: a pair is there */
            uint32_t e = pt[pair_key(p)];
            if (e <= PAIR_SLOW) break;
            store3(o, e);                /* cached: up to 3 UTF-8 bytes */
            o += e >> 24 & 3;
            p += e >> 28;
        }
        if (p == end) break;
        p += decode_slow(cd, *pairs, what, s, n, (size_t)(p - s), off, out, &o, bad, ctx, &nbad);
    }
    out->len = (size_t)(o - out->p);
    return nbad;
}

/* Repair UTF-8: copy valid runs, replace each maximal ill-formed subpart
 * (and NUL) by U+FFFD. */
static int utf8_decode(const unsigned char *s, size_t n, uint64_t off, xq_buf *out,
                       xq_bad_bytes_fn *bad, void *ctx)
{
    int nbad = 0;
    size_t i = 0, run = 0, blen;
    if (!xq_buf_reserve(out, 3 * n + 8)) return -1;
    while (i < n) {
        int k = (s[i] && s[i] < 0x80) ? 1 : utf8_seq(s + i, n - i, &blen);
        if (k > 0) { i += (size_t)k; continue; }
        xq_buf_append(out, s + run, i - run);
        if (bad) bad(ctx, off + i, out->len, s[i] ? "invalid UTF-8 byte sequence" : "NUL byte");
        nbad++;
        xq_buf_append(out, REPLACEMENT, 3);
        i += blen;
        run = i;
    }
    xq_buf_append(out, s + run, n - run);
    return nbad;
}

/* ---- detection -------------------------------------------------------- */

/* Characters common in Xiangqi records, simplified and traditional. */
static const char MARKERS[] =
    "車车俥馬马傌砲炮包進进退平兵卒帥帅將将仕士相象前後后中"
    "一二三四五六七八九０１２３４５６７８９";

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The markers (all 3-byte characters of the BMP) as a bit set over the
 * BMP: set[cp >> 6] >> (cp & 63) & 1. */
typedef struct {
    uint64_t w[1024];
} marker_set;

static void marker_set_make(marker_set *set, const uint32_t *markers, size_t nm)
{
    memset(set, 0, sizeof *set);
    for (size_t m = 0; m < nm; m++)
        if (markers[m] < 0x10000) set->w[markers[m] >> 6] |= (uint64_t)1 << (markers[m] & 63);
}

/* The code points of MARKERS, sorted (the scoring searches them), and
 * their bit set: made once for the process (every detection reads them;
 * made per detection they cost a sort and two 8 KiB sets per file). */
static struct {
    uint32_t list[64];
    size_t n;
    marker_set set;
} marker_table;
static pthread_once_t marker_once = PTHREAD_ONCE_INIT;

static void marker_table_make(void)
{
    size_t nm = 0, i = 0, blen;
    const unsigned char *m = (const unsigned char *)MARKERS;
    size_t mlen = sizeof MARKERS - 1;
    while (i < mlen && nm < 64) {
        int k = utf8_seq(m + i, mlen - i, &blen);
        marker_table.list[nm++] = utf8_cp(m + i, k);
        i += (size_t)k;
    }
    qsort(marker_table.list, nm, sizeof *marker_table.list, cmp_u32);
    marker_table.n = nm;
    marker_set_make(&marker_table.set, marker_table.list, nm);
}

/* The code points of MARKERS, sorted, into markers[64]; returns how
 * many. */
static size_t marker_list(uint32_t markers[64])
{
    pthread_once(&marker_once, marker_table_make);
    memcpy(markers, marker_table.list, marker_table.n * sizeof *markers);
    return marker_table.n;
}

/* The bit set of markers[0..nm), which must be marker_list's. */
static const marker_set *marker_set_of(const uint32_t *markers, size_t nm)
{
    pthread_once(&marker_once, marker_table_make);
    assert(nm == marker_table.n && memcmp(markers, marker_table.list, nm * sizeof *markers) == 0);
    (void)markers;
    (void)nm;
    return &marker_table.set;
}

/* Marker characters in the UTF-8 text u[0..n) (the decoder's output: well
 * formed but for what utf8_seq refuses, skipped a byte at a time). */
static inline __attribute__((always_inline)) long
marker_count(const unsigned char *u, size_t n, const marker_set *set, const uint32_t *markers,
             size_t nm)
{
    long score = 0;
    size_t i = 0, blen;
    while (i < n) {
        unsigned c = u[i];
        if (c < 0x80) { i++; continue; }
        if (c >= 0xE1 && c <= 0xEF && c != 0xED && n - i >= 3 && (u[i + 1] & 0xC0) == 0x80 &&
            (u[i + 2] & 0xC0) == 0x80) {   /* what utf8_seq takes as 3 bytes, inline */
            uint32_t cp = utf8_cp(u + i, 3);
            score += (long)(set->w[cp >> 6] >> (cp & 63) & 1);
            i += 3;
            continue;
        }
        int k = utf8_seq(u + i, n - i, &blen);
        if (k <= 0) { i++; continue; }
        if (k == 3) {
            uint32_t cp = utf8_cp(u + i, k);
            if (bsearch(&cp, markers, nm, sizeof *markers, cmp_u32)) score++;
        }
        i += (size_t)k;
    }
    return score;
}

/* Is the character of pair entry e (e > PAIR_SLOW: a cached one) a
 * marker?  Its UTF-8 is e's low bytes, first in the low byte (a cached
 * character is always well formed: iconv's output), so a 3-byte one is
 * E? 8?..B? 8?..B? and its code point is read from e directly. */
static inline long entry_marker(uint32_t e, const marker_set *set)
{
    if ((e >> 24 & 3) != 3) return 0;
    uint32_t cp = (e & 0x0F) << 12 | (e >> 8 & 0x3F) << 6 | (e >> 16 & 0x3F);
    return (long)(set->w[cp >> 6] >> (cp & 63) & 1);
}

/* table_decode's walk over s[0..n) with the pair cache *pairs (made when
 * NULL), counting the markers of the text as it goes instead of writing
 * it: the cached characters' from their entries, decode_slow's output
 * (misses, iconv's forms, U+FFFD per bad byte) by marker_count over the
 * few bytes it wrote.  Returns markers - bad sequences, the score
 * table_decode's text and count would give; the pair cache ends as
 * table_decode leaves it (the same decode_slow calls) but for the
 * entries of ASCII leads, which it neither reads nor makes (decode_slow
 * makes them on first sight later, as for a fresh cache).  0 on
 * out-of-memory (as before: no text, no count). */
static long score_decode(iconv_t cd, uint32_t **pairs, const unsigned char *s, size_t n,
                         const marker_set *set, const uint32_t *markers, size_t nm)
{
    if (!*pairs && !(*pairs = pairs_new())) return 0;
    const uint32_t *pt = *pairs;
    char slow[64];   /* decode_slow's output: 16 bytes of room needed */
    xq_buf out = {slow, 0, sizeof slow};
    long score = 0;
    int nbad = 0;
    const unsigned char *p = s, *end = s + n;
    while (p < end) {
        while (end - p >= 2) {   /* the hot loop, as table_decode's */
            /* an ASCII byte but NUL is itself in every supported legacy
             * encoding, whatever follows (decode_slow's entry), and no
             * marker: skipped without its entry, so that the scoring
             * touches fewer pages of the 256 KiB cache it makes per
             * encoding (an ASCII pair's entry lies in the row of its
             * second byte, anywhere: a masters run had 22 first-touch
             * page faults fewer, 590 -> 568) */
            if (*p - 1u < 0x7Fu) {
                p++;
                continue;
            }
            uint32_t e = pt[pair_key(p)];
            if (e <= PAIR_SLOW) break;
            score += entry_marker(e, set);
            p += e >> 28;
        }
        if (p == end) break;
        char *o = slow;
        p += decode_slow(cd, *pairs, "", s, n, (size_t)(p - s), 0, &out, &o, NULL, NULL, &nbad);
        score += marker_count((const unsigned char *)slow, (size_t)(o - slow), set, markers, nm);
    }
    return score - nbad;
}

/* Score = marker characters - bad sequences, of the decoding with enc.
 * With pairs, the decoding is table_decode's with the pair cache *pairs
 * (made here when NULL, left to the caller), scored as it goes
 * (score_decode): the same text and count of bad sequences as
 * iconv_decode's over the whole sample but iconv only once per distinct
 * byte pair, and no text written.  pairs NULL: iconv_decode's, for a
 * small sample, where making a 256 KiB cache per encoding would cost more
 * than it saves (tests/unit/test_detect_fast.c compares the detection with
 * the former one, iconv_decode's alone, on the corpora and on crafted
 * samples, both sizes). */
static long score_pairs(xq_encoding enc, const unsigned char *s, size_t n,
                        const uint32_t *markers, size_t nm, uint32_t **pairs)
{
    iconv_t cd = converter_take(enc);
    if (cd == (iconv_t)-1) return -(long)n;
    const marker_set *set = marker_set_of(markers, nm);
    if (pairs) {
        long score = score_decode(cd, pairs, s, n, set, markers, nm);
        converter_give(enc, cd);
        return score;
    }
    xq_buf out = {0};
    int nbad = iconv_decode(cd, "", s, n, 0, &out, NULL, NULL);
    converter_give(enc, cd);
    long score = -(long)(nbad < 0 ? 0 : nbad) + marker_count((const unsigned char *)out.p, out.len, set, markers, nm);
    xq_buf_free(&out);
    return score;
}

/* Mostly valid UTF-8: at least 4 well-formed multi-byte sequences per
 * ill-formed one.  A UTF-8 file with a few damaged bytes stays UTF-8 (its
 * damage is then reported where it is) instead of turning into GBK
 * mojibake; GBK and Big5 text, read as UTF-8, has far more ill-formed
 * sequences than well-formed ones (about 9 to 1). */
static bool mostly_utf8(const unsigned char *s, size_t n)
{
    size_t i = 0, good = 0, bad = 0, blen;
    while (i < n) {
        if (s[i] < 0x80) { i++; continue; }
        int k = utf8_seq(s + i, n - i, &blen);
        if (k < 0) break;               /* cut by the end of the sample */
        if (k > 0) { good++; i += (size_t)k; continue; }
        bad++;
        i += blen;
        /* the rest holds at most (n - i) / 2 more good sequences: the
         * answer is no once they could not make up for the bad ones */
        if (good + (n - i) / 2 < 4 * bad) return false;
    }
    return good > 0 && good >= 4 * bad;
}

/* xq_detect_encoding; for GBK or Big5, *pairs is then the pair cache of
 * that encoding, filled by the scoring (the input's table_decode goes on
 * with it), else NULL (also when memory for it ran out).  The scoring
 * takes both encodings' caches from the thread's stash (pairs_take:
 * after the first file they hold most pairs, so a small file costs
 * table look-ups, not iconv calls) and gives the loser's back.  The
 * caller owns *pairs (pairs_give or free). */
static xq_encoding detect_pairs(const unsigned char *sample, size_t n, uint32_t **pairs)
{
    *pairs = NULL;
    if (n >= 3 && memcmp(sample, "\xEF\xBB\xBF", 3) == 0) return XQ_ENC_UTF8;
    if (utf8_valid(sample, n, true, true)) return XQ_ENC_UTF8;
    if (mostly_utf8(sample, n)) return XQ_ENC_UTF8;
    uint32_t markers[64];
    size_t nm = marker_list(markers);
    uint32_t *p_big5 = pairs_take(XQ_ENC_BIG5), *p_gbk = pairs_take(XQ_ENC_GBK);
    /* (a cache that could not be had: scored through iconv alone) */
    long big5 = score_pairs(XQ_ENC_BIG5, sample, n, markers, nm, p_big5 ? &p_big5 : NULL);
    long gbk = score_pairs(XQ_ENC_GBK, sample, n, markers, nm, p_gbk ? &p_gbk : NULL);
    bool is_big5 = big5 > gbk;
    *pairs = is_big5 ? p_big5 : p_gbk;
    if (is_big5)
        pairs_give(XQ_ENC_GBK, p_gbk);
    else
        pairs_give(XQ_ENC_BIG5, p_big5);
    return is_big5 ? XQ_ENC_BIG5 : XQ_ENC_GBK;
}

xq_encoding xq_detect_encoding(const unsigned char *sample, size_t n)
{
    uint32_t *pairs;
    xq_encoding enc = detect_pairs(sample, n, &pairs);
    pairs_give(enc, pairs);
    return enc;
}

/* ---- format sniffing -------------------------------------------------- */

static const unsigned char *find(const unsigned char *p, size_t n, const char *pat)
{
    return memmem(p, n, pat, strlen(pat));
}

/* First "[Name \"" (a PGN tag) in p[0..n), or NULL. */
static const unsigned char *find_pgn_tag(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i + 3 < n; i++) {
        if (p[i] != '[' || !((p[i + 1] | 0x20) >= 'a' && (p[i + 1] | 0x20) <= 'z')) continue;
        size_t j = i + 1;
        while (j < n && p[j] != ' ' && p[j] != ']' && p[j] != '\n' && j - i < 64) j++;
        while (j < n && p[j] == ' ') j++;
        if (j < n && p[j] == '"') return p + i;
    }
    return NULL;
}

/* Does p[i..n) start a JSON object: '{', blanks, then '}' or a key
 * ("...":)?  (For a first line longer than the sample.) */
static bool json_object_at(const unsigned char *p, size_t n, size_t i)
{
    if (i >= n || p[i] != '{') return false;
    for (i++; i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'); i++) continue;
    if (i < n && p[i] == '}') return true;
    if (i >= n || p[i] != '"') return false;
    for (i++; i < n && p[i] != '"'; i += p[i] == '\\' ? 2 : 1)
        if (p[i] < 0x20) return false;
    for (i++; i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'); i++) continue;
    return i < n && p[i] == ':';
}

static const char *const JSONL_FIELDS[] = {"tags", "moves", "fen", "result", "comment", "file", "game"};

/* Does p[i..n) start an object whose first key is one of JSONL_FIELDS
 * ('{', blanks, "field", blanks, ':')? */
static bool jsonl_field_first(const unsigned char *p, size_t n, size_t i)
{
    if (i >= n || p[i] != '{') return false;
    for (i++; i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r'); i++) continue;
    for (size_t k = 0; k < sizeof JSONL_FIELDS / sizeof *JSONL_FIELDS; k++) {
        size_t m = strlen(JSONL_FIELDS[k]), j = i + m + 2;
        if (j > n || p[i] != '"' || memcmp(p + i + 1, JSONL_FIELDS[k], m) || p[i + m + 1] != '"') continue;
        while (j < n && (p[j] == ' ' || p[j] == '\t' || p[j] == '\r')) j++;
        return j < n && p[j] == ':';
    }
    return false;
}

/* Is the line at p[i..n) a JSON Lines record: a JSON object holding at
 * least one of the fields xq-convert --to jsonl writes?  A PGN file may
 * start with a {comment} too, even one that is valid JSON ({}, {"a":1});
 * such a comment names no record field.  A line that is not UTF-8 (its
 * strings in GBK or Big5, which the reader decodes when told: -e, -i; no
 * JSON parse can read them, a Big5 or GBK character may end in a byte
 * '\\') is one when its first key is such a field, as the writer writes
 * them ("file" first).  A first line longer than the sample is judged by
 * its start (json_object_at). */
static bool jsonl_record_at(const unsigned char *p, size_t n, size_t i)
{
    const unsigned char *nl = memchr(p + i, '\n', n - i);
    if (!nl) return json_object_at(p, n, i);
    xq_json_doc d = {0};
    xq_json_error err;
    static const xq_json_options opt = {.max_depth = 64, .max_values = 1 << 20, .strict = true};
    bool is = false;
    if (xq_json_parse(&d, (const char *)p + i, (size_t)(nl - (p + i)), &opt, &err)) {
        if (d.root.type == XQ_JSON_OBJECT)
            for (size_t k = 0; !is && k < sizeof JSONL_FIELDS / sizeof *JSONL_FIELDS; k++)
                is = xq_json_get(&d.root, JSONL_FIELDS[k]);
    } else {
        bool high = false;   /* (a byte of GBK or Big5) */
        for (const unsigned char *q = p + i; q < nl && !high; q++) high = *q >= 0x80;
        is = high && jsonl_field_first(p, n, i);
    }
    xq_json_doc_free(&d);
    return is;
}

bool xq_sniff_our_xml(const unsigned char *p, size_t n)
{
    const unsigned char *q = p, *end = p + n;
    if (n >= 3 && !memcmp(q, "\xEF\xBB\xBF", 3)) q += 3;
    for (;;) {   /* the prolog: blanks, <?...?>, <!--...-->, <!...> */
        while (q < end && (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n')) q++;
        if (end - q < 2 || *q != '<') return false;
        const char *close = q[1] == '?' ? "?>" : q[1] != '!' ? NULL : end - q >= 4 && !memcmp(q, "<!--", 4) ? "-->" : ">";
        if (!close) break;
        const unsigned char *c = find(q + 2, (size_t)(end - q - 2), close);
        if (!c) return false;
        q = c + strlen(close);
    }
    const unsigned char *gt = memchr(q, '>', (size_t)(end - q));   /* the root's start tag */
    static const char CBF[] = "<ChineseChessRecord";   /* a CBF record (cbf_read.h), read as XML too */
    bool cbf = gt && (size_t)(gt - q) >= sizeof CBF - 1 && !memcmp(q, CBF, sizeof CBF - 1) &&
               (q[sizeof CBF - 1] == '>' || q[sizeof CBF - 1] == ' ' || q[sizeof CBF - 1] == '\t' ||
                q[sizeof CBF - 1] == '\r' || q[sizeof CBF - 1] == '\n' || q[sizeof CBF - 1] == '/');
    return gt && (cbf || find(q, (size_t)(gt - q), XQ_XML_NS) != NULL);
}

xq_format xq_sniff_format(const unsigned char *p, size_t n)
{
    if (n >= 3 && p[0] == 'X' && p[1] == 'Q' && p[2] < 0x20) return XQ_FMT_XQF;
    if (n >= 16 && memcmp(p, "CCBridge Record", 16) == 0) return XQ_FMT_CBR;
    if (n >= 16 && memcmp(p, "CCBridgeLibrary", 16) == 0) return XQ_FMT_CBL;
    size_t i = 0;
    if (n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) i = 3;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')) i++;
    if (i < n && p[i] == '<' && (i + 1 < n && (p[i + 1] == '?' || p[i + 1] == '!' ||
                                             ((p[i + 1] | 0x20) >= 'a' && (p[i + 1] | 0x20) <= 'z')))) {
        /* XML, unless it is an HTML page carrying DhtmlXQ; our own XML
         * (its namespace on the root element) may quote "[DhtmlXQ" in a
         * comment or tag value and stays XML (xq_sniff_our_xml) */
        if (!find(p, n, "[DhtmlXQ") || xq_sniff_our_xml(p, n)) return XQ_FMT_XML;
    }
    if (i < n && p[i] == '{' && jsonl_record_at(p, n, i)) return XQ_FMT_JSONL;   /* (a record's text may quote "[DhtmlXQ") */
    const unsigned char *d = find(p, n, "[DhtmlXQ");
    if (d) {
        const unsigned char *t = find_pgn_tag(p, n);
        if (!t || d < t) return XQ_FMT_DHTMLXQ;
    }
    return XQ_FMT_PGN;
}

/* ---- the input object ------------------------------------------------- */

struct xq_input;
static void eol_decide(struct xq_input *in);

/* Every CR in [p, e) as LF (a file whose lines end in a lone CR). */
static void cr_to_lf(unsigned char *p, unsigned char *e)
{
    while ((p = memchr(p, '\r', (size_t)(e - p))) != NULL) *p++ = '\n';
}

struct xq_input {
    xq_zin *gz;             /* plain or gzip bytes (zin.h) */
    char *path;
    unsigned char *buf;
    size_t cap, pos, end;   /* unconsumed data is buf[pos..end) */
    uint64_t buf_off;       /* stream offset of buf[0] */
    uint64_t lineno;        /* lines returned so far */
    bool eof, failed, unread, gz_checked, gzipped;
    bool skip_rest;         /* the last line was cut at XQ_MAX_LINE: skip to its '\n' */
    /* Line ends (xq_input_text_lines): watched once a reader of text
     * lines asks, decided at the first line break seen; cr_lines when
     * that is a lone CR (old Mac OS files), every CR of the data then
     * read as LF (in the buffer, byte for byte: offsets stay) */
    bool eol_watch, eol_known, cr_lines;
    xq_raw_line last;
    uint64_t keep_off;      /* bytes from this stream offset on stay in buf (xq_input_keep) */
    xq_encoding enc;        /* AUTO while undecided */
    iconv_t cd;
    uint32_t *pairs;        /* pair cache for cd: 256 x 256 entries (table_decode) */
    xq_buf out;
    char err[512];
    char late[512];         /* xq_input_late_error: "" or "PATH: reason" */
};

static void set_err(char *err, size_t errsz, const char *path, const char *msg)
{
    if (errsz) snprintf(err, errsz, "%s: %s", path, msg);   /* (standard input is "-", as in diagnostics) */
}

static bool set_encoding(xq_input *in, xq_encoding enc)
{
    in->enc = enc;
    if (enc == XQ_ENC_GBK || enc == XQ_ENC_BIG5) {
        in->cd = converter_take(enc);
        if (in->cd == (iconv_t)-1) return false;
    }
    return true;
}

xq_input *xq_input_open(const char *path, xq_encoding enc, char *err, size_t errsz)
{
    bool is_stdin = strcmp(path, "-") == 0;
    int fd = is_stdin ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        set_err(err, errsz, path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        set_err(err, errsz, path, strerror(EISDIR));
        close(fd);
        return NULL;
    }
    xq_input *in = calloc(1, sizeof *in);
    if (in) in->path = strdup(path);
    if (in) in->buf = buffer_take();   /* (every byte defined: XQ_INPUT_PAD) */
    if (!in || !in->path || !in->buf) {
        set_err(err, errsz, path, strerror(ENOMEM));
        close(fd);
        if (in) { free(in->path); free(in->buf); free(in); }
        return NULL;
    }
    in->cap = READ_CHUNK;
    in->keep_off = UINT64_MAX;
    in->cd = (iconv_t)-1;
    in->gz = xq_zin_open(fd);   /* owns fd from here on */
    if (!in->gz) {
        set_err(err, errsz, path, strerror(ENOMEM));
        xq_input_close(in);
        return NULL;
    }
    if (!set_encoding(in, enc)) {
        set_err(err, errsz, path, "iconv cannot convert this encoding to UTF-8");
        xq_input_close(in);
        return NULL;
    }
    return in;
}

void xq_input_close(xq_input *in)
{
    if (!in) return;
    xq_zin_close(in->gz);
    /* (the converter, pair cache and buffer left to the thread's next
     * input: stash) */
    if (in->enc == XQ_ENC_GBK || in->enc == XQ_ENC_BIG5) {
        converter_give(in->enc, in->cd);
        pairs_give(in->enc, in->pairs);
    } else {
        if (in->cd != (iconv_t)-1) iconv_close(in->cd);
        free(in->pairs);
    }
    xq_buf_free(&in->out);
    buffer_give(in->buf, in->cap);
    free(in->path);
    free(in);
}

/* Ensure end - pos >= need unless at end of input; reads as much as fits,
 * leaving the last XQ_INPUT_PAD bytes of the buffer unread into (so that
 * a window can be read past its end, xq_input_window).  Every byte of
 * the buffer is defined (calloc, zeroed growth).  Returns false on a read
 * error (message in in->err). */
static bool fill(xq_input *in, size_t need)
{
    while (in->end - in->pos < need && !in->eof) {
        size_t top = in->cap - XQ_INPUT_PAD;   /* reads end here */
        if (top - in->pos < need || in->end == top) {
            /* move the unread data, and the kept bytes before it
             * (xq_input_keep), to the front; grow if still too small */
            size_t from = in->pos;
            if (in->keep_off < in->buf_off + in->pos)
                from = in->keep_off > in->buf_off ? (size_t)(in->keep_off - in->buf_off) : 0;
            if (from) {
                memmove(in->buf, in->buf + from, in->end - from);
                in->buf_off += from;
                in->pos -= from;
                in->end -= from;
            }
            if (top - in->pos < need || in->end == top) {
                size_t cap = in->cap * 2;
                while (cap - XQ_INPUT_PAD - in->pos < need) cap *= 2;
                unsigned char *b = realloc(in->buf, cap);
                if (!b) {
                    set_err(in->err, sizeof in->err, in->path, strerror(ENOMEM));
                    in->failed = in->eof = true;
                    return false;
                }
                memset(b + in->cap, 0, cap - in->cap);
                in->buf = b;
                in->cap = cap;
                top = cap - XQ_INPUT_PAD;
            }
        }
        size_t room = top - in->end;
        if (room > (1u << 30)) room = 1u << 30;
        ssize_t r = xq_zin_read(in->gz, in->buf + in->end, room);
        if (!in->gz_checked) {
            in->gz_checked = true;
            in->gzipped = xq_zin_gzipped(in->gz);
        }
        if (r < 0 && xq_zin_trailing(in->gz)) {
            /* bytes after whole gzip data: the data ends here as it
             * should (its last record is whole, not cut); the file's
             * fault is told once it is read (xq_input_late_error) */
            set_err(in->late, sizeof in->late, in->path, xq_zin_error(in->gz));
            r = 0;
        }
        if (r < 0) {
            /* read error, corrupt or cut gzip data */
            set_err(in->err, sizeof in->err, in->path, xq_zin_error(in->gz));
            in->failed = in->eof = true;
            return false;
        }
        if (r == 0) in->eof = true;
        size_t from = in->end;
        in->end += (size_t)r;
        if (in->cr_lines) cr_to_lf(in->buf + from, in->buf + in->end);
        else if (in->eol_watch && !in->eol_known) eol_decide(in);
    }
    return true;
}

size_t xq_input_peek(xq_input *in, size_t n, const unsigned char **p)
{
    fill(in, n);   /* on error, what was read before it is still visible */
    *p = in->buf + in->pos;
    size_t have = in->end - in->pos;
    return have < n ? have : n;
}

/* Do the n bytes at a stream's start look like UTF-16 text (either byte
 * order)?  A byte order mark FF FE or FE FF, or, without one, NUL bytes
 * at one parity of offset only (the high bytes of ASCII characters), as a
 * quarter or more of the first 512 bytes' pairs: text in the encodings
 * read (UTF-8, GBK, Big5) holds no NUL. */
static bool utf16_start(const unsigned char *s, size_t n)
{
    if (n >= 2 && ((s[0] == 0xFF && s[1] == 0xFE) || (s[0] == 0xFE && s[1] == 0xFF))) return true;
    if (n > 512) n = 512;
    size_t zeros[2] = {0, 0};
    for (size_t i = 0; i < n; i++) zeros[i & 1] += s[i] == 0;
    size_t pairs = n / 2;
    return pairs >= 2 && ((zeros[1] * 4 >= pairs && zeros[0] == 0) || (zeros[0] * 4 >= pairs && zeros[1] == 0));
}

/* Decide the encoding at the first line holding a non-ASCII byte; refuse
 * UTF-16 at the stream's start (its lines would be read as GBK or Big5
 * mojibake, or ASCII with NULs).  False (in->err set) when the input
 * cannot be read. */
static bool detect_here(xq_input *in, size_t linelen)
{
    const unsigned char *s = in->buf + in->pos;
    if (in->buf_off + in->pos == 0 && utf16_start(s, in->end - in->pos)) {
        set_err(in->err, sizeof in->err, in->path,
                "UTF-16 input: convert it to UTF-8 (iconv -f UTF-16 -t UTF-8)");
        in->failed = true;
        return false;
    }
    if (in->buf_off + in->pos == 0 && linelen >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
        return set_encoding(in, XQ_ENC_UTF8);
    bool ascii = true;
    for (size_t i = 0; i < linelen; i++)
        if (s[i] >= 0x80) { ascii = false; break; }
    if (ascii) return true;
    fill(in, SAMPLE_SIZE);   /* a read error shows at the end of the data */
    size_t n = in->end - in->pos;
    if (n > SAMPLE_SIZE) n = SAMPLE_SIZE;
    uint32_t *pairs;
    xq_encoding enc = detect_pairs(in->buf + in->pos, n, &pairs);
    free(in->pairs);
    in->pairs = pairs;   /* (the cache of enc's decoder, in->cd, from the scoring) */
    if (!set_encoding(in, enc)) {
        set_err(in->err, sizeof in->err, in->path, "iconv cannot convert this encoding to UTF-8");
        in->failed = true;
        return false;
    }
    return true;
}

static int line_slow(xq_input *in, xq_raw_line *line);

int xq_input_line(xq_input *in, xq_raw_line *line)
{
    if (!in->unread && !in->skip_rest && in->enc != XQ_ENC_AUTO) {
        /* the common case: a whole line, not too long, in the buffer */
        const unsigned char *s = in->buf + in->pos;
        size_t have = in->end - in->pos;
        const unsigned char *nl = memchr(s, '\n', have <= XQ_MAX_LINE ? have : XQ_MAX_LINE + 1);
        if (nl) {
            size_t len = (size_t)(nl - s);
            line->bytes = s;
            line->raw_len = len + 1;
            line->len = (len && s[len - 1] == '\r') ? len - 1 : len;
            line->offset = in->buf_off + in->pos;
            line->number = ++in->lineno;
            line->cut = false;
            in->pos += len + 1;
            in->last = *line;
            return 1;
        }
    }
    return line_slow(in, line);
}

/* xq_input_line's general way: a pushed-back line, the rest of a cut
 * line to skip, a line to read further, cut or to detect the encoding
 * at, the end of the input.  Not inlined, so that the common case needs
 * no saved registers. */
__attribute__((noinline)) static int line_slow(xq_input *in, xq_raw_line *line)
{
    if (in->unread) {
        in->unread = false;
        *line = in->last;
        return 1;
    }
    while (in->skip_rest) {   /* the rest of a cut line, read and dropped */
        const unsigned char *e = memchr(in->buf + in->pos, '\n', in->end - in->pos);
        if (e) {
            in->pos = (size_t)(e + 1 - in->buf);
            in->skip_rest = false;
        } else {
            in->pos = in->end;
            if (in->eof) in->skip_rest = false;
            else fill(in, 1);
        }
    }
    size_t scanned = 0;
    const unsigned char *nl;
    bool cut = false;
    for (;;) {
        nl = memchr(in->buf + in->pos + scanned, '\n', in->end - in->pos - scanned);
        if (nl || in->eof) break;
        scanned = in->end - in->pos;
        if (scanned > XQ_MAX_LINE) {   /* bounded memory whatever the input */
            cut = true;
            break;
        }
        fill(in, scanned + 1);   /* on error: eof, then -1 below */
    }
    size_t len = nl ? (size_t)(nl - (in->buf + in->pos)) : in->end - in->pos;
    if (cut || len > XQ_MAX_LINE) {
        cut = true;
        nl = NULL;
        len = XQ_MAX_LINE;
        in->skip_rest = true;
    }
    size_t raw_len = nl ? len + 1 : len;
    if (raw_len == 0) return in->failed ? -1 : 0;
    if (in->enc == XQ_ENC_AUTO && !detect_here(in, len)) return -1;
    /* detect_here may have moved the buffer: recompute from pos */
    const unsigned char *s = in->buf + in->pos;
    line->bytes = s;
    line->raw_len = raw_len;
    line->len = (len && s[len - 1] == '\r') ? len - 1 : len;
    line->offset = in->buf_off + in->pos;
    line->number = ++in->lineno;
    line->cut = cut;
    in->pos += raw_len;
    in->last = *line;
    return 1;
}

/* Decide the line ends from the data in the buffer, when it shows a line
 * break: LF (and CRLF) when it holds a '\n'; a lone CR (old Mac OS) when
 * it holds a CR followed by another byte, or at the end of the data, and
 * no '\n', and then every CR of it is read as LF from here on.  Left
 * undecided while the data has neither (a first line longer than what
 * was read). */
static void eol_decide(struct xq_input *in)
{
    const unsigned char *b = in->buf, *nl = memchr(b, '\n', in->end);
    if (nl) {
        in->eol_known = true;
        return;
    }
    const unsigned char *cr = memchr(b, '\r', in->end);
    if (!cr || (cr + 1 == b + in->end && !in->eof)) return;   /* (a CR last: a CRLF's first half?) */
    in->eol_known = in->cr_lines = true;
    cr_to_lf(in->buf, in->buf + in->end);
}

void xq_input_text_lines(xq_input *in)
{
    if (in->eol_watch) return;
    in->eol_watch = true;
    if (in->end) eol_decide(in);
}

bool xq_input_cr_lines(const xq_input *in) { return in->cr_lines; }

void xq_input_unread(xq_input *in)
{
    if (in->lineno) in->unread = true;
}

size_t xq_input_window(const xq_input *in, const unsigned char **p, uint64_t *off,
                       uint64_t *number)
{
    if (in->unread || in->skip_rest || in->enc == XQ_ENC_AUTO) return 0;
    size_t have = in->end - in->pos;
    *p = in->buf + in->pos;
    *off = in->buf_off + in->pos;
    *number = in->lineno + 1;
    return have <= XQ_MAX_LINE ? have : XQ_MAX_LINE;
}

void xq_input_skip(xq_input *in, size_t n, uint64_t lines)
{
    in->pos += n;
    in->lineno += lines;
}

void xq_input_keep(xq_input *in, uint64_t off)
{
    in->keep_off = off;
}

const unsigned char *xq_input_kept(const xq_input *in, uint64_t off)
{
    return in->buf + (off - in->buf_off);
}

int xq_input_decode(xq_input *in, const xq_raw_line *line, xq_text *out,
                    xq_bad_bytes_fn *bad, void *ctx)
{
    const unsigned char *s = line->bytes;
    size_t n = line->len;
    uint64_t off = line->offset;
    if (off == 0 && n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0 &&
        (in->enc == XQ_ENC_UTF8 || in->enc == XQ_ENC_AUTO)) {
        s += 3;
        n -= 3;
        off += 3;
    }
    if ((in->enc == XQ_ENC_UTF8 || in->enc == XQ_ENC_AUTO) ? utf8_clean(s, n) : all_ascii(s, n)) {
        out->s = (const char *)s;
        out->len = n;
        return 0;
    }
    in->out.len = 0;
    int r;
    if (in->enc == XQ_ENC_GBK || in->enc == XQ_ENC_BIG5) {
        if (!in->pairs) in->pairs = pairs_take(in->enc);   /* (NULL: table_decode makes one) */
        r = table_decode(in->cd, &in->pairs,
                         in->enc == XQ_ENC_BIG5 ? "invalid Big5 byte sequence"
                                                : "invalid GBK byte sequence",
                         s, n, off, &in->out, bad, ctx);
    } else {
        r = utf8_decode(s, n, off, &in->out, bad, ctx);
    }
    out->s = in->out.p ? in->out.p : "";
    out->len = in->out.len;
    return r;
}

/* The word decoder on UTF-8 text: lead byte -> 1 for a word ASCII byte,
 * 2 or 3 for the lead of a 2- or 3-byte sequence (checked further), 0 to
 * stop (continuation bytes, C0/C1, 4-byte leads, F5.., non-word ASCII
 * including the line feed). */
static const unsigned char WORD_UTF8[256] = {
    WORD_ASCII_HALF
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* xq_input_decode_word for UTF-8 text: the bytes are copied as they are,
 * each character checked as utf8_seq would (2- and 3-byte forms only).
 * Not inlined: the legacy path then needs no saved registers. */
__attribute__((noinline)) static size_t utf8_word(const unsigned char *s, size_t n, char *out, size_t *out_len,
                        uint32_t *chars)
{
    size_t i = 0;
    uint32_t nc = 0;
    while (i < n) {
        unsigned k = WORD_UTF8[s[i]];
        if (k == 1) {
            out[i] = (char)s[i];
            i++;
        } else if (k == 3) {
            if (n - i < 3) break;
            unsigned c = s[i], c1 = s[i + 1], c2 = s[i + 2];
            unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
            if (c1 < lo || c1 > hi || (c2 & 0xC0) != 0x80 || utf8_blank(s + i, 3)) break;
            out[i] = (char)c;
            out[i + 1] = (char)c1;
            out[i + 2] = (char)c2;
            i += 3;
        } else if (k == 2) {
            if (n - i < 2 || (s[i + 1] & 0xC0) != 0x80 ||
                (s[i] == 0xC2 && s[i + 1] == 0xA0)) break;
            out[i] = (char)s[i];
            out[i + 1] = (char)s[i + 1];
            i += 2;
        } else {
            break;
        }
        nc++;
    }
    *out_len = i;
    *chars = nc;
    return i;
}

size_t xq_input_decode_word(const xq_input *in, const unsigned char *s, size_t n, char *out,
                            size_t *out_len, uint32_t *chars)
{
    if (in->enc != XQ_ENC_GBK && in->enc != XQ_ENC_BIG5) return utf8_word(s, n, out, out_len, chars);
    if (in->pairs) return xq_pairs_decode_word(in->pairs, s, n, out, out_len, chars);
    *out_len = 0;
    *chars = 0;
    return 0;
}

const uint32_t *xq_input_pairs(const xq_input *in)
{
    return in->enc == XQ_ENC_GBK || in->enc == XQ_ENC_BIG5 ? in->pairs : NULL;
}

size_t xq_input_col_bytes(const xq_input *in, const xq_raw_line *line, size_t start,
                          uint32_t ncols)
{
    const unsigned char *s = line->bytes;
    size_t n = line->len, i = start, blen;
    if (i == 0 && line->offset == 0 && n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0 &&
        (in->enc == XQ_ENC_UTF8 || in->enc == XQ_ENC_AUTO))
        i = 3;
    for (uint32_t c = 0; c < ncols && i < n; c++) {
        unsigned b = s[i];
        if (b < 0x80) { i++; continue; }
        size_t k;
        if (in->enc == XQ_ENC_BIG5) {
            k = (b >= 0x81 && b <= 0xFE && i + 1 < n) ? 2 : 1;
        } else if (in->enc == XQ_ENC_GBK) {
            if (b >= 0x81 && b <= 0xFE && i + 3 < n && s[i + 1] >= 0x30 && s[i + 1] <= 0x39) k = 4;
            else k = (b >= 0x81 && b <= 0xFE && i + 1 < n) ? 2 : 1;
        } else {
            int r = utf8_seq(s + i, n - i, &blen);
            k = r > 0 ? (size_t)r : blen;
        }
        i += k;
    }
    return i > n ? n : i;
}

uint64_t xq_input_col_offset(const xq_input *in, const xq_raw_line *line, uint32_t col)
{
    return line->offset + xq_input_col_bytes(in, line, 0, col ? col - 1 : 0);
}

xq_encoding xq_input_encoding(const xq_input *in)
{
    return in->enc == XQ_ENC_AUTO ? XQ_ENC_UTF8 : in->enc;
}

bool xq_input_gzipped(const xq_input *in) { return in->gzipped; }

bool xq_input_inflating(const xq_input *in) { return in->gz && xq_zin_threaded(in->gz); }

const char *xq_input_path(const xq_input *in) { return in->path; }

const char *xq_input_error(const xq_input *in) { return in->err; }

const char *xq_input_late_error(const xq_input *in) { return in->late; }
