# tests/cli/readonly_db.sh - a write to a database file the user may not write fails with one line and leaves
# nothing behind: no -wal or -shm file next to it (SQLite opened such a file read-only, reading it made both
# files, and a read-only connection can never remove them); readers (stats, export, history, a learner that
# does not learn) read it and leave nothing either. Root may write any file, so as root the commands
# run as the user nobody (runuser or setpriv); the test is skipped (77) when that is not possible.
source "$(dirname "$0")/harness.bash"

DIR=$(mktemp -d)
trap 'rm -f "$OUT" "$ERR"; rm -rf "$DIR"' EXIT
TTT_BIN=$(realpath "$TTT")
AS=()
if [[ $(id -u) -eq 0 ]]; then
    if command -v runuser >/dev/null && id nobody >/dev/null 2>&1; then
        AS=(runuser -u nobody --)
    elif command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
        AS=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
    else
        echo "skipped: running as root without runuser or setpriv"
        exit 77
    fi
    chmod 755 "$DIR"
    "${AS[@]}" test -x "$TTT_BIN" || { echo "skipped: nobody cannot run $TTT_BIN"; exit 77; }
fi
# as_user ARGS...: runs ttt as the user of the test (nobody when root); sets RC, OUT and ERR like run.
as_user() {
    "${AS[@]}" "$TTT_BIN" "$@" </dev/null >"$OUT" 2>"$ERR"
    RC=$?
}

DB=$DIR/m.db
"$TTT" train --against random --games 20 --memory "$DB" >/dev/null || { echo "FAIL: train"; exit 1; }
chmod 444 "$DB"
chmod 777 "$DIR" # the directory is writable: only the file is read-only
"${AS[@]}" test -w "$DB" && { echo "skipped: the file is still writable for this user"; exit 77; }
sum=$(md5sum <"$DB")
echo '{"format":"ttt-memory","version":1,"memories":[{"rules":"3x3","sequences":[{"moves":"a1 b1 a2 b2 a3","result":"x","count":1}]}]}' >"$DIR/one.json"
chmod 644 "$DIR/one.json"

# leaves_nothing WHAT ARGS...: exit 1, one line naming the file as read-only, no -wal/-shm, the file unchanged.
leaves_nothing() {
    local what=$1
    shift
    as_user "$@"
    if [[ $RC -ne 1 ]]; then
        fail "$what: exited $RC, expected 1"
    elif [[ -e $DB-wal || -e $DB-shm ]]; then
        fail "$what: left $(ls "$DB"-* | tr '\n' ' ')"
    elif [[ $(wc -l <"$ERR") -ne 1 ]] || ! grep -q "database '$DB': the file is read-only" "$ERR"; then
        fail "$what: expected one line saying the file is read-only"
    elif [[ $(md5sum <"$DB") != "$sum" ]]; then
        fail "$what: the file changed"
    else
        PASS=$((PASS + 1))
    fi
    rm -f "$DB-wal" "$DB-shm"
}

leaves_nothing "train" train --against random --games 3 --memory "$DB"
leaves_nothing "arena with a learner" arena --games 2 --jobs 1 "learner:memory=$DB" random
leaves_nothing "memory import" memory import --memory "$DB" "$DIR/one.json"
leaves_nothing "play" play --x random --o random --record --db "$DB"

# reads_it WHAT ARGS...: exit 0 with output matching $EXPECT, no -wal/-shm, the file unchanged. Readers read
# the file as an immutable snapshot, which makes neither file.
reads_it() {
    local what=$1
    shift
    as_user "$@"
    if [[ $RC -ne 0 ]]; then
        fail "$what: exited $RC: $(cat "$ERR")"
    elif [[ -e $DB-wal || -e $DB-shm ]]; then
        fail "$what: left $(ls "$DB"-* | tr '\n' ' ')"
    elif ! grep -qE "$EXPECT" "$OUT"; then
        fail "$what: expected '$EXPECT' in: $(head -c 300 "$OUT")"
    elif [[ $(md5sum <"$DB") != "$sum" ]]; then
        fail "$what: the file changed"
    else
        PASS=$((PASS + 1))
    fi
    rm -f "$DB-wal" "$DB-shm"
}
EXPECT='3x3: 20 games learned' reads_it "memory stats" memory stats --memory "$DB"
EXPECT='"ttt-memory"' reads_it "memory export" memory export --memory "$DB"
EXPECT='no games recorded' reads_it "history" history --db "$DB"
# a learner that does not learn plays from the file; one that learns is refused before it plays
EXPECT='^[a-c][1-3]$' reads_it "learner learn=0" move --engine "learner:memory=$DB,learn=0"
leaves_nothing "learner learn=1" move --engine "learner:memory=$DB"
# a -wal file with changes beside a read-only file: the snapshot would miss them, so it is refused
printf 'not empty' >"$DB-wal"
as_user memory stats --memory "$DB"
[[ $RC -eq 1 ]] && grep -q "its -wal file holds changes" "$ERR" && PASS=$((PASS + 1)) ||
    fail "a read-only file with a -wal: exited $RC: $(cat "$ERR")"
rm -f "$DB-wal"

finish
