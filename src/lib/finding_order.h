/* finding_order.h - a game's findings in input order, for the reports.
 *
 * A replay's findings come from two producers: the record reader's
 * (XQ_FIND_SYNTAX: bad bytes, a tag value not closed, "input ends early")
 * first, then the replay's own (tags such as the FEN, moves, the result).
 * Told in that order, messages about one line came out of order (17:6
 * tag value not closed, 17:15 input ends early, 17:7 bad FEN).  The
 * reports merge the two by place instead. */
#ifndef XQ_FINDING_ORDER_H
#define XQ_FINDING_ORDER_H

#include "replay.h"

/* The indices of r's findings (0..r->nfindings) into order[0..r->nfindings)
 * (room for XQ_REPLAY_MAX_FINDINGS): the reader's findings (XQ_FIND_SYNTAX)
 * merged into the replay's by their line and column, each producer's
 * findings in the order it found them; a reader's finding goes before a
 * replay's at the same place (it was read first), and the replay's
 * findings about the whole game (line 0: the result, which the reports
 * place at the record's first line) stay after every placed finding of
 * the reader.  The replay's own order is kept as it is (its findings are
 * in the order of its work: a warning about moves after a repetition
 * verdict comes after those of the moves before). */
void xq_findings_in_order(const xq_replay *r, int *order);

#endif
