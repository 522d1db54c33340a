/*
 * web/api.h - the JSON API of `ttt serve`, without HTTP: a request (method, path, body) in, a status code
 * and a JSON text out. The HTTP layer (web/server.c) only moves bytes; everything the API decides lives here,
 * so it can be exercised without a socket.
 *
 * Routes (README, "ttt serve"):
 *
 *     GET  /api/engines                 engines, levels and the server's limits (for the page's selects)
 *     POST /api/games                   {rules?, x?, o?} -> a new game's state (201)
 *     GET  /api/games/{id}              the game's state
 *     POST /api/games/{id}/move         {move, side?}: a person's move
 *     POST /api/games/{id}/engine       {engine?}: the side to move's engine plays (or the engine named)
 *     POST /api/games/{id}/undo         {plies?}: takes back the last move(s)
 *     POST /api/analyse                 {rules?, position? | moves?, engine?, ms?} -> every move's value
 *
 * Every error is {"error": "one line"} with a 4xx status (5xx only for running out of memory or of room for
 * games). Bodies must be JSON objects with only the documented fields.
 *
 * Threads: web_api_handle may be called from many threads at once. The game table has one mutex, held only
 * to find, add or evict a game; each game has its own mutex, held while an engine thinks about it, so a slow
 * engine holds up only requests for its own game.
 */
#ifndef TTT_WEB_API_H
#define TTT_WEB_API_H

#include <stddef.h>

#include "ttt/ttt.h"

/* Limits. Every one is a named constant here and shown by GET /api/engines. */
#define WEB_MAX_GAMES_DEFAULT     1000    /* games in memory; the least recently used idle one makes room */
#define WEB_IDLE_EXPIRY_S_DEFAULT 1800    /* a game untouched this long is dropped */
#define WEB_MAX_ENGINE_MS         2000    /* no engine or hint thinks longer than this per request */
#define WEB_MAX_TT_MIB            16      /* minimax transposition tables are clamped to this */
#define WEB_HINT_TT_MIB           8       /* the solver table of one analysis */
#define WEB_HINT_TT_MIB_SMALL     1       /* ... on boards of up to WEB_HINT_SMALL_CELLS cells (4x4 misère */
#define WEB_HINT_SMALL_CELLS      16      /* analyses need ~100k nodes; a small table halves 3x3's p99) */
#define WEB_MAX_PLAYOUT_CELLS     6000000 /* montecarlo without time=: trials x cells at most this */
#define WEB_MAX_ENGINE_JOBS       4       /* engines and analyses thinking at once; more requests wait */
#define WEB_ENGINE_WAIT_MS        10000   /* a request waits this long for an engine slot, then gets 503 */
#define WEB_MAX_BODY              16384   /* bytes of a request body (server.c answers 413 above it) */
#define WEB_ID_SIZE               17      /* 16 hex digits and the terminator */

typedef struct web_api web_api;

/* The server's log: one line (no newline) about something no response carries, e.g. a finished game that
 * could not be recorded. Called from request threads, possibly several at once. */
typedef void web_log_fn(void *ctx, const char *line);

typedef struct web_api_config {
    int max_games;     /* > 0 */
    int idle_expiry_s; /* > 0 */
    ttt_store *store;  /* where finished games are recorded (not owned; used under a lock), or NULL */
    web_log_fn *log;   /* or NULL: not reported */
    void *log_ctx;     /* log's first argument */
} web_api_config;

/* Makes the API's state (the game table). NULL when out of memory. The config's strings are copied. */
web_api *web_api_new(const web_api_config *config);

/* Frees every game and the table. Call only when no request is running. NULL is allowed. */
void web_api_free(web_api *api);

/* Answers one request. method is "GET", "POST", ...; path is the URL path ("/api/games/abc"); body may be
 * NULL when len is 0. Returns the HTTP status and sets *json to a malloc'd JSON text (the caller frees it),
 * and *allow to the methods a 405 answer should list (static text) or NULL. */
int web_api_handle(web_api *api, const char *method, const char *path, const char *body, size_t len,
                   char **json, const char **allow);

/* The JSON error body {"error": msg}, malloc'd (for the HTTP layer's own errors, e.g. 413). */
char *web_api_error_json(const char *msg);

#endif
