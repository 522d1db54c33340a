# 6x5k4 under ttt solve --mpi at 4 ranks: six_by_five.bash.
NP=4
source "$(dirname "$0")/six_by_five.bash"
