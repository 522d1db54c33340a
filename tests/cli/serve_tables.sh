# tests/cli/serve_tables.sh - the table engine's move tables stay within --table-memory whatever one client
# asks: a flood of rules sets from one address leaves the server's memory (VmRSS) well under the cap's growth
# and the tables' own accounting (the server's log) under the cap and the address under its share, while
# another address's table survives the flood. A size is measured, never a time.
source "$(dirname "$0")/harness.bash"
command -v curl >/dev/null || { echo "FAIL: curl not found"; exit 1; }
command -v jq >/dev/null || { echo "FAIL: jq not found"; exit 1; }
LOG=$(mktemp)
trap 'kill ${SERVER:-} 2>/dev/null; rm -f "$OUT" "$ERR" "$LOG"' EXIT
CAP_MIB=64 # a quarter of it (16 MiB) is one address's share: one 5x5 table
serve_start "$LOG" --no-record --table-memory $CAP_MIB
JSON='Content-Type: application/json'

# Every rules set whose default table has 10,000 games and 100,000 entries or more (4 to 16 MiB each).
FLOOD=()
for board in 5x5 3x8 8x3 4x6 6x4; do
    rows=${board%x*} cols=${board#*x}
    for k in $(seq 4 $((rows > cols ? rows : cols))); do FLOOD+=("${board}k$k" "${board}k$k-misere"); done
done

rss_kib() { awk '$1 == "VmRSS:" { print $2 }' /proc/$SERVER/status; }
# explain RULES [CURL-ARGS...]: the table engine explains the empty board of RULES; prints the status.
explain() {
    local rules=$1
    shift
    curl -s -o "$OUT" -w '%{http_code}' -X POST -H "$JSON" "$@" \
        --data-binary "{\"rules\": \"$rules\", \"engine\": \"table\"}" "${URL}api/explain"
}
# the_log PATTERN: the server's log lines about tables built that match PATTERN.
the_log() { grep -E 'move table .* built' "$LOG" | grep -E -- "$1"; }

other=()
if curl -s -o /dev/null --interface 127.0.0.2 "${URL}api/engines"; then
    other=(--interface 127.0.0.2)
    [[ $(explain 3x3 "${other[@]}") == 200 ]] && PASS=$((PASS + 1)) || fail "3x3 table from 127.0.0.2"
else
    echo "note: 127.0.0.2 not usable here: the second address is not tested"
fi

before=$(rss_kib)
failed=0
for rules in "${FLOOD[@]}"; do
    code=$(explain "$rules")
    [[ $code == 200 ]] || { failed=$((failed + 1)); echo "  $rules: HTTP $code $(head -c 200 "$OUT")"; }
done
after=$(rss_kib)
((failed == 0)) && PASS=$((PASS + 1)) || fail "$failed of ${#FLOOD[@]} rules sets refused to their own address"
echo "VmRSS: $before kB before ${#FLOOD[@]} rules sets, $after kB after (--table-memory $CAP_MIB)"
# Sanitizers keep freed memory aside for a while: the size is measured on plain builds only.
if nm -C "$TTT" 2>/dev/null | grep -q -e __asan_init -e __tsan_init; then
    echo "note: a sanitizer build: VmRSS not compared"
elif ! [[ $before =~ ^[0-9]+$ && $after =~ ^[0-9]+$ ]]; then
    fail "no VmRSS read in /proc/$SERVER/status: '$before', '$after'"
elif ((after - before < CAP_MIB * 1024)); then
    PASS=$((PASS + 1))
else
    fail "the server grew by $(((after - before) / 1024)) MiB for ${#FLOOD[@]} tables (cap $CAP_MIB MiB)"
fi

# The accounting: every table built is in the log with the tables' bytes, always within the cap, and the
# flooding address within its share.
built=$(the_log '' | wc -l)
[[ $built -ge ${#FLOOD[@]} ]] && PASS=$((PASS + 1)) || fail "$built tables in the log, ${#FLOOD[@]} built"
over=$(the_log '' | awk -v cap=$CAP_MIB '{
    for (i = 1; i <= NF; i++) {
        if ($i == "of" && $(i + 2) == "MiB," && ($(i - 1) + 0 > cap || $(i + 1) + 0 != cap)) bad++
        if ($i == "(its" && $(i - 2) + 0 > 16.1) bad++ # its share: one 5x5 table of 16 MiB
    }
} END { print bad + 0 }')
[[ $over == 0 ]] && PASS=$((PASS + 1)) || fail "$over log lines over the cap or the share: $(the_log '' | tail -2)"
evicted=$(the_log '' | tail -1 | grep -oE '[0-9]+ evicted' | grep -oE '[0-9]+')
[[ ${evicted:-0} -ge $((${#FLOOD[@]} - 4)) ]] && PASS=$((PASS + 1)) || fail "only ${evicted:-0} tables evicted"

# The other address's table was not evicted: asking for it again builds nothing.
if ((${#other[@]})); then
    [[ $(explain 3x3 "${other[@]}") == 200 ]] && PASS=$((PASS + 1)) || fail "3x3 table from 127.0.0.2 again"
    n=$(the_log '^.*move table 3x3 built' | wc -l)
    [[ $n == 1 ]] && PASS=$((PASS + 1)) || fail "127.0.0.2's 3x3 table was built $n times: it was evicted"
fi

# Bad values of the option are refused with one line.
expect_err "--table-memory '0': out of range, expected MiB from 1" serve --table-memory 0
expect_err "--engine-budget 'lots'" serve --engine-budget lots
finish
