#!/usr/bin/env bash
# tests/cli/arena_cmd.sh - outside brains in `ttt arena` (the `cmd` engine): `ttt brain` through the protocol
# scores exactly as the built-in engine does (3x3 and 7x7k5, fixed seeds), and brains that sleep, crash, play
# an illegal move or answer ERROR lose every game with a message, their processes killed and reaped.
source "$(dirname "$0")/harness.bash"
TTT=$(realpath "$TTT")
DIR=$(mktemp -d)
trap 'rm -rf "$DIR" "$OUT" "$ERR"' EXIT

# brain NAME BODY: a bash brain that answers START and RESTART with OK, exits at END, records its pid in
# $DIR/NAME.pids, and runs BODY for BEGIN, TURN and DONE.
brain() {
    cat >"$DIR/$1" <<SCRIPT
#!/usr/bin/env bash
echo \$\$ >>"$DIR/$1.pids"
while read -r line; do
    case "\${line%\$'\r'}" in
    START*|RECTSTART*|RESTART) echo OK ;;
    BEGIN|TURN*|DONE) $2 ;;
    END) exit 0 ;;
    esac
done
SCRIPT
    chmod +x "$DIR/$1"
}
brain sleeper 'exec sleep 60'
brain crasher 'kill -SEGV $$'
brain offboard 'echo "MESSAGE thinking"; echo 99,99'
brain corner 'echo 0,0'
brain refuser 'echo ERROR no idea'
# A brain whose child outlives it unless its process group is killed (the child's pid joins the pid file).
brain orphan 'sleep 60 & echo $! >>"'"$DIR"'/orphan.pids"'
printf '#!/usr/bin/env bash\nexit 3\n' >"$DIR/dead"
chmod +x "$DIR/dead"

# same_scores RULES GAMES BRAIN_ENGINE BUILTIN OPPONENT: the CSV results (specs left out) of the built-in engine
# and of `ttt brain --engine` it, played through the protocol, are equal.
same_scores() {
    local rules=$1 games=$2 engine=$3 opponent=$4
    "$TTT" arena --rules "$rules" --games "$games" --seed 7 --jobs 2 --csv "$engine" "$opponent" 2>&1 |
        tail -1 | cut -d, -f3- >"$DIR/builtin"
    "$TTT" arena --rules "$rules" --games "$games" --seed 7 --jobs 2 --csv \
        "cmd:path=$TTT,args=brain --engine $engine" "$opponent" 2>&1 | tail -1 | rev | cut -d, -f1-19 | rev \
        >"$DIR/outside"
    if [[ -s $DIR/builtin ]] && grep -q '^[0-9]' "$DIR/builtin" && cmp -s "$DIR/builtin" "$DIR/outside"; then
        PASS=$((PASS + 1))
    else
        fail "$rules: $engine through ttt brain scored '$(cat "$DIR/outside")', built in '$(cat "$DIR/builtin")'"
    fi
}
same_scores 3x3 40 minimax random
same_scores 3x3 20 mcts:iterations=200 minimax:blunder=30
same_scores 7x7k5 12 mcts:iterations=300 montecarlo:trials=300

# The protocol lets a brain end its lines with CR alone (or CR LF): ttt brain's answers so rewritten score the
# same.
printf '#!/usr/bin/env bash\n"%s" brain --engine minimax | stdbuf -o0 tr "\\n" "\\r"\n' "$TTT" >"$DIR/cr-only"
printf '#!/usr/bin/env bash\n"%s" brain --engine minimax | sed -u "s/\\$/\\r/"\n' "$TTT" >"$DIR/cr-lf"
chmod +x "$DIR/cr-only" "$DIR/cr-lf"
"$TTT" arena --rules 3x3 --games 8 --seed 7 --csv minimax random 2>&1 | tail -1 | cut -d, -f3- >"$DIR/builtin"
for name in cr-only cr-lf; do
    "$TTT" arena --rules 3x3 --games 8 --seed 7 --csv "cmd:path=$DIR/$name" random 2>"$DIR/$name.err" |
        tail -1 | rev | cut -d, -f1-19 | rev >"$DIR/outside"
    if grep -q '^[0-9]' "$DIR/builtin" && cmp -s "$DIR/builtin" "$DIR/outside"; then
        PASS=$((PASS + 1))
    else
        fail "$name line ends: scored '$(cat "$DIR/outside")', built in '$(cat "$DIR/builtin")': $(head -c 300 "$DIR/$name.err")"
    fi
done

# A brain that writes a move unasked (here with its OK to START, in the same write): the line is dropped, not
# taken as its answer to BEGIN or BOARD (it would forfeit the game: 99,99 is off the board).
printf '#!/usr/bin/env bash\n"%s" brain --engine minimax | sed -u "1s/^OK$/OK\\n99,99/"\n' "$TTT" >"$DIR/unasked"
chmod +x "$DIR/unasked"
"$TTT" arena --rules 3x3 --games 8 --seed 7 --csv "cmd:path=$DIR/unasked" random 2>"$DIR/unasked.err" |
    tail -1 | rev | cut -d, -f1-19 | rev >"$DIR/outside"
if cmp -s "$DIR/builtin" "$DIR/outside"; then
    PASS=$((PASS + 1))
else
    fail "unasked move: scored '$(cat "$DIR/outside")', built in '$(cat "$DIR/builtin")': $(head -c 300 "$DIR/unasked.err")"
fi

# One brain process for many games (ttt play keeps its engines: RESTART between games) plays them as the
# built-in engine does.
"$TTT" play --x minimax --o random --games 8 --no-record --seed 1 2>&1 | sed -n 2p >"$DIR/builtin"
"$TTT" play --x "cmd:path=$TTT,args=brain --engine minimax" --o random --games 8 --no-record --seed 1 2>&1 |
    sed -n 2p | sed 's/^cmd:[^:]*: /minimax: /' >"$DIR/outside"
if grep -q 'wins' "$DIR/builtin" && cmp -s "$DIR/builtin" "$DIR/outside"; then
    PASS=$((PASS + 1))
else
    fail "ttt play with a brain: '$(cat "$DIR/outside")', built in '$(cat "$DIR/builtin")'"
fi

# A brain that forfeits loses every game (wins - losses - draws 0 - 4 - 0, 4 forfeits), says why on stderr, and
# leaves no process behind.
forfeits() {
    local name=$1 why=$2
    run arena --games 4 --jobs 2 --csv "cmd:path=$DIR/$name,turn=100,tolerance=100" random
    if [[ $RC -ne 0 ]] || ! grep -Eq ',4,0,4,0,.*,4,0$' "$OUT" || [[ $(grep -c "$why" "$ERR") -ne 4 ]] ||
        ! grep -q '(scored as a loss)' "$ERR"; then
        fail "$name: expected 4 forfeits for '$why'"
        return
    fi
    local left=0
    while read -r pid; do
        # A killed orphan is a zombie until init reaps it: only a live process counts.
        [[ $(ps -o stat= -p "$pid") == [^Z]* ]] && left=$((left + 1))
    done <"$DIR/$name.pids"
    if [[ $left -ne 0 ]]; then
        fail "$name: $left brain processes still running after the arena"
        return
    fi
    PASS=$((PASS + 1))
}
forfeits sleeper 'timed out waiting for a move (limit 100 ms + 100 ms)'
forfeits crasher 'was killed by signal 11'
forfeits offboard 'played 99,99, an illegal move (off the board)'
forfeits corner 'played 0,0, an illegal move'
forfeits refuser "answered 'ERROR no idea' instead of a move"
forfeits orphan 'timed out waiting for a move (limit 100 ms + 100 ms)'
# Every pid file holds one line per process started: 4 games plus the arena's check of the spec.
[[ $(wc -l <"$DIR/sleeper.pids") -eq 5 ]] && PASS=$((PASS + 1)) || fail "sleeper: $(wc -l <"$DIR/sleeper.pids") processes, expected 5"

# A brain that cannot start at all stops the tournament before its first game; bad specs are usage errors.
expect 1 arena --games 2 "cmd:path=$DIR/dead" random
grep -q "dead): .*exited with status 3" "$ERR" && PASS=$((PASS + 1)) ||
    fail "dead brain: $(cat "$ERR")"
# A brain that never answers START: the message gives the limit that applies (10 s to start, not the move's).
printf '#!/usr/bin/env bash\nexec sleep 60\n' >"$DIR/mute"
chmod +x "$DIR/mute"
expect 1 arena --games 2 "cmd:path=$DIR/mute,turn=100,tolerance=100" random
grep -q "mute): timed out waiting for OK after START 3 (limit 10000 ms)" "$ERR" && PASS=$((PASS + 1)) ||
    fail "mute brain: $(cat "$ERR")"
expect_err "could not start '$DIR/nothing'" arena --games 2 "cmd:path=$DIR/nothing" random
# A name without '/' is looked up on PATH, as a shell would.
mkdir -p "$DIR/bin"
printf '#!/usr/bin/env bash\nexec "%s" brain --engine random "$@"\n' "$TTT" >"$DIR/bin/ttt-path-brain"
chmod +x "$DIR/bin/ttt-path-brain"
PATH="$DIR/bin:$PATH" expect_out 0 '^"cmd:path=ttt-path-brain","random",2,' arena --games 2 --csv cmd:path=ttt-path-brain random
PATH="$DIR/bin:$PATH" expect_err "could not start 'ttt-no-such-brain': No such file or directory" arena --games 2 \
    cmd:path=ttt-no-such-brain random
expect_err "path= is required" arena --games 2 cmd random
expect_err "turn=0: expected an integer from 1" arena --games 2 "cmd:path=$DIR/corner,turn=0" random

finish
