# `ttt solve`'s text report counts its nodes as the rest of the CLI counts (groups of three digits) and gives its
# time in the unit its size calls for ("0.31 ms", "612 ms", "2.5 s"), not in milliseconds to three decimals.
source "$(dirname "$0")/harness.bash"

WORK='^[1-9][0-9]{0,2}(,[0-9]{3})+ nodes in [0-9]+(\.[0-9]+)? (ms|s|min [0-9]{2} s)$'
# every move: 3x5k3 takes about 2,300 nodes, enough for a group separator
expect_out 0 '^3x5, X to move: ' solve --rules 3x5k3
[[ $(tail -n 1 "$OUT") =~ $WORK ]] && PASS=$((PASS + 1)) || fail "solve: last line '$(tail -n 1 "$OUT")'"
# --value: 5x5k4 takes about 32,000 nodes
expect_out 0 '^5x5k4, X to move: draw, the game ends in ' solve --value --rules 5x5k4
[[ $(tail -n 1 "$OUT") =~ $WORK ]] && PASS=$((PASS + 1)) || fail "solve --value: last line '$(tail -n 1 "$OUT")'"
# one node is "1 node"
expect_out 0 '^1 node in [0-9.]+ ms$' solve --value xx./oo./...
# the JSON keeps plain numbers
expect_out 0 '"nodes":[0-9]+,"ms":[0-9.]+' solve --value --json --rules 3x5k3

finish
