/*
 * ttt/gomocup.h - the Gomocup (Piskvork) brain protocol as data: one text line in, one typed command or
 * reply out, and the replies formatted. No I/O: `ttt brain` (src/cli/cmd_brain.c) reads and writes the lines,
 * the `cmd` engine (src/engines/external.c) speaks the manager's side.
 *
 * The protocol: a manager writes one command per line to the brain's standard input, the brain answers on
 * its standard output. Coordinates are 0-based, x the column and y the row ("TURN 7,3": column 7, row 3).
 *
 *   START n            a new game on an n x n board          -> OK, or ERROR reason
 *   RECTSTART w,h      a new game on w columns, h rows       -> OK, or ERROR reason
 *   RESTART            a new game on the same board          -> OK
 *   BEGIN              the brain moves first                 -> x,y
 *   TURN x,y           the opponent played x,y               -> x,y
 *   BOARD              a whole position follows, one stone a line "x,y,f" (f 1 the brain's own stone, 2 the
 *   x,y,f ... DONE     opponent's, 3 a winning-line stone of a continuous game), then DONE -> x,y
 *   TAKEBACK x,y       the stone on x,y is taken off          -> OK
 *   INFO key value     a setting; no answer (unknown keys are ignored, as the protocol says)
 *   ABOUT              -> name="ttt", version="...", author="...", country="..."
 *   END                the brain exits
 *
 * Anything else is answered `UNKNOWN text`, a known command with bad arguments `ERROR text`. A brain may
 * also write `MESSAGE text` and `DEBUG text` lines at any time; managers show or log them.
 *
 * Extension keys (other brains ignore unknown INFO keys): `INFO ttt_k K` sets k (how many in a row win,
 * default 5 or the longest side when shorter), `INFO ttt_misere 1` makes completing a line lose, and
 * `INFO ttt_seed N` seeds the brain's engine, so that a manager that knows them can play any m,n,k-game.
 *
 * Lines may end in LF or CR LF; surrounding spaces and tabs are ignored; keywords are case-insensitive.
 */
#ifndef TTT_GOMOCUP_H
#define TTT_GOMOCUP_H

#include "ttt/common.h"

/* The longest line the parser reads, terminator excluded; longer lines are an error (never cut). */
#define TTT_GOMOCUP_LINE_MAX 4096
/* Room for an INFO value or the text of a reply, terminator included. */
#define TTT_GOMOCUP_TEXT_SIZE 256
/* Coordinates beyond this are an error (a board side is far smaller); INFO numbers are unsigned 64-bit. */
#define TTT_GOMOCUP_MAX_COORD  9999
#define TTT_GOMOCUP_MAX_NUMBER UINT64_MAX
/* The rule bits of `INFO rule` (Gomocup): exactly five, continuous game, renju, caro (both ends open). */
#define TTT_GOMOCUP_RULE_EXACT5     1
#define TTT_GOMOCUP_RULE_CONTINUOUS 2
#define TTT_GOMOCUP_RULE_RENJU      4
#define TTT_GOMOCUP_RULE_CARO       8

typedef enum ttt_gomocup_kind {
    TTT_GOMOCUP_EMPTY = 0, /* a blank line: nothing to do */
    TTT_GOMOCUP_START,     /* width = height = n */
    TTT_GOMOCUP_RECTSTART, /* width, height */
    TTT_GOMOCUP_RESTART,
    TTT_GOMOCUP_BEGIN,
    TTT_GOMOCUP_TURN,  /* x, y */
    TTT_GOMOCUP_BOARD, /* the stone lines and DONE follow */
    TTT_GOMOCUP_STONE, /* "x,y,f" inside BOARD: x, y, field */
    TTT_GOMOCUP_DONE,
    TTT_GOMOCUP_TAKEBACK, /* x, y */
    TTT_GOMOCUP_INFO,     /* key, text; number when the key is a numeric one */
    TTT_GOMOCUP_ABOUT,
    TTT_GOMOCUP_END,
    TTT_GOMOCUP_UNKNOWN, /* not a command of the protocol: answer UNKNOWN */
} ttt_gomocup_kind;

typedef enum ttt_gomocup_info_key {
    TTT_GOMOCUP_INFO_OTHER = 0, /* a key this brain does not know: ignored */
    TTT_GOMOCUP_INFO_TIMEOUT_TURN,
    TTT_GOMOCUP_INFO_TIMEOUT_MATCH,
    TTT_GOMOCUP_INFO_TIME_LEFT,
    TTT_GOMOCUP_INFO_MAX_MEMORY,
    TTT_GOMOCUP_INFO_GAME_TYPE,
    TTT_GOMOCUP_INFO_RULE,
    TTT_GOMOCUP_INFO_FOLDER, /* text only */
    TTT_GOMOCUP_INFO_TTT_K,
    TTT_GOMOCUP_INFO_TTT_MISERE,
    TTT_GOMOCUP_INFO_TTT_SEED,
} ttt_gomocup_info_key;

typedef struct ttt_gomocup_command {
    ttt_gomocup_kind kind;
    int x, y;   /* TURN, TAKEBACK, STONE */
    int field;  /* STONE: 1 own, 2 opponent, 3 winning-line stone */
    int width;  /* START, RECTSTART */
    int height; /* START, RECTSTART */
    ttt_gomocup_info_key key;
    uint64_t number;                   /* INFO with a numeric key: the value, 0..TTT_GOMOCUP_MAX_NUMBER */
    char text[TTT_GOMOCUP_TEXT_SIZE];  /* INFO: the key as written; UNKNOWN: the keyword as written */
    char value[TTT_GOMOCUP_TEXT_SIZE]; /* INFO: the value as written */
} ttt_gomocup_command;

/* Parses one line from a manager (its line break, LF or CR LF, may be included) into *out. TTT_OK: *out is
 * the command (TTT_GOMOCUP_UNKNOWN for a keyword that is not the protocol's; TTT_GOMOCUP_EMPTY for a blank
 * line). TTT_EINVAL: a known command with bad arguments, a line longer than TTT_GOMOCUP_LINE_MAX, a NUL
 * inside the line; err says what ("TURN: expected x,y with whole numbers from 0 to 9999, got 'a,b'") and
 * out->kind is the command it would have been. len is the line's length in bytes. */
ttt_status ttt_gomocup_parse(const char *line, size_t len, ttt_gomocup_command *out, ttt_error *err);

/* --- The manager's side: what a brain answers ---------------------------------------------------------- */

typedef enum ttt_gomocup_reply_kind {
    TTT_GOMOCUP_REPLY_MOVE = 0, /* "x,y" */
    TTT_GOMOCUP_REPLY_OK,
    TTT_GOMOCUP_REPLY_ERROR,   /* text: the rest of the line */
    TTT_GOMOCUP_REPLY_UNKNOWN, /* text */
    TTT_GOMOCUP_REPLY_MESSAGE, /* text */
    TTT_GOMOCUP_REPLY_DEBUG,   /* text */
    TTT_GOMOCUP_REPLY_SUGGEST, /* x, y: the brain suggests a swap move (not used by ttt) */
    TTT_GOMOCUP_REPLY_OTHER,   /* anything else (an ABOUT line, noise): text */
} ttt_gomocup_reply_kind;

typedef struct ttt_gomocup_reply {
    ttt_gomocup_reply_kind kind;
    int x, y;
    char text[TTT_GOMOCUP_TEXT_SIZE]; /* longer texts are cut: they are only shown */
} ttt_gomocup_reply;

/* Reads one line a brain wrote. Never fails: a line that is not a move or a known keyword is OTHER. */
void ttt_gomocup_parse_reply(const char *line, size_t len, ttt_gomocup_reply *out);

/* --- Formatting ---------------------------------------------------------------------------------------- */

/* "x,y" into buf (room for TTT_GOMOCUP_TEXT_SIZE). Returns buf. */
char *ttt_gomocup_format_move(int x, int y, char *buf, size_t size);

/* The ABOUT answer: name="ttt", version="VERSION", author="...", country="..." into buf. Returns buf. */
char *ttt_gomocup_format_about(char *buf, size_t size);

/* What a rule value means for a brain that plays five or more in a row: "" when it can be honoured (0), else
 * the sentence a MESSAGE line carries ("rule 4 (renju) is not supported: playing five or more in a row").
 * Returns buf. */
char *ttt_gomocup_rule_note(uint64_t rule, char *buf, size_t size);

#endif
