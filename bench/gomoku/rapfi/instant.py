#!/usr/bin/env python3
"""Positions where Rapfi had found its win: in each game it won, the position before its first move of the
final run of instant answers (under 60 ms each, to the end), Rapfi to move; printed one a line as
the plies left to the end, then the cells played (row * 15 + column, from the SGF's letters).

usage: instant.py SGF...   (what bench/gomoku/vct.sh reads)
"""
import re, sys
INSTANT = 60
for path in sys.argv[1:]:
    text = open(path).read()
    for game in re.findall(r"\(;FF.*?\)", text, re.S):
        pb = re.search(r"PB\[(\w+)\]", game).group(1)
        res = re.search(r"RE\[([BW])\+", game)
        if not res:
            continue
        winner = pb if res.group(1) == "B" else re.search(r"PW\[(\w+)\]", game).group(1)
        if winner != "rapfi":
            continue
        moves = re.findall(r";([BW])\[([a-o])([a-o])\]C\[([^\]]*)\]", game)
        cells, who, ms = [], [], []
        for c, x, y, com in moves:
            cells.append((ord(y) - 97) * 15 + ord(x) - 97)
            who.append(c)
            m = re.match(r"(\d+)ms", com)
            ms.append(int(m.group(1)) if m else -1)
        rap = "B" if pb == "rapfi" else "W"
        start = None
        for i in range(len(cells) - 1, -1, -1):
            if who[i] != rap:
                continue
            if ms[i] < 0 or ms[i] >= INSTANT:
                break
            start = i
        if start is None:
            continue
        print(len(cells) - start, " ".join(map(str, cells[:start])))
