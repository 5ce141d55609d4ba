/* game_io.h - writing a record's original bytes, edited where asked.
 * Used by xq-validate --keep --fix-results. */
#ifndef XQ_GAME_IO_H
#define XQ_GAME_IO_H

#include <stdio.h>

#include "game.h"

/* Write g->raw to out with the value of its Result tag replaced by result
 * (an ASCII PGN token such as "1-0"), or a Result tag added after the last
 * tag line (or before everything when the record has no tags).  The rest of
 * the bytes are written unchanged, in the file's own encoding: a tag line
 * starts with '[' at the start of a line, which in Big5 and GBK can only be
 * a single-byte character (lead bytes are >= 0x81).  Returns false on a
 * write error. */
bool xq_write_raw_with_result(FILE *out, const xq_game *g, const char *result);

#endif
