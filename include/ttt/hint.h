/*
 * ttt/hint.h - full-strength hints: what every empty cell is worth to the side to move.
 *
 * The terminal UI and the web page show hints the same way: the solver's exact value of every move (win,
 * draw or loss, with the distance) when it can prove them all within the budget; otherwise the scores of an
 * engine that can analyse (the Monte Carlo score grid, MCTS visit shares), when one is given; otherwise the
 * solver's own heuristic estimates from the deepest search it finished.
 */
#ifndef TTT_HINT_H
#define TTT_HINT_H

#include "ttt/engine.h"
#include "ttt/solve.h"

/* Default budget of a hint, in milliseconds: enough to solve every move of 4x4 misère or 5x5 k=4 midgame
 * positions on a laptop, short enough to wait for at a keyboard. */
#define TTT_HINT_DEFAULT_MS 1000.0

/* Analyses b (ongoing) for hints into out, best move first. solver must have b's rules (its table is reused
 * between calls, so keep one per game); fallback may be NULL, or an engine with b's rules, which is asked
 * only when the solver does not prove every move. ms > 0 is the budget (0: TTT_HINT_DEFAULT_MS), of which
 * the solver gets solver_share (0 < share <= 1). With share 1 the solver has all of ms and the fallback keeps
 * its own budget; below 1 (and with a fallback) the fallback's time= is lowered to what the solver left (at
 * least 1 ms, ttt_engine_limit_time) and out->info counts the work and time of both. Returns TTT_ESTATE for
 * a finished game or mismatched rules. */
ttt_status ttt_hint(ttt_solver *solver, const ttt_board *b, ttt_engine *fallback, double ms,
                    double solver_share, ttt_analysis *out, ttt_error *err);

#endif
