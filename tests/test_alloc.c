/*
 * Out-of-memory paths, as Lua's ltests do: every allocation is counted, and the Nth one fails when the test
 * arms it. Each scenario below (a public entry point that allocates, used only through the public headers) runs
 * with a failure at N = 1, 2, 3, ... until a run makes fewer than N allocations, which must then succeed.
 * Every run with a failure must return an error status (TTT_ENOMEM, or the documented status with "out of
 * memory" in the message) and a message, without crashing; under AddressSanitizer a leak check after each
 * scenario shows that the failed runs freed everything.
 *
 * The library's own malloc, calloc, realloc and strdup are wrapped at link time (-Wl,--wrap=..., this
 * program only: CMakeLists.txt). SQLite allocates through the same counter by its own hook
 * (SQLITE_CONFIG_MALLOC), so that its failures reach the store's error paths too; its call site is the
 * library's call into SQLite. jansson's allocations never fail: jansson 2.14's parser crashes when one does
 * (a write through a bad pointer in json_loadb, under ttt_store_import_parse). The distinct call sites made
 * to fail are counted and printed at the end.
 */
#define _GNU_SOURCE /* mkdtemp, malloc_usable_size, dladdr */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <execinfo.h>
#include <malloc.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ttt/ttt.h"
#include "support.h"

#if defined(__SANITIZE_ADDRESS__)
#define ALLOC_LEAK_CHECK 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ALLOC_LEAK_CHECK 1
#endif
#endif
#ifdef ALLOC_LEAK_CHECK
#include <sanitizer/lsan_interface.h>
#endif

/* A scenario that still allocates after this many runs is broken (it would loop forever). */
#define ALLOC_MAX_RUNS 100000
/* Room for the distinct call sites made to fail. */
#define ALLOC_MAX_SITES 4096
/* Frames looked at to find the library's call into SQLite. */
#define ALLOC_MAX_FRAMES 64

/* --- The failing allocator -------------------------------------------------------------------------------- */

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);
char *__real_strdup(const char *s);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *p, size_t size);
char *__wrap_strdup(const char *s);

/* The executable's text (the test and the static libttt.a in it): GNU ld defines both. */
extern const char __executable_start[];
extern const char etext[];

typedef enum alloc_via { VIA_LIBTTT, VIA_SQLITE, VIA_COUNT } alloc_via;
static const char *const via_name[VIA_COUNT] = {"in libttt", "through SQLite"};

static atomic_long alloc_calls;   /* allocations counted since arming */
static atomic_long alloc_fail_at; /* the call that fails (1-based), 0 when disarmed */
static atomic_bool alloc_failed;  /* the armed call came and failed */

typedef struct alloc_site {
    const void *pc;
    alloc_via via;
} alloc_site;
static alloc_site sites[ALLOC_MAX_SITES];
static const void *last_site; /* of the last failure: named in a test's complaint */
static int site_count;
static long failing_runs;

static bool in_executable(const void *pc)
{
    return (const char *)pc >= __executable_start && (const char *)pc < etext;
}

static bool in_sqlite(const void *pc)
{
    Dl_info self, info;
    return dladdr((const void *)sqlite3_libversion, &self) && dladdr(pc, &info) &&
           info.dli_fbase == self.dli_fbase;
}

static void record_site(const void *pc, alloc_via via)
{
    if (via != VIA_LIBTTT) { /* the first frame in the executable past SQLite's: the library's call */
        void *frames[ALLOC_MAX_FRAMES];
        int n = backtrace(frames, ALLOC_MAX_FRAMES), i = 0;
        while (i < n && !in_sqlite(frames[i]))
            i++;
        while (i < n && !in_executable(frames[i]))
            i++;
        pc = i < n ? frames[i] : NULL;
    }
    last_site = pc;
    for (int i = 0; i < site_count; i++)
        if (sites[i].pc == pc && sites[i].via == via)
            return;
    if (site_count < ALLOC_MAX_SITES)
        sites[site_count++] = (alloc_site){pc, via};
}

/* True when this allocation is to fail. */
static bool alloc_fails(const void *pc, alloc_via via)
{
    long at = atomic_load(&alloc_fail_at);
    if (!at || atomic_fetch_add(&alloc_calls, 1) + 1 != at)
        return false;
    atomic_store(&alloc_failed, true);
    record_site(pc, via);
    return true;
}

void *__wrap_malloc(size_t size)
{
    return alloc_fails(__builtin_return_address(0), VIA_LIBTTT) ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t count, size_t size)
{
    return alloc_fails(__builtin_return_address(0), VIA_LIBTTT) ? NULL : __real_calloc(count, size);
}

void *__wrap_realloc(void *p, size_t size)
{
    return alloc_fails(__builtin_return_address(0), VIA_LIBTTT) ? NULL : __real_realloc(p, size);
}

char *__wrap_strdup(const char *s)
{
    return alloc_fails(__builtin_return_address(0), VIA_LIBTTT) ? NULL : __real_strdup(s);
}

/* SQLite's allocator (sqlite3_mem_methods): its sizes come from malloc_usable_size, as its own does. */
static bool sqlite_fails = true; /* cleared for the scenarios that set sqlite_never_fails */

static void *sql_malloc(int size)
{
    return sqlite_fails && alloc_fails(NULL, VIA_SQLITE) ? NULL : __real_malloc((size_t)size);
}
static void sql_free(void *p) { free(p); }
static void *sql_realloc(void *p, int size)
{
    return sqlite_fails && alloc_fails(NULL, VIA_SQLITE) ? NULL : __real_realloc(p, (size_t)size);
}
static int sql_size(void *p) { return p ? (int)malloc_usable_size(p) : 0; }
static int sql_roundup(int size) { return (size + 7) & ~7; }
static int sql_init(void *data)
{
    (void)data;
    return SQLITE_OK;
}
static void sql_shutdown(void *data) { (void)data; }

static void alloc_arm(long at)
{
    atomic_store(&alloc_calls, 0);
    atomic_store(&alloc_failed, false);
    atomic_store(&alloc_fail_at, at);
}

/* Disarms; returns whether the armed allocation failed. */
static bool alloc_disarm(void)
{
    atomic_store(&alloc_fail_at, 0);
    return atomic_load(&alloc_failed);
}

/* --- Scenarios ------------------------------------------------------------------------------------------- */

typedef struct scenario scenario;
struct scenario {
    const char *name;
    ttt_status (*run)(const scenario *s, ttt_error *err);
    const char *rules; /* the rules text, when the scenario has rules (the store's: ":memory:" or "file") */
    const char *spec;  /* an engine spec, for the engine scenarios */
    /* A status besides TTT_ENOMEM that a failed allocation may give (TTT_OK: none), with "out of memory"
     * in the message: the store's documented TTT_EIO for everything SQLite reports, say. */
    ttt_status also;
    /* A failed allocation may leave the call succeeding: a cache that does not grow (the solver's table, the
     * MCTS tree). Such runs are counted as absorbed. */
    bool absorbs;
    /* SQLite's own allocations never fail in this scenario (only the library's do). Set, until they are
     * fixed, for the scenarios that open a store: when SQLite runs out of memory, store.c misreads it. In
     * store_open: check_owner ignores a failed COMMIT (store.c:166), so the read transaction stays open and
     * the next statement fails with "Safety level may not be changed inside a transaction"; a failed
     * query_int (-1) reads as "marked as ttt but has no ttt_meta format row" (TTT_EINVAL, store.c:295) and,
     * in migrate, as schema version -1, which indexes migrations[-1] (store.c:224: UBSan's "index -1 out of
     * bounds", then SQL from outside the array). */
    bool sqlite_never_fails;
};

/* Shared, made before any failure is armed. */
static char tmpdir[256];
static char table_file[300];      /* a small 3x3 table, saved */
static ttt_table *small_table[3]; /* by the index of the rules in engine_rules; NULL over 64 cells */
static const char *const engine_rules[] = {"3x3", "7x7k5", "15x15k5"};
static ttt_analysis analysis;       /* big: static, so that the scenarios allocate nothing themselves */
static ttt_explanation explanation; /* big: the same */
static ttt_search_result search_result;

/* A finished game of any rules with rows >= k: X down column 0 (k stones), O down column 1 (k - 1). */
static int won_game(const ttt_rules *r, ttt_move *moves)
{
    int n = 0;
    for (int i = 0; i < r->k; i++) {
        moves[n++] = i * r->cols;
        if (i < r->k - 1)
            moves[n++] = i * r->cols + 1;
    }
    return n;
}

/* The position after X takes the centre and O the cell to its right. */
static ttt_board opening(const ttt_rules *r)
{
    ttt_board b;
    ttt_board_init(&b, r);
    int centre = r->rows / 2 * r->cols + r->cols / 2;
    ttt_board_play(&b, centre);
    ttt_board_play(&b, centre + 1);
    return b;
}

/* Parsing allocates nothing today (no failing run): the scenario is there to say so, and to test the day it does. */
static ttt_status run_rules_and_notation(const scenario *s, ttt_error *err)
{
    (void)s;
    ttt_rules r;
    ttt_board b;
    ttt_move moves[TTT_MAX_CELLS];
    int n;
    ttt_status st = ttt_rules_parse("15x15k5-misere", &r, err);
    if (!st)
        st = ttt_position_parse("x.o/.x./..o", NULL, &b, err);
    if (!st)
        st = ttt_moves_parse("b2 a1 c3", &r, moves, TTT_MAX_CELLS, &n, err);
    return st;
}

/* A solver of the scenario's rules (a 1 MiB table) and their empty board in *b. */
static ttt_status solver_of(const scenario *s, ttt_solver **solver, ttt_board *b, ttt_error *err)
{
    ttt_rules r = rules_of(s->rules);
    ttt_board_init(b, &r);
    return ttt_solver_new(&r, 1, solver, err);
}

static ttt_status run_solver(const scenario *s, ttt_error *err)
{
    ttt_solver *solver;
    ttt_board b;
    ttt_status st = solver_of(s, &solver, &b, err);
    if (st)
        return st;
    ttt_rules r = b.rules;
    ttt_limits limits = {.nodes = 20000};
    ttt_result value;
    ttt_value_result within;
    if (strstr(s->name,
               "threads")) { /* every root move valued exactly on two threads, a helper solver each */
        st = ttt_solver_set_threads(solver, 2, err);
        if (!st)
            st = ttt_solver_search(solver, &b, NULL, true, &search_result, err);
    } else {
        st = ttt_solver_search(solver, &b, &limits, true, &search_result, err);
        if (!st)
            st = ttt_solver_value_within(solver, &b, &limits, &within, err);
        if (!st && r.rows * r.cols <= 9)
            st = ttt_solver_value(solver, &b, &value, NULL, NULL, err);
    }
    ttt_solver_free(solver);
    return st;
}

static ttt_status run_playout(const scenario *s, ttt_error *err)
{
    ttt_rules r = rules_of(s->rules);
    ttt_playout *p;
    ttt_status st = ttt_playout_new(&r, &p, err);
    if (st)
        return st;
    ttt_rng rng;
    ttt_rng_seed(&rng, 1);
    ttt_board b = opening(&r);
    ttt_playout_set_position(p, &b);
    for (int i = 0; i < 4; i++)
        ttt_playout_run(p, &rng, NULL);
    ttt_playout_free(p);
    return TTT_OK;
}

/* The engine scenario's env: no file of the engine's own choosing, and the small table of the rules. */
static ttt_engine_env engine_env(const ttt_rules *r)
{
    ttt_engine_env env = {.no_files = true};
    for (int i = 0; i < (int)(sizeof engine_rules / sizeof engine_rules[0]); i++)
        if (small_table[i] && ttt_rules_equal(ttt_table_rules(small_table[i]), r))
            env.table = small_table[i];
    return env;
}

/* Makes the engine, chooses a move, analyses and explains when it can, and tells it a finished game. */
static ttt_status run_engine(const scenario *s, ttt_error *err)
{
    ttt_rules r = rules_of(s->rules);
    ttt_engine_env env = engine_env(&r);
    ttt_engine *e;
    ttt_status st = strstr(s->spec, "file=") || strstr(s->spec, "memory=")
                        ? ttt_engine_new(s->spec, &r, &e, err)
                        : ttt_engine_new_in(s->spec, &r, &env, &e, err);
    if (st)
        return st;
    ttt_board b = opening(&r);
    ttt_move m;
    st = ttt_engine_choose(e, &b, &m, NULL, err);
    if (!st && ttt_engine_can_analyse(e))
        st = ttt_engine_analyse(e, &b, &analysis, err);
    if (!st && ttt_engine_can_explain(e))
        st = ttt_engine_explain(e, &b, &explanation, err);
    ttt_move moves[TTT_MAX_CELLS];
    int n = won_game(&r, moves);
    if (!st)
        st = ttt_engine_game_over(e, moves, n, TTT_X_WINS, err);
    ttt_engine_free(e);
    return st;
}

static ttt_status run_table(const scenario *s, ttt_error *err)
{
    (void)s;
    ttt_rules r = ttt_rules_default();
    ttt_table *t;
    ttt_table_build_options opt = {.games = 3, .seed = 5, .jobs = 1};
    ttt_status st = ttt_table_build(&r, &opt, &t, err);
    if (st)
        return st;
    ttt_move moves[TTT_MAX_CELLS];
    int n = won_game(&r, moves);
    st = ttt_table_add_game(t, moves, n, err);
    char path[400];
    snprintf(path, sizeof path, "%s/scenario.json", tmpdir);
    if (!st)
        st = ttt_table_save(t, path, err);
    ttt_table_free(t);
    if (!st)
        st = ttt_table_load(path, &r, &t, err);
    if (!st)
        ttt_table_free(t);
    return st;
}

/* A table of a bigger board from more games: its hash table grows. */
static ttt_status run_table_grows(const scenario *s, ttt_error *err)
{
    ttt_rules r = rules_of(s->rules);
    ttt_table *t;
    ttt_table_build_options opt = {.games = 100, .seed = 2, .jobs = 1};
    ttt_status st = ttt_table_build(&r, &opt, &t, err);
    if (st)
        return st;
    ttt_table_free(t);
    st = ttt_table_new(&r, &t, err);
    ttt_move moves[TTT_MAX_CELLS];
    int n = won_game(&r, moves);
    if (!st)
        st = ttt_table_add_game(t, moves, n, err);
    if (!st)
        ttt_table_free(t);
    return st;
}

static int count_games(const ttt_game_record *g, void *user)
{
    (void)g;
    ++*(int *)user;
    return 0;
}

static int count_sequences(const ttt_store_sequence *q, void *user)
{
    (void)q;
    ++*(int *)user;
    return 0;
}

static int count_stats(const ttt_store_memory_stats *m, void *user)
{
    (void)m;
    ++*(int *)user;
    return 0;
}

/* A new database file each run: opening it creates the schema. Then every kind of read and write. */
static ttt_status run_store(const scenario *s, ttt_error *err)
{
    char path[400];
    if (strcmp(s->rules, ":memory:") == 0)
        snprintf(path, sizeof path, ":memory:");
    else {
        snprintf(path, sizeof path, "%s/scenario.db", tmpdir);
        for (const char *ext = ""; ext; ext = *ext ? (ext[1] == 'w' ? "-shm" : NULL) : "-wal") {
            char name[420];
            snprintf(name, sizeof name, "%s%s", path, ext);
            unlink(name);
        }
    }
    ttt_store *db;
    ttt_status st = ttt_store_open(path, &db, err);
    if (st)
        return st;
    ttt_rules r = ttt_rules_default();
    ttt_move moves[TTT_MAX_CELLS];
    int n = won_game(&r, moves), seen = 0;
    ttt_game_record rec, back;
    int64_t id, count;
    static const char import[] =
        "{\"format\": \"ttt-memory\", \"version\": 1, \"memories\": [{\"rules\": \"3x3\", "
        "\"sequences\": [{\"moves\": \"a1 b1 a2 b2 a3\", \"result\": \"x\", \"count\": 2}]}]}";
    ttt_store_import *imp = NULL;
    st = ttt_game_record_make(&r, moves, n, "random", NULL, 1, 2, &rec, err);
    if (!st)
        st = ttt_store_add_game(db, &rec, &id, err);
    if (!st)
        st = ttt_store_get_game(db, id, &back, err);
    if (!st)
        st = ttt_store_list_games(db, 0, count_games, &seen, err);
    if (!st)
        st = ttt_store_count_games(db, &count, err);
    if (!st)
        st = ttt_store_learn(db, "3x3", "a1 b1 a2 b2 a3", "x", 1, err);
    if (!st)
        st = ttt_store_import_parse(import, sizeof import - 1, &imp, err);
    if (!st)
        st = ttt_store_import_apply(db, imp, err);
    if (!st)
        st = ttt_store_sequences(db, NULL, count_sequences, &seen, err);
    if (!st)
        st = ttt_store_memory_stats_each(db, count_stats, &seen, err);
    if (!st)
        st = ttt_store_check(db, err);
    ttt_store_import_free(imp);
    ttt_store_close(db);
    return st;
}

static ttt_status run_game(const scenario *s, ttt_error *err)
{
    ttt_rules r = rules_of(s->rules);
    ttt_game *g;
    ttt_status st = ttt_game_new(&r, TTT_HUMAN, s->spec, 7, &g, err);
    if (st)
        return st;
    /* People play the first free cell, the engine its choice, until the game ends. */
    while (!st && ttt_game_outcome(g) == TTT_ONGOING) {
        ttt_engine *e = ttt_game_engine_to_move(g);
        ttt_move m = 0;
        if (e)
            st = ttt_engine_choose(e, &g->board, &m, NULL, err);
        else
            while (ttt_board_at(&g->board, m) != TTT_NOBODY)
                m++;
        if (!st)
            st = ttt_game_play(g, m, err);
    }
    if (!st)
        st = ttt_game_tell_engines(g, err);
    if (!st) {
        ttt_game_undo(g);
        ttt_game_next(g, true);
    }
    ttt_game_free(g);
    return st;
}

static ttt_status run_arena(const scenario *s, ttt_error *err)
{
    ttt_rules r = rules_of(s->rules);
    ttt_arena_game game;
    ttt_outcome outcome;
    ttt_status st = ttt_arena_play_game(&r, "random", s->spec, 3, &game, err);
    if (!st)
        st = ttt_arena_play(&r, s->spec, "heuristic", 4, &outcome, NULL, NULL, err);
    const char *const specs[] = {"random", "heuristic", s->spec};
    /* Two threads when the scenario is named so: which thread meets the failing allocation varies. */
    ttt_arena_options opt = {
        .specs = specs, .nspecs = 3, .games = 2, .seed = 1, .jobs = strstr(s->name, "threads") ? 2 : 1};
    ttt_arena_pair pairs[3];
    if (!st)
        st = ttt_arena_run(&r, &opt, pairs, err);
    return st;
}

/* Books of openings: parsed from a text (each line checked, balanced ones valued by the solver) and drawn at
 * random, then a run whose games start from them. */
static ttt_status run_arena_book(const scenario *s, ttt_error *err)
{
    ttt_rules r = rules_of(s->rules);
    ttt_arena_book *parsed = NULL, *random = NULL;
    ttt_status st =
        ttt_arena_book_parse(&r, "# corners and centre\nb2\n\na1 b2\nc3\n", "book.txt", true, &parsed, err);
    if (!st)
        st = ttt_arena_book_random(&r, 7, 3, 2, true, &random, err);
    const char *const specs[] = {"random", s->spec};
    ttt_arena_options opt = {.specs = specs, .nspecs = 2, .games = 4, .seed = 1, .jobs = 1};
    ttt_arena_pair pairs[1];
    if (!st) {
        opt.book = parsed;
        st = ttt_arena_run(&r, &opt, pairs, err);
    }
    if (!st) {
        opt.book = random;
        st = ttt_arena_run(&r, &opt, pairs, err);
    }
    ttt_arena_book_free(parsed);
    ttt_arena_book_free(random);
    return st;
}

static ttt_status run_hint(const scenario *s, ttt_error *err)
{
    ttt_rules r = rules_of(s->rules);
    ttt_solver *solver;
    ttt_status st = ttt_solver_new(&r, 1, &solver, err);
    if (st)
        return st;
    ttt_engine *fallback = NULL;
    if (s->spec)
        st = ttt_engine_new(s->spec, &r, &fallback, err);
    ttt_board b = opening(&r);
    /* ms bounds only the solver's time: the fallback's budget is in work, so runs are alike. */
    if (!st)
        st = ttt_hint(solver, &b, fallback, 50, 1.0, &analysis, err);
    ttt_engine_free(fallback);
    ttt_solver_free(solver);
    return st;
}

static ttt_status run_count(const scenario *s, ttt_error *err)
{
    ttt_rules r = rules_of(s->rules);
    static ttt_counts counts;
    return ttt_count(&r, 0, &counts, err);
}

/* Solves the empty board, writes its certificate to a file and checks it: the writer's and the checker's
 * allocations fail like the solver's (whose table absorbs them). */
static ttt_status run_certificate(const scenario *s, ttt_error *err)
{
    ttt_solver *solver;
    ttt_board b;
    ttt_status st = solver_of(s, &solver, &b, err);
    if (st)
        return st;
    ttt_result value;
    st = ttt_solver_value(solver, &b, &value, NULL, NULL, err);
    char path[300];
    snprintf(path, sizeof path, "%s/alloc.cert", tmpdir);
    FILE *f = fopen(path, "w+b");
    assert_non_null(f);
    if (!st)
        st = ttt_certificate_write(solver, &b, value, f, NULL, err);
    ttt_solver_free(solver);
    ttt_verify_report report;
    if (!st) {
        rewind(f);
        st = ttt_verify_certificate(f, &report, err);
        if (!st)
            assert_int_equal(report.value, value);
    }
    fclose(f);
    return st;
}

static ttt_status run_gomocup(const scenario *s, ttt_error *err)
{
    (void)s;
    static const char *const lines[] = {"START 15", "INFO ttt_k 5", "TURN 7,7", "BOARD",
                                        "7,7,1",    "DONE",         "ABOUT"};
    ttt_gomocup_command cmd;
    ttt_gomocup_reply reply;
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        ttt_status st = ttt_gomocup_parse(lines[i], strlen(lines[i]), &cmd, err);
        if (st)
            return st;
    }
    ttt_gomocup_parse_reply("7,8", 3, &reply);
    return TTT_OK;
}

static ttt_status run_spec_expand(const scenario *s, ttt_error *err)
{
    ttt_rules r = rules_of(s->rules);
    char buf[TTT_SPEC_TEXT_SIZE];
    return ttt_engine_spec_expand(s->spec, &r, buf, sizeof buf, err);
}

/* --- The driver ------------------------------------------------------------------------------------------ */

static long total_runs, absorbed_runs;
static int problems; /* failing runs that broke the contract, in the current test: printed, then failed */

static const void *absorbed[ALLOC_MAX_SITES];
static int absorbed_count;

static void record_absorbed(const void *pc)
{
    for (int i = 0; i < absorbed_count; i++)
        if (absorbed[i] == pc)
            return;
    if (absorbed_count < ALLOC_MAX_SITES)
        absorbed[absorbed_count++] = pc;
    if (getenv("TTT_ALLOC_VERBOSE"))
        printf("    absorbed at +%#tx\n", (const char *)pc - __executable_start);
}

/* Runs s with the Nth allocation failing for N = 1, 2, ... until a run makes fewer than N allocations. */
static void exhaust(const scenario *s)
{
    long failed = 0;
    const char *only = getenv("TTT_ALLOC_ONLY"); /* a scenario's name or spec: the others are skipped */
    if (only && !strstr(s->name, only) && !(s->spec && strstr(s->spec, only)))
        return;
    if (getenv("TTT_ALLOC_VERBOSE")) {
        printf("  %s %s %s ...\n", s->name, s->rules ? s->rules : "", s->spec ? s->spec : "");
        fflush(stdout);
    }
    sqlite_fails = !s->sqlite_never_fails || getenv("TTT_ALLOC_SQLITE"); /* to see those bugs */
    for (long at = 1;; at++) {
        assert_true(at < ALLOC_MAX_RUNS);
        ttt_error err = {{0}};
        alloc_arm(at);
        ttt_status st = s->run(s, &err);
        bool injected = alloc_disarm();
        total_runs++;
        if (!injected) {
            if (st != TTT_OK)
                print_error("%s %s %s: %s (%s) without a failure\n", s->name, s->rules ? s->rules : "",
                            s->spec ? s->spec : "", ttt_status_name(st), err.msg);
            assert_int_equal(st, TTT_OK);
            break;
        }
        failed++;
        failing_runs++;
        if (st == TTT_OK && s->absorbs) {
            absorbed_runs++;
            record_absorbed(last_site);
            continue;
        }
        bool ok = (st == TTT_ENOMEM || (s->also && st == s->also && strstr(err.msg, "out of memory"))) &&
                  err.msg[0];
        if (!ok && ++problems)
            print_error("%s %s %s: allocation %ld (site +%#tx: addr2line -e test_alloc) failed, returned %s "
                        "(%s)\n",
                        s->name, s->rules ? s->rules : "", s->spec ? s->spec : "", at,
                        (const char *)last_site - __executable_start, ttt_status_name(st), err.msg);
    }
#ifdef ALLOC_LEAK_CHECK
    if (__lsan_do_recoverable_leak_check() && ++problems)
        print_error("%s %s %s: leaks after its failed runs\n", s->name, s->rules ? s->rules : "",
                    s->spec ? s->spec : "");
#endif
    printf("  %-22s %-8s %-44s %ld failing runs\n", s->name, s->rules ? s->rules : "", s->spec ? s->spec : "",
           failed);
}

static void exhaust_all(const scenario *list, size_t n)
{
    problems = 0;
    for (size_t i = 0; i < n; i++)
        exhaust(&list[i]);
    assert_int_equal(problems, 0);
}

static void rules_notation_and_gomocup(void **state)
{
    (void)state;
    const scenario list[] = {
        {.name = "rules and notation", .run = run_rules_and_notation},
        {.name = "gomocup", .run = run_gomocup},
        {.name = "engine spec", .run = run_spec_expand, .rules = "3x3", .spec = "hard"},
    };
    exhaust_all(list, sizeof list / sizeof list[0]);
}

static void solver_and_playouts(void **state)
{
    (void)state;
    const scenario list[] = {
        {.name = "solver", .run = run_solver, .rules = "3x3", .absorbs = true},
        {.name = "solver", .run = run_solver, .rules = "4x4k3-misere", .absorbs = true},
        {.name = "solver", .run = run_solver, .rules = "7x7k5", .absorbs = true},
        {.name = "solver threads", .run = run_solver, .rules = "3x3", .absorbs = true},
        {.name = "playout", .run = run_playout, .rules = "3x3"},
        {.name = "playout", .run = run_playout, .rules = "7x7k5"},
        {.name = "playout", .run = run_playout, .rules = "15x15k5"},
        {.name = "playout", .run = run_playout, .rules = "20x20k5"},
        {.name = "certificate", .run = run_certificate, .rules = "3x3", .absorbs = true},
        {.name = "certificate", .run = run_certificate, .rules = "4x4k3-misere", .absorbs = true},
        {.name = "certificate", .run = run_certificate, .rules = "9x9k3", .absorbs = true},
        {.name = "certificate", .run = run_certificate, .rules = "12x12k8", .absorbs = true},
        {.name = "count", .run = run_count, .rules = "3x3"},
        {.name = "count", .run = run_count, .rules = "3x3-misere"},
    };
    exhaust_all(list, sizeof list / sizeof list[0]);
}

/* The options that keep a decision small (a few milliseconds), for whichever of them the engine has. */
static const char *const small_budget[][2] = {
    {"nodes", "300"}, {"iterations", "100"}, {"trials", "20"}, {"tree", "1024"},
    {"vcf", "200"},   {"vct", "200"},        {"time", "0"},
};

static void every_engine(void **state)
{
    (void)state;
    problems = 0;
    for (int i = 0; i < ttt_engine_count(); i++) {
        const char *name = ttt_engine_about_at(i)->name;
        if (ttt_engine_requires_path(name)) /* cmd: an outside program */
            continue;
        char spec[TTT_SPEC_TEXT_SIZE];
        int len = snprintf(spec, sizeof spec, "%s:seed=1", name);
        for (size_t o = 0; o < sizeof small_budget / sizeof small_budget[0]; o++)
            if (ttt_engine_has_option(name, small_budget[o][0]))
                len += snprintf(spec + len, sizeof spec - (size_t)len, ",%s=%s", small_budget[o][0],
                                small_budget[o][1]);
        for (size_t j = 0; j < sizeof engine_rules / sizeof engine_rules[0]; j++) {
            ttt_rules r = rules_of(engine_rules[j]);
            char full[TTT_SPEC_TEXT_SIZE];
            /* Engines that do not play these rules (gomoku on 3x3, a table over 64 cells) are left out. */
            if (ttt_engine_spec_expand(spec, &r, full, sizeof full, NULL) != TTT_OK)
                continue;
            ttt_engine_env env = engine_env(&r);
            ttt_engine *e;
            if (ttt_engine_new_in(spec, &r, &env, &e, NULL) != TTT_OK)
                continue;
            ttt_engine_free(e);
            /* The solver's table and the MCTS tree are caches: a failed growth leaves the search going. */
            const scenario s = {.name = "engine",
                                .run = run_engine,
                                .rules = engine_rules[j],
                                .spec = spec,
                                .absorbs = strcmp(name, "minimax") == 0 || strcmp(name, "mcts") == 0};
            exhaust(&s);
        }
    }
    assert_int_equal(problems, 0);
}

static void engines_with_files(void **state)
{
    (void)state;
    static char table_spec[400], learner_spec[400];
    snprintf(table_spec, sizeof table_spec, "table:file=%s", table_file);
    snprintf(learner_spec, sizeof learner_spec, "learner:memory=%s/learner.db,nodes=300", tmpdir);
    const scenario list[] = {
        {.name = "engine", .run = run_engine, .rules = "3x3", .spec = table_spec},
        {.name = "engine",
         .run = run_engine,
         .rules = "3x3",
         .spec = learner_spec,
         .also = TTT_EIO,
         .sqlite_never_fails = true},
    };
    exhaust_all(list, sizeof list / sizeof list[0]);
}

static void tables_and_store(void **state)
{
    (void)state;
    const scenario list[] = {
        {.name = "table", .run = run_table, .rules = "3x3"},
        {.name = "table grows", .run = run_table_grows, .rules = "7x7k5"},
        {.name = "store", .run = run_store, .rules = ":memory:", .also = TTT_EIO, .sqlite_never_fails = true},
        {.name = "store", .run = run_store, .rules = "file", .also = TTT_EIO, .sqlite_never_fails = true},
    };
    exhaust_all(list, sizeof list / sizeof list[0]);
}

static void games_arena_and_hints(void **state)
{
    (void)state;
    const scenario list[] = {
        {.name = "game", .run = run_game, .rules = "3x3", .spec = "perfect"},
        {.name = "game",
         .run = run_game,
         .rules = "7x7k5",
         .spec = "mcts:iterations=50,seed=2",
         .absorbs = true},
        {.name = "arena",
         .run = run_arena,
         .rules = "3x3",
         .spec = "minimax:nodes=500,time=0",
         .absorbs = true},
        {.name = "arena", .run = run_arena, .rules = "7x7k5", .spec = "mcts:iterations=30", .absorbs = true},
        {.name = "arena threads", .run = run_arena, .rules = "3x3", .spec = "random"},
        {.name = "arena book", .run = run_arena_book, .rules = "3x3", .spec = "heuristic"},
        {.name = "hint", .run = run_hint, .rules = "3x3", .absorbs = true},
        {.name = "hint", .run = run_hint, .rules = "7x7k5", .spec = "mcts:iterations=100", .absorbs = true},
    };
    exhaust_all(list, sizeof list / sizeof list[0]);
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "%s/ttt-test-alloc-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir))
        return -1;
    static const sqlite3_mem_methods sql_methods = {sql_malloc,  sql_free, sql_realloc,  sql_size,
                                                    sql_roundup, sql_init, sql_shutdown, NULL};
    if (sqlite3_config(SQLITE_CONFIG_MALLOC, &sql_methods) != SQLITE_OK || sqlite3_initialize() != SQLITE_OK)
        return -1;
    void *frames[1];
    backtrace(frames, 1); /* loads the unwinder now, not inside a failing allocation */
    for (size_t i = 0; i < sizeof engine_rules / sizeof engine_rules[0]; i++) {
        ttt_rules r;
        ttt_table_build_options opt = {.games = 4, .seed = 1, .jobs = 1}; /* a small file: fast to load */
        if (ttt_rules_parse(engine_rules[i], &r, NULL) != TTT_OK)
            return -1;
        if (ttt_rules_cells(&r) <= TTT_TABLE_MAX_CELLS && ttt_table_build(&r, &opt, &small_table[i], NULL))
            return -1;
    }
    snprintf(table_file, sizeof table_file, "%s/small.json", tmpdir);
    return ttt_table_save(small_table[0], table_file, NULL) ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof small_table / sizeof small_table[0]; i++)
        ttt_table_free(small_table[i]);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    int rc = system(cmd);
    sqlite3_shutdown();
    int by_via[VIA_COUNT] = {0};
    for (int i = 0; i < site_count; i++)
        by_via[sites[i].via]++;
    if (getenv("TTT_ALLOC_VERBOSE"))
        for (int i = 0; i < site_count; i++)
            printf("    site +%#tx %s\n", (const char *)sites[i].pc - __executable_start,
                   via_name[sites[i].via]);
    printf("allocation failures: %d call sites exercised over %ld runs (%ld with a failure, %ld of them "
           "absorbed "
           "by a cache at %d sites; sites:",
           site_count, total_runs, failing_runs, absorbed_runs, absorbed_count);
    for (int v = 0; v < VIA_COUNT; v++)
        printf("%s %d %s", v ? "," : "", by_via[v], via_name[v]);
    printf(")\n");
    return rc == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rules_notation_and_gomocup),
        cmocka_unit_test(solver_and_playouts),
        cmocka_unit_test(every_engine),
        cmocka_unit_test(engines_with_files),
        cmocka_unit_test(tables_and_store),
        cmocka_unit_test(games_arena_and_hints),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
