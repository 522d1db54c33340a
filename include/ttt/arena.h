/*
 * ttt/arena.h - tournaments between engines: the pairing schedule, the games (in parallel), and the Elo
 * statistics of a match.
 *
 * Every pair of engines plays `games` games; colours alternate in pairs: game 2i has the pair's first engine
 * as X, game 2i+1 the second, and both games of a pair share one seed, derived from the tournament seed, the
 * pair and i (ttt_arena_game_seed). Each game gets new engines, seeded with that seed (unless the spec sets
 * seed= itself), so that a game's result depends only on the specs, the rules and its seed: the same
 * tournament gives the same results at any number of threads. At the end of every game both engines are told
 * how it went (ttt_engine_game_over), which is how learning engines learn from arena games.
 *
 * Games may start from openings (a ttt_arena_book: lines of a file, or random openings drawn from the
 * tournament seed): games 2i and 2i+1 of every pair start from opening i modulo the book's size, so each
 * opening is played once with each colour, and every pair plays the same openings in the same order.
 */
#ifndef TTT_ARENA_H
#define TTT_ARENA_H

#include "ttt/engine.h"

#define TTT_ARENA_MAX_ENGINES 32
#define TTT_ARENA_MAX_JOBS    256
/* Games per pair at most (the results take one byte per game). */
#define TTT_ARENA_MAX_GAMES INT64_C(100000000)
/* Tournament seeds go from 0 to this, as for tables. */
#define TTT_ARENA_MAX_SEED INT64_MAX

/* Wins, losses and draws, from one engine's side. */
typedef struct ttt_arena_record {
    uint64_t wins, losses, draws;
} ttt_arena_record;

/* One pair's match: engine a against engine b (indexes into the specs), from a's side. */
typedef struct ttt_arena_pair {
    int a, b;
    ttt_arena_record total;
    ttt_arena_record a_as_x; /* the games where a played X */
    ttt_arena_record a_as_o;
    uint64_t a_forfeits,
        b_forfeits; /* games lost by forfeit (an outside engine that failed), among the losses */
} ttt_arena_pair;

/* Called now and then with the games finished so far and the total, from any worker thread but never from two
 * at once, and never with a smaller done than before. */
typedef void (*ttt_arena_progress_fn)(uint64_t done, uint64_t total, void *user);

/* Asked by every worker thread before each game and after each move (from several at the same time: the callee
 * must be thread-safe, e.g. read a flag set by a signal handler). Once it returns true the tournament stops:
 * the games in flight are abandoned after their current move, uncounted and not told to the engines. */
typedef bool (*ttt_arena_stop_fn)(void *user);

/* Called from any worker thread (at the same time from several: the callee serialises) when a game of pair
 * `pair` (number `game` in it) is forfeited, with the reason ("engine 'cmd' (./brain): timed out ..."). */
typedef void (*ttt_arena_forfeit_fn)(int pair, uint64_t game, const char *reason, void *user);

/* A set of openings, each a sequence of moves from the empty board after which the game is still on. */
typedef struct ttt_arena_book ttt_arena_book;

/* Balanced openings are those the exact solver values a draw within TTT_ARENA_BALANCED_NODES nodes: a random
 * one it cannot settle so is drawn again, like one it values a win (7x7k5 openings of 2 plies: most settle in
 * 0.1 to 1.6 M nodes, 'd5 d7' not in 20 M). Boards of more than TTT_ARENA_BALANCED_MAX_CELLS cells are refused
 * (9x9k5 openings are out of reach), and so is a set of TTT_ARENA_BALANCED_TRIES draws in a row that gives no
 * settled draw. */
#define TTT_ARENA_BALANCED_NODES     UINT64_C(2000000)
#define TTT_ARENA_BALANCED_MAX_CELLS 49
#define TTT_ARENA_BALANCED_TRIES     200

/* The openings of a file's text, one a line in move notation ("d4 c3", as ttt_moves_parse reads it); blank
 * lines and lines starting with '#' (after blanks) are skipped. Every line is checked before the book is made:
 * moves on the board (TTT_EINVAL "FILE:3: moves: move 2 'z1': column z is off the 7x7 board"), on empty cells
 * ("FILE:4: moves: move 2 'd4': cell d4 is taken"), and a game still on after the last ("FILE:5: opening 'a1
 * ...' is over: x won"); with balanced, the solver's value a draw within TTT_ARENA_BALANCED_NODES ("FILE:6:
 * opening 'd4 d3' is not balanced: a win for X", "... cannot settle it ..."). source names the file in the messages. Errors: TTT_EINVAL
 * as said and for a text with no opening, TTT_ENOMEM. The caller frees *out with ttt_arena_book_free. */
ttt_status ttt_arena_book_parse(const ttt_rules *rules, const char *text, const char *source, bool balanced,
                                ttt_arena_book **out, ttt_error *err);

/* Random books hold this many openings at most: game pairs beyond them start from the same openings again. */
#define TTT_ARENA_MAX_OPENINGS (UINT64_C(1) << 20)

/* count random openings of plies moves each (1 to the board's cells - 1), drawn from seed: each move uniform
 * among the empty cells, an opening that ends the game drawn again. The same arguments give the same book.
 * With balanced only openings the exact solver values a draw are kept (TTT_EINVAL on a board of more
 * than TTT_ARENA_BALANCED_MAX_CELLS cells, or when TTT_ARENA_BALANCED_TRIES draws in a row give no settled
 * draw). count: 1 to TTT_ARENA_MAX_OPENINGS. The caller frees
 * *out with ttt_arena_book_free. */
ttt_status ttt_arena_book_random(const ttt_rules *rules, uint64_t seed, uint64_t count, int plies,
                                 bool balanced, ttt_arena_book **out, ttt_error *err);

void ttt_arena_book_free(ttt_arena_book *book);

/* The number of openings in a book (at least 1). */
uint64_t ttt_arena_book_size(const ttt_arena_book *book);

/* Opening i (i < ttt_arena_book_size): its moves, *count of them. The moves live as long as the book. */
const ttt_move *ttt_arena_book_opening(const ttt_arena_book *book, uint64_t i, int *count);

/* The index into book of the opening games 2i and 2i+1 of every pair start from: i modulo its size. */
uint64_t ttt_arena_book_index(const ttt_arena_book *book, uint64_t game);

typedef struct ttt_arena_options {
    const char *const *specs; /* engine specs, at least 2, at most TTT_ARENA_MAX_ENGINES */
    int nspecs;
    uint64_t games;                 /* per pair, 1 to TTT_ARENA_MAX_GAMES */
    uint64_t seed;                  /* 0 to TTT_ARENA_MAX_SEED */
    int jobs;                       /* threads, 1 to TTT_ARENA_MAX_JOBS (0 counts as 1) */
    bool gauntlet;                  /* the first engine against each other one, instead of every pair */
    ttt_arena_progress_fn progress; /* may be NULL */
    void *user;
    ttt_arena_forfeit_fn forfeit; /* may be NULL; gets user too */
    ttt_arena_stop_fn stop;       /* may be NULL; gets user too */
    const ttt_arena_book *book;   /* the openings (with the rules given to ttt_arena_run); NULL: none */
} ttt_arena_options;

/* The number of pairs: n(n-1)/2 for a round robin, n-1 for a gauntlet. */
int ttt_arena_pair_count(int nspecs, bool gauntlet);

/* Pair p of the schedule (0 <= p < ttt_arena_pair_count): round robin in the order (0,1), (0,2), ...,
 * (0,n-1), (1,2), ...; a gauntlet is (0,1), (0,2), ..., (0,n-1). */
void ttt_arena_pair_at(int nspecs, bool gauntlet, int p, int *a, int *b);

/* The seed of game `game` of pair `pair`: games 2i and 2i+1 share it. A splitmix64 mix of the three. */
uint64_t ttt_arena_game_seed(uint64_t seed, int pair, uint64_t game);

/* One game as ttt_arena_play_game reports it. */
typedef struct ttt_arena_game {
    ttt_outcome outcome;
    ttt_move moves[TTT_MAX_CELLS];
    int count;
    ttt_player forfeit;          /* the side that forfeited (and lost), or TTT_NOBODY */
    char reason[TTT_ERROR_SIZE]; /* why, when a side forfeited; "" otherwise */
} ttt_arena_game;

/* Plays one game as ttt_arena_play does. An engine that forfeits (TTT_EFORFEIT from making it or from a move
 * request: an outside brain that timed out, crashed, broke the protocol or played an illegal move) loses the
 * game: TTT_OK, out->outcome a win for the other side, out->forfeit and out->reason say who and why. */
ttt_status ttt_arena_play_game(const ttt_rules *rules, const char *x_spec, const char *o_spec, uint64_t seed,
                               ttt_arena_game *out, ttt_error *err);

/* ttt_arena_play_game from the opening moves[0..count-1] (legal, the game still on after them: asserted),
 * which out->moves begins with. */
ttt_status ttt_arena_play_opening(const ttt_rules *rules, const char *x_spec, const char *o_spec,
                                  uint64_t seed, const ttt_move *opening, int count, ttt_arena_game *out,
                                  ttt_error *err);

/* Game g (0 to the pairs times opt->games, less one) of the tournament opt, as ttt_arena_run plays it: its
 * pair (*pair), colours (*a_is_x: the pair's first engine plays X), seed and opening. Errors as
 * ttt_arena_play_game. For a runner of its own that shares games out (ttt arena --mpi). */
ttt_status ttt_arena_play_nth(const ttt_rules *rules, const ttt_arena_options *opt, uint64_t g, int *pair,
                              bool *a_is_x, ttt_arena_game *out, ttt_error *err);

/* Plays one game from the empty board between new engines made from x_spec and o_spec, both seeded with
 * seed (unless a spec sets seed= itself), and tells both the result (a forfeit is a loss, as in
 * ttt_arena_play_game). *outcome receives the result; moves
 * (room for TTT_MAX_CELLS, may be NULL) the moves and *count how many (may be NULL). Errors: a bad spec
 * (TTT_EINVAL, naming it), an engine that fails. */
ttt_status ttt_arena_play(const ttt_rules *rules, const char *x_spec, const char *o_spec, uint64_t seed,
                          ttt_outcome *outcome, ttt_move *moves, int *count, ttt_error *err);

/* Runs the tournament; pairs (room for ttt_arena_pair_count entries) receives each pair's record, in
 * schedule order. Every spec is checked before any game is played (TTT_EINVAL names the bad one). A tournament
 * that opt->stop stopped returns TTT_OK with the records of the games finished (a pair may have none). */
ttt_status ttt_arena_run(const ttt_rules *rules, const ttt_arena_options *opt, ttt_arena_pair *pairs,
                         ttt_error *err);

/* The engines' names in a tournament's results, as cutechess-cli gives them, and the specs they play with:
 * the option name=NAME, anywhere among a spec's options ("mcts:iterations=200,name=Fast"), names the engine
 * and is taken out of its spec ("mcts:iterations=200"); without it the name is the spec. A name that an
 * earlier engine has already gets "#2", "#3", ... ("random", "random#2"). names[i] and play[i] (room for n
 * each) point into buf (size bytes; 2 * (the specs' lengths + n * 8) is always enough). Errors: TTT_EINVAL
 * for an empty name= or one given twice ("engine 2 'random:name=': name= needs a name"), TTT_ELIMIT when buf
 * is too small. */
ttt_status ttt_arena_names(const char *const *specs, int n, char *buf, size_t size, const char **names,
                           const char **play, ttt_error *err);

/* --- The statistics of a match ------------------------------------------------------------------------- */

/* As cutechess-cli reports them, from the record's side. */
typedef struct ttt_arena_stats {
    uint64_t games;
    double score;      /* (wins + draws / 2) / games, in [0, 1] */
    double elo;        /* -400 log10(1 / score - 1): +INFINITY when every game was won, -INFINITY lost */
    double elo_low;    /* the 95% interval of elo, from the trinomial variance of the score; */
    double elo_high;   /*   either bound may be infinite, and both equal elo when every game had one result */
    double los;        /* likelihood of superiority, 0.5 (1 + erf((wins - losses) / sqrt(2 (wins + losses)))),
                          0.5 when no game was decided */
    double draw_ratio; /* draws / games */
} ttt_arena_stats;

/* The statistics of a record of at least one game (asserted). Never NaN. */
void ttt_arena_stats_of(const ttt_arena_record *r, ttt_arena_stats *out);

/* One engine's line of a tournament's ranking. */
typedef struct ttt_arena_rank {
    int engine;             /* index into the specs */
    ttt_arena_record total; /* over all its games, from its side */
    ttt_arena_stats stats;  /* of total: its score and Elo against the field it met */
} ttt_arena_rank;

/* The ranking as cutechess-cli prints it after a tournament: every engine that played at least one game in
 * pairs (npairs of them, as ttt_arena_run wrote them for nspecs engines), best score first, ties in the order
 * of the specs. out has room for nspecs entries; returns how many it wrote. */
int ttt_arena_ranking(int nspecs, const ttt_arena_pair *pairs, int npairs, ttt_arena_rank *out);

#endif
