/* store/table_internal.h - what the builder (analysis/table_build.c) needs to fill a table, and what the tests
 * need to read and write tables without files (internal to the library). */
#ifndef TTT_STORE_TABLE_INTERNAL_H
#define TTT_STORE_TABLE_INTERNAL_H

#include <stdio.h>

#include "ttt/table.h"

/* ttt_table_load on the text of a file (len bytes, no terminator needed) instead of a path: the same checks
 * and the same messages, with name where the path would be. */
ttt_status ttt_table_load_text(const char *name, const char *text, size_t len, const ttt_rules *rules,
                               ttt_table **out, ttt_error *err);

/* ttt_table_load on the bytes of a file in either format (the binary one when they start with its magic):
 * the same checks and messages, with name where the path would be. */
ttt_status ttt_table_load_bytes(const char *name, const void *data, size_t len, const ttt_rules *rules,
                                ttt_table **out, ttt_error *err);

/* Writes t in the binary format (exactly what ttt_table_save writes to a name not ending in .json) to f.
 * TTT_ENOMEM, or TTT_EIO when f has its error flag set afterwards. */
ttt_status ttt_table_write_binary(const ttt_table *t, FILE *f, ttt_error *err);

/* Writes t in the JSON format (exactly what ttt_table_save writes to a .json name) to f. TTT_ENOMEM, or TTT_EIO when f has
 * its error flag set afterwards. */
ttt_status ttt_table_write(const ttt_table *t, FILE *f, ttt_error *err);

/* Scores the moves of one game from the empty board (moves[0..len-1], legal, at most TTT_TABLE_MAX_CELLS):
 * move i adds scores[i] and a count of 1 to its entry under the canonical position and move. Does not count
 * the game (ttt_table_set_origin). TTT_ENOMEM, the table then holding part of the game. */
ttt_status ttt_table_add_moves(ttt_table *t, const uint8_t *moves, const int64_t *scores, int len);

/* ttt_table_add_moves under the positions as played, not canonicalised: the builder's raw tables, which
 * ttt_table_merge canonicalises in bulk. */
ttt_status ttt_table_add_moves_raw(ttt_table *t, const uint8_t *moves, const int64_t *scores, int len);

/* Adds every entry of src (a table of the same rules) to dst, mapped to the canonical position and move
 * when canonicalise is set (src being a raw table). TTT_ENOMEM, dst then holding part of src. */
ttt_status ttt_table_merge(ttt_table *dst, const ttt_table *src, bool canonicalise);

/* The bytes the table holds in memory (its slots and itself; not the shared geometry): what a cache of
 * tables counts. */
size_t ttt_table_memory(const ttt_table *t);

/* Empties the table's entries, keeping its memory. */
void ttt_table_clear(ttt_table *t);

/* Sets the games and the seed the table records (what ttt_table_games and ttt_table_seed return). */
void ttt_table_set_origin(ttt_table *t, uint64_t games, uint64_t seed);

#endif
