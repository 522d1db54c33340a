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
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

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

/* The default path's directories are made when missing. */
static void test_default_path_is_made(void **state)
{
    (void)state;
    char data[400], old[512], path[450];
    snprintf(old, sizeof old, "%s", getenv("XDG_DATA_HOME") ? getenv("XDG_DATA_HOME") : "");
    snprintf(data, sizeof data, "%s/data/deep", tmpdir);
    setenv("XDG_DATA_HOME", data, 1);
    ttt_store *s;
    ttt_error err = {{0}};
    assert_int_equal(ttt_store_open(NULL, &s, &err), TTT_OK);
    snprintf(path, sizeof path, "%s/ttt/ttt.db", data);
    assert_string_equal(ttt_store_path(s), path);
    ttt_store_close(s);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    setenv("XDG_DATA_HOME", old, 1);
}

static void test_open_creates_with_schema(void **state)
{
    (void)state;
    char path[400];
    snprintf(path, sizeof path, "%s/a/b/new.db", tmpdir);
    ttt_store *s;
    ttt_error err = {{0}};
    /* a named path's directory must exist: a mistyped path makes no directory tree */
    assert_int_equal(ttt_store_open(path, &s, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "does not exist"));
    char dir[400];
    snprintf(dir, sizeof dir, "%s/a", tmpdir);
    struct stat st;
    assert_int_not_equal(stat(dir, &st), 0);
    snprintf(path, sizeof path, "%s/new.db", tmpdir);
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

/* A file that stores one game and answers another (a broken b-tree does; here another program's trigger
 * rewrites the games whose X is "damaged") records nothing, says so in one line, and in the caller's
 * transaction undoes only that game. */
static void test_game_not_read_back_is_refused(void **state)
{
    (void)state;
    char path[400];
    snprintf(path, sizeof path, "%s/rewritten.db", tmpdir);
    ttt_store *s;
    ttt_error err = {{0}};
    assert_int_equal(ttt_store_open(path, &s, &err), TTT_OK);
    sqlite3 *other;
    assert_int_equal(sqlite3_open(path, &other), SQLITE_OK);
    assert_int_equal(sqlite3_exec(other,
                                  "CREATE TRIGGER rewrite AFTER INSERT ON games WHEN new.x = 'damaged' BEGIN "
                                  "UPDATE games SET moves = 'a1 a2 b1 b3 c1' WHERE id = new.id; END",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(other);
    ttt_rules r = rules_of("3x3");
    ttt_move win[] = {0, 3, 1, 4, 2}; /* a1 a2 b1 b2 c1 */
    ttt_game_record good, bad;
    assert_int_equal(ttt_game_record_make(&r, win, 5, "minimax", NULL, 100, 160, &good, &err), TTT_OK);
    assert_int_equal(ttt_game_record_make(&r, win, 5, "damaged", NULL, 100, 160, &bad, &err), TTT_OK);
    int64_t id = -1, count = -1;
    assert_int_equal(ttt_store_add_game(s, &bad, &id, &err), TTT_EIO);
    assert_non_null(strstr(err.msg, "reads back otherwise"));
    assert_null(strchr(err.msg, '\n'));
    assert_int_equal(id, -1);
    assert_int_equal(ttt_store_count_games(s, &count, &err), TTT_OK);
    assert_int_equal(count, 0);
    assert_int_equal(ttt_store_begin(s, &err), TTT_OK);
    assert_int_equal(ttt_store_add_game(s, &good, &id, &err), TTT_OK);
    assert_int_equal(ttt_store_add_game(s, &bad, NULL, &err), TTT_EIO);
    assert_int_equal(ttt_store_add_game(s, &good, NULL, &err), TTT_OK);
    assert_int_equal(ttt_store_commit(s, &err), TTT_OK);
    assert_int_equal(ttt_store_count_games(s, &count, &err), TTT_OK);
    assert_int_equal(count, 2);
    ttt_game_record got;
    assert_int_equal(ttt_store_get_game(s, id, &got, &err), TTT_OK);
    assert_string_equal(got.moves, "a1 a2 b1 b2 c1");
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

/* The store writes no record it would refuse to read back, and cuts no player's spec short. */
static void test_records_are_checked(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    const ttt_move moves[] = {0, 1, 3, 4, 6}; /* a1 b1 a2 b2 a3: X wins */
    ttt_game_record rec;
    ttt_error err = {{0}};
    char longer[TTT_STORE_SPEC_SIZE + 1];
    memset(longer, 'a', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    assert_int_equal(ttt_game_record_make(&r, moves, 5, longer, NULL, 1, 2, &rec, &err), TTT_ELIMIT);
    longer[sizeof longer - 2] = '\0'; /* TTT_STORE_SPEC_SIZE - 1 characters: fits */
    assert_int_equal(ttt_game_record_make(&r, moves, 5, longer, NULL, 1, 2, &rec, &err), TTT_OK);
    ttt_store *s;
    assert_int_equal(ttt_store_open(":memory:", &s, &err), TTT_OK);
    assert_int_equal(ttt_store_add_game(s, &rec, NULL, &err), TTT_OK);
    ttt_game_record bad = rec;
    bad.x[3] = '\n';
    assert_int_equal(ttt_store_add_game(s, &bad, NULL, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "bad x: holds a control character"));
    bad = rec;
    snprintf(bad.moves, sizeof bad.moves, "a1 b1 a2 b2");
    assert_int_equal(ttt_store_add_game(s, &bad, NULL, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "bad moves: the game is not finished"));
    bad = rec;
    snprintf(bad.result, sizeof bad.result, "o");
    assert_int_equal(ttt_store_add_game(s, &bad, NULL, &err), TTT_EINVAL);
    bad = rec;
    bad.started = -1;
    assert_int_equal(ttt_store_add_game(s, &bad, NULL, &err), TTT_EINVAL);
    int64_t n = -1;
    assert_int_equal(ttt_store_count_games(s, &n, &err), TTT_OK);
    assert_int_equal(n, 1);
    ttt_game_record back;
    assert_int_equal(ttt_store_get_game(s, 1, &back, &err), TTT_OK);
    assert_string_equal(back.x, longer);
    ttt_store_close(s);
}

/* What the store refuses to write is what it would refuse to read: nothing of it is written. */
static void test_learn_checks_what_it_writes(void **state)
{
    (void)state;
    ttt_store *s;
    ttt_error err = {{0}};
    assert_int_equal(ttt_store_open(":memory:", &s, &err), TTT_OK);
    assert_int_equal(ttt_store_learn(s, "3x3", "c3 b3 b2 c2 a1", "x", 1, &err),
                     TTT_EINVAL); /* not canonical */
    assert_non_null(strstr(err.msg, "not in canonical form"));
    assert_int_equal(ttt_store_learn(s, "3x3", "a1 b1", "x", 1, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "not finished"));
    assert_int_equal(ttt_store_learn(s, "3x3", "a1 b1 a2 b2 a3", "o", 1, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "bad result: the game ends 'x'"));
    assert_int_equal(ttt_store_learn(s, "3x3k3", "a1 b1 a2 b2 a3", "x", 1, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "not written as '3x3'"));
    assert_int_equal(ttt_store_learn(s, "3x3", "a1 b1 a2 b2 a3", "x", 0, &err), TTT_EINVAL);
    assert_int_equal(ttt_store_learn(s, "3x3", "a1 b1 a2 b2 a3", "x", TTT_STORE_MAX_COUNT + 1, &err),
                     TTT_EINVAL);
    ttt_store_memory_stats m = {0};
    assert_int_equal(ttt_store_memory_stats_each(s, grab_stats, &m, &err), TTT_OK);
    assert_int_equal(m.games, 0);
    ttt_store_close(s);
}

static ttt_status import_text(const char *text, ttt_store_import **imp, ttt_error *err)
{
    return ttt_store_import_parse(text, strlen(text), imp, err);
}

static void test_import(void **state)
{
    (void)state;
    ttt_store_import *imp;
    ttt_error err = {{0}};
    const char *good =
        "{\"format\":\"ttt-memory\",\"version\":1,\"memories\":[{\"rules\":\"3x3\",\"sequences\":["
        "{\"moves\":\"c3 b3 b2 c2 a1\",\"result\":\"x\",\"count\":2},"
        "{\"moves\":\"a1 b1 a2 b2 a3\",\"result\":\"x\",\"count\":3}]}]}";
    /* the length is the caller's: the text needs no terminator, and what follows is not read */
    assert_int_equal(ttt_store_import_parse(good, strlen(good) - 1, &imp, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "not valid JSON"));
    assert_int_equal(import_text(good, &imp, &err), TTT_OK);
    assert_int_equal(ttt_store_import_sequences(imp), 2);
    assert_int_equal(ttt_store_import_games(imp), 5);
    ttt_store *s;
    assert_int_equal(ttt_store_open(":memory:", &s, &err), TTT_OK);
    /* inside the caller's transaction, rolled back: nothing */
    assert_int_equal(ttt_store_begin(s, &err), TTT_OK);
    assert_int_equal(ttt_store_import_apply(s, imp, &err), TTT_OK);
    ttt_store_rollback(s);
    ttt_store_memory_stats m = {0};
    assert_int_equal(ttt_store_memory_stats_each(s, grab_stats, &m, &err), TTT_OK);
    assert_int_equal(m.games, 0);
    /* applied: the half turn takes c3 b3 b2 c2 a1 to a1 b1 b2 a2 c3 */
    assert_int_equal(ttt_store_import_apply(s, imp, &err), TTT_OK);
    assert_int_equal(ttt_store_memory_stats_each(s, grab_stats, &m, &err), TTT_OK);
    assert_int_equal(m.games, 5);
    assert_int_equal(m.sequences, 2);
    ttt_store_import_free(imp);
    ttt_store_close(s);
    static const struct {
        const char *text, *error;
    } bad[] = {
        {"", "not valid JSON"},
        {"{\"format\":\"ttt-memory\",\"version\":1,\"memories\":[{\"ru\\\n",
         "not valid JSON"}, /* found by fuzzing */
        {"{\"format\":\"other\"}", "not a ttt memory export"},
        {"{\"format\":\"ttt-memory\",\"version\":\"1\",\"memories\":[]}", "\"version\" must be 1"},
        {"{\"format\":\"ttt-memory\",\"version\":1,\"memories\":{}}", "\"memories\" must be an array"},
        {"{\"format\":\"ttt-memory\",\"format\":\"ttt-memory\",\"version\":1,\"memories\":[]}", "duplicate"},
        {"{\"format\":\"ttt-memory\",\"version\":1,\"memories\":[7]}", "memories[0]: expected"},
        {"{\"format\":\"ttt-memory\",\"version\":1,\"memories\":[{\"rules\":\"2x2\",\"sequences\":[]}]}",
         "memories[0]: "},
        {"{\"format\":\"ttt-memory\",\"version\":1,\"memories\":[{\"rules\":\"3x3\",\"sequences\":["
         "{\"moves\":\"a1 b1 a2 b2 a3\",\"result\":\"x\",\"count\":1},"
         "{\"moves\":\"a1 a1\",\"result\":\"x\",\"count\":1}]}]}",
         "memories[0].sequences[1]: "},
        {"{\"format\":\"ttt-memory\",\"version\":1,\"memories\":[{\"rules\":\"3x3\",\"sequences\":["
         "{\"moves\":\"a1 b1 a2 b2 a3\",\"result\":\"draw\",\"count\":1}]}]}",
         "result 'draw': the game ends 'x'"},
        {"{\"format\":\"ttt-memory\",\"version\":1,\"memories\":[{\"rules\":\"3x3\",\"sequences\":["
         "{\"moves\":\"a1 b1 a2 b2 a3\",\"result\":\"x\",\"count\":-1}]}]}",
         "count -1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        imp = NULL;
        assert_int_equal(import_text(bad[i].text, &imp, &err), TTT_EINVAL);
        assert_null(imp);
        if (!strstr(err.msg, bad[i].error) || strchr(err.msg, '\n')) {
            print_error("%s: got '%s', expected '%s'\n", bad[i].text, err.msg, bad[i].error);
            fail();
        }
    }
}

/* Two processes with two threads each, every game learned through a connection of its own (as arena makes new
 * engines for every game): every game is counted. Opening a store once read the file's header with
 * fopen/fclose, which dropped every lock SQLite held on the file in that process. */
#define SHARED_PROCESSES 2
#define SHARED_THREADS   2
#define SHARED_GAMES     150

static void *learn_games(void *p)
{
    const char *path = p;
    ttt_status st = TTT_OK;
    for (int i = 0; i < SHARED_GAMES && !st; i++) {
        ttt_store *s;
        ttt_error err;
        st = ttt_store_open(path, &s, &err);
        if (!st)
            st = ttt_store_learn(s, "3x3", "a1 b1 a2 b2 a3", "x", 1, &err);
        ttt_store_close(s);
    }
    return st ? p : NULL;
}

static void test_two_processes_two_threads(void **state)
{
    (void)state;
    char path[400];
    snprintf(path, sizeof path, "%s/shared.db", tmpdir);
    pid_t kids[SHARED_PROCESSES];
    for (int k = 0; k < SHARED_PROCESSES; k++) {
        kids[k] = fork();
        assert_true(kids[k] >= 0);
        if (kids[k] == 0) {
            pthread_t t[SHARED_THREADS];
            bool failed = false;
            for (int i = 0; i < SHARED_THREADS; i++)
                failed |= pthread_create(&t[i], NULL, learn_games, path) != 0;
            for (int i = 0; i < SHARED_THREADS; i++) {
                void *r;
                failed |= pthread_join(t[i], &r) != 0 || r != NULL;
            }
            _exit(failed ? 1 : 0);
        }
    }
    for (int k = 0; k < SHARED_PROCESSES; k++) {
        int status;
        assert_int_equal(waitpid(kids[k], &status, 0), kids[k]);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    ttt_store *s;
    ttt_error err = {{0}};
    assert_int_equal(ttt_store_open(path, &s, &err), TTT_OK);
    ttt_store_memory_stats m = {0};
    assert_int_equal(ttt_store_memory_stats_each(s, grab_stats, &m, &err), TTT_OK);
    assert_int_equal(m.games, SHARED_PROCESSES * SHARED_THREADS * SHARED_GAMES);
    ttt_store_close(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_path),
        cmocka_unit_test(test_default_path_is_made),
        cmocka_unit_test(test_open_creates_with_schema),
        cmocka_unit_test(test_foreign_files_are_refused),
        cmocka_unit_test(test_games),
        cmocka_unit_test(test_game_not_read_back_is_refused),
        cmocka_unit_test(test_sequences_and_stats),
        cmocka_unit_test(test_concurrent_creation),
        cmocka_unit_test(test_learn_checks_what_it_writes),
        cmocka_unit_test(test_records_are_checked),
        cmocka_unit_test(test_import),
        cmocka_unit_test(test_two_processes_two_threads),
    };
    return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
