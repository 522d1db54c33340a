/* rules/gomocup.c - the Gomocup brain protocol as data (ttt/gomocup.h): parsing lines, formatting answers. */
#include "ttt/gomocup.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "util/error.h"

#define GOMOCUP_AUTHOR  "the ttt authors"
#define GOMOCUP_COUNTRY "-"

/* A line as a counted slice: spaces, tabs and the line break trimmed at both ends. */
typedef struct slice {
    const char *p;
    size_t n;
} slice;

static bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

static slice trim(slice s)
{
    while (s.n && blank(s.p[0])) {
        s.p++;
        s.n--;
    }
    while (s.n && blank(s.p[s.n - 1]))
        s.n--;
    return s;
}

/* Splits s at its first space or tab: the word before, the rest (trimmed) after. */
static slice first_word(slice s, slice *rest)
{
    size_t i = 0;
    while (i < s.n && s.p[i] != ' ' && s.p[i] != '\t')
        i++;
    *rest = trim((slice){s.p + i, s.n - i});
    return (slice){s.p, i};
}

static bool word_is(slice w, const char *name)
{
    return w.n == strlen(name) && strncasecmp(w.p, name, w.n) == 0;
}

/* A decimal whole number from 0 to max filling the slice (spaces around allowed). */
static bool parse_number(slice s, uint64_t max, uint64_t *out)
{
    s = trim(s);
    if (s.n == 0)
        return false;
    uint64_t v = 0;
    for (size_t i = 0; i < s.n; i++) {
        if (!isdigit((unsigned char)s.p[i]))
            return false;
        unsigned d = (unsigned)(s.p[i] - '0');
        if (v > (max - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

/* "a,b" or "a,b,c" (count numbers) into v, each from 0 to max. */
static bool parse_list(slice s, int count, uint64_t max, uint64_t *v)
{
    for (int i = 0; i < count; i++) {
        size_t j = 0;
        while (j < s.n && s.p[j] != ',')
            j++;
        if ((j < s.n) != (i < count - 1)) /* a comma after every number but the last */
            return false;
        if (!parse_number((slice){s.p, j}, max, &v[i]))
            return false;
        if (j < s.n) {
            s.p += j + 1;
            s.n -= j + 1;
        }
    }
    return true;
}

/* Copies the slice into a text field, failing when it does not fit. */
static bool copy_text(slice s, char *out, size_t size)
{
    if (s.n >= size)
        return false;
    memcpy(out, s.p, s.n);
    out[s.n] = '\0';
    return true;
}

/* At most this many characters of a bad argument are quoted back. */
#define GOMOCUP_QUOTE 40

static ttt_status bad_args(ttt_error *err, const char *cmd, const char *expected, slice args)
{
    return ttt_fail(err, TTT_EINVAL, "%s: expected %s, got '%.*s'%s", cmd, expected,
                    (int)(args.n < GOMOCUP_QUOTE ? args.n : GOMOCUP_QUOTE), args.p,
                    args.n > GOMOCUP_QUOTE ? "..." : "");
}

#define XY_EXPECTED "x,y (whole numbers from 0 to 9999)"

static ttt_status parse_xy(const char *cmd, slice args, ttt_gomocup_command *out, ttt_error *err)
{
    uint64_t v[2];
    if (!parse_list(args, 2, TTT_GOMOCUP_MAX_COORD, v))
        return bad_args(err, cmd, XY_EXPECTED, args);
    out->x = (int)v[0];
    out->y = (int)v[1];
    return TTT_OK;
}

static ttt_status no_args(const char *cmd, slice args, ttt_error *err)
{
    if (args.n)
        return bad_args(err, cmd, "nothing after the command", args);
    return TTT_OK;
}

static const struct {
    const char *name;
    ttt_gomocup_info_key key;
    bool numeric;
} info_keys[] = {
    {"timeout_turn", TTT_GOMOCUP_INFO_TIMEOUT_TURN, true},
    {"timeout_match", TTT_GOMOCUP_INFO_TIMEOUT_MATCH, true},
    {"time_left", TTT_GOMOCUP_INFO_TIME_LEFT, true},
    {"max_memory", TTT_GOMOCUP_INFO_MAX_MEMORY, true},
    {"game_type", TTT_GOMOCUP_INFO_GAME_TYPE, true},
    {"rule", TTT_GOMOCUP_INFO_RULE, true},
    {"folder", TTT_GOMOCUP_INFO_FOLDER, false},
    {"ttt_k", TTT_GOMOCUP_INFO_TTT_K, true},
    {"ttt_misere", TTT_GOMOCUP_INFO_TTT_MISERE, true},
    {"ttt_seed", TTT_GOMOCUP_INFO_TTT_SEED, true},
};

static ttt_status parse_info(slice args, ttt_gomocup_command *out, ttt_error *err)
{
    slice value;
    slice key = first_word(args, &value);
    if (key.n == 0)
        return bad_args(err, "INFO", "a key and a value", args);
    if (!copy_text(key, out->text, sizeof out->text) || !copy_text(value, out->value, sizeof out->value))
        return ttt_fail(err, TTT_EINVAL, "INFO: key or value longer than %d characters",
                        TTT_GOMOCUP_TEXT_SIZE - 1);
    out->key = TTT_GOMOCUP_INFO_OTHER;
    for (size_t i = 0; i < sizeof info_keys / sizeof info_keys[0]; i++) {
        if (!word_is(key, info_keys[i].name))
            continue;
        out->key = info_keys[i].key;
        if (info_keys[i].numeric && !parse_number(value, TTT_GOMOCUP_MAX_NUMBER, &out->number))
            return ttt_fail(err, TTT_EINVAL,
                            "INFO %s: expected a whole number from 0 to %" PRIu64 ", got '%.*s'",
                            info_keys[i].name, TTT_GOMOCUP_MAX_NUMBER,
                            (int)(value.n < GOMOCUP_QUOTE ? value.n : GOMOCUP_QUOTE), value.p);
        break;
    }
    return TTT_OK;
}

/* "x,y,f": a stone line inside BOARD. */
static bool looks_like_stone(slice s) { return s.n && isdigit((unsigned char)s.p[0]); }

ttt_status ttt_gomocup_parse(const char *line, size_t len, ttt_gomocup_command *out, ttt_error *err)
{
    memset(out, 0, sizeof *out);
    /* The limit is of the line's characters: its break (LF or CR LF) does not count against it. */
    if (len && line[len - 1] == '\n')
        len--;
    if (len && line[len - 1] == '\r')
        len--;
    if (len > TTT_GOMOCUP_LINE_MAX)
        return ttt_fail(err, TTT_EINVAL, "line longer than %d characters", TTT_GOMOCUP_LINE_MAX);
    if (memchr(line, '\0', len))
        return ttt_fail(err, TTT_EINVAL, "line holds a NUL byte");
    slice s = trim((slice){line, len});
    if (s.n == 0)
        return TTT_OK;
    if (looks_like_stone(s)) {
        out->kind = TTT_GOMOCUP_STONE;
        uint64_t v[3];
        if (!parse_list(s, 3, TTT_GOMOCUP_MAX_COORD, v) || v[2] < 1 || v[2] > 3)
            return bad_args(err, "BOARD", "x,y,f with f 1 (own), 2 (opponent) or 3 (winning line)", s);
        out->x = (int)v[0];
        out->y = (int)v[1];
        out->field = (int)v[2];
        return TTT_OK;
    }
    slice args;
    slice word = first_word(s, &args);
    if (word_is(word, "START")) {
        out->kind = TTT_GOMOCUP_START;
        uint64_t n;
        if (!parse_number(args, TTT_GOMOCUP_MAX_COORD, &n))
            return bad_args(err, "START", "a board size (a whole number)", args);
        out->width = out->height = (int)n;
        return TTT_OK;
    }
    if (word_is(word, "RECTSTART")) {
        out->kind = TTT_GOMOCUP_RECTSTART;
        uint64_t v[2];
        if (!parse_list(args, 2, TTT_GOMOCUP_MAX_COORD, v))
            return bad_args(err, "RECTSTART", "width,height (whole numbers)", args);
        out->width = (int)v[0];
        out->height = (int)v[1];
        return TTT_OK;
    }
    if (word_is(word, "TURN")) {
        out->kind = TTT_GOMOCUP_TURN;
        return parse_xy("TURN", args, out, err);
    }
    if (word_is(word, "TAKEBACK")) {
        out->kind = TTT_GOMOCUP_TAKEBACK;
        return parse_xy("TAKEBACK", args, out, err);
    }
    if (word_is(word, "INFO")) {
        out->kind = TTT_GOMOCUP_INFO;
        return parse_info(args, out, err);
    }
    static const struct {
        const char *name;
        ttt_gomocup_kind kind;
    } bare[] = {
        {"RESTART", TTT_GOMOCUP_RESTART}, {"BEGIN", TTT_GOMOCUP_BEGIN}, {"BOARD", TTT_GOMOCUP_BOARD},
        {"DONE", TTT_GOMOCUP_DONE},       {"ABOUT", TTT_GOMOCUP_ABOUT}, {"END", TTT_GOMOCUP_END},
    };
    for (size_t i = 0; i < sizeof bare / sizeof bare[0]; i++)
        if (word_is(word, bare[i].name)) {
            out->kind = bare[i].kind;
            return no_args(bare[i].name, args, err);
        }
    out->kind = TTT_GOMOCUP_UNKNOWN;
    /* The keyword as written, cut to fit: it is only echoed back in the UNKNOWN answer. */
    size_t n = word.n < sizeof out->text - 1 ? word.n : sizeof out->text - 1;
    memcpy(out->text, word.p, n);
    out->text[n] = '\0';
    for (char *p = out->text; *p; p++)
        if ((unsigned char)*p < ' ' || *p == 0x7f)
            *p = '?';
    return TTT_OK;
}

/* --- Replies ------------------------------------------------------------------------------------------- */

/* Copies a reply's text, cut to fit, control characters made visible. */
static void reply_text(slice s, char *out, size_t size)
{
    size_t n = s.n < size - 1 ? s.n : size - 1;
    memcpy(out, s.p, n);
    out[n] = '\0';
    for (char *p = out; *p; p++)
        if ((unsigned char)*p < ' ' || *p == 0x7f)
            *p = '?';
}

void ttt_gomocup_parse_reply(const char *line, size_t len, ttt_gomocup_reply *out)
{
    memset(out, 0, sizeof *out);
    slice s = trim((slice){line, len});
    uint64_t v[2];
    if (looks_like_stone(s) && parse_list(s, 2, TTT_GOMOCUP_MAX_COORD, v)) {
        out->kind = TTT_GOMOCUP_REPLY_MOVE;
        out->x = (int)v[0];
        out->y = (int)v[1];
        return;
    }
    slice rest;
    slice word = first_word(s, &rest);
    static const struct {
        const char *name;
        ttt_gomocup_reply_kind kind;
    } words[] = {
        {"OK", TTT_GOMOCUP_REPLY_OK},           {"ERROR", TTT_GOMOCUP_REPLY_ERROR},
        {"UNKNOWN", TTT_GOMOCUP_REPLY_UNKNOWN}, {"MESSAGE", TTT_GOMOCUP_REPLY_MESSAGE},
        {"DEBUG", TTT_GOMOCUP_REPLY_DEBUG},     {"SUGGEST", TTT_GOMOCUP_REPLY_SUGGEST},
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (word_is(word, words[i].name)) {
            out->kind = words[i].kind;
            if (out->kind == TTT_GOMOCUP_REPLY_SUGGEST) {
                if (!parse_list(rest, 2, TTT_GOMOCUP_MAX_COORD, v))
                    break;
                out->x = (int)v[0];
                out->y = (int)v[1];
            }
            reply_text(rest, out->text, sizeof out->text);
            return;
        }
    out->kind = TTT_GOMOCUP_REPLY_OTHER;
    reply_text(s, out->text, sizeof out->text);
}

char *ttt_gomocup_format_move(int x, int y, char *buf, size_t size)
{
    snprintf(buf, size, "%d,%d", x, y);
    return buf;
}

char *ttt_gomocup_format_about(char *buf, size_t size)
{
    snprintf(buf, size, "name=\"ttt\", version=\"%s\", author=\"%s\", country=\"%s\"", TTT_VERSION,
             GOMOCUP_AUTHOR, GOMOCUP_COUNTRY);
    return buf;
}

char *ttt_gomocup_rule_note(uint64_t rule, char *buf, size_t size)
{
    static const struct {
        uint64_t bit;
        const char *name;
    } bits[] = {
        {TTT_GOMOCUP_RULE_EXACT5, "exactly five"},
        {TTT_GOMOCUP_RULE_CONTINUOUS, "continuous game"},
        {TTT_GOMOCUP_RULE_RENJU, "renju"},
        {TTT_GOMOCUP_RULE_CARO, "caro"},
    };
    buf[0] = '\0';
    if (rule == 0)
        return buf;
    size_t n = (size_t)snprintf(buf, size, "rule %" PRIu64 " (", rule);
    uint64_t known = 0;
    const char *sep = "";
    for (size_t i = 0; i < sizeof bits / sizeof bits[0] && n < size; i++)
        if (rule & bits[i].bit) {
            n += (size_t)snprintf(buf + n, size - n, "%s%s", sep, bits[i].name);
            sep = ", ";
            known |= bits[i].bit;
        }
    if ((rule & ~known) && n < size)
        n += (size_t)snprintf(buf + n, size - n, "%sunknown bits", sep);
    if (n < size)
        snprintf(buf + n, size - n, ") is not supported: ttt plays five or more in a row");
    return buf;
}
