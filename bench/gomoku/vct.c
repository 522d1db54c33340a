/*
 * bench/gomoku/vct.c - the root threat searches on positions read from stdin, one a line: a count (ignored)
 * then the cells played from the empty 15x15 board (X first); the side to move is searched. Prints, for the
 * windows' VCF and VCT (search/threats.h, the engine's tvct=0) and the patterns' VCT (search/patterns.h,
 * tvct=1) at each budget, how many positions each found a win in, their nodes and CPU time.
 *
 * usage: vct THREES BUDGET [BUDGET...] < positions (see vct.sh)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "search/patterns.h"
#include "search/threats.h"
#include "ttt/ttt.h"

#define MAX_POSITIONS 1000
#define MAX_BUDGETS   4
#define VCT_ENTRIES   (1 << 20)

static double cpu_ms(void) { return 1000.0 * (double)clock() / CLOCKS_PER_SEC; }

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 2 + MAX_BUDGETS) {
        fprintf(stderr, "usage: vct THREES BUDGET [BUDGET...] < positions\n");
        return 2;
    }
    int threes = atoi(argv[1]), nb = argc - 2;
    ttt_rules r;
    ttt_error err;
    const ttt_lines *lines;
    if (ttt_rules_parse("15x15k5", &r, &err) || ttt_lines_new(&r, &lines, &err)) {
        fprintf(stderr, "vct: %s\n", err.msg);
        return 1;
    }
    static ttt_threats t;
    static ttt_patterns p;
    ttt_threats_init(&t, lines);
    ttt_patterns_init(&p, lines);
    ttt_patterns_reserve(&p); /* as the engine has it; without, undo classifies again */
    ttt_vct v = {.entries = VCT_ENTRIES, .table = calloc(VCT_ENTRIES, sizeof(ttt_vct_entry))};
    static ttt_board boards[MAX_POSITIONS];
    int n = 0;
    char line[8192];
    while (n < MAX_POSITIONS && fgets(line, sizeof line, stdin)) {
        ttt_board_init(&boards[n], &r);
        char *at = line, *end;
        strtol(at, &end, 10); /* the count */
        for (at = end;; at = end) {
            long cell = strtol(at, &end, 10);
            if (end == at)
                break;
            ttt_board_play(&boards[n], (int)cell);
        }
        n++;
    }
    for (int b = 0; b < nb; b++) {
        uint64_t budget = strtoull(argv[2 + b], NULL, 10);
        int found[3] = {0};
        uint64_t nodes[3] = {0};
        double ms[3] = {0};
        for (int i = 0; i < n; i++) {
            ttt_player me = ttt_board_to_move(&boards[i]);
            int seq[TTT_MAX_CELLS], length, first;
            ttt_threats_set(&t, &boards[i]);
            ttt_threats_clear(&t);
            uint64_t before = t.nodes;
            double t0 = cpu_ms();
            bool win = ttt_threats_vcf(&t, me, budget, seq, &length) == TTT_THREATS_WIN;
            found[0] += win;
            nodes[0] += t.nodes - before;
            double t1 = cpu_ms();
            ms[0] += t1 - t0;
            before = t.nodes;
            win = win || ttt_threats_vct(&t, me, threes, budget, &first) == TTT_THREATS_WIN;
            found[1] += win;
            nodes[1] += t.nodes - before;
            double t2 = cpu_ms();
            ms[1] += t2 - t1;
            ttt_patterns_set(&p, &boards[i]);
            memset(v.table, 0, VCT_ENTRIES * sizeof *v.table);
            v.budget = budget;
            t1 = cpu_ms();
            bool pwin = ttt_patterns_vct(&p, &v, me, threes, &first) == TTT_VCT_WIN;
            found[2] += pwin;
            if (pwin && !win && getenv("VCT_ONLY")) { /* the positions only the patterns' search solved */
                char text[TTT_MAX_CELLS * 2];
                fprintf(stderr, "%s\n", ttt_position_format(&boards[i], text, sizeof text));
            }
            nodes[2] += v.nodes;
            ms[2] += cpu_ms() - t1;
        }
        const char *name[3] = {"windows VCF", "windows VCF+VCT", "patterns VCT"};
        for (int k = 0; k < 3; k++)
            printf(
                "budget %8llu threes %d  %-16s wins %3d of %d  nodes %10llu  CPU %8.0f ms  %8.0f nodes/s\n",
                (unsigned long long)budget, threes, name[k], found[k], n, (unsigned long long)nodes[k], ms[k],
                ms[k] > 0 ? 1000.0 * (double)nodes[k] / ms[k] : 0.0);
    }
    free(v.table);
    ttt_threats_done(&t);
    ttt_patterns_done(&p);
    ttt_lines_unref(lines);
    return 0;
}
