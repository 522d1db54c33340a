# Command tests for the files `ttt solve` writes: a certificate replaces a regular file only once whole (a
# failed write leaves the old one, and says the system's reason), is written straight into a device or a pipe
# and never removes it; Ctrl-C says that no certificate was written; --certificate is refused on the file of
# --checkpoint or --resume; --resume FILE --checkpoint OTHER reads one and writes the other in either order;
# --threads is refused where the solver would run one thread.
source "$(dirname "$0")/harness.bash"

DIR=$(mktemp -d)
PIDS=()
cleanup() {
    for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
    rm -f "$OUT" "$ERR"
    rm -rf "$DIR"
}
trap cleanup EXIT
# Only guards against a hung command (tenths of a second): the waits are for files and states, never a time.
WAIT_CAP_TENTHS=600

# eventually COND...: true once the command COND succeeds, tried every tenth of a second (false after the cap).
eventually() {
    local tries=$WAIT_CAP_TENTHS
    until "$@"; do
        ((--tries > 0)) || return 1
        sleep 0.1
    done
}

# finished PID: waits for PID to exit (after the cap, kills it: a hung command fails the test, not hangs it);
# sets RC to its exit status.
finished() {
    eventually eval "! kill -0 $1 2>/dev/null" || kill -KILL "$1" 2>/dev/null
    wait "$1"
    RC=$?
}

# one_line FILE PATTERN WHAT: FILE holds exactly one line, matching the extended regex PATTERN.
one_line() {
    [[ $(wc -l <"$1") -eq 1 ]] && grep -Eq -- "$2" "$1" && PASS=$((PASS + 1)) ||
        fail "$3: expected one line /$2/ on stderr, got: $(cat "$1")"
}

# no_temp WHAT: no temporary file of a certificate left in $DIR.
no_temp() {
    local left
    left=$(find "$DIR" -name '*.tmp*')
    [[ -z $left ]] && PASS=$((PASS + 1)) || fail "$1: temporary files left: $left"
}

# A device that fails every write (as /dev/full, made here, never /dev itself): the write fails with the
# system's reason in one line, exit 1, and the device stays.
if mknod "$DIR/full" c 1 7 2>/dev/null && mknod "$DIR/null" c 1 3 2>/dev/null; then
    expect 1 solve --rules 3x3 --certificate "$DIR/full"
    one_line "$ERR" "^ttt solve: cannot write the certificate $DIR/full: No space left on device" "a full device"
    [[ -c $DIR/full ]] && PASS=$((PASS + 1)) || fail "a failed certificate removed the device $DIR/full"
    expect_out 0 'X to move: draw' solve --rules 3x3 --value --certificate "$DIR/null"
    [[ -c $DIR/null ]] && PASS=$((PASS + 1)) || fail "a certificate replaced the device $DIR/null"
    no_temp "devices"
else
    echo "mknod not permitted: device checks skipped"
fi

# A regular file is replaced only once the new certificate is whole: a write that fails (a file size limit,
# as a full disk) leaves the old file as it was and no temporary file, and says why.
echo keep >"$DIR/k.cert"
(
    trap '' XFSZ
    ulimit -f 1 # 1 KiB: the 4x5k4 certificate takes 1,665 bytes
    "$TTT" solve --rules 4x5k4 --value --certificate "$DIR/k.cert" >"$OUT" 2>"$ERR"
)
RC=$?
[[ $RC -eq 1 ]] && PASS=$((PASS + 1)) || fail "a certificate over the file size limit: exit $RC, expected 1"
one_line "$ERR" "^ttt solve: cannot write the certificate $DIR/k.cert: File too large \(no certificate written\)$" \
    "a write that fails"
[[ $(cat "$DIR/k.cert" 2>/dev/null) == keep ]] && PASS=$((PASS + 1)) || fail "a failed write lost the old file"
no_temp "a failed write"
# A good one replaces it, keeping its permissions; through a symbolic link, the file it names.
chmod 640 "$DIR/k.cert"
ln -s k.cert "$DIR/link.cert"
expect 0 solve --rules 4x5k4 --value --certificate "$DIR/link.cert"
expect_out 0 'valid: 4x5, X to move' verify "$DIR/k.cert"
[[ -L $DIR/link.cert && $(stat -c %a "$DIR/k.cert") == 640 ]] && PASS=$((PASS + 1)) ||
    fail "the certificate replaced the link or lost the permissions: $(ls -l "$DIR")"
no_temp "a certificate written"

# /dev/stdout redirected to a file: the certificate, then what solve prints, not one over the other.
expect 0 solve --rules 3x3 --value --certificate /dev/stdout
[[ $(head -c 7 "$OUT") == TTTCERT ]] && grep -aq 'X to move: draw' "$OUT" && PASS=$((PASS + 1)) ||
    fail "--certificate /dev/stdout into a file: not the certificate then the report"

# A pipe (FIFO) is written into as the reader reads, and stays a pipe.
mkfifo "$DIR/fifo"
timeout 60 cat "$DIR/fifo" >"$DIR/got" &
READER=$!
PIDS+=("$READER")
timeout 60 "$TTT" solve --rules 3x3 --value --certificate "$DIR/fifo" >"$OUT" 2>"$ERR"
RC=$?
wait "$READER"
[[ $RC -eq 0 && -p $DIR/fifo ]] && PASS=$((PASS + 1)) || fail "--certificate FIFO: exit $RC, or the pipe is gone"
expect_out 0 'valid: 3x3' verify "$DIR/got"

# Ctrl-C while the certificate waits for a pipe's reader: one line, exit 130, the pipe stays. The kernel says
# the process waits in the pipe's open (wchan), where it has nothing else to do.
"$TTT" solve --rules 3x3 --value --certificate "$DIR/fifo" >"$DIR/out" 2>"$DIR/err" &
PID=$!
PIDS+=("$PID")
if eventually grep -q 'partner\|fifo' "/proc/$PID/wchan" 2>/dev/null; then
    kill -INT "$PID"
    finished "$PID"
    [[ $RC -eq 130 && -p $DIR/fifo ]] && PASS=$((PASS + 1)) || fail "Ctrl-C writing into a pipe: exit $RC, expected 130"
    one_line "$DIR/err" '^ttt solve: interrupted: no certificate written$' "Ctrl-C writing into a pipe"
else
    kill -KILL "$PID" 2>/dev/null
    wait "$PID" 2>/dev/null
    echo "no wait in a pipe's open seen (/proc/PID/wchan): Ctrl-C while writing not checked"
fi

# Ctrl-C during the search: one line says no certificate was written, the old file is left. 6x6k4, every move,
# takes minutes; --checkpoint-every 0 saves at every progress report, so the checkpoint's appearance says the
# search runs with its handlers in place.
echo keep >"$DIR/c.cert"
"$TTT" solve --rules 6x6k4 --certificate "$DIR/c.cert" --checkpoint "$DIR/c.ckpt" --checkpoint-every 0 \
    >"$DIR/out" 2>"$DIR/err" &
PID=$!
PIDS+=("$PID")
eventually test -s "$DIR/c.ckpt" || fail "6x6k4: no checkpoint written"
kill -INT "$PID"
finished "$PID"
[[ $RC -eq 130 ]] && PASS=$((PASS + 1)) || fail "Ctrl-C with --certificate: exit $RC, expected 130"
grep -q '^ttt solve: interrupted: no certificate written$' "$DIR/err" && PASS=$((PASS + 1)) ||
    fail "Ctrl-C with --certificate: no line saying so: $(cat "$DIR/err")"
[[ $(cat "$DIR/c.cert") == keep ]] && PASS=$((PASS + 1)) || fail "Ctrl-C with --certificate changed the old file"

# The certificate on the checkpoint's file: refused before the search, whatever the spelling of the path.
rm -f "$DIR/s.bin"
expect_err '^ttt solve: --certificate and --checkpoint name the same file' solve --rules 3x3 --value \
    --certificate "$DIR/s.bin" --checkpoint "$DIR/s.bin"
expect_err 'name the same file' solve --rules 3x3 --value --certificate "$DIR/s.bin" --checkpoint "$DIR/./s.bin"
expect 0 solve --rules 3x3 --value --checkpoint "$DIR/s.bin"
ln -s s.bin "$DIR/s.link"
expect_err '^ttt solve: --certificate and --resume name the same file' solve --rules 3x3 --value \
    --certificate "$DIR/s.link" --resume "$DIR/s.bin"
expect 0 solve --rules 3x3 --value --nodes 1 --resume "$DIR/s.bin"
# Nor on the file a checkpoint is written to first (FILE.tmp), which the checkpoint would then take.
expect_err '^ttt solve: --certificate names the file --checkpoint writes first' solve --rules 3x3 --value \
    --certificate "$DIR/s.bin.tmp" --checkpoint "$DIR/s.bin"

# A link planted at the checkpoint's temporary name: the checkpoint is written as a file of its own, the link's
# target is never written.
echo victim >"$DIR/victim"
rm -f "$DIR/p.ckpt"
ln -s victim "$DIR/p.ckpt.tmp"
expect 0 solve --rules 3x3 --value --checkpoint "$DIR/p.ckpt"
[[ $(cat "$DIR/victim") == victim && ! -L "$DIR/p.ckpt" && -s "$DIR/p.ckpt" ]] && PASS=$((PASS + 1)) ||
    fail "a link at the checkpoint's temporary name: its target written ($(head -c 20 "$DIR/victim" | od -c | head -1))"
rm -f "$DIR/p.ckpt.tmp" "$DIR/p.ckpt"

# --resume V --checkpoint W, in either order: read V (left as it was), checkpoints to W, the values of one run.
expect 0 solve --rules 4x5k4 --json
cp "$OUT" "$DIR/whole.json"
expect_out 0 '"interrupted":false' solve --rules 4x5k4 --json --checkpoint "$DIR/v.ckpt" --nodes 10000
cp "$DIR/v.ckpt" "$DIR/v.keep"
values() { sed -E 's/"(nodes|ms)":[0-9.]+//g' "$1"; }
for order in "--resume $DIR/v.ckpt --checkpoint $DIR/w1.ckpt" "--checkpoint $DIR/w2.ckpt --resume $DIR/v.ckpt"; do
    W=$(grep -oE '[^ ]*w[12]\.ckpt' <<<"$order")
    # shellcheck disable=SC2086 # two options and their files
    expect 0 solve --rules 4x5k4 --json $order
    [[ $(values "$OUT") == "$(values "$DIR/whole.json")" ]] && PASS=$((PASS + 1)) ||
        fail "$order: not the values of one run"
    grep -q "resuming from $DIR/v.ckpt (checkpoints to $W)" "$ERR" && PASS=$((PASS + 1)) ||
        fail "$order: no line saying where it resumes from and saves to"
    cmp -s "$DIR/v.ckpt" "$DIR/v.keep" && PASS=$((PASS + 1)) || fail "$order: the resumed file was changed"
    expect 0 solve --rules 4x5k4 --nodes 1 --resume "$W"
done
echo junk >"$DIR/junk"
expect_err "$DIR/junk is not a checkpoint of ttt solve: not overwriting it" solve --rules 4x5k4 \
    --resume "$DIR/v.ckpt" --checkpoint "$DIR/junk"
expect_err 'with --mpi, --resume FILE goes on writing FILE' solve --mpi --resume "$DIR/v.ckpt" \
    --checkpoint "$DIR/w1.ckpt"

# --threads where the solver runs one thread: refused in one line; where it uses them, accepted.
expect_err '^ttt solve: --threads goes without --time or --nodes' solve --rules 4x4k3 --threads 2 --time 100
expect_err '^ttt solve: --threads goes without --time or --nodes' solve --rules 4x4k3 --threads 2 --nodes 1000
expect_err '^ttt solve: --threads: misere rules' solve --rules 3x3-misere --threads 2
expect_err "^ttt solve: --value --threads: only the draw prover's boards" solve --rules 4x4 --value --threads 2
expect_out 0 'X to move: win' solve --rules 4x4k3 --threads 2 --checkpoint "$DIR/t.ckpt" --time 600000
expect_out 0 'X to move: draw' solve --rules 6x6k5 --value --threads 2
expect_out 0 'Refused with --time or --nodes' solve --help

no_temp "the end"
finish
