/* Unit tests for ttt/count.h: exact counts of the game tree, checked against brute force written here and
 * against the published figures for tic-tac-toe. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttt/ttt.h"
#include "support.h"

/* --- Helpers -------------------------------------------------------------------------------------------- */

/* ttt_counts is large; keep the ones under test off the stack. */
static ttt_counts lib_counts;

static void count_ok(const ttt_rules *r, ttt_counts *out)
{
    ttt_error err = {{0}};
    ttt_status st = ttt_count(r, 0, out, &err);
    if (st != TTT_OK) {
        print_error("ttt_count: %s\n", err.msg);
    }
    assert_int_equal(st, TTT_OK);
    assert_true(ttt_rules_equal(&out->rules, r));
    assert_int_equal(out->plies, r->rows * r->cols + 1);
}

/* The symmetry as the header defines it (transpose, then flip rows, then flip cols), written out here. */
static int sym_cell(const ttt_rules *r, int s, int cell)
{
    int row = cell / r->cols, col = cell % r->cols;
    if (s & 4) {
        int t = row;
        row = col;
        col = t;
    }
    if (s & 2) {
        row = r->rows - 1 - row;
    }
    if (s & 1) {
        col = r->cols - 1 - col;
    }
    return row * r->cols + col;
}

static int sym_count(const ttt_rules *r) { return r->rows == r->cols ? 8 : 4; }

/* Positions of up to 32 cells as one key: X's cells in the low half, O's in the high half. */
static uint64_t key_of(const ttt_board *b) { return b->stones[TTT_X].w[0] | (b->stones[TTT_O].w[0] << 32); }

static uint64_t sym_key(const ttt_rules *r, int s, uint64_t key)
{
    int cells = r->rows * r->cols;
    uint64_t out = 0;
    for (int cell = 0; cell < cells; cell++) {
        int to = sym_cell(r, s, cell);
        if ((key >> cell) & 1) {
            out |= UINT64_C(1) << to;
        }
        if ((key >> (cell + 32)) & 1) {
            out |= UINT64_C(1) << (to + 32);
        }
    }
    return out;
}

static uint64_t canonical_key(const ttt_rules *r, uint64_t key)
{
    uint64_t best = key;
    for (int s = 1; s < sym_count(r); s++) {
        uint64_t k = sym_key(r, s, key);
        best = k < best ? k : best;
    }
    return best;
}

static void board_of_key(ttt_board *b, const ttt_rules *r, uint64_t key)
{
    ttt_bits x, o;
    memset(&x, 0, sizeof x);
    memset(&o, 0, sizeof o);
    x.w[0] = key & 0xffffffffu;
    o.w[0] = key >> 32;
    ttt_board_from_bits(b, r, &x, &o);
}

/* 0 ongoing, else 1 X wins, 2 O wins, 3 draw; the misère swap is done here, not by ttt_board_outcome. */
static int outcome_here(const ttt_board *b)
{
    if (b->line_owner == TTT_X) {
        return b->rules.misere ? 2 : 1;
    }
    if (b->line_owner == TTT_O) {
        return b->rules.misere ? 1 : 2;
    }
    return b->ply == b->cells ? 3 : 0;
}

static void tally_add(ttt_count_tally *t, int outcome, uint64_t n)
{
    t->total += n;
    if (outcome == 1) {
        t->x_wins += n;
    } else if (outcome == 2) {
        t->o_wins += n;
    } else if (outcome == 3) {
        t->draws += n;
    }
}

/* A set of keys (optionally with a count each): open addressing, capacity a power of two. */
typedef struct key_map {
    uint64_t *keys; /* UINT64_MAX marks an empty slot: no position has every bit set */
    uint64_t *values;
    size_t cap, size;
} key_map;

static void map_init(key_map *m, size_t cap)
{
    m->cap = cap;
    m->size = 0;
    m->keys = malloc(cap * sizeof *m->keys);
    m->values = calloc(cap, sizeof *m->values);
    assert_non_null(m->keys);
    assert_non_null(m->values);
    memset(m->keys, 0xff, cap * sizeof *m->keys);
}

static void map_free(key_map *m)
{
    free(m->keys);
    free(m->values);
}

/* Returns the slot of key, inserting it (value 0) when absent; *added says whether it was new. */
static size_t map_slot(key_map *m, uint64_t key, bool *added)
{
    uint64_t h = key * UINT64_C(0x9e3779b97f4a7c15);
    size_t i = (size_t)(h >> 20) & (m->cap - 1);
    while (m->keys[i] != UINT64_MAX && m->keys[i] != key) {
        i = (i + 1) & (m->cap - 1);
    }
    *added = m->keys[i] == UINT64_MAX;
    if (*added) {
        assert_true(m->size + 1 < m->cap / 2);
        m->keys[i] = key;
        m->size++;
    }
    return i;
}

/* What a brute force finds, in the same shape as ttt_counts.
 *
 * Games up to symmetry are the games that are the same move by move up to symmetry: from a position, moves
 * leading to images of one another count once, and a game is a path through the positions taken up to
 * symmetry. This is how the published 26,830 games of 3x3 are counted. (Orbits of whole move sequences, as
 * Burnside's lemma would count them, give 255,168 / 8 = 31,896 on 3x3, since no symmetry other than the
 * identity fixes a sequence of five or more moves.) */
typedef struct brute {
    ttt_count_tally positions[TTT_MAX_CELLS + 1];
    ttt_count_tally positions_sym[TTT_MAX_CELLS + 1];
    ttt_count_tally games[TTT_MAX_CELLS + 1];
    ttt_count_tally games_sym[TTT_MAX_CELLS + 1];
} brute;

static void assert_tally_equal(const ttt_count_tally *a, const ttt_count_tally *b, const char *what, int ply)
{
    if (a->total != b->total || a->x_wins != b->x_wins || a->o_wins != b->o_wins || a->draws != b->draws) {
        print_error(
            "%s at ply %d: library %llu (X %llu, O %llu, draws %llu), brute force %llu (X %llu, O %llu, "
            "draws %llu)\n",
            what, ply, (unsigned long long)a->total, (unsigned long long)a->x_wins,
            (unsigned long long)a->o_wins, (unsigned long long)a->draws, (unsigned long long)b->total,
            (unsigned long long)b->x_wins, (unsigned long long)b->o_wins, (unsigned long long)b->draws);
        fail();
    }
}

static void tally_sum(ttt_count_tally *sum, const ttt_count_tally *t)
{
    sum->total += t->total;
    sum->x_wins += t->x_wins;
    sum->o_wins += t->o_wins;
    sum->draws += t->draws;
}

/* Compares the library's counts with a brute force, ply by ply and in total. */
static void assert_counts_match(const ttt_counts *c, const brute *bf, const ttt_rules *r)
{
    int cells = r->rows * r->cols;
    ttt_count_tally all_pos = {0, 0, 0, 0}, all_pos_sym = {0, 0, 0, 0};
    ttt_count_tally all_games = {0, 0, 0, 0}, all_games_sym = {0, 0, 0, 0};
    for (int ply = 0; ply <= cells; ply++) {
        assert_tally_equal(&c->positions[ply], &bf->positions[ply], "positions", ply);
        assert_tally_equal(&c->positions_sym[ply], &bf->positions_sym[ply], "positions up to symmetry", ply);
        assert_tally_equal(&c->games[ply], &bf->games[ply], "games", ply);
        assert_tally_equal(&c->games_sym[ply], &bf->games_sym[ply], "games up to symmetry", ply);
        assert_true(c->games[ply].total == c->games[ply].x_wins + c->games[ply].o_wins + c->games[ply].draws);
        assert_true(c->games_sym[ply].total ==
                    c->games_sym[ply].x_wins + c->games_sym[ply].o_wins + c->games_sym[ply].draws);
        tally_sum(&all_pos, &bf->positions[ply]);
        tally_sum(&all_pos_sym, &bf->positions_sym[ply]);
        tally_sum(&all_games, &bf->games[ply]);
        tally_sum(&all_games_sym, &bf->games_sym[ply]);
    }
    assert_tally_equal(&c->all_positions, &all_pos, "all positions", -1);
    assert_tally_equal(&c->all_positions_sym, &all_pos_sym, "all positions up to symmetry", -1);
    assert_tally_equal(&c->all_games, &all_games, "all games", -1);
    assert_tally_equal(&c->all_games_sym, &all_games_sym, "all games up to symmetry", -1);
}

/* --- Brute force 1: plain recursion over every move sequence -------------------------------------------- */

typedef struct walk {
    const ttt_rules *r;
    brute *bf;
    key_map seen;     /* positions */
    key_map seen_sym; /* canonical positions */
} walk;

/* Every move sequence from b: positions (each counted once) and complete games. */
static void walk_node(walk *w, ttt_board *b)
{
    int outcome = outcome_here(b);
    uint64_t key = key_of(b);
    bool added;
    map_slot(&w->seen, key, &added);
    if (added) {
        tally_add(&w->bf->positions[b->ply], outcome, 1);
        map_slot(&w->seen_sym, canonical_key(w->r, key), &added);
        if (added) {
            tally_add(&w->bf->positions_sym[b->ply], outcome, 1);
        }
    }
    if (outcome != 0) {
        tally_add(&w->bf->games[b->ply], outcome, 1);
        return;
    }
    for (int cell = 0; cell < b->cells; cell++) {
        if (ttt_board_at(b, cell) == TTT_NOBODY) {
            ttt_board_play(b, cell);
            walk_node(w, b);
            ttt_board_undo(b, cell);
        }
    }
}

/* Every path through the positions taken up to symmetry: from b, one move per class of resulting position. */
static void walk_sym(walk *w, ttt_board *b)
{
    int outcome = outcome_here(b);
    if (outcome != 0) {
        tally_add(&w->bf->games_sym[b->ply], outcome, 1);
        return;
    }
    uint64_t classes[TTT_MAX_CELLS];
    int n = 0;
    for (int cell = 0; cell < b->cells; cell++) {
        if (ttt_board_at(b, cell) != TTT_NOBODY) {
            continue;
        }
        ttt_board_play(b, cell);
        uint64_t c = canonical_key(w->r, key_of(b));
        bool seen = false;
        for (int i = 0; i < n && !seen; i++) {
            seen = classes[i] == c;
        }
        if (!seen) {
            classes[n++] = c;
            walk_sym(w, b);
        }
        ttt_board_undo(b, cell);
    }
}

static void brute_by_recursion(const ttt_rules *r, brute *bf)
{
    memset(bf, 0, sizeof *bf);
    walk w;
    w.r = r;
    w.bf = bf;
    map_init(&w.seen, 1u << 14);
    map_init(&w.seen_sym, 1u << 12);
    ttt_board b;
    ttt_board_init(&b, r);
    walk_node(&w, &b);
    ttt_board_init(&b, r);
    walk_sym(&w, &b);
    map_free(&w.seen);
    map_free(&w.seen_sym);
}

/* --- Brute force 2: forward through the layers, counting sequences per position ------------------------- */

/* One pass over all positions (sym = false) or over canonical positions (sym = true), where a parent passes
 * its sequences once to each class of child. */
static void layer_pass(const ttt_rules *r, brute *bf, size_t cap, bool sym)
{
    int cells = r->rows * r->cols;
    key_map cur, next;
    map_init(&cur, cap);
    bool added;
    size_t slot = map_slot(&cur, 0, &added);
    cur.values[slot] = 1;
    for (int ply = 0; ply <= cells; ply++) {
        map_init(&next, cap);
        key_map canon;
        map_init(&canon, cap);
        for (size_t i = 0; i < cur.cap; i++) {
            if (cur.keys[i] == UINT64_MAX) {
                continue;
            }
            uint64_t key = cur.keys[i], ways = cur.values[i];
            ttt_board b;
            board_of_key(&b, r, key);
            assert_int_equal(b.ply, ply);
            int outcome = outcome_here(&b);
            if (!sym) {
                tally_add(&bf->positions[ply], outcome, 1);
                map_slot(&canon, canonical_key(r, key), &added);
                if (added) {
                    tally_add(&bf->positions_sym[ply], outcome, 1);
                }
            }
            if (outcome != 0) {
                tally_add(sym ? &bf->games_sym[ply] : &bf->games[ply], outcome, ways);
                continue;
            }
            int shift = ply % 2 == 0 ? 0 : 32;
            uint64_t both = (key | (key >> 32)) & 0xffffffffu;
            uint64_t classes[TTT_MAX_CELLS];
            int n = 0;
            for (int cell = 0; cell < cells; cell++) {
                if ((both >> cell) & 1) {
                    continue;
                }
                uint64_t child = key | (UINT64_C(1) << (cell + shift));
                if (sym) {
                    child = canonical_key(r, child);
                    bool seen = false;
                    for (int j = 0; j < n && !seen; j++) {
                        seen = classes[j] == child;
                    }
                    if (seen) {
                        continue;
                    }
                    classes[n++] = child;
                }
                size_t to = map_slot(&next, child, &added);
                next.values[to] += ways;
            }
        }
        map_free(&canon);
        map_free(&cur);
        cur = next;
    }
    map_free(&cur);
}

static void brute_by_layers(const ttt_rules *r, brute *bf, size_t cap)
{
    memset(bf, 0, sizeof *bf);
    layer_pass(r, bf, cap, false);
    layer_pass(r, bf, cap, true);
}

/* --- Tests ---------------------------------------------------------------------------------------------- */

static brute bf1, bf2;

static void test_3x3_matches_recursive_brute_force(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    count_ok(&r, &lib_counts);
    brute_by_recursion(&r, &bf1);
    assert_counts_match(&lib_counts, &bf1, &r);
    /* the two brute forces agree with each other as well */
    brute_by_layers(&r, &bf2, 1u << 13);
    assert_memory_equal(&bf1, &bf2, sizeof bf1);
}

/* The figures published for tic-tac-toe: Henry Bottomley, "How many Tic-Tac-Toe (noughts and crosses)
 * games are there?", http://www.se16.info/hgb/tictactoe.htm, quoted by Wikipedia's "Tic-tac-toe" article
 * (section "Combinatorics"). */
static void test_3x3_matches_published_figures(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    count_ok(&r, &lib_counts);
    const ttt_counts *c = &lib_counts;

    /* 5,478 positions reachable in play, the empty board included; 958 of them terminal */
    assert_int_equal(c->all_positions.total, 5478);
    assert_int_equal(c->all_positions.x_wins, 626);
    assert_int_equal(c->all_positions.o_wins, 316);
    assert_int_equal(c->all_positions.draws, 16);
    const uint64_t per_ply[10] = {1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78};
    for (int ply = 0; ply <= 9; ply++) {
        assert_int_equal(c->positions[ply].total, per_ply[ply]);
    }

    /* 255,168 games */
    assert_int_equal(c->all_games.total, 255168);
    assert_int_equal(c->all_games.x_wins, 131184);
    assert_int_equal(c->all_games.o_wins, 77904);
    assert_int_equal(c->all_games.draws, 46080);
    assert_int_equal(c->games[5].total, 1440);
    assert_int_equal(c->games[9].draws, 46080);

    /* up to symmetry: 765 positions, 138 terminal (91 X wins, 44 O wins, 3 draws), 26,830 games */
    assert_int_equal(c->all_positions_sym.total, 765);
    assert_int_equal(c->all_positions_sym.x_wins, 91);
    assert_int_equal(c->all_positions_sym.o_wins, 44);
    assert_int_equal(c->all_positions_sym.draws, 3);
    assert_int_equal(c->all_games_sym.total, 26830);
}

/* Under misère the same positions are reachable; who wins is swapped. Checked against the brute force. */
static void test_3x3_misere_matches_brute_force(void **state)
{
    (void)state;
    ttt_rules r = rules_of("3x3-misere");
    count_ok(&r, &lib_counts);
    brute_by_recursion(&r, &bf1);
    assert_counts_match(&lib_counts, &bf1, &r);
    brute_by_layers(&r, &bf2, 1u << 13);
    assert_memory_equal(&bf1, &bf2, sizeof bf1);
    assert_int_equal(lib_counts.all_positions.total, 5478);
    assert_int_equal(lib_counts.all_games.total, 255168);
}

static void test_3x4_k3_matches_brute_force(void **state)
{
    (void)state;
    ttt_rules r = rules_of("3x4k3");
    count_ok(&r, &lib_counts);
    brute_by_layers(&r, &bf2, 1u << 17);
    assert_counts_match(&lib_counts, &bf2, &r);
    assert_true(lib_counts.all_games.total > 0);
}

/* Turning the board on its side changes nothing that is counted. */
static void test_transposed_rectangle_counts_the_same(void **state)
{
    (void)state;
    ttt_rules a = rules_of("3x4k3");
    ttt_rules b = rules_of("4x3k3");
    static ttt_counts ca, cb;
    count_ok(&a, &ca);
    count_ok(&b, &cb);
    for (int ply = 0; ply <= 12; ply++) {
        assert_tally_equal(&ca.positions[ply], &cb.positions[ply], "positions", ply);
        assert_tally_equal(&ca.positions_sym[ply], &cb.positions_sym[ply], "positions up to symmetry", ply);
        assert_tally_equal(&ca.games[ply], &cb.games[ply], "games", ply);
        assert_tally_equal(&ca.games_sym[ply], &cb.games_sym[ply], "games up to symmetry", ply);
    }
}

static void test_board_over_64_cells_is_limit_error(void **state)
{
    (void)state;
    const char *big[] = {"9x9k5", "9x8k4", "16x16k5"};
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        ttt_rules r = rules_of(big[i]);
        ttt_error err;
        memset(&err, 0, sizeof err);
        assert_int_equal(ttt_count(&r, 0, &lib_counts, &err), TTT_ELIMIT);
        assert_true(strlen(err.msg) > 0);
    }
}

static void test_small_layer_limit_is_limit_error(void **state)
{
    (void)state;
    ttt_rules r = ttt_rules_default();
    ttt_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(ttt_count(&r, 10, &lib_counts, &err), TTT_ELIMIT);
    assert_true(strlen(err.msg) > 0);
    /* 64 cells are accepted, and a layer over the cap stops the count */
    ttt_rules r8 = rules_of("8x8k4");
    memset(&err, 0, sizeof err);
    assert_int_equal(ttt_count(&r8, 1000, &lib_counts, &err), TTT_ELIMIT);
    assert_true(strlen(err.msg) > 0);
    /* a cap above the largest 3x3 layer (1,520 positions) lets the count through */
    assert_int_equal(ttt_count(&r, 2000, &lib_counts, NULL), TTT_OK);
    assert_int_equal(lib_counts.all_positions.total, 5478);
}

/* The progress callback sees every layer of both passes, with the sizes the counts report. */
typedef struct seen_layers {
    uint64_t positions[2][TTT_MAX_CELLS + 1];
    int calls[2];
} seen_layers;

static void record_layer(int pass, int ply, uint64_t positions, void *user)
{
    seen_layers *s = user;
    assert_true(pass == 1 || pass == 2);
    assert_true(ply >= 0 && ply <= TTT_MAX_CELLS);
    s->positions[pass - 1][ply] = positions;
    s->calls[pass - 1]++;
}

static void test_progress_reports_each_layer(void **state)
{
    (void)state;
    ttt_rules r = rules_of("3x4k3");
    static seen_layers seen;
    memset(&seen, 0, sizeof seen);
    assert_int_equal(ttt_count_progress(&r, 0, record_layer, &seen, &lib_counts, NULL), TTT_OK);
    for (int pass = 0; pass < 2; pass++) {
        const ttt_count_tally *t = pass ? lib_counts.positions_sym : lib_counts.positions;
        int layers = 0;
        for (int p = 0; p < lib_counts.plies; p++) {
            assert_int_equal(seen.positions[pass][p], t[p].total);
            layers += t[p].total > 0;
        }
        assert_int_equal(seen.calls[pass], layers);
    }
}

/* The memory estimate bounds every layer from above, and grows with the board. */
static void test_memory_estimate_bounds_the_layers(void **state)
{
    (void)state;
    const char *boards[] = {"3x3", "3x4k3", "4x4k4", "3x3-misere"};
    uint64_t last_bytes = 0;
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        ttt_rules r = rules_of(boards[i]);
        uint64_t largest;
        uint64_t bytes = ttt_count_memory_estimate(&r, &largest);
        count_ok(&r, &lib_counts);
        for (int p = 0; p < lib_counts.plies; p++)
            assert_true(lib_counts.positions[p].total <= largest);
        assert_true(bytes >= largest * 2 * 16); /* two layers of two 64-bit words per position at least */
        if (i < 3) {
            assert_true(bytes > last_bytes);
            last_bytes = bytes;
        }
    }
    /* 5x5's layers cannot fit in any memory of today: the estimate says so */
    ttt_rules big = rules_of("5x5");
    uint64_t largest;
    assert_true(ttt_count_memory_estimate(&big, &largest) > (UINT64_C(1) << 40));
    assert_true(largest > UINT64_C(1000000000));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_3x3_matches_recursive_brute_force),
        cmocka_unit_test(test_3x3_matches_published_figures),
        cmocka_unit_test(test_3x3_misere_matches_brute_force),
        cmocka_unit_test(test_3x4_k3_matches_brute_force),
        cmocka_unit_test(test_transposed_rectangle_counts_the_same),
        cmocka_unit_test(test_board_over_64_cells_is_limit_error),
        cmocka_unit_test(test_small_layer_limit_is_limit_error),
        cmocka_unit_test(test_progress_reports_each_layer),
        cmocka_unit_test(test_memory_estimate_bounds_the_layers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
