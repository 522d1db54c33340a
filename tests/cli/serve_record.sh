# tests/cli/serve_record.sh - what `ttt serve` does with its database: a finished game it fails to record is
# reported in its log (stderr) with the game's id and the reason, and so is a learner that cannot learn it; with --no-record it opens no database at all
# (no file appears in XDG_DATA_HOME or HOME, even with a learner asked for).
source "$(dirname "$0")/harness.bash"
command -v python3 >/dev/null || { echo "FAIL: python3 not found"; exit 1; }
command -v jq >/dev/null || { echo "FAIL: jq not found"; exit 1; }
LOG=$(mktemp)
DIR=$(mktemp -d)
trap 'kill ${SERVER:-} 2>/dev/null; rm -rf "$OUT" "$ERR" "$LOG" "$DIR"' EXIT

# post PATH BODY: the answer in $OUT, the status in CODE. The cap only guards against a hung server: a learner's
# move on a loaded machine under ASan can take seconds.
post() {
    CODE=$(curl -s -o "$OUT" -w '%{http_code}' --max-time 300 -X POST -H 'Content-Type: application/json' --data-binary "$2" "$URL${1#/}")
}
play_to_the_end() { # a 3x3 game between two people that X wins; sets ID
    post /api/games '{}'
    ID=$(jq -r .id "$OUT")
    for m in b2 a1 a2 b1 c2; do post "/api/games/$ID/move" "{\"move\": \"$m\"}"; done
    jq -e '.outcome == "x"' "$OUT" >/dev/null && PASS=$((PASS + 1)) || fail "game $ID did not end: $(cat "$OUT")"
}

# --- A game the database refuses is reported -------------------------------------------------------------
serve_start "$LOG" --db "$DIR/games.db"
play_to_the_end
RECORDED=$ID
# Another connection makes the games table refuse rows (as a damaged or read-only file would). It waits for the
# server's writes as the server waits for others' (TTT_STORE_BUSY_MS); Python's own wait is 5 s.
python3 - "$DIR/games.db" <<'EOF' || fail "could not add the refusing triggers"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], timeout=300)
for table in ("games", "learner_sequences"):
    for op in ("INSERT", "UPDATE"):
        db.execute(f"CREATE TRIGGER refuse_{table}_{op} BEFORE {op} ON {table} "
                   "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END")
db.commit()
EOF
play_to_the_end
REFUSED=$ID
post /api/games '{"x": "learner:seed=1", "o": "random:seed=2"}'
LEARNER=$(jq -r .id "$OUT")
for _ in $(seq 9); do
    post "/api/games/$LEARNER/engine" ''
    jq -e '.outcome == "ongoing"' "$OUT" >/dev/null || break
done
jq -e '.outcome != "ongoing"' "$OUT" >/dev/null && PASS=$((PASS + 1)) || fail "learner game did not end: $(cat "$OUT")"
kill -TERM $SERVER
wait $SERVER
grep -Eq "ttt serve: game $REFUSED not recorded: .*refused by the test" "$LOG" && PASS=$((PASS + 1)) ||
    fail "the refused game is not in the log: $(cat "$LOG")"
grep -Eq "ttt serve: game $LEARNER not recorded: .*refused by the test" "$LOG" &&
    grep -Eq "ttt serve: game $LEARNER: an engine did not learn it: .*refused by the test" "$LOG" &&
    PASS=$((PASS + 1)) || fail "the learner's game or its learning is not in the log: $(cat "$LOG")"
! grep -q "$RECORDED" "$LOG" && PASS=$((PASS + 1)) || fail "the recorded game is reported too: $(cat "$LOG")"
expect_out 0 '^ +1 .* human +human +b2 a1 a2 b1 c2$' history --db "$DIR/games.db"

# --- --no-record: no database ------------------------------------------------------------------------------
mkdir "$DIR/xdg" "$DIR/home"
XDG_DATA_HOME=$DIR/xdg HOME=$DIR/home serve_start "$LOG" --no-record
play_to_the_end
post /api/games '{"x": "learner", "o": "human"}'
if [[ $CODE == 201 ]]; then # the learner plays from no memory, and learns nothing
    ID=$(jq -r .id "$OUT")
    post "/api/games/$ID/engine" ''
fi
[[ $CODE == 200 || $CODE == 422 ]] && PASS=$((PASS + 1)) || fail "learner with --no-record: HTTP $CODE $(cat "$OUT")"
kill -TERM $SERVER
wait $SERVER
files=$(find "$DIR/xdg" "$DIR/home" -mindepth 1)
[[ -z $files ]] && PASS=$((PASS + 1)) || fail "--no-record created: $files"
finish
