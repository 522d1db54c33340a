# tests/cli/serve_engines.sh - the engines of `ttt serve` over real HTTP (curl): each game keeps its engines,
# the table engine's table is built in memory under a size cap and never written, the learner is bounded in
# time and uses the server's database whole (a --db path longer than a spec), a client's learn= is refused,
# --no-record opens no database, and one client address is capped in live games (429) without dropping
# anyone's games.
source "$(dirname "$0")/harness.bash"
command -v curl >/dev/null || { echo "FAIL: curl not found"; exit 1; }
command -v jq >/dev/null || { echo "FAIL: jq not found (scripts/setup.sh installs it)"; exit 1; }

TMP=$(mktemp -d)
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$OUT" "$ERR" "$TMP"' EXIT

# serve NAME ARGS...: starts `ttt serve --port 0 ARGS` with its own empty XDG_DATA_HOME ($TMP/NAME/home);
# sets URL.
serve() {
    local name=$1
    shift
    mkdir -p "$TMP/$name/home"
    XDG_DATA_HOME="$TMP/$name/home" serve_start "$TMP/$name/log" "$@"
    PIDS+=("$SERVER")
}

# req STATUS METHOD PATH [BODY] [JQ-TEST] [CURL-ARGS...]: the answer has STATUS and passes JQ-TEST; the body
# is in $OUT.
req() {
    local want=$1 method=$2 path=$3 body=${4-} test=${5-.}
    shift $(($# < 5 ? $# : 5))
    local code
    code=$(curl -s -o "$OUT" -w '%{http_code}' -X "$method" ${body:+--data-binary "$body" -H 'Content-Type: application/json'} "$@" "${URL}api/$path")
    if [[ $code != "$want" ]] || ! jq -e "$test" "$OUT" >/dev/null 2>&1; then
        fail "$method $path $body: HTTP $code (expected $want), or fails: $test"
        return 1
    fi
    PASS=$((PASS + 1))
}
game() { # game BODY [CURL-ARGS...]: a new game; sets ID
    local body=$1
    shift
    req 201 POST games "$body" '.id | length == 16' "$@" && ID=$(jq -r .id "$OUT")
}
# no_files DIR: DIR holds no file (the server wrote nothing there).
no_files() {
    local found
    found=$(find "$1" -type f | head -3)
    [[ -z $found ]] && PASS=$((PASS + 1)) || fail "files written under $1: $found"
}

# --- A server with a database at a path longer than a spec (256 characters) -----------------------------
LONG="$TMP/db"
while ((${#LONG} < 300)); do LONG="$LONG/a-rather-long-directory-name"; done
mkdir -p "$LONG"
serve rec --db "$LONG/games.db" --max-games 150

# Engines live with their game: MCTS's node count goes on from move to move.
game '{"rules": "4x4", "x": "mcts:time=30", "o": "human"}'
req 200 POST "games/$ID/engine" '' '.engine.total_nodes >= 1'
first=$(jq .engine.total_nodes "$OUT")
free=$(jq -r '.board | to_entries | map(.key as $r | .value | split("") | to_entries | map(select(.value == ".") | "\(["a","b","c","d"][.key])\($r + 1)")) | flatten | .[0]' "$OUT")
req 200 POST "games/$ID/move" "{\"move\": \"$free\"}"
req 200 POST "games/$ID/engine" '' ".engine.total_nodes >= $first + .engine.nodes"

# The learner: bounded in time; learn= is the server's; it learns into the long-path database.
req 422 POST games '{"x": "learner:learn=1"}' '.error | test("learn= is set by the server")'
game '{"x": "learner:seed=1", "o": "random:seed=2"}'
for _ in $(seq 9); do
    req 200 POST "games/$ID/engine" '' '.engine.spec | test("^(learner:.*,time=2000|random:seed=2)$")' || break
    jq -e '.outcome == "ongoing"' "$OUT" >/dev/null || break
done
jq -e '.outcome != "ongoing"' "$OUT" >/dev/null && PASS=$((PASS + 1)) || fail "learner game did not finish"
expect_out 0 '^3x3: 1 game learned' memory stats --memory "$LONG/games.db"
extra=$(find "$TMP/db" -type f ! -name 'games.db*' | head -3)
[[ -z $extra ]] && PASS=$((PASS + 1)) || fail "stray files beside the database: $extra"

# The table engine: 3x3's table built in memory and shared, nothing written; 4x4's refused (too big).
game '{"x": "table", "o": "table:seed=1"}'
req 200 POST "games/$ID/engine" '' '.engine.nodes == 1'
req 200 POST "games/$ID/engine" '' '.engine.nodes == 1'
req 422 POST games '{"rules": "4x4", "x": "table"}' '.error | test("at most 1000000 entries")'
game '{"rules": "4x4"}'
req 422 POST "games/$ID/engine" '{"engine": "table"}' '.error | test("at most 1000000 entries")'
no_files "$TMP/rec/home"

# --- One address is capped in live games (100), another is not held up, nobody's games are dropped ------
game '{}'
OLDEST=$ID
for _ in $(seq 99); do curl -s -o /dev/null -X POST "${URL}api/games"; done
req 429 POST games '' '.error | test("too many games from one address.*retry in [0-9]+ s")'
retry=$(curl -s -o /dev/null -D - -X POST "${URL}api/games" | tr -d '\r' | sed -n 's/^Retry-After: //Ip')
[[ $retry =~ ^[0-9]+$ && $retry -ge 1 ]] && PASS=$((PASS + 1)) || fail "429 without a Retry-After: '$retry'"
if curl -s -o /dev/null --interface 127.0.0.2 "${URL}api/engines"; then
    game '{}' --interface 127.0.0.2
else
    echo "note: 127.0.0.2 not usable here, second address not tested"
fi
req 200 GET "games/$OLDEST"

# --- --no-record: no database at all, even for the learner -------------------------------------------------
serve norec --no-record
game '{"x": "learner", "o": "random"}'
req 200 POST "games/$ID/engine" '' '.engine.spec | test("learn=0")'
no_files "$TMP/norec/home"

finish
