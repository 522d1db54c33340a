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

const ttt_engine_vtable ttt_engine_random = {
    .about = {.name = "random",
              .summary = "a uniformly random legal move: the baseline, and a sparring partner for learners",
              .options = "seed=N  which random moves (default 0)"},
    .choose = random_choose,
};
