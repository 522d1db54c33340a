/*
 * engines/tactics.h - one-move tactics on a ttt_board, shared by the engines that play them before their own
 * method (heuristic guard=1, learner, table, mcts's expansion): win now, else block now, and the moves that
 * lose at once under misère. Whom a line counts for is ttt_rules_line_wins's to say; nothing here reads
 * misère itself.
 */
#ifndef TTT_ENGINES_TACTICS_H
#define TTT_ENGINES_TACTICS_H

#include "ttt/board.h"

/* What tactics_win_or_block found. */
typedef enum tactics_kind {
    TACTICS_NONE = 0, /* neither */
    TACTICS_WIN,      /* moves that win at once */
    TACTICS_BLOCK,    /* cells where the opponent would win at once */
} tactics_kind;

/* The cells where b's side to move (mine) and the other side (theirs) would complete a line by playing
 * there, whatever the line means. b is ongoing. */
void tactics_lines(const ttt_board *b, ttt_bits *mine, ttt_bits *theirs);

/* The empty cells where `who` (either side) would complete a line that wins for it, in increasing cell order,
 * written to out (room for TTT_MAX_CELLS); returns how many. None where a line loses (misère). */
int tactics_threats(const ttt_board *b, ttt_player who, ttt_move *out);

/* Win now, else block now: the moves of b's side to move (b ongoing) that win at once, else the cells where
 * the opponent would win at once, in increasing cell order, written to out (room for TTT_MAX_CELLS) with
 * their count in *count (0 with TACTICS_NONE). */
tactics_kind tactics_win_or_block(const ttt_board *b, ttt_move *out, int *count);

/* The moves of b's side to move (b ongoing) that complete a line of its own that loses (misère; none under
 * normal rules), set in *out; returns how many. */
int tactics_losing(const ttt_board *b, ttt_bits *out);

#endif
