/* cli.c - shared command-line helpers (see cli.h). */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void xq_cli_error(const char *prog, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void xq_cli_version(const char *prog)
{
    printf("%s (xq-tools) %s\n", prog, XQ_VERSION);
}

int xq_cli_int(const char *prog, const char *name, const char *text, int max, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < 1 || v > max) {
        xq_cli_error(prog, "invalid value for --%s: '%s' (a whole number from 1 to %d)", name, text, max);
        return 0;
    }
    *out = (int)v;
    return 1;
}

int xq_cli_common_option(const char *prog, int c, const char *arg, const xq_cli_common *co)
{
    if (c == co->encoding_opt) {
        if (xq_encoding_parse(arg, &co->read->encoding)) return XQ_CLI_NEXT;
        xq_cli_error(prog, "unknown encoding '%s' (auto, utf8, gbk or big5)", arg);
        return XQ_EXIT_USAGE;
    }
    switch (c) {
    case 'q': *co->quiet = true; return XQ_CLI_NEXT;
    case 'j': return xq_cli_int(prog, "jobs", arg, 256, co->threads) ? XQ_CLI_NEXT : XQ_EXIT_USAGE;
    case 'h': co->usage(stdout); return XQ_EXIT_OK;
    case 'V': xq_cli_version(prog); return XQ_EXIT_OK;
    default: return XQ_CLI_OTHER;
    }
}

int xq_cli_bad_option(const char *prog)
{
    fprintf(stderr, "Try '%s --help' for more information.\n", prog);
    return XQ_EXIT_USAGE;
}

int xq_cli_rule_option(const char *prog, int c, const char *arg, xq_replay_options *rules, bool *cap_given)
{
    switch (c) {
    case XQ_OPT_MOVE_LIMIT:
        return xq_cli_int(prog, "move-limit", arg, 100000, &rules->move_limit) ? 1 : -1;
    case XQ_OPT_CHECK_CAP:
        *cap_given = true;
        return xq_cli_int(prog, "check-cap", arg, 100000, &rules->check_cap) ? 1 : -1;
    case XQ_OPT_REPETITIONS:
        if (!xq_cli_int(prog, "repetitions", arg, 100, &rules->repetitions)) return -1;
        if (rules->repetitions < 2) {
            xq_cli_error(prog, "--repetitions must be at least 2");
            return -1;
        }
        return 1;
    case XQ_OPT_RULES:
        if (!xq_rules_parse(arg, &rules->rules)) {
            xq_cli_error(prog, "unknown rule set '%s' (cxa1999 or axf)", arg);
            return -1;
        }
        return 1;
    default:
        return 0;
    }
}

void xq_cli_rules_finish(xq_replay_options *rules, bool cap_given)
{
    if (rules->rules == XQ_RULES_AXF && !cap_given) rules->check_cap = 10;   /* AXF clause */
}

int xq_cli_run_file_told(const char *prog, const char *path, const xq_read_options *ropt,
                         const xq_pipeline_options *po, bool *input_failed)
{
    char err[512];
    *input_failed = false;
    xq_reader *rd = xq_reader_open(path, ropt, err, sizeof err);
    if (!rd) {
        xq_cli_error(prog, "%s", err);
        *input_failed = true;
        return XQ_EXIT_USAGE;
    }
    const char *why = NULL;
    int status = XQ_EXIT_OK;
    if (xq_pipeline_run(rd, po, &why) < 0) {
        xq_cli_error(prog, "%s", why ? why : xq_reader_error(rd));
        *input_failed = !why;   /* the pipeline names only its own want of memory */
        status = XQ_EXIT_USAGE;
    }
    xq_reader_close(rd);
    return status;
}

int xq_cli_run_file(const char *prog, const char *path, const xq_read_options *ropt,
                    const xq_pipeline_options *po)
{
    bool input_failed;
    return xq_cli_run_file_told(prog, path, ropt, po, &input_failed);
}
