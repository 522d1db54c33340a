# Command tests for `ttt table build` and the table engine, through the real binary.
source "$(dirname "$0")/harness.bash"

DIR=$(mktemp -d)
trap 'rm -f "$OUT" "$ERR"; rm -rf "$DIR"' EXIT
# Nothing here may touch the user's own data directory.
export XDG_DATA_HOME="$DIR/data"

expect_out 0 '^usage: ttt table ACTION' table --help
expect_out 0 '^usage: ttt table build' table build --help
expect_out 0 '^usage: ttt table' help table

# --- build
# counts in groups of three digits, times in the unit their size calls for, as the rest of the CLI prints them
expect_out 0 '^3x3: 1,000 games \(seed 0\), [0-9]{3} positions, [1-9],[0-9]{3} moves, built in [0-9.]+ (ms|s) with [12] jobs?, [0-9.]+ (ms|s) in all$' \
    table build --games 1000 --out "$DIR/t.json"
expect_out 0 '^3x3: 1 game \(seed 0\), 8 positions, 8 moves, built in ' table build --games 1 --out "$DIR/one.json"
grep -q '^{"format":"ttt-table","version":1,"rules":"3x3","games":1000,"seed":0,"positions":\[' "$DIR/t.json" &&
    PASS=$((PASS + 1)) || fail "the table file does not start with the format header"
# the same seed gives the same file, whatever the number of jobs
expect 0 table build --games 70000 --seed 7 --jobs 1 --out "$DIR/a.json"
expect 0 table build --games 70000 --seed 7 --jobs 2 --out "$DIR/b.json"
cmp -s "$DIR/a.json" "$DIR/b.json" && PASS=$((PASS + 1)) || fail "--jobs 1 and --jobs 2 differ"
# the default place is the data directory
expect_out 0 "wrote $DIR/data/ttt/tables/4x4k3.tbl" table build --rules 4x4k3 --games 500
[[ -s $DIR/data/ttt/tables/4x4k3.tbl ]] && PASS=$((PASS + 1)) || fail "no table in the data directory"
# a name that does not end in .json gets the binary format: its magic, and far smaller than the JSON
expect 0 table build --games 20000 --out "$DIR/t20k.tbl"
expect 0 table build --games 20000 --out "$DIR/t20k.json"
[[ $(head -c 8 "$DIR/t20k.tbl") == TTTTABLE && $(stat -c %s "$DIR/t20k.tbl") -lt $(($(stat -c %s "$DIR/t20k.json") / 3)) ]] &&
    PASS=$((PASS + 1)) || fail "the .tbl file is not the compact binary format"
# both load, and the engine plays the same move from either
expect_out 0 '^[a-c][1-3]$' move --engine "table:file=$DIR/t20k.tbl" x.o/.x./...
cp "$OUT" "$DIR/from-tbl"
expect_out 0 '^[a-c][1-3]$' move --engine "table:file=$DIR/t20k.json" x.o/.x./...
cmp -s "$OUT" "$DIR/from-tbl" && PASS=$((PASS + 1)) || fail "the binary and JSON tables play different moves"
# a damaged binary table is refused in one line that says how to rebuild it
cp "$DIR/t20k.tbl" "$DIR/damaged.tbl"
printf 'X' | dd of="$DIR/damaged.tbl" bs=1 seek=200 conv=notrunc 2>/dev/null
expect_err "checksum does not match.*ttt table build" move --engine "table:file=$DIR/damaged.tbl"
# an existing table is replaced
expect 0 table build --games 10 --out "$DIR/t.json"
grep -q '"games":10,' "$DIR/t.json" && PASS=$((PASS + 1)) || fail "the table was not replaced"
expect 0 table build --games 1000 --out "$DIR/t.json"

# --- the engine reads it
expect_out 0 '^[a-c][1-3]$' move --engine "table:file=$DIR/t.json" x.o/.x./...
expect_out 0 '^c1$' move --engine "table:file=$DIR/t.json" xx./oo./...
expect_out 0 '"engine":"table:seed=0,file=' move --json --engine "table:file=$DIR/t.json"
expect_out 0 '"nodes":1,' move --json --engine "table:file=$DIR/t.json"
# the first use of a default table builds it, saying so in one line on stderr; later uses say nothing
expect_out 0 '^[a-d][1-4]$' move --rules 4x3k3 --engine table
[[ $(wc -l <"$ERR") -eq 1 ]] &&
    grep -qE "^ttt: built the default 4x3 table \(100,000 random games, [0-9.]+ (ms|s)\), saved as $DIR/data/ttt/tables/4x3.tbl \(.* MB\)$" "$ERR" &&
    PASS=$((PASS + 1)) || fail "no one-line note when the default table was built: $(cat "$ERR")"
expect_out 0 '^[a-d][1-4]$' move --rules 4x3k3 --engine table
[[ ! -s $ERR ]] && PASS=$((PASS + 1)) || fail "a note for a default table already built: $(cat "$ERR")"
# an arena builds a missing default table once for all its games (and loads it once)
expect 0 arena --rules 3x4k3 --games 4 table random
[[ $(grep -c 'built the default 3x4 table' "$ERR") -eq 1 ]] && PASS=$((PASS + 1)) ||
    fail "arena: the default table was not built exactly once: $(cat "$ERR")"
expect_out 0 '^[a-d][1-4]$' move --rules 4x4k3 --engine table
expect_out 0 '(X wins|O wins|draw)' play --rules 4x4k3 --x table --o random --seed 3
expect_out 0 '^table$' engines

# --- errors: exit 2, one line
expect_err "no action given" table
expect_err "unknown action 'frob'" table frob
# a misspelt action after --help is pointed out, as without --help, not answered with the help of 'table'
expect_err "^ttt table: unknown action 'biuld'; did you mean 'build'\?" help table biuld
expect_err "^ttt table: unknown action 'biuld'; did you mean 'build'\?" table --help biuld
expect_err "^ttt table: unknown action 'biuld'; did you mean 'build'\?" table biuld
[[ ! -s $OUT ]] && PASS=$((PASS + 1)) || fail "table biuld printed on stdout: $(head -c 200 "$OUT")"
expect_out 0 '^usage: ttt table build ' help table build
expect_out 0 '^usage: ttt table ACTION ' help table
expect_err '--games is required' table build --out "$DIR/x.json"
expect_err "--games 'many'" table build --games many
expect_err "--games '-5'" table build --games -5
expect_err "--seed 'x'" table build --games 1 --seed x
expect_err "^ttt table: --games '0': out of range, expected a whole number from 1 to " table build --games 0 --out "$DIR/zero.json"
[[ ! -e $DIR/zero.json ]] && PASS=$((PASS + 1)) || fail "--games 0 wrote a table"
expect_err "--seed '9223372036854775808'" table build --games 1 --seed 9223372036854775808
expect_err "--jobs '0'" table build --games 1 --jobs 0
expect_err "rules '2x2'" table build --games 1 --rules 2x2
expect_err 'up to 64 cells' table build --games 1 --rules 9x9k5
expect_err "unexpected argument 'extra'" table build --games 1 extra
expect_err "unknown option '--bogus'" table build --bogus
echo 'my notes' >"$DIR/notes.txt"
expect_err 'exists and is not a ttt table: not overwriting it' table build --games 1 --out "$DIR/notes.txt"
grep -q 'my notes' "$DIR/notes.txt" && PASS=$((PASS + 1)) || fail "notes.txt was overwritten"
expect_err "cannot write in '$DIR/no/such'" table build --games 1 --out "$DIR/no/such/t.json"
expect_err 'no such file' move --engine "table:file=$DIR/missing.json"
echo '{"format":"ttt-table","version":9}' >"$DIR/v9.json"
expect_err 'version 9 is not supported' move --engine "table:file=$DIR/v9.json"
echo 'not json' >"$DIR/bad.json"
expect_err 'not valid JSON' move --engine "table:file=$DIR/bad.json"
expect_err 'the table is for 3x3, not 4x4k3' move --rules 4x4k3 --engine "table:file=$DIR/t.json"
# a corrupt default table is an error and stays as it is
echo '{"format":"ttt-table",' >"$XDG_DATA_HOME/ttt/tables/3x3-misere.tbl"
expect_err 'not valid JSON' move --rules 3x3-misere --engine table
grep -qx '{"format":"ttt-table",' "$XDG_DATA_HOME/ttt/tables/3x3-misere.tbl" && PASS=$((PASS + 1)) ||
    fail "the corrupt default table was overwritten"

finish
