/*
 * search/playout.c - random games from a position, as fast as the board allows.
 *
 * The board is seen through its windows (the rules' ttt_lines): every run of k cells in a row, column or
 * diagonal. A move made a line exactly when one of the windows through its cell is now full of the mover's
 * stones, so the test is a few AND/compare over the windows through the cell. Three kernels share that idea:
 *
 *     tiny   cells <= 16   one table bit per stone set: bit s of line_table says "stone set s holds a line",
 *                          so the test is one load and one shift (8 KiB for 4x4, 64 bytes for 3x3)
 *     small  cells <= 64   per-cell window masks on one uint64_t (every board up to 8x8), tested only once
 *                          the mover has k stones
 *     big    cells <= 400  per-cell window masks on the words the board needs (4 for 15x15, 7 for 20x20)
 *
 * Random moves. The empty cells of the start position sit in order[]; move t of a playout swaps a uniformly
 * chosen order[j], t <= j < n, into order[t] and plays it: a Fisher-Yates shuffle done lazily, so a game
 * that ends early draws no more than it plays, and order[0..t] is the game's move list. order[] is not
 * restored between runs: the shuffle of any arrangement is uniform, so it does not need to be.
 *
 * The draws come in batches from one 64-bit number r: r * range (a 128-bit product) has the draw in its high
 * word and the unused randomness in its low word, which feeds the next range. That is Lemire's multiply-shift
 * for one range equal to the product P of the batch's ranges, so the batch is exactly uniform when it is
 * rejected whenever the final low word is below 2^64 mod P (probability under P / 2^64). Batches keep
 * P <= 2^BATCH_BITS: a whole 3x3 or 4x4 game from one 64-bit number, rejected once in 2^45 (3x3) or 2^20
 * (4x4) games.
 *
 *     cells 0..8 of 3x3, empty board:   order = 0 1 2 3 4 5 6 7 8
 *     draws (9 8 7 ... 2 ranges):       d0 in [0,9), d1 in [0,8), ...   from one r
 *     move t plays order[t + d_t] after swapping it into place
 */
#include "ttt/playout.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "search/playout_lines.h"
#include "util/error.h"

/* Boards up to this many cells use the table of line-holding stone sets (2^cells bits). */
#define TINY_MAX_CELLS 16
/* Boards up to this many cells live in one word. */
#define SMALL_MAX_CELLS 64
/* The product of the ranges of one batch of draws stays at or below 2^BATCH_BITS. */
#define BATCH_BITS 48
/* Draws per batch at most: ranges are at least 2, so at most BATCH_BITS of them. */
#define BATCH_MAX BATCH_BITS

__extension__ typedef unsigned __int128 u128;

typedef enum kernel { KERNEL_TINY, KERNEL_SMALL, KERNEL_BIG } kernel;

struct ttt_playout {
    const ttt_lines *lines; /* the board's windows (one reference), packed below for the kernels */
    int cells;
    kernel kind;
    ttt_outcome line_outcome[2]; /* what a line made by [TTT_X], [TTT_O] means: ttt_board_outcome's word */
    uint64_t *line_table;        /* tiny: bit s set when stone set s holds a line */
    int *win_start; /* small, big: cells + 1; the windows through c are [win_start[c], win_start[c+1]) */
    uint64_t
        *win_mask;  /* small, big: those windows as masks of mask_words words, side by side, by direction */
    int mask_words; /* 1 (small) or words (big) */
    int words;      /* big: words holding cells, (cells + 63) / 64 */
    uint8_t batch_len[TTT_MAX_CELLS + 1]; /* with m cells left: draws in a batch (ranges m, m-1, ...) */
    uint64_t batch_threshold[TTT_MAX_CELLS + 1]; /* 2^64 mod (product of those ranges) */
    /* The start position. */
    ttt_bits root[2];
    int root_side;                 /* side to move at the start */
    int nempty;                    /* moves a playout may make; 0 when the start is finished */
    ttt_outcome root_outcome;      /* when nempty is 0 */
    uint16_t order[TTT_MAX_CELLS]; /* cells up to 399: 16 bits (measured: as fast as 8 on 3x3) */
    int last_count;                /* moves the last run played: order[0..last_count-1] */
};

/* --- Building the context ------------------------------------------------------------------------------- */

static void plan_batches(ttt_playout *p)
{
    for (int m = 1; m <= TTT_MAX_CELLS; m++) {
        uint64_t product = 1;
        int len = 0;
        while (m - len >= 2 && product * (uint64_t)(m - len) <= (UINT64_C(1) << BATCH_BITS)) {
            product *= (uint64_t)(m - len);
            len++;
        }
        if (len == 0)
            len = 1; /* one cell left: a single draw from [0, 1) */
        assert(len <= BATCH_MAX);
        p->batch_len[m] = (uint8_t)len;
        p->batch_threshold[m] = (0 - product) % product;
    }
}

/* The kernel's tables over the geometry: for small and big boards each cell's windows as masks of the words
 * the board needs, packed side by side (in direction order, as the windows are listed by dir_win), for tiny
 * ones the table of line-holding sets. */
static ttt_status build_windows(ttt_playout *p, ttt_error *err)
{
    const ttt_lines *l = p->lines;
    if (p->kind != KERNEL_TINY) {
        int fill[TTT_MAX_CELLS], total = 0, mw = p->mask_words = p->kind == KERNEL_SMALL ? 1 : p->words;
        p->win_start = malloc(((size_t)p->cells + 1) * sizeof *p->win_start);
        p->win_mask = malloc(((size_t)l->nwin * (size_t)l->k * (size_t)mw + 1) * sizeof *p->win_mask);
        if (!p->win_start || !p->win_mask)
            return ttt_fail(err, TTT_ENOMEM, "playouts: out of memory");
        for (int c = 0; c < p->cells; c++) {
            p->win_start[c] = fill[c] = total;
            total += l->cell_nwin[c];
        }
        p->win_start[p->cells] = total;
        for (int j = 0; j < l->nwin; j++) {
            int w = l->dir_win[j];
            const int16_t *cells = ttt_lines_cells(l, w);
            for (int i = 0; i < l->k; i++)
                memcpy(&p->win_mask[(size_t)fill[cells[i]]++ * (size_t)mw], l->win_bits[w].w,
                       (size_t)mw * sizeof *p->win_mask);
        }
    }
    if (p->kind == KERNEL_TINY) {
        size_t sets = (size_t)1 << p->cells;
        size_t words = sets < 64 ? 1 : sets / 64;
        p->line_table = calloc(words, sizeof(uint64_t));
        if (!p->line_table)
            return ttt_fail(err, TTT_ENOMEM, "playouts: out of memory");
        for (size_t s = 0; s < sets; s++)
            for (int w = 0; w < l->nwin; w++)
                if ((s & l->win_bits[w].w[0]) == l->win_bits[w].w[0]) {
                    p->line_table[s / 64] |= UINT64_C(1) << (s % 64);
                    break;
                }
    }
    return TTT_OK;
}

ttt_status ttt_playout_new(const ttt_rules *rules, ttt_playout **out, ttt_error *err)
{
    *out = NULL;
    if (ttt_rules_check(rules, err))
        return TTT_EINVAL;
    const ttt_lines *lines;
    ttt_status st = ttt_lines_new(rules, &lines, err);
    if (st)
        return st;
    st = ttt_playout_new_over(lines, out, err);
    ttt_lines_unref(lines);
    return st;
}

ttt_status ttt_playout_new_over(const ttt_lines *lines, ttt_playout **out, ttt_error *err)
{
    *out = NULL;
    ttt_playout *p = calloc(1, sizeof *p);
    if (!p)
        return ttt_fail(err, TTT_ENOMEM, "playouts: out of memory");
    p->lines = ttt_lines_ref(lines);
    p->cells = lines->cells;
    p->words = lines->words;
    p->kind = p->cells <= TINY_MAX_CELLS    ? KERNEL_TINY
              : p->cells <= SMALL_MAX_CELLS ? KERNEL_SMALL
                                            : KERNEL_BIG;
    for (int who = TTT_X; who <= TTT_O; who++)
        p->line_outcome[who] =
            ttt_board_line_winner(&lines->rules, (ttt_player)who) == TTT_X ? TTT_X_WINS : TTT_O_WINS;
    plan_batches(p);
    ttt_status st = build_windows(p, err);
    if (st) {
        ttt_playout_free(p);
        return st;
    }
    ttt_board empty;
    ttt_board_init(&empty, &lines->rules);
    ttt_playout_set_position(p, &empty);
    *out = p;
    return TTT_OK;
}

void ttt_playout_free(ttt_playout *p)
{
    if (!p)
        return;
    ttt_lines_unref(p->lines);
    free(p->line_table);
    free(p->win_start);
    free(p->win_mask);
    free(p);
}

void ttt_playout_set_position(ttt_playout *p, const ttt_board *b)
{
    assert(ttt_rules_equal(&p->lines->rules, &b->rules));
    p->root[TTT_X] = b->stones[TTT_X];
    p->root[TTT_O] = b->stones[TTT_O];
    p->root_side = ttt_board_to_move(b);
    p->last_count = 0;
    p->nempty = 0;
    p->root_outcome = ttt_board_outcome(b);
    if (ttt_board_terminal(b))
        return;
    ttt_bits empty = ttt_board_empty_cells(b);
    for (int i = 0; i < TTT_WORDS; i++)
        for (uint64_t w = empty.w[i]; w; w &= w - 1)
            p->order[p->nempty++] = (uint16_t)(i * 64 + __builtin_ctzll(w));
}

int ttt_playout_last_moves(const ttt_playout *p, ttt_move *out)
{
    for (int i = 0; i < p->last_count; i++)
        out[i] = p->order[i];
    return p->last_count;
}

/* --- The kernels ---------------------------------------------------------------------------------------- */

/* Fills draw[i] uniformly in [0, m - i) for i < batch_len[m], all from one 64-bit number (see the top of the
 * file); returns how many. */
static inline int draw_batch(const ttt_playout *p, int m, ttt_rng *rng, uint16_t *draw)
{
    int len = p->batch_len[m];
    uint64_t threshold = p->batch_threshold[m];
    for (;;) {
        uint64_t r = ttt_rng_next(rng);
        for (int i = 0; i < len; i++) {
            u128 x = (u128)r * (uint64_t)(m - i);
            draw[i] = (uint16_t)(x >> 64);
            r = (uint64_t)x;
        }
        if (r >= threshold)
            return len;
    }
}

/* Move t of a run (the big kernel; run_small writes it out, 2-5% faster there): the next draw, from a new
 * batch (draw[0..*have)) when the last is used up (*used == *have), picks order[j], t <= j < nempty, which
 * is swapped into order[t]; returns its cell. */
static inline int next_cell(ttt_playout *p, ttt_rng *rng, uint16_t *draw, int *have, int *used, int t)
{
    if (*used == *have) {
        *have = draw_batch(p, p->nempty - t, rng, draw);
        *used = 0;
    }
    uint16_t *order = p->order;
    int j = t + draw[(*used)++];
    uint16_t cell = order[j];
    order[j] = order[t];
    order[t] = cell;
    return cell;
}

/* Does `mine`, which has just gained `cell`, hold a line through it? */
static inline bool small_line(const ttt_playout *p, uint64_t mine, int cell)
{
    const uint64_t *w = p->win_mask;
    for (int i = p->win_start[cell], end = p->win_start[cell + 1]; i < end; i++)
        if ((mine & w[i]) == w[i])
            return true;
    return false;
}

/* The end of a run: who holds which stones, and what it means. `mine` belongs to side (root_side + t) & 1
 * when there was no line, to the last mover (root_side + t - 1) & 1 when there was. */
static inline ttt_outcome finish(ttt_playout *p, int t, bool line, const ttt_bits *mine,
                                 const ttt_bits *theirs, ttt_bits *final)
{
    p->last_count = t;
    int owner = (p->root_side + t - line) & 1;
    if (final) {
        final[owner] = *mine;
        final[owner ^ 1] = *theirs;
    }
    return line ? p->line_outcome[owner] : TTT_DRAW;
}

/* finish() for the one-word kernels, which keep each side's stones in one uint64_t. */
static inline ttt_outcome finish_word(ttt_playout *p, int t, bool line, uint64_t mine, uint64_t theirs,
                                      ttt_bits *final)
{
    ttt_bits m, o;
    memset(&m, 0, sizeof m);
    memset(&o, 0, sizeof o);
    m.w[0] = mine;
    o.w[0] = theirs;
    return finish(p, t, line, &m, &o, final);
}

/* Boards of up to 64 cells: every stone set in one word. */
static ttt_outcome run_small(ttt_playout *p, ttt_rng *rng, ttt_bits *final)
{
    const int k = p->lines->k;
    const int n = p->nempty;
    uint64_t mine = p->root[p->root_side].w[0], theirs = p->root[p->root_side ^ 1].w[0];
    uint16_t draw[BATCH_MAX];
    int have = 0, used = 0, t = 0;
    bool line = false;
    while (t < n) {
        if (used == have) { /* next_cell, written out */
            have = draw_batch(p, n - t, rng, draw);
            used = 0;
        }
        int j = t + draw[used++];
        int cell = p->order[j];
        p->order[j] = p->order[t];
        p->order[t++] = (uint16_t)cell;
        mine |= UINT64_C(1) << cell;
        if (__builtin_popcountll(mine) >= k && small_line(p, mine, cell)) {
            line = true;
            break;
        }
        uint64_t swap = mine;
        mine = theirs;
        theirs = swap;
    }
    return finish_word(p, t, line, mine, theirs, final);
}

/* Boards of up to 16 cells: one batch of draws covers the whole game (16! < 2^BATCH_BITS). */
static ttt_outcome run_tiny(ttt_playout *p, ttt_rng *rng, ttt_bits *final)
{
    uint16_t *order = p->order;
    const uint64_t *table = p->line_table;
    const int n = p->nempty;
    uint64_t mine = p->root[p->root_side].w[0], theirs = p->root[p->root_side ^ 1].w[0];
    uint16_t draw[TINY_MAX_CELLS];
    int len = draw_batch(p, n, rng, draw);
    assert(len >= n - 1);
    (void)len;
    draw[n - 1] = 0; /* the last empty cell: no choice */
    int t = 0;
    bool line = false;
    while (t < n) {
        int j = t + draw[t];
        int cell = order[j];
        order[j] = order[t];
        order[t++] = cell;
        mine |= UINT64_C(1) << cell;
        if ((table[mine >> 6] >> (mine & 63)) & 1) {
            line = true;
            break;
        }
        uint64_t swap = mine;
        mine = theirs;
        theirs = swap;
    }
    return finish_word(p, t, line, mine, theirs, final);
}

static bool big_line(const ttt_playout *p, const ttt_bits *mine, int cell)
{
    const int words = p->words;
    const uint64_t *w = &p->win_mask[(size_t)p->win_start[cell] * (size_t)words];
    for (int i = p->win_start[cell], end = p->win_start[cell + 1]; i < end; i++, w += words) {
        uint64_t miss = 0;
        for (int k = 0; k < words; k++)
            miss |= w[k] & ~mine->w[k];
        if (!miss)
            return true;
    }
    return false;
}

static ttt_outcome run_big(ttt_playout *p, ttt_rng *rng, ttt_bits *final)
{
    const int n = p->nempty;
    ttt_bits s[2] = {p->root[p->root_side], p->root[p->root_side ^ 1]};
    int me = 0; /* s[me] is the side to move */
    uint16_t draw[BATCH_MAX];
    int have = 0, used = 0, t = 0;
    bool line = false;
    while (t < n) {
        int cell = next_cell(p, rng, draw, &have, &used, t++);
        ttt_bits_set(&s[me], cell);
        if (big_line(p, &s[me], cell)) {
            line = true;
            break;
        }
        me ^= 1;
    }
    return finish(p, t, line, &s[me], &s[me ^ 1], final);
}

ttt_outcome ttt_playout_run(ttt_playout *p, ttt_rng *rng, ttt_bits *final)
{
    if (p->nempty == 0) {
        p->last_count = 0;
        if (final) {
            final[TTT_X] = p->root[TTT_X];
            final[TTT_O] = p->root[TTT_O];
        }
        return p->root_outcome;
    }
    switch (p->kind) {
    case KERNEL_TINY: return run_tiny(p, rng, final);
    case KERNEL_SMALL: return run_small(p, rng, final);
    case KERNEL_BIG: break;
    }
    return run_big(p, rng, final);
}
