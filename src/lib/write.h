/* write.h - writers of the game model: every output format reads an
 * xq_game (as filled by a reader) plus its xq_replay (decoded main line,
 * status, board result).  One file per format: write_pgn.c, write_json.c,
 * write_xml.c, write_xboard.c, write_xqf.c, write_dhtmlxq.c; shared helpers
 * in write_common.c. */
#ifndef XQ_WRITE_H
#define XQ_WRITE_H

#include <stdbool.h>
#include <stdio.h>

#include "game.h"
#include "input.h"
#include "notation.h"
#include "replay.h"

typedef enum {
    XQ_OUT_PGN = 0,   /* PGN-style text, [Game "Chinese Chess"], any notation */
    XQ_OUT_JSONL,     /* one JSON object per game per line */
    XQ_OUT_XML,       /* our XML format, RELAX NG schema src/xq-game.rng */
    XQ_OUT_XBOARD,    /* PGN as GNU XBoard writes Xiangqi: White/Black, Variant, SAN */
    XQ_OUT_UCCI,      /* "position fen FEN moves h2e2 ..." one line per game */
    XQ_OUT_XQF,       /* XQF version 10, unencrypted binary (XQStudio); one game per file */
    XQ_OUT_DHTMLXQ,   /* [DhtmlXQ] blocks (dpxq.com web board), one per game */
    XQ_OUT_COUNT
} xq_out_format;

/* Name ("pgn", "jsonl", "xml", "xboard", "ucci", "xqf", "dhtmlxq") of a
 * format; static. */
const char *xq_out_format_name(xq_out_format f);
/* Parse such a name (also "json"); false for an unknown name. */
bool xq_out_format_parse(const char *name, xq_out_format *out);

/* What a format can hold (bits of xq_out_format_holds / xq_game_contents). */
enum {
    XQ_HOLDS_TAGS       = 1u << 0,
    XQ_HOLDS_COMMENTS   = 1u << 1,
    XQ_HOLDS_NAGS       = 1u << 2,
    XQ_HOLDS_VARIATIONS = 1u << 3
};

/* XQ_HOLDS_* bits that format f can represent (UCCI: none). */
unsigned xq_out_format_holds(xq_out_format f);

/* XQ_HOLDS_* bits for what g has: tags, comments (pre-game, after moves,
 * in variations), NAGs, variations.  For "cannot hold" notes. */
unsigned xq_game_contents(const xq_game *g);

typedef struct {
    xq_out_format format;
    xq_notation notation;     /* PGN and XML move text: XQ_NOTATION_AUTO = Chinese */
    unsigned notation_flags;  /* XQ_WRITE_* of notation.h */
    bool no_comments;         /* drop comments */
    bool no_variations;       /* drop variations */
    xq_encoding encoding;     /* output text: XQ_ENC_AUTO or XQ_ENC_UTF8 = UTF-8;
                                 XQ_ENC_GBK (strict GBK) or XQ_ENC_BIG5 (CP950)
                                 through iconv, for PGN, XBoard and XML (the XML
                                 declaration names it).  JSON Lines and UCCI
                                 are always UTF-8 / ASCII. */
} xq_write_options;

/* What xq_write_game could not do for one game.  Plain value. */
typedef struct {
    char why[256];        /* first untranslatable move and why, "" if none:
                             "ply 23 (車九平八): horse leg blocked" */
    uint32_t line, col;   /* its place in the record (1-based), 0 if unknown */
    unsigned untranslated;  /* moves kept only as text (all branches) */
    unsigned unencodable;   /* characters the output encoding lacks, written '?' */
    char note[256];       /* what the format could not hold and how it was
                             written or that it was dropped, "" if nothing:
                             "xqf cannot hold tags Round, ECCO: dropped"; several
                             joined by "; " (cut at the size) */
} xq_write_report;

/* Start and end a document: the XML declaration and <games> root element,
 * nothing for the other formats.  Call once per output stream around the
 * games.  Return false on a write error. */
bool xq_write_begin(FILE *out, const xq_write_options *opt);
bool xq_write_end(FILE *out, const xq_write_options *opt);

/* Write game g, whose main line r decoded (xq_replay_game must have run on
 * g), to out in opt->format.  Variations are decoded from their branch
 * position.  Moves after the first illegal or undecodable one of a line
 * cannot be translated: XML and JSON keep them as move text without
 * coordinates, PGN and XBoard as moves written as in the record ("13.
 * 車九平八"), so that a reader meets them as moves and the game fails
 * again at the same ply (a text a PGN reader would not take as that one
 * move, or that the output's notation would read as a legal move where the
 * record's did not, gets a leading '~', blanks and brackets '_'); XQF,
 * DhtmlXQ and UCCI drop them (rep->note says so for the first two).
 * Returns true when every move was translated, every character encoded and
 * nothing dropped or changed but what the format cannot hold at all (the
 * caller's "cannot hold" notes from xq_game_contents); otherwise false
 * with the details in *rep (rep may be NULL): why for errors, note for
 * what was dropped or written otherwise.  Write errors show in ferror(out). */
bool xq_write_game(FILE *out, const xq_game *g, const xq_replay *r, const xq_write_options *opt,
                   xq_write_report *rep);

/* The JSON Lines form of a game (as --to jsonl): file, game, line, tags
 * (object, record order), fen (start position), comment (before the first
 * move), moves (each: text as written, iccs "h2e2" or null when
 * untranslated, and when present comment, nags [n,...], variations: arrays
 * of such moves, led by an element {"comment": ...} when the variation
 * starts with a comment, and empty ([]) for an empty variation), result
 * (Result tag, else the movetext result, or null), movetext_result (only
 * when the movetext's result is not "result": another one, or null for
 * none), status, plies, and for a game that is not valid ply and reason.
 * One line, newline-terminated, UTF-8. */
void xq_write_json(FILE *out, const xq_game *g, const xq_replay *r);

#endif
