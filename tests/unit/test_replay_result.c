/* test_replay_result.c - xq_result_parse's shortcut for the common
 * results ("1-0", "0-1", "1/2-1/2", "*": replay.c result_common) against
 * the plain walk of every spelling it stands in front of (the table as
 * it was before the shortcut, copied here), on the table's words, their
 * near misses and many random strings of the characters results use. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "replay.h"
#include "test_util.h"

/* The reference: blanks trimmed, then each spelling compared. */
static bool reference_parse(const char *text, xq_result *out)
{
#define W(s, r) {s, sizeof s - 1, r}
    static const struct { const char *text; size_t len; xq_result r; } words[] = {
        W("1-0", XQ_RESULT_RED), W("0-1", XQ_RESULT_BLACK), W("1/2-1/2", XQ_RESULT_DRAW),
        W("*", XQ_RESULT_UNKNOWN), W("1:0", XQ_RESULT_RED), W("0:1", XQ_RESULT_BLACK),
        W("½-½", XQ_RESULT_DRAW), W("0.5-0.5", XQ_RESULT_DRAW), W("=", XQ_RESULT_DRAW),
        W("１－０", XQ_RESULT_RED), W("０－１", XQ_RESULT_BLACK), W("１／２－１／２", XQ_RESULT_DRAW),
        W("红胜", XQ_RESULT_RED), W("紅勝", XQ_RESULT_RED), W("红先胜", XQ_RESULT_RED), W("紅先勝", XQ_RESULT_RED),
        W("黑胜", XQ_RESULT_BLACK), W("黑勝", XQ_RESULT_BLACK), W("红负", XQ_RESULT_BLACK), W("紅負", XQ_RESULT_BLACK),
        W("和棋", XQ_RESULT_DRAW), W("和局", XQ_RESULT_DRAW), W("和", XQ_RESULT_DRAW),
        W("未知", XQ_RESULT_UNKNOWN), W("?", XQ_RESULT_UNKNOWN),
    };
#undef W
    *out = XQ_RESULT_NONE;
    if (!text) return false;
    while (*text == ' ') text++;
    size_t n = strlen(text);
    while (n && text[n - 1] == ' ') n--;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (words[i].len == n && !memcmp(words[i].text, text, n)) {
            *out = words[i].r;
            return true;
        }
    }
    return false;
}

static void same_parse(const char *text)
{
    xq_result a = (xq_result)99, b = (xq_result)99;
    bool ra = xq_result_parse(text, &a), rb = reference_parse(text, &b);
    if (ra != rb || a != b) fail_msg("\"%s\": parse %d %d, reference %d %d", text ? text : "(null)", ra, a, rb, b);
}

static void test_result_words(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "1-0", "0-1", "1/2-1/2", "*", " 1-0", "1-0 ", "  0-1  ", " * ", "1-00", "1-", "1", "0", "", "0-", "0-10",
        "1/2-1/", "1/2-1/2x", "1/2-1/22", "1/2", "1/", "1/2-", "1/2-1", "**", "*-", "1:0", "0:1", "½-½", "0.5-0.5",
        "=", "１－０", "０－１", "１／２－１／２", "红胜", "紅勝", "红先胜", "紅先勝", "黑胜", "黑勝", "红负", "紅負",
        "和棋", "和局", "和", "未知", "?", "1-0\t", "-1", "2-0", "1/2-1/2 ", " 1/2-1/2", "1/3-1/2", "0/2-1/2", NULL,
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) same_parse(texts[i]);
}

static void test_result_random(void **state)
{
    (void)state;
    static const char alphabet[] = "01/2-* :.=?x";
    uint64_t rng = 12345;
    for (int k = 0; k < 200000; k++) {
        char text[12];
        unsigned n = xqt_rnd(&rng, 10);
        for (unsigned i = 0; i < n; i++) text[i] = alphabet[xqt_rnd(&rng, sizeof alphabet - 1)];
        text[n] = '\0';
        same_parse(text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_result_words),
        cmocka_unit_test(test_result_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
