/* test_fairy.c - differential test against an independent rules engine:
 * Debian's fairy-stockfish (UCCI mode, 0-based ranks, formats.md §1c).
 * For the first GAMES games of masters.pgn.gz, at every 40th ply and at
 * the end, the engine's legal moves ("go perft 1") must equal ours (an
 * engine that refused a recorded move would stop there and disagree at the
 * next check, so every move of those games is checked); and the
 * one illegal move our replay finds in the corpus (game 38029, ply 70)
 * must be missing from the engine's list too.  Skipped, with a message,
 * when the engine is not installed (make deps installs it as root). */
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

#include "pgn_read.h"
#include "replay.h"

#define ENGINE "/usr/games/fairy-stockfish"
enum { GAMES = 3000, EVERY = 40 };

typedef struct {
    pid_t pid;
    FILE *to, *from;
} engine;

static bool engine_start(engine *e)
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

static void legal_moves_agree(void **state)
{
    (void)state;
    if (access(ENGINE, X_OK) != 0) {
        print_message("skip: %s not installed (apt-get install fairy-stockfish)\n", ENGINE);
        skip();
    }
    char err[256];
    xq_reader *rd = xq_reader_open(XQ_SHARED "/corpus/ccpd/masters.pgn.gz", NULL, err, sizeof err);
    if (!rd) skip();
    engine e = {0, NULL, NULL};
    assert_true(engine_start(&e));
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(legal_moves_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
