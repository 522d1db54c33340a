# ttt bench prints each row as its item finishes: the first row is in the output while the others still run
# (not all at once at the end, as a buffered table would come out).
source "$(dirname "$0")/harness.bash"

"$TTT" bench >"$OUT" 2>"$ERR" &
pid=$!
seen=
# Polls until the first row shows up or bench ends; 300 s is only a guard against a hang.
for _ in $(seq 6000); do
    text=$(cat "$OUT")
    if grep -q '^solve 3x3 empty ' <<<"$text"; then
        seen=$text
        break
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
done
kill -TERM "$pid" 2>/dev/null
wait "$pid"
if [[ -n $seen ]] && grep -q '^item ' <<<"$seen" && ! grep -q '^signature' <<<"$seen"; then
    PASS=$((PASS + 1))
else
    fail "bench: the first row came with the whole table: '$(head -c 300 <<<"$seen")'"
fi

finish
