/* Unit tests for ttt/game.h: undo, and undo after the end reopening a finished game. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "ttt/ttt.h"

/* Two people; X plays a1 a2 a3 (cells 0, 3, 6), O b1 b2 (1, 4): X wins. */
static ttt_game *won_by_x(void)
{
    ttt_rules r = ttt_rules_default();
    ttt_game *g;
    ttt_error err;
    assert_int_equal(ttt_game_new(&r, TTT_HUMAN, TTT_HUMAN, 1, &g, &err), TTT_OK);
    const ttt_move moves[] = {0, 1, 3, 4, 6};
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++)
        assert_int_equal(ttt_game_play(g, moves[i], &err), TTT_OK);
    assert_int_equal(ttt_game_outcome(g), TTT_X_WINS);
    return g;
}

static void undo_after_the_end_reopens_the_game(void **state)
{
    (void)state;
    ttt_game *g = won_by_x();
    assert_int_equal(g->players[0].wins, 1);
    assert_int_equal(g->players[0].won_as[TTT_X], 1);
    assert_int_equal(g->players[1].lost_as[TTT_O], 1);
    assert_true(g->ended != 0);
    assert_int_equal(ttt_game_undo(g), 1);
    assert_int_equal(ttt_game_outcome(g), TTT_ONGOING);
    assert_int_equal(g->count, 4);
    assert_int_equal(g->players[0].wins, 0);
    assert_int_equal(g->players[0].won_as[TTT_X], 0);
    assert_int_equal(g->players[1].lost_as[TTT_O], 0);
    assert_int_equal(g->ended, 0);
    /* Played again, the win counts once more. */
    ttt_error err;
    assert_int_equal(ttt_game_play(g, 6, &err), TTT_OK);
    assert_int_equal(g->players[0].wins, 1);
    assert_int_equal(g->draws, 0);
    ttt_game_free(g);
}

static void undo_against_an_engine_after_its_win_takes_back_two_moves(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_game *g;
    ttt_error err;
    assert_int_equal(ttt_game_new(&r, TTT_HUMAN, "perfect", 1, &g, &err), TTT_OK);
    /* X plays the first free cell until the perfect O wins (it never loses; X's play here loses). */
    while (!ttt_board_terminal(&g->board)) {
        ttt_engine *e = ttt_game_engine_to_move(g);
        ttt_move m = 0;
        if (e)
            assert_int_equal(ttt_engine_choose(e, &g->board, &m, NULL, &err), TTT_OK);
        else
            while (ttt_board_at(&g->board, m) != TTT_NOBODY)
                m++;
        assert_int_equal(ttt_game_play(g, m, &err), TTT_OK);
    }
    assert_int_equal(ttt_game_outcome(g), TTT_O_WINS);
    assert_int_equal(g->players[1].wins, 1);
    int count = g->count;
    assert_int_equal(ttt_game_undo(g), 2);
    assert_int_equal(g->count, count - 2);
    assert_int_equal(g->players[1].wins, 0);
    assert_null(ttt_game_engine_to_move(g));
    ttt_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(undo_after_the_end_reopens_the_game),
        cmocka_unit_test(undo_against_an_engine_after_its_win_takes_back_two_moves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
