# 5x5k4 under ttt solve --mpi at 2, 3 and 4 ranks: the one-process --json, with a small job budget (a tree a few
# plies deep, the deeper moves asked within the tree's windows), and with the default one at 3 ranks (the
# position's moves as jobs).
source "$(dirname "$0")/mpi.bash"
for n in 2 3 4; do
    check "$n" 5x5k4 --job-nodes 30000
done
check 3 5x5k4
finish
