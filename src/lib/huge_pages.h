/* Zeroed memory in huge pages where the system gives them for the asking,
 * for the large tables the replay and the reader touch all over (the line
 * memo, the judge's memo, the reader's word cache): on a VM each 4 KiB
 * first-touch fault costs several microseconds, and a table read at random
 * places costs a TLB miss a read in 4 KiB pages. */
#ifndef XQ_HUGE_PAGES_H
#define XQ_HUGE_PAGES_H

#include <stddef.h>

/* bytes (> 0) of zeroed memory, aligned to a huge page (2 MiB) and hinted
 * to be backed by huge pages (Linux: transparent huge pages in "madvise"
 * or "always" mode; elsewhere, or when refused, ordinary pages), taking
 * whole huge pages (bytes rounded up).  A fresh mapping: nothing to clear.
 * Returns NULL when out of memory.  Owned by the caller: release it with
 * xq_huge_free(p, bytes), the same bytes. */
void *xq_huge_alloc(size_t bytes);

/* Release what xq_huge_alloc(bytes) returned (NULL: nothing). */
void xq_huge_free(void *p, size_t bytes);

#endif
