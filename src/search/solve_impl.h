/*
 * search/solve_impl.h - what the solver's two files share (internal): its state, cut by lifetime, and the
 * calls between the driver (solve.c: the interface, the root, threads, draw proofs) and the node search
 * (solve_search.c: reading the lines, the table, move ordering, the numbered steps of a node).
 *
 * A solver's state, by how long each part lives:
 *
 *     cfg       the rules and settings, from ttt_solver_new (and its setters) on
 *     g         the board's geometry (a shared ttt_lines) and the solver's own tables over it
 *     table     the transposition table and the move ordering's history, until ttt_solver_clear
 *     pos       the position searched, kept by play() and undo(): a helper thread copies it whole
 *     mode      what the search under way asks (set by each call of the interface)
 *     budget    what the search under way may spend and has spent
 *     progress  the listener of the search under way and what its root has found
 *     proof     the draw prover and its share of the search under way
 *     trace     the recorder of the searches' steps (ttt/trace.h), or NULL: set by the minimax engine
 */
#ifndef TTT_SEARCH_SOLVE_IMPL_H
#define TTT_SEARCH_SOLVE_IMPL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "rules/lines.h"
#include "search/pairing.h"
#include "search/prove.h"
#include "ttt/solve.h"
#include "ttt/trace.h"

#define SCORE_INF      32000
#define TT_DEPTH_EXACT 255
#define TT_BUCKET      4 /* entries per bucket: one 64-byte cache line */
#define CACHE_LINE     64

enum { BOUND_NONE = 0, BOUND_LOWER = 1, BOUND_UPPER = 2, BOUND_EXACT = 3 };

typedef struct tt_entry {
    uint64_t key;
    int16_t score;
    int16_t move;    /* best move in the canonical frame, or -1 */
    uint8_t depth;   /* depth searched, TT_DEPTH_EXACT when no heuristic was involved */
    uint8_t bound;   /* BOUND_NONE marks a free slot */
    uint8_t work;    /* log2 of the nodes searched below: what it would cost to find again */
    uint8_t pairing; /* per side (bits 2 * side): PAIRING_KNOWN, and PAIRING_HOLDS when pairing_holds */
} tt_entry;

typedef struct geometry {
    const ttt_lines *lines; /* the board's windows, lines and symmetries (rules/lines.h), shared */
    int line_sign;          /* +1: completing a line wins; -1 (misère): it loses */
    ttt_bits *near;         /* cells: the cells within NEIGHBOURHOOD_RADIUS of each */
    pairing_lines64 pairs;  /* the windows as the one-word pairing kernel reads them (lines->words == 1) */
    /* zob[sym][side] points to `cells` keys in zob_keys (nsym * 2 * cells), sized by the board as near is
     * (3x3 arena minimax-minimax, 2000 games: 0.29 s against 0.54 s with arrays of TTT_MAX_CELLS). */
    uint64_t *zob[TTT_SYM_ALL][2];
    uint64_t *zob_keys;
    /* Mirror strategies (misère): symmetries g with g(g(c)) = c whose fixed cells number 0, or 1 with every
     * window through it holding a pair of distinct cells c, g(c) (5x5 k=4 under the half turn: every window
     * through the centre does). The side not to move (holding the fixed cell, if any) copies each move of the
     * other through g; then it never completes a line first: the stones of the copying side off the fixed
     * cell are the images of the other's, so a window holding c and g(c) never fills with its stones alone
     * (one of the two is the other side's), and any other window it fills (none through the fixed cell) is
     * the image of one the other side filled a move earlier. */
    int nmirror;
    int mirror_sym[TTT_SYM_ALL];
    int mirror_fixed[TTT_SYM_ALL]; /* the fixed cell, or -1 */
} geometry;

/* What the solver is: set when it is made (or by its setters) and kept. */
typedef struct solver_config {
    ttt_rules rules; /* the caller's */
    /* The search sees a board with more rows than columns turned sideways (rows and columns swapped): the
     * same game, which its move ordering handles better that way round (6x5k4: 18.9M nodes, 5x6k4: 7.2M).
     * Cells cross the interface through to_inner() and to_user(). */
    bool transposed;
    int threads;                  /* searchers that value root moves at once (ttt_solver_set_threads) */
    int tt_mib;                   /* the table's most, for the other threads' solvers */
    uint64_t root_distance_nodes; /* root_move_score()'s turn by distance (ROOT_DISTANCE_NODES) */
} solver_config;

/* What the solver has learnt, kept from search to search until ttt_solver_clear. */
typedef struct solver_table {
    tt_entry *tt; /* aligned to a cache line inside memory */
    void *memory;
    size_t mask;   /* entries - 1 */
    size_t max;    /* the most entries the table may grow to (a power of two) */
    size_t filled; /* slots in use */
    uint32_t history[2][TTT_MAX_CELLS];
} solver_table;

/* The most windows of a board (4 per cell), the room of the counts below. */
#define SOLVER_MAX_WINDOWS (4 * TTT_MAX_CELLS)

/* A move on the path searched, for progress reports: its cell, its rank among its node's moves (from 0) and
 * their count. */
typedef struct solver_step {
    int16_t cell, index, count;
} solver_step;

/* The position being searched, kept incrementally by play() and undo(). */
typedef struct solver_position {
    ttt_bits occ;
    ttt_bits stones[2];                   /* of each side */
    uint8_t count[2][SOLVER_MAX_WINDOWS]; /* stones of each side in each window */
    int ply;
    uint64_t hash[TTT_SYM_ALL];    /* Zobrist hash of each symmetric image */
    uint64_t swapped[TTT_SYM_ALL]; /* per mirror: hash of the colour-swapped image of the stones off its fixed
                                      cell */
    solver_step trail[TTT_MAX_CELLS]; /* trail[p]: the move searched at ply p, written by the loops that play
                                         (not by play()): only trail[root ply .. ply - 1] is the path */
} solver_position;

/* What the search under way asks: set by each call of the interface. */
typedef struct solver_mode {
    bool exact;         /* no neighbourhood restriction */
    bool etc;           /* enhanced transposition cutoffs (step 8b) */
    bool every;         /* every root move is valued (ORDER_STATIC_EVERY) */
    ttt_bits root_draw; /* root moves the prover has shown to draw (inner cells) */
} solver_mode;

/* The budget of the search under way, and what it has spent. */
typedef struct solver_budget {
    uint64_t nodes, node_limit;
    uint64_t total_nodes; /* over every search of the solver (ttt_solver_nodes) */
    double start;         /* when the search began (ttt_clock_ms) */
    double deadline;      /* 0 = none */
    uint64_t turn_limit;  /* 0 = none: the node count where the turn of exact_score() under way ends */
    bool stop;
    atomic_bool *halt; /* set when a thread of a parallel root stopped: all stop (NULL: one thread) */
    uint64_t inexact;  /* grows whenever a result depends on a heuristic or an unsearched move */
} solver_budget;

/* Progress reports (ttt_limits.progress) and what the root has found in the iteration under way. */
typedef struct solver_progress {
    ttt_search_progress_fn fn;
    void *user;
    bool interrupted; /* the listener asked to stop: no later phase runs */
    int root_ply;     /* of the position searched: where the path of the report starts */
    ttt_search_progress root;
} solver_progress;

/* Draw proofs (search/prove.h) and the prover's share of the search under way. */
typedef struct solver_proof {
    ttt_prover *prover; /* NULL where they do not pay */
    double deadline;
    uint64_t nodes0, limit, spent; /* spent: by the last prove_once */
    int tt_mib;                    /* the prover's table */
    struct moves_share *moves;     /* prove_moves_hold's threads (solve.c) while it runs */
    int moves_done, moves_total;   /* prove_moves_hold (solve.c): the attacker's moves settled of how many */
    ttt_bits root;                 /* the stones of the position searched (prove_begin), and those of the */
    ttt_bits run;                  /* prover's run under way: the report's line starts with the difference */
    ttt_proof_report report;       /* of the last prove_moves_hold (ttt_solver_proof_report) */
} solver_proof;

/* The recorder (ttt/trace.h) and where the root's replies are: the node after the root move under way. */
typedef struct solver_trace {
    ttt_trace *to; /* NULL: no recorder, nothing reported */
    int reply_ply; /* the ply of the nodes whose moves are the replies to a root move */
    int root_move; /* the root move under way, in the caller's frame */
} solver_trace;

/* Reports the moves of a node at trace.reply_ply after its move i scored sc (its mover's view) in the window
 * (alpha, beta): the reply, and at a cutoff (cut) the replies left unsearched. In solve_search.c. */
void solve_trace_reply(ttt_solver *s, const int *moves, int n, int i, int sc, int alpha, int beta, bool cut);

struct ttt_solver {
    solver_config cfg;
    geometry g; /* of the board as searched */
    solver_table table;
    solver_position pos;
    solver_mode mode;
    solver_budget budget;
    solver_progress progress;
    solver_proof proof;
    solver_trace trace;
    struct solve_resume *resume; /* what the root's search has settled (search/solve_resume.h) */
};

/* Fills in the report of the search under way (nodes, time, the path searched, the prover's counts) and
 * hands it to the listener (s->progress.fn, not NULL); sets s->progress.interrupted when it asks to stop. */
void solve_report(ttt_solver *s);
/* The draw prover's part of that report (solve.c): its counts, its threads' first moves and its line. */
void solve_prove_report(ttt_solver *s, ttt_search_progress *p);

/* --- Bits ----------------------------------------------------------------------------------------------- */

static inline bool bits_any(const ttt_bits *b)
{
    uint64_t any = 0;
    for (int i = 0; i < TTT_WORDS; i++)
        any |= b->w[i];
    return any != 0;
}

static inline int bits_first(const ttt_bits *b)
{
    for (int i = 0; i < TTT_WORDS; i++)
        if (b->w[i])
            return i * 64 + __builtin_ctzll(b->w[i]);
    return -1;
}

/* --- Making and taking back moves ----------------------------------------------------------------------- */

static inline void play(ttt_solver *s, int cell)
{
    int side = s->pos.ply & 1;
    const geometry *g = &s->g;
    const ttt_lines *lines = g->lines;
    ttt_bits_set(&s->pos.occ, cell);
    ttt_bits_set(&s->pos.stones[side], cell);
    const int16_t *wins = &lines->cell_win[cell * lines->cell_win_max];
    for (int i = 0; i < lines->cell_nwin[cell]; i++)
        s->pos.count[side][wins[i]]++;
    for (int sy = 0; sy < lines->nsym; sy++)
        s->pos.hash[sy] ^= g->zob[sy][side][cell];
    for (int m = 0; m < g->nmirror; m++)
        if (cell != g->mirror_fixed[m])
            s->pos.swapped[m] ^= g->zob[g->mirror_sym[m]][side ^ 1][cell];
    s->pos.ply++;
}

static inline void undo(ttt_solver *s, int cell)
{
    s->pos.ply--;
    int side = s->pos.ply & 1;
    const geometry *g = &s->g;
    const ttt_lines *lines = g->lines;
    ttt_bits_clear(&s->pos.occ, cell);
    ttt_bits_clear(&s->pos.stones[side], cell);
    const int16_t *wins = &lines->cell_win[cell * lines->cell_win_max];
    for (int i = 0; i < lines->cell_nwin[cell]; i++)
        s->pos.count[side][wins[i]]--;
    for (int sy = 0; sy < lines->nsym; sy++)
        s->pos.hash[sy] ^= g->zob[sy][side][cell];
    for (int m = 0; m < g->nmirror; m++)
        if (cell != g->mirror_fixed[m])
            s->pos.swapped[m] ^= g->zob[g->mirror_sym[m]][side ^ 1][cell];
}

/* A cell of the caller's board as the search sees it, and back. */
static inline int to_inner(const ttt_solver *s, int cell)
{
    return s->cfg.transposed ? cell % s->cfg.rules.cols * s->cfg.rules.rows + cell / s->cfg.rules.cols : cell;
}

static inline int to_user(const ttt_solver *s, int cell)
{
    return s->cfg.transposed ? cell % s->cfg.rules.rows * s->cfg.rules.cols + cell / s->cfg.rules.rows : cell;
}

/* --- Reading the lines ---------------------------------------------------------------------------------- */

typedef struct scan_info {
    ttt_bits threat[2]; /* empty cells that complete a line for each side */
    int nthreat[2];
    bool can[2];   /* the side might still complete a line (see scan) */
    ttt_bits live; /* empty cells in some useful window; the others are dead: they can never matter again */
    ttt_bits useful[2]; /* misère only: the cells of each side's useful windows, stones included */
    int fork;           /* a cell where the side to move makes two threats at once, or -1 */
} scan_info;

/* One pass over the windows. Fork detection (for the side to move) runs only when asked. */
void solve_scan(const ttt_solver *s, bool want_fork, scan_info *si);

/* --- Transposition table -------------------------------------------------------------------------------- */

/* The canonical key: the least hash over the symmetric images; *frame receives that image's symmetry. */
static inline uint64_t canonical_key(const ttt_solver *s, int *frame)
{
    uint64_t best = s->pos.hash[0];
    int which = 0;
    for (int sy = 1; sy < s->g.lines->nsym; sy++)
        if (s->pos.hash[sy] < best) {
            best = s->pos.hash[sy];
            which = sy;
        }
    *frame = which;
    return best;
}

static inline tt_entry *tt_probe(ttt_solver *s, uint64_t key)
{
    tt_entry *bucket = &s->table.tt[key & s->table.mask & ~(size_t)(TT_BUCKET - 1)];
    for (int i = 0; i < TT_BUCKET; i++)
        if (bucket[i].bound != BOUND_NONE && bucket[i].key == key)
            return &bucket[i];
    return NULL;
}

/* --- The search (solve_search.c) ------------------------------------------------------------------------ */

/* Stores an entry read back from a checkpoint, as the search stores its own (the table grows, a full bucket
 * loses its cheapest entry). */
void solve_tt_put(ttt_solver *s, const tt_entry *e);

/* Writes the moves of `set` into out, best first. Returns how many. */
int solve_order_moves(const ttt_solver *s, const ttt_bits *set, int hash_move, int *out);

/* Whether a pairing strategy of the other side stops `side` from ever completing a line (normal rules).
 * partner (cells entries, may be NULL) as pairing_find. */
bool solve_pairing_holds(const ttt_solver *s, int side, int *partner);

/* The score of the position for the side to move, searched `depth` plies deep with the window (alpha, beta)
 * (fail-soft); meaningless when the search stopped (s->budget.stop). */
int solve_search(ttt_solver *s, int depth, int alpha, int beta);

/* The exact score of the position by distance (normal rules, full depth; see solve_search.c): false when the
 * budget ran out. */
bool solve_exact_score(ttt_solver *s, int depth, int alpha, int beta, int *score);

/* The exact score of a root move's position when every move is valued (see solve_search.c). */
int solve_root_move_score(ttt_solver *s, int depth);

#endif
