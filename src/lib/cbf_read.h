/* cbf_read.h - 象棋橋 (CCBridge) CBF records: XML, one game a file, read
 * through xml_read.c's streaming libxml2 reader, which hands a document
 * whose root element is <ChineseChessRecord> (no namespace) here instead
 * of refusing it (xq_xml_reader_next).
 *
 * The format (no published spec; from the two files of the public corpus,
 * cchess-testdata test.cbf and test2.cbf, and public readers:
 * walker8088/cchess read_cbf.py and loader_cbf.py, a training loader
 * derived from bupticybee/icyElephant for RecordResult; see formats.md):
 *   <ChineseChessRecord Version="1.0">
 *     <Head> one element a field: Name, URL, From, ContestType, Contest,
 *       Round, Group, Table, Date, Site, TimeRule, Red, RedTeam, RedTime,
 *       RedRating, Black, BlackTeam, BlackTime, BlackRating, Referee,
 *       Recorder, Commentator, CommentatorURL, Creator, CreatorURL,
 *       DateCreated, DateModified, ECCO, RecordType, RecordKind,
 *       RecordResult (0 unknown, 1 Red wins, 2 Black wins, 3 draw; 4 as
 *       in CBR, read as unknown), ResultType, FEN; empty ones written as
 *       <X />.
 *     <MoveList> <Move value="XY-XY"> a ply, X the file 0-8 from Red's
 *       left, Y the rank 0-9 counted from Black's side (so ICCS rank 9-Y):
 *       "77-47" is h2e2; its text (CDATA) the comment after the move.  The
 *       first <Move value="00-00"> stands for the start: its text is the
 *       comment before the first move.  end="1" marks the last move.
 *   No variations: neither file nor any reader seen stores one.
 *
 * Mapping to the game model: Contest -> tag Event; Name -> Title,
 * Commentator -> Annotator, TimeRule -> TimeControl (the names the CBR and
 * XQF readers give these fields); Red, Black, RedTeam, BlackTeam, Round,
 * Date, Site, ECCO, FEN -> the tags of those names; RecordResult -> tag
 * Result ("*", "1-0", "0-1", "1/2-1/2"); every other non-empty Head field
 * -> a tag of its CBF name (From, DateModified, RecordType ...), in file
 * order.  Moves -> main-line nodes whose text is the UCCI
 * move ("h2e2", which the replay reads as ICCS), line = the <Move>
 * element's line, column 1; comments with their blanks at both ends
 * dropped (the XML layout), NULL when empty.  raw stays empty, as for our
 * XML (xq-validate --keep writes the game through the XML writer). */
#ifndef XQ_CBF_READ_H
#define XQ_CBF_READ_H

#include <stdbool.h>
#include <stdint.h>

#include "game.h"
#include "xml_lib.h"

/* Is n the root element of a CBF record: <ChineseChessRecord> in no
 * namespace? */
bool xq_cbf_root(const xmlNode *n);

/* Read the CBF record whose root element is root (as far as libxml2 built
 * it: a cut document gives the elements whose start tag was complete)
 * into g, reset first: index, first_line (the root's line), file (path,
 * copied), encoding UTF-8, tags, main line, comments.  lx is the loaded
 * libxml2 (xml_lib.h).  Damage is a diagnostic at the element's line
 * (column 1; libxml2 gives no column for nodes), the game otherwise kept:
 * a value that is not "XY-XY" with digits, a square off the board, a move
 * from a square to itself after the first (errors: the moves before are
 * kept, the rest of the line is dropped); a RecordResult other than 0-4
 * (warning, read as "*"); no <MoveList> (error: a game without moves); an
 * unknown element in the root or in <MoveList>, moves after the one marked
 * end="1" (warnings, ignored).  An empty <MoveList> is a game with no
 * moves. */
void xq_cbf_read_game(const xq_libxml2 *lx, const xmlNode *root, xq_game *g, const char *path, uint64_t index);

#endif
