/*
 * test_arena.c - tournaments: the Elo statistics on records worked out by hand, the pairing schedule, the
 * seeds of games, and the same results at any number of threads.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ttt/ttt.h"
#include "support.h"

#define EPS 1e-6

static ttt_arena_stats stats_of(uint64_t w, uint64_t l, uint64_t d)
{
    ttt_arena_record r = {w, l, d};
    ttt_arena_stats s;
    ttt_arena_stats_of(&r, &s);
    return s;
}

/* 60 wins, 20 losses, 20 draws:
 *   score s = (60 + 10) / 100 = 0.7; Elo = -400 log10(1/0.7 - 1) = 400 log10(7/3) = 147.1907
 *   variance per game = (60 (0.3)^2 + 20 (0.7)^2 + 20 (0.2)^2) / 100 = (5.4 + 9.8 + 0.8) / 100 = 0.16
 *   margin = 1.959964 sqrt(0.16 / 100) = 1.959964 x 0.04 = 0.0783986
 *   interval: Elo(0.6216014) = 86.2250, Elo(0.7783986) = 218.2518
 *   LOS = 0.5 (1 + erf(40 / sqrt(160))) = 0.5 (1 + erf(3.16228)) = 0.9999961; draw ratio 0.2 */
static void test_stats_known_record(void **state)
{
    (void)state;
    ttt_arena_stats s = stats_of(60, 20, 20);
    assert_int_equal(s.games, 100);
    assert_true(fabs(s.score - 0.7) < EPS);
    assert_true(fabs(s.elo - 147.190714) < 1e-5);
    assert_true(fabs(s.elo_low - 86.225015) < 1e-5);
    assert_true(fabs(s.elo_high - 218.251778) < 1e-5);
    assert_true(fabs(s.los - 0.9999961279) < 1e-9);
    assert_true(fabs(s.draw_ratio - 0.2) < EPS);
}

/* The mirror image: 20 wins, 60 losses, 20 draws gives the opposite Elo and interval, LOS 1 - 0.9999961. And
 * 1 win, 0 losses, 9 draws: s = 0.55, Elo = 400 log10(11/9) = 34.8601; LOS = 0.5 (1 + erf(1/sqrt 2)) =
 * 0.8413447 (one standard deviation). */
static void test_stats_symmetric_and_small(void **state)
{
    (void)state;
    ttt_arena_stats s = stats_of(20, 60, 20);
    assert_true(fabs(s.elo + 147.190714) < 1e-5);
    assert_true(fabs(s.elo_low + 218.251778) < 1e-5);
    assert_true(fabs(s.elo_high + 86.225015) < 1e-5);
    assert_true(fabs(s.los - (1 - 0.9999961279)) < 1e-9);
    s = stats_of(1, 0, 9);
    assert_true(fabs(s.elo - 34.860070) < 1e-5);
    assert_true(fabs(s.los - 0.8413447461) < 1e-9);
    assert_true(fabs(s.draw_ratio - 0.9) < EPS);
}

/* Degenerate records: never NaN. All draws: Elo 0 with a zero-width interval, LOS 0.5. All wins: +infinity
 * (the interval too, the variance being 0), LOS near 1; all losses the opposite. */
static void test_stats_degenerate(void **state)
{
    (void)state;
    ttt_arena_stats s = stats_of(0, 0, 10);
    assert_true(s.elo == 0 && s.elo_low == 0 && s.elo_high == 0);
    assert_true(fabs(s.los - 0.5) < EPS);
    assert_true(fabs(s.draw_ratio - 1.0) < EPS);
    s = stats_of(10, 0, 0);
    assert_true(isinf(s.elo) && s.elo > 0 && isinf(s.elo_low) && s.elo_low > 0);
    assert_true(s.los > 0.999 && !isnan(s.los)); /* 0.5 (1 + erf(10 / sqrt 20)) = 0.99923 */
    s = stats_of(0, 10, 0);
    assert_true(isinf(s.elo) && s.elo < 0 && isinf(s.elo_high) && s.elo_high < 0);
    assert_true(s.los < 0.001);
    /* A lopsided record whose interval reaches past a score of 1: the upper bound is infinite, not NaN. */
    s = stats_of(9, 0, 1);
    assert_true(isfinite(s.elo) && isinf(s.elo_high) && isfinite(s.elo_low));
}

static void test_schedule(void **state)
{
    (void)state;
    assert_int_equal(ttt_arena_pair_count(2, false), 1);
    assert_int_equal(ttt_arena_pair_count(4, false), 6);
    assert_int_equal(ttt_arena_pair_count(4, true), 3);
    static const int want[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    for (int p = 0; p < 6; p++) {
        int a, b;
        ttt_arena_pair_at(4, false, p, &a, &b);
        assert_int_equal(a, want[p][0]);
        assert_int_equal(b, want[p][1]);
    }
    for (int p = 0; p < 3; p++) {
        int a, b;
        ttt_arena_pair_at(4, true, p, &a, &b);
        assert_int_equal(a, 0);
        assert_int_equal(b, p + 1);
    }
}

/* Games 2i and 2i+1 of a pair share a seed (the same game with colours swapped); other games and other pairs
 * and tournament seeds differ. */
static void test_game_seeds(void **state)
{
    (void)state;
    for (uint64_t i = 0; i < 50; i++) {
        assert_true(ttt_arena_game_seed(7, 3, 2 * i) == ttt_arena_game_seed(7, 3, 2 * i + 1));
        assert_true(ttt_arena_game_seed(7, 3, 2 * i) != ttt_arena_game_seed(7, 3, 2 * i + 2));
        assert_true(ttt_arena_game_seed(7, 3, 2 * i) != ttt_arena_game_seed(7, 4, 2 * i));
        assert_true(ttt_arena_game_seed(7, 3, 2 * i) != ttt_arena_game_seed(8, 3, 2 * i));
    }
}

static void run_arena(const ttt_rules *r, const char *const *specs, int n, uint64_t games, int jobs,
                      bool gauntlet, ttt_arena_pair *pairs)
{
    ttt_arena_options opt = {
        .specs = specs, .nspecs = n, .games = games, .seed = 11, .jobs = jobs, .gauntlet = gauntlet};
    ttt_error err;
    if (ttt_arena_run(r, &opt, pairs, &err) != TTT_OK) {
        print_error("arena: %s\n", err.msg);
        fail();
    }
}

static bool records_equal(const ttt_arena_record *a, const ttt_arena_record *b)
{
    return a->wins == b->wins && a->losses == b->losses && a->draws == b->draws;
}

/* The same tournament at 1 and 3 threads gives the same records; the records add up. */
static void test_same_results_at_any_jobs(void **state)
{
    (void)state;
    ttt_rules r = rules_of("4x4k3");
    const char *specs[] = {"random", "mcts:iterations=30", "montecarlo:trials=30"};
    ttt_arena_pair one[3], three[3];
    run_arena(&r, specs, 3, 21, 1, false, one);
    run_arena(&r, specs, 3, 21, 3, false, three);
    for (int p = 0; p < 3; p++) {
        assert_int_equal(one[p].a, three[p].a);
        assert_int_equal(one[p].b, three[p].b);
        assert_true(records_equal(&one[p].total, &three[p].total));
        assert_true(records_equal(&one[p].a_as_x, &three[p].a_as_x));
        const ttt_arena_record *t = &one[p].total;
        assert_int_equal(t->wins + t->losses + t->draws, 21);
        assert_int_equal(one[p].a_as_x.wins + one[p].a_as_o.wins, t->wins);
        assert_int_equal(one[p].a_as_x.wins + one[p].a_as_x.losses + one[p].a_as_x.draws, 11);
    }
}

/* Two identical deterministic engines: each pair of games is the same game with colours swapped, so the
 * first engine's record as X mirrors its record as O. */
static void test_colours_alternate_in_pairs(void **state)
{
    (void)state;
    ttt_rules r = rules_of("3x3");
    const char *specs[] = {"random", "random"};
    ttt_arena_pair p;
    run_arena(&r, specs, 2, 40, 2, false, &p);
    assert_int_equal(p.a_as_x.wins, p.a_as_o.losses);
    assert_int_equal(p.a_as_x.losses, p.a_as_o.wins);
    assert_int_equal(p.a_as_x.draws, p.a_as_o.draws);
}

static void test_bad_input(void **state)
{
    (void)state;
    ttt_rules r = rules_of("3x3");
    ttt_arena_pair pairs[3];
    ttt_error err;
    const char *bad[] = {"random", "nope"};
    ttt_arena_options opt = {.specs = bad, .nspecs = 2, .games = 2, .jobs = 1};
    assert_int_equal(ttt_arena_run(&r, &opt, pairs, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "'nope'"));
    const char *good[] = {"random", "random"};
    opt.specs = good;
    opt.games = 0;
    assert_int_equal(ttt_arena_run(&r, &opt, pairs, &err), TTT_EINVAL);
    opt.games = 2;
    opt.nspecs = 1;
    assert_int_equal(ttt_arena_run(&r, &opt, pairs, &err), TTT_EINVAL);
}

/* One game: legal moves to the end, the outcome the board says; a spec's own seed is kept. */
static void test_play_one_game(void **state)
{
    (void)state;
    ttt_rules r = rules_of("3x3");
    ttt_move moves[TTT_MAX_CELLS];
    int count;
    ttt_outcome o;
    ttt_error err;
    assert_int_equal(ttt_arena_play(&r, "minimax", "minimax:seed=3", 5, &o, moves, &count, &err), TTT_OK);
    assert_int_equal(o, TTT_DRAW);
    assert_int_equal(count, 9);
    ttt_board b;
    assert_int_equal(ttt_moves_replay(&r, moves, count, &b, &err), TTT_OK);
    assert_int_equal(ttt_board_outcome(&b), TTT_DRAW);
}

/* An outside brain that forfeits (here one that exits before answering START) loses the game: TTT_OK, the
 * other side wins, and the game says who forfeited and why. */
static void test_forfeit_is_a_loss(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_arena_game *g = malloc(sizeof *g);
    assert_non_null(g);
    ttt_error err;
    assert_int_equal(ttt_arena_play_game(&r, "random", "cmd:path=/bin/true", 1, g, &err), TTT_OK);
    assert_int_equal(g->outcome, TTT_X_WINS);
    assert_int_equal(g->forfeit, TTT_O);
    assert_non_null(strstr(g->reason, "exited with status 0"));
    assert_int_equal(ttt_arena_play_game(&r, "random", "random", 1, g, &err), TTT_OK);
    assert_int_equal(g->forfeit, TTT_NOBODY);
    assert_string_equal(g->reason, "");
    free(g);
}

/* Three engines, records written by hand: 0 scores 15/20 over its two pairs, 1 scores 10/20, 2 scores 5/20;
 * a fourth engine that played nothing (a stopped match) is left out. */
static void test_ranking(void **state)
{
    (void)state;
    ttt_arena_pair pairs[] = {
        {.a = 0, .b = 1, .total = {6, 2, 2}}, /* 0: 7 of 10, 1: 3 */
        {.a = 0, .b = 2, .total = {7, 1, 2}}, /* 0: 8 of 10, 2: 2 */
        {.a = 1, .b = 2, .total = {6, 2, 2}}, /* 1: 7 of 10, 2: 3 */
        {.a = 0, .b = 3, .total = {0, 0, 0}},
    };
    ttt_arena_rank ranks[4];
    assert_int_equal(ttt_arena_ranking(4, pairs, 4, ranks), 3);
    assert_int_equal(ranks[0].engine, 0);
    assert_int_equal(ranks[1].engine, 1);
    assert_int_equal(ranks[2].engine, 2);
    assert_true(records_equal(&ranks[0].total, &(ttt_arena_record){13, 3, 4}));
    assert_true(records_equal(&ranks[1].total, &(ttt_arena_record){8, 8, 4}));
    assert_true(records_equal(&ranks[2].total, &(ttt_arena_record){3, 13, 4}));
    assert_int_equal(ranks[1].stats.games, 20);
    assert_true(fabs(ranks[0].stats.score - 0.75) < EPS);
    assert_true(fabs(ranks[1].stats.elo) < EPS);
    assert_true(fabs(ranks[2].stats.draw_ratio - 0.2) < EPS);
    /* Equal scores keep the order of the specs. */
    ttt_arena_pair even = {.a = 0, .b = 1, .total = {3, 3, 0}};
    assert_int_equal(ttt_arena_ranking(2, &even, 1, ranks), 2);
    assert_int_equal(ranks[0].engine, 0);
    assert_int_equal(ranks[1].engine, 1);
}

/* A stop callback that says yes from its limit-th call on (atomics: the workers ask at the same time). */
typedef struct stop_after {
    _Atomic int calls;
    int limit;
    _Atomic uint64_t last_done;
    _Atomic bool backwards;
} stop_after;

static bool stop_when(void *user)
{
    stop_after *s = user;
    return ++s->calls >= s->limit;
}

static void note_progress(uint64_t done, uint64_t total, void *user)
{
    stop_after *s = user;
    (void)total;
    if (done <= s->last_done)
        s->backwards = true;
    s->last_done = done;
}

/* A stopped tournament returns the records of the games it finished, fewer than all; stopped before the first
 * game, none. */
static void test_stop(void **state)
{
    (void)state;
    ttt_rules r = rules_of("3x3");
    const char *specs[] = {"random", "random", "minimax"};
    for (int limit = 1; limit <= 200; limit += 199) {
        stop_after s = {.limit = limit};
        ttt_arena_options opt = {.specs = specs,
                                 .nspecs = 3,
                                 .games = 100000,
                                 .jobs = 2,
                                 .stop = stop_when,
                                 .progress = note_progress,
                                 .user = &s};
        ttt_arena_pair pairs[3];
        ttt_error err;
        assert_int_equal(ttt_arena_run(&r, &opt, pairs, &err), TTT_OK);
        uint64_t played = 0;
        for (int p = 0; p < 3; p++) {
            const ttt_arena_record *t = &pairs[p].total;
            played += t->wins + t->losses + t->draws;
            assert_int_equal(pairs[p].a_as_x.wins + pairs[p].a_as_o.wins, t->wins);
        }
        if (limit == 1)
            assert_int_equal(played, 0);
        else
            assert_true(played > 0 && played < 200);
        assert_false(s.backwards);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stats_known_record),
        cmocka_unit_test(test_stats_symmetric_and_small),
        cmocka_unit_test(test_stats_degenerate),
        cmocka_unit_test(test_schedule),
        cmocka_unit_test(test_game_seeds),
        cmocka_unit_test(test_same_results_at_any_jobs),
        cmocka_unit_test(test_colours_alternate_in_pairs),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_play_one_game),
        cmocka_unit_test(test_forfeit_is_a_loss),
        cmocka_unit_test(test_ranking),
        cmocka_unit_test(test_stop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
