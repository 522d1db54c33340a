/*
 * search/prove.h - proofs that a side cannot win: draws without searching the whole game tree.
 *
 * The prover answers one question: can the attacker complete a line before the defender completes one (or the
 * board fills)? When it cannot, the attacker cannot win; a draw is two such answers, one for each side.
 * "Holds" (the defender stops the attacker) is always a proof; "forced" (the attacker gets its line) is exact
 * only with full_width, and the solver uses no such answer.
 *
 * The search is a depth-first AND/OR search (the attacker's moves OR, the defender's AND) with, at every
 * node:
 *   - threats: a line now; two threats win; one must be blocked; a fork (two threats with one stone) wins
 *     unless the defender blocks it or makes a threat of its own; a threat of the defender's own, likewise;
 *   - the Erdos-Selfridge bound and pairing strategies (disjoint pairs of empty cells, a pair inside every
 *     window free of defender stones; windows of one line share a pair where they share two empty cells;
 *     found by a bipartite matching) as leaves where the defender holds, also one defender move ahead;
 *   - with few stones, the defender's moves first each with a small node budget, then larger ones;
 *   - relevance zones: a proof that the defender holds comes with the set of cells it depends on; extra
 *     attacker stones outside that set do not break it. Before the attacker's moves are searched the
 *     defender gets a free move (a null move); only the attacker's moves inside its proof's zone, and inside
 *     the zones of the moves searched since, need a search of their own;
 *   - an exact transposition table (the whole position is the key: no hash collisions).
 *
 * Boards of at most TTT_PROVER_MAX_CELLS cells, normal rules. Cells are row * cols + col. A position is two
 * sets of cells: ttt_bits in the interface (the first two words), uint64_t in the calls of the same names
 * without _bits, kept for boards of at most 64 cells. Inside, one 64-bit word per set up to 64 cells, one
 * 128-bit word above (search/prove_impl.h).
 */
#ifndef TTT_SEARCH_PROVE_H
#define TTT_SEARCH_PROVE_H

#include <stdbool.h>
#include <stdint.h>

#include "rules/lines.h"
#include "ttt/common.h"
#include "ttt/rules.h"

#define TTT_PROVER_MAX_CELLS 128

typedef struct ttt_prover ttt_prover;

typedef enum ttt_proof {
    TTT_PROOF_UNKNOWN = 0, /* the budget ran out (or stop asked) first */
    TTT_PROOF_HOLDS = 1,   /* proven: the attacker never completes a line first */
    TTT_PROOF_FORCED = 2,  /* the attacker completes one first (exact only with full_width; see above) */
} ttt_proof;

/* Asked every TTT_PROVER_CHECK_NODES nodes with the nodes searched so far by this run; true stops the run. */
typedef bool (*ttt_prover_stop_fn)(void *user, uint64_t nodes);
#define TTT_PROVER_CHECK_NODES 1024

/* Whether the prover handles the rules (normal rules, at most TTT_PROVER_MAX_CELLS cells, k >= 2). */
bool ttt_prover_supports(const ttt_rules *rules);

/* Makes a prover for the rules (ttt_prover_supports must hold) with a table of about tt_mib MiB (at least 1).
 * full_width: the defender tries every move (exact both ways); otherwise at most the most promising ones. */
ttt_status ttt_prover_new(const ttt_rules *rules, int tt_mib, bool full_width, ttt_prover **out,
                          ttt_error *err);
/* The same over a board geometry of such rules (rules/lines.h), of which the prover takes a reference. */
ttt_status ttt_prover_new_lines(const ttt_lines *lines, int tt_mib, bool full_width, ttt_prover **out,
                                ttt_error *err);
/* The same with the 128-bit kernel whatever the board's size (the tests compare the two kernels). */
ttt_status ttt_prover_new_wide(const ttt_lines *lines, int tt_mib, bool full_width, ttt_prover **out,
                               ttt_error *err);
void ttt_prover_free(ttt_prover *p);

/* Can the attacker (stones `attacker`) complete a line before the defender (stones `defender`, disjoint cell
 * sets of the rules' board, neither with a line), the attacker to move when attacker_to_move? node_limit (0:
 * none) and stop (may be NULL) bound the run; *nodes (may be NULL) receives the nodes it searched. The table
 * is kept between runs. */
ttt_proof ttt_prover_run_bits(ttt_prover *p, const ttt_bits *attacker, const ttt_bits *defender,
                              bool attacker_to_move, uint64_t node_limit, ttt_prover_stop_fn stop, void *user,
                              uint64_t *nodes);
/* The same on a board of at most 64 cells, a set of stones one word. */
ttt_proof ttt_prover_run(ttt_prover *p, uint64_t attacker, uint64_t defender, bool attacker_to_move,
                         uint64_t node_limit, ttt_prover_stop_fn stop, void *user, uint64_t *nodes);

/* After a run that answered TTT_PROOF_HOLDS: its relevance zone, a set of cells such that the answer stays
 * the same with attacker stones added on any empty cells outside it (0 after other answers). */
void ttt_prover_zone_bits(const ttt_prover *p, ttt_bits *zone);
/* The same on a board of at most 64 cells. */
uint64_t ttt_prover_zone(const ttt_prover *p);

/* During a run (from its stop function): at the shallowest attacker node with a choice on the path searched,
 * the attacker's moves settled so far (refuted, or covered by a relevance zone or a symmetry) of those it has;
 * 0 of 0 before the run reaches one. */
void ttt_prover_progress(const ttt_prover *p, int *done, int *total);
/* During a run (from its stop function): the path from the run's root to the node searched now, into cells
 * (at least TTT_PROVER_PATH_MAX entries): the attacker's and the defender's moves alternating from the side to
 * move at the root, TTT_PROVER_PASS for a null move (the defender moving twice). Returns its length, 0
 * outside a run. A null move adds no stone but the defender's reply does: a path has at most twice the cells. */
#define TTT_PROVER_PATH_MAX (2 * TTT_PROVER_MAX_CELLS + 2)
#define TTT_PROVER_PASS     (-1)
int ttt_prover_path(const ttt_prover *p, int *cells);

/* The positions the table holds proven (the defender holds): what the proofs so far have kept, for reports.
 * Reads the whole table: call it once, not per node. */
uint64_t ttt_prover_proven(const ttt_prover *p);

/* Whether the table is full: all but 1/TTT_PROVER_FULL_FREE of its slots in use (entries a checkpoint read
 * back into it counted from the next run on). Past that, most new answers take the place of others (a bucket
 * has two slots), and what those held is searched again when their positions come back: a larger table
 * saves that work. Stays true until ttt_prover_clear. */
#define TTT_PROVER_FULL_FREE 8
bool ttt_prover_table_full(const ttt_prover *p);

/* What the table holds for the position without searching: TTT_PROOF_HOLDS when a run proved that the
 * defender holds there, TTT_PROOF_UNKNOWN when it holds nothing (or an answer that is not a proof). */
ttt_proof ttt_prover_known_bits(const ttt_prover *p, const ttt_bits *attacker, const ttt_bits *defender,
                                bool attacker_to_move);
/* The same on a board of at most 64 cells. */
ttt_proof ttt_prover_known(const ttt_prover *p, uint64_t attacker, uint64_t defender, bool attacker_to_move);

/* Forgets the table. */
void ttt_prover_clear(ttt_prover *p);

/* The table as it lies in memory, for checkpoints (ttt_solver_save): *slots entries of *entry_bytes bytes, a
 * free one all zero. TTT_PROVER_TABLE_VERSION changes whenever their layout or meaning does, so that a file of
 * another build is not read into it. */
#define TTT_PROVER_TABLE_VERSION 1
void *ttt_prover_table(ttt_prover *p, size_t *slots, size_t *entry_bytes);
/* Whether the table's entry `slot` (< *slots above) is worth a checkpoint: in use, and its answer cost at
 * least TTT_PROVER_SAVE_MIN_NODES nodes. A search resumed without the others finds each again within that
 * many nodes, and only below answers not kept either: those of the searches left unfinished (an answer
 * kept ends the search under it). 8x8k5 after 3M nodes: 11% of the entries in use (7.5 MB against 67). */
#define TTT_PROVER_SAVE_MIN_NODES 8
bool ttt_prover_table_worth(const ttt_prover *p, size_t slot);

#endif
