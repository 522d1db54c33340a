/*
 * engines/engine_impl.h - what an engine implements (internal to the library).
 *
 * An engine is a vtable plus a table of options. The framework (engine.c) parses the spec, validates each
 * `key=value` against the option table into the engine's config struct (a plain struct of values, copied from
 * the engine's defaults first), seeds the engine's own generator from `seed=`, then calls start(). Adding an
 * engine means one new file that defines a ttt_engine_vtable and one line in registry.c.
 */
#ifndef TTT_ENGINES_ENGINE_IMPL_H
#define TTT_ENGINES_ENGINE_IMPL_H

#include "ttt/engine.h"
#include "ttt/rng.h"
#include "ttt/trace.h"

typedef enum ttt_option_type {
    TTT_OPT_UINT,   /* uint64_t, decimal, in [umin, umax] */
    TTT_OPT_DOUBLE, /* double, in [dmin, dmax] */
    TTT_OPT_PATH,   /* char[TTT_OPT_PATH_SIZE], any non-empty text without ',' */
    TTT_OPT_SEED,   /* the framework's seed= (no value here): only its help, what the seed chooses */
} ttt_option_type;

#define TTT_OPT_PATH_SIZE 512

/* A macro's value as a string literal, for help texts that name a default: TTT_STR(MCTS_DEFAULT_ITERATIONS). */
#define TTT_STR_(x) #x
#define TTT_STR(x)  TTT_STR_(x)

/* What an option spends, so that a client bounds every engine alike (ttt_engine_spec_bound). */
typedef enum ttt_option_role {
    TTT_ROLE_NONE = 0, /* a setting, or a limit that holds beside time= (nodes=, depth=) */
    TTT_ROLE_TIME,     /* milliseconds per move, 0 = no limit */
    TTT_ROLE_WORK,     /* random games per move, each as long as the board, that are the budget when the time
                        * option is 0 (trials=, iterations=); unit: the cost of one, a plain random game = 1 */
    TTT_ROLE_MEMORY,   /* a size; unit: bytes per unit of the value */
} ttt_option_role;

/* One option. Help lines (`ttt engines`) are made from key, arg, help and the engine's default, so a
 * default is written once: "time=MS  time per move (default 1000)" (paths show no default). */
typedef struct ttt_option_def {
    const char *key;
    ttt_option_type type;
    size_t offset; /* of the value in the engine's config struct */
    uint64_t umin, umax;
    double dmin, dmax;
    ttt_option_role role;
    double unit;      /* TTT_ROLE_WORK, TTT_ROLE_MEMORY: see there */
    const char *arg;  /* the value in the help: "MS", "N", "0|1", "PATH" */
    const char *help; /* what it does, without the default */
} ttt_option_def;

typedef struct ttt_engine_vtable {
    ttt_engine_about about;        /* name and summary; the options' help is made from the table below */
    const ttt_option_def *options; /* terminated by an entry with key NULL; `seed` is the framework's */
    bool path_required;            /* cannot be made without its TTT_OPT_PATH option (cmd's path=) */
    size_t config_size;
    const void *config_defaults; /* config_size bytes */
    /* Refuses option combinations that cannot be played, such as a search with no end (time=0 and no other
     * limit); checked before start() and again by ttt_engine_set_time. May be NULL. */
    ttt_status (*check)(const ttt_engine *e, ttt_error *err);
    /* Called once after the options are set: allocate state, check option combinations. */
    ttt_status (*start)(ttt_engine *e, ttt_error *err);
    /* Chooses a move; the board is ongoing and has the engine's rules. Must add its work to e->nodes. When
     * why is not NULL (zeroed, choice TTT_NO_MOVE) an engine that can explain its decisions also explains
     * this one there, with ttt_explain_* below, from the same search: the same work, the same draws from the
     * generator and the same move as with why NULL, method set and choice == *out. An engine that cannot
     * leaves why untouched. The framework fills why->info. */
    ttt_status (*choose)(ttt_engine *e, const ttt_board *b, ttt_move *out, ttt_search_info *info,
                         ttt_explanation *why, ttt_error *err);
    /* Scores every legal move into out->moves (count, moves, kind, result, plies, score, share) and sets
     * out->method; the framework fills info and sorts. Must add its work to e->nodes. May be NULL. */
    ttt_status (*analyse)(ttt_engine *e, const ttt_board *b, ttt_analysis *out, ttt_error *err);
    /* Explains b into out (zeroed, choice TTT_NO_MOVE) with ttt_explain_* below; the framework fills info.
     * Must add its work to e->nodes. May be NULL (then analyse, when there, explains). */
    ttt_status (*explain)(ttt_engine *e, const ttt_board *b, ttt_explanation *out, ttt_error *err);
    void (*new_game)(ttt_engine *e); /* may be NULL */
    /* The moves from the empty board to the position the next request is about; may be NULL. */
    void (*follow)(ttt_engine *e, const ttt_move *moves, int count);
    /* A game it took part in ended. record false: another engine with the same memory() has written this game
     * to that memory already; learn it into the engine's own view only. May be NULL. */
    ttt_status (*game_over)(ttt_engine *e, const ttt_move *moves, int count, ttt_outcome outcome, bool record,
                            ttt_error *err);
    /* What identifies the memory the engine writes finished games to (a file's real path), so that engines
     * sharing one record each game once (ttt_engines_game_over); NULL: none, or not shared. May be NULL. */
    const char *(*memory)(const ttt_engine *e);
    void (*stop)(ttt_engine *e); /* releases state; may be NULL */
} ttt_engine_vtable;

struct ttt_engine {
    const ttt_engine_vtable *vt;
    ttt_rules rules;
    uint64_t seed;
    uint64_t nodes;     /* work counted since creation */
    ttt_rng rng;        /* seeded from `seed`; the engine's only source of randomness */
    void *config;       /* the validated options: vt->config_size bytes */
    void *state;        /* whatever start() allocated */
    ttt_engine_env env; /* what the client handed over (ttt_engine_new_in); zeroed by ttt_engine_new */
    ttt_trace *trace;   /* the recorder its searches report their steps to (ttt_engine_set_trace), or NULL */
};

/* Building an explanation. A new layer (or NULL when TTT_EXPLAIN_MAX_LAYERS are there) with no cell shown. */
ttt_explain_layer *ttt_explain_layer_add(ttt_explanation *x, const char *name, const char *scale, double lo,
                                         double hi, bool percent);

/* Shows value on cell of layer. */
void ttt_explain_set(ttt_explain_layer *layer, ttt_move cell, double value);

/* Adds a fact; dropped when TTT_EXPLAIN_MAX_FACTS are there (engines add fewer). */
void ttt_explain_fact_add(ttt_explanation *x, const char *name, double value);

/* Adds a line of length moves (count goes with a non-NULL note); NULL when TTT_EXPLAIN_MAX_LINES are there.
 */
ttt_explain_line *ttt_explain_line_add(ttt_explanation *x, const char *label, int64_t count, const char *note,
                                       const ttt_move *moves, int length);

/* Explains a uniformly random draw of choice among the n moves: each one's chance, and how many there were. */
void ttt_explain_uniform(ttt_explanation *x, const ttt_move *moves, int n, ttt_move choice);

/* Fills x from an analysis: method and choice, value and distance of exact moves, score of estimated ones,
 * share of effort when there is one (each layer only on the moves that have it), the depth reached. */
void ttt_explain_from_analysis(const ttt_analysis *a, ttt_explanation *x);

/* For check(): an engine whose search need not end by itself refuses time=0 with no nodes= and no depth=
 * (a move that never comes) on boards too big to solve exactly, naming the rules; TTT_OK when any of the
 * three limits is set or the board is small (ENGINE_UNBOUNDED_MAX_CELLS in engine.c). */
ttt_status ttt_engine_check_bounded(const ttt_engine *e, uint64_t time_ms, uint64_t nodes, uint64_t depth,
                                    ttt_error *err);

/* The registry: every engine's vtable, in the order `ttt engines` lists them. */
extern const ttt_engine_vtable *const ttt_engine_registry[];
extern const int ttt_engine_registry_size;

#endif
