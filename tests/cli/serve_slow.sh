# tests/cli/serve_slow.sh - slow clients cannot take `ttt serve` off the air: 300 sockets that trickle a request
# head (bench/web/slowloris.py, a short run) leave every normal request answered 200; one client address holds
# at most --per-address connections, all of them at most --max-connections (more wait); a request head trickled one line a
# second is cut at the request deadline (an inactivity timeout never fires on it); one address has at most 8
# API requests in flight (429 past that). Loopback only.
source "$(dirname "$0")/harness.bash"
command -v python3 >/dev/null || { echo "FAIL: python3 not found"; exit 1; }
SLOWLORIS=$(dirname "$0")/../../bench/web/slowloris.py
LOG=$(mktemp)
trap 'kill ${SERVER:-} 2>/dev/null; rm -f "$OUT" "$ERR" "$LOG"' EXIT

expect_err "^ttt serve: --per-address 'x'" serve --per-address x
expect_err "^ttt serve: --max-connections '0'" serve --max-connections 0
# The open file limit bounds the connections: an explicit --max-connections beyond it is an error (exit 1); the
# default is lowered to fit, and says so.
(ulimit -n 200 && "$TTT" serve --port 0 --no-record --max-connections 1024 >"$OUT" 2>"$ERR")
[[ $? -eq 1 ]] && grep -q '^ttt serve: 1024 connections: the open file limit allows at most 136' "$ERR" &&
    PASS=$((PASS + 1)) || fail "--max-connections above the open file limit"
(ulimit -n 200 && serve_start "$OUT" --no-record && kill "$SERVER" && wait "$SERVER")
grep -q '^ttt serve: at most 136 connections' "$OUT" && grep -q 'http://' "$OUT" && PASS=$((PASS + 1)) ||
    fail "the default connection limit under a low open file limit"

# slowloris ARGS...: a short run against the server; its report in $OUT, exit status in RC.
slowloris() {
    timeout 60 python3 "$SLOWLORIS" "$PORT" --interval 1 --timeout 5 "$@" >"$OUT" 2>"$ERR"
    RC=$?
}

# --- 300 slow sockets from ten addresses (more than the 256 connections a thread each once allowed) ----------
serve_start "$LOG" --no-record
slowloris --sockets 300 --from 127.0.0.2-127.0.0.11 --seconds 3
if [[ $RC -eq 0 ]] && grep -q '^normal requests: \([0-9]*\) of \1 answered 200' "$OUT"; then
    PASS=$((PASS + 1))
else
    fail "normal requests not all answered under 300 slow sockets (exit $RC)"
fi

# A request head trickled one header line a second is cut at the deadline, though it never goes quiet.
python3 - "$PORT" >"$OUT" 2>"$ERR" <<'EOF'
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
s.setblocking(False)
start = time.monotonic()
while time.monotonic() - start < 30:
    time.sleep(1)
    try:
        if s.recv(4096) == b"":
            break
    except BlockingIOError:
        pass
    except OSError:
        break
    try:
        s.send(b"X-Slow: a\r\n")
    except OSError:
        break
else:
    print("still open after 30 s")
    sys.exit(1)
print(f"cut after {time.monotonic() - start:.0f} s")
EOF
[[ $? -eq 0 ]] && PASS=$((PASS + 1)) || fail "a trickled request head was never cut"

# One address with 12 engine-bound requests at once gets 429 past 8 (so that it cannot keep every API worker
# waiting for engines), while another address is answered.
body='{"rules": "9x9k5", "moves": "e5", "engine": "montecarlo:time=1000", "ms": 1000}'
for i in $(seq 12); do
    curl -s -o /dev/null -w '%{http_code}\n' --max-time 30 --interface 127.0.0.3 -X POST --data-binary "$body" -H 'Content-Type: application/json' \
        "${URL}api/analyse" >"$OUT.$i" &
done
sleep 0.5
curl -s -o /dev/null -w '%{http_code}' --max-time 5 --interface 127.0.0.4 "${URL}api/engines" >"$ERR"
wait $(jobs -p | grep -v "^$SERVER$")
codes=$(cat "$OUT".* | sort | uniq -c | tr -s ' \n' ' ')
rm -f "$OUT".*
[[ $codes == *" 4 429 "* && $(cat "$ERR") == 200 ]] && PASS=$((PASS + 1)) ||
    fail "12 requests at once from one address: $codes; another address: $(cat "$ERR")"

kill -TERM $SERVER
wait $SERVER
[[ $? -eq 0 ]] && PASS=$((PASS + 1)) || fail "SIGTERM after slow clients: $(cat "$LOG")"

# --- Per address, and in all -------------------------------------------------------------------------------
serve_start "$LOG" --no-record --per-address 4
slowloris --sockets 10 --from 127.0.0.5 --seconds 1 --clients 1
grep -q '^slow sockets: 4 of 10 still open' "$OUT" && [[ $RC -eq 0 ]] && PASS=$((PASS + 1)) ||
    fail "--per-address 4: $(head -1 "$OUT") (exit $RC)"
kill $SERVER
wait $SERVER
# Past --max-connections, connections wait in the listen queue: 20 slow sockets leave a normal request
# unanswered when 12 are allowed (exit 1), and once they are gone it is answered again.
serve_start "$LOG" --no-record --per-address 0 --max-connections 12
slowloris --sockets 20 --from 127.0.0.6 --seconds 1 --timeout 1
[[ $RC -eq 1 ]] && grep -q '^normal requests: 0 of' "$OUT" && PASS=$((PASS + 1)) ||
    fail "--max-connections 12 under 20 slow sockets: $(tail -1 "$OUT") (exit $RC)"
curl -s -o /dev/null -w '%{http_code}' --max-time 5 "${URL}api/engines" >"$OUT"
[[ $(cat "$OUT") == 200 ]] && PASS=$((PASS + 1)) || fail "no answer after the slow sockets left: $(cat "$OUT")"
finish
