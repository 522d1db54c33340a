/*
 * tests/support.h - helpers shared by the cmocka tests. Include after <cmocka.h> and "ttt/ttt.h".
 */
#ifndef TTT_TESTS_SUPPORT_H
#define TTT_TESTS_SUPPORT_H

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

#endif
