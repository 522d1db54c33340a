#!/bin/sh
# Our check of the openings: `ttt brain` (gomoku, seeds 1 and 2) against itself through c-gomoku-cli on
# every opening with both colours; balance.py then prints Black's score over the set and, opening by
# opening, which colour won each of its two games (one colour winning both: the opening favours it, for
# ttt).
#
# usage: balance.sh [NAME]   (default NAME balance: results/NAME.{sgf,log,txt})
# environment: TTT [build/ttt], TTT_SPEC [gomoku], EXT [/work/ext/bin], TC [0.1] seconds a move,
#   CONCURRENCY [1], OPENINGS [openings.txt], OUT [results]
set -eu

here=$(cd "$(dirname "$0")" && pwd)
name=${1:-balance}
ttt=${TTT:-build/ttt}
spec=${TTT_SPEC:-gomoku}
ext=${EXT:-/work/ext/bin}
tc=${TC:-0.1}
concurrency=${CONCURRENCY:-1}
openings=${OPENINGS:-$here/openings.txt}
out=${OUT:-$here/results}

if [ ! -x "$ttt" ] || [ ! -x "$ext/c-gomoku-cli" ]; then
	echo "balance.sh: need $ttt and $ext/c-gomoku-cli (see build.sh)" >&2
	exit 2
fi
ttt=$(cd "$(dirname "$ttt")" && pwd)/$(basename "$ttt")
n=$(grep -c . "$openings")
mkdir -p "$out"
rm -f "$out/$name.sgf"
"$ext/c-gomoku-cli" -rule 0 -boardsize 15 -games $((2 * n)) -repeat -concurrency "$concurrency" \
	-each tc=0/"$tc" tolerance=3 \
	-engine name=ttt "cmd=$ttt brain --engine $spec" option.ttt_seed=1 \
	-engine name=ttt2 "cmd=$ttt brain --engine $spec" option.ttt_seed=2 \
	-openings file="$openings" type=pos order=sequential -sgf "$out/$name.sgf" >"$out/$name.log" 2>&1 ||
	echo "balance.sh: c-gomoku-cli exited with $?" >&2
{
	echo "command: balance.sh $name (TC=$tc, engine $spec, $n openings, load $(cut -d' ' -f1-3 /proc/loadavg))"
	python3 "$here/balance.py" "$out/$name.sgf"
} >"$out/$name.txt"
cat "$out/$name.txt"
