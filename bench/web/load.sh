#!/usr/bin/env bash
# bench/web/load.sh path/to/ttt [SECONDS] [CONNECTIONS]: wrk on loopback against the move and analyse
# endpoints of `ttt serve` (README, "ttt serve": load). Prints requests/s, p99 latency, errors and the
# server's resident memory before and after each run. Use a Release build; run nothing else meanwhile.
set -euo pipefail
TTT=${1:?usage: load.sh path/to/ttt [SECONDS] [CONNECTIONS]}
SECS=${2:-10}
CONNS=${3:-8}
THREADS=2
GAMES_PER_THREAD=50
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d)
"$TTT" serve --port 0 >"$tmp/log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do grep -q http "$tmp/log" && break; sleep 0.05; done
url=$(grep -oE 'http://[^ ]+/' "$tmp/log")
rss() { awk '/VmRSS/ {print $2 " kB"}' "/proc/$pid/status"; }

for _ in $(seq $((THREADS * GAMES_PER_THREAD))); do
    curl -s -X POST -H 'Content-Type: application/json' -d '{"rules": "16x16k16"}' "${url}api/games" | jq -r .id
done >"$tmp/ids"

run() { # run NAME WRK-ARGS...
    local name=$1
    shift
    local before after
    before=$(rss)
    wrk -t$THREADS -c"$CONNS" -d"${SECS}s" --latency "$@" >"$tmp/wrk"
    after=$(rss)
    local rps p99 non2xx sockerr
    rps=$(awk '/^Requests\/sec/ {print $2}' "$tmp/wrk")
    p99=$(awk '$1 == "99%" {print $2}' "$tmp/wrk")
    non2xx=$(awk '/Non-2xx/ {print $NF}' "$tmp/wrk")
    sockerr=$(awk '/Socket errors/ {print}' "$tmp/wrk")
    printf '%-28s %10s req/s  p99 %-9s non-2xx %-4s %s  RSS %s -> %s\n' "$name" "$rps" "$p99" "${non2xx:-0}" \
        "${sockerr:-socket errors 0}" "$before" "$after"
    cat "$tmp/wrk" >&2
}
GAMES_PER_THREAD=$GAMES_PER_THREAD run "move (16x16k16)" -s "$here/move.lua" "$url" -- "$tmp/ids"
run "analyse (3x3 after a1)" -s "$here/analyse.lua" "${url}api/analyse"
ANALYSE_BODY='{"rules": "4x4-misere", "moves": "a1 b2"}' run "analyse (4x4 misere)" -s "$here/analyse.lua" "${url}api/analyse"
kill -TERM $pid
wait $pid
echo "server stopped: exit $?"
