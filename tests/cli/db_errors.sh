# A database named with --db that cannot be used gets the same one-line error and the same exit status in every
# command that reads or writes one: it is called a database, the advice never repeats the option just given
# (only the default path gets "--db PATH for another file"), and --db '' is refused rather than taken for the
# default database.
source "$(dirname "$0")/harness.bash"
DIR=$(mktemp -d)
trap 'rm -rf "$OUT" "$ERR" "$DIR"' EXIT
export XDG_DATA_HOME=$DIR/data
echo "my notes" >"$DIR/notes.db"
"$TTT" train --games 2 --against random --db "$DIR/ok.db" >/dev/null && "$TTT" memory export --db "$DIR/ok.db" >"$DIR/m.json"

# every command, with the database option last
commands=("play --x random --o random --record --games 1" "train --against random --games 1" "memory stats"
    "memory export" "memory import $DIR/m.json" "history" "history --show 1" "serve --port 0")

for cmd in "${commands[@]}"; do
    # shellcheck disable=SC2086
    STDIN=<(echo q) expect_err "^ttt ${cmd%% *}: database '$DIR/notes.db': not an SQLite database: not touching it( \(--no-record to (play|serve) without\))?$" $cmd --db "$DIR/notes.db"
    # shellcheck disable=SC2086
    expect_err "^ttt ${cmd%% *}: --db '': expected the path of a database file$" $cmd --db ''
done
# a missing directory, in every command that writes (a reader finds no database there yet)
for cmd in "${commands[@]}"; do
    [[ $cmd == play* || $cmd == train* || $cmd == "memory import"* || $cmd == serve* ]] || continue
    # shellcheck disable=SC2086
    STDIN=<(echo q) expect_err "^ttt ${cmd%% *}: (engine 'learner': )?database '$DIR/no/x.db': directory '$DIR/no' does not exist" $cmd --db "$DIR/no/x.db"
done
[[ ! -e $DIR/data ]] && PASS=$((PASS + 1)) || fail "--db '' or a bad database reached the default one: $(find "$DIR/data")"

# the default database, when it cannot be used, is the one error that advises --db
mkdir -p "$DIR/data/ttt"
cp "$DIR/notes.db" "$DIR/data/ttt/ttt.db"
STDIN=<(echo q) expect_err "^ttt play: database '$DIR/data/ttt/ttt.db': not an SQLite database: not touching it \(--db PATH for another file, --no-record to play without\)$" play --x random --o random --record --games 1
expect_err "^ttt history: database '$DIR/data/ttt/ttt.db': not an SQLite database: not touching it \(--db PATH for another file\)$" history

finish
