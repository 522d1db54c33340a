/*
 * web/engines.h - the engines of `ttt serve` (internal to src/web/): client specs bounded by the server's
 * caps, engine slots (at most WEB_MAX_ENGINE_JOBS engines think at once, so that a burst of engine requests
 * queues instead of thrashing the machine), and the table engine's tables, built once per rules set in
 * memory and shared read-only. Every call may come from many request threads at once.
 */
#ifndef TTT_WEB_ENGINES_H
#define TTT_WEB_ENGINES_H

#include "ttt/ttt.h"

typedef struct web_engines web_engines;

/* Makes the server's engine resources; store (not owned) is where learners learn, or NULL (--no-record).
 * NULL when out of memory. */
web_engines *web_engines_new(ttt_store *store);

/* Frees the shared tables. Call when no engine made here is left. NULL is allowed. */
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
 * rules (built here on first use); no engine opens or writes any other file. */
ttt_status web_engines_make(web_engines *w, const char *bounded, const ttt_rules *rules, ttt_engine **out,
                            ttt_error *err);

/* Takes an engine slot, waiting at most WEB_ENGINE_WAIT_MS for one: false when none came free. */
bool web_engines_acquire(web_engines *w);

/* Gives back a slot taken by web_engines_acquire. */
void web_engines_release(web_engines *w);

/* Engines made by web_engines_make so far. */
unsigned long web_engines_made(web_engines *w);

#endif
