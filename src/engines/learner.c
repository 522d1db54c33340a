/*
 * engines/learner.c - the `learner` engine: learns from every game it plays by remembering move sequences
 * (seed 001), with its memory in the ttt database (ttt/store.h).
 *
 * Memory. Every finished game is recorded once, as the canonical form of its move sequence (of its images
 * under the board's symmetries, the lexicographically least: ttt_sym_sequence_canonical), with its result:
 * X won (a winning sequence for the first player), O won (for the second), or a draw (for nobody: "when a
 * draw is recorded, the player order is not considered"). Because every prefix of a canonical sequence is
 * the canonical form of that prefix, the sequences form a tree of canonical prefixes, and the document's
 * "success array" of a sequence is the count, at each prefix, of the recorded games of that result that pass
 * through it. The engine loads the sequences of its rules when it starts into such a tree:
 *
 *     node = a canonical prefix      counts[X_WON], counts[O_WON], counts[DRAWN]: games through it
 *     children: one hash table keyed by (parent node, canonical next move) -> child node
 *
 * and adds each game it learns both to the tree and, in one transaction, to the database (an upsert that
 * adds 1 to the sequence's count, so concurrent learners lose nothing). learn=0 plays from the memory as it
 * was loaded and writes nothing.
 *
 * Matching under the symmetries. The current game's sequence P has canonical form c = g(P) for every g in
 * the set G of symmetries that reach it (more than one when P is itself symmetric, as the empty board is).
 * A recorded sequence matches P when its first |P| moves are an image of P, that is when it passes through
 * node c. A legal move r then continues into the canonical prefix c + min over g in G of g(r), so each legal
 * move of the real board reads its counts from one child of c, and moves that are images of each other read
 * the same counts.
 *
 * Deciding a move: the document's lazy progression, the first step that gives a move:
 *   1. win now: a move that wins the game;
 *   2. block: a cell where the opponent would complete a winning line;
 *   3. pursue a win: continuations with winning games for the mover (W > 0); where losing games continue
 *      with the same move too (L > 0) the winning one is passed over unless W > L (a tie passes it over);
 *      of those left, the move with the most wins;
 *   4. pursue a draw: the same with the drawn games (D > 0, and D > L where L > 0), the most draws;
 *   5. avoid a loss: when losing games continue from here, every move they continue with is avoided, and
 *      the move is random among the others (among all when none is left);
 *   6. random among the legal moves.
 * With backup=1 (the default), before steps 3-6: a move known to win is played, and the moves known to lose
 * are left out while another is left (see "Values known from the games seen"). Each node carries bounds
 * [lo, hi] on the result of the game from its position (X's side: -1, 0, 1), backed up by negamax from the
 * games that ended: a finished game is its result; a position is worth the best of its moves, where a move
 * the memory has is worth its child's bounds and any other move what the rules alone say (it ends the game,
 * or lets the opponent win at once, else anything). So after one game lost to a fork, the fork is a known
 * win for the opponent (two threats: every reply loses), and so is every position that led to it by forced
 * blocks, and the move before it is a known loss. The bounds are kept up to date along each learned game's
 * path and rebuilt from the counts when the memory is loaded; nothing more is stored.
 * Ties are broken by the engine's generator. Under misère a move that completes the mover's own line loses
 * at once: steps 3-6 leave such moves out while any other move exists (the misère form of steps 1-2; under
 * normal rules no move loses at once, so nothing is left out).
 *
 * The engine follows the game it is asked about: each decision compares the board with the previous one and
 * appends the new stones (one per side per turn, alternating). A board that does not extend the previous
 * one starts a new sequence, its stones taken in increasing cell order, X and O alternating, unless the
 * client told the real order with ttt_engine_follow (a server that makes an engine per request does).
 *
 * Nodes: one per decision, and one per position the threat check looks at. time= and nodes= bound the threat
 * check, the only part of a decision whose work grows faster than the board: once the budget is spent, the
 * moves it did not get to are kept as if safe (threats=0 for them). nodes= has a default
 * (LEARNER_DEFAULT_NODES) that small boards never reach, so that big boards get a move in bounded time.
 */
#define _DEFAULT_SOURCE /* realpath */
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engines/engine_impl.h"
#include "engines/tactics.h"
#include "ttt/notation.h"
#include "ttt/store.h"
#include "ttt/symmetry.h"
#include "util/error.h"

/* The three results a recorded sequence can have, as indexes of a node's counts. X_WON and O_WON are the
 * ttt_player of the winner, so the mover's wins are counts[me] and its losses counts[1 - me]. */
enum { X_WON = TTT_X, O_WON = TTT_O, DRAWN = 2, NRESULTS = 3 };

#define LEARNER_INITIAL_NODES 1024
#define LEARNER_INITIAL_SLOTS 2048 /* a power of two */
/* Grow the child table when more than this fraction of its slots is used. */
#define LEARNER_LOAD_NUM 3
#define LEARNER_LOAD_DEN 4
#define NO_NODE          UINT32_MAX
/* Bits of a child key below the parent index: the next move + 1 (cells are at most TTT_MAX_CELLS = 400). */
#define KEY_MOVE_BITS 9
_Static_assert(TTT_MAX_CELLS < (1 << KEY_MOVE_BITS), "a move + 1 must fit in KEY_MOVE_BITS");
/* How many threat-and-block pairs the threats=1 check follows before the final double threat. */
#define LEARNER_THREAT_DEPTH 4
/* With time=, the threat check reads the clock every this many nodes (a node is one scan of the board for
 * threats: about 10 us on 16x16). */
#define LEARNER_CLOCK_CHECK 64
#define LEARNER_MAX_TIME_MS 86400000
/* nodes= by default: a decision's threat check stops after this many positions. The most a decision looked at
 * without a limit, learner:learn=0 against random (200 games each): 247 on 3x3, 241 on 4x4k3, 5767 on 5x5k4
 * (so their play is unchanged), 80681 on 7x7k5 and 198258 on 15x15k5, where one game took 19 s of checks (15
 * us a position). With this limit 2 games against random took 5.2 s user on 15x15k5 and 18.6 s on 20x20k5
 * (load 5 on 2 cores), where 2 games had not finished in 60 s before. */
#define LEARNER_DEFAULT_NODES 10000

typedef struct learner_config {
    char memory[TTT_OPT_PATH_SIZE];
    uint64_t learn;
    uint64_t safe;
    uint64_t threats;
    uint64_t backup;
    uint64_t time_ms; /* 0 = no limit */
    uint64_t nodes;   /* 0 = no limit (refused on big boards without time=) */
} learner_config;

static const learner_config learner_defaults = {.memory = "",
                                                .learn = 1,
                                                .safe = 1,
                                                .threats = 1,
                                                .backup = 1,
                                                .time_ms = 0,
                                                .nodes = LEARNER_DEFAULT_NODES};

static const ttt_option_def learner_options[] = {
    {"memory", TTT_OPT_PATH, offsetof(learner_config, memory), 0, 0, 0, 0, .arg = "PATH",
     .help = "the database (default ~/.local/share/ttt/ttt.db, or $XDG_DATA_HOME/ttt)"},
    {"learn", TTT_OPT_UINT, offsetof(learner_config, learn), 0, 1, 0, 0, .arg = "0|1",
     .help = "1: learn from each finished game; 0: play from memory only"},
    {"safe", TTT_OPT_UINT, offsetof(learner_config, safe), 0, 1, 0, 0, .arg = "0|1",
     .help = "1: prefer moves that never lost to the comparison of counts"},
    {"threats", TTT_OPT_UINT, offsetof(learner_config, threats), 0, 1, 0, 0, .arg = "0|1",
     .help =
         "1: skip moves after which the opponent forces a win by threats; threats=0,safe=0,backup=0 is the "
         "document's player exactly"},
    {"backup", TTT_OPT_UINT, offsetof(learner_config, backup), 0, 1, 0, 0, .arg = "0|1",
     .help = "1: back up the results the games proved over the memory tree, play a known win, avoid a known "
             "loss; 0: the document's counts alone"},
    {"time", TTT_OPT_UINT, offsetof(learner_config, time_ms), 0, LEARNER_MAX_TIME_MS, 0, 0,
     .role = TTT_ROLE_TIME, .arg = "MS",
     .help = "the threat check stops after MS milliseconds, the moves it did not reach kept; 0 = no limit"},
    {"nodes", TTT_OPT_UINT, offsetof(learner_config, nodes), 0, UINT64_MAX, 0, 0, .arg = "N",
     .help = "the same after N nodes per move; 0 = no limit, above 30 cells only with time="},
    {"seed", TTT_OPT_SEED, 0, 0, 0, 0, 0, .arg = "N",
     .help = "choice among equally good moves and at random"},
    {.key = NULL},
};

/* Values, from X's side: what a game through a node is known to end in at best and at worst (backup=1). */
enum { O_WINS_VALUE = -1, DRAW_VALUE = 0, X_WINS_VALUE = 1 };

typedef struct learner_node {
    int64_t counts[NRESULTS];
    int8_t lo, hi; /* O_WINS_VALUE <= lo <= hi <= X_WINS_VALUE; lo == hi: a known result */
} learner_node;

typedef struct learner_state {
    ttt_store *store;
    char *memory_id; /* the database's real path, when games are written to a file (learn=1); else NULL */
    char rules_text[TTT_RULES_TEXT_SIZE];
    /* The tree: node 0 is the empty sequence. */
    learner_node *nodes;
    uint32_t nnodes, node_capacity;
    uint64_t *keys; /* (parent << KEY_MOVE_BITS) | (move + 1); 0: empty slot */
    uint32_t *children;
    size_t slots, used; /* slots is a power of two */
    /* The game being followed. */
    ttt_board seen;
    ttt_move moves[TTT_MAX_CELLS];
    int nmoves;
} learner_state;

/* --- The tree ------------------------------------------------------------------------------------------ */

static void node_init(learner_node *node)
{
    memset(node, 0, sizeof *node);
    node->lo = O_WINS_VALUE;
    node->hi = X_WINS_VALUE;
}

static inline uint64_t child_key(uint32_t parent, ttt_move move)
{
    return ((uint64_t)parent << KEY_MOVE_BITS) | (uint64_t)(move + 1);
}

static inline size_t key_slot(uint64_t key, size_t mask)
{
    key *= UINT64_C(0x9e3779b97f4a7c15);
    return (size_t)(key ^ (key >> 32)) & mask;
}

static size_t find_slot(const uint64_t *keys, size_t slots, uint64_t key)
{
    size_t mask = slots - 1, i = key_slot(key, mask);
    while (keys[i] && keys[i] != key)
        i = (i + 1) & mask;
    return i;
}

static uint32_t child_of(const learner_state *s, uint32_t parent, ttt_move move)
{
    if (parent == NO_NODE)
        return NO_NODE;
    uint64_t key = child_key(parent, move);
    size_t i = find_slot(s->keys, s->slots, key);
    return s->keys[i] ? s->children[i] : NO_NODE;
}

static ttt_status grow_slots(learner_state *s)
{
    size_t slots = s->slots * 2;
    uint64_t *keys = calloc(slots, sizeof *keys);
    uint32_t *children = malloc(slots * sizeof *children);
    if (!keys || !children) {
        free(keys);
        free(children);
        return TTT_ENOMEM;
    }
    for (size_t i = 0; i < s->slots; i++)
        if (s->keys[i]) {
            size_t j = find_slot(keys, slots, s->keys[i]);
            keys[j] = s->keys[i];
            children[j] = s->children[i];
        }
    free(s->keys);
    free(s->children);
    s->keys = keys;
    s->children = children;
    s->slots = slots;
    return TTT_OK;
}

/* The child of parent by move, made when missing; NO_NODE when out of memory. */
static uint32_t child_make(learner_state *s, uint32_t parent, ttt_move move)
{
    uint64_t key = child_key(parent, move);
    size_t i = find_slot(s->keys, s->slots, key);
    if (s->keys[i])
        return s->children[i];
    if ((s->used + 1) * LEARNER_LOAD_DEN > s->slots * LEARNER_LOAD_NUM) {
        if (grow_slots(s))
            return NO_NODE;
        i = find_slot(s->keys, s->slots, key);
    }
    if (s->nnodes == s->node_capacity) {
        learner_node *nodes = realloc(s->nodes, 2 * (size_t)s->node_capacity * sizeof *nodes);
        if (!nodes)
            return NO_NODE;
        s->nodes = nodes;
        s->node_capacity *= 2;
    }
    uint32_t id = s->nnodes++;
    node_init(&s->nodes[id]);
    s->keys[i] = key;
    s->children[i] = id;
    s->used++;
    return id;
}

/* a + b, saturating at TTT_STORE_MAX_COUNT (counts from a file are not trusted to be small). */
static int64_t count_add(int64_t a, int64_t b)
{
    if (b < 0)
        b = 0;
    return a > TTT_STORE_MAX_COUNT - b ? TTT_STORE_MAX_COUNT : a + b;
}

/* Adds count games of the given result along a canonical sequence. */
static ttt_status tree_add(learner_state *s, const ttt_move *canon, int n, int result, int64_t count)
{
    uint32_t node = 0;
    s->nodes[0].counts[result] = count_add(s->nodes[0].counts[result], count);
    for (int i = 0; i < n; i++) {
        if ((node = child_make(s, node, canon[i])) == NO_NODE)
            return TTT_ENOMEM;
        s->nodes[node].counts[result] = count_add(s->nodes[node].counts[result], count);
    }
    return TTT_OK;
}

/* --- Loading and learning ------------------------------------------------------------------------------ */

static int result_of_outcome(ttt_outcome oc)
{
    return oc == TTT_X_WINS ? X_WON : oc == TTT_O_WINS ? O_WON : DRAWN;
}

static void backup(learner_state *s, const ttt_rules *rules, const ttt_move *canon, int n);

typedef struct load_ctx {
    ttt_engine *e;
    ttt_error *err;
    ttt_status status;
} load_ctx;

/* One stored sequence: the store has checked it (a legal finished game of these rules, in canonical form,
 * with its result and a count from 1). */
static int load_one(const ttt_store_sequence *seq, void *user)
{
    load_ctx *ctx = user;
    learner_state *s = ctx->e->state;
    if ((ctx->status = tree_add(s, seq->moves, seq->nmoves, result_of_outcome(seq->outcome), seq->count)) !=
        TTT_OK) {
        ttt_fail(ctx->err, TTT_ENOMEM, "out of memory");
        return 1;
    }
    if (((const learner_config *)ctx->e->config)->backup)
        backup(s, &ctx->e->rules, seq->moves, seq->nmoves);
    return 0;
}

static void learner_stop(ttt_engine *e);

static ttt_status learner_check(const ttt_engine *e, ttt_error *err)
{
    const learner_config *c = e->config;
    return ttt_engine_check_bounded(e, c->time_ms, c->nodes, 0, err);
}

/* What identifies a memory file, so that learners sharing one record each game once: its real path, or, for
 * a file not made yet (opened lazily), its directory's real path and its name, or the path made absolute when
 * the directory is not there either, into *out (NULL for ":memory:": not shared). False when out of memory. */
static bool memory_identity(const char *path, char **out)
{
    *out = NULL;
    if (strcmp(path, ":memory:") == 0)
        return true;
    if ((*out = realpath(path, NULL)))
        return true;
    if (errno == ENOMEM)
        return false;
    const char *slash = strrchr(path, '/');
    char dir[PATH_MAX];
    const char *name = slash ? slash + 1 : path;
    if (slash) {
        size_t n = slash == path ? 1 : (size_t)(slash - path);
        if (n >= sizeof dir)
            return true; /* no real path, so no sharing to detect */
        memcpy(dir, path, n);
        dir[n] = '\0';
    } else {
        strcpy(dir, ".");
    }
    char *real_dir = realpath(dir, NULL);
    char cwd[PATH_MAX];
    const char *base = real_dir ? real_dir : path[0] == '/' ? "" : getcwd(cwd, sizeof cwd) ? cwd : NULL;
    const char *rest = real_dir ? name : path;
    bool ok = true;
    if (base) {
        size_t size = strlen(base) + strlen(rest) + 2;
        if ((*out = malloc(size)))
            snprintf(*out, size, "%s%s%s", base, base[0] && rest[0] != '/' ? "/" : "", rest);
        ok = *out != NULL;
    }
    free(real_dir);
    return ok;
}

static ttt_status learner_start(ttt_engine *e, ttt_error *err)
{
    const learner_config *c = e->config;
    learner_state *s = calloc(1, sizeof *s);
    if (!s)
        return ttt_fail(err, TTT_ENOMEM, "engine 'learner': out of memory");
    e->state = s;
    s->nodes = malloc(LEARNER_INITIAL_NODES * sizeof *s->nodes);
    s->keys = calloc(LEARNER_INITIAL_SLOTS, sizeof *s->keys);
    s->children = malloc(LEARNER_INITIAL_SLOTS * sizeof *s->children);
    if (!s->nodes || !s->keys || !s->children) {
        learner_stop(e);
        return ttt_fail(err, TTT_ENOMEM, "engine 'learner': out of memory");
    }
    s->node_capacity = LEARNER_INITIAL_NODES;
    s->nnodes = 1;
    node_init(&s->nodes[0]);
    s->slots = LEARNER_INITIAL_SLOTS;
    ttt_rules_format(&e->rules, s->rules_text, sizeof s->rules_text);
    ttt_board_init(&s->seen, &e->rules);
    if (!c->memory[0] && e->env.no_files)
        return TTT_OK; /* an empty memory that lives with the engine */
    /* Lazily: a memory file is made by the first game it learns, not by a session quit before one ends. */
    ttt_status st = c->learn ? ttt_store_open_lazy(c->memory, &s->store, err)
                             : ttt_store_open_reader(c->memory, &s->store, err);
    if (!st) {
        load_ctx ctx = {e, err, TTT_OK};
        st = ttt_store_sequences(s->store, s->rules_text, load_one, &ctx, err);
        if (!st)
            st = ctx.status;
    }
    if (!st && c->learn)
        if (!memory_identity(ttt_store_path(s->store), &s->memory_id))
            st = ttt_fail(err, TTT_ENOMEM, "out of memory");
    if (st) {
        ttt_error_prefix(err, "engine 'learner'");
        learner_stop(e); /* the framework calls stop only for engines that started */
    }
    return st;
}

static void forget_game(learner_state *s, const ttt_rules *rules)
{
    ttt_board_init(&s->seen, rules);
    s->nmoves = 0;
}

static ttt_status learner_game_over(ttt_engine *e, const ttt_move *moves, int count, ttt_outcome outcome,
                                    bool record, ttt_error *err)
{
    const learner_config *c = e->config;
    learner_state *s = e->state;
    forget_game(s, &e->rules);
    ttt_board b;
    ttt_status st = ttt_moves_replay(&e->rules, moves, count, &b, err);
    if (st)
        return st;
    if (ttt_board_outcome(&b) == TTT_ONGOING || ttt_board_outcome(&b) != outcome)
        return ttt_fail(err, TTT_EINVAL, "engine 'learner': the moves are not a game that ended that way");
    if (!c->learn)
        return TTT_OK;
    ttt_move canon[TTT_MAX_CELLS];
    ttt_sym_sequence_canonical(&e->rules, moves, count, canon);
    char text[TTT_MOVES_TEXT_SIZE];
    ttt_moves_format(&e->rules, canon, count, text, sizeof text);
    int result = result_of_outcome(outcome);
    if (record && s->store &&
        (st = ttt_store_learn(s->store, s->rules_text, text, ttt_outcome_name(outcome), 1, err)) != TTT_OK)
        return st;
    if (tree_add(s, canon, count, result, 1))
        return ttt_fail(err, TTT_ENOMEM, "engine 'learner': out of memory");
    if (c->backup)
        backup(s, &e->rules, canon, count);
    return TTT_OK;
}

static void learner_new_game(ttt_engine *e) { forget_game(e->state, &e->rules); }

static const char *learner_memory(const ttt_engine *e)
{
    const learner_state *s = e->state;
    return s->memory_id;
}

/* The game so far, as the client played it: replaces whatever the engine followed. Stops at the first move
 * that is not legal (the caller's mistake; the board of the next request then decides, as without it). */
static void learner_follow(ttt_engine *e, const ttt_move *moves, int count)
{
    learner_state *s = e->state;
    forget_game(s, &e->rules);
    for (int i = 0; i < count && ttt_board_is_legal(&s->seen, moves[i]); i++) {
        ttt_board_play(&s->seen, moves[i]);
        s->moves[s->nmoves++] = moves[i];
    }
}

/* --- Following the game -------------------------------------------------------------------------------- */

static bool bits_subset(const ttt_bits *a, const ttt_bits *b)
{
    for (int i = 0; i < TTT_WORDS; i++)
        if (a->w[i] & ~b->w[i])
            return false;
    return true;
}

/* Brings the followed sequence up to b: the new stones, one per side per turn in increasing cell order. */
static void follow(learner_state *s, const ttt_board *b)
{
    if (!bits_subset(&s->seen.stones[TTT_X], &b->stones[TTT_X]) ||
        !bits_subset(&s->seen.stones[TTT_O], &b->stones[TTT_O]) || s->seen.ply > b->ply)
        forget_game(s, &b->rules);
    int next[2] = {0, 0};
    while (s->seen.ply < b->ply) {
        ttt_player side = ttt_board_to_move(&s->seen);
        int cell = next[side];
        while (cell < b->cells &&
               (!ttt_bits_test(&b->stones[side], cell) || ttt_bits_test(&s->seen.stones[side], cell)))
            cell++;
        if (cell == b->cells) { /* not reachable by alternate play from the previous board: start over */
            forget_game(s, &b->rules);
            next[TTT_X] = next[TTT_O] = 0;
            continue;
        }
        next[side] = cell + 1;
        ttt_board_play(&s->seen, cell);
        s->moves[s->nmoves++] = cell;
    }
}

/* --- Forced wins by threats (threats=1) --------------------------------------------------------------- */

/* How many empty cells would complete a winning line for who (tactics_threats); the first goes to *cell. */
static int threats_of(const ttt_board *b, ttt_player who, ttt_move *cell)
{
    ttt_move cells[TTT_MAX_CELLS];
    int n = tactics_threats(b, who, cells);
    if (n)
        *cell = cells[0];
    return n;
}

/* What one decision may spend on the threat check (nodes=, time=): once it runs out, every check answers
 * "not forced", so the moves not yet checked stay candidates. */
typedef struct threat_budget {
    uint64_t *nodes;      /* the engine's counter */
    uint64_t node_limit;  /* the counter's value at which the check stops; UINT64_MAX: none */
    double deadline;      /* ttt_clock_ms() at which it stops; 0: none */
    unsigned until_clock; /* nodes left before the clock is read again */
    bool out;             /* the budget ran out */
} threat_budget;

/* Counts one node, unless the budget has run out: then true. */
static bool budget_spend(threat_budget *bu)
{
    if (bu->deadline > 0 && --bu->until_clock == 0) {
        bu->until_clock = LEARNER_CLOCK_CHECK;
        bu->out |= ttt_clock_ms() >= bu->deadline;
    }
    bu->out |= *bu->nodes >= bu->node_limit;
    if (!bu->out)
        (*bu->nodes)++;
    return bu->out;
}

/* Can `who`, to move in b, force a win with moves that each threaten to win at once? A win now; else a move
 * that makes two threats (the defender cannot block both), or one threat whose forced block leads on to
 * such a win, following up to LEARNER_THREAT_DEPTH threats. When the defender threatens to win, the only
 * move is the block, and it counts when it makes threats itself. */
static bool forced_by_threats(const ttt_board *b, ttt_player who, int depth, threat_budget *bu)
{
    ttt_player def = (ttt_player)(1 - who);
    ttt_move cell, forced = TTT_NO_MOVE;
    if (bu->out)
        return false;
    if (threats_of(b, who, &cell))
        return true;
    int d = threats_of(b, def, &forced);
    if (depth == 0 || d >= 2)
        return false;
    for (int c = d ? forced : 0; c < (d ? forced + 1 : b->cells); c++) {
        if (ttt_bits_test(&b->stones[TTT_X], c) || ttt_bits_test(&b->stones[TTT_O], c))
            continue;
        if (budget_spend(bu))
            return false;
        ttt_board next = *b;
        ttt_board_play(&next, c);
        if (ttt_board_terminal(&next))
            continue;
        int t = threats_of(&next, who, &cell);
        if (t >= 2)
            return true;
        if (t == 1) {
            ttt_board_play(&next, cell);
            if (!ttt_board_terminal(&next) && forced_by_threats(&next, who, depth - 1, bu))
                return true;
        }
    }
    return false;
}

/* --- Values known from the games seen (backup=1) ----------------------------------------------------- */

/* A value from X's side seen from the mover's side, and back: the same negation. */
static inline int8_t for_mover(ttt_player mover, int v) { return (int8_t)(mover == TTT_X ? v : -v); }

/* The bounds of a move's value for the mover that the rules alone give, without memory: the move ends the
 * game; or the opponent then wins at once (it has a winning cell the move does not take: opp_threats of
 * them, the first at opp_cell). Otherwise nothing is known: [-1, 1]. */
static void rule_bounds(const ttt_board *b, ttt_move r, int opp_threats, ttt_move opp_cell, int8_t *lo,
                        int8_t *hi)
{
    ttt_player me = ttt_board_to_move(b);
    ttt_board next = *b;
    ttt_board_play(&next, r);
    if (ttt_board_terminal(&next)) {
        ttt_player w = ttt_board_winner(&next);
        *lo = *hi = (int8_t)(w == me ? 1 : w == TTT_NOBODY ? 0 : -1);
    } else if (opp_threats >= 2 || (opp_threats == 1 && opp_cell != r)) {
        *lo = *hi = -1;
    } else {
        *lo = -1;
        *hi = 1;
    }
}

/* The bounds of move r from the position of node (NO_NODE: a position the memory never saw) for the
 * mover: the child's backed-up bounds when the memory has it, else what the rules give. m is r's
 * canonical form, the key of the child. */
static void move_bounds(const learner_state *s, uint32_t node, const ttt_board *b, ttt_move r, ttt_move m,
                        int opp_threats, ttt_move opp_cell, int8_t *lo, int8_t *hi)
{
    uint32_t child = child_of(s, node, m);
    ttt_player me = ttt_board_to_move(b);
    if (child == NO_NODE) {
        rule_bounds(b, r, opp_threats, opp_cell, lo, hi);
        return;
    }
    int8_t a = for_mover(me, s->nodes[child].lo), z = for_mover(me, s->nodes[child].hi);
    *lo = a < z ? a : z;
    *hi = a < z ? z : a;
}

/* Recomputes a node's bounds from its children (negamax over bounds): a finished game is its result; else
 * the mover's value is the best of its moves, so its lower bound is the best lower bound of a move and its
 * upper bound the best upper bound. One move per class of moves that are images of each other under the
 * symmetries that fix the prefix (stab, a bit per symmetry): they share a child. A move the memory never
 * saw is bounded by the rules alone, so a position is a known loss only when every move is known to lose,
 * which the rules often tell (the opponent has two threats, or one the move does not block). */
static void node_bounds(learner_state *s, const ttt_rules *rules, uint32_t node, const ttt_board *b,
                        unsigned stab)
{
    learner_node *nd = &s->nodes[node];
    if (ttt_board_terminal(b)) {
        nd->lo = nd->hi = (int8_t)ttt_board_utility(b);
        return;
    }
    ttt_player me = ttt_board_to_move(b);
    ttt_move opp_cell = TTT_NO_MOVE, legal[TTT_MAX_CELLS];
    int opp_threats = threats_of(b, (ttt_player)(1 - me), &opp_cell);
    int n = ttt_board_moves(b, legal), lo = -1, hi = -1;
    for (int i = 0; i < n && lo < 1; i++) {
        ttt_move r = legal[i], m = r;
        for (ttt_sym g = 1; g < TTT_SYM_ALL; g++)
            if (stab >> g & 1u) {
                ttt_move image = ttt_sym_move(rules, g, r);
                m = image < m ? image : m;
            }
        if (m != r) /* another move of its class stands for it */
            continue;
        int8_t mlo, mhi;
        move_bounds(s, node, b, r, m, opp_threats, opp_cell, &mlo, &mhi);
        lo = mlo > lo ? mlo : lo;
        hi = mhi > hi ? mhi : hi;
    }
    int8_t a = for_mover(me, lo), z = for_mover(me, hi);
    nd->lo = a < z ? a : z;
    nd->hi = a < z ? z : a;
}

/* Brings the bounds up to date after a game was added along the canonical sequence canon: only the nodes
 * on its path can change (a node's bounds depend on its subtree alone), and they are recomputed from the
 * end of the game back to the empty board. Loading does this once per stored sequence, in any order: the
 * last sequence through a node comes after every change below it, so the result is the same as from
 * scratch. */
static void backup(learner_state *s, const ttt_rules *rules, const ttt_move *canon, int n)
{
    uint32_t path[TTT_MAX_CELLS + 1];
    unsigned stab[TTT_MAX_CELLS + 1];
    ttt_board b;
    ttt_board_init(&b, rules);
    int nsym = ttt_sym_count(rules);
    path[0] = 0;
    stab[0] = (1u << nsym) - 1;
    for (int i = 0; i < n; i++) {
        path[i + 1] = child_of(s, path[i], canon[i]);
        assert(path[i + 1] != NO_NODE);
        stab[i + 1] = 0;
        for (ttt_sym g = 0; g < nsym; g++)
            if ((stab[i] >> g & 1u) && ttt_sym_move(rules, g, canon[i]) == canon[i])
                stab[i + 1] |= 1u << g;
        ttt_board_play(&b, canon[i]);
    }
    for (int d = n;; d--) {
        node_bounds(s, rules, path[d], &b, stab[d]);
        if (d == 0)
            break;
        ttt_board_undo(&b, canon[d - 1]);
    }
}

/* --- Deciding ------------------------------------------------------------------------------------------ */

static ttt_move pick(ttt_engine *e, const ttt_move *moves, int n)
{
    return moves[ttt_rng_below(&e->rng, (uint32_t)n)];
}

/* The moves of the step "pursue": continuations with games of result `want` (W > 0), passed over where
 * losing games continue with the same move unless W > L; of those, the ones with the most. */
static int pursue(const int64_t (*counts)[NRESULTS], const ttt_move *cand, int n, int want, int lose,
                  bool never_lost, ttt_move *out)
{
    int64_t best = 0;
    int nout = 0;
    for (int i = 0; i < n; i++) {
        int64_t w = counts[i][want], l = counts[i][lose];
        if (w == 0 || (l > 0 && (never_lost || w <= l)) || w < best)
            continue;
        if (w > best) {
            best = w;
            nout = 0;
        }
        out[nout++] = cand[i];
    }
    return nout;
}

/* The step that chose (why may be NULL), and the move. */
static ttt_move decided(ttt_explanation *why, const char *step, ttt_move m)
{
    if (why)
        why->step = step;
    return m;
}

/* What the memory says of each candidate move: the games through it that the side to move won, drew and
 * lost (as layers, on the moves the memory has), the games through the position, and the remembered
 * continuations (the game's moves, then the candidate) with how many games followed them. */
static void learner_explain_counts(const ttt_engine *e, uint32_t node, const ttt_move *cand,
                                   const ttt_move *key, int ncand, const int64_t (*counts)[NRESULTS],
                                   ttt_explanation *why)
{
    const learner_state *s = e->state;
    ttt_player me = (ttt_player)(s->nmoves % 2 == 0 ? TTT_X : TTT_O), opp = (ttt_player)(1 - me);
    int64_t most = 1, here = 0;
    for (int i = 0; i < ncand; i++)
        for (int r = 0; r < NRESULTS; r++)
            most = counts[i][r] > most ? counts[i][r] : most;
    for (int r = 0; node != NO_NODE && r < NRESULTS; r++)
        here += s->nodes[node].counts[r];
    static const char games_scale[] = "remembered games that went on with the move";
    ttt_explain_layer *won = ttt_explain_layer_add(why, "games won", games_scale, 0, (double)most, false);
    ttt_explain_layer *drawn = ttt_explain_layer_add(why, "games drawn", games_scale, 0, (double)most, false);
    ttt_explain_layer *lost = ttt_explain_layer_add(why, "games lost", games_scale, 0, (double)most, false);
    ttt_move seq[TTT_MAX_CELLS];
    memcpy(seq, s->moves, (size_t)s->nmoves * sizeof *seq);
    for (int i = 0; i < ncand; i++) {
        int64_t total = counts[i][me] + counts[i][DRAWN] + counts[i][opp];
        if (node == NO_NODE || child_of(s, node, key[i]) == NO_NODE)
            continue;
        ttt_explain_set(won, cand[i], (double)counts[i][me]);
        ttt_explain_set(drawn, cand[i], (double)counts[i][DRAWN]);
        ttt_explain_set(lost, cand[i], (double)counts[i][opp]);
        seq[s->nmoves] = cand[i];
        ttt_explain_line_add(why, "remembered continuation", total, "games", seq, s->nmoves + 1);
    }
    ttt_explain_fact_add(why, "games through this position", (double)here);
}

/* One decision: the step of the progression that gave the move, and the move. With why, also what the
 * memory says of each candidate (learner_explain_counts). */
static ttt_move learner_decide(ttt_engine *e, const ttt_board *b, ttt_explanation *why)
{
    learner_state *s = e->state;
    const learner_config *c = e->config;
    threat_budget budget = {.nodes = &e->nodes,
                            .node_limit = c->nodes ? e->nodes + c->nodes : UINT64_MAX,
                            .deadline = c->time_ms ? ttt_clock_ms() + (double)c->time_ms : 0,
                            .until_clock = LEARNER_CLOCK_CHECK};
    e->nodes++;
    follow(s, b);
    ttt_player me = ttt_board_to_move(b), opp = (ttt_player)(1 - me);
    ttt_move legal[TTT_MAX_CELLS], found[TTT_MAX_CELLS], cand[TTT_MAX_CELLS];
    int n = ttt_board_moves(b, legal), nfound = 0, ncand = 0;

    /* 1. Win now. 2. Block the opponent's winning line. */
    switch (tactics_win_or_block(b, found, &nfound)) {
    case TACTICS_WIN: return decided(why, "1. win now", pick(e, found, nfound));
    case TACTICS_BLOCK: return decided(why, "2. block the opponent's line", pick(e, found, nfound));
    case TACTICS_NONE: break;
    }
    ttt_bits losing; /* misère: the moves that complete our own line lose at once */
    bool some_safe = tactics_losing(b, &losing) < n;
    for (int i = 0; i < n; i++)
        if (!some_safe || !ttt_bits_test(&losing, legal[i])) /* every move loses at once: any */
            cand[ncand++] = legal[i];
    if (c->threats) { /* leave out moves after which the opponent forces a win by threats, if any other */
        int nsafe = 0;
        for (int i = 0; i < ncand; i++) {
            ttt_board next = *b;
            ttt_board_play(&next, cand[i]);
            if (budget.out || ttt_board_terminal(&next) ||
                !forced_by_threats(&next, opp, LEARNER_THREAT_DEPTH, &budget))
                found[nsafe++] = cand[i];
        }
        if (nsafe) {
            memcpy(cand, found, (size_t)nsafe * sizeof *found);
            ncand = nsafe;
        }
        nfound = 0;
    }

    /* The node of the current sequence and the symmetries that take the sequence to it. */
    ttt_move canon[TTT_MAX_CELLS], image[TTT_MAX_CELLS];
    ttt_sym_sequence_canonical(&e->rules, s->moves, s->nmoves, canon);
    ttt_sym reach[TTT_SYM_ALL];
    int nreach = 0;
    for (ttt_sym g = 0; g < ttt_sym_count(&e->rules); g++) {
        ttt_sym_moves(&e->rules, g, s->moves, s->nmoves, image);
        if (memcmp(image, canon, (size_t)s->nmoves * sizeof *image) == 0)
            reach[nreach++] = g;
    }
    uint32_t node = 0;
    for (int i = 0; i < s->nmoves && node != NO_NODE; i++)
        node = child_of(s, node, canon[i]);
    ttt_move key[TTT_MAX_CELLS]; /* each candidate's canonical move: its child's key */
    for (int i = 0; i < ncand; i++) {
        key[i] = TTT_MAX_CELLS;
        for (int j = 0; j < nreach; j++) {
            ttt_move r = ttt_sym_move(&e->rules, reach[j], cand[i]);
            key[i] = r < key[i] ? r : key[i];
        }
    }

    /* With backup=1, the values the memory proves come first: a move known to win is played, and the moves
     * known to lose (the opponent has a recorded win after them, or every reply it has loses) are left out
     * while any other is left. This is "pursue a win" and "avoid a loss" on what the games showed for
     * certain. */
    if (c->backup) {
        ttt_move opp_cell = TTT_NO_MOVE;
        int opp_threats = threats_of(b, opp, &opp_cell), nsafe = 0;
        int8_t lo[TTT_MAX_CELLS], hi[TTT_MAX_CELLS];
        for (int i = 0; i < ncand; i++) {
            move_bounds(s, node, b, cand[i], key[i], opp_threats, opp_cell, &lo[i], &hi[i]);
            if (lo[i] == 1)
                found[nfound++] = cand[i];
        }
        if (nfound)
            return decided(why, "a known win (backed up from the games seen)", pick(e, found, nfound));
        for (int i = 0; i < ncand; i++)
            if (hi[i] > -1) {
                found[nsafe] = cand[i];
                key[nsafe++] = key[i];
            }
        if (nsafe) {
            memcpy(cand, found, (size_t)nsafe * sizeof *found);
            ncand = nsafe;
        }
    }
    int64_t counts[TTT_MAX_CELLS][NRESULTS];
    bool any_loss = false;
    for (int i = 0; i < ncand; i++) {
        uint32_t child = child_of(s, node, key[i]);
        for (int r = 0; r < NRESULTS; r++)
            counts[i][r] = child == NO_NODE ? 0 : s->nodes[child].counts[r];
        any_loss |= counts[i][opp] > 0;
    }
    if (why)
        learner_explain_counts(e, node, cand, key, ncand, counts, why);

    /* 3. Pursue a win. 4. Pursue a draw. With safe=1, first among the moves that never lost. */
    if (c->safe && (nfound = pursue(counts, cand, ncand, me, opp, true, found)) != 0)
        return decided(why, "3. pursue a win (among moves that never lost)", pick(e, found, nfound));
    if (c->safe && (nfound = pursue(counts, cand, ncand, DRAWN, opp, true, found)) != 0)
        return decided(why, "4. pursue a draw (among moves that never lost)", pick(e, found, nfound));
    /* With safe=1, 5. (avoid a loss) comes before the comparison of counts: a move never tried is
     * preferred to one that has lost, however often it also won. */
    for (int i = 0; c->safe && any_loss && i < ncand; i++)
        if (counts[i][opp] == 0)
            found[nfound++] = cand[i];
    if (nfound)
        return decided(why, "5. avoid a loss (safe=1: before comparing counts)", pick(e, found, nfound));
    if ((nfound = pursue(counts, cand, ncand, me, opp, false, found)) != 0)
        return decided(why, "3. pursue a win", pick(e, found, nfound));
    if ((nfound = pursue(counts, cand, ncand, DRAWN, opp, false, found)) != 0)
        return decided(why, "4. pursue a draw", pick(e, found, nfound));
    /* 5. Avoid a loss. */
    if (any_loss)
        for (int i = 0; i < ncand; i++)
            if (counts[i][opp] == 0)
                found[nfound++] = cand[i];
    /* 6. Random. */
    if (nfound)
        return decided(why, "5. avoid a loss", pick(e, found, nfound));
    return decided(why, "6. random", pick(e, cand, ncand));
}

static ttt_status learner_choose(ttt_engine *e, const ttt_board *b, ttt_move *out, ttt_search_info *info,
                                 ttt_explanation *why, ttt_error *err)
{
    (void)info;
    (void)err;
    const learner_state *s = e->state;
    int64_t games = 0;
    if (why) {
        why->method =
            "remembered move sequences (seed 001): win, block, pursue a win, pursue a draw, avoid a loss, "
            "random";
        if (s->nnodes > 0)
            for (int r = 0; r < NRESULTS; r++)
                games += s->nodes[0].counts[r];
    }
    *out = learner_decide(e, b, why);
    if (why) {
        why->choice = *out;
        ttt_explain_fact_add(why, "games in memory", (double)games);
    }
    return TTT_OK;
}

static ttt_status learner_explain(ttt_engine *e, const ttt_board *b, ttt_explanation *out, ttt_error *err)
{
    ttt_move m;
    ttt_search_info info = {0};
    return learner_choose(e, b, &m, &info, out, err);
}

static void learner_stop(ttt_engine *e)
{
    learner_state *s = e->state;
    if (!s)
        return;
    e->state = NULL;
    ttt_store_close(s->store);
    free(s->memory_id);
    free(s->nodes);
    free(s->keys);
    free(s->children);
    free(s);
}

const ttt_engine_vtable ttt_engine_learner = {
    .about = {.name = "learner",
              .summary = "learns from every game it plays: win, block, then the recorded sequences "
                         "that match the game under the board's symmetries"},
    .options = learner_options,
    .config_size = sizeof(learner_config),
    .config_defaults = &learner_defaults,
    .check = learner_check,
    .start = learner_start,
    .choose = learner_choose,
    .explain = learner_explain,
    .new_game = learner_new_game,
    .follow = learner_follow,
    .game_over = learner_game_over,
    .memory = learner_memory,
    .stop = learner_stop,
};
