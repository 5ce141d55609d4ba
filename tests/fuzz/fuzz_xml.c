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
    xq_reader *rd = fuzz_open_as(data, size, XQ_FMT_XML);
    if (rd) fuzz_each_game(rd, data, size, UINT64_MAX);
    return 0;
}
