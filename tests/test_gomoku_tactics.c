/*
 * test_gomoku_tactics.c - the gomoku engine in tactical positions: it finds every forced win and blocks every
 * forced loss. The positions come from seeded games (bench/gomoku/tactics.sh); on 7x7k4 and 9x9k5 every move
 * was valued by the exact solver, and the good moves are listed; on 15x15k5 the answer is checked here by
 * the VCF search without a budget, which tries every block of every four.
 *
 *   win    the side to move has a forced win that at most a quarter of its moves keep
 *   block  the side to move does not lose with best play, but at most a third of its moves avoid a loss
 *          (on 15x15: the opponent has a VCF that some move stops)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "search/threats.h"
#include "ttt/ttt.h"
#include "support.h"
#include "test_gomoku_vcf.h"

#define SEEDS 3
/* A budget of nodes, not time, keeps the test reproducible. */
#define BUDGET "time=0,nodes=20000"

typedef struct tactic {
    const char *rules;
    const char *position;
    const char *kind; /* "win" or "block" */
    const char *good; /* the good moves, or "vcf": checked by the VCF search */
} tactic;

static const tactic tactics[] = {
    {"7x7k4", "......./......./.o...../.xxoo../..ox..x/..x..../.o.....", "win", "e3 e5 f5 e6"},
    {"7x7k4", "......./..xo.x./.ooxxoo/.xxooxx/..oxxox/..x.o../.o.....", "block", "a1 b2 b5 b6 a7"},
    {"7x7k4", "......./...xo../......./..oxxox/...o.../......./.......", "win", "d3"},
    {"7x7k4", "...o.x./...xo../.xxoox./.ooxxox/.xxoo../.ooxx../.......", "block", "g3 f5 g5 f6 g6 g7"},
    {"7x7k4", "......./..oxxo./....o../....x.o/......x/......x/.o.....", "win", "d3 d4 f5"},
    {"7x7k4", "......./xooxxo./.xxoox./.ooxxoo/..xooxx/......x/.o.....", "block", "b6"},
    {"7x7k4", "......./....x../...o.../...x.../xooxoxo/......./.......", "win", "a3 a4 c4 a6 d6 d7"},
    {"7x7k4", "....o../o.oxx../.xxox../xoxxxo./xooxoxo/oxoxo../...ox..", "block", "f2 g2"},
    {"7x7k4", ".x.o.../.o.x.../.x.o.../.o.x.../.x.o.x./.o.x.../.x.o...", "win", "e1 f1 e2 f3 c4 f7"},
    {"7x7k4", ".x.o.../ooxxoox/xxooxx./ooxxoox/.xooxx./.oxxo../.x.o...", "block", "g3 g5"},
    {"7x7k4", "......./x..ox.x/.o.x.../..oo.../...x.../......o/.......", "win", "e4"},
    {"7x7k4", "......x/x..oxox/.oxxoo./.xooxxo/.oxxo.x/......o/.......", "block", "f6"},
    {"7x7k4", "...x.o./...x.../......./xoxox../o....../......./.......", "win", "b3"},
    {"7x7k4", "...x.o./..oxox./.oxoxo./xoxoxox/oxoxox./...x.../.......", "block", "b1 b6 f6"},
    {"7x7k4", "......./......./......./o..x.o./.x...../..oxxo./.......", "win", "d3 d5 f5 d7"},
    {"7x7k4", "......./...x.../.xxoox./oooxxo./.xxoox./..oxxo./..xo...", "block", "a1 a2 b2 c2 e2 a3"},
    {"9x9k5", "..oxx...o/.xxoooxxx/.ooxxxooo/....oxox./....xoxox/....xoxox/...xooxxo/....x.o../....o.o..",
     "block", "f8 d9 f9 h9"},
    {"9x9k5", "........./o..xo...x/.xoxoxxoo/..xoxooxx/o..oxoxxo/...oxxoo./..xxoooxx/..oxoxxoo/..oxx....",
     "block", "a1 f2 a3 a4 b4 c5 a6 b6"},
    {"9x9k5", "....xx.oo/oxxoooxx./xooxxxoox/xxoooxxxo/oo.xxoo../x.ooxox../ox.oo.x../...x..o../..x......",
     "block", "c5 c7 f7 e8 f8 f9 g9"},
    {"15x15k5",
     ".............../.............../.............../.............../.............../.............../"
     ".......o.o...../.......oxx...../.......x..x..../......x..o...../..........o..../.............../"
     ".............../.............../...............",
     "block", "vcf"},
    {"15x15k5",
     ".............../.............../.............../.............../.............../.............../"
     ".......oxox..../.......oxx...../.......xx.xo.../......xo.o...../..........o..../.............../"
     "............o../.............../...............",
     "win", "vcf"},
    {"15x15k5",
     ".............../.............../.............../.............../.............../.............../"
     "......o..o...../......o......../......ox......./........xx...../.........x...../.............../"
     ".............../.............../...............",
     "block", "vcf"},
    {"15x15k5",
     ".............../.............../.............../.............../......o......../......x......../"
     "......o.oo...../......o......../......ox......./......x.xxo..../.......x.x...../.............../"
     ".............../.............../...............",
     "win", "vcf"},
    {"15x15k5",
     ".............../.............../.............../.............../.............../.........x...../"
     "......o.x....../.......o......./.......oo.x..../......x..x...../.......o......./.............../"
     ".............../.............../...............",
     "block", "vcf"},
    {"15x15k5",
     ".............../.............../.............../.............../....o........../.....x...x...../"
     "......o.x....../.......o.x...../.......ooox..../......xx.xo..../.......ox....../.......o.x...../"
     "..........o..../.............../...............",
     "win", "vcf"},
    {"15x15k5",
     ".............../.............../.............../.............../.............../.......x......./"
     ".............../.......oox...../........oxx..../.........x...../.........o...../.............../"
     ".............../.............../...............",
     "block", "vcf"},
    {"15x15k5",
     ".............../.............../.............../...........o.../..........x..../....x..xxo...../"
     "....x...oo...../.....o.oox...../......x.oxx..../......xxox...../........xo...../.......o.o...../"
     ".............../.............../...............",
     "win", "vcf"},
    {"15x15k5",
     ".............../.............../.............../.............../.............../........ooo..../"
     ".....ox......../....xx........./.....x........./.............../.............../.............../"
     ".............../.............../...............",
     "block", "vcf"},
    {"15x15k5",
     ".............../.............../.............../.............../.............../.......xoooxo../"
     ".....ox......../....xxxo......./....oxo......../......x......../.............../.............../"
     ".............../.............../...............",
     "win", "vcf"},
    {"15x15k5",
     ".............../.............../.............../.............../.............../.......o.x...../"
     ".............../.............../.....ooo......./.....x........./......x......../.....x........./"
     "........x....../.........o...../...............",
     "block", "vcf"},
    {"15x15k5",
     ".............../.............../.............../.............../.............../.......o.x...../"
     "......oxoo...../........xo...../....xooox.x..../.....xoxx....../.....oxxxox..../....xx.oo....../"
     "....o...x....../.........o...../...............",
     "win", "vcf"},
    {"15x15k5",
     ".............../.............../.............../.............../.............../.........o...../"
     "....o........../.....xo......../....xx........./...x.x.xo....../.....o........./.............../"
     ".............../.............../...............",
     "block", "vcf"},
    {"15x15k5",
     ".............../.............../.............../.............../.............../.........o...../"
     "....o.o......../.....xo......../....xx........./...x.x.xo....../.....ox......../.......o......./"
     ".............../.............../...............",
     "win", "vcf"},
    {"15x15k5",
     ".............../.............../.............../.............../.............../.............../"
     ".....o........./......x.x....../.....o.x.o...../......x.x....../.......o......./.............../"
     ".............../.............../...............",
     "block", "vcf"},
    {"15x15k5",
     ".............../.............../.............../.............../.....x........./.....o........./"
     ".....o........./.....oxxxo...../.....oxxoo...../.....xx.x....../...xoooox....../.............../"
     ".............../.............../...............",
     "win", "vcf"},
};

/* Is `move` one of the space-separated moves of `list`? */
static bool listed(const ttt_rules *r, const char *list, ttt_move move)
{
    char name[TTT_MOVE_TEXT_SIZE], padded[TTT_MOVE_TEXT_SIZE + 2], all[512];
    ttt_move_format(r, move, name, sizeof name);
    snprintf(padded, sizeof padded, " %s ", name);
    snprintf(all, sizeof all, " %s ", list);
    return strstr(all, padded) != NULL;
}

static void check_tactic(const tactic *x, int seed)
{
    ttt_rules r = rules_of(x->rules);
    ttt_board b = board_of(&r, x->position);
    char spec[64];
    snprintf(spec, sizeof spec, "gomoku:seed=%d," BUDGET, seed);
    ttt_engine *e = engine_ok(spec, &r);
    ttt_move m;
    ttt_error err;
    assert_int_equal(ttt_engine_choose(e, &b, &m, NULL, &err), TTT_OK);
    ttt_engine_free(e);
    assert_true(ttt_board_is_legal(&b, m));
    char name[TTT_MOVE_TEXT_SIZE];
    ttt_move_format(&r, m, name, sizeof name);
    bool ok;
    if (strcmp(x->good, "vcf") != 0) {
        ok = listed(&r, x->good, m);
    } else {
        ttt_threats *t = threats_new(&r);
        ttt_board after = b;
        ttt_board_play(&after, m);
        ttt_player opp = (ttt_player)(1 - ttt_board_to_move(&b));
        ok = strcmp(x->kind, "win") == 0 ? keeps_vcf(t, &after) : !vcf_in(t, &after, opp);
        threats_free(t);
    }
    if (!ok)
        fail_msg("%s %s (%s, seed %d): played %s, want %s", x->rules, x->position, x->kind, seed, name,
                 x->good);
}

/* The fixtures are what they claim on 15x15: a VCF for the side to move (win), for the opponent (block). */
static void test_fixtures_hold(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof tactics / sizeof tactics[0]; i++) {
        const tactic *x = &tactics[i];
        if (strcmp(x->good, "vcf") != 0)
            continue;
        ttt_rules r = rules_of(x->rules);
        ttt_board b = board_of(&r, x->position);
        ttt_threats *t = threats_new(&r);
        ttt_player me = ttt_board_to_move(&b);
        if (strcmp(x->kind, "win") == 0)
            assert_true(vcf_in(t, &b, me));
        else
            assert_true(vcf_in(t, &b, (ttt_player)(1 - me)));
        threats_free(t);
    }
}

static void test_finds_wins(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof tactics / sizeof tactics[0]; i++)
        if (strcmp(tactics[i].kind, "win") == 0)
            for (int seed = 0; seed < SEEDS; seed++)
                check_tactic(&tactics[i], seed);
}

static void test_blocks_losses(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof tactics / sizeof tactics[0]; i++)
        if (strcmp(tactics[i].kind, "block") == 0)
            for (int seed = 0; seed < SEEDS; seed++)
                check_tactic(&tactics[i], seed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixtures_hold),
        cmocka_unit_test(test_finds_wins),
        cmocka_unit_test(test_blocks_losses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
