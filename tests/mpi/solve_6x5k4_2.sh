# 6x5k4 under ttt solve --mpi at 2 ranks: six_by_five.bash.
NP=2
source "$(dirname "$0")/six_by_five.bash"
