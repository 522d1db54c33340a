/* engines/random.c - the `random` engine: a uniformly random legal move. The baseline every other engine is
 * measured against, and the opponent model of the Monte Carlo players' playouts. */
#include "engines/engine_impl.h"

static ttt_status random_choose(ttt_engine *e, const ttt_board *b, ttt_move *out, ttt_search_info *info,
                                ttt_error *err)
{
    (void)info;
    (void)err;
    ttt_move moves[TTT_MAX_CELLS];
    int n = ttt_board_moves(b, moves);
    *out = moves[ttt_rng_below(&e->rng, (uint32_t)n)];
    e->nodes++;
    return TTT_OK;
}

/* Every legal move with the same chance, and the one drawn. */
static ttt_status random_explain(ttt_engine *e, const ttt_board *b, ttt_explanation *out, ttt_error *err)
{
    ttt_move moves[TTT_MAX_CELLS];
    int n = ttt_board_moves(b, moves);
    out->method = "a uniformly random legal move";
    out->step = "drawn at random";
    ttt_explain_layer *chance =
        ttt_explain_layer_add(out, "chance", "probability of being played, 0 to 100 %", 0, 1, true);
    for (int i = 0; i < n; i++)
        ttt_explain_set(chance, moves[i], 1.0 / n);
    ttt_explain_fact_add(out, "legal moves", n);
    return random_choose(e, b, &out->choice, NULL, err);
}

const ttt_engine_vtable ttt_engine_random = {
    .about = {.name = "random",
              .summary = "a uniformly random legal move: the baseline, and a sparring partner for learners"},
    .choose = random_choose,
    .explain = random_explain,
};
