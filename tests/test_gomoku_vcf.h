/*
 * test_gomoku_vcf.h - what test_gomoku.c and test_gomoku_tactics.c check a move with: the VCF search without a
 * budget (every four and every block tried).
 */
#ifndef TTT_TEST_GOMOKU_VCF_H
#define TTT_TEST_GOMOKU_VCF_H

#include "search/threats.h"

static inline ttt_threats *threats_new(const ttt_rules *r)
{
    ttt_threats *t = malloc(sizeof *t);
    const ttt_lines *lines;
    assert_non_null(t);
    assert_int_equal(ttt_lines_new(r, &lines, NULL), TTT_OK);
    ttt_threats_init(t, lines);
    ttt_lines_unref(lines);
    return t;
}

static inline void threats_free(ttt_threats *t)
{
    ttt_threats_done(t);
    free(t);
}

/* Whether `who` has a VCF in b. */
static inline bool vcf_in(ttt_threats *t, const ttt_board *b, ttt_player who)
{
    int line[TTT_MAX_CELLS], length;
    ttt_threats_set(t, b);
    return ttt_threats_vcf(t, who, 0, line, &length) == TTT_THREATS_WIN;
}

/* Whether the side that just moved in b keeps a win by fours: a line made, a line next, or a four whose
 * forced block leaves it a VCF. */
static inline bool keeps_vcf(ttt_threats *t, const ttt_board *b)
{
    ttt_player me = (ttt_player)(1 - ttt_board_to_move(b));
    if (ttt_board_outcome(b) != TTT_ONGOING)
        return ttt_board_outcome(b) == (me == TTT_X ? TTT_X_WINS : TTT_O_WINS);
    int f[2], line[TTT_MAX_CELLS], length;
    ttt_threats_set(t, b);
    int n = ttt_threats_fives(t, me, f, 2);
    if (n != 1)
        return n >= 2;
    ttt_threats_play(t, f[0], (ttt_player)(1 - me));
    bool kept = ttt_threats_vcf(t, me, 0, line, &length) == TTT_THREATS_WIN;
    ttt_threats_undo(t, f[0], (ttt_player)(1 - me));
    return kept;
}

#endif
