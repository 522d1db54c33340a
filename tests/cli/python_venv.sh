# The README's way of installing the Python package on Debian 12 (PEP 668 refuses pip outside a virtual
# environment), run as it stands: its ```sh block that makes the venv, in a scratch $HOME, with Debian's python3
# first on PATH, `build` standing for this build and `python` for a copy of python/ (pip writes into the tree
# it installs). Then the installed package is the one imported and the installed libttt.so the one it loads.
# Skipped (77) when python3 cannot make a virtual environment (Debian: python3-venv).
source "$(dirname "$0")/harness.bash"

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(cd "$(dirname "$TTT")" && pwd)
DIR=$(mktemp -d)
trap 'rm -f "$OUT" "$ERR"; rm -rf "$DIR"' EXIT
export PATH=/usr/bin:/bin:$PATH
export HOME=$DIR/home
unset TTT_LIBRARY PYTHONPATH
mkdir -p "$HOME" "$DIR/tree"
if ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
    echo "SKIP: $(command -v python3) cannot make a virtual environment (Debian: apt-get install python3-venv)"
    exit 77
fi
# Never the network: everything the block needs is on the machine.
export PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1
# A sanitizer build's library needs the ASan runtime loaded first into python, which is not built with it.
if readelf -d "$BUILD/libttt.so" | grep -q 'NEEDED.*libasan'; then
    export LD_PRELOAD=$(gcc -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0
fi

# The README's block: the ```sh block with `-m venv` in it.
awk '/^```sh$/ { block = ""; inside = 1; next }
     /^```$/ && inside { if (block ~ /-m venv/) printf "%s", block; inside = 0; next }
     inside { block = block $0 "\n" }' "$ROOT/README.md" >"$DIR/block.sh"
grep -q 'pip install' "$DIR/block.sh" && PASS=$((PASS + 1)) || fail "README.md has no \`\`\`sh block with -m venv"

ln -s "$BUILD" "$DIR/tree/build"
cp -r "$ROOT/python" "$DIR/tree/python"
rm -rf "$DIR/tree/python/build" "$DIR/tree/python/"*.egg-info
(cd "$DIR/tree" && bash -e "$DIR/block.sh") >"$OUT" 2>"$ERR"
RC=$?
[[ $RC -eq 0 ]] && PASS=$((PASS + 1)) || fail "the README's block exited $RC"
# Its last line prints the value of the empty board.
[[ $(tail -1 "$OUT") == draw ]] && PASS=$((PASS + 1)) || fail "the README's block does not end with 'draw'"

# The package imported is the venv's, and the library it loads the one installed in ~/.local/lib.
VENV=$HOME/.venvs/ttt
LD_LIBRARY_PATH=$HOME/.local/lib "$VENV/bin/python" -c '
import ttt
print(ttt.__file__)
print(next(l.split()[-1] for l in open("/proc/self/maps") if "libttt.so" in l))' >"$OUT" 2>"$ERR"
mapfile -t got <"$OUT"
[[ ${got[0]:-} == "$VENV"/lib/python3*/site-packages/ttt/__init__.py ]] && PASS=$((PASS + 1)) ||
    fail "import ttt comes from ${got[0]:-nowhere}, not the venv's site-packages"
[[ ${got[1]:-} == "$HOME/.local/lib/libttt.so"* ]] && PASS=$((PASS + 1)) ||
    fail "the package loads ${got[1]:-no library}, not the one installed in ~/.local/lib"
finish
