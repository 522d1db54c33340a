#!/bin/sh
# cmake/docs.sh TTT VERSION MAN BASH ZSH: writes the man page ttt(1) to MAN and the bash and zsh completions to
# BASH and ZSH from the built command's own texts, so that none can differ from it: `ttt --help` (what ttt is, its
# commands), `ttt CMD --help` for every command and `ttt CMD ACTION --help` for each action with a help of its
# own, and `ttt engines` (engines and levels). The page is each text through cmake/man.awk; the completions take
# each command's options and what their values are from its option lines (`-r, --rules R`). Run by the build
# (CMakeLists.txt); any failure of the command fails it.
set -eu
ttt=$1
version=$2
man_out=$3
bash_out=$4
zsh_out=$5
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
# What both completions share: the lists, and the reading of the words (plain shell that bash and zsh both run).
# Each completion only hands the words to _ttt_complete and offers what it leaves in _ttt_list or _ttt_files.
common() {
    printf '_ttt_commands=%s\n' "'$(printf '%s ' $commands)help'"
    printf '_ttt_engines=%s\n' "'$engines'"
    printf '_ttt_levels=%s\n' "'$levels'"
    printf '_ttt_rules=%s\n' "'$rules'"
    printf '_ttt_positional_engines=%s\n' "'$positional_engines '"
    printf '%s' "$data"
    printf '\n# _ttt_kind KEY OPTION: sets _ttt_k to what the value of OPTION of command KEY is (empty: a flag).\n'
    printf '_ttt_kind() {\n    _ttt_k=\n    case $1:$2 in\n%s    esac\n}\n' "$cases"
    cat <<'EOF'

# _ttt_actions_of CMD: sets _ttt_a to the actions of CMD (empty: none, or not a command).
_ttt_actions_of() {
    _ttt_a=
    case $1 in '' | *[!a-z]*) return ;; esac
    eval "_ttt_a=\${_ttt_actions_$1-}"
}

# _ttt_opts_of KEY: sets _ttt_o to the long options of KEY (CMD or CMD_ACTION); fails when KEY has none listed.
_ttt_opts_of() {
    _ttt_o=
    case $1 in '' | *[!a-z_]*) return 1 ;; esac
    eval "[ -n \"\${_ttt_opts_$1+x}\" ] && _ttt_o=\$_ttt_opts_$1"
}

# _ttt_walk N WORD...: reads the first N words after ttt: sets _ttt_cmd (the first that is not an option) and
# _ttt_action (for a command with actions, the next word that is neither an option nor an option's value).
_ttt_walk() {
    local n=$1 skip= word
    shift
    _ttt_cmd= _ttt_action=
    for word in "$@"; do
        [ "$n" -gt 0 ] || break
        n=$((n - 1))
        if [ -n "$skip" ]; then
            skip=
        elif [ -z "$_ttt_cmd" ]; then
            case $word in -*) ;; *) _ttt_cmd=$word ;; esac
        else
            case $word in
            -*)
                _ttt_kind "${_ttt_action:+${_ttt_cmd}_$_ttt_action}" "$word"
                [ -n "$_ttt_k" ] || _ttt_kind "$_ttt_cmd" "$word"
                case $word in *=*) ;; *) [ -z "$_ttt_k" ] || skip=1 ;; esac
                ;;
            *)
                _ttt_actions_of "$_ttt_cmd"
                [ -n "$_ttt_action" ] || [ -z "$_ttt_a" ] || _ttt_action=$word
                ;;
            esac
        fi
    done
}

# _ttt_complete ttt WORD...: the words up to the one under the cursor (the last). Sets _ttt_list to the words
# that may come there (a command, an action, the value of the option before it, an option after -, an engine spec
# where the command takes them as arguments), or _ttt_files to 1 where a file name comes.
_ttt_complete() {
    local cur prev key n
    eval "cur=\${$#} prev=\${$(($# - 1))}"
    n=$(($# - 2))
    shift
    _ttt_walk "$n" "$@"
    _ttt_list= _ttt_files=
    if [ -z "$_ttt_cmd" ]; then
        _ttt_list="$_ttt_commands --help --version"
        return
    fi
    if [ "$_ttt_cmd" = help ]; then
        if [ "$n" -eq 1 ]; then
            _ttt_list=$_ttt_commands
        elif [ "$n" -eq 2 ]; then
            _ttt_actions_of "$2"
            _ttt_list=$_ttt_a
        fi
        return
    fi
    key=$_ttt_cmd
    if [ -n "$_ttt_action" ] && _ttt_opts_of "${_ttt_cmd}_$_ttt_action"; then
        key=${_ttt_cmd}_$_ttt_action
    fi
    _ttt_kind "$key" "$prev"
    case $_ttt_k in
    rules) _ttt_list=$_ttt_rules ;;
    engine) _ttt_list="$_ttt_engines $_ttt_levels" ;;
    who) _ttt_list="human $_ttt_engines $_ttt_levels" ;;
    level) _ttt_list=$_ttt_levels ;;
    file) _ttt_files=1 ;;
    words:*) _ttt_list=$(printf '%s\n' "${_ttt_k#words:}" | tr '|' ' ') ;;
    value) ;;
    *)
        _ttt_actions_of "$_ttt_cmd"
        case $cur in
        -*)
            _ttt_opts_of "$key"
            _ttt_list="$_ttt_o --help"
            ;;
        *)
            if [ -z "$_ttt_action" ] && [ -n "$_ttt_a" ]; then
                _ttt_list=$_ttt_a
            else
                case $_ttt_positional_engines in *" $_ttt_cmd "*) _ttt_list="$_ttt_engines $_ttt_levels" ;; esac
            fi
            ;;
        esac
        ;;
    esac
}
EOF
}

{
    cat <<'EOF'
# bash completion of ttt, written by the build (cmake/docs.sh) from the command's own --help texts and
# `ttt engines`: commands, options, option values (rules, engines and levels, files), actions.
EOF
    common
    cat <<'EOF'

_ttt() {
    local cur=${COMP_WORDS[COMP_CWORD]}
    _ttt_complete "${COMP_WORDS[@]:0:COMP_CWORD+1}"
    if [[ -n $_ttt_files ]]; then
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    else
        mapfile -t COMPREPLY < <(compgen -W "$_ttt_list" -- "$cur")
    fi
}
complete -F _ttt ttt
EOF
} >"$bash_out.tmp"
mv "$bash_out.tmp" "$bash_out"

{
    cat <<'EOF'
#compdef ttt
# zsh completion of ttt, written by the build (cmake/docs.sh) from the command's own --help texts and
# `ttt engines`: the same lists and the same reading of the words as the bash completion.
EOF
    common
    cat <<'EOF'

_ttt_complete "${(@)words[1,CURRENT]}"
if [[ -n $_ttt_files ]]; then
    _files
else
    compadd -- ${=_ttt_list}
fi
EOF
} >"$zsh_out.tmp"
mv "$zsh_out.tmp" "$zsh_out"
