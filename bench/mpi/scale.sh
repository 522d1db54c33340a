#!/usr/bin/env bash
# bench/mpi/scale.sh [TTT] [TIMEOUT_S] - a benchmark, not a test: `ttt solve --mpi` on 6x6k5 and 7x7k5 with 1, 2
# and 4 workers (mpirun -np 2, 3, 5: the master is a rank of its own), each once with the default job budget
# (the position fits one job: one worker solves it whole) and once with a small budget that makes a job tree.
# Prints one line per run: board, budget, workers, wall seconds, jobs, jobs/s, the tree, and whether the result
# is the one-process one. Oversubscribed on a machine with fewer cores than ranks: the figures say so.
set -u
TTT=${1:-build/ttt}
LIMIT=${2:-600}
FLAGS=(--oversubscribe)
[[ $(id -u) -ne 0 ]] || FLAGS+=(--allow-run-as-root)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "cores: $(nproc), load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-9s %-7s %8s %6s %7s %s\n' board budget workers seconds jobs jobs/s "tree / result"
for rules in 6x6k5:20000 7x7k5:300000; do
    board=${rules%:*} small=${rules#*:}
    start=$(date +%s.%N)
    "$TTT" solve --rules "$board" --json >"$TMP/want" 2>/dev/null
    printf '%-6s %-9s %-7s %8.1f %6s %7s %s\n' "$board" "-" "local" "$(echo "$(date +%s.%N) - $start" | bc)" - - \
        "one process, $(jq .nodes "$TMP/want") nodes"
    for budget in default "$small"; do
        for workers in 1 2 4; do
            opts=()
            [[ $budget == default ]] || opts=(--job-nodes "$budget")
            start=$(date +%s.%N)
            timeout "$LIMIT" mpirun "${FLAGS[@]}" -np $((workers + 1)) "$TTT" solve --mpi --rules "$board" --json \
                "${opts[@]}" >"$TMP/got" 2>"$TMP/err"
            rc=$?
            secs=$(echo "$(date +%s.%N) - $start" | bc)
            line=$(grep '^ttt solve:' "$TMP/err")
            jobs=$(sed -E 's/.* ([0-9]+) jobs .*/\1/' <<<"$line")
            rate=$(sed -E 's/.* ([0-9.]+) jobs\/s.*/\1/' <<<"$line")
            tree=$(sed -E 's/.*(a tree of [0-9]+ nodes [0-9]+ plies deep).*/\1/' <<<"$line")
            same=$(diff <(jq -S 'del(.nodes,.ms)' "$TMP/want") <(jq -S 'del(.nodes,.ms)' "$TMP/got") >/dev/null 2>&1 &&
                echo same || echo "DIFFERENT (exit $rc)")
            printf '%-6s %-9s %-7s %8.1f %6s %7s %s\n' "$board" "$budget" "$workers" "$secs" "${jobs:--}" \
                "${rate:--}" "${tree:-timed out}, $same, $(jq .nodes "$TMP/got" 2>/dev/null) nodes"
        done
    done
done
