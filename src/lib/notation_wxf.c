/* notation_wxf.c - WXF ("file") notation, formats.md §1b: C2.5, H8+7,
 * R+.3, C--1, +P+1, ++.4, P3.4, 33.4, and the variants in the wild: '=' or
 * nothing for sideways (C2=5, C25), f/r prefixes (fC+2), ElephantEye
 * letters B/N and digits 1-7 for pieces (62.5), '.' and 'a'..'e' tandem
 * markers, vschess's +7/-7 for the front/rear soldier of file 7; full-width
 * forms arrive here folded to ASCII. */
#include <ctype.h>
#include <string.h>

#include "notation_internal.h"

/* K A E/B H/N R C P in either case -> kind, else XQ_NONE. */
static xq_kind letter_kind(char ch)
{
    switch (toupper((unsigned char)ch)) {
    case 'K': return XQ_GENERAL;
    case 'A': return XQ_ADVISOR;
    case 'E': case 'B': return XQ_ELEPHANT;
    case 'H': case 'N': return XQ_HORSE;
    case 'R': return XQ_CHARIOT;
    case 'C': return XQ_CANNON;
    case 'P': return XQ_SOLDIER;
    default: return XQ_NONE;
    }
}

/* A marker written before the piece letter ("+C.5", "fC+2", "aP.4"). */
static int prefix_marker(char ch, int *nth)
{
    switch (ch) {
    case '+': return XQN_M_PLUS;
    case '-': return XQN_M_MINUS;
    case '.': return XQN_M_MIDDLE;
    case 'f': case 'F': return XQN_M_FRONT;
    case 'r': case 'R': return XQN_M_REAR;
    default: break;
    }
    char l = (char)tolower((unsigned char)ch);
    if (l >= 'a' && l <= 'e') { *nth = l - 'a' + 1; return XQN_M_POOLED; }
    return XQN_M_NONE;
}

static bool digit19(char ch) { return ch >= '1' && ch <= '9'; }

static int action_of(char ch)
{
    return ch == '+' ? XQN_FWD : ch == '-' ? XQN_BACK : (ch == '.' || ch == '=') ? XQN_SIDE : 0;
}

static int own_soldiers_on(const xq_position *pos, int x)
{
    xqn_list l;
    xqn_file_list(pos, XQ_PIECE(XQ_SOLDIER, pos->side), x, &l);
    return l.n;
}

xq_note_status xqn_read_wxf(xqn_ctx *c, const char *s, int n)
{
    xq_color side = c->pos->side;
    xqn_desc d = { .kind = XQ_NONE, .file = -1, .marker = XQN_M_NONE, .nth = 0,
                   .action = 0, .arg = 0, .wxf = true };
    if (n == 3) {                                      /* C25: sideways */
        d.kind = s[0] >= '1' && s[0] <= '7' ? (xq_kind)(s[0] - '0') : letter_kind(s[0]);
        if (!d.kind) return xqn_fail(c, XQ_NOTE_SYNTAX, 1, "expected a piece letter at column 1");
        if (!digit19(s[1]) || !digit19(s[2]))
            return xqn_fail(c, XQ_NOTE_SYNTAX, digit19(s[1]) ? 3 : 2, "expected a file digit");
        d.file = xqn_file_x(side, s[1] - '0');
        d.action = XQN_SIDE;
        d.arg = s[2] - '0';
        return xqn_resolve(c, &d);
    }
    if (n != 4) return xqn_fail(c, XQ_NOTE_SYNTAX, 0, "a WXF move has 4 characters, like C2.5");
    d.action = action_of(s[2]);
    if (!d.action) return xqn_fail(c, XQ_NOTE_SYNTAX, 3, "expected + - . or = at column 3");
    if (!digit19(s[3])) return xqn_fail(c, XQ_NOTE_SYNTAX, 4, "expected a digit 1-9 at column 4");
    d.arg = s[3] - '0';

    char c0 = s[0], c1 = s[1];
    int nth = 0;
    if (digit19(c0)) {
        /* WXF soldiers on two files: 3+.4 33.4 3-.4 (the file comes first);
         * otherwise an ElephantEye piece digit: 62.5 = C2.5 */
        int x = xqn_file_x(side, c0 - '0');
        if ((c1 == '+' || c1 == '-' || c1 == c0) && own_soldiers_on(c->pos, x) >= 2) {
            d.kind = XQ_SOLDIER;
            d.file = x;
            d.marker = c1 == '+' ? XQN_M_PLUS : c1 == '-' ? XQN_M_MINUS : XQN_M_MIDDLE;
            return xqn_resolve(c, &d);
        }
        if (c0 > '7') return xqn_fail(c, XQ_NOTE_SYNTAX, 1, "'%c' is neither a piece digit (1-7) "
                                      "nor a file holding two soldiers", c0);
        d.kind = (xq_kind)(c0 - '0');
    } else if (letter_kind(c1) && prefix_marker(c0, &nth)) {
        d.kind = letter_kind(c1);                      /* +C.5, fC+2, aP.4 */
        d.marker = prefix_marker(c0, &nth);
        d.nth = nth;
        return xqn_resolve(c, &d);
    } else if ((c0 == '+' || c0 == '-') && c1 == c0) {
        d.kind = XQ_SOLDIER;                           /* ++.4 / --.4 */
        d.marker = c0 == '+' ? XQN_M_FRONT : XQN_M_REAR;
        return xqn_resolve(c, &d);
    } else if ((c0 == '+' || c0 == '-') && digit19(c1)) {
        d.kind = XQ_SOLDIER;                           /* vschess/DhtmlXQ +7.6 = 前七平六 */
        d.file = xqn_file_x(side, c1 - '0');
        d.marker = c0 == '+' ? XQN_M_FRONT : XQN_M_REAR;
        return xqn_resolve(c, &d);
    } else {
        d.kind = letter_kind(c0);
        if (!d.kind) return xqn_fail(c, XQ_NOTE_SYNTAX, 1, "expected a piece letter at column 1");
    }
    /* piece known; c1 is its file or a marker */
    if (digit19(c1)) {
        d.file = xqn_file_x(side, c1 - '0');
    } else if (c1 == '+' || c1 == '-') {
        d.marker = c1 == '+' ? XQN_M_PLUS : XQN_M_MINUS;
    } else if (c1 == '.') {
        d.marker = XQN_M_MIDDLE;
    } else if (d.kind == XQ_SOLDIER && tolower((unsigned char)c1) >= 'a' && tolower((unsigned char)c1) <= 'e') {
        d.marker = XQN_M_POOLED;
        d.nth = tolower((unsigned char)c1) - 'a' + 1;
    } else {
        return xqn_fail(c, XQ_NOTE_SYNTAX, 2, "expected a file digit or + - at column 2");
    }
    return xqn_resolve(c, &d);
}

size_t xqn_write_wxf(const xq_position *pos, xq_move m, unsigned flags, char *buf, size_t size)
{
    xq_kind kind;
    int action, arg;
    if (!xqn_describe(pos, m, &kind, &action, &arg)) return 0;
    xq_color side = pos->side;
    int from = XQ_FROM(m), x = XQ_FILE(from);
    xq_piece p = pos->board[from];
    char letter = ((flags & XQ_WRITE_WXF_BN) ? "?KABNRCP" : "?KAEHRCP")[kind];
    char fd = (char)('0' + xqn_file_num(side, x));
    char t[8] = { letter, fd, 0, 0, 0 };

    if (kind != XQ_SOLDIER) {
        xqn_list l;
        xqn_file_list(pos, p, x, &l);
        if (xqn_needs_marker(pos, m, kind, action, arg, &l)) {
            int i = 0;
            while (l.sq[i] != from) i++;
            if (i == 0) t[1] = '+';
            else if (i == l.n - 1) t[1] = '-';
            /* a middle one of three keeps its file, as for soldiers */
        }
    } else {
        xqn_board_lists bl;
        xqn_board_lists_fill(pos, p, &bl);
        const xqn_list *l = &bl.file[x];
        int nf = l->n, i = 0;
        while (i < nf && l->sq[i] != from) i++;
        if (nf >= 2 && bl.ntandem == 1) {
            /* 2: P+ P-; 3: P+ P3 P-; 4: ++ P+ P- --; 5: ++ P+ P3 P- -- */
            if (nf >= 4 && (i == 0 || i == nf - 1)) {
                t[0] = t[1] = i == 0 ? '+' : '-';
            } else if (nf >= 4) {
                if (i == 1) t[1] = '+';
                else if (i == nf - 2) t[1] = '-';
            } else {
                if (i == 0) t[1] = '+';
                else if (i == nf - 1) t[1] = '-';
            }
        } else if (nf >= 2) {
            /* several files: the file first, 3+.4 33.4 3-.4 */
            if (nf <= 3) {
                t[0] = fd;
                t[1] = i == 0 ? '+' : i == nf - 1 ? '-' : fd;
            } else {                                   /* ElephantEye pooled letter */
                xqn_list pool;
                xqn_pooled(&bl, &pool);
                int j = 0;
                while (pool.sq[j] != from) j++;
                if (j >= 5) return 0;
                t[1] = (char)('a' + j);
            }
        }
    }
    t[2] = action == XQN_FWD ? '+' : action == XQN_BACK ? '-' : '.';
    t[3] = (char)('0' + arg);
    size_t len = 0;
    return xqn_put_str(buf, size, &len, t) ? len : 0;
}
