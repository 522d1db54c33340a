/* search/solve_trace.h - the solver's recorder hook (internal): the minimax engine's searches, step by step. */
#ifndef TTT_SEARCH_SOLVE_TRACE_H
#define TTT_SEARCH_SOLVE_TRACE_H

#include "ttt/solve.h"
#include "ttt/trace.h"

/* Sets the recorder of the solver's next ttt_solver_search calls (NULL: none): each root iteration reports
 * its depth, each root move's replies (the nodes one ply below the root move) and its value
 * (ttt/trace.h). */
void solve_set_trace(ttt_solver *solver, ttt_trace *trace);

#endif
