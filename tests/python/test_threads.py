"""The package under threads: a program that exits while daemon threads search, and a Board shared by threads.

Each scenario runs in its own python, so that a crash shows as its exit status (139 for a segfault, 134 for a
failed assert) rather than taking pytest down with it.
"""

import subprocess
import sys
import textwrap

import ttt

# A search of several seconds (the empty 7x7 board, k=5: a draw) that polls its progress callback.
LONG_RULES = "7x7k5"

# What every scenario starts with: wait_for_search() returns once a thread holds the solver of LONG_RULES,
# i.e. is in its search or about to enter it.
PRELUDE = """
import threading, time, ttt
LONG = ttt.Rules(%r)
def wait_for_search():
    while not (LONG._key() in ttt._solvers and ttt._solvers[LONG._key()].lock.locked()):
        time.sleep(0.01)
    time.sleep(0.2)  # into the search
""" % LONG_RULES


# Each exit scenario runs this many times: before the fix, one run crashed in about half the tries (the search
# or engine might reach a callback, where Python ends the thread, before the library was unloaded under it).
EXIT_TRIES = 3


def run(code):
    """Runs the scenario in a python of its own: its exit status, output and errors."""
    p = subprocess.run(
        [sys.executable, "-c", PRELUDE + textwrap.dedent(code)], capture_output=True, text=True, timeout=300
    )  # the timeout guards against a hang, it measures nothing
    return p.returncode, p.stdout, p.stderr


def test_exit_while_daemon_threads_search():
    """The interpreter exits while a daemon thread is deep in ttt.solve and another one starts search after
    search: the searches are stopped and waited for, no new one starts, and python exits with 0 and no
    traceback (the library used to be unloaded under the running search: exit 139)."""
    code = """
        def long_search():
            ttt.solve(ttt.Board(rules=LONG))
            print("finished", flush=True)  # not reached: the search is stopped at exit
        def short_searches():
            engine = ttt.Engine("minimax")
            while True:
                board = ttt.Board(moves="b2")
                ttt.solve(board)
                board.play(engine.choose(board))
        for target in (long_search, short_searches):
            threading.Thread(target=target, daemon=True).start()
        wait_for_search()
        print("exiting", flush=True)
    """
    for _ in range(EXIT_TRIES):
        assert run(code) == (0, "exiting\n", "")


def exit_while(work):
    """Runs a python that calls work() (defined by the code work) in a daemon thread and exits during it."""
    return run(
        textwrap.dedent(work)
        + """
running = threading.Event()
def thread():
    running.set()
    work()
threading.Thread(target=thread, daemon=True).start()
running.wait()
time.sleep(0.2)  # into the work
print("exiting", flush=True)
"""
    )


def test_exit_while_a_daemon_thread_plays_a_tournament():
    """ttt.arena in a daemon thread at exit: its stop callback ends the tournament, python exits with 0 (it
    used to unload the library under the arena's threads: exit 139)."""
    work = """
        def work():
            ttt.arena(["mcts:iterations=20000", "minimax"], rules="5x5k4", games=1000, jobs=2)
    """
    for _ in range(EXIT_TRIES):
        assert exit_while(work) == (0, "exiting\n", "")


def test_exit_while_a_daemon_thread_chooses_an_engine_move():
    """Engine.choose in a daemon thread at exit: an engine cannot be stopped, so exit waits for its move (a
    fraction of a second here) and python exits with 0 (the library used to be unloaded under it: exit 139)."""
    work = """
        engine = ttt.Engine("mcts:iterations=50000", rules=LONG)
        def work():
            engine.choose(ttt.Board(rules=LONG))
    """
    for _ in range(EXIT_TRIES):
        assert exit_while(work) == (0, "exiting\n", "")


def test_a_board_shared_by_two_threads_stays_whole():
    """Two threads play and take back moves on one Board: each call is whole (it used to fail the library's
    assert in ttt_board_undo, exit 134, or corrupt the board with asserts off), and the board ends equal
    to the game its history replays."""
    code = """
        import random, sys
        sys.setswitchinterval(1e-6)  # hand the GIL over as often as Python can
        board = ttt.Board(rules="20x20k20")
        def work(seed):
            rng = random.Random(seed)
            for _ in range(50000):
                try:
                    if board.ply < 50 and rng.random() < 0.6:
                        board.play(rng.choice(board.moves()))
                    elif board.ply:
                        board.undo()
                except ValueError:  # the other thread took the cell, or the last move, first
                    pass
        threads = [threading.Thread(target=work, args=(seed,)) for seed in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        history = board.history
        print(board.ply == len(history), board == ttt.Board(rules="20x20k20", moves=history))
    """
    status, out, err = run(code)
    assert (status, out, err) == (0, "True True\n", "")


def test_a_search_sees_a_shared_board_between_two_moves():
    """solve, Engine.choose and copy on a Board another thread plays on: each takes a position the board held
    between two moves (copy used to catch the history a move behind the stones)."""
    code = """
        import sys
        sys.setswitchinterval(1e-6)
        board = ttt.Board()
        engine = ttt.Engine("minimax")
        stop = threading.Event()
        def player():
            while not stop.is_set():
                for move in (4, 0, 8):
                    board.play(move)
                for _ in range(3):
                    board.undo()
        threading.Thread(target=player).start()
        try:
            for _ in range(3000):
                snapshot = board.copy()
                assert snapshot.ply == len(snapshot.history) <= 3, snapshot
                assert snapshot == ttt.Board(moves=snapshot.history), snapshot
                assert ttt.solve(board)["moves"]
                assert engine.choose(board) in range(9)
        finally:
            stop.set()
        print("ok")
    """
    status, out, err = run(code)
    assert (status, out, err) == (0, "ok\n", "")
