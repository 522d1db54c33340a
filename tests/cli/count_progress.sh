# Command tests for `ttt count` on boards that are too big, and its progress on a terminal.
source "$(dirname "$0")/harness.bash"

DIR=$(mktemp -d)
trap 'rm -f "$OUT" "$ERR"; rm -rf "$DIR"' EXIT

# 5x5 is refused up front, with the estimate and the way to override (it used to run 100 s and take 4.7 GB).
expect_err '^ttt count: 5x5 may need about [0-9.]+ GB of memory \(a layer of up to [0-9.e+]+ positions\) and .* --max-memory 0 counts anyway$' count --rules 5x5
# --max-memory sets the limit: 4x4 needs more than 10 MiB, 3x3 less.
expect_err 'may need about [0-9]+ MB of memory.* and 10 MB is allowed' count --rules 4x4 --max-memory 10
expect_out 0 '^3x3: 3 in a row' count --max-memory 10
expect_err "^ttt count: --max-memory 'lots': expected MiB" count --max-memory lots

# On a terminal: the header comes at once, before the first progress line; a line per layer of each pass; the
# line is cleared before the tables.
if command -v script >/dev/null; then
    script -qc "'$TTT' count --rules 3x3" "$DIR/tty" >/dev/null 2>&1
    tr '\r' '\n' <"$DIR/tty" >"$DIR/lines"
    header=$(grep -an '^3x3: 3 in a row' "$DIR/lines" | head -1 | cut -d: -f1)
    first=$(grep -an 'counting positions (pass 1 of 2): ply 0 of 9' "$DIR/lines" | head -1 | cut -d: -f1)
    [[ -n $header && -n $first && $header -lt $first ]] && PASS=$((PASS + 1)) ||
        fail "count: the header does not come before the progress: $(head -c 300 "$DIR/tty" | cat -v)"
    for pass in 'positions (pass 1 of 2)' 'up to symmetry (pass 2 of 2)'; do
        n=$(grep -ac "counting $pass: ply [0-9]* of 9, [0-9]* positions" "$DIR/lines")
        [[ $n -eq 10 ]] && PASS=$((PASS + 1)) || fail "count: $n progress lines for $pass, expected 10"
    done
    grep -aq $'^\033\\[KReachable' "$DIR/lines" && PASS=$((PASS + 1)) ||
        fail "count: the progress line is not cleared before the tables"
fi
# Not on a terminal: no progress at all.
expect_out 0 '^3x3: 3 in a row' count
[[ ! -s $ERR ]] && PASS=$((PASS + 1)) || fail "count: progress on a non-terminal: $(cat "$ERR")"

finish
