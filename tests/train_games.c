/* train_games.c - writes the games `make pgo` trains the compiler's profile
 * on (gcc -fprofile-generate, then -fprofile-use): PGN records in Chinese
 * notation, UTF-8, made here from a fixed seed, so that the build needs no
 * data from outside the repository (../shared is not on a user's machine)
 * and the profile is the same on every run.  What the tools spend their
 * time on in real databases is in them: tag sections, the full Chinese
 * move form with 前/後 where two pieces share a file, checks, captures,
 * cycles of moves that repeat a position (the repetition judge), games
 * that end in checkmate, and records that repeat an earlier game's moves
 * (the replay's memo of main lines; about half of a real database).
 * The moves are random legal ones: the code paths matter here, not the
 * play.  Usage: train_games [GAMES [ENCODING]] > file.pgn (default 4000
 * games, in UTF-8; ENCODING big5 or gbk writes them in that encoding, as
 * most real databases are). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notation.h"
#include "position.h"
#include "transcode.h"

enum { MAX_PLIES = 200 };

static uint64_t seed = 0x5EED5EED12345678ull;

/* A number in 0..n-1 (n > 0): xorshift64*. */
static unsigned rnd(unsigned n)
{
    seed ^= seed >> 12;
    seed ^= seed << 25;
    seed ^= seed >> 27;
    return (unsigned)((seed * 0x2545F4914F6CDD1Dull) >> 33) % n;
}

/* Is m, legal in pos, a move that captures nothing? */
static bool quiet(const xq_position *pos, xq_move m)
{
    return pos->board[XQ_TO(m)] == XQ_NONE;
}

/* The legal move from -> to of pos, or XQ_MOVE_NONE. */
static xq_move legal(const xq_position *pos, int from, int to)
{
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_legal_moves(pos, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == XQ_MOVE(from, to)) return moves[i];
    return XQ_MOVE_NONE;
}

/* A random legal move of pos, captures taken more often than at random
 * (as players do), or XQ_MOVE_NONE when there is none (checkmate or
 * stalemate). */
static xq_move pick(const xq_position *pos)
{
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_legal_moves(pos, moves);
    if (!n) return XQ_MOVE_NONE;
    for (int tries = 0; tries < 3; tries++) {
        xq_move m = moves[rnd((unsigned)n)];
        if (!quiet(pos, m)) return m;
    }
    return moves[rnd((unsigned)n)];
}

/* A game's moves into line (at most MAX_PLIES): random moves; in about
 * one game in twelve (masters' share of games judged a repetition is
 * about one in twenty of the distinct ones) it ends in a cycle of four
 * quiet moves played back and forth two or three times (the same
 * position again and again).  *mated: it ended with no legal move. */
static int play_game(xq_move *line, bool *mated)
{
    xq_position pos;
    xq_position_start(&pos);
    int plies = 0, length = 30 + (int)rnd(150), cycle_at = rnd(12) ? MAX_PLIES : 10 + (int)rnd(100);
    *mated = false;
    while (plies < length && plies + 12 < MAX_PLIES) {
        xq_move a = pick(&pos);
        if (a == XQ_MOVE_NONE) {
            *mated = true;
            break;
        }
        xq_undo u;
        if (plies >= cycle_at && quiet(&pos, a)) {
            /* a, b, back, back: two or three times while legal */
            int rounds = 2 + (int)rnd(2);
            for (int r = 0; r < rounds; r++) {
                xq_move cycle[4];
                xq_position p = pos;
                cycle[0] = a;
                xq_make(&p, a, &u);
                cycle[1] = pick(&p);
                if (cycle[1] == XQ_MOVE_NONE || !quiet(&p, cycle[1])) break;
                xq_make(&p, cycle[1], &u);
                cycle[2] = legal(&p, XQ_TO(a), XQ_FROM(a));
                if (cycle[2] == XQ_MOVE_NONE) break;
                xq_make(&p, cycle[2], &u);
                cycle[3] = legal(&p, XQ_TO(cycle[1]), XQ_FROM(cycle[1]));
                if (cycle[3] == XQ_MOVE_NONE) break;
                for (int k = 0; k < 4; k++) {
                    xq_make(&pos, cycle[k], &u);
                    line[plies++] = cycle[k];
                }
            }
            break;
        }
        xq_make(&pos, a, &u);
        line[plies++] = a;
    }
    return plies;
}

static const char *const EVENTS[] = {"全國象棋個人賽", "友誼賽 中炮對屏風馬", "象甲聯賽", "五羊杯"};
static const char *const NAMES[] = {"柳大華", "胡榮華", "許銀川", "呂欽", "趙國榮", "王天一", "洪智", "蔣川"};

/* One record of the game's moves in line[0..plies); mated: the side to
 * move after them has no legal move (it lost); else a result at random,
 * as records often give one the board does not show. */
static void write_game(FILE *out, unsigned index, const xq_move *line, int plies, bool mated)
{
    xq_position pos;
    xq_position_start(&pos);
    char text[XQ_NOTATION_MAX];
    fprintf(out, "[Game \"Chinese Chess\"]\n[Event \"%s\"]\n[Round \"%u\"]\n[Date \"%u/%u/19%02u\"]\n[Site \"\"]\n",
           EVENTS[index % 4], index % 13 + 1, index % 12 + 1, index % 28 + 1, 80 + index % 20);
    fprintf(out, "[Red \"%s\"]\n[RedTeam \"\"]\n[Black \"%s\"]\n[BlackTeam \"\"]\n", NAMES[index % 8],
           NAMES[(index / 8 + index + 1) % 8]);
    static const char *const RESULTS[] = {"1-0", "0-1", "1/2-1/2", "*"};
    const char *result = mated ? RESULTS[plies % 2 ? 0 : 1] : RESULTS[rnd(4)];
    fprintf(out, "[Result \"%s\"]\n[ECCO \"C%02u\"]\n", result, index % 100);
    fprintf(out, "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n\n");
    for (int i = 0; i < plies; i++) {
        if (xq_move_write(&pos, line[i], XQ_NOTATION_CHINESE, XQ_WRITE_TRADITIONAL, text, sizeof text) == 0) break;
        if (i % 2 == 0) fprintf(out, "%d. %s", i / 2 + 1, text);
        else fprintf(out, " %s\n", text);
        xq_undo u;
        xq_make(&pos, line[i], &u);
    }
    fprintf(out, "%s%s\n\n", plies % 2 ? "\n" : "", result);
}

/* The games in UTF-8 into a buffer, then to stdout in the encoding asked
 * for (argv[2]: big5, gbk, else UTF-8). */
int main(int argc, char **argv)
{
    unsigned games = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 4000;
    const char *enc_name = argc > 2 ? argv[2] : "utf-8";
    xq_encoding enc = !strcmp(enc_name, "big5") ? XQ_ENC_BIG5 : !strcmp(enc_name, "gbk") ? XQ_ENC_GBK : XQ_ENC_UTF8;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out) return 2;
    static xq_move kept[64][MAX_PLIES];   /* earlier games, for records that repeat one */
    static int kept_plies[64];
    static bool kept_mated[64];
    for (unsigned g = 0; g < games; g++) {
        xq_move line[MAX_PLIES];
        int plies;
        bool mated;
        if (g >= 64 && rnd(2)) {   /* a record of an earlier game */
            unsigned k = rnd(64);
            plies = kept_plies[k];
            memcpy(line, kept[k], (size_t)plies * sizeof *line);
            mated = kept_mated[k];
        } else {
            plies = play_game(line, &mated);
            memcpy(kept[g % 64], line, (size_t)plies * sizeof *line);
            kept_plies[g % 64] = plies;
            kept_mated[g % 64] = mated;
        }
        write_game(out, g + 1, line, plies, mated);
    }
    if (fclose(out) != 0) return 2;
    bool ok = xq_transcode(stdout, text, len, XQ_ENC_UTF8, enc, NULL);
    free(text);
    return ok && fflush(stdout) == 0 ? 0 : 2;
}
