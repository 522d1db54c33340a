/*
 * fuzz_engine_spec - engines made from spec strings (ttt/engine.h): ttt_engine_new, ttt_engine_spec, and a
 * tiny search with the engine.
 *
 * Input: "RULES\nSPEC[\nMOVES]" (3x3 when the rules do not parse), or a spec alone on 3x3; the search starts
 * from the position the moves reach, when they are a legal unfinished game, else from the empty board. Specs
 * that would open a
 * file (engines with a file= or memory= option: the table and the learner) or ask for a big transposition
 * table are skipped: they test the file system and the allocator, not the parser.
 *
 * Invariants: a made engine's full spec (ttt_engine_spec) makes an engine with the same full spec and name;
 * a failed spec says why. Then the full spec with its budget replaced by a tiny one counted in work (time=0,
 * nodes=, iterations=, trials=; tt=1) plays a few moves from that position, each legal, the same first move
 * from a second engine of the same spec (determinism), and analyses the position reached when it can: every
 * legal move once.
 */
#include "fuzz.h"

/* The biggest transposition table a spec may ask for (MiB): tables are allocated when the engine is made. */
#define FUZZ_MAX_TT_MIB 64
/* The tiny budget of the search: each key, when the engine has it, gets this value. */
static const struct {
    const char *key;
    const char *value;
} tiny_budget[] = {
    {"time", "0"}, {"nodes", "200"}, {"iterations", "32"}, {"trials", "16"}, {"tt", "1"},
};
#define FUZZ_SEARCH_PLIES 3

/* The value of option key in spec ("name:k=v,k=v"), or NULL when the spec does not set it. */
static const char *option_value(const char *spec, const char *key)
{
    const char *colon = strchr(spec, ':');
    size_t klen = strlen(key);
    for (const char *p = colon ? colon + 1 : NULL; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strncmp(p, key, klen) == 0 && p[klen] == '=')
            return p + klen + 1;
    return NULL;
}

static bool worth_making(const char *spec)
{
    if (ttt_engine_has_option(spec, "file") || ttt_engine_has_option(spec, "memory"))
        return false;
    const char *tt = option_value(spec, "tt");
    return !tt || strtoull(tt, NULL, 10) <= FUZZ_MAX_TT_MIB;
}

/* full ("name:k=v,...", every option spelled out) with the tiny budget's values; false when it does not fit.
 */
static bool tiny_spec(const char *full, char *out, size_t size)
{
    const char *colon = strchr(full, ':');
    FUZZ_CHECK(colon != NULL);
    size_t n = (size_t)snprintf(out, size, "%.*s", (int)(colon - full), full);
    char sep = ':';
    for (const char *p = colon + 1; *p && n < size;) {
        size_t len = strcspn(p, ","), klen = strcspn(p, "=");
        FUZZ_CHECK(klen < len);
        const char *value = NULL;
        for (size_t i = 0; i < sizeof tiny_budget / sizeof *tiny_budget; i++)
            if (strlen(tiny_budget[i].key) == klen && strncmp(p, tiny_budget[i].key, klen) == 0)
                value = tiny_budget[i].value;
        if (value)
            n += (size_t)snprintf(out + n, size - n, "%c%.*s=%s", sep, (int)klen, p, value);
        else
            n += (size_t)snprintf(out + n, size - n, "%c%.*s", sep, (int)len, p);
        sep = ',';
        p += len + (p[len] == ',');
    }
    return n < size;
}

/* Plays up to FUZZ_SEARCH_PLIES moves from the position of moves_text (or the empty board) with two engines
 * of the same spec; they must agree. */
static void tiny_search(const char *spec, const ttt_rules *rules, const char *moves_text)
{
    ttt_engine *a, *b;
    ttt_error err;
    FUZZ_CHECK(ttt_engine_new(spec, rules, &a, &err) == TTT_OK);
    FUZZ_CHECK(ttt_engine_new(spec, rules, &b, &err) == TTT_OK);
    ttt_board board;
    ttt_move moves[TTT_MAX_CELLS];
    int count = 0;
    if (!moves_text || ttt_moves_parse(moves_text, rules, moves, TTT_MAX_CELLS, &count, NULL) != TTT_OK ||
        ttt_moves_replay(rules, moves, count, &board, NULL) != TTT_OK || ttt_board_terminal(&board)) {
        count = 0;
        ttt_board_init(&board, rules);
    }
    ttt_engine_follow(a, moves, count);
    ttt_engine_follow(b, moves, count);
    for (int ply = 0; ply < FUZZ_SEARCH_PLIES && !ttt_board_terminal(&board); ply++) {
        ttt_move ma = TTT_NO_MOVE, mb = TTT_NO_MOVE;
        ttt_search_info info;
        FUZZ_CHECK(ttt_engine_choose(a, &board, &ma, &info, &err) == TTT_OK);
        FUZZ_CHECK(ttt_board_is_legal(&board, ma));
        if (ply == 0) { /* the first move is enough to see that the engine is deterministic */
            FUZZ_CHECK(ttt_engine_choose(b, &board, &mb, NULL, &err) == TTT_OK);
            FUZZ_CHECK(ma == mb);
        }
        ttt_board_play(&board, ma);
    }
    if (!ttt_board_terminal(&board) && ttt_engine_can_analyse(a)) {
        ttt_analysis *an = malloc(sizeof *an);
        FUZZ_CHECK(an != NULL);
        FUZZ_CHECK(ttt_engine_analyse(a, &board, an, &err) == TTT_OK);
        FUZZ_CHECK(an->count == board.cells - board.ply);
        ttt_bits seen = {{0}};
        for (int i = 0; i < an->count; i++) {
            FUZZ_CHECK(ttt_board_is_legal(&board, an->moves[i].move) &&
                       !ttt_bits_test(&seen, an->moves[i].move));
            ttt_bits_set(&seen, an->moves[i].move);
            FUZZ_CHECK(an->moves[i].score >= -1.0 && an->moves[i].score <= 1.0);
        }
        free(an);
    }
    ttt_engine_free(a);
    ttt_engine_free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ttt_rules rules;
    char *spec;
    char *text = fuzz_rules_and_text(data, size, &rules, &spec);
    char *moves_text = fuzz_split(spec);
    if (!worth_making(spec)) {
        free(text);
        return 0;
    }
    ttt_engine *e = NULL;
    ttt_error err = {{0}};
    if (ttt_engine_new(spec, &rules, &e, &err) != TTT_OK) {
        FUZZ_CHECK(e == NULL);
        fuzz_check_message(&err);
        free(text);
        return 0;
    }
    FUZZ_CHECK(ttt_rules_equal(ttt_engine_rules(e), &rules) && ttt_engine_nodes(e) == 0);
    char full[TTT_SPEC_TEXT_SIZE], again[TTT_SPEC_TEXT_SIZE], tiny[TTT_SPEC_TEXT_SIZE];
    ttt_engine_spec(e, full, sizeof full);
    FUZZ_CHECK(strlen(full) + 1 < sizeof full);
    ttt_engine *copy;
    FUZZ_CHECK(ttt_engine_new(full, &rules, &copy, &err) == TTT_OK);
    FUZZ_CHECK(strcmp(ttt_engine_spec(copy, again, sizeof again), full) == 0);
    FUZZ_CHECK(strcmp(ttt_engine_name(copy), ttt_engine_name(e)) == 0);
    ttt_engine_free(copy);
    ttt_engine_free(e);
    FUZZ_CHECK(tiny_spec(full, tiny, sizeof tiny));
    tiny_search(tiny, &rules, moves_text);
    free(text);
    return 0;
}
