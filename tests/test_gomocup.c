/* Unit tests for ttt/gomocup.h: the Gomocup brain protocol's lines parsed and answers formatted. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "ttt/ttt.h"

static ttt_gomocup_command parse_ok(const char *line)
{
    ttt_gomocup_command c;
    ttt_error err = {{0}};
    ttt_status st = ttt_gomocup_parse(line, strlen(line), &c, &err);
    if (st != TTT_OK)
        print_error("parse(\"%s\") failed: %s\n", line, err.msg);
    assert_int_equal(st, TTT_OK);
    return c;
}

/* A malformed line: TTT_EINVAL, a one-line message that contains `needle`, and the kind it would have been.
 */
static void parse_fails(const char *line, ttt_gomocup_kind kind, const char *needle)
{
    ttt_gomocup_command c;
    ttt_error err = {{0}};
    assert_int_equal(ttt_gomocup_parse(line, strlen(line), &c, &err), TTT_EINVAL);
    if (!strstr(err.msg, needle))
        print_error("parse(\"%s\"): message '%s' lacks '%s'\n", line, err.msg, needle);
    assert_non_null(strstr(err.msg, needle));
    assert_null(strchr(err.msg, '\n'));
    assert_int_equal(c.kind, kind);
}

static void test_start_and_rectstart(void **state)
{
    (void)state;
    ttt_gomocup_command c = parse_ok("START 15\n");
    assert_int_equal(c.kind, TTT_GOMOCUP_START);
    assert_int_equal(c.width, 15);
    assert_int_equal(c.height, 15);
    c = parse_ok("RECTSTART 12,7\r\n");
    assert_int_equal(c.kind, TTT_GOMOCUP_RECTSTART);
    assert_int_equal(c.width, 12);
    assert_int_equal(c.height, 7);
}

static void test_crlf_spaces_and_case_are_accepted(void **state)
{
    (void)state;
    ttt_gomocup_command c = parse_ok("  turn 10,3 \r\n");
    assert_int_equal(c.kind, TTT_GOMOCUP_TURN);
    assert_int_equal(c.x, 10);
    assert_int_equal(c.y, 3);
    c = parse_ok("TURN 1, 2");
    assert_int_equal(c.x, 1);
    assert_int_equal(c.y, 2);
    assert_int_equal(parse_ok("Begin\r").kind, TTT_GOMOCUP_BEGIN);
}

static void test_bare_commands(void **state)
{
    (void)state;
    assert_int_equal(parse_ok("RESTART").kind, TTT_GOMOCUP_RESTART);
    assert_int_equal(parse_ok("BEGIN").kind, TTT_GOMOCUP_BEGIN);
    assert_int_equal(parse_ok("BOARD").kind, TTT_GOMOCUP_BOARD);
    assert_int_equal(parse_ok("DONE").kind, TTT_GOMOCUP_DONE);
    assert_int_equal(parse_ok("ABOUT").kind, TTT_GOMOCUP_ABOUT);
    assert_int_equal(parse_ok("END").kind, TTT_GOMOCUP_END);
    assert_int_equal(parse_ok("").kind, TTT_GOMOCUP_EMPTY);
    assert_int_equal(parse_ok(" \r\n").kind, TTT_GOMOCUP_EMPTY);
}

static void test_stones_and_takeback(void **state)
{
    (void)state;
    ttt_gomocup_command c = parse_ok("7,8,2\r\n");
    assert_int_equal(c.kind, TTT_GOMOCUP_STONE);
    assert_int_equal(c.x, 7);
    assert_int_equal(c.y, 8);
    assert_int_equal(c.field, 2);
    c = parse_ok("TAKEBACK 0,14");
    assert_int_equal(c.kind, TTT_GOMOCUP_TAKEBACK);
    assert_int_equal(c.x, 0);
    assert_int_equal(c.y, 14);
}

static void test_info_keys(void **state)
{
    (void)state;
    ttt_gomocup_command c = parse_ok("INFO timeout_turn 5000");
    assert_int_equal(c.kind, TTT_GOMOCUP_INFO);
    assert_int_equal(c.key, TTT_GOMOCUP_INFO_TIMEOUT_TURN);
    assert_int_equal(c.number, 5000);
    struct {
        const char *line;
        ttt_gomocup_info_key key;
        uint64_t number;
    } cases[] = {
        {"INFO timeout_match 180000", TTT_GOMOCUP_INFO_TIMEOUT_MATCH, 180000},
        {"INFO time_left 123", TTT_GOMOCUP_INFO_TIME_LEFT, 123},
        {"INFO max_memory 83886080", TTT_GOMOCUP_INFO_MAX_MEMORY, 83886080},
        {"INFO game_type 1", TTT_GOMOCUP_INFO_GAME_TYPE, 1},
        {"INFO rule 4", TTT_GOMOCUP_INFO_RULE, 4},
        {"INFO ttt_k 3", TTT_GOMOCUP_INFO_TTT_K, 3},
        {"INFO ttt_misere 1", TTT_GOMOCUP_INFO_TTT_MISERE, 1},
        {"INFO ttt_seed 42", TTT_GOMOCUP_INFO_TTT_SEED, 42},
        {"INFO ttt_seed 18446744073709551615", TTT_GOMOCUP_INFO_TTT_SEED, UINT64_MAX},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        c = parse_ok(cases[i].line);
        assert_int_equal(c.key, cases[i].key);
        assert_int_equal(c.number, cases[i].number);
    }
    c = parse_ok("INFO folder C:\\piskvork\\brains");
    assert_int_equal(c.key, TTT_GOMOCUP_INFO_FOLDER);
    assert_string_equal(c.value, "C:\\piskvork\\brains");
    c = parse_ok("INFO evaluate 3,4"); /* unknown keys are ignored by the brain, not errors */
    assert_int_equal(c.key, TTT_GOMOCUP_INFO_OTHER);
    assert_string_equal(c.text, "evaluate");
    assert_string_equal(c.value, "3,4");
}

static void test_unknown_commands(void **state)
{
    (void)state;
    ttt_gomocup_command c = parse_ok("SWAP2BOARD");
    assert_int_equal(c.kind, TTT_GOMOCUP_UNKNOWN);
    assert_string_equal(c.text, "SWAP2BOARD");
    c = parse_ok("hello there");
    assert_int_equal(c.kind, TTT_GOMOCUP_UNKNOWN);
    assert_string_equal(c.text, "hello");
}

static void test_malformed_lines(void **state)
{
    (void)state;
    parse_fails("START", TTT_GOMOCUP_START, "START: expected a board size");
    parse_fails("START -5", TTT_GOMOCUP_START, "got '-5'");
    parse_fails("START 15 16", TTT_GOMOCUP_START, "START");
    parse_fails("RECTSTART 10", TTT_GOMOCUP_RECTSTART, "width,height");
    parse_fails("TURN 3", TTT_GOMOCUP_TURN, "TURN: expected x,y");
    parse_fails("TURN a,b", TTT_GOMOCUP_TURN, "got 'a,b'");
    parse_fails("TURN 1,2,3", TTT_GOMOCUP_TURN, "TURN");
    parse_fails("TURN 99999999999999999999,1", TTT_GOMOCUP_TURN, "TURN");
    parse_fails("TAKEBACK", TTT_GOMOCUP_TAKEBACK, "TAKEBACK");
    parse_fails("BEGIN now", TTT_GOMOCUP_BEGIN, "nothing after the command");
    parse_fails("1,2", TTT_GOMOCUP_STONE, "x,y,f");
    parse_fails("1,2,4", TTT_GOMOCUP_STONE, "x,y,f");
    parse_fails("INFO", TTT_GOMOCUP_INFO, "a key and a value");
    parse_fails("INFO timeout_turn soon", TTT_GOMOCUP_INFO, "INFO timeout_turn: expected a whole number");
    parse_fails("INFO rule", TTT_GOMOCUP_INFO, "INFO rule");
    parse_fails("INFO ttt_seed 18446744073709551616", TTT_GOMOCUP_INFO, "INFO ttt_seed");
    char nul[] = "TURN 1,\0002";
    ttt_gomocup_command c;
    ttt_error err;
    assert_int_equal(ttt_gomocup_parse(nul, sizeof nul - 1, &c, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "NUL"));
}

static void test_long_lines_are_errors_not_cut(void **state)
{
    (void)state;
    static char line[TTT_GOMOCUP_LINE_MAX + 2];
    memset(line, ' ', sizeof line - 1);
    memcpy(line, "TURN 1,2", 8);
    line[sizeof line - 1] = '\0';
    ttt_gomocup_command c;
    ttt_error err;
    assert_int_equal(ttt_gomocup_parse(line, strlen(line), &c, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "longer than"));
    /* An INFO value longer than the value field is an error, not a cut value. */
    char info[TTT_GOMOCUP_TEXT_SIZE + 32];
    int n = snprintf(info, sizeof info, "INFO folder ");
    memset(info + n, 'a', TTT_GOMOCUP_TEXT_SIZE);
    info[n + TTT_GOMOCUP_TEXT_SIZE] = '\0';
    assert_int_equal(ttt_gomocup_parse(info, strlen(info), &c, &err), TTT_EINVAL);
}

static void test_replies(void **state)
{
    (void)state;
    ttt_gomocup_reply r;
    ttt_gomocup_parse_reply("7,7\r\n", 5, &r);
    assert_int_equal(r.kind, TTT_GOMOCUP_REPLY_MOVE);
    assert_int_equal(r.x, 7);
    assert_int_equal(r.y, 7);
    const char *line = "MESSAGE depth 3";
    ttt_gomocup_parse_reply(line, strlen(line), &r);
    assert_int_equal(r.kind, TTT_GOMOCUP_REPLY_MESSAGE);
    assert_string_equal(r.text, "depth 3");
    line = "ERROR unsupported size";
    ttt_gomocup_parse_reply(line, strlen(line), &r);
    assert_int_equal(r.kind, TTT_GOMOCUP_REPLY_ERROR);
    assert_string_equal(r.text, "unsupported size");
    ttt_gomocup_parse_reply("OK", 2, &r);
    assert_int_equal(r.kind, TTT_GOMOCUP_REPLY_OK);
    line = "7,x";
    ttt_gomocup_parse_reply(line, strlen(line), &r);
    assert_int_equal(r.kind, TTT_GOMOCUP_REPLY_OTHER);
    assert_string_equal(r.text, "7,x");
}

static void test_formatting(void **state)
{
    (void)state;
    char buf[TTT_GOMOCUP_TEXT_SIZE];
    assert_string_equal(ttt_gomocup_format_move(3, 14, buf, sizeof buf), "3,14");
    ttt_gomocup_format_about(buf, sizeof buf);
    assert_non_null(strstr(buf, "name=\"ttt\""));
    assert_non_null(strstr(buf, "version=\"" TTT_VERSION "\""));
    assert_non_null(strstr(buf, "author=\""));
    assert_non_null(strstr(buf, "country=\""));
    /* A formatted move parses back as a move. */
    ttt_gomocup_reply r;
    ttt_gomocup_format_move(12, 0, buf, sizeof buf);
    ttt_gomocup_parse_reply(buf, strlen(buf), &r);
    assert_int_equal(r.kind, TTT_GOMOCUP_REPLY_MOVE);
    assert_int_equal(r.x, 12);
    assert_int_equal(r.y, 0);
}

static void test_rule_notes(void **state)
{
    (void)state;
    char buf[TTT_GOMOCUP_TEXT_SIZE];
    assert_string_equal(ttt_gomocup_rule_note(0, buf, sizeof buf), "");
    ttt_gomocup_rule_note(TTT_GOMOCUP_RULE_RENJU, buf, sizeof buf);
    assert_non_null(strstr(buf, "renju"));
    assert_non_null(strstr(buf, "five or more"));
    ttt_gomocup_rule_note(TTT_GOMOCUP_RULE_EXACT5 | 64, buf, sizeof buf);
    assert_non_null(strstr(buf, "exactly five"));
    assert_non_null(strstr(buf, "unknown bits"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_and_rectstart),
        cmocka_unit_test(test_crlf_spaces_and_case_are_accepted),
        cmocka_unit_test(test_bare_commands),
        cmocka_unit_test(test_stones_and_takeback),
        cmocka_unit_test(test_info_keys),
        cmocka_unit_test(test_unknown_commands),
        cmocka_unit_test(test_malformed_lines),
        cmocka_unit_test(test_long_lines_are_errors_not_cut),
        cmocka_unit_test(test_replies),
        cmocka_unit_test(test_formatting),
        cmocka_unit_test(test_rule_notes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
