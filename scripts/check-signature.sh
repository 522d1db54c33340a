#!/usr/bin/env bash
# Runs `ttt bench` with each binary given (a word list: "ENV=... path" is allowed) and checks that every
# signature is the same. Prints one line per binary; exits 1 when they differ.
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
fi
exit $status
