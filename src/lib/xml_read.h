/* xml_read.h - reading our XML game format (schema src/xq-game.rng,
 * written by write_xml.c) with libxml2, behind the reader API of
 * pgn_read.h, which dispatches here for XQ_FMT_XML.
 *
 * Parsing is streaming (xmlTextReader, one <game> subtree in memory at a
 * time) and safe: no network (XML_PARSE_NONET), no entity substitution,
 * no DTD loading or validation, libxml2's default size and depth limits
 * (no XML_PARSE_HUGE).  A document with a DOCTYPE is refused outright
 * (our format has none), so external entities, external DTDs and entity
 * expansion bombs are never processed and nothing is fetched.
 *
 * Mapping to the game model: <tag name=N>V</tag> -> tag N = V; <fen> ->
 * tag FEN; a leading <comment> -> the line's comment; <move> -> a node
 * whose text is the iccs attribute ("h2e2", read as UCCI) when present,
 * else the text attribute; nags -> node nags; <comment> in a move -> node
 * comment; <variation> -> node variation; result -> the movetext result.
 * Nodes carry the element's line (column 1).  raw/raw_len stay empty:
 * an XML record has no standalone original bytes (xq-validate --keep
 * writes such games through the XML writer, game_io.h); its lines can be
 * kept as the game's source (xq_xml_reader_keep_source), to place a
 * character in.
 */
#ifndef XQ_XML_READ_H
#define XQ_XML_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "game.h"
#include "input.h"

/* The XML namespace of the format. */
#define XQ_XML_NS "urn:xq-tools:game:1"

typedef struct xq_xml_reader xq_xml_reader;

/* Start reading XML from in, which stays owned by the caller and must
 * outlive the reader; nothing of it must have been consumed (peeking is
 * fine).  Returns NULL with a one-line message in err (errsz bytes) when
 * the document is refused ("PATH:LINE: XML document type declarations
 * (DOCTYPE) are refused ...", or "PATH: cannot read XML: REASON" when
 * libxml2 cannot be loaded: xml_lib.h) or on out-of-memory. */
xq_xml_reader *xq_xml_reader_open(xq_input *in, char *err, size_t errsz);

/* Read the next <game> into g (reset first).  Returns 1, 0 at the end of
 * the document, or -1 with the message in err: a refused construct, or
 * the first well-formedness error (libxml2's message, "PATH:LINE:COL: XML
 * error: ..."; a document that ends inside an element says which) or
 * input error (xq_input_error's "PATH: reason"; the data ends there for
 * libxml2).  Nothing after such an error is read (libxml2 cannot resume a
 * document that is not well formed), but nothing read before it is lost:
 * first every <game> libxml2 built before it comes out (1) -- the one the
 * error falls in as far as it was read (its elements whose start tag was
 * complete), with an error diagnostic at the error's line and column,
 * "XML error: MSG; the record is cut here" or "input ends early (REASON);
 * the record is cut here" -- and then -1, on this and every later call.
 * A refused document (DOCTYPE, an entity reference, another root
 * element) gives -1 at once.  A document whose root is <ChineseChessRecord>
 * (no namespace) is a 象棋橋 CBF record, one game read by cbf_read.h's
 * xq_cbf_read_game, with the same handling of errors.  An error in a <game> start tag or between
 * games cuts no game.  Unknown elements and moves without text become
 * diagnostics in g. */
int xq_xml_reader_next(xq_xml_reader *x, xq_game *g, char *err, size_t errsz);

/* Whether a game read from here on keeps the lines of its <game> element
 * (from its first line to the last that holds its text) in its source
 * (game.h), when they are UTF-8: the caller reads raw bytes
 * (xq_read_options.no_raw false).  Off by default. */
void xq_xml_reader_keep_source(xq_xml_reader *x, bool keep);

/* Free the reader (NULL is fine); the input is not closed. */
void xq_xml_reader_close(xq_xml_reader *x);

#endif
