#!/usr/bin/env bash
# bench/verify/frontier.sh TTT [RULES...] - certificates of the frontier boards (make verify-frontier): for each
# rules set, `ttt solve --value` without and with --certificate (wall and CPU seconds), the certificate's size
# and `ttt verify` on it. Exits non-zero when a certificate fails to verify. The certificates go to a temporary
# directory (CERT_DIR to keep them). Default boards: 7x7k5 6x6k5 6x6k4 6x5k4 5x5k4 5x5k4-misere.
set -euo pipefail
TTT=${1:?usage: $0 path/to/ttt [RULES...]}
shift
BOARDS=("$@")
[[ ${#BOARDS[@]} -gt 0 ]] || BOARDS=(7x7k5 6x6k5 6x6k4 6x5k4 5x5k4 5x5k4-misere)
DIR=${CERT_DIR:-$(mktemp -d)}
[[ -n ${CERT_DIR:-} ]] || trap 'rm -rf "$DIR"' EXIT
mkdir -p "$DIR"

# seconds RESULT CMD...: runs CMD (its stdout and stderr to RESULT.out and RESULT.err), wall and user+sys
# seconds to RESULT.time; fails when CMD does.
seconds() {
    local result=$1
    shift
    /usr/bin/time -o "$result.time" -f '%e %U %S' "$@" >"$result.out" 2>"$result.err"
}

printf '%-13s %-6s %9s %9s %10s %11s %11s %9s\n' rules value solve_s cert_s cert_cpu nodes bytes verify_s
bad=0
for r in "${BOARDS[@]}"; do
    seconds "$DIR/$r.plain" "$TTT" solve --value --rules "$r"
    seconds "$DIR/$r.cert" "$TTT" solve --value --rules "$r" --certificate "$DIR/$r.cert"
    read -r plain _ _ <"$DIR/$r.plain.time"
    read -r wall user sys <"$DIR/$r.cert.time"
    value=$(grep -Eo 'to move: [a-z]+' "$DIR/$r.cert.out" | cut -d' ' -f3)
    if seconds "$DIR/$r.verify" "$TTT" verify --json "$DIR/$r.cert"; then
        read -r vwall _ _ <"$DIR/$r.verify.time"
        nodes=$(grep -Eo '"nodes":[0-9]+' "$DIR/$r.verify.out" | cut -d: -f2)
        bytes=$(grep -Eo '"bytes":[0-9]+' "$DIR/$r.verify.out" | cut -d: -f2)
        proven=$(grep -Eo '"value":"[a-z]+"' "$DIR/$r.verify.out" | cut -d'"' -f4)
        [[ $proven == "$value" ]] || { echo "$r: verify proves $proven, solve said $value"; bad=1; }
        printf '%-13s %-6s %9.2f %9.2f %10.2f %11s %11s %9.2f\n' "$r" "$value" "$plain" "$wall" \
            "$(echo "$user + $sys" | bc)" "$nodes" "$bytes" "$vwall"
    else
        echo "$r: NOT VERIFIED: $(cat "$DIR/$r.verify.err")"
        bad=1
    fi
done
exit $bad
