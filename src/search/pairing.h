/*
 * search/pairing.h - strategies that stop a side from ever completing a line, read off a position without a
 * search: the Erdos-Selfridge bound, pairing strategies, and avoiding by pairs (misère). Internal to the
 * searchers (the solver, the prover, misère's bounds); the tests use it directly.
 *
 * The attacker is the side whose lines are in question, the defender the other. A pairing strategy is a set
 * of disjoint pairs of empty cells such that every window free of defender stones holds a pair: the defender
 * answers each attacker move in a pair with its partner (any other move of its own only blocks more),
 * whoever is to move, and the attacker never fills a window. Pairings are found by a bipartite matching over
 * units: the windows free of the defender on one line are taken in order, and a window joins the group before
 * it while the windows of the group still share two empty cells (a pair in every window of the group blocks
 * them all); each unit then needs two empty cells of its own. One unit per window would find no pairing that
 * this misses: a group of m windows (consecutive shifts along a line) has 2(m - 1) cells outside its common
 * cells, so pairs for its m windows (2m cells) always take two common cells, and those two serve the group
 * (tests/test_pairing.c checks it against an independent matching).
 *
 * Two kernels find the same pairings (whether one exists does not depend on the kernel; which pairs may):
 * the word kernel, pairing_find64 on boards of at most 64 cells (a side's stones are one word) and
 * pairing_find128 on boards of at most 128 (one 128-bit word), and pairing_find on any board.
 */
#ifndef TTT_SEARCH_PAIRING_H
#define TTT_SEARCH_PAIRING_H

#include <stdbool.h>
#include <stdint.h>

#include "rules/lines.h"
#include "ttt/board.h"

/* The Erdos-Selfridge potential of the attacker's windows, the sum of 2^-need over the windows free of
 * defender stones (need: the stones each still needs), in fixed point with this many fractional bits. */
#define PAIRING_POTENTIAL_BITS 40

/* The potential of one window that needs `need` more stones (0 when below the fixed point's precision). */
static inline uint64_t pairing_potential(int need)
{
    return need > PAIRING_POTENTIAL_BITS ? 0 : UINT64_C(1) << (PAIRING_POTENTIAL_BITS - need);
}

/* The Erdos-Selfridge criterion: windows of total potential `sum` are all stopped by the defender when the
 * sum is below 1/2 with the attacker to move, below 1 with the defender to move. */
static inline bool pairing_potential_stops(uint64_t sum, bool attacker_to_move)
{
    return sum < UINT64_C(1) << (PAIRING_POTENTIAL_BITS - (attacker_to_move ? 1 : 0));
}

/* The word kernels' sets of cells: bit c is cell c, in one uint64_t on boards of at most 64 cells, in one
 * pairing_set128 on boards of at most 128 (a compiler's 128-bit integer: the same expressions, x & -x, x &
 * (x - 1), shifts, as on a uint64_t, so that one kernel serves both; 2 words of a ttt_bits). */
__extension__ typedef unsigned __int128 pairing_set128;
#define PAIRING_SET128_BITS 128
_Static_assert(TTT_WORDS >= 2, "pairing_of_bits128 reads two words of a ttt_bits");

static inline int pairing_count64(uint64_t x) { return __builtin_popcountll(x); }
static inline int pairing_count128(pairing_set128 x)
{
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}
/* The lowest cell of a set that is not empty. */
static inline int pairing_first64(uint64_t x) { return __builtin_ctzll(x); }
static inline int pairing_first128(pairing_set128 x)
{
    const uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}
/* The highest cell of a set that is not empty. */
static inline int pairing_last64(uint64_t x) { return 63 - __builtin_clzll(x); }
static inline int pairing_last128(pairing_set128 x)
{
    const uint64_t hi = (uint64_t)(x >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)x);
}
/* The first 64 or 128 cells of a ttt_bits as a word, and back (the other words of out cleared). */
static inline uint64_t pairing_of_bits64(const ttt_bits *b) { return b->w[0]; }
static inline pairing_set128 pairing_of_bits128(const ttt_bits *b)
{
    return b->w[0] | (pairing_set128)b->w[1] << 64;
}
static inline void pairing_to_bits128(pairing_set128 x, ttt_bits *out)
{
    *out = (ttt_bits){{0}};
    out->w[0] = (uint64_t)x;
    out->w[1] = (uint64_t)(x >> 64);
}

/* A word kernel's view of a board of at most 64 (128) cells: the cells of its windows line by line, one word
 * each (win[i]: window lines->line_win[i]), which the matching reads with one load a window. Made once per
 * geometry by its user, who keeps `lines` alive as long. */
#define PAIRING_WINDOWS64_MAX  (4 * 64)
#define PAIRING_WINDOWS128_MAX (4 * PAIRING_SET128_BITS)
#define PAIRING_CELL_LINES     4 /* the most lines through a cell: one per direction */
typedef struct pairing_lines64 {
    const ttt_lines *lines;
    uint64_t win[PAIRING_WINDOWS64_MAX];
    uint64_t line_cells[PAIRING_WINDOWS64_MAX]; /* the cells of each line (lines->nlines) */
    int16_t cell_line[64][PAIRING_CELL_LINES];  /* the lines through each cell, in order */
    uint8_t cell_nlines[64];
} pairing_lines64;
typedef struct pairing_lines128 {
    const ttt_lines *lines;
    pairing_set128 win[PAIRING_WINDOWS128_MAX];
    pairing_set128 line_cells[PAIRING_WINDOWS128_MAX];
    int16_t cell_line[PAIRING_SET128_BITS][PAIRING_CELL_LINES];
    uint8_t cell_nlines[PAIRING_SET128_BITS];
} pairing_lines128;

/* Fills pl for lines of at most 64 (128) cells (asserted). */
void pairing_lines64_init(pairing_lines64 *pl, const ttt_lines *lines);
void pairing_lines128_init(pairing_lines128 *pl, const ttt_lines *lines);

/* Whether a pairing strategy stops the attacker (stones att) against the defender (stones def, disjoint
 * from att; both on the first lines->cells bits). *paired (may be NULL) receives the cells in pairs; partner
 * (lines->cells entries, may be NULL) each cell's partner, -1 for the cells in no pair. Both are written only
 * when a pairing is found. pairing_find128 finds what pairing_find64 finds (the same kernel). */
bool pairing_find64(const pairing_lines64 *pl, uint64_t att, uint64_t def, uint64_t *paired, int *partner);
bool pairing_find128(const pairing_lines128 *pl, pairing_set128 att, pairing_set128 def,
                     pairing_set128 *paired, int *partner);
/* The cells pairing_find64_after tries, in order: each call gives the next one (an empty cell), or -1 when
 * none is left. Called only while no pairing is found, so that a caller who orders its cells lazily orders
 * only those tried. */
typedef int (*pairing_next_fn)(void *user);

/* With `self`, PAIRING_SELF when a pairing strategy stops the attacker in the position itself; else (or
 * without self) the first cell c that next(user) gives such that one does after a defender stone on c; -1
 * when none. *paired (may be NULL) receives the cells pairing_find64 (128) gives for that position. Finds
 * what pairing_find64 (128) on the position and then on each cell in turn would, at a fraction of the cost:
 * the units of the lines that do not pass through the cell are the position's, built once, and only cells
 * that can mend what stops the position's own matching are tried. */
#define PAIRING_SELF (-2)
int pairing_find64_after(const pairing_lines64 *pl, uint64_t att, uint64_t def, bool self,
                         pairing_next_fn next, void *user, uint64_t *paired);
int pairing_find128_after(const pairing_lines128 *pl, pairing_set128 att, pairing_set128 def, bool self,
                          pairing_next_fn next, void *user, pairing_set128 *paired);

/* The same on any board: occ holds the occupied cells, att_count[w] and def_count[w] the stones of the
 * attacker and of the defender in window w of lines. */
bool pairing_find(const ttt_lines *lines, const ttt_bits *occ, const uint8_t *att_count,
                  const uint8_t *def_count, int *partner);

/* The most windows pairing_avoid looks at (4 per cell of a 64-cell board). */
#define PAIRING_AVOID_MAX_WINDOWS 256

/* Misère: whether `side` (S) can avoid by pairs (pairing.c tells why this is a strategy): S never takes a
 * cell of `forbid` (e.g. its poison cells), and there are pairs of other empty cells, no cell in two pairs,
 * such that every window S could still fill (no stone of the other side in it, needing at most `left` more
 * stones, S's moves left) holds both cells of a pair or a forbidden cell; and, counting R, the cells outside
 * pairs and `forbid` that are in `reserved` (cells the other side never takes: its poison), N, the other
 * cells outside pairs and `forbid`, and P, the pairs: R + P + ceil(N / 2) >= left when S is to move
 * (to_move), R + P + floor(N / 2) >= left otherwise. Boards of at most 64 cells (bit c for cell c); mine[w]
 * and theirs[w] count the stones of S and of the other side in window w of lines. Gives up (false) after
 * `budget` steps of its search. When found and partner is not NULL, partner[c] receives the other cell of
 * c's pair, or -1, for every c < 64. */
bool pairing_avoid(const ttt_lines *lines, uint64_t empty, uint64_t forbid, uint64_t reserved,
                   const uint8_t *mine, const uint8_t *theirs, int left, bool to_move, int budget,
                   int *partner);

#endif
