/*
 * search/threats.h - threats of k-in-a-row games where a line wins (normal rules, k >= 4): line windows
 * counted incrementally, the shape a stone makes through a cell (five, open four, four, open three ...), and
 * the search for a victory by continuous fours (VCF).
 *
 * A "window" is k cells in a row (horizontal, vertical, diagonal, anti-diagonal) inside the board; the
 * windows and the lists of those through each cell (at most 4 * k) are the rules' shared geometry
 * (rules/lines.h). For each window the context keeps how many stones each side has in it, updated by play
 * and undo through those lists. A side completes a line on an empty cell exactly
 * when some window through the cell holds k - 1 of its stones and none of the other side's; k or more in a
 * row win ("five or more", what ttt's rules mean), so an overline is found through its k-cell windows too.
 *
 *     window with own count k-1, other 0:  a "four": its one empty cell is a five-cell (a win on the spot)
 *     window with own count k-2, other 0:  either empty cell makes a four (the moves a VCF tries)
 *     window with own count k-3, other 0:  a three (open when two windows of a direction hold it)
 *
 * The context is an internal tool of the engines (not part of the public headers). It knows nothing of
 * misère: callers use it only where ttt_rules_line_wins says a line wins. Not thread-safe; one per engine.
 */
#ifndef TTT_SEARCH_THREATS_H
#define TTT_SEARCH_THREATS_H

#include "rules/lines.h"
#include "ttt/board.h"

/* The windows of the largest board (ttt_lines counts them). */
#define TTT_THREATS_MAX_WINDOWS (4 * TTT_MAX_CELLS)
/* Failed VCF positions remembered (a power of two): entries of the context's table. */
#define TTT_THREATS_TABLE_SIZE (1 << 16)

/* The counts are indexed by the geometry's window numbers (rules/lines.h). */
typedef struct ttt_threats {
    const ttt_lines *lines;                    /* the board's windows: one reference, held until done */
    uint8_t count[2][TTT_THREATS_MAX_WINDOWS]; /* stones of [TTT_X], [TTT_O] in the window */
    uint8_t at[TTT_MAX_CELLS];                 /* TTT_X, TTT_O or TTT_NOBODY */
    int stones;
    int fours[2];  /* windows holding k-1 stones of [side] and none of the other's */
    uint64_t hash; /* Zobrist hash of the stones (ttt_zobrist_key) */
    uint64_t failed[TTT_THREATS_TABLE_SIZE]; /* hash ^ attacker salt of positions with no VCF; 0 = empty */
    uint64_t nodes;                          /* VCF nodes searched since creation */
} ttt_threats;

/* Sets t up over the geometry `lines` (any rules) and the empty board. t takes a reference to lines, given
 * back by ttt_threats_done. */
void ttt_threats_init(ttt_threats *t, const ttt_lines *lines);

/* Gives back t's reference to its geometry; t is then unusable until initialised again. */
void ttt_threats_done(ttt_threats *t);

/* Makes t the position of b (same rules as init's; asserted). Keeps the table and the node count. */
void ttt_threats_set(ttt_threats *t, const ttt_board *b);

/* Puts who's stone on the empty cell / takes it back. */
void ttt_threats_play(ttt_threats *t, int cell, ttt_player who);
void ttt_threats_undo(ttt_threats *t, int cell, ttt_player who);

/* The distinct empty cells where who completes a line, written to out (room for max); returns how many
 * were found (stops counting at max). */
int ttt_threats_fives(const ttt_threats *t, ttt_player who, int *out, int max);

/* The shape a stone of who on the empty cell makes, direction by direction (the best of each direction). */
enum {
    TTT_SHAPE_NONE = 0,
    TTT_SHAPE_TWO,        /* one window of k-2 after the move (a closed or open two) */
    TTT_SHAPE_OPEN_TWO,   /* two or more such windows */
    TTT_SHAPE_THREE,      /* one window of k-1 stones missing two */
    TTT_SHAPE_OPEN_THREE, /* two or more: one more stone makes an open four */
    TTT_SHAPE_FOUR,       /* one five-cell in the direction */
    TTT_SHAPE_OPEN_FOUR, /* two or more five-cells in the direction: a win unless the other side wins first */
    TTT_SHAPE_FIVE,      /* completes a line */
    TTT_SHAPE_KINDS
};
typedef struct ttt_shape {
    uint8_t dir[4];                 /* TTT_SHAPE_* per direction */
    uint8_t kinds[TTT_SHAPE_KINDS]; /* how many directions have each shape */
} ttt_shape;
void ttt_threats_shape(const ttt_threats *t, int cell, ttt_player who, ttt_shape *out);

/* The result of a threat search. */
typedef enum ttt_threats_result {
    TTT_THREATS_NONE = 0, /* searched through: no such win */
    TTT_THREATS_WIN,      /* found: the line holds it */
    TTT_THREATS_UNKNOWN,  /* the node budget ran out first */
} ttt_threats_result;

/* Victory by continuous fours for the side to move of t's position (who must be that side, the position
 * ongoing): every attacker move makes a four (or completes a line), every defender move is the forced block,
 * and the defender never gets a line first. A defender block that makes the defender a four must be
 * answered by the attacker's block, which must itself make a four. At most `budget` nodes (0 = no limit).
 * On a win the moves (attacker, defender, attacker, ..., ending with the attacker's winning move) go to line
 * (room for TTT_MAX_CELLS) and their count to *length. t's position is unchanged on return. */
ttt_threats_result ttt_threats_vcf(ttt_threats *t, ttt_player who, uint64_t budget, int *line, int *length);

/* Victory by continuous threats for the side to move (who), fours and threes: besides the fours of the VCF,
 * an attacker move counts when afterwards it could make an open four (a move giving two or more five-cells);
 * the defender then answers with every move that could matter: the empty cells of the attacker's windows of
 * k-2 through each such open-four move, and the defender's own fours (after which the attacker must block).
 * Any other defence loses to the open four, so a win found is a win. At most max_threes such three moves on
 * any line of play, at most `budget` nodes (0 = no limit). On a win the attacker's first move goes to *first.
 * No table: positions are searched again where lines of play meet. t's position is unchanged on return. */
ttt_threats_result ttt_threats_vct(ttt_threats *t, ttt_player who, int max_threes, uint64_t budget,
                                   int *first);

/* The moves that can stop `attacker` from winning with an open four, when attacker has a cell giving it two
 * or more five-cells (a flex three, or a four-and-three shape) and neither side has a five-cell: the empty
 * cells of attacker's windows of k-2 through such cells, and the other side's four-making cells (a counter
 * four). Every other move of the other side loses to that open four. Written to out (room for
 * TTT_MAX_CELLS); returns how many, or -1 when attacker has no such cell. */
int ttt_threats_defences(const ttt_threats *t, ttt_player attacker, int *out);

/* The key under which the VCF stores a failed search of attacker in t->failed (at index key &
 * (TTT_THREATS_TABLE_SIZE - 1)): for a VCF of the caller's own sharing that table. */
uint64_t ttt_threats_vcf_key(const ttt_threats *t, ttt_player attacker);

/* Forgets the table of failed positions (a new game). */
void ttt_threats_clear(ttt_threats *t);

#endif
