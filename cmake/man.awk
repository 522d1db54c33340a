# cmake/man.awk: one help text of the command (ttt CMD --help, ttt engines) as roff for the man page, read from
# stdin (POSIX awk: Debian's mawk runs it). The help texts share one layout, which this reads:
#   usage: ...              a synopsis, its continuation lines indented: kept as they are (.nf)
#   example(s): ...         likewise, up to the next blank line
#   TEXT                    a paragraph (lines up to a blank one); a line that ends with ':' or is followed by
#                           an indented line is a heading (bold)
#     TERM  DESCRIPTION     an item (.TP): TERM up to the first two spaces (an option's: its forms and its
#                           metavariable); lines indented to DESCRIPTION's column continue it; an option alone
#                           on its line has its description below it
#     TEXT                  an indented line without an item's gap: a line of its own (.br)

# roff escapes: a backslash is \e, a minus is \- (else groff prints a hyphen that cannot be pasted into a shell),
# and a line that begins with a dot or an apostrophe gets \& before it (else it is a request).
function esc(s,    out, i, c) {
    out = ""
    for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (c == "\\")
            out = out "\\e"
        else if (c == "-")
            out = out "\\-"
        else
            out = out c
    }
    if (out ~ /^[.']/)
        out = "\\&" out
    return out
}

function indent(s) {
    match(s, /^ */)
    return RLENGTH
}

# The forms of an option line, separated by ", " (-r, --rules), and the metavariable one space after the last.
function option_term(t,    term, rest, meta) {
    term = ""
    rest = t
    while (match(rest, /^-[^ ,]+/)) {
        term = term substr(rest, 1, RLENGTH)
        rest = substr(rest, RLENGTH + 1)
        if (rest !~ /^, -/)
            break
        term = term ", "
        rest = substr(rest, 3)
    }
    if (rest ~ /^ [^ ]/) {
        meta = substr(rest, 2)
        sub(/ .*/, "", meta)
        term = term " " meta
    }
    return term
}

function trim(s) {
    sub(/^ +/, "", s)
    sub(/ +$/, "", s)
    return s
}

{ line[++n] = $0 }

END {
    i = 1
    while (i <= n) {
        s = line[i]
        if (s ~ /^ *$/) {
            i++
            continue
        }
        # A synopsis or examples: verbatim up to the next blank line.
        if (s ~ /^(usage|examples?): /) {
            print ".PP"
            print ".nf"
            for (; i <= n && line[i] !~ /^ *$/; i++)
                print esc(line[i])
            print ".fi"
            continue
        }
        if (indent(s) == 0) {
            if (s ~ /:$/ || (i < n && indent(line[i + 1]) > 0 && line[i + 1] !~ /^ *$/)) {
                print ".PP"
                print "\\fB" esc(s) "\\fR"
                i++
                continue
            }
            # A paragraph: its lines, filled by roff.
            print ".PP"
            for (; i <= n && line[i] !~ /^ *$/ && indent(line[i]) == 0 && line[i] !~ /^(usage|examples?): /; i++)
                print esc(line[i])
            continue
        }
        t = trim(s)
        gap = index(t, "  ")
        # An option's term is its forms and its metavariable, however far its description is.
        if (t ~ /^-/)
            gap = length(option_term(t)) + 1
        if (t ~ /^-/ && gap > length(t) && !(i < n && indent(line[i + 1]) > indent(s)))
            gap = 0
        if (gap > 0) {
            # An item: the term, then its description (on the next line after an option too long for the
            # column) and every line indented to the description's column.
            if (gap <= length(t)) {
                term = substr(t, 1, gap - 1)
                rest = substr(t, gap)
                col = indent(s) + gap - 1 + indent(rest)
                i++
            } else {
                term = t
                rest = line[i + 1]
                col = indent(rest)
                i += 2
            }
            print ".TP"
            print "\\fB" esc(term) "\\fR"
            print esc(trim(rest))
            for (; i <= n && line[i] !~ /^ *$/ && indent(line[i]) >= col; i++)
                print esc(trim(line[i]))
            continue
        }
        print ".br"
        print esc(t)
        i++
    }
}
