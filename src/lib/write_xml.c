/* write_xml.c - our XML format (schema src/xq-game.rng, namespace
 * urn:xq-tools:game:1, read back by xml_read.c):
 *
 *   <games xmlns="urn:xq-tools:game:1">
 *     <game result="1-0">
 *       <tag name="Event">...</tag> ...       tags in record order
 *       <fen>...</fen>                         when not the start position
 *       <comment>...</comment>                 before the first move
 *       <move iccs="h2e2" text="炮二平五" nags="1">
 *         <comment>...</comment>
 *         <variation> <comment/>? <move/>... </variation>  alternatives to this move
 *       </move> ...
 *     </game>
 *   </games>
 *
 * iccs (a0..i9, lower case) is the move; text is the move in the chosen
 * notation.  An untranslated move has only text, as in the record.
 * See write.h. */
#include "write_internal.h"

#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "xml_read.h"

/* Write s as XML character data (attr: inside "..."): markup escaped,
 * C0 control characters (XML 1.0 forbids them) as spaces like the PGN
 * writer does, U+FFFE/U+FFFF and bytes that are not UTF-8 as U+FFFD;
 * *changed is set when one of those was met. */
static void xml_put(FILE *out, const char *s, bool attr, bool *changed)
{
    if (!s) return;
    char *fixed = NULL;
    size_t n = strlen(s);
    if (!xq_utf8_valid((const unsigned char *)s, n, false) && (fixed = malloc(3 * n + 1))) {
        size_t o = 0;
        for (size_t i = 0; i < n;) {
            unsigned char c = (unsigned char)s[i];
            size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
            if (i + len <= n && xq_utf8_valid((const unsigned char *)s + i, len, false)) {
                memcpy(fixed + o, s + i, len);
                o += len;
                i += len;
            } else {
                memcpy(fixed + o, "\xEF\xBF\xBD", 3);
                o += 3;
                i++;
            }
        }
        fixed[o] = 0;
        s = fixed;
        *changed = true;
    }
    const char *run = s;
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        const char *rep = NULL;
        size_t skip = 1;
        switch (c) {
        case '&': rep = "&amp;"; break;
        case '<': rep = "&lt;"; break;
        case '>': rep = "&gt;"; break;
        case '"': rep = attr ? "&quot;" : NULL; break;
        case '\n': rep = attr ? "&#10;" : NULL; break;
        case '\t': rep = attr ? "&#9;" : NULL; break;
        case '\r': rep = "&#13;"; break;
        case 0xEF:   /* U+FFFE, U+FFFF are not XML characters */
            if ((unsigned char)p[1] == 0xBF && ((unsigned char)p[2] & 0xFE) == 0xBE)
                rep = "\xEF\xBF\xBD", skip = 3, *changed = true;
            break;
        default:
            if (c < 0x20) rep = " ", *changed = true;   /* XML 1.0 has no C0 controls; as the PGN writer */
        }
        if (!rep) continue;
        fwrite(run, 1, (size_t)(p - run), out);
        fputs(rep, out);
        p += skip - 1;
        run = p + 1;
    }
    fputs(run, out);
    free(fixed);
}

static void indent(FILE *out, int depth)
{
    static const char spaces[] = "                                                                ";
    for (size_t n = 2 + 4 * (size_t)depth; n;) {
        size_t k = n < sizeof spaces - 1 ? n : sizeof spaces - 1;
        fwrite(spaces, 1, k, out);
        n -= k;
    }
}

static void element(FILE *out, int depth, const char *name, const char *text, bool *changed)
{
    indent(out, depth);
    fprintf(out, "<%s>", name);
    xml_put(out, text, false, changed);
    fprintf(out, "</%s>\n", name);
}

typedef struct {
    FILE *out;
    const xq_write_options *opt;
    xq_notation notation;
    xq_notation read_in;   /* the notation of the record's Format tag */
    bool changed;          /* a character XML cannot hold was written otherwise */
} xmlw;

static bool has_children(const xmlw *x, const xq_node *n)
{
    return (n->comment && !x->opt->no_comments) || (n->variation_count && !x->opt->no_variations);
}

static void move_begin(void *ctx, const xq_walk_move *m)
{
    xmlw *x = ctx;
    const xq_node *n = m->node;
    char iccs[XQ_NOTATION_MAX], text[XQ_NOTATION_MAX];
    indent(x->out, 2 * m->depth);
    fputs("<move", x->out);
    if (m->move && xq_move_write(m->pos, m->move, XQ_NOTATION_UCCI, 0, iccs, sizeof iccs)) {
        fputs(" iccs=\"", x->out);
        fputs(iccs, x->out);
        fputs("\" text=\"", x->out);
        if (!xq_move_write(m->pos, m->move, x->notation, x->opt->notation_flags, text, sizeof text))
            snprintf(text, sizeof text, "%s", iccs);
        xml_put(x->out, text, true, &x->changed);
    } else {
        /* read back without a Format tag (the XML has none): a text the
         * record's notation failed on that would then read as a legal
         * move gets a leading '~' (no notation has it), so that the game
         * fails there again */
        fputs(x->read_in != XQ_NOTATION_AUTO && xq_untranslated_would_read(m, x->read_in, XQ_NOTATION_AUTO)
                  ? " text=\"~" : " text=\"", x->out);
        xml_put(x->out, n->text, true, &x->changed);
    }
    putc('"', x->out);
    for (uint16_t i = 0; i < n->nag_count; i++) fprintf(x->out, "%s%u", i ? " " : " nags=\"", (unsigned)n->nags[i]);
    if (n->nag_count) putc('"', x->out);
    if (!has_children(x, n)) {
        fputs("/>\n", x->out);
        return;
    }
    fputs(">\n", x->out);
    if (n->comment && !x->opt->no_comments) element(x->out, 2 * m->depth + 1, "comment", n->comment, &x->changed);
}

static void move_end(void *ctx, const xq_walk_move *m)
{
    xmlw *x = ctx;
    if (!has_children(x, m->node)) return;
    indent(x->out, 2 * m->depth);
    fputs("</move>\n", x->out);
}

static void line_begin(void *ctx, const xq_walk_line *l)
{
    xmlw *x = ctx;
    const xq_branch *b = l->branch;
    if (l->depth > 0) {
        indent(x->out, 2 * l->depth - 1);
        fputs("<variation>\n", x->out);
    }
    if (b->comment && !x->opt->no_comments) element(x->out, 2 * l->depth, "comment", b->comment, &x->changed);
}

static void line_end(void *ctx, const xq_walk_line *l)
{
    xmlw *x = ctx;
    if (l->depth == 0) return;
    indent(x->out, 2 * l->depth - 1);
    fputs("</variation>\n", x->out);
}

void xq_write_xml_begin(FILE *out, xq_encoding enc)
{
    fprintf(out, "<?xml version=\"1.0\" encoding=\"%s\"?>\n<games xmlns=\"%s\">\n",
            enc == XQ_ENC_GBK ? "GBK" : enc == XQ_ENC_BIG5 ? "Big5" : "UTF-8", XQ_XML_NS);
}

void xq_write_xml_end(FILE *out)
{
    fputs("</games>\n", out);
}

/* Tags the XML holds elsewhere (fen) or that describe move text it does
 * not keep.  SetUp is the record's unless it says what the fen element
 * says (xq_tag_said_by_own): another one ([SetUp "1"] without a FEN, say)
 * is kept as a tag, so that the record converted back has it. */
static const char *const XML_OWN[] = {"FEN", "Format", NULL};

void xq_write_xml(FILE *out, const xq_game *g, const xq_replay *r, const xq_write_options *opt,
                  xq_write_report *rep)
{
    xmlw x = {out, opt, opt->notation == XQ_NOTATION_AUTO ? XQ_NOTATION_CHINESE : opt->notation,
              xq_notation_from_format_tag(xq_game_tag(g, "Format")), false};
    fputs("<game", out);
    if (g->result_code != XQ_RESULT_NONE) fprintf(out, " result=\"%s\"", xq_result_str(g->result_code));
    fputs(">\n", out);
    size_t n;
    char fenbuf[XQ_FEN_MAX];
    const char *fen = xq_write_fen(g, r, fenbuf);
    const xq_tag **tags = xq_tags_ordered(g, NULL, XML_OWN, &n);
    for (size_t i = 0; i < n; i++) {
        /* (a Variant is kept: nothing else in the XML names the game) */
        if (xq_tag_is(tags[i]->name, "SetUp") && xq_tag_said_by_own(tags[i], fen != NULL)) continue;
        fputs("  <tag name=\"", out);
        xml_put(out, tags[i]->name, true, &x.changed);
        fputs("\">", out);
        xml_put(out, tags[i]->value, false, &x.changed);
        fputs("</tag>\n", out);
    }
    free(tags);
    if (fen) element(out, 0, "fen", fen, &x.changed);
    static const xq_walk_ops ops = {move_begin, move_end, line_begin, line_end};
    xq_walk_game(g, r, !opt->no_variations, &ops, &x, rep);
    fputs("</game>\n", out);
    if (x.changed)
        xq_write_note(rep, "xml cannot hold control characters, U+FFFE, U+FFFF or bytes that are not UTF-8: "
                           "written as spaces and U+FFFD");
}
