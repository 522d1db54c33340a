# ttt solve --mpi gives the one-process --json (every move's value and distance, in the same order) at any
# number of ranks: small job budgets so that the master's tree grows several plies deep and several workers
# share it (4x5k4, misère 4x4; 5x5k4 and 6x5k4 have tests of their own). Bad option combinations are refused
# in one line.
source "$(dirname "$0")/mpi.bash"
for n in 2 3 4; do
    check "$n" 4x5k4 --job-nodes 2000
    check "$n" 4x4-misere --job-nodes 500
done
# A tree several plies deep: the small budgets do expand it.
check 3 4x5k4 --job-nodes 2000
grep -Eq "plies deep" "$ERR" && ! grep -q " 0 plies deep" "$ERR" && PASS=$((PASS + 1)) ||
    fail "4x5k4 --job-nodes 2000: the job tree did not grow"
# One ply, one job: counts in the singular, digits grouped.
check 2 4x4k3 --job-nodes 100000000
grep -Eq "^ttt solve: 2 ranks, [0-9]+ jobs? .*a tree of [0-9]+ nodes? 1 ply deep, busiest worker [0-9]{1,3}(,[0-9]{3})* nodes" "$ERR" &&
    PASS=$((PASS + 1)) || fail "4x4k3 at 2 ranks: the stats line is not '... 1 ply deep ...' with grouped counts"

expect_err "no --value, --time, --nodes or --threads" solve --mpi --value --rules 4x4
expect_err "no --value, --time, --nodes or --threads" solve --mpi --nodes 1000 --rules 4x4
expect_err "go with --mpi" solve --job-nodes 1000 --rules 4x4
expect_err "cannot read the checkpoint /nonexistent" solve --resume /nonexistent --rules 4x4
expect_err "--job-nodes" solve --mpi --job-nodes 0 --rules 4x4
finish
