/*
 * ttt/engine.h - every player behind one interface.
 *
 * An engine is made from a spec string `NAME[:key=value,...]`, for example `random`, `random:seed=7`. The
 * name picks an entry of the registry; the options are validated once, when the engine is made, and an
 * unknown name, an unknown key or a bad value is an error that names it. Every engine takes `seed=` (an
 * unsigned 64-bit integer, default 0) and is deterministic: the same spec, rules and sequence of requests
 * give the same moves, as long as the budget is counted in work (nodes, trials, depth). A budget in time
 * (`time=`) depends on the clock and so on the machine. Every engine counts the work it does (nodes searched
 * or playouts run).
 *
 * An engine owns its memory (tables, trees, generators); ttt_engine_free releases all of it.
 */
#ifndef TTT_ENGINE_H
#define TTT_ENGINE_H

#include "ttt/board.h"

typedef struct ttt_engine ttt_engine;

/* What an engine says about one move decision. */
typedef struct ttt_search_info {
    uint64_t nodes; /* nodes or playouts spent on this decision */
    double ms;      /* wall-clock milliseconds spent */
    int depth;      /* search depth reached, 0 when the engine does not search */
    /* What the engine thinks of the move it chose, when it says (ttt_engine_choose): the quantity's name
     * (static text: "heuristic score", "win rate", "average score"; NULL when it says nothing) and value. */
    const char *value_name;
    double value;
} ttt_search_info;

/* Longest spec text the library produces (ttt_engine_spec). */
#define TTT_SPEC_TEXT_SIZE 256

/* Makes an engine for the given rules from a spec. On success *out owns a new engine; on failure *out is
 * NULL and err names the problem: "engine 'minmax': unknown engine; did you mean 'minimax'? (known: ...,
 * levels: easy, ...)", "engine 'random': unknown option 'depth' (known: seed)", "engine 'minimax': option
 * 'depth' needs a value: depth=VALUE", "engine 'random': seed=abc: expected an integer from 0 to ...". */
ttt_status ttt_engine_new(const char *spec, const ttt_rules *rules, ttt_engine **out, ttt_error *err);

/* What a client can hand the engines it makes besides the spec (ttt_engine_new_in): shared resources, and
 * what the engine may not do. A zeroed env is what ttt_engine_new uses. */
typedef struct ttt_engine_env {
    /* The table engine plays from this table instead of loading or building one: read-only and shared (many
     * engines, many threads), not owned; it must have the engine's rules and outlive the engine. */
    const struct ttt_table *table;
    /* The engine opens, builds and writes no file of its own choosing: the table engine without a table
     * (and without file=) is an error, and the learner without memory= plays from an empty memory that
     * lives as long as the engine (no default database is opened). */
    bool no_files;
} ttt_engine_env;

/* ttt_engine_new with an env (NULL: the zeroed env). The env is copied; what it points to is not. */
ttt_status ttt_engine_new_in(const char *spec, const ttt_rules *rules, const ttt_engine_env *env,
                             ttt_engine **out, ttt_error *err);

/* Checks a spec for the rules as ttt_engine_new does (levels expanded, every option validated), without
 * making the engine (no table built or loaded, no memory opened) and without the check of its budget (time=0
 * with no other limit is refused by ttt_engine_new on big boards; a server replaces it), and writes the full
 * spec the engine would have (as ttt_engine_spec) into out. TTT_EINVAL as ttt_engine_new; TTT_ELIMIT when the
 * full spec does not fit in size bytes (nothing is truncated). */
ttt_status ttt_engine_spec_expand(const char *spec, const ttt_rules *rules, char *out, size_t size,
                                  ttt_error *err);

/* What a client lets one engine spend per move (ttt_engine_spec_bound), whatever the engine. */
typedef struct ttt_engine_caps {
    uint64_t time_ms; /* > 0: the engine's time per move (time=) above it, or 0 (no limit), becomes it */
    /* A count of random games per move that is the engine's budget when its time is 0 (montecarlo's trials=,
     * mcts's iterations=, each weighed by its cost) times the board's cells must be at most this. */
    uint64_t work_cells;
    uint64_t memory_bytes; /* a size option (tt=, tree=) is lowered to fit in this */
    bool strict;           /* no check of work_cells: the capped time alone bounds the count */
    const char *who;       /* who sets the caps, for messages ("the server"); NULL: "the caps" */
} ttt_engine_caps;

/* ttt_engine_spec_expand within caps: writes into out the full spec the engine of spec runs when bounded by
 * caps, every option spelled out and the time option last. The options' roles in each engine's option table
 * say which option is time, a count or a size, so that every engine is bounded alike: an engine with a time
 * option always gets a time of at most caps->time_ms (0, no limit, becomes it), counts or not, and stops at
 * whichever of its limits comes first; an engine without one ends its moves by itself (random, table). TTT_EINVAL as
 * ttt_engine_new; TTT_ELIMIT when a count that is the budget is above caps (the message names the option
 * and its most), or the full spec does not fit in size bytes. */
ttt_status ttt_engine_spec_bound(const char *spec, const ttt_rules *rules, const ttt_engine_caps *caps,
                                 char *out, size_t size, ttt_error *err);

/* Releases the engine and everything it owns. NULL is allowed. */
void ttt_engine_free(ttt_engine *engine);

/* Chooses a move for the side to move in b, which must have the engine's rules. Returns TTT_ESTATE when
 * the game is over or the rules differ, TTT_OK otherwise. info may be NULL. */
ttt_status ttt_engine_choose(ttt_engine *engine, const ttt_board *b, ttt_move *out, ttt_search_info *info,
                             ttt_error *err);

/* Tells the engine that a new game starts (engines that keep a tree or per-game state reset it). */
void ttt_engine_new_game(ttt_engine *engine);

/* Tells the engine the moves from the empty board to the position it will be asked about next, for engines
 * whose decisions depend on the order of the moves (the learner matches move sequences) when the engine did
 * not follow the game itself: a client that makes a fresh engine per request calls it before choosing.
 * Engines that only look at the board ignore it. */
void ttt_engine_follow(ttt_engine *engine, const ttt_move *moves, int count);

/* Sets the engine's time= option (milliseconds per move, as the spec's time= would) for its next decisions,
 * for clients that plan time move by move (`ttt brain`). TTT_EINVAL, naming the engine, when it has no
 * time= option, ms is outside the option's range, or ms is 0 and the search would have no limit left on a
 * big board (as ttt_engine_new refuses); the time is then unchanged. */
ttt_status ttt_engine_set_time(ttt_engine *engine, uint64_t ms, ttt_error *err);

/* Lowers the engine's time= to ms (>= 1) when it is above, or 0 (no limit), for its next decisions: a client
 * that shares one budget between searches (ttt_hint). TTT_OK, unchanged, for an engine without time=;
 * errors as ttt_engine_set_time. */
ttt_status ttt_engine_limit_time(ttt_engine *engine, uint64_t ms, ttt_error *err);

/* Whether the engine a spec names (a level counts) has the option key; false for an unknown engine. */
bool ttt_engine_has_option(const char *spec, const char *key);

/* Whether the spec sets an option that names a file (the table's file=, the learner's memory=): a server
 * refuses those from clients. The first such key goes to key. False for an unknown engine. */
bool ttt_engine_spec_sets_path(const char *spec, char *key, size_t size);

/* Whether the engine named by spec (its name, or a level's) cannot be made without an option that names a
 * file (cmd's path=, the outside brain's program), so that a server, which refuses those, does not offer it.
 * False for an unknown engine. */
bool ttt_engine_requires_path(const char *spec);

/* Tells the engine how a game it took part in went: the moves from the empty board and the final outcome.
 * Learning engines learn from it; others ignore it. */
ttt_status ttt_engine_game_over(ttt_engine *engine, const ttt_move *moves, int count, ttt_outcome outcome,
                                ttt_error *err);

/* ttt_engine_game_over for every player of one game (engines[0..n), NULL entries and repeats skipped):
 * engines that share one memory (learners with the same database file) record the game there once, and each
 * still learns it into its own view. Every engine is told even when one fails; returns the first failure
 * (err names its engine), else TTT_OK. */
ttt_status ttt_engines_game_over(ttt_engine *const *engines, int n, const ttt_move *moves, int count,
                                 ttt_outcome outcome, ttt_error *err);

/* --- Analysis: what an engine thinks of every move (hints)
 * --------------------------------------------------
 */

typedef enum ttt_eval_kind {
    TTT_EVAL_NONE = 0,  /* the engine has no opinion of this move (e.g. a cell a big-board search skipped) */
    TTT_EVAL_EXACT = 1, /* result and plies are the move's proven game value */
    TTT_EVAL_SCORE = 2, /* score is the engine's own estimate, comparable only with the same analysis */
} ttt_eval_kind;

/* One legal move as an engine sees it, from the point of view of the side to move. */
typedef struct ttt_move_eval {
    ttt_move move;
    ttt_eval_kind kind;
    int result;   /* TTT_EVAL_EXACT: +1 the move wins, 0 draws, -1 loses (with best play by both) */
    int plies;    /* TTT_EVAL_EXACT: moves until the game ends, this one included */
    double score; /* in [-1, 1]: +1 a sure win, -1 a sure loss; for EXACT it is the result itself */
    double
        share; /* in [0, 1]: the move's share of the engine's effort (MCTS visits), 0 when not applicable */
} ttt_move_eval;

/* A whole position's analysis: every legal move, best first (by kind EXACT > SCORE > NONE order of value). */
typedef struct ttt_analysis {
    int count;                          /* legal moves */
    ttt_move_eval moves[TTT_MAX_CELLS]; /* best first */
    const char *method;                 /* static text: "solver", "montecarlo score grid", "mcts visits" */
    ttt_search_info info;               /* the work spent */
} ttt_analysis;

/* Turns a solver search of b (ttt_solver_search with all=true, ttt/solve.h) into an analysis: exact values
 * when the search proved them, otherwise the heuristic score h as tanh(h / 1000) and moves the budget left
 * unsearched without an opinion. */
struct ttt_search_result;
void ttt_analysis_from_search(const ttt_board *b, const struct ttt_search_result *r, ttt_analysis *out);

/* True when the engine can analyse (implements per-move scores). */
bool ttt_engine_can_analyse(const ttt_engine *engine);

/* Scores every legal move of b (ongoing, with the engine's rules) with the engine's own method and budget.
 * Returns TTT_ESTATE for a finished game or other rules, TTT_EINVAL (with a message naming the engine) when
 * the engine cannot analyse. Uses the engine's generator and counts its nodes like a move choice. */
ttt_status ttt_engine_analyse(ttt_engine *engine, const ttt_board *b, ttt_analysis *out, ttt_error *err);

/* Sorts an analysis best first: exact wins (sooner first), then estimates and draws by score (exact draws
 * before equal estimates), then exact losses (later first), then moves without an opinion. Engines call it;
 * it is public so that clients can merge analyses. */
void ttt_analysis_sort(ttt_analysis *a);

/* --- Explanation: an engine's own view of a position, in its own terms
 * ---------------------------------------
 *
 * Where an analysis (above) reduces every engine to one score per move, an explanation keeps what the
 * algorithm itself computed, so that classic algorithms can be compared side by side: the Monte Carlo score
 * grid and its trial count, MCTS visits, win rates, proofs and principal variation, the table's average score
 * and how many games fed it, the learner's step and matched sequences, the heuristic's line weights and
 * frequency table, the solver's values and distances. It is data only: the library never prints it.
 */

#define TTT_EXPLAIN_MAX_LAYERS 4  /* quantities per cell */
#define TTT_EXPLAIN_MAX_FACTS  8  /* single figures */
#define TTT_EXPLAIN_MAX_LINES  12 /* move sequences (principal variation, matched sequences, kept lines) */

/* One quantity per cell: a board overlay. Cells the engine never considered have shown false (no overlay). */
typedef struct ttt_explain_layer {
    const char *name;  /* static text: what the number is, "visits", "average score" */
    const char *scale; /* static text: its unit and range, "share of the root's visits, 0 to 100 %" */
    double lo, hi;     /* the ends of the scale (lo < hi), for colours; values lie within them */
    bool percent;      /* values are fractions shown as percentages */
    bool shown[TTT_MAX_CELLS];
    double value[TTT_MAX_CELLS]; /* by cell; meaningful where shown */
} ttt_explain_layer;

typedef struct ttt_explain_fact {
    const char *name; /* static text: "trials", "games in the table" */
    double value;
} ttt_explain_fact;

/* A sequence of moves with what it stands for. */
typedef struct ttt_explain_line {
    const char *label; /* static text: "principal variation", "remembered sequence", "line of weight -3" */
    int64_t count;     /* a number that goes with it when note is not NULL */
    const char *note;  /* static text or NULL: what count is, "games" (that followed it), "weight" */
    int length;
    ttt_move moves[TTT_MAX_CELLS];
} ttt_explain_line;

typedef struct ttt_explanation {
    const char *method; /* static text: the algorithm, "UCT with MCTS-Solver" */
    const char *step;   /* static text or NULL: the rule of the algorithm that chose the move */
    ttt_move choice;    /* the move the engine's view picks, TTT_NO_MOVE when it has none */
    int layer_count;
    ttt_explain_layer layers[TTT_EXPLAIN_MAX_LAYERS];
    int fact_count;
    ttt_explain_fact facts[TTT_EXPLAIN_MAX_FACTS];
    int line_count;
    ttt_explain_line lines[TTT_EXPLAIN_MAX_LINES];
    ttt_search_info info; /* the work spent */
} ttt_explanation;

/* True when the engine can explain itself (its own explanation, or one made from its analysis). */
bool ttt_engine_can_explain(const ttt_engine *engine);

/* Explains how the engine sees b (ongoing, with the engine's rules) and which move it would choose, with its
 * own method and budget, into out (about 30 KB: allocate it). Engines without their own explanation that can
 * analyse explain with their analysis (value and distance, or score, and share of effort per move). Returns
 * TTT_ESTATE for a finished game or other rules, TTT_EINVAL (naming the engine) when it cannot explain. Uses
 * the engine's generator and counts its nodes like a move choice; engines that keep a tree may reuse it. */
ttt_status ttt_engine_explain(ttt_engine *engine, const ttt_board *b, ttt_explanation *out, ttt_error *err);

/* ttt_engine_choose that also explains the decision it makes: the one search chooses the move and fills why
 * (about 30 KB: allocate it), so that the explanation is of the move played, not of a second run. The move,
 * the work counted and the draws from the engine's generator are those of ttt_engine_choose: a game played
 * with this call is the game played with ttt_engine_choose, move for move. On TTT_OK, why->choice == *out
 * and why->info == *info (info may be NULL) when the engine explains its decisions (exactly the engines for
 * which ttt_engine_can_explain is true); when it cannot (an outside brain, gomoku) why->method is NULL and
 * why->choice TTT_NO_MOVE: no explanation, the move still chosen.
 * why may be NULL (then it is ttt_engine_choose). Errors as ttt_engine_choose; *why is then unspecified. */
ttt_status ttt_engine_choose_explained(ttt_engine *engine, const ttt_board *b, ttt_move *out,
                                       ttt_search_info *info, ttt_explanation *why, ttt_error *err);

/* The registry name ("random"). */
const char *ttt_engine_name(const ttt_engine *engine);

/* The full spec with every option's value, defaults included ("random:seed=0"), written into buf (cut at
 * size - 1 characters: ttt_engine_spec_expand says when a spec does not fit). */
char *ttt_engine_spec(const ttt_engine *engine, char *buf, size_t size);

/* Nodes or playouts counted since the engine was made. */
uint64_t ttt_engine_nodes(const ttt_engine *engine);

/* The rules the engine was made for. */
const ttt_rules *ttt_engine_rules(const ttt_engine *engine);

/* --- The registry --------------------------------------------------------------------------------------- */

typedef struct ttt_engine_about {
    const char *name;    /* "random" */
    const char *summary; /* one line: what it is good for */
    const char *options; /* one line per option: "seed=N  choice of moves (default 0)", from its table */
} ttt_engine_about;

/* The number of registered engines, and each one's description (index 0..count-1). */
int ttt_engine_count(void);
const ttt_engine_about *ttt_engine_about_at(int index);

/* --- Difficulty levels
 * ---------------------------------------------------------------------------------------
 *
 * A level is a named alias for an engine spec ("easy", "medium", "hard", "perfect"), accepted wherever a spec
 * is: ttt_engine_new("hard", ...) and ttt_engine_new("hard:seed=3", ...) make the level's engine, with the
 * extra options appended to the level's own. Levels are listed weakest first, and each is measurably weaker
 * than the next (README: each level's record against `random` and `minimax`).
 */

typedef struct ttt_level {
    const char *name;  /* "medium" */
    const char *spec;  /* the engine spec it stands for */
    const char *about; /* one line: what playing it feels like */
} ttt_level;

int ttt_level_count(void);
const ttt_level *ttt_level_at(int index);

/* The level called name (the first len characters of it), or NULL. */
const ttt_level *ttt_level_find(const char *name, size_t len);

#endif
