/* dhtmlxq_read.c - DhtmlXQ records (东萍 dpxq.com web board, "UBB" code in
 * forum posts) and the numeric-tag DHJHtmlXQ variant (广东象棋网) into the
 * game model.  Source: formats.md §1f (vschess dataToNode_DhtmlXQ and
 * dataToNode_DHJHtmlXQ, walker read_txt); checked on the corpus file
 * dhtmlxq/dhtmlxq.txt (1,446 variations).
 *
 * Input: any text or HTML holding blocks [DhtmlXQ]...[/DhtmlXQ] (also
 * [DhtmlXQiFrame], [DhtmlXQHTML], [DHJHtmlXQ...]); each block is one game.
 * Fields are [DhtmlXQ_<name>]value[/DhtmlXQ_<name>]; a value ends at the
 * next closing tag of any name (real files have [DhtmlXQ_blacktime]
 * ...[/DhtmlXQ_time]), or, when the closing tag is missing, at the next
 * field (a warning).  A block without its closing tag ends at the next
 * block or at the end of the file (a warning); fields outside any
 * container form a block of their own; a block without fields is no game.
 * Variations nest at most XQ_MAX_VARIATION_DEPTH deep and a block keeps at
 * most XQ_MAX_RECORD_MOVES moves (one error each beyond); the file is read
 * up to XQ_BIN_MAX_DHTMLXQ bytes.  The text encoding is the one
 * forced by the options, else UTF-8 (BOM or valid UTF-8), else GBK or Big5
 * as xq_detect_encoding decides; the scan steps over whole characters, so
 * GBK and Big5 trail bytes are never taken for '[' or ']'.
 *
 * Fields:
 *   movelist   4-digit groups x1 y1 x2 y2: x the file 0-8 from Red's
 *              left, y the row 0-9 from the top (ICCS rank = 9 - y);
 *   move_<p>_<k>_<id>  branch id: moves replacing ply k (1-based, counted
 *              from the game start) of branch p (0 = movelist); k right
 *              after the end of branch p continues that line;
 *   comment<k> / comment<b>_<k>  the comment after ply k of the main line
 *              / of branch b; comment0 the game comment; "||" is a line
 *              break, \uXXXX an escaped character;
 *   binit      32 (x, y) pairs, the pieces 车马相仕帅仕相马车炮炮兵×5 of
 *              Red then Black ("99" absent); fen (vschess) a FEN, which
 *              wins over binit; without either the standard start;
 *   title event date place round table red redteam redtime redelo black
 *              blackteam blacktime blackelo result (红胜 黑胜 和棋 未知)
 *              open ("E27 名称": ECCO code and opening) remark (annotator)
 *              author: tags Title Event Date Site Round Table Red RedTeam
 *              RedTime RedElo Black BlackTeam BlackTime BlackElo Result
 *              (as a PGN token) ECCO+Opening Annotator Author;
 *              A tag value keeps the spaces at its ends (as vschess and
 *              walker do: the round trip of write_dhtmlxq.c is exact); an
 *              end with a tab or line break (layout) is trimmed whole.
 *   ver init refer generator firstnum length type price: display only,
 *              ignored; any other field becomes a tag of its name.
 *   DHJHtmlXQ: _34 movelist with y counted from the bottom, _31 the board
 *              as 90 characters (FEN letters, anything else empty, row 9
 *              first), _32 the side to move (1 = Black), _33 the ply
 *              number of the start; comments [comment_<k>] and
 *              [game_comment_<k>].
 * The side to move is the FEN's, else the colour of the first piece
 * moved, else Red.  Moves are UCCI text (node->move set) at the line and
 * column of their four digits; raw = the block and the text around it up
 * to the next block (the last one to the end of the file), so the raw
 * bytes of all games give the file back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "binread.h"
#include "pgn_read.h"
#include "replay.h"

enum { SAMPLE = 64 * 1024, MAX_NAME = 64 };

/* A place in the file: byte offset, 1-based line and character column. */
typedef struct {
    size_t off;
    uint32_t line, col;
} cursor;

typedef struct {
    xq_sub_reader base;
    xq_input *in;
    unsigned char *data;      /* the whole file (malloc), at most XQ_BIN_MAX_DHTMLXQ */
    size_t len;
    bool cut;                 /* the file is longer than that */
    xq_encoding enc;          /* resolved: UTF8, GBK or BIG5 */
    xq_bin_conv conv;         /* values from enc to UTF-8 */
    size_t start;             /* offset of the text after the BOM */
    size_t pos;               /* where the next block is looked for */
    cursor cur;               /* line and column of a place at or before pos */
    size_t raw_from;          /* raw bytes of the next game start here */
    uint64_t index;
    bool done;
} dhtml_reader;

/* ---- scanning ------------------------------------------------------------------ */

/* Bytes of the character at p[0..n) in enc (1 for a stray byte). */
static size_t char_len(const unsigned char *p, size_t n, xq_encoding enc)
{
    unsigned char c = p[0];
    size_t k = 1;
    if (c < 0x80) return 1;
    if (enc == XQ_ENC_UTF8) k = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    else if (c >= 0x81 && c <= 0xFE) k = enc == XQ_ENC_GBK && n >= 4 && p[1] >= 0x30 && p[1] <= 0x39 ? 4 : 2;
    return k <= n ? k : n;
}

/* Move c forward to offset target (>= c->off), counting lines and
 * characters. */
static void walk_to(const dhtml_reader *r, cursor *c, size_t target)
{
    while (c->off < target) {
        if (r->data[c->off] == '\n') {
            c->line++;
            c->col = 1;
            c->off++;
        } else {
            c->off += char_len(r->data + c->off, r->len - c->off, r->enc);
            c->col++;
        }
    }
    if (c->off > target) c->off = target;   /* a cut character at the end */
}

/* Offset of the next '[' that starts a character, in [from, to); to when
 * none. */
static size_t next_bracket(const dhtml_reader *r, size_t from, size_t to)
{
    if (r->enc == XQ_ENC_UTF8) {
        const unsigned char *p = memchr(r->data + from, '[', to - from);
        return p ? (size_t)(p - r->data) : to;
    }
    size_t i = from;
    while (i < to && r->data[i] != '[') i += char_len(r->data + i, to - i, r->enc);
    return i < to ? i : to;
}

/* Case-insensitive match of the ASCII word w at off. */
static bool at_word(const dhtml_reader *r, size_t off, const char *w)
{
    size_t n = strlen(w);
    return off <= r->len && r->len - off >= n && !strncasecmp((const char *)r->data + off, w, n);
}

/* Kinds of bracket tags. */
typedef enum { T_NONE, T_OPEN, T_CLOSE, T_FIELD, T_FIELD_END } tag_kind;

typedef struct {
    tag_kind kind;
    size_t at, end;           /* '[' and just after ']' */
    bool dhj;                 /* DHJHtmlXQ spelling */
    char name[MAX_NAME + 1];  /* field name (after "DhtmlXQ_"), or "comment<k>" for DHJ comments */
} tag;

/* Classify the tag at '[' (offset at).  T_NONE when it is none of ours.
 * The DHJHtmlXQ comment tags [comment_<k>] and [game_comment_<k>] count
 * only with dhj (inside a DHJHtmlXQ block). */
static tag_kind classify(const dhtml_reader *r, size_t at, bool dhj_comments, tag *t)
{
    memset(t, 0, sizeof *t);
    t->at = at;
    size_t p = at + 1;
    bool close = p < r->len && r->data[p] == '/';
    if (close) p++;
    bool dhj = false;
    const char *comment_prefix = NULL;
    if (at_word(r, p, "DhtmlXQ")) p += 7;
    else if (at_word(r, p, "DHJHtmlXQ")) { p += 9; dhj = true; }
    else if (dhj_comments && at_word(r, p, "game_comment_")) comment_prefix = "game_comment_";
    else if (dhj_comments && at_word(r, p, "comment_")) comment_prefix = "comment_";
    else return T_NONE;
    t->dhj = dhj;
    size_t q = p, n = 0;
    bool field = comment_prefix || (q < r->len && r->data[q] == '_');
    if (comment_prefix) q += strlen(comment_prefix);
    else if (field) q++;
    /* the rest of the name, up to ']' */
    while (q < r->len && r->data[q] != ']' && n < MAX_NAME) {
        unsigned char c = r->data[q];
        if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_')) return T_NONE;
        if (field) t->name[n++] = (char)c;
        q++;
    }
    if (q >= r->len || r->data[q] != ']') return T_NONE;
    if (comment_prefix) {
        /* DHJ [comment_<k>] / [game_comment_<k>]: vschess reads both as comment<k> */
        char num[MAX_NAME + 1];
        snprintf(num, sizeof num, "%s", t->name);
        snprintf(t->name, sizeof t->name, "comment%.56s", num);
        t->dhj = true;
    } else if (field && n == 0) {
        return T_NONE;
    }
    t->end = q + 1;
    t->kind = field ? (close ? T_FIELD_END : T_FIELD) : (close ? T_CLOSE : T_OPEN);
    return t->kind;
}

/* The next tag of ours at or after from, before to (t->kind T_NONE: none). */
static void next_tag(const dhtml_reader *r, size_t from, size_t to, bool dhj, tag *t)
{
    for (size_t at = next_bracket(r, from, to); at < to; at = next_bracket(r, at + 1, to))
        if (classify(r, at, dhj, t) != T_NONE) return;
    memset(t, 0, sizeof *t);
    t->at = t->end = to;
}

/* ---- one block: fields ------------------------------------------------------------ */

typedef struct {
    uint8_t from, to;         /* ICCS squares, XQ_BIN_NO_SQUARE when undecodable */
    uint32_t branch;          /* the id of the branch that wrote it (comments) */
    uint32_t ply;             /* its absolute ply */
    cursor at;
} dmove;

typedef struct {
    uint32_t id, parent, ply; /* move_<parent>_<ply>_<id>; main: 0, -, 1 */
    size_t first, count;      /* its moves in the move array */
    cursor at;                /* the tag */
    size_t line;              /* the line its moves went to, SIZE_MAX: none */
} dbranch;

typedef struct {
    uint32_t branch, ply;
    const char *text;
    cursor at;
    bool used;
} dcomment;

/* A line of play of the result: the main line or one variation. */
typedef struct {
    size_t *mv;               /* indices into the move array */
    size_t n, cap;
    uint32_t start;           /* absolute ply of its first move */
    size_t parent, node;      /* attached as a variation of node `node` of line `parent` */
    int depth;
    xq_branch *out;
} dline;

typedef struct {
    dhtml_reader *r;
    xq_game *g;
    cursor cur;               /* moves forward only */
    dmove *mv;
    size_t nmv, cap_mv;
    dbranch *br;
    size_t nbr, cap_br;
    dcomment *com;
    size_t ncom, cap_com;
    dline *ln;
    size_t nln, cap_ln;
    bool dhj;
    bool have_pos, have_fen, have_fen_side;
    xq_position pos;
    cursor pos_at;            /* the field pos came from (have_pos): binit, fen or _31 */
    int start_ply_dhj;        /* DHJ _33, -1 if absent */
    int side_dhj;             /* DHJ _32, -1 if absent */
    bool too_many;            /* XQ_MAX_RECORD_MOVES reached */
    bool oom;
} block;

static bool grow(void **p, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap) return true;
    size_t c = *cap ? *cap * 2 : 16;
    void *q = realloc(*p, c * elem);
    if (!q) return false;
    *p = q;
    *cap = c;
    return true;
}

static void diag_at(block *b, xq_severity sev, const cursor *at, const char *fmt, const char *arg)
{
    xq_game_diag(b->g, sev, at->line, at->col, at->off, fmt, arg);
}

/* How value_text trims a value's ends. */
typedef enum {
    TRIM_BLANKS,   /* the blanks (spaces, tabs, line breaks): a field the reader parses (fen, result...) */
    TRIM_LAYOUT,   /* the blanks of an end that holds a tab or a line break: a tag value */
    TRIM_NONE,     /* nothing: a comment */
} trim_mode;

static bool blank(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Value bytes [from, to) as UTF-8, its ends trimmed as `how` says.  A tag
 * value keeps the spaces at its ends (vschess and walker keep them, and
 * write_dhtmlxq.c writes them as they are, so " x " reads back " x "); an
 * end whose blanks hold a tab or a line break is a page's layout
 * ("]\n  title\n[/"), which the writer never makes (it writes those as
 * spaces), and is trimmed whole. */
static const char *value_text(block *b, size_t from, size_t to, trim_mode how)
{
    const dhtml_reader *r = b->r;
    if (how != TRIM_NONE) {
        size_t k = from;
        bool layout = how == TRIM_BLANKS;
        for (; k < to && blank(r->data[k]); k++) layout |= r->data[k] != ' ';
        if (layout) from = k;
        layout = how == TRIM_BLANKS;
        for (k = to; k > from && blank(r->data[k - 1]); k--) layout |= r->data[k - 1] != ' ';
        if (layout) to = k;
    }
    unsigned bad = 0;
    const char *s = xq_bin_text(b->g, &b->r->conv, r->data + from, to - from,
                                 how == TRIM_NONE ? XQ_BIN_CRLF : XQ_BIN_AS_IS, &bad);
    if (!s) { b->oom = true; return ""; }
    if (bad) {
        cursor c = b->cur;
        walk_to(r, &c, from);
        char msg[64];
        snprintf(msg, sizeof msg, "%u", bad);
        diag_at(b, XQ_SEV_WARNING, &c, "%s invalid byte sequences in this value replaced by U+FFFD", msg);
    }
    return s;
}

/* A comment: "||" -> "\n", \uXXXX -> the character. */
static const char *comment_text(block *b, size_t from, size_t to)
{
    const char *s = value_text(b, from, to, TRIM_NONE);
    size_t n = strlen(s);
    char *o = xq_game_alloc(b->g, n + 1);
    if (!o) { b->oom = true; return s; }
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        if (s[i] == '|' && s[i + 1] == '|') {
            o[k++] = '\n';
            i += 2;
            continue;
        }
        unsigned v = 0;
        if (s[i] == '\\' && s[i + 1] == 'u' && sscanf(s + i + 2, "%4x", &v) == 1 && v &&
            strspn(s + i + 2, "0123456789abcdefABCDEF") >= 4 && (v < 0xD800 || v > 0xDFFF)) {
            /* 6 bytes in, at most 3 out */
            if (v < 0x80) o[k++] = (char)v;
            else if (v < 0x800) { o[k++] = (char)(0xC0 | v >> 6); o[k++] = (char)(0x80 | (v & 0x3F)); }
            else {
                o[k++] = (char)(0xE0 | v >> 12);
                o[k++] = (char)(0x80 | ((v >> 6) & 0x3F));
                o[k++] = (char)(0x80 | (v & 0x3F));
            }
            i += 6;
            continue;
        }
        o[k++] = s[i++];
    }
    o[k] = '\0';
    return k ? o : NULL;
}

static void add_tag(block *b, const char *name, const char *value)
{
    if (value && *value && !xq_game_add_tag(b->g, name, strlen(name), value, strlen(value))) b->oom = true;
}

/* Parse the movelist digits [from, to) as branch br's moves. */
static void parse_moves(block *b, size_t from, size_t to, dbranch *br)
{
    const dhtml_reader *r = b->r;
    br->first = b->nmv;
    br->count = 0;
    int digits[4], nd = 0;
    cursor first = {0};
    bool stopped = false;
    for (size_t i = from; i < to; i++) {
        unsigned char c = r->data[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
        walk_to(r, &b->cur, i);
        if (c < '0' || c > '9') {
            if (!stopped) {
                char what[8];
                snprintf(what, sizeof what, "%c", c >= 0x20 && c < 0x7F ? c : '?');
                diag_at(b, XQ_SEV_ERROR, &b->cur, "'%s' in a move list: moves are 4-digit groups; the rest of this list is left out", what);
            }
            stopped = true;
            continue;
        }
        if (stopped) continue;
        if (nd == 0) first = b->cur;
        digits[nd++] = c - '0';
        if (nd < 4) continue;
        nd = 0;
        if (b->nmv >= XQ_MAX_RECORD_MOVES) {
            if (!b->too_many) {
                char lim[16];
                snprintf(lim, sizeof lim, "%d", XQ_MAX_RECORD_MOVES);
                diag_at(b, XQ_SEV_ERROR, &first, "more than %s moves in one record; the rest are left out", lim);
            }
            b->too_many = true;
            return;
        }
        if (!grow((void **)&b->mv, &b->cap_mv, b->nmv, sizeof *b->mv)) { b->oom = true; return; }
        int x1 = digits[0], y1 = digits[1], x2 = digits[2], y2 = digits[3];
        if (x1 > 8 || x2 > 8) {
            char g4[48];
            snprintf(g4, sizeof g4, "%d%d%d%d", x1, y1, x2, y2);
            diag_at(b, XQ_SEV_ERROR, &first, "move %s names file 9, off the board; it and the rest of its line are left out", g4);
            stopped = true;
            continue;
        }
        dmove *m = &b->mv[b->nmv++];
        int r1 = b->dhj ? y1 : 9 - y1, r2 = b->dhj ? y2 : 9 - y2;
        m->from = (uint8_t)XQ_SQ(x1, r1);
        m->to = (uint8_t)XQ_SQ(x2, r2);
        m->branch = br->id;
        m->ply = br->ply + (uint32_t)br->count;
        m->at = first;
        br->count++;
    }
    if (nd && !stopped) {
        char n[16];
        snprintf(n, sizeof n, "%d", nd);
        diag_at(b, XQ_SEV_ERROR, &first, "move list ends with %s digits, not a 4-digit move; left out", n);
    }
}

/* binit: 32 (x, y) pairs -> b->pos. */
static void parse_binit(block *b, size_t from, size_t to, const cursor *at)
{
    const dhtml_reader *r = b->r;
    int d[64], n = 0;
    bool junk = false;
    for (size_t i = from; i < to; i++) {
        unsigned char c = r->data[i];
        if (c >= '0' && c <= '9') { if (n < 64) d[n] = c - '0'; n++; }
        else if (!(c == ' ' || c == '\t' || c == '\r' || c == '\n')) junk = true;
    }
    if (n != 64 || junk) {
        char msg[64];
        snprintf(msg, sizeof msg, "%d digits%s", n, junk ? " and other characters" : "");
        diag_at(b, XQ_SEV_ERROR, at, "binit holds %s, not 64 digits (32 squares); pieces past the end are absent", msg);
    }
    if (b->have_fen) return;   /* the fen field wins */
    xq_position_clear(&b->pos);
    for (int i = 0; i < 32 && 2 * i + 1 < n && 2 * i + 1 < 64; i++) {
        int x = d[2 * i], y = d[2 * i + 1];
        if (x > 8) continue;   /* 99: not on the board */
        int sq = XQ_SQ(x, 9 - y);
        if (b->pos.board[sq]) {
            char msg[16];
            snprintf(msg, sizeof msg, "%c%d", 'a' + x, 9 - y);
            diag_at(b, XQ_SEV_ERROR, at, "binit puts two pieces on %s; the later one is left off", msg);
            continue;
        }
        xq_position_put(&b->pos, sq, XQ_PIECE(XQ_BIN_SLOT_KIND[i % 16], i < 16 ? XQ_RED : XQ_BLACK));
    }
    b->have_pos = true;
    b->pos_at = *at;
}

/* DHJ _31: 90 board characters, row 9 first. */
static void parse_dhj_board(block *b, const char *s, const cursor *at)
{
    xq_position_clear(&b->pos);
    size_t n = strlen(s);
    if (n != 90) {
        char msg[32];
        snprintf(msg, sizeof msg, "%zu", n);
        diag_at(b, XQ_SEV_ERROR, at, "DHJHtmlXQ board (_31) holds %s characters, not 90", msg);
    }
    for (size_t i = 0; i < n && i < 90; i++) {
        static const char L[] = "KABNRCPkabnrcp";
        static const xq_kind K[7] = {XQ_GENERAL, XQ_ADVISOR, XQ_ELEPHANT, XQ_HORSE, XQ_CHARIOT, XQ_CANNON, XQ_SOLDIER};
        char c = s[i];
        if (c == 'H' || c == 'h') c = (char)(c + ('N' - 'H'));
        if (c == 'E' || c == 'e') c = (char)(c + ('B' - 'E'));
        const char *k = c ? strchr(L, c) : NULL;
        if (!k) continue;
        int idx = (int)(k - L);
        xq_position_put(&b->pos, XQ_SQ((int)(i % 9), 9 - (int)(i / 9)),
                        XQ_PIECE(K[idx % 7], idx < 7 ? XQ_RED : XQ_BLACK));
    }
    b->have_pos = true;
    b->pos_at = *at;
}

/* Parse "a_b_c" (up to 3 numbers) from s; returns how many. */
static int numbers(const char *s, uint32_t v[3])
{
    int n = 0;
    while (*s && n < 3) {
        if (*s < '0' || *s > '9') return -1;
        unsigned long long x = 0;
        while (*s >= '0' && *s <= '9') {
            x = x * 10 + (unsigned)(*s++ - '0');
            if (x > 0xFFFFFFF0u) return -1;
        }
        v[n++] = (uint32_t)x;
        if (*s == '_') s++;
        else if (*s) return -1;
    }
    return *s ? -1 : n;
}

static const char *const IGNORED[] = {"ver", "init", "refer", "generator", "firstnum", "length", "type", "price",
                                      NULL};
static const struct { const char *field, *tag; } TAGS[] = {
    {"title", "Title"},     {"event", "Event"},         {"date", "Date"},         {"place", "Site"},
    {"round", "Round"},     {"table", "Table"},         {"red", "Red"},           {"redteam", "RedTeam"},
    {"redtime", "RedTime"}, {"redelo", "RedElo"},       {"black", "Black"},       {"blackteam", "BlackTeam"},
    {"blacktime", "BlackTime"}, {"blackelo", "BlackElo"}, {"remark", "Annotator"}, {"author", "Author"},
    {"timerule", "TimeControl"}, {NULL, NULL},
};

bool xq_dhtmlxq_open_code(const char *s)
{
    return s[0] >= 'A' && s[0] <= 'E' && s[1] >= '0' && s[1] <= '9' && s[2] >= '0' && s[2] <= '9' &&
           (s[3] == 0 || s[3] == ' ' || (unsigned char)s[3] >= 0x80);
}

/* One field [from, to) of value. */
static void take_field(block *b, const tag *t, size_t from, size_t to, const cursor *at)
{
    const char *name = t->name;
    uint32_t v[3];
    if (b->dhj && !strcmp(name, "34")) name = "movelist";
    if (b->dhj && !strcmp(name, "31")) {
        parse_dhj_board(b, value_text(b, from, to, TRIM_BLANKS), at);
        return;
    }
    if (b->dhj && (!strcmp(name, "32") || !strcmp(name, "33"))) {
        int x = atoi(value_text(b, from, to, TRIM_BLANKS));
        if (name[1] == '2') b->side_dhj = x;
        else b->start_ply_dhj = x;
        return;
    }
    if (!strncasecmp(name, "move_", 5) && numbers(name + 5, v) != 3) {
        diag_at(b, XQ_SEV_WARNING, at, "[DhtmlXQ_%s]: not a variation number move_<parent>_<ply>_<id>; ignored",
                t->name);
        return;
    }
    if (!strcasecmp(name, "movelist") || !strncasecmp(name, "move_", 5)) {
        if (!grow((void **)&b->br, &b->cap_br, b->nbr, sizeof *b->br)) { b->oom = true; return; }
        dbranch *br = &b->br[b->nbr];
        memset(br, 0, sizeof *br);
        br->line = SIZE_MAX;
        br->at = *at;
        if (name[4] == 'l' || name[4] == 'L') {
            br->id = 0;
            br->parent = UINT32_MAX;
            br->ply = 1;
        } else {
            br->parent = v[0];
            br->ply = v[1];
            br->id = v[2];
            if (br->id == 0 || br->ply == 0) {
                diag_at(b, XQ_SEV_ERROR, at, "variation tag [DhtmlXQ_%s]: branch 0 and ply 0 do not exist; left out", t->name);
                return;
            }
        }
        b->nbr++;
        parse_moves(b, from, to, br);
        return;
    }
    if (!strncasecmp(name, "comment", 7)) {
        int k = numbers(name + 7, v);
        if (k < 1 || k > 2) {
            diag_at(b, XQ_SEV_WARNING, at, "[DhtmlXQ_%s]: not a comment number; ignored", t->name);
            return;
        }
        if (!grow((void **)&b->com, &b->cap_com, b->ncom, sizeof *b->com)) { b->oom = true; return; }
        dcomment *c = &b->com[b->ncom++];
        c->branch = k == 2 ? v[0] : 0;
        c->ply = k == 2 ? v[1] : v[0];
        c->text = comment_text(b, from, to);
        c->at = *at;
        c->used = false;
        if (!c->text) b->ncom--;
        return;
    }
    if (!strcasecmp(name, "binit")) { parse_binit(b, from, to, at); return; }
    if (!strcasecmp(name, "fen")) {
        const char *fen = value_text(b, from, to, TRIM_BLANKS);
        char err[160];
        if (xq_fen_read(&b->pos, fen, err, sizeof err)) {
            b->have_pos = b->have_fen = true;
            b->pos_at = *at;
            /* a side field written means the FEN decides the side */
            const char *sp = strchr(fen, ' ');
            b->have_fen_side = sp && sp[1] && sp[1] != ' ';
        } else {
            diag_at(b, XQ_SEV_ERROR, at, "the fen field does not parse (%s); ignored", err);
        }
        return;
    }
    if (!strcasecmp(name, "result")) {
        const char *s = value_text(b, from, to, TRIM_BLANKS);
        xq_result res = XQ_RESULT_NONE;
        if (!xq_result_parse(s, &res) || res == XQ_RESULT_NONE) {
            if (*s && strcmp(s, "未知"))
                diag_at(b, XQ_SEV_WARNING, at, "result \"%s\" is none of 红胜 黑胜 和棋 未知; read as unknown", s);
            res = XQ_RESULT_UNKNOWN;
        }
        add_tag(b, "Result", xq_result_str(res));
        return;
    }
    if (!strcasecmp(name, "open")) {
        const char *s = value_text(b, from, to, TRIM_LAYOUT);
        if (xq_dhtmlxq_open_code(s)) {
            char code[4] = {s[0], s[1], s[2], 0};
            add_tag(b, "ECCO", code);
            s += 3;
            if (*s == ' ') s++;   /* the one space between code and name ("E27 仙人指路") */
        }
        add_tag(b, "Opening", s);
        return;
    }
    for (int i = 0; IGNORED[i]; i++)
        if (!strcasecmp(name, IGNORED[i])) return;
    if (b->dhj && name[0] >= '0' && name[0] <= '9') return;   /* other DHJ numbers: display */
    for (int i = 0; TAGS[i].field; i++)
        if (!strcasecmp(name, TAGS[i].field)) {
            add_tag(b, TAGS[i].tag, value_text(b, from, to, TRIM_LAYOUT));
            return;
        }
    add_tag(b, name, value_text(b, from, to, TRIM_LAYOUT));
}

/* ---- one block: the tree -------------------------------------------------------- */

static size_t new_line(block *b, uint32_t start, size_t parent, size_t node, int depth)
{
    if (!grow((void **)&b->ln, &b->cap_ln, b->nln, sizeof *b->ln)) { b->oom = true; return SIZE_MAX; }
    dline *l = &b->ln[b->nln];
    memset(l, 0, sizeof *l);
    l->start = start;
    l->parent = parent;
    l->node = node;
    l->depth = depth;
    return b->nln++;
}

static bool line_push(block *b, size_t line, size_t mv)
{
    dline *l = &b->ln[line];
    if (!grow((void **)&l->mv, &l->cap, l->n, sizeof *l->mv)) { b->oom = true; return false; }
    l->mv[l->n++] = mv;
    return true;
}

/* Place branch br, whose parent branch p has its line: a new variation
 * line, or moves appended to p's line when br continues it. */
static void place(block *b, dbranch *br, const dbranch *p, bool *deep_warned)
{
    char id[40];
    snprintf(id, sizeof id, "%u_%u_%u", br->parent, br->ply, br->id);
    size_t L = p->line;
    const dline *pl = &b->ln[L];
    if (br->ply < pl->start || br->ply > pl->start + pl->n) {
        char msg[120];
        snprintf(msg, sizeof msg, "%s: ply %u is outside branch %u (plies %u-%u)", id, br->ply, br->parent,
                 pl->start, (unsigned)(pl->start + pl->n - 1));
        diag_at(b, XQ_SEV_ERROR, &br->at, "variation %s; left out", msg);
        return;
    }
    size_t k = br->ply - pl->start;
    if (k == pl->n) {
        /* continues the line (vschess: a child of its last move) */
        for (size_t i = 0; i < br->count; i++) line_push(b, L, br->first + i);
        br->line = L;
        return;
    }
    /* an alternative to the first move of a variation is an alternative
     * to the move that variation replaces */
    while (k == 0 && b->ln[L].parent != SIZE_MAX) {
        k = b->ln[L].node;
        L = b->ln[L].parent;
    }
    int depth = b->ln[L].depth + 1;
    if (depth > XQ_MAX_VARIATION_DEPTH) {
        if (!*deep_warned) {
            char msg[16];
            snprintf(msg, sizeof msg, "%d", XQ_MAX_VARIATION_DEPTH);
            diag_at(b, XQ_SEV_ERROR, &br->at, "variations nested deeper than %s are left out", msg);
        }
        *deep_warned = true;
        return;
    }
    if (!br->count) return;
    size_t nl = new_line(b, br->ply, L, k, depth);
    if (nl == SIZE_MAX) return;
    br->line = nl;
    for (size_t i = 0; i < br->count; i++) line_push(b, nl, br->first + i);
}

static int cmp_u32pair(uint32_t a1, uint32_t a2, uint32_t b1, uint32_t b2)
{
    return a1 != b1 ? (a1 < b1 ? -1 : 1) : a2 != b2 ? (a2 < b2 ? -1 : 1) : 0;
}

static int cmp_comment(const void *x, const void *y)
{
    const dcomment *a = x, *c = y;
    return cmp_u32pair(a->branch, a->ply, c->branch, c->ply);
}

/* Branch indices sorted by a key (id or parent), then by file order. */
typedef struct {
    uint32_t key;
    uint32_t idx;
} keyed;

static int cmp_keyed(const void *x, const void *y)
{
    const keyed *a = x, *c = y;
    return cmp_u32pair(a->key, a->idx, c->key, c->idx);
}

/* The comment of (branch, ply), joining repeats; NULL if none. */
static const char *find_comment(block *b, uint32_t branch, uint32_t ply)
{
    if (!b->ncom) return NULL;   /* b->com is NULL then */
    dcomment key = {.branch = branch, .ply = ply};
    dcomment *c = bsearch(&key, b->com, b->ncom, sizeof *b->com, cmp_comment);
    if (!c) return NULL;
    while (c > b->com && !cmp_comment(c - 1, &key)) c--;
    const char *s = NULL;
    for (; c < b->com + b->ncom && !cmp_comment(c, &key); c++) {
        c->used = true;
        if (!s) { s = c->text; continue; }
        size_t n1 = strlen(s), n2 = strlen(c->text);
        char *j = xq_game_alloc(b->g, n1 + n2 + 2);
        if (!j) { b->oom = true; return s; }
        memcpy(j, s, n1);
        j[n1] = '\n';
        memcpy(j + n1 + 1, c->text, n2 + 1);
        s = j;
    }
    return s;
}

/* Place the branches: the main line, then breadth first the branches
 * whose parent is placed (file order among siblings).  n log n time. */
static void place_all(block *b)
{
    size_t main_i = SIZE_MAX;
    for (size_t i = 0; i < b->nbr && main_i == SIZE_MAX; i++)
        if (b->br[i].id == 0) main_i = i;
    if (main_i == SIZE_MAX) {
        /* variations without a movelist: an empty main line */
        if (!grow((void **)&b->br, &b->cap_br, b->nbr, sizeof *b->br)) { b->oom = true; return; }
        main_i = b->nbr++;
        memset(&b->br[main_i], 0, sizeof b->br[main_i]);
        b->br[main_i].parent = UINT32_MAX;
        b->br[main_i].ply = 1;
    }
    dbranch *mb = &b->br[main_i];
    mb->line = new_line(b, 1, SIZE_MAX, 0, 0);
    if (mb->line == SIZE_MAX) return;
    for (size_t i = 0; i < mb->count; i++) line_push(b, mb->line, mb->first + i);

    size_t n = b->nbr;
    keyed *byid = malloc(n * sizeof *byid), *bypar = malloc(n * sizeof *bypar);
    uint32_t *queue = malloc(n * sizeof *queue);
    bool *seen = calloc(n, 1);
    if (!byid || !bypar || !queue || !seen) {
        b->oom = true;
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        byid[i] = (keyed){b->br[i].id, (uint32_t)i};
        bypar[i] = (keyed){b->br[i].parent, (uint32_t)i};
    }
    qsort(byid, n, sizeof *byid, cmp_keyed);
    qsort(bypar, n, sizeof *bypar, cmp_keyed);
    for (size_t i = 1; i < n; i++)
        if (byid[i].key == byid[i - 1].key) {
            dbranch *d = &b->br[byid[i].idx];
            seen[byid[i].idx] = true;
            char msg[40];
            snprintf(msg, sizeof msg, "%u_%u_%u", d->parent, d->ply, d->id);
            diag_at(b, XQ_SEV_ERROR, &d->at, "variation %s repeats an earlier branch number; left out", msg);
        }
    bool deep_warned = false;
    size_t qh = 0, qt = 0;
    queue[qt++] = (uint32_t)main_i;
    seen[main_i] = true;
    while (qh < qt && !b->oom) {
        const dbranch *p = &b->br[queue[qh++]];
        if (p->line == SIZE_MAX) continue;
        /* the children of p: the bypar entries with key p->id */
        size_t lo = 0, hi = n;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (bypar[mid].key < p->id) lo = mid + 1;
            else hi = mid;
        }
        for (size_t i = lo; i < n && bypar[i].key == p->id; i++) {
            uint32_t c = bypar[i].idx;
            if (seen[c]) continue;
            seen[c] = true;
            place(b, &b->br[c], p, &deep_warned);
            queue[qt++] = c;
        }
    }
    for (size_t i = 0; i < n; i++)
        if (!seen[i]) {
            char msg[64];
            snprintf(msg, sizeof msg, "%u_%u_%u: branch %u", b->br[i].parent, b->br[i].ply, b->br[i].id,
                     b->br[i].parent);
            diag_at(b, XQ_SEV_ERROR, &b->br[i].at, "variation %s is not in this record; left out", msg);
        }
done:
    free(byid);
    free(bypar);
    free(queue);
    free(seen);
}

/* Build the lines, then the game's branches from them (linear passes:
 * lines are created parents first). */
static void build(block *b)
{
    place_all(b);
    if (b->oom || !b->nln) return;
    if (b->ncom) qsort(b->com, b->ncom, sizeof *b->com, cmp_comment);   /* b->com is NULL when 0 */
    xq_node **nodes = calloc(b->nln, sizeof *nodes);
    if (!nodes) { b->oom = true; return; }
    for (size_t L = 0; L < b->nln && !b->oom; L++) {
        dline *l = &b->ln[L];
        if (!l->n) continue;
        xq_node *ns = nodes[L] = xq_game_alloc(b->g, l->n * sizeof *ns);
        if (!ns) { b->oom = true; break; }
        memset(ns, 0, l->n * sizeof *ns);
        for (size_t i = 0; i < l->n; i++) {
            const dmove *m = &b->mv[l->mv[i]];
            char text[5];
            xq_bin_ucci(m->from, m->to, text);
            if (!(ns[i].text = xq_game_strndup(b->g, text, 4))) b->oom = true;
            ns[i].move = XQ_MOVE(m->from, m->to);
            ns[i].line = m->at.line;
            ns[i].col = m->at.col;
            ns[i].comment = find_comment(b, m->branch, m->ply);
        }
    }
    for (size_t c = 1; c < b->nln && !b->oom; c++) nodes[b->ln[c].parent][b->ln[c].node].variation_count++;
    for (size_t L = 0; L < b->nln && !b->oom; L++)
        for (size_t i = 0; i < b->ln[L].n; i++) {
            xq_node *x = &nodes[L][i];
            if (!x->variation_count) continue;
            if (!(x->variations = xq_game_alloc(b->g, x->variation_count * sizeof *x->variations))) {
                b->oom = true;
                break;
            }
            x->variation_count = 0;
        }
    if (!b->oom) {
        b->ln[0].out = &b->g->main;
        for (size_t c = 1; c < b->nln; c++) {
            xq_node *x = &nodes[b->ln[c].parent][b->ln[c].node];
            b->ln[c].out = &x->variations[x->variation_count++];
        }
        for (size_t L = 0; L < b->nln; L++) *b->ln[L].out = (xq_branch){nodes[L], b->ln[L].n, NULL};
        b->g->main.comment = find_comment(b, 0, 0);
    }
    free(nodes);
    for (size_t i = 0; i < b->ncom && !b->oom; i++)
        if (!b->com[i].used) {
            char msg[48];
            snprintf(msg, sizeof msg, "%u_%u", b->com[i].branch, b->com[i].ply);
            diag_at(b, XQ_SEV_WARNING, &b->com[i].at, "comment %s belongs to no move of this record; ignored", msg);
        }
}

/* ---- one block ----------------------------------------------------------------- */

/* Read the block whose content is [from, to) into g.  at: where it starts. */
static void read_block(dhtml_reader *r, xq_game *g, size_t from, size_t to, cursor at, bool dhj)
{
    block b = {.r = r, .g = g, .cur = at, .dhj = dhj, .start_ply_dhj = -1, .side_dhj = -1};
    tag t;
    next_tag(r, from, to, dhj, &t);
    while (t.kind != T_NONE && !b.oom) {
        if (t.kind != T_FIELD) {   /* a stray closing tag or nested container tag */
            next_tag(r, t.end, to, dhj, &t);
            continue;
        }
        walk_to(r, &b.cur, t.at);
        cursor tag_at = b.cur;
        tag vt;   /* where the value ends */
        next_tag(r, t.end, to, dhj, &vt);
        while (vt.kind == T_OPEN || vt.kind == T_CLOSE) next_tag(r, vt.end, to, dhj, &vt);
        if (vt.kind != T_FIELD_END) {
            diag_at(&b, XQ_SEV_WARNING, &tag_at, "[DhtmlXQ_%s] has no closing tag; its value ends at the next field", t.name);
        }
        size_t vend = vt.kind == T_NONE ? to : vt.at;
        take_field(&b, &t, t.end, vend, &tag_at);
        if (vt.kind == T_FIELD_END) next_tag(r, vt.end, to, dhj, &t);
        else t = vt;
    }
    if (!b.oom) build(&b);
    if (!b.oom) {
        /* the start position and the side to move */
        xq_position pos;
        if (b.have_pos) pos = b.pos;
        else xq_position_start(&pos);
        if (b.side_dhj >= 0) {
            xq_position_set_side(&pos, b.side_dhj == 1 ? XQ_BLACK : XQ_RED);
        } else if (!b.have_fen_side && g->main.count) {
            xq_piece p = pos.board[XQ_FROM(g->main.nodes[0].move)];
            xq_position_set_side(&pos, p && XQ_COLOR(p) == XQ_BLACK ? XQ_BLACK : XQ_RED);
        } else if (!b.have_fen_side) {
            xq_position_set_side(&pos, XQ_RED);
        }
        if (b.start_ply_dhj > 0)
            pos.fullmove = pos.side == XQ_RED ? b.start_ply_dhj / 2 + 1 : (b.start_ply_dhj + 1) / 2 + 1;
        xq_bin_set_start(g, &pos);
        if (g->fen && b.have_pos) {   /* findings about the start: at its field */
            g->fen_line = (uint32_t)b.pos_at.line;
            g->fen_col = (uint32_t)b.pos_at.col;
        }
    }
    if (b.oom) xq_game_diag(g, XQ_SEV_ERROR, at.line, at.col, at.off, "out of memory");
    for (size_t i = 0; i < b.nln; i++) free(b.ln[i].mv);
    free(b.ln);
    free(b.mv);
    free(b.br);
    free(b.com);
}

/* ---- the reader ----------------------------------------------------------------- */

/* A block: [start, end) in the file, its content [from, to), whether it
 * had a container tag and its closing tag, and its spelling. */
typedef struct {
    size_t start, from, to, end;
    bool container, closed, dhj, fields;
} span;

/* Find the next block at or after from (false when there is none).  A
 * container tag directly followed by another ([DhtmlXQiFrame][DhtmlXQ])
 * opens one block; a block ends at a closing container tag, the next
 * opening one, or the end of the file. */
static bool find_block(const dhtml_reader *r, size_t from, span *s)
{
    tag t;
    memset(s, 0, sizeof *s);
    for (next_tag(r, from, r->len, false, &t); t.kind != T_NONE; next_tag(r, t.end, r->len, false, &t))
        if (t.kind == T_OPEN || t.kind == T_FIELD) break;
    if (t.kind == T_NONE) return false;
    s->start = t.at;
    s->dhj = t.dhj;
    s->container = t.kind == T_OPEN;
    s->from = s->container ? t.end : t.at;
    for (next_tag(r, s->from, r->len, s->dhj, &t); t.kind != T_NONE; next_tag(r, t.end, r->len, s->dhj, &t)) {
        if (t.kind == T_OPEN && !s->fields) {   /* nested container tag */
            s->from = t.end;
            s->dhj |= t.dhj;
            s->container = true;
            continue;
        }
        if (t.kind == T_CLOSE) {
            s->to = t.at;
            s->end = t.end;
            s->closed = true;
            /* the closing tags of nested containers belong to this block */
            tag u;
            for (next_tag(r, s->end, r->len, false, &u); u.kind == T_CLOSE; next_tag(r, u.end, r->len, false, &u)) {
                size_t gap = u.at - s->end, k;
                for (k = s->end; k < u.at && (r->data[k] == ' ' || r->data[k] == '\t' || r->data[k] == '\r' ||
                                             r->data[k] == '\n');
                     k++) {}
                if (k < u.at || gap > 256) break;
                s->end = u.end;
            }
            return true;
        }
        if (t.kind == T_OPEN) break;
        if (t.kind == T_FIELD) s->fields = true;
    }
    s->to = s->end = t.kind == T_NONE ? r->len : t.at;
    return true;
}

static int dhtml_next(xq_sub_reader *base, xq_game *g)
{
    dhtml_reader *r = (dhtml_reader *)base;
    span s;
    for (;;) {
        if (r->done || !find_block(r, r->pos, &s)) {
            r->done = true;
            return 0;
        }
        if (s.fields) break;
        r->pos = s.end > s.start ? s.end : s.start + 1;   /* an empty block: not a game */
    }
    /* raw: up to the next block with fields, the last one to the end of
     * the file */
    size_t raw_to = r->len;
    span n;
    for (size_t p = s.end; find_block(r, p, &n); p = n.end > n.start ? n.end : n.start + 1)
        if (n.fields) {
            raw_to = n.start;
            break;
        }
    walk_to(r, &r->cur, s.start);   /* blocks come in file order: linear in all */
    cursor at = r->cur;
    xq_game_reset(g);
    xq_bin_record(g, xq_input_path(r->in), ++r->index, at.line, r->raw_from, r->data + r->raw_from,
                  raw_to - r->raw_from);
    g->encoding = r->enc;
    if (s.container && !s.closed)
        xq_game_diag(g, XQ_SEV_WARNING, at.line, at.col, at.off,
                     "DhtmlXQ block without its closing tag; it ends at %s",
                     s.to < r->len ? "the next block" : "the end of the file");
    if (raw_to >= r->len && r->cut)
        xq_game_diag(g, XQ_SEV_ERROR, 0, 0, r->len, "file longer than %d MiB: read up to byte %zu",
                     XQ_BIN_MAX_DHTMLXQ >> 20, r->len);
    read_block(r, g, s.from, s.to, at, s.dhj);
    r->raw_from = raw_to;
    r->pos = s.end;
    if (raw_to >= r->len) r->done = true;
    return 1;
}

static void dhtml_close(xq_sub_reader *base)
{
    dhtml_reader *r = (dhtml_reader *)base;
    xq_bin_conv_close(&r->conv);
    free(r->data);
    free(r);
}

bool xq_dhtmlxq_sniff(const unsigned char *p, size_t n)
{
    const unsigned char *d = memmem(p, n, "[DhtmlXQ", 8), *j = memmem(p, n, "[DHJHtmlXQ", 10);
    if (!d || (j && j < d)) d = j;
    if (!d) return false;
    /* a PGN tag line before it: "[Name \"" at a line start */
    for (const unsigned char *q = p; q < d; q++) {
        if (*q != '[' || (q > p && q[-1] != '\n')) continue;
        const unsigned char *e = q + 1;
        while (e < d && ((*e | 0x20) >= 'a' && (*e | 0x20) <= 'z')) e++;
        if (e > q + 1 && e + 1 < d && *e == ' ' && e[1] == '"') return false;
    }
    return true;
}

xq_sub_reader *xq_dhtmlxq_reader_open(xq_input *in, xq_encoding enc, char *err, size_t errsz)
{
    dhtml_reader *r = calloc(1, sizeof *r);
    if (!r) {
        if (errsz) snprintf(err, errsz, "%s: out of memory", xq_input_path(in));
        return NULL;
    }
    r->base.next = dhtml_next;
    r->base.close = dhtml_close;
    r->in = in;
    if (!xq_bin_load(in, XQ_BIN_MAX_DHTMLXQ, &r->data, &r->len, &r->cut, err, errsz)) {
        free(r);
        return NULL;
    }
    if (r->len >= 3 && !memcmp(r->data, "\xEF\xBB\xBF", 3)) {
        r->start = 3;
        if (enc == XQ_ENC_AUTO) enc = XQ_ENC_UTF8;
    }
    if (enc == XQ_ENC_AUTO) {
        size_t i = 0;
        while (i < r->len && r->data[i] < 0x80) i++;
        size_t n = r->len - i < SAMPLE ? r->len - i : SAMPLE;
        enc = n ? xq_detect_encoding(r->data + i, n) : XQ_ENC_UTF8;
    }
    r->enc = r->conv.enc = enc;
    r->pos = r->start;
    r->cur = (cursor){r->start, 1, 1};
    return &r->base;
}
