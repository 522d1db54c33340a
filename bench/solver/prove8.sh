#!/bin/sh
# bench/solver/prove8.sh [BUILD_DIR] [FILE] [NODE_LIMIT] - the draw prover's nodes and CPU seconds on the
# 8x8k5 and 7x8k5 positions of FILE (default bench/solver/prove8_positions.txt), one run each, a fresh table.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build}
file=${2:-$here/prove8_positions.txt}
bin=$build/prove8
cc -O2 -std=c17 -I"$root/include" -I"$root/src" -o "$bin" "$here/prove8.c" "$build/libttt.a" -lm -lpthread
exec "$bin" "$file" ${3:-0}
