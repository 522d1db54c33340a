/* Unit tests for ttt_engine_explain (ttt/engine.h): every engine explains a position in its own terms. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttt/ttt.h"
#include "support.h"

/* --- Helpers -------------------------------------------------------------------------------------------- */

/* Checks what every explanation keeps: a method, a legal choice, layers (none when a rule decided alone,
 * as the heuristic's centre) only on empty cells (lo <= value <=
 * hi), facts and lines named, lines of legal length. */
static void assert_well_formed(const ttt_board *b, const ttt_explanation *x)
{
    assert_non_null(x->method);
    assert_true(x->choice != TTT_NO_MOVE);
    assert_true(ttt_board_is_legal(b, x->choice));
    assert_true(x->layer_count >= 0 && x->layer_count <= TTT_EXPLAIN_MAX_LAYERS);
    for (int i = 0; i < x->layer_count; i++) {
        const ttt_explain_layer *l = &x->layers[i];
        assert_non_null(l->name);
        assert_non_null(l->scale);
        assert_true(l->lo < l->hi);
        for (int c = 0; c < TTT_MAX_CELLS; c++) {
            if (!l->shown[c])
                continue;
            assert_true(c < b->cells && ttt_board_is_legal(b, (ttt_move)c));
            assert_true(l->value[c] >= l->lo && l->value[c] <= l->hi);
        }
    }
    for (int i = 0; i < x->fact_count; i++)
        assert_non_null(x->facts[i].name);
    for (int i = 0; i < x->line_count; i++) {
        assert_non_null(x->lines[i].label);
        assert_true(x->lines[i].length >= 0 && x->lines[i].length <= b->cells);
    }
}

/* The explanation of spec on the position text (moves or a position) under rules; env may be NULL. */
static ttt_explanation *explain(const char *spec, const char *rules_text, const char *position,
                                const ttt_engine_env *env, ttt_board *b)
{
    ttt_rules r = rules_of(rules_text);
    *b = board_of(&r, position);
    ttt_engine *e = NULL;
    ttt_error err = {{0}};
    if (ttt_engine_new_in(spec, &r, env, &e, &err) != TTT_OK) {
        print_error("engine '%s': %s\n", spec, err.msg);
        fail();
    }
    ttt_explanation *x = malloc(sizeof *x);
    assert_non_null(x);
    if (ttt_engine_explain(e, b, x, &err) != TTT_OK) {
        print_error("explain '%s': %s\n", spec, err.msg);
        fail();
    }
    assert_true(x->info.nodes > 0);
    ttt_engine_free(e);
    assert_well_formed(b, x);
    return x;
}

static const ttt_explain_layer *layer(const ttt_explanation *x, const char *name)
{
    for (int i = 0; i < x->layer_count; i++)
        if (strcmp(x->layers[i].name, name) == 0)
            return &x->layers[i];
    print_error("no layer '%s' (method %s)\n", name, x->method);
    fail();
    return NULL;
}

static double fact(const ttt_explanation *x, const char *name)
{
    for (int i = 0; i < x->fact_count; i++)
        if (strcmp(x->facts[i].name, name) == 0)
            return x->facts[i].value;
    print_error("no fact '%s' (method %s)\n", name, x->method);
    fail();
    return 0;
}

static int shown(const ttt_explain_layer *l)
{
    int n = 0;
    for (int c = 0; c < TTT_MAX_CELLS; c++)
        n += l->shown[c];
    return n;
}

/* --- Engines -------------------------------------------------------------------------------------------- */

/* minimax: on 3x3 every move's proven value and distance; on 7x7 k=5 within a small budget, heuristic
 * scores at the depth reached. */
static void test_minimax_values(void **state)
{
    (void)state;
    ttt_board b;
    ttt_explanation *x = explain("minimax", "3x3", "b2 a2", NULL, &b);
    const ttt_explain_layer *value = layer(x, "value"), *distance = layer(x, "distance");
    assert_int_equal(shown(value), 7);
    assert_int_equal(shown(distance), 7);
    /* After b2 a2 (an edge reply) X wins: the choice is a proven win, and so its value is +1. */
    assert_true(value->value[x->choice] == 1.0);
    free(x);
    /* 7x7 k=5 with a small budget: heuristic scores at the depth reached, no proven values. */
    x = explain("minimax:time=0,nodes=20000", "7x7k5", "d4", NULL, &b);
    const ttt_explain_layer *h = layer(x, "heuristic score");
    assert_true(shown(h) > 0 && h->lo < h->hi);
    assert_true(fact(x, "depth reached") >= 1);
    free(x);
}

static void test_montecarlo_grid(void **state)
{
    (void)state;
    ttt_board b;
    ttt_explanation *x = explain("montecarlo:trials=500,seed=4", "3x3", "b2", NULL, &b);
    const ttt_explain_layer *grid = layer(x, "score grid");
    assert_int_equal(shown(grid), 8);
    assert_true(fact(x, "trials") == 500);
    /* the choice is a square of the highest total */
    for (int c = 0; c < b.cells; c++)
        if (grid->shown[c])
            assert_true(grid->value[c] <= grid->value[x->choice]);
    free(x);
}

static void test_mcts_tree(void **state)
{
    (void)state;
    ttt_board b;
    ttt_explanation *x = explain("mcts:iterations=2000,seed=1", "3x3", "b2", NULL, &b);
    const ttt_explain_layer *visits = layer(x, "visits"), *rate = layer(x, "win rate");
    assert_int_equal(shown(visits), 8);
    assert_true(rate->percent && rate->lo == 0 && rate->hi == 1);
    assert_true(fact(x, "iterations") > 0);
    assert_true(x->line_count >= 1 && strcmp(x->lines[0].label, "principal variation") == 0);
    assert_true(x->lines[0].length >= 1 && x->lines[0].moves[0] == x->choice);
    free(x);
    /* 15x15 k=5 with two stones: the tree has children only near the stones, and only they are shown. */
    x = explain("mcts:iterations=300,seed=1", "15x15k5", "h8 g7", NULL, &b);
    visits = layer(x, "visits");
    assert_true(shown(visits) > 0 && shown(visits) < b.cells - b.ply);
    free(x);
}

static void test_heuristic_tables(void **state)
{
    (void)state;
    ttt_board b;
    ttt_explanation *x = explain("heuristic", "3x3", "", NULL, &b);
    assert_non_null(x->step);
    assert_non_null(strstr(x->step, "centre"));
    assert_int_equal(x->layer_count, 0);
    free(x);
    /* X b2, O a1, X c1: O's steps 2-4 (O has a stone, the centre is taken). */
    x = explain("heuristic", "3x3", "b2 a1 c1", NULL, &b);
    assert_non_null(strstr(x->step, "steps 2-4"));
    const ttt_explain_layer *freq = layer(x, "frequency"), *weight = layer(x, "line weight");
    assert_true(shown(freq) >= 1 && freq->shown[x->choice]);
    for (int c = 0; c < b.cells; c++)
        if (freq->shown[c])
            assert_true(freq->value[c] <= freq->value[x->choice]);
    assert_true(shown(weight) == 6);
    assert_true(fact(x, "weight of an opponent stone") == -3);
    assert_true(fact(x, "lines kept") >= 1);
    assert_true(x->line_count >= 1 && x->lines[0].length == 3 && strcmp(x->lines[0].note, "weight") == 0);
    free(x);
}

static void test_table_averages(void **state)
{
    (void)state;
    ttt_rules r = rules_of("3x3");
    ttt_table_build_options opt = {.games = 2000, .seed = 3, .jobs = 1};
    ttt_table *t = NULL;
    assert_int_equal(ttt_table_build(&r, &opt, &t, NULL), TTT_OK);
    ttt_engine_env env = {.table = t, .no_files = true};
    ttt_board b;
    ttt_explanation *x = explain("table", "3x3", "b2", &env, &b);
    const ttt_explain_layer *avg = layer(x, "average score"), *games = layer(x, "games");
    assert_int_equal(shown(avg), 8);
    assert_int_equal(shown(games), 8);
    for (int c = 0; c < b.cells; c++)
        if (avg->shown[c])
            assert_true(avg->value[c] <= avg->value[x->choice]);
    assert_true(fact(x, "games that fed the table") == 2000);
    assert_true(fact(x, "moves scored in this position") > 0);
    free(x);
    ttt_table_free(t);
}

static void test_learner_sequences(void **state)
{
    (void)state;
    ttt_rules r = rules_of("3x3");
    ttt_engine_env env = {.no_files = true};
    ttt_engine *e = NULL;
    assert_int_equal(ttt_engine_new_in("learner", &r, &env, &e, NULL), TTT_OK);
    ttt_explanation *x = malloc(sizeof *x);
    assert_non_null(x);
    /* An empty memory: step 6, random. */
    ttt_board b = board_of(&r, "");
    assert_int_equal(ttt_engine_explain(e, &b, x, NULL), TTT_OK);
    assert_well_formed(&b, x);
    assert_string_equal(x->step, "6. random");
    assert_true(fact(x, "games in memory") == 0);
    /* One game learned, X won with a1 b1 a2 b2 a3: from the empty board a1 continues a won game. */
    ttt_move seq[TTT_MAX_CELLS];
    int n;
    assert_int_equal(ttt_moves_parse("a1 b1 a2 b2 a3", &r, seq, TTT_MAX_CELLS, &n, NULL), TTT_OK);
    assert_int_equal(ttt_engine_game_over(e, seq, n, TTT_X_WINS, NULL), TTT_OK);
    ttt_engine_new_game(e);
    assert_int_equal(ttt_engine_explain(e, &b, x, NULL), TTT_OK);
    assert_well_formed(&b, x);
    assert_true(strncmp(x->step, "3. pursue a win", strlen("3. pursue a win")) == 0);
    assert_true(fact(x, "games in memory") == 1);
    assert_true(layer(x, "games won")->shown[x->choice] && layer(x, "games won")->value[x->choice] == 1);
    assert_true(x->line_count >= 1 && x->lines[0].count == 1 && strcmp(x->lines[0].note, "games") == 0);
    /* Block: X threatens a1 a2 (a3 open), O to move. */
    ttt_engine_new_game(e);
    b = board_of(&r, "a1 c3 a2");
    ttt_engine_follow(e, seq, 0);
    assert_int_equal(ttt_engine_explain(e, &b, x, NULL), TTT_OK);
    assert_string_equal(x->step, "2. block the opponent's line");
    free(x);
    ttt_engine_free(e);
}

static void test_random_chance(void **state)
{
    (void)state;
    ttt_board b;
    ttt_explanation *x = explain("random:seed=5", "3x3", "b2 a1", NULL, &b);
    const ttt_explain_layer *chance = layer(x, "chance");
    assert_int_equal(shown(chance), 7);
    assert_true(chance->value[x->choice] > 0.14 && chance->value[x->choice] < 0.15);
    free(x);
}

/* A finished game or other rules are refused. */
static void test_refusals(void **state)
{
    (void)state;
    ttt_rules r = rules_of("3x3"), other = rules_of("4x4");
    ttt_engine *e = engine_ok("random", &r);
    ttt_explanation *x = malloc(sizeof *x);
    ttt_board over = board_of(&r, "a1 b1 a2 b2 a3"), b4 = board_of(&other, "");
    ttt_error err = {{0}};
    assert_int_equal(ttt_engine_explain(e, &over, x, &err), TTT_ESTATE);
    assert_int_equal(ttt_engine_explain(e, &b4, x, &err), TTT_ESTATE);
    assert_true(ttt_engine_can_explain(e));
    free(x);
    ttt_engine_free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_minimax_values), cmocka_unit_test(test_montecarlo_grid),
        cmocka_unit_test(test_mcts_tree),      cmocka_unit_test(test_heuristic_tables),
        cmocka_unit_test(test_table_averages), cmocka_unit_test(test_learner_sequences),
        cmocka_unit_test(test_random_chance),  cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
