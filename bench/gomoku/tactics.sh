#!/bin/sh
# Makes the tactical positions of tests/test_gomoku_tactics.c (tactics_gen.c) against the library of a build
# directory: C initializers on stdout, each answer checked by the exact solver (small boards) or the VCF
# search (15x15). Usage: bench/gomoku/tactics.sh [BUILD_DIR [RULES...]] (default: build, 7x7k4 9x9k5 15x15k5)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
shift 2>/dev/null || true
[ $# -gt 0 ] || set -- 7x7k4 9x9k5 15x15k5
out=$(mktemp /tmp/ttt-tactics-gen.XXXXXX)
trap 'rm -f "$out"' EXIT
cc -O2 -std=c17 -I"$root/src" -I"$root/include" "$root/bench/gomoku/tactics_gen.c" "$root/$build/libttt.a" \
    -lsqlite3 -ljansson -lm -lpthread -o "$out"
"$out" "$@"
