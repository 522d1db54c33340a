/* analysis/hint.c - full-strength hints (ttt/hint.h): the solver first, an engine's own scores otherwise. */
#include "ttt/hint.h"

#include <math.h>
#include <string.h>

#include "util/error.h"

/* The solver's heuristic score h is shown as tanh(h / scale): one stone short of a line (900) is about 0.7.
 */
#define HINT_HEURISTIC_SCALE 1000.0

void ttt_analysis_from_search(const ttt_board *b, const ttt_search_result *r, ttt_analysis *out)
{
    out->count = r->count;
    out->method = r->proven ? "solver" : "solver heuristic";
    out->info = (ttt_search_info){.nodes = r->nodes, .ms = r->ms, .depth = r->depth};
    for (int i = 0; i < r->count; i++) {
        const ttt_move_score *m = &r->moves[i];
        ttt_move_eval *v = &out->moves[i];
        *v = (ttt_move_eval){.move = m->move};
        if (m->score < -TTT_SCORE_WIN) {
            v->kind = TTT_EVAL_NONE;
        } else if (r->proven && m->exact) {
            v->kind = TTT_EVAL_EXACT;
            v->result = ttt_score_result(m->score);
            v->plies = ttt_score_plies(b, m->score);
            v->score = v->result;
        } else {
            v->kind = TTT_EVAL_SCORE;
            v->score = m->score > TTT_SCORE_PROVEN    ? 1.0
                       : m->score < -TTT_SCORE_PROVEN ? -1.0
                                                      : tanh(m->score / HINT_HEURISTIC_SCALE);
        }
    }
    ttt_analysis_sort(out);
}

ttt_status ttt_hint(ttt_solver *solver, const ttt_board *b, ttt_engine *fallback, double ms,
                    ttt_analysis *out, ttt_error *err)
{
    memset(out, 0, sizeof *out);
    ttt_limits limits = {.ms = ms > 0 ? ms : TTT_HINT_DEFAULT_MS};
    ttt_search_result r;
    ttt_status st = ttt_solver_search(solver, b, &limits, true, &r, err);
    if (st)
        return st;
    if (r.proven || !fallback || !ttt_engine_can_analyse(fallback)) {
        ttt_analysis_from_search(b, &r, out);
        return TTT_OK;
    }
    return ttt_engine_analyse(fallback, b, out, err);
}
