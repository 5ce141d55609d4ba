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
    int untranslated;    /* depth of the open "{untranslated:" comment, -1 if none */
} pgn;

static void token_start(pgn *p)
{
    if (p->space) putc(' ', p->out);
    p->space = true;
}

static void put_comment(pgn *p, const char *c)
{
    if (!c || p->opt->no_comments) return;
    token_start(p);
    putc('{', p->out);
    xq_put_clean(p->out, c, "}", "\xEF\xBD\x9D", true);   /* '}' as U+FF5D: PGN has no escape */
    putc('}', p->out);
    p->need_number = true;
}

static void move_begin(void *ctx, const xq_walk_move *m)
{
    pgn *p = ctx;
    const xq_node *n = m->node;
    if (p->untranslated < 0 && !m->move) {
        token_start(p);
        fputs("{untranslated:", p->out);
        p->untranslated = m->depth;
    }
    if (p->untranslated >= 0) {
        putc(' ', p->out);
        if (n->number) fprintf(p->out, "%u.", (unsigned)n->number);
        xq_put_clean(p->out, n->text, "{}", "?", false);
        return;
    }
    token_start(p);
    if (m->pos->side == XQ_RED) fprintf(p->out, "%d. ", m->pos->fullmove);
    else if (p->need_number) fprintf(p->out, "%d... ", m->pos->fullmove);
    p->need_number = false;
    char buf[XQ_NOTATION_MAX];
    if (!xq_move_write(m->pos, m->move, p->notation, p->flags, buf, sizeof buf))
        xq_move_write(m->pos, m->move, XQ_NOTATION_UCCI, 0, buf, sizeof buf);   /* not expressible */
    fputs(buf, p->out);
    for (uint16_t i = 0; i < n->nag_count; i++) {
        token_start(p);
        fprintf(p->out, "$%u", (unsigned)n->nags[i]);
    }
    put_comment(p, n->comment);
}

static void move_end(void *ctx, const xq_walk_move *m)
{
    pgn *p = ctx;
    if (p->untranslated >= 0 || m->depth > 0 || m->pos->side != XQ_BLACK) return;
    putc('\n', p->out);   /* one move pair per line */
    p->space = false;
}

static void variation_begin(void *ctx, const xq_branch *b, int depth, size_t index)
{
    pgn *p = ctx;
    if (p->untranslated >= 0) {
        fputs(" (", p->out);
        return;
    }
    token_start(p);
    putc('(', p->out);
    p->space = false;
    put_comment(p, b->comment);
    p->need_number = true;
}

static void variation_end(void *ctx, const xq_branch *b, int depth)
{
    pgn *p = ctx;
    if (p->untranslated == depth) {
        putc('}', p->out);
        p->untranslated = -1;
    }
    putc(')', p->out);
    if (p->untranslated < 0) p->need_number = true;
}

void xq_pgn_movetext(FILE *out, const xq_game *g, const xq_replay *r, const xq_write_options *opt,
                     xq_notation notation, unsigned flags, xq_write_report *rep)
{
    pgn p = {out, opt, notation, flags, false, true, -1};
    static const xq_walk_ops ops = {move_begin, move_end, variation_begin, variation_end};
    put_comment(&p, g->main.comment);
    if (p.space) {
        putc('\n', out);
        p.space = false;
    }
    xq_walk_game(g, r, !opt->no_variations, &ops, &p, rep);
    if (p.untranslated >= 0) putc('}', out);
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
