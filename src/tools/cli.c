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
