"""The Python results carry the fields of the command's --json output for the same request, with the same
values (times aside): ttt.solve and `ttt solve --json`, Engine.choose's last and `ttt move --json`,
ttt.count and `ttt count --json`; and what the command refuses at once, Python refuses at once."""

import json
import os
import subprocess
import time

import pytest

import ttt

# The command next to the library the tests load (build/ttt beside build/libttt.so).
TTT = os.path.join(os.path.dirname(os.path.abspath(os.environ.get("TTT_LIBRARY", ""))), "ttt")
needs_cli = pytest.mark.skipif(not os.access(TTT, os.X_OK), reason="no ttt command beside the library")
TIMES = {"ms"}
# Python keeps a solver per rules between calls, whose table makes a later search shorter: its node count is
# a measure there, like the time.
SOLVER_MEASURES = {"ms", "nodes"}


def cli_json(*args):
    r = subprocess.run([TTT, *args, "--json"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def same_fields(cli, py, measures=TIMES):
    """Every field of the CLI's object is in Python's, with the same value (measures: present, not
    compared); nested objects and lists alike."""
    if isinstance(cli, dict):
        assert isinstance(py, dict), (cli, py)
        for key, value in cli.items():
            assert key in py, "Python lacks %r (has %s)" % (key, sorted(py))
            if key not in measures:
                same_fields(value, py[key], measures)
    elif isinstance(cli, list):
        assert isinstance(py, list) and len(py) == len(cli), (cli, py)
        for a, b in zip(cli, py):
            same_fields(a, b, measures)
    else:
        assert cli == py, (cli, py)


@needs_cli
@pytest.mark.parametrize(
    "rules,moves", [("3x3", ""), ("3x3", "b2 a1"), ("3x3-misere", "b2"), ("4x4k3", "b2 a1 c2"), ("3x3", "a1 b1 a2 b2 a3")]
)
def test_solve_has_the_fields_of_solve_json(rules, moves):
    cli = cli_json("solve", "--rules", rules, "--moves", moves)
    py = ttt.solve(ttt.Board(rules=rules, moves=moves))
    if "outcome" in cli:  # a finished game: the outcome as each side names it
        assert py["outcome"].lower() == cli.pop("outcome")
        py.pop("outcome")
    same_fields(cli, py, SOLVER_MEASURES)


@needs_cli
def test_solve_within_a_budget_says_it_is_not_proven():
    cli = cli_json("solve", "--rules", "5x5k4", "--nodes", "2000")
    py = ttt.solve(ttt.Board(rules="5x5k4"), nodes=2000)
    assert cli["value"] == py["value"] == "unknown" and cli["plies"] is None and py["plies"] is None
    assert py["proven"] is False
    # the same fields; the heuristic scores and their order depend on what the solver's table holds
    assert set(cli) <= set(py)
    assert [sorted(m) for m in cli["moves"]] == [sorted(k for k in m if k != "cell") for m in py["moves"]]
    assert sorted(m["move"] for m in cli["moves"]) == sorted(m["move"] for m in py["moves"])
    # a time budget too: the search stops and says it has not proven anything
    start = time.monotonic()
    py = ttt.solve(ttt.Board(rules="6x6k4"), ms=200)
    assert time.monotonic() - start < 60
    assert py["value"] == "unknown" and py["plies"] is None and not py["proven"]
    assert all(m["value"] == "unknown" and "score" in m for m in py["moves"])


@needs_cli
@pytest.mark.parametrize("spec,moves", [("minimax", "b2 a1"), ("random:seed=3", ""), ("mcts:iterations=200", "a1")])
def test_choose_has_the_fields_of_move_json(spec, moves):
    cli = cli_json("move", "--engine", spec, "--moves", moves)
    e = ttt.Engine(spec)
    e.choose(ttt.Board(moves=moves))
    same_fields(cli, e.last)


@needs_cli
@pytest.mark.parametrize("rules", ["3x3", "3x3-misere", "3x4k3"])
def test_count_has_the_fields_of_count_json(rules):
    same_fields(cli_json("count", "--rules", rules), ttt.count(rules))


def test_count_refuses_what_cannot_fit_at_once():
    start = time.monotonic()
    with pytest.raises(ValueError, match="5x5 may need about .* of memory .*max_memory=0 counts anyway"):
        ttt.count("5x5")
    with pytest.raises(ValueError, match="100 MB is allowed"):
        ttt.count("5x5", max_memory=100)
    with pytest.raises(ValueError, match="too big to count"):
        ttt.count("9x9")
    assert time.monotonic() - start < 5  # a refusal, not a count that fails after minutes
    assert ttt.count("3x3", max_memory=1)["games"]["total"] == 255168  # 3x3 fits in a MiB
    with pytest.raises(ValueError, match="max_memory"):
        ttt.count("3x3", max_memory=-1)
    with pytest.raises(TypeError, match="max_memory"):
        ttt.count("3x3", max_memory="1")


def test_an_unfinished_game_is_ongoing():
    assert ttt.Board().outcome == "ongoing"
    assert ttt.Board(moves="a1 b1 a2 b2 a3").outcome == "X"


def test_public_names_and_docstrings():
    public = {n for n in dir(ttt) if not n.startswith("_")}
    # the package's own names, its submodules, nothing it imported for itself
    assert public == set(ttt.__all__) | {"cs50"}, public - set(ttt.__all__)
    for name in ttt.__all__:
        obj = getattr(ttt, name)
        if isinstance(obj, str):
            continue
        assert (obj.__doc__ or "").strip(), name
        if isinstance(obj, type):
            for attr, value in vars(obj).items():
                if attr.startswith("_"):
                    continue
                f = value.fget if isinstance(value, property) else getattr(value, "__func__", value)
                if callable(f):
                    assert (f.__doc__ or "").strip(), "%s.%s has no docstring" % (name, attr)


# Python's move result adds what the engine thinks of its move; every other field is `ttt move --json`'s.
MOVE_EXTRAS = {"value_name", "value"}


@needs_cli
@pytest.mark.parametrize(
    "spec,has_depth",
    [("random", False), ("minimax", True), ("mcts:iterations=200", False), ("heuristic", False)],
)
def test_choose_has_exactly_the_fields_of_move_json(spec, has_depth):
    cli = cli_json("move", "--engine", spec, "--moves", "b2")
    e = ttt.Engine(spec)
    e.choose(ttt.Board(moves="b2"))
    assert set(e.last) - MOVE_EXTRAS == set(cli), (sorted(e.last), sorted(cli))
    # depth only from an engine that searches by depth, in both
    assert ("depth" in cli) == ("depth" in e.last) == has_depth
    # the time to the microsecond, as the CLI prints it
    assert e.last["ms"] == round(e.last["ms"], 3)


def same_arena(cli, py, where="arena"):
    """The CLI's arena JSON against Python's result: every field of the CLI's is in Python's with the same
    value; the CLI's null for an unbounded Elo is Python's infinity, and its reals have 6 significant
    digits."""
    if isinstance(cli, dict):
        assert isinstance(py, dict), where
        for key, value in cli.items():
            assert key in py, "%s: Python lacks %r (has %s)" % (where, key, sorted(py))
            same_arena(value, py[key], "%s.%s" % (where, key))
    elif isinstance(cli, list):
        assert isinstance(py, list) and len(py) == len(cli), where
        for i, (a, b) in enumerate(zip(cli, py)):
            same_arena(a, b, "%s[%d]" % (where, i))
    elif cli is None and isinstance(py, float):
        assert py in (float("inf"), float("-inf")), "%s: %r for null" % (where, py)
    elif isinstance(cli, float):
        assert py == pytest.approx(cli, rel=1e-5, abs=1e-9), "%s: %r, CLI %r" % (where, py, cli)
    else:
        assert cli == py, "%s: %r, CLI %r" % (where, py, cli)


@needs_cli
@pytest.mark.parametrize(
    "specs,gauntlet",
    [
        (["random", "random", "mcts:iterations=50,name=Fast"], False),
        (["minimax:name=Perfect,depth=2", "random", "random", "minimax:depth=2"], True),
    ],
)
def test_arena_names_engines_as_the_cli_does(specs, gauntlet):
    args = ["arena", "--games", "4", "--seed", "3", "--jobs", "1"] + (["--gauntlet"] if gauntlet else [])
    cli = cli_json(*args, *specs)
    py = ttt.arena(specs, games=4, seed=3, gauntlet=gauntlet)
    same_arena(cli, py)
    names = {p["a"] for p in py["pairs"]} | {p["b"] for p in py["pairs"]}
    assert "random#2" in names and not any("name=" in n for n in names), names
    assert {r["engine"] for r in py["ranking"]} == names


@needs_cli
def test_arena_refuses_an_empty_name_as_the_cli_does():
    r = subprocess.run(
        [TTT, "arena", "--games", "2", "random", "random:name="], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 2
    with pytest.raises(ValueError) as e:
        ttt.arena(["random", "random:name="])
    assert str(e.value) in r.stderr and "name=" in str(e.value), (str(e.value), r.stderr)
