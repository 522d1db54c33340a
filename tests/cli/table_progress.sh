# ttt table build: a warning before a big file, and a bar that moves during the build and the write.
source "$(dirname "$0")/harness.bash"

DIR=$(mktemp -d)
trap 'rm -f "$OUT" "$ERR"; rm -rf "$DIR"' EXIT
export XDG_DATA_HOME="$DIR/data"

# A build that may write more than 50 MB says so on stderr before it starts, then goes on.
expect_out 0 "wrote $DIR/big.json" table build --rules 8x8k5 --games 6000 --out "$DIR/big.json"
grep -qE '^ttt table: warning: 6,000 games may write a file of up to [0-9]+ MB to .*big.json \(fewer --games make it smaller\)$' "$ERR" &&
    PASS=$((PASS + 1)) || fail "table build: no warning before a big file"
# a small one does not warn
expect 0 table build --games 1000 --out "$DIR/small.json"
[[ ! -s $ERR ]] && PASS=$((PASS + 1)) || fail "table build: unexpected stderr $(cat "$ERR")"

# On a terminal: the build's bar moves through the games (one job reports every 1024), reaches 100%, and the
# write has its own bar that reaches all the moves; both are cleared before the summary.
if command -v script >/dev/null; then
    script -qc "'$TTT' table build --games 70000 --jobs 1 --out '$DIR/t.json'" "$DIR/tty" >/dev/null 2>&1
    tr '\r' '\n' <"$DIR/tty" >"$DIR/lines"
    mid=$(grep -acE '\] +[0-9]+%  [0-9,]+/70,000 games' "$DIR/lines")
    [[ $mid -gt 10 ]] && PASS=$((PASS + 1)) || fail "table build: the bar moved $mid times during the build"
    grep -aqE '\] 100%  70,000/70,000 games' "$DIR/lines" && PASS=$((PASS + 1)) ||
        fail "table build: the build bar does not reach 100%"
    grep -aqE '\] 100%  ([0-9,]+)/\1 moves written' "$DIR/lines" && PASS=$((PASS + 1)) ||
        fail "table build: no bar for the write: $(tail -c 300 "$DIR/tty" | cat -v)"
    grep -aq $'^\033\\[K3x3: 70,000 games' "$DIR/lines" && PASS=$((PASS + 1)) ||
        fail "table build: the bar is not cleared before the summary: $(tail -c 300 "$DIR/tty" | cat -v)"
fi

finish
