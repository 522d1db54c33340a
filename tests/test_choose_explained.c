/* Unit tests for ttt_engine_choose_explained (ttt/engine.h): the explanation is of the very decision that
 * produced the move. Fresh engines with the same spec play whole games once with ttt_engine_choose and once
 * with ttt_engine_choose_explained: the moves and the work counted must be the same on every ply, and each
 * explanation must name the move played. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttt/ttt.h"
#include "support.h"

/* Games per engine and rules: the learner's second game plays from what it learnt in the first. */
#define GAMES 2
/* Random games behind the table engine's table on each rules: enough for averages on every first move. */
#define TABLE_GAMES 1000

/* Specs with work budgets only (no time=), so that the same seed gives the same game on any machine. Every
 * registered engine that can explain its decisions is here (test_every_engine_covered checks it). */
static const char *const specs[] = {
    "minimax:time=0,nodes=3000,seed=1",
    "minimax:blunder=30,time=0,nodes=3000,seed=2", /* the levels' random moves */
    "montecarlo:trials=60,seed=3",
    "mcts:iterations=150,seed=4",
    "heuristic",
    "heuristic:guard=1",
    "table:seed=5",
    "learner:time=0,nodes=2000,seed=6",
    "random:seed=7",
};
#define NSPECS ((int)(sizeof specs / sizeof specs[0]))

static const char *const rules_texts[] = {"3x3", "4x4k3-misere", "7x7k5", "15x15k5"};
#define NRULES ((int)(sizeof rules_texts / sizeof rules_texts[0]))

/* One game's record: the moves and the work of each. */
typedef struct game_record {
    int count;
    ttt_move moves[TTT_MAX_CELLS];
    uint64_t nodes[TTT_MAX_CELLS];
    ttt_outcome outcome;
} game_record;

/* Plays GAMES games of spec against itself (one engine per side, both kept from game to game) into rec; with explained, through ttt_engine_choose_explained, checking each explanation. */
static void play(const char *spec, const ttt_rules *r, const ttt_engine_env *env, bool explained,
                 game_record *rec)
{
    ttt_engine *players[2] = {NULL, NULL};
    ttt_error err = {{0}};
    for (int side = 0; side < 2; side++)
        if (ttt_engine_new_in(spec, r, env, &players[side], &err) != TTT_OK) {
            print_error("engine '%s': %s\n", spec, err.msg);
            fail();
        }
    ttt_explanation *why = malloc(sizeof *why);
    assert_non_null(why);
    for (int g = 0; g < GAMES; g++) {
        game_record *gr = &rec[g];
        memset(gr, 0, sizeof *gr);
        ttt_board b;
        ttt_board_init(&b, r);
        while (!ttt_board_terminal(&b)) {
            ttt_engine *e = players[ttt_board_to_move(&b)];
            ttt_move m = TTT_NO_MOVE;
            ttt_search_info info;
            ttt_status st = explained ? ttt_engine_choose_explained(e, &b, &m, &info, why, &err)
                                      : ttt_engine_choose(e, &b, &m, &info, &err);
            if (st != TTT_OK) {
                print_error("'%s' ply %d: %s\n", spec, b.ply, err.msg);
                fail();
            }
            if (explained) {
                assert_non_null(why->method);
                if (why->choice != m) {
                    print_error("'%s' ply %d: played %d, explained %d\n", spec, b.ply, m, why->choice);
                    fail();
                }
                assert_true(why->info.nodes == info.nodes);
                for (int i = 0; i < why->layer_count; i++)
                    for (int c = 0; c < b.cells; c++)
                        if (why->layers[i].shown[c])
                            assert_true(ttt_board_is_legal(&b, (ttt_move)c));
            }
            gr->moves[gr->count] = m;
            gr->nodes[gr->count++] = info.nodes;
            ttt_board_play(&b, m);
        }
        gr->outcome = ttt_board_outcome(&b);
        ttt_engine *both[2] = {players[0], players[1]};
        assert_int_equal(ttt_engines_game_over(both, 2, gr->moves, gr->count, gr->outcome, &err), TTT_OK);
        ttt_engine_new_game(players[0]);
        ttt_engine_new_game(players[1]);
    }
    free(why);
    ttt_engine_free(players[0]);
    ttt_engine_free(players[1]);
}

/* The same games, move for move and node for node, with and without explanations. */
static void test_same_games(void **state)
{
    (void)state;
    game_record *plain = calloc(GAMES, sizeof *plain), *explained = calloc(GAMES, sizeof *explained);
    assert_non_null(plain);
    assert_non_null(explained);
    for (int ri = 0; ri < NRULES; ri++) {
        ttt_rules r = rules_of(rules_texts[ri]);
        ttt_table_build_options opt = {.games = TABLE_GAMES, .seed = 3, .jobs = 1};
        ttt_table *table = NULL;
        ttt_status built = ttt_table_build(&r, &opt, &table, NULL);
        assert_true(built == TTT_OK || (built == TTT_ELIMIT && r.rows * r.cols > TTT_TABLE_MAX_CELLS));
        ttt_engine_env env = {.table = table, .no_files = true};
        for (int si = 0; si < NSPECS; si++) {
            if (!table && strncmp(specs[si], "table", strlen("table")) == 0)
                continue; /* the table engine plays only where a table can be built */
            play(specs[si], &r, &env, false, plain);
            play(specs[si], &r, &env, true, explained);
            for (int g = 0; g < GAMES; g++) {
                if (plain[g].count != explained[g].count ||
                    memcmp(plain[g].moves, explained[g].moves, sizeof plain[g].moves) != 0 ||
                    memcmp(plain[g].nodes, explained[g].nodes, sizeof plain[g].nodes) != 0) {
                    print_error("'%s' on %s, game %d: the explained game differs\n", specs[si],
                                rules_texts[ri], g);
                    fail();
                }
                assert_int_equal(plain[g].outcome, explained[g].outcome);
            }
        }
        ttt_table_free(table);
    }
    free(plain);
    free(explained);
}

/* Every registered engine that can explain and needs no file has a spec above. */
static void test_every_engine_covered(void **state)
{
    (void)state;
    for (int i = 0; i < ttt_engine_count(); i++) {
        const char *name = ttt_engine_about_at(i)->name;
        if (ttt_engine_requires_path(name))
            continue;
        ttt_rules r = rules_of("3x3");
        ttt_engine *e = NULL;
        ttt_table_build_options opt = {.games = 10, .seed = 3, .jobs = 1};
        ttt_table *table = NULL;
        assert_int_equal(ttt_table_build(&r, &opt, &table, NULL), TTT_OK);
        ttt_engine_env env = {.table = table, .no_files = true};
        assert_int_equal(ttt_engine_new_in(name, &r, &env, &e, NULL), TTT_OK);
        bool covered = false;
        size_t len = strlen(name);
        for (int s = 0; s < NSPECS; s++)
            covered |= strncmp(specs[s], name, len) == 0 && (specs[s][len] == ':' || specs[s][len] == 0);
        if (ttt_engine_can_explain(e) && !covered) {
            print_error("engine '%s' explains but the test plays no spec of it\n", name);
            fail();
        }
        ttt_engine_free(e);
        ttt_table_free(table);
    }
}

/* An engine that cannot explain still chooses, the move the plain choice gives, and says so by a NULL method;
 * a NULL explanation is the plain choice; a finished game is refused as by ttt_engine_choose. */
static void test_no_explanation(void **state)
{
    (void)state;
    ttt_rules r = rules_of("7x7k5");
    ttt_board b = board_of(&r, "d4 c3");
    ttt_engine *a = engine_ok("gomoku:time=0,nodes=2000,seed=1", &r);
    ttt_engine *c = engine_ok("gomoku:time=0,nodes=2000,seed=1", &r);
    assert_false(ttt_engine_can_explain(a));
    ttt_explanation *why = malloc(sizeof *why);
    assert_non_null(why);
    memset(why, 0x5a, sizeof *why);
    ttt_move m1, m2, m3;
    assert_int_equal(ttt_engine_choose(a, &b, &m1, NULL, NULL), TTT_OK);
    assert_int_equal(ttt_engine_choose_explained(c, &b, &m2, NULL, why, NULL), TTT_OK);
    assert_int_equal(m1, m2);
    assert_null(why->method);
    assert_int_equal(why->choice, TTT_NO_MOVE);
    assert_int_equal(why->layer_count, 0);
    assert_int_equal(ttt_engine_choose_explained(c, &b, &m3, NULL, NULL, NULL), TTT_OK);
    assert_true(ttt_board_is_legal(&b, m3));

    ttt_rules r3 = rules_of("3x3");
    ttt_board over = board_of(&r3, "a1 b1 a2 b2 a3");
    ttt_engine *mm = engine_ok("minimax", &r3);
    ttt_error err = {{0}};
    assert_int_equal(ttt_engine_choose_explained(mm, &over, &m1, NULL, why, &err), TTT_ESTATE);
    assert_non_null(strstr(err.msg, "game is over"));
    free(why);
    ttt_engine_free(a);
    ttt_engine_free(c);
    ttt_engine_free(mm);
}

/* The explanation is of the decision, not of a second search: on 3x3 minimax's explanation of its choice
 * holds the equally best moves it drew among, and the drawn one is among them; MCTS's visits sum to its
 * iterations (plus the visits kept from the tree of its previous move, none here). */
static void test_explains_the_decision(void **state)
{
    (void)state;
    ttt_rules r = rules_of("3x3");
    ttt_board b = board_of(&r, "b2 a1");
    ttt_engine *e = engine_ok("minimax:seed=3", &r);
    ttt_explanation *why = malloc(sizeof *why);
    assert_non_null(why);
    ttt_move m;
    ttt_search_info info;
    assert_int_equal(ttt_engine_choose_explained(e, &b, &m, &info, why, NULL), TTT_OK);
    assert_int_equal(why->choice, m);
    const ttt_explain_layer *chance = NULL;
    for (int i = 0; i < why->layer_count; i++)
        if (strcmp(why->layers[i].name, "chance") == 0)
            chance = &why->layers[i];
    assert_non_null(chance);
    assert_true(chance->shown[m]);
    assert_true(chance->value[m] > 0);
    assert_true(why->info.nodes == info.nodes && info.nodes > 0);
    ttt_engine_free(e);

    e = engine_ok("mcts:iterations=500,seed=2", &r);
    assert_int_equal(ttt_engine_choose_explained(e, &b, &m, &info, why, NULL), TTT_OK);
    double visits = 0;
    for (int i = 0; i < why->layer_count; i++)
        if (strcmp(why->layers[i].name, "visits") == 0)
            for (int c = 0; c < b.cells; c++)
                visits += why->layers[i].shown[c] ? why->layers[i].value[c] : 0;
    assert_true(visits > 0 && visits <= 500);
    assert_true(info.nodes <= 500);
    free(why);
    ttt_engine_free(e);
}

/* --- The recorder (ttt/trace.h) ------------------------------------------------------------------------- */

/* What a recorder saw: steps by kind. */
typedef struct seen {
    int by_kind[TTT_TRACE_RULE + 1];
    double last_visits; /* mcts: the root's visits after the last iteration seen */
    int fired;          /* heuristic: rules that fired */
} seen;

static void count_step(const ttt_trace_step *st, void *user)
{
    seen *s = user;
    s->by_kind[st->kind]++;
    if (st->kind == TTT_TRACE_ITERATION) {
        s->last_visits = 0;
        for (int i = 0; i < st->children; i++)
            s->last_visits += st->visits[i];
    }
    s->fired += st->kind == TTT_TRACE_RULE && st->fired;
}

/* A recorder changes nothing: the same games, move for move and node for node, with one set (its limit
 * reached early, and not) and without; and it sees one step per unit of work: an iteration per MCTS
 * iteration, a playout per Monte Carlo trial, one fired rule per heuristic move, a depth and a value per
 * root move per minimax iteration. */
static void test_recorder_changes_nothing(void **state)
{
    (void)state;
    static const char *const traced[] = {"minimax:time=0,nodes=3000,seed=1", "mcts:iterations=120,seed=4",
                                         "montecarlo:trials=40,seed=3", "heuristic:guard=1"};
    static const char *const rules_list[] = {"3x3", "4x4k3-misere", "5x5k4"};
    for (size_t ri = 0; ri < sizeof rules_list / sizeof *rules_list; ri++) {
        ttt_rules r = rules_of(rules_list[ri]);
        for (size_t si = 0; si < sizeof traced / sizeof *traced; si++) {
            ttt_engine *plain = engine_ok(traced[si], &r), *watched = engine_ok(traced[si], &r);
            ttt_trace *t = calloc(1, sizeof *t);
            assert_non_null(t);
            seen saw;
            memset(&saw, 0, sizeof saw);
            *t = (ttt_trace){.fn = count_step, .user = &saw, .limit = ri == 0 ? UINT64_MAX : 5};
            ttt_engine_set_trace(watched, t);
            ttt_board b;
            ttt_board_init(&b, &r);
            uint64_t work = 0;
            while (!ttt_board_terminal(&b)) {
                ttt_move m1, m2;
                ttt_search_info i1, i2;
                uint64_t steps0 = t->steps;
                assert_int_equal(ttt_engine_choose(plain, &b, &m1, &i1, NULL), TTT_OK);
                assert_int_equal(ttt_engine_choose(watched, &b, &m2, &i2, NULL), TTT_OK);
                assert_int_equal(m1, m2);
                assert_true(i1.nodes == i2.nodes);
                work += i2.nodes;
                if (strncmp(traced[si], "mcts", 4) == 0 || strncmp(traced[si], "montecarlo", 10) == 0)
                    assert_true(t->steps - steps0 == i2.nodes);
                else
                    assert_true(t->steps > steps0);
                ttt_board_play(&b, m1);
            }
            if (ri == 0) { /* no limit: every step seen */
                if (strncmp(traced[si], "mcts", 4) == 0)
                    assert_true(saw.by_kind[TTT_TRACE_ITERATION] == (int)work && saw.last_visits > 0);
                if (strncmp(traced[si], "montecarlo", 10) == 0)
                    assert_true(saw.by_kind[TTT_TRACE_PLAYOUT] == (int)work);
                if (strncmp(traced[si], "heuristic", 9) == 0)
                    assert_int_equal(saw.fired, b.ply); /* it chose every move of the game */
                if (strncmp(traced[si], "minimax", 7) == 0)
                    assert_true(saw.by_kind[TTT_TRACE_DEPTH] > 0 &&
                                saw.by_kind[TTT_TRACE_ROOT_MOVE] >= saw.by_kind[TTT_TRACE_DEPTH]);
            } else {
                int total = 0;
                for (int k = 0; k <= TTT_TRACE_RULE; k++)
                    total += saw.by_kind[k];
                assert_int_equal(total, 5);
            }
            ttt_engine_free(plain);
            ttt_engine_free(watched);
            free(t);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_games),
        cmocka_unit_test(test_every_engine_covered),
        cmocka_unit_test(test_no_explanation),
        cmocka_unit_test(test_explains_the_decision),
        cmocka_unit_test(test_recorder_changes_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
