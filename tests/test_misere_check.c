/*
 * tests/test_misere_check.c - the solver's misère values checked by a second, independent method: a plain
 * alpha-beta written here on its own bitboards, windows and symmetries, with a table of bounds and one static
 * move order (cells in the fewest windows first, which under misère is where a player is least likely to be
 * forced into a line). It shares no code with the solver (src/search/): not its board, table, move order,
 * mirror strategies, Avoider bounds or pairings; only ttt_board is read to set up the positions.
 *
 * Covered: 4x4 and 4x5 (k=4) misère from the empty board, the value and distance of the position and of every
 * move, and the value and distance of every position after one move (4x4: every move's value there too, and
 * every position after two moves, with every move's value); 5x5 k=4 misère, whose
 * empty board neither method solves in minutes (README, "The solver at the frontier"), on seeded random
 * positions of 8 and 10 stones, every move's value and distance.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "ttt/ttt.h"

#include "support.h"

enum {
    CHECK_MAX_CELLS = 32, /* the boards here fit in a 32-bit set */
    CHECK_MAX_WINDOWS = 4 * CHECK_MAX_CELLS,
    CHECK_END = 64,             /* a finished game scores CHECK_END - its last ply for the winner */
    CHECK_TABLE_BITS = 22,      /* 4 Mi entries of 16 bytes: the 4x5 empty board needs about 2M nodes */
    CHECK_SOLVER_TT_MIB = 64,   /* the solver's table for these boards */
    CHECK_RANDOM_TRIES = 10000, /* attempts at drawing a position without a line before giving up */
};

/* The game as this file sees it: windows and symmetries as 32-bit cell sets, cell = row * cols + col. */
typedef struct check_game {
    int cells, nwin, nsym;
    bool misere;
    uint32_t full;
    uint32_t win[CHECK_MAX_WINDOWS];
    int8_t sym[8][CHECK_MAX_CELLS]; /* cell -> its image */
    int8_t order[CHECK_MAX_CELLS];  /* cells in the fewest windows first */
} check_game;

typedef struct check_entry {
    uint64_t key; /* canonical position + 1; 0: empty */
    int8_t lo, hi;
} check_entry;

typedef struct check_search {
    check_game g;
    check_entry *table;
    uint64_t nodes;
} check_search;

static void check_game_init(check_game *g, const ttt_rules *r)
{
    static const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, 0, 1, -1};
    memset(g, 0, sizeof *g);
    g->cells = r->rows * r->cols;
    assert_true(g->cells <= CHECK_MAX_CELLS);
    g->misere = r->misere;
    g->full = g->cells == 32 ? UINT32_MAX : (1u << g->cells) - 1;
    for (int row = 0; row < r->rows; row++)
        for (int col = 0; col < r->cols; col++)
            for (int d = 0; d < 4; d++) {
                int er = row + (r->k - 1) * dr[d], ec = col + (r->k - 1) * dc[d];
                if (er >= r->rows || ec < 0 || ec >= r->cols)
                    continue;
                uint32_t w = 0;
                for (int i = 0; i < r->k; i++)
                    w |= 1u << ((row + i * dr[d]) * r->cols + col + i * dc[d]);
                g->win[g->nwin++] = w;
            }
    /* Symmetries: bit 0 flips rows, bit 1 flips columns, bit 2 transposes (square boards only). */
    for (int t = 0; t < 8; t++) {
        if ((t & 4) && r->rows != r->cols)
            continue;
        for (int row = 0; row < r->rows; row++)
            for (int col = 0; col < r->cols; col++) {
                int rr = row, cc = col;
                if (t & 4) {
                    rr = col;
                    cc = row;
                }
                if (t & 1)
                    rr = r->rows - 1 - rr;
                if (t & 2)
                    cc = r->cols - 1 - cc;
                g->sym[g->nsym][row * r->cols + col] = (int8_t)(rr * r->cols + cc);
            }
        g->nsym++;
    }
    int degree[CHECK_MAX_CELLS] = {0};
    for (int w = 0; w < g->nwin; w++)
        for (int c = 0; c < g->cells; c++)
            degree[c] += (g->win[w] >> c) & 1;
    int n = 0;
    for (int deg = 0; n < g->cells; deg++)
        for (int c = 0; c < g->cells; c++)
            if (degree[c] == deg)
                g->order[n++] = (int8_t)c;
}

static uint32_t check_map(const check_game *g, int s, uint32_t set)
{
    uint32_t out = 0;
    for (int c = 0; c < g->cells; c++)
        if ((set >> c) & 1)
            out |= 1u << g->sym[s][c];
    return out;
}

static bool check_line(const check_game *g, uint32_t stones)
{
    for (int w = 0; w < g->nwin; w++)
        if ((stones & g->win[w]) == g->win[w])
            return true;
    return false;
}

/* The exact score for the side to move, whose stones are `mine`; `theirs` made the last move. A game that
 * ends at ply p scores CHECK_END - p for its winner (a quick win, a slow loss), a draw 0. */
static int check_score(check_search *s, uint32_t mine, uint32_t theirs, int alpha, int beta)
{
    const check_game *g = &s->g;
    s->nodes++;
    int ply = __builtin_popcount(mine | theirs);
    if (check_line(g, theirs))
        return g->misere ? CHECK_END - ply : -(CHECK_END - ply);
    if ((mine | theirs) == g->full)
        return 0;
    uint64_t key = UINT64_MAX;
    for (int t = 0; t < g->nsym; t++) {
        uint64_t k = (uint64_t)check_map(g, t, mine) << 32 | check_map(g, t, theirs);
        key = k < key ? k : key;
    }
    check_entry *e = &s->table[(key * 0x9E3779B97F4A7C15ull) >> (64 - CHECK_TABLE_BITS)];
    if (e->key == key + 1) {
        if (e->lo == e->hi || e->lo >= beta)
            return e->lo;
        if (e->hi <= alpha)
            return e->hi;
        alpha = e->lo > alpha ? e->lo : alpha;
        beta = e->hi < beta ? e->hi : beta;
    } else {
        *e = (check_entry){.key = key + 1, .lo = -CHECK_END, .hi = CHECK_END};
    }
    const int alpha0 = alpha;
    int best = -CHECK_END - 1;
    for (int i = 0; i < g->cells && alpha < beta; i++) {
        int c = g->order[i];
        if (((mine | theirs) >> c) & 1)
            continue;
        int v = -check_score(s, theirs, mine | 1u << c, -beta, -alpha);
        best = v > best ? v : best;
        alpha = v > alpha ? v : alpha;
    }
    e = &s->table[(key * 0x9E3779B97F4A7C15ull) >> (64 - CHECK_TABLE_BITS)]; /* may have been replaced */
    if (e->key != key + 1)
        *e = (check_entry){.key = key + 1, .lo = -CHECK_END, .hi = CHECK_END};
    if (best <= alpha0)
        e->hi = (int8_t)(best < e->hi ? best : e->hi);
    else if (best >= beta)
        e->lo = (int8_t)(best > e->lo ? best : e->lo);
    else
        e->lo = e->hi = (int8_t)best;
    return best;
}

/* The exact score of b for its side to move. */
static int check_board_score(check_search *s, const ttt_board *b)
{
    uint32_t stones[2] = {0, 0};
    for (int c = 0; c < s->g.cells; c++) {
        ttt_player p = ttt_board_at(b, c);
        if (p != TTT_NOBODY)
            stones[p] |= 1u << c;
    }
    ttt_player to_move = ttt_board_to_move(b);
    return check_score(s, stones[to_move], stones[to_move ^ 1], -CHECK_END, CHECK_END);
}

static ttt_result check_result(int score)
{
    return score > 0 ? TTT_WIN : score < 0 ? TTT_LOSS : TTT_DRAW_VALUE;
}

/* Plies from ply `ply` to the end under the score. */
static int check_plies(const check_search *s, int ply, int score)
{
    return (score == 0 ? s->g.cells : CHECK_END - abs(score)) - ply;
}

/* The solver's value and distance of b, and with `every` of every move, against this file's search. Returns
 * the nodes this file's search spent. */
static uint64_t check_position(ttt_solver *solver, check_search *s, ttt_board *b, bool every)
{
    uint64_t before = s->nodes;
    ttt_error err;
    int want = check_board_score(s, b);
    ttt_result value;
    int plies;
    assert_int_equal(ttt_solver_value(solver, b, &value, &plies, NULL, &err), TTT_OK);
    assert_int_equal(value, check_result(want));
    assert_int_equal(plies, check_plies(s, b->ply, want));
    if (!every)
        return s->nodes - before;
    ttt_search_result res;
    assert_int_equal(ttt_solver_search(solver, b, NULL, true, &res, &err), TTT_OK);
    assert_true(res.proven);
    assert_int_equal(ttt_score_result(res.score), check_result(want));
    assert_int_equal(ttt_score_plies(b, res.score), check_plies(s, b->ply, want));
    for (int i = 0; i < res.count; i++) {
        ttt_board_play(b, res.moves[i].move);
        int move_want = -check_board_score(s, b); /* a finished game too: its line or full board */
        ttt_board_undo(b, res.moves[i].move);
        assert_int_equal(ttt_score_result(res.moves[i].score), check_result(move_want));
        assert_int_equal(ttt_score_plies(b, res.moves[i].score), check_plies(s, b->ply, move_want));
    }
    return s->nodes - before;
}

static check_search *check_search_new(const ttt_rules *r)
{
    check_search *s = calloc(1, sizeof *s);
    assert_non_null(s);
    check_game_init(&s->g, r);
    s->table = calloc((size_t)1 << CHECK_TABLE_BITS, sizeof *s->table);
    assert_non_null(s->table);
    return s;
}

static void check_search_free(check_search *s)
{
    free(s->table);
    free(s);
}

static ttt_solver *solver_for(const ttt_rules *r)
{
    ttt_solver *solver;
    ttt_error err;
    assert_int_equal(ttt_solver_new(r, CHECK_SOLVER_TT_MIB, &solver, &err), TTT_OK);
    return solver;
}

/* The empty board and every position `depth` moves deep (1 or 2), each with every move's value, but the
 * positions `depth` deep with their own value only unless `every_deepest`. */
static void check_from_empty(const char *rules_text, int depth, bool every_deepest)
{
    ttt_rules r = rules_of(rules_text);
    ttt_solver *solver = solver_for(&r);
    check_search *s = check_search_new(&r);
    ttt_board b;
    ttt_board_init(&b, &r);
    check_position(solver, s, &b, true);
    int positions = 1;
    ttt_move first[TTT_MAX_CELLS];
    int n = ttt_board_moves(&b, first);
    for (int i = 0; i < n; i++) {
        ttt_board_play(&b, first[i]);
        if (depth == 1) {
            check_position(solver, s, &b, every_deepest);
            positions++;
        } else {
            check_position(solver, s, &b, true);
            positions++;
            ttt_move second[TTT_MAX_CELLS];
            int m = ttt_board_moves(&b, second);
            for (int j = 0; j < m; j++) {
                ttt_board_play(&b, second[j]);
                check_position(solver, s, &b, every_deepest);
                positions++;
                ttt_board_undo(&b, second[j]);
            }
        }
        ttt_board_undo(&b, first[i]);
    }
    print_message("%s: %d positions to depth %d agree (%llu nodes here)\n", rules_text, positions, depth,
                  (unsigned long long)s->nodes);
    check_search_free(s);
    ttt_solver_free(solver);
}

/* `count` seeded random positions of `stones` stones without a finished line. */
static void check_random(const char *rules_text, int stones, int count, uint64_t seed)
{
    ttt_rules r = rules_of(rules_text);
    ttt_solver *solver = solver_for(&r);
    check_search *s = check_search_new(&r);
    ttt_rng rng;
    ttt_rng_seed(&rng, seed);
    int results[3] = {0, 0, 0};
    for (int done = 0, tries = 0; done < count; tries++) {
        assert_true(tries < CHECK_RANDOM_TRIES);
        ttt_board b;
        ttt_board_init(&b, &r);
        for (int i = 0; i < stones && !ttt_board_terminal(&b); i++) {
            ttt_move moves[TTT_MAX_CELLS];
            ttt_board_play(&b, moves[ttt_rng_below(&rng, (uint32_t)ttt_board_moves(&b, moves))]);
        }
        if (ttt_board_terminal(&b))
            continue;
        int want = check_board_score(s, &b);
        results[check_result(want) + 1]++;
        check_position(solver, s, &b, true);
        ttt_solver_clear(solver);
        done++;
    }
    print_message("%s, %d stones: %d positions (%d losses, %d draws, %d wins for the side to move), every "
                  "move agrees (%llu nodes here)\n",
                  rules_text, stones, count, results[0], results[1], results[2],
                  (unsigned long long)s->nodes);
    check_search_free(s);
    ttt_solver_free(solver);
}

static void test_4x4_misere_two_moves_deep(void **state)
{
    (void)state;
    check_from_empty("4x4-misere", 2, true);
}

static void test_4x5k4_misere_first_moves(void **state)
{
    (void)state;
    check_from_empty("4x5k4-misere", 1, false);
    check_from_empty("5x4k4-misere", 1, false);
}

static void test_5x5k4_misere_random_positions(void **state)
{
    (void)state;
    check_random("5x5k4-misere", 10, 6, 141);
    check_random("5x5k4-misere", 8, 4, 142);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_4x4_misere_two_moves_deep),
        cmocka_unit_test(test_4x5k4_misere_first_moves),
        cmocka_unit_test(test_5x5k4_misere_random_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
