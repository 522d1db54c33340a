/*
 * search/pairing.c - the Erdos-Selfridge bound's weights, pairing strategies and avoiding by pairs (see
 * pairing.h).
 *
 * A pairing is a matching of two slots per unit (slot = unit * 2 + 0 or 1) to the empty cells, no cell
 * serving two slots, found by Kuhn's augmenting paths: each slot takes a free cell of its unit when there is
 * one, else searches for a path that moves other slots to other cells. Two kernels build and match the same
 * units: over sets of cells held in one machine word (boards of at most 64 cells, and of at most 128 in a
 * 128-bit word: one kernel, pairing_kernel.h, compiled for each), and over windows and counts of stones (any
 * board).
 */
#include "search/pairing.h"

#include <assert.h>
#include <string.h>

/* Each unit's partners: the two cells holding its slots. cell_slot[c] is the slot holding cell c, or -1. */
static void slots_partners(const int16_t *cell_slot, int cells, int units, int *partner)
{
    int first[TTT_MAX_CELLS];
    for (int u = 0; u < units; u++)
        first[u] = -1;
    for (int cell = 0; cell < cells; cell++) {
        partner[cell] = -1;
        if (cell_slot[cell] < 0)
            continue;
        int u = cell_slot[cell] / 2;
        if (first[u] < 0) {
            first[u] = cell;
        } else {
            partner[cell] = first[u];
            partner[first[u]] = cell;
        }
    }
}

/* --- Boards of at most 64 and at most 128 cells: one kernel, two word types (pairing_kernel.h) ---------- */

#define PAIRING_KERNEL_BITS 64
#include "search/pairing_kernel.h"
#define PAIRING_KERNEL_BITS 128
#include "search/pairing_kernel.h"

/* --- Any board ------------------------------------------------------------------------------------------ */

/* A unit: the empty cells among cells from .. k - 1 of window win. A window alone is a unit with from = 0;
 * windows win and those after it along one line grouped make the unit of the cells they all hold, from = how
 * many windows follow the first. */
typedef struct unit {
    int16_t win;
    int16_t from;
} unit;

typedef struct board_units {
    const ttt_lines *lines;
    const ttt_bits *occ;
    unit unit[TTT_MAX_CELLS / 2 + 1];
    int n;
    int16_t cell_slot[TTT_MAX_CELLS];
    uint8_t seen[TTT_MAX_CELLS];
} board_units;

static bool units_augment(board_units *bu, int slot)
{
    const ttt_lines *lines = bu->lines;
    const unit u = bu->unit[slot / 2];
    const int16_t *cells = ttt_lines_cells(lines, u.win);
    for (int i = u.from; i < lines->k; i++) {
        int cell = cells[i];
        if (ttt_bits_test(bu->occ, cell) || bu->seen[cell])
            continue;
        bu->seen[cell] = 1;
        if (bu->cell_slot[cell] < 0 || units_augment(bu, bu->cell_slot[cell])) {
            bu->cell_slot[cell] = (int16_t)slot;
            return true;
        }
    }
    return false;
}

/* The empty cells of window w from its cell `from` on. */
static int units_empty(const board_units *bu, int w, int from)
{
    const int16_t *cells = ttt_lines_cells(bu->lines, w);
    int n = 0;
    for (int i = from; i < bu->lines->k; i++)
        n += !ttt_bits_test(bu->occ, cells[i]);
    return n;
}

/* The units (see pairing.h), into bu. False when some window free of the defender has fewer than two empty
 * cells or the units need more cells than are empty. */
static bool units_of(board_units *bu, const uint8_t *att_count, const uint8_t *def_count)
{
    const ttt_lines *lines = bu->lines;
    int empties = 0;
    for (int i = 0; i < lines->words; i++)
        empties += __builtin_popcountll(lines->all.w[i] & ~bu->occ->w[i]);
    bu->n = 0;
    for (int l = 0; l < lines->nlines; l++) {
        unit open = {.win = -1, .from = 0};
        for (int i = lines->line_start[l]; i < lines->line_start[l + 1]; i++) {
            const int w = lines->line_win[i];
            if (def_count[w] != 0 || lines->k - att_count[w] < 2) {
                if (def_count[w] == 0)
                    return false; /* a window with one empty cell */
                if (open.win >= 0)
                    bu->unit[bu->n++] = open;
                open.win = -1;
                continue;
            }
            if (open.win >= 0 && open.from + 1 < lines->k && units_empty(bu, open.win, open.from + 1) >= 2) {
                open.from++;
                continue;
            }
            if (open.win >= 0)
                bu->unit[bu->n++] = open;
            if (2 * (bu->n + 1) > empties)
                return false;
            open = (unit){.win = (int16_t)w, .from = 0};
        }
        if (open.win >= 0)
            bu->unit[bu->n++] = open;
    }
    return true;
}

/* Two empty cells of its own for every unit. */
static bool units_match(board_units *bu)
{
    const ttt_lines *lines = bu->lines;
    for (int cell = 0; cell < lines->cells; cell++)
        bu->cell_slot[cell] = -1;
    for (int slot = 0; slot < 2 * bu->n; slot++) {
        const unit u = bu->unit[slot / 2];
        const int16_t *cells = ttt_lines_cells(lines, u.win);
        int free_cell = -1;
        for (int i = u.from; i < lines->k && free_cell < 0; i++)
            if (bu->cell_slot[cells[i]] < 0 && !ttt_bits_test(bu->occ, cells[i]))
                free_cell = cells[i];
        if (free_cell >= 0) {
            bu->cell_slot[free_cell] = (int16_t)slot;
            continue;
        }
        memset(bu->seen, 0, (size_t)lines->cells);
        if (!units_augment(bu, slot))
            return false;
    }
    return true;
}

bool pairing_find(const ttt_lines *lines, const ttt_bits *occ, const uint8_t *att_count,
                  const uint8_t *def_count, int *partner)
{
    board_units bu;
    bu.lines = lines;
    bu.occ = occ;
    if (!units_of(&bu, att_count, def_count) || !units_match(&bu))
        return false;
    if (partner)
        slots_partners(bu.cell_slot, lines->cells, bu.n, partner);
    return true;
}

/* --- Avoiding by pairs (misère) ------------------------------------------------------------------------- */

/*
 * Avoiding by pairs. Given the pairs and the forbidden cells F, S (the side) keeps this rule: when T (the
 * other side) takes a cell of a pair whose other cell is empty, S takes that other cell; any other turn of S
 * is a free one, where S takes, in this order of preference, an empty cell in no pair and not in F nor
 * reserved (a "shared" one), a reserved one (not in F, in no pair, a cell T never takes: T would complete a
 * line), or a cell of a pair still untouched (its partner is then left to T: S never takes it). S never
 * takes a cell of F nor both cells of a pair, so every window S could fill keeps an empty cell of F or ends
 * with a stone of T: S completes no line. What is left to show is that S always has a cell to take. At a
 * free turn of S, with N shared cells, R reserved ones, P untouched pairs and L moves left, let phi = R + P +
 * ceil(N / 2) - L. A free move and T's reply (and S's answer, when T took a cell of a pair) leave phi at
 * S's next free turn no lower: taking a shared cell costs ceil(N / 2) at most 1 together with T's taking
 * another, or with T's taking a pair's cell, which S answers, P and L both falling by 1; taking a reserved
 * cell or breaking a pair costs R or P one and L one. So phi >= 0 holds at every free turn, and with L >= 1
 * the sum R + P + ceil(N / 2) is at least 1: a cell is there. With T to move, T's move takes at most one
 * shared cell first: floor(N / 2) in place of ceil(N / 2). A window S cannot fill in its moves left is no
 * danger either way.
 */
typedef struct pair_work {
    int n;
    uint64_t cells[PAIRING_AVOID_MAX_WINDOWS]; /* the empty cells of each window S could fill */
    uint64_t open;                             /* empty cells outside F */
    uint64_t reserved;
    int left;
    bool to_move;
    int budget;
    int npairs;
    uint64_t pair[32];
} pair_work;

typedef struct window_set {
    uint64_t w[PAIRING_AVOID_MAX_WINDOWS / 64];
} window_set;

/* Whether the moves S has left fit the cells the pairs leave (see above). */
static bool pair_count(const pair_work *pw, uint64_t used)
{
    const uint64_t rest = pw->open & ~used;
    const int r = __builtin_popcountll(rest & pw->reserved), n = __builtin_popcountll(rest & ~pw->reserved);
    return r + pw->npairs + (pw->to_move ? (n + 1) / 2 : n / 2) >= pw->left;
}

/* Covers the windows not in `covered` with pairs of cells of `open` not in `used`, most constrained window
 * first. */
static bool pair_cover(pair_work *pw, window_set covered, uint64_t used)
{
    if (--pw->budget < 0)
        return false;
    int best = -1, best_free = 65;
    for (int i = 0; i < pw->n; i++) {
        if (covered.w[i / 64] >> (i % 64) & 1)
            continue;
        int n = __builtin_popcountll(pw->cells[i] & ~used);
        if (n < 2)
            return false;
        if (n < best_free) {
            best_free = n;
            best = i;
        }
    }
    if (best < 0)
        return pair_count(pw, used);
    const uint64_t avail = pw->cells[best] & ~used;
    for (uint64_t a = avail; a; a &= a - 1) {
        const uint64_t p = a & -a;
        for (uint64_t b = a & (a - 1); b; b &= b - 1) {
            const uint64_t both = p | (b & -b);
            window_set next = covered;
            for (int i = 0; i < pw->n; i++)
                if ((pw->cells[i] & both) == both)
                    next.w[i / 64] |= UINT64_C(1) << (i % 64);
            pw->pair[pw->npairs++] = both;
            if (pair_cover(pw, next, used | both))
                return true;
            pw->npairs--;
            if (pw->budget < 0)
                return false;
        }
    }
    return false;
}

bool pairing_avoid(const ttt_lines *lines, uint64_t empty, uint64_t forbid, uint64_t reserved,
                   const uint8_t *mine, const uint8_t *theirs, int left, bool to_move, int budget,
                   int *partner)
{
    pair_work pw = {.n = 0,
                    .open = empty & ~forbid,
                    .reserved = reserved,
                    .left = left,
                    .to_move = to_move,
                    .budget = budget,
                    .npairs = 0};
    for (int w = 0; w < lines->nwin; w++) {
        if (theirs[w] != 0 || lines->k - mine[w] > left)
            continue;
        const uint64_t cells = lines->win_bits[w].w[0];
        if (cells & empty & forbid)
            continue; /* S never fills it */
        if (pw.n == PAIRING_AVOID_MAX_WINDOWS)
            return false;
        pw.cells[pw.n++] = cells & pw.open;
    }
    window_set none = {{0}};
    if (!pair_cover(&pw, none, 0))
        return false;
    if (partner) {
        for (int c = 0; c < 64; c++)
            partner[c] = -1;
        for (int i = 0; i < pw.npairs; i++) {
            int a = __builtin_ctzll(pw.pair[i]), b = 63 - __builtin_clzll(pw.pair[i]);
            partner[a] = b;
            partner[b] = a;
        }
    }
    return true;
}
