"""ttt.cs50, CS50 AI's tictactoe.py functions backed by libttt, over every reachable 3x3 position: against the
package's Board (the library's own view of the position) and against plain Python written here."""

import copy
import itertools
import functools

import pytest

import ttt
from ttt import cs50
from ttt.cs50 import EMPTY, O, X

LINES = [[(r, c) for c in range(3)] for r in range(3)] + [[(r, c) for r in range(3)] for c in range(3)]
LINES += [[(i, i) for i in range(3)], [(i, 2 - i) for i in range(3)]]


def key(board):
    return tuple(tuple(row) for row in board)


def ref_winner(board):
    for line in LINES:
        cells = {board[r][c] for r, c in line}
        if len(cells) == 1 and EMPTY not in cells:
            return cells.pop()
    return None


def ref_terminal(board):
    return ref_winner(board) is not None or all(cell is not EMPTY for row in board for cell in row)


def ref_player(board):
    flat = [cell for row in board for cell in row]
    return X if flat.count(X) == flat.count(O) else O


@functools.lru_cache(maxsize=None)
def ref_value(k):
    """The game's value for X with best play (+1, 0, -1), by plain minimax."""
    board = [list(row) for row in k]
    if ref_terminal(board):
        return {X: 1, O: -1, None: 0}[ref_winner(board)]
    side = ref_player(board)
    values = []
    for r in range(3):
        for c in range(3):
            if board[r][c] is EMPTY:
                board[r][c] = side
                values.append(ref_value(key(board)))
                board[r][c] = EMPTY
    return max(values) if side == X else min(values)


@pytest.fixture(scope="module")
def reachable():
    """Every position reachable from initial_state through actions and result."""
    seen = {}
    stack = [cs50.initial_state()]
    while stack:
        board = stack.pop()
        k = key(board)
        if k in seen:
            continue
        seen[k] = board
        for action in cs50.actions(board):
            stack.append(cs50.result(board, action))
    return seen


def to_text(board):
    return "/".join("".join({X: "x", O: "o", EMPTY: "."}[cell] for cell in row) for row in board)


def test_every_reachable_position_is_counted(reachable):
    assert len(reachable) == ttt.count("3x3")["positions"]["total"]


def test_initial_state():
    assert cs50.initial_state() == [[EMPTY] * 3 for _ in range(3)]
    a, b = cs50.initial_state(), cs50.initial_state()
    a[0][0] = X
    assert b[0][0] is EMPTY  # a new board each time


def test_functions_agree_with_the_library_and_plain_python(reachable):
    for k, board in reachable.items():
        lib_board = ttt.Board(to_text(board))
        terminal = cs50.terminal(board)
        assert terminal == ref_terminal(board) == lib_board.terminal, k
        assert cs50.winner(board) == ref_winner(board) == lib_board.winner, k
        assert cs50.utility(board) == {X: 1, O: -1, None: 0}[ref_winner(board)], k
        if terminal:
            assert cs50.actions(board) == set(), k
            assert cs50.minimax(board) is None, k
            continue
        assert cs50.player(board) == ref_player(board) == lib_board.to_move, k
        empties = {(r, c) for r in range(3) for c in range(3) if board[r][c] is EMPTY}
        assert cs50.actions(board) == empties == {divmod(m, 3) for m in lib_board.moves()}, k
        best = cs50.minimax(board)
        assert best in empties, k
        assert ref_value(key(cs50.result(board, best))) == ref_value(k), (k, best)


def test_result_makes_a_new_board(reachable):
    for k, board in list(reachable.items())[:500]:
        before = copy.deepcopy(board)
        for action in cs50.actions(board):
            after = cs50.result(board, action)
            assert board == before
            r, c = action
            assert after[r][c] == cs50.player(board)
            assert sum(after[i][j] != board[i][j] for i in range(3) for j in range(3)) == 1


@pytest.mark.parametrize(
    "action",
    [(0, 0), (3, 0), (0, 3), (-1, 0), (0, -1), (10**30, 0), (1,), (1, 1, 1), [1, 1], "b2", 4, None, (1.0, 1),
     (True, 1)],
)
def test_result_rejects_invalid_actions(action):
    board = [[X, EMPTY, EMPTY], [EMPTY, EMPTY, EMPTY], [EMPTY, EMPTY, EMPTY]]
    with pytest.raises(ValueError, match="invalid action"):
        cs50.result(board, action)
    assert board == [[X, EMPTY, EMPTY], [EMPTY, EMPTY, EMPTY], [EMPTY, EMPTY, EMPTY]]


def test_result_on_a_finished_game_raises():
    board = [[X, X, X], [O, O, EMPTY], [EMPTY, EMPTY, EMPTY]]
    with pytest.raises(ValueError, match="the game is over"):
        cs50.result(board, (2, 2))


@pytest.mark.parametrize(
    "board, error",
    [
        (None, TypeError),
        ("x........", TypeError),
        ([], ValueError),
        ([[EMPTY] * 3] * 2, ValueError),
        ([[EMPTY] * 4] * 3, ValueError),
        ([[EMPTY] * 3, [EMPTY] * 3, None], ValueError),
        ([[EMPTY] * 3, [EMPTY] * 3, [EMPTY, EMPTY, "x"]], ValueError),
        ([[EMPTY] * 3, [EMPTY] * 3, [EMPTY, EMPTY, 1]], ValueError),
        ([[EMPTY] * 3, [EMPTY] * 3, [EMPTY, EMPTY, "XX"]], ValueError),
    ],
)
def test_bad_boards(board, error):
    for fn in (cs50.player, cs50.actions, cs50.winner, cs50.terminal, cs50.utility, cs50.minimax):
        with pytest.raises(error):
            fn(board)
    with pytest.raises(error):
        cs50.result(board, (0, 0))


def test_minimax_refuses_unreachable_positions_with_the_reason():
    with pytest.raises(ValueError, match="stones"):
        cs50.minimax([[O, O, EMPTY], [EMPTY] * 3, [EMPTY] * 3])
    with pytest.raises(ValueError):
        cs50.minimax([[X, X, X], [O, O, O], [EMPTY] * 3])


def test_tuples_work_as_boards():
    board = ((X, EMPTY, EMPTY), (EMPTY, O, EMPTY), (EMPTY, EMPTY, EMPTY))
    assert cs50.player(board) == X
    assert cs50.result(board, (2, 2))[2][2] == X


def test_every_filling_of_the_board_raises_or_answers():
    """All 3^9 boards, reachable or not (nine X, O above X, two lines...): each function answers or raises
    ValueError; none reaches a contract the library asserts (the sanitizer build aborts on those)."""
    answered = refused = 0
    for cells in itertools.product((X, O, EMPTY), repeat=9):
        board = [list(cells[0:3]), list(cells[3:6]), list(cells[6:9])]
        assert cs50.player(board) in (X, O)
        assert cs50.winner(board) in (X, O, None)
        assert cs50.utility(board) in (1, 0, -1)
        assert cs50.terminal(board) in (True, False)
        for action in cs50.actions(board):
            assert len(cs50.result(board, action)) == 3
        try:
            best = cs50.minimax(board)
            answered += 1
        except ValueError as e:
            assert str(e)
            refused += 1
            continue
        assert best is None or best in cs50.actions(board)
    assert answered == ttt.count("3x3")["positions"]["total"] and answered + refused == 3**9


def test_a_one_line_tictactoe_py_has_exactly_the_cs50_functions():
    names = {}
    exec("from ttt.cs50 import *", names)
    names.pop("__builtins__")
    assert sorted(names) == sorted(["X", "O", "EMPTY", "initial_state", "player", "actions", "result", "winner",
                                    "terminal", "utility", "minimax"])
    assert (names["X"], names["O"], names["EMPTY"]) == ("X", "O", None)
