/* analysis/table_build.h - what the tests need to replay a build's games (internal to the library). */
#ifndef TTT_ANALYSIS_TABLE_BUILD_H
#define TTT_ANALYSIS_TABLE_BUILD_H

#include "ttt/rng.h"
#include "ttt/table.h"

/* The generator seed of chunk `chunk` (games chunk * TTT_TABLE_CHUNK_GAMES onwards) of a build with `seed`.
 */
uint64_t ttt_table_chunk_seed(uint64_t seed, uint64_t chunk);

/* What a build's random games read: the board's windows and, on boards of up to 16 cells, a bitmap of the
 * stone sets that hold a line. Made once per build, read by every worker. */
typedef struct ttt_table_playout ttt_table_playout;

/* The random games of valid rules of up to TTT_TABLE_MAX_CELLS cells (asserted) into *out, freed by the
 * caller with ttt_table_playout_free (NULL allowed). TTT_ENOMEM. */
ttt_status ttt_table_playout_new(const ttt_rules *rules, ttt_table_playout **out, ttt_error *err);
void ttt_table_playout_free(ttt_table_playout *p);

/* Plays one uniformly random game exactly as the builder does, drawing from rng; writes its moves (room for
 * TTT_TABLE_MAX_CELLS) and returns how many. */
int ttt_table_random_game(const ttt_table_playout *p, ttt_rng *rng, ttt_move *moves);

#endif
