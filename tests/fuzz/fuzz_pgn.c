/* fuzz_pgn - the whole record reader on arbitrary bytes: gzip detection,
 * encoding detection and decoding, format sniffing (PGN-style text, and
 * XML when the bytes start with '<'), the tokenizer and record builder,
 * then replay and every writer on each record read.
 *
 * Checked beyond "no crash, no leak, no sanitizer report":
 *  - records are numbered 1, 2, 3 ... and every pointer in them is set;
 *  - every diagnostic points inside the input (byte offset <= size);
 *  - nothing is lost: for plain (not gzip) PGN-style text, the raw bytes
 *    of the records, concatenated, are exactly the input (game.h).
 * Input with bytes >= 0x80 is read again in a fixed encoding (GBK, Big5
 * or UTF-8, picked by a hash of the input).
 *
 * Build and run: make fuzz (tests/fuzz/run.sh). */
#include "fuzz_common.h"

static void read_all(const uint8_t *data, size_t size, xq_encoding enc, bool write)
{
    const char *path = fuzz_file(data, size);
    xq_read_options o = {.encoding = enc, .format = XQ_FMT_AUTO};
    char err[512];
    xq_reader *rd = xq_reader_open(path, &o, err, sizeof err);
    if (!rd) {
        FUZZ_CHECK(err[0]);
        return;
    }
    bool gz = size >= 2 && data[0] == 0x1F && data[1] == 0x8B;
    bool pgn = xq_reader_format(rd) == XQ_FMT_PGN;
    uint32_t variant = fuzz_hash(data, size);
    xq_game g;
    xq_game_init(&g);
    uint64_t n = 0;
    size_t raw_total = 0;
    int rc;
    while ((rc = xq_reader_next(rd, &g)) == 1) {
        n++;
        fuzz_check_game(&g, n, gz ? UINT64_MAX : size);
        if (pgn && !gz) {
            FUZZ_CHECK(g.raw_len <= size - raw_total);
            FUZZ_CHECK(g.offset == raw_total);
            /* a file of CR line ends has its CRs as LF in raw (xq_game.cr_lines) */
            if (g.cr_lines)
                for (size_t i = 0; i < g.raw_len; i++)
                    FUZZ_CHECK(g.raw[i] == (data[raw_total + i] == '\r' ? '\n' : (char)data[raw_total + i]));
            else
                FUZZ_CHECK(g.raw_len == 0 || memcmp(g.raw, data + raw_total, g.raw_len) == 0);
            raw_total += g.raw_len;
        }
        if (write) fuzz_replay_and_write(&g, variant + (uint32_t)n);
    }
    if (rc < 0) FUZZ_CHECK(xq_reader_error(rd)[0]);
    /* every byte belongs to a record, unless there is no record at all
     * (blank lines only) */
    if (rc == 0 && pgn && !gz && n) FUZZ_CHECK(raw_total == size);
    xq_game_free(&g);
    xq_reader_close(rd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    read_all(data, size, XQ_ENC_AUTO, true);
    bool high = false;
    for (size_t i = 0; i < size && !high; i++) high = data[i] >= 0x80;
    if (high) {   /* one fixed encoding more, chosen by the input */
        static const xq_encoding fixed[] = {XQ_ENC_GBK, XQ_ENC_BIG5, XQ_ENC_UTF8};
        read_all(data, size, fixed[fuzz_hash(data, size) % 3], false);
    }
    return 0;
}
