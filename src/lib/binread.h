/* binread.h - what the XQF, CBR/CBL and DhtmlXQ readers share
 * (library-internal, not an API): bounds-checked little-endian reads, the
 * whole-file load, text conversion into a game's arena, the pre-order move
 * tree of the binary formats, and the reader hooks pgn_read.c dispatches to.
 *
 * Sources: formats.md §1f (XQF header and encryption, CBR/CBL layout,
 * DhtmlXQ fields); the readers are xqf_read.c, cbr_read.c, dhtmlxq_read.c.
 *
 * Every read from file bytes goes through xq_bin_has / xq_bin_u8 / _u16 /
 * _u32: an offset or length that does not fit the buffer returns false and
 * the caller turns it into a diagnostic with the byte offset.  No function
 * here keeps state between calls; nothing is global.
 */
#ifndef XQ_BINREAD_H
#define XQ_BINREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "input.h"

/* ---- bounds-checked reads --------------------------------------------- */

/* A read-only view of file bytes: p[0..len).  Not owned. */
typedef struct {
    const unsigned char *p;
    size_t len;
} xq_bytes;

/* True when n bytes starting at off lie inside b (no overflow for any
 * off, n). */
static inline bool xq_bin_has(const xq_bytes *b, size_t off, size_t n)
{
    return off <= b->len && n <= b->len - off;
}

/* Byte at off into *v; false (and *v = 0) when off is past the end. */
static inline bool xq_bin_u8(const xq_bytes *b, size_t off, uint8_t *v)
{
    if (!xq_bin_has(b, off, 1)) { *v = 0; return false; }
    *v = b->p[off];
    return true;
}

/* Little-endian 16-bit value at off; false (and *v = 0) when cut. */
static inline bool xq_bin_u16(const xq_bytes *b, size_t off, uint16_t *v)
{
    if (!xq_bin_has(b, off, 2)) { *v = 0; return false; }
    *v = (uint16_t)(b->p[off] | b->p[off + 1] << 8);
    return true;
}

/* Little-endian 32-bit value at off; false (and *v = 0) when cut. */
static inline bool xq_bin_u32(const xq_bytes *b, size_t off, uint32_t *v)
{
    if (!xq_bin_has(b, off, 4)) { *v = 0; return false; }
    *v = (uint32_t)b->p[off] | (uint32_t)b->p[off + 1] << 8 | (uint32_t)b->p[off + 2] << 16 |
         (uint32_t)b->p[off + 3] << 24;
    return true;
}

/* ---- whole-file load and text --------------------------------------------- */

/* How much of a file the readers load (bytes after decompression), so
 * that memory stays bounded whatever the input (a gzip bomb): an XQF or
 * CBR file holds one game (XQ_MAX_RECORD_BYTES of pgn_read.h, 32 MiB); a
 * DhtmlXQ page 64 MiB; a CBL library 512 MiB (some 130,000 games). */
enum {
    XQ_BIN_MAX_DHTMLXQ = 64 * 1024 * 1024,
    XQ_BIN_MAX_CBL = 512 * 1024 * 1024
};

/* Read in (decompressed) into a malloc'd buffer *out of *len bytes (free
 * it; NULL when empty), at most max bytes: *cut is set when the file is
 * longer (the reader then reports it on a game).  Nothing of in must have
 * been consumed; peeking is fine.  Returns false with "PATH: reason" in
 * err on a read error or out-of-memory. */
bool xq_bin_load(xq_input *in, size_t max, unsigned char **out, size_t *len, bool *cut, char *err,
                 size_t errsz);

/* A text converter to UTF-8 that a reader keeps for its life: iconv
 * descriptors are opened once (opening and closing one per string would
 * load and unload glibc's converter module each time).  Set enc
 * (XQ_ENC_GBK: GB18030, XQ_ENC_BIG5: CP950, else UTF-8 checked) and zero
 * the rest; free with xq_bin_conv_close. */
typedef struct {
    xq_encoding enc;
    void *cd;          /* iconv_t, opened on first use */
    bool failed;       /* iconv_open failed: non-ASCII bytes become U+FFFD */
} xq_bin_conv;

void xq_bin_conv_close(xq_bin_conv *c);

/* What xq_bin_text and xq_bin_utf16 do with line breaks. */
typedef enum {
    XQ_BIN_AS_IS = 0,      /* nothing: the bytes as they are */
    XQ_BIN_CRLF = 1,       /* "\r\n" becomes "\n", and every line break at
                            * the end is dropped (XQF header strings, CBR,
                            * the page layout around a DhtmlXQ comment) */
    XQ_BIN_CRLF_LINE = 2,  /* "\r\n" becomes "\n", and one "\n" at the end
                            * (one "\r\n" of the bytes) is dropped: XQStudio
                            * ends every XQF comment with "\r\n", its line
                            * end, so a comment that ends with a line break
                            * ends "\r\n\r\n" (write_xqf.c writes it so) */
} xq_bin_breaks;

/* Convert s[0..n) with c to a NUL-terminated UTF-8 string in g's arena.
 * Stops at the first NUL byte.  Line breaks as `breaks` says (a bool
 * true is XQ_BIN_CRLF).  Invalid sequences become U+FFFD and are counted
 * in *bad (may be NULL).  Returns NULL only on out-of-memory. */
const char *xq_bin_text(xq_game *g, xq_bin_conv *c, const unsigned char *s, size_t n, xq_bin_breaks breaks,
                        unsigned *bad);

/* Same from UTF-16LE s[0..n) bytes (n rounded down to even), stopping at a
 * 0x0000 unit; unpaired surrogates become U+FFFD (counted in *bad). */
const char *xq_bin_utf16(xq_game *g, const unsigned char *s, size_t n, xq_bin_breaks breaks, unsigned *bad);

/* Set g's start position: when pos is not the standard start with Red to
 * move, add a FEN tag (standard FEN, xq_fen_write) and point g->fen at it. */
void xq_bin_set_start(xq_game *g, const xq_position *pos);

/* Fill the bookkeeping fields of a record read from a binary or whole-file
 * format: file (copied), index, first_line, offset, encoding (UTF-8), and
 * raw = bytes[0..n) (copied, so --keep writes the original). */
void xq_bin_record(xq_game *g, const char *path, uint64_t index, uint64_t first_line,
                   uint64_t offset, const unsigned char *bytes, size_t n);

/* UCCI text "h2e2" of a move from ICCS square `from` to `to` (0..89,
 * rank * 9 + file) into buf[5]. */
void xq_bin_ucci(int from, int to, char buf[5]);

/* The 16 piece slots of one side in XQF's piece array and DhtmlXQ's binit
 * (formats.md §1f): 车马相仕帅仕相马车炮炮兵兵兵兵兵, Red's 16 first, then
 * Black's in the same order.  Also used by the XQF and DhtmlXQ writers. */
static const xq_kind XQ_BIN_SLOT_KIND[16] = {
    XQ_CHARIOT, XQ_HORSE, XQ_ELEPHANT, XQ_ADVISOR, XQ_GENERAL, XQ_ADVISOR, XQ_ELEPHANT, XQ_HORSE,
    XQ_CHARIOT, XQ_CANNON, XQ_CANNON, XQ_SOLDIER, XQ_SOLDIER, XQ_SOLDIER, XQ_SOLDIER, XQ_SOLDIER,
};

/* Assign the pieces of pos to the 32 slots: sq[i] = the ICCS square of the
 * piece in slot i, or -1 for an empty slot.  Returns the number of pieces
 * that found no slot (more than the slots of their kind, e.g. a third
 * chariot); 0 when every piece is placed. */
int xq_bin_slots(const xq_position *pos, int sq[32]);

/* ---- the pre-order move tree (XQF and CBR) --------------------------------------- */

/* Squares of a record that cannot be decoded. */
enum { XQ_BIN_NO_SQUARE = 0xFF };

/* One move record as stored.  XQF and CBR store the tree in pre-order:
 * a record, then (when has_next) the line that follows it, then (when
 * has_sibling) an alternative to it.  Record 0 is the root (the start
 * position); its comment is the game comment. */
typedef struct {
    uint8_t from, to;          /* ICCS squares, or XQ_BIN_NO_SQUARE */
    bool has_next, has_sibling;
    const char *comment;       /* UTF-8 in the game's arena, or NULL */
    uint64_t offset;           /* byte offset of the record in the file */
    uint32_t child, sibling;   /* record indices, filled by xq_bin_tree_read */
} xq_bin_move;

/* Read one record at *pos into *m (from, to, flags, comment, offset) and
 * advance *pos past it.  Returns 1, or 0 when the record is damaged or cut
 * (the callee has added the diagnostic with its byte offset); reading
 * stops there and what was read is kept. */
typedef int xq_bin_record_fn(void *ctx, xq_game *g, size_t *pos, xq_bin_move *m);

/* Read the tree starting with the root record at pos with read_one, then
 * build g->main (and main.comment from the root) with every variation
 * (node->variations; the alternatives to a move are variations of that
 * move's node).  Moves are UCCI text with node->move set; line/col are 0.
 * At most XQ_MAX_RECORD_MOVES records are read (one error beyond).
 * A record whose squares are off the board is left out with its line (one
 * error diagnostic at its offset); variations nested deeper than
 * XQ_MAX_VARIATION_DEPTH are left out with one error.  what names the
 * format in messages ("XQF", "CBR").  *end_pos receives the offset after
 * the last record read (may be NULL).  Returns false on out-of-memory. */
bool xq_bin_tree_read(xq_game *g, xq_bin_record_fn *read_one, void *ctx, size_t pos, const char *what,
                      size_t *end_pos);

/* ---- reader hooks (pgn_read.c dispatches here) ------------------------------------ */

/* A format reader behind the xq_reader API.  next fills g (reset first)
 * and returns 1, or 0 at the end of the file (these formats never fail
 * once opened: damage becomes diagnostics); close frees the reader. */
typedef struct xq_sub_reader xq_sub_reader;
struct xq_sub_reader {
    int (*next)(xq_sub_reader *r, xq_game *g);
    void (*close)(xq_sub_reader *r);
};

/* Open a reader for in, whose format was sniffed (or forced) as XQ_FMT_XQF
 * (xqf_read.c), XQ_FMT_CBR or XQ_FMT_CBL (cbr_read.c), XQ_FMT_DHTMLXQ
 * (dhtmlxq_read.c).  in stays owned by the caller and must outlive the
 * reader; nothing of it must have been consumed.  enc is the text encoding
 * from the options (XQ_ENC_AUTO: detect; used by DhtmlXQ only; XQF strings
 * are always GBK, CBR strings UTF-16LE).  The whole (decompressed) file is
 * loaded at open.  Returns NULL with "PATH: reason" in err on a read error
 * or out-of-memory. */
xq_sub_reader *xq_xqf_reader_open(xq_input *in, char *err, size_t errsz);
xq_sub_reader *xq_cbr_reader_open(xq_input *in, char *err, size_t errsz);
xq_sub_reader *xq_dhtmlxq_reader_open(xq_input *in, xq_encoding enc, char *err, size_t errsz);

/* True when the DhtmlXQ open field value s ("E27 仙人指路...", UTF-8)
 * begins with what the reader takes for an ECCO code: a letter A to E and
 * two digits, then the end, a space or a non-ASCII byte.  The reader
 * (dhtmlxq_read.c) then reads it as the ECCO tag and the rest, after one
 * space, as the Opening; write_dhtmlxq.c asks the same to know what the
 * field gives back. */
bool xq_dhtmlxq_open_code(const char *s);

/* Bytes of a file's start that xq_dhtmlxq_sniff looks at: more than the
 * format sniffer's 4 KiB, for web pages whose DhtmlXQ block comes after a
 * long head. */
enum { XQ_DHTMLXQ_SNIFF = 64 * 1024 };

/* True when p[0..n) (the start of a file) holds "[DhtmlXQ" or
 * "[DHJHtmlXQ" (the numeric variant, formats.md §1f) before any PGN tag
 * line.  For files xq_sniff_format (input.c) took for PGN or XML: it knows
 * only "[DhtmlXQ", in its first 4 KiB. */
bool xq_dhtmlxq_sniff(const unsigned char *p, size_t n);

#endif
