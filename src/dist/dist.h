/*
 * dist/dist.h - `ttt solve --mpi` and `ttt arena --mpi`: the same results as one process, computed by the
 * ranks of an MPI job (mpirun -np N ttt ... --mpi). Linked into the command only: libttt knows nothing of MPI.
 *
 * Every rank runs the same command line, so every rank knows the rules, the position and the options; the
 * functions below are called on every rank, and only the rank for which *root is set has the result (the
 * others return TTT_OK with nothing to print). A build without MPI has these functions too (dist_none.c):
 * they fail with TTT_EINVAL and the message "this ttt was built without MPI". Like the library, nothing here
 * prints or exits; MPI is initialised and finalised inside each call (one call per process).
 */
#ifndef TTT_DIST_DIST_H
#define TTT_DIST_DIST_H

#include "ttt/arena.h"
#include "ttt/solve.h"

/* A job's node budget when the caller gives none: about 10 s of one core, enough for the empty 6x5k4 whole. */
#define DIST_JOB_NODES_DEFAULT UINT64_C(10000000)
/* A worker that has not answered its job in this long is taken for dead (its job is handed out again). */
#define DIST_SILENT_MS_DEFAULT 600000.0

typedef struct dist_solve_options {
    int tt_mib;              /* each worker's transposition table, at least 1 */
    uint64_t job_nodes;      /* a job's node budget (0: DIST_JOB_NODES_DEFAULT) */
    double silent_ms;        /* how long a job may take before its worker is given up (0: the default) */
    const char *checkpoint;  /* the master writes its tree there now and then and at the end; may be NULL */
    bool resume;             /* start from the tree in checkpoint (which must exist and match) */
    const char *certificate; /* the proof of the value goes there (ttt/certificate.h), assembled from pieces
                                the workers write; may be NULL */
} dist_solve_options;

/* What a distributed solve did, on the root rank. */
typedef struct dist_solve_stats {
    int ranks;            /* the master and its workers */
    uint64_t jobs;        /* jobs answered (including those the master ran itself when alone) */
    uint64_t jobs_proven; /* of which the worker proved the value */
    uint64_t resumed;     /* tree nodes read from the checkpoint */
    int lost;             /* workers given up as silent */
    int tree_nodes;       /* the master's tree at the end */
    int tree_depth;       /* its deepest node, in plies below the position */
    uint64_t busiest;     /* the nodes of the worker that searched most (the critical path on free cores) */
    uint64_t largest_job; /* the nodes of the largest job */
    uint64_t cert_nodes;  /* the certificate's nodes, when one was written */
    uint64_t cert_top;    /* of which the master wrote from its tree */
    int cert_pieces;      /* the pieces the workers wrote */
} dist_solve_stats;

/* Values every legal move of b (ongoing) exactly, as ttt_solver_search with all=true and no limits does, the
 * work shared out by rank 0 (the master: a job tree over the top plies, best-first) among ranks 1..N-1 (the
 * workers: the ordinary solver on one position within job_nodes). On the root rank *out receives the same
 * scores, order, best_count and depth as the one-process search (nodes: the workers' total; ms: the wall
 * clock) and *stats what was done. With opt->certificate, the proof of the value is written there once it is
 * solved (b at most TTT_CERT_MAX_CELLS cells): the master's tree gives its top, the workers write the proofs
 * under it. Errors: a checkpoint that cannot be read, written, or does not match b; a certificate that cannot
 * be written (none is left); out of memory; MPI failing. */
ttt_status dist_solve(const ttt_board *b, const dist_solve_options *opt, ttt_search_result *out,
                      dist_solve_stats *stats, bool *root, ttt_error *err);

/* ttt_arena_run over the ranks: rank r plays the games g with g mod N == r (each game from its own seed, as
 * ttt_arena_run plays it) and the records are summed on rank 0, so that pairs is the same as one process
 * gives at any N. opt->jobs is ignored (one game at a time per rank); opt->stop is asked between games;
 * opt->forfeit is called on the rank that played the game. */
ttt_status dist_arena_run(const ttt_rules *rules, const ttt_arena_options *opt, ttt_arena_pair *pairs,
                          bool *root, ttt_error *err);

#endif
