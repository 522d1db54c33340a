/*
 * ttt/playout.h - fast random playouts: uniformly random legal moves from a position to the end of the game.
 *
 * A ttt_playout is built once per rules (tables of the board's lines) and then pointed at a start position;
 * each run plays a random game from there and says how it ended. It is the engine of the Monte Carlo players
 * and a benchmark of its own. The caller owns it and its random generator: a playout context holds no global
 * state, is not shared between threads, and the same seed and sequence of calls give the same games.
 *
 * Every run is a uniformly random game: each move is chosen uniformly among the empty cells, the side to
 * move alternating, until a side completes k in a row or the board is full. Who wins when a line is made
 * (normal or misère) is what ttt_board_outcome says.
 */
#ifndef TTT_PLAYOUT_H
#define TTT_PLAYOUT_H

#include "ttt/board.h"
#include "ttt/rng.h"

typedef struct ttt_playout ttt_playout;

/* Builds the context for a set of rules (any valid rules, up to 20x20). On success *out owns it; free it
 * with ttt_playout_free. TTT_EINVAL for invalid rules, TTT_ENOMEM when an allocation fails. The start
 * position is the empty board until ttt_playout_set_position. */
ttt_status ttt_playout_new(const ttt_rules *rules, ttt_playout **out, ttt_error *err);

/* Releases the context. NULL is allowed. */
void ttt_playout_free(ttt_playout *p);

/* Makes b the start position of the following runs. b must have the context's rules (asserted); it may be
 * finished, in which case every run plays no move and returns its outcome. */
void ttt_playout_set_position(ttt_playout *p, const ttt_board *b);

/* Plays one random game from the start position with randomness drawn only from rng. Returns the outcome
 * (never TTT_ONGOING). When final is not NULL, final[TTT_X] and final[TTT_O] receive each side's stones at
 * the end of the game, the start position's included. */
ttt_outcome ttt_playout_run(ttt_playout *p, ttt_rng *rng, ttt_bits *final);

/* The moves of the last run, in the order played, written to out (room for TTT_MAX_CELLS); returns how
 * many. For checking and for replaying a playout on a ttt_board. */
int ttt_playout_last_moves(const ttt_playout *p, ttt_move *out);

#endif
