# ttt arena --mpi deals the games out by number to the ranks and sums the records: the JSON and the text are
# those of one process with the same seed, at 2, 3 and 4 ranks (games with an odd count per rank too).
source "$(dirname "$0")/mpi.bash"
WANT=$(mktemp)
WANT_TEXT=$(mktemp)
trap 'rm -f "$OUT" "$ERR" "$WANT" "$WANT_TEXT" "$WANT_TEXT.openings"' EXIT
ARGS=(--rules 4x4k3 --games 15 --seed 77 minimax:depth=2 random mcts:iterations=100)

"$TTT" arena "${ARGS[@]}" --jobs 1 --json >"$WANT"
"$TTT" arena "${ARGS[@]}" --jobs 1 >"$WANT_TEXT"
for n in 2 3 4; do
    mpi "$n" arena --mpi --json "${ARGS[@]}"
    [[ $RC -eq 0 ]] && cmp -s "$WANT" "$OUT" && PASS=$((PASS + 1)) ||
        fail "mpirun -np $n ttt arena --mpi --json: exit $RC, not the one-process JSON"
    mpi "$n" arena --mpi "${ARGS[@]}"
    [[ $RC -eq 0 ]] && cmp -s "$WANT_TEXT" "$OUT" && PASS=$((PASS + 1)) ||
        fail "mpirun -np $n ttt arena --mpi: exit $RC, not the one-process ranking"
done
# Openings: every rank plays the same ones, random (drawn from the seed) or from a file.
printf 'd4 c3\n# a comment\na1 g7 b2\n' >"$WANT_TEXT.openings"
for OPENINGS in "--opening-plies 3" "--openings $WANT_TEXT.openings"; do
    OARGS=(--rules 7x7k5 --games 6 --seed 5 $OPENINGS random heuristic)
    "$TTT" arena "${OARGS[@]}" --jobs 1 --json >"$WANT"
    mpi 3 arena --mpi --json "${OARGS[@]}"
    [[ $RC -eq 0 ]] && cmp -s "$WANT" "$OUT" && PASS=$((PASS + 1)) ||
        fail "mpirun -np 3 ttt arena --mpi --json $OPENINGS: exit $RC, not the one-process JSON"
done
# A bad spec: one line, from rank 0 only.
mpi 3 arena --mpi --games 2 minimax nosuchengine
[[ $RC -ne 0 && $(grep -c '^ttt arena' "$ERR") -eq 1 ]] && PASS=$((PASS + 1)) ||
    fail "a bad spec under mpirun: exit $RC, $(grep -c '^ttt arena' "$ERR") error lines"
finish
