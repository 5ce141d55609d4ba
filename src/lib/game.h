/* game.h - the in-memory game record: every reader fills an xq_game and
 * every writer reads one.
 *
 * A game holds the record exactly as written: tags in file order, the
 * main line as an array of nodes (one node per ply, move text verbatim),
 * comments, NAGs and variations as a tree, the result token, the raw bytes
 * of the whole record, and the diagnostics found while reading it.
 *
 * Memory: all strings, nodes and variation arrays live in a per-game arena
 * (freed or rewound in one call).  A game is caller-allocated (e.g. on the
 * stack) and reused: xq_game_reset keeps its buffers so that reading a
 * file one game at a time needs memory proportional to the largest
 * record, not to the file.  Every pointer in a game stays valid until the
 * next xq_game_reset / xq_game_free of that game.
 *
 * All text is UTF-8, NUL-terminated.  Lines are 1-based file lines;
 * columns are 1-based characters (code points) of the decoded line; byte
 * offsets are 0-based in the decompressed file.
 */
#ifndef XQ_GAME_H
#define XQ_GAME_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "input.h"
#include "position.h"

typedef enum { XQ_SEV_ERROR = 0, XQ_SEV_WARNING = 1 } xq_severity;

/* One finding about the record.  line/col are 0 when not tied to a place. */
typedef struct {
    xq_severity severity;
    uint32_t line, col;
    uint64_t offset;
    const char *msg;   /* one line, no trailing newline */
} xq_diag;

/* A tag pair as written (name case preserved, value unescaped). */
typedef struct {
    const char *name;
    const char *value;
} xq_tag;

/* Game results (PGN §1e: 1-0 Red wins, 0-1 Black wins, 1/2-1/2, *). */
typedef enum {
    XQ_RESULT_NONE = 0,   /* no result token in the movetext */
    XQ_RESULT_RED,        /* 1-0 */
    XQ_RESULT_BLACK,      /* 0-1 */
    XQ_RESULT_DRAW,       /* 1/2-1/2 */
    XQ_RESULT_UNKNOWN     /* * */
} xq_result;

typedef struct xq_node xq_node;

/* A sequence of plies: the main line or one variation. */
typedef struct {
    xq_node *nodes;
    size_t count;
    const char *comment;  /* comment before the first move, or NULL */
} xq_branch;

/* One ply as written.  The fields a reader sets per move come first,
 * those it leaves empty (zero: NULL, 0, XQ_MOVE_NONE) after them, from
 * comment to the end: the PGN reader clears those 32 bytes in two
 * stores (pgn_read.c node_fill). */
struct xq_node {
    const char *text;        /* the move token, verbatim (suffix !/? moved to nags) */
    uint32_t line, col;      /* where the token starts */
    uint32_t number;         /* move number written before it, 0 if none */
    uint16_t text_len;       /* strlen(text) when a reader knows it (1..65535), else 0:
                                0 means "unknown, use strlen"; the PGN reader sets it */
    uint16_t desc;           /* xq_move_desc(text, text_len) (notation.h: the decoded
                                full form 炮二平五, or XQ_DESC_OTHER) when a reader
                                knows it, else 0: 0 means "unknown, decode the
                                text".  A pure function of the text, so it never
                                changes a result: it spares the replay a decoding
                                (xq_move_read_play_desc).  The PGN reader sets it
                                for the words of its word cache (GBK, Big5 and
                                UTF-8 input);
                                whoever changes text must set it to 0 */
    const char *comment;     /* comment(s) after the move, joined by '\n', or NULL */
    const uint16_t *nags;    /* NAG codes: $n as n; ! 1, ? 2, !! 3, ?? 4, !? 5, ?! 6 */
    xq_branch *variations;   /* alternatives to this ply, in file order */
    uint32_t variation_count;
    uint16_t nag_count;
    xq_move move;            /* decoded move: XQ_MOVE_NONE from readers, set by the replayer */
};

typedef struct xq_arena xq_arena;

typedef struct {
    /* where the record came from */
    const char *file;        /* path as given to the reader ("-" for stdin) */
    uint64_t index;          /* 1-based record number in the file */
    uint64_t first_line;     /* 1-based line of the first non-blank line */
    uint64_t offset;         /* byte offset of raw[0] in the file */
    xq_encoding encoding;    /* text encoding of the file (UTF8 for binary formats) */
    bool cr_lines;           /* the file's lines end in a lone CR (old Mac OS), which raw holds
                                as LF (input.h xq_input_text_lines): --keep writes CR again */
    xq_format format;        /* the format of the file (xq_reader_format; XQ_FMT_AUTO for a
                                game no reader made) */

    /* original bytes of the whole record: from the end of the previous
     * record up to the start of the next, so concatenating the raw bytes
     * of every record of a file gives the file back (decompressed).  NULL
     * with raw_len counting them when the reader was told no one reads
     * them (xq_read_options.no_raw); empty for XML. */
    const char *raw;
    size_t raw_len;

    xq_tag *tags;            /* in file order */
    size_t tag_count;
    const char *fen;         /* value of the FEN tag, or NULL */
    /* where fen's first character is in the file (line, column as a
     * diagnostic's), both 0 when no reader knows (binary formats, no FEN):
     * the place of a finding about the start position.  fen_verbatim: the
     * value is, character for character, what the file has on that line
     * (no escape, entity or decoding between), so that its character i
     * (0-based) is at column fen_col + i. */
    uint32_t fen_line, fen_col;
    bool fen_verbatim;
    /* When tags_noted is tag_count (not 0): 1 + the index in tags of the
     * first Result tag and of the first Format tag (those xq_game_tag(g,
     * "Result") and xq_game_tag(g, "Format") find), 0 when there is none;
     * noted by a reader that knows each tag's name as it takes it (the
     * PGN reader), with tags_noted the number of tags then, so that the
     * replay need not look for them.  tags_noted 0 (every other reader,
     * xq_game_reset) or not tag_count (a tag appended since: it may be
     * the first Result or Format tag): not known, look them up.  Whoever
     * drops or moves a tag must set tags_noted to 0. */
    uint32_t result_tag, format_tag;
    size_t tags_noted;

    xq_branch main;          /* main line; main.comment is the comment before the first move */
    const char *result;      /* result token found in the movetext, or NULL */
    xq_result result_code;

    xq_diag *diags;          /* in the order found */
    size_t diag_count;
    size_t diag_dropped[2];  /* diagnostics beyond the XQ_GAME_MAX_DIAGS + 1 kept, not stored,
                                by severity ([xq_severity]): the replay counts them */
    bool out_of_memory;      /* an allocation for the record failed (game.c's allocators, the
                                readers): a tag, move, text or diagnostic of it was dropped, so
                                the record is incomplete; the pipeline fails the run for it */
    /* The record's text as the file has it, for a record without raw bytes
     * that is text all the same (XML: the lines of its <game> element,
     * from first_line to its last text; JSON Lines: its line), in the
     * file's encoding (`encoding`), so that a character of it can be
     * placed (line: first_line + the line breaks before it; column as a
     * diagnostic's), as raw places one of a PGN record: where xq-validate
     * --keep finds the first character its output lacks.  Arena memory;
     * NULL (source_len 0) for the other readers, under
     * xq_read_options.no_raw, and for an XML document not in UTF-8. */
    const char *source;
    size_t source_len;

    /* private */
    xq_arena *arena;
    char *raw_buf;
    size_t raw_cap, tag_cap, diag_cap;
    /* malloc'd node array kept with the game (kept by xq_game_reset, freed
     * by xq_game_free): the PGN reader hands its main line over here
     * instead of copying it into the arena (pgn_read.c record_end), and
     * reads the game's next record into it again, leaving its other
     * array here meanwhile (main_nodes_take) */
    xq_node *node_buf;
    size_t node_cap;          /* in nodes */
} xq_game;

/* Diagnostics kept per game; the next one is kept with the message "more
 * than 200 diagnostics: ..." (its own severity and place), and further
 * ones are only counted (diag_dropped), so that every diagnostic is
 * counted once by its severity. */
enum { XQ_GAME_MAX_DIAGS = 200 };

/* Set *g to an empty game.  Allocates nothing. */
void xq_game_init(xq_game *g);

/* Empty *g for the next record, keeping its memory for reuse.  Pointers
 * into the previous record become invalid. */
void xq_game_reset(xq_game *g);

/* Free everything *g owns and leave it empty (as after xq_game_init). */
void xq_game_free(xq_game *g);

/* Value of tag `name`, matched case-insensitively (ASCII), or NULL.  The
 * XBoard names map to ours: "Red" also finds "White" (formats.md §1c,
 * XBoard PGN); "White" also finds "Red". */
const char *xq_game_tag(const xq_game *g, const char *name);

/* ---- for readers ------------------------------------------------------- */

/* n bytes from the game's arena, aligned for any type, uninitialised.
 * Returns NULL on out-of-memory. */
void *xq_game_alloc(xq_game *g, size_t n);

/* Copy s[0..n) into the arena and NUL-terminate it.  NULL on OOM. */
char *xq_game_strndup(xq_game *g, const char *s, size_t n);

/* Append a tag (strings are copied).  false on OOM. */
bool xq_game_add_tag(xq_game *g, const char *name, size_t name_len,
                     const char *value, size_t value_len);

/* Grow g's tag array for one more tag (xq_game_add_tag_ref); false on
 * OOM. */
bool xq_game_tags_grow(xq_game *g);

/* Append a tag whose strings are not copied: name and value must be
 * NUL-terminated and stay valid as long as the game's other pointers do
 * (string literals, or copies in g's arena: the PGN reader's usual names
 * and its block of tag values, pgn_read.c fast_tag).  false on OOM. */
static inline bool xq_game_add_tag_ref(xq_game *g, const char *name, const char *value)
{
    if (g->tag_count == g->tag_cap && !xq_game_tags_grow(g)) return false;
    g->tags[g->tag_count].name = name;
    g->tags[g->tag_count].value = value;
    g->tag_count++;
    return true;
}

/* Append raw record bytes.  false on OOM. */
bool xq_game_append_raw(xq_game *g, const void *bytes, size_t n);

/* Append a diagnostic with a printf-style message.  The one after
 * XQ_GAME_MAX_DIAGS says the list is full; past it only diag_dropped is
 * counted.  false on OOM. */
bool xq_game_diag(xq_game *g, xq_severity sev, uint32_t line, uint32_t col,
                  uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* Make room for element [count] of an arena array that holds count
 * elements of elem_size bytes and whose capacity is the next power of two
 * >= count (count 0: array may be NULL).  Returns the array, moved into a
 * doubled arena block when it was full; NULL on OOM.  Used for nags and
 * variations. */
void *xq_game_grow(xq_game *g, void *array, size_t count, size_t elem_size);

/* Count of diagnostics of the given severity. */
size_t xq_game_count_diags(const xq_game *g, xq_severity sev);

/* Does g hold no game: no tag, no move in its main line, no result (what
 * the reader tells as "no game", pgn_read.c no_game, and the PGN writer
 * writes as its comment alone)? */
static inline bool xq_game_holds_nothing(const xq_game *g)
{
    return !g->tag_count && !g->main.count && !g->result;
}

/* Short text for a result code: "1-0", "0-1", "1/2-1/2", "*", or "" for
 * XQ_RESULT_NONE (static). */
const char *xq_result_str(xq_result r);

/* Write s, a file name or a line of text that quotes one, to `to` as
 * every text diagnostic shows it (the one rule, man/xq.7 DIAGNOSTICS):
 * byte for byte when it holds no control character (C0: bytes 0x01-0x1F,
 * DEL 0x7F, and C1 in UTF-8: U+0080-U+009F, the byte pairs C2 80-C2 9F,
 * U+009B being CSI, which terminals act on), so that UTF-8, GBK, Big5
 * names, blanks and backslashes print as they are; otherwise as a shell's
 * $'...' or C string spells it and a user maps back: tab, newline and
 * carriage return as \t \n \r, the other controls as \ and three octal
 * digits of each byte (ESC \033, DEL \177, CSI \302\233), and a backslash
 * as \\.  So a name cannot move the cursor, colour the terminal or cut a
 * FILE:LINE:COL line in two.  Other bytes from 0x80 up are left alone
 * (they are GBK and Big5 bytes as well as UTF-8's; a GBK pair C2 80-9F,
 * rare, is escaped too and still reads back). */
void xq_name_put(FILE *to, const char *s);

/* "Event; Red vs Black; Date" of g into buf (size > 0 bytes; always
 * NUL-terminated), for diagnostics: each tag's value with its blanks
 * trimmed and cut to fit on a UTF-8 character boundary; "?" for a missing
 * player when the other is named; "" when none of the four tags is there.
 * Raw record text: print it with xq_name_printf. */
void xq_game_label(const xq_game *g, char *buf, size_t size);

/* Format (printf) a line of text that quotes record text (tag values,
 * move texts, messages quoting them) and write it all as xq_name_put
 * does, as one text: so every text output of the tools follows the one
 * rule.  The text may be of any length (formatted into a malloc'd copy
 * when long; cut at 1023 bytes when memory runs out). */
void xq_name_printf(FILE *to, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void xq_name_vprintf(FILE *to, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/* s as xq_name_put writes it, as a malloc'd string the caller frees
 * (NULL when memory runs out): for outputs that must know the width of
 * what they print (xq-stats' aligned tables: the escapes are ASCII, one
 * column a byte). */
char *xq_name_dup(const char *s);

#endif
