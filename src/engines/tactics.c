/* engines/tactics.c - win now, else block now, and the moves that lose at once (see tactics.h). */
#include "engines/tactics.h"

void tactics_lines(const ttt_board *b, ttt_bits *mine, ttt_bits *theirs)
{
    ttt_player me = ttt_board_to_move(b), opp = (ttt_player)(1 - me);
    ttt_move moves[TTT_MAX_CELLS];
    int n = ttt_board_moves(b, moves);
    *mine = *theirs = (ttt_bits){{0}};
    for (int i = 0; i < n; i++) {
        if (ttt_board_makes_line(b, me, moves[i]))
            ttt_bits_set(mine, moves[i]);
        if (ttt_board_makes_line(b, opp, moves[i]))
            ttt_bits_set(theirs, moves[i]);
    }
}

int tactics_threats(const ttt_board *b, ttt_player who, ttt_move *out)
{
    if (!ttt_rules_line_wins(&b->rules))
        return 0;
    int n = 0;
    for (int c = 0; c < b->cells; c++)
        if (!ttt_bits_test(&b->stones[TTT_X], c) && !ttt_bits_test(&b->stones[TTT_O], c) &&
            ttt_board_makes_line(b, who, c))
            out[n++] = c;
    return n;
}

tactics_kind tactics_win_or_block(const ttt_board *b, ttt_move *out, int *count)
{
    ttt_player me = ttt_board_to_move(b);
    if ((*count = tactics_threats(b, me, out)) > 0)
        return TACTICS_WIN;
    if ((*count = tactics_threats(b, (ttt_player)(1 - me), out)) > 0)
        return TACTICS_BLOCK;
    return TACTICS_NONE;
}

int tactics_losing(const ttt_board *b, ttt_bits *out)
{
    *out = (ttt_bits){{0}};
    if (ttt_rules_line_wins(&b->rules))
        return 0;
    ttt_player me = ttt_board_to_move(b);
    ttt_move moves[TTT_MAX_CELLS];
    int n = ttt_board_moves(b, moves), losing = 0;
    for (int i = 0; i < n; i++)
        if (ttt_board_makes_line(b, me, moves[i])) {
            ttt_bits_set(out, moves[i]);
            losing++;
        }
    return losing;
}
