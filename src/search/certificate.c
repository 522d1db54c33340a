/*
 * search/certificate.c - writing a solved position as a checkable strategy (ttt/certificate.h: the format).
 *
 * The proof is walked depth first from the start, for each half: at the prover's nodes one move, chosen by
 * an oracle; at the opponent's nodes every move up to the position's symmetries; down to leaves (the game
 * over, a win in one, a pairing, a mirror, a misère count, a position written before). The oracle is the
 * solver that proved the value, its tables warm, and it is read before it is asked to search: writing is meant
 * to cost a small share of the solve (bench/verify/frontier.sh measures it). A prover's move is, in this order,
 * the block of the opponent's threat, a move after which a pairing, a mirror or a count holds, a fork (the
 * solver's own win in three, which its table does not hold), a move whose position the solver's table or its
 * draw prover's table (search/prove.h: its proofs and their relevance zones, for a half "does not lose")
 * already proves, and only then one the solver or the prover proves by searching. The solver's position
 * follows the walk (play and undo), so that its table is read without loading positions. Pairings come from
 * the pairing finder (search/pairing.h); the checker checks them on its own. The writer keeps only the set of
 * positions written (SEEN leaves), never the proof.
 *
 * The walk is in the caller's cells (the file's); the solver and its prover see a board with more rows than
 * columns turned sideways (solve_impl.h), so positions cross to them through inner_set(). Every call into the
 * draw prover and the pairing finder is in the section "The prover and the pairing finder" below.
 */
#include "ttt/certificate.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rules/lines.h"
#include "search/avoid.h"
#include "search/pairing.h"
#include "search/prove.h"
#include "search/solve_impl.h"
#include "util/error.h"
#include "util/memory.h"

#define SET_START    1024        /* slots of the set of positions written at first (a power of two) */
#define OUT_BUFFER   (64 * 1024) /* bytes gathered before each fwrite: one call per node cost 3 % (6x6k4) */
#define FREE_WORD    UINT64_MAX  /* the mark of a free slot of the positions written (slot_free) */
#define PACKED_CELLS 32          /* boards of at most this many cells key a position in one word (key_of64) */
/* A run of the draw prover this long reads the table's entry of its position (the first node) and stops. */
#define PROVER_PEEK_NODES 2
/* The set of positions written grows (twice over) when more than this share of its slots is taken: a probe
 * reads one cache line of 8 slots, where the longer runs of a fuller set mostly stay, while a smaller set
 * misses the cache less (misère 5x5k4: 4.28M positions in 8M slots instead of 16M) and is put again fewer
 * times, each time at random places. */
#define SET_LOAD_NUM 3
#define SET_LOAD_DEN 4
/* table_move asks the cache for this many children's buckets in the solver's table at a time. */
#define TABLE_BATCH 4
/* Misère: an AVOID leaf by pairs (search/pairing.h) is looked for with at least this many empty cells (as the
 * solver's search looks for it), within this many steps of the pairing search: twice the solver's 64, which
 * found 4 % fewer leaves after c3 b2 d4 of 5x5k4 (133,015 nodes, 128,116 now; no fewer with more steps). */
#define AVOID_PAIRS_MIN_EMPTIES 8
#define AVOID_PAIRS_BUDGET      128

/* A map of cells (a symmetry), with the images of a one-word set's 4-bit pieces: an image in 16 lookups, not one
 * per cell (imaging cell by cell was 16 % of writing 4x5k4 misère). */
#define MAP_PIECES 16
typedef struct cell_map {
    const int16_t *cells;
    uint64_t piece[MAP_PIECES][16];
} cell_map;

/* A position of the walk, in the caller's cells, with the Zobrist hash of each of its symmetric images (the
 * least picks the image kept in the set of positions written). */
typedef struct node_pos {
    ttt_bits x, o;
    uint64_t h[TTT_SYM_ALL];
    ttt_bits
        unseen; /* opponent stones the draw prover's proof of the position has no part for (prover_move) */
} node_pos;

typedef struct writer {
    ttt_solver *s;
    const ttt_lines *lines; /* the caller's board (the solver's may be turned sideways) */
    pairing_lines64 pairs;  /* boards of at most 64 cells */
    int cells, words, nsym;
    cell_map sym[TTT_SYM_ALL]; /* lines->sym */
    bool misere, wide;
    int prover, target; /* of the half under way */
    uint64_t zob[2][TTT_MAX_CELLS];
    /* The symmetries a MIRROR leaf may name (ttt/certificate.h; their numbers there), and their maps. */
    int nmirror;
    int mirror[TTT_SYM_ALL];
    ttt_bits mirror_fixed[TTT_SYM_ALL];
    int16_t cert_sym[TTT_SYM_ALL][TTT_MAX_CELLS];
    cell_map mirror_map[TTT_SYM_ALL]; /* cert_sym[mirror[m]] */
    /* The positions written in the half under way (each the image of least hash): open addressing, keys of
     * 2 * words words (X's stones, then O's). */
    uint64_t *keys;
    int *partners; /* (cells + 1) * cells: the pairing under way at each count of stones */
    int16_t
        killer[TTT_MAX_CELLS + 1]; /* by count of stones: the last prover move that made a pairing, or -1 */
    /* The windows of the position avoid_counted counted last (one-word boards): the prover's stones in each
     * window free of the opponent's, and whether the opponent has a stone in it (avoid_paired's input). */
    uint8_t have[PAIRING_AVOID_MAX_WINDOWS], had[PAIRING_AVOID_MAX_WINDOWS];
    size_t mask, count;
    FILE *out;
    uint8_t buf[OUT_BUFFER];
    size_t fill;
    ttt_certificate_stats st;
    ttt_error *err;
    ttt_status status;
} writer;

/* --- Cell sets ------------------------------------------------------------------------------------------ */

/* The first cell of `set` from `from` on, or -1: for (c = next_cell(w, s, 0); c >= 0; c = next_cell(w, s, c + 1)). */
static int next_cell(const writer *w, const ttt_bits *set, int from)
{
    for (int i = from >> 6; i < w->words; i++) {
        uint64_t m = set->w[i] & (i == from >> 6 ? ~UINT64_C(0) << (from & 63) : ~UINT64_C(0));
        if (m)
            return i * 64 + __builtin_ctzll(m);
    }
    return -1;
}

static int count_cells(const writer *w, const ttt_bits *set)
{
    int n = 0;
    for (int i = 0; i < w->words; i++)
        n += __builtin_popcountll(set->w[i]);
    return n;
}

static bool same_cells(const writer *w, const ttt_bits *a, const ttt_bits *b)
{
    for (int i = 0; i < w->words; i++)
        if (a->w[i] != b->w[i])
            return false;
    return true;
}

static bool is_full(const writer *w, const node_pos *p)
{
    for (int i = 0; i < w->words; i++)
        if ((p->x.w[i] | p->o.w[i]) != w->lines->all.w[i])
            return false;
    return true;
}

static ttt_bits empty_cells(const writer *w, const node_pos *p)
{
    ttt_bits e = {{0}};
    for (int i = 0; i < w->words; i++)
        e.w[i] = w->lines->all.w[i] & ~(p->x.w[i] | p->o.w[i]);
    return e;
}

/* The image of a one-word set. */
static uint64_t map64(const cell_map *map, uint64_t set)
{
    uint64_t out = 0;
    for (int i = 0; set; i++, set >>= 4)
        out |= map->piece[i][set & 15];
    return out;
}

static ttt_bits map_set(const writer *w, const cell_map *map, const ttt_bits *set)
{
    ttt_bits out = {{0}};
    if (w->words == 1) {
        out.w[0] = map64(map, set->w[0]);
        return out;
    }
    for (int cell = next_cell(w, set, 0); cell >= 0; cell = next_cell(w, set, cell + 1))
        ttt_bits_set(&out, map->cells[cell]);
    return out;
}

static void cell_map_init(const writer *w, cell_map *map, const int16_t *cells)
{
    map->cells = cells;
    for (int i = 0; i < MAP_PIECES && w->words == 1; i++)
        for (int v = 0; v < 16; v++) {
            map->piece[i][v] = 0;
            for (int b = 0; b < 4; b++)
                if (v >> b & 1 && 4 * i + b < w->cells)
                    map->piece[i][v] |= UINT64_C(1) << cells[4 * i + b];
        }
}

static bool x_to_move(const writer *w, const node_pos *p)
{
    return count_cells(w, &p->x) == count_cells(w, &p->o);
}

/* The position after the side to move plays cell. */
static node_pos child_of(const writer *w, const node_pos *p, int cell)
{
    node_pos c = *p;
    int side = x_to_move(w, p) ? TTT_X : TTT_O;
    ttt_bits_set(side == TTT_X ? &c.x : &c.o, cell);
    for (int sy = 0; sy < w->nsym; sy++)
        c.h[sy] ^= w->zob[side][w->lines->sym[sy][cell]];
    return c;
}

static uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ z >> 30) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ z >> 27) * UINT64_C(0x94D049BB133111EB);
    return z ^ z >> 31;
}

/* --- The positions written ------------------------------------------------------------------------------ */

/* The key of a position of a one-word board: X's stones and O's, in one word on boards of at most
 * PACKED_CELLS cells (the set of positions written takes half the memory: misère 5x5k4 writes 12.5M nodes). */
static void key_of64(const writer *w, uint64_t x, uint64_t o, uint64_t *key)
{
    if (w->cells <= PACKED_CELLS) {
        key[0] = x | o << PACKED_CELLS;
    } else {
        key[0] = x;
        key[1] = o;
    }
}

/* The key of p: its image of least hash, equal for two positions that are the same up to symmetry (ties
 * between different images only miss a transposition). */
static void canonical(const writer *w, const node_pos *p, uint64_t *key)
{
    int best = 0;
    for (int sy = 1; sy < w->nsym; sy++)
        if (p->h[sy] < p->h[best])
            best = sy;
    if (w->words == 1) {
        key_of64(w, map64(&w->sym[best], p->x.w[0]), map64(&w->sym[best], p->o.w[0]), key);
        return;
    }
    ttt_bits x = map_set(w, &w->sym[best], &p->x), o = map_set(w, &w->sym[best], &p->o);
    memcpy(key, x.w, (size_t)w->words * sizeof *key);
    memcpy(key + w->words, o.w, (size_t)w->words * sizeof *key);
}

static size_t key_size(const writer *w) { return w->cells <= PACKED_CELLS ? 1 : 2 * (size_t)w->words; }

static uint64_t key_hash(const writer *w, const uint64_t *key)
{
    uint64_t h = 0;
    for (size_t i = 0; i < key_size(w); i++)
        h = (h ^ key[i]) * UINT64_C(0x9E3779B97F4A7C15);
    return h ^ h >> 29;
}

/* A free slot holds FREE_WORD as the first word of both stone sets: X and O on the same cells, no position.
 * (One array, without a separate one of flags: a probe reads one cache line, not two.) */
static bool slot_free(const writer *w, const uint64_t *slot)
{
    return slot[0] == FREE_WORD && (key_size(w) == 1 || slot[w->words] == FREE_WORD);
}

static bool same_key(const writer *w, const uint64_t *a, const uint64_t *b)
{
    for (size_t i = 0; i < key_size(w); i++)
        if (a[i] != b[i])
            return false;
    return true;
}

static void set_clear(writer *w) { memset(w->keys, 0xFF, (w->mask + 1) * key_size(w) * sizeof *w->keys); }

/* Puts key into the set's first free slot from its hash on. */
static void set_put(writer *w, const uint64_t *key)
{
    size_t i = key_hash(w, key) & w->mask;
    while (!slot_free(w, &w->keys[i * key_size(w)]))
        i = (i + 1) & w->mask;
    memcpy(&w->keys[i * key_size(w)], key, key_size(w) * sizeof *key);
}

/* Memory for the set, in huge pages where the system gives them (util/memory.h: probes land at random). */
static uint64_t *set_alloc(size_t bytes)
{
    uint64_t *p = malloc(bytes);
    ttt_memory_huge(p, bytes);
    return p;
}

static bool set_resize(writer *w, size_t slots)
{
    uint64_t *old = w->keys;
    size_t old_slots = old ? w->mask + 1 : 0;
    w->keys = set_alloc(slots * key_size(w) * sizeof *w->keys);
    if (!w->keys) {
        w->keys = old;
        return false;
    }
    w->mask = slots - 1;
    set_clear(w);
    for (size_t i = 0; i < old_slots; i++)
        if (!slot_free(w, &old[i * key_size(w)]))
            set_put(w, &old[i * key_size(w)]);
    free(old);
    return true;
}

/* Asks the cache for the slot where the set's probe for key starts. Only a hint. */
static void set_prefetch(const writer *w, const uint64_t *key)
{
    __builtin_prefetch(&w->keys[(key_hash(w, key) & w->mask) * key_size(w)]);
}

/* Grows the set (twice over) when one more position would take it past its load; false when memory runs out. */
static bool set_room(writer *w)
{
    if ((w->count + 1) * SET_LOAD_DEN > (w->mask + 1) * SET_LOAD_NUM && !set_resize(w, (w->mask + 1) * 2)) {
        w->status = ttt_fail(w->err, TTT_ENOMEM, "certificate: out of memory for the positions written");
        return false;
    }
    return true;
}

/* Whether key was written before in the half; *slot receives its slot, or the free one where set_put_at
 * puts it (valid until the set changes). */
static bool set_find(const writer *w, const uint64_t *key, size_t *slot)
{
    for (size_t i = key_hash(w, key) & w->mask;; i = (i + 1) & w->mask) {
        const uint64_t *at = &w->keys[i * key_size(w)];
        if (slot_free(w, at) || same_key(w, at, key)) {
            *slot = i;
            return !slot_free(w, at);
        }
    }
}

/* Puts key into the free slot set_find gave for it. */
static void set_put_at(writer *w, const uint64_t *key, size_t slot)
{
    memcpy(&w->keys[slot * key_size(w)], key, key_size(w) * sizeof *key);
    w->count++;
}

/* --- Output --------------------------------------------------------------------------------------------- */

static bool flush_out(writer *w)
{
    if (w->fill && !w->status && fwrite(w->buf, 1, w->fill, w->out) != w->fill)
        w->status = ttt_fail(w->err, TTT_EIO, "certificate: write error");
    w->fill = 0;
    return !w->status;
}

static bool put(writer *w, const uint8_t *bytes, size_t n)
{
    if (w->status)
        return false;
    if (w->fill + n > sizeof w->buf && !flush_out(w))
        return false;
    memcpy(w->buf + w->fill, bytes, n);
    w->fill += n;
    w->st.bytes += n;
    return true;
}

/* A tag, then a cell or count (ttt/certificate.h: two bytes on wide boards). */
static bool put_tag_cell(writer *w, int tag, int cell)
{
    uint8_t b[3] = {(uint8_t)tag, (uint8_t)cell, (uint8_t)(cell >> 8)};
    return put(w, b, w->wide ? 3 : 2);
}

static void le64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* --- The solver as the oracle --------------------------------------------------------------------------- */

/* A set of the caller's cells as the solver sees them. */
static ttt_bits inner_set(const writer *w, const ttt_bits *set)
{
    if (!w->s->cfg.transposed)
        return *set;
    ttt_bits out = {{0}};
    for (int cell = next_cell(w, set, 0); cell >= 0; cell = next_cell(w, set, cell + 1))
        ttt_bits_set(&out, to_inner(w->s, cell));
    return out;
}

/* Loads a position (inner stone sets) into the solver, as its node search expects it. The walk does this once,
 * at its root: from there the solver follows the walk move by move (solver_play, solver_undo), since loading
 * each position afresh cost more than the searches it was loaded for (4x5k4 misère: 684M of 1.74G
 * instructions). */
static void solver_load(const writer *w, const ttt_bits *x, const ttt_bits *o)
{
    ttt_solver *s = w->s;
    memset(&s->pos, 0, sizeof s->pos);
    for (int side = TTT_X, cell[2] = {0, 0};; side ^= 1) {
        const ttt_bits *set = side == TTT_X ? x : o;
        while (cell[side] < w->cells && !ttt_bits_test(set, cell[side]))
            cell[side]++;
        if (cell[side] >= w->cells)
            break;
        play(s, cell[side]++);
    }
}

/* The solver's position follows the walk's: the side to move plays cell (the caller's), and takes it back. */
static void solver_play(const writer *w, int cell) { play(w->s, to_inner(w->s, cell)); }
static void solver_undo(const writer *w, int cell) { undo(w->s, to_inner(w->s, cell)); }

/* Whether the solver's position is p (the caller's stones): what solver_play and solver_undo keep. */
static bool solver_at(const writer *w, const node_pos *p)
{
    ttt_bits ix = inner_set(w, &p->x), io = inner_set(w, &p->o);
    return same_cells(w, &ix, &w->s->pos.stones[TTT_X]) && same_cells(w, &io, &w->s->pos.stones[TTT_O]);
}

/* The solver's score of a position (the caller's stones, ongoing) for the side to move, searched with the
 * window (alpha, beta), fail-soft (solve_impl.h). */
static int solver_score(writer *w, const node_pos *p, int alpha, int beta)
{
    ttt_solver *s = w->s;
    assert(solver_at(w, p));
    (void)p;
    s->mode = (solver_mode){.exact = true, .etc = s->g.line_sign < 0};
    s->budget.nodes = 0;
    s->budget.node_limit = 0;
    s->budget.deadline = 0;
    s->budget.turn_limit = 0;
    s->budget.stop = false;
    s->progress.fn = NULL;
    int score = solve_search(s, s->g.lines->cells - s->pos.ply, alpha, beta);
    w->st.oracle += s->budget.nodes;
    s->budget.total_nodes += s->budget.nodes;
    return score;
}

/* Whether the solver's table already proves that the side to move at p (the solver's position) scores at most
 * `bound`: an entry of the full-depth search, exact or an upper bound, at or below it. The search would
 * return at that same entry, after reading the lines first (6x5k4: most of the oracle's calls end there). */
static bool table_at_most(writer *w, const node_pos *p, int bound)
{
    ttt_solver *s = w->s;
    assert(solver_at(w, p));
    (void)p;
    int frame;
    const tt_entry *e = tt_probe(s, canonical_key(s, &frame));
    return e && e->depth == TT_DEPTH_EXACT && (e->bound == BOUND_EXACT || e->bound == BOUND_UPPER) &&
           e->score <= bound;
}

/* Whether the side to move at p (the solver's position) scores at most `bound`: the table, else a null-window
 * search. Without a draw prover, prover_move has read the table for p (table_move) before it asks: the probe
 * (a cache miss where the table is large) is skipped then. */
static bool at_most(writer *w, const node_pos *p, int bound)
{
    return (w->s->proof.prover && table_at_most(w, p, bound)) ||
           solver_score(w, p, bound, bound + 1) <= bound;
}

/* Whether the prover, the opponent to move, wins with the game over after at most `end` stones in all: the
 * opponent's score is at most -(TTT_SCORE_WIN - end). Bounding the end keeps a win's proof as short as the
 * solver's line (6x6k4: 136M nodes and counting without). */
static bool wins_by(writer *w, const node_pos *p, int end) { return at_most(w, p, -(TTT_SCORE_WIN - end)); }

/* The move the solver's table holds for p (caller's cells), or -1. */
static int solver_hash_move(writer *w, const node_pos *p)
{
    ttt_solver *s = w->s;
    assert(solver_at(w, p));
    (void)p;
    int frame;
    const tt_entry *e = tt_probe(s, canonical_key(s, &frame));
    return e && e->move >= 0 ? to_user(s, s->g.lines->inv[frame][e->move]) : -1;
}

/* The solver's order of the moves of `set` at the position, its table's move first (caller's cells). */
static int solver_order(writer *w, const node_pos *p, const ttt_bits *set, int *order)
{
    ttt_solver *s = w->s;
    int hash_move = solver_hash_move(w, p);
    ttt_bits inner = inner_set(w, set);
    int n = solve_order_moves(s, &inner, hash_move >= 0 ? to_inner(s, hash_move) : -1, order);
    for (int i = 0; i < n; i++)
        order[i] = to_user(s, order[i]);
    return n;
}

/* --- The prover and the pairing finder ------------------------------------------------------------------ */

/* The draw prover's question for the half "prover does not lose" at p: the attacker (the opponent) without
 * its stones `unseen` (NULL: none), and the defender (the prover), in the solver's cells. False where there is
 * no prover (misère, boards it does not take). */
static bool prover_view(const writer *w, const node_pos *p, const ttt_bits *unseen, ttt_bits *att,
                        ttt_bits *def, bool *att_to_move)
{
    if (!w->s->proof.prover || w->target != TTT_CERT_NOT_LOSE || w->cells > TTT_PROVER_MAX_CELLS)
        return false;
    ttt_bits theirs = w->prover == TTT_X ? p->o : p->x;
    for (int i = 0; i < w->words && unseen; i++)
        theirs.w[i] &= ~unseen->w[i];
    *att = inner_set(w, &theirs);
    *def = inner_set(w, w->prover == TTT_X ? &p->x : &p->o);
    *att_to_move = x_to_move(w, p) == (w->prover == TTT_O);
    return true;
}

/* The image of a set of the solver's cells under one of its symmetries. */
static ttt_bits map_inner(const writer *w, const int16_t *map, const ttt_bits *set)
{
    ttt_bits out = {{0}};
    for (int i = 0; i < w->words; i++)
        for (uint64_t b = set->w[i]; b; b &= b - 1)
            ttt_bits_set(&out, map[i * 64 + __builtin_ctzll(b)]);
    return out;
}

/* Whether the prover's table proves the half at p, the opponent's stones `unseen` taken away and put back:
 * the table's entry for that view of p, or for an image of it under the board's symmetries (its table has
 * none, and the walk takes the least cell of each orbit where the search may have taken another: 7x7k5, 227
 * prover runs of 117,139 nodes without the images), whose relevance zone (search/prove.h) misses the unseen
 * stones, so that they change nothing. A run of PROVER_PEEK_NODES nodes reads an entry's zone. */
static bool prover_knows(writer *w, const node_pos *p, const ttt_bits *unseen)
{
    ttt_bits att, def, hidden = inner_set(w, unseen);
    bool att_to_move;
    if (!prover_view(w, p, unseen, &att, &def, &att_to_move))
        return false;
    ttt_prover *prover = w->s->proof.prover;
    const ttt_lines *inner = w->s->g.lines;
    for (int sy = 0; sy < inner->nsym; sy++) {
        ttt_bits a = map_inner(w, inner->sym[sy], &att), d = map_inner(w, inner->sym[sy], &def), zone;
        if (ttt_prover_known_bits(prover, &a, &d, att_to_move) != TTT_PROOF_HOLDS)
            continue;
        if (!bits_any(&hidden))
            return true;
        if (ttt_prover_run_bits(prover, &a, &d, att_to_move, PROVER_PEEK_NODES, NULL, NULL, NULL) !=
            TTT_PROOF_HOLDS)
            continue;
        ttt_prover_zone_bits(prover, &zone);
        ttt_bits h = map_inner(w, inner->sym[sy], &hidden);
        bool apart = true;
        for (int i = 0; i < w->words; i++)
            apart &= !(zone.w[i] & h.w[i]);
        if (apart)
            return true;
    }
    return false;
}

/* The prover proves p, searching (it may give up: false). */
static bool prover_proves(writer *w, const node_pos *p)
{
    ttt_bits att, def;
    uint64_t used = 0;
    bool att_to_move;
    if (!prover_view(w, p, NULL, &att, &def, &att_to_move))
        return false;
    ttt_proof r = ttt_prover_run_bits(w->s->proof.prover, &att, &def, att_to_move, 0, NULL, NULL, &used);
    w->st.oracle += used;
    return r == TTT_PROOF_HOLDS;
}

/* A pairing (ttt/certificate.h: PAIRING) that stops `theirs` against `mine`: partner[c] (w->cells entries)
 * each cell's partner, -1 for the cells in no pair. */
static bool find_pairing(const writer *w, const ttt_bits *theirs, const ttt_bits *mine, int *partner)
{
    if (w->cells <= 64)
        return pairing_find64(&w->pairs, theirs->w[0], mine->w[0], NULL, partner);
    const ttt_lines *lines = w->lines;
    uint8_t att[SOLVER_MAX_WINDOWS], def[SOLVER_MAX_WINDOWS];
    ttt_bits occ = {{0}};
    for (int i = 0; i < w->words; i++)
        occ.w[i] = theirs->w[i] | mine->w[i];
    for (int win = 0; win < lines->nwin; win++) {
        int a = 0, d = 0;
        for (int i = 0; i < w->words; i++) {
            a += __builtin_popcountll(lines->win_bits[win].w[i] & theirs->w[i]);
            d += __builtin_popcountll(lines->win_bits[win].w[i] & mine->w[i]);
        }
        att[win] = (uint8_t)a;
        def[win] = (uint8_t)d;
    }
    return pairing_find(lines, &occ, att, def, partner);
}

/* --- The walk ------------------------------------------------------------------------------------------- */

/* The empty cells that complete a line of `mine` (windows free of `theirs`). */
static ttt_bits threat_cells(const writer *w, const ttt_bits *mine, const ttt_bits *theirs)
{
    const ttt_lines *lines = w->lines;
    ttt_bits out = {{0}};
    if (w->words == 1) { /* one word a window: 12 % of writing 6x6k4 went here before */
        for (int win = 0; win < lines->nwin; win++) {
            uint64_t wb = lines->win_bits[win].w[0], gap = wb & ~mine->w[0];
            if (!(wb & theirs->w[0]) && gap && !(gap & (gap - 1)))
                out.w[0] |= gap;
        }
        return out;
    }
    for (int win = 0; win < lines->nwin; win++) {
        const ttt_bits *wb = &lines->win_bits[win];
        int have = 0;
        bool blocked = false;
        for (int i = 0; i < w->words && !blocked; i++) {
            blocked = (wb->w[i] & theirs->w[i]) != 0;
            have += __builtin_popcountll(wb->w[i] & mine->w[i]);
        }
        if (!blocked && have == lines->k - 1)
            for (int i = 0; i < w->words; i++)
                out.w[i] |= wb->w[i] & ~mine->w[i];
    }
    return out;
}

/* Whether the last move (cell, of `stones`) completed a line. */
static bool completes(const writer *w, const ttt_bits *stones, int cell)
{
    const ttt_lines *lines = w->lines;
    for (int i = 0; i < lines->cell_nwin[cell]; i++) {
        const ttt_bits *wb = &lines->win_bits[lines->cell_win[cell * lines->cell_win_max + i]];
        bool full = true;
        for (int j = 0; j < w->words && full; j++)
            full = (stones->w[j] & wb->w[j]) == wb->w[j];
        if (full)
            return true;
    }
    return false;
}

/* The opponent's moves up to the symmetries that map the position onto itself: the least of each orbit. */
static int move_orbits(const writer *w, const node_pos *p, int *out)
{
    int stab[TTT_SYM_ALL], nstab = 0, n = 0;
    for (int sy = 1; sy < w->nsym; sy++)
        if (p->h[sy] == p->h[0]) {
            ttt_bits x = map_set(w, &w->sym[sy], &p->x), o = map_set(w, &w->sym[sy], &p->o);
            if (same_cells(w, &x, &p->x) && same_cells(w, &o, &p->o))
                stab[nstab++] = sy;
        }
    ttt_bits empty = empty_cells(w, p);
    for (int cell = next_cell(w, &empty, 0); cell >= 0; cell = next_cell(w, &empty, cell + 1)) {
        bool least = true;
        for (int i = 0; i < nstab && least; i++)
            least = w->lines->sym[stab[i]][cell] >= cell;
        if (least)
            out[n++] = cell;
    }
    return n;
}

/* The symmetries a MIRROR leaf may name: involutions fixed on at most one cell, every window through that
 * cell holding two distinct cells c and g(c). They depend on the board alone. */
static void mirror_init(writer *w)
{
    int rows = w->lines->rows, cols = w->lines->cols;
    int count = rows == cols ? 8 : 4;
    for (int sy = 0; sy < count; sy++)
        for (int cell = 0; cell < w->cells; cell++) {
            int r = cell / cols, c = cell % cols;
            if (sy & 2)
                r = rows - 1 - r;
            if (sy & 1)
                c = cols - 1 - c;
            w->cert_sym[sy][cell] = (int16_t)(sy & 4 ? c * cols + r : r * cols + c);
        }
    for (int sy = 1; sy < count && w->misere; sy++) {
        ttt_bits fixed = {{0}};
        bool involution = true;
        for (int cell = 0; cell < w->cells && involution; cell++) {
            involution = w->cert_sym[sy][w->cert_sym[sy][cell]] == cell;
            if (w->cert_sym[sy][cell] == cell)
                ttt_bits_set(&fixed, cell);
        }
        if (!involution || count_cells(w, &fixed) > 1)
            continue;
        bool ok = true;
        for (int win = 0; ok && count_cells(w, &fixed) && win < w->lines->nwin; win++) {
            const int16_t *cells = ttt_lines_cells(w->lines, win);
            bool through = false, pair = false;
            for (int i = 0; i < w->lines->k; i++)
                through |= ttt_bits_test(&fixed, cells[i]);
            for (int i = 0; through && i < w->lines->k && !pair; i++)
                for (int j = 0; j < w->lines->k && !pair; j++)
                    pair = i != j && w->cert_sym[sy][cells[i]] == cells[j];
            ok = !through || pair;
        }
        if (ok) {
            w->mirror_fixed[w->nmirror] = fixed;
            cell_map_init(w, &w->mirror_map[w->nmirror], w->cert_sym[sy]);
            w->mirror[w->nmirror++] = sy;
        }
    }
}

/* Whether mirror m holds with `mine` the prover's stones against `theirs` (ttt/certificate.h: MIRROR). */
static bool mirror_holds(const writer *w, int m, const ttt_bits *mine, const ttt_bits *theirs)
{
    const ttt_bits *fixed = &w->mirror_fixed[m];
    ttt_bits image = map_set(w, &w->mirror_map[m], theirs);
    for (int i = 0; i < w->words; i++)
        if ((fixed->w[i] & ~mine->w[i]) || image.w[i] != (mine->w[i] & ~fixed->w[i]))
            return false;
    return true;
}

/* A mirror leaf for the prover, the opponent to move: the symmetry's number, or -1. */
static int mirror_leaf(const writer *w, const node_pos *p)
{
    if (w->target != TTT_CERT_NOT_LOSE)
        return -1;
    const ttt_bits *mine = w->prover == TTT_X ? &p->x : &p->o, *theirs = w->prover == TTT_X ? &p->o : &p->x;
    for (int m = 0; m < w->nmirror; m++)
        if (mirror_holds(w, m, mine, theirs))
            return w->mirror[m];
    return -1;
}

static bool pairing_leaf(const writer *w, const node_pos *p, int *partner)
{
    if (w->misere || w->target != TTT_CERT_NOT_LOSE)
        return false;
    const ttt_bits *mine = w->prover == TTT_X ? &p->x : &p->o, *theirs = w->prover == TTT_X ? &p->o : &p->x;
    return find_pairing(w, theirs, mine, partner);
}

/* Misère: the counting of search/avoid.h for the prover, its stones `mine` against `theirs` (the caller's
 * cells): the cells of the windows it can still complete, the opponent's poison cells, and whether the
 * Erdos-Selfridge sum over those windows already lets it avoid them (as the solver's scan finds them). */
static avoid_view avoid_view_of(const writer *w, const ttt_bits *mine, const ttt_bits *theirs)
{
    const ttt_lines *lines = w->lines;
    const int me = w->prover, them = me ^ 1, k = lines->k;
    avoid_view v = {.empty = empty_cells(w, &(node_pos){.x = *mine, .o = *theirs}), .cells = w->cells};
    const int empties = count_cells(w, &v.empty);
    v.mover = (w->cells - empties) & 1 ? TTT_O : TTT_X;
    const int left = me == v.mover ? (empties + 1) / 2 : empties / 2;
    uint64_t potential = 0;
    for (int win = 0; win < lines->nwin; win++) {
        const ttt_bits *wb = &lines->win_bits[win];
        int have = 0, had = 0;
        bool blocked = false, barred = false;
        for (int i = 0; i < w->words; i++) {
            blocked |= (wb->w[i] & theirs->w[i]) != 0;
            barred |= (wb->w[i] & mine->w[i]) != 0;
            have += __builtin_popcountll(wb->w[i] & mine->w[i]);
            had += __builtin_popcountll(wb->w[i] & theirs->w[i]);
        }
        if (!blocked && k - have <= left) {
            potential += pairing_potential(k - have);
            for (int i = 0; i < w->words; i++)
                v.useful[me].w[i] |= wb->w[i];
        }
        if (!barred && had == k - 1)
            for (int i = 0; i < w->words; i++)
                v.threat[them].w[i] |= wb->w[i] & v.empty.w[i];
    }
    v.can[me] = !pairing_potential_stops(potential, true);
    return v;
}

/* avoid_view_of and avoid_safe(&view, prover, true) on a one-word board, in one pass (every node of a misère
 * proof comes here): whether the counting shows that the prover avoids its lines; *poison receives the
 * opponent's poison cells, w->have and w->had the windows as pairing_avoid reads them (avoid_paired). */
static bool avoid_safe64(writer *w, uint64_t mine, uint64_t theirs, uint64_t *poison)
{
    const ttt_lines *lines = w->lines;
    const int k = lines->k;
    const uint64_t empty = lines->all.w[0] & ~(mine | theirs);
    const int empties = __builtin_popcountll(empty);
    const bool to_move = ((w->cells - empties) & 1) == w->prover;
    const int left = to_move ? (empties + 1) / 2 : empties / 2;
    uint64_t useful = 0, threat = 0, potential = 0;
    for (int win = 0; win < lines->nwin; win++) {
        const uint64_t wb = lines->win_bits[win].w[0], gap = wb & ~theirs;
        w->have[win] = (uint8_t)__builtin_popcountll(wb & mine);
        w->had[win] = (uint8_t)__builtin_popcountll(wb & theirs);
        if (!w->had[win]) {
            const int need = k - w->have[win];
            if (need <= left) {
                useful |= wb;
                potential += pairing_potential(need);
            }
        } else if (!w->have[win] && !(gap & (gap - 1))) {
            threat |= gap;
        }
    }
    *poison = threat;
    if (pairing_potential_stops(potential, true))
        return true;
    const uint64_t safe = empty & ~useful;
    const int reserved = __builtin_popcountll(safe & threat), shared = __builtin_popcountll(safe & ~threat);
    return reserved + (to_move ? (shared + 1) / 2 : shared / 2) >= left;
}

/* Misère: the counting of a position for a leaf that proves the half (ttt/certificate.h: AVOID, DOOMED), the
 * prover with the stones `mine` against `theirs`. */
typedef struct avoid_count {
    ttt_bits empty, poison; /* the empty cells; the opponent's poison cells */
    int empties;
    bool to_move; /* the prover is to move */
    bool safe;    /* the prover avoids its lines */
} avoid_count;

/* The counting alone, without pairs. */
static avoid_count avoid_counted(writer *w, const ttt_bits *mine, const ttt_bits *theirs)
{
    avoid_count a = {.empty = empty_cells(w, &(node_pos){.x = *mine, .o = *theirs})};
    if (w->words == 1) {
        a.safe = avoid_safe64(w, mine->w[0], theirs->w[0], &a.poison.w[0]);
    } else {
        avoid_view v = avoid_view_of(w, mine, theirs);
        a.safe = avoid_safe(&v, w->prover, true);
        a.poison = v.threat[w->prover ^ 1];
    }
    a.empties = count_cells(w, &a.empty);
    a.to_move = ((w->cells - a.empties) & 1) == w->prover;
    return a;
}

/* Whether pairs (search/pairing.h) let the prover avoid its lines where the counting alone does not (a->safe
 * false): partner receives them (each cell's partner, -1 for the cells in no pair). Tried with the prover to
 * move only: with the opponent to move, the prover has just chosen its move, a counting one first
 * (avoid_move64), and pairs were found after it 36 times in 190,822 searches (misère 5x5k4). a: the counting
 * of the position that avoid_counted counted last (its windows in w->have and w->had). */
static bool avoid_paired(const writer *w, const avoid_count *a, int *partner)
{
    if (!a->to_move || w->words != 1 || a->empties < AVOID_PAIRS_MIN_EMPTIES ||
        w->lines->nwin > PAIRING_AVOID_MAX_WINDOWS)
        return false;
    return pairing_avoid(w->lines, a->empty.w[0], 0, a->poison.w[0], w->have, w->had, (a->empties + 1) / 2,
                         true, AVOID_PAIRS_BUDGET, partner);
}

/* The leaf's tag where the prover avoids its lines (a->safe, or pairs found): AVOID for the half "does not
 * lose", DOOMED for a win where the opponent's cells that complete no line of its own are fewer than its
 * moves left (it must complete one); else -1. */
static int avoid_tag(const writer *w, const avoid_count *a)
{
    if (w->target == TTT_CERT_NOT_LOSE)
        return TTT_CERT_AVOID;
    int open = 0, left = a->to_move ? a->empties / 2 : (a->empties + 1) / 2;
    for (int i = 0; i < w->words; i++)
        open += __builtin_popcountll(a->empty.w[i] & ~a->poison.w[i]);
    return open < left ? TTT_CERT_DOOMED : -1;
}

/* Misère, one-word boards, the prover to move with the stones `mine` against `theirs`: the first cell of cand
 * after which the counting alone proves the half (avoid_counted and avoid_tag: AVOID or DOOMED), or -1; *lose
 * receives the cells that complete a line of the prover's (never the answer: they lose at once). One scan
 * of the windows serves every cell: a move changes only the windows through its cell, and the prover's moves
 * left by one (a scan for each cell was a quarter of writing misère 5x5k4). */
static int avoid_move64(const writer *w, uint64_t mine, uint64_t theirs, uint64_t cand, uint64_t *lose)
{
    const ttt_lines *lines = w->lines;
    const int k = lines->k;
    const uint64_t empty = lines->all.w[0] & ~(mine | theirs);
    const int empties = __builtin_popcountll(empty), left = (empties + 1) / 2; /* the prover's, to move */
    int8_t need[PAIRING_AVOID_MAX_WINDOWS];
    uint64_t base = 0, potential = 0, gap[PAIRING_AVOID_MAX_WINDOWS], gap_win[PAIRING_AVOID_MAX_WINDOWS];
    int ngaps = 0;
    *lose = 0;
    for (int win = 0; win < lines->nwin; win++) {
        const uint64_t wb = lines->win_bits[win].w[0], g = wb & ~theirs;
        need[win] = -1;
        if (!(wb & theirs)) {
            need[win] = (int8_t)(k - __builtin_popcountll(wb & mine));
            if (need[win] == 1)
                *lose |= wb & ~mine;
            if (need[win] < left) { /* still a window the prover can complete after its move */
                base |= wb;
                potential += pairing_potential(need[win]);
            }
        } else if (!(wb & mine) && !(g & (g - 1))) {
            gap[ngaps] = g;
            gap_win[ngaps++] = wb;
        }
    }
    for (uint64_t c = cand & ~*lose; c; c &= c - 1) {
        const int cell = __builtin_ctzll(c);
        const uint64_t bit = c & -c;
        uint64_t useful = base, sum = potential, poison = 0;
        for (int i = 0; i < lines->cell_nwin[cell]; i++) {
            const int win = lines->cell_win[cell * lines->cell_win_max + i];
            if (need[win] >= 0 && need[win] < left)
                sum += pairing_potential(need[win]); /* its weight doubles */
            else if (need[win] == left) {
                useful |= lines->win_bits[win].w[0];
                sum += pairing_potential(need[win] - 1);
            }
        }
        for (int i = 0; i < ngaps; i++)
            if (!(gap_win[i] & bit)) /* a window through cell holds the prover's stone now */
                poison |= gap[i];
        const uint64_t rest = empty & ~bit, safe = rest & ~useful;
        const int reserved = __builtin_popcountll(safe & poison),
                  shared = __builtin_popcountll(safe & ~poison);
        /* The opponent to move: it may take a shared cell first (avoid.c). */
        if (pairing_potential_stops(sum, true) || reserved + shared / 2 >= left - 1) {
            if (w->target == TTT_CERT_NOT_LOSE ||
                __builtin_popcountll(rest & ~poison) < (empties - 1 + 1) / 2) /* the opponent's moves left */
                return cell;
        }
    }
    return -1;
}

/* Whether the prover reaches the half's target from p (ongoing, the opponent to move, the solver's position). */
static bool half_holds(writer *w, const node_pos *p)
{
    if (prover_proves(w, p))
        return true;
    /* Not proven by the prover (it may give up, or there is none): the search decides, with a null window
     * around the target (the opponent's score at most 0 or -1). */
    return at_most(w, p, w->target == TTT_CERT_WIN ? -1 : 0);
}

/* Whether the oracle backs the prover's move to cell at p: the half's target holds after it. */
static bool backs(writer *w, const node_pos *p, int cell, int end)
{
    if (count_cells(w, &p->x) + count_cells(w, &p->o) + 1 == w->cells) /* the move fills the board */
        return w->target == TTT_CERT_NOT_LOSE;
    node_pos c = child_of(w, p, cell);
    solver_play(w, cell);
    bool ok = w->target == TTT_CERT_WIN ? wins_by(w, &c, end) : half_holds(w, &c);
    solver_undo(w, cell);
    return ok;
}

/* The solver's table key of the position after the side to move plays cell (the caller's) at the solver's
 * position, found from its hashes without playing the move (as the search's enhanced transposition cutoffs
 * find it); asks the cache for its bucket. */
static uint64_t child_key(const writer *w, int cell)
{
    const ttt_solver *s = w->s;
    int inner = to_inner(s, cell), side = s->pos.ply & 1;
    uint64_t key = UINT64_MAX;
    for (int sy = 0; sy < s->g.lines->nsym; sy++) {
        uint64_t h = s->pos.hash[sy] ^ s->g.zob[sy][side][inner];
        key = h < key ? h : key;
    }
    __builtin_prefetch(&s->table.tt[key & s->table.mask & ~(size_t)(TT_BUCKET - 1)]);
    return key;
}

/* Whether the solver's table alone proves that the prover's move to cell at p (the solver's position), whose
 * child has the table key `key` (child_key), reaches the half's target. */
static bool table_backs(writer *w, const node_pos *p, int cell, uint64_t key, int end)
{
    ttt_solver *s = w->s;
    if (s->pos.ply + 1 == w->cells)
        return w->target == TTT_CERT_NOT_LOSE && !completes(w, w->prover == TTT_X ? &p->x : &p->o, cell);
    const tt_entry *e = tt_probe(s, key);
    int bound = w->target == TTT_CERT_WIN ? -(TTT_SCORE_WIN - end) : 0;
    return e && e->depth == TT_DEPTH_EXACT && (e->bound == BOUND_EXACT || e->bound == BOUND_UPPER) &&
           e->score <= bound;
}

/* The first of the moves of cand (hash_move first, if one of them) that the solver's table alone backs, or
 * -1. Past hash_move, the children's buckets are asked for TABLE_BATCH at a time before the first of them is
 * read: most are far apart in a large table, and the cache misses overlap; all at once, most were read for
 * nothing (misère 5x5k4: 1.36M asked for, the move found after 3.5 on average, 129,534 times of 169,279). */
static int table_move(writer *w, const node_pos *p, const ttt_bits *cand, int hash_move, int end)
{
    int cells[TTT_MAX_CELLS], n = 0;
    uint64_t keys[TTT_MAX_CELLS];
    if (hash_move >= 0 && ttt_bits_test(cand, hash_move) &&
        table_backs(w, p, hash_move, child_key(w, hash_move), end))
        return hash_move;
    for (int cell = next_cell(w, cand, 0); cell >= 0; cell = next_cell(w, cand, cell + 1))
        if (cell != hash_move)
            cells[n++] = cell;
    for (int first = 0; first < n; first += TABLE_BATCH) {
        int last = first + TABLE_BATCH < n ? first + TABLE_BATCH : n;
        for (int i = first; i < last; i++)
            keys[i] = child_key(w, cells[i]);
        for (int i = first; i < last; i++)
            if (table_backs(w, p, cells[i], keys[i], end))
                return cells[i];
    }
    return -1;
}

/* Whether a pairing holds after the prover plays cell at p (partner receives it). */
static bool pairing_after(const writer *w, const node_pos *p, int cell, int *partner)
{
    node_pos c = child_of(w, p, cell);
    return pairing_leaf(w, &c, partner);
}

/* The prover's move at p: with the opponent threatening to complete a line, the block; else one after which
 * a mirror or a pairing holds (partner then receives it), else one the draw prover's table backs, else the
 * first the oracle backs, in the solver's order (its table's move first). -1 when none (the oracle does not
 * back the value). */
static int prover_move(writer *w, const node_pos *p, int last, int end, int *partner, bool *paired,
                       ttt_bits *unseen, bool *counts)
{
    const ttt_bits *mine = w->prover == TTT_X ? &p->x : &p->o, *theirs = w->prover == TTT_X ? &p->o : &p->x;
    ttt_bits cand = empty_cells(w, p);
    int order[TTT_MAX_CELLS], block = -1;
    *paired = false;
    *counts = false;
    memset(unseen, 0, sizeof *unseen);
    if (w->misere) {
        /* A move after which the counting proves the half (an AVOID or DOOMED leaf), with no search; its scan
         * of the windows also finds the moves that complete the prover's line, which lose at once. */
        int counted = -1;
        if (w->words == 1 && w->lines->nwin <= PAIRING_AVOID_MAX_WINDOWS) {
            uint64_t lose;
            counted = avoid_move64(w, mine->w[0], theirs->w[0], cand.w[0], &lose);
            cand.w[0] &= ~lose;
        } else {
            ttt_bits lose = threat_cells(w, mine, theirs);
            for (int i = 0; i < w->words; i++)
                cand.w[i] &= ~lose.w[i];
        }
        /* Before it, the move that makes the prover's stones the image of the opponent's under a mirror. */
        for (int m = 0; m < w->nmirror && w->target == TTT_CERT_NOT_LOSE; m++) {
            ttt_bits image = map_set(w, &w->mirror_map[m], theirs), missing = {{0}};
            for (int i = 0; i < w->words; i++)
                missing.w[i] = (image.w[i] | w->mirror_fixed[m].w[i]) & ~mine->w[i];
            if (count_cells(w, &missing) != 1)
                continue;
            int cell = bits_first(&missing);
            ttt_bits after = *mine;
            ttt_bits_set(&after, cell);
            if (ttt_bits_test(&cand, cell) && mirror_holds(w, m, &after, theirs))
                return cell;
        }
        if (counted >= 0) {
            *counts = true;
            return counted;
        }
        for (int cell = next_cell(w, &cand, 0); cell >= 0 && w->words > 1;
             cell = next_cell(w, &cand, cell + 1)) {
            ttt_bits after = *mine;
            ttt_bits_set(&after, cell);
            avoid_count a = avoid_counted(w, &after, theirs);
            if (a.safe && avoid_tag(w, &a) >= 0) {
                *counts = true;
                return cell;
            }
        }
    } else {
        ttt_bits threats = threat_cells(w, theirs, mine);
        block = bits_first(&threats);
        if (block >= 0) { /* anything else loses at once */
            memset(&cand, 0, sizeof cand);
            ttt_bits_set(&cand, block);
        }
    }
    /* A pairing after the move: the move that made one at the last node of this depth first (the opponent's
     * moves of one node often take the same answer), then the cells in order; the solver's order is asked only
     * when none makes one (7x7k5: 71,916 of 73,947 prover nodes end so, 3.2 cells tried each instead of 4.5). */
    int ply = count_cells(w, &p->x) + count_cells(w, &p->o);
    if (!w->misere && w->target == TTT_CERT_NOT_LOSE) {
        int killer = w->killer[ply];
        if (killer >= 0 && ttt_bits_test(&cand, killer) && pairing_after(w, p, killer, partner)) {
            *paired = true;
            return killer;
        }
        for (int cell = next_cell(w, &cand, 0); cell >= 0; cell = next_cell(w, &cand, cell + 1))
            if (cell != killer && pairing_after(w, p, cell, partner)) {
                w->killer[ply] = (int16_t)cell;
                *paired = true;
                return cell;
            }
    }
    /* A fork (two threats at once, the opponent having none to answer with) wins in three: the solver's search
     * returns there without a move in its table (6x5k4: 12,211 of 17,961 oracle calls were such moves). */
    if (!w->misere && block < 0) {
        scan_info si;
        solve_scan(w->s, true, &si);
        if (si.fork >= 0)
            return to_user(w->s, si.fork);
    }
    /* Without a draw prover, a move whose position the solver's table proves, its table's move first; else
     * that move searched, before the solver's order is worked out (4x5k4 misère: of 86,909 searches, 52,461
     * went further than the table). */
    int hash_move = w->s->proof.prover ? -1 : solver_hash_move(w, p);
    int known = w->s->proof.prover ? -1 : table_move(w, p, &cand, hash_move, end);
    if (known >= 0)
        return known;
    if (hash_move >= 0 && ttt_bits_test(&cand, hash_move) && backs(w, p, hash_move, end))
        return hash_move;
    int n = solver_order(w, p, &cand, order);
    /* The draw prover's table: the moves after which it proves the half for p's view (what it does not see of
     * p as above), then for that view without the opponent's last stone, which its proof may have no part
     * for (a relevance zone that misses it: the prover then searched no move there), as then below. */
    for (int pass = 0; pass < 2 && w->s->proof.prover; pass++) {
        *unseen = p->unseen;
        if (pass == 1 && (last < 0 || ttt_bits_test(unseen, last)))
            break;
        if (pass == 1)
            ttt_bits_set(unseen, last);
        for (int i = 0; i < n; i++) {
            node_pos c = child_of(w, p, order[i]);
            if (prover_knows(w, &c, unseen))
                return order[i];
        }
    }
    memset(unseen, 0, sizeof *unseen);
    for (int i = 0; i < n; i++)
        if (order[i] != hash_move && backs(w, p, order[i], end))
            return order[i];
    return -1;
}

/* The room for a pairing at p: one per count of stones, since a node's pairing is used up before its
 * children are written, but a prover's move found with its pairing is written with it. */
static int *partners_at(const writer *w, const node_pos *p)
{
    return w->partners + (size_t)(count_cells(w, &p->x) + count_cells(w, &p->o)) * (size_t)w->cells;
}

/* A leaf that lists pairs (PAIRING, AVOID, DOOMED): partner[c] each cell's partner, -1 for the cells in no
 * pair; NULL: no pairs. */
static bool write_pairs(writer *w, int tag, const int *partner)
{
    int n = 0;
    for (int cell = 0; cell < w->cells && partner; cell++)
        n += partner[cell] > cell;
    if (!put_tag_cell(w, tag, n))
        return false;
    for (int cell = 0; cell < w->cells && partner; cell++)
        if (partner[cell] > cell) {
            uint8_t b[4] = {(uint8_t)cell, (uint8_t)(cell >> 8), (uint8_t)partner[cell],
                            (uint8_t)(partner[cell] >> 8)};
            if (w->wide ? !put(w, b, 4) : !put(w, (const uint8_t[]){b[0], b[2]}, 2))
                return false;
        }
    return true;
}

static bool write_pairing(writer *w, const int *partner)
{
    w->st.pairings++;
    return write_pairs(w, TTT_CERT_PAIRING, partner);
}

static bool write_node(writer *w, const node_pos *p, int last, int end, const int *pairing);

/* The prover's node: its move and the child's node. */
static bool write_move(writer *w, const node_pos *p, int last, int end)
{
    int *partner = partners_at(w, p);
    bool paired, counts;
    ttt_bits unseen;
    int cell = prover_move(w, p, last, end, partner, &paired, &unseen, &counts);
    bool ok = false;
    if (cell < 0) {
        if (!w->status)
            w->status = ttt_fail(w->err, TTT_ESTATE,
                                 "certificate: the solver backs no move for the prover after %d stones",
                                 count_cells(w, &p->x) + count_cells(w, &p->o));
    } else if (put_tag_cell(w, TTT_CERT_MOVE, cell)) {
        node_pos c = child_of(w, p, cell);
        c.unseen = unseen;
        if (counts && !is_full(w, &c)) { /* the leaf prover_move counted: not counted again */
            w->st.nodes++;
            w->st.avoids++;
            ok = write_pairs(w, w->target == TTT_CERT_NOT_LOSE ? TTT_CERT_AVOID : TTT_CERT_DOOMED, NULL);
        } else {
            ok = write_node(w, &c, cell, end, paired ? partner : NULL);
        }
    }
    return ok;
}

static bool write_inner(writer *w, const node_pos *p, int last, int end, const int *pairing,
                        const uint64_t *known_key);

/* The key of the child of p after cell (one-word boards; as canonical() makes it, which write_inner is then
 * spared), and asks the cache for its slot in the set of positions written, which the child reads first: a
 * cache miss where the set is large. (Not the child's bucket in the solver's table: most children end in a
 * leaf or a SEEN without reading it, and asking for a bucket of a large table costs an address translation's
 * miss of its own.) */
static void prefetch_child(const writer *w, const node_pos *p, int cell, uint64_t *key)
{
    int side = x_to_move(w, p) ? TTT_X : TTT_O, best = 0;
    uint64_t least = UINT64_MAX;
    for (int sy = 0; sy < w->nsym; sy++) {
        uint64_t h = p->h[sy] ^ w->zob[side][w->lines->sym[sy][cell]];
        if (h < least) {
            least = h;
            best = sy;
        }
    }
    uint64_t x = p->x.w[0], o = p->o.w[0], bit = UINT64_C(1) << cell;
    key_of64(w, map64(&w->sym[best], side == TTT_X ? x | bit : x),
             map64(&w->sym[best], side == TTT_O ? o | bit : o), key);
    set_prefetch(w, key);
}

/* The opponent's node: every move up to symmetry, and each child's node. The children's leaves are read off
 * the threats at p: a move ends the game where it completes a line of the opponent's or fills the board; else
 * the child is a WIN leaf (normal rules) where a threat of the prover's stays open (6x5k4: 43,634 scans of
 * the windows, one per child, before). */
static bool write_all(writer *w, const node_pos *p, int end)
{
    int cells[TTT_MAX_CELLS];
    uint64_t keys[TTT_MAX_CELLS][2];
    int n = move_orbits(w, p, cells);
    if (!put_tag_cell(w, TTT_CERT_ALL, n))
        return false;
    const ttt_bits *mine = w->prover == TTT_X ? &p->x : &p->o, *theirs = w->prover == TTT_X ? &p->o : &p->x;
    ttt_bits empty = empty_cells(w, p), own = {{0}};
    bool fills = count_cells(w, &empty) == 1;
    ttt_bits their = threat_cells(w, theirs, mine);
    if (!w->misere)
        own = threat_cells(w, mine, theirs);
    uint64_t inner = 0, seen = 0; /* one-word boards: the children write_inner takes, those written before */
    for (int i = 0; i < n && w->words == 1; i++) {
        ttt_bits open = own;
        ttt_bits_clear(&open, cells[i]);
        if (!fills && !ttt_bits_test(&their, cells[i]) && !bits_any(&open)) {
            prefetch_child(w, p, cells[i], keys[i]);
            inner |= UINT64_C(1) << i;
        }
    }
    /* The set is asked for every child at once, before any child's subtree: the cache misses overlap, where
     * asked for one child at a time, after its elder siblings' subtrees, most missed again (misère 5x5k4:
     * most of the children are positions written before). The set only grows in a half, so a child found
     * now is found when its turn comes; the others are asked again then (write_inner). */
    for (uint64_t m = inner; m; m &= m - 1) {
        size_t slot;
        if (set_find(w, keys[__builtin_ctzll(m)], &slot))
            seen |= m & -m;
    }
    for (int i = 0; i < n; i++) {
        if (fills || ttt_bits_test(&their, cells[i])) {
            w->st.nodes++;
            if (!put(w, (const uint8_t[]){TTT_CERT_END}, 1))
                return false;
            continue;
        }
        ttt_bits open = own;
        ttt_bits_clear(&open, cells[i]);
        if (bits_any(&open)) {
            w->st.wins++; /* a WIN leaf: nothing written */
            continue;
        }
        if (i < 64 && seen >> i & 1) { /* as write_inner writes it */
            w->st.nodes++;
            w->st.seen++;
            if (!put(w, (const uint8_t[]){TTT_CERT_SEEN}, 1))
                return false;
            continue;
        }
        node_pos c = child_of(w, p, cells[i]);
        if (!write_inner(w, &c, cells[i], end, NULL, w->words == 1 ? keys[i] : NULL))
            return false;
    }
    return true;
}

/* Writes the node of p (last: the cell played last, -1 at the start) and its subtree. end: a win half's
 * bound on the stones when the game ends; pairing (may be NULL): a pairing known to hold at p. */
static bool write_node(writer *w, const node_pos *p, int last, int end, const int *pairing)
{
    bool xm = x_to_move(w, p);
    if ((last >= 0 && completes(w, xm ? &p->o : &p->x, last)) || is_full(w, p)) {
        w->st.nodes++;
        return put(w, (const uint8_t[]){TTT_CERT_END}, 1);
    }
    const ttt_bits *mine = w->prover == TTT_X ? &p->x : &p->o, *theirs = w->prover == TTT_X ? &p->o : &p->x;
    if (!w->misere && (xm ? TTT_X : TTT_O) == w->prover) { /* the root: below it, write_all finds them */
        ttt_bits threats = threat_cells(w, mine, theirs);
        if (bits_any(&threats)) {
            w->st.wins++;
            return true;
        }
    }
    return write_inner(w, p, last, end, pairing, NULL);
}

/* write_node's part past the game's end and WIN leaves (which write_all reads off its threats). known_key: p's
 * key in the set of positions written, its slot asked for already (write_all), or NULL. */
static bool write_inner(writer *w, const node_pos *p, int last, int end, const int *pairing,
                        const uint64_t *known_key)
{
    int mover = x_to_move(w, p) ? TTT_X : TTT_O;
    w->st.nodes++;
    uint64_t own[2 * TTT_WORDS];
    const uint64_t *key = known_key;
    if (!key) {
        canonical(w, p, own);
        key = own;
    }
    /* The set first, then the counting (a position the counting closes is never put in the set, so the order
     * changes no leaf): write_all asked for the children's slots before the first child, and the counting of
     * a position written before (misère 5x5k4: 986,000 of them) is spared. */
    const ttt_bits *mine = w->prover == TTT_X ? &p->x : &p->o, *theirs = w->prover == TTT_X ? &p->o : &p->x;
    size_t slot;
    if (!set_room(w))
        return false;
    if (set_find(w, key, &slot)) {
        w->st.seen++;
        return put(w, (const uint8_t[]){TTT_CERT_SEEN}, 1);
    }
    avoid_count counted = {0};
    int tag;
    if (w->misere) {
        counted = avoid_counted(w, mine, theirs);
        if (counted.safe && (tag = avoid_tag(w, &counted)) >= 0) {
            w->st.avoids++;
            return write_pairs(w, tag, NULL);
        }
    }
    /* Pairs after the set: a search of its own, which a position written before (a SEEN leaf) is spared. A
     * leaf's position is not put in the set (the checker does not take it as proven). */
    int *partner = partners_at(w, p);
    if (w->misere && avoid_paired(w, &counted, partner)) {
        counted.safe = true;
        if ((tag = avoid_tag(w, &counted)) >= 0) {
            w->st.avoids++;
            return write_pairs(w, tag, partner);
        }
    }
    set_put_at(w, key, slot);
    /* The prover's node reads its bucket in the solver's table (prover_move: its move there) after the
     * counting that looks for its move: asked for now, the solver still at the parent. */
    if (mover == w->prover && last >= 0 && !w->s->proof.prover)
        child_key(w, last);
    int mirror = -1;
    bool ok;
    if (mover != w->prover && w->misere && (mirror = mirror_leaf(w, p)) >= 0) {
        w->st.mirrors++;
        ok = put(w, (const uint8_t[]){TTT_CERT_MIRROR, (uint8_t)mirror}, 2);
    } else if (pairing) {
        ok = write_pairing(w, pairing);
    } else if (!w->misere && w->target == TTT_CERT_NOT_LOSE && pairing_leaf(w, p, partners_at(w, p))) {
        ok = write_pairing(w, partners_at(w, p));
    } else {
        /* An inner node: the solver joins the walk here (a leaf never needs it). */
        if (last >= 0)
            solver_play(w, last);
        ok = mover == w->prover ? write_move(w, p, last, end) : write_all(w, p, end);
        if (last >= 0)
            solver_undo(w, last);
    }
    return ok;
}

/* A win half's bound on the stones when the game ends: the solver's distance from the start (to_move's
 * turn), as its table holds it from the proof (a bound at least as good as the value: the search that proved
 * it stored it), else searched; 0 for other halves. The search with an open window cost 6x5k4 250M
 * instructions, 43 % of the solve's own. */
static int win_end(writer *w, const node_pos *p, int to_move)
{
    if (w->target != TTT_CERT_WIN)
        return 0;
    ttt_solver *s = w->s;
    int frame;
    const tt_entry *e = tt_probe(s, canonical_key(s, &frame));
    if (e && e->depth == TT_DEPTH_EXACT) {
        if (to_move == w->prover && e->score > TTT_SCORE_PROVEN &&
            (e->bound == BOUND_EXACT || e->bound == BOUND_LOWER))
            return TTT_SCORE_WIN - e->score;
        if (to_move != w->prover && e->score < -TTT_SCORE_PROVEN &&
            (e->bound == BOUND_EXACT || e->bound == BOUND_UPPER))
            return TTT_SCORE_WIN + e->score;
    }
    int score = to_move == w->prover ? solver_score(w, p, TTT_SCORE_PROVEN, SCORE_INF)
                                     : -solver_score(w, p, -SCORE_INF, -TTT_SCORE_PROVEN);
    return TTT_SCORE_WIN - score;
}

/* Loads the walk's root into the solver (the caller's stones). */
static void solver_root(const writer *w, const node_pos *root)
{
    ttt_bits ix = inner_set(w, &root->x), io = inner_set(w, &root->o);
    solver_load(w, &ix, &io);
}

static void put_cells(uint8_t *out, const ttt_bits *set, int cells)
{
    for (int c = 0; c < cells; c++)
        if (ttt_bits_test(set, c))
            out[c / 8] |= (uint8_t)(1u << (c % 8));
}

/* A writer of b's certificate on the solver's rules into out, in *wp. */
static ttt_status writer_new(ttt_solver *solver, const ttt_board *b, FILE *out, writer **wp, ttt_error *err)
{
    writer *w = *wp = calloc(1, sizeof *w);
    if (!w)
        return ttt_fail(err, TTT_ENOMEM, "certificate: out of memory");
    w->s = solver;
    w->cells = b->cells;
    w->words = ttt_board_words(b);
    w->misere = !ttt_rules_line_wins(&b->rules);
    w->wide = b->cells >= TTT_CERT_WIDE_CELLS;
    w->out = out;
    w->err = err;
    ttt_status st = ttt_lines_new(&b->rules, &w->lines, err);
    if (st) {
        free(w);
        return st;
    }
    w->nsym = w->lines->nsym;
    for (int sy = 0; sy < w->nsym; sy++)
        cell_map_init(w, &w->sym[sy], w->lines->sym[sy]);
    if (w->cells <= 64)
        pairing_lines64_init(&w->pairs, w->lines);
    uint64_t seed = UINT64_C(0x7474744345525432);
    for (int side = 0; side < 2; side++)
        for (int c = 0; c < w->cells; c++)
            w->zob[side][c] = splitmix(&seed);
    mirror_init(w);
    for (int i = 0; i <= w->cells; i++)
        w->killer[i] = -1;
    w->partners = malloc((size_t)(w->cells + 1) * (size_t)w->cells * sizeof *w->partners);
    if (!w->partners || !set_resize(w, SET_START)) {
        free(w->partners);
        ttt_lines_unref(w->lines);
        free(w);
        return ttt_fail(err, TTT_ENOMEM, "certificate: out of memory");
    }
    return TTT_OK;
}

static void writer_free(writer *w)
{
    free(w->keys);
    free(w->partners);
    ttt_lines_unref(w->lines);
    free(w);
}

/* b's stones as the writer's node, with the hash of each symmetric image. */
static node_pos writer_root(const writer *w, const ttt_board *b)
{
    node_pos root = {.x = b->stones[TTT_X], .o = b->stones[TTT_O]};
    for (int side = 0; side < 2; side++) {
        const ttt_bits *set = side ? &root.o : &root.x;
        for (int cell = next_cell(w, set, 0); cell >= 0; cell = next_cell(w, set, cell + 1))
            for (int sy = 0; sy < w->nsym; sy++)
                root.h[sy] ^= w->zob[side][w->lines->sym[sy][cell]];
    }
    return root;
}

/* Writes what is buffered and flushes out; the writer's status. */
static ttt_status writer_finish(writer *w, FILE *out, ttt_error *err)
{
    if (flush_out(w) && fflush(out) != 0)
        w->status = ttt_fail(err, TTT_EIO, "certificate: write error");
    return w->status;
}

ttt_status ttt_certificate_write(ttt_solver *solver, const ttt_board *b, ttt_result value, FILE *out,
                                 ttt_certificate_stats *stats, ttt_error *err)
{
    double start = ttt_clock_ms();
    clock_t cpu_start = clock();
    if (!ttt_rules_equal(&solver->cfg.rules, &b->rules) || ttt_board_terminal(b))
        return ttt_fail(err, TTT_ESTATE, "certificate: an ongoing position of the solver's rules expected");
    writer *w;
    ttt_status st = writer_new(solver, b, out, &w, err);
    if (st)
        return st;
    node_pos root = writer_root(w, b);
    solver_root(w, &root);
    int to_move = ttt_board_to_move(b) == TTT_X ? TTT_X : TTT_O;
    int halves = value == TTT_DRAW_VALUE ? 2 : 1;
    uint8_t h[TTT_CERT_HEADER(TTT_MAX_CELLS)] = {0};
    memcpy(h, TTT_CERT_MAGIC, 8);
    h[8] = (uint8_t)b->rules.rows;
    h[9] = (uint8_t)b->rules.cols;
    h[10] = (uint8_t)b->rules.k;
    h[11] = w->misere;
    h[12] = (uint8_t)(value + 1);
    h[13] = (uint8_t)halves;
    int set_bytes = (w->cells + 7) / 8;
    put_cells(h + TTT_CERT_HEADER_FIXED, &root.x, w->cells);
    put_cells(h + TTT_CERT_HEADER_FIXED + set_bytes, &root.o, w->cells);
    put(w, h, TTT_CERT_HEADER(w->cells));
    for (int i = 0; i < halves && !w->status; i++) {
        w->prover = value == TTT_DRAW_VALUE ? i : value == TTT_WIN ? to_move : to_move ^ 1;
        w->target = value == TTT_DRAW_VALUE ? TTT_CERT_NOT_LOSE : TTT_CERT_WIN;
        set_clear(w);
        w->count = 0;
        if (put(w, (const uint8_t[]){(uint8_t)(w->prover + 2 * w->target)}, 1))
            write_node(w, &root, -1, win_end(w, &root, to_move), NULL);
    }
    uint8_t t[16];
    memcpy(t, TTT_CERT_END_MAGIC, 8);
    le64(t + 8, w->st.nodes);
    put(w, t, sizeof t);
    st = writer_finish(w, out, err);
    w->st.ms = ttt_clock_ms() - start;
    w->st.cpu_ms = 1000.0 * (double)(clock() - cpu_start) / CLOCKS_PER_SEC;
    if (stats)
        *stats = w->st;
    writer_free(w);
    return st;
}

ttt_status ttt_certificate_write_node(ttt_solver *solver, const ttt_board *b, int prover, int target,
                                      FILE *out, ttt_certificate_stats *stats, ttt_error *err)
{
    double start = ttt_clock_ms();
    clock_t cpu_start = clock();
    if (b->cells > TTT_CERT_MAX_CELLS || !ttt_rules_equal(&solver->cfg.rules, &b->rules) ||
        ttt_board_terminal(b) || (prover != TTT_X && prover != TTT_O) ||
        (target != TTT_CERT_NOT_LOSE && target != TTT_CERT_WIN))
        return ttt_fail(err, TTT_ESTATE, "certificate: an ongoing position of the solver's rules expected");
    writer *w;
    ttt_status st = writer_new(solver, b, out, &w, err);
    if (st)
        return st;
    w->prover = prover;
    w->target = target;
    node_pos root = writer_root(w, b);
    solver_root(w, &root);
    /* Its own set of positions written: its SEEN leaves point inside the piece, wherever it is spliced. */
    write_node(w, &root, -1, win_end(w, &root, ttt_board_to_move(b) == TTT_X ? TTT_X : TTT_O), NULL);
    st = writer_finish(w, out, err);
    w->st.ms = ttt_clock_ms() - start;
    w->st.cpu_ms = 1000.0 * (double)(clock() - cpu_start) / CLOCKS_PER_SEC;
    if (stats)
        *stats = w->st;
    writer_free(w);
    return st;
}
