/* Unit tests for ttt_arena_names (ttt/arena.h): the names of a tournament's engines, from name= or the spec,
 * duplicates numbered as cutechess-cli does, and the specs played without name=. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "ttt/ttt.h"

enum { BUF_SIZE = 1024, MAX = 8 };

static void test_names_and_specs(void **state)
{
    (void)state;
    const char *specs[] = {"random",         "random",        "mcts:iterations=50,name=Fast,c=2",
                           "easy:name=Fast", "random:seed=3", "random:name=random#2"};
    int n = (int)(sizeof specs / sizeof specs[0]);
    char buf[BUF_SIZE];
    const char *names[MAX], *play[MAX];
    ttt_error err;
    assert_int_equal(ttt_arena_names(specs, n, buf, sizeof buf, names, play, &err), TTT_OK);
    assert_string_equal(names[0], "random");
    assert_string_equal(names[1], "random#2");
    assert_string_equal(names[2], "Fast");
    assert_string_equal(names[3], "Fast#2");
    assert_string_equal(names[4], "random:seed=3");
    assert_string_equal(names[5], "random#2#2"); /* an explicit name already taken is numbered too */
    assert_string_equal(play[0], "random");
    assert_string_equal(play[2], "mcts:iterations=50,c=2");
    assert_string_equal(play[3], "easy");
    assert_string_equal(play[4], "random:seed=3");
    assert_string_equal(play[5], "random");
}

static void test_bad_names(void **state)
{
    (void)state;
    char buf[BUF_SIZE];
    const char *names[MAX], *play[MAX];
    ttt_error err;
    const char *empty[] = {"random", "random:name="};
    assert_int_equal(ttt_arena_names(empty, 2, buf, sizeof buf, names, play, &err), TTT_EINVAL);
    assert_string_equal(err.msg, "engine 2 'random:name=': name= needs a name");
    const char *twice[] = {"random:name=a,name=b", "random"};
    assert_int_equal(ttt_arena_names(twice, 2, buf, sizeof buf, names, play, &err), TTT_EINVAL);
    assert_string_equal(err.msg, "engine 1 'random:name=a,name=b': name= given twice");
    const char *fine[] = {"minimax", "random"};
    assert_int_equal(ttt_arena_names(fine, 2, buf, 10, names, play, &err), TTT_ELIMIT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_and_specs),
        cmocka_unit_test(test_bad_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
