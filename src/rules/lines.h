/*
 * rules/lines.h - the geometry of an m,n,k board, built once per rules and shared read-only (internal).
 *
 * Every searcher and engine sees the board through its windows: each run of k cells in a row, column or
 * diagonal. This module is the one place that enumerates them. A ttt_lines holds, for one rules:
 *
 *     windows   win_cell[w * k + i]   the i-th cell of window w, in order along its line
 *               win_bits[w]           the same as a bit set (win_bits[w].w[0] alone on boards up to 64 cells)
 *               win_dir[w]            its direction (index into TTT_DIR_ROW / TTT_DIR_COL)
 *     by cell   cell_win[c * cell_win_max + i], i < cell_nwin[c]: the windows through cell c, ascending
 *     by line   line_win[line_start[l] .. line_start[l + 1] - 1]: the windows of line l, one cell apart,
 *               in order along it; lines are listed by direction, then by their first cell
 *     by dir    dir_win[0 .. nwin - 1]: every window ordered by direction, then by its first cell (the
 *               reading order of each direction in turn)
 *     symmetry  sym[s][c], inv[s][c]: where symmetry s (ttt/symmetry.h) takes cell c, and back
 *
 * Windows are numbered in reading order of their first cell, and at one cell in direction order:
 *
 *     3x3, k = 3:   w0 = 0 1 2 (across from cell 0)   w1 = 0 3 6 (down)   w2 = 0 4 8 (down-right)
 *                   w3 = 1 4 7   w4 = 2 5 8   w5 = 2 4 6 (down-left)   w6 = 3 4 5   w7 = 6 7 8
 *
 * A ttt_lines is immutable once made and reference counted: every holder takes a reference with
 * ttt_lines_ref and gives it back with ttt_lines_unref, from any thread.
 */
#ifndef TTT_RULES_LINES_H
#define TTT_RULES_LINES_H

#include "ttt/board.h"
#include "ttt/symmetry.h"

/* The four line directions as (row step, col step): across, down, down-right, down-left. Every line is found
 * walking one of these both ways from any of its cells. */
#define TTT_DIRECTIONS 4
static const int TTT_DIR_ROW[TTT_DIRECTIONS] = {0, 1, 1, 1};
static const int TTT_DIR_COL[TTT_DIRECTIONS] = {1, 0, 1, -1};

/* Does the window of k cells from (row, col) in direction d lie on the board? (row, col) must be on it. What
 * the enumeration below tests, for code that walks a board without a ttt_lines (the board itself). */
static inline bool ttt_lines_fits(const ttt_rules *r, int row, int col, int d)
{
    int er = row + (r->k - 1) * TTT_DIR_ROW[d], ec = col + (r->k - 1) * TTT_DIR_COL[d];
    return er < r->rows && ec >= 0 && ec < r->cols;
}

/* The i-th cell of that window. */
static inline int ttt_lines_cell_at(const ttt_rules *r, int row, int col, int d, int i)
{
    return (row + i * TTT_DIR_ROW[d]) * r->cols + col + i * TTT_DIR_COL[d];
}

typedef struct ttt_lines {
    ttt_rules rules;
    int rows, cols, cells, k;
    int words;           /* the words of a bit set that hold cells, (cells + 63) / 64 */
    ttt_bits all;        /* every cell */
    int nwin;            /* windows */
    int cell_win_max;    /* room per cell in cell_win (4 * k) */
    int nlines;          /* lines holding at least one window */
    int nsym;            /* ttt_sym_count(rules) */
    int16_t *win_cell;   /* nwin * k */
    ttt_bits *win_bits;  /* nwin */
    uint8_t *win_dir;    /* nwin */
    int16_t *cell_win;   /* cells * cell_win_max */
    uint8_t *cell_nwin;  /* cells */
    int16_t *line_win;   /* nwin: the windows line by line */
    int16_t *line_start; /* nlines + 1 */
    int16_t *dir_win;    /* nwin */
    int16_t sym[TTT_SYM_ALL][TTT_MAX_CELLS];
    int16_t inv[TTT_SYM_ALL][TTT_MAX_CELLS];
} ttt_lines;

/* Builds the geometry of valid rules (asserted). *out gets a new ttt_lines holding one reference, or NULL
 * with TTT_ENOMEM and the reason in err. */
ttt_status ttt_lines_new(const ttt_rules *rules, const ttt_lines **out, ttt_error *err);

/* Takes one more reference to l and returns it. */
const ttt_lines *ttt_lines_ref(const ttt_lines *l);

/* Gives back one reference; the last frees l. NULL is ignored. */
void ttt_lines_unref(const ttt_lines *l);

/* The windows through cell c, *count of them. */
static inline const int16_t *ttt_lines_through(const ttt_lines *l, int c, int *count)
{
    *count = l->cell_nwin[c];
    return &l->cell_win[c * l->cell_win_max];
}

/* The cells of window w (k of them, in order along the line). */
static inline const int16_t *ttt_lines_cells(const ttt_lines *l, int w) { return &l->win_cell[w * l->k]; }

/* How many windows an m,n,k board has, without building it: the count the enumeration above yields. */
int ttt_lines_count(const ttt_rules *rules);

#endif
