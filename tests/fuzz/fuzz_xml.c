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
    fuzz_each_game(rd, data, size, UINT64_MAX);
    return 0;
}
