/* fuzz_xml - the XML record reader (xml_read.c, libxml2 with safe
 * options) on arbitrary bytes, the format forced to XML as with
 * `--from xml`, then replay and every writer on each game read.
 * Checked: no crash, leak or sanitizer report; games numbered 1, 2, ...
 * with every pointer set; a refused or malformed document says why.
 *
 * Build and run: make fuzz (tests/fuzz/run.sh). */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size);
    xq_read_options o = {.encoding = XQ_ENC_AUTO, .format = XQ_FMT_XML};
    char err[512];
    err[0] = 0;
    xq_reader *rd = xq_reader_open(path, &o, err, sizeof err);
    if (!rd) {
        FUZZ_CHECK(err[0]);
        return 0;
    }
    uint32_t variant = fuzz_hash(data, size);
    xq_game g;
    xq_game_init(&g);
    uint64_t n = 0;
    int rc;
    while ((rc = xq_reader_next(rd, &g)) == 1) {
        n++;
        fuzz_check_game(&g, n, UINT64_MAX);
        fuzz_replay_and_write(&g, variant + (uint32_t)n);
    }
    if (rc < 0) FUZZ_CHECK(xq_reader_error(rd)[0]);
    xq_game_free(&g);
    xq_reader_close(rd);
    return 0;
}
