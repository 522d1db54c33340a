/* Unit tests for the analysis-board routes of web/api.h without HTTP: the engine's move with the explanation
 * of that very decision, POST /api/review (verdicts per ply), POST /api/trace (an engine's decision step by
 * step), and their refusals. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttt/ttt.h"
#include "support.h"
#include "web/api.h"

/* --- Helpers -------------------------------------------------------------------------------------------- */

static web_api *api_make(void)
{
    web_api_config config = {.max_games = 8, .idle_expiry_s = WEB_IDLE_EXPIRY_S_DEFAULT};
    web_api *api = web_api_new(&config);
    assert_non_null(api);
    return api;
}

/* Sends method path body and expects status; returns the parsed answer (the caller decrefs). */
static json_t *request(web_api *api, int status, const char *method, const char *path, const char *body)
{
    char *text;
    const char *allow;
    int got = web_api_handle(api, method, path, body, body ? strlen(body) : 0, &text, &allow);
    json_t *o = json_loads(text, 0, NULL);
    if (got != status || !o) {
        print_error("%s %s %s: status %d, expected %d: %s\n", method, path, body ? body : "", got, status,
                    text);
        fail();
    }
    free(text);
    return o;
}

/* The one-line error of a refused request, checked to contain want. */
static void refused(web_api *api, int status, const char *path, const char *body, const char *want)
{
    json_t *o = request(api, status, "POST", path, body);
    const char *msg = json_string_value(json_object_get(o, "error"));
    assert_non_null(msg);
    assert_null(strchr(msg, '\n'));
    if (!strstr(msg, want)) {
        print_error("%s %s: error '%s' does not say '%s'\n", path, body, msg, want);
        fail();
    }
    json_decref(o);
}

static const char *text_of(json_t *o, const char *key) { return json_string_value(json_object_get(o, key)); }

/* --- The engine's move explained ------------------------------------------------------------------------ */

/* A watched 7x7k5 game, mcts against montecarlo: every engine answer carries the explanation of the decision
 * that produced its move (choice == move) and the ply it was played at. */
static void test_engine_move_carries_its_explanation(void **state)
{
    (void)state;
    web_api *api = api_make();
    json_t *g = request(api, 201, "POST", "/api/games",
                        "{\"rules\": \"7x7k5\", \"x\": \"mcts:iterations=300,seed=1\", "
                        "\"o\": \"montecarlo:trials=200,seed=2\"}");
    char path[64];
    snprintf(path, sizeof path, "/api/games/%s/engine", text_of(g, "id"));
    json_decref(g);
    int ply = 0;
    for (;; ply++) {
        json_t *o = request(api, 200, "POST", path, NULL);
        json_t *said = json_object_get(o, "engine");
        json_t *why = json_object_get(said, "explanation");
        assert_true(json_is_object(why));
        assert_string_equal(text_of(why, "choice"), text_of(said, "move"));
        assert_int_equal(json_integer_value(json_object_get(said, "ply")), ply);
        assert_true(json_integer_value(json_object_get(why, "nodes")) ==
                    json_integer_value(json_object_get(said, "nodes")));
        assert_non_null(strstr(text_of(why, "method"), ply % 2 ? "Monte Carlo:" : "tree search"));
        bool over =
            json_is_string(json_object_get(o, "outcome")) && strcmp(text_of(o, "outcome"), "ongoing") != 0;
        json_decref(o);
        if (over)
            break;
        assert_true(ply < 49);
    }
    assert_true(ply >= 8); /* five in a row takes at least nine moves */
    web_api_free(api);
}

/* {"explain": false} skips the explanation; an engine that cannot explain answers null; bad values are
 * refused. */
static void test_engine_move_explain_field(void **state)
{
    (void)state;
    web_api *api = api_make();
    json_t *g = request(api, 201, "POST", "/api/games", "{\"rules\": \"7x7k5\", \"x\": \"random\"}");
    char path[64];
    snprintf(path, sizeof path, "/api/games/%s/engine", text_of(g, "id"));
    json_decref(g);
    json_t *o = request(api, 200, "POST", path, "{\"explain\": false}");
    assert_null(json_object_get(json_object_get(o, "engine"), "explanation"));
    assert_int_equal(json_integer_value(json_object_get(json_object_get(o, "engine"), "ply")), 0);
    json_decref(o);
    o = request(api, 200, "POST", path, "{\"engine\": \"gomoku:nodes=500\"}");
    json_t *why = json_object_get(json_object_get(o, "engine"), "explanation");
    assert_true(why && json_is_null(why));
    json_decref(o);
    refused(api, 400, path, "{\"explain\": 1}", "field 'explain' must be true or false");
    web_api_free(api);
}

/* --- Review --------------------------------------------------------------------------------------------- */

/* The exact value of the position after the first n moves of game, for its side to move. */
static void solver_value(const ttt_rules *r, const ttt_move *game, int n, int *result, int *plies)
{
    ttt_board b;
    assert_int_equal(ttt_moves_replay(r, game, n, &b, NULL), TTT_OK);
    ttt_solver *solver;
    assert_int_equal(ttt_solver_new(r, 1, &solver, NULL), TTT_OK);
    ttt_result v;
    assert_int_equal(ttt_solver_value(solver, &b, &v, plies, NULL, NULL), TTT_OK);
    *result = (int)v;
    ttt_solver_free(solver);
}

/* A 3x3 game in which O gives up the draw (b1) and X then throws the win away (c1 instead of c3's
 * fork-free win): every ply's values are the solver's, the verdicts follow from them. */
static void test_review_verdicts_on_3x3(void **state)
{
    (void)state;
    static const char *const game[] = {"b2", "b1", "a1", "c3", "c1", "a3", "b3", "a2", "c2"};
    enum { N = sizeof game / sizeof game[0] };
    ttt_rules r = rules_of("3x3");
    ttt_move moves[N];
    for (int i = 0; i < N; i++)
        assert_int_equal(ttt_move_parse(game[i], &r, &moves[i], NULL), TTT_OK);
    web_api *api = api_make();
    json_t *o =
        request(api, 200, "POST", "/api/review",
                "{\"rules\": \"3x3\", \"moves\": [\"b2\", \"b1\", \"a1\", \"c3\", \"c1\", \"a3\", \"b3\", "
                "\"a2\", \"c2\"]}");
    json_t *plies = json_object_get(o, "plies");
    assert_int_equal(json_array_size(plies), N);
    assert_int_equal(json_integer_value(json_object_get(o, "solved")), N);
    static const char *const verdicts[N] = {"best", "lost the draw", "best", "best", "threw away a win",
                                            "best", "best",          "best", "best"};
    for (int i = 0; i < N; i++) {
        json_t *p = json_array_get(plies, (size_t)i);
        json_t *before = json_object_get(p, "before"), *after = json_object_get(p, "after");
        assert_int_equal(json_integer_value(json_object_get(p, "ply")), i);
        assert_string_equal(text_of(p, "move"), game[i]);
        assert_string_equal(text_of(p, "side"), i % 2 ? "o" : "x");
        assert_string_equal(text_of(before, "kind"), "exact");
        assert_string_equal(text_of(after, "kind"), "exact");
        assert_true(json_is_true(json_object_get(p, "exact")));
        int result, distance;
        solver_value(&r, moves, i, &result, &distance);
        assert_int_equal(json_integer_value(json_object_get(before, "result")), result);
        assert_int_equal(json_integer_value(json_object_get(before, "plies")), distance);
        if (i + 1 < N) { /* after the move: the next position's value turned round, one ply longer */
            solver_value(&r, moves, i + 1, &result, &distance);
            assert_int_equal(json_integer_value(json_object_get(after, "result")), -result);
            assert_int_equal(json_integer_value(json_object_get(after, "plies")), distance + 1);
        }
        assert_string_equal(text_of(p, "verdict"), verdicts[i]);
        double x = json_number_value(json_object_get(p, "value_x"));
        int after_result = (int)json_integer_value(json_object_get(after, "result"));
        assert_true(x == (i % 2 ? -after_result : after_result));
    }
    json_decref(o);
    web_api_free(api);
}

/* Beyond the solver's reach the values are the engine's estimates, marked as such, with no verdict. The
 * budget is the most a review may have, so that even a slow machine leaves the estimates hundreds of ms. */
static void test_review_estimates_beyond_the_solver(void **state)
{
    (void)state;
    web_api *api = api_make();
    char body[128];
    snprintf(body, sizeof body, "{\"rules\": \"15x15k5\", \"moves\": \"h8\", \"ms\": %d}", WEB_MAX_ENGINE_MS);
    json_t *o = request(api, 200, "POST", "/api/review", body);
    json_t *p = json_array_get(json_object_get(o, "plies"), 0);
    assert_int_equal(json_array_size(json_object_get(o, "plies")), 1);
    json_t *values[2] = {json_object_get(p, "before"), json_object_get(p, "after")};
    for (int i = 0; i < 2; i++) {
        assert_string_equal(text_of(values[i], "kind"), "estimate");
        double score = json_number_value(json_object_get(values[i], "score"));
        double spread = json_number_value(json_object_get(values[i], "spread"));
        assert_true(score >= -1 && score <= 1 && spread >= 0 && spread <= 1);
        assert_string_equal(text_of(values[i], "by"), "mcts");
    }
    assert_true(json_is_null(json_object_get(p, "verdict")));
    assert_true(json_is_false(json_object_get(p, "exact")));
    assert_true(json_number_value(json_object_get(p, "value_x")) ==
                json_number_value(json_object_get(values[1], "score")));
    assert_int_equal(json_integer_value(json_object_get(o, "solved")), 0);
    json_decref(o);
    web_api_free(api);
}

static void test_review_refuses_bad_fields(void **state)
{
    (void)state;
    web_api *api = api_make();
    refused(api, 400, "/api/review", "{\"rules\": \"3x3\", \"ms\": 0}", "field 'ms' must be from 1 to");
    refused(api, 400, "/api/review", "{\"rules\": \"3x3\", \"ms\": \"fast\"}",
            "field 'ms' must be an integer");
    refused(api, 400, "/api/review", "{\"rules\": \"3x3\", \"moves\": [1]}", "move 1 must be a string");
    refused(api, 400, "/api/review", "{\"rules\": \"3x3\", \"moves\": {}}", "field 'moves' must be an array");
    refused(api, 422, "/api/review", "{\"rules\": \"3x3\", \"moves\": [\"b2\", \"b2\"]}", "move 2: cell b2");
    refused(api, 422, "/api/review", "{\"rules\": \"3x3\", \"moves\": [\"z9\"]}", "column z is off");
    refused(api, 409, "/api/review", "{\"rules\": \"3x3\", \"moves\": \"a1 b1 a2 b2 a3 c3\"}",
            "game is over (x) before move 6");
    refused(api, 422, "/api/review", "{\"rules\": \"30x3\"}", "too big");
    refused(api, 400, "/api/review", "{\"rules\": \"3x3\", \"engine\": \"mcts\"}", "unknown field 'engine'");
    json_decref(request(api, 405, "GET", "/api/review", NULL));
    assert_true(web_api_needs_engine("POST", "/api/review"));
    web_api_free(api);
}

/* --- Trace ---------------------------------------------------------------------------------------------- */

/* What every trace answer holds: the engine's choice, the explanation of that decision, a sentence. */
static json_t *trace_of(web_api *api, const char *body, const char *kind)
{
    json_t *o = request(api, 200, "POST", "/api/trace", body);
    assert_string_equal(text_of(o, "kind"), kind);
    assert_true(strlen(text_of(o, "sentence")) > 40);
    json_t *why = json_object_get(o, "explanation");
    assert_true(json_is_object(why));
    assert_string_equal(text_of(why, "choice"), text_of(o, "choice"));
    assert_true(json_is_boolean(json_object_get(o, "truncated")));
    return o;
}

/* The explanation layer called name: the value shown on move, or -1e9 when none. */
static double layer_value(json_t *o, const char *name, const char *move)
{
    json_t *layers = json_object_get(json_object_get(o, "explanation"), "layers"), *l, *c;
    size_t i, j;
    json_array_foreach(layers, i, l)
    {
        if (strcmp(text_of(l, "name"), name) != 0)
            continue;
        json_array_foreach(json_object_get(l, "cells"), j, c)
        {
            if (strcmp(text_of(c, "move"), move) == 0)
                return json_number_value(json_object_get(c, "value"));
        }
    }
    return -1e9;
}

/* minimax: the tree around the root, every root move with its value and its replies, some pruned (with no
 * value); the moves the engine drew among are the root moves of the best value. */
static void test_trace_minimax_tree(void **state)
{
    (void)state;
    web_api *api = api_make();
    json_t *o = trace_of(api, "{\"rules\": \"3x3\", \"moves\": [\"b2\"], \"engine\": \"minimax\"}", "tree");
    json_t *tree = json_object_get(o, "tree");
    assert_true(json_is_null(json_object_get(tree, "move")));
    json_int_t best = json_integer_value(json_object_get(tree, "value"));
    assert_int_equal(best, 0); /* 3x3 is a draw */
    json_t *children = json_object_get(tree, "children"), *ch, *g;
    assert_int_equal(json_array_size(children), 8);
    size_t i, j;
    int pruned = 0, replies = 0;
    json_array_foreach(children, i, ch)
    {
        json_int_t v = json_integer_value(json_object_get(ch, "value"));
        assert_true(v <= best);
        double chance = layer_value(o, "chance", text_of(ch, "move"));
        assert_true((chance > 0) == (v == best && json_is_true(json_object_get(ch, "exact"))));
        json_array_foreach(json_object_get(ch, "children"), j, g)
        {
            replies++;
            if (json_is_true(json_object_get(g, "pruned"))) {
                pruned++;
                assert_null(json_object_get(g, "value"));
            } else {
                assert_true(json_is_integer(json_object_get(g, "value")));
            }
        }
    }
    assert_true(replies > 0 && pruned > 0);
    json_decref(o);
    web_api_free(api);
}

/* mcts: iteration by iteration, the root's visits growing by one each time, up to the explanation's. */
static void test_trace_mcts_iterations(void **state)
{
    (void)state;
    web_api *api = api_make();
    json_t *o =
        trace_of(api,
                 "{\"rules\": \"3x3\", \"moves\": \"b2\", \"engine\": \"mcts:iterations=100,seed=3\", "
                 "\"limit\": 100}",
                 "iterations");
    json_t *its = json_object_get(o, "iterations"), *it, *v;
    assert_int_equal(json_array_size(its), 100);
    assert_true(json_is_false(json_object_get(o, "truncated")));
    size_t i, j;
    json_array_foreach(its, i, it)
    {
        double total = 0;
        json_array_foreach(json_object_get(it, "visits"), j, v)
        {
            total += json_number_value(json_object_get(v, "visits"));
            assert_true(json_number_value(json_object_get(v, "wins")) <=
                        json_number_value(json_object_get(v, "visits")));
        }
        assert_true(total == (double)(i + 1));
        assert_true(json_array_size(json_object_get(it, "path")) >= 1);
        const char *result = text_of(it, "result");
        assert_true(strcmp(result, "x") == 0 || strcmp(result, "o") == 0 || strcmp(result, "draw") == 0);
        json_t *playout = json_object_get(it, "playout");
        assert_true(json_is_true(json_object_get(it, "proven")) ? json_is_null(playout)
                                                                : json_is_object(playout));
    }
    /* the last iteration's visits are the explanation's */
    json_array_foreach(json_object_get(json_array_get(its, 99), "visits"), j, v) assert_true(
        layer_value(o, "visits", text_of(v, "move")) == json_number_value(json_object_get(v, "visits")));
    json_decref(o);
    o = trace_of(api, "{\"rules\": \"3x3\", \"engine\": \"mcts:iterations=100\", \"limit\": 10}",
                 "iterations");
    assert_int_equal(json_array_size(json_object_get(o, "iterations")), 10);
    assert_true(json_is_true(json_object_get(o, "truncated")));
    json_decref(o);
    web_api_free(api);
}

/* montecarlo: playout by playout, the score grid after each; the last grid is the explanation's. */
static void test_trace_montecarlo_playouts(void **state)
{
    (void)state;
    web_api *api = api_make();
    json_t *o = trace_of(api,
                         "{\"rules\": \"3x3\", \"position\": \"x../.o./...\", "
                         "\"engine\": \"montecarlo:trials=50,seed=2\", \"limit\": 50}",
                         "playouts");
    json_t *ps = json_object_get(o, "playouts"), *p, *sc;
    assert_int_equal(json_array_size(ps), 50);
    size_t i, j;
    json_array_foreach(ps, i, p)
    {
        assert_int_equal(json_integer_value(json_object_get(p, "trials")), (json_int_t)i + 1);
        assert_int_equal(json_array_size(json_object_get(p, "scores")), 7);
        json_t *moves = json_object_get(p, "moves");
        size_t filled =
            json_array_size(json_object_get(moves, "x")) + json_array_size(json_object_get(moves, "o"));
        assert_true(filled >= 3 && filled <= 7); /* a game from here lasts 3 to 7 more moves */
    }
    json_array_foreach(json_object_get(json_array_get(ps, 49), "scores"), j, sc) assert_true(
        layer_value(o, "score grid", text_of(sc, "move")) == json_number_value(json_object_get(sc, "score")));
    json_decref(o);
    web_api_free(api);
}

/* heuristic: the rules in the order tried, the last one fired with the move played. */
static void test_trace_heuristic_rules(void **state)
{
    (void)state;
    web_api *api = api_make();
    json_t *o = trace_of(
        api, "{\"rules\": \"3x3\", \"moves\": [\"b2\", \"a1\", \"c3\"], \"engine\": \"heuristic:guard=1\"}",
        "rules");
    json_t *rules = json_object_get(o, "rules");
    assert_int_equal(json_array_size(rules), 3);
    for (size_t i = 0; i < 3; i++)
        assert_true(json_is_boolean(json_object_get(json_array_get(rules, i), "fired")) &&
                    json_is_true(json_object_get(json_array_get(rules, i), "fired")) == (i == 2));
    assert_string_equal(
        json_string_value(json_array_get(json_object_get(json_array_get(rules, 2), "moves"), 0)),
        text_of(o, "choice"));
    json_decref(o);
    o = trace_of(api, "{\"rules\": \"3x3\", \"engine\": \"heuristic\"}", "rules");
    assert_true(json_is_true(json_object_get(json_array_get(json_object_get(o, "rules"), 0), "fired")));
    assert_string_equal(text_of(o, "choice"), "b2");
    json_decref(o);
    o = trace_of(api, "{\"rules\": \"3x3\", \"engine\": \"random:seed=4\"}", "none");
    json_decref(o);
    web_api_free(api);
}

static void test_trace_refuses_bad_fields(void **state)
{
    (void)state;
    web_api *api = api_make();
    refused(api, 400, "/api/trace", "{\"rules\": \"6x6\", \"engine\": \"minimax\"}",
            "step-through is for boards of at most 25 cells");
    refused(api, 400, "/api/trace", "{\"rules\": \"3x3\"}", "field 'engine' is required");
    refused(api, 400, "/api/trace", "{\"rules\": \"3x3\", \"engine\": \"mcts\", \"limit\": 0}",
            "field 'limit' must be from 1 to");
    refused(api, 400, "/api/trace", "{\"rules\": \"3x3\", \"engine\": \"mcts\", \"ms\": 99999}",
            "field 'ms' must be from 1 to");
    refused(api, 400, "/api/trace", "{\"rules\": \"3x3\", \"engine\": 3}", "field 'engine' must be a string");
    refused(api, 400, "/api/trace",
            "{\"rules\": \"3x3\", \"engine\": \"mcts\", \"position\": \"x../.../...\", "
            "\"moves\": [\"a1\"]}",
            "give 'position' or 'moves', not both");
    refused(api, 422, "/api/trace",
            "{\"rules\": \"3x3\", \"engine\": \"mcts\", \"position\": \"xxx/q../...\"}", "position");
    refused(api, 409, "/api/trace",
            "{\"rules\": \"3x3\", \"engine\": \"mcts\", \"moves\": \"a1 b1 a2 b2 a3\"}", "game is over");
    refused(api, 422, "/api/trace", "{\"rules\": \"3x3\", \"engine\": \"nosuch\"}", "unknown engine");
    refused(api, 400, "/api/trace", "{\"rules\": \"3x3\", \"engine\": \"mcts\", \"depth\": 2}",
            "unknown field 'depth'");
    assert_true(web_api_needs_engine("POST", "/api/trace"));
    web_api_free(api);
}

/* --- Tests ---------------------------------------------------------------------------------------------- */

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_move_carries_its_explanation),
        cmocka_unit_test(test_engine_move_explain_field),
        cmocka_unit_test(test_review_verdicts_on_3x3),
        cmocka_unit_test(test_review_estimates_beyond_the_solver),
        cmocka_unit_test(test_review_refuses_bad_fields),
        cmocka_unit_test(test_trace_minimax_tree),
        cmocka_unit_test(test_trace_mcts_iterations),
        cmocka_unit_test(test_trace_montecarlo_playouts),
        cmocka_unit_test(test_trace_heuristic_rules),
        cmocka_unit_test(test_trace_refuses_bad_fields),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
