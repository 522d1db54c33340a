/*
 * search/solve_search.c - the solver's node search (see solve_impl.h; the interface and the root: solve.c).
 *
 * The board is seen through its windows: every run of k cells in a row, column or diagonal. For each window
 * the searcher keeps how many stones each side has in it, updated by play and undo, so that at every node one
 * pass over the windows tells:
 *
 *     threat[side]  the empty cells where `side` would complete a line now
 *     live cells    the empty cells of the windows a side can still fill; the others are dead
 *     a fork        a cell where the side to move would make two threats at once (normal rules)
 *
 * and the search is the numbered steps of search_node() below. Positions are stored in the transposition
 * table under the smallest of the hashes of their symmetric images, which the searcher keeps for all images
 * at once.
 */
#include <stdlib.h>
#include <string.h>

#include "search/avoid.h"
#include "search/pairing.h"
#include "search/solve_impl.h"
#include "util/memory.h"
#include "util/trace.h"

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
/* When every move is valued (normal rules), the lines through a cell weigh this many times against the
 * history (6x5k4, every move: 3,570,696 nodes against 30,955,597 at x1). */
#define ORDER_STATIC_EVERY 300
/* Under misère, each window fewer through a cell outweighs any history (4x5k4 misère: 147,608 nodes against
 * 3,155,268 with the most windows first). */
#define ORDER_MISERE_FEWER ((int)(HISTORY_MAX >> 4) + 1)
/* Pairing strategies are looked for only with at least this many empty cells: nearer the end the search is
 * cheaper than the matching. */
#define PAIRING_MIN_EMPTIES 8
/* Enhanced transposition cutoffs with at least this many empty cells, under misère and when every move is
 * valued (6x5k4, every move: 93.6M nodes against 173.4M without; but its value: 9.57M against 7.66M). */
#define ETC_MIN_EMPTIES 12
/* Steps of pairing_avoid's search per side and node, no cell forbidden (misère; 5x5k4 misère's second root
 * move: 9.5M nodes against 84.2M with 256 steps and the poison cells forbidden). */
#define AVOID_PAIRING_BUDGET 64
#define PAIRING_KNOWN        1u
#define PAIRING_HOLDS        2u
/* The budget is checked every this many nodes (a power of two). */
#define CLOCK_CHECK_NODES 64
/* Boards with more cells than this search only cells near stones when the search is depth-limited. */
#define NEIGHBOURHOOD_MIN_CELLS 36
/* Boards of up to this many words (256 cells) gather their live cells in a loop of this fixed length,
 * unrolled (15x15k5, 100k nodes: 4.42G instructions against 5.40G over the board's own words). */
#define LIVE_FAST_WORDS 4
/* The most (cell, partner) pairs fork detection looks at; past it the detection is skipped. */
#define FORK_MAX_PAIRS 64
/* The table doubles, up to the size asked for, whenever more than TT_GROW_NUM / TT_GROW_DEN of its slots
 * are filled (it starts at TT_START_BYTES: solve.c). */
#define TT_GROW_NUM 1
#define TT_GROW_DEN 4
/* solve_exact_score() asks by distance for at most this many nodes, then by value (the empty 6x5k4 by
 * distance alone: 180,075 nodes). */
#define EXACT_DISTANCE_NODES (UINT64_C(1) << 20)

/* --- Reading the lines ---------------------------------------------------------------------------------- */

static int window_empty_cell(const ttt_solver *s, int w)
{
    const int16_t *cells = &s->g.lines->win_cell[w * s->g.lines->k];
    for (int i = 0; i < s->g.lines->k; i++)
        if (!ttt_bits_test(&s->pos.occ, cells[i]))
            return cells[i];
    return -1;
}

/* One pass over the windows. Fork detection (for the side to move) runs only when asked. */
void solve_scan(const ttt_solver *s, bool want_fork, scan_info *si)
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
    ttt_memory_huge(memory, entries * sizeof(tt_entry));
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

void solve_tt_put(ttt_solver *s, const tt_entry *e)
{
    tt_store(s, e->key, e->score, e->bound, e->depth, e->move, e->work ? UINT64_C(1) << (e->work - 1) : 0,
             e->pairing);
}

/* --- Budget --------------------------------------------------------------------------------------------- */

void solve_report(ttt_solver *s)
{
    ttt_search_progress *p = &s->progress.root;
    p->nodes = s->budget.nodes;
    p->ms = ttt_clock_ms() - s->budget.start;
    if (p->phase == TTT_PHASE_PROVE) {
        solve_prove_report(s, p);
    } else {
        const int root = s->progress.root_ply, length = s->pos.ply - root;
        const solver_step *t = &s->pos.trail[root];
        p->current_length = length > 0 ? length : 0;
        for (int i = 0; i < length; i++) {
            p->current[i] = to_user(s, t[i].cell);
            p->current_index[i] = t[i].index + 1;
            p->current_count[i] = t[i].count;
        }
    }
    if (s->progress.fn(p, s->progress.user))
        s->progress.interrupted = true;
}

static bool budget_spent(ttt_solver *s)
{
    if (s->progress.fn && (s->budget.nodes & (TTT_SEARCH_PROGRESS_NODES - 1)) == 0)
        solve_report(s);
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
bool solve_pairing_holds(const ttt_solver *s, int side, int *partner)
{
    const ttt_lines *lines = s->g.lines;
    if (lines->words == 1)
        return pairing_find64(&s->g.pairs, s->pos.stones[side].w[0], s->pos.stones[side ^ 1].w[0], NULL,
                              partner);
    return pairing_find(lines, &s->pos.occ, s->pos.count[side], s->pos.count[side ^ 1], partner);
}

/* solve_pairing_holds(s, side, NULL), answered from and recorded in *known (a tt_entry's pairing bits). */
static bool pairing_cached(const ttt_solver *s, int side, uint8_t *known)
{
    const int shift = 2 * side;
    if (!(*known & (PAIRING_KNOWN << shift)))
        *known |=
            (uint8_t)((PAIRING_KNOWN | (solve_pairing_holds(s, side, NULL) ? PAIRING_HOLDS : 0)) << shift);
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
int solve_order_moves(const ttt_solver *s, const ttt_bits *set, int hash_move, int *out)
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
 * (fail-soft), and not the window's edge. solve_exact_score() reads these to stop asking a side's questions
 * once that side cannot win at all. A raised alpha is a proven lower bound and a lowered beta a proven upper
 * one; when neither alone decides, both were moved and met: the value is exact. */
static int cut_bound(int alpha, int beta, int alpha_in, int beta_in)
{
    if (alpha >= beta_in)
        return alpha; /* fails high */
    if (beta <= alpha_in)
        return beta; /* fails low */
    return alpha;
}

static int search_normal(ttt_solver *s, int depth, int alpha, int beta);
static int search_misere(ttt_solver *s, int depth, int alpha, int beta);

/* A node: the numbered steps. misere is a constant in each of the two wrappers below, so that each rule's
 * steps compile without the other's. */
static inline __attribute__((always_inline)) int search_node(ttt_solver *s, int depth, int alpha, int beta,
                                                             const bool misere)
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
    solve_scan(s, !misere, &si);
    ttt_bits empty = {{0}};
    for (int i = 0; i < lines->words; i++)
        empty.w[i] = lines->all.w[i] & ~s->pos.occ.w[i];

    /* Step 3. Moves that end the game at once: a line now wins (normal) or loses (misère). */
    ttt_bits allowed = empty;
    if (!misere) {
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
    if (!misere) {
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
        if (!misere)
            beta = beta < 0 ? beta : 0;
        else
            alpha = alpha > 0 ? alpha : 0;
    }
    if (!opp_can) {
        if (!misere)
            alpha = alpha > 0 ? alpha : 0;
        else
            beta = beta < 0 ? beta : 0;
    }
    if (misere && g->nmirror && beta > 0 && mirror_holds(s))
        beta = 0;
    /* Step 5b. Misère: the counting bounds of search/avoid.h; a cutoff returns the bound itself. lo and hi
     * are kept: a search that fails on the side of a proven bound has found the exact score. */
    int lo = -SCORE_INF, hi = SCORE_INF;
    if (misere) {
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
    if (!misere && empties >= PAIRING_MIN_EMPTIES) {
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

    if (misere && lines->words == 1 && empties >= PAIRING_MIN_EMPTIES) {
        /* Misère: a side that avoids by pairs (search/pairing.h) cannot lose. A cutoff is stored (4x5k4
         * misère: 2.82M nodes against 3.16M without). */
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
    int n = solve_order_moves(s, &set, hash_move, moves);

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
        s->pos.trail[s->pos.ply] = (solver_step){(int16_t)moves[i], (int16_t)i, (int16_t)n};
        play(s, moves[i]);
        int sc = misere ? -search_misere(s, depth - 1, -beta, -alpha)
                        : -search_normal(s, depth - 1, -beta, -alpha);
        undo(s, moves[i]);
        if (s->budget.stop)
            return 0;
        if (__builtin_expect(s->trace.to != NULL, 0) && ply == s->trace.reply_ply)
            solve_trace_reply(s, moves, n, i, sc, alpha, beta, sc > alpha && sc >= beta);
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

void solve_trace_reply(ttt_solver *s, const int *moves, int n, int i, int sc, int alpha, int beta, bool cut)
{
    ttt_trace *t = s->trace.to;
    ttt_trace_step *st = trace_begin(t, TTT_TRACE_REPLY);
    if (st) { /* the root's side moved into this node: its view is the other way round */
        st->path_length = 2;
        st->path[0] = s->trace.root_move;
        st->path[1] = to_user(s, moves[i]);
        st->score = -sc;
        st->alpha = -beta;
        st->beta = -alpha;
        st->exact = sc > alpha && sc < beta;
        trace_emit(t);
    }
    if (cut && i + 1 < n && (st = trace_begin(t, TTT_TRACE_PRUNED))) {
        st->path_length = 1;
        st->path[0] = s->trace.root_move;
        for (int j = i + 1; j < n; j++)
            st->moves[st->count++] = to_user(s, moves[j]);
        trace_emit(t);
    }
}

static int search_normal(ttt_solver *s, int depth, int alpha, int beta)
{
    return search_node(s, depth, alpha, beta, false);
}

static int search_misere(ttt_solver *s, int depth, int alpha, int beta)
{
    return search_node(s, depth, alpha, beta, true);
}

int solve_search(ttt_solver *s, int depth, int alpha, int beta)
{
    return s->g.line_sign < 0 ? search_misere(s, depth, alpha, beta) : search_normal(s, depth, alpha, beta);
}

/* --- Exact values by distance (normal rules) ------------------------------------------------------------ */

/* The questions of solve_exact_score() from n on, until one is answered yes (true: *score is the value), none
 * is left, or the search stops (s->budget.stop; the turn's limit or the caller's budget). */
static bool distance_questions(ttt_solver *s, int depth, int *n, bool *can_win, bool *can_lose, int *score)
{
    bool found = false;
    for (; *n <= depth && (*can_win || *can_lose) && !found; (*n)++) {
        int t = TTT_SCORE_WIN - (s->pos.ply + *n);
        if (*n & 1 && *can_win) {
            int r = solve_search(s, depth, t - 1, t);
            if (s->budget.stop)
                break;
            found = r >= t;
            *can_win = r > 0;
        } else if (!(*n & 1) && *can_lose) {
            int r = solve_search(s, depth, -t, -t + 1);
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
bool solve_exact_score(ttt_solver *s, int depth, int alpha, int beta, int *score)
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
        int value = solve_search(s, depth, alpha, beta);
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
int solve_root_move_score(ttt_solver *s, int depth)
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
    int value = solve_search(s, depth, can_lose ? -1 : 0, can_win ? 1 : 0);
    if (s->budget.stop || (value < 1 && value > -1) || (!can_win && value >= 0) || (!can_lose && value <= 0))
        return 0;
    return value >= 1 ? solve_search(s, depth, value - 1, SCORE_INF)
                      : solve_search(s, depth, -SCORE_INF, value + 1);
}
