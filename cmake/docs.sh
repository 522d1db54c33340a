#!/bin/sh
# cmake/docs.sh TTT VERSION MAN BASH: writes the man page ttt(1) to MAN and the bash completion to BASH from the
# built command's own texts, so that neither can differ from it: `ttt --help` (what ttt is, its commands),
# `ttt CMD --help` for every command and `ttt CMD ACTION --help` for each action with a help of its own, and
# `ttt engines` (engines and levels). The page is each text through cmake/man.awk; the completion takes each
# command's options and what their values are from its option lines (`-r, --rules R`). Run by the build
# (CMakeLists.txt); any failure of the command fails it.
set -eu
ttt=$1
version=$2
man_out=$3
bash_out=$4
awk_script=$(dirname "$0")/man.awk

# The names listed under a heading ("commands:", "actions:") of a help text on stdin.
listed() {
    awk -v heading="$1" '$0 == heading { inside = 1; next }
        inside && /^   / { next }
        inside && /^  [a-z]/ { print $1; next }
        inside { inside = 0 }'
}

# One "KEY:OPTION) _ttt_k=KIND ;;" line per option form of the help text on stdin, then "OPTS long options".
# KIND is what the option's value is, from its metavariable: rules (R), engine (SPEC), who (WHO: an engine or
# human), level (L), file (PATH, FILE, DIR), words:A|B (a choice written A|B), value (anything else); a flag
# has no line.
options() {
    awk -v key="$1" '
        /^ +-/ {
            # The forms, separated by ", " (-r, --rules), then the metavariable one space after the last one;
            # the description is further away (a help text where it is one space away still reads right).
            rest = $0
            sub(/^ +/, "", rest)
            n = 0
            meta = ""
            while (match(rest, /^-[^ ,]+/)) {
                forms[++n] = substr(rest, 1, RLENGTH)
                rest = substr(rest, RLENGTH + 1)
                if (rest ~ /^, -/) {
                    rest = substr(rest, 3)
                    continue
                }
                if (rest ~ /^ [^ ]/) {
                    meta = substr(rest, 2)
                    sub(/ .*/, "", meta)
                }
                break
            }
            if (meta == "") kind = ""
            else if (meta == "R") kind = "rules"
            else if (meta == "SPEC") kind = "engine"
            else if (meta == "WHO") kind = "who"
            else if (meta == "L" || meta == "LEVEL") kind = "level"
            else if (meta == "PATH" || meta == "FILE" || meta == "DIR") kind = "file"
            else if (meta ~ /\|/) kind = "words:" meta
            else kind = "value"
            for (f = 1; f <= n; f++) {
                if (forms[f] ~ /^--/)
                    long = long " " forms[f]
                if (kind != "")
                    printf "    %s:%s) _ttt_k=\047%s\047 ;;\n", key, forms[f], kind
            }
        }
        END { print "OPTS" long }'
}

top=$("$ttt" --help)
commands=$(printf '%s\n' "$top" | listed commands:)
if [ -z "$commands" ]; then
    echo "docs: '$ttt --help' lists no commands" >&2
    exit 1
fi
engines_text=$("$ttt" engines)
# The first line of text after the synopsis: what ttt is, for NAME.
summary=$(printf '%s\n' "$top" | awk '/^usage:/ { usage = 1; next } usage && /^ / { next } /^$/ { usage = 0; next }
    !usage { print; exit }' | sed 's/\.$//; s/-/\\-/g')

# man_section TITLE: the help text on stdin as a subsection of the page.
man_section() {
    printf '.SS "%s"\n' "$1" >>"$man_out.tmp"
    awk -f "$awk_script" >>"$man_out.tmp"
}
# complete_from KEY: the options of the help text on stdin, for the completion of command KEY (CMD or CMD_ACTION).
# Its input comes from a here-document, not a pipe, so that it runs in this shell and keeps what it collects.
complete_from() {
    parsed=$(options "$1")
    cases="$cases$(printf '%s\n' "$parsed" | sed '/^OPTS/d')
"
    data="${data}_ttt_opts_$1='$(printf '%s\n' "$parsed" | sed -n 's/^OPTS //p')'
"
}

{
    printf '.TH TTT 1 "" "ttt %s" "User Commands"\n' "$version"
    printf '.nh\n.ad l\n' # no hyphens in option names, no stretched spaces
    printf '.SH NAME\nttt \\- %s\n' "$summary"
    printf '.SH DESCRIPTION\n'
    printf '%s\n' "$top" | awk -f "$awk_script"
    printf '.SH COMMANDS\n'
} >"$man_out.tmp"
texts=$top
cases=""
data=""
positional_engines=""
for cmd in $commands; do
    help=$("$ttt" "$cmd" --help)
    texts="$texts
$help"
    printf '%s\n' "$help" | man_section "ttt $cmd"
    complete_from "$cmd" <<EOF
$help
EOF
    actions=$(printf '%s\n' "$help" | listed actions: | tr '\n' ' ')
    if [ -n "$actions" ]; then
        data="${data}_ttt_actions_$cmd='$actions'
"
    fi
    for action in $actions; do
        action_help=$("$ttt" "$cmd" "$action" --help)
        if [ "$action_help" != "$help" ]; then
            texts="$texts
$action_help"
            printf '%s\n' "$action_help" | man_section "ttt $cmd $action"
            complete_from "${cmd}_$action" <<EOF
$action_help
EOF
        fi
    done
    # Engine specs as arguments (ttt arena SPEC SPEC ...): SPEC left in the synopsis once options are taken out.
    if printf '%s\n' "$help" | awk '/^usage:/ { u = 1 } u && /^$/ { exit } u' |
        sed -E 's/--?[a-z-]+ [^] |]+//g' | grep -qw SPEC; then
        positional_engines="$positional_engines $cmd"
    fi
done
{
    printf '.SH ENGINES\n'
    printf '%s\n' "$engines_text" | awk -f "$awk_script"
    printf '.SH EXIT STATUS\n'
    printf '.TP\n0\nsuccess\n.TP\n1\na failure at run time (a file that cannot be read or written, say)\n'
    printf '.TP\n2\nbad usage or bad input, with one line on stderr that says what was wrong\n'
    printf '.SH SEE ALSO\n'
    printf 'The README of the sources (README.md), and \\fBttt COMMAND \\-\\-help\\fR, which this page repeats.\n'
} >>"$man_out.tmp"
mv "$man_out.tmp" "$man_out"

engines=$(printf '%s\n' "$engines_text" | grep -E '^[a-z][a-z0-9_-]*$' | tr '\n' ' ')
levels=$(printf '%s\n' "$engines_text" | awk '/^levels/ { inside = 1; next } inside && /^  [a-z]/ { print $1 }' |
    tr '\n' ' ')
rules=$(printf '%s\n' "$texts" | grep -oE '\b[0-9]+x[0-9]+(k[0-9]+)?(-misere)?\b' | sort -u -V | tr '\n' ' ')
{
    cat <<'EOF'
# bash completion of ttt, written by the build (cmake/docs.sh) from the command's own --help texts and
# `ttt engines`: commands, options, option values (rules, engines and levels, files), actions.
EOF
    printf '_ttt_commands=%s\n' "'$(printf '%s ' $commands)help'"
    printf '_ttt_engines=%s\n' "'$engines'"
    printf '_ttt_levels=%s\n' "'$levels'"
    printf '_ttt_rules=%s\n' "'$rules'"
    printf '_ttt_positional_engines=%s\n' "'$positional_engines '"
    printf '%s' "$data"
    printf '\n# _ttt_kind KEY OPTION: sets _ttt_k to what the value of OPTION of command KEY is (empty: a flag).\n'
    printf '_ttt_kind() {\n    _ttt_k=\n    case $1:$2 in\n%s    esac\n}\n' "$cases"
    cat <<'EOF'

# Completes the word under the cursor: a command, then (for table and memory) an action, the value of the option
# before it, an option (after -), or an engine spec where the command takes them as arguments.
_ttt() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev= cmd= action= key word i actions_var opts_var
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
    COMPREPLY=()
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        if [[ -z $cmd ]]; then
            [[ $word == -* ]] || cmd=$word
            continue
        fi
        if [[ $word == -* ]]; then
            _ttt_kind "${action:+${cmd}_$action}" "$word"
            [[ -z $_ttt_k ]] && _ttt_kind "$cmd" "$word"
            [[ -n $_ttt_k && $word != *=* ]] && ((i++)) # skip the option's value
            continue
        fi
        actions_var=_ttt_actions_$cmd
        if [[ -z $action && -n ${!actions_var-} ]]; then
            action=$word
        fi
    done
    if [[ -z $cmd ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$_ttt_commands --help --version" -- "$cur")
        return
    fi
    if [[ $cmd == help ]]; then
        actions_var=_ttt_actions_${COMP_WORDS[2]-}
        if ((COMP_CWORD == 2)); then
            mapfile -t COMPREPLY < <(compgen -W "$_ttt_commands" -- "$cur")
        elif ((COMP_CWORD == 3)) && [[ ${COMP_WORDS[2]} =~ ^[a-z]+$ && -n ${!actions_var-} ]]; then
            mapfile -t COMPREPLY < <(compgen -W "${!actions_var}" -- "$cur")
        fi
        return
    fi
    key=$cmd
    opts_var=_ttt_opts_${cmd}_$action
    [[ -n $action && -n ${!opts_var+x} ]] && key=${cmd}_$action
    _ttt_kind "$key" "$prev"
    case $_ttt_k in
    rules) mapfile -t COMPREPLY < <(compgen -W "$_ttt_rules" -- "$cur") ;;
    engine) mapfile -t COMPREPLY < <(compgen -W "$_ttt_engines $_ttt_levels" -- "$cur") ;;
    who) mapfile -t COMPREPLY < <(compgen -W "human $_ttt_engines $_ttt_levels" -- "$cur") ;;
    level) mapfile -t COMPREPLY < <(compgen -W "$_ttt_levels" -- "$cur") ;;
    file)
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        ;;
    words:*)
        word=${_ttt_k#words:}
        mapfile -t COMPREPLY < <(compgen -W "${word//|/ }" -- "$cur")
        ;;
    value) ;;
    *)
        opts_var=_ttt_opts_$key
        actions_var=_ttt_actions_$cmd
        if [[ $cur == -* ]]; then
            mapfile -t COMPREPLY < <(compgen -W "${!opts_var-} --help" -- "$cur")
        elif [[ -z $action && -n ${!actions_var-} ]]; then
            mapfile -t COMPREPLY < <(compgen -W "${!actions_var}" -- "$cur")
        elif [[ $_ttt_positional_engines == *" $cmd "* ]]; then
            mapfile -t COMPREPLY < <(compgen -W "$_ttt_engines $_ttt_levels" -- "$cur")
        fi
        ;;
    esac
}
complete -F _ttt ttt
EOF
} >"$bash_out.tmp"
mv "$bash_out.tmp" "$bash_out"
