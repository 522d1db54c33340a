#!/usr/bin/env python3
"""How the opponent's won games end, from c-gomoku-cli's SGF files: the ply from which it answered every
move in under FAST ms (it has found its win, or only forced replies are left), and the plies from there to
the five.

usage: wins.py GAMES.sgf [MORE.sgf ...] [--engine NAME] [--fast MS]
  NAME [rapfi]  the engine whose won games are read (PB / PW as the manager wrote them)
  MS [60]       a move answered faster than this counts as instant
"""
import argparse
import re
import statistics

GAME = re.compile(r"\(;FF\[4\].*?\)\s*$", re.S | re.M)
MOVE = re.compile(r";([BW])\[(\w*)\]C\[([^\]]*)\]")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--engine", default="rapfi")
    ap.add_argument("--fast", type=int, default=60)
    a = ap.parse_args()
    instant, rest, lengths = [], [], []
    for name in a.files:
        with open(name, encoding="utf-8") as f:
            text = f.read()
        for game in GAME.findall(text):
            black = re.search(r"PB\[([^\]]*)\]", game)
            result = re.search(r"RE\[([^\]]*)\]", game)
            if not black or not result:
                continue
            side = "B" if black.group(1) == a.engine else "W"
            if not result.group(1).startswith(side):
                continue
            moves = MOVE.findall(game)
            first = None
            for i in range(len(moves) - 1, -1, -1):
                colour, _, comment = moves[i]
                if colour != side or comment == "opening move":
                    continue
                ms = int(comment[:-2]) if comment.endswith("ms") else 0
                if ms >= a.fast:
                    break
                first = i + 1
            if first:
                instant.append(first)
                rest.append(len(moves) - first + 1)
                lengths.append(len(moves))
    if not lengths:
        print("no won game of %s with a fast ending" % a.engine)
        return
    print("%s: %d won games; median plies %.1f (the opening's stones included); instant from ply %.1f "
          "(median), then %.1f plies to the five" % (a.engine, len(lengths), statistics.median(lengths),
                                                      statistics.median(instant), statistics.median(rest)))


if __name__ == "__main__":
    main()
