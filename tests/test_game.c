/* Unit tests for ttt/game.h: undo, and undo after the end reopening a finished game; a session whose engines
 * the client makes (ttt_game_new_unmade, ttt_game_set_engine) and taking back a number of moves. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
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

/* The web server's session: engines attached by the client, and undo by plies whoever played them. */
static void unmade_engines_are_attached_by_the_client(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_game *g;
    ttt_error err;
    assert_int_equal(ttt_game_new_unmade(&r, TTT_HUMAN, TTT_HUMAN, "hard", "minimax:seed=0", &g, &err),
                     TTT_OK);
    assert_int_equal(ttt_game_humans(g), 1);
    assert_true(ttt_game_is_human(ttt_game_side(g, TTT_X)));
    assert_false(ttt_game_is_human(ttt_game_side(g, TTT_O)));
    assert_string_equal(ttt_game_side(g, TTT_O)->who, "hard");
    assert_int_equal(ttt_game_play(g, 4, &err), TTT_OK);
    assert_null(ttt_game_engine_to_move(g)); /* an engine's turn, but none attached yet */
    ttt_engine *e;
    assert_int_equal(ttt_engine_new(ttt_game_side(g, TTT_O)->spec, &r, &e, &err), TTT_OK);
    assert_null(ttt_game_set_engine(g, TTT_O, e));
    assert_ptr_equal(ttt_game_engine_to_move(g), e);
    ttt_move m;
    assert_int_equal(ttt_engine_choose(e, &g->board, &m, NULL, &err), TTT_OK);
    assert_int_equal(ttt_game_play(g, m, &err), TTT_OK);
    /* ttt_game_undo takes back the person's move and the reply, as when the engine was made by the session. */
    assert_int_equal(ttt_game_undo(g), 2);
    assert_int_equal(g->count, 0);
    assert_int_equal(ttt_game_play(g, 4, &err), TTT_OK);
    assert_int_equal(ttt_game_play(g, 0, &err), TTT_OK);
    assert_int_equal(ttt_game_take_back(g, 3, &err), TTT_ESTATE);
    assert_non_null(strstr(err.msg, "cannot take back 3 moves: 2 played"));
    assert_int_equal(g->count, 2);
    assert_int_equal(ttt_game_take_back(g, 1, &err), TTT_OK); /* the engine's move alone */
    assert_int_equal(g->count, 1);
    assert_int_equal(ttt_board_to_move(&g->board), TTT_O);
    assert_ptr_equal(ttt_game_set_engine(g, TTT_O, NULL), e); /* detached: the caller frees it */
    ttt_engine_free(e);
    ttt_game_free(g);
    char long_spec[TTT_SPEC_TEXT_SIZE + 1];
    memset(long_spec, 'a', TTT_SPEC_TEXT_SIZE);
    long_spec[TTT_SPEC_TEXT_SIZE] = '\0';
    assert_int_equal(ttt_game_new_unmade(&r, TTT_HUMAN, TTT_HUMAN, "x", long_spec, &g, &err), TTT_EINVAL);
    assert_null(g);
}

/* Taking back the winning move reopens the game and takes it out of the score, as ttt_game_undo does. */
static void take_back_after_the_end_reopens_the_game(void **state)
{
    (void)state;
    ttt_game *g = won_by_x();
    ttt_error err;
    assert_int_equal(ttt_game_take_back(g, 2, &err), TTT_OK);
    assert_int_equal(g->count, 3);
    assert_int_equal(ttt_game_outcome(g), TTT_ONGOING);
    assert_int_equal(g->players[0].wins, 0);
    assert_int_equal(g->ended, 0);
    ttt_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(undo_after_the_end_reopens_the_game),
        cmocka_unit_test(undo_against_an_engine_after_its_win_takes_back_two_moves),
        cmocka_unit_test(unmade_engines_are_attached_by_the_client),
        cmocka_unit_test(take_back_after_the_end_reopens_the_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
