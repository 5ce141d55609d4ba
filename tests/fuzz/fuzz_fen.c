/* fuzz_fen - FEN reading (every variant of formats.md §1d) on arbitrary
 * text, then everything the tools do with a position that parsed, however
 * impossible: the position check, FEN writing, move generation, legality
 * of every geometric move, check detection and perft to depth 2.
 *
 * Checked: no crash or sanitizer report; an error message is given for
 * every refusal; xq_fen_write's output reads back to the same position;
 * every generated move is legal by xq_move_legality and make/unmake
 * restores the position.
 *
 * Build and run: make fuzz (tests/fuzz/run.sh). */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096) return 0;
    char *fen = malloc(size + 1);
    if (!fen) return 0;
    memcpy(fen, data, size);
    fen[size] = 0;
    xq_position pos;
    char err[160];
    err[0] = 0;
    if (!xq_fen_read(&pos, fen, err, sizeof err)) {
        FUZZ_CHECK(err[0]);
        free(fen);
        return 0;
    }
    free(fen);
    xq_position_check(&pos);

    char out[XQ_FEN_MAX];
    size_t n = xq_fen_write(&pos, out, sizeof out);
    FUZZ_CHECK(n > 0 && n < sizeof out && strlen(out) == n);
    xq_position again;
    FUZZ_CHECK(xq_fen_read(&again, out, err, sizeof err));
    FUZZ_CHECK(memcmp(again.board, pos.board, sizeof pos.board) == 0);
    FUZZ_CHECK(again.side == pos.side && again.key == pos.key);

    xq_in_check(&pos, XQ_RED);
    xq_in_check(&pos, XQ_BLACK);
    xq_move moves[XQ_MAX_MOVES];
    int count = xq_legal_moves(&pos, moves);
    FUZZ_CHECK(count >= 0 && count <= XQ_MAX_MOVES);
    FUZZ_CHECK((count > 0) == xq_has_legal_move(&pos));
    for (int i = 0; i < count; i++) {
        FUZZ_CHECK(xq_move_legality(&pos, moves[i]) == XQ_LEGAL);
        xq_position before = pos;
        xq_undo u;
        xq_make(&pos, moves[i], &u);
        xq_unmake(&pos, moves[i], &u);
        FUZZ_CHECK(memcmp(&before, &pos, sizeof pos) == 0);
    }
    /* legality of every move of every piece of the side to move agrees
     * with the generator */
    int legal = 0;
    for (int from = 0; from < XQ_SQUARES; from++) {
        if (!pos.board[from] || XQ_COLOR(pos.board[from]) != pos.side) continue;
        xq_move mine[XQ_MAX_MOVES];
        int k = xq_legal_moves_from(&pos, from, mine);
        FUZZ_CHECK(k >= 0 && k <= XQ_MAX_MOVES);
        for (int to = 0; to < XQ_SQUARES; to++)
            if (to != from && xq_move_legality(&pos, XQ_MOVE(from, to)) == XQ_LEGAL) legal++;
    }
    FUZZ_CHECK(legal == count);
    xq_perft(&pos, 2);
    return 0;
}
