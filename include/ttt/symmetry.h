/*
 * ttt/symmetry.h - the symmetries of the board.
 *
 * A square board has the 8 symmetries of the square (the dihedral group D4); a rectangle has 4 (identity,
 * the two mirrors and the half turn). A symmetry is a number 0..7 whose bits say what it does to a cell
 * (row, col), in this order:
 *
 *     bit 2 (TTT_SYM_TRANSPOSE)  swap row and col           (square boards only)
 *     bit 1 (TTT_SYM_FLIP_ROWS)  row -> rows - 1 - row      (upside down)
 *     bit 0 (TTT_SYM_FLIP_COLS)  col -> cols - 1 - col      (left-right mirror)
 *
 *     0 identity  1 mirror  2 flip  3 rot180  4 transpose  5 rot90 (clockwise)  6 rot270  7 antitranspose
 *
 * So the symmetries valid on every board are 0..3, and 4..7 need rows == cols.
 */
#ifndef TTT_SYMMETRY_H
#define TTT_SYMMETRY_H

#include "ttt/board.h"

typedef int ttt_sym;

#define TTT_SYM_FLIP_COLS 1
#define TTT_SYM_FLIP_ROWS 2
#define TTT_SYM_TRANSPOSE 4
#define TTT_SYM_ALL       8 /* number of symmetries of a square */

/* How many symmetries the board has: 8 when square, 4 otherwise. The valid ones are 0..count-1. */
int ttt_sym_count(const ttt_rules *rules);

/* A short name: "identity", "mirror", "flip", "rot180", "transpose", "rot90", "rot270", "antitranspose". */
const char *ttt_sym_name(ttt_sym s);

/* The symmetry that does b first, then a. */
ttt_sym ttt_sym_compose(ttt_sym a, ttt_sym b);

/* The symmetry that undoes s. */
ttt_sym ttt_sym_inverse(ttt_sym s);

/* Where s takes a cell (TTT_NO_MOVE stays TTT_NO_MOVE). Requires s < ttt_sym_count(rules). */
ttt_move ttt_sym_move(const ttt_rules *rules, ttt_sym s, ttt_move cell);

/* Applies s to a sequence of count moves; in and out may be the same array. */
void ttt_sym_moves(const ttt_rules *rules, ttt_sym s, const ttt_move *in, int count, ttt_move *out);

/* The canonical form of a move sequence: of its images under the board's symmetries, the lexicographically
 * least (compared move by move as cell numbers). Writes it to out (may be moves) and returns a symmetry that
 * maps the sequence onto it. Every prefix of the canonical form is the canonical form of that prefix, so
 * canonical sequences share prefixes exactly when the games they record pass through images of the same
 * move order (the learner's memory relies on this). */
ttt_sym ttt_sym_sequence_canonical(const ttt_rules *rules, const ttt_move *moves, int count, ttt_move *out);

/* Applies s to a bit set of cells. */
ttt_bits ttt_sym_bits(const ttt_rules *rules, ttt_sym s, const ttt_bits *in);

/* *out becomes the image of b under s (out may be b). The line owner, ply and outcome are preserved. */
void ttt_sym_board(const ttt_board *b, ttt_sym s, ttt_board *out);

/* The canonical form: of all the images of b, the one whose (X stones, O stones) compare smallest as numbers
 * (ttt_bits_compare). Writes it to out (may be NULL) and returns a symmetry that maps b onto it. All images
 * of a position have the same canonical form. */
ttt_sym ttt_board_canonical(const ttt_board *b, ttt_board *out);

/* The hash of the canonical form: equal for all images of a position. */
uint64_t ttt_board_canonical_hash(const ttt_board *b);

#endif
