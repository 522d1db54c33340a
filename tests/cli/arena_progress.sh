# ttt arena: the final ranking with three or more engines, and the bar on a terminal (reaches 100%, shows the
# time, is cleared before the report).
source "$(dirname "$0")/harness.bash"

DIR=$(mktemp -d)
trap 'rm -f "$OUT" "$ERR"; rm -rf "$DIR"' EXIT

# Three engines, round robin: a ranking of the three, each with its games over both of its pairs, best first.
expect_out 0 '^Rank Name +Elo +\+/- +Games +Score +Draw$' arena --games 10 minimax random mcts:iterations=50
rows=$(grep -cE '^ +[1-3] [a-z]' "$OUT")
[[ $rows -eq 3 ]] && PASS=$((PASS + 1)) || fail "arena: $rows ranking rows, expected 3"
awk '/^Rank/ {on = 1; next} on && NF == 7 { if ($5 != 20) bad = 1; n++ } END { exit bad || n != 3 }' "$OUT" &&
    PASS=$((PASS + 1)) || fail "arena: every engine of a 3-engine round robin of 10 games plays 20"
# best score first; the scores agree with the pairs (the total is half of the points of all games: 30 games)
awk '/^Rank/ {on = 1; next} on && NF == 7 { s = $6 + 0; if (n && s > last) bad = 1; last = s; sum += s * $5 / 100; n++ }
     END { exit bad || sum < 29.9 || sum > 30.1 }' "$OUT" && PASS=$((PASS + 1)) ||
    fail "arena: ranking scores not sorted or not adding up: $(cat "$OUT")"
# minimax never loses: it ranks above random
awk '/^Rank/ {on = 1; next} on && $2 == "minimax" {m = $1} on && $2 == "random" {r = $1} END { exit !(m < r) }' "$OUT" &&
    PASS=$((PASS + 1)) || fail "arena: minimax ranked below random"
# A gauntlet ranks too: the first engine plays every game.
expect_out 0 '^ +[1-3] random:seed=1 +[-<>+0-9]+ +[0-9inf]+ +20 ' arena --games 10 --gauntlet random:seed=1 random random
# Two engines: the pair is the ranking; no table.
expect 0 arena --games 10 minimax random
! grep -q '^Rank' "$OUT" && PASS=$((PASS + 1)) || fail "arena: a ranking for two engines"

# On a terminal: the bar ends at 100% with the elapsed time, and is cleared before the report.
if command -v script >/dev/null; then
    script -qc "'$TTT' arena --games 50 --jobs 2 minimax random random:seed=2" "$DIR/tty" >/dev/null 2>&1
    tr '\r' '\n' <"$DIR/tty" >"$DIR/lines"
    grep -aqE '\] 100%  150/150 games  [0-9]+:[0-9]{2} elapsed' "$DIR/lines" && PASS=$((PASS + 1)) ||
        fail "arena: the bar does not reach 150/150: $(tail -c 300 "$DIR/tty" | cat -v)"
    grep -aq $'^\033\\[KScore of minimax vs random' "$DIR/lines" && PASS=$((PASS + 1)) ||
        fail "arena: the bar is not cleared before the report: $(head -c 400 "$DIR/lines" | cat -v)"
fi

finish
