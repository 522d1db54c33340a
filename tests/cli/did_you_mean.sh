# "Did you mean" for every name a person types: commands (an adjacent swap is one edit, as git counts), engines
# and levels (the known list names the levels too), engine options, --level; an option without its value says
# what is expected; help reaches every command and action however it is asked for.
source "$(dirname "$0")/harness.bash"

KNOWN="\(known: minimax, .*gomoku, levels: easy, medium, hard, perfect\)"

# commands
expect_err "^ttt: unknown command 'slove'; did you mean 'solve'\?$" slove
expect_err "^ttt: unknown command 'hsitroy'; did you mean 'history'\?$" hsitroy
expect_err "^ttt: unknown command 'frobnicate' \(see 'ttt --help'\)$" frobnicate

# engines and levels, in every command that reads a spec
expect_err "^ttt move: engine 'minmax': unknown engine; did you mean 'minimax'\? $KNOWN$" move --engine minmax
expect_err "^ttt move: engine 'mtcs': unknown engine; did you mean 'mcts'\? $KNOWN$" move --engine mtcs:iterations=9
expect_err "^ttt move: engine 'perfetc': unknown engine; did you mean 'perfect'\? $KNOWN$" move --engine perfetc
expect_err "^ttt move: engine 'nope': unknown engine $KNOWN$" move --engine nope
expect_err "^ttt play: engine 'eazy': unknown engine; did you mean 'easy'\?" play --o eazy --no-record
expect_err "^ttt arena: engine 'radnom': unknown engine; did you mean 'random'\?" arena --games 2 random radnom
expect_err "^ttt play: --level 'meduim': expected easy, medium, hard or perfect; did you mean 'medium'\?$" play --level meduim

# engine options: the closest key, and a key without its value
expect_err "^ttt move: engine 'minimax': unknown option 'dpeth'; did you mean 'depth'\? \(known: seed, time, nodes, depth, tt, blunder\)$" move --engine minimax:dpeth=3
expect_err "^ttt move: engine 'minimax': option 'depth' needs a value: depth=VALUE$" move --engine minimax:depth
expect_err "^ttt move: engine 'minimax': option 'depth' needs a value: depth=VALUE$" move --engine minimax:depth=
expect_err "^ttt move: engine 'minimax': unknown option 'foo' \(known: seed, time, nodes, depth, tt, blunder\)$" move --engine minimax:foo

# help, however it is asked for
expect_out 0 "^usage: ttt COMMAND" help help
expect_out 0 "^usage: ttt COMMAND" help --help
expect_out 0 "^usage: ttt solve " --help solve
expect_out 0 "^usage: ttt move " -h move
expect_out 0 "^usage: ttt solve " help solve
expect_out 0 "^usage: ttt table build " help table build
expect_out 0 "^usage: ttt table build " --help table build
expect_err "^ttt: unknown command 'slove'; did you mean 'solve'\?$" help slove

finish
