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

/* Print "PROG: message\n" to stderr (printf-style). */
void xq_cli_error(const char *prog, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Print "PROG (xq-tools) VERSION" to stdout, for --version. */
void xq_cli_version(const char *prog);

/* Parse a positive decimal int option value into *out (1..max); on error
 * print "PROG: invalid value for --NAME: 'TEXT'" and return 0. */
int xq_cli_int(const char *prog, const char *name, const char *text, int max, int *out);

#endif
