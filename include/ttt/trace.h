/*
 * ttt/trace.h - an engine's decision step by step, for teaching: the search itself reports what it does,
 * through a recorder the client sets on the engine (ttt_engine_set_trace), so that what a client shows is the
 * real search, not a second copy of the algorithm.
 *
 * What each engine reports, in the order it does it:
 *
 *   minimax     TTT_TRACE_DEPTH when an iteration of its iterative deepening begins (what came before is
 *               superseded), then for every root move its replies searched (TTT_TRACE_REPLY, in the order
 *               searched) and the replies a cutoff left unsearched (TTT_TRACE_PRUNED), then the root move's
 *               value (TTT_TRACE_ROOT_MOVE)
 *   mcts        TTT_TRACE_ITERATION per iteration: selection path, expansion, playout, result, and the
 *               visits and wins of the root's children after the backup
 *   montecarlo  TTT_TRACE_PLAYOUT per random game: its final stones, its result, the score grid after it
 *   heuristic   TTT_TRACE_RULE per rule tried, with whether it fired and the moves it found
 *
 * Other engines report nothing. With no recorder set an engine's search is unchanged: the same moves, the
 * same node counts. The recorder is called from inside the search: it must not call the engine.
 */
#ifndef TTT_TRACE_H
#define TTT_TRACE_H

#include "ttt/board.h"

typedef enum ttt_trace_kind {
    TTT_TRACE_DEPTH,     /* minimax: an iteration to depth begins */
    TTT_TRACE_REPLY,     /* minimax: a reply (path[1]) to a root move (path[0]) searched */
    TTT_TRACE_PRUNED,    /* minimax: replies to path[0] left unsearched by a cutoff: moves[0..count) */
    TTT_TRACE_ROOT_MOVE, /* minimax: a root move (path[0]) valued */
    TTT_TRACE_ITERATION, /* mcts */
    TTT_TRACE_PLAYOUT,   /* montecarlo */
    TTT_TRACE_RULE,      /* heuristic */
} ttt_trace_kind;

/* One step. Only the fields of its kind are meaningful. */
typedef struct ttt_trace_step {
    ttt_trace_kind kind;
    /* DEPTH: the iteration's depth in plies (the empty cells: to the end of the game). */
    int depth;
    /* REPLY, ROOT_MOVE: the search's score (ttt/solve.h: beyond TTT_SCORE_PROVEN a win, below its negative a
     * loss, between them a heuristic estimate), from the point of view of the side to move at the root, and
     * the window (alpha, beta) it was searched with, the same point of view; exact false when the score is
     * only a bound (the move was shown worse than the best without its value). */
    int score, alpha, beta;
    bool exact;
    /* REPLY, PRUNED, ROOT_MOVE: moves from the root; ITERATION: the selection path from the root. */
    int path_length;
    ttt_move path[TTT_MAX_CELLS];
    /* PRUNED: the moves left unsearched; RULE: the moves the rule found (its choice among them). */
    int count;
    ttt_move moves[TTT_MAX_CELLS];
    /* ITERATION: the leaf whose children were made in this iteration (TTT_NO_MOVE: none; the root when
     * path_length is 0), and whether the leaf's result was proven, with no playout. */
    ttt_move expanded;
    bool expanded_root;
    bool proven;
    /* ITERATION, PLAYOUT: each side's stones at the end of the random game (the playout kernel keeps the
     * cells, not their order), and how it ended. */
    ttt_bits final[2];
    ttt_outcome outcome;
    /* ITERATION: the root's children after the backup: move, visits, wins (a draw counts one half) for the
     * side to move at the root. */
    int children;
    ttt_move child[TTT_MAX_CELLS];
    double visits[TTT_MAX_CELLS], wins[TTT_MAX_CELLS];
    /* PLAYOUT: the score grid after the game, by cell (the engine's own; valid during the call only), and the
     * games played so far. */
    const double *grid;
    uint64_t trials;
    /* RULE: the rule's name (static text) and whether it chose the move. */
    const char *rule;
    bool fired;
} ttt_trace_step;

typedef void ttt_trace_fn(const ttt_trace_step *step, void *user);

/* A recorder: the client owns it, sets fn, user and limit, and zeroes steps. */
typedef struct ttt_trace {
    ttt_trace_fn *fn;
    void *user;
    uint64_t limit; /* steps passed to fn; the search goes on after it, the later steps only counted */
    uint64_t steps; /* steps the search made since steps was zeroed: fn saw the first min(steps, limit) */
    ttt_trace_step step; /* the engine's scratch space */
} ttt_trace;

/* Sets the recorder of the engine's next decisions (ttt_engine_choose and the rest), or removes it (NULL). The
 * trace must outlive its use; the engine does not own it. */
struct ttt_engine;
void ttt_engine_set_trace(struct ttt_engine *engine, ttt_trace *trace);

#endif
