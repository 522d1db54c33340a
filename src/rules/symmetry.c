/* rules/symmetry.c - the symmetries of the board: cells, sequences, positions and the canonical form. */
#include "ttt/symmetry.h"

#include <assert.h>
#include <string.h>

int ttt_sym_count(const ttt_rules *rules)
{
    return rules->rows == rules->cols ? TTT_SYM_ALL : TTT_SYM_ALL / 2;
}

const char *ttt_sym_name(ttt_sym s)
{
    static const char *const names[TTT_SYM_ALL] = {"identity",  "mirror", "flip",   "rot180",
                                                   "transpose", "rot90",  "rot270", "antitranspose"};
    assert(s >= 0 && s < TTT_SYM_ALL);
    return names[s];
}

/* Where s takes (row, col) on a rows x cols board (square when s transposes). */
static void map_cell(ttt_sym s, int rows, int cols, int *row, int *col)
{
    int r = *row, c = *col;
    if (s & TTT_SYM_TRANSPOSE) {
        int t = r;
        r = c;
        c = t;
    }
    if (s & TTT_SYM_FLIP_ROWS)
        r = rows - 1 - r;
    if (s & TTT_SYM_FLIP_COLS)
        c = cols - 1 - c;
    *row = r;
    *col = c;
}

/* A cell of 4x4 whose 8 images are all different: the group acts freely on it, so a symmetry is known by
 * where it sends this cell. That turns composition and inverse into a lookup by trial. */
#define PROBE_SIDE 4
#define PROBE_ROW  0
#define PROBE_COL  1

static int probe_image(ttt_sym s)
{
    int r = PROBE_ROW, c = PROBE_COL;
    map_cell(s, PROBE_SIDE, PROBE_SIDE, &r, &c);
    return r * PROBE_SIDE + c;
}

ttt_sym ttt_sym_compose(ttt_sym a, ttt_sym b)
{
    int r = PROBE_ROW, c = PROBE_COL;
    map_cell(b, PROBE_SIDE, PROBE_SIDE, &r, &c);
    map_cell(a, PROBE_SIDE, PROBE_SIDE, &r, &c);
    for (ttt_sym s = 0; s < TTT_SYM_ALL; s++)
        if (probe_image(s) == r * PROBE_SIDE + c)
            return s;
    assert(!"unreachable: the probe cell has 8 distinct images");
    return 0;
}

ttt_sym ttt_sym_inverse(ttt_sym s)
{
    for (ttt_sym t = 0; t < TTT_SYM_ALL; t++)
        if (ttt_sym_compose(t, s) == 0)
            return t;
    assert(!"unreachable: every symmetry has an inverse");
    return 0;
}

ttt_move ttt_sym_move(const ttt_rules *rules, ttt_sym s, ttt_move cell)
{
    assert(s >= 0 && s < ttt_sym_count(rules));
    if (cell == TTT_NO_MOVE)
        return TTT_NO_MOVE;
    int r = cell / rules->cols, c = cell % rules->cols;
    map_cell(s, rules->rows, rules->cols, &r, &c);
    return r * rules->cols + c;
}

void ttt_sym_moves(const ttt_rules *rules, ttt_sym s, const ttt_move *in, int count, ttt_move *out)
{
    for (int i = 0; i < count; i++)
        out[i] = ttt_sym_move(rules, s, in[i]);
}

ttt_sym ttt_sym_sequence_canonical(const ttt_rules *rules, const ttt_move *moves, int count, ttt_move *out)
{
    int nsym = ttt_sym_count(rules);
    ttt_sym best = 0;
    for (ttt_sym s = 1; s < nsym; s++)
        for (int i = 0; i < count; i++) {
            ttt_move a = ttt_sym_move(rules, s, moves[i]), b = ttt_sym_move(rules, best, moves[i]);
            if (a != b) {
                if (a < b)
                    best = s;
                break;
            }
        }
    ttt_sym_moves(rules, best, moves, count, out);
    return best;
}

ttt_bits ttt_sym_bits(const ttt_rules *rules, ttt_sym s, const ttt_bits *in)
{
    ttt_bits out;
    memset(&out, 0, sizeof out);
    for (int i = 0; i < TTT_WORDS; i++)
        for (uint64_t w = in->w[i]; w; w &= w - 1)
            ttt_bits_set(&out, ttt_sym_move(rules, s, i * 64 + __builtin_ctzll(w)));
    return out;
}

void ttt_sym_board(const ttt_board *b, ttt_sym s, ttt_board *out)
{
    ttt_board image = *b;
    image.stones[TTT_X] = ttt_sym_bits(&b->rules, s, &b->stones[TTT_X]);
    image.stones[TTT_O] = ttt_sym_bits(&b->rules, s, &b->stones[TTT_O]);
    image.hash = ttt_board_hash_full(&image);
    *out = image;
}

/* Orders positions by (X stones, O stones) as numbers (ttt_bits_compare). */
static int compare_boards(const ttt_board *a, const ttt_board *b)
{
    int c = ttt_bits_compare(&a->stones[TTT_X], &b->stones[TTT_X]);
    return c ? c : ttt_bits_compare(&a->stones[TTT_O], &b->stones[TTT_O]);
}

ttt_sym ttt_board_canonical(const ttt_board *b, ttt_board *out)
{
    ttt_board best = *b, image;
    ttt_sym best_sym = 0;
    for (ttt_sym s = 1; s < ttt_sym_count(&b->rules); s++) {
        ttt_sym_board(b, s, &image);
        if (compare_boards(&image, &best) < 0) {
            best = image;
            best_sym = s;
        }
    }
    if (out)
        *out = best;
    return best_sym;
}

uint64_t ttt_board_canonical_hash(const ttt_board *b)
{
    ttt_board canon;
    ttt_board_canonical(b, &canon);
    return canon.hash;
}
