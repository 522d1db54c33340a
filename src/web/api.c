/* web/api.c - the JSON API of `ttt serve` over the library (web/api.h). */
#define _GNU_SOURCE /* getrandom, strcasecmp */
#include "web/api.h"

#include <assert.h>
#include <arpa/inet.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "util/error.h"
#include "web/engines.h"

/* HTTP status codes the API answers with. */
enum {
    HTTP_OK = 200,
    HTTP_CREATED = 201,
    HTTP_BAD_REQUEST = 400,
    HTTP_NOT_FOUND = 404,
    HTTP_METHOD_NOT_ALLOWED = 405,
    HTTP_CONFLICT = 409,
    HTTP_UNPROCESSABLE = 422,
    HTTP_TOO_MANY = 429,
    HTTP_INTERNAL = 500,
    HTTP_UNAVAILABLE = 503,
};

/* One game in memory: a session of one game (everything its record in the store needs), with its lock,
 * references and client. */
typedef struct web_game {
    char id[WEB_ID_SIZE];
    pthread_mutex_t lock; /* guards everything below; held while an engine thinks about this game */
    int refs;             /* requests using the game (guarded by the table's lock): never evicted while > 0 */
    double last_used_ms;  /* monotonic (guarded by the table's lock) */
    /* Its players' who is "human" or the spec as the client gave it, their spec what the server runs
     * (web_engines_bound). An engine is made at its player's first move and kept (engine_keep); NULL before,
     * or once the table of live engines dropped it: guarded by the game's lock, and by the table's lock
     * when refs is 0. */
    ttt_game *game;
    char client[WEB_CLIENT_SIZE]; /* the address that created the game (its cap: max_client_games) */
    bool finished;                /* the game has ended once and was handed to web_game_finished */
    bool over; /* the game is over as of its last request (guarded by the table's lock): not live */
} web_game;

struct web_api {
    web_api_config config;
    pthread_mutex_t store_lock; /* config.store: one request at a time writes a record */
    pthread_mutex_t lock;       /* the table: games, count */
    web_game **games;
    int count;
    uint64_t id_counter;  /* mixed into ids when getrandom fails */
    web_engines *engines; /* bounded specs, engine slots, shared tables */
    int live_engines;     /* kept with games (guarded by lock) */
};

/* --- Replies -------------------------------------------------------------------------------------------- */

typedef struct reply {
    int status;
    json_t *body; /* owned */
} reply;

static char *dump(json_t *o)
{
    char *text = o ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(6)) : NULL;
    json_decref(o);
    return text;
}

char *web_api_error_json(const char *msg)
{
    char *text = dump(json_pack("{s:s}", "error", msg));
    return text ? text : strdup("{\"error\":\"out of memory\"}");
}

static reply fail(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static reply fail(int status, const char *fmt, ...)
{
    char *msg;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&msg, fmt, ap);
    va_end(ap);
    if (n < 0)
        return (reply){HTTP_INTERNAL, json_pack("{s:s}", "error", "out of memory")};
    json_t *body = json_pack("{s:s}", "error", msg);
    if (!body) { /* the message quotes bytes of the request that are not UTF-8 */
        for (char *p = msg; *p; p++)
            if ((unsigned char)*p >= 0x80)
                *p = '?';
        body = json_pack("{s:s}", "error", msg);
    }
    free(msg);
    return (reply){status, body};
}

static reply ok(int status, json_t *body)
{
    return body ? (reply){status, body} : fail(HTTP_INTERNAL, "out of memory");
}

/* The reply to a library failure st, whose message is in err (every failure fills it, ttt_fail): 500 when
 * memory ran out, 409 when the request does not fit the game's state (TTT_ESTATE), 422 for the rest (what
 * the request says); context, when not NULL, prefixes the message ("engine: ..."). */
static reply fail_with(ttt_status st, const char *context, const ttt_error *err)
{
    int status = st == TTT_ENOMEM ? HTTP_INTERNAL : st == TTT_ESTATE ? HTTP_CONFLICT : HTTP_UNPROCESSABLE;
    return context ? fail(status, "%s: %s", context, err->msg) : fail(status, "%s", err->msg);
}

/* --- Request bodies ------------------------------------------------------------------------------------- */

/* Parses body as a JSON object whose keys are all in allowed (NULL-terminated). An empty body is {}. */
static reply parse_body(const char *body, size_t len, const char *const *allowed, json_t **out)
{
    *out = NULL;
    json_error_t jerr;
    json_t *o = len == 0 ? json_object() : json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!o)
        return fail(HTTP_BAD_REQUEST, "malformed JSON: %s (line %d, column %d)", jerr.text, jerr.line,
                    jerr.column);
    if (!json_is_object(o)) {
        json_decref(o);
        return fail(HTTP_BAD_REQUEST, "the body must be a JSON object");
    }
    const char *key;
    json_t *value;
    json_object_foreach(o, key, value)
    {
        bool known = false;
        for (const char *const *a = allowed; *a && !known; a++)
            known = strcmp(*a, key) == 0;
        if (!known) {
            char list[256] = ""; /* the field names of one route: a few short words */
            for (const char *const *a = allowed; *a; a++) {
                assert(strlen(list) + strlen(*a) + 2 < sizeof list);
                strcat(strcat(list, a == allowed ? "" : ", "), *a);
            }
            reply r = fail(HTTP_BAD_REQUEST, "unknown field '%s' (known: %s)", key, *allowed ? list : "none");
            json_decref(o);
            return r;
        }
    }
    *out = o;
    return (reply){0, NULL};
}

/* The field key of o in *v, NULL when absent or null; 400 saying what it must be when not of type (JSON_TRUE
 * stands for either boolean). */
static reply get_typed(json_t *o, const char *key, json_type type, const char *must, json_t **v)
{
    *v = json_object_get(o, key);
    if (!*v || json_is_null(*v)) {
        *v = NULL;
        return (reply){0, NULL};
    }
    if (type == JSON_TRUE ? !json_is_boolean(*v) : json_typeof(*v) != type)
        return fail(HTTP_BAD_REQUEST, "field '%s' must be %s", key, must);
    return (reply){0, NULL};
}

/* A string field: *out is NULL when absent or null; 400 when it has another type. */
static reply get_string(json_t *o, const char *key, const char **out)
{
    json_t *v;
    reply r = get_typed(o, key, JSON_STRING, "a string", &v);
    *out = v ? json_string_value(v) : NULL;
    return r;
}

/* An integer field in [min, max]: *out keeps its value when absent; 400 for another type or range. */
static reply get_int(json_t *o, const char *key, long long min, long long max, long long *out)
{
    json_t *v;
    reply r = get_typed(o, key, JSON_INTEGER, "an integer", &v);
    if (r.body || !v)
        return r;
    long long n = json_integer_value(v);
    if (n < min || n > max)
        return fail(HTTP_BAD_REQUEST, "field '%s' must be from %lld to %lld", key, min, max);
    *out = n;
    return (reply){0, NULL};
}

/* A boolean field: *out keeps its value when absent; 400 for another type. */
static reply get_bool(json_t *o, const char *key, bool *out)
{
    json_t *v;
    reply r = get_typed(o, key, JSON_TRUE, "true or false", &v);
    if (v && !r.body)
        *out = json_is_true(v);
    return r;
}

void web_client_group(const char *address, char *out, size_t size)
{
    struct in6_addr v6;
    char text[INET6_ADDRSTRLEN];
    if (inet_pton(AF_INET6, address, &v6) != 1) { /* IPv4, a group already, or unknown: as it is */
        snprintf(out, size, "%s", address);
        return;
    }
    if (IN6_IS_ADDR_V4MAPPED(&v6)) { /* ::ffff:192.0.2.1 is 192.0.2.1 */
        inet_ntop(AF_INET, &v6.s6_addr[WEB_V4MAPPED_OFFSET], text, sizeof text);
        snprintf(out, size, "%s", text);
        return;
    }
    memset(&v6.s6_addr[WEB_V6_PREFIX_BITS / 8], 0, sizeof v6.s6_addr - WEB_V6_PREFIX_BITS / 8);
    inet_ntop(AF_INET6, &v6, text, sizeof text);
    snprintf(out, size, "%s/%d", text, WEB_V6_PREFIX_BITS);
}

unsigned long web_api_engines_made(web_api *api) { return web_engines_made(api->engines); }

/* The player of a side of g. */
static ttt_game_player *player_of(const web_game *g, ttt_player side) { return ttt_game_side(g->game, side); }

/* Under api->lock, for a game no request uses (refs 0) or that is being dropped: frees its engines. */
static void game_drop_engines(web_api *api, web_game *g)
{
    for (int side = TTT_X; g->game && side <= TTT_O; side++) {
        ttt_engine *e = ttt_game_set_engine(g->game, (ttt_player)side, NULL);
        if (e) {
            web_engines_drop(api->engines, e);
            api->live_engines--;
        }
    }
}

/* Keeps e as the engine of g's side (g is in use by the caller, refs > 0): true when kept, false when every
 * kept engine belongs to a game in use and e is for this request only. Makes room by dropping the engines of
 * the least recently used game no request uses. */
static bool engine_keep(web_api *api, web_game *g, int side, ttt_engine *e)
{
    pthread_mutex_lock(&api->lock);
    while (api->live_engines >= WEB_MAX_LIVE_ENGINES) {
        web_game *lru = NULL;
        for (int i = 0; i < api->count; i++) {
            web_game *o = api->games[i];
            if (o->refs == 0 && (player_of(o, TTT_X)->engine || player_of(o, TTT_O)->engine) &&
                (!lru || o->last_used_ms < lru->last_used_ms))
                lru = o;
        }
        if (!lru)
            break;
        game_drop_engines(api, lru);
    }
    bool kept = api->live_engines < WEB_MAX_LIVE_ENGINES;
    if (kept) {
        ttt_game_set_engine(g->game, (ttt_player)side, e);
        api->live_engines++;
    }
    pthread_mutex_unlock(&api->lock);
    return kept;
}

/* --- The game table ------------------------------------------------------------------------------------- */

web_api *web_api_new(const web_api_config *config)
{
    if (!config || config->max_games <= 0 || config->idle_expiry_s <= 0)
        return NULL;
    web_api *api = calloc(1, sizeof *api);
    if (!api)
        return NULL;
    api->config = *config;
    api->games = calloc((size_t)config->max_games, sizeof *api->games);
    api->engines = api->games ? web_engines_new(config->store) : NULL;
    if (!api->engines) {
        free(api->games);
        free(api);
        return NULL;
    }
    web_engines_limits limits = web_engines_default_limits();
    limits.table_bytes = config->table_mib > 0 ? (uint64_t)config->table_mib << 20 : limits.table_bytes;
    limits.table_shares = config->table_shares > 0 ? config->table_shares : limits.table_shares;
    limits.budget_ms = config->engine_budget_ms > 0 ? config->engine_budget_ms : 0;
    limits.log = config->log;
    limits.log_ctx = config->log_ctx;
    web_engines_limit(api->engines, &limits);
    pthread_mutex_init(&api->lock, NULL);
    pthread_mutex_init(&api->store_lock, NULL);
    if (api->config.max_client_games <= 0)
        api->config.max_client_games = WEB_MAX_CLIENT_GAMES;
    return api;
}

/* Under api->lock: frees a game and its engines. */
static void game_free(web_api *api, web_game *g)
{
    game_drop_engines(api, g);
    ttt_game_free(g->game);
    pthread_mutex_destroy(&g->lock);
    free(g);
}

void web_api_free(web_api *api)
{
    if (!api)
        return;
    for (int i = 0; i < api->count; i++)
        game_free(api, api->games[i]);
    free(api->games);
    web_engines_free(api->engines);
    pthread_mutex_destroy(&api->lock);
    pthread_mutex_destroy(&api->store_lock);
    free(api);
}

/* Whole seconds, at least 1, until ms milliseconds have passed (a Retry-After). */
static int retry_seconds(double ms) { return ms <= 1000.0 ? 1 : (int)((ms + 999.0) / 1000.0); }

/* Whether idle game a should be evicted before b for client: its own games first (it may drop its own
 * recent ones), then finished ones, then the least recently used. */
static bool evict_before(const web_game *a, const web_game *b, const char *client)
{
    bool own_a = strcmp(a->client, client) == 0, own_b = strcmp(b->client, client) == 0;
    if (own_a != own_b)
        return own_a;
    if (a->over != b->over)
        return a->over;
    return a->last_used_ms < b->last_used_ms;
}

/* Under api->lock, for a new game of client: drops games idle longer than the expiry; when the table is
 * still full, one idle game: the client's own oldest, else another address's game idle for more than
 * WEB_EVICT_GUARD_S (finished ones first, then the least recently used). Games in use by a request, and
 * others' games played within the guard, stay. Returns true when there is room; else *retry_s is when a
 * game leaves the guard. */
static bool make_room(web_api *api, const char *client, int *retry_s)
{
    double now = ttt_clock_ms(), expiry = (double)api->config.idle_expiry_s * 1000.0;
    double guard = WEB_EVICT_GUARD_S * 1000.0, soonest = guard;
    int victim = -1;
    for (int i = 0; i < api->count;) {
        web_game *g = api->games[i];
        double idle = now - g->last_used_ms;
        if (g->refs == 0 && idle > expiry) {
            game_free(api, g);
            api->games[i] = api->games[--api->count];
            continue;
        }
        bool evictable = g->refs == 0 && (strcmp(g->client, client) == 0 || idle > guard);
        if (evictable && (victim < 0 || evict_before(g, api->games[victim], client)))
            victim = i;
        if (g->refs == 0 && !evictable && guard - idle < soonest)
            soonest = guard - idle;
        i++;
    }
    if (api->count < api->config.max_games)
        return true;
    if (victim < 0) {
        *retry_s = retry_seconds(soonest);
        return false;
    }
    game_free(api, api->games[victim]);
    api->games[victim] = api->games[--api->count];
    return true;
}

static void new_id(web_api *api, char *id)
{
    uint64_t r;
    if (getrandom(&r, sizeof r, 0) !=
        (ssize_t)sizeof r) /* unpredictable ids; a counter if the kernel fails */
        r = UINT64_C(0x9E3779B97F4A7C15) * ++api->id_counter ^ (uint64_t)time(NULL);
    snprintf(id, WEB_ID_SIZE, "%016" PRIx64, r);
}

/* Finds a game and takes a reference (release with game_release). NULL when unknown or expired. */
static web_game *game_acquire(web_api *api, const char *id)
{
    web_game *found = NULL;
    pthread_mutex_lock(&api->lock);
    double now = ttt_clock_ms();
    for (int i = 0; i < api->count; i++)
        if (strcmp(api->games[i]->id, id) == 0) {
            web_game *g = api->games[i];
            if (g->refs == 0 && now - g->last_used_ms > (double)api->config.idle_expiry_s * 1000.0) {
                game_free(api, g);
                api->games[i] = api->games[--api->count];
            } else {
                found = g;
                g->refs++;
                g->last_used_ms = now;
            }
            break;
        }
    pthread_mutex_unlock(&api->lock);
    return found;
}

/* Drops the reference game_acquire took; over: the game is over after the request (it stops counting as
 * its client's live game). */
static void game_release(web_api *api, web_game *g, bool over)
{
    pthread_mutex_lock(&api->lock);
    g->over = over;
    g->refs--;
    g->last_used_ms = ttt_clock_ms();
    pthread_mutex_unlock(&api->lock);
}

/* --- Game state as JSON --------------------------------------------------------------------------------- */

static const char *side_name(ttt_player p) { return p == TTT_X ? "x" : p == TTT_O ? "o" : NULL; }

static const char *outcome_name(ttt_outcome o)
{
    switch (o) {
    case TTT_X_WINS: return "x";
    case TTT_O_WINS: return "o";
    case TTT_DRAW: return "draw";
    case TTT_ONGOING: break;
    }
    return "ongoing";
}

static json_t *move_json(const ttt_rules *rules, ttt_move m)
{
    char text[TTT_MOVE_TEXT_SIZE];
    return json_string(ttt_move_format(rules, m, text, sizeof text));
}

static json_t *rules_json(const ttt_rules *r)
{
    char text[TTT_RULES_TEXT_SIZE];
    return json_pack("{s:s, s:i, s:i, s:i, s:b}", "text", ttt_rules_format(r, text, sizeof text), "rows",
                     r->rows, "cols", r->cols, "k", r->k, "misere", r->misere);
}

/* The board as rows of 'x', 'o', '.'. */
static json_t *rows_json(const ttt_board *b)
{
    json_t *rows = json_array();
    char row[TTT_MAX_SIDE + 1];
    for (int r = 0; r < b->rules.rows; r++) {
        for (int c = 0; c < b->rules.cols; c++) {
            ttt_player p = ttt_board_at(b, r * b->rules.cols + c);
            row[c] = p == TTT_X ? 'x' : p == TTT_O ? 'o' : '.';
        }
        row[b->rules.cols] = '\0';
        json_array_append_new(rows, json_string(row));
    }
    return rows;
}

static json_t *game_json(const web_game *g)
{
    const ttt_game *s = g->game;
    const ttt_board *b = &s->board;
    ttt_outcome outcome = ttt_board_outcome(b);
    json_t *moves = json_array(), *line = json_array();
    for (int i = 0; i < s->count; i++)
        json_array_append_new(moves, move_json(&b->rules, s->moves[i]));
    ttt_move cells[TTT_MAX_SIDE];
    int n = ttt_board_line_cells(b, cells);
    for (int i = 0; i < n; i++)
        json_array_append_new(line, move_json(&b->rules, cells[i]));
    char position[TTT_POSITION_TEXT_SIZE];
    ttt_player to_move = ttt_board_terminal(b) ? TTT_NOBODY : ttt_board_to_move(b);
    return json_pack("{s:s, s:o, s:o, s:s, s:o, s:o, s:s, s:o, s:o, s:{s:s, s:s}, s:b}", "id", g->id, "rules",
                     rules_json(&b->rules), "board", rows_json(b), "position",
                     ttt_position_format(b, position, sizeof position), "to_move",
                     to_move == TTT_NOBODY ? json_null() : json_string(side_name(to_move)), "moves", moves,
                     "outcome", outcome_name(outcome), "winning_line", line, "last_move",
                     s->count ? move_json(&b->rules, s->moves[s->count - 1]) : json_null(), "players", "x",
                     player_of(g, TTT_X)->who, "o", player_of(g, TTT_O)->who, "engine_to_move",
                     to_move != TTT_NOBODY && !ttt_game_is_human(player_of(g, to_move)));
}

/* --- Finished games ------------------------------------------------------------------------------------- */

/* One line in the server's log (config.log), if it has one. */
static void web_log(const web_api *api, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void web_log(const web_api *api, const char *fmt, ...)
{
    if (!api->config.log)
        return;
    char line[sizeof(ttt_error) + 128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    api->config.log(api->config.log_ctx, line);
}

/* Every finished game passes through here exactly once (with the game locked), at the first time it ends:
 * an undo that reopens it and a second ending are not recorded again. */
static void web_game_finished(web_api *api, web_game *g)
{
    if (g->finished)
        return;
    g->finished = true;
    ttt_game *s = g->game;
    /* Engines that learn (the learner) are told how the game went: the player's own engine, or, when it was
     * never made (it had no move yet) or was dropped, a fresh one for the purpose (only an engine with a
     * memory learns anything); both share the server's database, which records the game once. A failure does
     * not undo the game: it goes to the server's log. */
    ttt_engine *fresh[2] = {NULL, NULL};
    for (int side = TTT_X; side <= TTT_O; side++) {
        ttt_game_player *p = player_of(g, (ttt_player)side);
        ttt_error err;
        if (p->engine || ttt_game_is_human(p) || !ttt_engine_has_option(p->spec, "memory"))
            continue;
        if (web_engines_make(api->engines, p->spec, &s->rules, &fresh[side], &err) == TTT_OK)
            ttt_game_set_engine(s, (ttt_player)side, fresh[side]);
        else
            web_log(api, "game %s: %c's engine did not learn it: %s", g->id, side == TTT_X ? 'X' : 'O',
                    err.msg);
    }
    ttt_error learn_err;
    if (ttt_game_tell_engines(s, &learn_err) != TTT_OK)
        web_log(api, "game %s: an engine did not learn it: %s", g->id, learn_err.msg);
    for (int side = TTT_X; side <= TTT_O; side++)
        if (fresh[side])
            web_engines_drop(api->engines, ttt_game_set_engine(s, (ttt_player)side, NULL));
    if (!api->config.store)
        return;
    /* The record: the players as the client named them ("human", "hard", "minimax:time=500"). A failure to
     * record does not undo the game, which the client already has: it is left out of the history, and said
     * in the server's log. */
    ttt_game_record rec;
    ttt_error err;
    const ttt_game_player *x = player_of(g, TTT_X), *o = player_of(g, TTT_O);
    ttt_status st = ttt_game_record_make(&s->rules, s->moves, s->count, ttt_game_is_human(x) ? NULL : x->who,
                                         ttt_game_is_human(o) ? NULL : o->who, (int64_t)s->started,
                                         (int64_t)s->ended, &rec, &err);
    if (st == TTT_OK) {
        pthread_mutex_lock(&api->store_lock);
        st = ttt_store_add_game(api->config.store, &rec, NULL, &err);
        pthread_mutex_unlock(&api->store_lock);
    }
    if (st != TTT_OK)
        web_log(api, "game %s not recorded: %s", g->id, err.msg);
}

/* --- Routes --------------------------------------------------------------------------------------------- */

static reply parse_rules(const char *text, ttt_rules *out)
{
    ttt_error err;
    *out = ttt_rules_default();
    if (text && ttt_rules_parse(text, out, &err))
        return fail_with(TTT_EINVAL, NULL, &err);
    return (reply){0, NULL};
}

/* A player field: absent, null or "human" is a person; anything else is an engine spec, bounded. player
 * gets the text as given ("human" for a person), bounded the spec the server runs (TTT_HUMAN for a person). */
static reply parse_player(const web_api *api, json_t *body, const char *key, const ttt_rules *rules,
                          char *player, char *bounded)
{
    const char *spec;
    reply r = get_string(body, key, &spec);
    if (r.body)
        return r;
    if (!spec || strcmp(spec, TTT_HUMAN) == 0) {
        snprintf(player, TTT_SPEC_TEXT_SIZE, "%s", TTT_HUMAN);
        snprintf(bounded, TTT_SPEC_TEXT_SIZE, "%s", TTT_HUMAN);
        return (reply){0, NULL};
    }
    ttt_error err;
    ttt_status st = web_engines_bound(api->engines, spec, rules, WEB_MAX_ENGINE_MS, false, bounded,
                                      TTT_SPEC_TEXT_SIZE, &err);
    if (st)
        return fail_with(st, key, &err);
    snprintf(player, TTT_SPEC_TEXT_SIZE, "%s", spec);
    return (reply){0, NULL};
}

/* Under api->lock: the live games the client created: not over, and not abandoned (idle past the expiry,
 * as good as gone). *retry_s gets the seconds until the first of them is abandoned. */
static int client_games(const web_api *api, const char *client, int *retry_s)
{
    double now = ttt_clock_ms(), expiry = (double)api->config.idle_expiry_s * 1000.0, soonest = expiry;
    int n = 0;
    for (int i = 0; i < api->count; i++) {
        const web_game *g = api->games[i];
        double idle = now - g->last_used_ms;
        if (strcmp(g->client, client) != 0 || g->over || (g->refs == 0 && idle > expiry))
            continue;
        n++;
        if (g->refs == 0 && expiry - idle < soonest)
            soonest = expiry - idle;
    }
    *retry_s = retry_seconds(soonest);
    return n;
}

static reply create_game(web_api *api, const char *client, json_t *body, int *retry_s)
{
    const char *rules_text, *moves_text;
    reply r = get_string(body, "rules", &rules_text);
    ttt_rules rules;
    if (r.body || (r = get_string(body, "moves", &moves_text)).body ||
        (r = parse_rules(rules_text, &rules)).body)
        return r;
    char who[2][TTT_SPEC_TEXT_SIZE], spec[2][TTT_SPEC_TEXT_SIZE];
    if ((r = parse_player(api, body, "x", &rules, who[TTT_X], spec[TTT_X])).body ||
        (r = parse_player(api, body, "o", &rules, who[TTT_O], spec[TTT_O])).body)
        return r;
    ttt_move moves[TTT_MAX_CELLS];
    int count = 0;
    ttt_error err;
    if (moves_text) { /* a game reopened at a position: its moves from the empty board */
        ttt_board b;
        if (ttt_moves_parse(moves_text, &rules, moves, TTT_MAX_CELLS, &count, &err) ||
            ttt_moves_replay(&rules, moves, count, &b, &err))
            return fail_with(TTT_EINVAL, NULL, &err); /* "moves: move 4 'b2': ..." */
    }
    web_game *g = calloc(1, sizeof *g);
    ttt_status st =
        g ? ttt_game_new_unmade(&rules, who[TTT_X], spec[TTT_X], who[TTT_O], spec[TTT_O], &g->game, &err)
          : ttt_fail(&err, TTT_ENOMEM, "out of memory");
    if (st) {
        free(g);
        return fail_with(st, NULL, &err);
    }
    for (int i = 0; i < count; i++)
        ttt_game_play(g->game, moves[i], &err);        /* replayed above: legal */
    g->finished = ttt_board_terminal(&g->game->board); /* over before it was played here: not recorded */
    g->over = g->finished;
    pthread_mutex_init(&g->lock, NULL);
    memcpy(g->client, client, strlen(client) + 1); /* checked by web_api_handle_client */
    pthread_mutex_lock(&api->lock);
    if (client_games(api, client, retry_s) >= api->config.max_client_games) {
        pthread_mutex_unlock(&api->lock);
        game_free(api, g);
        return fail(HTTP_TOO_MANY,
                    "too many games from one address (%d unfinished): play one to its end, or retry in %d s "
                    "(a game untouched for %d s no longer counts)",
                    api->config.max_client_games, *retry_s, api->config.idle_expiry_s);
    }
    if (!make_room(api, client, retry_s)) {
        pthread_mutex_unlock(&api->lock);
        game_free(api, g);
        return fail(HTTP_UNAVAILABLE,
                    "too many games in play (%d, all played in the last %d s): retry in %d s",
                    api->config.max_games, WEB_EVICT_GUARD_S, *retry_s);
    }
    new_id(api, g->id);
    g->last_used_ms = ttt_clock_ms();
    api->games[api->count++] = g;
    json_t *state = game_json(g); /* nobody else knows the id yet */
    pthread_mutex_unlock(&api->lock);
    return ok(HTTP_CREATED, state);
}

static reply play_move(web_api *api, web_game *g, json_t *body)
{
    const char *text, *side;
    reply r = get_string(body, "move", &text);
    if (r.body || (r = get_string(body, "side", &side)).body)
        return r;
    if (!text)
        return fail(HTTP_BAD_REQUEST, "field 'move' is required, e.g. {\"move\": \"b2\"}");
    if (side && strcmp(side, "x") != 0 && strcmp(side, "o") != 0)
        return fail(HTTP_BAD_REQUEST, "field 'side' must be \"x\" or \"o\"");
    ttt_game *s = g->game;
    ttt_error err;
    ttt_move m;
    if (ttt_move_parse(text, &s->rules, &m, &err))
        return fail_with(TTT_EINVAL, NULL, &err);
    if (ttt_board_terminal(&s->board))
        return fail(HTTP_CONFLICT, "the game is over (%s)", outcome_name(ttt_game_outcome(s)));
    ttt_player to_move = ttt_board_to_move(&s->board);
    if (side && strcmp(side, side_name(to_move)) != 0)
        return fail(HTTP_CONFLICT, "out of turn: %s to move", side_name(to_move));
    if (!ttt_game_is_human(player_of(g, to_move)))
        return fail(HTTP_CONFLICT, "out of turn: %s is played by the engine '%s' (POST .../engine)",
                    side_name(to_move), player_of(g, to_move)->who);
    ttt_status st = ttt_game_play(s, m, &err);
    if (st)
        return fail_with(st, NULL, &err);
    if (ttt_board_terminal(&s->board))
        web_game_finished(api, g);
    return ok(HTTP_OK, game_json(g));
}

static json_t *explanation_json(const ttt_rules *rules, const ttt_explanation *x);

/* The answer to a refused engine slot: its status, and when to retry ("retry_after", the Retry-After). */
static reply refused(const web_slot *slot)
{
    reply r = fail(slot->status, "%s", slot->why);
    if (r.body && slot->retry_s > 0)
        json_object_set_new(r.body, "retry_after", json_integer(slot->retry_s));
    return r;
}

/* Runs an engine (bounded spec) on the game within an engine slot: the side's kept engine when side is
 * TTT_X or TTT_O (made and kept at its first move), else one made for this request. The engine is told the
 * game's moves first (after an undo the position does not follow from the last one it saw). *total gets
 * the nodes the engine has counted since it was made. Its time counts for the game's client. why, when not
 * NULL, gets the explanation of the decision (method NULL when the engine cannot explain). */
static reply run_engine(web_api *api, web_game *g, int side, const char *bounded, ttt_move *move,
                        ttt_search_info *info, ttt_explanation *why, uint64_t *total)
{
    const ttt_game *s = g->game;
    web_slot slot;
    if (!web_engines_acquire(api->engines, g->client, bounded, &s->rules, &slot))
        return refused(&slot);
    ttt_error err;
    ttt_status st = TTT_OK;
    ttt_engine *e = side != TTT_NOBODY ? player_of(g, (ttt_player)side)->engine : NULL;
    bool kept = e != NULL;
    if (!e && (st = web_engines_make(api->engines, bounded, &s->rules, &e, &err)) == TTT_OK &&
        side != TTT_NOBODY)
        kept = engine_keep(api, g, side, e);
    if (st == TTT_OK) {
        ttt_engine_follow(e, s->moves, s->count);
        st = ttt_engine_choose_explained(e, &s->board, move, info, why, &err);
        *total = ttt_engine_nodes(e);
        if (!kept)
            web_engines_drop(api->engines, e);
    }
    web_engines_release(api->engines, &slot);
    return st ? fail_with(st, NULL, &err) : (reply){0, NULL};
}

static reply engine_move(web_api *api, web_game *g, json_t *body)
{
    const char *spec;
    bool want_why = true;
    reply r = get_string(body, "engine", &spec);
    if (r.body || (r = get_bool(body, "explain", &want_why)).body)
        return r;
    ttt_game *s = g->game;
    if (ttt_board_terminal(&s->board))
        return fail(HTTP_CONFLICT, "the game is over (%s)", outcome_name(ttt_game_outcome(s)));
    ttt_player to_move = ttt_board_to_move(&s->board);
    const ttt_game_player *p = player_of(g, to_move);
    char bounded[TTT_SPEC_TEXT_SIZE];
    if (spec) {
        ttt_error err;
        ttt_status st = web_engines_bound(api->engines, spec, &s->rules, WEB_MAX_ENGINE_MS, false, bounded,
                                          sizeof bounded, &err);
        if (st)
            return fail_with(st, "engine", &err);
    } else if (!ttt_game_is_human(p)) {
        memcpy(bounded, p->spec, sizeof bounded);
    } else {
        return fail(HTTP_CONFLICT, "%s to move is a person: name an engine, e.g. {\"engine\": \"hard\"}",
                    side_name(to_move));
    }
    /* The side's own engine plays when the spec is the player's (named or not); another is for this move. */
    int side = !ttt_game_is_human(p) && strcmp(bounded, p->spec) == 0 ? (int)to_move : (int)TTT_NOBODY;
    ttt_move m;
    ttt_search_info info;
    uint64_t total = 0;
    ttt_explanation *why = want_why ? malloc(sizeof *why) : NULL;
    if (want_why && !why)
        return fail(HTTP_INTERNAL, "out of memory");
    if ((r = run_engine(api, g, side, bounded, &m, &info, why, &total)).body) {
        free(why);
        return r;
    }
    int ply = s->count;
    ttt_error err;
    ttt_game_play(s, m, &err); /* the engine's move is legal */
    if (ttt_board_terminal(&s->board))
        web_game_finished(api, g);
    json_t *state = game_json(g);
    if (state)
        json_object_set_new(state, "engine",
                            json_pack("{s:s, s:o, s:I, s:f, s:i, s:I}", "spec", bounded, "move",
                                      move_json(&s->rules, m), "nodes", (json_int_t)info.nodes, "ms", info.ms,
                                      "depth", info.depth, "total_nodes", (json_int_t)total));
    json_t *said = state ? json_object_get(state, "engine") : NULL;
    if (said && info.value_name) { /* what the engine thinks of its move, when it says */
        json_object_set_new(said, "value_name", json_string(info.value_name));
        json_object_set_new(said, "value", json_real(info.value));
    }
    if (said) {
        json_object_set_new(said, "ply", json_integer(ply));
        if (why) /* null: the engine cannot explain its decisions */
            json_object_set_new(said, "explanation",
                                why->method ? explanation_json(&s->rules, why) : json_null());
    }
    free(why);
    return ok(HTTP_OK, state);
}

static reply undo_moves(web_game *g, json_t *body)
{
    long long plies = 1;
    reply r = get_int(body, "plies", 1, TTT_MAX_CELLS, &plies);
    if (r.body)
        return r;
    ttt_error err;
    ttt_status st = ttt_game_take_back(g->game, (int)plies, &err);
    return st ? fail_with(st, NULL, &err) : ok(HTTP_OK, game_json(g));
}

static const char *eval_result(const ttt_move_eval *e)
{
    if (e->kind != TTT_EVAL_EXACT)
        return NULL;
    return e->result > 0 ? "win" : e->result < 0 ? "loss" : "draw";
}

/* Analyses b (ongoing) within one budget of ms in all, in an engine slot: the solver alone when no engine
 * is named (bounded NULL); else the solver with WEB_ANALYSE_SOLVER_SHARE of it, then, when it proved not every
 * move, the engine with what the solver left (ttt_hint). bounded is rewritten with the spec the engine
 * ran. */
static ttt_status analyse_within(web_api *api, const ttt_board *b, char *bounded, size_t size, double ms,
                                 ttt_analysis *out, ttt_error *err)
{
    ttt_solver *solver = NULL;
    ttt_engine *e = NULL;
    int tt_mib = b->cells <= WEB_HINT_SMALL_CELLS ? WEB_HINT_TT_MIB_SMALL : WEB_HINT_TT_MIB;
    ttt_status st = ttt_solver_new(&b->rules, tt_mib, &solver, err);
    if (st == TTT_OK && bounded)
        st = web_engines_make(api->engines, bounded, &b->rules, &e, err);
    if (st == TTT_OK)
        st = ttt_hint(solver, b, e, ms, e ? WEB_ANALYSE_SOLVER_SHARE : 1.0, out, err);
    if (st == TTT_OK && e && ttt_engine_can_analyse(e)) {
        char ran[TTT_SPEC_TEXT_SIZE];
        st = web_engines_bound(api->engines, ttt_engine_spec(e, ran, sizeof ran), &b->rules, (uint64_t)ms,
                               true, bounded, size, err);
    }
    web_engines_drop(api->engines, e);
    ttt_solver_free(solver);
    return st;
}

/* The position a request is about: {rules?, position? | moves?} (the empty board when neither), ongoing.
 * moves gets the moves from the empty board when they were given (*count 0 otherwise). */
static reply parse_position(json_t *body, ttt_rules *rules, ttt_board *b, ttt_move *moves, int *count)
{
    const char *rules_text, *position, *moves_text;
    *count = 0;
    reply r = get_string(body, "rules", &rules_text);
    if (r.body || (r = get_string(body, "position", &position)).body ||
        (r = get_string(body, "moves", &moves_text)).body)
        return r;
    if (position && moves_text)
        return fail(HTTP_BAD_REQUEST, "give 'position' or 'moves', not both");
    if ((r = parse_rules(rules_text, rules)).body)
        return r;
    ttt_error err;
    ttt_board_init(b, rules);
    if (position && ttt_position_parse(position, rules, b, &err))
        return fail_with(TTT_EINVAL, NULL, &err);
    if (moves_text && (ttt_moves_parse(moves_text, rules, moves, TTT_MAX_CELLS, count, &err) ||
                       ttt_moves_replay(rules, moves, *count, b, &err)))
        return fail_with(TTT_EINVAL, NULL, &err);
    if (ttt_board_terminal(b))
        return fail(HTTP_CONFLICT, "the game is over (%s): nothing to analyse",
                    outcome_name(ttt_board_outcome(b)));
    return (reply){0, NULL};
}

/* What /api/analyse and /api/explain both read: the position, the optional "engine" and "ms" (1 to
 * WEB_MAX_ENGINE_MS; *ms keeps its default when absent). */
static reply parse_engine_request(json_t *body, ttt_rules *rules, ttt_board *b, ttt_move *played, int *count,
                                  const char **spec, long long *ms)
{
    reply r = parse_position(body, rules, b, played, count);
    if (!r.body)
        r = get_string(body, "engine", spec);
    if (!r.body)
        r = get_int(body, "ms", 1, WEB_MAX_ENGINE_MS, ms);
    return r;
}

static reply analyse(web_api *api, const char *client, json_t *body)
{
    const char *spec;
    long long ms = (long long)TTT_HINT_DEFAULT_MS;
    ttt_rules rules;
    ttt_board b;
    ttt_move played[TTT_MAX_CELLS];
    int count;
    reply r = parse_engine_request(body, &rules, &b, played, &count, &spec, &ms);
    if (r.body)
        return r;
    ttt_error err;
    char bounded[TTT_SPEC_TEXT_SIZE] = "";
    if (spec) { /* its time= is lowered to what the solver leaves (analyse_within) */
        ttt_status st =
            web_engines_bound(api->engines, spec, &rules, (uint64_t)ms, true, bounded, sizeof bounded, &err);
        if (st)
            return fail_with(st, "engine", &err);
    }
    web_slot slot;
    if (!web_engines_acquire(api->engines, client, spec ? bounded : NULL, &rules, &slot))
        return refused(&slot);
    ttt_analysis *a = malloc(sizeof *a);
    ttt_status st = a ? analyse_within(api, &b, spec ? bounded : NULL, sizeof bounded, (double)ms, a, &err)
                      : ttt_fail(&err, TTT_ENOMEM, "out of memory");
    web_engines_release(api->engines, &slot);
    if (st) {
        free(a);
        return fail_with(st, NULL, &err);
    }
    json_t *moves = json_array();
    for (int i = 0; i < a->count; i++) {
        const ttt_move_eval *e = &a->moves[i];
        const char *kind = e->kind == TTT_EVAL_EXACT ? "exact" : e->kind == TTT_EVAL_SCORE ? "score" : "none";
        json_t *mv = json_pack("{s:o, s:i, s:i, s:s}", "move", move_json(&rules, e->move), "row",
                               e->move / rules.cols, "col", e->move % rules.cols, "kind", kind);
        if (e->kind == TTT_EVAL_EXACT) {
            json_object_set_new(mv, "result", json_string(eval_result(e)));
            json_object_set_new(mv, "plies", json_integer(e->plies));
        }
        if (e->kind != TTT_EVAL_NONE)
            json_object_set_new(mv, "score", json_real(e->score));
        json_object_set_new(mv, "share", json_real(e->share));
        json_array_append_new(moves, mv);
    }
    char pos[TTT_POSITION_TEXT_SIZE];
    json_t *out =
        json_pack("{s:o, s:s, s:s, s:s, s:o, s:I, s:f, s:i, s:s*}", "rules", rules_json(&rules), "position",
                  ttt_position_format(&b, pos, sizeof pos), "to_move", side_name(ttt_board_to_move(&b)),
                  "method", a->method, "moves", moves, "nodes", (json_int_t)a->info.nodes, "ms", a->info.ms,
                  "depth", a->info.depth, "engine", bounded[0] ? bounded : NULL);
    free(a);
    return ok(HTTP_OK, out);
}

/* A cell as {move, row, col}. */
static json_t *cell_json(const ttt_rules *rules, ttt_move m)
{
    return json_pack("{s:o, s:i, s:i}", "move", move_json(rules, m), "row", m / rules->cols, "col",
                     m % rules->cols);
}

static json_t *explanation_json(const ttt_rules *rules, const ttt_explanation *x)
{
    json_t *layers = json_array(), *facts = json_array(), *lines = json_array();
    for (int i = 0; i < x->layer_count; i++) {
        const ttt_explain_layer *l = &x->layers[i];
        json_t *cells = json_array();
        for (int c = 0; c < rules->rows * rules->cols; c++)
            if (l->shown[c]) {
                json_t *cell = cell_json(rules, (ttt_move)c);
                json_object_set_new(cell, "value", json_real(l->value[c]));
                json_array_append_new(cells, cell);
            }
        json_array_append_new(layers,
                              json_pack("{s:s, s:s, s:f, s:f, s:b, s:o}", "name", l->name, "scale", l->scale,
                                        "lo", l->lo, "hi", l->hi, "percent", l->percent, "cells", cells));
    }
    for (int i = 0; i < x->fact_count; i++)
        json_array_append_new(facts,
                              json_pack("{s:s, s:f}", "name", x->facts[i].name, "value", x->facts[i].value));
    for (int i = 0; i < x->line_count; i++) {
        const ttt_explain_line *l = &x->lines[i];
        json_t *moves = json_array();
        for (int j = 0; j < l->length; j++)
            json_array_append_new(moves, move_json(rules, l->moves[j]));
        json_t *line = json_pack("{s:s, s:o}", "label", l->label, "moves", moves);
        if (l->note) {
            json_object_set_new(line, "count", json_integer(l->count));
            json_object_set_new(line, "note", json_string(l->note));
        }
        json_array_append_new(lines, line);
    }
    return json_pack("{s:s, s:s*, s:o, s:o, s:o, s:o, s:I, s:f, s:i}", "method", x->method, "step", x->step,
                     "choice", x->choice == TTT_NO_MOVE ? json_null() : move_json(rules, x->choice), "layers",
                     layers, "facts", facts, "lines", lines, "nodes", (json_int_t)x->info.nodes, "ms",
                     x->info.ms, "depth", x->info.depth);
}

/* The spec a client's engine runs with at most ms per move, as a game's engine is bounded, and an engine slot
 * for it charged to client (released by the caller with web_engines_release): 422 for a bad spec, and the
 * slot's refusal (503 busy, 429 over the client's budget, with retry_after) when it is not given. */
static reply bound_in_slot(web_api *api, const char *client, const char *spec, const ttt_rules *rules,
                           long long ms, char *bounded, size_t size, web_slot *slot)
{
    ttt_error err;
    ttt_status st = web_engines_bound(api->engines, spec, rules, (uint64_t)ms, false, bounded, size, &err);
    if (st)
        return fail_with(st, "engine", &err);
    if (!web_engines_acquire(api->engines, client, bounded, rules, slot))
        return refused(slot);
    return (reply){0, NULL};
}

/* POST /api/explain: the engine's own view of the position (ttt_engine_explain), by a fresh engine told the
 * moves, with the budget it plays with (bounded as for a game's engine, at most ms). */
static reply explain(web_api *api, const char *client, json_t *body)
{
    const char *spec;
    long long ms = WEB_MAX_ENGINE_MS;
    ttt_rules rules;
    ttt_board b;
    ttt_move played[TTT_MAX_CELLS];
    int count;
    reply r = parse_engine_request(body, &rules, &b, played, &count, &spec, &ms);
    if (r.body)
        return r;
    if (!spec)
        return fail(HTTP_BAD_REQUEST, "field 'engine' is required, e.g. {\"engine\": \"mcts\"}");
    ttt_error err;
    char bounded[TTT_SPEC_TEXT_SIZE];
    web_slot slot;
    if ((r = bound_in_slot(api, client, spec, &rules, ms, bounded, sizeof bounded, &slot)).body)
        return r;
    ttt_explanation *x = malloc(sizeof *x);
    ttt_engine *e = NULL;
    ttt_status st = x ? web_engines_make(api->engines, bounded, &rules, &e, &err)
                      : ttt_fail(&err, TTT_ENOMEM, "out of memory");
    if (st == TTT_OK) {
        ttt_engine_follow(e, played, count);
        st = ttt_engine_explain(e, &b, x, &err);
    }
    web_engines_drop(api->engines, e);
    web_engines_release(api->engines, &slot);
    if (st) {
        free(x);
        return fail_with(st, NULL, &err);
    }
    char pos[TTT_POSITION_TEXT_SIZE];
    json_t *out = explanation_json(&rules, x);
    free(x);
    if (out) {
        json_object_set_new(out, "rules", rules_json(&rules));
        json_object_set_new(out, "position", json_string(ttt_position_format(&b, pos, sizeof pos)));
        json_object_set_new(out, "to_move", json_string(side_name(ttt_board_to_move(&b))));
        json_object_set_new(out, "engine", json_string(bounded));
    }
    return ok(HTTP_OK, out);
}

/* --- Review: every ply's verdict ------------------------------------------------------------------------ */

/* A review's budget for the whole game when it names none. */
#define WEB_REVIEW_DEFAULT_MS 1000
/* A review's share of its ms for the solver; the engine's estimates get what the solver leaves. */
#define WEB_REVIEW_SOLVER_SHARE 0.5
/* The engine behind the estimates where the solver runs out, bounded as any client's engine. */
#define WEB_REVIEW_ESTIMATOR "mcts"
/* An estimate's least time: below it the tree is too small to say anything. */
#define WEB_REVIEW_MIN_ESTIMATE_MS 2.0

/* "moves": a JSON array of move texts (["b2", "a1"]) or one text ("b2 a1"), played from the empty board of
 * rules into b (legal, the game not over before the last); moves gets them, *count how many. */
static reply get_moves(json_t *body, const ttt_rules *rules, ttt_move *moves, int *count, ttt_board *b)
{
    json_t *v = json_object_get(body, "moves");
    ttt_error err;
    *count = 0;
    ttt_board_init(b, rules);
    if (!v || json_is_null(v))
        return (reply){0, NULL};
    if (json_is_string(v)) {
        if (ttt_moves_parse(json_string_value(v), rules, moves, TTT_MAX_CELLS, count, &err))
            return fail_with(TTT_EINVAL, NULL, &err);
    } else if (json_is_array(v)) {
        if (json_array_size(v) > (size_t)(rules->rows * rules->cols))
            return fail(HTTP_BAD_REQUEST, "field 'moves' has %zu moves, more than the board's %d cells",
                        json_array_size(v), rules->rows * rules->cols);
        size_t i;
        json_t *m;
        json_array_foreach(v, i, m)
        {
            if (!json_is_string(m))
                return fail(HTTP_BAD_REQUEST, "field 'moves': move %zu must be a string such as \"b2\"",
                            i + 1);
            if (ttt_move_parse(json_string_value(m), rules, &moves[i], &err))
                return fail(HTTP_UNPROCESSABLE, "moves: move %zu: %s", i + 1, err.msg);
        }
        *count = (int)json_array_size(v);
    } else {
        return fail(HTTP_BAD_REQUEST, "field 'moves' must be an array of moves such as [\"b2\", \"a1\"]");
    }
    for (int i = 0; i < *count; i++) {
        if (ttt_board_terminal(b))
            return fail(HTTP_CONFLICT, "moves: the game is over (%s) before move %d",
                        outcome_name(ttt_board_outcome(b)), i + 1);
        if (ttt_board_play_checked(b, moves[i], &err))
            return fail(HTTP_UNPROCESSABLE, "moves: move %d: %s", i + 1, err.msg);
    }
    return (reply){0, NULL};
}

/* A position's value for its side to move, as the review knows it. */
typedef struct review_value {
    enum { VALUE_NONE, VALUE_EXACT, VALUE_ESTIMATE } kind;
    int result;    /* VALUE_EXACT: +1 win, 0 draw, -1 loss */
    int plies;     /* VALUE_EXACT: moves to the end with best play */
    double score;  /* VALUE_ESTIMATE: -1..1 */
    double spread; /* VALUE_ESTIMATE: 0..1, the estimate's uncertainty */
} review_value;

/* The value of a finished game for the side to move in it (the side that did not make the last move). */
static review_value finished_value(const ttt_board *b)
{
    ttt_outcome o = ttt_board_outcome(b);
    ttt_player mover = ttt_board_to_move(b);
    int result = o == TTT_DRAW ? 0 : (o == TTT_X_WINS) == (mover == TTT_X) ? 1 : -1;
    return (review_value){.kind = VALUE_EXACT, .result = result, .plies = 0};
}

/* The engine's estimate of b for its side to move: a proven win when it found one, else the win rate of the
 * move it searched most (the one MCTS plays), as a score in [-1, 1], with its spread: twice the standard
 * error of that win rate, at most 1. */
static review_value estimate_value(ttt_engine *e, const ttt_board *b)
{
    ttt_analysis *a = malloc(sizeof *a);
    review_value v = {.kind = VALUE_NONE};
    if (a && ttt_engine_analyse(e, b, a, NULL) == TTT_OK && a->count > 0 &&
        a->moves[0].kind != TTT_EVAL_NONE) {
        const ttt_move_eval *best = &a->moves[0];
        if (best->kind != TTT_EVAL_EXACT || best->result <= 0)
            for (int i = 1; i < a->count; i++)
                if (a->moves[i].kind != TTT_EVAL_NONE && a->moves[i].share > best->share)
                    best = &a->moves[i];
        double n = best->share * (double)a->info.nodes, p = (best->score + 1) / 2;
        double spread = best->kind == TTT_EVAL_EXACT ? 0.0 : n >= 1 ? 2.0 * sqrt(p * (1 - p) / n) : 1.0;
        v = (review_value){.kind = VALUE_ESTIMATE, .score = best->score, .spread = spread < 1 ? spread : 1};
    }
    free(a);
    return v;
}

/* The value after a move, for the side that made it: the next position's value turned round, one ply
 * longer. */
static review_value value_after(review_value next)
{
    next.result = -next.result;
    next.plies += next.kind == VALUE_EXACT;
    next.score = -next.score;
    return next;
}

static json_t *value_json(review_value v)
{
    if (v.kind == VALUE_EXACT)
        return json_pack("{s:s, s:i, s:i}", "kind", "exact", "result", v.result, "plies", v.plies);
    if (v.kind == VALUE_ESTIMATE)
        return json_pack("{s:s, s:f, s:f, s:s}", "kind", "estimate", "score", v.score, "spread", v.spread,
                         "by", WEB_REVIEW_ESTIMATOR);
    return json_null();
}

/* What the move did to the mover's exact value: "best" (the value and its distance kept), "kept the value"
 * (same result, slower win or quicker loss), "threw away a win", "lost the draw"; NULL unless both exact. */
static const char *verdict(review_value before, review_value after)
{
    if (before.kind != VALUE_EXACT || after.kind != VALUE_EXACT)
        return NULL;
    if (after.result == before.result)
        return after.plies == before.plies ? "best" : "kept the value";
    return before.result > 0 ? "threw away a win" : "lost the draw";
}

/* A value as a number from X's point of view, for the timeline; v is for side to move. */
static json_t *value_x_json(review_value v, ttt_player side)
{
    double x = v.kind == VALUE_EXACT ? v.result : v.score;
    return v.kind == VALUE_NONE ? json_null() : json_real(side == TTT_X || x == 0 ? x : -x);
}

/* Values every position of the game (positions[0..count]) within ms in all: the solver first, from the last
 * position back (the later ones are small, and fill the table the earlier ones read) with its share, then
 * the engine's estimates, ms shared out among the positions left. */
static ttt_status review_values(web_api *api, const ttt_board *positions, int count, double ms,
                                review_value *values, ttt_error *err)
{
    double start = ttt_clock_ms(), solver_end = start + ms * WEB_REVIEW_SOLVER_SHARE;
    ttt_solver *solver = NULL;
    int tt_mib = positions[0].cells <= WEB_HINT_SMALL_CELLS ? WEB_HINT_TT_MIB_SMALL : WEB_HINT_TT_MIB;
    ttt_status st = ttt_solver_new(&positions[0].rules, tt_mib, &solver, err);
    int left = 0;
    for (int i = count; i >= 0 && st == TTT_OK; i--) {
        values[i] = (review_value){.kind = VALUE_NONE};
        if (ttt_board_terminal(&positions[i])) {
            values[i] = finished_value(&positions[i]);
            continue;
        }
        double now = ttt_clock_ms();
        ttt_value_result v;
        ttt_limits limits = {.ms = solver_end - now};
        if (limits.ms >= 1 &&
            (st = ttt_solver_value_within(solver, &positions[i], &limits, &v, err)) == TTT_OK && v.proven &&
            v.plies >= 0)
            values[i] = (review_value){.kind = VALUE_EXACT, .result = (int)v.value, .plies = v.plies};
        left += values[i].kind == VALUE_NONE;
    }
    ttt_solver_free(solver);
    ttt_engine *e = NULL;
    for (int i = count; i >= 0 && st == TTT_OK && left > 0; i--) {
        if (values[i].kind != VALUE_NONE)
            continue;
        double share = (start + ms - ttt_clock_ms()) / left--;
        if (share < WEB_REVIEW_MIN_ESTIMATE_MS)
            continue;
        char spec[TTT_SPEC_TEXT_SIZE], bounded[TTT_SPEC_TEXT_SIZE];
        snprintf(spec, sizeof spec, "%s:time=%.0f", WEB_REVIEW_ESTIMATOR, share);
        st = web_engines_bound(api->engines, spec, &positions[i].rules, (uint64_t)share, true, bounded,
                               sizeof bounded, err);
        if (st == TTT_OK)
            st = web_engines_make(api->engines, bounded, &positions[i].rules, &e, err);
        if (st == TTT_OK)
            values[i] = estimate_value(e, &positions[i]);
        web_engines_drop(api->engines, e);
        e = NULL;
    }
    return st;
}

/* POST /api/review: every ply of a game judged for the side that played it (web/api.h). */
static reply review(web_api *api, const char *client, json_t *body)
{
    const char *rules_text;
    long long ms = WEB_REVIEW_DEFAULT_MS;
    ttt_rules rules;
    reply r = get_string(body, "rules", &rules_text);
    if (r.body || (r = get_int(body, "ms", 1, WEB_MAX_ENGINE_MS, &ms)).body ||
        (r = parse_rules(rules_text, &rules)).body)
        return r;
    ttt_move moves[TTT_MAX_CELLS];
    int count;
    ttt_board end;
    if ((r = get_moves(body, &rules, moves, &count, &end)).body)
        return r;
    ttt_board *positions = malloc(sizeof *positions * (size_t)(count + 1));
    review_value *values = malloc(sizeof *values * (size_t)(count + 1));
    ttt_error err;
    ttt_status st = positions && values ? TTT_OK : ttt_fail(&err, TTT_ENOMEM, "out of memory");
    if (st == TTT_OK) {
        ttt_board_init(&positions[0], &rules);
        for (int i = 0; i < count; i++) {
            positions[i + 1] = positions[i];
            ttt_board_play(&positions[i + 1], moves[i]);
        }
        web_slot slot;
        if (!web_engines_acquire(api->engines, client, NULL, &rules, &slot)) {
            free(positions);
            free(values);
            return refused(&slot);
        }
        double start = ttt_clock_ms();
        st = review_values(api, positions, count, (double)ms, values, &err);
        web_engines_release(api->engines, &slot);
        ms = (long long)(ttt_clock_ms() - start + 0.5);
    }
    if (st) {
        free(positions);
        free(values);
        return fail_with(st, NULL, &err);
    }
    json_t *plies = json_array();
    int solved = 0;
    for (int i = 0; i < count; i++) {
        ttt_player mover = ttt_board_to_move(&positions[i]);
        review_value before = values[i], after = value_after(values[i + 1]);
        const char *said = verdict(before, after);
        solved += said != NULL;
        json_array_append_new(plies,
                              json_pack("{s:i, s:o, s:s, s:o, s:o, s:s?, s:b, s:o}", "ply", i, "move",
                                        move_json(&rules, moves[i]), "side", side_name(mover), "before",
                                        value_json(before), "after", value_json(after), "verdict", said,
                                        "exact", said != NULL, "value_x", value_x_json(after, mover)));
    }
    json_t *out =
        json_pack("{s:o, s:o, s:o, s:I, s:i}", "rules", rules_json(&rules), "plies", plies, "value_x_start",
                  value_x_json(values[0], TTT_X), "ms", (json_int_t)ms, "solved", solved);
    free(positions);
    free(values);
    return ok(HTTP_OK, out);
}

/* --- Trace: an engine's decision step by step ----------------------------------------------------------- */

/* Boards the step-through is for: a tree, a grid and their steps stay readable (5x5). */
#define TRACE_MAX_CELLS 25
/* Steps recorded when the request names no limit, and the most it may ask. */
#define TRACE_DEFAULT_STEPS 200
#define TRACE_MAX_STEPS     2000

/* What a trace request builds while the engine searches (trace_step). */
typedef struct trace_json {
    const ttt_rules *rules;
    const ttt_board *b;  /* the position searched */
    json_t *steps;       /* iterations, playouts or rules */
    json_t *tree, *last; /* minimax: the iteration under way, and the last complete one */
    json_t *replies;     /* minimax: the replies to the root move under way */
    int depth;           /* minimax: the iteration under way's depth */
} trace_json;

/* A score of the solver as JSON fields of o: the value (from the side to move at the root), and for a proven
 * one its result and the moves to the end; a window's ends (null: no bound). */
static void trace_score(const trace_json *t, json_t *o, const ttt_trace_step *st)
{
    json_object_set_new(o, "value", json_integer(st->score));
    if (st->score > TTT_SCORE_PROVEN || st->score < -TTT_SCORE_PROVEN) {
        json_object_set_new(o, "result", json_string(st->score > 0 ? "win" : "loss"));
        json_object_set_new(o, "plies", json_integer(ttt_score_plies(t->b, st->score)));
    }
    json_object_set_new(o, "alpha", st->alpha > -TTT_SCORE_WIN ? json_integer(st->alpha) : json_null());
    json_object_set_new(o, "beta", st->beta < TTT_SCORE_WIN ? json_integer(st->beta) : json_null());
    json_object_set_new(o, "exact", json_boolean(st->exact));
}

/* The cells of set that are not in taken, as moves. */
static json_t *cells_json(const ttt_rules *rules, const ttt_bits *set, const ttt_bits *taken)
{
    json_t *a = json_array();
    for (int c = 0; c < rules->rows * rules->cols; c++)
        if (ttt_bits_test(set, c) && !ttt_bits_test(taken, c))
            json_array_append_new(a, move_json(rules, c));
    return a;
}

/* The cells a random game filled: its final stones less those of the board it started from. */
static json_t *filled_json(const ttt_rules *rules, const ttt_trace_step *st, const ttt_board *start)
{
    return json_pack("{s:o, s:o}", "x", cells_json(rules, &st->final[TTT_X], &start->stones[TTT_X]), "o",
                     cells_json(rules, &st->final[TTT_O], &start->stones[TTT_O]));
}

static json_t *moves_json(const ttt_rules *rules, const ttt_move *moves, int count)
{
    json_t *a = json_array();
    for (int i = 0; i < count; i++)
        json_array_append_new(a, move_json(rules, moves[i]));
    return a;
}

/* The recorder (ttt/trace.h): each step of the engine's search into t's JSON. */
static void trace_step(const ttt_trace_step *st, void *user)
{
    trace_json *t = user;
    const ttt_rules *rules = t->rules;
    switch (st->kind) {
    case TTT_TRACE_DEPTH:
        if (t->tree &&
            json_array_size(json_object_get(t->tree, "children")) == (size_t)(t->b->cells - t->b->ply)) {
            json_decref(t->last);
            t->last = t->tree;
        } else {
            json_decref(t->tree);
        }
        t->tree = json_pack("{s:n, s:i, s:[]}", "move", "depth", st->depth, "children");
        json_array_clear(t->replies);
        break;
    case TTT_TRACE_REPLY: {
        json_t *o = json_pack("{s:o, s:b}", "move", move_json(rules, st->path[1]), "pruned", false);
        trace_score(t, o, st);
        json_array_append_new(t->replies, o);
        break;
    }
    case TTT_TRACE_PRUNED:
        for (int i = 0; i < st->count; i++)
            json_array_append_new(
                t->replies, json_pack("{s:o, s:b}", "move", move_json(rules, st->moves[i]), "pruned", true));
        break;
    case TTT_TRACE_ROOT_MOVE: {
        json_t *o = json_pack("{s:o, s:b, s:O}", "move", move_json(rules, st->path[0]), "pruned", false,
                              "children", t->replies);
        trace_score(t, o, st);
        if (t->tree)
            json_array_append_new(json_object_get(t->tree, "children"), o);
        else
            json_decref(o);
        json_decref(t->replies);
        t->replies = json_array();
        break;
    }
    case TTT_TRACE_ITERATION: {
        ttt_board leaf = *t->b;
        for (int i = 0; i < st->path_length; i++)
            ttt_board_play(&leaf, st->path[i]);
        json_t *visits = json_array();
        for (int i = 0; i < st->children; i++)
            json_array_append_new(visits, json_pack("{s:o, s:f, s:f}", "move", move_json(rules, st->child[i]),
                                                    "visits", st->visits[i], "wins", st->wins[i]));
        json_array_append_new(
            t->steps, json_pack("{s:o, s:o, s:b, s:o, s:s, s:b, s:o}", "path",
                                moves_json(rules, st->path, st->path_length), "expanded",
                                st->expanded == TTT_NO_MOVE ? json_null() : move_json(rules, st->expanded),
                                "expanded_root", st->expanded_root, "playout",
                                st->proven ? json_null() : filled_json(rules, st, &leaf), "result",
                                outcome_name(st->outcome), "proven", st->proven, "visits", visits));
        break;
    }
    case TTT_TRACE_PLAYOUT: {
        json_t *scores = json_array();
        ttt_move moves[TTT_MAX_CELLS];
        int n = ttt_board_moves(t->b, moves);
        for (int i = 0; i < n; i++)
            json_array_append_new(scores,
                                  json_pack("{s:o, s:f, s:I}", "move", move_json(rules, moves[i]), "score",
                                            st->grid[moves[i]], "trials", (json_int_t)st->trials));
        json_array_append_new(t->steps,
                              json_pack("{s:o, s:s, s:I, s:o}", "moves", filled_json(rules, st, t->b),
                                        "result", outcome_name(st->outcome), "trials", (json_int_t)st->trials,
                                        "scores", scores));
        break;
    }
    case TTT_TRACE_RULE:
        json_array_append_new(t->steps, json_pack("{s:s, s:b, s:o}", "rule", st->rule, "fired", st->fired,
                                                  "moves", moves_json(rules, st->moves, st->count)));
        break;
    }
}

/* What a trace shows for each engine, and one plain sentence of what its numbers mean. */
static const struct trace_kind {
    const char *engine, *kind, *sentence;
} trace_kinds[] = {
    {"minimax", "tree",
     "Each value is what the position is worth with best play from both sides, for the side to move: a win "
     "(and in how many moves), a loss, 0 for a draw, or a guess where the search stopped; a pruned reply was "
     "never searched, because an earlier reply already showed the move is no better than one found before."},
    {"mcts", "iterations",
     "Visits count how often the search went down through a move, and wins add 1 for every won random game "
     "after it and 1/2 for every draw: wins divided by visits is the move's win rate, and the search plays "
     "the move it visited most."},
    {"montecarlo", "playouts",
     "A square's score adds, over random games played to the end from here, points when the side to move won "
     "with a stone on it and takes points away when it lost: the highest score marks the square that most "
     "often belongs to the winner."},
    {"heuristic", "rules",
     "The heuristic tries fixed rules in order and plays the move of the first rule that gives one: that "
     "rule "
     "fired, the ones after it were never asked."},
    {"learner", "none",
     "The learner looks up the games it remembers that reached this position: for each move, how many of "
     "those games the side to move then won, drew and lost."},
    {"table", "none",
     "Each move's average score over many random games: +10 when it wins at once, -10 when it lets the "
     "opponent win, +1 for a move of the eventual winner and -1 for one of the loser."},
    {"random", "none", "Every legal move has the same chance: the engine draws one at random."},
};

/* POST /api/trace: the engine's decision on a small board, as its search made it (web/api.h). */
static reply trace(web_api *api, const char *client, json_t *body)
{
    const char *rules_text, *position, *spec;
    long long ms = WEB_MAX_ENGINE_MS, limit = TRACE_DEFAULT_STEPS;
    ttt_rules rules;
    reply r = get_string(body, "rules", &rules_text);
    if (r.body || (r = get_string(body, "position", &position)).body ||
        (r = get_string(body, "engine", &spec)).body ||
        (r = get_int(body, "ms", 1, WEB_MAX_ENGINE_MS, &ms)).body ||
        (r = get_int(body, "limit", 1, TRACE_MAX_STEPS, &limit)).body ||
        (r = parse_rules(rules_text, &rules)).body)
        return r;
    if (!spec)
        return fail(HTTP_BAD_REQUEST, "field 'engine' is required, e.g. {\"engine\": \"minimax\"}");
    if (rules.rows * rules.cols > TRACE_MAX_CELLS)
        return fail(HTTP_BAD_REQUEST, "step-through is for boards of at most %d cells", TRACE_MAX_CELLS);
    if (position && json_object_get(body, "moves") && !json_is_null(json_object_get(body, "moves")))
        return fail(HTTP_BAD_REQUEST, "give 'position' or 'moves', not both");
    ttt_move played[TTT_MAX_CELLS];
    int count = 0;
    ttt_board b;
    ttt_error err;
    if ((r = get_moves(body, &rules, played, &count, &b)).body)
        return r;
    if (position && ttt_position_parse(position, &rules, &b, &err))
        return fail_with(TTT_EINVAL, NULL, &err);
    if (ttt_board_terminal(&b))
        return fail(HTTP_CONFLICT, "the game is over (%s): nothing to decide",
                    outcome_name(ttt_board_outcome(&b)));
    char bounded[TTT_SPEC_TEXT_SIZE];
    web_slot slot;
    if ((r = bound_in_slot(api, client, spec, &rules, ms, bounded, sizeof bounded, &slot)).body)
        return r;
    ttt_status st;
    ttt_trace *rec = calloc(1, sizeof *rec);
    ttt_explanation *why = malloc(sizeof *why);
    trace_json t = {.rules = &rules, .b = &b, .steps = json_array(), .replies = json_array()};
    if (!rec || !why || !t.steps || !t.replies) {
        web_engines_release(api->engines, &slot);
        free(rec);
        free(why);
        json_decref(t.steps);
        json_decref(t.replies);
        return fail(HTTP_INTERNAL, "out of memory");
    }
    *rec = (ttt_trace){.fn = trace_step, .user = &t, .limit = (uint64_t)limit};
    ttt_engine *e = NULL;
    ttt_move choice = TTT_NO_MOVE;
    st = web_engines_make(api->engines, bounded, &rules, &e, &err);
    if (st == TTT_OK) {
        if (count)
            ttt_engine_follow(e, played, count);
        ttt_engine_set_trace(e, rec);
        st = ttt_engine_choose_explained(e, &b, &choice, NULL, why, &err);
    }
    web_engines_drop(api->engines, e);
    web_engines_release(api->engines, &slot);
    json_t *tree = t.tree && json_array_size(json_object_get(t.tree, "children")) == (size_t)(b.cells - b.ply)
                       ? json_incref(t.tree)
                       : json_incref(t.last ? t.last : t.tree);
    json_decref(t.tree);
    json_decref(t.last);
    json_decref(t.replies);
    uint64_t steps = rec->steps;
    free(rec);
    if (st) {
        free(why);
        json_decref(t.steps);
        json_decref(tree);
        return fail_with(st, NULL, &err);
    }
    const struct trace_kind *kind = NULL;
    for (size_t i = 0; i < sizeof trace_kinds / sizeof trace_kinds[0]; i++) {
        size_t n = strlen(trace_kinds[i].engine);
        if (strncmp(bounded, trace_kinds[i].engine, n) == 0 && (bounded[n] == ':' || bounded[n] == '\0'))
            kind = &trace_kinds[i];
    }
    char pos[TTT_POSITION_TEXT_SIZE];
    json_t *out = json_pack("{s:s, s:o, s:o, s:s, s:s, s:o, s:s, s:b, s:I}", "engine", bounded, "choice",
                            move_json(&rules, choice), "explanation",
                            why->method ? explanation_json(&rules, why) : json_null(), "kind",
                            kind ? kind->kind : "none", "sentence",
                            kind          ? kind->sentence
                            : why->method ? why->method
                                          : "This engine does not explain its moves.",
                            "rules", rules_json(&rules), "position", ttt_position_format(&b, pos, sizeof pos),
                            "truncated", steps > (uint64_t)limit, "steps", (json_int_t)steps);
    free(why);
    const char *key = kind && strcmp(kind->kind, "none") != 0 ? kind->kind : NULL;
    if (out && key && strcmp(key, "tree") == 0) {
        if (tree) {
            json_t *children = json_object_get(tree, "children");
            size_t i;
            json_t *ch;
            json_int_t best = 0;
            bool any = false;
            json_array_foreach(children, i, ch)
            {
                json_int_t v = json_integer_value(json_object_get(ch, "value"));
                if (!any || v > best)
                    best = v;
                any = true;
            }
            json_object_set_new(tree, "value", any ? json_integer(best) : json_null());
            json_object_set_new(tree, "alpha", json_null());
            json_object_set_new(tree, "beta", json_null());
        }
        json_object_set_new(out, "tree", tree ? tree : json_null());
        tree = NULL;
    } else if (out && key) {
        json_object_set(out, key, t.steps);
    }
    json_decref(tree);
    json_decref(t.steps);
    return ok(HTTP_OK, out);
}

static reply engines(const web_api *api)
{
    json_t *list = json_array(), *levels = json_array();
    for (int i = 0; i < ttt_engine_count(); i++) {
        const ttt_engine_about *a = ttt_engine_about_at(i);
        if (ttt_engine_requires_path(a->name)) /* cmd: the server opens no file a client names */
            continue;
        json_array_append_new(list, json_pack("{s:s, s:s, s:s}", "name", a->name, "summary", a->summary,
                                              "options", a->options));
    }
    for (int i = 0; i < ttt_level_count(); i++) {
        const ttt_level *l = ttt_level_at(i);
        json_array_append_new(
            levels, json_pack("{s:s, s:s, s:s}", "name", l->name, "spec", l->spec, "about", l->about));
    }
    return ok(HTTP_OK,
              json_pack("{s:o, s:o, s:{s:i, s:i, s:i}, s:{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i}}",
                        "engines", list, "levels", levels, "rules", "min_side", TTT_MIN_SIDE, "max_side",
                        TTT_MAX_SIDE, "min_k", TTT_MIN_K, "limits", "max_games", api->config.max_games,
                        "max_client_games", api->config.max_client_games, "idle_expiry_s",
                        api->config.idle_expiry_s, "max_engine_ms", WEB_MAX_ENGINE_MS, "max_body",
                        WEB_MAX_BODY, "max_playout_cells", WEB_MAX_WORK_CELLS, "max_engine_mib",
                        WEB_MAX_ENGINE_MIB, "max_table_entries", WEB_MAX_TABLE_ENTRIES));
}

/* The fields each body may have. */
static const char *const fields_create[] = {"rules", "x", "o", "moves", NULL};
static const char *const fields_move[] = {"move", "side", NULL};
static const char *const fields_engine[] = {"engine", "explain", NULL};
static const char *const fields_undo[] = {"plies", NULL};
static const char *const fields_analyse[] = {"rules", "position", "moves", "engine", "ms", NULL};
static const char *const fields_review[] = {"rules", "moves", "ms", NULL};
static const char *const fields_trace[] = {"rules", "moves", "position", "engine", "ms", "limit", NULL};
static const char *const fields_none[] = {NULL};

typedef enum game_action { ACTION_STATE, ACTION_MOVE, ACTION_ENGINE, ACTION_UNDO } game_action;

static reply game_route(web_api *api, const char *method, const char *rest, const char *body, size_t len,
                        const char **allow)
{
    /* rest is "{id}" or "{id}/action" */
    const char *slash = strchr(rest, '/');
    size_t id_len = slash ? (size_t)(slash - rest) : strlen(rest);
    const char *action = slash ? slash + 1 : "";
    game_action what;
    const char *const *fields;
    if (!*action) {
        what = ACTION_STATE, fields = fields_none, *allow = "GET";
    } else if (strcmp(action, "move") == 0) {
        what = ACTION_MOVE, fields = fields_move, *allow = "POST";
    } else if (strcmp(action, "engine") == 0) {
        what = ACTION_ENGINE, fields = fields_engine, *allow = "POST";
    } else if (strcmp(action, "undo") == 0) {
        what = ACTION_UNDO, fields = fields_undo, *allow = "POST";
    } else {
        *allow = NULL;
        return fail(HTTP_NOT_FOUND, "no such route: %s (known: move, engine, undo)", action);
    }
    if (strcmp(method, *allow) != 0)
        return fail(HTTP_METHOD_NOT_ALLOWED, "method %s not allowed here (use %s)", method, *allow);
    *allow = NULL;
    char id[WEB_ID_SIZE];
    if (id_len == 0 || id_len >= sizeof id)
        return fail(HTTP_NOT_FOUND, "no game '%.*s'", (int)(id_len > 32 ? 32 : id_len), rest);
    memcpy(id, rest, id_len);
    id[id_len] = '\0';
    json_t *o = NULL;
    reply r = what == ACTION_STATE ? (reply){0, NULL} : parse_body(body, len, fields, &o);
    if (r.body)
        return r;
    web_game *g = game_acquire(api, id);
    if (!g) {
        json_decref(o);
        return fail(HTTP_NOT_FOUND, "no game '%s' (unknown or expired)", id);
    }
    pthread_mutex_lock(&g->lock);
    switch (what) {
    case ACTION_STATE: r = ok(HTTP_OK, game_json(g)); break;
    case ACTION_MOVE: r = play_move(api, g, o); break;
    case ACTION_ENGINE: r = engine_move(api, g, o); break;
    case ACTION_UNDO: r = undo_moves(g, o); break;
    }
    bool over = ttt_board_terminal(&g->game->board);
    pthread_mutex_unlock(&g->lock);
    game_release(api, g, over);
    json_decref(o);
    return r;
}

static reply route(web_api *api, const char *client, const char *method, const char *path, const char *body,
                   size_t len, const char **allow, int *retry_s)
{
    static const char games_prefix[] = "/api/games/";
    json_t *o = NULL;
    reply r;
    if (strcmp(path, "/api/engines") == 0) {
        *allow = "GET";
        return strcmp(method, "GET") == 0
                   ? engines(api)
                   : fail(HTTP_METHOD_NOT_ALLOWED, "method %s not allowed here (use GET)", method);
    }
    if (strcmp(path, "/api/games") == 0 || strcmp(path, "/api/analyse") == 0 ||
        strcmp(path, "/api/explain") == 0) {
        bool create = path[5] == 'g', why = path[5] == 'e';
        *allow = "POST";
        if (strcmp(method, "POST") != 0)
            return fail(HTTP_METHOD_NOT_ALLOWED, "method %s not allowed here (use POST)", method);
        if ((r = parse_body(body, len, create ? fields_create : fields_analyse, &o)).body)
            return r;
        r = create ? create_game(api, client, o, retry_s)
            : why  ? explain(api, client, o)
                   : analyse(api, client, o);
        json_decref(o);
        return r;
    }
    if (strcmp(path, "/api/review") == 0 || strcmp(path, "/api/trace") == 0) {
        bool judge = path[5] == 'r';
        *allow = "POST";
        if (strcmp(method, "POST") != 0)
            return fail(HTTP_METHOD_NOT_ALLOWED, "method %s not allowed here (use POST)", method);
        if ((r = parse_body(body, len, judge ? fields_review : fields_trace, &o)).body)
            return r;
        r = judge ? review(api, client, o) : trace(api, client, o);
        json_decref(o);
        return r;
    }
    if (strncmp(path, games_prefix, sizeof games_prefix - 1) == 0)
        return game_route(api, method, path + sizeof games_prefix - 1, body, len, allow);
    return fail(HTTP_NOT_FOUND, "no such route: %.100s", path);
}

bool web_api_needs_engine(const char *method, const char *path)
{
    static const char games_prefix[] = "/api/games/", engine_suffix[] = "/engine";
    if (strcmp(method, "POST") != 0)
        return false;
    size_t len = strlen(path), suffix = sizeof engine_suffix - 1;
    bool game_engine = strncmp(path, games_prefix, sizeof games_prefix - 1) == 0 && len > suffix &&
                       strcmp(path + len - suffix, engine_suffix) == 0;
    return game_engine || strcmp(path, "/api/analyse") == 0 || strcmp(path, "/api/explain") == 0 ||
           strcmp(path, "/api/review") == 0 || strcmp(path, "/api/trace") == 0;
}

int web_api_handle(web_api *api, const char *method, const char *path, const char *body, size_t len,
                   char **json, const char **allow)
{
    return web_api_handle_client(api, NULL, method, path, body, len, json, allow, NULL);
}

int web_api_handle_client(web_api *api, const char *client, const char *method, const char *path,
                          const char *body, size_t len, char **json, const char **allow, int *retry_after_s)
{
    *allow = NULL;
    int retry_s = 0;
    if (!client)
        client = "unknown";
    char group[WEB_CLIENT_SIZE];
    if (strlen(client) < WEB_CLIENT_SIZE)
        web_client_group(client, group, sizeof group);
    reply r = strlen(client) < WEB_CLIENT_SIZE
                  ? route(api, group, method, path, body, len, allow, &retry_s)
                  : fail(HTTP_BAD_REQUEST, "client address longer than %d characters", WEB_CLIENT_SIZE - 1);
    if (r.status != HTTP_METHOD_NOT_ALLOWED)
        *allow = NULL;
    json_t *said = r.body ? json_object_get(r.body, "retry_after") : NULL; /* an engine slot's refusal */
    if (said)
        retry_s = (int)json_integer_value(said);
    else if (retry_s > 0 && r.body && (r.status == HTTP_TOO_MANY || r.status == HTTP_UNAVAILABLE))
        json_object_set_new(r.body, "retry_after", json_integer(retry_s));
    if (retry_after_s)
        *retry_after_s = r.status == HTTP_TOO_MANY || r.status == HTTP_UNAVAILABLE ? retry_s : 0;
    *json = dump(r.body);
    if (!*json) {
        *json = web_api_error_json("out of memory");
        return HTTP_INTERNAL;
    }
    return r.status;
}
