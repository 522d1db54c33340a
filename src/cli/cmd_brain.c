/*
 * cli/cmd_brain.c - `ttt brain`: a Gomocup (Piskvork) brain on standard input and output.
 *
 * The protocol's lines are parsed and formatted by the library (ttt/gomocup.h); this file keeps the game (a
 * board, the engine that lives as long as the game and its rules), plans the time of each move, and reads
 * and writes the lines, flushing after each one. No answer ends the brain but END or the end of its input.
 */
#define _GNU_SOURCE /* getopt_long */
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* The default engine: the solver (minimax) where it proves the game in the time of a move; beyond, gomoku
 * (threats and alpha-beta) where a line of k >= 4 wins, else mcts. minimax solves 5x5k4 from the start
 * within its default second. On 15x15k5 against Rapfi (README) gomoku won 6 of 6 against depth 1
 * where mcts won 3 of 20. */
#define BRAIN_SOLVER_MAX_CELLS 25
#define BRAIN_SOLVER_SPEC      "minimax"
#define BRAIN_THREATS_SPEC     "gomoku"
#define BRAIN_THREATS_MIN_K    4
#define BRAIN_SEARCH_SPEC      "mcts"
/* The protocol's game: five in a row (fewer on boards whose longest side is shorter). */
#define BRAIN_DEFAULT_K 5
/* Time per move until the manager says otherwise (INFO timeout_turn), and what "as fast as possible"
 * (timeout_turn 0) means: one millisecond of search. */
#define BRAIN_DEFAULT_TURN_MS 1000
#define BRAIN_FASTEST_MS      1
/* The plan: a share of the move's limit, less a reserve for the protocol, the process and the clock's
 * granularity (mcts reads the clock every 64 iterations). Measured: README, `ttt brain` time planning. */
#define BRAIN_TIME_SHARE      0.8
#define BRAIN_TIME_RESERVE_MS 5.0
/* With a match clock, the time left is spread over this many of our moves to come: half the empty cells,
 * but at least the minimum (a game may last longer than it seems) and at most the maximum. */
#define BRAIN_MIN_MOVES_LEFT 8
#define BRAIN_MAX_MOVES_LEFT 30
/* max_memory: the mcts tree gets half of it, at 64 bytes a node (32, twice while the tree is carried over),
 * and never fewer nodes than this. */
#define BRAIN_TREE_MEMORY_SHARE 0.5
#define BRAIN_TREE_NODE_BYTES   64
#define BRAIN_MIN_TREE_NODES    4096
#define BRAIN_MAX_TREE_NODES    (INT64_C(1) << 31)
/* max_memory: minimax's transposition table gets the same share, in MiB, between 1 and its default size (a
 * bigger table does not pay within a move's time). */
#define BRAIN_MIB        (1024.0 * 1024.0)
#define BRAIN_MIN_TT_MIB 1
#define BRAIN_MAX_TT_MIB 64
/* Times beyond a day are taken as a day (the engines' own limit). */
#define BRAIN_MAX_MS INT64_C(86400000)
/* The option keys that fix an engine's budget: a spec that sets one plays with it, unplanned. */
static const char *const budget_keys[] = {"time", "iterations", "trials", "nodes", "depth"};

static const char help[] =
    "usage: ttt brain [--engine SPEC] [--think]\n"
    "\n"
    "A Gomocup (Piskvork) brain on standard input and output, for tournament managers (c-gomoku-cli,\n"
    "Piskvork, liskvork) and gomoku GUIs: START, RECTSTART, RESTART, BEGIN, TURN, BOARD ... DONE, TAKEBACK,\n"
    "INFO, ABOUT, END. Coordinates are 0-based, x the column and y the row. Five or more in a row wins;\n"
    "boards from 3 to 20 a side. Extension keys: INFO ttt_k K (K in a row wins), INFO ttt_misere 1 (a line\n"
    "loses), INFO ttt_seed N (the engine's seed).\n"
    "\n"
    "  -e, --engine SPEC  the engine (default: minimax up to 25 cells, where it solves the game, else\n"
    "                     gomoku where a line of 4 or more wins, else mcts).\n"
    "                     Its time per move is planned from INFO timeout_turn, timeout_match and time_left\n"
    "                     unless SPEC sets its own budget (time=, iterations=, trials=, nodes=, depth=)\n"
    "      --think        before each move's answer, DEBUG and MESSAGE lines on the search (the engine's\n"
    "                     spec, the time planned; depth, nodes, time)\n"
    "\n"
    "example: printf 'START 15\\nBEGIN\\nEND\\n' | ttt brain\n";

typedef struct brain {
    const char *spec; /* --engine, or NULL for the default */
    bool think;       /* --think */
    int64_t turn_ms;  /* INFO timeout_turn */
    int64_t match_ms; /* INFO timeout_match: 0 = none */
    int64_t left_ms;  /* INFO time_left, then counted down by our own moves; -1 = unknown */
    uint64_t memory;  /* INFO max_memory in bytes: 0 = none */
    int64_t k;        /* INFO ttt_k: 0 = the protocol's */
    bool misere;      /* INFO ttt_misere */
    bool seeded;      /* INFO ttt_seed seen */
    uint64_t seed;
    int width, height; /* of the game, once started */
    bool started;
    ttt_board board;
    ttt_engine *engine;             /* lives with the game; NULL when it must be (re)made */
    bool planned;                   /* the engine's time is planned move by move */
    bool in_board;                  /* between BOARD and DONE */
    bool skipping;                  /* a BOARD dropped before DONE: the rest of it goes unanswered */
    ttt_bits own, opp;              /* the stones BOARD has listed */
    ttt_move listed[TTT_MAX_CELLS]; /* and their cells in the order listed */
    int nlisted;
    ttt_move history[TTT_MAX_CELLS];  /* the board's stones in the order played (after BOARD, as listed): the
                                        first board.ply are valid; TAKEBACK takes the last one */
    char board_error[TTT_ERROR_SIZE]; /* the first bad stone line of BOARD, reported at DONE */
} brain;

/* One line out, flushed: managers wait for it. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

static void drop_engine(brain *br)
{
    ttt_engine_free(br->engine);
    br->engine = NULL;
}

/* True when the options of spec set key. */
static bool spec_sets(const char *spec, const char *key)
{
    const char *colon = strchr(spec, ':');
    size_t len = strlen(key);
    for (const char *p = colon; p; p = strchr(p + 1, ','))
        if (strncmp(p + 1, key, len) == 0 && p[1 + len] == '=')
            return true;
    return false;
}

/* The rules of a w x h game with the extension keys applied; TTT_EINVAL with the reason. */
static ttt_status game_rules(const brain *br, int w, int h, ttt_rules *out, ttt_error *err)
{
    if (w < TTT_MIN_SIDE || w > TTT_MAX_SIDE || h < TTT_MIN_SIDE || h > TTT_MAX_SIDE) {
        snprintf(err->msg, sizeof err->msg, "unsupported size %dx%d: ttt plays boards from %d to %d a side",
                 w, h, TTT_MIN_SIDE, TTT_MAX_SIDE);
        return TTT_EINVAL;
    }
    int longest = w > h ? w : h;
    int k = br->k ? (int)br->k : (BRAIN_DEFAULT_K < longest ? BRAIN_DEFAULT_K : longest);
    *out = (ttt_rules){.rows = h, .cols = w, .k = k, .misere = br->misere};
    return ttt_rules_check(out, err);
}

static bool ensure_engine(brain *br, bool quiet);

/* Starts a w x h game: OK, or ERROR with the reason (the previous game, if any, stays). */
static void start_game(brain *br, int w, int h)
{
    ttt_rules rules;
    ttt_error err;
    if (game_rules(br, w, h, &rules, &err)) {
        say("ERROR %s", err.msg);
        return;
    }
    if (br->engine && !ttt_rules_equal(&rules, ttt_engine_rules(br->engine)))
        drop_engine(br);
    if (br->engine)
        ttt_engine_new_game(br->engine);
    br->width = w;
    br->height = h;
    br->started = true;
    br->in_board = false;
    br->skipping = false;
    ttt_board_init(&br->board, &rules);
    ensure_engine(br,
                  true); /* now, so that a slow one (a table to build) does not eat the first move's time */
    say("OK");
}

/* The rules changed by an extension key: applied at once to a game that has no stone yet. False (after
 * answering ERROR) when the game's rules cannot take them: the caller puts the key's old value back. */
static bool rules_changed(brain *br, const char *key)
{
    if (!br->started)
        return true;
    if (br->board.ply > 0) {
        say("ERROR INFO %s: the rules of a game cannot change after its first move (send it before BEGIN "
            "or the first TURN)",
            key);
        return false;
    }
    ttt_rules rules;
    ttt_error err;
    if (game_rules(br, br->width, br->height, &rules, &err)) {
        say("ERROR INFO %s: %s", key, err.msg);
        return false;
    }
    drop_engine(br);
    ttt_board_init(&br->board, &rules);
    return true;
}

/* Whether a line wins under the rules (asked of the board, as the engines do): X holding a full row. */
static bool line_wins(const ttt_rules *rules)
{
    ttt_bits x = {{0}}, o = {{0}};
    for (int i = 0; i < rules->k && i < rules->cols; i++)
        ttt_bits_set(&x, i);
    ttt_board probe;
    ttt_board_from_bits(&probe, rules, &x, &o);
    return ttt_board_outcome(&probe) == TTT_X_WINS;
}

/* The default engine for the rules (see BRAIN_SOLVER_MAX_CELLS). */
static const char *default_spec(const ttt_rules *rules)
{
    if (ttt_rules_cells(rules) <= BRAIN_SOLVER_MAX_CELLS)
        return BRAIN_SOLVER_SPEC;
    if (rules->k >= BRAIN_THREATS_MIN_K && rules->k <= rules->cols && line_wins(rules))
        return BRAIN_THREATS_SPEC;
    return BRAIN_SEARCH_SPEC;
}

/* Makes the engine for the game's rules: the given spec or the default, with the seed and memory the
 * manager set unless the spec sets them itself. False after answering ERROR (quiet: without answering; the
 * first move tries again and answers). */
static bool ensure_engine(brain *br, bool quiet)
{
    if (br->engine)
        return true;
    const ttt_rules *rules = &br->board.rules;
    const char *base = br->spec ? br->spec : default_spec(rules);
    char spec[TTT_SPEC_TEXT_SIZE + 96];
    size_t n = (size_t)snprintf(spec, sizeof spec, "%s", base);
    char sep = strchr(base, ':') ? ',' : ':';
    if (br->seeded && !spec_sets(base, "seed") && n < sizeof spec) {
        n += (size_t)snprintf(spec + n, sizeof spec - n, "%cseed=%" PRIu64, sep, br->seed);
        sep = ',';
    }
    if (br->memory > 0 && ttt_engine_has_option(base, "tree") && !spec_sets(base, "tree") &&
        n < sizeof spec) {
        double nodes = (double)br->memory * BRAIN_TREE_MEMORY_SHARE / BRAIN_TREE_NODE_BYTES;
        nodes = nodes < BRAIN_MIN_TREE_NODES   ? BRAIN_MIN_TREE_NODES
                : nodes > BRAIN_MAX_TREE_NODES ? BRAIN_MAX_TREE_NODES
                                               : nodes;
        n += (size_t)snprintf(spec + n, sizeof spec - n, "%ctree=%" PRId64, sep, (int64_t)nodes);
        sep = ',';
    }
    if (br->memory > 0 && ttt_engine_has_option(base, "tt") && !spec_sets(base, "tt") && n < sizeof spec) {
        double mib = (double)br->memory * BRAIN_TREE_MEMORY_SHARE / BRAIN_MIB;
        mib = mib < BRAIN_MIN_TT_MIB ? BRAIN_MIN_TT_MIB : mib > BRAIN_MAX_TT_MIB ? BRAIN_MAX_TT_MIB : mib;
        n += (size_t)snprintf(spec + n, sizeof spec - n, "%ctt=%d", sep, (int)mib);
    }
    ttt_error err;
    double t0 = ttt_clock_ms();
    if (n >= sizeof spec || ttt_engine_new(spec, rules, &br->engine, &err)) {
        if (!quiet)
            say("ERROR %s", n >= sizeof spec ? "engine spec too long" : err.msg);
        br->engine = NULL;
        return false;
    }
    if (br->think) {
        char full[TTT_SPEC_TEXT_SIZE];
        say("DEBUG engine %s made in %.0f ms", ttt_engine_spec(br->engine, full, sizeof full),
            ttt_clock_ms() - t0);
    }
    br->planned = ttt_engine_has_option(base, "time");
    for (size_t i = 0; i < sizeof budget_keys / sizeof budget_keys[0]; i++)
        if (spec_sets(base, budget_keys[i]))
            br->planned = false;
    return true;
}

/* Milliseconds for this move: a share of the turn's limit and of the match time left, less a reserve and
 * what the move has spent already (spent_ms: making the engine). */
static uint64_t plan_ms(const brain *br, double spent_ms)
{
    double limit = br->turn_ms > 0 ? (double)br->turn_ms : BRAIN_FASTEST_MS;
    if (br->match_ms > 0 && br->left_ms >= 0) {
        int moves = (br->board.cells - br->board.ply) / 2;
        moves = moves < BRAIN_MIN_MOVES_LEFT   ? BRAIN_MIN_MOVES_LEFT
                : moves > BRAIN_MAX_MOVES_LEFT ? BRAIN_MAX_MOVES_LEFT
                                               : moves;
        double share = (double)br->left_ms / moves;
        if (share < limit)
            limit = share;
    }
    double ms = limit * BRAIN_TIME_SHARE - BRAIN_TIME_RESERVE_MS - spent_ms;
    return ms < BRAIN_FASTEST_MS ? BRAIN_FASTEST_MS : (uint64_t)ms;
}

/* The brain's move in the current position: played on the board and answered "x,y". */
static void play_move(brain *br)
{
    if (!br->started) {
        say("ERROR no game: START or RECTSTART first");
        return;
    }
    if (ttt_board_terminal(&br->board)) {
        say("ERROR the game is over: no move to make");
        return;
    }
    double t0 = ttt_clock_ms(); /* making the engine counts in the move's time */
    if (!ensure_engine(br, false))
        return;
    ttt_error err;
    uint64_t budget = 0;
    if (br->planned) {
        budget = plan_ms(br, ttt_clock_ms() - t0);
        if (ttt_engine_set_time(br->engine, budget, &err)) {
            say("ERROR %s", err.msg);
            return;
        }
    }
    ttt_move m;
    ttt_search_info info;
    if (ttt_engine_choose(br->engine, &br->board, &m, &info, &err)) {
        say("ERROR %s", err.msg);
        return;
    }
    br->history[br->board.ply] = m;
    ttt_board_play(&br->board, m);
    double spent = ttt_clock_ms() - t0;
    if (br->left_ms >= 0)
        br->left_ms = br->left_ms > (int64_t)spent ? br->left_ms - (int64_t)spent : 0;
    if (br->think) {
        char spec[TTT_SPEC_TEXT_SIZE];
        say("DEBUG engine %s, planned %" PRIu64 " ms", ttt_engine_spec(br->engine, spec, sizeof spec),
            budget);
        say("MESSAGE depth %d nodes %" PRIu64 " time %.0f ms", info.depth, info.nodes, info.ms);
    }
    say("%d,%d", m % br->board.rules.cols, m / br->board.rules.cols);
}

/* The cell of x,y, or -1 (after answering ERROR) when it is off the board. */
static int cell_of(const brain *br, const char *cmd, int x, int y)
{
    if (!br->started) {
        say("ERROR no game: START or RECTSTART first");
        return -1;
    }
    if (x >= br->width || y >= br->height) {
        say("ERROR %s %d,%d: off the %dx%d board", cmd, x, y, br->width, br->height);
        return -1;
    }
    return y * br->width + x;
}

static void turn(brain *br, int x, int y)
{
    int cell = cell_of(br, "TURN", x, y);
    if (cell < 0)
        return;
    ttt_error err;
    /* the protocol's own words for the cell (x,y), not the board's a1 names */
    if (ttt_board_at(&br->board, cell) != TTT_NOBODY) {
        say("ERROR TURN %d,%d: the cell is taken", x, y);
        return;
    }
    if (ttt_board_terminal(&br->board)) {
        say("ERROR TURN %d,%d: the game is over", x, y);
        return;
    }
    if (ttt_board_play_checked(&br->board, cell, &err)) {
        say("ERROR TURN %d,%d: %s", x, y, err.msg);
        return;
    }
    br->history[br->board.ply - 1] = cell;
    play_move(br);
}

/* Rebuilds the board from two stone sets; false (the board unchanged) with the reason when it is not a
 * position of a game. */
static bool set_position(brain *br, const ttt_bits *x, const ttt_bits *o, ttt_error *err)
{
    ttt_board b;
    ttt_board_from_bits(&b, &br->board.rules, x, o);
    if (ttt_board_validate(&b, err))
        return false;
    br->board = b;
    return true;
}

static void takeback(brain *br, int x, int y)
{
    int cell = cell_of(br, "TAKEBACK", x, y);
    if (cell < 0)
        return;
    if (ttt_board_at(&br->board, cell) == TTT_NOBODY) {
        say("ERROR TAKEBACK %d,%d: the cell is empty", x, y);
        return;
    }
    /* Stones come back last first, as they were played: another one would leave a position no game had. */
    ttt_move last = br->history[br->board.ply - 1];
    if (last != cell) {
        say("ERROR TAKEBACK %d,%d: not the last stone, which is %d,%d (take stones back from the last one)",
            x, y, last % br->width, last / br->width);
        return;
    }
    ttt_board_undo(&br->board, cell);
    say("OK");
}

static void board_begin(brain *br)
{
    if (!br->started) {
        say("ERROR no game: START or RECTSTART first");
        return;
    }
    br->in_board = true;
    br->skipping = false; /* a BOARD inside a dropped one is a position of its own, answered at its DONE */
    br->nlisted = 0;
    memset(&br->own, 0, sizeof br->own);
    memset(&br->opp, 0, sizeof br->opp);
    br->board_error[0] = '\0';
}

static void board_stone(brain *br, const ttt_gomocup_command *c)
{
    if (br->board_error[0])
        return;
    if (c->x >= br->width || c->y >= br->height)
        snprintf(br->board_error, sizeof br->board_error, "BOARD %d,%d: off the %dx%d board", c->x, c->y,
                 br->width, br->height);
    else if (c->field == 3)
        snprintf(br->board_error, sizeof br->board_error,
                 "BOARD %d,%d,3: continuous games (winning-line stones) are not supported", c->x, c->y);
    else {
        int cell = c->y * br->width + c->x;
        if (ttt_bits_test(&br->own, cell) || ttt_bits_test(&br->opp, cell))
            snprintf(br->board_error, sizeof br->board_error, "BOARD %d,%d: two stones on one cell", c->x,
                     c->y);
        else {
            ttt_bits_set(c->field == 1 ? &br->own : &br->opp, cell);
            br->listed[br->nlisted++] = cell;
        }
    }
}

/* The listed stones as the game's history: X's and O's alternating from X's, each side's in the order
 * listed (a manager lists them as played, or in any order). TAKEBACK takes back the last stone, which must
 * be of the side that moved last: listed in another order (all of one side first), a stone of the wrong
 * side would be taken off the board. */
static void board_history(brain *br, const ttt_bits *x_stones)
{
    ttt_move x[TTT_MAX_CELLS], o[TTT_MAX_CELLS];
    int nx = 0, no = 0;
    for (int i = 0; i < br->nlisted; i++) {
        if (ttt_bits_test(x_stones, br->listed[i]))
            x[nx++] = br->listed[i];
        else
            o[no++] = br->listed[i];
    }
    for (int i = 0; i < nx + no; i++)
        br->history[i] = i % 2 ? o[i / 2] : x[i / 2];
}

/* DONE: the listed position, with the brain to move, then its move. */
static void board_done(brain *br)
{
    br->in_board = false;
    if (br->board_error[0]) {
        say("ERROR %s", br->board_error);
        return;
    }
    int own = ttt_bits_count(&br->own), opp = ttt_bits_count(&br->opp);
    /* X moves first: with as many stones as the opponent the brain is X, with one fewer it is O. */
    if (own != opp && own + 1 != opp) {
        say("ERROR BOARD: %d own and %d opponent stones: the side to move must have as many stones as the "
            "other or one fewer",
            own, opp);
        return;
    }
    bool own_is_x = own == opp;
    ttt_error err;
    if (!set_position(br, own_is_x ? &br->own : &br->opp, own_is_x ? &br->opp : &br->own, &err)) {
        say("ERROR BOARD: %s", err.msg);
        return;
    }
    board_history(br, own_is_x ? &br->own : &br->opp);
    play_move(br);
}

/* Whether the engine's spec depends on max_memory (a tree or a table size it does not set itself). */
static bool sized_by_memory(const brain *br)
{
    if (!br->engine)
        return false;
    const char *base = br->spec ? br->spec : default_spec(&br->board.rules);
    return (ttt_engine_has_option(base, "tree") && !spec_sets(base, "tree")) ||
           (ttt_engine_has_option(base, "tt") && !spec_sets(base, "tt"));
}

static int64_t clamp_ms(uint64_t ms) { return ms > (uint64_t)BRAIN_MAX_MS ? BRAIN_MAX_MS : (int64_t)ms; }

static void info(brain *br, const ttt_gomocup_command *c)
{
    switch (c->key) {
    case TTT_GOMOCUP_INFO_TIMEOUT_TURN: br->turn_ms = clamp_ms(c->number); break;
    case TTT_GOMOCUP_INFO_TIMEOUT_MATCH: br->match_ms = clamp_ms(c->number); break;
    case TTT_GOMOCUP_INFO_TIME_LEFT: br->left_ms = clamp_ms(c->number); break;
    case TTT_GOMOCUP_INFO_MAX_MEMORY:
        if (br->memory != c->number && sized_by_memory(br))
            drop_engine(br);
        br->memory = c->number;
        break;
    case TTT_GOMOCUP_INFO_RULE: {
        char note[TTT_GOMOCUP_TEXT_SIZE];
        if (*ttt_gomocup_rule_note(c->number, note, sizeof note))
            say("MESSAGE %s", note);
        break;
    }
    case TTT_GOMOCUP_INFO_TTT_K: {
        if (c->number < TTT_MIN_K || c->number > TTT_MAX_SIDE) {
            say("ERROR INFO ttt_k %" PRIu64 ": expected k from %d to %d", c->number, TTT_MIN_K, TTT_MAX_SIDE);
            break;
        }
        int64_t old = br->k;
        br->k = (int64_t)c->number;
        if (!rules_changed(br, "ttt_k"))
            br->k = old; /* refused: not kept for the next game either */
        break;
    }
    case TTT_GOMOCUP_INFO_TTT_MISERE: {
        if (c->number > 1) {
            say("ERROR INFO ttt_misere %" PRIu64 ": expected 0 or 1", c->number);
            break;
        }
        bool old = br->misere;
        br->misere = c->number == 1;
        if (!rules_changed(br, "ttt_misere"))
            br->misere = old;
        break;
    }
    case TTT_GOMOCUP_INFO_TTT_SEED:
        br->seeded = true;
        br->seed = c->number;
        drop_engine(br);
        break;
    case TTT_GOMOCUP_INFO_GAME_TYPE: /* human, brain, tournament, network: all played alike */
    case TTT_GOMOCUP_INFO_FOLDER:    /* ttt keeps no files of its own here */
    case TTT_GOMOCUP_INFO_OTHER: break;
    }
}

/* Drops a BOARD before its DONE, answering ERROR: that is the answer to the whole position, so the stone
 * lines and the DONE that may still come are not answered again (each would read as the answer to the
 * manager's next command). */
static void drop_board(brain *br, const char *why)
{
    br->in_board = false;
    br->skipping = true;
    say("ERROR %s; the position is dropped", why);
}

/* Whether a line is the rest of a dropped BOARD: true for its stone lines and DONE (which end nothing but
 * the skipping), false for any other command, which ends it. */
static bool skipped(brain *br, ttt_gomocup_kind kind)
{
    if (!br->skipping)
        return false;
    if (kind == TTT_GOMOCUP_STONE || kind == TTT_GOMOCUP_EMPTY)
        return true;
    br->skipping = false;
    return kind == TTT_GOMOCUP_DONE;
}

/* Handles one parsed command; false at END. */
static bool handle(brain *br, const ttt_gomocup_command *c)
{
    if (skipped(br, c->kind))
        return true;
    if (br->in_board && c->kind != TTT_GOMOCUP_STONE && c->kind != TTT_GOMOCUP_DONE &&
        c->kind != TTT_GOMOCUP_EMPTY)
        drop_board(br, "BOARD: expected x,y,f lines and DONE");
    switch (c->kind) {
    case TTT_GOMOCUP_EMPTY: break;
    case TTT_GOMOCUP_START:
    case TTT_GOMOCUP_RECTSTART: start_game(br, c->width, c->height); break;
    case TTT_GOMOCUP_RESTART:
        if (!br->started)
            say("ERROR no game to restart: START or RECTSTART first");
        else
            start_game(br, br->width, br->height);
        break;
    case TTT_GOMOCUP_BEGIN:
        if (br->started && br->board.ply > 0)
            say("ERROR BEGIN: the board is not empty (RESTART first)");
        else
            play_move(br);
        break;
    case TTT_GOMOCUP_TURN: turn(br, c->x, c->y); break;
    case TTT_GOMOCUP_BOARD: board_begin(br); break;
    case TTT_GOMOCUP_STONE:
        if (br->in_board)
            board_stone(br, c);
        else
            say("ERROR %d,%d,%d: a stone line outside BOARD ... DONE", c->x, c->y, c->field);
        break;
    case TTT_GOMOCUP_DONE:
        if (br->in_board)
            board_done(br);
        else
            say("ERROR DONE without BOARD");
        break;
    case TTT_GOMOCUP_TAKEBACK: takeback(br, c->x, c->y); break;
    case TTT_GOMOCUP_INFO: info(br, c); break;
    case TTT_GOMOCUP_ABOUT: {
        char about[TTT_GOMOCUP_TEXT_SIZE];
        say("%s", ttt_gomocup_format_about(about, sizeof about));
        break;
    }
    case TTT_GOMOCUP_END: return false;
    case TTT_GOMOCUP_UNKNOWN: say("UNKNOWN command '%s'", c->text); break;
    }
    return true;
}

/* Reads one line (its break included) of standard input into buf, at most size bytes of it: a longer line is
 * read to its end and cut, so that the parser, seeing more than TTT_GOMOCUP_LINE_MAX characters, rejects it,
 * and no line makes the brain take more memory than buf. The length kept, or -1 at the end of the input. */
static ssize_t read_command(char *buf, size_t size)
{
    size_t n = 0;
    int ch = EOF;
    while ((ch = getchar()) != EOF) {
        if (n < size)
            buf[n++] = (char)ch;
        if (ch == '\n')
            break;
    }
    return n == 0 && ch == EOF ? -1 : (ssize_t)n;
}

int cmd_brain(int argc, char **argv)
{
    static const struct option longopts[] = {{"engine", required_argument, NULL, 'e'},
                                             {"think", no_argument, NULL, 't'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    brain br = {.turn_ms = BRAIN_DEFAULT_TURN_MS, .left_ms = -1};
    optind = 0;
    for (int c; (c = cli_getopt("brain", argc, argv, "e:h", longopts)) != -1;) {
        switch (c) {
        case 'e': br.spec = optarg; break;
        case 't': br.think = true; break;
        case 'h': fputs(help, stdout); return CLI_OK;
        default: return CLI_USAGE;
        }
    }
    if (optind < argc)
        return cli_usage("brain", "unexpected argument '%s' (the brain reads its commands from stdin)",
                         argv[optind]);
    if (br.spec) { /* a bad spec is a usage error now, not an ERROR at every move */
        char full[TTT_SPEC_TEXT_SIZE];
        ttt_rules probe;
        ttt_error err;
        ttt_rules_parse("15x15k5", &probe, NULL);
        if (ttt_engine_spec_expand(br.spec, &probe, full, sizeof full, &err) == TTT_EINVAL)
            return cli_usage("brain", "%s", err.msg);
    }
    char line[TTT_GOMOCUP_LINE_MAX + 2]; /* one more than a line may hold: a longer one is rejected */
    ssize_t len;
    bool running = true;
    /* A manager that stopped reading (SIGPIPE ignored, so writes just fail) gets no more thinking. */
    while (running && !ferror(stdout) && (len = read_command(line, sizeof line)) >= 0) {
        ttt_gomocup_command c;
        ttt_error err;
        if (ttt_gomocup_parse(line, (size_t)len, &c, &err)) {
            if (c.kind == TTT_GOMOCUP_STONE && skipped(&br, c.kind))
                continue; /* a bad stone line of a dropped BOARD; any other bad line is answered */
            if (br.in_board && (c.kind == TTT_GOMOCUP_STONE || c.kind == TTT_GOMOCUP_EMPTY)) {
                /* A bad stone line (or one too long to read) is answered at DONE, as a stone off the board
                 * is: the manager waits for one answer to the whole position. */
                if (!br.board_error[0])
                    memcpy(br.board_error, err.msg, sizeof br.board_error);
            } else if (br.in_board)
                drop_board(&br, err.msg);
            else
                say("ERROR %s", err.msg);
            continue;
        }
        running = handle(&br, &c);
    }
    drop_engine(&br);
    if (ferror(stdout))
        return cli_runtime("brain", "standard output: write error (the manager stopped reading)");
    return CLI_OK;
}
