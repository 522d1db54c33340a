/*
 * test_heuristic.c - the `heuristic` engine (seed 000's "unbeatable" Ruby player) and whether it is.
 *
 * The claim is checked by enumeration: the engine plays one side of 3x3, the opponent branches over every
 * legal move at each of its turns, and every complete game is counted from the engine's side. The pinned
 * records are the answer to the blog: with guard=0 (the blog's algorithm) it can lose as X and as O; with
 * guard=1 (win now, else block now) it never loses as X but still loses as O.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ttt/ttt.h"

/* --- Helpers -------------------------------------------------------------------------------------------- */

static ttt_rules rules_of(const char *text)
{
    ttt_rules r;
    ttt_error err;
    assert_int_equal(ttt_rules_parse(text, &r, &err), TTT_OK);
    return r;
}

static ttt_engine *engine_of(const char *spec, const ttt_rules *r)
{
    ttt_engine *e = NULL;
    ttt_error err;
    if (ttt_engine_new(spec, r, &e, &err) != TTT_OK) {
        print_error("engine '%s': %s\n", spec, err.msg);
        fail();
    }
    return e;
}

static ttt_move choose(ttt_engine *e, const ttt_board *b)
{
    ttt_move m = TTT_NO_MOVE;
    ttt_search_info info;
    ttt_error err;
    assert_int_equal(ttt_engine_choose(e, b, &m, &info, &err), TTT_OK);
    assert_true(ttt_board_is_legal(b, m));
    assert_int_equal(info.nodes, 1); /* one node per decision */
    return m;
}

/* The engine's move, in a1 form, for a position given as text under the given rules. */
static void assert_move(const char *spec, const char *rules, const char *position, const char *expected)
{
    ttt_rules r = rules_of(rules);
    ttt_board b;
    ttt_error err;
    assert_int_equal(ttt_position_parse(position, &r, &b, &err), TTT_OK);
    ttt_engine *e = engine_of(spec, &r);
    char text[TTT_MOVE_TEXT_SIZE];
    ttt_move_format(&r, choose(e, &b), text, sizeof text);
    if (strcmp(text, expected) != 0) {
        print_error("%s on %s %s: played %s, expected %s\n", spec, rules, position, text, expected);
        fail();
    }
    ttt_engine_free(e);
}

static bool engine_lost(ttt_outcome out, ttt_player side)
{
    return out == (side == TTT_X ? TTT_O_WINS : TTT_X_WINS);
}

/* --- Every opponent strategy on 3x3 -------------------------------------------------------------------- */

typedef struct record {
    long wins, draws, losses; /* complete games, from the engine's side */
    long leaves;              /* complete games reached, counted separately */
    int shortest;             /* stones in the shortest lost game (TTT_MAX_CELLS + 1 when none) */
    ttt_move shortest_moves[TTT_MAX_CELLS];
} record;

typedef struct walk {
    const char *spec;
    ttt_rules rules;
    ttt_engine *engine;
    ttt_player side; /* the engine's side */
    ttt_move path[TTT_MAX_CELLS];
    record rec;
} walk;

/* Replays a lost game from the empty board with a fresh engine: every engine move must be the engine's
 * choice again, and the game must end lost. */
static void check_loss(const walk *w, int count)
{
    ttt_engine *fresh = engine_of(w->spec, &w->rules);
    ttt_board b;
    ttt_board_init(&b, &w->rules);
    ttt_error err;
    for (int i = 0; i < count; i++) {
        if (ttt_board_to_move(&b) == w->side)
            assert_int_equal(choose(fresh, &b), w->path[i]);
        assert_int_equal(ttt_board_play_checked(&b, w->path[i], &err), TTT_OK);
    }
    assert_true(ttt_board_terminal(&b));
    assert_true(engine_lost(ttt_board_outcome(&b), w->side));
    ttt_board replayed;
    assert_int_equal(ttt_moves_replay(&w->rules, w->path, count, &replayed, &err), TTT_OK);
    assert_true(engine_lost(ttt_board_outcome(&replayed), w->side));
    ttt_engine_free(fresh);
}

static void enumerate(walk *w, ttt_board *b)
{
    ttt_outcome out = ttt_board_outcome(b);
    if (out != TTT_ONGOING) {
        w->rec.leaves++;
        if (out == TTT_DRAW) {
            w->rec.draws++;
        } else if (engine_lost(out, w->side)) {
            w->rec.losses++;
            check_loss(w, b->ply);
            if (b->ply < w->rec.shortest) {
                w->rec.shortest = b->ply;
                memcpy(w->rec.shortest_moves, w->path, (size_t)b->ply * sizeof w->path[0]);
            }
        } else {
            w->rec.wins++;
        }
        return;
    }
    ttt_move moves[TTT_MAX_CELLS];
    int n;
    if (ttt_board_to_move(b) == w->side) {
        moves[0] = choose(w->engine, b);
        n = 1;
    } else {
        n = ttt_board_moves(b, moves);
    }
    for (int i = 0; i < n; i++) {
        w->path[b->ply] = moves[i];
        ttt_board_play(b, moves[i]);
        enumerate(w, b);
        ttt_board_undo(b, moves[i]);
    }
}

static record record_of(const char *spec, const char *rules, ttt_player side)
{
    static walk w; /* large: keep it off the stack */
    memset(&w, 0, sizeof w);
    w.spec = spec;
    w.rules = rules_of(rules);
    w.engine = engine_of(spec, &w.rules);
    w.side = side;
    w.rec.shortest = TTT_MAX_CELLS + 1;
    ttt_board b;
    ttt_board_init(&b, &w.rules);
    enumerate(&w, &b);
    ttt_engine_free(w.engine);
    assert_int_equal(w.rec.wins + w.rec.draws + w.rec.losses, w.rec.leaves);
    return w.rec;
}

static void assert_record(const char *spec, const char *rules, ttt_player side, long wins, long draws,
                          long losses, int shortest)
{
    record r = record_of(spec, rules, side);
    if (r.wins != wins || r.draws != draws || r.losses != losses) {
        print_error("%s as %c on %s: won %ld, drew %ld, lost %ld; expected %ld, %ld, %ld\n", spec,
                    side == TTT_X ? 'X' : 'O', rules, r.wins, r.draws, r.losses, wins, draws, losses);
        fail();
    }
    assert_int_equal(r.shortest, shortest);
}

#define NO_LOSS (TTT_MAX_CELLS + 1)

/* The blog's algorithm as written: it never looks at its own lines, and it loses on both sides. */
static void test_guard0_loses_as_x_and_as_o(void **state)
{
    (void)state;
    assert_record("heuristic:guard=0", "3x3", TTT_X, 178, 120, 1, 8);
    assert_record("heuristic:guard=0", "3x3", TTT_O, 255, 535, 35, 7);
    /* guard=0 is the default. */
    assert_record("heuristic", "3x3", TTT_X, 178, 120, 1, 8);
}

/* Win now, else block now: unbeaten as X, still beaten as O. */
static void test_guard1_unbeaten_as_x_only(void **state)
{
    (void)state;
    assert_record("heuristic:guard=1", "3x3", TTT_X, 91, 32, 0, NO_LOSS);
    assert_record("heuristic:guard=1", "3x3", TTT_O, 328, 211, 22, 7);
}

/* Misère: with guard=0 the engine plays the same moves as under normal rules, so its records are the normal
 * ones with wins and losses swapped; guard=1 only keeps it off its own lines. */
static void test_misere_records(void **state)
{
    (void)state;
    assert_record("heuristic:guard=0", "3x3-misere", TTT_X, 1, 120, 178, 5);
    assert_record("heuristic:guard=0", "3x3-misere", TTT_O, 35, 535, 255, 6);
    assert_record("heuristic:guard=1", "3x3-misere", TTT_X, 35, 121, 225, 7);
    assert_record("heuristic:guard=1", "3x3-misere", TTT_O, 195, 659, 91, 8);
}

/* Plays `moves` from the empty board: at the engine's turns the engine must choose exactly the move given.
 * The game must end with `expected`. */
static void assert_line(const char *spec, ttt_player side, const char *moves, ttt_outcome expected)
{
    ttt_rules r = ttt_rules_default();
    ttt_move seq[TTT_MAX_CELLS];
    int count;
    ttt_error err;
    assert_int_equal(ttt_moves_parse(moves, &r, seq, TTT_MAX_CELLS, &count, &err), TTT_OK);
    ttt_engine *e = engine_of(spec, &r);
    ttt_board b;
    ttt_board_init(&b, &r);
    for (int i = 0; i < count; i++) {
        if (ttt_board_to_move(&b) == side)
            assert_int_equal(choose(e, &b), seq[i]);
        assert_int_equal(ttt_board_play_checked(&b, seq[i], &err), TTT_OK);
    }
    assert_int_equal(ttt_board_outcome(&b), expected);
    ttt_engine_free(e);
}

/* The shortest losses the enumeration finds first. */
static void test_shortest_losing_lines(void **state)
{
    (void)state;
    /* As X, the only loss: X: b2, O: c1, X: a1, O: b3, X: b1, O: c3 (a fork: a3 and c2), X: a3, O: c2. */
    assert_line("heuristic", TTT_X, "b2 c1 a1 b3 b1 c3 a3 c2", TTT_O_WINS);
    /* As O: X: a1, O: b2, X: b3, O: b1 (weights only block), X: a3 (fork: a2 and c3), O: c3, X: a2. */
    assert_line("heuristic", TTT_O, "a1 b2 b3 b1 a3 c3 a2", TTT_X_WINS);
    /* The classic opposite-corner trap: after X: a1, O: b2, X: c3 it takes a corner (c1), not an edge. */
    assert_line("heuristic", TTT_O, "a1 b2 c3 c1 a3 b3 a2", TTT_X_WINS);
    /* With the guard, as O: X: a1, O: b2, X: b3, O: b1, X: a3, O: a2 (blocks one), X: c3. */
    assert_line("heuristic:guard=1", TTT_O, "a1 b2 b3 b1 a3 a2 c3", TTT_X_WINS);
}

/* --- Step 1: the centre -------------------------------------------------------------------------------- */

static void test_centre_first(void **state)
{
    (void)state;
    assert_move("heuristic", "3x3", ".../.../...", "b2");
    assert_move("heuristic", "5x5", "...../...../...../...../.....", "c3");
    /* Even sides: of the central cells the one nearest the top-left. */
    assert_move("heuristic", "4x4", "..../..../..../....", "b2");
    assert_move("heuristic", "4x6", "....../....../....../......", "c2"); /* 4 rows, 6 columns */
    /* As O too, while O has no stone and the centre is empty, whatever X did. */
    assert_move("heuristic", "3x3", "x../.../...", "b2");
    assert_move("heuristic:guard=1", "4x4", "..../..../..../...x", "b2");
}

/* --- Steps 2 to 4, worked by hand ---------------------------------------------------------------------- */

static void test_frequency_table_by_hand(void **state)
{
    (void)state;
    /* .../.x./... O to move. The windows through b2 weigh -3 (one X each), the others 0; lowest -3 keeps
     * row 2 (a2 b2 c2), column b (b1 b2 b3), the diagonal (a1 b2 c3) and the anti-diagonal (c1 b2 a3).
     * Their empty cells, flattened: a2 c2 b1 b3 a1 c3 c1 a3, each once; the first maximum is a2 (an edge:
     * the reply to the centre that loses against perfect play). */
    assert_move("heuristic", "3x3", ".../.x./...", "a2");

    /* x../.o./..x O to move. Row 1, row 3, column a and column c hold one X and an empty cell: -3. The
     * diagonal a1 b2 c3 is full (weight 0), the rest 0. Flattened empty cells: (row 1) b1 c1, (row 3) a3 b3,
     * (column a) a2 a3, (column c) c1 c2. Counts: c1 2, a3 2, the others 1; c1 comes first: a corner, the
     * losing answer to the opposite-corner opening. */
    assert_move("heuristic", "3x3", "x../.o./..x", "c1");

    /* xo./.x./..o X to move. -3 for row 1 (b1 is O, c1 empty), row 3 (c3), column b (b1) and column c (c3);
     * the diagonal is full. Flattened empty cells: c1 | a3 b3 | b3 | c1 c2. Counts: c1 2, b3 2, a3 1, c2 1;
     * c1 comes first. */
    assert_move("heuristic", "3x3", "xo./.x./..o", "c1");

    /* xx./oo./... X to move. Row 2 holds two O: -6, the lowest alone, so the blog's X blocks at c2 instead
     * of winning at c1: it never looks at its own lines. The guard wins. */
    assert_move("heuristic", "3x3", "xx./oo./...", "c2");
    assert_move("heuristic:guard=1", "3x3", "xx./oo./...", "c1");
    /* xo./.o./..x X to move, O threatens b3 and X has no win. The guard blocks; so do the weights, as they
     * always do against a single threat: column b (two O) is the only window of weight -6. */
    assert_move("heuristic:guard=1", "3x3", "xo./.o./..x", "b3");
    assert_move("heuristic:guard=0", "3x3", "xo./.o./..x", "b3");
}

/* Under misère the guard keeps the engine off its own line while another move exists. */
static void test_misere_guard_avoids_own_line(void **state)
{
    (void)state;
    /* xox/oxo/... X to move; a3 and c3 would complete X's diagonals (a loss), b3 is safe. Columns a, b and c
     * hold one O and an empty cell: -3 each, the lowest (row 3 and the full diagonals weigh 0). Flattened
     * empty cells: a3 | b3 | c3, once each: the blog's player takes a3 and loses at once. */
    assert_move("heuristic:guard=0", "3x3-misere", "xox/oxo/...", "a3");
    assert_move("heuristic:guard=1", "3x3-misere", "xox/oxo/...", "b3");
    /* xox/oo./x.x X to move: both c2 and b3 complete a line of X's; with no safe move the weights decide. */
    assert_move("heuristic:guard=1", "3x3-misere", "xox/oo./x.x", "b3");
}

/* --- Always a legal move ------------------------------------------------------------------------------- */

#define RANDOM_GAMES 12

static void test_legal_moves_in_random_games(void **state)
{
    (void)state;
    static const char *const rules[] = {"3x3",        "4x4k3",        "7x6k4",        "15x15k5",
                                        "3x3-misere", "4x4k3-misere", "5x5k4-misere", "3x5k5"};
    static const char *const specs[] = {"heuristic:guard=0", "heuristic:guard=1"};
    for (size_t ri = 0; ri < sizeof rules / sizeof rules[0]; ri++)
        for (size_t si = 0; si < 2; si++)
            for (int game = 0; game < RANDOM_GAMES; game++) {
                ttt_rules r = rules_of(rules[ri]);
                ttt_engine *h = engine_of(specs[si], &r);
                char spec[32];
                snprintf(spec, sizeof spec, "random:seed=%d", game);
                ttt_engine *rnd = engine_of(spec, &r);
                /* Even games the engine is X, odd games O; every third game it plays itself. */
                ttt_engine *side[2] = {game % 2 ? rnd : h, game % 2 ? h : rnd};
                if (game % 3 == 0)
                    side[0] = side[1] = h;
                ttt_board b;
                ttt_board_init(&b, &r);
                while (!ttt_board_terminal(&b)) {
                    ttt_engine *e = side[ttt_board_to_move(&b)];
                    ttt_move m = e == h ? choose(h, &b) : TTT_NO_MOVE;
                    if (e != h)
                        assert_int_equal(ttt_engine_choose(rnd, &b, &m, NULL, NULL), TTT_OK);
                    ttt_board_play(&b, m);
                }
                ttt_engine_free(h);
                ttt_engine_free(rnd);
            }
}

/* seed= is accepted and changes nothing; the same position gives the same move. */
static void test_deterministic_seed_ignored(void **state)
{
    (void)state;
    ttt_rules r = rules_of("7x6k4");
    ttt_engine *a = engine_of("heuristic:seed=1", &r), *b = engine_of("heuristic:seed=2", &r);
    char spec[TTT_SPEC_TEXT_SIZE];
    assert_string_equal(ttt_engine_spec(b, spec, sizeof spec), "heuristic:seed=2,guard=0");
    ttt_board pos;
    ttt_board_init(&pos, &r);
    while (!ttt_board_terminal(&pos)) {
        ttt_move m = choose(a, &pos);
        assert_int_equal(choose(b, &pos), m);
        ttt_board_play(&pos, m);
    }
    assert_int_equal(ttt_engine_nodes(a), pos.ply);
    ttt_engine_free(a);
    ttt_engine_free(b);
}

/* --- Bad specs ----------------------------------------------------------------------------------------- */

static void assert_spec_fails(const char *spec, const char *culprit)
{
    ttt_rules r = ttt_rules_default();
    ttt_engine *e = NULL;
    ttt_error err;
    assert_int_equal(ttt_engine_new(spec, &r, &e, &err), TTT_EINVAL);
    assert_null(e);
    if (!strstr(err.msg, "engine 'heuristic'") || !strstr(err.msg, culprit)) {
        print_error("'%s': message \"%s\" does not name the engine and \"%s\"\n", spec, err.msg, culprit);
        fail();
    }
}

static void test_bad_specs(void **state)
{
    (void)state;
    assert_spec_fails("heuristic:guard=2", "guard=2");
    assert_spec_fails("heuristic:foo=1", "'foo'");
    assert_spec_fails("heuristic:guard=-1", "guard=-1");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_guard0_loses_as_x_and_as_o),
        cmocka_unit_test(test_guard1_unbeaten_as_x_only),
        cmocka_unit_test(test_misere_records),
        cmocka_unit_test(test_shortest_losing_lines),
        cmocka_unit_test(test_centre_first),
        cmocka_unit_test(test_frequency_table_by_hand),
        cmocka_unit_test(test_misere_guard_avoids_own_line),
        cmocka_unit_test(test_legal_moves_in_random_games),
        cmocka_unit_test(test_deterministic_seed_ignored),
        cmocka_unit_test(test_bad_specs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
