/* zin.h - read a file descriptor, inflating gzip when the data starts with
 * its magic bytes (never decided by name).  Our own loop around zlib's
 * inflate, because gzread ignores whatever follows the last gzip member
 * without a word, and a tool that must never lose a game has to say so.
 *
 * Several gzip members in a row are read as one stream (as gzip -d does).
 * Bytes after the last member that are not another member are an error
 * ("N bytes after the end of the gzip data at byte offset X"), reported
 * after all the decompressed data was delivered (xq_zin_trailing tells it
 * apart); so is a stream cut short.  A member whose CRC-32 or length does
 * not match its data (the data damaged, where cannot be known) has its
 * data delivered and the next members read, as zcat does, and the first
 * such fault is told at the end ("gzip data damaged: the CRC-32 of the
 * member ending at byte offset X does not match ...", xq_zin_trailing too):
 * withholding the member's last output lost its last games while the
 * rest of it, as suspect, was kept.
 *
 * Gzip data from a regular file of 128 KiB or more is inflated ahead by a
 * thread of its own (up to 1 MiB, in 256 KiB blocks), so that inflating
 * overlaps with the caller's parsing; smaller files and pipes are inflated
 * in the caller's thread.  Plain data is read straight into the caller's
 * buffer.  One xq_zin is used by one thread at a time.
 */
#ifndef XQ_ZIN_H
#define XQ_ZIN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct xq_zin xq_zin;

/* Take ownership of fd (closed by xq_zin_close).  NULL when out of memory
 * (fd is closed then too). */
xq_zin *xq_zin_open(int fd);

/* Read up to room bytes of (decompressed) data into dst.  Returns the
 * count (> 0; it may be short of room), 0 at the end of the data, or -1
 * on an error: a read error, corrupt or truncated gzip data, or bytes
 * after the gzip data; xq_zin_error says which in one line.  The end and
 * an error stay (every later call returns the same).  Everything before a
 * cut or trailing bytes is delivered first; of corrupt data, the output of
 * the inflate run that fails is not (a run ends where the caller's room,
 * a 64 KiB chunk of input or a gzip member ends). */
ssize_t xq_zin_read(xq_zin *z, void *dst, size_t room);

/* The message of the last -1; "" before any. */
const char *xq_zin_error(const xq_zin *z);

/* Whether the last -1 was for bytes after the gzip data (not another
 * member) or a member's failed check: every byte of the data had been
 * delivered before it, so no record was cut; the file is still not clean
 * (gzip -t fails on it).  False for a read error, corrupt or cut data. */
bool xq_zin_trailing(const xq_zin *z);

/* Whether the data was gzip (known after the first read). */
bool xq_zin_gzipped(const xq_zin *z);

/* Whether the data is inflated by a thread of its own (gzip from a
 * regular file of 128 KiB or more; known after the first read): that
 * thread keeps a CPU busy beside the caller's. */
bool xq_zin_threaded(const xq_zin *z);

void xq_zin_close(xq_zin *z);

#endif
