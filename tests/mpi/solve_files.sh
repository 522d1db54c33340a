# ttt solve --mpi --certificate, as without --mpi: the master replaces a regular file only once the proof is
# whole (a failed write leaves the old one, and says the system's reason), writes a device or a pipe straight
# into it and never removes it, and its check before the search does not open a pipe (which would wait for a
# reader, or end the reader's input).
source "$(dirname "$0")/mpi.bash"
DIR=$(mktemp -d)
READER=
trap '[[ -z $READER ]] || kill -KILL "$READER" 2>/dev/null; rm -f "$OUT" "$ERR"; rm -rf "$DIR"' EXIT

# ttt_line PATTERN WHAT: the run failed and its stderr holds one line of ttt's (mpirun adds its own notice),
# matching the extended regex PATTERN.
ttt_line() {
    [[ $RC -ne 0 && $(grep -c '^ttt' "$ERR") -eq 1 ]] && grep -Eq -- "$1" "$ERR" && PASS=$((PASS + 1)) ||
        fail "$2: exit $RC, expected one line /$1/, got: $(grep '^ttt' "$ERR")"
}

# no_temp WHAT: no temporary file of a certificate left in $DIR.
no_temp() {
    local left
    left=$(find "$DIR" -name '*.tmp*')
    [[ -z $left ]] && PASS=$((PASS + 1)) || fail "$1: temporary files left: $left"
}

# A device that fails every write (as /dev/full, made here, never /dev itself): one line with the system's
# reason, and the device stays; one that takes every write (as /dev/null) stays a device.
if mknod "$DIR/full" c 1 7 2>/dev/null && mknod "$DIR/null" c 1 3 2>/dev/null; then
    mpi 3 solve --mpi --rules 4x4k3 --certificate "$DIR/full"
    ttt_line "^ttt solve: cannot write the certificate $DIR/full: No space left on device \(the certificate is incomplete\)$" \
        "a full device"
    [[ -c $DIR/full ]] && PASS=$((PASS + 1)) || fail "a failed certificate removed the device $DIR/full"
    mpi 3 solve --mpi --rules 4x4k3 --certificate "$DIR/null"
    [[ $RC -eq 0 && -c $DIR/null ]] && PASS=$((PASS + 1)) || fail "--certificate a null device: exit $RC, or replaced"
    no_temp "devices"
else
    echo "mknod not permitted: device checks skipped"
fi

# A regular file is replaced only once the new certificate is whole: a write that fails (a file size limit, as
# a full disk) leaves the old file as it was and no temporary file, and says why. The limit is set in the ranks
# alone (mpirun's own files would break under it), and their shared memory, a file too, left out of MPI.
echo keep >"$DIR/k.cert"
timeout "$MPI_TIMEOUT" "$MPIRUN" "${MPI_FLAGS[@]}" --mca btl self,tcp -np 3 \
    bash -c 'trap "" XFSZ; ulimit -f 1; exec "$@"' limited "$TTT" \
    solve --mpi --rules 4x5k4 --job-nodes 2000 --certificate "$DIR/k.cert" </dev/null >"$OUT" 2>"$ERR"
RC=$?
ttt_line "^ttt solve: cannot write the certificate $DIR/k.cert: File too large \(no certificate written\)$" \
    "a write that fails"
[[ $(cat "$DIR/k.cert" 2>/dev/null) == keep ]] && PASS=$((PASS + 1)) || fail "a failed write lost the old file"
no_temp "a failed write"

# A good one replaces it whole, keeping its permissions; through a symbolic link, the file it names.
chmod 640 "$DIR/k.cert"
ln -s k.cert "$DIR/link.cert"
mpi 3 solve --mpi --rules 4x5k4 --job-nodes 2000 --certificate "$DIR/link.cert"
[[ $RC -eq 0 ]] && PASS=$((PASS + 1)) || fail "--certificate over an existing file: exit $RC, $(cat "$ERR")"
run verify "$DIR/k.cert"
[[ $RC -eq 0 ]] && grep -q "valid: 4x5, X to move" "$OUT" && PASS=$((PASS + 1)) ||
    fail "the certificate written over an existing file is not valid (exit $RC)"
[[ -L $DIR/link.cert && $(stat -c %a "$DIR/k.cert") == 640 ]] && PASS=$((PASS + 1)) ||
    fail "the certificate replaced the link or lost the permissions: $(ls -l "$DIR")"
no_temp "a certificate written"

# A pipe (FIFO) is written into as its reader reads, and stays a pipe: the check before the search does not
# open it (its reader would see the end of its input there, and the certificate wait for another).
mkfifo "$DIR/fifo"
timeout 60 cat "$DIR/fifo" >"$DIR/got" &
READER=$!
MPI_TIMEOUT=60 mpi 3 solve --mpi --rules 4x4k3 --certificate "$DIR/fifo"
wait "$READER"
READER=
[[ $RC -eq 0 && -p $DIR/fifo ]] && PASS=$((PASS + 1)) || fail "--certificate FIFO: exit $RC, or the pipe is gone"
run verify "$DIR/got"
[[ $RC -eq 0 ]] && grep -q "valid: 4x4" "$OUT" && PASS=$((PASS + 1)) ||
    fail "the certificate read from the pipe is not valid (exit $RC)"
finish
