/* xq-convert - convert game records between formats and notations: PGN in
 * any notation, XML (src/xq-game.rng), JSON Lines, XBoard PGN, UCCI
 * position lines.  Every game read is written; moves that cannot be
 * translated are kept as text where the format allows and reported.
 * See man/xq-convert.1. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "finding_order.h"
#include "pipeline.h"
#include "pgn_read.h"
#include "replay.h"
#include "write.h"

static const char PROG[] = "xq-convert";

typedef struct {
    xq_read_options read;
    xq_write_options write;
    const char *output;       /* -o FILE, or NULL for stdout */
    xq_cli_list list;         /* --files-from / --files0-from */
    bool quiet;
    int threads;              /* -j */
} options;

typedef struct {
    unsigned long long games, partial;
    unsigned long long lost[4];   /* games whose tags/comments/NAGs/variations the format drops */
    xq_pipeline_memos memos;      /* what the replays of every file share (pipeline.h) */
} totals;

static void usage(FILE *to)
{
    fputs("Usage: xq-convert [OPTION]... [FILE]...\n"
          "Convert the game records of each FILE (or standard input, or '-') to another\n"
          "format or notation.  Input formats are recognised by content: PGN-style\n"
          "text in any notation and encoding, UCCI position lines (as --to ucci\n"
          "writes), xq-tools XML, CBF, XQF, CBR/CBL, DhtmlXQ, JSON Lines (as --to\n"
          "jsonl writes); gzip is inflated.\n"
          "\n"
          "  -t, --to=FORMAT         pgn (default), xml, jsonl, xboard (PGN as GNU XBoard\n"
          "                          saves Xiangqi, SAN moves), ucci (one line per game:\n"
          "                          position fen FEN moves h2e2 ...), dhtmlxq (web\n"
          "                          page blocks) or xqf (XQStudio version 10, one game)\n"
          "  -n, --notation=NOTATION moves for pgn and xml: chinese (default), abbr,\n"
          "                          3digit, wxf, iccs, ucci or san\n"
          "      --traditional       Chinese moves in traditional characters (車馬進);\n"
          "                          the default with --encoding=big5\n"
          "      --simplified        Chinese moves in simplified characters (车马进)\n"
          "      --ascii-digits      Black's files in Chinese moves as 1-9, not １-９\n"
          "      --no-comments       drop comments\n"
          "      --no-variations     drop variations\n"
          "  -e, --encoding=ENC      output encoding for pgn, xboard, xml and dhtmlxq: utf8\n"
          "                          (default), gbk or big5\n"
          "  -i, --input-encoding=ENC  auto (default), utf8, gbk or big5\n"
          XQ_CLI_FILES_HELP
          "  -f, --from=FORMAT       input format: auto (default), pgn, xml, cbf or jsonl\n"
          "  -o, --output=FILE       write to FILE, replaced only once complete (its mode\n"
          "                          and group kept), instead of standard output ('-')\n"
          "  -q, --quiet             no summary line and no notes after it (a game's\n"
          "                          errors and notes stay)\n"
          "  -j, --jobs=N            convert on N threads (default: the number of\n"
          "                          CPUs); the output is the same for every N\n"
          "  -h, --help              show this help and exit\n"
          "  -V, --version           show the version and exit\n"
          "\n"
          "Moves after an illegal one cannot be translated: they are kept as text (as\n"
          "moves for pgn and xboard, so that the game fails there again; dropped for\n"
          "ucci, xqf and dhtmlxq) and reported on stderr.  What a format cannot hold\n"
          "is named in a note.\n"
          "\n"
          "Exit status: 0 all games converted in full, 1 some game not, 2 usage or I/O\n"
          "error.\n",
          to);
}

/* ---- atomic output -------------------------------------------------------------- */

static char *tmp_path;   /* the temporary file while -o FILE is being written */
static int out_fd = -1;   /* -o FILE's descriptor (the stream's: xq_cli_watched_fd) */
static const int *out_errno;   /* the errno of its first failed write, 0 while none (cli.h) */
static bool path_existed;   /* -o FILE was there before (close_output's message on failure) */
static char *target_path;   /* -o FILE's own name with its symbolic links followed (realpath),
                               when it is a link: the file the temporary one replaces, beside
                               it, so that the link stays a link */
static bool copy_back;      /* -o FILE has other hard links: once complete, the temporary
                               file's bytes are copied into it (a rename would part it from
                               them) */

static void on_signal(int sig)
{
    if (tmp_path) unlink(tmp_path);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Say why -o PATH cannot be written: the temporary file beside it could
 * not be made (err: mkstemp's errno).  The directory is named, as the
 * file itself may well be writable: "rodir/f.pgn: Permission denied" was
 * untrue for a writable file in a read-only directory.  The file is not
 * written in place instead: -o promises a file replaced only once
 * complete, never half written; '> PATH' writes in place. */
static void temp_failed(const char *path, int err)
{
    const char *slash = strrchr(path, '/');
    int dir_len = slash ? (slash == path ? 1 : (int)(slash - path)) : 1;
    const char *dir = slash ? path : ".";
    xq_cli_error(PROG, "%s: cannot create a temporary file in directory %.*s to write it: %s "
                 "(-o replaces the file once complete; '> %s' writes it in place)",
                 path, dir_len, dir, strerror(err), path);
}

/* Give the temporary file fd the owner, group and permission bits of the
 * file it replaces (old), as editors and sed -i do: a file of mode 640,
 * group nogroup stays so, not the umask's 644 and the runner's group.
 * The owner and group only where the process may set them (root, or a
 * group it is in); the set-user-ID and set-group-ID bits only when both
 * were kept, so a copy never gains them for another owner. */
static void keep_owner_and_mode(int fd, const struct stat *old)
{
    mode_t mode = old->st_mode & 07777;
    if (fchown(fd, old->st_uid, old->st_gid) != 0) {
        if (fchown(fd, (uid_t)-1, old->st_gid) != 0) { /* the runner's group: no set-group-ID */ }
        mode &= ~(mode_t)(S_ISUID | S_ISGID);
    }
    if (fchmod(fd, mode) != 0) { /* keep mkstemp's 0600 */ }
}

/* fd (open for -o) as the output stream that keeps the reason of a
 * failed write (xq_cli_watched_fd); NULL, fd closed, when out of memory. */
static FILE *watched(int fd)
{
    FILE *f = xq_cli_watched_fd(fd, &out_errno);
    if (!f) {
        close(fd);
        xq_cli_error(PROG, "%s", strerror(ENOMEM));
        return NULL;
    }
    out_fd = fd;
    return f;
}

/* Open the output: a temporary file beside the file path names (its
 * symbolic links followed), put in its place once complete (close_output),
 * when that is a regular file or is not there: so the output never
 * truncates an input before it is read, whatever names the file has (-o
 * IN with IN a link to the input emptied it, and lost its games).  A
 * device such as /dev/null or a named pipe is written in place, as a
 * rename over it would replace it (run as root, -o /dev/null made
 * /dev/null a file); so is a link to nothing (the file it names is made). */
static FILE *open_output(const char *path)
{
    struct stat st, lst;
    bool is_link = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode);
    path_existed = stat(path, &st) == 0;
    if ((path_existed && !S_ISREG(st.st_mode)) || (!path_existed && is_link)) {
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        if (fd < 0) {
            xq_cli_error(PROG, "%s: %s", path, strerror(errno));
            return NULL;
        }
        return watched(fd);
    }
    const char *target = path;
    if (is_link) {
        if (!(target_path = realpath(path, NULL))) {
            xq_cli_error(PROG, "%s: %s", path, strerror(errno));
            return NULL;
        }
        target = target_path;
    }
    copy_back = path_existed && st.st_nlink > 1;
    size_t n = strlen(target);
    tmp_path = malloc(n + 16);
    if (!tmp_path) return NULL;
    snprintf(tmp_path, n + 16, "%s.tmp-XXXXXX", target);
    int fd = mkstemp(tmp_path);
    if (fd < 0) {
        temp_failed(target, errno);
        free(tmp_path);
        tmp_path = NULL;
        return NULL;
    }
    if (path_existed) keep_owner_and_mode(fd, &st);
    else {
        mode_t mask = umask(0);
        umask(mask);
        if (fchmod(fd, 0666 & ~mask) != 0) { /* keep mkstemp's 0600 */ }
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
    return watched(fd);
}

/* Copy the complete temporary file into target, which has other hard
 * links (copy_back), and sync it.  False, with errno, on failure: target
 * may then be cut, and the caller keeps the temporary file. */
static bool copy_into(const char *target)
{
    int in = open(tmp_path, O_RDONLY | O_CLOEXEC);
    if (in < 0) return false;
    int out = open(target, O_WRONLY | O_TRUNC | O_CLOEXEC);
    bool ok = out >= 0;
    char buf[1 << 16];
    ssize_t got = 0;
    while (ok && (got = read(in, buf, sizeof buf)) > 0)
        for (ssize_t done = 0, w; ok && done < got; done += w) ok = (w = write(out, buf + done, (size_t)(got - done))) > 0;
    ok = ok && got == 0 && fsync(out) == 0;
    int err = errno;
    if (out >= 0 && close(out) != 0 && ok) {
        ok = false;
        err = errno;
    }
    close(in);
    errno = err;
    return ok;
}

/* Finish the output: put the temporary file in the place of the file
 * path names when ok (renamed over it, or copied into it when it has
 * other hard links), else remove it (written in place, without one: only
 * close it).  Returns false (after a message) on failure. */
static bool close_output(FILE *f, const char *path, bool ok)
{
    if (!tmp_path) {
        bool closed = fclose(f) == 0;
        if (ok && !closed) xq_cli_error(PROG, "%s: %s", path, strerror(errno));
        return ok && closed;
    }
    bool flushed = fflush(f) == 0 && fsync(out_fd) == 0;
    int err = errno;
    if (fclose(f) != 0 && flushed) {
        flushed = false;
        err = errno;
    }
    if (ok && !flushed) xq_cli_error(PROG, "%s: %s", path, strerror(err));
    ok = ok && flushed;
    const char *target = target_path ? target_path : path;
    bool kept = false;   /* the temporary file stays: the only whole copy of the output */
    if (ok && copy_back) {
        if (copy_into(target)) unlink(tmp_path);
        else {
            xq_cli_error(PROG, "%s: %s; the output is complete in %s", path, strerror(errno), tmp_path);
            ok = false;
            kept = true;
        }
    } else if (ok && rename(tmp_path, target) != 0) {
        xq_cli_error(PROG, "%s: %s", path, strerror(errno));
        ok = false;
    }
    if (!ok && !kept) {
        unlink(tmp_path);
        xq_cli_error(PROG, path_existed ? "%s left unchanged" : "%s not written", path);
    }
    free(tmp_path);
    tmp_path = NULL;
    free(target_path);
    target_path = NULL;
    return ok;
}

/* ---- converting ------------------------------------------------------------------- */

/* The writer's first untranslatable move (rep->why), at its place. */
static void report_why(FILE *err, const xq_game *g, const xq_write_report *rep)
{
    xq_name_put(err, g->file);
    fprintf(err, ":%lu:%lu: ", (unsigned long)(rep->line ? rep->line : g->first_line),
            (unsigned long)(rep->line ? rep->col : 1));
    /* (why may quote record text: in the one rule, xq_name_printf) */
    xq_name_printf(err, "error: game %llu: %s", (unsigned long long)g->index, rep->why);
    putc('\n', err);
}

/* The reader's errors (bad bytes, unclosed comments ...), in input order
 * with the writer's first untranslatable move (rep->why, when rep and it
 * are given) at its place: the game as converted may differ from the
 * record.  True when the reader had an error. */
static bool report_syntax(FILE *err, const xq_game *g, const xq_replay *r, const xq_write_report *rep)
{
    bool any = false, why_due = rep && rep->why[0];
    unsigned long why_line = rep && rep->line ? rep->line : g->first_line, why_col = rep && rep->line ? rep->col : 1;
    int listed = 0;
    int order[XQ_REPLAY_MAX_FINDINGS];   /* in input order, as xq-validate tells them */
    xq_findings_in_order(r, order);
    for (int i = 0; i < r->nfindings; i++) {
        const xq_finding *f = &r->findings[order[i]];
        if (f->kind != XQ_FIND_SYNTAX || f->severity != XQ_SEV_ERROR) continue;
        listed++;
        unsigned long line, col;
        xq_finding_place(f, g, &line, &col);
        if (why_due && (why_line < line || (why_line == line && why_col < col))) {
            report_why(err, g, rep);
            why_due = false;
        }
        xq_name_put(err, g->file);   /* (no control character raw: cli.h) */
        fprintf(err, ":%lu:%lu: ", line, col);
        xq_name_printf(err, "error: game %llu: %s", (unsigned long long)g->index, f->message);   /* (quotes the record) */
        putc('\n', err);
        any = true;
    }
    if (why_due) report_why(err, g, rep);
    /* (counted, listed or not: replay.h kind_counts) */
    int errors = r->kind_counts[XQ_FIND_SYNTAX][XQ_SEV_ERROR];
    if (errors > listed) xq_cli_print_unlisted(err, g, errors - listed);
    return any || errors > 0;
}

/* What a worker found about one game, for the totals. */
typedef struct {
    bool partial;      /* not converted in full */
    unsigned lost;     /* XQ_HOLDS_* bits the format dropped */
} game_outcome;

typedef struct {
    const options *opt;
    xq_replay_options rules;
    unsigned holds;
    unsigned long long games_before;   /* the games of the files read before this one */
    totals *t;
    int status;
} run_state;

/* A worker's part: replay one game and write it in the target format. */
static void convert_game(void *ctx, xq_slot *slot)
{
    run_state *st = ctx;
    xq_game *g = &slot->game;
    xq_replay *r = &slot->replay;
    game_outcome *o = slot->user;
    xq_write_report rep;
    xq_replay_game_memo(g, &st->rules, slot->memo, r);
    o->lost = 0;
    if (st->opt->write.format == XQ_OUT_XQF && (g->index > 1 || st->games_before)) {
        /* an XQF file holds one game, the run's first: the rest would
         * make a broken file (counted and told, from every file) */
        report_syntax(slot->err, g, r, NULL);
        xq_name_put(slot->err, g->file);
        fprintf(slot->err, ":%llu:1: error: game %llu: not written: an XQF file holds one game\n",
                (unsigned long long)g->first_line, (unsigned long long)g->index);
        o->partial = true;
        return;
    }
    bool whole = xq_write_game(slot->out, g, r, &st->opt->write, &rep);
    /* the reader's errors and the first move not translated, in order */
    o->partial = report_syntax(slot->err, g, r, whole ? NULL : &rep);
    if (!whole) {
        /* something dropped or written otherwise: not in full, said even
         * with -q (which leaves out only the summary and its notes); the
         * note may quote record text: in the one rule (xq_name_printf) */
        if (rep.note[0]) {
            xq_name_put(slot->err, g->file);
            fprintf(slot->err, ":%llu:1: ", (unsigned long long)g->first_line);
            xq_name_printf(slot->err, "note: game %llu: %s", (unsigned long long)g->index, rep.note);
            putc('\n', slot->err);
        }
        o->partial = true;
    }
    o->lost = xq_game_contents(g) & ~st->holds;
}

/* In input order: totals. */
static void account_game(void *ctx, xq_slot *slot)
{
    run_state *st = ctx;
    const game_outcome *o = slot->user;
    st->t->games++;
    if (o->partial) {
        st->t->partial++;
        st->status = XQ_EXIT_FINDINGS;
    }
    for (int b = 0; b < 4; b++) st->t->lost[b] += (o->lost >> b) & 1u;
}

static int convert_file(const char *path, FILE *out, const options *opt, totals *t)
{
    run_state st = {.opt = opt, .t = t, .games_before = t->games, .status = XQ_EXIT_OK};
    xq_replay_options_default(&st.rules);
    st.rules.no_final = true;   /* (no output reads the final position: replay.h) */
    st.holds = xq_out_format_holds(opt->write.format);
    if (opt->write.no_comments) st.holds |= XQ_HOLDS_COMMENTS;
    if (opt->write.no_variations) st.holds |= XQ_HOLDS_VARIATIONS;
    xq_pipeline_options po = {
        .threads = opt->threads, .memos = &t->memos, .out = out, .user_size = sizeof(game_outcome), .ctx = &st,
        .process = convert_game, .account = account_game,
    };
    int status = xq_cli_run_file(PROG, path, &opt->read, &po);
    return status > st.status ? status : st.status;
}

/* Parse the options into *opt; returns -1 to go on, else an exit status. */
static int parse_options(int argc, char **argv, options *opt)
{
    enum { OPT_TRAD = 256, OPT_SIMP, OPT_ASCII, OPT_NO_COMMENTS, OPT_NO_VARIATIONS };
    static const struct option longopts[] = {
        {"to", required_argument, NULL, 't'},
        {"notation", required_argument, NULL, 'n'},
        {"traditional", no_argument, NULL, OPT_TRAD},
        {"simplified", no_argument, NULL, OPT_SIMP},
        {"ascii-digits", no_argument, NULL, OPT_ASCII},
        {"no-comments", no_argument, NULL, OPT_NO_COMMENTS},
        {"no-variations", no_argument, NULL, OPT_NO_VARIATIONS},
        {"encoding", required_argument, NULL, 'e'},
        {"input-encoding", required_argument, NULL, 'i'},
        {"from", required_argument, NULL, 'f'},
        XQ_CLI_FILES_LONGOPTS,
        {"output", required_argument, NULL, 'o'},
        {"quiet", no_argument, NULL, 'q'},
        {"jobs", required_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    bool notation_set = false;
    int script = 0;   /* 1 traditional, -1 simplified, 0 default */
    /* -e is the output's encoding here: the input's is -i */
    /* each choice made once (a second, other value: a usage error) */
    xq_cli_choice to = {0}, notation = {0}, script_choice = {0}, encoding = {0}, input_encoding = {0}, from = {0},
                  output = {0};
    const xq_cli_common common = {'i', &opt->read, &opt->threads, &opt->quiet, usage, &opt->list, &input_encoding};
    int c;
    while ((c = getopt_long(argc, argv, "t:n:e:i:f:o:qj:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 't':
            if (!xq_out_format_parse(optarg, &opt->write.format)) {
                xq_cli_error(PROG, "unknown output format '%s' (pgn, xml, jsonl, xboard, ucci, dhtmlxq or xqf)", optarg);
                return XQ_EXIT_USAGE;
            }
            if (!xq_cli_choose(PROG, &to, "--to", optarg, xq_out_format_name(opt->write.format))) return XQ_EXIT_USAGE;
            break;
        case 'n':
            if (!xq_notation_from_name(optarg, &opt->write.notation) || opt->write.notation == XQ_NOTATION_AUTO) {
                xq_cli_error(PROG, "unknown notation '%s' (chinese, abbr, 3digit, wxf, iccs, ucci or san)", optarg);
                return XQ_EXIT_USAGE;
            }
            if (!xq_cli_choose(PROG, &notation, "--notation", optarg, xq_notation_name(opt->write.notation)))
                return XQ_EXIT_USAGE;
            notation_set = true;
            break;
        case OPT_TRAD:
            if (!xq_cli_choose(PROG, &script_choice, "--traditional", NULL, "traditional")) return XQ_EXIT_USAGE;
            script = 1;
            break;
        case OPT_SIMP:
            if (!xq_cli_choose(PROG, &script_choice, "--simplified", NULL, "simplified")) return XQ_EXIT_USAGE;
            script = -1;
            break;
        case OPT_ASCII: opt->write.notation_flags |= XQ_WRITE_ASCII_DIGITS; break;
        case OPT_NO_COMMENTS: opt->write.no_comments = true; break;
        case OPT_NO_VARIATIONS: opt->write.no_variations = true; break;
        case 'e':
            if (!xq_encoding_parse(optarg, &opt->write.encoding) || opt->write.encoding == XQ_ENC_AUTO) {
                xq_cli_error(PROG, "unknown output encoding '%s' (utf8, gbk or big5)", optarg);
                return XQ_EXIT_USAGE;
            }
            if (!xq_cli_choose(PROG, &encoding, "--encoding", optarg, xq_encoding_name(opt->write.encoding)))
                return XQ_EXIT_USAGE;
            break;
        case 'f':
            if (!strcasecmp(optarg, "auto")) opt->read.format = XQ_FMT_AUTO;
            else if (!strcasecmp(optarg, "pgn")) opt->read.format = XQ_FMT_PGN;
            /* CBF is XML: the XML reader takes its root element (cbf_read.h) */
            else if (!strcasecmp(optarg, "xml") || !strcasecmp(optarg, "cbf")) opt->read.format = XQ_FMT_XML;
            else if (!strcasecmp(optarg, "jsonl")) opt->read.format = XQ_FMT_JSONL;
            else {
                xq_cli_error(PROG, "unknown input format '%s' (auto, pgn, xml, cbf or jsonl)", optarg);
                return XQ_EXIT_USAGE;
            }
            if (!xq_cli_choose(PROG, &from, "--from", optarg, optarg)) return XQ_EXIT_USAGE;
            break;
        case 'o':
            if (!xq_cli_choose(PROG, &output, "--output", optarg, optarg)) return XQ_EXIT_USAGE;
            opt->output = optarg;
            break;
        default: {
            int st = xq_cli_common_option(PROG, c, optarg, &common);
            if (st == XQ_CLI_NEXT) break;
            return st == XQ_CLI_OTHER ? xq_cli_bad_option(PROG) : st;
        }
        }
    }
    xq_out_format f = opt->write.format;
    if (notation_set && f != XQ_OUT_PGN && f != XQ_OUT_XML) {
        xq_cli_error(PROG, "--notation goes with --to=pgn or --to=xml (%s has its own)", xq_out_format_name(f));
        return XQ_EXIT_USAGE;
    }
    bool text = f == XQ_OUT_PGN || f == XQ_OUT_XBOARD || f == XQ_OUT_XML || f == XQ_OUT_DHTMLXQ;
    if (!text && opt->write.encoding != XQ_ENC_UTF8 && opt->write.encoding != XQ_ENC_AUTO) {
        xq_cli_error(PROG, "--encoding goes with pgn, xboard and xml; %s is always UTF-8", xq_out_format_name(f));
        return XQ_EXIT_USAGE;
    }
    if (script > 0 || (script == 0 && opt->write.encoding == XQ_ENC_BIG5))
        opt->write.notation_flags |= XQ_WRITE_TRADITIONAL;
    return -1;
}

int main(int argc, char **argv)
{
    xq_cli_watch_stdout();   /* (a write error's reason kept: cli.h) */
    options opt;
    memset(&opt, 0, sizeof opt);
    opt.write.format = XQ_OUT_PGN;
    opt.threads = 0;   /* -j not given: xq_pipeline_threads per file */
    opt.read.no_raw = true;   /* no record's bytes are written, only counted (pgn_read.h) */
    int st = parse_options(argc, argv, &opt);
    if (st >= 0) return st;
    /* '-' is standard output, as it is standard input everywhere ('./-' names a file) */
    if (opt.output && strcmp(opt.output, "-") == 0) opt.output = NULL;

    char **paths;
    size_t npaths;
    int status = xq_cli_inputs(PROG, argv + optind, argc - optind, &opt.list, &paths, &npaths);
    if (status != XQ_EXIT_OK) return status;
    FILE *out = opt.output ? open_output(opt.output) : stdout;
    if (!out) {
        xq_cli_inputs_free(paths, npaths, argc - optind);
        return XQ_EXIT_USAGE;
    }
    totals t = {0};
    xq_write_begin(out, &opt.write);
    for (size_t i = 0; i < npaths && !ferror(out); i++) {
        st = convert_file(paths[i], out, &opt, &t);
        if (st > status) status = st;
    }
    xq_cli_inputs_free(paths, npaths, argc - optind);
    xq_pipeline_memos_free(&t.memos);
    xq_write_end(out, &opt.write);
    bool out_failed;   /* the output not written, or not in full: nothing counts as converted */
    if (opt.output) {
        if (ferror(out)) {
            int err = out_errno ? *out_errno : 0;
            if (err) xq_cli_error(PROG, "%s: write error: %s", opt.output, strerror(err));
            else xq_cli_error(PROG, "%s: write error", opt.output);
        }
        out_failed = !close_output(out, opt.output, status < XQ_EXIT_USAGE && !ferror(out));
    } else {
        out_failed = xq_cli_stdout_check(PROG) != XQ_EXIT_OK;
    }
    if (out_failed) status = XQ_EXIT_USAGE;
    if (!opt.quiet && out_failed) {
        /* "N converted in full" would read as success */
        fprintf(stderr, "%llu game%s read: none converted, the output was not written in full\n", t.games,
                t.games == 1 ? "" : "s");
    } else if (!opt.quiet) {
        fprintf(stderr, "%llu game%s: %llu converted in full, %llu not fully\n", t.games, t.games == 1 ? "" : "s", t.games - t.partial,
                t.partial);
        static const char *const what[4] = {"tags", "comments", "NAGs", "variations"};
        for (int b = 0; b < 4; b++)
            if (t.lost[b])
                fprintf(stderr, "%s: note: %s cannot hold %s: dropped in %llu game%s\n", PROG,
                        xq_out_format_name(opt.write.format), what[b], t.lost[b], t.lost[b] == 1 ? "" : "s");
    }
    return status;
}
