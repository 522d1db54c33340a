# tests/cli/serve_budget.sh - rate limits count what costs: engine time per address (--engine-budget, engine
# milliseconds per minute). Once an address's engines have thought its budget, its engine requests get 429 with
# a Retry-After, "retry_after" in the JSON and a message saying when to retry; requests that cost no engine
# time (new games, reading them, /api/engines) go on, and another address is not held up. The budget here is
# 1 ms, so that one engine request spends it: what is compared is time spent against 1 ms, never a duration.
source "$(dirname "$0")/harness.bash"
command -v curl >/dev/null || { echo "FAIL: curl not found"; exit 1; }
command -v jq >/dev/null || { echo "FAIL: jq not found"; exit 1; }
LOG=$(mktemp)
HEAD=$(mktemp)
trap 'kill ${SERVER:-} 2>/dev/null; rm -f "$OUT" "$ERR" "$LOG" "$HEAD"' EXIT
JSON='Content-Type: application/json'

# req STATUS METHOD PATH [BODY] [JQ-TEST] [CURL-ARGS...]: the answer has STATUS and passes JQ-TEST; the body
# is in $OUT, the head in $HEAD.
req() {
    local want=$1 method=$2 path=$3 body=${4-} test=${5-.}
    shift $(($# < 5 ? $# : 5))
    local code
    code=$(curl -s -D "$HEAD" -o "$OUT" -w '%{http_code}' -X "$method" ${body:+--data-binary "$body" -H "$JSON"} \
        "$@" "${URL}api/$path")
    if [[ $code != "$want" ]] || ! jq -e "$test" "$OUT" >/dev/null 2>&1; then
        fail "$method $path $body: HTTP $code (expected $want), or fails: $test"
        return 1
    fi
    PASS=$((PASS + 1))
}
# retry_after: the Retry-After of the last answer, equal to its JSON retry_after and from 1 to 60 s.
retry_after() {
    local header
    header=$(tr -d '\r' <"$HEAD" | sed -n 's/^Retry-After: //Ip')
    if [[ $header =~ ^[0-9]+$ ]] && ((header >= 1 && header <= 60)) &&
        jq -e ".retry_after == $header and (.error | test(\"retry in $header s\"))" "$OUT" >/dev/null; then
        PASS=$((PASS + 1))
    else
        fail "Retry-After '$header' and the body disagree or are missing: $(cat "$OUT")"
    fi
}

serve_start "$LOG" --no-record --engine-budget 1
THINK='{"rules": "7x7k5", "engine": "mcts:time=100"}'
req 201 POST games '{"rules": "7x7k5", "x": "mcts:time=100"}' && ID=$(jq -r .id "$OUT")
req 200 POST explain "$THINK" '.ms >= 1' # the engine thought for more than the whole budget
req 429 POST explain "$THINK" '.error | test("engine time used up.*budget is 0.001 s; retry in [0-9]+ s")' &&
    retry_after
req 429 POST analyse "$THINK" '.retry_after >= 1' && retry_after
req 429 POST "games/$ID/engine" '' '.error | test("engine time used up")' && retry_after
# What costs no engine time is served.
req 201 POST games '{"rules": "7x7k5"}'
req 200 GET "games/$ID" '' '.moves == []'
req 200 GET engines
# Another address has its own budget.
if curl -s -o /dev/null --interface 127.0.0.2 "${URL}api/engines"; then
    req 200 POST explain "$THINK" '.ms >= 1' --interface 127.0.0.2
else
    echo "note: 127.0.0.2 not usable here: the second address is not tested"
fi
kill $SERVER
wait $SERVER 2>/dev/null

# The default budget lets a person play: the same requests are served; --per-address 0 (behind a proxy,
# every request one address's) has no budget.
for args in "" "--per-address 0"; do
    serve_start "$LOG" --no-record $args
    for _ in 1 2 3; do req 200 POST explain "$THINK" '.ms >= 1'; done
    kill $SERVER
    wait $SERVER 2>/dev/null
done
expect_out 0 'engine-budget MS' serve --help
finish
