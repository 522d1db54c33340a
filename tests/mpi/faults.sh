# Faults. A worker killed with SIGKILL loses only its job: under Open MPI's recovery mode (mpirun --mca
# orte_enable_recovery true --mca orte_abort_on_non_zero_status false; by default mpirun ends the whole job
# when a rank dies) the master gives up the silent worker after --job-timeout and hands its job out again, and
# the result is the one-process one. A master killed with SIGKILL (the whole mpirun) leaves its checkpoint,
# from which --resume goes on to the same result; a finished checkpoint answers at once; a checkpoint of other
# rules is refused.
source "$(dirname "$0")/mpi.bash"
DIR=$(mktemp -d)
trap 'rm -f "$OUT" "$ERR"; rm -rf "$DIR"' EXIT
"$TTT" solve --rules 5x5k4 --json >"$DIR/want.json" 2>/dev/null

# rank_pid N: the pid of rank N of the running job (its environment says its rank), or nothing.
rank_pid() {
    local p
    for p in $(pgrep -f "$TTT solve --mpi"); do
        tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$1" && echo "$p" && return
    done
}

# A worker killed: rank 2 once jobs flow; the master gives it up after 8 s (a live worker's job takes well under 1 s).
# Open MPI 4.1's recovery mode (no ULFM) now and then aborts the whole job when a rank dies ("PMIX ERROR:
# BAD-PARAM" and no answer from the master): that is the runtime's failure, not the master's, so such a run is
# tried again, up to KILL_TRIES times; a run in which the master answers is checked.
KILL_TRIES=3
for try in $(seq $KILL_TRIES); do
    timeout "$MPI_TIMEOUT" "$MPIRUN" "${MPI_FLAGS[@]}" --mca orte_enable_recovery true \
        --mca orte_abort_on_non_zero_status false -np 3 "$TTT" solve --mpi --rules 5x5k4 --json \
        --job-nodes 500 --job-timeout 8000 --checkpoint "$DIR/first" >"$OUT" 2>"$ERR" &
    JOB=$!
    # Killed while the workers answer jobs (the master's first checkpoint written: MPI_Init, which every rank
    # waits for, is over), not while MPI starts, which the others would wait for ever.
    VICTIM=
    while kill -0 "$JOB" 2>/dev/null; do
        [[ -s $DIR/first && $(wc -l <"$DIR/first") -gt 30 ]] && VICTIM=$(rank_pid 2)
        [[ -n $VICTIM ]] && break
        sleep 0.05
    done
    [[ -n $VICTIM ]] && kill -KILL "$VICTIM"
    wait "$JOB"
    RC=$?
    rm -f "$DIR/first"
    [[ -s $OUT ]] || ! grep -q "PMIX ERROR" "$ERR" && break
    echo "a worker killed: try $try: the MPI runtime aborted the job ($(head -1 "$ERR")); trying again"
done
[[ -n $VICTIM ]] && PASS=$((PASS + 1)) || fail "a worker killed: no worker to kill found"
# mpirun's own status after a rank died varies (0, or 124 when its daemon reports the rank that ended without
# MPI_Finalize): the master's answer is what counts.
[[ $RC -eq 0 || $RC -eq 124 ]] && PASS=$((PASS + 1)) || fail "a worker killed: exit $RC"
same_json "a worker killed" "$DIR/want.json"
# The master says how many workers it gave up: 1 when the dead worker's job was still needed; 0 when the job
# had been pruned meanwhile (a sibling settled its parent), which the master does not wait for.
grep -Eq ", [01] workers? lost$" "$ERR" && PASS=$((PASS + 1)) || fail "a worker killed: no count of workers lost"

# The master killed (the whole job, as a lost node or a scheduler's time limit would) once its checkpoint
# exists, then resumed.
setsid timeout "$MPI_TIMEOUT" "$MPIRUN" "${MPI_FLAGS[@]}" -np 3 "$TTT" solve --mpi --rules 5x5k4 --json \
    --job-nodes 1000 --checkpoint "$DIR/tree" >/dev/null 2>&1 &
JOB=$!
while kill -0 "$JOB" 2>/dev/null; do
    [[ -s $DIR/tree && $(wc -l <"$DIR/tree") -gt 30 ]] && break
    sleep 0.05
done
kill -KILL -- -"$JOB" 2>/dev/null
wait "$JOB" 2>/dev/null
[[ -s $DIR/tree ]] && PASS=$((PASS + 1)) || fail "no checkpoint written"
mpi 3 solve --mpi --rules 5x5k4 --json --job-nodes 1000 --resume "$DIR/tree"
[[ $RC -eq 0 ]] && PASS=$((PASS + 1)) || fail "resumed: exit $RC"
same_json "resumed" "$DIR/want.json"
grep -Eq ", [1-9][0-9,]* nodes resumed" "$ERR" && PASS=$((PASS + 1)) || fail "resumed: nothing read back"

# The finished tree: no job left.
mpi 2 solve --mpi --rules 5x5k4 --json --resume "$DIR/tree"
[[ $RC -eq 0 ]] && grep -q ", 0 jobs" "$ERR" && PASS=$((PASS + 1)) || fail "a finished checkpoint: exit $RC"
same_json "a finished checkpoint" "$DIR/want.json"

# Another position's checkpoint, a damaged one: refused with the reason.
mpi 2 solve --mpi --rules 4x5k4 --resume "$DIR/tree"
[[ $RC -ne 0 ]] && grep -q "^ttt solve: .*not a checkpoint of this position" "$ERR" && PASS=$((PASS + 1)) ||
    fail "another position's checkpoint: exit $RC"
head -c 300 "$DIR/tree" >"$DIR/cut"
mpi 2 solve --mpi --rules 5x5k4 --resume "$DIR/cut"
[[ $RC -ne 0 ]] && grep -q "^ttt solve: .*bad node line" "$ERR" && PASS=$((PASS + 1)) ||
    fail "a cut checkpoint: exit $RC"
mpi 2 solve --mpi --rules 5x5k4 --resume "$DIR/none"
[[ $RC -ne 0 ]] && grep -q "^ttt solve: .*cannot read the checkpoint" "$ERR" && PASS=$((PASS + 1)) ||
    fail "a missing checkpoint: exit $RC"
# A checkpoint path that is a directory or a pipe (or a device: /dev/null, which a rename would replace) is
# refused before the search, as is one whose directory is missing: the certificate, written at the end, is
# never made.
mkdir "$DIR/dir"
mkfifo "$DIR/fifo"
for path in dir fifo; do
    mpi 3 solve --mpi --rules 4x4k3 --checkpoint "$DIR/$path" --certificate "$DIR/cert"
    [[ $RC -ne 0 && ! -e $DIR/cert ]] &&
        grep -q "^ttt solve: the checkpoint $DIR/$path is not a regular file: not replacing it$" "$ERR" &&
        PASS=$((PASS + 1)) || fail "--checkpoint $path: exit $RC"
done
[[ -d $DIR/dir && -p $DIR/fifo ]] && PASS=$((PASS + 1)) || fail "--checkpoint: a directory or pipe replaced"
mpi 3 solve --mpi --rules 4x4k3 --checkpoint "$DIR/nodir/tree" --certificate "$DIR/cert"
[[ $RC -ne 0 && ! -e $DIR/cert ]] &&
    grep -q "^ttt solve: cannot write the checkpoint $DIR/nodir/tree.tmp: No such file" "$ERR" &&
    PASS=$((PASS + 1)) || fail "--checkpoint in a missing directory: exit $RC"
finish
