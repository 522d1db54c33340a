/*
 * fuzz_rules - ttt_rules_parse, ttt_rules_check and ttt_rules_format (ttt/rules.h).
 *
 * Input: rules text ("4x4k3-misere"). Invariants: parsed rules pass ttt_rules_check, their canonical text
 * parses back to the same rules and formats to the same text; a failed parse leaves its output untouched and
 * says why. The first bytes, read as a hand-built rules struct, must pass ttt_rules_check exactly when their
 * canonical text parses back to them.
 */
#include "fuzz.h"

/* A rules struct from the first bytes of the input (sides and k around their valid ranges). */
static bool rules_of_bytes(const uint8_t *data, size_t size, ttt_rules *out)
{
    if (size < 4)
        return false;
    *out = (ttt_rules){
        .rows = (int8_t)data[0], .cols = (int8_t)data[1], .k = (int8_t)data[2], .misere = data[3] & 1};
    return true;
}

/* Canonical text of valid rules: parses back to the same rules, formats to the same text. */
static void check_round_trip(const ttt_rules *r)
{
    char text[TTT_RULES_TEXT_SIZE], again[TTT_RULES_TEXT_SIZE];
    ttt_rules_format(r, text, sizeof text);
    FUZZ_CHECK(strlen(text) + 1 < sizeof text); /* not cut */
    ttt_rules back;
    ttt_error err;
    FUZZ_CHECK(ttt_rules_parse(text, &back, &err) == TTT_OK);
    FUZZ_CHECK(ttt_rules_equal(r, &back));
    FUZZ_CHECK(strcmp(ttt_rules_format(&back, again, sizeof again), text) == 0);
    FUZZ_CHECK(ttt_rules_cells(r) == r->rows * r->cols && ttt_rules_cells(r) <= TTT_MAX_CELLS);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_strndup(data, size);
    const ttt_rules sentinel = {.rows = -7, .cols = -7, .k = -7, .misere = true};
    ttt_rules r = sentinel;
    ttt_error err = {{0}};
    if (ttt_rules_parse(text, &r, &err) == TTT_OK) {
        FUZZ_CHECK(ttt_rules_check(&r, NULL) == TTT_OK);
        check_round_trip(&r);
    } else {
        FUZZ_CHECK(ttt_rules_equal(&r, &sentinel) && r.misere == sentinel.misere);
        fuzz_check_message(&err);
    }
    ttt_rules raw;
    if (rules_of_bytes(data, size, &raw)) {
        if (ttt_rules_check(&raw, &err) == TTT_OK)
            check_round_trip(&raw);
        else
            fuzz_check_message(&err);
    }
    free(text);
    return 0;
}
