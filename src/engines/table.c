/*
 * engines/table.c - the `table` engine: plays from a move table learned from random games (ttt/table.h,
 * the method of seed 003).
 *
 * In a position the table has seen, the engine plays the legal move with the highest average score; the
 * table answers for the canonical form of the position, and ttt_table_get maps each legal move into that
 * frame, so the move played is always a cell of the real board. Equal averages are broken at random by the
 * engine's own generator. In a position the table never saw (none of the legal moves has an entry) it falls
 * back on: a move that wins at once, else a move that stops the opponent from winning at once, else a
 * uniformly random legal move.
 *
 * Without file= the engine uses the default table of its rules in the user's data directory
 * (ttt_table_default_path), building it on first use (TTT_TABLE_DEFAULT_GAMES games on up to 9 cells, fewer
 * on bigger boards, none above TTT_TABLE_DEFAULT_MAX_CELLS: see table.h; seed TTT_TABLE_DEFAULT_SEED) and
 * saving it there for the next time; a file that is there but does not load is an error and is left alone,
 * never rebuilt over. Tables come from the process's cache (ttt_table_acquire): the engines of an arena's
 * games, one after another, load a file once and build a missing default table once.
 * A client that shares one table among many engines (a server) hands it over in the env (ttt_engine_new_in);
 * with no_files and no table the engine refuses to start rather than load or build one.
 *
 * Nodes: one per decision, a table lookup or a fallback.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine_impl.h"
#include "engines/tactics.h"
#include "ttt/table.h"
#include "util/error.h"

typedef struct table_config {
    char file[TTT_OPT_PATH_SIZE];
} table_config;

static const table_config table_defaults = {.file = ""};

typedef struct table_state {
    const ttt_table *table; /* what the engine plays from: owned, or the env's shared table */
    const ttt_table *owned; /* the table the engine acquired itself (ttt_table_acquire), or NULL */
} table_state;

static const ttt_option_def table_options[] = {
    {"file", TTT_OPT_PATH, offsetof(table_config, file), 0, 0, 0, 0, .arg = "PATH",
     .help = "the table (ttt table build); default: the 1,000,000-game table of the rules in "
             "~/.local/share/ttt/tables (or $XDG_DATA_HOME), built on first use"},
    {"seed", TTT_OPT_SEED, 0, 0, 0, 0, 0, .arg = "N",
     .help = "choice among equally good moves and in the fallback"},
    {.key = NULL},
};

/* The engine's own table: file= when given, else the default table. */
static ttt_status own_table(const ttt_engine *e, const ttt_table **out, ttt_error *err)
{
    const table_config *c = e->config;
    if (!c->file[0] && e->env.table) {
        *out = NULL;
        return TTT_OK;
    }
    if (!c->file[0] && e->env.no_files)
        return ttt_fail(err, TTT_EINVAL,
                        "engine 'table': no table given, and this client lets it load or build none");
    ttt_status st = ttt_table_acquire(c->file[0] ? c->file : NULL, &e->rules, out, NULL, err);
    if (st)
        ttt_error_prefix(err, "engine 'table'");
    return st;
}

static ttt_status table_start(ttt_engine *e, ttt_error *err)
{
    table_state *s = calloc(1, sizeof *s);
    if (!s)
        return ttt_fail(err, TTT_ENOMEM, "engine 'table': out of memory");
    ttt_status st = own_table(e, &s->owned, err);
    s->table = s->owned ? s->owned : e->env.table;
    if (st == TTT_OK && !ttt_rules_equal(ttt_table_rules(s->table), &e->rules)) {
        char want[TTT_RULES_TEXT_SIZE], got[TTT_RULES_TEXT_SIZE];
        st = ttt_fail(err, TTT_EINVAL, "engine 'table': the table given is for %s, not %s",
                      ttt_rules_format(ttt_table_rules(s->table), got, sizeof got),
                      ttt_rules_format(&e->rules, want, sizeof want));
    }
    if (st) {
        ttt_table_release(s->owned);
        free(s);
        return st;
    }
    e->state = s;
    return TTT_OK;
}

/* Picks one of n candidate moves with the engine's generator. */
static ttt_move pick(ttt_engine *e, const ttt_move *moves, int n)
{
    return moves[ttt_rng_below(&e->rng, (uint32_t)n)];
}

/* The fallback: win now, else stop the opponent's win now, else any legal move. */
static ttt_move fallback(ttt_engine *e, const ttt_board *b, const ttt_move *legal, int n)
{
    ttt_move found[TTT_MAX_CELLS];
    int nfound;
    if (tactics_win_or_block(b, found, &nfound) != TACTICS_NONE)
        return pick(e, found, nfound);
    return pick(e, legal, n);
}

/* One decision: the best average of the table, else the fallback. With why, also each move's average and
 * games, the table's size, and the step that chose; with info, the average of the move (when the table has
 * it). */
static ttt_move table_decide(ttt_engine *e, const ttt_board *b, ttt_explanation *why, ttt_search_info *info)
{
    const ttt_table *table = ((const table_state *)e->state)->table;
    ttt_move legal[TTT_MAX_CELLS], best[TTT_MAX_CELLS];
    int n = ttt_board_moves(b, legal), nbest = 0;
    double best_average = 0;
    ttt_explain_layer *avg = NULL, *games = NULL;
    if (why) {
        avg = ttt_explain_layer_add(why, "average score",
                                    "the move's mean score over the random games: +10 wins now, -10 lets the "
                                    "opponent win, +1 the winner's moves, -1 the others",
                                    TTT_TABLE_SCORE_LET_WIN, TTT_TABLE_SCORE_WIN, false);
        uint64_t most = 1;
        for (int i = 0; i < n; i++) {
            ttt_table_value v;
            if (ttt_table_get(table, b, legal[i], &v) && v.count > most)
                most = v.count;
        }
        games = ttt_explain_layer_add(why, "games", "random games in which the move was played here", 0,
                                      (double)most, false);
    }
    uint64_t here = 0;
    for (int i = 0; i < n; i++) {
        ttt_table_value v;
        if (!ttt_table_get(table, b, legal[i], &v))
            continue;
        here += v.count;
        if (why) {
            ttt_explain_set(avg, legal[i], v.average);
            ttt_explain_set(games, legal[i], (double)v.count);
        }
        if (nbest == 0 || v.average > best_average) {
            best_average = v.average;
            nbest = 0;
        }
        if (v.average == best_average)
            best[nbest++] = legal[i];
    }
    e->nodes++;
    if (why) {
        why->step = nbest ? "the best average (ties at random)"
                          : "a position the table never saw: win now, else block, else random";
        ttt_explain_fact_add(why, "games that fed the table", (double)ttt_table_games(table));
        ttt_explain_fact_add(why, "moves scored in this position", (double)here);
    }
    if (nbest && info) {
        info->value_name = "average score";
        info->value = best_average;
    }
    return nbest ? pick(e, best, nbest) : fallback(e, b, legal, n);
}

static ttt_status table_choose(ttt_engine *e, const ttt_board *b, ttt_move *out, ttt_search_info *info,
                               ttt_explanation *why, ttt_error *err)
{
    (void)err;
    if (why)
        why->method =
            "a table learned from uniformly random games (seed 003): every move scored, then averaged";
    *out = table_decide(e, b, why, info);
    if (why)
        why->choice = *out;
    return TTT_OK;
}

static ttt_status table_explain(ttt_engine *e, const ttt_board *b, ttt_explanation *out, ttt_error *err)
{
    ttt_move m;
    ttt_search_info info = {0};
    return table_choose(e, b, &m, &info, out, err);
}

static void table_stop(ttt_engine *e)
{
    table_state *s = e->state;
    ttt_table_release(s->owned);
    free(s);
}

const ttt_engine_vtable ttt_engine_table = {
    .about =
        {.name = "table",
         .summary =
             "the best average move of a table learned from random games (ttt table build); in positions "
             "the table never saw: win, else block, else random"},
    .options = table_options,
    .config_size = sizeof(table_config),
    .config_defaults = &table_defaults,
    .start = table_start,
    .choose = table_choose,
    .explain = table_explain,
    .stop = table_stop,
};
