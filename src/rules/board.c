/* rules/board.c - positions on bitboards: moves, lines, outcome, validation and hashing. */
#include "ttt/board.h"

#include <assert.h>
#include <string.h>

#include "rules/lines.h"
#include "ttt/notation.h"
#include "util/error.h"

/* Salt of the Zobrist keys: any fixed odd constant gives a fixed, well-mixed family of keys. */
#define ZOBRIST_SALT UINT64_C(0x6a09e667f3bcc909)
/* Cells whose keys predate 20x20 boards (16x16 = 256 cells): see ttt_zobrist_key. */
#define ZOBRIST_LOW_CELLS 256

/* --- Bit sets ------------------------------------------------------------------------------------------- */

int ttt_bits_count(const ttt_bits *b)
{
    int n = 0;
    for (int i = 0; i < TTT_WORDS; i++)
        n += __builtin_popcountll(b->w[i]);
    return n;
}

bool ttt_bits_equal(const ttt_bits *a, const ttt_bits *b) { return memcmp(a, b, sizeof *a) == 0; }

int ttt_bits_compare(const ttt_bits *a, const ttt_bits *b)
{
    for (int i = TTT_WORDS - 1; i >= 0; i--)
        if (a->w[i] != b->w[i])
            return a->w[i] < b->w[i] ? -1 : 1;
    return 0;
}

/* The cells of a board of `cells` cells as a bit set. */
static ttt_bits board_mask(int cells)
{
    ttt_bits m;
    for (int i = 0; i < TTT_WORDS; i++) {
        int lo = i * 64;
        if (cells >= lo + 64)
            m.w[i] = ~UINT64_C(0);
        else if (cells <= lo)
            m.w[i] = 0;
        else
            m.w[i] = (UINT64_C(1) << (cells - lo)) - 1;
    }
    return m;
}

/* --- Hashing -------------------------------------------------------------------------------------------- */

uint64_t ttt_zobrist_key(ttt_player who, int cell)
{
    /* The splitmix64 finaliser of a distinct input per (side, cell). Cells below ZOBRIST_LOW_CELLS keep the
     * inputs they had when boards stopped at 16x16 (side * 256 + cell + 1: the same hashes, so the same
     * search and bench signature on every board that existed then); the cells above take the inputs after
     * 2 * ZOBRIST_LOW_CELLS. */
    uint64_t in = cell < ZOBRIST_LOW_CELLS
                      ? (uint64_t)who * ZOBRIST_LOW_CELLS + (uint64_t)cell
                      : 2 * ZOBRIST_LOW_CELLS + (uint64_t)who * TTT_MAX_CELLS + (uint64_t)cell;
    uint64_t z = (in + 1) * ZOBRIST_SALT;
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

uint64_t ttt_board_hash_full(const ttt_board *b)
{
    uint64_t h = 0;
    for (int who = TTT_X; who <= TTT_O; who++)
        for (int cell = 0; cell < b->cells; cell++)
            if (ttt_bits_test(&b->stones[who], cell))
                h ^= ttt_zobrist_key((ttt_player)who, cell);
    return h;
}

/* --- Setting up and reading ----------------------------------------------------------------------------- */

void ttt_board_init(ttt_board *b, const ttt_rules *rules)
{
    assert(ttt_rules_check(rules, NULL) == TTT_OK);
    memset(b, 0, sizeof *b);
    b->rules = *rules;
    b->cells = rules->rows * rules->cols;
    b->line_owner = TTT_NOBODY;
}

ttt_player ttt_board_at(const ttt_board *b, int cell)
{
    assert(cell >= 0 && cell < b->cells);
    if (ttt_bits_test(&b->stones[TTT_X], cell))
        return TTT_X;
    if (ttt_bits_test(&b->stones[TTT_O], cell))
        return TTT_O;
    return TTT_NOBODY;
}

ttt_bits ttt_board_empty_cells(const ttt_board *b)
{
    ttt_bits e;
    memset(&e, 0, sizeof e);
    for (int i = 0, words = ttt_board_words(b); i < words; i++) { /* the words past the board stay 0 */
        int left = b->cells - 64 * i;
        uint64_t cells = left >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << left) - 1;
        e.w[i] = cells & ~(b->stones[TTT_X].w[i] | b->stones[TTT_O].w[i]);
    }
    return e;
}

int ttt_board_moves(const ttt_board *b, ttt_move *out)
{
    if (ttt_board_terminal(b))
        return 0;
    ttt_bits e = ttt_board_empty_cells(b);
    int n = 0;
    for (int i = 0, words = ttt_board_words(b); i < words; i++)
        for (uint64_t w = e.w[i]; w; w &= w - 1)
            out[n++] = i * 64 + __builtin_ctzll(w);
    return n;
}

bool ttt_board_is_legal(const ttt_board *b, ttt_move cell)
{
    return cell >= 0 && cell < b->cells && !ttt_board_terminal(b) && ttt_board_at(b, cell) == TTT_NOBODY;
}

/* The longest run of `s` through (row, col) in direction d, counting (row, col) itself as occupied and
 * stopping at `enough`. */
static int run_through(const ttt_bits *s, const ttt_rules *r, int row, int col, int d, int enough)
{
    int run = 1;
    for (int sign = 1; sign >= -1; sign -= 2) {
        int rr = row + sign * TTT_DIR_ROW[d], cc = col + sign * TTT_DIR_COL[d];
        while (run < enough && rr >= 0 && rr < r->rows && cc >= 0 && cc < r->cols &&
               ttt_bits_test(s, rr * r->cols + cc)) {
            run++;
            rr += sign * TTT_DIR_ROW[d];
            cc += sign * TTT_DIR_COL[d];
        }
    }
    return run;
}

bool ttt_board_makes_line(const ttt_board *b, ttt_player who, int cell)
{
    assert(who == TTT_X || who == TTT_O);
    assert(cell >= 0 && cell < b->cells);
    const ttt_rules *r = &b->rules;
    int row = cell / r->cols, col = cell % r->cols;
    for (int d = 0; d < TTT_DIRECTIONS; d++)
        if (run_through(&b->stones[who], r, row, col, d, r->k) >= r->k)
            return true;
    return false;
}

/* Finds a line of `who` starting at some stone and running forward in one direction; writes its cells to
 * out when out is not NULL. Returns the number of cells written (k) or 0. */
static int find_line(const ttt_bits *s, const ttt_rules *r, ttt_move *out)
{
    for (int cell = 0; cell < r->rows * r->cols; cell++) {
        if (!ttt_bits_test(s, cell))
            continue;
        int row = cell / r->cols, col = cell % r->cols;
        for (int d = 0; d < TTT_DIRECTIONS; d++) {
            if (!ttt_lines_fits(r, row, col, d))
                continue;
            int i = 1;
            while (i < r->k && ttt_bits_test(s, ttt_lines_cell_at(r, row, col, d, i)))
                i++;
            if (i < r->k)
                continue;
            if (out)
                for (i = 0; i < r->k; i++)
                    out[i] = ttt_lines_cell_at(r, row, col, d, i);
            return r->k;
        }
    }
    return 0;
}

bool ttt_board_has_line(const ttt_board *b, ttt_player who)
{
    return find_line(&b->stones[who], &b->rules, NULL) > 0;
}

int ttt_board_line_cells(const ttt_board *b, ttt_move *out)
{
    if (b->line_owner == TTT_NOBODY)
        return 0;
    return find_line(&b->stones[b->line_owner], &b->rules, out);
}

ttt_player ttt_board_line_winner(const ttt_rules *rules, ttt_player maker)
{
    assert(maker == TTT_X || maker == TTT_O);
    return ttt_rules_line_wins(rules) ? maker : (ttt_player)(1 - maker);
}

ttt_outcome ttt_board_outcome(const ttt_board *b)
{
    if (b->line_owner != TTT_NOBODY) {
        return ttt_board_line_winner(&b->rules, b->line_owner) == TTT_X ? TTT_X_WINS : TTT_O_WINS;
    }
    return b->ply == b->cells ? TTT_DRAW : TTT_ONGOING;
}

const char *ttt_outcome_name(ttt_outcome outcome)
{
    switch (outcome) {
    case TTT_ONGOING: return "ongoing";
    case TTT_X_WINS: return "x";
    case TTT_O_WINS: return "o";
    case TTT_DRAW: return "draw";
    }
    return "?";
}

ttt_player ttt_board_winner(const ttt_board *b)
{
    switch (ttt_board_outcome(b)) {
    case TTT_X_WINS: return TTT_X;
    case TTT_O_WINS: return TTT_O;
    case TTT_ONGOING:
    case TTT_DRAW: break;
    }
    return TTT_NOBODY;
}

int ttt_board_utility(const ttt_board *b)
{
    ttt_outcome o = ttt_board_outcome(b);
    return o == TTT_X_WINS ? 1 : o == TTT_O_WINS ? -1 : 0;
}

/* --- Changing a position -------------------------------------------------------------------------------- */

void ttt_board_play(ttt_board *b, ttt_move cell)
{
    assert(ttt_board_is_legal(b, cell));
    ttt_player who = ttt_board_to_move(b);
    if (ttt_board_makes_line(b, who, cell))
        b->line_owner = who;
    ttt_bits_set(&b->stones[who], cell);
    b->hash ^= ttt_zobrist_key(who, cell);
    b->ply++;
}

void ttt_board_undo(ttt_board *b, ttt_move cell)
{
    assert(b->ply > 0);
    ttt_player who = (ttt_player)((b->ply - 1) & 1);
    assert(cell >= 0 && cell < b->cells && ttt_bits_test(&b->stones[who], cell));
    ttt_bits_clear(&b->stones[who], cell);
    b->hash ^= ttt_zobrist_key(who, cell);
    b->ply--;
    b->line_owner = TTT_NOBODY;
}

ttt_status ttt_board_play_checked(ttt_board *b, ttt_move cell, ttt_error *err)
{
    char name[TTT_MOVE_TEXT_SIZE];
    if (cell < 0 || cell >= b->cells)
        return ttt_fail(err, TTT_EINVAL, "cell %d is off the %dx%d board", cell, b->rules.rows,
                        b->rules.cols);
    if (ttt_board_terminal(b))
        return ttt_fail(err, TTT_EINVAL, "the game is over: no more moves");
    if (ttt_board_at(b, cell) != TTT_NOBODY)
        return ttt_fail(err, TTT_EINVAL, "cell %s is taken",
                        ttt_move_format(&b->rules, cell, name, sizeof name));
    ttt_board_play(b, cell);
    return TTT_OK;
}

ttt_status ttt_board_result(const ttt_board *b, ttt_move cell, ttt_board *out, ttt_error *err)
{
    ttt_board next = *b;
    ttt_status st = ttt_board_play_checked(&next, cell, err);
    if (st == TTT_OK)
        *out = next;
    return st;
}

/* --- Positions from outside ----------------------------------------------------------------------------- */

void ttt_board_from_bits(ttt_board *b, const ttt_rules *rules, const ttt_bits *x, const ttt_bits *o)
{
    ttt_board_init(b, rules);
    b->stones[TTT_X] = *x;
    b->stones[TTT_O] = *o;
    b->ply = ttt_bits_count(x) + ttt_bits_count(o);
    b->hash = ttt_board_hash_full(b);
    bool lx = ttt_board_has_line(b, TTT_X), lo = ttt_board_has_line(b, TTT_O);
    /* With lines on both sides (invalid anyway) the side that moved last is named. */
    if (lx && lo)
        b->line_owner = (ttt_player)((b->ply - 1) & 1);
    else
        b->line_owner = lx ? TTT_X : lo ? TTT_O : TTT_NOBODY;
}

static const char *side_name(ttt_player p) { return p == TTT_X ? "X" : "O"; }

/* True when some stone of `who` could have been the last one played: removing it leaves no line. */
static bool line_made_by_one_move(const ttt_board *b, ttt_player who)
{
    ttt_bits s = b->stones[who];
    for (int cell = 0; cell < b->cells; cell++) {
        if (!ttt_bits_test(&s, cell))
            continue;
        ttt_bits_clear(&s, cell);
        bool still = find_line(&s, &b->rules, NULL) > 0;
        ttt_bits_set(&s, cell);
        if (!still)
            return true;
    }
    return false;
}

ttt_status ttt_board_validate(const ttt_board *b, ttt_error *err)
{
    ttt_bits outside = board_mask(b->cells);
    for (int i = 0; i < TTT_WORDS; i++) {
        if ((b->stones[TTT_X].w[i] | b->stones[TTT_O].w[i]) & ~outside.w[i])
            return ttt_fail(err, TTT_EINVAL, "a stone lies outside the %dx%d board", b->rules.rows,
                            b->rules.cols);
        if (b->stones[TTT_X].w[i] & b->stones[TTT_O].w[i])
            return ttt_fail(err, TTT_EINVAL, "a cell holds both X and O");
    }
    int nx = ttt_bits_count(&b->stones[TTT_X]), no = ttt_bits_count(&b->stones[TTT_O]);
    if (nx != no && nx != no + 1)
        return ttt_fail(err, TTT_EINVAL,
                        "impossible piece counts: X has %d and O has %d, but X moves first, so X has as many "
                        "stones as O or one more",
                        nx, no);
    bool lx = ttt_board_has_line(b, TTT_X), lo = ttt_board_has_line(b, TTT_O);
    if (lx && lo)
        return ttt_fail(err, TTT_EINVAL, "both X and O have %d in a row, but the game ends at the first line",
                        b->rules.k);
    if (lx || lo) {
        ttt_player who = lx ? TTT_X : TTT_O;
        ttt_player last = (ttt_player)((nx + no - 1) & 1);
        if (who != last)
            return ttt_fail(err, TTT_EINVAL,
                            "play continued after the game ended: %s completed a line, then %s moved",
                            side_name(who), side_name(last));
        if (!line_made_by_one_move(b, who))
            return ttt_fail(err, TTT_EINVAL,
                            "play continued after the game ended: %s has lines that no single last move made",
                            side_name(who));
    }
    return TTT_OK;
}

bool ttt_board_equal(const ttt_board *a, const ttt_board *b)
{
    return ttt_rules_equal(&a->rules, &b->rules) && ttt_bits_equal(&a->stones[0], &b->stones[0]) &&
           ttt_bits_equal(&a->stones[1], &b->stones[1]);
}
