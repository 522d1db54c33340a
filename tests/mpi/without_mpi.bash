# A build without MPI (registered as mpi_without when CMake found none): --mpi says so in one line, and the
# commands without it work as before.
source "$(dirname "$0")/../cli/harness.bash"
expect 1 solve --mpi --rules 4x4
[[ $(cat "$ERR") == "ttt solve: this ttt was built without MPI" ]] && PASS=$((PASS + 1)) ||
    fail "solve --mpi: not the one line"
expect_err "^ttt arena: this ttt was built without MPI$" arena --mpi --games 2 minimax random
expect_out 0 '"value":"draw"' solve --rules 3x3 --json
finish
