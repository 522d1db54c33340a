/*
 * ttt/count.h - exact counts of the game tree.
 *
 * Counts every position reachable from the empty board in legal play (play stops at the first line or a
 * full board), layer by layer, and every complete game (a move sequence from the empty board to a finished
 * position), split by outcome. Both are counted again up to symmetry: positions that are images of each
 * other under the board's symmetries count once, and two games count once when, move by move, their positions
 * are images of each other (the usual convention, which gives the published 26,830 games of 3x3).
 *
 * The work is one pass forward through the layers; each layer is a hash table of positions with the number of
 * move sequences reaching them. Boards of up to 64 cells are supported; a layer larger than the limit stops
 * the count with TTT_ELIMIT rather than exhausting memory.
 */
#ifndef TTT_COUNT_H
#define TTT_COUNT_H

#include "ttt/rules.h"

/* The largest board that can be counted: each side's stones in one 64-bit word. */
#define TTT_COUNT_MAX_CELLS 64

/* The default cap on the positions of one layer (4x4 k=4 needs under 2 million). */
#define TTT_COUNT_DEFAULT_LAYER_LIMIT 50000000ull

typedef struct ttt_count_tally {
    uint64_t total;  /* all positions (or games) */
    uint64_t x_wins; /* finished with a win for X (under misère, O completed a line) */
    uint64_t o_wins;
    uint64_t draws;
} ttt_count_tally;

typedef struct ttt_counts {
    ttt_rules rules;
    int plies; /* rows*cols + 1 entries are used in the arrays below */
    /* Positions with this many stones; the terminal ones split by outcome (total counts all). */
    ttt_count_tally positions[TTT_MAX_CELLS + 1];
    ttt_count_tally positions_sym[TTT_MAX_CELLS + 1];
    /* Complete games of this many moves (total = x_wins + o_wins + draws). */
    ttt_count_tally games[TTT_MAX_CELLS + 1];
    ttt_count_tally games_sym[TTT_MAX_CELLS + 1];
    /* Sums over all plies. */
    ttt_count_tally all_positions, all_positions_sym, all_games, all_games_sym;
} ttt_counts;

/* Counts the game tree of the rules into *out. layer_limit caps the positions of one layer (0 = the
 * default). TTT_ELIMIT when the board has more than 64 cells or a layer exceeds the cap; TTT_ENOMEM when
 * memory runs out. */
ttt_status ttt_count(const ttt_rules *rules, uint64_t layer_limit, ttt_counts *out, ttt_error *err);

/* Called after each layer: pass 1 counts all positions, pass 2 counts them up to symmetry; ply is the layer's
 * stones and positions its size. */
typedef void (*ttt_count_progress_fn)(int pass, int ply, uint64_t positions, void *user);

/* ttt_count with a progress callback (may be NULL; user is passed to it). */
ttt_status ttt_count_progress(const ttt_rules *rules, uint64_t layer_limit, ttt_count_progress_fn progress,
                              void *user, ttt_counts *out, ttt_error *err);

/* An upper bound on the positions of the largest layer of the rules' board (every way of placing the stones
 * of a ply, lines ignored) into *largest_layer, and the memory a count of that many would need, in bytes
 * (two layers' hash tables at their fullest). Saturates at UINT64_MAX. */
uint64_t ttt_count_memory_estimate(const ttt_rules *rules, uint64_t *largest_layer);

#endif
