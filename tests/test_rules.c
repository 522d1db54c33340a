/* Unit tests for ttt/rules.h: parsing, formatting and checking the rules of an m,n,k-game. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "ttt/ttt.h"

/* A rules value no parser would produce, to see that failed parses leave *out alone. */
static ttt_rules sentinel_rules(void)
{
    ttt_rules r;
    memset(&r, 0, sizeof r);
    r.rows = 99;
    r.cols = 98;
    r.k = 97;
    r.misere = true;
    return r;
}

static void assert_parses_to(const char *text, int rows, int cols, int k, bool misere)
{
    ttt_rules r = sentinel_rules();
    ttt_error err = {{0}};
    ttt_status st = ttt_rules_parse(text, &r, &err);
    if (st != TTT_OK) {
        print_error("ttt_rules_parse(\"%s\") failed: %s\n", text, err.msg);
    }
    assert_int_equal(st, TTT_OK);
    assert_int_equal(r.rows, rows);
    assert_int_equal(r.cols, cols);
    assert_int_equal(r.k, k);
    assert_int_equal(r.misere, misere);
    assert_int_equal(ttt_rules_check(&r, NULL), TTT_OK);
}

static void assert_parse_fails(const char *text)
{
    ttt_rules r = sentinel_rules();
    ttt_rules before = r;
    ttt_error err;
    memset(&err, 0, sizeof err);
    ttt_status st = ttt_rules_parse(text, &r, &err);
    if (st != TTT_EINVAL) {
        print_error("ttt_rules_parse(\"%s\") returned %d, expected TTT_EINVAL\n", text, (int)st);
    }
    assert_int_equal(st, TTT_EINVAL);
    assert_true(strlen(err.msg) > 0);
    assert_true(strlen(err.msg) < TTT_ERROR_SIZE);
    assert_int_equal(r.rows, before.rows);
    assert_int_equal(r.cols, before.cols);
    assert_int_equal(r.k, before.k);
    assert_int_equal(r.misere, before.misere);
}

static void test_parse_classic_3x3(void **state)
{
    (void)state;
    assert_parses_to("3x3", 3, 3, 3, false);
}

static void test_parse_explicit_k(void **state)
{
    (void)state;
    assert_parses_to("4x4k3", 4, 4, 3, false);
    assert_parses_to("15x15k5", 15, 15, 5, false);
}

static void test_parse_misere_suffix(void **state)
{
    (void)state;
    assert_parses_to("3x3-misere", 3, 3, 3, true);
    assert_parses_to("4x4k3-misere", 4, 4, 3, true);
}

static void test_parse_reverse_is_synonym_of_misere(void **state)
{
    (void)state;
    assert_parses_to("3x3-reverse", 3, 3, 3, true);
    assert_parses_to("5x5k4-reverse", 5, 5, 4, true);
}

static void test_parse_lone_number_is_square(void **state)
{
    (void)state;
    assert_parses_to("5", 5, 5, 5, false);
    assert_parses_to("3", 3, 3, 3, false);
}

static void test_parse_rectangle_rows_first(void **state)
{
    (void)state;
    assert_parses_to("7x6k4", 7, 6, 4, false);
    assert_parses_to("3x5k4", 3, 5, 4, false);
}

static void test_parse_largest_board(void **state)
{
    (void)state;
    assert_parses_to("16x16", 16, 16, 16, false);
    assert_parses_to("16x16k5", 16, 16, 5, false);
    assert_parses_to("20x20", 20, 20, 20, false);
    assert_parses_to("20x20k5", 20, 20, 5, false);
    assert_parses_to("20x3k4", 20, 3, 4, false);
    assert_parses_to("20", 20, 20, 20, false);
}

static void test_parse_is_case_insensitive(void **state)
{
    (void)state;
    assert_parses_to("4X4K3-MISERE", 4, 4, 3, true);
    assert_parses_to("3X3-Reverse", 3, 3, 3, true);
}

static void test_parse_k_defaults_to_shorter_side(void **state)
{
    (void)state;
    assert_parses_to("3x5", 3, 5, 3, false);
    assert_parses_to("6x4", 6, 4, 4, false);
    assert_parses_to("16x3", 16, 3, 3, false);
}

static void test_parse_k_may_reach_longer_side(void **state)
{
    (void)state;
    assert_parses_to("3x5k5", 3, 5, 5, false);
    assert_parses_to("7x6k7", 7, 6, 7, false);
}

static void test_parse_rejects_empty(void **state)
{
    (void)state;
    assert_parse_fails("");
}

static void test_parse_rejects_sides_out_of_range(void **state)
{
    (void)state;
    assert_parse_fails("2x2");
    assert_parse_fails("21x21");
    assert_parse_fails("3x21");
    assert_parse_fails("2x5");
    assert_parse_fails("2");
    assert_parse_fails("21");
}

static void test_parse_rejects_k_out_of_range(void **state)
{
    (void)state;
    assert_parse_fails("3x3k2");
    assert_parse_fails("3x3k4");
    assert_parse_fails("3x4k5");
    assert_parse_fails("15x15k16");
}

static void test_parse_rejects_malformed_text(void **state)
{
    (void)state;
    assert_parse_fails("axb");
    assert_parse_fails("3x");
    assert_parse_fails("x3");
    assert_parse_fails("3x3k");
    assert_parse_fails("3x3-foo");
    assert_parse_fails("3x3-");
    assert_parse_fails("3x3 ");
    assert_parse_fails(" 3x3");
    assert_parse_fails("3x3x3");
    assert_parse_fails("3y3");
}

/* Found by tests/fuzz/fuzz_rules.c: an error quoting text with a line break was two lines. Every library
 * message is one line: control characters in what it quotes are shown as '?'. */
static void test_parse_error_is_one_line(void **state)
{
    (void)state;
    ttt_rules r = sentinel_rules();
    ttt_error err = {{0}};
    assert_int_equal(ttt_rules_parse("3x\n3\t\r\x7f", &r, &err), TTT_EINVAL);
    assert_string_equal(err.msg,
                        "rules '3x?3\?\?\?': no number after 'x' (expected MxN[kK][-misere], e.g. 3x3, "
                        "4x4k3, 15x15k5, 3x3-misere)");
}

/* Errors say what is wrong as a person would put it: not "k must be from 3 to 3". */
static void test_parse_errors_read_as_sentences(void **state)
{
    (void)state;
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"3x3k4", "rules '3x3k4': k=4 is longer than the 3x3 board (at most k3)"},
        {"3x5k6", "rules '3x5k6': k=6 is longer than the 3x5 board (at most k5)"},
        {"3x3k2", "rules '3x3k2': k=2 is too short: a line is at least 3 in a row"},
        {"2x5", "rules '2x5': a 2x5 board is too small: each side is at least 3"},
        {"3x21", "rules '3x21': a 3x21 board is too big: each side is at most 20"},
        {"1000", "rules '1000': the board is too big: each side is at most 20"},
        {"4k1000", "rules '4k1000': k is longer than the board (at most k4)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ttt_rules r = sentinel_rules();
        ttt_error err = {{0}};
        assert_int_equal(ttt_rules_parse(cases[i].text, &r, &err), TTT_EINVAL);
        assert_string_equal(err.msg, cases[i].msg);
    }
    ttt_rules r = {.rows = 4, .cols = 4, .k = 5};
    ttt_error err = {{0}};
    assert_int_equal(ttt_rules_check(&r, &err), TTT_EINVAL);
    assert_string_equal(err.msg, "k=5 is longer than the 4x4 board (at most k4)");
}

static void test_parse_accepts_null_error(void **state)
{
    (void)state;
    ttt_rules r = sentinel_rules();
    assert_int_equal(ttt_rules_parse("nonsense", &r, NULL), TTT_EINVAL);
    assert_int_equal(r.rows, 99);
    assert_int_equal(ttt_rules_parse("4x4k3", &r, NULL), TTT_OK);
    assert_int_equal(r.rows, 4);
}

static void test_format_omits_default_k(void **state)
{
    (void)state;
    char buf[TTT_RULES_TEXT_SIZE];
    ttt_rules r = {3, 3, 3, false};
    assert_string_equal(ttt_rules_format(&r, buf, sizeof buf), "3x3");
    r = (ttt_rules){3, 3, 3, true};
    assert_string_equal(ttt_rules_format(&r, buf, sizeof buf), "3x3-misere");
    r = (ttt_rules){4, 4, 3, false};
    assert_string_equal(ttt_rules_format(&r, buf, sizeof buf), "4x4k3");
    r = (ttt_rules){4, 4, 3, true};
    assert_string_equal(ttt_rules_format(&r, buf, sizeof buf), "4x4k3-misere");
    r = (ttt_rules){7, 6, 4, false};
    assert_string_equal(ttt_rules_format(&r, buf, sizeof buf), "7x6k4");
    r = (ttt_rules){3, 5, 3, false};
    assert_string_equal(ttt_rules_format(&r, buf, sizeof buf), "3x5");
    r = (ttt_rules){3, 5, 5, false};
    assert_string_equal(ttt_rules_format(&r, buf, sizeof buf), "3x5k5");
    r = (ttt_rules){16, 16, 16, true};
    assert_string_equal(ttt_rules_format(&r, buf, sizeof buf), "16x16-misere");
}

static void test_format_returns_buf(void **state)
{
    (void)state;
    char buf[TTT_RULES_TEXT_SIZE];
    ttt_rules r = ttt_rules_default();
    assert_ptr_equal(ttt_rules_format(&r, buf, sizeof buf), buf);
}

/* Every valid rules value formats to text that parses back to the same value, with k written exactly when
 * it is not the default. */
static void test_format_parse_round_trip_all_rules(void **state)
{
    (void)state;
    int checked = 0;
    for (int rows = TTT_MIN_SIDE; rows <= TTT_MAX_SIDE; rows++) {
        for (int cols = TTT_MIN_SIDE; cols <= TTT_MAX_SIDE; cols++) {
            int longest = rows > cols ? rows : cols;
            int shortest = rows < cols ? rows : cols;
            for (int k = TTT_MIN_K; k <= longest; k++) {
                for (int m = 0; m < 2; m++) {
                    ttt_rules r = {rows, cols, k, m == 1};
                    assert_int_equal(ttt_rules_check(&r, NULL), TTT_OK);
                    char buf[TTT_RULES_TEXT_SIZE];
                    memset(buf, 'Z', sizeof buf);
                    ttt_rules_format(&r, buf, sizeof buf);
                    assert_non_null(memchr(buf, '\0', sizeof buf));
                    assert_int_equal(strchr(buf, 'k') != NULL, k != shortest);
                    assert_int_equal(strstr(buf, "-misere") != NULL, m == 1);
                    ttt_rules back = sentinel_rules();
                    ttt_error err = {{0}};
                    if (ttt_rules_parse(buf, &back, &err) != TTT_OK) {
                        print_error("'%s' does not parse: %s\n", buf, err.msg);
                        fail();
                    }
                    assert_true(ttt_rules_equal(&r, &back));
                    assert_int_equal(back.rows, rows);
                    assert_int_equal(back.cols, cols);
                    assert_int_equal(back.k, k);
                    assert_int_equal(back.misere, m == 1);
                    checked++;
                }
            }
        }
    }
    assert_true(checked > 1000);
}

static void test_default_is_classic_game(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    assert_int_equal(r.rows, 3);
    assert_int_equal(r.cols, 3);
    assert_int_equal(r.k, 3);
    assert_false(r.misere);
    assert_int_equal(ttt_rules_check(&r, NULL), TTT_OK);
}

static void assert_check_rejects(ttt_rules r)
{
    ttt_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(ttt_rules_check(&r, &err), TTT_EINVAL);
    assert_true(strlen(err.msg) > 0);
}

static void test_check_rejects_hand_built_bad_rules(void **state)
{
    (void)state;
    assert_check_rejects((ttt_rules){2, 3, 3, false});
    assert_check_rejects((ttt_rules){3, 2, 3, false});
    assert_check_rejects((ttt_rules){21, 3, 3, false});
    assert_check_rejects((ttt_rules){3, 21, 3, false});
    assert_check_rejects((ttt_rules){0, 0, 0, false});
    assert_check_rejects((ttt_rules){-3, 3, 3, false});
    assert_check_rejects((ttt_rules){3, 3, 2, false});
    assert_check_rejects((ttt_rules){3, 3, 4, false});
    assert_check_rejects((ttt_rules){3, 5, 6, true});
    assert_check_rejects((ttt_rules){20, 20, 21, false});
    assert_check_rejects((ttt_rules){5, 5, -1, false});
}

static void test_check_accepts_edges_of_ranges(void **state)
{
    (void)state;
    ttt_rules good[] = {
        {3, 3, 3, false}, {16, 16, 16, false}, {16, 16, 3, true},  {3, 16, 16, false}, {16, 3, 16, true},
        {3, 5, 5, false}, {7, 6, 4, false},    {20, 20, 5, false}, {3, 20, 20, true},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        ttt_error err = {{0}};
        assert_int_equal(ttt_rules_check(&good[i], &err), TTT_OK);
    }
}

static void test_cells_is_rows_times_cols(void **state)
{
    (void)state;
    for (int rows = TTT_MIN_SIDE; rows <= TTT_MAX_SIDE; rows++) {
        for (int cols = TTT_MIN_SIDE; cols <= TTT_MAX_SIDE; cols++) {
            ttt_rules r = {rows, cols, 3, false};
            assert_int_equal(ttt_rules_cells(&r), rows * cols);
        }
    }
}

static void test_equal_compares_every_field(void **state)
{
    (void)state;
    ttt_rules a = {4, 5, 4, false};
    ttt_rules b = a;
    assert_true(ttt_rules_equal(&a, &b));
    b.rows = 5;
    assert_false(ttt_rules_equal(&a, &b));
    b = a;
    b.cols = 4;
    assert_false(ttt_rules_equal(&a, &b));
    b = a;
    b.k = 3;
    assert_false(ttt_rules_equal(&a, &b));
    b = a;
    b.misere = true;
    assert_false(ttt_rules_equal(&a, &b));
}

static void test_status_names_are_distinct_and_non_empty(void **state)
{
    (void)state;
    ttt_status all[] = {TTT_OK, TTT_EINVAL, TTT_ENOMEM, TTT_ELIMIT, TTT_ESTATE, TTT_EIO, TTT_EFORFEIT};
    size_t n = sizeof all / sizeof all[0];
    for (size_t i = 0; i < n; i++) {
        const char *name = ttt_status_name(all[i]);
        assert_non_null(name);
        assert_true(strlen(name) > 0);
        for (size_t j = 0; j < i; j++) {
            assert_string_not_equal(name, ttt_status_name(all[j]));
        }
    }
    assert_non_null(ttt_status_name((ttt_status)1234));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_classic_3x3),
        cmocka_unit_test(test_parse_explicit_k),
        cmocka_unit_test(test_parse_misere_suffix),
        cmocka_unit_test(test_parse_reverse_is_synonym_of_misere),
        cmocka_unit_test(test_parse_lone_number_is_square),
        cmocka_unit_test(test_parse_rectangle_rows_first),
        cmocka_unit_test(test_parse_largest_board),
        cmocka_unit_test(test_parse_is_case_insensitive),
        cmocka_unit_test(test_parse_k_defaults_to_shorter_side),
        cmocka_unit_test(test_parse_k_may_reach_longer_side),
        cmocka_unit_test(test_parse_rejects_empty),
        cmocka_unit_test(test_parse_rejects_sides_out_of_range),
        cmocka_unit_test(test_parse_rejects_k_out_of_range),
        cmocka_unit_test(test_parse_rejects_malformed_text),
        cmocka_unit_test(test_parse_error_is_one_line),
        cmocka_unit_test(test_parse_errors_read_as_sentences),
        cmocka_unit_test(test_parse_accepts_null_error),
        cmocka_unit_test(test_format_omits_default_k),
        cmocka_unit_test(test_format_returns_buf),
        cmocka_unit_test(test_format_parse_round_trip_all_rules),
        cmocka_unit_test(test_default_is_classic_game),
        cmocka_unit_test(test_check_rejects_hand_built_bad_rules),
        cmocka_unit_test(test_check_accepts_edges_of_ranges),
        cmocka_unit_test(test_cells_is_rows_times_cols),
        cmocka_unit_test(test_equal_compares_every_field),
        cmocka_unit_test(test_status_names_are_distinct_and_non_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
