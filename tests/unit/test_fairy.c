/* test_fairy.c - differential test against an independent rules engine:
 * Debian's fairy-stockfish (UCCI mode, 0-based ranks, formats.md §1c).
 * For the first GAMES games of masters.pgn.gz, at every 40th ply and at
 * the end, the engine's legal moves ("go perft 1") must equal ours (an
 * engine that refused a recorded move would stop there and disagree at the
 * next check, so every move of those games is checked); and the
 * one illegal move our replay finds in the corpus (game 38029, ply 70)
 * must be missing from the engine's list too.  And records written with
 * the engine's plain-UCI moves, whose ranks run 1 to 10 (h3e3, h10g8),
 * replay to the same moves as the masters' records they were made from
 * (replay.c coord_rank_flags).  Skipped, with a message, when the engine
 * is not installed (make deps installs it as root). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "notation.h"
#include "pgn_read.h"
#include "replay.h"

#define ENGINE "/usr/games/fairy-stockfish"
enum { GAMES = 3000, EVERY = 40 };

typedef struct {
    pid_t pid;
    FILE *to, *from;
} engine;

/* protocol: "ucci" (ranks 0-9) or "uci" (ranks 1-10, formats.md §1c) */
static bool engine_start(engine *e, const char *protocol)
{
    int in[2], out[2];
    if (pipe(in) || pipe(out)) return false;
    e->pid = fork();
    if (e->pid < 0) return false;
    if (e->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[1]);
        close(out[0]);
        execl(ENGINE, ENGINE, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    e->to = fdopen(in[1], "w");
    e->from = fdopen(out[0], "r");
    if (!strcmp(protocol, "uci"))
        fputs("uci\nsetoption name UCI_Variant value xiangqi\n", e->to);
    else
        fputs("ucci\n", e->to);
    fflush(e->to);
    return e->to && e->from;
}

static void engine_stop(engine *e)
{
    fputs("quit\n", e->to);
    fclose(e->to);
    fclose(e->from);
    waitpid(e->pid, NULL, 0);
}

static void square(char *s, int sq) { s[0] = (char)('a' + XQ_FILE(sq)); s[1] = (char)('0' + XQ_RANK(sq)); }

/* The engine's legal moves after `fen moves m[0..n)` as a sorted list of
 * 4-character strings in out (XQ_MAX_MOVES * 5 bytes); returns the count. */
static int engine_moves(engine *e, const char *fen, const xq_move *m, int n, char out[][5])
{
    fprintf(e->to, "position fen %s", fen);
    if (n) fputs(" moves", e->to);
    for (int i = 0; i < n; i++) {
        char s[5] = {0};
        square(s, XQ_FROM(m[i]));
        square(s + 2, XQ_TO(m[i]));
        fprintf(e->to, " %s", s);
    }
    fputs("\ngo perft 1\n", e->to);
    fflush(e->to);
    char line[256];
    int count = 0;
    while (fgets(line, sizeof line, e->from)) {
        if (!strncmp(line, "Nodes searched", 14)) break;
        if (strlen(line) > 5 && line[4] == ':' && count < XQ_MAX_MOVES) {
            memcpy(out[count], line, 4);
            out[count++][4] = 0;
        }
    }
    qsort(out, (size_t)count, 5, (int (*)(const void *, const void *))strcmp);
    return count;
}

static int our_moves(const xq_position *pos, char out[][5])
{
    xq_move mv[XQ_MAX_MOVES];
    int n = xq_legal_moves(pos, mv);
    for (int i = 0; i < n; i++) {
        square(out[i], XQ_FROM(mv[i]));
        square(out[i] + 2, XQ_TO(mv[i]));
        out[i][4] = 0;
    }
    qsort(out, (size_t)n, 5, (int (*)(const void *, const void *))strcmp);
    return n;
}

/* The engine started on protocol (engine_start) and a reader of the
 * masters' games; the test skipped, with a message, when either is
 * missing. */
static xq_reader *engine_and_masters(engine *e, const char *protocol)
{
    if (access(ENGINE, X_OK) != 0) {
        print_message("skip: %s not installed (apt-get install fairy-stockfish)\n", ENGINE);
        skip();
    }
    char err[256];
    xq_reader *rd = xq_reader_open(XQ_SHARED "/corpus/ccpd/masters.pgn.gz", NULL, err, sizeof err);
    if (!rd) skip();
    *e = (engine){0, NULL, NULL};
    assert_true(engine_start(e, protocol));
    return rd;
}

static void legal_moves_agree(void **state)
{
    (void)state;
    engine e;
    xq_reader *rd = engine_and_masters(&e, "ucci");
    xq_game g;
    xq_game_init(&g);
    xq_replay_options opt;
    xq_replay_options_default(&opt);
    xq_replay r;
    long positions = 0, mismatches = 0, games = 0;
    static xq_move moves[4096];
    static char ours[XQ_MAX_MOVES][5], theirs[XQ_MAX_MOVES][5];
    while (xq_reader_next(rd, &g) == 1) {
        bool target = g.index == 38029;
        if (g.index > GAMES && !target) continue;
        xq_replay_game(&g, &opt, &r);
        char fen[XQ_FEN_MAX];
        xq_fen_write(&r.start, fen, sizeof fen);
        int n = r.plies < 4096 ? r.plies : 4096;
        xq_position pos = r.start;
        for (int i = 0; i <= n; i++) {
            if (i % EVERY == 0 || i == n) {
                int a = our_moves(&pos, ours), b = engine_moves(&e, fen, moves, i, theirs);
                positions++;
                if (a != b || memcmp(ours, theirs, (size_t)a * 5)) {
                    mismatches++;
                    print_message("game %llu ply %d: we have %d moves, the engine %d\n",
                                  (unsigned long long)g.index, i, a, b);
                }
            }
            if (i == n) break;
            moves[i] = g.main.nodes[i].move;
            xq_undo u;
            xq_make(&pos, moves[i], &u);
        }
        if (target) {
            /* our verdict: ply 70 (士６進５, f9e8) leaves the general in check */
            assert_int_equal(r.bad_ply, 70);
            int b = engine_moves(&e, fen, moves, 69, theirs);
            bool found = false;
            for (int k = 0; k < b; k++) found |= !strcmp(theirs[k], "f9e8");
            assert_false(found);
            assert_true(b > 0);
            break;
        }
        games++;
    }
    xq_game_free(&g);
    xq_reader_close(rd);
    engine_stop(&e);
    print_message("%ld games, %ld positions compared with fairy-stockfish, %ld mismatches\n", games, positions,
                  mismatches);
    assert_int_equal(games, GAMES);
    assert_int_equal(mismatches, 0);
    assert_true(positions > 8000);
}

/* The engine's moves (plain UCI: ranks 1-10) at startpos after the
 * moves `played` (its own texts, "" for none): the one of them from->to
 * (0-9 squares) into text (8 bytes); false when it lists no such move. */
static bool engine_uci_move(engine *e, const char *played, xq_move m, char text[8])
{
    fprintf(e->to, "position startpos%s%s\ngo perft 1\n", *played ? " moves" : "", played);
    fflush(e->to);
    char want[8];
    snprintf(want, sizeof want, "%c%d%c%d", 'a' + XQ_FILE(XQ_FROM(m)), XQ_RANK(XQ_FROM(m)) + 1,
             'a' + XQ_FILE(XQ_TO(m)), XQ_RANK(XQ_TO(m)) + 1);
    char line[256];
    bool found = false;
    while (fgets(line, sizeof line, e->from)) {
        if (!strncmp(line, "Nodes searched", 14)) break;
        char *colon = strchr(line, ':');
        if (colon && colon - line < 8) {
            *colon = 0;
            if (!strcmp(line, want)) {
                memcpy(text, want, sizeof want);
                found = true;
            }
        }
    }
    return found;
}

/* The first GAMES_UCI master games from the start, up to PLIES_UCI plies
 * each, written as records of the engine's plain-UCI texts (every one
 * taken from its own move list, none made here), read and replayed: every
 * ply must replay, to the masters' moves. */
enum { GAMES_UCI = 60, PLIES_UCI = 60 };
static void uci_ranks_from_1(void **state)
{
    (void)state;
    engine e;
    xq_reader *rd = engine_and_masters(&e, "uci");
    char err[256];
    xq_game g, back;
    xq_game_init(&g);
    xq_game_init(&back);
    xq_replay_options opt;
    xq_replay_options_default(&opt);
    xq_replay r;
    int games = 0, tens = 0, plies_total = 0, first_decides = 0;
    static char played[PLIES_UCI * 8 + 1], record[PLIES_UCI * 8 + 64];
    char path[] = "/tmp/test_fairy_uci_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    while (games < GAMES_UCI && xq_reader_next(rd, &g) == 1) {
        const char *fen = xq_game_tag(&g, "FEN"); /* board and side: the start's */
        if (fen && strncmp(fen, XQ_START_FEN, strcspn(XQ_START_FEN, " ") + 2)) continue;
        xq_replay_game(&g, &opt, &r);
        int n = r.plies < PLIES_UCI ? r.plies : PLIES_UCI;
        played[0] = 0;
        int len = 0;
        for (int i = 0; i < n; i++) {
            char text[8];
            if (!engine_uci_move(&e, played, g.main.nodes[i].move, text)) fail_msg("game %d ply %d", games, i + 1);
            len += snprintf(played + len, sizeof played - (size_t)len, " %s", text);
        }
        /* the whole record (a rank 10 decides), and the moves before the
         * first rank 10 (the first move decides) */
        const char *ten = strstr(played, "10");
        int before = 0;
        for (const char *c = played; ten && c < ten; c++) before += *c == ' ';
        before = ten ? before - 1 : n;
        tens += ten != NULL;
        int lens[2] = {n, before};
        for (int k = 0; k < 2; k++) {
            int m = lens[k], at = 0;
            for (int spaces = 0; played[at] && spaces <= m; at++) spaces += played[at] == ' ';
            snprintf(record, sizeof record, "[Event \"uci\"]\n\n%.*s *\n", m ? at : 0, played);
            FILE *f = fopen(path, "w");
            assert_non_null(f);
            fputs(record, f);
            assert_int_equal(fclose(f), 0);
            xq_reader *in = xq_reader_open(path, NULL, err, sizeof err);
            assert_non_null(in);
            assert_int_equal(xq_reader_next(in, &back), 1);
            xq_reader_close(in);
            xq_replay rb;
            xq_replay_game(&back, &opt, &rb);
            if (rb.plies != m) fail_msg("game %d: %d of %d plies replayed: %s", games, rb.plies, m, rb.reason);
            assert_int_equal(rb.read_flags, m ? XQ_READ_RANKS_FROM_1 : 0);
            for (int i = 0; i < m; i++) assert_int_equal(back.main.nodes[i].move, g.main.nodes[i].move);
            if (k) first_decides += m > 0;
        }
        plies_total += n;
        games++;
    }
    xq_game_free(&g);
    xq_game_free(&back);
    xq_reader_close(rd);
    engine_stop(&e);
    unlink(path);
    print_message("%d games, %d plies of plain-UCI moves replayed; %d games write rank 10; %d decided by the first "
                  "move\n", games, plies_total, tens, first_decides);
    assert_int_equal(games, GAMES_UCI);
    assert_true(plies_total > 2000);
    /* both ways of deciding are met: by a rank 10, and by the first move */
    assert_true(tens > 0 && first_decides > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(legal_moves_agree),
        cmocka_unit_test(uci_ranks_from_1),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
