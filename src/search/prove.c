/*
 * search/prove.c - proofs that a side cannot win, with relevance zones and pairing strategies (see prove.h).
 *
 * A position is two sets of cells (the attacker's and the defender's stones) and who is to move: one 64-bit
 * word each on boards of at most 64 cells, one 128-bit word each on boards of at most 128 (the same search,
 * search/prove_kernel.h, compiled for each width; this file holds the interface and the narrow kernel,
 * prove_wide.c the wide one). Two mutually recursive searches:
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
#include <stdlib.h>
#include <string.h>

#include "search/prove_impl.h"
#include "util/error.h"

#define PROVE_BITS 64
#include "search/prove_kernel.h"

#define MIB (1024u * 1024u)
/* ttt_prover_clear takes tables of at least this many bytes afresh rather than writing zeros over them. */
#define CLEAR_FRESH_BYTES (64u * MIB)
/* The narrow kernel's most cells: one uint64_t per set. */
#define NARROW_CELLS 64

bool ttt_prover_supports(const ttt_rules *rules)
{
    return ttt_rules_line_wins(rules) && rules->rows * rules->cols <= TTT_PROVER_MAX_CELLS && rules->k >= 2;
}

static ttt_status prover_make(const ttt_lines *lines, int tt_mib, bool full_width, bool wide,
                              ttt_prover **out, ttt_error *err)
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
    p->wide = wide || lines->cells > NARROW_CELLS;
    p->board64 = lines->all.w[0];
    p->board128 = pairing_of_bits128(&lines->all);
    const size_t entry = p->wide ? prove_entry_size128() : prove_entry_size64();
    size_t entries = TT_BUCKET;
    size_t want = (size_t)(tt_mib < 1 ? 1 : tt_mib) * MIB / entry;
    while (entries * 2 <= want)
        entries *= 2;
    p->tt = calloc(entries, entry);
    if (!p->tt) {
        free(p);
        return ttt_fail(err, TTT_ENOMEM, "prover: out of memory for a %d MiB table", tt_mib);
    }
    p->tt_mask = entries - 1;
    p->lines = ttt_lines_ref(lines);
    if (p->wide)
        pairing_lines128_init(&p->pairs.wide, lines);
    else
        pairing_lines64_init(&p->pairs.narrow, lines);
    *out = p;
    return TTT_OK;
}

ttt_status ttt_prover_new_lines(const ttt_lines *lines, int tt_mib, bool full_width, ttt_prover **out,
                                ttt_error *err)
{
    return prover_make(lines, tt_mib, full_width, false, out, err);
}

ttt_status ttt_prover_new_wide(const ttt_lines *lines, int tt_mib, bool full_width, ttt_prover **out,
                               ttt_error *err)
{
    return prover_make(lines, tt_mib, full_width, true, out, err);
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

void *ttt_prover_table(ttt_prover *p, size_t *slots, size_t *entry_bytes)
{
    *slots = p->tt_mask + 1;
    *entry_bytes = p->wide ? prove_entry_size128() : prove_entry_size64();
    p->tt_recount = true; /* the caller may write entries into it */
    return p->tt;
}

bool ttt_prover_table_worth(const ttt_prover *p, size_t slot)
{
    assert(slot <= p->tt_mask);
    return p->wide ? prove_entry_worth128(p, slot, TTT_PROVER_SAVE_MIN_NODES)
                   : prove_entry_worth64(p, slot, TTT_PROVER_SAVE_MIN_NODES);
}

void ttt_prover_clear(ttt_prover *p)
{
    const size_t entry = p->wide ? prove_entry_size128() : prove_entry_size64(), n = p->tt_mask + 1;
    /* A large table is taken afresh: calloc's new pages are zero without being written, so that a solver
     * cleared between games pays for the entries it uses, not for the table's size. */
    void *fresh = n * entry >= CLEAR_FRESH_BYTES ? calloc(n, entry) : NULL;
    if (fresh) {
        free(p->tt);
        p->tt = fresh;
    } else {
        memset(p->tt, 0, n * entry);
    }
    p->tt_used = 0;
    p->tt_recount = false;
}

bool ttt_prover_table_full(const ttt_prover *p)
{
    const size_t slots = p->tt_mask + 1;
    return p->tt_used >= slots - slots / TTT_PROVER_FULL_FREE;
}

/* The entries in use, counted anew after the table was handed out: a checkpoint read back writes entries
 * into it that tt_store did not count. */
static void table_recount(ttt_prover *p)
{
    if (!p->tt_recount)
        return;
    p->tt_used = p->wide ? prove_entries_used128(p) : prove_entries_used64(p);
    p->tt_recount = false;
}

uint64_t ttt_prover_zone(const ttt_prover *p)
{
    assert(p->cells <= NARROW_CELLS);
    return p->zone.w[0];
}

void ttt_prover_zone_bits(const ttt_prover *p, ttt_bits *zone) { *zone = p->zone; }

void ttt_prover_progress(const ttt_prover *p, int *done, int *total)
{
    *done = p->top_done;
    *total = p->top_total;
}

int ttt_prover_path(const ttt_prover *p, int *cells)
{
    const int n = p->depth > 1 ? p->depth - 1 : 0;
    for (int i = 0; i < n; i++)
        cells[i] = p->path[i];
    return n;
}

uint64_t ttt_prover_proven(const ttt_prover *p)
{
    uint64_t n = 0;
    for (size_t slot = 0; slot <= p->tt_mask; slot++)
        n += p->wide ? prove_entry_holds128(p, slot) : prove_entry_holds64(p, slot);
    return n;
}

static ttt_proof proof_of(int result)
{
    return result == RESULT_HOLDS    ? TTT_PROOF_HOLDS
           : result == RESULT_FORCED ? TTT_PROOF_FORCED
                                     : TTT_PROOF_UNKNOWN;
}

/* A set of the first 64 cells as a ttt_bits. */
static ttt_bits bits_of(uint64_t set)
{
    ttt_bits b = {{0}};
    b.w[0] = set;
    return b;
}

ttt_proof ttt_prover_run_bits(ttt_prover *p, const ttt_bits *att, const ttt_bits *def, bool att_to_move,
                              uint64_t node_limit, ttt_prover_stop_fn stop, void *user, uint64_t *nodes)
{
    for (int i = 0; i < TTT_WORDS; i++)
        assert(!(att->w[i] & def->w[i]) && !((att->w[i] | def->w[i]) & ~p->lines->all.w[i]));
    table_recount(p);
    p->nodes = 0;
    p->node_limit = node_limit;
    p->stop_fn = stop;
    p->stop_user = user;
    p->stopped = false;
    p->soft_limit = 0;
    p->unpaired = false;
    p->depth = 0;
    p->top_depth = INT_MAX;
    p->top_done = p->top_total = 0;
    int r;
    if (p->wide) {
        pairing_set128 zone;
        r = prove_run128(p, pairing_of_bits128(att), pairing_of_bits128(def), att_to_move, &zone);
        pairing_to_bits128(zone, &p->zone);
    } else {
        uint64_t zone;
        r = prove_run64(p, att->w[0], def->w[0], att_to_move, &zone);
        p->zone = bits_of(zone);
    }
    if (nodes)
        *nodes = p->nodes;
    return proof_of(r);
}

ttt_proof ttt_prover_run(ttt_prover *p, uint64_t att, uint64_t def, bool att_to_move, uint64_t node_limit,
                         ttt_prover_stop_fn stop, void *user, uint64_t *nodes)
{
    assert(p->cells <= NARROW_CELLS);
    const ttt_bits a = bits_of(att), d = bits_of(def);
    return ttt_prover_run_bits(p, &a, &d, att_to_move, node_limit, stop, user, nodes);
}

ttt_proof ttt_prover_known_bits(const ttt_prover *p, const ttt_bits *att, const ttt_bits *def,
                                bool att_to_move)
{
    int r = p->wide ? prove_known128(p, pairing_of_bits128(att), pairing_of_bits128(def), att_to_move)
                    : prove_known64(p, att->w[0], def->w[0], att_to_move);
    return r == RESULT_HOLDS ? TTT_PROOF_HOLDS : TTT_PROOF_UNKNOWN;
}

ttt_proof ttt_prover_known(const ttt_prover *p, uint64_t att, uint64_t def, bool att_to_move)
{
    assert(p->cells <= NARROW_CELLS);
    const ttt_bits a = bits_of(att), d = bits_of(def);
    return ttt_prover_known_bits(p, &a, &d, att_to_move);
}
