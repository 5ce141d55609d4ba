/* write_internal.h - what the writers share (write_common.c): the one
 * move walk that decodes every line from its branch position, the one tag
 * order helper, and output-text helpers.  Library-internal, not an API. */
#ifndef XQ_WRITE_INTERNAL_H
#define XQ_WRITE_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>

#include "write.h"

/* ---- the move walk ------------------------------------------------------ */

typedef struct xq_walk_line xq_walk_line;

/* One move met by the walk. */
typedef struct {
    const xq_walk_line *line;  /* the line it belongs to */
    const xq_node *node;       /* the record's node (text, comment, nags, variations) */
    const xq_position *pos;    /* position before the move; NULL when untranslated */
    xq_move move;              /* the decoded legal move; XQ_MOVE_NONE when the
                                  move cannot be translated (node->text is kept) */
    int depth;                 /* 0 main line, 1 a variation of it, ... */
    size_t index;              /* index of the node in its line */
    int number;                /* move number of this ply ("12." / "12..."), counted
                                  on from the last known position when untranslated */
    xq_color side;             /* the side this ply belongs to, likewise */
    bool last_translated;      /* translated, and the moves after it in its line are not */
    const xq_position *fail_pos;  /* the first untranslated move of its line read from a
                                     known position: that position, else NULL */
} xq_walk_move;

/* One line met by the walk: the main line (depth 0) or a variation. */
struct xq_walk_line {
    const xq_branch *branch;
    int depth;                 /* 0 main line, 1 a variation of it, ... */
    size_t index;              /* index among its node's variations (0 for the main line) */
    size_t translated;         /* its leading moves that decode; the rest are untranslated */
    int number;                /* move number and side of its first ply */
    xq_color side;
};

/* Callbacks, in document order: line_begin of the main line; for each
 * node move_begin, then for each of its variations line_begin, the
 * variation's moves, line_end, then move_end; line_end of the main line.
 * Any may be NULL. */
typedef struct {
    void (*move_begin)(void *ctx, const xq_walk_move *m);
    void (*move_end)(void *ctx, const xq_walk_move *m);
    void (*line_begin)(void *ctx, const xq_walk_line *l);
    void (*line_end)(void *ctx, const xq_walk_line *l);
} xq_walk_ops;

/* Walk the main line of g (moves as decoded by xq_replay_game into
 * node->move, from r->start, up to r->plies) and, unless !variations,
 * every variation, decoded with the notation of g's Format tag from the
 * position before the node it branches from.  In each line, the first
 * move that cannot be decoded and every move after it (with their
 * variations) are passed as untranslated.  The first failure is described
 * in rep (why, line, col); rep->untranslated counts the untranslated
 * moves.  Recursion depth is the variation depth (bounded by the readers). */
void xq_walk_game(const xq_game *g, const xq_replay *r, bool variations, const xq_walk_ops *ops,
                  void *ctx, xq_write_report *rep);

/* ---- tags --------------------------------------------------------------- */

/* The tags of g in writing order: first those named in order[] (NULL-
 * terminated, matched case-insensitively, "Red" also matching "White"),
 * each at most once, then all others in record order; tags named in
 * skip[] (NULL-terminated, may be NULL) are left out.  Returns a malloc'd
 * array of *count pointers into g (free it), or NULL when empty or on
 * out-of-memory. */
const xq_tag **xq_tags_ordered(const xq_game *g, const char *const *order, const char *const *skip,
                               size_t *count);

/* True when tag t says only what a PGN-style record's own tags say:
 * Variant "xiangqi" (XBoard's; [Game "Chinese Chess"], or XBoard's own
 * Variant) or SetUp "1" when a FEN is written, "0" when none is (chess
 * PGN's flag for the FEN tag); values compared trimmed, any case.  A
 * writer leaves such a tag to its own tags; any other Variant or SetUp is
 * the record's, kept (or noted where the format cannot keep it). */
bool xq_tag_said_by_own(const xq_tag *t, bool fen_written);

/* Leave out of tags[0..n) those xq_tag_said_by_own; returns the new n. */
size_t xq_tags_drop_said(const xq_tag **tags, size_t n, bool fen_written);

/* True when tag name a names b ("Red" also matches "White"), ignoring ASCII case. */
bool xq_tag_is(const char *a, const char *b);

/* A character a PGN tag name cannot hold, written as '_' (write_pgn.c):
 * a blank, a bracket, a quote, a backslash or a control character. */
bool xq_pgn_name_bad(unsigned char c);

/* A character a JSON Lines tag name cannot hold, written as '_'
 * (jsonl_read.h XQ_JSONL_TAG_NAME_BAD: the reader refuses it). */
bool xq_jsonl_name_bad(unsigned char c);

/* Drop from tags[0..n) each tag whose name, as the format writes it, an
 * earlier one's is, keeping the first: each character bad() is true for
 * as '_', an empty name as "_", and with any_case ASCII case ignored and
 * "White" as "Red" (PGN, XBoard: a PGN reader takes a tag name the record
 * has already for the start of the next record, so a second one would
 * split the game; JSON Lines: a JSON object's keys are unique).  The
 * dropped names go in one note of rep, for format ("pgn cannot hold a
 * second tag of a name: Event dropped").  Returns the count left; tags is
 * compacted in place. */
size_t xq_tags_drop_repeats(const xq_tag **tags, size_t n, bool (*bad)(unsigned char), bool any_case,
                            xq_write_report *rep, const char *format);

/* ---- positions and text ------------------------------------------------- */

/* True when pos is the standard start position with Red to move. */
bool xq_is_start_position(const xq_position *pos);

/* The FEN to write for g, or NULL when none is needed: the start position
 * of r when the record had a FEN tag or starts elsewhere (standard FEN);
 * the FEN tag as written when it does not parse.  buf holds XQ_FEN_MAX. */
const char *xq_write_fen(const xq_game *g, const xq_replay *r, char *buf);

/* The result token to end the movetext with: the record's result token,
 * else its Result tag, else "*". */
const char *xq_write_result_token(const xq_game *g);

/* A comment to write in a format that cannot tell an empty comment from
 * none (DhtmlXQ: vschess reads an empty field as no comment; XQF: length
 * 0 is every move without one): s, or NULL when s is NULL or "" (then
 * *empty counts it, for the writer's note). */
const char *xq_write_comment(const char *s, size_t *empty);

/* Append a note (printf format) to rep->note, after "; " when it holds
 * one already; cut at its size. */
void xq_write_note(xq_write_report *rep, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Write s (UTF-8) with every byte of `bad` (a string of ASCII bytes)
 * replaced by repl, and ASCII control characters by a space unless
 * keep_newlines and the byte is '\n'. */
void xq_put_clean(FILE *out, const char *s, const char *bad, const char *repl, bool keep_newlines);

/* ---- one writer per format (write_*.c) ------------------------------------ */

void xq_write_pgn(FILE *out, const xq_game *g, const xq_replay *r, const xq_write_options *opt,
                  xq_write_report *rep);
void xq_write_xboard(FILE *out, const xq_game *g, const xq_replay *r, const xq_write_options *opt,
                     xq_write_report *rep);
void xq_write_ucci(FILE *out, const xq_game *g, const xq_replay *r, xq_write_report *rep);
void xq_write_xml(FILE *out, const xq_game *g, const xq_replay *r, const xq_write_options *opt,
                  xq_write_report *rep);
void xq_write_xml_begin(FILE *out, xq_encoding enc);
void xq_write_xml_end(FILE *out);
/* write_xqf.c: XQF 10, binary; write_dhtmlxq.c: a [DhtmlXQ] block. */
void xq_write_xqf(FILE *out, const xq_game *g, const xq_replay *r, const xq_write_options *opt,
                  xq_write_report *rep);
void xq_write_dhtmlxq(FILE *out, const xq_game *g, const xq_replay *r, const xq_write_options *opt,
                      xq_write_report *rep);
void xq_write_jsonl(FILE *out, const xq_game *g, const xq_replay *r, const xq_write_options *opt,
                    xq_write_report *rep);

/* True when m is the first untranslated move of its line (m->fail_pos
 * set), which the record's notation read_in failed to read as a legal
 * move there but the notation read_out (that of the output's reader)
 * would: written as it is, the game would go on instead of failing. */
bool xq_untranslated_would_read(const xq_walk_move *m, xq_notation read_in, xq_notation read_out);

/* What xq_pgn_tag had to write otherwise (bits). */
enum {
    XQ_PGN_TAG_NAME = 1u << 0,     /* a blank, bracket, quote, backslash or control in the name: '_' */
    XQ_PGN_TAG_LINE = 1u << 1,     /* a line break in the value: a space (tag values are one line) */
    XQ_PGN_TAG_CONTROL = 1u << 2,  /* another control character in the value: a space */
};

/* PGN `[Name "value"]` line, value escaped (\\ and \"); returns the
 * XQ_PGN_TAG_* bits of what it wrote otherwise. */
unsigned xq_pgn_tag(FILE *out, const char *name, const char *value);

/* The notes for the XQ_PGN_TAG_* bits changed, format "pgn" or "xboard". */
void xq_pgn_tag_notes(xq_write_report *rep, const char *format, unsigned changed);

/* PGN movetext shared by the PGN and XBoard writers: the pre-game comment,
 * numbered moves in notation/flags (one move pair per line), NAGs as $n,
 * comments ({text}, or ';' lines when the text holds '}' or an empty line),
 * (variations), untranslated moves as in the record (see xq_write_game;
 * read_as is the notation the output's Format tag makes a reader use),
 * then the result token and a blank line.  A comment's control character
 * (not a line break) is written as a space, with a note naming format. */
void xq_pgn_movetext(FILE *out, const xq_game *g, const xq_replay *r, const xq_write_options *opt,
                     xq_notation notation, unsigned flags, xq_notation read_as, const char *format,
                     xq_write_report *rep);

#endif
