/*
 * test_tactics.c - engines/tactics: win now, else block now, and the moves that lose at once, on board
 * diagrams, and against a plain scan of ttt_board on random positions under normal and misère rules.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engines/tactics.h"
#include "ttt/ttt.h"
#include "support.h"

/* Random positions checked per rules. */
#define RANDOM_POSITIONS 2000

/* The moves of the side to move whose play leaves `winner` the winner, by playing each on a copy. */
static int winning_plays(const ttt_board *b, ttt_player winner, ttt_move *out)
{
    ttt_move moves[TTT_MAX_CELLS];
    int n = ttt_board_moves(b, moves), found = 0;
    for (int i = 0; i < n; i++) {
        ttt_board next = *b;
        ttt_board_play(&next, moves[i]);
        if (ttt_board_winner(&next) == winner)
            out[found++] = moves[i];
    }
    return found;
}

/* tactics_win_or_block on a 3x3 diagram: the kind and the cells (a string of cell digits, in order). */
static void expect_win_or_block(const char *position, tactics_kind kind, const char *cells)
{
    ttt_rules r = rules_of("3x3");
    ttt_board b = board_of(&r, position);
    ttt_move out[TTT_MAX_CELLS];
    int n;
    assert_int_equal(tactics_win_or_block(&b, out, &n), kind);
    assert_int_equal(n, (int)strlen(cells));
    for (int i = 0; i < n; i++)
        assert_int_equal(out[i], cells[i] - '0');
}

static void test_win_comes_before_block(void **state)
{
    (void)state;
    /* X to move: X wins at c1 (top row) or c3 (diagonal); O's threat at c3 does not count first. */
    expect_win_or_block("xx./.xo/oo.", TACTICS_WIN, "28");
    /* O to move cannot win: X's three lines to block, in cell order. */
    expect_win_or_block("xx./ox./o..", TACTICS_BLOCK, "278");
    expect_win_or_block("x../.o./...", TACTICS_NONE, "");
}

static void test_misere_has_no_win_and_marks_losing_moves(void **state)
{
    (void)state;
    ttt_rules r = rules_of("3x3-misere");
    ttt_move out[TTT_MAX_CELLS];
    int n;
    ttt_board b = board_of(&r, "xx./..o/o..");
    assert_int_equal(tactics_win_or_block(&b, out, &n), TACTICS_NONE);
    assert_int_equal(tactics_threats(&b, TTT_X, out), 0);
    ttt_bits losing;
    assert_int_equal(tactics_losing(&b, &losing), 1); /* X completing the top row loses */
    assert_true(ttt_bits_test(&losing, 2));
    ttt_bits mine, theirs;
    tactics_lines(&b, &mine, &theirs); /* the lines themselves, whatever they mean */
    assert_true(ttt_bits_test(&mine, 2));
    assert_int_equal(ttt_bits_count(&mine), 1);
    assert_int_equal(ttt_bits_count(&theirs), 0);
}

/* On random ongoing positions the lists agree with playing each move on a board. */
static void check_random(const char *rules_text, uint64_t seed)
{
    ttt_rules r = rules_of(rules_text);
    ttt_rng rng;
    ttt_rng_seed(&rng, seed);
    for (int i = 0; i < RANDOM_POSITIONS; i++) {
        ttt_board b;
        ttt_board_init(&b, &r);
        int plies = (int)ttt_rng_below(&rng, (uint32_t)b.cells);
        ttt_move moves[TTT_MAX_CELLS];
        for (int n; b.ply < plies && (n = ttt_board_moves(&b, moves)) > 0;) {
            ttt_board next = b;
            ttt_board_play(&next, moves[ttt_rng_below(&rng, (uint32_t)n)]);
            if (ttt_board_terminal(&next))
                break;
            b = next;
        }
        ttt_player me = ttt_board_to_move(&b), opp = (ttt_player)(1 - me);
        ttt_move got[TTT_MAX_CELLS], want[TTT_MAX_CELLS];
        int n, wins = winning_plays(&b, me, want);
        tactics_kind kind = tactics_win_or_block(&b, got, &n);
        if (wins) {
            assert_int_equal(kind, TACTICS_WIN);
            assert_int_equal(n, wins);
            assert_memory_equal(got, want, (size_t)n * sizeof *got);
            continue;
        }
        int blocks = 0, losses = winning_plays(&b, opp, want);
        for (int c = 0; c < b.cells; c++)
            if (ttt_board_is_legal(&b, c) && ttt_rules_line_wins(&r) && ttt_board_makes_line(&b, opp, c))
                want[blocks++] = c;
        assert_int_equal(kind, blocks ? TACTICS_BLOCK : TACTICS_NONE);
        assert_int_equal(n, blocks);
        assert_memory_equal(got, want, (size_t)n * sizeof *got);
        ttt_bits losing;
        assert_int_equal(tactics_losing(&b, &losing), losses);
    }
}

static void test_agrees_with_the_board(void **state)
{
    (void)state;
    check_random("3x3", 1);
    check_random("4x4k3", 2);
    check_random("3x3-misere", 3);
    check_random("5x5k4-misere", 4);
    check_random("7x6k4", 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_win_comes_before_block),
        cmocka_unit_test(test_misere_has_no_win_and_marks_losing_moves),
        cmocka_unit_test(test_agrees_with_the_board),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
