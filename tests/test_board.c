/* Unit tests for ttt/board.h: positions, moves, lines, outcomes, hashing and validation. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttt/ttt.h"
#include "support.h"

/* --- Helpers -------------------------------------------------------------------------------------------- */

static int cell_at(const ttt_rules *r, int row, int col) { return row * r->cols + col; }

/* Builds a board from a picture such as "xxx/xoo/xoo" ('/' and spaces are ignored) through
 * ttt_board_from_bits, without the notation module. */
static void board_from_picture(ttt_board *b, const ttt_rules *r, const char *picture)
{
    ttt_bits x, o;
    memset(&x, 0, sizeof x);
    memset(&o, 0, sizeof o);
    int cell = 0;
    for (const char *p = picture; *p; p++) {
        if (*p == '/' || *p == ' ') {
            continue;
        }
        assert_true(cell < r->rows * r->cols);
        if (*p == 'x') {
            ttt_bits_set(&x, cell);
        } else if (*p == 'o') {
            ttt_bits_set(&o, cell);
        } else {
            assert_int_equal(*p, '.');
        }
        cell++;
    }
    assert_int_equal(cell, r->rows * r->cols);
    ttt_board_from_bits(b, r, &x, &o);
}

/* Compares every field of two boards, without relying on padding bytes. */
static void assert_board_same(const ttt_board *a, const ttt_board *b)
{
    assert_true(ttt_rules_equal(&a->rules, &b->rules));
    assert_true(ttt_bits_equal(&a->stones[TTT_X], &b->stones[TTT_X]));
    assert_true(ttt_bits_equal(&a->stones[TTT_O], &b->stones[TTT_O]));
    assert_int_equal(a->ply, b->ply);
    assert_int_equal(a->cells, b->cells);
    assert_int_equal(a->line_owner, b->line_owner);
    assert_true(a->hash == b->hash);
    assert_true(ttt_board_equal(a, b));
}

/* The hash as the XOR of the stones' keys, computed here from the definition. */
static uint64_t hash_from_keys(const ttt_board *b)
{
    uint64_t h = 0;
    for (int cell = 0; cell < b->cells; cell++) {
        ttt_player who = ttt_board_at(b, cell);
        if (who != TTT_NOBODY) {
            h ^= ttt_zobrist_key(who, cell);
        }
    }
    return h;
}

/* Plays a sequence of moves, each of which must be legal. */
static void play_all(ttt_board *b, const int *moves, int count)
{
    for (int i = 0; i < count; i++) {
        if (!ttt_board_is_legal(b, moves[i])) {
            print_error("move %d (cell %d) is not legal\n", i + 1, moves[i]);
            fail();
        }
        ttt_board_play(b, moves[i]);
    }
}

static bool contains(const int *cells, int n, int cell)
{
    for (int i = 0; i < n; i++) {
        if (cells[i] == cell) {
            return true;
        }
    }
    return false;
}

/* X plays xs (k cells, the last one completes the line), O plays os (k - 1 cells) in between. Checks that
 * the game goes on until the last stone, then that X's line is found, with its cells. */
static void check_x_line(const char *rules_text, const int *xs, const int *os, int k)
{
    ttt_rules r = rules_of(rules_text);
    assert_int_equal(r.k, k);
    ttt_board b;
    ttt_board_init(&b, &r);
    for (int i = 0; i < k - 1; i++) {
        assert_true(ttt_board_is_legal(&b, xs[i]));
        assert_false(ttt_board_makes_line(&b, TTT_X, xs[i]));
        ttt_board_play(&b, xs[i]);
        assert_false(ttt_board_terminal(&b));
        assert_true(ttt_board_is_legal(&b, os[i]));
        ttt_board_play(&b, os[i]);
        assert_false(ttt_board_terminal(&b));
        assert_int_equal(ttt_board_outcome(&b), TTT_ONGOING);
    }
    int last = xs[k - 1];
    assert_false(ttt_board_has_line(&b, TTT_X));
    assert_true(ttt_board_makes_line(&b, TTT_X, last));
    assert_false(ttt_board_makes_line(&b, TTT_O, last));
    ttt_board_play(&b, last);

    assert_int_equal(b.line_owner, TTT_X);
    assert_true(ttt_board_terminal(&b));
    assert_true(ttt_board_has_line(&b, TTT_X));
    assert_false(ttt_board_has_line(&b, TTT_O));
    if (r.misere) {
        assert_int_equal(ttt_board_outcome(&b), TTT_O_WINS);
        assert_int_equal(ttt_board_winner(&b), TTT_O);
        assert_int_equal(ttt_board_utility(&b), -1);
    } else {
        assert_int_equal(ttt_board_outcome(&b), TTT_X_WINS);
        assert_int_equal(ttt_board_winner(&b), TTT_X);
        assert_int_equal(ttt_board_utility(&b), 1);
    }
    ttt_move moves[TTT_MAX_CELLS];
    assert_int_equal(ttt_board_moves(&b, moves), 0);

    ttt_move line[TTT_MAX_SIDE];
    int n = ttt_board_line_cells(&b, line);
    assert_int_equal(n, k);
    for (int i = 0; i < k; i++) {
        assert_true(contains(line, n, xs[i]));
    }
    assert_true(b.hash == ttt_board_hash_full(&b));

    /* Taking the winning stone back reopens the game. */
    ttt_board_undo(&b, last);
    assert_int_equal(b.line_owner, TTT_NOBODY);
    assert_false(ttt_board_terminal(&b));
    assert_int_equal(ttt_board_outcome(&b), TTT_ONGOING);
    assert_int_equal(ttt_board_line_cells(&b, line), 0);
}

/* --- Empty board ---------------------------------------------------------------------------------------- */

static void test_empty_board_state(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_board b;
    ttt_board_init(&b, &r);
    assert_true(ttt_rules_equal(&b.rules, &r));
    assert_int_equal(b.ply, 0);
    assert_int_equal(b.cells, 9);
    assert_int_equal(b.line_owner, TTT_NOBODY);
    assert_true(b.hash == 0);
    assert_true(ttt_board_hash_full(&b) == 0);
    assert_int_equal(ttt_board_to_move(&b), TTT_X);
    assert_int_equal(ttt_board_outcome(&b), TTT_ONGOING);
    assert_int_equal(ttt_board_winner(&b), TTT_NOBODY);
    assert_int_equal(ttt_board_utility(&b), 0);
    assert_false(ttt_board_terminal(&b));
    assert_true(ttt_board_small(&b));
    ttt_move moves[TTT_MAX_CELLS];
    assert_int_equal(ttt_board_moves(&b, moves), 9);
    for (int i = 0; i < 9; i++) {
        assert_int_equal(moves[i], i);
        assert_int_equal(ttt_board_at(&b, i), TTT_NOBODY);
        assert_true(ttt_board_is_legal(&b, i));
    }
    assert_int_equal(ttt_bits_count(&b.stones[TTT_X]), 0);
    assert_int_equal(ttt_bits_count(&b.stones[TTT_O]), 0);
    ttt_bits empty = ttt_board_empty_cells(&b);
    assert_int_equal(ttt_bits_count(&empty), 9);
    ttt_move line[TTT_MAX_SIDE];
    assert_int_equal(ttt_board_line_cells(&b, line), 0);
    assert_false(ttt_board_has_line(&b, TTT_X));
    assert_false(ttt_board_has_line(&b, TTT_O));
}

static void test_empty_large_board_state(void **state)
{
    (void)state;
    ttt_rules r = rules_of("16x16k5");
    ttt_board b;
    ttt_board_init(&b, &r);
    assert_int_equal(b.cells, 256);
    assert_false(ttt_board_small(&b));
    assert_true(b.hash == 0);
    ttt_move moves[TTT_MAX_CELLS];
    assert_int_equal(ttt_board_moves(&b, moves), 256);
    for (int i = 0; i < 256; i++) {
        assert_int_equal(moves[i], i);
    }
    ttt_bits empty = ttt_board_empty_cells(&b);
    assert_int_equal(ttt_bits_count(&empty), 256);

    ttt_rules r8 = rules_of("8x8k4");
    ttt_board_init(&b, &r8);
    assert_true(ttt_board_small(&b));
    ttt_rules r9 = rules_of("9x8k4");
    ttt_board_init(&b, &r9);
    assert_false(ttt_board_small(&b));
}

static void test_empty_cells_exclude_off_board_bits(void **state)
{
    (void)state;
    const char *all[] = {"3x3", "3x5", "7x6k4", "15x15k5"};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        ttt_rules r = rules_of(all[i]);
        ttt_board b;
        ttt_board_init(&b, &r);
        ttt_board_play(&b, 0);
        ttt_board_play(&b, b.cells - 1);
        ttt_bits empty = ttt_board_empty_cells(&b);
        assert_int_equal(ttt_bits_count(&empty), b.cells - 2);
        assert_false(ttt_bits_test(&empty, 0));
        assert_false(ttt_bits_test(&empty, b.cells - 1));
        assert_true(ttt_bits_test(&empty, 1));
    }
}

/* --- Bit sets ------------------------------------------------------------------------------------------- */

static void test_bits_count_equal_compare(void **state)
{
    (void)state;
    ttt_bits a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    assert_true(ttt_bits_equal(&a, &b));
    assert_int_equal(ttt_bits_compare(&a, &b), 0);
    ttt_bits_set(&a, 0);
    ttt_bits_set(&a, 63);
    ttt_bits_set(&a, 64);
    ttt_bits_set(&a, 255);
    assert_int_equal(ttt_bits_count(&a), 4);
    assert_true(ttt_bits_test(&a, 64));
    assert_false(ttt_bits_test(&a, 65));
    assert_false(ttt_bits_equal(&a, &b));
    assert_true(ttt_bits_compare(&a, &b) > 0);
    assert_true(ttt_bits_compare(&b, &a) < 0);

    /* Word 3 is the most significant. */
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    ttt_bits_set(&a, 192);
    for (int i = 0; i < 192; i++) {
        ttt_bits_set(&b, i);
    }
    assert_true(ttt_bits_compare(&a, &b) > 0);
    assert_true(ttt_bits_compare(&b, &a) < 0);
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    ttt_bits_set(&a, 64);
    ttt_bits_set(&b, 63);
    assert_true(ttt_bits_compare(&a, &b) > 0);
    ttt_bits_clear(&a, 64);
    assert_int_equal(ttt_bits_count(&a), 0);
}

/* --- Play and undo -------------------------------------------------------------------------------------- */

static void test_play_alternates_sides(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_board b;
    ttt_board_init(&b, &r);
    ttt_board_play(&b, 4);
    assert_int_equal(ttt_board_at(&b, 4), TTT_X);
    assert_int_equal(b.ply, 1);
    assert_int_equal(ttt_board_to_move(&b), TTT_O);
    assert_false(ttt_board_is_legal(&b, 4));
    ttt_board_play(&b, 0);
    assert_int_equal(ttt_board_at(&b, 0), TTT_O);
    assert_int_equal(ttt_board_to_move(&b), TTT_X);
    assert_int_equal(b.ply, 2);
    ttt_move moves[TTT_MAX_CELLS];
    int n = ttt_board_moves(&b, moves);
    int expected[] = {1, 2, 3, 5, 6, 7, 8};
    assert_int_equal(n, 7);
    for (int i = 0; i < n; i++) {
        assert_int_equal(moves[i], expected[i]);
    }
}

static void test_play_undo_restores_exact_board(void **state)
{
    (void)state;
    const char *all[] = {"3x3", "4x4k3-misere", "7x6k4", "15x15k5", "16x16k5", "3x5k5"};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        ttt_rules r = rules_of(all[i]);
        ttt_board fresh, b;
        ttt_board_init(&fresh, &r);
        ttt_board_init(&b, &r);
        int seq[] = {0, b.cells - 1, b.cells / 2, 1, r.cols};
        ttt_board snapshots[6];
        for (int j = 0; j < 5; j++) {
            snapshots[j] = b;
            ttt_board_play(&b, seq[j]);
        }
        for (int j = 4; j >= 0; j--) {
            ttt_board_undo(&b, seq[j]);
            assert_board_same(&b, &snapshots[j]);
        }
        assert_board_same(&b, &fresh);
    }
}

static void test_is_legal_accepts_any_int(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_board b;
    ttt_board_init(&b, &r);
    assert_false(ttt_board_is_legal(&b, -1));
    assert_false(ttt_board_is_legal(&b, TTT_NO_MOVE));
    assert_false(ttt_board_is_legal(&b, 9));
    assert_false(ttt_board_is_legal(&b, 64));
    assert_false(ttt_board_is_legal(&b, 256));
    assert_false(ttt_board_is_legal(&b, 100000));
    assert_false(ttt_board_is_legal(&b, INT_MIN));
    assert_false(ttt_board_is_legal(&b, INT_MAX));
    assert_true(ttt_board_is_legal(&b, 8));
}

/* --- Lines in every direction --------------------------------------------------------------------------- */

static void test_row_line_on_3x3(void **state)
{
    (void)state;
    check_x_line("3x3", (int[]){0, 2, 1}, (int[]){3, 4}, 3);
    check_x_line("3x3", (int[]){6, 7, 8}, (int[]){0, 1}, 3);
}

static void test_column_line_on_3x3(void **state)
{
    (void)state;
    check_x_line("3x3", (int[]){1, 7, 4}, (int[]){0, 2}, 3);
    check_x_line("3x3", (int[]){2, 5, 8}, (int[]){0, 1}, 3);
}

static void test_diagonal_line_on_3x3(void **state)
{
    (void)state;
    check_x_line("3x3", (int[]){0, 8, 4}, (int[]){1, 2}, 3);
}

static void test_anti_diagonal_line_on_3x3(void **state)
{
    (void)state;
    check_x_line("3x3", (int[]){2, 4, 6}, (int[]){0, 1}, 3);
}

static void test_o_line_on_3x3(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_board b;
    ttt_board_init(&b, &r);
    play_all(&b, (int[]){0, 3, 1, 4, 8}, 5);
    assert_true(ttt_board_makes_line(&b, TTT_O, 5));
    assert_true(ttt_board_makes_line(&b, TTT_X, 2));
    ttt_board_play(&b, 5);
    assert_int_equal(b.line_owner, TTT_O);
    assert_int_equal(ttt_board_outcome(&b), TTT_O_WINS);
    assert_int_equal(ttt_board_winner(&b), TTT_O);
    assert_int_equal(ttt_board_utility(&b), -1);
    assert_true(ttt_board_terminal(&b));
    ttt_move line[TTT_MAX_SIDE];
    assert_int_equal(ttt_board_line_cells(&b, line), 3);
    assert_true(contains(line, 3, 3) && contains(line, 3, 4) && contains(line, 3, 5));
}

/* Lines on 5x5 k4 away from the first cell, with the completing stone in the middle of the line. */
static void test_lines_on_5x5_k4_inside_the_board(void **state)
{
    (void)state;
    ttt_rules r = rules_of("5x5k4");
    /* row 2, cols 1..4, last stone at col 2 */
    int row_x[] = {cell_at(&r, 2, 1), cell_at(&r, 2, 3), cell_at(&r, 2, 4), cell_at(&r, 2, 2)};
    int row_o[] = {cell_at(&r, 0, 0), cell_at(&r, 4, 4), cell_at(&r, 0, 2)};
    check_x_line("5x5k4", row_x, row_o, 4);
    /* col 3, rows 1..4, last stone at row 3 */
    int col_x[] = {cell_at(&r, 1, 3), cell_at(&r, 2, 3), cell_at(&r, 4, 3), cell_at(&r, 3, 3)};
    int col_o[] = {cell_at(&r, 0, 0), cell_at(&r, 4, 0), cell_at(&r, 0, 2)};
    check_x_line("5x5k4", col_x, col_o, 4);
    /* diagonal (1,1)..(4,4), last stone at (2,2) */
    int diag_x[] = {cell_at(&r, 1, 1), cell_at(&r, 3, 3), cell_at(&r, 4, 4), cell_at(&r, 2, 2)};
    int diag_o[] = {cell_at(&r, 0, 4), cell_at(&r, 4, 0), cell_at(&r, 0, 2)};
    check_x_line("5x5k4", diag_x, diag_o, 4);
    /* anti-diagonal (1,4),(2,3),(3,2),(4,1), last stone at (3,2) */
    int anti_x[] = {cell_at(&r, 1, 4), cell_at(&r, 2, 3), cell_at(&r, 4, 1), cell_at(&r, 3, 2)};
    int anti_o[] = {cell_at(&r, 0, 0), cell_at(&r, 4, 4), cell_at(&r, 0, 2)};
    check_x_line("5x5k4", anti_x, anti_o, 4);
    /* anti-diagonal (0,3),(1,2),(2,1),(3,0), last stone at the top end */
    int anti2_x[] = {cell_at(&r, 1, 2), cell_at(&r, 2, 1), cell_at(&r, 3, 0), cell_at(&r, 0, 3)};
    int anti2_o[] = {cell_at(&r, 0, 0), cell_at(&r, 4, 4), cell_at(&r, 4, 2)};
    check_x_line("5x5k4", anti2_x, anti2_o, 4);
}

/* Cells consecutive in reading order but wrapping around the edge are not a line. */
static void test_no_line_wraps_around_the_edge(void **state)
{
    (void)state;
    ttt_board b;
    ttt_rules r3 = ttt_rules_default();
    board_from_picture(&b, &r3, "..x/xx./ooo");
    /* x on 2, 3, 4 is not a line; O has one but we only ask about X here. */
    assert_false(ttt_board_has_line(&b, TTT_X));
    board_from_picture(&b, &r3, "..x/x../.o.");
    assert_false(ttt_board_makes_line(&b, TTT_X, 4));
    assert_false(ttt_board_makes_line(&b, TTT_X, 1));

    ttt_rules r = rules_of("5x5k4");
    /* cells 3, 9, 15, 21: steps of cols + 1 that wrap */
    board_from_picture(&b, &r, "...x./....x/...../x..../.x...");
    assert_false(ttt_board_has_line(&b, TTT_X));
    /* cells 0, 4, 8, 12: steps of cols - 1 that wrap */
    board_from_picture(&b, &r, "x...x/...x./..x../...../.....");
    assert_false(ttt_board_has_line(&b, TTT_X));
    /* cells 3, 4, 5, 6: row steps that wrap */
    board_from_picture(&b, &r, "...xx/xx.../...../...../.....");
    assert_false(ttt_board_has_line(&b, TTT_X));

    ttt_rules r15 = rules_of("15x15k5");
    ttt_bits x, o;
    memset(&x, 0, sizeof x);
    memset(&o, 0, sizeof o);
    for (int cell = 12; cell < 17; cell++) { /* row 0 cols 12..14 then row 1 cols 0..1 */
        ttt_bits_set(&x, cell);
    }
    ttt_board_from_bits(&b, &r15, &x, &o);
    assert_false(ttt_board_has_line(&b, TTT_X));
    assert_int_equal(b.line_owner, TTT_NOBODY);
    memset(&x, 0, sizeof x);
    for (int cell = 222; cell < 225; cell++) { /* the end of the last row and nothing beyond */
        ttt_bits_set(&x, cell);
    }
    ttt_bits_set(&x, 0);
    ttt_bits_set(&x, 1);
    ttt_board_from_bits(&b, &r15, &x, &o);
    assert_false(ttt_board_has_line(&b, TTT_X));
}

static void test_lines_on_15x15_k5_beyond_first_word(void **state)
{
    (void)state;
    ttt_rules r = rules_of("15x15k5");
    int o_far[] = {cell_at(&r, 0, 0), cell_at(&r, 0, 2), cell_at(&r, 0, 4), cell_at(&r, 0, 6)};
    /* bottom row, cols 10..14 (word 3), last stone in the middle */
    int row_x[] = {cell_at(&r, 14, 10), cell_at(&r, 14, 11), cell_at(&r, 14, 13), cell_at(&r, 14, 14),
                   cell_at(&r, 14, 12)};
    check_x_line("15x15k5", row_x, o_far, 5);
    /* right column, rows 10..14 */
    int col_x[] = {cell_at(&r, 10, 14), cell_at(&r, 11, 14), cell_at(&r, 12, 14), cell_at(&r, 13, 14),
                   cell_at(&r, 14, 14)};
    check_x_line("15x15k5", col_x, o_far, 5);
    /* diagonal into the bottom-right corner */
    int diag_x[] = {cell_at(&r, 14, 14), cell_at(&r, 13, 13), cell_at(&r, 11, 11), cell_at(&r, 10, 10),
                    cell_at(&r, 12, 12)};
    check_x_line("15x15k5", diag_x, o_far, 5);
    /* anti-diagonal (10,14)..(14,10) */
    int anti_x[] = {cell_at(&r, 10, 14), cell_at(&r, 11, 13), cell_at(&r, 13, 11), cell_at(&r, 14, 10),
                    cell_at(&r, 12, 12)};
    check_x_line("15x15k5", anti_x, o_far, 5);
    /* a row crossing from word 0 into word 1: cells 62..66 (row 4, cols 2..6) */
    int cross_x[] = {62, 63, 65, 66, 64};
    check_x_line("15x15k5", cross_x, o_far, 5);
    /* a column crossing words: col 7, rows 3..7 (cells 52, 67, 82, 97, 112) */
    int vcross_x[] = {cell_at(&r, 3, 7), cell_at(&r, 4, 7), cell_at(&r, 6, 7), cell_at(&r, 7, 7),
                      cell_at(&r, 5, 7)};
    check_x_line("15x15k5", vcross_x, o_far, 5);
    /* anti-diagonal crossing words 1..2: (6,9),(7,8),(8,7),(9,6),(10,5) */
    int across_x[] = {cell_at(&r, 6, 9), cell_at(&r, 7, 8), cell_at(&r, 9, 6), cell_at(&r, 10, 5),
                      cell_at(&r, 8, 7)};
    check_x_line("15x15k5", across_x, o_far, 5);
}

static void test_lines_on_16x16_last_word(void **state)
{
    (void)state;
    ttt_rules r = rules_of("16x16k5");
    int o_far[] = {0, 2, 4, 6};
    int row_x[] = {251, 252, 253, 255, 254};
    check_x_line("16x16k5", row_x, o_far, 5);
    int diag_x[] = {cell_at(&r, 11, 11), cell_at(&r, 12, 12), cell_at(&r, 13, 13), cell_at(&r, 15, 15),
                    cell_at(&r, 14, 14)};
    check_x_line("16x16k5", diag_x, o_far, 5);
}

static void test_lines_on_rectangles(void **state)
{
    (void)state;
    ttt_rules r35 = rules_of("3x5");
    assert_int_equal(r35.k, 3);
    /* horizontal in the right part of the middle row */
    int h_x[] = {cell_at(&r35, 1, 2), cell_at(&r35, 1, 4), cell_at(&r35, 1, 3)};
    int h_o[] = {cell_at(&r35, 0, 0), cell_at(&r35, 2, 0)};
    check_x_line("3x5", h_x, h_o, 3);
    /* diagonal that does not start in column 0 */
    int d_x[] = {cell_at(&r35, 0, 2), cell_at(&r35, 2, 4), cell_at(&r35, 1, 3)};
    check_x_line("3x5", d_x, h_o, 3);

    ttt_rules r64 = rules_of("6x4");
    assert_int_equal(r64.k, 4);
    /* vertical in the lower part of the last column */
    int v_x[] = {cell_at(&r64, 2, 3), cell_at(&r64, 3, 3), cell_at(&r64, 5, 3), cell_at(&r64, 4, 3)};
    int v_o[] = {cell_at(&r64, 0, 0), cell_at(&r64, 0, 2), cell_at(&r64, 5, 0)};
    check_x_line("6x4", v_x, v_o, 4);
    /* anti-diagonal at the bottom of the rectangle */
    int a_x[] = {cell_at(&r64, 2, 3), cell_at(&r64, 3, 2), cell_at(&r64, 5, 0), cell_at(&r64, 4, 1)};
    int a_o[] = {cell_at(&r64, 0, 0), cell_at(&r64, 0, 2), cell_at(&r64, 1, 3)};
    check_x_line("6x4", a_x, a_o, 4);
}

static void test_k_smaller_than_board(void **state)
{
    (void)state;
    ttt_rules r = rules_of("6x6k4");
    ttt_board b;
    ttt_board_init(&b, &r);
    /* X: (2,1) (2,2) (2,3) with O far away: three in a row do not end the game. */
    play_all(&b,
             (int[]){cell_at(&r, 2, 1), cell_at(&r, 5, 5), cell_at(&r, 2, 2), cell_at(&r, 0, 0),
                     cell_at(&r, 2, 3), cell_at(&r, 5, 0)},
             6);
    assert_false(ttt_board_terminal(&b));
    assert_false(ttt_board_has_line(&b, TTT_X));
    assert_true(ttt_board_makes_line(&b, TTT_X, cell_at(&r, 2, 4)));
    assert_true(ttt_board_makes_line(&b, TTT_X, cell_at(&r, 2, 0)));
    assert_false(ttt_board_makes_line(&b, TTT_X, cell_at(&r, 2, 5)));
    ttt_board_play(&b, cell_at(&r, 2, 4));
    assert_true(ttt_board_terminal(&b));
    assert_int_equal(ttt_board_outcome(&b), TTT_X_WINS);
    ttt_move line[TTT_MAX_SIDE];
    assert_int_equal(ttt_board_line_cells(&b, line), 4);
}

static void test_k_larger_than_shorter_side(void **state)
{
    (void)state;
    ttt_rules r = rules_of("3x5k5");
    /* a full column of 3 is not a line */
    ttt_board b;
    ttt_board_init(&b, &r);
    play_all(&b,
             (int[]){cell_at(&r, 0, 0), cell_at(&r, 0, 4), cell_at(&r, 1, 0), cell_at(&r, 1, 4),
                     cell_at(&r, 2, 0)},
             5);
    assert_false(ttt_board_terminal(&b));
    assert_false(ttt_board_has_line(&b, TTT_X));
    ttt_board_play(&b, cell_at(&r, 2, 4));
    assert_false(ttt_board_terminal(&b));
    assert_false(ttt_board_has_line(&b, TTT_O));
    /* a row of 5 is */
    int row_x[] = {5, 6, 8, 9, 7};
    int row_o[] = {0, 2, 4, 11};
    check_x_line("3x5k5", row_x, row_o, 5);
}

static void test_misere_line_loses(void **state)
{
    (void)state;
    check_x_line("3x3-misere", (int[]){0, 1, 2}, (int[]){3, 4}, 3);
    check_x_line("4x4k3-misere", (int[]){5, 15, 10}, (int[]){0, 3}, 3);

    ttt_rules r = rules_of("3x3-misere");
    ttt_board b;
    ttt_board_init(&b, &r);
    play_all(&b, (int[]){0, 3, 1, 4, 8, 5}, 6);
    assert_int_equal(b.line_owner, TTT_O);
    assert_int_equal(ttt_board_outcome(&b), TTT_X_WINS);
    assert_int_equal(ttt_board_winner(&b), TTT_X);
    assert_int_equal(ttt_board_utility(&b), 1);
    assert_true(ttt_board_terminal(&b));
}

/* x o x / x o o / o x x, reached without a line on the way. */
static const int draw_order[] = {0, 4, 8, 1, 7, 6, 2, 5, 3};

static void test_full_board_draw(void **state)
{
    (void)state;
    const char *all[] = {"3x3", "3x3-misere"};
    for (int v = 0; v < 2; v++) {
        ttt_rules r = rules_of(all[v]);
        ttt_board b;
        ttt_board_init(&b, &r);
        for (int i = 0; i < 9; i++) {
            assert_false(ttt_board_terminal(&b));
            assert_int_equal(ttt_board_to_move(&b), i % 2 == 0 ? TTT_X : TTT_O);
            ttt_board_play(&b, draw_order[i]);
        }
        assert_true(ttt_board_terminal(&b));
        assert_int_equal(b.line_owner, TTT_NOBODY);
        assert_int_equal(ttt_board_outcome(&b), TTT_DRAW);
        assert_int_equal(ttt_board_winner(&b), TTT_NOBODY);
        assert_int_equal(ttt_board_utility(&b), 0);
        ttt_move moves[TTT_MAX_CELLS];
        assert_int_equal(ttt_board_moves(&b, moves), 0);
        ttt_bits empty = ttt_board_empty_cells(&b);
        assert_int_equal(ttt_bits_count(&empty), 0);
        ttt_board pic;
        board_from_picture(&pic, &r, "xox/xoo/oxx");
        assert_board_same(&b, &pic);
    }
}

/* A line made with the very last cell is a win, not a draw (a loss under misère). */
static void test_line_on_last_cell_beats_draw(void **state)
{
    (void)state;
    const int order[] = {0, 1, 2, 3, 6, 5, 8, 7, 4};
    ttt_rules r = ttt_rules_default();
    ttt_board b;
    ttt_board_init(&b, &r);
    play_all(&b, order, 8);
    assert_false(ttt_board_terminal(&b));
    ttt_board_play(&b, 4);
    assert_int_equal(b.ply, 9);
    assert_int_equal(b.line_owner, TTT_X);
    assert_int_equal(ttt_board_outcome(&b), TTT_X_WINS);

    r = rules_of("3x3-misere");
    ttt_board_init(&b, &r);
    play_all(&b, order, 9);
    assert_int_equal(ttt_board_outcome(&b), TTT_O_WINS);
}

static void test_terminal_board_has_no_moves(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_board b;
    ttt_board_init(&b, &r);
    play_all(&b, (int[]){0, 3, 1, 4, 2}, 5);
    ttt_move moves[TTT_MAX_CELLS];
    assert_int_equal(ttt_board_moves(&b, moves), 0);
    for (int cell = 0; cell < 9; cell++) {
        assert_false(ttt_board_is_legal(&b, cell));
    }
    /* the empty cells are still reported */
    ttt_bits empty = ttt_board_empty_cells(&b);
    assert_int_equal(ttt_bits_count(&empty), 4);
}

static void test_makes_line_win_in_one_and_block(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_board b;
    ttt_board_init(&b, &r);
    /* X: a1 b1, O: b2; X to move wins at c1 */
    play_all(&b, (int[]){0, 4, 1}, 3);
    /* O to move: must block at c1 */
    assert_true(ttt_board_makes_line(&b, TTT_X, 2));
    assert_false(ttt_board_makes_line(&b, TTT_O, 2));
    assert_false(ttt_board_makes_line(&b, TTT_X, 3));
    assert_false(ttt_board_makes_line(&b, TTT_X, 8));
    ttt_board_play(&b, 2);
    /* X: a1 b1, O: b2 c1; X to move must block the anti-diagonal at a3 */
    assert_true(ttt_board_makes_line(&b, TTT_O, 6));
    assert_false(ttt_board_makes_line(&b, TTT_X, 6));
    assert_false(ttt_board_makes_line(&b, TTT_O, 8));
    /* asking does not change the board */
    assert_int_equal(ttt_board_at(&b, 6), TTT_NOBODY);
    assert_int_equal(b.ply, 4);

    /* the gap in the middle of a broken five */
    ttt_rules r15 = rules_of("15x15k5");
    ttt_board_init(&b, &r15);
    play_all(&b, (int[]){100, 0, 101, 2, 103, 4, 104, 6}, 8);
    assert_true(ttt_board_makes_line(&b, TTT_X, 102));
    assert_false(ttt_board_makes_line(&b, TTT_X, 99));
    assert_false(ttt_board_makes_line(&b, TTT_X, 105));
    assert_false(ttt_board_makes_line(&b, TTT_O, 102));
}

static void test_line_cells_returns_the_line(void **state)
{
    (void)state;
    ttt_rules r = rules_of("7x6k4");
    ttt_board b;
    /* X diagonal (3,1),(4,2),(5,3),(6,4); O three stones elsewhere */
    board_from_picture(&b, &r, "o...../o...../....../.x..../..x.../...x../o...x.");
    assert_int_equal(b.line_owner, TTT_X);
    ttt_move line[TTT_MAX_SIDE];
    int n = ttt_board_line_cells(&b, line);
    assert_int_equal(n, 4);
    int expected[] = {cell_at(&r, 3, 1), cell_at(&r, 4, 2), cell_at(&r, 5, 3), cell_at(&r, 6, 4)};
    for (int i = 0; i < 4; i++) {
        assert_true(contains(line, n, expected[i]));
    }
}

/* --- Checked moves -------------------------------------------------------------------------------------- */

static void assert_checked_play_fails(ttt_board *b, ttt_move cell)
{
    ttt_board before = *b;
    ttt_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(ttt_board_play_checked(b, cell, &err), TTT_EINVAL);
    assert_true(strlen(err.msg) > 0);
    assert_board_same(b, &before);

    ttt_board out;
    ttt_board_init(&out, &b->rules);
    memset(&err, 0, sizeof err);
    assert_int_equal(ttt_board_result(b, cell, &out, &err), TTT_EINVAL);
    assert_true(strlen(err.msg) > 0);
    assert_board_same(b, &before);
}

static void test_play_checked_rejects_taken_cell(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_board b;
    ttt_board_init(&b, &r);
    play_all(&b, (int[]){4, 0}, 2);
    assert_checked_play_fails(&b, 4);
    assert_checked_play_fails(&b, 0);
}

static void test_play_checked_rejects_off_board_cell(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_board b;
    ttt_board_init(&b, &r);
    assert_checked_play_fails(&b, -5);
    assert_checked_play_fails(&b, 9);
    assert_checked_play_fails(&b, TTT_NO_MOVE);
    assert_checked_play_fails(&b, 1000);
    ttt_board_play(&b, 4);
    assert_checked_play_fails(&b, 12);
}

static void test_play_checked_rejects_move_after_game_over(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_board b;
    ttt_board_init(&b, &r);
    play_all(&b, (int[]){0, 3, 1, 4, 2}, 5);
    assert_true(ttt_board_terminal(&b));
    assert_checked_play_fails(&b, 8);
}

static void test_play_checked_makes_legal_move(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_board b, fast;
    ttt_board_init(&b, &r);
    ttt_board_init(&fast, &r);
    ttt_error err = {{0}};
    for (int i = 0; i < 9; i++) {
        assert_int_equal(ttt_board_play_checked(&b, draw_order[i], &err), TTT_OK);
        ttt_board_play(&fast, draw_order[i]);
        assert_board_same(&b, &fast);
    }
    assert_int_equal(ttt_board_play_checked(&b, 0, NULL), TTT_EINVAL);
}

static void test_result_leaves_input_untouched(void **state)
{
    (void)state;
    ttt_rules r = rules_of("4x4k3");
    ttt_board b;
    ttt_board_init(&b, &r);
    play_all(&b, (int[]){5, 0}, 2);
    ttt_board before = b;
    ttt_board out;
    ttt_error err = {{0}};
    assert_int_equal(ttt_board_result(&b, 10, &out, &err), TTT_OK);
    assert_board_same(&b, &before);
    assert_int_equal(ttt_board_at(&out, 10), TTT_X);
    assert_int_equal(out.ply, 3);
    ttt_board expected = b;
    ttt_board_play(&expected, 10);
    assert_board_same(&out, &expected);
    /* and the winning move through result */
    ttt_board next, won;
    assert_int_equal(ttt_board_result(&out, 1, &next, &err), TTT_OK);
    assert_int_equal(ttt_board_result(&next, 15, &won, &err), TTT_OK);
    assert_int_equal(next.line_owner, TTT_NOBODY);
    assert_int_equal(won.line_owner, TTT_X);
    assert_int_equal(ttt_board_outcome(&won), TTT_X_WINS);
}

/* --- Hashing -------------------------------------------------------------------------------------------- */

static void check_hash(const ttt_board *b)
{
    assert_true(b->hash == ttt_board_hash_full(b));
    assert_true(b->hash == hash_from_keys(b));
}

static void test_incremental_hash_matches_full_hash(void **state)
{
    (void)state;
    const char *all[] = {"3x3", "4x4k3-misere", "3x5", "7x6k4", "8x8k4", "15x15k5", "16x16k5", "16x3"};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        ttt_rules r = rules_of(all[i]);
        ttt_rng rng;
        ttt_rng_seed(&rng, 1000 + i);
        ttt_board b, fresh;
        ttt_board_init(&b, &r);
        ttt_board_init(&fresh, &r);
        ttt_move played[TTT_MAX_CELLS];
        int count = 0;
        for (int round = 0; round < 40; round++) {
            /* play forward a random number of moves, or to the end */
            int forward = 1 + (int)ttt_rng_below(&rng, 12);
            for (int f = 0; f < forward && !ttt_board_terminal(&b); f++) {
                ttt_move moves[TTT_MAX_CELLS];
                int n = ttt_board_moves(&b, moves);
                assert_true(n > 0);
                ttt_move m = moves[ttt_rng_below(&rng, (uint32_t)n)];
                ttt_board_play(&b, m);
                played[count++] = m;
                check_hash(&b);
            }
            /* take back a random number of moves */
            int back = (int)ttt_rng_below(&rng, (uint32_t)count + 1);
            for (int u = 0; u < back; u++) {
                ttt_board_undo(&b, played[--count]);
                check_hash(&b);
            }
            assert_int_equal(b.ply, count);
        }
        while (count > 0) {
            ttt_board_undo(&b, played[--count]);
        }
        assert_true(b.hash == 0);
        assert_board_same(&b, &fresh);
    }
}

static void test_transpositions_hash_equal(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_board a, b;
    ttt_board_init(&a, &r);
    ttt_board_init(&b, &r);
    play_all(&a, (int[]){0, 4, 8, 1}, 4);
    play_all(&b, (int[]){8, 1, 0, 4}, 4);
    assert_true(a.hash == b.hash);
    assert_board_same(&a, &b);

    ttt_rules r15 = rules_of("15x15k5");
    ttt_board_init(&a, &r15);
    ttt_board_init(&b, &r15);
    play_all(&a, (int[]){200, 7, 100, 150, 70}, 5);
    play_all(&b, (int[]){70, 150, 200, 7, 100}, 5);
    assert_true(a.hash == b.hash);
    assert_board_same(&a, &b);

    /* from_bits derives the same hash */
    ttt_board c;
    ttt_board_from_bits(&c, &r15, &a.stones[TTT_X], &a.stones[TTT_O]);
    assert_board_same(&a, &c);
}

static void test_zobrist_keys_distinct_and_non_zero(void **state)
{
    (void)state;
    static uint64_t keys[2 * TTT_MAX_CELLS];
    int n = 0;
    for (int who = 0; who < 2; who++) {
        for (int cell = 0; cell < TTT_MAX_CELLS; cell++) {
            uint64_t k = ttt_zobrist_key((ttt_player)who, cell);
            assert_true(k != 0);
            assert_true(k == ttt_zobrist_key((ttt_player)who, cell));
            keys[n++] = k;
        }
    }
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < i; j++) {
            assert_true(keys[i] != keys[j]);
        }
    }
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Every reachable 3x3 position, each visited once. */
static void collect_hashes(ttt_board *b, unsigned char *seen, uint64_t *hashes, int *n)
{
    unsigned key = (unsigned)(b->stones[TTT_X].w[0] | (b->stones[TTT_O].w[0] << 9));
    if (seen[key]) {
        return;
    }
    seen[key] = 1;
    hashes[(*n)++] = b->hash;
    if (ttt_board_terminal(b)) {
        return;
    }
    for (int cell = 0; cell < 9; cell++) {
        if (ttt_board_at(b, cell) == TTT_NOBODY) {
            ttt_board_play(b, cell);
            collect_hashes(b, seen, hashes, n);
            ttt_board_undo(b, cell);
        }
    }
}

static void test_different_positions_hash_differently(void **state)
{
    (void)state;
    unsigned char *seen = calloc(1u << 18, 1);
    uint64_t *hashes = calloc(6000, sizeof *hashes);
    assert_non_null(seen);
    assert_non_null(hashes);
    ttt_rules r = ttt_rules_default();
    ttt_board b;
    ttt_board_init(&b, &r);
    int n = 0;
    collect_hashes(&b, seen, hashes, &n);
    assert_true(n > 5000);
    qsort(hashes, (size_t)n, sizeof *hashes, compare_u64);
    for (int i = 1; i < n; i++) {
        assert_true(hashes[i] != hashes[i - 1]);
    }
    /* X and O on the same cell differ */
    ttt_board a, c;
    ttt_board_init(&a, &r);
    ttt_board_init(&c, &r);
    play_all(&a, (int[]){0, 4}, 2);
    play_all(&c, (int[]){4, 0}, 2);
    assert_true(a.hash != c.hash);
    assert_false(ttt_board_equal(&a, &c));
    free(seen);
    free(hashes);
}

/* --- from_bits and validation --------------------------------------------------------------------------- */

static void assert_valid(const char *rules_text, const char *picture)
{
    ttt_rules r = rules_of(rules_text);
    ttt_board b;
    board_from_picture(&b, &r, picture);
    ttt_error err = {{0}};
    ttt_status st = ttt_board_validate(&b, &err);
    if (st != TTT_OK) {
        print_error("%s %s rejected: %s\n", rules_text, picture, err.msg);
    }
    assert_int_equal(st, TTT_OK);
    check_hash(&b);
}

static void assert_invalid(const char *rules_text, const char *picture)
{
    ttt_rules r = rules_of(rules_text);
    ttt_board b;
    board_from_picture(&b, &r, picture);
    ttt_board before = b;
    ttt_error err;
    memset(&err, 0, sizeof err);
    ttt_status st = ttt_board_validate(&b, &err);
    if (st != TTT_EINVAL) {
        print_error("%s %s accepted (status %d)\n", rules_text, picture, (int)st);
    }
    assert_int_equal(st, TTT_EINVAL);
    assert_true(strlen(err.msg) > 0);
    assert_board_same(&b, &before);
    assert_int_equal(ttt_board_validate(&b, NULL), TTT_EINVAL);
}

static void test_from_bits_derives_fields(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_board b, played;
    board_from_picture(&b, &r, "xxx/xoo/xoo");
    assert_int_equal(b.ply, 9);
    assert_int_equal(b.cells, 9);
    assert_int_equal(b.line_owner, TTT_X);
    assert_true(ttt_board_terminal(&b));
    assert_int_equal(ttt_board_outcome(&b), TTT_X_WINS);
    check_hash(&b);

    board_from_picture(&b, &r, "x../.o./..x");
    ttt_board_init(&played, &r);
    play_all(&played, (int[]){0, 4, 8}, 3);
    assert_board_same(&b, &played);
    assert_int_equal(ttt_board_to_move(&b), TTT_O);

    board_from_picture(&b, &r, ".../.../...");
    ttt_board_init(&played, &r);
    assert_board_same(&b, &played);
}

static void test_validate_rejects_o_ahead(void **state)
{
    (void)state;
    assert_invalid("3x3", ".o./.../...");
    assert_invalid("3x3", "xo./o../...");
    assert_invalid("15x15k5", "o............../.............../.............../.............../"
                              ".............../.............../.............../.............../"
                              ".............../.............../.............../.............../"
                              ".............../.............../..............o");
}

static void test_validate_rejects_x_two_ahead(void **state)
{
    (void)state;
    assert_invalid("3x3", "xx./.../...");
    assert_invalid("3x3", "xxo/x../x..");
}

static void test_validate_rejects_both_sides_with_a_line(void **state)
{
    (void)state;
    assert_invalid("3x3", "xxx/ooo/x..");
    assert_invalid("3x3", "xxx/ooo/...");
    assert_invalid("4x4k3", "xxx./ooo./x.../....");
}

static void test_validate_rejects_x_line_with_o_moving_after(void **state)
{
    (void)state;
    /* X completed a line, then O played again: equal counts */
    assert_invalid("3x3", "xxx/oo./o..");
    assert_invalid("3x3-misere", "xxx/oo./o..");
}

static void test_validate_rejects_o_line_with_x_moving_after(void **state)
{
    (void)state;
    assert_invalid("3x3", "ooo/xx./xx.");
}

static void test_validate_rejects_two_disjoint_lines(void **state)
{
    (void)state;
    /* X has two separate lines: no single last stone made both */
    assert_invalid("6x6k3", "xxx.../....../o.o.o./.o.o../....../xxx...");
    assert_invalid("4x4k3", "xxx./oo.o/.oo./xxx.");
}

static void test_validate_accepts_reachable_positions(void **state)
{
    (void)state;
    assert_valid("3x3", ".../.../...");
    assert_valid("3x3", "x../.../...");
    assert_valid("3x3", "x.o/.x./..o");
    /* a plain win for each side */
    assert_valid("3x3", "xxx/oo./...");
    assert_valid("3x3", "xx./ooo/x..");
    /* the full-board draw and a line on the last cell */
    assert_valid("3x3", "xox/xoo/oxx");
    assert_valid("3x3", "xox/oxo/xox");
    /* under misère the same stones are just as reachable */
    assert_valid("3x3-misere", "xxx/oo./...");
    assert_valid("15x15k5", "xxxxx........../oooo.........../.............../.............../"
                            ".............../.............../.............../.............../"
                            ".............../.............../.............../.............../"
                            ".............../.............../...............");
}

/* X's last stone on a1 completes the top row and the left column at once. */
static void test_validate_accepts_fork_completed_by_one_stone(void **state)
{
    (void)state;
    assert_valid("3x3", "xxx/xoo/xoo");
    /* a replay reaching it, to be sure it is a real game */
    ttt_rules r = ttt_rules_default();
    ttt_board b, pic;
    ttt_board_init(&b, &r);
    play_all(&b, (int[]){1, 4, 2, 5, 3, 7, 6, 8, 0}, 9);
    board_from_picture(&pic, &r, "xxx/xoo/xoo");
    assert_board_same(&b, &pic);
    assert_int_equal(ttt_board_outcome(&b), TTT_X_WINS);
}

/* Four in a row with k = 3: the second stone of the four was the last one and made both lines. */
static void test_validate_accepts_overline_made_by_one_stone(void **state)
{
    (void)state;
    assert_valid("4x4k3", "xxxx/oo../o.../....");
    /* five in a row with k = 3: the middle stone made all three lines */
    assert_valid("5x5k3", "xxxxx/oo.o./o..../...../.....");
    /* but six in a row with k = 3 has no single stone whose removal undoes every line */
    assert_invalid("6x6k3", "xxxxxx/oo.oo./o...../....../....../......");
}

/* The largest board, 20x20k5: cells past 256 (words 4 to 6 of a bit set) play, undo, hash and make lines, and
 * engines play a whole game through the library to its end, every move legal. */
static void test_largest_board_20x20k5(void **state)
{
    (void)state;
    ttt_rules r = rules_of("20x20k5");
    ttt_board b = board_of(&r, "t16 a1 t17 a2 t18 a3 t19 a5");
    assert_int_equal(b.cells, 400);
    ttt_board before = b;
    assert_true(ttt_board_makes_line(&b, TTT_X, 399));
    ttt_board_play(&b, 399); /* t20 completes t16-t20 */
    assert_int_equal(ttt_board_outcome(&b), TTT_X_WINS);
    ttt_move line[TTT_MAX_SIDE];
    assert_int_equal(ttt_board_line_cells(&b, line), 5);
    assert_true(b.hash == ttt_board_hash_full(&b));
    assert_int_equal(ttt_board_validate(&b, NULL), TTT_OK);
    ttt_board_undo(&b, 399);
    assert_true(ttt_board_equal(&b, &before) && b.hash == before.hash);
    /* Every key differs: the keys of the cells past 256 do not repeat those of the first 256 or the other
     * side. */
    for (int cell = 0; cell < 400; cell++)
        for (int other = 0; other < 400; other++) {
            assert_true(ttt_zobrist_key(TTT_X, cell) != ttt_zobrist_key(TTT_O, other));
            assert_true(other == cell || ttt_zobrist_key(TTT_X, cell) != ttt_zobrist_key(TTT_X, other));
        }

    const char *specs[] = {"mcts:iterations=200,seed=1", "heuristic"};
    ttt_engine *e[2] = {engine_ok(specs[0], &r), engine_ok(specs[1], &r)};
    ttt_board_init(&b, &r);
    while (!ttt_board_terminal(&b)) {
        ttt_move m = TTT_NO_MOVE;
        ttt_error err = {{0}};
        assert_int_equal(ttt_engine_choose(e[b.ply & 1], &b, &m, NULL, &err), TTT_OK);
        assert_true(ttt_board_is_legal(&b, m));
        ttt_board_play(&b, m);
        assert_true(b.hash == ttt_board_hash_full(&b));
    }
    assert_int_equal(ttt_board_validate(&b, NULL), TTT_OK);
    assert_true(b.line_owner != TTT_NOBODY || b.ply == 400);
    ttt_engine_free(e[0]);
    ttt_engine_free(e[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_board_state),
        cmocka_unit_test(test_empty_large_board_state),
        cmocka_unit_test(test_empty_cells_exclude_off_board_bits),
        cmocka_unit_test(test_bits_count_equal_compare),
        cmocka_unit_test(test_play_alternates_sides),
        cmocka_unit_test(test_play_undo_restores_exact_board),
        cmocka_unit_test(test_is_legal_accepts_any_int),
        cmocka_unit_test(test_row_line_on_3x3),
        cmocka_unit_test(test_column_line_on_3x3),
        cmocka_unit_test(test_diagonal_line_on_3x3),
        cmocka_unit_test(test_anti_diagonal_line_on_3x3),
        cmocka_unit_test(test_o_line_on_3x3),
        cmocka_unit_test(test_lines_on_5x5_k4_inside_the_board),
        cmocka_unit_test(test_no_line_wraps_around_the_edge),
        cmocka_unit_test(test_lines_on_15x15_k5_beyond_first_word),
        cmocka_unit_test(test_lines_on_16x16_last_word),
        cmocka_unit_test(test_lines_on_rectangles),
        cmocka_unit_test(test_k_smaller_than_board),
        cmocka_unit_test(test_k_larger_than_shorter_side),
        cmocka_unit_test(test_misere_line_loses),
        cmocka_unit_test(test_full_board_draw),
        cmocka_unit_test(test_line_on_last_cell_beats_draw),
        cmocka_unit_test(test_terminal_board_has_no_moves),
        cmocka_unit_test(test_makes_line_win_in_one_and_block),
        cmocka_unit_test(test_line_cells_returns_the_line),
        cmocka_unit_test(test_play_checked_rejects_taken_cell),
        cmocka_unit_test(test_play_checked_rejects_off_board_cell),
        cmocka_unit_test(test_play_checked_rejects_move_after_game_over),
        cmocka_unit_test(test_play_checked_makes_legal_move),
        cmocka_unit_test(test_result_leaves_input_untouched),
        cmocka_unit_test(test_incremental_hash_matches_full_hash),
        cmocka_unit_test(test_transpositions_hash_equal),
        cmocka_unit_test(test_zobrist_keys_distinct_and_non_zero),
        cmocka_unit_test(test_different_positions_hash_differently),
        cmocka_unit_test(test_from_bits_derives_fields),
        cmocka_unit_test(test_validate_rejects_o_ahead),
        cmocka_unit_test(test_validate_rejects_x_two_ahead),
        cmocka_unit_test(test_validate_rejects_both_sides_with_a_line),
        cmocka_unit_test(test_validate_rejects_x_line_with_o_moving_after),
        cmocka_unit_test(test_validate_rejects_o_line_with_x_moving_after),
        cmocka_unit_test(test_validate_rejects_two_disjoint_lines),
        cmocka_unit_test(test_validate_accepts_reachable_positions),
        cmocka_unit_test(test_validate_accepts_fork_completed_by_one_stone),
        cmocka_unit_test(test_validate_accepts_overline_made_by_one_stone),
        cmocka_unit_test(test_largest_board_20x20k5),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
