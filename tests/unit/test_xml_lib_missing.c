/* test_xml_lib_missing.c - XML input when libxml2 cannot be loaded.
 *
 * This binary compiles xml_lib.c itself with a SONAME that names no
 * library (so the linker takes its xq_libxml2_load, not libxq.a's): the
 * load fails with dlerror()'s message, the same on every call (no
 * retry), an XML file gets one error "PATH: cannot read XML: MESSAGE"
 * from xq_reader_open, as unreadable input does, and other input reads
 * as before. */
#define XQ_LIBXML2_SONAME "libxq-test-no-such-libxml2.so.0"
#include "../../src/lib/xml_lib.c"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "pgn_read.h"
#include "test_util.h"

#define XML_FILE "tests/data/convert-sample.out.xml"
#define PGN_FILE "tests/data/convert-sample.pgn"

/* The load fails, naming the library, and stays failed. */
static void load_fails_with_dlerror(void **state)
{
    const char *why = NULL, *again = NULL;
    assert_null(xq_libxml2_load(&why));
    assert_non_null(why);
    assert_non_null(strstr(why, XQ_LIBXML2_SONAME));   /* dlerror: "NAME: cannot open shared object file..." */
    assert_null(xq_libxml2_load(&again));
    assert_string_equal(again, why);
    assert_null(xq_libxml2_load(NULL));
}

/* An XML file: one precise error at open; the PGN next to it reads. */
static void xml_input_is_unreadable_others_read(void **state)
{
    const char *why = NULL;
    xq_libxml2_load(&why);
    char err[512], want[600];
    assert_null(xq_reader_open(XML_FILE, NULL, err, sizeof err));
    snprintf(want, sizeof want, "%s: cannot read XML: %s", XML_FILE, why);
    assert_string_equal(err, want);
    xq_game g[16];
    int n = read_path(PGN_FILE, g, 16, NULL);
    assert_int_equal(n, 4);
    assert_true(g[0].main.count > 0);
    free_all(g, n);
    assert_null(xq_reader_open(XML_FILE, NULL, err, sizeof err));   /* and again */
    assert_string_equal(err, want);
}

int main(int argc, char **argv)
{
    (void)argc;
    xqt_chdir_to_root(argv[0], XML_FILE);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(load_fails_with_dlerror),
        cmocka_unit_test(xml_input_is_unreadable_others_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
