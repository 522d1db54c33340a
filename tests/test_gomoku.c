/*
 * test_gomoku.c - the gomoku engine: wins now, blocks, plays its VCF and stops the opponent's, blocks an open
 * three; the same seed and node budget give the same move; the solver's move where threats do not apply.
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

#define SEEDS 6
/* A small budget keeps the tests fast and reproducible (no clock). */
#define BUDGET "time=0,nodes=3000"

typedef struct fixture {
    const char *rules;
    const char *position;
    const char *want; /* the good moves, space-separated */
} fixture;

static const fixture obvious[] = {
    {"15x15k5", "h8 g8 i8 a1 j8 a15 k8", "l8"},          /* O blocks a four whose other end is taken */
    {"15x15k5", "h8 h7 i8 g7 j8 f7 a1 e7 a15", "d7 i7"}, /* O wins with its four (X's three waits) */
    {"15x15k5", "h8 h7 i8 g7 j8 f7 k8 a1", "g8 l8"},     /* X wins at either end of its four */
    {"15x15k5", "e5 d5 f5 h1 g5 a15 h2 o15 h3 o1 h4 a14", "h5"}, /* X's double four (a VCF of 3) */
    {"15x15k5", "h8 a1 i8 a15 j8", "g8 k8 f8 l8"},               /* O stops X's open three */
    {"7x7k5", "d4 a1 d5 a2 d6 g7 d3", "d2 d7"},                  /* O blocks X's four at either end */
    {"3x3", "xx./oo./...", "c1"},                                /* the solver's move: X wins */
    {"4x4-misere", "x.../..../..../....", NULL}, /* any legal move: the solver plays misère */
};

/* The search's options off by default, each played through the positions above as well. */
static const char *const variants[] = {"", ",null=1", ",ext=1", ",partial=0,inner=6"};
#define VARIANTS (int)(sizeof variants / sizeof variants[0])

static ttt_move choose_ok(const char *spec, const ttt_board *b, ttt_search_info *info)
{
    ttt_engine *e = engine_ok(spec, &b->rules);
    ttt_move m;
    ttt_error err;
    assert_int_equal(ttt_engine_choose(e, b, &m, info, &err), TTT_OK);
    assert_true(ttt_board_is_legal(b, m));
    ttt_engine_free(e);
    return m;
}

static void test_obvious_moves(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof obvious / sizeof obvious[0]; i++) {
        const fixture *f = &obvious[i];
        ttt_rules r = rules_of(f->rules);
        ttt_board b = board_of(&r, f->position);
        for (int seed = 0; seed < SEEDS * VARIANTS; seed++) {
            char spec[96], name[TTT_MOVE_TEXT_SIZE], padded[TTT_MOVE_TEXT_SIZE + 2], want[64];
            snprintf(spec, sizeof spec, "gomoku:seed=%d," BUDGET "%s", seed % SEEDS, variants[seed / SEEDS]);
            ttt_move m = choose_ok(spec, &b, NULL);
            if (!f->want)
                continue;
            ttt_move_format(&r, m, name, sizeof name);
            snprintf(padded, sizeof padded, " %s ", name);
            snprintf(want, sizeof want, " %s ", f->want);
            if (!strstr(want, padded)) {
                print_error("%s %s, %s: played %s, expected one of %s\n", f->rules, f->position, spec, name,
                            f->want);
                fail();
            }
        }
    }
}

/* Positions from random games (found with the search itself) where the side not to move has a long VCF
 * (21 and 17 plies) that the alpha-beta alone, within the budget, does not stop (vcf=0,vct=0,leaf=0 leaves it
 * one), and the double four at h5. */
static const char *const opponent_vcf[] = {
    ".............../.............../.............../........x....../.........o...../........x..o.../"
    ".......o.oxo.../.......xoxx..../.......xx....../.....oo.xx...../..........o..../.............../"
    ".............../.............../...............",
    ".............../..........x..../..........x..../.....oo..o...../....x.....xx.../.....xx...o..../"
    "......oxoo.x.../......oxoxo.ox./.........xo..o./.............../.............../.............../"
    ".............../.............../...............",
    "e5 d5 f5 h1 g5 a15 h2 o15 h3 o1 h4",
};

/* The side to move must leave the opponent without a VCF; the heuristic engine (one ply of line scores) fails
 * to in the first two positions. */
static void test_stops_the_opponents_vcf(void **state)
{
    (void)state;
    ttt_rules r = rules_of("15x15k5");
    ttt_threats *t = threats_new(&r);
    for (size_t i = 0; i < sizeof opponent_vcf / sizeof opponent_vcf[0]; i++) {
        ttt_board b = board_of(&r, opponent_vcf[i]);
        ttt_player opp = (ttt_player)(1 - ttt_board_to_move(&b));
        assert_true(vcf_in(t, &b, opp));
        for (int seed = 0; seed < SEEDS; seed++) {
            char spec[64];
            snprintf(spec, sizeof spec, "gomoku:seed=%d," BUDGET, seed);
            ttt_board after = b;
            ttt_board_play(&after, choose_ok(spec, &b, NULL));
            assert_false(vcf_in(t, &after, opp));
        }
        if (i < 2) {
            ttt_board after = b;
            ttt_board_play(&after, choose_ok("heuristic", &b, NULL));
            assert_true(vcf_in(t, &after, opp));
        }
    }
    threats_free(t);
}

/* Positions from random games where the side to move has a VCF (9 and 11 plies) that the heuristic engine
 * does not keep: the engine's move must make a four after whose forced block the VCF goes on. */
static const char *const own_vcf[] = {
    ".............../.............../.............../.............../........xx...../.....xox.xx..../"
    "......oo......./.....o.x......./.......oxo...../......oxo....../........x....../.......o.o...../"
    ".....xo..ox..../.......x......./.......o.......",
    ".............../.............../.....o........./......xx......./.....xo.o....../......oxx....../"
    "......o...x..../......xx..o..../....oo.xxoo..../......xo.o...../........x....../.............../"
    ".............../.............../...............",
};

static void test_plays_its_vcf(void **state)
{
    (void)state;
    ttt_rules r = rules_of("15x15k5");
    ttt_threats *t = threats_new(&r);
    for (size_t i = 0; i < sizeof own_vcf / sizeof own_vcf[0]; i++) {
        ttt_board b = board_of(&r, own_vcf[i]);
        for (int seed = 0; seed < SEEDS; seed++) {
            char spec[64];
            snprintf(spec, sizeof spec, "gomoku:seed=%d," BUDGET, seed);
            ttt_board after = b;
            ttt_board_play(&after, choose_ok(spec, &b, NULL));
            assert_true(keeps_vcf(t, &after));
        }
        ttt_board after = b;
        ttt_board_play(&after, choose_ok("heuristic", &b, NULL));
        assert_false(keeps_vcf(t, &after));
    }
    threats_free(t);
}

/* Same seed and node budget: the same move and the same node count; the engine searches more than one
 * depth within them. */
static void test_reproducible(void **state)
{
    (void)state;
    ttt_rules r = rules_of("15x15k5");
    ttt_board b = board_of(&r, "h8 i9 g7 j10 g9 f9 i7");
    ttt_search_info a, c;
    ttt_move m1 = choose_ok("gomoku:seed=4," BUDGET, &b, &a);
    ttt_move m2 = choose_ok("gomoku:seed=4," BUDGET, &b, &c);
    assert_int_equal(m1, m2);
    assert_true(a.nodes == c.nodes);
    assert_true(a.depth >= 2);
}

/* The leaves' VCF and the defence sets read from the windows of k-2 kept with the play search exactly as the
 * scans of every window did (scan=1): the same move and the same node count at a fixed depth, at every
 * position of games the engine plays against itself (which reach fours, open threes and their defences). */
#define SCAN_GAMES 3
#define SCAN_PLIES 40
static void test_scan_free_search_is_the_same(void **state)
{
    (void)state;
    ttt_rules r = rules_of("15x15k5");
    ttt_threats *t = threats_new(&r);
    int threes = 0; /* positions where a side has an open three (or better): the defence sets are searched */
    for (int game = 0; game < SCAN_GAMES; game++) {
        ttt_board b = board_of(&r, game == 0 ? "" : game == 1 ? "h8 h9" : "a1 o15 h8");
        char play[64];
        snprintf(play, sizeof play, "gomoku:seed=%d,time=0,nodes=1500", game);
        for (int ply = 0; ply < SCAN_PLIES && ttt_board_outcome(&b) == TTT_ONGOING; ply++) {
            ttt_search_info fast, scan;
            ttt_move m1 = choose_ok("gomoku:time=0,depth=3,vct=0,vcf=0", &b, &fast);
            ttt_move m2 = choose_ok("gomoku:time=0,depth=3,vct=0,vcf=0,scan=1", &b, &scan);
            assert_int_equal(m1, m2);
            assert_true(fast.nodes == scan.nodes);
            int defence[TTT_MAX_CELLS];
            ttt_threats_set(t, &b);
            threes +=
                ttt_threats_defences(t, TTT_X, defence) >= 0 || ttt_threats_defences(t, TTT_O, defence) >= 0;
            ttt_board_play(&b, choose_ok(play, &b, NULL));
        }
    }
    threats_free(t);
    assert_true(threes > 0);
}

static void test_bad_options(void **state)
{
    (void)state;
    ttt_rules r = rules_of("15x15k5");
    const char *bad[] = {"gomoku:width=0",   "gomoku:depth=65", "gomoku:vcf=x",      "gomoku:threes=17",
                         "gomoku:defend=2",  "gomoku:bogus=1",  "gomoku:share=0",    "gomoku:share=101",
                         "gomoku:partial=2", "gomoku:inner=0",  "gomoku:null=2",     "gomoku:ext=2",
                         "gomoku:tvct=2",    "gomoku:tshare=0", "gomoku:tshare=101", "gomoku:leafp=2",
                         "gomoku:scan=2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ttt_engine *e = NULL;
        ttt_error err = {{0}};
        assert_int_equal(ttt_engine_new(bad[i], &r, &e, &err), TTT_EINVAL);
        assert_null(e);
        assert_non_null(strstr(err.msg, "gomoku"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_obvious_moves),
        cmocka_unit_test(test_stops_the_opponents_vcf),
        cmocka_unit_test(test_plays_its_vcf),
        cmocka_unit_test(test_reproducible),
        cmocka_unit_test(test_scan_free_search_is_the_same),
        cmocka_unit_test(test_bad_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
