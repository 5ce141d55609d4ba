/* test_reader_run.c - the record reader's shortcuts of round ten against
 * the plain definitions and the general way (pgn_read.c, input.c):
 *  - pair_run's guess of a line's "N. " (NUMBER_PREFIX, every number
 *    0..999 against snprintf) and runs whose numbers do not count up by
 *    one (jumps, leading zeros, "0. ", numbers of 4 digits and more);
 *  - the word cache without empty matches (pair_probe: no test of len; an
 *    empty slot's key is never a word of its set, WORD_KEY_EMPTY0),
 *    pair_probe against word_find_in on tables filled at random;
 *  - tag_run's line compare (known_line, KNOWN_TAG) against known_at and
 *    a plain compare, start_fen_at against memcmp;
 *  - tag_run in records whose tags break its runs (other names, names of
 *    another case, repeated names, blank lines between tags, tags after
 *    the moves, a record without tags).
 * Every file is read with and without the fast paths, game by game, field
 * by field (same_game: diagnostics included). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#include "input.c"
#include "pgn_read.c"
#include "reader_both.h"

#include <unistd.h>

static uint64_t rng_state = 0x2545F4914F6CDD1Du;
static uint32_t rnd(uint32_t n)
{
    return xqt_xorshift(&rng_state, n);
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- pieces -------------------------------------------------------------- */

/* NUMBER_PREFIX[n]: "n. " in its low bytes, zeros after it, its length in
 * byte 6 and the shift 64 - 8 x length in byte 7. */
static void test_number_prefix(void **state)
{
    (void)state;
    for (unsigned n = 0; n < NUMBER_PREFIXES; n++) {
        char want[16] = {0};
        int len = snprintf(want, sizeof want, "%u. ", n);
        uint64_t t = NUMBER_PREFIX[n];
        unsigned char got[8];
        memcpy(got, &t, 8);
        assert_int_equal(got[6], len);
        assert_int_equal(got[7], 64 - 8 * len);
        assert_memory_equal(got, want, (size_t)len);
        for (int i = len; i < 6; i++) assert_int_equal(got[i], 0);
        /* the compare pair_run makes: equal under the shift, and not for a
         * line that differs in any of those bytes */
        uint64_t x;
        memcpy(&x, want, 8);
        assert_true(((x ^ t) << (t >> 56)) == 0);
        for (int i = 0; i < len; i++) {
            char bad[8];
            memcpy(bad, want, 8);
            bad[i] ^= 1 + (char)rnd(127);
            memcpy(&x, bad, 8);
            assert_false(((x ^ t) << (t >> 56)) == 0);
        }
    }
}

/* No empty slot's key is a word that hashes to its set, under either
 * table size: words_new's keys against word_hash. */
static void test_empty_keys(void **state)
{
    (void)state;
    const size_t sizes[] = {WORD_SLOTS_FIRST, WORD_SLOTS};
    for (size_t k = 0; k < COUNT(sizes); k++) {
        size_t n = sizes[k], mask = n - 1;
        struct word_slot *t = words_new(n);
        assert_non_null(t);
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(t[i].len, 0);
            assert_true((word_hash(t[i].key) & mask & ~(size_t)1) != (i & ~(size_t)1));
        }
        words_free(t, n);
    }
}

/* pair_probe against word_find_in: tables of both sizes filled at random
 * (as the reader fills them, word_victim_in), then asked for stored
 * words, absent words, 0, the empty slots' keys and words of one set. */
static void test_pair_probe(void **state)
{
    (void)state;
    const size_t sizes[] = {WORD_SLOTS_FIRST, WORD_SLOTS};
    for (size_t k = 0; k < COUNT(sizes); k++) {
        size_t n = sizes[k], mask = n - 1, bmask = (mask & ~(size_t)1) * sizeof(struct word_slot);
        struct word_slot *t = words_new(n);
        assert_non_null(t);
        uint64_t keys[3000];
        size_t nk = 0;
        for (int fill = 0; fill < 4; fill++) {
            for (size_t i = 0; i < (n >> 2) && nk < COUNT(keys); i++) {
                uint64_t w = (uint64_t)rnd(1u << 31) << 33 ^ (uint64_t)rnd(1u << 31) << 1 ^ rnd(2);
                if (w == 0 || word_find_in(t, mask, w)) continue;
                struct word_slot *v = word_victim_in(t, mask, w);
                v->key = w;
                v->len = (uint16_t)(1 + rnd(15));
                keys[nk++] = w;
            }
            for (size_t i = 0; i < nk; i++)
                assert_ptr_equal(pair_probe(t, bmask, keys[i]), word_find_in(t, mask, keys[i]));
            for (int i = 0; i < 20000; i++) {
                uint64_t w = (uint64_t)rnd(1u << 31) << 32 ^ rnd(1u << 31);
                if (i % 4 == 0) w &= 0xFFFF;   /* small words: hash near 0 */
                assert_ptr_equal(pair_probe(t, bmask, w), word_find_in(t, mask, w));
            }
            const uint64_t odd[] = {0, WORD_KEY_EMPTY0, UINT64_MAX, 0x2020202020202020u,
                                    0x0A0A0A0A0A0A0A0Au};
            for (size_t i = 0; i < COUNT(odd); i++)
                assert_ptr_equal(pair_probe(t, bmask, odd[i]), word_find_in(t, mask, odd[i]));
        }
        words_free(t, n);
    }
}

/* known_line against known_at (its rest) and a plain compare: every
 * KNOWN name on lines written as it, in another case, cut, with another
 * byte after it. */
static void test_known_line(void **state)
{
    (void)state;
    for (size_t k = 0; k < KNOWN_COUNT; k++) {
        const struct known_tag *kt = &KNOWN_TAG[k];
        assert_string_equal(kt->name, KNOWN[k].name);
        assert_int_equal(kt->len, KNOWN[k].len);
        assert_int_equal(kt->mask, (1u << (KNOWN[k].len + 3)) - 1);
        assert_int_equal((uintptr_t)kt->line % 16, 0);
        for (size_t j = 0; j < KNOWN_COUNT; j++) {
            for (int variant = 0; variant < 8; variant++) {
                unsigned char line[48];
                memset(line, 0, sizeof line);
                int n = snprintf((char *)line, sizeof line, "[%s \"%s\"]\n", KNOWN[j].name,
                                 variant & 1 ? "v" : "");
                if (variant == 2) line[1 + rnd(KNOWN[j].len)] ^= 0x20;   /* case */
                if (variant == 3) line[KNOWN[j].len + 1] = '\t';
                if (variant == 4) line[KNOWN[j].len + 2] = '\'';
                if (variant == 5) line[0] = '{';
                if (variant == 6) line[rnd((unsigned)n)] = (unsigned char)rnd(256);
                bool plain = memcmp(line, "[", 1) == 0 &&
                             memcmp(line + 1, KNOWN[k].pat, KNOWN[k].len + 2u) == 0;
                assert_int_equal(known_line(line, kt), plain);
                assert_int_equal(known_line(line, kt), line[0] == '[' && known_at(line + 1, (unsigned)k));
            }
        }
    }
}

/* start_fen_at against memcmp, on the value and on it with each byte
 * changed. */
static void test_start_fen(void **state)
{
    (void)state;
    unsigned char v[128];
    memset(v, 0, sizeof v);
    memcpy(v, START_FEN_TEXT "\"]\n", sizeof START_FEN + 2);
    size_t n = sizeof START_FEN + 1;
    assert_true(start_fen_at(v));
    for (size_t i = 0; i < n; i++) {
        unsigned char keep = v[i];
        v[i] = (unsigned char)(keep ^ (1 + rnd(255)));
        assert_int_equal(start_fen_at(v), memcmp(v, START_FEN_TEXT "\"]", n) == 0);
        v[i] = keep;
    }
}

/* ---- files --------------------------------------------------------------- */

static const char *const MOVES4[] = {
    "炮二平五", "馬８進７", "車一平二", "兵七進一", "帥五平四", "相三進五", "傌二進三", "車九平八",
    "卒３進１", "前炮平四", "馬二進三", "炮８平５", "車１進１", "仕四進五", "將５平４", "士４進５",
};

/* The number written before a line of moves: mostly the next one, now
 * and then another (a jump back or ahead, leading zeros, 0, past 999). */
static void number(out_file *o, unsigned n)
{
    char num[32];
    switch (rnd(40)) {
    case 0: snprintf(num, sizeof num, "0%u. ", n); break;
    case 1: snprintf(num, sizeof num, "%u. ", n + 1 + rnd(3)); break;
    case 2: snprintf(num, sizeof num, "%u. ", n > 2 ? n - 2 : 0); break;
    case 3: snprintf(num, sizeof num, "0. "); break;
    case 4: snprintf(num, sizeof num, "%u. ", 990 + rnd(20)); break;
    case 5: snprintf(num, sizeof num, "%u. ", 9990 + rnd(20)); break;
    case 6: snprintf(num, sizeof num, "%u.  ", n); break;
    default: snprintf(num, sizeof num, "%u. ", n); break;
    }
    put(o, num);
}

/* Tags in the usual order, now and then one left out, of another case,
 * repeated, unknown, after a blank line, or the start FEN. */
static void tags(out_file *o)
{
    static const char *const N[] = {"Game", "Event", "Round", "Date", "Site", "Red",
                                    "RedTeam", "Black", "BlackTeam", "Result", "ECCO", "FEN"};
    static const char *const V[] = {"", "C55", "1-0", "全國象棋個人賽", "張三", "4/17/1996",
                                    "a b", "象棋 1 象棋"};
    if (rnd(30) == 0) return;   /* a record without tags */
    for (size_t i = 0; i < COUNT(N); i++) {
        unsigned odd = rnd(40);
        if (odd == 0) continue;
        if (odd == 1) put(o, "\n");   /* a blank line inside the tags */
        put(o, "[");
        if (odd == 2) put(o, "game");
        else if (odd == 3) put(o, N[rnd((unsigned)i + 1)]);   /* (maybe repeated) */
        else if (odd == 4) put(o, "Opening");
        else if (odd == 5) put(o, "Xyz");
        else put(o, N[i]);
        put(o, " \"");
        if (i == COUNT(N) - 1 && rnd(4)) put(o, START_FEN_TEXT);
        else put(o, V[rnd(COUNT(V))]);
        put(o, "\"]");
        put(o, rnd(30) ? "\n" : "\r\n");
    }
}

static void record(out_file *o)
{
    tags(o);
    if (rnd(6)) put(o, "\n");
    unsigned lines = rnd(15) == 0 ? 100 + rnd(1000) : rnd(60);
    for (unsigned i = 0; i < lines; i++) {
        number(o, i + 1);
        put(o, MOVES4[rnd(COUNT(MOVES4))]);
        put(o, " ");
        put(o, MOVES4[rnd(COUNT(MOVES4))]);
        put(o, rnd(50) ? "\n" : "\r\n");
    }
    if (rnd(3) == 0) {
        number(o, lines + 1);
        put(o, MOVES4[rnd(COUNT(MOVES4))]);
        put(o, "\n");
    }
    if (rnd(20) == 0) put(o, "[Event \"after the moves\"]\n");
    put(o, rnd(4) ? "1-0\n" : "0-1\n");
    if (rnd(4)) put(o, "\n");
}

static void record_of(out_file *o, int i, int n)
{
    (void)i;
    (void)n;
    record(o);
}

static void test_big5(void **state)
{
    (void)state;
    for (int iter = 0; iter < 12; iter++)
        xqt_check_encoded(XQ_ENC_BIG5, "CP950", 60 + (int)rnd(300), record_of);
}

static void test_gbk(void **state)
{
    (void)state;
    for (int iter = 0; iter < 6; iter++)
        xqt_check_encoded(XQ_ENC_GBK, "GB18030", 60 + (int)rnd(300), record_of);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_number_prefix), cmocka_unit_test(test_empty_keys),
        cmocka_unit_test(test_pair_probe),    cmocka_unit_test(test_known_line),
        cmocka_unit_test(test_start_fen),     cmocka_unit_test(test_big5),
        cmocka_unit_test(test_gbk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
