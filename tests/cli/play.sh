# `ttt play` in line mode and engine matches, driven through scripted stdin: games won, drawn and lost, every
# error path of the prompt, undo, hints, help, the end of input, --games summaries and bad options.
source "$(dirname "$0")/harness.bash"
IN=$(mktemp)
trap 'rm -f "$OUT" "$ERR" "$IN"' EXIT

# feed LINES...: the lines typed at the prompt.
feed() { printf '%s\n' "$@" >"$IN"; }
# Typing 1..9 in turn plays the first free cell each time (a taken cell is refused and the next line tried).
FIRST_FREE=(1 2 3 4 5 6 7 8 9)
# check WHAT CONDITION...: one check of the last run's output, in bash.
check() {
    if eval "$2"; then PASS=$((PASS + 1)); else fail "$1"; fi
}

# --- whole games: won (against a seeded random O), lost (against the perfect engine), drawn (two people)
feed "${FIRST_FREE[@]}"
STDIN=$IN expect_out 0 '^X wins' play --o random:seed=1
STDIN=$IN expect_out 0 '^O wins' play --o perfect:seed=1
feed 1 2 3 5 4 6 8 7 9
STDIN=$IN expect_out 0 '^draw: the board is full' play --x human --o human
# misère: completing a line loses
feed 1 4 2 5 3
STDIN=$IN expect_out 0 'O wins: X completed a line' play --rules 3x3-misere --x human --o human
# who plays which side: --x ENGINE makes you O, the engine moves first
STDIN=/dev/null expect_out 0 '^ttt 3x3 \(seed 7\): X is random:seed=5, O is you$' play --x random:seed=5 --seed 7
STDIN=/dev/null expect_out 0 'X \(random:seed=5\) plays' play --x random:seed=5
# the header is short: the level's name; --verbose adds the full spec of an engine named by a level
STDIN=/dev/null expect_out 0 '^ttt 3x3 \(seed 7\): X is you, O is perfect$' play --seed 7
STDIN=/dev/null expect_out 0 ': X is you, O is perfect = minimax:seed=8' play --seed 7 --verbose
STDIN=/dev/null expect_out 0 'O is hard = minimax:seed=8,time=1000,.*blunder=5' play --seed 7 --level hard -v
STDIN=/dev/null expect_out 0 'X is easy = minimax:seed=7,time=100,.*blunder=50, O is you' play --seed 7 --o human --x easy --verbose
STDIN=/dev/null expect_out 0 '^ttt 3x3 \(seed 7\): X is random:seed=5, O is you$' play --x random:seed=5 --seed 7 --verbose
# no empty board before an engine's first move: the first board holds its stone, its move under it
STDIN=/dev/null expect_out 0 'X \(random:seed=5\) plays' play --x random:seed=5
check "an empty board before the engine's first move" "grep -m1 -A3 '^     a b c$' '$OUT' | grep -q X"
# options that contradict: a warning on stderr naming the one that wins, and the game goes on
STDIN=/dev/null expect_out 0 'O is random$' play --level easy --o random
check "no warning for --level easy --o random: $(cat "$ERR")" \
    "grep -qx 'ttt play: warning: --level easy is ignored: --o random is the engine, you play X' '$ERR'"
STDIN=/dev/null expect_out 0 'O is random$' play --level easy --x human --o random
check "no warning for --level with both sides: $(cat "$ERR")" \
    "grep -qx 'ttt play: warning: --level easy is ignored: --x human and --o random name both players' '$ERR'"
STDIN=/dev/null expect_out 0 'O is easy$' play --level easy --x human
check "a warning for --level easy --x human: $(cat "$ERR")" "[[ ! -s '$ERR' ]]"
STDIN=/dev/null expect_out 0 'O is you$' play --level easy --x easy
check "a warning for --level easy --x easy: $(cat "$ERR")" "[[ ! -s '$ERR' ]]"


# --- one board per turn: a person's move and the engine's reply show one board, the engine's move on one line
# under it, then the prompt as the only status line; the end shows the board and the result
feed "${FIRST_FREE[@]}"
STDIN=$IN expect_out 0 '^X wins \(line a1 b1 c1\)$' play --o random:seed=1
boards=$(grep -c '^     a b c$' "$OUT")
prompts=$(grep -c 'your move' "$OUT")
check "$boards boards for $prompts prompts: one board per turn and one at the end" "((boards == prompts + 1))"
check "a status line beside the prompt" "! grep -q 'to move' '$OUT'"
check "the engine's move is not the line right under its board" \
    "grep -A4 '^     a b c$' '$OUT' | grep -q '^O (random:seed=1) plays a3$'"
check "the engine's move is not followed by the prompt" "grep -A1 '^O (random:seed=1) plays a3$' '$OUT' | grep -q '^X, your move'"
# two engines in line mode: a board for every move, the move under it (no empty one before the first)
STDIN=/dev/null expect_out 0 '^X \(random:seed=2\) plays' play --x random:seed=2 --o random:seed=3
boards=$(grep -c '^     a b c$' "$OUT")
moves=$(grep -c ' plays ' "$OUT")
check "$boards boards for $moves moves of two engines" "((boards == moves))"

# --- the prompt's error paths: a one-line reason, then the prompt again, and the game goes on
feed zz d1 a9 0 b2 b2 c
STDIN=$IN expect_out 0 "not a move: 'zz' \(expected a1..c3 or 1-9; u h \? q\)" play --o random:seed=1
STDIN=$IN expect_out 0 "move 'd1': column d is off the 3x3 board \(columns a-c\)" play --o random:seed=1
STDIN=$IN expect_out 0 "move 'a9': row 9 is off the 3x3 board" play --o random:seed=1
STDIN=$IN expect_out 0 "move '0': cells are numbered 1 to 9" play --o random:seed=1
STDIN=$IN expect_out 0 '^X, your move.*b2 is taken$' play --o random:seed=1
STDIN=$IN expect_out 0 "not a move: 'c'" play --o random:seed=1
STDIN=$IN expect_out 0 'game abandoned' play --o random:seed=1
feed 5
STDIN=$IN expect_out 0 "move '5': digits name cells only on 3x3" play --rules 4x4k3 --o random:seed=1
long=$(printf 'a%.0s' {1..300})
feed "$long" b2
STDIN=$IN expect_out 0 'not a move: the line is longer than' play --o random:seed=1
STDIN=$IN expect_out 0 '^  2  \. X \.' play --o random:seed=1

# --- undo, hint, help, quit, end of input
feed u b2 u
STDIN=$IN expect_out 0 'nothing to undo' play --o random:seed=1
STDIN=$IN expect_out 0 'took back 2 moves' play --o random:seed=1
feed h
STDIN=$IN expect_out 0 'hint for X \(solver' play
STDIN=$IN expect_out 0 '^  1  D\*? +D +D' play
# the legend names only the values shown (all draws here), and the best move, marked on the board
STDIN=$IN expect_out 0 '^hint for X \(solver\): best [a-c][1-3]\*; D draws$' play
best=$(sed -n 's/^hint for X (solver): best \([a-c]\)\([1-3]\)\*.*/\1 \2/p' "$OUT")
read -r bcol brow <<<"$best"
col=$(($(printf '%d' "'$bcol") - 96))
cell=$(grep -E "^  $brow  " "$OUT" | tail -1 | awk -v c="$col" '{ print $(c + 1) }')
check "the best move $bcol$brow is not marked on the board (cell '$cell')" "[[ '$cell' == *'*' ]]"
check "more than one cell marked best" "(($(grep -E '^  [1-3]  ' "$OUT" | grep -o '\*' | wc -l) == 1))"
# after X a1, O b1 (a mistake), X wins: a hint shows wins with their distance, and the legend says so
feed a1 b1 h
STDIN=$IN expect_out 0 '^  2  W5\*? +W5\*? +D' play --x human --o human
STDIN=$IN expect_out 0 '^hint for X \(solver\): best (a2|b2|a3)\*; W5 wins in 5 moves; D draws$' play --x human --o human
# a won position: wins (W1, W3) and a loss, each kind explained once with a value from the board, no D
feed a1 a3 b1 c2 h
STDIN=$IN expect_out 0 '^hint for X \(solver\): best c1\*; W1 wins in 1 move; L4 loses in 4 moves$' play --x human --o human
# hints are a toggle: on, they stay on for every later move (both people's) until h again
feed h a1 b1 h b2
STDIN=$IN expect_out 0 'hints off' play --x human --o human
check "hints not shown before each move while on" "(($(grep -c '^hint for' "$OUT") == 3))"
check "hints still shown after h turned them off" "! tail -6 '$OUT' | grep -q '^hint for'"
# bigger boards: the solver proves it (4x4k3) or the hint falls back on an engine's scores
feed h
STDIN=$IN expect_out 0 'hint for X \(solver' play --rules 4x4k3 --x human --o human
# where the solver proves nothing in time (7x7k5), the values are estimates: percentages, explained once
feed h
STDIN=$IN expect_out 0 '^hint for X \(montecarlo score grid\): best [a-g][1-7]\*; [+-][0-9]+ an estimate \(\+99 a sure win\)$' \
    play --rules 7x7k5 --x human --o human --no-record
[[ $(grep -o 'an estimate' "$OUT" | wc -l) -eq 1 ]] && PASS=$((PASS + 1)) || fail "the estimate explained more than once"
feed '?'
STDIN=$IN expect_out 0 'take back your last move' play
feed q
STDIN=$IN expect_out 0 'game abandoned' play
STDIN=/dev/null expect_out 0 'game abandoned' play
# --plain is line mode (stdin is not a terminal here anyway)
STDIN=/dev/null expect_out 0 'X, your move' play --plain

# --- matches: --games with people swaps sides every game; the score is kept
feed 1 2 3 5 4 6 8 7 9 1 4 2 5 3
STDIN=$IN expect_out 0 'game 2 of 2, sides swapped: X is human, O is human' play --x human --o human --games 2
STDIN=$IN expect_out 0 'score after 2 games: player 1 0, player 2 1, draws 1' play --x human --o human --games 2
# quitting (q, or the end of input) leaves the session's score, as the terminal UI does: only finished games
# count as played, the one quit after a move as abandoned, one not begun not at all
feed 1 2 3 5 4 6 8 7 9 1 q
STDIN=$IN expect_out 0 '^ttt play: 1 game played, 1 abandoned: player 1 0, player 2 0, draws 1$' play --x human --o human --games 3
feed 1 2 3 5 4 6 8 7 9 q
STDIN=$IN expect_out 0 '^ttt play: 1 game played: player 1 0, player 2 0, draws 1$' play --x human --o human --games 3
feed 5 q
STDIN=$IN expect_out 0 '^ttt play: no game played \(1 abandoned\)$' play --o random:seed=1 --no-record
STDIN=/dev/null expect_out 0 '^ttt play: no game played$' play --no-record

# --- engines only: a summary of N games, sides swapped every game, reproducible from the seed
expect_out 0 '^20 games of 3x3, sides swapped after every game \(seed 1\):' play --x easy --o random --games 20 --seed 1
expect_out 0 '^easy: [0-9]+ wins, random: [0-9]+ wins, [0-9]+ draws$' play --x easy --o random --games 20 --seed 1
first=$(sed -n 2p "$OUT")
expect_out 0 "^$first\$" play --x easy --o random --games 20 --seed 1
sum=$(sed -n 2p "$OUT" | grep -oE '[0-9]+' | paste -sd+ | bc)
[[ $sum -eq 20 ]] && PASS=$((PASS + 1)) || fail "the summary adds up to $sum games, not 20"
expect_out 0 '^game 3: X easy, O random: .*: (X wins|O wins|draw)' play --x easy --o random --games 3 --verbose
expect_out 0 '^minimax: 0 wins, minimax#2: 0 wins, 10 draws$' play --x minimax --o minimax --games 10
# the perfect level never loses; hard does, now and then, against perfect play
expect_out 0 'random: 0 wins' play --x perfect --o random --games 200 --seed 3
expect_out 0 'minimax: [1-9][0-9]* wins' play --x hard --o minimax --games 200 --seed 3
expect_out 0 '1 game of 4x4k3-misere' play --x medium --o easy --games 1 --rules 4x4k3-misere

# --- records: every finished game lands in the database, an abandoned one does not; --no-record writes nothing
DBDIR=$(mktemp -d)
trap 'rm -f "$OUT" "$ERR" "$IN"; rm -rf "$DBDIR"' EXIT
feed "${FIRST_FREE[@]}"
STDIN=$IN expect_out 0 '^X wins' play --o random:seed=1 --db "$DBDIR/p.db"
feed 5 q
STDIN=$IN expect_out 0 'game abandoned' play --o random:seed=1 --db "$DBDIR/p.db"
# engine matches are not recorded unless asked for (--record): they would flood the history
expect_out 0 '^3 games of 3x3' play --x random --o easy --games 3 --seed 2 --db "$DBDIR/p.db"
run history --db "$DBDIR/p.db"
[[ $(wc -l <"$OUT") -eq 2 ]] && PASS=$((PASS + 1)) || fail "an engine match without --record was recorded"
expect_out 0 '^3 games of 3x3' play --x random --o easy --games 3 --seed 2 --db "$DBDIR/p.db" --record
expect_out 0 ' human +random:seed=1 +a1 ' history --db "$DBDIR/p.db"
# the history names players as they were chosen (a level, as the web server records it), not the full spec
expect_out 0 ' random +easy +[a-c][1-3] ' history --db "$DBDIR/p.db"
expect_out 0 '^ +4 ' history --db "$DBDIR/p.db"
run history --db "$DBDIR/p.db"
[[ $(wc -l <"$OUT") -eq 5 ]] || fail "expected 4 recorded games (the abandoned one not among them)"
expect_out 0 '^1\. X a1' history --db "$DBDIR/p.db" --show 1
feed "${FIRST_FREE[@]}" "${FIRST_FREE[@]}"
STDIN=$IN expect_out 0 '^(X wins|O wins|draw)' play --level hard --db "$DBDIR/p.db"
expect_out 0 ' human +hard +[a-c][1-3] ' history --db "$DBDIR/p.db"
# the same level has the same name in the history whether played in the browser or in the terminal
if command -v curl >/dev/null && command -v jq >/dev/null; then
    serve_start "$DBDIR/serve.log" --db "$DBDIR/both.db"
    curl -s -o "$OUT" --max-time 10 -X POST -H 'Content-Type: application/json' \
        --data-binary '{"x": "hard", "o": "easy"}' "${URL}api/games"
    id=$(jq -r .id "$OUT")
    for _ in $(seq 9); do
        curl -s -o "$OUT" --max-time 30 -X POST "${URL}api/games/$id/engine"
        jq -e '.outcome == "ongoing"' "$OUT" >/dev/null || break
    done
    kill -TERM "$SERVER" && wait "$SERVER"
    expect_out 0 '^1 game of 3x3' play --x hard --o easy --games 1 --record --db "$DBDIR/both.db"
    run history --db "$DBDIR/both.db"
    n=$(grep -cE ' hard +easy +[a-c][1-3] ' "$OUT")
    check "not both games (browser, terminal) recorded as 'X hard, O easy' ($n)" "((n == 2))"
else
    echo "skipped: the browser's names (curl or jq missing)"
fi
# a game that could not be saved is not a success: the reason on stderr, a summary, exit status 1 (the games are
# still played to the end and scored)
if command -v sqlite3 >/dev/null; then
    run play --x random --o random --games 1 --record --db "$DBDIR/refuses.db"
    sqlite3 "$DBDIR/refuses.db" "CREATE TRIGGER no_games BEFORE INSERT ON games BEGIN SELECT RAISE(ABORT, 'the disk says no'); END;"
    expect_out 1 '^2 games of 3x3' play --x random --o random --games 2 --seed 2 --record --db "$DBDIR/refuses.db"
    check "no reason per unsaved game: $(cat "$ERR")" "(($(grep -c 'game [12]: .*write failed: the disk says no' "$ERR") == 2))"
    check "no summary of unsaved games: $(cat "$ERR")" "grep -q '2 finished games could not be saved' '$ERR'"
    feed "${FIRST_FREE[@]}"
    STDIN=$IN expect_out 1 '^X wins' play --o random:seed=1 --db "$DBDIR/refuses.db"
    check "no summary of the unsaved game: $(cat "$ERR")" "grep -q '1 finished game could not be saved' '$ERR'"
else
    echo "skipped: an unsaved game's exit status (sqlite3 missing)"
fi
expect_out 0 '^3 games' play --x random --o random --games 3 --no-record --db "$DBDIR/none.db"
grep -qx "ttt play: warning: --db $DBDIR/none.db is ignored: --no-record records nothing" "$ERR" ||
    fail "no warning for --db with --no-record"
[[ ! -e "$DBDIR/none.db" ]] || fail "--no-record created the database"
printf 'not a database, and it stays so\n' >"$DBDIR/foreign"
sum=$(md5sum <"$DBDIR/foreign")
feed 5
STDIN=$IN expect 2 play --o random:seed=1 --db "$DBDIR/foreign"
grep -q 'no-record' "$ERR" || fail "a bad database's error does not suggest --no-record"
[[ $(md5sum <"$DBDIR/foreign") == "$sum" ]] || fail "the foreign file was changed"

# --- bad options: one line, exit 2
expect_err "--level 'expert': expected easy, medium, hard or perfect" play --level expert
expect_err "--games '0': out of range, expected a number of games from 1 to" play --games 0
expect_err "--games 'x'" play --games x
expect_err "--seed 'x'" play --seed x
expect_err "rules 'x'" play --rules x
expect_err "engine 'nope': unknown engine" play --o nope
expect_err "unknown option 'depth'" play --x random:depth=3
expect_err "blunder=101: expected an integer from 0 to 100" play --x minimax:blunder=101
expect_err "--record and --no-record contradict each other" play --record --no-record
expect_err "unexpected argument 'extra'" play extra
expect_err "unknown option '--bogus'" play --bogus
finish
