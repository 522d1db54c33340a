/*
 * search/avoid.c - counting bounds of misère endgames (see avoid.h).
 *
 * Three facts about a misère position carry every rule here. For a side S and the other side T:
 *
 *   1. A poison cell of S (an empty cell completing a window that holds k-1 stones of S and none of T) stays
 *      poison until it is filled: stones are never taken back, so the window keeps its k-1 stones and no
 *      stone of T. S never takes it without losing at once.
 *   2. A cell in no window useful to S (every window through it holds a stone of T, or needs more stones of
 *      S than S has moves left) is safe for S for the rest of the game: a stone of S there completes nothing,
 *      now or later. Such cells stay safe: T's stones only take windows away from S, S's moves only run down.
 *   3. A game that nobody ends by a line fills the board: S places all of its moves left,
 *      ceil(E / 2) of the E empty cells when S is to move, floor(E / 2) otherwise.
 *
 * S's reserved cells are the cells safe for S (2) that are poison for T (1): T cannot take them without
 * losing, so they stay S's until S fills them.
 */
#include "search/avoid.h"

#include "ttt/solve.h"

/* The moves `side` has left if the board fills. */
static int moves_left(const avoid_view *v, int side, int empties)
{
    return side == v->mover ? (empties + 1) / 2 : empties / 2;
}

/*
 * S is safe when it can play only reserved and other safe cells to the end. S plays a safe cell that T may
 * take (a "shared" one) while there is one, else a reserved one. Claim: with S to move, R reserved and N
 * shared cells, and R + ceil(N / 2) >= L moves left for S, S always has such a cell. By induction on L: when
 * L >= 1 the sum is at least 1, so a cell is there; if N >= 1, S takes a shared cell and T's reply takes at
 * most one more (R never shrinks: T cannot take a reserved cell without losing, and both sets only grow by
 * T's stones, which make more cells safe for S), so at S's next turn R + ceil((N - 2) / 2) >= L - 1; if N =
 * 0, S takes a reserved one: R - 1 >= L - 1. With T to move, T's move takes at most one shared cell first: R
 * + floor(N / 2) >= L suffices. Without the shared cells, R >= L suffices (the same induction, N = 0).
 */
bool avoid_safe(const avoid_view *v, int side, bool shared)
{
    if (!v->can[side])
        return true;
    const int other = side ^ 1;
    int reserved = 0, free_safe = 0, empties = 0;
    for (int i = 0; i < TTT_WORDS; i++) {
        uint64_t safe = v->empty.w[i] & ~v->useful[side].w[i];
        reserved += __builtin_popcountll(safe & v->threat[other].w[i]);
        free_safe += __builtin_popcountll(safe & ~v->threat[other].w[i]);
        empties += __builtin_popcountll(v->empty.w[i]);
    }
    int supply = reserved;
    if (shared)
        supply += side == v->mover ? (free_safe + 1) / 2 : free_safe / 2;
    return supply >= moves_left(v, side, empties);
}

/*
 * The bounds:
 *
 *   - S safe: S never loses, so S's score is at least 0 (S to move) or at most 0 (T to move).
 *   - S doomed: T is safe, and fewer cells than S's moves left are not poison for S. Then S loses: with T
 *     playing its safe strategy nobody but S can end the game, and S's stones, placed only on cells that
 *     are not poison at the time (else S loses at once), are distinct cells of the ones not poison now (1:
 *     poison never turns back), too few to last until the board is full (3). The game then ends by S's line
 *     by the time the board is full: S's score is at most -(TTT_SCORE_WIN - cells).
 *
 * Shared cells count in the doomed rule only (5x5k4 misère after c3 b2 d4 b4 a1: 12.0M nodes; 24.3M counted
 * in both rules).
 */
void avoid_bounds(const avoid_view *v, int *lo, int *hi)
{
    const int mover = v->mover, other = mover ^ 1;
    *lo = -AVOID_NONE;
    *hi = AVOID_NONE;
    if (avoid_safe(v, mover, false))
        *lo = 0;
    if (avoid_safe(v, other, false))
        *hi = 0;
    int empties = 0, unpoisoned[2] = {0, 0};
    for (int i = 0; i < TTT_WORDS; i++) {
        empties += __builtin_popcountll(v->empty.w[i]);
        for (int side = 0; side < 2; side++)
            unpoisoned[side] += __builtin_popcountll(v->empty.w[i] & ~v->threat[side].w[i]);
    }
    if (unpoisoned[mover] < moves_left(v, mover, empties) && avoid_safe(v, other, true))
        *hi = -(TTT_SCORE_WIN - v->cells);
    else if (unpoisoned[other] < moves_left(v, other, empties) && avoid_safe(v, mover, true))
        *lo = TTT_SCORE_WIN - v->cells;
}
