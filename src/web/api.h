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
 *     POST /api/review                  {rules?, moves?, ms?} -> each ply's values before and after, verdicts
 *     POST /api/trace                   {rules?, position? | moves?, engine, ms?, limit?} -> the engine's
 *                                       decision step by step (boards of at most 25 cells)
 *
 * Every error is {"error": "one line"} with a 4xx status (429 when the client's address holds too many live
 * games; 5xx only for running out of memory or of room for games). Bodies must be JSON objects with only
 * the documented fields.
 *
 * Threads: web_api_handle may be called from many threads at once. The game table has one mutex, held only
 * to find, add or evict a game; each game has its own mutex, held while an engine thinks about it, so a slow
 * engine holds up only requests for its own game.
 *
 * Engines live with their game: each player's engine is made at its first move (within an engine slot, so
 * that making it counts against WEB_MAX_ENGINE_JOBS) and kept, its tree, memory or table reused move after
 * move, until the game is dropped. At most WEB_MAX_LIVE_ENGINES are kept in all; past that the engines of
 * the least recently used idle game are freed (they are made again, told the game's moves, if it goes on).
 * An engine named in one request that is not the side's player is made for that request only. The table
 * engine's table is built once per rules set, in memory, and shared read-only by every game; a table bigger
 * than WEB_MAX_TABLE_ENTRIES is refused (422). The server writes no file but its database.
 */
#ifndef TTT_WEB_API_H
#define TTT_WEB_API_H

#include <stdbool.h>
#include <stddef.h>

#include "ttt/ttt.h"

/* Limits. Every one is a named constant here and shown by GET /api/engines; figures: bench/web/HISTORY.md. */
#define WEB_MAX_GAMES_DEFAULT     1000    /* games in memory; the least recently used idle one makes room */
#define WEB_IDLE_EXPIRY_S_DEFAULT 1800    /* a game untouched this long is dropped */
#define WEB_MAX_ENGINE_MS         2000    /* no engine or hint thinks longer than this per request */
#define WEB_HINT_TT_MIB           8       /* the solver table of one analysis */
#define WEB_HINT_TT_MIB_SMALL     1       /* ... up to WEB_HINT_SMALL_CELLS cells: 3x3 p99 153 -> 3 ms */
#define WEB_HINT_SMALL_CELLS      16      /* 4x4 misère analyses need ~100k nodes */
#define WEB_MAX_WORK_CELLS        6000000 /* count x cost x cells, time=0 (mcts 7x7k5: 1.56 s) */
#define WEB_MAX_ENGINE_JOBS       4       /* engines and analyses thinking at once; more requests wait */
#define WEB_ENGINE_WAIT_MS        10000   /* a request waits this long for an engine slot, then gets 503 */
#define WEB_MAX_BODY              16384   /* bytes of a request body (server.c answers 413 above it) */
#define WEB_ID_SIZE               17      /* 16 hex digits and the terminator */
#define WEB_MAX_CLIENT_GAMES      100     /* live games one client address may hold; more get 429 */
#define WEB_EVICT_GUARD_S         300 /* a game played this recently is never evicted by another address */
#define WEB_CLIENT_SIZE           64  /* a numeric IPv4 or IPv6 address (INET6_ADDRSTRLEN is 46) */
#define WEB_V6_PREFIX_BITS        64  /* IPv6 clients are counted by network: one host gets a /64 */
#define WEB_V4MAPPED_OFFSET       12  /* where ::ffff:a.b.c.d keeps its IPv4 address */
#define WEB_MAX_LIVE_ENGINES      32  /* engines kept with their games (each at most ~32 MiB) */
#define WEB_MAX_ENGINE_MIB        16  /* an engine's table or tree (tt=, tree=) is clamped to this */
#define WEB_TABLE_BUILD_JOBS      2   /* threads that build a table (the table does not depend on it) */
#define WEB_MAX_TABLE_ENTRIES     1000000 /* a table engine's table (4x4: 2.3 s, 186 MB) */
#define WEB_ANALYSE_SOLVER_SHARE  0.5     /* analyse with an engine: the solver's share of the ms budget */

typedef struct web_api web_api;

/* The server's log: one line (no newline) about something no response carries, e.g. a finished game that
 * could not be recorded. Called from request threads, possibly several at once. */
typedef void web_log_fn(void *ctx, const char *line);

typedef struct web_api_config {
    int max_games;     /* > 0 */
    int idle_expiry_s; /* > 0 */
    /* Live games (not over, not idle past the expiry) one client address may hold, 0 for
     * WEB_MAX_CLIENT_GAMES. A full table makes room for a new game by dropping an idle game: the creating
     * address's own oldest first, else another address's game untouched for WEB_EVICT_GUARD_S (finished
     * ones first, then the least recently used); when there is none, 503 with a Retry-After. */
    int max_client_games;
    /* Move tables kept in memory, in MiB (0 for WEB_TABLE_MIB_DEFAULT), of which one client owns at most
     * 1/table_shares (0 for WEB_TABLE_SHARES; 1: no share, behind a proxy); engine milliseconds one client
     * may use per WEB_BUDGET_WINDOW_S (0: no budget). web/engines.h. */
    int table_mib, table_shares, engine_budget_ms;
    ttt_store *store; /* where finished games are recorded (not owned; used under a lock), or NULL */
    web_log_fn *log;  /* or NULL: not reported */
    void *log_ctx;    /* log's first argument */
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

/* web_api_handle for a client: client is its numeric address ("127.0.0.1", "::1"), shorter than
 * WEB_CLIENT_SIZE, or NULL (all such requests count as one client, "unknown"); IPv6 addresses count by
 * their /64 (web_client_group). The live games a client
 * created (not over, not idle past the expiry) count against its cap (config.max_client_games): past it
 * POST /api/games answers 429. retry_after_s, when not NULL, gets for a 429 or 503 the seconds after which
 * the same request can succeed (a Retry-After header), 0 when not known or for any other answer. */
int web_api_handle_client(web_api *api, const char *client, const char *method, const char *path,
                          const char *body, size_t len, char **json, const char **allow, int *retry_after_s);

/* The client a numeric address counts as in every per-address limit: an IPv4 address as it is, an IPv6
 * address by its /64 network ("2001:db8:1:2::/64": one host commonly holds a whole /64, so counting single
 * addresses would let it take 2^64 shares), an IPv4-mapped IPv6 address as its IPv4 address; anything else
 * (a group already, "unknown") as it is. out gets at most size - 1 characters (WEB_CLIENT_SIZE fits all). */
void web_client_group(const char *address, char *out, size_t size);

/* Whether a request may wait for an engine slot and think (POST /api/analyse, /api/explain,
 * /api/games/{id}/engine): the HTTP layer keeps workers free for the others. */
bool web_api_needs_engine(const char *method, const char *path);

/* Engines the API has made since web_api_new (kept or for one request): for tests and logs. */
unsigned long web_api_engines_made(web_api *api);

/* The JSON error body {"error": msg}, malloc'd (for the HTTP layer's own errors, e.g. 413). */
char *web_api_error_json(const char *msg);

#endif
