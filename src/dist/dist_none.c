/* dist/dist_none.c - the dist module of a build without MPI: --mpi says so. */
#include "dist/dist.h"
#include "util/error.h"

#define DIST_NONE_MESSAGE "this ttt was built without MPI"

ttt_status dist_solve(const ttt_board *b, const dist_solve_options *opt, ttt_search_result *out,
                      dist_solve_stats *stats, bool *root, ttt_error *err)
{
    (void)b, (void)opt, (void)out, (void)stats;
    *root = true;
    return ttt_fail(err, TTT_EINVAL, DIST_NONE_MESSAGE);
}

ttt_status dist_arena_run(const ttt_rules *rules, const ttt_arena_options *opt, ttt_arena_pair *pairs,
                          bool *root, ttt_error *err)
{
    (void)rules, (void)opt, (void)pairs;
    *root = true;
    return ttt_fail(err, TTT_EINVAL, DIST_NONE_MESSAGE);
}
