/*
 * bench/gomoku/patterns.c - microbenchmark of the incremental line patterns (src/search/patterns.c) against
 * what the gomoku engine did before them (the threats module's window counts, then every empty cell within
 * reach of the move rescored through ttt_threats_shape for both sides).
 *
 * Random walks on one board: a move, and one time in three an undo of the last one, for a fixed number of
 * steps from a fixed seed. Prints steps a CPU second and, for the patterns, (cell, direction) pairs classified a
 * second. Built and run by patterns.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "search/patterns.h"
#include "search/threats.h"
#include "ttt/ttt.h"

#define STEPS      500000
#define MAX_STONES 60
#define BENCH_SEED 31

typedef struct walk {
    int moves[TTT_MAX_CELLS], n;
    ttt_rng rng;
} walk;

/* Milliseconds of this process's CPU time: the machine is shared, so wall-clock rates would measure the load. */
static double cpu_ms(void) { return (double)clock() * 1000.0 / CLOCKS_PER_SEC; }

/* The next step of the walk on a board whose occupancy is `at`: +cell to play, -1-cell to undo. */
static int next_step(walk *w, const uint8_t *at, int cells)
{
    if (w->n > 0 && (w->n >= MAX_STONES || ttt_rng_below(&w->rng, 3) == 0))
        return -1 - w->moves[--w->n];
    int c;
    do
        c = (int)ttt_rng_below(&w->rng, (uint32_t)cells);
    while (at[c] != TTT_NOBODY);
    w->moves[w->n++] = c;
    return c;
}

static double run_patterns(const ttt_lines *l, uint64_t *classified)
{
    ttt_patterns *p = malloc(sizeof *p);
    ttt_patterns_init(p, l);
    ttt_patterns_reserve(p); /* as the engine has it; without, undo classifies again */
    walk w = {.n = 0};
    ttt_rng_seed(&w.rng, BENCH_SEED);
    uint64_t before = p->updates;
    double start = cpu_ms();
    for (int i = 0; i < STEPS; i++) {
        int s = next_step(&w, p->at, l->cells);
        if (s >= 0)
            ttt_patterns_play(p, s, (ttt_player)((w.n - 1) & 1));
        else
            ttt_patterns_undo(p, -1 - s, (ttt_player)(w.n & 1));
    }
    double ms = cpu_ms() - start;
    *classified = p->updates - before;
    ttt_patterns_done(p);
    free(p);
    return ms;
}

/* The old way: window counts, then the shapes of the empty cells of the windows through the move. */
static double run_shapes(const ttt_lines *l, uint64_t *scored)
{
    ttt_threats *t = malloc(sizeof *t);
    ttt_threats_init(t, l);
    walk w = {.n = 0};
    ttt_rng_seed(&w.rng, BENCH_SEED);
    ttt_shape sh;
    uint64_t sum = 0, n = 0;
    double start = cpu_ms();
    for (int i = 0; i < STEPS; i++) {
        int s = next_step(&w, t->at, l->cells), cell = s >= 0 ? s : -1 - s, nwin;
        if (s >= 0)
            ttt_threats_play(t, cell, (ttt_player)((w.n - 1) & 1));
        else
            ttt_threats_undo(t, cell, (ttt_player)(w.n & 1));
        const int16_t *through = ttt_lines_through(l, cell, &nwin);
        for (int j = 0; j < nwin; j++) {
            const int16_t *cells = ttt_lines_cells(l, through[j]);
            for (int m = 0; m < l->k; m++)
                if (t->at[cells[m]] == TTT_NOBODY)
                    for (int side = 0; side < 2; side++) {
                        ttt_threats_shape(t, cells[m], (ttt_player)side, &sh);
                        sum += sh.kinds[TTT_SHAPE_FOUR];
                        n++;
                    }
        }
    }
    double ms = cpu_ms() - start;
    *scored = n + (sum & 0); /* sum keeps the shapes from being optimised away */
    if (sum == UINT64_MAX)
        puts("");
    ttt_threats_done(t);
    free(t);
    return ms;
}

int main(int argc, char **argv)
{
    const char *text = argc > 1 ? argv[1] : "15x15k5";
    ttt_rules r;
    ttt_error err;
    const ttt_lines *l;
    if (ttt_rules_parse(text, &r, &err) || ttt_lines_new(&r, &l, &err)) {
        fprintf(stderr, "patterns: %s\n", err.msg);
        return 2;
    }
    uint64_t classified, scored;
    double ms = run_patterns(l, &classified);
    printf("%s patterns: %d steps in %.1f CPU ms: %.0f steps/CPU s, %.0f (cell, direction) pairs "
           "classified/CPU s\n",
           text, STEPS, ms, STEPS / ms * 1000, (double)classified / ms * 1000);
    ms = run_shapes(l, &scored);
    printf(
        "%s window counts + shapes (before): %d steps in %.1f CPU ms: %.0f steps/CPU s (%.0f shapes/CPU s)\n",
        text, STEPS, ms, STEPS / ms * 1000, (double)scored / ms * 1000);
    ttt_lines_unref(l);
    return 0;
}
