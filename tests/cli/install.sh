# `cmake --install` into a temporary prefix: the shared and static libraries, the headers and ttt.pc; a small C
# program compiled against the installed tree through pkg-config (the shared library, then the static one)
# agrees with the command; the shared library exports the public headers' functions and nothing else.
source "$(dirname "$0")/harness.bash"

BUILD=$(cd "$(dirname "$TTT")" && pwd)
DIR=$(mktemp -d)
trap 'rm -f "$OUT" "$ERR"; rm -rf "$DIR"' EXIT
PREFIX=$DIR/prefix

check() { # check DESCRIPTION COMMAND...: passes when the command succeeds
    local what=$1
    shift
    if "$@" >"$OUT" 2>"$ERR"; then PASS=$((PASS + 1)); else fail "$what"; fi
}

check "cmake --install $BUILD --prefix $PREFIX" cmake --install "$BUILD" --prefix "$PREFIX"
LIBDIR=$(dirname "$(find "$PREFIX" -name ttt.pc -path '*/pkgconfig/*' | head -1)")/..
LIBDIR=$(cd "$LIBDIR" 2>/dev/null && pwd)
for f in "$LIBDIR/libttt.so" "$LIBDIR/libttt.a" "$PREFIX/include/ttt/ttt.h" "$PREFIX/include/ttt/board.h"; do
    check "installed: $f" test -e "$f"
done
export PKG_CONFIG_PATH=$LIBDIR/pkgconfig
check "pkg-config finds ttt" pkg-config --exists ttt
# The .pc file finds its prefix from where it lies: the installed include directory, not the source tree's.
includedir=$(pkg-config --variable=includedir ttt)
[[ $(cd "$includedir" 2>/dev/null && pwd) == "$PREFIX/include" ]] && PASS=$((PASS + 1)) ||
    fail "pkg-config: includedir $includedir is not $PREFIX/include"

# A sanitizer build's library needs the sanitizers' runtimes in the program too.
SAN=()
if readelf -d "$LIBDIR/libttt.so" | grep -q 'NEEDED.*libasan'; then
    SAN=(-fsanitize=address,undefined)
fi

cat >"$DIR/prog.c" <<'C'
#include <stdio.h>
#include <ttt/ttt.h>

/* Prints the value of the position after the moves in argv[1] as `ttt solve --value --json` names it. */
int main(int argc, char **argv)
{
    ttt_rules rules = ttt_rules_default();
    ttt_move moves[TTT_MAX_CELLS];
    int count = 0;
    ttt_board b;
    ttt_solver *solver;
    ttt_result value;
    int plies;
    ttt_error err;
    if (ttt_moves_parse(argc > 1 ? argv[1] : "", &rules, moves, TTT_MAX_CELLS, &count, &err) ||
        ttt_moves_replay(&rules, moves, count, &b, &err) || ttt_solver_new(&rules, 1, &solver, &err) ||
        ttt_solver_value(solver, &b, &value, &plies, NULL, &err)) {
        fprintf(stderr, "prog: %s\n", err.msg);
        return 1;
    }
    ttt_solver_free(solver);
    printf("\"value\":\"%s\",\"plies\":%d\n", value > 0 ? "win" : value < 0 ? "loss" : "draw", plies);
    return 0;
}
C
read -ra CFLAGS <<<"$(pkg-config --cflags ttt)"
read -ra LIBS <<<"$(pkg-config --libs ttt)"
check "compile against the installed libttt.so" gcc -std=c17 "${SAN[@]}" "${CFLAGS[@]}" "$DIR/prog.c" -o "$DIR/prog" "${LIBS[@]}"
check "the program loads the installed libttt.so" \
    bash -c "LD_LIBRARY_PATH='$LIBDIR' ldd '$DIR/prog' | grep -q '=> $LIBDIR/libttt.so'"
read -ra STATIC_LIBS <<<"$(pkg-config --static --libs-only-other --libs-only-l ttt | sed 's/-lttt//')"
check "compile against the installed libttt.a" \
    gcc -std=c17 "${SAN[@]}" "${CFLAGS[@]}" "$DIR/prog.c" -o "$DIR/prog_static" "$LIBDIR/libttt.a" "${STATIC_LIBS[@]}"
for moves in "" "b2 a1" "a1 b1 c1 a2" "b2 b1 a1"; do
    expected=$("$TTT" solve --value --json --moves "$moves" | grep -oE '"value":"[a-z]+","plies":[0-9]+')
    got=$(LD_LIBRARY_PATH=$LIBDIR "$DIR/prog" "$moves" 2>&1)
    [[ -n $expected && $got == "$expected" ]] && PASS=$((PASS + 1)) ||
        fail "moves '$moves': the program says $got, ttt solve $expected"
    got=$("$DIR/prog_static" "$moves" 2>&1)
    [[ $got == "$expected" ]] && PASS=$((PASS + 1)) || fail "moves '$moves' (static): $got, expected $expected"
done
LD_LIBRARY_PATH=$LIBDIR "$DIR/prog" "b2 b2" >"$OUT" 2>&1
[[ $? -eq 1 ]] && grep -q "^prog: moves: move 2 'b2': cell b2 is taken$" "$OUT" && PASS=$((PASS + 1)) ||
    fail "an illegal move: the library's message expected, got $(cat "$OUT")"

# Exports: every function defined in libttt.so is declared in the public headers; internals stay hidden.
nm -D --defined-only "$LIBDIR/libttt.so" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | sort -u >"$DIR/exported"
cat "$PREFIX"/include/ttt/*.h | grep -oE '\bttt_[a-z0-9_]+[[:space:]]*\(' | grep -oE 'ttt_[a-z0-9_]+' |
    sort -u >"$DIR/public"
extra=$(comm -23 "$DIR/exported" "$DIR/public" | tr '\n' ' ')
[[ -z $extra ]] && PASS=$((PASS + 1)) || fail "libttt.so exports what no public header declares: $extra"
for name in ttt_board_play_checked ttt_solver_search ttt_engine_new ttt_arena_run; do
    grep -qx "$name" "$DIR/exported" && PASS=$((PASS + 1)) || fail "libttt.so does not export $name"
done
for name in ttt_fail ttt_engine_registry; do # internal (src/util/error.h, src/engines/engine_impl.h)
    grep -qx "$name" "$DIR/exported" && fail "libttt.so exports the internal $name" || PASS=$((PASS + 1))
done
finish
