/* xq-parse - read records, decode every move, and report syntax errors and
 * undecodable moves as file:line:col diagnostics; print chosen tags as TSV
 * or the parsed games as JSON Lines.  See man/xq-parse.1. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "finding_order.h"
#include "pipeline.h"
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
    int threads;
} options;

typedef struct {
    unsigned long long games, plies, errors, warnings, bad_games;
    xq_pipeline_memos memos;   /* what the replays of every file share (pipeline.h) */
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
          "  -J, --json              print each parsed game as one JSON object per line\n"
          "  -W, --warnings          print warnings, not only errors\n"
          "  -e, --encoding=ENC      auto (default), utf8, gbk or big5\n"
          XQ_CLI_FILES_HELP
          "  -q, --quiet             no summary line\n"
          "  -j, --jobs=N            parse on N threads (default: the number of CPUs,\n"
          "                          one fewer for a large gzip file, which a thread\n"
          "                          inflates); the output is the same for every N\n"
          "  -h, --help              show this help and exit\n"
          "  -V, --version           show the version and exit\n"
          "\n"
          "Exit status: 0 no errors, 1 errors found, 2 usage or I/O error.\n",
          to);
}

static void print_tags(FILE *o, const xq_game *g, const char *list)
{
    xq_name_put(o, g->file);   /* as the diagnostics show it: no tab, no newline */
    fprintf(o, "\t%llu", (unsigned long long)g->index);
    const char *p = list;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), p);
        putc('\t', o);
        /* as the file name and every diagnostic (game.h xq_name_put): a
         * tab or line end cannot split the line, an escape sequence
         * cannot drive the terminal, and the value can be read back
         * (\t \n \\ as linear TSV writes them) */
        const char *v = xq_game_tag(g, name);
        if (v) xq_name_put(o, v);
        p += n + (comma ? 1 : 0);
        if (!comma) break;
    }
    putc('\n', o);
}

/* Syntax diagnostics and move-decoding failures only: judging the game
 * (results, endings) is xq-validate's job.  A start position that cannot
 * arise is one when the replay's check of it (replay.c start_position,
 * xq_position_check) stopped the decoding (r unreadable): a general the
 * side to move could take; the other impossible positions (a general
 * missing included) are replayed, their moves decoded, and left to
 * xq-validate. */
static bool is_parse_kind(xq_finding_kind kind, const xq_replay *r)
{
    if (kind == XQ_FIND_IMPOSSIBLE_POSITION) return r->status == XQ_STATUS_UNREADABLE;
    switch (kind) {
    case XQ_FIND_SYNTAX: case XQ_FIND_UNDECODABLE_MOVE: case XQ_FIND_AMBIGUOUS_MOVE:
    case XQ_FIND_ILLEGAL_MOVE: case XQ_FIND_GAME_OVER: case XQ_FIND_BAD_FEN:
    case XQ_FIND_TANDEM_PLAIN_FILE:
        return true;
    default:
        return false;
    }
}

/* What a worker counted in one game, for the totals. */
typedef struct {
    int errors, warnings;
} game_counts;

typedef struct {
    const options *opt;
    totals *t;
} run_state;

/* A worker's part: replay (which decodes every move) and report. */
static void parse_game(void *ctx, xq_slot *slot)
{
    const options *opt = ((run_state *)ctx)->opt;
    xq_game *g = &slot->game;
    xq_replay *r = &slot->replay;
    game_counts *n = slot->user;
    xq_replay_game_memo(g, &opt->rules, slot->memo, r);
    /* counted over every finding, kept in r->findings or not */
    n->errors = n->warnings = 0;
    for (int k = 0; k < XQ_FIND_KIND_COUNT; k++)
        if (is_parse_kind((xq_finding_kind)k, r)) {
            n->errors += r->kind_counts[k][XQ_SEV_ERROR];
            n->warnings += r->kind_counts[k][XQ_SEV_WARNING];
        }
    int errors_listed = 0;
    int order[XQ_REPLAY_MAX_FINDINGS];   /* in input order, as xq-validate tells them */
    xq_findings_in_order(r, order);
    for (int i = 0; i < r->nfindings; i++) {
        const xq_finding *f = &r->findings[order[i]];
        if (!is_parse_kind(f->kind, r)) continue;
        bool error = f->severity == XQ_SEV_ERROR;
        errors_listed += error;
        if (!error && !opt->warnings) continue;
        unsigned long line, col;
        xq_finding_place(f, g, &line, &col);
        /* the move the finding is about, as written: the first illegal
         * one's text as the replay kept it, another ply's its node's */
        const char *move = f->ply && f->ply == r->bad_ply ? r->bad_move : NULL;
        if (!move && f->ply >= 1 && (size_t)f->ply <= g->main.count) move = g->main.nodes[f->ply - 1].text;
        xq_name_put(slot->err, g->file);   /* (no control character raw: cli.h) */
        fprintf(slot->err, ":%lu:%lu: ", line, col);
        xq_name_printf(slot->err, "%s: game %llu: %s%s%s", error ? "error" : "warning", (unsigned long long)g->index,
                       move ? move : "", move ? ": " : "", f->message);   /* (quotes the record) */
        putc('\n', slot->err);
    }
    if (n->errors > errors_listed) xq_cli_print_unlisted(slot->err, g, n->errors - errors_listed);
    if (opt->output == OUT_TAGS) print_tags(slot->out, g, opt->tag_list);
    else if (opt->output == OUT_JSON) xq_write_json(slot->out, g, r);
}

/* In input order: the totals. */
static void account_game(void *ctx, xq_slot *slot)
{
    totals *t = ((run_state *)ctx)->t;
    const game_counts *n = slot->user;
    t->games++;
    t->plies += (unsigned long long)slot->replay.plies;
    t->warnings += (unsigned long long)n->warnings;
    if (n->errors) {
        t->errors += (unsigned long long)n->errors;
        t->bad_games++;
    }
}

static int parse_file(const char *path, const options *opt, totals *t)
{
    run_state st = {opt, t};
    xq_pipeline_options po = {
        .threads = opt->threads, .light = true, .memos = &t->memos, .user_size = sizeof(game_counts), .ctx = &st,
        .process = parse_game, .account = account_game,
    };
    bool input_failed;
    char why[512];
    int status = xq_cli_run_file_why(PROG, path, &opt->read, &po, &input_failed, why, sizeof why);
    /* -J: a file not read (or not to its end) has its line, as in
     * xq-validate --report json, or a JSON consumer could not tell */
    if (input_failed && opt->output == OUT_JSON) xq_cli_json_file_error(stdout, path, why);
    return status;
}

int main(int argc, char **argv)
{
    xq_cli_watch_stdout();   /* (a write error's reason kept: cli.h) */
    static const struct option longopts[] = {
        {"tags", required_argument, NULL, 't'},
        {"json", no_argument, NULL, 'J'},
        {"warnings", no_argument, NULL, 'W'},
        {"encoding", required_argument, NULL, 'e'},
        XQ_CLI_FILES_LONGOPTS,
        {"quiet", no_argument, NULL, 'q'},
        {"jobs", required_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    options opt;
    memset(&opt, 0, sizeof opt);
    xq_replay_options_default(&opt.rules);
    opt.rules.no_final = true;   /* (no output reads the final position: replay.h) */
    opt.threads = 0;   /* -j not given: xq_pipeline_threads per file */
    opt.read.no_raw = true;   /* no record's bytes are written, only counted (pgn_read.h) */
    xq_cli_list list = {0};
    /* each choice made once (a second, other value: a usage error) */
    xq_cli_choice output = {0}, encoding = {0};
    const xq_cli_common common = {'e', &opt.read, &opt.threads, &opt.quiet, usage, &list, &encoding};
    int c;
    while ((c = getopt_long(argc, argv, "t:JWe:qj:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 't':
            /* (the list is the output: another list conflicts too) */
            if (!xq_cli_choose(PROG, &output, "--tags", optarg, optarg)) return XQ_EXIT_USAGE;
            opt.output = OUT_TAGS;
            opt.tag_list = optarg;
            break;
        case 'J':
            if (!xq_cli_choose(PROG, &output, "--json", NULL, "json")) return XQ_EXIT_USAGE;
            opt.output = OUT_JSON;
            break;
        case 'W': opt.warnings = true; break;
        default: {
            int st = xq_cli_common_option(PROG, c, optarg, &common);
            if (st == XQ_CLI_NEXT) break;
            return st == XQ_CLI_OTHER ? xq_cli_bad_option(PROG) : st;
        }
        }
    }
    char **paths;
    size_t npaths;
    int status = xq_cli_inputs(PROG, argv + optind, argc - optind, &list, &paths, &npaths);
    if (status != XQ_EXIT_OK) return status;
    totals t = {0};
    for (size_t i = 0; i < npaths; i++) {
        int st = parse_file(paths[i], &opt, &t);
        if (st > status) status = st;
    }
    xq_cli_inputs_free(paths, npaths, argc - optind);
    xq_pipeline_memos_free(&t.memos);
    bool out_failed = xq_cli_stdout_check(PROG) != XQ_EXIT_OK;   /* the listing (--tags, -J ...) cut */
    if (out_failed) status = XQ_EXIT_USAGE;
    if (status == XQ_EXIT_OK && t.bad_games) status = XQ_EXIT_FINDINGS;
    if (!opt.quiet)
        fprintf(stderr, "%llu game%s, %llu %s decoded: %llu error%s in %llu game%s, %llu warning%s%s\n", t.games,
                t.games == 1 ? "" : "s", t.plies, t.plies == 1 ? "ply" : "plies", t.errors, t.errors == 1 ? "" : "s", t.bad_games,
                t.bad_games == 1 ? "" : "s", t.warnings, t.warnings == 1 ? "" : "s",
                out_failed ? "; the output was not written in full" : "");
    return status;
}
