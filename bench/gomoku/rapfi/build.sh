#!/bin/sh
# Builds the two outside programs of the Rapfi matches, outside this tree:
#   c-gomoku-cli (the match manager) and Rapfi (the opponent: classical
#   evaluator, one thread, no network file).
#
# usage: build.sh RAPFI_SRC CLI_SRC [OUT]
#   RAPFI_SRC, CLI_SRC: a checkout of github.com/dhbloo/rapfi and of
#     github.com/nkg114mc/c-gomoku-cli, or a bare git directory of either
#     (its HEAD is exported with `git archive`).
#   OUT: where to build (default /work/ext, or $RAPFI_OUT); it ends with
#     OUT/bin/c-gomoku-cli and OUT/bin/pbrain-rapfi.
# environment: JOBS [2] parallel compile jobs; RAPFI_NO_COMMANDS [OFF] ON
#   leaves out Rapfi's command modules (opengen and the rest).
# Nothing is copied into this repository.
set -eu

if [ $# -lt 2 ]; then
	echo "usage: $0 RAPFI_SRC CLI_SRC [OUT]" >&2
	exit 2
fi
rapfi_src=$1
cli_src=$2
out=${3:-${RAPFI_OUT:-/work/ext}}
jobs=${JOBS:-2}

# tree SRC DEST: a work tree of SRC in DEST (git archive of a bare dir's HEAD,
# or the checkout itself).
tree() {
	if [ -d "$1/.git" ] || [ ! -d "$1/objects" ]; then
		printf '%s\n' "$1"
		return
	fi
	rm -rf "$2"
	mkdir -p "$2"
	git --git-dir="$1" archive HEAD | tar -x -C "$2"
	printf '%s\n' "$2"
}

for d in "$rapfi_src" "$cli_src"; do
	if [ ! -d "$d" ]; then
		echo "build.sh: no such directory: $d" >&2
		exit 2
	fi
done
mkdir -p "$out/bin"
out=$(cd "$out" && pwd)

# c-gomoku-cli: its own Makefile in src/. Recent g++ rejects its const char **
# passed to execvp unless -fpermissive (a warning then), and util.cpp uses
# strlen and friends without <cstring>: both fixed from the command line.
cli=$(tree "$cli_src" "$out/src/c-gomoku-cli")
make -C "$cli/src" -j"$jobs" CC="g++ -fpermissive -include cstring" >"$out/c-gomoku-cli.log" 2>&1 ||
	{ echo "build.sh: c-gomoku-cli failed, see $out/c-gomoku-cli.log" >&2; exit 1; }
cp "$cli/src/c-gomoku-cli" "$out/bin/"

# Rapfi: CMake in Rapfi/. One thread (NO_MULTI_THREADING); the command modules
# are kept for `opengen` (RAPFI_NO_COMMANDS=ON leaves them out). No network:
# with no config.toml beside the binary or in its working directory Rapfi loads
# its internal configuration, the classical evaluator.
rapfi=$(tree "$rapfi_src" "$out/src/rapfi")
cmake -S "$rapfi/Rapfi" -B "$out/build-rapfi" -DCMAKE_BUILD_TYPE=Release \
	-DNO_MULTI_THREADING=ON -DNO_COMMAND_MODULES=${RAPFI_NO_COMMANDS:-OFF} \
	>"$out/rapfi.log" 2>&1 &&
	cmake --build "$out/build-rapfi" -j"$jobs" >>"$out/rapfi.log" 2>&1 ||
	{ echo "build.sh: Rapfi failed, see $out/rapfi.log" >&2; exit 1; }
cp "$out/build-rapfi/pbrain-rapfi" "$out/bin/" 2>/dev/null ||
	cp "$out/build-rapfi/rapfi" "$out/bin/pbrain-rapfi"
echo "built $out/bin/c-gomoku-cli and $out/bin/pbrain-rapfi"
