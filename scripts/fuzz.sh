#!/usr/bin/env bash
# Runs the libFuzzer harnesses of tests/fuzz/ (built by `make fuzz` in build-fuzz/) and reports, per harness,
# the inputs executed and whether it crashed.
#
#   bash scripts/fuzz.sh [--check] BUILD_DIR SECONDS [NAME...]
#
# NAME is a harness without its fuzz_ prefix (rules, web_api, ...); default: every tests/fuzz/fuzz_*.c.
# Each harness starts from its seed corpus, tests/fuzz/corpus/NAME/, which is never written to: it runs on a
# copy, BUILD_DIR/fuzz/NAME/corpus/, which keeps what the fuzzer finds from one run to the next. With --check
# (make check) the copy is a fresh one, removed afterwards, so that a check replays the seeds and fuzzes for
# SECONDS whatever ran before (or for the harness's CHECK_SECONDS below, when longer). A crash (also a leak, a
# timeout, running out of memory, a failed invariant) keeps its input in BUILD_DIR/fuzz/NAME/ and the log in
# BUILD_DIR/fuzz/NAME/last.log; the exit status is then 1.
set -euo pipefail

# libFuzzer's limit on one input (seconds): a harness must answer each input in well under a second.
INPUT_TIMEOUT=10

# With --check (make check, whose CI job has a 90-minute limit and takes about 10): the seconds each harness
# fuzzes at least, about 3 minutes in all. Longer where 40 s runs still found new paths at their end (the
# brain's and the web API's whole loops, damaged databases, engine specs: every few hundred inputs); shorter
# where they stopped early (gomocup: nothing new after 3 s of 40; moves after 30 s).
declare -A CHECK_SECONDS=([brain]=30 [web_api]=30 [store]=30 [engine_spec]=20 [memory_import]=20 [table]=15
    [moves]=10 [positions]=10 [rules]=10 [gomocup]=5)

check=0
if [[ ${1:-} == --check ]]; then
    check=1
    shift
fi
if (($# < 2)); then
    echo "usage: bash scripts/fuzz.sh [--check] BUILD_DIR SECONDS [NAME...]" >&2
    exit 2
fi
build=$1 seconds=$2
shift 2
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if ! [[ $seconds =~ ^[1-9][0-9]*$ ]]; then
    echo "fuzz: the time must be a whole number of seconds, not '$seconds'" >&2
    exit 2
fi

names=("$@")
if ((${#names[@]} == 0)); then
    for src in "$root"/tests/fuzz/fuzz_*.c; do
        base=${src##*/fuzz_}
        names+=("${base%.c}")
    done
fi

failed=0
for name in "${names[@]}"; do
    exe=$build/fuzz_$name
    seeds=$root/tests/fuzz/corpus/$name
    if [[ ! -x $exe ]]; then
        echo "fuzz: no harness '$name' ($exe is not built; known: tests/fuzz/fuzz_*.c)" >&2
        exit 2
    fi
    work=$build/fuzz/$name
    mkdir -p "$work"
    if ((check)); then
        corpus=$(mktemp -d "$work/check-corpus.XXXXXX")
    else
        corpus=$work/corpus
        mkdir -p "$corpus"
    fi
    [[ -d $seeds ]] && cp -Rn "$seeds"/. "$corpus"/
    run_s=$seconds
    ((check && ${CHECK_SECONDS[$name]:-0} > run_s)) && run_s=${CHECK_SECONDS[$name]}
    args=(-max_total_time="$run_s" -print_final_stats=1 -timeout="$INPUT_TIMEOUT" -artifact_prefix="$work/")
    [[ -f $root/tests/fuzz/$name.dict ]] && args+=(-dict="$root/tests/fuzz/$name.dict")
    log=$work/last.log
    status=0
    "$exe" "${args[@]}" "$corpus" >"$log" 2>&1 || status=$?
    ((check)) && rm -rf "$corpus"
    runs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
    if ((status == 0)); then
        printf 'fuzz_%-14s %12s inputs in %s s, 0 crashes\n' "$name" "${runs:-?}" "$run_s"
        continue
    fi
    failed=1
    kept=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
    printf 'fuzz_%-14s FAILED after %s inputs (exit %d); input: %s; log: %s\n' "$name" "${runs:-?}" "$status" \
        "${kept:-none written}" "$log"
    grep -E '^(==[0-9]+==ERROR|SUMMARY|.*invariant failed|.*runtime error)' "$log" | head -n 5 | sed 's/^/    /'
done
exit $failed
