/*
 * test_hint.c - engine analysis (ttt_engine_analyse) and full-strength hints (ttt_hint): every legal move is
 * scored once, exact values agree with the solver, the order is best first, engines that cannot analyse say
 * so, and the fallback to an engine's own scores happens only when the solver cannot prove the position.
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

/* The position of a text under rules given as text. */
static ttt_board position(const char *rules, const char *text)
{
    ttt_rules r = rules_of(rules);
    return board_of(&r, text);
}

/* 15x15 k=5 after X's move in the centre: too big to prove in a few milliseconds. */
static ttt_board centre_opening_15x15(void)
{
    ttt_rules r = rules_of("15x15k5");
    ttt_board b;
    ttt_board_init(&b, &r);
    ttt_board_play(&b, 7 * 15 + 7);
    return b;
}

/* Each legal move of b appears exactly once in a. */
static void assert_every_move_once(const ttt_board *b, const ttt_analysis *a)
{
    assert_int_equal(a->count, b->cells - b->ply);
    bool seen[TTT_MAX_CELLS] = {false};
    for (int i = 0; i < a->count; i++) {
        assert_true(ttt_board_is_legal(b, a->moves[i].move));
        assert_false(seen[a->moves[i].move]);
        seen[a->moves[i].move] = true;
        assert_true(a->moves[i].score >= -1.0 && a->moves[i].score <= 1.0);
    }
}

static int cell(const ttt_board *b, const char *name)
{
    ttt_move m;
    ttt_error err;
    assert_int_equal(ttt_move_parse(name, &b->rules, &m, &err), TTT_OK);
    return m;
}

/* X to move with a win at c1 (top right) and O threatening a3... the solver's values agree move by move with
 * ttt_solver_value after the move, and the win comes first. */
static void test_hint_exact_matches_solver(void **state)
{
    (void)state;
    const char *positions[] = {"xx./oo./...", "x.o/.x./..o", ".../.x./...", "xo./.../...", "x../.o./..x"};
    for (size_t p = 0; p < sizeof positions / sizeof *positions; p++) {
        for (int misere = 0; misere < 2; misere++) {
            ttt_board b = position(misere ? "3x3-misere" : "3x3", positions[p]);
            ttt_solver *solver, *check;
            ttt_error err;
            assert_int_equal(ttt_solver_new(&b.rules, 1, &solver, &err), TTT_OK);
            assert_int_equal(ttt_solver_new(&b.rules, 1, &check, &err), TTT_OK);
            ttt_analysis a;
            assert_int_equal(ttt_hint(solver, &b, NULL, 0, 1.0, &a, &err), TTT_OK);
            assert_string_equal(a.method, "solver");
            assert_every_move_once(&b, &a);
            for (int i = 0; i < a.count; i++) {
                const ttt_move_eval *v = &a.moves[i];
                assert_int_equal(v->kind, TTT_EVAL_EXACT);
                ttt_board after = b;
                ttt_board_play(&after, v->move);
                int result, plies;
                if (ttt_board_terminal(&after)) {
                    ttt_outcome o = ttt_board_outcome(&after);
                    result = o == TTT_DRAW                                           ? 0
                             : (o == TTT_X_WINS) == (ttt_board_to_move(&b) == TTT_X) ? 1
                                                                                     : -1;
                    plies = 1;
                } else {
                    ttt_result value;
                    assert_int_equal(ttt_solver_value(check, &after, &value, &plies, NULL, &err), TTT_OK);
                    result = -(int)value;
                    plies += 1;
                }
                assert_int_equal(v->result, result);
                assert_int_equal(v->plies, plies);
                assert_true(v->score == (double)result);
                if (i > 0) { /* best first: results never increase; among wins, sooner first */
                    const ttt_move_eval *u = &a.moves[i - 1];
                    assert_true(u->result >= v->result);
                    if (u->result == 1 && v->result == 1)
                        assert_true(u->plies <= v->plies);
                    if (u->result == -1 && v->result == -1)
                        assert_true(u->plies >= v->plies);
                }
            }
            ttt_solver_free(solver);
            ttt_solver_free(check);
        }
    }
}

static void test_hint_win_now_first(void **state)
{
    (void)state;
    ttt_board b = position("3x3", "xx./oo./...");
    ttt_solver *solver;
    ttt_error err;
    assert_int_equal(ttt_solver_new(&b.rules, 1, &solver, &err), TTT_OK);
    ttt_analysis a;
    assert_int_equal(ttt_hint(solver, &b, NULL, 0, 1.0, &a, &err), TTT_OK);
    assert_int_equal(a.moves[0].move, cell(&b, "c1"));
    assert_int_equal(a.moves[0].result, 1);
    assert_int_equal(a.moves[0].plies, 1);
    ttt_solver_free(solver);
}

/* The engines' own analyses: minimax (solver), montecarlo (score grid, in [-1, 1], the winning square best).
 */
static void test_engine_analyse(void **state)
{
    (void)state;
    ttt_board b = position("3x3", "xx./oo./...");
    ttt_error err;
    ttt_analysis a;
    const char *specs[] = {"minimax", "montecarlo:seed=3"};
    for (size_t i = 0; i < 2; i++) {
        ttt_engine *e = engine_ok(specs[i], &b.rules);
        assert_true(ttt_engine_can_analyse(e));
        uint64_t before = ttt_engine_nodes(e);
        assert_int_equal(ttt_engine_analyse(e, &b, &a, &err), TTT_OK);
        assert_every_move_once(&b, &a);
        assert_int_equal(a.moves[0].move, cell(&b, "c1"));
        assert_true(a.info.nodes > 0);
        assert_true(ttt_engine_nodes(e) == before + a.info.nodes);
        ttt_engine_free(e);
    }
    ttt_engine *mc = engine_ok("montecarlo:seed=3", &b.rules);
    assert_int_equal(ttt_engine_analyse(mc, &b, &a, &err), TTT_OK);
    assert_string_equal(a.method, "montecarlo score grid");
    assert_int_equal(a.moves[0].kind, TTT_EVAL_SCORE);
    assert_true(a.moves[0].score > 0 && a.moves[a.count - 1].score < a.moves[0].score);
    ttt_engine_free(mc);
}

static void test_analyse_refusals(void **state)
{
    (void)state;
    ttt_board b = position("3x3", "xx./oo./...");
    ttt_error err;
    ttt_analysis a;
    ttt_engine *r = engine_ok("random", &b.rules);
    assert_false(ttt_engine_can_analyse(r));
    assert_int_equal(ttt_engine_analyse(r, &b, &a, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "random"));
    ttt_engine_free(r);
    ttt_engine *m = engine_ok("minimax", &b.rules);
    ttt_board over = position("3x3", "xxx/oo./...");
    assert_int_equal(ttt_engine_analyse(m, &over, &a, &err), TTT_ESTATE);
    ttt_board other = position("4x4", "..../..../..../....");
    assert_int_equal(ttt_engine_analyse(m, &other, &a, &err), TTT_ESTATE);
    ttt_engine_free(m);
}

/* 15x15 k=5 with a 1 ms budget cannot be proven: the hint comes from the fallback engine when it can analyse,
 * and from the solver's estimates otherwise (never marked exact); with a shared budget, within it. */
static void test_hint_fallback(void **state)
{
    (void)state;
    ttt_board b = centre_opening_15x15();
    ttt_rules r = b.rules;
    ttt_solver *solver;
    ttt_error err;
    assert_int_equal(ttt_solver_new(&r, 1, &solver, &err), TTT_OK);
    ttt_analysis a;
    ttt_engine *mc = engine_ok("montecarlo:trials=50", &r);
    assert_int_equal(ttt_hint(solver, &b, mc, 1, 1.0, &a, &err), TTT_OK);
    assert_string_equal(a.method, "montecarlo score grid");
    assert_every_move_once(&b, &a);
    assert_int_equal(ttt_hint(solver, &b, NULL, 1, 1.0, &a, &err), TTT_OK);
    assert_string_equal(a.method, "solver heuristic");
    assert_every_move_once(&b, &a);
    for (int i = 0; i < a.count; i++)
        assert_int_not_equal(a.moves[i].kind, TTT_EVAL_EXACT);
    ttt_engine_free(mc);
    /* A shared budget: the solver gets its share, the fallback's time= is lowered to what the solver left (a
     * time= of 0, trials as the budget, becomes a time), and the hint counts the work of both. */
    mc = engine_ok("montecarlo:trials=1000000000", &r);
    double start = ttt_clock_ms();
    assert_int_equal(ttt_hint(solver, &b, mc, 40, 0.5, &a, &err), TTT_OK);
    assert_true(ttt_clock_ms() - start < 2000); /* not a billion trials: time= was set */
    assert_string_equal(a.method, "montecarlo score grid");
    assert_every_move_once(&b, &a);
    assert_true(a.info.nodes > ttt_engine_nodes(mc)); /* the solver's nodes are counted too */
    char spec[TTT_SPEC_TEXT_SIZE];
    const char *t = strstr(ttt_engine_spec(mc, spec, sizeof spec), "time=");
    assert_non_null(t);
    assert_true(strtoull(t + 5, NULL, 10) >= 1 && strtoull(t + 5, NULL, 10) <= 40);
    ttt_engine_free(mc);
    /* An engine without time= is left as it is. */
    ttt_engine *h = engine_ok("heuristic", &r);
    assert_int_equal(ttt_engine_limit_time(h, 5, &err), TTT_OK);
    ttt_engine_free(h);
    ttt_solver_free(solver);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hint_exact_matches_solver),
        cmocka_unit_test(test_hint_win_now_first),
        cmocka_unit_test(test_engine_analyse),
        cmocka_unit_test(test_analyse_refusals),
        cmocka_unit_test(test_hint_fallback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
