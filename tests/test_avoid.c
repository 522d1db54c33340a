/*
 * test_avoid.c - the misère counting bounds (src/search/avoid.c) and avoiding by pairs (src/search/pairing.c)
 * hold against brute force.
 *
 * The view of each position is read here, by the test's own walk over the board's windows (not the
 * solver's), and every bound avoid_bounds proves is checked against the exact score of a plain negamax with a
 * memo (scores as ttt/solve.h gives them). The positions are random ones of small misère boards, and the
 * check also asks that each kind of bound fires on some of them, so that a rule made too weak or too strong
 * shows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ttt/ttt.h"

#include "search/avoid.h"
#include "search/pairing.h"
#include "support.h"

/* --- Brute force ---------------------------------------------------------------------------------------- */

typedef struct slot {
    uint64_t x, o;
    int score;
    bool used;
} slot;

#define MEMO_SLOTS (1u << 20)

typedef struct memo {
    slot *slots;
    size_t used;
} memo;

static slot *memo_find(memo *m, uint64_t x, uint64_t o)
{
    uint64_t h = (x * 0x9e3779b97f4a7c15u) ^ (o * 0xc2b2ae3d27d4eb4fu);
    for (size_t i = (size_t)(h ^ (h >> 29)) & (MEMO_SLOTS - 1);; i = (i + 1) & (MEMO_SLOTS - 1))
        if (!m->slots[i].used || (m->slots[i].x == x && m->slots[i].o == o))
            return &m->slots[i];
}

/* The exact score for the side to move: a win ending after E stones is TTT_SCORE_WIN - E, a loss its
 * negation, a draw 0. */
static int brute(memo *m, ttt_board *b)
{
    ttt_outcome out = ttt_board_outcome(b);
    if (out == TTT_DRAW)
        return 0;
    if (out != TTT_ONGOING) {
        bool mover_won = (out == TTT_X_WINS) == (ttt_board_to_move(b) == TTT_X);
        return mover_won ? TTT_SCORE_WIN - b->ply : -(TTT_SCORE_WIN - b->ply);
    }
    slot *s = memo_find(m, b->stones[TTT_X].w[0], b->stones[TTT_O].w[0]);
    if (s->used)
        return s->score;
    ttt_move moves[TTT_MAX_CELLS];
    int n = ttt_board_moves(b, moves), best = -100000;
    for (int i = 0; i < n; i++) {
        ttt_board_play(b, moves[i]);
        int sc = -brute(m, b);
        ttt_board_undo(b, moves[i]);
        best = sc > best ? sc : best;
    }
    if (++m->used > MEMO_SLOTS / 4 * 3) { /* a cache: start again when three quarters full */
        memset(m->slots, 0, MEMO_SLOTS * sizeof *m->slots);
        m->used = 1;
    }
    s = memo_find(m, b->stones[TTT_X].w[0], b->stones[TTT_O].w[0]);
    *s = (slot){b->stones[TTT_X].w[0], b->stones[TTT_O].w[0], best, true};
    return best;
}

/* --- The view, read independently ----------------------------------------------------------------------- */

/* The board's windows, by the test's own walk (every run of k cells in the four directions), and the stones
 * of each side in each. */
typedef struct test_lines {
    int nwin, k;
    int16_t cell[4 * TTT_MAX_CELLS * 8];
    uint8_t count[2][4 * TTT_MAX_CELLS];
} test_lines;

static void lines_of(const ttt_board *b, test_lines *t)
{
    const ttt_rules *r = &b->rules;
    static const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, 0, 1, -1};
    memset(t, 0, sizeof *t);
    t->k = r->k;
    for (int row = 0; row < r->rows; row++)
        for (int col = 0; col < r->cols; col++)
            for (int d = 0; d < 4; d++) {
                int er = row + (r->k - 1) * dr[d], ec = col + (r->k - 1) * dc[d];
                if (er >= r->rows || ec < 0 || ec >= r->cols)
                    continue;
                for (int i = 0; i < r->k; i++) {
                    int cell = (row + i * dr[d]) * r->cols + col + i * dc[d];
                    t->cell[t->nwin * r->k + i] = (int16_t)cell;
                    for (int side = 0; side < 2; side++)
                        t->count[side][t->nwin] += ttt_bits_test(&b->stones[side], cell);
                }
                t->nwin++;
            }
}

/* Fills the view of an ongoing position. can[] is left true for both sides (no Avoider bound): the counting
 * alone is checked. */
static avoid_view view_of(const ttt_board *b)
{
    static test_lines t;
    lines_of(b, &t);
    avoid_view v;
    memset(&v, 0, sizeof v);
    v.mover = (int)ttt_board_to_move(b);
    v.cells = b->rules.rows * b->rules.cols;
    v.can[0] = v.can[1] = true;
    int empties = v.cells - b->ply, left[2];
    left[v.mover] = (empties + 1) / 2;
    left[v.mover ^ 1] = empties / 2;
    for (int cell = 0; cell < v.cells; cell++)
        if (!ttt_bits_test(&b->stones[TTT_X], cell) && !ttt_bits_test(&b->stones[TTT_O], cell))
            ttt_bits_set(&v.empty, cell);
    for (int w = 0; w < t.nwin; w++)
        for (int side = 0; side < 2; side++) {
            if (t.count[side ^ 1][w] > 0 || t.k - t.count[side][w] > left[side])
                continue;
            for (int i = 0; i < t.k; i++) {
                int cell = t.cell[w * t.k + i];
                ttt_bits_set(&v.useful[side], cell);
                if (t.count[side][w] == t.k - 1 && ttt_bits_test(&v.empty, cell))
                    ttt_bits_set(&v.threat[side], cell);
            }
        }
    return v;
}

/* --- The checks ----------------------------------------------------------------------------------------- */

typedef struct fired {
    int safe_lo, safe_hi, win, loss;
} fired;

/* `count` random positions of `stones` stones (games ended early are skipped); every bound holds. */
static fired check_bounds(const char *rules_text, int stones, int count, uint64_t seed)
{
    ttt_rules r = rules_of(rules_text);
    memo m = {calloc(MEMO_SLOTS, sizeof(slot)), 0};
    assert_non_null(m.slots);
    ttt_rng rng;
    ttt_rng_seed(&rng, seed);
    fired f = {0, 0, 0, 0};
    for (int done = 0; done < count;) {
        ttt_board b;
        ttt_board_init(&b, &r);
        for (int i = 0; i < stones && !ttt_board_terminal(&b); i++) {
            /* Random moves that complete no line where there are any: positions like the ones both
             * sides' best play reaches, where the counting has something to say. */
            ttt_move moves[TTT_MAX_CELLS], quiet[TTT_MAX_CELLS];
            int n = ttt_board_moves(&b, moves), nquiet = 0;
            for (int j = 0; j < n; j++) {
                ttt_board_play(&b, moves[j]);
                if (!ttt_board_terminal(&b) || ttt_board_outcome(&b) == TTT_DRAW)
                    quiet[nquiet++] = moves[j];
                ttt_board_undo(&b, moves[j]);
            }
            if (nquiet > 0)
                ttt_board_play(&b, quiet[ttt_rng_below(&rng, (uint32_t)nquiet)]);
            else
                ttt_board_play(&b, moves[ttt_rng_below(&rng, (uint32_t)n)]);
        }
        if (ttt_board_terminal(&b))
            continue;
        avoid_view v = view_of(&b);
        int lo, hi;
        avoid_bounds(&v, &lo, &hi);
        int truth = brute(&m, &b);
        if (truth < lo || truth > hi) {
            char text[TTT_MAX_CELLS * 2 + 32];
            ttt_position_format(&b, text, sizeof text);
            print_error("%s %s: score %d outside the bounds [%d, %d]\n", rules_text, text, truth, lo, hi);
            fail();
        }
        f.safe_lo += lo == 0;
        f.safe_hi += hi == 0;
        f.win += lo > 0;
        f.loss += hi < 0;
        done++;
    }
    free(m.slots);
    return f;
}

static void test_bounds_hold(void **state)
{
    (void)state;
    static const struct {
        const char *rules;
        int stones, count;
    } cases[] = {
        {"3x3-misere", 4, 300},    {"3x3-misere", 6, 300},    {"3x4k3-misere", 6, 300},
        {"4x4k3-misere", 9, 300},  {"4x4k3-misere", 12, 300}, {"4x4-misere", 10, 300},
        {"4x4-misere", 13, 300},   {"5x3k3-misere", 11, 300}, {"4x5k4-misere", 16, 300},
        {"5x5k4-misere", 20, 300}, {"5x5k4-misere", 22, 300},
    };
    fired all = {0, 0, 0, 0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fired f = check_bounds(cases[i].rules, cases[i].stones, cases[i].count, 100 + i);
        all.safe_lo += f.safe_lo;
        all.safe_hi += f.safe_hi;
        all.win += f.win;
        all.loss += f.loss;
    }
    print_message("fired: lo 0 %d, hi 0 %d, win %d, loss %d\n", all.safe_lo, all.safe_hi, all.win, all.loss);
    /* Every rule proves something somewhere: a rule broken into never firing fails here. */
    assert_true(all.safe_lo > 0);
    assert_true(all.safe_hi > 0);
    assert_true(all.win > 0);
    assert_true(all.loss > 0);
}

/* A hand-made position: 3x3 misère, X a1 c1, O b3 c2 (X to move, 5 empty). Every cell left but b1 lies in a
 * window X can still complete, so X has no reserved cell: nothing proves X safe, and X indeed loses. */
static void test_no_reserved_cells(void **state)
{
    (void)state;
    ttt_rules r = rules_of("3x3-misere");
    ttt_board b = board_of(&r, "a1 b3 c1 c2");
    avoid_view v = view_of(&b);
    assert_false(avoid_safe(&v, TTT_X, false));
    assert_false(avoid_safe(&v, TTT_X, true));
    int lo, hi;
    avoid_bounds(&v, &lo, &hi);
    assert_true(lo < 0);
}

/* A side the Avoider bound already clears is safe whatever the cells say. */
static void test_can_false_is_safe(void **state)
{
    (void)state;
    ttt_rules r = rules_of("3x3-misere");
    ttt_board b = board_of(&r, "a1 b3 c1 c2");
    avoid_view v = view_of(&b);
    v.can[TTT_X] = false;
    assert_true(avoid_safe(&v, TTT_X, false));
    int lo, hi;
    avoid_bounds(&v, &lo, &hi);
    assert_int_equal(lo, 0);
}

/* --- Avoiding by pairs ---------------------------------------------------------------------------------- */

/* The cells where `side` would complete a line now (its poison). */
static uint64_t poison_of(const ttt_board *b, const test_lines *t, int side)
{
    uint64_t poison = 0;
    for (int w = 0; w < t->nwin; w++) {
        if (t->count[side ^ 1][w] || t->count[side][w] != t->k - 1)
            continue;
        for (int i = 0; i < t->k; i++) {
            int c = t->cell[w * t->k + i];
            if (!ttt_bits_test(&b->stones[side], c))
                poison |= UINT64_C(1) << c;
        }
    }
    return poison;
}

/* The pairing found for `side` is one: pairs of distinct empty cells outside `forbid`, each its partner's
 * partner; every window free of the other side's stones that the side could fill in its moves left holds a
 * pair or a forbidden cell; and the cells left over cover the side's moves left (avoid.h's count). */
static void check_pairs(const ttt_board *b, const test_lines *t, int side, int left, uint64_t forbid,
                        uint64_t reserved, const int *partner)
{
    const int cells = b->rules.rows * b->rules.cols;
    int pairs = 0, r = 0, n = 0;
    for (int c = 0; c < cells; c++) {
        bool empty = !ttt_bits_test(&b->stones[0], c) && !ttt_bits_test(&b->stones[1], c);
        if (partner[c] < 0) {
            if (empty && !(forbid >> c & 1))
                reserved >> c & 1 ? r++ : n++;
            continue;
        }
        assert_true(partner[c] != c && partner[c] < cells && partner[partner[c]] == c);
        assert_true(empty && !(forbid >> c & 1));
        pairs += c < partner[c];
    }
    const bool to_move = side == (int)ttt_board_to_move(b);
    assert_true(r + pairs + (to_move ? (n + 1) / 2 : n / 2) >= left);
    for (int w = 0; w < t->nwin; w++) {
        if (t->count[side ^ 1][w] || t->k - t->count[side][w] > left)
            continue;
        bool paired = false;
        for (int i = 0; i < t->k && !paired; i++) {
            int c = t->cell[w * t->k + i];
            paired = forbid >> c & 1;
            for (int j = 0; j < t->k && !paired; j++)
                paired = partner[c] == t->cell[w * t->k + j];
        }
        assert_true(paired);
    }
}

/* Random positions of misère boards: where a side avoids by pairs, the pairs are checked, and brute force
 * says that side never loses. Returns how many times a pairing was found. */
static int check_pairings(const char *rules_text, int stones, int count, uint64_t seed, int *with_forbidden)
{
    ttt_rules r = rules_of(rules_text);
    memo m = {calloc(MEMO_SLOTS, sizeof(slot)), 0};
    assert_non_null(m.slots);
    ttt_rng rng;
    ttt_rng_seed(&rng, seed);
    static test_lines t;
    int found = 0, forbidden = 0;
    const ttt_lines *lines;
    ttt_error err;
    assert_int_equal(ttt_lines_new(&r, &lines, &err), TTT_OK);
    for (int done = 0; done < count;) {
        ttt_board b;
        ttt_board_init(&b, &r);
        for (int i = 0; i < stones && !ttt_board_terminal(&b); i++) {
            ttt_move moves[TTT_MAX_CELLS];
            int n = ttt_board_moves(&b, moves);
            ttt_board_play(&b, moves[ttt_rng_below(&rng, (uint32_t)n)]);
        }
        if (ttt_board_terminal(&b))
            continue;
        done++;
        lines_of(&b, &t);
        /* pairing_avoid reads the shared geometry: its windows are the test's own, in the same order. */
        assert_int_equal(lines->nwin, t.nwin);
        assert_memory_equal(lines->win_cell, t.cell, (size_t)(t.nwin * t.k) * sizeof *t.cell);
        const int mover = (int)ttt_board_to_move(&b), empties = b.cells - b.ply;
        uint64_t empty = 0;
        for (int c = 0; c < b.cells; c++)
            if (!ttt_bits_test(&b.stones[0], c) && !ttt_bits_test(&b.stones[1], c))
                empty |= UINT64_C(1) << c;
        for (int side = 0; side < 2; side++) {
            const int left = side == mover ? (empties + 1) / 2 : empties / 2;
            int partner[64];
            const uint64_t forbid = poison_of(&b, &t, side), reserved = poison_of(&b, &t, side ^ 1) & ~forbid;
            if (!pairing_avoid(lines, empty, forbid, reserved, t.count[side], t.count[side ^ 1], left,
                               side == mover, 1 << 20, partner))
                continue;
            found++;
            forbidden += forbid != 0;
            check_pairs(&b, &t, side, left, forbid, reserved, partner);
            int truth = brute(&m, &b);
            if (side == mover ? truth < 0 : truth > 0) {
                char text[TTT_MAX_CELLS * 2 + 32];
                ttt_position_format(&b, text, sizeof text);
                print_error("%s %s: %s avoids by pairs, yet its score is %d\n", rules_text, text,
                            side == TTT_X ? "X" : "O", side == mover ? truth : -truth);
                fail();
            }
        }
    }
    free(m.slots);
    ttt_lines_unref(lines);
    *with_forbidden += forbidden;
    return found;
}

static void test_pairings_avoid(void **state)
{
    (void)state;
    static const struct {
        const char *rules;
        int stones, count;
    } cases[] = {
        {"3x3-misere", 3, 300},   {"3x4k3-misere", 5, 300},  {"4x4k3-misere", 8, 300},
        {"4x4-misere", 6, 300},   {"4x4-misere", 9, 300},    {"4x5k4-misere", 10, 200},
        {"5x5k4-misere", 13, 60}, {"5x5k4-misere", 16, 200},
    };
    int found = 0, with_forbidden = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        found += check_pairings(cases[i].rules, cases[i].stones, cases[i].count, 200 + i, &with_forbidden);
    print_message("pairings found: %d, %d of them with poison cells\n", found, with_forbidden);
    assert_true(found > 0);
    assert_true(with_forbidden > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bounds_hold),
        cmocka_unit_test(test_no_reserved_cells),
        cmocka_unit_test(test_can_false_is_safe),
        cmocka_unit_test(test_pairings_avoid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
