/* Unit tests for ttt/engine.h: the registry, spec parsing and the random engine. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "ttt/ttt.h"
#include "support.h"

/* --- Helpers -------------------------------------------------------------------------------------------- */

/* The spec must be refused with TTT_EINVAL, *out set to NULL and a message that names `culprit`. */
static void assert_spec_fails(const char *spec, const char *culprit)
{
    ttt_rules r = ttt_rules_default();
    static int dummy;
    ttt_engine *e = (ttt_engine *)(void *)&dummy; /* must be overwritten with NULL */
    ttt_error err;
    memset(&err, 0, sizeof err);
    ttt_status st = ttt_engine_new(spec, &r, &e, &err);
    if (st != TTT_EINVAL) {
        print_error("engine '%s' returned %d, expected TTT_EINVAL\n", spec, (int)st);
        if (st == TTT_OK) {
            ttt_engine_free(e);
        }
        fail();
    }
    assert_null(e);
    assert_true(strlen(err.msg) > 0);
    if (culprit != NULL && strstr(err.msg, culprit) == NULL) {
        print_error("engine '%s': message \"%s\" does not name \"%s\"\n", spec, err.msg, culprit);
        fail();
    }
    /* err may be NULL */
    e = (ttt_engine *)(void *)&dummy;
    assert_int_equal(ttt_engine_new(spec, &r, &e, NULL), TTT_EINVAL);
    assert_null(e);
}

/* Plays one game with the engine choosing for both sides; every choice must be legal. Returns the moves. */
static int play_game(ttt_engine *e, const ttt_rules *r, ttt_move *moves)
{
    ttt_board b;
    ttt_board_init(&b, r);
    ttt_engine_new_game(e);
    int count = 0;
    while (!ttt_board_terminal(&b)) {
        ttt_move m = TTT_NO_MOVE;
        ttt_search_info info;
        ttt_error err = {{0}};
        ttt_status st = ttt_engine_choose(e, &b, &m, &info, &err);
        if (st != TTT_OK) {
            print_error("choose failed at ply %d: %s\n", b.ply, err.msg);
        }
        assert_int_equal(st, TTT_OK);
        if (!ttt_board_is_legal(&b, m)) {
            print_error("illegal move %d at ply %d\n", m, b.ply);
            fail();
        }
        ttt_board_play(&b, m);
        moves[count++] = m;
    }
    assert_int_equal(ttt_engine_game_over(e, moves, count, ttt_board_outcome(&b), NULL), TTT_OK);
    return count;
}

/* --- Registry ------------------------------------------------------------------------------------------- */

static void test_registry_lists_random(void **state)
{
    (void)state;
    int n = ttt_engine_count();
    assert_true(n >= 1);
    bool found = false;
    for (int i = 0; i < n; i++) {
        const ttt_engine_about *about = ttt_engine_about_at(i);
        assert_non_null(about);
        assert_non_null(about->name);
        assert_non_null(about->summary);
        assert_non_null(about->options);
        assert_true(strlen(about->name) > 0);
        for (int j = 0; j < i; j++) {
            assert_string_not_equal(about->name, ttt_engine_about_at(j)->name);
        }
        if (strcmp(about->name, "random") == 0) {
            found = true;
            assert_non_null(strstr(about->options, "seed"));
        }
    }
    assert_true(found);
}

/* The help of option key in options (its line and continuation lines), or NULL; *len gets its length. */
static const char *help_of(const char *options, const char *key, size_t key_len, size_t *len)
{
    for (const char *line = options; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (strncmp(line, key, key_len) == 0 && line[key_len] == '=') {
            const char *end = strchr(line, '\n');
            while (end && end[1] == ' ')
                end = strchr(end + 1, '\n');
            *len = end ? (size_t)(end - line) : strlen(line);
            return line;
        }
    return NULL;
}

/* Every option's help is made from the option table: each option of the full spec has its line, with the
 * default the full spec shows; seed= comes last. */
static void test_option_help_from_the_table(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    for (int i = 0; i < ttt_engine_count(); i++) {
        const ttt_engine_about *a = ttt_engine_about_at(i);
        char spec[64], full[TTT_SPEC_TEXT_SIZE];
        snprintf(spec, sizeof spec, "%s%s", a->name, strcmp(a->name, "cmd") == 0 ? ":path=x,args=y" : "");
        assert_int_equal(ttt_engine_spec_expand(spec, &r, full, sizeof full, NULL), TTT_OK);
        for (char *p = strchr(full, ':') + 1; *p;) { /* "key=value" pairs */
            size_t pair = strcspn(p, ","), key = strcspn(p, "="), len = 0;
            const char *help = help_of(a->options, p, key, &len);
            assert_non_null(help);
            char def[64];
            snprintf(def, sizeof def, "(default %.*s)", (int)(pair - key - 1), p + key + 1);
            char text[1024];
            snprintf(text, sizeof text, "%.*s", (int)len, help);
            if (strncmp(p, "path=", 5) != 0 && strncmp(p, "args=", 5) != 0) /* a path shows no default */
                assert_non_null(strstr(text, def));
            p += pair + (p[pair] == ',');
        }
        const char *last = strrchr(a->options, '\n');
        assert_int_equal(strncmp(last ? last + 1 : a->options, "seed=N", 6), 0);
    }
}

/* Every registered engine can be made by its bare name and every one takes seed=; but for `cmd` (an outside
 * brain), which needs path= and says so (tests/cli/arena_cmd.sh plays it). */
static void test_every_registered_engine_can_be_made(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    for (int i = 0; i < ttt_engine_count(); i++) {
        const char *name = ttt_engine_about_at(i)->name;
        if (strcmp(name, "cmd") == 0) {
            ttt_engine *e;
            ttt_error err;
            assert_int_equal(ttt_engine_new(name, &r, &e, &err), TTT_EINVAL);
            assert_non_null(strstr(err.msg, "path= is required"));
            continue;
        }
        ttt_engine *e = engine_ok(name, &r);
        assert_string_equal(ttt_engine_name(e), name);
        assert_true(ttt_rules_equal(ttt_engine_rules(e), &r));
        ttt_engine_free(e);
        char spec[64];
        snprintf(spec, sizeof spec, "%s:seed=3", name);
        e = engine_ok(spec, &r);
        ttt_engine_free(e);
    }
}

/* --- Specs ---------------------------------------------------------------------------------------------- */

static void test_random_engine_from_spec(void **state)
{
    (void)state;
    ttt_rules r = rules_of("4x4k3-misere");
    ttt_engine *e = engine_ok("random", &r);
    assert_string_equal(ttt_engine_name(e), "random");
    assert_true(ttt_rules_equal(ttt_engine_rules(e), &r));
    assert_true(ttt_engine_nodes(e) == 0);
    ttt_engine_free(e);
    e = engine_ok("random:seed=7", &r);
    assert_string_equal(ttt_engine_name(e), "random");
    ttt_engine_free(e);
    e = engine_ok("random:seed=18446744073709551615", &r);
    ttt_engine_free(e);
    ttt_engine_free(NULL);
}

static void test_spec_unknown_engine(void **state)
{
    (void)state;
    assert_spec_fails("nope", "nope");
    assert_spec_fails("nope:seed=1", "nope");
    assert_spec_fails("RANDOMX", "RANDOMX");
}

static void test_spec_unknown_option(void **state)
{
    (void)state;
    assert_spec_fails("random:depth=3", "depth");
    assert_spec_fails("random:seed=1,depth=3", "depth");
}

static void test_spec_bad_value(void **state)
{
    (void)state;
    assert_spec_fails("random:seed=abc", "abc");
    assert_spec_fails("random:seed=-1", "seed");
    assert_spec_fails("random:seed=12x", "seed");
    assert_spec_fails("random:seed=1.5", "seed");
    assert_spec_fails("random:seed=18446744073709551616", "seed"); /* 2^64 */
}

static void test_spec_empty_value(void **state)
{
    (void)state;
    assert_spec_fails("random:seed=", "seed");
}

static void test_spec_option_without_value(void **state)
{
    (void)state;
    assert_spec_fails("random:seed", "seed");
}

static void test_spec_duplicate_option(void **state)
{
    (void)state;
    assert_spec_fails("random:seed=1,seed=2", "seed");
}

static void test_spec_empty(void **state)
{
    (void)state;
    assert_spec_fails("", NULL);
}

static void test_spec_round_trip(void **state)
{
    (void)state;
    ttt_rules r = rules_of("7x6k4");
    const char *specs[] = {"random", "random:seed=7", "random:seed=18446744073709551615"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        ttt_engine *a = engine_ok(specs[i], &r);
        char buf[TTT_SPEC_TEXT_SIZE];
        assert_ptr_equal(ttt_engine_spec(a, buf, sizeof buf), buf);
        assert_non_null(strstr(buf, "seed="));
        assert_true(strncmp(buf, "random", 6) == 0);
        ttt_engine *b = engine_ok(buf, &r);
        char again[TTT_SPEC_TEXT_SIZE];
        assert_string_equal(ttt_engine_spec(b, again, sizeof again), buf);
        /* and the engine made from it plays the same */
        ttt_move ga[TTT_MAX_CELLS], gb[TTT_MAX_CELLS];
        for (int game = 0; game < 3; game++) {
            int na = play_game(a, &r, ga);
            int nb = play_game(b, &r, gb);
            assert_int_equal(na, nb);
            assert_memory_equal(ga, gb, (size_t)na * sizeof ga[0]);
        }
        ttt_engine_free(a);
        ttt_engine_free(b);
    }
    /* the default seed is written out */
    ttt_engine *d = engine_ok("random", &r);
    char buf[TTT_SPEC_TEXT_SIZE];
    assert_non_null(strstr(ttt_engine_spec(d, buf, sizeof buf), "seed=0"));
    ttt_engine_free(d);
    d = engine_ok("random:seed=7", &r);
    assert_non_null(strstr(ttt_engine_spec(d, buf, sizeof buf), "seed=7"));
    ttt_engine_free(d);
}

/* --- Difficulty levels ---------------------------------------------------------------------------------- */

/* Every level is an alias of a real spec: the engine made from the level is the engine its spec makes,
 * options the caller adds override the level's own, and names are matched whole. */
static void test_levels_are_aliases(void **state)
{
    (void)state;
    ttt_rules r = rules_of("3x3");
    assert_true(ttt_level_count() >= 4);
    assert_null(ttt_level_at(ttt_level_count()));
    assert_null(ttt_level_find("hardest", 7));
    assert_null(ttt_level_find("har", 3));
    for (int i = 0; i < ttt_level_count(); i++) {
        const ttt_level *l = ttt_level_at(i);
        assert_ptr_equal(ttt_level_find(l->name, strlen(l->name)), l);
        ttt_engine *a = engine_ok(l->name, &r), *b = engine_ok(l->spec, &r);
        char sa[TTT_SPEC_TEXT_SIZE], sb[TTT_SPEC_TEXT_SIZE];
        assert_string_equal(ttt_engine_spec(a, sa, sizeof sa), ttt_engine_spec(b, sb, sizeof sb));
        ttt_engine_free(a);
        ttt_engine_free(b);
        char spec[TTT_SPEC_TEXT_SIZE];
        snprintf(spec, sizeof spec, "%s:seed=77", l->name);
        a = engine_ok(spec, &r);
        assert_non_null(strstr(ttt_engine_spec(a, sa, sizeof sa), "seed=77"));
        ttt_engine_free(a);
    }
    const ttt_level *perfect = ttt_level_find("perfect", 7);
    assert_non_null(perfect);
    assert_spec_fails("perfect:", "perfect");
    assert_spec_fails("perfect:bogus=1", "bogus");
}

/* ttt_engine_spec_bound bounds every engine by its options' roles: time (0 and above the cap become the cap,
 * written last, counts or not), a count that is the budget without the time (refused above the work cap,
 * each weighed by its cost, unless strict), sizes (lowered to the memory cap). */
static void test_spec_bound_by_roles(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default(), big;
    assert_int_equal(ttt_rules_parse("20x20k5", &big, NULL), TTT_OK);
    ttt_engine_caps caps = {
        .time_ms = 2000, .work_cells = 6000000, .memory_bytes = 16 << 20, .who = "the test"};
    char out[TTT_SPEC_TEXT_SIZE];
    ttt_error err;
    assert_int_equal(ttt_engine_spec_bound("minimax:tt=64,blunder=5", &r, &caps, out, sizeof out, &err),
                     TTT_OK);
    assert_string_equal(out, "minimax:seed=0,nodes=0,depth=0,tt=16,blunder=5,time=1000");
    assert_int_equal(ttt_engine_spec_bound("perfect:time=0", &r, &caps, out, sizeof out, &err), TTT_OK);
    assert_string_equal(out, "minimax:seed=0,nodes=0,depth=0,tt=16,blunder=0,time=2000");
    assert_int_equal(ttt_engine_spec_bound("mcts:tree=4000000", &big, &caps, out, sizeof out, &err), TTT_OK);
    assert_non_null(strstr(out, ",tree=524288,time=2000")); /* iterations= (the default) within the time */
    assert_int_equal(
        ttt_engine_spec_bound("mcts:iterations=10000,time=0", &big, &caps, out, sizeof out, &err), TTT_OK);
    assert_non_null(strstr(out, "iterations=10000,") && strstr(out, ",time=2000")); /* 10000 x 400 x 1.5 */
    assert_int_equal(ttt_engine_spec_bound("mcts:iterations=10001", &big, &caps, out, sizeof out, &err),
                     TTT_ELIMIT);
    assert_string_equal(err.msg, "engine 'mcts': iterations=10001 on 400 cells is more than the test allows "
                                 "(10000); ask for time=MS instead");
    assert_int_equal(ttt_engine_spec_bound("montecarlo:trials=666666", &r, &caps, out, sizeof out, &err),
                     TTT_OK);
    assert_non_null(strstr(out, "trials=666666,current=1,other=1,time=2000"));
    assert_int_equal(ttt_engine_spec_bound("montecarlo:trials=666667", &r, &caps, out, sizeof out, &err),
                     TTT_ELIMIT);
    caps.strict = true; /* the count is not checked: the time bounds it */
    assert_int_equal(ttt_engine_spec_bound("montecarlo:trials=666667", &r, &caps, out, sizeof out, &err),
                     TTT_OK);
    assert_non_null(strstr(out, "trials=666667,current=1,other=1,time=2000"));
    assert_int_equal(ttt_engine_spec_bound("mcts:time=5000", &big, &caps, out, sizeof out, &err), TTT_OK);
    assert_non_null(strstr(out, ",time=2000"));
    /* Engines without time or counts are written out whole; errors are ttt_engine_new's. */
    assert_int_equal(ttt_engine_spec_bound("random:seed=3", &r, &caps, out, sizeof out, &err), TTT_OK);
    assert_string_equal(out, "random:seed=3");
    assert_int_equal(ttt_engine_spec_bound("minimax:bogus=1", &r, &caps, out, sizeof out, &err), TTT_EINVAL);
    assert_int_equal(ttt_engine_spec_bound("minimax", &r, &caps, out, 10, &err), TTT_ELIMIT);
}

/* The work of one move from the empty board of rules text by the engine of spec. */
static uint64_t nodes_of_one_move(const char *spec, const char *text)
{
    ttt_rules r;
    assert_int_equal(ttt_rules_parse(text, &r, NULL), TTT_OK);
    ttt_engine *e = engine_ok(spec, &r);
    ttt_board b;
    ttt_board_init(&b, &r);
    ttt_move m;
    ttt_search_info info;
    assert_int_equal(ttt_engine_choose(e, &b, &m, &info, NULL), TTT_OK);
    ttt_engine_free(e);
    return info.nodes;
}

/* A count and a time are both limits: the count ends a move before a long time, the time before a count that
 * would take hours, so that a bounded spec (time= always set) keeps a weak level's count. */
static void test_count_and_time_both_limit(void **state)
{
    (void)state;
    assert_int_equal(nodes_of_one_move("mcts:iterations=50,time=2000", "20x20k20"), 50);
    assert_int_equal(nodes_of_one_move("montecarlo:trials=50,time=2000", "20x20k20"), 50);
    assert_true(nodes_of_one_move("mcts:iterations=1000000000000,time=1", "20x20k20") < 1000000000000);
    assert_true(nodes_of_one_move("montecarlo:trials=100000000000,time=1", "20x20k20") < 100000000000);
    /* 0, the default: the default count without a time, none with one */
    assert_int_equal(nodes_of_one_move("montecarlo", "3x3"), 3000);
    assert_int_equal(nodes_of_one_move("mcts:seed=1", "5x5k4"), 10000);
}

/* Which specs name files (servers refuse them) and which engines have an option, levels included. */
static void test_spec_paths_and_options(void **state)
{
    (void)state;
    char key[32] = "";
    assert_true(ttt_engine_spec_sets_path("table:file=/etc/passwd", key, sizeof key));
    assert_string_equal(key, "file");
    assert_true(ttt_engine_spec_sets_path("learner:seed=1,memory=/tmp/x.db", key, sizeof key));
    assert_string_equal(key, "memory");
    assert_false(ttt_engine_spec_sets_path("learner:seed=1", key, sizeof key));
    assert_false(ttt_engine_spec_sets_path("minimax:time=5", key, sizeof key));
    assert_false(ttt_engine_spec_sets_path("hard", key, sizeof key));
    assert_true(ttt_engine_requires_path("cmd"));
    assert_true(ttt_engine_requires_path("cmd:turn=5"));
    for (const char *const *n = (const char *const[]){"minimax", "table", "learner", "hard", "nope", NULL};
         *n; n++)
        assert_false(ttt_engine_requires_path(*n));
    assert_false(ttt_engine_spec_sets_path("nosuch:file=x", key, sizeof key));
    assert_true(ttt_engine_has_option("learner", "memory"));
    assert_true(ttt_engine_has_option("hard:seed=2", "blunder"));
    assert_false(ttt_engine_has_option("random", "memory"));
    assert_false(ttt_engine_has_option("nosuch", "seed"));
}

/* --- The random engine ---------------------------------------------------------------------------------- */

static void test_random_engine_plays_legal_moves_to_the_end(void **state)
{
    (void)state;
    const char *sets[] = {"3x3", "4x4k3-misere", "7x6k4", "15x15k5"};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        ttt_rules r = rules_of(sets[i]);
        ttt_engine *e = engine_ok("random:seed=1", &r);
        int games = r.rows * r.cols > 100 ? 50 : 200;
        for (int g = 0; g < games; g++) {
            ttt_move moves[TTT_MAX_CELLS];
            int n = play_game(e, &r, moves);
            assert_true(n >= 2 * r.k - 1);
            assert_true(n <= r.rows * r.cols);
        }
        ttt_engine_free(e);
    }
}

static void test_random_engine_is_deterministic(void **state)
{
    (void)state;
    ttt_rules r = rules_of("4x4k3");
    ttt_engine *a = engine_ok("random:seed=7", &r);
    ttt_engine *b = engine_ok("random:seed=7", &r);
    for (int g = 0; g < 20; g++) {
        ttt_move ga[TTT_MAX_CELLS], gb[TTT_MAX_CELLS];
        int na = play_game(a, &r, ga);
        int nb = play_game(b, &r, gb);
        assert_int_equal(na, nb);
        assert_memory_equal(ga, gb, (size_t)na * sizeof ga[0]);
    }
    ttt_engine_free(a);
    ttt_engine_free(b);
}

static void test_random_engine_seeds_give_different_games(void **state)
{
    (void)state;
    ttt_rules r = rules_of("4x4k3");
    ttt_engine *a = engine_ok("random:seed=1", &r);
    ttt_engine *b = engine_ok("random:seed=2", &r);
    int differ = 0;
    for (int g = 0; g < 10; g++) {
        ttt_move ga[TTT_MAX_CELLS], gb[TTT_MAX_CELLS];
        int na = play_game(a, &r, ga);
        int nb = play_game(b, &r, gb);
        differ += na != nb || memcmp(ga, gb, (size_t)na * sizeof ga[0]) != 0;
    }
    assert_true(differ > 0);
    ttt_engine_free(a);
    ttt_engine_free(b);
}

static void test_choose_on_finished_game_is_state_error(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_engine *e = engine_ok("random", &r);
    ttt_board b;
    ttt_board_init(&b, &r);
    const int win[] = {0, 3, 1, 4, 2};
    for (int i = 0; i < 5; i++) {
        ttt_board_play(&b, win[i]);
    }
    ttt_move m = 42;
    ttt_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(ttt_engine_choose(e, &b, &m, NULL, &err), TTT_ESTATE);
    assert_true(strlen(err.msg) > 0);

    /* a full-board draw too */
    const int draw[] = {0, 4, 8, 1, 7, 6, 2, 5, 3};
    ttt_board_init(&b, &r);
    for (int i = 0; i < 9; i++) {
        ttt_board_play(&b, draw[i]);
    }
    assert_int_equal(ttt_engine_choose(e, &b, &m, NULL, NULL), TTT_ESTATE);
    ttt_engine_free(e);
}

static void test_choose_with_other_rules_is_state_error(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_engine *e = engine_ok("random", &r);
    const char *others[] = {"4x4k3", "3x3-misere", "3x5"};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        ttt_rules o = rules_of(others[i]);
        ttt_board b;
        ttt_board_init(&b, &o);
        ttt_move m;
        ttt_error err;
        memset(&err, 0, sizeof err);
        assert_int_equal(ttt_engine_choose(e, &b, &m, NULL, &err), TTT_ESTATE);
        assert_true(strlen(err.msg) > 0);
    }
    ttt_engine_free(e);
}

static void test_nodes_counter_increases(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_engine *e = engine_ok("random:seed=3", &r);
    ttt_board b;
    ttt_board_init(&b, &r);
    uint64_t before = ttt_engine_nodes(e);
    ttt_move m;
    ttt_search_info info;
    memset(&info, 0, sizeof info);
    assert_int_equal(ttt_engine_choose(e, &b, &m, &info, NULL), TTT_OK);
    uint64_t after_one = ttt_engine_nodes(e);
    assert_true(after_one > before);
    assert_true(info.ms >= 0.0);
    assert_true(info.depth >= 0);
    assert_true(info.nodes <= after_one - before);
    ttt_board_play(&b, m);
    assert_int_equal(ttt_engine_choose(e, &b, &m, NULL, NULL), TTT_OK);
    assert_true(ttt_engine_nodes(e) > after_one);
    ttt_engine_free(e);
}

/* A minimax engine kept for a new game searches as a fresh one does: the last game's table is forgotten (a
 * search that found it filled would spend fewer nodes). */
static void test_minimax_new_game_forgets_the_table(void **state)
{
    (void)state;
    ttt_rules r;
    assert_int_equal(ttt_rules_parse("7x7k5", &r, NULL), TTT_OK);
    ttt_board b;
    ttt_board_init(&b, &r);
    ttt_board_play(&b, 24);
    ttt_engine *fresh = engine_ok("minimax:depth=3,time=0,seed=1", &r);
    ttt_engine *kept = engine_ok("minimax:depth=3,time=0,seed=1", &r);
    ttt_move m;
    ttt_search_info once, again, after;
    memset(&once, 0, sizeof once);
    memset(&again, 0, sizeof again);
    memset(&after, 0, sizeof after);
    assert_int_equal(ttt_engine_choose(fresh, &b, &m, &once, NULL), TTT_OK);
    assert_int_equal(ttt_engine_choose(kept, &b, &m, &again, NULL), TTT_OK);
    assert_int_equal(again.nodes, once.nodes);
    ttt_engine_new_game(kept);
    assert_int_equal(ttt_engine_choose(kept, &b, &m, &after, NULL), TTT_OK);
    assert_int_equal(after.nodes, once.nodes);
    assert_int_equal(after.depth, once.depth);
    ttt_engine_free(fresh);
    ttt_engine_free(kept);
}

/* 9000 engines with different seeds, one decision each on the empty board: every cell gets chosen. */
static void test_random_engine_covers_every_cell(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_board b;
    ttt_board_init(&b, &r);
    int hits[9] = {0};
    for (int seed = 0; seed < 9000; seed++) {
        char spec[64];
        snprintf(spec, sizeof spec, "random:seed=%d", seed);
        ttt_engine *e = engine_ok(spec, &r);
        ttt_move m = TTT_NO_MOVE;
        assert_int_equal(ttt_engine_choose(e, &b, &m, NULL, NULL), TTT_OK);
        assert_in_range(m, 0, 8);
        hits[m]++;
        ttt_engine_free(e);
    }
    for (int cell = 0; cell < 9; cell++) {
        assert_true(hits[cell] > 0);
    }
}

/* The engine answers about the board it is given, not about a game it remembers. */
static void test_random_engine_follows_the_given_board(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_engine *e = engine_ok("random:seed=9", &r);
    ttt_board b;
    ttt_board_init(&b, &r);
    const int moves[] = {4, 0, 8, 2, 1, 7, 6, 3};
    for (int i = 0; i < 8; i++) {
        ttt_board_play(&b, moves[i]);
    }
    /* only c2 (cell 5) is left */
    for (int i = 0; i < 20; i++) {
        ttt_move m = TTT_NO_MOVE;
        assert_int_equal(ttt_engine_choose(e, &b, &m, NULL, NULL), TTT_OK);
        assert_int_equal(m, 5);
    }
    ttt_engine_free(e);
}

/* ttt_engine_spec_expand checks a spec without making the engine and writes its full spec whole, or says
 * it does not fit: a long path is never cut. */
static void test_spec_expand_never_truncates(void **state)
{
    (void)state;
    ttt_rules r = rules_of("3x3");
    char out[TTT_SPEC_TEXT_SIZE], spec[600];
    ttt_error err = {{0}};
    assert_int_equal(ttt_engine_spec_expand("easy", &r, out, sizeof out, &err), TTT_OK);
    assert_string_equal(out, "minimax:seed=0,time=100,nodes=0,depth=0,tt=64,blunder=50");
    /* No table is built or loaded: a file that does not exist is not even looked at. */
    assert_int_equal(ttt_engine_spec_expand("table:file=/nonexistent/t.json", &r, out, sizeof out, &err),
                     TTT_OK);
    assert_string_equal(out, "table:seed=0,file=/nonexistent/t.json");
    int n = snprintf(spec, sizeof spec, "learner:memory=/");
    while (n < 400)
        n += snprintf(spec + n, sizeof spec - (size_t)n, "dir/");
    snprintf(spec + n, sizeof spec - (size_t)n, "m.db");
    assert_int_equal(ttt_engine_spec_expand(spec, &r, out, sizeof out, &err), TTT_ELIMIT);
    assert_string_equal(out, "");
    assert_non_null(strstr(err.msg, "more than 255"));
    char big[TTT_SPEC_TEXT_SIZE * 3];
    assert_int_equal(ttt_engine_spec_expand(spec, &r, big, sizeof big, &err), TTT_OK);
    assert_non_null(strstr(big, spec + strlen("learner:")));
    assert_int_equal(ttt_engine_spec_expand("nosuch", &r, out, sizeof out, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "unknown engine"));
}

/* ttt_engine_set_time changes time= as the spec would, checks its range, and refuses engines without it. */
static void test_set_time(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_engine *e;
    ttt_error err;
    assert_int_equal(ttt_engine_new("mcts", &r, &e, &err), TTT_OK);
    assert_int_equal(ttt_engine_set_time(e, 25, &err), TTT_OK);
    char spec[TTT_SPEC_TEXT_SIZE];
    assert_non_null(strstr(ttt_engine_spec(e, spec, sizeof spec), "time=25"));
    assert_int_equal(ttt_engine_set_time(e, UINT64_C(1) << 62, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "time="));
    assert_non_null(strstr(ttt_engine_spec(e, spec, sizeof spec), "time=25"));
    ttt_engine_free(e);
    assert_int_equal(ttt_engine_new("random", &r, &e, &err), TTT_OK);
    assert_int_equal(ttt_engine_set_time(e, 25, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "no time= option"));
    ttt_engine_free(e);
}

/* A search with no limit at all (time=0, no nodes=, no depth=) never returns a move on a big board: gomoku
 * and minimax refuse it there, by spec and by ttt_engine_set_time (keeping the old time), and accept it on a
 * board they solve; engines whose time=0 means a count (mcts, montecarlo) accept it. */
static void test_unbounded_search_refused_on_big_boards(void **state)
{
    (void)state;
    ttt_rules big, small = ttt_rules_default();
    ttt_error err;
    assert_int_equal(ttt_rules_parse("15x15k5", &big, &err), TTT_OK);
    const char *refused[] = {"gomoku:time=0", "minimax:time=0", "gomoku:time=0,nodes=0,depth=0"};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        ttt_engine *e = NULL;
        assert_int_equal(ttt_engine_new(refused[i], &big, &e, &err), TTT_EINVAL);
        assert_null(e);
        assert_non_null(strstr(err.msg, "time=0"));
        assert_non_null(strstr(err.msg, "15x15k5"));
        assert_null(strchr(err.msg, '\n'));
    }
    const char *bounded[] = {"gomoku:time=0,nodes=10",    "gomoku:time=0,depth=1",
                             "minimax:time=0,nodes=10",   "minimax:time=0,depth=1",
                             "mcts:time=0,iterations=10", "montecarlo:time=0,trials=10"};
    ttt_board b;
    ttt_board_init(&b, &big);
    for (size_t i = 0; i < sizeof bounded / sizeof *bounded; i++) {
        ttt_engine *e;
        assert_int_equal(ttt_engine_new(bounded[i], &big, &e, &err), TTT_OK);
        ttt_move m;
        assert_int_equal(ttt_engine_choose(e, &b, &m, NULL, &err), TTT_OK);
        ttt_engine_free(e);
    }
    ttt_engine *e;
    assert_int_equal(ttt_engine_new("minimax:time=0", &small, &e, &err), TTT_OK);
    ttt_engine_free(e);
    assert_int_equal(ttt_engine_new("gomoku", &big, &e, &err), TTT_OK);
    assert_int_equal(ttt_engine_set_time(e, 0, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "time=0"));
    char spec[TTT_SPEC_TEXT_SIZE];
    assert_non_null(strstr(ttt_engine_spec(e, spec, sizeof spec), "time=1000"));
    ttt_engine_free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_lists_random),
        cmocka_unit_test(test_every_registered_engine_can_be_made),
        cmocka_unit_test(test_option_help_from_the_table),
        cmocka_unit_test(test_spec_bound_by_roles),
        cmocka_unit_test(test_count_and_time_both_limit),
        cmocka_unit_test(test_random_engine_from_spec),
        cmocka_unit_test(test_spec_unknown_engine),
        cmocka_unit_test(test_spec_unknown_option),
        cmocka_unit_test(test_spec_bad_value),
        cmocka_unit_test(test_spec_empty_value),
        cmocka_unit_test(test_spec_option_without_value),
        cmocka_unit_test(test_spec_duplicate_option),
        cmocka_unit_test(test_spec_empty),
        cmocka_unit_test(test_spec_round_trip),
        cmocka_unit_test(test_levels_are_aliases),
        cmocka_unit_test(test_spec_paths_and_options),
        cmocka_unit_test(test_random_engine_plays_legal_moves_to_the_end),
        cmocka_unit_test(test_random_engine_is_deterministic),
        cmocka_unit_test(test_random_engine_seeds_give_different_games),
        cmocka_unit_test(test_choose_on_finished_game_is_state_error),
        cmocka_unit_test(test_choose_with_other_rules_is_state_error),
        cmocka_unit_test(test_nodes_counter_increases),
        cmocka_unit_test(test_minimax_new_game_forgets_the_table),
        cmocka_unit_test(test_random_engine_covers_every_cell),
        cmocka_unit_test(test_random_engine_follows_the_given_board),
        cmocka_unit_test(test_spec_expand_never_truncates),
        cmocka_unit_test(test_set_time),
        cmocka_unit_test(test_unbounded_search_refused_on_big_boards),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
