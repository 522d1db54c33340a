/*
 * test_gomoku_vct.c - the threat search over the line patterns (search/patterns.h): over seeded games on
 * 15x15, its VCF (threes = 0) agrees with the window counts' VCF (search/threats.h) at every position, and
 * every VCT win it finds holds against every legal defence (test_gomoku_vct.h); the table kept across
 * searches gives the same answers; the exact defence set is what stops an open three.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ttt/ttt.h"
#include "support.h"
#include "test_gomoku_vct.h"

/* Seeded games and their length; the threes a VCT may use. */
#define GAMES     6
#define MAX_PLIES 60
#define THREES    4
/* Nodes of each VCT search of a position (the checks' own searches get VCT_CHECK_BUDGET). */
#define SEARCH_BUDGET 50000
/* A move is drawn among the best this many cells by the patterns (a game with threats on both sides). */
#define CHOICES 4

/* Positions of Rapfi's wins against the engine (bench/gomoku/rapfi/results, the first of its final run of
 * instant answers, Rapfi to move), where the windows' VCT of the engine's former root (three threes, 20,000
 * nodes) finds nothing and the patterns' VCT finds the win (bench/gomoku/vct.sh). */
static const char *const rapfi_wins[] = {
    ".............../.............../.............../.............../.............../.............../"
    "....o........../.....x.x......./"
    "o.ox..o......../..xox.xox....../.oxoooxo......./...o.xo......../..xxxo........./.............../"
    ".....xxxo......",
    ".............../.............../.............../.............../.............../.............../"
    ".........x...../........o....../"
    ".......oxox.o.x/........xoxoxx./........o.oxo../.......oxxxo.../........xoo..../.............../"
    "...............",
    ".....x........./.......xooo..../........x.oo.../........xoxxoo./....ox..x.oxxx./.....ox.xoo.ox./"
    ".....xo.ooxxo../......o.xxxo.x./"
    "......x.o....../........ox...../........o....../.............../.............../.............../"
    "...............",
    ".............../.............../.............../.............../.............../.............../"
    ".......x......./.........x...../"
    "........o...o../......ox.x.o.../....oxxxooox.../......xoxx...../....oooxo.x..../......xxoo...../"
    "...............",
    ".............../.............../.............../.............../.............../....x..x......./"
    "....ooox......./....oo........./"
    "o..xoxx......../...ox.xo......./..xoooxxox...../...o.xo.x....../.......x.o...../...x..o......../"
    ".....x.x.......",
    ".............../.............../.............../.............../.......x......./...x...xo....../"
    "....oo.xx....../...x.oxoo....../"
    "...ooxox......./...o.xoo......./..xo.xx.xo...../............x../.............../.............../"
    "...............",
    ".............../.............../...o.........../x..xoxx......../.o.oxoo......../.xooxox......../"
    "ox.xxoo......../.xooox........./"
    ".o.xxox......../...xxox......../..o............/.............../.............../.............../"
    "...............",
};

/* The engine's budget in those positions: nodes, not time, keep the test reproducible. */
#define ENGINE_SPEC "gomoku:time=0,nodes=20000"

static uint64_t next_random(uint64_t *state)
{
    *state = *state * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
    return *state >> 33;
}

/* A playing move for the side to move: one of the CHOICES best cells by class (own, below a four, and the
 * other's). */
static int pick_move(const vct_check *c, uint64_t *rng)
{
    const ttt_patterns *p = &c->p;
    ttt_player me = ttt_board_to_move(&c->b), opp = (ttt_player)(1 - me);
    int best[CHOICES], score[CHOICES], n = 0;
    for (int x = 0; x < c->b.cells; x++) {
        if (ttt_board_at(&c->b, x) != TTT_NOBODY)
            continue;
        /* no fours played unless they block one: the games keep their threes, where the VCTs are */
        int own = p->cls[me][x] >= TTT_CLASS_FOUR ? 0 : p->cls[me][x];
        int s = 2 * own + p->cls[opp][x] + (int)(next_random(rng) % 3);
        if (n == CHOICES && s <= score[CHOICES - 1])
            continue;
        int i = n < CHOICES ? n++ : CHOICES - 1;
        for (; i > 0 && score[i - 1] < s; i--) {
            best[i] = best[i - 1];
            score[i] = score[i - 1];
        }
        best[i] = x;
        score[i] = s;
    }
    return best[next_random(rng) % (uint64_t)n];
}

/* The defence set of the attacker (the side to move's opponent) in c: every empty cell is in it exactly when
 * the defender's stone there leaves the attacker no open-four cell by the window counts, or is a four of the
 * defender's own (a cell making a five-cell). */
static void check_defences(vct_check *c, ttt_player attacker)
{
    ttt_player d = (ttt_player)(1 - attacker);
    int out[TTT_MAX_CELLS], cells[TTT_MAX_CELLS], f[1];
    if (ttt_threats_fives(&c->t, d, f, 1) || ttt_threats_fives(&c->t, attacker, f, 1))
        return; /* defined only where neither side has a five-cell */
    int n = ttt_patterns_defences(&c->p, attacker, out);
    bool any = ttt_threats_defences(&c->t, attacker, cells) >= 0;
    assert_int_equal(n >= 0, any);
    if (n < 0)
        return;
    uint8_t in[TTT_MAX_CELLS] = {0};
    for (int i = 0; i < n; i++)
        in[out[i]] = 1;
    for (int x = 0; x < c->b.cells; x++) {
        if (ttt_board_at(&c->b, x) != TTT_NOBODY)
            continue;
        ttt_threats_play(&c->t, x, d);
        bool four = ttt_threats_fives(&c->t, d, f, 1) > 0;
        bool stops = ttt_threats_defences(&c->t, attacker, cells) < 0;
        ttt_threats_undo(&c->t, x, d);
        if (in[x] != (four || stops))
            fail_msg("cell %d: in the set %d, a four %d, stops the open four %d", x, in[x], four, stops);
    }
}

/* Every position of seeded games: the two VCFs agree, every VCT win holds; and some VCT wins needed threes. */
static void test_vct_wins_hold(void **state)
{
    (void)state;
    ttt_rules r = rules_of("15x15k5");
    int vcf_wins = 0, vct_wins = 0, checked = 0;
    for (int g = 0; g < GAMES; g++) {
        uint64_t rng = (uint64_t)g + 1;
        ttt_board b;
        ttt_board_init(&b, &r);
        ttt_board_play(&b, 7 * 15 + 7);
        vct_check *c = vct_check_new(&b);
        for (int ply = 1; ply < MAX_PLIES && ttt_board_outcome(&c->b) == TTT_ONGOING; ply++) {
            ttt_player me = ttt_board_to_move(&c->b);
            int line[TTT_MAX_CELLS], length, first, defences = 0;
            bool old = ttt_threats_vcf(&c->t, me, 0, line, &length) == TTT_THREATS_WIN;
            c->v.budget = 0;
            ttt_vct_result vcf = ttt_patterns_vct(&c->p, &c->v, me, 0, &first);
            assert_int_not_equal(vcf, TTT_VCT_UNKNOWN);
            if (old != (vcf == TTT_VCT_WIN))
                fail_msg("game %d ply %d: windows' VCF %d, patterns' %d", g, ply, old, vcf == TTT_VCT_WIN);
            vcf_wins += old;
            c->v.budget = SEARCH_BUDGET;
            ttt_vct_result vct = ttt_patterns_vct(&c->p, &c->v, me, THREES, &first);
            if (vct == TTT_VCT_WIN) {
                vct_wins += !old;
                checked++;
                if (!vct_check_wins(c, THREES, &defences)) {
                    char text[TTT_MAX_CELLS * 2];
                    fail_msg("game %d ply %d: VCT win does not hold: %s", g, ply,
                             ttt_position_format(&c->b, text, sizeof text));
                }
            }
            if (vct == TTT_VCT_WIN && !old && getenv("TTT_VCT_DUMP")) {
                char text[TTT_MAX_CELLS * 2];
                printf("%s defences %d\n", ttt_position_format(&c->b, text, sizeof text), defences);
            }
            check_defences(c, me);
            check_defences(c, (ttt_player)(1 - me));
            vct_check_play(c, pick_move(c, &rng));
        }
        vct_check_free(c);
    }
    print_message("VCF wins %d, VCT-only wins %d, %d checked\n", vcf_wins, vct_wins, checked);
    assert_true(vcf_wins > 0 && vct_wins > 0);
}

/* An open three and a split three: only the cells next to it (and in the gap) stop it. */
static void test_defence_sets(void **state)
{
    (void)state;
    ttt_rules r = rules_of("15x15k5");
    const char *cases[][2] = {{"h8 a1 i8 b1 j8 c15", "g8 k8"}, {"h8 a1 i8 b1 k8 c15", "g8 j8 l8"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ttt_board b = board_of(&r, cases[i][0]);
        vct_check *c = vct_check_new(&b);
        int out[TTT_MAX_CELLS], n = ttt_patterns_defences(&c->p, TTT_X, out);
        char got[256] = "", name[TTT_MOVE_TEXT_SIZE];
        for (int j = 0; j < n; j++) {
            ttt_move_format(&r, out[j], name, sizeof name);
            snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s", j ? " " : "", name);
        }
        if (strcmp(got, cases[i][1]) != 0)
            fail_msg("%s: defences %s, want %s", cases[i][0], got, cases[i][1]);
        check_defences(c, TTT_X);
        vct_check_free(c);
    }
}

/* Each of Rapfi's wins is found by the patterns' VCT and holds against every defence. */
static void test_rapfi_wins_hold(void **state)
{
    (void)state;
    ttt_rules r = rules_of("15x15k5");
    for (size_t i = 0; i < sizeof rapfi_wins / sizeof rapfi_wins[0]; i++) {
        ttt_board b = board_of(&r, rapfi_wins[i]);
        vct_check *c = vct_check_new(&b);
        int defences = 0;
        if (!vct_check_wins(c, THREES, &defences))
            fail_msg("position %zu: no VCT win that holds", i);
        vct_check_free(c);
    }
}

/* The engine plays a move that keeps the win in each of them. */
static void test_engine_keeps_rapfi_wins(void **state)
{
    (void)state;
    ttt_rules r = rules_of("15x15k5");
    const char *spec = getenv("TTT_VCT_SPEC") ? getenv("TTT_VCT_SPEC") : ENGINE_SPEC;
    for (size_t i = 0; i < sizeof rapfi_wins / sizeof rapfi_wins[0]; i++) {
        ttt_board b = board_of(&r, rapfi_wins[i]);
        ttt_engine *e = engine_ok(spec, &r);
        ttt_move m;
        ttt_error err;
        assert_int_equal(ttt_engine_choose(e, &b, &m, NULL, &err), TTT_OK);
        ttt_engine_free(e);
        vct_check *c = vct_check_new(&b);
        int defences = 0;
        vct_check_play(c, m);
        bool kept = vct_check_holds(c, THREES, &defences);
        vct_check_free(c);
        if (!kept)
            fail_msg("position %zu (%s): the move %d gives the win away", i, spec, m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defence_sets),
        cmocka_unit_test(test_vct_wins_hold),
        cmocka_unit_test(test_rapfi_wins_hold),
        cmocka_unit_test(test_engine_keeps_rapfi_wins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
