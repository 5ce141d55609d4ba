/* test_json_read.c - the shared JSON reader (json_read.h): values, key
 * order and duplicates, byte offsets, every escape (surrogate pairs,
 * unpaired surrogates, \u0000), each syntax error with its message and
 * offset and whether the text merely ended, the strict mode (number
 * grammar, UTF-8) against the lenient one xq-stats --merge reads with,
 * the depth and value limits (10,000 levels refused without a crash), a
 * document reused across parses, and xq-stats --merge's messages through
 * it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "stats.h"

static const xq_json_options STRICT = {.max_depth = 64, .strict = true};
static const xq_json_options LENIENT = {.max_depth = 64, .strict = false};

/* Parse text (strict) and return the root; fails the test on an error. */
static const xq_json_value *ok(xq_json_doc *d, const char *text)
{
    xq_json_error e;
    bool parsed = xq_json_parse(d, text, strlen(text), &STRICT, &e);
    if (!parsed) fprintf(stderr, "%s: %s at %zu\n", text, e.msg, e.offset);
    assert_true(parsed);
    return &d->root;
}

/* Parse n bytes of text with opt and expect the error msg at offset. */
static void bad_n(const char *text, size_t n, const xq_json_options *opt, const char *msg, size_t offset,
                  bool at_end)
{
    xq_json_doc d = {0};
    xq_json_error e;
    assert_false(xq_json_parse(&d, text, n, opt, &e));
    assert_string_equal(e.msg, msg);
    assert_int_equal(e.offset, offset);
    assert_int_equal(e.at_end, at_end);
    assert_int_equal(d.root.type, XQ_JSON_NULL);
    xq_json_doc_free(&d);
}

static void bad(const char *text, const char *msg, size_t offset, bool at_end)
{
    bad_n(text, strlen(text), &STRICT, msg, offset, at_end);
}

/* A one-string document's decoded bytes. */
static void string_is(const char *json, const char *bytes, size_t len)
{
    xq_json_doc d = {0};
    const xq_json_value *v = ok(&d, json);
    assert_int_equal(v->type, XQ_JSON_STRING);
    assert_int_equal(v->len, len);
    assert_memory_equal(v->str, bytes, len);
    assert_int_equal(v->str[len], '\0');
    xq_json_doc_free(&d);
}

static void test_values(void **state)
{
    (void)state;
    xq_json_doc d = {0};
    const xq_json_value *v = ok(&d, " {\"b\": [1, -2.5e+3, true, false, null], \"a\": \"x\", \"b\": {}} ");
    assert_int_equal(v->type, XQ_JSON_OBJECT);
    assert_int_equal(v->offset, 1);
    assert_int_equal(v->len, 3);
    assert_string_equal(v->keys[0], "b");
    assert_string_equal(v->keys[1], "a");
    assert_string_equal(v->keys[2], "b");   /* duplicates kept, in order */
    const xq_json_value *arr = xq_json_get(v, "b");   /* the first of them */
    assert_ptr_equal(arr, &v->items[0]);
    assert_int_equal(arr->type, XQ_JSON_ARRAY);
    assert_int_equal(arr->offset, 7);
    assert_int_equal(arr->len, 5);
    assert_int_equal(arr->items[0].type, XQ_JSON_NUMBER);
    assert_string_equal(arr->items[0].str, "1");
    assert_int_equal(arr->items[0].offset, 8);
    assert_string_equal(arr->items[1].str, "-2.5e+3");
    assert_int_equal(arr->items[1].offset, 11);
    assert_int_equal(arr->items[2].type, XQ_JSON_TRUE);
    assert_int_equal(arr->items[3].type, XQ_JSON_FALSE);
    assert_int_equal(arr->items[4].type, XQ_JSON_NULL);
    assert_int_equal(arr->items[4].offset, 33);
    assert_string_equal(xq_json_get(v, "a")->str, "x");
    assert_int_equal(v->items[2].type, XQ_JSON_OBJECT);
    assert_int_equal(v->items[2].len, 0);
    assert_null(xq_json_get(v, "c"));
    assert_null(xq_json_get(arr, "b"));   /* not an object */
    assert_null(xq_json_get(NULL, "b"));
    /* the same document parses again, the old tree gone */
    v = ok(&d, "[[], [[]], \"\"]");
    assert_int_equal(v->type, XQ_JSON_ARRAY);
    assert_int_equal(v->len, 3);
    assert_int_equal(v->items[1].items[0].type, XQ_JSON_ARRAY);
    assert_int_equal(v->items[2].len, 0);
    xq_json_doc_free(&d);
    assert_string_equal(xq_json_type_name(XQ_JSON_OBJECT), "an object");
    assert_string_equal(xq_json_type_name(XQ_JSON_NUMBER), "a number");
}

static void test_escapes(void **state)
{
    (void)state;
    string_is("\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t\"", "\" \\ / \b \f \n \r \t", 15);
    string_is("\"\\u00e9\\u4E2D\"", "\xC3\xA9\xE4\xB8\xAD", 5);
    string_is("\"\\ud83d\\ude00\"", "\xF0\x9F\x98\x80", 4);       /* a pair joined */
    string_is("\"\\ud83d\\u0041\"", "\xEF\xBF\xBD" "A", 4);       /* unpaired high: the next kept */
    string_is("\"\\ud83dx\"", "\xEF\xBF\xBDx", 4);
    string_is("\"\\ude00\"", "\xEF\xBF\xBD", 3);                  /* unpaired low */
    string_is("\"a\\u0000b\"", "a\0b", 3);                         /* NUL inside: len tells */
    string_is("\"象棋\"", "象棋", 6);
}

/* The unpaired surrogates a parse replaced: counted, the first one's
 * offset kept (the "\u"), none for a pair or an escaped U+FFFD; a parse
 * starts the count again. */
static void surrogates_counted(const char *json, size_t count, size_t at)
{
    xq_json_doc d = {0};
    ok(&d, json);
    assert_int_equal(d.lone_surrogates, count);
    assert_int_equal(d.lone_surrogate_at, at);
    ok(&d, "\"x\"");
    assert_int_equal(d.lone_surrogates, 0);
    xq_json_doc_free(&d);
}

static void test_lone_surrogates(void **state)
{
    (void)state;
    surrogates_counted("\"\\ud83d\\ude00 \\uFFFD\"", 0, 0);
    surrogates_counted("[\"ab\", \"\\ud83d\\u0041\"]", 1, 8);
    surrogates_counted("{\"k\\ude00\": \"\\udc00\\ud800\\ud800\\udc00\"}", 3, 3);
}

static void test_errors(void **state)
{
    (void)state;
    bad("", "unexpected end of input", 0, true);
    bad("   ", "unexpected end of input", 3, true);
    bad("{\"a\":}", "unexpected character", 5, false);
    bad("[1,]", "unexpected character", 3, false);
    bad("{\"a\" 1}", "expected ':'", 5, false);
    bad("{1:2}", "expected a key", 1, false);
    bad("{\"a\":1", "expected ',' or '}'", 6, true);
    bad("[1 2]", "expected ',' or ']'", 3, false);
    bad("{} x", "text after the JSON object", 3, false);
    bad("\"abc", "unterminated string", 0, true);
    bad("[\"a\\q\"]", "bad escape in a string", 3, false);
    bad("[\"\\u12G4\"]", "bad \\u escape", 2, false);
    bad("\"\\ud83d\\u12\"", "bad \\u escape", 7, false);
    bad("\"a\tb\"", "control character in a string", 2, false);
    bad_n("\"a\0b\"", 5, &STRICT, "control character in a string", 2, false);
    bad("nul", "unexpected character", 0, false);
    bad("[truex]", "expected ',' or ']'", 5, false);
}

static void test_numbers_and_utf8(void **state)
{
    (void)state;
    xq_json_doc d = {0};
    assert_string_equal(ok(&d, "-0.5E-7")->str, "-0.5E-7");
    assert_string_equal(ok(&d, "0")->str, "0");
    xq_json_doc_free(&d);
    bad("-", "bad number", 0, false);
    bad("1.", "bad number", 0, false);
    bad("[1e+]", "bad number", 1, false);
    bad("01", "text after the JSON object", 1, false);
    bad("[1-2]", "expected ',' or ']'", 2, false);
    bad("\"\xC0\x80\"", "invalid UTF-8 in a string", 1, false);      /* overlong */
    bad("\"a\xED\xA0\x80\"", "invalid UTF-8 in a string", 2, false); /* a surrogate */
    bad("\"\xE4\xB8\"", "invalid UTF-8 in a string", 1, false);      /* cut */
    bad("\"\xFF\"", "invalid UTF-8 in a string", 1, false);
    /* the lenient mode (xq-stats --merge) takes both as it always did */
    xq_json_error e;
    const char *lenient = "[1-2, \"\xFF\"]";
    assert_true(xq_json_parse(&d, lenient, strlen(lenient), &LENIENT, &e));
    assert_string_equal(d.root.items[0].str, "1-2");
    assert_string_equal(d.root.items[1].str, "\xFF");
    xq_json_doc_free(&d);
}

/* n nested arrays around one number. */
static char *nested(size_t n)
{
    char *s = malloc(2 * n + 2);
    assert_non_null(s);
    memset(s, '[', n);
    s[n] = '1';
    memset(s + n + 1, ']', n);
    s[2 * n + 1] = '\0';
    return s;
}

static void test_limits(void **state)
{
    (void)state;
    xq_json_options three = {.max_depth = 3, .strict = true};
    xq_json_doc d = {0};
    xq_json_error e;
    assert_true(xq_json_parse(&d, "[[1]]", 5, &three, &e));   /* a scalar counts as a level */
    bad_n("[[[1]]]", 7, &three, "nesting too deep", 3, false);
    char *deep = nested(10000);
    bad_n(deep, strlen(deep), &STRICT, "nesting too deep", 64, false);
    free(deep);
    deep = nested(3000);
    xq_json_options wide = {.max_depth = 3001, .strict = true};
    assert_true(xq_json_parse(&d, deep, strlen(deep), &wide, &e));   /* within the limit: read */
    free(deep);
    xq_json_options values = {.max_depth = 8, .max_values = 3, .strict = true};
    assert_true(xq_json_parse(&d, "[1,2]", 5, &values, &e));
    bad_n("[1,2,3]", 7, &values, "too many values", 5, false);
    /* a big document, then a small one in the same memory */
    size_t n = 200000;
    char *big = malloc(n * 2 + 2);
    assert_non_null(big);
    big[0] = '[';
    for (size_t i = 0; i < n; i++) {
        big[1 + 2 * i] = (char)('0' + i % 10);
        big[2 + 2 * i] = i + 1 < n ? ',' : ']';
    }
    big[2 * n + 1] = '\0';
    assert_true(xq_json_parse(&d, big, strlen(big), &STRICT, &e));
    assert_int_equal(d.root.len, n);
    assert_string_equal(d.root.items[n - 1].str, "9");
    assert_int_equal(d.root.items[n - 1].offset, 2 * n - 1);
    free(big);
    assert_true(xq_json_parse(&d, "{\"k\":[true]}", 12, &STRICT, &e));
    assert_int_equal(xq_json_get(&d.root, "k")->items[0].type, XQ_JSON_TRUE);
    xq_json_doc_free(&d);
}

/* xq-stats --merge reads through the same parser: its messages say
 * "line L: reason", L counted over the text, and a cut text is told. */
static void test_merge_messages(void **state)
{
    (void)state;
    char err[128];
    bool incomplete;
    assert_null(xq_stats_read_json("{\n\"format\" 1}", 13, &incomplete, err, sizeof err));
    assert_string_equal(err, "line 2: expected ':'");
    assert_false(incomplete);
    assert_null(xq_stats_read_json("{\"format\":\n\n\"xq-", 17, &incomplete, err, sizeof err));
    assert_string_equal(err, "line 3: unterminated string");
    assert_true(incomplete);
    char *deep = nested(70);
    assert_null(xq_stats_read_json(deep, strlen(deep), &incomplete, err, sizeof err));
    assert_string_equal(err, "line 1: nesting too deep");
    free(deep);
    assert_null(xq_stats_read_json("{\"format\":\"xq-stats\"} {}", 24, &incomplete, err, sizeof err));
    assert_string_equal(err, "line 1: text after the JSON object");
    assert_null(xq_stats_read_json("[]", 2, &incomplete, err, sizeof err));
    assert_string_equal(err, "options: expected an object");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_escapes),
        cmocka_unit_test(test_lone_surrogates),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_numbers_and_utf8),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_merge_messages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
