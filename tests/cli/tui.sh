# The terminal UI of `ttt play`, driven through tmux (send-keys, capture-pane): games won, drawn and lost, undo,
# hint, help, new game, resize, NO_COLOR, and quitting (q, Ctrl-C, SIGTERM) with the terminal restored, also
# while an engine is thinking. Waits poll the screen with a generous deadline, so a loaded machine only makes
# them slower. Skips (exit 77) when tmux is missing.
source "$(dirname "$0")/tui_harness.bash"

# --- a game won: X takes the top row against a seeded random O (its replies a3, c2 are known)
start --o random:seed=1
wait_for '^X to move \(you\)$'
wait_for 'X: you   O: random:seed=1'
keys 1 && wait_for 'last: O a3'
keys 2 && wait_for 'last: O c2'
keys 3 && wait_for '^X wins \(you won\)'
wait_for '^score: you 1, random:seed=1 0, draws 0'
wait_for 'n: new game with the sides swapped'
# colours are on (SGR 30-37) unless NO_COLOR is set
if screen -e | grep -Eq $'\e\\[3[0-7]m'; then PASS=$((PASS + 1)); else fail "no colours"; fi
# n: a new game with the sides swapped, the engine moves first
keys n && wait_for 'game 2   X: random:seed=1   O: you'
wait_for '^O to move \(you\)   last: X'
keys q && restored
# quitting leaves the session's score on the terminal
wait_for '^ttt play: 1 game played, 1 abandoned: you 1, random:seed=1 0, draws 0$'


# --- a game lost: X plays a1, b1, a2 (cursor and Enter for the last), the perfect O completes a3-b2-c1
start --o perfect:seed=1
keys 1 && wait_for 'last: O b2'
keys 2 && wait_for 'last: O c1'
keys 3 && wait_for '^c1 is taken$'
keys Left Left Down Enter && wait_for '^O wins \(perfect:seed=1\)'
wait_for '^score: you 0, perfect:seed=1 1, draws 0'
# undo after the end reopens the game, as on the web page: the loss is out of the score again
keys u && wait_for '^took back 2 moves: the game goes on$'
wait_for '^X to move \(you\)   last: O c1'
wait_for '^score: you 0, perfect:seed=1 0, draws 0'
keys c && wait_for '^O to move|^X to move \(you\)   last: O'
keys q && restored

# --- a game drawn, two people at one keyboard (wasd and hjkl-style keys too)
start --x human --o human
keys 1 2 3 5 4 6 8 7 && wait_for 'last: O a3'
keys d l Enter && wait_for '^draw: the board is full'
wait_for '^score: player 1 0, player 2 0, draws 1'
keys q && restored

# --- undo takes back your move and the engine's reply; hint shows every empty cell's value
start --o perfect:seed=1
keys u && wait_for '^nothing to undo$'
keys 1 && wait_for 'last: O b2'
keys u && wait_for '^took back 2 moves$'
wait_for '^X to move \(you\)$'
keys 5 && wait_for 'last: O a3'
# the legend names the values shown (all draws here, no made-up W3 or L5) and the best move, drawn reversed
keys h && wait_for '^hint \(solver\): best [a-c][1-3] \(reversed\); D draws$'
wait_for '^  1  (D|W[0-9]|L[0-9])  *[│|] *(D|W[0-9]|L[0-9])'
if screen -e | grep -Eq $'\e\\[[0-9;]*7m(\e\\[[0-9;]*m)*(D|W|L)'; then PASS=$((PASS + 1)); else fail "no hint cell is reversed"; fi
# hints are a toggle: they stay on after a move (the next position's hint comes by itself) until h again
best=$(screen | sed -n 's/^hint (solver): best \([a-c][1-3]\).*/\1/p')
cell=$(($(printf '%d' "'${best:0:1}") - 97 + 3 * (${best:1:1} - 1) + 1))
keys "$cell" && wait_for "last: O "
wait_for '^hint \(solver\): best [a-c][1-3] \(reversed\); '
keys h && wait_for '^hints off$'
absent '^hint \('
# ? help fits 80x24 (its last line is on the screen), Esc leaves it
keys '?' && wait_for 'take back your last move'
wait_for '^Any key \(Esc too\) returns to the game\.$'
# every line ends whole at 80 columns: the last words of the longest lines are on the screen
wait_for '\(1 2 3 / 4 5 6 / 7 8 9\)$'
wait_for "it reopens the game$"
wait_for 'value before each of$'
wait_for 'while an engine thinks\)$'
keys Escape && wait_for '^X to move \(you\)'
keys q && restored

# --- resize: too small is said, big enough draws the board again; 15x15 fits 80x24 with coordinates
start --rules 15x15k5 --x human --o human
wait_for '^ 15  \.'
wait_for '^     a   b   c   d   e   f   g   h   i   j   k   l   m   n   o$'
tm resize-window -x 45 -y 20 && wait_for '^terminal too small: 45x20, need 50x'
tm resize-window -x 80 -y 24 && wait_for '^ 15  \.'
keys q && restored
# 16x16 fills 80x24: the last row, every column letter and the keys line are on the screen
start --rules 16x16k5 --x human --o human
wait_for '^ 16  \.'
wait_for '^     a   b   c   d   e   f   g   h   i   j   k   l   m   n   o   p$'
wait_for '^X to move \(player 1\)'
wait_for 'q quit$'
keys Enter && wait_for '^O to move \(player 2\)   last: X i9'
absent 'terminal too small'
keys q && restored
# 20x20, the largest board, at 80x24: the compact layout (no title or score line, three-column cells) shows
# every row, every column letter a-t, the status and the keys line; the far corner t20 is playable
start --rules 20x20k5 --x human --o human
wait_for '^ 20  \.  \.'
wait_for '^     a  b  c  d  e  f  g  h  i  j  k  l  m  n  o  p  q  r  s  t$'
wait_for '^X to move \(player 1\)'
wait_for 'q quit$'
absent 'terminal too small'
keys Enter && wait_for '^O to move \(player 2\)   last: X k11'
keys Right Right Right Right Right Right Right Right Right Down Down Down Down Down Down Down Down Down Enter
wait_for '^X to move \(player 1\)   last: O t20'
wait_for '^ 20  \..*\[O\]$'
# hints in the compact layout's three-column cells have at most two characters, so a space keeps every value
# apart (three, as "+12" or "W13", would touch the value to their left); the legend says how they are capped
keys h && wait_for '^hint: best [a-t][0-9]+ \(reversed\); [-+][0-9] an estimate \(\+99 a sure win; \+9 is 9 or more\)'
if screen | sed -n '2,21p' | sed 's/\[[^]]*\]/ /g' | grep -Eq '[^ ]{3}'; then
    fail "hint values touch in the compact layout"
else
    PASS=$((PASS + 1))
fi
# a taller terminal brings the full layout back: the title and the score line, and two-digit hints
tm resize-window -x 90 -y 30 && wait_for '^score: '
wait_for '^ttt 20x20k5'
wait_for '^hint \(.*\+99 a sure win\)$'
keys q && restored

# --- two engines: no cursor (neither on the board nor the terminal's) and no "Enter play" in the keys
start --x random:seed=1 --o random:seed=2
wait_for '^p pause  \. step  n new game  \? help  q quit$'
absent 'Enter play'
absent '\['
if [[ $(tm display -p '#{cursor_flag}') == 0 ]]; then PASS=$((PASS + 1)); else fail "the cursor is shown"; fi
keys q && restored

# --- NO_COLOR: no colours, the highlights are bold/reverse/underline
start_env "NO_COLOR=1 $TTT play --x human --o human"
keys 1 2 3 && wait_for 'last: X c1'
if screen -e | grep -Eq $'\e\\[3[0-7]m'; then fail "colours despite NO_COLOR"; else PASS=$((PASS + 1)); fi
if screen -e | grep -q $'\e\\[4mX'; then PASS=$((PASS + 1)); else fail "the last move is not underlined"; fi
keys q && wait_for '^EXITED rc=0'

# --- quit while thinking: a 10-minute search on 15x15; q ends the program without waiting for it (wait_for
# gives up long before the search would end), the terminal restored
start --rules 15x15k5 --o minimax:time=600000
keys Enter && wait_for 'O to move \(minimax:time=600000\): thinking'
keys q && wait_for '^EXITED rc=0'
restored
# Ctrl-C while thinking does the same
start --rules 15x15k5 --o minimax:time=600000
keys Enter && wait_for 'thinking'
keys C-c && restored
# SIGTERM restores the terminal too
start --x human --o human
wait_for '^X to move'
pid=$(pgrep -P "$(tm display -p '#{pane_pid}')" -x ttt)
kill -TERM "$pid" && restored

echo "$PASS passed, $FAIL failed"
[[ $FAIL -eq 0 ]]
