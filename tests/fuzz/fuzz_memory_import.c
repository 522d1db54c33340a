/*
 * fuzz_memory_import - learner memory imports (ttt/store.h: ttt_store_import_parse and _apply), the JSON that
 * `ttt memory import` reads, into a private in-memory store (":memory:", made anew for every input).
 *
 * Input: the text of an export. Invariants: a refused text says why in one line and writes nothing; an
 * accepted one applies, and every row the store then holds reads back through the store's own checks, with
 * the counts adding up to the import's games; an import applied inside a transaction that is rolled back
 * leaves the memory as it was.
 */
#include "fuzz.h"

typedef struct tally {
    int64_t rows, games;
} tally;

static int add_row(const ttt_store_sequence *seq, void *user)
{
    tally *t = user;
    FUZZ_CHECK(seq->count >= 1 && seq->count <= TTT_STORE_MAX_COUNT);
    FUZZ_CHECK(seq->nmoves >= 1 && seq->nmoves <= ttt_rules_cells(seq->rules));
    t->rows++;
    t->games = ttt_store_count_add(t->games, seq->count);
    return 0;
}

static tally memory_of(ttt_store *store)
{
    tally t = {0, 0};
    ttt_error err;
    FUZZ_CHECK(ttt_store_sequences(store, NULL, add_row, &t, &err) == TTT_OK);
    return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ttt_store_import *imp = NULL;
    ttt_error err = {{0}};
    if (ttt_store_import_parse((const char *)data, size, &imp, &err) != TTT_OK) {
        FUZZ_CHECK(imp == NULL);
        fuzz_check_message(&err);
        FUZZ_CHECK(strchr(err.msg, '\n') == NULL);
        return 0;
    }
    ttt_store *store;
    FUZZ_CHECK(ttt_store_open(":memory:", &store, &err) == TTT_OK);
    /* rolled back: nothing stays */
    FUZZ_CHECK(ttt_store_begin(store, &err) == TTT_OK);
    FUZZ_CHECK(ttt_store_import_apply(store, imp, &err) == TTT_OK);
    ttt_store_rollback(store);
    tally none = memory_of(store);
    FUZZ_CHECK(none.rows == 0 && none.games == 0);
    /* applied: every sequence is there, counted once */
    FUZZ_CHECK(ttt_store_import_apply(store, imp, &err) == TTT_OK);
    tally t = memory_of(store);
    FUZZ_CHECK(t.rows >= (ttt_store_import_sequences(imp) > 0) && t.rows <= ttt_store_import_sequences(imp));
    FUZZ_CHECK(t.games == ttt_store_import_games(imp));
    ttt_store_close(store);
    ttt_store_import_free(imp);
    return 0;
}
