/* position.h - the Xiangqi rules core: board, pieces, moves, FEN, legality.
 *
 * Coordinates follow ICCS (CXA1999 §1.1, formats.md §1c): files a..i = 0..8
 * from Red's left, ranks 0..9 from Red's side.  A square is rank * 9 + file
 * (0..89); a9 is 81, i0 is 8.
 *
 * A move is 16 bits: from | to << 7 (both 0..89); XQ_MOVE_NONE (0) is never
 * a real move because a piece never moves from a0 to a0.
 */
#ifndef XQ_POSITION_H
#define XQ_POSITION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { XQ_FILES = 9, XQ_RANKS = 10, XQ_SQUARES = 90 };

typedef enum { XQ_RED = 0, XQ_BLACK = 1 } xq_color;

/* Piece kinds, CXA1999 §1.2: general, advisor, elephant, horse, chariot,
 * cannon, soldier.  A piece on the board is kind | color << 3; 0 is empty. */
typedef enum {
    XQ_NONE = 0,
    XQ_GENERAL = 1, XQ_ADVISOR, XQ_ELEPHANT, XQ_HORSE, XQ_CHARIOT, XQ_CANNON, XQ_SOLDIER
} xq_kind;

typedef uint8_t xq_piece;
#define XQ_PIECE(kind, color) ((xq_piece)((kind) | ((color) << 3)))
#define XQ_KIND(p)  ((xq_kind)((p) & 7))
#define XQ_COLOR(p) ((xq_color)((p) >> 3))

#define XQ_SQ(file, rank) ((file) + (rank) * 9)
#define XQ_FILE(sq) ((sq) % 9)
#define XQ_RANK(sq) ((sq) / 9)

typedef uint16_t xq_move;
#define XQ_MOVE_NONE ((xq_move)0)
#define XQ_MOVE(from, to) ((xq_move)((from) | ((to) << 7)))
#define XQ_FROM(m) ((int)((m) & 127))
#define XQ_TO(m)   ((int)((m) >> 7))

/* Upper bound of the moves xq_legal_moves can return for any board the FEN
 * reader accepts, however impossible (nine chariots give 153): a piece has
 * at most 17 moves, and a square can be reached from at most 24 squares
 * (per direction a first piece and a cannon behind its screen, 4 advisor,
 * 4 elephant and 8 horse points), so p pieces of the mover have at most
 * min(17 p, 24 (90 - p)) <= 888 moves.  Legal positions stay far lower. */
enum { XQ_MAX_MOVES = 1024 };

/* A position.  Plain value: copy it freely.  `key` is the Zobrist hash of
 * board and side to move, kept incrementally by xq_make.
 *
 * board[], fboard[] and the occupancy masks are read-only outside position.c and
 * movegen.c: change pieces only with xq_position_clear / xq_position_put /
 * xq_make / xq_unmake, which keep fboard and the masks equal to the board (a board
 * written directly makes check tests and move generation wrong). */
enum { XQ_FBOARD_SIZE = 96 };   /* 90 squares and 6 zero bytes: see fboard */

typedef struct {
    xq_piece board[XQ_SQUARES];
    /* The same board file-major: fboard[file * 10 + rank] == board[(file,
     * rank)], so the 10 squares of a file are contiguous and one 16-byte
     * load compares them all (notation_internal.h's
     * xqn_only_rank_on_file, once a ply); bytes 90..95 stay 0.  Kept by
     * everything that writes board[] (repetition.h's light make and
     * unmake too); xq_position_masks_ok checks it. */
    xq_piece fboard[XQ_FBOARD_SIZE];
    uint8_t general[2];     /* square of each general (valid positions have both) */
    xq_color side;          /* side to move */
    int halfmove;           /* plies since the last capture (CXA1999 §4.2.4) */
    int fullmove;           /* move number, from 1; increments after Black moves */
    uint64_t key;
    /* Occupancy derived from board[], for the line scans of movegen.c:
     * bit f of rank_occ[r] and bit r of file_occ[f] are set when square
     * (f, r) holds a piece. */
    uint16_t rank_occ[XQ_RANKS];
    uint16_t file_occ[XQ_FILES];
} xq_position;

/* What xq_make saves so xq_unmake can restore; owned by the caller. */
typedef struct {
    xq_piece captured;
    int halfmove;
    uint64_t key;
} xq_undo;

extern const char XQ_START_FEN[];

/* Why a move is not legal (CXA1999 §2.2-2.3, §3.1, §4.1.2).  XQ_LEGAL is 0. */
typedef enum {
    XQ_LEGAL = 0,
    XQ_ILL_NO_PIECE,           /* no piece on the from-square */
    XQ_ILL_WRONG_SIDE,         /* the piece belongs to the side not to move */
    XQ_ILL_OWN_PIECE,          /* the target holds a piece of the mover's colour */
    XQ_ILL_GEOMETRY,           /* that piece cannot move so */
    XQ_ILL_PALACE,             /* general or advisor would leave the palace */
    XQ_ILL_HORSE_LEG,          /* horse leg blocked */
    XQ_ILL_ELEPHANT_EYE,       /* elephant eye blocked */
    XQ_ILL_ELEPHANT_RIVER,     /* elephant may not cross the river */
    XQ_ILL_PATH_BLOCKED,       /* chariot or cannon move through a piece */
    XQ_ILL_CANNON_SCREEN,      /* cannon capture needs exactly one screen */
    XQ_ILL_SOLDIER_SIDEWAYS,   /* soldier may not move sideways before the river */
    XQ_ILL_SOLDIER_BACKWARD,   /* soldier may not move backward */
    XQ_ILL_LEAVES_CHECK,       /* the mover's general would be attacked */
    XQ_ILL_GENERALS_FACE,      /* the generals would face each other */
    XQ_ILL_COUNT
} xq_illegal;

/* Short English phrase for a reason, e.g. "horse leg blocked"; static storage. */
const char *xq_illegal_str(xq_illegal why);

/* Set *pos to the standard start position, Red to move. */
void xq_position_start(xq_position *pos);

/* Clear the board (no pieces); side Red, counters 0/1.  For building positions. */
void xq_position_clear(xq_position *pos);

/* Put piece p (or XQ_NONE) on square sq, updating key and general squares. */
void xq_position_put(xq_position *pos, int sq, xq_piece p);

/* Set *pos to the n pieces at pairs (2 bytes each: a square < XQ_SQUARES,
 * then its piece; each square at most once) on an empty board, side Red,
 * counters 0/1 (as xq_position_clear), general squares as
 * xq_position_put would leave them, and key taken as given, not worked
 * out: it must be the Zobrist key of that board with Red to move, or of
 * the board and side the caller then sets (a key kept from the position
 * the pairs were taken from).  One write per piece to the board, fboard
 * and the masks, where xq_position_put on each also updates the key: for
 * restoring a position kept as its pieces (the line memo, replay.c). */
void xq_position_place(xq_position *pos, const uint8_t *pairs, unsigned n, uint64_t key);

/* True when what *pos derives from its board agrees with it: the
 * occupancy masks, and the file-major copy fboard with its 6 tail bytes 0
 * (for tests). */
bool xq_position_masks_ok(const xq_position *pos);

/* Zobrist key of piece p on square sq (a table lookup), and the formula
 * the table was generated from (for its test). */
uint64_t xq_zobrist(xq_piece p, int sq);
uint64_t xq_zobrist_formula(xq_piece p, int sq);

/* Set the side to move, updating the key. */
void xq_position_set_side(xq_position *pos, xq_color side);

/* --- FEN (fen.c) ------------------------------------------------------ */

/* Parse a FEN into *pos.  Accepts every variant in formats.md §1d: B or E
 * for elephant, N or H for horse, side w/r (Red) or b (Black), only the
 * first two fields, any trailing "- - H F".  On failure returns false and
 * writes a one-line reason naming the field and character into err
 * (err_size bytes, may be 0).  Does not check that the position is
 * possible: see xq_position_check. */
bool xq_fen_read(xq_position *pos, const char *fen, char *err, size_t err_size);

/* xq_fen_read, also telling where it failed: *at is the 1-based byte
 * column in fen of the character at fault (the one the message names),
 * 0 when no one character is (the board ends too early) or on success;
 * for a finding placed at that character of a FEN tag (replay.c). */
bool xq_fen_read_at(xq_position *pos, const char *fen, char *err, size_t err_size, long *at);

/* Write the standard FEN (RNBAKCP letters, w/b, "- - halfmove fullmove") into
 * buf; needs at most XQ_FEN_MAX bytes.  Returns the length written. */
enum { XQ_FEN_MAX = 128 };
size_t xq_fen_write(const xq_position *pos, char *buf, size_t size);

/* Check that a position could arise under the rules: one general per side in
 * its palace, advisors/elephants on their points, soldiers not behind their
 * start rank, piece counts within a set, generals not facing, the side not
 * to move not in check.  Returns NULL or a static reason string, the
 * worst problem first: a missing general, then a general the side to move
 * could take (generals facing, the side not to move in check), then the
 * counts, then the first piece off its squares. */
const char *xq_position_check(const xq_position *pos);

/* --- Move generation and legality (movegen.c) ------------------------- */

/* True when square sq is attacked by any piece of colour by (flying general
 * included: a general "attacks" along an open file). */
bool xq_attacked(const xq_position *pos, int sq, xq_color by);

/* True when the general of colour c is attacked (or faces the other general). */
bool xq_in_check(const xq_position *pos, xq_color c);

/* Generate the legal moves of the side to move into moves[XQ_MAX_MOVES];
 * returns the count. */
int xq_legal_moves(const xq_position *pos, xq_move *moves);

/* Legal moves of the piece on square from only (same rules). */
int xq_legal_moves_from(const xq_position *pos, int from, xq_move *moves);

/* Whether the side to move has at least one legal move (CXA1999 §2.2,
 * §3.1, §4.1.2; any board, however impossible).  Cheaper than generating
 * them all: the first legal one of a few likely moves answers (a one-step
 * move of a chariot, cannon or soldier, a step of the general), then the
 * full search. */
bool xq_has_legal_move(const xq_position *pos);

/* xq_has_legal_move when the caller knows whether the side to move is in
 * check: in_check must equal xq_in_check(pos, pos->side) (an xq_checks
 * kept along the game knows it).  Same answer without that test; a wrong
 * in_check gives wrong answers. */
bool xq_has_legal_move_known(const xq_position *pos, bool in_check);

/* Full legality of a move for the side to move, with the first reason it
 * fails (CXA1999 §2.2-2.3 geometry, then §3.1 / §4.1.2). */
xq_illegal xq_move_legality(const xq_position *pos, xq_move m);

/* xq_move_legality when the caller knows whether the side to move is in
 * check: in_check must equal xq_in_check(pos, pos->side) (an xq_checks
 * kept along the game knows it).  Same result; not in check, a move off
 * its own general's file, rank and horse legs costs no attack test.  A
 * wrong in_check gives wrong answers. */
xq_illegal xq_move_legality_known(const xq_position *pos, xq_move m, bool in_check);

/* The own-general test of xq_move_legality_known(pos, m, false), alone:
 * for a move from -> to whose geometry xq_move_legality accepts (CXA1999
 * §2.2-2.3), of a piece other than a general, by the side to move when it
 * is NOT in check.  True when its general is then neither attacked nor
 * facing the other one (§3.1, §4.1.2), i.e. exactly when
 * xq_move_legality_known(pos, XQ_MOVE(from, to), false) == XQ_LEGAL.
 * Most moves touch none of the general's lines and horse legs: two table
 * reads.  For readers that have checked the geometry themselves (the
 * Chinese fast path); wrong premises give wrong answers. */
bool xq_quiet_move_safe(const xq_position *pos, int from, int to);

/* The own-general test of xq_move_legality alone, for any side to move
 * (in check or not) and any mover, the general too: for a move from -> to
 * whose geometry xq_move_legality accepts (CXA1999 §2.2-2.3), true when
 * the mover's general is then neither attacked nor facing the other one
 * (§3.1, §4.1.2), i.e. exactly when xq_move_legality(pos, XQ_MOVE(from,
 * to)) == XQ_LEGAL.  The full attack test, without the geometry the
 * caller has checked (the Chinese fast path): on a copy of the board with
 * the move made, for a general's step on the board itself (is `to`
 * attacked).  Wrong premises give wrong answers. */
bool xq_move_safe(const xq_position *pos, int from, int to);

/* Whether each side is in check (xq_in_check), kept along a game so that
 * every ply need not test it: xq_checks_init once on the start position
 * (any board, however impossible: two full tests), then xq_checks_after
 * after each legal move.  Plain value owned by the caller. */
typedef struct {
    bool in_check[2];   /* by colour */
} xq_checks;

/* A move made and what it took: the move (XQ_MOVE_NONE: none, nothing
 * changed) and the piece it captured (XQ_NONE for none), as
 * xq_move_read_play_desc (notation.h) and the make-and-check helpers of
 * board_tables.h return them.  Returned by value: two registers, no
 * memory. */
typedef struct {
    xq_move move;
    xq_piece captured;
} xq_played;

void xq_checks_init(xq_checks *s, const xq_position *pos);

/* Update *s for the position pos that the legal move m (legal by
 * xq_move_legality in the position before, which *s described) has just
 * led to: the mover is not in check; the side now to move is when m
 * attacked its general, looked at only on the lines and horse legs m
 * changed (a full test when that side was in check already, which only an
 * impossible start allows).  Undefined for an illegal m. */
void xq_checks_after(xq_checks *s, const xq_position *pos, xq_move m);

/* xq_make and xq_checks_after in one step, for a replay that never
 * unmakes: play m (legal in *pos, which *s describes), update *s for the
 * position it leads to, and return the piece m captured (XQ_NONE for
 * none).  Same position and check state as the two calls. */
xq_piece xq_play(xq_position *pos, xq_move m, xq_checks *s);

/* Play m (must be pseudo-legal) and save what is needed to undo it. */
void xq_make(xq_position *pos, xq_move m, xq_undo *u);
void xq_unmake(xq_position *pos, xq_move m, const xq_undo *u);

/* Count the leaf nodes of the legal move tree to depth plies (perft; 1
 * for depth <= 0), on any board the FEN reader accepts.  *pos is played
 * on and restored (a board with two generals of a side may come back
 * with general[] naming the other one, as xq_unmake leaves it).  A board
 * with one general of each side whose side not to move is not in check
 * takes the fast count (pieces kept in lists, the leaves' parents
 * counting their legal moves without listing them, most of them without
 * a test); any other the plain one (every pseudo-legal move tested). */
uint64_t xq_perft(xq_position *pos, int depth);

#endif
