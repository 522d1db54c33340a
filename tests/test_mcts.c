/*
 * test_mcts.c - the mcts engine: wins in one and forced blocks on every board size (with any budget, since
 * the root's expansion checks them), threats on 15x15 k=5 at the default budget, misère, proven values that
 * agree with the solver, reproducibility, the tree carried over between moves, analysis, bad options.
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

#define SEEDS     20
#define SEEDS_BIG 20

static void move_name(const ttt_engine *e, const ttt_board *b, ttt_move m, char *name)
{
    (void)e;
    ttt_move_format(&b->rules, m, name, TTT_MOVE_TEXT_SIZE);
}

typedef struct fixture {
    const char *rules;
    const char *position;
    const char *want; /* the good moves, space-separated */
} fixture;

static const fixture obvious[] = {
    {"3x3", "xx./oo./...", "c1"},                        /* X wins */
    {"3x3", "xx./.o./...", "c1"},                        /* O blocks */
    {"3x3", "x.o/.x./...", "c3"},                        /* O blocks the diagonal */
    {"4x4", "xxx./oo../..../....", "d1"},                /* O blocks */
    {"4x4", "x..o/.x../..x./oo..", "d4"},                /* X wins on the diagonal */
    {"5x5k4", "o..../...../oxxx./...../.....", "e3"},    /* O blocks the row */
    {"5x5k4", "o..../...x./..x../.x.../o...o", "e1"},    /* X wins on the anti-diagonal */
    {"7x7k5", "d4 a1 d5 a2 d6 g7 d3", "d2 d7"},          /* O blocks X's four (d3-d6) at either end */
    {"15x15k5", "h8 g8 i8 a1 j8 a15 k8", "l8"},          /* O blocks a four whose other end is taken */
    {"15x15k5", "h8 h7 i8 g7 j8 f7 a1 e7 a15", "d7 i7"}, /* O wins with its four (X's three waits) */
    {"15x15k5", "h8 h7 i8 g7 j8 f7 k8 a1", "g8 l8"},     /* X wins at either end of its four */
};

/* Wins in one and single blocks are found by the root's expansion, so even one iteration finds them. */
static void check_fixture(const fixture *f, const char *options, int seeds)
{
    ttt_rules r = rules_of(f->rules);
    ttt_board b = board_of(&r, f->position);
    for (int seed = 0; seed < seeds; seed++) {
        char spec[96], name[TTT_MOVE_TEXT_SIZE];
        snprintf(spec, sizeof spec, "mcts:seed=%d%s", seed, options);
        ttt_engine *e = engine_ok(spec, &r);
        ttt_move m;
        ttt_error err;
        assert_int_equal(ttt_engine_choose(e, &b, &m, NULL, &err), TTT_OK);
        move_name(e, &b, m, name);
        char padded[TTT_MOVE_TEXT_SIZE + 2], want[64];
        snprintf(padded, sizeof padded, " %s ", name);
        snprintf(want, sizeof want, " %s ", f->want);
        if (!strstr(want, padded)) {
            print_error("%s %s, %s: played %s, expected one of %s\n", f->rules, f->position, spec, name,
                        f->want);
            fail();
        }
        ttt_engine_free(e);
    }
}

static void test_obvious_moves(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof obvious / sizeof obvious[0]; i++) {
        check_fixture(&obvious[i], ",iterations=1", SEEDS);
        check_fixture(&obvious[i], "", strstr(obvious[i].rules, "15x15") ? SEEDS_BIG : SEEDS);
        if (!strstr(obvious[i].rules, "15x15")) /* plain UCT with uniform playouts keeps the guarantees */
            check_fixture(&obvious[i], ",rave=0,threats=0", SEEDS);
    }
}

/* 15x15 k=5 at the default budget: an open three (X h8 i8 j8, f8..l8 empty) must be stopped at an end next
 * to it (g8 or k8: after f8 or l8, X makes an open four); against an open four (X h8-k8, g8 and l8 empty)
 * every move loses and the engine still blocks one end. */
static void test_big_board_threats(void **state)
{
    (void)state;
    static const fixture threats[] = {
        {"15x15k5", "h8 a1 i8 a15 j8", "g8 k8"},
        {"15x15k5", "h8 a1 i8 a15 j8 o1 k8", "g8 l8"},
    };
    check_fixture(&threats[0], "", SEEDS_BIG);
    check_fixture(&threats[1], "", SEEDS_BIG);
}

/* Line-pattern priors order the children, so a small budget is enough for the moves the patterns rank first:
 * blocking an open three at an end next to it (see test_big_board_threats), and making an open four from
 * one's own open three (g8 or k8: every reply then loses to the other end). With prior=0,widen=0 and 50
 * iterations the first block is missed for most seeds. */
static void test_priors_at_small_budget(void **state)
{
    (void)state;
    static const fixture cases[] = {
        {"15x15k5", "h8 a1 i8 a15 j8", "g8 k8"},
        {"15x15k5", "h8 a1 i8 a15 j8 o1", "g8 k8"},
        {"9x9k5", "e5 a1 e4 a9 e6", "e3 e7"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_fixture(&cases[i], ",iterations=50", SEEDS_BIG);
}

/* Misère: completing a line loses, so the engine never does it while it has another move. */
static void test_misere_never_completes_a_line(void **state)
{
    (void)state;
    const char *rules[] = {"3x3-misere", "4x4k3-misere", "5x5k4-misere"};
    for (int ri = 0; ri < 3; ri++) {
        ttt_rules r = rules_of(rules[ri]);
        ttt_rng rng;
        ttt_rng_seed(&rng, 99);
        for (int game = 0; game < 10; game++) {
            char spec[64];
            snprintf(spec, sizeof spec, "mcts:iterations=500,seed=%d", game);
            ttt_engine *e = engine_ok(spec, &r);
            ttt_board b;
            ttt_board_init(&b, &r);
            while (!ttt_board_terminal(&b)) {
                ttt_move moves[TTT_MAX_CELLS], m;
                int n = ttt_board_moves(&b, moves), safe = 0;
                ttt_player me = ttt_board_to_move(&b);
                for (int i = 0; i < n; i++)
                    safe += !ttt_board_makes_line(&b, me, moves[i]);
                ttt_error err;
                if (b.ply % 2 == 0) {
                    assert_int_equal(ttt_engine_choose(e, &b, &m, NULL, &err), TTT_OK);
                    if (safe > 0 && ttt_board_makes_line(&b, me, m)) {
                        print_error("%s game %d: completed its own line at ply %d\n", rules[ri], game, b.ply);
                        fail();
                    }
                } else
                    m = moves[ttt_rng_below(&rng, (uint32_t)n)];
                ttt_board_play(&b, m);
            }
            ttt_engine_free(e);
        }
    }
}

/* Every exact value the analysis reports agrees with the solver, on random positions of small boards. */
static void test_proofs_agree_with_solver(void **state)
{
    (void)state;
    /* 5x5k4: k >= 4, so the threat tactics' proofs (open fours, defences, VCF and VCT) are checked too */
    const char *rules[] = {"3x3", "3x3-misere", "4x4k3", "4x4k3-misere", "5x5k4"};
    int checked = 0;
    for (int ri = 0; ri < 5; ri++) {
        ttt_rules r = rules_of(rules[ri]);
        ttt_solver *solver;
        ttt_error err;
        assert_int_equal(ttt_solver_new(&r, 8, &solver, &err), TTT_OK);
        ttt_rng rng;
        ttt_rng_seed(&rng, 5 + (uint64_t)ri);
        for (int pos = 0; pos < 12; pos++) {
            ttt_board b;
            ttt_board_init(&b, &r);
            int plies = (int)ttt_rng_below(&rng, (uint32_t)(b.cells - 2));
            for (int i = 0; i < plies; i++) {
                ttt_move moves[TTT_MAX_CELLS];
                int n = ttt_board_moves(&b, moves);
                ttt_board next = b;
                ttt_board_play(&next, moves[ttt_rng_below(&rng, (uint32_t)n)]);
                if (ttt_board_terminal(&next))
                    break;
                b = next;
            }
            ttt_engine *e = engine_ok("mcts:iterations=20000,seed=3", &r);
            ttt_analysis *a = malloc(sizeof *a);
            assert_non_null(a);
            assert_int_equal(ttt_engine_analyse(e, &b, a, &err), TTT_OK);
            for (int i = 0; i < a->count; i++) {
                if (a->moves[i].kind != TTT_EVAL_EXACT)
                    continue;
                ttt_board child = b;
                ttt_board_play(&child, a->moves[i].move);
                int want;
                if (ttt_board_terminal(&child)) {
                    ttt_player w = ttt_board_winner(&child);
                    want = w == TTT_NOBODY ? 0 : w == ttt_board_to_move(&b) ? 1 : -1;
                } else {
                    ttt_result v;
                    assert_int_equal(ttt_solver_value(solver, &child, &v, NULL, NULL, &err), TTT_OK);
                    want = -(int)v;
                }
                if (want != a->moves[i].result) {
                    print_error("%s ply %d move %d: mcts says %d, solver %d\n", rules[ri], b.ply,
                                a->moves[i].move, a->moves[i].result, want);
                    fail();
                }
                checked++;
            }
            free(a);
            ttt_engine_free(e);
        }
        ttt_solver_free(solver);
    }
    assert_true(checked > 100);
}

/* Threat tactics (k >= 4): from positions where the side to move has a victory by continuous fours of L
 * moves (both sides'), mcts with a single iteration wins within L moves against a defender that blocks every
 * line it could complete (and completes its own when it can): the root's VCF finds the win, and the
 * positions after the blocks keep one. The positions come from random games on the middle of the board;
 * with tactics=0 most are not won in time. */
#define TACTICS_GAMES      400
#define TACTICS_MIDDLE     6
#define TACTICS_MIN_PLIES  10
#define TACTICS_MAX_PLIES  30
#define TACTICS_VCF_NODES  20000
#define TACTICS_TIMED_SPEC "mcts:iterations=1,time=3600000,seed=1"

/* A random position of r after `plies` moves on the middle TACTICS_MIDDLE x TACTICS_MIDDLE cells, or false
 * when the game ended on the way. */
static bool middle_position(const ttt_rules *r, ttt_rng *rng, int plies, ttt_board *out)
{
    ttt_board_init(out, r);
    int top = (r->rows - TACTICS_MIDDLE) / 2, left = (r->cols - TACTICS_MIDDLE) / 2;
    while (out->ply < plies) {
        int cell = (top + (int)ttt_rng_below(rng, TACTICS_MIDDLE)) * r->cols + left +
                   (int)ttt_rng_below(rng, TACTICS_MIDDLE);
        if (!ttt_board_is_legal(out, cell))
            continue;
        ttt_board_play(out, cell);
        if (ttt_board_terminal(out))
            return false;
    }
    return true;
}

/* The cells where `who` would complete a line of b, in out; returns how many. */
static int tactics_of(const ttt_board *b, int who, ttt_move *out)
{
    ttt_move moves[TTT_MAX_CELLS];
    int n = ttt_board_moves(b, moves), found = 0;
    for (int i = 0; i < n; i++)
        if (ttt_board_makes_line(b, (ttt_player)who, moves[i]))
            out[found++] = moves[i];
    return found;
}

static ttt_move first_legal(const ttt_board *b)
{
    ttt_move moves[TTT_MAX_CELLS];
    ttt_board_moves(b, moves);
    return moves[0];
}

static void test_vcf_positions_won(void **state)
{
    (void)state;
    const char *rules[] = {"9x9k5", "15x15k5"};
    int tried = 0;
    for (int ri = 0; ri < 2; ri++) {
        ttt_rules r = rules_of(rules[ri]);
        const ttt_lines *lines;
        assert_int_equal(ttt_lines_new(&r, &lines, NULL), TTT_OK);
        ttt_threats *t = malloc(sizeof *t);
        assert_non_null(t);
        ttt_threats_init(t, lines);
        ttt_lines_unref(lines);
        ttt_rng rng;
        ttt_rng_seed(&rng, 31 + (uint64_t)ri);
        for (int game = 0; game < TACTICS_GAMES; game++) {
            ttt_board b;
            int plies = TACTICS_MIN_PLIES + (int)ttt_rng_below(&rng, TACTICS_MAX_PLIES - TACTICS_MIN_PLIES);
            if (!middle_position(&r, &rng, plies, &b))
                continue;
            ttt_player me = ttt_board_to_move(&b);
            int line[TTT_MAX_CELLS], length, f[1];
            ttt_threats_set(t, &b);
            if (ttt_threats_fives(t, me, f, 1) || ttt_threats_fives(t, (ttt_player)(1 - me), f, 1) ||
                ttt_threats_vcf(t, me, TACTICS_VCF_NODES, line, &length) != TTT_THREATS_WIN)
                continue;
            tried++;
            /* every other game with a time budget, which sizes the searches by the time they take: one
             * this long leaves them their node counts */
            ttt_engine *e = engine_ok(game % 2 ? "mcts:iterations=1,seed=1" : TACTICS_TIMED_SPEC, &r);
            int end = b.ply + length;
            while (!ttt_board_terminal(&b) && b.ply < end) {
                ttt_move m, block[TTT_MAX_CELLS];
                ttt_error err;
                if (ttt_board_to_move(&b) == me)
                    assert_int_equal(ttt_engine_choose(e, &b, &m, NULL, &err), TTT_OK);
                else if (tactics_of(&b, 1 - me, block) || tactics_of(&b, me, block))
                    m = block[0];
                else
                    m = first_legal(&b);
                ttt_board_play(&b, m);
            }
            if (ttt_board_winner(&b) != me) {
                print_error("%s game %d: a VCF of %d moves not played\n", rules[ri], game, length);
                fail();
            }
            ttt_engine_free(e);
        }
        ttt_threats_done(t);
        free(t);
    }
    assert_true(tried >= 20);
}

/* The same spec and requests give the same moves and node counts. */
static void test_reproducible(void **state)
{
    (void)state;
    ttt_rules r = rules_of("7x7k5");
    ttt_board b = board_of(&r, "d4 c3");
    ttt_move m[2];
    ttt_search_info info[2];
    for (int i = 0; i < 2; i++) {
        ttt_engine *e = engine_ok("mcts:iterations=3000,seed=9", &r);
        ttt_error err;
        assert_int_equal(ttt_engine_choose(e, &b, &m[i], &info[i], &err), TTT_OK);
        ttt_engine_free(e);
    }
    assert_int_equal(m[0], m[1]);
    assert_int_equal(info[0].nodes, info[1].nodes);
    assert_int_equal(info[0].nodes, 3000);
}

/* The tree is carried over: once the engine has proven a 3x3 position (here a draw, all of whose children
 * are proven), the position after its move and any reply is proven already and costs no iteration. A new
 * game, or a position that does not follow, starts afresh. */
static void test_tree_reuse(void **state)
{
    (void)state;
    ttt_rules r = rules_of("3x3");
    ttt_board b = board_of(&r, "b2 a1");
    ttt_engine *e = engine_ok("mcts:iterations=1000000,seed=1", &r);
    ttt_move m;
    ttt_search_info info;
    ttt_error err;
    assert_int_equal(ttt_engine_choose(e, &b, &m, &info, &err), TTT_OK);
    assert_true(info.nodes > 0 && info.nodes < 1000000); /* stopped when the root was proven */
    ttt_board start = b; /* proven in the tree, not by its own children: only a new tree costs iterations */
    ttt_board_play(&b, m);
    ttt_move replies[TTT_MAX_CELLS];
    ttt_board_moves(&b, replies);
    ttt_board_play(&b, replies[0]);
    assert_int_equal(ttt_engine_choose(e, &b, &m, &info, &err), TTT_OK);
    assert_int_equal(info.nodes, 0);
    ttt_engine_new_game(e);
    assert_int_equal(ttt_engine_choose(e, &start, &m, &info, &err), TTT_OK);
    assert_true(info.nodes > 0);
    ttt_board other = board_of(&r, "a1 b2");
    assert_int_equal(ttt_engine_choose(e, &other, &m, &info, &err), TTT_OK);
    assert_true(info.nodes > 0);
    ttt_engine_free(e);
}

/* A tiny tree cap: the pool fills up and the engine still plays legal moves to the end of a 15x15 game. */
static void test_small_tree_cap(void **state)
{
    (void)state;
    ttt_rules r = rules_of("9x9k5");
    ttt_engine *e = engine_ok("mcts:iterations=300,tree=800", &r);
    ttt_board b;
    ttt_board_init(&b, &r);
    while (!ttt_board_terminal(&b)) {
        ttt_move m;
        ttt_error err;
        assert_int_equal(ttt_engine_choose(e, &b, &m, NULL, &err), TTT_OK);
        assert_true(ttt_board_is_legal(&b, m));
        ttt_board_play(&b, m);
    }
    ttt_engine_free(e);
}

/* The analysis lists every legal move once, best first, with valid kinds, scores and shares. */
static void test_analysis(void **state)
{
    (void)state;
    const char *cases[][2] = {{"3x3", "b2"}, {"5x5k4", "c3 b2"}, {"15x15k5", "h8 g7 i9"}};
    for (int c = 0; c < 3; c++) {
        ttt_rules r = rules_of(cases[c][0]);
        ttt_board b = board_of(&r, cases[c][1]);
        ttt_engine *e = engine_ok("mcts:iterations=2000", &r);
        ttt_analysis *a = malloc(sizeof *a);
        assert_non_null(a);
        ttt_error err;
        assert_true(ttt_engine_can_analyse(e));
        assert_int_equal(ttt_engine_analyse(e, &b, a, &err), TTT_OK);
        assert_int_equal(a->count, b.cells - b.ply);
        assert_string_equal(a->method, "mcts visits");
        assert_int_equal(a->info.nodes, 2000);
        bool seen[TTT_MAX_CELLS] = {false};
        double shares = 0;
        for (int i = 0; i < a->count; i++) {
            const ttt_move_eval *m = &a->moves[i];
            assert_true(ttt_board_is_legal(&b, m->move));
            assert_false(seen[m->move]);
            seen[m->move] = true;
            assert_true(m->score >= -1 && m->score <= 1 && m->share >= 0 && m->share <= 1);
            if (m->kind == TTT_EVAL_EXACT)
                assert_true(m->plies >= 1 && (m->result == -1 || m->result == 0 || m->result == 1));
            shares += m->share;
        }
        assert_true(shares > 0.999 && shares < 1.001);
        free(a);
        ttt_engine_free(e);
    }
}

static void test_bad_options(void **state)
{
    (void)state;
    ttt_rules r = rules_of("3x3");
    ttt_engine *e;
    ttt_error err;
    assert_int_equal(ttt_engine_new("mcts:iterations=-1", &r, &e, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "iterations=-1"));
    assert_int_equal(ttt_engine_new("mcts:c=-1", &r, &e, &err), TTT_EINVAL);
    assert_int_equal(ttt_engine_new("mcts:tree=5", &r, &e, &err), TTT_EINVAL);
    assert_int_equal(ttt_engine_new("mcts:rave=-1", &r, &e, &err), TTT_EINVAL);
    assert_int_equal(ttt_engine_new("mcts:threats=2", &r, &e, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "threats=2"));
    assert_int_equal(ttt_engine_new("mcts:prior=-1", &r, &e, &err), TTT_EINVAL);
    assert_int_equal(ttt_engine_new("mcts:widen=-0.5", &r, &e, &err), TTT_EINVAL);
    assert_int_equal(ttt_engine_new("mcts:tactics=2", &r, &e, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "tactics=2"));
    assert_int_equal(ttt_engine_new("mcts:vcf=-1", &r, &e, &err), TTT_EINVAL);
    assert_int_equal(ttt_engine_new("mcts:vct=x", &r, &e, &err), TTT_EINVAL);
    assert_int_equal(ttt_engine_new("mcts:draw=1.5", &r, &e, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "draw=1.5"));
    assert_int_equal(ttt_engine_new("mcts:depth=5", &r, &e, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "unknown option 'depth'"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_obvious_moves),
        cmocka_unit_test(test_big_board_threats),
        cmocka_unit_test(test_priors_at_small_budget),
        cmocka_unit_test(test_misere_never_completes_a_line),
        cmocka_unit_test(test_proofs_agree_with_solver),
        cmocka_unit_test(test_vcf_positions_won),
        cmocka_unit_test(test_reproducible),
        cmocka_unit_test(test_tree_reuse),
        cmocka_unit_test(test_small_tree_cap),
        cmocka_unit_test(test_analysis),
        cmocka_unit_test(test_bad_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
