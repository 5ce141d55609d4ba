/* write_dhtmlxq.c - DhtmlXQ blocks (东萍 dpxq.com web board, formats.md
 * §1f) for web pages and forum posts.  Read back by dhtmlxq_read.c.
 *
 * One block per game:
 *   [DhtmlXQ]
 *   [DhtmlXQ_ver]www_dpxq_com[/DhtmlXQ_ver]
 *   [DhtmlXQ_title]..[/DhtmlXQ_title] ... one field per tag: Title title,
 *     Event event, Date date, Site place, Round round, Table table, Red
 *     red, RedTeam redteam, RedTime redtime, RedElo redelo, Black ...,
 *     TimeControl timerule, Annotator remark, Author author, ECCO and
 *     Opening together as open ("E27 name"), Result as result (红胜 黑胜
 *     和棋 未知); other tags under their own name (when it is a plain
 *     word); Game, FEN, Format and Variation are not written;
 *   [DhtmlXQ_binit] the 32 squares (x then y, y from the top, "99" for an
 *     empty slot) and [DhtmlXQ_fen] the FEN, when the start is not the
 *     standard one;
 *   [DhtmlXQ_movelist] the main line, x1 y1 x2 y2 per move;
 *   [DhtmlXQ_comment0] the game comment, [DhtmlXQ_comment<ply>] the
 *     comment after a main-line ply;
 *   [DhtmlXQ_move_<parent>_<ply>_<id>] each variation, ids 1, 2, ... in
 *     document order (parents first), followed by its comments
 *     [DhtmlXQ_comment<id>_<ply>]; an alternative to the first move of a
 *     variation is written as one more alternative to the move that
 *     variation replaces (the board numbers it so);
 *   [DhtmlXQ_generator]xq-tools[/DhtmlXQ_generator]
 *   [/DhtmlXQ]
 * Text: in comments "\n" becomes "||", and a '|' next to a bar or a line
 * break, a '\\' before 'u', a control character and a '[' that would read
 * as a tag ("[DhtmlXQ", "[/DhtmlXQ", ...) a \uXXXX escape, which the
 * readers decode (vschess too): every comment reads back as it was; in
 * tag values, which have no escape, line breaks and control characters
 * become spaces and such a '[' the full-width '［' (so that no value can
 * end a field), with a note; other text as is.
 * A variation's leading comment goes before the comment of its first
 * move (a line break between them), with a note: the format has no place
 * before a variation's first move; an empty comment is not written (readers take an empty field for
 * none), with a note; NAGs are not written.  A line ends before its first untranslated
 * move (reported by the walk).  Output is UTF-8 (xq_write_game converts
 * it to GBK or Big5 on request).
 */
#include "write_internal.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "binread.h"

/* ---- text ------------------------------------------------------------------ */

/* True when a '[' at s would start one of the reader's tags. */
static bool markup(const char *s)
{
    s += 1 + (s[1] == '/');
    return !strncasecmp(s, "DhtmlXQ", 7) || !strncasecmp(s, "DHJHtmlXQ", 9) || !strncasecmp(s, "comment_", 8) ||
           !strncasecmp(s, "game_comment_", 13);
}

/* What put_value wrote otherwise (bits, for the notes). */
enum {
    CH_MARKUP = 1u << 0,    /* a '[' that would start a tag: '［' */
    CH_TAG_LINE = 1u << 1,  /* a line break in a tag value: a space */
    CH_CONTROL = 1u << 2,   /* another control character: a space (CR: left out) */
};

/* Append s, a tag value, with a line break as a space, other control
 * characters as spaces (CR left out), and a '[' that would start a tag as
 * the full-width '［' (a field's value has no escape: the readers take it
 * as it is); the CH_* bits of what it wrote otherwise go to *changed. */
static void put_value(xq_buf *b, const char *s, unsigned *changed)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '[' && markup(s)) xq_buf_append(b, "\xEF\xBC\xBB", 3), *changed |= CH_MARKUP;
        else if (c == '\n') xq_buf_append(b, " ", 1), *changed |= CH_TAG_LINE;
        else if (c == '\r') *changed |= CH_CONTROL;
        else if (c < 0x20 || c == 0x7F) xq_buf_append(b, " ", 1), *changed |= CH_CONTROL;
        else xq_buf_append(b, s, 1);
    }
}

/* Whether the character at s, in comment text that begins at start, must
 * be written as a \uXXXX escape to read back as itself: a '|' next to
 * another '|' or to a line break (written "||", the comment's line
 * break, which readers take two bars at a time), or first or last (a
 * variation's leading comment and the move's are joined by "||"), a
 * backslash before 'u' (an escape to the readers), a control character
 * other than the line break, and a '[' that would start a tag. */
static bool comment_escape(const char *start, const char *s)
{
    unsigned char c = (unsigned char)*s;
    if (c == '|') return s == start || s[-1] == '|' || s[-1] == '\n' || !s[1] || s[1] == '|' || s[1] == '\n';
    if (c == '\\') return s[1] == 'u';
    if (c == '[') return markup(s);
    return (c < 0x20 && c != '\n') || c == 0x7F;
}

/* Append s, a comment, exactly as the readers read it back (vschess
 * dataToNode_DhtmlXQ, dhtmlxq_read.c): a line break as "||", and what
 * comment_escape names as \uXXXX (both readers decode it), so that every
 * text makes the round trip. */
static void put_comment_value(xq_buf *b, const char *s)
{
    for (const char *p = s; p && *p; p++) {
        if (*p == '\n') {
            xq_buf_append(b, "||", 2);
        } else if (comment_escape(s, p)) {
            char esc[8];
            snprintf(esc, sizeof esc, "\\u%04x", (unsigned)(unsigned char)*p);
            xq_buf_append(b, esc, 6);
        } else {
            xq_buf_append(b, p, 1);
        }
    }
}

static void put_str(xq_buf *b, const char *s)
{
    xq_buf_append(b, s, strlen(s));
}

static void put_field(xq_buf *b, const char *name, const char *value, unsigned *changed)
{
    put_str(b, "[DhtmlXQ_");
    put_str(b, name);
    put_str(b, "]");
    put_value(b, value, changed);
    put_str(b, "[/DhtmlXQ_");
    put_str(b, name);
    put_str(b, "]\n");
}

/* ---- lines of play ------------------------------------------------------------ */

/* One line being written: the main line (id 0) or a variation. */
typedef struct {
    unsigned id, parent;      /* its number and the branch it is written under */
    unsigned first_parent;    /* the branch under which alternatives to its first move go */
    int start;                /* absolute ply of its first move */
    size_t cur;               /* index of the node being walked */
    bool stopped;             /* an untranslated move was met ... */
    size_t stop;              /* ... at this index (SIZE_MAX: before the line) */
    const char *lead;         /* the leading comment of the variation */
    xq_buf moves, comments;
} line;

typedef struct {
    const xq_game *g;
    bool comments;
    line *lines;              /* by id */
    size_t nlines, cap;
    unsigned *stack;          /* ids of the open lines */
    size_t depth, scap;
    bool oom;
    unsigned changed;         /* CH_* bits of the tag values */
    size_t empty_comments;    /* empty comments not written (the format has none) */
    size_t leads_joined;      /* variations' leading comments put in their first move's field */
} writer;

static line *open_line(writer *w, unsigned parent, unsigned first_parent, int start, bool stopped,
                       const char *lead)
{
    if (w->nlines == w->cap) {
        size_t c = w->cap ? w->cap * 2 : 16;
        line *l = realloc(w->lines, c * sizeof *l);
        if (!l) { w->oom = true; return NULL; }
        w->lines = l;
        w->cap = c;
    }
    if (w->depth == w->scap) {
        size_t c = w->scap ? w->scap * 2 : 16;
        unsigned *s = realloc(w->stack, c * sizeof *s);
        if (!s) { w->oom = true; return NULL; }
        w->stack = s;
        w->scap = c;
    }
    line *l = &w->lines[w->nlines];
    memset(l, 0, sizeof *l);
    l->id = (unsigned)w->nlines++;
    l->parent = parent;
    l->first_parent = first_parent;
    l->start = start;
    l->stopped = stopped;
    l->stop = SIZE_MAX;
    l->lead = lead;
    w->stack[w->depth++] = l->id;
    return l;
}

static void on_move(void *ctx, const xq_walk_move *m)
{
    writer *w = ctx;
    if (w->oom || !w->depth) return;
    line *l = &w->lines[w->stack[w->depth - 1]];
    l->cur = m->index;
    if (!m->move && !l->stopped) {
        l->stopped = true;
        l->stop = m->index;
    }
    if (l->stopped) return;
    int from = XQ_FROM(m->move), to = XQ_TO(m->move);
    char d[5] = {(char)('0' + XQ_FILE(from)), (char)('0' + 9 - XQ_RANK(from)), (char)('0' + XQ_FILE(to)),
                 (char)('0' + 9 - XQ_RANK(to)), 0};
    put_str(&l->moves, d);
    if (!w->comments) return;
    const char *c = xq_write_comment(m->node->comment, &w->empty_comments);
    const char *lead = m->index == 0 ? xq_write_comment(l->lead, &w->empty_comments) : NULL;
    if (!c && !lead) return;
    w->leads_joined += lead != NULL;
    char name[64];
    int ply = l->start + (int)m->index;
    if (l->id) snprintf(name, sizeof name, "comment%u_%d", l->id, ply);
    else snprintf(name, sizeof name, "comment%d", ply);
    put_str(&l->comments, "[DhtmlXQ_");
    put_str(&l->comments, name);
    put_str(&l->comments, "]");
    if (lead) {
        put_comment_value(&l->comments, lead);
        if (c) put_str(&l->comments, "||");
    }
    put_comment_value(&l->comments, c);
    put_str(&l->comments, "[/DhtmlXQ_");
    put_str(&l->comments, name);
    put_str(&l->comments, "]\n");
}

static void on_line(void *ctx, const xq_walk_line *wl)
{
    writer *w = ctx;
    if (w->oom) return;
    if (wl->depth == 0) {
        line *m = open_line(w, 0, 0, 1, false, NULL);
        const char *c = w->comments ? xq_write_comment(wl->branch->comment, &w->empty_comments) : NULL;
        if (m && c) {
            put_str(&m->comments, "[DhtmlXQ_comment0]");
            put_comment_value(&m->comments, c);
            put_str(&m->comments, "[/DhtmlXQ_comment0]\n");
        }
        return;
    }
    if (!w->depth) return;
    const line *p = &w->lines[w->stack[w->depth - 1]];
    /* an alternative to the first move of a variation belongs under the
     * branch that variation was written under */
    unsigned parent = p->cur == 0 && p->id ? p->first_parent : p->id;
    int start = p->start + (int)p->cur;
    /* alternatives to the first untranslated move can still be written
     * (they continue the line that ends before it) */
    bool stopped = p->stopped && p->stop != p->cur;
    open_line(w, parent, parent, start, stopped, w->comments ? wl->branch->comment : NULL);
}

static void on_line_end(void *ctx, const xq_walk_line *wl)
{
    writer *w = ctx;
    (void)wl;
    if (w->depth) w->depth--;
}

/* ---- the writer ---------------------------------------------------------------- */

static const struct { const char *tag, *field; } TAGS[] = {
    {"Title", "title"},       {"Event", "event"},         {"Date", "date"},         {"Site", "place"},
    {"Round", "round"},       {"Table", "table"},         {"Red", "red"},           {"RedTeam", "redteam"},
    {"RedTime", "redtime"},   {"RedElo", "redelo"},       {"Black", "black"},       {"BlackTeam", "blackteam"},
    {"BlackTime", "blacktime"}, {"BlackElo", "blackelo"}, {"TimeControl", "timerule"},
    {"Annotator", "remark"},  {"Author", "author"},       {NULL, NULL},
};

/* Tags written another way or not at all. */
static bool special(const char *name)
{
    static const char *const S[] = {"Game", "FEN", "Format", "Variation", "ECCO", "Opening", "Result", NULL};
    for (int i = 0; S[i]; i++)
        if (xq_tag_is(name, S[i])) return true;
    for (int i = 0; TAGS[i].tag; i++)
        if (xq_tag_is(name, TAGS[i].tag)) return true;
    return false;
}

static bool plain_word(const char *s);

/* True when tag t of g is written: the first tag of a field's name, of
 * ECCO and Opening (the open field) or Result, a tag that says what the
 * block is anyway (Game, FEN: binit and fen, Format), or another tag
 * whose name is a plain word. */
static bool dhtmlxq_holds(const xq_game *g, const xq_tag *t)
{
    static const char *const FIRST[] = {"ECCO", "Opening", "Result", NULL};
    static const char *const OWN[] = {"Game", "FEN", "Format", NULL};
    if (!*t->value) return true;
    for (int i = 0; OWN[i]; i++)
        if (xq_tag_is(t->name, OWN[i])) return true;
    for (int i = 0; FIRST[i]; i++)
        if (xq_tag_is(t->name, FIRST[i])) return xq_game_tag(g, FIRST[i]) == t->value;
    for (int i = 0; TAGS[i].tag; i++)
        if (xq_tag_is(t->name, TAGS[i].tag)) return xq_game_tag(g, TAGS[i].tag) == t->value;
    return !special(t->name) && plain_word(t->name);
}

/* Notes: the tags of g that have no field (in record order), and what
 * text was written otherwise (changed: CH_* bits). */
static void note_losses(const xq_game *g, unsigned changed, xq_write_report *rep)
{
    char names[160];
    size_t n = 0, more = 0;
    for (size_t i = 0; i < g->tag_count; i++) {
        const xq_tag *t = &g->tags[i];
        if (dhtmlxq_holds(g, t)) continue;
        if (n + strlen(t->name) + 3 < sizeof names - 8)
            n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", n ? ", " : "", t->name);
        else
            more++;
    }
    if (more) snprintf(names + n, sizeof names - n, " +%zu", more);
    if (n) xq_write_note(rep, "dhtmlxq cannot hold tags %s: dropped", names);
    if (changed & CH_TAG_LINE) xq_write_note(rep, "dhtmlxq cannot hold a line break in a tag value: written as a space");
    if (changed & CH_MARKUP) xq_write_note(rep, "dhtmlxq cannot hold '[DhtmlXQ' in a tag value: '[' written as '［'");
    if (changed & CH_CONTROL) xq_write_note(rep, "dhtmlxq cannot hold control characters in a tag value: written as spaces");
}

/* The note for the empty comments left out: DhtmlXQ's readers (vschess,
 * dhtmlxq_read.c) take an empty comment field for no comment. */
static void note_empty_comments(size_t n, xq_write_report *rep)
{
    if (n) xq_write_note(rep, "dhtmlxq cannot hold empty comments: %zu dropped", n);
}

/* The note for the variations' leading comments written in their first
 * move's comment field: a field follows a move (comment<b>_<ply>), and
 * none comes before a variation's first move, so the readers (vschess,
 * dhtmlxq_read.c) give that move's comment back, the two joined by a
 * line break. */
static void note_leads_joined(size_t n, xq_write_report *rep)
{
    if (n)
        xq_write_note(rep, "dhtmlxq cannot hold a comment before a variation's first move: %zu put in that "
                           "move's comment", n);
}

static bool plain_word(const char *s)
{
    if (!*s || strlen(s) > 40) return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9'))) return false;
    return true;
}

/* The open field: the ECCO tag and the Opening, "E27 仙人指路..." (one
 * space between them), which the readers split again when ECCO is a code
 * (xq_dhtmlxq_open_code).  What does not come back so is written the
 * same way, with a note: an ECCO that is not a code (it reads back as
 * the Opening's start), an Opening that begins with a code and no ECCO
 * (its code reads back as the ECCO). */
static void put_open(xq_buf *b, const xq_game *g, unsigned *changed, xq_write_report *rep)
{
    const char *ecco = xq_game_tag(g, "ECCO"), *opening = xq_game_tag(g, "Opening");
    if (!ecco) ecco = "";
    if (!opening) opening = "";
    if (!*ecco && !*opening) return;
    put_str(b, "[DhtmlXQ_open]");   /* (as put_field, the value in two parts) */
    put_value(b, ecco, changed);
    if (*ecco && *opening) put_str(b, " ");
    put_value(b, opening, changed);
    put_str(b, "[/DhtmlXQ_open]\n");
    if (*ecco && !(strlen(ecco) == 3 && xq_dhtmlxq_open_code(ecco)))
        xq_write_note(rep, "dhtmlxq cannot hold an ECCO tag that is not a code (A00 to E99): written in the open "
                           "field before the Opening, it reads back as part of the Opening");
    else if (!*ecco && xq_dhtmlxq_open_code(opening))
        xq_write_note(rep, "dhtmlxq cannot hold an Opening that begins with an ECCO code without an ECCO tag: "
                           "the code reads back as the ECCO");
}

void xq_write_dhtmlxq(FILE *out, const xq_game *g, const xq_replay *r, const xq_write_options *opt,
                      xq_write_report *rep)
{
    xq_buf b = {0};
    writer w = {.g = g, .comments = !opt->no_comments};
    put_str(&b, "[DhtmlXQ]\n[DhtmlXQ_ver]www_dpxq_com[/DhtmlXQ_ver]\n");
    for (int i = 0; TAGS[i].tag; i++) {
        const char *v = xq_game_tag(g, TAGS[i].tag);
        if (v && *v) put_field(&b, TAGS[i].field, v, &w.changed);
    }
    put_open(&b, g, &w.changed, rep);
    if (xq_game_tag(g, "Result") || g->result_code != XQ_RESULT_NONE) {
        const char *res = xq_write_result_token(g);
        put_field(&b, "result", !strcmp(res, "1-0") ? "红胜" : !strcmp(res, "0-1") ? "黑胜"
                                : !strcmp(res, "1/2-1/2") ? "和棋" : "未知", &w.changed);
    }
    for (size_t i = 0; i < g->tag_count; i++)
        if (!special(g->tags[i].name) && plain_word(g->tags[i].name) && *g->tags[i].value)
            put_field(&b, g->tags[i].name, g->tags[i].value, &w.changed);

    bool readable = r->status != XQ_STATUS_UNREADABLE;
    if (readable && !xq_is_start_position(&r->start)) {
        int sq[32];
        int lost = xq_bin_slots(&r->start, sq);
        char binit[65];
        for (int i = 0; i < 32; i++) {
            binit[2 * i] = sq[i] < 0 ? '9' : (char)('0' + XQ_FILE(sq[i]));
            binit[2 * i + 1] = sq[i] < 0 ? '9' : (char)('0' + 9 - XQ_RANK(sq[i]));
        }
        binit[64] = 0;
        put_field(&b, "binit", binit, &w.changed);
        char fen[XQ_FEN_MAX];
        xq_fen_write(&r->start, fen, sizeof fen);
        put_field(&b, "fen", fen, &w.changed);
        if (lost && !rep->why[0])
            snprintf(rep->why, sizeof rep->why, "%d pieces of the start position do not fit binit's 32 slots (the fen field has them)",
                     lost);
    } else if (!readable && g->fen && *g->fen) {
        put_field(&b, "fen", g->fen, &w.changed);
    }

    /* the lines, through the walk */
    xq_walk_ops ops = {.move_begin = on_move, .line_begin = on_line, .line_end = on_line_end};
    xq_walk_game(g, r, !opt->no_variations, &ops, &w, rep);
    for (size_t i = 0; i < w.nlines && !w.oom; i++) {
        line *l = &w.lines[i];
        if (i == 0) {
            put_str(&b, "[DhtmlXQ_movelist]");
            if (l->moves.len) xq_buf_append(&b, l->moves.p, l->moves.len);
            put_str(&b, "[/DhtmlXQ_movelist]\n");
        } else if (l->moves.len) {
            char name[64];
            snprintf(name, sizeof name, "move_%u_%d_%u", l->parent, l->start, l->id);
            put_str(&b, "[DhtmlXQ_");
            put_str(&b, name);
            put_str(&b, "]");
            xq_buf_append(&b, l->moves.p, l->moves.len);
            put_str(&b, "[/DhtmlXQ_");
            put_str(&b, name);
            put_str(&b, "]\n");
        }
        if (l->comments.len && (i == 0 || l->moves.len)) xq_buf_append(&b, l->comments.p, l->comments.len);
    }
    put_str(&b, "[DhtmlXQ_generator]xq-tools[/DhtmlXQ_generator]\n[/DhtmlXQ]\n");
    note_losses(g, w.changed, rep);
    note_empty_comments(w.empty_comments, rep);
    note_leads_joined(w.leads_joined, rep);
    if (w.oom || !b.p) snprintf(rep->why, sizeof rep->why, "no DhtmlXQ written: out of memory");
    else fwrite(b.p, 1, b.len, out);
    for (size_t i = 0; i < w.nlines; i++) {
        xq_buf_free(&w.lines[i].moves);
        xq_buf_free(&w.lines[i].comments);
    }
    free(w.lines);
    free(w.stack);
    xq_buf_free(&b);
}
