/* store/table_internal.h - what the tests need to replay a build's games and to read and write tables without
 * files (internal to the library). */
#ifndef TTT_STORE_TABLE_INTERNAL_H
#define TTT_STORE_TABLE_INTERNAL_H

#include <stdio.h>

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

/* ttt_table_load on the text of a file (len bytes, no terminator needed) instead of a path: the same checks
 * and the same messages, with name where the path would be. */
ttt_status ttt_table_load_text(const char *name, const char *text, size_t len, const ttt_rules *rules,
                               ttt_table **out, ttt_error *err);

/* Writes t in the file format (exactly what ttt_table_save writes) to f. TTT_ENOMEM, or TTT_EIO when f has
 * its error flag set afterwards. */
ttt_status ttt_table_write(const ttt_table *t, FILE *f, ttt_error *err);

#endif
