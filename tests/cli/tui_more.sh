# The terminal UI of `ttt play` on small terminals and with the mouse, through tmux: 3x3 whole at 40x20 (every
# line wrapped, none cut), the cursor on any cell, the last move and the best hint marked apart, clicks, pause and
# step between engines, an unknown TERM falling back to line mode, only finished games counted as played, and no
# database made by a game quit before its end.
source "$(dirname "$0")/tui_harness.bash"
DIR=$(mktemp -d)
trap 'tm kill-server 2>/dev/null; rm -rf "$DIR"' EXIT

# click COL ROW: a press and a release of the first button at screen column COL, line ROW (from 0), as an xterm
# sends them (X10 encoding: each value plus 32, coordinates from 1).
click() {
    local press release
    local x y
    x=$(printf "\\$(printf %o $((33 + $1)))")
    y=$(printf "\\$(printf %o $((33 + $2)))")
    press=$(printf '\e[M %s%s' "$x" "$y")
    release=$(printf '\e[M#%s%s' "$x" "$y")
    tm send-keys -l "$press$release"
}

# stones: the X and O on the board's rows (lines that start with a row number).
stones() { screen | grep -E '^ +[0-9]+ ' | grep -o '[XO]' | wc -l; }

# --- 40x20: 3x3 fits, every line whole (wrapped between words), nothing cut at the right edge
WIN_W=40 WIN_H=20
start --o random:seed=1 --db "$DIR/narrow.db"
wait_for '^X to move \(you\)$'
absent 'terminal too small'
wait_for '^ttt 3x3, 3 in a row   game 1   X: you$'
wait_for '^O: random:seed=1$'
wait_for '^     a   b   c$'
wait_for '^  3    │   │$'
wait_for '^score: you 0, random:seed=1 0, draws 0$'
wait_for '^arrows/wasd/jkl move  Enter play  u undo$'
wait_for '^h hints  n new game  \? help  q quit$'
keys 1 && wait_for '^X to move \(you\)   last: O a3$'
# a hint's legend wraps too
keys h && wait_for '^hint: best b1 \(reversed\); W5 wins in 5$'
wait_for '^moves; D draws; L6 loses in 6 moves$'
# the help pages: the first says there is more, the last ends with the way back
keys '?' && wait_for '^\(more: any key; Esc returns to the game\)$'
wait_for '^  arrows, wasd  move the cursor \(also H$'
keys Space && wait_for '^Any key \(Esc too\) returns to the game\.$'
wait_for 'while an engine thinks\)$'
keys Space && wait_for '^X to move \(you\)'
# no line of any screen above is longer than the terminal (tmux would have wrapped or cut it)
if screen | awk 'length($0) > 40 { bad = 1 } END { exit !bad }'; then fail "a line wider than 40"; else PASS=$((PASS + 1)); fi
keys q && restored
check_no_file() {
    if [[ -e $1 ]]; then fail "$2 made $1"; else PASS=$((PASS + 1)); fi
}
check_no_file "$DIR/narrow.db" "a game quit before its end"
# quitting leaves only finished games counted: none here, one abandoned
wait_for '^ttt play: no game played \(1 abandoned\)$'

# --- 80x24 again; the cursor shows on every cell: an empty one, a stone, a hint of two characters
WIN_W=80 WIN_H=24
start --x human --o human --db "$DIR/wide.db"
wait_for '^  2    │\[ \]│$'
keys 1 2 && wait_for '^  1  X │\[O\]│$'
keys h && wait_for '^hint \(solver\): best'
keys Down && wait_for '^  2  W5│\[W5\]'
# the last move (O b1) is underlined, the best hint reversed: two different marks
if screen -e | grep -Eq $'\e\\[([0-9]+;)*4(;[0-9]+)*m(\e\\[[0-9;]*m)*O'; then PASS=$((PASS + 1)); else fail "the last move is not underlined"; fi
if screen -e | grep -Eq $'\e\\[1;7m(\e\\[[0-9;]*m)*W5'; then PASS=$((PASS + 1)); else fail "the best hint is not reversed"; fi
if screen -e | grep -Eq $'\e\\[[0-9;]*7m(\e\\[[0-9;]*m)*O'; then fail "the last move is reversed like the best hint"; else PASS=$((PASS + 1)); fi
# a click plays the cell under it (c3: column 4 + 2 * 4 + 1, line 2 + 1 + 2 * 2), the cursor goes there
click 13 7 && wait_for '^O to move \(player 2\)   last: X c3$'
wait_for '^  3  [^│]*│[^│]*│\[X\]$'
# a click beside the board, or on a grid line, plays nothing
click 30 7 && click 13 6 && sleep 0.5
wait_for '^O to move \(player 2\)   last: X c3$'
keys q && restored
check_no_file "$DIR/wide.db" "a game quit before its end"
wait_for '^ttt play: no game played \(1 abandoned\)$'
# the first finished game makes the database
start --o random:seed=1 --db "$DIR/wide.db"
keys 1 && wait_for 'last: O a3'
keys 2 && wait_for 'last: O c2'
keys 3 && wait_for '^X wins \(you won\)'
keys n && wait_for 'game 2   X: random:seed=1   O: you'
wait_for 'last: X'
keys q && restored
wait_for '^ttt play: 1 game played, 1 abandoned: you 1, random:seed=1 0, draws 0$'
if [[ -f $DIR/wide.db ]]; then PASS=$((PASS + 1)); else fail "the finished game made no database"; fi

# --- no colours: the cursor is still there (brackets), and the last move still apart from the best hint
start_env "NO_COLOR=1 $TTT play --x human --o human --no-record"
keys 1 2 h && wait_for '^hint \(solver\): best'
keys Down && wait_for '^  2  W5│\[W5\]'
if screen -e | grep -Eq $'\e\\[([0-9]+;)*4(;[0-9]+)*m(\e\\[[0-9;]*m)*O'; then PASS=$((PASS + 1)); else fail "the last move is not underlined"; fi
keys q && wait_for '^EXITED rc=0'

# a terminal without colours at all (vt100): the brackets all the same (its grid lines come through tmux as the
# letters of the line-drawing set)
start_env "TERM=vt100 $TTT play --x human --o human --no-record"
wait_for '^  2    [│x]\[ \][│x]$'
keys 1 && wait_for '^  1 \[X\][│x]'
keys q && wait_for '^EXITED rc=0'

# --- two engines: p pauses (no more moves), . plays one move, p goes on
start --rules 7x7k5 --x random:seed=1 --o random:seed=2
wait_for 'last: '
keys p && wait_for 'to move \(random:seed=[12]\): paused'
wait_for '^p go on  \. one move  n new game  \? help  q quit$'
n=$(stones)
sleep 1.5
if (($(stones) == n)); then PASS=$((PASS + 1)); else fail "moves while paused ($n, then $(stones))"; fi
keys . && wait_for 'paused'
end=$((SECONDS + DEADLINE))
while (($(stones) == n && SECONDS < end)); do sleep 0.1; done
sleep 1.5
if (($(stones) == n + 1)); then PASS=$((PASS + 1)); else fail ". played $(($(stones) - n)) moves, not 1"; fi
keys p && wait_for '^p pause  \. step  n new game  \? help  q quit$'
end=$((SECONDS + DEADLINE))
while (($(stones) <= n + 2 && SECONDS < end)); do sleep 0.1; done
if (($(stones) > n + 2)); then PASS=$((PASS + 1)); else fail "p did not let the engines go on"; fi
keys q && restored

# --- an unknown TERM: a one-line reason on stderr, then the game in line mode
start_env "TERM=no-such-terminal $TTT play --o random:seed=1 --no-record"
wait_for '^ttt play: unknown terminal type TERM=no-such-terminal: playing in line mode$'
wait_for '^X, your move'
keys 5 Enter && wait_for '^O \(random:seed=1\) plays'
keys q Enter && wait_for '^game abandoned$'
wait_for '^EXITED rc=0'

echo "$PASS passed, $FAIL failed"
[[ $FAIL -eq 0 ]]
