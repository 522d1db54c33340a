# 5x5k4 under ttt solve --mpi at 2, 3 and 4 ranks: the one-process --json, with the default job budget (the
# moves of the position as jobs, or the whole position for one worker) and with a small one (a tree a few
# plies deep, the deeper moves asked within the tree's windows).
source "$(dirname "$0")/mpi.bash"
for n in 2 3 4; do
    check "$n" 5x5k4
    check "$n" 5x5k4 --job-nodes 30000
done
finish
