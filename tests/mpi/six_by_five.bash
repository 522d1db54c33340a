# The empty 6x5k4 under ttt solve --mpi at $NP ranks (sourced by solve_6x5k4_<N>.sh, one test per N, so that
# ctest can run them side by side: under ASan each takes most of a minute on two loaded cores): every first
# move's value and distance as one process gives them, computed here, wins and losses among them.
source "$(dirname "$0")/mpi.bash"
check "$NP" 6x5k4
finish
