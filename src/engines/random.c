/* engines/random.c - the `random` engine: a uniformly random legal move. The baseline every other engine is
 * measured against, and the opponent model of the Monte Carlo players' playouts. */
#include "engines/engine_impl.h"

/* A draw among the legal moves; explained: every legal move with the same chance, and the one drawn. */
static ttt_status random_choose(ttt_engine *e, const ttt_board *b, ttt_move *out, ttt_search_info *info,
                                ttt_explanation *why, ttt_error *err)
{
    (void)info;
    (void)err;
    ttt_move moves[TTT_MAX_CELLS];
    int n = ttt_board_moves(b, moves);
    *out = moves[ttt_rng_below(&e->rng, (uint32_t)n)];
    e->nodes++;
    if (why) {
        why->method = "a uniformly random legal move";
        why->step = "drawn at random";
        ttt_explain_uniform(why, moves, n, *out);
    }
    return TTT_OK;
}

static ttt_status random_explain(ttt_engine *e, const ttt_board *b, ttt_explanation *out, ttt_error *err)
{
    ttt_move m;
    ttt_search_info info = {0};
    return random_choose(e, b, &m, &info, out, err);
}

const ttt_engine_vtable ttt_engine_random = {
    .about = {.name = "random",
              .summary = "a uniformly random legal move: the baseline, and a sparring partner for learners"},
    .choose = random_choose,
    .explain = random_explain,
};
