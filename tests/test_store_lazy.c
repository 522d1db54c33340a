/* Unit tests for ttt_store_open_lazy: a database that does not exist yet is made at the first write, not when
 * opened; until then the store reads as empty; an existing file, and a named path's directory, are checked at
 * once. */
#define _GNU_SOURCE /* mkdtemp, setenv, nftw */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>

#include "ttt/ttt.h"

static char tmpdir[256];

static int make_tmpdir(void **state)
{
    (void)state;
    const char *base = getenv("TMPDIR");
    int n = snprintf(tmpdir, sizeof tmpdir, "%s/ttt-lazy-XXXXXX", base && *base ? base : "/tmp");
    return n > 0 && (size_t)n < sizeof tmpdir && mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *walk)
{
    (void)st, (void)flag, (void)walk;
    return remove(path);
}

/* Everything the tests made, the directory last. */
static int remove_tmpdir(void **state)
{
    (void)state;
    return nftw(tmpdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* X takes the top row: a1 a2 b1 b2 c1. */
static void won_game(ttt_game_record *rec)
{
    ttt_rules r = ttt_rules_default();
    const ttt_move moves[] = {0, 3, 1, 4, 2};
    ttt_error err;
    assert_int_equal(ttt_game_record_make(&r, moves, 5, NULL, "random", 1, 2, rec, &err), TTT_OK);
}

static int count_rows(const ttt_game_record *g, void *user)
{
    (void)g;
    ++*(int *)user;
    return 0;
}

static int count_sequences(const ttt_store_sequence *seq, void *user)
{
    (void)seq;
    ++*(int *)user;
    return 0;
}

static void test_named_path_made_at_the_first_game(void **state)
{
    (void)state;
    char path[400];
    snprintf(path, sizeof path, "%s/later.db", tmpdir);
    ttt_store *s;
    ttt_error err = {{0}};
    assert_int_equal(ttt_store_open_lazy(path, &s, &err), TTT_OK);
    assert_string_equal(ttt_store_path(s), path);
    assert_false(exists(path));
    /* reads see an empty database and make nothing */
    int64_t n = -1;
    assert_int_equal(ttt_store_count_games(s, &n, &err), TTT_OK);
    assert_int_equal(n, 0);
    int rows = 0;
    assert_int_equal(ttt_store_list_games(s, 10, count_rows, &rows, &err), TTT_OK);
    assert_int_equal(ttt_store_sequences(s, NULL, count_sequences, &rows, &err), TTT_OK);
    assert_int_equal(rows, 0);
    assert_int_equal(ttt_store_check(s, &err), TTT_OK);
    assert_false(exists(path));
    /* the first write makes it, and the game is in it */
    ttt_game_record rec;
    won_game(&rec);
    assert_int_equal(ttt_store_add_game(s, &rec, NULL, &err), TTT_OK);
    assert_true(exists(path));
    assert_int_equal(ttt_store_count_games(s, &n, &err), TTT_OK);
    assert_int_equal(n, 1);
    ttt_store_close(s);
    assert_int_equal(ttt_store_open_existing(path, &s, &err), TTT_OK);
    assert_int_equal(ttt_store_count_games(s, &n, &err), TTT_OK);
    assert_int_equal(n, 1);
    ttt_store_close(s);
    /* an existing file is opened at once, as ttt_store_open does */
    assert_int_equal(ttt_store_open_lazy(path, &s, &err), TTT_OK);
    assert_int_equal(ttt_store_count_games(s, &n, &err), TTT_OK);
    assert_int_equal(n, 1);
    ttt_store_close(s);
}

/* The learner's writes and a caller's transaction make the file too. */
static void test_other_writes_make_it(void **state)
{
    (void)state;
    char path[400];
    snprintf(path, sizeof path, "%s/learn.db", tmpdir);
    ttt_store *s;
    ttt_error err = {{0}};
    assert_int_equal(ttt_store_open_lazy(path, &s, &err), TTT_OK);
    assert_false(exists(path));
    assert_int_equal(ttt_store_learn(s, "3x3", "a1 b1 a2 b2 a3", "x", 1, &err), TTT_OK);
    assert_true(exists(path));
    ttt_store_close(s);
    snprintf(path, sizeof path, "%s/begin.db", tmpdir);
    assert_int_equal(ttt_store_open_lazy(path, &s, &err), TTT_OK);
    assert_false(exists(path));
    assert_int_equal(ttt_store_begin(s, &err), TTT_OK);
    assert_true(exists(path));
    assert_int_equal(ttt_store_commit(s, &err), TTT_OK);
    ttt_store_close(s);
}

/* The default path's directories wait for the first write too. */
static void test_default_path_waits(void **state)
{
    (void)state;
    char data[400], old[512], path[450];
    snprintf(old, sizeof old, "%s", getenv("XDG_DATA_HOME") ? getenv("XDG_DATA_HOME") : "");
    snprintf(data, sizeof data, "%s/data", tmpdir);
    setenv("XDG_DATA_HOME", data, 1);
    ttt_store *s;
    ttt_error err = {{0}};
    assert_int_equal(ttt_store_open_lazy(NULL, &s, &err), TTT_OK);
    assert_false(exists(data));
    ttt_game_record rec;
    won_game(&rec);
    assert_int_equal(ttt_store_add_game(s, &rec, NULL, &err), TTT_OK);
    snprintf(path, sizeof path, "%s/ttt/ttt.db", data);
    assert_true(exists(path));
    ttt_store_close(s);
    setenv("XDG_DATA_HOME", old, 1);
}

/* What cannot work is said when opening: a named path's missing directory, a file that is not ours. */
static void test_refusals_come_first(void **state)
{
    (void)state;
    char path[400];
    snprintf(path, sizeof path, "%s/missing/x.db", tmpdir);
    ttt_store *s = NULL;
    ttt_error err = {{0}};
    assert_int_equal(ttt_store_open_lazy(path, &s, &err), TTT_EINVAL);
    assert_null(s);
    assert_non_null(strstr(err.msg, "does not exist"));
    snprintf(path, sizeof path, "%s/text.db", tmpdir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("not a database\n", f);
    fclose(f);
    assert_int_equal(ttt_store_open_lazy(path, &s, &err), TTT_EINVAL);
    assert_null(s);
    assert_non_null(strstr(err.msg, "not an SQLite database"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_named_path_made_at_the_first_game),
        cmocka_unit_test(test_other_writes_make_it),
        cmocka_unit_test(test_default_path_waits),
        cmocka_unit_test(test_refusals_come_first),
    };
    return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
