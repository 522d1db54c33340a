"""How late `ttt brain` answers: two brains play each other on 15x15 through this manager with INFO timeout_turn
set, and every move's answer time (from the line sent to the move read, as a manager sees it) is recorded until
MOVES moves are played. Prints the worst and typical overrun past the limit (negative: time to spare).

usage: python3 bench/brain/overrun.py path/to/ttt [--turn MS] [--moves N] [--size N]
"""
import argparse
import subprocess
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ttt")
    ap.add_argument("--turn", type=int, default=100)
    ap.add_argument("--moves", type=int, default=200)
    ap.add_argument("--size", type=int, default=15)
    a = ap.parse_args()
    brains = [subprocess.Popen([a.ttt, "brain"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
              for _ in range(2)]

    def ask(b, line):
        b.stdin.write(line + "\n")
        b.stdin.flush()
        t0 = time.monotonic()
        reply = b.stdout.readline().strip()
        return reply, (time.monotonic() - t0) * 1000

    times, games = [], 0
    while len(times) < a.moves:
        games += 1
        for i, b in enumerate(brains):
            assert ask(b, "START %d" % a.size)[0] == "OK"
            b.stdin.write("INFO timeout_turn %d\nINFO ttt_seed %d\n" % (a.turn, games * 2 + i))
        cells, side = set(), games % 2
        reply, ms = ask(brains[side], "BEGIN")
        while True:
            times.append(ms)
            cells.add(reply)
            if len(times) >= a.moves or len(cells) == a.size * a.size:
                break
            side ^= 1
            reply, ms = ask(brains[side], "TURN " + reply)
            if not reply[0].isdigit():  # the game is over: the brain answers ERROR
                break
    for b in brains:
        b.stdin.write("END\n")
        b.stdin.flush()
        b.wait()
    times.sort()
    over = [t - a.turn for t in times]
    print("%d moves in %d games at %d ms a move: overrun worst %+.1f ms, p99 %+.1f, median %+.1f, best %+.1f"
          % (len(times), games, a.turn, over[-1], over[int(len(over) * 0.99) - 1], over[len(over) // 2], over[0]))


if __name__ == "__main__":
    main()
