/* keep.h - the records xq-validate --keep writes, as one database: the
 * first record kept sets its form (the records' own bytes, or one XML
 * document of our format) and, by the first kept text not all ASCII, its
 * encoding; later records follow both (transcoded, or written through the
 * PGN writer when their bytes cannot be), with a warning for what is lost.
 * Split as the pipeline runs (pipeline.h): xq_keep_game in a worker,
 * xq_keep_account in input order. */
#ifndef XQ_KEEP_H
#define XQ_KEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "input.h"
#include "pipeline.h"

/* The form of the kept records, set by the first one kept: their original
 * bytes (a PGN-style record), or one XML document of our format (a record
 * of XML, JSON Lines, DhtmlXQ or a binary format: XQF, CBR/CBL, whose
 * bytes run together would not read back as their games).
 * A record of the other kind in a later file is converted to it, so that
 * the output stays one database. */
typedef enum { XQ_KEEP_UNSET, XQ_KEEP_BYTES, XQ_KEEP_XML } xq_keep_form;

/* What the records kept so far set for the next ones, read by the workers
 * of a file as it was when the file's run began.  Kept bytes are one
 * encoding: the first kept text that is not all ASCII sets it (ASCII is
 * the same in every encoding, so an ASCII record sets nothing and needs no
 * change), and text of another encoding in a later file is transcoded to
 * it (within one file every text record has the file's encoding, so the
 * file that sets it needs none).  A byte-order mark is written only at the
 * very start of the output.  Zero-initialise. */
typedef struct {
    xq_keep_form form;
    xq_encoding enc;           /* of the kept text: XQ_ENC_AUTO while it is all ASCII */
    bool written;              /* some bytes were kept (a later BOM is left out) */
} xq_keep_state;

/* One kept game on its way from the worker to the in-order step (the
 * pipeline's slot->user, zeroed): an XML <game> element waits there,
 * since the XML document's start must come before the first one and only
 * the in-order step knows which that is. */
typedef struct {
    char *xml;                 /* malloc'd (open_memstream), or NULL */
    size_t len;
    bool bytes;                /* the game was kept as its bytes (in slot->out) */
    bool wrote;                /* text went to slot->out (bytes, or PGN) */
    xq_encoding enc;           /* that text's encoding when not all ASCII, else XQ_ENC_AUTO */
    bool lost;                 /* some of its characters written '?': one warning, told in slot->err */
    bool kept;                 /* xq_keep_game took the game (for the caller's count) */
    bool result_fixed;         /* its Result was an error the fix mended (fix_results) */
} xq_kept_game;

/* In a worker: write slot's game, which slot->replay replayed and the
 * caller keeps, in the form and encoding ks gives (XQ_KEEP_UNSET: its
 * own): its bytes (with the Result fixed when fix_results and the board
 * decides it: xq_replay_board_decides) or PGN into slot->out, or an XML
 * <game> into kept for xq_keep_account.  Characters the output's encoding
 * lacks are written '?' with a warning in slot->err (FILE:LINE:COL of the
 * first); a PGN record whose moves it cannot spell is written by the PGN
 * writer in the characters it has, with a warning.  A record is never
 * dropped: when memory runs out slot->game.out_of_memory is set (the run
 * then fails: pipeline.h). */
void xq_keep_game(const xq_keep_state *ks, xq_slot *slot, xq_kept_game *kept, bool fix_results);

/* In input order, after the slot's output went out: what kept (then
 * zeroed) sets in *ks (the form, the encoding, whether bytes were
 * written), and its XML element to out, after the document's start when
 * it is the first.  Returns the warnings to count (1 when characters were
 * lost, else 0). */
unsigned xq_keep_account(xq_keep_state *ks, xq_kept_game *kept, FILE *out);

/* After the last record: the XML document's end to out when the kept
 * records are XML, else nothing. */
void xq_keep_end(const xq_keep_state *ks, FILE *out);

#endif
