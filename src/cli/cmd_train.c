/* cli/cmd_train.c - `ttt train`: the learner plays games against an opponent and learns from each one. */
#define _GNU_SOURCE /* getopt_long */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

/* Default window of the learning curve: games / TRAIN_DEFAULT_WINDOWS, at least 1. */
#define TRAIN_DEFAULT_WINDOWS 20
#define TRAIN_MAX_GAMES       INT64_C(1000000000)

static const char help[] =
    "usage: ttt train [--rules R] --against SPEC --games N [--as x|o|both] [--db PATH] [--csv FILE]\n"
    "                 [--window N] [--seed S] [--learner SPEC]\n"
    "\n"
    "The learner plays N games against an opponent engine and learns from every one of them: each finished\n"
    "game is added to its memory (one transaction per game), so a run that is stopped keeps what it "
    "learned:\n"
    "Ctrl-C drops the game in progress, says how many games were learned, and exits 130.\n"
    "Training games are not added to the game records of 'ttt history' (they would flood it).\n"
    "\n"
    "  -r, --rules R      MxN[kK][-misere] (default 3x3)\n"
    "  -a, --against SPEC the opponent, any engine spec: minimax, random, montecarlo:trials=500, learner...\n"
    "  -g, --games N      how many games (required)\n"
    "      --as x|o|both  the learner's side; both alternates, X first (default both)\n"
    "  -d, --db PATH      the learner's database (default $XDG_DATA_HOME/ttt/ttt.db, else\n"
    "                     ~/.local/share/ttt/ttt.db); --memory PATH is the same\n"
    "      --csv FILE     the learning curve: window,games,wins,draws,losses per window of games, from the\n"
    "                     learner's side, a line written as each window ends\n"
    "  -w, --window N     games per window of the curve (default games/20, at least 1)\n"
    "  -s, --seed S       derives both engines' seeds, unless their specs name one (default 0)\n"
    "      --learner SPEC the learning engine's spec (default learner; learner:learn=0 measures without\n"
    "                     learning)\n"
    "\n"
    "examples: ttt train --against minimax --games 20\n"
    "          ttt train --against random --games 2000 --as o --csv curve.csv\n"
    "          ttt train --against minimax --games 1000 --learner learner:learn=0\n";

typedef struct train_tally {
    int64_t wins, draws, losses;
} train_tally;

/* The spec with seed=S appended unless it names one, and memory=PATH appended when path is not NULL. */
static int make_engine(const char *spec, const char *memory, uint64_t seed, const ttt_rules *rules,
                       ttt_engine **out)
{
    char full[TTT_SPEC_TEXT_SIZE * 2];
    size_t n = (size_t)snprintf(full, sizeof full, "%s", spec);
    if (n < sizeof full && !strstr(spec, "seed="))
        n += (size_t)snprintf(full + n, sizeof full - n, "%cseed=%" PRIu64, strchr(full, ':') ? ',' : ':',
                              seed);
    if (n < sizeof full && memory)
        n += (size_t)snprintf(full + n, sizeof full - n, ",memory=%s", memory);
    if (n >= sizeof full)
        return cli_usage("train", "engine spec '%.40s...' is too long", spec);
    ttt_error err;
    ttt_status st = ttt_engine_new(full, rules, out, &err);
    if (st)
        return cli_status_exit(st) == CLI_USAGE ? cli_usage("train", "%s", err.msg)
                                                : cli_runtime("train", "%s", err.msg);
    return CLI_OK;
}

/* Plays one game; *outcome receives the result. Both engines are told how it ended. After Ctrl-C the game
 * stops after the current move with *abandoned set, and the engines are told nothing. */
static ttt_status play_game(ttt_engine *const players[2], const ttt_rules *rules, ttt_outcome *outcome,
                            bool *abandoned, ttt_error *err)
{
    *abandoned = false;
    ttt_board b;
    ttt_board_init(&b, rules);
    ttt_move moves[TTT_MAX_CELLS];
    int n = 0;
    ttt_engine_new_game(players[0]);
    ttt_engine_new_game(players[1]);
    while (!ttt_board_terminal(&b)) {
        ttt_status st = ttt_engine_choose(players[ttt_board_to_move(&b)], &b, &moves[n], NULL, err);
        if (st)
            return st;
        if ((st = ttt_board_play_checked(&b, moves[n++], err)) != TTT_OK)
            return st;
        if (cli_interrupted()) {
            *abandoned = true;
            return TTT_OK;
        }
    }
    *outcome = ttt_board_outcome(&b);
    return ttt_engines_game_over(players, 2, moves, n, *outcome, err);
}

typedef struct train_options {
    const char *rules_text, *against, *memory, *csv, *learner;
    int64_t games, window;
    uint64_t seed;
    int as; /* TTT_X, TTT_O, or -1 for both */
} train_options;

static int parse_args(int argc, char **argv, train_options *o)
{
    static const struct option longopts[] = {
        {"rules", required_argument, NULL, 'r'}, {"against", required_argument, NULL, 'a'},
        {"games", required_argument, NULL, 'g'}, {"as", required_argument, NULL, 'A'},
        {"db", required_argument, NULL, 'd'},    {"memory", required_argument, NULL, 'd'},
        {"csv", required_argument, NULL, 'c'},   {"window", required_argument, NULL, 'w'},
        {"seed", required_argument, NULL, 's'},  {"learner", required_argument, NULL, 'l'},
        {"help", no_argument, NULL, 'h'},        {NULL, 0, NULL, 0}};
    *o = (train_options){.learner = "learner", .as = -1, .games = -1};
    optind = 0;
    for (int c; (c = cli_getopt("train", argc, argv, "r:a:g:d:w:s:h", longopts)) != -1;) {
        uint64_t v;
        switch (c) {
        case 'r': o->rules_text = optarg; break;
        case 'a': o->against = optarg; break;
        case 'd': o->memory = optarg; break;
        case 'c': o->csv = optarg; break;
        case 'l': o->learner = optarg; break;
        case 'g':
            if (cli_parse_uint("train", "--games", optarg, 0, TRAIN_MAX_GAMES, "a whole number", &v))
                return CLI_USAGE;
            o->games = (int64_t)v;
            break;
        case 'w':
            if (cli_parse_uint("train", "--window", optarg, 1, TRAIN_MAX_GAMES, "a number of games", &v))
                return CLI_USAGE;
            o->window = (int64_t)v;
            break;
        case 's':
            if (cli_parse_uint("train", "--seed", optarg, 0, UINT64_MAX / 2, "a whole number", &o->seed))
                return CLI_USAGE;
            break;
        case 'A':
            if (strcmp(optarg, "x") == 0)
                o->as = TTT_X;
            else if (strcmp(optarg, "o") == 0)
                o->as = TTT_O;
            else if (strcmp(optarg, "both") == 0)
                o->as = -1;
            else
                return cli_usage("train", "--as '%s': expected x, o or both", optarg);
            break;
        case 'h': fputs(help, stdout); return -1;
        default: return CLI_USAGE;
        }
    }
    if (optind < argc)
        return cli_usage("train", "unexpected argument '%s'", argv[optind]);
    if (!o->against)
        return cli_usage("train", "--against is required, e.g. --against minimax (see 'ttt train --help')");
    if (o->games < 0)
        return cli_usage("train", "--games is required, e.g. --games 20 (see 'ttt train --help')");
    if (cli_check_db("train", o->memory))
        return CLI_USAGE;
    if (o->memory && strchr(o->memory, ','))
        return cli_usage("train", "--db '%s': expected a path without ','", o->memory);
    if (o->memory && strstr(o->learner, "memory="))
        return cli_usage("train", "--db and a memory= in --learner: give one");
    if (o->window == 0)
        o->window = o->games / TRAIN_DEFAULT_WINDOWS > 0 ? o->games / TRAIN_DEFAULT_WINDOWS : 1;
    return CLI_OK;
}

static void write_window(FILE *csv, int64_t index, int64_t games, const train_tally *w)
{
    fprintf(csv, "%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 "\n", index, games, w->wins,
            w->draws, w->losses);
    fflush(csv);
}

/* The games learned for one rules (their text), read from the memory's statistics. */
typedef struct learned_games {
    const char *rules;
    int64_t games;
} learned_games;

static int find_learned(const ttt_store_memory_stats *m, void *user)
{
    learned_games *l = user;
    if (strcmp(m->rules, l->rules) == 0)
        l->games = m->games;
    return 0;
}

/* Checks the file (SQLite's integrity check) and reads the whole memory the training writes into (every row
 * is checked as it is read) before anything is written to it: a damaged file is refused untouched. The games
 * it holds for the rules are added to *learned. */
static int check_memory(const char *memory, learned_games *learned)
{
    ttt_store *store;
    ttt_error err;
    ttt_status st = ttt_store_open(memory, &store, &err);
    if (!st)
        st = ttt_store_check(store, &err);
    if (!st)
        st = ttt_store_memory_stats_each(store, find_learned, learned, &err);
    ttt_store_close(store);
    if (!st)
        return CLI_OK;
    return cli_status_exit(st) == CLI_USAGE ? cli_usage("train", "%s", err.msg)
                                            : cli_runtime("train", "%s", err.msg);
}

static int print_memory(const ttt_store_memory_stats *m, void *user)
{
    if (strcmp(m->rules, (const char *)user) == 0) {
        char games[CLI_COUNTED_SIZE], seqs[CLI_COUNTED_SIZE], prefixes[CLI_COUNTED_SIZE];
        printf("memory: %s learned for %s, %s, %s\n",
               cli_counted((uint64_t)m->games, "game", "games", games, sizeof games), m->rules,
               cli_counted((uint64_t)m->sequences, "sequence", "sequences", seqs, sizeof seqs),
               cli_counted((uint64_t)m->prefixes, "prefix", "prefixes", prefixes, sizeof prefixes));
    }
    return 0;
}

/* After Ctrl-C, what was kept in one line: the games the memory learned (counted there, so a learner that
 * does not learn says 0), or the games played when the learner's spec names its own memory. */
static int train_interrupted(const train_options *o, bool own_memory, const learned_games *before,
                             int64_t played)
{
    learned_games after = {.rules = before->rules};
    ttt_store *store;
    ttt_error err;
    ttt_status st = TTT_OK;
    if (own_memory) {
        st = ttt_store_open(o->memory, &store, &err);
        if (!st)
            st = ttt_store_memory_stats_each(store, find_learned, &after, &err);
        ttt_store_close(store);
    }
    if (st)
        return cli_runtime("train", "%s", err.msg);
    if (own_memory)
        fprintf(stderr,
                "ttt train: interrupted: learned from %" PRId64 " game%s of %" PRId64
                " (the game in progress dropped)\n",
                after.games - before->games, after.games - before->games == 1 ? "" : "s", o->games);
    else
        fprintf(stderr,
                "ttt train: interrupted: %" PRId64 " of %" PRId64
                " games played (the game in progress dropped)\n",
                played, o->games);
    return CLI_INTERRUPTED;
}

int cmd_train(int argc, char **argv)
{
    train_options o;
    int rc = parse_args(argc, argv, &o);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    ttt_rules rules = ttt_rules_default();
    ttt_error err;
    if (o.rules_text && ttt_rules_parse(o.rules_text, &rules, &err))
        return cli_usage("train", "%s", err.msg);
    bool own_memory = !strstr(o.learner, "memory=");
    char rt[TTT_RULES_TEXT_SIZE];
    ttt_rules_format(&rules, rt, sizeof rt);
    learned_games before = {.rules = rt};
    if (own_memory && (rc = check_memory(o.memory, &before)) != CLI_OK)
        return rc;
    ttt_engine *learner = NULL, *opponent = NULL;
    if ((rc = make_engine(o.learner, o.memory, o.seed * 2, &rules, &learner)) != CLI_OK)
        return rc;
    /* A learning opponent learns into the same memory unless its spec names another. */
    const char *against_memory =
        ttt_engine_has_option(o.against, "memory") && !strstr(o.against, "memory=") ? o.memory : NULL;
    if ((rc = make_engine(o.against, against_memory, o.seed * 2 + 1, &rules, &opponent)) != CLI_OK) {
        ttt_engine_free(learner);
        return rc;
    }
    FILE *csv = NULL;
    if (o.csv && !(csv = fopen(o.csv, "w"))) {
        ttt_engine_free(learner);
        ttt_engine_free(opponent);
        return cli_usage("train", "--csv '%s': %s", o.csv, strerror(errno));
    }
    if (csv) {
        fprintf(csv, "window,games,wins,draws,losses\n");
        fflush(csv);
    }
    bool bar = isatty(STDERR_FILENO);
    train_tally total = {0}, window = {0};
    int64_t windows = 0, in_window = 0;
    double start = ttt_clock_ms();
    cli_ticker ticker;
    if (bar)
        cli_ticker_start(&ticker, (uint64_t)o.games, "games");
    cli_interrupt_catch();
    ttt_status st = TTT_OK;
    int64_t g;
    bool abandoned = false;
    for (g = 0; g < o.games && !cli_interrupted(); g++) {
        ttt_player side = o.as >= 0 ? (ttt_player)o.as : (ttt_player)(g & 1);
        ttt_engine *players[2];
        players[side] = learner;
        players[1 - side] = opponent;
        ttt_outcome oc;
        if ((st = play_game(players, &rules, &oc, &abandoned, &err)) != TTT_OK || abandoned)
            break;
        bool won = (oc == TTT_X_WINS && side == TTT_X) || (oc == TTT_O_WINS && side == TTT_O);
        int64_t *slot = oc == TTT_DRAW ? &window.draws : won ? &window.wins : &window.losses;
        (*slot)++;
        /* The last window may be cut short by Ctrl-C after this game: the curve keeps every game played. */
        if (++in_window == o.window || g + 1 == o.games || cli_interrupted()) {
            if (csv)
                write_window(csv, windows, in_window, &window);
            total.wins += window.wins;
            total.draws += window.draws;
            total.losses += window.losses;
            window = (train_tally){0};
            in_window = 0;
            windows++;
        }
        if (bar) {
            train_tally shown = {total.wins + window.wins, total.draws + window.draws,
                                 total.losses + window.losses};
            char tally[3 * 24 + 16];
            snprintf(tally, sizeof tally, "  W %" PRId64 " D %" PRId64 " L %" PRId64, shown.wins, shown.draws,
                     shown.losses);
            cli_ticker_update(&ticker, (uint64_t)(g + 1), tally);
        }
    }
    cli_interrupt_release();
    double ms = ttt_clock_ms() - start;
    bool interrupted = st == TTT_OK && cli_interrupted();
    if (bar) {
        cli_ticker_stop(&ticker);
        if (!interrupted) /* the last count and tally, drawn now, stay on the screen */
            cli_progress((uint64_t)g, (uint64_t)o.games, ticker.extra);
        fputs(interrupted ? "\r\033[K" : "\n", stderr);
    }
    if (csv)
        fclose(csv);
    ttt_engine_free(learner);
    ttt_engine_free(opponent);
    if (st)
        return cli_runtime("train", "game %" PRId64 ": %s", g + 1, err.msg);
    if (interrupted)
        return train_interrupted(&o, own_memory, &before, g);
    const char *as = o.as == TTT_X ? "X" : o.as == TTT_O ? "O" : "X and O";
    char games[CLI_COUNTED_SIZE], wins[CLI_COUNTED_SIZE], draws[CLI_COUNTED_SIZE], losses[CLI_COUNTED_SIZE],
        took[CLI_DURATION_SIZE], rate[CLI_COUNT_SIZE];
    printf("%s: %s as %s against %s: %s: %s, %s, %s (%s, %s games/s)\n", rt, o.learner, as, o.against,
           cli_counted((uint64_t)o.games, "game", "games", games, sizeof games),
           cli_counted((uint64_t)total.wins, "win", "wins", wins, sizeof wins),
           cli_counted((uint64_t)total.draws, "draw", "draws", draws, sizeof draws),
           cli_counted((uint64_t)total.losses, "loss", "losses", losses, sizeof losses),
           cli_duration(ms, took, sizeof took),
           cli_count(ms > 0 ? (uint64_t)((double)o.games * 1e3 / ms + 0.5) : 0, rate, sizeof rate));
    if (own_memory) {
        ttt_store *store;
        st = ttt_store_open(o.memory, &store, &err);
        if (!st)
            st = ttt_store_memory_stats_each(store, print_memory, rt, &err);
        ttt_store_close(store);
        if (st)
            return cli_runtime("train", "%s", err.msg);
    }
    return CLI_OK;
}
