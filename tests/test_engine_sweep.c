/* A sweep of every registered engine over every k from 3 to 20 on 20x20 and on the smallest boards (3x3, 3x20,
 * 20x3), normal and misère: each makes two moves with a small budget, or refuses the rules with a message.
 * Under the sanitizer build this is what finds undefined behaviour that only some k reach (values that grow
 * with k, arrays sized by it). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "ttt/ttt.h"
#include "support.h"

#define SWEEP_MIN_K    3
#define SWEEP_MAX_K    20
#define SWEEP_BIG_SIDE 20
#define SWEEP_MOVES    2 /* from the empty board: the opening, and a reply to a stone */

/* A small budget for every engine that has the option: counts instead of time, so that the sweep stays quick
 * in a sanitizer build and does the same work on every machine. */
static const struct {
    const char *key, *value;
} sweep_budget[] = {
    {"time", "0"},  {"nodes", "300"}, {"depth", "2"}, {"iterations", "30"}, {"trials", "30"},
    {"vcf", "200"}, {"vct", "200"},   {"tt", "1"},    {"tree", "4096"},     {"learn", "0"},
};

/* The engine's spec with the sweep's budget; false when the engine cannot run here (it needs a program). */
static bool sweep_spec(const char *name, char *out, size_t size)
{
    if (ttt_engine_requires_path(name))
        return false;
    size_t n = (size_t)snprintf(out, size, "%s", name);
    char sep = ':';
    for (size_t i = 0; i < sizeof sweep_budget / sizeof sweep_budget[0]; i++) {
        if (!ttt_engine_has_option(name, sweep_budget[i].key))
            continue;
        n += (size_t)snprintf(out + n, size - n, "%c%s=%s", sep, sweep_budget[i].key, sweep_budget[i].value);
        sep = ',';
        assert_true(n < size);
    }
    return true;
}

/* The engine of spec makes SWEEP_MOVES legal moves under the rules of text, or refuses them with a message. */
static void sweep_one(const char *spec, const char *text)
{
    ttt_rules r;
    ttt_error err = {{0}};
    assert_int_equal(ttt_rules_parse(text, &r, &err), TTT_OK);
    ttt_engine *e = NULL;
    ttt_status st = ttt_engine_new(spec, &r, &e, &err);
    if (st != TTT_OK) {
        assert_null(e);
        if (err.msg[0] == '\0') {
            print_error("engine '%s' refused %s without a message\n", spec, text);
            fail();
        }
        return;
    }
    ttt_board b;
    ttt_board_init(&b, &r);
    for (int i = 0; i < SWEEP_MOVES && !ttt_board_terminal(&b); i++) {
        ttt_move m = TTT_NO_MOVE;
        st = ttt_engine_choose(e, &b, &m, NULL, &err);
        if (st != TTT_OK) {
            print_error("engine '%s' on %s, ply %d: %s\n", spec, text, b.ply, err.msg);
            fail();
        }
        assert_true(ttt_board_is_legal(&b, m));
        ttt_board_play(&b, m);
    }
    ttt_engine_free(e);
}

/* Every rules of the sweep for one engine: 20x20 with k = 3..20, 3x3, 3x20 and 20x3 with every k they allow. */
static void sweep_engine(const char *spec)
{
    static const char *const suffixes[] = {"", "-misere"};
    for (size_t s = 0; s < sizeof suffixes / sizeof suffixes[0]; s++) {
        char text[64];
        snprintf(text, sizeof text, "3x3%s", suffixes[s]);
        sweep_one(spec, text);
        for (int k = SWEEP_MIN_K; k <= SWEEP_MAX_K; k++) {
            snprintf(text, sizeof text, "%dx%dk%d%s", SWEEP_BIG_SIDE, SWEEP_BIG_SIDE, k, suffixes[s]);
            sweep_one(spec, text);
            snprintf(text, sizeof text, "3x%dk%d%s", SWEEP_BIG_SIDE, k, suffixes[s]);
            sweep_one(spec, text);
            snprintf(text, sizeof text, "%dx3k%d%s", SWEEP_BIG_SIDE, k, suffixes[s]);
            sweep_one(spec, text);
        }
    }
}

static void test_every_engine_every_k(void **state)
{
    (void)state;
    int swept = 0;
    for (int i = 0; i < ttt_engine_count(); i++) {
        char spec[256];
        if (!sweep_spec(ttt_engine_about_at(i)->name, spec, sizeof spec))
            continue;
        sweep_engine(spec);
        swept++;
    }
    assert_true(swept >= 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_engine_every_k),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
