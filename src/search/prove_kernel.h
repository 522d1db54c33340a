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
#define PLAST    pairing_last64
#define POF      pairing_of_bits64
#define PFIND    pairing_find64
#define PAFTER   pairing_find64_after
#define PPAIRS   narrow
#define PBOARD   board64
#define PFOLD(x) (x)
#elif PROVE_BITS == 128
#define PSET     pairing_set128
#define PCOUNT   pairing_count128
#define PFIRST   pairing_first128
#define PLAST    pairing_last128
#define POF      pairing_of_bits128
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
/* The most windows of a board (4 per cell). */
#define PWINDOWS (4 * PROVE_BITS)

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

static void scan(const ttt_prover *p, PSET att, PSET def, scan_info *si)
{
    const PSET occ = att | def;
    memset(si, 0, sizeof *si);
    uint64_t potential = 0;
    /* The attacker windows that need two more stones, by their two empty cells, for the fork test. */
    int8_t pair_a[PWINDOWS], pair_b[PWINDOWS];
    int npairs = 0;
    const ttt_lines *lines = p->lines;
    for (int w = 0; w < lines->nwin; w++) {
        PSET cells = POF(&lines->win_bits[w]), empty = cells & ~occ;
        if (cells & def) {
            if (!(cells & att)) {
                int need = PCOUNT(empty);
                si->def_live |= empty;
                if (need == 1)
                    si->def_threats |= empty;
                else if (need == 2)
                    si->def_fours |= empty;
                if (need <= DEF_ORDER_NEED) {
                    const uint64_t wt = DEF_ORDER_NUM << (WEIGHT_SHIFT * (p->k - need));
                    for (PSET e = empty; e; e &= e - 1)
                        si->weight[PFIRST(e)] += wt;
                }
            }
            continue;
        }
        int have = PCOUNT(cells & att), need = p->k - have;
        si->nfree++;
        si->live |= empty;
        si->hit |= empty & -empty;
        PSET rest = empty & (empty - 1);
        si->hit2 |= (empty & -empty) | (rest & -rest);
        potential += pairing_potential(need);
        if (need == 1)
            si->threats |= empty;
        if (need == 2) {
            pair_a[npairs] = (int8_t)PFIRST(empty);
            pair_b[npairs] = (int8_t)PLAST(empty);
            npairs++;
        }
        uint64_t wt = UINT64_C(1) << (WEIGHT_SHIFT * have);
        for (PSET e = empty; e; e &= e - 1)
            si->weight[PFIRST(e)] += wt;
    }
    si->es_attacker = pairing_potential_stops(potential, true);
    si->es_defender = pairing_potential_stops(potential, false);
    /* A fork cell f: two need-2 windows through f whose other cells differ. Without a threat of its own the
     * defender stops it only by taking f or a cell of one of those windows, else the attacker plays f and
     * wins: so its useful replies are the intersection over all forks of f plus the cells of f's need-2
     * windows (and the moves that make a threat of its own, added by the caller). */
    si->defence = ~UINT64_C(0);
    for (int i = 0; i < npairs; i++)
        for (int end = 0; end < 2; end++) {
            int f = end ? pair_b[i] : pair_a[i], other = end ? pair_a[i] : pair_b[i];
            if (si->forks & PBIT(f))
                continue;
            bool fork = false;
            PSET stop = PBIT(f) | PBIT(other);
            for (int j = 0; j < npairs; j++) {
                if (j == i)
                    continue;
                int o = pair_a[j] == f ? pair_b[j] : pair_b[j] == f ? pair_a[j] : -1;
                if (o < 0)
                    continue;
                stop |= PBIT(o);
                fork |= o != other;
            }
            if (fork) {
                si->forks |= PBIT(f);
                si->defence &= stop;
            }
        }
    if (!si->forks)
        si->defence = 0;
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

/* Writes the cells of `set` into out by weight, heaviest first (ties: lower cell first). Returns how many.
 * Runs of ORDER_RUN keys by insertion, then merged pairwise (the keys are distinct: any sort gives the one
 * order). */
static int order_cells(const scan_info *si, PSET set, int *out)
{
    uint64_t buf[2][PROVE_BITS];
    uint64_t *key = buf[0], *tmp = buf[1];
    const int n = order_keys(si, set, key);
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
    for (int i = 0; i < n; i++)
        out[i] = PROVE_BITS - 1 - (int)(key[i] & ((1u << ORDER_CELL_BITS) - 1));
    return n;
}

/* The same order taken one cell at a time (a selection sort's steps), for a caller that mostly needs its
 * first few: the first `limit` cells at most. */
typedef struct order_lazy {
    uint64_t key[PROVE_BITS];
    int n, taken, limit;
} order_lazy;

static void order_lazy_init(order_lazy *o, const scan_info *si, PSET set, int limit)
{
    o->n = order_keys(si, set, o->key);
    o->taken = 0;
    o->limit = limit;
}

/* A pairing_next_fn: the next cell in order, or -1. */
static int order_lazy_next(void *user)
{
    order_lazy *o = user;
    if (o->taken >= o->limit || o->taken >= o->n)
        return -1;
    int best = o->taken;
    for (int i = o->taken + 1; i < o->n; i++)
        if (o->key[i] > o->key[best])
            best = i;
    const uint64_t k = o->key[best];
    o->key[best] = o->key[o->taken];
    o->key[o->taken++] = k;
    return PROVE_BITS - 1 - (int)(k & ((1u << ORDER_CELL_BITS) - 1));
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
    if (self || n > 1) {
        PSET paired;
        order_lazy lazy;
        order_lazy_init(&lazy, &si, set, n > 1 ? n : 0);
        const int c = PAFTER(&p->pairs.PPAIRS, att, def, self, order_lazy_next, &lazy, &paired);
        if (c != -1) {
            proof r = {RESULT_HOLDS, c == PAIRING_SELF ? paired : paired | PBIT(c)};
            tt_store(p, att, def, false, r, 1);
            return r;
        }
    }
    int moves[PROVE_BITS];
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
