"""ttt.play: a student's own move function against the library's engines, and what happens when it fails."""

import math
import random

import pytest

import ttt

# --- A student's tictactoe.py, as CS50 AI's students write it (plain Python, nothing from ttt) ----------

X = "X"
O = "O"
EMPTY = None


def player(board):
    xs = sum(row.count(X) for row in board)
    os_ = sum(row.count(O) for row in board)
    return X if xs == os_ else O


def actions(board):
    return {(i, j) for i in range(3) for j in range(3) if board[i][j] == EMPTY}


def result(board, action):
    i, j = action
    if board[i][j] != EMPTY:
        raise Exception("invalid action")
    new = [row[:] for row in board]
    new[i][j] = player(board)
    return new


def winner(board):
    lines = [[(i, 0), (i, 1), (i, 2)] for i in range(3)] + [[(0, j), (1, j), (2, j)] for j in range(3)]
    lines += [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]]
    for line in lines:
        a, b, c = (board[i][j] for i, j in line)
        if a is not None and a == b == c:
            return a
    return None


def terminal(board):
    return winner(board) is not None or all(cell != EMPTY for row in board for cell in row)


def utility(board):
    return {X: 1, O: -1, None: 0}[winner(board)]


def minimax(board):
    """The optimal action for the current player, with alpha-beta pruning."""
    if terminal(board):
        return None

    def max_value(board, alpha, beta):
        if terminal(board):
            return utility(board)
        v = -math.inf
        for action in actions(board):
            v = max(v, min_value(result(board, action), alpha, beta))
            alpha = max(alpha, v)
            if alpha >= beta:
                break
        return v

    def min_value(board, alpha, beta):
        if terminal(board):
            return utility(board)
        v = math.inf
        for action in actions(board):
            v = min(v, max_value(result(board, action), alpha, beta))
            beta = min(beta, v)
            if alpha >= beta:
                break
        return v

    best = None
    if player(board) == X:
        best_v = -math.inf
        for action in sorted(actions(board)):
            v = min_value(result(board, action), -math.inf, math.inf)
            if v > best_v:
                best_v, best = v, action
    else:
        best_v = math.inf
        for action in sorted(actions(board)):
            v = max_value(result(board, action), -math.inf, math.inf)
            if v < best_v:
                best_v, best = v, action
    return best


# --- The tests -----------------------------------------------------------------------------------------


def test_student_minimax_draws_every_game_against_minimax():
    record = ttt.play(minimax, against="minimax", games=6)
    assert (record["wins"], record["draws"], record["losses"], record["errors"]) == (0, 6, 0, 0)
    games = record["games"]
    assert [g["you"] for g in games] == ["X", "O"] * 3
    for g in games:
        assert g["result"] == "draw" and g["error"] is None
        b = ttt.Board(moves=" ".join(g["moves"]))
        assert b.terminal and b.outcome == "draw" and b.position == g["position"]


def test_student_minimax_beats_or_draws_random_and_the_record_adds_up():
    record = ttt.play(minimax, against="random", games=6, seed=5)
    assert record["losses"] == 0
    assert record["wins"] + record["draws"] + record["losses"] == len(record["games"]) == 6
    for g in record["games"]:
        b = ttt.Board(moves=g["moves"])
        assert g["result"] == ("draw" if b.winner is None else "win" if b.winner == g["you"] else "loss")


def test_the_same_call_plays_the_same_games():
    def first_free(board):
        return min(actions(board))

    a = ttt.play(first_free, against="mcts:iterations=200", games=4, seed=9)
    b = ttt.play(first_free, against="mcts:iterations=200", games=4, seed=9)
    assert a == b
    assert ttt.play(first_free, against="mcts:iterations=200,seed=9", games=4, seed=1) == a


def test_moves_in_every_form_and_a_board_if_asked():
    seen = []

    def by_number(board):
        return sorted(actions(board))[0][0] * 3 + sorted(actions(board))[0][1]

    def by_text(board):
        seen.append(board)
        return board.name(board.moves()[-1])

    assert ttt.play(by_number, against="random", games=2)["errors"] == 0
    assert ttt.play(by_text, against="random", games=2, as_board=True)["errors"] == 0
    assert seen and all(isinstance(b, ttt.Board) for b in seen)


def test_other_rules_and_an_engine_object():
    def first_free(board):
        for i, row in enumerate(board):
            for j, cell in enumerate(row):
                if cell is None:
                    return (i, j)

    record = ttt.play(first_free, against=ttt.Engine("minimax:depth=2", "4x4k3"), games=2, rules="4x4k3")
    assert record["errors"] == 0 and len(record["games"]) == 2
    assert all(len(ttt.Board(rules="4x4k3", moves=g["moves"]).moves()) == 0 for g in record["games"])
    with pytest.raises(ValueError, match="the engine plays 4x4k3, not 3x3"):
        ttt.play(first_free, against=ttt.Engine("random", "4x4k3"), games=1)


def test_an_exception_is_reported_with_the_position_and_the_other_games_are_played():
    calls = []

    def buggy(board):
        calls.append(1)
        if sum(cell is not None for row in board for cell in row) >= 2:
            raise KeyError("oops")
        return min(actions(board))

    record = ttt.play(buggy, against="random", games=4)
    assert record["errors"] == 4 and record["losses"] == 4 and len(record["games"]) == 4
    for g in record["games"]:
        assert g["result"] == "loss"
        assert "raised KeyError: 'oops'" in g["error"] and "buggy" in g["error"] and "test_play.py" in g["error"]
        assert "position %s (%s to move)" % (g["position"], g["you"]) in g["error"]


@pytest.mark.parametrize(
    "move, message",
    [
        (None, "illegal move None"),
        ((5, 5), "row 5 is off the 3x3 board (a (row, col) pair counts from 0: rows 0-2)"),
        (99, "cell 99 is off the 3x3 board (cells 0-8)"),
        (-1, "cell -1 is off the 3x3 board"),
        (10**30, "off the 3x3 board"),
        ("z9", "z9"),
        (1.5, "illegal move 1.5"),
        ("b2\0", "NUL"),
    ],
)
def test_an_illegal_move_is_reported(move, message):
    record = ttt.play(lambda board: move, against="random", games=2)
    assert record["errors"] == 2
    g = record["games"][0]
    assert g["error"].startswith("game 0, move 1, position .../.../... (X to move): illegal move ")
    assert message in g["error"]


def test_a_taken_cell_is_reported():
    record = ttt.play(lambda board: (1, 1), against="minimax", games=2)
    assert record["errors"] == 2
    assert record["games"][0]["error"].endswith("illegal move (1, 1): cell b2 is taken")


def test_the_student_cannot_change_the_game_through_the_board():
    def vandal(board):
        move = min(actions(board))
        for row in board:
            for j in range(len(row)):
                row[j] = X
        return move

    record = ttt.play(vandal, against="minimax", games=2)
    assert record["errors"] == 0
    for g in record["games"]:
        assert ttt.Board(moves=g["moves"]).position == g["position"]


def test_keyboard_interrupt_is_not_swallowed():
    def stop(board):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        ttt.play(stop, games=1)


@pytest.mark.parametrize(
    "kwargs, error",
    [
        (dict(my_function=None), TypeError),
        (dict(my_function=minimax, games=0), ValueError),
        (dict(my_function=minimax, games=-3), ValueError),
        (dict(my_function=minimax, games=10**30), ValueError),
        (dict(my_function=minimax, games="2"), TypeError),
        (dict(my_function=minimax, seed=-1), ValueError),
        (dict(my_function=minimax, seed=2**64), ValueError),
        (dict(my_function=minimax, against=3), TypeError),
        (dict(my_function=minimax, against="nosuch"), ValueError),
        (dict(my_function=minimax, against="mcts:bogus=1"), ValueError),
        (dict(my_function=minimax, rules="3x3k5"), ValueError),
        (dict(my_function=minimax, rules=3), TypeError),
    ],
)
def test_bad_arguments(kwargs, error):
    with pytest.raises(error):
        ttt.play(**kwargs)


def test_a_random_student_never_beats_minimax():
    rng = random.Random(1)
    record = ttt.play(lambda board: rng.choice(sorted(actions(board))), against="minimax", games=20)
    assert record["wins"] == 0 and record["errors"] == 0 and record["losses"] > 0
