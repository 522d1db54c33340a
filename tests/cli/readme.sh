# Command test: the README's shell examples run as written, and their printed output matches the program's.
#
# Examples are taken from README.md: the `$ ` lines of ```console blocks (their output follows them), the lines
# of ```sh blocks, and the example column of the commands table. Each runs in bash with `ttt` standing for the
# binary under test, in a scratch directory with a scratch $HOME and $XDG_DATA_HOME (so nothing touches the
# user's database). A console example's output is compared line by line (trailing spaces ignored): a line
# `...` in the README stands for any number of lines, a line ending in `...` for any line starting with what
# precedes it, and timings ("ms":0.004, 22 ms) are compared as "some time". Examples whose output is not
# deterministic are run for their exit status only (STATUS_ONLY); long-running or interactive ones, and those
# that need a server or are not commands, are skipped by name (SKIP); an entry of either list that matches no
# example fails the test, so the lists follow the README.
source "$(dirname "$0")/harness.bash"

README=$(cd "$(dirname "$0")/../.." && pwd)/README.md
WORK=$(mktemp -d)
trap 'rm -f "$OUT" "$ERR"; rm -rf "$WORK"' EXIT
mkdir -p "$WORK/home" "$WORK/data" "$WORK/run/build"

TTT_PATH=$(cd "$(dirname "$TTT")" && pwd)/$(basename "$TTT")
ln -s "$TTT_PATH" "$WORK/run/build/ttt" # examples that name the binary by its path in the tree (cmd:path=build/ttt)
python3 - "$README" "$TTT_PATH" "$WORK" <<'EOF'
import os, re, subprocess, sys

readme, ttt, work = sys.argv[1:4]

# command -> why it is not run
SKIP = {
    "make play": "interactive (a full-screen game), and it builds the project",
    "make check": "runs the whole test suite (it includes this test)",
    "make fuzz": "fuzzes every harness for a minute",
    "make fuzz FUZZ=web_api FUZZ_TIME=600": "fuzzes for ten minutes",
    "ttt serve --port 8080": "a server that runs until stopped (tests/cli/serve.sh drives it)",
    "ttt serve [--host 127.0.0.1] [--port 8080] [--db PATH] [--no-record] [--max-games 1000] [--idle-expiry 1800]":
        "a synopsis, not a command",
    "[--max-connections 1024] [--per-address 32] [--table-memory 256] [--engine-budget 120000]": "the synopsis' second line",
    "curl -s localhost:8080/api/engines": "needs a running server (tests/cli/serve.sh)",
    "curl -s -X POST -H \"$J\" localhost:8080/api/games -d '{\"rules\": \"3x3\", \"o\": \"perfect\"}'": "needs a running server",
    "curl -s -X POST -H \"$J\" localhost:8080/api/games/5f0c.../move -d '{\"move\": \"b2\"}'": "needs a running server",
    "curl -s -X POST localhost:8080/api/games/5f0c.../engine": "needs a running server",
    "curl -s -X POST -H \"$J\" localhost:8080/api/games/5f0c.../undo -d '{\"plies\": 2}'": "needs a running server",
    "curl -s -X POST -H \"$J\" localhost:8080/api/analyse -d '{\"rules\": \"4x4-misere\", \"moves\": \"a1 b2\"}'":
        "needs a running server",
    "curl -s -X POST -H \"$J\" localhost:8080/api/games/5f0c.../engine -d '{}'": "needs a running server",
    "curl -s -X POST -H \"$J\" localhost:8080/api/games/5f0c.../engine -d '{\"explain\": false}'":
        "needs a running server (tests/test_web_review.c covers it)",
    "curl -s -X POST -H \"$J\" localhost:8080/api/review -d '{\"rules\": \"3x3\", \"moves\": [\"b2\", \"b1\", \"a1\", \"c3\", \"c1\"]}'":
        "needs a running server (tests/test_web_review.c covers /api/review)",
    "curl -s -X POST -H \"$J\" localhost:8080/api/trace -d '{\"rules\": \"3x3\", \"moves\": [\"b2\"], \"engine\": \"minimax\"}'":
        "needs a running server (tests/test_web_review.c covers /api/trace)",
    "curl -s -X POST -H \"$J\" localhost:8080/api/trace -d '{\"rules\": \"3x3\", \"engine\": \"mcts:iterations=100\", \"limit\": 100}'":
        "needs a running server",
    "ttt count --rules 4x4": "long: about 10 s and 1 GB (tests/cli/count_progress.sh covers count)",
    "ttt table build --games 1000000": "long on a loaded machine, and writes a table file (tests/cli/table.sh)",
    "ttt arena --games 1000 mcts minimax random": "long: 3,000 games with mcts (tests/cli/arena.sh)",
    "ttt bench": "long: the whole benchmark (make check compares its signature)",
    "make": "builds the project (the suite runs in a build)",
    "PYTHONPATH=$PWD/python python3 -c 'import ttt; print(ttt.solve(ttt.Board())[\"value\"])'":
        "needs the source tree's python/ (tests/python runs the package in place)",
    'cmake --install build --prefix "$HOME/.local"': "installs the build (tests/cli/install.sh, into a scratch prefix)",
    "make deb": "builds the project again under /usr (tests/cli/deb.sh packages this build with cpack)",
    "sudo apt install ./build-deb/ttt_*.deb": "installs into the system (tests/cli/deb.sh unpacks it into a scratch root)",
    "python3 -m venv --system-site-packages ~/.venvs/ttt": "tests/cli/python_venv.sh runs the block in a scratch $HOME",
    "~/.venvs/ttt/bin/pip install --no-build-isolation ./python": "tests/cli/python_venv.sh runs it",
    "LD_LIBRARY_PATH=$HOME/.local/lib ~/.venvs/ttt/bin/python -c 'import ttt; print(ttt.solve(ttt.Board())[\"value\"])'":
        "tests/cli/python_venv.sh runs it",
}
# command -> why only its exit status is checked
STATUS_ONLY = {
    "ttt history --limit 2": "lists the games of the user's database, with the times they were played",
    "ttt history --show 3": "replays a game of the user's database (here one of the three SETUP records)",
    "ttt move --engine minimax x.o/.x./...": "minimax picks at random among its best moves, seeded from the clock",
    "ttt play --rules 4x4k3 --o random": "the session seed comes from the clock (stdin is empty: line mode, abandoned)",
    "ttt train --against minimax --games 20 --as o": "the seed comes from the clock",
}

# Run first, in the scratch $HOME: a database with three games, for the history examples.
SETUP = "ttt play --x random:seed=4 --o random:seed=5 --games 3 --seed 1 --record >/dev/null"

examples = []  # (kind, command, expected lines or None, README line)
lines = open(readme, encoding="utf-8").read().split("\n")
block = None
for i, line in enumerate(lines, 1):
    fence = re.match(r"^```(\w*)\s*$", line)
    if fence:
        block = None if block is not None else (fence.group(1) or "text")
        continue
    if block == "console":
        if line.startswith("$ "):
            examples.append(["console", line[2:].strip(), [], i])
        elif examples and examples[-1][0] == "console" and examples[-1][2] is not None:
            examples[-1][2].append(line)
    elif block == "sh":
        command = re.sub(r"\s+#.*$", "", line).strip()
        if command and not command.startswith("#"):
            examples.append(["sh", command, None, i])
    elif block is None and line.startswith("| `ttt "):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        example = re.fullmatch(r"`(ttt [^`]*)`", cells[-1])
        if example:
            examples.append(["table", example.group(1), None, i])

# A console example ends at the first blank line followed by nothing of its own: drop trailing blank lines.
for ex in examples:
    if ex[2] is not None:
        while ex[2] and not ex[2][-1].strip():
            ex[2].pop()

TIME = [(re.compile(r'"ms":[0-9.e+-]+'), '"ms":T'), (re.compile(r"\b[0-9]+(\.[0-9]+)? ms\b"), "T ms")]

def normal(text):
    text = text.rstrip()
    for pattern, repl in TIME:
        text = pattern.sub(repl, text)
    return text

def matches(expected, actual):
    """expected lines (with ... wildcards) against actual lines."""
    if not expected:
        return not actual
    head = expected[0]
    if head.strip() == "...":
        return any(matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    if not actual:
        return False
    e, a = normal(head), normal(actual[0])
    ok = a.startswith(e[:-3]) if e.endswith("...") else a == e
    return ok and matches(expected[1:], actual[1:])

env = dict(os.environ, HOME=os.path.join(work, "home"), XDG_DATA_HOME=os.path.join(work, "data"), TTT=ttt,
           NO_COLOR="1")
passed = failed = 0
seen = set()
setup = subprocess.run(["bash", "-c", 'ttt() { "$TTT" "$@"; }\n' + SETUP], cwd=os.path.join(work, "run"), env=env,
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600)
if setup.returncode != 0:
    failed += 1
    print(f"FAIL setup: {SETUP}: exit status {setup.returncode}: {setup.stderr.strip()[:300]}")
for kind, command, expected, where in examples:
    seen.add(command)
    if command in SKIP:
        print(f"skip README:{where}: {command}  ({SKIP[command]})")
        continue
    script = 'ttt() { "$TTT" "$@"; }\n' + command
    run = subprocess.run(["bash", "-c", script], cwd=os.path.join(work, "run"), env=env, stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, timeout=600)
    problem = None
    if run.returncode != 0:
        problem = f"exit status {run.returncode}: {run.stderr.strip()[:300]}"
    elif expected is not None and command not in STATUS_ONLY:
        actual = run.stdout.rstrip("\n").split("\n") if run.stdout.strip() else []
        if not matches(expected, actual):
            problem = ("printed output differs from the README\n--- README\n" + "\n".join(expected) +
                       "\n--- ttt prints\n" + "\n".join(actual[:60]))
    if problem:
        failed += 1
        print(f"FAIL README:{where}: {command}: {problem}")
    else:
        passed += 1
        how = "exit status" if expected is None or command in STATUS_ONLY else "output"
        print(f"ok   README:{where}: {command}  ({how})")
for name, listed in (("SKIP", SKIP), ("STATUS_ONLY", STATUS_ONLY)):
    for command in listed:
        if command not in seen:
            failed += 1
            print(f"FAIL {name} names '{command}', which is no longer an example in the README")
compared = sum(1 for k, c, e, w in examples if e is not None and c not in SKIP and c not in STATUS_ONLY)
if compared < 5:
    failed += 1
    print(f"FAIL only {compared} examples with output found: is the README's format still understood?")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
EOF
RC=$?
[[ $RC -eq 0 ]] && PASS=$((PASS + 1)) || FAIL=$((FAIL + 1))
finish
