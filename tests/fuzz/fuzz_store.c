/*
 * fuzz_store - damaged database files (ttt/store.h): the bytes of a file that claims to be the product's
 * SQLite database, opened from disk and then read and written through the store's API, as `ttt history`,
 * `ttt memory`, the learner and `ttt serve` do.
 *
 * Input: the file's bytes (the seeds are real databases: games and a learner's memory). Invariants: a file
 * that is refused says why in one line; an opened one answers every read with rows that pass the store's
 * checks or with a one-line error (never a crash, a hang or a row it would refuse to write), and a game
 * added to it reads back as written or is refused with a message. The file lives in /dev/shm (no disk
 * syncs), one per process, and is removed after each input with its -wal, -shm and -journal files.
 */
#include "fuzz.h"

#include <unistd.h>

#define FUZZ_LIST_LIMIT 64 /* games listed per input */
/* A game the harness records: 3x3, X wins on the top row. */
#define FUZZ_GAME_MOVES "a1 a2 b1 b2 c1"
#define FUZZ_GAME_X     "minimax"
#define FUZZ_GAME_TIME  1700000000

static char db_path[128];

/* The file and what SQLite makes beside it, removed. */
static void remove_db(void)
{
    static const char *const suffixes[] = {"", "-wal", "-shm", "-journal"};
    char path[sizeof db_path + 16];
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        snprintf(path, sizeof path, "%s%s", db_path, suffixes[i]);
        unlink(path);
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm"
                      : getenv("TMPDIR")            ? getenv("TMPDIR")
                                                    : "/tmp";
    snprintf(db_path, sizeof db_path, "%s/ttt-fuzz-store-%ld.db", dir, (long)getpid());
    return 0;
}

/* Every record read back is one the store would write: rules that parse, legal moves, a known result. */
static void check_record(const ttt_game_record *g)
{
    ttt_rules rules;
    FUZZ_CHECK(ttt_rules_parse(g->rules, &rules, NULL) == TTT_OK);
    ttt_move moves[TTT_MAX_CELLS];
    int count;
    ttt_board b;
    FUZZ_CHECK(ttt_moves_parse(g->moves, &rules, moves, TTT_MAX_CELLS, &count, NULL) == TTT_OK);
    FUZZ_CHECK(ttt_moves_replay(&rules, moves, count, &b, NULL) == TTT_OK);
    FUZZ_CHECK(strcmp(g->result, "x") == 0 || strcmp(g->result, "o") == 0 || strcmp(g->result, "draw") == 0);
    FUZZ_CHECK(g->started >= 0 && g->ended >= 0);
}

static int each_game(const ttt_game_record *g, void *user)
{
    check_record(g);
    *(int64_t *)user = g->id;
    return 0;
}

static int each_sequence(const ttt_store_sequence *seq, void *user)
{
    (void)user;
    FUZZ_CHECK(seq->count >= 1 && seq->count <= TTT_STORE_MAX_COUNT);
    FUZZ_CHECK(seq->nmoves >= 1 && seq->nmoves <= ttt_rules_cells(seq->rules));
    const char *ends = seq->outcome == TTT_X_WINS ? "x" : seq->outcome == TTT_O_WINS ? "o" : "draw";
    FUZZ_CHECK(seq->outcome != TTT_ONGOING && strcmp(seq->result, ends) == 0);
    return 0;
}

static int each_stats(const ttt_store_memory_stats *st, void *user)
{
    (void)user;
    FUZZ_CHECK(st->games >= 0 && st->sequences >= 0 && st->prefixes >= 0);
    return 0;
}

/* A read or write that failed said why in one line. */
static void check_failure(ttt_status st, const ttt_error *err)
{
    if (st != TTT_OK)
        fuzz_check_message(err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    remove_db();
    FILE *f = fopen(db_path, "wb");
    FUZZ_CHECK(f != NULL);
    FUZZ_CHECK(size == 0 || fwrite(data, 1, size, f) == size);
    FUZZ_CHECK(fclose(f) == 0);
    ttt_store *store = NULL;
    ttt_error err = {{0}};
    ttt_status st = ttt_store_open(db_path, &store, &err);
    if (st != TTT_OK) {
        FUZZ_CHECK(store == NULL);
        fuzz_check_message(&err);
        remove_db();
        return 0;
    }
    check_failure(ttt_store_check(store, &err), &err);
    int64_t count = -1, last = -1;
    st = ttt_store_count_games(store, &count, &err);
    check_failure(st, &err);
    FUZZ_CHECK(st != TTT_OK || count >= 0);
    check_failure(ttt_store_list_games(store, FUZZ_LIST_LIMIT, each_game, &last, &err), &err);
    ttt_game_record rec;
    if (last >= 0 && (st = ttt_store_get_game(store, last, &rec, &err)) == TTT_OK)
        check_record(&rec);
    else
        check_failure(st, &err);
    check_failure(ttt_store_sequences(store, NULL, each_sequence, NULL, &err), &err);
    check_failure(ttt_store_memory_stats_each(store, each_stats, NULL, &err), &err);

    /* Writes: a game and a learned sequence, each read back or refused with a message. */
    ttt_rules rules = ttt_rules_default();
    ttt_move moves[TTT_MAX_CELLS];
    int n;
    FUZZ_CHECK(ttt_moves_parse(FUZZ_GAME_MOVES, &rules, moves, TTT_MAX_CELLS, &n, NULL) == TTT_OK);
    FUZZ_CHECK(ttt_game_record_make(&rules, moves, n, FUZZ_GAME_X, NULL, FUZZ_GAME_TIME, FUZZ_GAME_TIME, &rec,
                                    &err) == TTT_OK);
    int64_t id = -1;
    st = ttt_store_add_game(store, &rec, &id, &err);
    check_failure(st, &err);
    ttt_game_record back;
    if (st == TTT_OK && (st = ttt_store_get_game(store, id, &back, &err)) == TTT_OK)
        FUZZ_CHECK(strcmp(back.moves, rec.moves) == 0 && strcmp(back.x, rec.x) == 0 &&
                   strcmp(back.result, rec.result) == 0);
    else
        check_failure(st, &err);
    ttt_move canonical[TTT_MAX_CELLS];
    char text[TTT_MOVES_TEXT_SIZE];
    ttt_sym_sequence_canonical(&rules, moves, n, canonical);
    ttt_moves_format(&rules, canonical, n, text, sizeof text);
    st = ttt_store_learn(store, "3x3", text, "x", 1, &err);
    check_failure(st, &err);
    FUZZ_CHECK(st != TTT_EINVAL); /* the sequence is one the store takes: only the file can fail it */
    ttt_store_close(store);
    remove_db();
    return 0;
}
