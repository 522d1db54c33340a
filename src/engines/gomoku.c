/*
 * engines/gomoku.c - the `gomoku` engine: principal variation search over pattern-ordered candidates with VCF
 * at its leaves and VCF/VCT at the root, for k-in-a-row games where a line wins and k >= 4 (gomoku: 15x15, five
 * or more).
 *
 * One decision:
 *   Step 1. Win now, else block the opponent's only five-cell (two of them: the game is lost; block one).
 *   Step 2. Our own VCF (search/threats.h), then VCT: with tvct=1 the patterns' (search/patterns.h: exact
 *           defence sets, a table kept across the game's moves, a clock deadline), else the windows', within
 *           their budgets: play its first move.
 *   Step 3. The candidates: empty cells within GOMOKU_NEAR of a stone, each scored by its line patterns
 *           (search/patterns.h) for us (attack) and for the opponent (defence), best first, ties in an order
 *           drawn from the engine's generator. When the opponent has a VCF (or VCT) now, the candidates after
 *           which it still has one (same budget) are dropped, unless that drops them all; those the clock
 *           leaves unchecked are kept after the ones that passed. With tvct=1 the threat searches of Steps 2
 *           and 3 share `tshare` percent of the move's time.
 *   Step 4. Iterative deepening of a principal variation search over the best `width` candidates (fewer
 *           deeper down), each depth in an aspiration window around the last one's score, until the time,
 *           node or depth budget is spent or the result is proven; no new depth starts after
 *           GOMOKU_NEW_DEPTH_SHARE of the time, and a root move that beat the last depth's best in a depth
 *           the time cut short is played. The node search's steps are numbered in `search`: mate
 *           distance pruning, forced blocks (not counted as depth), defence-restricted moves against a flex
 *           three, a transposition table kept across the game's moves, killer and history ordering,
 *           late-move reductions (lmr=1), null-move pruning (null=1), threat extensions (ext=1), and a VCF
 *           at each leaf before the static score.
 *
 * The engine keeps for the game a threats context (window counts, VCF table), the line patterns, and its
 * transposition table. Where threats mean nothing (k < 4, or a line loses: misère) it plays the solver's move
 * instead, as minimax does with the same budget, so that it can be made on every board.
 */
#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine_impl.h"
#include "search/patterns.h"
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
/* A win the patterns' leaf VCF finds counts as this many plies away (it does not give its length). */
#define GOMOKU_LEAF_VCF_PLIES 9
/* Candidates searched at the root; inner nodes get GOMOKU_INNER_WIDTH (the best by the shape scores). */
#define GOMOKU_DEFAULT_WIDTH 16
#define GOMOKU_INNER_WIDTH   10
#define GOMOKU_MAX_WIDTH     TTT_MAX_CELLS
/* Candidates are empty cells within this king distance of a stone. */
#define GOMOKU_NEAR       2
#define GOMOKU_NEAR_CELLS ((2 * GOMOKU_NEAR + 1) * (2 * GOMOKU_NEAR + 1))
/* Forced blocks are not counted as depth, up to this many plies from the root. */
#define GOMOKU_MAX_PLY 96
/* The combinations of four directions' patterns. */
#define GOMOKU_PATTERN_SETS (TTT_PAT_KINDS * TTT_PAT_KINDS * TTT_PAT_KINDS * TTT_PAT_KINDS)
/* Words of a bit set over the windows. */
#define GOMOKU_QUAD_WORDS ((TTT_THREATS_MAX_WINDOWS + 63) / 64)
/* Transposition table entries (a power of two, 16 bytes each: 16 MiB). */
#define GOMOKU_TT_ENTRIES (1 << 20)
/* The solver's table where the threats do not apply (small boards: minimax's default is enough). */
#define GOMOKU_SOLVER_TT_MIB 16
/* With a time budget, each windows' threat search at the root (tvct=0, and the VCFs) gets at most this many
 * nodes per millisecond of the move's time: about a fifth of the move at their 1,200 nodes a CPU millisecond
 * (bench/gomoku/vct.sh; 50 left 15,000 nodes at 0.3 s). The patterns' VCT reads the clock instead. */
#define GOMOKU_THREAT_NODES_PER_MS 250
/* The patterns' VCT (tvct=1): its table's entries (16 bytes each: 16 MiB), and by default the percentage of
 * the move's time the root's threat searches (ours, the opponent's now and after each candidate) may use.
 * The wins that beat the engine are mostly beyond these searches (0 of 13 at a million nodes), and the time
 * is worth more to the alpha-beta: 20 with share=85 beat 40 with share=65 22-18 in self-play at 300 ms
 * (bench/gomoku/HISTORY.md). */
#define GOMOKU_VCT_ENTRIES  (1 << 20)
#define GOMOKU_THREAT_SHARE 20
/* The root's VCF checks of the candidates stop once this share of the move's time is gone. */
#define GOMOKU_VCF_TIME_SHARE 0.3
/* The clock is read every this many nodes. */
#define GOMOKU_CLOCK_CHECK 256
/* Scores: a win in p plies is GOMOKU_WIN - p; anything above GOMOKU_WON is a proven win. */
#define GOMOKU_WIN      10000000
#define GOMOKU_WON      (GOMOKU_WIN - 1000)
#define GOMOKU_EVAL_MAX (GOMOKU_WON / 2)
/* Candidate scores of a cell by its class (attack: our stone there; defence: the opponent's), and a little
 * more for each direction's pattern, so that equal classes prefer the cell that builds in more lines. */
static const int CLASS_SCORE[TTT_CLASS_KINDS] = {
    [TTT_CLASS_NONE] = 0,           [TTT_CLASS_TWO] = 20,         [TTT_CLASS_TWO_2X] = 120,
    [TTT_CLASS_THREE] = 150,        [TTT_CLASS_THREE_2X] = 400,   [TTT_CLASS_FLEX3] = 1000,
    [TTT_CLASS_FOUR] = 1500,        [TTT_CLASS_FLEX3_2X] = 20000, [TTT_CLASS_FOUR_THREE] = 3000,
    [TTT_CLASS_FOUR_FLEX3] = 50000, [TTT_CLASS_FLEX4] = 100000,   [TTT_CLASS_FIVE] = 1000000,
};
static const int PAT_SCORE[TTT_PAT_KINDS] = {
    [TTT_PAT_TWO] = 4,   [TTT_PAT_FLEX2] = 10, [TTT_PAT_THREE] = 12, [TTT_PAT_FLEX3] = 30,
    [TTT_PAT_FOUR] = 30, [TTT_PAT_FLEX4] = 60, [TTT_PAT_FIVE] = 100,
};
/* Defence counts this share of the same shape for the opponent (the mover's own threat comes first). */
#define GOMOKU_DEFENCE_SHARE 0.9
/* A killer move (a cutoff at the same ply) ranks with this score, just below a flex three; the history
 * counters (cutoffs weighted by depth squared) add at most GOMOKU_HISTORY_MAX. */
#define GOMOKU_KILLER_SCORE 900
#define GOMOKU_HISTORY_MAX  100
/* Leaf evaluation: each (empty cell, direction) pattern of a side is worth PAT_EVAL, each class of a cell
 * CLASS_EVAL more (the forks); the side to move's count GOMOKU_TEMPO times (it moves next). */
static const int PAT_EVAL[TTT_PAT_KINDS] = {
    [TTT_PAT_TWO] = 2,   [TTT_PAT_FLEX2] = 6,  [TTT_PAT_THREE] = 8,  [TTT_PAT_FLEX3] = 24,
    [TTT_PAT_FOUR] = 20, [TTT_PAT_FLEX4] = 80, [TTT_PAT_FIVE] = 200,
};
static const int CLASS_EVAL[TTT_CLASS_KINDS] = {
    [TTT_CLASS_THREE_2X] = 10,
    [TTT_CLASS_FOUR_THREE] = 30,
    [TTT_CLASS_FLEX3_2X] = 150,
    [TTT_CLASS_FOUR_FLEX3] = 200,
};
#define GOMOKU_TEMPO 1.5
/* The windows' part of the leaf score (eval=0 and 2): a window with n of one side's stones and none of the
 * other's is worth window_value[n], growing by this factor per stone, over at most GOMOKU_WINDOW_LEVELS stones
 * below k (the emptier windows of a longer k all count 1): 8 to the k-1 leaves an int from k = 11. */
#define GOMOKU_WINDOW_BASE   8
#define GOMOKU_WINDOW_LEVELS 8
/* What the leaves are scored by (eval=): the windows, the patterns, or both. */
enum { EVAL_WINDOWS = 0, EVAL_PATTERNS, EVAL_BOTH, EVAL_KINDS };
/* Late-move reductions: from this depth, the moves after the first GOMOKU_LMR_MOVES of a node that make no
 * four or flex three are searched one ply shallower (two from GOMOKU_LMR_DEEP on), with a null window; a
 * move that beats alpha is searched again at full depth. */
#define GOMOKU_LMR_DEPTH 3
#define GOMOKU_LMR_MOVES 3
#define GOMOKU_LMR_DEEP  8
/* Null move (null=1): from this depth, searched this many plies shallower (one more from GOMOKU_NULL_DEEP). */
#define GOMOKU_NULL_DEPTH     3
#define GOMOKU_NULL_REDUCTION 2
#define GOMOKU_NULL_DEEP      7
/* Threat extensions (ext=1) only up to this many times the iteration's depth from the root. */
#define GOMOKU_EXT_PLIES 2
/* The first aspiration window around the last depth's score, widened this many times its size on a fail. */
#define GOMOKU_ASPIRATION        60
#define GOMOKU_ASPIRATION_GROWTH 4
/* A new depth starts only before this percentage of the move's time is spent: the next one takes longer than
 * all before it, and of one the time cuts short only a root move that beat the last best is kept. 65 with
 * that move kept beat 45 without it 26-14 at 200 ms a move; 85 (with the threat searches' share at 20) beat
 * 65 22-18 at 300 ms (bench/gomoku/HISTORY.md). */
#define GOMOKU_NEW_DEPTH_SHARE 85

typedef struct gomoku_config {
    uint64_t time_ms; /* 0 = no limit */
    uint64_t nodes;   /* 0 = no limit */
    uint64_t depth;   /* 0 = up to GOMOKU_MAX_DEPTH */
    uint64_t width;
    uint64_t vcf;     /* 0 = no VCF search */
    uint64_t vct;     /* 0 = no VCT search */
    uint64_t leaf;    /* VCF nodes at each leaf, 0 = none */
    uint64_t threes;  /* three moves a VCT may use on one line of play */
    uint64_t defend;  /* 1 = against a flex three, only the defences are searched */
    uint64_t lmr;     /* 1 = late-move reductions */
    uint64_t eval;    /* EVAL_* */
    uint64_t inner;   /* candidates searched at an inner node */
    uint64_t null;    /* 1 = null-move pruning */
    uint64_t ext;     /* 1 = threat extensions */
    uint64_t share;   /* no new depth after this percentage of the move's time */
    uint64_t partial; /* 1 = a move that beat the last best in an unfinished depth is played */
    uint64_t tvct; /* 1 = the root's VCTs are the patterns' (exact defences, table kept), 0 = the windows' */
    uint64_t tshare; /* percentage of the move's time the root's threat searches may use together */
    uint64_t leafp;  /* 1 = the leaves' VCF is the patterns' (ttt_patterns_vct with no threes) */
    uint64_t scan;   /* 1 = the leaves' VCF and the defence sets scan every window (the threats module's) */
} gomoku_config;

static const gomoku_config gomoku_defaults = {.time_ms = GOMOKU_DEFAULT_TIME_MS,
                                              .nodes = 0,
                                              .depth = 0,
                                              .width = GOMOKU_DEFAULT_WIDTH,
                                              .vcf = GOMOKU_DEFAULT_VCF,
                                              .vct = GOMOKU_DEFAULT_VCT,
                                              .leaf = GOMOKU_DEFAULT_LEAF_VCF,
                                              .threes = GOMOKU_VCT_THREES,
                                              .defend = 1,
                                              .lmr = 0,
                                              .eval = EVAL_BOTH,
                                              .inner = GOMOKU_INNER_WIDTH,
                                              .null = 0,
                                              .ext = 0,
                                              .share = GOMOKU_NEW_DEPTH_SHARE,
                                              .partial = 1,
                                              .tvct = 1,
                                              .tshare = GOMOKU_THREAT_SHARE,
                                              .leafp = 0,
                                              .scan = 0};

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
    {"lmr", TTT_OPT_UINT, offsetof(gomoku_config, lmr), 0, 1, 0, 0, .arg = "0|1",
     .help = "late-move reductions: quiet late moves searched a ply shallower first"},
    {"eval", TTT_OPT_UINT, offsetof(gomoku_config, eval), 0, EVAL_KINDS - 1, 0, 0, .arg = "0|1|2",
     .help = "leaf score: 0 open windows, 1 line patterns, 2 both"},
    {"inner", TTT_OPT_UINT, offsetof(gomoku_config, inner), 1, GOMOKU_MAX_WIDTH, 0, 0, .arg = "N",
     .help = "candidates searched at an inner node"},
    {"null", TTT_OPT_UINT, offsetof(gomoku_config, null), 0, 1, 0, 0, .arg = "0|1",
     .help = "null-move pruning where the opponent has no winning fork or open three"},
    {"ext", TTT_OPT_UINT, offsetof(gomoku_config, ext), 0, 1, 0, 0, .arg = "0|1",
     .help = "threat extensions: a move that makes an open three or a four costs no depth"},
    {"share", TTT_OPT_UINT, offsetof(gomoku_config, share), 1, 100, 0, 0, .arg = "PERCENT",
     .help = "no new depth starts after this share of the move's time"},
    {"partial", TTT_OPT_UINT, offsetof(gomoku_config, partial), 0, 1, 0, 0, .arg = "0|1",
     .help = "play a move that beat the last depth's best in a depth the time cut short"},
    {"tvct", TTT_OPT_UINT, offsetof(gomoku_config, tvct), 0, 1, 0, 0, .arg = "0|1",
     .help = "root VCTs over the line patterns (exact defences, a table kept across moves)"},
    {"tshare", TTT_OPT_UINT, offsetof(gomoku_config, tshare), 1, 100, 0, 0, .arg = "PERCENT",
     .help = "share of the move's time the root's threat searches may use (tvct=1)"},
    {"leafp", TTT_OPT_UINT, offsetof(gomoku_config, leafp), 0, 1, 0, 0, .arg = "0|1",
     .help = "the leaves' VCF over the line patterns instead of the windows"},
    {"scan", TTT_OPT_UINT, offsetof(gomoku_config, scan), 0, 1, 0, 0, .arg = "0|1",
     .help = "the leaves' VCF and the defence sets scan every window (the same search, slower: a check)"},
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
} candidate;

typedef struct gomoku_state {
    ttt_solver *solver;          /* non-NULL where the threats do not apply */
    ttt_threats threats;         /* window counts, hash and the VCF/VCT searches */
    ttt_patterns *pat;           /* line patterns and cell classes, kept with the threats */
    uint8_t near[TTT_MAX_CELLS]; /* stones within GOMOKU_NEAR of each cell */
    int16_t near_cells[TTT_MAX_CELLS][GOMOKU_NEAR_CELLS]; /* the cells within GOMOKU_NEAR of each cell */
    uint8_t near_count[TTT_MAX_CELLS];
    tt_entry *tt; /* kept across the moves of a game */
    ttt_vct vct;  /* the patterns' VCT and its table, kept across the moves of a game */
    int killer[GOMOKU_MAX_PLY + 1][2];
    int history[2][TTT_MAX_CELLS];
    /* one search */
    uint64_t nodes, node_limit;
    uint64_t leaf_vcf; /* the config's leaf= */
    bool leafp;        /* the config's leafp= */
    bool scan;         /* the config's scan= */
    ttt_vct leaf;      /* the leaves' VCF over the patterns: the table is vct's */
    bool defend;       /* the config's defend= */
    bool lmr;          /* the config's lmr= */
    bool partial;      /* the config's partial= */
    int inner;         /* the config's inner= */
    bool null;         /* the config's null= */
    bool ext;          /* the config's ext= */
    int root_depth;    /* the iteration's depth */
    int eval;          /* the config's eval= */
    int64_t window_value[TTT_MAX_SIDE + 1];
    int64_t open_value[2]; /* each side's window_value over the windows free of the other side's stones */
    double deadline;       /* ttt_clock_ms() value; 0 = none */
    bool aborted;
    /* The windows holding k-2 of a side's stones and none of the other's (each of their empty cells makes a
     * four), as bits at their place in the geometry's dir_win order, kept by play and undo: the leaves' VCF
     * starts from them instead of scanning every window, in the order the threats module's VCF tries them. */
    uint64_t quad[2][GOMOKU_QUAD_WORDS];
    int16_t rank[TTT_THREATS_MAX_WINDOWS];  /* a window's place in dir_win */
    uint32_t seen[TTT_MAX_CELLS], stamp;    /* a cell is in the leaf VCF node's moves when seen == stamp */
    uint64_t zobrist[2][TTT_MAX_CELLS];     /* ttt_zobrist_key of each side and cell */
    int attack_score[GOMOKU_PATTERN_SETS];  /* a candidate's score for the mover, by patterns_index */
    int defence_score[GOMOKU_PATTERN_SETS]; /* and for the opponent's patterns on it */
} gomoku_state;

/* The index of four directions' patterns in the score tables. */
static inline int patterns_index(const uint8_t pat[TTT_DIRECTIONS])
{
    return pat[0] + TTT_PAT_KINDS * (pat[1] + TTT_PAT_KINDS * (pat[2] + TTT_PAT_KINDS * pat[3]));
}

/* A cell's candidate scores by its four patterns, once: for the mover (its class, which the patterns give,
 * and each direction's pattern), and as a defence (GOMOKU_DEFENCE_SHARE of that). */
static void score_tables(gomoku_state *s)
{
    for (int i = 0; i < GOMOKU_PATTERN_SETS; i++) {
        uint8_t pat[TTT_DIRECTIONS];
        for (int d = 0, rest = i; d < TTT_DIRECTIONS; d++, rest /= TTT_PAT_KINDS)
            pat[d] = (uint8_t)(rest % TTT_PAT_KINDS);
        assert(patterns_index(pat) == i);
        int v = CLASS_SCORE[ttt_patterns_class_of(pat)] + PAT_SCORE[pat[0]] + PAT_SCORE[pat[1]] +
                PAT_SCORE[pat[2]] + PAT_SCORE[pat[3]];
        s->attack_score[i] = v;
        s->defence_score[i] = (int)(GOMOKU_DEFENCE_SHARE * v);
    }
}

/* The cells within GOMOKU_NEAR of each cell, once for the game's board. */
static void find_near(gomoku_state *s)
{
    const ttt_lines *l = s->threats.lines;
    for (int cell = 0; cell < l->cells; cell++) {
        int row = cell / l->cols, col = cell % l->cols, n = 0;
        for (int dr = -GOMOKU_NEAR; dr <= GOMOKU_NEAR; dr++)
            for (int dc = -GOMOKU_NEAR; dc <= GOMOKU_NEAR; dc++) {
                int r2 = row + dr, c2 = col + dc;
                if (r2 >= 0 && r2 < l->rows && c2 >= 0 && c2 < l->cols)
                    s->near_cells[cell][n++] = (int16_t)(r2 * l->cols + c2);
            }
        s->near_count[cell] = (uint8_t)n;
    }
}

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
    s->pat = malloc(sizeof *s->pat);
    s->vct.table = calloc(GOMOKU_VCT_ENTRIES, sizeof *s->vct.table);
    s->vct.entries = GOMOKU_VCT_ENTRIES;
    ttt_status st = tt && s->pat && s->vct.table ? ttt_lines_new(r, &lines, err) : TTT_ENOMEM;
    if (st) {
        free(s->vct.table);
        free(tt);
        free(s->pat);
        free(s);
        return st == TTT_ENOMEM ? ttt_fail(err, TTT_ENOMEM, "engine 'gomoku': out of memory") : st;
    }
    ttt_threats_init(&s->threats, lines);
    ttt_patterns_init(s->pat, lines);
    ttt_lines_unref(lines); /* the threats and the patterns hold it */
    if (!ttt_patterns_reserve(s->pat)) {
        ttt_threats_done(&s->threats);
        ttt_patterns_done(s->pat);
        free(s->vct.table);
        free(tt);
        free(s->pat);
        free(s);
        return ttt_fail(err, TTT_ENOMEM, "engine 'gomoku': out of memory");
    }
    s->tt = tt;
    for (int i = 0; i < s->threats.lines->nwin; i++)
        s->rank[s->threats.lines->dir_win[i]] = (int16_t)i;
    for (int c = 0; c < s->threats.lines->cells; c++)
        for (int p = 0; p < 2; p++)
            s->zobrist[p][c] = ttt_zobrist_key((ttt_player)p, c);
    find_near(s);
    score_tables(s);
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
    if (!s->solver) {
        ttt_threats_done(&s->threats);
        ttt_patterns_done(s->pat);
    }
    free(s->pat);
    free(s->tt);
    free(s->vct.table);
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
    memset(s->vct.table, 0, GOMOKU_VCT_ENTRIES * sizeof *s->vct.table);
    memset(s->history, 0, sizeof s->history);
    ttt_threats_clear(&s->threats);
}

static void add_near(gomoku_state *s, int cell, int delta)
{
    const int16_t *cells = s->near_cells[cell];
    for (int i = 0; i < s->near_count[cell]; i++)
        s->near[cells[i]] = (uint8_t)(s->near[cells[i]] + delta);
}

/* The position of b in the threats, the patterns and the near counts. */
static void gomoku_set(gomoku_state *s, const ttt_board *b)
{
    ttt_threats *t = &s->threats;
    ttt_threats_set(t, b);
    ttt_patterns_set(s->pat, b);
    s->open_value[0] = s->open_value[1] = 0;
    for (int w = 0; w < t->lines->nwin; w++)
        for (int p = 0; p < 2; p++)
            s->open_value[p] += t->count[1 - p][w] ? 0 : s->window_value[t->count[p][w]];
    memset(s->near, 0, sizeof s->near);
    for (int c = 0; c < t->lines->cells; c++)
        if (t->at[c] != TTT_NOBODY)
            add_near(s, c, 1);
    memset(s->quad, 0, sizeof s->quad);
    int k2 = t->lines->k - 2;
    for (int w = 0; w < t->lines->nwin; w++)
        for (int p = 0; p < 2; p++)
            if (t->count[p][w] == k2 && t->count[1 - p][w] == 0)
                s->quad[p][s->rank[w] >> 6] |= UINT64_C(1) << (s->rank[w] & 63);
}

/* Puts who's stone on cell (sign 1) or takes it back (-1) in the window counts, in one pass over the windows
 * through it: as ttt_threats_play and ttt_threats_undo do (the counts, the fours, the cell, the stones, the
 * hash), and with them open_value and the quad bits. */
static void windows_change(gomoku_state *s, int cell, ttt_player who, int sign)
{
    ttt_threats *t = &s->threats;
    ttt_player other = (ttt_player)(1 - who);
    uint8_t *mine = t->count[who], *theirs = t->count[other];
    int nwin, k = t->lines->k, added = sign > 0;
    int64_t own_value = 0, other_value = 0;
    const int16_t *through = ttt_lines_through(t->lines, cell, &nwin);
    for (int i = 0; i < nwin; i++) {
        int w = through[i], a = mine[w] - !added, b = theirs[w]; /* a: who's stones without this one */
        mine[w] = (uint8_t)(a + added);
        /* a quad bit flips only where a window free of the other side holds k-2 of who's stones with this one
         * or without it, or where this is who's only stone in a window of k-2 of the other side's */
        if (b == 0) {
            own_value += s->window_value[a + 1] - s->window_value[a];
            t->fours[who] += sign * ((a + 1 == k - 1) - (a == k - 1));
            if (a == k - 2 || a + 1 == k - 2)
                s->quad[who][s->rank[w] >> 6] ^= UINT64_C(1) << (s->rank[w] & 63);
        }
        if (a == 0) {
            other_value += s->window_value[b];
            t->fours[other] -= sign * (b == k - 1);
            if (b == k - 2)
                s->quad[other][s->rank[w] >> 6] ^= UINT64_C(1) << (s->rank[w] & 63);
        }
    }
    s->open_value[who] += sign * own_value;
    s->open_value[other] -= sign * other_value;
    t->at[cell] = added ? (uint8_t)who : TTT_NOBODY;
    t->stones += sign;
    t->hash ^= s->zobrist[who][cell];
}

static void gomoku_play(gomoku_state *s, int cell, ttt_player who)
{
    assert(s->threats.at[cell] == TTT_NOBODY);
    windows_change(s, cell, who, 1);
    ttt_patterns_play(s->pat, cell, who);
    add_near(s, cell, 1);
}

static void gomoku_undo(gomoku_state *s, int cell, ttt_player who)
{
    assert(s->threats.at[cell] == who);
    add_near(s, cell, -1);
    ttt_patterns_undo(s->pat, cell, who);
    windows_change(s, cell, who, -1);
}

/* The empty cells of `set` (the patterns' cell sets), up to max, in increasing order; returns how many. */
static int cells_of(const ttt_bits *set, int words, int *out, int max)
{
    int n = 0;
    for (int i = 0; i < words && n < max; i++)
        for (uint64_t w = set->w[i]; w && n < max; w &= w - 1)
            out[n++] = i * 64 + __builtin_ctzll(w);
    return n;
}

static int compare_candidates(const candidate *x, const candidate *y)
{
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    if (x->tie != y->tie)
        return x->tie < y->tie ? -1 : 1;
    return x->cell - y->cell;
}

/* Step 3: the best `limit` empty cells near a stone (the centre on an empty board), scored and sorted, best
 * first (insertion into the kept ones: cheaper than sorting them all when limit is small); `only`, when
 * given, marks the cells allowed. Killers and history rank a cell higher below the root (ply >= 0). */
static int candidates(gomoku_state *s, ttt_player me, candidate *out, int limit, ttt_rng *rng,
                      const uint8_t *only, int ply)
{
    const ttt_patterns *p = s->pat;
    const ttt_lines *l = s->threats.lines;
    int n = 0;
    if (p->stones == 0) {
        out[0] = (candidate){.cell = (l->rows / 2) * l->cols + l->cols / 2};
        return 1;
    }
    ttt_player opp = (ttt_player)(1 - me);
    for (int c = 0; c < l->cells; c++) {
        if (!s->near[c] || p->at[c] != TTT_NOBODY || (only && !only[c]))
            continue;
        int score =
            s->attack_score[patterns_index(p->pat[me][c])] + s->defence_score[patterns_index(p->pat[opp][c])];
        if (ply >= 0) {
            if (c == s->killer[ply][0] || c == s->killer[ply][1])
                score += GOMOKU_KILLER_SCORE;
            int h = s->history[me][c];
            score += h < GOMOKU_HISTORY_MAX ? h : GOMOKU_HISTORY_MAX;
        }
        candidate x = {.cell = c, .score = score, .tie = rng ? ttt_rng_next(rng) >> 32 : 0};
        if (n == limit && compare_candidates(&x, &out[n - 1]) >= 0)
            continue;
        int i = n < limit ? n++ : n - 1;
        for (; i > 0 && compare_candidates(&x, &out[i - 1]) < 0; i--)
            out[i] = out[i - 1];
        out[i] = x;
    }
    return n;
}

/* The leaf score for the side to move from the patterns of the empty cells: its own against the opponent's. */
static int evaluate(const gomoku_state *s, ttt_player me)
{
    const ttt_patterns *p = s->pat;
    int64_t side[2] = {0, 0};
    if (s->eval != EVAL_WINDOWS)
        for (int who = 0; who < 2; who++) {
            for (int k = TTT_PAT_TWO; k < TTT_PAT_KINDS; k++)
                side[who] += PAT_EVAL[k] * p->pat_count[who][k];
            for (int k = TTT_CLASS_THREE_2X; k < TTT_CLASS_KINDS; k++)
                side[who] += CLASS_EVAL[k] * p->count[who][k];
        }
    if (s->eval != EVAL_PATTERNS) {
        side[0] += s->open_value[0];
        side[1] += s->open_value[1];
    }
    double score = GOMOKU_TEMPO * (double)side[me] - (double)side[1 - me];
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

/* Can `who` make a four (has it a cell of class four or better)? */
static bool has_four_move(const ttt_patterns *p, ttt_player who)
{
    for (int k = TTT_CLASS_FOUR; k < TTT_CLASS_KINDS; k++)
        if (p->count[who][k])
            return true;
    return false;
}

/* Has `who` an open three (a cell that makes an open four) or a fork that wins by itself? */
static bool opp_forks(const ttt_patterns *p, ttt_player who)
{
    return p->count[who][TTT_CLASS_FLEX3_2X] || p->count[who][TTT_CLASS_FOUR_FLEX3] ||
           p->count[who][TTT_CLASS_FLEX4] || p->count[who][TTT_CLASS_FIVE];
}

/* The leaves' VCF: the threats module's search (threats.h, ttt_threats_vcf; the same moves in the same
 * order, the same table of failed positions, the same node count), with the attacker's four moves read from
 * the windows of k-2 it keeps (a list at each node, from its parent's and the windows through the attacker's
 * last stone: only those can have joined) instead of a scan of every window. */
typedef struct leaf_search {
    uint64_t budget; /* 0 = none */
    uint64_t nodes;
    int length; /* of the winning line, on a win */
} leaf_search;

/* Puts who's stone on the empty cell in the leaves' VCF: the cell, the hash and the window counts only (the
 * VCF reads nothing else, and what it leaves alone is as it was when the VCF ends, every stone taken back).
 * Returns the distinct cells where who now completes a line in the windows through cell: how many (up to 2),
 * the first in f[0] and the second in f[1]. */
static int vcf_play(gomoku_state *s, int cell, ttt_player who, int *f)
{
    ttt_threats *t = &s->threats;
    const ttt_lines *l = t->lines;
    uint8_t *mine = t->count[who], *theirs = t->count[1 - who];
    int nwin, n = 0;
    t->at[cell] = (uint8_t)who;
    t->hash ^= s->zobrist[who][cell];
    const int16_t *through = ttt_lines_through(l, cell, &nwin);
    for (int i = 0; i < nwin; i++) {
        int w = through[i];
        if (++mine[w] != l->k - 1 || theirs[w] || n == 2)
            continue;
        const int16_t *cells = ttt_lines_cells(l, w);
        int c = cells[0];
        for (int j = 1; t->at[c] != TTT_NOBODY; j++)
            c = cells[j];
        if (n == 0 || f[0] != c)
            f[n++] = c;
    }
    return n;
}

/* Takes back vcf_play's stone. */
static void vcf_undo(gomoku_state *s, int cell, ttt_player who)
{
    ttt_threats *t = &s->threats;
    uint8_t *mine = t->count[who];
    int nwin;
    t->at[cell] = TTT_NOBODY;
    t->hash ^= s->zobrist[who][cell];
    const int16_t *through = ttt_lines_through(t->lines, cell, &nwin);
    for (int i = 0; i < nwin; i++)
        mine[through[i]]--;
}

/* The windows of up[0..nup) (in dir_win order) that still hold k-2 of a's stones and none of the other's,
 * with those through a's stone on `last` (-1: none) that now do, in dir_win order, to out; returns how many. */
static int quad_windows(const gomoku_state *s, ttt_player a, const int16_t *up, int nup, int last,
                        int16_t *out)
{
    const ttt_threats *t = &s->threats;
    const uint8_t *mine = t->count[a], *theirs = t->count[1 - a];
    int k2 = t->lines->k - 2, n = 0;
    for (int i = 0; i < nup; i++)
        if (mine[up[i]] == k2 && theirs[up[i]] == 0)
            out[n++] = up[i];
    if (last < 0)
        return n;
    int nwin;
    const int16_t *through = ttt_lines_through(t->lines, last, &nwin);
    for (int i = 0; i < nwin; i++) {
        int w = through[i], j = n++;
        if (mine[w] != k2 || theirs[w]) {
            n--;
            continue;
        }
        for (; j > 0 && s->rank[out[j - 1]] > s->rank[w]; j--)
            out[j] = out[j - 1];
        out[j] = (int16_t)w;
    }
    return n;
}

/* The VCF node of attacker a to move, a with no five-cell; `forced` is the defender's one five-cell or -1.
 * up[0..nup) are the parent node's windows of k-2 (the root's: every one), `last` a's stone since (-1: none).
 * `ply` is where a's move goes in the line. */
static ttt_threats_result leaf_vcf(gomoku_state *s, ttt_player a, int forced, const int16_t *up, int nup,
                                   int last, leaf_search *ls, int ply)
{
    ttt_threats *t = &s->threats;
    const ttt_lines *l = t->lines;
    ttt_player d = (ttt_player)(1 - a);
    if (ls->budget && ls->nodes >= ls->budget)
        return TTT_THREATS_UNKNOWN;
    ls->nodes++;
    uint64_t key = ttt_threats_vcf_key(t, a), *slot = &t->failed[key & (TTT_THREATS_TABLE_SIZE - 1)];
    if (*slot == key)
        return TTT_THREATS_NONE;
    int16_t windows[TTT_THREATS_MAX_WINDOWS], moves[TTT_MAX_CELLS];
    int nw = quad_windows(s, a, up, nup, last, windows), n = 0;
    if (forced >= 0) {
        moves[n++] = (int16_t)forced;
    } else {
        if (++s->stamp == 0) { /* wrapped: no stale mark may match */
            memset(s->seen, 0, sizeof s->seen);
            s->stamp = 1;
        }
        for (int i = 0; i < nw; i++) {
            const int16_t *cells = ttt_lines_cells(l, windows[i]);
            for (int j = 0; j < l->k; j++) {
                int c = cells[j];
                if (t->at[c] == TTT_NOBODY && s->seen[c] != s->stamp) {
                    s->seen[c] = s->stamp;
                    moves[n++] = (int16_t)c;
                }
            }
        }
    }
    bool unknown = false;
    for (int i = 0; i < n; i++) {
        int m = moves[i], f[2], g[2];
        int nf = vcf_play(s, m, a, f);
        ttt_threats_result r = TTT_THREATS_NONE;
        if (nf >= 2) {
            ls->length = ply + 3;
            r = TTT_THREATS_WIN;
        } else if (nf == 1) {
            /* the defender's forced block, and what it threatens */
            int ng = vcf_play(s, f[0], d, g);
            if (ng < 2)
                r = leaf_vcf(s, a, ng == 1 ? g[0] : -1, windows, nw, m, ls, ply + 2);
            vcf_undo(s, f[0], d);
        }
        vcf_undo(s, m, a);
        if (r == TTT_THREATS_WIN)
            return r;
        unknown |= r == TTT_THREATS_UNKNOWN;
    }
    if (!unknown)
        *slot = key;
    return unknown ? TTT_THREATS_UNKNOWN : TTT_THREATS_NONE;
}

/* The windows of the quad bits of a, in dir_win order, to out; returns how many. */
static int quad_list(const gomoku_state *s, ttt_player a, int16_t *out)
{
    const ttt_lines *l = s->threats.lines;
    int n = 0;
    for (int i = 0; i < (l->nwin + 63) / 64; i++)
        for (uint64_t w = s->quad[a][i]; w; w &= w - 1)
            out[n++] = l->dir_win[i * 64 + __builtin_ctzll(w)];
    return n;
}

/* The moves that can stop attacker a's FLEX4 cells (a stone there leaves two five-cells; a has some and
 * neither side a five-cell), marked in only (cells bytes): the empty cells of a's windows of k-2 through such
 * a cell, and the defender's four-making cells (the empty cells of its windows of k-2). Every other move loses
 * to the open four: the set of ttt_threats_defences, read from the quad bits and the patterns' FLEX4 cells
 * instead of a scan of every window. Returns how many. */
static int defence_marks(const gomoku_state *s, ttt_player a, uint8_t *only)
{
    const ttt_threats *t = &s->threats;
    const ttt_lines *l = t->lines;
    const ttt_bits *flex4 = &s->pat->flex4[a];
    int n = 0;
    memset(only, 0, (size_t)l->cells);
    for (int side = 0; side < 2; side++)
        for (int i = 0; i < (l->nwin + 63) / 64; i++)
            for (uint64_t bits = s->quad[side][i]; bits; bits &= bits - 1) {
                const int16_t *cells = ttt_lines_cells(l, l->dir_win[i * 64 + __builtin_ctzll(bits)]);
                bool through = side != (int)a;
                for (int j = 0; j < l->k && !through; j++)
                    through = ttt_bits_test(flex4, cells[j]);
                for (int j = 0; j < l->k && through; j++)
                    if (t->at[cells[j]] == TTT_NOBODY && !only[cells[j]]) {
                        only[cells[j]] = 1;
                        n++;
                    }
            }
    return n;
}

/* Win scores are stored in the table as distances from the node, not from the root. */
static int score_to_tt(int v, int ply) { return v > GOMOKU_WON ? v + ply : v < -GOMOKU_WON ? v - ply : v; }
static int score_from_tt(int v, int ply) { return v > GOMOKU_WON ? v - ply : v < -GOMOKU_WON ? v + ply : v; }

/* Step 4: principal variation search from the side to move `me`, `ply` plies below the root (pv: a node of
 * the principal variation, searched with an open window). */
static int search(gomoku_state *s, ttt_player me, int depth, int alpha, int beta, int ply, bool pv)
{
    ttt_threats *t = &s->threats;
    const ttt_patterns *p = s->pat;
    const ttt_lines *l = t->lines;
    ttt_player opp = (ttt_player)(1 - me);
    s->nodes++;
    /* Step 4.1. A five-cell of ours wins; two of the opponent's lose; a full board is a draw. */
    if (p->count[me][TTT_CLASS_FIVE])
        return GOMOKU_WIN - ply;
    int f[2], nf = cells_of(&p->fives[opp], l->words, f, 2);
    if (nf >= 2)
        return -(GOMOKU_WIN - ply - 1);
    if (p->stones == l->cells)
        return 0;
    if (out_of_budget(s))
        return 0;
    /* Step 4.2. Mate distance: no line here beats a win already found nearer the root. */
    if (alpha < -(GOMOKU_WIN - ply))
        alpha = -(GOMOKU_WIN - ply);
    if (beta > GOMOKU_WIN - ply - 1)
        beta = GOMOKU_WIN - ply - 1;
    if (alpha >= beta)
        return alpha;
    /* Step 4.3. The opponent's one five-cell is our only move (not counted as depth). */
    if (nf == 1 && ply < GOMOKU_MAX_PLY) {
        gomoku_play(s, f[0], me);
        int v = -search(s, opp, depth, -beta, -alpha, ply + 1, pv);
        gomoku_undo(s, f[0], me);
        return v;
    }
    /* Step 4.4. An open four or two fours of ours win: the opponent has no five-cell to answer with. */
    if (p->count[me][TTT_CLASS_FLEX4])
        return GOMOKU_WIN - ply - 2;
    /* Step 4.5. Leaves: a short VCF (only where a four can be made), else the patterns' score. */
    if (depth <= 0 || ply >= GOMOKU_MAX_PLY) {
        if (s->leaf_vcf && s->leafp && has_four_move(p, me)) {
            s->leaf.budget = s->leaf_vcf;
            ttt_vct_result r = ttt_patterns_vct(s->pat, &s->leaf, me, 0, NULL);
            s->nodes += s->leaf.nodes;
            if (r == TTT_VCT_WIN)
                return GOMOKU_WIN - ply - GOMOKU_LEAF_VCF_PLIES;
        } else if (s->leaf_vcf && !s->scan && has_four_move(p, me)) {
            int16_t windows[TTT_THREATS_MAX_WINDOWS];
            leaf_search ls = {.budget = s->leaf_vcf};
            ttt_threats_result r =
                leaf_vcf(s, me, nf == 1 ? f[0] : -1, windows, quad_list(s, me, windows), -1, &ls, 0);
            s->nodes += ls.nodes;
            if (r == TTT_THREATS_WIN)
                return GOMOKU_WIN - ply - ls.length;
        } else if (s->leaf_vcf && has_four_move(p, me)) {
            int line[TTT_MAX_CELLS], length;
            uint64_t before = t->nodes;
            ttt_threats_result r = ttt_threats_vcf(t, me, s->leaf_vcf, line, &length);
            s->nodes += t->nodes - before;
            if (r == TTT_THREATS_WIN)
                return GOMOKU_WIN - ply - length;
        }
        return evaluate(s, me);
    }
    /* Step 4.6. The table: a cutoff off the principal variation, else its move first. */
    tt_entry *slot = &s->tt[t->hash & (GOMOKU_TT_ENTRIES - 1)];
    uint64_t key = t->hash ^ (uint64_t)me;
    int tt_move = -1;
    if (slot->key == key) {
        tt_move = slot->move;
        if (slot->depth >= depth && !pv) {
            int v = score_from_tt(slot->score, ply);
            if (slot->flag == TT_EXACT || (slot->flag == TT_LOWER && v >= beta) ||
                (slot->flag == TT_UPPER && v <= alpha))
                return v;
        }
    }
    /* Step 4.6b. Null move: off the principal variation, where the opponent has no open three and no
     * winning fork to play, a pass searched shallower that still fails high cuts the node. */
    if (s->null && !pv && depth >= GOMOKU_NULL_DEPTH && !opp_forks(p, opp) && evaluate(s, me) >= beta) {
        int r = GOMOKU_NULL_REDUCTION + (depth >= GOMOKU_NULL_DEEP);
        int v = -search(s, opp, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
        if (s->aborted)
            return 0;
        if (v >= beta)
            return v > GOMOKU_WON ? beta : v;
    }
    /* Step 4.7. The moves: against a flex three only its defences and our counter-fours (every other move
     * loses to the open four), else the best candidates. */
    candidate moves[TTT_MAX_CELLS];
    uint8_t only[TTT_MAX_CELLS], *restrict_to = NULL;
    bool forced = false;
    if (s->defend && p->count[opp][TTT_CLASS_FLEX4] && s->scan) {
        int defence[TTT_MAX_CELLS], nd = ttt_threats_defences(t, opp, defence);
        if (nd > 0) {
            memset(only, 0, (size_t)l->cells);
            for (int i = 0; i < nd; i++)
                only[defence[i]] = 1;
            restrict_to = only;
            forced = true;
        }
    } else if (s->defend && p->count[opp][TTT_CLASS_FLEX4] && defence_marks(s, opp, only) > 0) {
        restrict_to = only;
        forced = true;
    }
    int n = candidates(s, me, moves, s->inner, NULL, restrict_to, ply);
    if (n == 0 && restrict_to)
        n = candidates(s, me, moves, s->inner, NULL, NULL, ply);
    if (n == 0)
        return 0;
    for (int i = 1; tt_move >= 0 && i < n; i++)
        if (moves[i].cell == tt_move) {
            candidate c = moves[i];
            memmove(&moves[1], &moves[0], (size_t)i * sizeof *moves);
            moves[0] = c;
        }
    /* Step 4.8. The first move with the full window, the others with a null window (reduced when late and
     * quiet), searched again when they beat alpha. */
    int best = -GOMOKU_WIN - 1, best_move = moves[0].cell, alpha0 = alpha;
    for (int i = 0; i < n; i++) {
        int m = moves[i].cell, v;
        bool quiet = !forced && p->cls[me][m] < TTT_CLASS_FLEX3 && p->cls[opp][m] < TTT_CLASS_FLEX3;
        int d = depth - 1 +
                (s->ext && p->cls[me][m] >= TTT_CLASS_FLEX3 && ply < GOMOKU_EXT_PLIES * s->root_depth);
        gomoku_play(s, m, me);
        if (i == 0) {
            v = -search(s, opp, d, -beta, -alpha, ply + 1, pv);
        } else {
            int r = s->lmr && quiet && depth >= GOMOKU_LMR_DEPTH && i >= GOMOKU_LMR_MOVES
                        ? 1 + (depth >= GOMOKU_LMR_DEEP)
                        : 0;
            v = -search(s, opp, d - r, -alpha - 1, -alpha, ply + 1, false);
            if (v > alpha && r)
                v = -search(s, opp, d, -alpha - 1, -alpha, ply + 1, false);
            if (v > alpha && v < beta && pv)
                v = -search(s, opp, d, -beta, -alpha, ply + 1, true);
        }
        gomoku_undo(s, m, me);
        if (s->aborted)
            return 0;
        if (v > best) {
            best = v;
            best_move = m;
        }
        if (v > alpha)
            alpha = v;
        if (alpha >= beta) {
            if (quiet && s->killer[ply][0] != m) {
                s->killer[ply][1] = s->killer[ply][0];
                s->killer[ply][0] = m;
            }
            s->history[me][m] += depth * depth;
            break;
        }
    }
    *slot = (tt_entry){.key = key,
                       .score = score_to_tt(best, ply),
                       .move = (int16_t)best_move,
                       .depth = (uint8_t)depth,
                       .flag = best <= alpha0 ? TT_UPPER
                               : best >= beta ? TT_LOWER
                                              : TT_EXACT};
    return best;
}

/* One depth at the root over moves[0..n) within (alpha, beta): the first with the full window, the others
 * with a null window first. Returns the best score and its index in *index (-1 when aborted first); *raised
 * is the last move whose completed search beat alpha (-1: none), the one to play when the time runs out
 * during this depth: each beat all searched before it. */
static int search_root(gomoku_state *s, ttt_player me, candidate *moves, int n, int depth, int alpha,
                       int beta, int *index, int *raised)
{
    ttt_player opp = (ttt_player)(1 - me);
    int best = -GOMOKU_WIN - 1;
    *index = -1;
    *raised = -1;
    for (int i = 0; i < n; i++) {
        int v;
        gomoku_play(s, moves[i].cell, me);
        if (i == 0) {
            v = -search(s, opp, depth - 1, -beta, -alpha, 1, true);
        } else {
            v = -search(s, opp, depth - 1, -alpha - 1, -alpha, 1, false);
            if (v > alpha && v < beta)
                v = -search(s, opp, depth - 1, -beta, -alpha, 1, true);
        }
        gomoku_undo(s, moves[i].cell, me);
        if (s->aborted)
            break;
        if (v > best) {
            best = v;
            *index = i;
        }
        if (v > alpha) {
            alpha = v;
            *raised = i;
        }
        if (alpha >= beta)
            break;
    }
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

/* Does `who` have a VCT within the budget (0: not searched) and, with tvct=1, before `deadline` (0: none)?
 * Unknown counts as no. */
static bool has_vct(gomoku_state *s, ttt_engine *e, ttt_player who, uint64_t budget, double deadline,
                    int *first)
{
    const gomoku_config *c = e->config;
    if (budget == 0)
        return false;
    int move = -1;
    if (c->tvct) {
        s->vct.budget = budget;
        s->vct.deadline = deadline;
        ttt_vct_result r = ttt_patterns_vct(s->pat, &s->vct, who, (int)c->threes, &move);
        e->nodes += s->vct.nodes;
        if (r == TTT_VCT_WIN && first)
            *first = move;
        return r == TTT_VCT_WIN && move >= 0;
    }
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
    s->leafp = c->leafp != 0;
    s->scan = c->scan != 0;
    s->leaf.table = s->vct.table;
    s->leaf.entries = s->vct.entries;
    s->leaf.deadline = 0;
    s->defend = c->defend != 0;
    s->lmr = c->lmr != 0;
    s->partial = c->partial != 0;
    s->inner = (int)c->inner;
    s->null = c->null != 0;
    s->ext = c->ext != 0;
    s->eval = (int)c->eval;
    memset(s->killer, -1, sizeof s->killer);
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
    double threat_until = c->time_ms ? start + (double)c->tshare / 100.0 * (double)c->time_ms : 0;
    if (c->tvct && c->time_ms && vct) /* the time, not the nodes, bounds them */
        vct = UINT64_MAX;
    if (has_vcf(s, e, me, vcf, &first) ||
        has_vct(s, e, me, vct, threat_until ? (start + threat_until) / 2 : 0, &first)) {
        *out = first;
        info->value_name = "forced win found";
        info->value = 1;
        return TTT_OK;
    }
    /* Step 3. */
    candidate moves[TTT_MAX_CELLS];
    int n = candidates(s, me, moves, TTT_MAX_CELLS, &e->rng, NULL, -1);
    bool opp_vcf = n > 1 && has_vcf(s, e, opp, vcf, NULL);
    if (opp_vcf || (n > 1 && has_vct(s, e, opp, vct, threat_until, NULL))) {
        int kept = 0;
        double until = c->time_ms ? start + GOMOKU_VCF_TIME_SHARE * (double)c->time_ms : 0;
        if (c->tvct)
            until = threat_until;
        int checked = 0;
        for (; checked < n && checked < (int)c->width * 2 && (!until || ttt_clock_ms() < until); checked++) {
            int m = moves[checked].cell;
            ttt_threats_play(t, m, me);
            ttt_patterns_play(s->pat, m, me);
            bool refuted = opp_vcf ? has_vcf(s, e, opp, vcf, NULL) : has_vct(s, e, opp, vct, until, NULL);
            ttt_patterns_undo(s->pat, m, me);
            ttt_threats_undo(t, m, me);
            if (!refuted)
                moves[kept++] = moves[checked];
        }
        /* the candidates the time left unchecked follow the ones that passed (dropping them dropped good
         * moves whenever the checks were slow) */
        if (kept || checked < n) {
            memmove(&moves[kept], &moves[checked], (size_t)(n - checked) * sizeof *moves);
            n = kept + n - checked;
        }
    }
    if (n > (int)c->width)
        n = (int)c->width;

    /* Step 4: iterative deepening, each depth within a window around the last one's score. */
    int best = moves[0].cell, best_score = 0, depth_limit = c->depth ? (int)c->depth : GOMOKU_MAX_DEPTH;
    double new_depth_until = c->time_ms ? start + (double)c->share / 100.0 * (double)c->time_ms : 0;
    for (int depth = 1; depth <= depth_limit && n > 1; depth++) {
        if (depth > 1 && new_depth_until && ttt_clock_ms() >= new_depth_until)
            break;
        int delta = GOMOKU_ASPIRATION, full = GOMOKU_WIN + 1, index = -1, raised = -1, v;
        bool narrow = depth > 2 && best_score > -GOMOKU_WON && best_score < GOMOKU_WON;
        int alpha = narrow ? best_score - delta : -full, beta = narrow ? best_score + delta : full;
        for (;;) {
            s->root_depth = depth;
            v = search_root(s, me, moves, n, depth, alpha, beta, &index, &raised);
            if (s->aborted)
                break;
            delta *= GOMOKU_ASPIRATION_GROWTH;
            if (v <= alpha && alpha > -full)
                alpha = v - delta > -GOMOKU_WON ? v - delta : -full;
            else if (v >= beta && beta < full)
                beta = v + delta < GOMOKU_WON ? v + delta : full;
            else
                break;
        }
        if (s->aborted && raised > 0 && s->partial)
            best = moves[raised].cell; /* beat the last depth's best at this depth */
        if (s->aborted || index < 0)
            break;
        best = moves[index].cell;
        best_score = v;
        info->depth = depth;
        /* the best first at the next depth */
        candidate top = moves[index];
        memmove(&moves[1], &moves[0], (size_t)index * sizeof *moves);
        moves[0] = top;
        if (v > GOMOKU_WON || v < -GOMOKU_WON)
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
              .summary = "gomoku (k >= 4, a line wins): VCF/VCT at the root, principal variation search over "
                         "pattern-ordered candidates with VCF at its leaves"},
    .options = gomoku_options,
    .config_size = sizeof(gomoku_config),
    .config_defaults = &gomoku_defaults,
    .check = gomoku_check,
    .start = gomoku_start,
    .choose = gomoku_choose,
    .new_game = gomoku_new_game,
    .stop = gomoku_stop,
};
