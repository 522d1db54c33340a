/* analysis/table_build.h - what the tests need to replay a build's games (internal to the library). */
#ifndef TTT_ANALYSIS_TABLE_BUILD_H
#define TTT_ANALYSIS_TABLE_BUILD_H

#include "ttt/playout.h"
#include "ttt/rng.h"
#include "ttt/table.h"

/* The generator seed of chunk `chunk` (games chunk * TTT_TABLE_CHUNK_GAMES onwards) of a build with `seed`.
 */
uint64_t ttt_table_chunk_seed(uint64_t seed, uint64_t chunk);

/* Starts chunk `chunk` of a build with `seed` as the builder does: p (a playout context of the rules) back at
 * the empty board and rng seeded for the chunk. */
void ttt_table_chunk_start(ttt_playout *p, const ttt_rules *rules, uint64_t seed, uint64_t chunk,
                           ttt_rng *rng);

/* Plays the chunk's next random game exactly as the builder does, drawing from rng; writes its moves (room for
 * TTT_MAX_CELLS) and returns how many. */
int ttt_table_random_game(ttt_playout *p, ttt_rng *rng, ttt_move *moves);

#endif
