# Command tests for `ttt solve` on long searches: the warning up front, the live line on a terminal, Ctrl-C.
source "$(dirname "$0")/harness.bash"

DIR=$(mktemp -d)
trap 'rm -f "$OUT" "$ERR"; rm -rf "$DIR"' EXIT

# The waits below are for a condition (a line printed, a process gone); this cap only keeps a broken command from
# hanging the test. 6x6k4, every move: its four central wins are proven in 0.1 s on an idle machine and the whole
# board takes more than 4 minutes (6x6k5, used before, is now proven in 0.1 s by grouped pairings); under a load
# of 8 with ASan a first move has taken more than the 60 s the cap used to be.
WAIT_CAP_TENTHS=6000

# wait_for FILE PATTERN: waits until FILE matches PATTERN (false after WAIT_CAP_TENTHS tenths of a second).
wait_for() {
    for _ in $(seq $WAIT_CAP_TENTHS); do
        grep -aqE -- "$2" "$1" 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}

# interrupt PID: sends SIGINT and waits for PID to exit (after the cap, SIGTERM: a command that ignores SIGINT
# fails the test instead of hanging it); sets RC to its exit status.
interrupt() {
    kill -INT "$1"
    for _ in $(seq $WAIT_CAP_TENTHS); do
        kill -0 "$1" 2>/dev/null || break
        sleep 0.1
    done
    kill -0 "$1" 2>/dev/null && kill -TERM "$1"
    wait "$1"
    RC=$?
}

# A board that may take long to solve says so at once, in one line, and suggests --time; a small one does not.
: >"$DIR/err" # emptied before the start: the child empties it only once it runs
"$TTT" solve --rules 7x8k5 >"$DIR/out" 2>"$DIR/err" &
PID=$!
if wait_for "$DIR/err" 'may take long to solve exactly.*use --time MS'; then
    PASS=$((PASS + 1))
else
    fail "7x8k5: no warning that the board may take long: $(cat "$DIR/err")"
fi
# Ctrl-C stops the search and prints what is known, marked as not proven; exit status 130 as for SIGINT.
interrupt "$PID"
[[ $RC -eq 130 ]] && PASS=$((PASS + 1)) || fail "solve after SIGINT exited $RC, expected 130"
grep -q 'interrupted after [0-9,]* nodes.*not proven' "$DIR/out" && PASS=$((PASS + 1)) ||
    fail "solve after SIGINT: no 'not proven' report: $(cat "$DIR/out")"
# --value takes no --time: the advice says to drop it. (9x9k5: its value is out of reach for hours; 7x7k4, used
# before, is now proven in under a second and could finish before the Ctrl-C arrived on a loaded machine.)
: >"$DIR/err" # emptied before the start: the child empties it only once it runs
"$TTT" solve --rules 9x9k5 --value >"$DIR/out" 2>"$DIR/err" &
PID=$!
if wait_for "$DIR/err" 'without --value, --time MS'; then
    PASS=$((PASS + 1))
else
    fail "9x9k5 --value: no advice to drop --value: $(cat "$DIR/err")"
fi
# --value catches Ctrl-C too (a background job of a script ignores SIGINT until it installs a handler): it
# prints what is proven so far, marked as not proven, exit 130.
interrupt "$PID"
[[ $RC -eq 130 ]] && PASS=$((PASS + 1)) || fail "solve --value after SIGINT exited $RC, expected 130"
grep -q 'interrupted after [0-9,]* nodes.*not proven' "$DIR/out" &&
    grep -Eq '^9x9k5, X to move: (nothing is proven yet|a (draw or better|win) \(a move searched|(win|draw|loss); in how many)' \
        "$DIR/out" && PASS=$((PASS + 1)) ||
    fail "solve --value after SIGINT: no report of what is proven: $(cat "$DIR/out")"

# With --json the interrupted report is JSON: value unknown, interrupted true, what is proven as at_least.
# check_json FILE PYTHON-CONDITION: FILE holds one JSON object (o) for which the condition holds.
check_json() {
    python3 -c 'import json, sys; o = json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" \
        "$2" 2>/dev/null && PASS=$((PASS + 1)) || fail "$1: not JSON with $2: $(cat "$1")"
}
: >"$DIR/err" # emptied before the start: the child empties it only once it runs
"$TTT" solve --rules 9x9k5 --value --json >"$DIR/out" 2>"$DIR/err" &
PID=$!
wait_for "$DIR/err" 'without --value' # the handler is installed before the warning is printed
interrupt "$PID"
[[ $RC -eq 130 ]] && PASS=$((PASS + 1)) || fail "solve --value --json after SIGINT exited $RC, expected 130"
check_json "$DIR/out" '(o["interrupted"] is True and o["plies"] is None and o["value"] in ("unknown", "win", "draw",
    "loss") and o["at_least"] in (None, "win", "draw", "loss") and o["nodes"] > 0)'
: >"$DIR/err" # emptied before the start: the child empties it only once it runs
"$TTT" solve --rules 6x6k4 --json >"$DIR/out" 2>"$DIR/err" &
PID=$!
wait_for "$DIR/err" 'use --time MS'
interrupt "$PID"
[[ $RC -eq 130 ]] && PASS=$((PASS + 1)) || fail "solve --json after SIGINT exited $RC, expected 130"
check_json "$DIR/out" '(o["interrupted"] is True and o["value"] == "unknown" and o["of"] == 36 and
    (o["best"] is None or o["line"][0] == o["best"]) and o["nodes"] > 0)'
# A finished position: --json gives its outcome and its value for the side to move, not an error.
expect_out 0 '^\{"outcome":"x","value":"loss","plies":0,"moves":\[\],' solve --json --moves "a1 b1 a2 b2 a3"
expect_out 0 '^\{"outcome":"draw","value":"draw","plies":0,' solve --json --moves "a1 b2 c3 a2 a3 b3 b1 c1 c2"
expect_out 0 '^\{"outcome":"o","value":"loss",' solve --json --value --moves "a1 b1 a2 b2 c3 b3"
expect_err 'the game is over \(X wins\): nothing to solve' solve --moves "a1 b1 a2 b2 a3"
# Stopped while the draw prover runs (8x8k5 starts with it): no root move counts as searched, and the report
# says where the proofs were.
: >"$DIR/err" # emptied before the start: the child empties it only once it runs
"$TTT" solve --rules 8x8k5 --json >"$DIR/out" 2>"$DIR/err" &
PID=$!
wait_for "$DIR/err" 'use --time MS'
interrupt "$PID"
check_json "$DIR/out" '(o["interrupted"] is True and o["searched"] == 0 and o["of"] == 64 and o["best"] is None)'
: >"$DIR/err" # emptied before the start: the child empties it only once it runs
"$TTT" solve --rules 8x8k5 >"$DIR/out" 2>"$DIR/err" &
PID=$!
wait_for "$DIR/err" 'use --time MS'
interrupt "$PID"
grep -Eq '^stopped in the draw proofs: (proving [XO] cannot win|draw proofs: )' "$DIR/out" && PASS=$((PASS + 1)) ||
    fail "8x8k5 after SIGINT: no word of the draw proofs: $(cat "$DIR/out")"
expect_out 0 'draw, the game ends in 9' solve
[[ ! -s $ERR ]] && PASS=$((PASS + 1)) || fail "3x3: unexpected stderr $(cat "$ERR")"
# The warning is one line on stderr and says "may": a 7x8k5 position with 8 stones is settled at once; stdout
# has the value alone.
expect_out 0 '^7x8k5, X to move: (win|draw|loss)' solve --rules 7x8k5 --value --moves "d4 c5 d3 d5 e5 c3 e4 c4"
[[ $(wc -l <"$ERR") -eq 1 ]] && grep -q '^ttt solve: 7x8k5 with 48 empty cells may take long' "$ERR" &&
    [[ $(wc -l <"$OUT") -eq 2 ]] && PASS=$((PASS + 1)) || fail "7x8k5 --value: not a one-line warning: $(cat "$ERR")"
# With a budget there is nothing to warn about.
expect_out 0 'unknown' solve --rules 7x7k5 --nodes 5000
[[ ! -s $ERR ]] && PASS=$((PASS + 1)) || fail "7x7k5 --nodes: unexpected stderr $(cat "$ERR")"

# On a terminal: a live line with nodes, nodes/s, elapsed time and the best line so far; Ctrl-C after a few
# moves are proven reports the best of them as a bound, not proven, with its line, a legal sequence of moves.
if command -v script >/dev/null; then
    script -qc "stty cols 120; echo \$\$ >'$DIR/pid'; exec '$TTT' solve --rules 6x6k4" "$DIR/tty" >/dev/null 2>&1 &
    SCRIPT=$!
    if wait_for "$DIR/tty" 'solving: [0-9]+/36 solved, [0-9.]+[kM]? nodes, [0-9.]+[kM]? nodes/s, [0-9.]+ s'; then
        PASS=$((PASS + 1))
    else
        fail "no live line on a terminal: $(tail -c 300 "$DIR/tty" | cat -v)"
    fi
    if wait_for "$DIR/tty" '[1-9][0-9]*/36 solved, .*, (draw|win|loss) [a-z0-9 ]+: [a-f][1-6]( [a-f][1-6])+'; then
        PASS=$((PASS + 1))
    else
        fail "no best line on the live line: $(tail -c 300 "$DIR/tty" | cat -v)"
    fi
    kill -INT "$(cat "$DIR/pid")"
    wait "$SCRIPT"
    grep -aq 'interrupted after .*not proven' "$DIR/tty" && PASS=$((PASS + 1)) ||
        fail "no report after Ctrl-C on a terminal: $(tail -c 300 "$DIR/tty" | cat -v)"
    # the live line is cleared before the report, and no live line is wider than the terminal
    grep -aq $'\r\033\\[Kinterrupted' "$DIR/tty" && PASS=$((PASS + 1)) ||
        fail "the live line was not cleared: $(tail -c 300 "$DIR/tty" | cat -v)"
    WIDEST=$(tr '\r' '\n' <"$DIR/tty" | sed 's/\x1b\[K//' | grep -a 'nodes/s' | awk '{ print length }' | sort -n | tail -1)
    [[ ${WIDEST:-0} -le 119 ]] && PASS=$((PASS + 1)) || fail "a live line of $WIDEST columns on a 120-column terminal"
    BEST=$(tr -d '\r' <"$DIR/tty" | sed -n 's/^best move so far: \([a-f][1-6]\),.*/\1/p')
    LINE=$(tr -d '\r' <"$DIR/tty" | sed -n 's/^best line so far: //p')
    if [[ -n $BEST && ${LINE%% *} == "$BEST" ]] && "$TTT" show --rules 6x6k4 --moves "$LINE" >/dev/null 2>&1; then
        PASS=$((PASS + 1))
    else
        fail "the best line so far ('$LINE') does not start with the best move ('$BEST') or is not legal"
    fi

    # live_lines RULES COLS PATTERN [ARGS]: runs `ttt solve --rules RULES ARGS` on a terminal of COLS columns until
    # its live line matches PATTERN twice with different text (a count that moves), then stops it; the live
    # lines go to $DIR/lines. Fails the test when that does not happen.
    live_lines() {
        local rules=$1 cols=$2 pattern=$3
        shift 3
        rm -f "$DIR/tty" "$DIR/pid"
        script -qc "stty cols $cols; echo \$\$ >'$DIR/pid'; exec '$TTT' solve --rules $rules $*" "$DIR/tty" \
            >/dev/null 2>&1 &
        local script_pid=$! moved=false
        for _ in $(seq $WAIT_CAP_TENTHS); do
            [[ -f $DIR/tty ]] && tr '\r' '\n' <"$DIR/tty" | sed 's/\x1b\[K//' | grep -aE 'nodes/s| nodes, [0-9.]+ s' >"$DIR/lines"
            if [[ $(grep -aE -- "$pattern" "$DIR/lines" 2>/dev/null | sed 's/[0-9.]*[kM]* nodes.*s, //' | sort -u | wc -l) -ge 2 ]]
            then
                moved=true
                break
            fi
            sleep 0.1
        done
        kill -INT "$(cat "$DIR/pid")" 2>/dev/null
        wait "$script_pid"
        $moved && PASS=$((PASS + 1)) ||
            fail "$rules $*: no live line matching '$pattern' that moves: $(tail -c 400 "$DIR/tty" | cat -v)"
        # a live line on every board names its phase: never the empty counts of a search not yet started
        ! grep -aqE '(depth 0|0/0)' "$DIR/lines" && PASS=$((PASS + 1)) ||
            fail "$rules $*: a live line with empty counts: $(grep -aE '(depth 0|0/0)' "$DIR/lines" | head -1)"
        WIDEST=$(awk '{ print length }' "$DIR/lines" | sort -n | tail -1)
        [[ ${WIDEST:-0} -lt $cols ]] && PASS=$((PASS + 1)) || fail "$rules: a live line of $WIDEST columns"
    }
    # k=5 boards start with the draw prover: which side it shows unable to win and how many of its (first) moves
    # are refuted, then the first moves proven to draw (on 80 columns in short, to leave room for its line).
    live_lines 8x8k5 80 '^((proving )?[XO] cannot win|draw proofs(: [0-9]+/[0-9]+ first moves,| [0-9]+/[0-9]+,) [0-9]+ drawn; [XO] cannot win)(: [0-9]+/[0-9]+ (([XO]|first) moves )?refuted)?, '
    live_lines 7x7k5 80 '^((proving )?[XO] cannot win|draw proofs(: [0-9]+/[0-9]+ first moves,| [0-9]+/[0-9]+,) [0-9]+ drawn; [XO] cannot win)(: [0-9]+/[0-9]+ (([XO]|first) moves )?refuted)?, '
    # The draw prover's proof of first moves one by one (8x8k5 --value: that X cannot win, 10 first moves up to
    # symmetry): the first move it is on and the line it searches from there, moves of the board and null moves
    # (--), no cell twice; with two threads, which take the first moves from both ends, the first move of
    # each and the main thread's line. Ctrl-C lists the 10 first moves, each with its state and nodes.
    HEAD='^proving X cannot win: [0-9]+/10 first moves refuted, [0-9.]+[kM]? nodes, [0-9.]+[kM]? nodes/s, [0-9.]+ s, on '
    MOVE='[a-h][1-8]'
    for threads in 1 2; do
        if [[ $threads -eq 1 ]]; then
            PATTERN="$HEAD($MOVE), line \\1( ($MOVE|--))+( \\.\\.\\.)?\$"
        else
            PATTERN="$HEAD($MOVE)\\|$MOVE, thread 1: \\1( ($MOVE|--))+( \\.\\.\\.)?\$"
        fi
        live_lines 8x8k5 200 "$PATTERN" --value --threads $threads
        # (the last line on the terminal may be cut short by Ctrl-C: the last whole one)
        LINE=$(grep -aE "$PATTERN" "$DIR/lines" | tail -1 | sed -E 's/.*(, line |, thread 1: )//; s/ \.\.\.$//')
        CELLS=$(tr ' ' '\n' <<<"$LINE" | grep -vx -- '--')
        [[ -n $CELLS && $(grep -cvxE "$MOVE" <<<"$CELLS") -eq 0 && -z $(sort <<<"$CELLS" | uniq -d) ]] &&
            PASS=$((PASS + 1)) || fail "8x8k5, $threads threads: not a line of moves: '$LINE'"
        tr -d '\r' <"$DIR/tty" >"$DIR/plain"
        grep -aqE "^the draw prover's first moves of X, up to symmetry: [0-9]+ refuted, [0-9]+ open; " "$DIR/plain" &&
            [[ $(grep -acE '^  [a-h][1-8] +(open|refuted) +[0-9,]+ nodes' "$DIR/plain") -eq 10 ]] &&
            PASS=$((PASS + 1)) || fail "8x8k5, $threads threads: Ctrl-C did not list the 10 first moves: $(cat "$DIR/plain")"
    done
    # On 80 columns the head is short and the line searched still shows.
    live_lines 8x8k5 80 "^X cannot win: [0-9]+/10 refuted, [0-9.]+[kM]? nodes, [0-9.]+ s, on ($MOVE), line \\1( ($MOVE|--))+( \\.\\.\\.)?\$" --value
    # both ends were searched: the first and the last first move have nodes spent on them
    grep -aqE '^  a1 +(open|refuted) +[1-9][0-9,]* nodes' "$DIR/plain" &&
        grep -aqE '^  d4 +(open|refuted) +[1-9][0-9,]* nodes' "$DIR/plain" && PASS=$((PASS + 1)) ||
        fail "8x8k5 --threads 2: not both ends searched: $(cat "$DIR/plain")"
    # A first move that takes long (misère 5x5k4: 25 s for the first) shows where its search is: the ranks of
    # the first moves of the line searched, and the line itself on a wide terminal.
    live_lines 5x5k4-misere 120 '^solving: 0/25 solved, .* at move [0-9]+(\.[0-9]+)+, line [a-e][1-5]( [a-e][1-5])+'
    # (12x12k5: past the draw prover's 128 cells, the value search from the start.)
    live_lines 12x12k5 100 '^value search \(144 empty cells\), .* at move [0-9]+(\.[0-9]+)+' --value
fi

finish
