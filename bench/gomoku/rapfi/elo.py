#!/usr/bin/env python3
"""W-L-D, score and Elo with its 95% interval of one engine in c-gomoku-cli's SGF files.

usage: elo.py GAMES.sgf [MORE.sgf ...] [--engine NAME] [--no-forfeits] [--json]

Every game of the files counts (a match written in several runs gives several files). NAME (default
"ttt") is the engine's name as the manager wrote it (PB / PW). The score is (W + D/2) / N; its 95%
interval is the normal one over the games' scores, as `ttt arena` prints it, except when every game went
one way (no variance to measure): then the Wilson interval, which stays finite (0 of 40 is below 0.088,
about -412 Elo). Also printed: the split by colour, how games ended (a time forfeit or a crash is
counted as the manager scored it, and named; --no-forfeits leaves such games out of the score), plies
(the opening's stones included) and move times.
"""
import argparse
import json
import math
import re
import statistics
import sys

Z95 = 1.959963984540054
# Elo shown as a bound beyond this (an infinite estimate included), as `ttt arena` does.
ELO_SHOWN = 800.0

GAME = re.compile(r"\(;FF\[4\].*?\)\s*$", re.S | re.M)


def prop(game, key):
    m = re.search(r"\b" + key + r"\[([^\]]*)\]", game)
    return m.group(1) if m else ""


def elo_of(s):
    if s <= 0.0:
        return -math.inf
    if s >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0) + 0.0


def elo_text(e):
    if e > ELO_SHOWN:
        return ">+%.0f" % ELO_SHOWN
    if e < -ELO_SHOWN:
        return "<-%.0f" % ELO_SHOWN
    return "%+.1f" % e


def interval(w, l, d):
    """The 95% interval of the score: normal, or Wilson when every game had the same score."""
    n = w + l + d
    s = (w + d / 2.0) / n
    var = (w * (1 - s) ** 2 + l * s**2 + d * (0.5 - s) ** 2) / n
    if var > 0:
        m = Z95 * math.sqrt(var / n)
        return max(s - m, 0.0), min(s + m, 1.0)
    z2 = Z95 * Z95
    centre = (s + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(s * (1 - s) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(centre - half, 0.0), min(centre + half, 1.0)


def read_games(paths):
    games = []
    for p in paths:
        try:
            with open(p, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError as e:
            sys.exit("%s: cannot read %s: %s" % (sys.argv[0].rsplit("/", 1)[-1], p, e.strerror))
        games += [g.group(0) for g in GAME.finditer(text)]
    return games


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sgf", nargs="+")
    ap.add_argument("--engine", default="ttt")
    ap.add_argument("--no-forfeits", action="store_true",
                    help="leave out games lost on time or by a crash (a process that never started to play)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    games = read_games(a.sgf)
    left_out = 0
    if a.no_forfeits:
        kept = [g for g in games if not re.search(r"time forfeit|opponent crash", prop(g, "TE"))]
        left_out, games = len(games) - len(kept), kept
    if not games:
        sys.exit("elo.py: no games in %s" % " ".join(a.sgf))
    w = l = d = 0
    by_colour = {"black": [0, 0, 0], "white": [0, 0, 0]}
    endings, plies, ours_ms, theirs_ms = {}, [], [], []
    for g in games:
        black, white, result, reason = prop(g, "PB"), prop(g, "PW"), prop(g, "RE"), prop(g, "TE")
        if a.engine not in (black, white):
            sys.exit("elo.py: engine '%s' does not play game %s (%s against %s)" % (a.engine, prop(g, "GN"), black, white))
        colour = "black" if black == a.engine else "white"
        won = {"B+1": "black", "W+1": "white"}.get(result)
        k = 2 if won is None else (0 if won == colour else 1)
        w, l, d = w + (k == 0), l + (k == 1), d + (k == 2)
        by_colour[colour][k] += 1
        endings[reason] = endings.get(reason, 0) + 1
        moves = re.findall(r";([BW])\[[a-z]{2}\](?:C\[(\d+)ms\])?", g)
        plies.append(len(moves))
        for side, ms in moves:
            if ms:
                mine = (side == "B") == (colour == "black")
                (ours_ms if mine else theirs_ms).append(int(ms))
    n = w + l + d
    s = (w + d / 2.0) / n
    lo, hi = interval(w, l, d)
    out = {
        "engine": a.engine,
        "games": n,
        "wins": w,
        "losses": l,
        "draws": d,
        "score": round(s, 4),
        "elo": elo_text(elo_of(s)),
        "elo_95": [elo_text(elo_of(lo)), elo_text(elo_of(hi))],
        "as_black": "%d-%d-%d" % tuple(by_colour["black"]),
        "as_white": "%d-%d-%d" % tuple(by_colour["white"]),
        "endings": endings,
        "forfeits_left_out": left_out,
        "median_plies": statistics.median(plies),
        "move_ms_mean_max": [round(statistics.mean(ours_ms)) if ours_ms else None, max(ours_ms, default=None)],
        "opponent_move_ms_mean_max": [round(statistics.mean(theirs_ms)) if theirs_ms else None,
                                      max(theirs_ms, default=None)],
    }
    if a.json:
        print(json.dumps(out))
        return
    print("%s: %d-%d-%d in %d games, score %.3f, Elo %s [%s, %s] (95%%)"
          % (a.engine, w, l, d, n, s, out["elo"], out["elo_95"][0], out["elo_95"][1]))
    print("  as Black %s, as White %s; median %g plies" % (out["as_black"], out["as_white"], out["median_plies"]))
    print("  moves: %s ms mean, %s max; opponent %s mean, %s max"
          % (tuple(out["move_ms_mean_max"]) + tuple(out["opponent_move_ms_mean_max"])))
    for reason, count in sorted(endings.items(), key=lambda x: -x[1]):
        print("  %3d %s" % (count, reason))
    if left_out:
        print("  %3d left out (time forfeit or crash)" % left_out)


if __name__ == "__main__":
    main()
