/* store/table_internal.h - what the tests need to replay a build's games (internal to the library). */
#ifndef TTT_STORE_TABLE_INTERNAL_H
#define TTT_STORE_TABLE_INTERNAL_H

#include "ttt/rng.h"
#include "ttt/table.h"

/* The generator seed of chunk `chunk` (games chunk * TTT_TABLE_CHUNK_GAMES onwards) of a build with `seed`.
 */
uint64_t ttt_table_chunk_seed(uint64_t seed, uint64_t chunk);

/* Plays one uniformly random game for t's rules exactly as the builder does, drawing from rng; writes its
 * moves (room for TTT_TABLE_MAX_CELLS) and returns how many. */
int ttt_table_random_game(const ttt_table *t, ttt_rng *rng, ttt_move *moves);

#endif
