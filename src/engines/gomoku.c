/*
 * engines/gomoku.c - the `gomoku` engine: alpha-beta over threat-ordered candidates with a VCF search at the
 * root, for k-in-a-row games where a line wins and k >= 4 (gomoku: 15x15, five or more).
 *
 * One decision:
 *   Step 1. Win now, else block the opponent's only five-cell (two of them: the game is lost; block one).
 *   Step 2. Our own VCF (search/threats.h) within GOMOKU_DEFAULT_VCF nodes: play its first move.
 *   Step 3. The candidates: empty cells within GOMOKU_NEAR of a stone, each scored by the shapes a stone of
 *           ours makes there (attack) and a stone of the opponent's would make (defence), best first, ties
 *           in an order drawn from the engine's generator. When the opponent has a VCF now, the candidates
 *           after which it still has one (same budget) are dropped, unless that drops them all.
 *   Step 4. Iterative-deepening negamax with alpha-beta and a transposition table over the best `width`
 *           candidates of each node (fewer deeper down), until the time, node or depth budget is spent; the
 *           move of the last finished depth is played. In the tree: a five-cell of the side to move wins, two
 *           of the opponent's lose, one is the only move (not counted as depth); a move making an open four
 *           or two fours wins when the opponent has no four; when the opponent has a flex three (a cell
 *           giving it an open four), only its defences and our counter-fours are searched (defend=1:
 *           every other move loses to the open four). The leaves are scored by the line windows.
 *
 * The engine keeps a threats context (counts over the rules' shared windows, VCF table) and its transposition
 * table for the game. Where threats mean nothing (k < 4, or a line loses: misère) it plays the solver's move
 * instead, as minimax does with the same budget, so that it can be made on every board.
 */
#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine_impl.h"
#include "search/threats.h"
#include "ttt/solve.h"
#include "util/error.h"

/* Budget defaults. One second a move, like minimax; the brain plans its own time through time=. */
#define GOMOKU_DEFAULT_TIME_MS 1000
#define GOMOKU_MAX_TIME_MS     86400000
#define GOMOKU_MAX_DEPTH       64
/* VCF nodes per search at the root (ours, the opponent's, and the opponent's after each candidate). */
#define GOMOKU_DEFAULT_VCF 20000
/* VCT nodes per search at the root (ours, the opponent's, and the opponent's after each candidate), and the
 * three moves a VCT may use on one line of play: threes=3 won 5 of 20 against Rapfi depth 12, threes=5 3
 * (bench/gomoku/HISTORY.md). */
#define GOMOKU_DEFAULT_VCT 20000
#define GOMOKU_VCT_THREES  3
#define GOMOKU_MAX_THREES  16
/* VCF nodes for the side to move at each leaf of the alpha-beta (0 = static evaluation only): leaf=30 won 5
 * of 20 against Rapfi depth 12 (leaf=0 none, 10 two, 100 three). */
#define GOMOKU_DEFAULT_LEAF_VCF 30
/* Candidates searched at the root; inner nodes get GOMOKU_INNER_WIDTH (the best by the shape scores). */
#define GOMOKU_DEFAULT_WIDTH 16
#define GOMOKU_INNER_WIDTH   10
#define GOMOKU_MAX_WIDTH     TTT_MAX_CELLS
/* Candidates are empty cells within this king distance of a stone. */
#define GOMOKU_NEAR 2
/* Forced blocks are not counted as depth, up to this many plies from the root. */
#define GOMOKU_MAX_PLY 96
/* Transposition table entries (a power of two, 16 bytes each: 16 MiB). */
#define GOMOKU_TT_ENTRIES (1 << 20)
/* The solver's table where the threats do not apply (small boards: minimax's default is enough). */
#define GOMOKU_SOLVER_TT_MIB 16
/* With a time budget, each threat search at the root gets at most this many nodes per millisecond of the
 * move's time: about a fifth of the move at the VCT's 280 nodes a millisecond on a 15x15 middle game. */
#define GOMOKU_THREAT_NODES_PER_MS 50
/* The root's VCF checks of the candidates stop once this share of the move's time is gone. */
#define GOMOKU_VCF_TIME_SHARE 0.3
/* The clock is read every this many nodes. */
#define GOMOKU_CLOCK_CHECK 256
/* Scores: a win in p plies is GOMOKU_WIN - p; anything above GOMOKU_WON is a proven win. */
#define GOMOKU_WIN      10000000
#define GOMOKU_WON      (GOMOKU_WIN - 1000)
#define GOMOKU_EVAL_MAX (GOMOKU_WON / 2)
/* Shape scores of a cell (attack: our stone there; defence: the opponent's), by the best shape of each
 * direction, then bonuses for combinations that win or nearly win. */
#define SCORE_FIVE         1000000
#define SCORE_OPEN_FOUR    100000
#define SCORE_DOUBLE_FOUR  100000
#define SCORE_FOUR_THREE   50000
#define SCORE_DOUBLE_THREE 20000
#define SCORE_FOUR         1500
#define SCORE_OPEN_THREE   1000
#define SCORE_THREE        150
#define SCORE_OPEN_TWO     120
#define SCORE_TWO          20
/* Defence counts this share of the same shape for the opponent (the mover's own threat comes first). */
#define GOMOKU_DEFENCE_SHARE 0.9
/* Leaf evaluation: a window with n of one side's stones and none of the other's is worth window_value[n],
 * growing by this factor per stone; the side to move's windows count this much more (it moves next). The
 * growth spans at most GOMOKU_WINDOW_LEVELS stones below k (the emptier windows of a longer k all count 1):
 * 8 to the k-1 leaves an int from k = 11, and a sum over the windows would reach the win scores long before.
 * A leaf's score stays within GOMOKU_EVAL_MAX of 0, so that it is never read as a proven win or loss. */
#define GOMOKU_WINDOW_BASE   8
#define GOMOKU_WINDOW_LEVELS 8
#define GOMOKU_TEMPO         1.5

typedef struct gomoku_config {
    uint64_t time_ms; /* 0 = no limit */
    uint64_t nodes;   /* 0 = no limit */
    uint64_t depth;   /* 0 = up to GOMOKU_MAX_DEPTH */
    uint64_t width;
    uint64_t vcf;    /* 0 = no VCF search */
    uint64_t vct;    /* 0 = no VCT search */
    uint64_t leaf;   /* VCF nodes at each leaf, 0 = none */
    uint64_t threes; /* three moves a VCT may use on one line of play */
    uint64_t defend; /* 1 = against a flex three, only the defences are searched */
} gomoku_config;

static const gomoku_config gomoku_defaults = {.time_ms = GOMOKU_DEFAULT_TIME_MS,
                                              .nodes = 0,
                                              .depth = 0,
                                              .width = GOMOKU_DEFAULT_WIDTH,
                                              .vcf = GOMOKU_DEFAULT_VCF,
                                              .vct = GOMOKU_DEFAULT_VCT,
                                              .leaf = GOMOKU_DEFAULT_LEAF_VCF,
                                              .threes = GOMOKU_VCT_THREES,
                                              .defend = 1};

static const ttt_option_def gomoku_options[] = {
    {"time", TTT_OPT_UINT, offsetof(gomoku_config, time_ms), 0, GOMOKU_MAX_TIME_MS, 0, 0,
     .role = TTT_ROLE_TIME, .arg = "MS",
     .help = "time per move in milliseconds; 0 = no limit, above 30 cells only with nodes= or depth="},
    {"nodes", TTT_OPT_UINT, offsetof(gomoku_config, nodes), 0, UINT64_MAX, 0, 0, .arg = "N",
     .help = "search nodes per move, 0 = no limit"},
    {"depth", TTT_OPT_UINT, offsetof(gomoku_config, depth), 0, GOMOKU_MAX_DEPTH, 0, 0, .arg = "N",
     .help = "deepest iteration, 0 = no limit"},
    {"width", TTT_OPT_UINT, offsetof(gomoku_config, width), 1, GOMOKU_MAX_WIDTH, 0, 0, .arg = "N",
     .help = "candidates searched at the root"},
    {"vcf", TTT_OPT_UINT, offsetof(gomoku_config, vcf), 0, UINT64_MAX, 0, 0, .arg = "N",
     .help = "nodes of each VCF search at the root, 0 = none"},
    {"vct", TTT_OPT_UINT, offsetof(gomoku_config, vct), 0, UINT64_MAX, 0, 0, .arg = "N",
     .help = "nodes of each VCT search (fours and threes) at the root, 0 = none"},
    {"leaf", TTT_OPT_UINT, offsetof(gomoku_config, leaf), 0, UINT64_MAX, 0, 0, .arg = "N",
     .help = "nodes of a VCF search at each leaf of the alpha-beta, 0 = none"},
    {"threes", TTT_OPT_UINT, offsetof(gomoku_config, threes), 0, GOMOKU_MAX_THREES, 0, 0, .arg = "N",
     .help = "three moves a VCT may use on one line of play"},
    {"defend", TTT_OPT_UINT, offsetof(gomoku_config, defend), 0, 1, 0, 0, .arg = "0|1",
     .help = "against a flex three, search only its defences and counter-fours"},
    {"seed", TTT_OPT_SEED, 0, 0, 0, 0, 0, .arg = "N", .help = "order of equally scored candidates"},
    {.key = NULL},
};

enum { TT_EXACT = 1, TT_LOWER, TT_UPPER };

typedef struct tt_entry {
    uint64_t key;
    int32_t score;
    int16_t move;
    uint8_t depth;
    uint8_t flag;
} tt_entry;

typedef struct candidate {
    int cell;
    int score;
    uint32_t tie; /* drawn from the generator at the root, 0 below */
    bool wins;    /* makes a five, an open four or two fours for the mover */
} candidate;

/* What a move changes in the cached cell scores, for its undo: one entry per cell it rescored, then a frame
 * entry (cell = -1 - entries). */
typedef struct saved_score {
    int cell;
    int score[2];
    bool dirty;
} saved_score;
#define GOMOKU_STACK_ENTRIES ((GOMOKU_MAX_PLY + 2) * (4 * 2 * TTT_MAX_SIDE + 1))

typedef struct gomoku_state {
    ttt_solver *solver; /* non-NULL where the threats do not apply */
    ttt_threats threats;
    /* Kept up to date by gomoku_play/gomoku_undo: each empty cell's shape score for each side, and how many
     * stones lie within GOMOKU_NEAR of each cell. */
    int cell_score[2][TTT_MAX_CELLS];
    bool dirty[TTT_MAX_CELLS]; /* the cell's scores are to be computed again before use */
    uint8_t near[TTT_MAX_CELLS];
    saved_score *stack;
    int stack_top;
    tt_entry *tt;
    int64_t window_value[TTT_MAX_SIDE + 1];
    /* one search */
    uint64_t nodes, node_limit;
    uint64_t leaf_vcf; /* the config's leaf= */
    bool defend;       /* the config's defend= */
    double deadline;   /* ttt_clock_ms() value; 0 = none */
    bool aborted;
} gomoku_state;

static ttt_status gomoku_check(const ttt_engine *e, ttt_error *err)
{
    const gomoku_config *c = e->config;
    return ttt_engine_check_bounded(e, c->time_ms, c->nodes, c->depth, err);
}

static ttt_status gomoku_start(ttt_engine *e, ttt_error *err)
{
    const ttt_rules *r = &e->rules;
    bool threats = r->k >= 4 && r->k <= r->cols && ttt_rules_line_wins(r);
    gomoku_state *s = calloc(1, sizeof *s);
    if (!s)
        return ttt_fail(err, TTT_ENOMEM, "engine 'gomoku': out of memory");
    if (!threats) {
        ttt_status st = ttt_solver_new(r, GOMOKU_SOLVER_TT_MIB, &s->solver, err);
        if (st)
            free(s);
        else
            e->state = s;
        return st;
    }
    const ttt_lines *lines = NULL;
    tt_entry *tt = calloc(GOMOKU_TT_ENTRIES, sizeof *tt);
    s->stack = malloc(GOMOKU_STACK_ENTRIES * sizeof *s->stack);
    ttt_status st = tt && s->stack ? ttt_lines_new(r, &lines, err) : TTT_ENOMEM;
    if (st) {
        free(tt);
        free(s->stack);
        free(s);
        return st == TTT_ENOMEM ? ttt_fail(err, TTT_ENOMEM, "engine 'gomoku': out of memory") : st;
    }
    ttt_threats_init(&s->threats, lines);
    ttt_lines_unref(lines); /* the threats context holds it */
    s->tt = tt;
    int flat = r->k > GOMOKU_WINDOW_LEVELS ? r->k - GOMOKU_WINDOW_LEVELS : 0; /* up to flat + 1 stones: 1 */
    int64_t v = 1;
    for (int n = 1; n <= r->k && n <= TTT_MAX_SIDE; n++) {
        s->window_value[n] = v;
        if (n > flat)
            v *= GOMOKU_WINDOW_BASE;
    }
    e->state = s;
    return TTT_OK;
}

static void gomoku_stop(ttt_engine *e)
{
    gomoku_state *s = e->state;
    if (!s)
        return;
    ttt_solver_free(s->solver);
    if (!s->solver)
        ttt_threats_done(&s->threats);
    free(s->stack);
    free(s->tt);
    free(s);
}

static void gomoku_new_game(ttt_engine *e)
{
    gomoku_state *s = e->state;
    if (s->solver) {
        ttt_solver_clear(s->solver);
        return;
    }
    memset(s->tt, 0, GOMOKU_TT_ENTRIES * sizeof *s->tt);
    ttt_threats_clear(&s->threats);
}

/* A cell's shape score for who (its best shapes and their combinations). */
static int shape_score(const ttt_shape *sh)
{
    const uint8_t *n = sh->kinds;
    if (n[TTT_SHAPE_FIVE])
        return SCORE_FIVE;
    if (n[TTT_SHAPE_OPEN_FOUR])
        return SCORE_OPEN_FOUR;
    if (n[TTT_SHAPE_FOUR] >= 2)
        return SCORE_DOUBLE_FOUR;
    if (n[TTT_SHAPE_FOUR] && n[TTT_SHAPE_OPEN_THREE])
        return SCORE_FOUR_THREE;
    if (n[TTT_SHAPE_OPEN_THREE] >= 2)
        return SCORE_DOUBLE_THREE;
    return n[TTT_SHAPE_FOUR] * SCORE_FOUR + n[TTT_SHAPE_OPEN_THREE] * SCORE_OPEN_THREE +
           n[TTT_SHAPE_THREE] * SCORE_THREE + n[TTT_SHAPE_OPEN_TWO] * SCORE_OPEN_TWO +
           n[TTT_SHAPE_TWO] * SCORE_TWO;
}

static void score_cell(gomoku_state *s, int c)
{
    ttt_shape sh;
    for (int p = 0; p < 2; p++) {
        ttt_threats_shape(&s->threats, c, (ttt_player)p, &sh);
        s->cell_score[p][c] = shape_score(&sh);
    }
}

static void add_near(gomoku_state *s, int cell, int delta)
{
    const ttt_lines *l = s->threats.lines;
    int row = cell / l->cols, col = cell % l->cols;
    for (int dr = -GOMOKU_NEAR; dr <= GOMOKU_NEAR; dr++)
        for (int dc = -GOMOKU_NEAR; dc <= GOMOKU_NEAR; dc++) {
            int r2 = row + dr, c2 = col + dc;
            if (r2 >= 0 && r2 < l->rows && c2 >= 0 && c2 < l->cols)
                s->near[r2 * l->cols + c2] = (uint8_t)(s->near[r2 * l->cols + c2] + delta);
        }
}

/* The position of b, with every cache rebuilt. */
static void gomoku_set(gomoku_state *s, const ttt_board *b)
{
    ttt_threats *t = &s->threats;
    ttt_threats_set(t, b);
    memset(s->near, 0, sizeof s->near);
    for (int c = 0; c < t->lines->cells; c++)
        if (t->at[c] != TTT_NOBODY)
            add_near(s, c, 1);
    for (int c = 0; c < t->lines->cells; c++)
        s->dirty[c] = t->at[c] == TTT_NOBODY;
    s->stack_top = 0;
}

/* Saves the empty cell c's scores on the stack and marks it for rescoring. */
static void mark_dirty(gomoku_state *s, int c)
{
    if (s->threats.at[c] != TTT_NOBODY)
        return;
    s->stack[s->stack_top++] = (saved_score){c, {s->cell_score[0][c], s->cell_score[1][c]}, s->dirty[c]};
    s->dirty[c] = true;
}

/* Plays who on the empty cell and marks the empty cells that share a window with it (whose shapes may
 * change) for rescoring, saving their old scores for gomoku_undo. Rescoring waits until a node asks for its
 * candidates: most nodes are leaves, which never do. */
static void gomoku_play(gomoku_state *s, int cell, ttt_player who)
{
    ttt_threats *t = &s->threats;
    const ttt_lines *l = t->lines;
    ttt_threats_play(t, cell, who);
    add_near(s, cell, 1);
    int top = s->stack_top, nwin;
    assert(s->stack_top + 4 * 2 * l->k + 1 <= GOMOKU_STACK_ENTRIES);
    /* The windows through the cell of one direction come one cell apart along their line: the first brings
     * its k cells, each later one its last cell. */
    bool seen[TTT_DIRECTIONS] = {false};
    const int16_t *through = ttt_lines_through(l, cell, &nwin);
    for (int i = 0; i < nwin; i++) {
        int w = through[i], d = l->win_dir[w];
        const int16_t *cells = ttt_lines_cells(l, w);
        for (int j = seen[d] ? l->k - 1 : 0; j < l->k; j++)
            mark_dirty(s, cells[j]);
        seen[d] = true;
    }
    int saved = s->stack_top - top;
    s->stack[s->stack_top++] = (saved_score){.cell = -1 - saved};
}

static void gomoku_undo(gomoku_state *s, int cell, ttt_player who)
{
    int saved = -1 - s->stack[--s->stack_top].cell;
    while (saved--) {
        const saved_score *x = &s->stack[--s->stack_top];
        s->cell_score[0][x->cell] = x->score[0];
        s->cell_score[1][x->cell] = x->score[1];
        s->dirty[x->cell] = x->dirty;
    }
    add_near(s, cell, -1);
    ttt_threats_undo(&s->threats, cell, who);
}

static int compare_candidates(const void *a, const void *b)
{
    const candidate *x = a, *y = b;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    if (x->tie != y->tie)
        return x->tie < y->tie ? -1 : 1;
    return x->cell - y->cell;
}

/* Step 3: the best `limit` empty cells near a stone (the centre on an empty board), scored and sorted, best
 * first (insertion into the kept ones: cheaper than sorting them all when limit is small). */
static int candidates(gomoku_state *s, ttt_player me, candidate *out, int limit, ttt_rng *rng,
                      const uint8_t *only)
{
    const ttt_threats *t = &s->threats;
    const ttt_lines *l = t->lines;
    int n = 0;
    if (t->stones == 0) {
        out[0] = (candidate){.cell = (l->rows / 2) * l->cols + l->cols / 2};
        return 1;
    }
    for (int c = 0; c < l->cells; c++) {
        if (!s->near[c] || t->at[c] != TTT_NOBODY || (only && !only[c]))
            continue;
        if (s->dirty[c]) {
            score_cell(s, c);
            s->dirty[c] = false;
        }
        int attack = s->cell_score[me][c];
        candidate x = {
            .cell = c,
            .score = attack + (int)(GOMOKU_DEFENCE_SHARE * s->cell_score[1 - me][c]),
            .tie = rng ? ttt_rng_next(rng) >> 32 : 0,
            .wins = attack >= SCORE_DOUBLE_FOUR,
        };
        if (n == limit && compare_candidates(&x, &out[n - 1]) >= 0)
            continue;
        int i = n < limit ? n++ : n - 1;
        for (; i > 0 && compare_candidates(&x, &out[i - 1]) < 0; i--)
            out[i] = out[i - 1];
        out[i] = x;
    }
    return n;
}

/* The leaf score for the side to move: its open windows against the opponent's. */
static int evaluate(const gomoku_state *s, ttt_player me)
{
    const uint8_t *own = s->threats.count[me], *other = s->threats.count[1 - me];
    int64_t mine = 0,
            theirs = 0; /* window_value[0] is 0; without branches, as the windows come in no order */
    for (int w = 0, nwin = s->threats.lines->nwin; w < nwin; w++) {
        int a = own[w], b = other[w];
        mine += b ? 0 : s->window_value[a];
        theirs += a ? 0 : s->window_value[b];
    }
    double score = GOMOKU_TEMPO * (double)mine - (double)theirs;
    return score > GOMOKU_EVAL_MAX    ? GOMOKU_EVAL_MAX
           : score < -GOMOKU_EVAL_MAX ? -GOMOKU_EVAL_MAX
                                      : (int)score;
}

static bool out_of_budget(gomoku_state *s)
{
    if (s->aborted)
        return true;
    if (s->node_limit && s->nodes >= s->node_limit)
        s->aborted = true;
    else if (s->deadline > 0 && s->nodes % GOMOKU_CLOCK_CHECK == 0 && ttt_clock_ms() >= s->deadline)
        s->aborted = true;
    return s->aborted;
}

/* Step 4: negamax with alpha-beta from the side to move `me`, `ply` plies below the root. */
static int search(gomoku_state *s, ttt_player me, int depth, int alpha, int beta, int ply)
{
    ttt_threats *t = &s->threats;
    ttt_player opp = (ttt_player)(1 - me);
    s->nodes++;
    int f[2];
    if (ttt_threats_fives(t, me, f, 1))
        return GOMOKU_WIN - ply;
    int nf = ttt_threats_fives(t, opp, f, 2);
    if (nf >= 2)
        return -(GOMOKU_WIN - ply - 1);
    if (t->stones == t->lines->cells)
        return 0;
    if (out_of_budget(s))
        return 0;
    if (nf == 1 && ply < GOMOKU_MAX_PLY) {
        gomoku_play(s, f[0], me);
        int v = -search(s, opp, depth, -beta, -alpha, ply + 1);
        gomoku_undo(s, f[0], me);
        return v;
    }
    if (depth <= 0 || ply >= GOMOKU_MAX_PLY) {
        if (s->leaf_vcf) {
            int line[TTT_MAX_CELLS], length;
            uint64_t before = t->nodes;
            ttt_threats_result r = ttt_threats_vcf(t, me, s->leaf_vcf, line, &length);
            s->nodes += t->nodes - before;
            if (r == TTT_THREATS_WIN)
                return GOMOKU_WIN - ply - length;
        }
        return evaluate(s, me);
    }

    tt_entry *slot = &s->tt[t->hash & (GOMOKU_TT_ENTRIES - 1)];
    uint64_t key = t->hash ^ (uint64_t)me;
    int tt_move = -1;
    if (slot->key == key) {
        tt_move = slot->move;
        if (slot->depth >= depth) {
            int v = slot->score;
            if (slot->flag == TT_EXACT || (slot->flag == TT_LOWER && v >= beta) ||
                (slot->flag == TT_UPPER && v <= alpha))
                return v;
        }
    }

    candidate moves[TTT_MAX_CELLS];
    uint8_t only[TTT_MAX_CELLS], *restrict_to = NULL;
    if (s->defend) { /* against a flex three, every move but its defences loses to the open four */
        int defence[TTT_MAX_CELLS], nd = ttt_threats_defences(t, opp, defence);
        if (nd > 0) {
            memset(only, 0, (size_t)t->lines->cells);
            for (int i = 0; i < nd; i++)
                only[defence[i]] = 1;
            restrict_to = only;
        }
    }
    int n = candidates(s, me, moves, GOMOKU_INNER_WIDTH, NULL, restrict_to);
    if (n == 0 && restrict_to)
        n = candidates(s, me, moves, GOMOKU_INNER_WIDTH, NULL, NULL);
    if (n == 0)
        return 0;
    if (moves[0].wins)
        return GOMOKU_WIN - ply - 2; /* the opponent has no five-cell (above) */
    for (int i = 1; tt_move >= 0 && i < n; i++)
        if (moves[i].cell == tt_move) {
            candidate c = moves[i];
            memmove(&moves[1], &moves[0], (size_t)i * sizeof *moves);
            moves[0] = c;
        }
    int best = -GOMOKU_WIN - 1, best_move = moves[0].cell, alpha0 = alpha;
    for (int i = 0; i < n; i++) {
        gomoku_play(s, moves[i].cell, me);
        int v = -search(s, opp, depth - 1, -beta, -alpha, ply + 1);
        gomoku_undo(s, moves[i].cell, me);
        if (s->aborted)
            return 0;
        if (v > best) {
            best = v;
            best_move = moves[i].cell;
        }
        if (v > alpha)
            alpha = v;
        if (alpha >= beta)
            break;
    }
    *slot = (tt_entry){.key = key,
                       .score = best,
                       .move = (int16_t)best_move,
                       .depth = (uint8_t)depth,
                       .flag = best <= alpha0 ? TT_UPPER
                               : best >= beta ? TT_LOWER
                                              : TT_EXACT};
    return best;
}

/* Does `who` (not necessarily to move in t) have a VCF within the budget? Unknown counts as no. */
static bool has_vcf(gomoku_state *s, ttt_engine *e, ttt_player who, uint64_t budget, int *first)
{
    if (budget == 0)
        return false;
    int line[TTT_MAX_CELLS], length;
    uint64_t before = s->threats.nodes;
    ttt_threats_result r = ttt_threats_vcf(&s->threats, who, budget, line, &length);
    e->nodes += s->threats.nodes - before;
    if (r == TTT_THREATS_WIN && first)
        *first = line[0];
    return r == TTT_THREATS_WIN;
}

/* Does `who` have a VCT within the budget (0: not searched)? Unknown counts as no. */
static bool has_vct(gomoku_state *s, ttt_engine *e, ttt_player who, uint64_t budget, int *first)
{
    const gomoku_config *c = e->config;
    if (budget == 0)
        return false;
    int move;
    uint64_t before = s->threats.nodes;
    ttt_threats_result r = ttt_threats_vct(&s->threats, who, (int)c->threes, budget, &move);
    e->nodes += s->threats.nodes - before;
    if (r == TTT_THREATS_WIN && first)
        *first = move;
    return r == TTT_THREATS_WIN;
}

static ttt_status gomoku_choose(ttt_engine *e, const ttt_board *b, ttt_move *out, ttt_search_info *info,
                                ttt_explanation *why, ttt_error *err)
{
    (void)why; /* no explanation of its decisions */
    const gomoku_config *c = e->config;
    gomoku_state *s = e->state;
    if (s->solver) {
        ttt_limits limits = {.nodes = c->nodes, .ms = (double)c->time_ms, .depth = (int)c->depth};
        ttt_search_result r;
        ttt_status st = ttt_solver_search(s->solver, b, &limits, false, &r, err);
        if (st)
            return st;
        e->nodes += r.nodes;
        info->depth = r.depth;
        *out = r.moves[ttt_rng_below(&e->rng, (uint32_t)r.best_count)].move;
        return TTT_OK;
    }
    ttt_threats *t = &s->threats;
    ttt_player me = ttt_board_to_move(b), opp = (ttt_player)(1 - me);
    gomoku_set(s, b);
    double start = ttt_clock_ms();
    s->nodes = 0;
    s->node_limit = c->nodes;
    s->leaf_vcf = c->leaf;
    s->defend = c->defend != 0;
    s->deadline = c->time_ms ? start + (double)c->time_ms : 0;
    s->aborted = false;
    info->depth = 0;

    /* Step 1. */
    int f[2];
    if (ttt_threats_fives(t, me, f, 1) || ttt_threats_fives(t, opp, f, 1)) {
        *out = f[0];
        e->nodes++;
        return TTT_OK;
    }
    /* Step 2. */
    int first;
    uint64_t vcf = c->vcf, vct = c->vct;
    if (c->time_ms) {
        uint64_t cap = c->time_ms * GOMOKU_THREAT_NODES_PER_MS;
        vcf = vcf < cap ? vcf : cap;
        vct = vct < cap ? vct : cap;
    }
    if (has_vcf(s, e, me, vcf, &first) || has_vct(s, e, me, vct, &first)) {
        *out = first;
        info->value_name = "forced win found";
        info->value = 1;
        return TTT_OK;
    }
    /* Step 3. */
    candidate moves[TTT_MAX_CELLS];
    int n = candidates(s, me, moves, TTT_MAX_CELLS, &e->rng, NULL);
    bool opp_vcf = n > 1 && has_vcf(s, e, opp, vcf, NULL);
    if (opp_vcf || (n > 1 && has_vct(s, e, opp, vct, NULL))) {
        int kept = 0;
        double until = c->time_ms ? start + GOMOKU_VCF_TIME_SHARE * (double)c->time_ms : 0;
        for (int i = 0; i < n && i < (int)c->width * 2 && (!until || ttt_clock_ms() < until); i++) {
            ttt_threats_play(t, moves[i].cell, me);
            bool refuted = opp_vcf ? has_vcf(s, e, opp, vcf, NULL) : has_vct(s, e, opp, vct, NULL);
            ttt_threats_undo(t, moves[i].cell, me);
            if (!refuted)
                moves[kept++] = moves[i];
        }
        if (kept)
            n = kept;
    }
    if (n > (int)c->width)
        n = (int)c->width;

    /* Step 4. */
    int best = moves[0].cell, best_score = 0, depth_limit = c->depth ? (int)c->depth : GOMOKU_MAX_DEPTH;
    for (int depth = 1; depth <= depth_limit && n > 1; depth++) {
        int alpha = -GOMOKU_WIN - 1, iter_best = moves[0].cell, iter_index = 0;
        for (int i = 0; i < n; i++) {
            gomoku_play(s, moves[i].cell, me);
            int v = -search(s, opp, depth - 1, -GOMOKU_WIN - 1, -alpha, 1);
            gomoku_undo(s, moves[i].cell, me);
            if (s->aborted)
                break;
            if (v > alpha) {
                alpha = v;
                iter_best = moves[i].cell;
                iter_index = i;
            }
        }
        if (s->aborted)
            break;
        best = iter_best;
        best_score = alpha;
        info->depth = depth;
        /* the best first at the next depth */
        candidate top = moves[iter_index];
        memmove(&moves[1], &moves[0], (size_t)iter_index * sizeof *moves);
        moves[0] = top;
        if (alpha > GOMOKU_WON || alpha < -GOMOKU_WON)
            break;
    }
    e->nodes += s->nodes;
    *out = best;
    info->value_name = "heuristic score";
    info->value = best_score;
    return TTT_OK;
}

const ttt_engine_vtable ttt_engine_gomoku = {
    .about = {.name = "gomoku",
              .summary = "gomoku (k >= 4, a line wins): VCF at the root, alpha-beta over threat-ordered "
                         "candidates"},
    .options = gomoku_options,
    .config_size = sizeof(gomoku_config),
    .config_defaults = &gomoku_defaults,
    .check = gomoku_check,
    .start = gomoku_start,
    .choose = gomoku_choose,
    .new_game = gomoku_new_game,
    .stop = gomoku_stop,
};
