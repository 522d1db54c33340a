/*
 * search/patterns.h - line patterns of k-in-a-row games where a line wins, kept incrementally over the rules'
 * shared windows (rules/lines.h): for every empty cell, direction and side, the pattern a stone of that side
 * there would make along that direction, and each cell's combined class over its four directions.
 *
 * A cell's view of one direction is the run of cells covered by the windows through it in that direction:
 * offsets -(k-1) .. k-1 along the line, as bits 0 .. 2k-2 of a key (the cell itself is bit k-1):
 *
 *     k = 5, direction across, cell c:   bit  0 1 2 3 [4] 5 6 7 8
 *                                        cell c-4 ... c ... c+4
 *
 *     stone[p][c][d]   bit set where side p has a stone
 *     wall[c][d]       bit set where no window through c in direction d reaches (off the board), fixed
 *
 * A stone on cell m changes only the keys of the cells in the windows through m, one direction each; so play
 * and undo update those keys and classify again only those (cell, direction) pairs, and the classes of those
 * cells. Only windows free of the other side's stones count, so the pattern of a side on a cell is that of a
 * stone of it placed there:
 *
 *     FIVE    a window of k of its stones (k or more in a row win: an overline is found through its windows)
 *     FLEX4   two or more empty cells each complete a window (an open four: one block cannot stop both)
 *     FOUR    exactly one such cell
 *     FLEX3   one more stone can make a FLEX4 (an open three)
 *     THREE   one more stone can make a FOUR
 *     FLEX2   two or more windows of k-3 stones (and at least 2 of them)
 *     TWO     one such window
 *     NONE    some window free of the other side, nothing above
 *     DEAD    no window free of the other side: no line can ever pass here in this direction
 *
 * The context knows nothing of misère: callers use it where ttt_rules_line_wins says a line wins. Not
 * thread-safe; one per engine. It holds one reference to its geometry, given back by ttt_patterns_done.
 */
#ifndef TTT_SEARCH_PATTERNS_H
#define TTT_SEARCH_PATTERNS_H

#include "rules/lines.h"
#include "ttt/board.h"

/* The pattern of one direction, in increasing strength. */
enum {
    TTT_PAT_DEAD = 0,
    TTT_PAT_NONE,
    TTT_PAT_TWO,
    TTT_PAT_FLEX2,
    TTT_PAT_THREE,
    TTT_PAT_FLEX3,
    TTT_PAT_FOUR,
    TTT_PAT_FLEX4,
    TTT_PAT_FIVE,
    TTT_PAT_KINDS
};

/* A cell's class for one side: the combination of its four directions, in increasing strength, the classes
 * that make a four last. */
enum {
    TTT_CLASS_NONE = 0,
    TTT_CLASS_TWO,        /* a two */
    TTT_CLASS_TWO_2X,     /* two or more twos, or a flex two */
    TTT_CLASS_THREE,      /* makes a four next */
    TTT_CLASS_THREE_2X,   /* two threes */
    TTT_CLASS_FLEX3,      /* an open three */
    TTT_CLASS_FLEX3_2X,   /* two open threes (a win unless the other side has fours) */
    TTT_CLASS_FOUR,       /* a four: forces the block; this class and those above make a four */
    TTT_CLASS_FOUR_THREE, /* a four and a three or two (a four that builds) */
    TTT_CLASS_FOUR_FLEX3, /* a four and an open three: wins unless the block makes a four */
    TTT_CLASS_FLEX4,      /* an open four or two fours: wins unless the other side completes first */
    TTT_CLASS_FIVE,       /* completes a line */
    TTT_CLASS_KINDS
};

/* Up to this k a direction's pattern is read from a table of every key (a trit per cell other than the
 * centre: empty, own, blocked): 3^8 entries at k = 5, where it doubles the updates a second. */
#define TTT_PATTERNS_TABLE_K    5
#define TTT_PATTERNS_TABLE_BITS (2 * TTT_PATTERNS_TABLE_K - 2)
#define TTT_PATTERNS_TABLE_SIZE 6561 /* 3^TTT_PATTERNS_TABLE_BITS */

/* What a play changed on one empty cell of its runs (one direction: a cell lies on one line through the
 * stone), as it was before: what undo puts back instead of classifying again. */
typedef struct ttt_patterns_change {
    int16_t cell;
    uint8_t dir;
    uint8_t pat[2]; /* [side]: pat[side][cell][dir] */
    uint8_t cls[2]; /* [side]: cls[side][cell] */
} ttt_patterns_change;

/* One play's record: its stone and its changes, changes[first ..] up to the next record's first. */
typedef struct ttt_patterns_played {
    int16_t cell;
    uint8_t who;
    int first;
} ttt_patterns_played;

typedef struct ttt_patterns {
    const ttt_lines *lines; /* one reference, held until ttt_patterns_done */
    int k, stones;
    uint8_t at[TTT_MAX_CELLS]; /* TTT_X, TTT_O or TTT_NOBODY */
    uint64_t stone[2][TTT_MAX_CELLS][TTT_DIRECTIONS];
    uint64_t wall[TTT_MAX_CELLS][TTT_DIRECTIONS];
    /* each (cell, direction)'s run, from the geometry once: its first cell, its length and where the cell is
     * in it; the run's cells are step[d] apart (a row: 1, a column: cols, ...) */
    int16_t run_first[TTT_MAX_CELLS][TTT_DIRECTIONS];
    uint8_t run_len[TTT_MAX_CELLS][TTT_DIRECTIONS], run_at[TTT_MAX_CELLS][TTT_DIRECTIONS];
    int step[TTT_DIRECTIONS];
    /* Of the empty cells (an occupied cell keeps the values it had when it was filled, counted nowhere): */
    uint8_t pat[2][TTT_MAX_CELLS][TTT_DIRECTIONS]; /* TTT_PAT_* */
    uint8_t cls[2][TTT_MAX_CELLS];                 /* TTT_CLASS_* */
    int count[2][TTT_CLASS_KINDS];                 /* empty cells of each class */
    int pat_count[2][TTT_PAT_KINDS];               /* (empty cell, direction) pairs of each pattern */
    ttt_bits at_least_four[2];                     /* empty cells of class TTT_CLASS_FOUR or above: fours */
    ttt_bits fives[2];                             /* empty cells of class TTT_CLASS_FIVE */
    ttt_bits flex4[2];  /* empty cells of class TTT_CLASS_FLEX4: a stone there leaves two five-cells */
    ttt_bits threes[2]; /* empty cells of class TTT_CLASS_FLEX3 or TTT_CLASS_FLEX3_2X: make an open three */
    uint64_t hash;      /* Zobrist hash of the stones (ttt_zobrist_key) */
    uint64_t updates;   /* (cell, direction) pairs classified since init */
    /* With ttt_patterns_reserve, the records of the plays not yet taken back, a stack (the last play on
     * top): undo of the top record's stone puts its changes back; any other undo forgets every record and
     * classifies again. NULL without: undo always classifies again. */
    ttt_patterns_played *played;
    ttt_patterns_change *changes;
    int nplayed, nchanges;
    /* k <= TTT_PATTERNS_TABLE_K: the pattern of every key, indexed by trit[own] + 2 * trit[blocked] of the
     * key without its centre bit (trit: a bit set read in base 3) */
    bool tabled;
    uint8_t class_table[TTT_PAT_KINDS * TTT_PAT_KINDS * TTT_PAT_KINDS * TTT_PAT_KINDS]; /* by four patterns */
    uint16_t trit[1 << TTT_PATTERNS_TABLE_BITS];
    uint8_t table[TTT_PATTERNS_TABLE_SIZE];
} ttt_patterns;

/* Sets p up over the geometry `lines` (any rules, k <= TTT_MAX_SIDE) and the empty board; p takes a
 * reference to lines. */
void ttt_patterns_init(ttt_patterns *p, const ttt_lines *lines);

/* Allocates p's undo records (before any play; k >= 2): from then on an undo of the last play's stone puts
 * back what that play changed instead of classifying the cells of its lines again (the same values, less
 * than half the work). False when out of memory: p works as before, undo classifying again. */
bool ttt_patterns_reserve(ttt_patterns *p);

/* Gives back p's reference to its geometry and frees its records; p is unusable until initialised again. */
void ttt_patterns_done(ttt_patterns *p);

/* Makes p the position of b (same rules as init's; asserted). */
void ttt_patterns_set(ttt_patterns *p, const ttt_board *b);

/* Puts who's stone on the empty cell / takes it back (the last stone played on it). */
void ttt_patterns_play(ttt_patterns *p, int cell, ttt_player who);
void ttt_patterns_undo(ttt_patterns *p, int cell, ttt_player who);

/* The pattern a stone of `own` side on the centre bit (k-1) of a key makes, given the keys of its stones and
 * of the cells it cannot use (the other side's stones and the wall); what play and undo store. */
int ttt_patterns_classify(uint64_t own, uint64_t blocked, int k);

/* The class of a cell from its four patterns. */
int ttt_patterns_class_of(const uint8_t pat[TTT_DIRECTIONS]);

/* Recomputes every pattern and class of p's position from the stones alone (no incremental update) into
 * `fresh`, an uninitialised context that gets its own reference to p's geometry (free with
 * ttt_patterns_done): what the tests compare the incremental values with. */
void ttt_patterns_recount(const ttt_patterns *p, ttt_patterns *fresh);

/* Are the patterns, classes, both counts and the cell sets of a and b's empty cells the same? */
bool ttt_patterns_equal(const ttt_patterns *a, const ttt_patterns *b);

/* --- Threat search over the patterns ----------------------------------------------------------------------
 *
 * A victory by continuous threats for the attacker A to move against the defender D, read from the classes:
 *   Step 1. A five-cell of A wins. Two five-cells of D lose; one is A's only move: a VCF's must make a four,
 *           a VCT's may also be any block after which A threatens (Step 3: its open three still stands, or the
 *           block makes one), at no cost in threes.
 *   Step 2. A's moves: its four cells (class four or above), then, with threes left, its open-three cells
 *           (class TTT_CLASS_FLEX3 or FLEX3_2X).
 *   Step 3. After A's move: two five-cells of A win (D has none: A blocked it or it had none). One is D's
 *           forced block (then Step 1 again for A). Else, with threes left, a cell of A's class FLEX4 (a
 *           stone there leaves two five-cells) threatens a win D must stop: D's exact defence set is its four
 *           cells (A must block, Step 1) and the cells after which A has no FLEX4 cell left (tried from the
 *           cells of those FLEX4 cells' four lines within k-1); every other D move loses to that FLEX4 cell.
 *           A wins when every defence loses to a VCT with one three fewer (the three is spent). Else A's move threatened nothing.
 * Every attacker move fills a cell, so the search ends. With threes = 0 it is a VCF. Positions are kept in
 * the caller's table across searches (and moves of a game): a win with t threes holds for any t' >= t, a
 * proven failure for any t' <= t. The search stops at its node budget or deadline (result unknown).
 */

/* What a threat search found. */
typedef enum ttt_vct_result {
    TTT_VCT_NONE = 0, /* searched through: no such win */
    TTT_VCT_WIN,      /* a forced win */
    TTT_VCT_UNKNOWN,  /* the budget or the deadline came first */
} ttt_vct_result;

typedef struct ttt_vct_entry {
    uint64_t key; /* position hash salted by the attacker; 0 = empty */
    int16_t move; /* the attacker's winning move of a win */
    uint8_t threes;
    uint8_t result; /* TTT_VCT_WIN or TTT_VCT_NONE */
} ttt_vct_entry;

/* The settings and statistics of the threat searches; the table (entries, a power of two) is the
 * caller's, zeroed for a new game. */
typedef struct ttt_vct {
    ttt_vct_entry *table;
    uint64_t entries;
    uint64_t budget; /* nodes per search, 0 = no limit */
    double deadline; /* ttt_clock_ms() value at which a search stops, 0 = none */
    uint64_t nodes;  /* of the last search */
    uint64_t total;  /* of every search since the context was set up */
    bool stopped;    /* the last search ran out of budget or time */
} ttt_vct;

/* Searches for a victory by continuous threats (threes <= TTT_VCT_MAX_THREES; 0: fours only, a VCF) of
 * `who` moving next in p's ongoing position (the side to move, or the other side as if given a free move:
 * what a threat of the opponent's looks like), where the rules make a line win. The threes go 0, 1, ... up
 * to `threes` (the shortest first); below the root A's threes lie on the lines of its last move. On a win
 * the attacker's first move goes to *first (when first is not NULL). p's position is unchanged on return
 * (its stones are played and taken back). */
#define TTT_VCT_MAX_THREES 32
ttt_vct_result ttt_patterns_vct(ttt_patterns *p, ttt_vct *v, ttt_player who, int threes, int *first);

/* The attacker's winning move of p's position from v's table (a win stored by ttt_patterns_vct with at
 * most `threes` threes), or -1. */
int ttt_patterns_vct_move(const ttt_patterns *p, const ttt_vct *v, ttt_player who, int threes);

/* D's exact defence set against A's FLEX4 cells (Step 3) when A has some and D has no five-cell: D's four
 * cells and the cells after which A has none, in increasing order, to out (room for TTT_MAX_CELLS); returns
 * how many (0: nothing stops A), or -1 when A has no FLEX4 cell. p's position is unchanged on return. */
int ttt_patterns_defences(ttt_patterns *p, ttt_player attacker, int *out);

#endif
