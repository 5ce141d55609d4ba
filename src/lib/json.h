/* json.h - the small JSON output helpers every JSON writer shares
 * (xq-validate --report json, xq-parse --json, xq-convert --to jsonl,
 * xq-stats --json).  Output only: JSON is read by json_read.h
 * (xq-stats --merge, JSON Lines records). */
#ifndef XQ_JSON_H
#define XQ_JSON_H

#include <stdio.h>

/* Write s (UTF-8, may be NULL -> null) as a JSON string literal to out:
 * quotes, backslash and control characters escaped; bytes that are not
 * valid UTF-8 are written as U+FFFD so the output is always valid JSON. */
void xq_json_string(FILE *out, const char *s);

/* Write "key": to out, preceded by a comma unless *first; clears *first. */
void xq_json_key(FILE *out, const char *key, int *first);

#endif
