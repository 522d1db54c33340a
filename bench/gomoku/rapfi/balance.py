#!/usr/bin/env python3
"""Black's score over the openings of a self-play SGF (balance.sh), and opening by opening.

usage: balance.py GAMES.sgf

Games are paired in the manager's order (with -repeat, games 2i-1 and 2i share opening i). An opening
whose two games were both won by the same colour favours it (for the engine that played); one game each
way is even.
"""
import re
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from elo import elo_of, elo_text, interval, prop, read_games  # noqa: E402


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    games = sorted(read_games(sys.argv[1:]), key=lambda g: int(prop(g, "GN")))
    b = w = d = 0
    pairs = {"even": 0, "Black both": 0, "White both": 0, "other": 0}
    lines = []
    for i in range(0, len(games) - 1, 2):
        res = [prop(g, "RE") for g in games[i:i + 2]]
        opening = "".join(re.findall(r";[BW]\[([a-z]{2})\]C\[opening move\]", games[i]))
        kind = ("Black both" if res == ["B+1", "B+1"] else "White both" if res == ["W+1", "W+1"]
                else "even" if sorted(res) == ["B+1", "W+1"] else "other")
        pairs[kind] += 1
        lines.append("  opening %2d (%s): %s, %s: %s" % (i // 2 + 1, opening, res[0], res[1], kind))
    for g in games:
        r = prop(g, "RE")
        b, w, d = b + (r == "B+1"), w + (r == "W+1"), d + (r not in ("B+1", "W+1"))
    n = b + w + d
    s = (b + d / 2) / n
    lo, hi = interval(b, w, d)
    print("Black %d-%d-%d in %d games, score %.3f, Elo %s [%s, %s] (95%%)"
          % (b, w, d, n, s, elo_text(elo_of(s)), elo_text(elo_of(lo)), elo_text(elo_of(hi))))
    print("openings: %d even (one game each colour), %d won by Black twice, %d by White twice, %d other"
          % (pairs["even"], pairs["Black both"], pairs["White both"], pairs["other"]))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
