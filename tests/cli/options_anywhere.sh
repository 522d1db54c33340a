# The command line as other tools read it: options before or after the positionals (GNU permutation) in every
# command and subcommand, '--' ending them; each command's examples (its --help and the README) give the same
# output with the options moved after the positionals. Also: errors that say what is missing or what was meant
# (a missing value, the closest option or command), bare `ttt`, --version and -V, rules errors in words.
source "$(dirname "$0")/harness.bash"
DIR=$(mktemp -d)
trap 'rm -rf "$DIR" "$OUT" "$ERR"' EXIT

# The output with what varies from run to run (times, rates, this test's temporary paths) replaced.
normalize() { sed -E -e 's#[0-9,]+ [a-z]+/s#RATE#g' -e 's/[0-9]+(\.[0-9]+)? (ms|s|min)\b/T/g' -e 's/[0-9]+\.[0-9]+/T/g' -e "s#$DIR/[a-z0-9]+#PATH#g" "$1"; }

# same "ARGS A" "ARGS B": both exit alike and print the same (normalized) stdout and stderr. Word-split on
# spaces: no argument here holds one.
same() {
    local a=$1 b=$2 ra rb
    # shellcheck disable=SC2086
    run $a
    ra=$RC
    normalize "$OUT" >"$DIR/a.out"
    normalize "$ERR" >"$DIR/a.err"
    # shellcheck disable=SC2086
    run $b
    rb=$RC
    normalize "$OUT" >"$DIR/b.out"
    normalize "$ERR" >"$DIR/b.err"
    if [[ $ra -ne 0 || $ra -ne $rb ]] || ! cmp -s "$DIR/a.out" "$DIR/b.out" || ! cmp -s "$DIR/a.err" "$DIR/b.err"; then
        FAIL=$((FAIL + 1))
        echo "FAIL: 'ttt $a' (exit $ra) and 'ttt $b' (exit $rb) differ"
        diff "$DIR/a.out" "$DIR/b.out" | head -5
        diff "$DIR/a.err" "$DIR/b.err" | head -5
        return 1
    fi
    [[ -s $DIR/a.out ]] || { FAIL=$((FAIL + 1)) && echo "FAIL: 'ttt $a' printed nothing" && return 1; }
    PASS=$((PASS + 1))
}

# --- the examples of each --help and of the README, options moved after the positionals
same "move --engine random:seed=3 x.o/.x./..." "move x.o/.x./... --engine random:seed=3"
same "move --json --engine random:seed=9 x.o/.x./..." "move x.o/.x./... --json --engine random:seed=9"
same "move --json --engine random:seed=9 x.o/.x./..." "move --json x.o/.x./... --engine=random:seed=9"
same "move --engine minimax x.o/.x./..." "move x.o/.x./... --engine minimax"
same "show x.o/.x./..o" "show -- x.o/.x./..o"
same "show --json --moves b2,a1,c3" "show --moves=b2,a1,c3 --json"
same "show --rules 4x4k3 ..../..../..../...." "show ..../..../..../.... --rules 4x4k3"
same "show --json --rules 4x4k3 x.../..../..../...." "show x.../..../..../.... --rules 4x4k3 --json"
same "solve --json x.o/.x./..." "solve x.o/.x./... --json"
same "solve --json xx./oo./..." "solve xx./oo./... --json"
same "solve --value x.o/.x./..." "solve x.o/.x./... --value"
same "solve --rules 3x3-misere" "solve --rules=3x3-misere"
same "arena --games 4 --seed 1 random random" "arena random random --games 4 --seed 1"
same "arena --games 4 --seed 1 --json minimax random" "arena minimax --games 4 random --json --seed 1"
same "arena --games 2 --seed 1 mcts:iterations=200 minimax random" "arena mcts:iterations=200 minimax random --seed 1 --games 2"
same "arena --games 2 --seed 1 --gauntlet random minimax" "arena random minimax --gaunt --games 2 --seed 1"
same "count --rules 3x3-misere --json" "count --json --rules 3x3-misere"
same "play --x hard --o random --games 10 --seed 1 --no-record" "play --no-record --seed 1 --games 10 --o random --x hard"

# memory: the action and the file anywhere among the options, and --db as the database in every command
same "train --against random --games 30 --seed 1 --memory $DIR/a.db" "train --db $DIR/b.db --seed 1 --games 30 --against random"
same "memory stats --memory $DIR/a.db" "memory --db $DIR/a.db stats"
expect 0 memory --out "$DIR/ea.json" export --db "$DIR/a.db"
same "memory export --db $DIR/a.db" "memory export --db $DIR/b.db"
same "memory import $DIR/ea.json --db $DIR/c.db" "memory --db $DIR/d.db import $DIR/ea.json"
same "memory export --db $DIR/c.db" "memory export --db $DIR/d.db"
same "history --db $DIR/a.db --limit 3" "history --limit 3 --memory $DIR/a.db"

# table: the action after its options
same "table build --games 500 --seed 2 --out $DIR/ta.json" "table --games 500 --out $DIR/tb.json build --seed 2"
cmp -s "$DIR/ta.json" "$DIR/tb.json" && PASS=$((PASS + 1)) || { FAIL=$((FAIL + 1)) && echo "FAIL: tables differ"; }
expect 0 table build --rules 4x4k3 --games 200 --out "$DIR/t4.json"
same "move --engine table:file=$DIR/t4.json --rules 4x4k3 x.../..../..../...." "move x.../..../..../.... --rules 4x4k3 --engine table:file=$DIR/t4.json"
expect_out 0 '^usage: ttt table build' table --help build
expect_out 0 '^usage: ttt table ACTION' table --help

# '--' ends the options: what follows is a positional even when it looks like an option
expect_err "bad character '-'" show -- --json
expect_err "one position expected, got 2" solve x.o/.x./... --json ..o/.x./...

# --- errors that say what is missing or what was meant
expect_err "^ttt solve: --rules needs a value$" solve x.o/.x./... --rules
expect_err "^ttt move: --engine needs a value$" move x.o/.x./... --engine
expect_err "^ttt memory: --db needs a value$" memory stats --db
expect_err "^ttt solve: -r \(--rules\) needs a value$" solve -r
expect_err "^ttt solve: --json takes no value$" solve --json=yes
expect_err "unknown option '--jsn'; did you mean '--json'\?" solve --jsn
expect_err "unknown option '--gmes'; did you mean '--games'\?" arena --gmes 3 random random
expect_err "unknown option '--frobnicate' \(see 'ttt solve --help'\)" solve --frobnicate
expect_err "unknown option '-q'" solve -q
expect_err "^ttt serve: '--max' is short for more than one option: --max-games, --max-connections$" serve --max 3 --port x
expect_err "unknown command 'solv'; did you mean 'solve'\?" solv
expect_err "unknown command 'frobnicate' \(see" frobnicate
expect_err "unknown command 'hsitory'; did you mean 'history'\?" help hsitory
expect_err "unknown action 'stat'; did you mean 'stats'\?" memory stat
expect_err "unknown action 'biuld'; did you mean 'build'\?" table biuld --games 1
expect_err "unknown option '--verison'; did you mean '--version'\?" --verison

# bare ttt: the usage, on stderr, exit 2
run
if [[ $RC -eq 2 && ! -s $OUT ]] && grep -q '^usage: ttt COMMAND' "$ERR" && grep -q '^  solve ' "$ERR"; then
    PASS=$((PASS + 1))
else
    fail "bare ttt: exit $RC, expected 2 and the usage on stderr"
fi

# --version and -V: the project version (CMakeLists.txt's project(VERSION))
version=$(sed -nE 's/^project\(ttt VERSION ([0-9.]+).*/\1/p' "$(dirname "$0")/../../CMakeLists.txt")
expect_out 0 "^ttt $version\$" --version
expect_out 0 "^ttt $version\$" -V

# --- rules errors as a person would write them
expect_err "^ttt show: rules '3x3k4': k=4 is longer than the 3x3 board \(at most k3\)$" show --rules 3x3k4
expect_err "^ttt show: rules '4x3k5': k=5 is longer than the 4x3 board \(at most k4\)$" show --rules 4x3k5
expect_err "^ttt show: rules '3x3k2': k=2 is too short: a line is at least 3 in a row$" show --rules 3x3k2
expect_err "^ttt show: rules '2x2': a 2x2 board is too small: each side is at least 3$" show --rules 2x2
expect_err "^ttt show: rules '21x5': a 21x5 board is too big: each side is at most 20$" show --rules 21x5
expect_err "^ttt show: rules '1000x3': the board is too big: each side is at most 20$" show --rules 1000x3
expect_err "^ttt show: rules '5k1000': k is longer than the board \(at most k5\)$" show --rules 5k1000

finish
