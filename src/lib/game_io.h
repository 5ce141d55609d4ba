/* game_io.h - writing a kept record (xq-validate --keep): its original
 * bytes, edited where asked (--fix-results), or, for a record that has
 * none (XML input) or must match records kept before it in another form,
 * through a writer (write.h), with the result fixed the same way. */
#ifndef XQ_GAME_IO_H
#define XQ_GAME_IO_H

#include <stdio.h>

#include "game.h"
#include "replay.h"
#include "write.h"

/* Write g->raw to out with the value of its Result tag replaced by result
 * (an ASCII PGN token such as "1-0"), or a Result tag added after the last
 * tag line (or before everything when the record has no tags).  The rest of
 * the bytes are written unchanged, in the file's own encoding: a tag line
 * starts with '[' at the start of a line, which in Big5 and GBK can only be
 * a single-byte character (lead bytes are >= 0x81).  Returns false on a
 * write error. */
bool xq_write_raw_with_result(FILE *out, const xq_game *g, const char *result);

/* Write g, which r replayed (xq_replay_game), in format (XQ_OUT_XML: one
 * <game> element of our format, for inside xq_write_begin/xq_write_end;
 * XQ_OUT_PGN: a PGN record), in Chinese notation, UTF-8, with comments and
 * variations, as xq-convert writes it.  With fixed other than
 * XQ_RESULT_NONE the game's result is fixed first, as
 * xq_write_raw_with_result does: the Result tag's value replaced (the
 * first one, name matched case-insensitively) or a Result tag added after
 * the others, and the movetext result (XML: the result attribute) set; g
 * itself is not changed.  Returns false on a write error or when memory
 * for the fixed tags could not be had (then nothing is written).  Moves
 * that cannot be translated are kept as the writers keep them (write.h),
 * not an error here. */
bool xq_write_kept(FILE *out, const xq_game *g, const xq_replay *r, xq_out_format format, xq_result fixed);

/* xq_write_kept with the writer's options opt (format, notation and its
 * flags, encoding: e.g. traditional moves for a PGN record that will go
 * out in Big5). */
bool xq_write_kept_opt(FILE *out, const xq_game *g, const xq_replay *r, const xq_write_options *opt,
                       xq_result fixed);

#endif
