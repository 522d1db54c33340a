/*
 * analysis/table_build.c - building move tables (ttt/table.h) from uniformly random games: the games, their
 * scores, the threads and the chunked seeds. The table itself, its canonical forms and its file are
 * store/table_file.c's.
 *
 * The builder never calls the generic board code in its loop: its random games are the playout kernel's
 * (ttt/playout.h), one context per worker over the build's one geometry (rules/lines.h). Each worker
 * scores its games' moves under the position as played into a raw table, which costs one hash update per
 * move, and canonicalises each distinct raw entry once, when it flushes the raw table into its own table;
 * the workers' tables are merged at the end.
 */
#define _GNU_SOURCE /* strdup, st_mtim */
#include "ttt/table.h"

#include <assert.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/table_build.h"
#include "rules/lines.h"
#include "search/playout_lines.h"
#include "store/table_internal.h"
#include "util/error.h"

/* --- Scoring games ------------------------------------------------------------------------------------- */

/* The score of move i (0-based) of a game of `len` moves won by `winner` (TTT_NOBODY for a draw). */
static inline int64_t move_score(int i, int len, ttt_player winner)
{
    ttt_player mover = (ttt_player)(i & 1);
    if (i == len - 1 && winner == mover)
        return TTT_TABLE_SCORE_WIN;
    if (i == len - 2 && winner == (ttt_player)(1 - mover))
        return TTT_TABLE_SCORE_LET_WIN;
    return winner == mover ? TTT_TABLE_SCORE_WINNER : TTT_TABLE_SCORE_NOT_WINNER;
}

/* The scores of a finished game's moves, in order, into scores (room for len). */
static void game_scores(int len, ttt_player winner, int64_t *scores)
{
    for (int i = 0; i < len; i++)
        scores[i] = move_score(i, len, winner);
}

/* --- Random games ------------------------------------------------------------------------------------- */

/* Who won a finished playout: TTT_NOBODY for a draw. */
static ttt_player winner_of(ttt_outcome o)
{
    return o == TTT_X_WINS ? TTT_X : o == TTT_O_WINS ? TTT_O : TTT_NOBODY;
}

/* Starts chunk `chunk` of a build with `seed`: the playouts from the empty board (which also puts their
 * order of cells back, so that a chunk's games do not depend on the chunks played before it) and the
 * chunk's generator. */
static void start_chunk(ttt_playout *p, const ttt_rules *rules, uint64_t seed, uint64_t chunk, ttt_rng *rng)
{
    ttt_board empty;
    ttt_board_init(&empty, rules);
    ttt_playout_set_position(p, &empty);
    ttt_rng_seed(rng, ttt_table_chunk_seed(seed, chunk));
}

ttt_status ttt_table_add_game(ttt_table *t, const ttt_move *moves, int count, ttt_error *err)
{
    ttt_board b;
    ttt_board_init(&b, ttt_table_rules(t));
    uint8_t seq[TTT_TABLE_MAX_CELLS];
    for (int i = 0; i < count; i++) {
        ttt_error sub;
        if (ttt_board_play_checked(&b, moves[i], &sub))
            return ttt_fail(err, TTT_EINVAL, "table: game move %d: %s", i + 1, sub.msg);
        seq[i] = (uint8_t)moves[i];
    }
    if (!ttt_board_terminal(&b))
        return ttt_fail(err, TTT_EINVAL, "table: the game is not over after %d moves", count);
    int64_t scores[TTT_TABLE_MAX_CELLS];
    game_scores(count, ttt_board_winner(&b), scores);
    if (ttt_table_add_moves(t, seq, scores, count))
        return ttt_fail(err, TTT_ENOMEM, "table: out of memory");
    ttt_table_set_origin(t, ttt_table_games(t) + 1, ttt_table_seed(t));
    return TTT_OK;
}

/* --- Building ------------------------------------------------------------------------------------------ */

/* Chunk c's generator seed: a key from the build seed, then the chunk number. Distinct chunks of one build
 * get distinct seeds. */
uint64_t ttt_table_chunk_seed(uint64_t seed, uint64_t chunk)
{
    uint64_t state = seed;
    return ttt_splitmix64(&state) ^ chunk;
}

void ttt_table_chunk_start(ttt_playout *p, const ttt_rules *rules, uint64_t seed, uint64_t chunk,
                           ttt_rng *rng)
{
    start_chunk(p, rules, seed, chunk, rng);
}

int ttt_table_random_game(ttt_playout *p, ttt_rng *rng, ttt_move *moves)
{
    ttt_playout_run(p, rng, NULL);
    return ttt_playout_last_moves(p, moves);
}

/* The builder's fast path scores moves under the position as played (raw: no canonical form), which costs one
 * hash update per move, and canonicalises each distinct raw entry once, when it flushes the raw table into
 * the canonical one. On small boards the raw table never fills up (3x3 has 4,520 unfinished positions); on
 * big ones it is flushed every so often to bound its memory. */
#define RAW_FLUSH_ENTRIES (1u << 20)

/* Adds every raw entry to its canonical entry in canon, then empties raw. */
static ttt_status flush_raw(ttt_table *canon, ttt_table *raw)
{
    if (ttt_table_merge(canon, raw, true))
        return TTT_ENOMEM;
    ttt_table_clear(raw);
    return TTT_OK;
}

/* The calling thread reports the build's progress every this many of its games. */
#define TABLE_PROGRESS_GAMES 1024

typedef struct build_shared {
    uint64_t games, seed, chunks;
    atomic_uint_fast64_t next_chunk;
    atomic_uint_fast64_t done;
    atomic_bool failed;
    const ttt_rules *rules;
    ttt_table_progress_fn progress;
    void *user;
} build_shared;

typedef struct build_worker {
    build_shared *shared;
    ttt_table *table, *raw;
    ttt_playout *playout; /* the worker's random games, over the build's one geometry */
    bool reports;         /* the calling thread's worker: the one that calls progress */
    ttt_status status;
} build_worker;

static void *build_run(void *arg)
{
    build_worker *w = arg;
    build_shared *sh = w->shared;
    ttt_move played[TTT_MAX_CELLS];
    uint8_t moves[TTT_TABLE_MAX_CELLS];
    int64_t scores[TTT_TABLE_MAX_CELLS];
    for (;;) {
        uint64_t c = atomic_fetch_add(&sh->next_chunk, 1);
        if (c >= sh->chunks || atomic_load(&sh->failed))
            break;
        ttt_rng rng;
        start_chunk(w->playout, sh->rules, sh->seed, c, &rng);
        uint64_t first = c * TTT_TABLE_CHUNK_GAMES;
        uint64_t n = sh->games - first < TTT_TABLE_CHUNK_GAMES ? sh->games - first : TTT_TABLE_CHUNK_GAMES;
        uint64_t counted = 0; /* games of this chunk added to sh->done */
        for (uint64_t i = 0; i < n; i++) {
            ttt_player winner = winner_of(ttt_playout_run(w->playout, &rng, NULL));
            int len = ttt_playout_last_moves(w->playout, played);
            for (int m = 0; m < len; m++)
                moves[m] = (uint8_t)played[m];
            game_scores(len, winner, scores);
            if (ttt_table_add_moves_raw(w->raw, moves, scores, len) ||
                (ttt_table_entries(w->raw) > RAW_FLUSH_ENTRIES && flush_raw(w->table, w->raw))) {
                w->status = TTT_ENOMEM;
                atomic_store(&sh->failed, true);
                return NULL;
            }
            /* Progress within a chunk too: a chunk of a big board's games can take seconds. */
            if ((i + 1) % TABLE_PROGRESS_GAMES == 0 || i + 1 == n) {
                uint64_t done = atomic_fetch_add(&sh->done, i + 1 - counted) + (i + 1 - counted);
                counted = i + 1;
                if (w->reports && sh->progress)
                    sh->progress(done, sh->games, sh->user);
            }
        }
    }
    if (flush_raw(w->table, w->raw)) {
        w->status = TTT_ENOMEM;
        atomic_store(&sh->failed, true);
    }
    return NULL;
}

ttt_status ttt_table_build(const ttt_rules *rules, const ttt_table_build_options *opt, ttt_table **out,
                           ttt_error *err)
{
    *out = NULL;
    if (opt->games > TTT_TABLE_MAX_GAMES)
        return ttt_fail(err, TTT_EINVAL, "table: games must be from 0 to %" PRId64, TTT_TABLE_MAX_GAMES);
    if (opt->seed > TTT_TABLE_MAX_SEED)
        return ttt_fail(err, TTT_EINVAL, "table: seed must be from 0 to %" PRId64, TTT_TABLE_MAX_SEED);
    if (opt->jobs < 0 || opt->jobs > TTT_TABLE_MAX_JOBS)
        return ttt_fail(err, TTT_EINVAL, "table: jobs must be from 1 to %d", TTT_TABLE_MAX_JOBS);
    build_shared sh = {.games = opt->games,
                       .seed = opt->seed,
                       .chunks = (opt->games + TTT_TABLE_CHUNK_GAMES - 1) / TTT_TABLE_CHUNK_GAMES,
                       .rules = rules,
                       .progress = opt->progress,
                       .user = opt->user};
    atomic_init(&sh.next_chunk, 0);
    atomic_init(&sh.done, 0);
    atomic_init(&sh.failed, false);
    int jobs = opt->jobs ? opt->jobs : 1;
    if ((uint64_t)jobs > sh.chunks)
        jobs = sh.chunks ? (int)sh.chunks : 1;
    build_worker workers[TTT_TABLE_MAX_JOBS];
    pthread_t threads[TTT_TABLE_MAX_JOBS];
    bool started[TTT_TABLE_MAX_JOBS] = {false};
    const ttt_lines *lines = NULL;
    ttt_status st = TTT_OK;
    int made = 0;
    for (; made < jobs; made++) {
        build_worker *w = &workers[made];
        *w = (build_worker){.shared = &sh, .reports = made == 0, .status = TTT_OK};
        /* ttt_table_new checks the rules (valid, small enough) before the geometry is made of them */
        if ((st = ttt_table_new(rules, &w->table, err)) == TTT_OK && !lines)
            st = ttt_lines_new(rules, &lines, err);
        if (st == TTT_OK)
            st = ttt_table_new(rules, &w->raw, err);
        if (st == TTT_OK)
            st = ttt_playout_new_over(lines, &w->playout, err);
        if (st) {
            ttt_table_free(w->table);
            ttt_table_free(w->raw);
            ttt_playout_free(w->playout);
            break;
        }
    }
    if (st == TTT_OK) {
        /* Worker 0 runs in this thread; a thread that cannot be started just leaves its chunks to the others.
         */
        for (int i = 1; i < jobs; i++)
            started[i] = pthread_create(&threads[i], NULL, build_run, &workers[i]) == 0;
        build_run(&workers[0]);
        for (int i = 1; i < jobs; i++)
            if (started[i])
                pthread_join(threads[i], NULL);
        for (int i = 0; i < jobs && st == TTT_OK; i++)
            st = workers[i].status;
        for (int i = 1; i < jobs && st == TTT_OK; i++)
            st = ttt_table_merge(workers[0].table, workers[i].table, false);
        if (st)
            ttt_fail(err, st, "table: out of memory after %" PRIu64 " games",
                     (uint64_t)atomic_load(&sh.done));
    }
    for (int i = 0; i < made; i++) {
        ttt_table_free(workers[i].raw);
        ttt_playout_free(workers[i].playout);
    }
    for (int i = 1; i < made; i++)
        ttt_table_free(workers[i].table);
    ttt_lines_unref(lines);
    if (st) {
        if (made)
            ttt_table_free(workers[0].table);
        return st;
    }
    ttt_table *t = workers[0].table;
    ttt_table_set_origin(t, opt->games, opt->seed);
    if (opt->progress)
        opt->progress(opt->games, opt->games, opt->user);
    *out = t;
    return TTT_OK;
}

uint64_t ttt_table_default_games(const ttt_rules *rules)
{
    int cells = ttt_rules_cells(rules);
    return cells <= 9                             ? TTT_TABLE_DEFAULT_GAMES
           : cells <= 16                          ? TTT_TABLE_DEFAULT_GAMES_16
           : cells <= TTT_TABLE_DEFAULT_MAX_CELLS ? TTT_TABLE_DEFAULT_GAMES_25
                                                  : 0;
}

uint64_t ttt_table_max_entries(const ttt_rules *rules, uint64_t games)
{
    uint64_t cells = (uint64_t)ttt_rules_cells(rules), positions = 1;
    for (uint64_t i = 0; i < cells && positions <= UINT64_MAX / 3 / cells; i++)
        positions *= 3;
    uint64_t by_positions = positions <= UINT64_MAX / 3 / cells ? positions * cells : UINT64_MAX;
    uint64_t by_games = games <= UINT64_MAX / cells ? games * cells : UINT64_MAX;
    return by_games < by_positions ? by_games : by_positions;
}

ttt_status ttt_table_build_default(const ttt_rules *rules, int jobs, ttt_table **out, ttt_error *err)
{
    *out = NULL;
    uint64_t games = ttt_table_default_games(rules);
    if (games == 0) {
        char rt[TTT_RULES_TEXT_SIZE];
        return ttt_fail(err, TTT_EINVAL,
                        "no default table for boards of more than %d cells; build one with 'ttt table build "
                        "--rules %s --games N --out FILE' and pass file=FILE",
                        TTT_TABLE_DEFAULT_MAX_CELLS, ttt_rules_format(rules, rt, sizeof rt));
    }
    ttt_table_build_options opt = {.games = games, .seed = TTT_TABLE_DEFAULT_SEED, .jobs = jobs};
    return ttt_table_build(rules, &opt, out, err);
}

/* --- Tables shared within a process -------------------------------------------------------------------- */

/* Threads that build a missing default table (the table is the same whatever the number). */
#define TABLE_DEFAULT_BUILD_JOBS 2

/* One table of the cache: a file's (identified by its path and what stat says of it) or a default table
 * that could not be saved (path ""), with its users. */
typedef struct shared_table {
    struct shared_table *next;
    ttt_table *table;
    ttt_rules rules;
    char *path;
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
    int users;   /* acquired and not yet released */
    bool cached; /* the cache keeps it (until ttt_table_cache_clear or a newer file at its path) */
} shared_table;

/* The cache: process-wide by design (one load per file and process), under one lock; a load or a build
 * happens under it too, so that two engines asking at once never load or build the same table twice. */
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;
static shared_table *shared_list;
static ttt_table_built_fn built_listener;
static void *built_user;

void ttt_table_set_built_listener(ttt_table_built_fn fn, void *user)
{
    pthread_mutex_lock(&shared_lock);
    built_listener = fn;
    built_user = user;
    pthread_mutex_unlock(&shared_lock);
}

/* Frees the entries nobody uses and the cache no longer keeps. Under the lock. */
static void shared_sweep(void)
{
    for (shared_table **p = &shared_list; *p;) {
        shared_table *e = *p;
        if (e->users == 0 && !e->cached) {
            *p = e->next;
            ttt_table_free(e->table);
            free(e->path);
            free(e);
        } else {
            p = &e->next;
        }
    }
}

/* Adds a table to the cache with one user; path "" for a table with no file. Under the lock. NULL when memory
 * runs out (the table is then the caller's still). */
static shared_table *shared_add(ttt_table *table, const ttt_rules *rules, const char *path,
                                const struct stat *sb)
{
    shared_table *e = calloc(1, sizeof *e);
    char *copy = e ? strdup(path) : NULL;
    if (!copy) {
        free(e);
        return NULL;
    }
    for (shared_table *old = shared_list; old; old = old->next)
        if (strcmp(old->path, path) == 0 && ttt_rules_equal(&old->rules, rules))
            old->cached = false; /* an older file at the same path, or the table built before it was saved */
    *e = (shared_table){
        .next = shared_list, .table = table, .rules = *rules, .path = copy, .users = 1, .cached = true};
    if (sb) {
        e->dev = sb->st_dev;
        e->ino = sb->st_ino;
        e->size = sb->st_size;
        e->mtime = sb->st_mtim;
    }
    shared_list = e;
    shared_sweep();
    return e;
}

/* The cached table of the file at path as it is now (sb), or of rules with no file (sb NULL), with one more
 * user; NULL when the cache has none. Under the lock. */
static ttt_table *shared_find(const char *path, const ttt_rules *rules, const struct stat *sb)
{
    for (shared_table *e = shared_list; e; e = e->next) {
        if (!e->cached || strcmp(e->path, path) != 0 || !ttt_rules_equal(&e->rules, rules))
            continue;
        if (sb && (e->dev != sb->st_dev || e->ino != sb->st_ino || e->size != sb->st_size ||
                   e->mtime.tv_sec != sb->st_mtim.tv_sec || e->mtime.tv_nsec != sb->st_mtim.tv_nsec))
            continue;
        e->users++;
        return e->table;
    }
    return NULL;
}

/* ttt_table_acquire of a file: from the cache, else loaded and cached. Under the lock. */
static ttt_status shared_load(const char *path, const ttt_rules *rules, const ttt_table **out, ttt_error *err)
{
    struct stat sb;
    bool known = stat(path, &sb) == 0;
    ttt_table *t = known ? shared_find(path, rules, &sb) : NULL;
    if (t) {
        *out = t;
        return TTT_OK;
    }
    ttt_status st = ttt_table_load(path, rules, &t, err);
    if (st)
        return st;
    if (!known || !shared_add(t, rules, path, &sb)) {
        ttt_table_free(t);
        return ttt_fail(err, TTT_ENOMEM, "table '%s': out of memory", path);
    }
    *out = t;
    return TTT_OK;
}

/* ttt_table_acquire of a default table: its file, else the one built before in this process, else built now
 * and saved. Under the lock. */
static ttt_status shared_default(const ttt_rules *rules, const ttt_table **out, ttt_table_built *built,
                                 ttt_error *err)
{
    char *path = built->path;
    ttt_error ignored;
    bool have_path = ttt_table_default_path(rules, true, path, sizeof built->path, &ignored) == TTT_OK;
    if (!have_path)
        path[0] = '\0';
    struct stat sb;
    if (have_path && stat(path, &sb) == 0)
        return shared_load(path, rules, out, err);
    ttt_table *t = shared_find("", rules, NULL);
    if (t) {
        *out = t;
        return TTT_OK;
    }
    double start = ttt_clock_ms();
    ttt_status st = ttt_table_build_default(rules, TABLE_DEFAULT_BUILD_JOBS, &t, err);
    if (st)
        return st;
    built->rules = *rules;
    built->games = ttt_table_games(t);
    /* A cache: without it the next process builds again; a failed write leaves the table to this one. */
    built->saved = have_path && ttt_table_save(t, path, &ignored) == TTT_OK && stat(path, &sb) == 0;
    built->ms = ttt_clock_ms() - start;
    built->bytes = built->saved ? (uint64_t)sb.st_size : 0;
    if (!shared_add(t, rules, built->saved ? path : "", built->saved ? &sb : NULL)) {
        ttt_table_free(t);
        return ttt_fail(err, TTT_ENOMEM, "table: out of memory");
    }
    *out = t;
    return TTT_OK;
}

ttt_status ttt_table_acquire(const char *path, const ttt_rules *rules, const ttt_table **out,
                             ttt_table_built *built, ttt_error *err)
{
    *out = NULL;
    ttt_table_built mine = {.ms = -1};
    pthread_mutex_lock(&shared_lock);
    ttt_status st = path ? shared_load(path, rules, out, err) : shared_default(rules, out, &mine, err);
    ttt_table_built_fn listener = built_listener;
    void *user = built_user;
    pthread_mutex_unlock(&shared_lock);
    if (mine.ms >= 0 && listener)
        listener(&mine, user);
    if (built)
        *built = mine;
    return st;
}

void ttt_table_release(const ttt_table *t)
{
    if (!t)
        return;
    pthread_mutex_lock(&shared_lock);
    for (shared_table *e = shared_list; e; e = e->next)
        if (e->table == t) {
            assert(e->users > 0);
            e->users--;
            break;
        }
    shared_sweep();
    pthread_mutex_unlock(&shared_lock);
}

void ttt_table_cache_clear(void)
{
    pthread_mutex_lock(&shared_lock);
    for (shared_table *e = shared_list; e; e = e->next)
        e->cached = false;
    shared_sweep();
    pthread_mutex_unlock(&shared_lock);
}
