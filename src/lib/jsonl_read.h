/* jsonl_read.h - reading JSON Lines records (one JSON object per game per
 * line, as xq-convert --to jsonl writes them: write_json.c, write.h)
 * behind the reader API of pgn_read.h, which dispatches here for
 * XQ_FMT_JSONL (sniffed: after an optional UTF-8 BOM and blanks the file
 * starts with a JSON object, '{' then '}' or a key and ':', which a PGN
 * file's leading {comment} is not; or forced: xq-convert --from jsonl).
 *
 * Text is UTF-8 (RFC 8259; a BOM on the first line is skipped), parsed by
 * json_read.h in its strict mode.  With GBK or Big5 forced
 * (xq_read_options.encoding, the tools' -e / -i) each line is decoded from
 * it first, as every text format is (a byte sequence not of it: the
 * line's one error, at its place).  Columns count characters, as the other
 * readers' do (a BOM not counted): the same record in UTF-8, GBK or Big5
 * has the same columns.  Not when detected: JSON is UTF-8, and a UTF-8 file whose
 * only non-ASCII line is damaged would be taken for GBK.  One record per non-blank line (blank:
 * spaces, tabs, a CR; CRLF line ends and a last line without '\n' are
 * fine).  Mapping to the game model, field by field:
 *   "tags"      object: its members in order, duplicates kept -> tags;
 *               the first FEN tag (any case) -> g->fen
 *   "fen"       string: the start position, used only without a FEN tag
 *               and when it is not XQ_START_FEN (the writer derives it
 *               from the replay: a record from the standard start has no
 *               FEN tag and must not get one)
 *   "comment"   string: the comment before the first move
 *   "moves"     array of moves; a move is an object: "text" (the move as
 *               written; when missing or null, "iccs", read as UCCI),
 *               "comment", "nags" [n, ...] (0..65535), "variations": an
 *               array of lines, each an array of moves whose first element
 *               may be {"comment": ...}, the line's leading comment (its
 *               "text" and "iccs" missing or null; a line may be empty)
 *   "result"    "1-0", "0-1", "1/2-1/2", "*" or null -> the movetext result
 *               (the writer's is the Result tag's value when there is one)
 *   "movetext_result"  the same, written when the movetext's result is not
 *               "result" (null: none), and then the movetext result, so
 *               that a record whose tag and movetext results differ, or
 *               that has one of them only, comes back as it was
 * Every field may be missing or null; other fields ("file", "game",
 * "line", "status", "plies", "ply", "reason", unknown ones) are ignored.
 * Nodes carry the record's line and the 1-based column (in characters) of
 * their move text's opening quote in it; a record has no raw bytes (like XML: xq-validate --keep
 * writes such games through a writer, game_io.h).
 *
 * Errors never drop a record and never stop the file: a line that is not
 * valid JSON, not an object, holds a field of the wrong type, is longer
 * than XQ_MAX_LINE or nests deeper than variations may
 * (XQ_MAX_VARIATION_DEPTH) becomes an empty game with one error
 * diagnostic at LINE:COL (COL the column of the offending value or
 * character, 1-based), "not valid JSON: expected ',' or '}'",
 * "moves[3].nags[0]: expected a whole number from 0 to 65535, not a
 * string"; reading goes on at the next line.  Memory is bounded by the
 * line limit and the parser's value limit; recursion by the depth limit.
 */
#ifndef XQ_JSONL_READ_H
#define XQ_JSONL_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "game.h"
#include "input.h"

typedef struct xq_jsonl_reader xq_jsonl_reader;

/* Start reading JSON Lines from in, which stays owned by the caller and
 * must outlive the reader; enc the encoding the caller forced (XQ_ENC_GBK,
 * XQ_ENC_BIG5: each line decoded from it; any other: UTF-8).  NULL on
 * out-of-memory, with "PATH: out of memory" in err (errsz bytes). */
xq_jsonl_reader *xq_jsonl_reader_open(xq_input *in, xq_encoding enc, char *err, size_t errsz);

/* Read the next record into g (reset first).  Returns 1, 0 at the end of
 * the input, or -1 on a read or decompression error, with xq_input_error's
 * "PATH: reason" in err (the lines read before it come out first; the last
 * of them may be cut, and then is a record with its error). */
int xq_jsonl_reader_next(xq_jsonl_reader *j, xq_game *g, char *err, size_t errsz);

/* Free the reader (NULL is fine); the input is not closed. */
void xq_jsonl_reader_close(xq_jsonl_reader *j);

/* Whether a record read from here on keeps its line in the game's source
 * (game.h; UTF-8, decoded when GBK or Big5 was forced, after any BOM, as
 * its columns count; not for a line in error): the caller reads raw bytes
 * (xq_read_options.no_raw false).  Off by default. */
void xq_jsonl_reader_keep_source(xq_jsonl_reader *j, bool keep);

/* Characters a JSON Lines tag name cannot hold, for reader and writer
 * alike: a name is written back as a PGN tag line [Name "value"], so it
 * is a word, without a blank, quote or bracket (and not empty). */
#define XQ_JSONL_TAG_NAME_BAD " \t\r\n\"[]"

#endif
