# scripts/setup.sh's modes, against stand-ins for dpkg-query, apt-get and npm on a PATH of their own (nothing is
# installed): `build` (make, make play) asks apt-get for the compiler, CMake and the -dev libraries and nothing the
# tests alone use; `deb` (make deb) adds dpkg-dev and file; `test` (make check, .ci/run) asks for all of them and
# every test tool, and installs playwright-core; a second run prints nothing; a user without sudo is told the
# exact apt-get command. The Makefile runs each mode where it should.
source "$(dirname "$0")/harness.bash"

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=$(mktemp -d)
trap 'rm -f "$OUT" "$ERR"; rm -rf "$DIR"' EXIT

# A copy of the script in a tree of its own, so that its tests/web has no node_modules yet.
mkdir -p "$DIR/tree/scripts" "$DIR/tree/tests/web" "$DIR/bin" "$DIR/user" "$DIR/debs"
cp "$ROOT/scripts/setup.sh" "$DIR/tree/scripts/"
STATE=$DIR/installed # the packages "installed", one a line
APT_LOG=$DIR/apt.log
NPM_LOG=$DIR/npm.log
: >"$STATE"
BASH_PATH=$(command -v bash)
CP=$(command -v cp)

# The stand-ins, written before the links to the real tools exist (never through a link). npm comes with its
# package: apt-get puts it on PATH.
printf '%s\n' "#!$BASH_PATH" '# dpkg-query -W -f=FORMAT PACKAGE' \
    "grep -qx -- \"\${@: -1}\" '$STATE' && echo 'install ok installed'" 'exit 0' >"$DIR/bin/dpkg-query"
printf '%s\n' "#!$BASH_PATH" "echo \"\$*\" >>'$APT_LOG'" \
    'if [[ " $* " == *" install "* ]]; then' \
    '    for a in "$@"; do' \
    "        [[ \$a == -* || \$a == install ]] || echo \"\$a\" >>'$STATE'" \
    "        [[ \$a != npm ]] || $CP '$DIR/debs/npm' '$DIR/bin/npm'" \
    '    done' 'fi' >"$DIR/bin/apt-get"
printf '%s\n' "#!$BASH_PATH" "echo \"\$PWD: npm \$*\" >>'$NPM_LOG'" >"$DIR/debs/npm"
# A user who is not root, for one run (PATH=$DIR/user:$DIR/bin).
printf '%s\n' "#!$BASH_PATH" 'echo 1000' >"$DIR/user/id"
chmod +x "$DIR/bin/dpkg-query" "$DIR/bin/apt-get" "$DIR/debs/npm" "$DIR/user/id"
for tool in bash env grep mktemp cat rm dirname id; do
    ln -s "$(command -v "$tool")" "$DIR/bin/$tool"
done

setup() { # setup MODE...: runs the copy with only the stand-ins on PATH (PREPEND first); sets RC, OUT, ERR
    : >"$APT_LOG"
    : >"$NPM_LOG"
    PATH=${PREPEND:+$PREPEND:}$DIR/bin "$DIR/bin/bash" "$DIR/tree/scripts/setup.sh" "$@" >"$OUT" 2>"$ERR"
    RC=$?
}
installs() { grep -E '(^| )install ' "$APT_LOG" | tr ' ' '\n' | grep -v -e '^-' -e '^install$'; }
has() { printf '%s\n' "$1" | grep -qx -- "$2"; }
asked() { # asked MODE GOT PACKAGE...: each package is among those apt-get was asked for
    local mode=$1 got=$2 p
    shift 2
    for p in "$@"; do
        has "$got" "$p" && PASS=$((PASS + 1)) || fail "setup.sh $mode does not install $p (asked: $got)"
    done
}

BUILD=(cmake make gcc pkg-config libjansson-dev libncurses-dev libsqlite3-dev sqlite3 libmicrohttpd-dev)
DEB=(dpkg-dev file)
TEST_ONLY=(chromium clang libclang-rt-14-dev wrk nodejs npm tmux clang-format libcmocka-dev curl jq python3-pytest
    python3-cffi python3-pip python3-venv man-db zsh)

# A user who cannot use sudo (there is none here) is told the exact command, with the build packages only.
PREPEND=$DIR/user setup build
[[ $RC -eq 1 ]] && grep -q "^sudo apt-get install -y ${BUILD[*]}\$" "$ERR" && [[ ! -s $APT_LOG ]] &&
    PASS=$((PASS + 1)) || fail "build, not root: the apt-get command of the build packages expected (exit $RC)"

if [[ $(id -u) -eq 0 ]]; then
    setup build
    got=$(installs)
    [[ $RC -eq 0 ]] && PASS=$((PASS + 1)) || fail "setup.sh build exited $RC"
    asked build "$got" "${BUILD[@]}"
    for p in "${TEST_ONLY[@]}" "${DEB[@]}"; do
        has "$got" "$p" && fail "setup.sh build installs $p, which building does not need" || PASS=$((PASS + 1))
    done
    [[ ! -s $NPM_LOG ]] && PASS=$((PASS + 1)) || fail "setup.sh build runs npm: $(cat "$NPM_LOG")"

    setup build
    [[ $RC -eq 0 && ! -s $OUT && ! -s $ERR && ! -s $APT_LOG ]] && PASS=$((PASS + 1)) ||
        fail "setup.sh build, a second time: silent and no apt-get expected (exit $RC, apt: $(cat "$APT_LOG"))"

    setup deb
    got=$(installs)
    [[ $RC -eq 0 ]] && PASS=$((PASS + 1)) || fail "setup.sh deb exited $RC"
    asked deb "$got" "${DEB[@]}"
    for p in "${TEST_ONLY[@]}"; do
        has "$got" "$p" && fail "setup.sh deb installs the test-only $p" || PASS=$((PASS + 1))
    done
    : >"$STATE" # the test suite packages too: test asks for the deb packages again

    setup test
    got=$(installs)
    [[ $RC -eq 0 ]] && PASS=$((PASS + 1)) || fail "setup.sh test exited $RC"
    asked test "$got" "${BUILD[@]}" "${DEB[@]}"
    asked test "$got" "${TEST_ONLY[@]}"
    grep -q "^$DIR/tree/tests/web: npm ci " "$NPM_LOG" && PASS=$((PASS + 1)) ||
        fail "setup.sh test does not install playwright-core in tests/web: $(cat "$NPM_LOG")"

    mkdir -p "$DIR/tree/tests/web/node_modules/playwright-core"
    setup test
    [[ $RC -eq 0 && ! -s $OUT && ! -s $ERR && ! -s $APT_LOG && ! -s $NPM_LOG ]] && PASS=$((PASS + 1)) ||
        fail "setup.sh test, a second time: silent, no apt-get, no npm expected (exit $RC)"
else
    echo "not root: the runs that install are left out (they would go through the real sudo)"
fi

setup tests
[[ $RC -eq 2 && $(wc -l <"$ERR") -eq 1 ]] && grep -q "^setup: unknown mode 'tests'" "$ERR" &&
    PASS=$((PASS + 1)) || fail "an unknown mode: one line and exit 2 expected (exit $RC)"

# dry_make TARGET: what `make TARGET` would run, as if typed by hand (not the make that may be running this test).
dry_make() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n -C "$ROOT" "$1" 2>&1; }
# The Makefile: make and make play set up the build packages only, make deb those of packaging too, make check and
# make fuzz the test tools.
for target in build play bench; do
    plan=$(dry_make "$target" 2>&1 | grep 'setup.sh')
    [[ $plan == *"setup.sh build"* && $plan != *"setup.sh test"* ]] && PASS=$((PASS + 1)) ||
        fail "make $target runs '$plan', not scripts/setup.sh build"
done
plan=$(dry_make deb 2>&1 | grep 'setup.sh')
[[ $plan == *"setup.sh deb"* ]] && PASS=$((PASS + 1)) || fail "make deb runs '$plan', not setup.sh deb"
for target in check fuzz; do
    plan=$(dry_make "$target" 2>&1 | grep 'setup.sh')
    [[ $plan == *"setup.sh test"* ]] && PASS=$((PASS + 1)) || fail "make $target runs '$plan', not setup.sh test"
done
finish
