# ttt history lists the recorded games as a table: a header line naming the columns, the columns aligned
# (every row's moves start under the header's "moves"), and the result in words: "X won", "O won", "draw".
source "$(dirname "$0")/harness.bash"
DIR=$(mktemp -d)
trap 'rm -rf "$OUT" "$ERR" "$DIR"' EXIT
DB=$DIR/h.db
"$TTT" play --x random:seed=1 --o minimax --record --games 4 --seed 2 --db "$DB" >/dev/null
"$TTT" play --x human --o human --plain --db "$DB" >/dev/null < <(printf 'a1\nb1\nc1\nb2\na2\nc2\nb3\na3\nc3\n')
"$TTT" play --x random:seed=5 --o perfect --rules 4x4k3 --record --games 1 --seed 2 --db "$DB" >/dev/null

expect_out 0 '^game  ended +rules +result +X +O +moves$' history --db "$DB"
lines=$(wc -l <"$OUT")
[[ $lines -eq 7 ]] && PASS=$((PASS + 1)) || fail "expected a header and 6 games, got $lines lines"
# the moves column starts at the same place on every line
col=$(head -1 "$OUT" | awk '{ print index($0, "moves") }')
misaligned=$(awk -v col="$col" 'NR > 1 && (substr($0, col - 2, 2) != "  " || substr($0, col, 1) !~ /[a-d]/) { print NR }' "$OUT")
[[ -z $misaligned ]] && PASS=$((PASS + 1)) || fail "the moves column is not aligned on lines $misaligned"
grep -Eq '^ +[0-9]+  [0-9-]+ [0-9:]+  3x3 +draw +human +human +a1 b1 c1' "$OUT" && PASS=$((PASS + 1)) || fail "no draw row"
grep -Eq '  (X won|O won)  ' "$OUT" && PASS=$((PASS + 1)) || fail "no 'X won' or 'O won'"
if grep -Eq '  (x|o)  ' "$OUT"; then fail "a result still written as a letter"; else PASS=$((PASS + 1)); fi
# the results in words agree with the JSON
expect 0 history --db "$DB" --json
jq -r '.result | if . == "x" then "X won" elif . == "o" then "O won" else . end' "$OUT" >"$DIR/json.txt"
"$TTT" history --db "$DB" | tail -n +2 | awk '{ for (i = 1; i <= NF; i++) if ($i == "won" || $i == "draw") { print ($i == "won" ? $(i - 1) " won" : "draw"); break } }' >"$DIR/text.txt"
cmp -s "$DIR/json.txt" "$DIR/text.txt" && PASS=$((PASS + 1)) || fail "results differ from the JSON: $(paste "$DIR/json.txt" "$DIR/text.txt" | tr '\n' ';')"

finish
