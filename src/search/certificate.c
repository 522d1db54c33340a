/*
 * search/certificate.c - writing a solved position as a checkable strategy (ttt/certificate.h: the format).
 *
 * The proof is walked depth first from the start, for each half: at the prover's nodes one move, chosen by
 * an oracle; at the opponent's nodes every move up to the position's symmetries; down to leaves (the game
 * over, a pairing, a position written before). The oracle is the solver that proved the value, its table
 * warm: its draw prover (search/prove.h) where it has one and the half is "does not lose" (that prover's
 * table holds the proof's own positions), else its node search with the window (-1, 1), which tells win,
 * draw and loss apart. Pairings come from the pairing finder (search/pairing.h); the checker checks them on
 * its own. The writer keeps only the set of positions written (SEEN leaves), never the proof.
 *
 * The walk is in the caller's cells (the file's); the solver and its prover see a board with more rows than
 * columns turned sideways (solve_impl.h), so positions cross to them through inner_set().
 */
#include "ttt/certificate.h"

#include <stdlib.h>
#include <string.h>

#include "rules/lines.h"
#include "search/pairing.h"
#include "search/prove.h"
#include "search/solve_impl.h"
#include "util/error.h"

#define SET_START 1024 /* slots of the set of positions written at first (a power of two) */

typedef struct pos_key {
    uint64_t x, o;
} pos_key;

typedef struct writer {
    ttt_solver *s;
    const ttt_lines *lines; /* the caller's board (the solver's may be turned sideways) */
    pairing_lines64 pairs;
    uint64_t all;
    int cells;
    bool misere;
    int prover, target; /* of the half under way */
    FILE *out;
    ttt_certificate_stats st;
    pos_key *slot; /* the positions written in the half under way (canonical), open addressing */
    uint8_t *used;
    size_t mask, count;
    ttt_error *err;
    ttt_status status;
} writer;

static uint64_t bit(int cell) { return UINT64_C(1) << cell; }

/* --- The positions written ------------------------------------------------------------------------------ */

static uint64_t map_set(const ttt_lines *lines, int sy, uint64_t set)
{
    uint64_t out = 0;
    for (; set; set &= set - 1)
        out |= bit(lines->sym[sy][__builtin_ctzll(set)]);
    return out;
}

static pos_key canonical(const writer *w, uint64_t x, uint64_t o)
{
    pos_key best = {x, o};
    for (int sy = 1; sy < w->lines->nsym; sy++) {
        pos_key k = {map_set(w->lines, sy, x), map_set(w->lines, sy, o)};
        if (k.x < best.x || (k.x == best.x && k.o < best.o))
            best = k;
    }
    return best;
}

static size_t key_slot(const writer *w, pos_key k)
{
    uint64_t h = (k.x ^ k.o * UINT64_C(0x9E3779B97F4A7C15)) * UINT64_C(0xBF58476D1CE4E5B9);
    return (size_t)(h ^ h >> 29) & w->mask;
}

static bool written(const writer *w, pos_key k)
{
    for (size_t i = key_slot(w, k); w->used[i]; i = (i + 1) & w->mask)
        if (w->slot[i].x == k.x && w->slot[i].o == k.o)
            return true;
    return false;
}

static bool set_resize(writer *w, size_t slots)
{
    pos_key *old = w->slot;
    uint8_t *old_used = w->used;
    size_t old_slots = old ? w->mask + 1 : 0;
    w->slot = malloc(slots * sizeof *w->slot);
    w->used = calloc(slots, 1);
    if (!w->slot || !w->used) {
        free(w->slot);
        free(w->used);
        w->slot = old;
        w->used = old_used;
        return false;
    }
    w->mask = slots - 1;
    for (size_t i = 0; i < old_slots; i++)
        if (old_used[i]) {
            size_t j = key_slot(w, old[i]);
            while (w->used[j])
                j = (j + 1) & w->mask;
            w->slot[j] = old[i];
            w->used[j] = 1;
        }
    free(old);
    free(old_used);
    return true;
}

static bool remember(writer *w, pos_key k)
{
    if ((w->count + 1) * 2 > w->mask + 1 && !set_resize(w, (w->mask + 1) * 2)) {
        w->status = ttt_fail(w->err, TTT_ENOMEM, "certificate: out of memory for the positions written");
        return false;
    }
    size_t i = key_slot(w, k);
    while (w->used[i])
        i = (i + 1) & w->mask;
    w->slot[i] = k;
    w->used[i] = 1;
    w->count++;
    return true;
}

/* --- Output --------------------------------------------------------------------------------------------- */

static bool put(writer *w, const uint8_t *bytes, size_t n)
{
    if (w->status)
        return false;
    if (fwrite(bytes, 1, n, w->out) != n) {
        w->status = ttt_fail(w->err, TTT_EIO, "certificate: write error");
        return false;
    }
    w->st.bytes += n;
    return true;
}

static bool put2(writer *w, int a, int b) { return put(w, (const uint8_t[]){(uint8_t)a, (uint8_t)b}, 2); }

static void le64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* --- The oracle ----------------------------------------------------------------------------------------- */

/* A set of the caller's cells as the solver sees them. */
static uint64_t inner_set(const ttt_solver *s, uint64_t set)
{
    if (!s->cfg.transposed)
        return set;
    uint64_t out = 0;
    for (; set; set &= set - 1)
        out |= bit(to_inner(s, __builtin_ctzll(set)));
    return out;
}

/* Loads a position (inner stone sets) into the solver, as its node search expects it. */
static void solver_load(ttt_solver *s, uint64_t x, uint64_t o)
{
    memset(&s->pos, 0, sizeof s->pos);
    uint64_t stones[2] = {x, o};
    for (int side = TTT_X; stones[side]; side ^= 1) {
        play(s, __builtin_ctzll(stones[side]));
        stones[side] &= stones[side] - 1;
    }
}

/* The solver's score of a position (inner stone sets, ongoing) for the side to move, searched with the
 * window (alpha, beta), fail-soft (solve_impl.h). */
static int solver_score(writer *w, uint64_t x, uint64_t o, int alpha, int beta)
{
    ttt_solver *s = w->s;
    solver_load(s, x, o);
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

/* The solver's value of a position (inner stone sets, ongoing) for the side to move: +1, 0 or -1. */
static int solver_value(writer *w, uint64_t x, uint64_t o)
{
    int score = solver_score(w, x, o, -1, 1);
    return score >= 1 ? 1 : score <= -1 ? -1 : 0;
}

/* Whether the prover, the opponent to move (the caller's stones), wins with the game over after at most
 * `end` stones in all: the opponent's score is at most -(TTT_SCORE_WIN - end). Bounding the end keeps a win's
 * proof as short as the solver's line (6x6k4: 136M nodes and counting without). */
static bool wins_by(writer *w, uint64_t x, uint64_t o, int end)
{
    int bound = -(TTT_SCORE_WIN - end);
    return solver_score(w, inner_set(w->s, x), inner_set(w->s, o), bound, bound + 1) <= bound;
}

/* Whether the prover reaches the half's target from the position (the caller's stones, ongoing). */
static bool half_holds(writer *w, uint64_t x, uint64_t o)
{
    ttt_solver *s = w->s;
    bool x_to_move = __builtin_popcountll(x) == __builtin_popcountll(o);
    uint64_t ix = inner_set(s, x), io = inner_set(s, o);
    if (s->proof.prover && w->target == TTT_CERT_NOT_LOSE) {
        uint64_t att = w->prover == TTT_X ? io : ix, def = w->prover == TTT_X ? ix : io;
        bool att_to_move = x_to_move == (w->prover == TTT_O);
        uint64_t used = 0;
        ttt_proof r = ttt_prover_run(s->proof.prover, att, def, att_to_move, 0, NULL, NULL, &used);
        w->st.oracle += used;
        if (r == TTT_PROOF_HOLDS)
            return true;
        /* Not proven by the prover (it may give up): the search decides. */
    }
    int v = solver_value(w, ix, io);
    if ((x_to_move ? TTT_X : TTT_O) != w->prover)
        v = -v;
    return v >= (w->target == TTT_CERT_WIN ? 1 : 0);
}

/* --- The walk ------------------------------------------------------------------------------------------- */

/* Whether the last move (cell, by `stones`' side) completed a line. */
static bool completes(const writer *w, uint64_t stones, int cell)
{
    const ttt_lines *lines = w->lines;
    for (int i = 0; i < lines->cell_nwin[cell]; i++) {
        uint64_t win = lines->win_bits[lines->cell_win[cell * lines->cell_win_max + i]].w[0];
        if ((stones & win) == win)
            return true;
    }
    return false;
}

/* The opponent's moves up to the symmetries that map the position onto itself: the least of each orbit. */
static int move_orbits(const writer *w, uint64_t x, uint64_t o, int *out)
{
    int stab[TTT_SYM_ALL], nstab = 0, n = 0;
    for (int sy = 1; sy < w->lines->nsym; sy++)
        if (map_set(w->lines, sy, x) == x && map_set(w->lines, sy, o) == o)
            stab[nstab++] = sy;
    for (uint64_t e = w->all & ~(x | o); e; e &= e - 1) {
        int cell = __builtin_ctzll(e);
        bool least = true;
        for (int i = 0; i < nstab && least; i++)
            least = w->lines->sym[stab[i]][cell] >= cell;
        if (least)
            out[n++] = cell;
    }
    return n;
}

/* Cell `cell` under the certificate's symmetry number sy (ttt/certificate.h: MIRROR). */
static int cert_sym(const writer *w, int sy, int cell)
{
    int rows = w->lines->rows, cols = w->lines->cols, r = cell / cols, c = cell % cols;
    if (sy & 2)
        r = rows - 1 - r;
    if (sy & 1)
        c = cols - 1 - c;
    return sy & 4 ? c * cols + r : r * cols + c;
}

/* A mirror leaf (ttt/certificate.h) for the prover, the opponent to move: the symmetry's number, or -1. */
static int mirror_leaf(const writer *w, uint64_t x, uint64_t o)
{
    if (!w->misere || w->target != TTT_CERT_NOT_LOSE)
        return -1;
    uint64_t mine = w->prover == TTT_X ? x : o, theirs = w->prover == TTT_X ? o : x;
    for (int sy = 1; sy < w->lines->nsym; sy++) {
        uint64_t fixed = 0, image = 0;
        bool involution = true;
        for (int cell = 0; cell < w->cells && involution; cell++) {
            involution = cert_sym(w, sy, cert_sym(w, sy, cell)) == cell;
            if (cert_sym(w, sy, cell) == cell)
                fixed |= bit(cell);
            if (theirs >> cell & 1)
                image |= bit(cert_sym(w, sy, cell));
        }
        if (!involution || __builtin_popcountll(fixed) > 1 || (fixed & ~mine) || image != (mine & ~fixed))
            continue;
        bool ok = true;
        for (int i = 0; fixed && ok && i < w->lines->nwin; i++) {
            uint64_t win = w->lines->win_bits[i].w[0];
            if (!(win & fixed))
                continue;
            bool pair = false;
            for (uint64_t cells = win & ~fixed; cells && !pair; cells &= cells - 1)
                pair = win >> cert_sym(w, sy, __builtin_ctzll(cells)) & 1;
            ok = pair;
        }
        if (ok)
            return sy;
    }
    return -1;
}

static bool pairing_leaf(writer *w, uint64_t x, uint64_t o, int *partner)
{
    if (w->misere || w->target != TTT_CERT_NOT_LOSE)
        return false;
    uint64_t mine = w->prover == TTT_X ? x : o, theirs = w->prover == TTT_X ? o : x;
    return pairing_find64(&w->pairs, theirs, mine, NULL, partner);
}

/* The prover's draw proof already holds for the position (the caller's stones): its table says so. */
static bool prover_knows(const writer *w, uint64_t x, uint64_t o)
{
    const ttt_solver *s = w->s;
    if (!s->proof.prover || w->target != TTT_CERT_NOT_LOSE)
        return false;
    bool x_to_move = __builtin_popcountll(x) == __builtin_popcountll(o);
    uint64_t ix = inner_set(s, x), io = inner_set(s, o);
    uint64_t att = w->prover == TTT_X ? io : ix, def = w->prover == TTT_X ? ix : io;
    return ttt_prover_known(s->proof.prover, att, def, x_to_move == (w->prover == TTT_O)) == TTT_PROOF_HOLDS;
}

/* The prover's move: one that completes its line (normal rules), else one after which a pairing holds, else
 * one the draw prover's table backs, else the first the oracle backs, in the solver's order (its table's
 * move first). -1 when none (the oracle does not back the value). */
static int prover_move(writer *w, uint64_t x, uint64_t o, bool x_to_move, int end)
{
    ttt_solver *s = w->s;
    uint64_t empty = w->all & ~(x | o);
    uint64_t mine = x_to_move ? x : o;
    int partner[TTT_MAX_CELLS], order[TTT_MAX_CELLS], n = 0;
    /* Moves that complete a line: a win (normal rules) or a loss (misère), never worth asking about. */
    uint64_t ends = 0;
    for (uint64_t e = empty; e; e &= e - 1)
        if (completes(w, mine | bit(__builtin_ctzll(e)), __builtin_ctzll(e)))
            ends |= bit(__builtin_ctzll(e));
    if (ends && !w->misere)
        return __builtin_ctzll(ends);
    empty &= ~ends;
    for (uint64_t e = empty; e && !w->misere && w->target == TTT_CERT_NOT_LOSE; e &= e - 1) {
        int cell = __builtin_ctzll(e);
        if (pairing_leaf(w, x_to_move ? x | bit(cell) : x, x_to_move ? o : o | bit(cell), partner))
            return cell;
    }
    for (uint64_t e = empty; e && w->misere && w->target == TTT_CERT_NOT_LOSE; e &= e - 1) {
        int cell = __builtin_ctzll(e);
        if (mirror_leaf(w, x_to_move ? x | bit(cell) : x, x_to_move ? o : o | bit(cell)) >= 0)
            return cell;
    }
    /* The solver's order at this position, its table's move first. */
    solver_load(s, inner_set(s, x), inner_set(s, o));
    int frame, hash_move = -1;
    const tt_entry *e = tt_probe(s, canonical_key(s, &frame));
    if (e && e->move >= 0)
        hash_move = s->g.lines->inv[frame][e->move];
    ttt_bits set = {0};
    for (uint64_t m = empty; m; m &= m - 1)
        ttt_bits_set(&set, to_inner(s, __builtin_ctzll(m)));
    n = solve_order_moves(s, &set, hash_move, order);
    for (int i = 0; i < n; i++)
        order[i] = to_user(s, order[i]);
    for (int i = 0; i < n; i++)
        if (prover_knows(w, x_to_move ? x | bit(order[i]) : x, x_to_move ? o : o | bit(order[i])))
            return order[i];
    for (int i = 0; i < n; i++) {
        uint64_t cx = x_to_move ? x | bit(order[i]) : x, co = x_to_move ? o : o | bit(order[i]);
        if (w->target == TTT_CERT_WIN ? (cx | co) != w->all && wins_by(w, cx, co, end)
                                      : (cx | co) == w->all || half_holds(w, cx, co))
            return order[i];
    }
    return -1;
}

/* Writes the node of the position (the caller's stones; last: the cell played last, -1 at the start) and
 * its subtree. end: a win half's bound on the stones when the game ends. */
static bool write_node(writer *w, uint64_t x, uint64_t o, int last, int end)
{
    bool x_to_move = __builtin_popcountll(x) == __builtin_popcountll(o);
    w->st.nodes++;
    if ((last >= 0 && completes(w, x_to_move ? o : x, last)) || (x | o) == w->all)
        return put(w, (const uint8_t[]){TTT_CERT_END}, 1);
    pos_key k = canonical(w, x, o);
    if (written(w, k)) {
        w->st.seen++;
        return put(w, (const uint8_t[]){TTT_CERT_SEEN}, 1);
    }
    int partner[TTT_MAX_CELLS], mirror = -1;
    if ((x_to_move ? TTT_X : TTT_O) != w->prover && (mirror = mirror_leaf(w, x, o)) >= 0) {
        w->st.mirrors++;
        if (!put2(w, TTT_CERT_MIRROR, mirror))
            return false;
    } else if (pairing_leaf(w, x, o, partner)) {
        uint8_t bytes[2 + TTT_MAX_CELLS];
        int n = 0;
        for (int cell = 0; cell < w->cells; cell++)
            if (partner[cell] > cell) {
                bytes[2 + 2 * n] = (uint8_t)cell;
                bytes[3 + 2 * n] = (uint8_t)partner[cell];
                n++;
            }
        bytes[0] = TTT_CERT_PAIRING;
        bytes[1] = (uint8_t)n;
        w->st.pairings++;
        if (!put(w, bytes, 2 + 2 * (size_t)n))
            return false;
    } else if ((x_to_move ? TTT_X : TTT_O) == w->prover) {
        int cell = prover_move(w, x, o, x_to_move, end);
        if (cell < 0) {
            if (!w->status)
                w->status = ttt_fail(w->err, TTT_ESTATE,
                                     "certificate: the solver backs no move for the prover after %d stones",
                                     __builtin_popcountll(x | o));
            return false;
        }
        if (!put2(w, TTT_CERT_MOVE, cell) ||
            !write_node(w, x_to_move ? x | bit(cell) : x, x_to_move ? o : o | bit(cell), cell, end))
            return false;
    } else {
        int cells[TTT_MAX_CELLS];
        int n = move_orbits(w, x, o, cells);
        if (!put2(w, TTT_CERT_ALL, n))
            return false;
        for (int i = 0; i < n; i++)
            if (!write_node(w, x_to_move ? x | bit(cells[i]) : x, x_to_move ? o : o | bit(cells[i]), cells[i],
                            end))
                return false;
    }
    return remember(w, k);
}

/* A win half's bound on the stones when the game ends: the solver's distance from the start (the caller's
 * stones, to_move's turn); 0 for other halves. */
static int win_end(writer *w, uint64_t x, uint64_t o, int to_move)
{
    if (w->target != TTT_CERT_WIN)
        return 0;
    uint64_t ix = inner_set(w->s, x), io = inner_set(w->s, o);
    int score = to_move == w->prover ? solver_score(w, ix, io, TTT_SCORE_PROVEN, SCORE_INF)
                                     : -solver_score(w, ix, io, -SCORE_INF, -TTT_SCORE_PROVEN);
    return TTT_SCORE_WIN - score;
}

ttt_status ttt_certificate_write(ttt_solver *solver, const ttt_board *b, ttt_result value, FILE *out,
                                 ttt_certificate_stats *stats, ttt_error *err)
{
    double start = ttt_clock_ms();
    if (b->cells > TTT_CERT_MAX_CELLS)
        return ttt_fail(err, TTT_ELIMIT, "certificate: boards of at most %d cells, not %d",
                        TTT_CERT_MAX_CELLS, b->cells);
    if (!ttt_rules_equal(&solver->cfg.rules, &b->rules) || ttt_board_terminal(b))
        return ttt_fail(err, TTT_ESTATE, "certificate: an ongoing position of the solver's rules expected");
    writer w = {
        .s = solver, .cells = b->cells, .misere = !ttt_rules_line_wins(&b->rules), .out = out, .err = err};
    w.all = b->cells == 64 ? ~UINT64_C(0) : bit(b->cells) - 1;
    ttt_status st = ttt_lines_new(&b->rules, &w.lines, err);
    if (st)
        return st;
    pairing_lines64_init(&w.pairs, w.lines);
    if (!set_resize(&w, SET_START)) {
        ttt_lines_unref(w.lines);
        return ttt_fail(err, TTT_ENOMEM, "certificate: out of memory");
    }
    uint64_t x = b->stones[TTT_X].w[0], o = b->stones[TTT_O].w[0];
    int to_move = ttt_board_to_move(b) == TTT_X ? TTT_X : TTT_O;
    int halves = value == TTT_DRAW_VALUE ? 2 : 1;
    uint8_t h[TTT_CERT_HEADER] = {0};
    memcpy(h, TTT_CERT_MAGIC, 8);
    h[8] = (uint8_t)b->rules.rows;
    h[9] = (uint8_t)b->rules.cols;
    h[10] = (uint8_t)b->rules.k;
    h[11] = w.misere;
    h[12] = (uint8_t)(value + 1);
    h[13] = (uint8_t)halves;
    le64(h + 16, x);
    le64(h + 24, o);
    put(&w, h, sizeof h);
    for (int i = 0; i < halves && !w.status; i++) {
        w.prover = value == TTT_DRAW_VALUE ? i : value == TTT_WIN ? to_move : to_move ^ 1;
        w.target = value == TTT_DRAW_VALUE ? TTT_CERT_NOT_LOSE : TTT_CERT_WIN;
        memset(w.used, 0, w.mask + 1);
        w.count = 0;
        if (put(&w, (const uint8_t[]){(uint8_t)(w.prover + 2 * w.target)}, 1))
            write_node(&w, x, o, -1, win_end(&w, x, o, to_move));
    }
    uint8_t t[16];
    memcpy(t, TTT_CERT_END_MAGIC, 8);
    le64(t + 8, w.st.nodes);
    put(&w, t, sizeof t);
    if (!w.status && fflush(out) != 0)
        w.status = ttt_fail(err, TTT_EIO, "certificate: write error");
    free(w.slot);
    free(w.used);
    ttt_lines_unref(w.lines);
    w.st.ms = ttt_clock_ms() - start;
    if (stats)
        *stats = w.st;
    return w.status;
}

ttt_status ttt_certificate_write_node(ttt_solver *solver, const ttt_board *b, int prover, int target,
                                      FILE *out, ttt_certificate_stats *stats, ttt_error *err)
{
    double start = ttt_clock_ms();
    if (b->cells > TTT_CERT_MAX_CELLS || !ttt_rules_equal(&solver->cfg.rules, &b->rules) ||
        ttt_board_terminal(b) || (prover != TTT_X && prover != TTT_O) ||
        (target != TTT_CERT_NOT_LOSE && target != TTT_CERT_WIN))
        return ttt_fail(err, TTT_ESTATE, "certificate: an ongoing position of the solver's rules expected");
    writer w = {.s = solver,
                .cells = b->cells,
                .misere = !ttt_rules_line_wins(&b->rules),
                .prover = prover,
                .target = target,
                .out = out,
                .err = err};
    w.all = b->cells == 64 ? ~UINT64_C(0) : bit(b->cells) - 1;
    ttt_status st = ttt_lines_new(&b->rules, &w.lines, err);
    if (st)
        return st;
    pairing_lines64_init(&w.pairs, w.lines);
    if (!set_resize(&w, SET_START))
        w.status = ttt_fail(err, TTT_ENOMEM, "certificate: out of memory");
    uint64_t x = b->stones[TTT_X].w[0], o = b->stones[TTT_O].w[0];
    /* Its own set of positions written: its SEEN leaves point inside the piece, wherever it is spliced. */
    if (!w.status)
        write_node(&w, x, o, -1, win_end(&w, x, o, ttt_board_to_move(b) == TTT_X ? TTT_X : TTT_O));
    if (!w.status && fflush(out) != 0)
        w.status = ttt_fail(err, TTT_EIO, "certificate: write error");
    free(w.slot);
    free(w.used);
    ttt_lines_unref(w.lines);
    w.st.ms = ttt_clock_ms() - start;
    if (stats)
        *stats = w.st;
    return w.status;
}
