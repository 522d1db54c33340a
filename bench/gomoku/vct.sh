#!/bin/sh
# The root threat searches on the positions where Rapfi had found its win against the engine: the first of
# its final run of instant answers (under 60 ms) in every game it won of the SGF files given, Rapfi to move.
# Prints, for the windows' VCF, their VCF then VCT (the engine's tvct=0) and the patterns' VCT (tvct=1), at
# each node budget, the wins found, the nodes and the CPU time.
#
# usage: bench/gomoku/vct.sh [-t THREES] [-b "BUDGET ..."] SGF...   (build/libttt.a built first)
# example: bench/gomoku/vct.sh -t 3 -b "20000 100000" bench/gomoku/rapfi/results/h31g-3facd27-1s*.sgf
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
threes=3
budgets="20000 100000"
while getopts t:b: opt; do
	case $opt in
	t) threes=$OPTARG ;;
	b) budgets=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -eq 0 ]; then
	sed -n '2,/^set -eu/p' "$0" | grep '^#' >&2
	exit 2
fi
out=$(mktemp /tmp/ttt-vct-bench.XXXXXX)
trap 'rm -f "$out" "$out.txt"' EXIT
cc -O2 -std=c17 -I"$root/src" -I"$root/include" "$root/bench/gomoku/vct.c" "$root/build/libttt.a" -lm -lpthread \
	-o "$out"
python3 "$root/bench/gomoku/rapfi/instant.py" "$@" >"$out.txt"
# shellcheck disable=SC2086
"$out" "$threes" $budgets <"$out.txt"
