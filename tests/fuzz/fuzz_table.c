/*
 * fuzz_table - the JSON file format of move tables (ttt/table.h), through the loader's in-memory entry point
 * (store/table_internal.h: the same checks as ttt_table_load, without a file).
 *
 * Input: the text of a table file. Invariants: a table that loads writes a file that loads back to a table
 * with the same rules, games, seed and counts, which writes the same bytes again; every entry is found again
 * by ttt_table_get; a refused file says why, in one line that starts with "table 'NAME': ".
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <jansson.h>

#include "fuzz_table.h"

/* Every entry of the written file is what ttt_table_get finds, in the position and in each of its images. */
static void check_entries(const ttt_table *t, const char *text, size_t len)
{
    const ttt_rules *rules = ttt_table_rules(t);
    json_t *root = json_loadb(text, len, 0, NULL);
    FUZZ_CHECK(root != NULL);
    json_t *positions = json_object_get(root, "positions"), *jp, *jm;
    size_t i, j;
    json_array_foreach(positions, i, jp)
    {
        ttt_board b;
        FUZZ_CHECK(ttt_position_parse(json_string_value(json_object_get(jp, "position")), rules, &b, NULL) ==
                   TTT_OK);
        json_array_foreach(json_object_get(jp, "moves"), j, jm)
        {
            ttt_move m;
            FUZZ_CHECK(ttt_move_parse(json_string_value(json_object_get(jm, "move")), rules, &m, NULL) ==
                       TTT_OK);
            int64_t sum = json_integer_value(json_object_get(jm, "sum"));
            uint64_t count = (uint64_t)json_integer_value(json_object_get(jm, "count"));
            for (ttt_sym s = 0; s < ttt_sym_count(rules); s++) {
                ttt_board image;
                ttt_sym_board(&b, s, &image);
                ttt_table_value v;
                FUZZ_CHECK(ttt_table_get(t, &image, ttt_sym_move(rules, s, m), &v));
                FUZZ_CHECK(v.sum == sum && v.count == count && v.average == (double)sum / (double)count);
            }
        }
    }
    json_decref(root);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ttt_table *t = NULL;
    ttt_error err = {{0}};
    if (ttt_table_load_text(FUZZ_TABLE_NAME, (const char *)data, size, NULL, &t, &err) != TTT_OK) {
        fuzz_table_check_refusal(t, &err);
        return 0;
    }
    fuzz_table_check_bounds(t);
    size_t len1, len2;
    char *text1 = fuzz_table_written(t, false, &len1);
    ttt_table *back = NULL;
    ttt_status st = ttt_table_load_text(FUZZ_TABLE_NAME, text1, len1, ttt_table_rules(t), &back, &err);
    if (st != TTT_OK)
        fprintf(stderr, "%s\n", err.msg);
    FUZZ_CHECK(st == TTT_OK);
    fuzz_table_check_same(t, back);
    check_entries(back, text1, len1);
    char *text2 = fuzz_table_written(back, false, &len2);
    FUZZ_CHECK(len1 == len2 && memcmp(text1, text2, len1) == 0);
    free(text1);
    free(text2);
    ttt_table_free(back);
    ttt_table_free(t);
    return 0;
}
