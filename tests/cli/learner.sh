# Command tests for the learner: ttt train, ttt memory, ttt history, and the memory file, through the binary.
source "$(dirname "$0")/harness.bash"

DIR=$(mktemp -d)
trap 'rm -f "$OUT" "$ERR"; rm -rf "$DIR"' EXIT
export XDG_DATA_HOME="$DIR/data"
DB=$DIR/m.db

check() { # check DESCRIPTION COMMAND...: passes when the command succeeds
    local what=$1
    shift
    if "$@"; then PASS=$((PASS + 1)); else fail "$what"; fi
}
learned() { # learned DB: games learned for 3x3
    "$TTT" memory stats --memory "$1" | sed -n 's/^3x3: \([0-9,]*\) games\? learned.*/\1/p' | tr -d ,
}

expect_out 0 '^usage: ttt train' train --help
expect_out 0 '^usage: ttt memory' memory --help
expect_out 0 '^usage: ttt history' history --help
expect_out 0 '^learner$' engines

# --- training: the default memory is in the data directory
expect_out 0 '^3x3: learner as X against random: 10 games: ' train --against random --games 10 --as x
[[ -s $DIR/data/ttt/ttt.db ]] && PASS=$((PASS + 1)) || fail "no memory in the data directory"
expect_out 0 '^3x3: 10 games learned' memory stats

# the targets at test scale, with real engines: 20 games against minimax, then 200 without learning, no loss
for as in x o; do
    expect 0 train --against minimax --games 20 --as $as --memory "$DIR/mm.db" --seed 3
    expect_out 0 " 0 losses" train --against minimax --games 200 --as $as --memory "$DIR/mm.db" --seed 4 \
        --learner learner:learn=0
done
# ... and against random: 2,000 games, then 2,000 without learning, no loss
for as in x o; do
    expect 0 train --against random --games 2000 --as $as --memory "$DIR/rr.db" --seed 5
    expect_out 0 " 0 losses" train --against random --games 2000 --as $as --memory "$DIR/rr.db" --seed 6 \
        --learner learner:learn=0
done
# learn=0 writes nothing
before=$(learned "$DIR/rr.db")
expect 0 train --against random --games 50 --memory "$DIR/rr.db" --learner learner:learn=0
[[ $(learned "$DIR/rr.db") == "$before" ]] && PASS=$((PASS + 1)) || fail "learn=0 wrote to the memory"

# the learning curve
expect 0 train --against random --games 100 --window 25 --memory "$DB" --csv "$DIR/c.csv"
check "csv curve" diff <(printf 'window,games,wins,draws,losses\n') <(head -1 "$DIR/c.csv")
[[ $(wc -l <"$DIR/c.csv") -eq 5 ]] && PASS=$((PASS + 1)) || fail "expected 4 windows"
[[ $(awk -F, 'NR > 1 { s += $3 + $4 + $5 } END { print s }' "$DIR/c.csv") -eq 100 ]] &&
    PASS=$((PASS + 1)) || fail "the windows do not add up to 100 games"
# the same seed gives the same curve from the same memory
cp "$DB" "$DIR/copy.db"
expect 0 train --against random --games 50 --memory "$DB" --csv "$DIR/a.csv" --seed 9
expect 0 train --against random --games 50 --memory "$DIR/copy.db" --csv "$DIR/b.csv" --seed 9
check "same seed, same curve" cmp -s "$DIR/a.csv" "$DIR/b.csv"

# --- two processes learning into the same memory at once lose nothing
"$TTT" train --against random --games 300 --memory "$DIR/two.db" --seed 1 >/dev/null &
p1=$!
"$TTT" train --against random --games 300 --memory "$DIR/two.db" --seed 2 >/dev/null &
p2=$!
wait $p1 && wait $p2 && PASS=$((PASS + 1)) || fail "a concurrent training failed"
[[ $(learned "$DIR/two.db") -eq 600 ]] && PASS=$((PASS + 1)) || fail "two writers: $(learned "$DIR/two.db") games, expected 600"

# --- SIGKILL mid-training: the file checks out and holds every game that finished
"$TTT" train --against montecarlo:trials=300 --games 100000 --memory "$DIR/k.db" --window 1 --csv "$DIR/k.csv" \
    >/dev/null 2>"$DIR/k.err" &
pid=$!
for _ in $(seq 100); do
    [[ -f $DIR/k.csv && $(wc -l <"$DIR/k.csv") -gt 30 ]] && break
    sleep 0.1
done
kill -KILL $pid
wait $pid 2>/dev/null
[[ -s $DIR/k.err ]] && fail "the killed training: $(cat "$DIR/k.err")"
rows=$(($(wc -l <"$DIR/k.csv") - 1))
expect_out 0 'integrity ok' memory stats --memory "$DIR/k.db"
if command -v sqlite3 >/dev/null; then
    [[ $(sqlite3 "$DIR/k.db" 'PRAGMA integrity_check') == ok ]] && PASS=$((PASS + 1)) || fail "integrity_check"
fi
n=$(learned "$DIR/k.db")
((rows > 0 && n >= rows && n <= rows + 1)) && PASS=$((PASS + 1)) || fail "killed run: $rows games finished, $n learned"

# --- export and import
expect 0 memory export --memory "$DB" --out "$DIR/e.json"
grep -q '^{"format":"ttt-memory","version":1,"memories":\[{"rules":"3x3","sequences":\[' "$DIR/e.json" &&
    PASS=$((PASS + 1)) || fail "export header"
expect_out 0 '^imported [0-9]+ sequences, 150 games' memory import --memory "$DIR/new.db" "$DIR/e.json"
expect 0 memory export --memory "$DIR/new.db" --out "$DIR/e2.json"
check "export, import, export round trip" cmp -s "$DIR/e.json" "$DIR/e2.json"
expect 0 memory import --memory "$DIR/new.db" "$DIR/e.json" --force
[[ $(learned "$DIR/new.db") -eq 300 ]] && PASS=$((PASS + 1)) || fail "a second import with --force adds the counts"
# a non-canonical sequence is stored in canonical form: the half turn takes c3 b3 b2 c2 a1 to the least image
echo '{"format":"ttt-memory","version":1,"memories":[{"rules":"3x3","sequences":[{"moves":"c3 b3 b2 c2 a1","result":"x","count":2}]}]}' >"$DIR/one.json"
expect 0 memory import --memory "$DIR/one.db" "$DIR/one.json"
expect_out 0 '"moves":"a1 b1 b2 a2 c3","result":"x","count":2' memory export --memory "$DIR/one.db"
# bad input: one line, nothing written
sum=$(md5sum <"$DIR/new.db")
echo '{"format":"ttt-memory","version":1,"memories":[{"rules":"3x3","sequences":[{"moves":"a1 b1 a2 b2 a3","result":"x","count":1},{"moves":"a1 a1","result":"x","count":1}]}]}' >"$DIR/bad.json"
expect_err "sequences\[1\]: .*a1 is taken" memory import --memory "$DIR/new.db" "$DIR/bad.json"
echo '{"format":"ttt-memory","version":1,"memories":[{"rules":"3x3","sequences":[{"moves":"a1 b1 a2 b2 a3","result":"o","count":1}]}]}' >"$DIR/bad.json"
expect_err "result 'o': the game ends 'x'" memory import --memory "$DIR/new.db" "$DIR/bad.json"
echo '{"format":"ttt-memory","version":1,"memories":[{"rules":"3x3","sequences":[{"moves":"a1 b1","result":"x","count":1}]}]}' >"$DIR/bad.json"
expect_err "not finished" memory import --memory "$DIR/new.db" "$DIR/bad.json"
echo '{"format":"other"}' >"$DIR/bad.json"
expect_err "not a ttt memory export" memory import --memory "$DIR/new.db" "$DIR/bad.json"
echo 'nope' >"$DIR/bad.json"
expect_err "not valid JSON" memory import --memory "$DIR/new.db" "$DIR/bad.json"
[[ $(md5sum <"$DIR/new.db") == "$sum" ]] && PASS=$((PASS + 1)) || fail "a refused import changed the file"
# a refused import creates nothing: no database, no directory
expect_err "not valid JSON" memory import --memory "$DIR/fresh/sub/m.db" "$DIR/bad.json"
[[ ! -e $DIR/fresh ]] && PASS=$((PASS + 1)) || fail "a refused import created the database's directory"
# readers create nothing: history and stats of a database that does not exist yet
expect_out 0 'no games recorded' history --db "$DIR/none/h.db"
expect_out 0 'memory: empty' memory stats --memory "$DIR/none/m.db"
expect_err "no database at" memory export --memory "$DIR/none/m.db"
[[ ! -e $DIR/none ]] && PASS=$((PASS + 1)) || fail "a reader created a database or its directory"
# counts saturate at 2^53 instead of overflowing
big=9007199254740992
printf '{"format":"ttt-memory","version":1,"memories":[{"rules":"3x3","sequences":[{"moves":"a1 b1 a2 b2 a3","result":"x","count":%s},{"moves":"a1 b1 a2 b2 a3","result":"x","count":%s}]}]}\n' $big $big >"$DIR/big.json"
expect_out 0 "^imported 2 sequences, 9,007,199,254,740,992 games" memory import --memory "$DIR/big.db" "$DIR/big.json"
expect 0 memory import --memory "$DIR/big.db" "$DIR/big.json" --force
expect_out 0 "^3x3: 9,007,199,254,740,992 games learned" memory stats --memory "$DIR/big.db"
expect_out 0 '^[a-c][1-3]$' move --engine "learner:memory=$DIR/big.db" --moves "a1 b1"

# --- corrupt and foreign files: a clear error, the file untouched
echo 'my notes' >"$DIR/notes.txt"
sum=$(md5sum <"$DIR/notes.txt")
expect_err "not an SQLite database: not touching it" memory stats --memory "$DIR/notes.txt"
expect_err "not an SQLite database" train --against random --games 1 --memory "$DIR/notes.txt"
expect_err "not an SQLite database" move --engine "learner:memory=$DIR/notes.txt"
[[ $(md5sum <"$DIR/notes.txt") == "$sum" ]] && PASS=$((PASS + 1)) || fail "notes.txt was changed"
if command -v sqlite3 >/dev/null; then
    sqlite3 "$DIR/other.db" 'CREATE TABLE t(x); INSERT INTO t VALUES (1);'
    sum=$(md5sum <"$DIR/other.db")
    expect_err "an SQLite database of another program: not touching it" memory stats --memory "$DIR/other.db"
    expect_err "another program" history --db "$DIR/other.db"
    [[ $(md5sum <"$DIR/other.db") == "$sum" ]] && PASS=$((PASS + 1)) || fail "other.db was changed"
    [[ ! -e $DIR/other.db-wal ]] && PASS=$((PASS + 1)) || fail "other.db got a WAL"
    sqlite3 "$DIR/newer.db" 'PRAGMA application_id = 1953788928; PRAGMA user_version = 7; CREATE TABLE t(x);'
    expect_err "made by a newer ttt \(schema 7" memory stats --memory "$DIR/newer.db"
fi
cp "$DB" "$DIR/broken.db"
dd if=/dev/urandom of="$DIR/broken.db" bs=1024 seek=1 count=8 conv=notrunc 2>/dev/null
sum=$(md5sum <"$DIR/broken.db")
run memory stats --memory "$DIR/broken.db"
((RC != 0)) && PASS=$((PASS + 1)) || fail "a damaged database passed"
[[ $(md5sum <"$DIR/broken.db") == "$sum" ]] && PASS=$((PASS + 1)) || fail "broken.db was changed"

# --- history
expect_out 0 '^no games recorded' history --memory "$DB"
if command -v sqlite3 >/dev/null; then
    sqlite3 "$DB" "INSERT INTO games(started, ended, rules, x, o, moves, result) VALUES (1700000000, 1700000060, '3x3', 'human', 'learner', 'b2 a1 c3 a3 a2 c2 b1 b3 c1', 'draw')"
    expect_out 0 '^ +1  .* 3x3  +draw  +human  +learner  +b2 a1 c3' history --memory "$DB"
    expect_out 0 '"id":1,.*"result":"draw"' history --memory "$DB" --json
    expect_out 0 '^9\. X c1' history --db "$DB" --show 1
    expect_err "no game 2" history --memory "$DB" --show 2
fi

# --- errors
expect_err "--against is required" train --games 3
expect_err "--games is required" train --against random
expect_err "--games 'x'" train --against random --games x
expect_err "--as 'y'" train --against random --games 1 --as y
expect_err "--window '0'" train --against random --games 1 --window 0
expect_err "unknown engine" train --against nobody --games 1 --memory "$DB"
expect_err "learn=2: expected an integer from 0 to 1" train --against random --games 1 --learner learner:learn=2 --memory "$DB"
expect_err "give one" train --against random --games 1 --memory "$DB" --learner "learner:memory=$DB"
expect_err "unknown action 'frob'" memory frob
# two learners sharing one memory learn each game once there: in an arena and in ttt train
expect 0 arena --games 4 --jobs 2 "learner:memory=$DIR/both.db" "learner:memory=$DIR/both.db"
check "arena learner learner, one memory: 4 games learned" [ "$(learned "$DIR/both.db")" = 4 ]
expect 0 train --against "learner:memory=$DIR/both2.db" --games 3 --memory "$DIR/both2.db"
check "train against a learner of the same memory: 3 games learned" [ "$(learned "$DIR/both2.db")" = 3 ]

expect_err "no action given" memory
expect_err "no file given" memory import --memory "$DB"
expect_err "--limit 'x'" history --limit x

finish
