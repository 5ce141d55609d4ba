/* write_xboard.c - what GNU XBoard and engines take (formats.md §1c):
 * PGN as XBoard saves Xiangqi (White/Black tags, [Variant "xiangqi"],
 * FEN with H/E letters plus [SetUp "1"], SAN moves), and the UCCI line
 * "position fen FEN moves h2e2 ...".  See write.h. */
#include "write_internal.h"

#include <stdlib.h>
#include <string.h>

/* XBoard's Seven Tag Roster order (pgntags.c PrintPGNTags); Red is White. */
static const char *const XBOARD_ORDER[] = {"Event", "Site", "Date", "Round", "Red", "Black", "Result", NULL};
static const char *const XBOARD_OWN[] = {"Game", "FEN", "Format", "Variant", "SetUp", NULL};

/* XBoard's piece letters (backend.c "PH.R.AE..K.C."): horse H, elephant E. */
static void xboard_fen(const char *fen, char *buf, size_t size)
{
    size_t i = 0;
    for (bool board = true; *fen && i + 1 < size; fen++, i++) {
        char c = *fen;
        if (c == ' ') board = false;
        if (board) c = c == 'N' ? 'H' : c == 'n' ? 'h' : c == 'B' ? 'E' : c == 'b' ? 'e' : c;
        buf[i] = c;
    }
    buf[i] = 0;
}

/* XBoard's Variant and SetUp are its own ("xiangqi"; "1" with the FEN):
 * a record's other ones cannot be kept (XBoard loads a Xiangqi game only
 * under its Variant): a note names each. */
static void own_tags_lost(const xq_game *g, bool fen_written, xq_write_report *rep)
{
    for (size_t i = 0; i < g->tag_count; i++) {
        const xq_tag *t = &g->tags[i];
        if ((xq_tag_is(t->name, "Variant") || xq_tag_is(t->name, "SetUp")) && !xq_tag_said_by_own(t, fen_written))
            xq_write_note(rep, "xboard writes its own %s tag: [%s \"%s\"] dropped", xq_tag_is(t->name, "Variant") ? "Variant" : "SetUp",
                          t->name, t->value ? t->value : "");
    }
}

void xq_write_xboard(FILE *out, const xq_game *g, const xq_replay *r, const xq_write_options *opt,
                     xq_write_report *rep)
{
    size_t n;
    unsigned changed = 0;
    char fenbuf[XQ_FEN_MAX], xb[XQ_FEN_MAX];
    const char *fen = xq_write_fen(g, r, fenbuf);
    own_tags_lost(g, fen != NULL, rep);
    const xq_tag **tags = xq_tags_ordered(g, XBOARD_ORDER, XBOARD_OWN, &n);
    n = xq_tags_drop_repeats(tags, n, xq_pgn_name_bad, true, rep, "xboard");
    for (size_t i = 0; i < n; i++)
        changed |= xq_pgn_tag(out, xq_tag_is(tags[i]->name, "Red") ? "White" : tags[i]->name, tags[i]->value);
    free(tags);
    xq_pgn_tag_notes(rep, "xboard", changed);
    xq_pgn_tag(out, "Variant", "xiangqi");
    if (fen) {
        xboard_fen(fen, xb, sizeof xb);
        xq_pgn_tag(out, "FEN", xb);
        xq_pgn_tag(out, "SetUp", "1");
    }
    putc('\n', out);
    /* no Format tag: a reader recognises the notation of each move */
    xq_pgn_movetext(out, g, r, opt, XQ_NOTATION_SAN, 0, XQ_NOTATION_AUTO, "xboard", rep);
}

/* ---- UCCI ------------------------------------------------------------------- */

static void ucci_move(void *ctx, const xq_walk_move *m)
{
    if (!m->move) return;
    char buf[XQ_NOTATION_MAX];
    if (xq_move_write(m->pos, m->move, XQ_NOTATION_UCCI, 0, buf, sizeof buf)) fprintf(ctx, " %s", buf);
}

void xq_write_ucci(FILE *out, const xq_game *g, const xq_replay *r, xq_write_report *rep)
{
    char fen[XQ_FEN_MAX];
    if (r->status == XQ_STATUS_UNREADABLE) snprintf(fen, sizeof fen, "%s", g->fen ? g->fen : "");
    else xq_fen_write(&r->start, fen, sizeof fen);
    fprintf(out, "position fen %s", fen);
    if (r->plies) fputs(" moves", out);
    static const xq_walk_ops ops = {ucci_move, NULL, NULL, NULL};
    xq_walk_game(g, r, false, &ops, out, rep);
    putc('\n', out);
}
