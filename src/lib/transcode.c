/* transcode.c - see transcode.h. */
#include "transcode.h"

#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

bool xq_text_ascii(const char *s, size_t n)
{
    /* 64 bytes at a time (a loop the compiler vectorises), stopping at the
     * first block with a high bit: a Chinese record has one in its first
     * tag line, so --keep pays little for the test */
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        unsigned char any = 0;
        for (size_t k = 0; k < 64; k++) any |= (unsigned char)s[i + k];
        if (any >= 0x80) return false;
    }
    unsigned char any = 0;
    for (; i < n; i++) any |= (unsigned char)s[i];
    return any < 0x80;
}

/* iconv names: a source read as the readers read it (input.c,
 * open_legacy), a target written as the writers write it (write_common.c,
 * put_encoded). */
static const char *source_name(xq_encoding from, bool fallback)
{
    if (from == XQ_ENC_BIG5) return fallback ? "BIG5" : "CP950";
    if (from == XQ_ENC_GBK) return fallback ? "GBK" : "GB18030";
    return "UTF-8";
}

static const char *target_name(xq_encoding to)
{
    return to == XQ_ENC_BIG5 ? "CP950" : to == XQ_ENC_GBK ? "GBK" : "UTF-8";
}

static iconv_t open_pair(const char *to, xq_encoding from)
{
    iconv_t cd = iconv_open(to, source_name(from, false));
    if (cd == (iconv_t)-1) cd = iconv_open(to, source_name(from, true));
    return cd;
}

/* The length of the valid character of the source encoding at s[0..left)
 * (decoded by check, source to UTF-8), or 0 when the bytes there are a bad
 * or cut sequence. */
static size_t char_len(iconv_t check, const char *s, size_t left)
{
    for (size_t k = 1; k <= 4 && k <= left; k++) {
        char tmp[16], *in = (char *)s, *o = tmp;
        size_t ileft = k, oleft = sizeof tmp;
        iconv(check, NULL, NULL, NULL, NULL);
        if (iconv(check, &in, &ileft, &o, &oleft) != (size_t)-1 && ileft == 0) return k;
    }
    return 0;
}

/* n bytes of p to out; none when out is NULL (xq_transcode counting only). */
static void put(FILE *out, const char *p, size_t n)
{
    if (out) fwrite(p, 1, n, out);
}

bool xq_transcode(FILE *out, const char *s, size_t n, xq_encoding from, xq_encoding to,
                  xq_transcode_report *rep)
{
    xq_transcode_report local;
    if (!rep) rep = &local;
    *rep = (xq_transcode_report){0, 0, SIZE_MAX};
    if (from == to) return !out || fwrite(s, 1, n, out) == n;
    iconv_t cd = open_pair(target_name(to), from), check = open_pair("UTF-8", from);
    bool ok = cd != (iconv_t)-1 && check != (iconv_t)-1;
    char obuf[8192];
    char *in = (char *)s;
    size_t left = n;
    while (ok && left) {
        char *o = obuf;
        size_t oleft = sizeof obuf;
        size_t rc = iconv(cd, &in, &left, &o, &oleft);
        put(out, obuf, (size_t)(o - obuf));
        if (rc != (size_t)-1 || errno == E2BIG) continue;
        /* EILSEQ / EINVAL: a character the target lacks, or bytes that
         * are no character of the source (written as the readers decode
         * them, U+FFFD, where the target has it) */
        size_t at = (size_t)(in - s), k = char_len(check, in, left);
        if (rep->first_lost == SIZE_MAX) rep->first_lost = at;
        if (k) {
            rep->unencodable++;
            put(out, "?", 1);
        } else {
            rep->bad++;
            k = 1;
            put(out, to == XQ_ENC_UTF8 ? "\xEF\xBF\xBD" : "?", to == XQ_ENC_UTF8 ? 3 : 1);
        }
        in += k;
        left -= k;
        iconv(cd, NULL, NULL, NULL, NULL);
    }
    if (cd != (iconv_t)-1) iconv_close(cd);
    if (check != (iconv_t)-1) iconv_close(check);
    return ok && (!out || !ferror(out));
}

void xq_text_place(const char *s, size_t n, size_t at, xq_encoding enc, unsigned long *line,
                   unsigned long *col)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t start = n >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3) && at >= 3 ? 3 : 0;
    unsigned long nl = 0, c = 1;
    for (size_t i = start; i < at && i < n;) {
        size_t k = 1;
        if (u[i] == '\n') {
            nl++;
            c = 1;
            i++;
            continue;
        }
        if (u[i] >= 0x80 && enc == XQ_ENC_UTF8) {
            while (i + k < n && (u[i + k] & 0xC0) == 0x80 && k < 4) k++;
        } else if (u[i] >= 0x81 && (enc == XQ_ENC_BIG5 || enc == XQ_ENC_GBK) && i + 1 < n) {
            k = enc == XQ_ENC_GBK && u[i + 1] >= 0x30 && u[i + 1] <= 0x39 && i + 3 < n ? 4 : 2;
        }
        c++;
        i += k;
    }
    *line = nl;
    *col = c;
}
