/*
 * cli/cmd_bench.c - `ttt bench`: a fixed, deterministic set of searches and playouts.
 *
 * Every item is bounded by node counts, never by time, so the total node count (the signature) is the same
 * in every build of the same code: debug, sanitizer and release. Quote it in commits that change search,
 * playouts or move generation. The arena items count the moves of their games as nodes and report games/s.
 */
#define _GNU_SOURCE /* getopt_long */
#include <assert.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* The table the solver items use: small, so that clearing it between repetitions is cheap. */
#define BENCH_TT_MIB 16
/* Random games played by the playout item, and its seed. */
#define BENCH_RANDOM_GAMES 200000
#define BENCH_SEED         20261122
/* Playouts of the playout items, and the montecarlo item's decisions and trials per decision. */
#define BENCH_PLAYOUTS_3X3   2000000
#define BENCH_PLAYOUTS_7X7K5 200000
#define BENCH_MC_DECISIONS   200
#define BENCH_MC_SPEC        "montecarlo:trials=1000,seed=20261122"
/* Decisions of the heuristic items (one node each). */
#define BENCH_HEURISTIC_DECISIONS     200000
#define BENCH_HEURISTIC_DECISIONS_BIG 5000
/* Random games of the table-build item (one thread, so that its time is one core's). */
#define BENCH_TABLE_GAMES 100000
/* The mcts items: decisions at a fixed number of iterations (nodes = iterations run, fewer when the root is
 * proven first). */
#define BENCH_MCTS_DECISIONS     200
#define BENCH_MCTS_SPEC          "mcts:iterations=2000,seed=20261122"
#define BENCH_MCTS_DECISIONS_BIG 10
#define BENCH_MCTS_SPEC_BIG      "mcts:iterations=5000,seed=20261122"
/* Arena games (one thread) of the arena items. */
#define BENCH_ARENA_GAMES_RANDOM  20000
#define BENCH_ARENA_GAMES_MINIMAX 200

typedef struct bench_item {
    const char *name;
    double ms;
    uint64_t nodes;
    uint64_t moves; /* engine decisions or moves of games; 0 for the searches, which make none */
    uint64_t games; /* games played (arena, random games, playouts, table); 0 otherwise */
} bench_item;

/* The position the moves reach under the rules, and a solver for it with the bench's table size. */
static int bench_setup(const char *rules_text, const char *moves, ttt_board *b, ttt_solver **solver,
                       ttt_error *err)
{
    ttt_rules rules;
    ttt_move seq[TTT_MAX_CELLS];
    int n = 0;
    return ttt_rules_parse(rules_text, &rules, err) ||
           ttt_moves_parse(moves, &rules, seq, TTT_MAX_CELLS, &n, err) ||
           ttt_moves_replay(&rules, seq, n, b, err) || ttt_solver_new(&rules, BENCH_TT_MIB, solver, err);
}

/* Solves the position for its value with a cleared table, `repeat` times; reports the fastest. */
static int bench_solve(const char *rules_text, const char *moves, int repeat, bench_item *item,
                       ttt_error *err)
{
    ttt_board b;
    ttt_solver *solver;
    if (bench_setup(rules_text, moves, &b, &solver, err))
        return 1;
    item->ms = -1;
    for (int i = 0; i < repeat; i++) {
        ttt_solver_clear(solver);
        ttt_result value;
        uint64_t nodes;
        double start = ttt_clock_ms();
        ttt_solver_value(solver, &b, &value, NULL, &nodes, err);
        double ms = ttt_clock_ms() - start;
        if (item->ms < 0 || ms < item->ms)
            item->ms = ms;
        item->nodes = nodes;
    }
    ttt_solver_free(solver);
    return 0;
}

/* A node-limited iterative-deepening search, as the minimax engine runs on boards it cannot solve; with
 * `all`, every move valued (nodes = 0: until proven), as `ttt solve` does. */
static int bench_search(const char *rules_text, const char *moves, uint64_t nodes, bool all, bench_item *item,
                        ttt_error *err)
{
    ttt_board b;
    ttt_solver *solver;
    if (bench_setup(rules_text, moves, &b, &solver, err))
        return 1;
    ttt_limits limits = {.nodes = nodes};
    ttt_search_result *r = malloc(sizeof *r);
    double start = ttt_clock_ms();
    int bad = !r || ttt_solver_search(solver, &b, &limits, all, r, err);
    item->ms = ttt_clock_ms() - start;
    item->nodes = bad ? 0 : r->nodes;
    free(r);
    ttt_solver_free(solver);
    return bad;
}

/* Random games on the board API (play, moves, terminal): the cost of the rules themselves. */
static int bench_random_games(const char *rules_text, int games, bench_item *item, ttt_error *err)
{
    ttt_rules rules;
    if (ttt_rules_parse(rules_text, &rules, err))
        return 1;
    ttt_rng rng;
    ttt_rng_seed(&rng, BENCH_SEED);
    uint64_t moves_played = 0;
    double start = ttt_clock_ms();
    for (int g = 0; g < games; g++) {
        ttt_board b;
        ttt_board_init(&b, &rules);
        ttt_move moves[TTT_MAX_CELLS];
        int n;
        while ((n = ttt_board_moves(&b, moves)) > 0) {
            ttt_board_play(&b, moves[ttt_rng_below(&rng, (uint32_t)n)]);
            moves_played++;
        }
    }
    item->ms = ttt_clock_ms() - start;
    item->nodes = moves_played;
    item->moves = moves_played;
    item->games = (uint64_t)games;
    return 0;
}

/* Random playouts from the empty board (search/playout.c): nodes = playouts. */
static int bench_playouts(const char *rules_text, int playouts, bench_item *item, ttt_error *err)
{
    ttt_rules rules;
    ttt_playout *p;
    if (ttt_rules_parse(rules_text, &rules, err) || ttt_playout_new(&rules, &p, err))
        return 1;
    ttt_rng rng;
    ttt_rng_seed(&rng, BENCH_SEED);
    double start = ttt_clock_ms();
    for (int i = 0; i < playouts; i++)
        ttt_playout_run(p, &rng, NULL);
    item->ms = ttt_clock_ms() - start;
    item->nodes = (uint64_t)playouts;
    item->games = (uint64_t)playouts; /* a playout is a game */
    ttt_playout_free(p);
    return 0;
}

/* Engine decisions in self-play games (a new game when one ends): nodes = the engine's nodes. */
static int bench_decisions(const char *rules_text, const char *spec, int decisions, bench_item *item,
                           ttt_error *err)
{
    ttt_rules rules;
    ttt_engine *e;
    if (ttt_rules_parse(rules_text, &rules, err) || ttt_engine_new(spec, &rules, &e, err))
        return 1;
    ttt_board b;
    ttt_board_init(&b, &rules);
    int bad = 0;
    double start = ttt_clock_ms();
    for (int i = 0; i < decisions && !bad; i++) {
        ttt_move m;
        bad = ttt_engine_choose(e, &b, &m, NULL, err) != TTT_OK;
        if (!bad)
            ttt_board_play(&b, m);
        if (ttt_board_terminal(&b))
            ttt_board_init(&b, &rules);
    }
    item->ms = ttt_clock_ms() - start;
    item->nodes = ttt_engine_nodes(e);
    item->moves = (uint64_t)decisions;
    ttt_engine_free(e);
    return bad;
}

/* A move table from random games (ttt_table_build), one thread. Nodes: the moves scored, i.e. the moves of
 * all the games (games x average game length). */
static int bench_table(const char *rules_text, uint64_t games, bench_item *item, ttt_error *err)
{
    ttt_rules rules;
    if (ttt_rules_parse(rules_text, &rules, err))
        return 1;
    ttt_table_build_options opt = {.games = games, .seed = BENCH_SEED, .jobs = 1};
    ttt_table *t;
    double start = ttt_clock_ms();
    if (ttt_table_build(&rules, &opt, &t, err))
        return 1;
    item->ms = ttt_clock_ms() - start;
    item->nodes = ttt_table_samples(t);
    item->moves = item->nodes;
    item->games = games;
    ttt_table_free(t);
    return 0;
}

/* Arena games between two specs, one thread, seeded as `ttt arena --seed BENCH_SEED` seeds them: nodes = the
 * moves of all the games. Engines are made and freed for every game, as in the arena. */
static int bench_arena(const char *rules_text, const char *x_spec, const char *o_spec, uint64_t games,
                       bench_item *item, ttt_error *err)
{
    ttt_rules rules;
    if (ttt_rules_parse(rules_text, &rules, err))
        return 1;
    double start = ttt_clock_ms();
    for (uint64_t g = 0; g < games; g++) {
        ttt_outcome o;
        int count;
        bool a_is_x = g % 2 == 0;
        if (ttt_arena_play(&rules, a_is_x ? x_spec : o_spec, a_is_x ? o_spec : x_spec,
                           ttt_arena_game_seed(BENCH_SEED, 0, g), &o, NULL, &count, err))
            return 1;
        item->nodes += (uint64_t)count;
    }
    item->ms = ttt_clock_ms() - start;
    item->moves = item->nodes;
    item->games = games;
    return 0;
}

static const char help[] =
    "usage: ttt bench [--json]\n"
    "\n"
    "Runs a fixed, deterministic set of searches and playouts and prints each one's time, nodes and nodes\n"
    "per second, then the total node count: the signature. The signature depends only on the code, not on\n"
    "the machine or the build; quote it in commits that change search, playouts or move generation.\n"
    "\n"
    "      --json   the same as JSON\n";

/* One row of the table, flushed: a long bench shows each item as it finishes. */
static void print_row(const bench_item *it)
{
    char nodes[CLI_COUNT_SIZE], rate[CLI_COUNT_SIZE];
    printf("%-28s %12.3f %14s %14s", it->name, it->ms, cli_count(it->nodes, nodes, sizeof nodes),
           cli_count(it->ms > 0 ? (uint64_t)(it->nodes / it->ms * 1e3) : 0, rate, sizeof rate));
    /* Every column filled: "-" where the item has no such rate (a search makes no moves). */
    if (it->moves && it->ms > 0)
        printf(" %12s", cli_count((uint64_t)(it->moves / it->ms * 1e3), rate, sizeof rate));
    else
        printf(" %12s", "-");
    if (it->games && it->ms > 0)
        printf(" %12s", cli_count((uint64_t)(it->games / it->ms * 1e3), rate, sizeof rate));
    else
        printf(" %12s", "-");
    putchar('\n');
    fflush(stdout);
}

int cmd_bench(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"json", no_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    bool json = false;
    optind = 0;
    for (int c; (c = cli_getopt("bench", argc, argv, "h", longopts)) != -1;) {
        switch (c) {
        case 'j': json = true; break;
        case 'h': fputs(help, stdout); return CLI_OK;
        default: return CLI_USAGE;
        }
    }
    if (optind < argc)
        return cli_usage("bench", "unexpected argument '%s'", argv[optind]);
    enum { SOLVE_REPEAT = 20, SOLVE_REPEAT_BIG = 3, BENCH_MAX_ITEMS = 32 };
    bench_item items[BENCH_MAX_ITEMS];
    memset(items, 0, sizeof items);
    int n = 0, bad = 0;
    ttt_error err;
    if (!json) {
        printf("%-28s %12s %14s %14s %12s %12s\n", "item", "ms", "nodes", "nodes/s", "moves/s", "games/s");
        fflush(stdout);
    }
#define ITEM(label, call)                                                                                    \
    do {                                                                                                     \
        assert(n < BENCH_MAX_ITEMS);                                                                         \
        items[n].name = label;                                                                               \
        int failed = call;                                                                                   \
        if (!failed && !json)                                                                                \
            print_row(&items[n]);                                                                            \
        bad |= failed;                                                                                       \
        n++;                                                                                                 \
    } while (0)
    ITEM("solve 3x3 empty", bench_solve("3x3", "", SOLVE_REPEAT, &items[n], &err));
    ITEM("solve 3x3-misere empty", bench_solve("3x3-misere", "", SOLVE_REPEAT, &items[n], &err));
    ITEM("solve 4x4 empty", bench_solve("4x4", "", SOLVE_REPEAT_BIG, &items[n], &err));
    ITEM("solve 4x4-misere empty", bench_solve("4x4-misere", "", SOLVE_REPEAT_BIG, &items[n], &err));
    ITEM("solve 5x5k4 empty", bench_solve("5x5k4", "", 1, &items[n], &err));
    ITEM("solve 6x5k4 empty", bench_solve("6x5k4", "", 1, &items[n], &err));
    ITEM("solve 6x6k4 empty", bench_solve("6x6k4", "", 1, &items[n], &err));
    ITEM("solve 4x5k4-misere empty", bench_solve("4x5k4-misere", "", 1, &items[n], &err));
    ITEM("solve 4x6k4 every move", bench_search("4x6k4", "", 0, true, &items[n], &err));
    ITEM("search 5x5k4-misere 300k", bench_search("5x5k4-misere", "c3", 300000, false, &items[n], &err));
    ITEM("search 7x7k5 200k nodes", bench_search("7x7k5", "d4 c3", 200000, false, &items[n], &err));
    ITEM("prove 7x7k5 draw, 8 stones", bench_solve("7x7k5", "d4 c5 d3 d5 e5 c3 e4 c4", 1, &items[n], &err));
    ITEM("prove 7x7k5 draw, 4 stones", bench_solve("7x7k5", "c1 d4 c2 c3", 1, &items[n], &err));
    ITEM("search 15x15k5 100k nodes", bench_search("15x15k5", "h8 g7 i9", 100000, false, &items[n], &err));
    ITEM("random games 3x3 (moves)", bench_random_games("3x3", BENCH_RANDOM_GAMES, &items[n], &err));
    ITEM("playouts 3x3", bench_playouts("3x3", BENCH_PLAYOUTS_3X3, &items[n], &err));
    ITEM("playouts 7x7k5", bench_playouts("7x7k5", BENCH_PLAYOUTS_7X7K5, &items[n], &err));
    ITEM("montecarlo moves 3x3", bench_decisions("3x3", BENCH_MC_SPEC, BENCH_MC_DECISIONS, &items[n], &err));
    ITEM("heuristic moves 3x3",
         bench_decisions("3x3", "heuristic", BENCH_HEURISTIC_DECISIONS, &items[n], &err));
    ITEM("heuristic moves 15x15k5",
         bench_decisions("15x15k5", "heuristic", BENCH_HEURISTIC_DECISIONS_BIG, &items[n], &err));
    ITEM("table build 3x3 100k games", bench_table("3x3", BENCH_TABLE_GAMES, &items[n], &err));
    ITEM("mcts moves 3x3", bench_decisions("3x3", BENCH_MCTS_SPEC, BENCH_MCTS_DECISIONS, &items[n], &err));
    ITEM("mcts moves 15x15k5",
         bench_decisions("15x15k5", BENCH_MCTS_SPEC_BIG, BENCH_MCTS_DECISIONS_BIG, &items[n], &err));
    ITEM("arena 3x3 random-random",
         bench_arena("3x3", "random", "random", BENCH_ARENA_GAMES_RANDOM, &items[n], &err));
    ITEM("arena 3x3 minimax-minimax",
         bench_arena("3x3", "minimax:time=0", "minimax:time=0", BENCH_ARENA_GAMES_MINIMAX, &items[n], &err));
#undef ITEM
    if (bad)
        return cli_runtime("bench", "%s", err.msg);
    uint64_t signature = 0;
    for (int i = 0; i < n; i++)
        signature += items[i].nodes;
    if (json) {
        json_t *list = json_array();
        for (int i = 0; i < n; i++) {
            json_t *it = json_pack("{s:s, s:f, s:I, s:f}", "name", items[i].name, "ms", items[i].ms, "nodes",
                                   (json_int_t)items[i].nodes, "nodes_per_s",
                                   items[i].ms > 0 ? items[i].nodes / items[i].ms * 1e3 : 0.0);
            if (items[i].moves && items[i].ms > 0)
                json_object_set_new(it, "moves_per_s", json_real(items[i].moves / items[i].ms * 1e3));
            if (items[i].games && items[i].ms > 0)
                json_object_set_new(it, "games_per_s", json_real(items[i].games / items[i].ms * 1e3));
            json_array_append_new(list, it);
        }
        json_t *o = json_pack("{s:o, s:I}", "items", list, "signature", (json_int_t)signature);
        bad = !o || json_dumpf(o, stdout, JSON_COMPACT | JSON_REAL_PRECISION(6)) != 0;
        json_decref(o);
        if (bad)
            return cli_runtime("bench", "could not write JSON");
        putchar('\n');
        return CLI_OK;
    }
    printf("signature %" PRIu64 "\n", signature);
    return CLI_OK;
}
