# Command tests for `ttt solve --checkpoint FILE` and `--resume FILE`: a solve stopped and continued gives the
# values of one run with less work than starting over; a file of other rules, another position, cut short,
# changed or not a checkpoint is refused in one line and left as it was; SIGTERM saves before exit; a kill -9
# in the middle of a checkpoint leaves the previous one whole.
source "$(dirname "$0")/harness.bash"
command -v jq >/dev/null || { echo "SKIP: no jq"; exit 77; }

DIR=$(mktemp -d)
trap 'rm -f "$OUT" "$ERR"; rm -rf "$DIR"' EXIT
CK=$DIR/run.ckpt
# Only a guard against a hung command: the waits are for files and exits, never for a time.
WAIT_CAP_TENTHS=6000

# The JSON of a solve without its work (nodes, ms, the prover's nodes per first move in proof): what a resumed
# run must give as one run does.
values() { jq -cS 'del(.nodes, .ms, .proof)' "$1"; }

# 6x8k5, every move (0.33M nodes in one run, the draw prover's): a node budget stops it at the same point
# every time, inside the prover's first-move proofs (the first moves drawn all at once when they end): the
# checkpoint holds its table and the first moves it proved, no first move settled yet.
expect 0 solve --rules 6x8k5 --json
cp "$OUT" "$DIR/whole.json"
WHOLE=$(jq .nodes "$DIR/whole.json")
expect_out 0 '"interrupted":false' solve --rules 6x8k5 --json --checkpoint "$CK" --nodes 250000
SETTLED=$(grep -oE 'checkpoint .*: [0-9]+ of 48 first moves settled' "$ERR" | grep -oE '[0-9]+ of' | tr -d ' of')
PROVER=$(grep -oE 'settled, .*, [0-9,]+ prover entries' "$ERR" | grep -oE '[0-9,]+ prover' | tr -d ', prover')
[[ -n $SETTLED && $SETTLED -lt 48 && -n $PROVER && $PROVER -gt 0 ]] && PASS=$((PASS + 1)) ||
    fail "stopped by --nodes: expected the prover's table and not every first move, got '$SETTLED' '$PROVER'"
expect_out 0 'stopped after [0-9,]* nodes.*not proven' solve --rules 6x8k5 --nodes 1 --resume "$CK"
grep -q "resuming from $CK: $SETTLED of 48 first moves settled" "$ERR" && PASS=$((PASS + 1)) ||
    fail "--resume: no line saying what it resumes from"
expect 0 solve --rules 6x8k5 --json --resume "$CK"
[[ $(values "$OUT") == "$(values "$DIR/whole.json")" ]] && PASS=$((PASS + 1)) ||
    fail "resumed: not the values of one run"
RESUMED=$(jq .nodes "$OUT")
((RESUMED < WHOLE)) && PASS=$((PASS + 1)) || fail "resumed: $RESUMED nodes, starting over takes $WHOLE"
# Finished, the checkpoint holds every first move: going on from it searches nothing.
expect 0 solve --rules 6x8k5 --json --resume "$CK"
[[ $(jq .nodes "$OUT") == 0 && $(values "$OUT") == "$(values "$DIR/whole.json")" ]] && PASS=$((PASS + 1)) ||
    fail "resumed from a finished checkpoint: $(jq .nodes "$OUT") nodes"

# --value keeps the table: 5x4k3 misère (a loss, 339K nodes in one run, by search alone; more rows than
# columns, so the solver's cells are turned) stopped and resumed.
expect 0 solve --rules 5x4k3-misere --value --json
cp "$OUT" "$DIR/value.json"
expect 0 solve --rules 5x4k3-misere --value --json --checkpoint "$DIR/value.ckpt" --nodes 130000
FIRST=$(jq .nodes "$OUT")
expect 0 solve --rules 5x4k3-misere --value --json --resume "$DIR/value.ckpt"
[[ $(values "$OUT") == "$(values "$DIR/value.json")" ]] && PASS=$((PASS + 1)) || fail "--value resumed: not one run's value"
((FIRST + $(jq .nodes "$OUT") < $(jq .nodes "$DIR/value.json") + FIRST / 2)) && PASS=$((PASS + 1)) ||
    fail "--value resumed: $(jq .nodes "$OUT") nodes after $FIRST; one run takes $(jq .nodes "$DIR/value.json")"

# Refused in one line (exit 2), the file left as it was.
cp "$CK" "$DIR/keep"
unchanged() { cmp -s "$CK" "$DIR/keep" && PASS=$((PASS + 1)) || fail "$1: the checkpoint was changed"; }
expect_err "$CK: a checkpoint of 6x8k5, not of 7x7k5" solve --rules 7x7k5 --resume "$CK"
unchanged "other rules"
expect_err "$CK: a checkpoint of the position" solve --rules 6x8k5 --moves c3 --resume "$CK"
unchanged "another position"
head -c 300 "$DIR/keep" >"$CK"
expect_err "$CK: checkpoint: the file is cut short" solve --rules 6x8k5 --resume "$CK"
cmp -s "$CK" <(head -c 300 "$DIR/keep") && PASS=$((PASS + 1)) || fail "cut short: the file was changed"
# A byte changed in each part of the file (header, prover's answers, first moves, near the end).
SIZE=$(stat -c %s "$DIR/keep")
for at in 9 40 200 $((SIZE - 20)); do
    cp "$DIR/keep" "$CK"
    printf '\x5a' | dd of="$CK" bs=1 seek="$at" conv=notrunc status=none
    cmp -s "$CK" "$DIR/keep" && printf '\xa5' | dd of="$CK" bs=1 seek="$at" conv=notrunc status=none
    expect_err "$CK: (checkpoint|a checkpoint of)" solve --rules 6x8k5 --resume "$CK"
done
cp "$DIR/keep" "$CK"
printf 'x' >>"$CK"
expect_err "bytes after its end" solve --rules 6x8k5 --resume "$CK"
echo "not a checkpoint" >"$DIR/text"
expect_err "$DIR/text: not a checkpoint of ttt solve" solve --rules 6x8k5 --resume "$DIR/text"
expect_err "$DIR/text is not a checkpoint of ttt solve: not overwriting it" solve --rules 6x8k5 --checkpoint "$DIR/text"
[[ $(cat "$DIR/text") == "not a checkpoint" ]] && PASS=$((PASS + 1)) || fail "a text file was overwritten"
expect_err "cannot read the checkpoint $DIR/none" solve --rules 6x8k5 --resume "$DIR/none"
# A path that is no regular file is neither read nor replaced (the checkpoint is renamed over its path): a
# directory, a pipe (whose open would wait for a writer), a device.
mkfifo "$DIR/fifo"
for path in "$DIR" "$DIR/fifo"; do
    expect_err "$path is not a regular file: not a checkpoint" solve --rules 6x8k5 --resume "$path"
    expect_err "$path is not a regular file: not a checkpoint" solve --rules 6x8k5 --checkpoint "$path"
done
[[ -p $DIR/fifo ]] && PASS=$((PASS + 1)) || fail "--checkpoint FIFO: the pipe was replaced"

# A file whose checksum matches but whose root moves are not the position's (made by hand, or by another
# program): a first move or a move of the search's order on a taken cell would be played again.
# rewrite SRC DST FIELD VALUE: DST is SRC with the first entry of FIELD (settled: the first moves valued, their
# cell; score: their score; order: the search's order; version: the file's version) set to VALUE, and its
# checksum made again.
rewrite() {
    python3 - "$@" <<'PY'
import struct, sys
src, dst, field, cell = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
d = bytearray(open(src, "rb").read())
at = 12
for _ in range(2):  # the rules, the position
    at += 2 + struct.unpack_from("<H", d, at)[0]
at += 8
at += 4 + 34 * struct.unpack_from("<I", d, at)[0]  # the prover's answers
if field == "version":
    struct.pack_into("<I", d, 8, cell)
elif field == "settled":
    struct.pack_into("<H", d, at + 4, cell)
elif field == "score":
    struct.pack_into("<h", d, at + 6, cell)
else:
    at += 4 + 4 * struct.unpack_from("<I", d, at)[0]
    struct.pack_into("<H", d, at + 2, cell)
h = 0xCBF29CE484222325
for b in d[:-8]:
    h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
struct.pack_into("<Q", d, len(d) - 8, h)
open(dst, "wb").write(d)
PY
}
expect 0 solve --moves b2 --checkpoint "$DIR/b2.ckpt"
rewrite "$DIR/b2.ckpt" "$DIR/b2-order.ckpt" order 4 # b2's own cell
expect_err "b2-order.ckpt: checkpoint: move 1 of the order is corrupted" solve --moves b2 --resume "$DIR/b2-order.ckpt"
rewrite "$DIR/b2.ckpt" "$DIR/b2-settled.ckpt" settled 4
expect_err "b2-settled.ckpt: checkpoint: first move 1 is corrupted" solve --moves b2 --resume "$DIR/b2-settled.ckpt"
# Scores no game from here ends with: a win after no stone at all (TTT_SCORE_WIN), a loss after the first.
rewrite "$DIR/b2.ckpt" "$DIR/b2-score.ckpt" score 10000
expect_err "b2-score.ckpt: checkpoint: first move 1 is corrupted" solve --moves b2 --resume "$DIR/b2-score.ckpt"
rewrite "$DIR/b2.ckpt" "$DIR/b2-score.ckpt" score -9999
expect_err "b2-score.ckpt: checkpoint: first move 1 is corrupted" solve --moves b2 --resume "$DIR/b2-score.ckpt"
rewrite "$DIR/b2.ckpt" "$DIR/b2-twice.ckpt" order 2 # the order's second cell, now twice
expect_err "b2-twice.ckpt: checkpoint: move 2 of the order is corrupted" solve --moves b2 --resume "$DIR/b2-twice.ckpt"
# Version 1's draw prover could call a won position drawn: its files are refused, whatever they hold.
rewrite "$DIR/b2.ckpt" "$DIR/b2-v1.ckpt" version 1
expect_err "b2-v1.ckpt: checkpoint version 1: its draw proofs may be wrong" solve --moves b2 --resume "$DIR/b2-v1.ckpt"
rewrite "$DIR/b2.ckpt" "$DIR/b2-v3.ckpt" version 3
expect_err "b2-v3.ckpt: checkpoint version 3: this ttt reads version 2" solve --moves b2 --resume "$DIR/b2-v3.ckpt"
expect_out 0 "^a1 +draw +8$" solve --moves b2 --resume "$DIR/b2.ckpt"
expect_err "cannot write the checkpoint $DIR/nodir/x.ckpt.tmp: No such file" solve --rules 6x8k5 --checkpoint "$DIR/nodir/x.ckpt"
expect_err "--checkpoint-every goes with --checkpoint" solve --rules 6x8k5 --checkpoint-every 5
expect_err "--job-nodes and --job-timeout go with --mpi" solve --rules 6x8k5 --job-nodes 5

# wait_for COND...: true once the command COND succeeds (false after the cap).
wait_for() {
    for _ in $(seq $WAIT_CAP_TENTHS); do
        "$@" && return 0
        sleep 0.1
    done
    return 1
}

# SIGTERM saves before exit (128 + 15), and what it saved goes on. 6x6k4, every move: minutes of search with a
# growing table; --checkpoint-every 0 saves at every progress report, so the file's appearance says the search
# runs, its signal handlers in place.
rm -f "$CK"
: >"$DIR/err" # emptied before the start: the child empties it only once it runs
"$TTT" solve --rules 6x6k4 --checkpoint "$CK" --checkpoint-every 0 >"$DIR/out" 2>"$DIR/err" &
PID=$!
wait_for test -s "$CK" || fail "6x6k4: no checkpoint written"
kill -TERM "$PID"
wait "$PID"
RC=$?
[[ $RC -eq 143 ]] && PASS=$((PASS + 1)) || fail "after SIGTERM: exit $RC, expected 143: $(cat "$DIR/err")"
grep -q 'interrupted after' "$DIR/out" && grep -q "checkpoint $CK: " "$DIR/err" && PASS=$((PASS + 1)) ||
    fail "after SIGTERM: no report or no checkpoint line: $(cat "$DIR/out" "$DIR/err")"
expect 0 solve --rules 6x6k4 --resume "$CK" --nodes 1

# kill -9 while a checkpoint is being written (its .tmp there): the file it replaces stays whole and loads.
for round in 1 2 3; do
    rm -f "$CK" "$CK.tmp"
    "$TTT" solve --rules 6x6k4 --checkpoint "$CK" --checkpoint-every 0 >/dev/null 2>&1 &
    PID=$!
    wait_for test -s "$CK" && wait_for test -e "$CK.tmp" || fail "round $round: no checkpoint under way"
    kill -KILL "$PID"
    wait "$PID" 2>/dev/null
    expect 0 solve --rules 6x6k4 --resume "$CK" --nodes 1
done

finish
