# Command tests for `ttt solve` while the draw prover proves the attacker's first moves one by one (k=5 boards
# from the empty board): a run that stops (--nodes) or ends lists every first move, and a checkpoint counts
# those refuted. (Its live line and Ctrl-C: tests/cli/solve_progress.sh.)
source "$(dirname "$0")/harness.bash"

DIR=$(mktemp -d)
trap 'rm -f "$OUT" "$ERR"; rm -rf "$DIR"' EXIT

# summary FILE EMPTY FIRSTS: FILE holds the prover's report of FIRSTS first moves up to symmetry, one line each,
# which stand for the EMPTY first moves of the board (their orbits add up to it), the counts of its head line
# agreeing with the lines. Sets REFUTED to the count of refuted first moves.
summary() {
    local file=$1 empty=$2 firsts=$3
    tr -d '\r' <"$file" >"$DIR/plain"
    local head moves
    head=$(grep -aE "^the draw prover's first moves of [XO], up to symmetry: [0-9]+ refuted, [0-9]+ open(, [0-9]+ winning)?(; [0-9,]+ positions? proven so far)?$" "$DIR/plain")
    moves=$(grep -aE '^  [a-h][1-8] +(open|refuted|wins) +[0-9,]+ nodes( \([0-9]+ first moves by symmetry\))?$' "$DIR/plain")
    REFUTED=$(sed -E 's/.*: ([0-9]+) refuted.*/\1/' <<<"$head")
    REFUTED=${REFUTED:--1}
    local open orbits distinct
    open=$(sed -E 's/.* refuted, ([0-9]+) open.*/\1/' <<<"$head")
    orbits=$(awk '{ n = 1 } / by symmetry\)$/ { n = substr($(NF - 4), 2) } { s += n } END { print s + 0 }' <<<"$moves")
    distinct=$(awk '{ print $1 }' <<<"$moves" | sort -u | wc -l)
    if [[ -n $head && $distinct -eq $firsts && $orbits -eq $empty && $(grep -c ' refuted ' <<<"$moves") -eq $REFUTED &&
        $(grep -c ' open ' <<<"$moves") -eq $open ]]; then
        PASS=$((PASS + 1))
    else
        fail "$file: not a report of $firsts first moves standing for $empty (orbits $orbits, distinct $distinct): $(cat "$DIR/plain")"
    fi
}

# A node budget (deterministic) stops 7x7k5's proof after a few of its 10 first moves: what was refuted, what is
# open, each with its nodes, every one of the 49 first moves covered by the 10 and their images.
expect_out 0 'unknown \(not solved within the budget' solve --rules 7x7k5 --nodes 300000
summary "$OUT" 49 10
[[ $REFUTED -ge 1 && $REFUTED -lt 10 ]] && PASS=$((PASS + 1)) || fail "7x7k5 --nodes 300000: $REFUTED of 10 refuted"
# with moves left open, the proof's size so far: the positions its table holds proven
grep -qE '[0-9] open; [1-9][0-9,]* positions proven so far$' "$OUT" && PASS=$((PASS + 1)) ||
    fail "7x7k5 --nodes 300000: no proof size: $(cat "$OUT")"
# The same in JSON: proof.first_moves, their orbits adding up to the empty cells, the nodes spent on the refuted.
expect 0 solve --rules 7x7k5 --nodes 300000 --json
jq -e --argjson r "$REFUTED" '.proof.side == "O" and (.proof.first_moves | length) == 10 and
    ([.proof.first_moves[].orbit] | add) == 49 and ([.proof.first_moves[] | select(.state == "refuted")] | length) == $r and
    all(.proof.first_moves[] | select(.state == "refuted"); .nodes > 0) and .proof.proven > 0' "$OUT" >/dev/null &&
    PASS=$((PASS + 1)) || fail "7x7k5 --json: no proof report of 10 first moves: $(cat "$OUT")"
# A proof that ends lists them too, every one refuted (7x7k5 is a draw).
expect_out 0 '^7x7k5, X to move: draw' solve --rules 7x7k5 --value
summary "$OUT" 49 10
[[ $REFUTED -eq 10 ]] && PASS=$((PASS + 1)) || fail "7x7k5 --value: $REFUTED of 10 refuted at the end"
# A checkpoint counts the first moves the prover refuted, as the report does (none valued yet).
expect 0 solve --rules 7x7k5 --value --checkpoint "$DIR/7.ckpt" --nodes 300000
summary "$OUT" 49 10
grep -q "checkpoint $DIR/7.ckpt: 0 of 49 first moves settled, $REFUTED first moves\? refuted by the draw prover, " "$ERR" &&
    PASS=$((PASS + 1)) || fail "checkpoint: not the $REFUTED first moves refuted: $(cat "$ERR")"
expect 0 solve --rules 7x7k5 --value --resume "$DIR/7.ckpt" --nodes 1
grep -q "resuming from $DIR/7.ckpt: 0 of 49 first moves settled, $REFUTED first moves\? refuted by the draw prover" "$ERR" &&
    PASS=$((PASS + 1)) || fail "--resume: not the $REFUTED first moves refuted: $(cat "$ERR")"

finish
