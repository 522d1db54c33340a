#!/usr/bin/env python3
"""The moves that lost ttt its games against Rapfi, found with Rapfi as the judge, and a check of an engine on
them.

  find GAMES.sgf [MORE.sgf ...] > POSITIONS
      For each game ttt lost: the first of ttt's moves after which Rapfi (to move, --depth plies) announces a
      forced win (an "M" eval), then Rapfi's own move in the position before it (ttt to move, same depth).
      Prints one line a game: game number, ply, the moves up to there (ttt notation), '|', ttt's move,
      Rapfi's move, Rapfi's eval there (ttt's side). A line whose eval has no M and whose two moves differ
      is a blunder: a position Rapfi holds that ttt's move lost.
  check POSITIONS TTT SPEC
      For each blunder of POSITIONS: `TTT move` with SPEC, then Rapfi (--depth plies) on the position after
      it; counts the moves after which Rapfi still announces a forced win (the engine blundered again).

options: --depth N [16] Rapfi's depth (INFO max_depth: the same verdict at any load); --rapfi PATH
         [/work/ext/bin/pbrain-rapfi, or $EXT/pbrain-rapfi]; --memory BYTES [67108864]
example: blunders.py find results/h31g-11a2755-1s.sgf > /tmp/b.txt
         blunders.py check blunders.txt build/ttt gomoku:time=1000
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

GAME = re.compile(r"\(;FF\[4\].*?\)\s*$", re.S | re.M)
MOVE = re.compile(r";[BW]\[([a-o])([a-o])\]")
EVAL = re.compile(r"Eval (\S+)")
TURN_MS = 600000  # Rapfi stops at the depth long before this


def name(cell):
    return f"{chr(97 + cell[0])}{cell[1] + 1}"


def parse(moves):
    return [(ord(m[0]) - 97, int(m[1:]) - 1) for m in moves.split()]


class Rapfi:
    def __init__(self, path, depth, memory):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.depth = depth
        self.send(f"START 15\nINFO max_memory {memory}")
        if self.p.stdout.readline().strip() != "OK":
            sys.exit("blunders.py: Rapfi did not start")

    def send(self, text):
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()

    def ask(self, moves):
        """Rapfi's move and last eval (the side to move's) in the position of `moves` (x, y from 0)."""
        self.send("RESTART")
        self.p.stdout.readline()
        lines = [f"INFO max_depth {self.depth}", f"INFO timeout_turn {TURN_MS}", "INFO timeout_match 0", "BOARD"]
        for i, (x, y) in enumerate(moves):
            lines.append(f"{x},{y},{1 if (len(moves) - i) % 2 == 0 else 2}")
        lines.append("DONE")
        self.send("\n".join(lines))
        ev = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("blunders.py: Rapfi stopped")
            line = line.strip()
            m = EVAL.search(line)
            if m:
                ev = m.group(1)
            if re.fullmatch(r"\d+,\d+", line):
                x, y = map(int, line.split(","))
                return (x, y), ev

    def close(self):
        self.send("END")
        self.p.wait()


def won(ev):
    """Does the eval announce a forced win for the side to move?"""
    return ev is not None and "M" in ev and not ev.startswith("-")


def find(a, rapfi):
    number = 0
    for path in a.files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for game in GAME.findall(text):
            number += 1
            ttt = "B" if "PB[ttt]" in game else "W"
            result = re.search(r"RE\[([BW])", game)
            if not result or result.group(1) == ttt:
                continue
            moves = [(ord(c) - 97, ord(r) - 97) for c, r in MOVE.findall(game)]
            opening = game.count("opening move")
            parity = 0 if ttt == "B" else 1
            for ply in range(opening, len(moves)):
                if ply % 2 != parity:
                    continue
                if won(rapfi.ask(moves[: ply + 1])[1]):
                    best, ev = rapfi.ask(moves[:ply])
                    before = " ".join(name(m) for m in moves[:ply])
                    print(number, ply, before, "|", name(moves[ply]), name(best), ev, flush=True)
                    break


def blunders(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            head, tail = line.split("|")
            game, ply, moves = head.split(" ", 2)
            played, better, ev = tail.split()
            if "M" not in ev and played != better:
                out.append((game, ply, moves.strip(), played))
    return out


def check(a, rapfi):
    bad, depths, nodes, total = 0, [], 0, 0
    for game, ply, moves, played in blunders(a.positions):
        cmd = [a.ttt, "move", "--rules", "15x15k5", "--engine", a.spec, "--json", "--moves", moves]
        j = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
        _, ev = rapfi.ask(parse(moves + " " + j["move"]))
        lost = won(ev)
        bad += lost
        total += 1
        depths.append(j.get("depth", 0))
        nodes += j["nodes"]
        print(f"game {game} ply {ply}: lost with {played}, now {j['move']}, Rapfi {ev}",
              "LOST" if lost else "held", f"(depth {j.get('depth', 0)})", flush=True)
    print(f"{bad} of {total} still lost; mean depth {statistics.mean(depths):.1f}, {nodes} nodes")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    f = sub.add_parser("find")
    f.add_argument("files", nargs="+")
    c = sub.add_parser("check")
    c.add_argument("positions")
    c.add_argument("ttt")
    c.add_argument("spec")
    for p in (f, c):
        p.add_argument("--depth", type=int, default=16)
        p.add_argument("--rapfi", default=os.path.join(os.environ.get("EXT", "/work/ext/bin"), "pbrain-rapfi"))
        p.add_argument("--memory", type=int, default=67108864)
    a = ap.parse_args()
    for path in [a.rapfi] + ([a.ttt] if a.what == "check" else []):
        if not os.access(path, os.X_OK):
            sys.exit(f"blunders.py: not an executable: {path}")
    for path in a.files if a.what == "find" else [a.positions]:
        if not os.access(path, os.R_OK):
            sys.exit(f"blunders.py: cannot read {path}")
    rapfi = Rapfi(a.rapfi, a.depth, a.memory)
    try:
        (find if a.what == "find" else check)(a, rapfi)
    finally:
        rapfi.close()


if __name__ == "__main__":
    main()
