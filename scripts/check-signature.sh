#!/usr/bin/env bash
# Runs `ttt bench` with each binary given (a word list: "ENV=... path" is allowed) and checks that every
# signature is the same. Prints one line per binary; exits 1 when they differ.
#
# Then, in a git checkout (of the current directory) whose history has a `Bench: N` trailer, checks that the
# newest one quotes the signature the binaries print: a commit that changes search, playouts or move
# generation carries the new signature as a trailer, so a stale trailer means a change that forgot to say
# so (as Stockfish's CI checks). Outside git, or with no trailer in the history (a shallow clone may not
# reach one), this check is skipped without a word. With uncommitted changes in the work tree a difference
# is only reported (the change under way may not be committed with its trailer yet), not failed.
set -euo pipefail
first=""
status=0
for cmd in "$@"; do
    sig=$(env $cmd bench | awk '/^signature /{print $2}')
    if [[ -z "$sig" ]]; then
        echo "check-signature: '$cmd bench' printed no signature" >&2
        exit 1
    fi
    printf '  %-60s signature %s\n' "${cmd##* }" "$sig"
    if [[ -z "$first" ]]; then
        first=$sig
    elif [[ "$sig" != "$first" ]]; then
        status=1
    fi
done
if ((status)); then
    echo "check-signature: the signatures differ" >&2
    exit $status
fi

# The newest commit with a Bench: trailer, as "HASH N" (its first trailer's first number), or nothing.
newest_bench() {
    git log --format='%H %(trailers:key=Bench,valueonly,separator=%x20)' 2>/dev/null |
        awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) { print $1, $i; exit } }'
}

if [[ -n "$first" ]] && command -v git >/dev/null &&
    [[ "$(git rev-parse --is-inside-work-tree 2>/dev/null)" == true ]]; then
    read -r commit bench < <(newest_bench || true) || true
    if [[ -n "${commit:-}" ]]; then
        short=$(git rev-parse --short "$commit")
        printf '  %-60s signature %s\n' "Bench: trailer of commit $short" "$bench"
        if [[ "$bench" != "$first" ]]; then
            msg="check-signature: commit $short says Bench: $bench but the build's signature is $first"
            if git diff --quiet HEAD -- 2>/dev/null; then
                echo "$msg" >&2
                status=1
            else
                echo "$msg (uncommitted changes: quote Bench: $first in their commit)" >&2
            fi
        fi
    fi
fi
exit $status
