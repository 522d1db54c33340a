/*
 * cli/play.h - what the two front ends of `ttt play` share: the line mode (cmd_play.c) and the terminal UI
 * (cli/tui.c). The session itself (players, moves, undo, score) is the library's ttt_game.
 */
#ifndef TTT_CLI_PLAY_H
#define TTT_CLI_PLAY_H

#include "ttt/ttt.h"

/* Budget of a hint's solver search, in milliseconds (the fallback engine spends its own budget). */
#define PLAY_HINT_MS TTT_HINT_DEFAULT_MS
/* Transposition table of the hints' solver, in MiB. */
#define PLAY_HINT_TT_MIB 32
/* The analysing engine of hints when no player can analyse: Monte Carlo at full strength. */
#define PLAY_HINT_ENGINE "montecarlo"

/* Text sizes: a hint cell ("W12", "+43"), a score line. */
#define PLAY_EVAL_TEXT_SIZE  8
#define PLAY_SCORE_TEXT_SIZE 256

/* How a session is played. */
typedef struct play_config {
    int games;    /* games in the session; 0 = until the player quits (terminal UI) or one game (line mode) */
    bool verbose; /* engine-only sessions: a line per game */
    uint64_t seed;    /* the session seed (the hints' engine is seeded from it too) */
    ttt_store *store; /* where finished games are recorded; NULL records nothing (--no-record) */
} play_config;

/* Everything hints need for one session: a solver (its table reused within a game, cleared between games)
 * and, when the solver cannot prove every move, an analysing engine: the first engine player that can
 * analyse, else a full-strength PLAY_HINT_ENGINE made on first use. */
typedef struct play_hinter {
    ttt_solver *solver;
    ttt_engine *own; /* the PLAY_HINT_ENGINE made on first use, or NULL */
    int game;        /* the session's game number the solver's table is about */
} play_hinter;

/* Every finished game goes through here, whatever the front end: the engines are told how it went (a learning
 * engine learns from games against people) and the game is recorded in cfg->store. Call it once per finished
 * game. Both steps are tried; a failure of either comes back (the caller shows it and plays on). */
ttt_status play_finished(ttt_game *g, const play_config *cfg, ttt_error *err);

/* After `unsaved` (> 0) finished games for which play_finished failed (each already reported): says so on
 * stderr and returns the exit status of a runtime failure, so that scripts see that games were not saved. */
int play_unsaved_exit(int unsaved);

/* Analyses the position of g (ongoing) for a hint: ttt_hint with the session's solver and fallback. The
 * hinter starts zeroed and is released with play_hinter_free. */
ttt_status play_hint(play_hinter *h, ttt_game *g, uint64_t seed, ttt_analysis *out, ttt_error *err);

/* The first half of play_hint, for a front end that runs the search on another thread: makes the solver and
 * the fallback engine if needed and puts the fallback in *fallback. Then ttt_hint(h->solver, board,
 * *fallback, PLAY_HINT_MS, ...) does the rest, touching nothing of g. */
ttt_status play_hint_prepare(play_hinter *h, ttt_game *g, uint64_t seed, ttt_engine **fallback,
                             ttt_error *err);
void play_hinter_free(play_hinter *h);

/* A move's value for a hint cell: "W3" (wins, the game ends in 3 moves), "D" (draw), "L5", a score "+43"
 * (of +99, a sure win) or "-12" for an estimate, "?" for no opinion. Numbers have at most digits digits
 * (PLAY_DIGITS; 1 in cells too narrow for three characters: scores capped to +9 and -9, "W" for a win in
 * more than 9 moves). Returns buf. */
#define PLAY_DIGITS 2
const char *play_eval_text(const ttt_move_eval *v, int digits, char *buf, size_t size);

/* How the best move of a hint is marked in a grid of text (line mode). */
#define PLAY_BEST_MARK "*"

/* The legend of a hint, naming only the kinds of values it shows, each once with an example from it, and the
 * best move followed by mark (how the board marks it): "best c1*; W1 wins in 1 move; D draws; L4 loses in 4
 * moves; +43 an estimate (+99 a sure win); ? not analysed in time"; digits as for play_eval_text. Returns
 * buf. */
const char *play_hint_legend(const ttt_rules *r, const ttt_analysis *a, int digits, const char *mark,
                             char *buf, size_t size);

/* A player's name in scores and prompts: "you" when one person plays an engine, "X player" / "O player" style
 * for two people (by the side they had in the first game), the spec as given for an engine. */
const char *play_player_name(const ttt_game *g, int player, char *buf, size_t size);

/* "you 1, perfect 0, draws 2" across the games of the session. Returns buf. */
const char *play_score_text(const ttt_game *g, char *buf, size_t size);

/* What quitting leaves on stdout, in line mode and after the terminal UI: "ttt play: 2 games played, 1
 * abandoned: you 1, perfect 0, draws 1" (the finished games of the session, and the one quit if it had a move),
 * or "ttt play: no game played (1 abandoned)". */
void play_print_session_score(const ttt_game *g);

#endif
