/* search/patterns.c - line patterns and cell classes kept incrementally (see patterns.h). */
#include "search/patterns.h"

#include <assert.h>
#include <string.h>

/* The k cells of a window as bits starting at bit s of a key. */
static inline uint64_t window_mask(int k, int s) { return ((UINT64_C(1) << k) - 1) << s; }

int ttt_patterns_classify(uint64_t own, uint64_t blocked, int k)
{
    uint64_t centre = UINT64_C(1) << (k - 1);
    own = (own | centre) & ~blocked;
    uint64_t fives = 0, threes = 0;
    int twos = 0;
    bool open = false;
    /* the k windows through the centre start at bits 0 .. k-1 */
    for (int s = 0; s < k; s++) {
        uint64_t w = window_mask(k, s);
        if (blocked & w)
            continue;
        open = true;
        int n = __builtin_popcountll(own & w);
        if (n >= k)
            return TTT_PAT_FIVE;
        if (n == k - 1)
            fives |= w & ~own;
        else if (n == k - 2)
            threes |= w & ~own;
        else if (n == k - 3 && n >= 2)
            twos++;
    }
    if (fives)
        return fives & (fives - 1) ? TTT_PAT_FLEX4 : TTT_PAT_FOUR;
    if (threes) {
        /* one more stone on a cell of a window of k-2: a four, open when it leaves two five-cells; a window
         * of k-1 after it holds that stone (none had k-1 before) */
        for (uint64_t e = threes; e; e &= e - 1) {
            uint64_t more = own | (e & -e), after = 0;
            for (int s = 0; s < k; s++) {
                uint64_t w = window_mask(k, s);
                if (!(blocked & w) && __builtin_popcountll(more & w) == k - 1)
                    after |= w & ~more;
            }
            if (after & (after - 1))
                return TTT_PAT_FLEX3;
        }
        return TTT_PAT_THREE;
    }
    if (twos)
        return twos >= 2 ? TTT_PAT_FLEX2 : TTT_PAT_TWO;
    return open ? TTT_PAT_NONE : TTT_PAT_DEAD;
}

int ttt_patterns_class_of(const uint8_t pat[TTT_DIRECTIONS])
{
    int n[TTT_PAT_KINDS] = {0};
    for (int d = 0; d < TTT_DIRECTIONS; d++)
        n[pat[d]]++;
    if (n[TTT_PAT_FIVE])
        return TTT_CLASS_FIVE;
    if (n[TTT_PAT_FLEX4] || n[TTT_PAT_FOUR] >= 2)
        return TTT_CLASS_FLEX4;
    if (n[TTT_PAT_FOUR])
        return n[TTT_PAT_FLEX3]                       ? TTT_CLASS_FOUR_FLEX3
               : n[TTT_PAT_THREE] || n[TTT_PAT_FLEX2] ? TTT_CLASS_FOUR_THREE
                                                      : TTT_CLASS_FOUR;
    if (n[TTT_PAT_FLEX3] >= 2)
        return TTT_CLASS_FLEX3_2X;
    if (n[TTT_PAT_FLEX3])
        return TTT_CLASS_FLEX3;
    if (n[TTT_PAT_THREE] >= 2)
        return TTT_CLASS_THREE_2X;
    if (n[TTT_PAT_THREE])
        return TTT_CLASS_THREE;
    if (n[TTT_PAT_FLEX2] || n[TTT_PAT_TWO] >= 2)
        return TTT_CLASS_TWO_2X;
    return n[TTT_PAT_TWO] ? TTT_CLASS_TWO : TTT_CLASS_NONE;
}

/* The run of cells a direction's windows through `cell` cover, in order along the line, from the geometry:
 * the first window brings its k cells, each later one (one cell further) its last. Writes them to run (room
 * for 2k-1) and where `cell` is among them to *at; returns how many (0: no window in that direction). */
static int run_of(const ttt_lines *l, int cell, int d, int16_t *run, int *at)
{
    int nwin, n = 0, k = l->k;
    const int16_t *through = ttt_lines_through(l, cell, &nwin);
    for (int i = 0; i < nwin; i++) {
        int w = through[i];
        if (l->win_dir[w] != d)
            continue;
        const int16_t *cells = ttt_lines_cells(l, w);
        if (n == 0) {
            for (int j = 0; j < k; j++) {
                run[n++] = cells[j];
                if (cells[j] == cell)
                    *at = j;
            }
        } else {
            run[n++] = cells[k - 1];
        }
    }
    return n;
}

/* The class of a cell from its four patterns, read from the table. */
static inline int class_at(const ttt_patterns *p, int s, int cell)
{
    const uint8_t *pat = p->pat[s][cell];
    return p
        ->class_table[pat[0] + TTT_PAT_KINDS * (pat[1] + TTT_PAT_KINDS * (pat[2] + TTT_PAT_KINDS * pat[3]))];
}

/* Stores cell's class for side s, keeping the counts and cell sets. */
static void set_class(ttt_patterns *p, int s, int cell, int cls, bool counted)
{
    int old = p->cls[s][cell];
    if (counted && old == cls)
        return;
    if (counted)
        p->count[s][old]--;
    p->cls[s][cell] = (uint8_t)cls;
    p->count[s][cls]++;
    if (cls >= TTT_CLASS_FOUR)
        ttt_bits_set(&p->at_least_four[s], cell);
    else
        ttt_bits_clear(&p->at_least_four[s], cell);
    if (cls == TTT_CLASS_FIVE)
        ttt_bits_set(&p->fives[s], cell);
    else
        ttt_bits_clear(&p->fives[s], cell);
}

/* Takes the empty cell out of the counts and sets (it is being filled). */
static void uncount(ttt_patterns *p, int cell)
{
    for (int s = 0; s < 2; s++) {
        for (int d = 0; d < TTT_DIRECTIONS; d++)
            p->pat_count[s][p->pat[s][cell][d]]--;
        p->count[s][p->cls[s][cell]]--;
        ttt_bits_clear(&p->at_least_four[s], cell);
        ttt_bits_clear(&p->fives[s], cell);
    }
}

/* The key without its centre bit (k-1), as TTT_PATTERNS_TABLE_BITS bits. */
static inline unsigned squeeze(uint64_t key, int k)
{
    return (unsigned)((key & ((UINT64_C(1) << (k - 1)) - 1)) | (key >> k << (k - 1)));
}

/* Classifies the empty cell's direction d for both sides; counted says whether its old patterns are in
 * pat_count. */
static inline void classify_at(ttt_patterns *p, int cell, int d, bool counted)
{
    if (counted) {
        p->pat_count[TTT_X][p->pat[TTT_X][cell][d]]--;
        p->pat_count[TTT_O][p->pat[TTT_O][cell][d]]--;
    }
    uint64_t wall = p->wall[cell][d], x = p->stone[TTT_X][cell][d], o = p->stone[TTT_O][cell][d];
    if (p->tabled) {
        unsigned tx = p->trit[squeeze(x, p->k)], to = p->trit[squeeze(o, p->k)],
                 tw = p->trit[squeeze(wall, p->k)];
        p->pat[TTT_X][cell][d] = p->table[tx + 2 * (to + tw)];
        p->pat[TTT_O][cell][d] = p->table[to + 2 * (tx + tw)];
    } else {
        p->pat[TTT_X][cell][d] = (uint8_t)ttt_patterns_classify(x, o | wall, p->k);
        p->pat[TTT_O][cell][d] = (uint8_t)ttt_patterns_classify(o, x | wall, p->k);
    }
    p->pat_count[TTT_X][p->pat[TTT_X][cell][d]]++;
    p->pat_count[TTT_O][p->pat[TTT_O][cell][d]]++;
    p->updates++;
}

/* The table of every key of k <= TTT_PATTERNS_TABLE_K: own and blocked disjoint (the wall never holds a
 * stone), so trit[own] + 2 * trit[blocked] numbers each pair once. */
static void build_table(ttt_patterns *p)
{
    int k = p->k, bits = 2 * k - 2;
    for (unsigned m = 0; m < (1u << TTT_PATTERNS_TABLE_BITS); m++) {
        unsigned v = 0;
        for (int b = TTT_PATTERNS_TABLE_BITS - 1; b >= 0; b--)
            v = v * 3 + ((m >> b) & 1);
        p->trit[m] = (uint16_t)v;
    }
    for (unsigned own = 0; own < (1u << bits); own++)
        for (unsigned blocked = 0; blocked < (1u << bits); blocked++) {
            if (own & blocked)
                continue;
            /* back to keys: bits k-1 and up move one up past the centre */
            uint64_t lo = (UINT64_C(1) << (k - 1)) - 1;
            uint64_t o = (own & lo) | ((uint64_t)(own & ~lo) << 1),
                     b = (blocked & lo) | ((uint64_t)(blocked & ~lo) << 1);
            p->table[p->trit[own] + 2 * p->trit[blocked]] = (uint8_t)ttt_patterns_classify(o, b, k);
        }
    p->tabled = true;
}

/* Every pattern and class of the empty cell from its keys; counted says whether its old class is counted. */
static void classify_cell(ttt_patterns *p, int cell, bool counted)
{
    for (int d = 0; d < TTT_DIRECTIONS; d++)
        classify_at(p, cell, d, counted);
    for (int s = 0; s < 2; s++)
        set_class(p, s, cell, class_at(p, s, cell), counted);
}

void ttt_patterns_init(ttt_patterns *p, const ttt_lines *lines)
{
    assert(lines->k <= TTT_MAX_SIDE);
    memset(p, 0, sizeof *p);
    p->lines = ttt_lines_ref(lines);
    p->k = lines->k;
    if (p->k <= TTT_PATTERNS_TABLE_K && p->k >= 2)
        build_table(p);
    for (int i = 0; i < (int)sizeof p->class_table; i++) {
        uint8_t pat[TTT_DIRECTIONS];
        for (int d = 0, rest = i; d < TTT_DIRECTIONS; d++, rest /= TTT_PAT_KINDS)
            pat[d] = (uint8_t)(rest % TTT_PAT_KINDS);
        p->class_table[i] = (uint8_t)ttt_patterns_class_of(pat);
    }
    int16_t run[2 * TTT_MAX_SIDE];
    for (int c = 0; c < lines->cells; c++) {
        p->at[c] = TTT_NOBODY;
        for (int d = 0; d < TTT_DIRECTIONS; d++) {
            int at = 0, n = run_of(lines, c, d, run, &at);
            p->run_first[c][d] = n ? run[0] : (int16_t)c;
            p->run_len[c][d] = (uint8_t)n;
            p->run_at[c][d] = (uint8_t)at;
            if (n >= 2)
                p->step[d] = run[1] - run[0];
            uint64_t reach = 0;
            for (int j = 0; j < n; j++)
                reach |= UINT64_C(1) << (j - at + p->k - 1);
            p->wall[c][d] = ~reach & window_mask(2 * p->k - 1, 0);
        }
    }
    for (int c = 0; c < lines->cells; c++)
        classify_cell(p, c, false);
}

void ttt_patterns_done(ttt_patterns *p)
{
    ttt_lines_unref(p->lines);
    p->lines = NULL;
}

/* Sets (put) or clears who's bit for `cell` in the keys of the cells of its runs, and classifies those that
 * are empty again in that direction, then their classes. */
static void update(ttt_patterns *p, int cell, ttt_player who, bool put)
{
    int16_t touched[TTT_DIRECTIONS * 2 * TTT_MAX_SIDE];
    int ntouched = 0, k = p->k;
    for (int d = 0; d < TTT_DIRECTIONS; d++) {
        int at = p->run_at[cell][d], n = p->run_len[cell][d], first = p->run_first[cell][d],
            step = p->step[d];
        for (int j = 0; j < n; j++) {
            int c = first + j * step;
            uint64_t bit = UINT64_C(1) << (at - j + k - 1);
            if (put)
                p->stone[who][c][d] |= bit;
            else
                p->stone[who][c][d] &= ~bit;
            if (c != cell && p->at[c] == TTT_NOBODY) {
                classify_at(p, c, d, true);
                touched[ntouched++] = (int16_t)c;
            }
        }
    }
    /* a cell in runs of two directions is touched twice: the second time its class is unchanged */
    for (int i = 0; i < ntouched; i++) {
        int c = touched[i];
        for (int s = 0; s < 2; s++)
            set_class(p, s, c, class_at(p, s, c), true);
    }
}

void ttt_patterns_play(ttt_patterns *p, int cell, ttt_player who)
{
    assert(cell >= 0 && cell < p->lines->cells && p->at[cell] == TTT_NOBODY);
    uncount(p, cell);
    p->at[cell] = (uint8_t)who;
    p->stones++;
    update(p, cell, who, true);
}

void ttt_patterns_undo(ttt_patterns *p, int cell, ttt_player who)
{
    assert(cell >= 0 && cell < p->lines->cells && p->at[cell] == who);
    p->at[cell] = TTT_NOBODY;
    p->stones--;
    update(p, cell, who, false);
    classify_cell(p, cell, false); /* its keys were kept while it was filled */
}

void ttt_patterns_set(ttt_patterns *p, const ttt_board *b)
{
    const ttt_lines *l = p->lines;
    assert(b->rules.rows == l->rows && b->rules.cols == l->cols && b->rules.k == l->k);
    for (int c = 0; c < l->cells; c++)
        if (p->at[c] != TTT_NOBODY)
            ttt_patterns_undo(p, c, (ttt_player)p->at[c]);
    for (int c = 0; c < l->cells; c++) {
        ttt_player who = ttt_board_at(b, c);
        if (who != TTT_NOBODY)
            ttt_patterns_play(p, c, who);
    }
}

void ttt_patterns_recount(const ttt_patterns *p, ttt_patterns *fresh)
{
    const ttt_lines *l = p->lines;
    int k = p->k;
    ttt_patterns_init(fresh, l);
    memcpy(fresh->at, p->at, sizeof fresh->at);
    fresh->stones = p->stones;
    memset(fresh->count, 0, sizeof fresh->count);
    memset(fresh->pat_count, 0, sizeof fresh->pat_count);
    /* each cell's keys straight from the stones of the windows through it */
    for (int c = 0; c < l->cells; c++) {
        int nwin;
        const int16_t *through = ttt_lines_through(l, c, &nwin);
        for (int i = 0; i < nwin; i++) {
            int w = through[i], d = l->win_dir[w];
            const int16_t *cells = ttt_lines_cells(l, w);
            int at = 0;
            while (cells[at] != c)
                at++;
            for (int j = 0; j < k; j++)
                if (p->at[cells[j]] != TTT_NOBODY)
                    fresh->stone[p->at[cells[j]]][c][d] |= UINT64_C(1) << (j - at + k - 1);
        }
    }
    for (int c = 0; c < l->cells; c++) {
        if (fresh->at[c] != TTT_NOBODY) {
            ttt_bits_clear(&fresh->at_least_four[0], c);
            ttt_bits_clear(&fresh->at_least_four[1], c);
            ttt_bits_clear(&fresh->fives[0], c);
            ttt_bits_clear(&fresh->fives[1], c);
            continue;
        }
        classify_cell(fresh, c, false);
    }
}

bool ttt_patterns_equal(const ttt_patterns *a, const ttt_patterns *b)
{
    const ttt_lines *l = a->lines;
    if (memcmp(a->count, b->count, sizeof a->count) ||
        memcmp(a->pat_count, b->pat_count, sizeof a->pat_count) || memcmp(a->at, b->at, sizeof a->at))
        return false;
    for (int s = 0; s < 2; s++)
        if (!ttt_bits_equal(&a->at_least_four[s], &b->at_least_four[s]) ||
            !ttt_bits_equal(&a->fives[s], &b->fives[s]))
            return false;
    for (int c = 0; c < l->cells; c++) {
        if (a->at[c] != TTT_NOBODY)
            continue;
        for (int s = 0; s < 2; s++)
            if (a->cls[s][c] != b->cls[s][c] || memcmp(a->pat[s][c], b->pat[s][c], TTT_DIRECTIONS))
                return false;
    }
    return true;
}
