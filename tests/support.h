/*
 * tests/support.h - helpers shared by the cmocka tests. Include after <cmocka.h> and "ttt/ttt.h".
 */
#ifndef TTT_TESTS_SUPPORT_H
#define TTT_TESTS_SUPPORT_H

#include <string.h>

/* The rules of a text the test knows to be valid; fails the test (naming the text) otherwise. */
static inline ttt_rules rules_of(const char *text)
{
    ttt_rules r;
    ttt_error err = {{0}};
    if (ttt_rules_parse(text, &r, &err) != TTT_OK) {
        print_error("rules '%s': %s\n", text, err.msg);
        fail();
    }
    return r;
}

/* The engine a spec makes for the rules; fails the test (naming the spec) when it cannot be made. */
static inline ttt_engine *engine_ok(const char *spec, const ttt_rules *r)
{
    ttt_engine *e = NULL;
    ttt_error err = {{0}};
    if (ttt_engine_new(spec, r, &e, &err) != TTT_OK) {
        print_error("engine '%s': %s\n", spec, err.msg);
        fail();
    }
    assert_non_null(e);
    return e;
}

/* The board a text gives under the rules: a position ("x.o/.x./...") or the moves from the empty board
 * ("b2 a1"); fails the test (naming the text) when it is neither. */
static inline ttt_board board_of(const ttt_rules *r, const char *text)
{
    ttt_board b;
    ttt_error err = {{0}};
    ttt_move seq[TTT_MAX_CELLS];
    int n;
    ttt_status st = strchr(text, '/') ? ttt_position_parse(text, r, &b, &err)
                                      : ttt_moves_parse(text, r, seq, TTT_MAX_CELLS, &n, &err) ||
                                            ttt_moves_replay(r, seq, n, &b, &err);
    if (st != TTT_OK) {
        print_error("position '%s': %s\n", text, err.msg);
        fail();
    }
    return b;
}

#endif
