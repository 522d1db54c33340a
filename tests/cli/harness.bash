# tests/cli/harness.bash - a tiny harness for command tests: sourced by each tests/cli/*.sh, which get the path of
# the ttt binary as $1. Each check runs the real binary and compares exit status, stdout and stderr.
set -u
TTT=${1:?usage: $0 path/to/ttt}
PASS=0
FAIL=0
OUT=$(mktemp)
ERR=$(mktemp)
trap 'rm -f "$OUT" "$ERR"' EXIT

# run ARGS...: runs ttt with stdin from $STDIN (default /dev/null); sets RC, and OUT/ERR files.
run() {
    "$TTT" "$@" <"${STDIN:-/dev/null}" >"$OUT" 2>"$ERR"
    RC=$?
}

fail() {
    FAIL=$((FAIL + 1))
    echo "FAIL: $*"
    echo "  stdout: $(head -c 600 "$OUT")"
    echo "  stderr: $(head -c 600 "$ERR")"
}

# expect CODE ARGS...: exit status CODE; with CODE 2 also exactly one line on stderr starting with "ttt".
expect() {
    local code=$1
    shift
    run "$@"
    if [[ $RC -ne $code ]]; then
        fail "ttt $* exited $RC, expected $code"
        return 1
    fi
    if [[ $code -eq 2 ]]; then
        local lines
        lines=$(wc -l <"$ERR")
        if [[ $lines -ne 1 ]] || ! grep -q '^ttt' "$ERR"; then
            fail "ttt $*: expected one error line on stderr, got $lines"
            return 1
        fi
    fi
    PASS=$((PASS + 1))
}

# expect_out CODE PATTERN ARGS...: as expect, and stdout matches the extended regex PATTERN.
expect_out() {
    local code=$1 pattern=$2
    shift 2
    expect "$code" "$@" || return 1
    if ! grep -Eq -- "$pattern" "$OUT"; then
        PASS=$((PASS - 1))
        fail "ttt $*: stdout does not match /$pattern/"
    fi
}

# expect_err PATTERN ARGS...: exit 2, one line on stderr matching PATTERN.
expect_err() {
    local pattern=$1
    shift
    expect 2 "$@" || return 1
    if ! grep -Eq -- "$pattern" "$ERR"; then
        PASS=$((PASS - 1))
        fail "ttt $*: stderr does not match /$pattern/"
    fi
}

finish() {
    echo "$PASS passed, $FAIL failed"
    [[ $FAIL -eq 0 ]]
}

# serve_start LOG ARGS...: starts `ttt serve --port 0 ARGS...` in the background, its output in LOG, and waits
# for its URL; sets SERVER (the pid), URL and PORT. Exits the test when the server exits without a URL, or when
# none comes within 300 s (only a guard against a hung server: a loaded machine under ASan can take many seconds
# to start a process).
serve_start() {
    local log=$1
    shift
    "$TTT" serve --port 0 "$@" >"$log" 2>&1 &
    SERVER=$!
    for _ in $(seq 6000); do
        grep -qE 'http://[^ ]+/ ' "$log" && break
        kill -0 "$SERVER" 2>/dev/null || break
        sleep 0.05
    done
    URL=$(grep -oE 'http://[^ ]+/' "$log" | head -1)
    PORT=$(grep -oE ':[0-9]+/' <<<"$URL" | tr -d :/)
    [[ -n $PORT ]] || { echo "FAIL: no URL printed: $(cat "$log")"; exit 1; }
}
