/*
 * test_gomoku_vct.h - what the VCT tests check a win with: the patterns' threat search (search/patterns.h)
 * chooses the attacker's moves, and every legal move of the defender is played against each. A defence counts
 * as lost, without going on, only when the window counts (search/threats.h, not the patterns) show the
 * attacker completing a line next, or an open four next (a cell giving two five-cells) while the defender has
 * no five-cell to complete first.
 */
#ifndef TTT_TEST_GOMOKU_VCT_H
#define TTT_TEST_GOMOKU_VCT_H

#include "search/patterns.h"
#include "search/threats.h"

/* Table entries of the checks' searches. */
#define VCT_CHECK_ENTRIES (1 << 16)
/* Node budget of each search the check makes. */
#define VCT_CHECK_BUDGET 2000000

/* One position in the three views the check keeps together. */
typedef struct vct_check {
    ttt_board b;
    ttt_threats t;
    ttt_patterns p;
    ttt_vct v;
} vct_check;

static inline vct_check *vct_check_new(const ttt_board *b)
{
    vct_check *c = calloc(1, sizeof *c);
    const ttt_lines *lines;
    assert_non_null(c);
    assert_int_equal(ttt_lines_new(&b->rules, &lines, NULL), TTT_OK);
    ttt_threats_init(&c->t, lines);
    ttt_patterns_init(&c->p, lines);
    assert_true(ttt_patterns_reserve(&c->p)); /* as the engine has it */
    ttt_lines_unref(lines);
    c->v.entries = VCT_CHECK_ENTRIES;
    c->v.table = calloc(VCT_CHECK_ENTRIES, sizeof *c->v.table);
    assert_non_null(c->v.table);
    c->v.budget = VCT_CHECK_BUDGET;
    c->b = *b;
    ttt_threats_set(&c->t, b);
    ttt_patterns_set(&c->p, b);
    return c;
}

static inline void vct_check_free(vct_check *c)
{
    ttt_threats_done(&c->t);
    ttt_patterns_done(&c->p);
    free(c->v.table);
    free(c);
}

static inline void vct_check_play(vct_check *c, int cell)
{
    ttt_player who = ttt_board_to_move(&c->b);
    ttt_board_play(&c->b, cell);
    ttt_threats_play(&c->t, cell, who);
    ttt_patterns_play(&c->p, cell, who);
}

static inline void vct_check_undo(vct_check *c, int cell)
{
    ttt_board_undo(&c->b, cell);
    ttt_player who = ttt_board_to_move(&c->b);
    ttt_threats_undo(&c->t, cell, who);
    ttt_patterns_undo(&c->p, cell, who);
}

/* Can `who` make a five-cell in one move (a window of k-2 of its stones and none of the other's)? */
static inline bool vct_check_can_four(const vct_check *c, ttt_player who)
{
    const ttt_lines *l = c->t.lines;
    for (int w = 0; w < l->nwin; w++)
        if (c->t.count[who][w] == l->k - 2 && c->t.count[1 - who][w] == 0)
            return true;
    return false;
}

/* Has the side to move, the attacker, lost nothing: an immediate line, or an open four the defender cannot
 * answer? */
static inline bool vct_check_plain_win(vct_check *c)
{
    ttt_player a = ttt_board_to_move(&c->b), d = (ttt_player)(1 - a);
    int f[2], cells[TTT_MAX_CELLS];
    if (ttt_threats_fives(&c->t, a, f, 1))
        return true;
    return ttt_threats_fives(&c->t, d, f, 1) == 0 && ttt_threats_defences(&c->t, a, cells) >= 0;
}

static bool vct_check_wins(vct_check *c, int threes, int *defences);

/* After the attacker's move: does it win against every legal move of the defender? Counts the defences
 * followed in *defences. */
static inline bool vct_check_holds(vct_check *c, int threes, int *defences)
{
    ttt_outcome o = ttt_board_outcome(&c->b);
    if (o != TTT_ONGOING)
        return o == TTT_X_WINS || o == TTT_O_WINS;
    bool ok = true;
    for (int x = 0; x < c->b.cells && ok; x++) {
        if (ttt_board_at(&c->b, x) != TTT_NOBODY)
            continue;
        vct_check_play(c, x);
        if (ttt_board_outcome(&c->b) != TTT_ONGOING)
            ok = false; /* the defender made a line (or filled the board) */
        else if (!vct_check_plain_win(c)) {
            (*defences)++;
            ok = vct_check_wins(c, threes, defences);
        }
        vct_check_undo(c, x);
    }
    return ok;
}

/* The attacker to move: does the threat search find a win, and does each of its moves hold? */
static bool vct_check_wins(vct_check *c, int threes, int *defences)
{
    ttt_player a = ttt_board_to_move(&c->b);
    int f[1], m = -1;
    if (ttt_threats_fives(&c->t, a, f, 1))
        return true;
    if (ttt_patterns_vct(&c->p, &c->v, a, threes, &m) != TTT_VCT_WIN)
        return false;
    vct_check_play(c, m);
    bool ok = vct_check_holds(c, threes, defences);
    vct_check_undo(c, m);
    return ok;
}

#endif
