# tests/cli/shared_db.sh - one database shared by several processes, each with several connections (threads,
# a server's games): every finished game is counted, none is lost. The store once read the file's header with
# fopen/fclose, and closing that descriptor dropped every POSIX lock SQLite held on the file in the process:
# two `arena --jobs 2` runs failed with "disk I/O error" and kept a third of their games.
source "$(dirname "$0")/harness.bash"
command -v curl >/dev/null || { echo "FAIL: curl not found"; exit 1; }
command -v jq >/dev/null || { echo "FAIL: jq not found (scripts/setup.sh installs it)"; exit 1; }

DIR=$(mktemp -d)
PID=
trap '[[ -n $PID ]] && kill $PID 2>/dev/null; rm -f "$OUT" "$ERR"; rm -rf "$DIR"' EXIT

learned() { # learned DB: games learned for 3x3
    "$TTT" memory stats --memory "$1" | sed -n 's/^3x3: \([0-9,]*\) games\? learned.*/\1/p' | tr -d ,
}
check() { # check DESCRIPTION COMMAND...: passes when the command succeeds
    local what=$1
    shift
    if "$@"; then PASS=$((PASS + 1)); else fail "$what"; fi
}

# --- Two processes, two threads each, a learner in every game writing into one file ---------------------------
# Each game makes new engines, so every game opens the store again while the other connections write.
GAMES=500
for run in 1 2; do
    DB=$DIR/arena-$run.db
    "$TTT" arena --games $GAMES --jobs 2 --seed 1 "learner:memory=$DB" random >"$DIR/a.out" 2>"$DIR/a.err" &
    a=$!
    "$TTT" arena --games $GAMES --jobs 2 --seed 2 "learner:memory=$DB" random >"$DIR/b.out" 2>"$DIR/b.err" &
    b=$!
    wait $a
    rc_a=$?
    wait $b
    rc_b=$?
    [[ $rc_a -eq 0 && $rc_b -eq 0 ]] && PASS=$((PASS + 1)) ||
        fail "run $run: arena exited $rc_a and $rc_b: $(cat "$DIR/a.err" "$DIR/b.err" | head -2)"
    n=$(learned "$DB")
    echo "arena run $run: $((2 * GAMES)) games played, ${n:-0} learned"
    [[ $n -eq $((2 * GAMES)) ]] && PASS=$((PASS + 1)) || fail "run $run: $((2 * GAMES)) games played, ${n:-0} learned"
    expect_out 0 'integrity ok' memory stats --memory "$DB"
done

# --- ttt serve recording learner games while ttt train learns into the same file ------------------------------
DB=$DIR/served.db
LOG=$DIR/serve.log
"$TTT" serve --port 0 --db "$DB" >"$LOG" 2>&1 &
PID=$!
for _ in $(seq 100); do
    grep -q 'http://' "$LOG" && break
    sleep 0.05
done
URL=$(grep -oE 'http://127\.0\.0\.1:[0-9]+/' "$LOG" | head -1)
[[ -n $URL ]] || { echo "FAIL: no URL printed: $(cat "$LOG")"; exit 1; }

TRAIN_GAMES=1000
"$TTT" train --against random --games $TRAIN_GAMES --memory "$DB" --seed 7 >"$DIR/train.out" 2>"$DIR/train.err" &
train=$!
# Games are served for as long as the training runs (and at least MIN_SERVED of them).
MIN_SERVED=20
served=0
finished=0
while kill -0 $train 2>/dev/null || ((served < MIN_SERVED)); do
    served=$((served + 1))
    g=$served
    code=$(curl -s -o "$OUT" -w '%{http_code}' -X POST -H 'Content-Type: application/json' --data-binary \
        "{\"x\": \"learner:seed=$g\", \"o\": \"random:seed=$g\"}" "${URL}api/games")
    if [[ $code != 201 ]]; then
        fail "game $g: creation answered $code: $(cat "$OUT")"
        continue
    fi
    id=$(jq -r .id "$OUT")
    for _ in $(seq 9); do
        code=$(curl -s -o "$OUT" -w '%{http_code}' -X POST "${URL}api/games/$id/engine")
        [[ $code == 200 ]] && jq -e '.outcome == "ongoing"' "$OUT" >/dev/null || break
    done
    if [[ $code == 200 ]] && jq -e '.outcome != "ongoing"' "$OUT" >/dev/null; then
        finished=$((finished + 1))
    else
        fail "game $g: answered $code: $(cat "$OUT")"
    fi
done
[[ $finished -eq $served ]] && PASS=$((PASS + 1)) || fail "$finished of $served served games finished"
wait $train
rc=$?
[[ $rc -eq 0 ]] && PASS=$((PASS + 1)) || fail "train exited $rc: $(cat "$DIR/train.err")"
kill -TERM $PID
wait $PID
PID=
# every finished game is recorded, and every game of both is learned
recorded=$("$TTT" history --db "$DB" --limit 0 --json | jq -s 'map(select(.x | startswith("learner"))) | length')
[[ $recorded -eq $finished ]] && PASS=$((PASS + 1)) || fail "$finished games finished on the server, $recorded recorded"
n=$(learned "$DB")
echo "serve + train: $finished served games finished, $recorded recorded; $TRAIN_GAMES trained + $finished served, ${n:-0} learned"
[[ $n -eq $((TRAIN_GAMES + finished)) ]] && PASS=$((PASS + 1)) ||
    fail "$TRAIN_GAMES trained and $finished served learner games, ${n:-0} learned"
check "the server logged no failure" bash -c "[[ -f '$LOG' ]] && ! grep -Ei 'error|fail' '$LOG'"

finish
