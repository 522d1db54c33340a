/*
 * engines/heuristic.c - the `heuristic` engine: the "unbeatable" player of seed 000 (a Ruby boot-camp blog
 * post), generalised from 3x3 to m x n boards, any k, and misère. No search: one pass over the winning lines.
 *
 * A "window" is one winning line: k cells in a row along a row, a column, a diagonal or an anti-diagonal. The
 * windows are listed in a fixed order that extends the blog's WIN_COMBINATIONS (rows, columns, the diagonal,
 * the anti-diagonal): first every horizontal window, then every vertical one, then every down-right
 * diagonal, then every down-left anti-diagonal; within each direction by the reading order of the window's
 * first cell (for anti-diagonals the top-right one), and each window's cells in walking order. On 3x3:
 *
 *     a1 b1 c1 | a2 b2 c2 | a3 b3 c3 | a1 a2 a3 | b1 b2 b3 | c1 c2 c3 | a1 b2 c3 | c1 b2 a3
 *
 * The order matters: it decides ties, exactly as the blog's array order does. One decision is the blog's
 * `move` method, its four steps a static function each:
 *
 *   Step 1 (move). When the engine's own side has no stone yet and the centre is empty, play the centre.
 *          The centre is cell ((rows-1)/2, (cols-1)/2): on an even side, of the central cells the one
 *          nearest the top-left (b2 on 4x4, c2 on 4x6).
 *   Step 2 (opponent_weightings). Every window that still has an empty cell weighs -3 per opponent stone
 *          in it; a full window weighs 0.
 *   Step 3 (weighted_selection). Keep the windows of the lowest weight, walking them in order with the
 *          running minimum starting at 0, as the blog does: so with no opponent stone anywhere every window
 *          of weight 0, full ones included, is kept.
 *   Step 4 (frequency table). Flatten the kept windows' cells in order, keep the empty ones, count how
 *          often each appears and play the most frequent; on a tie the one that comes first in the
 *          flattened list (Ruby's max_by returns the first maximum). Should nothing be left, play the first
 *          empty cell in reading order. That fallback is a safety net: every cell lies in some window, so
 *          an empty cell is in a window that is not full, of weight 0 or below, and some window of the
 *          lowest weight is not full either (a negative weight needs an empty cell).
 *
 * Option guard=1 adds, between steps 1 and 2, what the blog leaves to the weights: "win now, else block
 * now". It plays the first cell (reading order) where completing a line wins, else the first cell where the
 * opponent would complete a winning line (engines/tactics.h, which asks ttt_rules_line_wins, so the engine
 * never reads the misère flag). Under misère a line loses, so there is no
 * win now and nothing to block; guard then only keeps the engine from completing a line of its own while
 * another move exists (such cells are dropped from step 4). Under normal rules that part never applies.
 *
 * Under misère the weights still point at the opponent's lines, although there filling them helps the
 * opponent stay clear of its own line: the engine plays the literal algorithm. It is deterministic: it
 * accepts seed= and ignores it. One decision counts one node.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine_impl.h"
#include "engines/tactics.h"
#include "rules/lines.h"
#include "util/error.h"
#include "util/trace.h"

/* The blog's weight of one opponent stone in a window. */
#define HEURISTIC_OPPONENT_WEIGHT (-3)
/* Step 3's running minimum starts here, as the blog's `lowest = 0`. */
#define HEURISTIC_LOWEST_START 0

typedef struct heuristic_config {
    uint64_t guard; /* 1: win now, else block now, before the weights */
} heuristic_config;

static const heuristic_config heuristic_defaults = {.guard = 0};

static const ttt_option_def heuristic_options[] = {
    {"guard", TTT_OPT_UINT, offsetof(heuristic_config, guard), 0, 1, 0, 0, .arg = "0|1",
     .help = "1 = win now, else block now, before the weights"},
    {"seed", TTT_OPT_SEED, 0, 0, 0, 0, 0, .arg = "N", .help = "ignored: the player is deterministic"},
    {.key = NULL},
};

typedef struct heuristic_state {
    const ttt_lines *lines; /* the board's windows (one reference), walked in dir_win order */
    int windows;            /* how many windows */
    int k;                  /* cells per window */
    int *weight;            /* scratch for step 2: one per window */
    int *selected;          /* scratch for step 3: indices of the kept windows */
    ttt_move centre;
} heuristic_state;

/* The cells of window w in the documented order: the geometry's windows by direction, then first cell. */
static inline const int16_t *window(const heuristic_state *s, int w)
{
    return ttt_lines_cells(s->lines, s->lines->dir_win[w]);
}

static ttt_status heuristic_start(ttt_engine *e, ttt_error *err)
{
    const ttt_rules *r = &e->rules;
    heuristic_state *s = calloc(1, sizeof *s);
    ttt_status st = s ? ttt_lines_new(r, &s->lines, err) : TTT_ENOMEM;
    if (st == TTT_OK) {
        s->windows = s->lines->nwin;
        s->weight = malloc(((size_t)s->windows + 1) * sizeof *s->weight);
        s->selected = malloc(((size_t)s->windows + 1) * sizeof *s->selected);
        if (!s->weight || !s->selected)
            st = TTT_ENOMEM;
    }
    if (st) {
        if (s) {
            ttt_lines_unref(s->lines);
            free(s->weight);
            free(s->selected);
        }
        free(s);
        return ttt_fail(err, st, "engine 'heuristic': out of memory");
    }
    s->k = r->k;
    s->centre = (r->rows - 1) / 2 * r->cols + (r->cols - 1) / 2;
    e->state = s;
    return TTT_OK;
}

static void heuristic_stop(ttt_engine *e)
{
    heuristic_state *s = e->state;
    if (!s)
        return;
    ttt_lines_unref(s->lines);
    free(s->weight);
    free(s->selected);
    free(s);
}

static bool is_empty(const ttt_board *b, ttt_move cell)
{
    return !ttt_bits_test(&b->stones[TTT_X], cell) && !ttt_bits_test(&b->stones[TTT_O], cell);
}

/* Step 2, the blog's `opponent_weightings`: -3 per opponent stone in each window with an empty cell. */
static void opponent_weightings(const heuristic_state *s, const ttt_board *b, ttt_player opponent,
                                int *weight)
{
    const ttt_lines *l = s->lines;
    const ttt_bits *theirs = &b->stones[opponent], *mine = &b->stones[1 - opponent];
    for (int w = 0; w < s->windows; w++) { /* on the window's bit set, a word at a time */
        const ttt_bits *cells = &l->win_bits[l->dir_win[w]];
        int stones = 0;
        bool remaining = false;
        for (int i = 0; i < l->words; i++) {
            stones += __builtin_popcountll(cells->w[i] & theirs->w[i]);
            remaining |= (cells->w[i] & ~(theirs->w[i] | mine->w[i])) != 0;
        }
        weight[w] = remaining ? HEURISTIC_OPPONENT_WEIGHT * stones : 0;
    }
}

/* Step 3, the blog's `weighted_selection`: the windows of the lowest weight, in order. Returns how many. */
static int weighted_selection(const heuristic_state *s, const int *weight, int *selected)
{
    int lowest = HEURISTIC_LOWEST_START, count = 0;
    for (int w = 0; w < s->windows; w++) {
        if (weight[w] < lowest) {
            count = 0;
            selected[count++] = w;
            lowest = weight[w];
        } else if (weight[w] == lowest) {
            selected[count++] = w;
        }
    }
    return count;
}

/* Step 4, the blog's frequency table (`freq_table` and `max_by` in `move`): the empty cell, not in `avoid`,
 * that appears most often among the kept windows, the first on a tie; TTT_NO_MOVE when there is none. */
static ttt_move frequency_table(const heuristic_state *s, const ttt_board *b, const int *selected, int count,
                                const ttt_bits *avoid, int *freq)
{
    memset(freq, 0, (size_t)b->cells * sizeof *freq);
    for (int j = 0; j < count; j++)
        for (int i = 0; i < s->k; i++) {
            ttt_move c = window(s, selected[j])[i];
            if (is_empty(b, c) && !ttt_bits_test(avoid, c))
                freq[c]++;
        }
    ttt_move choice = TTT_NO_MOVE;
    int best = 0;
    for (int j = 0; j < count; j++)
        for (int i = 0; i < s->k; i++) {
            ttt_move c = window(s, selected[j])[i];
            if (freq[c] > best) {
                best = freq[c];
                choice = c;
            }
        }
    return choice;
}

/* guard=1: the first cell that wins now, else the first that blocks the opponent's win now (*kind says
 * which), else TTT_NO_MOVE. Cells that would complete a losing line of our own go into *avoid, unless every
 * legal move does. */
static ttt_move guard(const ttt_board *b, ttt_bits *avoid, tactics_kind *kind)
{
    ttt_move found[TTT_MAX_CELLS];
    int n;
    if ((*kind = tactics_win_or_block(b, found, &n)) != TACTICS_NONE)
        return found[0];
    if (tactics_losing(b, avoid) == b->cells - b->ply)
        *avoid = (ttt_bits){{0}};
    return TTT_NO_MOVE;
}

/* Steps 2 to 4 as data: each empty cell's lowest line weight (over the lines through it that still have an
 * empty cell) and its count in the frequency table; the weight, how many lines were kept, and the first
 * kept lines themselves. */
static void heuristic_explain_tables(const heuristic_state *s, const ttt_board *b, int count, const int *freq,
                                     ttt_explanation *why)
{
    int lowest[TTT_MAX_CELLS], most = 1, floor = HEURISTIC_LOWEST_START;
    bool seen[TTT_MAX_CELLS] = {false};
    for (int w = 0; w < s->windows; w++)
        for (int i = 0; i < s->k; i++) {
            ttt_move c = window(s, w)[i];
            if (!is_empty(b, c))
                continue;
            if (!seen[c] || s->weight[w] < lowest[c])
                lowest[c] = s->weight[w];
            seen[c] = true;
            floor = lowest[c] < floor ? lowest[c] : floor;
        }
    for (int c = 0; c < b->cells; c++)
        most = freq[c] > most ? freq[c] : most;
    ttt_explain_layer *fl = ttt_explain_layer_add(
        why, "frequency", "times the cell appears in the kept lines (the engine plays the most frequent)", 0,
        most, false);
    ttt_explain_layer *wl = ttt_explain_layer_add(
        why, "line weight", "the lowest weight of a line through the cell: -3 per opponent stone", floor - 1,
        0, false);
    for (int c = 0; c < b->cells; c++) {
        if (freq[c] > 0)
            ttt_explain_set(fl, c, freq[c]);
        if (seen[c])
            ttt_explain_set(wl, c, lowest[c]);
    }
    ttt_explain_fact_add(why, "weight of an opponent stone", HEURISTIC_OPPONENT_WEIGHT);
    ttt_explain_fact_add(why, "lowest weight", count ? s->weight[s->selected[0]] : 0);
    ttt_explain_fact_add(why, "lines kept", count);
    ttt_explain_fact_add(why, "lines in all", s->windows);
    for (int j = 0; j < count && why->line_count < TTT_EXPLAIN_MAX_LINES; j++) {
        ttt_move cells[TTT_MAX_SIDE];
        for (int i = 0; i < s->k; i++)
            cells[i] = window(s, s->selected[j])[i];
        ttt_explain_line_add(why, "kept line", s->weight[s->selected[j]], "weight", cells, s->k);
    }
}

/* Reports a rule tried to the engine's recorder: whether it chose, and the move it found (TTT_NO_MOVE:
 * none). */
static void heuristic_trace(ttt_engine *e, const char *rule, ttt_move found)
{
    ttt_trace_step *st = trace_begin(e->trace, TTT_TRACE_RULE);
    if (!st)
        return;
    st->rule = rule;
    st->fired = found != TTT_NO_MOVE;
    if (st->fired)
        st->moves[st->count++] = found;
    trace_emit(e->trace);
}

/* The blog's `move`: step 1, the guard when asked for, then steps 2 to 4. When why is not NULL it gets the
 * step that chose, and for steps 2 to 4 the weights, the kept lines and the frequency table. */
static ttt_move heuristic_decide(ttt_engine *e, const ttt_board *b, ttt_explanation *why)
{
    const heuristic_config *c = e->config;
    heuristic_state *s = e->state;
    ttt_player me = ttt_board_to_move(b);
    e->nodes++;

    /* Step 1: the centre, while we have no stone. */
    ttt_bits own = b->stones[me];
    bool centre = ttt_bits_count(&own) == 0 && is_empty(b, s->centre);
    if (e->trace)
        heuristic_trace(e, "step 1: the centre, while the engine has no stone",
                        centre ? s->centre : TTT_NO_MOVE);
    if (centre) {
        if (why)
            why->step = "step 1: the centre, while the engine has no stone";
        return s->centre;
    }

    ttt_bits avoid = {{0}};
    if (c->guard) {
        tactics_kind kind;
        ttt_move m = guard(b, &avoid, &kind);
        if (e->trace)
            heuristic_trace(e, "guard: win now, else block the opponent's win", m);
        if (m != TTT_NO_MOVE) {
            if (why)
                why->step = kind == TACTICS_WIN ? "guard: win now" : "guard: block the opponent's win";
            return m;
        }
    }

    /* Steps 2 to 4. */
    opponent_weightings(s, b, (ttt_player)(1 - me), s->weight);
    int count = weighted_selection(s, s->weight, s->selected);
    int freq[TTT_MAX_CELLS];
    ttt_move m = frequency_table(s, b, s->selected, count, &avoid, freq);
    if (why)
        why->step = m == TTT_NO_MOVE ? "fallback: the first empty cell"
                                     : "steps 2-4: the most frequent cell of the lowest-weight lines";
    if (why)
        heuristic_explain_tables(s, b, count, freq, why);

    if (e->trace)
        heuristic_trace(e, "steps 2-4: the most frequent cell of the lowest-weight lines", m);
    /* Fallback (see the top of the file): the first empty cell not avoided, in reading order. */
    bool fallback = m == TTT_NO_MOVE;
    for (int cell = 0; m == TTT_NO_MOVE && cell < b->cells; cell++)
        if (is_empty(b, cell) && !ttt_bits_test(&avoid, cell))
            m = cell;
    if (e->trace && fallback)
        heuristic_trace(e, "fallback: the first empty cell", m);
    return m;
}

static ttt_status heuristic_choose(ttt_engine *e, const ttt_board *b, ttt_move *out, ttt_search_info *info,
                                   ttt_explanation *why, ttt_error *err)
{
    (void)info;
    (void)err;
    if (why)
        why->method =
            "one pass over the winning lines (seed 000): weigh them, keep the lowest, count their cells";
    *out = heuristic_decide(e, b, why);
    if (why)
        why->choice = *out;
    return TTT_OK;
}

static ttt_status heuristic_explain(ttt_engine *e, const ttt_board *b, ttt_explanation *out, ttt_error *err)
{
    ttt_move m;
    ttt_search_info info = {0};
    return heuristic_choose(e, b, &m, &info, out, err);
}

const ttt_engine_vtable ttt_engine_heuristic = {
    .about = {.name = "heuristic",
              .summary =
                  "weighs each empty square by the lines through it (a classic \"unbeatable\" player): no "
                  "search"},
    .options = heuristic_options,
    .config_size = sizeof(heuristic_config),
    .config_defaults = &heuristic_defaults,
    .start = heuristic_start,
    .choose = heuristic_choose,
    .explain = heuristic_explain,
    .stop = heuristic_stop,
};
