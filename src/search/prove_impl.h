/*
 * search/prove_impl.h - what the prover's files share (internal): its state, its settings and the entry
 * points of its two kernels. prove.c holds the interface (search/prove.h) and the kernel over one 64-bit word
 * (boards of at most 64 cells), prove_wide.c the same kernel over a 128-bit word (at most 128 cells); both
 * compile search/prove_kernel.h. The interface picks the narrow one wherever it fits: the wide one costs more
 * per node (twice the table entry, two words per set operation).
 */
#ifndef TTT_SEARCH_PROVE_IMPL_H
#define TTT_SEARCH_PROVE_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/lines.h"
#include "search/pairing.h"
#include "search/prove.h"

/* Moves equivalent under the position's symmetries are searched once at attacker nodes with at most this many
 * stones (the orbit computation costs more than it saves once positions are rarely symmetric). */
#define SYM_MAX_STONES 6
/* The defender tries at most this many moves at a node unless full_width (the rest are left unproven). */
#define DEFENDER_WIDTH 64
/* Move ordering weight of a window through a cell, by the attacker's stones in it: 2^(WEIGHT_SHIFT * stones).
 */
#define WEIGHT_SHIFT 2
/* ... and of a window of the defender's own (free of attacker stones) that needs at most DEF_ORDER_NEED more
 * stones, DEF_ORDER_NUM * 2^(WEIGHT_SHIFT * stones), at both sides' nodes: the defender's moves that build
 * threats of its own (which the attacker must answer) come earlier, as do the attacker's that block them.
 * bench/solver/prove8.sh 1,852,980 nodes against 10,473,935 (4.2 CPU s against 17.4), 7x7k5 the same; every
 * window from one stone: 3.2M, and 7x7k5 1.57M against 0.70M; the defender's nodes alone: 1.94M;
 * DEF_ORDER_NUM 1, 4, 8: 2.04M, 2.03M, 2.03M (the defender's nodes alone). By need, not by stones: 9x9k6 after
 * e5 39.9M nodes, 96 CPU s as before (two stones, need 4: 40.9M, 130 s). */
#define DEF_ORDER_NEED 3
#define DEF_ORDER_NUM  UINT64_C(2)
/* Defender nodes with a choice try every move with WIDEN_FIRST nodes, then budgets WIDEN_STEP times larger up
 * to WIDEN_LAST, before the plain search (X cannot win 7x7k5: 0.82M nodes, 7.44M without). Every such node,
 * not only those with at most 8 stones: bench/solver/prove8.sh 21.1M nodes against 123.2M, 7x7k5 the same,
 * 8x8k5 with 10 stones 122k against 24.6M (64/4 in place of 128/8: 3.6M nodes against 2.8M without the
 * costliest position; 256/16: 6.1M). */
#define WIDEN_FIRST 128
#define WIDEN_STEP  8
#define WIDEN_LAST  (512 * 1024)
/* Attacker nodes with fewer stones search every move without the null move first (prove_kernel.h, step 4):
 * 7x7k5 --value 762,487 nodes against 821,027 (1: 769,160; 3: 818,951; 5: 818,796); 6x8k5 565,954 against
 * 565,983. At the root of a proof from the empty board the live line then counts the first moves settled. */
#define NULL_MIN_STONES 2
#define TT_BUCKET       2
/* The deepest defender node whose killer is kept (a path fills every cell, a null move between two). */
#define KILLER_DEPTHS (2 * TTT_PROVER_MAX_CELLS + 2)
#define KILLER_NONE   0xFF

enum { RESULT_UNKNOWN = 0, RESULT_HOLDS = 1, RESULT_FORCED = 2 };

struct ttt_prover {
    const ttt_lines *lines; /* the board's windows, lines and symmetries (rules/lines.h), shared */
    int cells, k;
    bool full_width;
    bool wide;               /* the 128-bit kernel (more than 64 cells, or asked for) */
    uint64_t board64;        /* every cell, for the narrow kernel */
    pairing_set128 board128; /* ... for the wide one */
    union {
        pairing_lines64 narrow;
        pairing_lines128 wide;
    } pairs;  /* the windows as the pairing kernel of the prover's width reads them */
    void *tt; /* the kernel's entries */
    size_t tt_mask;
    size_t tt_used;  /* entries in use (tt_store counts the free slots it takes) */
    bool tt_recount; /* handed out by ttt_prover_table: tt_used is counted anew at the next run */
    /* The run under way. */
    uint64_t nodes, node_limit;
    uint64_t
        soft_limit; /* nonzero: at this many nodes the search unwinds (unknown) without stopping the run */
    ttt_prover_stop_fn stop_fn;
    void *stop_user;
    bool stopped;
    ttt_bits zone; /* of the last run's answer when it held */
    /* Progress (ttt_prover_progress): the nodes on the path from the run's root, and at the shallowest
     * attacker node with a choice on it (top_depth) the moves settled so far of those it has. */
    int depth, top_depth, top_done, top_total;
    int16_t path[TTT_PROVER_PATH_MAX]; /* path[i]: the move into the node at depth i + 2 (ttt_prover_path) */
    /* Set by a node just before it searches a child whose position it has found no pairing strategy for
     * (the same stones), and cleared by the child as it starts: the child does not look again. */
    bool unpaired;
    /* By the depth of a defender node, the cell of the last defender move that held at that depth in this
     * run (KILLER_NONE): a sibling's or cousin's answer often holds again, and is tried second. */
    uint8_t killer[KILLER_DEPTHS];
};

/* Counts a node; true when the search must unwind: the run is stopped (node limit, stop function) or the
 * soft limit is reached. */
static inline bool prove_budget_spent(ttt_prover *p)
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

/* A kernel's run from a position whose run fields are set (RESULT_*; *zone: the zone when it holds, else 0),
 * what its table holds for a position (RESULT_*), the size of its table's entries, whether an entry is in
 * use and cost at least min_nodes nodes, whether it is in use and proves that the defender holds, and how
 * many entries are in use (a scan of the table). */
int prove_run64(ttt_prover *p, uint64_t att, uint64_t def, bool att_to_move, uint64_t *zone);
int prove_known64(const ttt_prover *p, uint64_t att, uint64_t def, bool att_to_move);
size_t prove_entry_size64(void);
bool prove_entry_worth64(const ttt_prover *p, size_t slot, uint64_t min_nodes);
bool prove_entry_holds64(const ttt_prover *p, size_t slot);
size_t prove_entries_used64(const ttt_prover *p);
int prove_run128(ttt_prover *p, pairing_set128 att, pairing_set128 def, bool att_to_move,
                 pairing_set128 *zone);
int prove_known128(const ttt_prover *p, pairing_set128 att, pairing_set128 def, bool att_to_move);
size_t prove_entry_size128(void);
bool prove_entry_worth128(const ttt_prover *p, size_t slot, uint64_t min_nodes);
bool prove_entry_holds128(const ttt_prover *p, size_t slot);
size_t prove_entries_used128(const ttt_prover *p);

#endif
