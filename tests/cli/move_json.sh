# ttt move --json: "ms" rounded to the microsecond (no 0.000431001), and "depth" only from an engine that
# searches by depth (minimax, gomoku), not a 0 from those that do not (random, heuristic, mcts, montecarlo).
source "$(dirname "$0")/harness.bash"
command -v jq >/dev/null || { echo "SKIP: no jq"; exit 77; }

for engine in random:seed=9 heuristic mcts:iterations=200 montecarlo:trials=200 table learner:learn=0; do
    expect 0 move --json --engine "$engine" x.o/.x./... || continue
    jq -e 'has("depth") | not' "$OUT" >/dev/null && PASS=$((PASS + 1)) || fail "$engine: a depth from an engine that has none"
    grep -Eq '"ms":[0-9]+(\.[0-9]{1,3})?[,}]' "$OUT" && PASS=$((PASS + 1)) || fail "$engine: ms not rounded to the microsecond"
done
for engine in minimax gomoku easy; do
    expect 0 move --json --engine "$engine" x.o/.x./... || continue
    jq -e '.depth >= 1' "$OUT" >/dev/null && PASS=$((PASS + 1)) || fail "$engine: no depth"
    grep -Eq '"ms":[0-9]+(\.[0-9]{1,3})?[,}]' "$OUT" && PASS=$((PASS + 1)) || fail "$engine: ms not rounded to the microsecond"
done

finish
