#!/usr/bin/env python3
"""Timings of the Python package against plain Python, in `ttt bench`'s columns (not a test: the figures
depend on the machine). Run from anywhere:

    /usr/bin/python3 bench/python/bench.py [--reps N] [--library path/to/libttt.so]

Items: ttt.solve of the empty 3x3 board (every move's exact value) and ttt.cs50.minimax on the empty board,
each cold (a new solver: the solvers' tables are dropped before every repetition) and warm (the table kept
from the previous call, as in a game); beside them a plain Python minimax as CS50 AI's students write it (no
pruning, no memory) and the same with alpha-beta pruning. ms is the median of the repetitions; nodes is what
the item searched (the solver's count, or the plain minimax's calls).
"""

import argparse
import math
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# --- Plain Python, as a student writes it ----------------------------------------------------------------

X, O, EMPTY = "X", "O", None
LINES = [[(r, c) for c in range(3)] for r in range(3)] + [[(r, c) for r in range(3)] for c in range(3)]
LINES += [[(i, i) for i in range(3)], [(i, 2 - i) for i in range(3)]]


def player(board):
    n = sum(cell is not EMPTY for row in board for cell in row)
    return X if n % 2 == 0 else O


def actions(board):
    return {(i, j) for i in range(3) for j in range(3) if board[i][j] is EMPTY}


def result(board, action):
    new = [row[:] for row in board]
    new[action[0]][action[1]] = player(board)
    return new


def winner(board):
    for line in LINES:
        a, b, c = (board[i][j] for i, j in line)
        if a is not None and a == b == c:
            return a
    return None


def terminal(board):
    return winner(board) is not None or all(cell is not EMPTY for row in board for cell in row)


def utility(board):
    return {X: 1, O: -1, None: 0}[winner(board)]


class Plain:
    """Minimax without pruning, counting the positions it visits."""

    def __init__(self, prune):
        self.prune = prune
        self.nodes = 0

    def value(self, board, alpha, beta):
        self.nodes += 1
        if terminal(board):
            return utility(board)
        maximize = player(board) == X
        best = -math.inf if maximize else math.inf
        for action in actions(board):
            v = self.value(result(board, action), alpha, beta)
            if maximize:
                best = max(best, v)
                alpha = max(alpha, v) if self.prune else alpha
            else:
                best = min(best, v)
                beta = min(beta, v) if self.prune else beta
            if self.prune and alpha >= beta:
                break
        return best

    def minimax(self, board):
        maximize = player(board) == X
        best, best_v = None, None
        for action in sorted(actions(board)):
            v = self.value(result(board, action), -math.inf, math.inf)
            if best_v is None or (v > best_v if maximize else v < best_v):
                best, best_v = action, v
        return best


# --- The benchmark ---------------------------------------------------------------------------------------


def measure(reps, run, before=None):
    """Median ms over reps calls of run() (before() first each time, untimed); run returns the nodes."""
    times, nodes = [], 0
    for _ in range(reps):
        if before:
            before()
        t0 = time.perf_counter()
        nodes = run()
        times.append((time.perf_counter() - t0) * 1000.0)
    return statistics.median(times), min(times), nodes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=20, help="repetitions of the library's items (default 20)")
    parser.add_argument("--plain-reps", type=int, default=3, help="repetitions of plain Python (default 3)")
    parser.add_argument("--library", help="libttt.so to use (default: as `import ttt` finds it)")
    args = parser.parse_args()
    if args.reps < 1 or args.plain_reps < 1:
        parser.error("--reps and --plain-reps must be at least 1")
    if args.library:
        os.environ["TTT_LIBRARY"] = args.library
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import ttt
    import ttt.cs50

    def cold():
        ttt._solvers.clear()

    def solve_empty():
        return ttt.solve(ttt.Board())["nodes"]

    def cs50_minimax():
        solver = ttt._solver(ttt.Rules())  # the one minimax uses: its node count tells the work
        before = ttt._lib.lib.ttt_solver_nodes(solver.ptr)
        ttt.cs50.minimax(ttt.cs50.initial_state())
        return ttt._lib.lib.ttt_solver_nodes(solver.ptr) - before

    def plain(prune):
        def run():
            p = Plain(prune)
            p.minimax([[EMPTY] * 3 for _ in range(3)])
            return p.nodes

        return run

    items = [
        ("ttt.solve 3x3 empty (cold)", args.reps, solve_empty, cold),
        ("ttt.solve 3x3 empty (warm)", args.reps, solve_empty, None),
        ("ttt.cs50.minimax empty (cold)", args.reps, cs50_minimax, cold),
        ("ttt.cs50.minimax empty (warm)", args.reps, cs50_minimax, None),
        ("python minimax empty", args.plain_reps, plain(False), None),
        ("python alpha-beta empty", args.plain_reps, plain(True), None),
    ]
    print("library %s; load %s" % (ttt._lib.path, " ".join(open("/proc/loadavg").read().split()[:3])))
    print("%-32s %10s %10s %12s %12s" % ("item", "ms", "min ms", "nodes", "nodes/s"))
    for name, reps, run, before in items:
        med, low, nodes = measure(reps, run, before)
        print("%-32s %10.3f %10.3f %12d %12d" % (name, med, low, nodes, nodes / med * 1000.0))


if __name__ == "__main__":
    main()
