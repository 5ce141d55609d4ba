/* test_name_put.c - xq_name_put (game.h), the one rule by which every
 * text diagnostic writes a file name: every byte alone in a name, and
 * names of random bytes read back by the rule's inverse (the $'...'
 * reading of a shell) give the name again, a name without a control
 * character byte for byte; C1 controls in UTF-8 (C2 80-C2 9F) escaped as
 * two octal bytes, other C2 pairs and GBK/Big5 bytes as they are. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"

/* xq_name_put(s) as a malloc'd string. */
static char *shown(const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    xq_name_put(f, s);
    assert_int_equal(fclose(f), 0);
    return buf;
}

static bool control(unsigned char c) { return (c >= 1 && c <= 31) || c == 127; }

/* Whether s holds a control of the rule: C0, DEL, or a UTF-8 C1 pair. */
static bool any_control(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (control(*p) || (p[0] == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F)) return true;
    return false;
}

/* The rule read backwards (for a name that had a control character). */
static size_t unescape(const char *s, char *out)
{
    size_t n = 0;
    while (*s) {
        if (*s != '\\') { out[n++] = *s++; continue; }
        s++;
        switch (*s) {
        case '\\': out[n++] = '\\'; s++; break;
        case 't': out[n++] = '\t'; s++; break;
        case 'n': out[n++] = '\n'; s++; break;
        case 'r': out[n++] = '\r'; s++; break;
        default:
            assert_true(s[0] >= '0' && s[0] <= '7' && s[1] >= '0' && s[1] <= '7' && s[2] >= '0' && s[2] <= '7');
            out[n++] = (char)((s[0] - '0') * 64 + (s[1] - '0') * 8 + (s[2] - '0'));
            s += 3;
        }
    }
    out[n] = '\0';
    return n;
}

static void each_byte(void **state)
{
    (void)state;
    for (int b = 1; b < 256; b++) {
        char name[4] = {'a', (char)b, 'b', '\0'};
        char *got = shown(name);
        char want[16];
        if (b == '\t') strcpy(want, "a\\tb");
        else if (b == '\n') strcpy(want, "a\\nb");
        else if (b == '\r') strcpy(want, "a\\rb");
        else if (control((unsigned char)b)) snprintf(want, sizeof want, "a\\%03ob", b);
        else memcpy(want, name, 4);   /* a backslash alone stays one */
        assert_string_equal(got, want);
        for (const char *p = got; *p; p++) assert_false(control((unsigned char)*p));
        free(got);
    }
    char *got = shown("\033[31m\\x\\");   /* with a control, every backslash doubled */
    assert_string_equal(got, "\\033[31m\\\\x\\\\");
    free(got);
    got = shown("");
    assert_string_equal(got, "");
    free(got);
}

/* U+0080-U+009F (C2 80-C2 9F) are escaped byte by byte; U+00A0 and up,
 * a C2 alone and a 0x9B after another lead byte are not. */
static void c1_controls(void **state)
{
    (void)state;
    for (int b = 0x80; b <= 0xBF; b++) {
        char name[5] = {'a', (char)0xC2, (char)b, 'b', '\0'};
        char *got = shown(name);
        char want[16];
        if (b <= 0x9F) snprintf(want, sizeof want, "a\\302\\%03ob", b);
        else memcpy(want, name, 5);
        assert_string_equal(got, want);
        free(got);
    }
    char *got = shown("a\xC2\x9B" "31mb\\");   /* CSI: then a backslash doubles too */
    assert_string_equal(got, "a\\302\\23331mb\\\\");
    free(got);
    got = shown("\xC2");   /* a lead byte at the end */
    assert_string_equal(got, "\xC2");
    free(got);
    got = shown("\xE4\x9B\xA0\xC3\x9B");   /* 0x9B as a trail byte of other characters */
    assert_string_equal(got, "\xE4\x9B\xA0\xC3\x9B");
    free(got);
}

static void random_names(void **state)
{
    (void)state;
    uint32_t x = 12345;
    for (int i = 0; i < 20000; i++) {
        char name[40], back[200];
        size_t n = 1 + i % 30;
        bool any = false;
        for (size_t k = 0; k < n; k++) {
            x ^= x << 13; x ^= x >> 17; x ^= x << 5;
            unsigned c = i % 3 ? 1 + x % 255 : (unsigned char)"ab\\\033\n中\xC2\x9B"[x % 10];
            if (!c) c = 'z';
            name[k] = (char)c;
        }
        name[n] = '\0';
        any = any_control(name);
        char *got = shown(name);
        if (!any) {
            assert_string_equal(got, name);
        } else {
            assert_null(strchr(got, '\n'));
            assert_int_equal(unescape(got, back), strlen(name));
            assert_string_equal(back, name);
        }
        free(got);
    }
}

/* xq_name_printf(fmt, ...) as a malloc'd string. */
static char *printed(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *printed(const char *fmt, ...)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    va_list ap;
    va_start(ap, fmt);
    xq_name_vprintf(f, fmt, ap);
    va_end(ap);
    assert_int_equal(fclose(f), 0);
    return buf;
}

/* xq_name_dup and xq_name_printf (the record text of the tools' text
 * outputs) are xq_name_put of the same text: random names, names of every
 * length around the printf copy's 1024 bytes, and a whole line formatted
 * from parts (one text: a control in one part escapes the backslash of
 * another). */
static void dup_and_printf(void **state)
{
    (void)state;
    uint32_t x = 777;
    static char name[3000];
    for (int i = 0; i < 4000; i++) {
        size_t n = i < 3000 ? (size_t)(i % 40) : 1000 + (size_t)(i - 3000) % 1000 + (i % 7 == 0 ? 1000 : 0);
        for (size_t k = 0; k < n; k++) {
            x ^= x << 13; x ^= x >> 17; x ^= x << 5;
            unsigned c = (unsigned char)"ab\\\033\t\n\x7f\xC2\x9B\xC2\xA0\xE4\xB8\xAD"[x % 14];
            name[k] = (char)(i % 5 ? c : 'a' + x % 26);
        }
        name[n] = '\0';
        char *want = shown(name), *dup = xq_name_dup(name), *pr = printed("%s", name);
        assert_non_null(dup);
        assert_string_equal(dup, want);
        assert_string_equal(pr, want);
        free(want);
        free(dup);
        free(pr);
    }
    char *line = printed("game %d (%s), ply %d (%s): %s", 1, "e\033[1mx", 2, "\xE8\xB1\xA1", "a\\b");
    assert_string_equal(line, "game 1 (e\\033[1mx), ply 2 (\xE8\xB1\xA1): a\\\\b");
    free(line);
    line = printed("game %d (%s): %s", 1, "e", "a\\b");
    assert_string_equal(line, "game 1 (e): a\\b");
    free(line);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_byte),
        cmocka_unit_test(c1_controls),
        cmocka_unit_test(random_names),
        cmocka_unit_test(dup_and_printf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
