/*
 * search/threats.c - line windows counted incrementally, shapes through a cell, and the VCF and VCT searches
 * (see threats.h for the windows and what their counts mean).
 *
 * The VCF search, for the attacker A to move against the defender D:
 *   Step 1. A line now wins (length 1). A facing two five-cells of D has lost; facing one, A's only move is
 *           that block, and it must make A a four.
 *   Step 2. Otherwise A's moves are the empty cells of the windows holding k-2 of A's stones and none of D's
 *           (each makes a four); a position already searched through without a win is skipped (the table).
 *   Step 3. After A's four: two or more five-cells win (D blocks one, A plays another); one is D's forced
 *           block. D had no five-cell before A's move (Step 1), so only windows through D's block can give
 *           D one now: two of them refute A's four, one forces A's next move (Step 1 again).
 * Every attacker move fills a cell, so the search ends; a node budget bounds it. The VCT is the same search
 * with threes allowed (threats.h): one function, `search`, does both.
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

void ttt_threats_init(ttt_threats *t, const ttt_lines *lines)
{
    assert(lines->nwin <= TTT_THREATS_MAX_WINDOWS);
    memset(t, 0, sizeof *t);
    t->lines = ttt_lines_ref(lines);
    for (int c = 0; c < lines->cells; c++)
        t->at[c] = TTT_NOBODY;
}

void ttt_threats_done(ttt_threats *t)
{
    ttt_lines_unref(t->lines);
    t->lines = NULL;
}

void ttt_threats_clear(ttt_threats *t) { memset(t->failed, 0, sizeof t->failed); }

void ttt_threats_play(ttt_threats *t, int cell, ttt_player who)
{
    assert(cell >= 0 && cell < t->lines->cells && t->at[cell] == TTT_NOBODY);
    t->at[cell] = (uint8_t)who;
    int other = 1 - who, k = t->lines->k, n;
    const int16_t *through = ttt_lines_through(t->lines, cell, &n);
    for (int i = 0; i < n; i++) {
        int w = through[i];
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
    assert(cell >= 0 && cell < t->lines->cells && t->at[cell] == who);
    t->at[cell] = TTT_NOBODY;
    int other = 1 - who, k = t->lines->k, n;
    const int16_t *through = ttt_lines_through(t->lines, cell, &n);
    for (int i = 0; i < n; i++) {
        int w = through[i];
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
    const ttt_lines *l = t->lines;
    assert(b->rules.rows == l->rows && b->rules.cols == l->cols && b->rules.k == l->k);
    for (int c = 0; c < l->cells; c++)
        if (t->at[c] != TTT_NOBODY)
            ttt_threats_undo(t, c, (ttt_player)t->at[c]);
    for (int c = 0; c < l->cells; c++) {
        ttt_player p = ttt_board_at(b, c);
        if (p != TTT_NOBODY)
            ttt_threats_play(t, c, p);
    }
}

/* The first empty cell of window w other than `skip`, or -1. */
static int window_empty(const ttt_threats *t, int w, int skip)
{
    const int16_t *cells = ttt_lines_cells(t->lines, w);
    for (int i = 0; i < t->lines->k; i++)
        if (cells[i] != skip && t->at[cells[i]] == TTT_NOBODY)
            return cells[i];
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
    const ttt_lines *l = t->lines;
    int n = 0, other = 1 - who;
    if (t->fours[who] == 0)
        return 0;
    for (int i = 0; i < l->nwin && n < max; i++) {
        int w = l->dir_win[i];
        if (t->count[who][w] == l->k - 1 && t->count[other][w] == 0)
            add_distinct(out, &n, max, window_empty(t, w, -1));
    }
    return n;
}

/* The five-cells of who in the windows through cell (up to max <= 2, distinct), direction by direction as
 * ttt_threats_fives finds them: within a direction the cell's windows come in the same order. */
static int fives_through(const ttt_threats *t, ttt_player who, int cell, int *out, int max)
{
    assert(max <= 2);
    int other = 1 - who, k = t->lines->k, nwin, found[TTT_DIRECTIONS][2], nfound[TTT_DIRECTIONS] = {0};
    const int16_t *through = ttt_lines_through(t->lines, cell, &nwin);
    for (int i = 0; i < nwin; i++) {
        int w = through[i], d = t->lines->win_dir[w];
        if (t->count[who][w] == k - 1 && t->count[other][w] == 0)
            add_distinct(found[d], &nfound[d], max, window_empty(t, w, -1));
    }
    int n = 0;
    for (int d = 0; d < TTT_DIRECTIONS; d++)
        for (int j = 0; j < nfound[d]; j++)
            add_distinct(out, &n, max, found[d][j]);
    return n;
}

void ttt_threats_shape(const ttt_threats *t, int cell, ttt_player who, ttt_shape *out)
{
    memset(out, 0, sizeof *out);
    int other = 1 - who, k = t->lines->k, nwin;
    int fives[TTT_DIRECTIONS][2], nfives[TTT_DIRECTIONS] = {0}, threes[TTT_DIRECTIONS] = {0},
                                  twos[TTT_DIRECTIONS] = {0};
    bool five[TTT_DIRECTIONS] = {false};
    const int16_t *through = ttt_lines_through(t->lines, cell, &nwin);
    for (int i = 0; i < nwin; i++) {
        int w = through[i], d = t->lines->win_dir[w];
        if (t->count[other][w])
            continue;
        int n = t->count[who][w] + 1;
        if (n == k - 1) {
            add_distinct(fives[d], &nfives[d], 2, window_empty(t, w, cell));
            continue;
        }
        /* without branches: the windows come in no order the predictor could learn */
        five[d] |= n >= k;
        threes[d] += n == k - 2;
        twos[d] += n == k - 3 && n > 1;
    }
    for (int d = 0; d < TTT_DIRECTIONS; d++) {
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

/* --- VCF and VCT ---------------------------------------------------------------------------------------- */

static uint64_t table_key(const ttt_threats *t, ttt_player attacker)
{
    uint64_t key = t->hash ^ (attacker == TTT_O ? THREATS_ATTACKER_SALT : 0);
    return key ? key : THREATS_ZERO_KEY;
}

uint64_t ttt_threats_vcf_key(const ttt_threats *t, ttt_player attacker) { return table_key(t, attacker); }

/* Appends to moves (n so far) the empty cells of window w not yet in seen, marking them; returns the new
 * count. */
static inline int add_empty_cells(const ttt_threats *t, int w, uint8_t *seen, int *moves, int n)
{
    const int16_t *cells = ttt_lines_cells(t->lines, w);
    for (int i = 0; i < t->lines->k; i++) {
        int c = cells[i];
        if (t->at[c] == TTT_NOBODY && !seen[c]) {
            seen[c] = 1;
            moves[n++] = c;
        }
    }
    return n;
}

/* Puts the windows found[0..n) (in ascending numbers) in the order of the geometry's dir_win, by direction
 * then first cell: within a direction the windows' own numbers already keep that order, so a stable split
 * by direction gives it. Writes them to out; returns n. */
static int by_direction(const ttt_lines *l, const int16_t *found, int n, int16_t *out)
{
    int m = 0;
    for (int d = 0; d < TTT_DIRECTIONS; d++)
        for (int i = 0; i < n; i++)
            if (l->win_dir[found[i]] == d)
                out[m++] = found[i];
    return m;
}

/* Appends to moves (n so far) the empty cells, not yet in seen, of the windows holding `want` stones of a and
 * none of the other side, window by window in dir_win order, marking them in seen; returns the new count.
 * The windows are found in one pass over their numbers (the cheap part: few match) and then ordered. */
static int add_window_cells(const ttt_threats *t, ttt_player a, int want, uint8_t *seen, int *moves, int n)
{
    const uint8_t *mine = t->count[a], *theirs = t->count[1 - a];
    int16_t found[TTT_THREATS_MAX_WINDOWS], order[TTT_THREATS_MAX_WINDOWS];
    int nfound = 0;
    for (int w = 0, nwin = t->lines->nwin; w < nwin; w++)
        if (mine[w] == want && theirs[w] == 0)
            found[nfound++] = (int16_t)w;
    nfound = by_direction(t->lines, found, nfound, order);
    for (int i = 0; i < nfound; i++)
        n = add_empty_cells(t, order[i], seen, moves, n);
    return n;
}

/* Counts one node of a search that has searched *nodes of `budget` (0 = no limit); false, counting nothing,
 * once the budget is spent. */
static bool node_enter(ttt_threats *t, uint64_t budget, uint64_t *nodes)
{
    if (budget && *nodes >= budget)
        return false;
    (*nodes)++;
    t->nodes++;
    return true;
}

/* A's moves, written to moves: D's five-cell `forced` alone when it is one (>= 0), else the empty cells of
 * A's windows of k-2 (each makes a four) and, with threes, then those of its windows of k-3. Returns how
 * many. */
static int attacker_moves(const ttt_threats *t, ttt_player a, int forced, bool threes, int *moves)
{
    if (forced >= 0) {
        moves[0] = forced;
        return 1;
    }
    uint8_t seen[TTT_MAX_CELLS];
    memset(seen, 0, (size_t)t->lines->cells);
    int n = add_window_cells(t, a, t->lines->k - 2, seen, moves, 0);
    return threes ? add_window_cells(t, a, t->lines->k - 3, seen, moves, n) : n;
}

/* The cells where a stone of who gives two or more five-cells (an open four, two fours), as marks in
 * `mark` (cells bytes); returns how many. */
static int open_four_cells(const ttt_threats *t, ttt_player who, uint8_t *mark)
{
    const ttt_lines *l = t->lines;
    int other = 1 - who, n = 0, k = l->k;
    memset(mark, 0, (size_t)l->cells);
    for (int w = 0; w < l->nwin; w++) {
        if (t->count[who][w] != k - 2 || t->count[other][w])
            continue;
        const int16_t *cells = ttt_lines_cells(l, w);
        for (int i = 0; i < k; i++) {
            int c = cells[i], nwin;
            if (t->at[c] != TTT_NOBODY || mark[c])
                continue;
            int f[2], nf = 0;
            const int16_t *through = ttt_lines_through(l, c, &nwin);
            for (int j = 0; j < nwin && nf < 2; j++) {
                int v = through[j];
                if (t->count[who][v] == k - 2 && t->count[other][v] == 0)
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

/* Whether window w holds a cell marked in y. */
static bool window_marked(const ttt_threats *t, int w, const uint8_t *y)
{
    const int16_t *cells = ttt_lines_cells(t->lines, w);
    for (int i = 0; i < t->lines->k; i++)
        if (y[cells[i]])
            return true;
    return false;
}

/* The defender's answers to the attacker's open-four cells (marked in y): the empty cells of the attacker's
 * windows of k-2 through them, and the defender's four-making cells. Returns how many, in out. */
static int defences(const ttt_threats *t, ttt_player a, const uint8_t *y, int *out)
{
    const ttt_lines *l = t->lines;
    const uint8_t *mine = t->count[a], *theirs = t->count[1 - a];
    int n = 0, k = l->k, nfound = 0;
    int16_t found[TTT_THREATS_MAX_WINDOWS], order[TTT_THREATS_MAX_WINDOWS];
    for (int w = 0, nwin = l->nwin; w < nwin; w++) {
        bool attack = mine[w] == k - 2 && theirs[w] == 0 && window_marked(t, w, y);
        bool counter = theirs[w] == k - 2 && mine[w] == 0;
        if (attack || counter)
            found[nfound++] = (int16_t)w;
    }
    nfound = by_direction(l, found, nfound, order);
    uint8_t seen[TTT_MAX_CELLS];
    memset(seen, 0, (size_t)l->cells);
    for (int i = 0; i < nfound; i++)
        n = add_empty_cells(t, order[i], seen, out, n);
    return n;
}

/* Whether a stone of who just played on cell gives who an open-four cell in a window through it. */
static bool makes_three(const ttt_threats *t, ttt_player who, int cell, const uint8_t *y)
{
    int other = 1 - who, nwin;
    const int16_t *through = ttt_lines_through(t->lines, cell, &nwin);
    for (int j = 0; j < nwin; j++) {
        int w = through[j];
        if (t->count[who][w] == t->lines->k - 2 && !t->count[other][w] && window_marked(t, w, y))
            return true;
    }
    return false;
}

/* One VCF or VCT search. */
typedef struct threat_search {
    uint64_t budget; /* 0 = none */
    uint64_t nodes;
    bool vct;   /* the table's keys are salted with the threes left */
    int *line;  /* a VCF's line of play (room for TTT_MAX_CELLS), or NULL */
    int length; /* of the line, on a win */
    int first;  /* the attacker's first move, on a win */
} threat_search;

/* Steps 2-3 for A to move, A with no five-cell; `forced` is D's one five-cell or -1 (then D has none). With
 * threes > 0 (a VCT) A's moves include those of its windows of k-3, and a move after which A could make an
 * open four wins when every defence (defences) still loses to a VCT with one three fewer. `ply` is where
 * A's move goes in the line. Positions searched through without a win go into the table. */
static ttt_threats_result search(ttt_threats *t, ttt_player a, int forced, int threes, threat_search *s,
                                 int ply)
{
    ttt_player d = (ttt_player)(1 - a);
    if (!node_enter(t, s->budget, &s->nodes))
        return TTT_THREATS_UNKNOWN;
    uint64_t key = table_key(t, a);
    if (s->vct) { /* a VCT and a VCF never share a key */
        key ^= THREATS_VCT_SALT * (uint64_t)(threes + 1);
        key = key ? key : THREATS_ZERO_KEY;
    }
    uint64_t *slot = &t->failed[key & (TTT_THREATS_TABLE_SIZE - 1)];
    if (*slot == key)
        return TTT_THREATS_NONE;

    /* Step 2: the moves that make a four (only the block when forced), and with threes left the threes. */
    int moves[TTT_MAX_CELLS], n = attacker_moves(t, a, forced, threes > 0, moves);

    bool unknown = false;
    for (int i = 0; i < n; i++) {
        int m = moves[i], f[2], g[2];
        ttt_threats_play(t, m, a);
        int nf = fives_through(t, a, m, f, 2);
        ttt_threats_result r = TTT_THREATS_NONE;
        if (nf >= 2) {
            if (s->line) {
                s->line[ply + 1] = f[0];
                s->line[ply + 2] = f[1];
                s->length = ply + 3;
            }
            r = TTT_THREATS_WIN;
        } else if (nf == 1) {
            /* Step 3: D's forced block, and what it threatens. */
            ttt_threats_play(t, f[0], d);
            int ng = fives_through(t, d, f[0], g, 2);
            if (ng < 2)
                r = search(t, a, ng == 1 ? g[0] : -1, threes, s, ply + 2);
            if (r == TTT_THREATS_WIN && s->line)
                s->line[ply + 1] = f[0];
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
                        r = search(t, a, ng == 1 ? g[0] : -1, threes - 1, s, ply + 2);
                    ttt_threats_undo(t, answers[j], d);
                }
            }
        }
        ttt_threats_undo(t, m, a);
        if (r == TTT_THREATS_WIN) {
            if (s->line)
                s->line[ply] = m;
            if (ply == 0)
                s->first = m;
            return r;
        }
        unknown |= r == TTT_THREATS_UNKNOWN;
    }
    if (!unknown)
        *slot = key;
    return unknown ? TTT_THREATS_UNKNOWN : TTT_THREATS_NONE;
}

/* Step 1, then the search for who to move. */
static ttt_threats_result search_root(ttt_threats *t, ttt_player who, int threes, threat_search *s)
{
    int f[2];
    if (ttt_threats_fives(t, who, f, 1) == 1) {
        if (s->line)
            s->line[0] = f[0];
        s->length = 1;
        s->first = f[0];
        return TTT_THREATS_WIN;
    }
    int nf = ttt_threats_fives(t, (ttt_player)(1 - who), f, 2);
    if (nf >= 2)
        return TTT_THREATS_NONE;
    return search(t, who, nf == 1 ? f[0] : -1, threes, s, 0);
}

int ttt_threats_defences(const ttt_threats *t, ttt_player attacker, int *out)
{
    uint8_t y[TTT_MAX_CELLS];
    if (open_four_cells(t, attacker, y) == 0)
        return -1;
    return defences(t, attacker, y, out);
}

ttt_threats_result ttt_threats_vcf(ttt_threats *t, ttt_player who, uint64_t budget, int *line, int *length)
{
    assert(t->lines->k >= 2);
    threat_search s = {.budget = budget, .line = line};
    ttt_threats_result r = search_root(t, who, 0, &s);
    *length = r == TTT_THREATS_WIN ? s.length : 0;
    return r;
}

ttt_threats_result ttt_threats_vct(ttt_threats *t, ttt_player who, int max_threes, uint64_t budget,
                                   int *first)
{
    assert(t->lines->k >= 3 && max_threes >= 0);
    threat_search s = {.budget = budget, .vct = true};
    ttt_threats_result r = search_root(t, who, max_threes, &s);
    if (r == TTT_THREATS_WIN)
        *first = s.first;
    return r;
}
