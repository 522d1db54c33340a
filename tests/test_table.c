/* Unit tests for ttt/table.h: scoring, canonical merging, determinism, the file, and the table engine. */
#define _GNU_SOURCE /* mkdtemp, setenv */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/table_build.h"
#include "store/table_internal.h"
#include "ttt/ttt.h"
#include "support.h"

/* --- Helpers -------------------------------------------------------------------------------------------- */

static char tmpdir[256];

static int make_tmpdir(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "%s/ttt-test-table-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
    (void)state;
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *tmp_path(const char *name)
{
    static char buf[8][512];
    static int next;
    char *p = buf[next++ % 8];
    snprintf(p, sizeof buf[0], "%s/%s", tmpdir, name);
    return p;
}

static void add_game(ttt_table *t, const char *moves)
{
    ttt_move seq[TTT_MAX_CELLS];
    int n;
    ttt_error err = {{0}};
    assert_int_equal(ttt_moves_parse(moves, ttt_table_rules(t), seq, TTT_MAX_CELLS, &n, &err), TTT_OK);
    if (ttt_table_add_game(t, seq, n, &err) != TTT_OK) {
        print_error("add_game '%s': %s\n", moves, err.msg);
        fail();
    }
}

/* The entry of `move` after the moves `before` must be (sum, count). */
static void assert_entry(const ttt_table *t, const char *before, const char *move, int64_t sum,
                         uint64_t count)
{
    const ttt_rules *r = ttt_table_rules(t);
    ttt_move seq[TTT_MAX_CELLS], m;
    int n;
    ttt_board b;
    assert_int_equal(ttt_moves_parse(before, r, seq, TTT_MAX_CELLS, &n, NULL), TTT_OK);
    assert_int_equal(ttt_moves_replay(r, seq, n, &b, NULL), TTT_OK);
    assert_int_equal(ttt_move_parse(move, r, &m, NULL), TTT_OK);
    ttt_table_value v = {0, 0, 0};
    if (!ttt_table_get(t, &b, m, &v)) {
        print_error("no entry for %s after '%s'\n", move, before);
        fail();
    }
    if (v.sum != sum || v.count != count) {
        print_error("%s after '%s': sum %lld count %llu, expected %lld %llu\n", move, before,
                    (long long)v.sum, (unsigned long long)v.count, (long long)sum, (unsigned long long)count);
        fail();
    }
    assert_true(v.average == (double)sum / (double)count);
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static ttt_table *build(const char *rules_text, uint64_t games, uint64_t seed, int jobs)
{
    ttt_rules r = rules_of(rules_text);
    ttt_table_build_options opt = {.games = games, .seed = seed, .jobs = jobs};
    ttt_table *t = NULL;
    ttt_error err = {{0}};
    if (ttt_table_build(&r, &opt, &t, &err) != TTT_OK) {
        print_error("build: %s\n", err.msg);
        fail();
    }
    return t;
}

static void save(const ttt_table *t, const char *path)
{
    ttt_error err = {{0}};
    if (ttt_table_save(t, path, &err) != TTT_OK) {
        print_error("save: %s\n", err.msg);
        fail();
    }
}

/* --- Scoring -------------------------------------------------------------------------------------------- */

/* X wins on the diagonal a1 b2 c3 at move 5; O's c1 (move 4) let it happen.
 *     X O O
 *     . X .
 *     . . X      scores: a1 +1, b1 -1, b2 +1, c1 -10, c3 +10 */
static void test_scores_by_hand(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_table *t;
    assert_int_equal(ttt_table_new(&r, &t, NULL), TTT_OK);
    add_game(t, "a1 b1 b2 c1 c3");
    assert_int_equal(ttt_table_games(t), 1);
    assert_int_equal(ttt_table_samples(t), 5);
    assert_int_equal(ttt_table_entries(t), 5);
    assert_int_equal(ttt_table_positions(t), 5);
    assert_entry(t, "", "a1", 1, 1);
    assert_entry(t, "a1", "b1", -1, 1);
    assert_entry(t, "a1 b1", "b2", 1, 1);
    assert_entry(t, "a1 b1 b2", "c1", -10, 1);
    assert_entry(t, "a1 b1 b2 c1", "c3", 10, 1);

    /* A draw: every move scores -1.
     *     O X X
     *     X X O
     *     O O X */
    add_game(t, "b2 a1 c1 a3 a2 c2 b1 b3 c3");
    assert_int_equal(ttt_table_games(t), 2);
    assert_int_equal(ttt_table_samples(t), 14);
    assert_entry(t, "", "b2", -1, 1);
    assert_entry(t, "b2 a1 c1 a3 a2 c2 b1 b3", "c3", -1, 1);
    assert_entry(t, "", "a1", 1, 1); /* untouched by the draw */

    /* O wins: X's moves -1, O's +1, the winning move +10 and X's move before it -10. */
    add_game(t, "a1 b2 c3 a2 b1 c2");
    assert_entry(t, "", "a1", 0, 2);
    assert_entry(t, "a1", "b2", 1, 1);
    assert_entry(t, "a1 b2", "c3", -1, 1);
    assert_entry(t, "a1 b2 c3", "a2", 1, 1);
    assert_entry(t, "a1 b2 c3 a2", "b1", -10, 1);
    assert_entry(t, "a1 b2 c3 a2 b1", "c2", 10, 1);
    ttt_table_free(t);
}

/* Misère: X completes a line and loses. Nobody's move ends the game as their own win, so no +10 or -10. */
static void test_scores_misere(void **state)
{
    (void)state;
    ttt_rules r = rules_of("3x3-misere");
    ttt_table *t;
    assert_int_equal(ttt_table_new(&r, &t, NULL), TTT_OK);
    add_game(t, "a1 b1 b2 c1 c3");
    assert_entry(t, "", "a1", -1, 1);
    assert_entry(t, "a1", "b1", 1, 1);
    assert_entry(t, "a1 b1", "b2", -1, 1);
    assert_entry(t, "a1 b1 b2", "c1", 1, 1);
    assert_entry(t, "a1 b1 b2 c1", "c3", -1, 1);
    ttt_table_free(t);
}

/* Mirror images of a game land in the same entries, looked up from either side. */
static void test_canonical_merging(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_table *t;
    assert_int_equal(ttt_table_new(&r, &t, NULL), TTT_OK);
    add_game(t, "a1 b1 b2 c1 c3");
    add_game(t, "c1 b1 b2 a1 a3"); /* left-right mirror */
    add_game(t, "c3 b3 b2 a3 a1"); /* half turn */
    add_game(t, "a1 a2 b2 a3 c3"); /* transpose: a symmetric position after a1, so b1 and a2 are one move */
    assert_int_equal(ttt_table_entries(t), 5);
    assert_int_equal(ttt_table_positions(t), 5);
    assert_entry(t, "", "a1", 4, 4);
    assert_entry(t, "", "c3", 4, 4);
    assert_entry(t, "a1", "b1", -4, 4);
    assert_entry(t, "a1", "a2", -4, 4);
    assert_entry(t, "c1", "b1", -4, 4);
    assert_entry(t, "a1 b1 b2", "c1", -40, 4);
    assert_entry(t, "c1 b1 b2", "a1", -40, 4);
    assert_entry(t, "c1 b1 b2 a1", "a3", 40, 4);
    ttt_table_value v;
    ttt_board empty;
    ttt_board_init(&empty, &r);
    assert_false(ttt_table_get(t, &empty, 4, &v));
    assert_false(ttt_table_get(t, &empty, 1, &v));
    ttt_table_free(t);
}

static void test_add_game_refuses_bad_games(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_table *t;
    assert_int_equal(ttt_table_new(&r, &t, NULL), TTT_OK);
    ttt_move unfinished[] = {0, 1, 2};
    ttt_move taken[] = {0, 0};
    ttt_move off[] = {9};
    ttt_move too_long[] = {0, 3, 1, 4, 2, 5};
    ttt_error err = {{0}};
    assert_int_equal(ttt_table_add_game(t, unfinished, 3, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "not over"));
    assert_int_equal(ttt_table_add_game(t, taken, 2, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "taken"));
    assert_int_equal(ttt_table_add_game(t, off, 1, &err), TTT_EINVAL);
    assert_int_equal(ttt_table_add_game(t, too_long, 6, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "over"));
    assert_int_equal(ttt_table_games(t), 0);
    assert_int_equal(ttt_table_entries(t), 0);
    ttt_table_free(t);

    ttt_rules big = rules_of("9x9k5");
    t = (ttt_table *)&r;
    assert_int_equal(ttt_table_new(&big, &t, &err), TTT_ELIMIT);
    assert_null(t);
    assert_non_null(strstr(err.msg, "64 cells"));
}

/* --- Building ------------------------------------------------------------------------------------------- */

/* The table text after the header line (which holds the seed). */
static const char *body(const char *text)
{
    const char *nl = strchr(text, '\n');
    assert_non_null(nl);
    return nl + 1;
}

/* The fast builder (raw entries canonicalised in bulk, the playout kernel's games) equals scoring the same games one
 * by one through the board API. 70,000 games: two chunks. */
static void test_build_matches_replayed_games(void **state)
{
    (void)state;
    const char *rules_list[] = {"3x3", "4x4k3-misere", "3x4"};
    for (size_t k = 0; k < sizeof rules_list / sizeof rules_list[0]; k++) {
        const uint64_t games = TTT_TABLE_CHUNK_GAMES + 4464, seed = 5;
        ttt_table *fast = build(rules_list[k], games, seed, 2);
        ttt_rules r = rules_of(rules_list[k]);
        ttt_table *slow;
        assert_int_equal(ttt_table_new(&r, &slow, NULL), TTT_OK);
        ttt_playout *playout;
        assert_int_equal(ttt_playout_new(&r, &playout, NULL), TTT_OK);
        for (uint64_t chunk = 0; chunk * TTT_TABLE_CHUNK_GAMES < games; chunk++) {
            ttt_rng rng;
            ttt_table_chunk_start(playout, &r, seed, chunk, &rng);
            for (uint64_t g = chunk * TTT_TABLE_CHUNK_GAMES;
                 g < games && g < (chunk + 1) * TTT_TABLE_CHUNK_GAMES; g++) {
                ttt_move moves[TTT_MAX_CELLS];
                int n = ttt_table_random_game(playout, &rng, moves);
                ttt_error err = {{0}};
                if (ttt_table_add_game(slow, moves, n, &err) != TTT_OK) {
                    print_error("game %llu: %s\n", (unsigned long long)g, err.msg);
                    fail();
                }
            }
        }
        assert_int_equal(ttt_table_games(fast), games);
        assert_int_equal(ttt_table_games(slow), games);
        assert_int_equal(ttt_table_samples(fast), ttt_table_samples(slow));
        save(fast, tmp_path("fast.json"));
        save(slow, tmp_path("slow.json"));
        char *a = read_all(tmp_path("fast.json")), *b = read_all(tmp_path("slow.json"));
        assert_string_equal(body(a), body(b));
        free(a);
        free(b);
        ttt_table_free(fast);
        ttt_table_free(slow);
        ttt_playout_free(playout);
    }
}

/* 3x3 has 627 unfinished positions up to symmetry (765 minus 138 finished ones); enough games see them all.
 * The first move's counts add up to the games. */
static void test_build_sees_every_position(void **state)
{
    (void)state;
    ttt_table *t = build("3x3", 300000, 1, 2);
    assert_int_equal(ttt_table_positions(t), 627);
    ttt_board empty;
    ttt_board_init(&empty, ttt_table_rules(t));
    ttt_table_value corner, edge, centre;
    assert_true(ttt_table_get(t, &empty, 0, &corner));
    assert_true(ttt_table_get(t, &empty, 1, &edge));
    assert_true(ttt_table_get(t, &empty, 4, &centre));
    assert_int_equal(corner.count + edge.count + centre.count, 300000);
    /* Random play favours the centre, then the corners. */
    assert_true(centre.average > corner.average);
    assert_true(corner.average > edge.average);
    ttt_table_free(t);
}

static void test_build_deterministic(void **state)
{
    (void)state;
    const uint64_t games = 3 * TTT_TABLE_CHUNK_GAMES + 17;
    ttt_table *one = build("3x3", games, 42, 1), *two = build("3x3", games, 42, 2);
    ttt_table *again = build("3x3", games, 42, 3), *other = build("3x3", games, 43, 2);
    save(one, tmp_path("one.json"));
    save(two, tmp_path("two.json"));
    save(again, tmp_path("again.json"));
    save(other, tmp_path("other.json"));
    char *a = read_all(tmp_path("one.json")), *b = read_all(tmp_path("two.json"));
    char *c = read_all(tmp_path("again.json")), *d = read_all(tmp_path("other.json"));
    assert_string_equal(a, b);
    assert_string_equal(a, c);
    assert_string_not_equal(body(a), body(d));
    free(a);
    free(b);
    free(c);
    free(d);
    ttt_table_free(one);
    ttt_table_free(two);
    ttt_table_free(again);
    ttt_table_free(other);
}

static uint64_t progress_calls, progress_last;
static void count_progress(uint64_t done, uint64_t total, void *user)
{
    assert_ptr_equal(user, &progress_calls);
    assert_true(done <= total);
    assert_true(done >= progress_last);
    progress_last = done;
    progress_calls++;
}

static void test_build_progress_and_options(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_table_build_options opt = {.games = 2 * TTT_TABLE_CHUNK_GAMES,
                                   .seed = 1,
                                   .jobs = 1,
                                   .progress = count_progress,
                                   .user = &progress_calls};
    ttt_table *t;
    assert_int_equal(ttt_table_build(&r, &opt, &t, NULL), TTT_OK);
    /* reports within each chunk too (a chunk of a big board's games can take seconds), then the end */
    assert_true(progress_calls > 3);
    assert_int_equal(progress_last, opt.games);
    ttt_table_free(t);

    ttt_error err = {{0}};
    opt = (ttt_table_build_options){.games = 10, .seed = (uint64_t)INT64_MAX + 1};
    assert_int_equal(ttt_table_build(&r, &opt, &t, &err), TTT_EINVAL);
    assert_null(t);
    assert_non_null(strstr(err.msg, "seed"));
    opt = (ttt_table_build_options){.games = 10, .jobs = TTT_TABLE_MAX_JOBS + 1};
    assert_int_equal(ttt_table_build(&r, &opt, &t, &err), TTT_EINVAL);
    opt = (ttt_table_build_options){.games = 0};
    assert_int_equal(ttt_table_build(&r, &opt, &t, &err), TTT_OK);
    assert_int_equal(ttt_table_entries(t), 0);
    ttt_table_free(t);
}

/* --- The file ------------------------------------------------------------------------------------------- */

static void test_save_load_round_trip(void **state)
{
    (void)state;
    const char *rules_list[] = {"3x3", "4x4k3", "3x3-misere", "3x5"};
    for (size_t k = 0; k < sizeof rules_list / sizeof rules_list[0]; k++) {
        ttt_table *t = build(rules_list[k], 5000, 9, 2);
        const char *path = tmp_path("round.json"), *again = tmp_path("round2.json");
        save(t, path);
        ttt_table *u;
        ttt_error err = {{0}};
        ttt_rules r = rules_of(rules_list[k]);
        if (ttt_table_load(path, &r, &u, &err) != TTT_OK) {
            print_error("load: %s\n", err.msg);
            fail();
        }
        assert_int_equal(ttt_table_games(u), 5000);
        assert_int_equal(ttt_table_seed(u), 9);
        assert_int_equal(ttt_table_entries(u), ttt_table_entries(t));
        assert_int_equal(ttt_table_positions(u), ttt_table_positions(t));
        assert_int_equal(ttt_table_samples(u), ttt_table_samples(t));
        save(u, again);
        char *a = read_all(path), *b = read_all(again);
        assert_string_equal(a, b);
        free(a);
        free(b);
        ttt_table_free(u);
        /* NULL rules: taken from the file. */
        assert_int_equal(ttt_table_load(path, NULL, &u, &err), TTT_OK);
        assert_true(ttt_rules_equal(ttt_table_rules(u), &r));
        ttt_table_free(u);
        ttt_table_free(t);
    }
    /* An empty table round-trips too. */
    ttt_rules r = ttt_rules_default();
    ttt_table *t, *u;
    assert_int_equal(ttt_table_new(&r, &t, NULL), TTT_OK);
    save(t, tmp_path("empty.json"));
    assert_int_equal(ttt_table_load(tmp_path("empty.json"), &r, &u, NULL), TTT_OK);
    assert_int_equal(ttt_table_entries(u), 0);
    assert_true(ttt_table_file_looks_like_table(tmp_path("empty.json")));
    ttt_table_free(t);
    ttt_table_free(u);
}

/* The in-memory pair the fuzz harness uses: ttt_table_write writes what ttt_table_save writes, and
 * ttt_table_load_text reads it as ttt_table_load reads the file, with the same messages. */
static void test_write_and_load_text(void **state)
{
    (void)state;
    ttt_table *t = build("4x4k3", 300, 4, 1);
    const char *path = tmp_path("text.json");
    save(t, path);
    char *saved = read_all(path), *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_int_equal(ttt_table_write(t, f, NULL), TTT_OK);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(len, strlen(saved));
    assert_memory_equal(text, saved, len);
    ttt_table *u;
    ttt_error err = {{0}};
    assert_int_equal(ttt_table_load_text("mem", text, len, ttt_table_rules(t), &u, &err), TTT_OK);
    assert_int_equal(ttt_table_entries(u), ttt_table_entries(t));
    assert_int_equal(ttt_table_samples(u), ttt_table_samples(t));
    assert_int_equal(ttt_table_games(u), 300);
    ttt_table_free(u);
    ttt_rules other = rules_of("3x3");
    assert_int_equal(ttt_table_load_text("mem", text, len, &other, &u, &err), TTT_EINVAL);
    assert_null(u);
    assert_string_equal(err.msg, "table 'mem': the table is for 4x4k3, not 3x3");
    assert_int_equal(ttt_table_load_text("mem", text, len / 2, NULL, &u, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "table 'mem': not valid JSON: "));
    free(saved);
    free(text);
    ttt_table_free(t);
}

#define HEAD             "{\"format\":\"ttt-table\",\"version\":1,\"rules\":\"3x3\",\"games\":1,\"seed\":0,\"positions\":"
#define MOVE(m, s, c, a) "{\"move\":\"" m "\",\"sum\":" #s ",\"count\":" #c ",\"average\":" #a "}"

/* Each bad file is refused with TTT_EINVAL and a message naming the problem; nothing crashes. */
static void test_load_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text, *culprit;
    } cases[] = {
        {"", "not valid JSON"},
        {"{\"format\": ", "not valid JSON"},
        {"[1, 2]", "not a ttt table"},
        {"{}", "'format' is missing"},
        {"{\"format\": 3}", "'format' must be a string"},
        {"{\"format\": \"ttt-book\", \"version\": 1}", "format is 'ttt-book'"},
        {"{\"format\": \"ttt-table\"}", "'version' must be an integer"},
        {"{\"format\": \"ttt-table\", \"version\": \"1\"}", "'version' must be an integer"},
        {"{\"format\": \"ttt-table\", \"version\": 2}", "version 2 is not supported"},
        {"{\"format\": \"ttt-table\", \"version\": 1, \"rules\": \"2x2\"}", "rules '2x2'"},
        {"{\"format\": \"ttt-table\", \"version\": 1, \"rules\": \"4x4\"}", "the table is for 4x4, not 3x3"},
        {"{\"format\": \"ttt-table\", \"version\": 1, \"rules\": \"3x3-misere\"}", "for 3x3-misere, not 3x3"},
        {"{\"format\": \"ttt-table\", \"version\": 1, \"rules\": \"3x3\", \"games\": -1, \"seed\": 0}",
         "'games'"},
        {"{\"format\": \"ttt-table\", \"version\": 1, \"rules\": \"3x3\", \"games\": 1.5, \"seed\": 0}",
         "'games'"},
        {"{\"format\": \"ttt-table\", \"version\": 1, \"rules\": \"3x3\", \"games\": 1}",
         "'seed' is missing"},
        {HEAD "{}}", "'positions' must be an array"},
        {HEAD "[3]}", "positions[0]: not an object"},
        {HEAD "[{\"moves\": []}]}", "positions[0]: 'position' is missing"},
        {HEAD "[{\"position\": \"x.q/.../...\", \"moves\": [" MOVE("b2", 1, 1, 1) "]}]}",
         "bad character 'q'"},
        {HEAD "[{\"position\": \"x../...\", \"moves\": []}]}", "positions[0]: position"},
        {HEAD "[{\"position\": \"xx./.../...\", \"moves\": []}]}", "impossible piece counts"},
        {HEAD "[{\"position\": \"..x/.../...\", \"moves\": [" MOVE("b2", 1, 1, 1) "]}]}",
         "not in canonical form"},
        {HEAD "[{\"position\": \"xxx/oo./...\", \"moves\": []}]}", "the game is over"},
        {HEAD "[{\"position\": \".../.../...\"}]}", "'moves' must be a non-empty array"},
        {HEAD "[{\"position\": \".../.../...\", \"moves\": []}]}", "'moves' must be a non-empty array"},
        {HEAD "[{\"position\": \".../.../...\", \"moves\": [7]}]}", "moves[0]: not an object"},
        {HEAD "[{\"position\": \".../.../...\", \"moves\": [" MOVE("z9", 1, 1, 1) "]}]}", "move 'z9'"},
        {HEAD "[{\"position\": \".../.../...\", \"moves\": [{\"sum\": 1}]}]}", "'move' is missing"},
        {HEAD "[{\"position\": \"x../.../...\", \"moves\": [" MOVE("a1", 1, 1, 1) "]}]}", "taken"},
        {HEAD "[{\"position\": \".../.../...\", \"moves\": [" MOVE("c3", 1, 1, 1) "]}]}", "canonical frame"},
        {HEAD "[{\"position\": \".../.../...\", \"moves\": [" MOVE("a1", 1, "1", 1) "]}]}",
         "'count' must be an integer"},
        {HEAD "[{\"position\": \".../.../...\", \"moves\": [" MOVE("a1", 0, 0, 0) "]}]}",
         "'count' must be an integer"},
        {HEAD "[{\"position\": \".../.../...\", \"moves\": [" MOVE("a1", 11, 1, 11) "]}]}",
         "'sum' must be an integer"},
        {HEAD "[{\"position\": \".../.../...\", \"moves\": [" MOVE("a1", 1.0, 1, 1) "]}]}",
         "'sum' must be an integer"},
        {HEAD "[{\"position\": \".../.../...\", \"moves\": [" MOVE("a1", 1, 2, 0.7) "]}]}",
         "'average' is not sum"},
        {HEAD "[{\"position\": \".../.../...\", \"moves\": [" MOVE("a1", 1, 2, null) "]}]}",
         "'average' must be"},
        {HEAD
         "[{\"position\": \".../.../...\", \"moves\": [" MOVE("a1", 1, 1, 1) "," MOVE("a1", 1, 1, 1) "]}]}",
         "listed twice"},
        {HEAD "[{\"position\": \".../.../...\", \"moves\": [" MOVE(
             "a1", 1, 1, 1) "]},"
                            "{\"position\": \".../.../...\", \"moves\": [" MOVE("b2", 1, 1, 1) "]}]}",
         "positions[1]: '.../.../...' is listed twice"},
    };
    ttt_rules r = ttt_rules_default();
    const char *path = tmp_path("bad.json");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_file(path, cases[i].text);
        ttt_table *t = (ttt_table *)&r;
        ttt_error err = {{0}};
        ttt_status st = ttt_table_load(path, &r, &t, &err);
        if (st != TTT_EINVAL || t != NULL || strstr(err.msg, cases[i].culprit) == NULL ||
            strncmp(err.msg, "table '", 7) != 0 || strchr(err.msg, '\n')) {
            print_error("case %zu '%s': status %d, message \"%s\", expected \"%s\"\n", i, cases[i].text,
                        (int)st, err.msg, cases[i].culprit);
            fail();
        }
        assert_int_equal(ttt_table_load(path, &r, &t, NULL), TTT_EINVAL);
    }
    /* The good version of the last cases loads. */
    write_file(path, HEAD "[{\"position\": \".../.../...\", \"moves\": [" MOVE("a1", 1, 2, 0.5) "]}]}");
    ttt_table *t;
    assert_int_equal(ttt_table_load(path, &r, &t, NULL), TTT_OK);
    ttt_table_free(t);

    ttt_error err = {{0}};
    t = (ttt_table *)&r;
    assert_int_equal(ttt_table_load(tmp_path("no-such-file.json"), &r, &t, &err), TTT_EINVAL);
    assert_null(t);
    assert_non_null(strstr(err.msg, "no such file"));
    /* A directory opens but cannot be read. */
    assert_int_equal(ttt_table_load(tmpdir, &r, &t, &err), TTT_EIO);
    assert_null(t);
    assert_true(strlen(err.msg) > 0);
    assert_false(ttt_table_file_looks_like_table(tmp_path("no-such-file.json")));
}

static void test_save_errors_leave_old_file(void **state)
{
    (void)state;
    ttt_table *t = build("3x3", 100, 1, 1);
    ttt_error err = {{0}};
    assert_int_equal(ttt_table_save(t, tmp_path("no-dir/t.json"), &err), TTT_EIO);
    assert_non_null(strstr(err.msg, "no-dir"));
    /* Saving over a file replaces it whole; a directory in the way is not replaced. */
    mkdir(tmp_path("in-the-way"), 0755);
    assert_int_equal(ttt_table_save(t, tmp_path("in-the-way"), &err), TTT_EIO);
    struct stat sb;
    assert_int_equal(stat(tmp_path("in-the-way"), &sb), 0);
    assert_true(S_ISDIR(sb.st_mode));
    ttt_table_free(t);
}

/* --- The engine ----------------------------------------------------------------------------------------- */

/* The engine plays every move of games against itself and against random; all legal, one node each. */
static void test_engine_plays_to_the_end(void **state)
{
    (void)state;
    const char *rules_list[] = {"3x3", "4x4k3", "3x3-misere", "4x4-misere"};
    for (size_t k = 0; k < sizeof rules_list / sizeof rules_list[0]; k++) {
        ttt_rules r = rules_of(rules_list[k]);
        ttt_table *t = build(rules_list[k], 3000, 2, 1); /* small: 4x4 games leave it unseen positions */
        save(t, tmp_path("engine.json"));
        ttt_table_free(t);
        char spec[600];
        snprintf(spec, sizeof spec, "table:file=%s,seed=3", tmp_path("engine.json"));
        ttt_engine *e = engine_ok(spec, &r), *rnd = engine_ok("random:seed=4", &r);
        uint64_t decisions = 0;
        for (int game = 0; game < 20; game++) {
            ttt_board b;
            ttt_board_init(&b, &r);
            while (!ttt_board_terminal(&b)) {
                ttt_engine *who = (game % 3 == 0 || (b.ply & 1) == (game & 1)) ? e : rnd;
                ttt_move m = TTT_NO_MOVE;
                ttt_search_info info;
                assert_int_equal(ttt_engine_choose(who, &b, &m, &info, NULL), TTT_OK);
                assert_true(ttt_board_is_legal(&b, m));
                if (who == e) {
                    assert_int_equal(info.nodes, 1);
                    decisions++;
                }
                ttt_board_play(&b, m);
            }
        }
        assert_int_equal(ttt_engine_nodes(e), decisions);
        ttt_engine_free(e);
        ttt_engine_free(rnd);
    }
}

/* An empty table knows no position: the fallback takes a win in one, else blocks, else plays anything. */
static void test_engine_fallback(void **state)
{
    (void)state;
    const char *path = tmp_path("nothing.json");
    char spec[600];
    for (int misere = 0; misere < 2; misere++) {
        ttt_rules r = rules_of(misere ? "3x3-misere" : "3x3");
        ttt_table *t;
        assert_int_equal(ttt_table_new(&r, &t, NULL), TTT_OK);
        save(t, path);
        ttt_table_free(t);
        for (int seed = 0; seed < 10; seed++) {
            snprintf(spec, sizeof spec, "table:file=%s,seed=%d", path, seed);
            ttt_engine *e = engine_ok(spec, &r);
            ttt_move m;
            /* X to move wins at c1 (normal rules); under misère c1 would lose, and no move wins. */
            ttt_board b = board_of(&r, "xx./oo./...");
            assert_int_equal(ttt_engine_choose(e, &b, &m, NULL, NULL), TTT_OK);
            if (!misere)
                assert_int_equal(m, 2);
            /* O to move: X threatens c1; block it (normal rules only: a misère line loses for X). */
            b = board_of(&r, "xx./o../...");
            assert_int_equal(ttt_engine_choose(e, &b, &m, NULL, NULL), TTT_OK);
            if (!misere)
                assert_int_equal(m, 2);
            assert_true(ttt_board_is_legal(&b, m));
            ttt_engine_free(e);
        }
    }
    /* With a table, a seen position is decided by the table: after 1M games the table also wins in one. */
}

/* With a real table the engine takes an immediate win (+10 every time) and plays the best first move. */
static void test_engine_uses_table(void **state)
{
    (void)state;
    ttt_table *t = build("3x3", 200000, 0, 2);
    save(t, tmp_path("real.json"));
    ttt_table_free(t);
    ttt_rules r = ttt_rules_default();
    char spec[600];
    snprintf(spec, sizeof spec, "table:file=%s", tmp_path("real.json"));
    ttt_engine *e = engine_ok(spec, &r);
    ttt_move m;
    ttt_board b;
    ttt_board_init(&b, &r);
    assert_int_equal(ttt_engine_choose(e, &b, &m, NULL, NULL), TTT_OK);
    assert_int_equal(m, 4); /* the centre has the best average */
    b = board_of(&r, "xx./oo./...");
    assert_int_equal(ttt_engine_choose(e, &b, &m, NULL, NULL), TTT_OK);
    assert_int_equal(m, 2);
    ttt_engine_free(e);
}

static void test_engine_bad_files(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_engine *e = NULL;
    ttt_error err = {{0}};
    char spec[600];
    snprintf(spec, sizeof spec, "table:file=%s", tmp_path("missing.json"));
    assert_int_equal(ttt_engine_new(spec, &r, &e, &err), TTT_EINVAL);
    assert_null(e);
    assert_non_null(strstr(err.msg, "engine 'table': table '"));
    assert_non_null(strstr(err.msg, "no such file"));
    /* A table for other rules. */
    ttt_table *t = build("4x4k3", 100, 0, 1);
    save(t, tmp_path("4x4k3.json"));
    ttt_table_free(t);
    snprintf(spec, sizeof spec, "table:file=%s", tmp_path("4x4k3.json"));
    assert_int_equal(ttt_engine_new(spec, &r, &e, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "for 4x4k3, not 3x3"));
    assert_int_equal(ttt_engine_new("table:depth=3", &r, &e, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "known: seed, file"));
}

/* A client that shares one table hands it to each engine (ttt_engine_new_in): the engines play from it
 * without loading or building any, the table outlives them, and with no_files and no table the engine refuses
 * to start rather than build one. */
static void test_engine_shared_table(void **state)
{
    (void)state;
    const char *data = tmp_path("shared-data");
    setenv("XDG_DATA_HOME", data, 1);
    ttt_rules r = rules_of("3x3");
    ttt_error err = {{0}};
    ttt_table *t;
    assert_int_equal(ttt_table_build_default(&r, 1, &t, &err), TTT_OK);
    assert_int_equal(ttt_table_games(t), ttt_table_default_games(&r));
    ttt_engine_env env = {.table = t, .no_files = true};
    ttt_engine *a, *b;
    assert_int_equal(ttt_engine_new_in("table", &r, &env, &a, &err), TTT_OK);
    assert_int_equal(ttt_engine_new_in("table:seed=1", &r, &env, &b, &err), TTT_OK);
    ttt_board board = board_of(&r, "b2 a1 c3");
    ttt_move ma, mb;
    assert_int_equal(ttt_engine_choose(a, &board, &ma, NULL, &err), TTT_OK);
    ttt_engine_free(a);
    assert_int_equal(ttt_engine_choose(b, &board, &mb, NULL, &err), TTT_OK); /* the table is still there */
    ttt_engine_free(b);
    assert_true(ttt_board_is_legal(&board, ma) && ttt_board_is_legal(&board, mb));
    struct stat sb;
    assert_int_not_equal(stat(data, &sb), 0); /* nothing written, not even the directory */
    /* The same move as an engine with its own copy of the same table. */
    char path[512];
    snprintf(path, sizeof path, "table:file=%s", tmp_path("shared.json"));
    save(t, tmp_path("shared.json"));
    ttt_engine *own = engine_ok(path, &r);
    ttt_move mo;
    assert_int_equal(ttt_engine_choose(own, &board, &mo, NULL, &err), TTT_OK);
    assert_int_equal(mo, ma);
    ttt_engine_free(own);
    /* A table of other rules, and no table at all where no file may be made. */
    ttt_rules other = rules_of("3x3-misere");
    ttt_engine *e = NULL;
    assert_int_equal(ttt_engine_new_in("table", &other, &env, &e, &err), TTT_EINVAL);
    assert_null(e);
    assert_non_null(strstr(err.msg, "for 3x3, not 3x3-misere"));
    env.table = NULL;
    assert_int_equal(ttt_engine_new_in("table", &r, &env, &e, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "no table given"));
    assert_int_not_equal(stat(data, &sb), 0);
    ttt_table_free(t);
    /* The bound on a default table's entries: 3x3's by its positions, 4x4's by its games. */
    ttt_rules four = rules_of("4x4");
    assert_true(ttt_table_max_entries(&r, ttt_table_default_games(&r)) < 19683 * 9 + 1);
    assert_int_equal(ttt_table_max_entries(&four, ttt_table_default_games(&four)),
                     (uint64_t)TTT_TABLE_DEFAULT_GAMES_16 * 16);
    assert_int_equal(ttt_table_default_games(&(ttt_rules){.rows = 6, .cols = 6, .k = 4}), 0);
    unsetenv("XDG_DATA_HOME");
}

/* Without file= the engine builds the default table in the data directory once, then reads it; a file there
 * that does not load is an error and is never overwritten. */
static void test_engine_default_table(void **state)
{
    (void)state;
    const char *data = tmp_path("data");
    setenv("XDG_DATA_HOME", data, 1);
    ttt_rules r = rules_of("3x3-misere");
    char path[512];
    ttt_error err = {{0}};
    assert_int_equal(ttt_table_default_path(&r, false, path, sizeof path, &err), TTT_OK);
    assert_string_equal(path, tmp_path("data/ttt/tables/3x3-misere.tbl"));
    struct stat sb;
    assert_int_not_equal(stat(path, &sb), 0);
    ttt_engine *e = engine_ok("table", &r);
    assert_int_equal(stat(path, &sb), 0);
    ttt_table *t;
    assert_int_equal(ttt_table_load(path, &r, &t, &err), TTT_OK);
    assert_int_equal(ttt_table_games(t), TTT_TABLE_DEFAULT_GAMES);
    assert_int_equal(ttt_table_seed(t), TTT_TABLE_DEFAULT_SEED);
    ttt_table_free(t);
    ttt_board b;
    ttt_board_init(&b, &r);
    ttt_move m;
    assert_int_equal(ttt_engine_choose(e, &b, &m, NULL, NULL), TTT_OK);
    ttt_engine_free(e);
    /* Reused: a second engine reads the same file. */
    time_t before = sb.st_mtime;
    e = engine_ok("table:seed=1", &r);
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal(sb.st_mtime, before);
    ttt_engine_free(e);

    /* A corrupt default table is refused and left as it is. */
    write_file(path, "{\"format\": \"ttt-table\", \"version\": 1, \"rules\": \"3x3-mis");
    e = NULL;
    assert_int_equal(ttt_engine_new("table", &r, &e, &err), TTT_EINVAL);
    assert_null(e);
    assert_non_null(strstr(err.msg, "not valid JSON"));
    char *text = read_all(path);
    assert_string_equal(text, "{\"format\": \"ttt-table\", \"version\": 1, \"rules\": \"3x3-mis");
    free(text);

    /* XDG_DATA_HOME must be absolute; otherwise HOME decides. */
    setenv("XDG_DATA_HOME", "relative/dir", 1);
    setenv("HOME", tmp_path("home"), 1);
    assert_int_equal(ttt_table_default_path(&r, true, path, sizeof path, &err), TTT_OK);
    assert_string_equal(path, tmp_path("home/.local/share/ttt/tables/3x3-misere.tbl"));
    assert_int_equal(stat(tmp_path("home/.local/share/ttt/tables"), &sb), 0);
    assert_true(S_ISDIR(sb.st_mode));
    unsetenv("XDG_DATA_HOME");
    unsetenv("HOME");
    assert_int_equal(ttt_table_default_path(&r, false, path, sizeof path, &err), TTT_EIO);
    setenv("HOME", tmp_path("home"), 1);
}

/* Boards too big for a useful random-game table have no default: the engine asks for file= instead of writing
 * a huge file into the user's data directory. */
static void test_engine_no_default_for_big_boards(void **state)
{
    (void)state;
    ttt_rules r = rules_of("6x6k4");
    ttt_engine *e = NULL;
    ttt_error err = {{0}};
    assert_int_equal(ttt_engine_new("table", &r, &e, &err), TTT_EINVAL);
    assert_null(e);
    assert_non_null(strstr(err.msg, "no default table"));
    assert_non_null(strstr(err.msg, "file="));
}

/* --- The binary format and the shared tables ------------------------------------------------------------ */

/* The bytes of a file and their count (*size). */
static unsigned char *read_bytes(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = malloc((size_t)n + 1);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *size = (size_t)n;
    return data;
}

static void write_bytes(const char *path, const unsigned char *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    fclose(f);
}

/* Sets the checksum at the end of a binary table (FNV-1a of the bytes before it) after an edit. */
static void fix_checksum(unsigned char *data, size_t size)
{
    uint64_t sum = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < size - 8; i++)
        sum = (sum ^ data[i]) * UINT64_C(0x100000001b3);
    for (int i = 0; i < 8; i++)
        data[size - 8 + i] = (unsigned char)(sum >> (8 * i));
}

/* A table saved under a name that does not end in .json is binary, much smaller than its JSON, and loads
 * back to the same table: saved again, the same bytes; saved from its JSON, the same bytes too. */
static void test_binary_round_trip(void **state)
{
    (void)state;
    const char *rules_list[] = {"3x3", "4x4k3", "3x3-misere", "3x5", "8x8k5"};
    for (size_t k = 0; k < sizeof rules_list / sizeof rules_list[0]; k++) {
        ttt_table *t = build(rules_list[k], 3000, 5, 2);
        ttt_rules r = rules_of(rules_list[k]);
        save(t, tmp_path("round.tbl"));
        save(t, tmp_path("round.json"));
        size_t nb, nj, na, nc;
        unsigned char *b = read_bytes(tmp_path("round.tbl"), &nb),
                      *j = read_bytes(tmp_path("round.json"), &nj);
        assert_memory_equal(b, "TTTTABLE", 8);
        assert_true(nb * 3 < nj);
        assert_true(ttt_table_file_looks_like_table(tmp_path("round.tbl")));
        ttt_table *u, *v;
        ttt_error err = {{0}};
        if (ttt_table_load(tmp_path("round.tbl"), &r, &u, &err) != TTT_OK) {
            print_error("load: %s\n", err.msg);
            fail();
        }
        assert_int_equal(ttt_table_games(u), 3000);
        assert_int_equal(ttt_table_seed(u), 5);
        assert_int_equal(ttt_table_entries(u), ttt_table_entries(t));
        assert_int_equal(ttt_table_positions(u), ttt_table_positions(t));
        assert_int_equal(ttt_table_samples(u), ttt_table_samples(t));
        save(u, tmp_path("again.tbl"));
        unsigned char *a = read_bytes(tmp_path("again.tbl"), &na);
        assert_int_equal(na, nb);
        assert_memory_equal(a, b, nb);
        /* the JSON export reads back to the same table */
        assert_int_equal(ttt_table_load(tmp_path("round.json"), NULL, &v, &err), TTT_OK);
        save(v, tmp_path("from-json.tbl"));
        unsigned char *c = read_bytes(tmp_path("from-json.tbl"), &nc);
        assert_int_equal(nc, nb);
        assert_memory_equal(c, b, nb);
        free(a);
        free(b);
        free(c);
        free(j);
        ttt_table_free(u);
        ttt_table_free(v);
        ttt_table_free(t);
    }
}

/* A damaged binary table is refused whole with one line that says what is wrong. */
static void test_binary_errors(void **state)
{
    (void)state;
    ttt_table *t = build("3x3", 200, 1, 1);
    save(t, tmp_path("good.tbl"));
    ttt_table_free(t);
    size_t n;
    unsigned char *good = read_bytes(tmp_path("good.tbl"), &n);
    unsigned char *bad = malloc(n);
    ttt_rules r = rules_of("3x3"), four = rules_of("4x4k3");
    ttt_error err;
    const char *path = tmp_path("bad.tbl");
    struct {
        size_t at, len; /* bytes kept (len < n cuts the file) */
        int value;      /* the byte written at `at` (-1: none) */
        bool fix;       /* the checksum made right again */
        const ttt_rules *rules;
        const char *message;
    } cases[] = {
        {0, 12, -1, false, &r, "the file ends early"},
        {0, 40, -1, false, &r, "ends early"},
        {100, 0, 0x5a, false, &r, "the checksum does not match"},
        {8, 0, 3, true, &r, "version 3 is not supported"},
        {16, 0, 'z', true, &r, "rules"},
        {0, 0, -1, false, &four, "the table is for 3x3, not 4x4k3"},
        {71, 0, 0x7f, true, &r, "do not fit in the file"},
        {80, 0, 0xff, true, &r, "position 0"},       /* X stones off the board */
        {96, 0, 0, true, &r, "position 0: 0 moves"}, /* the first position with no moves */
        {97, 0, 9, true, &r, "position 0, move 0"},  /* a cell off the board */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len = cases[i].len ? cases[i].len : n;
        memcpy(bad, good, n);
        if (cases[i].value >= 0)
            bad[cases[i].at] = (unsigned char)cases[i].value;
        if (cases[i].fix)
            fix_checksum(bad, len);
        write_bytes(path, bad, len);
        ttt_table *u = (ttt_table *)1;
        err.msg[0] = '\0';
        ttt_status st = ttt_table_load(path, cases[i].rules, &u, &err);
        if (st != TTT_EINVAL || !strstr(err.msg, cases[i].message) || strchr(err.msg, '\n') ||
            strncmp(err.msg, "table '", 7)) {
            print_error("case %zu: status %d, message '%s', expected '%s'\n", i, st, err.msg,
                        cases[i].message);
            fail();
        }
        assert_null(u);
    }
    free(good);
    free(bad);
}

static int built_calls;
static ttt_table_built last_built;

static void count_builds(const ttt_table_built *b, void *user)
{
    (void)user;
    built_calls++;
    last_built = *b;
}

typedef struct acquirer {
    const char *path;
    const ttt_table *got;
} acquirer;

static void *acquire_in_thread(void *arg)
{
    acquirer *a = arg;
    ttt_rules r = rules_of("4x4k3");
    assert_int_equal(ttt_table_acquire(a->path, &r, &a->got, NULL, NULL), TTT_OK);
    return NULL;
}

/* One load per file and process: acquired twice, from threads, or again after every user let go, a file
 * gives the same table; a new file at the path is loaded anew; the cache can be cleared. */
static void test_shared_tables(void **state)
{
    (void)state;
    ttt_rules r = rules_of("4x4k3");
    ttt_table *t = build("4x4k3", 2000, 3, 1);
    const char *path = tmp_path("shared.tbl");
    save(t, path);
    ttt_table_free(t);
    const ttt_table *a, *b, *c;
    ttt_error err;
    assert_int_equal(ttt_table_acquire(path, &r, &a, NULL, &err), TTT_OK);
    assert_int_equal(ttt_table_acquire(path, &r, &b, NULL, &err), TTT_OK);
    assert_ptr_equal(a, b);
    ttt_table_release(a);
    ttt_table_release(b);
    assert_int_equal(ttt_table_acquire(path, &r, &c, NULL, &err), TTT_OK);
    assert_ptr_equal(c, a); /* kept by the cache while nobody used it */
    enum { THREADS = 4 };
    pthread_t ids[THREADS];
    acquirer each[THREADS];
    for (int i = 0; i < THREADS; i++) {
        each[i] = (acquirer){path, NULL};
        assert_int_equal(pthread_create(&ids[i], NULL, acquire_in_thread, &each[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(ids[i], NULL);
        assert_ptr_equal(each[i].got, c);
        ttt_table_release(each[i].got);
    }
    /* A new file at the same path: loaded anew; the one in use stays valid until released. */
    t = build("4x4k3", 3000, 4, 1);
    save(t, path);
    ttt_table_free(t);
    assert_int_equal(ttt_table_acquire(path, &r, &b, NULL, &err), TTT_OK);
    assert_int_equal(ttt_table_games(b), 3000);
    assert_int_equal(ttt_table_games(c), 2000);
    ttt_table_release(c);
    ttt_table_release(b);
    /* Errors as ttt_table_load, and for other rules. */
    const ttt_table *none = (const ttt_table *)1;
    assert_int_equal(ttt_table_acquire(tmp_path("missing.tbl"), &r, &none, NULL, &err), TTT_EINVAL);
    assert_null(none);
    assert_non_null(strstr(err.msg, "no such file"));
    ttt_rules three = rules_of("3x3");
    assert_int_equal(ttt_table_acquire(path, &three, &none, NULL, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "the table is for 4x4k3, not 3x3"));
    ttt_table_cache_clear();

    /* The default table: built once and said so through the listener, then read from its file. */
    setenv("XDG_DATA_HOME", tmp_path("shared-default"), 1);
    ttt_table_set_built_listener(count_builds, NULL);
    ttt_table_built built;
    assert_int_equal(ttt_table_acquire(NULL, &r, &a, &built, &err), TTT_OK);
    assert_true(built.ms >= 0 && built.saved && built.bytes > 0);
    assert_int_equal(built.games, ttt_table_default_games(&r));
    assert_string_equal(built.path, tmp_path("shared-default/ttt/tables/4x4k3.tbl"));
    assert_int_equal(built_calls, 1);
    assert_string_equal(last_built.path, built.path);
    assert_int_equal(ttt_table_acquire(NULL, &r, &b, &built, &err), TTT_OK);
    assert_true(built.ms < 0);
    assert_ptr_equal(a, b);
    assert_int_equal(built_calls, 1);
    ttt_table_release(a);
    ttt_table_release(b);
    ttt_table_cache_clear();
    assert_int_equal(ttt_table_acquire(NULL, &r, &a, &built, &err), TTT_OK); /* from the file now */
    assert_true(built.ms < 0);
    assert_int_equal(built_calls, 1);
    ttt_table_release(a);
    ttt_table_set_built_listener(NULL, NULL);
    ttt_table_cache_clear();
    unsetenv("XDG_DATA_HOME");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scores_by_hand),
        cmocka_unit_test(test_scores_misere),
        cmocka_unit_test(test_canonical_merging),
        cmocka_unit_test(test_add_game_refuses_bad_games),
        cmocka_unit_test(test_build_matches_replayed_games),
        cmocka_unit_test(test_build_sees_every_position),
        cmocka_unit_test(test_build_deterministic),
        cmocka_unit_test(test_build_progress_and_options),
        cmocka_unit_test(test_save_load_round_trip),
        cmocka_unit_test(test_write_and_load_text),
        cmocka_unit_test(test_load_errors),
        cmocka_unit_test(test_save_errors_leave_old_file),
        cmocka_unit_test(test_engine_plays_to_the_end),
        cmocka_unit_test(test_engine_fallback),
        cmocka_unit_test(test_engine_uses_table),
        cmocka_unit_test(test_engine_bad_files),
        cmocka_unit_test(test_engine_shared_table),
        cmocka_unit_test(test_engine_default_table),
        cmocka_unit_test(test_engine_no_default_for_big_boards),
        cmocka_unit_test(test_binary_round_trip),
        cmocka_unit_test(test_binary_errors),
        cmocka_unit_test(test_shared_tables),
    };
    return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
