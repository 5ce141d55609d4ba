/* fuzz_binary - the whole-file readers (xqf_read.c, cbr_read.c for CBR and
 * CBL, dhtmlxq_read.c) on arbitrary bytes, picked as the tools pick them:
 * by sniffing the magic bytes ("XQ", "CCBridge Record", "CCBridgeLibrary",
 * "[DhtmlXQ"), gzip included; inputs sniffed as PGN-style text or XML are
 * left to fuzz_pgn and fuzz_xml.  Then replay and every writer on each
 * game read.
 *
 * Checked: no crash, leak or sanitizer report; games numbered 1, 2, ...
 * with every pointer set; every diagnostic inside the input (byte offset
 * <= size, for input that is not gzip); a failure says why.
 *
 * Seeds: tests/fuzz/corpus/binary (made-up stubs), plus at run time the
 * XQF, CBR/CBL and DhtmlXQ files of the shared corpus when present
 * (tests/fuzz/run.sh; never copied into the repository).
 *
 * Build and run: make fuzz (tests/fuzz/run.sh). */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size);
    char err[512];
    err[0] = 0;
    xq_reader *rd = xq_reader_open(path, NULL, err, sizeof err);
    if (!rd) {
        FUZZ_CHECK(err[0]);
        return 0;
    }
    xq_format fmt = xq_reader_format(rd);
    if (fmt == XQ_FMT_PGN || fmt == XQ_FMT_XML) {
        xq_reader_close(rd);
        return 0;
    }
    bool gz = size >= 2 && data[0] == 0x1F && data[1] == 0x8B;
    fuzz_each_game(rd, data, size, gz ? UINT64_MAX : size);
    return 0;
}
