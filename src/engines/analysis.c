/* engines/analysis.c - analyses as data (ttt/engine.h): sorted best first, made from a solver search, shown
 * as an explanation. */
#include <assert.h>
#include <math.h>
#include <string.h>

#include "engines/engine_impl.h"
#include "ttt/solve.h"

/* The solver's heuristic score h is shown as tanh(h / this): one stone short of a line (900) is about 0.7. */
#define ANALYSIS_HEURISTIC_SCALE 1000.0

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
                                                      : tanh(m->score / ANALYSIS_HEURISTIC_SCALE);
        }
    }
    ttt_analysis_sort(out);
}

/* The sort key of a move: exact wins first (sooner better), exact losses last (later better), everything
 * else by score, exact draws just above equal estimates, no opinion at the very end. */
static double eval_key(const ttt_move_eval *m)
{
    enum { SPAN = 4 * TTT_MAX_CELLS };
    if (m->kind == TTT_EVAL_NONE)
        return -3.0 * SPAN;
    if (m->kind == TTT_EVAL_EXACT && m->result > 0)
        return 2.0 * SPAN - m->plies;
    if (m->kind == TTT_EVAL_EXACT && m->result < 0)
        return -2.0 * SPAN + m->plies;
    return m->score + (m->kind == TTT_EVAL_EXACT ? 1e-9 : 0.0);
}

void ttt_analysis_sort(ttt_analysis *a)
{
    for (int i = 1; i < a->count; i++) { /* insertion sort: stable, and at most 256 moves */
        ttt_move_eval m = a->moves[i];
        double key = eval_key(&m);
        int j = i;
        for (; j > 0 && eval_key(&a->moves[j - 1]) < key; j--)
            a->moves[j] = a->moves[j - 1];
        a->moves[j] = m;
    }
}

/* An explanation made of an analysis: the exact value and distance of proven moves, the score of estimated
 * ones, the share of effort when the engine reports one; each a layer only on the moves that have it. */
void ttt_explain_from_analysis(const ttt_analysis *a, ttt_explanation *x)
{
    bool exact = false, score = false, share = false;
    int longest = 1;
    for (int i = 0; i < a->count; i++) {
        exact |= a->moves[i].kind == TTT_EVAL_EXACT;
        score |= a->moves[i].kind == TTT_EVAL_SCORE;
        share |= a->moves[i].share > 0;
        if (a->moves[i].kind == TTT_EVAL_EXACT && a->moves[i].plies > longest)
            longest = a->moves[i].plies;
    }
    x->method = a->method;
    x->choice = a->count && a->moves[0].kind != TTT_EVAL_NONE ? a->moves[0].move : TTT_NO_MOVE;
    ttt_explain_layer *value =
        exact ? ttt_explain_layer_add(x, "value", "proven result: -1 loss, 0 draw, +1 win", -1, 1, false)
              : NULL;
    ttt_explain_layer *plies =
        exact ? ttt_explain_layer_add(x, "distance", "moves to the end with best play, this one included", 0,
                                      longest, false)
              : NULL;
    ttt_explain_layer *est =
        score
            ? ttt_explain_layer_add(x, "score", "the engine's estimate, -1 (loss) to +1 (win)", -1, 1, false)
            : NULL;
    ttt_explain_layer *effort =
        share ? ttt_explain_layer_add(x, "share of effort",
                                      "share of the search spent on the move, 0 to 100 %", 0, 1, true)
              : NULL;
    for (int i = 0; i < a->count; i++) {
        const ttt_move_eval *m = &a->moves[i];
        if (m->kind == TTT_EVAL_EXACT) {
            ttt_explain_set(value, m->move, m->result);
            ttt_explain_set(plies, m->move, m->plies);
        } else if (m->kind == TTT_EVAL_SCORE) {
            ttt_explain_set(est, m->move, m->score);
        }
        if (effort && m->kind != TTT_EVAL_NONE)
            ttt_explain_set(effort, m->move, m->share);
    }
    if (a->info.depth > 0)
        ttt_explain_fact_add(x, "depth reached", a->info.depth);
}

void ttt_explain_uniform(ttt_explanation *x, const ttt_move *moves, int n, ttt_move choice)
{
    ttt_explain_layer *chance =
        ttt_explain_layer_add(x, "chance", "probability of being played, 0 to 100 %", 0, 1, true);
    for (int i = 0; i < n; i++)
        ttt_explain_set(chance, moves[i], 1.0 / n);
    ttt_explain_fact_add(x, "legal moves", n);
    x->choice = choice;
}

void ttt_engine_set_trace(ttt_engine *e, ttt_trace *trace) { e->trace = trace; }
