#!/bin/sh
# One match of `ttt brain` against Rapfi (classical evaluator, one thread) through c-gomoku-cli:
# 15x15 freestyle, the balanced openings of openings.txt, each opening played twice with the colours
# swapped (-repeat), the games written as SGF and PGN and scored by elo.py.
#
# usage: match.sh NAME [c-gomoku-cli options for the Rapfi side ...]
#   NAME      the results' name: results/NAME.{sgf,pgn,log,txt}
#   the rest  extra options of Rapfi's -engine (depth=8 for depth 8; its time: RAPFI_TC below)
# environment (defaults in brackets):
#   TTT [build/ttt]           the ttt binary; TTT_SPEC [gomoku] its engine (`ttt brain --engine`)
#   EXT [/work/ext/bin]       where build.sh put c-gomoku-cli and pbrain-rapfi
#   TC [1]                    seconds a move for ttt (tc=0/TC: no match clock)
#   RAPFI_TC [TC]             seconds a move for Rapfi (each engine's own tc=: the manager's -each
#                             would override a tc= given to one engine)
#   GAMES [40]                games (two per opening: at most twice the lines of OPENINGS)
#   CONCURRENCY [1]           games at once (the machine's cores, less what else runs)
#   OPENINGS [openings.txt]   one opening a line in "pos" notation (h8i9j7: x a letter, y from 1 at the
#                             top), as Rapfi's opengen writes them
#   TOLERANCE [3]             seconds past a move's limit before the manager calls it a time loss
#   MEMORY [the manager's 350 MB]  INFO max_memory in bytes, for both; Rapfi sizes its table by it and
#                             fills it before its first move (2 to 3 s at load 15: a first move that
#                             comes right after START may forfeit; 67108864 avoids it)
#   OUT [results]             where the files go
# example: TC=1 GAMES=40 CONCURRENCY=2 bench/gomoku/rapfi/match.sh main-1s
#          bench/gomoku/rapfi/match.sh main-d8 depth=8
#          RAPFI_TC=0.1 bench/gomoku/rapfi/match.sh main-vs-100ms
set -eu

here=$(cd "$(dirname "$0")" && pwd)
if [ $# -lt 1 ]; then
	sed -n '2,/^set -eu/p' "$0" | grep '^#' >&2
	exit 2
fi
name=$1
shift
ttt=${TTT:-build/ttt}
spec=${TTT_SPEC:-gomoku}
ext=${EXT:-/work/ext/bin}
tc=${TC:-1}
rapfi_tc=${RAPFI_TC:-$tc}
games=${GAMES:-40}
concurrency=${CONCURRENCY:-1}
openings=${OPENINGS:-$here/openings.txt}
tolerance=${TOLERANCE:-3}
memory=${MEMORY:+maxmemory=$MEMORY}
out=${OUT:-$here/results}

for f in "$ttt" "$ext/c-gomoku-cli" "$ext/pbrain-rapfi"; do
	if [ ! -x "$f" ]; then
		echo "match.sh: not an executable: $f (see build.sh)" >&2
		exit 2
	fi
done
if [ ! -r "$openings" ]; then
	echo "match.sh: cannot read the openings: $openings" >&2
	exit 2
fi
# A config.toml beside pbrain-rapfi (or in its working directory, which the manager sets to its
# directory) would replace the internal classical configuration, possibly with a network.
if [ -e "$ext/config.toml" ]; then
	echo "match.sh: $ext/config.toml would change Rapfi's evaluator: remove it" >&2
	exit 2
fi
ttt=$(cd "$(dirname "$ttt")" && pwd)/$(basename "$ttt")
mkdir -p "$out"
rm -f "$out/$name.sgf" "$out/$name.pgn"

set -- "$ext/c-gomoku-cli" -rule 0 -boardsize 15 -games "$games" -repeat -concurrency "$concurrency" \
	-each tolerance="$tolerance" $memory \
	-engine name=ttt "cmd=$ttt brain --engine $spec" tc=0/"$tc" \
	-engine name=rapfi "cmd=$ext/pbrain-rapfi" tc=0/"$rapfi_tc" thread=1 "$@" \
	-openings file="$openings" type=pos order=sequential \
	-sgf "$out/$name.sgf" -pgn "$out/$name.pgn"
{
	printf 'command:'
	for a in "$@"; do
		case $a in
		*" "*) printf ' "%s"' "$a" ;;
		*) printf ' %s' "$a" ;;
		esac
	done
	echo
	echo "ttt: $("$ttt" --version 2>&1 | head -1), tree $(git -C "$here" describe --always --dirty 2>/dev/null || echo unknown) ($ttt, engine $spec)"
	echo "start: $(date -u '+%F %T') UTC, load $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$out/$name.txt"
"$@" >"$out/$name.log" 2>&1 || echo "match.sh: c-gomoku-cli exited with $? (see $out/$name.log)" >&2
echo "end: $(date -u '+%F %T') UTC, load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/$name.txt"
grep -E '^Score of' "$out/$name.log" | tail -1 >>"$out/$name.txt" || true
python3 "$here/elo.py" "$out/$name.sgf" >>"$out/$name.txt"
cat "$out/$name.txt"
