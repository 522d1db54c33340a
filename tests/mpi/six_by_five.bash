# The empty 6x5k4 under ttt solve --mpi at $1 ranks (sourced by solve_6x5k4_<N>.sh, one test per N: under
# ASan each run takes most of a minute on two cores): every first move's value and distance as one process
# gives them, wins and losses among them.
source "$(dirname "$0")/mpi.bash"
check "$NP" 6x5k4
finish
