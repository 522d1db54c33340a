# What the commands print for people reads right: a noun agrees with its number ("1 draw", "1 game learned"),
# big counts have their digits grouped (5,478), durations carry a unit chosen by their size ("21.7 s", "4 ms"),
# and an error names a move once ("move 2 'z1': ...").
source "$(dirname "$0")/harness.bash"
DIR=$(mktemp -d)
trap 'rm -rf "$OUT" "$ERR" "$DIR"' EXIT

# plurals
expect_out 0 '^minimax: 0 wins, minimax#2: 0 wins, 1 draw$' play --x minimax --o minimax --games 1 --no-record
expect_out 0 ': 1 game: (1 win, 0 draws, 0 losses|0 wins, 1 draw, 0 losses|0 wins, 0 draws, 1 loss) \([0-9.]+ (ms|s), [0-9,]+ games/s\)$' train --against random --games 1 --db "$DIR/t.db"
expect_out 0 '^memory: 1 game learned for 3x3, 1 sequence, [0-9]+ prefixes$' train --against random --games 0 --db "$DIR/t.db"
expect_out 0 '^3x3: 1 game learned \(X won [01], O won [01], drawn [01]\), 1 sequence, ' memory stats --db "$DIR/t.db"
expect_out 0 'integrity ok, 0 games recorded$' memory stats --db "$DIR/t.db"
"$TTT" play --x minimax --o minimax --games 1 --record --db "$DIR/t.db" >/dev/null
expect_out 0 'integrity ok, 1 game recorded$' memory stats --db "$DIR/t.db"
"$TTT" memory export --db "$DIR/t.db" >"$DIR/e.json"
expect_out 0 '^imported 1 sequence, 1 game, into ' memory import "$DIR/e.json" --db "$DIR/u.db"

# digit groups and durations
expect_out 0 '^all +5,478 +958 +626 +316 +16 \| +765 ' count
expect_out 0 '^up to symmetry, games split: X won 13,957, O won 8,005, drawn 4,868$' count
expect_out 0 '^counted in [0-9.]+ (ms|s)$' count
expect_out 0 '^3x3: learner as X and O against random: 2,000 games: [0-9,]+ wins, [0-9,]+ draws, [0-9,]+ loss(es)? \([0-9.]+ (ms|s), [0-9,]+ games/s\)$' train --against random --games 2000 --db "$DIR/t2.db"

# a move named once
expect_err "^ttt show: moves: move 2 'z1': column z is off the 3x3 board \(columns a-c\)$" show --moves "a1 z1"

finish
