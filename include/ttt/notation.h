/*
 * ttt/notation.h - positions and moves as text.
 *
 * A position is its rows from top to bottom separated by '/', each cell 'x', 'o' or '.', e.g. `x.o/.x./..o`
 * (upper case is accepted on input; output is lower case). It round-trips: format(parse(s)) == lower(s).
 *
 * A move is written column letter then row number, `a1` being the top-left cell: column a is the left
 * column, row 1 the top row (so `b2` is the centre of 3x3, and `c1` the top-right corner). On 3x3 the digits
 * 1 to 9 in reading order are accepted as well, as the seed games number their cells:
 *
 *     1 2 3        a1 b1 c1
 *     4 5 6   ==   a2 b2 c2
 *     7 8 9        a3 b3 c3
 *
 * A move sequence is moves separated by spaces or commas: `b2 a1 c3` or `5,1,9`.
 */
#ifndef TTT_NOTATION_H
#define TTT_NOTATION_H

#include "ttt/board.h"

/* Room for the longest position text: 20 rows of 20 cells, 19 slashes, terminator. */
#define TTT_POSITION_TEXT_SIZE (TTT_MAX_CELLS + TTT_MAX_SIDE)
/* Room for a move text such as "t20". */
#define TTT_MOVE_TEXT_SIZE 8

/* Parses a position and validates it (ttt_board_validate). With rules non-NULL the text must have that
 * shape; with rules NULL the shape is taken from the text, with k = min(rows, cols) and normal rules.
 * Errors (TTT_EINVAL) say what and where: "position: bad character 'q' at row 2, column 3",
 * "position: row 2 has 4 cells, expected 3", "position: O has 2 stones and X 0: ...". */
ttt_status ttt_position_parse(const char *text, const ttt_rules *rules, ttt_board *out, ttt_error *err);

/* Writes the position text into buf (TTT_POSITION_TEXT_SIZE bytes suffice). Returns buf. */
char *ttt_position_format(const ttt_board *b, char *buf, size_t size);

/* Parses one move for the given rules into a cell index. Accepts `a1` style (letters case-insensitive) and,
 * on 3x3 only, a single digit 1-9. Errors name the text and the reason: "move 'd1': column d is off the 3x3
 * board". It does not check that the cell is empty: see ttt_board_play_checked. */
ttt_status ttt_move_parse(const char *text, const ttt_rules *rules, ttt_move *out, ttt_error *err);

/* Writes the `a1` form of a cell (TTT_MOVE_TEXT_SIZE bytes suffice). Returns buf; "-" for TTT_NO_MOVE. */
char *ttt_move_format(const ttt_rules *rules, ttt_move cell, char *buf, size_t size);

/* Room for the longest move sequence text: every cell, up to 3 characters and a separator each. */
#define TTT_MOVES_TEXT_SIZE (TTT_MAX_CELLS * 4 + 1)

/* Writes count moves as "b2 a1 c3" (space-separated a1 forms) into buf, truncated to size (use
 * TTT_MOVES_TEXT_SIZE). Returns buf. */
char *ttt_moves_format(const ttt_rules *rules, const ttt_move *moves, int count, char *buf, size_t size);

/* Parses a move sequence into out (room for max moves); *count receives how many. Errors name the
 * position in the sequence: "moves: move 3 'z1': column z is off the 3x3 board". Legality is not checked. */
ttt_status ttt_moves_parse(const char *text, const ttt_rules *rules, ttt_move *out, int max, int *count,
                           ttt_error *err);

/* Plays a parsed sequence from the empty board, checking every move ("moves: move 4 'b2': cell b2 is
 * taken"). On failure *out holds the position before the bad move. */
ttt_status ttt_moves_replay(const ttt_rules *rules, const ttt_move *moves, int count, ttt_board *out,
                            ttt_error *err);

#endif
