/* xml_read.c - our XML game format in, with libxml2's streaming reader
 * and safe options.  See xml_read.h. */
#include "xml_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlreader.h>

#include "replay.h"

/* Bytes of the file start looked at for a DOCTYPE before libxml2 sees any. */
enum { PROLOG_PEEK = 65536 };

/* Parser options: no network, CDATA as text, line numbers past 65535.
 * Deliberately absent: XML_PARSE_NOENT (entity substitution),
 * XML_PARSE_DTDLOAD / DTDATTR / DTDVALID (DTD loading), XML_PARSE_HUGE
 * (lifts the entity expansion and depth limits), XML_PARSE_XINCLUDE. */
static const int XML_OPTIONS = XML_PARSE_NONET | XML_PARSE_NOCDATA | XML_PARSE_BIG_LINES |
                               XML_PARSE_NOWARNING;

struct xq_xml_reader {
    xq_input *in;
    xmlTextReaderPtr rd;
    const char *path;          /* for messages: the path, "(stdin)" for "-" */
    xq_raw_line line;          /* line being fed to libxml2 */
    size_t line_pos;           /* bytes of it already fed (content, then terminator) */
    bool have_line, at_game;
    uint64_t index;
    char error[512];           /* first libxml2 error, or ours */
};

/* ---- input: the file's raw bytes, line by line, to libxml2 ------------------ */

static int read_cb(void *ctx, char *buf, int len)
{
    xq_xml_reader *x = ctx;
    int n = 0;
    while (n < len) {
        if (!x->have_line) {
            int rc = xq_input_line(x->in, &x->line);
            if (rc < 0) {
                snprintf(x->error, sizeof x->error, "%s", xq_input_error(x->in));
                return -1;
            }
            if (rc == 0) break;
            if (x->line.cut) {   /* its rest is dropped: refuse, never parse a cut document */
                snprintf(x->error, sizeof x->error, "%s:%llu: line longer than %d bytes", x->path,
                         (unsigned long long)x->line.number, (int)XQ_MAX_LINE);
                return -1;
            }
            x->have_line = true;
            x->line_pos = 0;
        }
        const xq_raw_line *l = &x->line;
        while (n < len && x->line_pos < l->raw_len) {
            size_t p = x->line_pos++;
            /* past the content: the terminator, "\r\n" or "\n" */
            buf[n++] = p < l->len ? (char)l->bytes[p] : (l->raw_len - l->len == 2 && p == l->len) ? '\r' : '\n';
        }
        if (x->line_pos >= l->raw_len) x->have_line = false;
    }
    return n;
}

static void on_error(void *ctx, xmlErrorPtr e)
{
    xq_xml_reader *x = ctx;
    if (x->error[0] || e->level < XML_ERR_ERROR) return;
    char msg[400];
    snprintf(msg, sizeof msg, "%s", e->message ? e->message : "malformed XML");
    size_t n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' ')) msg[--n] = 0;
    snprintf(x->error, sizeof x->error, "%s:%d:%d: XML error: %s", x->path, e->line, e->int2 > 0 ? e->int2 : 1,
             msg);
}

/* ---- refusing a DOCTYPE before parsing ---------------------------------------- */

static const unsigned char *skip_past(const unsigned char *p, const unsigned char *end, const char *marker)
{
    size_t m = strlen(marker);
    for (; p + m <= end; p++)
        if (!memcmp(p, marker, m)) return p + m;
    return NULL;
}

static void refuse_doctype(xq_xml_reader *x, unsigned long line)
{
    snprintf(x->error, sizeof x->error,
             "%s:%lu: XML document type declarations (DOCTYPE) are refused: the xq-game format has "
             "none, and DTDs and entities are never loaded or expanded",
             x->path, line);
}

/* Scan the prolog (BOM, XML declaration, comments, processing
 * instructions) in the first bytes for "<!DOCTYPE".  True when refused. */
static bool prolog_has_doctype(xq_xml_reader *x)
{
    const unsigned char *p = NULL;
    size_t n = xq_input_peek(x->in, PROLOG_PEEK, &p);
    const unsigned char *s = p, *end = p + n;
    if (n >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3)) p += 3;
    while (p && p < end) {
        if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
        else if (end - p >= 4 && !memcmp(p, "<!--", 4)) p = skip_past(p + 4, end, "-->");
        else if (end - p >= 2 && !memcmp(p, "<?", 2)) p = skip_past(p + 2, end, "?>");
        else if (end - p >= 9 && !memcmp(p, "<!DOCTYPE", 9)) {
            unsigned long line = 1;
            for (const unsigned char *q = s; q < p; q++) line += *q == '\n';
            refuse_doctype(x, line);
            return true;
        } else break;
    }
    return false;
}

xq_xml_reader *xq_xml_reader_open(xq_input *in, char *err, size_t errsz)
{
    xmlInitParser();
    xq_xml_reader *x = calloc(1, sizeof *x);
    const char *path = xq_input_path(in);
    if (!x) {
        if (errsz) snprintf(err, errsz, "%s: out of memory", path);
        return NULL;
    }
    x->in = in;
    x->path = strcmp(path, "-") ? path : "(stdin)";
    if (prolog_has_doctype(x)) {
        if (errsz) snprintf(err, errsz, "%s", x->error);
        free(x);
        return NULL;
    }
    x->rd = xmlReaderForIO(read_cb, NULL, x, NULL, NULL, XML_OPTIONS);
    if (!x->rd) {
        if (errsz) snprintf(err, errsz, "%s: cannot start the XML reader", x->path);
        free(x);
        return NULL;
    }
    xmlTextReaderSetStructuredErrorHandler(x->rd, on_error, x);
    return x;
}

void xq_xml_reader_close(xq_xml_reader *x)
{
    if (!x) return;
    if (x->rd) xmlFreeTextReader(x->rd);
    free(x);
}

/* ---- one <game> subtree to the game model -------------------------------------- */

static bool is_el(const xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name) &&
           (!n->ns || !strcmp((const char *)n->ns->href, XQ_XML_NS));
}

/* Value of attribute name (no namespace), or NULL.  Without a DTD an
 * attribute's value is a single text node. */
static const char *attr(const xmlNode *n, const char *name)
{
    for (const xmlAttr *a = n->properties; a; a = a->next)
        if (!a->ns && !strcmp((const char *)a->name, name))
            return a->children && a->children->content ? (const char *)a->children->content : "";
    return NULL;
}

/* Text content of element n copied into the game's arena. */
static const char *content(xq_game *g, const xmlNode *n)
{
    xmlChar *c = xmlNodeGetContent(n);
    const char *s = c ? xq_game_strndup(g, (const char *)c, strlen((const char *)c)) : "";
    xmlFree(c);
    return s;
}

static void unknown(xq_game *g, const xmlNode *n, const char *where)
{
    xq_game_diag(g, XQ_SEV_WARNING, (uint32_t)xmlGetLineNo(n), 1, 0, "unknown element <%s> in <%s> ignored",
                 (const char *)n->name, where);
}

static const char *join(xq_game *g, const char *old, const char *add)
{
    if (!old) return add;
    size_t a = strlen(old), b = strlen(add);
    char *s = xq_game_alloc(g, a + b + 2);
    if (!s) return old;
    memcpy(s, old, a);
    s[a] = '\n';
    memcpy(s + a + 1, add, b + 1);
    return s;
}

static void read_nags(xq_game *g, xq_node *node, const char *list)
{
    uint16_t tmp[64];
    size_t n = 0;
    for (const char *p = list; *p && n < 64;) {
        char *end;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p) break;
        if (v <= 65535) tmp[n++] = (uint16_t)v;
        p = end;
        while (*p == ' ' || *p == '\t' || *p == '\n') p++;
    }
    uint16_t *nags = n ? xq_game_alloc(g, n * sizeof *nags) : NULL;
    if (!nags) return;
    memcpy(nags, tmp, n * sizeof *nags);
    node->nags = nags;
    node->nag_count = (uint16_t)n;
}

static void read_line(xq_game *g, const xmlNode *parent, xq_branch *out);

static void read_move(xq_game *g, const xmlNode *el, xq_node *node)
{
    memset(node, 0, sizeof *node);
    node->line = (uint32_t)xmlGetLineNo(el);
    node->col = 1;
    const char *iccs = attr(el, "iccs"), *text = attr(el, "text");
    const char *t = iccs && *iccs ? iccs : text ? text : "";
    node->text = xq_game_strndup(g, t, strlen(t));
    if (!*t) xq_game_diag(g, XQ_SEV_ERROR, node->line, 1, 0, "<move> without iccs or text");
    const char *nags = attr(el, "nags");
    if (nags) read_nags(g, node, nags);
    uint32_t nvar = 0;
    for (const xmlNode *c = el->children; c; c = c->next) nvar += is_el(c, "variation");
    if (nvar) node->variations = xq_game_alloc(g, nvar * sizeof *node->variations);
    for (const xmlNode *c = el->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE) continue;
        if (is_el(c, "comment")) node->comment = join(g, node->comment, content(g, c));
        else if (is_el(c, "variation") && node->variations) read_line(g, c, &node->variations[node->variation_count++]);
        else unknown(g, c, "move");
    }
}

/* The moves and leading comment among the children of parent (a <game>
 * or <variation>); other children are left to the caller. */
static void read_line(xq_game *g, const xmlNode *parent, xq_branch *out)
{
    memset(out, 0, sizeof *out);
    size_t count = 0;
    for (const xmlNode *c = parent->children; c; c = c->next) count += is_el(c, "move");
    if (count && !(out->nodes = xq_game_alloc(g, count * sizeof *out->nodes))) return;
    for (const xmlNode *c = parent->children; c; c = c->next) {
        if (is_el(c, "move")) read_move(g, c, &out->nodes[out->count++]);
        else if (is_el(c, "comment") && out->count) out->nodes[out->count - 1].comment =
            join(g, out->nodes[out->count - 1].comment, content(g, c));
        else if (is_el(c, "comment")) out->comment = join(g, out->comment, content(g, c));
        else if (c->type == XML_ELEMENT_NODE && is_el(parent, "variation")) unknown(g, c, "variation");
    }
}

static void read_game(xq_xml_reader *x, const xmlNode *el, xq_game *g)
{
    xq_game_reset(g);
    g->index = ++x->index;
    g->first_line = (uint64_t)xmlGetLineNo(el);
    g->encoding = XQ_ENC_UTF8;
    g->file = xq_game_strndup(g, xq_input_path(x->in), strlen(xq_input_path(x->in)));
    const char *res = attr(el, "result");
    if (res) {
        g->result = xq_game_strndup(g, res, strlen(res));
        if (!xq_result_parse(res, &g->result_code))
            xq_game_diag(g, XQ_SEV_ERROR, (uint32_t)g->first_line, 1, 0, "result=\"%s\" is not a result", res);
    }
    for (const xmlNode *c = el->children; c; c = c->next) {
        if (is_el(c, "tag")) {
            const char *name = attr(c, "name"), *value = content(g, c);
            if (name && *name) xq_game_add_tag(g, name, strlen(name), value, strlen(value));
            else xq_game_diag(g, XQ_SEV_ERROR, (uint32_t)xmlGetLineNo(c), 1, 0, "<tag> without a name ignored");
        } else if (is_el(c, "fen")) {
            const char *fen = content(g, c);
            xq_game_add_tag(g, "FEN", 3, fen, strlen(fen));
        } else if (c->type == XML_ELEMENT_NODE && !is_el(c, "move") && !is_el(c, "comment")) {
            unknown(g, c, "game");
        }
    }
    read_line(g, el, &g->main);
    g->fen = xq_game_tag(g, "FEN");
}

/* ---- the document ------------------------------------------------------------------ */

static int fail(xq_xml_reader *x, char *err, size_t errsz, const char *fallback)
{
    if (!x->error[0]) snprintf(x->error, sizeof x->error, "%s: %s", x->path, fallback);
    if (errsz) snprintf(err, errsz, "%s", x->error);
    return -1;
}

int xq_xml_reader_next(xq_xml_reader *x, xq_game *g, char *err, size_t errsz)
{
    if (x->error[0]) return fail(x, err, errsz, "");
    int ret = x->at_game ? xmlTextReaderNext(x->rd) : xmlTextReaderRead(x->rd);
    x->at_game = false;
    for (; ret == 1; ret = xmlTextReaderRead(x->rd)) {
        int type = xmlTextReaderNodeType(x->rd), depth = xmlTextReaderDepth(x->rd);
        if (type == XML_READER_TYPE_DOCUMENT_TYPE) {
            refuse_doctype(x, (unsigned long)xmlTextReaderGetParserLineNumber(x->rd));
            return fail(x, err, errsz, "");
        }
        if (type == XML_READER_TYPE_ENTITY_REFERENCE) return fail(x, err, errsz, "entity references are refused");
        if (type != XML_READER_TYPE_ELEMENT) continue;
        xmlNodePtr node = xmlTextReaderCurrentNode(x->rd);
        if (depth == 0 && !is_el(node, "games")) {
            char msg[200];
            snprintf(msg, sizeof msg, "root element <%s> is not <games> of %s", (const char *)node->name, XQ_XML_NS);
            return fail(x, err, errsz, msg);
        }
        if (depth == 1 && is_el(node, "game")) {
            xmlNodePtr el = xmlTextReaderExpand(x->rd);
            if (!el || x->error[0]) return fail(x, err, errsz, "malformed <game>");
            read_game(x, el, g);
            x->at_game = true;
            return 1;
        }
    }
    if (ret < 0 || x->error[0]) return fail(x, err, errsz, "malformed XML");
    return 0;
}
