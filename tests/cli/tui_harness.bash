# tests/cli/tui_harness.bash - what the terminal UI's tests (tests/cli/tui*.sh) share: each program in its own
# tmux server, screens captured and polled with a generous deadline (a loaded machine only makes them slower).
# Sourced with the path of ttt as $1; skips the test (exit 77) when tmux is missing.
set -u
TTT=$(realpath "${1:?usage: $0 path/to/ttt}")
if ! command -v tmux >/dev/null 2>&1; then
    echo "skipped: tmux is not installed (scripts/setup.sh installs it)"
    exit 77
fi
RUN=0 # each program gets its own tmux server (socket ttt-test-PID-RUN): no waiting for the last one to exit
SOCK=ttt-test-$$-0
PASS=0
FAIL=0
DEADLINE=30 # seconds to wait for a screen, at most
WIN_W=80    # the window's size for the next start or start_env
WIN_H=24
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
trap 'tm kill-server 2>/dev/null' EXIT

# new_server: ends the last program's tmux server and picks a fresh socket.
new_server() {
    tm kill-server 2>/dev/null
    RUN=$((RUN + 1))
    SOCK=ttt-test-$$-$RUN
}

# start ARGS...: runs `ttt play ARGS` in a fresh window (80x24 unless WIN_W and WIN_H say otherwise); when it
# exits the shell prints its status and whether the terminal is back in its normal modes (canonical input, echo).
start() {
    new_server
    local cmd="$TTT play $*"
    tm new-session -d -x "$WIN_W" -y "$WIN_H" "$cmd; echo EXITED rc=\$?; stty -a | tr ' ;' '\n\n' | grep -xE -- '-?(icanon|echo)' | paste -sd' ' | sed 's/^/TTY /'; sleep 600"
    NAME="ttt play $*"
}

screen() { tm capture-pane -p ${1:+"$1"}; }

fail() {
    FAIL=$((FAIL + 1))
    echo "FAIL: $NAME: $*"
    screen | sed 's/^/  | /'
}

# wait_for REGEX [what]: polls the screen until a line matches the extended regex.
wait_for() {
    local end=$((SECONDS + DEADLINE))
    while ((SECONDS < end)); do
        if screen | grep -Eq -- "$1"; then
            PASS=$((PASS + 1))
            return 0
        fi
        tm has-session 2>/dev/null || break
        sleep 0.1
    done
    fail "no line matches /$1/ after ${DEADLINE}s"
    return 1
}

# absent REGEX: no line on the screen matches now.
absent() {
    if screen | grep -Eq -- "$1"; then
        fail "a line matches /$1/"
        return 1
    fi
    PASS=$((PASS + 1))
}

keys() { tm send-keys "$@"; }

# restored: the program exited 0, the alternate screen is gone and the terminal modes are back.
restored() {
    wait_for '^EXITED rc=0' || return 1
    wait_for '^TTY icanon echo$'
    if [[ $(tm display -p '#{alternate_on}') != 0 ]]; then
        fail "the alternate screen is still on"
    else
        PASS=$((PASS + 1))
    fi
    absent 'score:'
}

# start_env COMMAND: runs a whole command line (with its environment) in a fresh window, as start does.
start_env() { new_server; tm new-session -d -x "$WIN_W" -y "$WIN_H" "$1; echo EXITED rc=\$?; sleep 600"; NAME=$1; }
