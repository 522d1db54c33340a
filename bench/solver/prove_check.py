#!/usr/bin/env python3
"""bench/solver/prove_check.py NEW_TTT [BASE_TTT] [COUNT] [SEED] - a soundness check of the draw prover: on
random positions of 6x6k5, 6x7k5 and 7x7k5 with 14 to 30 stones (no line on the board), the value of
`ttt solve --value` must equal the value of the every-move solve (and BASE_TTT's --value when given). Prints
each position and its values; exits 1 on a disagreement."""
import json
import random
import subprocess
import sys

BOARDS = [("6x6k5", 6, 6), ("6x7k5", 6, 7), ("7x7k5", 7, 7)]
TIMEOUT_S = 300


def value(ttt, rules, moves, every):
    cmd = [ttt, "solve", "--rules", rules, "--moves", moves, "--json"] + ([] if every else ["--value"])
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S)
    if out.returncode != 0:
        return None
    return json.loads(out.stdout)["value"]


def main():
    new = sys.argv[1]
    base = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] != "-" else None
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
    done = bad = 0
    while done < count:
        rules, rows, cols = rng.choice(BOARDS)
        cells = [chr(ord("a") + c) + str(r + 1) for r in range(rows) for c in range(cols)]
        moves = " ".join(rng.sample(cells, rng.randint(14, 30)))
        v = value(new, rules, moves, False)
        if v is None:  # a line on the board (the game is over), or a bad position
            continue
        values = [v, value(new, rules, moves, True)] + ([value(base, rules, moves, False)] if base else [])
        ok = len(set(values)) == 1
        bad += not ok
        done += 1
        print(f"{'ok ' if ok else 'BAD'} {rules} {moves}: {' '.join(map(str, values))}", flush=True)
    print(f"{done} positions, {bad} disagreements")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
