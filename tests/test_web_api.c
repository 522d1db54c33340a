/* Unit tests for web/api.h without HTTP: routes, statuses, bounded engine specs, limits, threads. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttt/ttt.h"
#include "web/api.h"

/* --- Helpers -------------------------------------------------------------------------------------------- */

static web_api *api_new(int max_games)
{
    web_api_config config = {.max_games = max_games, .idle_expiry_s = WEB_IDLE_EXPIRY_S_DEFAULT};
    web_api *api = web_api_new(&config);
    assert_non_null(api);
    return api;
}

/* Sends a request; returns the status and the parsed answer in *out (the caller decrefs). */
static int call(web_api *api, const char *method, const char *path, const char *body, json_t **out)
{
    char *text;
    const char *allow;
    int status = web_api_handle(api, method, path, body, body ? strlen(body) : 0, &text, &allow);
    json_error_t jerr;
    json_t *o = json_loads(text, 0, &jerr);
    if (!o)
        print_error("answer is not JSON: %s\n", text);
    assert_non_null(o);
    free(text);
    if (status >= 400 && !json_is_string(json_object_get(o, "error"))) {
        print_error("%s %s: status %d without an error message\n", method, path, status);
        fail();
    }
    *out = o;
    return status;
}

/* Expects a status; returns the answer (decref it) or NULL when not wanted. */
static json_t *expect(web_api *api, int status, const char *method, const char *path, const char *body)
{
    json_t *o;
    int got = call(api, method, path, body, &o);
    if (got != status) {
        char *text = json_dumps(o, 0);
        print_error("%s %s %s: status %d, expected %d: %s\n", method, path, body ? body : "", got, status,
                    text);
        free(text);
        fail();
    }
    return o;
}

static void new_game(web_api *api, const char *body, char *id)
{
    json_t *o = expect(api, 201, "POST", "/api/games", body);
    snprintf(id, WEB_ID_SIZE, "%s", json_string_value(json_object_get(o, "id")));
    assert_int_equal(strlen(id), WEB_ID_SIZE - 1);
    json_decref(o);
}

static char *path_of(char *buf, size_t size, const char *id, const char *action)
{
    snprintf(buf, size, "/api/games/%s%s%s", id, action ? "/" : "", action ? action : "");
    return buf;
}

/* --- Tests ---------------------------------------------------------------------------------------------- */

static void test_two_people_play_to_a_win(void **state)
{
    (void)state;
    web_api *api = api_new(10);
    char id[WEB_ID_SIZE], path[64];
    new_game(api, "{\"rules\": \"3x3\"}", id);
    const char *moves[] = {"b2", "a2", "a1", "b1", "c3"};
    for (int i = 0; i < 5; i++) {
        char body[32];
        snprintf(body, sizeof body, "{\"move\": \"%s\"}", moves[i]);
        json_decref(expect(api, 200, "POST", path_of(path, sizeof path, id, "move"), body));
    }
    json_t *o = expect(api, 200, "GET", path_of(path, sizeof path, id, NULL), NULL);
    assert_string_equal(json_string_value(json_object_get(o, "outcome")), "x");
    assert_true(json_is_null(json_object_get(o, "to_move")));
    json_t *line = json_object_get(o, "winning_line");
    assert_int_equal(json_array_size(line), 3);
    assert_string_equal(json_string_value(json_array_get(line, 0)), "a1");
    assert_string_equal(json_string_value(json_array_get(line, 2)), "c3");
    json_decref(o);
    json_decref(expect(api, 409, "POST", path_of(path, sizeof path, id, "move"), "{\"move\": \"c1\"}"));
    web_api_free(api);
}

static void test_bad_input_is_4xx(void **state)
{
    (void)state;
    web_api *api = api_new(10);
    char id[WEB_ID_SIZE], move[64], game[64], undo[64], engine[64];
    new_game(api, NULL, id);
    path_of(move, sizeof move, id, "move");
    path_of(game, sizeof game, id, NULL);
    path_of(undo, sizeof undo, id, "undo");
    path_of(engine, sizeof engine, id, "engine");
    static const struct {
        int status;
        const char *method, *path, *body;
    } cases[] = {
        {400, "POST", NULL, "{"},
        {400, "POST", NULL, "[]"},
        {400, "POST", NULL, "{\"move\": 1}"},
        {400, "POST", NULL, "{\"move\": \"a1\", \"x\": 1}"},
        {400, "POST", NULL, "{}"},
        {422, "POST", NULL, "{\"move\": \"q1\"}"},
        {405, "GET", NULL, NULL},
        {422, "POST", "/api/games", "{\"rules\": \"3x3k4\"}"},
        {422, "POST", "/api/games", "{\"x\": \"nosuch\"}"},
        {422, "POST", "/api/games", "{\"x\": \"table:file=/etc/passwd\"}"},
        {422, "POST", "/api/games", "{\"x\": \"montecarlo:trials=1000000\"}"},
        {400, "POST", "/api/games", "{\"rules\": null, \"z\": 1}"},
        {405, "GET", "/api/games", NULL},
        {404, "GET", "/api/games/ffffffffffffffff", NULL},
        {404, "POST", "/api/games//move", "{}"},
        {404, "GET", "/api", NULL},
        {405, "PUT", "/api/analyse", "{}"},
        {409, "POST", "/api/analyse", "{\"position\": \"xxx/oo./...\"}"},
        {422, "POST", "/api/analyse", "{\"position\": \"xx/oo\"}"},
        {400, "POST", "/api/analyse", "{\"ms\": -1}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        json_decref(expect(api, cases[i].status, cases[i].method, cases[i].path ? cases[i].path : move,
                           cases[i].body));
    json_decref(expect(api, 409, "POST", undo, "{}"));
    json_decref(expect(api, 409, "POST", engine, "{}"));
    json_decref(expect(api, 200, "GET", game, NULL)); /* the game is untouched by all that */
    web_api_free(api);
}

/* Found by tests/fuzz/fuzz_web_api.c: an error that quotes bytes of the request that are not UTF-8 (a path
 * from HTTP, or a multi-byte character cut by the length of the message) was answered 500 "out of memory"
 * instead of its 4xx. */
static void test_errors_quoting_bytes_that_are_not_utf8(void **state)
{
    (void)state;
    web_api *api = api_new(10);
    json_t *o = expect(api, 404, "GET",
                       "/api/g\xff"
                       "ames",
                       NULL);
    assert_non_null(strstr(json_string_value(json_object_get(o, "error")), "/api/g?ames"));
    json_decref(o);
    /* A long rules text of two-byte characters: for one of the two offsets the message is cut inside one. */
    for (int offset = 0; offset < 2; offset++) {
        char body[1024];
        size_t n = (size_t)snprintf(body, sizeof body, "{\"rules\": \"3x3%s", offset ? "k" : "");
        for (int i = 0; i < 200; i++)
            n += (size_t)snprintf(body + n, sizeof body - n, "\u00e9");
        snprintf(body + n, sizeof body - n, "\"}");
        json_decref(expect(api, 422, "POST", "/api/games", body));
    }
    web_api_free(api);
}

/* The spec an engine move ran with (the "engine.spec" of the answer). */
static void expect_engine_spec(web_api *api, const char *spec, const char *expected)
{
    char id[WEB_ID_SIZE], path[64], body[128];
    new_game(api, NULL, id);
    snprintf(body, sizeof body, "{\"engine\": \"%s\"}", spec);
    json_t *o = expect(api, 200, "POST", path_of(path, sizeof path, id, "engine"), body);
    assert_string_equal(json_string_value(json_object_get(json_object_get(o, "engine"), "spec")), expected);
    json_decref(o);
}

static void test_engine_specs_are_bounded(void **state)
{
    (void)state;
    web_api *api = api_new(10);
    expect_engine_spec(api, "minimax:time=0", "minimax:seed=0,nodes=0,depth=0,tt=16,blunder=0,time=2000");
    expect_engine_spec(api, "minimax:time=99999,tt=4",
                       "minimax:seed=0,nodes=0,depth=0,tt=4,blunder=0,time=2000");
    expect_engine_spec(api, "minimax:time=5", "minimax:seed=0,nodes=0,depth=0,tt=16,blunder=0,time=5");
    expect_engine_spec(api, "easy", "minimax:seed=0,nodes=0,depth=0,tt=16,blunder=50,time=100");
    expect_engine_spec(api, "montecarlo:time=0,trials=100",
                       "montecarlo:seed=0,trials=100,current=1,other=1,time=0");
    expect_engine_spec(api, "montecarlo:time=50000",
                       "montecarlo:seed=0,trials=3000,current=1,other=1,time=2000");
    expect_engine_spec(api, "random:seed=4", "random:seed=4");
    web_api_free(api);
}

static void test_full_table_evicts_least_recently_used(void **state)
{
    (void)state;
    web_api *api = api_new(2);
    char a[WEB_ID_SIZE], b[WEB_ID_SIZE], c[WEB_ID_SIZE], path[64];
    new_game(api, NULL, a);
    new_game(api, NULL, b);
    json_decref(expect(api, 200, "GET", path_of(path, sizeof path, a, NULL), NULL)); /* a used after b */
    new_game(api, NULL, c);
    json_decref(expect(api, 404, "GET", path_of(path, sizeof path, b, NULL), NULL));
    json_decref(expect(api, 200, "GET", path_of(path, sizeof path, a, NULL), NULL));
    json_decref(expect(api, 200, "GET", path_of(path, sizeof path, c, NULL), NULL));
    web_api_free(api);
}

static void test_analyse_solves_3x3(void **state)
{
    (void)state;
    web_api *api = api_new(2);
    json_t *o = expect(api, 200, "POST", "/api/analyse", "{\"position\": \"xx./oo./...\"}");
    assert_string_equal(json_string_value(json_object_get(o, "method")), "solver");
    json_t *moves = json_object_get(o, "moves");
    assert_int_equal(json_array_size(moves), 5);
    json_t *best = json_array_get(moves, 0);
    assert_string_equal(json_string_value(json_object_get(best, "move")), "c1");
    assert_string_equal(json_string_value(json_object_get(best, "result")), "win");
    assert_int_equal(json_integer_value(json_object_get(best, "plies")), 1);
    json_decref(o);
    web_api_free(api);
}

/* --- Threads: requests for one shared game and for games of their own, all at once ---------------------- */

#define STRESS_THREADS 6
#define STRESS_GAMES   20

typedef struct stress {
    web_api *api;
    const char *shared;
    int shared_ok; /* moves the shared game accepted from this thread */
    int seed;
} stress;

static void *stress_thread(void *arg)
{
    stress *s = arg;
    char id[WEB_ID_SIZE], path[64], body[64];
    for (int g = 0; g < STRESS_GAMES; g++) {
        new_game(s->api, "{\"rules\": \"4x4\", \"o\": \"random\"}", id);
        for (int i = 0; i < 16; i++) {
            snprintf(body, sizeof body, "{\"move\": \"%c%d\"}", 'a' + (i * 5 + s->seed) % 4, 1 + (i * 7) % 4);
            json_t *o;
            int st = call(s->api, "POST", path_of(path, sizeof path, id, "move"), body, &o);
            json_decref(o);
            if (st == 200) {
                json_t *e;
                st = call(s->api, "POST", path_of(path, sizeof path, id, "engine"), NULL, &e);
                json_decref(e);
            }
            snprintf(body, sizeof body, "{\"move\": \"%c%d\"}", 'a' + (g + i + s->seed) % 9, 1 + (i + g) % 9);
            st = call(s->api, "POST", path_of(path, sizeof path, s->shared, "move"), body, &o);
            json_decref(o);
            s->shared_ok += st == 200;
        }
    }
    return NULL;
}

static void test_threads_keep_games_consistent(void **state)
{
    (void)state;
    web_api *api = api_new(STRESS_THREADS * 2);
    char shared[WEB_ID_SIZE], path[64];
    new_game(api, "{\"rules\": \"9x9k9\"}", shared);
    stress s[STRESS_THREADS];
    pthread_t t[STRESS_THREADS];
    for (int i = 0; i < STRESS_THREADS; i++) {
        s[i] = (stress){.api = api, .shared = shared, .seed = i};
        assert_int_equal(pthread_create(&t[i], NULL, stress_thread, &s[i]), 0);
    }
    int accepted = 0;
    for (int i = 0; i < STRESS_THREADS; i++) {
        pthread_join(t[i], NULL);
        accepted += s[i].shared_ok;
    }
    /* The shared game may have been evicted (the table holds 12 and 120 games were made), but while it lived
     * every accepted move is in it exactly once. */
    json_t *o;
    int st = call(api, "GET", path_of(path, sizeof path, shared, NULL), NULL, &o);
    if (st == 200)
        assert_int_equal(json_array_size(json_object_get(o, "moves")), accepted);
    else
        assert_int_equal(st, 404);
    json_decref(o);
    web_api_free(api);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_people_play_to_a_win),
        cmocka_unit_test(test_bad_input_is_4xx),
        cmocka_unit_test(test_errors_quoting_bytes_that_are_not_utf8),
        cmocka_unit_test(test_engine_specs_are_bounded),
        cmocka_unit_test(test_full_table_evicts_least_recently_used),
        cmocka_unit_test(test_analyse_solves_3x3),
        cmocka_unit_test(test_threads_keep_games_consistent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
