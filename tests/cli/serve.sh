# tests/cli/serve.sh - `ttt serve` over real HTTP (curl): its options, every API route, every bad-input path
# (each a 4xx with a JSON error), limits (body size, game count, idle expiry, engine time), that one slow engine
# does not hold other games, that the server survives it all, and that SIGTERM stops it with exit 0.
source "$(dirname "$0")/harness.bash"
command -v curl >/dev/null || { echo "FAIL: curl not found"; exit 1; }
command -v jq >/dev/null || { echo "FAIL: jq not found (scripts/setup.sh installs it)"; exit 1; }

# --- Options ---------------------------------------------------------------------------------------------
expect_out 0 'serve --port' serve --help
expect_err "^ttt serve: --port 'abc'" serve --port abc
expect_err "^ttt serve: --port '70000'" serve --port 70000
expect_err "^ttt serve: --host 'nosuch.invalid': .*\(expected an address such as 127.0.0.1" serve --host nosuch.invalid
expect_err "^ttt serve: --host '': " serve --host ''
# a directory that cannot exist: its parent is a regular file (a fixed path such as /nonexistent/dir can be
# made by anyone, and then the server starts and the test waits for ever)
expect_err "^ttt serve: database '$OUT/dir/games.db'" serve --db "$OUT/dir/games.db"
expect_err "^ttt serve: database '/'" serve --db /
expect_err "^ttt serve: --max-games '0'" serve --max-games 0
expect_err "^ttt serve: --idle-expiry 'x'" serve --idle-expiry x
expect_err "^ttt serve: unexpected argument" serve extra
expect_err "^ttt serve: " serve --bogus

# --- A server on a free port -----------------------------------------------------------------------------
LOG=$(mktemp)
DB_DIR=$(mktemp -d)
trap 'kill ${SERVER:-} 2>/dev/null; rm -rf "$OUT" "$ERR" "$LOG" "$DB_DIR"' EXIT
serve_start "$LOG" --db "$DB_DIR/games.db" --max-games 4 --idle-expiry 3
PID=$SERVER
API=${URL}api

# http METHOD PATH [BODY] [CURL-ARGS...]: sets CODE, BODY in $OUT.
http() {
    local method=$1 path=$2
    shift 2
    local data=()
    if (($# > 0)); then
        data=(--data-binary "$1" -H 'Content-Type: application/json')
        shift
    fi
    CODE=$(curl -s -o "$OUT" -w '%{http_code}' -X "$method" "${data[@]}" "$@" "$URL${path#/}")
}
# api STATUS METHOD PATH [BODY] [JQ-TEST]: the status is STATUS, and JQ-TEST (default: 4xx bodies have a
# non-empty "error") holds on the body.
api() {
    local want=$1 method=$2 path=$3 body=${4-} test=${5-}
    if [[ $method == GET && $# -eq 4 ]]; then # a GET has no body: its fourth argument is the test
        test=$body
        body=
    fi
    if [[ -n $body ]]; then http "$method" "$path" "$body"; else http "$method" "$path"; fi
    [[ -z $test && $want -ge 400 ]] && test='.error | type == "string" and length > 0'
    if [[ $CODE != "$want" ]]; then
        fail "$method $path $body: HTTP $CODE, expected $want"
        return 1
    fi
    if [[ -n $test ]] && ! jq -e "$test" "$OUT" >/dev/null 2>&1; then
        fail "$method $path $body: body fails jq test: $test"
        return 1
    fi
    PASS=$((PASS + 1))
}
new_game() { # new_game BODY: creates a game, sets ID
    api 201 POST /api/games "$1" '.id | length == 16' || return 1
    ID=$(jq -r .id "$OUT")
}

# --- The page --------------------------------------------------------------------------------------------
http GET /
[[ $CODE == 200 ]] && grep -q '<div id="board"' "$OUT" && PASS=$((PASS + 1)) || fail "GET / ($CODE)"
for f in app.js style.css index.html; do
    http GET "/$f"
    [[ $CODE == 200 && -s $OUT ]] && PASS=$((PASS + 1)) || fail "GET /$f ($CODE)"
done
ctype=$(curl -s -o /dev/null -w '%{content_type}' "${URL}app.js")
[[ $ctype == text/javascript* ]] && PASS=$((PASS + 1)) || fail "app.js Content-Type '$ctype'"
api 404 GET /nope.html
api 405 POST /app.js '{}'

# --- Engines ---------------------------------------------------------------------------------------------
api 200 GET /api/engines '([.levels[].name] | index("perfect")) and ([.engines[].name] | index("minimax")) and ([.engines[].name] | index("cmd") | not) and .limits.max_engine_ms == 2000 and .limits.max_games == 4'
api 405 POST /api/engines '{}'

# --- A game between two people, to the end ---------------------------------------------------------------
new_game '{"rules": "3x3"}'
api 200 GET "/api/games/$ID" '.to_move == "x" and .moves == [] and .players == {"x": "human", "o": "human"} and .rules.text == "3x3"'
api 200 POST "/api/games/$ID/move" '{"move": "b2"}' '.to_move == "o" and .board == ["...", ".x.", "..."] and .last_move == "b2"'
api 409 POST "/api/games/$ID/move" '{"move": "a1", "side": "x"}' '.error | test("out of turn")'
api 422 POST "/api/games/$ID/move" '{"move": "b2"}' '.error | test("taken")'
api 422 POST "/api/games/$ID/move" '{"move": "z9"}' '.error | test("off the 3x3 board")'
api 422 POST "/api/games/$ID/move" '{"move": ""}'
api 400 POST "/api/games/$ID/move" '{}' '.error | test("required")'
api 400 POST "/api/games/$ID/move" '{"move": 5}' '.error | test("must be a string")'
api 400 POST "/api/games/$ID/move" '{"move": "a1", "side": "z"}'
api 400 POST "/api/games/$ID/move" '{"move": "a1", "extra": true}' '.error | test("unknown field .extra.")'
api 400 POST "/api/games/$ID/move" '{"move": "a1",}' '.error | test("malformed JSON")'
api 400 POST "/api/games/$ID/move" '{"move": "a1", "move": "c1"}' '.error | test("malformed JSON")'
api 400 POST "/api/games/$ID/move" '["a1"]' '.error | test("JSON object")'
api 400 POST "/api/games/$ID/move" 'not json'
api 409 POST "/api/games/$ID/engine" '{}' '.error | test("person")'
api 200 POST "/api/games/$ID/move" '{"move": "a1", "side": "o"}' '.to_move == "x"'
api 200 POST "/api/games/$ID/undo" '{}' '.moves == ["b2"]'
api 400 POST "/api/games/$ID/undo" '{"plies": 0}'
api 400 POST "/api/games/$ID/undo" '{"plies": "1"}'
api 409 POST "/api/games/$ID/undo" '{"plies": 2}' '.error | test("cannot take back")'
for m in a2 a1 b1 c3; do http POST "/api/games/$ID/move" "{\"move\": \"$m\"}"; done
api 200 GET "/api/games/$ID" '.outcome == "x" and .to_move == null and .winning_line == ["a1", "b2", "c3"]'
api 409 POST "/api/games/$ID/move" '{"move": "c2"}' '.error | test("game is over")'
api 409 POST "/api/games/$ID/engine" '{"engine": "random"}' '.error | test("game is over")'
api 200 POST "/api/games/$ID/undo" '{}' '.outcome == "ongoing" and .winning_line == []'
api 405 DELETE "/api/games/$ID"
api 405 GET "/api/games/$ID/move"
api 404 POST "/api/games/$ID/resign" '{}'
api 404 GET /api/games/0123456789abcdef '.error | test("no game")'
api 404 GET "/api/games/$(printf 'x%.0s' $(seq 300))"
api 404 GET /api/games/
api 405 GET /api/games
api 404 GET /api/nothing

# --- Engines as players, and their time bound ------------------------------------------------------------
new_game '{"rules": "4x4-misere", "x": "hard:seed=3", "o": "human"}'
api 200 GET "/api/games/$ID" '.engine_to_move == true and .rules.misere == true'
api 409 POST "/api/games/$ID/move" '{"move": "a1"}' '.error | test("out of turn")'
api 200 POST "/api/games/$ID/engine" '' '.moves | length == 1'
jq -e '.engine.spec | test("^minimax:.*blunder=5.*time=")' "$OUT" >/dev/null && PASS=$((PASS + 1)) || fail "engine spec in answer: $(cat "$OUT")"
api 200 POST "/api/games/$ID/engine" '{"engine": "random:seed=1"}' '(.moves | length) == 2 and .engine.spec == "random:seed=1" and .engine.value_name == null'
api 422 POST "/api/games/$ID/engine" '{"engine": "nosuch"}' '.error | test("unknown engine")'
api 422 POST "/api/games/$ID/engine" '{"engine": "minimax:depth=abc"}'
# What an engine thinks of its move: minimax proves the empty 3x3 board a draw; mcts gives its win rate.
api 200 POST "/api/games/$ID/engine" '{"engine": "minimax"}' '.engine.value_name | test("^(proven draw|moves to a (win|loss)|heuristic score)$")'
new_game '{"rules": "3x3", "x": "minimax", "o": "mcts:iterations=500"}'
api 200 POST "/api/games/$ID/engine" '' '.engine.value_name == "proven draw" and .engine.value == 0'
api 200 POST "/api/games/$ID/engine" '' '.engine.value_name == "win rate" and .engine.value >= 0 and .engine.value <= 1'
# mcts counting iterations (a weak, fast setting) runs its own budget within the server's 2 s cap: the reply says
# how many iterations it ran (in the game and in an explanation); too many for the board are refused.
new_game '{"rules": "7x7k5", "x": "mcts:iterations=50"}'
api 200 POST "/api/games/$ID/engine" '' '.engine.nodes == 50 and (.engine.spec | test("iterations=50,.*time=2000$"))'
api 200 POST /api/explain '{"rules": "7x7k5", "moves": "d4", "engine": "mcts:iterations=50"}' '[.facts[] | select(.name == "iterations")][0].value == 50'
api 422 POST /api/games '{"rules": "20x20k5", "x": "mcts:iterations=100000"}' '.error | test("iterations=100000 on 400 cells is more than the server allows \\(10000\\)")'
new_game '{"rules": "3x3", "x": "minimax", "o": "mcts:iterations=500"}'
api 422 POST "/api/games/$ID/engine" '{"engine": "table:file=/etc/passwd"}' '.error | test("file= is not allowed")'
api 422 POST "/api/games/$ID/engine" "{\"engine\": \"learner:memory=$DB_DIR/client.db\"}" '.error | test("memory= is not allowed")'
[[ ! -e $DB_DIR/client.db ]] && PASS=$((PASS + 1)) || fail "a client-named memory file was created"
api 400 POST "/api/games/$ID/engine" '{"engine": 3}'
api 400 POST "/api/games" '{"rules": 3}'
api 422 POST /api/games '{"rules": "2x2"}'
api 422 POST /api/games '{"rules": "3x3k9"}'
api 422 POST /api/games '{"rules": "21x21"}'
api 422 POST /api/games '{"x": "nosuch"}' '.error | test("^x: ")'
api 422 POST /api/games '{"o": "minimax:bogus=1"}' '.error | test("^o: ")'
api 422 POST /api/games '{"x": "montecarlo:trials=100000000"}' '.error | test("more than the server allows")'
api 400 POST /api/games '{"x": "human", "y": "human"}'
api 201 POST /api/games '{"rules": "3x3", "moves": "b2 a1"}' '.moves == ["b2", "a1"] and .to_move == "x" and .board[0] == "o.."'
api 422 POST /api/games '{"rules": "3x3", "moves": "b2 b2"}' '.error | test("^moves: ")'
api 422 POST /api/games '{"rules": "3x3", "moves": "z9"}' '.error | test("^moves: ")'

# An unbounded spec runs with the cap: minimax:time=0 on an empty 16x16 board runs with time=2000, and another
# game is served meanwhile: its answer comes while the slow request is still running (an order, not a time).
new_game '{"rules": "16x16k5", "x": "minimax:time=0"}'
SLOW=$ID
new_game '{}'
OTHER=$ID
curl -s -o "$DB_DIR/slow.json" -X POST "${API}/games/$SLOW/engine" &
CURL=$!
sleep 0.3
http GET "/api/games/$OTHER"
[[ $CODE == 200 ]] && kill -0 "$CURL" 2>/dev/null && PASS=$((PASS + 1)) ||
    fail "another game waited for a slow engine: HTTP $CODE after the slow request ended"
wait $CURL
jq -e '.engine.spec | test("time=2000$")' "$DB_DIR/slow.json" >/dev/null && PASS=$((PASS + 1)) ||
    fail "minimax:time=0 was not capped at 2000 ms: $(head -c 300 "$DB_DIR/slow.json")"

# --- Analysis --------------------------------------------------------------------------------------------
api 200 POST /api/analyse '{"moves": "b2"}' '.method == "solver" and (.moves | length) == 8 and ([.moves[] | select(.kind == "exact")] | length) == 8 and .moves[0].result == "draw"'
api 200 POST /api/analyse '{"position": "xx./oo./..."}' '.to_move == "x" and .moves[0].move == "c1" and .moves[0].result == "win" and .moves[0].plies == 1'
api 200 POST /api/analyse '{"rules": "9x9k4", "moves": "e5", "engine": "montecarlo:time=100", "ms": 50}' '.method == "montecarlo score grid" and (.moves | length) == 80 and .moves[0].kind == "score"'
api 400 POST /api/analyse '{"position": "...", "moves": "b2"}' '.error | test("not both")'
api 422 POST /api/analyse '{"position": "xxx/oo./q.."}'
api 422 POST /api/analyse '{"moves": "b2 b2"}' '.error | test("taken")'
api 409 POST /api/analyse '{"position": "xxx/oo./..."}' '.error | test("game is over")'
api 400 POST /api/analyse '{"ms": 0}'
api 400 POST /api/analyse '{"ms": 99999}'
api 400 POST /api/analyse '{"ms": 1.5}'
# The engine's own view (POST /api/explain): each engine in its own terms, only on cells it considered.
api 200 POST /api/explain '{"moves": "b2", "engine": "montecarlo:trials=300"}' '.choice != null and (.layers[0].name == "score grid") and (.layers[0].cells | length) == 8 and ([.facts[] | select(.name == "trials")][0].value == 300)'
api 200 POST /api/explain '{"moves": "b2", "engine": "minimax"}' '.method == "solver" and ([.layers[].name] == ["value", "distance"]) and (.layers[0].cells | length) == 8'
api 200 POST /api/explain '{"rules": "7x7k5", "moves": "d4", "engine": "mcts:time=100"}' '([.layers[].name] | index("visits")) != null and (.lines[0].label == "principal variation") and (.lines[0].moves[0] == .choice)'
api 200 POST /api/explain '{"moves": "b2 a1", "engine": "heuristic"}' '(.step | test("steps 2-4")) and ([.layers[].name] == ["frequency", "line weight"]) and ([.lines[] | .note] | all(. == "weight"))'
api 400 POST /api/explain '{"moves": "b2"}' '.error | test("engine. is required")'
api 422 POST /api/explain '{"engine": "nosuch"}' '.error | test("^engine: ")'
api 409 POST /api/explain '{"position": "xxx/oo./...", "engine": "random"}' '.error | test("game is over")'
api 400 POST /api/explain '{"engine": "random", "extra": 1}' '.error | test("unknown field")'
# The table engine beyond the boards that have a default table: the reason, not "could have 0" entries.
api 422 POST /api/explain '{"rules": "7x7k5", "moves": "d4", "engine": "table"}' '.error | test("no default table for boards of more than 25 cells \\(7x7k5 has 49\\)")'
# An analysis stays within its one ms budget: an engine's trials= give way to the time the solver left.
api 200 POST /api/analyse '{"rules": "9x9k4", "moves": "e5", "engine": "montecarlo:trials=999999999", "ms": 100}' '.method == "montecarlo score grid" and (.engine | test("time=[0-9]+$")) and (.engine | capture("time=(?<t>[0-9]+)$").t | tonumber) <= 100'
api 400 POST /api/analyse '{"depth": 3}'
api 405 GET /api/analyse

# --- Oversized bodies ------------------------------------------------------------------------------------
big=$(printf '{"move": "%s"}' "$(head -c 20000 /dev/zero | tr '\0' a)")
api 413 POST /api/analyse "$big" '.error | test("larger than 16384")'
# A chunked body is refused at its head, whatever its size (bodies need a Content-Length: serve_http.sh)
http POST /api/analyse "$big" -H 'Transfer-Encoding: chunked'
[[ $CODE == 411 ]] && PASS=$((PASS + 1)) || fail "chunked oversized body: HTTP $CODE"

# --- Garbage on the socket -------------------------------------------------------------------------------
exec 3<>"/dev/tcp/127.0.0.1/$PORT" && printf '\x01\x02GARBAGE\r\n\r\n' >&3 && timeout 5 cat <&3 >/dev/null
exec 3>&-
api 200 GET /api/engines

# --- Limits: game count (4 here) and idle expiry (3 s here) ----------------------------------------------
new_game '{}'
FIRST=$ID
for _ in 1 2 3 4; do new_game '{}'; done
api 404 GET "/api/games/$FIRST" '.error | test("unknown or expired")'
api 200 GET "/api/games/$ID"
sleep 3.2
api 404 GET "/api/games/$ID" '.error | test("unknown or expired")'

# --- The learner plays from the server's database and learns into it ---------------------------------------
new_game '{"x": "learner:seed=1", "o": "random:seed=2"}'
for _ in $(seq 9); do
    http POST "/api/games/$ID/engine"
    jq -e '.outcome == "ongoing"' "$OUT" >/dev/null || break
done
jq -e '.outcome != "ongoing"' "$OUT" >/dev/null && PASS=$((PASS + 1)) || fail "learner game did not finish: $(cat "$OUT")"
expect_out 0 '^3x3: 1 game learned' memory stats --memory "$DB_DIR/games.db"

# --- Still alive, then a clean stop ----------------------------------------------------------------------
new_game '{"o": "perfect"}'
api 200 POST "/api/games/$ID/move" '{"move": "a1"}'
api 200 POST "/api/games/$ID/engine" '' '.moves == ["a1", "b2"]'
kill -TERM $PID
wait $PID
rc=$?
[[ $rc -eq 0 ]] && grep -q 'stopped' "$LOG" && PASS=$((PASS + 1)) || fail "SIGTERM: exit $rc, log: $(cat "$LOG")"

# The finished game is in the store, once (the undo that reopened it did not record it again); the games left
# unfinished are not.
expect_out 0 '^ +1 .* X won +human +human +b2 a2 a1 b1 c3$' history --db "$DB_DIR/games.db"
expect_out 0 '^ +2 .* learner:seed=1 +random:seed=2 +[a-c][1-3] ' history --db "$DB_DIR/games.db"
[[ $(wc -l <"$OUT") -eq 3 ]] && PASS=$((PASS + 1)) || fail "expected a header and two recorded games: $(cat "$OUT")"

# A second server on a port in use fails with exit 1.
python3 -c 'import socket,sys,time; s=socket.socket(); s.bind(("127.0.0.1",0)); s.listen(); print(s.getsockname()[1], flush=True); time.sleep(10)' >"$DB_DIR/port" &
HOLDER=$!
for _ in $(seq 100); do [[ -s $DB_DIR/port ]] && break; sleep 0.05; done
expect 1 serve --port "$(cat "$DB_DIR/port")"
grep -q '^ttt serve: cannot listen' "$ERR" && PASS=$((PASS + 1)) || fail "port in use: $(cat "$ERR")"
kill $HOLDER

# A host name resolves (getaddrinfo): the URL names it, and which of its addresses is listened on.
serve_start "$DB_DIR/localhost.log" --host localhost --no-record
grep -qE '^ttt serve: http://localhost:[0-9]+/ \(on (127\.0\.0\.1|::1), Ctrl-C to stop\)$' "$DB_DIR/localhost.log" &&
    PASS=$((PASS + 1)) || fail "--host localhost: $(cat "$DB_DIR/localhost.log")"
[[ $(curl -s -o /dev/null -w '%{http_code}' "${URL}api/engines") == 200 ]] && PASS=$((PASS + 1)) ||
    fail "--host localhost: no answer at $URL"
kill -TERM $SERVER
wait $SERVER
# IPv6 where this machine has it: [::1] in the URL.
if [[ -f /proc/net/if_inet6 ]] && grep -q '^0*1 ' /proc/net/if_inet6; then
    serve_start "$DB_DIR/v6.log" --host ::1 --no-record
    grep -qE '^ttt serve: http://\[::1\]:[0-9]+/ \(Ctrl-C' "$DB_DIR/v6.log" && [[ $(curl -s -o /dev/null -w '%{http_code}' "${URL}api/engines") == 200 ]] &&
        PASS=$((PASS + 1)) || fail "--host ::1: $(cat "$DB_DIR/v6.log")"
    kill -TERM $SERVER
    wait $SERVER
fi
finish
