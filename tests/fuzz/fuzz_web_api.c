/*
 * fuzz_web_api - the JSON API of `ttt serve` without HTTP (src/web/api.h): several requests per input against
 * one web_api that records nothing (no database, as `serve --no-record`).
 *
 * Input: requests separated by lines "---"; each is "METHOD PATH" on its first line, then the body:
 *
 *     POST /api/games
 *     {"o": "hard"}
 *     ---
 *     POST /api/games/$0/move
 *     {"move": "b2"}
 *
 * In a path, $N (a digit) stands for the id of the N-th game this input created, so that requests can follow
 * a game (ids are random).
 *
 * Every request must answer fast, so the harness skips (does not send) the requests that would make an engine
 * think for long or touch files: engine specs that open a file (the table, the learner), that count time only
 * on the server (mcts: the server turns its iterations into 2 s of thinking), or ask for more than a few
 * thousand trials or a big table; and engine moves and analyses on boards of more than FUZZ_WEB_MAX_CELLS
 * cells (the solver and the engines are quick there).
 *
 * Invariants: every answer is a JSON object with a status the API documents (no 5xx: memory does not run out
 * here and the game table makes room), an "error" line with every 4xx, Allow with 405 only; a game's state
 * is consistent: its moves replayed from the empty board give its position, whose side to move and outcome it
 * reports, and GET on the game gives the same game; 201 answers POST /api/games only.
 */
#include <jansson.h>

#include "fuzz.h"
#include "web/api.h"

#define FUZZ_WEB_MAX_REQUESTS 16
#define FUZZ_WEB_MAX_GAMES    4 /* small, so that creating games evicts old ones */
#define FUZZ_WEB_MAX_CELLS    12
#define FUZZ_WEB_MAX_TRIALS   3000
#define FUZZ_WEB_PATH_SIZE    512
#define FUZZ_WEB_SEPARATOR    "\n---\n"

/* The one place that calls the API, as the server does: with the client's address (one client here). */
static int call_api(web_api *api, const char *method, const char *path, const char *body, char **json,
                    const char **allow)
{
    return web_api_handle_client(api, "127.0.0.1", method, path, body, strlen(body), json, allow, NULL);
}

typedef struct game_ref {
    char id[WEB_ID_SIZE];
    int cells;
} game_ref;

typedef struct session {
    web_api *api;
    game_ref games[FUZZ_WEB_MAX_REQUESTS];
    int count;
} session;

static unsigned long long option_number(const char *spec, const char *key)
{
    const char *colon = strchr(spec, ':');
    size_t klen = strlen(key);
    for (const char *p = colon ? colon + 1 : NULL; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strncmp(p, key, klen) == 0 && p[klen] == '=')
            return strtoull(p + klen + 1, NULL, 10);
    return 0;
}

/* Whether an engine spec from a body is quick to make and to run (see the top of the file). */
static bool quick_spec(const char *spec)
{
    if (strcmp(spec, "human") == 0)
        return true;
    return !ttt_engine_has_option(spec, "file") && !ttt_engine_has_option(spec, "memory") &&
           !ttt_engine_has_option(spec, "iterations") &&
           option_number(spec, "trials") <= FUZZ_WEB_MAX_TRIALS &&
           option_number(spec, "tt") <= WEB_MAX_ENGINE_MIB;
}

static int cells_of_rules(json_t *body)
{
    json_t *r = json_object_get(body, "rules");
    ttt_rules rules = ttt_rules_default();
    if (json_is_string(r) && ttt_rules_parse(json_string_value(r), &rules, NULL) != TTT_OK)
        return 0; /* refused by the API before any engine runs */
    return ttt_rules_cells(&rules);
}

static const game_ref *find_game(const session *s, const char *path)
{
    static const char prefix[] = "/api/games/";
    if (strncmp(path, prefix, sizeof prefix - 1) != 0)
        return NULL;
    const char *id = path + sizeof prefix - 1;
    for (int i = 0; i < s->count; i++)
        if (strncmp(id, s->games[i].id, WEB_ID_SIZE - 1) == 0)
            return &s->games[i];
    return NULL;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

/* Whether the harness sends this request. */
static bool worth_sending(const session *s, const char *path, const char *body)
{
    json_t *o = json_loads(body, 0, NULL);
    if (!json_is_object(o)) {
        json_decref(o);
        return true; /* the API refuses it at once */
    }
    bool quick = true;
    static const char *const spec_fields[] = {"x", "o", "engine"};
    for (size_t i = 0; i < sizeof spec_fields / sizeof *spec_fields; i++) {
        json_t *v = json_object_get(o, spec_fields[i]);
        if (json_is_string(v) && !quick_spec(json_string_value(v)))
            quick = false;
    }
    if ((strcmp(path, "/api/analyse") == 0 || strcmp(path, "/api/explain") == 0 ||
         strcmp(path, "/api/review") == 0) &&
        cells_of_rules(o) > FUZZ_WEB_MAX_CELLS)
        quick = false;
    const game_ref *g = find_game(s, path);
    if (g && ends_with(path, "/engine") && g->cells > FUZZ_WEB_MAX_CELLS)
        quick = false;
    json_decref(o);
    return quick;
}

/* path with each $N replaced by the id of game N (an unknown id when there is none). */
static bool expand_path(const session *s, const char *path, char *out, size_t size)
{
    size_t n = 0;
    for (const char *p = path; *p; p++) {
        const char *piece = NULL;
        char one[2] = {*p, '\0'};
        if (p[0] == '$' && p[1] >= '0' && p[1] <= '9') {
            int i = *++p - '0';
            piece = i < s->count ? s->games[i].id : "0123456789abcdef";
        }
        n += (size_t)snprintf(out + n, n < size ? size - n : 0, "%s", piece ? piece : one);
    }
    return n < size;
}

/* The state of a game is consistent with itself. */
static void check_game_state(json_t *state)
{
    const char *rules_text = json_string_value(json_object_get(json_object_get(state, "rules"), "text"));
    const char *position = json_string_value(json_object_get(state, "position"));
    FUZZ_CHECK(rules_text && position && json_is_string(json_object_get(state, "id")));
    ttt_rules rules;
    ttt_board b, replayed;
    FUZZ_CHECK(ttt_rules_parse(rules_text, &rules, NULL) == TTT_OK);
    FUZZ_CHECK(ttt_position_parse(position, &rules, &b, NULL) == TTT_OK);
    json_t *moves = json_object_get(state, "moves"), *m;
    ttt_board_init(&replayed, &rules);
    size_t i;
    json_array_foreach(moves, i, m)
    {
        ttt_move cell;
        FUZZ_CHECK(ttt_move_parse(json_string_value(m), &rules, &cell, NULL) == TTT_OK);
        FUZZ_CHECK(ttt_board_play_checked(&replayed, cell, NULL) == TTT_OK);
    }
    FUZZ_CHECK(ttt_board_equal(&b, &replayed));
    json_t *to_move = json_object_get(state, "to_move");
    FUZZ_CHECK(ttt_board_terminal(&b) ? json_is_null(to_move) : json_is_string(to_move));
    const char *outcome = json_string_value(json_object_get(state, "outcome"));
    static const char *const names[] = {
        [TTT_ONGOING] = "ongoing", [TTT_X_WINS] = "x", [TTT_O_WINS] = "o", [TTT_DRAW] = "draw"};
    FUZZ_CHECK(outcome && strcmp(outcome, names[ttt_board_outcome(&b)]) == 0);
}

/* What a request answered about a game is what the server keeps: GET gives the same game. */
static void check_kept(session *s, json_t *state)
{
    char path[FUZZ_WEB_PATH_SIZE], *json = NULL;
    const char *allow = NULL;
    snprintf(path, sizeof path, "/api/games/%s", json_string_value(json_object_get(state, "id")));
    FUZZ_CHECK(call_api(s->api, "GET", path, "", &json, &allow) == 200);
    json_t *kept = json_loads(json, 0, NULL);
    FUZZ_CHECK(kept != NULL);
    static const char *const fields[] = {"rules", "position", "moves", "outcome", "players", "to_move"};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
        FUZZ_CHECK(json_equal(json_object_get(kept, fields[i]), json_object_get(state, fields[i])));
    json_decref(kept);
    free(json);
}

static void send_request(session *s, const char *request)
{
    char *text = fuzz_strndup(request, strlen(request));
    char *body = fuzz_split(text);
    if (!body)
        body = text + strlen(text);
    char *space = strchr(text, ' ');
    const char *method = text, *raw_path = space ? space + 1 : "";
    if (space)
        *space = '\0';
    char path[FUZZ_WEB_PATH_SIZE];
    if (!expand_path(s, raw_path, path, sizeof path) || !worth_sending(s, path, body)) {
        free(text);
        return;
    }
    char *json = NULL;
    const char *allow = NULL;
    int status = call_api(s->api, method, path, body, &json, &allow);
    FUZZ_CHECK(json != NULL);
    json_t *answer = json_loads(json, 0, NULL);
    FUZZ_CHECK(json_is_object(answer));
    static const int documented[] = {200, 201, 400, 404,
                                     405, 409, 422, 429 /* a client's cap of live games */};
    bool known = false;
    for (size_t i = 0; i < sizeof documented / sizeof *documented; i++)
        known = known || status == documented[i];
    if (!known)
        fprintf(stderr, "%s %s: %d %s\n", method, path, status, json);
    FUZZ_CHECK(known);
    FUZZ_CHECK((status == 405) == (allow != NULL));
    if (status >= 400) {
        const char *error = json_string_value(json_object_get(answer, "error"));
        FUZZ_CHECK(error && *error);
    } else if (json_object_get(answer, "board")) {
        check_game_state(answer);
        check_kept(s, answer);
    }
    FUZZ_CHECK(status != 201 || (strcmp(method, "POST") == 0 && strcmp(path, "/api/games") == 0));
    if (status == 201) {
        game_ref *g = &s->games[s->count++];
        snprintf(g->id, sizeof g->id, "%s", json_string_value(json_object_get(answer, "id")));
        json_t *rules = json_object_get(answer, "rules");
        g->cells = (int)(json_integer_value(json_object_get(rules, "rows")) *
                         json_integer_value(json_object_get(rules, "cols")));
    }
    json_decref(answer);
    free(json);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    web_api_config config = {.max_games = FUZZ_WEB_MAX_GAMES, .idle_expiry_s = WEB_IDLE_EXPIRY_S_DEFAULT};
    session s = {.api = web_api_new(&config)};
    FUZZ_CHECK(s.api != NULL);
    char *text = fuzz_strndup(data, size);
    char *request = text;
    for (int n = 0; request && n < FUZZ_WEB_MAX_REQUESTS; n++) {
        char *next = strstr(request, FUZZ_WEB_SEPARATOR);
        if (next) {
            *next = '\0';
            next += strlen(FUZZ_WEB_SEPARATOR);
        }
        send_request(&s, request);
        request = next;
    }
    free(text);
    web_api_free(s.api);
    return 0;
}
