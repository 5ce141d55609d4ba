/* fuzz_notation - reading one move (xq_move_read) in every notation, on a
 * few fixed positions (start, tandem soldiers, crowded middlegames, Black
 * to move, in check) or on a position the input gives as a FEN.
 *
 * Input: byte 0 picks the position (its high bit: the input holds a FEN
 * up to the first '\n' instead); byte 1 picks the notation and the
 * XQ_READ_* flags; byte 2 the size of the message buffer; the rest is
 * the move token.
 * Checked: no crash or sanitizer report; the message is NUL-terminated in
 * its buffer; a move read as OK is legal; in a possible position, writing
 * that move in each notation and reading it back gives the same move.
 *
 * Build and run: make fuzz (tests/fuzz/run.sh). */
#include "fuzz_common.h"

static const char *const POSITIONS[] = {
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
    "3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1",                  /* tandem soldiers */
    "4k4/9/9/4P4/2P1P1P2/4P4/4P4/9/9/3K5 w - - 0 1",              /* 4 on a file */
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 b - - 0 1",
    "3k5/4a4/9/9/9/9/9/9/4A4/R2K4r w - - 0 1",                    /* in check */
    "4k4/2p1p1p2/2p1p4/9/9/9/9/9/9/3K5 b - - 0 1",                /* black tandem */
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3) return 0;
    xq_position pos;
    const uint8_t *text = data + 3;
    size_t len = size - 3;
    bool possible = true;
    if (data[0] & 0x80) {
        const uint8_t *nl = memchr(text, '\n', len);
        if (!nl) return 0;
        char fen[256];
        size_t fl = (size_t)(nl - text);
        if (fl >= sizeof fen) return 0;
        memcpy(fen, text, fl);
        fen[fl] = 0;
        if (!xq_fen_read(&pos, fen, NULL, 0)) return 0;
        possible = xq_position_check(&pos) == NULL;
        len -= fl + 1;
        text = nl + 1;
    } else {
        FUZZ_CHECK(xq_fen_read(&pos, POSITIONS[data[0] % (sizeof POSITIONS / sizeof POSITIONS[0])], NULL, 0));
    }
    xq_notation notation = (xq_notation)(data[1] % XQ_NOTATION_COUNT);
    unsigned flags = (data[1] >> 4) & 0xF;
    static const size_t msg_sizes[] = {256, 0, 1, 2, 7, 16, 64, 192};
    size_t msg_size = msg_sizes[data[2] & 7];

    /* exact-size heap copy, so reading past the token is caught */
    char *tok = malloc(len ? len : 1);
    if (!tok) return 0;
    if (len) memcpy(tok, text, len);
    char *msg = msg_size ? malloc(msg_size) : NULL;
    if (msg) memset(msg, 'x', msg_size);

    xq_notation_detect(tok, len);
    xq_note_result res;
    xq_position before = pos;
    xq_note_status st = xq_move_read(&pos, tok, len, notation, flags, &res, msg, msg_size);
    FUZZ_CHECK(memcmp(&before, &pos, sizeof pos) == 0);
    FUZZ_CHECK(st == res.status && (unsigned)st < XQ_NOTE_COUNT);
    FUZZ_CHECK(res.column >= 0 && (size_t)res.column <= len + 1);
    if (msg) FUZZ_CHECK(memchr(msg, 0, msg_size) != NULL);
    if ((st == XQ_NOTE_OK || st == XQ_NOTE_RESOLVED) && !(flags & XQ_READ_UNCHECKED)) {
        FUZZ_CHECK(res.move != XQ_MOVE_NONE);
        FUZZ_CHECK(xq_move_legality(&pos, res.move) == XQ_LEGAL);
        if (possible) {
            for (int n = XQ_NOTATION_CHINESE; n < XQ_NOTATION_COUNT; n++) {
                char buf[XQ_NOTATION_MAX], m2[256];
                size_t wl = xq_move_write(&pos, res.move, (xq_notation)n, 0, buf, sizeof buf);
                FUZZ_CHECK(wl > 0 && wl < sizeof buf);
                xq_notation rn = n == XQ_NOTATION_CHINESE_ABBR ? XQ_NOTATION_CHINESE : (xq_notation)n;
                xq_note_result back;
                xq_move_read(&pos, buf, wl, rn, 0, &back, m2, sizeof m2);
                if (back.status != XQ_NOTE_OK || back.move != res.move) {
                    char fen[XQ_FEN_MAX];
                    xq_fen_write(&pos, fen, sizeof fen);
                    fprintf(stderr, "round trip: %s: %s wrote '%s', read back as %s: %s\n", fen,
                            xq_notation_name((xq_notation)n), buf, xq_note_status_str(back.status), m2);
                    FUZZ_CHECK(!"write/read round trip");
                }
            }
        }
    }
    free(tok);
    free(msg);
    return 0;
}
