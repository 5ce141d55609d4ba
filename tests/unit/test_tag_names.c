/* test_tag_names.c - the record reader's tag-name set and the window
 * walker's tag-line helpers (pgn_read.c): the table of usual names (KNOWN,
 * KNOWN_FROM, known_name, known_at), the set of a record's names (bits
 * for the usual names, a hash set for the others: names_seen, tag_added),
 * the name-byte table NAME_FAST, and the value scans plain_run and
 * tag_close, each against a plain definition.  Records read with and
 * without the fast paths are compared in test_tag_fast.c.
 *
 * The reader's and the input's sources are included to reach them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#include "input.c"
#include "pgn_read.c"

/* Deterministic pseudo-random numbers (xorshift64). */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint32_t rnd(uint32_t n)
{
    return xqt_xorshift(&rng_state, n);
}

/* Equal but for ASCII case (the definition of the set's name identity). */
static bool ieq(const char *a, size_t na, const char *b, size_t nb)
{
    if (na != nb) return false;
    for (size_t i = 0; i < na; i++) {
        unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
        if (x >= 'A' && x <= 'Z') x = (unsigned char)(x + 32);
        if (y >= 'A' && y <= 'Z') y = (unsigned char)(y + 32);
        if (x != y) return false;
    }
    return true;
}

/* The table: letters only, lengths and patterns right, grouped by length
 * as KNOWN_FROM says, FEN, Result and Format where K_FEN, K_RESULT and
 * K_FORMAT say, no name twice. */
static void test_known_table(void **state)
{
    (void)state;
    assert_true(KNOWN_COUNT <= 64);   /* known_seen is 64 bits */
    assert_int_equal(KNOWN_FROM[KNOWN_MAX], KNOWN_COUNT);
    assert_string_equal(KNOWN[K_FEN].name, "FEN");
    assert_string_equal(KNOWN[K_RESULT].name, "Result");
    assert_string_equal(KNOWN[K_FORMAT].name, "Format");
    for (size_t k = 0; k < KNOWN_COUNT; k++) {
        const char *s = KNOWN[k].name;
        size_t n = strlen(s);
        assert_int_equal(KNOWN[k].len, n);
        assert_true(n >= 3 && n < KNOWN_MAX && n + 2 <= sizeof KNOWN[k].pat);
        for (size_t i = 0; i < n; i++)
            assert_true((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z'));
        assert_memory_equal(KNOWN[k].pat, s, n);
        assert_memory_equal(KNOWN[k].pat + n, " \"", 2);
        for (size_t i = n + 2; i < sizeof KNOWN[k].pat; i++) assert_int_equal(KNOWN[k].pat[i], 0);
        assert_true(k >= KNOWN_FROM[n] && k < KNOWN_FROM[n + 1]);
        for (size_t j = 0; j < k; j++) assert_false(ieq(s, n, KNOWN[j].name, KNOWN[j].len));
    }
    for (size_t n = 0; n < KNOWN_MAX; n++) assert_true(KNOWN_FROM[n] <= KNOWN_FROM[n + 1]);
    /* fast_tag keeps the start FEN without plain_run: it must be plain */
    unsigned char line[sizeof START_FEN + 3 + XQ_INPUT_PAD] = START_FEN_TEXT "\"]\n";
    assert_int_equal(plain_run(line), strlen(START_FEN));
    assert_ptr_equal(tag_close(line + strlen(START_FEN)), line + strlen(START_FEN) + 2);
}

/* A random name: a usual one with its case changed now and then, one
 * with a byte changed, or random bytes (letters, digits, odd bytes). */
static size_t random_name(char *buf)
{
    size_t n;
    switch (rnd(4)) {
    case 0:
    case 1: {
        const struct known *k = &KNOWN[rnd(KNOWN_COUNT)];
        n = k->len;
        memcpy(buf, k->name, n);
        if (rnd(3) == 0) buf[rnd((uint32_t)n)] ^= 0x20;
        if (rnd(6) == 0) buf[rnd((uint32_t)n)] = (char)rnd(256);
        if (rnd(8) == 0) n = rnd((uint32_t)n + 1);
        break;
    }
    case 2:
        n = rnd(18);
        for (size_t i = 0; i < n; i++) buf[i] = "abcEFNRTdeflnoprtuvx"[rnd(20)];
        break;
    default:
        n = rnd(18);
        for (size_t i = 0; i < n; i++) buf[i] = (char)rnd(256);
        break;
    }
    for (size_t i = 0; i < n; i++)   /* (names hold no NUL: decoded text has none) */
        if (!buf[i]) buf[i] = 'x';
    buf[n] = '\0';
    return n;
}

/* known_name against a walk of the table with ieq; known_at against
 * the pattern's bytes. */
static void test_known_name(void **state)
{
    (void)state;
    char buf[64];
    for (int iter = 0; iter < 300000; iter++) {
        size_t n = random_name(buf);
        int want = -1;
        for (size_t k = 0; k < KNOWN_COUNT; k++)
            if (ieq(buf, n, KNOWN[k].name, KNOWN[k].len)) want = (int)k;
        bool exact = false;
        int id = known_name(buf, n, &exact);
        assert_int_equal(id, want);
        if (id >= 0) assert_int_equal(exact, memcmp(buf, KNOWN[id].name, n) == 0);
        /* the line's rest after '[': the name, then ' "' or something else */
        unsigned char line[40];
        memset(line, 0, sizeof line);
        memcpy(line, buf, n);
        if (rnd(4)) memcpy(line + n, " \"", 2);
        else line[n] = (unsigned char)rnd(256), line[n + 1] = (unsigned char)rnd(256);
        for (size_t k = 0; k < KNOWN_COUNT; k++) {
            bool at = memcmp(line, KNOWN[k].pat, KNOWN[k].len + 2u) == 0;
            assert_int_equal(known_at(line, (unsigned)k), at);
        }
    }
}

/* NAME_FAST against its definition: ASCII but NUL, not NAME_END, not '\n'. */
static void test_name_fast(void **state)
{
    (void)state;
    for (unsigned b = 0; b < 256; b++)
        assert_int_equal(NAME_FAST[b] != 0, b >= 1 && b < 0x80 && NAME_STOP[b] == 0 && b != '\n');
}

/* The set of a record's names against a list: random records of names
 * (usual ones in any case, others, many of them so that the hash set
 * grows), names_seen before each tag is added and for random probes. */
static void test_name_set(void **state)
{
    (void)state;
    xq_reader *r = calloc(1, sizeof *r);
    assert_non_null(r);
    xq_game g;
    xq_game_init(&g);
    char buf[64];
    for (int rec = 0; rec < 3000; rec++) {
        xq_game_reset(&g);
        assert_int_equal(g.fen_col, 0);
        names_clear(r);
        r->fen_tag = 0;   /* (as record_begin) */
        size_t count = rnd(8) == 0 ? rnd(300) : rnd(20);
        for (size_t t = 0; t < count; t++) {
            size_t n = random_name(buf);
            bool want = false;
            for (size_t i = 0; i < g.tag_count; i++)
                if (ieq(g.tags[i].name, strlen(g.tags[i].name), buf, n)) want = true;
            assert_int_equal(names_seen(r, &g, buf, n), want);
            assert_true(xq_game_add_tag(&g, buf, n, "v", 1));
            bool fen_before = r->fen_tag != 0;
            const char *line = "[Name \"v\"]";   /* (the value's place: column 8) */
            tag_added(r, &g, n, line, line + 7, true);
            /* the first FEN tag, any case, and its value's place */
            if (!r->fen_tag) assert_false(ieq(buf, n, "FEN", 3));
            if (!fen_before && r->fen_tag) {
                assert_int_equal(g.fen_col, 8);
                assert_true(g.fen_verbatim);
            }
            /* a probe */
            n = random_name(buf);
            want = false;
            for (size_t i = 0; i < g.tag_count; i++)
                if (ieq(g.tags[i].name, strlen(g.tags[i].name), buf, n)) want = true;
            assert_int_equal(names_seen(r, &g, buf, n), want);
        }
        if (r->fen_tag) assert_true(ieq(g.tags[r->fen_tag - 1].name, 3, "FEN", 3));
    }
    names_clear(r);
    free(r->names);
    free(r);
    xq_game_free(&g);
}

/* plain_run and tag_close against their definitions, on lines that end
 * with a '\n' and are followed by XQ_INPUT_PAD bytes, as in the window. */
static void test_value_scan(void **state)
{
    (void)state;
    unsigned char buf[160 + XQ_INPUT_PAD];
    for (int iter = 0; iter < 300000; iter++) {
        size_t n = rnd(120);
        for (size_t i = 0; i < n; i++) {
            switch (rnd(8)) {
            case 0: buf[i] = (unsigned char)rnd(256); break;
            case 1: buf[i] = "\"\\\0\x7F\x80\x01]\r"[rnd(8)]; break;
            default: buf[i] = (unsigned char)(0x20 + rnd(0x5F)); break;
            }
            if (buf[i] == '\n') buf[i] = 'x';
        }
        if (rnd(2) && n >= 3) {   /* a closing quote, ']' and maybe '\r' at the end */
            size_t c = n - 2 - rnd(2);
            buf[c] = '"';
            buf[c + 1] = ']';
            if (c + 2 < n) buf[c + 2] = '\r';
        }
        buf[n] = '\n';
        for (size_t i = n + 1; i < sizeof buf; i++) buf[i] = (unsigned char)rnd(256);
        size_t want = 0;
        while (buf[want] != 0 && buf[want] < 0x80 && buf[want] != '"' && buf[want] != '\\' &&
               buf[want] != '\n')
            want++;
        assert_int_equal(plain_run(buf), want);
        for (size_t c = 0; c <= n; c++) {
            const unsigned char *e = NULL;
            if (buf[c] == '"' && buf[c + 1] == ']') {
                if (buf[c + 2] == '\n') e = buf + c + 2;
                else if (buf[c + 2] == '\r' && buf[c + 3] == '\n') e = buf + c + 3;
            }
            assert_ptr_equal(tag_close(buf + c), e);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_table), cmocka_unit_test(test_known_name),
        cmocka_unit_test(test_name_fast),   cmocka_unit_test(test_name_set),
        cmocka_unit_test(test_value_scan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
