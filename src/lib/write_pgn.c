/* write_pgn.c - PGN-style text in any notation (formats.md §1e): the
 * XQBase tag order with [Game "Chinese Chess"] first, then the movetext
 * shared with the XBoard writer.  See write.h. */
#include "write_internal.h"
#include "pgn_read.h"

#include <stdlib.h>
#include <string.h>

bool xq_pgn_name_bad(unsigned char c)
{
    return c <= 0x20 || c == 0x7f || c == '[' || c == ']' || c == '"' || c == '\\';
}

unsigned xq_pgn_tag(FILE *out, const char *name, const char *value)
{
    unsigned changed = 0;
    putc('[', out);
    for (const char *p = name; *p; p++) {
        bool bad = xq_pgn_name_bad((unsigned char)*p);
        if (bad) changed |= XQ_PGN_TAG_NAME;
        putc(bad ? '_' : *p, out);
    }
    fputs(" \"", out);
    for (const char *p = value ? value : ""; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"' || c == '\\') putc('\\', out);
        if (c < 0x20) changed |= c == '\n' || c == '\r' ? XQ_PGN_TAG_LINE : XQ_PGN_TAG_CONTROL;
        putc(c < 0x20 ? ' ' : *p, out);
    }
    fputs("\"]\n", out);
    return changed;
}

void xq_pgn_tag_notes(xq_write_report *rep, const char *format, unsigned changed)
{
    if (changed & XQ_PGN_TAG_NAME)
        xq_write_note(rep, "%s cannot hold a blank, bracket, quote or backslash in a tag name: written as '_'",
                      format);
    if (changed & XQ_PGN_TAG_LINE)
        xq_write_note(rep, "%s cannot hold a line break in a tag value: written as a space", format);
    if (changed & XQ_PGN_TAG_CONTROL)
        xq_write_note(rep, "%s cannot hold a control character in a tag value: written as a space", format);
}

/* ---- movetext ---------------------------------------------------------------- */

typedef struct {
    FILE *out;
    const xq_write_options *opt;
    xq_notation notation;
    unsigned flags;
    xq_notation read_in;   /* the notation the record's moves were read in (its Format tag) */
    xq_notation read_out;  /* the one the output's moves will be read in (the Format tag written) */
    bool space;            /* a separator is due before the next token */
    bool line_start;       /* nothing written on the current movetext line yet */
    bool need_number;      /* the next Black move needs "N..." */
    bool controls;         /* a comment's control character was written as a space */
} pgn;

static void token_start(pgn *p)
{
    if (p->space) putc(' ', p->out);
    p->space = true;
    p->line_start = false;
}

static void new_line(pgn *p)
{
    if (!p->line_start) putc('\n', p->out);
    p->line_start = true;
    p->space = false;
}

/* Does line[0..n) of a comment read as a tag line once written, its
 * control characters as spaces (put_comment_text)? */
static bool tag_line_written(const char *line, size_t n)
{
    if (!memchr(line, '[', n)) return false;
    char *copy = malloc(n + 1);
    if (!copy) return true;   /* (then the ';' form, which is always safe) */
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)line[i];
        copy[i] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
    }
    bool tag = xq_pgn_tag_line(copy, copy + n);
    free(copy);
    return tag;
}

/* True when text, in a {comment}, reads back as it is: no '}' (PGN has no
 * escape), no line break first, no empty line (a reader joins the lines
 * of a comment and an empty one adds nothing) and no line after a break
 * that is a tag line (a reader takes it for the next record: pgn_read.h
 * xq_pgn_tag_line). */
static bool brace_safe(const char *text)
{
    if (strchr(text, '}') || text[0] == '\n' || strstr(text, "\n\n")) return false;
    for (const char *nl = strchr(text, '\n'); nl; nl = strchr(nl + 1, '\n')) {
        const char *line = nl + 1, *end = strchr(line, '\n');
        if (tag_line_written(line, end ? (size_t)(end - line) : strlen(line))) return false;
    }
    return true;
}

/* Text of a comment, control characters but the line break as spaces. */
static void put_comment_text(pgn *p, const char *s, size_t n)
{
    const char *run = s;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!((c < 0x20 && c != '\n') || c == 0x7f)) continue;
        fwrite(run, 1, (size_t)(s + i - run), p->out);
        putc(' ', p->out);
        run = s + i + 1;
        p->controls = true;
    }
    fwrite(run, 1, (size_t)(s + n - run), p->out);
}

/* A comment: {text} when that reads back as it is, else one ";text" line
 * per line of text (a ';' comment runs to the end of its line and a
 * reader joins adjacent ones with a line break: '}' and empty lines
 * stay). */
static void put_comment(pgn *p, const char *text)
{
    if (p->opt->no_comments || !text) return;
    token_start(p);
    p->need_number = true;
    if (brace_safe(text)) {
        putc('{', p->out);
        put_comment_text(p, text, strlen(text));
        putc('}', p->out);
        return;
    }
    for (const char *line = text;;) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        putc(';', p->out);
        put_comment_text(p, line, n);
        putc('\n', p->out);
        if (!nl) break;
        line = nl + 1;
    }
    p->line_start = true;
    p->space = false;
}

/* ---- untranslated moves ---- */

/* Length of a PGN blank (U+00A0, U+3000, U+FEFF) at s, else 0. */
static size_t unicode_blank(const unsigned char *s)
{
    if (s[0] == 0xC2 && s[1] == 0xA0) return 2;
    if ((s[0] == 0xE3 && s[1] == 0x80 && s[2] == 0x80) || (s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF))
        return 3;
    return 0;
}

/* True when byte c or the character at s ends a PGN token. */
static bool token_breaker(const unsigned char *s)
{
    unsigned char c = *s;
    return c <= 0x20 || c == 0x7f || strchr("(){};", c) || unicode_blank(s);
}

/* Length of a move-number dot at s ('.', '…', '．'), else 0. */
static size_t number_dot(const char *s)
{
    if (*s == '.') return 1;
    return !strncmp(s, "\xE2\x80\xA6", 3) || !strncmp(s, "\xEF\xBC\x8E", 3) ? 3 : 0;
}

/* True when a PGN reader takes text, alone between blanks, as one move
 * with that text: not empty, no blank or bracket, no trailing '!' or '?'
 * (an annotation), not a result, a move number, a $NAG or dots. */
static bool token_reads_back(const char *text)
{
    size_t n = strlen(text);
    if (!n || text[n - 1] == '!' || text[n - 1] == '?') return false;
    for (const char *s = text; *s; s++)
        if (token_breaker((const unsigned char *)s)) return false;
    static const char *const results[] = {"1-0", "0-1", "1/2-1/2", "*", "½-½", "１－０", "０－１",
                                          "１/２－１/２", "１／２－１／２", "＊", "红胜", "紅勝", "黑胜",
                                          "黑勝", "和棋", "和局", NULL};
    for (int i = 0; results[i]; i++)
        if (!strcmp(text, results[i])) return false;
    if (text[0] == '$') {
        size_t i = 1;
        while (text[i] >= '0' && text[i] <= '9') i++;
        if (i > 1 && !text[i]) return false;
    }
    const char *s = text;
    while (*s >= '0' && *s <= '9') s++;
    const char *digits_end = s;
    size_t k;
    while ((k = number_dot(s))) s += k;
    if (!*s) return false;   /* "12", "12.", "...", "…" */
    if (digits_end > text && s > digits_end && !(*s >= '0' && *s <= '9')) return false;   /* "1.炮二平五" */
    return true;
}

/* True when text is a legal move at pos in notation n. */
static bool reads_legal(const xq_position *pos, const char *text, xq_notation n)
{
    xq_note_result res;
    xq_move_read(pos, text, strlen(text), n, 0, &res, NULL, 0);
    return res.status == XQ_NOTE_OK || res.status == XQ_NOTE_RESOLVED;
}

bool xq_untranslated_would_read(const xq_walk_move *m, xq_notation read_in, xq_notation read_out)
{
    const char *text = m->node->text ? m->node->text : "";
    return m->fail_pos && read_in != read_out && reads_legal(m->fail_pos, text, read_out) &&
           !reads_legal(m->fail_pos, text, read_in);
}

/* An untranslated move, as in the record when a reader of the output
 * takes it as that move and, being the first untranslated one of its
 * line, fails on it as the record's reader did; else marked with a
 * leading '~' (no notation has it) and its blanks and brackets as '_'. */
static void put_untranslated(pgn *p, const xq_walk_move *m)
{
    const char *text = m->node->text ? m->node->text : "";
    bool mark = !token_reads_back(text) || xq_untranslated_would_read(m, p->read_in, p->read_out);
    if (!mark) {
        fputs(text, p->out);
        return;
    }
    putc('~', p->out);
    for (const unsigned char *s = (const unsigned char *)text; *s;) {
        size_t k = unicode_blank(s);
        if (k || token_breaker(s)) {
            putc('_', p->out);
            s += k ? k : 1;
        } else {
            putc(*s++, p->out);
        }
    }
    size_t n = strlen(text);
    if (n && (text[n - 1] == '!' || text[n - 1] == '?')) putc('~', p->out);
}

static void move_begin(void *ctx, const xq_walk_move *m)
{
    pgn *p = ctx;
    const xq_node *n = m->node;
    if (m->depth == 0 && m->side == XQ_RED && m->index > 0) new_line(p);   /* one move pair per line */
    token_start(p);
    if (m->side == XQ_RED) fprintf(p->out, "%d. ", m->number);
    else if (p->need_number) fprintf(p->out, "%d... ", m->number);
    p->need_number = false;
    if (m->move) {
        char buf[XQ_NOTATION_MAX];
        if (!xq_move_write(m->pos, m->move, p->notation, p->flags, buf, sizeof buf))
            xq_move_write(m->pos, m->move, XQ_NOTATION_UCCI, 0, buf, sizeof buf);   /* not expressible */
        fputs(buf, p->out);
    } else {
        put_untranslated(p, m);
    }
    for (uint16_t i = 0; i < n->nag_count; i++) {
        token_start(p);
        fprintf(p->out, "$%u", (unsigned)n->nags[i]);
    }
    put_comment(p, n->comment);
}

static void line_begin(void *ctx, const xq_walk_line *l)
{
    pgn *p = ctx;
    if (l->depth > 0) {
        token_start(p);
        putc('(', p->out);
        p->space = false;
    }
    put_comment(p, l->branch->comment);
    p->need_number = true;
    if (l->depth == 0 && l->branch->count && !p->line_start) new_line(p);   /* the game comment on its own line */
}

static void line_end(void *ctx, const xq_walk_line *l)
{
    pgn *p = ctx;
    if (l->depth > 0) {
        putc(')', p->out);
        p->space = true;
        p->line_start = false;
    }
    p->need_number = true;
}

void xq_pgn_movetext(FILE *out, const xq_game *g, const xq_replay *r, const xq_write_options *opt,
                     xq_notation notation, unsigned flags, xq_notation read_as, const char *format,
                     xq_write_report *rep)
{
    pgn p = {out, opt, notation, flags, xq_notation_from_format_tag(xq_game_tag(g, "Format")), read_as,
             false, true, true, false};
    static const xq_walk_ops ops = {move_begin, NULL, line_begin, line_end};
    xq_walk_game(g, r, !opt->no_variations, &ops, &p, rep);
    token_start(&p);
    fprintf(out, "%s\n\n", xq_write_result_token(g));
    if (p.controls) xq_write_note(rep, "%s comment: control character written as a space", format);
}

/* ---- the PGN writer ---------------------------------------------------------- */

/* formats.md §1e: the XQBase / ElephantEye order; Game is written first. */
static const char *const PGN_ORDER[] = {"Event", "Round", "Date", "Site", "RedTeam", "Red", "BlackTeam",
                                        "Black", "Result", "ECCO", "Opening", "Variation", NULL};
/* Tags the writer sets itself.  Variant and SetUp are the record's unless
 * they say what Game and FEN say (xq_tag_said_by_own: XBoard's [Variant
 * "xiangqi"], [SetUp "1"] before a FEN): those are left to Game and FEN,
 * so that an XBoard record converted back is the direct conversion; any
 * other is written as it was. */
static const char *const PGN_OWN[] = {"Game", "FEN", "Format", NULL};

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

/* A record of no tag, move or result (no game: pgn_read.c no_game) as its
 * comment alone ("{}" for none), with no Game tag or '*' of the writer's,
 * so that it reads back as the same record, no game, never as a valid
 * one. */
static void write_no_game(FILE *out, const xq_game *g, const xq_write_options *opt)
{
    pgn p = {out, opt, XQ_NOTATION_CHINESE, 0, XQ_NOTATION_AUTO, XQ_NOTATION_AUTO, false, true, true, false};
    if (g->main.comment && !opt->no_comments) put_comment(&p, g->main.comment);
    else fputs("{}", out);
    fputs("\n\n", out);
}

void xq_write_pgn(FILE *out, const xq_game *g, const xq_replay *r, const xq_write_options *opt,
                  xq_write_report *rep)
{
    if (xq_game_holds_nothing(g) && !g->fen) {
        write_no_game(out, g, opt);
        return;
    }
    xq_notation notation = opt->notation == XQ_NOTATION_AUTO ? XQ_NOTATION_CHINESE : opt->notation;
    xq_pgn_tag(out, "Game", "Chinese Chess");
    size_t n;
    unsigned changed = 0;
    char fenbuf[XQ_FEN_MAX];
    const char *fen = xq_write_fen(g, r, fenbuf);
    const xq_tag **tags = xq_tags_ordered(g, PGN_ORDER, PGN_OWN, &n);
    n = xq_tags_drop_said(tags, n, fen != NULL);
    n = xq_tags_drop_repeats(tags, n, xq_pgn_name_bad, true, rep, "pgn");
    for (size_t i = 0; i < n; i++)
        changed |= xq_pgn_tag(out, xq_tag_is(tags[i]->name, "Red") ? "Red" : tags[i]->name, tags[i]->value);
    free(tags);
    xq_pgn_tag_notes(rep, "pgn", changed);
    if (fen) xq_pgn_tag(out, "FEN", fen);
    const char *format = format_tag(notation);
    if (format) xq_pgn_tag(out, "Format", format);
    putc('\n', out);
    xq_pgn_movetext(out, g, r, opt, notation, opt->notation_flags, xq_notation_from_format_tag(format), "pgn", rep);
}
