/* xq_huge_alloc (huge_pages.h): zeroed, writable to its last byte,
 * aligned to a huge page where the system has them (Linux), NULL for 0
 * bytes and for sizes that cannot be had; xq_huge_free(NULL) harmless. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "huge_pages.h"

enum { HUGE = 2 << 20 };

/* Sizes below, at and past a huge page: every byte zero, every byte
 * writable, the start aligned (where huge pages can be asked for). */
static void zeroed_and_aligned(void **state)
{
    (void)state;
    const size_t sizes[] = {1, 4096, HUGE - 1, HUGE, HUGE + 1, 3 * HUGE + 12345};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        unsigned char *p = xq_huge_alloc(n);
        assert_non_null(p);
#if defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS)
        assert_int_equal((uintptr_t)p % HUGE, 0);
#endif
        size_t nonzero = 0;
        for (size_t i = 0; i < n; i++) nonzero += p[i] != 0;
        assert_int_equal(nonzero, 0);
        memset(p, 0xA5, n);
        assert_int_equal(p[n - 1], 0xA5);
        xq_huge_free(p, n);
    }
}

/* A second allocation after a free is zeroed again (a fresh mapping,
 * not the old bytes). */
static void zeroed_again(void **state)
{
    (void)state;
    for (int round = 0; round < 3; round++) {
        unsigned char *p = xq_huge_alloc(HUGE);
        assert_non_null(p);
        assert_int_equal(p[0], 0);
        assert_int_equal(p[HUGE / 2], 0);
        assert_int_equal(p[HUGE - 1], 0);
        memset(p, 0x5A, HUGE);
        xq_huge_free(p, HUGE);
    }
}

/* 0 bytes and a size past the address space: NULL; freeing NULL: nothing. */
static void refused(void **state)
{
    (void)state;
    assert_null(xq_huge_alloc(0));
    assert_null(xq_huge_alloc(SIZE_MAX - 5));
    xq_huge_free(NULL, HUGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(zeroed_and_aligned),
        cmocka_unit_test(zeroed_again),
        cmocka_unit_test(refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
