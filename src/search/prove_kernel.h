/*
 * search/prove_kernel.h - the prover's search (see prove.c for its rules) over sets of cells in one machine
 * word, written once and compiled for each width (internal): prove.c includes it with PROVE_BITS 64
 * (uint64_t: boards of at most 64 cells), prove_wide.c with PROVE_BITS 128 (pairing_set128: at most 128).
 * Each defines the entry points prove_run<BITS>, prove_known<BITS> and prove_entry_size<BITS>
 * (prove_impl.h); everything else is static to its file.
 */
#include <assert.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "rules/lines.h"
#include "search/pairing.h"
#include "search/prove_impl.h"
#include "ttt/symmetry.h"

#if PROVE_BITS == 64
#define PSET     uint64_t
#define PCOUNT   pairing_count64
#define PFIRST   pairing_first64
#define PFIND    pairing_find64
#define PAFTER   pairing_find64_after
#define PPAIRS   narrow
#define PBOARD   board64
#define PFOLD(x) (x)
#elif PROVE_BITS == 128
#define PSET     pairing_set128
#define PCOUNT   pairing_count128
#define PFIRST   pairing_first128
#define PFIND    pairing_find128
#define PAFTER   pairing_find128_after
#define PPAIRS   wide
#define PBOARD   board128
/* The table's hash of a set: its low word alone when the high one is empty, as on a 64-cell board. */
#define PFOLD(x) ((uint64_t)(x) ^ (uint64_t)((x) >> 64) * UINT64_C(0xD6E8FEB86659FD93))
#else
#error "PROVE_BITS must be 64 or 128"
#endif
#define PCAT_(a, b) a##b
#define PCAT(a, b)  PCAT_(a, b)
#define PN(name)    PCAT(name, PROVE_BITS)
#define PBIT(cell)  ((PSET)1 << (cell))

typedef struct proof {
    int result;
    PSET zone; /* with RESULT_HOLDS */
} proof;

typedef struct tt_entry {
    PSET att, def, zone;
    uint8_t used, att_to_move, result, work;
} tt_entry;

/* --- The table ------------------------------------------------------------------------------------------ */

static tt_entry *tt_bucket(const ttt_prover *p, PSET att, PSET def, bool att_to_move)
{
    uint64_t h = PFOLD(att) * UINT64_C(0x9E3779B97F4A7C15) ^ PFOLD(def) * UINT64_C(0xC2B2AE3D27D4EB4F) ^
                 (att_to_move ? UINT64_C(0x165667B19E3779F9) : 0);
    h ^= h >> 29;
    return &((tt_entry *)p->tt)[h & p->tt_mask & ~(size_t)(TT_BUCKET - 1)];
}

/* Asks the cache for the position's bucket ahead of tt_probe, so that the node's scan hides the memory's
 * latency. Only a hint: no effect on results. */
static void tt_prefetch(const ttt_prover *p, PSET att, PSET def, bool att_to_move)
{
    __builtin_prefetch(tt_bucket(p, att, def, att_to_move));
}

static const tt_entry *tt_probe(const ttt_prover *p, PSET att, PSET def, bool att_to_move)
{
    const tt_entry *b = tt_bucket(p, att, def, att_to_move);
    for (int i = 0; i < TT_BUCKET; i++)
        if (b[i].used && b[i].att == att && b[i].def == def && b[i].att_to_move == att_to_move)
            return &b[i];
    return NULL;
}

static void tt_store(ttt_prover *p, PSET att, PSET def, bool att_to_move, proof r, uint64_t work)
{
    tt_entry *b = tt_bucket(p, att, def, att_to_move);
    tt_entry *slot = &b[0];
    for (int i = 0; i < TT_BUCKET; i++) {
        if (!b[i].used || (b[i].att == att && b[i].def == def && b[i].att_to_move == att_to_move)) {
            slot = &b[i];
            break;
        }
        if (b[i].work < slot->work)
            slot = &b[i];
    }
    p->tt_used += !slot->used;
    *slot = (tt_entry){.att = att,
                       .def = def,
                       .zone = r.zone,
                       .used = 1,
                       .att_to_move = att_to_move,
                       .result = (uint8_t)r.result,
                       .work = (uint8_t)(64 - __builtin_clzll(work | 1))};
}

/* --- Reading the windows -------------------------------------------------------------------------------- */

typedef struct scan_info {
    PSET threats;     /* empty cells completing a line for the attacker */
    PSET def_threats; /* ... for the defender */
    PSET def_fours;   /* empty cells where a defender stone makes a defender threat */
    PSET live;        /* empty cells of the attacker's windows (those free of defender stones) */
    PSET def_live;    /* empty cells of the defender's windows (those free of attacker stones) */
    PSET hit;         /* one empty cell of each attacker window */
    PSET hit2;        /* two empty cells of each attacker window (all it has when fewer) */
    PSET forks;       /* empty cells where an attacker stone makes two threats on different cells */
    PSET defence;     /* with forks: the cells where a defender stone stops every fork (see scan) */
    int nfree;        /* attacker windows */
    bool es_attacker; /* Erdos-Selfridge: the defender stops every line, the attacker to move */
    bool es_defender; /* ... the defender to move */
    uint64_t weight[PROVE_BITS]; /* move ordering: sum over the windows through the cell */
} scan_info;

/* The windows read line by line from the pairing kernel's copy (one word each, in a row): every sum and
 * union below is the same in any order. */
#define PWIN(p) ((p)->pairs.PPAIRS.win)

static void scan(const ttt_prover *p, PSET att, PSET def, scan_info *si)
{
    const PSET occ = att | def;
    PSET threats = 0, def_threats = 0, def_fours = 0, live = 0, def_live = 0, hit = 0, hit2 = 0;
    int nfree = 0;
    uint64_t potential = 0;
    /* For the fork test: the cells of the attacker windows that need two more stones, and at each the other
     * empty cells of those windows through it (others[c] is set once c is in `ends`). */
    PSET ends = 0, others[PROVE_BITS];
    const PSET *win = PWIN(p);
    const int nwin = p->lines->nwin, k = p->k;
    memset(si->weight, 0, sizeof si->weight);
    for (int w = 0; w < nwin; w++) {
        const PSET cells = win[w], empty = cells & ~occ;
        const int need = PCOUNT(empty); /* a window free of one side's stones: the other's still to play */
        if (cells & def) {
            if (!(cells & att)) {
                def_live |= empty;
                if (need == 1)
                    def_threats |= empty;
                else if (need == 2)
                    def_fours |= empty;
                if (need <= DEF_ORDER_NEED) {
                    const uint64_t wt = DEF_ORDER_NUM << (WEIGHT_SHIFT * (k - need));
                    for (PSET e = empty; e; e &= e - 1)
                        si->weight[PFIRST(e)] += wt;
                }
            }
            continue;
        }
        const uint64_t wt = UINT64_C(1) << (WEIGHT_SHIFT * (k - need));
        for (PSET e = empty; e; e &= e - 1)
            si->weight[PFIRST(e)] += wt;
        nfree++;
        live |= empty;
        const PSET low = empty & -empty, rest = empty & (empty - 1);
        hit |= low;
        hit2 |= low | (rest & -rest);
        potential += pairing_potential(need);
        if (need == 1)
            threats |= empty;
        else if (need == 2) {
            const int a = PFIRST(empty), b = PFIRST(rest);
            if (!(ends & PBIT(a)))
                others[a] = 0;
            if (!(ends & PBIT(b)))
                others[b] = 0;
            ends |= PBIT(a) | PBIT(b);
            others[a] |= PBIT(b);
            others[b] |= PBIT(a);
        }
    }
    si->threats = threats;
    si->def_threats = def_threats;
    si->def_fours = def_fours;
    si->live = live;
    si->def_live = def_live;
    si->hit = hit;
    si->hit2 = hit2;
    si->nfree = nfree;
    si->es_attacker = pairing_potential_stops(potential, true);
    si->es_defender = pairing_potential_stops(potential, false);
    /* A fork cell f: two need-2 windows through f whose other cells differ. Without a threat of its own the
     * defender stops it only by taking f or a cell of one of those windows, else the attacker plays f and
     * wins: so its useful replies are the intersection over all forks of f plus the cells of f's need-2
     * windows (and the moves that make a threat of its own, added by the caller). */
    PSET forks = 0, defence = ~(PSET)0;
    for (PSET e = ends; e; e &= e - 1) {
        const int f = PFIRST(e);
        if (PCOUNT(others[f]) >= 2) {
            forks |= PBIT(f);
            defence &= PBIT(f) | others[f];
        }
    }
    si->forks = forks;
    si->defence = forks ? defence : 0;
}

/* --- Symmetry ------------------------------------------------------------------------------------------- */

static PSET sym_mask(const ttt_prover *p, int s, PSET set)
{
    PSET out = 0;
    for (; set; set &= set - 1)
        out |= PBIT(p->lines->sym[s][PFIRST(set)]);
    return out;
}

/* The symmetries (other than the identity) that map the position onto itself; returns how many. */
static int stabilizer(const ttt_prover *p, PSET att, PSET def, int *out)
{
    int n = 0;
    for (int s = 1; s < p->lines->nsym; s++)
        if (sym_mask(p, s, att) == att && sym_mask(p, s, def) == def)
            out[n++] = s;
    return n;
}

/* --- The search ----------------------------------------------------------------------------------------- */

/* Move ordering keys: weight and cell in one word (ORDER_CELL_BITS bits for the cell, its complement so
 * that the lower cell sorts first), held in registers and cache rather than read through the weights. */
#define ORDER_CELL_BITS  8
#define ORDER_WEIGHT_MAX (UINT64_MAX >> ORDER_CELL_BITS)
#define ORDER_RUN        8
/* The keys of the cells of `set` into key; returns how many. */
static int order_keys(const scan_info *si, PSET set, uint64_t *key)
{
    int n = 0;
    for (; set; set &= set - 1) {
        const int cell = PFIRST(set);
        const uint64_t w = si->weight[cell] < ORDER_WEIGHT_MAX ? si->weight[cell] : ORDER_WEIGHT_MAX;
        key[n++] = w << ORDER_CELL_BITS | (uint64_t)(PROVE_BITS - 1 - cell);
    }
    return n;
}

/* Sorts key[0..n) heaviest first into key (tmp: room for n more). Runs of ORDER_RUN keys by insertion, then
 * merged pairwise (the keys are distinct: any sort gives the one order). */
static void order_sort(uint64_t *key, uint64_t *tmp, int n)
{
    uint64_t *const into = key;
    for (int from = 0; from < n; from += ORDER_RUN) {
        const int to = from + ORDER_RUN < n ? from + ORDER_RUN : n;
        for (int i = from + 1; i < to; i++) {
            const uint64_t k = key[i];
            int j = i;
            while (j > from && key[j - 1] < k) {
                key[j] = key[j - 1];
                j--;
            }
            key[j] = k;
        }
    }
    for (int run = ORDER_RUN; run < n; run *= 2) {
        for (int from = 0; from < n; from += 2 * run) {
            const int mid = from + run < n ? from + run : n, to = from + 2 * run < n ? from + 2 * run : n;
            int a = from, b = mid, o = from;
            while (a < mid && b < to)
                tmp[o++] = key[a] > key[b] ? key[a++] : key[b++];
            while (a < mid)
                tmp[o++] = key[a++];
            while (b < to)
                tmp[o++] = key[b++];
        }
        uint64_t *t = key;
        key = tmp;
        tmp = t;
    }
    if (key != into)
        memcpy(into, key, (size_t)n * sizeof *key);
}

/* The cell of a key. */
static inline int order_cell(uint64_t key)
{
    return PROVE_BITS - 1 - (int)(key & ((1u << ORDER_CELL_BITS) - 1));
}

/* Writes the cells of `set` into out by weight, heaviest first (ties: lower cell first). Returns how many. */
static int order_cells(const scan_info *si, PSET set, int *out)
{
    uint64_t key[PROVE_BITS], tmp[PROVE_BITS];
    const int n = order_keys(si, set, key);
    order_sort(key, tmp, n);
    for (int i = 0; i < n; i++)
        out[i] = order_cell(key[i]);
    return n;
}

/* The same order taken one cell at a time, for a caller that mostly needs its first few: the first `limit`
 * cells at most. The keys are made at the first cell asked for; the first ORDER_PICKS cells are picked one by
 * one (a selection sort's steps), and past them the rest is sorted at once. 7x7k5 takes 6 cells of 33 on
 * average, and often all. Instructions, ORDER_PICKS 8 against 4, 6, 12, 16, a selection sort alone, a heap:
 * 7x7k5 --value 7.47G against +1.5 %, +0.4 %, -0.2 %, +0.1 %, +0.6 %, +2.0 %; the empty 8x8k5 board, 300k
 * nodes: 6.36G against (6) -0.4 %, (12) +0.9 %. */
#define ORDER_PICKS 8
typedef struct order_lazy {
    const scan_info *si;
    PSET set;
    uint64_t key[PROVE_BITS];
    int n, taken, limit; /* n < 0: no keys yet */
    bool sorted;         /* key[taken..n) is in order too (key[0..taken) always is, and heavier) */
} order_lazy;

static void order_lazy_init(order_lazy *o, const scan_info *si, PSET set, int limit)
{
    o->si = si;
    o->set = set;
    o->n = -1;
    o->taken = 0;
    o->limit = limit;
    o->sorted = false;
}

/* The keys made and the rest of them sorted. */
static void order_lazy_sort(order_lazy *o)
{
    if (o->n < 0)
        o->n = order_keys(o->si, o->set, o->key);
    if (!o->sorted) {
        uint64_t tmp[PROVE_BITS];
        order_sort(o->key + o->taken, tmp, o->n - o->taken);
        o->sorted = true;
    }
}

/* A pairing_next_fn: the next cell in order, or -1. */
static int order_lazy_next(void *user)
{
    order_lazy *o = user;
    if (o->taken >= o->limit)
        return -1;
    if (o->n < 0)
        o->n = order_keys(o->si, o->set, o->key);
    if (o->taken >= o->n)
        return -1;
    if (!o->sorted && o->taken >= ORDER_PICKS)
        order_lazy_sort(o);
    if (!o->sorted) {
        int best = o->taken;
        for (int i = o->taken + 1; i < o->n; i++)
            if (o->key[i] > o->key[best])
                best = i;
        const uint64_t k = o->key[best];
        o->key[best] = o->key[o->taken];
        o->key[o->taken] = k;
    }
    return order_cell(o->key[o->taken++]);
}

/* The whole order of the set into out (what order_cells gives), from what o has found so far. Returns how
 * many. */
static int order_lazy_all(order_lazy *o, int *out)
{
    order_lazy_sort(o);
    for (int i = 0; i < o->n; i++)
        out[i] = order_cell(o->key[i]);
    return o->n;
}

/* Moves the killer of the defender node at this depth, if among the first n moves and not first, to second
 * place, after the heaviest move (the others keep their order): only the order of the moves changes, never
 * which are tried. Second rather than first: bench/solver/prove8.sh 10.5M nodes against 12.7M, 7x7k5 0.70M
 * against 1.09M. */
static void killer_second(const ttt_prover *p, int *moves, int n)
{
    if (p->depth >= KILLER_DEPTHS || p->killer[p->depth] == KILLER_NONE)
        return;
    const int k = p->killer[p->depth];
    for (int i = 2; i < n; i++)
        if (moves[i] == k) {
            memmove(moves + 2, moves + 1, (size_t)(i - 1) * sizeof *moves);
            moves[1] = k;
            return;
        }
}

/* Records the defender move that held at this depth. */
static void killer_set(ttt_prover *p, int cell)
{
    if (p->depth < KILLER_DEPTHS)
        p->killer[p->depth] = (uint8_t)cell;
}

static proof attacker_node(ttt_prover *p, PSET att, PSET def);
static proof defender_node(ttt_prover *p, PSET att, PSET def);

static proof defender_search(ttt_prover *p, PSET att, PSET def)
{
    const proof unknown = {RESULT_UNKNOWN, 0}, forced = {RESULT_FORCED, 0};
    const bool unpaired = p->unpaired;
    p->unpaired = false;
    if (prove_budget_spent(p))
        return unknown;

    /* Step 1. A line of the defender's own ends the game (the attacker stones that could change that: the
     * cell, and one cell of each attacker window, which must not be full); two attacker threats win; nothing
     * left to the attacker or the bound: the defender holds. */
    tt_prefetch(p, att, def, false);
    scan_info si;
    scan(p, att, def, &si);
    if (si.def_threats) {
        PSET t = si.def_threats & -si.def_threats;
        return (proof){RESULT_HOLDS, t | si.hit};
    }
    if (PCOUNT(si.threats) >= 2)
        return forced;
    if (si.nfree == 0)
        return (proof){RESULT_HOLDS, 0};
    if (si.es_defender)
        return (proof){RESULT_HOLDS, si.live};

    /* Step 2. The table. */
    const tt_entry *e = tt_probe(p, att, def, false);
    if (e)
        return (proof){e->result, e->zone};
    const uint64_t nodes0 = p->nodes;

    /* Step 3. The defender's moves: the threat's cell; else what stops every fork or makes a threat of its
     * own; else every live cell; the heaviest first. */
    const PSET empty = p->PBOARD & ~(att | def);
    PSET set = si.threats ? si.threats : si.forks ? (si.defence | si.def_fours) & empty : si.live;
    int n = PCOUNT(set);
    if (!p->full_width && n > DEFENDER_WIDTH)
        n = DEFENDER_WIDTH;
    /* Step 4. A pairing strategy (without an attacker threat, when no node looked at these stones before):
     * the defender holds. Else a move after which one holds ends the search at once (Z = the pairs + the
     * move: while it stays empty the defender plays it, and the pairs stay empty): the first such in order.
     * One call finds both as a call of the pairing finder on each position would; it mostly ends after a
     * few moves, which are ordered as it takes them. */
    const bool self = !si.threats && !unpaired;
    order_lazy lazy;
    const bool lazy_used = self || n > 1;
    if (lazy_used) {
        PSET paired;
        order_lazy_init(&lazy, &si, set, n > 1 ? n : 0);
        const int c = PAFTER(&p->pairs.PPAIRS, att, def, self, order_lazy_next, &lazy, &paired);
        if (c != -1) {
            proof r = {RESULT_HOLDS, c == PAIRING_SELF ? paired : paired | PBIT(c)};
            tt_store(p, att, def, false, r, 1);
            return r;
        }
    }
    int moves[PROVE_BITS];
    if (lazy_used)
        order_lazy_all(&lazy, moves);
    else
        order_cells(&si, set, moves);
    killer_second(p, moves, n);
    const bool children_unpaired = n > 1;

    /* Step 5. The moves in order. One move's proof can cost thousands of times another's: first every move
     * with a small budget, then with budgets WIDEN_STEP times larger, lastly without one (a move shown to
     * lose is not tried again). */
    proof r = forced;
    bool lost[PROVE_BITS] = {false};
    if (n > 1)
        for (uint64_t budget = WIDEN_FIRST; budget <= WIDEN_LAST; budget *= WIDEN_STEP)
            for (int i = 0; i < n; i++) {
                if (lost[i])
                    continue;
                const uint64_t outer = p->soft_limit, mine = p->nodes + budget;
                p->soft_limit = outer && outer < mine ? outer : mine;
                p->unpaired = children_unpaired;
                p->path[p->depth - 1] = (int16_t)moves[i];
                proof c = attacker_node(p, att, def | PBIT(moves[i]));
                p->soft_limit = outer;
                if (c.result == RESULT_UNKNOWN) {
                    if (p->stopped || (outer && p->nodes >= outer))
                        return unknown;
                    continue;
                }
                if (c.result == RESULT_HOLDS) {
                    r = (proof){RESULT_HOLDS, c.zone | PBIT(moves[i])};
                    killer_set(p, moves[i]);
                    goto done;
                }
                lost[i] = true;
            }
    for (int i = 0; i < n; i++) {
        if (lost[i])
            continue;
        p->unpaired = children_unpaired;
        p->path[p->depth - 1] = (int16_t)moves[i];
        proof c = attacker_node(p, att, def | PBIT(moves[i]));
        if (c.result == RESULT_UNKNOWN)
            return unknown;
        if (c.result == RESULT_HOLDS) {
            r = (proof){RESULT_HOLDS, c.zone | PBIT(moves[i])};
            killer_set(p, moves[i]);
            break;
        }
    }
done:
    tt_store(p, att, def, false, r, p->nodes - nodes0);
    return r;
}

static proof attacker_search(ttt_prover *p, PSET att, PSET def)
{
    const proof unknown = {RESULT_UNKNOWN, 0}, forced = {RESULT_FORCED, 0};
    const bool unpaired = p->unpaired;
    p->unpaired = false;
    if (prove_budget_spent(p))
        return unknown;

    /* Step 1. A line now wins. Two threats of the defender win for it (the attacker stones that could change
     * that: its threat cells, and two cells of each attacker window, lest one become a threat); a fork wins
     * for the attacker when the defender has no threat. Nothing left to the attacker or the bound: the
     * defender holds. */
    tt_prefetch(p, att, def, true);
    scan_info si;
    scan(p, att, def, &si);
    if (si.threats)
        return forced;
    if (PCOUNT(si.def_threats) >= 2)
        return (proof){RESULT_HOLDS, si.def_threats | si.hit2};
    if (si.forks && !si.def_threats)
        return forced;
    if (si.nfree == 0)
        return (proof){RESULT_HOLDS, 0};
    if (si.es_attacker)
        return (proof){RESULT_HOLDS, si.live};

    /* Step 2. The table, then a pairing strategy. */
    const tt_entry *e = tt_probe(p, att, def, true);
    if (e)
        return (proof){e->result, e->zone};
    const uint64_t nodes0 = p->nodes;
    PSET paired;
    if (!unpaired && PFIND(&p->pairs.PPAIRS, att, def, &paired, NULL)) {
        proof r = {RESULT_HOLDS, paired};
        tt_store(p, att, def, true, r, 1);
        return r;
    }

    /* Step 3. One threat of the defender must be blocked: the attacker's only move (its others let the
     * defender complete; stones outside the zone must not give the attacker a threat instead). */
    if (si.def_threats) {
        int t = PFIRST(si.def_threats);
        p->path[p->depth - 1] = (int16_t)t;
        proof c = defender_node(p, att | PBIT(t), def);
        proof r = c.result == RESULT_HOLDS ? (proof){RESULT_HOLDS, c.zone | PBIT(t) | si.hit2} : c;
        if (r.result != RESULT_UNKNOWN)
            tt_store(p, att, def, true, r, p->nodes - nodes0);
        return r;
    }

    /* Step 4. The null move: the defender plays first. If the attacker wins even so, it does with the move.
     * Skipped with fewer than NULL_MIN_STONES stones when every empty cell is live: its zone would then be
     * nearly the whole board, and every attacker move is searched instead (a move on a dead cell would be
     * the null move itself, so not where there is one). */
    const PSET empty = p->PBOARD & ~(att | def);
    proof null = {RESULT_HOLDS, 0};
    const bool no_null = PCOUNT(att | def) < NULL_MIN_STONES && !(empty & ~si.live);
    if (!no_null) {
        p->unpaired = true; /* the same stones as this node's pairing just found nothing for */
        p->path[p->depth - 1] = TTT_PROVER_PASS;
        null = defender_node(p, att, def);
        if (null.result != RESULT_HOLDS) {
            if (null.result == RESULT_FORCED)
                tt_store(p, att, def, true, forced, p->nodes - nodes0);
            return null;
        }
    }

    /* Step 5. The attacker's moves inside the null move's zone, or every live cell without it, each orbit of
     * the position's symmetries once. Only a cell in no window of either side is the null move itself: one
     * dead for the attacker may still block a defender window (a defender line or threat the proof leaned
     * on), and the attacker may win by that block. */
    int syms[TTT_SYM_ALL], nsyms = 0;
    PSET zone = null.zone;
    if (PCOUNT(att | def) <= SYM_MAX_STONES) {
        nsyms = stabilizer(p, att, def, syms);
        for (int i = 0; i < nsyms; i++)
            zone |= sym_mask(p, syms[i], null.zone);
    }
    int moves[PROVE_BITS];
    PSET open = no_null ? si.live : zone & (si.live | si.def_live); /* the moves no proof covers yet */
    int n = order_cells(&si, open, moves);
    const bool top = p->depth <= p->top_depth;
    if (top) {
        p->top_depth = p->depth;
        p->top_total = n;
    }
    for (int i = 0; i < n; i++) {
        if (top && p->depth == p->top_depth)
            p->top_done = i;
        bool repeat = !(open & PBIT(moves[i]));
        for (int j = 0; j < nsyms && !repeat; j++)
            repeat = p->lines->sym[syms[j]][moves[i]] < moves[i];
        if (repeat)
            continue;
        p->path[p->depth - 1] = (int16_t)moves[i];
        proof c = defender_node(p, att | PBIT(moves[i]), def);
        if (c.result == RESULT_UNKNOWN)
            return unknown;
        if (c.result == RESULT_FORCED) {
            tt_store(p, att, def, true, forced, p->nodes - nodes0);
            return forced;
        }
        /* A move m' outside c.zone is covered: P + m' has no more attacker stones than P + m + m'. */
        zone |= c.zone;
        open &= c.zone;
        for (int j = 0; j < nsyms; j++) {
            PSET image = sym_mask(p, syms[j], c.zone);
            zone |= image;
            open &= image;
        }
    }
    proof r = {RESULT_HOLDS, zone};
    tt_store(p, att, def, true, r, p->nodes - nodes0);
    return r;
}

/* The node functions count the path's length around the searches above (whose loops write each child's move
 * into path first), for progress reports. */
static proof defender_node(ttt_prover *p, PSET att, PSET def)
{
    p->depth++;
    proof r = defender_search(p, att, def);
    p->depth--;
    return r;
}

static proof attacker_node(ttt_prover *p, PSET att, PSET def)
{
    p->depth++;
    proof r = attacker_search(p, att, def);
    if (p->depth == p->top_depth) /* the next attacker node with a choice takes the report */
        p->top_depth = INT_MAX;
    p->depth--;
    return r;
}

/* --- The kernel's entry points (prove_impl.h) ------------------------------------------------------------ */

int PN(prove_run)(ttt_prover *p, PSET att, PSET def, bool att_to_move, PSET *zone)
{
    memset(p->killer, KILLER_NONE, sizeof p->killer); /* a run's nodes do not depend on the runs before */
    proof r = att_to_move ? attacker_node(p, att, def) : defender_node(p, att, def);
    *zone = r.result == RESULT_HOLDS ? r.zone : 0;
    return r.result;
}

int PN(prove_known)(const ttt_prover *p, PSET att, PSET def, bool att_to_move)
{
    const tt_entry *e = tt_probe(p, att, def, att_to_move);
    return e ? e->result : RESULT_UNKNOWN;
}

size_t PN(prove_entry_size)(void) { return sizeof(tt_entry); }

bool PN(prove_entry_worth)(const ttt_prover *p, size_t slot, uint64_t min_nodes)
{
    const tt_entry *e = &((const tt_entry *)p->tt)[slot];
    /* work holds floor(log2(nodes)) + 1: at least min_nodes when it reaches that of min_nodes */
    return e->used && e->work >= 64 - __builtin_clzll(min_nodes | 1);
}

bool PN(prove_entry_holds)(const ttt_prover *p, size_t slot)
{
    const tt_entry *e = &((const tt_entry *)p->tt)[slot];
    return e->used && e->result == RESULT_HOLDS;
}

size_t PN(prove_entries_used)(const ttt_prover *p)
{
    const tt_entry *tt = p->tt;
    size_t n = 0;
    for (size_t slot = 0; slot <= p->tt_mask; slot++)
        n += tt[slot].used;
    return n;
}
