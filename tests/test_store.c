/* Unit tests for ttt/store.h: opening with checks, the schema, game records, the learner's sequences. */
#define _GNU_SOURCE /* mkdtemp, setenv */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/stat.h>

#include "ttt/ttt.h"
#include "support.h"

static char tmpdir[256];

static int make_tmpdir(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "%s/ttt-test-store-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
    (void)state;
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Threads (each its own connection, as separate processes would be) that create the same new database at once
 * and record a game each: every one opens it (none mistakes the half-made file of another for a foreign
 * database, none gives up on the switch to WAL) and no game is lost. */
#define RACE_THREADS 6
#define RACE_ROUNDS  15

typedef struct race_arg {
    const char *path;
    ttt_status st;
    char msg[TTT_ERROR_SIZE];
} race_arg;

static void *race_open(void *p)
{
    race_arg *a = p;
    ttt_rules r = ttt_rules_default();
    const ttt_move moves[] = {0, 1, 3, 4, 6}; /* a1 b1 a2 b2 a3: X wins down column a */
    ttt_game_record rec;
    ttt_store *s = NULL;
    ttt_error err = {{0}};
    a->st = ttt_game_record_make(&r, moves, 5, NULL, "random", 1, 2, &rec, &err);
    if (!a->st)
        a->st = ttt_store_open(a->path, &s, &err);
    if (!a->st)
        a->st = ttt_store_add_game(s, &rec, NULL, &err);
    ttt_store_close(s);
    snprintf(a->msg, sizeof a->msg, "%s", a->st ? err.msg : "");
    return NULL;
}

static void test_concurrent_creation(void **state)
{
    (void)state;
    for (int round = 0; round < RACE_ROUNDS; round++) {
        char path[400];
        snprintf(path, sizeof path, "%s/race-%d.db", tmpdir, round);
        pthread_t t[RACE_THREADS];
        race_arg args[RACE_THREADS];
        for (int i = 0; i < RACE_THREADS; i++) {
            args[i] = (race_arg){.path = path};
            assert_int_equal(pthread_create(&t[i], NULL, race_open, &args[i]), 0);
        }
        for (int i = 0; i < RACE_THREADS; i++) {
            pthread_join(t[i], NULL);
            if (args[i].st) {
                print_error("round %d, thread %d: %s\n", round, i, args[i].msg);
                fail();
            }
        }
        ttt_store *s;
        ttt_error err = {{0}};
        assert_int_equal(ttt_store_open(path, &s, &err), TTT_OK);
        int64_t n = -1;
        assert_int_equal(ttt_store_count_games(s, &n, &err), TTT_OK);
        assert_int_equal(n, RACE_THREADS);
        ttt_store_close(s);
    }
}

static void test_default_path(void **state)
{
    (void)state;
    char buf[512], old[512];
    ttt_error err = {{0}};
    snprintf(old, sizeof old, "%s", getenv("XDG_DATA_HOME") ? getenv("XDG_DATA_HOME") : "");
    setenv("XDG_DATA_HOME", "/x/data", 1);
    assert_int_equal(ttt_store_default_path(buf, sizeof buf, &err), TTT_OK);
    assert_string_equal(buf, "/x/data/ttt/ttt.db");
    setenv("XDG_DATA_HOME", "relative", 1); /* not absolute: ignored, as the XDG spec says */
    setenv("HOME", "/home/u", 1);
    assert_int_equal(ttt_store_default_path(buf, sizeof buf, &err), TTT_OK);
    assert_string_equal(buf, "/home/u/.local/share/ttt/ttt.db");
    assert_int_equal(ttt_store_default_path(buf, 8, &err), TTT_ELIMIT);
    setenv("XDG_DATA_HOME", old, 1);
}

static void test_open_creates_with_schema(void **state)
{
    (void)state;
    char path[400];
    snprintf(path, sizeof path, "%s/a/b/new.db", tmpdir);
    ttt_store *s;
    ttt_error err = {{0}};
    assert_int_equal(ttt_store_open(path, &s, &err), TTT_OK);
    assert_int_equal(ttt_store_schema_version(s), TTT_STORE_SCHEMA_VERSION);
    assert_string_equal(ttt_store_path(s), path);
    assert_int_equal(ttt_store_check(s, &err), TTT_OK);
    ttt_store_close(s);
    /* opening again finds it ours */
    assert_int_equal(ttt_store_open(path, &s, &err), TTT_OK);
    ttt_store_close(s);
}

static void test_foreign_files_are_refused(void **state)
{
    (void)state;
    char path[400];
    snprintf(path, sizeof path, "%s/text.db", tmpdir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("some text that is not a database at all\n", f);
    fclose(f);
    ttt_store *s = NULL;
    ttt_error err = {{0}};
    assert_int_equal(ttt_store_open(path, &s, &err), TTT_EINVAL);
    assert_null(s);
    assert_non_null(strstr(err.msg, "not an SQLite database: not touching it"));
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal(sb.st_size, 40);
}

static int first_game(const ttt_game_record *g, void *user)
{
    *(int64_t *)user = g->id;
    return 1; /* stop after the newest */
}

static void test_games(void **state)
{
    (void)state;
    char path[400];
    snprintf(path, sizeof path, "%s/games.db", tmpdir);
    ttt_store *s;
    ttt_error err = {{0}};
    assert_int_equal(ttt_store_open(path, &s, &err), TTT_OK);
    ttt_rules r = rules_of("3x3");
    ttt_move moves[] = {4, 0, 8, 2};
    ttt_game_record rec;
    /* an unfinished game is not a record */
    assert_int_equal(ttt_game_record_make(&r, moves, 4, "minimax", NULL, 1, 2, &rec, &err), TTT_EINVAL);
    ttt_move win[] = {0, 3, 1, 4, 2}; /* a1 a2 b1 b2 c1: X wins the top row */
    assert_int_equal(ttt_game_record_make(&r, win, 5, "minimax", NULL, 100, 160, &rec, &err), TTT_OK);
    assert_string_equal(rec.moves, "a1 a2 b1 b2 c1");
    assert_string_equal(rec.result, "x");
    assert_string_equal(rec.o, "human");
    int64_t id1, id2, count;
    assert_int_equal(ttt_store_add_game(s, &rec, &id1, &err), TTT_OK);
    assert_int_equal(ttt_store_add_game(s, &rec, &id2, &err), TTT_OK);
    assert_true(id2 > id1);
    assert_int_equal(ttt_store_count_games(s, &count, &err), TTT_OK);
    assert_int_equal(count, 2);
    ttt_game_record got;
    assert_int_equal(ttt_store_get_game(s, id1, &got, &err), TTT_OK);
    assert_string_equal(got.x, "minimax");
    assert_int_equal(got.ended, 160);
    assert_int_equal(ttt_store_get_game(s, 999, &got, &err), TTT_EINVAL);
    int64_t newest = 0;
    assert_int_equal(ttt_store_list_games(s, 10, first_game, &newest, &err), TTT_OK);
    assert_int_equal(newest, id2);
    ttt_store_close(s);
}

static int grab_stats(const ttt_store_memory_stats *m, void *user)
{
    if (strcmp(m->rules, "3x3") == 0)
        *(ttt_store_memory_stats *)user = *m;
    return 0;
}

static void test_sequences_and_stats(void **state)
{
    (void)state;
    char path[400];
    snprintf(path, sizeof path, "%s/seq.db", tmpdir);
    ttt_store *s;
    ttt_error err = {{0}};
    assert_int_equal(ttt_store_open(path, &s, &err), TTT_OK);
    assert_int_equal(ttt_store_learn(s, "3x3", "a1 b1 a2 b2 a3", "x", 1, &err), TTT_OK);
    assert_int_equal(ttt_store_learn(s, "3x3", "a1 b1 a2 b2 a3", "x", 2, &err), TTT_OK); /* count 3 */
    assert_int_equal(ttt_store_learn(s, "3x3", "a1 b1 b2 c1 c3", "x", 1, &err), TTT_OK);
    assert_int_equal(ttt_store_learn(s, "3x3", "b2 a1 c3 c1 b1 b3 a2 c2 a3", "draw", 1, &err), TTT_OK);
    assert_int_equal(ttt_store_learn(s, "4x4k3", "a1 b1 a2 b2 a3", "x", 1, &err), TTT_OK);
    /* a transaction the caller rolls back leaves nothing */
    assert_int_equal(ttt_store_begin(s, &err), TTT_OK);
    assert_int_equal(ttt_store_learn(s, "3x3", "a1 b1 a2 b2 a3", "x", 100, &err), TTT_OK);
    ttt_store_rollback(s);
    ttt_store_memory_stats m;
    memset(&m, 0, sizeof m);
    assert_int_equal(ttt_store_memory_stats_each(s, grab_stats, &m, &err), TTT_OK);
    assert_int_equal(m.games, 5);
    assert_int_equal(m.sequences, 3);
    assert_int_equal(m.x_wins, 4);
    assert_int_equal(m.draws, 1);
    /* prefixes: a1, a1 b1, then a2 b2 a3 (3) and b2 c1 c3 (3), and the 9 of the draw */
    assert_int_equal(m.prefixes, 2 + 3 + 3 + 9);
    ttt_store_close(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_path),
        cmocka_unit_test(test_open_creates_with_schema),
        cmocka_unit_test(test_foreign_files_are_refused),
        cmocka_unit_test(test_games),
        cmocka_unit_test(test_sequences_and_stats),
        cmocka_unit_test(test_concurrent_creation),
    };
    return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
