/* dist/dist_mpi.h - what the MPI parts of the dist module share: starting and ending MPI. */
#ifndef TTT_DIST_DIST_MPI_H
#define TTT_DIST_DIST_MPI_H

#include "ttt/common.h"

/* Initialises MPI (once per process) with errors returned rather than fatal, and gives this process's rank
 * and the number of ranks. TTT_EIO when MPI cannot start. */
ttt_status dist_mpi_begin(int *rank, int *size, ttt_error *err);

/* Finalises MPI (after dist_mpi_begin succeeded), unless a rank was lost: MPI_Finalize waits for every rank,
 * a dead one too, so the process then leaves MPI as it is (Open MPI's recovery mode lets it exit). */
void dist_mpi_end(bool rank_lost);

#endif
