# ttt bench: every row fills every column (a number, or "-" where the item has no such rate).
source "$(dirname "$0")/harness.bash"

expect_out 0 '^item +ms +nodes +nodes/s +moves/s +games/s$' bench
rows=$(grep -vcE '^(item|signature) ' "$OUT")
good=$(grep -vE '^(item|signature) ' "$OUT" |
    grep -cE ' [0-9]+\.[0-9]{3} +[0-9,]+ +[0-9,]+ +([0-9,]+|-) +([0-9,]+|-)$')
[[ $rows -gt 10 && $good -eq $rows ]] && PASS=$((PASS + 1)) ||
    fail "bench: $good of $rows rows have all five columns: $(cat "$OUT")"
# the games/s of the arena items and the moves/s of the engine items are there
grep -qE '^arena 3x3 random-random .* [0-9,]+ +[0-9,]+$' "$OUT" && PASS=$((PASS + 1)) || fail "bench: arena rates"
grep -qE '^mcts moves 3x3 .* [0-9,]+ +-$' "$OUT" && PASS=$((PASS + 1)) || fail "bench: mcts moves/s"

finish
