/* rules/rules.c - the rules of an m,n,k-game: parsing, checking, formatting. */
#include "ttt/rules.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"

ttt_rules ttt_rules_default(void) { return (ttt_rules){.rows = 3, .cols = 3, .k = 3, .misere = false}; }

static int max_int(int a, int b) { return a > b ? a : b; }
static int min_int(int a, int b) { return a < b ? a : b; }

/* "a 2x20 board is too small: each side is at least 3", or NULL when both sides fit. */
static const char *side_problem(const ttt_rules *r)
{
    if (r->rows < TTT_MIN_SIDE || r->cols < TTT_MIN_SIDE)
        return "too small: each side is at least";
    if (r->rows > TTT_MAX_SIDE || r->cols > TTT_MAX_SIDE)
        return "too big: each side is at most";
    return NULL;
}

ttt_status ttt_rules_check(const ttt_rules *r, ttt_error *err)
{
    const char *side = side_problem(r);
    if (side)
        return ttt_fail(err, TTT_EINVAL, "a %dx%d board is %s %d", r->rows, r->cols, side,
                        r->rows < TTT_MIN_SIDE || r->cols < TTT_MIN_SIDE ? TTT_MIN_SIDE : TTT_MAX_SIDE);
    int kmax = max_int(r->rows, r->cols);
    if (r->k > kmax)
        return ttt_fail(err, TTT_EINVAL, "k=%d is longer than the %dx%d board (at most k%d)", r->k, r->rows,
                        r->cols, kmax);
    if (r->k < TTT_MIN_K)
        return ttt_fail(err, TTT_EINVAL, "k=%d is too short: a line is at least %d in a row", r->k,
                        TTT_MIN_K);
    return TTT_OK;
}

/* Reads a decimal number at *p: its value when it has one to three digits, RULES_NO_NUMBER when there is no
 * digit, RULES_TOO_LONG (with *p past the digits) when there are more than three. */
enum { RULES_NO_NUMBER = -1, RULES_TOO_LONG = -2, RULES_MAX_DIGITS = 3 };
static int read_number(const char **p)
{
    const char *s = *p;
    int value = 0, digits = 0;
    while (isdigit((unsigned char)*s)) {
        if (digits < RULES_MAX_DIGITS)
            value = value * 10 + (*s - '0');
        s++;
        digits++;
    }
    if (digits == 0)
        return RULES_NO_NUMBER;
    *p = s;
    return digits > RULES_MAX_DIGITS ? RULES_TOO_LONG : value;
}

static bool equal_nocase(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

ttt_status ttt_rules_parse(const char *text, ttt_rules *out, ttt_error *err)
{
    static const char expect[] = "expected MxN[kK][-misere], e.g. 3x3, 4x4k3, 15x15k5, 3x3-misere";
    if (!text || !*text)
        return ttt_fail(err, TTT_EINVAL, "rules '': %s", expect);
    const char *p = text;
    ttt_rules r = {0};
    r.rows = read_number(&p);
    if (r.rows == RULES_NO_NUMBER)
        return ttt_fail(err, TTT_EINVAL, "rules '%s': %s", text, expect);
    if (*p == 'x' || *p == 'X') {
        p++;
        r.cols = read_number(&p);
        if (r.cols == RULES_NO_NUMBER)
            return ttt_fail(err, TTT_EINVAL, "rules '%s': no number after 'x' (%s)", text, expect);
    } else {
        r.cols = r.rows;
    }
    r.k = r.rows == RULES_TOO_LONG || r.cols == RULES_TOO_LONG ? 0 : min_int(r.rows, r.cols);
    if (*p == 'k' || *p == 'K') {
        p++;
        r.k = read_number(&p);
        if (r.k == RULES_NO_NUMBER)
            return ttt_fail(err, TTT_EINVAL, "rules '%s': no number after 'k' (%s)", text, expect);
    }
    if (r.rows == RULES_TOO_LONG || r.cols == RULES_TOO_LONG)
        return ttt_fail(err, TTT_EINVAL, "rules '%s': the board is too big: each side is at most %d", text,
                        TTT_MAX_SIDE);
    if (r.k == RULES_TOO_LONG)
        return ttt_fail(err, TTT_EINVAL, "rules '%s': k is longer than the board (at most k%d)", text,
                        max_int(r.rows, r.cols));
    if (*p == '-') {
        if (!equal_nocase(p + 1, "misere") && !equal_nocase(p + 1, "reverse"))
            return ttt_fail(err, TTT_EINVAL, "rules '%s': unknown variant '%s' (known: -misere, -reverse)",
                            text, p + 1);
        r.misere = true;
        p += strlen(p);
    }
    if (*p)
        return ttt_fail(err, TTT_EINVAL, "rules '%s': unexpected '%s' (%s)", text, p, expect);
    ttt_error sub;
    if (ttt_rules_check(&r, &sub) != TTT_OK)
        return ttt_fail(err, TTT_EINVAL, "rules '%s': %s", text, sub.msg);
    *out = r;
    return TTT_OK;
}

char *ttt_rules_format(const ttt_rules *r, char *buf, size_t size)
{
    if (r->k == min_int(r->rows, r->cols))
        snprintf(buf, size, "%dx%d%s", r->rows, r->cols, r->misere ? "-misere" : "");
    else
        snprintf(buf, size, "%dx%dk%d%s", r->rows, r->cols, r->k, r->misere ? "-misere" : "");
    return buf;
}

int ttt_rules_cells(const ttt_rules *r) { return r->rows * r->cols; }

bool ttt_rules_equal(const ttt_rules *a, const ttt_rules *b)
{
    return a->rows == b->rows && a->cols == b->cols && a->k == b->k && a->misere == b->misere;
}

bool ttt_rules_line_wins(const ttt_rules *rules) { return !rules->misere; }
