/* game_io.c - see game_io.h. */
#include "game_io.h"

#include <stdlib.h>
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

/* One replacement of raw[from, to) by text (from == to: an insertion). */
typedef struct {
    size_t from, to;
    const char *text, *suffix;
} edit;

/* The movetext result token (g->result) as the last standalone occurrence
 * in raw after offset start; false when it is not there.  Its characters
 * (digits, '-', '/', '*') are never Big5 or GBK trail bytes. */
static bool find_result_token(const char *raw, size_t len, size_t start, const char *token, edit *e)
{
    size_t n = strlen(token);
    if (!n || n > len) return false;
    for (size_t i = len - n + 1; i-- > start;) {
        if (memcmp(raw + i, token, n)) continue;
        bool before = i == 0 || strchr(" \t\r\n)}", raw[i - 1]);
        bool after = i + n == len || strchr(" \t\r\n", raw[i + n]);
        if (before && after) {
            e->from = i;
            e->to = i + n;
            return true;
        }
    }
    return false;
}

bool xq_write_raw_with_result(FILE *out, const xq_game *g, const char *result)
{
    const char *raw = g->raw ? g->raw : "";   /* NULL for records without raw bytes (XML) */
    size_t len = g->raw_len, after_tags = 0;
    bool saw_tag = false, crlf = false;
    edit edits[2];
    int nedits = 0;
    for (size_t i = 0; i < len; i = line_end(raw, len, i)) {
        size_t s = skip_blanks(raw, len, i);
        if (s >= len || raw[s] != '[') {
            if (saw_tag && s < len && raw[s] != '\r' && raw[s] != '\n') break;   /* movetext */
            continue;
        }
        saw_tag = true;
        after_tags = line_end(raw, len, i);
        /* every tag of the line ('[Red "x"] [Result "0-1"]'), not only its
         * first: a Result tag later on the line is the one to set, and
         * adding another would make the record repeat the name */
        for (size_t t = s; nedits == 0 && t < after_tags && raw[t] == '[';) {
            size_t n = skip_blanks(raw, len, t + 1);
            const char *q1 = memchr(raw + n, '"', after_tags - n);
            const char *q2 = q1 ? memchr(q1 + 1, '"', (size_t)(raw + after_tags - (q1 + 1))) : NULL;
            if (!q2) break;
            if (after_tags - n > 6 && !strncasecmp(raw + n, "Result", 6) && raw[n + 6] && strchr(" \t\"", raw[n + 6]))
                edits[nedits++] = (edit){(size_t)(q1 + 1 - raw), (size_t)(q2 - raw), result, ""};
            const char *close = memchr(q2 + 1, ']', (size_t)(raw + after_tags - (q2 + 1)));
            if (!close) break;
            t = skip_blanks(raw, len, (size_t)(close + 1 - raw));
        }
    }
    if (nedits == 0) {
        /* no Result tag: add one after the last tag line, in the record's line ending */
        crlf = after_tags >= 2 && raw[after_tags - 2] == '\r';
        edits[nedits++] = (edit){after_tags, after_tags, "[Result \"", NULL};
    }
    /* the result token closing the movetext says the same */
    edit token;
    if (g->result && strcmp(g->result, result) && find_result_token(raw, len, after_tags, g->result, &token)) {
        token.text = result;
        token.suffix = "";
        edits[nedits++] = token;
    }
    size_t at = 0;
    for (int k = 0; k < nedits; k++) {
        fwrite(raw + at, 1, edits[k].from - at, out);
        if (edits[k].suffix) {
            fputs(edits[k].text, out);
        } else {
            fprintf(out, "[Result \"%s\"]%s", result, crlf ? "\r\n" : "\n");
        }
        at = edits[k].to;
    }
    fwrite(raw + at, 1, len - at, out);
    return !ferror(out);
}

/* g's tags with the first Result tag's value set to result, or a Result
 * tag appended; a malloc'd array of g->tag_count + 1 (NULL on OOM) whose
 * strings are g's or static. */
static xq_tag *tags_with_result(const xq_game *g, const char *result, size_t *count)
{
    xq_tag *tags = malloc((g->tag_count + 1) * sizeof *tags);
    if (!tags) return NULL;
    if (g->tag_count) memcpy(tags, g->tags, g->tag_count * sizeof *tags);
    *count = g->tag_count;
    for (size_t i = 0; i < g->tag_count; i++)
        if (!strcasecmp(tags[i].name, "Result")) {
            tags[i].value = result;
            return tags;
        }
    tags[(*count)++] = (xq_tag){"Result", result};
    return tags;
}

bool xq_write_kept(FILE *out, const xq_game *g, const xq_replay *r, xq_out_format format, xq_result fixed)
{
    xq_write_options opt = {.format = format};
    return xq_write_kept_opt(out, g, r, &opt, fixed);
}

bool xq_write_kept_opt(FILE *out, const xq_game *g, const xq_replay *r, const xq_write_options *opt,
                       xq_result fixed)
{
    if (fixed == XQ_RESULT_NONE) {
        xq_write_game(out, g, r, opt, NULL);
        return !ferror(out);
    }
    /* a shallow copy whose result and tags say the fixed result: the
     * writers read only the game, so g's arena is shared, not changed */
    xq_game c = *g;
    c.result_code = fixed;
    c.result = xq_result_str(fixed);
    if (!(c.tags = tags_with_result(g, c.result, &c.tag_count))) return false;
    xq_write_game(out, &c, r, opt, NULL);
    free(c.tags);
    return !ferror(out);
}
