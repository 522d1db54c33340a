/* analysis/hint.c - full-strength hints (ttt/hint.h): the solver first, an engine's own scores otherwise. */
#include "ttt/hint.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

ttt_status ttt_hint(ttt_solver *solver, const ttt_board *b, ttt_engine *fallback, double ms,
                    double solver_share, ttt_analysis *out, ttt_error *err)
{
    assert(solver_share > 0 && solver_share <= 1);
    memset(out, 0, sizeof *out);
    double start = ttt_clock_ms();
    if (ms <= 0)
        ms = TTT_HINT_DEFAULT_MS;
    bool shared = solver_share < 1 && fallback;
    ttt_limits limits = {.ms = shared ? ms * solver_share : ms};
    ttt_search_result *r = malloc(sizeof *r);
    if (!r)
        return ttt_fail(err, TTT_ENOMEM, "out of memory");
    ttt_status st = ttt_solver_search(solver, b, &limits, true, r, err);
    if (st == TTT_OK && (r->proven || !fallback || !ttt_engine_can_analyse(fallback))) {
        ttt_analysis_from_search(b, r, out);
    } else if (st == TTT_OK) {
        double left = ms - (ttt_clock_ms() - start);
        if (shared)
            st = ttt_engine_limit_time(fallback, left >= 1 ? (uint64_t)left : 1, err);
        if (st == TTT_OK)
            st = ttt_engine_analyse(fallback, b, out, err);
        if (st == TTT_OK && shared) { /* the work and time of the whole hint, the solver's included */
            out->info.nodes += r->nodes;
            out->info.ms = ttt_clock_ms() - start;
        }
    }
    free(r);
    return st;
}
