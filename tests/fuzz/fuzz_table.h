/*
 * tests/fuzz/fuzz_table.h - what the two move-table harnesses share (fuzz_table.c: the JSON format,
 * fuzz_table_binary.c: the binary format): writing a table to memory, comparing two tables, and the checks
 * on a refused file.
 */
#ifndef TTT_FUZZ_TABLE_H
#define TTT_FUZZ_TABLE_H

#include "fuzz.h"
#include "store/table_internal.h"

/* The name the harnesses load their tables under: a refusal names it. */
#define FUZZ_TABLE_NAME   "fuzz"
#define FUZZ_TABLE_PREFIX "table '" FUZZ_TABLE_NAME "': "

/* The file bytes of t in the binary format (binary) or JSON (malloc'd; *len their length). */
static inline char *fuzz_table_written(const ttt_table *t, bool binary, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    FUZZ_CHECK(f != NULL);
    ttt_error err;
    FUZZ_CHECK((binary ? ttt_table_write_binary(t, f, &err) : ttt_table_write(t, f, &err)) == TTT_OK);
    FUZZ_CHECK(fclose(f) == 0);
    return buf;
}

/* a and b are the same table: rules, games, seed and counts. */
static inline void fuzz_table_check_same(const ttt_table *a, const ttt_table *b)
{
    FUZZ_CHECK(ttt_rules_equal(ttt_table_rules(a), ttt_table_rules(b)));
    FUZZ_CHECK(ttt_table_games(a) == ttt_table_games(b) && ttt_table_seed(a) == ttt_table_seed(b));
    FUZZ_CHECK(ttt_table_entries(a) == ttt_table_entries(b) &&
               ttt_table_positions(a) == ttt_table_positions(b));
    FUZZ_CHECK(ttt_table_samples(a) == ttt_table_samples(b));
}

/* A refused file left no table and says why in one line that names the table. */
static inline void fuzz_table_check_refusal(const ttt_table *t, const ttt_error *err)
{
    FUZZ_CHECK(t == NULL);
    fuzz_check_message(err);
    FUZZ_CHECK(strncmp(err->msg, FUZZ_TABLE_PREFIX, strlen(FUZZ_TABLE_PREFIX)) == 0);
}

/* A table that loaded is within the format's bounds. */
static inline void fuzz_table_check_bounds(const ttt_table *t)
{
    FUZZ_CHECK(ttt_rules_cells(ttt_table_rules(t)) <= TTT_TABLE_MAX_CELLS);
    FUZZ_CHECK(ttt_table_positions(t) <= ttt_table_entries(t));
}

#endif
