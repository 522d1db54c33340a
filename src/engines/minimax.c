/*
 * engines/minimax.c - the `minimax` engine: perfect play where the board can be solved within the budget, the
 * best move of an iterative-deepening search with a heuristic horizon where it cannot.
 *
 * The search is ttt_solver (search/solve.c): negamax with alpha-beta, a transposition table keyed by the
 * symmetry-reduced hash, forced moves (win now, block now, forks) and move ordering by the lines through a
 * cell. Among equally good moves the engine picks one at random from its seeded generator, so that a perfect
 * player is not predictable and the same seed still gives the same game.
 */
#include <stddef.h>
#include <stdlib.h>

#include "engines/engine_impl.h"
#include "search/solve_trace.h"
#include "ttt/solve.h"
#include "util/error.h"

/* Defaults: enough time to solve 5x5 k=4 from the start; a table that holds it. */
#define MINIMAX_DEFAULT_TIME_MS 1000
#define MINIMAX_DEFAULT_TT_MIB  64
#define MINIMAX_MAX_TT_MIB      16384
#define MINIMAX_MAX_TIME_MS     86400000
/* blunder= is a percentage: the chance per move of a uniformly random move instead of the search's. */
#define MINIMAX_BLUNDER_SCALE 100

typedef struct minimax_config {
    uint64_t time_ms; /* 0 = no limit */
    uint64_t nodes;   /* 0 = no limit */
    uint64_t depth;   /* 0 = to the end of the game */
    uint64_t tt_mib;
    uint64_t blunder; /* percent of moves played at random (difficulty levels); 0 = never */
} minimax_config;

static const minimax_config minimax_defaults = {.time_ms = MINIMAX_DEFAULT_TIME_MS,
                                                .nodes = 0,
                                                .depth = 0,
                                                .tt_mib = MINIMAX_DEFAULT_TT_MIB,
                                                .blunder = 0};

static const ttt_option_def minimax_options[] = {
    {"time", TTT_OPT_UINT, offsetof(minimax_config, time_ms), 0, MINIMAX_MAX_TIME_MS, 0, 0,
     .role = TTT_ROLE_TIME, .arg = "MS",
     .help = "time per move in milliseconds; 0 = no limit, above 30 cells only with nodes= or depth="},
    {"nodes", TTT_OPT_UINT, offsetof(minimax_config, nodes), 0, UINT64_MAX, 0, 0, .arg = "N",
     .help = "nodes per move, 0 = no limit"},
    {"depth", TTT_OPT_UINT, offsetof(minimax_config, depth), 0, TTT_MAX_CELLS, 0, 0, .arg = "N",
     .help = "plies to look ahead, 0 = to the end"},
    {"tt", TTT_OPT_UINT, offsetof(minimax_config, tt_mib), 1, MINIMAX_MAX_TT_MIB, 0, 0,
     .role = TTT_ROLE_MEMORY, .unit = 1 << 20, .arg = "MIB", .help = "transposition table size"},
    {"blunder", TTT_OPT_UINT, offsetof(minimax_config, blunder), 0, MINIMAX_BLUNDER_SCALE, 0, 0, .arg = "P",
     .help = "percent of moves played at random instead, for weaker levels"},
    {"seed", TTT_OPT_SEED, 0, 0, 0, 0, 0, .arg = "N", .help = "choice among equally good moves"},
    {.key = NULL},
};

static ttt_status minimax_check(const ttt_engine *e, ttt_error *err)
{
    const minimax_config *c = e->config;
    return ttt_engine_check_bounded(e, c->time_ms, c->nodes, c->depth, err);
}

static ttt_status minimax_start(ttt_engine *e, ttt_error *err)
{
    const minimax_config *c = e->config;
    ttt_solver *solver;
    ttt_status st = ttt_solver_new(&e->rules, (int)c->tt_mib, &solver, err);
    if (st == TTT_OK)
        e->state = solver;
    return st;
}

/* A layer for the search's heuristic scores, its scale spanning the unproven ones of r. */
static ttt_explain_layer *heuristic_layer(const ttt_search_result *r, ttt_explanation *out)
{
    int lo = -1, hi = 1;
    for (int i = 0; i < r->count; i++) {
        int v = r->moves[i].score;
        if (v > -TTT_SCORE_PROVEN && v < TTT_SCORE_PROVEN) {
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
    }
    return ttt_explain_layer_add(
        out, "heuristic score",
        "the search's evaluation at the depth reached (lines still open, weighted by "
        "stones): above 0 good for the side to move",
        lo, hi, false);
}

/* The decision's own search (all=false: the best score and every move that reaches it, the others only shown
 * worse) as an explanation: the moves the draw was among with their value (proven result and distance, else
 * the heuristic score at the depth reached), the moves refuted with the bound the search proved, the draw. */
static void minimax_describe(const ttt_board *b, const ttt_search_result *r, ttt_move choice,
                             ttt_explanation *out)
{
    bool decided = r->score > TTT_SCORE_PROVEN || r->score < -TTT_SCORE_PROVEN || r->proven;
    out->method = decided ? "negamax with alpha-beta and a transposition table: the position solved"
                          : "negamax with alpha-beta and a transposition table, iterative deepening to the "
                            "budget";
    out->step = "a move of the best value, drawn at random among the equally good ones";
    ttt_explain_layer *chance = ttt_explain_layer_add(
        out, "chance", "probability of being drawn: the best moves share it, 0 to 100 %", 0, 1, true);
    ttt_explain_layer *heuristic = NULL, *value = NULL, *worse = NULL;
    for (int i = 0; i < r->count; i++) {
        const ttt_move_score *m = &r->moves[i];
        if (m->score < -TTT_SCORE_WIN) /* left unsearched */
            continue;
        if (i < r->best_count)
            ttt_explain_set(chance, m->move, 1.0 / r->best_count);
        else {
            if (!worse)
                worse = ttt_explain_layer_add(out, "refuted",
                                              "the search showed the move worse than the best", 0, 1, false);
            ttt_explain_set(worse, m->move, 1);
        }
        bool proven =
            m->score > TTT_SCORE_PROVEN || m->score < -TTT_SCORE_PROVEN || (r->proven && i < r->best_count);
        if (proven) {
            if (!value)
                value = ttt_explain_layer_add(out, "value",
                                              "proven result (for a refuted move, at most): -1 loss, 0 draw, "
                                              "+1 win",
                                              -1, 1, false);
            ttt_explain_set(value, m->move, ttt_score_result(m->score));
        } else {
            if (!heuristic)
                heuristic = heuristic_layer(r, out);
            ttt_explain_set(heuristic, m->move, m->score);
        }
    }
    if (r->score > TTT_SCORE_PROVEN || r->score < -TTT_SCORE_PROVEN)
        ttt_explain_fact_add(out, "moves to the end", ttt_score_plies(b, r->score));
    ttt_explain_fact_add(out, "equally best moves", r->best_count);
    ttt_explain_fact_add(out, "depth reached", r->depth);
    out->choice = choice;
}

static ttt_status minimax_choose(ttt_engine *e, const ttt_board *b, ttt_move *out, ttt_search_info *info,
                                 ttt_explanation *why, ttt_error *err)
{
    const minimax_config *c = e->config;
    /* A blunder draws from the generator only when blunder= is set, so that other specs play as before. */
    if (c->blunder && ttt_rng_below(&e->rng, MINIMAX_BLUNDER_SCALE) < c->blunder) {
        ttt_move moves[TTT_MAX_CELLS];
        int n = ttt_board_moves(b, moves);
        *out = moves[ttt_rng_below(&e->rng, (uint32_t)n)];
        e->nodes++;
        if (why) {
            why->method = "negamax with alpha-beta, but this move a blunder: a uniformly random move";
            why->step = "blunder= chose a random move instead of the search's";
            ttt_explain_uniform(why, moves, n, *out);
            ttt_explain_fact_add(why, "blunder (percent of moves)", (double)c->blunder);
        }
        return TTT_OK;
    }
    ttt_limits limits = {.nodes = c->nodes, .ms = (double)c->time_ms, .depth = (int)c->depth};
    ttt_search_result r;
    solve_set_trace(e->state, e->trace);
    ttt_status st = ttt_solver_search(e->state, b, &limits, false, &r, err);
    solve_set_trace(e->state, NULL);
    if (st)
        return st;
    e->nodes += r.nodes;
    info->depth = r.depth;
    *out = r.moves[ttt_rng_below(&e->rng, (uint32_t)r.best_count)].move;
    /* its value: a proven result with its distance, else the heuristic score at the depth reached */
    if (r.score > TTT_SCORE_PROVEN || r.score < -TTT_SCORE_PROVEN) {
        info->value_name = r.score > 0 ? "moves to a win" : "moves to a loss";
        info->value = ttt_score_plies(b, r.score);
    } else {
        info->value_name = r.proven ? "proven draw" : "heuristic score";
        info->value = r.score;
    }
    if (why)
        minimax_describe(b, &r, *out, why);
    return TTT_OK;
}

/* Every move scored by a full-window search (all=true) within the engine's budget: exact values when the
 * search proves them, heuristic estimates otherwise. */
static ttt_status minimax_analyse(ttt_engine *e, const ttt_board *b, ttt_analysis *out, ttt_error *err)
{
    const minimax_config *c = e->config;
    ttt_limits limits = {.nodes = c->nodes, .ms = (double)c->time_ms, .depth = (int)c->depth};
    ttt_search_result r;
    ttt_status st = ttt_solver_search(e->state, b, &limits, true, &r, err);
    if (st)
        return st;
    e->nodes += r.nodes;
    ttt_analysis_from_search(b, &r, out);
    return TTT_OK;
}

/* A new game forgets the last one's table and history, so that an engine kept from game to game plays each
 * game as a fresh one would (a budgeted search depends on what the table holds), and keeps the table's
 * memory. */
/* Proven: every move's value and distance. Otherwise the search's own heuristic scores at the depth it
 * reached (in its units: a line one stone short is worth about 900), proven moves among them as values, and
 * moves the budget left unsearched without a figure. */
static ttt_status minimax_explain(ttt_engine *e, const ttt_board *b, ttt_explanation *out, ttt_error *err)
{
    const minimax_config *c = e->config;
    ttt_limits limits = {.nodes = c->nodes, .ms = (double)c->time_ms, .depth = (int)c->depth};
    ttt_search_result *r = malloc(sizeof *r);
    ttt_analysis *a = malloc(sizeof *a);
    ttt_status st = r && a ? ttt_solver_search(e->state, b, &limits, true, r, err)
                           : ttt_fail(err, TTT_ENOMEM, "engine 'minimax': out of memory");
    if (st == TTT_OK) {
        e->nodes += r->nodes;
        ttt_analysis_from_search(b, r, a);
        ttt_explain_from_analysis(a, out);
        out->info.depth = r->depth;
    }
    if (st == TTT_OK && !r->proven) {
        out->method = "negamax with alpha-beta and a transposition table, iterative deepening to the budget";
        out->step = "the best heuristic score at the depth reached";
        out->layer_count = 0;
        ttt_explain_layer *h = heuristic_layer(r, out);
        ttt_explain_layer *value = NULL;
        for (int i = 0; i < r->count; i++) {
            const ttt_move_score *m = &r->moves[i];
            if (m->score < -TTT_SCORE_WIN) /* left unsearched */
                continue;
            if (m->score > -TTT_SCORE_PROVEN && m->score < TTT_SCORE_PROVEN) {
                ttt_explain_set(h, m->move, m->score);
                continue;
            }
            if (!value)
                value = ttt_explain_layer_add(out, "value", "proven result: -1 loss, +1 win", -1, 1, false);
            ttt_explain_set(value, m->move, m->score > 0 ? 1 : -1);
        }
        out->choice = r->moves[0].move;
    }
    free(r);
    free(a);
    return st;
}

static void minimax_new_game(ttt_engine *e) { ttt_solver_clear(e->state); }

static void minimax_stop(ttt_engine *e) { ttt_solver_free(e->state); }

const ttt_engine_vtable ttt_engine_minimax = {
    .about = {.name = "minimax",
              .summary =
                  "negamax with alpha-beta: perfect where it can solve the board in time, a deep search "
                  "otherwise"},
    .options = minimax_options,
    .config_size = sizeof(minimax_config),
    .config_defaults = &minimax_defaults,
    .check = minimax_check,
    .start = minimax_start,
    .choose = minimax_choose,
    .analyse = minimax_analyse,
    .explain = minimax_explain,
    .new_game = minimax_new_game,
    .stop = minimax_stop,
};
