/*
 * search/solve_tune.h - the solver's internal settings that tests turn (not part of the library's
 * interface).
 */
#ifndef TTT_SEARCH_SOLVE_TUNE_H
#define TTT_SEARCH_SOLVE_TUNE_H

#include <stdint.h>

#include "ttt/solve.h"

/* How many nodes each root move is searched by distance, when every move is valued, before its value is
 * searched (default ROOT_DISTANCE_NODES in solve.c). 0 sends every root move that does not end the game at
 * once to the value search: the tests use it to check that path on boards whose wins are all found short. */
void solver_set_root_distance(ttt_solver *solver, uint64_t nodes);

#endif
