/*
 * verify/verify.c - the certificate checker (ttt/verify.h; the format: ttt/certificate.h).
 *
 * Everything here is its own on purpose: the board (two 64-bit sets), the windows, the symmetries, the
 * orbits of moves and the pairing check are written again from the rules, so that the checker trusts no line
 * of the solver. A node is checked as it is read; the positions checked are kept in a set (exact keys: the
 * least image of both stone sets under the board's symmetries), which SEEN leaves must hit.
 */
#include "ttt/verify.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ttt/certificate.h"
#include "util/error.h"

#define MAX_CELLS   TTT_CERT_MAX_CELLS
#define MAX_WINDOWS (4 * MAX_CELLS)
#define MAX_SYMS    8
#define SET_START   1024 /* slots of the set of positions proven at first (a power of two) */
#define MOVE_TEXT   8

typedef struct key {
    uint64_t x, o;
} key;

/* The positions proven in the half under way: open addressing, grown at half full. */
typedef struct key_set {
    key *slot;
    uint8_t *used;
    size_t mask, count;
} key_set;

typedef struct checker {
    ttt_rules rules;
    int rows, cols, cells, k;
    bool misere;
    uint64_t all;
    int nwin;
    uint64_t win[MAX_WINDOWS];
    int ncell_win[MAX_CELLS];
    uint64_t cell_win[MAX_CELLS][4 * 8]; /* windows through a cell: at most k per direction, k <= 8 */
    int nsym;
    int sym[MAX_SYMS][MAX_CELLS];
    FILE *in;
    uint64_t bytes, nodes, pairings, mirrors, seen;
    key_set done;
    int prover, target; /* of the half under way */
    int path[MAX_CELLS], depth;
    ttt_error *err;
    ttt_status st;
} checker;

/* --- Geometry: the windows and symmetries, from the rules alone ----------------------------------------- */

static void add_window(checker *c, int r, int col, int dr, int dc)
{
    uint64_t w = 0;
    for (int i = 0; i < c->k; i++)
        w |= UINT64_C(1) << ((r + i * dr) * c->cols + col + i * dc);
    c->win[c->nwin++] = w;
    for (int cell = 0; cell < c->cells; cell++)
        if (w >> cell & 1)
            c->cell_win[cell][c->ncell_win[cell]++] = w;
}

static void geometry(checker *c)
{
    static const int dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    c->all = c->cells == 64 ? ~UINT64_C(0) : (UINT64_C(1) << c->cells) - 1;
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
                    c->sym[c->nsym][cell] = swap ? col * c->cols + r : r * c->cols + col;
                }
                c->nsym++;
            }
}

static uint64_t map_set(const checker *c, int s, uint64_t set)
{
    uint64_t out = 0;
    for (; set; set &= set - 1)
        out |= UINT64_C(1) << c->sym[s][__builtin_ctzll(set)];
    return out;
}

static key canonical(const checker *c, uint64_t x, uint64_t o)
{
    key best = {x, o};
    for (int s = 1; s < c->nsym; s++) {
        key k = {map_set(c, s, x), map_set(c, s, o)};
        if (k.x < best.x || (k.x == best.x && k.o < best.o))
            best = k;
    }
    return best;
}

static bool has_line_through(const checker *c, uint64_t stones, int cell)
{
    for (int i = 0; i < c->ncell_win[cell]; i++)
        if ((stones & c->cell_win[cell][i]) == c->cell_win[cell][i])
            return true;
    return false;
}

static bool has_line(const checker *c, uint64_t stones)
{
    for (int i = 0; i < c->nwin; i++)
        if ((stones & c->win[i]) == c->win[i])
            return true;
    return false;
}

/* --- The set of positions proven ------------------------------------------------------------------------ */

static size_t key_hash(key k)
{
    uint64_t h = k.x * UINT64_C(0x9E3779B97F4A7C15) ^
                 (k.o + UINT64_C(0x632BE59BD9B4E019)) * UINT64_C(0xD6E8FEB86659FD93);
    return (size_t)(h ^ h >> 31);
}

static bool set_has(const key_set *s, key k)
{
    for (size_t i = key_hash(k) & s->mask; s->used[i]; i = (i + 1) & s->mask)
        if (s->slot[i].x == k.x && s->slot[i].o == k.o)
            return true;
    return false;
}

static bool set_grow(key_set *s, size_t slots)
{
    key *slot = malloc(slots * sizeof *slot);
    uint8_t *used = calloc(slots, 1);
    if (!slot || !used) {
        free(slot);
        free(used);
        return false;
    }
    for (size_t i = 0; s->slot && i <= s->mask; i++)
        if (s->used[i]) {
            size_t j = key_hash(s->slot[i]) & (slots - 1);
            while (used[j])
                j = (j + 1) & (slots - 1);
            slot[j] = s->slot[i];
            used[j] = 1;
        }
    free(s->slot);
    free(s->used);
    s->slot = slot;
    s->used = used;
    s->mask = slots - 1;
    return true;
}

static bool set_add(key_set *s, key k)
{
    if (set_has(s, k))
        return true;
    if ((s->count + 1) * 2 > s->mask + 1 && !set_grow(s, (s->mask + 1) * 2))
        return false;
    size_t i = key_hash(k) & s->mask;
    while (s->used[i])
        i = (i + 1) & s->mask;
    s->slot[i] = k;
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
            c->st = ttt_fail(c->err, TTT_EIO, "certificate: read error");
        else
            bad(c, "the certificate ends in the middle of a node");
        return false;
    }
    c->bytes++;
    *out = ch;
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

/* The pairing leaf: n disjoint pairs of empty cells, one inside every window free of the prover's stones. */
static bool check_pairing(checker *c, uint64_t mine, uint64_t empty)
{
    int n, partner[MAX_CELLS];
    if (!read_byte(c, &n))
        return false;
    for (int i = 0; i < c->cells; i++)
        partner[i] = -1;
    for (int i = 0; i < n; i++) {
        int a, b;
        if (!read_byte(c, &a) || !read_byte(c, &b))
            return false;
        if (a >= c->cells || b >= c->cells || a == b || !(empty >> a & 1) || !(empty >> b & 1) ||
            partner[a] >= 0 || partner[b] >= 0)
            return bad(c, "pair %d is not two distinct empty cells of no other pair", i + 1);
        partner[a] = b;
        partner[b] = a;
    }
    for (int w = 0; w < c->nwin; w++) {
        if (c->win[w] & mine)
            continue;
        bool held = false;
        for (uint64_t cells = c->win[w]; cells && !held; cells &= cells - 1) {
            int cell = __builtin_ctzll(cells);
            held = partner[cell] >= 0 && (c->win[w] >> partner[cell] & 1);
        }
        if (!held)
            return bad(c, "the window %c%d-%c%d, which the opponent can still complete, holds no pair",
                       'a' + __builtin_ctzll(c->win[w]) % c->cols, __builtin_ctzll(c->win[w]) / c->cols + 1,
                       'a' + (63 - __builtin_clzll(c->win[w])) % c->cols,
                       (63 - __builtin_clzll(c->win[w])) / c->cols + 1);
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
static bool check_mirror(checker *c, uint64_t mine, uint64_t theirs)
{
    int s;
    if (!read_byte(c, &s))
        return false;
    if (s >= c->nsym)
        return bad(c, "a MIRROR leaf with symmetry %d of %d", s, c->nsym);
    uint64_t fixed = 0;
    for (int cell = 0; cell < c->cells; cell++) {
        if (c->sym[s][c->sym[s][cell]] != cell)
            return bad(c, "a MIRROR leaf whose symmetry %d is not its own inverse", s);
        if (c->sym[s][cell] == cell)
            fixed |= UINT64_C(1) << cell;
    }
    if (__builtin_popcountll(fixed) > 1 || (fixed & ~mine) || map_set(c, s, theirs) != (mine & ~fixed))
        return bad(
            c, "a MIRROR leaf where the prover's stones are not the opponent's image under symmetry %d", s);
    for (int w = 0; fixed && w < c->nwin; w++) {
        if (!(c->win[w] & fixed))
            continue;
        bool pair = false;
        for (uint64_t cells = c->win[w] & ~fixed; cells && !pair; cells &= cells - 1)
            pair = c->win[w] >> c->sym[s][__builtin_ctzll(cells)] & 1;
        if (!pair)
            return bad(c, "a MIRROR leaf: a window through the fixed cell holds no cell with its image");
    }
    c->mirrors++;
    return true;
}

static bool check_node(checker *c, uint64_t x, uint64_t o, int last);

/* Plays cell for the side to move and checks the child's node. */
static bool check_child(checker *c, uint64_t x, uint64_t o, bool x_to_move, int cell)
{
    c->path[c->depth++] = cell;
    bool ok = x_to_move ? check_node(c, x | UINT64_C(1) << cell, o, cell)
                        : check_node(c, x, o | UINT64_C(1) << cell, cell);
    c->depth--;
    return ok;
}

/* The opponent's moves up to the position's own symmetries: the least cell of each orbit, increasing. */
static int move_orbits(const checker *c, uint64_t x, uint64_t o, int *out)
{
    int stab[MAX_SYMS], nstab = 0, n = 0;
    for (int s = 0; s < c->nsym; s++)
        if (map_set(c, s, x) == x && map_set(c, s, o) == o)
            stab[nstab++] = s;
    uint64_t empty = c->all & ~(x | o);
    for (uint64_t e = empty; e; e &= e - 1) {
        int cell = __builtin_ctzll(e);
        bool least = true;
        for (int i = 0; i < nstab && least; i++)
            least = c->sym[stab[i]][cell] >= cell;
        if (least)
            out[n++] = cell;
    }
    return n;
}

static bool check_node(checker *c, uint64_t x, uint64_t o, int last)
{
    c->nodes++;
    int tag;
    if (!read_byte(c, &tag))
        return false;
    bool x_to_move = __builtin_popcountll(x) == __builtin_popcountll(o);
    int mover = x_to_move ? 0 : 1;
    uint64_t mine = c->prover == 0 ? x : o, theirs = c->prover == 0 ? o : x;
    /* The game is over when the last move completed a line for the side that made it, or filled the board. */
    bool line = last >= 0 && has_line_through(c, x_to_move ? o : x, last);
    if (line || (x | o) == c->all) {
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
    uint64_t empty = c->all & ~(x | o);
    key k = canonical(c, x, o);
    switch (tag) {
    case TTT_CERT_END: return bad(c, "an END leaf, but the game is not over");
    case TTT_CERT_SEEN:
        if (!set_has(&c->done, k))
            return bad(c, "a SEEN leaf for a position not proven before");
        c->seen++;
        return true;
    case TTT_CERT_PAIRING:
        if (c->misere || c->target != TTT_CERT_NOT_LOSE)
            return bad(c, "a PAIRING leaf proves only that a side does not lose, under normal rules");
        if (!check_pairing(c, mine, empty))
            return false;
        break;
    case TTT_CERT_MIRROR:
        if (!c->misere || c->target != TTT_CERT_NOT_LOSE || mover == c->prover)
            return bad(c, "a MIRROR leaf proves only that a side does not lose under misère rules, with the "
                          "opponent to move");
        if (!check_mirror(c, mine, theirs))
            return false;
        break;
    case TTT_CERT_MOVE: {
        int cell;
        if (mover != c->prover)
            return bad(c, "a MOVE node where the opponent is to move");
        if (!read_byte(c, &cell))
            return false;
        if (cell >= c->cells || !(empty >> cell & 1))
            return bad(c, "the move to cell %d is not to an empty cell", cell);
        if (!check_child(c, x, o, x_to_move, cell))
            return false;
        break;
    }
    case TTT_CERT_ALL: {
        int n, cells[MAX_CELLS];
        if (mover == c->prover)
            return bad(c, "an ALL node where the prover is to move");
        if (!read_byte(c, &n))
            return false;
        int want = move_orbits(c, x, o, cells);
        if (n != want)
            return bad(c, "the opponent has %d moves up to symmetry, the node answers a different number",
                       want);
        for (int i = 0; i < n; i++)
            if (!check_child(c, x, o, x_to_move, cells[i]))
                return false;
        break;
    }
    default: return bad(c, "unknown node tag %d", tag);
    }
    if (!set_add(&c->done, k)) {
        c->st = ttt_fail(c->err, TTT_ENOMEM, "verify: out of memory for the positions proven");
        return false;
    }
    return true;
}

/* --- The certificate ------------------------------------------------------------------------------------ */

static ttt_status check_header(checker *c, const unsigned char *h, ttt_verify_report *out)
{
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
    if (c->cells > MAX_CELLS)
        return ttt_fail(c->err, TTT_EINVAL, "certificate header: %d cells, at most %d", c->cells, MAX_CELLS);
    geometry(c);
    out->x = le64(h + 16);
    out->o = le64(h + 24);
    int nx = __builtin_popcountll(out->x), no = __builtin_popcountll(out->o);
    if ((out->x | out->o) & ~c->all || out->x & out->o || nx < no || nx > no + 1 || has_line(c, out->x) ||
        has_line(c, out->o) || (out->x | out->o) == c->all)
        return ttt_fail(c->err, TTT_EINVAL, "certificate header: the start is not an ongoing position");
    if (h[12] > 2 || h[13] < 1 || h[13] > TTT_CERT_MAX_HALVES || h[14] || h[15])
        return ttt_fail(c->err, TTT_EINVAL, "certificate header: bad value or halves");
    out->value = (ttt_result)(h[12] - 1);
    out->halves = h[13];
    if ((out->value == TTT_DRAW_VALUE) != (out->halves == 2))
        return ttt_fail(c->err, TTT_EINVAL, "certificate header: a %s takes %d halves, not %d",
                        ttt_result_name(out->value), out->value == TTT_DRAW_VALUE ? 2 : 1, out->halves);
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
    checker *c = calloc(1, sizeof *c);
    if (!c)
        return ttt_fail(err, TTT_ENOMEM, "verify: out of memory");
    c->in = in;
    c->err = err;
    unsigned char h[TTT_CERT_HEADER];
    ttt_status st = TTT_OK;
    if (fread(h, 1, sizeof h, in) != sizeof h)
        st = ferror(in) ? ttt_fail(err, TTT_EIO, "certificate: read error")
                        : ttt_fail(err, TTT_EINVAL, "certificate: shorter than its header");
    if (!st)
        st = check_header(c, h, out);
    if (!st && !set_grow(&c->done, SET_START))
        st = ttt_fail(err, TTT_ENOMEM, "verify: out of memory");
    c->bytes = sizeof h;
    int to_move = __builtin_popcountll(out->x) == __builtin_popcountll(out->o) ? 0 : 1;
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
        if (!check_node(c, out->x, out->o, -1))
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
    out->pairings = c->pairings;
    out->mirrors = c->mirrors;
    out->seen = c->seen;
    out->bytes = c->bytes + sizeof t;
    out->ms = ttt_clock_ms() - start;
    free(c->done.slot);
    free(c->done.used);
    free(c);
    return st;
}
