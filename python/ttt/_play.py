"""ttt.play: a student's move function against one of the library's engines."""

import traceback

from . import _lib
from . import Board, Engine, _integer, _rules

_RESULT_OF = {True: "win", False: "loss", None: "draw"}


def _with_seed(spec, seed):
    """The spec with seed=SEED added, unless it sets a seed itself."""
    name, _, options = spec.partition(":")
    keys = [o.split("=", 1)[0].strip() for o in options.split(",")] if options else []
    if "seed" in keys:
        return spec
    return "%s%sseed=%d" % (spec, "," if options else ":", seed)


def _describe(board):
    side = board.to_move
    return "position %s (%s to move)" % (board.position, side) if side else board.position


def play(my_function, against="mcts", games=100, rules="3x3", seed=0, as_board=False):
    """Plays my_function against an engine for games games, colours alternating: my_function plays X in
    games 0, 2, 4, ... and O in the others.

    my_function(board) gets the position as CS50's tictactoe.py has it, a list of rows, each a list of "X",
    "O" or None (a fresh copy every time; with as_board=True a ttt.Board copy instead), and returns its move:
    (row, col), a cell number, or a move text such as "b2".

    against is an engine spec ("mcts", "minimax", "hard", "mcts:iterations=2000") or a ttt.Engine of the
    rules. A spec without seed= gets seed=seed, so that the same call plays the same games.

    An exception raised by my_function, or a move that is not legal, loses that game; it is reported with
    the position, and the other games are played. Returns, from my_function's side:
        {"wins", "draws", "losses", "errors" (games lost that way), "games": [...]}
    with each game {"game", "you" ("X" or "O"), "result" ("win", "draw", "loss"), "moves" (texts),
    "position" (the final one), "error" (None, or what went wrong and where)}.
    """
    if not callable(my_function):
        raise TypeError("play: my_function must be callable, got %s" % type(my_function).__name__)
    games = _integer(games, "play: games", 1, _lib.ARENA_MAX_GAMES)
    seed = _integer(seed, "play: seed", 0, _lib.SEED_MAX)
    if isinstance(against, Engine):
        engine = against
        if rules is not None and _rules(rules) != engine.rules:
            raise ValueError(
                "play: the engine plays %s, not %s" % (engine.rules, _rules(rules))
            )
    elif isinstance(against, str):
        engine = Engine(_with_seed(against, seed), _rules(rules))
    else:
        raise TypeError(
            "play: against must be an engine spec or a ttt.Engine, got %s" % type(against).__name__
        )
    record = {"wins": 0, "draws": 0, "losses": 0, "errors": 0, "games": []}
    for game in range(games):
        you = "X" if game % 2 == 0 else "O"
        board = Board(rules=engine.rules)
        engine.new_game()
        error = None
        while not board.terminal:
            if board.to_move == you:
                view = board.copy() if as_board else board.to_lists()
                where = "game %d, move %d, %s" % (game, board.ply + 1, _describe(board))
                try:
                    move = my_function(view)
                except Exception as e:  # the student's bug, reported, not raised
                    frame = traceback.extract_tb(e.__traceback__)[-1]
                    error = "%s: %s raised %s: %s (%s line %d)" % (
                        where,
                        getattr(my_function, "__name__", "my_function"),
                        type(e).__name__,
                        e,
                        frame.filename,
                        frame.lineno,
                    )
                    break
                try:
                    board.play(move)
                except (TypeError, ValueError) as e:
                    error = "%s: illegal move %r: %s" % (where, move, e)
                    break
            else:
                board.play(engine.choose(board))
        if error is None:
            engine.game_over(board)
            winner = board.winner
            result = _RESULT_OF[winner == you if winner else None]
        else:
            result = "loss"
            record["errors"] += 1
        record[{"win": "wins", "draw": "draws", "loss": "losses"}[result]] += 1
        record["games"].append(
            {
                "game": game,
                "you": you,
                "result": result,
                "moves": [board.name(m) for m in board.history],
                "position": board.position,
                "error": error,
            }
        )
    return record
