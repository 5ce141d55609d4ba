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
 * an XML record has no standalone original bytes.
 */
#ifndef XQ_XML_READ_H
#define XQ_XML_READ_H

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
 * (DOCTYPE) are refused ...") or on out-of-memory. */
xq_xml_reader *xq_xml_reader_open(xq_input *in, char *err, size_t errsz);

/* Read the next <game> into g (reset first).  Returns 1, 0 at the end of
 * the document, or -1 on an I/O error, a well-formedness error (libxml2's
 * message, "PATH:LINE:COL: XML error: ...") or a refused construct, with
 * the message in err; reading cannot go on after -1.  Unknown elements and
 * moves without text become diagnostics in g. */
int xq_xml_reader_next(xq_xml_reader *x, xq_game *g, char *err, size_t errsz);

/* Free the reader (NULL is fine); the input is not closed. */
void xq_xml_reader_close(xq_xml_reader *x);

#endif
