# The Debian package (make deb is `cpack -G DEB` in its own build): made here from this build into a scratch
# directory, then unpacked into a scratch root (dpkg-deb -x) and used from there as an installed system would:
# its control file names the shared libraries it needs (dpkg-shlibdeps); it holds the command, libttt.so.0 with its
# shlibs, the headers, ttt.pc, the man page, the bash and zsh completions and the Python package in dist-packages; the
# command runs (`ttt --version`), pkg-config finds the library in the root, and python3 imports the package and
# loads the root's library. Skipped (77) where there is no dpkg-deb (not Debian).
source "$(dirname "$0")/harness.bash"

BUILD=$(cd "$(dirname "$TTT")" && pwd)
DIR=$(mktemp -d)
trap 'rm -f "$OUT" "$ERR"; rm -rf "$DIR"' EXIT
ROOTFS=$DIR/root
export XDG_DATA_HOME=$DIR/data
unset TTT_LIBRARY PYTHONPATH
for tool in dpkg-deb cpack; do
    if ! command -v "$tool" >/dev/null; then
        echo "SKIP: no $tool (a Debian package needs Debian's dpkg and CMake's cpack)"
        exit 77
    fi
done

(cd "$BUILD" && cpack -G DEB -B "$DIR/pkg") >"$OUT" 2>"$ERR"
RC=$?
debs=("$DIR"/pkg/ttt_*.deb)
[[ $RC -eq 0 && ${#debs[@]} -eq 1 && -s ${debs[0]} ]] && PASS=$((PASS + 1)) ||
    fail "cpack -G DEB exited $RC and made: ${debs[*]}"
DEB=${debs[0]}

dpkg-deb -f "$DEB" Package Version Depends >"$OUT" 2>"$ERR"
grep -qx 'Package: ttt' "$OUT" && PASS=$((PASS + 1)) || fail "the package is not named ttt"
version=$("$TTT" --version | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -1)
grep -qx "Version: $version" "$OUT" && PASS=$((PASS + 1)) || fail "the package's version is not $version"
for lib in libc6 libjansson4 libsqlite3-0 libmicrohttpd12; do
    grep -q "^Depends:.*\b$lib\b" "$OUT" && PASS=$((PASS + 1)) || fail "the package does not depend on $lib"
done
dpkg-deb -e "$DEB" "$DIR/control" 2>"$ERR"
grep -q '^libttt 0 ttt' "$DIR/control/shlibs" 2>/dev/null && PASS=$((PASS + 1)) ||
    fail "the package has no shlibs line for libttt.so.0"

dpkg-deb -x "$DEB" "$ROOTFS" >"$OUT" 2>"$ERR" && PASS=$((PASS + 1)) || fail "dpkg-deb -x"
lib=$(find "$ROOTFS/usr/lib" -name libttt.so.0 | head -1)
pc=$(find "$ROOTFS/usr/lib" -name ttt.pc -path '*/pkgconfig/*' | head -1)
LIBDIR=$(dirname "${lib:-/nonexistent/x}")
for f in usr/bin/ttt usr/include/ttt/ttt.h usr/share/man/man1/ttt.1.gz usr/share/bash-completion/completions/ttt \
    usr/lib/python3/dist-packages/ttt/__init__.py usr/lib/python3/dist-packages/ttt/cs50.py; do
    [[ -s $ROOTFS/$f ]] && PASS=$((PASS + 1)) || fail "the package lacks /$f"
done
zsh=("$ROOTFS"/usr/share/zsh/*/_ttt)
[[ -s ${zsh[0]} ]] && PASS=$((PASS + 1)) || fail "the package lacks the zsh completion in /usr/share/zsh"
[[ -n $lib && -n $pc && -e $LIBDIR/libttt.so && -e $LIBDIR/libttt.a ]] && PASS=$((PASS + 1)) ||
    fail "the package lacks libttt.so.0, libttt.so, libttt.a or ttt.pc in /usr/lib"

# The command from the root, with the root's library first.
LD_LIBRARY_PATH=$LIBDIR "$ROOTFS/usr/bin/ttt" --version >"$OUT" 2>"$ERR"
RC=$?
[[ $RC -eq 0 && $(cat "$OUT") == "$("$TTT" --version)" ]] && PASS=$((PASS + 1)) ||
    fail "the packaged ttt --version: exit $RC, '$(cat "$OUT")'"

# pkg-config, pointed at the root's ttt.pc, names the root's library and headers.
export PKG_CONFIG_PATH=$(dirname "${pc:-/nonexistent/x}")
libs=$(pkg-config --libs ttt 2>"$ERR")
RC=$?
[[ $RC -eq 0 && $libs == *-lttt* ]] && PASS=$((PASS + 1)) || fail "pkg-config --libs ttt: exit $RC, '$libs'"
dir=$(grep -oE -- '-L[^ ]+' <<<"$libs" | head -1)
[[ -n $dir && $(cd "${dir#-L}" 2>/dev/null && pwd) == "$LIBDIR" ]] && PASS=$((PASS + 1)) ||
    fail "pkg-config --libs ttt: '$libs' does not point at $LIBDIR"
read -r cflags <<<"$(pkg-config --cflags ttt)"
[[ -e ${cflags#-I}/ttt/ttt.h ]] && PASS=$((PASS + 1)) || fail "pkg-config --cflags ttt: '$cflags' has no ttt/ttt.h"

# Python: Debian's python3 imports the package from the root's dist-packages, and it loads the root's library.
if /usr/bin/python3 -c 'import cffi' 2>/dev/null; then
    if readelf -d "$lib" | grep -q 'NEEDED.*libasan'; then
        # A sanitizer build's library needs the ASan runtime loaded first into python.
        export LD_PRELOAD=$(gcc -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0
    fi
    LD_LIBRARY_PATH=$LIBDIR PYTHONPATH=$ROOTFS/usr/lib/python3/dist-packages /usr/bin/python3 -c '
import ttt
print(ttt.__file__)
print(next(l.split()[-1] for l in open("/proc/self/maps") if "libttt.so" in l))
print(ttt.solve(ttt.Board())["value"])' >"$OUT" 2>"$ERR"
    mapfile -t got <"$OUT"
    [[ ${got[0]:-} == "$ROOTFS/usr/lib/python3/dist-packages/ttt/__init__.py" && ${got[1]:-} == "$LIBDIR/libttt.so"* &&
        ${got[2]:-} == draw ]] && PASS=$((PASS + 1)) ||
        fail "python3 -c 'import ttt' from the package: ${got[*]:-nothing}"
else
    echo "python3 has no cffi (Debian: python3-cffi): the package's Python part is not run"
fi
finish
