/*
 * test_playout.c - random playouts follow the rules and are uniformly random.
 *
 * Every playout's move list is replayed on ttt_board (the reference implementation of the rules): each move
 * must be legal, and the board must end with the same outcome and the same stones. The distribution is
 * compared with exact probabilities of uniformly random play computed here by brute force.
 */
#include <setjmp.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "search/playout_lines.h"
#include "ttt/ttt.h"

static ttt_rules rules_of(const char *text)
{
    ttt_rules r;
    ttt_error err;
    assert_int_equal(ttt_rules_parse(text, &r, &err), TTT_OK);
    return r;
}

static ttt_playout *playout_ok(const ttt_rules *r)
{
    ttt_playout *p;
    ttt_error err;
    assert_int_equal(ttt_playout_new(r, &p, &err), TTT_OK);
    assert_non_null(p);
    return p;
}

/* A position after `stones` random moves, or earlier if the game ends (finished positions are allowed). */
static ttt_board random_position(const ttt_rules *r, int stones, ttt_rng *rng)
{
    ttt_board b;
    ttt_board_init(&b, r);
    ttt_move moves[TTT_MAX_CELLS];
    for (int n; b.ply < stones && (n = ttt_board_moves(&b, moves)) > 0;)
        ttt_board_play(&b, moves[ttt_rng_below(rng, (uint32_t)n)]);
    return b;
}

/* Runs `games` playouts from random start positions and replays each on ttt_board. */
static void check_against_board(const char *rules_text, int games, uint64_t seed)
{
    ttt_rules r = rules_of(rules_text);
    ttt_playout *p = playout_ok(&r);
    ttt_rng rng, pick;
    ttt_rng_seed(&rng, seed);
    ttt_rng_seed(&pick, seed + 1);
    int cells = ttt_rules_cells(&r), lines = 0;
    for (int g = 0; g < games; g++) {
        /* Every tenth game from the empty board, the others from a random depth. */
        ttt_board start = random_position(&r, g % 10 ? (int)ttt_rng_below(&pick, (uint32_t)cells) : 0, &pick);
        ttt_playout_set_position(p, &start);
        ttt_bits final[2];
        ttt_outcome out = ttt_playout_run(p, &rng, final);
        ttt_move moves[TTT_MAX_CELLS];
        int n = ttt_playout_last_moves(p, moves);
        ttt_board b = start;
        for (int i = 0; i < n; i++) {
            assert_true(ttt_board_is_legal(&b, moves[i]));
            ttt_board_play(&b, moves[i]);
        }
        assert_true(ttt_board_terminal(&b));
        assert_int_equal(out, ttt_board_outcome(&b));
        assert_true(ttt_bits_equal(&final[TTT_X], &b.stones[TTT_X]));
        assert_true(ttt_bits_equal(&final[TTT_O], &b.stones[TTT_O]));
        lines += b.line_owner != TTT_NOBODY;
    }
    /* The replays saw games ending both ways (draws are rare on the biggest boards: not required). */
    assert_true(lines > 0);
    ttt_playout_free(p);
}

static void test_same_games_as_board_tiny(void **state)
{
    (void)state;
    check_against_board("3x3", 20000, 1);
    check_against_board("3x3-misere", 20000, 2);
    check_against_board("4x4", 20000, 3);
    check_against_board("4x4k3-misere", 20000, 4);
    check_against_board("3x5k3", 10000, 5);
}

static void test_same_games_as_board_small(void **state)
{
    (void)state;
    check_against_board("5x5k4", 10000, 6);
    check_against_board("7x6k4", 10000, 7);
    check_against_board("7x6k4-misere", 10000, 8);
    check_against_board("8x8k5", 5000, 9);
    check_against_board("4x16k4", 5000, 10);
}

static void test_same_games_as_board_big(void **state)
{
    (void)state;
    check_against_board("9x9k5", 2000, 11);
    check_against_board("15x15k5", 1000, 12);
    check_against_board("15x15k5-misere", 1000, 13);
    check_against_board("16x16k3", 1000, 14);
    check_against_board("16x16k8-misere", 500, 15);
}

/* --- The distribution ----------------------------------------------------------------------------------- */

typedef struct odds {
    double x, o, draw;
} odds;

/* Exact probabilities of each outcome when both sides play uniformly random moves from b. */
static odds exact_odds(ttt_board *b)
{
    switch (ttt_board_outcome(b)) {
    case TTT_X_WINS: return (odds){1, 0, 0};
    case TTT_O_WINS: return (odds){0, 1, 0};
    case TTT_DRAW: return (odds){0, 0, 1};
    case TTT_ONGOING: break;
    }
    ttt_move moves[TTT_MAX_CELLS];
    int n = ttt_board_moves(b, moves);
    odds sum = {0, 0, 0};
    for (int i = 0; i < n; i++) {
        ttt_board_play(b, moves[i]);
        odds o = exact_odds(b);
        ttt_board_undo(b, moves[i]);
        sum.x += o.x / n;
        sum.o += o.o / n;
        sum.draw += o.draw / n;
    }
    return sum;
}

/* Within 5 standard deviations of a binomial proportion p over n trials. */
static void assert_near(double seen, double p, int n)
{
    double tolerance = 5 * sqrt(p * (1 - p) / n) + 1e-9;
    if (fabs(seen - p) > tolerance) {
        print_error("frequency %.5f, expected %.5f +- %.5f\n", seen, p, tolerance);
        fail();
    }
}

static void check_odds_at(ttt_board b, int games, uint64_t seed);

static void check_odds(const char *rules_text, const char *moves_text, int games, uint64_t seed)
{
    ttt_rules r = rules_of(rules_text);
    ttt_move seq[TTT_MAX_CELLS];
    int n;
    ttt_board b;
    ttt_error err;
    assert_int_equal(ttt_moves_parse(moves_text, &r, seq, TTT_MAX_CELLS, &n, &err), TTT_OK);
    assert_int_equal(ttt_moves_replay(&r, seq, n, &b, &err), TTT_OK);
    check_odds_at(b, games, seed);
}

/* Compares the outcome frequencies and the first moves of `games` playouts from b with the exact odds. */
static void check_odds_at(ttt_board b, int games, uint64_t seed)
{
    ttt_rules r = b.rules;
    odds want = exact_odds(&b);
    ttt_playout *p = playout_ok(&r);
    ttt_playout_set_position(p, &b);
    ttt_rng rng;
    ttt_rng_seed(&rng, seed);
    int count[4] = {0, 0, 0, 0};
    int first[TTT_MAX_CELLS] = {0};
    for (int g = 0; g < games; g++) {
        count[ttt_playout_run(p, &rng, NULL)]++;
        ttt_move moves[TTT_MAX_CELLS];
        assert_true(ttt_playout_last_moves(p, moves) >= 1);
        first[moves[0]]++;
    }
    assert_int_equal(count[TTT_ONGOING], 0);
    assert_near((double)count[TTT_X_WINS] / games, want.x, games);
    assert_near((double)count[TTT_O_WINS] / games, want.o, games);
    assert_near((double)count[TTT_DRAW] / games, want.draw, games);
    /* The first move is uniform over the empty cells. */
    int empty = b.cells - b.ply;
    for (int c = 0; c < b.cells; c++)
        if (ttt_board_at(&b, c) == TTT_NOBODY)
            assert_near((double)first[c] / games, 1.0 / empty, games);
        else
            assert_int_equal(first[c], 0);
    ttt_playout_free(p);
}

static void test_odds_of_random_play(void **state)
{
    (void)state;
    /* From the empty 3x3 board X wins 58.5%, O 28.8%, draws 12.7% of uniformly random games. */
    check_odds("3x3", "", 200000, 21);
    check_odds("3x3-misere", "", 200000, 22);
    check_odds("3x3", "b2 a1", 100000, 23);
    check_odds("4x4k3-misere", "a1 d4 b2 c3 a4 b4", 100000, 24);
    check_odds("5x5k4", "c3 b2 c2 c4 b3 d3 a1 d2 e5 e1 a5 b1 a3 a2 d1 b5", 100000, 25);
    /* The four-word kernel: a nearly full 16x16 board (k=8), seven cells left. */
    ttt_rules big = rules_of("16x16k8");
    ttt_rng pick;
    ttt_rng_seed(&pick, 26);
    ttt_board b;
    do
        b = random_position(&big, 249, &pick);
    while (ttt_board_terminal(&b));
    check_odds_at(b, 100000, 27);
}

/* --- Finished positions, determinism, errors ------------------------------------------------------------ */

static void test_finished_start(void **state)
{
    (void)state;
    ttt_rules r = rules_of("3x3-misere");
    ttt_board b;
    ttt_error err;
    assert_int_equal(ttt_position_parse("xxx/oo./...", &r, &b, &err), TTT_OK);
    ttt_playout *p = playout_ok(&r);
    ttt_playout_set_position(p, &b);
    ttt_rng rng;
    ttt_rng_seed(&rng, 1);
    ttt_bits final[2];
    assert_int_equal(ttt_playout_run(p, &rng, final), TTT_O_WINS);
    assert_true(ttt_bits_equal(&final[TTT_X], &b.stones[TTT_X]));
    ttt_move moves[TTT_MAX_CELLS];
    assert_int_equal(ttt_playout_last_moves(p, moves), 0);
    ttt_playout_free(p);
}

/* The same seed gives the same games, whether the context made its geometry or shares one. */
static void test_same_seed_same_games(void **state)
{
    (void)state;
    const char *rules[] = {"3x3", "7x7k5", "15x15k5"};
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        ttt_rules r = rules_of(rules[i]);
        /* b over a geometry made here and given back at once: b keeps its own reference */
        const ttt_lines *lines;
        ttt_playout *a = playout_ok(&r), *b;
        assert_int_equal(ttt_lines_new(&r, &lines, NULL), TTT_OK);
        assert_int_equal(ttt_playout_new_over(lines, &b, NULL), TTT_OK);
        ttt_lines_unref(lines);
        ttt_rng ra, rb;
        ttt_rng_seed(&ra, 77);
        ttt_rng_seed(&rb, 77);
        for (int g = 0; g < 1000; g++) {
            assert_int_equal(ttt_playout_run(a, &ra, NULL), ttt_playout_run(b, &rb, NULL));
            ttt_move ma[TTT_MAX_CELLS], mb[TTT_MAX_CELLS];
            int n = ttt_playout_last_moves(a, ma);
            assert_int_equal(n, ttt_playout_last_moves(b, mb));
            assert_memory_equal(ma, mb, (size_t)n * sizeof ma[0]);
        }
        ttt_playout_free(a);
        ttt_playout_free(b);
    }
}

static void test_bad_rules(void **state)
{
    (void)state;
    ttt_rules r = {.rows = 3, .cols = 3, .k = 4, .misere = false};
    ttt_playout *p = (ttt_playout *)(void *)&r;
    ttt_error err;
    assert_int_equal(ttt_playout_new(&r, &p, &err), TTT_EINVAL);
    assert_null(p);
    assert_true(strlen(err.msg) > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_games_as_board_tiny),
        cmocka_unit_test(test_same_games_as_board_small),
        cmocka_unit_test(test_same_games_as_board_big),
        cmocka_unit_test(test_odds_of_random_play),
        cmocka_unit_test(test_finished_start),
        cmocka_unit_test(test_same_seed_same_games),
        cmocka_unit_test(test_bad_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
