# `ttt play` makes its database with the first game it records, not before: a session quit before any game
# ends leaves no file (and, on the default path, no directory), neither on a named --db path nor on the default
# one. A named path in a missing directory, or a file that is not ours, is still refused before the game.
source "$(dirname "$0")/harness.bash"
IN=$(mktemp)
DIR=$(mktemp -d)
trap 'rm -f "$OUT" "$ERR" "$IN"; rm -rf "$DIR"' EXIT
feed() { printf '%s\n' "$@" >"$IN"; }
check() {
    if eval "$2"; then PASS=$((PASS + 1)); else fail "$1"; fi
}

# --- quit before the end: no file on a named path, no directory on the default one
feed 5 q
STDIN=$IN expect_out 0 'game abandoned' play --o random:seed=1 --db "$DIR/named.db"
check "an abandoned game created $DIR/named.db" "[[ ! -e '$DIR/named.db' ]]"
STDIN=/dev/null expect_out 0 'game abandoned' play --db "$DIR/named.db"
check "the end of input before a move created the database" "[[ ! -e '$DIR/named.db' ]]"
export XDG_DATA_HOME=$DIR/data
STDIN=$IN expect_out 0 'game abandoned' play --o random:seed=1
check "an abandoned game made $(find "$DIR/data" 2>/dev/null | paste -sd' ')" "[[ ! -e '$DIR/data' ]]"
# the first game of a match quit: nothing either
STDIN=$IN expect_out 0 'game abandoned' play --o perfect --games 2
check "an abandoned match made the default database" "[[ ! -e '$DIR/data' ]]"

# the learner's memory is made by the first game it learns, not by a game quit before its end
STDIN=$IN expect_out 0 'game abandoned' play --o learner:seed=1 --db "$DIR/learn.db"
check "an abandoned game against the learner created its memory" "[[ ! -e '$DIR/learn.db' ]]"

# --- the first finished game makes it (with the default path's directories), and it is recorded
feed 1 2 3 4 5 6 7
STDIN=$IN expect_out 0 '^X wins' play --o random:seed=1
check "the first finished game made no database" "[[ -f '$DIR/data/ttt/ttt.db' ]]"
expect_out 0 'X won +human +random:seed=1 +a1 ' history
STDIN=$IN expect_out 0 '^X wins' play --o random:seed=1 --db "$DIR/named.db"
expect_out 0 'X won +human +random:seed=1 +a1 ' history --db "$DIR/named.db"
# an existing database is used as it is: a second game lands next to the first
STDIN=$IN expect_out 0 '^X wins' play --o random:seed=1 --db "$DIR/named.db"
run history --db "$DIR/named.db"
check "expected 2 games in $DIR/named.db: $(cat "$OUT")" "(($(grep -c 'X won  *human' "$OUT") == 2))"

# two engines are recorded only with --record: a --db without it is named as ignored, and nothing is made
expect_out 0 'draw|wins' play --x random:seed=1 --o random:seed=2 --db "$DIR/engines.db"
check "--db without --record for two engines was not named as ignored: $(cat "$ERR")" \
    "grep -q 'warning: --db $DIR/engines.db is ignored: games between two engines are recorded only with --record' '$ERR'"
check "a game between engines made $DIR/engines.db" "[[ ! -e '$DIR/engines.db' ]]"

# --- what cannot work is said before the game, not after it
feed 5 q
STDIN=$IN expect 2 play --o random:seed=1 --db "$DIR/missing/p.db"
check "a missing directory is not named: $(cat "$ERR")" "grep -q \"directory '$DIR/missing' does not exist\" '$ERR'"
check "the game was played before the error" "! grep -q 'your move' '$OUT'"
check "a directory was made for a named path" "[[ ! -e '$DIR/missing' ]]"
printf 'not a database\n' >"$DIR/foreign"
STDIN=$IN expect 2 play --o random:seed=1 --db "$DIR/foreign"
check "a foreign file is not refused at once: $(cat "$ERR")" "grep -q 'not an SQLite database' '$ERR'"
finish
