/* xq-stats - statistics of a game database, mergeable for map-reduce
 * (issue #7).  Replays every game as xq-validate does (replay.h), condenses
 * it (stats.h) and reports counts, results, openings, players, one event's
 * standings and duplicates; --json output of parts merges exactly with
 * --merge.  --derive-ecco derives the ECCO classifier's table (ecco.h). */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "ecco.h"
#include "pgn_read.h"
#include "pipeline.h"
#include "replay.h"
#include "stats.h"

static const char PROG[] = "xq-stats";

typedef enum { OUT_TEXT, OUT_JSON, OUT_CSV } out_kind;

typedef struct {
    xq_stats_options stats;
    xq_read_options read;
    xq_stats_report_options report;
    out_kind out;
    int threads;
    bool merge, derive, quiet;
    bool system_given;         /* --system on the command line (a merge's overrides its parts') */
    int ecco_plies, ecco_min;
} options;

static void usage(FILE *to)
{
    fputs("Usage: xq-stats [OPTION]... [FILE]...\n"
          "       xq-stats --merge [OPTION]... STATS.json...\n"
          "       xq-stats --derive-ecco [FILE]... > src/lib/ecco_table.inc\n"
          "Statistics of the games of each FILE (or standard input, or '-'): counts,\n"
          "game lengths, findings, results by the Result tag and by the board,\n"
          "openings (ECCO), players, events, one event's standings and crosstable,\n"
          "and distinct games.  Every game is replayed as xq-validate does.\n"
          "\n"
          "Output:\n"
          "      --json              the mergeable statistics as one JSON object\n"
          "      --csv               CSV rows, each starting with its table's name\n"
          "                          (default: aligned text tables)\n"
          "  -n, --top=N             rows of the openings, players and events tables\n"
          "                          in text (default 20; 0 = all)\n"
          "  -m, --merge             the FILEs (or standard input) hold --json outputs\n"
          "                          of xq-stats, one or more each: add them up, exactly\n"
          "                          as if their inputs had been read at once\n"
          "\n"
          "Event:\n"
          "      --event=NAME        keep the games whose Event tag is NAME and report\n"
          "                          its standings and crosstable\n"
          "      --system=SYSTEM     tie-breaks: auto (default: round robin when every\n"
          "                          pair met equally often), round-robin (CXA1999\n"
          "                          §15.1) or swiss (§15.2); kept in --json output,\n"
          "                          and a --merge ranks by the parts' system\n"
          "\n"
          "Replay (as xq-validate; parts to be merged must use the same):\n"
          XQ_CLI_RULE_HELP
          "  -s, --strict            treat warnings as errors\n"
          "  -e, --encoding=ENC      auto (default), utf8, gbk or big5\n"
          XQ_CLI_FILES_HELP
          "  -j, --jobs=N            replay on N threads (default: all CPUs, one fewer\n"
          "                          for a large gzip file, which a thread inflates)\n"
          "  -q, --quiet             no progress line (shown only on a terminal, for\n"
          "                          inputs that take more than a second)\n"
          "\n"
          "ECCO table:\n"
          "      --derive-ecco       learn the classifier's table from the games with\n"
          "                          an ECCO tag and an even move hash, measure it on\n"
          "                          those with an odd one, write it as C to stdout\n"
          "      --ecco-plies=N      longest prefix learned, in plies (default 20)\n"
          "      --ecco-min=N        games a prefix needs to be learned (default 1)\n"
          "\n"
          "  -h, --help              show this help and exit\n"
          "  -V, --version           show the version and exit\n"
          "\n"
          "Exit status: 0 success, 2 usage or I/O error, or incomplete statistics: an\n"
          "input file failed (the others are counted, and the output says how many\n"
          "failed), or --merge of statistics whose inputs did.\n",
          to);
}

/* ---- progress ---------------------------------------------------------- */

typedef struct {
    bool enabled, shown;
    struct timespec start, last;
    uint64_t records, bytes_done;   /* bytes of finished files */
    uint64_t bytes_file;            /* bytes into the current file */
} progress;

static double seconds_since(const struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

static void progress_tick(progress *p, const xq_game *g)
{
    p->records++;
    p->bytes_file = g->offset + g->raw_len;
    if (!p->enabled || (p->records & 255)) return;
    double t = seconds_since(&p->start);
    if (t < 1.0 || seconds_since(&p->last) < 0.25) return;   /* small inputs stay silent */
    clock_gettime(CLOCK_MONOTONIC, &p->last);
    double mb = (double)(p->bytes_done + p->bytes_file) / 1e6;
    fprintf(stderr, "\r%s: %llu records, %.0f records/s, %.1f MB, %.1f MB/s\033[K", PROG,
            (unsigned long long)p->records, (double)p->records / t, mb, mb / t);
    p->shown = true;
}

static void progress_end(progress *p)
{
    if (p->shown) fputs("\r\033[K", stderr);
    p->shown = false;
}

/* ---- reading games ----------------------------------------------------- */

/* The ECCO learner's state: learned games go to the learner, held-out
 * games are kept (canonical moves and tag) to be measured afterwards. */
typedef struct {
    xq_ecco_learner *learner;
    xq_move *held_moves;       /* held * plies */
    int *held_plies, *held_tag;
    size_t held, held_cap;
    int plies;
    bool oom;
} derive_state;

typedef struct {
    const options *opt;
    xq_stats *stats;           /* counts the games and the input files that failed */
    derive_state *derive;
    progress *prog;
    bool oom;                  /* memory ran out: a count may be wrong, nothing may be written */
    bool oom_told;             /* and its message was printed */
    xq_pipeline_memos memos;   /* what the replays of every file share (pipeline.h) */
} run_state;

typedef struct {
    xq_stats_game sg;
} slot_data;

static void process_game(void *ctx, xq_slot *slot)
{
    const options *opt = ((run_state *)ctx)->opt;
    xq_replay_game_memo(&slot->game, &opt->stats.rules, slot->memo, &slot->replay);
    xq_stats_analyse(&slot->game, &slot->replay, &((slot_data *)slot->user)->sg);
}

static void derive_add(derive_state *d, const xq_game *g, const xq_stats_game *sg)
{
    if (!sg->from_start || sg->ecco_tag < 0 || sg->plies <= 0) return;
    xq_move moves[XQ_ECCO_MAX_PLIES];
    int n = sg->plies < d->plies ? sg->plies : d->plies;
    for (int i = 0; i < n; i++) moves[i] = g->main.nodes[i].move;
    if (!(sg->move_hash & 1)) {
        if (!xq_ecco_learner_add(d->learner, moves, n, sg->ecco_tag)) d->oom = true;
        return;
    }
    if (d->held == d->held_cap) {
        size_t cap = d->held_cap ? d->held_cap * 2 : 1024;
        xq_move *m = realloc(d->held_moves, cap * (size_t)d->plies * sizeof *m);
        if (m) d->held_moves = m;
        int *p = realloc(d->held_plies, cap * sizeof *p);
        if (p) d->held_plies = p;
        int *t = realloc(d->held_tag, cap * sizeof *t);
        if (t) d->held_tag = t;
        if (!m || !p || !t) {
            d->oom = true;
            return;
        }
        d->held_cap = cap;
    }
    memcpy(d->held_moves + d->held * (size_t)d->plies, moves, (size_t)n * sizeof *moves);
    d->held_plies[d->held] = n;
    d->held_tag[d->held] = sg->ecco_tag;
    d->held++;
}

static void account_game(void *ctx, xq_slot *slot)
{
    run_state *st = ctx;
    const xq_stats_game *sg = &((slot_data *)slot->user)->sg;
    if (st->stats && !xq_stats_add(st->stats, sg)) st->oom = true;
    /* a record or findings cut short for want of memory counted wrong; the
     * pipeline fails the file for it, but says so only when no read error
     * came after it in the same file (pipeline.h) */
    if (slot->game.out_of_memory || slot->replay.out_of_memory) st->oom = true;
    if (st->derive) derive_add(st->derive, &slot->game, sg);
    progress_tick(st->prog, &slot->game);
}

/* Read every game of path ("-": standard input) into st's totals.  A
 * file that cannot be opened or read to its end (an I/O, decompression or
 * format error, or the reader's own want of memory) is reported as
 * "PROG: PATH: reason" and counted in st->stats as failed: the games read
 * before the failure stay counted (the pipeline emits each of them first),
 * so the other files' work is kept.  Memory that ran out in the pipeline
 * itself (pipeline.h: no room to read on, or a game's record or findings
 * cut short) sets st->oom instead: a game counted may be wrong, so no
 * statistics may be written (xq_cli_run_file_told, cli.h, tells the two
 * apart). */
static void read_file(const char *path, run_state *st)
{
    xq_pipeline_options po = {
        .threads = st->opt->threads, .light = true, .memos = &st->memos, .user_size = sizeof(slot_data), .ctx = st,
        .process = process_game, .account = account_game,
    };
    st->prog->bytes_file = 0;
    bool failed;
    if (xq_cli_run_file_told(PROG, path, &st->opt->read, &po, &failed) != XQ_EXIT_OK && !failed)
        st->oom = st->oom_told = true;   /* the pipeline's want of memory, said */
    if (failed) xq_stats_add_failed_file(st->stats);
    if (failed || st->oom) progress_end(st->prog);
    st->prog->bytes_done += st->prog->bytes_file;
    st->prog->bytes_file = 0;
}

/* Read every input (none: standard input) into st, going on past a file
 * that fails (read_file), and stopping once memory ran out (nothing will
 * be written then).  Frees the replay memos. */
static void read_inputs(char **paths, int npaths, run_state *st)
{
    for (int i = 0; i < npaths && !st->oom; i++) read_file(paths[i], st);
    xq_pipeline_memos_free(&st->memos);
    progress_end(st->prog);
    if (st->oom && !st->oom_told) {
        xq_cli_error(PROG, "out of memory");
        st->oom_told = true;
    }
}

/* ---- --merge ----------------------------------------------------------- */

/* Add one parsed accumulator into *total (taking it when *total is NULL). */
static bool merge_one(xq_stats **total, xq_stats *s, const char *path, unsigned long line)
{
    if (!*total) {
        *total = s;
        return true;
    }
    char err[256];
    bool ok = xq_stats_merge(*total, s, err, sizeof err);
    xq_stats_free(s);
    if (!ok) xq_cli_error(PROG, "%s:%lu: %s", path, line, err);
    return ok;
}

/* Say why the JSON object that starts at line first of path was refused.
 * A syntax error from xq_stats_read_json reads "line N: why", N counted
 * from the object's first line: said as path:LINE: why, LINE in the file,
 * not as path:first: line N: why. */
static void merge_refused(const char *path, unsigned long first, const char *err)
{
    unsigned long n;
    int used = 0;
    if (sscanf(err, "line %lu: %n", &n, &used) == 1 && used > 0 && n >= 1)
        xq_cli_error(PROG, "%s:%lu: %s", path, first + n - 1, err + used);
    else
        xq_cli_error(PROG, "%s:%lu: %s", path, first, err);
}

/* Merge every JSON object of one file: --json writes one per line, and a
 * file may hold any number of them (a reducer's input); an object spread
 * over several lines is read too. */
static int merge_file(const char *path, xq_stats **total)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!f) {
        xq_cli_error(PROG, "%s: %m", path);
        return XQ_EXIT_USAGE;
    }
    char *line = NULL, *buf = NULL;
    size_t line_cap = 0, len = 0, cap = 0;
    unsigned long lineno = 0, first_line = 0;
    int status = XQ_EXIT_OK;
    ssize_t got;
    while (status == XQ_EXIT_OK && (got = getline(&line, &line_cap, f)) >= 0) {
        lineno++;
        if (!len) {
            size_t i = 0;
            while (i < (size_t)got && strchr(" \t\r\n", line[i])) i++;
            if (i == (size_t)got) continue;   /* blank line between objects */
            first_line = lineno;
        }
        if (len + (size_t)got + 1 > cap) {
            size_t c = cap ? cap : 1 << 16;
            while (c < len + (size_t)got + 1) c *= 2;
            char *b = realloc(buf, c);
            if (!b) {
                xq_cli_error(PROG, "out of memory");
                status = XQ_EXIT_USAGE;
                break;
            }
            buf = b;
            cap = c;
        }
        memcpy(buf + len, line, (size_t)got);
        len += (size_t)got;
        char err[256];
        bool incomplete;
        xq_stats *s = xq_stats_read_json(buf, len, &incomplete, err, sizeof err);
        if (!s && incomplete) continue;   /* the object goes on on the next line */
        if (!s) {
            merge_refused(path, first_line, err);
            status = XQ_EXIT_USAGE;
        } else if (!merge_one(total, s, path, first_line)) {
            status = XQ_EXIT_USAGE;
        }
        len = 0;
    }
    if (status == XQ_EXIT_OK && ferror(f)) {
        xq_cli_error(PROG, "%s: read error", path);
        status = XQ_EXIT_USAGE;
    } else if (status == XQ_EXIT_OK && len) {
        xq_cli_error(PROG, "%s:%lu: the JSON object is cut short", path, first_line);
        status = XQ_EXIT_USAGE;
    }
    free(line);
    free(buf);
    if (f != stdin) fclose(f);
    return status;
}

static int merge_files(char **paths, int n, xq_stats **out)
{
    xq_stats *total = NULL;
    for (int i = 0; i < n; i++) {
        int st = merge_file(paths[i], &total);
        if (st != XQ_EXIT_OK) {
            xq_stats_free(total);
            return st;
        }
    }
    if (!total) {
        xq_cli_error(PROG, "--merge: no statistics in the input");
        return XQ_EXIT_USAGE;
    }
    *out = total;
    return XQ_EXIT_OK;
}

/* ---- --derive-ecco ------------------------------------------------------- */

static void write_table(FILE *o, const xq_ecco_table *t, char **paths, int npaths, uint64_t records,
                        uint64_t failed, uint64_t learned, size_t held, size_t agree, const options *opt)
{
    fputs("/* ecco_table.inc - the ECCO classifier's table (ecco.h), included by ecco.c.\n"
          " *\n"
          " * Generated, do not edit; regenerate with:\n", o);
    fprintf(o, " *   bin/xq-stats --derive-ecco --ecco-plies=%d --ecco-min=%d", opt->ecco_plies, opt->ecco_min);
    bool ccpd = npaths > 0;
    for (int i = 0; i < npaths; i++) {
        const char *at = strstr(paths[i], "/corpus/ccpd/");
        if (at) fprintf(o, " ../shared%s", at);
        else fprintf(o, " %s", paths[i]);
        if (!at) ccpd = false;
    }
    fputs(" \\\n *     > src/lib/ecco_table.inc\n *\n", o);
    if (ccpd)
        fputs(" * Provenance: derived from the Chinese Chess Practical Dataset (CCPD) by\n"
              " * Yu-Han Tseng, licensed CC BY 4.0\n"
              " * (https://creativecommons.org/licenses/by/4.0/); changes: no game is\n"
              " * reproduced, only move prefixes and the ECCO codes their games were\n"
              " * tagged with, counted and pruned as below.\n", o);
    else
        fputs(" * Provenance: derived from the files above (see their licenses): only\n"
              " * move prefixes and the ECCO codes their games were tagged with.\n", o);
    fprintf(o, " * Input: %llu records; learned from the %llu start-position games with an\n"
               " * ECCO tag whose move hash (xq_stats_move_hash) is even.\n",
            (unsigned long long)records, (unsigned long long)learned);
    if (failed)
        fprintf(o, " * INCOMPLETE: %llu input file%s failed (xq-stats said why and exited with\n"
                   " * status 2); the games read before the failure are counted above.\n",
                (unsigned long long)failed, failed == 1 ? "" : "s");
    fprintf(o, " * Held out: the %zu such games with an odd move hash; the table gives\n"
               " * their tagged code for %zu of them (%.2f%%).\n",
            held, agree, held ? 100.0 * (double)agree / (double)held : 0.0);
    fprintf(o, " * Method: canonical prefixes (mirrored so that the first asymmetric move\n"
               " * is on the right of the centre file) of at most %d plies; a prefix seen\n"
               " * in %d or more learned games whose code differs from its nearest\n"
               " * shorter entry's becomes an entry.  A prefix's code is the smallest\n"
               " * code of the games through it: theirs when they agree, else the\n"
               " * family the prefix determines (ECCO numbers a family before its\n"
               " * branches); the empty prefix is A00.\n"
               " * %zu entries; moves are ICCS squares without the dash, 4 characters a ply.\n"
               " */\n",
            opt->ecco_plies, opt->ecco_min, t->count);
    /* an incomplete table must not build quietly: its usual place is
     * src/lib/ecco_table.inc, written by a redirect whatever the exit
     * status (it is still written, to be looked at) */
    if (failed)
        fprintf(o, "#error \"incomplete ECCO table: %llu input file%s failed (see the comment above)\"\n",
                (unsigned long long)failed, failed == 1 ? "" : "s");
    fprintf(o, "#define XQ_ECCO_TABLE_PLIES %d\n", opt->ecco_plies);
    fputs("static const xq_ecco_entry XQ_ECCO_TABLE_ENTRIES[] = {\n", o);
    for (size_t i = 0; i < t->count; i++) fprintf(o, "    {\"%s\", \"%s\"},\n", t->entries[i].prefix, t->entries[i].code);
    if (!t->count) fputs("    {\"\", \"A00\"},\n", o);
    fputs("};\n", o);
}

static int derive(char **paths, int npaths, int named, const options *opt, progress *prog)
{
    derive_state d = {.plies = opt->ecco_plies};
    d.learner = xq_ecco_learner_new(opt->ecco_plies, opt->ecco_min);
    xq_stats *counts = xq_stats_new(&opt->stats);
    if (!d.learner || !counts) {
        xq_cli_error(PROG, "out of memory");
        return XQ_EXIT_USAGE;
    }
    run_state st = {.opt = opt, .stats = counts, .derive = &d, .prog = prog};
    /* a file that fails leaves the table learned from the others, marked
     * incomplete in its header, and exit status 2 (as the statistics) */
    read_inputs(paths, npaths, &st);
    uint64_t failed = xq_stats_files_failed(counts);
    int status = failed ? XQ_EXIT_USAGE : XQ_EXIT_OK;
    const xq_ecco_table *t = d.oom || st.oom ? NULL : xq_ecco_learner_table(d.learner);
    if (!t) {
        if (!st.oom_told) xq_cli_error(PROG, "out of memory");
        status = XQ_EXIT_USAGE;
    } else {
        size_t agree = 0;
        for (size_t i = 0; i < d.held; i++)
            if (xq_ecco_classify(t, d.held_moves + i * (size_t)d.plies, d.held_plies[i]) == d.held_tag[i]) agree++;
        uint64_t records = xq_stats_records(counts);
        write_table(stdout, t, paths, named, records, failed, xq_ecco_learner_games(d.learner), d.held, agree,
                    opt);
        if (!opt->quiet)
            fprintf(stderr, "%s: learned from %llu games, %zu entries; held-out agreement %zu of %zu (%.2f%%)\n", PROG,
                    (unsigned long long)xq_ecco_learner_games(d.learner), t->count, agree, d.held,
                    d.held ? 100.0 * (double)agree / (double)d.held : 0.0);
    }
    xq_ecco_learner_free(d.learner);
    free(d.held_moves);
    free(d.held_plies);
    free(d.held_tag);
    xq_stats_free(counts);
    return status;
}

/* ---- main -------------------------------------------------------------- */

static bool parse_count(const char *name, const char *text, int max, int *out)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end || v < 0 || v > max) {
        xq_cli_error(PROG, "invalid value for --%s: '%s' (a whole number from 0 to %d)", name, text, max);
        return false;
    }
    *out = (int)v;
    return true;
}

static int run(char **files, int nfiles, int named, const options *opt_in);

int main(int argc, char **argv)
{
    xq_cli_watch_stdout();   /* (a write error's reason kept: cli.h) */
    enum { OPT_JSON = 256, OPT_CSV, OPT_EVENT, OPT_SYSTEM, OPT_DERIVE, OPT_ECCO_PLIES, OPT_ECCO_MIN };
    static const struct option longopts[] = {
        {"json", no_argument, NULL, OPT_JSON},
        {"csv", no_argument, NULL, OPT_CSV},
        {"top", required_argument, NULL, 'n'},
        {"merge", no_argument, NULL, 'm'},
        {"event", required_argument, NULL, OPT_EVENT},
        {"system", required_argument, NULL, OPT_SYSTEM},
        XQ_CLI_RULE_LONGOPTS,
        XQ_CLI_FILES_LONGOPTS,
        {"strict", no_argument, NULL, 's'},
        {"encoding", required_argument, NULL, 'e'},
        {"jobs", required_argument, NULL, 'j'},
        {"quiet", no_argument, NULL, 'q'},
        {"derive-ecco", no_argument, NULL, OPT_DERIVE},
        {"ecco-plies", required_argument, NULL, OPT_ECCO_PLIES},
        {"ecco-min", required_argument, NULL, OPT_ECCO_MIN},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    options opt;
    memset(&opt, 0, sizeof opt);
    xq_replay_options_default(&opt.stats.rules);
    /* statistics count findings by kind and never print their messages */
    opt.stats.rules.no_warning_text = true;
    opt.stats.rules.no_final = true;   /* (no statistic reads the final position: replay.h) */
    opt.report.top = 20;
    opt.threads = 0;   /* -j not given: xq_pipeline_threads per file */
    opt.read.no_raw = true;   /* no record's bytes are written, only counted (pgn_read.h) */
    opt.ecco_plies = 20;
    opt.ecco_min = 1;
    bool rules_set = false, cap_given = false;
    xq_cli_list list = {0};
    /* each choice made once (a second, other value: a usage error) */
    xq_cli_choice output = {0}, event = {0}, system = {0}, encoding = {0}, rule_set = {0};
    const xq_cli_common common = {'e', &opt.read, &opt.threads, &opt.quiet, usage, &list, &encoding};
    int c;
    while ((c = getopt_long(argc, argv, "n:mse:j:qhV", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_JSON:
            if (!xq_cli_choose(PROG, &output, "--json", NULL, "json")) return XQ_EXIT_USAGE;
            opt.out = OUT_JSON;
            break;
        case OPT_CSV:
            if (!xq_cli_choose(PROG, &output, "--csv", NULL, "csv")) return XQ_EXIT_USAGE;
            opt.out = OUT_CSV;
            break;
        case 'n':
            if (!parse_count("top", optarg, 1000000, &opt.report.top)) return XQ_EXIT_USAGE;
            break;
        case 'm': opt.merge = true; break;
        case OPT_EVENT:
            if (!xq_cli_choose(PROG, &event, "--event", optarg, optarg)) return XQ_EXIT_USAGE;
            opt.stats.event = optarg;
            break;
        case OPT_SYSTEM:
            if (!xq_event_system_parse(optarg, &opt.report.system)) {
                xq_cli_error(PROG, "unknown --system '%s' (auto, round-robin or swiss)", optarg);
                return XQ_EXIT_USAGE;
            }
            if (!xq_cli_choose(PROG, &system, "--system", optarg, xq_event_system_str(opt.report.system)))
                return XQ_EXIT_USAGE;
            opt.stats.system = opt.report.system;
            opt.system_given = true;
            break;
        case 's':
            opt.stats.rules.strict = true;
            rules_set = true;
            break;
        case OPT_DERIVE: opt.derive = true; break;
        case OPT_ECCO_PLIES:
            if (!xq_cli_int(PROG, "ecco-plies", optarg, XQ_ECCO_MAX_PLIES, &opt.ecco_plies)) return XQ_EXIT_USAGE;
            break;
        case OPT_ECCO_MIN:
            if (!xq_cli_int(PROG, "ecco-min", optarg, 1000000, &opt.ecco_min)) return XQ_EXIT_USAGE;
            break;
        default: {
            int st = xq_cli_common_option(PROG, c, optarg, &common);
            if (st == XQ_CLI_NEXT) break;
            if (st != XQ_CLI_OTHER) return st;
            int r = xq_cli_rule_option(PROG, c, optarg, &opt.stats.rules, &cap_given, &rule_set);
            if (r > 0) {
                rules_set = true;
                break;
            }
            return r == 0 ? xq_cli_bad_option(PROG) : XQ_EXIT_USAGE;
        }
        }
    }
    xq_cli_rules_finish(&opt.stats.rules, cap_given);
    if (opt.merge && opt.derive) {
        xq_cli_error(PROG, "--merge and --derive-ecco do not go together");
        return XQ_EXIT_USAGE;
    }
    if (opt.merge && (rules_set || opt.stats.event)) {
        xq_cli_error(PROG, "with --merge the rules and the event come from the JSON inputs");
        return XQ_EXIT_USAGE;
    }

    char **files;
    size_t npaths;
    int status = xq_cli_inputs(PROG, argv + optind, argc - optind, &list, &files, &npaths);
    if (status != XQ_EXIT_OK) return status;
    if (npaths > INT_MAX) {
        xq_cli_error(PROG, "more than %d input files", INT_MAX);
        xq_cli_inputs_free(files, npaths, argc - optind);
        return XQ_EXIT_USAGE;
    }
    int nfiles = (int)npaths;
    status = run(files, nfiles, argc - optind || list.path ? nfiles : 0, &opt);
    xq_cli_inputs_free(files, npaths, argc - optind);
    return status;
}

/* The statistics of files[0..nfiles) (or the ECCO table learned from
 * them: --derive-ecco, whose header names the first `named`), or their
 * merge (--merge), written; returns the exit status. */
static int run(char **files, int nfiles, int named, const options *opt_in)
{
    options opt = *opt_in;
    progress prog = {.enabled = !opt.quiet && isatty(STDERR_FILENO)};
    clock_gettime(CLOCK_MONOTONIC, &prog.start);
    prog.last = prog.start;
    if (opt.derive) return derive(files, nfiles, named, &opt, &prog);

    xq_stats *stats = NULL;
    int status = XQ_EXIT_OK;
    if (opt.merge) {
        status = merge_files(files, nfiles, &stats);
        if (status != XQ_EXIT_OK) return status;
        /* the parts' system (they agree: xq_stats_merge), unless the merge
         * asks for another; either way the JSON written records the one used */
        if (opt.system_given) xq_stats_set_system(stats, opt.report.system);
        else opt.report.system = xq_stats_get_options(stats)->system;
    } else {
        stats = xq_stats_new(&opt.stats);
        if (!stats) {
            xq_cli_error(PROG, "out of memory");
            return XQ_EXIT_USAGE;
        }
        run_state st = {.opt = &opt, .stats = stats, .prog = &prog};
        read_inputs(files, nfiles, &st);
        if (st.oom) {   /* a count may be wrong: write none (read_inputs said why) */
            xq_stats_free(stats);
            return XQ_EXIT_USAGE;
        }
    }
    bool whole = opt.out == OUT_JSON  ? xq_stats_write_json(stdout, stats, &opt.report)
                 : opt.out == OUT_CSV ? xq_stats_write_csv(stdout, stats, &opt.report)
                                      : xq_stats_write_text(stdout, stats, &opt.report);
    if (!whole) {   /* written already: say that it is short, never silently */
        xq_cli_error(PROG, "out of memory: the statistics written are incomplete");
        status = XQ_EXIT_USAGE;
    }
    /* written, and marked incomplete (files_failed): exit 2 all the same, so
     * that a script, a map step or a reduce step (--merge) fails loudly */
    uint64_t failed = xq_stats_files_failed(stats);
    if (failed) {
        status = XQ_EXIT_USAGE;
        if (opt.merge)   /* reading the inputs said nothing: say why the status is 2 */
            xq_cli_error(PROG, "the statistics are incomplete: %llu input file%s failed in the runs merged",
                         (unsigned long long)failed, failed == 1 ? "" : "s");
    }
    xq_stats_free(stats);
    if (xq_cli_stdout_check(PROG) != XQ_EXIT_OK) status = XQ_EXIT_USAGE;
    return status;
}
