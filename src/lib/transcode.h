/* transcode.h - a record's bytes from one text encoding to another
 * (xq-validate --keep: records of files in different encodings written as
 * one database in one encoding), through glibc iconv as the readers
 * (input.c) and the writers' encoders (write_common.c) do. */
#ifndef XQ_TRANSCODE_H
#define XQ_TRANSCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "input.h"

/* What xq_transcode could not carry over.  Plain value. */
typedef struct {
    unsigned bad;          /* byte sequences that are no character of the source encoding
                              (a cut one at the end too), one byte each: written U+FFFD
                              (as the readers decode them) in UTF-8, '?' in Big5 or GBK */
    unsigned unencodable;  /* characters the target encoding lacks, written '?' as
                              xq-convert --encoding writes them */
    size_t first_lost;     /* source byte offset of the first of either, SIZE_MAX if none */
} xq_transcode_report;

/* Does s[0..n) hold only ASCII bytes (text every supported encoding
 * writes the same)? */
bool xq_text_ascii(const char *s, size_t n);

/* Write text s[0..n) in encoding from to out in encoding to (neither
 * XQ_ENC_AUTO).  Source decoding as the readers: Big5 as CP950, GBK as
 * GB18030; target as the writers: Big5 as CP950, GBK as strict GBK (so a
 * GB18030-only character is one the target lacks).  from == to copies the
 * bytes unchanged.  Line endings and ASCII bytes are unchanged.  Fills
 * *rep (rep may be NULL).  out NULL: nothing is written, *rep is filled
 * all the same (what a transcoding would lose, without a sink).  Returns
 * false when a converter cannot be opened (nothing written then), memory
 * runs out, or on a write error. */
bool xq_transcode(FILE *out, const char *s, size_t n, xq_encoding from, xq_encoding to,
                  xq_transcode_report *rep);

/* Where byte at of text s[0..n) in encoding enc is: *line, lines after
 * the one s starts (0: that one), and *col, its 1-based column in
 * characters from its line's start (a Big5 or GBK pair or GB18030
 * four-byte sequence one character, UTF-8 by its lead bytes, a BOM at s's
 * start none), as diagnostics count columns.  at <= n. */
void xq_text_place(const char *s, size_t n, size_t at, xq_encoding enc, unsigned long *line,
                   unsigned long *col);

#endif
