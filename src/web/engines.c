/* web/engines.c - the engines of `ttt serve` (web/engines.h): bounded specs, slots, shared tables. */
#define _GNU_SOURCE /* clock_gettime */
#include "web/engines.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/table_internal.h"
#include "util/error.h"
#include "web/api.h"

/* A table engine's table, shared by every game of its rules; in the cache from its build to its eviction. */
typedef struct web_table {
    ttt_rules rules;
    ttt_table *table;
    uint64_t bytes;              /* ttt_table_memory */
    char owner[WEB_CLIENT_SIZE]; /* the client whose request built it: its share counts it */
    int refs;                    /* engines and slots holding it: never evicted while > 0 */
    uint64_t used; /* the cache's use count when last taken: the least recently used goes first */
} web_table;

/* An engine made with a shared table, which it holds until web_engines_drop. */
typedef struct table_user {
    const ttt_engine *engine;
    web_table *table;
} table_user;

/* A client's engine time over the budget's window, in WEB_BUDGET_BUCKETS steps: bucket i counts the ms
 * charged during step[i] (a step is the window / WEB_BUDGET_BUCKETS, numbered from the clock's origin); a
 * bucket whose step has left the window counts nothing. */
typedef struct web_spender {
    char client[WEB_CLIENT_SIZE];
    int64_t step[WEB_BUDGET_BUCKETS];
    double ms[WEB_BUDGET_BUCKETS];
} web_spender;

#define BUDGET_STEP_MS ((double)WEB_BUDGET_WINDOW_S * 1000.0 / WEB_BUDGET_BUCKETS)

struct web_engines {
    ttt_store *store; /* not owned; NULL: --no-record */
    web_engines_limits limits;
    pthread_mutex_t slot_lock;
    pthread_cond_t slot_free;
    int slots_busy;
    unsigned long engines_made; /* guarded by slot_lock */
    pthread_mutex_t table_lock; /* everything below to budget_lock; held while a table is built, so that a
                                 * second request for it waits for the first build instead of building it */
    web_table **tables;         /* each table stays where it is (slots and engines point to it) */
    int ntables, tables_size;
    table_user *users;
    int nusers, users_size;
    uint64_t uses; /* tables taken so far: the clock of the least recently used */
    unsigned long built, evicted;
    pthread_mutex_t budget_lock; /* spenders */
    web_spender *spenders;
    int nspenders, spenders_size;
};

web_engines_limits web_engines_default_limits(void)
{
    return (web_engines_limits){.table_bytes = (uint64_t)WEB_TABLE_MIB_DEFAULT << 20,
                                .table_shares = WEB_TABLE_SHARES,
                                .budget_ms = 0,
                                .slot_wait_ms = WEB_ENGINE_WAIT_MS};
}

web_engines *web_engines_new(ttt_store *store)
{
    web_engines *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->store = store;
    w->limits = web_engines_default_limits();
    pthread_mutex_init(&w->slot_lock, NULL);
    pthread_cond_init(&w->slot_free, NULL);
    pthread_mutex_init(&w->table_lock, NULL);
    pthread_mutex_init(&w->budget_lock, NULL);
    return w;
}

void web_engines_limit(web_engines *w, const web_engines_limits *limits)
{
    assert(limits->table_bytes > 0 && limits->table_shares >= 1 && limits->budget_ms >= 0 &&
           limits->slot_wait_ms > 0);
    w->limits = *limits;
}

void web_engines_free(web_engines *w)
{
    if (!w)
        return;
    assert(w->nusers == 0);
    for (int i = 0; i < w->ntables; i++) {
        ttt_table_free(w->tables[i]->table);
        free(w->tables[i]);
    }
    free(w->tables);
    free(w->users);
    free(w->spenders);
    pthread_mutex_destroy(&w->budget_lock);
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

/* --- The engine-time budget ------------------------------------------------------------------------- */

/* The client's spending (under budget_lock), or NULL when it has none kept. */
static web_spender *spender_of(web_engines *w, const char *client)
{
    for (int i = 0; i < w->nspenders; i++)
        if (strcmp(w->spenders[i].client, client) == 0)
            return &w->spenders[i];
    return NULL;
}

/* What sp spent in the window that holds step now. */
static double spent_in_window(const web_spender *sp, int64_t now)
{
    double ms = 0;
    for (int i = 0; i < WEB_BUDGET_BUCKETS; i++)
        if (sp->step[i] > now - WEB_BUDGET_BUCKETS)
            ms += sp->ms[i];
    return ms;
}

static int64_t budget_step(double now_ms) { return (int64_t)(now_ms / BUDGET_STEP_MS); }

/* Whole seconds, at least 1, until ms milliseconds have passed (a Retry-After). */
static int whole_seconds(double ms) { return ms <= 1000.0 ? 1 : (int)((ms + 999.0) / 1000.0); }

/* Seconds until sp's spending in the window falls below budget_ms, as its oldest steps leave it. */
static int budget_retry_s(const web_spender *sp, double now_ms, double budget_ms)
{
    int64_t now = budget_step(now_ms);
    double left = spent_in_window(sp, now);
    for (int64_t step = now - WEB_BUDGET_BUCKETS + 1; step <= now; step++) {
        const int i = (int)(step % WEB_BUDGET_BUCKETS);
        if (sp->step[i] == step)
            left -= sp->ms[i];
        if (left < budget_ms) /* once step has left the window */
            return whole_seconds((double)(step + WEB_BUDGET_BUCKETS) * BUDGET_STEP_MS - now_ms);
    }
    return whole_seconds(WEB_BUDGET_WINDOW_S * 1000.0); /* not reached: the budget is > 0 */
}

/* The client's spending, made when it has none (under budget_lock): when WEB_BUDGET_CLIENTS are kept, the
 * one that spent least in the window is forgotten. NULL when out of memory. */
static web_spender *spender_make(web_engines *w, const char *client, int64_t now)
{
    web_spender *sp = spender_of(w, client);
    if (sp)
        return sp;
    if (w->nspenders == w->spenders_size && w->spenders_size < WEB_BUDGET_CLIENTS) {
        int size = w->spenders_size ? 2 * w->spenders_size : 16;
        size = size < WEB_BUDGET_CLIENTS ? size : WEB_BUDGET_CLIENTS;
        web_spender *grown = realloc(w->spenders, (size_t)size * sizeof *grown);
        if (!grown)
            return NULL;
        w->spenders = grown;
        w->spenders_size = size;
    }
    if (w->nspenders < w->spenders_size) {
        sp = &w->spenders[w->nspenders++];
    } else {
        sp = &w->spenders[0];
        for (int i = 1; i < w->nspenders; i++)
            if (spent_in_window(&w->spenders[i], now) < spent_in_window(sp, now))
                sp = &w->spenders[i];
    }
    memset(sp, 0, sizeof *sp);
    for (int i = 0; i < WEB_BUDGET_BUCKETS; i++)
        sp->step[i] = INT64_MIN;
    snprintf(sp->client, sizeof sp->client, "%s", client);
    return sp;
}

void web_engines_charge(web_engines *w, const char *client, double ms)
{
    if (!w->limits.budget_ms)
        return;
    double now_ms = ttt_clock_ms();
    int64_t now = budget_step(now_ms);
    pthread_mutex_lock(&w->budget_lock);
    web_spender *sp = spender_make(w, client ? client : "unknown", now);
    if (sp) { /* out of memory: not counted */
        int i = (int)(now % WEB_BUDGET_BUCKETS);
        if (sp->step[i] != now)
            sp->step[i] = now, sp->ms[i] = 0;
        sp->ms[i] += ms;
    }
    pthread_mutex_unlock(&w->budget_lock);
}

double web_engines_spent_ms(web_engines *w, const char *client)
{
    pthread_mutex_lock(&w->budget_lock);
    const web_spender *sp = spender_of(w, client ? client : "unknown");
    double ms = sp ? spent_in_window(sp, budget_step(ttt_clock_ms())) : 0;
    pthread_mutex_unlock(&w->budget_lock);
    return ms;
}

/* Whether slot's client may take an engine now; else the refusal in slot (429). */
static bool within_budget(web_engines *w, web_slot *slot)
{
    if (!w->limits.budget_ms)
        return true;
    double now_ms = ttt_clock_ms(), budget = w->limits.budget_ms;
    pthread_mutex_lock(&w->budget_lock);
    const web_spender *sp = spender_of(w, slot->client);
    double spent = sp ? spent_in_window(sp, budget_step(now_ms)) : 0;
    bool ok = spent < budget;
    if (!ok)
        slot->retry_s = budget_retry_s(sp, now_ms, budget);
    pthread_mutex_unlock(&w->budget_lock);
    if (!ok) {
        slot->status = WEB_REFUSED_CLIENT;
        snprintf(slot->why, sizeof slot->why,
                 "engine time used up: this address had engines think %.3g s in the last %d s, its budget is "
                 "%.3g s; retry in %d s",
                 spent / 1000.0, WEB_BUDGET_WINDOW_S, budget / 1000.0, slot->retry_s);
    }
    return ok;
}

/* --- The move tables' cache ------------------------------------------------------------------------- */

/* Under table_lock: the bytes of the tables owned by client (NULL: of all), and of them those held. */
static void tables_bytes(const web_engines *w, const char *client, uint64_t *all, uint64_t *held)
{
    *all = *held = 0;
    for (int i = 0; i < w->ntables; i++) {
        const web_table *t = w->tables[i];
        if (client && strcmp(t->owner, client) != 0)
            continue;
        *all += t->bytes;
        *held += t->refs > 0 ? t->bytes : 0;
    }
}

/* Under table_lock: frees the least recently used table nobody holds, of client's (NULL: anyone's); false
 * when there is none. */
static bool evict_one(web_engines *w, const char *client)
{
    int victim = -1;
    for (int i = 0; i < w->ntables; i++) {
        const web_table *t = w->tables[i];
        if (t->refs == 0 && (!client || strcmp(t->owner, client) == 0) &&
            (victim < 0 || t->used < w->tables[victim]->used))
            victim = i;
    }
    if (victim < 0)
        return false;
    ttt_table_free(w->tables[victim]->table);
    free(w->tables[victim]);
    w->tables[victim] = w->tables[--w->ntables];
    w->evicted++;
    return true;
}

/* Under table_lock: makes room for a table of bytes owned by client, or says why there is none (slot): the
 * client's own tables nobody holds go first, down to its share; then anyone's, least recently used first,
 * down to the whole. What engines hold stays. A client may always have one table, even above its share. */
static bool make_room(web_engines *w, const char *client, uint64_t bytes, web_slot *slot)
{
    uint64_t cap = w->limits.table_bytes, share = cap / (uint64_t)w->limits.table_shares;
    uint64_t own, own_held, all, all_held;
    tables_bytes(w, client, &own, &own_held);
    tables_bytes(w, NULL, &all, &all_held);
    if (bytes > cap) {
        slot->status = WEB_REFUSED_NEVER;
        slot->retry_s = 0;
        snprintf(slot->why, sizeof slot->why,
                 "engine 'table': this table takes %.1f MiB, more than the server keeps for move tables "
                 "(%.1f MiB); play 'table' on a smaller board",
                 (double)bytes / (1 << 20), (double)cap / (1 << 20));
        return false;
    }
    if (own_held && own_held + bytes > share) {
        slot->status = WEB_REFUSED_CLIENT;
        slot->retry_s = WEB_TABLES_RETRY_S;
        snprintf(
            slot->why, sizeof slot->why,
            "move tables: this address's engines hold %.1f MiB of them, and this one takes %.1f MiB more "
            "than its share (%.1f MiB); finish a game, or retry in %d s",
            (double)own_held / (1 << 20), (double)bytes / (1 << 20), (double)share / (1 << 20),
            slot->retry_s);
        return false;
    }
    if (all_held + bytes > cap) {
        slot->status = WEB_REFUSED_BUSY;
        slot->retry_s = WEB_TABLES_RETRY_S;
        snprintf(slot->why, sizeof slot->why,
                 "move tables: running engines hold %.1f of the server's %.1f MiB; retry in %d s",
                 (double)all_held / (1 << 20), (double)cap / (1 << 20), slot->retry_s);
        return false;
    }
    while (own + bytes > share && evict_one(w, client))
        tables_bytes(w, client, &own, &own_held);
    while (all + bytes > cap && evict_one(w, NULL))
        tables_bytes(w, NULL, &all, &all_held);
    return true;
}

/* Under table_lock: the cached table of the rules, or NULL. */
static web_table *table_find(const web_engines *w, const ttt_rules *rules)
{
    for (int i = 0; i < w->ntables; i++)
        if (ttt_rules_equal(&w->tables[i]->rules, rules))
            return w->tables[i];
    return NULL;
}

/* Under table_lock: says in the server's log that t was built, and how the tables stand. */
static void log_built(const web_engines *w, const web_table *t)
{
    if (!w->limits.log)
        return;
    char rules[TTT_RULES_TEXT_SIZE], line[2 * TTT_ERROR_SIZE];
    uint64_t all, own, held;
    tables_bytes(w, NULL, &all, &held);
    tables_bytes(w, t->owner, &own, &held);
    double mib = 1 << 20;
    snprintf(line, sizeof line,
             "move table %s built for %s: %.1f MiB; tables %d, %.1f of %.1f MiB, of them %s's %.1f MiB (its "
             "share %.1f MiB); %lu evicted so far",
             ttt_rules_format(&t->rules, rules, sizeof rules), t->owner[0] ? t->owner : "nobody",
             (double)t->bytes / mib, w->ntables, (double)all / mib, (double)w->limits.table_bytes / mib,
             t->owner[0] ? t->owner : "nobody", (double)own / mib,
             (double)(w->limits.table_bytes / (uint64_t)w->limits.table_shares) / mib, w->evicted);
    w->limits.log(w->limits.log_ctx, line);
}

/* Under table_lock: holds the table of the rules for client, built when missing (and owned by client).
 * TTT_OK with *out; TTT_ELIMIT with the refusal in slot (make_room) and err; else err. */
static ttt_status table_take(web_engines *w, const char *client, const ttt_rules *rules, web_table **out,
                             web_slot *slot, ttt_error *err)
{
    web_table *t = table_find(w, rules);
    ttt_status st = t ? TTT_OK : table_allowed(rules, err);
    if (!t && st == TTT_OK && w->ntables == w->tables_size) {
        int size = w->tables_size ? 2 * w->tables_size : 16;
        web_table **grown = realloc(w->tables, (size_t)size * sizeof *grown);
        if (grown)
            w->tables = grown, w->tables_size = size;
        else
            st = ttt_fail(err, TTT_ENOMEM, "out of memory");
    }
    /* Nothing is built when what the client's engines hold already fills its share, or all. */
    if (!t && st == TTT_OK && !make_room(w, client, 1, slot))
        st = ttt_fail(err, TTT_ELIMIT, "%s", slot->why);
    ttt_table *built = NULL;
    if (!t && st == TTT_OK &&
        (st = ttt_table_build_default(rules, WEB_TABLE_BUILD_JOBS, &built, err)) == TTT_OK)
        w->built++;
    if (!t && st == TTT_OK && !(t = calloc(1, sizeof *t)))
        st = ttt_fail(err, TTT_ENOMEM, "out of memory");
    if (!t || st != TTT_OK) {
        ttt_table_free(built);
        return st;
    }
    if (built) {
        *t = (web_table){.rules = *rules, .table = built, .bytes = ttt_table_memory(built)};
        snprintf(t->owner, sizeof t->owner, "%s", client);
        if (!make_room(w, client, t->bytes, slot)) {
            ttt_table_free(built);
            free(t);
            return ttt_fail(err, TTT_ELIMIT, "%s", slot->why);
        }
        w->tables[w->ntables++] = t;
        log_built(w, t);
    }
    t->refs++;
    t->used = ++w->uses;
    *out = t;
    if (built) /* the build's own tables and the evicted ones are free: give their pages back */
        malloc_trim(0);
    return TTT_OK;
}

void web_engines_tables(web_engines *w, const char *client, web_tables_stats *stats)
{
    pthread_mutex_lock(&w->table_lock);
    uint64_t held;
    *stats = (web_tables_stats){.count = w->ntables, .built = w->built, .evicted = w->evicted};
    tables_bytes(w, NULL, &stats->bytes, &held);
    tables_bytes(w, client ? client : "unknown", &stats->client_bytes, &held);
    for (int i = 0; i < w->ntables; i++)
        stats->in_use += w->tables[i]->refs > 0;
    pthread_mutex_unlock(&w->table_lock);
}

/* --- Slots and engines ---------------------------------------------------------------------------------- */

/* Gives back slot's engine slot, charging its time to its client. */
static void slot_end(web_engines *w, web_slot *slot)
{
    web_engines_charge(w, slot->client, ttt_clock_ms() - slot->since_ms);
    pthread_mutex_lock(&w->slot_lock);
    w->slots_busy--;
    pthread_cond_signal(&w->slot_free);
    pthread_mutex_unlock(&w->slot_lock);
}

bool web_engines_acquire(web_engines *w, const char *client, const char *bounded, const ttt_rules *rules,
                         web_slot *slot)
{
    *slot = (web_slot){.status = 0};
    snprintf(slot->client, sizeof slot->client, "%s", client ? client : "unknown");
    if (!within_budget(w, slot))
        return false;
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += w->limits.slot_wait_ms / 1000;
    deadline.tv_nsec += (long)(w->limits.slot_wait_ms % 1000) * 1000000L;
    deadline.tv_sec += deadline.tv_nsec / 1000000000L;
    deadline.tv_nsec %= 1000000000L;
    pthread_mutex_lock(&w->slot_lock);
    int rc = 0;
    while (w->slots_busy >= WEB_MAX_ENGINE_JOBS && rc != ETIMEDOUT)
        rc = pthread_cond_timedwait(&w->slot_free, &w->slot_lock, &deadline);
    bool got = w->slots_busy < WEB_MAX_ENGINE_JOBS;
    if (got)
        w->slots_busy++;
    pthread_mutex_unlock(&w->slot_lock);
    if (!got) {
        slot->status = WEB_REFUSED_BUSY;
        slot->retry_s = WEB_BUSY_RETRY_S;
        snprintf(slot->why, sizeof slot->why,
                 "every engine is busy (%d thinking, each for at most %d s): retry in %d s",
                 WEB_MAX_ENGINE_JOBS, WEB_BUSY_RETRY_S, slot->retry_s);
        return false;
    }
    slot->since_ms = ttt_clock_ms();
    if (!bounded || !spec_is(bounded, "table"))
        return true;
    /* The table is built in the slot, charged to the client. When it cannot be had for another reason than
     * its room, the engine is made without it and says why (web_engines_make). */
    ttt_error err;
    pthread_mutex_lock(&w->table_lock);
    ttt_status st = table_take(w, slot->client, rules, &slot->table, slot, &err);
    pthread_mutex_unlock(&w->table_lock);
    if (st == TTT_ELIMIT && slot->status) {
        slot_end(w, slot);
        return false;
    }
    return true;
}

void web_engines_release(web_engines *w, web_slot *slot)
{
    if (slot->table) {
        pthread_mutex_lock(&w->table_lock);
        slot->table->refs--;
        pthread_mutex_unlock(&w->table_lock);
        slot->table = NULL;
    }
    slot_end(w, slot);
}

/* Under table_lock: remembers that engine holds t. */
static ttt_status user_add(web_engines *w, const ttt_engine *engine, web_table *t, ttt_error *err)
{
    if (w->nusers == w->users_size) {
        int size = w->users_size ? 2 * w->users_size : 16;
        table_user *grown = realloc(w->users, (size_t)size * sizeof *grown);
        if (!grown)
            return ttt_fail(err, TTT_ENOMEM, "out of memory");
        w->users = grown;
        w->users_size = size;
    }
    w->users[w->nusers++] = (table_user){engine, t};
    return TTT_OK;
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
    if (!spec_is(bounded, "table")) {
        ttt_status st = ttt_engine_new_in(spec, rules, &env, out, err);
        if (st == TTT_OK) {
            pthread_mutex_lock(&w->slot_lock);
            w->engines_made++;
            pthread_mutex_unlock(&w->slot_lock);
        }
        return st;
    }
    /* The table its slot holds (or, made outside such a slot, one built now for nobody), held from here
     * until the engine is dropped. */
    web_table *t = NULL;
    web_slot nobody = {.status = 0};
    pthread_mutex_lock(&w->table_lock);
    ttt_status st = table_take(w, "", rules, &t, &nobody, err);
    if (st == TTT_OK) {
        env.table = t->table;
        st = ttt_engine_new_in(spec, rules, &env, out, err);
    }
    if (st == TTT_OK && (st = user_add(w, *out, t, err)) != TTT_OK) {
        ttt_engine_free(*out);
        *out = NULL;
    }
    if (st != TTT_OK && t)
        t->refs--;
    pthread_mutex_unlock(&w->table_lock);
    if (st == TTT_OK) {
        pthread_mutex_lock(&w->slot_lock);
        w->engines_made++;
        pthread_mutex_unlock(&w->slot_lock);
    }
    return st;
}

void web_engines_drop(web_engines *w, ttt_engine *e)
{
    if (!e)
        return;
    if (strcmp(ttt_engine_name(e), "table") != 0) { /* holds no table: no wait for a table being built */
        ttt_engine_free(e);
        return;
    }
    pthread_mutex_lock(&w->table_lock);
    for (int i = 0; i < w->nusers; i++)
        if (w->users[i].engine == e) {
            w->users[i].table->refs--;
            w->users[i] = w->users[--w->nusers];
            break;
        }
    pthread_mutex_unlock(&w->table_lock);
    ttt_engine_free(e);
}

unsigned long web_engines_made(web_engines *w)
{
    pthread_mutex_lock(&w->slot_lock);
    unsigned long n = w->engines_made;
    pthread_mutex_unlock(&w->slot_lock);
    return n;
}
