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

/* --- Tests ---------------------------------------------------------------------------------------------- */

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_move_carries_its_explanation),
        cmocka_unit_test(test_engine_move_explain_field),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
