/* test_reader_fast.c - the fast paths of the record reader against the
 * slow ones they replaced: the tokenizer's byte tables (STEP, TOKFIRST)
 * against CLASS / blank_len and the tests of token(), the character-step
 * token scanner against the byte-by-byte one, name_char's table against
 * its definition, move numbers tried before results, the flat pair table decoder
 * against the per-row one and against plain iconv, the one-pass UTF-8
 * check against xq_utf8_valid, and move texts carved out of line copies
 * against the moves written, on many random inputs.
 *
 * The reader's and the input's sources are included so that their static
 * functions and tables can be reached (the library's copies of these
 * objects are then not linked). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "input.c"
#include "pgn_read.c"

#include <unistd.h>

/* Deterministic pseudo-random numbers (xorshift64). */
static uint64_t rng_state = 88172645463325252u;
static uint32_t rnd(uint32_t n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state % n);
}

/* ---- tables ------------------------------------------------------------ */

static void test_step_table(void **state)
{
    (void)state;
    for (unsigned c = 0; c < 256; c++) {
        unsigned v = STEP[c];
        if (CLASS[c] == C_BLANK || CLASS[c] == C_DELIM) {
            assert_int_equal(v, 0);
            continue;
        }
        unsigned len = c < 0x80 ? 1 : c < 0xC0 ? 0 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF8 ? 4 : 1;
        if (len == 0) assert_int_equal(v, STEP_CONT);
        else if (CLASS[c] == C_MAYBE_BLANK) assert_int_equal(v, STEP_CHECK | len);
        else assert_int_equal(v, len);
    }
}

static void test_tokfirst_table(void **state)
{
    (void)state;
    for (unsigned c = 0; c < 256; c++) {
        /* the tests token() made before the table */
        bool result = c == '1' || c == '0' || c == '*' || c == 0xC2 || c == 0xEF || c == 0xE7 ||
                      c == 0xE9 || c == 0xE5;
        bool other = (c >= '0' && c <= '9') || c == '$' || c == '!' || c == '?' || c == '.' ||
                     c == 0xE2 || c == 0xEF;
        assert_int_equal(!!(TOKFIRST[c] & TF_RESULT), result);
        assert_int_equal(!!(TOKFIRST[c] & TF_OTHER), other);
    }
}

/* result_of's length filter loses no result */
static void test_result_lengths(void **state)
{
    (void)state;
    static const char *const results[] = {
        "1-0", "0-1", "1/2-1/2", "*", "½-½", "１－０", "０－１", "１/２－１/２",
        "１／２－１／２", "＊", "红胜", "紅勝", "黑胜", "黑勝", "和棋", "和局",
    };
    for (size_t i = 0; i < sizeof results / sizeof results[0]; i++)
        assert_int_not_equal(result_of(results[i], strlen(results[i])), XQ_RESULT_NONE);
    assert_int_equal(result_of("1-0x", 4), XQ_RESULT_NONE);
}

/* Digit tokens try move_number before result_of: move_number must refuse
 * every result that starts with a digit, alone and with text after it. */
static void test_number_before_result(void **state)
{
    (void)state;
    static const char *const results[] = {"1-0", "0-1", "1/2-1/2"};
    for (size_t i = 0; i < sizeof results / sizeof results[0]; i++) {
        uint32_t num = 0;
        const char *rest = NULL, *t = results[i];
        assert_false(move_number(t, t + strlen(t), &num, &rest));
        assert_int_not_equal(result_of(t, strlen(t)), XQ_RESULT_NONE);
    }
}

/* name_char (NAME_STOP table) against its definition, on every byte and
 * on the Unicode blanks and their look-alikes, whole and cut. */
static void test_name_char(void **state)
{
    (void)state;
    static const char *const samples[] = {
        "\xC2\xA0", "\xC2\xBD", "\xE3\x80\x80", "\xE3\x80\x81", "\xEF\xBB\xBF",
        "\xEF\xBC\x98", "\xEF\xBB", "\xE3\x80", "\xC2",
    };
    char one[2] = {0, 'x'};
    for (unsigned c = 0; c < 256; c++) {
        one[0] = (char)c;
        for (size_t n = 1; n <= 2; n++) {
            bool ref = !blank_len(one, one + n) && c != '"' && c != ']' && c != '[';
            assert_int_equal(name_char(one, one + n), ref);
        }
    }
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        const char *p = samples[i], *end = p + strlen(p);
        assert_int_equal(name_char(p, end), !blank_len(p, end));
    }
    assert_false(name_char(one, one));
}

/* ---- token scanner ------------------------------------------------------ */

/* The scanner before the step table: byte by byte. */
static const char *ref_token_end_col(const char *p, const char *end, uint32_t *col)
{
    uint32_t n = 0;
    while (p < end) {
        unsigned char c = (unsigned char)*p;
        unsigned cl = CLASS[c];
        if (cl != C_OTHER && (cl != C_MAYBE_BLANK || blank_len(p, end))) break;
        n += (c & 0xC0) != 0x80;
        p++;
    }
    *col += n;
    return p;
}

/* Pieces of movetext, the awkward ones included: Unicode blanks, other
 * characters with the same lead bytes, full-width forms, 4-byte ones. */
static const char *const PIECES[] = {
    "a", "1", ".", "!", "?", "$", " ", "\t", "{", "}", "(", ")", ";", "\r",
    "\xC2\xA0",     /* U+00A0 */
    "\xC2\xBD",     /* ½ */
    "\xE3\x80\x80", /* U+3000 */
    "\xE3\x80\x81", /* 、 */
    "\xEF\xBB\xBF", /* U+FEFF */
    "\xEF\xBC\x98", /* ８ */
    "\xEF\xBC\x8E", /* ． */
    "炮", "二", "平", "五", "馬", "進", "車", "退",
    "\xF0\x9F\x98\x80", /* U+1F600 */
    "\xE2\x80\xA6",     /* … */
};
enum { NPIECES = sizeof PIECES / sizeof PIECES[0] };

static size_t random_text(char *buf, size_t cap)
{
    size_t n = 0, count = rnd(40);
    for (size_t i = 0; i < count; i++) {
        const char *p = PIECES[rnd(NPIECES)];
        size_t k = strlen(p);
        if (n + k >= cap) break;
        memcpy(buf + n, p, k);
        n += k;
    }
    return n;
}

static void test_token_scanner(void **state)
{
    (void)state;
    char buf[512];
    for (int iter = 0; iter < 200000; iter++) {
        size_t n = random_text(buf, sizeof buf);
        /* every start position, as the tokenizer may start anywhere */
        for (size_t i = 0; i < n; i++) {
            if (((unsigned char)buf[i] & 0xC0) == 0x80) continue;
            uint32_t c1 = 7, c2 = 7;
            const char *a = token_end_col(buf + i, buf + n, &c1);
            const char *b = ref_token_end_col(buf + i, buf + n, &c2);
            assert_ptr_equal(a, b);
            assert_int_equal(c1, c2);
        }
    }
}

/* ---- decoding ----------------------------------------------------------- */

/* The pair cache decoder before the flat table: a row per lead byte. */
static int ref_table_decode(iconv_t cd, uint32_t **rows, const char *what, const unsigned char *s,
                            size_t n, uint64_t off, xq_buf *out, xq_bad_bytes_fn *bad, void *ctx)
{
    if (!xq_buf_reserve(out, 3 * n + 8)) return -1;
    char *o = out->p + out->len;
    int nbad = 0;
    size_t i = 0;
    while (i < n) {
        unsigned char b = s[i];
        if (b && b < 0x80) {
            *o++ = (char)b;
            i++;
            continue;
        }
        uint32_t e = PAIR_BAD;
        if (b) {
            if (i + 1 >= n) {
                e = pair_entry(cd, b, 0);
                if (e >> 28 != 1) e = PAIR_BAD;
            } else {
                uint32_t *row = rows[b - 0x80];
                if (!row) row = rows[b - 0x80] = calloc(256, sizeof *row);
                assert_non_null(row);
                uint32_t *slot = &row[s[i + 1]];
                if (!*slot) *slot = pair_entry(cd, b, s[i + 1]);
                e = *slot;
            }
        }
        if (e == PAIR_SLOW) {
            char *inp = (char *)(s + i), *outp = o;
            size_t inleft = n - i < 4 ? n - i : 4, outleft = 16;
            iconv(cd, NULL, NULL, NULL, NULL);
            iconv(cd, &inp, &inleft, &outp, &outleft);
            size_t used = (size_t)((const unsigned char *)inp - (s + i));
            if (used) {
                o = outp;
                i += used;
                continue;
            }
            e = PAIR_BAD;
        }
        if (e == PAIR_BAD) {
            out->len = (size_t)(o - out->p);
            if (bad) bad(ctx, off + i, out->len, b ? what : "NUL byte");
            nbad++;
            memcpy(o, REPLACEMENT, 3);
            o += 3;
            i++;
            continue;
        }
        o[0] = (char)e;
        o[1] = (char)(e >> 8);
        o[2] = (char)(e >> 16);
        o += e >> 24 & 3;
        i += e >> 28;
    }
    out->len = (size_t)(o - out->p);
    return nbad;
}

/* Bad-byte reports, to compare. */
typedef struct {
    uint64_t off[64];
    size_t pos[64];
    int n;
} reports;

static void record_bad(void *ctx, uint64_t offset, size_t out_pos, const char *why)
{
    reports *r = ctx;
    (void)why;
    if (r->n < 64) {
        r->off[r->n] = offset;
        r->pos[r->n] = out_pos;
    }
    r->n++;
}

/* Random bytes biased to the lead/trail ranges of Big5 and GBK, with ASCII
 * runs, NULs, GB18030 4-byte forms and cut characters. */
static size_t random_legacy(unsigned char *buf, size_t cap)
{
    size_t n = 0, count = rnd(60);
    while (count-- && n + 4 < cap) {
        switch (rnd(6)) {
        case 0: buf[n++] = (unsigned char)(0x20 + rnd(0x5F)); break;
        case 1: buf[n++] = (unsigned char)rnd(256); break;
        case 2:
            buf[n++] = (unsigned char)(0xA1 + rnd(0x5E));
            buf[n++] = (unsigned char)(0x40 + rnd(0xBF));
            break;
        case 3:
            buf[n++] = (unsigned char)(0x81 + rnd(0x7E));
            buf[n++] = (unsigned char)(0x30 + rnd(10));
            buf[n++] = (unsigned char)(0x81 + rnd(0x7E));
            buf[n++] = (unsigned char)(0x30 + rnd(10));
            break;
        case 4: buf[n++] = (unsigned char)(0x80 + rnd(0x80)); break;
        default: buf[n++] = 0; break;
        }
    }
    return n;
}

static void check_legacy(xq_encoding enc)
{
    iconv_t cd = open_legacy(enc);
    assert_true(cd != (iconv_t)-1);
    uint32_t *flat = NULL, *rows[128] = {0};
    xq_buf a = {0}, b = {0};
    unsigned char buf[256];
    for (int iter = 0; iter < 100000; iter++) {
        size_t n = random_legacy(buf, sizeof buf);
        reports ra = {0}, rb = {0};
        a.len = b.len = 0;
        int na = table_decode(cd, &flat, "bad", buf, n, 1000, &a, record_bad, &ra);
        int nb = ref_table_decode(cd, rows, "bad", buf, n, 1000, &b, record_bad, &rb);
        assert_int_equal(na, nb);
        assert_int_equal(a.len, b.len);
        assert_memory_equal(a.p, b.p, a.len);
        assert_int_equal(ra.n, rb.n);
        for (int k = 0; k < ra.n && k < 64; k++) {
            assert_int_equal(ra.off[k], rb.off[k]);
            assert_int_equal(ra.pos[k], rb.pos[k]);
        }
        /* and with plain iconv, on text it can decode in one go */
        if (na == 0) {
            b.len = 0;
            assert_int_equal(iconv_decode(cd, "bad", buf, n, 0, &b, NULL, NULL), 0);
            assert_int_equal(a.len, b.len);
            assert_memory_equal(a.p, b.p, a.len);
        }
    }
    free(flat);
    for (int i = 0; i < 128; i++) free(rows[i]);
    xq_buf_free(&a);
    xq_buf_free(&b);
    iconv_close(cd);
}

static void test_big5_table(void **state)
{
    (void)state;
    check_legacy(XQ_ENC_BIG5);
}

static void test_gbk_table(void **state)
{
    (void)state;
    check_legacy(XQ_ENC_GBK);
}

static void test_utf8_clean(void **state)
{
    (void)state;
    unsigned char buf[256];
    char text[512];
    for (int iter = 0; iter < 300000; iter++) {
        size_t n;
        if (iter % 2) {   /* mostly valid text, sometimes damaged */
            n = random_text(text, sizeof text) % sizeof buf;
            memcpy(buf, text, n);
            if (n && rnd(3) == 0) buf[rnd((uint32_t)n)] = (unsigned char)rnd(256);
            if (n > 1 && rnd(4) == 0) n--;
        } else {
            n = random_legacy(buf, sizeof buf);
        }
        assert_int_equal(utf8_clean(buf, n), xq_utf8_valid(buf, n, false));
    }
}

/* ---- move texts through the reader -------------------------------------- */

static const char *const MOVES[] = {
    "炮二平五", "馬８進７", "h2e2", "車一平二", "兵七進一", "R2+3", "帥五平四", "c3c4",
};
static const char *const BLANKS[] = {" ", "  ", "\t", "\xE3\x80\x80", "\xC2\xA0", " \xEF\xBB\xBF "};

/* Lines of moves (some of them long, over move_text's window), read back:
 * each node holds its move, line and column. */
static void test_move_texts(void **state)
{
    (void)state;
    for (int iter = 0; iter < 200; iter++) {
        char path[] = "/tmp/xq-test-reader-fast-XXXXXX";
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        FILE *f = fdopen(fd, "w");
        assert_non_null(f);
        struct { const char *text; uint32_t line, col; } want[600];
        size_t nw = 0;
        fputs("[Event \"x\"]\n\n", f);
        uint32_t line = 3;
        for (int l = 0; l < 5; l++, line++) {
            uint32_t col = 1;
            int count = (int)rnd(100);
            for (int k = 0; k < count && nw < 600; k++) {
                const char *b = BLANKS[rnd(6)];
                fputs(b, f);
                col += nchars(b, b + strlen(b));
                if (rnd(3) == 0) {   /* a move number, glued to the move or not */
                    unsigned num = rnd(200) + 1;
                    int w = fprintf(f, "%u.%s", num, rnd(2) ? " " : "");
                    col += (uint32_t)w;
                }
                const char *m = MOVES[rnd(8)];
                fputs(m, f);
                want[nw].text = m;
                want[nw].line = line;
                want[nw].col = col;
                nw++;
                col += nchars(m, m + strlen(m));
                if (rnd(5) == 0) {
                    fputs("!?", f);
                    col += 2;
                }
            }
            fputs(rnd(2) ? "\n" : "\r\n", f);
        }
        fclose(f);
        char err[256];
        xq_reader *r = xq_reader_open(path, NULL, err, sizeof err);
        assert_non_null(r);
        xq_game g;
        xq_game_init(&g);
        assert_int_equal(xq_reader_next(r, &g), 1);
        assert_int_equal(g.main.count, nw);
        for (size_t i = 0; i < nw; i++) {
            assert_string_equal(g.main.nodes[i].text, want[i].text);
            assert_int_equal(g.main.nodes[i].text_len, strlen(want[i].text));
            assert_int_equal(g.main.nodes[i].line, want[i].line);
            assert_int_equal(g.main.nodes[i].col, want[i].col);
        }
        xq_game_free(&g);
        xq_reader_close(r);
        unlink(path);
    }
}

/* xq_reader_open's copy of the input's message into a short buffer: cut
 * to fit, never inside a UTF-8 character; whole when it fits. */
static void test_copy_error(void **state)
{
    (void)state;
    /* "ab" then 象 (3 bytes), 棋 (3 bytes), "!": 9 bytes */
    static const char msg[] = "ab\xE8\xB1\xA1\xE6\xA3\x8B!";
    static const char *const want[] = {"", "", "a", "ab", "ab", "ab", "ab\xE8\xB1\xA1", "ab\xE8\xB1\xA1",
                                       "ab\xE8\xB1\xA1", "ab\xE8\xB1\xA1\xE6\xA3\x8B", msg, msg};
    for (size_t size = 1; size <= 11; size++) {
        char err[16];
        memset(err, 'x', sizeof err);
        copy_error(err, size, msg);
        assert_string_equal(err, want[size]);
        assert_true(strlen(err) < size);
    }
    char err[4];
    copy_error(err, sizeof err, "\xF0\x9F\x98\x80");   /* a 4-byte character in 3 bytes: nothing */
    assert_string_equal(err, "");
    copy_error(err, sizeof err, "a\x80\x80\x80");      /* no lead byte: no character split */
    assert_string_equal(err, "a\x80\x80");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_copy_error),
        cmocka_unit_test(test_step_table),
        cmocka_unit_test(test_tokfirst_table),
        cmocka_unit_test(test_result_lengths),
        cmocka_unit_test(test_number_before_result),
        cmocka_unit_test(test_name_char),
        cmocka_unit_test(test_token_scanner),
        cmocka_unit_test(test_big5_table),
        cmocka_unit_test(test_gbk_table),
        cmocka_unit_test(test_utf8_clean),
        cmocka_unit_test(test_move_texts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
