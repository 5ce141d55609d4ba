/* cli.h - what the four command-line tools share: exit statuses (written
 * in man/xq.7 too), the version string, and diagnostics to stderr. */
#ifndef XQ_CLI_H
#define XQ_CLI_H

/* Exit statuses of every xq-* tool, as documented in man/xq.7. */
enum xq_exit {
    XQ_EXIT_OK = 0,        /* ran, and found nothing wrong */
    XQ_EXIT_FINDINGS = 1,  /* ran, and found errors in the input */
    XQ_EXIT_USAGE = 2      /* bad usage, unreadable file, or I/O error */
};

#define XQ_VERSION "0.1.0"

#include <stdbool.h>
#include <stdio.h>

#include "pgn_read.h"
#include "pipeline.h"
#include "replay.h"

/* One choice the command line makes (an output format, a notation, an
 * encoding, a rule set, an output file ...), whichever options make it:
 * the first option that made it and its value.  Zero-initialised. */
typedef struct {
    const char *option;   /* "--to", "--json" ...; NULL: not chosen yet */
    const char *value;    /* its value as given (NULL for an option without one) */
    const char *key;      /* the value chosen, by its canonical name */
} xq_cli_choice;

/* Make choice *c with option (its value as given, NULL for a flag), the
 * value chosen named by key (two spellings of one value: one key).
 * Returns true; false after printing "PROG: OPTION=VALUE and
 * OPTION2=VALUE2 conflict: give one" when another option, or the same
 * with another key, chose before (the same option and value again is
 * fine): two output formats,
 * two notations, two encodings are a usage error, never the last one
 * silently (exit status 2). */
bool xq_cli_choose(const char *prog, xq_cli_choice *c, const char *option, const char *value, const char *key);

/* The rule options of every tool that replays games (xq-validate,
 * xq-stats): put XQ_CLI_RULE_LONGOPTS in the getopt_long table, XQ_CLI_RULE_HELP
 * in --help, pass every option to xq_cli_rule_option, then call
 * xq_cli_rules_finish once. */
enum { XQ_OPT_MOVE_LIMIT = 0x1000, XQ_OPT_CHECK_CAP, XQ_OPT_REPETITIONS, XQ_OPT_RULES };
#define XQ_CLI_RULE_LONGOPTS                                                    \
    {"move-limit", required_argument, NULL, XQ_OPT_MOVE_LIMIT},                 \
    {"check-cap", required_argument, NULL, XQ_OPT_CHECK_CAP},                   \
    {"repetitions", required_argument, NULL, XQ_OPT_REPETITIONS},               \
    {"rules", required_argument, NULL, XQ_OPT_RULES}
#define XQ_CLI_RULE_HELP                                                                  \
    "      --rules=SET         repetition rules (棋例): cxa1999 (default) or axf\n"     \
    "                          (Asian rules; also sets --check-cap=10)\n"               \
    "      --move-limit=N      natural move limit in rounds (default 60)\n"             \
    "      --check-cap=N       count at most N checks per side toward the move\n"       \
    "                          limit (default: all, as the CXA text; AXF: 10)\n"        \
    "      --repetitions=N     occurrences of a position that end the game\n"           \
    "                          (default 3)\n"

/* Apply rule option c (one of XQ_OPT_*) with argument arg to *rules.
 * Returns 1 when applied, 0 when c is not a rule option, -1 after printing
 * "PROG: ..." for a bad value or a second --rules naming another set
 * (*set: the choice of set, xq_cli_choose).  *cap_given records an
 * explicit --check-cap. */
int xq_cli_rule_option(const char *prog, int c, const char *arg, xq_replay_options *rules, bool *cap_given,
                       xq_cli_choice *set);

/* The options every tool reads the same way: the input encoding (-e, or
 * the letter in encoding_opt: xq-convert's -e is the output's, its input's
 * is -i), -q, -j N, -h, -V and the list of input files (--files-from,
 * --files0-from: xq_cli_inputs).  Filled by the tool, read by
 * xq_cli_common_option. */
typedef struct {
    int encoding_opt;            /* the option letter of the input encoding */
    xq_read_options *read;       /* its .encoding is set */
    int *threads;                /* -j N: 1..256 */
    bool *quiet;                 /* -q */
    void (*usage)(FILE *to);     /* -h: the tool's help text, to stdout */
    struct xq_cli_list *list;    /* --files-from / --files0-from (XQ_CLI_FILES_LONGOPTS) */
    xq_cli_choice *encoding;     /* the input encoding's choice (two different: an error) */
} xq_cli_common;

enum { XQ_CLI_NEXT = -1, XQ_CLI_OTHER = -2 };

/* Apply option c with argument arg if it is one of *co's.  Returns
 * XQ_CLI_NEXT when applied (parsing goes on), XQ_CLI_OTHER when c is not
 * one of them, else the exit status to return at once: XQ_EXIT_OK after
 * --help or --version (XQ_EXIT_USAGE when their text could not be written:
 * xq_cli_stdout_check), XQ_EXIT_USAGE after printing "PROG: ..." for a bad
 * value. */
int xq_cli_common_option(const char *prog, int c, const char *arg, const xq_cli_common *co);

/* For an option getopt_long refused (it printed why): print "Try 'PROG
 * --help' for more information." to stderr; returns XQ_EXIT_USAGE. */
int xq_cli_bad_option(const char *prog);

/* Read every game of path ("-" = stdin) through the pipeline po
 * (pipeline.h).  Returns XQ_EXIT_OK, or XQ_EXIT_USAGE after printing
 * "PROG: PATH: reason" when the file cannot be opened or read, or the
 * pipeline ran out of memory. */
int xq_cli_run_file(const char *prog, const char *path, const xq_read_options *ropt,
                    const xq_pipeline_options *po);

/* xq_cli_run_file, telling the two failures apart: *input_failed set
 * when the file could not be opened or read (the games read before a read
 * error were processed), cleared otherwise (a failure then is the
 * pipeline's want of memory). */
int xq_cli_run_file_told(const char *prog, const char *path, const xq_read_options *ropt,
                         const xq_pipeline_options *po, bool *input_failed);

/* xq_cli_run_file_told, also giving the reason printed for an input that
 * failed (why[0..whysz), "" otherwise): without the "PATH:" (and the
 * blank after it) the reader's messages start with, e.g. "No such file
 * or directory", or "12:3: XML error: ..." from "PATH:12:3: XML error:
 * ...", for a report that names the file itself (xq_cli_json_file_error). */
int xq_cli_run_file_why(const char *prog, const char *path, const xq_read_options *ropt,
                        const xq_pipeline_options *po, bool *input_failed, char *why, size_t whysz);

/* The JSON line of a file that could not be read, or not to its end
 * (written after the games read before the failure), to o:
 * {"file":PATH,"status":"unreadable-file","line":L,"col":C,"error":WHY}
 * and a newline; why as xq_cli_run_file_why gives it, L and C the place
 * it starts with ("60:34: XML error: ..."), else null.  Without it a JSON consumer could
 * not see that a file was not read (the text is on stderr only).  No
 * "game" key: a game's line always has one.  xq-validate --report json
 * and xq-parse --json write it. */
void xq_cli_json_file_error(FILE *o, const char *path, const char *why);

/* One line to o for a game's errors that its report could not list (a
 * replay keeps its first XQ_REPLAY_MAX_FINDINGS findings, errors before
 * warnings), at the record's start, so that a game counted with errors
 * always shows one: "FILE:LINE:1: error: game N (LABEL): K more errors
 * than listed (...)".  errors > 0.  xq-validate and xq-parse. */
void xq_cli_print_unlisted(FILE *o, const xq_game *g, int errors);

/* The input files of every tool: the FILE operands, then the names read
 * from a list given with --files-from=LIST (one name per line; a '\r'
 * before the '\n' and empty lines are dropped) or --files0-from=LIST
 * (names ended by NUL bytes, as `find -print0` writes them: any name),
 * LIST '-' being standard input; standard input alone ("-") when there
 * are neither operands nor a list.  For a directory of more games than
 * a command line holds, where several runs would split xq-stats' totals.
 * (GNU tar's --files-from, du's --files0-from; pgn-extract's -f.) */
enum { XQ_OPT_FILES_FROM = 0x1100, XQ_OPT_FILES0_FROM };
#define XQ_CLI_FILES_LONGOPTS                                                   \
    {"files-from", required_argument, NULL, XQ_OPT_FILES_FROM},                 \
    {"files0-from", required_argument, NULL, XQ_OPT_FILES0_FROM}
#define XQ_CLI_FILES_HELP                                                                 \
    "      --files-from=LIST   read the files named in LIST too, one per line,\n"       \
    "                          after the FILEs ('-': the list on standard input)\n"    \
    "      --files0-from=LIST  the same, with each name ended by a NUL byte\n"          \
    "                          (as find -print0 writes them)\n"

/* The list option given (xq_cli_list_option), zero-initialised. */
typedef struct xq_cli_list {
    const char *path;   /* LIST, or NULL */
    char end;           /* what ends a name: '\n' or '\0' */
} xq_cli_list;

/* The files to read, in order: operands[0..count) then the names of
 * list (when its path is set), or "-" alone when there are neither; into
 * *paths (malloc'd array, *npaths entries; the list's names malloc'd
 * too, the operands not: free with xq_cli_inputs_free).  Returns
 * XQ_EXIT_OK, or XQ_EXIT_USAGE after printing "PROG: LIST: reason" when
 * the list cannot be opened or read, when standard input would be both
 * the list and an input, or when memory runs out (then nothing is
 * returned: no file has been read). */
int xq_cli_inputs(const char *prog, char **operands, int count, const xq_cli_list *list, char ***paths,
                  size_t *npaths);

/* Free what xq_cli_inputs returned for count operands (those stay the
 * caller's). */
void xq_cli_inputs_free(char **paths, size_t npaths, int count);

/* After all options: the AXF rule set counts at most 10 checks per side
 * toward the move limit unless --check-cap said otherwise. */
void xq_cli_rules_finish(xq_replay_options *rules, bool cap_given);

/* Print "PROG: message\n" to stderr (printf-style), the message as
 * xq_name_put (game.h) shows it: the file names and values it quotes
 * print no control character raw.  Every text diagnostic of the tools
 * writes its FILE the same way (xq_name_put), in one rule. */
void xq_cli_error(const char *prog, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Print "PROG (xq-tools) VERSION" to stdout, for --version. */
void xq_cli_version(const char *prog);

/* Make stdout a stream (same fd 1, same buffering) that keeps the errno
 * of the first write(2) to it that fails, for xq_cli_stdout_check: stdio
 * keeps only an error flag, and once a write that went past the buffer
 * (a game's whole output, written by the pipeline) failed, the final
 * flush has nothing left to fail on and no reason to give.  Every tool
 * calls it first thing in main; a second call does nothing.  On failure
 * (no memory) stdout stays as it was. */
void xq_cli_watch_stdout(void);

/* A stream writing to fd (owned: fclose closes it), buffered fully, that
 * keeps the errno of the first write(2) to it that fails in **err (0
 * while none failed; valid until the stream is closed), as the watched
 * standard output does: the reason of a write error (xq-convert -o).
 * NULL when out of memory (fd then still open, the caller's). */
FILE *xq_cli_watched_fd(int fd, const int **err);

/* Flush standard output and check that every byte of it was written (a
 * full disk, /dev/full, a file over its size limit: stdio only sets the
 * stream's error flag).  Returns XQ_EXIT_OK, else XQ_EXIT_USAGE after
 * printing "PROG: write error on standard output: REASON" (REASON: the
 * errno of the first write that failed (xq_cli_watch_stdout), else of the
 * flush; omitted only when neither is known).  Every tool calls it
 * before its summary and after --help, --version, --perft, so that a
 * write error never exits 0. */
int xq_cli_stdout_check(const char *prog);

/* Parse a positive decimal int option value into *out (1..max); on error
 * print "PROG: invalid value for --NAME: 'TEXT'" and return 0. */
int xq_cli_int(const char *prog, const char *name, const char *text, int max, int *out);

#endif
