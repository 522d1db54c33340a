"""ttt: m,n,k-games (tic-tac-toe and beyond) from Python, over the C library libttt.

    >>> import ttt
    >>> board = ttt.Board(moves="b2 a1")
    >>> ttt.solve(board)["value"]          # for X, to move: "win", "draw" or "loss"
    'draw'

Rules("4x4k3-misere"), Board (from a position text or a move list), solve(board), count(rules),
Engine(spec, rules) with choose(board) and analyse(board), arena(specs, ...), and play(my_function, ...)
to play your own move function against an engine. ttt.cs50 has CS50 AI's tictactoe.py functions.

Moves are cell numbers in reading order (cell = row * cols + col, 0 at the top left); wherever a move is
taken, its text ("b2": column letter, row number from the top) or a (row, col) pair is accepted as well.
Bad input raises ValueError (TypeError for a wrong type) with the library's message; an outside engine
("cmd:path=...") that times out, crashes or breaks the protocol raises ttt.Forfeit (a RuntimeError).

Threads: the library runs without the GIL; a Board is safe to share (it has a lock). At exit, searches and
tournaments still running in daemon threads are stopped (their threads get SystemExit) and waited for.
"""

import atexit as _atexit
import collections as _collections
import os as _os
import threading as _threading
import time as _time

from ._lib import ffi as _ffi, lib as _clib
from . import _lib

__all__ = [
    "Rules",
    "Board",
    "Engine",
    "solve",
    "count",
    "arena",
    "play",
    "Forfeit",
    "engines",
    "levels",
    "X",
    "O",
]

__version__ = "0.1.0"

X = "X"
O = "O"
_SIDES = (X, O, None)  # indexed by ttt_player: TTT_X, TTT_O, TTT_NOBODY
_OUTCOMES = ("ongoing", X, O, "draw")  # indexed by ttt_outcome
_RESULTS = {1: "win", 0: "draw", -1: "loss"}
_EVAL_KINDS = ("none", "exact", "score")  # indexed by ttt_eval_kind
_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1
_MS_DECIMALS = 3  # a move's time to the microsecond (the clock says no more), as `ttt move --json` gives it

# ---------------------------------------------------------------------------------------------------------
# Checking what comes in, and turning the library's errors into exceptions
# ---------------------------------------------------------------------------------------------------------


class Forfeit(RuntimeError):
    """An engine forfeited: an outside brain timed out, crashed, played an illegal move or broke the protocol.
    The message says which engine and why. Not bad input: the same call may work with another engine."""


def _raise(status, err):
    msg = _ffi.string(err.msg).decode("utf-8", "replace")
    if status == _clib.TTT_EFORFEIT:
        raise Forfeit(msg)
    if status == _clib.TTT_ENOMEM:
        raise MemoryError(msg)
    if status == _clib.TTT_EIO:
        raise OSError(msg)
    raise ValueError(msg)


def _check(status, err):
    if status != _clib.TTT_OK:
        _raise(status, err)


def _text(value, what):
    """A str for the library: UTF-8 bytes, no NUL inside (C would cut the text there)."""
    if not isinstance(value, str):
        raise TypeError("%s: expected a str, got %s" % (what, type(value).__name__))
    if "\0" in value:
        raise ValueError("%s %r: contains a NUL character" % (what, value))
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError as e:  # a lone surrogate, e.g. from a file read with errors="surrogateescape"
        raise ValueError("%s %r: not valid Unicode text (%s)" % (what, value, e.reason)) from None


def _integer(value, what, low, high):
    """An int (not a bool) from low to high, else TypeError or ValueError naming it."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("%s: expected an int, got %s" % (what, type(value).__name__))
    if not low <= value <= high:
        raise ValueError("%s must be from %d to %d, got %d" % (what, low, high, value))
    return value


def _side(player):
    return _SIDES[int(player)]


# ---------------------------------------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------------------------------------


class Rules:
    """The rules of an m,n,k-game: Rules("3x3"), Rules("4x4k3-misere"), Rules("7x6k4"); a lone "N" is NxN.

    rows, cols, k, misere and cells read them; str() is the canonical text. Rules are values: equal rules
    compare equal and hash alike.
    """

    __slots__ = ("_c",)

    def __init__(self, text="3x3"):
        self._c = _ffi.new("ttt_rules *")
        if isinstance(text, Rules):
            self._c[0] = text._c[0]
            return
        err = _ffi.new("ttt_error *")
        _check(_clib.ttt_rules_parse(_text(text, "rules"), self._c, err), err)

    @property
    def rows(self):
        """Rows of the board (m)."""
        return self._c.rows

    @property
    def cols(self):
        """Columns of the board (n)."""
        return self._c.cols

    @property
    def k(self):
        """Stones in a row that complete a line."""
        return self._c.k

    @property
    def misere(self):
        """True when completing a line loses instead of winning."""
        return bool(self._c.misere)

    @property
    def cells(self):
        """Cells of the board: rows * cols."""
        return self._c.rows * self._c.cols

    def __str__(self):
        buf = _ffi.new("char[]", _lib.RULES_TEXT_SIZE)
        return _ffi.string(_clib.ttt_rules_format(self._c, buf, len(buf))).decode()

    def __repr__(self):
        return "ttt.Rules(%r)" % str(self)

    def _key(self):
        return (self._c.rows, self._c.cols, self._c.k, bool(self._c.misere))

    def __eq__(self, other):
        if not isinstance(other, Rules):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self):
        return hash(self._key())


def _rules(value):
    """None (3x3), a rules text or a Rules."""
    if value is None:
        return Rules()
    if isinstance(value, Rules):
        return value
    if isinstance(value, str):
        return Rules(value)
    raise TypeError("rules: expected a Rules or a str such as '3x3', got %s" % type(value).__name__)


# ---------------------------------------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------------------------------------


def _cell(rules, move):
    """A cell index from a cell number, a move text ("b2", or "5" on 3x3) or a (row, col) pair. Only the
    board's shape is checked here; whether the cell is free is the board's business."""
    r = rules._c
    if isinstance(move, str):
        cell = _ffi.new("ttt_move *")
        err = _ffi.new("ttt_error *")
        _check(_clib.ttt_move_parse(_text(move, "move"), r, cell, err), err)
        return cell[0]
    if isinstance(move, tuple) and len(move) == 2:
        row, col = move
        for what, v, n in (("row", row, r.rows), ("column", col, r.cols)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError("move %r: the %s is not an int" % (move, what))
            if not 0 <= v < n:
                raise ValueError(
                    "move %r: %s %d is off the %dx%d board (a (row, col) pair counts from 0: %ss 0-%d)"
                    % (move, what, v, r.rows, r.cols, what, n - 1)
                )
        return row * r.cols + col
    if isinstance(move, bool) or not isinstance(move, int):
        raise TypeError(
            "move: expected a cell number, a move text such as 'b2' or a (row, col) pair, got %s"
            % type(move).__name__
        )
    if not 0 <= move < r.rows * r.cols:
        raise ValueError(
            "cell %d is off the %dx%d board (cells 0-%d)" % (move, r.rows, r.cols, r.rows * r.cols - 1)
        )
    return move


def _move_name(rules, cell):
    buf = _ffi.new("char[]", _lib.MOVE_TEXT_SIZE)
    return _ffi.string(_clib.ttt_move_format(rules._c, cell, buf, len(buf))).decode()


# ---------------------------------------------------------------------------------------------------------
# Board
# ---------------------------------------------------------------------------------------------------------


class Board:
    """A position: Board() is the empty 3x3 board; Board(rules="4x4k3") another empty board;
    Board("x.o/.x./..o") a position from its text (rows top to bottom, '/' between them; with rules= for k
    or misère); Board(moves="b2 a1 c3") or Board(moves=[4, 0, 8]) the position after these moves.

    play(move) and undo() change it; moves(), winner, outcome ("ongoing", "X", "O", "draw"), terminal, to_move, ply read it. Iterating
    gives every cell's "X", "O" or None in reading order; board[move] one of them; str() draws it.

    Safe to share between threads: each method holds the board's lock, so a move is played (or taken back)
    whole, and solve(), Engine.choose() and the others search a copy of the position taken under it.
    """

    __slots__ = ("_c", "_rules", "_history", "_lock", "__weakref__")

    def __init__(self, position=None, rules=None, moves=None):
        # The library releases the GIL inside every call, so without a lock two threads would play on the
        # same struct at once (a failed assert, or a corrupt board with asserts off).
        self._lock = _threading.Lock()
        self._c = _ffi.new("ttt_board *")
        self._history = []
        err = _ffi.new("ttt_error *")
        if position is not None:
            if moves is not None:
                raise ValueError("Board: give a position or moves, not both")
            text = _text(position, "position")
            given = _rules(rules) if rules is not None else None
            _check(
                _clib.ttt_position_parse(text, given._c if given else _ffi.NULL, self._c, err), err
            )
            self._rules = Rules(given) if given else _rules_of(self._c)
            return
        self._rules = Rules(_rules(rules))
        _clib.ttt_board_init(self._c, self._rules._c)
        if moves is None:
            return
        if isinstance(moves, str):
            cells = _ffi.new("ttt_move[]", _lib.MAX_CELLS)
            n = _ffi.new("int *")
            _check(
                _clib.ttt_moves_parse(
                    _text(moves, "moves"), self._rules._c, cells, _lib.MAX_CELLS, n, err
                ),
                err,
            )
            _check(_clib.ttt_moves_replay(self._rules._c, cells, n[0], self._c, err), err)
            self._history = [cells[i] for i in range(n[0])]
            return
        if not isinstance(moves, (list, tuple)):
            raise TypeError(
                "moves: expected a str such as 'b2 a1' or a list of moves, got %s"
                % type(moves).__name__
            )
        for i, move in enumerate(moves):
            try:
                self.play(move)
            except (TypeError, ValueError) as e:
                raise type(e)("moves: move %d %r: %s" % (i + 1, move, e)) from None

    @classmethod
    def from_position(cls, text, rules=None):
        """The position of a text such as "x.o/.x./..o" (validated: it must be reachable in a game)."""
        return cls(text, rules=rules)

    @classmethod
    def from_moves(cls, moves, rules=None):
        """The position after these moves from the empty board: "b2 a1", [4, 0] or [(1, 1), (0, 0)]."""
        return cls(rules=rules, moves=moves)

    @classmethod
    def _wrap(cls, c, rules, history):
        """A Board over the library's board c (owned by the new object), with its rules and history."""
        board = cls.__new__(cls)
        board._lock = _threading.Lock()
        board._c, board._rules, board._history = c, rules, history
        return board

    def _snapshot(self):
        """A copy of the position and of the history, taken whole (for a search, which runs unlocked)."""
        with self._lock:
            return _ffi.new("ttt_board *", self._c[0]), list(self._history)

    # --- reading -----------------------------------------------------------------------------------------

    @property
    def rules(self):
        """The board's Rules."""
        return self._rules

    @property
    def ply(self):
        """Stones on the board."""
        with self._lock:
            return self._c.ply

    @property
    def history(self):
        """The moves played on this object (from the empty board when it was made empty or from moves)."""
        with self._lock:
            return list(self._history)

    @property
    def terminal(self):
        """True when the game is over: a line is complete or the board is full."""
        with self._lock:
            return _terminal(self._c)

    @property
    def winner(self):
        """"X", "O", or None while the game goes on or when it is drawn."""
        with self._lock:
            return _side(_clib.ttt_board_winner(self._c))

    @property
    def outcome(self):
        """"ongoing" while the game goes on, "X" or "O" for a win, "draw"."""
        with self._lock:
            return _OUTCOMES[_clib.ttt_board_outcome(self._c)]

    @property
    def to_move(self):
        """"X" or "O", or None when the game is over."""
        with self._lock:
            return None if _terminal(self._c) else _SIDES[self._c.ply & 1]

    @property
    def position(self):
        """The position text, e.g. "x.o/.x./..o"."""
        buf = _ffi.new("char[]", _lib.POSITION_TEXT_SIZE)
        with self._lock:
            return _ffi.string(_clib.ttt_position_format(self._c, buf, len(buf))).decode()

    def moves(self):
        """The legal moves (cells) in increasing order; none when the game is over."""
        out = _ffi.new("ttt_move[]", _lib.MAX_CELLS)
        with self._lock:
            n = _clib.ttt_board_moves(self._c, out)
        return [out[i] for i in range(n)]

    def winning_line(self):
        """The cells of the completed line, or [] when nobody has one."""
        out = _ffi.new("ttt_move[]", _lib.MAX_SIDE)
        with self._lock:
            n = _clib.ttt_board_line_cells(self._c, out)
        return [out[i] for i in range(n)]

    def cell(self, move):
        """The cell number of a move given as text ("b2"), (row, col) or number (checked against the shape)."""
        return _cell(self._rules, move)

    def name(self, move):
        """The text of a move: "b2"."""
        return _move_name(self._rules, _cell(self._rules, move))

    def is_legal(self, move):
        """True when move (a cell, a text or a (row, col) pair) is an empty cell of an unfinished game; False,
        never an exception, for anything else."""
        try:
            cell = _cell(self._rules, move)
        except (TypeError, ValueError):
            return False
        with self._lock:
            return bool(_clib.ttt_board_is_legal(self._c, cell))

    def to_lists(self):
        """The board as CS50's tictactoe.py has it: a list of rows, each a list of "X", "O" or None."""
        cells = list(self)
        cols = self._rules.cols
        return [cells[i : i + cols] for i in range(0, len(cells), cols)]

    def copy(self):
        """An independent copy: the position and the history."""
        c, history = self._snapshot()
        return Board._wrap(c, self._rules, history)

    # --- changing ----------------------------------------------------------------------------------------

    def play(self, move):
        """Plays the side to move's stone on move; ValueError ("cell b2 is taken", "the game is over: ...")."""
        cell = _cell(self._rules, move)
        err = _ffi.new("ttt_error *")
        with self._lock:
            _check(_clib.ttt_board_play_checked(self._c, cell, err), err)
            self._history.append(cell)

    def undo(self):
        """Takes back the last move played on this object and returns it."""
        with self._lock:
            if not self._history:
                raise ValueError("undo: no move to take back (a board made from a position text has none)")
            cell = self._history.pop()
            _clib.ttt_board_undo(self._c, cell)
            return cell

    # --- Python protocols --------------------------------------------------------------------------------

    def __len__(self):
        return self._c.cells  # fixed by the rules

    def __iter__(self):
        c = self._c
        with self._lock:
            cells = [_side(_clib.ttt_board_at(c, cell)) for cell in range(c.cells)]
        return iter(cells)

    def __getitem__(self, move):
        cell = _cell(self._rules, move)
        with self._lock:
            return _side(_clib.ttt_board_at(self._c, cell))

    def __eq__(self, other):
        if not isinstance(other, Board):
            return NotImplemented
        # One lock at a time: two threads comparing a == b and b == a must not wait for each other.
        mine, theirs = self._snapshot()[0], other._snapshot()[0]
        return bool(_clib.ttt_board_equal(mine, theirs))

    __hash__ = None  # a board changes

    def __str__(self):
        rows = self.to_lists()
        return "\n".join(" ".join(cell or "." for cell in row) for row in rows)

    def __repr__(self):
        return "ttt.Board(%r, rules=%r)" % (self.position, str(self._rules))


def _terminal(c):
    return c.line_owner != _clib.TTT_NOBODY or c.ply == c.cells


def _rules_of(c_board):
    rules = Rules.__new__(Rules)
    rules._c = _ffi.new("ttt_rules *", c_board.rules)
    return rules


def _board(value, rules=None):
    if not isinstance(value, Board):
        raise TypeError("expected a ttt.Board, got %s" % type(value).__name__)
    if rules is not None and value.rules != rules:
        raise ValueError("the board has rules %s, expected %s" % (value.rules, rules))
    return value


# ---------------------------------------------------------------------------------------------------------
# Solving
# ---------------------------------------------------------------------------------------------------------

_SOLVER_TT_MIB = 64  # the transposition table's cap per rules; it starts small and grows as needed
_SOLVER_CACHE = 4  # solvers kept (one per rules), so that their tables serve the next call
_solvers = _collections.OrderedDict()
_solvers_lock = _threading.Lock()


class _Solver:
    def __init__(self, rules):
        out = _ffi.new("ttt_solver **")
        err = _ffi.new("ttt_error *")
        _check(_clib.ttt_solver_new(rules._c, _SOLVER_TT_MIB, out, err), err)
        self.ptr = _ffi.gc(out[0], _clib.ttt_solver_free)
        self.lock = _threading.Lock()  # one search at a time (the library releases the GIL)


def _solver(rules):
    key = rules._key()
    with _solvers_lock:
        s = _solvers.get(key)
        if s is None:
            s = _Solver(rules)
            _solvers[key] = s
            while len(_solvers) > _SOLVER_CACHE:
                _solvers.popitem(last=False)
        else:
            _solvers.move_to_end(key)
        return s


class _Calls:
    """The long library calls in flight (searches, engine moves, counts, tournaments), so that the
    interpreter's exit can stop them and wait for them. A daemon thread's search would otherwise run on while
    Python frees its solver and unloads the library under it: a segfault at exit.

    At exit, closing is set: a search polls it through its progress callback and stops, an arena through its
    stop callback; an engine's move and a count cannot be stopped and are waited for (their budgets bound
    them). A call that would start after that raises SystemExit in its thread, which a thread ends on quietly.
    """

    def __init__(self):
        self._cond = _threading.Condition(_threading.Lock())
        self._running = 0
        self.closing = False

    def check(self):
        if self.closing:
            raise SystemExit("ttt: the program is exiting: no new search")

    def __enter__(self):
        with self._cond:
            self.check()
            self._running += 1

    def __exit__(self, *exc):
        with self._cond:
            self._running -= 1
            self._cond.notify_all()

    def close(self):
        with self._cond:
            self.closing = True
            while self._running:
                self._cond.wait()


_calls = _Calls()
# At exit, after the non-daemon threads are joined and before the interpreter is torn down.
_atexit.register(_calls.close)

# Ctrl-C during a long search: the KeyboardInterrupt is raised in the progress callback (the search calls it
# every few thousand nodes, in the searching thread); its onerror handler keeps it and asks the search to stop,
# and _search raises it again once the search has returned. The callback also stops the search at exit.
_watch = _threading.local()


def _on_progress_error(exc_type, exc_value, tb):
    _watch.pending = exc_value
    return True


@_ffi.callback("bool(const ttt_search_progress *, void *)", onerror=_on_progress_error)
def _progress(progress, user):
    return _calls.closing


def _search(c, rules, all_moves, nodes=0, ms=0.0):
    """Searches the library's board c (a copy no other thread changes) with the cached solver of rules."""
    s = _solver(rules)
    out = _ffi.new("ttt_search_result *")
    err = _ffi.new("ttt_error *")
    limits = _ffi.new("ttt_limits *", {"nodes": nodes, "ms": ms, "depth": 0, "progress": _progress})
    with _calls, s.lock:
        _calls.check()  # not a new search once exit has begun, even after waiting for the solver
        _watch.pending = None
        status = _clib.ttt_solver_search(s.ptr, c, limits, all_moves, out, err)
        pending, _watch.pending = _watch.pending, None
        if pending is not None:
            _clib.ttt_solver_clear(s.ptr)  # the next search starts afresh rather than from an interrupted one
        if pending is not None:
            raise pending
        if _calls.closing and out.stopped:
            raise SystemExit("ttt: the program is exiting: the search was stopped")
    _check(status, err)
    return out


def solve(board, nodes=0, ms=0):
    """Solves board (Ctrl-C stops a long search). Returns a dict from the side to move's view, with the fields
    of `ttt solve --json` for the same position:

        value     "win", "draw" or "loss" with best play by both; "unknown" when the budget ran out first
        plies     moves until the game ends with best play (None when not proven)
        moves     every legal move, best first: {"move": "b2", "value": ..., "plies": ...} when proven, else
                  {"move": "b2", "value": "unknown", "score": the search's heuristic score}; each with
                  "cell" too, its cell number
        nodes, ms, depth  nodes searched, milliseconds, the deepest iteration completed
        proven    whether value is the game's value (False when nodes= or ms= ran out first)
        best      the cells of the moves that keep the value (and reach a win soonest, or a loss latest)

    nodes= and ms= bound the search (0: no bound). A finished game gives its value at once, with "outcome"
    ("X", "O" or "draw") as the CLI gives it.
    """
    board = _board(board)
    nodes = _integer(nodes, "nodes", 0, 2**64 - 1)
    if isinstance(ms, bool) or not isinstance(ms, (int, float)) or not 0 <= ms < float("inf"):
        raise (TypeError if not isinstance(ms, (int, float)) or isinstance(ms, bool) else ValueError)(
            "ms: expected milliseconds, 0 or more, got %r" % (ms,)
        )
    c = board._snapshot()[0]
    if _terminal(c):
        winner = _side(_clib.ttt_board_winner(c))
        return {
            "outcome": _OUTCOMES[_clib.ttt_board_outcome(c)],
            "value": "draw" if winner is None else "loss",
            "plies": 0,
            "moves": [],
            "nodes": 0,
            "ms": 0.0,
            "depth": 0,
            "proven": True,
            "best": [],
        }
    r = _search(c, board.rules, True, nodes, float(ms))
    moves = []
    for i in range(r.count):
        m = r.moves[i]
        entry = {"move": _move_name(board.rules, m.move)}
        if r.proven:
            entry["value"] = _RESULTS[_clib.ttt_score_result(m.score)]
            entry["plies"] = _clib.ttt_score_plies(c, m.score)
        else:
            entry["value"] = "unknown"
            entry["score"] = m.score
        entry["cell"] = m.move
        moves.append(entry)
    return {
        "value": _RESULTS[_clib.ttt_score_result(r.score)] if r.proven else "unknown",
        "plies": _clib.ttt_score_plies(c, r.score) if r.proven else None,
        "moves": moves,
        "nodes": r.nodes,
        "ms": r.ms,
        "depth": r.depth,
        "proven": bool(r.proven),
        "best": [r.moves[i].move for i in range(r.best_count)] if r.proven else [r.moves[0].move],
    }


def _best_move(c, rules):
    """One optimal move (the first of the best) of the library's board c, by the cached solver: for
    ttt.cs50.minimax."""
    r = _search(c, rules, False)
    return r.moves[0].move


# ---------------------------------------------------------------------------------------------------------
# Counting
# ---------------------------------------------------------------------------------------------------------


def _tally(t, positions):
    """A tally as `ttt count --json` writes it: positions also say how many are finished ("terminal")."""
    out = {"total": t.total, "x_wins": t.x_wins, "o_wins": t.o_wins, "draws": t.draws}
    if positions:
        out["terminal"] = t.x_wins + t.o_wins + t.draws
    return out


def _section(by_ply, all_, plies, positions):
    out = _tally(all_, positions)
    out["by_ply"] = [dict(_tally(by_ply[p], positions), ply=p) for p in range(plies)]
    return out


_MIB = 1024 * 1024


def _available_memory():
    """The memory available to a new process, in bytes, as `ttt count` reads it (0 when unknown)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return _os.sysconf("SC_AVPHYS_PAGES") * _os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError):
        return 0


def _size_text(size):
    return "%.1f GB" % (size / 1024**3) if size >= 1024**3 else "%.0f MB" % (size / _MIB)


def count(rules=None, layer_limit=0, max_memory=None):
    """Counts the game tree of the rules (boards of up to 64 cells): every reachable position and every
    complete game, split by outcome, also up to symmetry. Returns the dict `ttt count --json` prints: rules,
    positions, positions_sym, games, games_sym (each {"total", "x_wins", "o_wins", "draws", "by_ply": [the
    same per number of stones, with "ply"]}, positions with "terminal" too) and ms.

    A board whose largest layer might not fit in memory is refused at once (ValueError), as `ttt count`
    refuses it: max_memory=None allows the memory available now, a number that many MiB, 0 no check.
    layer_limit caps the positions of one layer (0: the library's default); over it is a ValueError."""
    rules = _rules(rules)
    layer_limit = _integer(layer_limit, "layer_limit", 0, 2**64 - 1)
    if max_memory is not None:
        max_memory = _integer(max_memory, "max_memory", 0, 2**30)
    if rules.cells > _lib.COUNT_MAX_CELLS:
        raise ValueError(
            "%s has %d cells; boards of more than %d cells are too big to count"
            % (rules, rules.cells, _lib.COUNT_MAX_CELLS)
        )
    largest = _ffi.new("uint64_t *")
    need = _clib.ttt_count_memory_estimate(rules._c, largest)
    have = _available_memory() if max_memory is None else max_memory * _MIB
    if max_memory != 0 and have > 0 and need > have:
        raise ValueError(
            "%s may need about %s of memory (a layer of up to %.3g positions) and %s %s; max_memory=0 counts "
            "anyway" % (rules, _size_text(need), largest[0], _size_text(have),
                        "is available" if max_memory is None else "is allowed")
        )
    out = _ffi.new("ttt_counts *")
    err = _ffi.new("ttt_error *")
    with _calls:
        start = _time.monotonic()
        status = _clib.ttt_count(rules._c, layer_limit, out, err)
        ms = (_time.monotonic() - start) * 1000.0
    _check(status, err)
    return {
        "rules": str(rules),
        "positions": _section(out.positions, out.all_positions, out.plies, True),
        "positions_sym": _section(out.positions_sym, out.all_positions_sym, out.plies, True),
        "games": _section(out.games, out.all_games, out.plies, False),
        "games_sym": _section(out.games_sym, out.all_games_sym, out.plies, False),
        "ms": ms,
    }


# ---------------------------------------------------------------------------------------------------------
# Engines
# ---------------------------------------------------------------------------------------------------------


def _listing(count, at, fields):
    return [
        {f: _ffi.string(getattr(at(i), f)).decode() for f in fields} for i in range(count())
    ]


def engines():
    """The registered engines: a list of {"name", "summary", "options"}."""
    return _listing(_clib.ttt_engine_count, _clib.ttt_engine_about_at, ("name", "summary", "options"))


def levels():
    """The difficulty levels, weakest first: a list of {"name", "spec", "about"}."""
    return _listing(_clib.ttt_level_count, _clib.ttt_level_at, ("name", "spec", "about"))


class Engine:
    """An engine made from a spec, "NAME[:key=value,...]" ("mcts:iterations=2000", "minimax", "hard"), for
    the rules (default 3x3). choose(board) returns its move; analyse(board) its view of every move.
    Deterministic: the same spec and requests give the same moves (unless a time= budget is set)."""

    def __init__(self, spec="mcts", rules=None):
        self._rules = Rules(_rules(rules))
        out = _ffi.new("ttt_engine **")
        err = _ffi.new("ttt_error *")
        _check(_clib.ttt_engine_new(_text(spec, "engine spec"), self._rules._c, out, err), err)
        self._ptr = _ffi.gc(out[0], _clib.ttt_engine_free)
        self._lock = _threading.Lock()  # one request at a time (the library releases the GIL)
        self.last = None

    def _engine(self):
        if self._ptr is None:
            raise ValueError("the engine is closed")
        return self._ptr

    @property
    def rules(self):
        """The Rules the engine plays."""
        return self._rules

    @property
    def name(self):
        """The engine's registered name ("mcts", "minimax"...)."""
        return _ffi.string(_clib.ttt_engine_name(self._engine())).decode()

    @property
    def spec(self):
        """The full spec, every option's value included."""
        buf = _ffi.new("char[]", _lib.SPEC_TEXT_SIZE)
        return _ffi.string(_clib.ttt_engine_spec(self._engine(), buf, len(buf))).decode()

    @property
    def nodes(self):
        """Nodes or playouts counted since the engine was made."""
        return _clib.ttt_engine_nodes(self._engine())

    def _ready(self, board):
        """The engine and a copy of board's position (the search runs on it, unlocked), once the engine
        follows the game that led there."""
        board = _board(board, self._rules)
        engine = self._engine()
        _calls.check()  # not a new search once exit has begun, even after waiting for the engine
        c, history = board._snapshot()
        if _terminal(c):
            raise ValueError("the game is over (%s): no move to choose" % _over(c))
        if history and len(history) == c.ply:
            moves = _ffi.new("ttt_move[]", history)
            _clib.ttt_engine_follow(engine, moves, len(history))
        return engine, c

    def choose(self, board):
        """The engine's move (a cell) for the side to move. self.last has the fields of `ttt move --json`:
        "move" (its text), "row", "col", "cell", "engine" (the full spec), "nodes", "ms" (to the
        microsecond) and, only from an engine that searches by depth (minimax, gomoku), "depth"; and beyond
        them "value_name" ("win rate", "heuristic score"...) and "value" when the engine says what it thinks
        of its move (None and None when it does not)."""
        with _calls, self._lock:
            engine, c = self._ready(board)
            out = _ffi.new("ttt_move *")
            info = _ffi.new("ttt_search_info *")
            err = _ffi.new("ttt_error *")
            _check(_clib.ttt_engine_choose(engine, c, out, info, err), err)
            said = info.value_name != _ffi.NULL
            move = out[0]
            self.last = {
                "move": _move_name(self._rules, move),
                "row": move // self._rules.cols,
                "col": move % self._rules.cols,
                "cell": move,
                "engine": self.spec,
                "nodes": info.nodes,
                "ms": round(info.ms, _MS_DECIMALS),
            }
            if info.depth > 0:  # 0: the engine does not search by depth, and `ttt move --json` leaves it out
                self.last["depth"] = info.depth
            self.last["value_name"] = _ffi.string(info.value_name).decode() if said else None
            self.last["value"] = info.value if said else None
            return move

    def analyse(self, board):
        """What the engine thinks of every legal move, best first: {"method", "nodes", "ms", "moves"}, each
        move {"move", "name", "kind" ("exact", "score" or "none"), "value" ("win", "draw", "loss") and "plies"
        (moves to the end; both exact only, as in solve()),
        "score" (-1 to 1), "share" (of the engine's effort)}. ValueError for engines that cannot analyse."""
        with _calls, self._lock:
            engine, c = self._ready(board)
            out = _ffi.new("ttt_analysis *")
            err = _ffi.new("ttt_error *")
            _check(_clib.ttt_engine_analyse(engine, c, out, err), err)
            moves = []
            for i in range(out.count):
                m = out.moves[i]
                entry = {
                    "move": m.move,
                    "name": _move_name(self._rules, m.move),
                    "kind": _EVAL_KINDS[m.kind],
                    "score": m.score,
                    "share": m.share,
                }
                if m.kind == _clib.TTT_EVAL_EXACT:
                    entry["value"] = _RESULTS[m.result]
                    entry["plies"] = m.plies
                moves.append(entry)
            return {
                "method": _ffi.string(out.method).decode() if out.method else "",
                "nodes": out.info.nodes,
                "ms": out.info.ms,
                "moves": moves,
            }

    def new_game(self):
        """Tells the engine a new game starts (engines with a tree or per-game state reset it)."""
        with self._lock:
            _clib.ttt_engine_new_game(self._engine())

    def game_over(self, board):
        """Tells the engine how a game it played went (learning engines learn from it): board must be
        finished and hold its whole game (made empty or from moves, then played)."""
        c, history = _board(board, self._rules)._snapshot()
        if not _terminal(c):
            raise ValueError("game_over: the game is not over")
        if len(history) != c.ply:
            raise ValueError("game_over: the board does not hold the game's moves (made from a position?)")
        with _calls, self._lock:
            moves = _ffi.new("ttt_move[]", history)
            err = _ffi.new("ttt_error *")
            outcome = _clib.ttt_board_outcome(c)
            _check(_clib.ttt_engine_game_over(self._engine(), moves, len(history), outcome, err), err)

    def close(self):
        """Frees the engine now (otherwise when it is garbage)."""
        with self._lock:
            if self._ptr is not None:
                _ffi.release(self._ptr)
                self._ptr = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        if self._ptr is None:
            return "<ttt.Engine (closed)>"
        return "ttt.Engine(%r, rules=%r)" % (self.spec, str(self._rules))


def _over(c):
    outcome = _OUTCOMES[_clib.ttt_board_outcome(c)]
    return "a draw" if outcome == "draw" else "%s has won" % outcome


# ---------------------------------------------------------------------------------------------------------
# Tournaments
# ---------------------------------------------------------------------------------------------------------


def _record(r):
    return {"wins": r.wins, "losses": r.losses, "draws": r.draws}


def _arena_names(texts):
    """The engines' names in a tournament's results and the specs they play with, as `ttt arena` gives them
    (ttt_arena_names): name=NAME among a spec's options names the engine and is taken out of the spec played;
    without it the name is the spec; a name already taken gets "#2", "#3"... ValueError for an empty name=."""
    n = len(texts)
    # the header's bound: 2 * (the specs' lengths + 8 per engine) is always enough
    size = 2 * (sum(len(t) + 1 for t in texts) + 8 * n)
    buf = _ffi.new("char[]", size)
    names = _ffi.new("const char *[]", n)
    play = _ffi.new("const char *[]", n)
    err = _ffi.new("ttt_error *")
    _check(_clib.ttt_arena_names(_ffi.new("const char *[]", texts), n, buf, size, names, play, err), err)
    return ([_ffi.string(names[i]).decode("utf-8") for i in range(n)],
            [_ffi.string(play[i]) for i in range(n)])


def _verdict(record):
    """"all draws", "all wins" or "all losses" when every game of a record had one result, else None."""
    n = record["wins"] + record["losses"] + record["draws"]
    for key, verdict in (("draws", "all draws"), ("wins", "all wins"), ("losses", "all losses")):
        if n and record[key] == n:
            return verdict
    return None


def arena(specs, rules=None, games=10, seed=0, jobs=1, gauntlet=False):
    """Plays every pair of engines (or, with gauntlet=True, the first against each other one) games games
    per pair, colours alternating, on jobs threads; the results depend only on the specs, rules and seed.
    Engines are named as `ttt arena` names them: name=NAME among a spec's options (which the engine never
    sees), else the spec, and a name already taken gets "#2", "#3"... ("random", "random#2").
    Returns the fields of `ttt arena --json`: {"rules", "games_per_pair" (also as "games"), "seed",
    "gauntlet", "interrupted" (always False: a tournament stopped at exit raises SystemExit), "pairs": [...]},
    each pair {"a", "b" (names), "games", "wins", "losses", "draws" (from a's side), "a_as_x", "a_as_o"
    (records), "a_forfeits", "b_forfeits" (games an outside engine lost by timing out, crashing or playing an
    illegal move, among the losses), "forfeits" (each of those games, in order: {"game", "reason"}), "score",
    "elo", "elo_low", "elo_high", "los", "draw_ratio", "verdict" ("all wins", "all draws", "all losses" or
    None)}, and "ranking": every engine best first, as `ttt arena` prints it, each {"rank", "engine" (name),
    "games", "wins", "losses", "draws" (over all its games), "score", "elo", "elo_low", "elo_high",
    "draw_ratio"}. Where the CLI's JSON has null for an Elo without bounds (every game won or lost), Python
    has float("inf") or -inf."""
    rules = _rules(rules)
    if isinstance(specs, str) or not isinstance(specs, (list, tuple)):
        raise TypeError("arena: expected a list of engine specs, got %s" % type(specs).__name__)
    if not 2 <= len(specs) <= _lib.ARENA_MAX_ENGINES:
        raise ValueError(
            "arena: expected 2 to %d engines, got %d" % (_lib.ARENA_MAX_ENGINES, len(specs))
        )
    texts = [_ffi.new("char[]", _text(s, "engine spec")) for s in specs]
    names, play = _arena_names(texts)
    texts = [_ffi.new("char[]", p) for p in play]
    games = _integer(games, "arena: games", 1, _lib.ARENA_MAX_GAMES)
    seed = _integer(seed, "arena: seed", 0, _lib.ARENA_MAX_SEED)
    jobs = _integer(jobs, "arena: jobs", 1, _lib.ARENA_MAX_JOBS)
    if not isinstance(gauntlet, bool):
        raise TypeError("arena: gauntlet: expected a bool, got %s" % type(gauntlet).__name__)
    c_specs = _ffi.new("const char *[]", texts)
    opt = _ffi.new(
        "ttt_arena_options *",
        {"specs": c_specs, "nspecs": len(specs), "games": games, "seed": seed, "jobs": jobs,
         "gauntlet": gauntlet},
    )
    npairs = _clib.ttt_arena_pair_count(len(specs), gauntlet)
    pairs = _ffi.new("ttt_arena_pair[]", npairs)
    reasons = [[] for _ in range(npairs)]

    # Called from the arena's threads (cffi takes the GIL): the library's reason for each forfeited game.
    @_ffi.callback("void(int, uint64_t, const char *, void *)")
    def on_forfeit(pair, game, reason, user):
        reasons[pair].append({"game": game, "reason": _ffi.string(reason).decode("utf-8", "replace")})

    # Asked by the arena's threads before each game and after each move: stops the tournament at exit.
    @_ffi.callback("bool(void *)")
    def stop(user):
        return _calls.closing

    opt.forfeit = on_forfeit
    opt.stop = stop
    err = _ffi.new("ttt_error *")
    with _calls:
        status = _clib.ttt_arena_run(rules._c, opt, pairs, err)
        if _calls.closing:
            raise SystemExit("ttt: the program is exiting: the tournament was stopped")
    _check(status, err)
    out = []
    stats = _ffi.new("ttt_arena_stats *")
    for p in pairs:
        _clib.ttt_arena_stats_of(_ffi.addressof(p, "total"), stats)
        entry = {"a": names[p.a], "b": names[p.b], "games": stats.games}
        entry.update(_record(p.total))
        entry.update(
            {
                "a_as_x": _record(p.a_as_x),
                "a_as_o": _record(p.a_as_o),
                "a_forfeits": p.a_forfeits,
                "b_forfeits": p.b_forfeits,
                "forfeits": sorted(reasons[len(out)], key=lambda f: f["game"]),
                "score": stats.score,
                "elo": stats.elo,
                "elo_low": stats.elo_low,
                "elo_high": stats.elo_high,
                "los": stats.los,
                "draw_ratio": stats.draw_ratio,
                "verdict": _verdict(_record(p.total)),
            }
        )
        out.append(entry)
    ranks = _ffi.new("ttt_arena_rank[]", len(specs))
    ranking = []
    for i in range(_clib.ttt_arena_ranking(len(specs), pairs, npairs, ranks)):
        r = ranks[i]
        entry = {"rank": i + 1, "engine": names[r.engine], "games": r.stats.games}
        entry.update(_record(r.total))
        entry.update(
            {
                "score": r.stats.score,
                "elo": r.stats.elo,
                "elo_low": r.stats.elo_low,
                "elo_high": r.stats.elo_high,
                "draw_ratio": r.stats.draw_ratio,
            }
        )
        ranking.append(entry)
    return {"rules": str(rules), "games_per_pair": games, "games": games, "seed": seed, "gauntlet": gauntlet,
            "interrupted": False, "pairs": out, "ranking": ranking}


from ._play import play  # noqa: E402  (play uses the classes above)
