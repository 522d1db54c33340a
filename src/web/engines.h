/*
 * web/engines.h - the engines of `ttt serve` (internal to src/web/): client specs bounded by the server's
 * caps; engine slots (at most WEB_MAX_ENGINE_JOBS engines think at once, so that a burst of engine requests
 * queues instead of thrashing the machine), each held for a client and its time charged to that client's
 * budget; and the table engine's tables, built once per rules set in memory, shared read-only, and kept in a
 * cache bounded by bytes, from which the least recently used table no engine holds is evicted first, one
 * client owning at most its share. Every call may come from many request threads at once.
 */
#ifndef TTT_WEB_ENGINES_H
#define TTT_WEB_ENGINES_H

#include "ttt/ttt.h"
#include "web/api.h"

/* What one client may take of the engines. */
#define WEB_BUDGET_WINDOW_S 60 /* the engine-time budget counts the engine time of the last minute ... */
#define WEB_BUDGET_BUCKETS  12 /* ... in steps of 5 s (it leaves the window 5 s at a time) */
#define WEB_BUDGET_MS_DEFAULT                                                                                \
    120000 /* two engines thinking all the time: a person watching engine games with hints on */
#define WEB_BUDGET_CLIENTS 4096 /* clients whose spending is kept; past that the lightest is forgotten */
#define WEB_BUSY_RETRY_S   ((WEB_MAX_ENGINE_MS + 999) / 1000) /* every slot busy: one will be free by then */
#define WEB_TABLE_MIB_DEFAULT                                                                                \
    256                    /* the move tables kept, in all (the largest the server builds, 5x5's: 16 MiB) */
#define WEB_TABLE_SHARES 4 /* one client owns at most a quarter of them */
#define WEB_TABLES_RETRY_S                                                                                   \
    30 /* tables all held by engines: a guess (a request lets go within 2 s, a game at its end) */

typedef struct web_engines web_engines;

/* What the engines may hold (web_api_config's, defaults resolved by web_api_new). */
typedef struct web_engines_limits {
    uint64_t table_bytes; /* > 0: the move tables kept in memory, in all (ttt_table_memory) */
    int table_shares;     /* >= 1: one client owns at most table_bytes / table_shares of them */
    int budget_ms;        /* engine milliseconds per client over WEB_BUDGET_WINDOW_S; 0: no budget */
    int slot_wait_ms;     /* > 0: how long a request waits for an engine slot */
    web_log_fn *log;      /* or NULL: where each table built is said, with the tables' bytes */
    void *log_ctx;
} web_engines_limits;

/* Why a slot is refused, as an HTTP status. */
#define WEB_REFUSED_CLIENT 429 /* the client's own limit: its engine time, its share of the tables */
#define WEB_REFUSED_BUSY   503 /* the server's: every slot busy, every table held */
#define WEB_REFUSED_NEVER  422 /* the request can never be served (a table larger than all the room) */

/* A request's engine slot (web_engines_acquire): whose it is, since when, and the table it reserved; or why
 * it was refused. Lives on the caller's stack from acquire to release. */
typedef struct web_slot {
    char client[WEB_CLIENT_SIZE];
    double since_ms;         /* when the slot was taken (ttt_clock_ms): the engine time charged from here */
    struct web_table *table; /* the table engine's table, held until web_engines_release; or NULL */
    /* When refused: the HTTP status (WEB_REFUSED_*), the seconds after which the same request can succeed
     * (>= 1; 0 when it never can) and one line that says why and when. */
    int status;
    int retry_s;
    char why[TTT_ERROR_SIZE];
} web_slot;

/* How the move tables stand (web_engines_tables), for tests and logs. */
typedef struct web_tables_stats {
    int count;             /* tables in memory */
    uint64_t bytes;        /* their ttt_table_memory, in all: at most limits.table_bytes */
    uint64_t client_bytes; /* of them, owned by the client asked about (the one whose request built it) */
    int in_use;            /* held by an engine or a slot: never freed under it */
    unsigned long built, evicted; /* since web_engines_new */
} web_tables_stats;

/* Makes the server's engine resources, with the default limits (web_engines_limit); store (not owned) is
 * where learners learn, or NULL (--no-record). NULL when out of memory. */
web_engines *web_engines_new(ttt_store *store);

/* The default limits: WEB_TABLE_MIB_DEFAULT, WEB_TABLE_SHARES, no budget, WEB_ENGINE_WAIT_MS. */
web_engines_limits web_engines_default_limits(void);

/* Sets the limits (each field in its range); call before any request. */
void web_engines_limit(web_engines *w, const web_engines_limits *limits);

/* Frees the shared tables. Call when no engine made here is left (every one dropped, web_engines_drop).
 * NULL is allowed. */
void web_engines_free(web_engines *w);

/* The spec the server runs for a client's spec, so that no request can hold the server:
 *   - an option naming a file (file=, memory=) is refused: the server reads no file a client names; and
 *     learn= too: the learner learns exactly when the server records games (learn=1 or learn=0 is added);
 *   - the engine's time, counts and sizes are bounded by the server's caps (ttt_engine_spec_bound): time
 *     at most max_ms, and, unless strict, a count of its own that is its budget (a weak level is a small
 *     count and a fast reply) at most WEB_MAX_WORK_CELLS random-game cells; sizes to WEB_MAX_ENGINE_MIB;
 *   - the table engine is refused on boards whose table the server would not build (at most
 *     WEB_MAX_TABLE_ENTRIES entries, never read from a file).
 * Levels are expanded by the library; out gets the engine's full spec with every option spelled out,
 * without the database's path (web_engines_make adds it). TTT_EINVAL or TTT_ELIMIT with the reason. */
ttt_status web_engines_bound(const web_engines *w, const char *spec, const ttt_rules *rules, uint64_t max_ms,
                             bool strict, char *out, size_t size, ttt_error *err);

/* Makes the engine of a bounded spec (web_engines_bound) for the rules; call within an engine slot. The
 * learner gets the server's database, or none at all (--no-record); the table engine the shared table of its
 * rules (the one its slot reserved; built here, when it was not, owned by nobody); no engine opens or writes
 * any other file. Free the engine with web_engines_drop, never ttt_engine_free: its table is held until
 * then. */
ttt_status web_engines_make(web_engines *w, const char *bounded, const ttt_rules *rules, ttt_engine **out,
                            ttt_error *err);

/* Frees an engine made by web_engines_make (NULL is allowed) and lets its table go. */
void web_engines_drop(web_engines *w, ttt_engine *e);

/* Takes an engine slot for client (a client group, web_client_group; NULL: "unknown") to run the bounded
 * spec (NULL: the solver alone) on rules, and true; or false with the refusal in slot:
 *   - 429 when the client spent its budget of engine time (limits.budget_ms over the last
 *     WEB_BUDGET_WINDOW_S; retry when enough of it has left the window), or the table engine's table would
 *     take the client past its share of the tables' memory, the rest of which its running engines hold;
 *   - 503 when no slot came free within limits.slot_wait_ms (retry in WEB_BUSY_RETRY_S), or the tables'
 *     memory is all held by running engines (retry in WEB_TABLES_RETRY_S);
 *   - 422 when the table alone is larger than limits.table_bytes.
 * For the table engine the slot holds its table (built here when missing, owned by client: the least
 * recently used tables nobody holds make room, the client's own first), so that the engine made in the slot
 * finds it. Every slot taken is given back with web_engines_release. */
bool web_engines_acquire(web_engines *w, const char *client, const char *bounded, const ttt_rules *rules,
                         web_slot *slot);

/* Gives back a slot taken by web_engines_acquire, its table, and charges its time to its client. */
void web_engines_release(web_engines *w, web_slot *slot);

/* How the tables stand; client (NULL: "unknown") is the one stats->client_bytes is about. */
void web_engines_tables(web_engines *w, const char *client, web_tables_stats *stats);

/* Engine milliseconds client spent in the budget's window (0 without a budget). */
double web_engines_spent_ms(web_engines *w, const char *client);

/* Charges client ms of engine time now, as a slot does (for tests). */
void web_engines_charge(web_engines *w, const char *client, double ms);

/* Engines made by web_engines_make so far. */
unsigned long web_engines_made(web_engines *w);

#endif
