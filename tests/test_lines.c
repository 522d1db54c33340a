/* Unit tests for src/rules/lines.h: the board's one geometry, checked against a brute force over cell pairs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "rules/lines.h"
#include "ttt/ttt.h"

/* Every rules with sides 3..8 and every k, both variants, and a few big boards. */
static int all_rules(ttt_rules *out, int room)
{
    int n = 0;
    for (int rows = 3; rows <= 8; rows++)
        for (int cols = 3; cols <= 8; cols++)
            for (int k = 3; k <= (rows > cols ? rows : cols); k++)
                for (int m = 0; m < 2 && n < room; m++)
                    out[n++] = (ttt_rules){rows, cols, k, m == 1};
    static const ttt_rules big[] = {
        {15, 15, 5, false}, {20, 20, 5, false}, {20, 3, 3, false}, {3, 20, 20, true}};
    for (size_t i = 0; i < sizeof big / sizeof big[0] && n < room; i++)
        out[n++] = big[i];
    return n;
}

/* Is the sorted cell list `cells` (k of them) k cells in a row, found by a walk from each cell in each of the
 * eight compass steps rather than by the module's four directions? */
static bool is_run(const ttt_rules *r, const int16_t *cells)
{
    for (int dr = -1; dr <= 1; dr++)
        for (int dc = -1; dc <= 1; dc++) {
            if (!dr && !dc)
                continue;
            bool ok = true;
            int row = cells[0] / r->cols, col = cells[0] % r->cols;
            for (int i = 1; i < r->k && ok; i++)
                ok = row + i * dr >= 0 && row + i * dr < r->rows && col + i * dc >= 0 &&
                     col + i * dc < r->cols && cells[i] == (row + i * dr) * r->cols + col + i * dc;
            if (ok)
                return true;
        }
    return false;
}

/* The number of k-runs by counting, for each direction, the start cells whose run stays on the board. */
static int expected_windows(const ttt_rules *r)
{
    int across = r->rows * (r->cols >= r->k ? r->cols - r->k + 1 : 0);
    int down = r->cols * (r->rows >= r->k ? r->rows - r->k + 1 : 0);
    int diag = (r->rows >= r->k && r->cols >= r->k) ? (r->rows - r->k + 1) * (r->cols - r->k + 1) : 0;
    return across + down + 2 * diag;
}

/* Builds the geometry of every rules of all_rules() and hands it to check. */
static void each_rules(void (*check)(const ttt_rules *, const ttt_lines *))
{
    ttt_rules rules[200];
    int n = all_rules(rules, 200);
    assert_true(n > 100);
    for (int i = 0; i < n; i++) {
        const ttt_lines *l = NULL;
        assert_int_equal(ttt_lines_new(&rules[i], &l, NULL), TTT_OK);
        check(&rules[i], l);
        ttt_lines_unref(l);
    }
}

static void check_windows_are_every_run_once(const ttt_rules *r, const ttt_lines *l)
{
    assert_int_equal(l->nwin, expected_windows(r));
    assert_int_equal(ttt_lines_count(r), l->nwin);
    for (int w = 0; w < l->nwin; w++) {
        const int16_t *c = ttt_lines_cells(l, w);
        assert_true(is_run(r, c));
        assert_int_equal(ttt_bits_count(&l->win_bits[w]), l->k);
        for (int j = 0; j < l->k; j++)
            assert_true(ttt_bits_test(&l->win_bits[w], c[j]));
        /* numbered in reading order of the first cell: no later window starts before this one */
        if (w > 0)
            assert_true(ttt_lines_cells(l, w - 1)[0] <= c[0]);
        for (int v = 0; v < w; v++)
            assert_false(ttt_bits_equal(&l->win_bits[v], &l->win_bits[w]));
    }
}

static void test_windows_are_every_run_once(void **state)
{
    (void)state;
    each_rules(check_windows_are_every_run_once);
}

static void check_windows_through_each_cell(const ttt_rules *r, const ttt_lines *l)
{
    (void)r; /* the geometry carries what these checks read */
    for (int c = 0; c < l->cells; c++) {
        int count = 0;
        const int16_t *through = ttt_lines_through(l, c, &count);
        int want = 0;
        for (int w = 0; w < l->nwin; w++)
            want += ttt_bits_test(&l->win_bits[w], c);
        assert_int_equal(count, want);
        for (int j = 0; j < count; j++) {
            assert_true(ttt_bits_test(&l->win_bits[through[j]], c));
            if (j > 0)
                assert_true(through[j - 1] < through[j]);
        }
    }
}

static void test_windows_through_each_cell(void **state)
{
    (void)state;
    each_rules(check_windows_through_each_cell);
}

static void check_lines_and_directions(const ttt_rules *r, const ttt_lines *l)
{
    (void)r; /* the geometry carries what these checks read */
    int *seen = calloc((size_t)l->nwin, sizeof *seen);
    assert_non_null(seen);
    assert_int_equal(l->line_start[0], 0);
    assert_int_equal(l->line_start[l->nlines], l->nwin);
    for (int line = 0; line < l->nlines; line++) {
        assert_true(l->line_start[line] < l->line_start[line + 1]);
        for (int j = l->line_start[line]; j < l->line_start[line + 1]; j++) {
            int w = l->line_win[j];
            seen[w]++;
            if (j == l->line_start[line])
                continue;
            /* one step further along the same direction */
            int prev = l->line_win[j - 1];
            assert_int_equal(l->win_dir[prev], l->win_dir[w]);
            int step = TTT_DIR_ROW[l->win_dir[w]] * l->cols + TTT_DIR_COL[l->win_dir[w]];
            for (int c = 0; c < l->k; c++)
                assert_int_equal(ttt_lines_cells(l, w)[c], ttt_lines_cells(l, prev)[c] + step);
        }
        if (line > 0)
            assert_true(l->win_dir[l->line_win[l->line_start[line - 1]]] <=
                        l->win_dir[l->line_win[l->line_start[line]]]);
    }
    for (int j = 0; j < l->nwin; j++) {
        assert_int_equal(seen[j], 1);
        seen[j] = 0;
    }
    for (int j = 0; j < l->nwin; j++) {
        int w = l->dir_win[j];
        seen[w]++;
        if (j > 0) {
            int prev = l->dir_win[j - 1];
            assert_true(l->win_dir[prev] < l->win_dir[w] ||
                        (l->win_dir[prev] == l->win_dir[w] &&
                         ttt_lines_cells(l, prev)[0] < ttt_lines_cells(l, w)[0]));
        }
    }
    for (int j = 0; j < l->nwin; j++)
        assert_int_equal(seen[j], 1);
    free(seen);
}

static void test_lines_and_directions(void **state)
{
    (void)state;
    each_rules(check_lines_and_directions);
}

static void test_symmetry_maps(void **state)
{
    (void)state;
    ttt_rules rules[] = {{3, 3, 3, false}, {4, 6, 4, true}, {15, 15, 5, false}, {20, 7, 5, false}};
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        const ttt_lines *l = NULL;
        assert_int_equal(ttt_lines_new(&rules[i], &l, NULL), TTT_OK);
        assert_int_equal(l->nsym, ttt_sym_count(&rules[i]));
        for (int s = 0; s < l->nsym; s++)
            for (int c = 0; c < l->cells; c++) {
                assert_int_equal(l->sym[s][c], ttt_sym_move(&rules[i], s, c));
                assert_int_equal(l->inv[s][l->sym[s][c]], c);
            }
        /* a symmetry takes windows to windows */
        for (int s = 0; s < l->nsym; s++)
            for (int w = 0; w < l->nwin; w++) {
                ttt_bits image = ttt_sym_bits(&rules[i], s, &l->win_bits[w]);
                bool found = false;
                for (int v = 0; v < l->nwin && !found; v++)
                    found = ttt_bits_equal(&image, &l->win_bits[v]);
                assert_true(found);
            }
        ttt_lines_unref(l);
    }
}

static void test_references_share_one_geometry(void **state)
{
    (void)state;
    ttt_rules r = {7, 7, 5, false};
    const ttt_lines *l = NULL;
    assert_int_equal(ttt_lines_new(&r, &l, NULL), TTT_OK);
    const ttt_lines *again = ttt_lines_ref(l);
    assert_ptr_equal(again, l);
    ttt_lines_unref(l);
    assert_int_equal(again->nwin, expected_windows(&r)); /* still alive: one reference left */
    ttt_lines_unref(again);
    ttt_lines_unref(NULL);
}

static void test_whom_a_line_counts_for(void **state)
{
    (void)state;
    ttt_rules normal = {3, 3, 3, false}, misere = {3, 3, 3, true};
    assert_true(ttt_rules_line_wins(&normal));
    assert_false(ttt_rules_line_wins(&misere));
    assert_int_equal(ttt_board_line_winner(&normal, TTT_X), TTT_X);
    assert_int_equal(ttt_board_line_winner(&normal, TTT_O), TTT_O);
    assert_int_equal(ttt_board_line_winner(&misere, TTT_X), TTT_O);
    assert_int_equal(ttt_board_line_winner(&misere, TTT_O), TTT_X);
    /* and the board agrees: X's completed top row */
    for (int m = 0; m < 2; m++) {
        ttt_board b;
        ttt_board_init(&b, m ? &misere : &normal);
        static const int moves[] = {0, 3, 1, 4, 2};
        for (int i = 0; i < 5; i++)
            ttt_board_play(&b, moves[i]);
        assert_int_equal(ttt_board_winner(&b), ttt_board_line_winner(&b.rules, TTT_X));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_windows_are_every_run_once),
        cmocka_unit_test(test_windows_through_each_cell),
        cmocka_unit_test(test_lines_and_directions),
        cmocka_unit_test(test_symmetry_maps),
        cmocka_unit_test(test_references_share_one_geometry),
        cmocka_unit_test(test_whom_a_line_counts_for),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
