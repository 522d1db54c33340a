/* search/patterns.c - line patterns and cell classes kept incrementally (see patterns.h). */
#include "search/patterns.h"

#include <assert.h>
#include <stdlib.h>
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

/* The cell sets a class puts its cells in, as bits: most class changes leave every set as it was. */
enum { IN_FOUR = 1, IN_FIVES = 2, IN_FLEX4 = 4, IN_THREES = 8 };
static const uint8_t CLASS_SETS[TTT_CLASS_KINDS] = {
    [TTT_CLASS_FLEX3] = IN_THREES,
    [TTT_CLASS_FLEX3_2X] = IN_THREES,
    [TTT_CLASS_FOUR] = IN_FOUR,
    [TTT_CLASS_FOUR_THREE] = IN_FOUR,
    [TTT_CLASS_FOUR_FLEX3] = IN_FOUR,
    [TTT_CLASS_FLEX4] = IN_FOUR | IN_FLEX4,
    [TTT_CLASS_FIVE] = IN_FOUR | IN_FIVES,
};

/* Stores cell's class for side s, keeping the counts and cell sets. */
static void set_class(ttt_patterns *p, int s, int cell, int cls, bool counted)
{
    int old = p->cls[s][cell];
    if (counted && old == cls)
        return;
    p->cls[s][cell] = (uint8_t)cls;
    p->count[s][cls]++;
    if (counted) {
        p->count[s][old]--;
        if (CLASS_SETS[old] == CLASS_SETS[cls])
            return;
    }
    if (cls >= TTT_CLASS_FOUR)
        ttt_bits_set(&p->at_least_four[s], cell);
    else
        ttt_bits_clear(&p->at_least_four[s], cell);
    if (cls == TTT_CLASS_FIVE)
        ttt_bits_set(&p->fives[s], cell);
    else
        ttt_bits_clear(&p->fives[s], cell);
    if (cls == TTT_CLASS_FLEX4)
        ttt_bits_set(&p->flex4[s], cell);
    else
        ttt_bits_clear(&p->flex4[s], cell);
    if (cls == TTT_CLASS_FLEX3 || cls == TTT_CLASS_FLEX3_2X)
        ttt_bits_set(&p->threes[s], cell);
    else
        ttt_bits_clear(&p->threes[s], cell);
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
        ttt_bits_clear(&p->flex4[s], cell);
        ttt_bits_clear(&p->threes[s], cell);
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

bool ttt_patterns_reserve(ttt_patterns *p)
{
    int cells = p->lines->cells;
    assert(!p->played && p->k >= 2);
    /* a record a filled cell; each play changes at most 2k-2 cells in each direction */
    ttt_patterns_played *played = malloc((size_t)cells * sizeof *played);
    ttt_patterns_change *changes =
        malloc((size_t)cells * TTT_DIRECTIONS * (size_t)(2 * p->k - 2) * sizeof *changes);
    if (!played || !changes) {
        free(played);
        free(changes);
        return false;
    }
    p->played = played;
    p->changes = changes;
    p->nplayed = p->nchanges = 0;
    return true;
}

void ttt_patterns_done(ttt_patterns *p)
{
    ttt_lines_unref(p->lines);
    p->lines = NULL;
    free(p->played);
    free(p->changes);
    p->played = NULL;
    p->changes = NULL;
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
                if (put && p->played)
                    p->changes[p->nchanges++] = (ttt_patterns_change){
                        .cell = (int16_t)c,
                        .dir = (uint8_t)d,
                        .pat = {p->pat[TTT_X][c][d], p->pat[TTT_O][c][d]},
                        .cls = {p->cls[TTT_X][c], p->cls[TTT_O][c]},
                    };
                classify_at(p, c, d, true);
                touched[ntouched++] = (int16_t)c;
            }
        }
    }
    /* a cell in runs of two directions is touched twice: the second time its class is unchanged */
    for (int i = 0; i < ntouched; i++) {
        int c = touched[i];
        for (int s = 0; s < 2; s++) {
            int cls = class_at(p, s, c);
            if (cls != p->cls[s][c]) /* mostly not: no call */
                set_class(p, s, c, cls, true);
        }
    }
}

void ttt_patterns_play(ttt_patterns *p, int cell, ttt_player who)
{
    assert(cell >= 0 && cell < p->lines->cells && p->at[cell] == TTT_NOBODY);
    if (p->played) /* at most one record a filled cell: room for every cell */
        p->played[p->nplayed++] =
            (ttt_patterns_played){.cell = (int16_t)cell, .who = (uint8_t)who, .first = p->nchanges};
    uncount(p, cell);
    p->at[cell] = (uint8_t)who;
    p->stones++;
    p->hash ^= ttt_zobrist_key(who, cell);
    update(p, cell, who, true);
}

/* Undo of the top record's stone: its keys' bits cleared, and what its play changed put back (the cells of
 * its runs as they were, the stone's own cell counted again with the values it kept while filled). */
static void restore(ttt_patterns *p, int cell, ttt_player who)
{
    const ttt_patterns_played *r = &p->played[--p->nplayed];
    int k = p->k;
    for (int d = 0; d < TTT_DIRECTIONS; d++) {
        int at = p->run_at[cell][d], n = p->run_len[cell][d], first = p->run_first[cell][d],
            step = p->step[d];
        for (int j = 0; j < n; j++)
            p->stone[who][first + j * step][d] &= ~(UINT64_C(1) << (at - j + k - 1));
    }
    for (int i = p->nchanges - 1; i >= r->first; i--) {
        const ttt_patterns_change *ch = &p->changes[i];
        int c = ch->cell, d = ch->dir;
        for (int s = 0; s < 2; s++) {
            int now = p->pat[s][c][d];
            if (now != ch->pat[s]) {
                p->pat_count[s][now]--;
                p->pat_count[s][ch->pat[s]]++;
                p->pat[s][c][d] = ch->pat[s];
            }
            if (p->cls[s][c] != ch->cls[s])
                set_class(p, s, c, ch->cls[s], true);
        }
    }
    p->nchanges = r->first;
    for (int s = 0; s < 2; s++) {
        for (int d = 0; d < TTT_DIRECTIONS; d++)
            p->pat_count[s][p->pat[s][cell][d]]++;
        set_class(p, s, cell, p->cls[s][cell], false);
    }
}

void ttt_patterns_undo(ttt_patterns *p, int cell, ttt_player who)
{
    assert(cell >= 0 && cell < p->lines->cells && p->at[cell] == who);
    p->at[cell] = TTT_NOBODY;
    p->stones--;
    p->hash ^= ttt_zobrist_key(who, cell);
    if (p->nplayed && p->played[p->nplayed - 1].cell == cell) {
        restore(p, cell, who);
        return;
    }
    p->nplayed = p->nchanges = 0; /* out of order: the records no longer hold */
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
    for (int c = 0; c < l->cells; c++)
        if (p->at[c] != TTT_NOBODY)
            fresh->hash ^= ttt_zobrist_key((ttt_player)p->at[c], c);
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
            for (int s = 0; s < 2; s++) {
                ttt_bits_clear(&fresh->fives[s], c);
                ttt_bits_clear(&fresh->flex4[s], c);
                ttt_bits_clear(&fresh->threes[s], c);
            }
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
            !ttt_bits_equal(&a->fives[s], &b->fives[s]) || !ttt_bits_equal(&a->flex4[s], &b->flex4[s]) ||
            !ttt_bits_equal(&a->threes[s], &b->threes[s]))
            return false;
    if (a->hash != b->hash)
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

/* --- Threat search ------------------------------------------------------------------------------------- */

/* Salt of the table's keys when O attacks, and the key that stands for 0 (the empty mark). */
#define VCT_ATTACKER_SALT UINT64_C(0x9e3779b97f4a7c15)
#define VCT_ZERO_KEY      UINT64_C(0x5bd1e9955bd1e995)
/* The clock is read every this many nodes. */
#define VCT_CLOCK_CHECK 512

static uint64_t vct_key(const ttt_patterns *p, ttt_player attacker)
{
    uint64_t key = p->hash ^ (attacker == TTT_O ? VCT_ATTACKER_SALT : 0);
    return key ? key : VCT_ZERO_KEY;
}

/* The first cell of a set at or after `from` (words of the board), or -1. */
static int next_cell(const ttt_bits *set, int words, int from)
{
    for (int i = from >> 6; i < words; i++) {
        uint64_t w = set->w[i];
        if (i == from >> 6)
            w &= ~UINT64_C(0) << (from & 63);
        if (w)
            return i * 64 + __builtin_ctzll(w);
    }
    return -1;
}

static int words_of(const ttt_patterns *p) { return (p->lines->cells + 63) / 64; }

/* Has side s at least two cells of the set (a popcount stopped early)? */
static int count_upto2(const ttt_bits *set, int words, int *first)
{
    int n = 0;
    for (int i = 0; i < words && n < 2; i++)
        for (uint64_t w = set->w[i]; w && n < 2; w &= w - 1) {
            if (n == 0 && first)
                *first = i * 64 + __builtin_ctzll(w);
            n++;
        }
    return n;
}

/* The empty cells on the lines through `cell` within k-1 of it, as a set: the four lines, or with who >= 0
 * those where who's pattern on the cell is a four or better (where a stone can stop what it makes). */
static ttt_bits lines_near(const ttt_patterns *p, int cell, int who)
{
    ttt_bits near = {{0}};
    int k = p->k;
    for (int dir = 0; dir < TTT_DIRECTIONS; dir++) {
        if (who >= 0 && p->pat[who][cell][dir] < TTT_PAT_FOUR)
            continue;
        int first = p->run_first[cell][dir], at = p->run_at[cell][dir], n = p->run_len[cell][dir];
        for (int j = at - (k - 1) < 0 ? 0 : at - (k - 1); j < n && j <= at + k - 1; j++) {
            int x = first + j * p->step[dir];
            if (p->at[x] == TTT_NOBODY)
                ttt_bits_set(&near, x);
        }
    }
    return near;
}

int ttt_patterns_defences(ttt_patterns *p, ttt_player attacker, int *out)
{
    ttt_player d = (ttt_player)(1 - attacker);
    int words = words_of(p);
    if (!p->count[attacker][TTT_CLASS_FLEX4])
        return -1;
    /* the cells that can change a FLEX4 cell's class: the cell and its four lines within k-1 */
    ttt_bits near = {{0}};
    for (int c = next_cell(&p->flex4[attacker], words, 0); c >= 0;
         c = next_cell(&p->flex4[attacker], words, c + 1)) {
        ttt_bits lines = lines_near(p, c, attacker);
        for (int i = 0; i < words; i++)
            near.w[i] |= lines.w[i];
    }
    int n = 0;
    for (int x = 0; x < p->lines->cells; x++) {
        if (p->at[x] != TTT_NOBODY)
            continue;
        if (ttt_bits_test(&p->at_least_four[d], x)) {
            out[n++] = x;
            continue;
        }
        if (!ttt_bits_test(&near, x))
            continue;
        ttt_patterns_play(p, x, d);
        bool stops = p->count[attacker][TTT_CLASS_FLEX4] == 0;
        ttt_patterns_undo(p, x, d);
        if (stops)
            out[n++] = x;
    }
    return n;
}

/* Counts a node; false once the budget or the deadline is reached (then the search is stopped). */
static bool vct_enter(ttt_vct *v)
{
    if (v->stopped || (v->budget && v->nodes >= v->budget))
        return v->stopped = true, false;
    if (v->deadline > 0 && v->nodes % VCT_CLOCK_CHECK == 0 && ttt_clock_ms() >= v->deadline)
        return v->stopped = true, false;
    v->nodes++;
    v->total++;
    return true;
}

static ttt_vct_result vct_search(ttt_patterns *p, ttt_vct *v, ttt_player a, int threes, int last);

/* Step 3 after A's move `m`, D to answer: D's replies and A's search again with `threes` left; `three` says
 * the move was a three (it threatens through a FLEX4 cell). */
static ttt_vct_result vct_after(ttt_patterns *p, ttt_vct *v, ttt_player a, int threes, bool three, int m)
{
    ttt_player d = (ttt_player)(1 - a);
    int words = words_of(p), f = -1;
    int nf = count_upto2(&p->fives[a], words, &f);
    if (nf >= 2)
        return TTT_VCT_WIN;
    if (nf == 1) {
        ttt_patterns_play(p, f, d);
        ttt_vct_result r =
            count_upto2(&p->fives[d], words, NULL) >= 2 ? TTT_VCT_NONE : vct_search(p, v, a, threes, m);
        ttt_patterns_undo(p, f, d);
        return r;
    }
    if (!three || !p->count[a][TTT_CLASS_FLEX4])
        return TTT_VCT_NONE;
    int answers[TTT_MAX_CELLS], na = ttt_patterns_defences(p, a, answers);
    ttt_vct_result r = TTT_VCT_WIN;
    for (int j = 0; j < na && r == TTT_VCT_WIN; j++) {
        ttt_patterns_play(p, answers[j], d);
        r = count_upto2(&p->fives[d], words, NULL) >= 2 ? TTT_VCT_NONE : vct_search(p, v, a, threes, m);
        ttt_patterns_undo(p, answers[j], d);
    }
    return r;
}

/* Steps 1-2 for A to move; `last` is A's last move (-1 at the root): below the root A's threes are on its
 * lines (a sequence of threats builds on itself; the others would wait for the next search). */
static ttt_vct_result vct_search(ttt_patterns *p, ttt_vct *v, ttt_player a, int threes, int last)
{
    ttt_player d = (ttt_player)(1 - a);
    int words = words_of(p), forced = -1;
    if (!vct_enter(v))
        return TTT_VCT_UNKNOWN;
    if (p->count[a][TTT_CLASS_FIVE])
        return TTT_VCT_WIN;
    int nf = count_upto2(&p->fives[d], words, &forced);
    if (nf >= 2)
        return TTT_VCT_NONE;
    uint64_t key = vct_key(p, a);
    ttt_vct_entry *e = &v->table[key & (v->entries - 1)];
    if (e->key == key && ((e->result == TTT_VCT_WIN && e->threes <= threes) ||
                          (e->result == TTT_VCT_NONE && e->threes >= threes)))
        return (ttt_vct_result)e->result;
    bool unknown = false;
    /* fours first (they leave D one answer), then the threes */
    for (int pass = 0; pass < 2; pass++) {
        const ttt_bits *set = pass == 0 ? &p->at_least_four[a] : &p->threes[a];
        if (pass == 1 && (threes == 0 || nf == 1))
            break;
        ttt_bits moves = *set; /* the search changes the sets */
        if (pass == 1 && last >= 0) {
            ttt_bits near = lines_near(p, last, -1);
            for (int i = 0; i < words; i++)
                moves.w[i] &= near.w[i];
        }
        if (nf == 1) { /* the block: a four, or (a VCT) a move after which A threatens again */
            memset(&moves, 0, sizeof moves);
            if (p->cls[a][forced] >= TTT_CLASS_FOUR || threes > 0)
                ttt_bits_set(&moves, forced);
        }
        for (int m = next_cell(&moves, words, 0); m >= 0; m = next_cell(&moves, words, m + 1)) {
            /* a three spends one; a block that leaves A's standing threat (or makes one) spends none */
            bool three = p->cls[a][m] < TTT_CLASS_FOUR;
            int spent = three && nf == 0;
            ttt_patterns_play(p, m, a);
            ttt_vct_result r = vct_after(p, v, a, threes - spent, three, m);
            ttt_patterns_undo(p, m, a);
            if (r == TTT_VCT_WIN) {
                *e = (ttt_vct_entry){
                    .key = key, .move = (int16_t)m, .threes = (uint8_t)threes, .result = TTT_VCT_WIN};
                return r;
            }
            unknown |= r == TTT_VCT_UNKNOWN;
        }
    }
    if (!unknown)
        *e = (ttt_vct_entry){.key = key, .move = -1, .threes = (uint8_t)threes, .result = TTT_VCT_NONE};
    return unknown ? TTT_VCT_UNKNOWN : TTT_VCT_NONE;
}

ttt_vct_result ttt_patterns_vct(ttt_patterns *p, ttt_vct *v, ttt_player who, int threes, int *first)
{
    assert(threes >= 0 && threes <= TTT_VCT_MAX_THREES && v->entries && !(v->entries & (v->entries - 1)));
    v->nodes = 0;
    v->stopped = false;
    /* the fewest threes first: a short win is found before the wider search of a long one */
    ttt_vct_result r = TTT_VCT_NONE;
    for (int t = 0; t <= threes && r == TTT_VCT_NONE; t++) {
        r = vct_search(p, v, who, t, -1);
        threes = r == TTT_VCT_WIN ? t : threes;
    }
    if (r == TTT_VCT_WIN && first) {
        int f;
        if (count_upto2(&p->fives[who], words_of(p), &f))
            *first = f;
        else
            *first = ttt_patterns_vct_move(p, v, who, threes);
    }
    return r;
}

int ttt_patterns_vct_move(const ttt_patterns *p, const ttt_vct *v, ttt_player who, int threes)
{
    uint64_t key = vct_key(p, who);
    const ttt_vct_entry *e = &v->table[key & (v->entries - 1)];
    return e->key == key && e->result == TTT_VCT_WIN && e->threes <= threes ? e->move : -1;
}
