#!/bin/sh
# One ttt engine spec against another through c-gomoku-cli: 15x15 freestyle, the balanced openings of
# openings.txt each played twice with the colours swapped, scored by elo.py for the first spec ("ttt").
# Finer than `ttt arena` for gomoku options: the arena starts from the empty board, where the first player
# wins most games whatever the options.
#
# usage: selfplay.sh NAME SPEC_A SPEC_B
#   NAME  the results' name: OUT/NAME.{sgf,log,txt}; SPEC_A, SPEC_B: `ttt brain --engine` specs
# environment: TTT [build/ttt], TTT_B [TTT] the binary of SPEC_B (another build: a branch against its base),
#   EXT [/work/ext/bin], TC [0.3] seconds a move, GAMES [48], OPENINGS [openings.txt], OUT [results]
# example: bench/gomoku/rapfi/selfplay.sh null gomoku:null=1 gomoku
set -eu

here=$(cd "$(dirname "$0")" && pwd)
if [ $# -ne 3 ]; then
	sed -n '2,/^set -eu/p' "$0" | grep '^#' >&2
	exit 2
fi
ttt=${TTT:-build/ttt}
ttt_b=${TTT_B:-$ttt}
ext=${EXT:-/work/ext/bin}
out=${OUT:-$here/results}
for f in "$ttt" "$ttt_b" "$ext/c-gomoku-cli"; do
	if [ ! -x "$f" ]; then
		echo "selfplay.sh: not an executable: $f" >&2
		exit 2
	fi
done
ttt=$(cd "$(dirname "$ttt")" && pwd)/$(basename "$ttt")
ttt_b=$(cd "$(dirname "$ttt_b")" && pwd)/$(basename "$ttt_b")
mkdir -p "$out"
rm -f "$out/$1.sgf"
"$ext/c-gomoku-cli" -rule 0 -boardsize 15 -games "${GAMES:-48}" -repeat -concurrency 1 -each tolerance=3 \
	-engine name=ttt "cmd=$ttt brain --engine $2" tc=0/"${TC:-0.3}" \
	-engine name=other "cmd=$ttt_b brain --engine $3" tc=0/"${TC:-0.3}" \
	-openings file="${OPENINGS:-$here/openings.txt}" type=pos order=sequential \
	-sgf "$out/$1.sgf" >"$out/$1.log" 2>&1 || echo "selfplay.sh: c-gomoku-cli exited with $?" >&2
python3 "$here/elo.py" "$out/$1.sgf" | tee "$out/$1.txt"
