/* Unit tests for util/suggest.h: the edit distance as git counts it (an adjacent swap is one edit) and the
 * closest known name. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "util/suggest.h"

static int distance(const char *a, const char *b) { return ttt_edit_distance(a, strlen(a), b, strlen(b), 9); }

static void test_distance_counts_each_edit_once(void **state)
{
    (void)state;
    assert_int_equal(distance("solve", "solve"), 0);
    assert_int_equal(distance("", "abc"), 3);
    assert_int_equal(distance("minmax", "minimax"), 1);  /* an insertion */
    assert_int_equal(distance("solv", "solve"), 1);      /* a deletion */
    assert_int_equal(distance("shpw", "show"), 1);       /* a change */
    assert_int_equal(distance("slove", "solve"), 1);     /* a swap of two adjacent letters */
    assert_int_equal(distance("hsitroy", "history"), 2); /* two swaps: four edits without them */
    assert_int_equal(distance("ab", "ba"), 1);
    assert_int_equal(distance("kitten", "sitting"), 3);
}

static void test_distance_is_capped(void **state)
{
    (void)state;
    assert_int_equal(ttt_edit_distance("abcdef", 6, "uvwxyz", 6, 2), 3);
    char longer[80];
    memset(longer, 'a', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    assert_int_equal(ttt_edit_distance(longer, strlen(longer), longer, strlen(longer), 2), 3);
}

static void test_suggest_closest_slip(void **state)
{
    (void)state;
    const char *const names[] = {"minimax", "montecarlo", "mcts", "easy", "medium", "hard", "perfect"};
    int n = (int)(sizeof names / sizeof names[0]);
    assert_string_equal(ttt_suggest("minmax", 6, names, n), "minimax");
    assert_string_equal(ttt_suggest("perfetc", 7, names, n), "perfect");
    assert_string_equal(ttt_suggest("eazy", 4, names, n), "easy");
    /* only the first len letters count: "mcts:iterations=9" names mcts */
    assert_string_equal(ttt_suggest("mtcs:iterations=9", 4, names, n), "mcts");
    assert_null(ttt_suggest("frobnicate", 10, names, n)); /* too far from every name */
    assert_null(ttt_suggest("ha", 2, names, n));          /* as many edits as letters: no guess */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_distance_counts_each_edit_once),
        cmocka_unit_test(test_distance_is_capped),
        cmocka_unit_test(test_suggest_closest_slip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
