/*
 * search/threats.c - line windows counted incrementally, shapes through a cell, and the VCF search (see
 * threats.h for the windows and what their counts mean).
 *
 * The VCF search, for the attacker A to move against the defender D:
 *   Step 1. A line now wins (length 1). A facing two five-cells of D has lost; facing one, A's only move is
 *           that block, and it must make A a four.
 *   Step 2. Otherwise A's moves are the empty cells of the windows holding k-2 of A's stones and none of D's
 *           (each makes a four); a position already searched through without a win is skipped (the table).
 *   Step 3. After A's four: two or more five-cells win (D blocks one, A plays another); one is D's forced
 *           block. D had no five-cell before A's move (Step 1), so only windows through D's block can give
 *           D one now: two of them refute A's four, one forces A's next move (Step 1 again).
 * Every attacker move fills a cell, so the search ends; a node budget bounds it.
 */
#include <assert.h>
#include <string.h>

#include "search/threats.h"

/* Salt of the table's keys when O attacks (X attacks with the plain hash), and the key that stands for a
 * hash of 0 (the table's empty mark). */
#define THREATS_ATTACKER_SALT UINT64_C(0x9e3779b97f4a7c15)
#define THREATS_ZERO_KEY      UINT64_C(0x5bd1e9955bd1e995)
/* Salt of the VCT's entries, times the threes left (a VCT and a VCF never share a key). */
#define THREATS_VCT_SALT UINT64_C(0xc2b2ae3d27d4eb4f)

static const int dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};

void ttt_threats_init(ttt_threats *t, const ttt_rules *rules)
{
    memset(t, 0, sizeof *t);
    t->rows = rules->rows;
    t->cols = rules->cols;
    t->k = rules->k;
    t->cells = rules->rows * rules->cols;
    for (int d = 0; d < 4; d++)
        for (int row = 0; row < t->rows; row++)
            for (int col = 0; col < t->cols; col++) {
                int last_row = row + (t->k - 1) * dirs[d][0], last_col = col + (t->k - 1) * dirs[d][1];
                if (last_row >= t->rows || last_col < 0 || last_col >= t->cols)
                    continue;
                int w = t->windows++;
                t->first[w] = (int16_t)(row * t->cols + col);
                t->step_row[w] = (int8_t)dirs[d][0];
                t->step_col[w] = (int8_t)dirs[d][1];
                t->dir[w] = (uint8_t)d;
                for (int i = 0; i < t->k; i++) {
                    int cell = (row + i * dirs[d][0]) * t->cols + col + i * dirs[d][1];
                    t->cell_window[cell][t->cell_windows[cell]++] = (uint16_t)w;
                }
            }
    for (int c = 0; c < t->cells; c++)
        t->at[c] = TTT_NOBODY;
}

void ttt_threats_clear(ttt_threats *t) { memset(t->failed, 0, sizeof t->failed); }

void ttt_threats_play(ttt_threats *t, int cell, ttt_player who)
{
    assert(cell >= 0 && cell < t->cells && t->at[cell] == TTT_NOBODY);
    t->at[cell] = (uint8_t)who;
    int other = 1 - who, k = t->k;
    for (int i = 0; i < t->cell_windows[cell]; i++) {
        int w = t->cell_window[cell][i];
        int mine = t->count[who][w]++, theirs = t->count[other][w];
        /* keep the count of four windows: who's may be made, the other side's spoilt */
        t->fours[who] += mine + 1 == k - 1 && theirs == 0;
        t->fours[who] -= mine == k - 1 && theirs == 0;
        t->fours[other] -= mine == 0 && theirs == k - 1;
    }
    t->stones++;
    t->hash ^= ttt_zobrist_key(who, cell);
}

void ttt_threats_undo(ttt_threats *t, int cell, ttt_player who)
{
    assert(cell >= 0 && cell < t->cells && t->at[cell] == who);
    t->at[cell] = TTT_NOBODY;
    int other = 1 - who, k = t->k;
    for (int i = 0; i < t->cell_windows[cell]; i++) {
        int w = t->cell_window[cell][i];
        int mine = --t->count[who][w], theirs = t->count[other][w];
        t->fours[who] -= mine + 1 == k - 1 && theirs == 0;
        t->fours[who] += mine == k - 1 && theirs == 0;
        t->fours[other] += mine == 0 && theirs == k - 1;
    }
    t->stones--;
    t->hash ^= ttt_zobrist_key(who, cell);
}

void ttt_threats_set(ttt_threats *t, const ttt_board *b)
{
    assert(b->rules.rows == t->rows && b->rules.cols == t->cols && b->rules.k == t->k);
    for (int c = 0; c < t->cells; c++)
        if (t->at[c] != TTT_NOBODY)
            ttt_threats_undo(t, c, (ttt_player)t->at[c]);
    for (int c = 0; c < t->cells; c++) {
        ttt_player p = ttt_board_at(b, c);
        if (p != TTT_NOBODY)
            ttt_threats_play(t, c, p);
    }
}

static inline int window_cell(const ttt_threats *t, int w, int i)
{
    return t->first[w] + i * (t->step_row[w] * t->cols + t->step_col[w]);
}

/* The first empty cell of window w other than `skip`, or -1. */
static int window_empty(const ttt_threats *t, int w, int skip)
{
    for (int i = 0; i < t->k; i++) {
        int c = window_cell(t, w, i);
        if (c != skip && t->at[c] == TTT_NOBODY)
            return c;
    }
    return -1;
}

/* Adds cell to the distinct list out[0..*n) when there is room. */
static void add_distinct(int *out, int *n, int max, int cell)
{
    for (int i = 0; i < *n; i++)
        if (out[i] == cell)
            return;
    if (*n < max)
        out[(*n)++] = cell;
}

int ttt_threats_fives(const ttt_threats *t, ttt_player who, int *out, int max)
{
    int n = 0, other = 1 - who;
    if (t->fours[who] == 0)
        return 0;
    for (int w = 0; w < t->windows && n < max; w++)
        if (t->count[who][w] == t->k - 1 && t->count[other][w] == 0)
            add_distinct(out, &n, max, window_empty(t, w, -1));
    return n;
}

/* The five-cells of who in the windows through cell (up to max, distinct). */
static int fives_through(const ttt_threats *t, ttt_player who, int cell, int *out, int max)
{
    int n = 0, other = 1 - who;
    for (int i = 0; i < t->cell_windows[cell] && n < max; i++) {
        int w = t->cell_window[cell][i];
        if (t->count[who][w] == t->k - 1 && t->count[other][w] == 0)
            add_distinct(out, &n, max, window_empty(t, w, -1));
    }
    return n;
}

void ttt_threats_shape(const ttt_threats *t, int cell, ttt_player who, ttt_shape *out)
{
    memset(out, 0, sizeof *out);
    int other = 1 - who;
    int fives[4][2], nfives[4] = {0}, threes[4] = {0}, twos[4] = {0};
    bool five[4] = {false};
    for (int i = 0; i < t->cell_windows[cell]; i++) {
        int w = t->cell_window[cell][i], d = t->dir[w];
        if (t->count[other][w])
            continue;
        int n = t->count[who][w] + 1;
        if (n >= t->k)
            five[d] = true;
        else if (n == t->k - 1)
            add_distinct(fives[d], &nfives[d], 2, window_empty(t, w, cell));
        else if (n == t->k - 2)
            threes[d]++;
        else if (n == t->k - 3 && n > 1)
            twos[d]++;
    }
    for (int d = 0; d < 4; d++) {
        int s = five[d]          ? TTT_SHAPE_FIVE
                : nfives[d] >= 2 ? TTT_SHAPE_OPEN_FOUR
                : nfives[d] == 1 ? TTT_SHAPE_FOUR
                : threes[d] >= 2 ? TTT_SHAPE_OPEN_THREE
                : threes[d] == 1 ? TTT_SHAPE_THREE
                : twos[d] >= 2   ? TTT_SHAPE_OPEN_TWO
                : twos[d] == 1   ? TTT_SHAPE_TWO
                                 : TTT_SHAPE_NONE;
        out->dir[d] = (uint8_t)s;
        out->kinds[s]++;
    }
}

/* --- VCF ------------------------------------------------------------------------------------------------ */

typedef struct vcf_search {
    uint64_t budget; /* 0 = none */
    uint64_t nodes;
    int *line;
    int length;
} vcf_search;

static uint64_t table_key(const ttt_threats *t, ttt_player attacker)
{
    uint64_t key = t->hash ^ (attacker == TTT_O ? THREATS_ATTACKER_SALT : 0);
    return key ? key : THREATS_ZERO_KEY;
}

/* Appends to moves (n so far) the empty cells, not yet in seen, of the windows holding `want` stones of a and
 * none of the other side, marking them in seen; returns the new count. */
static int add_window_cells(const ttt_threats *t, ttt_player a, int want, uint8_t *seen, int *moves, int n)
{
    ttt_player d = (ttt_player)(1 - a);
    for (int w = 0; w < t->windows; w++)
        if (t->count[a][w] == want && t->count[d][w] == 0)
            for (int i = 0; i < t->k; i++) {
                int c = window_cell(t, w, i);
                if (t->at[c] == TTT_NOBODY && !seen[c]) {
                    seen[c] = 1;
                    moves[n++] = c;
                }
            }
    return n;
}

/* Steps 1-3 for A to move, A with no five-cell; `forced` is D's one five-cell or -1 (then D has none).
 * `ply` is where A's move goes in the line. */
static ttt_threats_result vcf(ttt_threats *t, ttt_player a, int forced, vcf_search *s, int ply)
{
    ttt_player d = (ttt_player)(1 - a);
    if (s->budget && s->nodes >= s->budget)
        return TTT_THREATS_UNKNOWN;
    s->nodes++;
    t->nodes++;
    uint64_t key = table_key(t, a);
    uint64_t *slot = &t->failed[key & (TTT_THREATS_TABLE_SIZE - 1)];
    if (*slot == key)
        return TTT_THREATS_NONE;

    /* Step 2: the moves that make a four (only the block when forced). */
    int moves[TTT_MAX_CELLS], n = 0;
    uint8_t seen[TTT_MAX_CELLS];
    if (forced >= 0) {
        moves[n++] = forced;
    } else {
        memset(seen, 0, (size_t)t->cells);
        n = add_window_cells(t, a, t->k - 2, seen, moves, n);
    }

    bool unknown = false;
    for (int i = 0; i < n; i++) {
        int m = moves[i], f[2], g[2];
        ttt_threats_play(t, m, a);
        int nf = fives_through(t, a, m, f, 2);
        ttt_threats_result r = TTT_THREATS_NONE;
        if (nf >= 2) {
            s->line[ply + 1] = f[0];
            s->line[ply + 2] = f[1];
            s->length = ply + 3;
            r = TTT_THREATS_WIN;
        } else if (nf == 1) {
            /* Step 3: D's forced block, and what it threatens. */
            ttt_threats_play(t, f[0], d);
            int ng = fives_through(t, d, f[0], g, 2);
            if (ng < 2)
                r = vcf(t, a, ng == 1 ? g[0] : -1, s, ply + 2);
            if (r == TTT_THREATS_WIN)
                s->line[ply + 1] = f[0];
            ttt_threats_undo(t, f[0], d);
        }
        ttt_threats_undo(t, m, a);
        if (r == TTT_THREATS_WIN) {
            s->line[ply] = m;
            return r;
        }
        unknown |= r == TTT_THREATS_UNKNOWN;
    }
    if (!unknown)
        *slot = key;
    return unknown ? TTT_THREATS_UNKNOWN : TTT_THREATS_NONE;
}

ttt_threats_result ttt_threats_vcf(ttt_threats *t, ttt_player who, uint64_t budget, int *line, int *length)
{
    assert(t->k >= 2);
    *length = 0;
    int f[2];
    /* Step 1. */
    if (ttt_threats_fives(t, who, f, 1) == 1) {
        line[0] = f[0];
        *length = 1;
        return TTT_THREATS_WIN;
    }
    int nf = ttt_threats_fives(t, (ttt_player)(1 - who), f, 2);
    if (nf >= 2)
        return TTT_THREATS_NONE;
    vcf_search s = {.budget = budget, .line = line};
    ttt_threats_result r = vcf(t, who, nf == 1 ? f[0] : -1, &s, 0);
    if (r == TTT_THREATS_WIN)
        *length = s.length;
    return r;
}

/* --- VCT ------------------------------------------------------------------------------------------------ */

typedef struct vct_search {
    uint64_t budget, nodes;
} vct_search;

/* The cells where a stone of who gives two or more five-cells (an open four, two fours), as marks in
 * `mark` (cells bytes); returns how many. */
static int open_four_cells(const ttt_threats *t, ttt_player who, uint8_t *mark)
{
    int other = 1 - who, n = 0;
    memset(mark, 0, (size_t)t->cells);
    for (int w = 0; w < t->windows; w++) {
        if (t->count[who][w] != t->k - 2 || t->count[other][w])
            continue;
        for (int i = 0; i < t->k; i++) {
            int c = window_cell(t, w, i);
            if (t->at[c] != TTT_NOBODY || mark[c])
                continue;
            int f[2], nf = 0;
            for (int j = 0; j < t->cell_windows[c] && nf < 2; j++) {
                int v = t->cell_window[c][j];
                if (t->count[who][v] == t->k - 2 && t->count[other][v] == 0)
                    add_distinct(f, &nf, 2, window_empty(t, v, c));
            }
            if (nf >= 2) {
                mark[c] = 1;
                n++;
            }
        }
    }
    return n;
}

/* The defender's answers to the attacker's open-four cells (marked in y): the empty cells of the attacker's
 * windows of k-2 through them, and the defender's four-making cells. Returns how many, in out. */
static int defences(const ttt_threats *t, ttt_player a, const uint8_t *y, int *out)
{
    int d = 1 - a, n = 0;
    uint8_t seen[TTT_MAX_CELLS];
    memset(seen, 0, (size_t)t->cells);
    for (int w = 0; w < t->windows; w++) {
        bool attack = t->count[a][w] == t->k - 2 && t->count[d][w] == 0;
        bool counter = t->count[d][w] == t->k - 2 && t->count[a][w] == 0;
        if (!attack && !counter)
            continue;
        if (attack) {
            attack = false;
            for (int i = 0; i < t->k && !attack; i++)
                attack = y[window_cell(t, w, i)];
        }
        if (!attack && !counter)
            continue;
        for (int i = 0; i < t->k; i++) {
            int c = window_cell(t, w, i);
            if (t->at[c] == TTT_NOBODY && !seen[c]) {
                seen[c] = 1;
                out[n++] = c;
            }
        }
    }
    return n;
}

/* Whether a stone of who just played on cell gives who an open-four cell in a window through it. */
static bool makes_three(const ttt_threats *t, ttt_player who, int cell, const uint8_t *y)
{
    int other = 1 - who;
    for (int j = 0; j < t->cell_windows[cell]; j++) {
        int w = t->cell_window[cell][j];
        if (t->count[who][w] != t->k - 2 || t->count[other][w])
            continue;
        for (int i = 0; i < t->k; i++)
            if (y[window_cell(t, w, i)])
                return true;
    }
    return false;
}

/* A to move, with no five-cell; `forced` is D's one five-cell or -1. Positions searched through without a
 * win go into the table (keyed with the threes left). */
static ttt_threats_result vct(ttt_threats *t, ttt_player a, int forced, int threes, vct_search *s, int *first)
{
    ttt_player d = (ttt_player)(1 - a);
    if (s->budget && s->nodes >= s->budget)
        return TTT_THREATS_UNKNOWN;
    s->nodes++;
    t->nodes++;
    uint64_t key = table_key(t, a) ^ (THREATS_VCT_SALT * (uint64_t)(threes + 1));
    key = key ? key : THREATS_ZERO_KEY;
    uint64_t *slot = &t->failed[key & (TTT_THREATS_TABLE_SIZE - 1)];
    if (*slot == key)
        return TTT_THREATS_NONE;

    /* The moves: the forced block, or the fours and (threes left) the cells of windows of k-3. */
    int moves[TTT_MAX_CELLS], n = 0;
    uint8_t seen[TTT_MAX_CELLS];
    if (forced >= 0) {
        moves[n++] = forced;
    } else {
        memset(seen, 0, (size_t)t->cells);
        n = add_window_cells(t, a, t->k - 2, seen, moves, n);
        if (threes > 0)
            n = add_window_cells(t, a, t->k - 3, seen, moves, n);
    }

    bool unknown = false;
    for (int i = 0; i < n; i++) {
        int m = moves[i], f[2], g[2];
        ttt_threats_play(t, m, a);
        int nf = fives_through(t, a, m, f, 2);
        ttt_threats_result r = TTT_THREATS_NONE;
        if (nf >= 2) {
            r = TTT_THREATS_WIN;
        } else if (nf == 1) {
            ttt_threats_play(t, f[0], d);
            int ng = fives_through(t, d, f[0], g, 2);
            if (ng < 2)
                r = vct(t, a, ng == 1 ? g[0] : -1, threes, s, NULL);
            ttt_threats_undo(t, f[0], d);
        } else if (threes > 0) {
            uint8_t y[TTT_MAX_CELLS];
            int answers[TTT_MAX_CELLS];
            /* a three of this move (or, for the forced block, any open-four cell) */
            if (open_four_cells(t, a, y) > 0 && (forced >= 0 || makes_three(t, a, m, y))) {
                int na = defences(t, a, y, answers);
                r = TTT_THREATS_WIN;
                for (int j = 0; j < na && r == TTT_THREATS_WIN; j++) {
                    ttt_threats_play(t, answers[j], d);
                    int ng = fives_through(t, d, answers[j], g, 2);
                    if (ng >= 2)
                        r = TTT_THREATS_NONE;
                    else if (ng == 1 || open_four_cells(t, a, y) == 0) /* else the open four still wins */
                        r = vct(t, a, ng == 1 ? g[0] : -1, threes - 1, s, NULL);
                    ttt_threats_undo(t, answers[j], d);
                }
            }
        }
        ttt_threats_undo(t, m, a);
        if (r == TTT_THREATS_WIN) {
            if (first)
                *first = m;
            return r;
        }
        unknown |= r == TTT_THREATS_UNKNOWN;
    }
    if (!unknown)
        *slot = key;
    return unknown ? TTT_THREATS_UNKNOWN : TTT_THREATS_NONE;
}

ttt_threats_result ttt_threats_vct(ttt_threats *t, ttt_player who, int max_threes, uint64_t budget,
                                   int *first)
{
    assert(t->k >= 3 && max_threes >= 0);
    int f[2];
    if (ttt_threats_fives(t, who, f, 1) == 1) {
        *first = f[0];
        return TTT_THREATS_WIN;
    }
    int nf = ttt_threats_fives(t, (ttt_player)(1 - who), f, 2);
    if (nf >= 2)
        return TTT_THREATS_NONE;
    vct_search s = {.budget = budget};
    return vct(t, who, nf == 1 ? f[0] : -1, max_threes, &s, first);
}
