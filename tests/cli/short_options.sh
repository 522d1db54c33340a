# One meaning per short option letter: across every command (and action) the letter -X stands for the same long
# option, as each --help lists them ("-d, --db PATH"); a letter a command documents works there (a value-taking
# one asks for its value by both names), and a letter it does not document is refused, not taken for another
# command's meaning.
source "$(dirname "$0")/harness.bash"

# "CMD" or "CMD ACTION" for every help text: the commands of `ttt --help` and the actions each lists.
helps=()
for cmd in $("$TTT" --help | awk '$0 == "commands:" { on = 1; next } on && /^  [a-z]/ { print $1; next } on { on = 0 }'); do
    helps+=("$cmd")
    for action in $("$TTT" "$cmd" --help | awk '$0 == "actions:" { on = 1; next } on && /^  [a-z]/ { print $1; next } on { on = 0 }'); do
        "$TTT" "$cmd" "$action" --help >/dev/null 2>&1 && helps+=("$cmd $action")
    done
done
[[ ${#helps[@]} -ge 14 ]] && PASS=$((PASS + 1)) || fail "only ${#helps[@]} help texts found"

# letter -> long option, and letter -> the commands that use it
declare -A long_of where
for h in "${helps[@]}"; do
    # shellcheck disable=SC2086
    while read -r letter long meta; do
        if [[ -n ${long_of[$letter]:-} && ${long_of[$letter]} != "$long" ]]; then
            FAIL=$((FAIL + 1))
            echo "FAIL: -$letter is ${long_of[$letter]} in '${where[$letter]}' but $long in 'ttt $h'"
        fi
        long_of[$letter]=$long
        where[$letter]="${where[$letter]:-}ttt $h; "
        # a documented letter works: a value-taking one asks for its value under both names
        if [[ -n $meta ]]; then
            # shellcheck disable=SC2086
            expect_err "^ttt ${h%% *}: -$letter \\(--$long\\) needs a value$" $h "-$letter"
        else
            # shellcheck disable=SC2086
            expect 0 $h "-$letter" --help
        fi
    done < <("$TTT" $h --help | sed -nE 's/^ +-([a-zA-Z]), --([a-z-]+)( [^ ]+)?.*/\1 \2 \3/p' | sed -E 's/ +$//')
done
# -h is --help everywhere (no help text lists it)
for h in "${helps[@]}"; do
    # shellcheck disable=SC2086
    expect_out 0 "^usage: ttt ${h%% *}" $h -h
done

# a letter documented somewhere is refused where it is not: `ttt solve -j` is no other command's --jobs
for h in "${helps[@]}"; do
    # shellcheck disable=SC2086
    # (a command with actions takes its actions' options before the action: `ttt table -g 10 build`)
    listed=$(for a in "${helps[@]}"; do [[ $a == "$h" || $a == "$h "* ]] && "$TTT" $a --help; done |
        sed -nE 's/^ +-([a-zA-Z]), --.*/\1/p' | tr -d '\n')
    for letter in "${!long_of[@]}"; do
        [[ $listed == *"$letter"* ]] && continue
        # shellcheck disable=SC2086
        expect_err "unknown option '-$letter'" $h "-$letter" --help
    done
done

finish
