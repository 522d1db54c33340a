"""Loading libttt.so and declaring the part of its interface the package uses (cffi, ABI mode: no compiler).

The declarations below repeat include/ttt/*.h. The structs are laid out by cffi from these declarations, so
they must match the headers field for field: tests/python/test_abi.py compares every size and offset with
what the C compiler says.

Where the library comes from, first found wins:
  1. the environment variable TTT_LIBRARY, a path to libttt.so (nothing else is tried when it is set);
  2. the build tree next to the package: <source>/build/libttt.so when the package is used in place;
  3. the system's library path (libttt.so.0, then libttt.so), where `cmake --install` puts it.
"""

import os

try:
    import cffi
except ImportError as e:  # pragma: no cover - depends on the machine
    raise ImportError(
        "ttt needs cffi (Debian: apt-get install python3-cffi; elsewhere: pip install cffi)"
    ) from e

CDEF = """
typedef enum ttt_status { TTT_OK = 0, TTT_EINVAL, TTT_ENOMEM, TTT_ELIMIT, TTT_ESTATE, TTT_EIO, TTT_EFORFEIT } ttt_status;
typedef struct ttt_error { char msg[256]; } ttt_error;
const char *ttt_status_name(ttt_status status);

/* rules.h */
typedef struct ttt_rules { int rows; int cols; int k; bool misere; } ttt_rules;
ttt_status ttt_rules_parse(const char *text, ttt_rules *out, ttt_error *err);
char *ttt_rules_format(const ttt_rules *rules, char *buf, size_t size);
bool ttt_rules_equal(const ttt_rules *a, const ttt_rules *b);

/* board.h */
typedef int ttt_move;
typedef enum ttt_player { TTT_X = 0, TTT_O = 1, TTT_NOBODY = 2 } ttt_player;
typedef enum ttt_outcome { TTT_ONGOING = 0, TTT_X_WINS, TTT_O_WINS, TTT_DRAW } ttt_outcome;
typedef struct ttt_bits { uint64_t w[7]; } ttt_bits;
typedef struct ttt_board {
    ttt_rules rules;
    ttt_bits stones[2];
    int ply;
    int cells;
    ttt_player line_owner;
    uint64_t hash;
} ttt_board;
void ttt_board_init(ttt_board *b, const ttt_rules *rules);
ttt_player ttt_board_at(const ttt_board *b, int cell);
int ttt_board_moves(const ttt_board *b, ttt_move *out);
bool ttt_board_is_legal(const ttt_board *b, ttt_move cell);
ttt_outcome ttt_board_outcome(const ttt_board *b);
ttt_player ttt_board_winner(const ttt_board *b);
int ttt_board_utility(const ttt_board *b);
int ttt_board_line_cells(const ttt_board *b, ttt_move *out);
void ttt_board_undo(ttt_board *b, ttt_move cell);
ttt_status ttt_board_play_checked(ttt_board *b, ttt_move cell, ttt_error *err);
ttt_status ttt_board_result(const ttt_board *b, ttt_move cell, ttt_board *out, ttt_error *err);
void ttt_board_from_bits(ttt_board *b, const ttt_rules *rules, const ttt_bits *x, const ttt_bits *o);
ttt_status ttt_board_validate(const ttt_board *b, ttt_error *err);
bool ttt_board_equal(const ttt_board *a, const ttt_board *b);

/* notation.h */
ttt_status ttt_position_parse(const char *text, const ttt_rules *rules, ttt_board *out, ttt_error *err);
char *ttt_position_format(const ttt_board *b, char *buf, size_t size);
ttt_status ttt_move_parse(const char *text, const ttt_rules *rules, ttt_move *out, ttt_error *err);
char *ttt_move_format(const ttt_rules *rules, ttt_move cell, char *buf, size_t size);
ttt_status ttt_moves_parse(const char *text, const ttt_rules *rules, ttt_move *out, int max, int *count,
                           ttt_error *err);
ttt_status ttt_moves_replay(const ttt_rules *rules, const ttt_move *moves, int count, ttt_board *out,
                            ttt_error *err);

/* engine.h */
typedef struct ttt_engine ttt_engine;
typedef struct ttt_search_info {
    uint64_t nodes;
    double ms;
    int depth;
    const char *value_name;
    double value;
} ttt_search_info;
ttt_status ttt_engine_new(const char *spec, const ttt_rules *rules, ttt_engine **out, ttt_error *err);
void ttt_engine_free(ttt_engine *engine);
ttt_status ttt_engine_choose(ttt_engine *engine, const ttt_board *b, ttt_move *out, ttt_search_info *info,
                             ttt_error *err);
void ttt_engine_new_game(ttt_engine *engine);
void ttt_engine_follow(ttt_engine *engine, const ttt_move *moves, int count);
bool ttt_engine_has_option(const char *spec, const char *key);
ttt_status ttt_engine_game_over(ttt_engine *engine, const ttt_move *moves, int count, ttt_outcome outcome,
                                ttt_error *err);
typedef enum ttt_eval_kind { TTT_EVAL_NONE = 0, TTT_EVAL_EXACT = 1, TTT_EVAL_SCORE = 2 } ttt_eval_kind;
typedef struct ttt_move_eval {
    ttt_move move;
    ttt_eval_kind kind;
    int result;
    int plies;
    double score;
    double share;
} ttt_move_eval;
typedef struct ttt_analysis {
    int count;
    ttt_move_eval moves[400];
    const char *method;
    ttt_search_info info;
} ttt_analysis;
bool ttt_engine_can_analyse(const ttt_engine *engine);
ttt_status ttt_engine_analyse(ttt_engine *engine, const ttt_board *b, ttt_analysis *out, ttt_error *err);
const char *ttt_engine_name(const ttt_engine *engine);
char *ttt_engine_spec(const ttt_engine *engine, char *buf, size_t size);
uint64_t ttt_engine_nodes(const ttt_engine *engine);
typedef struct ttt_engine_about { const char *name; const char *summary; const char *options; } ttt_engine_about;
int ttt_engine_count(void);
const ttt_engine_about *ttt_engine_about_at(int index);
typedef struct ttt_level { const char *name; const char *spec; const char *about; } ttt_level;
int ttt_level_count(void);
const ttt_level *ttt_level_at(int index);

/* count.h */
typedef struct ttt_count_tally { uint64_t total; uint64_t x_wins; uint64_t o_wins; uint64_t draws; } ttt_count_tally;
typedef struct ttt_counts {
    ttt_rules rules;
    int plies;
    ttt_count_tally positions[401];
    ttt_count_tally positions_sym[401];
    ttt_count_tally games[401];
    ttt_count_tally games_sym[401];
    ttt_count_tally all_positions, all_positions_sym, all_games, all_games_sym;
} ttt_counts;
ttt_status ttt_count(const ttt_rules *rules, uint64_t layer_limit, ttt_counts *out, ttt_error *err);
uint64_t ttt_count_memory_estimate(const ttt_rules *rules, uint64_t *largest_layer);

/* solve.h (the progress report is used only through its pointer) */
typedef struct ttt_solver ttt_solver;
typedef struct ttt_search_progress ttt_search_progress;
typedef bool (*ttt_search_progress_fn)(const ttt_search_progress *progress, void *user);
typedef struct ttt_limits {
    uint64_t nodes;
    double ms;
    int depth;
    ttt_search_progress_fn progress;
    void *user;
} ttt_limits;
typedef struct ttt_move_score { ttt_move move; int score; bool exact; } ttt_move_score;
typedef struct ttt_search_result {
    int score;
    bool proven;
    int depth;
    int count;
    ttt_move_score moves[400];
    int best_count;
    uint64_t nodes;
    double ms;
    bool stopped;
} ttt_search_result;
ttt_status ttt_solver_new(const ttt_rules *rules, int tt_mib, ttt_solver **out, ttt_error *err);
void ttt_solver_free(ttt_solver *solver);
void ttt_solver_clear(ttt_solver *solver);
ttt_status ttt_solver_search(ttt_solver *solver, const ttt_board *b, const ttt_limits *limits, bool all,
                             ttt_search_result *out, ttt_error *err);
uint64_t ttt_solver_nodes(const ttt_solver *solver);
int ttt_score_result(int score);
int ttt_score_plies(const ttt_board *b, int score);

/* arena.h */
typedef struct ttt_arena_record { uint64_t wins, losses, draws; } ttt_arena_record;
typedef struct ttt_arena_pair {
    int a, b;
    ttt_arena_record total;
    ttt_arena_record a_as_x;
    ttt_arena_record a_as_o;
    uint64_t a_forfeits, b_forfeits;
} ttt_arena_pair;
typedef void (*ttt_arena_progress_fn)(uint64_t done, uint64_t total, void *user);
typedef void (*ttt_arena_forfeit_fn)(int pair, uint64_t game, const char *reason, void *user);
typedef bool (*ttt_arena_stop_fn)(void *user);
typedef struct ttt_arena_options {
    const char *const *specs;
    int nspecs;
    uint64_t games;
    uint64_t seed;
    int jobs;
    bool gauntlet;
    ttt_arena_progress_fn progress;
    void *user;
    ttt_arena_forfeit_fn forfeit;
    ttt_arena_stop_fn stop;
    const struct ttt_arena_book *book;
} ttt_arena_options;
typedef struct ttt_arena_stats {
    uint64_t games;
    double score;
    double elo;
    double elo_low;
    double elo_high;
    double los;
    double draw_ratio;
} ttt_arena_stats;
int ttt_arena_pair_count(int nspecs, bool gauntlet);
ttt_status ttt_arena_names(const char *const *specs, int n, char *buf, size_t size, const char **names,
                           const char **play, ttt_error *err);
uint64_t ttt_arena_game_seed(uint64_t seed, int pair, uint64_t game);
ttt_status ttt_arena_run(const ttt_rules *rules, const ttt_arena_options *opt, ttt_arena_pair *pairs,
                         ttt_error *err);
void ttt_arena_stats_of(const ttt_arena_record *r, ttt_arena_stats *out);
typedef struct ttt_arena_rank {
    int engine;
    ttt_arena_record total;
    ttt_arena_stats stats;
} ttt_arena_rank;
int ttt_arena_ranking(int nspecs, const ttt_arena_pair *pairs, int npairs, ttt_arena_rank *out);
"""

# Limits of the headers the package checks before calling (the library asserts its callers' mistakes).
MAX_SIDE = 20  # TTT_MAX_SIDE
MAX_CELLS = 400  # TTT_MAX_CELLS
POSITION_TEXT_SIZE = MAX_CELLS + MAX_SIDE  # TTT_POSITION_TEXT_SIZE
RULES_TEXT_SIZE = 32  # TTT_RULES_TEXT_SIZE
MOVE_TEXT_SIZE = 8  # TTT_MOVE_TEXT_SIZE
SPEC_TEXT_SIZE = 256  # TTT_SPEC_TEXT_SIZE
ARENA_MAX_ENGINES = 32  # TTT_ARENA_MAX_ENGINES
ARENA_MAX_JOBS = 256  # TTT_ARENA_MAX_JOBS
ARENA_MAX_GAMES = 100000000  # TTT_ARENA_MAX_GAMES
ARENA_MAX_SEED = 2**63 - 1  # TTT_ARENA_MAX_SEED
SEED_MAX = 2**64 - 1  # an engine's seed= is an unsigned 64-bit integer
COUNT_MAX_CELLS = 64  # TTT_COUNT_MAX_CELLS

ffi = cffi.FFI()
ffi.cdef(CDEF)

LIBRARY_ENV = "TTT_LIBRARY"
_SONAMES = ("libttt.so.0", "libttt.so")


def _build_tree_candidates():
    """libttt.so in the build tree next to the package: python/ttt/ -> <source>/build/."""
    source = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return [os.path.join(source, "build", "libttt.so")]


def _open(path):
    """The library at path with every function the declarations name, else OSError: another library (or
    another version of libttt) would otherwise load and fail at its first call, far from the cause."""
    # Never unloaded: at exit Python frees the library's handle while a daemon thread may still be inside a
    # short call (only the long ones are stopped and waited for), which would then run on unmapped code.
    found = ffi.dlopen(path, ffi.RTLD_NOW | ffi.RTLD_NODELETE)
    for name in dir(found):
        try:
            getattr(found, name)
        except AttributeError:
            raise OSError("it has no %s: not libttt, or a version this package does not match" % name) from None
    return found


def _load():
    tried = []
    path = os.environ.get(LIBRARY_ENV)
    if path:
        try:
            return _open(path), path
        except OSError as e:
            raise ImportError(
                "ttt: cannot load libttt from %s=%s: %s" % (LIBRARY_ENV, path, e)
            ) from None
    tried.append("%s (not set)" % LIBRARY_ENV)
    for candidate in _build_tree_candidates():
        if os.path.exists(candidate):
            try:
                return _open(candidate), candidate
            except OSError as e:
                tried.append("%s (%s)" % (candidate, e))
        else:
            tried.append("%s (no such file)" % candidate)
    for name in _SONAMES:
        try:
            return _open(name), name
        except OSError as e:
            why = "not found" if "cannot load" in str(e) else str(e)
            tried.append("%s on the system's library path (%s)" % (name, why))
    raise ImportError(
        "ttt: cannot find libttt.so; tried: "
        + "; ".join(tried)
        + ". Build it (make, in the source tree), install it (cmake --install build), or set "
        + LIBRARY_ENV
        + " to its path."
    )


lib, path = _load()
