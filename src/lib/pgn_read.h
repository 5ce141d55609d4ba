/* pgn_read.h - read game records from a file, one at a time.
 *
 * xq_reader_open sniffs the format of the (decompressed) file and picks a
 * record reader; xq_reader_next fills a caller-owned xq_game with the next
 * record.  Formats, detected by content (magic bytes, markers), never by
 * name: PGN-style text (formats.md §1e, below), our XML (xml_read.c),
 * XQF, CBR and CBL libraries, DhtmlXQ blocks in any text or HTML
 * (formats.md §1f; xqf_read.c, cbr_read.c, dhtmlxq_read.c), JSON Lines
 * as xq-convert --to jsonl writes them (jsonl_read.c).
 *
 * PGN-style text, as accepted (formats.md §1e and the project issue):
 *  - tags `[Name "value"]`, any case, `\"` and `\\` escapes; several tags
 *    may share a line;
 *  - movetext: move numbers `1.`, `1`, `1...`, `1.炮二平五` (glued), the
 *    placeholders `...`, `…`, `…………` for a skipped Red move; the vertical
 *    layout (one move per line); `{...}` comments (multi-line), `;` line
 *    comments, `%` escape lines, nested `(...)` variations kept as a tree,
 *    `$n` NAGs and `! ? !! ?? !? ?!` (standalone or glued to a move);
 *    results `1-0 0-1 1/2-1/2 *`, their full-width forms, `½-½`, and
 *    红胜/紅勝 黑胜/黑勝 和棋/和局;
 *  - a move is any other run of non-blank characters, kept verbatim
 *    (Chinese, WXF `C2.5`, full-width `Ｃ２＝５`, ICCS `H2-E2`/`h2e2`,
 *    SAN `Che2`).  Blanks: ASCII space/tab/CR/VT/FF, U+3000, U+00A0, and a
 *    stray U+FEFF.
 *
 * Record boundaries (never merge two records, never drop one):
 *  - a tag line after movetext or after the result starts a new record;
 *  - within the tag section, a tag whose name was already seen (a second
 *    [Game] or [Event]) or a tag after a blank line starts a new record, so
 *    tags-only records stand alone;
 *  - after the result, text up to the next tag line is skipped with one
 *    warning (ElephantEye's advert), except a line whose first token is the
 *    move number 1, which starts a new record without tags;
 *  - a tag line met inside an unterminated comment or variation ends the
 *    record with an error pointing at the opening `{` or `(`;
 *  - text before any tag (blank lines, a file comment) belongs to the next
 *    record; a plain move list without tags is a record.
 *
 * Limits: variations nest at most XQ_MAX_VARIATION_DEPTH deep; deeper ones
 * are skipped with one error (parsing is iterative, any depth is safe).
 * So that memory stays bounded whatever the input (a gzip bomb), each with
 * one error: a line longer than XQ_MAX_LINE (input.h, 16 MiB) is cut and
 * the rest of it skipped; moves beyond XQ_MAX_RECORD_MOVES in one record
 * are skipped; a record that reaches XQ_MAX_RECORD_BYTES ends before its
 * next line, which starts the next record.  The bytes skipped are missing
 * from the record's raw bytes.
 */
#ifndef XQ_PGN_READ_H
#define XQ_PGN_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "input.h"

enum {
    XQ_MAX_VARIATION_DEPTH = 256,
    XQ_MAX_RECORD_MOVES = 1 << 20,           /* move nodes, all lines of play */
    XQ_MAX_RECORD_BYTES = 32 * 1024 * 1024
};

/* Reading options; a zeroed struct (or NULL) means all defaults. */
typedef struct {
    xq_encoding encoding;   /* XQ_ENC_AUTO: detect per file */
    xq_format format;       /* XQ_FMT_AUTO: sniff; XQ_FMT_PGN forces text, XQ_FMT_XML
                               and XQ_FMT_JSONL those formats */
    bool no_raw;            /* the caller never reads a game's raw bytes (only raw_len): text
                               records then leave g->raw NULL and count raw_len alone, sparing a
                               copy of every record (xq-validate without --keep, xq-stats);
                               nor its source (XML, JSON Lines: game.h) */
} xq_read_options;

typedef struct xq_reader xq_reader;

/* Open path ("-" = standard input; gzip is inflated transparently) and
 * sniff its format.  Returns NULL on error with a one-line message in err
 * (errsz bytes, may be 0): "PATH: strerror" for I/O errors, "PATH: XQF
 * format is not supported yet" for a format without a reader. */
xq_reader *xq_reader_open(const char *path, const xq_read_options *opt,
                          char *err, size_t errsz);

/* Read the next record into *g (reset first; g must have been passed to
 * xq_game_init once).  Returns 1 when a record was read, 0 at the end of
 * the file, -1 on an I/O or decompression error (xq_reader_error says
 * why).  For PGN-style text and XML (at its first well-formedness error,
 * xml_read.h) the record being read when the error happens
 * is returned first, cut, with an error diagnostic "input ends early
 * (REASON); the record is cut here" where the data ends; the next call
 * returns -1 (JSON Lines: the line the data ends in is a record with its
 * JSON error, jsonl_read.h).  Problems in the text never make it fail:
 * they become diagnostics in g->diags. */
int xq_reader_next(xq_reader *r, xq_game *g);

/* Close and free (NULL is fine).  Games read earlier stay valid. */
void xq_reader_close(xq_reader *r);

/* Encoding in use for the file: fixed by the options, detected, or
 * XQ_ENC_UTF8 while only ASCII has been seen. */
xq_encoding xq_reader_encoding(const xq_reader *r);

/* The format chosen at open (never XQ_FMT_AUTO). */
xq_format xq_reader_format(const xq_reader *r);

/* Whether the file's data is inflated by a thread of its own, beside the
 * readers' (gzip from a large regular file: input.h xq_input_inflating),
 * known from xq_reader_open on: the pipeline's default number of threads
 * leaves it a CPU. */
bool xq_reader_inflating(const xq_reader *r);

/* Message of the last -1 from xq_reader_next, "PATH: reason"; "" if none. */
const char *xq_reader_error(const xq_reader *r);

/* xq_input_late_error of the file (bytes after whole gzip data), once
 * xq_reader_next has returned 0: "PATH: reason", or "". */
const char *xq_reader_late_error(const xq_reader *r);

/* Is the text p[0..end) (one line, without its line break) a tag line,
 * [Name "value"] and nothing else but blanks?  Inside a {comment} left
 * open, such a line starts the next record (the reader's recovery from
 * an unclosed comment), so a writer must not put one inside {}: the PGN
 * writer writes such a comment as ';' lines (write_pgn.c). */
bool xq_pgn_tag_line(const char *p, const char *end);

#endif
