/*
 * ttt/game.h - a game session: two players (people or engines), the moves of the current game, undo, and the
 * score across the games of the session. No I/O and no clock other than the start and end times of a game:
 * the terminal UI, the line mode of `ttt play` and the web server drive it.
 *
 * A session has two players, players[0] and players[1]. players[0] plays X in the first game; a new game may
 * swap the sides (ttt_game_next). Everything a record of a finished game needs is here: the rules, who played
 * X and O (ttt_game_side), the moves, the outcome and the start and end times.
 *
 * Engines are used only through the calls below and ttt_game_side(...)->engine: a client that runs an
 * engine's search on another thread must not call into the session from two threads at once. A client that
 * makes its players' engines itself (a server: lazily, with shared resources, dropped to save memory) starts
 * the session with ttt_game_new_unmade and attaches them with ttt_game_set_engine.
 */
#ifndef TTT_GAME_H
#define TTT_GAME_H

#include <time.h>

#include "ttt/engine.h"

/* The player text that means a person at the keyboard. */
#define TTT_HUMAN "human"

typedef struct ttt_game_player {
    char who[TTT_SPEC_TEXT_SIZE];  /* as given: "human", "hard", "random:seed=3" */
    char spec[TTT_SPEC_TEXT_SIZE]; /* "human", or the engine's full spec with every option and the seed */
    ttt_engine *engine; /* NULL for a person (or an engine not made yet: ttt_game_new_unmade); owned */
    int wins;           /* games of the session this player won */
    int won_as[2], drawn_as[2], lost_as[2]; /* the same by the side played, indexed TTT_X, TTT_O */
} ttt_game_player;

typedef struct ttt_game {
    ttt_rules rules;
    ttt_game_player players[2];
    int x_player; /* which of players[] plays X in the current game */
    ttt_board board;
    ttt_move moves[TTT_MAX_CELLS]; /* the current game's moves from the empty board */
    int count;
    int number;     /* games started in the session, the current one included (1 in the first game) */
    int draws;      /* drawn games of the session */
    time_t started; /* when the current game started */
    time_t ended;   /* when its last move was played; 0 while it is going on */
} ttt_game;

/* Starts a session on the given rules (the first game begins at once). x_who and o_who are TTT_HUMAN or an
 * engine spec (a level name counts); an engine whose spec has no seed= gets seed (X) or seed + 1 (O), so a
 * session is reproducible from its seed. On success *out owns the session; on failure *out is NULL and err
 * names the bad spec (TTT_EINVAL). */
ttt_status ttt_game_new(const ttt_rules *rules, const char *x_who, const char *o_who, uint64_t seed,
                        ttt_game **out, ttt_error *err);

/* Starts a session as ttt_game_new does but makes no engine: each player is a person (spec TTT_HUMAN) or an
 * engine the client makes from spec (copied as given, not checked) and attaches when it needs it
 * (ttt_game_set_engine); who is the player as the client names it ("hard"). On failure *out is NULL and err
 * says which text is longer than TTT_SPEC_TEXT_SIZE - 1 characters (TTT_EINVAL). */
ttt_status ttt_game_new_unmade(const ttt_rules *rules, const char *x_who, const char *x_spec,
                               const char *o_who, const char *o_spec, ttt_game **out, ttt_error *err);

/* Releases the session and its engines. NULL is allowed. */
void ttt_game_free(ttt_game *g);

/* The player of a side (TTT_X or TTT_O) in the current game. */
ttt_game_player *ttt_game_side(ttt_game *g, ttt_player side);

/* Whether the player is a person (spec TTT_HUMAN), whether or not it is an engine not made yet. */
bool ttt_game_is_human(const ttt_game_player *p);

/* Attaches engine (made for the session's rules from the side's spec, or NULL to detach) as the engine of the
 * side's player (an engine player), which owns it from now on. Returns the engine it replaces, which the
 * caller now owns (NULL when there was none). */
ttt_engine *ttt_game_set_engine(ttt_game *g, ttt_player side, ttt_engine *engine);

/* The number of people among the two players (0, 1 or 2). */
int ttt_game_humans(const ttt_game *g);

/* The current game's outcome (TTT_ONGOING while it goes on). */
ttt_outcome ttt_game_outcome(const ttt_game *g);

/* The engine whose turn it is, or NULL when a person is to move, the game is over or the engine is not
 * attached (ttt_game_new_unmade). */
ttt_engine *ttt_game_engine_to_move(ttt_game *g);

/* Plays a move for the side to move. When it ends the game it sets ended and counts the result in the
 * players' scores. Errors: TTT_ESTATE "the game is over"; TTT_EINVAL "c3 is taken", or a cell off the board.
 */
ttt_status ttt_game_play(ttt_game *g, ttt_move move, ttt_error *err);

/* Takes back the last person's move and every engine move after it, so that the same person is to move again
 * (against an engine: your move and the engine's reply; two people: the last move). A finished game reopens
 * (as on the web page): it is taken out of the score, and counts again when it ends again. Returns how many
 * moves were taken back: 0 when there is no person's move to take back. */
int ttt_game_undo(ttt_game *g);

/* Takes back the last plies moves (>= 1), whoever played them (the web page's undo); a finished game reopens
 * as with ttt_game_undo. TTT_ESTATE "cannot take back 3 moves: 2 played" (nothing taken back) when fewer
 * moves were played. */
ttt_status ttt_game_take_back(ttt_game *g, int plies, ttt_error *err);

/* Starts the next game of the session, with the sides swapped when swap is true; engines are told
 * (ttt_engine_new_game). A game still going on is abandoned: it counts for nobody. */
void ttt_game_next(ttt_game *g, bool swap);

/* Tells every engine player how the finished game went (ttt_engine_game_over), which is how a learning engine
 * learns from games against people. Returns the first failure; every engine is told even after one fails.
 * The game must be over. */
ttt_status ttt_game_tell_engines(ttt_game *g, ttt_error *err);

#endif
