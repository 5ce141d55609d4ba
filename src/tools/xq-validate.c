/* xq-validate - replay every game under the rules and report, per game,
 * the first illegal move and why, how the game ended on the board, and
 * whether the recorded result agrees.  See man/xq-validate.1. */
#include <assert.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli.h"
#include "game_io.h"
#include "finding_order.h"
#include "json.h"
#include "keep.h"
#include "pgn_read.h"
#include "pipeline.h"
#include "position.h"
#include "replay.h"
#include "transcode.h"
#include "write.h"

static const char PROG[] = "xq-validate";

typedef enum { REPORT_TEXT, REPORT_JSON } report_kind;
typedef enum { KEEP_NONE, KEEP_VALID, KEEP_INVALID } keep_kind;


typedef struct {
    xq_replay_options rules;
    xq_read_options read;
    report_kind report;
    keep_kind keep;
    bool fix_results, warnings, quiet;
    int threads;
} options;

typedef struct {
    unsigned long long games, valid, with_errors, unreadable, warnings, plies;
    unsigned long long kept, fixed;   /* --keep: games written, and of them with the Result fixed */
    xq_pipeline_memos memos;   /* what the replays of every file share (pipeline.h) */
    xq_keep_state keep;        /* of the kept records so far (keep.h) */
} totals;


static void usage(FILE *to)
{
    fputs("Usage: xq-validate [OPTION]... [FILE]...\n"
          "Replay every game of each FILE (or standard input, or '-') under the\n"
          "Xiangqi rules (CXA 1999) and report illegal moves, how each game ended,\n"
          "and results that contradict the board.\n"
          "\n"
          "  -r, --report=FORMAT     text (default: diagnostics on stderr) or json\n"
          "                          (one JSON object per game on stdout)\n"
          "  -k, --keep=WHICH        write the valid or invalid games, unchanged,\n"
          "                          to stdout (from XML or JSON Lines: as an XML\n"
          "                          document)\n"
          "      --fix-results       with --keep: set the Result tag to the result\n"
          "                          the board proves (checkmate, stalemate, dead\n"
          "                          position; not a repetition or move limit)\n"
          "  -s, --strict            treat warnings as errors (plain file where\n"
          "                          前/後 was needed, moves after the end, ...)\n"
          "  -W, --warnings          print warnings, not only errors\n"
          XQ_CLI_RULE_HELP
          "  -e, --encoding=ENC      auto (default), utf8, gbk or big5\n"
          XQ_CLI_FILES_HELP
          "  -q, --quiet             no summary line\n"
          "  -j, --jobs=N            games processed in parallel on N threads\n"
          "                          (default: the number of CPUs, one fewer for a\n"
          "                          large gzip file, which a thread inflates); the\n"
          "                          output is the same for every N\n"
          "      --perft=DEPTH       print the perft count of the position and exit\n"
          "      --fen=FEN           the position for --perft (default: start)\n"
          "  -h, --help              show this help and exit\n"
          "  -V, --version           show the version and exit\n"
          "\n"
          "Exit status: 0 all games valid, 1 findings, 2 usage or I/O error.\n",
          to);
}



/* Is finding f the result check against a repetition verdict (so that
 * its text should say why: who, what, the clause, the plies)? */
static bool about_repetition(const xq_replay *r, const xq_finding *f)
{
    return r->repeated && r->termination == XQ_TERM_REPETITION &&
           (f->kind == XQ_FIND_RESULT_MISMATCH || f->kind == XQ_FIND_RESULT_MISSING);
}

/* "h2e2": ICCS coordinates of a move. */
static void iccs(xq_move m, char buf[5])
{
    buf[0] = (char)('a' + XQ_FILE(XQ_FROM(m)));
    buf[1] = (char)('0' + XQ_RANK(XQ_FROM(m)));
    buf[2] = (char)('a' + XQ_FILE(XQ_TO(m)));
    buf[3] = (char)('0' + XQ_RANK(XQ_TO(m)));
    buf[4] = '\0';
}

static void json_square(FILE *o, int sq)
{
    if (sq < 0) fputs("null", o);
    else fprintf(o, "\"%c%d\"", 'a' + XQ_FILE(sq), XQ_RANK(sq));
}

/* The "repetition" object of the JSON report: the verdict, each side's
 * pattern, and the classified plies of the cycle (null when no position
 * repeated --repetitions times). */
static void print_json_repetition(FILE *o, const xq_game *g, const xq_replay *r)
{
    if (!r->repeated) {
        fputs("null", o);
        return;
    }
    const xq_rep_verdict *v = &r->repetition;
    int first = 1;
    putc('{', o);
    xq_json_key(o, "rules", &first); xq_json_string(o, xq_rules_str(v->rules));
    xq_json_key(o, "result", &first); xq_json_string(o, xq_result_str(v->result));
    xq_json_key(o, "loser", &first); xq_json_string(o, v->loser < 0 ? NULL : v->loser == XQ_RED ? "red" : "black");
    xq_json_key(o, "kind", &first); xq_json_string(o, v->kind);
    xq_json_key(o, "clause", &first); xq_json_string(o, v->clause);
    xq_json_key(o, "reason", &first); xq_json_string(o, v->reason);
    xq_json_key(o, "first_ply", &first); fprintf(o, "%d", v->first_ply);
    xq_json_key(o, "last_ply", &first); fprintf(o, "%d", v->last_ply);
    xq_json_key(o, "occurrences", &first); fprintf(o, "%d", v->occurrences);
    for (int c = 0; c < 2; c++) {
        const xq_rep_side *sd = &v->side[c];
        int f2 = 1;
        xq_json_key(o, c == XQ_RED ? "red" : "black", &first);
        putc('{', o);
        xq_json_key(o, "pattern", &f2); xq_json_string(o, xq_rep_pattern_str(sd->pattern));
        xq_json_key(o, "forbidden", &f2); fputs(sd->forbidden ? "true" : "false", o);
        xq_json_key(o, "moves", &f2); fprintf(o, "%d", sd->moves);
        xq_json_key(o, "checks", &f2); fprintf(o, "%d", sd->checks);
        xq_json_key(o, "mate_threats", &f2); fprintf(o, "%d", sd->mate_threats);
        xq_json_key(o, "chases", &f2); fprintf(o, "%d", sd->chases);
        xq_json_key(o, "idles", &f2); fprintf(o, "%d", sd->idles);
        xq_json_key(o, "victim", &f2); json_square(o, sd->victim_sq);
        putc('}', o);
    }
    xq_json_key(o, "plies", &first);
    putc('[', o);
    for (int i = 0; i < v->nplies; i++) {
        const xq_rep_ply *p = &v->plies[i];
        int f2 = 1;
        char mv[5];
        iccs(p->move, mv);
        if (i) putc(',', o);
        putc('{', o);
        xq_json_key(o, "ply", &f2); fprintf(o, "%d", p->ply);
        xq_json_key(o, "move", &f2);
        xq_json_string(o, p->ply >= 1 && (size_t)p->ply <= g->main.count ? g->main.nodes[p->ply - 1].text : NULL);
        xq_json_key(o, "iccs", &f2); xq_json_string(o, mv);
        xq_json_key(o, "act", &f2); xq_json_string(o, xq_act_str((xq_act)p->act));
        xq_json_key(o, "idle", &f2);
        xq_json_string(o, p->act == XQ_ACT_IDLE ? xq_idle_str((xq_idle_kind)p->idle) : NULL);
        xq_json_key(o, "victim", &f2); json_square(o, p->victim);
        putc('}', o);
    }
    fputs("]}", o);
}

static void print_finding(FILE *to, const xq_game *g, const xq_replay *r, const xq_finding *f)
{
    char label[512];
    xq_game_label(g, label, sizeof label);
    unsigned long line, col;
    xq_finding_place(f, g, &line, &col);
    xq_name_put(to, g->file);   /* (no control character raw: cli.h) */
    fprintf(to, ":%lu:%lu: ", line, col);
    /* the rest quotes the record (tags, the move, messages quoting it):
     * one text in the one rule (game.h xq_name_printf) */
    const char *sev = f->severity == XQ_SEV_ERROR ? "error" : "warning";
    unsigned long long index = (unsigned long long)g->index;
    const char *open = *label ? " (" : "", *close = *label ? ")" : "";
    bool why = about_repetition(r, f);
    if (f->ply && f->ply == r->bad_ply) {
        xq_name_printf(to, "%s: game %llu%s%s%s, ply %d (%d.%s %s): %s; FEN before: %s", sev, index, open, label,
                       close, f->ply, r->bad_number, r->bad_side == XQ_BLACK ? ".." : "", r->bad_move, f->message,
                       r->fen_before);
    } else if (f->ply) {
        char move[96];   /* "12... 炮２平５", as the first illegal move's */
        xq_replay_ply_move(g, r, f->ply, move, sizeof move);
        xq_name_printf(to, "%s: game %llu%s%s%s, ply %d%s%s%s: %s%s%s", sev, index, open, label, close, f->ply,
                       *move ? " (" : "", move, *move ? ")" : "", f->message, why ? "; " : "",
                       why ? r->repetition.reason : "");
    } else {
        xq_name_printf(to, "%s: game %llu%s%s%s: %s%s%s", sev, index, open, label, close, f->message,
                       why ? "; " : "", why ? r->repetition.reason : "");
    }
    putc('\n', to);
}

/* What the summary line counts a game as, and --keep valid keeps (the
 * CLASS_VALID ones): one place, so the JSON report's "class" and the
 * summary cannot disagree.  Not the replay's status (how the moves
 * replayed): a game whose moves are all legal may still have an error,
 * e.g. a Result tag against a checkmate. */
typedef enum { CLASS_VALID, CLASS_WITH_ERRORS, CLASS_UNREADABLE } game_class;

static game_class class_of(const xq_replay *r)
{
    if (r->status == XQ_STATUS_UNREADABLE) return CLASS_UNREADABLE;
    return r->error_count > 0 ? CLASS_WITH_ERRORS : CLASS_VALID;
}

static void print_json(FILE *o, const xq_game *g, const xq_replay *r)
{
    int first = 1;
    putc('{', o);
    xq_json_key(o, "file", &first); xq_json_string(o, g->file);
    xq_json_key(o, "game", &first); fprintf(o, "%llu", (unsigned long long)g->index);
    xq_json_key(o, "line", &first); fprintf(o, "%llu", (unsigned long long)g->first_line);
    xq_json_key(o, "status", &first); xq_json_string(o, xq_status_str(r->status));
    static const char *const classes[] = {"valid", "with-errors", "unreadable"};
    xq_json_key(o, "class", &first); xq_json_string(o, classes[class_of(r)]);
    static const char *const tags[] = {"Event", "Date", "Red", "Black"};
    for (size_t i = 0; i < 4; i++) {
        char key[16];
        snprintf(key, sizeof key, "%s", tags[i]);
        key[0] = (char)(key[0] | 0x20);
        xq_json_key(o, key, &first);
        xq_json_string(o, xq_game_tag(g, tags[i]));
    }
    xq_json_key(o, "plies", &first); fprintf(o, "%d", r->plies);
    xq_json_key(o, "ply", &first);
    if (r->bad_ply) fprintf(o, "%d", r->bad_ply); else fputs("null", o);
    xq_json_key(o, "move", &first); xq_json_string(o, r->bad_ply ? r->bad_move : NULL);
    xq_json_key(o, "reason", &first); xq_json_string(o, r->reason[0] ? r->reason : NULL);
    xq_json_key(o, "fen", &first); xq_json_string(o, r->fen_before[0] ? r->fen_before : NULL);
    xq_json_key(o, "result_tag", &first); xq_json_string(o, xq_result_str(r->result_tag == XQ_RESULT_NONE ? XQ_RESULT_UNKNOWN : r->result_tag));
    xq_json_key(o, "result_board", &first); xq_json_string(o, xq_result_str(r->result_board));
    xq_json_key(o, "termination", &first); xq_json_string(o, xq_termination_str(r->termination));
    xq_json_key(o, "repetition", &first); print_json_repetition(o, g, r);
    xq_json_key(o, "errors", &first); fprintf(o, "%d", r->error_count);
    xq_json_key(o, "warnings", &first); fprintf(o, "%d", r->warning_count);
    xq_json_key(o, "findings", &first);
    putc('[', o);
    int order[XQ_REPLAY_MAX_FINDINGS];   /* in input order, as the text report */
    xq_findings_in_order(r, order);
    for (int i = 0; i < r->nfindings; i++) {
        const xq_finding *f = &r->findings[order[i]];
        int ff = 1;
        if (i) putc(',', o);
        putc('{', o);
        xq_json_key(o, "kind", &ff); xq_json_string(o, xq_finding_kind_str(f->kind));
        xq_json_key(o, "severity", &ff); xq_json_string(o, f->severity == XQ_SEV_ERROR ? "error" : "warning");
        xq_json_key(o, "ply", &ff); fprintf(o, "%d", f->ply);
        unsigned long line, col;
        xq_finding_place(f, g, &line, &col);
        xq_json_key(o, "line", &ff); fprintf(o, "%lu", line);
        xq_json_key(o, "col", &ff); fprintf(o, "%lu", col);
        xq_json_key(o, "message", &ff); xq_json_string(o, f->message);
        putc('}', o);
    }
    fputs("]}\n", o);
}

/* What the pipeline callbacks share: the options and the form of the
 * kept records when the file's run began (read by the workers), and the
 * totals (written in input order, one account call at a time). */
typedef struct {
    const options *opt;
    xq_keep_state keep;
    totals *t;
} run_state;

/* Whether every error of r is about its Result, which --fix-results
 * rewrites (the board decides the ending: xq_replay_board_decides): the
 * game is valid once kept with the fix, so --keep valid --fix-results
 * keeps it and --keep invalid --fix-results does not (the two a
 * partition of the input, as without the fix). */
static bool only_result_errors(const xq_replay *r)
{
    int result_errors = r->kind_counts[XQ_FIND_RESULT_MISMATCH][XQ_SEV_ERROR] +
                        r->kind_counts[XQ_FIND_RESULT_MISSING][XQ_SEV_ERROR];
    return r->error_count == result_errors && xq_replay_board_decides(r);
}

/* A worker's part: replay one game and format what it produces. */
static void process_game(void *ctx, xq_slot *slot)
{
    const options *opt = ((run_state *)ctx)->opt;
    xq_game *g = &slot->game;
    xq_replay *r = &slot->replay;
    xq_replay_game_memo(g, &opt->rules, slot->memo, r);
    /* --keep: what the summary counts, but with --fix-results a game
     * whose only errors the fix mends is kept as valid */
    bool bad = class_of(r) != CLASS_VALID && !(opt->fix_results && only_result_errors(r));
    if (opt->report == REPORT_JSON) print_json(slot->out, g, r);
    else if (r->error_count || opt->warnings) {   /* (else nothing is printed: no order to make) */
        int order[XQ_REPLAY_MAX_FINDINGS];   /* in input order: the reader's and the replay's merged */
        xq_findings_in_order(r, order);
        int errors_listed = 0;
        for (int i = 0; i < r->nfindings; i++)
            if (r->findings[order[i]].severity == XQ_SEV_ERROR || opt->warnings) {
                print_finding(slot->err, g, r, &r->findings[order[i]]);
                errors_listed += r->findings[order[i]].severity == XQ_SEV_ERROR;
            }
        if (r->error_count > errors_listed) xq_cli_print_unlisted(slot->err, g, r->error_count - errors_listed);
    }
    if ((opt->keep == KEEP_VALID && !bad) || (opt->keep == KEEP_INVALID && bad))
        xq_keep_game(&((run_state *)ctx)->keep, slot, slot->user, opt->fix_results);
}


/* In input order: add the game to the totals. */
static void account_game(void *ctx, xq_slot *slot)
{
    totals *t = ((run_state *)ctx)->t;
    const xq_replay *r = &slot->replay;
    if (slot->user) {
        const xq_kept_game *k = slot->user;
        t->kept += k->kept;
        t->fixed += k->result_fixed;
        t->warnings += xq_keep_account(&t->keep, slot->user, stdout);
    }
    t->games++;
    t->plies += (unsigned long long)r->plies;
    t->warnings += (unsigned long long)r->warning_count;
    switch (class_of(r)) {
    case CLASS_UNREADABLE: t->unreadable++; break;
    case CLASS_WITH_ERRORS: t->with_errors++; break;
    case CLASS_VALID: t->valid++; break;
    }
}

static int validate_file(const char *path, const options *opt, totals *t)
{
    run_state state = {opt, t->keep, t};
    xq_pipeline_options po = {
        .threads = opt->threads, .light = true, .memos = &t->memos, .ctx = &state, .process = process_game,
        .account = account_game, .user_size = opt->keep != KEEP_NONE ? sizeof(xq_kept_game) : 0,
    };
    bool input_failed;
    char why[512];
    int status = xq_cli_run_file_why(PROG, path, &opt->read, &po, &input_failed, why, sizeof why);
    if (input_failed && opt->report == REPORT_JSON) xq_cli_json_file_error(stdout, path, why);
    return status;
}

static int run_perft(const char *depth_text, const char *fen)
{
    int depth;
    if (!xq_cli_int(PROG, "perft", depth_text, 12, &depth)) return XQ_EXIT_USAGE;
    xq_position pos;
    char err[160];
    if (!xq_fen_read(&pos, fen ? fen : XQ_START_FEN, err, sizeof err)) {
        xq_cli_error(PROG, "%s", err);
        return XQ_EXIT_USAGE;
    }
    printf("%llu\n", (unsigned long long)xq_perft(&pos, depth));
    return xq_cli_stdout_check(PROG);
}

int main(int argc, char **argv)
{
    xq_cli_watch_stdout();   /* (a write error's reason kept: cli.h) */
    enum { OPT_FIX = 256, OPT_PERFT, OPT_FEN };
    static const struct option longopts[] = {
        {"report", required_argument, NULL, 'r'},
        {"keep", required_argument, NULL, 'k'},
        {"fix-results", no_argument, NULL, OPT_FIX},
        {"strict", no_argument, NULL, 's'},
        {"warnings", no_argument, NULL, 'W'},
        XQ_CLI_RULE_LONGOPTS,
        XQ_CLI_FILES_LONGOPTS,
        {"encoding", required_argument, NULL, 'e'},
        {"quiet", no_argument, NULL, 'q'},
        {"jobs", required_argument, NULL, 'j'},
        {"perft", required_argument, NULL, OPT_PERFT},
        {"fen", required_argument, NULL, OPT_FEN},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    options opt;
    memset(&opt, 0, sizeof opt);
    xq_replay_options_default(&opt.rules);
    opt.threads = 0;   /* -j not given: xq_pipeline_threads per file */
    const char *perft = NULL, *fen = NULL;
    bool check_cap_given = false;
    xq_cli_list list = {0};
    /* each choice made once (a second, other value: a usage error) */
    xq_cli_choice report = {0}, keep = {0}, encoding = {0}, rule_set = {0};
    const xq_cli_common common = {'e', &opt.read, &opt.threads, &opt.quiet, usage, &list, &encoding};
    int c;
    while ((c = getopt_long(argc, argv, "r:k:sWe:qj:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'r':
            if (!strcasecmp(optarg, "text")) opt.report = REPORT_TEXT;
            else if (!strcasecmp(optarg, "json")) opt.report = REPORT_JSON;
            else { xq_cli_error(PROG, "unknown report format '%s' (text or json)", optarg); return XQ_EXIT_USAGE; }
            if (!xq_cli_choose(PROG, &report, "--report", optarg, optarg)) return XQ_EXIT_USAGE;
            break;
        case 'k':
            if (!strcasecmp(optarg, "valid")) opt.keep = KEEP_VALID;
            else if (!strcasecmp(optarg, "invalid")) opt.keep = KEEP_INVALID;
            else { xq_cli_error(PROG, "--keep takes 'valid' or 'invalid', not '%s'", optarg); return XQ_EXIT_USAGE; }
            if (!xq_cli_choose(PROG, &keep, "--keep", optarg, optarg)) return XQ_EXIT_USAGE;
            break;
        case OPT_FIX: opt.fix_results = true; break;
        case 's': opt.rules.strict = true; break;
        case 'W': opt.warnings = true; break;
        case OPT_PERFT: perft = optarg; break;
        case OPT_FEN: fen = optarg; break;
        default: {
            int st = xq_cli_common_option(PROG, c, optarg, &common);
            if (st == XQ_CLI_NEXT) break;
            if (st != XQ_CLI_OTHER) return st;
            int r = xq_cli_rule_option(PROG, c, optarg, &opt.rules, &check_cap_given, &rule_set);
            if (r > 0) break;
            return r == 0 ? xq_cli_bad_option(PROG) : XQ_EXIT_USAGE;
        }
        }
    }
    /* the Asian rules count at most 10 checks per side toward the move limit */
    xq_cli_rules_finish(&opt.rules, check_cap_given);
    if (perft) return run_perft(perft, fen);
    if (fen) { xq_cli_error(PROG, "--fen goes with --perft"); return XQ_EXIT_USAGE; }
    if (opt.fix_results && opt.keep == KEEP_NONE) { xq_cli_error(PROG, "--fix-results goes with --keep"); return XQ_EXIT_USAGE; }
    if (opt.keep != KEEP_NONE && opt.report == REPORT_JSON) {
        xq_cli_error(PROG, "--keep and --report=json both write to stdout; choose one");
        return XQ_EXIT_USAGE;
    }

    /* the text report prints warnings only with -W: without it their
     * messages are never read, so the replay need not write them */
    opt.rules.no_warning_text = opt.report == REPORT_TEXT && !opt.warnings;
    /* only --keep writes records (their bytes, or their moves through the
     * writers): without it neither the bytes nor the main line's moves are
     * read after the replay, so neither is kept (the memo of main lines
     * then holds no moves either: replay.h) */
    opt.read.no_raw = opt.keep == KEEP_NONE;
    opt.rules.no_moves = opt.keep == KEEP_NONE;
    opt.rules.no_final = true;   /* (no report reads the final position: replay.h) */

    char **paths;
    size_t npaths;
    int status = xq_cli_inputs(PROG, argv + optind, argc - optind, &list, &paths, &npaths);
    if (status != XQ_EXIT_OK) return status;
    totals t = {0};
    for (size_t i = 0; i < npaths; i++) {
        int st = validate_file(paths[i], &opt, &t);
        if (st > status) status = st;
    }
    xq_cli_inputs_free(paths, npaths, argc - optind);
    xq_pipeline_memos_free(&t.memos);
    xq_keep_end(&t.keep, stdout);
    bool out_failed = xq_cli_stdout_check(PROG) != XQ_EXIT_OK;   /* the report or the kept records */
    if (out_failed) status = XQ_EXIT_USAGE;
    if (status == XQ_EXIT_OK && (t.with_errors || t.unreadable)) status = XQ_EXIT_FINDINGS;
    if (!opt.quiet) {
        fprintf(stderr, "%llu game%s: %llu valid, %llu with errors, %llu unreadable", t.games, t.games == 1 ? "" : "s", t.valid,
                t.with_errors, t.unreadable);
        if (t.warnings)
            fprintf(stderr, "; %llu warning%s%s", t.warnings, t.warnings == 1 ? "" : "s", opt.warnings ? "" : " (-W shows them)");
        /* what --keep wrote: the counts above are the input's, which the
         * fix does not change */
        if (opt.keep != KEEP_NONE) fprintf(stderr, "; %llu kept", t.kept);
        if (opt.fix_results) fprintf(stderr, " (%llu with the Result fixed)", t.fixed);
        /* the counts stay true, but what --keep or --report json wrote is cut */
        if (out_failed) fputs("; the output was not written in full", stderr);
        fputc('\n', stderr);
    }
    return status;
}
