# ttt arena --json and --csv carry the ranking the text output has: the same engines in the same order, with
# the same games and scores.
source "$(dirname "$0")/harness.bash"

ARGS=(arena --games 10 --seed 4 minimax random mcts:iterations=30)

# The text ranking: "name games score" per line, best first.
expect 0 "${ARGS[@]}"
text=$(awk '/^Rank/ {on = 1; next} on && NF == 7 {print $2, $5, $6}' "$OUT")
[[ $(wc -l <<<"$text") -eq 3 ]] && PASS=$((PASS + 1)) || fail "arena: no ranking of 3 in the text: $(cat "$OUT")"

# --json: "ranking", the same lines; ranks 1..3; each engine's games and results add up over its pairs.
expect 0 "${ARGS[@]}" --json
json=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for i, r in enumerate(d["ranking"]):
    assert r["rank"] == i + 1 and r["games"] == r["wins"] + r["losses"] + r["draws"]
    mine = [p for p in d["pairs"] if r["engine"] in (p["a"], p["b"])]
    assert r["games"] == sum(p["games"] for p in mine)
    assert r["wins"] == sum(p["wins"] if p["a"] == r["engine"] else p["losses"] for p in mine)
    print(r["engine"], r["games"], "%.1f%%" % (100 * r["score"]))' "$OUT")
[[ -n $json && $json == "$text" ]] && PASS=$((PASS + 1)) || fail "arena --json: ranking '$json', text '$text'"

# --csv: after the pairs, an empty line and the ranking table.
expect 0 "${ARGS[@]}" --csv
csv=$(awk -F, 'blank && NR > start + 1 {gsub(/"/, "", $2); printf "%s %s %.1f%%\n", $2, $3, 100 * $7}
               /^$/ {blank = 1; start = NR}' "$OUT")
[[ -n $csv && $csv == "$text" ]] && PASS=$((PASS + 1)) || fail "arena --csv: ranking '$csv', text '$text'"
grep -qx 'rank,engine,games,wins,losses,draws,score,elo,elo_low,elo_high,draw_ratio' "$OUT" && PASS=$((PASS + 1)) ||
    fail "arena --csv: no ranking header"
# Two engines: the pair is the ranking, as in the text (the CSV stays one table); JSON always has it.
expect 0 arena --games 4 --csv minimax random
[[ $(grep -c '' "$OUT") -eq 2 ]] && PASS=$((PASS + 1)) || fail "arena --csv: a ranking for two engines"
expect_out 0 '"ranking":\[\{"rank":1,"engine":"minimax","games":4,' arena --games 4 --json minimax random

finish
