/* xq-parse - read records, decode every move, and report syntax errors and
 * undecodable moves as file:line:col diagnostics; print chosen tags as TSV
 * or the parsed games as JSON Lines.  See man/xq-parse.1. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pgn_read.h"
#include "replay.h"
#include "write.h"

static const char PROG[] = "xq-parse";

typedef enum { OUT_NONE, OUT_TAGS, OUT_JSON } output_kind;

typedef struct {
    xq_read_options read;
    xq_replay_options rules;
    output_kind output;
    char *tag_list;           /* comma-separated tag names for --tags */
    bool quiet, warnings;
} options;

typedef struct {
    unsigned long long games, plies, errors, warnings, bad_games;
} totals;

static void usage(FILE *to)
{
    fputs("Usage: xq-parse [OPTION]... [FILE]...\n"
          "Read the game records of each FILE (or standard input, or '-'), decode\n"
          "every move, and report syntax errors and moves that cannot be decoded.\n"
          "\n"
          "  -t, --tags=NAMES        print a tab-separated line per game: file, game\n"
          "                          number, then the tags NAMES (comma-separated,\n"
          "                          e.g. Event,Red,Black,Result); '' for absent tags\n"
          "  -j, --json              print each parsed game as one JSON object per line\n"
          "  -W, --warnings          print warnings, not only errors\n"
          "  -e, --encoding=ENC      auto (default), utf8, gbk or big5\n"
          "  -q, --quiet             no summary line\n"
          "  -h, --help              show this help and exit\n"
          "  -V, --version           show the version and exit\n"
          "\n"
          "Exit status: 0 no errors, 1 errors found, 2 usage or I/O error.\n",
          to);
}

/* Tab and newline would break the TSV: print them as spaces. */
static void print_tsv_field(const char *s)
{
    for (; s && *s; s++) putchar(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s);
}

static void print_tags(const xq_game *g, const char *list)
{
    print_tsv_field(g->file);
    printf("\t%llu", (unsigned long long)g->index);
    const char *p = list;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), p);
        putchar('\t');
        print_tsv_field(xq_game_tag(g, name));
        p += n + (comma ? 1 : 0);
        if (!comma) break;
    }
    putchar('\n');
}

/* Syntax diagnostics and move-decoding failures only: judging the game
 * (results, endings) is xq-validate's job. */
static bool is_parse_finding(const xq_finding *f)
{
    switch (f->kind) {
    case XQ_FIND_SYNTAX: case XQ_FIND_UNDECODABLE_MOVE: case XQ_FIND_AMBIGUOUS_MOVE:
    case XQ_FIND_ILLEGAL_MOVE: case XQ_FIND_GAME_OVER: case XQ_FIND_BAD_FEN:
    case XQ_FIND_TANDEM_PLAIN_FILE:
        return true;
    default:
        return false;
    }
}

static int parse_file(const char *path, const options *opt, totals *t)
{
    char err[512];
    xq_reader *rd = xq_reader_open(path, &opt->read, err, sizeof err);
    if (!rd) {
        xq_cli_error(PROG, "%s", err);
        return XQ_EXIT_USAGE;
    }
    xq_game g;
    xq_game_init(&g);
    xq_replay r;
    int st, status = XQ_EXIT_OK;
    while ((st = xq_reader_next(rd, &g)) == 1) {
        xq_replay_game(&g, &opt->rules, &r);
        t->games++;
        t->plies += (unsigned long long)r.plies;
        int errors = 0;
        for (int i = 0; i < r.nfindings; i++) {
            const xq_finding *f = &r.findings[i];
            if (!is_parse_finding(f)) continue;
            bool error = f->severity == XQ_SEV_ERROR;
            if (error) errors++;
            else t->warnings++;
            if (!error && !opt->warnings) continue;
            unsigned long line = f->line ? f->line : (unsigned long)g.first_line;
            fprintf(stderr, "%s:%lu:%lu: %s: game %llu: %s%s%s\n", g.file, line,
                    (unsigned long)(f->line ? f->col : 1), error ? "error" : "warning",
                    (unsigned long long)g.index, f->ply == r.bad_ply && f->ply ? r.bad_move : "",
                    f->ply == r.bad_ply && f->ply ? ": " : "", f->message);
        }
        if (errors) {
            t->errors += (unsigned long long)errors;
            t->bad_games++;
            status = XQ_EXIT_FINDINGS;
        }
        if (opt->output == OUT_TAGS) print_tags(&g, opt->tag_list);
        else if (opt->output == OUT_JSON) xq_write_json(stdout, &g, &r);
    }
    if (st < 0) {
        xq_cli_error(PROG, "%s", xq_reader_error(rd));
        status = XQ_EXIT_USAGE;
    }
    xq_game_free(&g);
    xq_reader_close(rd);
    return status;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"tags", required_argument, NULL, 't'},
        {"json", no_argument, NULL, 'j'},
        {"warnings", no_argument, NULL, 'W'},
        {"encoding", required_argument, NULL, 'e'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    options opt;
    memset(&opt, 0, sizeof opt);
    xq_replay_options_default(&opt.rules);
    int c;
    while ((c = getopt_long(argc, argv, "t:jWe:qhV", longopts, NULL)) != -1) {
        switch (c) {
        case 't': opt.output = OUT_TAGS; opt.tag_list = optarg; break;
        case 'j': opt.output = OUT_JSON; break;
        case 'W': opt.warnings = true; break;
        case 'e':
            if (!xq_encoding_parse(optarg, &opt.read.encoding)) {
                xq_cli_error(PROG, "unknown encoding '%s' (auto, utf8, gbk or big5)", optarg);
                return XQ_EXIT_USAGE;
            }
            break;
        case 'q': opt.quiet = true; break;
        case 'h': usage(stdout); return XQ_EXIT_OK;
        case 'V': xq_cli_version(PROG); return XQ_EXIT_OK;
        default:
            fputs("Try 'xq-parse --help' for more information.\n", stderr);
            return XQ_EXIT_USAGE;
        }
    }
    totals t = {0};
    int status = XQ_EXIT_OK, nfiles = argc - optind;
    for (int i = 0; i < (nfiles ? nfiles : 1); i++) {
        int st = parse_file(nfiles ? argv[optind + i] : "-", &opt, &t);
        if (st > status) status = st;
    }
    if (fflush(stdout) != 0) {
        xq_cli_error(PROG, "write error on standard output");
        status = XQ_EXIT_USAGE;
    }
    if (!opt.quiet)
        fprintf(stderr, "%llu game%s, %llu plies decoded: %llu error%s in %llu game%s, %llu warning%s\n", t.games,
                t.games == 1 ? "" : "s", t.plies, t.errors, t.errors == 1 ? "" : "s", t.bad_games,
                t.bad_games == 1 ? "" : "s", t.warnings, t.warnings == 1 ? "" : "s");
    return status;
}
