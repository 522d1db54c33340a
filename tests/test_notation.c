/* Unit tests for ttt/notation.h: positions, moves and move sequences as text. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "ttt/ttt.h"
#include "support.h"

/* --- Helpers -------------------------------------------------------------------------------------------- */

static void lower_copy(const char *in, char *out, size_t size)
{
    size_t i = 0;
    for (; in[i] && i + 1 < size; i++) {
        out[i] = (char)tolower((unsigned char)in[i]);
    }
    out[i] = '\0';
}

/* Parses text (with the given rules, or NULL), formats it back and expects the lower-case input. */
static void assert_position_round_trip(const char *text, const ttt_rules *rules, ttt_board *out)
{
    ttt_error err = {{0}};
    ttt_status st = ttt_position_parse(text, rules, out, &err);
    if (st != TTT_OK) {
        print_error("position '%s': %s\n", text, err.msg);
    }
    assert_int_equal(st, TTT_OK);
    char buf[TTT_POSITION_TEXT_SIZE];
    char expected[TTT_POSITION_TEXT_SIZE + 8];
    lower_copy(text, expected, sizeof expected);
    assert_ptr_equal(ttt_position_format(out, buf, sizeof buf), buf);
    assert_string_equal(buf, expected);
    assert_true(out->hash == ttt_board_hash_full(out));
}

/* Expects TTT_EINVAL and, when `hint` is non-NULL, a message that contains it. */
static void assert_position_fails(const char *text, const ttt_rules *rules, const char *hint)
{
    ttt_board b;
    ttt_error err;
    memset(&err, 0, sizeof err);
    ttt_status st = ttt_position_parse(text, rules, &b, &err);
    if (st != TTT_EINVAL) {
        print_error("position '%s' returned %d, expected TTT_EINVAL\n", text, (int)st);
    }
    assert_int_equal(st, TTT_EINVAL);
    assert_true(strlen(err.msg) > 0);
    if (hint != NULL && strstr(err.msg, hint) == NULL) {
        print_error("position '%s': message \"%s\" does not mention \"%s\"\n", text, err.msg, hint);
        fail();
    }
    assert_int_equal(ttt_position_parse(text, rules, &b, NULL), TTT_EINVAL);
}

static ttt_move parse_move_ok(const char *text, const ttt_rules *r)
{
    ttt_move m = -99;
    ttt_error err = {{0}};
    ttt_status st = ttt_move_parse(text, r, &m, &err);
    if (st != TTT_OK) {
        print_error("move '%s': %s\n", text, err.msg);
    }
    assert_int_equal(st, TTT_OK);
    return m;
}

static void assert_move_fails(const char *text, const ttt_rules *r)
{
    ttt_move m = -99;
    ttt_error err;
    memset(&err, 0, sizeof err);
    ttt_status st = ttt_move_parse(text, r, &m, &err);
    if (st != TTT_EINVAL) {
        print_error("move '%s' returned %d (cell %d), expected TTT_EINVAL\n", text, (int)st, m);
    }
    assert_int_equal(st, TTT_EINVAL);
    assert_true(strlen(err.msg) > 0);
}

/* --- Positions ------------------------------------------------------------------------------------------ */

static void test_position_round_trip_3x3(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    const char *all[] = {".../.../...", "x../.../...", "x.o/.x./..o",
                         "xxx/oo./...", "xox/xoo/oxx", "xx./ooo/x.."};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        ttt_board b;
        assert_position_round_trip(all[i], &r, &b);
        assert_position_round_trip(all[i], NULL, &b);
    }
}

static void test_position_parse_sets_stones(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_board b, expected;
    assert_position_round_trip("x.o/.x./..o", &r, &b);
    ttt_board_init(&expected, &r);
    ttt_board_play(&expected, 0);
    ttt_board_play(&expected, 2);
    ttt_board_play(&expected, 4);
    ttt_board_play(&expected, 8);
    assert_true(ttt_board_equal(&b, &expected));
    assert_true(ttt_bits_equal(&b.stones[TTT_X], &expected.stones[TTT_X]));
    assert_true(ttt_bits_equal(&b.stones[TTT_O], &expected.stones[TTT_O]));
    assert_int_equal(b.ply, 4);
    assert_int_equal(b.line_owner, TTT_NOBODY);
    assert_true(b.hash == expected.hash);

    assert_position_round_trip("xxx/oo./...", &r, &b);
    assert_int_equal(b.line_owner, TTT_X);
    assert_int_equal(ttt_board_outcome(&b), TTT_X_WINS);
}

static void test_position_uppercase_accepted(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_board b;
    assert_position_round_trip("X.O/.X./..O", &r, &b);
    assert_int_equal(ttt_board_at(&b, 0), TTT_X);
    assert_int_equal(ttt_board_at(&b, 2), TTT_O);
    assert_position_round_trip("xO./.../...", NULL, &b);
}

static void test_position_rectangle_shape_from_text(void **state)
{
    (void)state;
    ttt_board b;
    assert_position_round_trip("x..../...../o....", NULL, &b);
    assert_int_equal(b.rules.rows, 3);
    assert_int_equal(b.rules.cols, 5);
    assert_int_equal(b.rules.k, 3);
    assert_false(b.rules.misere);
    assert_int_equal(b.cells, 15);
    assert_int_equal(ttt_board_at(&b, 0), TTT_X);
    assert_int_equal(ttt_board_at(&b, 10), TTT_O);

    assert_position_round_trip("..../..../..../..../..../x...", NULL, &b);
    assert_int_equal(b.rules.rows, 6);
    assert_int_equal(b.rules.cols, 4);
    assert_int_equal(b.rules.k, 4);
    assert_int_equal(ttt_board_at(&b, 20), TTT_X);
}

static void test_position_keeps_given_rules(void **state)
{
    (void)state;
    ttt_rules r = rules_of("3x5k5-misere");
    ttt_board b;
    assert_position_round_trip("x..../...../o....", &r, &b);
    assert_true(ttt_rules_equal(&b.rules, &r));

    /* a completed line under misère loses */
    ttt_rules m = rules_of("3x3-misere");
    assert_position_round_trip("xxx/oo./...", &m, &b);
    assert_int_equal(ttt_board_outcome(&b), TTT_O_WINS);
}

static void test_position_round_trip_15x15(void **state)
{
    (void)state;
    ttt_rules r = rules_of("15x15k5");
    ttt_board b;
    const char *text = "x............../.............../.............../.............../"
                       "......o......../.............../.............../.......x......./"
                       ".............../.............../.............../.............../"
                       ".............../.............../..............o";
    /* X 2, O 2 */
    assert_position_round_trip(text, &r, &b);
    assert_int_equal(ttt_board_at(&b, 0), TTT_X);
    assert_int_equal(ttt_board_at(&b, 4 * 15 + 6), TTT_O);
    assert_int_equal(ttt_board_at(&b, 7 * 15 + 7), TTT_X);
    assert_int_equal(ttt_board_at(&b, 224), TTT_O);
    assert_position_round_trip(text, NULL, &b);
    assert_int_equal(b.rules.k, 15);

    /* random games: format, parse, compare */
    ttt_rng rng;
    ttt_rng_seed(&rng, 42);
    const char *all[] = {"15x15k5", "16x16k5", "20x20k5", "20x3", "3x20k5", "3x5", "7x6k4", "4x4k3-misere"};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        ttt_rules rr = rules_of(all[i]);
        for (int game = 0; game < 10; game++) {
            ttt_board_init(&b, &rr);
            int plies = (int)ttt_rng_below(&rng, (uint32_t)b.cells);
            for (int p = 0; p < plies && !ttt_board_terminal(&b); p++) {
                ttt_move moves[TTT_MAX_CELLS];
                int n = ttt_board_moves(&b, moves);
                ttt_board_play(&b, moves[ttt_rng_below(&rng, (uint32_t)n)]);
            }
            char buf[TTT_POSITION_TEXT_SIZE];
            ttt_position_format(&b, buf, sizeof buf);
            assert_int_equal(strlen(buf), (size_t)(rr.rows * rr.cols + rr.rows - 1));
            ttt_board back;
            ttt_error err = {{0}};
            assert_int_equal(ttt_position_parse(buf, &rr, &back, &err), TTT_OK);
            assert_true(ttt_board_equal(&b, &back));
            assert_int_equal(back.line_owner, b.line_owner);
            assert_int_equal(back.ply, b.ply);
            assert_true(back.hash == b.hash);
        }
    }
}

static void test_position_bad_character_names_row_and_column(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    assert_position_fails("x.o/..q/..o", &r, "row 2");
    assert_position_fails("x.o/..q/..o", &r, "column 3");
    assert_position_fails("x.o/..q/..o", NULL, "row 2");
    assert_position_fails("x.o/.../z..", &r, "row 3");
    assert_position_fails("x.o/.../z..", &r, "column 1");
    assert_position_fails("x.o/. ./...", &r, NULL);
}

static void test_position_wrong_row_length(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    assert_position_fails("x.o/.x/..o", &r, "row 2");
    assert_position_fails("x.o/.x/..o", NULL, "row 2");
    assert_position_fails("x.o/.x../..o", &r, "row 2");
    assert_position_fails("x.o/.x./..o.", NULL, "row 3");
}

static void test_position_wrong_number_of_rows(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    assert_position_fails("x.o/.x.", &r, NULL);
    assert_position_fails("x.o/.x./..o/...", &r, NULL);
    ttt_rules r35 = rules_of("3x5");
    assert_position_fails(".../.../...", &r35, NULL);
}

static void test_position_bad_shapes(void **state)
{
    (void)state;
    assert_position_fails("", NULL, NULL);
    ttt_rules r = ttt_rules_default();
    assert_position_fails("", &r, NULL);
    assert_position_fails("../..", NULL, NULL);             /* too small */
    assert_position_fails(".................", NULL, NULL); /* 17 columns, one row */
    char wide[3 * 22 + 3] = "";                             /* 3 rows of 21 columns: one too many */
    for (int row = 0; row < 3; row++)
        strcat(strcat(wide, row ? "/" : ""), ".....................");
    assert_position_fails(wide, NULL, NULL);
    assert_position_fails("x.o/.x./..o/", &r, NULL); /* trailing slash */
    assert_position_fails("/x.o/.x./..o", &r, NULL); /* leading slash */
}

static void test_position_rejects_impossible_counts(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    assert_position_fails("o../.../...", &r, NULL);
    assert_position_fails("xx./.../...", &r, NULL);
    assert_position_fails("xx./.../...", NULL, NULL);
}

static void test_position_rejects_both_lines(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    assert_position_fails("xxx/ooo/x..", &r, NULL);
}

static void test_position_rejects_play_after_end(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    assert_position_fails("xxx/oo./o..", &r, NULL);
    assert_position_fails("ooo/xx./xx.", &r, NULL);
}

/* --- Moves ---------------------------------------------------------------------------------------------- */

static void test_move_parse_letter_number(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    assert_int_equal(parse_move_ok("a1", &r), 0);
    assert_int_equal(parse_move_ok("c1", &r), 2);
    assert_int_equal(parse_move_ok("a3", &r), 6);
    assert_int_equal(parse_move_ok("b2", &r), 4);
    assert_int_equal(parse_move_ok("c3", &r), 8);
    assert_int_equal(parse_move_ok("B2", &r), 4);
    assert_int_equal(parse_move_ok("C1", &r), 2);
}

static void test_move_parse_digits_on_3x3(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    for (int d = 1; d <= 9; d++) {
        char text[2] = {(char)('0' + d), '\0'};
        assert_int_equal(parse_move_ok(text, &r), d - 1);
    }
    assert_move_fails("0", &r);
    assert_move_fails("10", &r);
}

static void test_move_parse_digits_only_on_3x3(void **state)
{
    (void)state;
    ttt_rules r = rules_of("4x4");
    assert_move_fails("5", &r);
    assert_move_fails("1", &r);
    ttt_rules r35 = rules_of("3x5");
    assert_move_fails("5", &r35);
}

static void test_move_parse_large_and_rectangular_boards(void **state)
{
    (void)state;
    ttt_rules r16 = rules_of("16x16");
    assert_int_equal(parse_move_ok("p16", &r16), 255);
    assert_int_equal(parse_move_ok("P16", &r16), 255);
    assert_int_equal(parse_move_ok("a16", &r16), 240);
    assert_int_equal(parse_move_ok("p1", &r16), 15);
    assert_int_equal(parse_move_ok("j10", &r16), 9 * 16 + 9);
    assert_move_fails("q1", &r16);
    assert_move_fails("a17", &r16);

    ttt_rules r20 = rules_of("20x20"); /* the largest board: columns a-t, rows 1-20 */
    assert_int_equal(parse_move_ok("t20", &r20), 399);
    assert_int_equal(parse_move_ok("T20", &r20), 399);
    assert_int_equal(parse_move_ok("a20", &r20), 380);
    assert_int_equal(parse_move_ok("t1", &r20), 19);
    assert_int_equal(parse_move_ok("q17", &r20), 16 * 20 + 16);
    assert_move_fails("u1", &r20);
    assert_move_fails("a21", &r20);
    assert_move_fails("t0", &r20);

    ttt_rules r35 = rules_of("3x5"); /* 3 rows, 5 columns */
    assert_int_equal(parse_move_ok("e1", &r35), 4);
    assert_int_equal(parse_move_ok("a3", &r35), 10);
    assert_int_equal(parse_move_ok("e3", &r35), 14);
    assert_move_fails("f1", &r35);
    assert_move_fails("a4", &r35);

    ttt_rules r64 = rules_of("6x4"); /* 6 rows, 4 columns */
    assert_int_equal(parse_move_ok("d6", &r64), 23);
    assert_int_equal(parse_move_ok("a6", &r64), 20);
    assert_move_fails("e1", &r64);
    assert_move_fails("a7", &r64);
}

static void test_move_parse_errors(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    const char *bad[] = {"d1", "a4", "a0", "a", "1a", "", "b2x", "10", "z9", "-1", "b-2", "bb2", "2b"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_move_fails(bad[i], &r);
    }
}

static void test_move_parse_error_names_the_text(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_move m;
    ttt_error err = {{0}};
    assert_int_equal(ttt_move_parse("d1", &r, &m, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "d1"));
}

/* A second letter ("aa1", as on boards with more than 26 columns elsewhere) is named as the problem: a
 * column is one letter, whose range the message gives; not "no row number". */
static void test_move_parse_two_letters_says_one_letter_columns(void **state)
{
    (void)state;
    ttt_rules r;
    ttt_error err = {{0}};
    assert_int_equal(ttt_rules_parse("15x15k5", &r, &err), TTT_OK);
    ttt_move m;
    const char *bad[] = {"aa1", "AB12", "hh"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(ttt_move_parse(bad[i], &r, &m, &err), TTT_EINVAL);
        assert_null(strstr(err.msg, "no row number"));
        assert_non_null(strstr(err.msg, "one letter (a-o"));
        assert_non_null(strstr(err.msg, bad[i]));
    }
}

/* Every cell of several boards formats as column letter then row number and parses back. */
static void test_move_format_round_trip_every_cell(void **state)
{
    (void)state;
    const char *all[] = {"3x3", "4x4", "3x5", "6x4", "7x6k4", "15x15k5", "16x16", "16x3", "20x20", "3x20"};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        ttt_rules r = rules_of(all[i]);
        for (int cell = 0; cell < r.rows * r.cols; cell++) {
            char buf[TTT_MOVE_TEXT_SIZE];
            char expected[16];
            snprintf(expected, sizeof expected, "%c%d", 'a' + cell % r.cols, cell / r.cols + 1);
            assert_ptr_equal(ttt_move_format(&r, cell, buf, sizeof buf), buf);
            assert_string_equal(buf, expected);
            assert_int_equal(parse_move_ok(buf, &r), cell);
        }
    }
}

static void test_move_format_no_move_is_dash(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    char buf[TTT_MOVE_TEXT_SIZE];
    assert_string_equal(ttt_move_format(&r, TTT_NO_MOVE, buf, sizeof buf), "-");
}

/* --- Move sequences ------------------------------------------------------------------------------------- */

static void assert_moves_parse_to(const char *text, const ttt_rules *r, const int *expected, int n)
{
    ttt_move out[TTT_MAX_CELLS];
    int count = -1;
    ttt_error err = {{0}};
    ttt_status st = ttt_moves_parse(text, r, out, TTT_MAX_CELLS, &count, &err);
    if (st != TTT_OK) {
        print_error("moves '%s': %s\n", text, err.msg);
    }
    assert_int_equal(st, TTT_OK);
    assert_int_equal(count, n);
    for (int i = 0; i < n; i++) {
        assert_int_equal(out[i], expected[i]);
    }
}

static void test_moves_parse_separators(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    int expected[] = {4, 0, 8};
    assert_moves_parse_to("b2 a1 c3", &r, expected, 3);
    assert_moves_parse_to("5,1,9", &r, expected, 3);
    assert_moves_parse_to("b2, a1", &r, expected, 2);
    assert_moves_parse_to("b2,a1 , c3", &r, expected, 3);
    assert_moves_parse_to("B2 1 C3", &r, expected, 3);
    assert_moves_parse_to("b2", &r, expected, 1);
}

static void test_moves_parse_does_not_check_legality(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    int expected[] = {4, 4, 4};
    assert_moves_parse_to("b2 b2 5", &r, expected, 3);
}

static void test_moves_parse_error_names_move_number(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_move out[TTT_MAX_CELLS];
    int count = 0;
    ttt_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(ttt_moves_parse("b2 a1 z1", &r, out, TTT_MAX_CELLS, &count, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "move 3"));
    assert_non_null(strstr(err.msg, "z1"));
    memset(&err, 0, sizeof err);
    assert_int_equal(ttt_moves_parse("b2,x", &r, out, TTT_MAX_CELLS, &count, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "move 2"));
}

static void test_moves_replay_plays_sequence(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_move moves[] = {0, 4, 8, 1, 7, 6, 2, 5, 3};
    ttt_board b;
    ttt_error err = {{0}};
    assert_int_equal(ttt_moves_replay(&r, moves, 9, &b, &err), TTT_OK);
    assert_int_equal(b.ply, 9);
    assert_int_equal(ttt_board_outcome(&b), TTT_DRAW);
    char buf[TTT_POSITION_TEXT_SIZE];
    assert_string_equal(ttt_position_format(&b, buf, sizeof buf), "xox/xoo/oxx");

    assert_int_equal(ttt_moves_replay(&r, moves, 0, &b, &err), TTT_OK);
    assert_int_equal(b.ply, 0);
}

static void test_moves_replay_taken_cell_names_move(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_move moves[] = {4, 0, 4};
    ttt_board b;
    ttt_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(ttt_moves_replay(&r, moves, 3, &b, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "move 3"));
    /* the position before the bad move */
    assert_int_equal(b.ply, 2);
    assert_int_equal(ttt_board_at(&b, 4), TTT_X);
    assert_int_equal(ttt_board_at(&b, 0), TTT_O);
}

static void test_moves_replay_after_game_over(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_move moves[] = {0, 3, 1, 4, 2, 5};
    ttt_board b;
    ttt_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(ttt_moves_replay(&r, moves, 6, &b, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "move 6"));
    assert_int_equal(b.ply, 5);
    assert_int_equal(ttt_board_outcome(&b), TTT_X_WINS);
}

static void test_moves_replay_off_board_cell(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_move moves[] = {4, 9};
    ttt_board b;
    ttt_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(ttt_moves_replay(&r, moves, 2, &b, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "move 2"));
    assert_int_equal(b.ply, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_position_round_trip_3x3),
        cmocka_unit_test(test_position_parse_sets_stones),
        cmocka_unit_test(test_position_uppercase_accepted),
        cmocka_unit_test(test_position_rectangle_shape_from_text),
        cmocka_unit_test(test_position_keeps_given_rules),
        cmocka_unit_test(test_position_round_trip_15x15),
        cmocka_unit_test(test_position_bad_character_names_row_and_column),
        cmocka_unit_test(test_position_wrong_row_length),
        cmocka_unit_test(test_position_wrong_number_of_rows),
        cmocka_unit_test(test_position_bad_shapes),
        cmocka_unit_test(test_position_rejects_impossible_counts),
        cmocka_unit_test(test_position_rejects_both_lines),
        cmocka_unit_test(test_position_rejects_play_after_end),
        cmocka_unit_test(test_move_parse_letter_number),
        cmocka_unit_test(test_move_parse_digits_on_3x3),
        cmocka_unit_test(test_move_parse_digits_only_on_3x3),
        cmocka_unit_test(test_move_parse_large_and_rectangular_boards),
        cmocka_unit_test(test_move_parse_errors),
        cmocka_unit_test(test_move_parse_error_names_the_text),
        cmocka_unit_test(test_move_parse_two_letters_says_one_letter_columns),
        cmocka_unit_test(test_move_format_round_trip_every_cell),
        cmocka_unit_test(test_move_format_no_move_is_dash),
        cmocka_unit_test(test_moves_parse_separators),
        cmocka_unit_test(test_moves_parse_does_not_check_legality),
        cmocka_unit_test(test_moves_parse_error_names_move_number),
        cmocka_unit_test(test_moves_replay_plays_sequence),
        cmocka_unit_test(test_moves_replay_taken_cell_names_move),
        cmocka_unit_test(test_moves_replay_after_game_over),
        cmocka_unit_test(test_moves_replay_off_board_cell),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
