/* json_read.h - the project's one JSON reader (RFC 8259), into a small
 * read-only tree: xq-stats --merge (stats_json.c) and the JSON Lines
 * records reader (jsonl_read.c) use it.  Output is json.h's.
 *
 * The tree: every value records its type and the byte offset of its first
 * byte in the text (for LINE:COL diagnostics); objects keep their members
 * in text order, duplicates included; strings are decoded to UTF-8 (\u
 * escapes, surrogate pairs joined; an unpaired surrogate becomes U+FFFD,
 * counted in the document for the caller to tell)
 * and NUL-terminated, with their length (a \u0000 escape gives a NUL byte
 * inside; len tells).  All of it lives in the document's arena, freed or
 * reused in one call.
 *
 * Limits, so that any input is safe: values nest at most max_depth deep
 * (recursion is bounded by it), at most max_values values per parse (the
 * tree's memory is bounded by it and the text's length).
 */
#ifndef XQ_JSON_READ_H
#define XQ_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    XQ_JSON_NULL,
    XQ_JSON_FALSE,
    XQ_JSON_TRUE,
    XQ_JSON_NUMBER,
    XQ_JSON_STRING,
    XQ_JSON_ARRAY,
    XQ_JSON_OBJECT
} xq_json_type;

typedef struct xq_json_value xq_json_value;
struct xq_json_value {
    xq_json_type type;
    size_t offset;               /* byte offset of the value's first byte in the text */
    const char *str;             /* STRING: decoded UTF-8; NUMBER: its text as written;
                                    NUL-terminated; NULL for the others */
    size_t len;                  /* STRING, NUMBER: bytes of str; ARRAY, OBJECT: members */
    const xq_json_value *items;  /* ARRAY, OBJECT: the len members, in text order */
    const char *const *keys;     /* OBJECT: their keys (decoded, NUL-terminated), parallel */
};

/* How to parse; see xq_json_options_merge / _strict for the two in use. */
typedef struct {
    int max_depth;       /* values nested deeper (a scalar counts as a level) are refused */
    size_t max_values;   /* values per parse; 0: no limit */
    bool strict;         /* RFC 8259 to the letter: the number grammar, well-formed UTF-8 in
                            strings (no NUL).  Without it (xq-stats --merge, as it always
                            read): a number is any run of digits and "+-.eE", string bytes
                            are taken as they are */
} xq_json_options;

/* Where and why a parse failed.  Plain value. */
typedef struct {
    char msg[96];        /* "unexpected character", "expected ',' or '}'", ... */
    size_t offset;       /* byte offset of the offending byte (the text's length when it
                            ended first; the opening quote of an unterminated string) */
    int line;            /* 1-based line of the place where the parser stopped (newlines
                            counted between tokens), as xq-stats --merge reports */
    bool at_end;         /* the text ended before the value did */
} xq_json_error;

/* A parsed document and the memory of its tree.  Zero-initialise; the
 * same document can parse text after text (each parse frees the previous
 * tree, keeping some memory for the next); free with xq_json_doc_free. */
typedef struct xq_json_doc xq_json_doc;
struct xq_json_doc {
    xq_json_value root;
    /* \u escapes of unpaired surrogates (RFC 8259 §8.2) the last parse
     * replaced by U+FFFD, and the byte offset of the first one's "\u" */
    size_t lone_surrogates, lone_surrogate_at;
    /* private */
    struct xq_json_chunk *chunks;
    xq_json_value *stack;        /* members of open containers */
    const char **stack_keys;
    size_t stack_n, stack_cap;
};

/* Parse text[0..len) (one value, blanks around it allowed) into d->root.
 * Returns false with *err filled on a syntax error, a limit, text after
 * the value, or out-of-memory ("out of memory"); d->root is then a null
 * value.  opt may be NULL (strict, depth 512, no value limit). */
bool xq_json_parse(xq_json_doc *d, const char *text, size_t len, const xq_json_options *opt,
                   xq_json_error *err);

/* Free the tree and the document's memory; d is left zeroed (reusable). */
void xq_json_doc_free(xq_json_doc *d);

/* The first member of object obj named key (matched exactly, bytes), or
 * NULL (also when obj is NULL or not an object). */
const xq_json_value *xq_json_get(const xq_json_value *obj, const char *key);

/* Name of a type for messages: "null", "false", "true", "a number",
 * "a string", "an array", "an object". */
const char *xq_json_type_name(xq_json_type t);

#endif
