/* test_rules.c - the rules core: perft counts from public engines
 * (engines-survey.md "Goal 4"), the legal-move cases of
 * ../shared/cases/cxa1999-cases.txt, FEN variants and errors, legality
 * reasons. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "position.h"

static void read_fen(xq_position *p, const char *fen)
{
    char err[128];
    if (!xq_fen_read(p, fen, err, sizeof err)) fail_msg("FEN %s: %s", fen, err);
}

static int sq_of(const char *s) { return XQ_SQ(s[0] - 'a', s[1] - '0'); }
static xq_move mv(const char *s) { return XQ_MOVE(sq_of(s), sq_of(s + 2)); }

static void perft_start(void **state)
{
    (void)state;
    static const uint64_t want[] = {1, 44, 1920, 79666, 3290240};
    xq_position p;
    xq_position_start(&p);
    for (int d = 0; d <= 4; d++) assert_int_equal(xq_perft(&p, d), want[d]);
    char fen[XQ_FEN_MAX];
    xq_fen_write(&p, fen, sizeof fen);
    assert_string_equal(fen, XQ_START_FEN);   /* perft leaves the position unchanged */
}

/* engines-survey.md "Goal 4": twelve positions, Red to move, to depth 4. */
static void perft_positions(void **state)
{
    (void)state;
    static const struct { const char *fen; uint64_t n[4]; } cases[] = {
        {"r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2", {38, 1128, 43929, 1339047}},
        {"1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1", {7, 281, 8620, 326201}},
        {"5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2", {25, 424, 9850, 202884}},
        {"CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3", {28, 516, 14808, 395483}},
        {"R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3", {21, 364, 7626, 162837}},
        {"C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3", {28, 222, 6241, 64971}},
        {"4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5", {23, 345, 8124, 149272}},
        {"2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5", {21, 195, 3883, 48060}},
        {"1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4", {30, 830, 22787, 649866}},
        {"CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3", {19, 583, 11714, 376467}},
        {"1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4", {49, 2265, 100326, 4485547}},
        {"4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2", {13, 272, 3707, 92741}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        xq_position p;
        read_fen(&p, cases[i].fen);
        for (int d = 1; d <= 4; d++) {
            uint64_t got = xq_perft(&p, d);
            if (got != cases[i].n[d - 1])
                fail_msg("%s depth %d: %llu, want %llu", cases[i].fen, d, (unsigned long long)got,
                         (unsigned long long)cases[i].n[d - 1]);
        }
    }
}

/* Every "legal moves of X = {...}" case of cxa1999-cases.txt: play the
 * listed moves, then compare the legal moves of square X with the set. */
static void cases_legal_move_sets(void **state)
{
    (void)state;
    FILE *f = fopen(XQ_SHARED "/cases/cxa1999-cases.txt", "r");
    if (!f) skip();
    char line[4096], fen[4096] = "", moves[4096] = "";
    int checked = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (!strncmp(line, "id: ", 4)) fen[0] = moves[0] = 0;
        else if (!strncmp(line, "fen: ", 5)) snprintf(fen, sizeof fen, "%s", line + 5);
        else if (!strncmp(line, "moves: ", 7)) snprintf(moves, sizeof moves, "%s", line + 7);
        else if (!strncmp(line, "expected_cxa1999: legal moves of ", 33)) {
            xq_position p;
            read_fen(&p, fen);
            for (char *t = strtok(moves, " "); t; t = strtok(NULL, " ")) {
                xq_move m = mv(t);
                assert_int_equal(xq_move_legality(&p, m), XQ_LEGAL);
                xq_undo u;
                xq_make(&p, m, &u);
            }
            int from = sq_of(line + 33);
            char *set = strchr(line, '{'), *end = strchr(line, '}');
            assert_non_null(set);
            assert_non_null(end);
            *end = 0;
            xq_move got[XQ_MAX_MOVES];
            int n = xq_legal_moves_from(&p, from, got), want = 0;
            for (char *t = strtok(set + 1, ", "); t; t = strtok(NULL, ", ")) {
                xq_move m = mv(t);
                int found = 0;
                for (int i = 0; i < n; i++) found |= got[i] == m;
                if (!found) fail_msg("%s: %s not generated", fen, t);
                want++;
            }
            assert_int_equal(n, want);
            checked++;
        }
    }
    fclose(f);
    assert_int_equal(checked, 8);   /* B03 B05 B06 B07 B09 B10 B11 B13 */
}

static void checkmate_and_stalemate(void **state)
{
    (void)state;
    xq_position p;
    xq_undo u;
    /* B01: i0i9 mates */
    read_fen(&p, "4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1");
    assert_int_equal(xq_move_legality(&p, mv("i0i9")), XQ_LEGAL);
    xq_make(&p, mv("i0i9"), &u);
    assert_true(xq_in_check(&p, XQ_BLACK));
    assert_false(xq_has_legal_move(&p));
    /* B02: stalemate, black to move, not in check */
    read_fen(&p, "3k5/8R/9/9/9/9/9/9/9/4K4 b - - 0 1");
    assert_false(xq_in_check(&p, XQ_BLACK));
    assert_false(xq_has_legal_move(&p));
    xq_move m[XQ_MAX_MOVES];
    assert_int_equal(xq_legal_moves(&p, m), 0);
    /* B15: not mate, exactly one reply e8f9 */
    read_fen(&p, "c3k2C1/4a4/6R2/9/9/9/9/9/9/3K5 w - - 0 1");
    xq_make(&p, mv("g7g9"), &u);
    assert_int_equal(xq_legal_moves(&p, m), 1);
    assert_int_equal(m[0], mv("e8f9"));
}

static void legality_reasons(void **state)
{
    (void)state;
    xq_position p;
    xq_position_start(&p);
    assert_int_equal(xq_move_legality(&p, mv("h2e2")), XQ_LEGAL);
    assert_int_equal(xq_move_legality(&p, mv("e5e6")), XQ_ILL_NO_PIECE);
    assert_int_equal(xq_move_legality(&p, mv("h9g7")), XQ_ILL_WRONG_SIDE);
    assert_int_equal(xq_move_legality(&p, mv("a0b0")), XQ_ILL_OWN_PIECE);
    assert_int_equal(xq_move_legality(&p, mv("h0h2")), XQ_ILL_GEOMETRY);
    assert_int_equal(xq_move_legality(&p, mv("e0e1")), XQ_LEGAL);
    assert_int_equal(xq_move_legality(&p, mv("d0c1")), XQ_ILL_PALACE);
    assert_int_equal(xq_move_legality(&p, mv("h2h9")), XQ_LEGAL);          /* cannon takes horse over h7 */
    assert_int_equal(xq_move_legality(&p, mv("h2h6")), XQ_LEGAL);
    assert_int_equal(xq_move_legality(&p, mv("h2h8")), XQ_ILL_PATH_BLOCKED);
    assert_int_equal(xq_move_legality(&p, mv("a0a4")), XQ_ILL_PATH_BLOCKED);
    assert_int_equal(xq_move_legality(&p, mv("a3b3")), XQ_ILL_SOLDIER_SIDEWAYS);
    assert_int_equal(xq_move_legality(&p, mv("a3a2")), XQ_ILL_SOLDIER_BACKWARD);
    read_fen(&p, "3k5/9/9/9/9/9/9/9/1p1p5/1N2K4 w");                      /* B05 + d1 */
    assert_int_equal(xq_move_legality(&p, mv("b0a2")), XQ_ILL_HORSE_LEG);
    assert_int_equal(xq_move_legality(&p, mv("b0d1")), XQ_LEGAL);
    read_fen(&p, "3k5/9/9/9/9/2B6/9/9/3p5/2B1K4 w");
    assert_int_equal(xq_move_legality(&p, mv("c0e2")), XQ_ILL_ELEPHANT_EYE);
    assert_int_equal(xq_move_legality(&p, mv("c4e6")), XQ_ILL_ELEPHANT_RIVER);
    read_fen(&p, "4k4/9/9/9/4r4/9/9/9/9/3RK4 w");
    assert_int_equal(xq_move_legality(&p, mv("e0f0")), XQ_LEGAL);
    assert_int_equal(xq_move_legality(&p, mv("d0d1")), XQ_ILL_LEAVES_CHECK);  /* rook on e5 gives check */
    read_fen(&p, "4k4/9/9/9/9/9/9/9/4R4/3K5 w");
    assert_int_equal(xq_move_legality(&p, mv("d0e0")), XQ_LEGAL);             /* chariot screens */
    assert_int_equal(xq_move_legality(&p, mv("e1f1")), XQ_LEGAL);
    read_fen(&p, "4k4/9/9/9/9/9/9/9/4R4/4K4 w");
    assert_int_equal(xq_move_legality(&p, mv("e1f1")), XQ_ILL_GENERALS_FACE);
    read_fen(&p, "4k4/9/9/9/4C4/9/9/9/9/3K5 w");
    assert_int_equal(xq_move_legality(&p, mv("e5e9")), XQ_ILL_CANNON_SCREEN);
}

static void fen_variants_and_errors(void **state)
{
    (void)state;
    xq_position a, b;
    char fen[XQ_FEN_MAX], err[160];
    read_fen(&a, XQ_START_FEN);
    read_fen(&b, "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r");
    assert_memory_equal(a.board, b.board, sizeof a.board);
    assert_int_equal(a.key, b.key);
    read_fen(&b, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 3 7");
    assert_int_equal(b.side, XQ_BLACK);
    assert_int_equal(b.halfmove, 3);
    assert_int_equal(b.fullmove, 7);
    assert_true(a.key != b.key);
    xq_fen_write(&b, fen, sizeof fen);
    assert_string_equal(fen, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 3 7");

    assert_false(xq_fen_read(&a, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR/9 w", err, sizeof err));
    assert_string_equal(err, "FEN board: more than 10 ranks (column 60)");
    assert_false(xq_fen_read(&a, "rnbakabnr/9/1c5c1/p1p1x1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", err, sizeof err));
    assert_string_equal(err, "FEN board: unexpected 'x' at column 23");
    assert_false(xq_fen_read(&a, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x", err, sizeof err));
    assert_string_equal(err, "FEN side to move: unexpected 'x' at column 61 (w, r or b)");
    assert_false(xq_fen_read(&a, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9", err, sizeof err));
    assert_false(xq_fen_read(&a, "", err, sizeof err));
}

static void impossible_positions(void **state)
{
    (void)state;
    static const struct { const char *fen, *why; } cases[] = {
        {"9/9/9/9/9/9/9/9/9/4K4 w", "no black general"},
        {"4k4/9/9/9/9/9/9/9/9/4K4 w", "the generals face each other"},
        {"4k4/9/9/9/9/9/9/9/4R4/3K5 b", NULL},
        {"4k4/9/9/9/9/9/9/9/9/3K1R3 b", NULL},
        {"4k4/4R4/9/9/9/9/9/9/9/3K5 w", "the side not to move is in check"},
        {"3k5/9/9/9/9/9/9/9/9/K8 w", "a general stands outside its palace"},
        {"4k4/9/9/9/9/9/9/9/9/A2K5 w", "an advisor stands off its points"},
        {"4k4/9/9/9/9/9/9/9/B8/3K5 w", "an elephant stands off its points"},
        {"4k4/9/9/9/9/9/9/9/P8/3K5 w", "a soldier stands behind its start rank"},
        {"3k5/p8/9/9/9/9/9/9/9/4K4 w", "a soldier stands behind its start rank"},
        {"4k4/9/9/9/9/9/9/RRR6/9/3K5 w", "more pieces of a kind than a set has"},
        /* the worst problem first, whatever else is odd: a missing
         * general, then a general the side to move could take */
        {"9/3P5/9/9/9/9/8n/3K5/9/1A7 w", "no black general"},
        {"7B1/3Pk4/9/9/9/9/8n/3K5/9/1A7 w", "the side not to move is in check"},
        {"4k4/9/9/9/9/9/9/9/9/A3K4 w", "the generals face each other"},
        {"3k5/9/9/9/9/9/9/9/B8/3K5 w", "the generals face each other"},
        {"4k4/9/9/9/9/9/9/RRR6/9/A2K5 w", "more pieces of a kind than a set has"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        xq_position p;
        read_fen(&p, cases[i].fen);
        const char *why = xq_position_check(&p);
        if (cases[i].why == NULL) {
            if (why) fail_msg("%s: unexpected %s", cases[i].fen, why);
        } else {
            if (!why || strcmp(why, cases[i].why)) fail_msg("%s: got %s", cases[i].fen, why ? why : "(ok)");
        }
    }
}

static void make_unmake_keys(void **state)
{
    (void)state;
    xq_position p, q;
    xq_position_start(&p);
    q = p;
    xq_undo u1, u2;
    xq_make(&p, mv("h2h9"), &u1);   /* capture */
    assert_int_equal(p.halfmove, 0);
    xq_make(&p, mv("i9h9"), &u2);
    assert_int_equal(p.fullmove, 2);
    /* the key is a function of the position, not of the path */
    xq_position r;
    read_fen(&r, "rnbakabr1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR w - - 0 2");
    assert_int_equal(p.key, r.key);
    assert_memory_equal(p.board, r.board, sizeof p.board);
    xq_unmake(&p, mv("i9h9"), &u2);
    xq_unmake(&p, mv("h2h9"), &u1);
    assert_memory_equal(&p, &q, sizeof p);
}

static void zobrist_table(void **state)
{
    (void)state;
    for (int p = 1; p < 16; p++)
        for (int sq = 0; sq < XQ_SQUARES; sq++) assert_int_equal(xq_zobrist(p, sq), xq_zobrist_formula(p, sq));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(perft_start),
        cmocka_unit_test(perft_positions),
        cmocka_unit_test(cases_legal_move_sets),
        cmocka_unit_test(checkmate_and_stalemate),
        cmocka_unit_test(legality_reasons),
        cmocka_unit_test(fen_variants_and_errors),
        cmocka_unit_test(impossible_positions),
        cmocka_unit_test(make_unmake_keys),
        cmocka_unit_test(zobrist_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
