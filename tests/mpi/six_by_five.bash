# The empty 6x5k4 under ttt solve --mpi at $NP ranks (sourced by solve_6x5k4_<N>.sh, one test per N: under
# ASan one run takes most of a minute on two loaded cores): every first move's value and distance as one
# process gives them, wins and losses among them. The one-process result is 6x5k4.json (as `ttt solve --rules
# 6x5k4 --json | jq -c 'del(.nodes, .ms)'` writes it: ASan would spend as long again on it in each test).
source "$(dirname "$0")/mpi.bash"
cp "$(dirname "$0")/6x5k4.json" "$OUT.solo"
SOLO_RULES=6x5k4
check "$NP" 6x5k4
finish
