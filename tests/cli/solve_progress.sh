# Command tests for `ttt solve` on long searches: the warning up front, the live line on a terminal, Ctrl-C.
source "$(dirname "$0")/harness.bash"

DIR=$(mktemp -d)
trap 'rm -f "$OUT" "$ERR"; rm -rf "$DIR"' EXIT

# wait_for FILE PATTERN: waits (up to 60 s, for loaded machines) until FILE matches PATTERN.
wait_for() {
    for _ in $(seq 600); do
        grep -aqE -- "$2" "$1" 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}

# A board beyond exact solving says so at once and suggests --time; a small one does not.
"$TTT" solve --rules 7x7k5 >"$DIR/out" 2>"$DIR/err" &
PID=$!
if wait_for "$DIR/err" 'beyond exact solving' && wait_for "$DIR/err" 'use --time MS'; then
    PASS=$((PASS + 1))
else
    fail "7x7k5: no warning that the board is beyond exact solving: $(cat "$DIR/err")"
fi
# Ctrl-C stops the search and prints what is known, marked as not proven; exit status 130 as for SIGINT.
kill -INT "$PID"
wait "$PID"
RC=$?
[[ $RC -eq 130 ]] && PASS=$((PASS + 1)) || fail "solve after SIGINT exited $RC, expected 130"
grep -q 'interrupted after [0-9]* nodes.*not proven' "$DIR/out" && PASS=$((PASS + 1)) ||
    fail "solve after SIGINT: no 'not proven' report: $(cat "$DIR/out")"
# --value takes no --time: the advice says to drop it.
"$TTT" solve --rules 7x7k4 --value >"$DIR/out" 2>"$DIR/err" &
PID=$!
if wait_for "$DIR/err" 'without --value, --time MS'; then
    PASS=$((PASS + 1))
else
    fail "7x7k4 --value: no advice to drop --value: $(cat "$DIR/err")"
fi
kill "$PID" # a background job of a script ignores SIGINT, and --value does not catch it
wait "$PID"
expect_out 0 'draw, the game ends in 9' solve
[[ ! -s $ERR ]] && PASS=$((PASS + 1)) || fail "3x3: unexpected stderr $(cat "$ERR")"
# With a budget there is nothing to warn about.
expect_out 0 'unknown' solve --rules 7x7k5 --nodes 5000
[[ ! -s $ERR ]] && PASS=$((PASS + 1)) || fail "7x7k5 --nodes: unexpected stderr $(cat "$ERR")"

# On a terminal: a live line with nodes, nodes/s, elapsed time and the best move so far; Ctrl-C after a few
# moves are proven reports the best of them as a bound, not proven.
if command -v script >/dev/null; then
    script -qc "echo \$\$ >'$DIR/pid'; exec '$TTT' solve --rules 5x5k4-misere" "$DIR/tty" >/dev/null 2>&1 &
    SCRIPT=$!
    if wait_for "$DIR/tty" '[0-9.]+M nodes, [0-9]+k nodes/s, [0-9.]+ s, exact depth 25: [0-9]+/25 moves'; then
        PASS=$((PASS + 1))
    else
        fail "no live line on a terminal: $(tail -c 300 "$DIR/tty" | cat -v)"
    fi
    kill -INT "$(cat "$DIR/pid")"
    wait "$SCRIPT"
    grep -aq 'interrupted after .*not proven' "$DIR/tty" && PASS=$((PASS + 1)) ||
        fail "no report after Ctrl-C on a terminal: $(tail -c 300 "$DIR/tty" | cat -v)"
    # the live line is cleared before the report
    grep -aq $'\r\033\\[Kinterrupted' "$DIR/tty" && PASS=$((PASS + 1)) ||
        fail "the live line was not cleared: $(tail -c 300 "$DIR/tty" | cat -v)"
fi

finish
