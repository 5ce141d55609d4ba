/* write_pgn.c - PGN-style text in any notation (formats.md §1e): the
 * XQBase tag order with [Game "Chinese Chess"] first, then the movetext
 * shared with the XBoard writer.  See write.h. */
#include "write_internal.h"

#include <stdlib.h>
#include <string.h>

void xq_pgn_tag(FILE *out, const char *name, const char *value)
{
    putc('[', out);
    xq_put_clean(out, name, " []\"\\", "_", false);
    fputs(" \"", out);
    for (const char *p = value ? value : ""; *p; p++) {
        if (*p == '"' || *p == '\\') putc('\\', out);
        putc((unsigned char)*p < 0x20 ? ' ' : *p, out);
    }
    fputs("\"]\n", out);
}

/* ---- movetext ---------------------------------------------------------------- */

typedef struct {
    FILE *out;
    const xq_write_options *opt;
    xq_notation notation;
    unsigned flags;
    bool space;          /* a separator is due before the next token */
    bool need_number;    /* the next Black move needs "N..." */
    int skip;            /* depth of the line whose untranslated rest was written
                            already (events there and below are skipped), -1 none */
} pgn;

static void token_start(pgn *p)
{
    if (p->space) putc(' ', p->out);
    p->space = true;
}

static void put_text(pgn *p, const char *s)
{
    xq_put_clean(p->out, s, "}", "\xEF\xBD\x9D", true);   /* '}' as U+FF5D: PGN has no escape */
}

/* Untranslated moves as in the record, numbered from number/side, with
 * their variations in parentheses: text inside a comment. */
static void put_raw(pgn *p, const xq_node *nodes, size_t count, int number, xq_color side)
{
    bool numbered = false;
    for (size_t i = 0; i < count; i++, number += side == XQ_BLACK, side = (xq_color)!side) {
        if (i) putc(' ', p->out);
        if (side == XQ_RED) fprintf(p->out, "%d. ", number);
        else if (!numbered) fprintf(p->out, "%d... ", number);
        numbered = true;
        xq_put_clean(p->out, nodes[i].text, "{}", "?", false);
        for (uint32_t v = 0; !p->opt->no_variations && v < nodes[i].variation_count; v++) {
            fputs(" (", p->out);
            put_raw(p, nodes[i].variations[v].nodes, nodes[i].variations[v].count, number, side);
            putc(')', p->out);
            numbered = false;
        }
    }
}

/* A comment {text}, followed inside the same braces by the untranslated
 * moves rest[0..nrest) when nrest > 0 - as a reader joins adjacent comments,
 * so that the record reads back the same. */
static void put_comment(pgn *p, const char *text, const xq_node *rest, size_t nrest, int number, xq_color side)
{
    if (p->opt->no_comments) text = NULL;
    if (!text && !nrest) return;
    token_start(p);
    putc('{', p->out);
    if (text) put_text(p, text);
    if (nrest) {
        fputs(text ? "\nuntranslated: " : "untranslated: ", p->out);
        put_raw(p, rest, nrest, number, side);
    }
    putc('}', p->out);
    p->need_number = true;
}

static void move_begin(void *ctx, const xq_walk_move *m)
{
    pgn *p = ctx;
    const xq_node *n = m->node;
    if (p->skip >= 0 || !m->move) {
        if (p->skip < 0) p->skip = m->depth;
        return;
    }
    if (m->depth == 0 && m->side == XQ_RED && m->index > 0) {
        putc('\n', p->out);   /* one move pair per line */
        p->space = false;
    }
    token_start(p);
    if (m->side == XQ_RED) fprintf(p->out, "%d. ", m->number);
    else if (p->need_number) fprintf(p->out, "%d... ", m->number);
    p->need_number = false;
    char buf[XQ_NOTATION_MAX];
    if (!xq_move_write(m->pos, m->move, p->notation, p->flags, buf, sizeof buf))
        xq_move_write(m->pos, m->move, XQ_NOTATION_UCCI, 0, buf, sizeof buf);   /* not expressible */
    fputs(buf, p->out);
    for (uint16_t i = 0; i < n->nag_count; i++) {
        token_start(p);
        fprintf(p->out, "$%u", (unsigned)n->nags[i]);
    }
    size_t nrest = m->last_translated ? m->line->branch->count - m->index - 1 : 0;
    put_comment(p, n->comment, n + 1, nrest, m->number + (m->side == XQ_BLACK), (xq_color)!m->side);
}

static void line_begin(void *ctx, const xq_walk_line *l)
{
    pgn *p = ctx;
    if (p->skip >= 0) return;
    if (l->depth > 0) {
        token_start(p);
        putc('(', p->out);
        p->space = false;
    }
    const xq_branch *b = l->branch;
    put_comment(p, b->comment, b->nodes, l->translated ? 0 : b->count, l->number, l->side);
    p->need_number = true;
    if (l->depth == 0 && p->space && l->translated) {
        putc('\n', p->out);   /* the game comment on its own line */
        p->space = false;
    }
}

static void line_end(void *ctx, const xq_walk_line *l)
{
    pgn *p = ctx;
    if (p->skip >= 0 && p->skip < l->depth) return;
    p->skip = -1;
    if (l->depth > 0) putc(')', p->out);
    p->need_number = true;
}

void xq_pgn_movetext(FILE *out, const xq_game *g, const xq_replay *r, const xq_write_options *opt,
                     xq_notation notation, unsigned flags, xq_write_report *rep)
{
    pgn p = {out, opt, notation, flags, false, true, -1};
    static const xq_walk_ops ops = {move_begin, NULL, line_begin, line_end};
    xq_walk_game(g, r, !opt->no_variations, &ops, &p, rep);
    token_start(&p);
    fprintf(out, "%s\n\n", xq_write_result_token(g));
}

/* ---- the PGN writer ---------------------------------------------------------- */

/* formats.md §1e: the XQBase / ElephantEye order; Game is written first. */
static const char *const PGN_ORDER[] = {"Event", "Round", "Date", "Site", "RedTeam", "Red", "BlackTeam",
                                        "Black", "Result", "ECCO", "Opening", "Variation", NULL};
/* Tags the writers set themselves. */
static const char *const PGN_OWN[] = {"Game", "FEN", "Format", "Variant", "SetUp", NULL};

/* The Format tag for a notation: none for Chinese (the default). */
static const char *format_tag(xq_notation n)
{
    switch (n) {
    case XQ_NOTATION_WXF: return "WXF";
    case XQ_NOTATION_ICCS: case XQ_NOTATION_UCCI: return "ICCS";
    case XQ_NOTATION_SAN: return "SAN";
    default: return NULL;
    }
}

void xq_write_pgn(FILE *out, const xq_game *g, const xq_replay *r, const xq_write_options *opt,
                  xq_write_report *rep)
{
    xq_notation notation = opt->notation == XQ_NOTATION_AUTO ? XQ_NOTATION_CHINESE : opt->notation;
    xq_pgn_tag(out, "Game", "Chinese Chess");
    size_t n;
    const xq_tag **tags = xq_tags_ordered(g, PGN_ORDER, PGN_OWN, &n);
    for (size_t i = 0; i < n; i++)
        xq_pgn_tag(out, xq_tag_is(tags[i]->name, "Red") ? "Red" : tags[i]->name, tags[i]->value);
    free(tags);
    char fenbuf[XQ_FEN_MAX];
    const char *fen = xq_write_fen(g, r, fenbuf);
    if (fen) xq_pgn_tag(out, "FEN", fen);
    if (format_tag(notation)) xq_pgn_tag(out, "Format", format_tag(notation));
    putc('\n', out);
    xq_pgn_movetext(out, g, r, opt, notation, opt->notation_flags, rep);
}
