"""The functions of CS50 AI's tictactoe.py, backed by the C library.

A board is a list of three rows, each a list of three cells: X, O or EMPTY. An action is a (row, col) pair,
0 to 2 each, row 0 at the top. A student's runner.py or tests work with it in place of their tictactoe.py, which can be this one line:

    from ttt.cs50 import *

A board that is not three lists of three X, O or EMPTY raises TypeError or ValueError, as does an action
that is not a free cell of an unfinished game (result).
"""

from ._lib import ffi as _ffi, lib as _clib
from . import Rules, _best_move, _check

__all__ = ["X", "O", "EMPTY", "initial_state", "player", "actions", "result", "winner", "terminal", "utility",
           "minimax"]

X = "X"
O = "O"
EMPTY = None

_SIZE = 3
_RULES = Rules("3x3")
_SIDES = (X, O, EMPTY)  # indexed by ttt_player


def _c_board(board):
    """The library's board of a CS50 board (the stones as they are: see _valid for reachability)."""
    if not isinstance(board, (list, tuple)) or len(board) != _SIZE:
        raise _shape_error(board)
    bits = _ffi.new("ttt_bits[2]")
    for i, row in enumerate(board):
        if not isinstance(row, (list, tuple)) or len(row) != _SIZE:
            raise _shape_error(board)
        for j, cell in enumerate(row):
            if cell is EMPTY:
                continue
            if cell == X and isinstance(cell, str):
                side = 0
            elif cell == O and isinstance(cell, str):
                side = 1
            else:
                raise ValueError(
                    "board[%d][%d] is %r: expected X, O or EMPTY ('X', 'O' or None)" % (i, j, cell)
                )
            bits[side].w[0] |= 1 << (i * _SIZE + j)
    out = _ffi.new("ttt_board *")
    _clib.ttt_board_from_bits(out, _RULES._c, bits + 0, bits + 1)
    return out


def _shape_error(board):
    kind = type(board).__name__
    if isinstance(board, (list, tuple)):
        return ValueError("board: expected 3 rows of 3 cells, got %r" % (board,))
    return TypeError("board: expected a list of 3 lists of 3 cells, got %s" % kind)


def _lists(c):
    return [
        [_SIDES[_clib.ttt_board_at(c, i * _SIZE + j)] for j in range(_SIZE)] for i in range(_SIZE)
    ]


def initial_state():
    """Returns the starting state of the board."""
    return [[EMPTY] * _SIZE for _ in range(_SIZE)]


def player(board):
    """Returns the player who has the next turn on a board (X on a full board)."""
    return _SIDES[_c_board(board).ply & 1]


def actions(board):
    """Returns the set of all possible actions (i, j) available on the board (none once it is over)."""
    c = _c_board(board)
    out = _ffi.new("ttt_move[]", _SIZE * _SIZE)
    n = _clib.ttt_board_moves(c, out)
    return {divmod(out[i], _SIZE) for i in range(n)}


def result(board, action):
    """Returns the board that results from making move (i, j) on the board; the board itself is unchanged.
    ValueError when the action is not a free cell of an unfinished game."""
    c = _c_board(board)
    if (
        not isinstance(action, tuple)
        or len(action) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in action)
    ):
        raise ValueError("invalid action %r: expected a pair (i, j) of ints" % (action,))
    i, j = action
    if not (0 <= i < _SIZE and 0 <= j < _SIZE):
        raise ValueError("invalid action %r: off the 3x3 board" % (action,))
    out = _ffi.new("ttt_board *")
    err = _ffi.new("ttt_error *")
    status = _clib.ttt_board_result(c, i * _SIZE + j, out, err)
    if status != _clib.TTT_OK:
        raise ValueError(
            "invalid action %r: %s" % (action, _ffi.string(err.msg).decode("utf-8", "replace"))
        )
    return _lists(out)


def winner(board):
    """Returns the winner of the game (X or O), if there is one, else None."""
    return _SIDES[_clib.ttt_board_winner(_c_board(board))]


def terminal(board):
    """Returns True if the game is over, False otherwise."""
    c = _c_board(board)
    return c.line_owner != _clib.TTT_NOBODY or c.ply == c.cells


def utility(board):
    """Returns 1 if X has won the game, -1 if O has won, 0 otherwise."""
    return _clib.ttt_board_utility(_c_board(board))


def minimax(board):
    """Returns an optimal action (i, j) for the current player on the board, None on a finished board.
    The board must be reachable in a game (ValueError says why not)."""
    c = _c_board(board)
    err = _ffi.new("ttt_error *")
    _check(_clib.ttt_board_validate(c, err), err)
    if c.line_owner != _clib.TTT_NOBODY or c.ply == c.cells:
        return None
    return divmod(_best_move(c, _RULES), _SIZE)
