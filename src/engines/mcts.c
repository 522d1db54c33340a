/*
 * engines/mcts.c - the `mcts` engine: Monte Carlo tree search (UCT with RAVE) over the fast random playouts,
 * with proven wins, losses and draws backed up through the tree (MCTS-Solver).
 *
 * One iteration:
 *   Step 1. Selection: from the root, descend to the child with the best UCT value
 *           mean + c * sqrt(ln(parent visits) / visits), unvisited children first (in a shuffled order),
 *           children proven lost for the side choosing skipped, until a leaf or a proven node. With RAVE the
 *           mean is blended with the child's AMAF mean (see MCTS_DEFAULT_RAVE) and the visits in the bonus
 *           count one more, so a child with AMAF statistics need not be visited first.
 *   Step 2. Expansion: a leaf visited MCTS_EXPAND_VISITS times gets all its children at once. Every child is
 *           played: one that ends the game is proven on the spot. Under rules where a line wins
 *           (ttt_rules_line_wins), a side that can win now keeps only its winning moves, and a side facing
 *           one immediate threat keeps only the block (facing two, it has lost): the other moves are proven
 *           losses, left out of the tree below the root. On boards of more than MCTS_NEAR_MIN_CELLS cells
 *           only cells within MCTS_NEAR_DISTANCE of a stone are children (the node is then "partial": see
 *           Step 4). On boards of more than MCTS_PRIOR_MIN_CELLS cells where a line wins the children are
 *           sorted by a line-pattern score over the windows through their cell (pattern_score), which
 *           Step 1 reads as a prior: progressive bias and progressive widening. With threat tactics
 *           (tactics=1, a line wins, k >= 4; the window counts of search/threats.h follow the descent), a
 *           move that makes an open four is a proven win (the others are left out below the root), and
 *           against an opponent who could make one only its defences are children, the other moves proven
 *           losses (ttt_threats_defences).
 *   Step 3. Simulation: a uniformly random game from the leaf (ttt_playout), or with threats=1 one in which
 *           each side wins or blocks when it can (threat_playout), or the proven value.
 *   Step 4. Backup: visits and rewards (1 win, 0 loss for the side that moved into a node; a draw draw=X
 *           for the engine's side, 1 - X for the other, 0.5 in the AMAF statistics) up the
 *           path, and AMAF statistics: every child of a node on the path whose move the side to move there
 *           played later in the game (in the tree or the playout, read off the final stones) gets the game's
 *           reward; then proofs: a child proven won for the side to move proves its parent lost for the side
 *           that moved into it; a fully expanded node whose children are all proven takes the best of them.
 *           A partial node is proven only through a winning child, so pruning stays sound.
 *
 * Before the iterations, with threat tactics, the root looks for a forced win of the side to move by fours
 * (VCF) or by fours and threes (VCT), and when the opponent has one, proves lost the root moves that leave it
 * one (root_tactics).
 *
 * Nodes live in one pool, children of a node in one block; the pool grows up to the `tree=` cap, and when it
 * is full the search goes on without expanding. Between moves the engine keeps the subtree of the position it
 * is asked about when that position follows from its last root (detected from the stones alone), copied to
 * the front of a fresh pool; anything else starts a new tree.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine_impl.h"
#include "engines/tactics.h"
#include "rules/lines.h"
#include "search/playout_lines.h"
#include "search/threats.h"
#include "ttt/playout.h"
#include "util/error.h"
#include "util/trace.h"

/* The measurements behind the four defaults below are in bench/mcts/HISTORY.md (Elo against
 * montecarlo:trials=3000 at iterations=3000). */
/* UCT exploration constant for rewards in [0, 1]: c=1 +99.0 Elo on 5x5k4 with RAVE (0.7 +73.2, 1.4 +86.0). */
#define MCTS_DEFAULT_C 1.0
#define MCTS_MAX_C     100.0
/* RAVE equivalence parameter K: a child's value is (1 - beta) * mean + beta * AMAF mean, with
 * beta = sqrt(K / (3 * visits + K)); 0 = plain UCT. K=1000 +99.0 Elo on 5x5k4 (500 +86.9, plain +29.6). */
#define MCTS_DEFAULT_RAVE 1000.0
#define MCTS_MAX_RAVE     1e9
/* Threat-aware playouts (threats=1, where a line wins): win, else block, else random; 3x slower on 15x15k5
 * but +133.7 Elo on 5x5k4 against +90.6 without (1000 games). */
#define MCTS_DEFAULT_THREATS 1
/* Iterations per move: on 3x3 no loss in 10,000 games against random, 1,000 draws of 1,000 against minimax;
 * about 0.34 s a move on 15x15k5. */
#define MCTS_DEFAULT_ITERATIONS 10000
#define MCTS_MAX_ITERATIONS     UINT64_C(1000000000000)
#define MCTS_MAX_TIME_MS        86400000
/* Tree size cap in nodes (32 bytes each): 2^21 nodes is 64 MiB, twice that while the tree is carried over. */
#define MCTS_DEFAULT_TREE_NODES (UINT64_C(1) << 21)
#define MCTS_MIN_TREE_NODES     (2 * TTT_MAX_CELLS)
#define MCTS_MAX_TREE_NODES     (UINT64_C(1) << 31)
/* A leaf is expanded once it has been visited this many times (its first visits are plain playouts). */
#define MCTS_EXPAND_VISITS 1
/* Boards of more cells than this search only the cells within MCTS_NEAR_DISTANCE (king moves) of a stone. */
#define MCTS_NEAR_MIN_CELLS 64
#define MCTS_NEAR_DISTANCE  2
/* Line-pattern priors (prior=W, widen=X) apply on boards of more cells than this, where a line wins: on
 * 7x7k5 they gained nothing (equal time 3-1-36 against 3-0-37 without; at 3000 iterations -1.7 Elo over 200
 * games against +15.6 over 1000); on 15x15k5 at 200 ms 30-9-1 (3-17 without, at 500 ms). */
#define MCTS_PRIOR_MIN_CELLS 64
/* A child's prior is kept in 8 bits: its pattern score over the best sibling's, times this. */
#define MCTS_PRIOR_SCALE 255
/* Progressive bias weight W: a child's value gains W * prior / (visits + 1). */
#define MCTS_DEFAULT_PRIOR 1.0
#define MCTS_MAX_PRIOR     1e6
/* Progressive widening: a node with n visits chooses among its 1 + ceil(X * sqrt(n + 1)) best children by
 * prior; 0 = all. */
#define MCTS_DEFAULT_WIDEN 1.0
#define MCTS_MAX_WIDEN     1e6
/* Threat tactics (tactics=1, rules where a line wins, k >= 4): at the root a VCF and a VCT of the side to
 * move of at most vcf= and vct= nodes each, and the moves after which the opponent keeps its VCF (else its
 * VCT) proven lost; in the tree, against an opponent who could make an open four only its defences (and the
 * counter-fours) are children, and a move that makes an open four is a proven win. */
#define MCTS_DEFAULT_TACTICS 1
#define MCTS_DEFAULT_VCF     20000
#define MCTS_DEFAULT_VCT     20000
#define MCTS_MAX_THREAT      UINT64_C(1000000000)
/* The threat searches need fours and threes: k >= 4 (threats.h). */
#define MCTS_TACTICS_MIN_K 4
/* Three moves a root VCT may use on one line of play. */
#define MCTS_VCT_THREES 3
/* With a time budget (which the threat searches count in) the root's refutation checks stop after this share
 * of it, and each search gets the nodes that fit in MCTS_THREAT_SEARCH_SHARE of the budget at the rate the
 * engine's last searches ran at (wall clock: on a loaded machine a fixed node count took most of a 200 ms
 * move). 1.67 % is 5000 nodes at 200 ms and the vcf=/vct= cap from 1.2 s at the initial rate: with random
 * openings at 200 ms it scored 0.588 on 9x9k5 (0.575 at 6.7 %), 0.863 on 15x15k5 (0.850; a fixed 5000: 0.763)
 * and 0.556 on 7x7k5 over 80 games (0.556). Before any measurement the
 * rate is taken as MCTS_THREAT_INITIAL_RATE nodes a millisecond (a VCT on an idle core: 1.5 M nodes/s); only
 * searches of MCTS_THREAT_RATE_MIN_NODES nodes or more are timed (shorter ones are below the clock's noise),
 * and each measurement counts for half of the new rate. */
#define MCTS_THREAT_TIME_SHARE     0.5
#define MCTS_THREAT_SEARCH_SHARE   0.0167
#define MCTS_THREAT_INITIAL_RATE   1500.0
#define MCTS_THREAT_RATE_MIN_NODES 2000
#define MCTS_THREAT_RATE_SMOOTHING 0.5
/* A proven win found by the VCT, whose length it does not give: as long as a proof can be. */
#define MCTS_VCT_PLIES UINT8_MAX
/* Moves from a position whose opponent can make an open four to the end: the open four, any reply, the
 * line. */
#define MCTS_OPEN_FOUR_PLIES 3
/* A draw's worth to the side the engine plays (its opponent is taken to value it 1 - X): 0.5 is the
 * game's value; below it the engine prefers lines with chances for both sides to quiet draws. */
#define MCTS_DEFAULT_DRAW 0.5
/* With a time budget, the clock is read every this many iterations. */
#define MCTS_CLOCK_CHECK  64
#define MCTS_INITIAL_POOL 1024

enum { PROOF_NONE = 0, PROOF_WIN, PROOF_DRAW, PROOF_LOSS }; /* for the side that moved into the node */
enum { NODE_EXPANDED = 1, NODE_PARTIAL = 2 };

typedef struct mcts_node {
    double value; /* sum of rewards for the side that moved into the node */
    uint32_t visits;
    uint32_t first;       /* index of the first child (children are contiguous) */
    uint32_t amaf_visits; /* iterations through the parent in which the mover played this move later (AMAF) */
    uint32_t amaf_half;   /* their rewards for the mover, in half points (2 win, 1 draw), exact */
    uint16_t count;       /* children */
    int16_t move;         /* the move into the node; TTT_NO_MOVE at the root */
    uint8_t proof;        /* PROOF_*: the game value for the side that moved into the node, once proven */
    uint8_t plies;        /* proven: moves from this node to the end of the game */
    uint8_t flags;        /* NODE_* */
    uint8_t prior;        /* the move's line-pattern score among its siblings, 0..MCTS_PRIOR_SCALE */
} mcts_node;

typedef struct mcts_config {
    uint64_t iterations; /* 0: MCTS_DEFAULT_ITERATIONS without a time budget, no count with one */
    uint64_t time_ms;    /* 0 = no time limit; else stop when the time or the iterations are spent */
    double c;
    double rave;      /* RAVE equivalence parameter; 0 = plain UCT */
    uint64_t threats; /* 1 = playouts win when they can and block a line the opponent could make */
    uint64_t tree;    /* node cap */
    double prior;     /* progressive bias weight; 0 = off */
    double widen;     /* progressive widening factor; 0 = off */
    uint64_t tactics; /* 1 = threat tactics at the root and in expansion, where a line wins and k >= 4 */
    uint64_t vcf;     /* nodes of each root VCF search */
    uint64_t vct;     /* nodes of the root VCT search */
    double draw;      /* what a draw is worth to the side the engine plays (a win 1, a loss 0) */
} mcts_config;

static const mcts_config mcts_defaults = {.iterations = 0,
                                          .time_ms = 0,
                                          .c = MCTS_DEFAULT_C,
                                          .rave = MCTS_DEFAULT_RAVE,
                                          .threats = MCTS_DEFAULT_THREATS,
                                          .tree = MCTS_DEFAULT_TREE_NODES,
                                          .prior = MCTS_DEFAULT_PRIOR,
                                          .widen = MCTS_DEFAULT_WIDEN,
                                          .tactics = MCTS_DEFAULT_TACTICS,
                                          .vcf = MCTS_DEFAULT_VCF,
                                          .vct = MCTS_DEFAULT_VCT,
                                          .draw = MCTS_DEFAULT_DRAW};

static const ttt_option_def mcts_options[] = {
    /* An iteration weighs 1.5 random games: 4M iteration-cells on 20x20k5 take 0.51 s (bench/web/HISTORY.md). */
    {"iterations", TTT_OPT_UINT, offsetof(mcts_config, iterations), 0, MCTS_MAX_ITERATIONS, 0, 0,
     .role = TTT_ROLE_WORK, .unit = 1.5, .arg = "N",
     .help = "playouts per move; 0 = " TTT_STR(MCTS_DEFAULT_ITERATIONS) ", or as many as time= allows"},
    {"time", TTT_OPT_UINT, offsetof(mcts_config, time_ms), 0, MCTS_MAX_TIME_MS, 0, 0, .role = TTT_ROLE_TIME,
     .arg = "MS", .help = "stop after MS milliseconds even when iterations= are not done; 0 = off"},
    {"c", TTT_OPT_DOUBLE, offsetof(mcts_config, c), 0, 0, 0, MCTS_MAX_C, .arg = "X",
     .help = "exploration constant"},
    {"rave", TTT_OPT_DOUBLE, offsetof(mcts_config, rave), 0, 0, 0, MCTS_MAX_RAVE, .arg = "K",
     .help =
         "how long a move's value from every playout it was played in (RAVE) counts: half at K visits, less "
         "after; 0 = off"},
    {"threats", TTT_OPT_UINT, offsetof(mcts_config, threats), 0, 1, 0, 0, .arg = "0|1",
     .help = "playouts that win and block when they can, where a line wins"},
    {"prior", TTT_OPT_DOUBLE, offsetof(mcts_config, prior), 0, 0, 0, MCTS_MAX_PRIOR, .arg = "W",
     .help = "weight of a move's line-pattern score in its value, fading with its visits (boards over "
             "64 cells where a line wins); 0 = off"},
    {"widen", TTT_OPT_DOUBLE, offsetof(mcts_config, widen), 0, 0, 0, MCTS_MAX_WIDEN, .arg = "X",
     .help = "progressive widening: a node with N visits considers its 1 + X * sqrt(N + 1) best moves by "
             "line patterns (boards over 64 cells where a line wins); 0 = every move"},
    {"tactics", TTT_OPT_UINT, offsetof(mcts_config, tactics), 0, 1, 0, 0, .arg = "0|1",
     .help = "threat tactics where a line wins and k >= 4: forced wins by fours and threes at the root, "
             "only the defences against an open three in the tree"},
    {"vcf", TTT_OPT_UINT, offsetof(mcts_config, vcf), 0, MCTS_MAX_THREAT, 0, 0, .arg = "N",
     .help = "nodes of each victory-by-fours search at the root (tactics=1); 0 = none"},
    {"vct", TTT_OPT_UINT, offsetof(mcts_config, vct), 0, MCTS_MAX_THREAT, 0, 0, .arg = "N",
     .help = "nodes of the victory-by-threats search at the root (tactics=1); 0 = none"},
    {"draw", TTT_OPT_DOUBLE, offsetof(mcts_config, draw), 0, 0, 0, 1, .arg = "X",
     .help = "what a draw is worth to the engine's side, between a loss (0) and a win (1); the opponent is "
             "taken to value it 1 - X"},
    {"tree", TTT_OPT_UINT, offsetof(mcts_config, tree), MCTS_MIN_TREE_NODES, MCTS_MAX_TREE_NODES, 0, 0,
     .role = TTT_ROLE_MEMORY, .unit = sizeof(mcts_node), .arg = "N",
     .help = "most tree nodes kept, 32 bytes each"},
    {"seed", TTT_OPT_SEED, 0, 0, 0, 0, 0, .arg = "N",
     .help = "playouts and the order new moves are tried in"},
    {.key = NULL},
};

typedef struct mcts_state {
    const ttt_lines *lines; /* the board's windows, for the game (one reference) */
    ttt_playout *playout;
    mcts_node *pool;
    size_t used, allocated, limit;
    bool line_wins;       /* completing a line wins for its maker (ttt_rules_line_wins) */
    bool threat_playouts; /* threats=1 under rules where a line wins */
    bool priors;          /* line-pattern priors: rules where a line wins, more than MCTS_PRIOR_MIN_CELLS */
    double prior_weight, widen;
    ttt_threats *threats; /* tactics: the window counts of the position being searched, else NULL */
    ttt_move forced;      /* a forced win the root's threat search found outside the tree, or TTT_NO_MOVE */
    double threat_rate;   /* threat-search nodes per millisecond of wall clock, as last measured */
    double draw[2];       /* a draw's reward for the side [TTT_X], [TTT_O] that moved into a node */
    bool have_root;       /* pool[0] is the tree of root_board */
    ttt_board root_board;
    uint32_t path[TTT_MAX_CELLS + 1];
    ttt_trace *trace; /* the engine's recorder during a run (ttt/trace.h), or NULL */
} mcts_state;

/* --- The pool ------------------------------------------------------------------------------------------- */

/* Room for n more nodes, growing the pool up to its cap; false when the cap is reached. */
static bool pool_reserve(mcts_state *s, size_t n)
{
    if (s->used + n <= s->allocated)
        return true;
    if (s->used + n > s->limit)
        return false;
    size_t size = s->allocated ? s->allocated * 2 : MCTS_INITIAL_POOL;
    while (size < s->used + n)
        size *= 2;
    if (size > s->limit)
        size = s->limit;
    mcts_node *p = realloc(s->pool, size * sizeof *p);
    if (!p)
        return false; /* out of memory: search on without expanding, like a full pool */
    s->pool = p;
    s->allocated = size;
    return true;
}

static void tree_reset(mcts_state *s, const ttt_board *b)
{
    s->used = 1;
    s->pool[0] = (mcts_node){.move = TTT_NO_MOVE};
    s->root_board = *b;
    s->have_root = true;
}

/* Makes node `idx` the root: copies its subtree to the front of a new pool, breadth first (Cheney's copying
 * collector: the new pool is its own queue). */
static bool tree_keep(mcts_state *s, uint32_t idx)
{
    mcts_node *fresh = malloc(s->allocated * sizeof *fresh);
    if (!fresh)
        return false;
    fresh[0] = s->pool[idx];
    fresh[0].move = TTT_NO_MOVE;
    size_t n = 1;
    for (size_t i = 0; i < n; i++) {
        if (!fresh[i].count)
            continue;
        memcpy(&fresh[n], &s->pool[fresh[i].first], fresh[i].count * sizeof *fresh);
        fresh[i].first = (uint32_t)n;
        n += fresh[i].count;
    }
    free(s->pool);
    s->pool = fresh;
    s->used = n;
    return true;
}

/* Carries the tree over to b when b follows from the last root by moves the tree has; starts afresh
 * otherwise. The engine is told only the board, so the moves are read off the stones: each side's new stones,
 * the side to move's first, along the tree's children. */
static void tree_prepare(mcts_state *s, const ttt_board *b)
{
    if (s->have_root && s->root_board.ply <= b->ply) {
        ttt_bits added[2];
        bool contained = true;
        for (int side = 0; side < 2; side++)
            for (int i = 0; i < TTT_WORDS; i++) {
                uint64_t old = s->root_board.stones[side].w[i], now = b->stones[side].w[i];
                contained &= (old & ~now) == 0;
                added[side].w[i] = now & ~old;
            }
        uint32_t idx = 0;
        ttt_board cur = s->root_board;
        while (contained && cur.ply < b->ply) {
            const mcts_node *n = &s->pool[idx];
            ttt_player side = ttt_board_to_move(&cur);
            uint32_t next = UINT32_MAX;
            for (uint32_t i = 0; i < n->count && next == UINT32_MAX; i++)
                if (ttt_bits_test(&added[side], s->pool[n->first + i].move))
                    next = n->first + i;
            if (next == UINT32_MAX)
                contained = false;
            else {
                ttt_bits_clear(&added[side], s->pool[next].move);
                ttt_board_play(&cur, s->pool[next].move);
                idx = next;
            }
        }
        if (contained && (idx == 0 || tree_keep(s, idx))) {
            s->root_board = *b;
            return;
        }
    }
    tree_reset(s, b);
}

/* --- Proofs --------------------------------------------------------------------------------------------- */

/* A proof's length in the node's 8 bits: a line of more than 255 moves (only boards of more than 255 cells
 * have them) is kept as 255 moves long, not wrapped around to a short one. */
static uint8_t plies_saturated(int plies) { return (uint8_t)(plies < UINT8_MAX ? plies : UINT8_MAX); }

/* Recomputes a node's proof from its children (whose proofs are for the side to move at the node). Returns
 * true when the node is proven. */
static bool node_prove(mcts_state *s, uint32_t idx)
{
    mcts_node *n = &s->pool[idx];
    if (n->proof != PROOF_NONE)
        return true;
    if (!(n->flags & NODE_EXPANDED))
        return false;
    int win_plies = -1, best = PROOF_NONE, best_plies = 0;
    bool open = (n->flags & NODE_PARTIAL) != 0;
    for (uint32_t i = 0; i < n->count; i++) {
        const mcts_node *ch = &s->pool[n->first + i];
        if (ch->proof == PROOF_WIN) {
            if (win_plies < 0 || ch->plies < win_plies)
                win_plies = ch->plies;
        } else if (ch->proof == PROOF_NONE)
            open = true;
        else if (best == PROOF_NONE || (ch->proof == PROOF_DRAW && best == PROOF_LOSS) ||
                 (ch->proof == best && ch->plies > best_plies)) {
            best = ch->proof;
            best_plies = ch->plies;
        }
    }
    if (win_plies >= 0) {
        n->proof = PROOF_LOSS;
        n->plies = plies_saturated(win_plies + 1);
    } else if (!open && best != PROOF_NONE) {
        n->proof = best == PROOF_DRAW ? PROOF_DRAW : PROOF_WIN;
        n->plies = plies_saturated(best_plies + 1);
    }
    return n->proof != PROOF_NONE;
}

/* --- Expansion ------------------------------------------------------------------------------------------ */

/* The cells within MCTS_NEAR_DISTANCE of a stone of b. */
static ttt_bits near_stones(const ttt_board *b)
{
    ttt_bits near = {{0}};
    int rows = b->rules.rows, cols = b->rules.cols;
    for (int cell = 0; cell < b->cells; cell++) {
        if (!ttt_bits_test(&b->stones[0], cell) && !ttt_bits_test(&b->stones[1], cell))
            continue;
        int r = cell / cols, c = cell % cols;
        for (int dr = -MCTS_NEAR_DISTANCE; dr <= MCTS_NEAR_DISTANCE; dr++)
            for (int dc = -MCTS_NEAR_DISTANCE; dc <= MCTS_NEAR_DISTANCE; dc++)
                if (r + dr >= 0 && r + dr < rows && c + dc >= 0 && c + dc < cols)
                    ttt_bits_set(&near, (r + dr) * cols + c + dc);
    }
    return near;
}

/* What a window through an empty cell is worth to the side moving there, by how many stones the window
 * still misses after the move (attack: the window holds only the mover's stones) or missed before it
 * (defence: only the opponent's). Missing 0 after the move is a line, 1 a four: those that win or must be
 * blocked now are settled by expansion itself, so the scale matters from the threes down. */
#define MCTS_PATTERN_LEVELS 6
static const double MCTS_ATTACK[MCTS_PATTERN_LEVELS] = {1e6, 1000, 60, 6, 1, 0.2};
static const double MCTS_DEFENCE[MCTS_PATTERN_LEVELS] = {0, 1e5, 400, 30, 3, 0};

/* The line-pattern score of the side to move at b playing the empty cell m: the sum over the windows
 * through m of MCTS_ATTACK and MCTS_DEFENCE. */
static double pattern_score(const ttt_lines *l, const ttt_board *b, int m)
{
    ttt_player me = ttt_board_to_move(b);
    const ttt_bits *own = &b->stones[me], *other = &b->stones[1 - me];
    int nwin;
    const int16_t *through = ttt_lines_through(l, m, &nwin);
    double score = 0;
    for (int i = 0; i < nwin; i++) {
        const ttt_bits *w = &l->win_bits[through[i]];
        int mine = 0, theirs = 0;
        for (int j = 0; j < l->words; j++) {
            mine += __builtin_popcountll(w->w[j] & own->w[j]);
            theirs += __builtin_popcountll(w->w[j] & other->w[j]);
        }
        int attack = l->k - mine - 1, defence = l->k - theirs;
        if (theirs == 0 && attack < MCTS_PATTERN_LEVELS)
            score += MCTS_ATTACK[attack];
        if (mine == 0 && defence < MCTS_PATTERN_LEVELS)
            score += MCTS_DEFENCE[defence];
    }
    return score;
}

/* Sorts kids (the children of position b) by pattern score, best first, keeping the order of equals, and
 * sets their priors. */
static void order_by_prior(const ttt_lines *l, const ttt_board *b, mcts_node *kids, int count)
{
    double score[TTT_MAX_CELLS], best = 0;
    for (int i = 0; i < count; i++) {
        score[i] = pattern_score(l, b, kids[i].move);
        best = score[i] > best ? score[i] : best;
    }
    for (int i = 1; i < count; i++) { /* insertion sort: stable, and the children are few */
        mcts_node k = kids[i];
        double v = score[i];
        int j = i;
        for (; j > 0 && score[j - 1] < v; j--) {
            kids[j] = kids[j - 1];
            score[j] = score[j - 1];
        }
        kids[j] = k;
        score[j] = v;
    }
    for (int i = 0; i < count; i++)
        kids[i].prior = (uint8_t)(best > 0 ? lround(MCTS_PRIOR_SCALE * score[i] / best) : 0);
}

/* For the side to move at b (ongoing, no line to complete for either side; t is b's position): sets in
 * *wins the moves that make it an open four (two or more cells that complete a line), and returns whether
 * there are any; otherwise, when the opponent has such a move, sets *defend and in *defences the moves that
 * can stop it (ttt_threats_defences: every other move loses to that open four). */
static bool open_four_moves(ttt_threats *t, const ttt_board *b, ttt_bits *wins, bool *defend,
                            ttt_bits *defences)
{
    ttt_player me = ttt_board_to_move(b), opp = (ttt_player)(1 - me);
    int cells[TTT_MAX_CELLS], n = ttt_threats_defences(t, me, cells);
    bool found = false;
    for (int i = 0; i < n; i++) { /* the open-four moves are among the cells of me's windows of k-2 */
        ttt_shape sh;
        ttt_threats_shape(t, cells[i], me, &sh);
        bool open = sh.kinds[TTT_SHAPE_OPEN_FOUR] > 0;
        if (!open && sh.kinds[TTT_SHAPE_FOUR] >= 2) { /* two fours: unless they share their one cell */
            int f[2];
            ttt_threats_play(t, cells[i], me);
            open = ttt_threats_fives(t, me, f, 2) >= 2;
            ttt_threats_undo(t, cells[i], me);
        }
        if (open) {
            ttt_bits_set(wins, cells[i]);
            found = true;
        }
    }
    if (found)
        return true;
    n = ttt_threats_defences(t, opp, cells);
    *defend = n >= 0;
    for (int i = 0; i < n; i++)
        ttt_bits_set(defences, cells[i]);
    return false;
}

/* Gives node idx (position b, ongoing) its children; see Step 2. The root keeps every legal move it does not
 * prune for distance, proven losses included, so that analysis shows them. False when the pool is full. */
static bool node_expand(mcts_state *s, uint32_t idx, const ttt_board *b, ttt_rng *rng)
{
    ttt_move moves[TTT_MAX_CELLS];
    int n = ttt_board_moves(b, moves);
    ttt_bits mine, theirs; /* the moves that complete a line of the side to move, of the opponent */
    tactics_lines(b, &mine, &theirs);
    int wins = ttt_bits_count(&mine), threats = ttt_bits_count(&theirs);
    if (!s->line_wins)
        wins = threats = 0; /* a line loses for its maker: nothing to block, nothing to rush */
    bool root = idx == 0, use_near = b->cells > MCTS_NEAR_MIN_CELLS && b->ply > 0, partial = false;
    ttt_bits near = use_near ? near_stones(b) : (ttt_bits){{0}};
    ttt_bits open_fours = {{0}}, defences = {{0}};
    bool defend = false, attack = false;
    if (s->threats && wins == 0 && threats == 0)
        attack = open_four_moves(s->threats, b, &open_fours, &defend, &defences);
    mcts_node kids[TTT_MAX_CELLS];
    int count = 0;
    for (int i = 0; i < n; i++) {
        mcts_node k = {.move = (int16_t)moves[i]};
        if (ttt_bits_test(&mine, moves[i])) /* the move ends the game: the rules say for whom */
            k.proof = s->line_wins ? PROOF_WIN : PROOF_LOSS;
        else if (b->ply + 1 == b->cells)
            k.proof = PROOF_DRAW;
        else if (wins > 0) { /* a win is on the board: the other moves do not matter */
            if (!root)
                continue;
        } else if (threats >= 2 || (threats == 1 && !ttt_bits_test(&theirs, moves[i]))) {
            /* the opponent wins next move */
            if (!root)
                continue;
            k.proof = PROOF_LOSS;
            k.plies = 1;
        } else if (attack) { /* an open four wins: nobody has a line to complete first */
            if (ttt_bits_test(&open_fours, moves[i])) {
                k.proof = PROOF_WIN;
                k.plies = MCTS_OPEN_FOUR_PLIES - 1;
            } else if (!root)
                continue;
        } else if (defend && !ttt_bits_test(&defences, moves[i])) {
            /* the opponent's open four wins */
            if (!root)
                continue;
            k.proof = PROOF_LOSS;
            k.plies = MCTS_OPEN_FOUR_PLIES;
        } else if (!defend && use_near && !ttt_bits_test(&near, moves[i])) {
            partial = true;
            continue;
        }
        kids[count++] = k;
    }
    if (!pool_reserve(s, (size_t)count))
        return false;
    for (int i = count - 1; i > 0; i--) { /* shuffled: unvisited children are tried in this order */
        int j = (int)ttt_rng_below(rng, (uint32_t)i + 1);
        mcts_node t = kids[i];
        kids[i] = kids[j];
        kids[j] = t;
    }
    if (s->priors)
        order_by_prior(s->lines, b, kids, count);
    mcts_node *node = &s->pool[idx];
    node->first = (uint32_t)s->used;
    node->count = (uint16_t)count;
    node->flags |= NODE_EXPANDED | (partial ? NODE_PARTIAL : 0);
    memcpy(&s->pool[s->used], kids, (size_t)count * sizeof kids[0]);
    s->used += (size_t)count;
    if (count == 0) { /* two threats and no win: lost in two moves */
        node->proof = PROOF_WIN;
        node->plies = 2;
    }
    node_prove(s, idx);
    return true;
}

/* --- Threat-aware playouts ------------------------------------------------------------------------------ */

/* Adds to threats[who] the empty cells where `who` would complete a line through m (m just played by `who`):
 * a new such cell needs the stone at m, so it is the one empty cell of a window through m whose other k - 1
 * cells are `who`'s. */
static void add_threats(const ttt_lines *l, const ttt_board *b, ttt_player who, int m, ttt_bits *threats)
{
    const ttt_bits *own = &b->stones[who], *other = &b->stones[1 - who];
    int nwin;
    const int16_t *through = ttt_lines_through(l, m, &nwin);
    for (int i = 0; i < nwin; i++) {
        const ttt_bits *w = &l->win_bits[through[i]];
        uint64_t blocked = 0;
        int missing = 0, cell = -1;
        for (int j = 0; j < l->words; j++) {
            uint64_t miss = w->w[j] & ~own->w[j];
            blocked |= w->w[j] & other->w[j];
            missing += __builtin_popcountll(miss);
            if (miss)
                cell = j * 64 + __builtin_ctzll(miss);
        }
        if (!blocked && missing == 1)
            ttt_bits_set(threats, cell);
    }
}

/* The lowest cell of set, looking at its first `words` words (the rest are 0); -1 when empty. */
static int first_cell(const ttt_bits *set, int words)
{
    for (int i = 0; i < words; i++)
        if (set->w[i])
            return i * 64 + __builtin_ctzll(set->w[i]);
    return -1;
}

/* A random game from b (ongoing, rules where a line wins) in which each side completes a line when it can,
 * else blocks one the opponent could complete, else plays a uniformly random empty cell. Returns the outcome
 * (the board's) and each side's final stones. */
static ttt_outcome threat_playout(const ttt_lines *l, const ttt_board *start, ttt_rng *rng, ttt_bits *final)
{
    ttt_board b = *start;
    ttt_move empty[TTT_MAX_CELLS];
    int pos[TTT_MAX_CELLS], n = ttt_board_moves(&b, empty), words = ttt_board_words(&b);
    ttt_bits threats[2] = {{{0}}, {{0}}};
    for (int i = 0; i < n; i++)
        pos[empty[i]] = i;
    for (int who = 0; who < 2; who++) /* k >= 3: every threat's line holds a stone of its side */
        for (int i = 0; i < TTT_WORDS; i++)
            for (uint64_t w = b.stones[who].w[i]; w; w &= w - 1)
                add_threats(l, &b, (ttt_player)who, i * 64 + __builtin_ctzll(w), &threats[who]);
    while (!ttt_board_terminal(&b)) {
        ttt_player me = ttt_board_to_move(&b);
        int m = first_cell(&threats[me], words);
        if (m < 0)
            m = first_cell(&threats[1 - me], words);
        if (m < 0)
            m = empty[ttt_rng_below(rng, (uint32_t)n)];
        int i = pos[m];
        empty[i] = empty[--n];
        pos[empty[i]] = i;
        ttt_board_play(&b, m);
        ttt_bits_clear(&threats[0], m);
        ttt_bits_clear(&threats[1], m);
        if (!ttt_board_terminal(&b))
            add_threats(l, &b, me, m, &threats[me]);
    }
    final[TTT_X] = b.stones[TTT_X];
    final[TTT_O] = b.stones[TTT_O];
    return ttt_board_outcome(&b);
}

/* --- Search --------------------------------------------------------------------------------------------- */

/* node_select over the first `width` children of n. */
static uint32_t select_among(const mcts_state *s, const mcts_node *n, uint32_t width, double explore,
                             double rave, double bias)
{
    double best = -1.0;
    uint32_t pick = UINT32_MAX;
    for (uint32_t i = 0; i < width; i++) {
        const mcts_node *ch = &s->pool[n->first + i];
        if (ch->proof == PROOF_LOSS)
            continue;
        double u;
        if (rave > 0 && ch->amaf_visits > 0) {
            double amaf = ch->amaf_half / (2.0 * ch->amaf_visits), q = amaf;
            if (ch->visits > 0) {
                double beta = sqrt(rave / (3.0 * ch->visits + rave));
                q = (1.0 - beta) * (ch->value / ch->visits) + beta * amaf;
            }
            u = q + explore / sqrt((double)ch->visits + 1.0);
        } else {
            if (ch->visits == 0)
                return n->first + i;
            u = ch->value / ch->visits + explore / sqrt((double)ch->visits);
        }
        u += bias * ch->prior / ((double)ch->visits + 1.0);
        if (u > best) {
            best = u;
            pick = n->first + i;
        }
    }
    return pick;
}

/* Step 1: the child to descend to, or UINT32_MAX when every child is proven lost (a partial node). With
 * RAVE (rave > 0) a child's mean is blended with its AMAF mean, which lets a child be chosen before its
 * first visit; children without any statistics yet come first. With priors (boards over
 * MCTS_PRIOR_MIN_CELLS cells where a line wins) a child's value gains prior=W times its pattern score,
 * fading as 1 / (visits + 1) (progressive bias), and only the best 1 + ceil(X * sqrt(visits + 1)) children
 * by pattern score are candidates (progressive widening, widen=X), all of them when those are lost. */
static uint32_t node_select(const mcts_state *s, uint32_t idx, double c, double rave)
{
    const mcts_node *n = &s->pool[idx];
    double explore = c * sqrt(log((double)n->visits + 1.0));
    double bias = s->priors ? s->prior_weight / MCTS_PRIOR_SCALE : 0;
    uint32_t width = n->count;
    if (s->priors && s->widen > 0) {
        double w = 1.0 + ceil(s->widen * sqrt((double)n->visits + 1.0));
        width = w < n->count ? (uint32_t)w : n->count;
    }
    for (;;) {
        uint32_t pick = select_among(s, n, width, explore, rave, bias);
        if (pick != UINT32_MAX || width == n->count)
            return pick;
        width = n->count; /* every child in the window is proven lost: look at them all */
    }
}

/* The outcome of a game that ended in `proof` for `mover`. */
static ttt_outcome proof_outcome(int proof, ttt_player mover)
{
    if (proof == PROOF_DRAW)
        return TTT_DRAW;
    return (proof == PROOF_WIN) == (mover == TTT_X) ? TTT_X_WINS : TTT_O_WINS;
}

/* Reports an iteration that went down depth nodes of s->path, expanded the node expanded (UINT32_MAX:
 * none), and ended at the leaf's position b with final stones: a proven result or a playout's, reward for
 * the side that moved into the leaf. */
static void mcts_trace_iteration(mcts_state *s, int depth, uint32_t expanded, bool proven,
                                 const ttt_bits *final, ttt_outcome outcome)
{
    ttt_trace_step *st = trace_begin(s->trace, TTT_TRACE_ITERATION);
    if (!st)
        return;
    for (int d = 1; d <= depth; d++)
        st->path[st->path_length++] = s->pool[s->path[d]].move;
    st->expanded_root = expanded == 0;
    st->expanded = expanded != UINT32_MAX && expanded != 0 ? s->pool[expanded].move : TTT_NO_MOVE;
    st->proven = proven;
    st->final[TTT_X] = final[TTT_X];
    st->final[TTT_O] = final[TTT_O];
    st->outcome = outcome;
    const mcts_node *root = &s->pool[0];
    for (uint32_t i = 0; i < root->count; i++) {
        const mcts_node *ch = &s->pool[root->first + i];
        st->child[st->children] = ch->move;
        st->visits[st->children] = ch->visits;
        st->wins[st->children++] = ch->value;
    }
    trace_emit(s->trace);
}

/* One iteration (Steps 1-4) from the root. */
static void mcts_iterate(mcts_state *s, ttt_rng *rng, double c, double rave)
{
    ttt_board b = s->root_board;
    uint32_t idx = 0, expanded = UINT32_MAX;
    int depth = 0;
    s->path[0] = 0;
    bool proved = false;
    for (;;) {
        mcts_node *n = &s->pool[idx];
        if (n->proof != PROOF_NONE)
            break;
        if (!(n->flags & NODE_EXPANDED)) {
            if (n->visits < MCTS_EXPAND_VISITS && idx != 0)
                break;
            if (!node_expand(s, idx, &b, rng))
                break;
            expanded = idx;
            if (s->pool[idx].proof != PROOF_NONE) {
                proved = true;
                break;
            }
        }
        uint32_t next = node_select(s, idx, c, rave);
        if (next == UINT32_MAX)
            break;
        idx = next;
        if (s->threats)
            ttt_threats_play(s->threats, s->pool[idx].move, ttt_board_to_move(&b));
        ttt_board_play(&b, s->pool[idx].move);
        s->path[++depth] = idx;
    }
    if (s->threats) /* back to the root's position: moves alternate from the root's side */
        for (int d = depth; d >= 1; d--)
            ttt_threats_undo(s->threats, s->pool[s->path[d]].move,
                             (ttt_player)(ttt_board_to_move(&s->root_board) ^ ((d - 1) & 1)));
    const mcts_node *leaf = &s->pool[idx];
    ttt_player mover = (ttt_player)(1 - ttt_board_to_move(&b));
    ttt_bits final[2]; /* each side's stones at the end of the game: what AMAF needs */
    bool leaf_proven = leaf->proof != PROOF_NONE;
    ttt_outcome o;
    if (leaf->proof != PROOF_NONE) {
        o = proof_outcome(leaf->proof, mover);
        proved = true;
        final[TTT_X] = b.stones[TTT_X];
        final[TTT_O] = b.stones[TTT_O];
    } else if (s->threat_playouts)
        o = threat_playout(s->lines, &b, rng, final);
    else {
        ttt_playout_set_position(s->playout, &b);
        o = ttt_playout_run(s->playout, rng, final);
    }
    /* for the side that moved into the leaf */
    double reward = o == TTT_DRAW ? s->draw[mover] : (o == TTT_X_WINS) == (mover == TTT_X) ? 1.0 : 0.0;
    /* The side to move at path[d]: the root's side for even d. */
    ttt_player side = (ttt_player)(ttt_board_to_move(&s->root_board) ^ (depth & 1));
    for (int d = depth; d >= 0; d--) {
        mcts_node *n = &s->pool[s->path[d]];
        n->visits++;
        n->value += reward;
        reward = 1.0 - reward; /* now for `side`, the side to move at n */
        if (rave > 0) {        /* AMAF: n's children that `side` played later in this game, by it or not */
            uint32_t half = o == TTT_DRAW ? 1 : (uint32_t)(2.0 * reward); /* a draw counts 1/2 here */
            for (uint32_t i = 0; i < n->count; i++) {
                mcts_node *ch = &s->pool[n->first + i];
                if (ttt_bits_test(&final[side], ch->move)) {
                    ch->amaf_visits++;
                    ch->amaf_half += half;
                }
            }
        }
        side = (ttt_player)(1 - side);
    }
    if (proved)
        for (int d = depth - 1; d >= 0 && node_prove(s, s->path[d]); d--) {
        }
    if (__builtin_expect(s->trace != NULL, 0))
        mcts_trace_iteration(s, depth, expanded, leaf_proven, final, o);
}

/* The root child of move m, or NULL. */
static mcts_node *root_child(mcts_state *s, ttt_move m)
{
    mcts_node *root = &s->pool[0];
    for (uint32_t i = 0; i < root->count; i++)
        if (s->pool[root->first + i].move == m)
            return &s->pool[root->first + i];
    return NULL;
}

/* Marks the root's move m won in `plies` more moves, or keeps it in s->forced when the tree has no such
 * child (a cell far from the stones). */
static void root_win(mcts_state *s, ttt_move m, int plies)
{
    mcts_node *ch = root_child(s, m);
    if (!ch) {
        s->forced = m;
        return;
    }
    ch->proof = PROOF_WIN;
    ch->plies = plies_saturated(plies);
}

/* Whether `who` has a VCF (vct = false) or a VCT (vct = true) of at most `nodes` nodes in t's position; a
 * search that runs out of nodes counts as none. On a win *plies gets its length when known, else
 * MCTS_VCT_PLIES, and *first its first move. */
static bool threat_win(ttt_threats *t, ttt_player who, bool vct, uint64_t nodes, int *first, int *plies)
{
    if (!nodes)
        return false;
    int line[TTT_MAX_CELLS];
    if (vct) {
        *plies = MCTS_VCT_PLIES;
        return ttt_threats_vct(t, who, MCTS_VCT_THREES, nodes, first) == TTT_THREATS_WIN;
    }
    if (ttt_threats_vcf(t, who, nodes, line, plies) != TTT_THREATS_WIN)
        return false;
    *first = line[0];
    return true;
}

/* The root's threat tactics (tactics=1): a forced win of the side to move by fours (VCF), else by fours and
 * threes (VCT), is proven in the tree; else, when the opponent has a VCF (else a VCT) now, the root's moves
 * after which it still has one are proven lost (a stone of ours never gives the opponent a threat win it did
 * not have, so there is nothing to check when it has none). Searches that run out of nodes prove nothing. */
/* threat_win with a node budget of at most `nodes`, and with a time budget (time_ms > 0) at most the nodes
 * that fit in MCTS_THREAT_SEARCH_SHARE of it at s->threat_rate, which the search's own rate then updates. */
static bool timed_threat_win(mcts_state *s, uint64_t time_ms, ttt_player who, bool vct, uint64_t nodes,
                             int *first, int *plies)
{
    if (!time_ms)
        return threat_win(s->threats, who, vct, nodes, first, plies);
    double fit = s->threat_rate * MCTS_THREAT_SEARCH_SHARE * (double)time_ms;
    if (fit < (double)nodes)
        nodes = (uint64_t)fit;
    uint64_t before = s->threats->nodes;
    double t0 = ttt_clock_ms();
    bool won = threat_win(s->threats, who, vct, nodes, first, plies);
    double ms = ttt_clock_ms() - t0;
    uint64_t used = s->threats->nodes - before;
    if (used >= MCTS_THREAT_RATE_MIN_NODES && ms > 0)
        s->threat_rate += MCTS_THREAT_RATE_SMOOTHING * ((double)used / ms - s->threat_rate);
    return won;
}

static void root_tactics(ttt_engine *e, const ttt_board *b, double start)
{
    const mcts_config *c = e->config;
    mcts_state *s = e->state;
    ttt_threats *t = s->threats;
    ttt_player me = ttt_board_to_move(b), opp = (ttt_player)(1 - me);
    uint64_t budget[2] = {c->vcf, c->vct}; /* [vct] */
    double until = c->time_ms ? start + MCTS_THREAT_TIME_SHARE * (double)c->time_ms : 0;
    ttt_threats_set(t, b);
    int first, plies;
    for (int vct = 0; vct < 2; vct++)
        if (timed_threat_win(s, c->time_ms, me, vct, budget[vct], &first, &plies)) {
            root_win(s, first, vct ? plies : plies - 1);
            node_prove(s, 0);
            return;
        }
    for (int vct = 0; vct < 2; vct++) {
        if (!timed_threat_win(s, c->time_ms, opp, vct, budget[vct], &first, &plies))
            continue;
        mcts_node *root = &s->pool[0];
        for (uint32_t i = 0; i < root->count && (!until || ttt_clock_ms() < until); i++) {
            mcts_node *ch = &s->pool[root->first + i];
            if (ch->proof != PROOF_NONE)
                continue;
            ttt_threats_play(t, ch->move, me);
            if (timed_threat_win(s, c->time_ms, opp, vct, budget[vct], &first, &plies)) {
                ch->proof = PROOF_LOSS;
                ch->plies = plies_saturated(plies);
            }
            ttt_threats_undo(t, ch->move, me);
        }
        break;
    }
    node_prove(s, 0);
}

/* Runs the budget from b (the tree carried over when it can be); returns the iterations run. */
static uint64_t mcts_run(ttt_engine *e, const ttt_board *b)
{
    const mcts_config *c = e->config;
    mcts_state *s = e->state;
    s->trace = e->trace;
    double start = ttt_clock_ms(); /* the time budget counts the threat searches too */
    tree_prepare(s, b);
    if (!(s->pool[0].flags & NODE_EXPANDED)) {
        if (s->threats)
            ttt_threats_set(s->threats, b);
        node_expand(s, 0, b, &e->rng); /* the pool always has room for the root's children */
    }
    s->forced = TTT_NO_MOVE;
    s->draw[ttt_board_to_move(b)] = c->draw; /* the engine's side moves into the root's children */
    s->draw[1 - ttt_board_to_move(b)] = 1.0 - c->draw;
    if (s->threats && s->pool[0].proof == PROOF_NONE)
        root_tactics(e, b, start);
    uint64_t done = 0;
    uint64_t limit = c->iterations ? c->iterations : c->time_ms ? UINT64_MAX : MCTS_DEFAULT_ITERATIONS;
    double deadline = c->time_ms ? start + (double)c->time_ms : 0;
    while (s->pool[0].proof == PROOF_NONE && s->forced == TTT_NO_MOVE && done < limit) {
        if (c->time_ms && done % MCTS_CLOCK_CHECK == 0 && done && ttt_clock_ms() >= deadline)
            break;
        mcts_iterate(s, &e->rng, c->c, c->rave);
        done++;
    }
    e->nodes += done;
    return done;
}

/* The move to play: the quickest proven win; else the most visited child not proven lost (a proven draw
 * instead when that child expects to lose); else the slowest loss, and among equally slow ones a move that
 * blocks a line the opponent could make now (resisting an open four: the opponent may still go wrong). */
static ttt_move mcts_best(const mcts_state *s, const ttt_board *b)
{
    ttt_player opp = (ttt_player)(1 - ttt_board_to_move(b));
    bool loss_blocks = false;
    const mcts_node *root = &s->pool[0];
    const mcts_node *win = NULL, *draw = NULL, *open = NULL, *loss = NULL;
    for (uint32_t i = 0; i < root->count; i++) {
        const mcts_node *ch = &s->pool[root->first + i];
        switch (ch->proof) {
        case PROOF_WIN:
            if (!win || ch->plies < win->plies)
                win = ch;
            break;
        case PROOF_DRAW:
            if (!draw || ch->visits > draw->visits)
                draw = ch;
            break;
        case PROOF_LOSS: {
            bool blocks = s->line_wins && ttt_board_makes_line(b, opp, ch->move);
            if (!loss || ch->plies > loss->plies ||
                (ch->plies == loss->plies &&
                 (blocks > loss_blocks || (blocks == loss_blocks && ch->visits > loss->visits)))) {
                loss = ch;
                loss_blocks = blocks;
            }
            break;
        }
        default:
            if (!open || ch->visits > open->visits)
                open = ch;
        }
    }
    if (win)
        return win->move;
    if (open && (!draw || (open->visits && open->value / open->visits >= s->draw[ttt_board_to_move(b)])))
        return open->move;
    if (draw)
        return draw->move;
    return loss ? loss->move : TTT_NO_MOVE;
}

/* A ttt_move of the first empty cell: only for a root without children (a full pool on a huge board). */
static ttt_move first_empty(const ttt_board *b)
{
    ttt_move moves[TTT_MAX_CELLS];
    ttt_board_moves(b, moves);
    return moves[0];
}

/* The tree in the algorithm's own terms, after the iterations that chose the move: per root child its
 * visits, its win rate (mean reward for the side to move: 1 a win, 1/2 a draw) and its proven result; the
 * principal variation (the chosen move, then the most visited child at each level); the iterations and the
 * tree's size. Cells the tree has no child for (far from the stones on a big board) are left out. */
static void mcts_describe(const mcts_state *s, uint64_t iterations, ttt_move choice, ttt_explanation *out)
{
    const mcts_node *root = &s->pool[0];
    double most = 1;
    for (uint32_t i = 0; i < root->count; i++)
        if (s->pool[root->first + i].visits > most)
            most = s->pool[root->first + i].visits;
    out->method = "Monte Carlo tree search: UCT with RAVE, MCTS-Solver proofs";
    out->step = "the quickest proven win, else the most visited move not proven lost";
    ttt_explain_layer *visits =
        ttt_explain_layer_add(out, "visits", "iterations through the move", 0, most, false);
    ttt_explain_layer *rate = ttt_explain_layer_add(
        out, "win rate", "mean result for the side to move (win 1, draw 1/2, loss 0), 0 to 100 %", 0, 1,
        true);
    ttt_explain_layer *proven = NULL;
    for (uint32_t i = 0; i < root->count; i++) {
        const mcts_node *ch = &s->pool[root->first + i];
        ttt_explain_set(visits, ch->move, ch->visits);
        if (ch->visits)
            ttt_explain_set(rate, ch->move, ch->value / ch->visits);
        if (ch->proof != PROOF_NONE) {
            if (!proven)
                proven = ttt_explain_layer_add(out, "proven", "proven result: -1 loss, 0 draw, +1 win", -1, 1,
                                               false);
            ttt_explain_set(proven, ch->move, ch->proof == PROOF_WIN ? 1 : ch->proof == PROOF_LOSS ? -1 : 0);
        }
    }
    out->choice = choice;
    ttt_move pv[TTT_MAX_CELLS];
    int length = 0;
    for (const mcts_node *node = root; node->count && length < TTT_MAX_CELLS;) {
        const mcts_node *next = NULL;
        for (uint32_t i = 0; i < node->count; i++) {
            const mcts_node *ch = &s->pool[node->first + i];
            if (length == 0 ? ch->move == choice : !next || ch->visits > next->visits)
                next = ch;
        }
        if (!next || !next->visits)
            break;
        pv[length++] = next->move;
        node = next;
    }
    ttt_explain_line_add(out, "principal variation", -1, NULL, pv, length);
    ttt_explain_fact_add(out, "iterations", (double)iterations);
    ttt_explain_fact_add(out, "visits of the root", root->visits);
    ttt_explain_fact_add(out, "tree nodes", (double)s->used);
}

static ttt_status mcts_choose(ttt_engine *e, const ttt_board *b, ttt_move *out, ttt_search_info *info,
                              ttt_explanation *why, ttt_error *err)
{
    (void)err;
    uint64_t iterations = mcts_run(e, b);
    const mcts_state *s = e->state;
    ttt_move m = s->forced != TTT_NO_MOVE ? s->forced : mcts_best(s, b);
    *out = m == TTT_NO_MOVE ? first_empty(b) : m;
    for (uint32_t i = 0; i < s->pool[0].count; i++) { /* its win rate for the side to move */
        const mcts_node *ch = &s->pool[s->pool[0].first + i];
        if (ch->move == *out && ch->visits) {
            info->value_name = "win rate";
            info->value = ch->value / ch->visits;
        }
    }
    if (why)
        mcts_describe(s, iterations, *out, why);
    return TTT_OK;
}

/* The root's children: proven ones exact, the others their mean reward as a score in [-1, 1] and their share
 * of the visits; moves the search left out (far from the stones on a big board) have no opinion. */
static ttt_status mcts_analyse(ttt_engine *e, const ttt_board *b, ttt_analysis *out, ttt_error *err)
{
    (void)err;
    mcts_run(e, b);
    const mcts_state *s = e->state;
    const mcts_node *root = &s->pool[0];
    ttt_move moves[TTT_MAX_CELLS];
    out->count = ttt_board_moves(b, moves);
    out->method = "mcts visits";
    double total = 0;
    for (uint32_t i = 0; i < root->count; i++)
        total += s->pool[root->first + i].visits;
    for (int i = 0; i < out->count; i++) {
        ttt_move_eval *m = &out->moves[i];
        *m = (ttt_move_eval){.move = moves[i], .kind = TTT_EVAL_NONE};
        for (uint32_t j = 0; j < root->count; j++) {
            const mcts_node *ch = &s->pool[root->first + j];
            if (ch->move != moves[i])
                continue;
            m->share = total > 0 ? ch->visits / total : 0.0;
            if (ch->proof != PROOF_NONE) {
                m->kind = TTT_EVAL_EXACT;
                m->result = ch->proof == PROOF_WIN ? 1 : ch->proof == PROOF_LOSS ? -1 : 0;
                m->plies = ch->plies + 1;
                m->score = m->result;
            } else {
                m->kind = TTT_EVAL_SCORE;
                m->score = ch->visits ? 2.0 * ch->value / ch->visits - 1.0 : 0.0;
            }
        }
    }
    return TTT_OK;
}

static ttt_status mcts_explain(ttt_engine *e, const ttt_board *b, ttt_explanation *out, ttt_error *err)
{
    ttt_move m;
    ttt_search_info info = {0};
    return mcts_choose(e, b, &m, &info, out, err);
}

static void mcts_new_game(ttt_engine *e)
{
    mcts_state *s = e->state;
    s->have_root = false;
    if (s->threats) /* what a game's searches remember would make the next game's depend on it */
        ttt_threats_clear(s->threats);
}

static void mcts_stop_state(mcts_state *s)
{
    if (s->threats) {
        ttt_threats_done(s->threats);
        free(s->threats);
    }
    ttt_playout_free(s->playout);
    ttt_lines_unref(s->lines);
    free(s->pool);
    free(s);
}

static ttt_status mcts_start(ttt_engine *e, ttt_error *err)
{
    const mcts_config *c = e->config;
    mcts_state *s = calloc(1, sizeof *s);
    if (!s)
        return ttt_fail(err, TTT_ENOMEM, "engine 'mcts': out of memory");
    s->limit = (size_t)c->tree;
    ttt_status st = ttt_lines_new(&e->rules, &s->lines, err);
    if (st == TTT_OK)
        st = ttt_playout_new_over(s->lines, &s->playout, err);
    if (st == TTT_OK && !pool_reserve(s, MCTS_INITIAL_POOL < s->limit ? MCTS_INITIAL_POOL : s->limit))
        st = ttt_fail(err, TTT_ENOMEM, "engine 'mcts': out of memory");
    if (st) {
        ttt_playout_free(s->playout);
        ttt_lines_unref(s->lines);
        free(s);
        return st;
    }
    s->line_wins = ttt_rules_line_wins(&e->rules);
    s->threat_playouts = s->line_wins && c->threats;
    s->priors = s->line_wins && e->rules.rows * e->rules.cols > MCTS_PRIOR_MIN_CELLS &&
                (c->prior > 0 || c->widen > 0);
    if (s->line_wins && e->rules.k >= MCTS_TACTICS_MIN_K && c->tactics) {
        s->threats = malloc(sizeof *s->threats);
        if (!s->threats) {
            mcts_stop_state(s);
            return ttt_fail(err, TTT_ENOMEM, "engine 'mcts': out of memory");
        }
        ttt_threats_init(s->threats, s->lines);
    }
    s->prior_weight = c->prior;
    s->widen = c->widen;
    s->threat_rate = MCTS_THREAT_INITIAL_RATE;
    e->state = s;
    return TTT_OK;
}

static void mcts_stop(ttt_engine *e)
{
    if (e->state)
        mcts_stop_state(e->state);
}

const ttt_engine_vtable ttt_engine_mcts = {
    .about = {.name = "mcts",
              .summary =
                  "Monte Carlo tree search (UCT) with proven wins and losses: strong on boards too big "
                  "to solve, any rules"},
    .options = mcts_options,
    .config_size = sizeof(mcts_config),
    .config_defaults = &mcts_defaults,
    .start = mcts_start,
    .choose = mcts_choose,
    .analyse = mcts_analyse,
    .explain = mcts_explain,
    .new_game = mcts_new_game,
    .stop = mcts_stop,
};
