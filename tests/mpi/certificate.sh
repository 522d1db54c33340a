# ttt solve --mpi --certificate: the master writes the top of the proof from its job tree and the workers the
# pieces under it; `ttt verify` accepts the file, with the one-process value. Small job budgets, so that the
# tree is several plies deep and the file has both the master's nodes and several pieces; wins and losses
# (one half) as well as draws (two).
source "$(dirname "$0")/mpi.bash"
DIR=$(mktemp -d)
trap 'rm -f "$OUT" "$ERR"; rm -rf "$DIR"' EXIT

check() { # check NP RULES MOVES BUDGET
    local n=$1 rules=$2 moves=$3 budget=$4 want
    want=$("$TTT" solve --rules "$rules" --moves "$moves" --json 2>/dev/null | jq -r .value)
    rm -f "$DIR/cert"
    mpi "$n" solve --mpi --rules "$rules" --moves "$moves" --job-nodes "$budget" --json --certificate "$DIR/cert"
    if [[ $RC -ne 0 || $(jq -r .value "$OUT") != "$want" ]]; then
        fail "-np $n $rules $moves --certificate: exit $RC, not the value $want"
        return
    fi
    # The file was assembled: nodes of the master's tree and pieces from the workers.
    grep -Eq "^ttt solve: certificate .*: [0-9,]+ nodes \([1-9][0-9,]* from the job tree, [1-9][0-9,]* pieces?\)" \
        "$ERR" && PASS=$((PASS + 1)) || fail "-np $n $rules $moves: no line of the certificate's pieces"
    run verify "$DIR/cert"
    [[ $RC -eq 0 ]] && grep -Eq ": valid: .*: $want(, from [.xo/]+)?$" "$OUT" && PASS=$((PASS + 1)) ||
        fail "-np $n $rules $moves: ttt verify does not accept the certificate as $want (exit $RC)"
}

check 3 4x5k4 "" 2000
check 3 4x4-misere "" 500
check 3 5x5k4 "" 300000
check 3 5x5k4 c3 3000
check 3 4x4k3 b2 30
check 2 4x5k4 a1 2000
# The master alone writes the pieces itself.
check 1 4x5k4 "" 2000

# A certificate that cannot be written fails before the search, in one line (mpirun adds its own notice), as
# without --mpi: the job tree's checkpoint, written at the end of a search, is never made.
mpi 3 solve --mpi --rules 4x4k3 --certificate "$DIR/nodir/cert" --checkpoint "$DIR/tree"
[[ $RC -ne 0 && $(grep -c '^ttt' "$ERR") -eq 1 ]] &&
    grep -q "^ttt solve: cannot write the certificate $DIR/nodir/cert: No such file or directory$" "$ERR" &&
    PASS=$((PASS + 1)) || fail "--certificate in a missing directory: exit $RC, $(cat "$ERR")"
[[ ! -e $DIR/tree ]] && PASS=$((PASS + 1)) || fail "--certificate in a missing directory: the search ran"
finish
