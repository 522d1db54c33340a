/* dist/dist_mpi.h - what the MPI parts of the dist module share: starting and ending MPI. */
#ifndef TTT_DIST_DIST_MPI_H
#define TTT_DIST_DIST_MPI_H

#include "ttt/common.h"

/* Initialises MPI (once per process) with errors returned rather than fatal, and gives this process's rank
 * and the number of ranks. TTT_EIO when MPI cannot start. */
ttt_status dist_mpi_begin(int *rank, int *size, ttt_error *err);

/* Finalises MPI (after dist_mpi_begin succeeded). */
void dist_mpi_end(void);

#endif
