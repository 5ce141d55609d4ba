/* test_fuzz_regressions - every seed and every saved crasher of the fuzz
 * targets (tests/fuzz/corpus/NAME/, tests/fuzz/regressions/NAME/) run once
 * through the target's entry point, without libFuzzer, so `make check`
 * and `make asan` keep found crashes fixed.  The targets' own checks
 * abort on a broken promise; sanitizers report the rest. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define LLVMFuzzerTestOneInput fuzz_pgn_one
#include "../fuzz/fuzz_pgn.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_xml_one
#include "../fuzz/fuzz_xml.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_notation_one
#include "../fuzz/fuzz_notation.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_fen_one
#include "../fuzz/fuzz_fen.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_binary_one
#include "../fuzz/fuzz_binary.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_jsonl_one
#include "../fuzz/fuzz_jsonl.c"
#undef LLVMFuzzerTestOneInput

typedef int (*entry_fn)(const uint8_t *, size_t);

/* Run every file of dir through fn; returns how many. */
static int run_dir(const char *dir, entry_fn fn)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        fseek(f, 0, SEEK_SET);
        /* exact size, so a read past the input is caught */
        uint8_t *buf = malloc(size ? (size_t)size : 1);
        assert_non_null(buf);
        assert_int_equal(fread(buf, 1, (size_t)size, f), (size_t)size);
        fclose(f);
        fn(buf, (size_t)size);
        free(buf);
        n++;
    }
    closedir(d);
    return n;
}

static void run_target(const char *name, entry_fn fn)
{
    char dir[256];
    snprintf(dir, sizeof dir, "tests/fuzz/corpus/%s", name);
    int seeds = run_dir(dir, fn);
    snprintf(dir, sizeof dir, "tests/fuzz/regressions/%s", name);
    int crashers = run_dir(dir, fn);
    print_message("%s: %d seeds, %d saved crashers\n", name, seeds, crashers);
    assert_true(seeds > 0);
}

static void pgn(void **state) { (void)state; run_target("pgn", fuzz_pgn_one); }
static void xml(void **state) { (void)state; run_target("xml", fuzz_xml_one); }
static void notation(void **state) { (void)state; run_target("notation", fuzz_notation_one); }
static void fen(void **state) { (void)state; run_target("fen", fuzz_fen_one); }
static void binary(void **state) { (void)state; run_target("binary", fuzz_binary_one); }
static void jsonl(void **state) { (void)state; run_target("jsonl", fuzz_jsonl_one); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pgn),
        cmocka_unit_test(xml),
        cmocka_unit_test(notation),
        cmocka_unit_test(fen),
        cmocka_unit_test(binary),
        cmocka_unit_test(jsonl),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
