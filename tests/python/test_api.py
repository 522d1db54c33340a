"""ttt's Python API over libttt: rules, boards, solving, counting, engines, tournaments, and every way of
calling them wrongly (each must raise, never crash the interpreter)."""

import itertools
import math
import os
import subprocess
import sys
import time

import pytest

import ttt
from ttt import _lib

HUGE = 10**30


def lines_of(rows, cols, k):
    """Every k-in-a-row window of the board, as cell lists (the test's own geometry, not the library's)."""
    out = []
    for r, c in itertools.product(range(rows), range(cols)):
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            cells = [(r + i * dr, c + i * dc) for i in range(k)]
            if all(0 <= rr < rows and 0 <= cc < cols for rr, cc in cells):
                out.append([rr * cols + cc for rr, cc in cells])
    return out


# --- Rules ---------------------------------------------------------------------------------------------


def test_rules_parse_and_format():
    r = ttt.Rules("4x4k3-misere")
    assert (r.rows, r.cols, r.k, r.misere, r.cells) == (4, 4, 3, True, 16)
    assert str(r) == "4x4k3-misere"
    assert ttt.Rules("3") == ttt.Rules("3x3") == ttt.Rules()
    assert str(ttt.Rules("7X6K4-REVERSE")) == "7x6k4-misere"
    assert hash(ttt.Rules("3x3")) == hash(ttt.Rules("3"))
    assert eval(repr(r), {"ttt": ttt}) == r


@pytest.mark.parametrize("text", ["", "3x3k4", "2x2", "21x21", "3x3-sideways", "x", "3x" + "9" * 40, "é"])
def test_rules_bad_text_is_the_library_message(text):
    with pytest.raises(ValueError, match="rules"):
        ttt.Rules(text)


@pytest.mark.parametrize("value", [3, 3.0, None, b"3x3", ["3x3"]])
def test_rules_wrong_type(value):
    with pytest.raises(TypeError):
        ttt.Rules(value)


def test_rules_nul_is_not_cut_off():
    with pytest.raises(ValueError, match="NUL"):
        ttt.Rules("3x3\0k4")


# --- Board ---------------------------------------------------------------------------------------------


def test_board_from_moves_in_every_form():
    by_text = ttt.Board(moves="b2 a1 c3")
    assert by_text == ttt.Board(moves=[4, 0, 8])
    assert by_text == ttt.Board(moves=["b2", "a1", "c3"])
    assert by_text == ttt.Board(moves=[(1, 1), (0, 0), (2, 2)])
    assert by_text == ttt.Board.from_moves("5,1,9")
    assert by_text == ttt.Board("o../.x./..x")
    assert by_text.position == "o../.x./..x"
    assert by_text.history == [4, 0, 8]
    assert by_text.ply == 3 and by_text.to_move == "O"


def test_board_reading():
    b = ttt.Board("x.o/.x./..o")
    assert list(b) == ["X", None, "O", None, "X", None, None, None, "O"]
    assert len(b) == 9
    assert b[0] == "X" and b["c1"] == "O" and b[(1, 1)] == "X" and b[3] is None
    assert b.to_lists() == [["X", None, "O"], [None, "X", None], [None, None, "O"]]
    assert str(b) == "X . O\n. X .\n. . O"
    assert b.moves() == [1, 3, 5, 6, 7]
    assert b.to_move == "X" and not b.terminal and b.winner is None and b.outcome == "ongoing"
    assert b.name(7) == "b3" and b.cell("b3") == 7 and b.cell((2, 1)) == 7
    assert eval(repr(b), {"ttt": ttt}) == b


def test_board_every_line_wins_and_misere_loses():
    for rules in ("3x3", "4x4k3", "5x4k4"):
        r = ttt.Rules(rules)
        for line in lines_of(r.rows, r.cols, r.k):
            others = [c for c in range(r.cells) if c not in line]
            # X on the line, O anywhere off it (never a line of O's: O plays the cells farthest apart first)
            b = ttt.Board(rules=rules)
            o_cells = iter(others)
            for i, cell in enumerate(line):
                b.play(cell)
                if i < len(line) - 1:
                    while True:
                        o = next(o_cells)
                        if b.is_legal(o):
                            b.play(o)
                            break
                    if b.terminal:
                        break
            if b.winner is None:  # O's stones made a line first: not this test's case
                continue
            assert b.terminal and b.winner == "X" and b.outcome == "X"
            assert sorted(b.winning_line()) == sorted(line) or len(b.winning_line()) == r.k
            mis = ttt.Board(rules=rules + "-misere", moves=b.history)
            assert mis.winner == "O" and mis.terminal


def test_board_play_undo_round_trip():
    b = ttt.Board(rules="4x4")
    seen = [b.position]
    for move in ["a1", "b2", "c3", "d4", "a2"]:
        b.play(move)
        seen.append(b.position)
    while b.history:
        seen.pop()
        b.undo()
        assert b.position == seen[-1]
    with pytest.raises(ValueError, match="undo"):
        b.undo()


def test_board_copy_is_independent():
    a = ttt.Board(moves="b2")
    c = a.copy()
    c.play("a1")
    assert a.ply == 1 and c.ply == 2 and a != c


def test_board_full_draw():
    b = ttt.Board(moves="a1 b2 c3 b1 b3 a3 c1 c2 a2")
    assert b.terminal and b.outcome == "draw" and b.winner is None and b.to_move is None and b.moves() == []


@pytest.mark.parametrize(
    "position, message",
    [
        ("x.o/.x./..q", "bad character"),
        ("xx./.../...", "stones"),
        ("xxx/ooo/...", ""),
        ("x../..", "row"),
        ("", ""),
        ("/" * 5000, ""),
        ("x" * 100000, ""),
    ],
)
def test_board_bad_position(position, message):
    with pytest.raises(ValueError, match=message):
        ttt.Board(position)


def test_board_position_of_other_rules():
    with pytest.raises(ValueError, match="row"):
        ttt.Board("x../.../...", rules="4x4")


@pytest.mark.parametrize(
    "moves, message",
    [
        ("b2 b2", "move 2 'b2': cell b2 is taken"),
        ("z9", "z9"),
        ([4, 4], "move 2"),
        ([9], "off the 3x3 board"),
        ([-1], "off the 3x3 board"),
        ([HUGE], "off the 3x3 board"),
        ([-HUGE], "off the 3x3 board"),
        ([(3, 0)], "row 3 is off"),
        ([(0, -1)], "column -1 is off"),
        ("a1 a2 b1 b2 c1 c2", "game is over"),
    ],
)
def test_board_bad_moves(moves, message):
    with pytest.raises(ValueError, match=message):
        ttt.Board(moves=moves)


@pytest.mark.parametrize("move", [1.0, None, True, [1, 1], (1, "1"), (1.0, 1), b"b2", object()])
def test_board_play_wrong_type(move):
    b = ttt.Board()
    with pytest.raises(TypeError):
        b.play(move)
    assert b.ply == 0 and b.history == []


def test_board_play_after_the_end_and_taken_cells():
    b = ttt.Board(moves="a1 a2 b1 b2 c1")
    with pytest.raises(ValueError, match="the game is over"):
        b.play("c3")
    b = ttt.Board(moves="b2")
    with pytest.raises(ValueError, match="cell b2 is taken"):
        b.play((1, 1))
    assert b.history == [4]


def test_board_constructor_errors():
    with pytest.raises(ValueError, match="not both"):
        ttt.Board("x../.../...", moves="b2")
    with pytest.raises(TypeError):
        ttt.Board(moves=42)
    with pytest.raises(TypeError, match="moves: move 2 None: move: expected a cell number"):
        ttt.Board(moves=[4, None])
    with pytest.raises(TypeError):
        ttt.Board(rules=3)
    with pytest.raises(TypeError):
        ttt.Board(42)
    with pytest.raises(ValueError, match="NUL"):
        ttt.Board("x..\0/.../...")


# --- solve ---------------------------------------------------------------------------------------------


NAMES = {1: "win", 0: "draw", -1: "loss"}


def brute_value(board, memo=None):
    """Plain negamax over the Board API: (value for the side to move, moves to the end with best play:
    sooner wins, later losses), remembered by position."""
    memo = {} if memo is None else memo
    key = (str(board.rules), board.position)
    if key in memo:
        return memo[key]
    if board.terminal:
        return (0 if board.winner is None else -1), 0
    best = None
    for m in board.moves():
        board.play(m)
        v, d = brute_value(board, memo)
        board.undo()
        vd = (-v, d + 1)
        rank = (vd[0], -vd[1] if vd[0] > 0 else vd[1])
        if best is None or rank > best[0]:
            best = (rank, vd)
    memo[key] = best[1]
    return best[1]


@pytest.mark.parametrize("moves", ["", "b2", "a1", "b2 a1", "a1 b2 c3", "b2 a1 c3 b1", "a1 a2 b1 b2"])
def test_solve_matches_a_brute_force(moves):
    b = ttt.Board(moves=moves)
    s = ttt.solve(b)
    value, distance = brute_value(b.copy())
    assert (s["value"], s["plies"], s["proven"]) == (NAMES[value], distance, True)
    assert sorted(m["cell"] for m in s["moves"]) == b.moves()
    for m in s["moves"]:
        after = b.copy()
        after.play(m["cell"])
        v, d = brute_value(after)
        assert (m["value"], m["plies"]) == (NAMES[-v], d + 1), m
        assert m["move"] == b.name(m["cell"])
    assert set(s["best"]) == {m["cell"] for m in s["moves"] if (m["value"], m["plies"]) == (NAMES[value], distance)}


def test_solve_misere_and_bigger_boards():
    for b in [ttt.Board(rules="3x3-misere"), ttt.Board(rules="4x4k3", moves="b2 a1 c2 d4 a4 c4 d1")]:
        v, d = brute_value(b.copy())
        assert (ttt.solve(b)["value"], ttt.solve(b)["plies"]) == (NAMES[v], d)


def test_solve_errors():
    with pytest.raises(TypeError):
        ttt.solve("x../.../...")
    with pytest.raises(ValueError, match="nodes"):
        ttt.solve(ttt.Board(), nodes=-1)
    with pytest.raises(ValueError, match="nodes"):
        ttt.solve(ttt.Board(), nodes=HUGE)
    with pytest.raises(ValueError, match="ms"):
        ttt.solve(ttt.Board(), ms=-1)
    with pytest.raises(TypeError, match="ms"):
        ttt.solve(ttt.Board(), ms="10")


# --- count ---------------------------------------------------------------------------------------------


def brute_count(rules):
    """Reachable positions and complete games by walking the tree through Board, each position once (the
    games through a position are the sum over its moves)."""
    games = {}

    def walk(b):
        key = b.position
        if key not in games:
            total = 0 if b.moves() else 1
            for m in b.moves():
                b.play(m)
                total += walk(b)
                b.undo()
            games[key] = total
        return games[key]

    total = walk(ttt.Board(rules=rules))
    return len(games), total


@pytest.mark.parametrize("rules", ["3x3", "3x3-misere"])
def test_count_matches_a_walk(rules):
    c = ttt.count(rules)
    assert (c["positions"]["total"], c["games"]["total"]) == brute_count(rules)
    assert c["rules"] == rules
    assert sum(p["total"] for p in c["positions"]["by_ply"]) == c["positions"]["total"]
    assert [p["ply"] for p in c["games"]["by_ply"]] == list(range(len(c["games"]["by_ply"])))
    g = c["games"]
    assert g["x_wins"] + g["o_wins"] + g["draws"] == g["total"]
    assert c["positions_sym"]["total"] < c["positions"]["total"]


def test_count_errors():
    with pytest.raises(ValueError):
        ttt.count("9x9")  # over 64 cells: the library's limit
    with pytest.raises(ValueError, match="layer"):
        ttt.count("4x4", layer_limit=10)
    with pytest.raises(ValueError):
        ttt.count("3x3", layer_limit=-1)
    with pytest.raises(TypeError):
        ttt.count(3)


# --- Engine --------------------------------------------------------------------------------------------


def test_engine_chooses_legal_moves_and_is_deterministic():
    for spec in ["random", "minimax", "mcts:iterations=500", "montecarlo:trials=200", "heuristic", "easy"]:
        e1, e2 = ttt.Engine(spec), ttt.Engine(spec)
        b = ttt.Board(moves="b2 a1")
        m = e1.choose(b)
        assert m in b.moves()
        assert e2.choose(b) == m
        assert e1.last["nodes"] >= 0 and e1.nodes >= e1.last["nodes"]
        assert (e1.last["value_name"] is None) == (e1.last["value"] is None)
    mcts = ttt.Engine("mcts:iterations=500")
    mcts.choose(ttt.Board(moves="b2 a1"))
    assert mcts.last["value_name"] == "win rate" and 0 <= mcts.last["value"] <= 1
    rnd = ttt.Engine("random")
    rnd.choose(ttt.Board())
    assert rnd.last["value_name"] is None and rnd.last["value"] is None


def test_engine_minimax_plays_a_best_move():
    e = ttt.Engine("minimax")
    for moves in ["", "a1", "b2 a1", "a1 b2 c3", "a1 a2 b2"]:
        b = ttt.Board(moves=moves)
        m = e.choose(b)
        s = ttt.solve(b)
        assert next(x for x in s["moves"] if x["cell"] == m)["value"] == s["value"]


def test_engine_describes_itself():
    e = ttt.Engine("mcts:iterations=100", "4x4k3")
    assert e.name == "mcts" and "iterations=100" in e.spec and e.rules == ttt.Rules("4x4k3")
    assert {x["name"] for x in ttt.engines()} >= {"random", "minimax", "mcts"}
    assert [lv["name"] for lv in ttt.levels()][:1] == ["easy"]


def test_engine_analyse():
    b = ttt.Board(moves="a1 b2 c3")
    a = ttt.Engine("minimax").analyse(b)
    assert sorted(m["move"] for m in a["moves"]) == b.moves()
    s = {m["cell"]: m for m in ttt.solve(b)["moves"]}
    for m in a["moves"]:
        assert m["kind"] == "exact"
        assert (m["value"], m["plies"]) == (s[m["move"]]["value"], s[m["move"]]["plies"])
    a = ttt.Engine("mcts:iterations=300").analyse(b)
    assert sorted(m["move"] for m in a["moves"]) == b.moves() and a["method"]
    assert all(0 <= m["share"] <= 1 and -1 <= m["score"] <= 1 for m in a["moves"])


@pytest.mark.parametrize(
    "spec, message",
    [
        ("nosuch", "unknown engine"),
        ("mcts:nosuch=1", "unknown option"),
        ("mcts:iterations=-5", "iterations"),
        ("mcts:iterations=" + "9" * 40, "iterations"),
        ("random:seed=abc", "seed"),
        ("", ""),
        ("mcts:" + "a" * 10000, ""),
    ],
)
def test_engine_bad_spec(spec, message):
    with pytest.raises(ValueError, match=message):
        ttt.Engine(spec)


def test_engine_errors():
    with pytest.raises(TypeError):
        ttt.Engine(42)
    with pytest.raises(ValueError, match="NUL"):
        ttt.Engine("random\0:seed=1")
    e = ttt.Engine("random")
    with pytest.raises(ValueError, match="the game is over"):
        e.choose(ttt.Board(moves="a1 a2 b1 b2 c1"))
    with pytest.raises(ValueError, match="rules 4x4, expected 3x3"):
        e.choose(ttt.Board(rules="4x4"))
    with pytest.raises(ValueError, match="rules"):
        e.analyse(ttt.Board(rules="3x3-misere"))
    with pytest.raises(TypeError):
        e.choose("x../.../...")
    with pytest.raises(TypeError):
        e.choose(None)
    with pytest.raises(ValueError, match="cannot score moves"):
        ttt.Engine("random").analyse(ttt.Board())
    e.close()
    e.close()
    with pytest.raises(ValueError, match="closed"):
        e.choose(ttt.Board())
    with ttt.Engine("random") as e2:
        assert e2.choose(ttt.Board()) in range(9)
    with pytest.raises(ValueError, match="closed"):
        e2.spec


# --- arena ---------------------------------------------------------------------------------------------


def test_arena_records_and_reproducibility():
    a = ttt.arena(["minimax", "random"], games=6, seed=3)
    b = ttt.arena(["minimax", "random"], games=6, seed=3, jobs=2)
    assert a == b
    (p,) = a["pairs"]
    assert (p["a"], p["b"]) == ("minimax", "random")
    assert p["wins"] + p["losses"] + p["draws"] == 6 and p["losses"] == 0  # minimax never loses
    for side in ("wins", "losses", "draws"):
        assert p["a_as_x"][side] + p["a_as_o"][side] == p[side]
    assert math.isclose(p["score"], (p["wins"] + p["draws"] / 2) / 6)
    assert p["draw_ratio"] == p["draws"] / 6
    rr = ttt.arena(["random", "minimax", "heuristic"], games=2)
    assert [(q["a"], q["b"]) for q in rr["pairs"]] == [
        ("random", "minimax"), ("random", "heuristic"), ("minimax", "heuristic")]
    g = ttt.arena(["random", "minimax", "heuristic"], games=2, gauntlet=True)
    assert [(q["a"], q["b"]) for q in g["pairs"]] == [("random", "minimax"), ("random", "heuristic")]


def test_arena_counts_an_outside_engines_forfeits(tmp_path):
    brain = tmp_path / "crashing-brain"
    # Starts as a brain should, then dies when asked for its first move.
    brain.write_text('#!/bin/sh\nwhile read -r line; do\n  case "$line" in\n    START*|RECTSTART*) echo OK ;;\n'
                     '    BEGIN*|TURN*|BOARD*) exit 3 ;;\n  esac\ndone\n')
    brain.chmod(0o755)
    r = ttt.arena(["random", "cmd:path=%s" % brain], games=4, seed=1)
    (p,) = r["pairs"]
    assert (p["wins"], p["losses"], p["draws"]) == (4, 0, 0)
    assert (p["a_forfeits"], p["b_forfeits"]) == (0, 4)
    # Each forfeit with the library's reason, as `ttt arena` prints it, whatever the number of threads.
    why = "engine 'cmd' (%s): could not be written to: it exited with status 3" % brain
    alt = "engine 'cmd' (%s): exited with status 3 while we waited for a move" % brain
    # (Which of the two reasons depends on whether the brain is gone before BOARD's last line is written.)
    for q in (p, ttt.arena(["random", "cmd:path=%s" % brain], games=4, seed=1, jobs=2)["pairs"][0]):
        assert [f["game"] for f in q["forfeits"]] == [0, 1, 2, 3]
        assert all(f["reason"] in (why, alt) for f in q["forfeits"]), q["forfeits"]
    ok = ttt.arena(["minimax", "random"], games=2, seed=1)["pairs"][0]
    assert (ok["a_forfeits"], ok["b_forfeits"], ok["forfeits"]) == (0, 0, [])


def test_an_outside_engine_that_dies_raises_forfeit(tmp_path):
    brain = tmp_path / "dying-brain"
    brain.write_text('#!/bin/sh\nwhile read -r line; do\n  case "$line" in\n    START*|RECTSTART*) echo OK ;;\n'
                     '    BEGIN*|TURN*|BOARD*) exit 3 ;;\n  esac\ndone\n')
    brain.chmod(0o755)
    spec = "cmd:path=%s" % brain
    with pytest.raises(ttt.Forfeit, match="exited with status 3"):
        ttt.Engine(spec).choose(ttt.Board())
    # play() against it: the same exception, not a ValueError that would blame the caller's input
    with pytest.raises(ttt.Forfeit, match="exited with status 3"):
        ttt.play(lambda board: (1, 1), against=spec, games=1)
    assert not issubclass(ttt.Forfeit, ValueError)


@pytest.mark.parametrize(
    "kwargs, error",
    [
        (dict(specs=["random"]), ValueError),
        (dict(specs=["random"] * 33), ValueError),
        (dict(specs="random"), TypeError),
        (dict(specs=["random", 3]), TypeError),
        (dict(specs=["random", "nosuch"]), ValueError),
        (dict(specs=["random", "random"], games=0), ValueError),
        (dict(specs=["random", "random"], games=-1), ValueError),
        (dict(specs=["random", "random"], games=HUGE), ValueError),
        (dict(specs=["random", "random"], games=1.5), TypeError),
        (dict(specs=["random", "random"], seed=-1), ValueError),
        (dict(specs=["random", "random"], seed=2**63), ValueError),
        (dict(specs=["random", "random"], jobs=0), ValueError),
        (dict(specs=["random", "random"], jobs=257), ValueError),
        (dict(specs=["random", "random"], gauntlet="yes"), TypeError),
        (dict(specs=["random", "random"], rules="3x3k9"), ValueError),
    ],
)
def test_arena_errors(kwargs, error):
    with pytest.raises(error):
        ttt.arena(**kwargs)


# --- Finding the library -------------------------------------------------------------------------------


def run_python(code, env):
    full = dict(os.environ)
    full.pop("TTT_LIBRARY", None)
    full.update(env)
    return subprocess.run([sys.executable, "-c", code], env=full, capture_output=True, text=True)


def test_import_with_a_bad_library_path_says_so(tmp_path):
    r = run_python("import ttt", {"TTT_LIBRARY": str(tmp_path / "nope.so")})
    assert r.returncode == 1
    assert "ImportError: ttt: cannot load libttt from TTT_LIBRARY=%s" % (tmp_path / "nope.so") in r.stderr


def test_import_of_a_library_that_is_not_libttt_says_so():
    # Another library (libc here; an older libttt alike) loads, but lacks the package's functions: the import
    # fails then, not at the first call with an AttributeError.
    r = run_python("import ttt", {"TTT_LIBRARY": "libc.so.6"})
    assert r.returncode == 1
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: ttt: cannot load libttt from TTT_LIBRARY=libc.so.6: it has no ttt_")
    assert last.endswith(": not libttt, or a version this package does not match")


def test_import_without_the_library_names_every_path_tried(tmp_path):
    # The package copied where no build tree is next to it, and a library path that holds no libttt.
    pkg = tmp_path / "python" / "ttt"
    src = os.path.dirname(ttt.__file__)
    pkg.mkdir(parents=True)
    for name in os.listdir(src):
        if name.endswith(".py"):
            (pkg / name).write_text(open(os.path.join(src, name)).read())
    r = run_python("import sys; sys.path.insert(0, %r); import ttt" % str(tmp_path / "python"),
                   {"LD_LIBRARY_PATH": str(tmp_path)})
    if r.returncode == 0:
        pytest.skip("a libttt is installed on the system's library path")
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: ttt: cannot find libttt.so; tried: TTT_LIBRARY (not set); ")
    assert str(tmp_path / "build" / "libttt.so") in last and "libttt.so.0 on the system's library path" in last


def test_import_finds_the_build_tree_next_to_the_package():
    lib = os.environ["TTT_LIBRARY"]
    r = run_python("import ttt, ttt._lib; print(ttt._lib.path)", {})
    expected = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(ttt.__file__))), "build",
                            "libttt.so")
    if not os.path.exists(expected):
        pytest.skip("no build/ next to the package (this run uses %s)" % lib)
    assert r.returncode == 0 and r.stdout.strip() == expected


def test_text_that_is_not_unicode_is_a_plain_value_error():
    # A lone surrogate (what errors="surrogateescape" makes of bad bytes) cannot go to the library as UTF-8:
    # a ValueError that says so, not the codec's UnicodeEncodeError.
    bad = "\udc80"
    for call in (lambda: ttt.Rules("3x3" + bad), lambda: ttt.Board("x../.../.." + bad),
                 lambda: ttt.Board(moves="b2 " + bad), lambda: ttt.Engine("mcts" + bad),
                 lambda: ttt.Board().play("b" + bad), lambda: ttt.arena(["random", "x" + bad])):
        with pytest.raises(ValueError, match="not valid Unicode text") as e:
            call()
        assert type(e.value) is ValueError


def test_nothing_crashes_on_garbage():
    """Whatever comes in, the interpreter survives and the exception is TypeError or ValueError."""
    junk = [None, 0, -1, HUGE, -HUGE, 1.5, float("nan"), "", "\0", "é" * 300, "x" * 5000, b"b2", [], [None],
            (1,), (1, 2, 3), {}, object(), True]
    b = ttt.Board()
    e = ttt.Engine("random")
    calls = [ttt.Rules, lambda v: ttt.Board(v), lambda v: ttt.Board(moves=v), lambda v: ttt.Board(rules=v),
             b.copy().play, b.is_legal, lambda v: b[v], b.name, b.cell, ttt.solve, e.choose, e.analyse,
             lambda v: ttt.Engine("random", v), ttt.Engine, ttt.count, lambda v: ttt.solve(b, nodes=v),
             lambda v: ttt.arena(["random", "random"], games=v), lambda v: ttt.arena(v)]
    for call, value in itertools.product(calls, junk):
        try:
            call(value)
        except (TypeError, ValueError):
            pass
    assert b.ply == 0


def test_ctrl_c_stops_a_long_solve():
    """SIGINT during a search that would take hours: KeyboardInterrupt soon after, and the solver still works."""
    import signal

    code = """if True:
        import ttt
        ttt.solve(ttt.Board(moves="b2"))
        try:
            print("start", flush=True)
            ttt.solve(ttt.Board(rules="7x7k5"))
        except KeyboardInterrupt:
            print("interrupted", flush=True)
        print(ttt.solve(ttt.Board(moves="b2"))["value"])
    """
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert p.stdout.readline() == "start\n"
    time.sleep(0.5)  # into the search (earlier, the KeyboardInterrupt comes from Python itself: caught alike)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)  # a guard against a hang, not a measure
    assert p.returncode == 0, err
    assert out.split() == ["interrupted", "draw"]


def test_threads_share_the_solvers_and_engines_safely():
    import threading

    boards = [ttt.Board(moves=m) for m in ["", "b2", "a1", "b2 a1", "a1 b2 c3", "a1 a2 b2"]]
    expected = [ttt.solve(b)["moves"] for b in boards]
    engine = ttt.Engine("minimax")
    errors = []

    def work(seed):
        try:
            for i in range(30):
                j = (seed + i) % len(boards)
                assert ttt.solve(boards[j])["moves"] == expected[j]
                assert engine.choose(boards[j]) in boards[j].moves()
        except Exception as e:  # reported below: pytest does not see a thread's exceptions
            errors.append(repr(e))

    threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
