/* cli.c - shared command-line helpers (see cli.h). */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json.h"

void xq_cli_error(const char *prog, const char *fmt, ...)
{
    /* the whole message in the one rule (xq_name_printf): the names it
     * quotes (a file, a list, an option's value) show no control raw */
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    xq_name_vprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void xq_cli_version(const char *prog)
{
    printf("%s (xq-tools) %s\n", prog, XQ_VERSION);
}

/* A watched stream's file descriptor and the errno of its first failed
 * write(2) (0 while none failed); closing the stream closes fd when owned. */
typedef struct {
    int fd;
    bool owned;
    int err;
} watched_fd;

/* The watched standard output's (xq_cli_watch_stdout). */
static watched_fd stdout_watch = {STDOUT_FILENO, false, 0};

/* A watched stream's write function (fopencookie): all of buf to its fd,
 * or -1 with the reason kept in err. */
static ssize_t watched_write(void *cookie, const char *buf, size_t size)
{
    watched_fd *w = cookie;
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(w->fd, buf + done, size - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (!w->err) w->err = n < 0 ? errno : EIO;
            return done ? (ssize_t)done : -1;
        }
        done += (size_t)n;
    }
    return (ssize_t)done;
}

/* Its close function: the fd closed when owned (its error, as fclose's);
 * the cookie freed unless it is standard output's. */
static int watched_close(void *cookie)
{
    watched_fd *w = cookie;
    int rc = w->owned ? close(w->fd) : 0;
    if (w != &stdout_watch) free(w);
    return rc;
}

FILE *xq_cli_watched_fd(int fd, const int **err)
{
    watched_fd *w = malloc(sizeof *w);
    if (!w) return NULL;
    *w = (watched_fd){fd, true, 0};
    cookie_io_functions_t io = {.write = watched_write, .close = watched_close};
    FILE *f = fopencookie(w, "w", io);
    if (!f) {
        free(w);
        return NULL;
    }
    *err = &w->err;
    return f;
}

void xq_cli_watch_stdout(void)
{
    static bool watched;
    if (watched) return;
    cookie_io_functions_t io = {.write = watched_write, .close = watched_close};
    FILE *f = fopencookie(&stdout_watch, "w", io);
    if (!f) return;   /* (the plain stream stays: a reason may then be missing) */
    /* buffered as the C library buffers fd 1 (glibc: by lines on a
     * terminal, else in blocks of the file's st_blksize up to BUFSIZ), so
     * that the output goes out at the same points: where it shares a file
     * with standard error (2>&1), the two interleave as before */
    size_t size = BUFSIZ;
    struct stat st;
    if (fstat(STDOUT_FILENO, &st) == 0 && st.st_blksize > 0 && (size_t)st.st_blksize < size)
        size = (size_t)st.st_blksize;
    static char buf[BUFSIZ];   /* (glibc sizes a buffer it allocates itself by BUFSIZ alone) */
    if (setvbuf(f, buf, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, size) != 0) {
        fclose(f);
        return;
    }
    stdout = f;
    watched = true;
}

int xq_cli_stdout_check(const char *prog)
{
    errno = 0;
    bool flush_failed = fflush(stdout) != 0;
    int err = stdout_watch.err ? stdout_watch.err : flush_failed ? errno : 0;
    if (!flush_failed && !ferror(stdout)) return XQ_EXIT_OK;
    if (err) xq_cli_error(prog, "write error on standard output: %s", strerror(err));
    else xq_cli_error(prog, "write error on standard output");
    return XQ_EXIT_USAGE;
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

bool xq_cli_choose(const char *prog, xq_cli_choice *c, const char *option, const char *value, const char *key)
{
    if (!c->option) {
        *c = (xq_cli_choice){option, value, key};
        return true;
    }
    if (!strcmp(c->option, option) && !strcmp(c->key, key)) return true;
    xq_cli_error(prog, "%s%s%s and %s%s%s conflict: give one", c->option, c->value ? "=" : "", c->value ? c->value : "",
                 option, value ? "=" : "", value ? value : "");
    return false;
}

int xq_cli_common_option(const char *prog, int c, const char *arg, const xq_cli_common *co)
{
    if (c == co->encoding_opt) {
        if (!xq_encoding_parse(arg, &co->read->encoding)) {
            xq_cli_error(prog, "unknown encoding '%s' (auto, utf8, gbk or big5)", arg);
            return XQ_EXIT_USAGE;
        }
        const char *option = c == 'i' ? "--input-encoding" : "--encoding";
        if (co->encoding && !xq_cli_choose(prog, co->encoding, option, arg, xq_encoding_name(co->read->encoding)))
            return XQ_EXIT_USAGE;
        return XQ_CLI_NEXT;
    }
    switch (c) {
    case 'q': *co->quiet = true; return XQ_CLI_NEXT;
    case 'j': return xq_cli_int(prog, "jobs", arg, 256, co->threads) ? XQ_CLI_NEXT : XQ_EXIT_USAGE;
    case 'h': co->usage(stdout); return xq_cli_stdout_check(prog);
    case 'V': xq_cli_version(prog); return xq_cli_stdout_check(prog);
    case XQ_OPT_FILES_FROM:
    case XQ_OPT_FILES0_FROM:
        if (!co->list) return XQ_CLI_OTHER;
        if (co->list->path) {
            xq_cli_error(prog, "only one --files-from or --files0-from list can be given");
            return XQ_EXIT_USAGE;
        }
        co->list->path = arg;
        co->list->end = c == XQ_OPT_FILES0_FROM ? '\0' : '\n';
        return XQ_CLI_NEXT;
    default: return XQ_CLI_OTHER;
    }
}

int xq_cli_bad_option(const char *prog)
{
    fprintf(stderr, "Try '%s --help' for more information.\n", prog);
    return XQ_EXIT_USAGE;
}

int xq_cli_rule_option(const char *prog, int c, const char *arg, xq_replay_options *rules, bool *cap_given,
                       xq_cli_choice *set)
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
        return xq_cli_choose(prog, set, "--rules", arg, rules->rules == XQ_RULES_AXF ? "axf" : "cxa1999") ? 1 : -1;
    default:
        return 0;
    }
}

void xq_cli_rules_finish(xq_replay_options *rules, bool cap_given)
{
    if (rules->rules == XQ_RULES_AXF && !cap_given) rules->check_cap = 10;   /* AXF clause */
}

/* The reason in an input's failure msg: msg without the path it starts
 * with, whatever follows the path ("PATH: reason" gives "reason",
 * "PATH:LINE:COL: reason" gives "LINE:COL: reason"), for a report that
 * names the file itself. */
static const char *failure_reason(const char *path, const char *msg)
{
    size_t pl = strlen(path);
    if (strncmp(msg, path, pl) || msg[pl] != ':') return msg;
    msg += pl + 1;
    return *msg == ' ' ? msg + 1 : msg;
}

/* Print an input's failure msg ("PATH: reason") and keep its reason in
 * why[0..whysz). */
static void input_failure(const char *prog, const char *path, const char *msg, char *why, size_t whysz)
{
    xq_cli_error(prog, "%s", msg);
    if (whysz) snprintf(why, whysz, "%s", failure_reason(path, msg));
}

/* The place a failure's reason starts with ("LINE:COL: ..."), else 0 and
 * 0: line and col from 1, as in every diagnostic. */
static void reason_place(const char *why, unsigned long *line, unsigned long *col)
{
    char *end;
    *line = *col = 0;
    if (*why < '1' || *why > '9') return;
    unsigned long l = strtoul(why, &end, 10);
    if (*end != ':' || end[1] < '1' || end[1] > '9') return;
    unsigned long c = strtoul(end + 1, &end, 10);
    if (*end != ':') return;
    *line = l;
    *col = c;
}

void xq_cli_json_file_error(FILE *o, const char *path, const char *why)
{
    int first = 1;
    unsigned long line, col;
    reason_place(why, &line, &col);
    putc('{', o);
    xq_json_key(o, "file", &first); xq_json_string(o, path);   /* ("-" for stdin, as the games' lines) */
    xq_json_key(o, "status", &first); xq_json_string(o, "unreadable-file");
    xq_json_key(o, "line", &first);
    if (line) fprintf(o, "%lu", line); else fputs("null", o);
    xq_json_key(o, "col", &first);
    if (col) fprintf(o, "%lu", col); else fputs("null", o);
    xq_json_key(o, "error", &first); xq_json_string(o, why);
    fputs("}\n", o);
}

void xq_cli_print_unlisted(FILE *o, const xq_game *g, int errors)
{
    char label[512];
    xq_game_label(g, label, sizeof label);
    xq_name_put(o, g->file);
    fprintf(o, ":%llu:1: ", (unsigned long long)g->first_line);
    xq_name_printf(o, "error: game %llu%s%s%s: %d more error%s than listed (a game's report lists at most %d findings)",
                   (unsigned long long)g->index, *label ? " (" : "", label, *label ? ")" : "", errors,
                   errors == 1 ? "" : "s", XQ_REPLAY_MAX_FINDINGS);
    putc('\n', o);
}

int xq_cli_run_file_why(const char *prog, const char *path, const xq_read_options *ropt,
                        const xq_pipeline_options *po, bool *input_failed, char *why, size_t whysz)
{
    char err[512];
    *input_failed = false;
    if (whysz) why[0] = '\0';
    xq_reader *rd = xq_reader_open(path, ropt, err, sizeof err);
    if (!rd) {
        input_failure(prog, path, err, why, whysz);
        *input_failed = true;
        return XQ_EXIT_USAGE;
    }
    const char *oom = NULL;
    int status = XQ_EXIT_OK;
    if (xq_pipeline_run(rd, po, &oom) < 0) {
        if (oom) xq_cli_error(prog, "%s", oom);   /* the pipeline names only its own want of memory */
        else input_failure(prog, path, xq_reader_error(rd), why, whysz);
        *input_failed = !oom;
        status = XQ_EXIT_USAGE;
    } else if (xq_reader_late_error(rd)[0]) {
        /* bytes after whole gzip data, or a member whose check fails:
         * every game was read whole, but the file is not clean (gzip -t
         * fails on it): an I/O error, told once (zin.h) */
        input_failure(prog, path, xq_reader_late_error(rd), why, whysz);
        *input_failed = true;
        status = XQ_EXIT_USAGE;
    }
    xq_reader_close(rd);
    return status;
}

int xq_cli_run_file_told(const char *prog, const char *path, const xq_read_options *ropt,
                         const xq_pipeline_options *po, bool *input_failed)
{
    return xq_cli_run_file_why(prog, path, ropt, po, input_failed, NULL, 0);
}

int xq_cli_run_file(const char *prog, const char *path, const xq_read_options *ropt,
                    const xq_pipeline_options *po)
{
    bool input_failed;
    return xq_cli_run_file_told(prog, path, ropt, po, &input_failed);
}

/* Append path to (*v)[0..*n) (room *cap); false when memory ran out. */
static bool push_path(char ***v, size_t *n, size_t *cap, char *path)
{
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 64;
        char **p = realloc(*v, c * sizeof *p);
        if (!p) return false;
        *v = p;
        *cap = c;
    }
    (*v)[(*n)++] = path;
    return true;
}

/* The names of list f (shown as `shown` in messages) appended to *v:
 * each up to `end`, empty ones dropped, a '\r' before a '\n' too, and a
 * UTF-8 byte-order mark before the first (a list saved by Notepad).
 * Returns true, else false after printing why (a read error, memory, a
 * NUL byte in a list of lines: a list of NUL-ended names read as lines
 * would be one name, and the run would quietly read one file). */
static bool read_list(const char *prog, FILE *f, const char *shown, char end, char ***v, size_t *n,
                      size_t *cap)
{
    char *name = NULL;
    size_t room = 0;
    ssize_t len;
    unsigned long line = 0;
    bool ok = true;
    while ((len = getdelim(&name, &room, end, f)) >= 0) {
        line++;
        char *s = name;
        if (line == 1 && len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
            s += 3;
            len -= 3;
        }
        if (len && s[len - 1] == end) s[--len] = '\0';
        if (end == '\n' && len && s[len - 1] == '\r') s[--len] = '\0';
        if (end == '\n' && memchr(s, '\0', (size_t)len)) {
            xq_cli_error(prog, "%s:%lu: a NUL byte in a file name (for names ended by NUL bytes, use --files0-from)",
                         shown, line);
            ok = false;
            break;
        }
        if (!len) continue;
        char *copy = strdup(s);
        if (!copy || !push_path(v, n, cap, copy)) {
            free(copy);
            xq_cli_error(prog, "out of memory");
            ok = false;
            break;
        }
    }
    if (ok && ferror(f)) {
        xq_cli_error(prog, "cannot read the list of files %s: %s", shown, strerror(errno ? errno : EIO));
        ok = false;
    }
    free(name);
    return ok;
}

int xq_cli_inputs(const char *prog, char **operands, int count, const xq_cli_list *list, char ***paths,
                  size_t *npaths)
{
    char **v = NULL;
    size_t n = 0, cap = 0;
    *paths = NULL;
    *npaths = 0;
    bool list_stdin = list->path && strcmp(list->path, "-") == 0;
    for (int i = 0; i < count; i++) {
        if (list_stdin && strcmp(operands[i], "-") == 0) {
            xq_cli_error(prog, "standard input cannot be both the list of files and an input");
            free(v);
            return XQ_EXIT_USAGE;
        }
        if (!push_path(&v, &n, &cap, operands[i])) goto oom;
    }
    if (list->path) {
        const char *shown = list_stdin ? "(stdin)" : list->path;
        FILE *f = list_stdin ? stdin : fopen(list->path, "r");
        if (!f) {
            xq_cli_error(prog, "cannot read the list of files %s: %s", shown, strerror(errno));
            free(v);
            return XQ_EXIT_USAGE;
        }
        errno = 0;
        bool ok = read_list(prog, f, shown, list->end, &v, &n, &cap);
        if (!list_stdin) fclose(f);
        for (size_t i = (size_t)count; ok && i < n; i++)
            if (list_stdin && strcmp(v[i], "-") == 0) {
                xq_cli_error(prog, "the list of files on standard input names '-', standard input itself");
                ok = false;
            }
        if (!ok) {
            xq_cli_inputs_free(v, n, count);
            return XQ_EXIT_USAGE;
        }
    } else if (!count) {
        char *dash = strdup("-");
        if (!dash || !push_path(&v, &n, &cap, dash)) {
            free(dash);
            goto oom;
        }
    }
    *paths = v;
    *npaths = n;
    return XQ_EXIT_OK;
oom:
    xq_cli_error(prog, "out of memory");
    xq_cli_inputs_free(v, n, count);
    return XQ_EXIT_USAGE;
}

void xq_cli_inputs_free(char **paths, size_t npaths, int count)
{
    /* the operands come first; the names after them were copied */
    for (size_t i = (size_t)(count > 0 ? count : 0); i < npaths; i++) free(paths[i]);
    free(paths);
}
