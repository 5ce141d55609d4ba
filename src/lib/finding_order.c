/* finding_order.c - a game's findings in input order (see finding_order.h). */
#include "finding_order.h"

#include <stdint.h>

/* Where finding f is, as one number to compare: its line and column; a
 * finding about the whole game (line 0) after every placed one. */
static uint64_t place_key(const xq_finding *f)
{
    return f->line ? (uint64_t)f->line << 32 | f->col : UINT64_MAX;
}

void xq_findings_in_order(const xq_replay *r, int *order)
{
    /* merge the two producers' runs, each kept in its own order: the
     * reader's at or before the replay's next one go first */
    int reader[XQ_REPLAY_MAX_FINDINGS], replay[XQ_REPLAY_MAX_FINDINGS], nr = 0, np = 0;
    for (int i = 0; i < r->nfindings; i++) {
        if (r->findings[i].kind == XQ_FIND_SYNTAX) reader[nr++] = i;
        else replay[np++] = i;
    }
    int a = 0, b = 0, n = 0;
    while (a < nr || b < np) {
        bool take_reader = b == np ||
                           (a < nr && place_key(&r->findings[reader[a]]) <= place_key(&r->findings[replay[b]]));
        order[n++] = take_reader ? reader[a++] : replay[b++];
    }
}
