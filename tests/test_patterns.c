/*
 * test_patterns.c - line patterns kept incrementally: the pattern of known lines (k = 5 and 4), and over many
 * random games on several boards the incremental patterns, classes, counts and cell sets equal a recount
 * from the stones after every move and every undo.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "search/patterns.h"
#include "ttt/ttt.h"
#include "support.h"

/* Random games per board, and how far back each undoes before going on. */
#define GAMES      12
#define MAX_UNDO   6
#define UNDO_EVERY 5

/* A line around the centre cell as text: 'x' own, 'o' the other side, '#' off the board, '.' empty, '*' the
 * centre (empty; the stone to classify). 2k-1 characters. */
typedef struct line_case {
    int k;
    const char *line;
    int want;
} line_case;

static const line_case lines[] = {
    {5, "xxxx*....", TTT_PAT_FIVE},  {5, "..xx*xx..", TTT_PAT_FIVE},  {5, "...x*xx..", TTT_PAT_FLEX4},
    {5, "..ox*xx..", TTT_PAT_FOUR},  {5, "....*xxx#", TTT_PAT_FOUR},  {5, "...x*.xx.", TTT_PAT_FOUR},
    {5, "x.xx*.xxx", TTT_PAT_FLEX4}, {5, "....*xx..", TTT_PAT_FLEX3}, {5, "...x*.x..", TTT_PAT_FLEX3},
    {5, "...o*xx..", TTT_PAT_THREE}, {5, "..ox*x.o.", TTT_PAT_DEAD},  {5, "..ox*.x..", TTT_PAT_THREE},
    {5, "....*x...", TTT_PAT_FLEX2}, {5, "....*...x", TTT_PAT_TWO},   {5, "....*....", TTT_PAT_NONE},
    {5, "...o*...o", TTT_PAT_DEAD},  {5, "#...*...#", TTT_PAT_NONE},  {5, "##..*.o##", TTT_PAT_DEAD},
    {4, "..x*x..", TTT_PAT_FLEX4},   {4, "..o*xx.", TTT_PAT_FOUR},    {4, "...*x..", TTT_PAT_FLEX3},
    {4, "..o*x..", TTT_PAT_THREE},   {4, "xxx*...", TTT_PAT_FIVE},
};

static void test_known_lines(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        uint64_t own = 0, blocked = 0;
        for (int j = 0; lines[i].line[j]; j++) {
            char ch = lines[i].line[j];
            own |= (uint64_t)(ch == 'x') << j;
            blocked |= (uint64_t)(ch == 'o' || ch == '#') << j;
        }
        int got = ttt_patterns_classify(own, blocked, lines[i].k);
        if (got != lines[i].want)
            fail_msg("k=%d %s: pattern %d, want %d", lines[i].k, lines[i].line, got, lines[i].want);
    }
}

static void test_classes(void **state)
{
    (void)state;
    uint8_t four_three[4] = {TTT_PAT_FOUR, TTT_PAT_FLEX3, TTT_PAT_NONE, TTT_PAT_DEAD};
    assert_int_equal(ttt_patterns_class_of(four_three), TTT_CLASS_FOUR_FLEX3);
    uint8_t double_four[4] = {TTT_PAT_FOUR, TTT_PAT_TWO, TTT_PAT_FOUR, TTT_PAT_NONE};
    assert_int_equal(ttt_patterns_class_of(double_four), TTT_CLASS_FLEX4);
    uint8_t double_three[4] = {TTT_PAT_FLEX3, TTT_PAT_TWO, TTT_PAT_FLEX3, TTT_PAT_NONE};
    assert_int_equal(ttt_patterns_class_of(double_three), TTT_CLASS_FLEX3_2X);
    uint8_t nothing[4] = {TTT_PAT_DEAD, TTT_PAT_NONE, TTT_PAT_NONE, TTT_PAT_DEAD};
    assert_int_equal(ttt_patterns_class_of(nothing), TTT_CLASS_NONE);
}

/* The incremental values of p against a recount; fails naming the board, game and step. */
static void check_fresh(const ttt_patterns *p, const char *rules, int game, int step)
{
    ttt_patterns *fresh = malloc(sizeof *fresh);
    assert_non_null(fresh);
    ttt_patterns_recount(p, fresh);
    bool same = ttt_patterns_equal(p, fresh);
    ttt_patterns_done(fresh);
    free(fresh);
    if (!same)
        fail_msg("%s game %d step %d: incremental patterns differ from a recount", rules, game, step);
}

/* A new context over the geometry of rules `text` (free with free_patterns). */
static ttt_patterns *patterns_of(const char *text)
{
    ttt_rules r = rules_of(text);
    const ttt_lines *l;
    ttt_error err;
    assert_int_equal(ttt_lines_new(&r, &l, &err), TTT_OK);
    ttt_patterns *p = malloc(sizeof *p);
    assert_non_null(p);
    ttt_patterns_init(p, l);
    assert_true(ttt_patterns_reserve(p)); /* undo puts back what the play changed: checked with the rest */
    ttt_lines_unref(l);                   /* p holds it */
    return p;
}

static void free_patterns(ttt_patterns *p)
{
    ttt_patterns_done(p);
    free(p);
}

static void random_games(const char *text)
{
    ttt_patterns *p = patterns_of(text);
    const ttt_lines *l = p->lines;
    ttt_rng rng;
    ttt_rng_seed(&rng, 31);
    int moves[TTT_MAX_CELLS], step = 0;
    for (int game = 0; game < GAMES; game++) {
        int n = 0;
        /* most games fill part of the board, some the whole of it */
        int length = game % 3 == 2 ? l->cells : (int)ttt_rng_below(&rng, (uint32_t)l->cells) + 1;
        while (n < length) {
            int c;
            do
                c = (int)ttt_rng_below(&rng, (uint32_t)l->cells);
            while (p->at[c] != TTT_NOBODY);
            ttt_patterns_play(p, c, (ttt_player)(n & 1));
            moves[n++] = c;
            check_fresh(p, text, game, step++);
            if (ttt_rng_below(&rng, UNDO_EVERY) == 0) {
                int back = (int)ttt_rng_below(&rng, MAX_UNDO) + 1;
                for (; back > 0 && n > 0; back--) {
                    n--;
                    ttt_patterns_undo(p, moves[n], (ttt_player)(n & 1));
                    check_fresh(p, text, game, step++);
                }
            }
        }
        while (n > 0) {
            n--;
            ttt_patterns_undo(p, moves[n], (ttt_player)(n & 1));
        }
        check_fresh(p, text, game, step++);
    }
    free_patterns(p);
}

static void test_random_games_15x15(void **state)
{
    (void)state;
    random_games("15x15k5");
}

static void test_random_games_small(void **state)
{
    (void)state;
    random_games("9x9k5");
    random_games("7x7k4");
    random_games("6x9k4");
    random_games("5x5k5");
}

static void test_random_games_large(void **state)
{
    (void)state;
    random_games("20x20k5");
    random_games("12x12k6");
}

/* ttt_patterns_set gives what the moves give, and its five-cells are the threats module's. */
static void test_set_matches_moves(void **state)
{
    (void)state;
    ttt_rules r = rules_of("15x15k5");
    ttt_board b = board_of(&r, "h8 a1 i8 a15 j8 o1 k8");
    ttt_patterns *p = patterns_of("15x15k5");
    ttt_patterns_set(p, &b);
    check_fresh(p, "15x15k5 set", 0, 0);
    assert_int_equal(p->count[TTT_X][TTT_CLASS_FIVE], 2); /* g8 and l8 */
    assert_int_equal(p->cls[TTT_X][7 * 15 + 6], TTT_CLASS_FIVE);
    assert_int_equal(p->cls[TTT_X][7 * 15 + 11], TTT_CLASS_FIVE);
    assert_int_equal(ttt_bits_count(&p->fives[TTT_X]), 2);
    assert_int_equal(ttt_bits_count(&p->fives[TTT_O]), 0);
    free_patterns(p);
}

/* Undo puts back what the last play changed; a stone taken back out of order (not the last played) makes it
 * classify again, and the undos after it too: every one of them matches a recount. */
#define OUT_OF_ORDER_STONES 40
static void test_undo_out_of_order(void **state)
{
    (void)state;
    ttt_patterns *p = patterns_of("15x15k5");
    ttt_rng rng;
    ttt_rng_seed(&rng, 7);
    int cells[OUT_OF_ORDER_STONES + 1], step = 0;
    ttt_player who[OUT_OF_ORDER_STONES + 1];
    for (int round = 0; round < 3; round++) {
        int n = 0;
        for (; n < OUT_OF_ORDER_STONES; n++) {
            do
                cells[n] = (int)ttt_rng_below(&rng, (uint32_t)p->lines->cells);
            while (p->at[cells[n]] != TTT_NOBODY);
            who[n] = (ttt_player)(n & 1);
            ttt_patterns_play(p, cells[n], who[n]);
        }
        int middle = (int)ttt_rng_below(&rng, OUT_OF_ORDER_STONES - 1);
        ttt_patterns_undo(p, cells[middle], who[middle]);
        check_fresh(p, "15x15k5 out of order", round, step++);
        memmove(&cells[middle], &cells[middle + 1], (size_t)(n - middle - 1) * sizeof *cells);
        memmove(&who[middle], &who[middle + 1], (size_t)(n - middle - 1) * sizeof *who);
        n--;
        /* plays after it are recorded again and taken back in order */
        for (int i = 0; i < 2; i++) {
            int c;
            do
                c = (int)ttt_rng_below(&rng, (uint32_t)p->lines->cells);
            while (p->at[c] != TTT_NOBODY);
            ttt_patterns_play(p, c, (ttt_player)(i & 1));
            cells[n] = c;
            who[n++] = (ttt_player)(i & 1);
        }
        while (n > 0) {
            n--;
            ttt_patterns_undo(p, cells[n], who[n]);
            check_fresh(p, "15x15k5 out of order", round, step++);
        }
    }
    free_patterns(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_lines),        cmocka_unit_test(test_classes),
        cmocka_unit_test(test_random_games_15x15), cmocka_unit_test(test_random_games_small),
        cmocka_unit_test(test_random_games_large), cmocka_unit_test(test_set_matches_moves),
        cmocka_unit_test(test_undo_out_of_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
