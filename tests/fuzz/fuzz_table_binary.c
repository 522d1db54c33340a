/*
 * fuzz_table_binary - the binary file format of move tables (ttt/table.h), through the loader's in-memory
 * entry point (store/table_internal.h: the same checks as ttt_table_load, without a file).
 *
 * Input: the bytes of a binary table. The harness sets the checksum at the end before loading, so that the
 * mutations reach the parser behind it (tests/test_table.c checks that a wrong checksum is refused).
 * Invariants: a table that loads writes a file that loads back to a table with the same rules, games, seed
 * and counts, which writes the same bytes again, and which is the table the JSON export of it reads back
 * to; a refused file says why, in one line that starts with "table 'NAME': ".
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "fuzz_table.h"

static ttt_table *load_ok(const char *bytes, size_t len)
{
    ttt_table *t = NULL;
    ttt_error err;
    ttt_status st = ttt_table_load_bytes(FUZZ_TABLE_NAME, bytes, len, NULL, &t, &err);
    if (st != TTT_OK)
        fprintf(stderr, "%s\n", err.msg);
    FUZZ_CHECK(st == TTT_OK);
    return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *copy = fuzz_copy_with_sum(data, size);
    ttt_table *t = NULL;
    ttt_error err = {{0}};
    ttt_status st = ttt_table_load_bytes(FUZZ_TABLE_NAME, copy, size, NULL, &t, &err);
    free(copy);
    if (st != TTT_OK) {
        fuzz_table_check_refusal(t, &err);
        return 0;
    }
    fuzz_table_check_bounds(t);
    size_t len1, len2, len3, len4;
    char *bin1 = fuzz_table_written(t, true, &len1);
    ttt_table *back = load_ok(bin1, len1);
    fuzz_table_check_same(t, back);
    char *bin2 = fuzz_table_written(back, true, &len2);
    FUZZ_CHECK(len1 == len2 && memcmp(bin1, bin2, len1) == 0);
    /* the JSON export reads back to the same table, which writes the same binary file */
    char *json = fuzz_table_written(back, false, &len3);
    ttt_table *from_json = load_ok(json, len3);
    char *bin3 = fuzz_table_written(from_json, true, &len4);
    FUZZ_CHECK(len1 == len4 && memcmp(bin1, bin3, len1) == 0);
    free(bin1);
    free(bin2);
    free(bin3);
    free(json);
    ttt_table_free(from_json);
    ttt_table_free(back);
    ttt_table_free(t);
    return 0;
}
