# tests/cli/serve_http.sh - requests curl will not send (tests/cli/raw_http.py): every badly framed request gets
# a 4xx at once, with one status line, and the connection closed; the server answers normally afterwards.
# "At once" is only bounded by the client's own patience (5 s), never timed against the server.
source "$(dirname "$0")/harness.bash"
command -v python3 >/dev/null || { echo "FAIL: python3 not found"; exit 1; }
RAW=$(dirname "$0")/raw_http.py
LOG=$(mktemp)
trap 'kill ${SERVER:-} 2>/dev/null; rm -f "$OUT" "$ERR" "$LOG"' EXIT
serve_start "$LOG" --no-record

# raw NAME STATUS STATUS-LINES REQUEST [BODY-TEST]: sends REQUEST (printf format) and expects an answer with
# STATUS, exactly STATUS-LINES status lines, the connection closed within 5 s, and a body matching BODY-TEST
# (an extended regex) when given.
raw() {
    local name=$1 status=$2 lines=$3 request=$4 body=${5-}
    # shellcheck disable=SC2059
    printf "$request" | python3 "$RAW" "$PORT" 5 >"$OUT" 2>"$ERR"
    local rc=$? n
    n=$(grep -c '^HTTP/1\.[01] ' "$OUT")
    if [[ $rc -eq 3 ]]; then
        fail "$name: no complete answer within 5 s (the server holds the connection)"
    elif [[ $rc -ne 0 ]]; then
        fail "$name: raw_http exit $rc"
    elif ! head -1 "$OUT" | grep -q "^HTTP/1\.1 $status "; then
        fail "$name: expected HTTP $status"
    elif [[ $n -ne $lines ]]; then
        fail "$name: $n status lines, expected $lines"
    elif [[ -n $body ]] && ! grep -Eq -- "$body" "$OUT"; then
        fail "$name: body does not match /$body/"
    else
        PASS=$((PASS + 1))
    fi
}

H="POST /api/analyse HTTP/1.1\r\nHost: 127.0.0.1:$PORT\r\nContent-Type: application/json\r\n"
raw 'chunk size 2^64-1' 411 1 "${H}Transfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\nabc" '"error":"Transfer-Encoding .chunked. is not accepted'
raw 'chunked body' 411 1 "${H}Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n" '"error":'
raw 'Transfer-Encoding gzip' 400 1 "${H}Transfer-Encoding: gzip\r\n\r\n{}" '"error":"Transfer-Encoding .gzip. is not accepted'
raw 'Transfer-Encoding and Content-Length' 411 1 "${H}Transfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n{}"
raw 'two Content-Lengths' 400 1 "${H}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}" '"error":"several Content-Length'
raw 'Content-Length too big' 413 1 "${H}Content-Length: 99999999\r\n\r\n{" '"error":"request body larger than 16384'
# A Content-Length that is not a number is answered by libmicrohttpd before the server sees the request: a
# prompt 400, but with its status line and headers twice (libmicrohttpd 0.9.75; README: what remains).
raw 'Content-Length -5' 400 2 "${H}Content-Length: -5\r\n\r\n"
raw 'Content-Length abc' 400 2 "${H}Content-Length: abc\r\n\r\n"
# A well-framed request on the same server is answered, on its own connection.
raw 'a good request' 200 1 "${H}Content-Length: 15\r\nConnection: close\r\n\r\n{\"moves\": \"b2\"}" '"method":"solver"'
kill -TERM $SERVER
wait $SERVER
[[ $? -eq 0 ]] && PASS=$((PASS + 1)) || fail "SIGTERM: $(cat "$LOG")"
finish
