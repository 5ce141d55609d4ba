/* test_reader_nodes.c - the record reader's main-line node arrays
 * (pgn_read.c main_nodes_take, record_end): each record is read into the
 * array the game's last record used, the reader's other array kept by
 * the game meanwhile.  Checked here:
 *  - one game read again and again (the -j 1 loop), a ring of three
 *    games (the pipeline's slots) and a fresh game per record give the
 *    same records, field by field (same_game), on the corpora, the
 *    repository's records and crafted records whose main lines grow past
 *    the array's first size, shrink, and hold variations and comments;
 *  - a game of the ring keeps its record while the others are read (no
 *    array is shared by two games or by a game and the reader);
 *  - the game read again and again gets the same array every record
 *    while no record needs a larger one (the point of the change). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

enum { RING = 3 };

/* What a file's read gave: records, and records read into the same
 * array as the record before (the game read again and again). */
typedef struct {
    size_t records, same_array, grown;
} nodes_tally;

/* Read path with three readers in step: one game for every record (a),
 * a ring of RING games (b), a fresh game per record (c, the last RING
 * kept); each record must be the same in all three, and each game of
 * the ring still the same as its fresh twin after the next RING - 1
 * records are read into the other games.  At most max records (0: all). */
static void read_three(const char *path, size_t max, nodes_tally *t)
{
    skip_without_shared(path);
    xq_reader *ra = xqt_reader_open(path), *rb = xqt_reader_open(path), *rc = xqt_reader_open(path);
    xq_game a, b[RING], c[RING];
    xq_game_init(&a);
    for (int i = 0; i < RING; i++) {
        xq_game_init(&b[i]);
        xq_game_init(&c[i]);
    }
    const xq_node *last = NULL;   /* a's array of the last record with nodes */
    size_t most = 0;              /* the most nodes of a's records so far */
    for (size_t n = 0; !max || n < max; n++) {
        size_t k = n % RING;
        xq_game_free(&c[k]);   /* (a fresh game per record) */
        xq_game_init(&c[k]);
        int sa = xq_reader_next(ra, &a), sb = xq_reader_next(rb, &b[k]), sc = xq_reader_next(rc, &c[k]);
        assert_int_equal(sa, sc);
        assert_int_equal(sb, sc);
        if (sc != 1) break;
        same_game(&a, &c[k]);
        same_game(&b[k], &c[k]);
        for (size_t j = 1; j < RING && j <= n; j++)   /* the ring's other records, kept */
            same_game(&b[(n - j) % RING], &c[(n - j) % RING]);
        if (a.main.count) {
            if (last && a.main.count <= most) {
                assert_ptr_equal(a.main.nodes, last);   /* the same array, not grown */
                t->same_array++;
            } else if (last) {
                t->grown++;
            }
            last = a.main.nodes;
            if (a.main.count > most) most = a.main.count;
        }
        t->records++;
    }
    xq_game_free(&a);
    for (int i = 0; i < RING; i++) {
        xq_game_free(&b[i]);
        xq_game_free(&c[i]);
    }
    xq_reader_close(ra);
    xq_reader_close(rb);
    xq_reader_close(rc);
}

/* The ccpd corpora (Big5, gzip): many records, the pair-line runs. */
static void test_corpora(void **state)
{
    (void)state;
    nodes_tally t = {0};
    read_three(XQ_SHARED "/corpus/ccpd/middlegames.pgn.gz", 0, &t);
    read_three(XQ_SHARED "/corpus/ccpd/endgames.pgn.gz", 0, &t);
    read_three(XQ_SHARED "/corpus/ccpd/masters.pgn.gz", 3000, &t);
    assert_true(t.records > 4000);
    assert_true(t.same_array > t.records / 2);
}

/* The repository's records: broken ones, variations, comments, other
 * notations and encodings. */
static void test_repository(void **state)
{
    (void)state;
    static const char *const files[] = {
        "corpus/broken.pgn", "corpus/edge-cases.pgn", "corpus/sample-games.pgn",
        "tests/data/big5.pgn", "tests/data/big5.pgn.gz", "tests/data/gbk.pgn",
        "tests/data/bom.pgn", "tests/data/repetition-cases.pgn", "tests/data/stats-swiss.pgn",
        "corpus/broken/invalid-big5.pgn", "corpus/broken/gzip-truncated.pgn.gz",
    };
    nodes_tally t = {0};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) read_three(files[i], 0, &t);
    assert_true(t.records >= 19);
}

/* Append to o a record of `plies` plies (a chariot back and forth, so
 * that long records stay legal moves), with a variation and a comment
 * after its first move when asked. */
static void put_record(out_file *o, int index, int plies, bool extras)
{
    char line[256];
    snprintf(line, sizeof line, "[Event \"crafted %d\"]\n[Result \"*\"]\n\n", index);
    put(o, line);
    static const char *const moves[] = {"車一進一", "車９進１", "車一退一", "車９退１"};
    for (int i = 0; i < plies; i++) {
        if (i % 2 == 0) {
            snprintf(line, sizeof line, "%d. ", i / 2 + 1);
            put(o, line);
        }
        put(o, moves[i % 4]);
        if (extras && i == 0) put(o, " {a comment} (1. 炮二平五 {inside}) ");
        put(o, i % 2 ? "\n" : " ");
    }
    put(o, plies % 2 ? "\n*\n\n" : "*\n\n");
}

/* Crafted records whose main lines grow past the node array's first
 * size (128), shrink, grow again, with variations and comments now and
 * then, and records without moves. */
static void test_crafted(void **state)
{
    (void)state;
    static const int plies[] = {10, 0, 130, 5, 300, 2, 0, 129, 257, 1, 600, 40, 3, 0, 90};
    static const char *const enc[] = {NULL, "CP950", "GBK"};   /* (NULL: UTF-8) */
    for (size_t e = 0; e < sizeof enc / sizeof enc[0]; e++) {
        out_file o = {0};
        o.cd = enc[e] ? iconv_open(enc[e], "UTF-8") : (iconv_t)-1;
        assert_true(!enc[e] || o.cd != (iconv_t)-1);
        for (int round = 0; round < 3; round++)
            for (size_t i = 0; i < sizeof plies / sizeof plies[0]; i++)
                put_record(&o, (int)i, plies[i], (i + (size_t)round) % 3 == 0);
        if (enc[e]) iconv_close(o.cd);
        char path[64];
        save_tmp(o.p, o.len, path);
        nodes_tally t = {0};
        read_three(path, 0, &t);
        assert_int_equal(t.records, 3 * (sizeof plies / sizeof plies[0]));
        assert_true(t.same_array > 0);
        assert_true(t.grown > 0);
        unlink(path);
        free(o.p);
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    xqt_chdir_to_root(argv[0], "corpus");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpora),
        cmocka_unit_test(test_repository),
        cmocka_unit_test(test_crafted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
