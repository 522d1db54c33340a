/*
 * search/solve.c - the solver's interface (ttt/solve.h): making it, the root of a search, its threads and its
 * draw proofs. The node search is solve_search.c; what they share, solve_impl.h.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "ttt/solve.h"

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rules/lines.h"
#include "search/prove.h"
#include "search/solve_impl.h"
#include "search/solve_resume.h"
#include "search/solve_trace.h"
#include "search/solve_tune.h"
#include "ttt/symmetry.h"
#include "util/error.h"
#include "util/trace.h"

/* Near cells (geometry.near): within this many rows and columns of a stone. */
#define NEIGHBOURHOOD_RADIUS 2
/* With a limited budget and at most this many empty cells, a full-depth (exact) search is tried first, with
 * EXACT_FIRST_SHARE of the budget, before iterative deepening spends the rest. */
#define EXACT_FIRST_EMPTIES 30
#define EXACT_FIRST_SHARE   0.5
#define MIB                 (1024u * 1024u)
/* The table starts this small (bytes), below glibc's mmap threshold, and grows as it fills (TT_GROW_NUM:
 * solve_search.c): a search pays in memory (page faults, cache misses) only for what it stores. */
#define TT_START_BYTES (64u * 1024u)
/* When every move is valued, solve_root_move_score() asks by distance for this many nodes before the value
 * (6x5k4, every move: 54.3M nodes against 68.2M with 2^20). */
#define ROOT_DISTANCE_NODES (UINT64_C(1) << 18)
/* Draw proofs (search/prove.h) first on boards of at least PROVE_MIN_CELLS cells with k >= PROVE_MIN_K
 * (7x7k5: not in 300 s without; 6x7k5: 941 nodes against 26M; 6x8k5: 0.57M nodes, 1 s, against more than 120
 * s; 5x5k4: 0.71M nodes by search against 2.26M by the prover; below 36 cells no gain). The prover's table
 * is the solver's size, at least PROVE_TT_MIB (a long proof needs room: 8x8k5 fills 64 MiB in minutes); it
 * gets PROVE_SHARE of a limited budget, PROVE_MAX_NODES when the search has none. */
#define PROVE_MIN_CELLS 36
#define PROVE_MIN_K     5
#define PROVE_TT_MIB    64
#define PROVE_SHARE     0.5
#define PROVE_MAX_NODES (UINT64_C(1) << 36)
/* With the attacker to move and at most PROVE_MOVES_MAX_STONES stones (a threat needs more), its moves are
 * proven one by one (prove_moves_hold): first each within PROVE_MOVE_NODES nodes, then budgets
 * PROVE_MOVE_STEP times larger. */
#define PROVE_MOVES_MAX_STONES 1
#define PROVE_MOVE_NODES       (UINT64_C(1) << 20)
#define PROVE_MOVE_STEP        4
/* The main thread counts the helper threads' answers and nodes every PROVE_DRAIN_NODES nodes of its own (a
 * multiple of TTT_PROVER_CHECK_NODES), or every PROVE_WAIT_NS ns while it waits for them. */
#define PROVE_DRAIN_NODES (UINT64_C(1) << 16)
#define PROVE_WAIT_NS     50000000

/* --- Geometry ------------------------------------------------------------------------------------------- */

/* Finds the mirror strategies of the board (see geometry). */
static void geometry_mirrors(geometry *g)
{
    const ttt_lines *lines = g->lines;
    g->nmirror = 0;
    for (int sy = 1; sy < lines->nsym; sy++) {
        if (ttt_sym_compose(sy, sy) != 0)
            continue;
        int fixed = -1, nfixed = 0;
        for (int cell = 0; cell < lines->cells; cell++)
            if (lines->sym[sy][cell] == cell) {
                fixed = cell;
                nfixed++;
            }
        if (nfixed > 1)
            continue;
        bool ok = true;
        for (int i = 0; nfixed == 1 && i < lines->cell_nwin[fixed] && ok; i++) {
            const int16_t *cells =
                &lines->win_cell[lines->cell_win[fixed * lines->cell_win_max + i] * lines->k];
            bool pair = false;
            for (int j = 0; j < lines->k && !pair; j++)
                for (int l = 0; l < lines->k && !pair; l++)
                    pair = cells[j] != cells[l] && lines->sym[sy][cells[j]] == cells[l];
            ok = pair;
        }
        if (!ok)
            continue;
        g->mirror_sym[g->nmirror] = sy;
        g->mirror_fixed[g->nmirror] = fixed;
        g->nmirror++;
    }
}

/* The solver's own tables over a shared geometry, of which it takes a reference. */
static ttt_status geometry_init(geometry *g, const ttt_lines *lines, bool misere)
{
    g->lines = ttt_lines_ref(lines);
    g->line_sign = misere ? -1 : 1;
    const int cells = lines->cells;
    g->near = malloc(sizeof *g->near * (size_t)cells);
    g->zob_keys = malloc(sizeof *g->zob_keys * (size_t)lines->nsym * 2 * (size_t)cells);
    if (!g->near || !g->zob_keys)
        return TTT_ENOMEM;
    for (int sy = 0; sy < lines->nsym; sy++)
        for (int side = 0; side < 2; side++)
            g->zob[sy][side] = &g->zob_keys[(size_t)(sy * 2 + side) * (size_t)cells];
    for (int cell = 0; cell < cells; cell++) {
        memset(&g->near[cell], 0, sizeof g->near[cell]);
        int row = cell / lines->cols, col = cell % lines->cols;
        for (int rr = row - NEIGHBOURHOOD_RADIUS; rr <= row + NEIGHBOURHOOD_RADIUS; rr++)
            for (int cc = col - NEIGHBOURHOOD_RADIUS; cc <= col + NEIGHBOURHOOD_RADIUS; cc++)
                if (rr >= 0 && rr < lines->rows && cc >= 0 && cc < lines->cols)
                    ttt_bits_set(&g->near[cell], rr * lines->cols + cc);
    }
    for (int sy = 0; sy < lines->nsym; sy++)
        for (int cell = 0; cell < cells; cell++)
            for (int side = 0; side < 2; side++)
                g->zob[sy][side][cell] = ttt_zobrist_key((ttt_player)side, lines->sym[sy][cell]);
    geometry_mirrors(g);
    if (lines->words == 1)
        pairing_lines64_init(&g->pairs, lines);
    return TTT_OK;
}

static void geometry_free(geometry *g)
{
    free(g->near);
    free(g->zob_keys);
    ttt_lines_unref(g->lines);
}

/* --- Loading a position --------------------------------------------------------------------------------- */

/* Loads a board into the searcher's incremental state. */
static void load(ttt_solver *s, const ttt_board *b)
{
    memset(&s->pos.occ, 0, sizeof s->pos.occ);
    memset(s->pos.stones, 0, sizeof s->pos.stones);
    memset(s->pos.count[0], 0, (size_t)s->g.lines->nwin);
    memset(s->pos.count[1], 0, (size_t)s->g.lines->nwin);
    memset(s->pos.hash, 0, sizeof s->pos.hash);
    memset(s->pos.swapped, 0, sizeof s->pos.swapped);
    s->pos.ply = 0;
    /* Replaying X and O stones alternately keeps each stone's side right (X has as many or one more). */
    ttt_bits stones[2] = {b->stones[TTT_X], b->stones[TTT_O]};
    int side = TTT_X;
    while (bits_any(&stones[side])) {
        int cell = bits_first(&stones[side]);
        ttt_bits_clear(&stones[side], cell);
        play(s, to_inner(s, cell));
        side ^= 1;
    }
    assert(s->pos.ply == b->ply);
}

/* --- The root ------------------------------------------------------------------------------------------- */

/* Scores of playing `cell` at the root when that move ends the game; false when it does not. */
static bool root_move_ends(const ttt_solver *s, const scan_info *si, int cell, int *score)
{
    int mover = s->pos.ply & 1;
    if (ttt_bits_test(&si->threat[mover], cell)) {
        *score = s->g.line_sign * (TTT_SCORE_WIN - (s->pos.ply + 1));
        return true;
    }
    if (s->pos.ply + 1 == s->g.lines->cells || ttt_bits_test(&s->mode.root_draw, cell)) {
        *score = 0;
        return true;
    }
    return false;
}

/* The best line so far for progress reports: `cell` (a root move), then the moves the table holds for the
 * positions that follow, as far as it knows them; in the caller's cells. Leaves the position as it was. */
static void root_line(ttt_solver *s, int cell)
{
    int played[TTT_MAX_CELLS], n = 0;
    s->progress.root.line_length = 0;
    for (int next = cell; next >= 0 && s->pos.ply < s->g.lines->cells && !ttt_bits_test(&s->pos.occ, next);) {
        s->progress.root.line[s->progress.root.line_length++] = to_user(s, next);
        play(s, next);
        played[n++] = next;
        int frame;
        const tt_entry *e = tt_probe(s, canonical_key(s, &frame));
        next = e && e->move >= 0 ? s->g.lines->inv[frame][e->move] : -1;
    }
    while (n > 0)
        undo(s, played[--n]);
}

/* --- Both cores: root moves valued at once -------------------------------------------------------------- */

/* What the threads of a parallel root share. Each thread takes the next root move not yet taken and values it
 * with solve_root_move_score() on its own solver (its own table: a shared one would make the node counts
 * depend on the timing even more); the values are the same whoever takes a move. */
typedef struct root_share {
    int depth, n;
    ttt_move_score *moves;
    const int *same; /* same[i]: an earlier root move reaching the same position (a symmetric one), or -1 */
    solve_resume *record; /* the main solver's: the moves valued go there, and those it holds are skipped */
    atomic_int next;
    atomic_bool halt;
} root_share;

typedef struct root_worker {
    ttt_solver *solver;
    root_share *share;
} root_worker;

static void *root_work(void *arg)
{
    root_worker *w = arg;
    ttt_solver *s = w->solver;
    root_share *sh = w->share;
    scan_info si;
    solve_scan(s, false, &si);
    for (int i; !s->budget.stop && (i = atomic_fetch_add(&sh->next, 1)) < sh->n;) {
        int sc, cell = sh->moves[i].move;
        if (sh->same[i] >= 0)
            continue;
        if (!resume_move_known(sh->record, cell, &sc) && !root_move_ends(s, &si, cell, &sc)) {
            s->pos.trail[s->pos.ply] = (solver_step){(int16_t)cell, (int16_t)i, (int16_t)sh->n};
            play(s, cell);
            sc = -solve_root_move_score(s, sh->depth - 1);
            undo(s, cell);
            if (s->budget.stop)
                break;
            resume_move_add(sh->record, cell, sc);
        }
        sh->moves[i].score = sc;
        sh->moves[i].exact = true;
    }
    if (s->budget.stop)
        atomic_store(&sh->halt, true);
    return NULL;
}

static ttt_status solver_make(const ttt_rules *rules, int tt_mib, const ttt_lines *lines, ttt_solver **out,
                              ttt_error *err);

/* A solver for another thread, at s's position, as s is set for this search. NULL when memory runs out. */
static ttt_solver *root_helper(const ttt_solver *s)
{
    ttt_solver *h;
    ttt_error err;
    if (solver_make(&s->cfg.rules, s->cfg.tt_mib, s->g.lines, &h, &err))
        return NULL;
    h->pos = s->pos;
    h->mode = s->mode;
    h->budget.start = s->budget.start;
    return h;
}

/* root_iteration() with every move valued exactly and no budget, on s->cfg.threads threads. The moves that
 * reach the same position as an earlier one take its value afterwards. Returns false when stopped (Ctrl-C
 * through s's progress: the other threads stop at their next budget check). */
static bool root_parallel(ttt_solver *s, int depth, ttt_move_score *moves, int n)
{
    int same[TTT_MAX_CELLS];
    uint64_t key[TTT_MAX_CELLS];
    for (int i = 0; i < n; i++) {
        int frame;
        play(s, moves[i].move);
        key[i] = canonical_key(s, &frame);
        undo(s, moves[i].move);
        same[i] = -1;
        for (int j = 0; j < i && same[i] < 0; j++)
            if (key[j] == key[i])
                same[i] = j;
    }
    root_share share = {.depth = depth, .n = n, .moves = moves, .same = same, .record = s->resume};
    atomic_init(&share.next, 0);
    atomic_init(&share.halt, false);
    root_worker workers[TTT_SOLVER_MAX_THREADS];
    pthread_t ids[TTT_SOLVER_MAX_THREADS];
    int started = 1;
    workers[0] = (root_worker){s, &share};
    s->budget.halt = &share.halt;
    for (int t = 1; t < s->cfg.threads; t++) {
        ttt_solver *h = root_helper(s);
        if (!h)
            break; /* fewer threads */
        h->budget.halt = &share.halt;
        workers[started] = (root_worker){h, &share};
        if (pthread_create(&ids[started], NULL, root_work, &workers[started])) {
            ttt_solver_free(h);
            break;
        }
        started++;
    }
    root_work(&workers[0]);
    for (int t = 1; t < started; t++) {
        pthread_join(ids[t], NULL);
        s->budget.nodes += workers[t].solver->budget.nodes;
        ttt_solver_free(workers[t].solver);
    }
    s->budget.halt = NULL;
    if (atomic_load(&share.halt)) {
        s->budget.stop = true;
        return false;
    }
    s->budget.stop = false;
    for (int i = 0; i < n; i++) {
        if (same[i] >= 0)
            moves[i] = (ttt_move_score){moves[i].move, moves[same[i]].score, true};
        if (s->progress.root.best_move == TTT_NO_MOVE || moves[i].score > s->progress.root.best_score) {
            s->progress.root.best_move = to_user(s, moves[i].move);
            s->progress.root.best_score = moves[i].score;
        }
    }
    s->progress.root.root_done = n;
    return true;
}

/* One iteration at the root to `depth`. With all, every move gets an exact score (full window); otherwise the
 * window (best - 1, +inf) tells each move's score exactly when it ties or beats the best so far. Returns
 * false when the budget ran out. */
static bool root_iteration(ttt_solver *s, int depth, bool all, ttt_move_score *moves, int n)
{
    scan_info si;
    solve_scan(s, false, &si);
    int best = -SCORE_INF;
    s->progress.root = (ttt_search_progress){
        .depth = depth, .root_total = n, .best_move = TTT_NO_MOVE, .exact = s->mode.exact};
    if (all && s->mode.exact && s->g.line_sign > 0 && s->cfg.threads > 1 && !s->budget.node_limit &&
        s->budget.deadline <= 0)
        return root_parallel(s, depth, moves, n);
    ttt_trace_step *st = trace_begin(s->trace.to, TTT_TRACE_DEPTH);
    if (st) {
        st->depth = depth;
        trace_emit(s->trace.to);
    }
    s->trace.reply_ply = s->pos.ply + 1;
    /* Every move valued exactly to the end: the values a checkpoint keeps (search/solve_resume.h). */
    const bool settles = all && s->mode.exact && depth == s->g.lines->cells - s->pos.ply;
    for (int i = 0; i < n; i++) {
        int sc;
        bool exact = true;
        int alpha = all || best == -SCORE_INF ? -SCORE_INF : best - 1;
        s->trace.root_move = to_user(s, moves[i].move);
        if (!(settles && resume_move_known(s->resume, moves[i].move, &sc)) &&
            !root_move_ends(s, &si, moves[i].move, &sc)) {
            s->pos.trail[s->pos.ply] = (solver_step){(int16_t)moves[i].move, (int16_t)i, (int16_t)n};
            uint64_t inexact0 = s->budget.inexact;
            play(s, moves[i].move);
            sc = all && s->mode.exact && s->g.line_sign > 0 ? -solve_root_move_score(s, depth - 1)
                                                            : -solve_search(s, depth - 1, -SCORE_INF, -alpha);
            undo(s, moves[i].move);
            if (s->budget.stop)
                return false;
            exact = sc > alpha;
            if (settles && s->budget.inexact == inexact0)
                resume_move_add(s->resume, moves[i].move, sc);
        }
        moves[i].score = sc;
        moves[i].exact = exact;
        if ((st = trace_begin(s->trace.to, TTT_TRACE_ROOT_MOVE))) {
            st->path_length = 1;
            st->path[0] = s->trace.root_move;
            st->score = sc;
            st->alpha = alpha;
            st->beta = SCORE_INF;
            st->exact = exact;
            trace_emit(s->trace.to);
        }
        if (sc > best) {
            best = sc;
            s->progress.root.best_move = to_user(s, moves[i].move);
            s->progress.root.best_score = sc;
            if (s->progress.fn) /* only a listener needs the line */
                root_line(s, moves[i].move);
        }
        s->progress.root.root_done = i + 1;
    }
    return true;
}

/* --- Draw proofs (search/prove.h) ----------------------------------------------------------------------- */

/* The prover's stop callback: the search's budget and progress reports (as budget_spent), and the prover's
 * own share of the time. */
static void prove_moves_drain(ttt_solver *s);

static bool prove_stop(void *user, uint64_t nodes)
{
    ttt_solver *s = user;
    uint64_t before = s->budget.nodes;
    s->budget.nodes = s->proof.nodes0 + nodes;
    if (s->proof.moves && (nodes & (PROVE_DRAIN_NODES - 1)) == 0)
        prove_moves_drain(s);
    if (s->progress.fn && before / TTT_SEARCH_PROGRESS_NODES != s->budget.nodes / TTT_SEARCH_PROGRESS_NODES)
        solve_report(s);
    double now = ttt_clock_ms();
    if (s->progress.interrupted || (s->budget.node_limit && s->budget.nodes >= s->budget.node_limit) ||
        (s->budget.deadline > 0 && now >= s->budget.deadline))
        s->budget.stop = true;
    return s->budget.stop || (s->proof.deadline > 0 && now >= s->proof.deadline);
}

/* One run of the prover within `cap` nodes (and the proof's budget and deadline), its nodes counted in the
 * search's. Progress reports name the phase and the side while it runs, and then the phase before. */
static ttt_proof prove_once(ttt_solver *s, ttt_player side, const ttt_bits *attacker,
                            const ttt_bits *defender, bool attacker_to_move, uint64_t cap)
{
    s->proof.spent = 0;
    if (s->budget.stop || s->proof.limit == 0 ||
        (s->proof.deadline > 0 && ttt_clock_ms() >= s->proof.deadline))
        return TTT_PROOF_UNKNOWN;
    s->proof.nodes0 = s->budget.nodes;
    uint64_t used = 0;
    const ttt_search_phase phase = s->progress.root.phase;
    s->progress.root.phase = TTT_PHASE_PROVE;
    s->progress.root.prove_side = side;
    s->progress.root.prove_done = s->progress.root.prove_total = 0;
    s->proof.run = *attacker;
    for (int i = 0; i < TTT_WORDS; i++)
        s->proof.run.w[i] |= defender->w[i];
    ttt_proof r = ttt_prover_run_bits(s->proof.prover, attacker, defender, attacker_to_move,
                                      cap < s->proof.limit ? cap : s->proof.limit, prove_stop, s, &used);
    s->progress.root.phase = phase;
    s->budget.nodes = s->proof.nodes0 + used;
    s->proof.limit = s->proof.limit > used ? s->proof.limit - used : 0;
    s->proof.spent = used;
    return r;
}

/* The symmetries of the board other than the identity that map the position (inner stone sets) onto itself,
 * into syms; returns how many. */
static int position_symmetries(const ttt_lines *lines, const ttt_bits *a, const ttt_bits *b, int *syms)
{
    int n = 0;
    for (int y = 1; y < lines->nsym; y++) {
        ttt_bits ya = {{0}}, yb = {{0}};
        for (int cell = 0; cell < lines->cells; cell++) {
            if (ttt_bits_test(a, cell))
                ttt_bits_set(&ya, lines->sym[y][cell]);
            if (ttt_bits_test(b, cell))
                ttt_bits_set(&yb, lines->sym[y][cell]);
        }
        if (ttt_bits_equal(&ya, a) && ttt_bits_equal(&yb, b))
            syms[n++] = y;
    }
    return n;
}

/* The lowest cell that one of the symmetries syms takes `cell` to (cell itself when none is lower): moves of
 * one orbit reach positions of the same value. */
static int orbit_first(const ttt_lines *lines, const int *syms, int nsyms, int cell)
{
    int first = cell;
    for (int j = 0; j < nsyms; j++)
        if (lines->sym[syms[j]][cell] < first)
            first = lines->sym[syms[j]][cell];
    return first;
}

/* What the threads of prove_moves_hold share: the attacker's moves, each one's state, the nodes of the helper
 * threads. A move is taken by one thread at a time (busy); tried counts the budgets it has been given, so
 * that a thread gives each move its round's budget once; its last taker takes it first in the next round,
 * its table holding that move's work. Only the main thread touches the solver (its prover, progress and
 * checkpoint record): the helpers' answers reach the record through prove_moves_drain. */
enum { MOVE_OPEN, MOVE_HOLDS, MOVE_FAILS, MOVE_WINS }; /* FAILS: stopped, WINS: the attacker's */
typedef struct moves_share {
    const ttt_bits *attacker, *defender;
    const int *cells;
    int n;
    atomic_int state[TTT_MAX_CELLS];
    atomic_int tried[TTT_MAX_CELLS];
    atomic_int owner[TTT_MAX_CELLS];
    atomic_bool busy[TTT_MAX_CELLS];
    atomic_uint_fast64_t spent[TTT_MAX_CELLS]; /* nodes, every thread and attempt */
    int orbit[TTT_MAX_CELLS];                  /* the moves each stands for */
    atomic_int on[TTT_SOLVER_MAX_THREADS];     /* the move each thread is on, -1 between two */
    int threads;                               /* started */
    atomic_bool halt;
    atomic_uint_fast64_t helper_nodes;
    uint64_t helper_used[TTT_MAX_CELLS]; /* written by the helper before its state, read by the main thread */
    bool recorded[TTT_MAX_CELLS];        /* main thread: the answer is in the checkpoint record */
    uint64_t drained_nodes;              /* main thread: helper nodes counted in the search's */
} moves_share;

/* A thread of prove_moves_hold: thread t (0: the main one, whose prover is s's) with its prover, or the
 * helper's stop and node count. */
typedef struct moves_thread {
    moves_share *share;
    ttt_solver *s; /* the main thread's solver (read by thread 0 only) */
    ttt_prover *prover;
    int t;
    ttt_player side;  /* the attacker, named by the main thread's progress */
    uint64_t counted; /* of the run under way, nodes added to share->helper_nodes */
} moves_thread;

/* Main thread: the helpers' settled moves into the checkpoint record and the count, their nodes into the
 * search's. */
static void prove_moves_drain(ttt_solver *s)
{
    moves_share *sh = s->proof.moves;
    if (!sh)
        return;
    const uint64_t helper = atomic_load(&sh->helper_nodes);
    s->proof.nodes0 += helper - sh->drained_nodes;
    s->budget.nodes += helper - sh->drained_nodes;
    sh->drained_nodes = helper;
    for (int i = 0; i < sh->n; i++) {
        if (sh->recorded[i] || atomic_load(&sh->state[i]) != MOVE_HOLDS)
            continue;
        ttt_bits m = *sh->attacker;
        ttt_bits_set(&m, sh->cells[i]);
        resume_proof_add(s->resume, &m, sh->defender, false, true, sh->helper_used[i]);
        sh->recorded[i] = true;
        s->proof.moves_done++;
    }
}

/* Main thread, every move left taken by a helper: a pause, their answers, the live line and Ctrl-C. */
static void prove_moves_wait(ttt_solver *s)
{
    const struct timespec pause = {0, PROVE_WAIT_NS};
    nanosleep(&pause, NULL);
    prove_moves_drain(s);
    const ttt_search_phase phase = s->progress.root.phase;
    s->progress.root.phase = TTT_PHASE_PROVE;
    if (s->progress.fn)
        solve_report(s);
    s->progress.root.phase = phase;
    if (s->progress.interrupted) {
        s->budget.stop = true;
        atomic_store(&s->proof.moves->halt, true);
    }
}

static bool helper_stop(void *user, uint64_t nodes)
{
    moves_thread *th = user;
    atomic_fetch_add(&th->share->helper_nodes, nodes - th->counted);
    th->counted = nodes;
    return atomic_load(&th->share->halt);
}

/* One attempt at move i within cap nodes by thread th; false when the whole proof must stop (a move fails,
 * or the main thread's budget is spent or stopped). */
static bool moves_attempt(moves_thread *th, int i, uint64_t cap)
{
    moves_share *sh = th->share;
    ttt_bits m = *sh->attacker;
    ttt_bits_set(&m, sh->cells[i]);
    ttt_proof r;
    uint64_t used;
    bool known;
    atomic_store(&sh->on[th->t], i);
    if (th->t == 0 && resume_proof_known(th->s->resume, &m, sh->defender, false, &known)) {
        r = known ? TTT_PROOF_HOLDS : TTT_PROOF_FORCED;
        used = 0;
    } else if (th->t == 0) {
        r = prove_once(th->s, th->side, &m, sh->defender, false, cap);
        used = th->s->proof.spent;
    } else {
        th->counted = 0;
        r = ttt_prover_run_bits(th->prover, &m, sh->defender, false, cap, helper_stop, th, &used);
        atomic_fetch_add(&sh->helper_nodes, used - th->counted);
    }
    atomic_fetch_add(&sh->spent[i], used);
    atomic_store(&sh->on[th->t], -1);
    if (r == TTT_PROOF_HOLDS) {
        sh->helper_used[i] = used;
        atomic_store(&sh->state[i], MOVE_HOLDS);
    } else if (r == TTT_PROOF_FORCED || used < cap) { /* fails, or stopped */
        atomic_store(&sh->state[i], r == TTT_PROOF_FORCED ? MOVE_WINS : MOVE_FAILS);
    }
    if (th->t == 0)
        prove_moves_drain(th->s);
    return r != TTT_PROOF_FORCED && !(r == TTT_PROOF_UNKNOWN && used < cap);
}

/* Thread th's rounds: round r gives each move not yet settled PROVE_MOVE_NODES * PROVE_MOVE_STEP^r nodes,
 * the moves th tried last first; it leaves when every move is settled or taken by the other threads. */
static void moves_rounds(moves_thread *th)
{
    moves_share *sh = th->share;
    for (int r = 0; !atomic_load(&sh->halt); r++) {
        const uint64_t cap = PROVE_MOVE_NODES << (2 * r < 40 ? 2 * r : 40);
        bool open = false, taken = false, idle = true;
        for (int pass = 0; pass < 2 && !atomic_load(&sh->halt); pass++)
            for (int j = 0; j < sh->n && !atomic_load(&sh->halt); j++) {
                const int i = th->t == 0 ? j : sh->n - 1 - j; /* the helpers from the other end */
                if (atomic_load(&sh->state[i]) != MOVE_OPEN || (atomic_load(&sh->owner[i]) == th->t) != !pass)
                    continue;
                open = true;
                if (atomic_load(&sh->tried[i]) > r)
                    continue;
                if (atomic_exchange(&sh->busy[i], true)) {
                    taken = true;
                    continue;
                }
                if (atomic_load(&sh->tried[i]) > r || atomic_load(&sh->state[i]) != MOVE_OPEN) {
                    atomic_store(&sh->busy[i], false);
                    continue;
                }
                atomic_store(&sh->tried[i], r + 1);
                atomic_store(&sh->owner[i], th->t);
                idle = false;
                if (!moves_attempt(th, i, cap))
                    atomic_store(&sh->halt, true);
                atomic_store(&sh->busy[i], false);
            }
        if (!open || (idle && taken && th->t != 0))
            return;
        if (idle && taken) /* the main thread waits for the helpers' last moves, draining their answers */
            r--, prove_moves_wait(th->s);
    }
}

static void *moves_helper(void *arg)
{
    moves_thread *th = arg;
    moves_rounds(th);
    return NULL;
}

/* Main thread, as prove_moves_hold ends: each move's state and nodes into the solver's report, and when one is
 * left open the positions the tables hold proven, helpers (their provers, not yet freed) and main thread. */
static void prove_moves_record(ttt_solver *s, ttt_player side, const moves_thread *threads)
{
    const moves_share *sh = s->proof.moves;
    ttt_proof_report *rep = &s->proof.report;
    rep->side = side;
    rep->count = sh->n;
    rep->proven = 0;
    bool open = false;
    for (int i = 0; i < sh->n; i++)
        open |= atomic_load(&sh->state[i]) != MOVE_HOLDS;
    for (int t = 0; t < sh->threads && open; t++)
        rep->proven += ttt_prover_proven(threads[t].prover);
    for (int i = 0; i < sh->n; i++) {
        const int state = atomic_load(&sh->state[i]);
        rep->moves[i] = (ttt_first_move){.move = to_user(s, sh->cells[i]),
                                         .orbit = sh->orbit[i],
                                         .state = state == MOVE_HOLDS  ? TTT_FIRST_REFUTED
                                                  : state == MOVE_WINS ? TTT_FIRST_WINS
                                                                       : TTT_FIRST_OPEN,
                                         .nodes = atomic_load(&sh->spent[i])};
    }
}

void solve_prove_report(ttt_solver *s, ttt_search_progress *p)
{
    const moves_share *sh = s->proof.moves;
    p->prove_first = sh != NULL;
    p->prove_threads = sh ? sh->threads : 0;
    p->prove_table_full = ttt_prover_table_full(s->proof.prover);
    for (int t = 0; t < p->prove_threads; t++) {
        const int i = atomic_load(&sh->on[t]);
        p->prove_on[t] = i < 0 ? TTT_NO_MOVE : to_user(s, sh->cells[i]);
    }
    if (sh) {
        p->prove_done = s->proof.moves_done;
        p->prove_total = s->proof.moves_total;
    } else {
        ttt_prover_progress(s->proof.prover, &p->prove_done, &p->prove_total);
    }
    /* The line: the stones of the run's root not on the position searched (its first move, if any), then the
     * prover's path, if the main thread's prover is running. */
    int n = 0;
    for (int cell = 0; cell < s->g.lines->cells; cell++)
        if (ttt_bits_test(&s->proof.run, cell) && !ttt_bits_test(&s->proof.root, cell))
            p->current[n++] = to_user(s, cell);
    int path[TTT_PROVER_PATH_MAX];
    const int len = ttt_prover_path(s->proof.prover, path);
    if (len == 0)
        n = 0; /* between two runs: no line */
    for (int i = 0; i < len && n < TTT_MAX_CELLS; i++)
        p->current[n++] = path[i] == TTT_PROVER_PASS ? TTT_NO_MOVE : to_user(s, path[i]);
    p->current_length = n;
    for (int i = 0; i < n; i++)
        p->current_index[i] = p->current_count[i] = 0;
}

void ttt_solver_proof_report(const ttt_solver *s, ttt_proof_report *out) { *out = s->proof.report; }

const char *ttt_first_state_name(ttt_first_state state)
{
    return state == TTT_FIRST_REFUTED ? "refuted" : state == TTT_FIRST_WINS ? "wins" : "open";
}

/* Whether the attacker, to move with at most PROVE_MOVES_MAX_STONES stones on the board, cannot complete a
 * line first: whether it cannot after each of its moves (one per orbit of the position's symmetries), proven
 * each within PROVE_MOVE_NODES nodes, then budgets PROVE_MOVE_STEP times larger for those left. The cheap
 * moves are settled first, each recorded for a checkpoint as it is (a proof that stops leaves them, and its
 * table, to the next run), and the live line counts them. With threads (no budget), each has a prover of
 * its own and takes the next move not taken. */
static bool prove_moves_hold(ttt_solver *s, ttt_player side, const ttt_bits *attacker,
                             const ttt_bits *defender)
{
    int syms[TTT_SYM_ALL], cells[TTT_MAX_CELLS], n = 0;
    const int nsyms = position_symmetries(s->g.lines, attacker, defender, syms);
    int orbit[TTT_MAX_CELLS] = {0};
    for (int cell = 0; cell < s->g.lines->cells; cell++)
        if (!ttt_bits_test(attacker, cell) && !ttt_bits_test(defender, cell)) {
            const int first = orbit_first(s->g.lines, syms, nsyms, cell);
            orbit[first]++;
            if (first == cell)
                cells[n++] = cell;
        }
    moves_share *sh = calloc(1, sizeof *sh);
    if (!sh)
        return false;
    for (int i = 0; i < n; i++)
        sh->orbit[i] = orbit[cells[i]];
    for (int t = 0; t < TTT_SOLVER_MAX_THREADS; t++)
        atomic_init(&sh->on[t], -1);
    sh->attacker = attacker;
    sh->defender = defender;
    sh->cells = cells;
    sh->n = n;
    for (int i = 0; i < n; i++)
        atomic_init(&sh->owner[i], -1);
    s->proof.moves = sh;
    s->progress.root.prove_side = side;
    s->proof.nodes0 = s->budget.nodes;
    s->proof.moves_done = 0;
    s->proof.moves_total = n;
    moves_thread threads[TTT_SOLVER_MAX_THREADS];
    pthread_t ids[TTT_SOLVER_MAX_THREADS];
    int started = 1;
    threads[0] = (moves_thread){.share = sh, .s = s, .prover = s->proof.prover, .t = 0, .side = side};
    const bool parallel =
        s->cfg.threads > 1 && !s->budget.node_limit && s->budget.deadline <= 0 && s->proof.deadline <= 0;
    for (int t = 1; parallel && t < s->cfg.threads && t < n; t++) {
        ttt_error err;
        threads[started] = (moves_thread){.share = sh, .s = NULL, .t = t};
        if (ttt_prover_new_lines(s->g.lines, s->proof.tt_mib, false, &threads[started].prover, &err))
            break;
        if (pthread_create(&ids[started], NULL, moves_helper, &threads[started])) {
            ttt_prover_free(threads[started].prover);
            break;
        }
        started++;
    }
    sh->threads = started;
    moves_rounds(&threads[0]);
    atomic_store(&sh->halt, true);
    for (int t = 1; t < started; t++)
        pthread_join(ids[t], NULL);
    prove_moves_drain(s);
    prove_moves_record(s, side, threads);
    for (int t = 1; t < started; t++)
        ttt_prover_free(threads[t].prover);
    bool holds = true;
    for (int i = 0; i < n; i++)
        holds &= atomic_load(&sh->state[i]) == MOVE_HOLDS;
    s->proof.spent = 0;
    s->proof.moves = NULL;
    s->proof.moves_total = 0;
    free(sh);
    return holds;
}

/* Whether `attacker`'s side (the player `side`) cannot complete a line before the other does, from inner
 * stone sets. */
static bool prove_holds(ttt_solver *s, ttt_player side, const ttt_bits *attacker, const ttt_bits *defender,
                        bool attacker_to_move)
{
    bool holds;
    if (s->budget.stop)
        return false;
    if (resume_proof_known(s->resume, attacker, defender, attacker_to_move, &holds))
        return holds;
    s->proof.spent = 0;
    if (attacker_to_move && ttt_bits_count(attacker) + ttt_bits_count(defender) <= PROVE_MOVES_MAX_STONES) {
        holds = prove_moves_hold(s, side, attacker, defender);
    } else {
        holds = prove_once(s, side, attacker, defender, attacker_to_move, UINT64_MAX) == TTT_PROOF_HOLDS;
    }
    if (!s->budget.stop)
        resume_proof_add(s->resume, attacker, defender, attacker_to_move, holds, s->proof.spent);
    return holds;
}

/* The stones of the side to move and of the other side (inner cells), and sets the prover's budget from
 * the search's. */
static void prove_begin(ttt_solver *s, const ttt_board *b, const ttt_limits *limits, ttt_bits *mover,
                        ttt_bits *other)
{
    int side = ttt_board_to_move(b);
    *mover = *other = (ttt_bits){{0}};
    for (int cell = 0; cell < s->g.lines->cells; cell++) {
        if (ttt_bits_test(&b->stones[side], cell))
            ttt_bits_set(mover, to_inner(s, cell));
        if (ttt_bits_test(&b->stones[side ^ 1], cell))
            ttt_bits_set(other, to_inner(s, cell));
    }
    s->proof.root = *mover;
    for (int i = 0; i < TTT_WORDS; i++)
        s->proof.root.w[i] |= other->w[i];
    s->proof.limit = limits->nodes ? (uint64_t)((double)limits->nodes * PROVE_SHARE) : PROVE_MAX_NODES;
    if (s->resume->use) /* the answers loaded from a checkpoint spent that much of it */
        s->proof.limit = s->proof.limit > s->resume->prove_used ? s->proof.limit - s->resume->prove_used : 0;
    s->proof.deadline = limits->ms > 0 ? s->budget.start + limits->ms * PROVE_SHARE : 0;
}

/* The root moves that draw: after each, neither side can complete a line first. The other side cannot do it
 * after any move if it cannot with the move now (one more stone of ours never helps it). */
static ttt_bits prove_root_draws(ttt_solver *s, const ttt_board *b, const ttt_limits *limits)
{
    ttt_bits mover, other, draws = {{0}};
    const ttt_player me = ttt_board_to_move(b), you = (ttt_player)(me ^ 1);
    prove_begin(s, b, limits, &mover, &other);
    ttt_search_progress *p = &s->progress.root;
    p->phase = TTT_PHASE_PROVE;
    bool other_cannot = prove_holds(s, you, &other, &mover, true);
    /* On the empty board that proof is also the mover's after each of its moves: the prover's question is
     * about the attacker's and the defender's stones, not their colours. */
    const bool empty_board = other_cannot && ttt_bits_count(&mover) + ttt_bits_count(&other) == 0;
    scan_info si;
    solve_scan(s, false, &si);
    int cells[TTT_MAX_CELLS], n = 0;
    for (int cell = 0; cell < s->g.lines->cells; cell++) {
        int score;
        if (!ttt_bits_test(&s->pos.occ, cell) && !root_move_ends(s, &si, cell, &score))
            cells[n++] = cell;
    }
    p->root_total = n;
    int syms[TTT_SYM_ALL];
    const int nsyms = position_symmetries(s->g.lines, &mover, &other, syms);
    for (int i = 0; i < n && !s->budget.stop; i++) {
        p->root_done = i;
        ttt_bits m = mover;
        ttt_bits_set(&m, cells[i]);
        const int first = orbit_first(s->g.lines, syms, nsyms, cells[i]);
        if (first < cells[i] ? ttt_bits_test(&draws, first)
                             : (empty_board || prove_holds(s, me, &m, &other, false)) &&
                                   (other_cannot || prove_holds(s, you, &other, &m, true))) {
            ttt_bits_set(&draws, cells[i]);
            p->drawn++;
            resume_move_add(s->resume, cells[i], 0); /* a draw: the board fills */
        }
    }
    return draws;
}

int ttt_move_score_compare(const void *a, const void *b)
{
    const ttt_move_score *x = a, *y = b;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    return x->move - y->move;
}

bool ttt_solver_proves_draws(const ttt_rules *rules)
{
    return rules->k >= PROVE_MIN_K && rules->rows * rules->cols >= PROVE_MIN_CELLS &&
           ttt_prover_supports(rules);
}

/* A solver for valid rules over `lines`, the geometry of the board as searched (the rules turned sideways
 * when they have more rows than columns), of which it takes a reference. */
static ttt_status solver_make(const ttt_rules *rules, int tt_mib, const ttt_lines *lines, ttt_solver **out,
                              ttt_error *err)
{
    *out = NULL;
    ttt_solver *s = calloc(1, sizeof *s);
    if (!s)
        return ttt_fail(err, TTT_ENOMEM, "solver: out of memory");
    s->cfg.rules = *rules;
    s->cfg.root_distance_nodes = ROOT_DISTANCE_NODES;
    s->cfg.threads = 1;
    s->cfg.tt_mib = tt_mib < 1 ? 1 : tt_mib;
    s->cfg.transposed = rules->rows > rules->cols;
    s->resume = calloc(1, sizeof *s->resume);
    const ttt_rules *inner = &lines->rules;
    size_t entries = 1;
    size_t want = (size_t)(tt_mib < 1 ? 1 : tt_mib) * MIB / sizeof(tt_entry);
    while (entries * 2 <= want)
        entries *= 2;
    s->table.max = entries;
    while (entries > TT_BUCKET && entries * sizeof(tt_entry) > TT_START_BYTES)
        entries /= 2;
    s->table.memory = calloc(entries * sizeof *s->table.tt + CACHE_LINE, 1);
    s->table.tt =
        s->table.memory
            ? (tt_entry *)(((uintptr_t)s->table.memory + CACHE_LINE - 1) & ~(uintptr_t)(CACHE_LINE - 1))
            : NULL;
    s->table.mask = entries - 1;
    ttt_error perr;
    s->proof.tt_mib = tt_mib > PROVE_TT_MIB ? tt_mib : PROVE_TT_MIB;
    if (geometry_init(&s->g, lines, !ttt_rules_line_wins(rules)) || !s->table.tt || !s->resume ||
        (ttt_solver_proves_draws(inner) &&
         ttt_prover_new_lines(lines, s->proof.tt_mib, false, &s->proof.prover, &perr))) {
        ttt_solver_free(s);
        return ttt_fail(err, TTT_ENOMEM, "solver: out of memory for a %d MiB table", tt_mib);
    }
    *out = s;
    return TTT_OK;
}

ttt_status ttt_solver_new(const ttt_rules *rules, int tt_mib, ttt_solver **out, ttt_error *err)
{
    *out = NULL;
    ttt_error sub;
    if (ttt_rules_check(rules, &sub))
        return ttt_fail(err, TTT_EINVAL, "solver: %s", sub.msg);
    ttt_rules inner = *rules;
    if (rules->rows > rules->cols) {
        inner.rows = rules->cols;
        inner.cols = rules->rows;
    }
    const ttt_lines *lines;
    ttt_status st = ttt_lines_new(&inner, &lines, err);
    if (st)
        return st;
    st = solver_make(rules, tt_mib, lines, out, err);
    ttt_lines_unref(lines);
    return st;
}

void ttt_solver_free(ttt_solver *s)
{
    if (!s)
        return;
    geometry_free(&s->g);
    ttt_prover_free(s->proof.prover);
    free(s->table.memory);
    free(s->resume);
    free(s);
}

void ttt_solver_clear(ttt_solver *s)
{
    memset(s->table.tt, 0, (s->table.mask + 1) * sizeof *s->table.tt);
    s->table.filled = 0;
    memset(s->table.history, 0, sizeof s->table.history);
    if (s->proof.prover)
        ttt_prover_clear(s->proof.prover);
    s->proof.report.count = 0;
}

uint64_t ttt_solver_nodes(const ttt_solver *s) { return s->budget.total_nodes; }

void solve_set_trace(ttt_solver *s, ttt_trace *trace) { s->trace.to = trace; }

ttt_status ttt_solver_set_threads(ttt_solver *s, int threads, ttt_error *err)
{
    if (threads < 1 || threads > TTT_SOLVER_MAX_THREADS)
        return ttt_fail(err, TTT_EINVAL, "solver: %d threads: expected 1 to %d", threads,
                        TTT_SOLVER_MAX_THREADS);
    s->cfg.threads = threads;
    return TTT_OK;
}

void solver_set_root_distance(ttt_solver *s, uint64_t nodes) { s->cfg.root_distance_nodes = nodes; }

bool ttt_solver_pairing(ttt_solver *s, const ttt_board *b, ttt_player side, int *partner)
{
    assert(ttt_rules_equal(&s->cfg.rules, &b->rules));
    load(s, b);
    int inner[TTT_MAX_CELLS];
    if (!solve_pairing_holds(s, (int)side, inner))
        return false;
    for (int cell = 0; cell < s->g.lines->cells; cell++)
        partner[to_user(s, cell)] = inner[cell] < 0 ? -1 : to_user(s, inner[cell]);
    return true;
}

ttt_result ttt_score_result(int score)
{
    return score > TTT_SCORE_PROVEN ? TTT_WIN : score < -TTT_SCORE_PROVEN ? TTT_LOSS : TTT_DRAW_VALUE;
}

const char *ttt_result_name(ttt_result r) { return r == TTT_WIN ? "win" : r == TTT_LOSS ? "loss" : "draw"; }

int ttt_score_plies(const ttt_board *b, int score)
{
    if (score > TTT_SCORE_PROVEN)
        return TTT_SCORE_WIN - score - b->ply;
    if (score < -TTT_SCORE_PROVEN)
        return TTT_SCORE_WIN + score - b->ply;
    return b->cells - b->ply; /* a draw is played out to the full board */
}

/* Runs iterations from depth `from` to `to` until proven or stopped; keeps the last complete iteration's
 * scores in moves. Returns the depth completed (0 if none). */
static int deepen(ttt_solver *s, int from, int to, bool all, ttt_move_score *moves, int n, bool *proven)
{
    ttt_move_score work[TTT_MAX_CELLS];
    int done = 0;
    *proven = false;
    for (int depth = from; depth <= to && !s->budget.stop; depth++) {
        memcpy(work, moves, sizeof *work * (size_t)n);
        uint64_t inexact0 = s->budget.inexact;
        if (!root_iteration(s, depth, all, work, n))
            break;
        qsort(work, (size_t)n, sizeof *work, ttt_move_score_compare);
        memcpy(moves, work, sizeof *work * (size_t)n);
        done = depth;
        if (s->budget.inexact == inexact0) {
            *proven = true;
            break;
        }
    }
    return done;
}

ttt_status ttt_solver_search(ttt_solver *s, const ttt_board *b, const ttt_limits *limits, bool all,
                             ttt_search_result *out, ttt_error *err)
{
    char want[TTT_RULES_TEXT_SIZE], got[TTT_RULES_TEXT_SIZE];
    if (!ttt_rules_equal(&s->cfg.rules, &b->rules))
        return ttt_fail(err, TTT_ESTATE, "solver for %s asked about a %s position",
                        ttt_rules_format(&s->cfg.rules, want, sizeof want),
                        ttt_rules_format(&b->rules, got, sizeof got));
    if (ttt_board_terminal(b))
        return ttt_fail(err, TTT_ESTATE, "the game is over: nothing to search");
    ttt_limits none = {0};
    if (!limits)
        limits = &none;
    double start = ttt_clock_ms();
    load(s, b);
    resume_root(s->resume, b);
    s->budget.nodes = 0;
    s->budget.stop = false;
    s->budget.inexact = 0;
    s->progress.fn = limits->progress;
    s->progress.user = limits->user;
    s->progress.interrupted = false;
    s->progress.root_ply = b->ply;
    s->budget.start = start;
    s->progress.root = (ttt_search_progress){.best_move = TTT_NO_MOVE};
    s->mode.etc = all || s->g.line_sign < 0;
    s->mode.every = all;
    const int empties = s->g.lines->cells - s->pos.ply;
    const bool unlimited = limits->nodes == 0 && limits->ms <= 0 && limits->depth <= 0;
    s->mode.root_draw = (ttt_bits){{0}};
    if (s->proof.prover && all) { /* moves proven to draw end at once in root_iteration (root_move_ends) */
        s->budget.node_limit = limits->nodes;
        s->budget.deadline = limits->ms > 0 ? start + limits->ms : 0;
        s->mode.root_draw = prove_root_draws(s, b, limits);
    }

    memset(out, 0, sizeof *out);
    ttt_bits empty;
    for (int i = 0; i < TTT_WORDS; i++)
        empty.w[i] = s->g.lines->all.w[i] & ~s->pos.occ.w[i];
    int cells[TTT_MAX_CELLS];
    /* Root moves: all legal ones, ordered as inner nodes are ordered. */
    out->count = solve_order_moves(s, &empty, -1, cells);
    resume_order(s->resume, cells, out->count);
    for (int i = 0; i < out->count; i++)
        out->moves[i] = (ttt_move_score){.move = cells[i], .score = -SCORE_INF, .exact = false};

    bool proven = false;
    if (unlimited || (limits->depth <= 0 && empties <= EXACT_FIRST_EMPTIES)) {
        /* Full depth first: exact unless the budget runs out. */
        s->mode.exact = true;
        s->budget.node_limit =
            limits->nodes ? (uint64_t)((double)limits->nodes * (unlimited ? 1.0 : EXACT_FIRST_SHARE)) : 0;
        s->budget.deadline = limits->ms > 0 ? start + limits->ms * EXACT_FIRST_SHARE : 0;
        out->depth = deepen(s, empties, empties, all, out->moves, out->count, &proven);
        s->budget.stop = s->progress.interrupted;
    }
    if (!proven && !unlimited && !s->progress.interrupted) {
        s->mode.exact = false;
        s->budget.node_limit = limits->nodes;
        s->budget.deadline = limits->ms > 0 ? start + limits->ms : 0;
        int to = limits->depth > 0 && limits->depth < empties ? limits->depth : empties;
        int done = deepen(s, 1, to, all, out->moves, out->count, &proven);
        if (done)
            out->depth = done;
        if (!proven && done == empties && !s->budget.stop) {
            /* Every depth searched and the budget not spent, yet not proven: the neighbourhood restriction
             * (moves near the stones only) keeps the depth-limited search inexact at any depth. The rest of
             * the budget goes to the exact search, whose proof can take a few hundred nodes. */
            s->mode.exact = true;
            deepen(s, empties, empties, all, out->moves, out->count, &proven);
        }
    }
    out->proven = proven;
    out->stopped = s->budget.stop || (!proven && out->depth < empties && limits->depth <= 0);
    if (s->cfg.transposed) { /* the caller's cells, in the caller's order among equal scores */
        for (int i = 0; i < out->count; i++)
            out->moves[i].move = to_user(s, out->moves[i].move);
        qsort(out->moves, (size_t)out->count, sizeof *out->moves, ttt_move_score_compare);
    }
    out->score = out->moves[0].score;
    out->best_count = 1;
    while (out->best_count < out->count && out->moves[out->best_count].score == out->score &&
           out->moves[out->best_count].exact)
        out->best_count++;
    out->nodes = s->budget.nodes;
    s->budget.total_nodes += s->budget.nodes;
    out->ms = ttt_clock_ms() - start;
    s->progress.fn = NULL;
    return TTT_OK;
}

ttt_status ttt_solver_value(ttt_solver *s, const ttt_board *b, ttt_result *value, int *plies, uint64_t *nodes,
                            ttt_error *err)
{
    ttt_value_result r;
    ttt_status st = ttt_solver_value_within(s, b, NULL, &r, err);
    if (st)
        return st;
    *value = r.value;
    if (plies)
        *plies = r.plies;
    if (nodes)
        *nodes = r.nodes;
    return TTT_OK;
}

/* After a value search stopped before the value was known: the best lower bound the table proves, from the
 * root's children (an exact score or an upper bound of a child is a lower bound of its move). */
static ttt_result value_known(ttt_solver *s)
{
    int best = -SCORE_INF;
    for (int cell = 0; cell < s->g.lines->cells; cell++) {
        if (ttt_bits_test(&s->pos.occ, cell))
            continue;
        play(s, cell);
        int frame;
        const tt_entry *e = tt_probe(s, canonical_key(s, &frame));
        if (e && e->depth == TT_DEPTH_EXACT && e->bound != BOUND_LOWER && -e->score > best)
            best = -e->score;
        undo(s, cell);
    }
    return best == -SCORE_INF ? TTT_LOSS : ttt_score_result(best);
}

ttt_status ttt_solver_value_within(ttt_solver *s, const ttt_board *b, const ttt_limits *limits,
                                   ttt_value_result *out, ttt_error *err)
{
    *out = (ttt_value_result){.plies = -1};
    if (!ttt_rules_equal(&s->cfg.rules, &b->rules))
        return ttt_fail(err, TTT_ESTATE, "solver asked about a position of other rules");
    if (ttt_board_terminal(b)) {
        ttt_player w = ttt_board_winner(b);
        out->value = w == TTT_NOBODY ? TTT_DRAW_VALUE : w == ttt_board_to_move(b) ? TTT_WIN : TTT_LOSS;
        out->proven = true;
        out->plies = 0;
        return TTT_OK;
    }
    ttt_limits none = {0};
    if (!limits)
        limits = &none;
    load(s, b);
    resume_root(s->resume, b);
    s->budget.nodes = 0;
    s->budget.stop = false;
    s->budget.inexact = 0;
    s->mode.exact = true;
    s->mode.etc = s->g.line_sign < 0;
    s->mode.every = false;
    s->budget.start = ttt_clock_ms();
    s->budget.node_limit = limits->nodes;
    s->budget.deadline = limits->ms > 0 ? s->budget.start + limits->ms : 0;
    s->progress.fn = limits->progress;
    s->progress.user = limits->user;
    s->progress.interrupted = false;
    s->progress.root_ply = b->ply;
    int depth = s->g.lines->cells - s->pos.ply;
    s->progress.root = (ttt_search_progress){
        .phase = TTT_PHASE_VALUE, .depth = depth, .best_move = TTT_NO_MOVE, .exact = true};
    /* A side shown unable to complete a line first (search/prove.h) cannot win: the window narrows, and when
     * neither side can win the draw is proven at once. Normal rules: solve_exact_score() within that window.
     * Misère: win, draw or loss first, with the narrowest window that tells them apart; then, for a win or a
     * loss, its distance within the proven range. The root may end at once: solve_search() sees threats
     * before moving. */
    int alpha = -1, beta = 1;
    if (s->proof.prover) {
        ttt_bits mover, other;
        const ttt_player me = ttt_board_to_move(b);
        prove_begin(s, b, limits, &mover, &other);
        if (prove_holds(s, me, &mover, &other, true))
            beta = 0;
        if (prove_holds(s, (ttt_player)(me ^ 1), &other, &mover, false))
            alpha = 0;
    }
    const bool by_distance = s->g.line_sign > 0 && alpha < beta;
    int score = by_distance || alpha >= beta ? 0 : solve_search(s, depth, alpha, beta);
    if (by_distance && solve_exact_score(s, depth, alpha, beta, &score)) {
        out->proven = true;
        out->value = ttt_score_result(score);
        out->plies = ttt_score_plies(b, score);
    } else if (!by_distance && !s->budget.stop) {
        out->proven = true;
        out->value = ttt_score_result(score);
        if (score >= 1)
            score = solve_search(s, depth, TTT_SCORE_PROVEN, SCORE_INF);
        else if (score <= -1)
            score = solve_search(s, depth, -SCORE_INF, -TTT_SCORE_PROVEN);
        if (!s->budget.stop)
            out->plies = ttt_score_plies(b, score);
    } else {
        out->value = value_known(s);
    }
    out->stopped = s->budget.stop;
    out->nodes = s->budget.nodes;
    s->budget.total_nodes += s->budget.nodes;
    s->progress.fn = NULL;
    return TTT_OK;
}

ttt_status ttt_solver_move_score(ttt_solver *s, const ttt_board *b, ttt_move move, int alpha, int beta,
                                 const ttt_limits *limits, int *score, bool *proven, uint64_t *nodes,
                                 ttt_error *err)
{
    if (!ttt_rules_equal(&s->cfg.rules, &b->rules) || ttt_board_terminal(b) || !ttt_board_is_legal(b, move) ||
        alpha >= beta)
        return ttt_fail(err, TTT_ESTATE, "solver asked about a move that cannot be played");
    ttt_limits none = {0};
    limits = limits ? limits : &none;
    ttt_board c = *b;
    ttt_board_play(&c, move);
    load(s, &c);
    s->budget = (solver_budget){.total_nodes = s->budget.total_nodes, .start = ttt_clock_ms()};
    s->budget.node_limit = limits->nodes;
    s->budget.deadline = limits->ms > 0 ? s->budget.start + limits->ms : 0;
    s->progress.fn = NULL;
    s->mode = (solver_mode){.exact = true, .etc = true, .every = true};
    ttt_player winner = ttt_board_winner(&c);
    *score = winner == TTT_NOBODY             ? 0
             : winner == ttt_board_to_move(b) ? TTT_SCORE_WIN - c.ply
                                              : c.ply - TTT_SCORE_WIN;
    /* A side the prover shows unable to complete a line first cannot win: neither, a draw; the mover, a score
     * of at most 0, enough below a window from 0. */
    bool known = ttt_board_terminal(&c), full = alpha <= -TTT_SCORE_WIN && beta >= TTT_SCORE_WIN;
    if (!known && s->proof.prover && s->g.line_sign > 0) {
        ttt_bits mover, other;
        prove_begin(s, &c, limits, &mover, &other);
        known = prove_holds(s, ttt_board_to_move(b), &other, &mover, false) &&
                (alpha >= 0 || prove_holds(s, ttt_board_to_move(&c), &mover, &other, true));
    }
    int depth = s->g.lines->cells - c.ply;
    if (!known && full) /* as the root of ttt_solver_search with all=true values it: by distance first */
        *score = s->g.line_sign > 0 ? -solve_root_move_score(s, depth)
                                    : -solve_search(s, depth, -SCORE_INF, SCORE_INF);
    else if (!known)
        *score = -solve_search(s, depth, -beta, -alpha);
    *proven = !s->budget.stop;
    *nodes = s->budget.nodes;
    s->budget.total_nodes += s->budget.nodes;
    return TTT_OK;
}
