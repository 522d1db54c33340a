/* Unit tests for web/api.h without HTTP: routes, statuses, bounded engine specs, limits, threads, engines
 * that live with their game, and that the API writes no file but its database. */
#define _GNU_SOURCE /* mkdtemp, setenv */
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
#include <sys/stat.h>
#include <dirent.h>

#include "ttt/ttt.h"
#include "web/api.h"
#include "web/engines.h"

/* --- Helpers -------------------------------------------------------------------------------------------- */

/* An API with room for max_games games, at most max_client_games live ones per address (0: the default). */
static web_api *api_new_capped(int max_games, int max_client_games)
{
    web_api_config config = {.max_games = max_games,
                             .idle_expiry_s = WEB_IDLE_EXPIRY_S_DEFAULT,
                             .max_client_games = max_client_games};
    web_api *api = web_api_new(&config);
    assert_non_null(api);
    return api;
}

static web_api *api_new(int max_games) { return api_new_capped(max_games, 0); }

/* The client of the requests that follow (NULL: web_api_handle, "unknown"). */
static const char *client;
/* The Retry-After of the last answer to a client (0: none). */
static int retry_after_s;

/* Sends a request; returns the status and the parsed answer in *out (the caller decrefs). */
static int call(web_api *api, const char *method, const char *path, const char *body, json_t **out)
{
    char *text;
    const char *allow;
    size_t len = body ? strlen(body) : 0;
    int status =
        client ? web_api_handle_client(api, client, method, path, body, len, &text, &allow, &retry_after_s)
               : web_api_handle(api, method, path, body, len, &text, &allow);
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
    snprintf(buf, size, "/api/games/%.*s%s%s", WEB_ID_SIZE - 1, id, action ? "/" : "", action ? action : "");
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
                       "montecarlo:seed=0,trials=100,current=1,other=1,time=2000");
    expect_engine_spec(api, "montecarlo:time=50000",
                       "montecarlo:seed=0,trials=0,current=1,other=1,time=2000");
    /* mcts counting iterations keeps its count (a weak level's budget), and the server's 2 s as well */
    expect_engine_spec(api, "mcts:iterations=200",
                       "mcts:seed=0,iterations=200,c=1,rave=1000,threats=1,prior=1,widen=1,tactics=1,vcf="
                       "20000,vct=20000,draw=0.5,tree=524288,time=2000");
    expect_engine_spec(api, "mcts:time=0",
                       "mcts:seed=0,iterations=0,c=1,rave=1000,threats=1,prior=1,widen=1,tactics=1,vcf=20000,"
                       "vct=20000,draw=0.5,tree=524288,time=2000");
    expect_engine_spec(api, "mcts:time=9000",
                       "mcts:seed=0,iterations=0,c=1,rave=1000,threats=1,prior=1,widen=1,tactics=1,vcf=20000,"
                       "vct=20000,draw=0.5,tree=524288,time=2000");
    expect_engine_spec(api, "random:seed=4", "random:seed=4");
    web_api_free(api);
}

/* The time a bounded spec carries ("...,time=MS"), or -1 when it has none. */
static long long bounded_time(const char *bounded)
{
    const char *t = strstr(bounded, ":time=");
    if (!t)
        t = strstr(bounded, ",time=");
    return t ? strtoll(t + strlen(",time="), NULL, 10) : -1;
}

/* Whatever a spec sets (a count as its budget, time=0, a time above the cap), every engine with a time option
 * runs on the server with a time of at most the cap, strict or not: a count's cost is an average, and some
 * boards take ten times it (mcts:iterations=10000 on 20x20k20). */
static void test_every_engine_spec_carries_a_capped_time(void **state)
{
    (void)state;
    web_engines *w = web_engines_new(NULL);
    assert_non_null(w);
    static const char *const boards[] = {"20x20k20", "3x20k20", "3x3"};
    static const char *const tails[] = {"",
                                        ":time=0",
                                        ":time=999999",
                                        ":iterations=10000,time=0",
                                        ":trials=3000,time=0",
                                        ":nodes=100,time=0"};
    int capped = 0;
    for (int i = 0; i < ttt_engine_count(); i++) {
        const char *name = ttt_engine_about_at(i)->name;
        if (ttt_engine_requires_path(name) || !ttt_engine_has_option(name, "time"))
            continue; /* cmd runs no engine of the server's; random, heuristic, table end by themselves */
        for (size_t b = 0; b < sizeof boards / sizeof boards[0]; b++) {
            ttt_rules r;
            assert_int_equal(ttt_rules_parse(boards[b], &r, NULL), TTT_OK);
            for (size_t t = 0; t < sizeof tails / sizeof tails[0]; t++) {
                for (int strict = 0; strict <= 1; strict++) {
                    char spec[128], bounded[TTT_SPEC_TEXT_SIZE];
                    snprintf(spec, sizeof spec, "%s%s", name, tails[t]);
                    ttt_error err = {{0}};
                    if (web_engines_bound(w, spec, &r, WEB_MAX_ENGINE_MS, strict, bounded, sizeof bounded,
                                          &err) != TTT_OK)
                        continue; /* an option this engine lacks */
                    long long ms = bounded_time(bounded);
                    if (ms < 1 || ms > WEB_MAX_ENGINE_MS) {
                        print_error("%s on %s (strict %d) ran as %s\n", spec, boards[b], strict, bounded);
                        fail();
                    }
                    capped++;
                }
            }
        }
    }
    assert_true(capped >= 20);
    web_engines_free(w);
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

/* --- Engines with their game ---------------------------------------------------------------------------- */

/* XDG_DATA_HOME of the tests: where a default table or database would go. It must stay empty. */
static char data_home[256];

static int dir_entries(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

/* An engine move in game id; returns the answer's "engine" object's integer field (nodes, total_nodes). */
static json_int_t engine_move(web_api *api, const char *id, const char *field)
{
    char path[64];
    json_t *o = expect(api, 200, "POST", path_of(path, sizeof path, id, "engine"), NULL);
    json_t *v = json_object_get(json_object_get(o, "engine"), field);
    assert_true(json_is_integer(v));
    json_int_t n = json_integer_value(v);
    json_decref(o);
    return n;
}

/* Engine moves until the game (3x3, engines on both sides) is over. */
static void play_to_the_end(web_api *api, const char *id)
{
    char path[64];
    bool over = false;
    for (int i = 0; i < 9 && !over; i++) {
        json_t *o = expect(api, 200, "POST", path_of(path, sizeof path, id, "engine"), NULL);
        over = strcmp(json_string_value(json_object_get(o, "outcome")), "ongoing") != 0;
        json_decref(o);
    }
    assert_true(over);
}

static void person_move(web_api *api, const char *id, const char *move)
{
    char path[64], body[64];
    snprintf(body, sizeof body, "{\"move\": \"%s\"}", move);
    json_decref(expect(api, 200, "POST", path_of(path, sizeof path, id, "move"), body));
}

/* A person's move on the first empty cell of a 4x4 board in reading order (whatever the engine played). */
static void person_move_anywhere(web_api *api, const char *id)
{
    char path[64], body[64];
    int status = 0;
    for (int cell = 0; cell < 16 && status != 200; cell++) {
        snprintf(body, sizeof body, "{\"move\": \"%c%d\"}", 'a' + cell % 4, 1 + cell / 4);
        json_t *o;
        status = call(api, "POST", path_of(path, sizeof path, id, "move"), body, &o);
        json_decref(o);
    }
    assert_int_equal(status, 200);
}

/* One engine per player per game: an MCTS player keeps its tree (its node count goes on from move to move)
 * and is made once, however many moves it plays; after an undo it plays on from the real moves. */
static void test_engine_lives_with_its_game(void **state)
{
    (void)state;
    web_api *api = api_new(10);
    char id[WEB_ID_SIZE], path[64];
    new_game(api, "{\"rules\": \"4x4\", \"x\": \"mcts:time=30\"}", id);
    unsigned long made = web_api_engines_made(api);
    json_int_t first = engine_move(api, id, "total_nodes");
    assert_true(first >= 1);
    person_move_anywhere(api, id);
    json_int_t nodes = engine_move(api, id, "nodes"); /* the second move's own work ... */
    person_move_anywhere(api, id);
    json_decref(expect(api, 200, "POST", path_of(path, sizeof path, id, "undo"), "{\"plies\": 2}"));
    json_int_t total = engine_move(api, id, "total_nodes"); /* ... counted on top of the first's */
    assert_true(nodes >= 1 && total >= first + nodes + 1);
    assert_int_equal(web_api_engines_made(api) - made, 1);
    /* Another engine named for one move is made for it, and the player's engine stays. */
    json_decref(
        expect(api, 200, "POST", path_of(path, sizeof path, id, "engine"), "{\"engine\": \"random\"}"));
    assert_true(engine_move(api, id, "total_nodes") > total);
    assert_int_equal(web_api_engines_made(api) - made, 2);
    web_api_free(api); /* frees the kept engine (the sanitizer build checks) */
}

/* Kept engines are capped: with more games than WEB_MAX_LIVE_ENGINES playing, the least recently used
 * game's engine is freed, and made again (one more engine made) when that game goes on. */
static void test_kept_engines_are_capped(void **state)
{
    (void)state;
    enum { GAMES = WEB_MAX_LIVE_ENGINES + 8 };
    web_api *api = api_new(GAMES);
    static struct {
        char id[WEB_ID_SIZE];
    } ids[GAMES];
    char path[64];
    for (int i = 0; i < GAMES; i++) {
        new_game(api, "{\"x\": \"random\"}", ids[i].id);
        json_t *o = expect(api, 200, "POST", path_of(path, sizeof path, ids[i].id, "engine"), NULL);
        assert_int_equal(json_integer_value(json_object_get(json_object_get(o, "engine"), "total_nodes")), 1);
        bool b2_taken = strcmp(json_string_value(json_object_get(o, "last_move")), "b2") == 0;
        json_decref(o);
        person_move(api, ids[i].id, b2_taken ? "a1" : "b2");
    }
    unsigned long made = web_api_engines_made(api);
    assert_int_equal(made, GAMES);
    assert_int_equal(engine_move(api, ids[GAMES - 1].id, "total_nodes"), 2); /* kept: it counts on */
    assert_int_equal(web_api_engines_made(api), made);
    assert_int_equal(engine_move(api, ids[0].id, "total_nodes"), 1); /* dropped: made again */
    assert_int_equal(web_api_engines_made(api), made + 1);
    web_api_free(api);
}

/* The table engine's table is built once per rules set, in memory, shared by every game, and never written
 * into the data directory; a board whose table would be too big is refused when the game is made. */
static void test_table_engine_shares_one_table_and_writes_nothing(void **state)
{
    (void)state;
    web_api *api = api_new(10);
    char a[WEB_ID_SIZE], b[WEB_ID_SIZE];
    new_game(api, "{\"x\": \"table\", \"o\": \"table:seed=1\"}", a);
    new_game(api, "{\"x\": \"table:seed=2\"}", b);
    for (int i = 0; i < 3; i++)
        assert_int_equal(engine_move(api, a, "nodes"), 1);
    assert_int_equal(engine_move(api, b, "nodes"), 1);
    assert_int_equal(dir_entries(data_home), 0);
    json_t *o = expect(api, 422, "POST", "/api/games", "{\"rules\": \"4x4\", \"x\": \"table\"}");
    assert_non_null(strstr(json_string_value(json_object_get(o, "error")), "at most 1000000 entries"));
    json_decref(o);
    json_decref(expect(api, 422, "POST", "/api/games", "{\"rules\": \"3x4\", \"o\": \"table\"}"));
    assert_int_equal(dir_entries(data_home), 0);
    web_api_free(api);
}

/* A server without a database (--no-record) runs the learner with an empty memory of its own: it opens no
 * database (none appears in the data directory), and is bounded in time like every engine. A client's
 * learn= is refused with the reason. */
static void test_learner_without_database_opens_none(void **state)
{
    (void)state;
    web_api *api = api_new(10);
    expect_engine_spec(api, "learner",
                       "learner:seed=0,learn=0,safe=1,threats=1,backup=1,nodes=10000,time=2000");
    char id[WEB_ID_SIZE];
    new_game(api, "{\"x\": \"learner\", \"o\": \"random\"}", id);
    play_to_the_end(api, id);
    assert_int_equal(dir_entries(data_home), 0);
    json_t *o = expect(api, 422, "POST", "/api/games", "{\"x\": \"learner:learn=1\"}");
    assert_non_null(strstr(json_string_value(json_object_get(o, "error")), "learn= is set by the server"));
    json_decref(o);
    web_api_free(api);
}

static int count_sequences(const ttt_store_sequence *sequence, void *user)
{
    (void)sequence;
    ++*(int *)user;
    return 0;
}

/* A database path longer than a spec (256 characters) is used whole: the learner plays from it and learns
 * into it, and no other file appears beside it. The learner's memory is loaded once per game. */
static void test_long_database_path_is_used_whole(void **state)
{
    (void)state;
    char dir[600];
    int n = snprintf(dir, sizeof dir, "%s/db", data_home);
    while (n < 300)
        n += snprintf(dir + n, sizeof dir - (size_t)n, "/%s", "a-rather-long-directory-name");
    char cmd[700];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    assert_int_equal(system(cmd), 0);
    char path[700];
    snprintf(path, sizeof path, "%s/games.db", dir);
    ttt_store *store;
    ttt_error err = {{0}};
    assert_int_equal(ttt_store_open(path, &store, &err), TTT_OK);
    web_api_config config = {.max_games = 10, .idle_expiry_s = WEB_IDLE_EXPIRY_S_DEFAULT, .store = store};
    web_api *api = web_api_new(&config);
    assert_non_null(api);
    char id[WEB_ID_SIZE];
    new_game(api, "{\"x\": \"learner:seed=1\", \"o\": \"learner:seed=2\"}", id);
    unsigned long made = web_api_engines_made(api);
    play_to_the_end(api, id);
    assert_int_equal(web_api_engines_made(api) - made, 2); /* one learner per side, each loaded once */
    web_api_free(api);
    int sequences = 0;
    assert_int_equal(ttt_store_sequences(store, "3x3", count_sequences, &sequences, &err), TTT_OK);
    assert_int_equal(sequences, 1);
    ttt_store_close(store);
    /* Only the database (and SQLite's own -wal/-shm) in its directory, and nothing in the data home's top. */
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.')
            assert_int_equal(strncmp(e->d_name, "games.db", 8), 0);
    closedir(d);
    assert_int_equal(dir_entries(data_home), 1); /* "db" */
    snprintf(cmd, sizeof cmd, "rm -rf '%s/db'", data_home);
    assert_int_equal(system(cmd), 0);
}

/* One address cannot take the others' games: past its cap it gets 429, another address still creates
 * games, and none of the first address's games was dropped to make room. */
static void test_games_are_capped_per_client(void **state)
{
    (void)state;
    web_api *api = api_new_capped(6, 3);
    char a[3][WEB_ID_SIZE], b[WEB_ID_SIZE], path[64];
    client = "192.0.2.1";
    for (int i = 0; i < 3; i++)
        new_game(api, NULL, a[i]);
    for (int i = 0; i < 10; i++) {
        json_t *o = expect(api, 429, "POST", "/api/games", NULL);
        assert_non_null(
            strstr(json_string_value(json_object_get(o, "error")), "too many games from one address"));
        json_decref(o);
    }
    client = "2001:db8::1";
    for (int i = 0; i < 3; i++)
        new_game(api, NULL, b);
    client = "192.0.2.1";
    for (int i = 0; i < 3; i++)
        json_decref(expect(api, 200, "GET", path_of(path, sizeof path, a[i], NULL), NULL));
    char too_long[WEB_CLIENT_SIZE + 1];
    memset(too_long, '1', WEB_CLIENT_SIZE);
    too_long[WEB_CLIENT_SIZE] = '\0';
    client = too_long;
    json_decref(expect(api, 400, "POST", "/api/games", NULL));
    client = NULL;
    web_api_free(api);
}

/* The per-address cap counts live games: a finished game frees its place at once; past the cap, the 429
 * says when to retry (a Retry-After and the message) and what to do. */
static void test_cap_counts_live_games(void **state)
{
    (void)state;
    web_api *api = api_new_capped(10, 2);
    char done[WEB_ID_SIZE], id[WEB_ID_SIZE], path[64];
    client = "192.0.2.1";
    new_game(api, NULL, done);
    const char *moves[] = {"b2", "a2", "a1", "b1", "c3"}; /* X wins */
    for (int i = 0; i < 5; i++) {
        char body[32];
        snprintf(body, sizeof body, "{\"move\": \"%s\"}", moves[i]);
        json_decref(expect(api, 200, "POST", path_of(path, sizeof path, done, "move"), body));
    }
    new_game(api, NULL, id);
    new_game(api, NULL, id); /* the finished game no longer counts */
    json_t *o = expect(api, 429, "POST", "/api/games", NULL);
    const char *msg = json_string_value(json_object_get(o, "error"));
    assert_non_null(strstr(msg, "play one to its end"));
    assert_non_null(strstr(msg, "retry in"));
    assert_in_range(retry_after_s, 1, WEB_IDLE_EXPIRY_S_DEFAULT);
    json_decref(o);
    /* Undone, the finished game is live again: still two live games after a third is finished. */
    json_decref(expect(api, 200, "POST", path_of(path, sizeof path, done, "undo"), NULL));
    json_decref(expect(api, 429, "POST", "/api/games", NULL));
    json_decref(expect(api, 200, "GET", path_of(path, sizeof path, done, NULL), NULL));
    client = NULL;
    web_api_free(api);
}

/* A full table: an address makes room with its own oldest game first, and never drops another address's
 * game played within WEB_EVICT_GUARD_S: with none to drop, 503 and a Retry-After. */
static void test_full_table_evicts_own_games_first(void **state)
{
    (void)state;
    web_api *api = api_new_capped(3, 3);
    char a[2][WEB_ID_SIZE], b[2][WEB_ID_SIZE], path[64];
    client = "192.0.2.1";
    new_game(api, NULL, a[0]);
    new_game(api, NULL, a[1]);
    client = "192.0.2.2";
    new_game(api, NULL, b[0]);
    new_game(api, NULL, b[1]); /* the table is full: b[0] makes room, not a[0] (the least recently used) */
    json_decref(expect(api, 404, "GET", path_of(path, sizeof path, b[0], NULL), NULL));
    client = "192.0.2.1";
    for (int i = 0; i < 2; i++)
        json_decref(expect(api, 200, "GET", path_of(path, sizeof path, a[i], NULL), NULL));
    client = "192.0.2.3"; /* nothing of its own, every other game played just now */
    json_t *o = expect(api, 503, "POST", "/api/games", NULL);
    assert_non_null(strstr(json_string_value(json_object_get(o, "error")), "retry in"));
    assert_in_range(retry_after_s, 1, WEB_EVICT_GUARD_S);
    json_decref(o);
    json_decref(expect(api, 200, "GET", path_of(path, sizeof path, b[1], NULL), NULL));
    client = NULL;
    web_api_free(api);
}

/* IPv6 clients count by /64: two addresses of one network share a cap, another network does not;
 * an IPv4-mapped address is its IPv4 address. */
static void test_ipv6_clients_count_by_64(void **state)
{
    (void)state;
    struct {
        const char *address, *group;
    } cases[] = {
        {"192.0.2.1", "192.0.2.1"},
        {"2001:db8:1:2::1", "2001:db8:1:2::/64"},
        {"2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"},
        {"::1", "::/64"},
        {"::ffff:192.0.2.1", "192.0.2.1"},
        {"2001:db8:1:2::/64", "2001:db8:1:2::/64"},
        {"unknown", "unknown"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char group[WEB_CLIENT_SIZE];
        web_client_group(cases[i].address, group, sizeof group);
        assert_string_equal(group, cases[i].group);
    }
    web_api *api = api_new_capped(10, 1);
    char id[WEB_ID_SIZE];
    client = "2001:db8:1:2::1";
    new_game(api, NULL, id);
    client = "2001:db8:1:2:abcd::9"; /* the same /64 */
    json_decref(expect(api, 429, "POST", "/api/games", NULL));
    client = "2001:db8:1:3::1";
    new_game(api, NULL, id);
    client = "192.0.2.7";
    new_game(api, NULL, id);
    client = "::ffff:192.0.2.7";
    json_decref(expect(api, 429, "POST", "/api/games", NULL));
    client = NULL;
    web_api_free(api);
}

/* An analysis with an engine stays within its one ms budget: the engine gets what the solver left, never
 * its own cap on top (its spec's time= is at most ms). */
static void test_analyse_with_an_engine_keeps_one_budget(void **state)
{
    (void)state;
    web_api *api = api_new(2);
    json_t *o = expect(api, 200, "POST", "/api/analyse",
                       "{\"rules\": \"9x9k4\", \"moves\": \"e5\", \"engine\": \"montecarlo:time=2000\", "
                       "\"ms\": 100}");
    const char *spec = json_string_value(json_object_get(o, "engine"));
    assert_non_null(spec);
    const char *t = strstr(spec, "time=");
    assert_non_null(t);
    long ms = strtol(t + 5, NULL, 10);
    assert_true(ms >= 1 && ms <= 100);
    assert_string_equal(json_string_value(json_object_get(o, "method")), "montecarlo score grid");
    json_decref(o);
    web_api_free(api);
}

static int make_data_home(void **state)
{
    (void)state;
    snprintf(data_home, sizeof data_home, "%s/ttt-test-web-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(data_home))
        return -1;
    return setenv("XDG_DATA_HOME", data_home, 1);
}

static int remove_data_home(void **state)
{
    (void)state;
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", data_home);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_people_play_to_a_win),
        cmocka_unit_test(test_bad_input_is_4xx),
        cmocka_unit_test(test_errors_quoting_bytes_that_are_not_utf8),
        cmocka_unit_test(test_engine_specs_are_bounded),
        cmocka_unit_test(test_every_engine_spec_carries_a_capped_time),
        cmocka_unit_test(test_full_table_evicts_least_recently_used),
        cmocka_unit_test(test_analyse_solves_3x3),
        cmocka_unit_test(test_threads_keep_games_consistent),
        cmocka_unit_test(test_engine_lives_with_its_game),
        cmocka_unit_test(test_kept_engines_are_capped),
        cmocka_unit_test(test_table_engine_shares_one_table_and_writes_nothing),
        cmocka_unit_test(test_learner_without_database_opens_none),
        cmocka_unit_test(test_long_database_path_is_used_whole),
        cmocka_unit_test(test_games_are_capped_per_client),
        cmocka_unit_test(test_cap_counts_live_games),
        cmocka_unit_test(test_full_table_evicts_own_games_first),
        cmocka_unit_test(test_ipv6_clients_count_by_64),
        cmocka_unit_test(test_analyse_with_an_engine_keeps_one_budget),
    };
    return cmocka_run_group_tests(tests, make_data_home, remove_data_home);
}
