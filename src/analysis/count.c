/*
 * analysis/count.c - exact counts of positions and games, layer by layer.
 *
 * Step 1. Layer 0 holds the empty board, reached by one (empty) move sequence.
 * Step 2. Every ongoing position of layer p is expanded: each legal child goes into layer p+1 with the number
 *         of sequences reaching it summed over its parents. A finished child is counted, not expanded; the
 *         sequences reaching it are complete games.
 * Step 3. Up to symmetry, the same pass runs over canonical forms only: a parent passes its sequences once to
 *         each distinct canonical form among its children. Each layer then holds one position per symmetry
 *         class, and the sequences reaching a canonical position count the games that are the same move by
 *         move up to symmetry (the published 26,830 games of 3x3 are counted this way).
 *
 * A layer is an open-addressing hash table of (X stones, O stones) -> sequences; boards of up to 64 cells
 * keep each side in one word.
 */
#include "ttt/count.h"

#include <stdlib.h>
#include <string.h>

#include "ttt/board.h"
#include "ttt/symmetry.h"
#include "util/error.h"

#define SMALL_BOARD_CELLS  64
#define TABLE_MIN_CAPACITY 1024
/* A table is kept at most half full. */
#define TABLE_MAX_LOAD_SHIFT 1
/* The next layer's table starts at this many times the current layer's positions (it can still grow). */
#define LAYER_GROWTH_GUESS 2
/* A symmetry is applied to a one-word board a byte at a time (see sym_tables). */
#define CHUNK_BITS 8
#define CHUNKS     (SMALL_BOARD_CELLS / CHUNK_BITS)
/* The sequence count and the outcome share one word: paths << OUTCOME_BITS | outcome. */
#define OUTCOME_BITS 2
#define OUTCOME_MASK ((UINT64_C(1) << OUTCOME_BITS) - 1)
#define PATHS_MAX    (UINT64_MAX >> OUTCOME_BITS)

typedef struct entry {
    uint64_t x, o;
    uint64_t packed; /* sequences reaching the position << OUTCOME_BITS | its ttt_outcome; 0 = free slot */
} entry;

typedef struct table {
    entry *slots;
    size_t capacity; /* a power of two */
    size_t used;
} table;

/* Per symmetry, the image of every byte value at every byte position of a one-word board. */
typedef struct sym_tables {
    int count;
    uint64_t image[TTT_SYM_ALL][CHUNKS][1 << CHUNK_BITS];
} sym_tables;

static uint64_t mix(uint64_t x, uint64_t o)
{
    uint64_t h =
        x * UINT64_C(0x9e3779b97f4a7c15) ^ (o + UINT64_C(0x632be59bd9b4e019)) * UINT64_C(0xc2b2ae3d27d4eb4f);
    return h ^ (h >> 29);
}

static size_t power_of_two_at_least(size_t n)
{
    size_t c = TABLE_MIN_CAPACITY;
    while (c < n)
        c *= 2;
    return c;
}

static ttt_status table_init(table *t, size_t capacity)
{
    t->capacity = power_of_two_at_least(capacity);
    t->used = 0;
    t->slots = calloc(t->capacity, sizeof *t->slots);
    return t->slots ? TTT_OK : TTT_ENOMEM;
}

static entry *table_slot(table *t, uint64_t x, uint64_t o)
{
    size_t mask = t->capacity - 1;
    for (size_t i = mix(x, o) & mask;; i = (i + 1) & mask) {
        entry *e = &t->slots[i];
        if (e->packed == 0 || (e->x == x && e->o == o))
            return e;
    }
}

static ttt_status table_grow(table *t)
{
    table bigger;
    if (table_init(&bigger, t->capacity * 2))
        return TTT_ENOMEM;
    for (size_t i = 0; i < t->capacity; i++)
        if (t->slots[i].packed)
            *table_slot(&bigger, t->slots[i].x, t->slots[i].o) = t->slots[i];
    bigger.used = t->used;
    free(t->slots);
    *t = bigger;
    return TTT_OK;
}

/* Adds `paths` sequences reaching (x, o), whose outcome is `outcome`. */
static ttt_status table_add(table *t, uint64_t x, uint64_t o, uint64_t paths, ttt_outcome outcome,
                            ttt_error *err)
{
    if (t->used + 1 > t->capacity >> TABLE_MAX_LOAD_SHIFT && table_grow(t))
        return ttt_fail(err, TTT_ENOMEM, "out of memory with %zu positions in a layer", t->used);
    entry *e = table_slot(t, x, o);
    if (e->packed == 0) {
        *e = (entry){.x = x, .o = o, .packed = (uint64_t)outcome};
        t->used++;
    }
    uint64_t sum = (e->packed >> OUTCOME_BITS) + paths;
    if (sum < paths || sum > PATHS_MAX)
        return ttt_fail(err, TTT_ELIMIT, "more than 2^62 games reach one position");
    e->packed = sum << OUTCOME_BITS | (e->packed & OUTCOME_MASK);
    return TTT_OK;
}

static void sym_tables_init(sym_tables *st, const ttt_rules *rules)
{
    st->count = ttt_sym_count(rules);
    int cells = ttt_rules_cells(rules);
    for (int s = 0; s < st->count; s++)
        for (int chunk = 0; chunk < CHUNKS; chunk++)
            for (int byte = 0; byte < (1 << CHUNK_BITS); byte++) {
                uint64_t img = 0;
                for (int bit = 0; bit < CHUNK_BITS; bit++) {
                    int cell = chunk * CHUNK_BITS + bit;
                    if ((byte >> bit & 1) && cell < cells)
                        img |= UINT64_C(1) << ttt_sym_move(rules, s, cell);
                }
                st->image[s][chunk][byte] = img;
            }
}

static uint64_t sym_apply(const sym_tables *st, int s, uint64_t bits)
{
    uint64_t img = 0;
    for (int chunk = 0; bits; chunk++, bits >>= CHUNK_BITS)
        img |= st->image[s][chunk][bits & ((1u << CHUNK_BITS) - 1)];
    return img;
}

/* The canonical form of a one-word position, ordered as ttt_board_canonical orders them: X stones, then O. */
static void canonical(const sym_tables *st, uint64_t *x, uint64_t *o)
{
    uint64_t bx = *x, bo = *o;
    for (int s = 1; s < st->count; s++) {
        uint64_t ix = sym_apply(st, s, *x);
        if (ix > bx)
            continue;
        uint64_t io = sym_apply(st, s, *o);
        if (ix < bx || io < bo) {
            bx = ix;
            bo = io;
        }
    }
    *x = bx;
    *o = bo;
}

static void tally_add(ttt_count_tally *t, ttt_outcome outcome, uint64_t n)
{
    t->total += n;
    if (outcome == TTT_X_WINS)
        t->x_wins += n;
    else if (outcome == TTT_O_WINS)
        t->o_wins += n;
    else if (outcome == TTT_DRAW)
        t->draws += n;
}

static void tally_sum(ttt_count_tally *sum, const ttt_count_tally *t)
{
    sum->total += t->total;
    sum->x_wins += t->x_wins;
    sum->o_wins += t->o_wins;
    sum->draws += t->draws;
}

/* A child found while expanding one parent, kept until the parent's children are deduplicated. */
typedef struct child {
    uint64_t x, o;
    ttt_outcome outcome;
} child;

/* One forward pass (Steps 1 and 2; Step 3 when st is not NULL): tallies every position by ply into
 * positions[] and the games ending at each ply into games[]. */
static ttt_status forward_pass(const ttt_rules *rules, uint64_t layer_limit, const sym_tables *st,
                               ttt_count_progress_fn progress, void *user, ttt_count_tally *positions,
                               ttt_count_tally *games, ttt_error *err)
{
    int cells = ttt_rules_cells(rules);
    uint64_t all = cells == SMALL_BOARD_CELLS ? ~UINT64_C(0) : (UINT64_C(1) << cells) - 1;
    table cur, next;
    if (table_init(&cur, TABLE_MIN_CAPACITY))
        return ttt_fail(err, TTT_ENOMEM, "out of memory");
    ttt_status status = table_add(&cur, 0, 0, 1, TTT_ONGOING, err);
    ttt_board b;
    ttt_board_init(&b, rules);
    child kids[SMALL_BOARD_CELLS];
    for (int ply = 0; ply <= cells && status == TTT_OK && cur.used; ply++) {
        if (progress)
            progress(st ? 2 : 1, ply, cur.used, user);
        if (cur.used > layer_limit) {
            status =
                ttt_fail(err, TTT_ELIMIT, "layer %d has over %llu positions; the board is too big to count",
                         ply, (unsigned long long)layer_limit);
            break;
        }
        if (table_init(&next, cur.used * LAYER_GROWTH_GUESS << TABLE_MAX_LOAD_SHIFT)) {
            status = ttt_fail(err, TTT_ENOMEM, "out of memory");
            break;
        }
        for (size_t i = 0; i < cur.capacity && status == TTT_OK; i++) {
            const entry *e = &cur.slots[i];
            if (!e->packed)
                continue;
            ttt_outcome outcome = (ttt_outcome)(e->packed & OUTCOME_MASK);
            uint64_t paths = e->packed >> OUTCOME_BITS;
            tally_add(&positions[ply], outcome, 1);
            if (outcome != TTT_ONGOING) {
                tally_add(&games[ply], outcome, paths);
                continue;
            }
            b.stones[TTT_X].w[0] = e->x;
            b.stones[TTT_O].w[0] = e->o;
            b.ply = ply;
            b.line_owner = TTT_NOBODY;
            int nkids = 0;
            for (uint64_t empty = all & ~(e->x | e->o); empty; empty &= empty - 1) {
                int cell = __builtin_ctzll(empty);
                ttt_board_play(&b, cell);
                child k = {b.stones[TTT_X].w[0], b.stones[TTT_O].w[0], ttt_board_outcome(&b)};
                ttt_board_undo(&b, cell);
                if (st) {
                    canonical(st, &k.x, &k.o);
                    int j = 0;
                    while (j < nkids && (kids[j].x != k.x || kids[j].o != k.o))
                        j++;
                    if (j < nkids)
                        continue; /* an image of a sibling already passed on */
                }
                kids[nkids++] = k;
            }
            for (int j = 0; j < nkids && status == TTT_OK; j++)
                status = table_add(&next, kids[j].x, kids[j].o, paths, kids[j].outcome, err);
            if (status == TTT_OK && next.used > layer_limit) /* stop now, not after building all of it */
                status = ttt_fail(err, TTT_ELIMIT,
                                  "layer %d has over %llu positions; the board is too big to count", ply + 1,
                                  (unsigned long long)layer_limit);
        }
        free(cur.slots);
        cur = next;
    }
    free(cur.slots);
    return status;
}

/* a * b, or UINT64_MAX when it overflows. */
static uint64_t mul_sat(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* n choose k, saturating at UINT64_MAX. */
static uint64_t binomial(int n, int k)
{
    if (k < 0 || k > n)
        return 0;
    double r = 1.0;
    for (int i = 1; i <= k; i++)
        r = r * (n - k + i) / i;
    return r >= (double)UINT64_MAX ? UINT64_MAX : (uint64_t)(r + 0.5);
}

uint64_t ttt_count_memory_estimate(const ttt_rules *rules, uint64_t *largest_layer)
{
    int cells = ttt_rules_cells(rules);
    uint64_t largest = 0;
    for (int ply = 0; ply <= cells; ply++) {
        int xs = (ply + 1) / 2, os = ply / 2;
        uint64_t n = mul_sat(binomial(cells, xs), binomial(cells - xs, os));
        if (n > largest)
            largest = n;
    }
    if (largest_layer)
        *largest_layer = largest;
    /* Two layers at once, each in a table at most half full that may have just doubled. */
    return mul_sat(largest, 2 * sizeof(entry) << (TABLE_MAX_LOAD_SHIFT + 1));
}

ttt_status ttt_count(const ttt_rules *rules, uint64_t layer_limit, ttt_counts *out, ttt_error *err)
{
    return ttt_count_progress(rules, layer_limit, NULL, NULL, out, err);
}

ttt_status ttt_count_progress(const ttt_rules *rules, uint64_t layer_limit, ttt_count_progress_fn progress,
                              void *user, ttt_counts *out, ttt_error *err)
{
    ttt_error sub;
    if (ttt_rules_check(rules, &sub))
        return ttt_fail(err, TTT_EINVAL, "%s", sub.msg);
    int cells = ttt_rules_cells(rules);
    if (cells > SMALL_BOARD_CELLS)
        return ttt_fail(err, TTT_ELIMIT,
                        "boards of more than %d cells are too big to count (this one has %d)",
                        SMALL_BOARD_CELLS, cells);
    if (layer_limit == 0)
        layer_limit = TTT_COUNT_DEFAULT_LAYER_LIMIT;
    sym_tables *st = malloc(sizeof *st);
    if (!st)
        return ttt_fail(err, TTT_ENOMEM, "out of memory");
    sym_tables_init(st, rules);
    memset(out, 0, sizeof *out);
    out->rules = *rules;
    out->plies = cells + 1;
    ttt_status status =
        forward_pass(rules, layer_limit, NULL, progress, user, out->positions, out->games, err);
    if (status == TTT_OK)
        status =
            forward_pass(rules, layer_limit, st, progress, user, out->positions_sym, out->games_sym, err);
    free(st);
    if (status)
        return status;
    for (int p = 0; p < out->plies; p++) {
        tally_sum(&out->all_positions, &out->positions[p]);
        tally_sum(&out->all_positions_sym, &out->positions_sym[p]);
        tally_sum(&out->all_games, &out->games[p]);
        tally_sum(&out->all_games_sym, &out->games_sym[p]);
    }
    return TTT_OK;
}
