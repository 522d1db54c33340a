#!/usr/bin/env bash
# bench/web/slowloris.sh path/to/ttt [SECONDS] [SOCKETS]: SOCKETS (default 500) slow clients against `ttt serve`
# on loopback, each sending one header line every 3 s and never finishing its request (reopened when the server
# cuts it), while 4 normal clients send GET /api/engines one after another for SECONDS (default 30), each with
# a 10 s timeout. Twice: the slow sockets spread over 20 source addresses (127.0.0.2-127.0.0.21, so the
# per-address limit alone does not stop them), then all from 127.0.0.1. Prints the share of normal requests
# answered 200 and their p50/p99 (README, "ttt serve": slow clients). bench/web/slowloris.py does the work.
set -euo pipefail
TTT=${1:?usage: slowloris.sh path/to/ttt [SECONDS] [SOCKETS]}
SECS=${2:-30}
SOCKETS=${3:-500}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d)
pid=
trap '[[ -n $pid ]] && kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT

run() { # run NAME SLOWLORIS-ARGS...: a fresh server for each run
    local name=$1
    shift
    "$TTT" serve --port 0 --no-record >"$tmp/log" 2>&1 &
    pid=$!
    for _ in $(seq 100); do grep -q http "$tmp/log" && break; sleep 0.05; done
    local port
    port=$(grep -oE ':[0-9]+/' "$tmp/log" | tr -d :/)
    echo "== $name"
    python3 "$here/slowloris.py" "$port" --sockets "$SOCKETS" --seconds "$SECS" --interval 3 --timeout 10 "$@" || true
    kill -TERM $pid
    wait $pid || echo "server exit $?"
    pid=
}
run "$SOCKETS slow sockets from 127.0.0.2-127.0.0.21" --from 127.0.0.2-127.0.0.21
run "$SOCKETS slow sockets from 127.0.0.1" --from 127.0.0.1
