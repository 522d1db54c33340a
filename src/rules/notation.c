/* rules/notation.c - positions and moves as text. */
#include "ttt/notation.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"

/* The most characters of a position text that an error message quotes. */
#define QUOTE_MAX 40

ttt_status ttt_position_parse(const char *text, const ttt_rules *rules, ttt_board *out, ttt_error *err)
{
    if (!text || !*text)
        return ttt_fail(err, TTT_EINVAL, "position: empty (expected rows like x.o/.x./..o)");
    ttt_bits stones[2];
    memset(stones, 0, sizeof stones);
    int rows = 0, cols = -1, col = 0;
    /* First pass: characters and shape, with stones placed at row * TTT_MAX_SIDE + col until cols is known.
     */
    for (const char *p = text;; p++) {
        char c = (char)tolower((unsigned char)*p);
        if (c == '/' || c == '\0') {
            if (col == 0)
                return ttt_fail(err, TTT_EINVAL, "position: row %d is empty", rows + 1);
            if (cols < 0)
                cols = col;
            else if (col != cols)
                return ttt_fail(err, TTT_EINVAL, "position: row %d has %d cells, expected %d like row 1",
                                rows + 1, col, cols);
            rows++;
            col = 0;
            if (c == '\0')
                break;
            continue;
        }
        if (c != 'x' && c != 'o' && c != '.') {
            if (isprint((unsigned char)*p))
                return ttt_fail(err, TTT_EINVAL,
                                "position: bad character '%c' at row %d, column %d (expected x, o, . or /)",
                                *p, rows + 1, col + 1);
            return ttt_fail(err, TTT_EINVAL,
                            "position: bad character 0x%02x at row %d, column %d (expected x, o, . or /)",
                            (unsigned char)*p, rows + 1, col + 1);
        }
        if (rows >= TTT_MAX_SIDE || col >= TTT_MAX_SIDE)
            return ttt_fail(err, TTT_EINVAL, "position: more than %d %s", TTT_MAX_SIDE,
                            rows >= TTT_MAX_SIDE ? "rows" : "cells in a row");
        if (c != '.')
            ttt_bits_set(&stones[c == 'x' ? TTT_X : TTT_O], rows * TTT_MAX_SIDE + col);
        col++;
    }
    ttt_rules r;
    if (rules) {
        if (rows != rules->rows || cols != rules->cols)
            return ttt_fail(err, TTT_EINVAL, "position: %d rows of %d cells, but the rules say %dx%d", rows,
                            cols, rules->rows, rules->cols);
        r = *rules;
    } else {
        r = (ttt_rules){.rows = rows, .cols = cols, .k = rows < cols ? rows : cols, .misere = false};
        ttt_error sub;
        if (ttt_rules_check(&r, &sub) != TTT_OK)
            return ttt_fail(err, TTT_EINVAL, "position: %s", sub.msg);
    }
    /* Second pass: move the stones to their real cell numbers. */
    ttt_bits packed[2];
    memset(packed, 0, sizeof packed);
    for (int who = 0; who < 2; who++)
        for (int row = 0; row < rows; row++)
            for (int c = 0; c < cols; c++)
                if (ttt_bits_test(&stones[who], row * TTT_MAX_SIDE + c))
                    ttt_bits_set(&packed[who], row * cols + c);
    ttt_board b;
    ttt_board_from_bits(&b, &r, &packed[TTT_X], &packed[TTT_O]);
    ttt_error sub;
    if (ttt_board_validate(&b, &sub) != TTT_OK)
        return ttt_fail(err, TTT_EINVAL, "position: %s", sub.msg);
    *out = b;
    return TTT_OK;
}

char *ttt_position_format(const ttt_board *b, char *buf, size_t size)
{
    size_t n = 0;
    for (int cell = 0; cell < b->cells; cell++) {
        bool slash = cell > 0 && cell % b->rules.cols == 0;
        if (n + slash + 1 >= size) /* room for the cell, its slash and the terminator */
            break;
        if (slash)
            buf[n++] = '/';
        ttt_player p = ttt_board_at(b, cell);
        buf[n++] = p == TTT_X ? 'x' : p == TTT_O ? 'o' : '.';
    }
    if (size > 0)
        buf[n < size ? n : size - 1] = '\0';
    return buf;
}

/* True for the 3x3 board, where the seed games' digits 1-9 name the cells. */
static bool digits_allowed(const ttt_rules *r) { return r->rows == 3 && r->cols == 3; }

ttt_status ttt_move_parse(const char *text, const ttt_rules *rules, ttt_move *out, ttt_error *err)
{
    if (!text || !*text)
        return ttt_fail(err, TTT_EINVAL, "move '': expected a cell such as b2");
    if (isdigit((unsigned char)text[0]) && text[1] == '\0') {
        if (!digits_allowed(rules))
            return ttt_fail(err, TTT_EINVAL, "move '%s': digits name cells only on 3x3; use a1 style", text);
        if (text[0] == '0')
            return ttt_fail(err, TTT_EINVAL, "move '0': cells are numbered 1 to 9");
        *out = text[0] - '1';
        return TTT_OK;
    }
    char letter = (char)tolower((unsigned char)text[0]);
    if (letter < 'a' || letter > 'z') {
        if (isdigit((unsigned char)text[0]))
            return ttt_fail(err, TTT_EINVAL,
                            "move '%.16s': expected a column letter then a row number, e.g. b2%s", text,
                            digits_allowed(rules) ? ", or a digit 1-9" : "");
        return ttt_fail(err, TTT_EINVAL, "move '%.16s': expected a column letter then a row number, e.g. b2",
                        text);
    }
    int col = letter - 'a';
    const char *p = text + 1;
    if (isalpha((unsigned char)*p))
        return ttt_fail(err, TTT_EINVAL,
                        "move '%.16s': a column is one letter (a-%c on %dx%d), then the row number, e.g. b2",
                        text, 'a' + rules->cols - 1, rules->rows, rules->cols);
    if (!isdigit((unsigned char)*p))
        return ttt_fail(err, TTT_EINVAL, "move '%.16s': no row number after the column letter", text);
    int row = 0, digits = 0;
    while (isdigit((unsigned char)*p) && digits < 3) {
        row = row * 10 + (*p - '0');
        p++;
        digits++;
    }
    if (*p)
        return ttt_fail(err, TTT_EINVAL, "move '%.16s': unexpected '%.8s' after the row number", text, p);
    if (col >= rules->cols)
        return ttt_fail(err, TTT_EINVAL, "move '%.16s': column %c is off the %dx%d board (columns a-%c)",
                        text, letter, rules->rows, rules->cols, 'a' + rules->cols - 1);
    if (row < 1 || row > rules->rows)
        return ttt_fail(err, TTT_EINVAL, "move '%.16s': row %d is off the %dx%d board (rows 1-%d)", text, row,
                        rules->rows, rules->cols, rules->rows);
    *out = (row - 1) * rules->cols + col;
    return TTT_OK;
}

char *ttt_move_format(const ttt_rules *rules, ttt_move cell, char *buf, size_t size)
{
    char text[TTT_MOVE_TEXT_SIZE];
    size_t n = 0;
    if (cell == TTT_NO_MOVE || cell < 0 || cell >= rules->rows * rules->cols) {
        text[n++] = '-';
    } else {
        int row = cell / rules->cols + 1; /* 1..TTT_MAX_SIDE: at most two digits */
        text[n++] = (char)('a' + cell % rules->cols);
        if (row >= 10)
            text[n++] = (char)('0' + row / 10);
        text[n++] = (char)('0' + row % 10);
    }
    text[n] = '\0';
    if (size > 0) {
        size_t len = n < size ? n : size - 1;
        memcpy(buf, text, len);
        buf[len] = '\0';
    }
    return buf;
}

char *ttt_moves_format(const ttt_rules *rules, const ttt_move *moves, int count, char *buf, size_t size)
{
    size_t len = 0;
    if (size)
        buf[0] = '\0';
    for (int i = 0; i < count && len < size; i++) {
        char mt[TTT_MOVE_TEXT_SIZE];
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? " " : "",
                                ttt_move_format(rules, moves[i], mt, sizeof mt));
    }
    return buf;
}

static bool is_separator(char c) { return c == ',' || isspace((unsigned char)c); }

ttt_status ttt_moves_parse(const char *text, const ttt_rules *rules, ttt_move *out, int max, int *count,
                           ttt_error *err)
{
    int n = 0;
    const char *p = text ? text : "";
    for (;;) {
        while (is_separator(*p))
            p++;
        if (!*p)
            break;
        char word[TTT_MOVE_TEXT_SIZE * 2];
        size_t len = 0;
        while (p[len] && !is_separator(p[len]))
            len++;
        if (len >= sizeof word)
            return ttt_fail(err, TTT_EINVAL, "moves: move %d '%.*s...': too long", n + 1,
                            (int)sizeof word - 1, p);
        memcpy(word, p, len);
        word[len] = '\0';
        p += len;
        if (n >= max)
            return ttt_fail(err, TTT_EINVAL, "moves: more than %d moves", max);
        ttt_error sub;
        if (ttt_move_parse(word, rules, &out[n], &sub) != TTT_OK) /* "move 'z1': ..." -> "move 2 'z1': ..." */
            return ttt_fail(err, TTT_EINVAL, "moves: move %d %s", n + 1,
                            strncmp(sub.msg, "move ", 5) == 0 ? sub.msg + 5 : sub.msg);
        n++;
    }
    *count = n;
    return TTT_OK;
}

ttt_status ttt_moves_replay(const ttt_rules *rules, const ttt_move *moves, int count, ttt_board *out,
                            ttt_error *err)
{
    ttt_board_init(out, rules);
    for (int i = 0; i < count; i++) {
        ttt_error sub;
        if (ttt_board_play_checked(out, moves[i], &sub) != TTT_OK) {
            char name[TTT_MOVE_TEXT_SIZE];
            return ttt_fail(err, TTT_EINVAL, "moves: move %d '%s': %s", i + 1,
                            ttt_move_format(rules, moves[i], name, sizeof name), sub.msg);
        }
    }
    return TTT_OK;
}
