/*
 * search/solver.c - negamax with alpha-beta over the lines of the board.
 *
 * The board is seen through its windows: every run of k cells in a row, column or diagonal. For each window
 * the searcher keeps how many stones each side has in it, updated by play and undo, so that at every node one
 * pass over the windows tells:
 *
 *     threat[side]  the empty cells where `side` would complete a line now
 *     live cells    the empty cells of the windows a side can still fill; the others are dead
 *     a fork        a cell where the side to move would make two threats at once (normal rules)
 *
 * and the search is the numbered steps of search() below. Positions are stored in the transposition table
 * under the smallest of the hashes of their symmetric images, which the searcher keeps for all images at
 * once.
 */
#include "ttt/solve.h"

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "rules/lines.h"
#include "search/avoid.h"
#include "search/pairing.h"
#include "search/prove.h"
#include "search/solver_tune.h"
#include "ttt/symmetry.h"
#include "util/error.h"

#define SCORE_INF 32000
/* Heuristic scores stay strictly inside (-HEURISTIC_MAX, HEURISTIC_MAX), far from proven scores. */
#define HEURISTIC_MAX 5000
/* Heuristic weight of a window free of the other side, by how many stones its owner still needs. */
#define EVAL_NEED_1    900
#define EVAL_NEED_2    120
#define EVAL_NEED_3    20
#define EVAL_NEED_MORE 3
/* Move ordering: how much a window through the cell counts, by the stones already in it. */
#define ORDER_OWN_STONE   12
#define ORDER_THEIR_STONE 16
#define ORDER_HASH_MOVE   (1 << 30)
#define HISTORY_MAX       (1u << 24)
/* When every move is valued (normal rules), the weights of the lines through a cell count this many times
 * against the history: the root's drawn and lost moves, whose values and distances cost most, are settled
 * by the lines more than by the history that the wins taught. Measured (nodes, every move): 6x5k4
 * 30,955,597 -> 3,570,696 (x1000: 4,467,898; x1, the value's order: the first figure); 4x6k4 2,101,925 ->
 * 497,304; 5x5k4 491,014 -> 749,810; 4x5k4 20,052 -> 30,711; 7x7k5 3,548,179 (unchanged: the prover).
 * The value alone is best with x1: 6x5k4 174,099 against 477,692, 6x6k4 101,551 against 412,630. */
#define ORDER_STATIC_EVERY 300
/* Under misère, each window fewer through a cell outweighs any history (history / 16 < HISTORY_MAX / 16).
 * Measured (--value, nodes): 4x4 misère 4,353 -> 201; 4x5k4 misère 3,155,268 -> 147,608 (every move
 * 23,285,260 -> 1,546,195); 5x5k4 misère solved, 54,424,232 nodes, 33 s (was not in 300 s). Weaker
 * weights lose to the history: 30000 per window 206,201,374 nodes on 5x5k4; no history at all, not in
 * 300 s; the most windows first (as normal rules), 3,155,268 on 4x5k4. */
#define ORDER_MISERE_FEWER ((int)(HISTORY_MAX >> 4) + 1)
/* Pairing strategies are looked for only with at least this many empty cells: nearer the end the search is
 * cheaper than the matching. */
#define PAIRING_MIN_EMPTIES 8
/* Enhanced transposition cutoffs are tried with at least this many empty cells, under misère and when every
 * move is valued (measured: 6x5k4 every move 173.4M -> 93.6M nodes, 4x5k4 misère 1.82M -> 1.32M; but the
 * value of a normal-rules board that is a win costs more: 6x5k4 7.66M -> 9.57M, 6x6k4 94.3M -> 260.0M). */
#define ETC_MIN_EMPTIES 12
/* Steps of pairing_avoid's search per side and node (misère). Its cutoffs often cost nodes elsewhere (the
 * move ordering learns less from history): 5x5k4 misère after c3, the question "can O avoid losing?", 10.9M
 * nodes with 16 steps, 13.1M with 64, 9.0M with 256; but on the empty board the second and third root moves
 * took 9.5M and 7.2M nodes with 64 steps, 84.2M and 87.1M with 256 steps and the poison cells forbidden
 * (below), though that setting took 2.7M against 7.4M after c3 b2 d4 b4. No forbidden cells, 64 steps. */
#define AVOID_PAIRING_BUDGET 64
#define PAIRING_KNOWN        1u
#define PAIRING_HOLDS        2u
/* The budget is checked every this many nodes (a power of two). */
#define CLOCK_CHECK_NODES 64
/* Boards with more cells than this search only cells near stones when the search is depth-limited. */
#define NEIGHBOURHOOD_MIN_CELLS 36
#define NEIGHBOURHOOD_RADIUS    2
/* Boards of up to this many words (256 cells, 16x16) gather their live cells in a loop of this fixed length,
 * which the compiler unrolls (measured, 15x15k5 100k nodes from h8: 4.42G instructions; looping over the
 * board's own word count 5.40G, over all TTT_WORDS 6.13G). */
#define LIVE_FAST_WORDS 4
/* The most (cell, partner) pairs fork detection looks at; past it the detection is skipped. */
#define FORK_MAX_PAIRS 64
/* With a limited budget and at most this many empty cells, a full-depth (exact) search is tried first, with
 * EXACT_FIRST_SHARE of the budget, before iterative deepening spends the rest. */
#define EXACT_FIRST_EMPTIES 30
#define EXACT_FIRST_SHARE   0.5
#define TT_DEPTH_EXACT      255
#define TT_BUCKET           4 /* entries per bucket: one 64-byte cache line */
#define CACHE_LINE          64
#define MIB                 (1024u * 1024u)
/* The table starts this small (bytes) and doubles, up to the size asked for, whenever more than
 * TT_GROW_NUM / TT_GROW_DEN of its slots are filled: a search pays in memory (page faults, cache misses) only
 * for what it stores. Below glibc's mmap threshold, so that a short-lived solver costs no mmap. */
#define TT_START_BYTES (64u * 1024u)
#define TT_GROW_NUM    1
#define TT_GROW_DEN    4
/* exact_score() searches by distance for at most this many nodes before it searches by value (the empty
 * boards: 6x5k4 180,075 nodes, 6x6k4 101,551, 5x5k4 699,598, 4x6k4 404,129 by distance alone). */
#define EXACT_DISTANCE_NODES (UINT64_C(1) << 20)
/* When every move is valued, root_move_score() asks about each root move by distance for this many nodes
 * before it asks the value (6x5k4, every move: 2^18 54.3M nodes, 2^19 61.8M, 2^20 68.2M; its two short wins
 * take 0.17M and 0.15M by distance). */
#define ROOT_DISTANCE_NODES (UINT64_C(1) << 18)
/* Draw proofs (search/prove.h) are tried first on boards of at least PROVE_MIN_CELLS cells with k >=
 * PROVE_MIN_K that the prover handles (7x7k5, 8x8k5, ...): there the alpha-beta search alone does not finish
 * (7x7k5: not in 300 s). On k = 4 boards the search is faster than the prover (5x5k4: 0.71M nodes against the
 * prover's 2.26M); smaller k = 5 boards keep the search's move-by-move progress reports. The prover's table
 * is PROVE_TT_MIB; it gets PROVE_SHARE of a limited budget, and PROVE_MAX_NODES when the search has none. */
#define PROVE_MIN_CELLS 49
#define PROVE_MIN_K     5
#define PROVE_TT_MIB    64
#define PROVE_SHARE     0.5
#define PROVE_MAX_NODES (UINT64_C(1) << 28)

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
    /* zob[sym][side] points to `cells` keys in zob_keys (nsym * 2 * cells of them). Sized by the board, not
     * TTT_MAX_CELLS, like near: a 3x3 solver then stays small enough (measured: 92 KB with both at 20x20's
     * size) that freeing it does not trim the heap, so that the next one, a game later, takes no page faults
     * (3x3 arena minimax-minimax, 2000 games: 0.29 s, 0.54 s with the fixed arrays). */
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

/* The position being searched, kept incrementally by play() and undo(). */
typedef struct solver_position {
    ttt_bits occ;
    ttt_bits stones[2];                   /* of each side */
    uint8_t count[2][SOLVER_MAX_WINDOWS]; /* stones of each side in each window */
    int ply;
    uint64_t hash[TTT_SYM_ALL];    /* Zobrist hash of each symmetric image */
    uint64_t swapped[TTT_SYM_ALL]; /* per mirror: hash of the colour-swapped image of the stones off its fixed
                                      cell */
} solver_position;

/* What the search under way asks: set by each call of the interface. */
typedef struct solver_mode {
    bool exact;         /* no neighbourhood restriction */
    bool etc;           /* enhanced transposition cutoffs (step 8b) */
    bool every;         /* every root move is valued (ORDER_STATIC_EVERY) */
    uint64_t root_draw; /* root moves the prover has shown to draw (inner cells) */
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
    ttt_search_progress root;
} solver_progress;

/* Draw proofs (search/prove.h) and the prover's share of the search under way. */
typedef struct solver_proof {
    ttt_prover *prover; /* NULL where they do not pay */
    double deadline;
    uint64_t nodes0, limit;
} solver_proof;

struct ttt_solver {
    solver_config cfg;
    geometry g; /* of the board as searched */
    solver_table table;
    solver_position pos;
    solver_mode mode;
    solver_budget budget;
    solver_progress progress;
    solver_proof proof;
};

/* --- Bits ----------------------------------------------------------------------------------------------- */

static bool bits_any(const ttt_bits *b)
{
    uint64_t any = 0;
    for (int i = 0; i < TTT_WORDS; i++)
        any |= b->w[i];
    return any != 0;
}

static int bits_first(const ttt_bits *b)
{
    for (int i = 0; i < TTT_WORDS; i++)
        if (b->w[i])
            return i * 64 + __builtin_ctzll(b->w[i]);
    return -1;
}

/* --- Geometry ------------------------------------------------------------------------------------------- */

/* Finds the mirror strategies of the board (see geometry). */
static void geometry_mirrors(geometry *g)
{
    const ttt_lines *lines = g->lines;
    g->nmirror = 0;
    for (int sy = 1; sy < lines->nsym; sy++) {
        if (ttt_sym_compose(sy, sy) != 0)
            continue;
        int fixed = -1, nfixed = 0;
        for (int cell = 0; cell < lines->cells; cell++)
            if (lines->sym[sy][cell] == cell) {
                fixed = cell;
                nfixed++;
            }
        if (nfixed > 1)
            continue;
        bool ok = true;
        for (int i = 0; nfixed == 1 && i < lines->cell_nwin[fixed] && ok; i++) {
            const int16_t *cells =
                &lines->win_cell[lines->cell_win[fixed * lines->cell_win_max + i] * lines->k];
            bool pair = false;
            for (int j = 0; j < lines->k && !pair; j++)
                for (int l = 0; l < lines->k && !pair; l++)
                    pair = cells[j] != cells[l] && lines->sym[sy][cells[j]] == cells[l];
            ok = pair;
        }
        if (!ok)
            continue;
        g->mirror_sym[g->nmirror] = sy;
        g->mirror_fixed[g->nmirror] = fixed;
        g->nmirror++;
    }
}

/* The solver's own tables over a shared geometry, of which it takes a reference. */
static ttt_status geometry_init(geometry *g, const ttt_lines *lines, bool misere)
{
    g->lines = ttt_lines_ref(lines);
    g->line_sign = misere ? -1 : 1;
    const int cells = lines->cells;
    g->near = malloc(sizeof *g->near * (size_t)cells);
    g->zob_keys = malloc(sizeof *g->zob_keys * (size_t)lines->nsym * 2 * (size_t)cells);
    if (!g->near || !g->zob_keys)
        return TTT_ENOMEM;
    for (int sy = 0; sy < lines->nsym; sy++)
        for (int side = 0; side < 2; side++)
            g->zob[sy][side] = &g->zob_keys[(size_t)(sy * 2 + side) * (size_t)cells];
    for (int cell = 0; cell < cells; cell++) {
        memset(&g->near[cell], 0, sizeof g->near[cell]);
        int row = cell / lines->cols, col = cell % lines->cols;
        for (int rr = row - NEIGHBOURHOOD_RADIUS; rr <= row + NEIGHBOURHOOD_RADIUS; rr++)
            for (int cc = col - NEIGHBOURHOOD_RADIUS; cc <= col + NEIGHBOURHOOD_RADIUS; cc++)
                if (rr >= 0 && rr < lines->rows && cc >= 0 && cc < lines->cols)
                    ttt_bits_set(&g->near[cell], rr * lines->cols + cc);
    }
    for (int sy = 0; sy < lines->nsym; sy++)
        for (int cell = 0; cell < cells; cell++)
            for (int side = 0; side < 2; side++)
                g->zob[sy][side][cell] = ttt_zobrist_key((ttt_player)side, lines->sym[sy][cell]);
    geometry_mirrors(g);
    return TTT_OK;
}

static void geometry_free(geometry *g)
{
    free(g->near);
    free(g->zob_keys);
    ttt_lines_unref(g->lines);
}

/* --- Making and taking back moves ----------------------------------------------------------------------- */

static void play(ttt_solver *s, int cell)
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

static void undo(ttt_solver *s, int cell)
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
static int to_inner(const ttt_solver *s, int cell)
{
    return s->cfg.transposed ? cell % s->cfg.rules.cols * s->cfg.rules.rows + cell / s->cfg.rules.cols : cell;
}

static int to_user(const ttt_solver *s, int cell)
{
    return s->cfg.transposed ? cell % s->cfg.rules.rows * s->cfg.rules.cols + cell / s->cfg.rules.rows : cell;
}

/* Loads a board into the searcher's incremental state. */
static void load(ttt_solver *s, const ttt_board *b)
{
    memset(&s->pos.occ, 0, sizeof s->pos.occ);
    memset(s->pos.stones, 0, sizeof s->pos.stones);
    memset(s->pos.count[0], 0, (size_t)s->g.lines->nwin);
    memset(s->pos.count[1], 0, (size_t)s->g.lines->nwin);
    memset(s->pos.hash, 0, sizeof s->pos.hash);
    memset(s->pos.swapped, 0, sizeof s->pos.swapped);
    s->pos.ply = 0;
    /* Replaying X and O stones alternately keeps each stone's side right (X has as many or one more). */
    ttt_bits stones[2] = {b->stones[TTT_X], b->stones[TTT_O]};
    int side = TTT_X;
    while (bits_any(&stones[side])) {
        int cell = bits_first(&stones[side]);
        ttt_bits_clear(&stones[side], cell);
        play(s, to_inner(s, cell));
        side ^= 1;
    }
    assert(s->pos.ply == b->ply);
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

static int window_empty_cell(const ttt_solver *s, int w)
{
    const int16_t *cells = &s->g.lines->win_cell[w * s->g.lines->k];
    for (int i = 0; i < s->g.lines->k; i++)
        if (!ttt_bits_test(&s->pos.occ, cells[i]))
            return cells[i];
    return -1;
}

/* One pass over the windows. Fork detection (for the side to move) runs only when asked. */
static void scan(const ttt_solver *s, bool want_fork, scan_info *si)
{
    const geometry *g = &s->g;
    const ttt_lines *lines = g->lines;
    const int k = lines->k, mover = s->pos.ply & 1;
    memset(si->threat, 0, sizeof si->threat);
    memset(&si->live, 0, sizeof si->live);
    memset(si->useful, 0, sizeof si->useful);
    const bool misere = g->line_sign < 0;
    si->can[0] = si->can[1] = false;
    si->fork = -1;
    /* Moves each side has left: X moves on even plies. */
    const int empties = lines->cells - s->pos.ply;
    int left[2];
    left[mover] = (empties + 1) / 2;
    left[mover ^ 1] = empties / 2;
    uint64_t potential[2] = {0, 0};
    int16_t pairs[FORK_MAX_PAIRS][2];
    int npairs = 0;
    bool pairs_overflow = false;
    const uint8_t *cx = s->pos.count[TTT_X], *co = s->pos.count[TTT_O];
    for (int w = 0; w < lines->nwin; w++) {
        int a = cx[w], b = co[w];
        bool useful = false;
        if (b == 0 && k - a <= left[TTT_X]) {
            useful = true;
            for (int i = 0; misere && i < TTT_WORDS; i++)
                si->useful[TTT_X].w[i] |= lines->win_bits[w].w[i];
            potential[TTT_X] += pairing_potential(k - a);
            if (a == k - 1)
                ttt_bits_set(&si->threat[TTT_X], window_empty_cell(s, w));
        }
        if (a == 0 && k - b <= left[TTT_O]) {
            useful = true;
            for (int i = 0; misere && i < TTT_WORDS; i++)
                si->useful[TTT_O].w[i] |= lines->win_bits[w].w[i];
            potential[TTT_O] += pairing_potential(k - b);
            if (b == k - 1)
                ttt_bits_set(&si->threat[TTT_O], window_empty_cell(s, w));
        }
        if (useful && lines->words <= LIVE_FAST_WORDS)
            for (int i = 0; i < LIVE_FAST_WORDS; i++) /* a fixed count: unrolled */
                si->live.w[i] |= lines->win_bits[w].w[i];
        else if (useful)
            for (int i = 0; i < TTT_WORDS; i++)
                si->live.w[i] |= lines->win_bits[w].w[i];
        if (want_fork && (mover == TTT_X ? b == 0 && a == k - 2 : a == 0 && b == k - 2) && k >= 3) {
            if (npairs == FORK_MAX_PAIRS) {
                pairs_overflow = true;
                continue;
            }
            const int16_t *cells = &lines->win_cell[w * k];
            int found = 0;
            for (int i = 0; i < k && found < 2; i++)
                if (!ttt_bits_test(&s->pos.occ, cells[i]))
                    pairs[npairs][found++] = cells[i];
            npairs++;
        }
    }
    for (int i = 0; i < lines->words; i++)
        si->live.w[i] &= ~s->pos.occ.w[i];
    /* A side can complete a line only in a useful window. Under normal rules the Erdos-Selfridge criterion
     * says more: if the sum over its useful windows of 2^-need is below 1/2 with that side to move (below 1
     * with the other side to move), the other side can stop every one of them, so it never completes a line.
     * Under misere the side itself avoids its lines, and the same sum below 1/2, whoever is to move, lets it
     * (the Avoider side of the bound): it always plays the empty cell whose windows weigh least. Its move
     * adds that cell's weight, at most the sum; the other side's next move takes away at least as much (it
     * kills every window through its cell, which weighed no less before); so the sum at each of its turns
     * stays below 1/2 and after each of its moves below 1, while a completed line alone would weigh 1. */
    for (int side = 0; side < 2; side++)
        si->can[side] = !pairing_potential_stops(potential[side], misere || side == mover);
    si->nthreat[0] = si->nthreat[1] = 0;
    for (int i = 0; i < lines->words; i++) {
        si->nthreat[0] += __builtin_popcountll(si->threat[0].w[i]);
        si->nthreat[1] += __builtin_popcountll(si->threat[1].w[i]);
    }
    if (!want_fork || pairs_overflow)
        return;
    /* A cell with two different partners makes two threats when played. */
    for (int i = 0; i < npairs && si->fork < 0; i++)
        for (int end = 0; end < 2 && si->fork < 0; end++) {
            int cell = pairs[i][end], partner = pairs[i][1 - end];
            for (int j = i + 1; j < npairs; j++) {
                if (pairs[j][0] == cell && pairs[j][1] != partner) {
                    si->fork = cell;
                    break;
                }
                if (pairs[j][1] == cell && pairs[j][0] != partner) {
                    si->fork = cell;
                    break;
                }
            }
        }
}

/* The horizon: open windows weighted by how close they are to a line, for the side to move. */
static int evaluate(const ttt_solver *s)
{
    const geometry *g = &s->g;
    const ttt_lines *lines = g->lines;
    const int k = lines->k;
    static const int by_need[4] = {0, EVAL_NEED_1, EVAL_NEED_2, EVAL_NEED_3};
    long total = 0;
    for (int w = 0; w < lines->nwin; w++) {
        int a = s->pos.count[TTT_X][w], b = s->pos.count[TTT_O][w];
        if (b == 0 && a > 0)
            total += k - a < 4 ? by_need[k - a] : EVAL_NEED_MORE;
        else if (a == 0 && b > 0)
            total -= k - b < 4 ? by_need[k - b] : EVAL_NEED_MORE;
    }
    total *= g->line_sign * ((s->pos.ply & 1) == TTT_X ? 1 : -1);
    if (total >= HEURISTIC_MAX)
        total = HEURISTIC_MAX - 1;
    if (total <= -HEURISTIC_MAX)
        total = -HEURISTIC_MAX + 1;
    return (int)total;
}

/* --- Transposition table -------------------------------------------------------------------------------- */

/* The canonical key: the least hash over the symmetric images; *frame receives that image's symmetry. */
static uint64_t canonical_key(const ttt_solver *s, int *frame)
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

static tt_entry *tt_probe(ttt_solver *s, uint64_t key)
{
    tt_entry *bucket = &s->table.tt[key & s->table.mask & ~(size_t)(TT_BUCKET - 1)];
    for (int i = 0; i < TT_BUCKET; i++)
        if (bucket[i].bound != BOUND_NONE && bucket[i].key == key)
            return &bucket[i];
    return NULL;
}

/* Asks the cache for key's bucket ahead of tt_probe, so that the work in between hides the memory's latency
 * (a search of many millions of nodes misses the cache at nearly every probe). Only a hint: no effect on
 * results. */
static void tt_prefetch(const ttt_solver *s, uint64_t key)
{
    __builtin_prefetch(&s->table.tt[key & s->table.mask & ~(size_t)(TT_BUCKET - 1)]);
}

/* Moves the table into a new one of `entries` slots (a power of two); keeps the old one if memory runs out.
 * Entries that find no room (a full bucket) are dropped: the table is a cache. */
static void tt_resize(ttt_solver *s, size_t entries)
{
    void *memory = calloc(entries * sizeof(tt_entry) + CACHE_LINE, 1);
    if (!memory)
        return;
    tt_entry *tt = (tt_entry *)(((uintptr_t)memory + CACHE_LINE - 1) & ~(uintptr_t)(CACHE_LINE - 1));
    size_t mask = entries - 1, filled = 0;
    for (size_t i = 0; i <= s->table.mask; i++) {
        const tt_entry *e = &s->table.tt[i];
        if (e->bound == BOUND_NONE)
            continue;
        tt_entry *bucket = &tt[e->key & mask & ~(size_t)(TT_BUCKET - 1)];
        for (int j = 0; j < TT_BUCKET; j++)
            if (bucket[j].bound == BOUND_NONE) {
                bucket[j] = *e;
                filled++;
                break;
            }
    }
    free(s->table.memory);
    s->table.memory = memory;
    s->table.tt = tt;
    s->table.mask = mask;
    s->table.filled = filled;
}

/* Stores over the same position, a free slot, or else the entry that cost the least work to find. */
static void tt_store(ttt_solver *s, uint64_t key, int score, int bound, int depth, int move, uint64_t nodes,
                     uint8_t pairing)
{
    if (s->table.mask + 1 < s->table.max && s->table.filled * TT_GROW_DEN > (s->table.mask + 1) * TT_GROW_NUM)
        tt_resize(s, (s->table.mask + 1) * 2);
    tt_entry *bucket = &s->table.tt[key & s->table.mask & ~(size_t)(TT_BUCKET - 1)];
    tt_entry *slot = &bucket[0];
    for (int i = 0; i < TT_BUCKET; i++) {
        if (bucket[i].bound == BOUND_NONE || bucket[i].key == key) {
            slot = &bucket[i];
            s->table.filled += bucket[i].bound == BOUND_NONE;
            break;
        }
        if (bucket[i].work < slot->work)
            slot = &bucket[i];
    }
    *slot = (tt_entry){.key = key,
                       .score = (int16_t)score,
                       .move = (int16_t)move,
                       .depth = (uint8_t)depth,
                       .bound = (uint8_t)bound,
                       .work = (uint8_t)(64 - __builtin_clzll(nodes | 1)),
                       .pairing = pairing};
}

/* --- Budget --------------------------------------------------------------------------------------------- */

static bool budget_spent(ttt_solver *s)
{
    if (s->progress.fn && (s->budget.nodes & (TTT_SEARCH_PROGRESS_NODES - 1)) == 0) {
        s->progress.root.nodes = s->budget.nodes;
        s->progress.root.ms = ttt_clock_ms() - s->budget.start;
        if (s->progress.fn(&s->progress.root, s->progress.user))
            s->progress.interrupted = true;
    }
    if (s->progress.interrupted)
        return true;
    if (s->budget.node_limit && s->budget.nodes >= s->budget.node_limit)
        return true;
    if (s->budget.deadline > 0 && ttt_clock_ms() >= s->budget.deadline)
        return true;
    if (s->budget.halt && atomic_load_explicit(s->budget.halt, memory_order_relaxed))
        return true;
    return s->budget.turn_limit && s->budget.nodes >= s->budget.turn_limit;
}

/* After a search stopped: true when only the turn's own limit stopped it, not the caller's budget. */
static bool turn_ended(const ttt_solver *s)
{
    return !s->progress.interrupted &&
           !(s->budget.halt && atomic_load_explicit(s->budget.halt, memory_order_relaxed)) &&
           !(s->budget.node_limit && s->budget.nodes >= s->budget.node_limit) &&
           !(s->budget.deadline > 0 && ttt_clock_ms() >= s->budget.deadline) && s->budget.turn_limit &&
           s->budget.nodes >= s->budget.turn_limit;
}

/* True when the side not to move can mirror from here on (misère): its stones are the colour-swapped image
 * of the mover's under a mirror symmetry, and it holds that symmetry's fixed cell if there is one. Then the
 * side to move cannot win. */
static bool mirror_holds(const ttt_solver *s)
{
    const geometry *g = &s->g;
    const int mover = s->pos.ply & 1;
    for (int m = 0; m < g->nmirror; m++) {
        int fixed = g->mirror_fixed[m];
        uint64_t plain = s->pos.hash[0];
        if (fixed >= 0) {
            /* The mirroring side owns the fixed cell: O to move, X holds it (were it O's, the hashes differ).
             */
            if (mover != TTT_O || !ttt_bits_test(&s->pos.occ, fixed))
                continue;
            plain ^= g->zob[0][TTT_X][fixed];
        } else if (mover != TTT_X) {
            continue;
        }
        if (plain == s->pos.swapped[m])
            return true;
    }
    return false;
}

/* --- Pairing strategies (search/pairing.h) -------------------------------------------------------------- */

/* Whether a pairing strategy of the other side stops `side` from ever completing a line (normal rules), by
 * the one-word kernel on boards of at most 64 cells. partner (cells entries, may be NULL) as pairing_find. */
static bool pairing_holds(const ttt_solver *s, int side, int *partner)
{
    const ttt_lines *lines = s->g.lines;
    if (lines->words == 1)
        return pairing_find64(lines, s->pos.stones[side].w[0], s->pos.stones[side ^ 1].w[0], NULL, partner);
    return pairing_find(lines, &s->pos.occ, s->pos.count[side], s->pos.count[side ^ 1], partner);
}

/* pairing_holds(s, side, NULL), answered from and recorded in *known (a tt_entry's pairing bits). */
static bool pairing_cached(const ttt_solver *s, int side, uint8_t *known)
{
    const int shift = 2 * side;
    if (!(*known & (PAIRING_KNOWN << shift)))
        *known |= (uint8_t)((PAIRING_KNOWN | (pairing_holds(s, side, NULL) ? PAIRING_HOLDS : 0)) << shift);
    return (*known & (PAIRING_HOLDS << shift)) != 0;
}

/* Misère: pairing_avoid for `side` at this node, answered from and recorded in *known (as pairing_cached). */
static bool avoid_pairing_cached(const ttt_solver *s, int side, uint8_t *known)
{
    const int shift = 2 * side;
    if (!(*known & (PAIRING_KNOWN << shift))) {
        const ttt_lines *lines = s->g.lines;
        const int empties = lines->cells - s->pos.ply;
        const int left = side == (s->pos.ply & 1) ? (empties + 1) / 2 : empties / 2;
        const uint64_t empty = lines->all.w[0] & ~s->pos.occ.w[0];
        bool holds = pairing_avoid(lines, empty, 0, 0, s->pos.count[side], s->pos.count[side ^ 1], left,
                                   side == (s->pos.ply & 1), AVOID_PAIRING_BUDGET, NULL);
        *known |= (uint8_t)((PAIRING_KNOWN | (holds ? PAIRING_HOLDS : 0)) << shift);
    }
    return (*known & (PAIRING_HOLDS << shift)) != 0;
}

/* --- Move ordering -------------------------------------------------------------------------------------- */

static int order_score(const ttt_solver *s, int cell, int mover)
{
    const geometry *g = &s->g;
    const ttt_lines *lines = g->lines;
    const int16_t *wins = &lines->cell_win[cell * lines->cell_win_max];
    /* Under misère, building a line is no merit and blocking one no help: the cells in the fewest windows
     * come first, where a player is least likely to be forced into a line, and the history orders only
     * the cells of one weight (ORDER_MISERE_FEWER). */
    int score = g->line_sign > 0 ? lines->cell_nwin[cell]
                                 : (lines->cell_win_max - lines->cell_nwin[cell]) * ORDER_MISERE_FEWER;
    for (int i = 0; g->line_sign > 0 && i < lines->cell_nwin[cell]; i++) {
        int own = s->pos.count[mover][wins[i]], their = s->pos.count[mover ^ 1][wins[i]];
        if (their == 0)
            score += own * own * ORDER_OWN_STONE;
        if (own == 0)
            score += their * their * ORDER_THEIR_STONE;
    }
    if (s->mode.every && g->line_sign > 0)
        score *= ORDER_STATIC_EVERY;
    return score + (int)(s->table.history[mover][cell] >> 4);
}

/* Writes the moves of `set` into out, best first. Returns how many. */
static int order_moves(const ttt_solver *s, const ttt_bits *set, int hash_move, int *out)
{
    int keys[TTT_MAX_CELLS];
    int n = 0, mover = s->pos.ply & 1;
    for (int i = 0; i < s->g.lines->words; i++)
        for (uint64_t w = set->w[i]; w; w &= w - 1) {
            int cell = i * 64 + __builtin_ctzll(w);
            int key = cell == hash_move ? ORDER_HASH_MOVE : order_score(s, cell, mover);
            int j = n++;
            while (j > 0 && keys[j - 1] < key) { /* insertion sort: lists are short */
                keys[j] = keys[j - 1];
                out[j] = out[j - 1];
                j--;
            }
            keys[j] = key;
            out[j] = cell;
        }
    return n;
}

/* The cells worth trying: all empty ones, or on a big board in a depth-limited search, those near stones. */
static ttt_bits candidates(ttt_solver *s, const ttt_bits *empty)
{
    if (s->mode.exact || s->g.lines->cells <= NEIGHBOURHOOD_MIN_CELLS || s->pos.ply == 0)
        return *empty;
    ttt_bits near;
    memset(&near, 0, sizeof near);
    for (int i = 0; i < s->g.lines->words; i++)
        for (uint64_t w = s->pos.occ.w[i]; w; w &= w - 1) {
            const ttt_bits *n = &s->g.near[i * 64 + __builtin_ctzll(w)];
            for (int j = 0; j < s->g.lines->words; j++)
                near.w[j] |= n->w[j];
        }
    bool pruned = false;
    for (int j = 0; j < s->g.lines->words; j++) {
        pruned |= (empty->w[j] & ~near.w[j]) != 0;
        near.w[j] &= empty->w[j];
    }
    if (pruned)
        s->budget.inexact++;
    return near;
}

/* --- The search ----------------------------------------------------------------------------------------- */

/* What a node returns when the bounds it has proven, narrowing the window (alpha_in, beta_in) it was asked
 * about to (alpha, beta), leave nothing to search (alpha >= beta): the proven bound, as tight as it is
 * (fail-soft), and not the window's edge. exact_score() reads these to stop asking a side's questions once
 * that side cannot win at all. A raised alpha is a proven lower bound and a lowered beta a proven upper one;
 * when neither alone decides, both were moved and met: the value is exact. */
static int cut_bound(int alpha, int beta, int alpha_in, int beta_in)
{
    if (alpha >= beta_in)
        return alpha; /* fails high */
    if (beta <= alpha_in)
        return beta; /* fails low */
    return alpha;
}

static int search(ttt_solver *s, int depth, int alpha, int beta)
{
    const geometry *g = &s->g;
    const ttt_lines *lines = g->lines;
    const int ply = s->pos.ply, mover = ply & 1, opp = mover ^ 1;
    const int empties = lines->cells - ply;

    /* Step 1. Count the node; look at the clock now and then. */
    s->budget.nodes++;
    if ((s->budget.nodes & (CLOCK_CHECK_NODES - 1)) == 0 && budget_spent(s))
        s->budget.stop = true;
    if (s->budget.stop)
        return 0;
    if (empties == 0)
        return 0; /* a full board without a line */

    /* Step 2. Read the lines (the table's bucket on its way meanwhile). */
    int frame;
    const uint64_t key = canonical_key(s, &frame); /* nothing below plays a move before the probe */
    tt_prefetch(s, key);
    scan_info si;
    scan(s, g->line_sign > 0, &si);
    ttt_bits empty = {{0}};
    for (int i = 0; i < lines->words; i++)
        empty.w[i] = lines->all.w[i] & ~s->pos.occ.w[i];

    /* Step 3. Moves that end the game at once: a line now wins (normal) or loses (misère). */
    ttt_bits allowed = empty;
    if (g->line_sign > 0) {
        if (si.nthreat[mover])
            return TTT_SCORE_WIN - (ply + 1);
    } else {
        for (int i = 0; i < lines->words; i++)
            allowed.w[i] &= ~si.threat[mover].w[i];
        if (!bits_any(&allowed))
            return -(TTT_SCORE_WIN - (ply + 1));
    }

    /* Step 4. Forced replies (normal rules): two threats against us lose; one must be blocked; a fork wins.
     */
    bool forced = false;
    if (g->line_sign > 0) {
        if (si.nthreat[opp] >= 2)
            return -(TTT_SCORE_WIN - (ply + 2));
        if (si.nthreat[opp] == 1) {
            allowed = si.threat[opp];
            forced = true;
        } else if (si.fork >= 0) {
            return TTT_SCORE_WIN - (ply + 3);
        }
    }

    /* Step 5. Bounds: a side that can no longer complete a line can neither win (normal) nor lose (misère);
     * and no result comes sooner than the next move. A cutoff returns the bound that made it (see cut_bound).
     */
    const int alpha_in = alpha, beta_in = beta;
    bool mover_can = si.can[mover], opp_can = si.can[opp];
    if (!mover_can && !opp_can)
        return 0;
    if (!mover_can) {
        if (g->line_sign > 0)
            beta = beta < 0 ? beta : 0;
        else
            alpha = alpha > 0 ? alpha : 0;
    }
    if (!opp_can) {
        if (g->line_sign > 0)
            alpha = alpha > 0 ? alpha : 0;
        else
            beta = beta < 0 ? beta : 0;
    }
    if (g->line_sign < 0 && g->nmirror && beta > 0 && mirror_holds(s))
        beta = 0;
    /* Step 5b. Misère: the counting bounds of search/avoid.h; a cutoff returns the bound itself. lo and hi
     * are kept: a search that fails on the side of a proven bound has found the exact score. */
    int lo = -SCORE_INF, hi = SCORE_INF;
    if (g->line_sign < 0) {
        avoid_view view = {.empty = empty, .mover = mover, .cells = lines->cells};
        memcpy(view.useful, si.useful, sizeof view.useful);
        memcpy(view.threat, si.threat, sizeof view.threat);
        view.can[0] = si.can[0];
        view.can[1] = si.can[1];
        avoid_bounds(&view, &lo, &hi);
        if (lo >= beta)
            return lo;
        if (hi <= alpha)
            return hi;
        alpha = lo > alpha ? lo : alpha;
        beta = hi < beta ? hi : beta;
    }
    if (beta > TTT_SCORE_WIN - (ply + 1))
        beta = TTT_SCORE_WIN - (ply + 1);
    if (alpha < -(TTT_SCORE_WIN - (ply + 1)))
        alpha = -(TTT_SCORE_WIN - (ply + 1));
    if (alpha >= beta)
        return cut_bound(alpha, beta, alpha_in, beta_in);

    /* Step 6. The horizon of a depth-limited search. */
    if (depth <= 0) {
        s->budget.inexact++;
        return evaluate(s);
    }

    /* Step 7. The transposition table, and pairing strategies: a side whose windows can all be paired off
     * cannot win (normal rules; see pairing_holds). The matching's outcome for each side is kept in the
     * position's entry, so a position in the table is matched at most once per side. */
    int hash_move = -1;
    tt_entry *e = tt_probe(s, key);
    if (g->line_sign > 0 && empties >= PAIRING_MIN_EMPTIES) {
        uint8_t known = e ? e->pairing : 0;
        int upper = SCORE_INF, lower = -SCORE_INF;
        if (mover_can && beta > 0 && pairing_cached(s, mover, &known))
            upper = 0;
        if (opp_can && alpha < 0 && pairing_cached(s, opp, &known))
            lower = 0;
        if (e)
            e->pairing = known;
        if (upper < beta)
            beta = upper;
        if (lower > alpha)
            alpha = lower;
        if (alpha >= beta)
            return cut_bound(alpha, beta, alpha_in, beta_in);
    }
    if (e) {
        if (e->move >= 0)
            hash_move = lines->inv[frame][e->move];
        /* A full-depth question of the exact search takes exact entries only: an inexact entry as deep
         * comes from a search restricted to the stones' neighbourhood, and would keep it from a proof. */
        if (e->depth == TT_DEPTH_EXACT || (e->depth >= depth && !(s->mode.exact && depth >= empties))) {
            int sc = e->score;
            if (e->bound == BOUND_EXACT || (e->bound == BOUND_LOWER && sc >= beta) ||
                (e->bound == BOUND_UPPER && sc <= alpha)) {
                if (e->depth != TT_DEPTH_EXACT)
                    s->budget.inexact++;
                return sc;
            }
        }
    }

    if (g->line_sign < 0 && lines->words == 1 && empties >= PAIRING_MIN_EMPTIES) {
        /* Misère: a side that avoids by pairs (search/avoid.h) cannot lose. A cutoff is stored: the setting
         * measured on the whole board (see AVOID_PAIRING_BUDGET; not storing: 4x5k4 misère 2.82M nodes
         * against 3.16M, not measured on the whole board). */
        uint8_t known = e ? e->pairing : 0;
        if (mover_can && lo < 0 && beta <= 0 && avoid_pairing_cached(s, mover, &known))
            lo = 0;
        if (opp_can && hi > 0 && alpha >= 0 && avoid_pairing_cached(s, opp, &known))
            hi = 0;
        if (e)
            e->pairing = known;
        alpha = lo > alpha ? lo : alpha;
        beta = hi < beta ? hi : beta;
        if (alpha >= beta) {
            int r = cut_bound(alpha, beta, alpha_in, beta_in);
            tt_store(s, key, r,
                     r >= beta_in    ? BOUND_LOWER
                     : r <= alpha_in ? BOUND_UPPER
                                     : BOUND_EXACT,
                     TT_DEPTH_EXACT, e ? e->move : -1, 1, known);
            return r;
        }
    }
    /* Step 8. The moves, best first. Dead cells are all alike: filling one is filling any, so only the first
     * is tried. */
    ttt_bits set = forced ? allowed : candidates(s, &allowed);
    if (!forced) {
        ttt_bits dead = {{0}};
        for (int i = 0; i < lines->words; i++)
            dead.w[i] = set.w[i] & ~si.live.w[i];
        int first = bits_first(&dead);
        if (first >= 0) {
            for (int i = 0; i < lines->words; i++)
                set.w[i] &= si.live.w[i];
            ttt_bits_set(&set, first);
        }
    }
    int moves[TTT_MAX_CELLS];
    int n = order_moves(s, &set, hash_move, moves);

    /* Step 8b. Enhanced transposition cutoff: a move whose position the table already knows to be bad
     * enough for the other side cuts off without a search. */
    if (s->mode.etc && empties >= ETC_MIN_EMPTIES) {
        uint64_t child_key[TTT_MAX_CELLS]; /* all the buckets asked for first, then read */
        for (int i = 0; i < n; i++) {
            uint64_t child = UINT64_MAX;
            for (int sy = 0; sy < lines->nsym; sy++) {
                uint64_t h = s->pos.hash[sy] ^ g->zob[sy][mover][moves[i]];
                if (h < child)
                    child = h;
            }
            child_key[i] = child;
            tt_prefetch(s, child);
        }
        for (int i = 0; i < n; i++) {
            tt_entry *c = tt_probe(s, child_key[i]);
            if (c && c->depth == TT_DEPTH_EXACT && (c->bound == BOUND_EXACT || c->bound == BOUND_UPPER) &&
                -c->score >= beta)
                return -c->score;
        }
    }

    /* Step 9. Search them. */
    const int alpha0 = alpha;
    const uint64_t inexact0 = s->budget.inexact, nodes0 = s->budget.nodes;
    int best = -SCORE_INF, best_move = moves[0];
    for (int i = 0; i < n; i++) {
        play(s, moves[i]);
        int sc = -search(s, depth - 1, -beta, -alpha);
        undo(s, moves[i]);
        if (s->budget.stop)
            return 0;
        if (sc > best) {
            best = sc;
            best_move = moves[i];
            if (sc > alpha) {
                alpha = sc;
                if (alpha >= beta) {
                    uint32_t *h = &s->table.history[mover][moves[i]];
                    *h = *h + (uint32_t)(depth * depth) < HISTORY_MAX ? *h + (uint32_t)(depth * depth)
                                                                      : HISTORY_MAX;
                    break;
                }
            }
        }
    }

    /* Step 10. Remember the result. */
    int bound = best <= alpha0 ? BOUND_UPPER : best >= beta ? BOUND_LOWER : BOUND_EXACT;
    if (s->budget.inexact == inexact0 &&
        ((bound == BOUND_UPPER && best <= lo) || (bound == BOUND_LOWER && best >= hi)))
        bound = BOUND_EXACT; /* lo <= score <= best <= lo, or the same above */
    int stored_depth = s->budget.inexact == inexact0 ? TT_DEPTH_EXACT
                                                     : (depth < TT_DEPTH_EXACT ? depth : TT_DEPTH_EXACT - 1);
    tt_entry *now = tt_probe(s, key);
    tt_store(s, key, best, bound, stored_depth, lines->sym[frame][best_move], s->budget.nodes - nodes0,
             now ? now->pairing : 0);
    return best;
}

/* --- Exact values by distance (normal rules) ------------------------------------------------------------ */

/* The questions of exact_score() from n on, until one is answered yes (true: *score is the value), none is
 * left, or the search stops (s->budget.stop; the turn's limit or the caller's budget). */
static bool distance_questions(ttt_solver *s, int depth, int *n, bool *can_win, bool *can_lose, int *score)
{
    bool found = false;
    for (; *n <= depth && (*can_win || *can_lose) && !found; (*n)++) {
        int t = TTT_SCORE_WIN - (s->pos.ply + *n);
        if (*n & 1 && *can_win) {
            int r = search(s, depth, t - 1, t);
            if (s->budget.stop)
                break;
            found = r >= t;
            *can_win = r > 0;
        } else if (!(*n & 1) && *can_lose) {
            int r = search(s, depth, -t, -t + 1);
            if (s->budget.stop)
                break;
            found = r <= -t;
            *can_lose = r < 0;
        }
        if (found)
            *score = *n & 1 ? t : -t;
    }
    return found;
}

/* The exact score of the position (normal rules, full depth), found by asking for n = 1, 2, ... "does the
 * game end within n plies, the side to move winning (n odd) or losing (n even)?": one null-window search
 * each, kept as shallow as n by the distance bounds of step 5. The first yes is the value and its distance at
 * once, the question for n - 2 having been no. A short win is found fast this way (the empty 6x5k4, a win in
 * 11: 180K nodes, against 6.1M to tell win from draw with the window (-1, 1) and 1.5M more for the distance).
 * A draw needs every n, less when a search's bound (fail-soft) shows that a side cannot win at all: its
 * questions are not asked again. Some draws cost far more this way than by value (6x6k5 after c3: 31M nodes
 * against 176K), so after EXACT_DISTANCE_NODES the value is searched first. (alpha, beta) is the range the
 * value is known to lie in: (-1, 1) when nothing is known, beta 0 when the side to move cannot win, alpha 0
 * when it cannot lose (search/prove.h); a side that cannot win is never asked. False when the budget ran out.
 */
static bool exact_score(ttt_solver *s, int depth, int alpha, int beta, int *score)
{
    bool can_win = beta > 0, can_lose = alpha < 0;
    int n = 1;
    *score = 0;
    s->budget.turn_limit = s->budget.nodes + EXACT_DISTANCE_NODES;
    for (;;) {
        distance_questions(s, depth, &n, &can_win, &can_lose, score);
        if (!s->budget.stop || !turn_ended(s))
            break;
        /* Too long by distance: the value first, on a cleared table (what the distance left there costs the
         * value search more than it saves: 6x6k5 after c3, a draw, 176K nodes from scratch, 8.0M after 1M by
         * distance), then the distance of a win or a loss. */
        s->budget.stop = false;
        s->budget.turn_limit = 0;
        ttt_solver_clear(s);
        int value = search(s, depth, alpha, beta);
        if (s->budget.stop)
            break;
        can_win = value >= 1;
        can_lose = value <= -1;
        if (!can_win && !can_lose)
            break; /* a draw */
    }
    s->budget.turn_limit = 0;
    return !s->budget.stop;
}

/* The exact score of a root move's position when every move is valued (normal rules, full depth): by
 * distance for ROOT_DISTANCE_NODES, which finds a short win at once (6x5k4 after c3: 0.19M nodes against 5.7M
 * with a full window); then the value with the window (-1, 1), narrowed by the sides the distance questions
 * showed cannot win, and only for a win or a loss its distance, with a window above (below) the value's
 * bound. A draw's distance is the board's end: no question about it is asked (the full window cost 6x5k4's
 * four drawn first moves 47.4M nodes, the value alone 25.0M). The table is kept across root moves. The value
 * is meaningless when the search stopped (s->budget.stop). */
static int root_move_score(ttt_solver *s, int depth)
{
    bool can_win = true, can_lose = true;
    int n = 1, score = 0;
    s->budget.turn_limit = s->budget.nodes + s->cfg.root_distance_nodes;
    if (s->budget.turn_limit == 0)
        s->budget.turn_limit = 1; /* 0 means no limit */
    bool found = distance_questions(s, depth, &n, &can_win, &can_lose, &score);
    bool turn_over = s->budget.stop && turn_ended(s);
    s->budget.turn_limit = 0;
    if (found || (s->budget.stop && !turn_over) || !(can_win || can_lose) || n > depth)
        return score; /* 0 when every question was answered no: a draw */
    s->budget.stop = false;
    int value = search(s, depth, can_lose ? -1 : 0, can_win ? 1 : 0);
    if (s->budget.stop || (value < 1 && value > -1) || (!can_win && value >= 0) || (!can_lose && value <= 0))
        return 0;
    return value >= 1 ? search(s, depth, value - 1, SCORE_INF) : search(s, depth, -SCORE_INF, value + 1);
}

/* --- The root ------------------------------------------------------------------------------------------- */

/* Scores of playing `cell` at the root when that move ends the game; false when it does not. */
static bool root_move_ends(const ttt_solver *s, const scan_info *si, int cell, int *score)
{
    int mover = s->pos.ply & 1;
    if (ttt_bits_test(&si->threat[mover], cell)) {
        *score = s->g.line_sign * (TTT_SCORE_WIN - (s->pos.ply + 1));
        return true;
    }
    if (s->pos.ply + 1 == s->g.lines->cells || (cell < 64 && (s->mode.root_draw >> cell & 1))) {
        *score = 0;
        return true;
    }
    return false;
}

/* The best line so far for progress reports: `cell` (a root move), then the moves the table holds for the
 * positions that follow, as far as it knows them; in the caller's cells. Leaves the position as it was. */
static void root_line(ttt_solver *s, int cell)
{
    int played[TTT_MAX_CELLS], n = 0;
    s->progress.root.line_length = 0;
    for (int next = cell; next >= 0 && s->pos.ply < s->g.lines->cells && !ttt_bits_test(&s->pos.occ, next);) {
        s->progress.root.line[s->progress.root.line_length++] = to_user(s, next);
        play(s, next);
        played[n++] = next;
        int frame;
        const tt_entry *e = tt_probe(s, canonical_key(s, &frame));
        next = e && e->move >= 0 ? s->g.lines->inv[frame][e->move] : -1;
    }
    while (n > 0)
        undo(s, played[--n]);
}

/* --- Both cores: root moves valued at once -------------------------------------------------------------- */

/* What the threads of a parallel root share. Each thread takes the next root move not yet taken and values it
 * with root_move_score() on its own solver (its own table: a shared one would make the node counts depend on
 * the timing even more); the values are the same whoever takes a move. */
typedef struct root_share {
    int depth, n;
    ttt_move_score *moves;
    const int *same; /* same[i]: an earlier root move reaching the same position (a symmetric one), or -1 */
    atomic_int next;
    atomic_bool halt;
} root_share;

typedef struct root_worker {
    ttt_solver *solver;
    root_share *share;
} root_worker;

static void *root_work(void *arg)
{
    root_worker *w = arg;
    ttt_solver *s = w->solver;
    root_share *sh = w->share;
    scan_info si;
    scan(s, false, &si);
    for (int i; !s->budget.stop && (i = atomic_fetch_add(&sh->next, 1)) < sh->n;) {
        int sc, cell = sh->moves[i].move;
        if (sh->same[i] >= 0)
            continue;
        if (!root_move_ends(s, &si, cell, &sc)) {
            play(s, cell);
            sc = -root_move_score(s, sh->depth - 1);
            undo(s, cell);
        }
        sh->moves[i].score = sc;
        sh->moves[i].exact = true;
    }
    if (s->budget.stop)
        atomic_store(&sh->halt, true);
    return NULL;
}

static ttt_status solver_make(const ttt_rules *rules, int tt_mib, const ttt_lines *lines, ttt_solver **out,
                              ttt_error *err);

/* A solver for another thread, at s's position, as s is set for this search. NULL when memory runs out. */
static ttt_solver *root_helper(const ttt_solver *s)
{
    ttt_solver *h;
    ttt_error err;
    if (solver_make(&s->cfg.rules, s->cfg.tt_mib, s->g.lines, &h, &err))
        return NULL;
    h->pos = s->pos;
    h->mode = s->mode;
    h->budget.start = s->budget.start;
    return h;
}

/* root_iteration() with every move valued exactly and no budget, on s->cfg.threads threads. The moves that reach
 * the same position as an earlier one take its value afterwards. Returns false when stopped (Ctrl-C through
 * s's progress: the other threads stop at their next budget check). */
static bool root_parallel(ttt_solver *s, int depth, ttt_move_score *moves, int n)
{
    int same[TTT_MAX_CELLS];
    uint64_t key[TTT_MAX_CELLS];
    for (int i = 0; i < n; i++) {
        int frame;
        play(s, moves[i].move);
        key[i] = canonical_key(s, &frame);
        undo(s, moves[i].move);
        same[i] = -1;
        for (int j = 0; j < i && same[i] < 0; j++)
            if (key[j] == key[i])
                same[i] = j;
    }
    root_share share = {.depth = depth, .n = n, .moves = moves, .same = same};
    atomic_init(&share.next, 0);
    atomic_init(&share.halt, false);
    root_worker workers[TTT_SOLVER_MAX_THREADS];
    pthread_t ids[TTT_SOLVER_MAX_THREADS];
    int started = 1;
    workers[0] = (root_worker){s, &share};
    s->budget.halt = &share.halt;
    for (int t = 1; t < s->cfg.threads; t++) {
        ttt_solver *h = root_helper(s);
        if (!h)
            break; /* fewer threads */
        h->budget.halt = &share.halt;
        workers[started] = (root_worker){h, &share};
        if (pthread_create(&ids[started], NULL, root_work, &workers[started])) {
            ttt_solver_free(h);
            break;
        }
        started++;
    }
    root_work(&workers[0]);
    for (int t = 1; t < started; t++) {
        pthread_join(ids[t], NULL);
        s->budget.nodes += workers[t].solver->budget.nodes;
        ttt_solver_free(workers[t].solver);
    }
    s->budget.halt = NULL;
    if (atomic_load(&share.halt)) {
        s->budget.stop = true;
        return false;
    }
    s->budget.stop = false;
    for (int i = 0; i < n; i++) {
        if (same[i] >= 0)
            moves[i] = (ttt_move_score){moves[i].move, moves[same[i]].score, true};
        if (s->progress.root.best_move == TTT_NO_MOVE || moves[i].score > s->progress.root.best_score) {
            s->progress.root.best_move = to_user(s, moves[i].move);
            s->progress.root.best_score = moves[i].score;
        }
    }
    s->progress.root.root_done = n;
    return true;
}

/* One iteration at the root to `depth`. With all, every move gets an exact score (full window); otherwise the
 * window (best - 1, +inf) tells each move's score exactly when it ties or beats the best so far. Returns
 * false when the budget ran out. */
static bool root_iteration(ttt_solver *s, int depth, bool all, ttt_move_score *moves, int n)
{
    scan_info si;
    scan(s, false, &si);
    int best = -SCORE_INF;
    s->progress.root = (ttt_search_progress){
        .depth = depth, .root_total = n, .best_move = TTT_NO_MOVE, .exact = s->mode.exact};
    if (all && s->mode.exact && s->g.line_sign > 0 && s->cfg.threads > 1 && !s->budget.node_limit &&
        s->budget.deadline <= 0)
        return root_parallel(s, depth, moves, n);
    for (int i = 0; i < n; i++) {
        int sc;
        bool exact = true;
        if (!root_move_ends(s, &si, moves[i].move, &sc)) {
            int alpha = all || best == -SCORE_INF ? -SCORE_INF : best - 1;
            play(s, moves[i].move);
            sc = all && s->mode.exact && s->g.line_sign > 0 ? -root_move_score(s, depth - 1)
                                                            : -search(s, depth - 1, -SCORE_INF, -alpha);
            undo(s, moves[i].move);
            if (s->budget.stop)
                return false;
            exact = sc > alpha;
        }
        moves[i].score = sc;
        moves[i].exact = exact;
        if (sc > best) {
            best = sc;
            s->progress.root.best_move = to_user(s, moves[i].move);
            s->progress.root.best_score = sc;
            if (s->progress.fn) /* only a listener needs the line */
                root_line(s, moves[i].move);
        }
        s->progress.root.root_done = i + 1;
    }
    return true;
}

/* --- Draw proofs (search/prove.h) ----------------------------------------------------------------------- */

/* The prover's stop callback: the search's budget and progress reports (as budget_spent), and the prover's
 * own share of the time. */
static bool prove_stop(void *user, uint64_t nodes)
{
    ttt_solver *s = user;
    uint64_t before = s->budget.nodes;
    s->budget.nodes = s->proof.nodes0 + nodes;
    if (s->progress.fn && before / TTT_SEARCH_PROGRESS_NODES != s->budget.nodes / TTT_SEARCH_PROGRESS_NODES) {
        s->progress.root.nodes = s->budget.nodes;
        s->progress.root.ms = ttt_clock_ms() - s->budget.start;
        if (s->progress.fn(&s->progress.root, s->progress.user))
            s->progress.interrupted = true;
    }
    double now = ttt_clock_ms();
    if (s->progress.interrupted || (s->budget.node_limit && s->budget.nodes >= s->budget.node_limit) ||
        (s->budget.deadline > 0 && now >= s->budget.deadline))
        s->budget.stop = true;
    return s->budget.stop || (s->proof.deadline > 0 && now >= s->proof.deadline);
}

/* Whether `attacker`'s side cannot complete a line before the other does, from inner stone sets. */
static bool prove_holds(ttt_solver *s, uint64_t attacker, uint64_t defender, bool attacker_to_move)
{
    if (s->budget.stop)
        return false;
    if (s->proof.limit == 0 || (s->proof.deadline > 0 && ttt_clock_ms() >= s->proof.deadline))
        return false;
    s->proof.nodes0 = s->budget.nodes;
    uint64_t used = 0;
    ttt_proof r = ttt_prover_run(s->proof.prover, attacker, defender, attacker_to_move, s->proof.limit,
                                 prove_stop, s, &used);
    s->budget.nodes = s->proof.nodes0 + used;
    s->proof.limit = s->proof.limit > used ? s->proof.limit - used : 0;
    return r == TTT_PROOF_HOLDS;
}

/* The stones of the side to move and of the other side (inner cells), and sets the prover's budget from
 * the search's. */
static void prove_begin(ttt_solver *s, const ttt_board *b, const ttt_limits *limits, uint64_t *mover,
                        uint64_t *other)
{
    int side = ttt_board_to_move(b);
    *mover = *other = 0;
    for (int cell = 0; cell < s->g.lines->cells; cell++) {
        if (ttt_bits_test(&b->stones[side], cell))
            *mover |= UINT64_C(1) << to_inner(s, cell);
        if (ttt_bits_test(&b->stones[side ^ 1], cell))
            *other |= UINT64_C(1) << to_inner(s, cell);
    }
    s->proof.limit = limits->nodes ? (uint64_t)((double)limits->nodes * PROVE_SHARE) : PROVE_MAX_NODES;
    s->proof.deadline = limits->ms > 0 ? s->budget.start + limits->ms * PROVE_SHARE : 0;
}

/* The root moves that draw: after each, neither side can complete a line first. The other side cannot do it
 * after any move if it cannot with the move now (one more stone of ours never helps it). */
static uint64_t prove_root_draws(ttt_solver *s, const ttt_board *b, const ttt_limits *limits)
{
    uint64_t mover, other, draws = 0;
    prove_begin(s, b, limits, &mover, &other);
    bool other_cannot = prove_holds(s, other, mover, true);
    scan_info si;
    scan(s, false, &si);
    for (int cell = 0; cell < s->g.lines->cells && !s->budget.stop; cell++) {
        int score;
        if (ttt_bits_test(&s->pos.occ, cell) || root_move_ends(s, &si, cell, &score))
            continue;
        uint64_t m = UINT64_C(1) << cell;
        if (prove_holds(s, mover | m, other, false) &&
            (other_cannot || prove_holds(s, other, mover | m, true)))
            draws |= m;
    }
    return draws;
}

static int compare_scores(const void *a, const void *b)
{
    const ttt_move_score *x = a, *y = b;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    return x->move - y->move;
}

/* A solver for valid rules over `lines`, the geometry of the board as searched (the rules turned sideways
 * when they have more rows than columns), of which it takes a reference. */
static ttt_status solver_make(const ttt_rules *rules, int tt_mib, const ttt_lines *lines, ttt_solver **out,
                              ttt_error *err)
{
    *out = NULL;
    ttt_solver *s = calloc(1, sizeof *s);
    if (!s)
        return ttt_fail(err, TTT_ENOMEM, "solver: out of memory");
    s->cfg.rules = *rules;
    s->cfg.root_distance_nodes = ROOT_DISTANCE_NODES;
    s->cfg.threads = 1;
    s->cfg.tt_mib = tt_mib < 1 ? 1 : tt_mib;
    s->cfg.transposed = rules->rows > rules->cols;
    const ttt_rules *inner = &lines->rules;
    size_t entries = 1;
    size_t want = (size_t)(tt_mib < 1 ? 1 : tt_mib) * MIB / sizeof(tt_entry);
    while (entries * 2 <= want)
        entries *= 2;
    s->table.max = entries;
    while (entries > TT_BUCKET && entries * sizeof(tt_entry) > TT_START_BYTES)
        entries /= 2;
    s->table.memory = calloc(entries * sizeof *s->table.tt + CACHE_LINE, 1);
    s->table.tt =
        s->table.memory
            ? (tt_entry *)(((uintptr_t)s->table.memory + CACHE_LINE - 1) & ~(uintptr_t)(CACHE_LINE - 1))
            : NULL;
    s->table.mask = entries - 1;
    ttt_error perr;
    if (geometry_init(&s->g, lines, rules->misere) || !s->table.tt ||
        (inner->k >= PROVE_MIN_K && lines->cells >= PROVE_MIN_CELLS && ttt_prover_supports(inner) &&
         ttt_prover_new_lines(lines, PROVE_TT_MIB, false, &s->proof.prover, &perr))) {
        ttt_solver_free(s);
        return ttt_fail(err, TTT_ENOMEM, "solver: out of memory for a %d MiB table", tt_mib);
    }
    *out = s;
    return TTT_OK;
}

ttt_status ttt_solver_new(const ttt_rules *rules, int tt_mib, ttt_solver **out, ttt_error *err)
{
    *out = NULL;
    ttt_error sub;
    if (ttt_rules_check(rules, &sub))
        return ttt_fail(err, TTT_EINVAL, "solver: %s", sub.msg);
    ttt_rules inner = *rules;
    if (rules->rows > rules->cols) {
        inner.rows = rules->cols;
        inner.cols = rules->rows;
    }
    const ttt_lines *lines;
    ttt_status st = ttt_lines_new(&inner, &lines, err);
    if (st)
        return st;
    st = solver_make(rules, tt_mib, lines, out, err);
    ttt_lines_unref(lines);
    return st;
}

void ttt_solver_free(ttt_solver *s)
{
    if (!s)
        return;
    geometry_free(&s->g);
    ttt_prover_free(s->proof.prover);
    free(s->table.memory);
    free(s);
}

void ttt_solver_clear(ttt_solver *s)
{
    memset(s->table.tt, 0, (s->table.mask + 1) * sizeof *s->table.tt);
    s->table.filled = 0;
    memset(s->table.history, 0, sizeof s->table.history);
    if (s->proof.prover)
        ttt_prover_clear(s->proof.prover);
}

uint64_t ttt_solver_nodes(const ttt_solver *s) { return s->budget.total_nodes; }

ttt_status ttt_solver_set_threads(ttt_solver *s, int threads, ttt_error *err)
{
    if (threads < 1 || threads > TTT_SOLVER_MAX_THREADS)
        return ttt_fail(err, TTT_EINVAL, "solver: %d threads: expected 1 to %d", threads,
                        TTT_SOLVER_MAX_THREADS);
    s->cfg.threads = threads;
    return TTT_OK;
}

void solver_set_root_distance(ttt_solver *s, uint64_t nodes) { s->cfg.root_distance_nodes = nodes; }

bool ttt_solver_pairing(ttt_solver *s, const ttt_board *b, ttt_player side, int *partner)
{
    assert(ttt_rules_equal(&s->cfg.rules, &b->rules));
    load(s, b);
    int inner[TTT_MAX_CELLS];
    if (!pairing_holds(s, (int)side, inner))
        return false;
    for (int cell = 0; cell < s->g.lines->cells; cell++)
        partner[to_user(s, cell)] = inner[cell] < 0 ? -1 : to_user(s, inner[cell]);
    return true;
}

ttt_result ttt_score_result(int score)
{
    return score > TTT_SCORE_PROVEN ? TTT_WIN : score < -TTT_SCORE_PROVEN ? TTT_LOSS : TTT_DRAW_VALUE;
}

const char *ttt_result_name(ttt_result r) { return r == TTT_WIN ? "win" : r == TTT_LOSS ? "loss" : "draw"; }

int ttt_score_plies(const ttt_board *b, int score)
{
    if (score > TTT_SCORE_PROVEN)
        return TTT_SCORE_WIN - score - b->ply;
    if (score < -TTT_SCORE_PROVEN)
        return TTT_SCORE_WIN + score - b->ply;
    return b->cells - b->ply; /* a draw is played out to the full board */
}

/* Runs iterations from depth `from` to `to` until proven or stopped; keeps the last complete iteration's
 * scores in moves. Returns the depth completed (0 if none). */
static int deepen(ttt_solver *s, int from, int to, bool all, ttt_move_score *moves, int n, bool *proven)
{
    ttt_move_score work[TTT_MAX_CELLS];
    int done = 0;
    *proven = false;
    for (int depth = from; depth <= to && !s->budget.stop; depth++) {
        memcpy(work, moves, sizeof *work * (size_t)n);
        uint64_t inexact0 = s->budget.inexact;
        if (!root_iteration(s, depth, all, work, n))
            break;
        qsort(work, (size_t)n, sizeof *work, compare_scores);
        memcpy(moves, work, sizeof *work * (size_t)n);
        done = depth;
        if (s->budget.inexact == inexact0) {
            *proven = true;
            break;
        }
    }
    return done;
}

ttt_status ttt_solver_search(ttt_solver *s, const ttt_board *b, const ttt_limits *limits, bool all,
                             ttt_search_result *out, ttt_error *err)
{
    char want[TTT_RULES_TEXT_SIZE], got[TTT_RULES_TEXT_SIZE];
    if (!ttt_rules_equal(&s->cfg.rules, &b->rules))
        return ttt_fail(err, TTT_ESTATE, "solver for %s asked about a %s position",
                        ttt_rules_format(&s->cfg.rules, want, sizeof want),
                        ttt_rules_format(&b->rules, got, sizeof got));
    if (ttt_board_terminal(b))
        return ttt_fail(err, TTT_ESTATE, "the game is over: nothing to search");
    ttt_limits none = {0};
    if (!limits)
        limits = &none;
    double start = ttt_clock_ms();
    load(s, b);
    s->budget.nodes = 0;
    s->budget.stop = false;
    s->budget.inexact = 0;
    s->progress.fn = limits->progress;
    s->progress.user = limits->user;
    s->progress.interrupted = false;
    s->budget.start = start;
    s->progress.root = (ttt_search_progress){.best_move = TTT_NO_MOVE};
    s->mode.etc = all || s->g.line_sign < 0;
    s->mode.every = all;
    const int empties = s->g.lines->cells - s->pos.ply;
    const bool unlimited = limits->nodes == 0 && limits->ms <= 0 && limits->depth <= 0;
    s->mode.root_draw = 0;
    if (s->proof.prover && all) { /* moves proven to draw end at once in root_iteration (root_move_ends) */
        s->budget.node_limit = limits->nodes;
        s->budget.deadline = limits->ms > 0 ? start + limits->ms : 0;
        s->mode.root_draw = prove_root_draws(s, b, limits);
    }

    memset(out, 0, sizeof *out);
    ttt_bits empty;
    for (int i = 0; i < TTT_WORDS; i++)
        empty.w[i] = s->g.lines->all.w[i] & ~s->pos.occ.w[i];
    int cells[TTT_MAX_CELLS];
    /* Root moves: all legal ones, ordered as inner nodes are ordered. */
    out->count = order_moves(s, &empty, -1, cells);
    for (int i = 0; i < out->count; i++)
        out->moves[i] = (ttt_move_score){.move = cells[i], .score = -SCORE_INF, .exact = false};

    bool proven = false;
    if (unlimited || (limits->depth <= 0 && empties <= EXACT_FIRST_EMPTIES)) {
        /* Full depth first: exact unless the budget runs out. */
        s->mode.exact = true;
        s->budget.node_limit =
            limits->nodes ? (uint64_t)((double)limits->nodes * (unlimited ? 1.0 : EXACT_FIRST_SHARE)) : 0;
        s->budget.deadline = limits->ms > 0 ? start + limits->ms * EXACT_FIRST_SHARE : 0;
        out->depth = deepen(s, empties, empties, all, out->moves, out->count, &proven);
        s->budget.stop = s->progress.interrupted;
    }
    if (!proven && !unlimited && !s->progress.interrupted) {
        s->mode.exact = false;
        s->budget.node_limit = limits->nodes;
        s->budget.deadline = limits->ms > 0 ? start + limits->ms : 0;
        int to = limits->depth > 0 && limits->depth < empties ? limits->depth : empties;
        int done = deepen(s, 1, to, all, out->moves, out->count, &proven);
        if (done)
            out->depth = done;
        if (!proven && done == empties && !s->budget.stop) {
            /* Every depth searched and the budget not spent, yet not proven: the neighbourhood restriction
             * (moves near the stones only) keeps the depth-limited search inexact at any depth. The rest of
             * the budget goes to the exact search, whose proof can take a few hundred nodes. */
            s->mode.exact = true;
            deepen(s, empties, empties, all, out->moves, out->count, &proven);
        }
    }
    out->proven = proven;
    out->stopped = s->budget.stop || (!proven && out->depth < empties && limits->depth <= 0);
    if (s->cfg.transposed) { /* the caller's cells, in the caller's order among equal scores */
        for (int i = 0; i < out->count; i++)
            out->moves[i].move = to_user(s, out->moves[i].move);
        qsort(out->moves, (size_t)out->count, sizeof *out->moves, compare_scores);
    }
    out->score = out->moves[0].score;
    out->best_count = 1;
    while (out->best_count < out->count && out->moves[out->best_count].score == out->score &&
           out->moves[out->best_count].exact)
        out->best_count++;
    out->nodes = s->budget.nodes;
    s->budget.total_nodes += s->budget.nodes;
    out->ms = ttt_clock_ms() - start;
    s->progress.fn = NULL;
    return TTT_OK;
}

ttt_status ttt_solver_value(ttt_solver *s, const ttt_board *b, ttt_result *value, int *plies, uint64_t *nodes,
                            ttt_error *err)
{
    ttt_value_result r;
    ttt_status st = ttt_solver_value_within(s, b, NULL, &r, err);
    if (st)
        return st;
    *value = r.value;
    if (plies)
        *plies = r.plies;
    if (nodes)
        *nodes = r.nodes;
    return TTT_OK;
}

/* After a value search stopped before the value was known: the best lower bound the table proves, from the
 * root's children (an exact score or an upper bound of a child is a lower bound of its move). */
static ttt_result value_known(ttt_solver *s)
{
    int best = -SCORE_INF;
    for (int cell = 0; cell < s->g.lines->cells; cell++) {
        if (ttt_bits_test(&s->pos.occ, cell))
            continue;
        play(s, cell);
        int frame;
        const tt_entry *e = tt_probe(s, canonical_key(s, &frame));
        if (e && e->depth == TT_DEPTH_EXACT && e->bound != BOUND_LOWER && -e->score > best)
            best = -e->score;
        undo(s, cell);
    }
    return best == -SCORE_INF ? TTT_LOSS : ttt_score_result(best);
}

ttt_status ttt_solver_value_within(ttt_solver *s, const ttt_board *b, const ttt_limits *limits,
                                   ttt_value_result *out, ttt_error *err)
{
    *out = (ttt_value_result){.plies = -1};
    if (!ttt_rules_equal(&s->cfg.rules, &b->rules))
        return ttt_fail(err, TTT_ESTATE, "solver asked about a position of other rules");
    if (ttt_board_terminal(b)) {
        ttt_player w = ttt_board_winner(b);
        out->value = w == TTT_NOBODY ? TTT_DRAW_VALUE : w == ttt_board_to_move(b) ? TTT_WIN : TTT_LOSS;
        out->proven = true;
        out->plies = 0;
        return TTT_OK;
    }
    ttt_limits none = {0};
    if (!limits)
        limits = &none;
    load(s, b);
    s->budget.nodes = 0;
    s->budget.stop = false;
    s->budget.inexact = 0;
    s->mode.exact = true;
    s->mode.etc = s->g.line_sign < 0;
    s->mode.every = false;
    s->budget.start = ttt_clock_ms();
    s->budget.node_limit = limits->nodes;
    s->budget.deadline = limits->ms > 0 ? s->budget.start + limits->ms : 0;
    s->progress.fn = limits->progress;
    s->progress.user = limits->user;
    s->progress.interrupted = false;
    int depth = s->g.lines->cells - s->pos.ply;
    s->progress.root = (ttt_search_progress){.depth = depth, .best_move = TTT_NO_MOVE, .exact = true};
    /* A side shown unable to complete a line first (search/prove.h) cannot win: the window narrows, and when
     * neither side can win the draw is proven at once. Normal rules: exact_score() within that window.
     * Misère: win, draw or loss first, with the narrowest window that tells them apart; then, for a win or a
     * loss, its distance within the proven range. The root may end at once: search() sees threats before
     * moving. */
    int alpha = -1, beta = 1;
    if (s->proof.prover) {
        uint64_t mover, other;
        prove_begin(s, b, limits, &mover, &other);
        if (prove_holds(s, mover, other, true))
            beta = 0;
        if (prove_holds(s, other, mover, false))
            alpha = 0;
    }
    const bool by_distance = s->g.line_sign > 0 && alpha < beta;
    int score = by_distance || alpha >= beta ? 0 : search(s, depth, alpha, beta);
    if (by_distance && exact_score(s, depth, alpha, beta, &score)) {
        out->proven = true;
        out->value = ttt_score_result(score);
        out->plies = ttt_score_plies(b, score);
    } else if (!by_distance && !s->budget.stop) {
        out->proven = true;
        out->value = ttt_score_result(score);
        if (score >= 1)
            score = search(s, depth, TTT_SCORE_PROVEN, SCORE_INF);
        else if (score <= -1)
            score = search(s, depth, -SCORE_INF, -TTT_SCORE_PROVEN);
        if (!s->budget.stop)
            out->plies = ttt_score_plies(b, score);
    } else {
        out->value = value_known(s);
    }
    out->stopped = s->budget.stop;
    out->nodes = s->budget.nodes;
    s->budget.total_nodes += s->budget.nodes;
    s->progress.fn = NULL;
    return TTT_OK;
}
