# scripts/check-signature.sh against the newest `Bench: N` trailer of git log: in a scratch repository, with a
# fake ttt that prints a fixed signature, a stale trailer fails (naming the commit and both numbers), a
# matching one passes, and no git, no trailer or a shallow clone without one skip the check. The ttt given
# is not run (a bench takes seconds): only the script is under test.
source "$(dirname "$0")/harness.bash"

command -v git >/dev/null || { echo "git not installed: skipped"; exit 77; }
SCRIPT=$(cd "$(dirname "$0")/../.." && pwd)/scripts/check-signature.sh
DIR=$(mktemp -d)
trap 'rm -f "$OUT" "$ERR"; rm -rf "$DIR"' EXIT
# A repository of our own, whatever the user's git configuration says (signing, hooks, default branch).
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com
export GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com GIT_CEILING_DIRECTORIES=$DIR

FAKE=$DIR/fake-ttt
printf '#!/bin/sh\necho "item ms nodes"\necho "signature 123456"\n' >"$FAKE"
chmod +x "$FAKE"

# sig DIR CODE PATTERN: runs the script in DIR on the fake binary (twice: both must agree), expects
# exit CODE and stderr matching PATTERN ('' for an empty stderr).
sig() {
    local dir=$1 code=$2 pattern=$3
    (cd "$dir" && bash "$SCRIPT" "$FAKE" "$FAKE") >"$OUT" 2>"$ERR"
    RC=$?
    if [[ $RC -ne $code ]]; then
        fail "check-signature in $dir exited $RC, expected $code"
    elif [[ -z $pattern ]] && [[ -s $ERR ]]; then
        fail "check-signature in $dir: expected nothing on stderr"
    elif [[ -n $pattern ]] && ! grep -Eq -- "$pattern" "$ERR"; then
        fail "check-signature in $dir: stderr does not match /$pattern/"
    else
        PASS=$((PASS + 1))
    fi
}

commit() { # commit REPO MESSAGE: commits a change to a file with the message
    echo "$2" >>"$1/file"
    git -C "$1" add file && git -C "$1" commit -q -m "$2"
}

# Outside git: nothing to compare with.
mkdir "$DIR/plain"
sig "$DIR/plain" 0 ''

REPO=$DIR/repo
git init -q "$REPO"
# No trailer anywhere yet.
commit "$REPO" "a first commit"
sig "$REPO" 0 ''
grep -q 'Bench: trailer' "$OUT" && fail "no trailer, yet one was compared" || PASS=$((PASS + 1))

# A matching trailer passes, and the line that says so names the commit.
commit "$REPO" $'search: faster\n\nBench: 123456'
good=$(git -C "$REPO" rev-parse --short HEAD)
sig "$REPO" 0 ''
grep -Eq "Bench: trailer of commit $good +signature 123456" "$OUT" && PASS=$((PASS + 1)) ||
    fail "the match is not reported: $(cat "$OUT")"

# A commit without a trailer after it leaves the newest trailer in force.
commit "$REPO" "docs: a typo"
sig "$REPO" 0 ''

# A stale trailer fails with one line naming the commit and both numbers.
commit "$REPO" $'search: prune more\n\nThe reasons.\n\nBench: 999999'
bad=$(git -C "$REPO" rev-parse --short HEAD)
sig "$REPO" 1 "^check-signature: commit $bad says Bench: 999999 but the build's signature is 123456\$"
[[ $(wc -l <"$ERR") -eq 1 ]] && PASS=$((PASS + 1)) || fail "more than one line on stderr: $(cat "$ERR")"

# With uncommitted changes the difference is reported, not failed (their commit will carry the trailer).
echo change >>"$REPO/file"
sig "$REPO" 0 "says Bench: 999999 .*uncommitted changes: quote Bench: 123456"
git -C "$REPO" checkout -q -- file

# The trailer key is case-insensitive, and a newer commit can put things right.
commit "$REPO" $'search: fix the count\n\nbench: 123456'
sig "$REPO" 0 ''

# A fresh clone checks the same; a shallow clone whose one commit has no trailer skips the check.
git clone -q "file://$REPO" "$DIR/clone"
sig "$DIR/clone" 0 ''
commit "$REPO" $'search: again\n\nBench: 777777'
git clone -q --depth 1 "file://$REPO" "$DIR/shallow"
sig "$DIR/shallow" 1 "says Bench: 777777 but the build's signature is 123456"
commit "$REPO" "docs: no trailer"
rm -rf "$DIR/shallow"
git clone -q --depth 1 "file://$REPO" "$DIR/shallow"
sig "$DIR/shallow" 0 ''

# The binaries still have to agree among themselves first.
printf '#!/bin/sh\necho "signature 1"\n' >"$DIR/other-ttt"
chmod +x "$DIR/other-ttt"
(cd "$DIR/plain" && bash "$SCRIPT" "$FAKE" "$DIR/other-ttt") >"$OUT" 2>"$ERR"
[[ $? -eq 1 ]] && grep -q 'signatures differ' "$ERR" && PASS=$((PASS + 1)) || fail "differing binaries pass"

finish
