/* game_io.c - see game_io.h. */
#include "game_io.h"

#include <string.h>
#include <strings.h>

/* Offset just past the end of the line containing raw[i]. */
static size_t line_end(const char *raw, size_t len, size_t i)
{
    while (i < len && raw[i] != '\n') i++;
    return i < len ? i + 1 : len;
}

static size_t skip_blanks(const char *raw, size_t len, size_t i)
{
    while (i < len && (raw[i] == ' ' || raw[i] == '\t')) i++;
    return i;
}

bool xq_write_raw_with_result(FILE *out, const xq_game *g, const char *result)
{
    const char *raw = g->raw ? g->raw : "";   /* NULL for records without raw bytes (XML) */
    size_t len = g->raw_len, after_tags = 0;
    bool saw_tag = false;
    for (size_t i = 0; i < len; i = line_end(raw, len, i)) {
        size_t s = skip_blanks(raw, len, i);
        if (s >= len || raw[s] != '[') {
            if (saw_tag && s < len && raw[s] != '\r' && raw[s] != '\n') break;   /* movetext */
            continue;
        }
        saw_tag = true;
        after_tags = line_end(raw, len, i);
        size_t n = skip_blanks(raw, len, s + 1);
        if (len - n >= 6 && !strncasecmp(raw + n, "Result", 6)) {
            const char *q1 = memchr(raw + n, '"', after_tags - n);
            const char *q2 = q1 ? memchr(q1 + 1, '"', (size_t)(raw + after_tags - (q1 + 1))) : NULL;
            if (q1 && q2) {
                fwrite(raw, 1, (size_t)(q1 + 1 - raw), out);
                fputs(result, out);
                fwrite(q2, 1, (size_t)(raw + len - q2), out);
                return !ferror(out);
            }
        }
    }
    /* no Result tag: add one after the last tag line, in the record's line ending */
    bool crlf = after_tags >= 2 && raw[after_tags - 2] == '\r';
    fwrite(raw, 1, after_tags, out);
    fprintf(out, "[Result \"%s\"]%s", result, crlf ? "\r\n" : "\n");
    fwrite(raw + after_tags, 1, len - after_tags, out);
    return !ferror(out);
}
