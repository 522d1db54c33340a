# ttt arena from openings: --openings FILE (every line checked first, a bad one named by file:line),
# --opening-plies P (random, the same for the same --seed), --balanced (solved draws only, refused on boards the
# solver cannot settle), each opening played with both colours, and the openings in the JSON and the CSV.
source "$(dirname "$0")/harness.bash"
command -v jq >/dev/null || { echo "SKIP: no jq"; exit 77; }

DIR=$(mktemp -d)
trap 'rm -rf "$DIR" "$OUT" "$ERR"' EXIT

# Bad files and lines: one line on stderr naming the file and the line, exit 2.
expect_err "^ttt arena: --openings $DIR/none: No such file or directory$" arena --games 2 --openings "$DIR/none" random random
expect_err "^ttt arena: --openings $DIR: not a regular file$" arena --games 2 --openings "$DIR" random random
# bad_file NAME TEXT MESSAGE: an openings file NAME holding TEXT is refused with MESSAGE (a regex after
# "ttt arena: DIR/NAME"); EXTRA holds options for the run (--balanced).
bad_file() {
    printf "$2" >"$DIR/$1"
    expect_err "^ttt arena: $DIR/$1$3" arena --games 2 ${EXTRA:-} --openings "$DIR/$1" random random
}
bad_file empty '# nothing\n\n' ': no openings'
bad_file off 'b2\n\n# off the board:\nb2 d1\n' ":4: moves: move 2 'd1': column d is off the 3x3 board"
bad_file taken 'b2 a1\nb2 b2\n' ":2: moves: move 2 'b2': cell b2 is taken$"
bad_file over 'b2 a1 a2 c1 c2\n' ":1: opening 'b2 a1 a2 c1 c2' is over: X won$"
bad_file junk 'b2 q\n' ":1: moves: move 2 'q'"
EXTRA=--balanced bad_file unbalanced 'b2 a1\nb2 b1\n' ":2: opening 'b2 b1' is not balanced: a win for X$"

# Options that do not go together, and ranges.
expect_err "^ttt arena: --openings and --opening-plies: choose one$" arena --games 2 --openings "$DIR/taken" --opening-plies 2 random random
expect_err "^ttt arena: --balanced needs --opening-plies P or --openings FILE$" arena --games 2 --balanced random random
expect_err "^ttt arena: .*--opening-plies" arena --games 2 --opening-plies x random random
expect_err "^ttt arena: openings of 9 plies: expected 1 to 8 on this board$" arena --games 2 --opening-plies 9 random random
expect_err "^ttt arena: --balanced: the exact solver cannot settle openings of 9x9k5 quickly" arena --rules 9x9k5 --games 2 --opening-plies 2 --balanced random random

# Perfect players draw 3x3 from the empty board; from 'b2 b1' (O loses) each wins as X: both colours played it.
printf '# O on an edge loses\nb2 b1\n' >"$DIR/won"
expect 0 arena --games 6 --json --openings "$DIR/won" minimax minimax:seed=1
jq -e '.pairs[0] | .a_as_x == {"wins": 3, "losses": 0, "draws": 0} and .a_as_o == {"wins": 0, "losses": 3, "draws": 0}' "$OUT" >/dev/null &&
    PASS=$((PASS + 1)) || fail "both colours from the opening"
jq -e '.openings == ["b2 b1", "b2 b1", "b2 b1"]' "$OUT" >/dev/null && PASS=$((PASS + 1)) || fail "json openings"
expect 0 arena --games 6 --json minimax minimax:seed=1
jq -e '.pairs[0].draws == 6 and (has("openings") | not)' "$OUT" >/dev/null && PASS=$((PASS + 1)) || fail "no openings: draws"

# The text says where the openings come from; the CSV lists them after the pairs.
expect_out 0 "^Openings: 1 from $DIR/won, each with both colours$" arena --games 2 --openings "$DIR/won" minimax minimax
expect 0 arena --games 3 --csv --openings "$DIR/won" minimax minimax
grep -qx 'games,opening' "$OUT" && grep -qx '1-2,"b2 b1"' "$OUT" && grep -qx '3,"b2 b1"' "$OUT" &&
    PASS=$((PASS + 1)) || fail "csv openings"

# Random openings: the same seed gives the same openings and results; another seed other openings.
ARGS=(--rules 5x5k4 --games 10 --opening-plies 3 random heuristic)
expect_out 0 '^Openings: 5 random of 3 plies, each with both colours$' arena "${ARGS[@]}" --seed 4
expect 0 arena --json "${ARGS[@]}" --seed 4
cp "$OUT" "$DIR/a.json"
expect 0 arena --json --jobs 2 "${ARGS[@]}" --seed 4
cmp -s "$OUT" "$DIR/a.json" && PASS=$((PASS + 1)) || fail "same seed, other results"
jq -e '.openings | length == 5 and all(split(" ") | length == 3)' "$OUT" >/dev/null && PASS=$((PASS + 1)) ||
    fail "five openings of three moves"
expect 0 arena --json "${ARGS[@]}" --seed 5
if jq -e --slurpfile a "$DIR/a.json" '.openings == $a[0].openings' "$OUT" >/dev/null; then
    fail "another seed, the same openings"
else PASS=$((PASS + 1)); fi

# --balanced on 3x3: every opening of two plies a draw (O beside X's centre loses: never drawn).
expect 0 arena --games 40 --json --opening-plies 2 --balanced --seed 2 random random
jq -e '.openings | length == 20 and all(test("^b2 [abc]2$|^b2 b[13]$") | not)' "$OUT" >/dev/null &&
    PASS=$((PASS + 1)) || fail "balanced openings"

finish
