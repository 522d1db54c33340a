/* dist/dist_mpi.c - starting and ending MPI for the dist module. */
#include <mpi.h>

#include "dist/dist_mpi.h"
#include "util/error.h"

ttt_status dist_mpi_begin(int *rank, int *size, ttt_error *err)
{
    int started = 0;
    MPI_Initialized(&started);
    if (!started && MPI_Init(NULL, NULL) != MPI_SUCCESS)
        return ttt_fail(err, TTT_EIO, "MPI could not start");
    /* A failed call returns its code to the caller, who reports it, instead of aborting every rank. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    return TTT_OK;
}

void dist_mpi_end(bool rank_lost)
{
    int finished = 0;
    MPI_Finalized(&finished);
    if (!finished && !rank_lost)
        MPI_Finalize();
}
