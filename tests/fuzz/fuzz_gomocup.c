/*
 * fuzz_gomocup - ttt_gomocup_parse and ttt_gomocup_parse_reply (ttt/gomocup.h): what a brain reads from a
 * manager, and what a manager reads from a brain, both untrusted.
 *
 * Input: one line, bytes as they come (NULs and line breaks included). Invariants: a parse either succeeds
 * with a kind of the protocol and fields in range, or fails with a one-line message; a move reply formats
 * back to a line that parses to the same move; texts are terminated and free of control characters.
 */
#include "fuzz.h"

static void check_text(const char *text, size_t size)
{
    FUZZ_CHECK(memchr(text, '\0', size) != NULL);
    for (const char *p = text; *p; p++)
        FUZZ_CHECK((unsigned char)*p >= ' ' && *p != 0x7f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *line = (const char *)data;
    ttt_gomocup_command c;
    ttt_error err = {{0}};
    if (ttt_gomocup_parse(line, size, &c, &err) == TTT_OK) {
        FUZZ_CHECK(c.kind >= TTT_GOMOCUP_EMPTY && c.kind <= TTT_GOMOCUP_UNKNOWN);
        FUZZ_CHECK(c.x >= 0 && c.x <= TTT_GOMOCUP_MAX_COORD && c.y >= 0 && c.y <= TTT_GOMOCUP_MAX_COORD);
        FUZZ_CHECK(c.width >= 0 && c.width <= TTT_GOMOCUP_MAX_COORD);
        FUZZ_CHECK(c.height >= 0 && c.height <= TTT_GOMOCUP_MAX_COORD);
        FUZZ_CHECK(c.number >= 0 && c.number <= TTT_GOMOCUP_MAX_NUMBER);
        if (c.kind == TTT_GOMOCUP_STONE)
            FUZZ_CHECK(c.field >= 1 && c.field <= 3);
        if (c.kind == TTT_GOMOCUP_UNKNOWN)
            check_text(c.text, sizeof c.text);
    } else {
        fuzz_check_message(&err);
    }
    ttt_gomocup_reply r;
    ttt_gomocup_parse_reply(line, size, &r);
    check_text(r.text, sizeof r.text);
    if (r.kind == TTT_GOMOCUP_REPLY_MOVE) {
        char buf[TTT_GOMOCUP_TEXT_SIZE];
        ttt_gomocup_format_move(r.x, r.y, buf, sizeof buf);
        ttt_gomocup_reply back;
        ttt_gomocup_parse_reply(buf, strlen(buf), &back);
        FUZZ_CHECK(back.kind == TTT_GOMOCUP_REPLY_MOVE && back.x == r.x && back.y == r.y);
    }
    return 0;
}
