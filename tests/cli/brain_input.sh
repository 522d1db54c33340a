# ttt brain against a careless or hostile manager: every bad line gets exactly one answer (ERROR or UNKNOWN,
# never a crash, never a line out of turn), a BOARD ... DONE gets one answer however bad its stone lines, and
# stones listed in any order can be taken back one by one.
source "$(dirname "$0")/harness.bash"
export LC_ALL=C # the answers hold bytes that are no UTF-8 (a line's own bytes quoted back)

# brain LINES...: the brain's answers to the protocol lines (then END), in $OUT; RC its exit status.
brain() {
    printf '%s\n' "$@" END | timeout 120 "$TTT" brain ${ENGINE:+--engine "$ENGINE"} >"$OUT" 2>"$ERR"
    RC=$?
}
# answers WHAT EXPECTED...: exit 0, nothing on stderr, and the answers are EXPECTED, line by line (extended
# regular expressions, anchored).
answers() {
    local what=$1 i=1 line
    shift
    if [[ $RC -ne 0 || -s $ERR || $(wc -l <"$OUT") -ne $# ]]; then
        fail "$what: exit $RC, $(wc -l <"$OUT") answers for $# expected"
        return
    fi
    for want in "$@"; do
        line=$(sed -n "${i}p" "$OUT")
        if ! grep -Eqx -- "$want" <<<"$line"; then
            fail "$what: answer $i is '$line', expected /$want/"
            return
        fi
        i=$((i + 1))
    done
    PASS=$((PASS + 1))
}
MOVE='[0-9]+,[0-9]+'

# Stones listed all of one side first: each TAKEBACK takes back the last stone of the side that moved last
# (X's and O's alternating), never an O stone where X moved last, which the board cannot undo.
ENGINE=gomoku:depth=2 brain "START 15" BOARD 0,0,1 1,1,2 2,2,2 DONE
reply=$(sed -n 2p "$OUT")
ENGINE=gomoku:depth=2 brain "START 15" BOARD 0,0,1 1,1,2 2,2,2 DONE "TAKEBACK $reply" "TAKEBACK 2,2" \
    "TAKEBACK 1,1" "TAKEBACK 0,0" "TAKEBACK 1,1" BEGIN
answers "BOARD listed by side, then taken back" OK "$reply" OK OK \
    "ERROR TAKEBACK 1,1: not the last stone, which is 0,0 \(take stones back from the last one\)" OK OK 7,7

# A bad stone line inside BOARD is answered once, at DONE, as a stone off the board is; the next command
# gets its own answer.
for stone in 1,1,4 1,1,0 10000,1,2 1,1 1,1,2,2 "1,1,x"; do
    brain "START 15" BOARD 7,7,2 "$stone" 8,8,2 DONE ABOUT
    answers "BOARD with the stone line '$stone'" OK "ERROR BOARD: expected x,y,f .*got '$stone'" 'name="ttt".*'
done
brain "START 15" BOARD 7,7,2 "$(printf '%*s' 5000 1,1,2)" DONE ABOUT
answers "BOARD with an overlong line" OK "ERROR line longer than 4096 characters" 'name="ttt".*'

# A BOARD dropped by a command before its DONE: the ERROR answers the position, so the rest of its stone lines
# and its DONE are not answered again; the next command ends that (a stone line after it is an error again).
brain "START 15" BOARD 7,7,2 ABOUT 8,8,2 DONE "9,9,1" ABOUT
answers "a command inside BOARD, then the rest of it" OK \
    "ERROR BOARD: expected x,y,f lines and DONE; the position is dropped" 'name="ttt".*' \
    "ERROR 9,9,1: a stone line outside BOARD ... DONE" 'name="ttt".*'
brain "START 15" BOARD 7,7,2 "TURN 1,x" 8,8,2 DONE ABOUT
answers "a bad command inside BOARD" OK "ERROR TURN: expected x,y .*; the position is dropped" 'name="ttt".*'
# A BOARD inside an unfinished one drops the first and is a position of its own, answered at its DONE.
ENGINE=gomoku:depth=2 brain "START 15" BOARD 7,7,2 BOARD 8,8,2 DONE
answers "a BOARD inside a BOARD" OK "ERROR BOARD: expected x,y,f lines and DONE; .*" "$MOVE"
# A line too long while the rest of a dropped BOARD is skipped is no stone line of it: it is answered.
brain "START 15" BOARD 7,7,2 ABOUT "$(printf '%*s' 5000 1,1,2)" DONE ABOUT
answers "an overlong line after a dropped BOARD" OK "ERROR BOARD: expected x,y,f lines and DONE; .*" \
    'name="ttt".*' "ERROR line longer than 4096 characters" 'name="ttt".*'
brain "START 15" BOARD 7,7,2 "TURN 1,x" 8,8,2 DONE ABOUT
answers "a bad command inside BOARD" OK "ERROR TURN: expected x,y .*; the position is dropped" 'name="ttt".*'
brain "START 15" BOARD 7,7,2 "TURN 8,8" "TURN 9,9"
answers "BOARD without its DONE, then the game" OK "ERROR BOARD: expected x,y,f lines and DONE; .*" "$MOVE" "$MOVE"

# A line of 4096 characters is read whatever its break (LF or CR LF); 4097 are too many.
printf 'ABOUT%*s\n' 4091 '' | "$TTT" brain >"$OUT" 2>"$ERR"
RC=$?
answers "a line of 4096 characters" 'name="ttt".*'
printf 'ABOUT%*s\r\n' 4091 '' | "$TTT" brain >"$OUT" 2>"$ERR"
RC=$?
answers "a line of 4096 characters and CR LF" 'name="ttt".*'
printf 'ABOUT%*s\n' 4092 '' | "$TTT" brain >"$OUT" 2>"$ERR"
RC=$?
answers "a line of 4097 characters" "ERROR line longer than 4096 characters"

# Sizes, coordinates and values out of range, binary bytes, a NUL: one answer each, and the brain goes on.
brain "START 0" "START 1" "START 100" "START -5" "RECTSTART 21,15" "RECTSTART 15" "START 15" "TURN 15,0" \
    "TURN -1,0" "TURN 99999,1" "TAKEBACK 7,7" "INFO timeout_turn 99999999999999999999" "INFO rule 3" \
    "INFO ttt_k 30" "INFO ttt_misere 2" "$(printf 'TU\001RN\377 1,1')" "$(printf 'TURN 1,\0012')" "DONE" \
    "9,9,1" "BOARD extra" ABOUT
answers "bad sizes, coordinates and values" "ERROR unsupported size 0x0: .*" "ERROR unsupported size 1x1: .*" \
    "ERROR unsupported size 100x100: .*" "ERROR START: expected a board size .*got '-5'" \
    "ERROR unsupported size 21x15: .*" "ERROR RECTSTART: expected width,height .*" OK \
    "ERROR TURN 15,0: off the 15x15 board" "ERROR TURN: expected x,y .*" "ERROR TURN: expected x,y .*" \
    "ERROR TAKEBACK 7,7: the cell is empty" "ERROR INFO timeout_turn: expected a whole number .*" \
    "MESSAGE rule 3 \(exactly five, continuous game\) is not supported: .*" \
    "ERROR INFO ttt_k 30: expected k from 3 to 20" "ERROR INFO ttt_misere 2: expected 0 or 1" \
    "UNKNOWN command 'TU\?RN.*'" "ERROR TURN: expected x,y .*" "ERROR DONE without BOARD" \
    "ERROR 9,9,1: a stone line outside BOARD ... DONE" "ERROR BOARD: expected nothing after the command, .*" \
    'name="ttt".*'

printf 'START 15\nTURN 1,\0002\nABOUT\n' | "$TTT" brain >"$OUT" 2>"$ERR"
RC=$?
answers "a NUL byte" OK "ERROR line holds a NUL byte" 'name="ttt".*'

# BOARD with duplicate cells, too many stones of one side, a finished game; TURN on a taken cell.
brain "START 15" BOARD 1,1,1 1,1,2 DONE BOARD 1,1,1 2,2,1 DONE BOARD 0,0,2 1,0,2 2,0,2 3,0,2 4,0,2 0,1,1 1,1,1 \
    2,1,1 3,1,1 4,1,1 DONE "TURN 7,7" "TURN 7,7"
answers "bad positions" OK "ERROR BOARD 1,1: two stones on one cell" \
    "ERROR BOARD: 2 own and 0 opponent stones: .*" "ERROR (BOARD: .*|the game is over: no move to make)" \
    "$MOVE" "ERROR TURN 7,7: the cell is taken"

# BOARD without its DONE at the end of the input: the brain exits quietly (it has nobody to answer).
printf 'START 15\nBOARD\n7,7,2\n' | timeout 60 "$TTT" brain >"$OUT" 2>"$ERR"
RC=$?
answers "BOARD without DONE, then the end of the input" OK

finish
