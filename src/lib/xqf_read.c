/* xqf_read.c - XQF (象棋演播室 XQStudio) files, versions 10 to 18, into the
 * game model.  Source: formats.md §1f (the XQF.TXT spec for version 10;
 * ElephantEye xqf2pgn, walker io_xqf, hbsxcjp and vschess for the later
 * versions' encryption).
 *
 * A file holds one game:
 *   header 0x000-0x3FF: 'XQ', version, keys, 32 piece bytes (X*10+Y, X the
 *     file from Red's left, Y the rank from Red's side; >= 90 off the
 *     board), result byte, Pascal strings in GBK (title, event, date, site,
 *     red, black, time rule, red time, black time, annotator, author);
 *   moves from 0x400: a pre-order tree of records, the first the root
 *     (start position, its comment the game comment).
 *     Version <= 10: 4 bytes [from+0x18, to+0x20, tag, 0] and an int32
 *     comment length, then the comment; tag & 0xF0 = a next move follows,
 *     tag & 0x0F = an alternative follows.
 *     Version >= 11: every byte from 0x400 is encrypted (minus a 32-byte
 *     key stream); records are 4 bytes, from/to also minus derived keys;
 *     tag 0x80 next, 0x40 alternative, 0x20 comment (int32 length minus a
 *     key, then the text).  The piece bytes are minus a key, and from
 *     version 12 rotated in the array.
 *
 * Version 11: the sources disagree on the rotation (vschess rotates from
 * 11, ElephantEye, walker and hbsxcjp from 12) and no version-11 file is
 * known.  Both readings are tried: the one that gives a possible position
 * wins; when both or neither do, the majority reading (no rotation) is
 * taken with a warning.
 *
 * Mapping: tags Event, Date, Site, Red, Black, Result (1-0, 0-1, 1/2-1/2,
 * *), Title, TimeControl, RedTime, BlackTime, Annotator, Author (non-empty
 * strings only); FEN when the start is not the standard one (side to move
 * from the colour of the first piece moved, else byte 0x32 = 1 for Black);
 * moves as UCCI text; comments with "\r\n" as "\n"; raw = the whole file.
 * A full game or opening file (type byte 0x40 < 2) whose piece array
 * gives no possible position starts from the standard position (a
 * warning), as ElephantEye reads those files.
 * Every offset and length is checked against the file size: damage
 * becomes a diagnostic with its byte offset and reading keeps what came
 * before it.  Limits (one error each): the first XQ_MAX_RECORD_BYTES of a
 * file, XQ_MAX_RECORD_MOVES moves, variations XQ_MAX_VARIATION_DEPTH deep.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binread.h"
#include "pgn_read.h"

enum { HEADER = 0x400, PIECES = 0x10, RESULT = 0x33, WHO_PLAY = 0x32, NEWEST = 18 };

typedef struct {
    xq_sub_reader base;
    xq_input *in;
    unsigned char *data;      /* the whole file (malloc), at most XQ_MAX_RECORD_BYTES */
    size_t len;
    bool cut;                 /* the file is longer than that */
    bool done;
} xqf_reader;

/* What reading the move records needs. */
typedef struct {
    xq_bytes b;               /* the file with bytes from 0x400 decrypted */
    int version;
    uint8_t key_from, key_to; /* subtracted from the square bytes (0 up to version 10) */
    uint32_t key_comment;     /* subtracted from comment lengths (version >= 11) */
    xq_bin_conv *conv;        /* GBK */
} records;

/* f(b, c) = (54 b^2 + 221) c mod 256, the key derivation of formats.md §1f. */
static uint8_t derive(uint8_t b, uint8_t c)
{
    return (uint8_t)((54u * b * b + 221u) * c);
}

/* ---- header strings --------------------------------------------------------- */

static void add_tag(xq_game *g, const char *name, const char *value)
{
    if (value && *value) xq_game_add_tag(g, name, strlen(name), value, strlen(value));
}

/* The Pascal string of the size-byte field at off (length byte first, GBK). */
static const char *pascal(xq_game *g, xq_bin_conv *cv, const xq_bytes *b, size_t off, size_t size,
                          const char *what)
{
    uint8_t n;
    if (!xq_bin_u8(b, off, &n) || n == 0) return NULL;
    if (n > size - 1) {
        xq_game_diag(g, XQ_SEV_WARNING, 0, 0, off,
                     "XQF %s at byte %zu: length %u does not fit its %zu-byte field; cut to %zu bytes", what, off,
                     n, size, size - 1);
        n = (uint8_t)(size - 1);
    }
    unsigned bad = 0;
    const char *s = xq_bin_text(g, cv, b->p + off + 1, n, XQ_BIN_CRLF, &bad);
    if (bad)
        xq_game_diag(g, XQ_SEV_WARNING, 0, 0, off + 1, "XQF %s at byte %zu: %u invalid GBK sequences replaced by U+FFFD",
                     what, off + 1, bad);
    return s;
}

static void read_tags(xq_game *g, xq_bin_conv *cv, const xq_bytes *b)
{
    static const struct { size_t off, size; const char *tag, *what; } F[] = {
        {0xD0, 64, "Event", "event"},        {0x110, 16, "Date", "date"},
        {0x120, 16, "Site", "site"},         {0x130, 16, "Red", "red player"},
        {0x140, 16, "Black", "black player"}, {0, 0, "Result", NULL},
        {0x50, 64, "Title", "title"},        {0x150, 64, "TimeControl", "time rule"},
        {0x190, 16, "RedTime", "red time"},  {0x1A0, 16, "BlackTime", "black time"},
        {0x1D0, 16, "Annotator", "annotator"}, {0x1E0, 16, "Author", "author"},
    };
    for (size_t i = 0; i < sizeof F / sizeof F[0]; i++) {
        if (F[i].what) {
            add_tag(g, F[i].tag, pascal(g, cv, b, F[i].off, F[i].size, F[i].what));
            continue;
        }
        uint8_t r = b->p[RESULT];
        static const char *const RES[] = {"*", "1-0", "0-1", "1/2-1/2", "1/2-1/2"};
        if (r > 4)
            xq_game_diag(g, XQ_SEV_WARNING, 0, 0, RESULT, "XQF result byte at byte %d is %u, not 0-4; read as unknown",
                         RESULT, r);
        add_tag(g, "Result", RES[r > 4 ? 0 : r]);
    }
}

/* ---- pieces ------------------------------------------------------------------ */

/* Place the 32 piece bytes of the header on pos.  real[i] is the decoded
 * square byte of slot i and at[i] the file offset it came from.  With
 * diags, pieces sharing a square are reported (the later one left off).
 * Returns the number of such clashes. */
static int place(xq_game *g, const uint8_t real[32], const size_t at[32], xq_position *pos, bool diags)
{
    static const char *const NAMES[16] = {"chariot", "horse", "elephant", "advisor", "general",
                                          "advisor", "elephant", "horse", "chariot", "cannon",
                                          "cannon", "soldier", "soldier", "soldier", "soldier", "soldier"};
    int clashes = 0;
    xq_position_clear(pos);
    for (int i = 0; i < 32; i++) {
        if (real[i] >= 90) continue;
        int sq = XQ_SQ(real[i] / 10, real[i] % 10);
        if (pos->board[sq]) {
            clashes++;
            if (diags)
                xq_game_diag(g, XQ_SEV_ERROR, 0, 0, at[i],
                             "XQF piece byte at %zu: %s %s on %c%d, a square already taken; left off",
                             at[i], i < 16 ? "Red" : "Black", NAMES[i % 16], 'a' + XQ_FILE(sq), XQ_RANK(sq));
            continue;
        }
        xq_position_put(pos, sq, XQ_PIECE(XQ_BIN_SLOT_KIND[i % 16], i < 16 ? XQ_RED : XQ_BLACK));
    }
    return clashes;
}

/* The standard start instead of a piece array that gives no possible
 * position, for a full game or an opening (type < 2), as ElephantEye
 * reads those files.  True when taken. */
static bool start_instead(xq_game *g, const xq_bytes *b, const xq_position *pos, int clashes, xq_position *out)
{
    uint8_t type = b->p[0x40];
    const char *why = clashes ? "puts pieces on one square" : xq_position_check(pos);
    if (type >= 2 || !why) return false;
    xq_game_diag(g, XQ_SEV_WARNING, 0, 0, PIECES,
                 "XQF piece array at byte %d gives no possible position (%s); as the file is a %s (type %u at byte "
                 "64), it starts from the standard position",
                 PIECES, why, type ? "opening" : "full game", type);
    xq_position_start(out);
    return true;
}

/* Decode the piece array (version-dependent) into pos. */
static void read_pieces(xq_game *g, const xq_bytes *b, int version, uint8_t key_xy, xq_position *pos)
{
    uint8_t plain[32], rot[32];
    size_t at_plain[32], at_rot[32];
    for (int i = 0; i < 32; i++) {
        uint8_t v = b->p[PIECES + i];
        if (version >= 11) v = (uint8_t)(v - key_xy);
        plain[i] = v;
        at_plain[i] = PIECES + (size_t)i;
        int r = (key_xy + 1 + i) % 32;
        rot[r] = v;
        at_rot[r] = PIECES + (size_t)i;
    }
    if (version <= 10 || version >= 12) {
        const uint8_t *real = version >= 12 ? rot : plain;
        const size_t *at = version >= 12 ? at_rot : at_plain;
        int clashes = place(g, real, at, pos, false);
        if (!start_instead(g, b, pos, clashes, pos)) place(g, real, at, pos, true);
        return;
    }
    /* version 11: formats.md §1f leaves the rotation open; try both */
    xq_position a, c;
    int clashes = place(g, plain, at_plain, &a, false);
    bool ok_plain = clashes == 0 && !xq_position_check(&a);
    bool ok_rot = place(g, rot, at_rot, &c, false) == 0 && !xq_position_check(&c);
    if (ok_rot && !ok_plain) {
        place(g, rot, at_rot, pos, true);
        return;
    }
    if (!ok_plain && !ok_rot && start_instead(g, b, &a, clashes, pos)) return;
    if (ok_plain == ok_rot)
        xq_game_diag(g, XQ_SEV_WARNING, 0, 0, PIECES,
                     "XQF version 11: the piece array at byte %d gives %s possible position with and without the "
                     "version-12 rotation; read without it, as ElephantEye, walker and hbsxcjp do",
                     PIECES, ok_plain ? "a" : "no");
    place(g, plain, at_plain, pos, true);
}

/* ---- move records -------------------------------------------------------------- */

static int read_record(void *ctx, xq_game *g, size_t *pos, xq_bin_move *m)
{
    records *rc = ctx;
    const xq_bytes *b = &rc->b;
    size_t at = *pos, need = rc->version <= 10 ? 8 : 4;
    if (!xq_bin_has(b, at, need)) {
        if (at >= b->len)
            xq_game_diag(g, XQ_SEV_ERROR, 0, 0, at,
                         "XQF file ends at byte %zu where a move record was announced; moves read so far are kept", at);
        else
            xq_game_diag(g, XQ_SEV_ERROR, 0, 0, at,
                         "XQF move record at byte %zu is cut by the end of the file (%zu of %zu bytes); moves read "
                         "so far are kept",
                         at, b->len - at, need);
        return 0;
    }
    const unsigned char *p = b->p + at;
    uint8_t from = (uint8_t)(p[0] - 0x18 - rc->key_from), to = (uint8_t)(p[1] - 0x20 - rc->key_to), tag = p[2];
    m->from = from < 90 ? (uint8_t)XQ_SQ(from / 10, from % 10) : XQ_BIN_NO_SQUARE;
    m->to = to < 90 ? (uint8_t)XQ_SQ(to / 10, to % 10) : XQ_BIN_NO_SQUARE;
    uint32_t clen = 0;
    size_t lat = at + 4;
    bool has_comment;
    if (rc->version <= 10) {
        m->has_next = (tag & 0xF0) != 0;
        m->has_sibling = (tag & 0x0F) != 0;
        xq_bin_u32(b, lat, &clen);
        has_comment = true;
        at += 8;
    } else {
        m->has_next = (tag & 0x80) != 0;
        m->has_sibling = (tag & 0x40) != 0;
        has_comment = (tag & 0x20) != 0;
        at += 4;
        if (has_comment) {
            uint32_t raw;
            if (!xq_bin_u32(b, lat, &raw)) {
                xq_game_diag(g, XQ_SEV_ERROR, 0, 0, lat,
                             "XQF comment length at byte %zu is cut by the end of the file; moves read so far are kept",
                             lat);
                return 0;
            }
            clen = raw - rc->key_comment;
            at += 4;
        }
    }
    if (has_comment && clen) {
        if ((int32_t)clen < 0 || !xq_bin_has(b, at, clen)) {
            xq_game_diag(g, XQ_SEV_ERROR, 0, 0, lat,
                         "XQF comment length at byte %zu is %ld, but %zu bytes are left in the file; moves read so "
                         "far are kept",
                         lat, (long)(int32_t)clen, b->len - at);
            return 0;
        }
        unsigned bad = 0;
        /* XQStudio's line end ("\r\n") closes each comment: one is dropped */
        const char *c = xq_bin_text(g, rc->conv, b->p + at, clen, XQ_BIN_CRLF_LINE, &bad);
        if (bad)
            xq_game_diag(g, XQ_SEV_WARNING, 0, 0, at, "XQF comment at byte %zu: %u invalid GBK sequences replaced by U+FFFD",
                         at, bad);
        m->comment = c && *c ? c : NULL;
        at += clen;
    }
    *pos = at;
    return 1;
}

/* ---- one file -------------------------------------------------------------------- */

static void read_file(xq_game *g, xq_bin_conv *cv, const unsigned char *data, size_t len)
{
    xq_bytes b = {data, len};
    if (len < HEADER) {
        xq_game_diag(g, XQ_SEV_ERROR, 0, 0, len,
                     "XQF file is %zu bytes, shorter than its %d-byte header: nothing to read", len, HEADER);
        return;
    }
    if (data[0] != 'X' || data[1] != 'Q') {
        xq_game_diag(g, XQ_SEV_ERROR, 0, 0, 0, "not an XQF file: no 'XQ' at byte 0");
        return;
    }
    int version = data[2];
    if (version > NEWEST)
        xq_game_diag(g, XQ_SEV_WARNING, 0, 0, 2, "XQF version %d at byte 2 is newer than %d, the newest known; read as %d",
                     version, NEWEST, NEWEST);
    read_tags(g, cv, &b);

    records rc = {.b = b, .version = version, .conv = cv};
    unsigned char *dec = NULL;
    uint8_t key_xy = 0;
    if (version >= 11) {
        uint8_t mask = data[3], sum = data[12], xy = data[13], xyf = data[14], xyt = data[15];
        if ((uint8_t)(sum + xy + xyf + xyt) != 0)
            xq_game_diag(g, XQ_SEV_WARNING, 0, 0, 12,
                         "XQF key checksum (bytes 12-15) is %u, not 0: the file may be damaged",
                         (unsigned)(uint8_t)(sum + xy + xyf + xyt));
        key_xy = derive(xy, xy);
        rc.key_from = derive(xyf, key_xy);
        rc.key_to = derive(xyt, rc.key_from);
        rc.key_comment = (uint32_t)(sum * 256u + xy) % 32000u + 767u;
        static const char STREAM[] = "[(C) Copyright Mr. Dong Shiwei.]";
        const uint8_t kb[4] = {(uint8_t)((sum & mask) | data[8]), (uint8_t)((xy & mask) | data[9]),
                               (uint8_t)((xyf & mask) | data[10]), (uint8_t)((xyt & mask) | data[11])};
        if (!(dec = malloc(len))) {
            xq_game_diag(g, XQ_SEV_ERROR, 0, 0, 0, "out of memory");
            return;
        }
        memcpy(dec, data, HEADER);
        for (size_t i = HEADER; i < len; i++)
            dec[i] = (uint8_t)(data[i] - ((uint8_t)STREAM[i % 32] & kb[i % 4]));
        rc.b.p = dec;
    }
    xq_position pos;
    read_pieces(g, &b, version, key_xy, &pos);
    if (!xq_bin_tree_read(g, read_record, &rc, HEADER, "XQF", NULL))
        xq_game_diag(g, XQ_SEV_ERROR, 0, 0, 0, "out of memory");
    free(dec);

    /* side to move: the colour of the first piece moved, else WhoPlay */
    if (g->main.count) {
        xq_piece p = pos.board[XQ_FROM(g->main.nodes[0].move)];
        if (p) xq_position_set_side(&pos, XQ_COLOR(p));
    } else if (data[WHO_PLAY] == 1) {
        xq_position_set_side(&pos, XQ_BLACK);
    }
    xq_bin_set_start(g, &pos);
}

/* ---- the reader -------------------------------------------------------------------- */

static int xqf_next(xq_sub_reader *base, xq_game *g)
{
    xqf_reader *r = (xqf_reader *)base;
    if (r->done) return 0;
    r->done = true;
    xq_game_reset(g);
    xq_bin_record(g, xq_input_path(r->in), 1, 1, 0, r->data, r->len);
    xq_bin_conv cv = {.enc = XQ_ENC_GBK};
    if (r->cut)
        xq_game_diag(g, XQ_SEV_ERROR, 0, 0, r->len, "XQF file longer than %d MiB: read up to byte %zu",
                     XQ_MAX_RECORD_BYTES >> 20, r->len);
    read_file(g, &cv, r->data, r->len);
    xq_bin_conv_close(&cv);
    return 1;
}

static void xqf_close(xq_sub_reader *base)
{
    xqf_reader *r = (xqf_reader *)base;
    free(r->data);
    free(r);
}

xq_sub_reader *xq_xqf_reader_open(xq_input *in, char *err, size_t errsz)
{
    xqf_reader *r = calloc(1, sizeof *r);
    if (!r) {
        if (errsz) snprintf(err, errsz, "%s: out of memory", xq_input_path(in));
        return NULL;
    }
    r->base.next = xqf_next;
    r->base.close = xqf_close;
    r->in = in;
    if (!xq_bin_load(in, XQ_MAX_RECORD_BYTES, &r->data, &r->len, &r->cut, err, errsz)) {
        free(r);
        return NULL;
    }
    return &r->base;
}
