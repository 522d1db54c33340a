/*
 * tests/test_prove.c - the draw prover (search/prove.h) against a brute force written here, and the solver's
 * draws on the boards where it uses the prover against a brute force of the whole game (its pairings:
 * tests/test_pairing.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "search/pairing.h"
#include "search/prove.h"
#include "ttt/ttt.h"

#include "support.h"

/* --- A brute force: windows as masks, a memo of positions --------------------------------------------- */

#define MEMO_BITS 20

/* A set of cells of a board of at most 128 (bit c: cell c), so that boards above 64 cells, where the prover
 * runs its wide kernel, are checked too. */
typedef pairing_set128 bset;
#define BIT(cell) ((bset)1 << (cell))

/* The set as hexadecimal, into buf (at least 40 bytes), for messages. */
static const char *hex(bset x, char *buf)
{
    snprintf(buf, 40, "%#llx:%016llx", (unsigned long long)(x >> 64), (unsigned long long)x);
    return buf;
}

/* Every cell of a board of `cells` cells. */
static bset full_set(int cells) { return cells == 128 ? ~(bset)0 : BIT(cells) - 1; }

/* The prover's answer with the stones as bsets. */
static ttt_proof run_prover(ttt_prover *p, bset att, bset def, bool att_to_move)
{
    ttt_bits a, d;
    pairing_to_bits128(att, &a);
    pairing_to_bits128(def, &d);
    return ttt_prover_run_bits(p, &a, &d, att_to_move, 0, NULL, NULL, NULL);
}

typedef struct brute {
    int cells, k, nwin;
    bset win[4 * 128];
    bset *memo_a, *memo_d; /* the position of each slot: the two sides' stones */
    int8_t *memo_value;    /* 0: free; the kind of question and its answer (see below) */
} brute;

static void brute_init(brute *b, const ttt_rules *r)
{
    static const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, 0, 1, -1};
    b->cells = r->rows * r->cols;
    b->k = r->k;
    b->nwin = 0;
    for (int row = 0; row < r->rows; row++)
        for (int col = 0; col < r->cols; col++)
            for (int d = 0; d < 4; d++) {
                int er = row + (r->k - 1) * dr[d], ec = col + (r->k - 1) * dc[d];
                if (er >= r->rows || ec < 0 || ec >= r->cols)
                    continue;
                bset w = 0;
                for (int i = 0; i < r->k; i++)
                    w |= BIT((row + i * dr[d]) * r->cols + col + i * dc[d]);
                b->win[b->nwin++] = w;
            }
    b->memo_a = calloc((size_t)1 << MEMO_BITS, sizeof *b->memo_a);
    b->memo_d = calloc((size_t)1 << MEMO_BITS, sizeof *b->memo_d);
    b->memo_value = calloc((size_t)1 << MEMO_BITS, 1);
    assert_non_null(b->memo_a);
    assert_non_null(b->memo_d);
    assert_non_null(b->memo_value);
}

static void brute_free(brute *b)
{
    free(b->memo_a);
    free(b->memo_d);
    free(b->memo_value);
}

/* The memo slot of a question (kind 1..3) about a position; *hit set when it holds the answer. */
static size_t memo_slot(const brute *b, bset a, bset d, int kind, bool *hit)
{
    uint64_t h = (uint64_t)(a ^ a >> 64) * UINT64_C(0x9E3779B97F4A7C15) ^
                 (uint64_t)(d ^ d >> 64) * UINT64_C(0xC2B2AE3D27D4EB4F) ^ (uint64_t)kind;
    size_t slot = (size_t)(h >> (64 - MEMO_BITS));
    *hit = b->memo_value[slot] / 8 == kind && b->memo_a[slot] == a && b->memo_d[slot] == d;
    return slot;
}

static void memo_put(brute *b, size_t slot, bset a, bset d, int kind, int answer)
{
    b->memo_a[slot] = a;
    b->memo_d[slot] = d;
    b->memo_value[slot] = (int8_t)(kind * 8 + answer);
}

static bool has_line(const brute *b, bset stones)
{
    for (int w = 0; w < b->nwin; w++)
        if ((b->win[w] & stones) == b->win[w])
            return true;
    return false;
}

/* The whole game from a position without a line, `a` to move against `d`: +1 a wins, 0 draw, -1 d wins. */
static int game_value(brute *b, bset a, bset d)
{
    const bset full = full_set(b->cells);
    if ((a | d) == full)
        return 0;
    bool hit;
    size_t slot = memo_slot(b, a, d, 1, &hit);
    if (hit)
        return b->memo_value[slot] % 8 - 2;
    int best = -1;
    for (bset e = full & ~(a | d); e && best < 1; e &= e - 1) {
        bset m = e & -e;
        int v = has_line(b, a | m) ? 1 : -game_value(b, d, a | m);
        if (v > best)
            best = v;
    }
    memo_put(b, slot, a, d, 1, best + 2);
    return best;
}

/* Whether the attacker completes a line before the defender does (or the board fills), with best play. */
static bool attacker_wins(brute *b, bset att, bset def, bool att_to_move)
{
    const bset full = full_set(b->cells);
    if ((att | def) == full)
        return false;
    bool hit;
    int kind = att_to_move ? 2 : 3;
    size_t slot = memo_slot(b, att, def, kind, &hit);
    if (hit)
        return b->memo_value[slot] % 8 == 1;
    bool result = !att_to_move;
    for (bset e = full & ~(att | def); e; e &= e - 1) {
        bset m = e & -e;
        bool wins;
        if (att_to_move)
            wins = has_line(b, att | m) || attacker_wins(b, att | m, def, false);
        else
            wins = !has_line(b, def | m) && attacker_wins(b, att, def | m, true);
        if (wins == att_to_move) {
            result = wins;
            break;
        }
    }
    memo_put(b, slot, att, def, kind, result ? 1 : 2);
    return result;
}

/* A random position of the board with `stones` stones in alternation, neither side with a line. */
static bool random_position(const brute *b, ttt_rng *rng, int stones, bset *x, bset *o)
{
    *x = *o = 0;
    for (int i = 0; i < stones; i++) {
        int cell;
        do
            cell = (int)ttt_rng_below(rng, (uint32_t)b->cells);
        while (((*x | *o) >> cell) & 1);
        if (i % 2 == 0)
            *x |= BIT(cell);
        else
            *o |= BIT(cell);
    }
    return !has_line(b, *x) && !has_line(b, *o);
}

static ttt_prover *prover_ok(const ttt_rules *r, bool full_width)
{
    ttt_prover *p = NULL;
    ttt_error err = {{0}};
    if (ttt_prover_new(r, 4, full_width, &p, &err) != TTT_OK) {
        print_error("prover: %s\n", err.msg);
        fail();
    }
    return p;
}

/* --- The prover against the brute force ---------------------------------------------------------------- */

/* Every random position of the board with stones in [lo, hi], each side as attacker, either side to move:
 * full width, the prover's answer is the brute force's both ways, with either kernel (the 128-bit one made to
 * run on boards of at most 64 cells too); restricted, every "holds" is right. Returns how many positions the
 * prover proved to hold (so a test can see it proves something). */
static int compare_board(const char *rules_text, int lo, int hi, int count, uint64_t seed)
{
    ttt_rules r = rules_of(rules_text);
    brute b;
    brute_init(&b, &r);
    ttt_prover *exact = prover_ok(&r, true), *fast = prover_ok(&r, false), *wide = NULL;
    const ttt_lines *lines;
    ttt_error err = {{0}};
    assert_int_equal(ttt_lines_new(&r, &lines, &err), TTT_OK);
    assert_int_equal(ttt_prover_new_wide(lines, 4, true, &wide, &err), TTT_OK);
    ttt_lines_unref(lines);
    ttt_rng rng;
    ttt_rng_seed(&rng, seed);
    int held = 0;
    for (int i = 0; i < count; i++) {
        bset x, o;
        int stones = lo + (int)ttt_rng_below(&rng, (uint32_t)(hi - lo + 1));
        if (!random_position(&b, &rng, stones, &x, &o))
            continue;
        for (int side = 0; side < 2; side++)
            for (int tomove = 0; tomove < 2; tomove++) {
                bset att = side ? o : x, def = side ? x : o;
                bool truth = attacker_wins(&b, att, def, tomove);
                ttt_proof pe = run_prover(exact, att, def, tomove);
                ttt_proof pf = run_prover(fast, att, def, tomove);
                ttt_proof pw = run_prover(wide, att, def, tomove);
                if (pe != (truth ? TTT_PROOF_FORCED : TTT_PROOF_HOLDS) || pw != pe ||
                    (pf == TTT_PROOF_HOLDS && truth)) {
                    char ha[40], hd[40];
                    print_error("%s: attacker %s defender %s, attacker %s: brute force %s, prover %d/%d/%d\n",
                                rules_text, hex(att, ha), hex(def, hd), tomove ? "to move" : "second",
                                truth ? "wins" : "holds", pe, pf, pw);
                    fail();
                }
                held += pe == TTT_PROOF_HOLDS;
            }
    }
    ttt_prover_free(exact);
    ttt_prover_free(fast);
    ttt_prover_free(wide);
    brute_free(&b);
    return held;
}

static void test_prover_4x4k3(void **state)
{
    (void)state;
    assert_true(compare_board("4x4k3", 3, 10, 600, 1) > 0);
}

static void test_prover_4x4(void **state)
{
    (void)state;
    assert_true(compare_board("4x4", 3, 12, 600, 2) > 0);
}

static void test_prover_5x4k4(void **state)
{
    (void)state;
    assert_true(compare_board("5x4k4", 8, 13, 300, 3) > 0);
}

static void test_prover_5x5k4(void **state)
{
    (void)state;
    assert_true(compare_board("5x5k4", 11, 16, 100, 4) > 0);
}

static void test_prover_6x4k4(void **state)
{
    (void)state;
    assert_true(compare_board("6x4k4", 10, 14, 100, 5) > 0);
}

static void test_prover_5x5k5(void **state)
{
    (void)state;
    assert_true(compare_board("5x5k5", 10, 16, 100, 6) > 0);
}

/* The relevance zone of every proof found: attacker stones added outside it (one to four, at random) leave
 * the brute force's answer "holds". */
static void check_zones(const char *rules_text, int lo, int hi, int count, uint64_t seed)
{
    ttt_rules r = rules_of(rules_text);
    brute b;
    brute_init(&b, &r);
    ttt_prover *p = prover_ok(&r, true);
    ttt_rng rng;
    ttt_rng_seed(&rng, seed);
    const bset full = full_set(b.cells);
    int checked = 0;
    for (int i = 0; i < count; i++) {
        bset x, o;
        if (!random_position(&b, &rng, lo + (int)ttt_rng_below(&rng, (uint32_t)(hi - lo + 1)), &x, &o))
            continue;
        for (int side = 0; side < 2; side++)
            for (int tomove = 0; tomove < 2; tomove++) {
                bset att = side ? o : x, def = side ? x : o;
                ttt_prover_clear(p); /* each answer searched afresh, not read from the table */
                if (run_prover(p, att, def, tomove) != TTT_PROOF_HOLDS)
                    continue;
                ttt_bits zone;
                ttt_prover_zone_bits(p, &zone);
                bset outside = full & ~(att | def | pairing_of_bits128(&zone));
                for (int t = 0; t < 4 && outside; t++) {
                    bset extra = 0;
                    int want = 1 + (int)ttt_rng_below(&rng, 4);
                    for (int j = 0; j < want; j++) {
                        int n = pairing_count128(outside & ~extra),
                            pick = (int)ttt_rng_below(&rng, (uint32_t)n);
                        bset e = outside & ~extra;
                        while (pick--)
                            e &= e - 1;
                        extra |= e & -e;
                        if (!(outside & ~extra))
                            break;
                    }
                    if (has_line(&b, att | extra) || attacker_wins(&b, att | extra, def, tomove)) {
                        char ha[40], hd[40], hz[40], he[40];
                        print_error(
                            "%s: attacker %s defender %s (%s) holds with zone %s, but not with %s added\n",
                            rules_text, hex(att, ha), hex(def, hd),
                            tomove ? "attacker to move" : "defender to move",
                            hex(pairing_of_bits128(&zone), hz), hex(extra, he));
                        fail();
                    }
                    checked++;
                }
            }
    }
    ttt_prover_free(p);
    brute_free(&b);
    assert_true(checked > 0);
}

static void test_zones(void **state)
{
    (void)state;
    /* 3x3: symmetric positions (0-2 stones) have zones closed under their symmetries (often every cell). */
    check_zones("3x3", 0, 4, 60, 10);
    check_zones("4x4k3", 3, 9, 150, 11);
    check_zones("4x4", 2, 10, 150, 12);
    check_zones("5x4k4", 6, 12, 150, 13);
    check_zones("6x4k4", 9, 14, 80, 14);
    check_zones("5x5k4", 11, 16, 50, 15);
    check_zones("5x5k5", 8, 16, 80, 16);
}

/* Known answers from the empty board: X cannot win 3x3, 4x4, 4x5k4 or 6x6k5 (draws); it wins 4x4k3. */
static void test_prover_empty_boards(void **state)
{
    (void)state;
    static const struct {
        const char *rules;
        ttt_proof first; /* X to move on the empty board */
    } cases[] = {{"3x3", TTT_PROOF_HOLDS},
                 {"4x4k3", TTT_PROOF_FORCED},
                 {"4x4", TTT_PROOF_HOLDS},
                 {"4x5k4", TTT_PROOF_HOLDS},
                 {"6x6k5", TTT_PROOF_HOLDS}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ttt_rules r = rules_of(cases[i].rules);
        ttt_prover *p = prover_ok(&r, true);
        assert_int_equal(run_prover(p, 0, 0, true), cases[i].first);
        ttt_prover_free(p);
    }
}

/* The table counts as full once it holds answers in all but an eighth of its slots: 7x7k5's proof from the
 * empty board (about 0.7M nodes) fills one of 1 MiB (32,768 slots) and not one of 64 MiB; it stays full over
 * runs, empty again after ttt_prover_clear, and entries written through ttt_prover_table count from the next
 * run on. */
static void test_table_full(void **state)
{
    (void)state;
    ttt_rules r = rules_of("7x7k5");
    ttt_prover *small = NULL, *big = NULL;
    ttt_error err = {{0}};
    assert_int_equal(ttt_prover_new(&r, 1, false, &small, &err), TTT_OK);
    assert_int_equal(ttt_prover_new(&r, 64, false, &big, &err), TTT_OK);
    assert_false(ttt_prover_table_full(small));
    assert_int_equal(run_prover(small, 0, 0, true), TTT_PROOF_HOLDS);
    assert_int_equal(run_prover(big, 0, 0, true), TTT_PROOF_HOLDS);
    assert_true(ttt_prover_table_full(small));
    assert_false(ttt_prover_table_full(big));
    assert_int_equal(run_prover(small, BIT(24), 0, false), TTT_PROOF_HOLDS);
    assert_true(ttt_prover_table_full(small));

    /* the full table copied into the big one's slots (as a checkpoint read back does): full from its next run */
    size_t slots, bytes, big_slots, big_bytes;
    const void *from = ttt_prover_table(small, &slots, &bytes);
    void *to = ttt_prover_table(big, &big_slots, &big_bytes);
    assert_int_equal(bytes, big_bytes);
    for (size_t copy = 0; copy < big_slots / slots; copy++)
        memcpy((char *)to + copy * slots * bytes, from, slots * bytes);
    assert_false(ttt_prover_table_full(big));
    ttt_bits none = {{0}};
    ttt_prover_run_bits(big, &none, &none, true, 1, NULL, NULL, NULL);
    assert_true(ttt_prover_table_full(big));

    ttt_prover_clear(small);
    assert_false(ttt_prover_table_full(small));
    ttt_prover_free(small);
    ttt_prover_free(big);
}

/* --- The solver where it uses the prover ---------------------------------------------------------------- */

/* Random positions of a board where the solver uses the prover: the solver's value (and every move's with
 * ttt_solver_search) is the brute force's. */
static void solver_against_brute(const char *rules_text, int lo, int hi, int count, uint64_t seed)
{
    ttt_rules r = rules_of(rules_text);
    brute b;
    brute_init(&b, &r);
    ttt_solver *s = NULL;
    ttt_error err = {{0}};
    assert_int_equal(ttt_solver_new(&r, 16, &s, &err), TTT_OK);
    ttt_rng rng;
    ttt_rng_seed(&rng, seed);
    ttt_search_result *res = malloc(sizeof *res);
    assert_non_null(res);
    int draws = 0;
    for (int i = 0; i < count; i++) {
        bset x, o;
        int stones = lo + (int)ttt_rng_below(&rng, (uint32_t)(hi - lo + 1));
        if (!random_position(&b, &rng, stones, &x, &o))
            continue;
        ttt_board board;
        ttt_board_init(&board, &r);
        bset left[2] = {x, o};
        for (int side = 0; left[side]; side ^= 1) { /* X and O in turn */
            int cell = pairing_first128(left[side]);
            left[side] &= left[side] - 1;
            assert_int_equal(ttt_board_play_checked(&board, cell, &err), TTT_OK);
        }
        if (ttt_board_terminal(&board))
            continue;
        bool x_moves = stones % 2 == 0;
        bset mover = x_moves ? x : o, other = x_moves ? o : x;
        int truth = game_value(&b, mover, other);
        ttt_result value;
        assert_int_equal(ttt_solver_value(s, &board, &value, NULL, NULL, &err), TTT_OK);
        assert_int_equal((int)value, truth);
        draws += truth == 0;
        assert_int_equal(ttt_solver_search(s, &board, NULL, true, res, &err), TTT_OK);
        assert_true(res->proven);
        for (int m = 0; m < res->count; m++) {
            bset bit = BIT(res->moves[m].move);
            int v = has_line(&b, mover | bit) ? 1 : -game_value(&b, other, mover | bit);
            assert_int_equal((int)ttt_score_result(res->moves[m].score), v);
        }
    }
    free(res);
    ttt_solver_free(s);
    brute_free(&b);
    assert_true(draws > 0);
}

static void test_solver_7x7k5(void **state)
{
    (void)state;
    solver_against_brute("7x7k5", 38, 42, 150, 7);
}

/* The values of every move, from the empty board and after each first move of X's, on a board where the
 * solver proves the first moves one by one (search/solve.c): the same on one thread and on two (each with a
 * prover of its own), every one proven. */
static void solver_threads_agree(const char *rules_text)
{
    ttt_rules r = rules_of(rules_text);
    ttt_solver *s[2];
    ttt_error err = {{0}};
    ttt_search_result *res = malloc(2 * sizeof *res);
    assert_non_null(res);
    for (int t = 0; t < 2; t++) {
        assert_int_equal(ttt_solver_new(&r, 16, &s[t], &err), TTT_OK);
        assert_int_equal(ttt_solver_set_threads(s[t], t + 1, &err), TTT_OK);
    }
    for (int first = -1; first < r.rows * r.cols; first++) {
        ttt_board board;
        ttt_board_init(&board, &r);
        if (first >= 0)
            assert_int_equal(ttt_board_play_checked(&board, first, &err), TTT_OK);
        for (int t = 0; t < 2; t++) {
            assert_int_equal(ttt_solver_search(s[t], &board, NULL, true, &res[t], &err), TTT_OK);
            assert_true(res[t].proven);
        }
        assert_int_equal(res[0].count, res[1].count);
        for (int m = 0; m < res[0].count; m++) {
            assert_int_equal(res[0].moves[m].move, res[1].moves[m].move);
            assert_int_equal(ttt_score_result(res[0].moves[m].score),
                             ttt_score_result(res[1].moves[m].score));
        }
    }
    for (int t = 0; t < 2; t++)
        ttt_solver_free(s[t]);
    free(res);
}

static void test_solver_threads(void **state)
{
    (void)state;
    solver_threads_agree("6x6k5");
}

/* Boards above 64 cells, where the prover runs its 128-bit kernel and the solver hands it positions of more
 * than one word: the prover, its zones and the solver against the brute force near the end of the game. */
static void test_wide_prover(void **state)
{
    (void)state;
    assert_true(compare_board("9x9k6", 68, 72, 40, 20) > 0);
}

static void test_wide_zones(void **state)
{
    (void)state;
    check_zones("9x8k6", 60, 64, 40, 21);
}

static void test_wide_solver(void **state)
{
    (void)state;
    solver_against_brute("9x9k6", 70, 73, 30, 22);
}

/* Where the solver's exact searches begin with the draw prover: normal rules, k >= 5, 36 to 128 cells, the
 * rules as given (rows > cols too). */
static void test_solver_proves_draws(void **state)
{
    (void)state;
    static const struct {
        const char *rules;
        bool proves;
    } cases[] = {
        {"6x6k5", true},  {"8x6k5", true},  {"7x7k5", true}, {"9x9k6", true},    {"8x16k5", true},
        {"5x7k5", false}, {"6x6k4", false}, {"3x3", false},  {"12x12k5", false}, {"9x9k5-misere", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ttt_rules r;
        ttt_error err;
        assert_int_equal(ttt_rules_parse(cases[i].rules, &r, &err), TTT_OK);
        if (ttt_solver_proves_draws(&r) != cases[i].proves)
            fail_msg("%s: ttt_solver_proves_draws should be %d", cases[i].rules, cases[i].proves);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prover_4x4k3),        cmocka_unit_test(test_prover_4x4),
        cmocka_unit_test(test_prover_5x4k4),        cmocka_unit_test(test_prover_5x5k4),
        cmocka_unit_test(test_prover_6x4k4),        cmocka_unit_test(test_prover_5x5k5),
        cmocka_unit_test(test_prover_empty_boards), cmocka_unit_test(test_zones),
        cmocka_unit_test(test_solver_7x7k5),        cmocka_unit_test(test_wide_prover),
        cmocka_unit_test(test_wide_zones),          cmocka_unit_test(test_wide_solver),
        cmocka_unit_test(test_solver_threads),      cmocka_unit_test(test_solver_proves_draws),
        cmocka_unit_test(test_table_full),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
