/*
 * test_montecarlo.c - the flat Monte Carlo player finds the obvious moves, follows the rules (misère
 * included), is reproducible, and rejects bad options. The playouts underneath are checked against ttt_board
 * in test_playout.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ttt/ttt.h"

#include "support.h"

/* The seeds every "obvious move" position is tried with. */
#define SEEDS 100

/* The move of a freshly made engine, by name ("c1"). */
static void move_of(const char *spec, const ttt_board *b, char *name, ttt_search_info *info)
{
    ttt_engine *e = engine_ok(spec, &b->rules);
    ttt_move m;
    ttt_error err;
    assert_int_equal(ttt_engine_choose(e, b, &m, info, &err), TTT_OK);
    assert_true(ttt_board_is_legal(b, m));
    ttt_move_format(&b->rules, m, name, TTT_MOVE_TEXT_SIZE);
    ttt_engine_free(e);
}

/* --- Obvious moves at default settings ------------------------------------------------------------------ */

typedef struct fixture {
    const char *rules;
    const char *position; /* the side to move follows from the counts */
    const char *want;     /* the only good move */
} fixture;

/* Wins in one (the side to move completes a line) and single must-block cells (the opponent threatens to
 * complete a line on exactly one cell and the side to move cannot win first). */
static const fixture obvious[] = {
    /* 3x3 */
    {"3x3", "xx./oo./...", "c1"}, /* X wins (O's threat at c2 comes too late) */
    {"3x3", "xx./.o./...", "c1"}, /* O blocks the row */
    {"3x3", "x.o/.x./...", "c3"}, /* O blocks the diagonal */
    {"3x3", "o../.x./x..", "c1"}, /* O blocks the other diagonal */
    /* 4x4, k = 4 */
    {"4x4", "xxx./ooo./..../....", "d1"}, /* X wins */
    {"4x4", "xxx./oo../..../....", "d1"}, /* O blocks */
    {"4x4", "x..o/.x../..x./oo..", "d4"}, /* X wins on the diagonal */
    /* 5x5, k = 4 */
    {"5x5k4", ".o.../...../oxxx./...../o....", "e3"}, /* X wins */
    {"5x5k4", "o..../...../oxxx./...../....o", "e3"}, /* X wins */
    {"5x5k4", "o..../...../oxxx./...../.....", "e3"}, /* O blocks the row */
    {"5x5k4", "...../..o../oxxx./...../.....", "e3"}, /* O blocks the row */
    {"5x5k4", ".x.../.x.../.x.../...../o...o", "b4"}, /* O blocks the column */
    {"5x5k4", "x..../.x.../..x../...../o.o..", "d4"}, /* O blocks the diagonal */
    {"5x5k4", "x..../.x.../..x../...../oo...", "d4"}, /* O blocks the diagonal */
    {"5x5k4", "o..../...x./..x../.x.../o....", "e1"}, /* O blocks the anti-diagonal */
    {"5x5k4", "o..../...x./..x../.x.../o...o", "e1"}, /* X wins on the anti-diagonal */
    /* 5x5, k = 5 */
    {"5x5", "ooo../...../xxxx./...../....o", "e3"}, /* X wins */
    {"5x5", "oo.../...../xxxx./...../....o", "e3"}, /* O blocks */
    {"5x5", "x...o/.x.../..x../...x./oo...", "e5"}, /* O blocks the diagonal */
};

static void test_obvious_moves_every_seed(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof obvious / sizeof obvious[0]; i++) {
        ttt_rules r = rules_of(obvious[i].rules);
        ttt_board b = board_of(&r, obvious[i].position);
        for (int seed = 0; seed < SEEDS; seed++) {
            char spec[64], name[TTT_MOVE_TEXT_SIZE];
            snprintf(spec, sizeof spec, "montecarlo:seed=%d", seed);
            move_of(spec, &b, name, NULL);
            if (strcmp(name, obvious[i].want) != 0) {
                print_error("%s %s, %s: played %s, expected %s\n", obvious[i].rules, obvious[i].position,
                            spec, name, obvious[i].want);
                fail();
            }
        }
    }
}

/* --- Misère --------------------------------------------------------------------------------------------- */

/* The side to move can complete a line: under normal rules that is the only good move (the opponent threatens
 * to win next); under misère it loses at once, and other moves exist, so the engine never plays it. */
static void test_misere_avoids_completing_a_line(void **state)
{
    (void)state;
    const char *positions[][3] = {
        {"3x3", "xx./oo./...", "c1"},
        {"4x4", "xxx./ooo./..../....", "d1"},
        {"5x5", "ooo../...../xxxx./...../....o", "e3"},
    };
    for (size_t i = 0; i < sizeof positions / sizeof positions[0]; i++) {
        ttt_rules normal = rules_of(positions[i][0]), misere = normal;
        misere.misere = true;
        ttt_board bn = board_of(&normal, positions[i][1]), bm = board_of(&misere, positions[i][1]);
        for (int seed = 0; seed < SEEDS; seed++) {
            char spec[64], name[TTT_MOVE_TEXT_SIZE];
            snprintf(spec, sizeof spec, "montecarlo:seed=%d", seed);
            move_of(spec, &bn, name, NULL);
            assert_string_equal(name, positions[i][2]);
            move_of(spec, &bm, name, NULL);
            assert_string_not_equal(name, positions[i][2]);
        }
    }
}

/* --- Reproducibility and budgets ------------------------------------------------------------------------ */

static void test_same_seed_same_move(void **state)
{
    (void)state;
    ttt_rules r = rules_of("7x7k5");
    ttt_board start = board_of(&r, "......./......./......./...x.../...o.../......./.......");
    for (int seed = 0; seed < 5; seed++) {
        char spec[64], first[TTT_MOVE_TEXT_SIZE], again[TTT_MOVE_TEXT_SIZE];
        snprintf(spec, sizeof spec, "montecarlo:trials=500,seed=%d", seed);
        ttt_search_info a, c;
        move_of(spec, &start, first, &a);
        move_of(spec, &start, again, &c);
        assert_string_equal(first, again);
        /* One node per trial. */
        assert_int_equal(a.nodes, 500);
        assert_int_equal(c.nodes, 500);
    }
}

static void test_default_trials_count_as_nodes(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_engine *e = engine_ok("montecarlo", &r);
    char spec[TTT_SPEC_TEXT_SIZE];
    ttt_engine_spec(e, spec, sizeof spec);
    assert_string_equal(spec, "montecarlo:seed=0,trials=0,current=1,other=1,time=0"); /* 0: 3000 */
    ttt_board b;
    ttt_board_init(&b, &r);
    ttt_move m;
    ttt_search_info info;
    assert_int_equal(ttt_engine_choose(e, &b, &m, &info, NULL), TTT_OK);
    assert_int_equal(info.nodes, 3000);
    assert_int_equal(ttt_engine_nodes(e), 3000);
    ttt_engine_free(e);
}

/* With time=, trials run in whole batches until the time is up. */
static void test_time_budget(void **state)
{
    (void)state;
    ttt_rules r = rules_of("5x5k4");
    ttt_board b;
    ttt_board_init(&b, &r);
    char name[TTT_MOVE_TEXT_SIZE];
    ttt_search_info info;
    move_of("montecarlo:time=20", &b, name, &info);
    assert_true(info.nodes > 0);
    assert_true(info.ms >= 20);
}

/* --- Whole games on every kind of board ----------------------------------------------------------------- */

static void play_to_the_end(const char *rules_text, const char *spec)
{
    ttt_rules r = rules_of(rules_text);
    ttt_engine *x = engine_ok(spec, &r), *o = engine_ok(spec, &r);
    ttt_board b;
    ttt_board_init(&b, &r);
    while (!ttt_board_terminal(&b)) {
        ttt_move m;
        ttt_error err;
        assert_int_equal(ttt_engine_choose(b.ply % 2 ? o : x, &b, &m, NULL, &err), TTT_OK);
        assert_int_equal(ttt_board_play_checked(&b, m, &err), TTT_OK);
    }
    assert_true(ttt_board_outcome(&b) != TTT_ONGOING);
    ttt_engine_free(x);
    ttt_engine_free(o);
}

static void test_legal_games_every_board(void **state)
{
    (void)state;
    play_to_the_end("3x3", "montecarlo:seed=1");
    play_to_the_end("3x3-misere", "montecarlo:seed=2");
    play_to_the_end("4x4k3-misere", "montecarlo:trials=300,seed=3");
    play_to_the_end("7x6k4", "montecarlo:trials=200,seed=4");
    play_to_the_end("7x6k4-misere", "montecarlo:trials=200,seed=5");
    play_to_the_end("15x15k5", "montecarlo:trials=20,seed=6");
    play_to_the_end("16x16k8-misere", "montecarlo:trials=5,seed=7");
}

/* With both weights 0 every square scores 0 and the move is a uniformly random empty one: over many seeds
 * every cell comes up. */
static void test_zero_weights_play_at_random(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_board b;
    ttt_board_init(&b, &r);
    bool seen[TTT_MAX_CELLS] = {false};
    for (int seed = 0; seed < 200; seed++) {
        char spec[64];
        snprintf(spec, sizeof spec, "montecarlo:current=0,other=0,trials=10,seed=%d", seed);
        ttt_engine *e = engine_ok(spec, &r);
        ttt_move m;
        assert_int_equal(ttt_engine_choose(e, &b, &m, NULL, NULL), TTT_OK);
        seen[m] = true;
        ttt_engine_free(e);
    }
    for (int c = 0; c < 9; c++)
        assert_true(seen[c]);
}

/* --- Options -------------------------------------------------------------------------------------------- */

static void test_bad_options(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    const char *bad[][2] = {
        {"montecarlo:trials=-1", "trials=-1"},  {"montecarlo:current=abc", "current=abc"},
        {"montecarlo:other=-1", "other=-1"},    {"montecarlo:trials=1.5", "trials=1.5"},
        {"montecarlo:time=x", "time=x"},        {"montecarlo:depth=3", "unknown option 'depth'"},
        {"montecarlo:current=nan", "current="},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ttt_engine *e;
        ttt_error err;
        assert_int_equal(ttt_engine_new(bad[i][0], &r, &e, &err), TTT_EINVAL);
        assert_null(e);
        assert_non_null(strstr(err.msg, "montecarlo"));
        if (!strstr(err.msg, bad[i][1])) {
            print_error("'%s': message \"%s\" does not name \"%s\"\n", bad[i][0], err.msg, bad[i][1]);
            fail();
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_obvious_moves_every_seed),
        cmocka_unit_test(test_misere_avoids_completing_a_line),
        cmocka_unit_test(test_same_seed_same_move),
        cmocka_unit_test(test_default_trials_count_as_nodes),
        cmocka_unit_test(test_time_budget),
        cmocka_unit_test(test_legal_games_every_board),
        cmocka_unit_test(test_zero_weights_play_at_random),
        cmocka_unit_test(test_bad_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
