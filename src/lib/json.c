/* json.c - JSON string escaping (RFC 8259 §7). */
#include "json.h"

#include <stdint.h>

/* Length of the valid UTF-8 sequence at s, or 0 when it is not valid. */
static int utf8_len(const unsigned char *s)
{
    if (s[0] < 0x80) return 1;
    if (s[0] >= 0xC2 && s[0] <= 0xDF) return (s[1] & 0xC0) == 0x80 ? 2 : 0;
    if (s[0] >= 0xE0 && s[0] <= 0xEF) {
        if ((s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80) return 0;
        if (s[0] == 0xE0 && s[1] < 0xA0) return 0;   /* overlong */
        if (s[0] == 0xED && s[1] > 0x9F) return 0;   /* surrogate */
        return 3;
    }
    if (s[0] >= 0xF0 && s[0] <= 0xF4) {
        if ((s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80) return 0;
        if (s[0] == 0xF0 && s[1] < 0x90) return 0;
        if (s[0] == 0xF4 && s[1] > 0x8F) return 0;
        return 4;
    }
    return 0;
}

void xq_json_string(FILE *out, const char *s)
{
    if (!s) {
        fputs("null", out);
        return;
    }
    putc('"', out);
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned char c = *p;
        if (c == '"' || c == '\\') {
            putc('\\', out);
            putc(c, out);
            p++;
        } else if (c < 0x20) {
            switch (c) {
            case '\n': fputs("\\n", out); break;
            case '\t': fputs("\\t", out); break;
            case '\r': fputs("\\r", out); break;
            default: fprintf(out, "\\u%04x", c); break;
            }
            p++;
        } else {
            int n = utf8_len(p);
            if (n == 0) {
                fputs("\xEF\xBF\xBD", out);
                p++;
            } else {
                fwrite(p, 1, (size_t)n, out);
                p += n;
            }
        }
    }
    putc('"', out);
}

void xq_json_key(FILE *out, const char *key, int *first)
{
    if (!*first) putc(',', out);
    *first = 0;
    xq_json_string(out, key);
    putc(':', out);
}
