# 6x5k4 under ttt solve --mpi at 3 ranks: six_by_five.bash.
NP=3
source "$(dirname "$0")/six_by_five.bash"
