/*
 * ttt/rules.h - the rules of an m,n,k-game as plain data.
 *
 * A game is played on `rows` x `cols` cells; a player who completes `k` of their own in a row, column or
 * diagonal has made a line. Under normal rules that player wins; under misère ("reverse") rules that player
 * loses. Either way the game ends there; a full board without a line is a draw. X always moves first.
 *
 * Whom a completed line counts for is answered in exactly one place, ttt_rules_line_wins (and
 * ttt_board_line_winner over it); nothing else in the library branches on `misere`.
 *
 * Text form, accepted by every command: `MxN[kK][-misere]`, e.g. `3x3`, `4x4k3`, `15x15k5`, `3x3-misere`,
 * `7x6k4`; a lone `N` means `NxN`; k defaults to min(M, N). Letters are case-insensitive and `-reverse` is
 * accepted as a synonym of `-misere`.
 */
#ifndef TTT_RULES_H
#define TTT_RULES_H

#include "ttt/common.h"

#define TTT_MIN_SIDE  3
#define TTT_MAX_SIDE  20
#define TTT_MAX_CELLS (TTT_MAX_SIDE * TTT_MAX_SIDE)
#define TTT_MIN_K     3

/* Longest text ttt_rules_format can produce, terminator included. */
#define TTT_RULES_TEXT_SIZE 32

typedef struct ttt_rules {
    int rows;    /* m: TTT_MIN_SIDE..TTT_MAX_SIDE */
    int cols;    /* n: TTT_MIN_SIDE..TTT_MAX_SIDE */
    int k;       /* TTT_MIN_K..max(rows, cols) */
    bool misere; /* completing a line loses instead of wins */
} ttt_rules;

/* The classic game: 3x3, three in a row, normal rules. */
ttt_rules ttt_rules_default(void);

/* Parses the text form into *out. On failure returns TTT_EINVAL, leaves *out untouched and says what was
 * wrong (e.g. "rules '3x3k4': k must be from 3 to 3"). */
ttt_status ttt_rules_parse(const char *text, ttt_rules *out, ttt_error *err);

/* Checks the ranges of a rules struct built by hand. TTT_OK or TTT_EINVAL with the reason. */
ttt_status ttt_rules_check(const ttt_rules *rules, ttt_error *err);

/* Writes the canonical text form ("4x4k3-misere"; k is omitted when it is min(rows, cols)) into buf, which
 * should hold TTT_RULES_TEXT_SIZE bytes. Returns buf. Requires valid rules. */
char *ttt_rules_format(const ttt_rules *rules, char *buf, size_t size);

/* rows * cols. */
int ttt_rules_cells(const ttt_rules *rules);

bool ttt_rules_equal(const ttt_rules *a, const ttt_rules *b);

/* True when completing a line wins (normal rules), false when it loses (misère): the one place that reads
 * `misere`. */
bool ttt_rules_line_wins(const ttt_rules *rules);

#endif
