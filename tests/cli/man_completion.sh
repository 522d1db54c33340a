# The man page ttt(1) and the bash and zsh completions: `cmake --install` puts them where man, bash-completion
# and zsh look (share/man/man1, gzipped; share/bash-completion/completions, share/zsh/site-functions); the page
# renders without a warning (man -l) and holds every command, every long option of every command's --help and
# every engine; all three are what cmake/docs.sh writes from this very binary (they cannot lag behind it); the
# bash completion, sourced in bash with COMP_WORDS set, completes `ttt so` to solve, `ttt move --engine mc` to
# mcts, and every command's long options, levels, rules and actions; zsh's compinit takes the zsh one for ttt,
# and run with words and CURRENT set (compadd standing in, matching as zsh does) it offers the same.
source "$(dirname "$0")/harness.bash"

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(cd "$(dirname "$TTT")" && pwd)
DIR=$(mktemp -d)
trap 'rm -f "$OUT" "$ERR"; rm -rf "$DIR"' EXIT
PREFIX=$DIR/prefix
export XDG_DATA_HOME=$DIR/data

cmake --install "$BUILD" --prefix "$PREFIX" >"$OUT" 2>"$ERR" && PASS=$((PASS + 1)) || fail "cmake --install"
PAGE_GZ=$PREFIX/share/man/man1/ttt.1.gz
COMPLETION=$PREFIX/share/bash-completion/completions/ttt
ZSH_COMPLETION=$PREFIX/share/zsh/site-functions/_ttt
for f in "$PAGE_GZ" "$COMPLETION" "$ZSH_COMPLETION"; do
    [[ -s $f ]] && PASS=$((PASS + 1)) || fail "not installed: $f"
done
# The page is installed compressed (Debian policy); the rest of the test reads it uncompressed.
PAGE=$DIR/installed.1
gzip -dc "$PAGE_GZ" >"$PAGE" 2>"$ERR" && PASS=$((PASS + 1)) || fail "the installed page is not gzip: $(cat "$ERR")"

# The installed files are what the generator writes from this binary now.
version=$("$TTT" --version | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -1)
sh "$ROOT/cmake/docs.sh" "$TTT" "$version" "$DIR/ttt.1" "$DIR/ttt.bash" "$DIR/_ttt" >"$OUT" 2>"$ERR"
cmp -s "$DIR/ttt.1" "$PAGE" && PASS=$((PASS + 1)) || fail "the installed page is not what cmake/docs.sh writes now"
cmp -s "$DIR/ttt.bash" "$COMPLETION" && PASS=$((PASS + 1)) ||
    fail "the installed completion is not what cmake/docs.sh writes now"
cmp -s "$DIR/_ttt" "$ZSH_COMPLETION" && PASS=$((PASS + 1)) ||
    fail "the installed zsh completion is not what cmake/docs.sh writes now"

commands=$("$TTT" help | awk '$0 == "commands:" { f = 1; next } f && /^  [a-z]/ { print $1; next } f { f = 0 }')
[[ $(wc -w <<<"$commands") -ge 10 ]] && PASS=$((PASS + 1)) || fail "ttt help lists only: $commands"

# The page renders without a warning, through man when it is there (man-db), else groff.
if command -v man >/dev/null; then
    LC_ALL=C.UTF-8 MANWIDTH=100 man --warnings -l "$PAGE" >"$DIR/page.txt" 2>"$ERR"
    RC=$?
elif command -v groff >/dev/null; then
    groff -man -Tutf8 -ww "$PAGE" >"$DIR/page.txt" 2>"$ERR"
    RC=$?
else
    echo "SKIP: neither man nor groff to render the page (Debian: apt-get install man-db)"
    exit 77
fi
[[ $RC -eq 0 && ! -s $ERR ]] && PASS=$((PASS + 1)) || fail "rendering the page: exit $RC"
grep -q '^NAME' "$DIR/page.txt" && grep -q 'ttt - tic-tac-toe' "$DIR/page.txt" && PASS=$((PASS + 1)) ||
    fail "the page has no NAME section"
missing=""
for cmd in $commands; do
    grep -q "^   ttt $cmd\$" "$DIR/page.txt" || missing="$missing ttt-$cmd"
    for opt in $("$TTT" "$cmd" --help | grep -E '^ +-' | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
        grep -q -- "$opt" "$DIR/page.txt" || missing="$missing $cmd:$opt"
    done
done
for engine in $("$TTT" engines | grep -E '^[a-z]+$'); do
    grep -q "^       $engine\$" "$DIR/page.txt" || missing="$missing engine:$engine"
done
[[ -z $missing ]] && PASS=$((PASS + 1)) || fail "the rendered page lacks:$missing"
# Every option line of every --help is an item of its own: its forms and metavariable at the start of a line.
items=$'\n'$(grep -E '^       -' "$DIR/page.txt" | sed 's/^       //')$'\n'
missing=""
for cmd in $commands; do
    while read -r term; do
        [[ $items == *$'\n'"$term"[$' \n']* ]] || missing="$missing '$cmd $term'"
    done < <("$TTT" "$cmd" --help | grep -oE -- '^ +-[^ ,]+(, -[^ ,]+)*( [^ ]+)?' | sed 's/^ *//')
done
[[ -z $missing ]] && PASS=$((PASS + 1)) || fail "options that are not items of their own on the page:$missing"
# Minus signs stay minus signs (an option copied from the page works).
grep -q -- '--rules R' "$DIR/page.txt" && PASS=$((PASS + 1)) || fail "the page's options are not ASCII '--rules'"

# complete WORDS...: the completion's answers for the last word, one line, in a bash that sourced it.
complete_words() {
    bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"
        COMP_POINT=${#COMP_LINE}; _ttt; echo "${COMPREPLY[*]}"' complete "$COMPLETION" "$@" 2>&1
}
expect_from() { # expect_from FUNCTION "EXPECTED" WORDS...: FUNCTION WORDS... prints EXPECTED
    local how=$1 expected=$2 got
    shift 2
    got=$("$how" "$@")
    [[ $got == "$expected" ]] && PASS=$((PASS + 1)) || fail "$how '$*': '$got', expected '$expected'"
}
expect_completion() { expect_from complete_words "$@"; }
expect_completion "solve" ttt so
expect_completion "mcts" ttt move --engine mc
expect_completion "mcts" ttt move -e mc
expect_completion "hard" ttt play --level h
expect_completion "human" ttt play --o hu
expect_completion "minimax" ttt arena --games 10 mcts mi
expect_completion "build" ttt table b
expect_completion "export" ttt memory e
expect_completion "x o both" ttt train --as ""
expect_completion "--json" ttt solve --js
expect_completion "show solve serve" ttt s
expect_completion "solve" ttt help so
got=$(complete_words ttt solve --rules 4)
[[ " $got " == *" 4x4 "* ]] && PASS=$((PASS + 1)) || fail "completing 'ttt solve --rules 4': '$got', no 4x4"
got=$(complete_words ttt play --x "")
for name in $("$TTT" engines | grep -E '^[a-z]+$') easy perfect human; do
    [[ " $got " == *" $name "* ]] || fail "completing 'ttt play --x': '$got', no $name"
done
missing=""
for cmd in $commands; do
    got=" $(complete_words ttt "$cmd" --) "
    for opt in $("$TTT" "$cmd" --help | grep -E '^ +-' | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
        [[ $got == *" $opt "* ]] || missing="$missing $cmd:$opt"
    done
done
[[ -z $missing ]] && PASS=$((PASS + 1)) || fail "the completion lacks:$missing"
# The completion registers itself for ttt.
bash -c 'source "$1"; complete -p ttt' complete "$COMPLETION" >"$OUT" 2>"$ERR"
grep -q -- '-F _ttt ttt' "$OUT" && PASS=$((PASS + 1)) || fail "the completion does not register _ttt for ttt"

if ! command -v zsh >/dev/null; then
    echo "no zsh (Debian: zsh): its completion is not run"
    finish
    exit
fi
# compinit, with the installed directory on fpath, completes ttt with _ttt.
got=$(zsh -f -c 'fpath=("$1" $fpath); autoload -U compinit; compinit -u -D; print -r -- $_comps[ttt]' zsh \
    "$(dirname "$ZSH_COMPLETION")" 2>&1)
[[ $got == _ttt ]] && PASS=$((PASS + 1)) || fail "zsh's compinit does not take _ttt for ttt: '$got'"
# zsh_complete WORDS...: what the zsh completion offers for the last word that begins with it (as compadd matches).
zsh_complete() {
    zsh -f -c 'compadd() { [[ $1 == -- ]] && shift; local w; for w; do [[ $w == "$PREFIX"* ]] && out+=("$w"); done }
        _files() { out+=(FILES) }
        file=$1; shift; words=("$@"); CURRENT=$#; PREFIX=${words[CURRENT]}; out=()
        source "$file"; print -r -- "${out[*]}"' zsh "$ZSH_COMPLETION" "$@" 2>&1
}
expect_zsh() { expect_from zsh_complete "$@"; }
expect_zsh "solve" ttt so
expect_zsh "mcts" ttt move --engine mc
expect_zsh "hard" ttt play --level h
expect_zsh "human" ttt play --o hu
expect_zsh "build" ttt table b
expect_zsh "x o both" ttt train --as ""
expect_zsh "--json" ttt solve --js
expect_zsh "FILES" ttt history --db ""
expect_zsh "minimax" ttt arena --games 10 mcts mi
finish
