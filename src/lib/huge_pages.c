/* Zeroed memory in huge pages (see huge_pages.h). */
#include "huge_pages.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

enum { HUGE_PAGE = 2 << 20 };

/* bytes rounded up to whole huge pages */
static size_t huge_round(size_t bytes) { return (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE; }

#if defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS)
void *xq_huge_alloc(size_t bytes)
{
    size_t size = huge_round(bytes), len = size + HUGE_PAGE;
    if (!bytes || size < bytes || len < size) return NULL;
    /* one huge page more than needed, trimmed at both ends to an aligned
     * start: the kernel backs only aligned 2 MiB ranges with huge pages */
    uint8_t *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    size_t lead = (HUGE_PAGE - ((uintptr_t)p & (HUGE_PAGE - 1))) & (HUGE_PAGE - 1);
    if (lead) munmap(p, lead);
    munmap(p + lead + size, HUGE_PAGE - lead);   /* (lead 0: a whole huge page) */
    p += lead;
    madvise(p, size, MADV_HUGEPAGE);   /* a hint: refused, the pages are small */
    return p;
}

void xq_huge_free(void *p, size_t bytes)
{
    if (p) munmap(p, huge_round(bytes));
}
#else
void *xq_huge_alloc(size_t bytes) { return bytes ? calloc(1, bytes) : NULL; }

void xq_huge_free(void *p, size_t bytes)
{
    (void)bytes;
    free(p);
}
#endif
