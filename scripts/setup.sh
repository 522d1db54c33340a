#!/usr/bin/env bash
# Idempotent installer of the Debian 12 packages this project needs:
#   scripts/setup.sh [build]  what builds and runs ttt (make, make play, make bench)
#   scripts/setup.sh deb      that, and what makes a Debian package of it (make deb)
#   scripts/setup.sh test     all that, and every tool the test suite uses (make check, make fuzz, .ci/run)
# Prints nothing and exits 0 when everything is already installed.
set -euo pipefail

MODE=${1:-build}

# Compiling and running the command, the library and the web server.
BUILD_PACKAGES=(
    cmake make gcc pkg-config
    libjansson-dev libncurses-dev libsqlite3-dev sqlite3 libmicrohttpd-dev
)
# Optional for building: with them CMake builds the --mpi of ttt solve and ttt arena (README, "Past one machine");
# without them ttt builds the same, and --mpi says it was built without MPI. The test mode installs them, since
# make check runs the MPI tests (tests/mpi/).
MPI_PACKAGES=(openmpi-bin libopenmpi-dev)
# The Debian package's dependencies, found by CPack through dpkg-shlibdeps (dpkg-dev), which needs file.
DEB_PACKAGES=(dpkg-dev file)
# Only for the tests and the checks of `make check`.
TEST_PACKAGES=(
    libcmocka-dev tmux clang-format
    # the libFuzzer harnesses (make fuzz, make check): clang and its fuzzer and sanitizer runtimes
    clang libclang-rt-14-dev
    # ttt serve's tests and load measurement: HTTP client, JSON checks, the browser, Node for playwright-core
    curl jq chromium wrk nodejs
    # the Python package (python/ttt) and its tests, run by Debian's /usr/bin/python3; venv for the README's
    # way of installing it
    python3 python3-cffi python3-pytest python3-pip python3-setuptools python3-venv
    # the man page rendered by its test, the zsh completion run by its test
    man-db zsh
)

case $MODE in
build) PACKAGES=("${BUILD_PACKAGES[@]}") ;;
deb) PACKAGES=("${BUILD_PACKAGES[@]}" "${DEB_PACKAGES[@]}") ;;
test) PACKAGES=("${BUILD_PACKAGES[@]}" "${DEB_PACKAGES[@]}" "${TEST_PACKAGES[@]}" "${MPI_PACKAGES[@]}") ;;
*)
    echo "setup: unknown mode '$MODE' (build: what builds and runs ttt; deb: and packages it; test: all that" \
        "and what the tests use)" >&2
    exit 2
    ;;
esac

is_installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "setup: dpkg-query not found: this script supports Debian/Ubuntu only." >&2
    echo "setup: install these packages (or equivalents) yourself: ${PACKAGES[*]}" >&2
    exit 1
fi

# playwright-core (tests/web/package-lock.json) for the page's end-to-end test, never its browsers: the test
# drives Debian's chromium. Quiet when already installed; nothing in build mode.
install_web_tests() {
    local dir
    [[ $MODE == test ]] || return 0
    dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/tests/web"
    [[ -d $dir/node_modules/playwright-core ]] && return 0
    (cd "$dir" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error) ||
        { echo "setup: npm ci in tests/web failed" >&2; exit 1; }
}

missing=()
for p in "${PACKAGES[@]}"; do
    is_installed "$p" || missing+=("$p")
done
# Debian's nodejs comes without npm; NodeSource's includes it.
if [[ $MODE == test ]] && ! command -v npm >/dev/null 2>&1; then
    missing+=(npm)
fi
if ((${#missing[@]} == 0)); then
    install_web_tests
    exit 0
fi

echo "setup: installing ${missing[*]}"

if [[ $(id -u) -eq 0 ]]; then
    SUDO=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO=(sudo)
else
    echo "setup: not root and sudo needs a password; run this and retry:" >&2
    echo "sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi

log=$(mktemp "${TMPDIR:-/tmp}/ttt-setup.XXXXXX")
trap 'rm -f "$log"' EXIT

apt_update() {
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update >>"$log" 2>&1
}
apt_install() {
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y --no-install-recommends "${missing[@]}" >>"$log" 2>&1
}
fail() {
    cat "$log" >&2
    echo "setup: apt-get failed (output above)" >&2
    exit 1
}

lists_present() {
    compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null
}

if ! lists_present; then
    apt_update || fail
fi
if ! apt_install; then
    apt_update || fail
    apt_install || fail
fi

still_missing=()
for p in "${missing[@]}"; do
    is_installed "$p" || still_missing+=("$p")
done
if ((${#still_missing[@]} != 0)); then
    cat "$log" >&2
    echo "setup: still not installed after apt-get: ${still_missing[*]}" >&2
    exit 1
fi
install_web_tests
