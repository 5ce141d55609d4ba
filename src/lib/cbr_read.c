/* cbr_read.c - CBR records and CBL libraries (象棋桥 CCBridge) into the game
 * model.  Source: formats.md §1f (walker read_cbr, vschess, the CCBridge
 * format write-up), checked on the two CBL and two CBR samples of the
 * corpus.
 *
 * CBR record (offsets from the record start; strings UTF-16LE, NUL-ended,
 * in fixed fields):
 *   0 "CCBridge Record\0"; 180 title (128 bytes); 308 category (256: the
 *   opening name); 692 event (64); 756 round; 884 date; 948 site; 1012
 *   time rule; 1076 red; 1140 red team; 1204 red time; 1300 black; 1364
 *   black team; 1428 black time; 1652 commentator; 1780 creator (64 each);
 *   2076 result (0 unknown, 1 Red wins, 2 Black wins, 3 draw, 4 several);
 *   2112 first mover (1 Red, 2 Black); 2120 board, 90 bytes, index
 *   row * 9 + column with row 0 Black's back rank, 0x11-0x17 Red
 *   R N B A K C P, 0x21-0x27 Black; 2214 the move stream.
 * Move stream: records [flags, 0, from, to] (squares as the board index),
 *   in pre-order (a move, the line after it, then its alternative); flags
 *   & 1 = the line ends here, & 2 = an alternative follows, & 4 = a comment
 *   follows (uint32 byte length, UTF-16LE).  The first record is the
 *   start position's: its comment is the game comment, flags & 1 means no
 *   moves.
 * CBL library: "CCBridgeLibrary\0"; uint32 at 60 = the slot capacity of its
 *   index (NOT the game count); UTF-16LE name at 64; records on 4096-byte
 *   slots after the index, the first at 66624 + capacity * 276.  A record
 *   longer than one slot runs on into the next slots, so the games are the
 *   slots that start with the record magic; the others continue the game
 *   before them or are unused.
 *
 * Every record read yields one game: tags Event, Round, Date, Site, Red,
 * RedTeam, Black, BlackTeam, Result, Title, Opening, TimeControl, RedTime,
 * BlackTime, Annotator, Author (non-empty only), FEN when not the standard
 * start, moves as UCCI text, raw = the record's bytes (for a CBR, the
 * file).  A record with no pieces and no moves (a library's section
 * heading) gets a warning.  Offsets and lengths are checked against the
 * record's end: damage is a diagnostic with the file byte offset.  A CBR
 * is read up to XQ_MAX_RECORD_BYTES, a CBL up to XQ_BIN_MAX_CBL (an error
 * on the last game beyond).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binread.h"
#include "pgn_read.h"

enum {
    SLOT = 4096,
    CBL_CAPACITY = 60,
    CBL_INDEX = 66624,          /* end of the library header, start of the index */
    CBL_INDEX_ENTRY = 276,
    MAGIC_LEN = 16,
    RESULT = 2076, FIRST_MOVER = 2112, BOARD = 2120, MOVES = 2214
};

static const char RECORD_MAGIC[MAGIC_LEN] = "CCBridge Record";   /* with its NUL */

typedef struct {
    xq_sub_reader base;
    xq_input *in;
    unsigned char *data;      /* the whole file (malloc), within the load limit */
    size_t len;
    bool cut;                 /* the file is longer than the limit */
    bool cbl;
    bool done;                /* CBR: the record was returned; CBL: no more slots */
    bool started;             /* CBL: the first record was looked for */
    size_t next;              /* CBL: offset of the next slot to look at */
    uint64_t expected;        /* CBL: where the index capacity puts the first record */
    bool misplaced;           /* CBL: the first record is elsewhere (warn on game 1) */
    uint64_t index;
} cbr_reader;

/* The bytes of one record (the view ends at the record's end) and where its
 * move stream starts (the root record). */
typedef struct {
    xq_bytes b;
    size_t root;
} stream;

/* ---- one record --------------------------------------------------------------- */

static void add_tag(xq_game *g, const char *name, const char *value)
{
    if (value && *value) xq_game_add_tag(g, name, strlen(name), value, strlen(value));
}

/* The UTF-16LE string field at rec + off, size bytes. */
static const char *field(xq_game *g, const xq_bytes *b, size_t rec, size_t off, size_t size)
{
    if (!xq_bin_has(b, rec + off, size)) return NULL;
    unsigned bad = 0;
    const char *s = xq_bin_utf16(g, b->p + rec + off, size, true, &bad);
    if (bad)
        xq_game_diag(g, XQ_SEV_WARNING, 0, 0, rec + off, "CBR text field at byte %zu: %u unpaired UTF-16 surrogates replaced by U+FFFD",
                     rec + off, bad);
    return s;
}

static int read_record(void *ctx, xq_game *g, size_t *pos, xq_bin_move *m)
{
    const stream *st = ctx;
    const xq_bytes *b = &st->b;
    size_t at = *pos;
    if (!xq_bin_has(b, at, 4)) {
        if (at >= b->len)
            xq_game_diag(g, XQ_SEV_ERROR, 0, 0, at,
                         "CBR record ends at byte %zu where a move record was announced; moves read so far are kept",
                         at);
        else
            xq_game_diag(g, XQ_SEV_ERROR, 0, 0, at,
                         "CBR move record at byte %zu is cut by the end of the record; moves read so far are kept", at);
        return 0;
    }
    const unsigned char *p = b->p + at;
    if (at != st->root && !memcmp(p, "\0\0\0\0", 4)) {
        xq_game_diag(g, XQ_SEV_ERROR, 0, 0, at,
                     "CBR move record at byte %zu is empty (all zero) where a move was announced; moves read so far "
                     "are kept",
                     at);
        return 0;
    }
    uint8_t flags = p[0], from = p[2], to = p[3];
    m->has_next = !(flags & 1);
    m->has_sibling = (flags & 2) != 0;
    m->from = from < 90 ? (uint8_t)XQ_SQ(from % 9, 9 - from / 9) : XQ_BIN_NO_SQUARE;
    m->to = to < 90 ? (uint8_t)XQ_SQ(to % 9, 9 - to / 9) : XQ_BIN_NO_SQUARE;
    at += 4;
    if (flags & 4) {
        uint32_t n;
        if (!xq_bin_u32(b, at, &n) || !xq_bin_has(b, at + 4, n)) {
            xq_game_diag(g, XQ_SEV_ERROR, 0, 0, at,
                         "CBR comment length at byte %zu is %lu, past the end of the record (%zu bytes left); moves "
                         "read so far are kept",
                         at, (unsigned long)n, b->len > at + 4 ? b->len - at - 4 : 0);
            return 0;
        }
        unsigned bad = 0;
        const char *c = xq_bin_utf16(g, b->p + at + 4, n, true, &bad);
        if (bad)
            xq_game_diag(g, XQ_SEV_WARNING, 0, 0, at + 4, "CBR comment at byte %zu: %u unpaired UTF-16 surrogates replaced by U+FFFD",
                         at + 4, bad);
        m->comment = c && *c ? c : NULL;
        at += 4 + n;
    }
    *pos = at;
    return 1;
}

/* Read the record at rec (its bytes end at end) into g. */
static void read_cbr(xq_game *g, const unsigned char *data, size_t rec, size_t end)
{
    xq_bytes b = {data, end};
    if (!xq_bin_has(&b, rec, MOVES + 4)) {
        xq_game_diag(g, XQ_SEV_ERROR, 0, 0, end,
                     "CBR record at byte %zu is %zu bytes, shorter than its %d-byte header: nothing to read", rec,
                     end - rec, MOVES + 4);
        return;
    }
    if (memcmp(data + rec, RECORD_MAGIC, MAGIC_LEN)) {
        xq_game_diag(g, XQ_SEV_ERROR, 0, 0, rec, "not a CBR record: no \"CCBridge Record\" at byte %zu", rec);
        return;
    }
    static const struct { size_t off, size; const char *tag; } F[] = {
        {692, 64, "Event"},       {756, 64, "Round"},      {884, 64, "Date"},     {948, 64, "Site"},
        {1076, 64, "Red"},        {1140, 64, "RedTeam"},   {1300, 64, "Black"},   {1364, 64, "BlackTeam"},
        {0, 0, "Result"},         {180, 128, "Title"},     {308, 256, "Opening"}, {1012, 64, "TimeControl"},
        {1204, 64, "RedTime"},    {1428, 64, "BlackTime"}, {1652, 64, "Annotator"}, {1780, 64, "Author"},
    };
    for (size_t i = 0; i < sizeof F / sizeof F[0]; i++) {
        if (F[i].size) {
            add_tag(g, F[i].tag, field(g, &b, rec, F[i].off, F[i].size));
            continue;
        }
        static const char *const RES[] = {"*", "1-0", "0-1", "1/2-1/2", "*"};
        uint8_t r = data[rec + RESULT];
        if (r > 4)
            xq_game_diag(g, XQ_SEV_WARNING, 0, 0, rec + RESULT,
                         "CBR result byte at byte %zu is %u, not 0-4; read as unknown", rec + RESULT, r);
        add_tag(g, "Result", RES[r > 4 ? 0 : r]);
    }

    xq_position pos;
    xq_position_clear(&pos);
    static const xq_kind KIND[8] = {XQ_NONE,     XQ_CHARIOT, XQ_HORSE,  XQ_ELEPHANT,
                                    XQ_ADVISOR,  XQ_GENERAL, XQ_CANNON, XQ_SOLDIER};
    for (int i = 0; i < 90; i++) {
        uint8_t c = data[rec + BOARD + i];
        if (!c) continue;
        int colour = c >> 4, kind = c & 15;
        if ((colour != 1 && colour != 2) || kind < 1 || kind > 7) {
            xq_game_diag(g, XQ_SEV_ERROR, 0, 0, rec + BOARD + i,
                         "CBR board byte at %zu is 0x%02x, not a piece; square left empty", rec + BOARD + (size_t)i, c);
            continue;
        }
        xq_position_put(&pos, XQ_SQ(i % 9, 9 - i / 9), XQ_PIECE(KIND[kind], colour == 1 ? XQ_RED : XQ_BLACK));
    }

    stream st = {b, rec + MOVES};
    if (!xq_bin_tree_read(g, read_record, &st, rec + MOVES, "CBR", NULL))
        xq_game_diag(g, XQ_SEV_ERROR, 0, 0, rec, "out of memory");
    bool empty = true;
    for (int i = 0; i < XQ_SQUARES && empty; i++) empty = !pos.board[i];
    if (empty && !g->main.count)
        xq_game_diag(g, XQ_SEV_WARNING, 0, 0, rec + BOARD,
                     "CBR record at byte %zu has no pieces and no moves: a section heading of the library, not a game",
                     rec);

    /* side to move: the first mover byte, checked against the first move */
    uint8_t who = data[rec + FIRST_MOVER];
    xq_color side = who == 2 ? XQ_BLACK : XQ_RED;
    if (g->main.count) {
        xq_piece p = pos.board[XQ_FROM(g->main.nodes[0].move)];
        if (p && XQ_COLOR(p) != side) {
            if (who == 1 || who == 2)
                xq_game_diag(g, XQ_SEV_WARNING, 0, 0, rec + FIRST_MOVER,
                             "CBR first-mover byte at %zu says %s, but the first move moves a %s piece; %s moves first",
                             rec + FIRST_MOVER, side == XQ_RED ? "Red" : "Black", side == XQ_RED ? "Black" : "Red",
                             side == XQ_RED ? "Black" : "Red");
            side = XQ_COLOR(p);
        }
    }
    xq_position_set_side(&pos, side);
    xq_bin_set_start(g, &pos);
}

/* ---- the reader ---------------------------------------------------------------- */

static bool is_record(const cbr_reader *r, size_t off)
{
    return off <= r->len && r->len - off >= MAGIC_LEN && !memcmp(r->data + off, RECORD_MAGIC, MAGIC_LEN);
}

/* Offset of the first record of the library: where the index capacity
 * puts it (*expected), else the first record magic after the header; 0
 * when there is none. */
static size_t find_first(const cbr_reader *r, uint64_t *expected)
{
    uint32_t cap = 0;
    xq_bytes b = {r->data, r->len};
    xq_bin_u32(&b, CBL_CAPACITY, &cap);
    *expected = CBL_INDEX + (uint64_t)cap * CBL_INDEX_ENTRY;
    if (*expected < r->len && is_record(r, (size_t)*expected)) return (size_t)*expected;
    for (size_t off = CBL_INDEX; off < r->len; off++) {
        const unsigned char *hit = memchr(r->data + off, 'C', r->len - off);
        if (!hit) break;
        off = (size_t)(hit - r->data);
        if (is_record(r, off)) return off;
    }
    return 0;
}

static int cbl_next(cbr_reader *r, xq_game *g)
{
    const char *path = xq_input_path(r->in);
    if (r->done) return 0;
    if (!r->started) {
        r->started = true;
        if (r->len < CBL_CAPACITY + 4) {
            r->done = true;
            xq_game_reset(g);
            xq_bin_record(g, path, ++r->index, 1, 0, r->data, r->len);
            xq_game_diag(g, XQ_SEV_ERROR, 0, 0, r->len,
                         "CBL file is %zu bytes, cut inside its header (the capacity at byte %d): no games", r->len,
                         CBL_CAPACITY);
            return 1;
        }
        r->next = find_first(r, &r->expected);
        if (!r->next) {
            r->done = true;
            return 0;   /* a library without games */
        }
        r->misplaced = r->next != r->expected;
    }
    /* the next slot that starts a record; the record runs on to the next
     * such slot (continuation slots) or the end of the file */
    size_t off = r->next;
    while (off < r->len && !is_record(r, off)) off += SLOT;
    if (off >= r->len) {
        r->done = true;
        return 0;
    }
    size_t end = off + SLOT;
    while (end < r->len && !is_record(r, end)) end += SLOT;
    if (end > r->len) end = r->len;
    xq_game_reset(g);
    xq_bin_record(g, path, ++r->index, 1, off, r->data + off, end - off);
    if (r->index == 1 && r->misplaced)
        xq_game_diag(g, XQ_SEV_WARNING, 0, 0, off,
                     "CBL records start at byte %zu, not at %llu where the index capacity puts them", off,
                     (unsigned long long)r->expected);
    if (end >= r->len && r->cut)
        xq_game_diag(g, XQ_SEV_ERROR, 0, 0, r->len, "CBL file longer than %d MiB: read up to byte %zu",
                     XQ_BIN_MAX_CBL >> 20, r->len);
    read_cbr(g, r->data, off, end);
    r->next = end;
    return 1;
}

static int cbr_next(xq_sub_reader *base, xq_game *g)
{
    cbr_reader *r = (cbr_reader *)base;
    if (r->cbl) return cbl_next(r, g);
    if (r->done) return 0;
    r->done = true;
    xq_game_reset(g);
    xq_bin_record(g, xq_input_path(r->in), 1, 1, 0, r->data, r->len);
    if (r->cut)
        xq_game_diag(g, XQ_SEV_ERROR, 0, 0, r->len, "CBR file longer than %d MiB: read up to byte %zu",
                     XQ_MAX_RECORD_BYTES >> 20, r->len);
    read_cbr(g, r->data, 0, r->len);
    return 1;
}

static void cbr_close(xq_sub_reader *base)
{
    cbr_reader *r = (cbr_reader *)base;
    free(r->data);
    free(r);
}

xq_sub_reader *xq_cbr_reader_open(xq_input *in, char *err, size_t errsz)
{
    cbr_reader *r = calloc(1, sizeof *r);
    if (!r) {
        if (errsz) snprintf(err, errsz, "%s: out of memory", xq_input_path(in));
        return NULL;
    }
    r->base.next = cbr_next;
    r->base.close = cbr_close;
    r->in = in;
    const unsigned char *p = NULL;
    r->cbl = xq_input_peek(in, MAGIC_LEN, &p) == MAGIC_LEN && !memcmp(p, "CCBridgeLibrary", MAGIC_LEN);
    if (!xq_bin_load(in, r->cbl ? (size_t)XQ_BIN_MAX_CBL : (size_t)XQ_MAX_RECORD_BYTES, &r->data, &r->len, &r->cut,
                     err, errsz)) {
        free(r);
        return NULL;
    }
    return &r->base;
}
