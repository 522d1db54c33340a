/* cli/play.c - what the line mode and the terminal UI of `ttt play` share: finished games, hints, scores. */
#include "cli/play.h"

#include "cli/cli.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* A score in [-1, 1] is shown as a signed percentage of a sure win, capped to two digits. */
#define PLAY_SCORE_PERCENT 99.0
/* The largest number digits digits hold: distances of more plies are shown without a number, and scores
 * beyond it are capped to it (they do not fit a cell). */
static int play_digits_max(int digits) { return digits <= 1 ? 9 : 99; }

ttt_status play_finished(ttt_game *g, const play_config *cfg, ttt_error *err)
{
    ttt_error learn_err;
    ttt_status learn = ttt_game_tell_engines(g, &learn_err);
    ttt_status st = TTT_OK;
    if (cfg->store) {
        const ttt_game_player *x = ttt_game_side(g, TTT_X), *o = ttt_game_side(g, TTT_O);
        ttt_game_record rec;
        /* The players by the names people chose ("perfect", "random:seed=3"), as the web server records them.
         */
        st = ttt_game_record_make(&g->rules, g->moves, g->count, x->engine ? x->who : NULL,
                                  o->engine ? o->who : NULL, (int64_t)g->started, (int64_t)g->ended, &rec,
                                  err);
        if (st == TTT_OK)
            st = ttt_store_add_game(cfg->store, &rec, NULL, err);
    }
    if (learn && st == TTT_OK) {
        *err = learn_err;
        return learn;
    }
    return st;
}

int play_unsaved_exit(int unsaved)
{
    return cli_runtime("play", "%d finished game%s could not be saved (the reason%s above)", unsaved,
                       unsaved == 1 ? "" : "s", unsaved == 1 ? " is" : "s are");
}

ttt_status play_hint_prepare(play_hinter *h, ttt_game *g, uint64_t seed, ttt_engine **fallback,
                             ttt_error *err)
{
    ttt_status st;
    if (!h->solver && (st = ttt_solver_new(&g->rules, PLAY_HINT_TT_MIB, &h->solver, err)) != TTT_OK)
        return st;
    if (h->game != g->number) {
        ttt_solver_clear(h->solver); /* a new game: forget the last one's table */
        h->game = g->number;
    }
    *fallback = NULL;
    for (int i = 0; i < 2 && !*fallback; i++)
        if (g->players[i].engine && ttt_engine_can_analyse(g->players[i].engine))
            *fallback = g->players[i].engine;
    if (!*fallback) {
        if (!h->own) {
            char spec[TTT_SPEC_TEXT_SIZE];
            snprintf(spec, sizeof spec, "%s:seed=%" PRIu64, PLAY_HINT_ENGINE, seed);
            if ((st = ttt_engine_new(spec, &g->rules, &h->own, err)) != TTT_OK)
                return st;
        }
        *fallback = h->own;
    }
    return TTT_OK;
}

ttt_status play_hint(play_hinter *h, ttt_game *g, uint64_t seed, ttt_analysis *out, ttt_error *err)
{
    ttt_engine *fallback;
    ttt_status st = play_hint_prepare(h, g, seed, &fallback, err);
    return st ? st : ttt_hint(h->solver, &g->board, fallback, PLAY_HINT_MS, 1.0, out, err);
}

void play_hinter_free(play_hinter *h)
{
    ttt_solver_free(h->solver);
    ttt_engine_free(h->own);
    *h = (play_hinter){0};
}

const char *play_eval_text(const ttt_move_eval *v, int digits, char *buf, size_t size)
{
    int most = play_digits_max(digits);
    switch (v->kind) {
    case TTT_EVAL_EXACT:
        if (v->result == 0)
            snprintf(buf, size, "D");
        else if (v->plies > most)
            snprintf(buf, size, "%c", v->result > 0 ? 'W' : 'L');
        else
            snprintf(buf, size, "%c%d", v->result > 0 ? 'W' : 'L', v->plies);
        break;
    case TTT_EVAL_SCORE: {
        long score = lround(v->score * PLAY_SCORE_PERCENT);
        snprintf(buf, size, "%+ld", score > most ? most : score < -most ? -most : score);
        break;
    }
    case TTT_EVAL_NONE: snprintf(buf, size, "?"); break;
    }
    return buf;
}

const char *play_player_name(const ttt_game *g, int player, char *buf, size_t size)
{
    const ttt_game_player *p = &g->players[player];
    if (p->engine)
        snprintf(buf, size, "%s", p->who);
    else if (ttt_game_humans(g) == 1)
        snprintf(buf, size, "you");
    else
        snprintf(buf, size, "player %d", player + 1);
    /* Two engines of the same name (minimax against minimax) are told apart as ttt arena does: the second
     * player's name is numbered ("random", "random#2"). */
    if (player == 1 && p->engine && g->players[0].engine && strcmp(p->who, g->players[0].who) == 0)
        snprintf(buf + strlen(buf), size - strlen(buf), "#2");
    return buf;
}

const char *play_score_text(const ttt_game *g, char *buf, size_t size)
{
    char a[TTT_SPEC_TEXT_SIZE + 8], b[TTT_SPEC_TEXT_SIZE + 8];
    snprintf(buf, size, "%s %d, %s %d, draws %d", play_player_name(g, 0, a, sizeof a), g->players[0].wins,
             play_player_name(g, 1, b, sizeof b), g->players[1].wins, g->draws);
    return buf;
}

void play_print_session_score(const ttt_game *g)
{
    /* The game on the board counts only when it ended; one quit after a move is abandoned, one not begun is
     * nothing. */
    bool ended = ttt_board_terminal(&g->board);
    int played = g->number - (ended ? 0 : 1), abandoned = !ended && g->count > 0;
    char score[PLAY_SCORE_TEXT_SIZE], quit[32] = "";
    if (abandoned)
        snprintf(quit, sizeof quit, "%s%d abandoned", played ? ", " : " (", abandoned);
    if (played == 0)
        printf("ttt play: no game played%s%s\n", quit, abandoned ? ")" : "");
    else
        printf("ttt play: %d game%s played%s: %s\n", played, played == 1 ? "" : "s", quit,
               play_score_text(g, score, sizeof score));
}

const char *play_hint_legend(const ttt_rules *r, const ttt_analysis *a, int digits, const char *mark,
                             char *buf, size_t size)
{
    int most = play_digits_max(digits);
    /* The first move of each kind of value, in the analysis' order (best first): the example shown. */
    const ttt_move_eval *win = NULL, *draw = NULL, *loss = NULL, *score = NULL, *none = NULL;
    for (int i = 0; i < a->count; i++) {
        const ttt_move_eval *v = &a->moves[i];
        const ttt_move_eval **slot = v->kind == TTT_EVAL_SCORE  ? &score
                                     : v->kind == TTT_EVAL_NONE ? &none
                                     : v->result > 0            ? &win
                                     : v->result < 0            ? &loss
                                                                : &draw;
        if (!*slot)
            *slot = v;
    }
    char best[TTT_MOVE_TEXT_SIZE], text[PLAY_EVAL_TEXT_SIZE];
    size_t n = 0;
    if (a->count)
        n += (size_t)snprintf(buf, size, "best %s%s", ttt_move_format(r, a->moves[0].move, best, sizeof best),
                              mark);
    else
        n += (size_t)snprintf(buf, size, "no move");
    const ttt_move_eval *exact[] = {win, draw, loss}; /* shown in this order */
    for (int i = 0; i < 3; i++) {
        const ttt_move_eval *v = exact[i];
        if (!v || n >= size)
            continue;
        play_eval_text(v, digits, text, sizeof text);
        const char *verb = v->result > 0 ? "wins" : "loses";
        if (v->result == 0)
            n += (size_t)snprintf(buf + n, size - n, "; D draws");
        else if (v->plies > most)
            n += (size_t)snprintf(buf + n, size - n, "; %s %s in over %d moves", text, verb, most);
        else
            n += (size_t)snprintf(buf + n, size - n, "; %s %s in %d move%s", text, verb, v->plies,
                                  v->plies == 1 ? "" : "s");
    }
    if (score && n < size)
        n += (size_t)snprintf(buf + n, size - n, "; %s an estimate (+%d a sure win%s)",
                              play_eval_text(score, digits, text, sizeof text), (int)PLAY_SCORE_PERCENT,
                              most < PLAY_SCORE_PERCENT ? "; +9 is 9 or more" : "");
    if (none && n < size)
        snprintf(buf + n, size - n, "; ? not analysed in time");
    return buf;
}
