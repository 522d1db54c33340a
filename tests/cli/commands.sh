# Command tests: exit codes, outputs and error lines of every subcommand, through the real binary.
source "$(dirname "$0")/harness.bash"

# --- top level
expect_out 0 '^usage: ttt COMMAND' --help
expect_out 0 '^ttt [0-9]+\.[0-9]+' --version
expect_err "unknown command 'frobnicate'" frobnicate
# (bare ttt: the usage on stderr, exit 2: options_anywhere.sh)
for cmd in play move show count solve bench engines table arena; do
    expect_out 0 "^usage: ttt $cmd" "$cmd" --help
    expect_out 0 "^usage: ttt $cmd" help "$cmd"
done

# --- show
expect_out 0 'X to move' show x.o/.x./..o
expect_out 0 '^  2  \. X \.' show x.o/.x./..o
expect_out 0 'X wins' show xxx/oo./...
expect_out 0 'line: a1 b1 c1' show xxx/oo./...
expect_out 0 'O wins: X completed a line, and in misere that loses' show --rules 3x3-misere xxx/oo./...
expect_out 0 'draw' show xox/xoo/oxx
expect_out 0 'O to move' show --moves "b2 a1 c3"
expect_out 0 'O to move' show --moves "5,1,9"
expect_out 0 '"to_move":"o"' show --json --moves "b2"
expect_out 0 '"outcome":"x"' show --json xxx/oo./...
expect_out 0 '"line":\["a1","b1","c1"\]' show --json xxx/oo./...
expect_out 0 '4x4k3' show --rules 4x4k3 ..../..../..../....
expect_out 0 ' 15 ' show --rules 15x15k5
expect_err "bad character 'q' at row 1, column 3" show x.q/.../...
expect_err 'row 2 has 2 cells, expected 3' show x../../...
expect_err 'rules say 4x4' show --rules 4x4 x../.../...
expect_err 'impossible piece counts' show xx./.../...
expect_err 'impossible piece counts' show o../.../...
expect_err 'both X and O have 3 in a row' show xxx/ooo/x..
expect_err 'play continued after the game ended' show xxx/oo./o..
expect_err "rules '3x3k4'" show --rules 3x3k4
expect_err "rules '2x2'" show --rules 2x2
expect_err "move 2 'a1': cell a1 is taken" show --moves "a1 a1"
expect_err "column d is off the 3x3 board" show --moves "d1"
expect_err "the game is over" show --moves "a1 a2 b1 b2 c1 c2"
expect_err 'not both' show --moves a1 x........
expect_err 'one position expected' show x../.../... o../.../...
expect_err "unknown option '--bogus'" show --bogus
expect_err "option '-z'" show -z
expect_err '^ttt show: -r \(--rules\) needs a value$' show -r

# --- move
expect_out 0 '^[a-c][1-3]$' move --engine random x.o/.x./...
expect_out 0 '^[a-c][1-3]$' move --engine random:seed=5
expect_out 0 '^[a-d][1-4]$' move --rules 4x4k3-misere --engine random
expect_out 0 '"move":"[a-c][1-3]","row":[0-2],"col":[0-2]' move --json --engine random x.o/.x./...
expect_out 0 '"engine":"random:seed=9"' move --json --engine random:seed=9
# the only empty cell is the move
expect_out 0 '^c3$' move --engine random xox/xoo/ox.
# the same seed gives the same move
run move --engine random:seed=11 .../.../...
first=$(cat "$OUT")
for i in 1 2 3; do expect_out 0 "^$first\$" move --engine random:seed=11 .../.../...; done
# a perfect engine takes the win, and blocks
expect_out 0 '^c1$' move --engine minimax xx./oo./...
expect_out 0 '^c1$' move --engine minimax:seed=4 xx./o../...
expect_out 0 '"depth":' move --json --engine minimax:depth=2,time=0 --rules 7x7k5
expect_err "minimax:time=x|time=x" move --engine minimax:time=x
expect_out 0 '^c1$' move --engine montecarlo xx./oo./...
expect_out 0 '"nodes":500,' move --json --engine montecarlo:trials=500,seed=2 --rules 7x6k4
expect_err "montecarlo': trials=-1: expected an integer" move --engine montecarlo:trials=-1
expect_err '--engine is required' move x.o/.x./...
expect_err "engine 'nope': unknown engine \(known: minimax, .*random.*\)" move --engine nope
expect_err "unknown option 'depth' \(known: seed\)" move --engine random:depth=3
expect_err "seed=abc: expected an integer" move --engine random:seed=abc
expect_err "seed=-1: expected an integer" move --engine random:seed=-1
expect_err "option 'seed' given twice" move --engine random:seed=1,seed=2
expect_err "^ttt move: engine 'random': option 'seed' needs a value: seed=VALUE$" move --engine random:seed
expect_err 'the game is over' move --engine random xxx/oo./...
expect_err "bad character" move --engine random x.o/.x./..z

# --- count
expect_out 0 'all +5,478 +958 +626 +316 +16 \| +765 +138 +91 +44 +3' count
expect_out 0 'all +255,168 +131,184 +77,904 +46,080 \| +26,830' count
expect_out 0 '"positions":\{"total":5478' count --json
expect_out 0 '"games_sym":\{"total":26830' count --json
expect_out 0 'all +5,478 +958 +316 +626 +16' count --rules 3x3-misere
expect_err 'too big to count' count --rules 9x9
expect_err 'limit' count --limit abc
run count --limit 10
[[ $RC -eq 1 ]] && grep -q 'over 10 positions' "$ERR" && PASS=$((PASS + 1)) || fail "count --limit 10 should fail at run time"
expect_err "unexpected argument 'extra'" count extra

# --- solve
expect_out 0 '^3x3, X to move: draw, the game ends in 9 more moves with best play' solve
expect_out 0 '^b2 +draw +9$' solve --rules 3x3-misere
expect_out 0 '^a1 +loss +9$' solve --rules 3x3-misere
expect_out 0 'X to move: win, the game ends in 5 more moves' solve --rules 4x4k3
# X to move with two in a row: the win is one move away
expect_out 0 'X to move: win, the game ends in 1 more move with' solve xx./oo./...
expect_out 0 '^c1 +win +1$' solve xx./oo./...
expect_out 0 'O to move: loss, the game ends in 2 more moves' solve x.x/.o./x.o
expect_out 0 '"value":"draw","plies":9' solve --json
expect_out 0 '"moves":\[\{"move":"c1","value":"win","plies":1\}' solve --json xx./oo./...
expect_out 0 '"value":"unknown"' solve --rules 9x9k5 --nodes 2000 --json
expect_out 0 'unknown \(not solved within the budget' solve --rules 9x9k5 --time 50
expect_err 'the game is over' solve xxx/oo./...
expect_err "--time 'soon'" solve --time soon
expect_err "--tt '0'" solve --tt 0
expect_err "--threads '0': out of range, expected a number of threads from 1 to 64" solve --threads 0
expect_err 'bad character' solve x.o/.x./..z

# --- bench
expect_err "unexpected argument 'now'" bench now

# --- engines
expect_out 0 '^minimax$' engines
expect_out 0 '^random$' engines
expect_out 0 '^montecarlo$' engines
expect_out 0 '^mcts$' engines
expect_err "unexpected argument" engines extra
# the levels beside the engines, each with the spec it stands for
for level in "easy +minimax:blunder=50" "medium +minimax:blunder=20" "hard +minimax:blunder=5 " "perfect +minimax "; do
    expect_out 0 "^  $level" engines
done
# help texts in the project's words, not the seed documents' constant names
for cmd in engines "play --help" "move --help" "show --help" "solve --help" "count --help" "table build --help" \
    "arena --help" "train --help" "memory --help" "history --help" "bench --help" "serve --help" "engines --help"; do
    # shellcheck disable=SC2086
    run $cmd
    if grep -nE 'NTRIALS|SCORE_CURRENT|SCORE_OTHER|assignment|seed 00[0-9]|AMAF' "$OUT"; then
        fail "ttt $cmd: names from the seed documents"
    else
        PASS=$((PASS + 1))
    fi
done

# --- play in line mode, driven through stdin
printf 'b2\nzz\nb2\na1\nc1\n' >"$OUT.in"
STDIN="$OUT.in" expect_out 0 "not a move: 'zz'" play --x human --o random:seed=1
STDIN="$OUT.in" expect_out 0 'b2 is taken' play --x human --o random:seed=1
STDIN=/dev/null expect_out 0 'game abandoned' play
STDIN=/dev/null expect_out 0 'O is perfect = minimax' play --verbose
# you cannot beat the default opponent: X plays the corners, O answers perfectly
printf 'a1\nc1\nc3\na3\nb1\nb2\na2\nc2\nb3\n' >"$OUT.in"
STDIN="$OUT.in" expect_out 0 '(O wins|draw)' play --seed 1
STDIN=/dev/null expect_out 0 '(X wins|O wins|draw)' play --x random --o random --seed 4
printf 'q\n' >"$OUT.in"
STDIN="$OUT.in" expect_out 0 'game abandoned' play --rules 4x4k3
expect_err "rules 'x'" play --rules x
expect_err "unknown engine" play --o nope
rm -f "$OUT.in"

finish
