/* engines/engine.c - making engines from spec strings, and the calls every engine shares. */
#include "engines/engine_impl.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/suggest.h"

/* The longest engine name or option key worth reading. */
#define NAME_MAX_LEN 32

/* Help text: lines wrapped at this width, the text of each option starting in one column. */
#define HELP_WIDTH      96
#define HELP_TEXT_SIZE  2048 /* one engine's option lines (the learner's, the longest, ~1,000) */
#define ENGINES_MAX     32   /* room for the registry's descriptions */
#define SEED_HELP_PLAIN "random choices"
#define HELP_GLUE       '\x1f' /* a space no line breaks at, within "(default N)" */

int ttt_engine_count(void) { return ttt_engine_registry_size; }

/* Appends one option's help line(s) to buf (n used): "key=ARG", padded to column, the help and the default,
 * wrapped at HELP_WIDTH under the column. */
static size_t help_line(const ttt_engine_vtable *vt, const ttt_option_def *o, int column, char *buf,
                        size_t size, size_t n)
{
    char text[HELP_TEXT_SIZE / 2], def[48] = "";
    /* an engine without a configuration (random) has only the seed, whose default is the framework's */
    const char *slot = vt->config_defaults ? (const char *)vt->config_defaults + o->offset : NULL;
    if (o->type == TTT_OPT_UINT && slot) {
        uint64_t v;
        memcpy(&v, slot, sizeof v);
        snprintf(def, sizeof def,
                 " (default\x1f"
                 "%" PRIu64 ")",
                 v);
    } else if (o->type == TTT_OPT_DOUBLE && slot) {
        double v;
        memcpy(&v, slot, sizeof v);
        snprintf(def, sizeof def,
                 " (default\x1f"
                 "%g)",
                 v);
    } else if (o->type == TTT_OPT_SEED) {
        snprintf(def, sizeof def,
                 " (default\x1f"
                 "0)");
    } /* a path's default is not a value: its help says it */
    snprintf(text, sizeof text, "%s%s", o->help, def);
    char head[NAME_MAX_LEN * 2];
    snprintf(head, sizeof head, "%s=%s", o->key, o->arg);
    n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "%s%-*s", n ? "\n" : "", column, head);
    for (const char *p = text; *p;) {
        size_t room = (size_t)(HELP_WIDTH - column), len = strlen(p);
        if (len > room) { /* break at the last space that fits */
            len = room;
            while (len > 0 && p[len] != ' ')
                len--;
            if (len == 0)
                len = strcspn(p, " ");
        }
        if (p != text) /* a continuation, under the column */
            n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "\n%*s", column, "");
        n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "%.*s", (int)len, p);
        p += len;
        while (*p == ' ')
            p++;
    }
    return n;
}

/* Writes the help of every option of vt, seed= included, into buf. */
static void help_text(const ttt_engine_vtable *vt, char *buf, size_t size)
{
    static const ttt_option_def plain_seed = {"seed",     TTT_OPT_SEED,           0, 0, 0, 0, 0,
                                              .arg = "N", .help = SEED_HELP_PLAIN};
    const ttt_option_def *seed = &plain_seed;
    int column = 0;
    for (const ttt_option_def *o = vt->options; o && o->key; o++) {
        int len = (int)(strlen(o->key) + 1 + strlen(o->arg));
        column = len > column ? len : column;
        if (o->type == TTT_OPT_SEED)
            seed = o;
    }
    column = (column > 6 ? column : 6) + 2; /* "seed=N" and two spaces */
    size_t n = 0;
    buf[0] = '\0';
    for (const ttt_option_def *o = vt->options; o && o->key; o++)
        if (o->type != TTT_OPT_SEED)
            n = help_line(vt, o, column, buf, size, n);
    n = help_line(vt, seed, column, buf, size, n);
    assert(n < size);
    for (char *p = strchr(buf, HELP_GLUE); p; p = strchr(p, HELP_GLUE))
        *p = ' ';
}

static struct {
    ttt_engine_about about;
    char options[HELP_TEXT_SIZE];
} engine_help[ENGINES_MAX];
static pthread_once_t engine_help_once = PTHREAD_ONCE_INIT;

/* Fills engine_help: each engine's description with its option lines made from its table (read-only after
 * this, shared by every thread). */
static void engine_help_init(void)
{
    assert(ttt_engine_registry_size <= ENGINES_MAX);
    for (int i = 0; i < ttt_engine_registry_size; i++) {
        const ttt_engine_vtable *vt = ttt_engine_registry[i];
        help_text(vt, engine_help[i].options, sizeof engine_help[i].options);
        engine_help[i].about = vt->about;
        engine_help[i].about.options = engine_help[i].options;
    }
}

const ttt_engine_about *ttt_engine_about_at(int index)
{
    if (index < 0 || index >= ttt_engine_registry_size)
        return NULL;
    pthread_once(&engine_help_once, engine_help_init);
    return &engine_help[index].about;
}

static const ttt_engine_vtable *find_engine(const char *name, size_t len)
{
    for (int i = 0; i < ttt_engine_registry_size; i++) {
        const char *n = ttt_engine_registry[i]->about.name;
        if (strlen(n) == len && strncmp(n, name, len) == 0)
            return ttt_engine_registry[i];
    }
    return NULL;
}

/* The engine a spec names, a level standing for its engine; NULL when the name is unknown. */
static const ttt_engine_vtable *engine_of_spec(const char *spec)
{
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    const ttt_level *level = ttt_level_find(spec, len);
    if (level) {
        spec = level->spec;
        colon = strchr(spec, ':');
        len = colon ? (size_t)(colon - spec) : strlen(spec);
    }
    return find_engine(spec, len);
}

static const ttt_option_def *option_of(const ttt_engine_vtable *vt, const char *key, size_t len)
{
    for (const ttt_option_def *o = vt->options; o && o->key; o++)
        if (strlen(o->key) == len && strncmp(o->key, key, len) == 0)
            return o;
    return NULL;
}

bool ttt_engine_has_option(const char *spec, const char *key)
{
    const ttt_engine_vtable *vt = engine_of_spec(spec);
    return vt && option_of(vt, key, strlen(key));
}

bool ttt_engine_spec_sets_path(const char *spec, char *key, size_t size)
{
    const ttt_engine_vtable *vt = engine_of_spec(spec);
    const char *colon = strchr(spec, ':');
    if (!vt || !colon)
        return false;
    for (const char *p = colon + 1; *p;) {
        size_t len = strcspn(p, ",");
        size_t klen = strcspn(p, "=,");
        const ttt_option_def *o = option_of(vt, p, klen);
        if (o && o->type == TTT_OPT_PATH) {
            snprintf(key, size, "%.*s", (int)klen, p);
            return true;
        }
        p += len + (p[len] == ',');
    }
    return false;
}

bool ttt_engine_requires_path(const char *spec)
{
    const ttt_engine_vtable *vt = engine_of_spec(spec);
    return vt && vt->path_required;
}

void ttt_engine_follow(ttt_engine *e, const ttt_move *moves, int count)
{
    if (e->vt->follow)
        e->vt->follow(e, moves, count);
}

/* The largest board on which a search with no limit (time=0, no nodes=, no depth=) is allowed: minimax
 * proves the first move of 6x5k4 (30 cells) in 23,275,552 nodes (13 s user), while 6x6k4 (36) had not
 * returned after 100 s (load 5 on 2 cores). */
#define ENGINE_UNBOUNDED_MAX_CELLS 30

/* "seed, time, nodes" for error messages. */
static void list_keys(const ttt_engine_vtable *vt, char *buf, size_t size)
{
    size_t n = (size_t)snprintf(buf, size, "seed");
    for (const ttt_option_def *o = vt->options; o && o->key && n < size; o++)
        if (o->type != TTT_OPT_SEED)
            n += (size_t)snprintf(buf + n, size - n, ", %s", o->key);
}

static void list_engines(char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < ttt_engine_registry_size && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "", ttt_engine_registry[i]->about.name);
}

/* "; did you mean 'NAME'?" when one of names[0..n-1] is a slip away from word, else "". */
static void did_you_mean(const char *word, size_t len, const char *const *names, int n, char *buf,
                         size_t size)
{
    const char *close = ttt_suggest(word, len, names, n);
    if (close)
        snprintf(buf, size, "; did you mean '%s'?", close);
    else
        buf[0] = '\0';
}

/* "engine 'minimax': unknown option 'dpeth'; did you mean 'depth'? (known: seed, time, ...)". */
static ttt_status unknown_option(const ttt_engine_vtable *vt, const char *key, ttt_error *err)
{
    enum { MAX_KEYS = 32 };
    const char *keys[MAX_KEYS] = {"seed"};
    int n = 1;
    for (const ttt_option_def *o = vt->options; o && o->key && n < MAX_KEYS; o++)
        if (o->type != TTT_OPT_SEED)
            keys[n++] = o->key;
    char known[TTT_ERROR_SIZE / 2], hint[NAME_MAX_LEN + 24];
    list_keys(vt, known, sizeof known);
    did_you_mean(key, strlen(key), keys, n, hint, sizeof hint);
    return ttt_fail(err, TTT_EINVAL, "engine '%s': unknown option '%.*s'%s (known: %s)", vt->about.name,
                    NAME_MAX_LEN, key, hint, known);
}

/* "engine 'minmax': unknown engine; did you mean 'minimax'? (known: ..., levels: easy, ...)": the levels
 * stand for engines wherever a spec is read, so they are among the names suggested and listed. */
static ttt_status unknown_engine(const char *name, size_t len, ttt_error *err)
{
    enum { MAX_NAMES = 64 };
    const char *names[MAX_NAMES];
    int n = 0;
    for (int i = 0; i < ttt_engine_registry_size && n < MAX_NAMES; i++)
        names[n++] = ttt_engine_registry[i]->about.name;
    char known[TTT_ERROR_SIZE];
    list_engines(known, sizeof known);
    size_t used = strlen(known);
    for (int i = 0; i < ttt_level_count() && n < MAX_NAMES && used < sizeof known; i++) {
        names[n++] = ttt_level_at(i)->name;
        used += (size_t)snprintf(known + used, sizeof known - used, "%s%s",
                                 i ? ", " : ", levels: ", ttt_level_at(i)->name);
    }
    char hint[NAME_MAX_LEN + 24];
    did_you_mean(name, len, names, n, hint, sizeof hint);
    return ttt_fail(err, TTT_EINVAL, "engine '%.*s': unknown engine%s (known: %s)",
                    (int)(len < NAME_MAX_LEN ? len : NAME_MAX_LEN), name, hint, known);
}

/* Parses a decimal unsigned integer that must fill the whole text. */
static bool parse_uint(const char *text, uint64_t *out)
{
    if (!isdigit((unsigned char)text[0]))
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

static bool parse_double(const char *text, double *out)
{
    if (!*text || isspace((unsigned char)text[0]))
        return false;
    errno = 0;
    char *end;
    double v = strtod(text, &end);
    if (errno || *end || v != v)
        return false;
    *out = v;
    return true;
}

static ttt_status set_option(ttt_engine *e, const char *key, const char *value, ttt_error *err)
{
    const char *name = e->vt->about.name;
    if (strcmp(key, "seed") == 0) {
        if (!parse_uint(value, &e->seed))
            return ttt_fail(err, TTT_EINVAL, "engine '%s': seed=%s: expected an integer from 0 to %" PRIu64,
                            name, value, UINT64_MAX);
        return TTT_OK;
    }
    for (const ttt_option_def *o = e->vt->options; o && o->key; o++) {
        if (strcmp(o->key, key) != 0)
            continue;
        char *slot = (char *)e->config + o->offset;
        switch (o->type) {
        case TTT_OPT_UINT: {
            uint64_t v;
            if (!parse_uint(value, &v) || v < o->umin || v > o->umax)
                return ttt_fail(err, TTT_EINVAL,
                                "engine '%s': %s=%s: expected an integer from %" PRIu64 " to %" PRIu64, name,
                                key, value, o->umin, o->umax);
            memcpy(slot, &v, sizeof v);
            return TTT_OK;
        }
        case TTT_OPT_DOUBLE: {
            double v;
            if (!parse_double(value, &v) || v < o->dmin || v > o->dmax)
                return ttt_fail(err, TTT_EINVAL, "engine '%s': %s=%s: expected a number from %g to %g", name,
                                key, value, o->dmin, o->dmax);
            memcpy(slot, &v, sizeof v);
            return TTT_OK;
        }
        case TTT_OPT_PATH:
            if (strlen(value) >= TTT_OPT_PATH_SIZE)
                return ttt_fail(err, TTT_EINVAL, "engine '%s': %s=: longer than %d characters", name, key,
                                TTT_OPT_PATH_SIZE - 1);
            memcpy(slot, value, strlen(value) + 1);
            return TTT_OK;
        case TTT_OPT_SEED: break; /* "seed" is the framework's, set above */
        }
    }
    return unknown_option(e->vt, key, err);
}

ttt_status ttt_engine_set_time(ttt_engine *e, uint64_t ms, ttt_error *err)
{
    if (!option_of(e->vt, "time", 4))
        return ttt_fail(err, TTT_EINVAL, "engine '%s': has no time= option", e->vt->about.name);
    const ttt_option_def *o = option_of(e->vt, "time", 4);
    uint64_t old;
    memcpy(&old, (char *)e->config + o->offset, sizeof old);
    char value[32];
    snprintf(value, sizeof value, "%" PRIu64, ms);
    ttt_status st = set_option(e, "time", value, err);
    if (st == TTT_OK && e->vt->check && (st = e->vt->check(e, err)) != TTT_OK)
        memcpy((char *)e->config + o->offset, &old, sizeof old);
    return st;
}

ttt_status ttt_engine_limit_time(ttt_engine *e, uint64_t ms, ttt_error *err)
{
    assert(ms >= 1);
    const ttt_option_def *o = option_of(e->vt, "time", 4);
    if (!o)
        return TTT_OK;
    uint64_t now;
    memcpy(&now, (char *)e->config + o->offset, sizeof now);
    return now == 0 || now > ms ? ttt_engine_set_time(e, ms, err) : TTT_OK;
}

ttt_status ttt_engine_check_bounded(const ttt_engine *e, uint64_t time_ms, uint64_t nodes, uint64_t depth,
                                    ttt_error *err)
{
    if (time_ms || nodes || depth || ttt_rules_cells(&e->rules) <= ENGINE_UNBOUNDED_MAX_CELLS)
        return TTT_OK;
    char rules[TTT_RULES_TEXT_SIZE];
    bool depth_too = option_of(e->vt, "depth", 5) != NULL;
    return ttt_fail(err, TTT_EINVAL,
                    "engine '%s': time=0 with no nodes=%s limit may never return a move on %s (more than %d "
                    "cells); give time=MS%s",
                    e->vt->about.name, depth_too ? " or depth=" : "",
                    ttt_rules_format(&e->rules, rules, sizeof rules), ENGINE_UNBOUNDED_MAX_CELLS,
                    depth_too ? ", nodes=N or depth=N" : " or nodes=N");
}

/* Splits "k=v,k=v" and applies each pair; a key given twice is an error. */
static ttt_status apply_options(ttt_engine *e, const char *text, ttt_error *err)
{
    const char *name = e->vt->about.name;
    char seen[TTT_ERROR_SIZE] = ",";
    const char *p = text;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char pair[TTT_OPT_PATH_SIZE + NAME_MAX_LEN + 2];
        if (len == 0)
            return ttt_fail(err, TTT_EINVAL, "engine '%s': empty option in '%s' (expected key=value,...)",
                            name, text);
        if (len >= sizeof pair)
            return ttt_fail(err, TTT_EINVAL, "engine '%s': option '%.24s...' is too long", name, p);
        memcpy(pair, p, len);
        pair[len] = '\0';
        char *eq = strchr(pair, '=');
        if (eq)
            *eq = '\0';
        const char *key = pair, *value = eq ? eq + 1 : "";
        if (!*key)
            return ttt_fail(err, TTT_EINVAL, "engine '%s': option '=%s' has no key", name, value);
        if (!*value) /* "depth" or "depth=": a known key asks for its value, another one is unknown */
            return strcmp(key, "seed") == 0 || option_of(e->vt, key, strlen(key))
                       ? ttt_fail(err, TTT_EINVAL, "engine '%s': option '%s' needs a value: %s=VALUE", name,
                                  key, key)
                       : unknown_option(e->vt, key, err);
        char marker[NAME_MAX_LEN + 3];
        snprintf(marker, sizeof marker, ",%.*s,", NAME_MAX_LEN, key);
        if (strstr(seen, marker))
            return ttt_fail(err, TTT_EINVAL, "engine '%s': option '%s' given twice", name, key);
        ttt_status st = set_option(e, key, value, err);
        if (st)
            return st;
        if (strlen(seen) + strlen(marker) < sizeof seen)
            strcat(seen, marker + 1);
        if (!end)
            return TTT_OK;
        p = end + 1;
    }
}

/* True when the options text "k=v,k=v" sets key (of length len). */
static bool sets_key(const char *options, const char *key, size_t len)
{
    for (const char *p = options; *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : p + strlen(p))
        if (strncmp(p, key, len) == 0 && p[len] == '=')
            return true;
    return false;
}

/* Writes the level's spec with the caller's options: the level's own options that the caller does not set,
 * then the caller's. Returns nonzero when it does not fit. */
static int expand_level(const ttt_level *level, const char *options, char *out, size_t size)
{
    const char *colon = strchr(level->spec, ':');
    size_t n = (size_t)snprintf(
        out, size, "%.*s", (int)(colon ? (size_t)(colon - level->spec) : strlen(level->spec)), level->spec);
    char sep = ':';
    for (const char *p = colon ? colon + 1 : ""; *p && n < size;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        if (!eq || !sets_key(options, p, (size_t)(eq - p))) {
            n += (size_t)snprintf(out + n, size - n, "%c%.*s", sep, (int)len, p);
            sep = ',';
        }
        p = end ? end + 1 : p + len;
    }
    if (*options && n < size)
        n += (size_t)snprintf(out + n, size - n, "%c%s", sep, options);
    return n >= size;
}

/* Makes an engine from a spec with its options set and its generator seeded, but not started (no state):
 * what ttt_engine_new and ttt_engine_spec_expand share. Free it with discard(). */
static ttt_status engine_make(const char *spec, const ttt_rules *rules, ttt_engine **out, ttt_error *err)
{
    *out = NULL;
    if (!spec || !*spec)
        return ttt_fail(err, TTT_EINVAL, "engine '': empty spec (expected NAME[:key=value,...])");
    ttt_error sub;
    if (ttt_rules_check(rules, &sub))
        return ttt_fail(err, TTT_EINVAL, "engine '%s': %s", spec, sub.msg);
    const char *colon = strchr(spec, ':');
    size_t name_len = colon ? (size_t)(colon - spec) : strlen(spec);
    const ttt_level *level = ttt_level_find(spec, name_len);
    if (level) { /* an alias: the level's spec, its options overridden by the caller's */
        char expanded[TTT_SPEC_TEXT_SIZE + TTT_OPT_PATH_SIZE];
        if (colon && !colon[1])
            return ttt_fail(err, TTT_EINVAL, "engine '%s': empty option list after ':'", level->name);
        if (expand_level(level, colon ? colon + 1 : "", expanded, sizeof expanded))
            return ttt_fail(err, TTT_EINVAL, "engine '%s': spec too long", level->name);
        return engine_make(expanded, rules, out, err);
    }
    const ttt_engine_vtable *vt = find_engine(spec, name_len);
    if (!vt)
        return unknown_engine(spec, name_len, err);
    ttt_engine *e = calloc(1, sizeof *e);
    if (!e)
        return ttt_fail(err, TTT_ENOMEM, "engine '%s': out of memory", vt->about.name);
    e->vt = vt;
    e->rules = *rules;
    if (vt->config_size) {
        e->config = malloc(vt->config_size);
        if (!e->config) {
            free(e);
            return ttt_fail(err, TTT_ENOMEM, "engine '%s': out of memory", vt->about.name);
        }
        memcpy(e->config, vt->config_defaults, vt->config_size);
    }
    ttt_status st = colon ? apply_options(e, colon + 1, err) : TTT_OK;
    if (st) {
        free(e->config);
        free(e);
        return st;
    }
    ttt_rng_seed(&e->rng, e->seed);
    *out = e;
    return TTT_OK;
}

/* Frees an engine that engine_make made and that never started. */
static void discard(ttt_engine *e)
{
    free(e->config);
    free(e);
}

ttt_status ttt_engine_new_in(const char *spec, const ttt_rules *rules, const ttt_engine_env *env,
                             ttt_engine **out, ttt_error *err)
{
    *out = NULL;
    ttt_engine *e;
    ttt_status st = engine_make(spec, rules, &e, err);
    if (st)
        return st;
    if (env)
        e->env = *env;
    if (e->vt->check && (st = e->vt->check(e, err)) != TTT_OK) {
        discard(e);
        return st;
    }
    st = e->vt->start ? e->vt->start(e, err) : TTT_OK;
    if (st) {
        discard(e);
        return st;
    }
    *out = e;
    return TTT_OK;
}

ttt_status ttt_engine_new(const char *spec, const ttt_rules *rules, ttt_engine **out, ttt_error *err)
{
    return ttt_engine_new_in(spec, rules, NULL, out, err);
}

static size_t spec_write(const ttt_engine *e, char *buf, size_t size, bool time_last);
static ttt_status spec_finish(ttt_engine *e, char *out, size_t size, bool time_last, ttt_error *err);

ttt_status ttt_engine_spec_expand(const char *spec, const ttt_rules *rules, char *out, size_t size,
                                  ttt_error *err)
{
    assert(size > 0);
    ttt_engine *e;
    ttt_status st = engine_make(spec, rules, &e, err);
    if (st)
        return st;
    return spec_finish(e, out, size, false, err);
}

/* Writes e's full spec into out, frees e, and says when the spec did not fit. */
static ttt_status spec_finish(ttt_engine *e, char *out, size_t size, bool time_last, ttt_error *err)
{
    size_t n = spec_write(e, out, size, time_last);
    const char *name = e->vt->about.name;
    discard(e);
    if (n >= size) {
        out[0] = '\0';
        return ttt_fail(err, TTT_ELIMIT, "engine '%s': the full spec is %zu characters, more than %zu", name,
                        n, size - 1);
    }
    return TTT_OK;
}

/* The value of a UINT option of e. */
static uint64_t uint_of(const ttt_engine *e, const ttt_option_def *o)
{
    uint64_t v;
    memcpy(&v, (const char *)e->config + o->offset, sizeof v);
    return v;
}

static void uint_set(ttt_engine *e, const ttt_option_def *o, uint64_t v)
{
    memcpy((char *)e->config + o->offset, &v, sizeof v);
}

ttt_status ttt_engine_spec_bound(const char *spec, const ttt_rules *rules, const ttt_engine_caps *caps,
                                 char *out, size_t size, ttt_error *err)
{
    assert(size > 0 && caps->time_ms > 0);
    ttt_engine *e;
    ttt_status st = engine_make(spec, rules, &e, err);
    if (st)
        return st;
    const ttt_option_def *time = NULL, *work = NULL;
    for (const ttt_option_def *o = e->vt->options; o && o->key; o++) {
        assert(o->role == TTT_ROLE_NONE || o->type == TTT_OPT_UINT);
        if (o->role == TTT_ROLE_TIME && !time)
            time = o;
        else if (o->role == TTT_ROLE_WORK && !work)
            work = o;
        else if (o->role == TTT_ROLE_MEMORY && (double)uint_of(e, o) * o->unit > (double)caps->memory_bytes) {
            uint64_t most = (uint64_t)((double)caps->memory_bytes / o->unit);
            uint_set(e, o, most > o->umin ? most : o->umin);
        }
    }
    uint64_t time_ms = time ? uint_of(e, time) : 0;
    if (work && time_ms == 0 && !caps->strict) { /* the count is the budget without the cap's time */
        uint64_t cells = (uint64_t)ttt_rules_cells(rules), count = uint_of(e, work);
        uint64_t most = (uint64_t)((double)caps->work_cells / work->unit) / cells;
        if (count > most) {
            st = ttt_fail(err, TTT_ELIMIT,
                          "engine '%s': %s=%" PRIu64 " on %d cells is more than %s allows (%" PRIu64
                          "); ask for %s=MS instead",
                          e->vt->about.name, work->key, count, (int)cells, caps->who ? caps->who : "the caps",
                          most, time ? time->key : "time");
            discard(e);
            return st;
        }
    }
    /* Whatever the count, the time is capped too: a count's cost per unit is an average, and some boards and
     * positions take many times that (mcts:iterations=10000 on 20x20k20). Every engine stops at whichever of
     * its time and its counts runs out first. */
    if (time && (time_ms == 0 || time_ms > caps->time_ms))
        uint_set(e, time, caps->time_ms < time->umax ? caps->time_ms : time->umax);
    return spec_finish(e, out, size, true, err);
}

void ttt_engine_free(ttt_engine *e)
{
    if (!e)
        return;
    if (e->vt->stop)
        e->vt->stop(e);
    free(e->config);
    free(e);
}

/* The checks every request about a position makes: the engine's rules, a game still going. */
static ttt_status check_position(const ttt_engine *e, const ttt_board *b, const char *what, ttt_error *err)
{
    char want[TTT_RULES_TEXT_SIZE], got[TTT_RULES_TEXT_SIZE];
    if (!ttt_rules_equal(&e->rules, &b->rules))
        return ttt_fail(err, TTT_ESTATE, "engine '%s' was made for %s, not %s", e->vt->about.name,
                        ttt_rules_format(&e->rules, want, sizeof want),
                        ttt_rules_format(&b->rules, got, sizeof got));
    if (ttt_board_terminal(b))
        return ttt_fail(err, TTT_ESTATE, "engine '%s': the game is over, there is no move to %s",
                        e->vt->about.name, what);
    return TTT_OK;
}

ttt_status ttt_engine_choose_explained(ttt_engine *e, const ttt_board *b, ttt_move *out,
                                       ttt_search_info *info, ttt_explanation *why, ttt_error *err)
{
    ttt_status cst = check_position(e, b, "choose", err);
    if (cst)
        return cst;
    ttt_search_info local;
    memset(&local, 0, sizeof local);
    if (why) {
        memset(why, 0, sizeof *why);
        why->choice = TTT_NO_MOVE;
    }
    uint64_t before = e->nodes;
    double start = ttt_clock_ms();
    ttt_status st = e->vt->choose(e, b, out, &local, why, err);
    local.ms = ttt_clock_ms() - start;
    local.nodes = e->nodes - before;
    if (st == TTT_OK)
        assert(ttt_board_is_legal(b, *out));
    if (st == TTT_OK && why && why->method) {
        assert(why->choice == *out);
        why->info = local;
    }
    if (info)
        *info = local;
    return st;
}

ttt_status ttt_engine_choose(ttt_engine *e, const ttt_board *b, ttt_move *out, ttt_search_info *info,
                             ttt_error *err)
{
    return ttt_engine_choose_explained(e, b, out, info, NULL, err);
}

/* --- Explanations --------------------------------------------------------------------------------------- */

ttt_explain_layer *ttt_explain_layer_add(ttt_explanation *x, const char *name, const char *scale, double lo,
                                         double hi, bool percent)
{
    assert(lo < hi);
    if (x->layer_count >= TTT_EXPLAIN_MAX_LAYERS)
        return NULL;
    ttt_explain_layer *l = &x->layers[x->layer_count++];
    memset(l, 0, sizeof *l);
    *l = (ttt_explain_layer){.name = name, .scale = scale, .lo = lo, .hi = hi, .percent = percent};
    return l;
}

void ttt_explain_set(ttt_explain_layer *layer, ttt_move cell, double value)
{
    assert(cell >= 0 && cell < TTT_MAX_CELLS);
    layer->shown[cell] = true;
    layer->value[cell] = value < layer->lo ? layer->lo : value > layer->hi ? layer->hi : value;
}

void ttt_explain_fact_add(ttt_explanation *x, const char *name, double value)
{
    if (x->fact_count < TTT_EXPLAIN_MAX_FACTS)
        x->facts[x->fact_count++] = (ttt_explain_fact){.name = name, .value = value};
}

ttt_explain_line *ttt_explain_line_add(ttt_explanation *x, const char *label, int64_t count, const char *note,
                                       const ttt_move *moves, int length)
{
    assert(length >= 0 && length <= TTT_MAX_CELLS);
    if (x->line_count >= TTT_EXPLAIN_MAX_LINES)
        return NULL;
    ttt_explain_line *l = &x->lines[x->line_count++];
    l->label = label;
    l->count = count;
    l->note = note;
    l->length = length;
    if (length)
        memcpy(l->moves, moves, (size_t)length * sizeof *moves);
    return l;
}

bool ttt_engine_can_explain(const ttt_engine *e) { return e->vt->explain || e->vt->analyse; }

ttt_status ttt_engine_explain(ttt_engine *e, const ttt_board *b, ttt_explanation *out, ttt_error *err)
{
    if (!ttt_engine_can_explain(e))
        return ttt_fail(err, TTT_EINVAL, "engine '%s' cannot explain its moves", e->vt->about.name);
    ttt_status st = check_position(e, b, "explain", err);
    if (st)
        return st;
    memset(out, 0, sizeof *out);
    out->choice = TTT_NO_MOVE;
    uint64_t before = e->nodes;
    double start = ttt_clock_ms();
    if (e->vt->explain) {
        st = e->vt->explain(e, b, out, err);
    } else {
        ttt_analysis *a = malloc(sizeof *a);
        if (!a)
            return ttt_fail(err, TTT_ENOMEM, "out of memory");
        st = ttt_engine_analyse(e, b, a, err);
        if (st == TTT_OK) {
            ttt_explain_from_analysis(a, out);
            out->info.depth = a->info.depth;
        }
        free(a);
    }
    out->info.ms = ttt_clock_ms() - start;
    out->info.nodes = e->nodes - before;
    if (st == TTT_OK)
        assert(out->choice == TTT_NO_MOVE || ttt_board_is_legal(b, out->choice));
    return st;
}

bool ttt_engine_can_analyse(const ttt_engine *e) { return e->vt->analyse != NULL; }

ttt_status ttt_engine_analyse(ttt_engine *e, const ttt_board *b, ttt_analysis *out, ttt_error *err)
{
    if (!e->vt->analyse)
        return ttt_fail(err, TTT_EINVAL,
                        "engine '%s' cannot score moves (engines that can: see 'ttt engines')",
                        e->vt->about.name);
    ttt_status cst = check_position(e, b, "analyse", err);
    if (cst)
        return cst;
    memset(out, 0, sizeof *out);
    uint64_t before = e->nodes;
    double start = ttt_clock_ms();
    ttt_status st = e->vt->analyse(e, b, out, err);
    out->info.ms = ttt_clock_ms() - start;
    out->info.nodes = e->nodes - before;
    if (st == TTT_OK) {
        assert(out->count == b->cells - b->ply);
        ttt_analysis_sort(out);
    }
    return st;
}

void ttt_engine_new_game(ttt_engine *e)
{
    if (e->vt->new_game)
        e->vt->new_game(e);
}

ttt_status ttt_engine_game_over(ttt_engine *e, const ttt_move *moves, int count, ttt_outcome outcome,
                                ttt_error *err)
{
    return e->vt->game_over ? e->vt->game_over(e, moves, count, outcome, true, err) : TTT_OK;
}

static const char *memory_of(const ttt_engine *e) { return e && e->vt->memory ? e->vt->memory(e) : NULL; }

ttt_status ttt_engines_game_over(ttt_engine *const *engines, int n, const ttt_move *moves, int count,
                                 ttt_outcome outcome, ttt_error *err)
{
    ttt_status first = TTT_OK;
    ttt_error sub;
    for (int i = 0; i < n; i++) {
        ttt_engine *e = engines[i];
        if (!e || !e->vt->game_over)
            continue;
        const char *memory = memory_of(e);
        bool told = false, recorded = false;
        for (int j = 0; j < i; j++) {
            told |= engines[j] == e;
            const char *other = memory_of(engines[j]);
            recorded |= memory && other && strcmp(memory, other) == 0;
        }
        if (told)
            continue;
        ttt_status st = e->vt->game_over(e, moves, count, outcome, !recorded, &sub);
        if (st && first == TTT_OK) {
            first = st;
            if (err)
                *err = sub;
        }
    }
    return first;
}

const char *ttt_engine_name(const ttt_engine *e) { return e->vt->about.name; }

/* Writes option o of e as ",key=value" at buf + n (cut to fit in size); returns the new whole length. */
static size_t option_write(const ttt_engine *e, const ttt_option_def *o, char *buf, size_t size, size_t n)
{
    char *at = n < size ? buf + n : NULL;
    size_t left = n < size ? size - n : 0;
    const char *slot = (const char *)e->config + o->offset;
    switch (o->type) {
    case TTT_OPT_UINT: {
        uint64_t v;
        memcpy(&v, slot, sizeof v);
        return n + (size_t)snprintf(at, left, ",%s=%" PRIu64, o->key, v);
    }
    case TTT_OPT_DOUBLE: {
        double v;
        memcpy(&v, slot, sizeof v);
        return n + (size_t)snprintf(at, left, ",%s=%.17g", o->key, v);
    }
    case TTT_OPT_PATH: return *slot ? n + (size_t)snprintf(at, left, ",%s=%s", o->key, slot) : n;
    case TTT_OPT_SEED: break;
    }
    return n;
}

/* Writes the full spec into buf (cut to fit) and returns its whole length: the options in table order, or,
 * with time_last, the time option after the others (where a client's cap on it shows). */
static size_t spec_write(const ttt_engine *e, char *buf, size_t size, bool time_last)
{
    size_t n = (size_t)snprintf(buf, size, "%s:seed=%" PRIu64, e->vt->about.name, e->seed);
    for (const ttt_option_def *o = e->vt->options; o && o->key; o++)
        if (!time_last || o->role != TTT_ROLE_TIME)
            n = option_write(e, o, buf, size, n);
    for (const ttt_option_def *o = e->vt->options; time_last && o && o->key; o++)
        if (o->role == TTT_ROLE_TIME)
            n = option_write(e, o, buf, size, n);
    return n;
}

char *ttt_engine_spec(const ttt_engine *e, char *buf, size_t size)
{
    spec_write(e, buf, size, false);
    return buf;
}

uint64_t ttt_engine_nodes(const ttt_engine *e) { return e->nodes; }

const ttt_rules *ttt_engine_rules(const ttt_engine *e) { return &e->rules; }
