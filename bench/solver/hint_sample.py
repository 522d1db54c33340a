#!/usr/bin/python3
"""How many of the server's hints on 7x7k5 the solver proves.

Takes a sample of positions from real games (mcts against mcts, seeded, so the sample is the same on every
run), asks `ttt serve` of the given binary for the hint of each, as the page does (POST /api/analyse with the
game's moves), and prints how many the solver proved (every move's value exact), the reply times and the
split by game phase (stones on the board).

The positions are made once, by one binary, and kept in a file (--positions), so that two builds (before and
after) are asked about the same ones: the file is made when it does not exist, and read otherwise.

Modes (--mode):
  cap   the solver alone with the server's cap (ms=2000, no engine): what the solver proves in 2 s (default)
  page  the page's own request for a person playing mcts: engine=mcts and the default budget (1000 ms), of
        which the server gives the solver half before the engine scores the moves

Python 3 standard library only. Example:
  bench/solver/hint_sample.py --bin build/ttt
  bench/solver/hint_sample.py --bin ../before/build/ttt
"""

import argparse
import json
import os
import random
import select
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request

RULES = "7x7k5"
CELLS = 49
DEFAULT_COUNT = 200
PER_GAME = 10  # positions from one game, one from each tenth of it
DEFAULT_SEED = 14
DEFAULT_ITERATIONS = 10000  # mcts's default: the games a person meets on the page
CAP_MS = 2000  # WEB_MAX_ENGINE_MS: the longest a hint may think
PAGE_ENGINE = "mcts"
SERVE_START_S = 10  # how long the server may take to print its URL
REQUEST_SLACK_S = 30  # on top of the budget, before a request counts as hung
PHASES = [(0, 9), (10, 19), (20, 29), (30, 39), (40, CELLS - 1)]
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_POSITIONS = os.path.join(HERE, "hint_positions_7x7k5.jsonl")


def die(msg):
    print(f"hint_sample: {msg}", file=sys.stderr)
    sys.exit(2)


def executable(path):
    if not os.path.isfile(path) or not os.access(path, os.X_OK):
        die(f"'{path}' is not an executable file (build it first: make build)")
    return os.path.abspath(path)


def key_of(moves):
    """The position after moves (X's cells, O's cells): the same board reached in another order is one."""
    return (frozenset(moves[0::2]), frozenset(moves[1::2]))


def play_game(binary, game, seed, iterations):
    """One mcts-vs-mcts game on 7x7k5, seeded by game and seed; its moves."""
    x = f"mcts:seed={seed * 1000 + 2 * game},iterations={iterations}"
    o = f"mcts:seed={seed * 1000 + 2 * game + 1},iterations={iterations}"
    db = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"hint_sample.{os.getpid()}.db")
    try:
        for path in (db, db + "-wal", db + "-shm"):
            if os.path.exists(path):
                os.remove(path)
        run = subprocess.run(
            [binary, "play", "--rules", RULES, "--x", x, "--o", o, "--plain", "--record", "--db", db],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if run.returncode != 0:
            die(f"'{binary} play' failed ({run.returncode}): {run.stderr.strip()}")
        hist = subprocess.run([binary, "history", "--db", db, "--json", "--limit", "1"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if hist.returncode != 0:
            die(f"'{binary} history' failed ({hist.returncode}): {hist.stderr.strip()}")
        lines = [line for line in hist.stdout.splitlines() if line.strip()]
        if len(lines) != 1:
            die(f"'{binary} history --json' gave {len(lines)} games, expected 1")
        rec = json.loads(lines[0])
        return rec["moves"].split(), rec["result"], x, o
    finally:
        for path in (db, db + "-wal", db + "-shm"):
            if os.path.exists(path):
                os.remove(path)


def generate(binary, path, count, seed, iterations):
    """Plays games until count distinct non-terminal positions are taken (PER_GAME per game, one from each
    tenth of the game, at a seeded ply) and writes them to path, one JSON object a line."""
    rng = random.Random(seed)
    seen, out, game = set(), [], 0
    while len(out) < count:
        moves, result, x, o = play_game(binary, game, seed, iterations)
        n = len(moves)  # positions after 0..n-1 moves are not over
        for j in range(PER_GAME):
            lo, hi = j * n // PER_GAME, max(j * n // PER_GAME, (j + 1) * n // PER_GAME - 1)
            ply = rng.randint(lo, hi)
            k = key_of(moves[:ply])
            if k in seen or len(out) == count:
                continue
            seen.add(k)
            out.append({"game": game, "x": x, "o": o, "result": result, "ply": ply,
                        "moves": " ".join(moves[:ply])})
        print(f"hint_sample: game {game}: {n} moves, {result}; {len(out)}/{count} positions",
              file=sys.stderr)
        game += 1
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        for p in out:
            f.write(json.dumps(p) + "\n")
    os.replace(tmp, path)


def read_positions(path, count):
    out = []
    with open(path) as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                p = json.loads(line)
                moves = p["moves"]
                ply = p["ply"]
            except (ValueError, KeyError, TypeError) as e:
                die(f"{path}:{i}: not a position line ({e})")
            if not isinstance(moves, str) or len(moves.split()) != ply:
                die(f"{path}:{i}: 'moves' does not hold {ply} moves")
            out.append(p)
    if len(out) < count:
        die(f"{path} holds {len(out)} positions, fewer than --count {count}")
    return out[:count]


def start_server(binary):
    proc = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", "0", "--no-record"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ready, _, _ = select.select([proc.stdout], [], [], SERVE_START_S)
    line = proc.stdout.readline() if ready else ""  # "ttt serve: http://127.0.0.1:PORT/ (...)"
    if "http://" not in line:
        proc.kill()
        said = line.strip() or (proc.stderr.read().strip().splitlines() or [""])[0] or f"nothing in {SERVE_START_S} s"
        die(f"'{binary} serve' did not print its URL: {said}")
    url = line[line.index("http://"):].split()[0].rstrip("/")
    return proc, url


def analyse(url, moves, mode, ms):
    body = {"rules": RULES, "moves": moves}
    if mode == "page":
        body["engine"] = PAGE_ENGINE
        if ms is not None:
            body["ms"] = ms
    else:
        body["ms"] = ms
    req = urllib.request.Request(url + "/api/analyse", data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    t0 = time.monotonic()
    try:
        with urllib.request.urlopen(req, timeout=(ms or CAP_MS) / 1000 + REQUEST_SLACK_S) as r:
            reply = json.load(r)
    except urllib.error.HTTPError as e:
        die(f"POST /api/analyse {{moves: '{moves}'}} answered {e.code}: {e.read().decode(errors='replace')}")
    except (urllib.error.URLError, TimeoutError, OSError) as e:
        die(f"POST /api/analyse {{moves: '{moves}'}} failed: {e}")
    return reply, (time.monotonic() - t0) * 1000


def pct(sorted_values, q):
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="the ttt binary whose server is asked")
    ap.add_argument("--positions", default=DEFAULT_POSITIONS,
                    help="the sample (made when missing; default: %(default)s)")
    ap.add_argument("--gen-bin", help="the binary that plays the games when the sample is made (default --bin)")
    ap.add_argument("--count", type=int, default=DEFAULT_COUNT, help="positions (default %(default)s)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help="the games' seed (default %(default)s)")
    ap.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS,
                    help="mcts playouts per move in the games (default %(default)s)")
    ap.add_argument("--mode", choices=["cap", "page"], default="cap")
    ap.add_argument("--ms", type=int, help=f"the request's ms (cap: default {CAP_MS}; page: not sent)")
    ap.add_argument("--make-only", action="store_true", help="make the sample (when missing) and stop")
    ap.add_argument("--json", metavar="FILE", help="also write every reply's summary here")
    a = ap.parse_args()
    if a.count < 1:
        die(f"--count must be at least 1, not {a.count}")
    if a.iterations < 1:
        die(f"--iterations must be at least 1, not {a.iterations}")
    if a.ms is not None and not 1 <= a.ms <= CAP_MS:
        die(f"--ms must be 1 to {CAP_MS} (the server's cap), not {a.ms}")
    binary = executable(a.bin)
    ms = a.ms if a.ms is not None else (CAP_MS if a.mode == "cap" else None)
    if not os.path.exists(a.positions):
        gen = executable(a.gen_bin) if a.gen_bin else binary
        generate(gen, a.positions, a.count, a.seed, a.iterations)
    positions = read_positions(a.positions, a.count)
    if a.make_only:
        print(f"hint_sample: {a.positions}: {len(positions)} positions")
        return

    load0 = os.getloadavg()
    proc, url = start_server(binary)
    rows = []
    try:
        for i, p in enumerate(positions):
            reply, wall = analyse(url, p["moves"], a.mode, ms)
            kinds = [m["kind"] for m in reply["moves"]]
            exact = sum(k == "exact" for k in kinds)
            rows.append({"i": i, "ply": p["ply"], "moves": p["moves"], "proven": exact == len(kinds),
                         "exact": exact, "legal": len(kinds), "method": reply.get("method"),
                         "nodes": reply.get("nodes"), "server_ms": reply.get("ms"), "wall_ms": round(wall, 1)})
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    load1 = os.getloadavg()

    if a.json:
        with open(a.json, "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    walls = sorted(r["wall_ms"] for r in rows)
    proven = sum(r["proven"] for r in rows)
    some = sum(0 < r["exact"] < r["legal"] for r in rows)
    budget = f"ms={ms}" if ms is not None else "default ms"
    print(f"{a.bin}: {RULES}, {len(rows)} positions ({os.path.basename(a.positions)}), mode {a.mode} "
          f"({budget}{', engine=' + PAGE_ENGINE if a.mode == 'page' else ''})")
    print(f"load before/after: {load0[0]:.2f} / {load1[0]:.2f}")
    print(f"proven (every move's value exact): {proven}/{len(rows)} ({100 * proven / len(rows):.1f}%); "
          f"some moves exact: {some}; reply ms median {statistics.median(walls):.0f}, "
          f"p90 {pct(walls, 0.9):.0f}, max {walls[-1]:.0f}")
    print("| stones | positions | proven | share | median ms | p90 ms |")
    print("|---|---|---|---|---|---|")
    for lo, hi in PHASES:
        sel = [r for r in rows if lo <= r["ply"] <= hi]
        if not sel:
            continue
        w = sorted(r["wall_ms"] for r in sel)
        pr = sum(r["proven"] for r in sel)
        print(f"| {lo}-{hi} | {len(sel)} | {pr} | {100 * pr / len(sel):.0f}% | {statistics.median(w):.0f} "
              f"| {pct(w, 0.9):.0f} |")


if __name__ == "__main__":
    main()
