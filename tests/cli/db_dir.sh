# tests/cli/db_dir.sh - a database path named on the command line (--db, --memory, memory=) must be in a
# directory that exists, for every command that writes one: a mistyped path is refused in one line and makes
# no directory. The default data directory is made when missing.
source "$(dirname "$0")/harness.bash"
DIR=$(mktemp -d)
trap 'rm -rf "$OUT" "$ERR" "$DIR"' EXIT
MISSING=$DIR/no/such
NAMED="database '$MISSING/x.db': directory '$MISSING' does not exist"

# serve first: were the directory made by another command, the server would start and the test wait
expect_err "^ttt serve: database '$MISSING/x.db': directory '$MISSING' does not exist" serve --port 0 --db "$MISSING/x.db"
# (play exits 2 as every command does for this error, with its advice: --no-record)
STDIN=<(echo q) expect_err "^ttt play: $NAMED .*\(--no-record to play without\)$" play --db "$MISSING/x.db"
expect_err "^ttt train: $NAMED" train --games 1 --against random --memory "$MISSING/x.db"
expect_err "^ttt arena: engine 'learner': $NAMED" arena --games 1 "learner:memory=$MISSING/x.db" random
"$TTT" train --games 1 --against random --memory "$DIR/ok.db" >/dev/null && "$TTT" memory export --db "$DIR/ok.db" >"$DIR/m.json"
expect_err "^ttt memory: .*$NAMED" memory import "$DIR/m.json" --db "$MISSING/x.db"
# a directory named as the database is refused as one, not as SQLite's "unable to open database file"
expect_err "^ttt history: database '$DIR': a directory, not a database file" history --db "$DIR"
expect_err "^ttt train: database '$DIR': a directory, not a database file" train --games 1 --against random --memory "$DIR"
[[ ! -e $DIR/no ]] && PASS=$((PASS + 1)) || fail "a directory was made for a named path: $(find "$DIR/no")"

# The default data directory is made (XDG_DATA_HOME/ttt), by play as by serve, with the first game recorded.
STDIN=<(printf '%s\n' 1 2 3 4 5 6 7) XDG_DATA_HOME=$DIR/data1 expect 0 play --o random:seed=1
[[ -f $DIR/data1/ttt/ttt.db ]] && PASS=$((PASS + 1)) || fail "play did not make the default database"
XDG_DATA_HOME=$DIR/data2 serve_start "$DIR/log"
[[ ! -e $DIR/data2 ]] && PASS=$((PASS + 1)) || fail "serve made $(find "$DIR/data2") before any game was recorded"
post() { curl -s -o "$OUT" --max-time 300 -X POST -H 'Content-Type: application/json' --data-binary "$2" "$URL${1#/}"; }
post /api/games '{}'
ID=$(grep -oE '"id": *"[^"]+"' "$OUT" | grep -oE '"[^"]+"$' | tr -d '"')
for m in b2 a1 a2 b1 c2; do post "/api/games/$ID/move" "{\"move\": \"$m\"}"; done
grep -qE '"outcome": *"x"' "$OUT" && PASS=$((PASS + 1)) || fail "the game through serve did not end: $(cat "$OUT")"
kill -TERM "$SERVER"
wait "$SERVER"
[[ -f $DIR/data2/ttt/ttt.db ]] && PASS=$((PASS + 1)) || fail "serve did not make the default database: $(cat "$DIR/log")"

# The database's directory removed while play runs: the finished game cannot go to the unlinked file; play
# says so in one line and exits 1 (it used to exit 0, the game lost).
mkdir "$DIR/gone"
"$TTT" play --x random --o random --games 1 --record --db "$DIR/gone/x.db" >/dev/null # made by a first game
mkfifo "$DIR/in"
"$TTT" play --plain --x human --o human --db "$DIR/gone/x.db" <"$DIR/in" >"$OUT" 2>"$ERR" &
PLAY=$!
exec 3>"$DIR/in"
echo b2 >&3
for _ in $(seq 3000); do # until O is asked for a move, the database open (a cap only as a hang guard)
    grep -q '^O, your move' "$OUT" && break
    kill -0 $PLAY 2>/dev/null || break
    sleep 0.1
done
rm -rf "$DIR/gone"
printf 'a1\na2\nb1\nc2\n' >&3
exec 3>&-
wait $PLAY
RC=$?
[[ $RC -eq 1 ]] && grep -q "removed or replaced while in use" "$ERR" && PASS=$((PASS + 1)) ||
    fail "play with its database directory removed exited $RC"
finish
