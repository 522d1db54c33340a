# The Python package's tests (tests/python/test_*.py, pytest) on this build's libttt.so, run by ctest from the
# source root: bash tests/python/run.sh path/to/libttt.so [pytest arguments].
# They run Debian's python3 (TTT_PYTHON overrides it): a python found earlier on PATH may lack Debian's
# python3-pytest and python3-cffi, which scripts/setup.sh installs. Without them the test is skipped (exit 77)
# with a message saying what is missing. TTT_PRELOAD (set by a sanitizer build: the ASan runtime) is preloaded
# into python, which is not itself built with the sanitizers.
set -u
LIB=${1:?usage: $0 path/to/libttt.so [pytest arguments]}
shift
PYTHON=${TTT_PYTHON:-/usr/bin/python3}
if [[ ! -x $PYTHON ]]; then
    echo "SKIP: $PYTHON not found (Debian: apt-get install python3; or set TTT_PYTHON)"
    exit 77
fi
for module in pytest cffi; do
    if ! "$PYTHON" -c "import $module" 2>/dev/null; then
        echo "SKIP: $PYTHON has no $module (Debian: apt-get install python3-$module, or run scripts/setup.sh)"
        exit 77
    fi
done
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export TTT_LIBRARY=$LIB
export PYTHONPATH=$ROOT/python${PYTHONPATH:+:$PYTHONPATH}
export PYTHONDONTWRITEBYTECODE=1
if [[ -n ${TTT_PRELOAD:-} ]]; then
    # Python frees little at exit by design, so leak checking would report the interpreter, not the library
    # (the C tests check the library's leaks).
    export LD_PRELOAD=$TTT_PRELOAD
    export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
fi
exec "$PYTHON" -m pytest -q -p no:cacheprovider "$ROOT/tests/python" "$@"
