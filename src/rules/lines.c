/* rules/lines.c - the board's windows, lines and symmetry maps, built once per rules (see lines.h). */
#include "rules/lines.h"

#include <assert.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

/* A geometry with its reference count, which the holders' const pointers to `lines` must not show. */
typedef struct lines_box {
    atomic_int refs;
    ttt_lines lines;
} lines_box;

static lines_box *box_of(const ttt_lines *l)
{
    return (lines_box *)((uintptr_t)l - offsetof(lines_box, lines));
}

/* Does a window start at (row, col) in direction d: do its k cells all lie on the board? */
static bool window_at(const ttt_rules *r, int row, int col, int d)
{
    return row >= 0 && row < r->rows && col >= 0 && col < r->cols && ttt_lines_fits(r, row, col, d);
}

int ttt_lines_count(const ttt_rules *rules)
{
    int n = 0;
    for (int row = 0; row < rules->rows; row++)
        for (int col = 0; col < rules->cols; col++)
            for (int d = 0; d < TTT_DIRECTIONS; d++)
                n += window_at(rules, row, col, d);
    return n;
}

static void lines_free(ttt_lines *l)
{
    if (!l)
        return;
    free(l->win_cell);
    free(l->win_bits);
    free(l->win_dir);
    free(l->cell_win);
    free(l->cell_nwin);
    free(l->line_win);
    free(l->line_start);
    free(l->dir_win);
    free(box_of(l));
}

/* The windows, numbered in reading order of their first cell and direction order at each cell; win_at gets
 * each (cell * TTT_DIRECTIONS + d)'s window, or -1. */
static void build_windows(ttt_lines *l, int16_t *win_at)
{
    const ttt_rules *r = &l->rules;
    for (int row = 0; row < r->rows; row++)
        for (int col = 0; col < r->cols; col++)
            for (int d = 0; d < TTT_DIRECTIONS; d++) {
                int start = row * r->cols + col;
                win_at[start * TTT_DIRECTIONS + d] = -1;
                if (!window_at(r, row, col, d))
                    continue;
                int w = l->nwin++;
                win_at[start * TTT_DIRECTIONS + d] = (int16_t)w;
                l->win_dir[w] = (uint8_t)d;
                for (int i = 0; i < r->k; i++) {
                    int cell = ttt_lines_cell_at(r, row, col, d, i);
                    l->win_cell[w * r->k + i] = (int16_t)cell;
                    ttt_bits_set(&l->win_bits[w], cell);
                    l->cell_win[cell * l->cell_win_max + l->cell_nwin[cell]++] = (int16_t)w;
                }
            }
}

/* The windows line by line (a line starts where the cell one step back is off the board), and every window by
 * direction then first cell. */
static void build_lines(ttt_lines *l, const int16_t *win_at)
{
    const ttt_rules *r = &l->rules;
    int n = 0, by_dir = 0;
    for (int d = 0; d < TTT_DIRECTIONS; d++) {
        for (int row = 0; row < r->rows; row++)
            for (int col = 0; col < r->cols; col++) {
                int w = win_at[(row * r->cols + col) * TTT_DIRECTIONS + d];
                if (w >= 0)
                    l->dir_win[by_dir++] = (int16_t)w;
                int pr = row - TTT_DIR_ROW[d], pc = col - TTT_DIR_COL[d];
                if (pr >= 0 && pc >= 0 && pc < r->cols)
                    continue; /* not the first cell of its line */
                int first = n;
                for (int rr = row, cc = col; window_at(r, rr, cc, d);
                     rr += TTT_DIR_ROW[d], cc += TTT_DIR_COL[d])
                    l->line_win[n++] = win_at[(rr * r->cols + cc) * TTT_DIRECTIONS + d];
                if (n > first)
                    l->line_start[++l->nlines] = (int16_t)n;
            }
    }
    assert(n == l->nwin && by_dir == l->nwin);
}

ttt_status ttt_lines_new(const ttt_rules *rules, const ttt_lines **out, ttt_error *err)
{
    assert(ttt_rules_check(rules, NULL) == TTT_OK);
    *out = NULL;
    lines_box *box = calloc(1, sizeof *box);
    if (!box)
        return ttt_fail(err, TTT_ENOMEM, "board geometry: out of memory");
    atomic_init(&box->refs, 1);
    ttt_lines *l = &box->lines;
    l->rules = *rules;
    l->rows = rules->rows;
    l->cols = rules->cols;
    l->cells = rules->rows * rules->cols;
    l->k = rules->k;
    l->words = (l->cells + 63) / 64;
    l->cell_win_max = TTT_DIRECTIONS * rules->k;
    l->nsym = ttt_sym_count(rules);
    size_t max = (size_t)ttt_lines_count(rules);
    size_t room = max ? max : 1;
    l->win_cell = malloc(room * (size_t)l->k * sizeof *l->win_cell);
    l->win_bits = calloc(room, sizeof *l->win_bits);
    l->win_dir = malloc(room);
    l->cell_win = malloc((size_t)l->cells * (size_t)l->cell_win_max * sizeof *l->cell_win);
    l->cell_nwin = calloc((size_t)l->cells, 1);
    l->line_win = malloc(room * sizeof *l->line_win);
    l->line_start = calloc(room + 1, sizeof *l->line_start);
    l->dir_win = malloc(room * sizeof *l->dir_win);
    int16_t *win_at = malloc((size_t)l->cells * TTT_DIRECTIONS * sizeof *win_at);
    if (!l->win_cell || !l->win_bits || !l->win_dir || !l->cell_win || !l->cell_nwin || !l->line_win ||
        !l->line_start || !l->dir_win || !win_at) {
        free(win_at);
        lines_free(l);
        return ttt_fail(err, TTT_ENOMEM, "board geometry: out of memory");
    }
    build_windows(l, win_at);
    build_lines(l, win_at);
    free(win_at);
    for (int c = 0; c < l->cells; c++)
        ttt_bits_set(&l->all, c);
    for (int s = 0; s < l->nsym; s++)
        for (int c = 0; c < l->cells; c++) {
            int image = ttt_sym_move(rules, s, c);
            l->sym[s][c] = (int16_t)image;
            l->inv[s][image] = (int16_t)c;
        }
    *out = l;
    return TTT_OK;
}

const ttt_lines *ttt_lines_ref(const ttt_lines *l)
{
    atomic_fetch_add_explicit(&box_of(l)->refs, 1, memory_order_relaxed);
    return l;
}

void ttt_lines_unref(const ttt_lines *l)
{
    if (!l || atomic_fetch_sub_explicit(&box_of(l)->refs, 1, memory_order_acq_rel) != 1)
        return;
    lines_free(&box_of(l)->lines);
}
