/*
 * verify/verify.c - the certificate checker (ttt/verify.h; the format: ttt/certificate.h).
 *
 * Everything here is its own on purpose: the board (two 64-bit sets), the windows, the symmetries, the
 * orbits of moves and the pairing check are written again from the rules, so that the checker trusts no line
 * of the solver. A node is checked as it is read; the positions checked are kept in a set (exact keys: the
 * least image of both stone sets under the board's symmetries), which SEEN leaves must hit.
 */
#include "ttt/verify.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ttt/certificate.h"
#include "util/error.h"

#define MAX_CELLS   TTT_CERT_MAX_CELLS
#define WORDS       ((MAX_CELLS + 63) / 64)
#define MAX_WINDOWS (4 * MAX_CELLS)
#define MAX_THROUGH (4 * TTT_MAX_SIDE) /* windows through one cell: at most k per direction */
#define MAX_SYMS    8
#define SET_START   1024 /* slots of the set of positions proven at first (a power of two) */
#define MOVE_TEXT   8
/* The magic's bytes before its version character: "TTTCERT". */
#define CERT_MAGIC_STEM (sizeof TTT_CERT_MAGIC - 2)

/* A set of cells: bit c % 64 of word c / 64 for cell c; only the board's `words` words are read. */
typedef struct cells {
    uint64_t w[WORDS];
} cells;

/* The positions proven in the half under way: open addressing, grown at half full; a key is 2 * words
 * words (X's stones, then O's). */
typedef struct key_set {
    uint64_t *keys;
    uint8_t *used;
    size_t mask, count, size; /* size: words of a key */
} key_set;

typedef struct checker {
    ttt_rules rules;
    int rows, cols, cells, k, words;
    bool misere, wide;
    cells all;
    int nwin;
    cells win[MAX_WINDOWS];
    int ncell_win[MAX_CELLS];
    int16_t cell_win[MAX_CELLS][MAX_THROUGH];
    int nsym;
    int16_t sym[MAX_SYMS][MAX_CELLS];
    FILE *in;
    uint64_t bytes, nodes, wins, pairings, mirrors, avoids, seen;
    key_set done;
    int prover, target; /* of the half under way */
    int path[MAX_CELLS], depth;
    int partner[MAX_CELLS];
    ttt_error *err;
    ttt_status st;
} checker;

/* --- Cell sets ------------------------------------------------------------------------------------------ */

static bool has(const cells *s, int c) { return s->w[c >> 6] >> (c & 63) & 1; }
static void add(cells *s, int c) { s->w[c >> 6] |= UINT64_C(1) << (c & 63); }

static int count(const checker *c, const cells *s)
{
    int n = 0;
    for (int i = 0; i < c->words; i++)
        n += __builtin_popcountll(s->w[i]);
    return n;
}

static bool equal(const checker *c, const cells *a, const cells *b)
{
    for (int i = 0; i < c->words; i++)
        if (a->w[i] != b->w[i])
            return false;
    return true;
}

/* Whether a holds every cell of b. */
static bool covers(const checker *c, const cells *a, const cells *b)
{
    for (int i = 0; i < c->words; i++)
        if (b->w[i] & ~a->w[i])
            return false;
    return true;
}

static bool meets(const checker *c, const cells *a, const cells *b)
{
    for (int i = 0; i < c->words; i++)
        if (a->w[i] & b->w[i])
            return true;
    return false;
}

/* The first cell of s from `from` on, or -1. */
static int next(const checker *c, const cells *s, int from)
{
    for (int i = from >> 6; i < c->words; i++) {
        uint64_t m = s->w[i] & (i == from >> 6 ? ~UINT64_C(0) << (from & 63) : ~UINT64_C(0));
        if (m)
            return i * 64 + __builtin_ctzll(m);
    }
    return -1;
}

static cells with(cells s, int cell)
{
    add(&s, cell);
    return s;
}

/* --- Geometry: the windows and symmetries, from the rules alone ----------------------------------------- */

static void add_window(checker *c, int r, int col, int dr, int dc)
{
    cells *w = &c->win[c->nwin];
    for (int i = 0; i < c->k; i++) {
        int cell = (r + i * dr) * c->cols + col + i * dc;
        add(w, cell);
        c->cell_win[cell][c->ncell_win[cell]++] = (int16_t)c->nwin;
    }
    c->nwin++;
}

static void geometry(checker *c)
{
    static const int dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    for (int cell = 0; cell < c->cells; cell++)
        add(&c->all, cell);
    for (int d = 0; d < 4; d++)
        for (int r = 0; r < c->rows; r++)
            for (int col = 0; col < c->cols; col++) {
                int er = r + (c->k - 1) * dirs[d][0], ec = col + (c->k - 1) * dirs[d][1];
                if (er >= 0 && er < c->rows && ec >= 0 && ec < c->cols)
                    add_window(c, r, col, dirs[d][0], dirs[d][1]);
            }
    /* The maps (r, c) -> (r', c'): flips of rows and columns, and on a square board the same after swapping
     * rows and columns. */
    int swaps = c->rows == c->cols ? 2 : 1;
    c->nsym = 0;
    for (int swap = 0; swap < swaps; swap++)
        for (int fr = 0; fr < 2; fr++)
            for (int fc = 0; fc < 2; fc++) {
                for (int cell = 0; cell < c->cells; cell++) {
                    int r = cell / c->cols, col = cell % c->cols;
                    if (fr)
                        r = c->rows - 1 - r;
                    if (fc)
                        col = c->cols - 1 - col;
                    c->sym[c->nsym][cell] = (int16_t)(swap ? col * c->cols + r : r * c->cols + col);
                }
                c->nsym++;
            }
}

static cells map_set(const checker *c, int s, const cells *set)
{
    cells out = {{0}};
    for (int cell = next(c, set, 0); cell >= 0; cell = next(c, set, cell + 1))
        add(&out, c->sym[s][cell]);
    return out;
}

/* The key of a position: the least image of (x, o) under the board's symmetries, X's words first, the last
 * word most significant. */
static void canonical(const checker *c, const cells *x, const cells *o, uint64_t *key)
{
    uint64_t k[2 * WORDS];
    for (int s = 0; s < c->nsym; s++) {
        cells mx = s ? map_set(c, s, x) : *x, mo = s ? map_set(c, s, o) : *o;
        memcpy(k, mx.w, (size_t)c->words * sizeof *k);
        memcpy(k + c->words, mo.w, (size_t)c->words * sizeof *k);
        int cmp = 0;
        for (int i = 2 * c->words - 1; s && i >= 0 && !cmp; i--)
            cmp = k[i] < key[i] ? -1 : k[i] > key[i];
        if (!s || cmp < 0)
            memcpy(key, k, 2 * (size_t)c->words * sizeof *key);
    }
}

/* Whether `stones` fill a window through cell. */
static bool has_line_through(const checker *c, const cells *stones, int cell)
{
    for (int i = 0; i < c->ncell_win[cell]; i++)
        if (covers(c, stones, &c->win[c->cell_win[cell][i]]))
            return true;
    return false;
}

static bool has_line(const checker *c, const cells *stones)
{
    for (int i = 0; i < c->nwin; i++)
        if (covers(c, stones, &c->win[i]))
            return true;
    return false;
}

/* Whether `mine` completes a line with one more stone: a window free of `theirs` missing one cell. */
static bool wins_now(const checker *c, const cells *mine, const cells *theirs)
{
    for (int i = 0; i < c->nwin; i++) {
        int have = 0;
        bool blocked = false;
        for (int j = 0; j < c->words && !blocked; j++) {
            blocked = (c->win[i].w[j] & theirs->w[j]) != 0;
            have += __builtin_popcountll(c->win[i].w[j] & mine->w[j]);
        }
        if (!blocked && have == c->k - 1)
            return true;
    }
    return false;
}

/* --- The set of positions proven ------------------------------------------------------------------------ */

static size_t key_hash(const key_set *s, const uint64_t *k)
{
    uint64_t h = UINT64_C(0x632BE59BD9B4E019);
    for (size_t i = 0; i < s->size; i++)
        h = (h ^ k[i]) * UINT64_C(0xD6E8FEB86659FD93);
    return (size_t)(h ^ h >> 31);
}

static bool set_has(const key_set *s, const uint64_t *k)
{
    for (size_t i = key_hash(s, k) & s->mask; s->used[i]; i = (i + 1) & s->mask)
        if (memcmp(&s->keys[i * s->size], k, s->size * sizeof *k) == 0)
            return true;
    return false;
}

static bool set_grow(key_set *s, size_t slots)
{
    uint64_t *keys = malloc(slots * s->size * sizeof *keys);
    uint8_t *used = calloc(slots, 1);
    if (!keys || !used) {
        free(keys);
        free(used);
        return false;
    }
    for (size_t i = 0; s->keys && i <= s->mask; i++)
        if (s->used[i]) {
            size_t j = key_hash(s, &s->keys[i * s->size]) & (slots - 1);
            while (used[j])
                j = (j + 1) & (slots - 1);
            memcpy(&keys[j * s->size], &s->keys[i * s->size], s->size * sizeof *keys);
            used[j] = 1;
        }
    free(s->keys);
    free(s->used);
    s->keys = keys;
    s->used = used;
    s->mask = slots - 1;
    return true;
}

static bool set_add(key_set *s, const uint64_t *k)
{
    if (set_has(s, k))
        return true;
    if ((s->count + 1) * 2 > s->mask + 1 && !set_grow(s, (s->mask + 1) * 2))
        return false;
    size_t i = key_hash(s, k) & s->mask;
    while (s->used[i])
        i = (i + 1) & s->mask;
    memcpy(&s->keys[i * s->size], k, s->size * sizeof *k);
    s->used[i] = 1;
    s->count++;
    return true;
}

static void set_clear(key_set *s)
{
    memset(s->used, 0, s->mask + 1);
    s->count = 0;
}

/* --- Errors and reading --------------------------------------------------------------------------------- */

/* A read that failed (ferror): the system's reason, as errno has it just after the failing call. */
static ttt_status read_failed(ttt_error *err)
{
    return ttt_fail(err, TTT_EIO, "certificate: read error: %s", strerror(errno ? errno : EIO));
}

/* Fails the check: "node N (half, after a1 b2): why". Returns false for the caller to return. */
__attribute__((format(printf, 2, 3))) static bool bad(checker *c, const char *fmt, ...)
{
    if (c->st)
        return false;
    char text[TTT_ERROR_SIZE], moves[MAX_CELLS * MOVE_TEXT + 1];
    size_t used = 0;
    moves[0] = '\0';
    for (int i = 0; i < c->depth && used + MOVE_TEXT < sizeof moves; i++)
        used += (size_t)snprintf(moves + used, sizeof moves - used, " %c%d", 'a' + c->path[i] % c->cols,
                                 c->path[i] / c->cols + 1);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    c->st = ttt_fail(c->err, TTT_EINVAL, "node %llu (%s %s, after%s): %s", (unsigned long long)c->nodes,
                     c->prover ? "O" : "X", c->target ? "wins" : "does not lose",
                     c->depth ? moves : " no move", text);
    return false;
}

static bool read_byte(checker *c, int *out)
{
    int ch = getc(c->in);
    if (ch == EOF) {
        if (ferror(c->in))
            c->st = read_failed(c->err);
        else
            bad(c, "the certificate ends in the middle of a node");
        return false;
    }
    c->bytes++;
    *out = ch;
    return true;
}

/* A cell or a count: one byte, two on wide boards (ttt/certificate.h). */
static bool read_cell(checker *c, int *out)
{
    int hi = 0;
    if (!read_byte(c, out) || (c->wide && !read_byte(c, &hi)))
        return false;
    *out |= hi << 8;
    return true;
}

static uint64_t le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* --- Nodes ---------------------------------------------------------------------------------------------- */

static void window_name(const checker *c, int w, char *out, size_t size)
{
    int first = next(c, &c->win[w], 0), last = first;
    for (int cell = first; cell >= 0; cell = next(c, &c->win[w], cell + 1))
        last = cell;
    snprintf(out, size, "%c%d-%c%d", 'a' + first % c->cols, first / c->cols + 1, 'a' + last % c->cols,
             last / c->cols + 1);
}

/* The pairs of a leaf: n, then n pairs of two distinct empty cells, no cell in two pairs, into c->partner
 * (-1: a cell in no pair). */
static bool read_pairs(checker *c, const cells *empty, int *n)
{
    int *partner = c->partner;
    if (!read_cell(c, n))
        return false;
    for (int i = 0; i < c->cells; i++)
        partner[i] = -1;
    for (int i = 0; i < *n; i++) {
        int a, b;
        if (!read_cell(c, &a) || !read_cell(c, &b))
            return false;
        if (a >= c->cells || b >= c->cells || a == b || !has(empty, a) || !has(empty, b) || partner[a] >= 0 ||
            partner[b] >= 0)
            return bad(c, "pair %d is not two distinct empty cells of no other pair", i + 1);
        partner[a] = b;
        partner[b] = a;
    }
    return true;
}

static int count_in(const checker *c, const cells *a, const cells *b)
{
    int n = 0;
    for (int i = 0; i < c->words; i++)
        n += __builtin_popcountll(a->w[i] & b->w[i]);
    return n;
}

/* The pairing leaf: n disjoint pairs of empty cells, one inside every window free of the prover's stones. */
static bool check_pairing(checker *c, const cells *mine, const cells *empty)
{
    int n, *partner = c->partner;
    if (!read_pairs(c, empty, &n))
        return false;
    for (int w = 0; w < c->nwin; w++) {
        if (meets(c, &c->win[w], mine))
            continue;
        bool held = false;
        for (int cell = next(c, &c->win[w], 0); cell >= 0 && !held; cell = next(c, &c->win[w], cell + 1))
            held = partner[cell] >= 0 && has(&c->win[w], partner[cell]);
        if (!held) {
            char name[32];
            window_name(c, w, name, sizeof name);
            return bad(c, "the window %s, which the opponent can still complete, holds no pair", name);
        }
    }
    c->pairings++;
    return true;
}

/* The mirror leaf (misère, target "does not lose", the opponent to move): a symmetry g with g(g(c)) = c for
 * every cell, fixed on at most one cell, which the prover holds; the prover's other stones are the images of
 * the opponent's; and every window through the fixed cell holds two distinct cells c and g(c). The prover
 * answers each move m with g(m), which is empty (the position stays symmetric), and never completes a line:
 * a window through the fixed cell would need both c and g(c), one of which is the opponent's; any other
 * window of its stones is the image of one the opponent filled a move earlier, which ended the game. */
static bool check_mirror(checker *c, const cells *mine, const cells *theirs)
{
    int s;
    if (!read_byte(c, &s))
        return false;
    if (s >= c->nsym)
        return bad(c, "a MIRROR leaf with symmetry %d of %d", s, c->nsym);
    cells fixed = {{0}}, rest = *mine;
    for (int cell = 0; cell < c->cells; cell++) {
        if (c->sym[s][c->sym[s][cell]] != cell)
            return bad(c, "a MIRROR leaf whose symmetry %d is not its own inverse", s);
        if (c->sym[s][cell] == cell)
            add(&fixed, cell);
    }
    for (int i = 0; i < c->words; i++)
        rest.w[i] &= ~fixed.w[i];
    cells image = map_set(c, s, theirs);
    if (count(c, &fixed) > 1 || !covers(c, mine, &fixed) || !equal(c, &image, &rest))
        return bad(
            c, "a MIRROR leaf where the prover's stones are not the opponent's image under symmetry %d", s);
    for (int w = 0; count(c, &fixed) && w < c->nwin; w++) {
        if (!meets(c, &c->win[w], &fixed))
            continue;
        bool pair = false;
        for (int cell = next(c, &c->win[w], 0); cell >= 0 && !pair; cell = next(c, &c->win[w], cell + 1))
            pair = !has(&fixed, cell) && has(&c->win[w], c->sym[s][cell]);
        if (!pair)
            return bad(c, "a MIRROR leaf: a window through the fixed cell holds no cell with its image");
    }
    c->mirrors++;
    return true;
}

/* The empty cells that complete a line of `side` (a window free of `other` missing one cell): under misère,
 * cells that side never takes without losing at once. */
static cells poison_of(const checker *c, const cells *side, const cells *other, const cells *empty)
{
    cells out = {{0}};
    for (int w = 0; w < c->nwin; w++)
        if (!meets(c, &c->win[w], other) && count_in(c, &c->win[w], side) == c->k - 1)
            for (int i = 0; i < c->words; i++)
                out.w[i] |= c->win[w].w[i] & empty->w[i];
    return out;
}

/*
 * The AVOID leaf (misère): the prover never completes a line. With L its moves left if the board fills (of
 * the E empty cells, ceil(E / 2) with the prover to move, floor(E / 2) otherwise), a window is a danger when
 * it holds no opponent stone and lacks at most L prover stones (no other can ever be filled by the prover:
 * its need never falls below its moves left). Either of two arguments proves the leaf:
 *
 *   - Erdos-Selfridge: the sum over the dangers of 2^-(stones lacking) is below 1/2. The prover takes the
 *     empty cell whose dangers weigh least; its move at most doubles the sum (below 1: nothing filled), and
 *     the opponent's next move kills dangers weighing at least as much, so the sum is below 1/2 at each of
 *     the prover's turns, while a filled line alone weighs 1.
 *   - Pairs and counting: the leaf's pairs; F, the empty cells of the dangers that hold no pair (both
 *     cells), none of them in a pair; R, the empty cells outside pairs and F that complete an opponent's
 *     line (the opponent never takes one: it would lose at once), N, the other empty cells outside pairs and
 *     F, and P, the pairs: R + P + ceil(N / 2) >= L with the prover to move, R + P + floor(N / 2) >= L
 *     otherwise. The prover answers a move into a pair with its partner, and else takes a cell of N, or of R,
 *     or breaks a pair (leaving its partner to the opponent); it never takes a cell of F nor both cells of a
 *     pair, so every danger keeps an empty cell or gets an opponent stone; and each of its free moves with
 *     the opponent's reply (and its answer) lowers the left side by at most what it lowers L, so a cell is
 *     always there.
 */
static bool avoids(const checker *c, const cells *mine, const cells *theirs, const cells *empty, bool to_move)
{
    const int empties = count(c, empty), left = to_move ? (empties + 1) / 2 : empties / 2;
    cells fenced = {{0}};
    uint64_t weight = 0; /* the sum, in units of 2^-k: k <= TTT_MAX_SIDE and at most MAX_WINDOWS windows */
    for (int w = 0; w < c->nwin; w++) {
        const cells *win = &c->win[w];
        int lacking = c->k - count_in(c, win, mine);
        if (meets(c, win, theirs) || lacking > left)
            continue;
        weight += UINT64_C(1) << (c->k - lacking);
        bool paired = false;
        for (int cell = next(c, win, 0); cell >= 0 && !paired; cell = next(c, win, cell + 1))
            paired = c->partner[cell] >= 0 && has(win, c->partner[cell]);
        if (!paired)
            for (int i = 0; i < c->words; i++)
                fenced.w[i] |= win->w[i] & empty->w[i];
    }
    if (2 * weight < UINT64_C(1) << c->k)
        return true;
    cells poison = poison_of(c, theirs, mine, empty);
    int pairs = 0, reserved = 0, shared = 0;
    for (int cell = next(c, empty, 0); cell >= 0; cell = next(c, empty, cell + 1)) {
        if (c->partner[cell] >= 0) {
            if (has(&fenced, cell))
                return false;
            pairs += c->partner[cell] > cell;
        } else if (!has(&fenced, cell)) {
            reserved += has(&poison, cell);
            shared += !has(&poison, cell);
        }
    }
    return reserved + pairs + (to_move ? (shared + 1) / 2 : shared / 2) >= left;
}

/* The AVOID and DOOMED leaves (misère): the prover avoids (avoids()); DOOMED also claims that the opponent
 * loses: fewer of the empty cells than its moves left complete no line of its own. Playing only such cells
 * (a cell that completes one never stops doing so: its window keeps its stones), the opponent runs out of
 * them before the board fills, while the prover ends no game: the opponent completes a line. */
static bool check_avoid(checker *c, int tag, const cells *mine, const cells *theirs, const cells *empty,
                        bool to_move)
{
    int n;
    if (!read_pairs(c, empty, &n))
        return false;
    if (!avoids(c, mine, theirs, empty, to_move))
        return bad(c, "an %s leaf, but the counting does not show that the prover avoids its lines",
                   tag == TTT_CERT_AVOID ? "AVOID" : "DOOMED");
    if (tag == TTT_CERT_DOOMED) {
        const int empties = count(c, empty), left = to_move ? empties / 2 : (empties + 1) / 2;
        cells poison = poison_of(c, theirs, mine, empty);
        if (empties - count_in(c, empty, &poison) >= left)
            return bad(c,
                       "a DOOMED leaf, but the opponent has as many cells that complete no line of its own "
                       "as moves left");
    }
    c->avoids++;
    return true;
}

static bool check_node(checker *c, const cells *x, const cells *o, int last);

/* Plays cell for the side to move and checks the child's node. */
static bool check_child(checker *c, const cells *x, const cells *o, bool x_to_move, int cell)
{
    c->path[c->depth++] = cell;
    cells nx = x_to_move ? with(*x, cell) : *x, no = x_to_move ? *o : with(*o, cell);
    bool ok = check_node(c, &nx, &no, cell);
    c->depth--;
    return ok;
}

/* The opponent's moves up to the position's own symmetries: the least cell of each orbit, increasing. */
static int move_orbits(const checker *c, const cells *x, const cells *o, int *out)
{
    int stab[MAX_SYMS], nstab = 0, n = 0;
    for (int s = 1; s < c->nsym; s++) {
        cells mx = map_set(c, s, x), mo = map_set(c, s, o);
        if (equal(c, &mx, x) && equal(c, &mo, o))
            stab[nstab++] = s;
    }
    cells empty = c->all;
    for (int i = 0; i < c->words; i++)
        empty.w[i] &= ~(x->w[i] | o->w[i]);
    for (int cell = next(c, &empty, 0); cell >= 0; cell = next(c, &empty, cell + 1)) {
        bool least = true;
        for (int i = 0; i < nstab && least; i++)
            least = c->sym[stab[i]][cell] >= cell;
        if (least)
            out[n++] = cell;
    }
    return n;
}

static bool check_node(checker *c, const cells *x, const cells *o, int last)
{
    bool x_to_move = count(c, x) == count(c, o);
    int mover = x_to_move ? 0 : 1, tag;
    const cells *mine = c->prover == 0 ? x : o, *theirs = c->prover == 0 ? o : x;
    cells empty = c->all;
    for (int i = 0; i < c->words; i++)
        empty.w[i] &= ~(x->w[i] | o->w[i]);
    /* The game is over when the last move completed a line for the side that made it, or filled the board. */
    bool line = last >= 0 && has_line_through(c, x_to_move ? o : x, last);
    if (line || count(c, &empty) == 0) {
        c->nodes++;
        if (!read_byte(c, &tag))
            return false;
        if (tag != TTT_CERT_END)
            return bad(c, "the game is over here, but the node is not an END leaf (tag %d)", tag);
        /* Whose line it is: the side that just moved, the other of mover. */
        int outcome = 0; /* for the prover: 1 win, 0 draw, -1 loss */
        if (line) {
            bool last_wins = !c->misere;
            bool prover_moved_last = (mover ^ 1) == c->prover;
            outcome = last_wins == prover_moved_last ? 1 : -1;
        }
        if (outcome < (c->target == TTT_CERT_WIN ? 1 : 0))
            return bad(c, "the game ends here with an outcome that misses the half's target");
        return true;
    }
    /* A WIN leaf: not written (ttt/certificate.h). */
    if (!c->misere && mover == c->prover && wins_now(c, mine, theirs)) {
        c->wins++;
        return true;
    }
    c->nodes++;
    if (!read_byte(c, &tag))
        return false;
    uint64_t key[2 * WORDS];
    canonical(c, x, o, key);
    switch (tag) {
    case TTT_CERT_END: return bad(c, "an END leaf, but the game is not over");
    case TTT_CERT_SEEN:
        if (!set_has(&c->done, key))
            return bad(c, "a SEEN leaf for a position not proven before");
        c->seen++;
        return true;
    case TTT_CERT_PAIRING:
        if (c->misere || c->target != TTT_CERT_NOT_LOSE)
            return bad(c, "a PAIRING leaf proves only that a side does not lose, under normal rules");
        if (!check_pairing(c, mine, &empty))
            return false;
        break;
    case TTT_CERT_MIRROR:
        if (!c->misere || c->target != TTT_CERT_NOT_LOSE || mover == c->prover)
            return bad(c, "a MIRROR leaf proves only that a side does not lose under misère rules, with the "
                          "opponent to move");
        if (!check_mirror(c, mine, theirs))
            return false;
        break;
    case TTT_CERT_AVOID:
    case TTT_CERT_DOOMED:
        /* Not among the positions proven: the writer finds the leaf again where the position comes back. */
        if (!c->misere || (tag == TTT_CERT_AVOID && c->target != TTT_CERT_NOT_LOSE))
            return bad(c, "an %s leaf proves only that a side %s under misère rules",
                       tag == TTT_CERT_AVOID ? "AVOID" : "DOOMED",
                       tag == TTT_CERT_AVOID ? "does not lose" : "wins");
        return check_avoid(c, tag, mine, theirs, &empty, mover == c->prover);
    case TTT_CERT_MOVE: {
        int cell;
        if (mover != c->prover)
            return bad(c, "a MOVE node where the opponent is to move");
        if (!read_cell(c, &cell))
            return false;
        if (cell >= c->cells || !has(&empty, cell))
            return bad(c, "the move to cell %d is not to an empty cell", cell);
        if (!check_child(c, x, o, x_to_move, cell))
            return false;
        break;
    }
    case TTT_CERT_ALL: {
        int n, moves[MAX_CELLS];
        if (mover == c->prover)
            return bad(c, "an ALL node where the prover is to move");
        if (!read_cell(c, &n))
            return false;
        int want = move_orbits(c, x, o, moves);
        if (n != want)
            return bad(c, "the opponent has %d moves up to symmetry, the node answers a different number",
                       want);
        for (int i = 0; i < n; i++)
            if (!check_child(c, x, o, x_to_move, moves[i]))
                return false;
        break;
    }
    default: return bad(c, "unknown node tag %d", tag);
    }
    if (!set_add(&c->done, key)) {
        c->st = ttt_fail(c->err, TTT_ENOMEM, "verify: out of memory for the positions proven");
        return false;
    }
    return true;
}

/* --- The certificate ------------------------------------------------------------------------------------ */

/* Reads the start's stones: (cells + 7) / 8 bytes, bit c % 8 of byte c / 8 for cell c. */
static bool read_stones(checker *c, cells *out)
{
    memset(out, 0, sizeof *out);
    unsigned char b[(MAX_CELLS + 7) / 8];
    size_t n = (size_t)(c->cells + 7) / 8;
    if (fread(b, 1, n, c->in) != n)
        return false;
    c->bytes += n;
    for (int cell = 0; cell < 8 * (int)n; cell++)
        if (b[cell / 8] >> (cell % 8) & 1) {
            if (cell >= c->cells)
                return false;
            add(out, cell);
        }
    return true;
}

static ttt_status check_header(checker *c, const unsigned char *h, ttt_verify_report *out, cells *x, cells *o)
{
    static const char *const old[] = {TTT_CERT_MAGIC_V1, TTT_CERT_MAGIC_V2};
    for (int v = 0; v < (int)(sizeof old / sizeof old[0]); v++)
        if (memcmp(h, old[v], 8) == 0)
            return ttt_fail(c->err, TTT_EINVAL,
                            "a version %d certificate (%s): this ttt reads %s; write it again with ttt solve "
                            "--certificate",
                            v + 1, old[v], TTT_CERT_MAGIC);
    /* "TTTCERT" and another version character: a format this ttt does not know (a newer ttt's), not junk. */
    if (memcmp(h, TTT_CERT_MAGIC, CERT_MAGIC_STEM) == 0 && memcmp(h, TTT_CERT_MAGIC, 8) != 0 &&
        isprint(h[CERT_MAGIC_STEM]))
        return ttt_fail(c->err, TTT_EINVAL,
                        "a certificate of another version (%.*s%c): this ttt reads %s; write it again with "
                        "this ttt's solve --certificate",
                        (int)CERT_MAGIC_STEM, TTT_CERT_MAGIC, h[CERT_MAGIC_STEM], TTT_CERT_MAGIC);
    if (memcmp(h, TTT_CERT_MAGIC, 8) != 0)
        return ttt_fail(c->err, TTT_EINVAL, "not a ttt certificate (no %s at its start)", TTT_CERT_MAGIC);
    c->rules = (ttt_rules){.rows = h[8], .cols = h[9], .k = h[10], .misere = h[11] != 0};
    ttt_error sub;
    if (h[11] > 1 || ttt_rules_check(&c->rules, &sub))
        return ttt_fail(c->err, TTT_EINVAL, "certificate header: bad rules (%s)",
                        h[11] > 1 ? "misère byte" : sub.msg);
    c->rows = h[8];
    c->cols = h[9];
    c->k = h[10];
    c->misere = h[11] != 0;
    c->cells = c->rows * c->cols;
    if (c->cells > MAX_CELLS || c->k > TTT_MAX_SIDE)
        return ttt_fail(c->err, TTT_EINVAL, "certificate header: %d cells, at most %d", c->cells, MAX_CELLS);
    c->words = (c->cells + 63) / 64;
    c->wide = c->cells >= TTT_CERT_WIDE_CELLS;
    c->done.size = 2 * (size_t)c->words;
    geometry(c);
    if (!read_stones(c, x) || !read_stones(c, o))
        return ferror(c->in) ? read_failed(c->err)
                             : ttt_fail(c->err, TTT_EINVAL, "certificate header: bad start stones");
    int nx = count(c, x), no = count(c, o);
    cells both = *x;
    for (int i = 0; i < c->words; i++)
        both.w[i] |= o->w[i];
    if (meets(c, x, o) || nx < no || nx > no + 1 || has_line(c, x) || has_line(c, o) ||
        equal(c, &both, &c->all))
        return ttt_fail(c->err, TTT_EINVAL, "certificate header: the start is not an ongoing position");
    if (h[12] > 2 || h[13] < 1 || h[13] > TTT_CERT_MAX_HALVES || h[14] || h[15])
        return ttt_fail(c->err, TTT_EINVAL, "certificate header: bad value or halves");
    out->value = (ttt_result)(h[12] - 1);
    out->halves = h[13];
    if ((out->value == TTT_DRAW_VALUE) != (out->halves == 2))
        return ttt_fail(c->err, TTT_EINVAL, "certificate header: a %s takes %d halves, not %d",
                        ttt_result_name(out->value), out->value == TTT_DRAW_VALUE ? 2 : 1, out->halves);
    memcpy(out->x.w, x->w, sizeof x->w);
    memcpy(out->o.w, o->w, sizeof o->w);
    return TTT_OK;
}

/* The half a value needs, number i: (prover, target). */
static void half_wanted(ttt_result value, int to_move, int i, int *prover, int *target)
{
    if (value == TTT_DRAW_VALUE) {
        *prover = i;
        *target = TTT_CERT_NOT_LOSE;
    } else {
        *prover = value == TTT_WIN ? to_move : to_move ^ 1;
        *target = TTT_CERT_WIN;
    }
}

ttt_status ttt_verify_certificate(FILE *in, ttt_verify_report *out, ttt_error *err)
{
    double start = ttt_clock_ms();
    memset(out, 0, sizeof *out);
    errno = 0; /* read_failed's reason is the failing read's */
    checker *c = calloc(1, sizeof *c);
    if (!c)
        return ttt_fail(err, TTT_ENOMEM, "verify: out of memory");
    c->in = in;
    c->err = err;
    unsigned char h[TTT_CERT_HEADER_FIXED];
    cells x = {{0}}, o = {{0}};
    ttt_status st = TTT_OK;
    if (fread(h, 1, sizeof h, in) != sizeof h)
        st =
            ferror(in) ? read_failed(err) : ttt_fail(err, TTT_EINVAL, "certificate: shorter than its header");
    c->bytes = sizeof h;
    if (!st)
        st = check_header(c, h, out, &x, &o);
    if (!st && !set_grow(&c->done, SET_START))
        st = ttt_fail(err, TTT_ENOMEM, "verify: out of memory");
    int to_move = count(c, &x) == count(c, &o) ? 0 : 1;
    for (int i = 0; !st && i < out->halves; i++) {
        int byte, prover, target;
        half_wanted(out->value, to_move, i, &prover, &target);
        c->prover = prover;
        c->target = target;
        c->depth = 0;
        if (!read_byte(c, &byte)) {
            st = c->st;
            break;
        }
        if (byte != prover + 2 * target) {
            st = ttt_fail(err, TTT_EINVAL, "certificate: half %d proves something else than a %s needs",
                          i + 1, ttt_result_name(out->value));
            break;
        }
        set_clear(&c->done);
        if (!check_node(c, &x, &o, -1))
            st = c->st;
    }
    unsigned char t[16];
    if (!st && (fread(t, 1, sizeof t, in) != sizeof t || memcmp(t, TTT_CERT_END_MAGIC, 8) != 0 ||
                le64(t + 8) != c->nodes || getc(in) != EOF))
        st = ttt_fail(err, TTT_EINVAL,
                      "certificate: bad trailer after %llu nodes (not %s and the node count, "
                      "or bytes after it)",
                      (unsigned long long)c->nodes, "TTTEND");
    out->rules = c->rules;
    out->nodes = c->nodes;
    out->wins = c->wins;
    out->pairings = c->pairings;
    out->mirrors = c->mirrors;
    out->avoids = c->avoids;
    out->seen = c->seen;
    out->bytes = c->bytes + sizeof t;
    out->ms = ttt_clock_ms() - start;
    free(c->done.keys);
    free(c->done.used);
    free(c);
    return st;
}
