/* cbf_read.c - 象棋橋 (CCBridge) CBF records into the game model.  See
 * cbf_read.h for the format and the mapping. */
#include "cbf_read.h"

#include <stdlib.h>
#include <string.h>

#include "binread.h"

/* Head fields that map to our tag names, the names the CBR and XQF
 * readers give the same fields (cbr_read.c, xqf_read.c), so that a game
 * has one set of tags whichever of the 象棋橋 formats it came in; the
 * others keep their CBF names. */
static const struct {
    const char *cbf, *tag;
} HEAD_TAGS[] = {
    {"Contest", "Event"}, {"RecordResult", "Result"}, {"Name", "Title"},
    {"Commentator", "Annotator"}, {"TimeRule", "TimeControl"},
};

bool xq_cbf_root(const xmlNode *n)
{
    return n && n->type == XML_ELEMENT_NODE && !n->ns && !strcmp((const char *)n->name, "ChineseChessRecord");
}

/* Is n the element `name` (CBF elements carry no namespace)? */
static bool is_cbf(const xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && !n->ns && !strcmp((const char *)n->name, name);
}

static uint32_t line_of(const xq_libxml2 *lx, const xmlNode *n)
{
    long l = lx->xmlGetLineNo(n);
    return l > 0 ? (uint32_t)l : 0;
}

static const char *attr(const xmlNode *n, const char *name)
{
    for (const xmlAttr *a = n->properties; a; a = a->next)
        if (!a->ns && !strcmp((const char *)a->name, name))
            return a->children && a->children->content ? (const char *)a->children->content : "";
    return NULL;
}

static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The text of n (its CDATA and text) without the blanks at both ends,
 * copied into g's arena; NULL when empty (or out of memory). */
static const char *text_of(const xq_libxml2 *lx, xq_game *g, const xmlNode *n)
{
    xmlChar *c = lx->xmlNodeGetContent(n);
    if (!c) return NULL;
    const char *s = (const char *)c, *e = s + strlen(s);
    while (s < e && blank(*s)) s++;
    while (e > s && blank(e[-1])) e--;
    const char *out = e > s ? xq_game_strndup(g, s, (size_t)(e - s)) : NULL;
    xq_libxml2_free(c);
    return out;
}

/* RecordResult's code as a result token (CBR's table: 4, "several", is
 * not a result of this game). */
static const char *result_of(xq_game *g, uint32_t line, const char *code)
{
    static const char *const RES[] = {"*", "1-0", "0-1", "1/2-1/2", "*"};
    if (code[0] >= '0' && code[0] <= '4' && !code[1]) return RES[code[0] - '0'];
    xq_game_diag(g, XQ_SEV_WARNING, line, 1, 0, "CBF RecordResult \"%s\" is not 0-4; read as unknown (*)", code);
    return "*";
}

static void read_head(const xq_libxml2 *lx, xq_game *g, const xmlNode *head)
{
    for (const xmlNode *c = head->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE) continue;
        const char *name = (const char *)c->name, *value = text_of(lx, g, c);
        if (!value) continue;
        for (size_t i = 0; i < sizeof HEAD_TAGS / sizeof HEAD_TAGS[0]; i++)
            if (!strcmp(name, HEAD_TAGS[i].cbf)) name = HEAD_TAGS[i].tag;
        if (!strcmp(name, "Result")) value = result_of(g, line_of(lx, c), value);
        xq_game_add_tag(g, name, strlen(name), value, strlen(value));
        if (!strcmp(name, "FEN") && !g->fen_line) {   /* findings about the start: at its element */
            g->fen_line = line_of(lx, c);
            g->fen_col = 1;
        }
    }
}

/* The squares of value "XY-XY" (X file 0-8 from Red's left, Y rank 0-9
 * from Black's side) as ICCS squares; false with an error diagnostic. */
static bool read_value(xq_game *g, uint32_t line, const char *v, int *from, int *to)
{
    if (!v || strlen(v) != 5 || v[2] != '-' || v[0] < '0' || v[0] > '9' || v[1] < '0' || v[1] > '9' ||
        v[3] < '0' || v[3] > '9' || v[4] < '0' || v[4] > '9') {
        xq_game_diag(g, XQ_SEV_ERROR, line, 1, 0,
                     "CBF <Move> value \"%s\" is not XY-XY (file 0-8, rank 0-9); this move and the ones after it "
                     "are dropped",
                     v ? v : "(none)");
        return false;
    }
    if (v[0] > '8' || v[3] > '8') {
        xq_game_diag(g, XQ_SEV_ERROR, line, 1, 0,
                     "CBF <Move> value \"%s\" has file 9, off the board (files 0-8); this move and the ones after it "
                     "are dropped",
                     v);
        return false;
    }
    *from = XQ_SQ(v[0] - '0', 9 - (v[1] - '0'));
    *to = XQ_SQ(v[3] - '0', 9 - (v[4] - '0'));
    return true;
}

/* The <Move> elements of list into g's main line (and its comment). */
static void read_moves(const xq_libxml2 *lx, xq_game *g, const xmlNode *list)
{
    size_t count = 0;
    for (const xmlNode *c = list->children; c; c = c->next) count += is_cbf(c, "Move");
    xq_branch *out = &g->main;
    if (count && !(out->nodes = xq_game_alloc(g, count * sizeof *out->nodes))) {
        g->out_of_memory = true;
        return;
    }
    bool first = true, stopped = false;
    uint32_t end_line = 0;
    for (const xmlNode *c = list->children; c && !stopped; c = c->next) {
        if (c->type != XML_ELEMENT_NODE) continue;
        uint32_t line = line_of(lx, c);
        if (!is_cbf(c, "Move")) {
            xq_game_diag(g, XQ_SEV_WARNING, line, 1, 0, "unknown element <%s> in <MoveList> ignored",
                         (const char *)c->name);
            continue;
        }
        if (end_line) {
            xq_game_diag(g, XQ_SEV_WARNING, line, 1, 0,
                         "CBF moves after the one marked end=\"1\" (line %u) ignored", end_line);
            break;
        }
        const char *value = attr(c, "value"), *end = attr(c, "end");
        if (end && strcmp(end, "0")) end_line = line;
        bool start = first && value && !strcmp(value, "00-00");
        first = false;
        if (start) {   /* the start position: its text is the comment before the first move */
            out->comment = text_of(lx, g, c);
            continue;
        }
        int from, to;
        if (!read_value(g, line, value, &from, &to)) break;
        if (from == to) {
            xq_game_diag(g, XQ_SEV_ERROR, line, 1, 0,
                         "CBF <Move> value \"%s\" goes from a square to itself; this move and the ones after it are "
                         "dropped",
                         value);
            break;
        }
        xq_node *n = &out->nodes[out->count];
        memset(n, 0, sizeof *n);
        char ucci[5];
        xq_bin_ucci(from, to, ucci);
        if (!(n->text = xq_game_strndup(g, ucci, 4))) {
            g->out_of_memory = true;
            return;
        }
        n->text_len = 4;
        n->line = line;
        n->col = 1;
        n->comment = text_of(lx, g, c);
        out->count++;
    }
}

void xq_cbf_read_game(const xq_libxml2 *lx, const xmlNode *root, xq_game *g, const char *path, uint64_t index)
{
    xq_game_reset(g);
    g->index = index;
    g->first_line = line_of(lx, root);
    g->encoding = XQ_ENC_UTF8;
    g->file = xq_game_strndup(g, path, strlen(path));
    const xmlNode *moves = NULL;
    for (const xmlNode *c = root->children; c; c = c->next) {
        if (is_cbf(c, "Head")) read_head(lx, g, c);
        else if (is_cbf(c, "MoveList") && !moves) moves = c;
        else if (c->type == XML_ELEMENT_NODE)
            xq_game_diag(g, XQ_SEV_WARNING, line_of(lx, c), 1, 0, "unknown element <%s> in <ChineseChessRecord> ignored",
                         (const char *)c->name);
    }
    g->fen = xq_game_tag(g, "FEN");
    if (!g->fen) g->fen_line = g->fen_col = 0;
    if (moves) read_moves(lx, g, moves);
    else xq_game_diag(g, XQ_SEV_ERROR, (uint32_t)g->first_line, 1, 0, "CBF record without <MoveList>: a game without moves");
}
