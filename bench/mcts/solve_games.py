#!/usr/bin/env python3
"""Replays the games `ttt play -v --games N` printed and solves every position with `ttt solve --value`:
where each game left its game-theoretic value, who made the move that changed it, and whether the other
side then won. Usage: solve_games.py TTT RULES FILE [FIRST_PLY] (positions before FIRST_PLY, default 4,
are taken as draws: the empty board's value on 7x7k5 and 9x9k5, too slow to prove here)."""
import json
import re
import subprocess
import sys

TIMEOUT_S = 60


def value_for_x(ttt, rules, moves):
    """'X', 'O' or 'draw': who wins the position after `moves` with best play; None when out of time."""
    try:
        run = subprocess.run([ttt, "solve", "--rules", rules, "--value", "--json", "--moves", " ".join(moves)],
                             capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None
    if run.returncode != 0:
        sys.exit(f"solve_games.py: ttt solve failed on {' '.join(moves)}: {run.stderr.strip()}")
    v = json.loads(run.stdout)["value"]
    if v == "draw":
        return "draw"
    to_move = "X" if len(moves) % 2 == 0 else "O"
    return to_move if v == "win" else ("O" if to_move == "X" else "X")


def main():
    ttt, rules, path = sys.argv[1:4]
    first = int(sys.argv[4]) if len(sys.argv) > 4 else 4
    for line in open(path):
        m = re.match(r"game (\d+): X (\S+), O (\S+): (.*?): ((?:draw|X wins|O wins).*)$", line.strip())
        if not m:
            continue
        num, xs, os_, moves, result = m.groups()
        moves = moves.split()
        prev, events = "draw", []
        for p in range(first, len(moves)):
            v = value_for_x(ttt, rules, moves[:p + 1]) if p + 1 < len(moves) else None
            if v is None:
                continue
            if v != prev:
                mover = "X" if p % 2 == 0 else "O"
                events.append(f"ply {p + 1} {moves[p]} by {mover}: {prev} -> {v}")
                prev = v
        print(f"game {num} X={xs} O={os_} {result}; " + ("; ".join(events) if events else "value never changed"))
        sys.stdout.flush()


main()
