# Ctrl-C in long jobs: SIGINT stops the job, keeps what it can (the results so far, what was learned), clears
# the progress line, says in one line what was kept, and exits 130.
source "$(dirname "$0")/harness.bash"

DIR=$(mktemp -d)
trap 'rm -f "$OUT" "$ERR"; rm -rf "$DIR"' EXIT
export XDG_DATA_HOME="$DIR/data"

command -v script >/dev/null || { echo "SKIP: no script(1)"; exit 77; }

# shows PATTERN: whether the terminal of `interrupt` has shown PATTERN (an extended regex) so far.
shows() {
    tr '\r' '\n' <"$DIR/tty" 2>/dev/null | grep -aqE -- "$1"
}

# interrupt CONDITION ARGS...: runs ttt ARGS... with stderr on a terminal (script(1), into $DIR/tty) and stdout
# into $OUT, waits until the command CONDITION succeeds, sends SIGINT to ttt alone, and sets RC; $DIR/lines
# then holds what the terminal showed, a line per '\r' or '\n'. The waits are guards against a hung command
# only (300 s), never a measure of time.
interrupt() {
    local condition=$1 pid=
    shift
    # A background job starts with SIGINT ignored; ttt gets its default action, as on a terminal.
    local cmd="exec env --default-signal=INT '$TTT'"
    for a in "$@"; do cmd+=" '$a'"; done
    rm -f "$DIR/tty"
    script -qfec "$cmd >'$OUT'" "$DIR/tty" >/dev/null 2>&1 </dev/null &
    local wrapper=$!
    for _ in $(seq 6000); do
        [[ -z $pid ]] && pid=$(pgrep -P "$wrapper")
        [[ -n $pid ]] && eval "$condition" && break
        kill -0 "$wrapper" 2>/dev/null || break
        sleep 0.05
    done
    [[ -n $pid ]] && kill -INT "$pid" 2>/dev/null
    for _ in $(seq 6000); do
        kill -0 "$wrapper" 2>/dev/null || break
        sleep 0.05
    done
    if kill -0 "$wrapper" 2>/dev/null; then
        echo "FAIL: ttt $* still runs after SIGINT"
        kill -KILL "$pid"
    fi
    wait "$wrapper"
    RC=$?
    tr '\r' '\n' <"$DIR/tty" >"$DIR/lines"
    cp "$DIR/lines" "$ERR"
}

# check CONDITION MESSAGE: counts a pass when the command CONDITION succeeds, else fails with MESSAGE.
check() {
    if eval "$1"; then PASS=$((PASS + 1)); else fail "$2"; fi
}

# The bar once games are done: "[##   ]   3%  4,000/300,000,000 games".
PLAYED='\] +[0-9]+%  [1-9][0-9,]*/[0-9,]+ games'

# ttt arena: the match stops; the table of the games played so far, the bar cleared, one line, exit 130.
interrupt 'shows "$PLAYED"' arena --games 100000000 --jobs 2 random random:seed=3 mcts:iterations=20
check '[[ $RC -eq 130 ]]' "arena: exit $RC after SIGINT, expected 130"
check 'grep -qE "^Score of random vs random:seed=3: [0-9]+ - [0-9]+ - [0-9]+  \[0\.[0-9]+\] [1-9][0-9]*$" "$OUT"' \
    "arena: no results of the games played"
check 'grep -qE "^Rank Name" "$OUT"' "arena: no ranking after SIGINT"
check 'grep -aqE $'"'"'^\033\\[Kttt arena: interrupted: [1-9][0-9,]* of 300,000,000 games played, the games in flight abandoned$'"'"' "$DIR/lines"' \
    "arena: the bar is not cleared before the interruption's line: $(tail -c 300 "$DIR/lines" | cat -v)"
# The records add up to the games the line says were played.
played=$(grep -aoE 'interrupted: [0-9,]+' "$DIR/lines" | grep -oE '[0-9,]+$' | tr -d ,)
sum=$(grep -E '^Score of' "$OUT" | awk '{print $NF}' | paste -sd+ | bc)
check '[[ -n $played && $sum -eq $played ]]' "arena: $sum games in the table, $played played"

# --json: valid JSON, marked as interrupted, pairs without games have null statistics.
interrupt 'shows "$PLAYED"' arena --games 100000000 --jobs 2 --json random random:seed=3
check '[[ $RC -eq 130 ]]' "arena --json: exit $RC after SIGINT, expected 130"
check 'python3 -c "import json,sys; d=json.load(open(sys.argv[1])); p=d[\"pairs\"][0]
assert d[\"interrupted\"] is True and p[\"games\"] > 0 and p[\"games\"] == p[\"wins\"] + p[\"losses\"] + p[\"draws\"]" "$OUT"' \
    "arena --json: not valid JSON of the games played: $(head -c 300 "$OUT")"

# --csv: the header and one line per pair.
interrupt 'shows "$PLAYED"' arena --games 100000000 --jobs 2 --csv random random:seed=3 mcts:iterations=20
check '[[ $RC -eq 130 ]]' "arena --csv: exit $RC after SIGINT, expected 130"
check '[[ $(sed "/^$/q" "$OUT" | grep -c .) -eq 4 ]] && head -1 "$OUT" | grep -q "^a,b,games," &&
    grep -qE "^\"random\",\"random:seed=3\",[1-9][0-9]*," "$OUT"' "arena --csv: not the pairs: $(head -c 300 "$OUT")"

# ttt train: the games finished are learned (one transaction each), the one in progress dropped; the line says
# how many the memory learned, which the learning curve (a line per game) agrees with.
interrupt '[[ $(grep -c "" "$DIR/curve.csv" 2>/dev/null) -gt 3 ]]' train --against random --games 100000000 \
    --db "$DIR/m.db" --csv "$DIR/curve.csv" --window 1
check '[[ $RC -eq 130 ]]' "train: exit $RC after SIGINT, expected 130"
learned=$(grep -aoE '^.\[Kttt train: interrupted: learned from [0-9]+ games of 100000000 \(the game in progress dropped\)$' "$DIR/lines" |
    grep -oE 'from [0-9]+' | grep -oE '[0-9]+')
check '[[ -n $learned && $learned -eq $(($(grep -c "" "$DIR/curve.csv") - 1)) ]]' \
    "train: learned '$learned', the curve has $(grep -c "" "$DIR/curve.csv") lines: $(tail -c 300 "$DIR/lines" | cat -v)"
expect_out 0 "^3x3: $learned games learned " memory stats --db "$DIR/m.db"

# ttt table build: the games are lost, nothing is written (not even a temporary file).
mkdir "$DIR/tables"
interrupt 'shows "$PLAYED"' table build --games 1000000000 --jobs 1 --out "$DIR/tables/t.json"
check '[[ $RC -eq 130 ]]' "table build: exit $RC after SIGINT, expected 130"
check 'grep -aqE $'"'"'^\033\[Kttt table: interrupted: nothing written$'"'"' "$DIR/lines"' \
    "table build: not one cleared line saying nothing was written: $(tail -c 300 "$DIR/lines" | cat -v)"
check '[[ -z $(ls -A "$DIR/tables") ]]' "table build: files left after SIGINT: $(ls -A "$DIR/tables")"

# ttt count: nothing is kept.
interrupt 'shows "counting positions \(pass 1 of 2\): ply 3 "' count --rules 4x4
check '[[ $RC -eq 130 ]]' "count: exit $RC after SIGINT, expected 130"
check 'grep -aqE $'"'"'^\033\[Kttt count: interrupted: nothing counted \(the counts are known only at the end\)$'"'"' "$DIR/lines"' \
    "count: not one cleared line saying nothing was counted: $(tail -c 300 "$DIR/lines" | cat -v)"

# The bar of arena and train shows at once, at 0 %, and its clock runs before the first game ends (a game of
# montecarlo:time=1000 on 15x15 takes many seconds); Ctrl-C then stops them with no game played.
TICKED='\]   0%  0/2 games  0:0[2-9] elapsed'
interrupt 'shows "$TICKED"' arena --rules 15x15k5 --games 2 --jobs 1 montecarlo:time=1000 random
check '[[ $RC -eq 130 ]] && grep -aq "interrupted: 0 of 2 games played" "$DIR/lines"' \
    "arena: no ticking bar at 0 % before the first game: $(head -c 300 "$DIR/lines" | cat -v)"
interrupt 'shows "$TICKED"' train --rules 15x15k5 --games 2 --against montecarlo:time=1000 \
    --db "$DIR/m.db"
check '[[ $RC -eq 130 ]] && grep -aq "interrupted: learned from 0 games of 2" "$DIR/lines"' \
    "train: no ticking bar at 0 % before the first game: $(head -c 300 "$DIR/lines" | cat -v)"

# A match that ends is not interrupted: exit 0, and the JSON says so.
expect 0 arena --games 4 --json random random:seed=3
check 'grep -q "\"interrupted\":false" "$OUT"' "arena --json: no interrupted:false in a whole match"

finish
