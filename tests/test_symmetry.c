/* Unit tests for ttt/symmetry.h: the symmetry group of the board and canonical forms. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "ttt/ttt.h"
#include "support.h"

/* --- Helpers -------------------------------------------------------------------------------------------- */

/* The symmetry as the header defines it: transpose (bit 2), then flip rows (bit 1), then flip cols (bit 0).
 * Written out here so that the library is checked against the definition, not against itself. */
static int reference_move(const ttt_rules *r, int s, int cell)
{
    int row = cell / r->cols, col = cell % r->cols;
    if (s & TTT_SYM_TRANSPOSE) {
        int t = row;
        row = col;
        col = t;
    }
    if (s & TTT_SYM_FLIP_ROWS) {
        row = r->rows - 1 - row;
    }
    if (s & TTT_SYM_FLIP_COLS) {
        col = r->cols - 1 - col;
    }
    return row * r->cols + col;
}

/* Sets of rules with the symmetries to test on each. */
static const char *const all_rules[] = {"3x3", "4x4k3", "5x5k4", "3x5", "6x4", "16x16k5", "15x15k5"};
#define N_RULES (sizeof all_rules / sizeof all_rules[0])

static void random_position(ttt_board *b, const ttt_rules *r, ttt_rng *rng, int max_plies)
{
    ttt_board_init(b, r);
    int plies = (int)ttt_rng_below(rng, (uint32_t)max_plies + 1);
    for (int p = 0; p < plies && !ttt_board_terminal(b); p++) {
        ttt_move moves[TTT_MAX_CELLS];
        int n = ttt_board_moves(b, moves);
        ttt_board_play(b, moves[ttt_rng_below(rng, (uint32_t)n)]);
    }
}

/* a < b in the canonical order: X stones first, then O stones, as 256-bit numbers. */
static int board_order(const ttt_board *a, const ttt_board *b)
{
    int c = ttt_bits_compare(&a->stones[TTT_X], &b->stones[TTT_X]);
    if (c != 0) {
        return c;
    }
    return ttt_bits_compare(&a->stones[TTT_O], &b->stones[TTT_O]);
}

static bool same_stones(const ttt_board *a, const ttt_board *b)
{
    return ttt_bits_equal(&a->stones[TTT_X], &b->stones[TTT_X]) &&
           ttt_bits_equal(&a->stones[TTT_O], &b->stones[TTT_O]);
}

/* --- The group ------------------------------------------------------------------------------------------ */

static void test_count_is_8_for_squares_and_4_for_rectangles(void **state)
{
    (void)state;
    ttt_rules r = rules_of("3x3");
    assert_int_equal(ttt_sym_count(&r), 8);
    r = rules_of("16x16k5");
    assert_int_equal(ttt_sym_count(&r), 8);
    r = rules_of("4x4k3-misere");
    assert_int_equal(ttt_sym_count(&r), 8);
    r = rules_of("3x5");
    assert_int_equal(ttt_sym_count(&r), 4);
    r = rules_of("6x4");
    assert_int_equal(ttt_sym_count(&r), 4);
    r = rules_of("7x6k4");
    assert_int_equal(ttt_sym_count(&r), 4);
    assert_int_equal(TTT_SYM_ALL, 8);
}

static void test_names(void **state)
{
    (void)state;
    const char *names[] = {"identity",  "mirror", "flip",   "rot180",
                           "transpose", "rot90",  "rot270", "antitranspose"};
    for (int s = 0; s < 8; s++) {
        assert_non_null(ttt_sym_name(s));
        assert_string_equal(ttt_sym_name(s), names[s]);
    }
}

static void test_sym_move_matches_definition(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_RULES; i++) {
        ttt_rules r = rules_of(all_rules[i]);
        int n = ttt_sym_count(&r);
        for (int s = 0; s < n; s++) {
            for (int cell = 0; cell < r.rows * r.cols; cell++) {
                assert_int_equal(ttt_sym_move(&r, s, cell), reference_move(&r, s, cell));
            }
            assert_int_equal(ttt_sym_move(&r, s, TTT_NO_MOVE), TTT_NO_MOVE);
        }
    }
}

static void test_each_symmetry_is_a_bijection(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_RULES; i++) {
        ttt_rules r = rules_of(all_rules[i]);
        int cells = r.rows * r.cols;
        for (int s = 0; s < ttt_sym_count(&r); s++) {
            bool hit[TTT_MAX_CELLS] = {false};
            for (int cell = 0; cell < cells; cell++) {
                int to = ttt_sym_move(&r, s, cell);
                assert_in_range(to, 0, cells - 1);
                assert_false(hit[to]);
                hit[to] = true;
            }
        }
    }
}

static void test_group_laws(void **state)
{
    (void)state;
    const char *sets[] = {"3x3", "4x4", "5x5", "3x5", "6x4"};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        ttt_rules r = rules_of(sets[i]);
        int n = ttt_sym_count(&r);
        int cells = r.rows * r.cols;
        for (int a = 0; a < n; a++) {
            /* identity on both sides */
            assert_int_equal(ttt_sym_compose(a, 0), a);
            assert_int_equal(ttt_sym_compose(0, a), a);
            /* inverses */
            int inv = ttt_sym_inverse(a);
            assert_in_range(inv, 0, n - 1);
            assert_int_equal(ttt_sym_compose(a, inv), 0);
            assert_int_equal(ttt_sym_compose(inv, a), 0);
            for (int cell = 0; cell < cells; cell++) {
                assert_int_equal(ttt_sym_move(&r, inv, ttt_sym_move(&r, a, cell)), cell);
            }
            for (int b = 0; b < n; b++) {
                int ab = ttt_sym_compose(a, b);
                assert_in_range(ab, 0, n - 1);
                /* compose(a, b) does b first, then a */
                for (int cell = 0; cell < cells; cell++) {
                    assert_int_equal(ttt_sym_move(&r, ab, cell),
                                     ttt_sym_move(&r, a, ttt_sym_move(&r, b, cell)));
                }
                for (int c = 0; c < n; c++) {
                    assert_int_equal(ttt_sym_compose(ttt_sym_compose(a, b), c),
                                     ttt_sym_compose(a, ttt_sym_compose(b, c)));
                }
            }
        }
    }
}

static void test_rot90_is_clockwise_and_has_order_4(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    const int rot90 = 5;
    /* a1 (top-left) goes to c1 (top-right), c1 to c3, c3 to a3, a3 back to a1 */
    assert_int_equal(ttt_sym_move(&r, rot90, 0), 2);
    assert_int_equal(ttt_sym_move(&r, rot90, 2), 8);
    assert_int_equal(ttt_sym_move(&r, rot90, 8), 6);
    assert_int_equal(ttt_sym_move(&r, rot90, 6), 0);
    assert_int_equal(ttt_sym_move(&r, rot90, 4), 4);
    assert_int_equal(ttt_sym_move(&r, rot90, 1), 5);
    int s = 0;
    for (int i = 0; i < 4; i++) {
        assert_true(i == 0 || s != 0);
        s = ttt_sym_compose(rot90, s);
    }
    assert_int_equal(s, 0);
    assert_int_equal(ttt_sym_compose(rot90, rot90), 3);
    assert_int_equal(ttt_sym_inverse(rot90), 6);
    for (int cell = 0; cell < 9; cell++) {
        int c = cell;
        for (int i = 0; i < 4; i++) {
            c = ttt_sym_move(&r, rot90, c);
        }
        assert_int_equal(c, cell);
    }
}

static void test_mirror_and_flip_on_3x3(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    assert_int_equal(ttt_sym_move(&r, TTT_SYM_FLIP_COLS, 0), 2); /* mirror: a1 -> c1 */
    assert_int_equal(ttt_sym_move(&r, TTT_SYM_FLIP_ROWS, 0), 6); /* flip: a1 -> a3 */
    assert_int_equal(ttt_sym_move(&r, 3, 0), 8);                 /* rot180: a1 -> c3 */
    assert_int_equal(ttt_sym_move(&r, TTT_SYM_TRANSPOSE, 1), 3); /* transpose: b1 -> a2 */
    assert_int_equal(ttt_sym_move(&r, 7, 0), 8);                 /* antitranspose: a1 -> c3 */
    assert_int_equal(ttt_sym_move(&r, 7, 2), 2);                 /* and fixes c1 */

    ttt_rules r35 = rules_of("3x5");
    assert_int_equal(ttt_sym_move(&r35, TTT_SYM_FLIP_COLS, 0), 4);
    assert_int_equal(ttt_sym_move(&r35, TTT_SYM_FLIP_ROWS, 0), 10);
    assert_int_equal(ttt_sym_move(&r35, 3, 1), 13);
}

static void test_sym_moves_maps_each_move(void **state)
{
    (void)state;
    const char *sets[] = {"3x3", "3x5", "15x15k5"};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        ttt_rules r = rules_of(sets[i]);
        int cells = r.rows * r.cols;
        ttt_move in[6] = {0, 1, cells - 1, cells / 2, r.cols, TTT_NO_MOVE};
        for (int s = 0; s < ttt_sym_count(&r); s++) {
            ttt_move out[6];
            ttt_sym_moves(&r, s, in, 6, out);
            for (int j = 0; j < 6; j++) {
                assert_int_equal(out[j], ttt_sym_move(&r, s, in[j]));
            }
            /* in place */
            ttt_move same[6];
            memcpy(same, in, sizeof same);
            ttt_sym_moves(&r, s, same, 6, same);
            assert_memory_equal(same, out, sizeof out);
        }
    }
}

static void test_sym_bits_maps_each_cell(void **state)
{
    (void)state;
    ttt_rng rng;
    ttt_rng_seed(&rng, 7);
    for (size_t i = 0; i < N_RULES; i++) {
        ttt_rules r = rules_of(all_rules[i]);
        int cells = r.rows * r.cols;
        for (int trial = 0; trial < 5; trial++) {
            ttt_bits in;
            memset(&in, 0, sizeof in);
            for (int cell = 0; cell < cells; cell++) {
                if (ttt_rng_below(&rng, 3) == 0) {
                    ttt_bits_set(&in, cell);
                }
            }
            for (int s = 0; s < ttt_sym_count(&r); s++) {
                ttt_bits out = ttt_sym_bits(&r, s, &in);
                ttt_bits expected;
                memset(&expected, 0, sizeof expected);
                for (int cell = 0; cell < cells; cell++) {
                    if (ttt_bits_test(&in, cell)) {
                        ttt_bits_set(&expected, reference_move(&r, s, cell));
                    }
                }
                assert_true(ttt_bits_equal(&out, &expected));
            }
        }
    }
}

/* --- Boards --------------------------------------------------------------------------------------------- */

static void test_sym_board_moves_stones_and_keeps_state(void **state)
{
    (void)state;
    ttt_rng rng;
    ttt_rng_seed(&rng, 11);
    for (size_t i = 0; i < N_RULES; i++) {
        ttt_rules r = rules_of(all_rules[i]);
        for (int trial = 0; trial < 20; trial++) {
            ttt_board b;
            random_position(&b, &r, &rng, r.rows * r.cols);
            for (int s = 0; s < ttt_sym_count(&r); s++) {
                ttt_board img;
                ttt_sym_board(&b, s, &img);
                assert_true(ttt_rules_equal(&img.rules, &b.rules));
                assert_int_equal(img.ply, b.ply);
                assert_int_equal(img.cells, b.cells);
                assert_int_equal(img.line_owner, b.line_owner);
                assert_int_equal(ttt_board_outcome(&img), ttt_board_outcome(&b));
                assert_true(img.hash == ttt_board_hash_full(&img));
                for (int cell = 0; cell < b.cells; cell++) {
                    assert_int_equal(ttt_board_at(&img, reference_move(&r, s, cell)), ttt_board_at(&b, cell));
                }
                /* out may be b */
                ttt_board copy = b;
                ttt_sym_board(&copy, s, &copy);
                assert_true(same_stones(&copy, &img));
                assert_true(copy.hash == img.hash);
            }
        }
    }
}

/* Lines map to lines: won boards stay won, with the line found again by a full scan. */
static void test_symmetry_preserves_lines(void **state)
{
    (void)state;
    struct {
        const char *rules;
        int moves[9];
        int count;
    } games[] = {
        {"3x3", {0, 3, 1, 4, 2}, 5},          /* row */
        {"3x3", {1, 0, 4, 2, 7}, 5},          /* column */
        {"3x3", {0, 1, 4, 2, 8}, 5},          /* diagonal */
        {"3x3", {2, 0, 4, 1, 6}, 5},          /* anti-diagonal */
        {"3x3", {0, 3, 1, 4, 8, 5}, 6},       /* O's row */
        {"3x3-misere", {0, 3, 1, 4, 2}, 5},   /* misère */
        {"3x5", {7, 0, 8, 10, 9}, 5},         /* row in the middle of a rectangle */
        {"6x4", {3, 0, 7, 1, 11, 20, 15}, 7}, /* column of 4 on 6x4 */
    };
    for (size_t g = 0; g < sizeof games / sizeof games[0]; g++) {
        ttt_rules r = rules_of(games[g].rules);
        ttt_board b;
        ttt_board_init(&b, &r);
        for (int i = 0; i < games[g].count; i++) {
            assert_true(ttt_board_is_legal(&b, games[g].moves[i]));
            ttt_board_play(&b, games[g].moves[i]);
        }
        assert_true(b.line_owner != TTT_NOBODY);
        for (int s = 0; s < ttt_sym_count(&r); s++) {
            ttt_board img;
            ttt_sym_board(&b, s, &img);
            assert_true(ttt_board_has_line(&img, b.line_owner));
            assert_int_equal(ttt_board_outcome(&img), ttt_board_outcome(&b));
            /* the same game replayed through the symmetry ends the same way */
            ttt_board replay;
            ttt_board_init(&replay, &r);
            ttt_move mapped[9];
            ttt_sym_moves(&r, s, games[g].moves, games[g].count, mapped);
            for (int i = 0; i < games[g].count; i++) {
                assert_false(ttt_board_terminal(&replay));
                ttt_board_play(&replay, mapped[i]);
            }
            assert_int_equal(ttt_board_outcome(&replay), ttt_board_outcome(&b));
            assert_true(same_stones(&replay, &img));
        }
    }
}

/* --- Canonical forms ------------------------------------------------------------------------------------ */

static void check_canonical(const ttt_board *b)
{
    const ttt_rules *r = &b->rules;
    int n = ttt_sym_count(r);
    ttt_board canon;
    ttt_sym s = ttt_board_canonical(b, &canon);
    assert_in_range(s, 0, n - 1);
    /* the returned symmetry maps b onto the canonical form */
    ttt_board mapped;
    ttt_sym_board(b, s, &mapped);
    assert_true(same_stones(&mapped, &canon));
    assert_int_equal(canon.ply, b->ply);
    assert_int_equal(canon.line_owner, b->line_owner);
    assert_true(canon.hash == ttt_board_hash_full(&canon));
    assert_true(ttt_board_canonical_hash(b) == canon.hash);
    /* it is the smallest image */
    for (int t = 0; t < n; t++) {
        ttt_board img;
        ttt_sym_board(b, t, &img);
        assert_true(board_order(&canon, &img) <= 0);
        /* every image has the same canonical form and hash */
        ttt_board img_canon;
        ttt_sym img_s = ttt_board_canonical(&img, &img_canon);
        assert_true(same_stones(&img_canon, &canon));
        assert_true(ttt_board_canonical_hash(&img) == ttt_board_canonical_hash(b));
        ttt_board check;
        ttt_sym_board(&img, img_s, &check);
        assert_true(same_stones(&check, &canon));
    }
    /* out may be NULL */
    assert_int_equal(ttt_board_canonical(b, NULL), s);
}

static void test_canonical_form_same_for_all_images(void **state)
{
    (void)state;
    const char *sets[] = {"3x3", "4x4", "3x5", "6x4", "15x15k5"};
    ttt_rng rng;
    ttt_rng_seed(&rng, 2024);
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        ttt_rules r = rules_of(sets[i]);
        for (int trial = 0; trial < 50; trial++) {
            ttt_board b;
            random_position(&b, &r, &rng, r.rows * r.cols < 20 ? r.rows * r.cols : 20);
            check_canonical(&b);
        }
    }
}

static void test_canonical_hash_separates_different_positions(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_board corner, edge, centre;
    ttt_board_init(&corner, &r);
    ttt_board_init(&edge, &r);
    ttt_board_init(&centre, &r);
    ttt_board_play(&corner, 0);
    ttt_board_play(&edge, 1);
    ttt_board_play(&centre, 4);
    uint64_t hc = ttt_board_canonical_hash(&corner);
    uint64_t he = ttt_board_canonical_hash(&edge);
    uint64_t hm = ttt_board_canonical_hash(&centre);
    assert_true(hc != he);
    assert_true(hc != hm);
    assert_true(he != hm);
    /* same stones in different colours are different positions */
    ttt_board a, b;
    ttt_board_init(&a, &r);
    ttt_board_init(&b, &r);
    ttt_board_play(&a, 0);
    ttt_board_play(&a, 4);
    ttt_board_play(&b, 4);
    ttt_board_play(&b, 0);
    assert_true(ttt_board_canonical_hash(&a) != ttt_board_canonical_hash(&b));
}

/* Classes of the one-stone positions counted here from the definition of the symmetries. */
static int reference_one_stone_classes(const ttt_rules *r)
{
    int cells = r->rows * r->cols, n = ttt_sym_count(r), classes = 0;
    for (int cell = 0; cell < cells; cell++) {
        int least = cell;
        for (int s = 0; s < n; s++) {
            int to = reference_move(r, s, cell);
            least = to < least ? to : least;
        }
        classes += least == cell;
    }
    return classes;
}

static int distinct_one_stone_canonical_forms(const ttt_rules *r)
{
    static ttt_board forms[TTT_MAX_CELLS];
    int cells = r->rows * r->cols, distinct = 0;
    for (int cell = 0; cell < cells; cell++) {
        ttt_board b, canon;
        ttt_board_init(&b, r);
        ttt_board_play(&b, cell);
        ttt_board_canonical(&b, &canon);
        bool seen = false;
        for (int j = 0; j < distinct && !seen; j++) {
            seen = same_stones(&forms[j], &canon);
        }
        if (!seen) {
            forms[distinct++] = canon;
        }
    }
    return distinct;
}

static void test_one_stone_positions_fall_into_classes(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    /* corner, edge, centre */
    assert_int_equal(distinct_one_stone_canonical_forms(&r), 3);
    assert_int_equal(reference_one_stone_classes(&r), 3);
    const char *sets[] = {"4x4", "5x5", "3x5", "6x4", "16x16k5"};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        ttt_rules rr = rules_of(sets[i]);
        assert_int_equal(distinct_one_stone_canonical_forms(&rr), reference_one_stone_classes(&rr));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_count_is_8_for_squares_and_4_for_rectangles),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_sym_move_matches_definition),
        cmocka_unit_test(test_each_symmetry_is_a_bijection),
        cmocka_unit_test(test_group_laws),
        cmocka_unit_test(test_rot90_is_clockwise_and_has_order_4),
        cmocka_unit_test(test_mirror_and_flip_on_3x3),
        cmocka_unit_test(test_sym_moves_maps_each_move),
        cmocka_unit_test(test_sym_bits_maps_each_cell),
        cmocka_unit_test(test_sym_board_moves_stones_and_keeps_state),
        cmocka_unit_test(test_symmetry_preserves_lines),
        cmocka_unit_test(test_canonical_form_same_for_all_images),
        cmocka_unit_test(test_canonical_hash_separates_different_positions),
        cmocka_unit_test(test_one_stone_positions_fall_into_classes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
