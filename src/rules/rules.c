/* rules/rules.c - the rules of an m,n,k-game: parsing, checking, formatting. */
#include "ttt/rules.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"

ttt_rules ttt_rules_default(void) { return (ttt_rules){.rows = 3, .cols = 3, .k = 3, .misere = false}; }

static int max_int(int a, int b) { return a > b ? a : b; }
static int min_int(int a, int b) { return a < b ? a : b; }

ttt_status ttt_rules_check(const ttt_rules *r, ttt_error *err)
{
    if (r->rows < TTT_MIN_SIDE || r->rows > TTT_MAX_SIDE || r->cols < TTT_MIN_SIDE || r->cols > TTT_MAX_SIDE)
        return ttt_fail(err, TTT_EINVAL, "board %dx%d: each side must be from %d to %d", r->rows, r->cols,
                        TTT_MIN_SIDE, TTT_MAX_SIDE);
    int kmax = max_int(r->rows, r->cols);
    if (r->k < TTT_MIN_K || r->k > kmax)
        return ttt_fail(err, TTT_EINVAL, "k=%d: k must be from %d to %d on a %dx%d board", r->k, TTT_MIN_K,
                        kmax, r->rows, r->cols);
    return TTT_OK;
}

/* Reads a decimal number of one to three digits at *p; -1 when there is none. */
static int read_number(const char **p)
{
    const char *s = *p;
    int value = 0, digits = 0;
    while (isdigit((unsigned char)*s) && digits < 4) {
        value = value * 10 + (*s - '0');
        s++;
        digits++;
    }
    if (digits == 0 || digits > 3)
        return -1;
    *p = s;
    return value;
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
    if (r.rows < 0)
        return ttt_fail(err, TTT_EINVAL, "rules '%s': %s", text, expect);
    if (*p == 'x' || *p == 'X') {
        p++;
        r.cols = read_number(&p);
        if (r.cols < 0)
            return ttt_fail(err, TTT_EINVAL, "rules '%s': no number after 'x' (%s)", text, expect);
    } else {
        r.cols = r.rows;
    }
    r.k = min_int(r.rows, r.cols);
    if (*p == 'k' || *p == 'K') {
        p++;
        r.k = read_number(&p);
        if (r.k < 0)
            return ttt_fail(err, TTT_EINVAL, "rules '%s': no number after 'k' (%s)", text, expect);
    }
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
