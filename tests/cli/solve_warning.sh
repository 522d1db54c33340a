# Command tests for the warning `ttt solve` prints before an exact solve that may take long: not where the draw
# prover settles the board at once (k=5 boards of up to 49 cells: their value, and every first move from the
# empty board), still past that size and for every move after a stone.
source "$(dirname "$0")/harness.bash"

# no_warning ARGS...: solves to a draw, with nothing on stderr.
no_warning() {
    expect_out 0 'to move: draw' solve "$@" || return
    [[ ! -s $ERR ]] && PASS=$((PASS + 1)) || fail "solve $*: a warning where the prover settles it at once"
}

# warning EMPTY ARGS...: solves, with one line on stderr: the warning for EMPTY empty cells.
warning() {
    local empty=$1
    shift
    expect_out 0 'to move: (win|draw|loss)' solve "$@" || return
    [[ $(wc -l <"$ERR") -eq 1 ]] && grep -q " with $empty empty cells may take long to solve exactly" "$ERR" &&
        PASS=$((PASS + 1)) || fail "solve $*: not the one-line warning"
}

# The value of a k=5 board of 36 to 49 cells: the draw prover's (6x6k5 in a handful of nodes).
no_warning --rules 6x6k5 --value
no_warning --rules 8x6k5 --value
no_warning --rules 7x7k5 --value
no_warning --rules 7x7k5 --value --moves "d4 c5 d3 d5 e5 c3 e4 c4"
# Every first move from the empty board: the empty board's proof answers each of them.
no_warning --rules 6x7k5
# Every move after a stone is a proof per move (6x8k5 after d4 takes seconds): warned.
warning 46 --rules 6x8k5 --moves "d4 c3"
# Past 49 cells (6x9k5 takes minutes), warned though this position is settled at once.
warning 46 --rules 6x9k5 --value --moves "d4 c5 d3 d5 e5 c3 e4 c4"
# Smaller k=5 boards are the search's, settled at once too.
no_warning --rules 5x7k5 --value
no_warning --rules 5x7k5 --moves c3
# A board on which each side has a pairing strategy is a draw the search sees at once (3x12k4, every move).
no_warning --rules 3x12k4
# k=4 boards past 36 empty cells are still warned (7x7k4: a win in 11).
warning 49 --rules 7x7k4 --value

finish
