/*
 * test_threats.c - search/threats: five-cells agree with the board's own line test, shapes of hand-made
 * lines, VCF on known positions, every VCF found replayed against every defence, and the search's yes/no
 * compared with a plain VCF search written here on ttt_board alone (no windows, no table) on random
 * positions.
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

/* Random positions per board in the comparisons, and the plies they are taken after. */
#define SAMPLES   250
#define MIN_PLIES 8
#define MAX_PLIES 34
/* The plain search gives up beyond this many nodes (the sample is then skipped and counted). */
#define BRUTE_NODES 200000
/* The budget of the search run first on each random position, to leave some unsettled. */
#define CUT_BUDGET 3
/* The VCT check against the solver: positions, the solver's node cap, the search's limits. */
#define SOLVER_SAMPLES 150
#define SOLVER_NODES   200000
#define VCT_THREES     3
#define VCT_PLIES      12
#define VCT_BUDGET     200000

static ttt_threats *threats_of(const ttt_board *b)
{
    ttt_threats *t = malloc(sizeof *t);
    const ttt_lines *lines;
    assert_non_null(t);
    assert_int_equal(ttt_lines_new(&b->rules, &lines, NULL), TTT_OK);
    ttt_threats_init(t, lines);
    ttt_lines_unref(lines);
    ttt_threats_set(t, b);
    return t;
}

static void threats_free(ttt_threats *t)
{
    ttt_threats_done(t);
    free(t);
}

/* A random ongoing position: stones placed next to earlier ones (king distance 1), so that lines form. */
static bool random_position(const ttt_rules *r, ttt_rng *rng, int plies, ttt_board *out)
{
    ttt_board b;
    ttt_board_init(&b, r);
    for (int p = 0; p < plies; p++) {
        ttt_move cand[TTT_MAX_CELLS];
        int n = 0;
        for (int c = 0; c < b.cells; c++) {
            if (!ttt_board_is_legal(&b, c))
                continue;
            bool near = b.ply == 0;
            int row = c / r->cols, col = c % r->cols;
            for (int dr = -1; dr <= 1 && !near; dr++)
                for (int dc = -1; dc <= 1 && !near; dc++) {
                    int r2 = row + dr, c2 = col + dc;
                    near = r2 >= 0 && r2 < r->rows && c2 >= 0 && c2 < r->cols &&
                           ttt_board_at(&b, r2 * r->cols + c2) != TTT_NOBODY;
                }
            if (near)
                cand[n++] = c;
        }
        if (n == 0)
            return false;
        ttt_move m = cand[ttt_rng_below(rng, (uint32_t)n)];
        ttt_board_play(&b, m);
        if (ttt_board_terminal(&b))
            return false;
    }
    *out = b;
    return true;
}

/* The distinct empty cells where who makes a line (up to max), by the board's own test. */
static int board_fives(const ttt_board *b, ttt_player who, int *out, int max)
{
    int n = 0;
    for (int c = 0; c < b->cells && n < max; c++)
        if (ttt_board_at(b, c) == TTT_NOBODY && ttt_board_makes_line(b, who, c))
            out[n++] = c;
    return n;
}

static void test_fives_agree_with_the_board(void **state)
{
    (void)state;
    const char *rules[] = {"15x15k5", "9x9k5", "6x9k4", "7x7k4", "8x5k4"};
    ttt_rng rng;
    ttt_rng_seed(&rng, 16);
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        ttt_rules r = rules_of(rules[i]);
        int checked = 0;
        for (int s = 0; s < SAMPLES / 4; s++) {
            ttt_board b;
            if (!random_position(&r, &rng, MIN_PLIES + (int)ttt_rng_below(&rng, MAX_PLIES - MIN_PLIES), &b))
                continue;
            ttt_threats *t = threats_of(&b);
            for (int who = 0; who < 2; who++) {
                int want[TTT_MAX_CELLS], got[TTT_MAX_CELLS];
                int nw = board_fives(&b, (ttt_player)who, want, TTT_MAX_CELLS);
                int ng = ttt_threats_fives(t, (ttt_player)who, got, TTT_MAX_CELLS);
                assert_int_equal(nw, ng);
                for (int a = 0; a < nw; a++) {
                    bool found = false;
                    for (int g = 0; g < ng; g++)
                        found |= got[g] == want[a];
                    assert_true(found);
                }
                checked += nw;
            }
            threats_free(t);
        }
        assert_true(checked > 0); /* some positions had a five-cell */
    }
}

static void test_shapes(void **state)
{
    (void)state;
    ttt_rules r = rules_of("15x15k5");
    ttt_shape sh;
    /* X: f8 g8 h8 (open), O far away. i8 makes an open four, e8 too; j8 a four (broken), d8 an open three's
     * extension... */
    ttt_board b = board_of(&r, "f8 a1 g8 a3 h8 a5");
    ttt_threats *t = threats_of(&b);
    ttt_move m;
    ttt_error err;
    assert_int_equal(ttt_move_parse("i8", &r, &m, &err), TTT_OK);
    ttt_threats_shape(t, m, TTT_X, &sh);
    assert_int_equal(sh.dir[0], TTT_SHAPE_OPEN_FOUR);
    assert_int_equal(sh.kinds[TTT_SHAPE_OPEN_FOUR], 1);
    assert_int_equal(ttt_move_parse("j8", &r, &m, &err), TTT_OK);
    ttt_threats_shape(t, m, TTT_X, &sh);
    assert_int_equal(sh.dir[0], TTT_SHAPE_FOUR);
    /* for O the same cell blocks but makes nothing along the row */
    ttt_threats_shape(t, m, TTT_O, &sh);
    assert_int_equal(sh.dir[0], TTT_SHAPE_NONE);
    /* a column of two X stones with room: a third makes an open three */
    threats_free(t);
    b = board_of(&r, "h8 a1 h9 a3");
    t = threats_of(&b);
    assert_int_equal(ttt_move_parse("h10", &r, &m, &err), TTT_OK);
    ttt_threats_shape(t, m, TTT_X, &sh);
    assert_int_equal(sh.dir[1], TTT_SHAPE_OPEN_THREE);
    /* against the edge: three in a row at a1-a3 with a4 played is a four, not open */
    threats_free(t);
    b = board_of(&r, "a1 h8 a2 h9 a3 j7");
    t = threats_of(&b);
    assert_int_equal(ttt_move_parse("a4", &r, &m, &err), TTT_OK);
    ttt_threats_shape(t, m, TTT_X, &sh);
    assert_int_equal(sh.dir[1], TTT_SHAPE_FOUR);
    threats_free(t);
}

/* Replays line against every defence: each attacker move of the line is legal and makes a four (or the
 * line), and every defender reply either is the line's next move, or loses at once to a line of the
 * attacker's; the defender never makes a line. */
static void verify_vcf(const ttt_board *start, const int *line, int length)
{
    ttt_board b = *start;
    ttt_player a = ttt_board_to_move(&b), d = (ttt_player)(1 - a);
    assert_true(length >= 1 && length % 2 == 1);
    for (int i = 0; i < length; i += 2) {
        assert_true(ttt_board_is_legal(&b, line[i]));
        if (i == length - 1) {
            assert_true(ttt_board_makes_line(&b, a, line[i]));
            return;
        }
        ttt_board_play(&b, line[i]);
        assert_false(ttt_board_terminal(&b));
        for (int r = 0; r < b.cells; r++) {
            if (!ttt_board_is_legal(&b, r))
                continue;
            assert_false(ttt_board_makes_line(&b, d, r)); /* the defender cannot win first */
            if (r == line[i + 1])
                continue;
            ttt_board_play(&b, r);
            int f[1];
            assert_int_equal(board_fives(&b, a, f, 1), 1); /* any other reply loses at once */
            ttt_board_undo(&b, r);
        }
        assert_true(ttt_board_is_legal(&b, line[i + 1]));
        ttt_board_play(&b, line[i + 1]);
    }
    fail(); /* the line must end with the attacker's line */
}

/* A plain VCF search on ttt_board: the same definition as threats.h, nothing shared with it. 1 win, 0 none,
 * -1 gave up. */
static int brute_vcf(ttt_board *b, ttt_player a, int forced, long *nodes)
{
    ttt_player d = (ttt_player)(1 - a);
    if (++*nodes > BRUTE_NODES)
        return -1;
    for (int m = 0; m < b->cells; m++) {
        if ((forced >= 0 && m != forced) || !ttt_board_is_legal(b, m))
            continue;
        ttt_board_play(b, m);
        int f[2], g[2], r = 0;
        int nf = board_fives(b, a, f, 2);
        if (nf >= 2) {
            r = 1;
        } else if (nf == 1) {
            ttt_board_play(b, f[0]);
            int ng = board_fives(b, d, g, 2);
            r = ng >= 2 ? 0 : brute_vcf(b, a, ng == 1 ? g[0] : -1, nodes);
            ttt_board_undo(b, f[0]);
        }
        ttt_board_undo(b, m);
        if (r)
            return r;
    }
    return 0;
}

static int brute_root(const ttt_board *start, long *nodes)
{
    ttt_board b = *start;
    ttt_player a = ttt_board_to_move(&b);
    int f[2];
    if (board_fives(&b, a, f, 1))
        return 1;
    int nd = board_fives(&b, (ttt_player)(1 - a), f, 2);
    if (nd >= 2)
        return 0;
    return brute_vcf(&b, a, nd == 1 ? f[0] : -1, nodes);
}

static void test_vcf_random_positions(void **state)
{
    (void)state;
    const char *rules[] = {"9x9k5", "8x8k4", "7x9k4"};
    ttt_rng rng;
    ttt_rng_seed(&rng, 160);
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        ttt_rules r = rules_of(rules[i]);
        int wins = 0, nones = 0, skipped = 0, cuts = 0;
        for (int s = 0; s < SAMPLES; s++) {
            ttt_board b;
            if (!random_position(&r, &rng, MIN_PLIES + (int)ttt_rng_below(&rng, MAX_PLIES - MIN_PLIES), &b))
                continue;
            ttt_threats *t = threats_of(&b);
            int line[TTT_MAX_CELLS], length;
            /* a search cut short by its budget first: what it left unsettled must not count as settled */
            ttt_threats_result cut = ttt_threats_vcf(t, ttt_board_to_move(&b), CUT_BUDGET, line, &length);
            ttt_threats_result res = ttt_threats_vcf(t, ttt_board_to_move(&b), 0, line, &length);
            assert_int_not_equal(res, TTT_THREATS_UNKNOWN); /* no budget */
            assert_true(cut == TTT_THREATS_UNKNOWN || cut == res);
            cuts += cut == TTT_THREATS_UNKNOWN;
            /* the position is unchanged */
            ttt_threats *fresh = threats_of(&b);
            assert_memory_equal(t->count, fresh->count, sizeof t->count);
            assert_memory_equal(t->fours, fresh->fours, sizeof t->fours);
            assert_true(t->hash == fresh->hash);
            threats_free(fresh);
            long nodes = 0;
            int want = brute_root(&b, &nodes);
            if (want < 0) {
                skipped++;
            } else if (want != (res == TTT_THREATS_WIN)) {
                char text[TTT_MAX_CELLS * 2];
                ttt_position_format(&b, text, sizeof text);
                print_error("%s %s: threats says %d, the plain search %d\n", rules[i], text, res, want);
                fail();
            }
            if (res == TTT_THREATS_WIN) {
                verify_vcf(&b, line, length);
                wins++;
            } else {
                nones++;
            }
            threats_free(t);
        }
        print_message("%s: %d VCF, %d none, %d too big for the plain search\n", rules[i], wins, nones,
                      skipped);
        assert_true(wins > 0 && nones > 0 && cuts > 0);
        assert_true(skipped < wins + nones);
    }
}

/* Does the side to move of b have a cell giving it two five-cells or more while the other side has none? */
static bool has_open_four_move(const ttt_board *b)
{
    ttt_player me = ttt_board_to_move(b), other = (ttt_player)(1 - me);
    int f[2];
    if (board_fives(b, other, f, 1))
        return false;
    for (int c = 0; c < b->cells; c++) {
        if (ttt_board_at(b, c) != TTT_NOBODY)
            continue;
        ttt_board next = *b;
        ttt_board_play(&next, c);
        if (!ttt_board_terminal(&next) && board_fives(&next, me, f, 2) == 2 &&
            !board_fives(&next, other, f, 1))
            return true;
    }
    return false;
}

/* ttt_threats_defences on b: -1 when the side not to move has no open-four cell; else a set outside which
 * every move of the side to move lets that side make its open four while the mover has no five-cell,
 * checked by playing every such move on the board. Returns whether there was a set. */
static bool check_defences_at(const ttt_board *b, const char *rules)
{
    ttt_player a = (ttt_player)(1 - ttt_board_to_move(b));
    ttt_threats *t = threats_of(b);
    int out[TTT_MAX_CELLS], n = ttt_threats_defences(t, a, out);
    threats_free(t);
    if (n < 0)
        return false;
    assert_true(n > 0);
    bool in_set[TTT_MAX_CELLS] = {false};
    for (int j = 0; j < n; j++) {
        assert_int_equal(ttt_board_at(b, out[j]), TTT_NOBODY);
        in_set[out[j]] = true;
    }
    for (int c = 0; c < b->cells; c++) {
        if (ttt_board_at(b, c) != TTT_NOBODY || in_set[c])
            continue;
        ttt_board next = *b;
        ttt_board_play(&next, c);
        if (!has_open_four_move(&next)) {
            char text[TTT_MAX_CELLS * 2];
            ttt_position_format(b, text, sizeof text);
            print_error("%s %s: cell %d is outside the defences but stops the open four\n", rules, text, c);
            fail();
        }
    }
    return true;
}

/* check_defences_at on random positions without a five-cell for either side; both cases must occur. */
static void test_defences(void **state)
{
    (void)state;
    static const char *const boards[] = {"9x9k5", "15x15k5", "8x8k4", NULL};
    for (const char *const *name = boards; *name; name++) {
        ttt_rng rng;
        ttt_rng_seed(&rng, 3131);
        ttt_rules r = rules_of(*name);
        int counts[2] = {0, 0}; /* positions without a set, with one */
        for (int s = 0; s < SAMPLES; s++) {
            ttt_board b;
            int plies = MIN_PLIES + (int)ttt_rng_below(&rng, MAX_PLIES - MIN_PLIES), f[2];
            if (random_position(&r, &rng, plies, &b) && !board_fives(&b, TTT_X, f, 1) &&
                !board_fives(&b, TTT_O, f, 1))
                counts[check_defences_at(&b, *name)]++;
        }
        print_message("%s: %d positions with defences, %d without\n", *name, counts[1], counts[0]);
        assert_true(counts[0] > 0 && counts[1] > 0);
    }
}

/* The exact value of b for the side to move within SOLVER_NODES, or 2 when not proven. */
static int solved(ttt_solver *solver, const ttt_board *b)
{
    ttt_limits limits = {.nodes = SOLVER_NODES};
    ttt_value_result v;
    ttt_error err;
    assert_int_equal(ttt_solver_value_within(solver, b, &limits, &v, &err), TTT_OK);
    return v.proven ? (int)v.value : 2;
}

/* Every VCT found on small boards is a win by the exact solver (where it proves the position within its
 * budget), and so is its first move; the VCT finds every VCF the VCF search finds, and more. */
static void test_vct_against_the_solver(void **state)
{
    (void)state;
    const char *rules[] = {"7x7k5", "6x7k4"};
    ttt_rng rng;
    ttt_rng_seed(&rng, 1616);
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        ttt_rules r = rules_of(rules[i]);
        ttt_solver *solver;
        ttt_error err;
        assert_int_equal(ttt_solver_new(&r, 16, &solver, &err), TTT_OK);
        int vcts = 0, vcfs = 0, proven = 0;
        for (int s = 0; s < SOLVER_SAMPLES; s++) {
            ttt_board b;
            if (!random_position(&r, &rng, MIN_PLIES + (int)ttt_rng_below(&rng, VCT_PLIES), &b))
                continue;
            ttt_threats *t = threats_of(&b);
            ttt_player me = ttt_board_to_move(&b);
            int line[TTT_MAX_CELLS], length, first = -1;
            ttt_threats_result vcf = ttt_threats_vcf(t, me, 0, line, &length);
            ttt_threats_result vct = ttt_threats_vct(t, me, VCT_THREES, VCT_BUDGET, &first);
            if (vcf == TTT_THREATS_WIN)
                assert_int_equal(vct, TTT_THREATS_WIN);
            vcfs += vcf == TTT_THREATS_WIN;
            if (vct == TTT_THREATS_WIN) {
                vcts++;
                ttt_board after = b;
                assert_true(ttt_board_is_legal(&after, first));
                ttt_board_play(&after, first);
                int v = solved(solver, &b);
                int w = ttt_board_terminal(&after) ? -1 : solved(solver, &after);
                if (v != 2 && w != 2) {
                    proven++;
                    if (v != TTT_WIN || w != TTT_LOSS) {
                        char text[TTT_MAX_CELLS * 2];
                        ttt_position_format(&b, text, sizeof text);
                        print_error("%s %s: VCT from %d, but the solver says %d (after it %d)\n", rules[i],
                                    text, first, v, w);
                        fail();
                    }
                }
            }
            threats_free(t);
        }
        print_message("%s: %d VCT (%d of them VCF), %d proven by the solver\n", rules[i], vcts, vcfs, proven);
        assert_true(vcts > vcfs && proven > vcts / 2);
        ttt_solver_free(solver);
    }
}

typedef struct vcf_fixture {
    const char *rules;
    const char *moves;
    int want; /* 1 a VCF for the side to move, 0 none */
    int length;
} vcf_fixture;

static const vcf_fixture vcf_fixtures[] = {
    /* X: e5 f5 g5 closed by d5, h2 h3 h4 closed by h1: h5 is a double four (length 3). X to move. */
    {"15x15k5", "e5 d5 f5 h1 g5 a15 h2 o15 h3 o1 h4 a14", 1, 3},
    /* the same without h4: no double four; h5 is a four, and after i5 the column has only three */
    {"15x15k5", "e5 d5 f5 h1 g5 a15 h2 o15 h3 o1", 0, 0},
    /* one closed three only: fours that are blocked and nothing after */
    {"15x15k5", "e5 d5 f5 a15 g5 o15", 0, 0},
    /* two fours in a row first: X c3 d4 e5 (closed by b2) and f9 g9 h9 (closed by e9), f6 joins g6 h6. */
    {"15x15k5", "c3 b2 d4 e9 e5 a15 f9 o15 g9 o1 h9 a14", 0, 0},
    /* O to move wins at once with its four (length 1). */
    {"15x15k5", "h8 a1 i8 a2 j8 a3 k8 a4 a10", 1, 1},
    /* X to move must block O's four first (c1 is the only move), which is no four of X's: no VCF */
    {"15x15k5", "h8 a1 i8 a2 j8 a3 b15 a4", 0, 0},
};

static void test_vcf_fixtures(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof vcf_fixtures / sizeof vcf_fixtures[0]; i++) {
        const vcf_fixture *f = &vcf_fixtures[i];
        ttt_rules r = rules_of(f->rules);
        ttt_board b = board_of(&r, f->moves);
        ttt_threats *t = threats_of(&b);
        int line[TTT_MAX_CELLS], length;
        ttt_threats_result res = ttt_threats_vcf(t, ttt_board_to_move(&b), 0, line, &length);
        long nodes = 0;
        int plain = brute_root(&b, &nodes);
        if ((res == TTT_THREATS_WIN) != f->want || plain != f->want) {
            print_error("%s %s: threats %d, plain %d, expected %d\n", f->rules, f->moves, res, plain,
                        f->want);
            fail();
        }
        if (f->want) {
            assert_int_equal(length, f->length);
            verify_vcf(&b, line, length);
        }
        threats_free(t);
    }
}

/* A budget of one node cannot settle a position with fours to try; an unlimited one can. */
static void test_vcf_budget(void **state)
{
    (void)state;
    ttt_rules r = rules_of("15x15k5");
    ttt_board b = board_of(&r, "c3 b2 d4 e9 e5 a15 f9 o15 g9 o1 h9 a14");
    ttt_threats *t = threats_of(&b);
    int line[TTT_MAX_CELLS], length;
    assert_int_equal(ttt_threats_vcf(t, TTT_X, 1, line, &length), TTT_THREATS_UNKNOWN);
    assert_int_equal(length, 0);
    assert_int_equal(ttt_threats_vcf(t, TTT_X, 0, line, &length), TTT_THREATS_NONE);
    threats_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fives_agree_with_the_board),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_vcf_fixtures),
        cmocka_unit_test(test_vcf_budget),
        cmocka_unit_test(test_vcf_random_positions),
        cmocka_unit_test(test_vct_against_the_solver),
        cmocka_unit_test(test_defences),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
