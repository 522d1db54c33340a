# ttt verify on files that are no certificate, or not the one the reader thinks: one line on stderr saying
# what is wrong (exit 2 for what is not a file to check, 1 for a file that proves nothing), never a crash or a
# hang; a certificate read from a pipe; and the start it proves named, in text and in JSON.
source "$(dirname "$0")/harness.bash"

DIR=$(mktemp -d)
trap 'rm -f "$OUT" "$ERR"; rm -rf "$DIR"' EXIT

# one_line WHAT PATTERN: exactly one line on stderr, matching PATTERN.
one_line() {
    if [[ $(wc -l <"$ERR") -eq 1 ]] && grep -Eq -- "$2" "$ERR"; then
        PASS=$((PASS + 1))
    else
        fail "$1: expected one line on stderr matching /$2/"
    fi
}

expect 0 solve --value --rules 4x4k3 --certificate "$DIR/good.cert"
expect 0 solve --value --certificate "$DIR/pos.cert" x.o/.x./...

# A directory is no certificate (it opens, and fails only at its first read).
expect_err "$DIR is a directory, not a certificate" verify "$DIR"

# Files that prove nothing: empty, zeros, cut short at every length of the header, a newer format.
: >"$DIR/empty"
expect 1 verify "$DIR/empty" && one_line "an empty file" 'invalid: certificate: shorter than its header'
expect 1 verify /dev/zero && one_line "/dev/zero" 'invalid: not a ttt certificate'
expect 1 verify /dev/null && one_line "/dev/null" 'invalid: certificate: shorter than its header'
for n in 8 15 16 17 20 21 24; do
    head -c "$n" "$DIR/good.cert" >"$DIR/cut"
    expect 1 verify "$DIR/cut" && one_line "cut at $n bytes" 'invalid: '
done
{ printf 'TTTCERT4'; tail -c +9 "$DIR/good.cert"; } >"$DIR/v4.cert"
expect 1 verify "$DIR/v4.cert" &&
    one_line "a version 4 file" 'invalid: a certificate of another version \(TTTCERT4\): this ttt reads TTTCERT3'
# The header's node count in the trailer as large as it gets, and rules of a 21x21 board.
cp "$DIR/good.cert" "$DIR/count.cert"
printf '\377\377\377\377\377\377\377\377' |
    dd of="$DIR/count.cert" bs=1 seek=$(($(stat -c %s "$DIR/good.cert") - 8)) conv=notrunc status=none
expect 1 verify "$DIR/count.cert" && one_line "a node count of 2^64 - 1" 'invalid: certificate: bad trailer'
cp "$DIR/good.cert" "$DIR/big.cert"
printf '\025\025' | dd of="$DIR/big.cert" bs=1 seek=8 conv=notrunc status=none
expect 1 verify "$DIR/big.cert" && one_line "a 21x21 header" 'invalid: certificate header: bad rules'

# Streamed from a pipe, as ttt solve writes it.
expect_out 0 'valid: 4x4k3, X to move \(0 stones\): win$' verify <(cat "$DIR/good.cert")

# Its figures grouped by thousands, as ttt solve --certificate prints the same ones.
expect 0 solve --value --rules 5x5k4 --certificate "$DIR/5x5k4.cert"
G='[0-9]{1,3}(,[0-9]{3})+' # over a thousand: 5x5k4's proof has thousands of nodes and bytes
expect_out 0 "^$G nodes checked \\(.*\\), $G bytes, in " verify "$DIR/5x5k4.cert"

# The start it proves: named when it is not the empty board, and always in JSON.
expect_out 0 'valid: 3x3, O to move \(3 stones\): draw, from x\.o/\.x\./\.\.\.$' verify "$DIR/pos.cert"
expect_out 0 '"value":"draw","position":"x\.o/\.x\./\.\.\."' verify --json "$DIR/pos.cert"
expect_out 0 '"value":"win","position":"\.\.\.\./\.\.\.\./\.\.\.\./\.\.\.\."' verify --json "$DIR/good.cert"

finish
