/*
 * engines/montecarlo.c - the `montecarlo` engine: the assignment's flat Monte Carlo player (seed 004).
 *
 * From the position to move, play many random games to the end (search/playout.c), and score every square
 * of each finished game by who won it: squares of the winner go up, squares of the loser go down, a draw
 * changes nothing. Then play the empty square with the best total, at random among equal ones. There is no
 * tree and no memory between moves: the whole player is the four functions of the assignment below.
 *
 * Who won a random game is the rules' verdict (ttt_board_outcome, through the playout), so under misère the
 * player who completed a line lost it and its squares go down.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine_impl.h"
#include "ttt/playout.h"
#include "util/error.h"
#include "util/trace.h"

/* NTRIALS. The scores are noisy: on the must-block and win-in-one positions of tests/test_montecarlo.c (up to
 * 5x5, k = 4 and 5) 1000 trials miss the move for up to 1.6% of seeds and 2000 for up to 0.23%; 3000 found
 * it for all of 3000 seeds on every position. */
#define MC_DEFAULT_TRIALS 3000
/* SCORE_CURRENT and SCORE_OTHER, the assignment's weights of the player's and the opponent's squares. */
#define MC_SCORE_CURRENT 1.0
#define MC_SCORE_OTHER   1.0
#define MC_MAX_SCORE     1e6
#define MC_MAX_TRIALS    UINT64_C(1000000000000)
#define MC_MAX_TIME_MS   86400000
/* With a time budget the clock is read after about this many playout moves (a batch of trials of at most
 * this many moves in all, one trial at least), so that big boards do not overrun: a 16x16 trial is ~100 times
 * a 3x3 one. */
#define MC_CLOCK_CHECK_MOVES 2048

typedef struct mc_config {
    uint64_t trials;  /* NTRIALS; 0: MC_DEFAULT_TRIALS without a time budget, no count with one */
    double current;   /* SCORE_CURRENT */
    double other;     /* SCORE_OTHER */
    uint64_t time_ms; /* 0 = no time limit; else stop when the time or the trials are spent */
} mc_config;

static const mc_config mc_defaults = {
    .trials = 0, .current = MC_SCORE_CURRENT, .other = MC_SCORE_OTHER, .time_ms = 0};

static const ttt_option_def mc_options[] = {
    {"trials", TTT_OPT_UINT, offsetof(mc_config, trials), 0, MC_MAX_TRIALS, 0, 0, .role = TTT_ROLE_WORK,
     .unit = 1, .arg = "N",
     .help = "random games per move; 0 = " TTT_STR(MC_DEFAULT_TRIALS) ", or as many as time= allows"},
    {"current", TTT_OPT_DOUBLE, offsetof(mc_config, current), 0, 0, 0, MC_MAX_SCORE, .arg = "X",
     .help =
         "what a square of the mover's counts in a random game: +X when the mover won it, -X when it lost"},
    {"other", TTT_OPT_DOUBLE, offsetof(mc_config, other), 0, 0, 0, MC_MAX_SCORE, .arg = "X",
     .help = "what a square of the opponent's counts: -X when the mover won, +X when it lost"},
    {"time", TTT_OPT_UINT, offsetof(mc_config, time_ms), 0, MC_MAX_TIME_MS, 0, 0, .role = TTT_ROLE_TIME,
     .arg = "MS", .help = "stop after MS milliseconds even when trials= are not done; 0 = off"},
    {"seed", TTT_OPT_SEED, 0, 0, 0, 0, 0, .arg = "N",
     .help = "random games and the choice among equal squares"},
    {.key = NULL},
};

typedef struct mc_state {
    ttt_playout *playout;
    /* The score grid of the last decision, by cell; squares occupied at the time stay 0 (mc_analyse shows
     * it). */
    double scores[TTT_MAX_CELLS];
} mc_state;

/* mc_trial: one random game from the current board (the playout's start position), players alternating,
 * to the end. Returns the outcome; final receives each side's stones. */
static ttt_outcome mc_trial(mc_state *s, ttt_rng *rng, ttt_bits *final)
{
    return ttt_playout_run(s->playout, rng, final);
}

/* Adds `amount` to the score of every cell of `cells`, whose cells lie in its first `words` words. */
static void add_to_cells(double *scores, const ttt_bits *cells, int words, double amount)
{
    for (int i = 0; i < words; i++)
        for (uint64_t w = cells->w[i]; w; w &= w - 1)
            scores[i * 64 + __builtin_ctzll(w)] += amount;
}

/* mc_update_scores: scores a finished game into the grid for `player`, the side choosing the move. A draw
 * scores nothing; when the player won, its squares get +current and the other side's -other; when it lost,
 * its squares get -current and the other side's +other. Only the squares that were empty before the trial
 * are scored: the others cannot be chosen, and leaving them at 0 keeps the grid readable as hints. */
static void mc_update_scores(double *scores, const ttt_bits *final, const ttt_bits *empty, int words,
                             ttt_outcome outcome, ttt_player player, const mc_config *c)
{
    if (outcome == TTT_DRAW)
        return;
    ttt_player winner = outcome == TTT_X_WINS ? TTT_X : TTT_O;
    double sign = winner == player ? 1.0 : -1.0;
    ttt_bits mine = final[player], theirs = final[1 - player];
    for (int i = 0; i < words; i++) {
        mine.w[i] &= empty->w[i];
        theirs.w[i] &= empty->w[i];
    }
    add_to_cells(scores, &mine, words, sign * c->current);
    add_to_cells(scores, &theirs, words, -sign * c->other);
}

/* get_best_move: a random choice among the empty squares with the highest score. */
static ttt_move get_best_move(const ttt_board *b, const double *scores, ttt_rng *rng)
{
    ttt_move moves[TTT_MAX_CELLS], best[TTT_MAX_CELLS];
    int n = ttt_board_moves(b, moves), nbest = 0;
    double top = 0;
    for (int i = 0; i < n; i++) {
        double sc = scores[moves[i]];
        if (nbest == 0 || sc > top) {
            top = sc;
            nbest = 0;
        }
        if (sc == top)
            best[nbest++] = moves[i];
    }
    return best[ttt_rng_below(rng, (uint32_t)nbest)];
}

/* mc_run: runs the trials from b into the score grid; returns how many it ran. */
static uint64_t mc_run(ttt_engine *e, const ttt_board *b)
{
    const mc_config *c = e->config;
    mc_state *s = e->state;
    ttt_player player = ttt_board_to_move(b);
    ttt_bits empty = ttt_board_empty_cells(b);
    memset(s->scores, 0, sizeof s->scores);
    ttt_playout_set_position(s->playout, b);
    uint64_t trials = 0, limit = c->trials ? c->trials : c->time_ms ? UINT64_MAX : MC_DEFAULT_TRIALS;
    double deadline = c->time_ms ? ttt_clock_ms() + (double)c->time_ms : 0;
    int empties = b->cells - b->ply;
    uint64_t check_batch = empties < MC_CLOCK_CHECK_MOVES ? (uint64_t)(MC_CLOCK_CHECK_MOVES / empties) : 1;
    do {
        uint64_t left = limit - trials, batch = c->time_ms && check_batch < left ? check_batch : left;
        for (uint64_t i = 0; i < batch; i++) {
            ttt_bits final[2];
            ttt_outcome outcome = mc_trial(s, &e->rng, final);
            mc_update_scores(s->scores, final, &empty, ttt_board_words(b), outcome, player, c);
            ttt_trace_step *st =
                __builtin_expect(e->trace != NULL, 0) ? trace_begin(e->trace, TTT_TRACE_PLAYOUT) : NULL;
            if (st) {
                st->final[TTT_X] = final[TTT_X];
                st->final[TTT_O] = final[TTT_O];
                st->outcome = outcome;
                st->grid = s->scores;
                st->trials = trials + i + 1;
                trace_emit(e->trace);
            }
        }
        trials += batch;
    } while (trials < limit && c->time_ms && ttt_clock_ms() < deadline);
    e->nodes += trials;
    return trials;
}

/* The score grid as the algorithm keeps it after the trials that chose: each empty square's total over the
 * trials (+current for a square of the winner that is the side to move, -other for the loser's, and the
 * reverse), the trial count, and the square picked. */
static void mc_describe(const ttt_engine *e, const ttt_board *b, uint64_t trials, ttt_move choice,
                        ttt_explanation *out)
{
    const mc_config *c = e->config;
    const mc_state *s = e->state;
    ttt_move moves[TTT_MAX_CELLS];
    int n = ttt_board_moves(b, moves);
    double lo = 0, hi = 0;
    for (int i = 0; i < n; i++) {
        double v = s->scores[moves[i]];
        lo = i == 0 || v < lo ? v : lo;
        hi = i == 0 || v > hi ? v : hi;
    }
    if (lo == hi) { /* every square scored the same: a scale around it */
        lo -= 1;
        hi += 1;
    }
    out->method = "Monte Carlo: random games from the position, each square scored by who won with it";
    out->step = "the square with the highest total (ties at random)";
    ttt_explain_layer *grid = ttt_explain_layer_add(
        out, "score grid",
        "points summed over the trials: +current for the winner's squares, -other for the "
        "loser's, from the side to move's view",
        lo, hi, false);
    for (int i = 0; i < n; i++)
        ttt_explain_set(grid, moves[i], s->scores[moves[i]]);
    ttt_explain_fact_add(out, "trials", (double)trials);
    ttt_explain_fact_add(out, "current (weight of the mover's squares)", c->current);
    ttt_explain_fact_add(out, "other (weight of the opponent's squares)", c->other);
    out->choice = choice;
}

/* mc_move: the simulation. Clear the grid; run the trials (a fixed number, or as many as fit in the time),
 * scoring each; choose among the best squares. One node per trial. */
static ttt_status mc_move(ttt_engine *e, const ttt_board *b, ttt_move *out, ttt_search_info *info,
                          ttt_explanation *why, ttt_error *err)
{
    (void)err;
    uint64_t trials = mc_run(e, b);
    const double *scores = ((const mc_state *)e->state)->scores;
    *out = get_best_move(b, scores, &e->rng);
    info->value_name = "score grid";
    info->value = scores[*out];
    if (why)
        mc_describe(e, b, trials, *out, why);
    return TTT_OK;
}

/* The score grid as an analysis: each square's total divided by the most a square can gain in that many
 * trials (every trial won, with the larger of the two weights), so in [-1, 1]. */
static ttt_status mc_analyse(ttt_engine *e, const ttt_board *b, ttt_analysis *out, ttt_error *err)
{
    (void)err;
    const mc_config *c = e->config;
    const mc_state *s = e->state;
    uint64_t trials = mc_run(e, b);
    double weight = c->current > c->other ? c->current : c->other;
    double scale = weight > 0 ? (double)trials * weight : 1.0;
    ttt_move moves[TTT_MAX_CELLS];
    out->count = ttt_board_moves(b, moves);
    out->method = "montecarlo score grid";
    for (int i = 0; i < out->count; i++)
        out->moves[i] =
            (ttt_move_eval){.move = moves[i], .kind = TTT_EVAL_SCORE, .score = s->scores[moves[i]] / scale};
    return TTT_OK;
}

static ttt_status mc_explain(ttt_engine *e, const ttt_board *b, ttt_explanation *out, ttt_error *err)
{
    ttt_move m;
    ttt_search_info info = {0};
    return mc_move(e, b, &m, &info, out, err);
}

static ttt_status mc_start(ttt_engine *e, ttt_error *err)
{
    mc_state *s = calloc(1, sizeof *s);
    if (!s)
        return ttt_fail(err, TTT_ENOMEM, "engine 'montecarlo': out of memory");
    ttt_status st = ttt_playout_new(&e->rules, &s->playout, err);
    if (st) {
        free(s);
        return st;
    }
    e->state = s;
    return TTT_OK;
}

static void mc_stop(ttt_engine *e)
{
    mc_state *s = e->state;
    if (!s)
        return;
    ttt_playout_free(s->playout);
    free(s);
}

const ttt_engine_vtable ttt_engine_montecarlo = {
    .about = {.name = "montecarlo",
              .summary = "flat Monte Carlo: random games from the position, each square scored by who won "
                         "them; no tree"},
    .options = mc_options,
    .config_size = sizeof(mc_config),
    .config_defaults = &mc_defaults,
    .start = mc_start,
    .choose = mc_move,
    .analyse = mc_analyse,
    .explain = mc_explain,
    .stop = mc_stop,
};
