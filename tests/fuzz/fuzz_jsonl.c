/* fuzz_jsonl - the JSON Lines record reader (jsonl_read.c through
 * json_read.c, strict) on arbitrary bytes, the format forced to JSON Lines
 * as with `--from jsonl`, then replay and every writer on each game read.
 * Checked: no crash, leak or sanitizer report; games numbered 1, 2, ...
 * with every pointer set and every diagnostic inside the input (a bad
 * line's error at its byte). */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    xq_reader *rd = fuzz_open_as(data, size, XQ_FMT_JSONL);
    if (!rd) return 0;
    FUZZ_CHECK(xq_reader_format(rd) == XQ_FMT_JSONL);
    fuzz_each_game(rd, data, size, size);
    return 0;
}
