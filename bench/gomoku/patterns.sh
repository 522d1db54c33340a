#!/bin/sh
# Builds and runs the pattern-update microbenchmark (patterns.c) against the library of a build directory.
# Usage: bench/gomoku/patterns.sh [BUILD_DIR [RULES...]]   (default: build, 15x15k5 9x9k5 20x20k5)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
shift 2>/dev/null || true
[ $# -gt 0 ] || set -- 15x15k5 9x9k5 20x20k5
out=$(mktemp /tmp/ttt-patterns-bench.XXXXXX)
trap 'rm -f "$out"' EXIT
cc -O2 -std=c17 -I"$root/src" -I"$root/include" "$root/bench/gomoku/patterns.c" "$root/$build/libttt.a" -lm \
    -lpthread -o "$out"
for rules in "$@"; do "$out" "$rules"; done
