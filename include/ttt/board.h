/*
 * ttt/board.h - a position of an m,n,k-game on bitboards.
 *
 * Cells are numbered in reading order, cell = row * cols + col, row 0 at the top and col 0 at the left. Each
 * side's stones are one bit set of TTT_MAX_CELLS bits (400: 20x20) kept in TTT_WORDS 64-bit words (7; the
 * bits past the last cell stay 0):
 *
 *     3x3:  bit  0 1 2      word 0 holds cells 0..63, word 1 cells 64..127, and so on.
 *               3 4 5      A board of up to 64 cells (every board up to 8x8) lives entirely in word 0,
 *               6 7 8      so hot loops on small boards can work on one uint64_t (see ttt_board_small).
 *
 * X always moves first; the side to move follows from the number of stones. The board remembers whether the
 * last move made a line, so outcome and terminal tests cost nothing; making a move checks only the lines
 * through that cell. Undo takes the cell back and needs no history, because a game stops at its first line:
 * the position before any move was never finished.
 *
 * A ttt_board is a plain value (no pointers): copy it with `=`.
 */
#ifndef TTT_BOARD_H
#define TTT_BOARD_H

#include "ttt/common.h"
#include "ttt/rules.h"

#define TTT_WORDS ((TTT_MAX_CELLS + 63) / 64)

/* A cell index, 0..rows*cols-1, or TTT_NO_MOVE. */
typedef int ttt_move;
#define TTT_NO_MOVE (-1)

typedef enum ttt_player { TTT_X = 0, TTT_O = 1, TTT_NOBODY = 2 } ttt_player;

typedef enum ttt_outcome { TTT_ONGOING = 0, TTT_X_WINS, TTT_O_WINS, TTT_DRAW } ttt_outcome;

typedef struct ttt_bits {
    uint64_t w[TTT_WORDS];
} ttt_bits;

typedef struct ttt_board {
    ttt_rules rules;
    ttt_bits stones[2];    /* [TTT_X], [TTT_O] */
    int ply;               /* stones on the board; X to move when even */
    int cells;             /* rows * cols */
    ttt_player line_owner; /* who completed a line (ending the game), or TTT_NOBODY */
    uint64_t hash;         /* Zobrist hash of the stones, kept up to date by play and undo */
} ttt_board;

/* --- Bit sets ------------------------------------------------------------------------------------------ */

static inline bool ttt_bits_test(const ttt_bits *b, int cell)
{
    return (b->w[cell >> 6] >> (cell & 63)) & 1u;
}
static inline void ttt_bits_set(ttt_bits *b, int cell) { b->w[cell >> 6] |= UINT64_C(1) << (cell & 63); }
static inline void ttt_bits_clear(ttt_bits *b, int cell) { b->w[cell >> 6] &= ~(UINT64_C(1) << (cell & 63)); }
int ttt_bits_count(const ttt_bits *b);
bool ttt_bits_equal(const ttt_bits *a, const ttt_bits *b);
/* Three-way comparison as unsigned numbers of TTT_WORDS words (the last word most significant): <0, 0, >0. */
int ttt_bits_compare(const ttt_bits *a, const ttt_bits *b);

/* --- Setting up ---------------------------------------------------------------------------------------- */

/* Makes *b the empty board of the given rules. Requires ttt_rules_check(rules) == TTT_OK (asserted). */
void ttt_board_init(ttt_board *b, const ttt_rules *rules);

/* True when the whole board fits in word 0 (rows * cols <= 64). */
static inline bool ttt_board_small(const ttt_board *b) { return b->cells <= 64; }

/* How many words of a bit set hold the board's cells, (cells + 63) / 64: loops over a board's bits can stop
 * there (the words after it are 0). */
static inline int ttt_board_words(const ttt_board *b) { return (b->cells + 63) / 64; }

/* --- Reading a position -------------------------------------------------------------------------------- */

/* The side to move. Meaningful only while the game is ongoing (CS50's player()). */
static inline ttt_player ttt_board_to_move(const ttt_board *b) { return (ttt_player)(b->ply & 1); }

/* Who occupies the cell: TTT_X, TTT_O or TTT_NOBODY. Requires 0 <= cell < cells. */
ttt_player ttt_board_at(const ttt_board *b, int cell);

/* The empty cells as a bit set (all of them, even when the game is over). */
ttt_bits ttt_board_empty_cells(const ttt_board *b);

/* The legal moves in increasing cell order, written to out (room for TTT_MAX_CELLS); returns how many.
 * A finished game has none (CS50's actions()). */
int ttt_board_moves(const ttt_board *b, ttt_move *out);

/* True when `cell` is empty and the game is ongoing. Any int is accepted. */
bool ttt_board_is_legal(const ttt_board *b, ttt_move cell);

/* Would `who` complete k in a row by putting a stone on the empty `cell`? Only lines through that cell are
 * examined. Requires the cell to be empty. This is the question "can I win (or must I block) here?". */
bool ttt_board_makes_line(const ttt_board *b, ttt_player who, int cell);

/* Does `who` have k in a row anywhere? A full scan, for positions that come from outside. */
bool ttt_board_has_line(const ttt_board *b, ttt_player who);

/* How the game stands: TTT_ONGOING, a win for either side (a completed line counts for its owner under
 * normal rules and against them under misère), or TTT_DRAW on a full board. */
ttt_outcome ttt_board_outcome(const ttt_board *b);

/* Who wins when `maker` (TTT_X or TTT_O) completes a line under these rules (ttt_rules_line_wins): maker,
 * or under misère the other side. */
ttt_player ttt_board_line_winner(const ttt_rules *rules, ttt_player maker);
/* The winner, or TTT_NOBODY while ongoing or drawn (CS50's winner()). */
ttt_player ttt_board_winner(const ttt_board *b);

/* True when the game is over (CS50's terminal()). */
static inline bool ttt_board_terminal(const ttt_board *b)
{
    return b->line_owner != TTT_NOBODY || b->ply == b->cells;
}

/* The outcome's name in every text the project writes (JSON, the database, the CLI): "ongoing", "x", "o",
 * "draw". */
const char *ttt_outcome_name(ttt_outcome outcome);
/* +1 when X has won, -1 when O has won, 0 otherwise (CS50's utility()). */
int ttt_board_utility(const ttt_board *b);

/* The cells of one completed line (the first found), written to out (room for TTT_MAX_SIDE); returns how
 * many (k), or 0 when nobody has a line. For highlighting the winning line. */
int ttt_board_line_cells(const ttt_board *b, ttt_move *out);

/* --- Changing a position ------------------------------------------------------------------------------- */

/* Puts the side to move's stone on `cell`. Requires ttt_board_is_legal(b, cell) (asserted in debug builds):
 * this is the fast path for engines. */
void ttt_board_play(ttt_board *b, ttt_move cell);

/* Takes back the last move, which must have been `cell` (asserted in debug builds). */
void ttt_board_undo(ttt_board *b, ttt_move cell);

/* The checked move for input from outside: TTT_EINVAL with the reason ("cell b2 is taken", "the game is
 * over", "cell 12 is off the 3x3 board") and the board unchanged, or TTT_OK with the move made. */
ttt_status ttt_board_play_checked(ttt_board *b, ttt_move cell, ttt_error *err);

/* CS50's result(): *out becomes b with `cell` played; b itself is not modified. Errors as play_checked. */
ttt_status ttt_board_result(const ttt_board *b, ttt_move cell, ttt_board *out, ttt_error *err);

/* --- Building and checking a position from outside ----------------------------------------------------- */

/* Makes *b the position with exactly these stones, whatever they are: counts, hash and line owner are
 * derived. Use ttt_board_validate before trusting it. Requires valid rules. */
void ttt_board_from_bits(ttt_board *b, const ttt_rules *rules, const ttt_bits *x, const ttt_bits *o);

/* Checks that a position could arise in a real game, with the specific reason when not: impossible piece
 * counts (X moves first, so X has as many stones as O or one more), both sides with a line, or play that
 * went on after the game had ended (the side that made a line must have made the last move, with a single
 * stone whose removal undoes every line). */
ttt_status ttt_board_validate(const ttt_board *b, ttt_error *err);

/* --- Hashing ------------------------------------------------------------------------------------------- */

/* The Zobrist key of a stone: a fixed function of side and cell (no table, no global state). The hash of
 * a position is the XOR of the keys of its stones; the empty board hashes to 0. */
uint64_t ttt_zobrist_key(ttt_player who, int cell);

/* The hash recomputed from scratch (equals b->hash; for tests and for boards built by hand). */
uint64_t ttt_board_hash_full(const ttt_board *b);

bool ttt_board_equal(const ttt_board *a, const ttt_board *b);

#endif
