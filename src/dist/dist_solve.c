/*
 * dist/dist_solve.c - `ttt solve --mpi`: job-level best-first search over MPI ranks.
 *
 * Rank 0, the master, keeps the top of the game tree; its leaves are jobs. With one worker, the first job is
 * the whole position, searched as `ttt solve` searches it (ttt_solver_search, every move, within the budget):
 * a position that fits in one job is solved with the one-process search's efficiency. With more, the
 * position's moves are the first jobs, the moves that reach the same position by a symmetry valued once (as
 * ttt_solver_search does). A worker (ranks 1..N-1) gets a job as the moves from the position and a window,
 * values the last move as ttt_solver_search values each move (ttt_solver_move_score: the draw prover, then by
 * distance), within a node budget, keeping its table from job to job, and answers with bounds on the node's
 * score: exact inside the window, a bound outside it, nothing when the budget ran out. The window is alpha-beta
 * over the tree: a move of the position is valued exactly; a deeper move only as far as it beats its parent's
 * best so far (alpha) or refutes the parent (beta, the grandparent's best): valuing every move exactly, each
 * alone, cost 8 to 40 times the one-process search (5x5k4 at 10K nodes a job: 29.4M nodes, 218K with the
 * window, against 750K for one process). The master settles the leaf, or, when the budget ran out, expands
 * it into its children, centre first, each a new job.
 *
 * Every node holds bounds on its score for the side to move, [lo, hi] (a new leaf: anything a game that ends
 * after one more stone allows; a settled node: lo == hi): those its own job proved, narrowed by the negamax of
 * its children's, lo = max(-hi(c)), hi = max(-lo(c)). A child c with -lo(c) <= lo(parent) cannot raise its
 * parent's value and
 * is pruned (alpha-beta, best-first); the position's own children are never pruned, since every move is
 * valued, as ttt_solver_search with all=true values them. The scores are by distance and absolute (a win
 * after E stones in all is TTT_SCORE_WIN - E at any depth), so a node's exact value is the negamax of its
 * children's exact values: the result equals the one-process search's.
 *
 * Choosing the next job: the proof number of a node is the number of leaves still to settle under it (the
 * relevant ones: every child that can still change its value must be settled), a leaf under way counting
 * DIST_VIRTUAL_LOSS_PN (virtual loss: the next job goes elsewhere, so N workers get N different jobs); from
 * the position the master descends into the relevant child of least proof number, the first in the heuristic
 * order among equals, to a free leaf: the cheapest leaf of the cheapest subtree, the most-proving job.
 *
 * Faults: a worker that has not answered within silent_ms is given up and its job becomes a free leaf again.
 * The master writes its tree to the checkpoint file (atomically, by rename) every DIST_CHECKPOINT_MS and at
 * the end; --resume reads it back, jobs under way becoming free leaves.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep, access */
#include <assert.h>
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dist/dist.h"
#include "dist/dist_mpi.h"
#include "ttt/certificate.h"
#include "ttt/notation.h"
#include "ttt/symmetry.h"
#include "util/error.h"
#include "util/file_out.h"

/* A leaf under way counts as this many leaves to settle: enough to send the next job to another subtree
 * while that one has free leaves a few times cheaper. */
#define DIST_VIRTUAL_LOSS_PN 4
/* The master writes its checkpoint at most this often (ms): a write costs a pass over the tree. */
#define DIST_CHECKPOINT_MS 1000.0
/* An idle rank looks for a message this often (ns): a blocking receive would spin a core the solver needs. */
#define DIST_POLL_NS          200000L
#define DIST_CHECKPOINT_MAGIC "ttt-dist-checkpoint 1"

enum { TAG_JOB = 1, TAG_RESULT, TAG_STOP, TAG_CERT, TAG_PIECE };
/* A job: the count of moves from the position, the window (alpha, beta) on the last move's score, the moves.
 * A certificate job: prover, target, then the count of moves and the moves. */
enum { JOB_HEAD = 3, CERT_JOB_HEAD = 2, JOB_WORDS = JOB_HEAD + TTT_MAX_CELLS };
/* A result: the bounds a job proved on its score (lo, hi), the nodes it searched, and the moves it valued
 * exactly (count, then move and score of each: only the job of the whole position values them). */
enum { RESULT_HEAD = 4, RESULT_WORDS = RESULT_HEAD + 2 * TTT_MAX_CELLS };

typedef enum node_kind { NODE_LEAF, NODE_BUSY, NODE_INNER, NODE_DONE } node_kind;

typedef struct tree_node {
    int parent;         /* -1 at the position */
    ttt_move move;      /* from the parent; TTT_NO_MOVE at the position */
    int ply;            /* stones on the board */
    int first, count;   /* an inner node's children: nodes[first .. first + count - 1] */
    int lo, hi;         /* bounds on the score for the side to move */
    int own_lo, own_hi; /* the bounds its own job proved (lo, hi also take its children's into account) */
    int same;           /* an earlier sibling whose position is this one's image by a symmetry (it has the
                           same score: this node never gets a job), or -1 */
    node_kind kind;
} tree_node;

typedef struct job_tree {
    tree_node *nodes;
    int n, cap;
    ttt_board root;
    uint64_t *pn; /* per node, refreshed by tree_select: leaves to settle under it */
    bool *open;   /* per node, refreshed by tree_select: a free relevant leaf under it */
} job_tree;

static void nap(void)
{
    struct timespec ts = {0, DIST_POLL_NS};
    nanosleep(&ts, NULL);
}

static bool settled(const tree_node *n) { return n->lo == n->hi; }

/* Child c, or the sibling that stands for it. */
static const tree_node *real(const job_tree *t, int c)
{
    return &t->nodes[t->nodes[c].same >= 0 ? t->nodes[c].same : c];
}

/* The board at node i: the position and the moves down to it. */
static void node_board(const job_tree *t, int i, ttt_board *b)
{
    ttt_move path[TTT_MAX_CELLS];
    int depth = 0;
    for (; t->nodes[i].parent >= 0; i = t->nodes[i].parent)
        path[depth++] = t->nodes[i].move;
    *b = t->root;
    while (depth > 0)
        ttt_board_play(b, path[--depth]);
}

/* The moves from the position to node i into path; returns how many. */
static int node_path(const job_tree *t, int i, int *path)
{
    int depth = 0;
    for (int j = i; t->nodes[j].parent >= 0; j = t->nodes[j].parent)
        depth++;
    for (int j = i, k = depth; t->nodes[j].parent >= 0; j = t->nodes[j].parent)
        path[--k] = t->nodes[j].move;
    return depth;
}

/* The score of a finished game b for its side to move. */
static int terminal_score(const ttt_board *b)
{
    ttt_player w = ttt_board_winner(b);
    if (w == TTT_NOBODY)
        return 0;
    return w == ttt_board_to_move(b) ? TTT_SCORE_WIN - b->ply : -(TTT_SCORE_WIN - b->ply);
}

/* Appends a node for board b (its ply) under parent; a finished game is settled at once. -1: no memory. */
static int tree_add(job_tree *t, int parent, ttt_move move, const ttt_board *b)
{
    if (t->n == t->cap) {
        int cap = t->cap ? t->cap * 2 : 1024;
        tree_node *nodes = realloc(t->nodes, (size_t)cap * sizeof *nodes);
        uint64_t *pn = nodes ? realloc(t->pn, (size_t)cap * sizeof *pn) : NULL;
        bool *open = pn ? realloc(t->open, (size_t)cap * sizeof *open) : NULL;
        t->nodes = nodes ? nodes : t->nodes;
        t->pn = pn ? pn : t->pn;
        t->open = open ? open : t->open;
        if (!open)
            return -1;
        t->cap = cap;
    }
    /* The game ends one stone from here at the soonest, for either side (misère: the mover's own line). */
    int most = TTT_SCORE_WIN - (b->ply + 1);
    tree_node *n = &t->nodes[t->n];
    *n = (tree_node){.parent = parent, .move = move, .ply = b->ply, .lo = -most, .hi = most, .same = -1};
    if (ttt_board_terminal(b)) {
        n->kind = NODE_DONE;
        n->lo = n->hi = terminal_score(b);
    }
    n->own_lo = n->lo;
    n->own_hi = n->hi;
    return t->n++;
}

/* Recomputes inner node i's bounds: its own, narrowed by its children's. */
static void node_update(job_tree *t, int i)
{
    tree_node *n = &t->nodes[i];
    int lo = -TTT_SCORE_WIN, hi = -TTT_SCORE_WIN;
    for (int c = n->first; c < n->first + n->count; c++) {
        lo = -real(t, c)->hi > lo ? -real(t, c)->hi : lo;
        hi = -real(t, c)->lo > hi ? -real(t, c)->lo : hi;
    }
    n->lo = lo > n->own_lo ? lo : n->own_lo;
    n->hi = hi < n->own_hi ? hi : n->own_hi;
}

static void propagate(job_tree *t, int i)
{
    for (; i >= 0; i = t->nodes[i].parent)
        if (t->nodes[i].kind == NODE_INNER)
            node_update(t, i);
}

/* Whether child c of node p can still change p's value (every child of the position can); a child that
 * stands for another is not settled apart. */
static bool relevant(const job_tree *t, int p, int c)
{
    return t->nodes[c].same < 0 && !settled(&t->nodes[c]) && (p == 0 || -t->nodes[c].lo > t->nodes[p].lo);
}

/* The position is solved when every move is valued. */
static bool tree_done(const job_tree *t)
{
    const tree_node *r = &t->nodes[0];
    for (int c = r->first; c < r->first + r->count; c++)
        if (!settled(real(t, c)))
            return false;
    return r->kind == NODE_INNER;
}

/* Twice a cell's distance from the centre, squared: the order of the children (centre first, as the solver
 * orders its moves; the cell number among equals). */
static int centre_distance(const ttt_rules *r, ttt_move cell)
{
    int dr = 2 * (cell / r->cols) - (r->rows - 1), dc = 2 * (cell % r->cols) - (r->cols - 1);
    return dr * dr + dc * dc;
}

/* Marks the children of inner node i (its board b) that are images of an earlier sibling by a symmetry of b's
 * board: valued once, as ttt_solver_search values the moves that reach the same position. */
static void mark_same(job_tree *t, int i, const ttt_board *b)
{
    const tree_node *n = &t->nodes[i];
    ttt_board canon[TTT_MAX_CELLS];
    for (int k = 0; k < n->count; k++) {
        ttt_board child = *b;
        ttt_board_play(&child, t->nodes[n->first + k].move);
        ttt_board_canonical(&child, &canon[k]);
        for (int j = 0; j < k && t->nodes[n->first + k].same < 0; j++)
            if (t->nodes[n->first + j].same < 0 &&
                !memcmp(canon[j].stones, canon[k].stones, sizeof canon[k].stones))
                t->nodes[n->first + k].same = n->first + j;
    }
}

/* Expands leaf i (its board b) into its children, centre first. */
static ttt_status tree_expand(job_tree *t, int i, const ttt_board *b, ttt_error *err)
{
    ttt_move moves[TTT_MAX_CELLS];
    int count = ttt_board_moves(b, moves);
    for (int k = 1; k < count; k++) { /* insertion sort: a few dozen moves */
        ttt_move m = moves[k];
        int d = centre_distance(&b->rules, m), j = k;
        for (; j > 0 && centre_distance(&b->rules, moves[j - 1]) > d; j--)
            moves[j] = moves[j - 1];
        moves[j] = m;
    }
    int first = t->n;
    for (int k = 0; k < count; k++) {
        ttt_board child = *b;
        ttt_board_play(&child, moves[k]);
        if (tree_add(t, i, moves[k], &child) < 0)
            return ttt_fail(err, TTT_ENOMEM, "out of memory for the job tree");
    }
    tree_node *n = &t->nodes[i];
    n->first = first;
    n->count = count;
    n->kind = NODE_INNER;
    mark_same(t, i, b);
    propagate(t, i);
    return TTT_OK;
}

/* A free leaf to work on next (the most-proving, under virtual loss), or -1 when every relevant leaf is under
 * way. Children follow their parents in nodes[], so one backward pass gives every node's proof number and
 * whether a free leaf lies under it. */
static int tree_select(job_tree *t)
{
    for (int i = t->n - 1; i >= 0; i--) {
        const tree_node *n = &t->nodes[i];
        uint64_t pn = 0;
        bool open = false;
        if (n->kind == NODE_LEAF)
            pn = 1, open = true;
        else if (n->kind == NODE_BUSY)
            pn = DIST_VIRTUAL_LOSS_PN;
        else if (n->kind == NODE_INNER)
            for (int c = n->first; c < n->first + n->count; c++)
                if (relevant(t, i, c)) {
                    pn += t->pn[c];
                    open |= t->open[c];
                }
        t->pn[i] = pn;
        t->open[i] = open;
    }
    int i = 0;
    while (t->open[i] && t->nodes[i].kind == NODE_INNER) {
        const tree_node *n = &t->nodes[i];
        int best = -1;
        for (int c = n->first; c < n->first + n->count; c++)
            if (relevant(t, i, c) && t->open[c] && (best < 0 || t->pn[c] < t->pn[best]))
                best = c;
        i = best;
    }
    return t->open[i] ? i : -1;
}

/* --- Checkpoints ------------------------------------------------------------------------------------- */

/* The first line: the format, the rules and the position. */
static void checkpoint_header(const ttt_board *b, char *buf, size_t size)
{
    char rt[TTT_RULES_TEXT_SIZE], pos[TTT_POSITION_TEXT_SIZE];
    snprintf(buf, size, "%s %s %s", DIST_CHECKPOINT_MAGIC, ttt_rules_format(&b->rules, rt, sizeof rt),
             ttt_position_format(b, pos, sizeof pos));
}

/* The checkpoint's writer for ttt_file_replace (ctx: the job_tree): the header, the node count, then one line
 * per node after the position: parent, move, kind (L a leaf, I inner, D settled leaf) and the bounds its own
 * job proved. Jobs under way are written as leaves. */
static ttt_status tree_save(FILE *f, void *ctx, ttt_error *err)
{
    const job_tree *t = ctx;
    char head[512];
    checkpoint_header(&t->root, head, sizeof head);
    if (fprintf(f, "%s\n%d\n", head, t->n) < 0)
        return ttt_fail(err, TTT_EIO, "write error");
    for (int i = 1; i < t->n; i++) {
        const tree_node *n = &t->nodes[i];
        char kind = n->kind == NODE_INNER ? 'I' : n->kind == NODE_DONE ? 'D' : 'L';
        if (fprintf(f, "%d %d %c %d %d\n", n->parent, n->move, kind, n->own_lo, n->own_hi) < 0)
            return ttt_fail(err, TTT_EIO, "write error");
    }
    return TTT_OK;
}

/* Writes the tree to path through path.tmp, synced and renamed over it, so that a kill leaves the old one or the
 * new one (tree_save says what it holds). */
static ttt_status checkpoint_write(job_tree *t, const char *path, ttt_error *err)
{
    char tmp[TTT_FILE_TMP_SIZE], msg[TTT_ERROR_SIZE];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return ttt_fail(err, TTT_EINVAL, "checkpoint path too long");
    if (!ttt_file_replace(path, tmp, path, "checkpoint", tree_save, t, msg, sizeof msg))
        return ttt_fail(err, TTT_EIO, "%s", msg);
    return TTT_OK;
}

/* Reads the tree back into t (holding the position alone), checking that it is the same position's and
 * well formed: children follow their parent's earlier children, moves legal, settled scores in bounds. */
static ttt_status checkpoint_read(job_tree *t, const char *path, ttt_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return ttt_fail(err, TTT_EIO, "cannot read the checkpoint %s", path);
    char line[512], head[512];
    checkpoint_header(&t->root, head, sizeof head);
    int count = 0;
    ttt_status st = TTT_OK;
    if (!fgets(line, sizeof line, f) || strcspn(line, "\n") != strlen(head) ||
        strncmp(line, head, strlen(head)))
        st = ttt_fail(err, TTT_EINVAL, "%s is not a checkpoint of this position and rules", path);
    else if (!fgets(line, sizeof line, f) || sscanf(line, "%d", &count) != 1 || count < 1)
        st = ttt_fail(err, TTT_EINVAL, "%s: bad node count", path);
    for (int i = 1; !st && i < count; i++) {
        int parent, move, lo, hi;
        char kind;
        if (!fgets(line, sizeof line, f) ||
            sscanf(line, "%d %d %c %d %d", &parent, &move, &kind, &lo, &hi) != 5 || parent < 0 ||
            parent >= i || (kind != 'L' && kind != 'I' && kind != 'D')) {
            st = ttt_fail(err, TTT_EINVAL, "%s: bad node line %d", path, i + 2);
            break;
        }
        tree_node *p = &t->nodes[parent];
        if (p->count == 0 && p->kind == NODE_LEAF) { /* its first child */
            p->kind = NODE_INNER;
            p->first = i;
        }
        ttt_board b;
        node_board(t, parent, &b);
        if (p->kind != NODE_INNER || p->first + p->count != i || ttt_board_terminal(&b) ||
            !ttt_board_is_legal(&b, move)) {
            st = ttt_fail(err, TTT_EINVAL, "%s: node line %d does not fit the tree", path, i + 2);
            break;
        }
        p->count++;
        ttt_board_play(&b, move);
        int c = tree_add(t, parent, move, &b);
        if (c < 0) {
            st = ttt_fail(err, TTT_ENOMEM, "out of memory for the job tree");
            break;
        }
        tree_node *n = &t->nodes[c];
        /* The bounds within those of any game from here, and a settled leaf (a finished game too) settled. */
        if (lo > hi || lo < n->own_lo || hi > n->own_hi || (kind == 'D') != (lo == hi) ||
            (n->kind == NODE_DONE && kind != 'D')) {
            st = ttt_fail(err, TTT_EINVAL, "%s: node line %d: impossible bounds", path, i + 2);
            break;
        }
        n->own_lo = n->lo = lo;
        n->own_hi = n->hi = hi;
        n->kind = kind == 'D' ? NODE_DONE : NODE_LEAF;
    }
    fclose(f);
    if (st)
        return st;
    /* An inner node has every move as a child (negamax over some of them would bound nothing from above);
     * its bounds are its own narrowed by its children's, from the bottom up. */
    for (int i = t->n - 1; i >= 0; i--) {
        tree_node *n = &t->nodes[i];
        if (n->kind != NODE_INNER)
            continue;
        ttt_board b;
        node_board(t, i, &b);
        if (n->count != b.cells - b.ply)
            return ttt_fail(err, TTT_EINVAL, "%s: a node has %d of its %d moves", path, n->count,
                            b.cells - b.ply);
        mark_same(t, i, &b);
        node_update(t, i);
        if (n->lo > n->hi)
            return ttt_fail(err, TTT_EINVAL, "%s: a node's bounds contradict its children's", path);
    }
    return TTT_OK;
}

/* --- The certificate ------------------------------------------------------------------------------------ */

/* The certificate is assembled as ttt_certificate_write would write it, half by half (ttt/certificate.h):
 * the master writes the top of each half from its tree, as far as the tree's bounds prove the half's target
 * (at the prover's nodes a child that meets it, at the opponent's every move up to the position's
 * symmetries), and where they do not (a leaf, or a node its own job proved), a worker writes the proof of
 * that position (ttt_certificate_write_node), a piece spliced in whole. A piece's SEEN leaves point inside
 * it; the master's point to a position written earlier in the same half, top node or piece: both are earlier
 * in the file. */

/* A piece to be written: where it goes in the top's bytes, its node and half. */
typedef struct cert_piece {
    size_t offset;
    int node, prover, target;
    char *bytes; /* the piece once written, and its size and nodes */
    size_t size;
    uint64_t nodes;
} cert_piece;

typedef struct cert_plan {
    uint8_t *top; /* header, half bytes and the master's nodes; the pieces go in at their offsets */
    size_t len, cap;
    cert_piece *pieces;
    int npieces, cap_pieces;
    uint64_t nodes; /* the master's nodes */
    ttt_bits (*done)[2];
    int ndone, cap_done; /* the positions written in the half under way (X stones, O stones) */
    bool wide;           /* cells and counts take two bytes (ttt/certificate.h) */
    ttt_status st;
} cert_plan;

static bool grow(void **p, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return true;
    int cap2 = *cap ? *cap * 2 : 256;
    while (cap2 < need)
        cap2 *= 2;
    void *q = realloc(*p, (size_t)cap2 * size);
    if (!q)
        return false;
    *p = q;
    *cap = cap2;
    return true;
}

static void plan_put(cert_plan *c, const uint8_t *bytes, size_t n)
{
    if (c->st)
        return;
    if (c->len + n > c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 4096;
        while (cap < c->len + n)
            cap *= 2;
        uint8_t *top = realloc(c->top, cap);
        if (!top) {
            c->st = TTT_ENOMEM;
            return;
        }
        c->top = top;
        c->cap = cap;
    }
    memcpy(c->top + c->len, bytes, n);
    c->len += n;
}

/* Whether node j's bounds prove the half's target: the prover's score at least a draw (a win), from the
 * side to move at j. */
static bool meets(const job_tree *t, int j, int prover, int target)
{
    const tree_node *n = real(t, j);
    int need = target == TTT_CERT_WIN ? TTT_SCORE_PROVEN + 1 : 0;
    bool prover_to_move = (n->ply & 1) == prover;
    return prover_to_move ? n->lo >= need : n->hi <= -need;
}

/* The opponent's moves at b, one per orbit of the symmetries that leave b as it is (the least cell of each,
 * in increasing order), as the certificate lists them. */
static int move_orbits(const ttt_board *b, ttt_move *out)
{
    ttt_sym stab[TTT_SYM_ALL];
    int nstab = 0, n = 0;
    for (ttt_sym s = 1; s < ttt_sym_count(&b->rules); s++) {
        ttt_bits x = ttt_sym_bits(&b->rules, s, &b->stones[TTT_X]);
        ttt_bits o = ttt_sym_bits(&b->rules, s, &b->stones[TTT_O]);
        if (!memcmp(&x, &b->stones[TTT_X], sizeof x) && !memcmp(&o, &b->stones[TTT_O], sizeof o))
            stab[nstab++] = s;
    }
    for (ttt_move cell = 0; cell < b->cells; cell++) {
        bool least = ttt_board_is_legal(b, cell);
        for (int i = 0; i < nstab && least; i++)
            least = ttt_sym_move(&b->rules, stab[i], cell) >= cell;
        if (least)
            out[n++] = cell;
    }
    return n;
}

/* A node's tag and a cell or count after it: one byte, or two (little-endian) on wide boards. */
static void plan_tag_cell(cert_plan *c, int tag, int cell)
{
    uint8_t bytes[3] = {(uint8_t)tag, (uint8_t)(cell & 0xff), (uint8_t)(cell >> 8)};
    plan_put(c, bytes, c->wide ? 3 : 2);
}

/* Whether the side to move at b completes a line with its next stone (normal rules: a WIN leaf). */
static bool wins_in_one(const ttt_board *b)
{
    ttt_player me = ttt_board_to_move(b);
    for (ttt_move cell = 0; cell < b->cells; cell++)
        if (ttt_board_is_legal(b, cell) && ttt_board_makes_line(b, me, cell))
            return true;
    return false;
}

/* Plans node j (board b) of the half and its subtree. */
static void plan_node(cert_plan *c, const job_tree *t, int j, const ttt_board *b, int prover, int target)
{
    if (c->st)
        return;
    const ttt_bits *x = &b->stones[TTT_X], *o = &b->stones[TTT_O];
    if (ttt_board_terminal(b)) {
        c->nodes++;
        plan_put(c, (const uint8_t[]){TTT_CERT_END}, 1);
        return;
    }
    /* A WIN leaf takes no bytes: the checker finds the prover's completing cell itself. */
    if (ttt_rules_line_wins(&b->rules) && (int)ttt_board_to_move(b) == prover && wins_in_one(b))
        return;
    for (int k = 0; k < c->ndone; k++)
        if (!memcmp(&c->done[k][0], x, sizeof *x) && !memcmp(&c->done[k][1], o, sizeof *o)) {
            c->nodes++;
            plan_put(c, (const uint8_t[]){TTT_CERT_SEEN}, 1);
            return;
        }
    const tree_node *n = &t->nodes[j];
    bool prover_to_move = (n->ply & 1) == prover;
    int chosen = -1;
    ttt_move cells[TTT_MAX_CELLS];
    int ncells = 0;
    bool top = n->kind == NODE_INNER;
    if (top && prover_to_move) {
        for (int k = n->first; k < n->first + n->count && chosen < 0; k++)
            if (meets(t, k, prover, target))
                chosen = k;
        top = chosen >= 0;
    } else if (top) {
        ncells = move_orbits(b, cells);
        for (int i = 0; i < ncells && top; i++)
            for (int k = n->first; k < n->first + n->count; k++)
                if (t->nodes[k].move == cells[i])
                    top = meets(t, k, prover, target);
    }
    if (!top) {
        if (!grow((void **)&c->pieces, &c->cap_pieces, c->npieces + 1, sizeof *c->pieces)) {
            c->st = TTT_ENOMEM;
            return;
        }
        c->pieces[c->npieces++] =
            (cert_piece){.offset = c->len, .node = j, .prover = prover, .target = target};
    } else if (prover_to_move) {
        c->nodes++;
        plan_tag_cell(c, TTT_CERT_MOVE, t->nodes[chosen].move);
        ttt_board child = *b;
        ttt_board_play(&child, t->nodes[chosen].move);
        plan_node(c, t, chosen, &child, prover, target);
    } else {
        c->nodes++;
        plan_tag_cell(c, TTT_CERT_ALL, ncells);
        for (int i = 0; i < ncells; i++) {
            int k = n->first;
            while (t->nodes[k].move != cells[i])
                k++;
            ttt_board child = *b;
            ttt_board_play(&child, cells[i]);
            plan_node(c, t, k, &child, prover, target);
        }
    }
    if (!c->st && !grow((void **)&c->done, &c->cap_done, c->ndone + 1, sizeof *c->done))
        c->st = TTT_ENOMEM;
    if (!c->st) {
        c->done[c->ndone][0] = *x;
        c->done[c->ndone][1] = *o;
        c->ndone++;
    }
}

static void le64_put(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Plans the certificate of the solved tree: the header, each half's top and its pieces. */
static ttt_status plan_certificate(cert_plan *c, const job_tree *t, ttt_error *err)
{
    const ttt_board *b = &t->root;
    ttt_result value = ttt_score_result(t->nodes[0].lo);
    int to_move = ttt_board_to_move(b) == TTT_X ? TTT_X : TTT_O;
    int halves = value == TTT_DRAW_VALUE ? 2 : 1;
    uint8_t h[TTT_CERT_HEADER(TTT_MAX_CELLS)] = {0};
    int set_bytes = (b->cells + 7) / 8;
    c->wide = b->cells >= TTT_CERT_WIDE_CELLS;
    memcpy(h, TTT_CERT_MAGIC, 8);
    h[8] = (uint8_t)b->rules.rows;
    h[9] = (uint8_t)b->rules.cols;
    h[10] = (uint8_t)b->rules.k;
    h[11] = !ttt_rules_line_wins(&b->rules);
    h[12] = (uint8_t)(value + 1);
    h[13] = (uint8_t)halves;
    for (int cell = 0; cell < b->cells; cell++) {
        ttt_player at = ttt_board_at(b, cell);
        if (at == TTT_X || at == TTT_O)
            h[TTT_CERT_HEADER_FIXED + (at == TTT_O ? set_bytes : 0) + cell / 8] |=
                (uint8_t)(1u << (cell % 8));
    }
    plan_put(c, h, (size_t)TTT_CERT_HEADER(b->cells));
    for (int i = 0; i < halves; i++) {
        int prover = value == TTT_DRAW_VALUE ? i : value == TTT_WIN ? to_move : to_move ^ 1;
        int target = value == TTT_DRAW_VALUE ? TTT_CERT_NOT_LOSE : TTT_CERT_WIN;
        c->ndone = 0;
        plan_put(c, (const uint8_t[]){(uint8_t)(prover + 2 * target)}, 1);
        plan_node(c, t, 0, b, prover, target);
    }
    return c->st ? ttt_fail(err, TTT_ENOMEM, "out of memory for the certificate") : TTT_OK;
}

/* Writes piece request (prover, target, moves to node) as a worker receives it. */
static int cert_job(const job_tree *t, const cert_piece *p, int *words)
{
    words[0] = p->prover;
    words[1] = p->target;
    int n = node_path(t, p->node, words + CERT_JOB_HEAD + 1);
    words[CERT_JOB_HEAD] = n;
    return CERT_JOB_HEAD + 1 + n;
}

/* Writes the piece of the certificate job (words) with the solver into a buffer: its node count (8 bytes,
 * little-endian; all ones when it failed, the reason following), then its bytes. */
static ttt_status write_piece(ttt_solver *solver, const ttt_board *root, const int *words, char **bytes,
                              size_t *size, ttt_error *err)
{
    ttt_board b = *root;
    for (int k = 0; k < words[CERT_JOB_HEAD]; k++)
        ttt_board_play(&b, words[CERT_JOB_HEAD + 1 + k]);
    FILE *f = open_memstream(bytes, size);
    if (!f)
        return ttt_fail(err, TTT_ENOMEM, "out of memory for a certificate piece");
    uint8_t head[8] = {0};
    fwrite(head, 1, sizeof head, f);
    ttt_certificate_stats cs;
    ttt_error why;
    ttt_status st = ttt_certificate_write_node(solver, &b, words[0], words[1], f, &cs, &why);
    if (st)
        fprintf(f, "%s", why.msg);
    if (fclose(f) != 0)
        return ttt_fail(err, TTT_ENOMEM, "out of memory for a certificate piece");
    le64_put((uint8_t *)*bytes, st ? UINT64_MAX : cs.nodes);
    return TTT_OK;
}

/* --- The master ------------------------------------------------------------------------------------- */

typedef struct master {
    job_tree tree;
    const dist_solve_options *opt;
    ttt_solver *solver; /* when the master is alone, it runs the jobs itself */
    int size;
    int *job;       /* per rank: the node it works on, -1 idle; -2 given up */
    double *sent;   /* per rank: when its job was sent */
    uint64_t *busy; /* per rank: the nodes of the jobs it answered */
    int64_t *reply; /* a result message */
    dist_solve_stats *stats;
    uint64_t nodes;
} master;

/* Applies a result (reply: RESULT_HEAD words and the moves valued) to leaf i: settles it, or narrows its
 * bounds and expands it; moves valued exactly become settled children. */
static ttt_status master_apply(master *m, int i, const int64_t *reply, ttt_error *err)
{
    job_tree *t = &m->tree;
    tree_node *n = &t->nodes[i];
    int lo = (int)reply[0], hi = (int)reply[1], valued = (int)reply[3];
    if (lo > hi || lo > n->own_hi || hi < n->own_lo || valued < 0 || valued > TTT_MAX_CELLS)
        return ttt_fail(err, TTT_EIO, "a worker answered bounds [%d, %d] outside [%d, %d]", lo, hi, n->own_lo,
                        n->own_hi);
    m->stats->jobs++;
    m->nodes += (uint64_t)reply[2];
    if ((uint64_t)reply[2] > m->stats->largest_job)
        m->stats->largest_job = (uint64_t)reply[2];
    n->own_lo = lo > n->own_lo ? lo : n->own_lo;
    n->own_hi = hi < n->own_hi ? hi : n->own_hi;
    n->lo = n->own_lo;
    n->hi = n->own_hi;
    if (settled(n) && valued == 0) {
        m->stats->jobs_proven++;
        n->kind = NODE_DONE;
        propagate(t, n->parent);
        return TTT_OK;
    }
    if (i > 0 && !relevant(t, n->parent, i)) { /* the bound the job's window asked for: nothing more needed */
        n->kind = NODE_LEAF;
        propagate(t, n->parent);
        return TTT_OK;
    }
    m->stats->jobs_proven += settled(n);
    ttt_board b;
    node_board(t, i, &b);
    int ply = b.ply - t->root.ply + 1;
    if (ply > m->stats->tree_depth)
        m->stats->tree_depth = ply;
    ttt_status st = tree_expand(t, i, &b, err);
    n = &t->nodes[i];
    for (int k = 0; !st && k < valued; k++) {
        ttt_move move = (ttt_move)reply[RESULT_HEAD + 2 * k];
        int score = (int)reply[RESULT_HEAD + 2 * k + 1], c = n->first;
        while (c < n->first + n->count && t->nodes[c].move != move)
            c++;
        tree_node *child = &t->nodes[c];
        if (c == n->first + n->count || -score < child->own_lo || -score > child->own_hi)
            return ttt_fail(err, TTT_EIO, "a worker answered a move or score that does not fit");
        child->kind = NODE_DONE;
        child->own_lo = child->own_hi = child->lo = child->hi = -score;
    }
    propagate(t, i);
    return st;
}

/* The job of node i into words (JOB_HEAD words, then the moves); returns its length. The window asks only
 * what the tree needs (alpha-beta over the tree): a move of the position, or of a node with no bound yet, its
 * exact score; else whether the move beats its parent's best so far (alpha, the parent's lower bound), and
 * below the position's moves, whether it refutes the parent (beta: the parent's parent's best, negated). */
static int job_words(const job_tree *t, int i, int *words)
{
    int n = node_path(t, i, words + JOB_HEAD), p = t->nodes[i].parent;
    words[0] = n;
    words[1] = -TTT_SCORE_WIN;
    words[2] = TTT_SCORE_WIN;
    if (p > 0) {
        const tree_node *parent = &t->nodes[p], *grand = &t->nodes[parent->parent];
        if (parent->lo > -(TTT_SCORE_WIN - (parent->ply + 1)))
            words[1] = parent->lo;
        if (parent->parent > 0 && grand->lo > -(TTT_SCORE_WIN - (grand->ply + 1)))
            words[2] = -grand->lo;
    }
    return JOB_HEAD + n;
}

/* Runs a job (words, as job_words writes them) into reply. The position itself (no moves): the search of
 * every move within job_nodes, as `ttt solve` searches it. Else the score of the last move within the job's
 * window, valued as that search values each move (ttt_solver_move_score) within job_nodes: bounds on the
 * node's score (exact inside the window), or nothing proven. */
static ttt_status run_job(ttt_solver *solver, const ttt_board *root, const int *words, uint64_t job_nodes,
                          int64_t *reply, ttt_error *err)
{
    const int n = words[0], alpha = words[1], beta = words[2], *path = words + JOB_HEAD;
    ttt_board b = *root;
    for (int k = 0; k < n - 1; k++)
        ttt_board_play(&b, path[k]);
    int most = TTT_SCORE_WIN - (b.ply + 1 + (n > 0)), lo = -most, hi = most;
    ttt_limits limits = {.nodes = job_nodes};
    reply[3] = 0;
    if (n == 0) {
        ttt_search_result *r = malloc(sizeof *r);
        if (!r)
            return ttt_fail(err, TTT_ENOMEM, "out of memory");
        ttt_status st = ttt_solver_search(solver, &b, &limits, true, r, err);
        if (!st && r->proven) {
            reply[0] = reply[1] = r->score;
            reply[3] = r->count;
            for (int k = 0; k < r->count; k++) {
                reply[RESULT_HEAD + 2 * k] = r->moves[k].move;
                reply[RESULT_HEAD + 2 * k + 1] = r->moves[k].score;
            }
        } else if (!st) {
            reply[0] = lo;
            reply[1] = hi;
        }
        reply[2] = st ? 0 : (int64_t)r->nodes;
        free(r);
        return st;
    }
    int score;
    bool proven;
    uint64_t nodes;
    ttt_status st =
        ttt_solver_move_score(solver, &b, path[n - 1], alpha, beta, &limits, &score, &proven, &nodes, err);
    if (st)
        return st;
    /* The move's score for its player: the node's, for the side to move there, negated. */
    if (proven && score > alpha && score < beta)
        lo = hi = -score;
    else if (proven && score <= alpha)
        lo = -score > lo ? -score : lo;
    else if (proven)
        hi = -score < hi ? -score : hi;
    reply[0] = lo;
    reply[1] = hi;
    reply[2] = (int64_t)nodes;
    return TTT_OK;
}

static ttt_status master_checkpoint(master *m, double *last, bool force, ttt_error *err)
{
    if (!m->opt->checkpoint || (!force && ttt_clock_ms() - *last < DIST_CHECKPOINT_MS))
        return TTT_OK;
    *last = ttt_clock_ms();
    return checkpoint_write(&m->tree, m->opt->checkpoint, err);
}

static ttt_status master_run(master *m, ttt_error *err)
{
    job_tree *t = &m->tree;
    const uint64_t job_nodes = m->opt->job_nodes ? m->opt->job_nodes : DIST_JOB_NODES_DEFAULT;
    const double silent = m->opt->silent_ms > 0 ? m->opt->silent_ms : DIST_SILENT_MS_DEFAULT;
    double last_checkpoint = ttt_clock_ms();
    int words[JOB_WORDS];
    ttt_status st = TTT_OK;
    while (!st && !tree_done(t)) {
        if (m->size == 1) { /* alone: the master is its own worker */
            int i = tree_select(t);
            assert(i >= 0); /* an unsettled tree with no job under way has a free leaf */
            job_words(t, i, words);
            st = run_job(m->solver, &t->root, words, job_nodes, m->reply, err);
            m->stats->busiest += st ? 0 : (uint64_t)m->reply[2];
            if (!st)
                st = master_apply(m, i, m->reply, err);
            if (!st)
                st = master_checkpoint(m, &last_checkpoint, false, err);
            continue;
        }
        int live = 0;
        for (int w = 1; w < m->size && !st; w++) {
            if (m->job[w] == -2)
                continue;
            live++;
            if (m->job[w] >= 0)
                continue;
            int i = tree_select(t);
            if (i < 0)
                break;
            if (MPI_Send(words, job_words(t, i, words), MPI_INT, w, TAG_JOB, MPI_COMM_WORLD) != MPI_SUCCESS) {
                m->job[w] = -2; /* unreachable: given up */
                m->stats->lost++;
                continue;
            }
            t->nodes[i].kind = NODE_BUSY;
            m->job[w] = i;
            m->sent[w] = ttt_clock_ms();
        }
        if (st)
            break;
        if (live == 0)
            return ttt_fail(err, TTT_EIO, "every worker was lost");
        int ready = 0;
        MPI_Status status;
        if (MPI_Iprobe(MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &ready, &status) != MPI_SUCCESS)
            return ttt_fail(err, TTT_EIO, "MPI failed to look for results");
        if (!ready) {
            double now = ttt_clock_ms();
            for (int w = 1; w < m->size; w++)
                if (m->job[w] >= 0 && now - m->sent[w] > silent) { /* silent: its job goes back */
                    t->nodes[m->job[w]].kind = NODE_LEAF;
                    m->job[w] = -2;
                    m->stats->lost++;
                }
            st = master_checkpoint(m, &last_checkpoint, false, err);
            nap();
            continue;
        }
        int w = status.MPI_SOURCE;
        if (MPI_Recv(m->reply, RESULT_WORDS, MPI_INT64_T, w, TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE) !=
            MPI_SUCCESS)
            return ttt_fail(err, TTT_EIO, "MPI failed to receive a result");
        if (w <= 0 || w >= m->size || m->job[w] < 0)
            continue; /* a worker given up that answered after all: its job was handed out again */
        int i = m->job[w];
        m->job[w] = -1;
        m->busy[w] += (uint64_t)m->reply[2];
        m->stats->busiest = m->busy[w] > m->stats->busiest ? m->busy[w] : m->stats->busiest;
        st = master_apply(m, i, m->reply, err);
        if (!st)
            st = master_checkpoint(m, &last_checkpoint, false, err);
    }
    if (!st)
        st = master_checkpoint(m, &last_checkpoint, true, err);
    return st;
}

/* The planned certificate being written (ctx of cert_save): nodes counts the nodes written. */
typedef struct cert_output {
    const cert_plan *c;
    uint64_t nodes;
} cert_output;

/* Writes `bytes` to f: TTT_OK, else TTT_EIO at once (errno still the system's reason). */
static ttt_status cert_put(FILE *f, const void *bytes, size_t n, ttt_error *err)
{
    return fwrite(bytes, 1, n, f) == n ? TTT_OK : ttt_fail(err, TTT_EIO, "write error");
}

/* The certificate's writer for ttt_file_write: the top with the pieces spliced in, then the trailer. */
static ttt_status cert_save(FILE *f, void *ctx, ttt_error *err)
{
    cert_output *job = ctx;
    const cert_plan *c = job->c;
    job->nodes = c->nodes;
    size_t at = 0;
    ttt_status st = TTT_OK;
    for (int i = 0; !st && i < c->npieces; i++) {
        const cert_piece *p = &c->pieces[i];
        st = cert_put(f, c->top + at, p->offset - at, err);
        if (!st)
            st = cert_put(f, p->bytes + 8, p->size - 8, err);
        at = p->offset;
        job->nodes += p->nodes;
    }
    if (!st)
        st = cert_put(f, c->top + at, c->len - at, err);
    uint8_t trailer[16];
    memcpy(trailer, TTT_CERT_END_MAGIC, 8);
    le64_put(trailer + 8, job->nodes);
    return st ? st : cert_put(f, trailer, sizeof trailer, err);
}

/* Writes the planned certificate to path: a regular file (or none yet) replaced whole or left as it was, a
 * device or a pipe written into and never removed (ttt_file_write). */
static ttt_status cert_file(const cert_plan *c, const char *path, dist_solve_stats *stats, ttt_error *err)
{
    cert_output job = {.c = c};
    char tmp[TTT_FILE_TMP_SIZE], msg[TTT_ERROR_SIZE];
    bool whole;
    if (!ttt_file_write(path, "certificate", cert_save, &job, tmp, &whole, msg, sizeof msg))
        return ttt_fail(err, TTT_EIO, "%s (%s)", msg,
                        whole ? "no certificate written" : "the certificate is incomplete");
    uint64_t nodes = job.nodes;
    stats->cert_nodes = nodes;
    stats->cert_pieces = c->npieces;
    stats->cert_top = c->nodes;
    return TTT_OK;
}

/* Takes piece i's answer (bytes, size: its node count, then the piece or the reason it failed). */
static ttt_status cert_take(cert_plan *c, int i, char *bytes, size_t size, ttt_error *err)
{
    uint64_t nodes = 0;
    for (int k = 7; k >= 0 && size >= 8; k--)
        nodes = nodes << 8 | (uint8_t)bytes[k];
    if (size < 8 || nodes == UINT64_MAX) {
        ttt_status st = ttt_fail(err, TTT_ESTATE, "%.*s (no certificate written)",
                                 size > 8 ? (int)(size - 8) : 0, size > 8 ? bytes + 8 : "");
        free(bytes);
        return st;
    }
    c->pieces[i].bytes = bytes;
    c->pieces[i].size = size;
    c->pieces[i].nodes = nodes;
    return TTT_OK;
}

/* The certificate of the solved tree into opt->certificate, its pieces written by the workers (by the master
 * when alone). A worker silent for silent_ms is given up and its piece handed out again. */
static ttt_status master_certificate(master *m, ttt_error *err)
{
    const double silent = m->opt->silent_ms > 0 ? m->opt->silent_ms : DIST_SILENT_MS_DEFAULT;
    cert_plan c = {0};
    int words[JOB_WORDS];
    ttt_status st = plan_certificate(&c, &m->tree, err);
    /* Per piece: 0 to write, 1 under way, 2 written; per rank: the piece it writes, -1 idle, -2 given up. */
    char *state = calloc((size_t)c.npieces + 1, 1);
    int *piece = malloc((size_t)m->size * sizeof *piece);
    if (!st && (!state || !piece))
        st = ttt_fail(err, TTT_ENOMEM, "out of memory for the certificate");
    for (int w = 0; !st && w < m->size; w++)
        piece[w] = m->job[w] == -2 ? -2 : -1;
    int written = 0;
    while (!st && written < c.npieces) {
        if (m->size == 1) {
            char *bytes;
            size_t size;
            cert_job(&m->tree, &c.pieces[written], words);
            st = write_piece(m->solver, &m->tree.root, words, &bytes, &size, err);
            if (!st)
                st = cert_take(&c, written++, bytes, size, err);
            continue;
        }
        int live = 0, next = 0;
        for (int w = 1; w < m->size; w++) {
            if (piece[w] == -2)
                continue;
            live++;
            while (next < c.npieces && state[next])
                next++;
            if (piece[w] >= 0 || next == c.npieces)
                continue;
            int n = cert_job(&m->tree, &c.pieces[next], words);
            if (MPI_Send(words, n, MPI_INT, w, TAG_CERT, MPI_COMM_WORLD) != MPI_SUCCESS) {
                piece[w] = -2;
                m->stats->lost++;
                continue;
            }
            state[next] = 1;
            piece[w] = next;
            m->sent[w] = ttt_clock_ms();
        }
        if (live == 0) {
            st = ttt_fail(err, TTT_EIO, "every worker was lost");
            break;
        }
        int ready = 0, count = 0;
        MPI_Status status;
        if (MPI_Iprobe(MPI_ANY_SOURCE, TAG_PIECE, MPI_COMM_WORLD, &ready, &status) != MPI_SUCCESS) {
            st = ttt_fail(err, TTT_EIO, "MPI failed to look for certificate pieces");
            break;
        }
        if (!ready) {
            double now = ttt_clock_ms();
            for (int w = 1; w < m->size; w++)
                if (piece[w] >= 0 && now - m->sent[w] > silent) { /* silent: its piece goes back */
                    state[piece[w]] = 0;
                    piece[w] = m->job[w] = -2;
                    m->stats->lost++;
                }
            nap();
            continue;
        }
        int w = status.MPI_SOURCE;
        char *bytes = MPI_Get_count(&status, MPI_BYTE, &count) == MPI_SUCCESS && count >= 0
                          ? malloc((size_t)count + 1)
                          : NULL;
        if (!bytes || MPI_Recv(bytes, count, MPI_BYTE, w, TAG_PIECE, MPI_COMM_WORLD, MPI_STATUS_IGNORE) !=
                          MPI_SUCCESS) {
            free(bytes);
            st = ttt_fail(err, TTT_EIO, "MPI failed to receive a certificate piece");
            break;
        }
        if (w <= 0 || w >= m->size || piece[w] < 0) {
            free(bytes); /* a worker given up that answered after all: its piece was handed out again */
            continue;
        }
        int i = piece[w];
        piece[w] = -1;
        state[i] = 2;
        written++;
        st = cert_take(&c, i, bytes, (size_t)count, err);
    }
    if (!st)
        st = cert_file(&c, m->opt->certificate, m->stats, err);
    for (int i = 0; i < c.npieces; i++)
        free(c.pieces[i].bytes);
    free(c.pieces);
    free(c.top);
    free(c.done);
    free(state);
    free(piece);
    return st;
}

static void master_result(const master *m, ttt_search_result *out)
{
    const job_tree *t = &m->tree;
    const tree_node *r = &t->nodes[0];
    memset(out, 0, sizeof *out);
    out->count = r->count;
    for (int k = 0; k < r->count; k++) {
        const tree_node *c = &t->nodes[r->first + k];
        out->moves[k] = (ttt_move_score){.move = c->move, .score = -real(t, r->first + k)->lo, .exact = true};
    }
    qsort(out->moves, (size_t)out->count, sizeof *out->moves, ttt_move_score_compare);
    out->score = out->moves[0].score;
    out->proven = true;
    out->depth = t->root.cells - t->root.ply;
    out->best_count = 1;
    while (out->best_count < out->count && out->moves[out->best_count].score == out->score)
        out->best_count++;
    out->nodes = m->nodes;
}

/* A file the master writes at the end (or now and then) that cannot be written fails before the search, not
 * after it, as in the one-process `ttt solve`, changing nothing (ttt_file_probe: a pipe is not opened, since that
 * would wait for a reader). what: "certificate", "checkpoint". */
static ttt_status write_probe(const char *path, const char *what, ttt_error *err)
{
    char msg[TTT_ERROR_SIZE];
    return ttt_file_probe(path, what, msg, sizeof msg) ? TTT_OK : ttt_fail(err, TTT_EIO, "%s", msg);
}

/* The checkpoint is written beside path and renamed over it: a path that is there but not a regular file (a
 * directory, a device such as /dev/null, a pipe) is refused before the search, not replaced (or found
 * unwritable) after it; so is a directory where path.tmp cannot be made. */
static ttt_status checkpoint_probe(const char *path, ttt_error *err)
{
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return ttt_fail(err, TTT_EINVAL, "the checkpoint %s is not a regular file: not replacing it", path);
    char tmp[TTT_FILE_TMP_SIZE];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return ttt_fail(err, TTT_EINVAL, "checkpoint path too long");
    return write_probe(tmp, "checkpoint", err);
}

static ttt_status master_main(const ttt_board *b, const dist_solve_options *opt, int size,
                              ttt_search_result *out, dist_solve_stats *stats, ttt_error *err)
{
    master m = {.tree = {.root = *b}, .opt = opt, .size = size, .stats = stats};
    ttt_status st = TTT_OK;
    m.job = malloc((size_t)size * sizeof *m.job);
    m.sent = calloc((size_t)size, sizeof *m.sent);
    m.busy = calloc((size_t)size, sizeof *m.busy);
    m.reply = malloc((RESULT_WORDS) * sizeof *m.reply);
    if (!m.job || !m.sent || !m.busy || !m.reply || tree_add(&m.tree, -1, TTT_NO_MOVE, b) < 0)
        st = ttt_fail(err, TTT_ENOMEM, "out of memory");
    for (int w = 0; !st && w < size; w++)
        m.job[w] = -1;
    if (!st && opt->certificate)
        st = write_probe(opt->certificate, "certificate", err);
    if (!st && opt->checkpoint)
        st = checkpoint_probe(opt->checkpoint, err);
    if (!st && opt->resume) {
        st = checkpoint_read(&m.tree, opt->checkpoint, err);
        stats->resumed = (uint64_t)m.tree.n - 1;
    }
    if (!st && size == 1)
        st = ttt_solver_new(&b->rules, opt->tt_mib, &m.solver, err);
    /* Several workers share the moves from the start (one would search the position whole: the one-process
     * search, its table shared by every move). */
    if (!st && size > 2 && m.tree.nodes[0].kind == NODE_LEAF) {
        st = tree_expand(&m.tree, 0, b, err);
        stats->tree_depth = 1;
    }
    if (!st)
        st = master_run(&m, err);
    if (!st)
        master_result(&m, out);
    if (!st && opt->certificate)
        st = master_certificate(&m, err);
    stats->tree_nodes = m.tree.n;
    /* Every worker is told to stop, after a failure too, so that none waits for jobs for ever. */
    for (int w = 1; m.job && w < size; w++) {
        if (m.job[w] != -2) {
            MPI_Send(NULL, 0, MPI_INT, w, TAG_STOP, MPI_COMM_WORLD);
            continue;
        }
        /* Given up: perhaps dead, perhaps only slow; a send that cannot block tells a slow one to stop. */
        MPI_Request request;
        if (MPI_Isend(NULL, 0, MPI_INT, w, TAG_STOP, MPI_COMM_WORLD, &request) == MPI_SUCCESS)
            MPI_Request_free(&request);
    }
    ttt_solver_free(m.solver);
    free(m.tree.nodes);
    free(m.tree.pn);
    free(m.tree.open);
    free(m.job);
    free(m.sent);
    free(m.busy);
    free(m.reply);
    return st;
}

/* --- A worker --------------------------------------------------------------------------------------- */

/* Writes the certificate piece the master asked for (words) and sends it; a failure is sent as its reason. */
static void worker_piece(ttt_solver *solver, const ttt_board *root, const int *words)
{
    char *bytes = NULL, failed[8 + TTT_ERROR_SIZE];
    size_t size = 0;
    ttt_error err;
    if (write_piece(solver, root, words, &bytes, &size, &err)) {
        free(bytes);
        bytes = NULL;
        memset(failed, 0xff, 8);
        snprintf(failed + 8, TTT_ERROR_SIZE, "%s", err.msg);
        size = 8 + strlen(failed + 8);
    }
    MPI_Send(bytes ? bytes : failed, (int)size, MPI_BYTE, 0, TAG_PIECE, MPI_COMM_WORLD);
    free(bytes);
}

static ttt_status worker_main(const ttt_board *root, const dist_solve_options *opt, ttt_error *err)
{
    ttt_solver *solver = NULL;
    const uint64_t job_nodes = opt->job_nodes ? opt->job_nodes : DIST_JOB_NODES_DEFAULT;
    int path[JOB_WORDS];
    int64_t *reply = malloc((RESULT_WORDS) * sizeof *reply);
    ttt_status st = reply ? ttt_solver_new(&root->rules, opt->tt_mib, &solver, err)
                          : ttt_fail(err, TTT_ENOMEM, "out of memory");
    for (bool stop = false; !stop;) {
        int ready = 0;
        MPI_Status status;
        if (MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &ready, &status) != MPI_SUCCESS) {
            st = st ? st : ttt_fail(err, TTT_EIO, "MPI failed to look for jobs");
            break;
        }
        if (!ready) {
            nap();
            continue;
        }
        MPI_Recv(path, JOB_WORDS, MPI_INT, 0, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (status.MPI_TAG != TAG_JOB && status.MPI_TAG != TAG_CERT) {
            stop = true;
            continue;
        }
        if (st) /* a worker without a solver never answers: the master gives it up as silent */
            continue;
        if (status.MPI_TAG == TAG_CERT) {
            worker_piece(solver, root, path);
            continue;
        }
        if (run_job(solver, root, path, job_nodes, reply, err) == TTT_OK)
            MPI_Send(reply, RESULT_HEAD + 2 * (int)reply[3], MPI_INT64_T, 0, TAG_RESULT, MPI_COMM_WORLD);
    }
    ttt_solver_free(solver);
    free(reply);
    return st;
}

ttt_status dist_solve(const ttt_board *b, const dist_solve_options *opt, ttt_search_result *out,
                      dist_solve_stats *stats, bool *root, ttt_error *err)
{
    int rank, size;
    ttt_status st = dist_mpi_begin(&rank, &size, err);
    if (st)
        return st;
    *root = rank == 0;
    *stats = (dist_solve_stats){.ranks = size};
    double start = ttt_clock_ms();
    if (rank == 0)
        st = master_main(b, opt, size, out, stats, err);
    else
        st = worker_main(b, opt, err);
    if (rank == 0 && !st)
        out->ms = ttt_clock_ms() - start;
    dist_mpi_end(rank == 0 && stats->lost > 0);
    return st;
}
