# tests/cli/serve_site.sh - what a page of another site could make a visitor's browser send to `ttt serve`:
# a Host that is not the server's (DNS rebinding) gets 421, a write from another Origin 403, a POST body not
# declared JSON 415, each with a one-line JSON error; the server's own names, origin and JSON are answered.
source "$(dirname "$0")/harness.bash"
command -v curl >/dev/null || { echo "FAIL: curl not found"; exit 1; }
command -v jq >/dev/null || { echo "FAIL: jq not found"; exit 1; }
LOG=$(mktemp)
trap 'kill ${SERVER:-} 2>/dev/null; rm -f "$OUT" "$ERR" "$LOG"' EXIT
serve_start "$LOG" --no-record
JSON='Content-Type: application/json'

# check NAME STATUS JQ-TEST CURL-ARGS...: the answer's status is STATUS and JQ-TEST holds on its body.
check() {
    local name=$1 want=$2 test=$3 code
    shift 3
    code=$(curl -s -o "$OUT" -w '%{http_code}' --max-time 30 "$@")
    if [[ $code != "$want" ]] || ! jq -e "$test" "$OUT" >/dev/null 2>&1; then
        fail "$name: HTTP $code (expected $want), or fails: $test"
    else
        PASS=$((PASS + 1))
    fi
}
ERROR='.error | type == "string"'

# Host: the server's names with its port; anything else is refused, the page as well as the API.
check 'Host 127.0.0.1:port' 200 '.engines' "${URL}api/engines"
check 'Host localhost:port' 200 '.engines' -H "Host: localhost:$PORT" "${URL}api/engines"
check 'Host [::1]:port' 200 '.engines' -H "Host: [::1]:$PORT" "${URL}api/engines"
check 'Host LOCALHOST:port' 200 '.engines' -H "Host: LOCALHOST:$PORT" "${URL}api/engines"
check 'Host of another site' 421 '.error | test("not this server")' -H "Host: rebound.example:$PORT" \
    "${URL}api/engines"
check 'Host of another site, the page' 421 "$ERROR" -H "Host: rebound.example:$PORT" "${URL}"
check 'Host with another port' 421 "$ERROR" -H "Host: 127.0.0.1:1$PORT" "${URL}api/engines"
check 'Host without the port' 421 "$ERROR" -H "Host: localhost" "${URL}api/engines"
check 'Host of another site, a write' 421 "$ERROR" -H "Host: rebound.example:$PORT" -H "$JSON" -d '{}' \
    "${URL}api/games"

# Origin: a write from another origin is refused; the server's own origin, or none (curl), is answered.
check 'POST from another origin' 403 '.error | test("cross-origin")' -H 'Origin: http://evil.example' \
    -H "$JSON" -d '{}' "${URL}api/games"
check 'POST from origin null' 403 "$ERROR" -H 'Origin: null' -H "$JSON" -d '{}' "${URL}api/games"
check 'POST from the same host, another port' 403 "$ERROR" -H "Origin: http://127.0.0.1:1$PORT" -H "$JSON" \
    -d '{}' "${URL}api/games"
check 'POST from its own origin' 201 '.id' -H "Origin: http://127.0.0.1:$PORT" -H "$JSON" -d '{}' \
    "${URL}api/games"
check 'POST from its own origin by name' 201 '.id' -H "Host: localhost:$PORT" \
    -H "Origin: http://localhost:$PORT" -H "$JSON" -d '{}' "${URL}api/games"
check 'a read from another origin' 200 '.engines' -H 'Origin: http://evil.example' "${URL}api/engines"

# Content-Type: a POST body must be declared JSON (a form or text/plain needs no preflight in a browser).
check 'POST as a form (curl -d)' 415 '.error | test("application/json")' -d '{}' "${URL}api/games"
check 'POST as text/plain' 415 "$ERROR" -H 'Content-Type: text/plain' -d '{}' "${URL}api/games"
check 'POST as text/plain, empty' 415 "$ERROR" -H 'Content-Type: text/plain' -X POST "${URL}api/games"
check 'POST as application/jsonx' 415 "$ERROR" -H 'Content-Type: application/jsonx' -d '{}' "${URL}api/games"
check 'POST as JSON' 201 '.id' -H "$JSON" -d '{"rules": "3x3"}' "${URL}api/games"
check 'POST as JSON; charset' 201 '.id' -H 'Content-Type: Application/JSON; charset=utf-8' -d '{}' \
    "${URL}api/games"
check 'POST with no body' 201 '.id' -X POST "${URL}api/games"

kill -TERM $SERVER
wait $SERVER
[[ $? -eq 0 ]] && PASS=$((PASS + 1)) || fail "SIGTERM: $(cat "$LOG")"
finish
