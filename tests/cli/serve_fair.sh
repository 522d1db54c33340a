# tests/cli/serve_fair.sh - a request that needs no engine never waits behind engine work: with more analyses
# in flight than the server has API workers (one address, --per-address 0, as many addresses would be), a game
# read is answered before any of them (an order, never a time: each analysis thinks for 2 s). The server is
# killed once the read is answered: what the analyses get is not the point here.
source "$(dirname "$0")/harness.bash"
command -v curl >/dev/null || { echo "FAIL: curl not found"; exit 1; }
command -v jq >/dev/null || { echo "FAIL: jq not found"; exit 1; }
LOG=$(mktemp)
DONE=$(mktemp -d)
trap 'kill ${SERVER:-} 2>/dev/null; rm -rf "$OUT" "$ERR" "$LOG" "$DONE"' EXIT
serve_start "$LOG" --no-record --per-address 0
JSON='Content-Type: application/json'
ANALYSES=36 # more than the 32 API workers (src/web/server.h)

ID=$(curl -s -X POST -H "$JSON" -d '{}' "${URL}api/games" | jq -r .id)
body='{"rules": "9x9k5", "moves": "e5", "engine": "montecarlo:time=2000", "ms": 2000}'
for i in $(seq $ANALYSES); do
    (curl -s -o /dev/null -w '%{http_code}' --max-time 120 -X POST -H "$JSON" --data-binary "$body" \
        "${URL}api/analyse" >"$DONE/$i.part" && mv "$DONE/$i.part" "$DONE/$i") &
done
sleep 0.5 # the analyses are in and hold the workers
code=$(curl -s -o "$OUT" -w '%{http_code}' --max-time 120 "${URL}api/games/$ID")
finished=$(find "$DONE" -type f ! -name '*.part' | wc -l)
if [[ $code == 200 && $finished -eq 0 ]] && jq -e ".id == \"$ID\"" "$OUT" >/dev/null; then
    PASS=$((PASS + 1))
else
    fail "a game read waited behind the analyses: HTTP $code after $finished of $ANALYSES analyses"
fi
kill -KILL $SERVER
wait $(jobs -p) 2>/dev/null
finish
