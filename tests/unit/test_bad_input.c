/* test_bad_input.c - diagnostics that name the right thing: an unknown
 * character in a move is reported at its own column with its own
 * character (also before the first Chinese character of a Chinese move),
 * and a UTF-16 file (either byte order, with or without a byte order mark)
 * is refused as UTF-16, not read as GBK or Big5 mojibake. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "test_util.h"

#include "input.h"
#include "notation.h"
#include "pgn_read.h"

/* xq_move_read of text at the start position: a bad character, message msg. */
static void bad_char(const char *text, const char *msg)
{
    xq_position p;
    xq_position_start(&p);
    xq_note_result r;
    char got[256];
    xq_move_read(&p, text, strlen(text), XQ_NOTATION_AUTO, 0, &r, got, sizeof got);
    if (r.status != XQ_NOTE_BAD_CHAR || strcmp(got, msg))
        fail_msg("'%s': %s '%s', expected '%s'", text, xq_note_status_str(r.status), got, msg);
}

static void unknown_character_named(void **state)
{
    (void)state;
    bad_char("X８平７", "unknown character 'X' at column 1");   /* was '平' at column 3 */
    bad_char("?二平五", "unknown character '?' at column 1");   /* was '二' */
    bad_char("炮二X五", "unknown character 'X' at column 3");
    bad_char("炮Z平五", "unknown character 'Z' at column 2");
    /* ASCII moves keep their own reading: the character no notation has */
    bad_char("h2好2", "unknown character '好' (U+597D) at column 3");
    bad_char("h2e$", "unknown character '$' at column 4");
}

/* The reader on bytes: its error text (reader open or first record). */
static void refused_as_utf16(const void *bytes, size_t n)
{
    char path[64], err[256] = "";
    save_tmp(bytes, n, path);
    xq_reader *rd = xq_reader_open(path, NULL, err, sizeof err);
    if (rd) {
        xq_game g;
        xq_game_init(&g);
        int rc = xq_reader_next(rd, &g);
        if (rc >= 0) fail_msg("UTF-16 read as %d records (first byte 0x%02X)", rc, ((const unsigned char *)bytes)[0]);
        snprintf(err, sizeof err, "%s", xq_reader_error(rd));
        xq_game_free(&g);
        xq_reader_close(rd);
    }
    unlink(path);
    if (!strstr(err, "UTF-16 input: convert it to UTF-8")) fail_msg("error '%s'", err);
}

/* text (ASCII and Chinese, UTF-8) as UTF-16 in byte order be, with a BOM
 * or not, into out; returns its length. */
static size_t to_utf16(const char *text, bool be, bool bom, unsigned char *out, size_t cap)
{
    iconv_t cd = iconv_open(be ? "UTF-16BE" : "UTF-16LE", "UTF-8");
    assert_true(cd != (iconv_t)-1);
    size_t k = 0;
    if (bom) {
        out[k++] = be ? 0xFE : 0xFF;
        out[k++] = be ? 0xFF : 0xFE;
    }
    char *in = (char *)text, *o = (char *)out + k;
    size_t inleft = strlen(text), outleft = cap - k;
    assert_true(iconv(cd, &in, &inleft, &o, &outleft) != (size_t)-1);
    iconv_close(cd);
    return cap - outleft;
}

static void utf16_refused(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "[Event \"x\"]\n[Result \"1-0\"]\n\n1. 炮二平五 馬8進7 1-0\n",
        "1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ *\n",
        "1. h2e2 h9g7 *\n",
    };
    unsigned char buf[1024];
    for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++)
        for (int be = 0; be < 2; be++)
            for (int bom = 0; bom < 2; bom++) refused_as_utf16(buf, to_utf16(texts[t], be, bom, buf, sizeof buf));
}

/* What the test must not catch: text in the encodings read is never taken
 * for UTF-16 (no NUL), even short or all ASCII. */
static void text_not_utf16(void **state)
{
    (void)state;
    static const char *const texts[] = {"1. h2e2 *\n", "a\n", ("\xEF\xBB\xBF" "1. 炮二平五 *\n"), "1. 炮二平五 *\n",
                                        "[Event \"\xB6\xB6\"]\n1. h2e2 *\n"};
    for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
        xq_game g[2];
        xq_format fmt;
        assert_int_equal(read_tmp_bytes(texts[t], strlen(texts[t]), g, 2, &fmt), 1);
        free_all(g, 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unknown_character_named),
        cmocka_unit_test(utf16_refused),
        cmocka_unit_test(text_not_utf16),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
