/* write_json.c - JSON Lines: one object per game per line, for jq users
 * (RFC 8259 through json.h).  See write.h for the fields. */
#include "write_internal.h"

#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "jsonl_read.h"

typedef struct {
    FILE *out;
    const xq_write_options *opt;
} jsonw;

static void move_begin(void *ctx, const xq_walk_move *m)
{
    jsonw *j = ctx;
    FILE *o = j->out;
    const xq_node *n = m->node;
    int first = 1;
    if (m->index) putc(',', o);
    putc('{', o);
    xq_json_key(o, "text", &first);
    xq_json_string(o, n->text);
    xq_json_key(o, "iccs", &first);
    char buf[XQ_NOTATION_MAX];
    xq_json_string(o, m->move && xq_move_write(m->pos, m->move, XQ_NOTATION_UCCI, 0, buf, sizeof buf) ? buf : NULL);
    if (n->comment && !j->opt->no_comments) {
        xq_json_key(o, "comment", &first);
        xq_json_string(o, n->comment);
    }
    if (n->nag_count) {
        xq_json_key(o, "nags", &first);
        for (uint16_t i = 0; i < n->nag_count; i++) fprintf(o, "%c%u", i ? ',' : '[', (unsigned)n->nags[i]);
        putc(']', o);
    }
    if (n->variation_count && !j->opt->no_variations) {
        xq_json_key(o, "variations", &first);
        putc('[', o);
    }
}

static void move_end(void *ctx, const xq_walk_move *m)
{
    jsonw *j = ctx;
    if (m->node->variation_count && !j->opt->no_variations) putc(']', j->out);
    putc('}', j->out);
}

static void line_begin(void *ctx, const xq_walk_line *l)
{
    jsonw *j = ctx;
    const xq_branch *b = l->branch;
    if (l->depth == 0) return;   /* the main line is "moves" */
    /* a variation is an array of moves; its leading comment, if any, is
     * the first element, {"comment": ...} */
    fputs(l->index ? ",[" : "[", j->out);
    if (b->comment && !j->opt->no_comments) {
        fputs("{\"comment\":", j->out);
        xq_json_string(j->out, b->comment);
        fputs(b->count ? "}," : "}", j->out);
    }
}

static void line_end(void *ctx, const xq_walk_line *l)
{
    jsonw *j = ctx;
    if (l->depth > 0) putc(']', j->out);
}

void xq_write_jsonl(FILE *o, const xq_game *g, const xq_replay *r, const xq_write_options *opt,
                    xq_write_report *rep)
{
    jsonw j = {o, opt};
    int first = 1;
    putc('{', o);
    xq_json_key(o, "file", &first); xq_json_string(o, g->file);
    xq_json_key(o, "game", &first); fprintf(o, "%llu", (unsigned long long)g->index);
    xq_json_key(o, "line", &first); fprintf(o, "%llu", (unsigned long long)g->first_line);
    xq_json_key(o, "tags", &first);
    putc('{', o);
    int tfirst = 1;
    size_t n;
    const xq_tag **tags = xq_tags_ordered(g, NULL, NULL, &n);   /* (record order) */
    n = xq_tags_drop_repeats(tags, n, xq_jsonl_name_bad, false, rep, "jsonl");
    bool renamed = false;
    for (size_t i = 0; i < n; i++) {
        const char *name = tags[i]->name;
        char *word = NULL;
        if (!*name || name[strcspn(name, XQ_JSONL_TAG_NAME_BAD)]) {   /* as the reader wants it back */
            word = strdup(*name ? name : "_");
            if (word)
                for (char *c = word; (c = strpbrk(c, XQ_JSONL_TAG_NAME_BAD)) != NULL;) *c = '_';
            name = word ? word : "_";
            renamed = true;
        }
        xq_json_key(o, name, &tfirst);
        xq_json_string(o, tags[i]->value);
        free(word);
    }
    free(tags);
    if (renamed) xq_write_note(rep, "jsonl cannot hold a blank, quote or bracket in a tag name (or an empty one): written as '_'");
    putc('}', o);
    char fenbuf[XQ_FEN_MAX];
    xq_json_key(o, "fen", &first);
    if (r->status == XQ_STATUS_UNREADABLE) {
        xq_json_string(o, g->fen);
    } else {
        xq_fen_write(&r->start, fenbuf, sizeof fenbuf);
        xq_json_string(o, fenbuf);
    }
    if (g->main.comment && !opt->no_comments) {
        xq_json_key(o, "comment", &first);
        xq_json_string(o, g->main.comment);
    }
    xq_json_key(o, "moves", &first);
    putc('[', o);
    static const xq_walk_ops ops = {move_begin, move_end, line_begin, line_end};
    xq_walk_game(g, r, !opt->no_variations, &ops, &j, rep);
    putc(']', o);
    xq_json_key(o, "result", &first);
    xq_json_string(o, r->result_tag == XQ_RESULT_NONE ? NULL : xq_result_str(r->result_tag));
    if (g->result_code != r->result_tag) {
        /* the movetext's own result where "result" (the Result tag's) is
         * not it: another one, or none (null), so that reading back gives
         * the record's (jsonl_read.c) */
        xq_json_key(o, "movetext_result", &first);
        xq_json_string(o, g->result_code == XQ_RESULT_NONE ? NULL : xq_result_str(g->result_code));
    }
    xq_json_key(o, "status", &first); xq_json_string(o, xq_status_str(r->status));
    xq_json_key(o, "plies", &first); fprintf(o, "%d", r->plies);
    if (r->status != XQ_STATUS_VALID) {
        if (r->bad_ply) {
            xq_json_key(o, "ply", &first);
            fprintf(o, "%d", r->bad_ply);
        }
        xq_json_key(o, "reason", &first);
        xq_json_string(o, r->reason);
    }
    fputs("}\n", o);
}

void xq_write_json(FILE *out, const xq_game *g, const xq_replay *r)
{
    xq_write_options opt = {.format = XQ_OUT_JSONL};
    xq_write_report rep;
    memset(&rep, 0, sizeof rep);
    xq_write_jsonl(out, g, r, &opt, &rep);
}
