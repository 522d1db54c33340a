/*
 * search/avoid.h - counting bounds of misère endgames: who can be made to complete a line of their own.
 *
 * Under misère a side loses by completing a line, so it loses only at a turn where every empty cell it may
 * take completes one of its lines (its "poison" cells). Counting the cells each side can always take safely,
 * and the cells it can take at all, bounds the value without a search. Internal to the solver (not part of
 * the public interface); the tests use it directly.
 */
#ifndef TTT_SEARCH_AVOID_H
#define TTT_SEARCH_AVOID_H

#include <stdbool.h>

#include "ttt/board.h"

/* One position as the solver reads it, for sides 0 (X) and 1 (O). */
typedef struct avoid_view {
    ttt_bits empty;     /* the empty cells */
    ttt_bits useful[2]; /* cells of every window the side can still complete: free of the other side's
                           stones and needing no more stones than the side has moves left */
    ttt_bits threat[2]; /* empty cells where the side would complete a line now (its poison) */
    bool can[2];        /* false: the side is already known never to have to complete a line */
    int mover;          /* the side to move */
    int cells;          /* cells of the board: a game ends at the latest after this many stones */
} avoid_view;

/* Bounds of the mover's score (scores as in ttt/solve.h: a win ending after E stones in all scores
 * TTT_SCORE_WIN - E, a loss its negation, a draw 0) that the counting proves: *lo <= score <= *hi. Writes
 * -AVOID_NONE / AVOID_NONE where nothing is proven. Does not look at whether the game is over already: the
 * caller has handled a mover without a move that completes no line. */
#define AVOID_NONE 32000
void avoid_bounds(const avoid_view *v, int *lo, int *hi);

/* Whether `side` has a strategy that never completes a line of its own: v->can[side] is false, or its
 * reserved cells suffice for every move it has left (avoid.c tells why); with `shared`, also counting half of
 * the cells it can always take safely but the other side may take first. */
bool avoid_safe(const avoid_view *v, int side, bool shared);

#endif
