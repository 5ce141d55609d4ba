/* xml_read.c - our XML game format in, with libxml2's streaming reader
 * and safe options.  See xml_read.h.  libxml2 is called through the table
 * of xml_lib.h (the library is loaded on the first XML input), named lx. */
#include "xml_read.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cbf_read.h"
#include "replay.h"
#include "xml_lib.h"

/* Bytes of the file start looked at for a DOCTYPE before libxml2 sees any. */
enum { PROLOG_PEEK = 65536 };

/* Parser options: no network, CDATA as text, line numbers past 65535.
 * Deliberately absent: XML_PARSE_NOENT (entity substitution),
 * XML_PARSE_DTDLOAD / DTDATTR / DTDVALID (DTD loading), XML_PARSE_HUGE
 * (lifts the entity expansion and depth limits), XML_PARSE_XINCLUDE. */
static const int XML_OPTIONS = XML_PARSE_NONET | XML_PARSE_NOCDATA | XML_PARSE_BIG_LINES |
                               XML_PARSE_NOWARNING;

struct xq_xml_reader {
    const xq_libxml2 *lx;      /* libxml2's functions */
    xq_input *in;
    xmlTextReaderPtr rd;
    const char *path;          /* for messages: the path ("-": standard input) */
    xq_raw_line line;          /* line being fed to libxml2 */
    size_t line_pos;           /* bytes of it already fed (content, then terminator) */
    bool have_line, at_game;
    bool stopped;              /* an error was met: libxml2 builds no more nodes */
    bool failed;               /* the reader failed: games left are taken from the tree */
    bool refused;              /* a construct we refuse (DOCTYPE, entity, root): nothing more */
    bool io_error;             /* the first error was the input's (error holds its message) */
    xmlDocPtr doc;             /* the document being built, known from the first error on */
    const xmlNode *cut;        /* the <game> open at the first error, or NULL (compared, never read) */
    uint32_t err_line, err_col;/* where the first error is */
    uint64_t index;
    char error[512];           /* first libxml2 error, or ours */
    /* the lines fed to libxml2 from line src_line on, each ended by '\n',
     * for the games' source (game.h): the lines before the last game's
     * last one are dropped as it is handed over (take_source); src_off
     * false once memory ran out for them (no source from then on) */
    xq_buf src;
    uint64_t src_line;
    bool src_ok, keep_source;
};

/* Marks a <game> element already handed over (its _private, application
 * data that libxml2 clears when it recycles a node). */
static char RETURNED;

static bool is_el(const xmlNode *n, const char *name);

/* ---- input: the file's raw bytes, line by line, to libxml2 ------------------ */

/* The input failed (I/O, decompression, a line too long): keep the reason
 * and end the data there, so that libxml2 reports where the document
 * stops (the open <game> is then handed over cut, see on_error) instead
 * of an I/O error that says nowhere. */
__attribute__((format(printf, 2, 3))) static void input_failed(xq_xml_reader *x, const char *fmt, ...)
{
    if (!x->error[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(x->error, sizeof x->error, fmt, ap);
        va_end(ap);
        x->io_error = true;
    }
}

/* Add the line just taken (x->line) to the lines kept for the games'
 * source. */
static void keep_line(xq_xml_reader *x)
{
    if (!x->src_ok) return;
    if (!x->src.len) x->src_line = x->line.number;
    if (!xq_buf_append(&x->src, x->line.bytes, x->line.len) || !xq_buf_append(&x->src, "\n", 1)) {
        x->src_ok = false;
        xq_buf_free(&x->src);
    }
}

static int read_cb(void *ctx, char *buf, int len)
{
    xq_xml_reader *x = ctx;
    int n = 0;
    while (n < len) {
        if (!x->have_line) {
            if (x->io_error) break;
            int rc = xq_input_line(x->in, &x->line);
            if (rc < 0) {
                input_failed(x, "%s", xq_input_error(x->in));
                break;
            }
            if (rc == 0) break;
            if (x->line.cut) {   /* its rest is dropped: refuse, never parse a cut document */
                input_failed(x, "%s:%llu: line longer than %d bytes", x->path, (unsigned long long)x->line.number,
                             (int)XQ_MAX_LINE);
                break;
            }
            x->have_line = true;
            x->line_pos = 0;
            keep_line(x);
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

/* The <game> (a child of the root element) that holds node, or NULL. */
static const xmlNode *game_of(const xmlNode *node)
{
    for (const xmlNode *n = node; n && n->parent; n = n->parent) {
        if (n->parent->type == XML_DOCUMENT_NODE) return xq_cbf_root(n) ? n : NULL;   /* a CBF file's one game */
        if (n->parent->type == XML_ELEMENT_NODE && n->parent->parent && n->parent->parent->type == XML_DOCUMENT_NODE &&
            !xq_cbf_root(n->parent))
            return is_el(n, "game") ? n : NULL;
    }
    return NULL;
}

/* libxml2's message of e, one line; a document that ends inside an
 * element (libxml2 says "Extra content at the end of the document") says
 * which element is left open. */
static void error_text(const xq_libxml2 *lx, const xmlError *e, const xmlNode *open, char *msg, size_t size)
{
    if (e->code == XML_ERR_DOCUMENT_END && open && open->type == XML_ELEMENT_NODE)
        snprintf(msg, size, "the document ends early: <%s> (line %ld) is not closed", (const char *)open->name,
                 lx->xmlGetLineNo(open));
    else snprintf(msg, size, "%s", e->message ? e->message : "malformed XML");
    size_t n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' ')) msg[--n] = 0;
}

/* The parser context of an error of x's reader, or NULL (the reader sets
 * its context's _private to itself). */
static xmlParserCtxtPtr parser_of(const xq_xml_reader *x, const xmlError *e)
{
    if (e->domain != XML_FROM_PARSER && e->domain != XML_FROM_NAMESPACE && e->domain != XML_FROM_IO &&
        e->domain != XML_FROM_I18N)
        return NULL;
    xmlParserCtxtPtr c = e->ctxt;
    return c && c->_private == (void *)x->rd ? c : NULL;
}

/* The first error stops the tree where it is (no node is built after it,
 * even for errors libxml2 would go on after, such as an undeclared
 * namespace prefix), so that what is in the tree is exactly what came
 * before it: the games read so far, the last one perhaps cut (x->cut). */
static void on_error(void *ctx, xmlErrorPtr e)
{
    xq_xml_reader *x = ctx;
    if (x->stopped || e->level < XML_ERR_ERROR) return;
    x->stopped = true;
    xmlParserCtxtPtr c = parser_of(x, e);
    if (c) {
        c->disableSAX = 1;   /* no more nodes */
        c->wellFormed = 0;   /* and the reader stops feeding the parser */
        x->doc = c->myDoc;
        x->cut = game_of(c->node);
    }
    x->err_line = e->line > 0 ? (uint32_t)e->line : 0;   /* where the data stops */
    x->err_col = e->int2 > 0 ? (uint32_t)e->int2 : 1;
    if (x->io_error) return;   /* the input's reason stands */
    char msg[400];
    error_text(x->lx, e, c ? c->node : NULL, msg, sizeof msg);
    snprintf(x->error, sizeof x->error, "%s:%u:%u: XML error: %s", x->path, x->err_line, x->err_col, msg);
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
    const char *path = xq_input_path(in), *why = "";
    const xq_libxml2 *lx = xq_libxml2_load(&why);   /* (xmlInitParser() done there) */
    if (!lx) {   /* as for other unreadable input: this file only */
        if (errsz) snprintf(err, errsz, "%s: cannot read XML: %s", path, why);
        return NULL;
    }
    xq_xml_reader *x = calloc(1, sizeof *x);
    if (!x) {
        if (errsz) snprintf(err, errsz, "%s: out of memory", path);
        return NULL;
    }
    x->lx = lx;
    x->in = in;
    x->path = path;
    x->src_ok = true;
    if (prolog_has_doctype(x)) {
        if (errsz) snprintf(err, errsz, "%s", x->error);
        free(x);
        return NULL;
    }
    x->rd = lx->xmlReaderForIO(read_cb, NULL, x, NULL, NULL, XML_OPTIONS);
    if (!x->rd) {
        if (errsz) snprintf(err, errsz, "%s: cannot start the XML reader", x->path);
        free(x);
        return NULL;
    }
    lx->xmlTextReaderSetStructuredErrorHandler(x->rd, on_error, x);
    return x;
}

void xq_xml_reader_close(xq_xml_reader *x)
{
    if (!x) return;
    if (x->rd) x->lx->xmlFreeTextReader(x->rd);
    xq_buf_free(&x->src);
    free(x);
}

void xq_xml_reader_keep_source(xq_xml_reader *x, bool keep)
{
    x->keep_source = keep;
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
static const char *content(const xq_libxml2 *lx, xq_game *g, const xmlNode *n)
{
    xmlChar *c = lx->xmlNodeGetContent(n);
    const char *s = c ? xq_game_strndup(g, (const char *)c, strlen((const char *)c)) : "";
    if (c) xq_libxml2_free(c);   /* (xmlFree(NULL) does nothing either) */
    return s;
}

static void unknown(const xq_libxml2 *lx, xq_game *g, const xmlNode *n, const char *where)
{
    xq_game_diag(g, XQ_SEV_WARNING, (uint32_t)lx->xmlGetLineNo(n), 1, 0, "unknown element <%s> in <%s> ignored",
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

static void read_line(const xq_libxml2 *lx, xq_game *g, const xmlNode *parent, xq_branch *out);

static void read_move(const xq_libxml2 *lx, xq_game *g, const xmlNode *el, xq_node *node)
{
    memset(node, 0, sizeof *node);
    node->line = (uint32_t)lx->xmlGetLineNo(el);
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
        if (is_el(c, "comment")) node->comment = join(g, node->comment, content(lx, g, c));
        else if (is_el(c, "variation") && node->variations)
            read_line(lx, g, c, &node->variations[node->variation_count++]);
        else unknown(lx, g, c, "move");
    }
}

/* The moves and leading comment among the children of parent (a <game>
 * or <variation>); other children are left to the caller. */
static void read_line(const xq_libxml2 *lx, xq_game *g, const xmlNode *parent, xq_branch *out)
{
    memset(out, 0, sizeof *out);
    size_t count = 0;
    for (const xmlNode *c = parent->children; c; c = c->next) count += is_el(c, "move");
    if (count && !(out->nodes = xq_game_alloc(g, count * sizeof *out->nodes))) return;
    for (const xmlNode *c = parent->children; c; c = c->next) {
        if (is_el(c, "move")) read_move(lx, g, c, &out->nodes[out->count++]);
        else if (is_el(c, "comment") && out->count) out->nodes[out->count - 1].comment =
            join(g, out->nodes[out->count - 1].comment, content(lx, g, c));
        else if (is_el(c, "comment")) out->comment = join(g, out->comment, content(lx, g, c));
        else if (c->type == XML_ELEMENT_NODE && is_el(parent, "variation")) unknown(lx, g, c, "variation");
    }
}

static void read_game(xq_xml_reader *x, const xmlNode *el, xq_game *g)
{
    const xq_libxml2 *lx = x->lx;
    xq_game_reset(g);
    g->index = ++x->index;
    g->first_line = (uint64_t)lx->xmlGetLineNo(el);
    g->encoding = XQ_ENC_UTF8;
    g->file = xq_game_strndup(g, xq_input_path(x->in), strlen(xq_input_path(x->in)));
    const char *res = attr(el, "result");
    if (res) {
        g->result = xq_game_strndup(g, res, strlen(res));
        if (!xq_result_parse(res, &g->result_code))
            xq_game_diag(g, XQ_SEV_ERROR, (uint32_t)g->first_line, 1, 0, "result=\"%s\" is not a result", res);
    }
    uint32_t fen_line = 0;   /* the line of the element of the first FEN tag */
    for (const xmlNode *c = el->children; c; c = c->next) {
        if (is_el(c, "tag")) {
            const char *name = attr(c, "name"), *value = content(lx, g, c);
            if (name && *name) xq_game_add_tag(g, name, strlen(name), value, strlen(value));
            else xq_game_diag(g, XQ_SEV_ERROR, (uint32_t)lx->xmlGetLineNo(c), 1, 0, "<tag> without a name ignored");
            if (name && !fen_line && !strcasecmp(name, "FEN")) fen_line = (uint32_t)lx->xmlGetLineNo(c);
        } else if (is_el(c, "fen")) {
            const char *fen = content(lx, g, c);
            xq_game_add_tag(g, "FEN", 3, fen, strlen(fen));
            if (!fen_line) fen_line = (uint32_t)lx->xmlGetLineNo(c);
        } else if (c->type == XML_ELEMENT_NODE && !is_el(c, "move") && !is_el(c, "comment")) {
            unknown(lx, g, c, "game");
        }
    }
    read_line(lx, g, el, &g->main);
    g->fen = xq_game_tag(g, "FEN");
    if (g->fen && fen_line) {   /* findings about the start: at its element (libxml2 gives no column) */
        g->fen_line = fen_line;
        g->fen_col = 1;
    }
}

/* ---- the document ------------------------------------------------------------------ */

/* Return -1 with x's error (fallback when there is none). */
static int fail(xq_xml_reader *x, char *err, size_t errsz, const char *fallback)
{
    if (!x->error[0]) snprintf(x->error, sizeof x->error, "%s: %s", x->path, fallback);
    if (errsz) snprintf(err, errsz, "%s", x->error);
    return -1;
}

/* The last line of n's subtree that holds text: the greatest line of its
 * elements (libxml2 numbers one by its start tag) and of its text nodes'
 * last characters that are not blanks (libxml2 numbers a text node by the
 * line where its text ended: the line breaks after that character taken
 * off; the blanks between elements hold nothing).  Should a text node be
 * numbered otherwise (a text over a parser buffer's end), a character
 * past the line found is only not placed (xq-validate --keep then names
 * the game's first line). */
static uint64_t last_line(const xq_libxml2 *lx, const xmlNode *n)
{
    long line = lx->xmlGetLineNo(n);
    uint64_t last = line > 0 ? (uint64_t)line : 0;
    if (n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE) {
        uint64_t breaks = 0, upto = 0;   /* line breaks before the last non-blank character */
        bool any = false;
        for (const xmlChar *c = n->content; c && *c; c++) {
            if (*c == '\n') breaks++;
            else if (*c != ' ' && *c != '\t' && *c != '\r') {
                upto = breaks;
                any = true;
            }
        }
        return any && last > breaks - upto ? last - (breaks - upto) : 0;
    }
    for (const xmlNode *c = n->children; c; c = c->next) {   /* (depth: libxml2's limit) */
        uint64_t l = last_line(lx, c);
        if (l > last) last = l;
    }
    return last;
}

/* The byte offset in x->src of line `line`'s start, or SIZE_MAX when it
 * is not kept. */
static size_t src_at(const xq_xml_reader *x, uint64_t line)
{
    if (line < x->src_line) return SIZE_MAX;
    size_t at = 0;
    for (uint64_t l = x->src_line; l < line; l++) {
        const char *nl = memchr(x->src.p + at, '\n', x->src.len - at);
        if (!nl) return SIZE_MAX;
        at = (size_t)(nl - x->src.p) + 1;
    }
    return at < x->src.len ? at : SIZE_MAX;
}

/* g, read from <game> el, gets its lines (first_line to last_line) as
 * its source when the caller wants it (xq_xml_reader_keep_source) and
 * they are UTF-8 (the encoding g says; a document in another declares it,
 * and libxml2 decodes it: its lines are left out); the kept lines before the last
 * one are dropped, whether copied or not (the next game starts there at
 * the earliest). */
static void take_source(xq_xml_reader *x, const xmlNode *el, xq_game *g)
{
    uint64_t last = last_line(x->lx, el);
    size_t from = src_at(x, g->first_line), to = src_at(x, last + 1), end = src_at(x, last);
    if (to == SIZE_MAX) to = x->src.len;
    if (x->keep_source && from != SIZE_MAX && from < to &&
        xq_utf8_valid((const unsigned char *)x->src.p + from, to - from, false)) {
        char *s = xq_game_strndup(g, x->src.p + from, to - from);
        if (s) {
            g->source = s;
            g->source_len = to - from;
        }
    }
    if (end != SIZE_MAX && end > 0) {
        memmove(x->src.p, x->src.p + end, x->src.len - end);
        x->src.len -= end;
        x->src_line = last;
    }
}

/* Hand over the <game> el: read it into g and mark it returned.  The game
 * open at the reader's error (x->cut) gets an error diagnostic there, as
 * the PGN reader does with a record the input cuts. */
static int give_game(xq_xml_reader *x, xmlNode *el, xq_game *g)
{
    if (xq_cbf_root(el)) xq_cbf_read_game(x->lx, el, g, xq_input_path(x->in), ++x->index);
    else read_game(x, el, g);
    take_source(x, el, g);
    el->_private = &RETURNED;
    if (el != x->cut) return 1;
    /* x->error without its place ("PATH:LINE:COL: " is the diag's, "PATH: "
     * the input's), as the PGN reader words a record the input cuts */
    const char *why = x->error, *xml = strstr(why, ": XML error: ");
    size_t pl = strlen(x->path);
    if (x->io_error && !strncmp(why, x->path, pl) && !strncmp(why + pl, ": ", 2)) why += pl + 2;
    if (x->io_error)
        xq_game_diag(g, XQ_SEV_ERROR, x->err_line, x->err_col, 0, "input ends early (%s); the record is cut here", why);
    else xq_game_diag(g, XQ_SEV_ERROR, x->err_line, x->err_col, 0, "%s; the record is cut here", xml ? xml + 2 : why);
    return 1;
}

/* The first <game> child of the root that was not handed over yet, or
 * the last one (last), or NULL. */
static xmlNode *unreturned(const xq_xml_reader *x, bool last)
{
    xmlNode *root = x->doc ? x->lx->xmlDocGetRootElement(x->doc) : NULL, *found = NULL;
    if (xq_cbf_root(root)) return root->_private != &RETURNED ? root : NULL;
    if (!root || !is_el(root, "games")) return NULL;
    for (xmlNode *c = root->children; c; c = c->next)
        if (is_el(c, "game") && c->_private != &RETURNED) {
            if (!last) return c;
            found = c;
        }
    return found;
}

/* After the reader failed: the games libxml2 built before the error that
 * were not handed over yet (it parses ahead of the reader, so there may be
 * several; the last one may be cut), one a call, then -1.  Nothing after
 * the error is read: libxml2 cannot resume a document that is not well
 * formed. */
static int drain(xq_xml_reader *x, xq_game *g, char *err, size_t errsz)
{
    xmlNode *c = unreturned(x, false);
    return c ? give_game(x, c, g) : fail(x, err, errsz, "malformed XML");
}

/* The reader failed (an error, or the data ended early): take the games
 * left from the tree. */
static int failed(xq_xml_reader *x, xq_game *g, char *err, size_t errsz)
{
    x->failed = true;
    if (!x->doc) {
        /* the error said nothing of the parser (the input's, with the
         * document complete; or a libxml2 that words errors otherwise):
         * the reader's document, and the last game left may be cut, so
         * say it is rather than pass a cut game as whole */
        xmlNodePtr cur = x->lx->xmlTextReaderCurrentNode(x->rd);
        x->doc = cur ? cur->doc : NULL;
        x->cut = unreturned(x, true);
    }
    return drain(x, g, err, errsz);
}

/* A refused document: -1 now and on every later call, no game handed over. */
static int refuse(xq_xml_reader *x, char *err, size_t errsz, const char *why)
{
    x->refused = true;
    return fail(x, err, errsz, why);
}

int xq_xml_reader_next(xq_xml_reader *x, xq_game *g, char *err, size_t errsz)
{
    const xq_libxml2 *lx = x->lx;
    if (x->refused) return fail(x, err, errsz, "");
    if (x->failed) return drain(x, g, err, errsz);
    if (x->stopped) return failed(x, g, err, errsz);   /* (an error met after the last game given) */
    int ret = x->at_game ? lx->xmlTextReaderNext(x->rd) : lx->xmlTextReaderRead(x->rd);
    x->at_game = false;
    for (; ret == 1 && !x->stopped; ret = lx->xmlTextReaderRead(x->rd)) {
        int type = lx->xmlTextReaderNodeType(x->rd), depth = lx->xmlTextReaderDepth(x->rd);
        if (type == XML_READER_TYPE_DOCUMENT_TYPE) {
            refuse_doctype(x, (unsigned long)lx->xmlTextReaderGetParserLineNumber(x->rd));
            return refuse(x, err, errsz, "");
        }
        if (type == XML_READER_TYPE_ENTITY_REFERENCE) return refuse(x, err, errsz, "entity references are refused");
        if (type != XML_READER_TYPE_ELEMENT) continue;
        xmlNodePtr node = lx->xmlTextReaderCurrentNode(x->rd);
        if (depth == 0 && !is_el(node, "games") && !xq_cbf_root(node)) {
            char msg[200];
            snprintf(msg, sizeof msg, "root element <%s> is not <games> of %s", (const char *)node->name, XQ_XML_NS);
            return refuse(x, err, errsz, msg);
        }
        if ((depth == 1 && is_el(node, "game")) || (depth == 0 && xq_cbf_root(node))) {   /* (CBF: cbf_read.h) */
            xmlNodePtr el = lx->xmlTextReaderExpand(x->rd);
            if (!el || x->stopped) break;   /* cut: handed over from the tree, with the others left */
            x->at_game = true;
            return give_game(x, el, g);
        }
    }
    if (ret < 0 || x->stopped || x->error[0]) return failed(x, g, err, errsz);
    return 0;
}
