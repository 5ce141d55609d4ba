/* notation.h - reading and writing one move in the notations of real
 * Xiangqi records (formats.md §1a-§1c, CXA1999 §7.5).
 *
 * Reading turns one UTF-8 token (no surrounding blanks, no move number)
 * into an xq_move of the side to move in a position; writing turns a legal
 * move into UTF-8 text.  Everything is a pure function of its arguments:
 * no global mutable state, no allocation, safe from several threads.
 *
 * Notations (xq_notation):
 *   CHINESE          炮二平五, 馬8進7, 前炮退二, 一兵平四, 前兵九平八 ... (§1a)
 *   CHINESE_ABBR     炮25, 馬87, 炮84: piece, from-file, then the target
 *                    file, or (when no legal move goes to that file) the
 *                    steps of 進/退: the full form without its action
 *                    character, implied by the legal moves (CXA1999 §7.5)
 *   CHINESE_3DIGIT   一字三碼 馬325: piece, from-file, to-file, to-rank,
 *                    Arabic digits, files 1..9 from the player's left (位標
 *                    as the notes define it; XQ_*_3DIGIT_FROM_RIGHT for the
 *                    usual right-to-left count), ranks 1..10 from the
 *                    player with 10 written 0; 車進20 / 車退20 when two
 *                    pieces on one file reach the point
 *                    (xiangqi-basics-notes.zh-Hant.txt §9)
 *   WXF              C2.5, H8+7, R+.3, +P+1, 33.4, Ｃ２＝５ ... (§1b)
 *   ICCS             H2-E2 (§1c)
 *   UCCI             h2e2 (§1c)
 *   SAN              XBoard algebraic: Che2, Rxa9+, e4, ef5, exd5 (§1c)
 *
 * A Chinese reader accepts every Chinese form (full, abbreviated, 3-digit:
 * the shapes differ) and the ICCS and UCCI readers accept both coordinate
 * spellings.  XQ_NOTATION_AUTO recognises the notation from the token.
 */
#ifndef XQ_NOTATION_H
#define XQ_NOTATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "position.h"

typedef enum {
    XQ_NOTATION_AUTO = 0,       /* reading only: recognise from the token */
    XQ_NOTATION_CHINESE,
    XQ_NOTATION_CHINESE_ABBR,
    XQ_NOTATION_CHINESE_3DIGIT,
    XQ_NOTATION_WXF,
    XQ_NOTATION_ICCS,
    XQ_NOTATION_UCCI,
    XQ_NOTATION_SAN,
    XQ_NOTATION_COUNT
} xq_notation;

/* Outcome of reading a move.  XQ_NOTE_OK and XQ_NOTE_RESOLVED give a legal
 * move (under XQ_READ_UNCHECKED: the decoded one); every other status is an
 * error. */
typedef enum {
    XQ_NOTE_OK = 0,
    XQ_NOTE_RESOLVED,     /* warning: the text under-specifies the piece and
                             legality (or the piece's own geometry) picked the
                             only one that can move: a plain file holding
                             several pieces of that kind without 前/後
                             (formats.md §1a "Real-world deviations"), a
                             一字三碼 from-file where 進/退 was due, or a
                             tandem marker that fits soldiers on several
                             files.  An error under XQ_READ_STRICT. */
    XQ_NOTE_EMPTY,        /* empty token */
    XQ_NOTE_BAD_CHAR,     /* a character no notation uses; see column */
    XQ_NOTE_SYNTAX,       /* known characters in an impossible arrangement */
    XQ_NOTE_NO_PIECE,     /* no such piece (on that file / square / position) */
    XQ_NOTE_BAD_ACTION,   /* the action is impossible for that piece: horse
                             平, advisor to a file two away, off the board */
    XQ_NOTE_AMBIGUOUS,    /* several legal moves fit; the message lists their
                             from-squares in ICCS */
    XQ_NOTE_ILLEGAL,      /* decoded but not legal; move is set when the text
                             fixes one from/to pair, why holds the rule */
    XQ_NOTE_COUNT
} xq_note_status;

/* What xq_move_read found.  Plain value owned by the caller. */
typedef struct {
    xq_note_status status;
    xq_move move;          /* OK/RESOLVED: the legal move.  ILLEGAL: the
                              decoded move when unique, else XQ_MOVE_NONE.
                              AMBIGUOUS under XQ_READ_STRICT after a
                              resolution: the only legal candidate.
                              Otherwise XQ_MOVE_NONE. */
    xq_illegal why;        /* ILLEGAL with a move: xq_move_legality's reason;
                              otherwise XQ_LEGAL */
    xq_notation notation;  /* the notation the token was read as (never AUTO
                              once a notation was recognised) */
    int column;            /* BAD_CHAR / SYNTAX: 1-based column in characters
                              (code points) of the offending character, or 0
                              when the whole token is at fault */
} xq_note_result;

/* Flags for xq_move_read. */
enum {
    XQ_READ_STRICT          = 1u << 0, /* XQ_NOTE_RESOLVED becomes XQ_NOTE_AMBIGUOUS */
    XQ_READ_RANKS_FROM_1    = 1u << 1, /* ICCS/UCCI/SAN ranks 1..10 (Fairy-Stockfish
                                          `h3e3`, `a10`, formats.md §1c); a rank
                                          written "10" implies this anyway */
    XQ_READ_3DIGIT_FROM_RIGHT = 1u << 2, /* 一字三碼 files counted from the player's
                                          right as in §1a (default: from the
                                          player's left, as the notes define 位標) */
    XQ_READ_UNCHECKED       = 1u << 3, /* when the text names exactly one from/to
                                          pair, return it as XQ_NOTE_OK without
                                          asking xq_move_legality (the caller
                                          checks or trusts the record); legality
                                          still chooses among several candidates */
    XQ_READ_RANKS_FROM_0    = 1u << 5, /* ICCS/UCCI/SAN ranks 0..9 only: a rank "10"
                                          is an error, not a sign of 1..10 (the
                                          game's coordinates were found to count
                                          from 0: replay.c coord_rank_flags) */
    XQ_READ_NOT_IN_CHECK    = 1u << 4  /* the caller knows that the side to move is
                                          not in check (xq_in_check false, e.g.
                                          from an xq_checks kept along the game):
                                          legality is asked with
                                          xq_move_legality_known, same results,
                                          cheaper.  Wrong when it is in check */
};

/* Flags for xq_move_write. */
enum {
    XQ_WRITE_TRADITIONAL    = 1u << 0, /* Chinese: 帥將車馬進後 instead of 帅将车马进后 */
    XQ_WRITE_ASCII_DIGITS   = 1u << 1, /* Chinese: Black files 1..9 instead of
                                          full-width １..９ */
    XQ_WRITE_PAWNS_POPULAR  = 1u << 2, /* Chinese tandem soldiers, popular/DhtmlXQ
                                          style: 4 on a file 前二三四, 5 前二三四五,
                                          several files 前兵九平八 (§1a no. 2) */
    XQ_WRITE_PAWNS_WALKER   = 1u << 3, /* walker style: 4 前二三后, 5 前二三四后;
                                          several files as popular (§1a no. 3) */
    XQ_WRITE_RANKS_FROM_1   = 1u << 4, /* ICCS/UCCI/SAN ranks 1..10 */
    XQ_WRITE_WXF_BN         = 1u << 5, /* WXF letters B/N (ElephantEye) for E/H */
    XQ_WRITE_NO_CHECK_MARK  = 1u << 6, /* SAN: omit XBoard's "+" / "#" suffix */
    XQ_WRITE_3DIGIT_FROM_RIGHT = 1u << 7 /* as XQ_READ_3DIGIT_FROM_RIGHT */
};

/* Bytes a written move needs at most, NUL included. */
enum { XQ_NOTATION_MAX = 32 };

/* Read one move.
 *   pos       position, side to move is the mover; not modified.
 *   text,len  the token, len bytes of UTF-8 (need not be NUL-terminated).
 *   notation  XQ_NOTATION_AUTO or the notation expected.
 *   flags     XQ_READ_* bits.
 *   res       filled in full (never NULL).
 *   msg       a one-line English explanation for every status except
 *             XQ_NOTE_OK (then it is set to ""), e.g. "unknown character
 *             'Z' at column 2", "no horse on file 二 (h)", "h0g2 is illegal:
 *             horse leg blocked", "ambiguous: h2, h7 can both move"; written
 *             NUL-terminated into msg_size bytes (msg may be NULL / 0).
 * Returns res->status.  Cost for full Chinese, WXF and coordinates: one
 * file scan, the target computed by arithmetic, and one xq_move_legality
 * call (none with XQ_READ_UNCHECKED; one per candidate when several pieces
 * fit the text).  Sources: formats.md §1a-§1c, CXA1999 §7.5,
 * xiangqi-basics-notes §9. */
xq_note_status xq_move_read(const xq_position *pos, const char *text, size_t len,
                            xq_notation notation, unsigned flags,
                            xq_note_result *res, char *msg, size_t msg_size);

/* xq_move_read's shortcut alone, for a replay loop: the move xq_move_read
 * (same arguments) would give with XQ_NOTE_OK when the text is the
 * Chinese full form 炮二平五 whose file holds one piece of the kind and the
 * move is legal (nearly every move of a real record); XQ_MOVE_NONE
 * otherwise, and then xq_move_read tells what the text is.  Fills nothing,
 * writes no message: a few table reads, a file scan and the board tests
 * the move's piece needs.  Notations other than AUTO and the Chinese ones
 * always give XQ_MOVE_NONE. */
xq_move xq_move_read_quick(const xq_position *pos, const char *text, size_t len, xq_notation notation,
                           unsigned flags);

/* xq_move_read_quick and xq_play in one step, for a replay loop that
 * keeps the check state *s of *pos along the game (xq_checks): when
 * xq_move_read_quick(pos, text, len, notation, s->in_check[pos->side] ?
 * 0 : XQ_READ_NOT_IN_CHECK) gives a move m, play it as xq_play(pos, m, s)
 * does, store the piece it captured (XQ_NONE for none) in *captured and
 * return m; else return XQ_MOVE_NONE with *pos, *s and *captured
 * untouched (the caller then reads the text with xq_move_read).  Same
 * moves, position and check state as the two calls; the common case
 * (the full form, one piece of the kind on its file, not in check, not a
 * general) costs one look-up of the token in a per-thread cache of
 * decoded tokens (2,048 buckets of two 16-byte slots: 64 KB), a file
 * scan, the board tests of the move and the make. */
xq_move xq_move_read_play(xq_position *pos, const char *text, size_t len, xq_notation notation, xq_checks *s,
                          xq_piece *captured);

/* The decoded full form of a move text, for a reader to keep with the
 * text (xq_node.desc) so that the replay decodes each distinct text once
 * per file instead of once per ply (xq_move_read_play_desc).  A pure
 * function of the bytes text[0..len) (UTF-8, need not be NUL-terminated):
 *   0                 never returned (0 in a node means "not decoded")
 *   XQ_DESC_OTHER     decoded: not the full form (前炮退二, 炮25, 馬325,
 *                     WXF, coordinates, bad text ...)
 *   anything else     the full form 炮二平五 / 馬８進７ / 馬8進7 (8 to 12
 *                     bytes, formats.md §1a), packed: bits
 *                     0-3 the last numeral 1..9, bits 4-5 the action
 *                     (1 進 forward, 2 退 back, 3 平 sideways), bits 6-9 the
 *                     file numeral 1..9 as written, bits 10-12 the piece
 *                     kind (xq_kind 1..7); the other bits 0.
 * Costs a few table look-ups; no position is needed. */
enum { XQ_DESC_OTHER = 0x8000 };
uint16_t xq_move_desc(const char *text, size_t len);

/* xq_move_read_play_desc's result: xq_played (position.h). */

/* xq_move_read_play with the text's xq_move_desc at hand: desc must be
 * xq_move_desc(text, len) or 0 (not known; the text is then decoded as
 * xq_move_read_play does).  Same moves, position and check state as
 * xq_move_read_play, and the piece it stores in *captured returned in
 * .captured; without looking the text up in the cache of decoded tokens
 * when desc is given: the replay passes the desc the PGN reader stored
 * in the node (xq_node.desc).  test_move_desc.c compares the two. */
xq_played xq_move_read_play_desc(xq_position *pos, uint16_t desc, const char *text, size_t len,
                                 xq_notation notation, xq_checks *s);

/* xq_move_read_play_desc for a full-form desc d (one with a bit of
 * XQ_DESC_OTHER - 1 set) in a Chinese notation: the move read from d
 * alone (no text, no dispatch on the notation) and played, with the check
 * state kept in *s; .move XQ_MOVE_NONE (nothing played) where the general
 * path must read the text.  For the replay loop, once a ply (CXA1999
 * §2.2-2.3, §3.1 as xq_move_read_play). */
xq_played xq_move_play_desc(xq_position *pos, unsigned d, xq_checks *s);

/* Start loading the plan xq_move_play_desc will read first for desc d
 * (any value) played by side, into the cache: a hint for a caller that
 * knows the next ply's desc before it plays this one (the replay loop).
 * The plan's load misses the first-level cache on about two plies in
 * three (the reader's tables evict the plans between games) and is the
 * first thing xq_move_play_desc waits for.  No effect on any result.
 * The plans' layout: 8 bytes at xq_desc_plans + 8 * (side * 8192 +
 * (d & 8191) + 7) (notation_chinese.c, which asserts it). */
extern const unsigned char *const xq_desc_plans;
static inline void xq_move_desc_prefetch(xq_color side, unsigned d)
{
    /* in size_t: the scale by 8 folds into the prefetch's address (in
     * unsigned it took one more instruction a ply) */
    __builtin_prefetch(xq_desc_plans + 8 * 7 + 8 * ((size_t)side * 8192 + (d & 8191)));
}

/* The full form of desc d (a bit of XQ_DESC_OTHER - 1 set) whose file
 * holds two or more pieces of its kind, read as xq_move_read does for a
 * Chinese notation (flags in_check ? 0 : XQ_READ_NOT_IN_CHECK) when it
 * answers XQ_NOTE_OK or XQ_NOTE_RESOLVED: the one legal move the text
 * can name; *resolved true for the latter (the plain file where 前/後
 * was needed: chariots, horses, cannons, soldiers, generals; advisors
 * and elephants the action tells apart, CXA1999 §7.5).  XQ_MOVE_NONE for
 * every other answer (none or one piece on the file, no legal
 * candidate, several), *resolved untouched: xq_move_read then says what
 * the text is.  For the replay when it wants no message text: a few
 * hundred instructions, where the full reader's tokens, resolution and
 * message cost over a thousand. */
xq_move xq_move_read_plain_file(const xq_position *pos, unsigned d, bool in_check, bool *resolved);

/* Write legal move m of the side to move in notation (not AUTO) into buf
 * (size bytes; XQ_NOTATION_MAX always suffices) as NUL-terminated UTF-8.
 * Output is unambiguous in pos: Chinese uses 前/後 exactly when another
 * piece of that kind shares the file (for advisors and elephants only when
 * the action would not tell them apart, which legal positions never need),
 * and XQBase pooled numbering (一二三四五) for 4-5 tandem soldiers or
 * soldiers on several files unless XQ_WRITE_PAWNS_* asks otherwise; WXF
 * follows the official tandem rules (P+.4, P3.4, ++.4, 3+.4); abbreviated
 * Chinese falls back to the full form when the short one would not be
 * unique; SAN disambiguates like XBoard's CoordsToAlgebraic.
 * Returns the length in bytes (without NUL), or 0 when m does not move a
 * piece of the side to move, cannot be expressed, or buf is too small. */
size_t xq_move_write(const xq_position *pos, xq_move m, xq_notation notation,
                     unsigned flags, char *buf, size_t size);

/* Recognise the notation of a token by its shape alone (no position):
 * XQ_NOTATION_CHINESE (any Chinese form; _ABBR / _3DIGIT for those shapes),
 * WXF, ICCS, UCCI or SAN; XQ_NOTATION_AUTO when it fits none. */
xq_notation xq_notation_detect(const char *text, size_t len);

/* Lower-case name of a notation ("auto", "chinese", "abbr", "3digit", "wxf",
 * "iccs", "ucci", "san"); static storage. */
const char *xq_notation_name(xq_notation n);

/* Parse such a name (case-insensitive; also "chinese-abbr", "xboard",
 * "uci"); returns false for an unknown name. */
bool xq_notation_from_name(const char *name, xq_notation *out);

/* Notation named by a record's Format tag (formats.md §1e: "Chinese", the
 * default, "WXF" or "ICCS"; also any name xq_notation_from_name takes);
 * XQ_NOTATION_AUTO for NULL, "" or an unknown value. */
xq_notation xq_notation_from_format_tag(const char *value);

/* Short English phrase for a status, e.g. "ambiguous"; static storage. */
const char *xq_note_status_str(xq_note_status st);

#endif
