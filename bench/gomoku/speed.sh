#!/bin/sh
# The gomoku engine's speed on fixed positions: the positions before ttt's losing moves of
# rapfi/blunders.txt (middle games, ply 13 to 61), one `ttt move` each, and per position the depth, the
# nodes and the CPU seconds (user + system, from /usr/bin/time: the load inflates wall-clock figures, not
# these), then the mean depth, the total nodes and CPU, and nodes a CPU second. A fixed depth (no clock)
# gives the same nodes on every machine: a pure speedup must keep them; at a time limit the depth reached
# is what the speed buys.
#
# usage: bench/gomoku/speed.sh [TTT [SPEC [N]]]
#   TTT   the binary [build/ttt]; SPEC its gomoku spec [gomoku:time=0,depth=7,vct=0,vcf=0: the alpha-beta
#         and its leaf VCF alone]; N positions [40] (blunders.txt has 76)
# example: bench/gomoku/speed.sh build/ttt gomoku:time=1000 20
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ttt=${1:-build/ttt}
spec=${2:-gomoku:time=0,depth=7,vct=0,vcf=0}
n=${3:-40}
if [ ! -x "$ttt" ] || [ ! -x /usr/bin/time ]; then
	echo "speed.sh: needs an executable $ttt and /usr/bin/time" >&2
	exit 2
fi
tmp=$(mktemp -d /tmp/ttt-gomoku-speed.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
grep -v '^#' "$here/rapfi/blunders.txt" | head -n "$n" | while IFS='|' read -r before _; do
	moves=$(echo "$before" | cut -d' ' -f3-)
	/usr/bin/time -f '%U %S' -o "$tmp/time" "$ttt" move --rules 15x15k5 --engine "$spec" --json \
		--moves "$moves" >"$tmp/move"
	depth=$(grep -o '"depth":[0-9]*' "$tmp/move" | cut -d: -f2)
	nodes=$(grep -o '"nodes":[0-9]*' "$tmp/move" | cut -d: -f2)
	move=$(grep -o '"move":"[a-z0-9]*"' "$tmp/move" | cut -d'"' -f4)
	echo "$move ${depth:-0} $nodes $(cat "$tmp/time")"
done | awk '{ print; d += $2; n += $3; cpu += $4 + $5 }
	END { printf "positions %d, mean depth %.2f, nodes %d, CPU %.2f s, %.0f nodes a CPU second\n",
	      NR, d / NR, n, cpu, (cpu > 0 ? n / cpu : 0) }'
