/* dist/dist_arena.c - ttt_arena_run over MPI ranks: games dealt out by number, records summed on rank 0. */
#include <mpi.h>
#include <stdlib.h>

#include "dist/dist.h"
#include "dist/dist_mpi.h"
#include "util/error.h"

/* One pair's record as the words MPI sums: total, a as X, a as O (wins, losses, draws each), the forfeits. */
enum { PAIR_WORDS = 11 };

static void tally(uint64_t *w, ttt_outcome o, bool a_is_x)
{
    int r = o == TTT_DRAW ? 2 : (o == TTT_X_WINS) == a_is_x ? 0 : 1;
    w[r]++;
    w[(a_is_x ? 3 : 6) + r]++;
}

ttt_status dist_arena_run(const ttt_rules *rules, const ttt_arena_options *opt, ttt_arena_pair *pairs,
                          bool *root, ttt_error *err)
{
    int rank, size;
    ttt_status st = dist_mpi_begin(&rank, &size, err);
    if (st)
        return st;
    *root = rank == 0;
    int npairs = ttt_arena_pair_count(opt->nspecs, opt->gauntlet);
    uint64_t total = (uint64_t)npairs * opt->games;
    uint64_t *mine = calloc((size_t)npairs * PAIR_WORDS, sizeof *mine);
    uint64_t *sum = calloc((size_t)npairs * PAIR_WORDS, sizeof *sum);
    ttt_arena_game *game = malloc(sizeof *game);
    int failed = !mine || !sum || !game;
    if (failed)
        st = ttt_fail(err, TTT_ENOMEM, "out of memory");
    /* Every rank checks every spec, as ttt_arena_run does before any game: a bad one fails them all alike, and
     * rank 0 has the message. */
    for (int k = 0; !failed && k < opt->nspecs; k++) {
        ttt_engine *e;
        st = ttt_engine_new(opt->specs[k], rules, &e, err);
        if (st)
            failed = 1;
        else
            ttt_engine_free(e);
    }
    /* Game g is pair g / games, number g % games in it, as ttt_arena_run numbers them: its seed, colours and
     * opening (every rank made the same book from the same options) are the same whichever rank plays it. */
    for (uint64_t g = (uint64_t)rank; !failed && g < total; g += (uint64_t)size) {
        if (opt->stop && opt->stop(opt->user))
            break;
        int pair;
        bool a_is_x;
        st = ttt_arena_play_nth(rules, opt, g, &pair, &a_is_x, game, err);
        if (st) {
            failed = 1;
            break;
        }
        uint64_t *w = mine + (size_t)pair * PAIR_WORDS;
        tally(w, game->outcome, a_is_x);
        if (game->forfeit != TTT_NOBODY) {
            w[(game->forfeit == TTT_X) == a_is_x ? 9 : 10]++;
            if (opt->forfeit)
                opt->forfeit(pair, g % opt->games, game->reason, opt->user);
        }
    }
    /* Every rank learns whether any failed before the sums, so that all of them call MPI_Reduce or none
     * does; rank 0 keeps its own message, or says another rank failed. */
    int any_failed = 1;
    if (MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS) {
        if (!st)
            st = ttt_fail(err, TTT_EIO, "MPI failed to gather the ranks' states");
    } else if (any_failed) {
        if (!st)
            st = ttt_fail(err, TTT_EIO, "another rank failed (its message is on its stderr)");
    } else if (MPI_Reduce(mine, sum, npairs * PAIR_WORDS, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD) !=
               MPI_SUCCESS)
        st = ttt_fail(err, TTT_EIO, "MPI failed to sum the records");
    if (!st && rank == 0)
        for (int p = 0; p < npairs; p++) {
            const uint64_t *w = sum + (size_t)p * PAIR_WORDS;
            ttt_arena_pair *pr = &pairs[p];
            *pr = (ttt_arena_pair){.total = {w[0], w[1], w[2]},
                                   .a_as_x = {w[3], w[4], w[5]},
                                   .a_as_o = {w[6], w[7], w[8]},
                                   .a_forfeits = w[9],
                                   .b_forfeits = w[10]};
            ttt_arena_pair_at(opt->nspecs, opt->gauntlet, p, &pr->a, &pr->b);
        }
    free(mine);
    free(sum);
    free(game);
    dist_mpi_end(false);
    return st;
}
