/*
 * search/prove.c - proofs that a side cannot win, with relevance zones and pairing strategies (see prove.h).
 *
 * A position is two 64-bit sets (the attacker's and the defender's stones) and who is to move. Two mutually
 * recursive searches:
 *
 *     attacker_node  the attacker to move (OR): the defender holds only if it holds after every attacker move
 *     defender_node  the defender to move (AND): the defender holds if it holds after one of its moves
 *
 * Each returns a result and, when the defender holds, a relevance zone Z: a set of cells such that the proof
 * still holds with attacker stones added on any empty cells outside Z (more attacker stones never help the
 * defender, so fewer never hurt it). How each node makes its zone:
 *
 *   no window free of the defender             Z = {}      (the attacker has nothing left to complete)
 *   Erdos-Selfridge bound                      Z = the empty cells of the windows free of the defender
 *   pairing strategy                           Z = the paired cells (a stone outside them leaves every pair;
 *                                                  a pair may serve several windows of one line)
 *   the defender completes a line now          Z = that cell + one empty cell of each attacker window (so
 *                                                  that added stones complete none first)
 *   two defender threats, the attacker to move Z = those cells + two empty cells of each attacker window (so
 *                                                  that added stones make no attacker threat)
 *   the attacker blocks the one threat t       Z = Zc + {t} + two empty cells of each attacker window
 *   the defender plays r, the child holds Zc   Z = Zc + {r}   (r must stay empty for the defender to play it)
 *   the attacker to move: the null move (the defender plays first) holds with Z0; each attacker move m
 *       searched holds with Zm                 Z = Z0 + every Zm
 *       A move m' outside Z0 gives P + m' = (P, defender to move) + an attacker stone outside Z0: it holds.
 *       A move m' outside a searched Zm: P + m' has no more attacker stones than P + m + m', which holds; so
 *       the moves still to search are those inside Z0 and every Zm so far. With stones S outside Z, a
 * searched move gives P + m + S (S outside Zm), another P + S + m' (S + m' outside Z0 or some Zm). symmetry:
 * where the attacker moves with few stones on the board, moves equivalent under a symmetry of the position
 * are searched once, and zones are closed under those symmetries (a superset of a zone is a zone; an image of
 * a zone is the image position's zone). Every rule has a mutation test: tests/test_prove.c compares the
 * prover with a brute force.
 */
#include "search/prove.h"

#include <assert.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "rules/lines.h"
#include "search/pairing.h"
#include "ttt/symmetry.h"
#include "util/error.h"

/* Moves equivalent under the position's symmetries are searched once at attacker nodes with at most this many
 * stones (the orbit computation costs more than it saves once positions are rarely symmetric). */
#define SYM_MAX_STONES 6
/* The defender tries at most this many moves at a node unless full_width (the rest are left unproven). */
#define DEFENDER_WIDTH 64
/* Move ordering weight of a window through a cell, by the attacker's stones in it: 2^(WEIGHT_SHIFT * stones).
 */
#define WEIGHT_SHIFT 2
/* Defender nodes with at most WIDEN_MAX_STONES stones try every move with WIDEN_FIRST nodes, then budgets
 * WIDEN_STEP times larger up to WIDEN_LAST, before the plain search (X cannot win 7x7k5: 0.82M nodes, 7.44M
 * without). */
#define WIDEN_MAX_STONES 8
#define WIDEN_FIRST      128
#define WIDEN_STEP       8
#define WIDEN_LAST       (512 * 1024)
#define TT_BUCKET        2
#define MIB              (1024u * 1024u)
#define MAX_WINDOWS      (4 * TTT_PROVER_MAX_CELLS)

enum { RESULT_UNKNOWN = 0, RESULT_HOLDS = 1, RESULT_FORCED = 2 };

typedef struct proof {
    int result;
    uint64_t zone; /* with RESULT_HOLDS */
} proof;

typedef struct tt_entry {
    uint64_t att, def, zone;
    uint8_t used, att_to_move, result, work;
} tt_entry;

struct ttt_prover {
    const ttt_lines *lines; /* the board's windows, lines and symmetries (rules/lines.h), shared */
    int cells, k;
    bool full_width;
    uint64_t board;        /* every cell */
    pairing_lines64 pairs; /* the windows as the pairing kernel reads them */
    tt_entry *tt;
    size_t tt_mask;
    /* The run under way. */
    uint64_t nodes, node_limit;
    uint64_t
        soft_limit; /* nonzero: at this many nodes the search unwinds (unknown) without stopping the run */
    ttt_prover_stop_fn stop_fn;
    void *stop_user;
    bool stopped;
    uint64_t zone; /* of the last run's answer when it held */
    /* Progress (ttt_prover_progress): the nodes on the path from the run's root, and at the shallowest
     * attacker node with a choice on it (top_depth) the moves settled so far of those it has. */
    int depth, top_depth, top_done, top_total;
};

static int popcount(uint64_t x) { return __builtin_popcountll(x); }

static uint64_t bit(int cell) { return UINT64_C(1) << cell; }

bool ttt_prover_supports(const ttt_rules *rules)
{
    return ttt_rules_line_wins(rules) && rules->rows * rules->cols <= TTT_PROVER_MAX_CELLS && rules->k >= 2;
}

ttt_status ttt_prover_new_lines(const ttt_lines *lines, int tt_mib, bool full_width, ttt_prover **out,
                                ttt_error *err)
{
    *out = NULL;
    if (!ttt_prover_supports(&lines->rules))
        return ttt_fail(err, TTT_EINVAL, "prover: normal rules and at most %d cells only",
                        TTT_PROVER_MAX_CELLS);
    ttt_prover *p = calloc(1, sizeof *p);
    if (!p)
        return ttt_fail(err, TTT_ENOMEM, "prover: out of memory");
    p->cells = lines->cells;
    p->k = lines->k;
    p->full_width = full_width;
    p->board = lines->all.w[0];
    size_t entries = TT_BUCKET;
    size_t want = (size_t)(tt_mib < 1 ? 1 : tt_mib) * MIB / sizeof(tt_entry);
    while (entries * 2 <= want)
        entries *= 2;
    p->tt = calloc(entries, sizeof *p->tt);
    if (!p->tt) {
        free(p);
        return ttt_fail(err, TTT_ENOMEM, "prover: out of memory for a %d MiB table", tt_mib);
    }
    p->tt_mask = entries - 1;
    p->lines = ttt_lines_ref(lines);
    pairing_lines64_init(&p->pairs, lines);
    *out = p;
    return TTT_OK;
}

ttt_status ttt_prover_new(const ttt_rules *rules, int tt_mib, bool full_width, ttt_prover **out,
                          ttt_error *err)
{
    *out = NULL;
    if (!ttt_prover_supports(rules))
        return ttt_fail(err, TTT_EINVAL, "prover: normal rules and at most %d cells only",
                        TTT_PROVER_MAX_CELLS);
    const ttt_lines *lines;
    ttt_status st = ttt_lines_new(rules, &lines, err);
    if (st)
        return st;
    st = ttt_prover_new_lines(lines, tt_mib, full_width, out, err);
    ttt_lines_unref(lines);
    return st;
}

void ttt_prover_free(ttt_prover *p)
{
    if (!p)
        return;
    free(p->tt);
    ttt_lines_unref(p->lines);
    free(p);
}

uint64_t ttt_prover_zone(const ttt_prover *p) { return p->zone; }

void ttt_prover_clear(ttt_prover *p) { memset(p->tt, 0, (p->tt_mask + 1) * sizeof *p->tt); }

void *ttt_prover_table(ttt_prover *p, size_t *slots, size_t *entry_bytes)
{
    *slots = p->tt_mask + 1;
    *entry_bytes = sizeof *p->tt;
    return p->tt;
}

/* --- The table ------------------------------------------------------------------------------------------ */

static tt_entry *tt_bucket(const ttt_prover *p, uint64_t att, uint64_t def, bool att_to_move)
{
    uint64_t h = att * UINT64_C(0x9E3779B97F4A7C15) ^ def * UINT64_C(0xC2B2AE3D27D4EB4F) ^
                 (att_to_move ? UINT64_C(0x165667B19E3779F9) : 0);
    h ^= h >> 29;
    return &p->tt[h & p->tt_mask & ~(size_t)(TT_BUCKET - 1)];
}

/* Asks the cache for the position's bucket ahead of tt_probe, so that the node's scan hides the memory's
 * latency. Only a hint: no effect on results. */
static void tt_prefetch(const ttt_prover *p, uint64_t att, uint64_t def, bool att_to_move)
{
    __builtin_prefetch(tt_bucket(p, att, def, att_to_move));
}

static const tt_entry *tt_probe(const ttt_prover *p, uint64_t att, uint64_t def, bool att_to_move)
{
    const tt_entry *b = tt_bucket(p, att, def, att_to_move);
    for (int i = 0; i < TT_BUCKET; i++)
        if (b[i].used && b[i].att == att && b[i].def == def && b[i].att_to_move == att_to_move)
            return &b[i];
    return NULL;
}

ttt_proof ttt_prover_known(const ttt_prover *p, uint64_t att, uint64_t def, bool att_to_move)
{
    const tt_entry *e = tt_probe(p, att, def, att_to_move);
    return e && e->result == RESULT_HOLDS ? TTT_PROOF_HOLDS : TTT_PROOF_UNKNOWN;
}

static void tt_store(ttt_prover *p, uint64_t att, uint64_t def, bool att_to_move, proof r, uint64_t work)
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
    uint64_t threats;     /* empty cells completing a line for the attacker */
    uint64_t def_threats; /* ... for the defender */
    uint64_t def_fours;   /* empty cells where a defender stone makes a defender threat */
    uint64_t live;        /* empty cells of the attacker's windows (those free of defender stones) */
    uint64_t hit;         /* one empty cell of each attacker window */
    uint64_t hit2;        /* two empty cells of each attacker window (all it has when fewer) */
    uint64_t forks;       /* empty cells where an attacker stone makes two threats on different cells */
    uint64_t defence;     /* with forks: the cells where a defender stone stops every fork (see scan) */
    int nfree;            /* attacker windows */
    bool es_attacker;     /* Erdos-Selfridge: the defender stops every line, the attacker to move */
    bool es_defender;     /* ... the defender to move */
    uint64_t weight[TTT_PROVER_MAX_CELLS]; /* move ordering: sum over attacker windows through the cell */
} scan_info;

static void scan(const ttt_prover *p, uint64_t att, uint64_t def, scan_info *si)
{
    const uint64_t occ = att | def;
    memset(si, 0, sizeof *si);
    uint64_t potential = 0;
    /* The attacker windows that need two more stones, by their two empty cells, for the fork test. */
    int8_t pair_a[MAX_WINDOWS], pair_b[MAX_WINDOWS];
    int npairs = 0;
    const ttt_lines *lines = p->lines;
    for (int w = 0; w < lines->nwin; w++) {
        uint64_t cells = lines->win_bits[w].w[0], empty = cells & ~occ;
        if (cells & def) {
            if (!(cells & att)) {
                int need = popcount(empty);
                if (need == 1)
                    si->def_threats |= empty;
                else if (need == 2)
                    si->def_fours |= empty;
            }
            continue;
        }
        int have = popcount(cells & att), need = p->k - have;
        si->nfree++;
        si->live |= empty;
        si->hit |= empty & -empty;
        uint64_t rest = empty & (empty - 1);
        si->hit2 |= (empty & -empty) | (rest & -rest);
        potential += pairing_potential(need);
        if (need == 1)
            si->threats |= empty;
        if (need == 2) {
            pair_a[npairs] = (int8_t)__builtin_ctzll(empty);
            pair_b[npairs] = (int8_t)(63 - __builtin_clzll(empty));
            npairs++;
        }
        uint64_t wt = UINT64_C(1) << (WEIGHT_SHIFT * have);
        for (uint64_t e = empty; e; e &= e - 1)
            si->weight[__builtin_ctzll(e)] += wt;
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
            if (si->forks & bit(f))
                continue;
            bool fork = false;
            uint64_t stop = bit(f) | bit(other);
            for (int j = 0; j < npairs; j++) {
                if (j == i)
                    continue;
                int o = pair_a[j] == f ? pair_b[j] : pair_b[j] == f ? pair_a[j] : -1;
                if (o < 0)
                    continue;
                stop |= bit(o);
                fork |= o != other;
            }
            if (fork) {
                si->forks |= bit(f);
                si->defence &= stop;
            }
        }
    if (!si->forks)
        si->defence = 0;
}

/* --- Symmetry ------------------------------------------------------------------------------------------- */

static uint64_t sym_mask(const ttt_prover *p, int s, uint64_t set)
{
    uint64_t out = 0;
    for (; set; set &= set - 1)
        out |= bit(p->lines->sym[s][__builtin_ctzll(set)]);
    return out;
}

/* The symmetries (other than the identity) that map the position onto itself; returns how many. */
static int stabilizer(const ttt_prover *p, uint64_t att, uint64_t def, int *out)
{
    int n = 0;
    for (int s = 1; s < p->lines->nsym; s++)
        if (sym_mask(p, s, att) == att && sym_mask(p, s, def) == def)
            out[n++] = s;
    return n;
}

/* --- The search ----------------------------------------------------------------------------------------- */

static bool budget_spent(ttt_prover *p)
{
    p->nodes++;
    if (p->stopped)
        return true;
    if (p->node_limit && p->nodes >= p->node_limit)
        p->stopped = true;
    else if (p->stop_fn && (p->nodes & (TTT_PROVER_CHECK_NODES - 1)) == 0 &&
             p->stop_fn(p->stop_user, p->nodes))
        p->stopped = true;
    return p->stopped || (p->soft_limit && p->nodes >= p->soft_limit);
}

/* Writes the cells of `set` into out by weight, heaviest first (ties: lower cell first). Returns how many. */
static int order_cells(const scan_info *si, uint64_t set, int *out)
{
    int n = 0;
    for (; set; set &= set - 1) {
        int cell = __builtin_ctzll(set), j = n++;
        while (j > 0 && si->weight[out[j - 1]] < si->weight[cell]) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = cell;
    }
    return n;
}

static proof attacker_node(ttt_prover *p, uint64_t att, uint64_t def);
static proof defender_node(ttt_prover *p, uint64_t att, uint64_t def);

static proof defender_search(ttt_prover *p, uint64_t att, uint64_t def)
{
    const proof unknown = {RESULT_UNKNOWN, 0}, forced = {RESULT_FORCED, 0};
    if (budget_spent(p))
        return unknown;

    /* Step 1. A line of the defender's own ends the game (the attacker stones that could change that: the
     * cell, and one cell of each attacker window, which must not be full); two attacker threats win; nothing
     * left to the attacker or the bound: the defender holds. */
    tt_prefetch(p, att, def, false);
    scan_info si;
    scan(p, att, def, &si);
    if (si.def_threats) {
        uint64_t t = si.def_threats & -si.def_threats;
        return (proof){RESULT_HOLDS, t | si.hit};
    }
    if (popcount(si.threats) >= 2)
        return forced;
    if (si.nfree == 0)
        return (proof){RESULT_HOLDS, 0};
    if (si.es_defender)
        return (proof){RESULT_HOLDS, si.live};

    /* Step 2. The table, then a pairing strategy. */
    const tt_entry *e = tt_probe(p, att, def, false);
    if (e)
        return (proof){e->result, e->zone};
    const uint64_t nodes0 = p->nodes;
    uint64_t paired;
    if (!si.threats && pairing_find64(&p->pairs, att, def, &paired, NULL)) {
        proof r = {RESULT_HOLDS, paired};
        tt_store(p, att, def, false, r, 1);
        return r;
    }

    /* Step 3. The defender's moves: the threat's cell; else what stops every fork or makes a threat of its
     * own; else every live cell; the heaviest first. */
    const uint64_t empty = p->board & ~(att | def);
    uint64_t set = si.threats ? si.threats : si.forks ? (si.defence | si.def_fours) & empty : si.live;
    int moves[TTT_PROVER_MAX_CELLS];
    int n = order_cells(&si, set, moves);
    if (!p->full_width && n > DEFENDER_WIDTH)
        n = DEFENDER_WIDTH;
    /* Step 4. A move after which a pairing strategy holds ends the search at once (Z = the pairs + the
     * move: while it stays empty the defender plays it, and the pairs stay empty). */
    for (int i = 0; i < n && n > 1; i++)
        if (pairing_find64(&p->pairs, att, def | bit(moves[i]), &paired, NULL)) {
            proof r = {RESULT_HOLDS, paired | bit(moves[i])};
            tt_store(p, att, def, false, r, 1);
            return r;
        }

    /* Step 5. The moves in order. With few stones, where one move's proof can cost thousands of times
     * another's, first every move with a small budget, then with budgets WIDEN_STEP times larger, lastly
     * without one (a move shown to lose is not tried again). */
    proof r = forced;
    bool lost[TTT_PROVER_MAX_CELLS] = {false};
    if (n > 1 && popcount(att | def) <= WIDEN_MAX_STONES)
        for (uint64_t budget = WIDEN_FIRST; budget <= WIDEN_LAST; budget *= WIDEN_STEP)
            for (int i = 0; i < n; i++) {
                if (lost[i])
                    continue;
                const uint64_t outer = p->soft_limit, mine = p->nodes + budget;
                p->soft_limit = outer && outer < mine ? outer : mine;
                proof c = attacker_node(p, att, def | bit(moves[i]));
                p->soft_limit = outer;
                if (c.result == RESULT_UNKNOWN) {
                    if (p->stopped || (outer && p->nodes >= outer))
                        return unknown;
                    continue;
                }
                if (c.result == RESULT_HOLDS) {
                    r = (proof){RESULT_HOLDS, c.zone | bit(moves[i])};
                    goto done;
                }
                lost[i] = true;
            }
    for (int i = 0; i < n; i++) {
        if (lost[i])
            continue;
        proof c = attacker_node(p, att, def | bit(moves[i]));
        if (c.result == RESULT_UNKNOWN)
            return unknown;
        if (c.result == RESULT_HOLDS) {
            r = (proof){RESULT_HOLDS, c.zone | bit(moves[i])};
            break;
        }
    }
done:
    tt_store(p, att, def, false, r, p->nodes - nodes0);
    return r;
}

static proof attacker_search(ttt_prover *p, uint64_t att, uint64_t def)
{
    const proof unknown = {RESULT_UNKNOWN, 0}, forced = {RESULT_FORCED, 0};
    if (budget_spent(p))
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
    if (popcount(si.def_threats) >= 2)
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
    uint64_t paired;
    if (pairing_find64(&p->pairs, att, def, &paired, NULL)) {
        proof r = {RESULT_HOLDS, paired};
        tt_store(p, att, def, true, r, 1);
        return r;
    }

    /* Step 3. One threat of the defender must be blocked: the attacker's only move (its others let the
     * defender complete; stones outside the zone must not give the attacker a threat instead). */
    if (si.def_threats) {
        int t = __builtin_ctzll(si.def_threats);
        proof c = defender_node(p, att | bit(t), def);
        proof r = c.result == RESULT_HOLDS ? (proof){RESULT_HOLDS, c.zone | bit(t) | si.hit2} : c;
        if (r.result != RESULT_UNKNOWN)
            tt_store(p, att, def, true, r, p->nodes - nodes0);
        return r;
    }

    /* Step 4. The null move: the defender plays first. If the attacker wins even so, it does with the move.
     */
    proof null = defender_node(p, att, def);
    if (null.result != RESULT_HOLDS) {
        if (null.result == RESULT_FORCED)
            tt_store(p, att, def, true, forced, p->nodes - nodes0);
        return null;
    }

    /* Step 5. The attacker's moves inside the null move's zone (dead cells never matter), each orbit of the
     * position's symmetries once. */
    int syms[TTT_SYM_ALL], nsyms = 0;
    uint64_t zone = null.zone;
    if (popcount(att | def) <= SYM_MAX_STONES) {
        nsyms = stabilizer(p, att, def, syms);
        for (int i = 0; i < nsyms; i++)
            zone |= sym_mask(p, syms[i], null.zone);
    }
    int moves[TTT_PROVER_MAX_CELLS];
    uint64_t open = zone & si.live; /* the moves no proof covers yet */
    int n = order_cells(&si, open, moves);
    const bool top = p->depth <= p->top_depth;
    if (top) {
        p->top_depth = p->depth;
        p->top_total = n;
    }
    for (int i = 0; i < n; i++) {
        if (top && p->depth == p->top_depth)
            p->top_done = i;
        bool repeat = !(open & bit(moves[i]));
        for (int j = 0; j < nsyms && !repeat; j++)
            repeat = p->lines->sym[syms[j]][moves[i]] < moves[i];
        if (repeat)
            continue;
        proof c = defender_node(p, att | bit(moves[i]), def);
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
            uint64_t image = sym_mask(p, syms[j], c.zone);
            zone |= image;
            open &= image;
        }
    }
    proof r = {RESULT_HOLDS, zone};
    tt_store(p, att, def, true, r, p->nodes - nodes0);
    return r;
}

/* The node functions count the path's length around the searches above, for progress reports. */
static proof defender_node(ttt_prover *p, uint64_t att, uint64_t def)
{
    p->depth++;
    proof r = defender_search(p, att, def);
    p->depth--;
    return r;
}

static proof attacker_node(ttt_prover *p, uint64_t att, uint64_t def)
{
    p->depth++;
    proof r = attacker_search(p, att, def);
    if (p->depth == p->top_depth) /* the next attacker node with a choice takes the report */
        p->top_depth = INT_MAX;
    p->depth--;
    return r;
}

void ttt_prover_progress(const ttt_prover *p, int *done, int *total)
{
    *done = p->top_done;
    *total = p->top_total;
}

ttt_proof ttt_prover_run(ttt_prover *p, uint64_t att, uint64_t def, bool att_to_move, uint64_t node_limit,
                         ttt_prover_stop_fn stop, void *user, uint64_t *nodes)
{
    assert(!(att & def));
    assert(p->cells == 64 || !((att | def) >> p->cells));
    p->nodes = 0;
    p->node_limit = node_limit;
    p->stop_fn = stop;
    p->stop_user = user;
    p->stopped = false;
    p->soft_limit = 0;
    p->depth = 0;
    p->top_depth = INT_MAX;
    p->top_done = p->top_total = 0;
    proof r = att_to_move ? attacker_node(p, att, def) : defender_node(p, att, def);
    if (nodes)
        *nodes = p->nodes;
    p->zone = r.result == RESULT_HOLDS ? r.zone : 0;
    return r.result == RESULT_HOLDS    ? TTT_PROOF_HOLDS
           : r.result == RESULT_FORCED ? TTT_PROOF_FORCED
                                       : TTT_PROOF_UNKNOWN;
}
