/* mate_compare.h - the mate-by-checks search (xq_mate_search) against
 * the reference copy of the search before its per-node work was cut
 * (ref_mate_search.h), one position at a time: the same answer and the
 * same budget left at the budget that suffices and at budgets that cut
 * the search short, with and without a table.  Shared by
 * test_mate_search.c and test_judge_lines.c; include after
 * ref_mate_search.h and test_util.h. */
#ifndef XQ_MATE_COMPARE_H
#define XQ_MATE_COMPARE_H

typedef struct {
    xq_mate_table *table;        /* the library's, shared by every search of a test */
    ref_mate_table *ref_table;   /* the reference's */
    uint64_t rng;
    long searches, cut, mates, differ;
    long most_used;
} mate_tally;

/* One search by both at one budget, with tables or without: the same
 * answer and budget left.  Returns the budget used (budget - left). */
static int compare_at(const xq_position *pos, int depth, int budget, bool quiet, bool tables, mate_tally *t)
{
    int left_new, left_ref;
    bool a = xq_mate_search(pos, depth, budget, quiet, tables ? t->table : NULL, &left_new);
    bool b = ref_mate_search(pos, depth, budget, quiet, tables ? t->ref_table : NULL, &left_ref);
    t->searches++;
    if (a != b || left_new != left_ref) {
        char fen[XQ_FEN_MAX];
        xq_fen_write(pos, fen, sizeof fen);
        print_message("# differ: %s depth %d budget %d quiet %d tables %d: mate %d/%d left %d/%d\n", fen, depth,
                      budget, quiet, tables, a, b, left_new, left_ref);
        t->differ++;
    }
    return budget - left_ref;
}

/* The search of pos at depth with the full budget, then at budgets that
 * cut it short: every one up to 24 moves, then about 12 more spread
 * over the rest, the last two before it suffices among them. */
static void compare_search(const xq_position *pos, int depth, int budget, bool quiet, mate_tally *t)
{
    int used = compare_at(pos, depth, budget, quiet, true, t);
    compare_at(pos, depth, budget, quiet, false, t);
    int left;
    t->mates += xq_mate_search(pos, depth, budget, quiet, NULL, &left);
    if (used > t->most_used) t->most_used = used;
    if (used > budget) return;   /* ran out: the cut ones below say the rest */
    for (int b = 0; b < used; b++) {
        if (b >= 24 && b < used - 2 && xqt_rnd(&t->rng, (unsigned)(used / 12 + 1)) != 0) continue;
        t->cut++;
        compare_at(pos, depth, b, quiet, (b & 1) != 0, t);
    }
}

#endif
