# Command tests for `ttt solve` when the draw prover's table fills: one line on stderr says so, once, and names
# --tt; a larger table on the same search says nothing. The prover's table is --tt MiB and at least 64 (each
# thread's); 7x8k5 with a budget of 13M nodes gives it about 6.5M, which fill 64 MiB (12M do, 10M do not).
source "$(dirname "$0")/harness.bash"

NOTICE="^ttt solve: the draw prover's table is full: what it cannot keep is searched again; a larger --tt keeps more$"

expect_out 0 'unknown \(not solved within the budget' solve --rules 7x8k5 --nodes 13000000 --tt 1
[[ $(grep -c "table is full" "$ERR") -eq 1 ]] && grep -q "$NOTICE" "$ERR" && PASS=$((PASS + 1)) ||
    fail "--tt 1: not one notice that the prover's table is full"

expect_out 0 'unknown \(not solved within the budget' solve --rules 7x8k5 --nodes 13000000 --tt 512
grep -q "table is full" "$ERR" && fail "--tt 512: a notice that the prover's table is full" || PASS=$((PASS + 1))

finish
