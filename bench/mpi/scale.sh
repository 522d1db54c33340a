#!/usr/bin/env bash
# bench/mpi/scale.sh [TTT] [TIMEOUT_S] - a benchmark, not a test: `ttt solve --mpi` on 6x6k5 and 7x7k5 with 1, 2
# and 4 workers (mpirun -np 2, 3, 5: the master is a rank of its own), each once with the default job budget
# and once with a small one that makes a deeper job tree. One line per run: board, budget, workers, wall
# seconds, jobs, jobs/s, the tree, the nodes of all jobs (and their ratio to one process's), the nodes of the
# busiest worker (the critical path when every rank has a core of its own: one process's nodes over it is the
# speed-up free cores would give), and whether the result is the one-process one. The wall times of an
# oversubscribed or loaded machine are upper bounds: the first line says the cores and the load.
set -u
TTT=${1:-build/ttt}
LIMIT=${2:-600}
FLAGS=(--oversubscribe)
[[ $(id -u) -ne 0 ]] || FLAGS+=(--allow-run-as-root)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "cores: $(nproc), load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-8s %-7s %7s %5s %7s %-22s %-18s %-18s %s\n' board budget workers seconds jobs jobs/s tree \
    "nodes (x one)" "busiest (speed-up)" result
for rules in 6x6k5:20000 7x7k5:300000; do
    board=${rules%:*} small=${rules#*:}
    start=$(date +%s.%N)
    "$TTT" solve --rules "$board" --json >"$TMP/want" 2>/dev/null
    one=$(jq .nodes "$TMP/want")
    printf '%-6s %-8s %-7s %7.1f %5s %7s %-22s %-18s %-18s %s\n' "$board" - local \
        "$(echo "$(date +%s.%N) - $start" | bc)" - - - "$one" - "one process"
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
            field() { sed -nE "s|.*$1.*|\\1|p" <<<"$line"; }
            jobs=$(field ' ([0-9]+) jobs ')
            rate=$(field ' ([0-9.]+) jobs/s')
            tree=$(field 'a tree of ([0-9]+ nodes [0-9]+) plies deep')
            busiest=$(field 'busiest worker ([0-9]+) nodes')
            nodes=$(jq .nodes "$TMP/got" 2>/dev/null)
            same=$(diff <(jq -S 'del(.nodes,.ms)' "$TMP/want") <(jq -S 'del(.nodes,.ms)' "$TMP/got") >/dev/null 2>&1 &&
                echo same || echo "DIFFERENT (exit $rc)")
            printf '%-6s %-8s %-7s %7.1f %5s %7s %-22s %-18s %-18s %s\n' "$board" "$budget" "$workers" "$secs" \
                "${jobs:--}" "${rate:--}" "${tree:+$tree plies}" \
                "${nodes:--} ($(echo "scale=2; ${nodes:-0} / $one" | bc))" \
                "${busiest:--} ($(echo "scale=2; $one / ${busiest:-1}" | bc))" "$same"
        done
    done
done
