/*
 * tests/test_pairing.c - pairing strategies (src/search/pairing.c): both kernels against an independent
 * reference written here (its own walk over the board's lines and its own matching), on random positions of
 * boards up to 64 cells (both kernels) and above (the general one); and the Erdos-Selfridge weights.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "rules/lines.h"
#include "search/pairing.h"
#include "ttt/ttt.h"

#include "support.h"

/* --- The reference -------------------------------------------------------------------------------------- */

#define REF_MAX_UNITS   (4 * TTT_MAX_CELLS)
#define REF_MAX_WINDOWS (4 * TTT_MAX_CELLS)
#define REF_MAX_K       16

/* A set of cells as a list. */
typedef struct ref_cells {
    int n;
    int cell[REF_MAX_K];
} ref_cells;

typedef struct ref_position {
    int rows, cols, k, cells;
    bool x[TTT_MAX_CELLS], o[TTT_MAX_CELLS];
    ref_cells win[REF_MAX_WINDOWS]; /* every window, in no particular order */
    int nwin;
} ref_position;

static bool ref_empty(const ref_position *p, int cell) { return !p->x[cell] && !p->o[cell]; }

/* The cells of a that are also in b (both lists). */
static ref_cells ref_common(const ref_cells *a, const ref_cells *b)
{
    ref_cells out = {0};
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < b->n; j++)
            if (a->cell[i] == b->cell[j])
                out.cell[out.n++] = a->cell[i];
    return out;
}

/* The units a pairing must serve, built apart from the module: along every line (a direction and a first
 * cell), the windows free of o in order; grouped, a window joins the open group while the group's common
 * empty cells and its own number two or more. Returns how many, or -1 when a window free of o has fewer than
 * two empty cells (no pairing can block it). Also lists every window into p->win. */
static int ref_units(ref_position *p, bool grouped, ref_cells *units)
{
    static const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, 0, 1, -1};
    int n = 0;
    bool blocked = false;
    p->nwin = 0;
    for (int d = 0; d < 4; d++)
        for (int row = 0; row < p->rows; row++)
            for (int col = 0; col < p->cols; col++) {
                int pr = row - dr[d], pc = col - dc[d];
                if (pr >= 0 && pc >= 0 && pc < p->cols)
                    continue; /* not the first cell of its line */
                ref_cells group = {0};
                bool open = false;
                for (int sr = row, sc = col;; sr += dr[d], sc += dc[d]) {
                    int er = sr + (p->k - 1) * dr[d], ec = sc + (p->k - 1) * dc[d];
                    if (er >= p->rows || ec < 0 || ec >= p->cols)
                        break;
                    ref_cells w = {0}, empty = {0};
                    bool theirs = false;
                    for (int i = 0; i < p->k; i++) {
                        int cell = (sr + i * dr[d]) * p->cols + sc + i * dc[d];
                        w.cell[w.n++] = cell;
                        theirs |= p->o[cell];
                        if (ref_empty(p, cell))
                            empty.cell[empty.n++] = cell;
                    }
                    p->win[p->nwin++] = w;
                    if (theirs)
                        continue;
                    if (empty.n < 2)
                        blocked = true;
                    ref_cells both = ref_common(&group, &empty);
                    if (grouped && open && both.n >= 2) {
                        group = both;
                        continue;
                    }
                    if (open)
                        units[n++] = group;
                    group = empty;
                    open = true;
                }
                if (open)
                    units[n++] = group;
                assert_true(n <= REF_MAX_UNITS);
            }
    return blocked ? -1 : n;
}

/* Can every unit be given two cells of its own? Each unit is two slots; each slot in turn looks for a free
 * cell breadth first, through the cells of its unit and the slots that hold them (Kuhn's algorithm). */
static bool ref_pairs_exist(const ref_cells *units, int n)
{
    static int owner[TTT_MAX_CELLS], holds[2 * REF_MAX_UNITS], queue[2 * REF_MAX_UNITS];
    for (int c = 0; c < TTT_MAX_CELLS; c++)
        owner[c] = -1;
    for (int s = 0; s < 2 * n; s++) {
        int reached_by[TTT_MAX_CELLS], head = 0, tail = 0, free_cell = -1;
        bool seen[TTT_MAX_CELLS] = {false};
        queue[tail++] = s;
        holds[s] = -1;
        while (head < tail && free_cell < 0) {
            int t = queue[head++];
            for (int i = 0; i < units[t / 2].n && free_cell < 0; i++) {
                int cell = units[t / 2].cell[i];
                if (seen[cell])
                    continue;
                seen[cell] = true;
                reached_by[cell] = t;
                if (owner[cell] < 0)
                    free_cell = cell;
                else
                    queue[tail++] = owner[cell];
            }
        }
        if (free_cell < 0)
            return false;
        for (int cell = free_cell;;) { /* each slot on the path takes the cell it reached */
            int t = reached_by[cell], had = holds[t];
            holds[t] = cell;
            owner[cell] = t;
            if (t == s)
                break;
            cell = had;
        }
    }
    return true;
}

/* A pairing found is one: pairs of distinct empty cells, each its partner's partner, and every window free
 * of o holds a whole pair. */
static void check_partners(const ref_position *p, const int *partner)
{
    for (int c = 0; c < p->cells; c++) {
        if (partner[c] < 0)
            continue;
        assert_in_range(partner[c], 0, p->cells - 1);
        assert_int_not_equal(partner[c], c);
        assert_int_equal(partner[partner[c]], c);
        assert_true(ref_empty(p, c));
    }
    for (int w = 0; w < p->nwin; w++) {
        const ref_cells *win = &p->win[w];
        bool theirs = false, pair = false;
        for (int i = 0; i < win->n; i++)
            theirs |= p->o[win->cell[i]];
        for (int i = 0; i < win->n && !theirs && !pair; i++)
            for (int j = 0; j < win->n && !pair; j++)
                pair = partner[win->cell[i]] == win->cell[j];
        assert_true(theirs || pair);
    }
}

/* --- Both kernels against it ---------------------------------------------------------------------------- */

/* Random positions of a board (o's stones three times in five: more pairings): each kernel finds a pairing
 * exactly when the reference's grouped units can each be given a pair, and one unit per window never has a
 * pairing that grouping misses (the reason the kernels try only the grouped units). The word kernels run
 * where the board has at most 64 (128) cells. */
static void check_board(const char *rules_text, int count, uint64_t seed)
{
    ttt_rules r = rules_of(rules_text);
    const ttt_lines *lines;
    ttt_error err;
    assert_int_equal(ttt_lines_new(&r, &lines, &err), TTT_OK);
    static ref_position p;
    static ref_cells units[REF_MAX_UNITS];
    p = (ref_position){.rows = r.rows, .cols = r.cols, .k = r.k, .cells = r.rows * r.cols};
    uint8_t *count_x = calloc((size_t)lines->nwin, 1), *count_o = calloc((size_t)lines->nwin, 1);
    assert_true(count_x && count_o);
    ttt_rng rng;
    ttt_rng_seed(&rng, seed);
    int exist = 0, absent = 0, singles = 0;
    for (int n = 0; n < count; n++) {
        ttt_bits x = {{0}}, o = {{0}}, occ = {{0}};
        memset(p.x, 0, sizeof p.x);
        memset(p.o, 0, sizeof p.o);
        int stones = (int)ttt_rng_below(&rng, (uint32_t)p.cells);
        for (int j = 0; j < stones; j++) {
            int cell;
            do
                cell = (int)ttt_rng_below(&rng, (uint32_t)p.cells);
            while (p.x[cell] || p.o[cell]);
            bool is_o = ttt_rng_below(&rng, 5) < 3;
            (is_o ? p.o : p.x)[cell] = true;
            ttt_bits_set(is_o ? &o : &x, cell);
            ttt_bits_set(&occ, cell);
        }
        for (int w = 0; w < lines->nwin; w++) {
            count_x[w] = count_o[w] = 0;
            for (int i = 0; i < lines->k; i++) {
                count_x[w] += p.x[ttt_lines_cells(lines, w)[i]];
                count_o[w] += p.o[ttt_lines_cells(lines, w)[i]];
            }
        }
        int nu = ref_units(&p, true, units);
        const bool expect = nu >= 0 && ref_pairs_exist(units, nu);
        nu = ref_units(&p, false, units);
        const bool single = nu >= 0 && ref_pairs_exist(units, nu);
        assert_true(expect || !single);
        singles += single;
        exist += expect;
        absent += !expect;

        int partner[TTT_MAX_CELLS];
        bool found = pairing_find(lines, &occ, count_x, count_o, partner);
        if (found != expect)
            print_error("%s, position %d: the general kernel %s a pairing, the reference %s\n", rules_text, n,
                        found ? "finds" : "does not find", expect ? "finds one" : "none");
        assert_int_equal(found, expect);
        if (found)
            check_partners(&p, partner);
        if (lines->words <= 2) {
            pairing_set128 wide = 0;
            static pairing_lines128 pw;
            pairing_lines128_init(&pw, lines);
            found = pairing_find128(&pw, pairing_of_bits128(&x), pairing_of_bits128(&o), &wide, partner);
            if (found != expect)
                print_error("%s, position %d: the 128-bit kernel %s a pairing, the reference %s\n",
                            rules_text, n, found ? "finds" : "does not find", expect ? "finds one" : "none");
            assert_int_equal(found, expect);
            if (found) {
                check_partners(&p, partner);
                for (int c = 0; c < p.cells; c++)
                    assert_int_equal((int)(wide >> c & 1), partner[c] >= 0);
            }
        }
        if (lines->words > 1)
            continue;
        uint64_t paired = 0;
        static pairing_lines64 pl;
        pairing_lines64_init(&pl, lines);
        found = pairing_find64(&pl, x.w[0], o.w[0], &paired, partner);
        if (found != expect)
            print_error("%s x=%#llx o=%#llx: the one-word kernel %s a pairing, the reference %s\n",
                        rules_text, (unsigned long long)x.w[0], (unsigned long long)o.w[0],
                        found ? "finds" : "does not find", expect ? "finds one" : "none");
        assert_int_equal(found, expect);
        if (!found)
            continue;
        check_partners(&p, partner);
        for (int c = 0; c < p.cells; c++)
            assert_int_equal(paired >> c & 1, partner[c] >= 0);
    }
    print_message("%s: %d positions with a pairing (%d also with one unit per window), %d without\n",
                  rules_text, exist, singles, absent);
    assert_true(exist > 0 && absent > 0);
    free(count_x);
    free(count_o);
    ttt_lines_unref(lines);
}

static void test_kernels_small_boards(void **state)
{
    (void)state;
    static const char *boards[] = {"4x4", "5x5k4", "6x6k5", "7x7k5", "8x8k5"};
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++)
        check_board(boards[i], 4000, 70 + i);
}

static void test_general_kernel_big_boards(void **state)
{
    (void)state;
    static const char *boards[] = {"9x9k5", "10x10k5", "8x9k6", "11x11k6"};
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++)
        check_board(boards[i], 1500, 80 + i);
}

/* --- One more defender stone ---------------------------------------------------------------------------- */

/* Cells given in turn to pairing_find64_after (a pairing_next_fn). */
typedef struct cell_list {
    const int *cell;
    int n, at;
} cell_list;

static int list_next(void *user)
{
    cell_list *l = user;
    return l->at < l->n ? l->cell[l->at++] : -1;
}

/* pairing_find64_after and pairing_find128_after against a call of pairing_find64 (128) on the position and
 * on each move, on random positions and moves in random order: the same answer and the same cells. */
static void check_after(const char *rules_text, int count, uint64_t seed)
{
    ttt_rules r;
    ttt_error err;
    const ttt_lines *lines;
    assert_int_equal(ttt_rules_parse(rules_text, &r, &err), TTT_OK);
    assert_int_equal(ttt_lines_new(&r, &lines, &err), TTT_OK);
    static pairing_lines64 pl;
    static pairing_lines128 pw;
    const bool narrow = lines->cells <= 64;
    if (narrow)
        pairing_lines64_init(&pl, lines);
    pairing_lines128_init(&pw, lines);
    ttt_rng rng;
    ttt_rng_seed(&rng, seed);
    int selves = 0, moves_found = 0, none = 0;
    for (int n = 0; n < count; n++) {
        pairing_set128 x = 0, o = 0;
        const int stones = 2 + (int)ttt_rng_below(&rng, (uint32_t)lines->cells / 3);
        for (int j = 0; j < stones; j++) {
            int cell;
            do
                cell = (int)ttt_rng_below(&rng, (uint32_t)lines->cells);
            while ((x | o) >> cell & 1);
            *(ttt_rng_below(&rng, 2) ? &o : &x) |= (pairing_set128)1 << cell;
        }
        int cells[PAIRING_SET128_BITS], nc = 0;
        for (int c = 0; c < lines->cells; c++)
            if (!((x | o) >> c & 1))
                cells[nc++] = c;
        for (int i = nc - 1; i > 0; i--) {
            const int j = (int)ttt_rng_below(&rng, (uint32_t)i + 1), t = cells[i];
            cells[i] = cells[j];
            cells[j] = t;
        }
        for (int self = 0; self < 2; self++) {
            int expect = -1;
            pairing_set128 want = 0, got = 0;
            if (self && pairing_find128(&pw, x, o, &want, NULL))
                expect = PAIRING_SELF;
            for (int i = 0; i < nc && expect == -1; i++)
                if (pairing_find128(&pw, x, o | (pairing_set128)1 << cells[i], &want, NULL))
                    expect = i;
            const int expect_cell = expect >= 0 ? cells[expect] : expect;
            cell_list list = {cells, nc, 0};
            const int found = pairing_find128_after(&pw, x, o, self, list_next, &list, &got);
            assert_int_equal(found, expect_cell);
            if (found != -1)
                assert_true(got == want);
            if (narrow) {
                uint64_t got64 = 0;
                list.at = 0;
                assert_int_equal(
                    pairing_find64_after(&pl, (uint64_t)x, (uint64_t)o, self, list_next, &list, &got64),
                    expect_cell);
                if (found != -1)
                    assert_true(got64 == (uint64_t)want);
            }
            selves += expect == PAIRING_SELF;
            moves_found += expect >= 0;
            none += expect == -1;
        }
    }
    print_message("%s: %d with a pairing, %d after a move, %d without\n", rules_text, selves, moves_found,
                  none);
    assert_true(selves > 0 && moves_found > 0 && none > 0);
    ttt_lines_unref(lines);
}

static void test_after(void **state)
{
    (void)state;
    static const char *boards[] = {"6x6k5", "7x7k5", "8x8k5", "9x9k5", "8x9k6"};
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++)
        check_after(boards[i], 600, 100 + i);
}

/* --- The 128-bit sets ------------------------------------------------------------------------------------ */

/* Counting, the lowest and the highest cell of sets in either word or both, against a loop over the cells. */
static void test_set128(void **state)
{
    (void)state;
    ttt_rng rng;
    ttt_rng_seed(&rng, 90);
    for (int i = 0; i < 2000; i++) {
        pairing_set128 x = 0;
        int n = 1 + (int)ttt_rng_below(&rng, 6);
        for (int j = 0; j < n; j++)
            x |= (pairing_set128)1 << ttt_rng_below(&rng, 128);
        int count = 0, first = -1, last = -1;
        for (int c = 0; c < 128; c++)
            if (x >> c & 1) {
                count++;
                last = c;
                if (first < 0)
                    first = c;
            }
        assert_int_equal(pairing_count128(x), count);
        assert_int_equal(pairing_first128(x), first);
        assert_int_equal(pairing_last128(x), last);
        ttt_bits b;
        pairing_to_bits128(x, &b);
        assert_true(pairing_of_bits128(&b) == x);
        for (int w = 2; w < TTT_WORDS; w++)
            assert_int_equal(b.w[w], 0);
    }
}

/* --- The Erdos-Selfridge weights ------------------------------------------------------------------------ */

static void test_potential(void **state)
{
    (void)state;
    const uint64_t half = pairing_potential(1), quarter = pairing_potential(2);
    assert_true(half == 2 * quarter && quarter > 0);
    assert_int_equal(pairing_potential(PAIRING_POTENTIAL_BITS + 1), 0);
    /* One threat: stopped only with the defender to move; two threats: never. */
    assert_false(pairing_potential_stops(half, true));
    assert_true(pairing_potential_stops(half, false));
    assert_false(pairing_potential_stops(2 * half, false));
    /* Windows needing two stones each: one stopped either way; two only with the defender to move. */
    assert_true(pairing_potential_stops(quarter, true));
    assert_false(pairing_potential_stops(2 * quarter, true));
    assert_true(pairing_potential_stops(2 * quarter, false));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernels_small_boards),
        cmocka_unit_test(test_general_kernel_big_boards),
        cmocka_unit_test(test_after),
        cmocka_unit_test(test_set128),
        cmocka_unit_test(test_potential),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
