# ttt brain: errors name cells as the Gomocup protocol does (x,y, 0-based), never in the board's a1 names;
# TAKEBACK takes back the last stone, the brain's own as well as the opponent's, and refuses another stone
# saying which one is last.
source "$(dirname "$0")/harness.bash"

# brain LINES...: the brain's answers to the protocol lines, one per line, in $OUT. ENGINE, when set, is its
# engine: one bounded by depth, not time, replies the same in every run, which the tests that take back the
# brain's reply in a second run need.
brain() {
    printf '%s\n' "$@" END | "$TTT" brain ${ENGINE:+--engine "$ENGINE"} >"$OUT" 2>"$ERR"
    RC=$?
}
FIXED=gomoku:depth=2
# answers EXPECTED...: the answers, line by line
answers() {
    local want
    want=$(printf '%s\n' "$@")
    if [[ $RC -eq 0 && "$(cat "$OUT")" == "$want" ]]; then
        PASS=$((PASS + 1))
    else
        fail "expected answers: $(tr '\n' '|' <<<"$want")"
    fi
}

# the brain's own move taken back right after it was made, then the opponent's
brain "START 15" "BEGIN" "TAKEBACK 7,7" "BEGIN"
answers OK 7,7 OK 7,7
ENGINE=$FIXED brain "START 15" "TURN 7,7" "TAKEBACK 7,7"
reply=$(sed -n 2p "$OUT")
ENGINE=$FIXED brain "START 15" "TURN 7,7" "TAKEBACK $reply" "TAKEBACK 7,7" "TURN 7,7"
[[ $(head -4 "$OUT" | tr '\n' ' ') == "OK $reply OK OK " ]] && grep -Eq '^[0-9]+,[0-9]+$' <(sed -n 5p "$OUT") &&
    PASS=$((PASS + 1)) || fail "the brain's move and the opponent's taken back, then a new move"
# a stone other than the last: refused, saying which is last, and nothing changes
ENGINE=$FIXED brain "START 15" "TURN 7,7" "TAKEBACK 7,7" "TAKEBACK $reply"
answers OK "$reply" "ERROR TAKEBACK 7,7: not the last stone, which is $reply (take stones back from the last one)" OK
brain "START 15" "BOARD" "7,7,2" "8,8,1" "9,9,2" "DONE" "TAKEBACK 8,8"
grep -qx "ERROR TAKEBACK 8,8: not the last stone, which is [0-9]*,[0-9]* (take stones back from the last one)" "$OUT" &&
    PASS=$((PASS + 1)) || fail "a BOARD stone other than the last taken back"
# the winning move taken back: the game goes on
brain "START 3" "INFO ttt_k 3" "BEGIN" "TURN 0,0" "TURN 0,1" "TAKEBACK 2,2" "TAKEBACK 0,1" "TURN 2,2"
answers OK 2,1 2,0 2,2 OK OK 1,1
brain "START 15" "TAKEBACK 3,3"
answers OK "ERROR TAKEBACK 3,3: the cell is empty"

# a taken cell and a finished game in the protocol's words
brain "START 15" "TURN 7,7" "TURN 7,7"
[[ $(sed -n 3p "$OUT") == "ERROR TURN 7,7: the cell is taken" ]] && PASS=$((PASS + 1)) || fail "TURN on a taken cell"
brain "START 3" "INFO ttt_k 3" "BEGIN" "TURN 0,0" "TURN 0,1" "TURN 1,1"
[[ $(sed -n 5p "$OUT") == "ERROR TURN 1,1: the game is over" ]] && PASS=$((PASS + 1)) || fail "TURN after the end"
if grep -q '[a-t][0-9]' "$OUT"; then fail "an a1 name in an answer"; else PASS=$((PASS + 1)); fi

finish
