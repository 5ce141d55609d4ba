/* input.h - bytes in: open a file or stdin, gunzip transparently, split it
 * into lines with their raw byte offsets, detect the text encoding and
 * decode each line to UTF-8.
 *
 * Data flow: path -> xq_input (gzread) -> xq_raw_line (raw bytes, offset)
 * -> xq_input_decode -> UTF-8 text.  Lines are split on raw '\n' bytes,
 * which is safe in every supported encoding: '\n' (0x0A) is never a lead
 * or trail byte in UTF-8, GBK/GB18030 or Big5 (formats.md §1e,
 * "Encodings seen").  Tokenize only the decoded text: Big5 and GBK trail
 * bytes include 0x40-0x7E ('[', '\\', '{' ...).
 *
 * Decoding is per line: pure-ASCII and valid UTF-8 lines are returned in
 * place (no copy); GBK and Big5 lines go through a per-input cache of
 * byte pairs filled from iconv on first use, so iconv runs once per
 * distinct character, not once per character.
 *
 * All offsets are byte offsets in the decompressed stream, from 0.
 * Line numbers are 1-based.  No global state: every function works on the
 * objects passed in.
 */
#ifndef XQ_INPUT_H
#define XQ_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Text encodings of record files (formats.md §1e "Encodings seen").
 * XQ_ENC_GBK decodes as GB18030, a superset of GBK and GB2312. */
typedef enum {
    XQ_ENC_AUTO = 0,  /* detect per file (see xq_detect_encoding) */
    XQ_ENC_UTF8,      /* UTF-8, with or without BOM (ASCII is UTF-8) */
    XQ_ENC_GBK,       /* GBK / GB18030 */
    XQ_ENC_BIG5       /* Big5 (decoded as CP950) */
} xq_encoding;

/* Lower-case name of an encoding: "auto", "utf8", "gbk", "big5" (static). */
const char *xq_encoding_name(xq_encoding enc);

/* Parse an encoding name for a command-line option, case-insensitive:
 * auto, utf8/utf-8, gbk/gb18030/gb2312/cp936, big5/cp950.  Returns false
 * (and leaves *out alone) for anything else. */
bool xq_encoding_parse(const char *name, xq_encoding *out);

/* Detect the encoding of a sample (e.g. the first 64 KiB of a file):
 * a UTF-8 BOM or valid UTF-8 (a multi-byte sequence cut by the end of the
 * sample and NUL bytes are allowed) gives XQ_ENC_UTF8, and so does mostly
 * valid UTF-8 (at least 4 well-formed multi-byte sequences per ill-formed
 * one: a UTF-8 file with a few damaged bytes); otherwise the sample is decoded as
 * Big5 and as GB18030 and each decoding scores +1 per common Xiangqi
 * record character (車马進退平兵卒帥將仕士相象前後..., full-width digits,
 * Chinese numerals) and -1 per invalid sequence; Big5 wins with a strictly
 * higher score, else XQ_ENC_GBK.  Never returns XQ_ENC_AUTO. */
xq_encoding xq_detect_encoding(const unsigned char *sample, size_t n);

/* True when s[0..n) is well-formed UTF-8 (no overlongs, surrogates, code
 * points above U+10FFFF or NUL bytes).  With allow_cut, an incomplete
 * sequence at the very end is accepted (for samples). */
bool xq_utf8_valid(const unsigned char *s, size_t n, bool allow_cut);

/* Bytes sniffed at the start of a file, for format dispatch. */
typedef enum {
    XQ_FMT_AUTO = 0,   /* sniff (options only) */
    XQ_FMT_PGN,        /* PGN-style text (formats.md §1e), the fallback */
    XQ_FMT_XQF,        /* XQF binary, magic "XQ" (formats.md §1f) */
    XQ_FMT_CBR,        /* "CCBridge Record\0" */
    XQ_FMT_CBL,        /* "CCBridgeLibrary\0" */
    XQ_FMT_XML,        /* text starting with '<' (after BOM/blanks) */
    XQ_FMT_DHTMLXQ,    /* text with "[DhtmlXQ" before any PGN tag */
    XQ_FMT_JSONL       /* JSON Lines: text starting with a JSON object (after BOM/blanks):
                          '{' then '}' or a key ("...":), not a PGN {comment} */
} xq_format;

/* Short name of a format: "auto", "pgn", "xqf", "cbr", "cbl", "xml",
 * "dhtmlxq", "jsonl" (static). */
const char *xq_format_name(xq_format fmt);

/* Guess the format from the first n bytes of a (decompressed) file.
 * Returns XQ_FMT_PGN when nothing else matches (never XQ_FMT_AUTO). */
xq_format xq_sniff_format(const unsigned char *p, size_t n);

/* Is p[0..n) (a file's start) a document of our XML format: its root
 * element, after the prolog (declaration, comments, doctype), carries our
 * namespace (xml_read.h XQ_XML_NS), or is a CBF record's
 * <ChineseChessRecord> (cbf_read.h, read by the XML reader too)?  Then a "[DhtmlXQ" inside it is text,
 * not an HTML page carrying DhtmlXQ.  False when the root's start tag is
 * not within the n bytes. */
bool xq_sniff_our_xml(const unsigned char *p, size_t n);

/* A growable byte buffer (malloc-owned).  Zero-initialise, free with
 * xq_buf_free.  Functions return false on out-of-memory. */
typedef struct {
    char *p;
    size_t len, cap;
} xq_buf;

/* Make room for at least extra more bytes after len. */
bool xq_buf_reserve(xq_buf *b, size_t extra);
/* Append n bytes. */
bool xq_buf_append(xq_buf *b, const void *data, size_t n);
void xq_buf_free(xq_buf *b);

/* Longest line returned whole (bytes).  A longer line is cut: its first
 * XQ_MAX_LINE bytes come back with `cut` set and the rest of it, up to and
 * including its '\n', is read and dropped, so that memory stays bounded
 * whatever the input (a gzip bomb, /dev/zero); offsets and line numbers
 * stay exact. */
enum { XQ_MAX_LINE = 16 * 1024 * 1024 };

/* One line of raw input.  The pointer is valid until the next call to
 * xq_input_line or xq_input_close on the same input. */
typedef struct {
    const unsigned char *bytes; /* content, without '\n' and a final '\r' */
    size_t len;                 /* bytes in content */
    size_t raw_len;             /* content + terminator ("\n", "\r\n" or none; a lone
                                   CR of a CR file reads as "\n": xq_input_text_lines) */
    uint64_t offset;            /* byte offset of bytes[0] in the stream */
    uint64_t number;            /* 1-based line number */
    bool cut;                   /* longer than XQ_MAX_LINE: the rest was dropped */
} xq_raw_line;

/* A bad byte sequence met while decoding: the sequence is replaced by
 * U+FFFD in the output and reported here.  `offset` is the file byte
 * offset of its first byte, `out_pos` the byte position of the U+FFFD in
 * the decoded line, `why` a static phrase ("invalid Big5 byte sequence",
 * "NUL byte", ...). */
typedef void xq_bad_bytes_fn(void *ctx, uint64_t offset, size_t out_pos,
                             const char *why);

/* A decoded line: UTF-8 text, not NUL-terminated.  Points either into the
 * raw line (pure ASCII / valid UTF-8: no copy) or into the input's own
 * buffer; valid until the next xq_input_line / xq_input_decode call. */
typedef struct {
    const char *s;
    size_t len;
} xq_text;

typedef struct xq_input xq_input;

/* Open path for reading ("-" means standard input, which is not closed
 * later).  gzip data is recognised by its magic bytes and inflated
 * transparently (concatenated members too); anything else is read as is.
 * enc: XQ_ENC_AUTO to detect (BOM at offset 0, else at the first line
 * holding a non-ASCII byte, from a 64 KiB sample starting there), or a
 * fixed encoding.  Returns NULL on error with "PATH: strerror" in err
 * (errsz bytes, may be 0). */
xq_input *xq_input_open(const char *path, xq_encoding enc, char *err, size_t errsz);

/* Close and free (NULL is fine). */
void xq_input_close(xq_input *in);

/* Make up to n bytes from the current read position visible without
 * consuming them; *p points at them.  Returns how many are available
 * (less than n only at end of input or before a read error, which then
 * shows in xq_input_error and at the end of the lines).  Invalidates the
 * pointer of the last line returned.  Use before the first line, e.g.
 * for xq_sniff_format; not between xq_input_line and xq_input_unread. */
size_t xq_input_peek(xq_input *in, size_t n, const unsigned char **p);

/* Read the next line.  Returns 1 with *line filled, 0 at end of input,
 * -1 on a read or gzip error (see xq_input_error), reported after the
 * lines read before the error (the last one may be cut).  A final line
 * without '\n' is still a line; an empty input has no lines. */
int xq_input_line(xq_input *in, xq_raw_line *line);

/* Make the next xq_input_line return the same line again (one-line
 * push-back, e.g. a line that starts the next record). */
void xq_input_unread(xq_input *in);

/* The input is text read by lines (a PGN or JSON Lines reader, not a
 * binary one): from here on its line ends are watched, and a file whose
 * lines end in a lone CR (old Mac OS; decided at the first line break:
 * a CR, and no LF in the data read) has every CR read as LF, in the
 * buffer, so that every line, place and fast path works as for LF; its
 * records' bytes (xq_input_kept) then hold LF where the file has CR
 * (xq_input_cr_lines).  Without it such a file was one line: every
 * record after the first was lost in it.  A binary file's CR bytes are
 * never touched (no call). */
void xq_input_text_lines(xq_input *in);

/* Whether in's lines end in a lone CR, read as LF (xq_input_text_lines). */
bool xq_input_cr_lines(const xq_input *in);

/* The buffered bytes from the read position on, for a reader that takes
 * whole lines itself (pgn_read.c fast_lines) instead of one
 * xq_input_line call per line: *p points at them, *off is the stream
 * offset of p[0] and *number the 1-based number of the line starting
 * there.  Returns their count, at most XQ_MAX_LINE (so a line whose '\n'
 * lies among them is never one xq_input_line would cut); the last line
 * in them may be incomplete.  0 when the next line must come from
 * xq_input_line: a line pushed back, the rest of a cut line to skip, the
 * encoding not decided yet, nothing buffered.  Reads nothing; valid until
 * the next call on in.  The XQ_INPUT_PAD bytes after the window's end
 * may be read too (whatever they hold: later input, old bytes or zeros),
 * for word-at-a-time tests near a line's end. */
enum { XQ_INPUT_PAD = 16 };
size_t xq_input_window(const xq_input *in, const unsigned char **p, uint64_t *off,
                       uint64_t *number);

/* Consume the first n bytes of the window (xq_input_window), which are
 * `lines` whole lines, each with its '\n', as if xq_input_line had
 * returned them one by one.  xq_input_unread must not follow (no line is
 * "the last one returned" after it). */
void xq_input_skip(xq_input *in, size_t n, uint64_t lines);

/* Keep the bytes of the stream from offset off on (UINT64_MAX: none, the
 * default) in the input's buffer, instead of letting it reuse their room
 * once their lines are returned: a reader can then copy a run of lines at
 * once (xq_input_kept).  off must not be before the start of the last
 * line returned, unless it was kept already.  The buffer grows to hold
 * them all; set a later offset (or UINT64_MAX) to let them go. */
void xq_input_keep(xq_input *in, uint64_t off);

/* The kept bytes at stream offset off (xq_input_keep), up to the end of
 * the last line returned.  Valid until the next xq_input_line,
 * xq_input_peek or xq_input_keep. */
const unsigned char *xq_input_kept(const xq_input *in, uint64_t off);

/* Decode a line returned by xq_input_line to UTF-8 in *out.  A UTF-8 BOM
 * at offset 0 is dropped.  Each invalid sequence or NUL byte becomes
 * U+FFFD and is reported through bad(ctx, ...) (bad may be NULL).
 * Returns the number of bad sequences, or -1 on out-of-memory. */
int xq_input_decode(xq_input *in, const xq_raw_line *line, xq_text *out,
                    xq_bad_bytes_fn *bad, void *ctx);

/* Decode the word at s[0..n), part of a line of in (after its BOM; s at
 * a character boundary): its characters up to the first one that is an
 * ASCII blank, line feed, NUL or PGN delimiter ({ } ( ) ;), a Unicode blank (U+00A0,
 * U+3000, U+FEFF), or that this quick decoder leaves to xq_input_decode:
 * a bad or cut sequence, a legacy pair not decoded yet (the pair cache is
 * filled by xq_input_decode), a GB18030 4-byte form, a legacy pair that
 * decodes to ASCII, 4-byte UTF-8.  Writes the UTF-8 of the word at out
 * (room: 3 * n + 1 bytes; not NUL-terminated), its length in *out_len
 * and its count of characters in *chars.  Returns the input bytes
 * decoded; the caller looks at the byte where it stopped.  The text is
 * what xq_input_decode gives for those bytes.  For the PGN reader's fast
 * path (pgn_read.c fast_line). */
size_t xq_input_decode_word(const xq_input *in, const unsigned char *s, size_t n, char *out,
                            size_t *out_len, uint32_t *chars);

/* The word decoder's legacy core, inline for the PGN reader's fast path.
 * A GBK or Big5 input caches the decoding of byte pairs in a table of
 * 256 x 256 32-bit entries indexed by xq_pair_key (input.c pair_entry):
 * bytes consumed << 28 | UTF-8 length << 24 | up to 3 UTF-8 bytes (first
 * in the low byte), XQ_PAIR_WORD set on the characters a word may hold
 * (see xq_input_decode_word); 0 while unknown (an ASCII lead's entry
 * too: readers of the table take a 0 entry of an ASCII lead 0x01..0x7F
 * as 1 << 28 | 1 << 24 | the byte, XQ_PAIR_WORD if xq_word_ascii). */
enum { XQ_PAIR_WORD = 1u << 27 };

/* The pair cache of in, or NULL: a UTF-8 input, or no legacy line
 * decoded yet.  Valid as long as in; entries are only ever added. */
const uint32_t *xq_input_pairs(const xq_input *in);

/* Index in the pair cache of the bytes p[0], p[1]: p[1] << 8 | p[0],
 * which is one 2-byte load on little-endian machines. */
static inline size_t xq_pair_key(const unsigned char *p)
{
    return (size_t)p[1] << 8 | p[0];
}

/* Write the up to 3 UTF-8 bytes of pair entry e at o, which has 4 bytes
 * of room (on little-endian machines one 4-byte store; the 4th byte is
 * overwritten by the next character or lies past the text). */
static inline void xq_pair_store3(char *o, uint32_t e)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    __builtin_memcpy(o, &e, 4);
#else
    o[0] = (char)e;
    o[1] = (char)(e >> 8);
    o[2] = (char)(e >> 16);
#endif
}

/* An ASCII byte a word may hold: not NUL, a blank (space, tab, VT, FF,
 * CR), a line feed (never inside a line: a word decoder run over several
 * lines stops at the line end, pgn_read.c fast_lines) or a PGN delimiter
 * ({ } ( ) ;). */
static inline bool xq_word_ascii(unsigned b)
{
    return b - 1u < 0x7Fu && b != ' ' && b != '\t' && (b < 0x0A || b > 0x0D) && b != '{' &&
           b != '}' && b != '(' && b != ')' && b != ';';
}

/* xq_input_decode_word for a GBK or Big5 input whose pair cache is pt
 * (xq_input_pairs, not NULL): the cached word characters of s[0..n), in
 * one table lookup each, then a last single ASCII byte. */
static inline size_t xq_pairs_decode_word(const uint32_t *pt, const unsigned char *s, size_t n,
                                          char *out, size_t *out_len, uint32_t *chars)
{
    const unsigned char *p = s, *last = s + n - 1;
    char *o = out;
    uint32_t nc = 0;
    if (n) {
        while (p < last) {   /* a pair is there */
            uint32_t e = pt[xq_pair_key(p)];
            if (!(e & XQ_PAIR_WORD)) {
                /* an ASCII lead not met yet (0): the entry input.c's
                 * decode_slow makes for it, whatever byte follows */
                if (e || !xq_word_ascii(*p)) break;
                e = 1u << 28 | 1u << 24 | *p | XQ_PAIR_WORD;
            }
            xq_pair_store3(o, e);
            o += e >> 24 & 3;
            p += e >> 28;
            nc++;
        }
        if (p == last && xq_word_ascii(*p)) {   /* no pair: ASCII decodes to itself */
            *o++ = (char)*p++;
            nc++;
        }
    }
    *out_len = (size_t)(o - out);
    *chars = nc;
    return (size_t)(p - s);
}

/* File byte offset of 1-based character column col of line (as decoded),
 * walking the raw bytes in the input's encoding.  Exact for valid text;
 * past the end gives the offset just after the line content.  Cost is
 * linear in col. */
uint64_t xq_input_col_offset(const xq_input *in, const xq_raw_line *line, uint32_t col);

/* Index in line->bytes reached by walking ncols decoded characters from
 * index start (0 = line start; a BOM at file offset 0 is skipped), for
 * callers that need offsets of increasing columns in linear total time. */
size_t xq_input_col_bytes(const xq_input *in, const xq_raw_line *line, size_t start,
                          uint32_t ncols);

/* The encoding in use: the fixed one, the detected one, or XQ_ENC_UTF8
 * while only ASCII has been seen (every supported encoding agrees). */
xq_encoding xq_input_encoding(const xq_input *in);

/* True once the input was found to be gzip data (known after the first
 * read). */
bool xq_input_gzipped(const xq_input *in);

/* Whether its data is inflated by a thread of its own (zin.h
 * xq_zin_threaded; known once the first bytes were read, as by the
 * format sniff of xq_reader_open). */
bool xq_input_inflating(const xq_input *in);

/* The path as given ("-" for stdin); owned by the input. */
const char *xq_input_path(const xq_input *in);

/* Message of the last -1 return, "PATH: reason"; "" if none. */
const char *xq_input_error(const xq_input *in);

/* "PATH: reason" for a fault found at the end of the data that cut
 * nothing: bytes after whole gzip data (xq_zin_trailing) end the data
 * (0, not -1: the last record is whole) and show here instead; "" if
 * none (yet: known once the end was read).  The caller reports it as an
 * I/O error of the file (exit status 2, xq(7)), after the file's games. */
const char *xq_input_late_error(const xq_input *in);

#endif
