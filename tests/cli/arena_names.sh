# Engine names in ttt arena's results, as cutechess-cli gives them: name=NAME among a spec's options names the
# engine (and is not passed to it), and an engine whose name is taken is numbered (random, random#2), alike in
# the text, the JSON and the CSV.
source "$(dirname "$0")/harness.bash"
command -v jq >/dev/null || { echo "SKIP: no jq"; exit 77; }

ARGS=(--games 2 --seed 1 random random mcts:iterations=50,name=Fast)
expect_out 0 '^Score of random vs random#2: ' arena "${ARGS[@]}"
grep -q '^Score of random vs Fast: ' "$OUT" && grep -q '^Score of random#2 vs Fast: ' "$OUT" &&
    grep -Eq '^ +[0-9] (random#2|Fast) ' "$OUT" && PASS=$((PASS + 1)) || fail "text: names"
if grep -q 'name=' "$OUT"; then fail "text: name= shown"; else PASS=$((PASS + 1)); fi

expect 0 arena --json "${ARGS[@]}"
jq -e '[.pairs[] | .a, .b] == ["random", "random#2", "random", "Fast", "random#2", "Fast"]' "$OUT" >/dev/null &&
    PASS=$((PASS + 1)) || fail "json: pairs' names"
jq -e '[.ranking[].engine] | sort == ["Fast", "random", "random#2"]' "$OUT" >/dev/null &&
    PASS=$((PASS + 1)) || fail "json: ranking's names"

expect 0 arena --csv "${ARGS[@]}"
grep -q '^"random","random#2",2,' "$OUT" && grep -q '^"random#2","Fast",2,' "$OUT" &&
    grep -Eq '^[0-9],"Fast",' "$OUT" && PASS=$((PASS + 1)) || fail "csv: names"

# name= is the arena's: the engine plays as without it (same seed, same games)
run arena --csv --games 4 --seed 3 mcts:iterations=50 random
cut -d, -f3- "$OUT" >"$OUT.plain"
run arena --csv --games 4 --seed 3 mcts:iterations=50,name=M random
cut -d, -f3- "$OUT" >"$OUT.named"
cmp -s "$OUT.plain" "$OUT.named" && PASS=$((PASS + 1)) || fail "name= changed the games"
rm -f "$OUT.plain" "$OUT.named"

expect_err "^ttt arena: engine 2 'random:name=': name= needs a name$" arena --games 2 random random:name=
expect_err "^ttt arena: engine 1 'random:name=a,name=b': name= given twice$" arena --games 2 random:name=a,name=b random

finish
