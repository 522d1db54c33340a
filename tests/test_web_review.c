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

/* Beyond the solver's reach the values are the engine's estimates, marked as such, with no verdict. */
static void test_review_estimates_beyond_the_solver(void **state)
{
    (void)state;
    web_api *api = api_make();
    json_t *o = request(api, 200, "POST", "/api/review",
                        "{\"rules\": \"15x15k5\", \"moves\": \"h8 g7 h9\", \"ms\": 200}");
    json_t *plies = json_object_get(o, "plies");
    assert_int_equal(json_array_size(plies), 3);
    int estimates = 0;
    for (size_t i = 0; i < 3; i++) {
        json_t *p = json_array_get(plies, i);
        json_t *before = json_object_get(p, "before");
        if (json_is_object(before) && strcmp(text_of(before, "kind"), "estimate") == 0) {
            estimates++;
            double score = json_number_value(json_object_get(before, "score"));
            double spread = json_number_value(json_object_get(before, "spread"));
            assert_true(score >= -1 && score <= 1 && spread >= 0 && spread <= 1);
            assert_string_equal(text_of(before, "by"), "mcts");
        }
        assert_true(json_is_null(json_object_get(p, "verdict")));
        assert_true(json_is_false(json_object_get(p, "exact")));
    }
    assert_true(estimates > 0);
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

/* --- Tests ---------------------------------------------------------------------------------------------- */

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_move_carries_its_explanation),
        cmocka_unit_test(test_engine_move_explain_field),
        cmocka_unit_test(test_review_verdicts_on_3x3),
        cmocka_unit_test(test_review_estimates_beyond_the_solver),
        cmocka_unit_test(test_review_refuses_bad_fields),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
