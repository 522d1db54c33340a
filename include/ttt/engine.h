/*
 * ttt/engine.h - every player behind one interface.
 *
 * An engine is made from a spec string `NAME[:key=value,...]`, for example `random`, `random:seed=7`. The
 * name picks an entry of the registry; the options are validated once, when the engine is made, and an
 * unknown name, an unknown key or a bad value is an error that names it. Every engine takes `seed=` (an
 * unsigned 64-bit integer, default 0) and is deterministic: the same spec, rules and sequence of requests
 * give the same moves, as long as the budget is counted in work (nodes, trials, depth). A budget in time
 * (`time=`) depends on the clock and so on the machine. Every engine counts the work it does (nodes searched
 * or playouts run).
 *
 * An engine owns its memory (tables, trees, generators); ttt_engine_free releases all of it.
 */
#ifndef TTT_ENGINE_H
#define TTT_ENGINE_H

#include "ttt/board.h"

typedef struct ttt_engine ttt_engine;

/* What an engine says about one move decision. */
typedef struct ttt_search_info {
    uint64_t nodes; /* nodes or playouts spent on this decision */
    double ms;      /* wall-clock milliseconds spent */
    int depth;      /* search depth reached, 0 when the engine does not search */
} ttt_search_info;

/* Longest spec text the library produces (ttt_engine_spec). */
#define TTT_SPEC_TEXT_SIZE 256

/* Makes an engine for the given rules from a spec. On success *out owns a new engine; on failure *out is
 * NULL and err names the problem: "engine 'foo': unknown engine (known: random)", "engine 'random': unknown
 * option 'depth' (known: seed)", "engine 'random': seed=abc: expected an integer from 0 to ...". */
ttt_status ttt_engine_new(const char *spec, const ttt_rules *rules, ttt_engine **out, ttt_error *err);

/* Releases the engine and everything it owns. NULL is allowed. */
void ttt_engine_free(ttt_engine *engine);

/* Chooses a move for the side to move in b, which must have the engine's rules. Returns TTT_ESTATE when
 * the game is over or the rules differ, TTT_OK otherwise. info may be NULL. */
ttt_status ttt_engine_choose(ttt_engine *engine, const ttt_board *b, ttt_move *out, ttt_search_info *info,
                             ttt_error *err);

/* Tells the engine that a new game starts (engines that keep a tree or per-game state reset it). */
void ttt_engine_new_game(ttt_engine *engine);

/* Tells the engine how a game it took part in went: the moves from the empty board and the final outcome.
 * Learning engines learn from it; others ignore it. */
ttt_status ttt_engine_game_over(ttt_engine *engine, const ttt_move *moves, int count, ttt_outcome outcome,
                                ttt_error *err);

/* The registry name ("random"). */
const char *ttt_engine_name(const ttt_engine *engine);

/* The full spec with every option's value, defaults included ("random:seed=0"), written into buf. */
char *ttt_engine_spec(const ttt_engine *engine, char *buf, size_t size);

/* Nodes or playouts counted since the engine was made. */
uint64_t ttt_engine_nodes(const ttt_engine *engine);

/* The rules the engine was made for. */
const ttt_rules *ttt_engine_rules(const ttt_engine *engine);

/* --- The registry ----------------------------------------------------------------------------------------
 */

typedef struct ttt_engine_about {
    const char *name;    /* "random" */
    const char *summary; /* one line: what it is good for */
    const char *options; /* one line per option: "seed=N  choice of moves (default 0)" */
} ttt_engine_about;

/* The number of registered engines, and each one's description (index 0..count-1). */
int ttt_engine_count(void);
const ttt_engine_about *ttt_engine_about_at(int index);

#endif
