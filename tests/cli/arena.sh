# ttt arena: the report, --json and --csv shapes, and every bad-input path (one line on stderr, exit 2).
source "$(dirname "$0")/harness.bash"

expect_out 0 '^usage: ttt arena' arena --help
expect_out 0 '^Score of minimax vs random: [0-9]+ - 0 - [0-9]+  \[0\.[0-9]{3}\] 20$' arena --games 20 --jobs 2 minimax random
expect_out 0 '^\.\.\.      minimax playing X: ' arena --games 20 minimax random
expect_out 0 '^\.\.\.      minimax playing O: ' arena --games 20 minimax random
expect_out 0 'Elo difference: [+-][0-9]+\.[0-9] \[[<>+-]+[0-9.]+, [<>+-]+[0-9.]+\] \(95%\), LOS: [0-9.]+ %, DrawRatio: [0-9.]+ %' arena --games 20 minimax random
# a pair of all draws is said to be one, without NaN
expect_out 0 'Elo difference: \+0\.0 \(all draws\), LOS: 50\.0 %, DrawRatio: 100\.0 %' arena --games 6 minimax mcts
run arena --games 6 minimax mcts
! grep -qi nan "$OUT" && PASS=$((PASS + 1)) || fail "arena: NaN in the report"
# all wins: a bound, not infinity
expect_out 0 'Elo difference: >\+800 \(all wins\)' arena --rules 3x3 --games 4 minimax:seed=1 random:seed=1
# three engines: three pairs; a gauntlet: two
run arena --games 4 random random random
[[ $(grep -c '^Score of' "$OUT") -eq 3 ]] && PASS=$((PASS + 1)) || fail "round robin of 3 should have 3 pairs"
run arena --games 4 --gauntlet random random random
[[ $(grep -c '^Score of' "$OUT") -eq 2 ]] && PASS=$((PASS + 1)) || fail "gauntlet of 3 should have 2 pairs"
# the same results at any --jobs
run arena --games 30 --seed 5 --jobs 1 --csv mcts:iterations=50 random
one=$(cat "$OUT")
run arena --games 30 --seed 5 --jobs 2 --csv mcts:iterations=50 random
[[ "$one" == "$(cat "$OUT")" ]] && PASS=$((PASS + 1)) || fail "arena results differ between --jobs 1 and 2"
# --json and --csv shapes
expect_out 0 '^\{"rules":"3x3","games_per_pair":10,"seed":0,"gauntlet":false,"interrupted":false,"pairs":\[\{"a":"minimax","b":"mcts","games":10,"wins":0,"losses":0,"draws":10,"score":0\.5,"elo":0\.0,"elo_low":0\.0,"elo_high":0\.0,"los":0\.5,"draw_ratio":1\.0,"verdict":"all draws","a_as_x":\{"wins":0,"losses":0,"draws":5\},"a_as_o":\{"wins":0,"losses":0,"draws":5\},"a_forfeits":0,"b_forfeits":0\}\],"ranking":\[\{"rank":1,"engine":"minimax",.*\}\]\}$' arena --json --games 10 minimax mcts
expect_out 0 '"elo":null,"elo_low":null,"elo_high":null,.*"verdict":"all wins"' arena --json --games 4 minimax:seed=1 random:seed=1
expect_out 0 '^a,b,games,wins,losses,draws,score,elo,elo_low,elo_high,los,draw_ratio,verdict,a_x_wins,a_x_losses,a_x_draws,a_o_wins,a_o_losses,a_o_draws,a_forfeits,b_forfeits$' arena --csv --games 4 random random
expect_out 0 '^"minimax","mcts",10,0,0,10,0\.5,0,0,0,0\.5,1,all draws,0,0,5,0,0,5,0,0$' arena --csv --games 10 minimax mcts
expect_out 0 '^"minimax:seed=1","random:seed=1",4,4,0,0,1,,,,[0-9.]+,0,all wins,2,0,0,2,0,0,0,0$' arena --csv --games 4 minimax:seed=1 random:seed=1
# levels are specs too
expect_out 0 '^Score of perfect vs easy' arena --games 2 perfect easy

# bad input
expect_err '^ttt arena: --games is required' arena random random
expect_err "^ttt arena: --games '0': out of range, expected a whole number from 1 to" arena --games 0 random random
expect_err "^ttt arena: --games 'x'" arena --games x random random
expect_err "^ttt arena: --games '-3'" arena --games -3 random random
expect_err "^ttt arena: --games '100000001'" arena --games 100000001 random random
expect_err "^ttt arena: --jobs '0'" arena --games 2 --jobs 0 random random
expect_err "^ttt arena: --jobs '257'" arena --games 2 --jobs 257 random random
expect_err "^ttt arena: --seed 'abc'" arena --games 2 --seed abc random random
expect_err "^ttt arena: --seed '9223372036854775808'" arena --games 2 --seed 9223372036854775808 random random
expect_err '^ttt arena: expected at least two engine specs, got 1' arena --games 2 random
expect_err '^ttt arena: expected at least two engine specs, got 0' arena --games 2
expect_err '^ttt arena: at most 32 engines' arena --games 2 $(for i in $(seq 33); do printf 'random '; done)
expect_err "^ttt arena: engine 'nope': unknown engine \(known: minimax, .*random.*\)" arena --games 2 random nope
expect_err "^ttt arena: engine 'mcts.*': unknown option 'depth'" arena --games 2 random mcts:depth=2
expect_err "^ttt arena: engine 'mcts.*': iterations=-1" arena --games 2 random mcts:iterations=-1
expect_err "^ttt arena: rules 'x'" arena --rules x --games 2 random random
expect_err '^ttt arena: --json and --csv: choose one' arena --json --csv --games 2 random random
expect_err "^ttt arena: unknown option '--bogus'" arena --bogus --games 2 random random
expect_err "^ttt arena: -g \(--games\) needs a value$" arena random random -g

finish
