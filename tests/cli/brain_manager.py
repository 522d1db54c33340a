"""A scripted Gomocup manager for `ttt brain` (run by tests/cli/brain.sh; Python standard library only).

It drives the brain through every command of the protocol, its errors, TAKEBACK and RESTART, and full games on
15x15, 20x20 (the protocol's other usual size, ttt's largest board) and, through the extension keys, 3x3 (plain
and misere), checking every answer: each move legal, each game finished by the rules. The opponent plays seeded
random moves, so a run is reproducible. 21x21 is beyond ttt's boards (20 a side at most): the brain must answer
START 21 with ERROR and go on.

usage: brain_manager.py path/to/ttt
"""
import os
import random
import select
import subprocess
import sys

REPLY_TIMEOUT_S = 60  # a brain that says nothing for this long has hung (not a timing assertion)
TURN_MS = 30  # the brains' time per move in the games below

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)
    return cond


class Brain:
    def __init__(self, ttt, *args, crlf=False):
        self.p = subprocess.Popen([ttt, "brain", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
        self.crlf = crlf
        self.buf = b""

    def send(self, line):
        self.p.stdin.write((line + ("\r\n" if self.crlf else "\n")).encode())
        self.p.stdin.flush()

    def read(self):
        """The next line the brain writes (without its line break), or None at EOF or after the timeout."""
        while b"\n" not in self.buf:
            ready, _, _ = select.select([self.p.stdout], [], [], REPLY_TIMEOUT_S)
            if not ready:
                return None
            chunk = os.read(self.p.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode().rstrip("\r")

    def ask(self, line):
        self.send(line)
        return self.read()

    def answer(self, line):
        """The answer to a command, skipping MESSAGE and DEBUG lines."""
        self.send(line)
        while True:
            r = self.read()
            if r is None or not (r.startswith("MESSAGE") or r.startswith("DEBUG")):
                return r

    def close(self):
        try:
            self.send("END")
        except BrokenPipeError:
            pass
        try:
            rc = self.p.wait(REPLY_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.p.kill()
            rc = self.p.wait()
            check(False, "the brain did not exit after END")
        err = self.p.stderr.read().decode()
        check(rc == 0, "the brain exited %s after END (stderr: %s)" % (rc, err[:200]))
        check(err == "", "the brain wrote to stderr: %s" % err[:200])


def parse_move(reply):
    try:
        x, y = reply.split(",")
        return int(x), int(y)
    except (AttributeError, ValueError):
        return None


class Game:
    """The manager's own board: who is where, and whether the last stone made k in a row."""

    def __init__(self, w, h, k, misere=False):
        self.w, self.h, self.k, self.misere = w, h, k, misere
        self.cells = {}
        self.over = False
        self.winner = None

    def empty(self):
        return [(x, y) for y in range(self.h) for x in range(self.w) if (x, y) not in self.cells]

    def line(self, x, y, who):
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            n = 1
            for s in (1, -1):
                cx, cy = x + s * dx, y + s * dy
                while self.cells.get((cx, cy)) == who:
                    n += 1
                    cx, cy = cx + s * dx, cy + s * dy
            if n >= self.k:
                return True
        return False

    def play(self, x, y, who):
        """Plays who's stone; False when the move is not legal."""
        if self.over or not (0 <= x < self.w and 0 <= y < self.h) or (x, y) in self.cells:
            return False
        self.cells[(x, y)] = who
        if self.line(x, y, who):
            self.over = True
            self.winner = ("manager" if who == "brain" else "brain") if self.misere else who
        elif len(self.cells) == self.w * self.h:
            self.over = True
        return True


def full_game(brain, rng, w, h, k, misere=False, brain_first=True, label=""):
    """One game, the brain against random moves; returns the Game, or None when the brain misbehaved."""
    g = Game(w, h, k, misere)
    if brain_first:
        reply = brain.answer("BEGIN")
    else:
        x, y = rng.choice(g.empty())
        g.play(x, y, "manager")
        reply = brain.answer("TURN %d,%d" % (x, y))
    while True:
        m = parse_move(reply)
        if not check(m is not None and g.play(m[0], m[1], "brain"),
                     "%s: the brain's move '%s' is not legal" % (label, reply)):
            return None
        if g.over:
            return g
        x, y = rng.choice(g.empty())
        g.play(x, y, "manager")
        if g.over:
            return g
        reply = brain.answer("TURN %d,%d" % (x, y))


def test_about_unknown_and_errors(ttt):
    b = Brain(ttt)
    about = b.ask("ABOUT")
    check(about is not None and about.startswith('name="ttt", version="') and "author=" in about
          and "country=" in about, "ABOUT: got %r" % about)
    r = b.ask("HELLO world")
    check(r is not None and r.startswith("UNKNOWN"), "HELLO: expected UNKNOWN, got %r" % r)
    r = b.ask("BEGIN")
    check(r is not None and r.startswith("ERROR") and "START" in r, "BEGIN before START: got %r" % r)
    for bad in ("START", "START x", "RECTSTART 10", "TURN 1", "TURN a,b", "TAKEBACK", "BEGIN now",
                "INFO timeout_turn soon", "1,2,7", "DONE"):
        r = b.ask(bad)
        check(r is not None and r.startswith("ERROR "), "%r: expected ERROR, got %r" % (bad, r))
    r = b.ask("START 21")
    check(r is not None and r.startswith("ERROR") and "21x21" in r and "20" in r, "START 21: got %r" % r)
    for rect in ("RECTSTART 21,20", "RECTSTART 20,21"):
        r = b.ask(rect)
        check(r is not None and r.startswith("ERROR"), "%s: got %r" % (rect, r))
    r = b.ask("START 2")
    check(r is not None and r.startswith("ERROR"), "START 2: got %r" % r)
    check(b.ask("START 15") == "OK", "START 15 after errors: expected OK")
    # INFO has no answer (the next line answers ABOUT); a rule ttt cannot honour gets a MESSAGE.
    for info in ("INFO timeout_turn 50", "INFO timeout_match 100000", "INFO time_left 100000",
                 "INFO max_memory 83886080", "INFO game_type 1", "INFO rule 0", "INFO folder /tmp",
                 "INFO evaluate 3,4"):
        b.send(info)
    r = b.ask("ABOUT")
    check(r is not None and r.startswith('name="ttt"'), "INFO lines must have no answer; got %r" % r)
    for rule, word in (("1", "exactly five"), ("4", "renju"), ("2", "continuous")):
        r = b.ask("INFO rule " + rule)
        check(r is not None and r.startswith("MESSAGE") and word in r, "INFO rule %s: got %r" % (rule, r))
    r = b.ask("TURN 15,3")
    check(r is not None and r.startswith("ERROR") and "off the 15x15 board" in r, "TURN off board: got %r" % r)
    r = b.answer("TURN 7,7")
    check(parse_move(r) is not None and parse_move(r) != (7, 7), "TURN 7,7: got %r" % r)
    r = b.ask("TURN 7,7")
    check(r is not None and r.startswith("ERROR"), "TURN on a taken cell: got %r" % r)
    r = b.ask("BEGIN")
    check(r is not None and r.startswith("ERROR"), "BEGIN on a board with stones: got %r" % r)
    b.close()


def test_takeback_and_restart(ttt):
    b = Brain(ttt)
    check(b.ask("START 15") == "OK", "START 15")
    b.send("INFO timeout_turn %d" % TURN_MS)
    first = parse_move(b.answer("BEGIN"))
    check(first is not None, "BEGIN: no move")
    second = parse_move(b.answer("TURN 0,0"))
    check(second is not None and second not in (first, (0, 0)), "TURN 0,0: got %r" % (second,))
    # Take back the brain's last move and the manager's, then play the same cell again: it is free.
    check(b.ask("TAKEBACK %d,%d" % second) == "OK", "TAKEBACK of the brain's move")
    check(b.ask("TAKEBACK 0,0") == "OK", "TAKEBACK of the manager's move")
    r = b.ask("TAKEBACK 0,0")
    check(r is not None and r.startswith("ERROR") and "empty" in r, "TAKEBACK of an empty cell: got %r" % r)
    r = parse_move(b.answer("TURN 0,0"))
    check(r is not None and r != first and r != (0, 0), "TURN 0,0 after TAKEBACK: got %r" % (r,))
    # RESTART: the same board, empty again, so 0,0 and the first move are free.
    check(b.ask("RESTART") == "OK", "RESTART")
    r = parse_move(b.answer("TURN %d,%d" % first))
    check(r is not None and r != first, "TURN after RESTART: got %r" % (r,))
    b.close()


def test_board(ttt):
    b = Brain(ttt, crlf=True)  # every line of this brain ends in CR LF
    check(b.ask("START 15") == "OK", "START 15 (CR LF)")
    b.send("INFO timeout_turn %d" % TURN_MS)
    # The opponent (2) has four in a row on row 7, columns 3..6, with both ends open but one blocked by the
    # brain (1): the brain must take 7,7, the only cell that does not lose at once.
    lines = ["BOARD", "3,7,2", "4,7,2", "5,7,2", "6,7,2", "2,7,1", "10,10,1", "11,12,1", "12,3,1"]
    for line in lines:
        b.send(line)
    r = b.answer("DONE")
    check(parse_move(r) == (7, 7), "BOARD with an open four to block: expected 7,7, got %r" % r)
    # Bad positions: too many own stones, a stone off the board, a continuous-game stone, a stray command.
    for stones, why in ((["1,1,1", "2,2,1"], "own"), (["15,1,2"], "off the"), (["1,1,3"], "continuous"),
                        (["1,1,2", "1,1,1"], "two stones")):
        b.send("BOARD")
        for s in stones:
            b.send(s)
        r = b.answer("DONE")
        check(r is not None and r.startswith("ERROR") and why in r, "BOARD %s: got %r" % (stones, r))
    b.send("BOARD")
    r = b.ask("ABOUT")
    check(r is not None and r.startswith("ERROR BOARD"), "a command inside BOARD: got %r" % r)
    r = b.read()
    check(r is not None and r.startswith('name="ttt"'), "the command after a dropped BOARD runs: got %r" % r)
    # The brain as O from a BOARD (one stone fewer), then play goes on with TURN.
    b.send("BOARD")
    b.send("7,7,2")
    r = parse_move(b.answer("DONE"))
    check(r is not None and r != (7, 7), "BOARD as O: got %r" % (r,))
    b.close()


def wins_both_ways(b, rng, n):
    """Two games on the n x n board already started, five in a row, the brain first then second: it must win
    both against random moves; RESTART after each."""
    for first in (True, False):
        g = full_game(b, rng, n, n, 5, brain_first=first, label="%dx%d" % (n, n))
        check(g is not None and g.over and g.winner == "brain",
              "%dx%d against random moves (brain first: %s): the brain must win" % (n, n, first))
        check(b.ask("RESTART") == "OK", "RESTART after a %dx%d game" % (n, n))


def test_full_games(ttt):
    rng = random.Random(16)
    b = Brain(ttt)
    check(b.ask("START 15") == "OK", "START 15")
    b.send("INFO timeout_turn %d" % TURN_MS)
    b.send("INFO ttt_seed 3")
    wins_both_ways(b, rng, 15)
    # A rectangle, with RECTSTART.
    check(b.ask("RECTSTART 12,9") == "OK", "RECTSTART 12,9")
    g = full_game(b, rng, 12, 9, 5, label="12x9")
    check(g is not None and g.over and g.winner == "brain", "12x9: the brain must win against random moves")
    # The largest boards: 20x20 (START 20, the protocol's other usual size), its far corner included, and a
    # 20-wide rectangle.
    check(b.ask("START 20") == "OK", "START 20")
    m = parse_move(b.answer("TURN 19,19"))
    check(m is not None and m != (19, 19) and 0 <= m[0] < 20 and 0 <= m[1] < 20, "TURN 19,19 on 20x20: got %r" % (m,))
    check(b.ask("RESTART") == "OK", "RESTART on 20x20")
    wins_both_ways(b, rng, 20)
    check(b.ask("RECTSTART 20,6") == "OK", "RECTSTART 20,6")
    g = full_game(b, rng, 20, 6, 5, label="20x6")
    check(g is not None and g.over and g.winner == "brain", "20x6: the brain must win against random moves")
    b.close()
    # 3x3 through the extension keys: the solver never loses, as X or as O.
    b = Brain(ttt)
    b.send("INFO ttt_k 3")
    check(b.ask("START 3") == "OK", "START 3 with INFO ttt_k 3")
    for i in range(6):
        g = full_game(b, rng, 3, 3, 3, brain_first=i % 2 == 0, label="3x3")
        check(g is not None and g.over and g.winner != "manager", "3x3 game %d: the brain must not lose" % i)
        check(b.ask("RESTART") == "OK", "RESTART on 3x3")
    # The extension keys after START, before the first move: 4x4 with three in a row, then misere 3x3.
    check(b.ask("START 4") == "OK", "START 4")
    b.send("INFO ttt_k 3")
    g = full_game(b, rng, 4, 4, 3, label="4x4k3")
    check(g is not None and g.winner == "brain", "4x4k3 (X wins with best play): the brain must win")
    check(b.ask("START 3") == "OK", "START 3")
    b.send("INFO ttt_misere 1")
    for i in range(4):
        g = full_game(b, rng, 3, 3, 3, misere=True, brain_first=i % 2 == 1, label="3x3 misere")
        check(g is not None and g.over and g.winner != "manager", "3x3 misere game %d: the brain must not lose" % i)
        check(b.ask("RESTART") == "OK", "RESTART on 3x3 misere")
    b.send("INFO ttt_misere 0")
    b.answer("BEGIN")
    r = b.ask("INFO ttt_k 4")
    check(r is not None and r.startswith("ERROR") and "after its first move" in r, "ttt_k mid-game: got %r" % r)
    b.close()


def test_end_of_input(ttt):
    p = subprocess.run([ttt, "brain"], input=b"START 3\r\nBEGIN\r\n", capture_output=True, timeout=REPLY_TIMEOUT_S)
    lines = p.stdout.decode().splitlines()
    check(p.returncode == 0 and lines[0] == "OK" and parse_move(lines[1]) is not None,
          "brain at end of input: rc %d, output %r" % (p.returncode, lines))
    p = subprocess.run([ttt, "brain", "--think"], input=b"START 3\nINFO ttt_seed 1\nBEGIN\n", capture_output=True,
                       timeout=REPLY_TIMEOUT_S)
    out = p.stdout.decode()
    check("MESSAGE" in out and "DEBUG" in out and "nodes" in out, "--think: got %r" % out)
    p = subprocess.run([ttt, "brain"], input=b"START 3\nBEGIN\n", capture_output=True, timeout=REPLY_TIMEOUT_S)
    check("MESSAGE" not in p.stdout.decode(), "without --think, no MESSAGE lines")


def test_usage(ttt):
    for args, why in ((["--engine", "nope"], "unknown engine"), (["extra"], "unexpected argument"),
                      (["--engine", "mcts:tree=1"], "tree=1")):
        p = subprocess.run([ttt, "brain", *args], input=b"", capture_output=True, timeout=REPLY_TIMEOUT_S)
        err = p.stderr.decode()
        check(p.returncode == 2 and err.count("\n") == 1 and err.startswith("ttt brain: ") and why in err,
              "ttt brain %s: rc %d, stderr %r" % (" ".join(args), p.returncode, err))


def test_refused_rules_are_not_kept(ttt):
    # An extension key answered ERROR changes nothing, now or for the games after it.
    b = Brain(ttt)
    got = [b.answer("START 5"), b.ask("INFO ttt_k 9"), b.answer("START 4"), b.answer("BEGIN"),
           b.ask("INFO ttt_k 3"), b.answer("START 5")]
    check(got[0] == "OK" and got[1].startswith("ERROR INFO ttt_k: k=9 is longer") and got[2] == "OK" and
          parse_move(got[3]) is not None and got[4].startswith("ERROR INFO ttt_k: the rules of a game cannot")
          and got[5] == "OK", "refused ttt_k: %r" % got)
    # The game after the refused k=3 is five in a row on 5x5: a row of three does not end it.
    moves = [b.answer("BOARD\n0,0,2\n1,0,2\n2,0,2\n0,1,1\n1,1,1\nDONE")]
    check(parse_move(moves[0]) is not None, "k=3 refused, yet three in a row ended the game: %r" % moves)
    b.close()


def sanitized(ttt):
    """True for a build with AddressSanitizer, whose shadow memory an address-space limit cannot hold."""
    with open(ttt, "rb") as f:
        return b"__asan_init" in f.read()


def test_memory(ttt):
    # A line of 300 MB without its end, then one with: each is rejected, the brain goes on, and in an address
    # space of 200 MB (the brain's own needs are a few MB) no line is held whole.
    import resource
    limit = 200 << 20

    def limited():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    huge = b"A" * (300 << 20)
    p = subprocess.run([ttt, "brain"], input=b"START 5\n" + huge + b"\n" + huge + b"\nABOUT",
                       capture_output=True, timeout=REPLY_TIMEOUT_S, preexec_fn=None if sanitized(ttt) else limited)
    lines = p.stdout.decode().splitlines()
    check(p.returncode == 0 and lines[:3] == ["OK"] + ["ERROR line longer than 4096 characters"] * 2 and
          len(lines) == 4 and lines[3].startswith('name="ttt"'),
          "a 300 MB line: rc %d, output %r" % (p.returncode, [x[:80] for x in lines]))
    # INFO max_memory bounds minimax's transposition table as it bounds mcts's tree: half of it, in MiB.
    p = subprocess.run([ttt, "brain", "--think"], input=b"START 5\nINFO max_memory 10000000\nBEGIN\n",
                       capture_output=True, timeout=REPLY_TIMEOUT_S)
    out = p.stdout.decode()
    check("DEBUG engine minimax:" in out and ",tt=4," in out, "minimax under max_memory 10000000: %r" % out)


def test_engine_made_at_start(ttt):
    # The engine is made when the game starts (a slow one, a table to build, then does not eat the first move's
    # time), once: INFO timeout_turn and a max_memory the engine does not size itself by keep it.
    p = subprocess.run([ttt, "brain", "--think", "--engine", "random"],
                       input=b"START 3\nINFO timeout_turn 50\nINFO max_memory 1000000\nBEGIN\n",
                       capture_output=True, timeout=REPLY_TIMEOUT_S)
    lines = p.stdout.decode().splitlines()
    made = [i for i, x in enumerate(lines) if x.startswith("DEBUG engine random:") and " made in " in x]
    check(p.returncode == 0 and made == [0] and lines[1] == "OK" and parse_move(lines[-1]) is not None,
          "engine made at START: %r" % lines)


def test_manager_stops_reading(ttt):
    # With SIGPIPE ignored (as a manager may leave it), a brain whose output is closed stops at its first failed
    # answer, says so and exits 1, instead of thinking on for every command still coming.
    import signal
    p = subprocess.Popen([ttt, "brain"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         preexec_fn=lambda: signal.signal(signal.SIGPIPE, signal.SIG_IGN))
    p.stdin.write(b"START 5\nINFO timeout_turn 1\n")
    p.stdin.flush()
    first = p.stdout.readline()
    p.stdout.close()
    try:
        p.stdin.write(b"BEGIN\nRESTART\n" * 3 + b"ABOUT\n")
        p.stdin.close()
    except BrokenPipeError:
        pass
    rc = p.wait(REPLY_TIMEOUT_S)
    err = p.stderr.read().decode()
    check(first == b"OK\n" and rc == 1 and err == "ttt brain: standard output: write error (the manager stopped "
          "reading)\n", "output closed: rc %d, stderr %r" % (rc, err))


def main():
    ttt = sys.argv[1]
    for t in (test_about_unknown_and_errors, test_takeback_and_restart, test_board, test_full_games,
              test_end_of_input, test_usage, test_memory, test_engine_made_at_start, test_manager_stops_reading,
              test_refused_rules_are_not_kept):
        t(ttt)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
