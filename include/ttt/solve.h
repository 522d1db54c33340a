/*
 * ttt/solve.h - the game-tree searcher: exact values where the board can be solved, and the best move found
 * within a budget where it cannot.
 *
 * A ttt_solver holds a transposition table and per-search state for one set of rules. Its searches are
 * negamax with alpha-beta over the board's lines; positions are looked up under their canonical
 * (symmetry-reduced) hash.
 *
 * Scores are from the point of view of the side to move. A finished game scores by distance, so that a win
 * comes as soon as possible and a loss as late as possible:
 *
 *     win  with the game ending after E stones in all:  TTT_SCORE_WIN - E     (> TTT_SCORE_PROVEN)
 *     loss with the game ending after E stones in all: -(TTT_SCORE_WIN - E)   (< -TTT_SCORE_PROVEN)
 *     draw:                                             0
 *
 * A depth-limited search scores the positions at its horizon with a heuristic (open lines, threats), always
 * strictly between -TTT_SCORE_PROVEN and TTT_SCORE_PROVEN.
 */
#ifndef TTT_SOLVE_H
#define TTT_SOLVE_H

#include <stdio.h>

#include "ttt/board.h"

#define TTT_SCORE_WIN    10000
#define TTT_SCORE_PROVEN (TTT_SCORE_WIN - TTT_MAX_CELLS - 1)

typedef struct ttt_solver ttt_solver;

/* The most threads of a solver (ttt_solver_set_threads). */
#define TTT_SOLVER_MAX_THREADS 64

/* What a running search is doing, for progress reports. */
typedef enum ttt_search_phase {
    TTT_PHASE_SEARCH = 0, /* the root moves searched one by one, to `depth` (to the end when exact) */
    TTT_PHASE_PROVE, /* the draw prover: can prove_side complete a line first? (no means it cannot win) */
    TTT_PHASE_VALUE, /* the value search of ttt_solver_value_within (no root loop of its own) */
} ttt_search_phase;

/* What a running search has found so far, passed to a ttt_search_progress_fn. Every count below means
 * something in its phase; one that does not apply is 0 of 0. */
typedef struct ttt_search_progress {
    uint64_t nodes; /* nodes searched by this call so far (the prover's included) */
    double ms;      /* wall-clock time of this call so far */
    ttt_search_phase phase;
    int depth;      /* the iteration under way (plies; the empty cells for the exact search) */
    int root_done;  /* TTT_PHASE_SEARCH: root moves searched in this iteration so far, of root_total; */
    int root_total; /* TTT_PHASE_PROVE: first moves checked for a draw so far, of root_total (0 of 0 while the
                       prover asks about the position itself) */
    ttt_move best_move; /* the best of the root_done moves (TTT_NO_MOVE while root_done is 0) */
    int best_score;     /* its score: a lower bound on the position's score (exact once root_done is
                           root_total and the iteration is the exact one) */
    bool exact;         /* the iteration under way searches to the end of the game */
    int line_length;    /* the best line so far: best_move, then the replies the table holds for it, as far */
    ttt_move line[TTT_MAX_CELLS]; /* as it knows them (the principal variation; 0 while root_done is 0) */
    /* TTT_PHASE_SEARCH and TTT_PHASE_VALUE: the line being searched now, from the position searched (its first
     * move is a root move), and where each of its moves stands among its siblings: current[i] is the
     * current_index[i]-th (from 1) of the current_count[i] moves its node searches. The indices of the first
     * few moves, read as an odometer, tell how far the search has gone. TTT_PHASE_PROVE: the line the prover
     * (the main thread's) searches now, from the position searched: the moves of both sides alternating,
     * TTT_NO_MOVE for a null move (the prover lets the defender move twice); current_index and current_count
     * are 0. */
    int current_length;
    ttt_move current[TTT_MAX_CELLS];
    int current_index[TTT_MAX_CELLS];
    int current_count[TTT_MAX_CELLS];
    /* TTT_PHASE_PROVE: the side the prover shows unable to complete a line first, the first moves shown to
     * draw so far (of the root_done checked), and the attacker's moves refuted at the top of the proof under
     * way, of prove_total (0 of 0 until the proof reaches its first attacker node with a choice). */
    ttt_player prove_side;
    int drawn;
    int prove_done, prove_total;
    /* TTT_PHASE_PROVE, with prove_first set: the prove_total moves counted are the attacker's first moves from
     * the position proven (one per orbit of its symmetries), each proven on its own by one of prove_threads
     * threads; prove_on[t]: the first move thread t is on (TTT_NO_MOVE between two). */
    bool prove_first;
    int prove_threads;
    ttt_move prove_on[TTT_SOLVER_MAX_THREADS];
    /* The draw prover's table (the main thread's; the others fill alike) has filled: answers it drops for want
     * of room are searched again when their positions come back (a larger table keeps them). True from the
     * first report after it filled until the solver is cleared. */
    bool prove_table_full;
} ttt_search_progress;

/* Called every TTT_SEARCH_PROGRESS_NODES nodes or so. Returns true to stop the search at once (for Ctrl-C):
 * the search then returns with stopped set and the scores of its last complete iteration. Must not call the
 * solver. */
typedef bool (*ttt_search_progress_fn)(const ttt_search_progress *progress, void *user);
#define TTT_SEARCH_PROGRESS_NODES 16384

/* What a search may spend; 0 means no limit. A search that runs out stops within a few hundred nodes. */
typedef struct ttt_limits {
    uint64_t nodes;
    double ms;
    int depth;                       /* plies; 0 = as deep as the game goes */
    ttt_search_progress_fn progress; /* may be NULL */
    void *user;                      /* passed to progress */
} ttt_limits;

/* A game-theoretic value for the side to move. */
typedef enum ttt_result { TTT_LOSS = -1, TTT_DRAW_VALUE = 0, TTT_WIN = 1 } ttt_result;
/* "win", "draw" or "loss": the result's name in every text the project writes. */
const char *ttt_result_name(ttt_result r);

typedef struct ttt_move_score {
    ttt_move move;
    int score;  /* negamax score of playing the move, for the side to move now */
    bool exact; /* score is the move's exact value (with all=true), or a bound below the best otherwise */
} ttt_move_score;

typedef struct ttt_search_result {
    int score;   /* best score for the side to move */
    bool proven; /* score is the exact game value (no heuristic, no pruned move, budget not hit) */
    int depth;   /* deepest iteration completed */
    int count;   /* legal moves, scored in moves[] best first */
    ttt_move_score moves[TTT_MAX_CELLS];
    int best_count; /* moves[0..best_count-1] all have the best score */
    uint64_t nodes; /* nodes searched by this call */
    double ms;      /* wall-clock time of this call */
    bool stopped;   /* the budget ran out before the search finished */
} ttt_search_result;

/* Makes a solver for the rules with a transposition table of at most about tt_mib MiB (at least 1). The table
 * starts small and grows as the searches fill it, so a small board or a small budget costs little memory. */
ttt_status ttt_solver_new(const ttt_rules *rules, int tt_mib, ttt_solver **out, ttt_error *err);
void ttt_solver_free(ttt_solver *solver);

/* Forgets everything learnt (empties the table and the move-ordering history). */
void ttt_solver_clear(ttt_solver *solver);

/* Searches b (ongoing, with the solver's rules) within the limits, by iterative deepening until the value is
 * proven or the budget runs out. With all=false it finds the best score and every move that reaches it (for a
 * player that picks at random among equally good moves); with all=true it scores every move exactly (for
 * analysis and hints), which costs more. Returns TTT_ESTATE for a finished game or other rules. */
ttt_status ttt_solver_search(ttt_solver *solver, const ttt_board *b, const ttt_limits *limits, bool all,
                             ttt_search_result *out, ttt_error *err);

/* The value of a position for the side to move: +1 win, 0 draw, -1 loss; *plies receives how many more moves
 * the game lasts with best play by both (may be NULL). A finished game has value 0 plies 0 from the side to
 * move's point of view when drawn, -1 when the side to move has lost. Exact: no limits. */
ttt_status ttt_solver_value(ttt_solver *solver, const ttt_board *b, ttt_result *value, int *plies,
                            uint64_t *nodes, ttt_error *err);

/* What ttt_solver_value_within found. */
typedef struct ttt_value_result {
    ttt_result value; /* the value when proven; else a lower bound proven so far (TTT_LOSS: nothing proven) */
    bool proven;      /* value is the position's value */
    int plies;        /* moves to the end with best play; -1 until known (after the value itself) */
    uint64_t nodes;   /* nodes searched by this call */
    bool stopped;     /* the budget ran out or progress asked to stop before plies was known */
} ttt_value_result;

/* ttt_solver_value within limits (may be NULL): limits->nodes, ms and progress can stop it (for Ctrl-C);
 * limits->depth is ignored (the search is exact). progress sees depth = the empty cells, exact set and no
 * root moves (the value search has no root loop). Returns TTT_OK when stopped too, with out->stopped set. */
ttt_status ttt_solver_value_within(ttt_solver *solver, const ttt_board *b, const ttt_limits *limits,
                                   ttt_value_result *out, ttt_error *err);

/* Turns a proven score at position b into a result and the number of moves still to play. */
ttt_result ttt_score_result(int score);
int ttt_score_plies(const ttt_board *b, int score);

/* The pairing strategy the search uses (normal rules): true when every window `side` could still complete in
 * b (no stone of the other side in it) holds two empty cells of its own, no cell in two windows; then the
 * other side never lets `side` complete a line. partner (b's cells entries) receives each paired cell's
 * partner, -1 for the others. b must have the solver's rules. */
bool ttt_solver_pairing(ttt_solver *solver, const ttt_board *b, ttt_player side, int *partner);

/* True when the solver's exact searches on these (valid) rules begin with its draw prover (normal rules, k >= 5,
 * 36 to 128 cells), which settles a drawn board of up to 49 cells within a second or so. */
bool ttt_solver_proves_draws(const ttt_rules *rules);

/* How many threads ttt_solver_search() uses, from 1 (the default) to TTT_SOLVER_MAX_THREADS: with all=true,
 * no budget (limits with no nodes, ms or depth) and normal rules, the root moves are shared out among the
 * threads, each with a solver and table of its own (up to tt_mib each), the moves that are the same position
 * by symmetry valued once. The values are those of one thread; the node count depends on which thread took
 * which move. Searches with a budget, or that value only the best moves, stay on one thread, so that the same
 * budget gives the same result. TTT_EINVAL for a count out of range (the solver keeps its setting). */
ttt_status ttt_solver_set_threads(ttt_solver *solver, int threads, ttt_error *err);

/* Where a first move of the draw prover's attacker stands (ttt_proof_report). */
typedef enum ttt_first_state {
    TTT_FIRST_OPEN = 0,    /* not settled yet */
    TTT_FIRST_REFUTED = 1, /* proven: after it the attacker cannot complete a line first */
    /* the prover found a line for the attacker after it, and the proof of the others stopped (not a proof of a
     * win: the defender tries only its likeliest moves) */
    TTT_FIRST_WINS = 2,
} ttt_first_state;
/* "open", "refuted" or "wins": the state's name in every text the project writes. */
const char *ttt_first_state_name(ttt_first_state state);

typedef struct ttt_first_move {
    ttt_move move; /* the first of its orbit under the position's symmetries */
    int orbit;     /* the first moves it stands for: itself and its images (covered by symmetry) */
    ttt_first_state state;
    uint64_t nodes; /* spent on it by every thread, over every budget it was given */
} ttt_first_move;

/* How far the draw prover got with the last position whose attacker's first moves it proves one by one (from
 * a position of at most one stone, the attacker to move: the empty board). */
typedef struct ttt_proof_report {
    ttt_player side; /* the attacker: the side shown unable to win once every first move is refuted */
    int count;       /* the first moves, up to symmetry (0: no such proof has run) */
    ttt_first_move moves[TTT_MAX_CELLS];
    uint64_t
        proven; /* with a first move left open: the positions the provers' tables held proven (the defender
                        holds) as the proof stopped, its size so far (a table keeps what fits); else 0, not
                        counted (a scan of the tables) */
} ttt_proof_report;

/* Fills out with the solver's last such proof, as it ended (proven, stopped or shown to fail). */
void ttt_solver_proof_report(const ttt_solver *solver, ttt_proof_report *out);

/* Total nodes this solver has searched. */
uint64_t ttt_solver_nodes(const ttt_solver *solver);

/* The order of ttt_search_result's moves, for qsort over ttt_move_score: best score first, then by move. */
int ttt_move_score_compare(const void *a, const void *b);

/* The score (for b's side to move) of playing `move` at b (ongoing, the solver's rules), searched within the
 * window (alpha, beta), fail-soft: exact when strictly inside, at most *score when <= alpha, at least *score
 * when >= beta. With the full window (alpha <= -TTT_SCORE_WIN, beta >= TTT_SCORE_WIN) it is exact and found as
 * ttt_solver_search with all=true and no limits values each move (a draw the prover shows, else by distance
 * first). The table is kept. Within limits->nodes and ms (may be NULL; progress is not called): *proven is
 * false when the budget ran out (*score is then meaningless). *nodes: nodes searched. TTT_ESTATE for an
 * illegal move, a finished game, other rules or alpha >= beta. */
ttt_status ttt_solver_move_score(ttt_solver *s, const ttt_board *b, ttt_move move, int alpha, int beta,
                                 const ttt_limits *limits, int *score, bool *proven, uint64_t *nodes,
                                 ttt_error *err);

/* --- Checkpoints: a long search saved and continued ---------------------------------------------------- */

/* ttt_solver_save writes what the solver has settled about the root it searches (or searched last), so that
 * after a restart ttt_solver_load gives it back and the same search goes on from there: the draw prover's
 * answers at the root, the exact value of every first move valued to the end (a search with all=true and no
 * budget skips them), the move ordering's history, the table's exact entries that cost the most to find (at most
 * TTT_CHECKPOINT_MAX_ENTRIES) and the draw prover's table. The values are those of one uninterrupted search; the node counts are not.
 * The layout, integers little-endian; cells and stone sets as the solver searches the board (its rows and
 * columns swapped when it has more rows than columns, as the same rules always are):
 *
 *     size       field
 *        8       TTT_CHECKPOINT_MAGIC, "TTTSOLV\n"
 *        4       version, TTT_CHECKPOINT_VERSION
 *     2 + R      R, then the rules as ttt_rules_format writes them
 *     2 + P      P, then the root position as ttt_position_format writes it
 *        8       nodes the prover spent on the answers below (its budget goes on from there)
 *     4 + 34 Q   Q, then the prover's answers: attacker and defender stones (two u64 each: cells 0-63, 64-127;
 *                the prover works on at most 128 cells), the attacker to move
 *                (u8), proven unable to complete a line first (u8)
 *     4 + 4 S    S, then the first moves valued exactly: cell (u16), score (i16, as ttt_move_score.score)
 *     2 + 2 N    N, then the first moves (u16) in the order the search takes them
 *     8 cells    the move ordering's history: a count (u32) per cell for X, then for O
 *     8 + 16 E   E, then table entries: key (u64), score (i16), best move (i16, -1 for none), depth (u8,
 *                255: exact), bound (u8: 1 lower, 2 upper, 3 exact), work (u8: log2 of the nodes below),
 *                pairing (u8)
 *     24 + F (8 + B)  the draw prover's table: its version (u32, 0: no prover), entry size B (u32), slots (u64),
 *                the F slots kept (u64: those in use that cost ttt_prover_table_worth nodes), then each: its
 *                index (u64) and its B bytes as they lie in memory;
 *                read back by the same version of the prover only
 *        8       FNV-1a (64 bits) of every byte before: a file cut short or changed is refused */
#define TTT_CHECKPOINT_MAGIC       "TTTSOLV\n"
#define TTT_CHECKPOINT_VERSION     2
#define TTT_CHECKPOINT_MAX_ENTRIES (UINT64_C(1) << 24) /* 256 MiB of entries at most */

/* What a checkpoint holds. */
typedef struct ttt_checkpoint_info {
    int settled; /* first moves whose value is known */
    int proofs;  /* answers of the draw prover */
    int refuted; /* of those, the first moves it refuted (up to symmetry: after one, its attacker cannot win) */
    uint64_t entries; /* table entries */
    uint64_t proven;  /* entries of the draw prover's table */
    uint64_t bytes;   /* the file's size */
} ttt_checkpoint_info;

/* Writes the checkpoint to out (opened for writing in binary; the caller makes the file, and closes it: write
 * it beside the old one and rename, so that a kill leaves one whole). May be called from the search's progress
 * function (ttt_limits.progress) to save while it runs. info (may be NULL) receives what was written. Errors:
 * TTT_ESTATE before any search; TTT_EIO when out fails. */
ttt_status ttt_solver_save(const ttt_solver *solver, FILE *out, ttt_checkpoint_info *info, ttt_error *err);

/* Reads a checkpoint that ttt_solver_save wrote for the position b (with the solver's rules) into the solver,
 * whose next search of b goes on from it (the table keeps what it holds; entries beyond its size are
 * dropped). info (may be NULL) receives what was read. Errors (TTT_EINVAL, one line, no file name): not a
 * checkpoint, another version, other rules, another position, a file cut short, changed or with bytes after
 * its end; the solver has then forgotten everything (as ttt_solver_clear). TTT_EIO when in fails. */
ttt_status ttt_solver_load(ttt_solver *solver, const ttt_board *b, FILE *in, ttt_checkpoint_info *info,
                           ttt_error *err);

#endif
