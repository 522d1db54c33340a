/*
 * search/solve_resume.h - what the solver settles at the root of its search, kept so that a long search can
 * be saved (ttt_solver_save) and continued after a restart (ttt_solver_load) (internal).
 *
 * A record describes one root, the position last searched: the draw prover's answers about it (the position
 * itself, each first move) and the exact score of each first move valued to the end. The searches write it as
 * they go; they read it only after ttt_solver_load gave it for that root, so that a solver that was never
 * loaded searches exactly as before (the bench signature). A search of another position starts a new record.
 *
 * Cells and stone sets are the solver's inner ones (solve_impl.h: the board turned sideways when it has more
 * rows than columns), which the same rules always turn the same way.
 */
#ifndef TTT_SEARCH_SOLVE_RESUME_H
#define TTT_SEARCH_SOLVE_RESUME_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ttt/board.h"

/* The prover's answers at the root: one about each side for the position, one per first move and side. */
#define RESUME_MAX_PROOFS (2 * TTT_MAX_CELLS + 4)

/* The words of a prover answer's stone sets in a checkpoint: the prover works on at most 128 cells. */
#define RESUME_PROOF_WORDS 2

typedef struct resume_proof {
    ttt_bits attacker, defender; /* the question asked: inner stone sets */
    bool attacker_to_move;
    bool holds; /* the answer (false: not proven, the prover's budget included) */
} resume_proof;

typedef struct solve_resume {
    ttt_bits root[2]; /* the root's stones (the caller's cells) */
    bool started;     /* a search has set root */
    bool use;         /* loaded from a checkpoint of this root: searches take their answers from here */
    int nproofs;
    resume_proof proofs[RESUME_MAX_PROOFS];
    uint64_t prove_used; /* prover nodes the answers cost: the rest of its budget is what remains */
    /* First moves (inner cells) valued exactly: score[c] is meaningful once settled[c] is set (release after
     * the score), which a helper thread of a parallel root may do while the main thread saves. */
    atomic_bool settled[TTT_MAX_CELLS];
    int16_t score[TTT_MAX_CELLS];
    atomic_int nsettled;
    /* The order the first moves were searched in (inner cells), kept so that a search resumed takes them as
     * the first one did: an order made with the history loaded starts elsewhere (6x5k4 stopped after 0.3M
     * nodes: 6.0M nodes to resume, against 3.6M for the whole search). */
    int norder;
    int16_t order[TTT_MAX_CELLS];
} solve_resume;

/* At the start of a search of b: keeps the record when it was loaded for b, else starts one for b. */
void resume_root(solve_resume *r, const ttt_board *b);

/* The root moves (inner cells, n of them, as the search ordered them): the order the record holds, when it
 * holds one to use for as many moves; else they are recorded as they are. */
void resume_order(solve_resume *r, int *cells, int n);

/* The prover's answer to a question at the root, when the record holds one to use (true: *holds is it). */
bool resume_proof_known(const solve_resume *r, const ttt_bits *attacker, const ttt_bits *defender,
                        bool attacker_to_move, bool *holds);
/* Records an answer the prover gave at the root after `used` nodes. */
void resume_proof_add(solve_resume *r, const ttt_bits *attacker, const ttt_bits *defender,
                      bool attacker_to_move, bool holds, uint64_t used);

/* A first move's exact score, when the record holds one to use (true: *score is it). Thread-safe. */
bool resume_move_known(const solve_resume *r, int cell, int *score);
/* Records a first move's exact score (any thread; each cell by one thread). */
void resume_move_add(solve_resume *r, int cell, int score);

#endif
