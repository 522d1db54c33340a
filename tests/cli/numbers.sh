# Command tests for the numbers every subcommand's options take: each is read by one parser (cli_parse_uint), so
# a number too large for 64 bits, a malformed one or one outside the option's range is refused alike: exit 2 and
# one line "ttt CMD: --OPTION 'TEXT': [out of range, ]expected ... from MIN to MAX".
source "$(dirname "$0")/harness.bash"

DIR=$(mktemp -d)
trap 'rm -f "$OUT" "$ERR"; rm -rf "$DIR"' EXIT
DB=$DIR/ttt.db

HUGE=99999999999999999999999 # above 2^64
TWO64=18446744073709551616   # 2^64: one past what 64 bits hold

# Every numeric option: "command|option|what the rest of the command line needs".
OPTIONS=(
    "arena|--games|random random"
    "arena|--jobs|--games 2 random random"
    "arena|--seed|--games 2 random random"
    "count|--limit|"
    "count|--max-memory|"
    "history|--limit|--db $DB"
    "history|--show|--db $DB"
    "play|--games|--x random --o random --no-record"
    "play|--seed|--x random --o random --no-record"
    "serve|--port|--no-record"
    "serve|--max-games|--no-record"
    "serve|--idle-expiry|--no-record"
    "serve|--max-connections|--no-record"
    "serve|--per-address|--no-record"
    "solve|--time|"
    "solve|--nodes|"
    "solve|--tt|"
    "solve|--threads|"
    "table|--games|build --out $DIR/t.json"
    "table|--seed|build --games 10 --out $DIR/t.json"
    "table|--jobs|build --games 10 --out $DIR/t.json"
    "train|--games|--against random --db $DB"
    "train|--window|--against random --games 1 --db $DB"
    "train|--seed|--against random --games 1 --db $DB"
)

for entry in "${OPTIONS[@]}"; do
    IFS='|' read -r cmd opt rest <<<"$entry"
    # shellcheck disable=SC2086 # rest is a list of words
    for bad in "$HUGE" "$TWO64"; do
        expect_err "^ttt $cmd: $opt '$bad': out of range, expected .* from [0-9]+ to [0-9]+$" $cmd $opt "$bad" $rest
    done
    # shellcheck disable=SC2086
    for bad in 12abc -1 +1 " 1" 1.5 0x10 ""; do
        re=$(sed 's/[][\.*^$+?(){}|]/\\&/g' <<<"$bad")
        expect_err "^ttt $cmd: $opt '$re': expected .* from [0-9]+ to [0-9]+$" $cmd $opt "$bad" $rest
    done
done

# The bounds are the option's own: the largest value passes the parser, one more is out of range.
expect_err "^ttt solve: --tt '65537': out of range, expected MiB from 1 to 65536$" solve --tt 65537
expect_err "^ttt solve: --threads '65': out of range, expected a number of threads from 1 to 64$" solve --threads 65
expect_err "^ttt serve: --port '65536': out of range, expected a port from 0 to 65535$" serve --port 65536
expect_err "^ttt arena: --games '0': out of range, expected a whole number from 1 to 100000000$" arena --games 0 random random
expect_err "^ttt count: --limit '0': out of range" count --limit 0
expect_out 0 '^3x3: 3 in a row' count --limit 18446744073709551615
expect_out 0 '"value":"draw"' solve --json --nodes 18446744073709551615 --time 00018446744073709551615

finish
