/* test_tags_drop.c - xq_tags_drop_repeats (write_internal.h), which finds
 * a repeated tag name through a table of hashes, against its definition
 * searched plainly: names read the same when, each character that the
 * format cannot hold written '_', an empty name "_", and (PGN, XBoard)
 * ASCII case ignored and White read as Red, they are equal.  Random names
 * from a small alphabet with case variants, bad characters, empty names
 * and Red/White, at sizes below and above the table's threshold, in both
 * the PGN and the JSON Lines forms; the note that names the dropped ones. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#include "write_internal.h"

/* name as written, by the definition (xq_tags_drop_repeats' comment) */
static void written(const char *name, bool (*bad)(unsigned char), bool any_case, char *out, size_t size)
{
    if (any_case && (!strcasecmp(name, "Red") || !strcasecmp(name, "White"))) name = "red";
    if (!*name) name = "_";
    size_t k = 0;
    for (; *name && k + 1 < size; name++) {
        unsigned char c = (unsigned char)*name;
        if (bad(c)) c = '_';
        if (any_case && c >= 'A' && c <= 'Z') c = (unsigned char)(c - 'A' + 'a');
        out[k++] = (char)c;
    }
    out[k] = '\0';
}

static void random_name(uint64_t *seed, char *out)
{
    static const char *const whole[] = {"Red", "WHITE", "white", "red", "", "Event", "event", "E vent", "E_vent"};
    static const char alphabet[] = "aAbB_ [\"\\\t";
    if (xqt_rnd(seed, 3) == 0) {
        strcpy(out, whole[xqt_rnd(seed, sizeof whole / sizeof *whole)]);
        return;
    }
    unsigned n = 1 + xqt_rnd(seed, 3);
    for (unsigned i = 0; i < n; i++) out[i] = alphabet[xqt_rnd(seed, sizeof alphabet - 1)];
    out[n] = '\0';
}

static void against_definition(void **state)
{
    (void)state;
    uint64_t seed = 0x7a65;
    static char names[400][8];
    static xq_tag tag[400];
    const xq_tag *tags[400];
    for (int round = 0; round < 300; round++) {
        size_t n = 1 + xqt_rnd(&seed, round % 2 ? 400 : 12);   /* (below and above the table's 8) */
        for (size_t i = 0; i < n; i++) {
            random_name(&seed, names[i]);
            tag[i].name = names[i];
            tag[i].value = "v";
            tags[i] = &tag[i];
        }
        for (int form = 0; form < 2; form++) {
            bool (*bad)(unsigned char) = form ? xq_jsonl_name_bad : xq_pgn_name_bad;
            bool any_case = !form;
            /* the plain way: keep a tag when no kept one reads the same */
            const xq_tag *want[400];
            size_t nwant = 0;
            for (size_t i = 0; i < n; i++) {
                char a[32], b[32];
                written(tag[i].name, bad, any_case, a, sizeof a);
                bool again = false;
                for (size_t k = 0; k < nwant && !again; k++) {
                    written(want[k]->name, bad, any_case, b, sizeof b);
                    again = !strcmp(a, b);
                }
                if (!again) want[nwant++] = &tag[i];
            }
            const xq_tag *got[400];
            memcpy(got, tags, n * sizeof *got);
            xq_write_report rep;
            memset(&rep, 0, sizeof rep);
            size_t ngot = xq_tags_drop_repeats(got, n, bad, any_case, &rep, form ? "jsonl" : "pgn");
            assert_int_equal(ngot, nwant);
            for (size_t k = 0; k < ngot; k++) assert_ptr_equal(got[k], want[k]);
            assert_int_equal(rep.note[0] != 0, ngot < n);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(against_definition),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
