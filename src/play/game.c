/* play/game.c - a game session (ttt/game.h): players, moves, undo, the score across games. No I/O. */
#include "ttt/game.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttt/notation.h"
#include "util/error.h"

static bool is_human(const char *who) { return strcmp(who, TTT_HUMAN) == 0; }

/* Names a player: who as the client gives it, spec what it runs (TTT_HUMAN for a person). */
static ttt_status name_player(ttt_game_player *p, const char *who, const char *spec, ttt_error *err)
{
    memset(p, 0, sizeof *p);
    const char *text[2] = {who, spec};
    for (int i = 0; i < 2; i++)
        if (strlen(text[i]) >= TTT_SPEC_TEXT_SIZE)
            return ttt_fail(err, TTT_EINVAL, "player '%.32s...': longer than %d characters", text[i],
                            TTT_SPEC_TEXT_SIZE - 1);
    snprintf(p->who, sizeof p->who, "%s", who);
    snprintf(p->spec, sizeof p->spec, "%s", spec);
    return TTT_OK;
}

/* Makes a player: a person, or an engine given the session's seed unless its spec names one. */
static ttt_status make_player(ttt_game_player *p, const char *who, const ttt_rules *rules, uint64_t seed,
                              ttt_error *err)
{
    ttt_status st = name_player(p, who, TTT_HUMAN, err);
    if (st || is_human(who))
        return st;
    char spec[2 * TTT_SPEC_TEXT_SIZE];
    if (strstr(who, "seed="))
        snprintf(spec, sizeof spec, "%s", who);
    else
        snprintf(spec, sizeof spec, "%s%cseed=%" PRIu64, who, strchr(who, ':') ? ',' : ':', seed);
    st = ttt_engine_new(spec, rules, &p->engine, err);
    if (st == TTT_OK)
        ttt_engine_spec(p->engine, p->spec, sizeof p->spec);
    return st;
}

/* A session with no player yet, its rules checked. */
static ttt_status game_alloc(const ttt_rules *rules, ttt_game **out, ttt_error *err)
{
    ttt_status st = ttt_rules_check(rules, err);
    if (st)
        return st;
    ttt_game *g = calloc(1, sizeof *g);
    if (!g)
        return ttt_fail(err, TTT_ENOMEM, "out of memory for a game");
    g->rules = *rules;
    *out = g;
    return TTT_OK;
}

/* Starts the first game of a session whose players are set. */
static ttt_game *game_start(ttt_game *g)
{
    g->x_player = 1; /* ttt_game_next swaps it back to players[0] */
    ttt_game_next(g, true);
    return g;
}

ttt_status ttt_game_new(const ttt_rules *rules, const char *x_who, const char *o_who, uint64_t seed,
                        ttt_game **out, ttt_error *err)
{
    *out = NULL;
    ttt_game *g = NULL;
    ttt_status st = game_alloc(rules, &g, err);
    if (st)
        return st;
    if ((st = make_player(&g->players[0], x_who, rules, seed, err)) != TTT_OK ||
        (st = make_player(&g->players[1], o_who, rules, seed + 1, err)) != TTT_OK) {
        ttt_game_free(g);
        return st;
    }
    *out = game_start(g);
    return TTT_OK;
}

ttt_status ttt_game_new_unmade(const ttt_rules *rules, const char *x_who, const char *x_spec,
                               const char *o_who, const char *o_spec, ttt_game **out, ttt_error *err)
{
    *out = NULL;
    ttt_game *g = NULL;
    ttt_status st = game_alloc(rules, &g, err);
    if (st)
        return st;
    if ((st = name_player(&g->players[0], x_who, x_spec, err)) != TTT_OK ||
        (st = name_player(&g->players[1], o_who, o_spec, err)) != TTT_OK) {
        ttt_game_free(g);
        return st;
    }
    *out = game_start(g);
    return TTT_OK;
}

void ttt_game_free(ttt_game *g)
{
    if (!g)
        return;
    ttt_engine_free(g->players[0].engine);
    ttt_engine_free(g->players[1].engine);
    free(g);
}

ttt_game_player *ttt_game_side(ttt_game *g, ttt_player side)
{
    assert(side == TTT_X || side == TTT_O);
    return &g->players[side == TTT_X ? g->x_player : 1 - g->x_player];
}

bool ttt_game_is_human(const ttt_game_player *p) { return is_human(p->spec); }

ttt_engine *ttt_game_set_engine(ttt_game *g, ttt_player side, ttt_engine *engine)
{
    ttt_game_player *p = ttt_game_side(g, side);
    assert(!engine || !is_human(p->spec));
    ttt_engine *old = p->engine;
    p->engine = engine;
    return old;
}

int ttt_game_humans(const ttt_game *g) { return is_human(g->players[0].spec) + is_human(g->players[1].spec); }

ttt_outcome ttt_game_outcome(const ttt_game *g) { return ttt_board_outcome(&g->board); }

ttt_engine *ttt_game_engine_to_move(ttt_game *g)
{
    if (ttt_board_terminal(&g->board))
        return NULL;
    return ttt_game_side(g, ttt_board_to_move(&g->board))->engine;
}

/* Counts a finished game in the players' scores (by = 1), or takes it out again (by = -1: an undo reopened
 * it). */
static void score_game(ttt_game *g, int by)
{
    ttt_outcome o = ttt_board_outcome(&g->board);
    ttt_game_player *x = ttt_game_side(g, TTT_X), *oo = ttt_game_side(g, TTT_O);
    if (o == TTT_DRAW) {
        g->draws += by;
        x->drawn_as[TTT_X] += by;
        oo->drawn_as[TTT_O] += by;
    } else if (o == TTT_X_WINS) {
        x->wins += by;
        x->won_as[TTT_X] += by;
        oo->lost_as[TTT_O] += by;
    } else {
        oo->wins += by;
        oo->won_as[TTT_O] += by;
        x->lost_as[TTT_X] += by;
    }
}

ttt_status ttt_game_play(ttt_game *g, ttt_move move, ttt_error *err)
{
    if (ttt_board_terminal(&g->board))
        return ttt_fail(err, TTT_ESTATE, "the game is over");
    if (move < 0 || move >= g->board.cells)
        return ttt_fail(err, TTT_EINVAL, "cell %d is off the %dx%d board", move, g->rules.rows,
                        g->rules.cols);
    if (ttt_board_at(&g->board, move) != TTT_NOBODY) {
        char name[TTT_MOVE_TEXT_SIZE];
        return ttt_fail(err, TTT_EINVAL, "%s is taken", ttt_move_format(&g->rules, move, name, sizeof name));
    }
    ttt_board_play(&g->board, move);
    g->moves[g->count++] = move;
    if (ttt_board_terminal(&g->board)) {
        g->ended = time(NULL);
        score_game(g, 1);
    }
    return TTT_OK;
}

/* Takes back the last plies moves (at most count). */
static void take_back(ttt_game *g, int plies)
{
    if (plies > 0 && ttt_board_terminal(&g->board)) { /* the finished game reopens and no longer counts */
        score_game(g, -1);
        g->ended = 0;
    }
    for (int i = 0; i < plies; i++)
        ttt_board_undo(&g->board, g->moves[--g->count]);
}

int ttt_game_undo(ttt_game *g)
{
    /* The last person's move: the latest move whose mover is a person (the mover of move i is i's parity). */
    int last = g->count - 1;
    while (last >= 0 && !is_human(ttt_game_side(g, (ttt_player)(last & 1))->spec))
        last--;
    if (last < 0)
        return 0;
    int undone = g->count - last;
    take_back(g, undone);
    return undone;
}

ttt_status ttt_game_take_back(ttt_game *g, int plies, ttt_error *err)
{
    assert(plies >= 1);
    if (plies > g->count)
        return ttt_fail(err, TTT_ESTATE, "cannot take back %d moves: %d played", plies, g->count);
    take_back(g, plies);
    return TTT_OK;
}

void ttt_game_next(ttt_game *g, bool swap)
{
    if (swap)
        g->x_player = 1 - g->x_player;
    ttt_board_init(&g->board, &g->rules);
    g->count = 0;
    g->number++;
    g->started = time(NULL);
    g->ended = 0;
    for (int i = 0; i < 2; i++)
        if (g->players[i].engine)
            ttt_engine_new_game(g->players[i].engine);
}

ttt_status ttt_game_tell_engines(ttt_game *g, ttt_error *err)
{
    assert(ttt_board_terminal(&g->board));
    ttt_engine *engines[2] = {g->players[0].engine, g->players[1].engine};
    return ttt_engines_game_over(engines, 2, g->moves, g->count, ttt_board_outcome(&g->board), err);
}
