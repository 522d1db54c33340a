# tests/mpi/mpi.bash - what the MPI tests share: sourced by each tests/mpi/*.sh, run as
# `bash script path/to/ttt path/to/mpirun`. mpi N ARGS... runs `mpirun -np N ttt ARGS...` oversubscribed (this
# machine may have fewer cores than ranks), as root when the suite runs as root; sets RC, OUT and ERR.
source "$(dirname "$0")/../cli/harness.bash"
MPIRUN=${2:?usage: $0 path/to/ttt path/to/mpirun}
MPI_FLAGS=(--oversubscribe)
[[ $(id -u) -ne 0 ]] || MPI_FLAGS+=(--allow-run-as-root)
# No MPI job outlives this long: a hang fails the test instead of stalling the suite.
MPI_TIMEOUT=120

mpi() {
    local n=$1
    shift
    timeout "$MPI_TIMEOUT" "$MPIRUN" "${MPI_FLAGS[@]}" -np "$n" "$TTT" "$@" </dev/null >"$OUT" 2>"$ERR"
    RC=$?
}

# same_json WHAT FILE: $OUT holds the same JSON as FILE, but for the fields that measure the run (nodes, ms).
same_json() {
    if diff <(jq -S 'del(.nodes, .ms)' "$2") <(jq -S 'del(.nodes, .ms)' "$OUT") >/dev/null 2>&1; then
        PASS=$((PASS + 1))
    else
        fail "$1: not the one-process result"
    fi
}

# check NP RULES [OPTIONS...]: `mpirun -np NP ttt solve --mpi --rules RULES --json OPTIONS` gives the one-process
# --json (every move's value and distance, in the same order; nodes and ms aside) and says what its job tree
# did. The one-process result is computed once per RULES.
SOLO_RULES=
trap 'rm -f "$OUT" "$ERR" "$OUT.solo"' EXIT
check() {
    local n=$1 rules=$2
    shift 2
    if [[ $SOLO_RULES != "$rules" ]]; then
        "$TTT" solve --rules "$rules" --json >"$OUT.solo" 2>/dev/null
        SOLO_RULES=$rules
    fi
    mpi "$n" solve --mpi --rules "$rules" --json "$@"
    if [[ $RC -ne 0 ]]; then
        fail "mpirun -np $n ttt solve --mpi --rules $rules $*: exit $RC"
        return
    fi
    same_json "-np $n $rules $*" "$OUT.solo"
    grep -Eq "^ttt solve: $n ranks?, [0-9,]+ jobs?" "$ERR" && PASS=$((PASS + 1)) ||
        fail "-np $n $rules: no line of what the job tree did"
}
