# Command tests for certificates: `ttt solve --certificate FILE` writes a proof that `ttt verify FILE` checks
# (the 4x5 misère sets whose proofs take seconds, left out of tests/test_verify.c), and a damaged certificate
# gets exit 1 and one line naming the first bad node.
source "$(dirname "$0")/harness.bash"

DIR=$(mktemp -d)
trap 'rm -f "$OUT" "$ERR"; rm -rf "$DIR"' EXIT

for rules in 3x3:draw 4x5-misere:draw 4x5k5-misere:draw 4x4k3:win; do
    r=${rules%%:*} value=${rules##*:}
    expect_out 0 "X to move: $value" solve --value --rules "$r" --certificate "$DIR/$r.cert"
    grep -q "certificate $DIR/$r.cert: [0-9,]* nodes" "$ERR" || fail "solve --certificate $r: no summary on stderr"
    expect_out 0 "valid: $r, X to move \(0 stones\): $value" verify "$DIR/$r.cert"
    expect_out 0 "\"valid\":true,\"rules\":\"$r\",\"to_move\":\"X\",\"value\":\"$value\"" verify --json "$DIR/$r.cert"
done

# Every move valued (no --value) writes the same proof of the value.
expect_out 0 'X to move: draw' solve --rules 3x3 --certificate "$DIR/all.cert"
expect_out 0 'valid: 3x3' verify "$DIR/all.cert"

# From a position: its stones in the header, the value for the side to move.
expect_out 0 'O to move: draw' solve --value --certificate "$DIR/pos.cert" x.o/.x./...
expect_out 0 'valid: 3x3, O to move \(3 stones\): draw' verify "$DIR/pos.cert"
expect_out 0 'O to move: win' solve --value --rules 4x4k3-misere --moves a1 --certificate "$DIR/pos1.cert"
expect_out 0 'valid: 4x4k3-misere, O to move \(1 stone\): win' verify "$DIR/pos1.cert"

# A win through a cell dead for the winner's lines (e1 blocks O's windows only): the draw prover once left
# such moves out, called the position a draw, and the writer found no move for that draw.
P7=...o..o/...o.ox/..oxox./xoxxo.o/..xx..o/..xx.../.xoox..
expect_out 0 'X to move: win' solve --value --rules 7x7k5 --certificate "$DIR/dead.cert" "$P7"
expect_out 0 'valid: 7x7k5, X to move \(24 stones\): win' verify "$DIR/dead.cert"

# A damaged certificate: the leaf after X's first move (a pairing) holds one pair (byte 24: after the 20-byte
# header, the half's byte, X's MOVE and its cell, the PAIRING tag).
cp "$DIR/3x3.cert" "$DIR/bad.cert"
printf '\x01' | dd of="$DIR/bad.cert" bs=1 seek=24 conv=notrunc status=none
expect 1 verify "$DIR/bad.cert"
grep -Eq '^ttt verify: .*bad.cert: invalid: node 2 \(X does not lose, after [a-c][1-3]\): .*holds no pair' "$ERR" ||
    fail "verify bad.cert: no line naming the bad node"
[[ $(wc -l <"$ERR") -eq 1 ]] || fail "verify bad.cert: more than one line on stderr"

# Bad use: exit 2 and one line.
expect_err 'one certificate file expected' verify
expect_err 'no --time or --nodes' solve --certificate "$DIR/x.cert" --time 10
expect 2 verify "$DIR/missing.cert"
grep -q 'cannot open' "$ERR" || fail "verify of a missing file: no reason"
head -c 40 /dev/urandom >"$DIR/junk.cert"
expect 1 verify "$DIR/junk.cert"
grep -q 'not a ttt certificate' "$ERR" || fail "verify of junk: no reason"
# A version 1 certificate: refused with one line that says how to get a new one.
{ printf 'TTTCERT1'; head -c 40 /dev/zero; } >"$DIR/v1.cert"
expect 1 verify "$DIR/v1.cert"
grep -q 'a version 1 certificate.*write it again' "$ERR" || fail "verify of a version 1 file: no reason"

# Boards over 64 cells (the start's stones in more than 8 bytes), and from 256 cells on two-byte cells.
for rules in 9x9k3:win 12x12k8:draw 16x16k3:win; do
    r=${rules%%:*} value=${rules##*:}
    expect_out 0 "X to move: $value" solve --value --rules "$r" --certificate "$DIR/$r.cert"
    expect_out 0 "valid: $r, X to move \(0 stones\): $value" verify "$DIR/$r.cert"
done

# A certificate path that cannot be written is refused before the search (nothing solved, nothing printed);
# an existing file is left as it is until the proof is there to replace it.
expect_err "^ttt solve: cannot write the certificate $DIR/none/c\.cert: No such file or directory$" \
    solve --rules 5x5k4 --value --certificate "$DIR/none/c.cert"
[[ ! -s $OUT ]] && PASS=$((PASS + 1)) || fail "an unwritable certificate: the search ran: $(cat "$OUT")"
echo keep >"$DIR/kept"
expect_err "cannot write the checkpoint" solve --rules 5x5k4 --value --certificate "$DIR/kept" \
    --checkpoint "$DIR/none/ck"
[[ $(cat "$DIR/kept") == keep ]] && PASS=$((PASS + 1)) || fail "a refused solve changed the certificate's file"
finish
