/* ecco.c - ECCO codes, names, and the move-prefix classifier (see ecco.h,
 * formats.md §3). */
#include "ecco.h"

#include <stdlib.h>
#include <string.h>

/* ---- codes and names --------------------------------------------------- */

typedef struct {
    const char *opening, *variation;
} ecco_name;

static const ecco_name NAMES[XQ_ECCO_CODES] = {
#include "ecco_names.inc"
};

int xq_ecco_parse(const char *text)
{
    if (!text) return -1;
    while (*text == ' ' || *text == '\t') text++;
    size_t n = strlen(text);
    while (n && (text[n - 1] == ' ' || text[n - 1] == '\t')) n--;
    if (n != 3) return -1;
    int letter = text[0] >= 'a' && text[0] <= 'e' ? text[0] - 'a' : text[0] - 'A';
    if (letter < 0 || letter > 4) return -1;
    if (text[1] < '0' || text[1] > '9' || text[2] < '0' || text[2] > '9') return -1;
    return letter * 100 + (text[1] - '0') * 10 + (text[2] - '0');
}

char *xq_ecco_format(int code, char buf[4])
{
    if (code < 0 || code >= XQ_ECCO_CODES) {
        buf[0] = '\0';
        return buf;
    }
    buf[0] = (char)('A' + code / 100);
    buf[1] = (char)('0' + code / 10 % 10);
    buf[2] = (char)('0' + code % 10);
    buf[3] = '\0';
    return buf;
}

const char *xq_ecco_opening(int code)
{
    if (code < 0 || code >= XQ_ECCO_CODES || !NAMES[code].opening) return "";
    return NAMES[code].opening;
}

const char *xq_ecco_variation(int code)
{
    if (code < 0 || code >= XQ_ECCO_CODES || !NAMES[code].variation) return "";
    return NAMES[code].variation;
}

/* ---- the built-in table ------------------------------------------------ */

#include "ecco_table.inc"

static const xq_ecco_table BUILTIN = {
    XQ_ECCO_TABLE_ENTRIES, sizeof XQ_ECCO_TABLE_ENTRIES / sizeof XQ_ECCO_TABLE_ENTRIES[0], XQ_ECCO_TABLE_PLIES,
};

const xq_ecco_table *xq_ecco_builtin(void)
{
    return &BUILTIN;
}

/* ---- canonical keys ---------------------------------------------------- */

/* Whether the game is mirrored: decided by the first move that is not its
 * own mirror image (a move along the centre file e). */
static bool mirrored(const xq_move *moves, int n)
{
    for (int i = 0; i < n; i++) {
        int ff = XQ_FILE(XQ_FROM(moves[i])), tf = XQ_FILE(XQ_TO(moves[i]));
        if (ff != 4) return ff < 4;
        if (tf != 4) return tf < 4;
    }
    return false;
}

int xq_ecco_key(const xq_move *moves, int n, int max_plies, char *buf, size_t size)
{
    if (n > max_plies) n = max_plies;
    if (n < 0) n = 0;
    if ((size_t)n * 4 + 1 > size) n = size ? (int)((size - 1) / 4) : 0;
    bool mir = mirrored(moves, n);
    for (int i = 0; i < n; i++) {
        int from = XQ_FROM(moves[i]), to = XQ_TO(moves[i]);
        int ff = XQ_FILE(from), tf = XQ_FILE(to);
        if (mir) {
            ff = 8 - ff;
            tf = 8 - tf;
        }
        char *p = buf + 4 * i;
        p[0] = (char)('a' + ff);
        p[1] = (char)('0' + XQ_RANK(from));
        p[2] = (char)('a' + tf);
        p[3] = (char)('0' + XQ_RANK(to));
    }
    if (size) buf[4 * n] = '\0';
    return n;
}

/* Index of the entry whose prefix is exactly key[0..len), or -1. */
static long find_entry(const xq_ecco_table *t, const char *key, size_t len)
{
    size_t lo = 0, hi = t->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *p = t->entries[mid].prefix;
        int c = strncmp(p, key, len);
        if (c == 0) c = p[len] ? 1 : 0;   /* longer than the key: sorts after it */
        if (c == 0) return (long)mid;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}

int xq_ecco_classify(const xq_ecco_table *table, const xq_move *moves, int n)
{
    const xq_ecco_table *t = table ? table : &BUILTIN;
    if (!t->count) return -1;
    char key[4 * XQ_ECCO_MAX_PLIES + 1];
    int max = t->max_plies < XQ_ECCO_MAX_PLIES ? t->max_plies : XQ_ECCO_MAX_PLIES;
    int k = xq_ecco_key(moves, n, max, key, sizeof key);
    for (; k >= 0; k--) {
        long i = find_entry(t, key, 4 * (size_t)k);
        if (i >= 0) return xq_ecco_parse(t->entries[i].code);
    }
    return -1;
}

/* ---- the learner ------------------------------------------------------- */

typedef struct {
    uint32_t first_child, next_sibling;   /* node indices, 0 = none (0 is the root) */
    uint32_t counts;                      /* first count cell, 0 = none */
    uint32_t total;                       /* games through this node */
    char move[4];                         /* canonical move leading here */
} trie_node;

typedef struct {
    uint32_t next;
    uint16_t code;
    uint32_t count;
} count_cell;

struct xq_ecco_learner {
    int max_plies, min_support;
    uint64_t games;
    trie_node *nodes;
    size_t nnodes, node_cap;
    count_cell *cells;                    /* cells[0] unused */
    size_t ncells, cell_cap;
    /* the built table */
    xq_ecco_entry *entries;
    size_t nentries, entry_cap;
    char *strings;                        /* prefixes and codes, packed */
    size_t nstrings, string_cap;
    xq_ecco_table table;
};

static bool grow(void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return true;
    size_t c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    void *p = realloc(*arr, c * elem);
    if (!p) return false;
    *arr = p;
    *cap = c;
    return true;
}

xq_ecco_learner *xq_ecco_learner_new(int max_plies, int min_support)
{
    if (max_plies < 1 || max_plies > XQ_ECCO_MAX_PLIES || min_support < 1) return NULL;
    xq_ecco_learner *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    l->max_plies = max_plies;
    l->min_support = min_support;
    if (!grow((void **)&l->nodes, &l->node_cap, 1, sizeof *l->nodes) ||
        !grow((void **)&l->cells, &l->cell_cap, 1, sizeof *l->cells)) {
        xq_ecco_learner_free(l);
        return NULL;
    }
    memset(&l->nodes[0], 0, sizeof l->nodes[0]);
    l->nnodes = 1;
    l->ncells = 1;
    return l;
}

void xq_ecco_learner_free(xq_ecco_learner *l)
{
    if (!l) return;
    free(l->nodes);
    free(l->cells);
    free(l->entries);
    free(l->strings);
    free(l);
}

uint64_t xq_ecco_learner_games(const xq_ecco_learner *l)
{
    return l->games;
}

static bool count_code(xq_ecco_learner *l, uint32_t node, int code)
{
    for (uint32_t c = l->nodes[node].counts; c; c = l->cells[c].next)
        if (l->cells[c].code == code) {
            l->cells[c].count++;
            return true;
        }
    if (!grow((void **)&l->cells, &l->cell_cap, l->ncells + 1, sizeof *l->cells)) return false;
    uint32_t c = (uint32_t)l->ncells++;
    l->cells[c] = (count_cell){.next = l->nodes[node].counts, .code = (uint16_t)code, .count = 1};
    l->nodes[node].counts = c;
    return true;
}

bool xq_ecco_learner_add(xq_ecco_learner *l, const xq_move *moves, int n, int code)
{
    if (code < 0 || code >= XQ_ECCO_CODES) return true;
    char key[4 * XQ_ECCO_MAX_PLIES + 1];
    int k = xq_ecco_key(moves, n, l->max_plies, key, sizeof key);
    uint32_t node = 0;
    l->games++;
    l->nodes[0].total++;
    if (!count_code(l, 0, code)) return false;
    for (int i = 0; i < k; i++) {
        const char *mv = key + 4 * i;
        uint32_t child = l->nodes[node].first_child;
        while (child && memcmp(l->nodes[child].move, mv, 4)) child = l->nodes[child].next_sibling;
        if (!child) {
            if (!grow((void **)&l->nodes, &l->node_cap, l->nnodes + 1, sizeof *l->nodes)) return false;
            child = (uint32_t)l->nnodes++;
            trie_node *c = &l->nodes[child];
            memset(c, 0, sizeof *c);
            memcpy(c->move, mv, 4);
            c->next_sibling = l->nodes[node].first_child;
            l->nodes[node].first_child = child;
        }
        node = child;
        l->nodes[node].total++;
        if (!count_code(l, node, code)) return false;
    }
    return true;
}

/* ECCO's first-move families (formats.md §3), in the canonical
 * orientation: the code a game gets from its first move alone.  Every
 * other first move is A00 (其他开局). */
static const struct {
    char move[5];
    short code;
} FIRST_MOVES[] = {
    {"f0e1", 1},     /* A01 上仕局: 仕四進五 */
    {"h0i2", 2},     /* A02 边马局: 馬二進一 */
    {"h2i2", 3},     /* A03 边炮局: 炮二平一 */
    {"h2h4", 4},     /* A04 巡河炮局: 炮二進二 */
    {"h2h6", 5},     /* A05 过河炮局: 炮二進四 */
    {"h2g2", 6},     /* A06 兵底炮局: 炮二平三 */
    {"h2c2", 7},     /* A07 金钩炮局: 炮二平七 */
    {"i3i4", 8},     /* A08 边兵局: 兵一進一 */
    {"g0e2", 10},    /* A10 飞相局: 相三進五 */
    {"h0g2", 40},    /* A40 起马局: 馬二進三 */
    {"h2f2", 50},    /* A50 仕角炮局: 炮二平四 */
    {"h2d2", 60},    /* A60 过宫炮局: 炮二平六 */
    {"h2e2", 100},   /* B00 中炮局: 炮二平五 */
    {"g3g4", 400},   /* E00 仙人指路局: 兵三進一 */
};

/* The family code of a canonical first move (4 characters). */
static int first_move_code(const char *move)
{
    for (size_t i = 0; i < sizeof FIRST_MOVES / sizeof FIRST_MOVES[0]; i++)
        if (!memcmp(FIRST_MOVES[i].move, move, 4)) return FIRST_MOVES[i].code;
    return 0;
}

/* The code of a prefix of depth plies ending at node.  The empty prefix is
 * A00 and a first move its ECCO family (FIRST_MOVES).  A longer prefix gets
 * the smallest code among the learned games through it: when they all
 * agree that is their code; when they part ways later it is the family the
 * prefix itself determines, since ECCO numbers a family before its
 * branches (C00 中炮对屏风马 before C01..C99, D00 顺炮 before D01..D29),
 * so a short or off-book game gets its family, not the most common deep
 * line through its prefix.  On the held-out masters games this agrees
 * with the tag more often than the most frequent code did. */
static int node_code(const xq_ecco_learner *l, uint32_t node, int depth)
{
    if (depth == 0) return 0;
    if (depth == 1) return first_move_code(l->nodes[node].move);
    int smallest = -1;
    for (uint32_t c = l->nodes[node].counts; c; c = l->cells[c].next)
        if (smallest < 0 || l->cells[c].code < smallest) smallest = l->cells[c].code;
    return smallest;
}

/* Whether the root has a child for this canonical first move with enough
 * support to be walked. */
static bool first_move_learned(const xq_ecco_learner *l, const char *move)
{
    for (uint32_t c = l->nodes[0].first_child; c; c = l->nodes[c].next_sibling)
        if (!memcmp(l->nodes[c].move, move, 4)) return l->nodes[c].total >= (uint32_t)l->min_support;
    return false;
}

/* Append a string to the packed pool; returns its offset or (size_t)-1. */
static size_t pool_add(xq_ecco_learner *l, const char *s, size_t n)
{
    if (!grow((void **)&l->strings, &l->string_cap, l->nstrings + n + 1, 1)) return (size_t)-1;
    size_t at = l->nstrings;
    memcpy(l->strings + at, s, n);
    l->strings[at + n] = '\0';
    l->nstrings += n + 1;
    return at;
}

static int cmp_entry(const void *a, const void *b)
{
    return strcmp(((const xq_ecco_entry *)a)->prefix, ((const xq_ecco_entry *)b)->prefix);
}

typedef struct {
    uint32_t node;
    int depth, inherited;
    uint32_t child;   /* next child to visit */
    bool entered;
} dfs_frame;

const xq_ecco_table *xq_ecco_learner_table(xq_ecco_learner *l)
{
    l->nentries = 0;
    l->nstrings = 0;
    /* entries hold offsets into the pool while it may move; turned into
     * pointers at the end */
    size_t *offs = NULL, noffs = 0, offs_cap = 0;
    dfs_frame stack[XQ_ECCO_MAX_PLIES + 2];
    char key[4 * XQ_ECCO_MAX_PLIES + 1];
    int sp = 0;
    bool ok = true;
    if (l->games) stack[sp++] = (dfs_frame){.node = 0, .depth = 0, .inherited = -1};
    while (sp > 0 && ok) {
        dfs_frame *f = &stack[sp - 1];
        const trie_node *nd = &l->nodes[f->node];
        if (!f->entered) {
            f->entered = true;
            if (f->depth > 0) memcpy(key + 4 * (f->depth - 1), nd->move, 4);
            int m = node_code(l, f->node, f->depth);
            if (f->depth == 0 || m != f->inherited) {
                char code[4];
                size_t kp = pool_add(l, key, 4 * (size_t)f->depth);
                size_t cp = pool_add(l, xq_ecco_format(m, code), 3);
                if (kp == (size_t)-1 || cp == (size_t)-1 ||
                    !grow((void **)&offs, &offs_cap, noffs + 2, sizeof *offs)) {
                    ok = false;
                    break;
                }
                offs[noffs++] = kp;
                offs[noffs++] = cp;
            }
            f->inherited = m;
            f->child = nd->first_child;
        }
        /* next child with enough support */
        uint32_t c = f->child;
        while (c && l->nodes[c].total < (uint32_t)l->min_support) c = l->nodes[c].next_sibling;
        if (!c) {
            sp--;
            continue;
        }
        f->child = l->nodes[c].next_sibling;
        stack[sp++] = (dfs_frame){.node = c, .depth = f->depth + 1, .inherited = f->inherited};
    }
    /* the families of first moves no learned game made */
    for (size_t i = 0; ok && l->games && i < sizeof FIRST_MOVES / sizeof FIRST_MOVES[0]; i++) {
        if (first_move_learned(l, FIRST_MOVES[i].move)) continue;
        char code[4];
        size_t kp = pool_add(l, FIRST_MOVES[i].move, 4);
        size_t cp = pool_add(l, xq_ecco_format(FIRST_MOVES[i].code, code), 3);
        if (kp == (size_t)-1 || cp == (size_t)-1 || !grow((void **)&offs, &offs_cap, noffs + 2, sizeof *offs))
            ok = false;
        else {
            offs[noffs++] = kp;
            offs[noffs++] = cp;
        }
    }
    if (ok && !grow((void **)&l->entries, &l->entry_cap, noffs / 2 + 1, sizeof *l->entries)) ok = false;
    if (!ok) {
        free(offs);
        return NULL;
    }
    for (size_t i = 0; i < noffs; i += 2)
        l->entries[l->nentries++] = (xq_ecco_entry){l->strings + offs[i], l->strings + offs[i + 1]};
    free(offs);
    qsort(l->entries, l->nentries, sizeof *l->entries, cmp_entry);
    l->table = (xq_ecco_table){l->entries, l->nentries, l->max_plies};
    return &l->table;
}
