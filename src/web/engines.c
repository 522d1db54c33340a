/* web/engines.c - the engines of `ttt serve` (web/engines.h): bounded specs, slots, shared tables. */
#define _GNU_SOURCE /* clock_gettime */
#include "web/engines.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/error.h"
#include "web/api.h"

/* A table engine's table, shared by every game of its rules. */
typedef struct web_table {
    ttt_rules rules;
    ttt_table *table;
} web_table;

struct web_engines {
    ttt_store *store; /* not owned; NULL: --no-record */
    pthread_mutex_t slot_lock;
    pthread_cond_t slot_free;
    int slots_busy;
    unsigned long engines_made; /* guarded by slot_lock */
    pthread_mutex_t table_lock; /* tables: built once per rules set, then read-only and shared */
    web_table *tables;
    int ntables;
};

web_engines *web_engines_new(ttt_store *store)
{
    web_engines *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->store = store;
    pthread_mutex_init(&w->slot_lock, NULL);
    pthread_cond_init(&w->slot_free, NULL);
    pthread_mutex_init(&w->table_lock, NULL);
    return w;
}

void web_engines_free(web_engines *w)
{
    if (!w)
        return;
    for (int i = 0; i < w->ntables; i++)
        ttt_table_free(w->tables[i].table);
    free(w->tables);
    pthread_mutex_destroy(&w->table_lock);
    pthread_mutex_destroy(&w->slot_lock);
    pthread_cond_destroy(&w->slot_free);
    free(w);
}

/* Appends to out (size bytes, n used so far); false, with out unchanged past n, when it does not fit. */
static bool appendf(char *out, size_t size, size_t *n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static bool appendf(char *out, size_t size, size_t *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = *n < size ? vsnprintf(out + *n, size - *n, fmt, ap) : -1;
    va_end(ap);
    if (k < 0 || (size_t)k >= size - *n) {
        if (*n < size)
            out[*n] = '\0';
        return false;
    }
    *n += (size_t)k;
    return true;
}

/* Whether the spec "name:k=v,..." is of the engine called name. */
static bool spec_is(const char *spec, const char *name)
{
    size_t len = strlen(name);
    return strncmp(spec, name, len) == 0 && (spec[len] == ':' || spec[len] == '\0');
}

/* Whether the client's spec sets the option key itself. */
static bool spec_sets(const char *spec, const char *key)
{
    const char *colon = strchr(spec, ':');
    size_t len = strlen(key);
    for (const char *p = colon ? colon + 1 : ""; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ','))
        if (strncmp(p, key, len) == 0 && p[len] == '=')
            return true;
    return false;
}

/* Whether the server would give a table engine for these rules its table: it builds one of at most
 * WEB_MAX_TABLE_ENTRIES entries, in memory, and never reads or writes a table file. */
static ttt_status table_allowed(const ttt_rules *rules, ttt_error *err)
{
    char rt[TTT_RULES_TEXT_SIZE];
    uint64_t games = ttt_table_default_games(rules);
    uint64_t entries = ttt_table_max_entries(rules, games);
    if (games == 0)
        return ttt_fail(err, TTT_ELIMIT,
                        "engine 'table': there is no default table for boards of more than %d cells (%s has "
                        "%d), and the server reads no table file; play 'table' on a smaller board",
                        TTT_TABLE_DEFAULT_MAX_CELLS, ttt_rules_format(rules, rt, sizeof rt),
                        ttt_rules_cells(rules));
    if (entries > WEB_MAX_TABLE_ENTRIES)
        return ttt_fail(err, TTT_ELIMIT,
                        "engine 'table': the server builds move tables of at most %d entries, and the table "
                        "of %s could have %" PRIu64 "; play 'table' on a smaller board",
                        WEB_MAX_TABLE_ENTRIES, ttt_rules_format(rules, rt, sizeof rt), entries);
    return TTT_OK;
}

ttt_status web_engines_bound(const web_engines *w, const char *spec, const ttt_rules *rules, uint64_t max_ms,
                             bool strict, char *out, size_t size, ttt_error *err)
{
    if (strlen(spec) >= TTT_SPEC_TEXT_SIZE)
        return ttt_fail(err, TTT_EINVAL, "engine spec longer than %d characters", TTT_SPEC_TEXT_SIZE - 1);
    int name_len = (int)strcspn(spec, ":");
    char path_key[32];
    if (ttt_engine_spec_sets_path(spec, path_key, sizeof path_key))
        return ttt_fail(err, TTT_EINVAL,
                        "engine '%.*s': %s= is not allowed by the server (it opens no file a client names)",
                        name_len, spec, path_key);
    /* An engine with a memory (the learner) uses the server's database, and learns only when the server
     * records games. */
    char with_learn[TTT_SPEC_TEXT_SIZE + 16];
    if (ttt_engine_has_option(spec, "memory")) {
        if (spec_sets(spec, "learn"))
            return ttt_fail(err, TTT_EINVAL,
                            "engine '%.*s': learn= is set by the server (it learns when the server records "
                            "games, here %s); leave it out",
                            name_len, spec, w->store ? "learn=1" : "learn=0: --no-record");
        size_t n = 0;
        if (!appendf(with_learn, sizeof with_learn, &n, "%s%slearn=%d", spec, strchr(spec, ':') ? "," : ":",
                     w->store ? 1 : 0))
            return ttt_fail(err, TTT_EINVAL, "engine spec too long");
        spec = with_learn;
    }
    ttt_engine_caps caps = {.time_ms = max_ms,
                            .work_cells = WEB_MAX_WORK_CELLS,
                            .memory_bytes = (uint64_t)WEB_MAX_ENGINE_MIB << 20,
                            .strict = strict,
                            .who = "the server"};
    ttt_status st = ttt_engine_spec_bound(spec, rules, &caps, out, size, err);
    if (st == TTT_OK && spec_is(out, "table"))
        st = table_allowed(rules, err);
    return st;
}

bool web_engines_acquire(web_engines *w)
{
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += WEB_ENGINE_WAIT_MS / 1000;
    pthread_mutex_lock(&w->slot_lock);
    int rc = 0;
    while (w->slots_busy >= WEB_MAX_ENGINE_JOBS && rc != ETIMEDOUT)
        rc = pthread_cond_timedwait(&w->slot_free, &w->slot_lock, &deadline);
    bool got = w->slots_busy < WEB_MAX_ENGINE_JOBS;
    if (got)
        w->slots_busy++;
    pthread_mutex_unlock(&w->slot_lock);
    return got;
}

void web_engines_release(web_engines *w)
{
    pthread_mutex_lock(&w->slot_lock);
    w->slots_busy--;
    pthread_cond_signal(&w->slot_free);
    pthread_mutex_unlock(&w->slot_lock);
}

/* The shared table of the rules, built on first use (once per rules set, under table_lock: a second request
 * for it waits for the first build rather than building again). */
static ttt_status shared_table(web_engines *w, const ttt_rules *rules, const ttt_table **out, ttt_error *err)
{
    ttt_status st = table_allowed(rules, err);
    if (st)
        return st;
    pthread_mutex_lock(&w->table_lock);
    for (int i = 0; i < w->ntables; i++)
        if (ttt_rules_equal(&w->tables[i].rules, rules)) {
            *out = w->tables[i].table;
            pthread_mutex_unlock(&w->table_lock);
            return TTT_OK;
        }
    web_table *grown = realloc(w->tables, ((size_t)w->ntables + 1) * sizeof *grown);
    ttt_table *t = NULL;
    st = grown ? ttt_table_build_default(rules, WEB_TABLE_BUILD_JOBS, &t, err)
               : ttt_fail(err, TTT_ENOMEM, "out of memory");
    if (grown)
        w->tables = grown;
    if (st == TTT_OK) {
        w->tables[w->ntables++] = (web_table){*rules, t};
        *out = t;
    }
    pthread_mutex_unlock(&w->table_lock);
    return st;
}

ttt_status web_engines_make(web_engines *w, const char *bounded, const ttt_rules *rules, ttt_engine **out,
                            ttt_error *err)
{
    *out = NULL;
    char spec[TTT_SPEC_TEXT_SIZE + TTT_STORE_PATH_SIZE + 16];
    size_t n = 0;
    bool fits = appendf(spec, sizeof spec, &n, "%s", bounded);
    if (w->store && ttt_engine_has_option(bounded, "memory"))
        fits = fits && appendf(spec, sizeof spec, &n, ",memory=%s", ttt_store_path(w->store));
    if (!fits)
        return ttt_fail(err, TTT_ELIMIT, "engine '%.40s': the database path makes its spec too long",
                        bounded);
    ttt_engine_env env = {.table = NULL, .no_files = true};
    ttt_status st = spec_is(bounded, "table") ? shared_table(w, rules, &env.table, err) : TTT_OK;
    if (st == TTT_OK)
        st = ttt_engine_new_in(spec, rules, &env, out, err);
    if (st == TTT_OK) {
        pthread_mutex_lock(&w->slot_lock);
        w->engines_made++;
        pthread_mutex_unlock(&w->slot_lock);
    }
    return st;
}

unsigned long web_engines_made(web_engines *w)
{
    pthread_mutex_lock(&w->slot_lock);
    unsigned long n = w->engines_made;
    pthread_mutex_unlock(&w->slot_lock);
    return n;
}
