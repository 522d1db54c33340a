# tests/cli/stdout_full.sh - output that cannot be written fails the command: with stdout on /dev/full (a full
# disk), every command that prints exits 1 with one line on stderr instead of exit 0 and the results lost. The
# same commands to a file exit 0, so the failure is the output's and nothing else's.
source "$(dirname "$0")/harness.bash"
[[ -w /dev/full ]] || {
    echo "skipped: no /dev/full"
    exit 77
}

# full ARGS...: stdout on /dev/full: exit 1 and exactly one line on stderr naming the write.
full() {
    "$TTT" "$@" </dev/null >/dev/full 2>"$ERR"
    local rc=$?
    if [[ $rc -eq 1 && $(wc -l <"$ERR") -eq 1 ]] && grep -q '^ttt: cannot write the output: ' "$ERR"; then
        PASS=$((PASS + 1))
    else
        fail "ttt $* >/dev/full exited $rc"
    fi
}

for args in "--version" "--help" "help solve" "engines" "show x.o/.x./..o" "solve --rules 3x3" \
    "solve --json x.o/.x./..o" "count --rules 3x3" "move --engine minimax x.o/.x./..o"; do
    # shellcheck disable=SC2086 # the words are the arguments
    expect 0 $args && [[ -s $OUT ]] || fail "ttt $args printed nothing to a file"
    # shellcheck disable=SC2086
    full $args
done
finish
