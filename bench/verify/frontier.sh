#!/usr/bin/env bash
# bench/verify/frontier.sh TTT [RULES...] - certificates of the frontier boards (make verify-frontier): for each
# rules set, `ttt solve --value` without and with --certificate (CPU seconds, user + system, the least of RUNS
# runs each, 3 by default: the machine may be shared, and the load only ever adds), what writing costs (diff_%:
# the difference over the solve alone; write_s: the writer's own CPU seconds, as `ttt solve` reports them, the
# least of the runs, and cert_%: write_s over the solve alone, which a shared machine's noise moves much less
# than the difference of two runs), the certificate's nodes and bytes, the oracle's nodes (what the writer
# searched: free of the load), and `ttt verify` on it (CPU seconds). Exits non-zero when a certificate fails
# to verify. The certificates go to a temporary directory (CERT_DIR to keep them). Default boards: 7x7k5 6x6k5
# 6x6k4 6x5k4 5x5k4 5x5k4-misere.
set -euo pipefail
TTT=${1:?usage: $0 path/to/ttt [RULES...]}
shift
BOARDS=("$@")
[[ ${#BOARDS[@]} -gt 0 ]] || BOARDS=(7x7k5 6x6k5 6x6k4 6x5k4 5x5k4 5x5k4-misere)
RUNS=${RUNS:-3}
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || { echo "RUNS must be a positive count, not '$RUNS'" >&2; exit 2; }
DIR=${CERT_DIR:-$(mktemp -d)}
[[ -n ${CERT_DIR:-} ]] || trap 'rm -rf "$DIR"' EXIT
mkdir -p "$DIR"

# seconds RESULT CMD...: runs CMD (its stdout and stderr to RESULT.out and RESULT.err), wall and user+sys
# seconds to RESULT.time (to the millisecond: bash's time, where /usr/bin/time has hundredths); fails when CMD
# does.
seconds() {
    local result=$1 TIMEFORMAT='%3R %3U %3S'
    shift
    { time "$@" >"$result.out" 2>"$result.err"; } 2>"$result.time"
}

# cpu RESULT: the user + system seconds of RESULT.time.
cpu() {
    local wall user sys
    read -r wall user sys <"$1.time"
    echo "$user + $sys" | bc
}

# least RESULT CMD...: runs CMD RUNS times (as seconds, the last run's files kept) and prints the least user +
# system seconds; fails when a run does.
least() {
    local result=$1 best= t
    shift
    for ((i = 0; i < RUNS; i++)); do
        seconds "$result" "$@"
        t=$(cpu "$result")
        if [[ -z $best ]] || (($(echo "$t < $best" | bc))); then best=$t; fi
    done
    echo "$best"
}

# least_writer RESULT CMD...: as least, for a run that writes a certificate; prints the least user + system
# seconds, then the least of the writer's own CPU seconds.
least_writer() {
    local result=$1 best= t wbest= wt
    shift
    for ((i = 0; i < RUNS; i++)); do
        seconds "$result" "$@"
        t=$(cpu "$result")
        wt=$(grep -Eo '[0-9.]+ ms CPU' "$result.err" | cut -d' ' -f1)
        wt=$(echo "scale=3; $wt / 1000" | bc)
        if [[ -z $best ]] || (($(echo "$t < $best" | bc))); then best=$t; fi
        if [[ -z $wbest ]] || (($(echo "$wt < $wbest" | bc))); then wbest=$wt; fi
    done
    echo "$best $wbest"
}

echo "CPU seconds: the least of $RUNS runs; load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-13s %-6s %9s %11s %7s %8s %7s %11s %11s %11s %10s\n' rules value solve_s with_cert_s diff_% write_s \
    cert_% nodes bytes oracle verify_s
bad=0
for r in "${BOARDS[@]}"; do
    plain=$(least "$DIR/$r.plain" "$TTT" solve --value --rules "$r")
    times=$(least_writer "$DIR/$r.cert" "$TTT" solve --value --rules "$r" --certificate "$DIR/$r.cert")
    read -r with write <<<"$times"
    if (($(echo "$plain > 0" | bc))); then
        # printf, not bc's own output: bc writes -0.7 as "-.7" and 0.0 as "0"
        diff=$(printf '%.1f' "$(echo "scale=3; 100 * ($with - $plain) / $plain" | bc)")
        cost=$(printf '%.1f' "$(echo "scale=3; 100 * $write / $plain" | bc)")
    else
        diff=-
        cost=-
    fi
    value=$(grep -Eo 'to move: [a-z]+' "$DIR/$r.cert.out" | cut -d' ' -f3)
    if seconds "$DIR/$r.verify" "$TTT" verify --json "$DIR/$r.cert"; then
        nodes=$(grep -Eo '"nodes":[0-9]+' "$DIR/$r.verify.out" | cut -d: -f2)
        bytes=$(grep -Eo '"bytes":[0-9]+' "$DIR/$r.verify.out" | cut -d: -f2)
        proven=$(grep -Eo '"value":"[a-z]+"' "$DIR/$r.verify.out" | cut -d'"' -f4)
        [[ $proven == "$value" ]] || { echo "$r: verify proves $proven, solve said $value"; bad=1; }
        # the rules as solve wrote them ("5" is 5x5k5): a certificate proves the rules in its own header
        of=$(grep -Eo '"rules":"[^"]+"' "$DIR/$r.verify.out" | cut -d'"' -f4)
        want=$(head -1 "$DIR/$r.cert.out" | cut -d, -f1)
        [[ $of == "$want" ]] || { echo "$r: the certificate proves a value of $of, not of $want"; bad=1; }
        oracle=$(grep -Eo '[0-9,]+ oracle nodes' "$DIR/$r.cert.err" | cut -d' ' -f1 | tr -d ,)
        printf '%-13s %-6s %9.3f %11.3f %7s %8.3f %7s %11s %11s %11s %10.3f\n' "$r" "$value" "$plain" "$with" \
            "$diff" "$write" "$cost" "$nodes" "$bytes" "$oracle" "$(cpu "$DIR/$r.verify")"
    else
        echo "$r: NOT VERIFIED: $(cat "$DIR/$r.verify.err")"
        bad=1
    fi
done
exit $bad
