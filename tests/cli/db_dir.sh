# tests/cli/db_dir.sh - a database path named on the command line (--db, --memory, memory=) must be in a
# directory that exists, for every command that writes one: a mistyped path is refused in one line and makes
# no directory. The default data directory is made when missing.
source "$(dirname "$0")/harness.bash"
DIR=$(mktemp -d)
trap 'rm -rf "$OUT" "$ERR" "$DIR"' EXIT
MISSING=$DIR/no/such
NAMED="memory '$MISSING/x.db': directory '$MISSING' does not exist"

# serve first: were the directory made by another command, the server would start and the test wait
expect_err "^ttt serve: --db '$MISSING/x.db': directory '$MISSING' does not exist" serve --port 0 --db "$MISSING/x.db"
# (play exits 1 as for any database it cannot open, with its advice: --no-record)
STDIN=<(echo q) expect 1 play --db "$MISSING/x.db" && [[ $(wc -l <"$ERR") -eq 1 ]] &&
    grep -q "^ttt play: $NAMED .*--no-record" "$ERR" && PASS=$((PASS + 1)) || fail "play: no one-line refusal"
expect_err "^ttt train: $NAMED" train --games 1 --against random --memory "$MISSING/x.db"
expect_err "^ttt arena: engine 'learner': $NAMED" arena --games 1 "learner:memory=$MISSING/x.db" random
"$TTT" train --games 1 --against random --memory "$DIR/ok.db" >/dev/null && "$TTT" memory export --db "$DIR/ok.db" >"$DIR/m.json"
expect_err "^ttt memory: .*$NAMED" memory import "$DIR/m.json" --db "$MISSING/x.db"
[[ ! -e $DIR/no ]] && PASS=$((PASS + 1)) || fail "a directory was made for a named path: $(find "$DIR/no")"

# The default data directory is made (XDG_DATA_HOME/ttt), by play as by serve.
STDIN=<(printf 'b2\nq\n') XDG_DATA_HOME=$DIR/data1 expect 0 play
[[ -f $DIR/data1/ttt/ttt.db ]] && PASS=$((PASS + 1)) || fail "play did not make the default database"
XDG_DATA_HOME=$DIR/data2 serve_start "$DIR/log"
kill -TERM "$SERVER"
wait "$SERVER"
[[ -f $DIR/data2/ttt/ttt.db ]] && PASS=$((PASS + 1)) || fail "serve did not make the default database: $(cat "$DIR/log")"
finish
