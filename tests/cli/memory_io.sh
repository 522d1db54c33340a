# ttt memory export and import as files and pipes: a failed write says why (the system's reason), '-' imports
# standard input, and the same export imported twice into one database is refused unless --force.
source "$(dirname "$0")/harness.bash"
DIR=$(mktemp -d)
trap 'rm -rf "$OUT" "$ERR" "$DIR"' EXIT
"$TTT" train --against random --games 20 --seed 3 --db "$DIR/a.db" >/dev/null
"$TTT" memory export --db "$DIR/a.db" >"$DIR/e.json"

# export: the reason of a failed write
expect 1 memory export --db "$DIR/a.db" --out /dev/full &&
    { grep -qx "ttt memory: --out '/dev/full': cannot write: No space left on device" "$ERR" || fail "no reason given"; }
"$TTT" memory export --db "$DIR/a.db" >/dev/full 2>"$ERR"
RC=$?
[[ $RC -eq 1 ]] && grep -q "No space left on device" "$ERR" && PASS=$((PASS + 1)) ||
    fail "export to a full stdout exited $RC: $(cat "$ERR")"
expect_err "^ttt memory: --out '$DIR/no/e.json': No such file or directory$" memory export --db "$DIR/a.db" --out "$DIR/no/e.json"

# import -: standard input
STDIN=$DIR/e.json expect_out 0 "^imported [0-9]+ sequences, 20 games, into $DIR/b.db$" memory import - --db "$DIR/b.db"
STDIN=/dev/null expect_err "^ttt memory: import '-': not valid JSON" memory import - --db "$DIR/c.db"

# the same contents again: refused, nothing written; --force adds them again
"$TTT" memory export --db "$DIR/b.db" >"$DIR/b1.json"
expect_err "^ttt memory: import '$DIR/e.json': the same contents were imported into $DIR/b.db on [0-9-]+ [0-9:]+: nothing written \(--force adds the counts again\)$" memory import "$DIR/e.json" --db "$DIR/b.db"
"$TTT" memory export --db "$DIR/b.db" >"$DIR/b2.json"
cmp -s "$DIR/b1.json" "$DIR/b2.json" && PASS=$((PASS + 1)) || fail "a refused import changed the memory"
python3 -m json.tool "$DIR/e.json" >"$DIR/spaced.json" # the same contents, spaced otherwise
expect_err "the same contents were imported" memory import "$DIR/spaced.json" --db "$DIR/b.db"
expect_out 0 "^imported [0-9]+ sequences, 20 games, into $DIR/b.db$" memory import "$DIR/e.json" --db "$DIR/b.db" --force
expect_out 0 "^3x3: 40 games learned" memory stats --db "$DIR/b.db"
expect_out 0 "^imported" memory import "$DIR/e.json" --db "$DIR/d.db" # another database: not seen there
expect_err "^ttt memory: --force is for import$" memory stats --force

# a misspelt action with --help is pointed out, not answered with the help
expect_err "^ttt memory: unknown action 'expotr'; did you mean 'export'\?" help memory expotr
expect_err "unknown action 'expotr'" memory --help expotr
expect_out 0 "^usage: ttt memory" help memory export

finish
