/*
 * bench/solver/prove8.c - runs the draw prover on the positions of a file and prints its nodes and CPU
 * seconds for each (bench/solver/prove8.sh builds and runs it). A line: "RULES | MOVES | ATTACKER", MOVES
 * "-" for the empty board, the attacker X or O (the side whose lines are in question; the defender the
 * other; the side to move that of the moves). Prints "holds", "forced" or "unknown" (the node limit, argv[2], ran out) for each.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "search/prove.h"
#include "ttt/board.h"
#include "ttt/notation.h"
#include "ttt/rules.h"

#define LINE_MAX_CHARS 1024
#define TABLE_MIB      512

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
        *--e = 0;
    return s;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: prove8 FILE [NODE_LIMIT]\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        fprintf(stderr, "prove8: cannot open %s\n", argv[1]);
        return 2;
    }
    const uint64_t limit = argc > 2 ? strtoull(argv[2], NULL, 10) : 0;
    char line[LINE_MAX_CHARS];
    uint64_t total_nodes = 0;
    double total_cpu = 0;
    int held = 0, count = 0;
    while (fgets(line, sizeof line, f)) {
        char *rules_text = strtok(line, "|"), *moves_text = strtok(NULL, "|"), *side = strtok(NULL, "|");
        if (!rules_text || !moves_text || !side || trim(rules_text)[0] == '#')
            continue;
        rules_text = trim(rules_text);
        moves_text = trim(moves_text);
        side = trim(side);
        ttt_rules rules;
        ttt_error err;
        ttt_move moves[TTT_MAX_CELLS];
        int n;
        ttt_board b;
        ttt_prover *p;
        n = 0; /* "-": the empty board */
        if (ttt_rules_parse(rules_text, &rules, &err) ||
            (strcmp(moves_text, "-") &&
             ttt_moves_parse(moves_text, &rules, moves, TTT_MAX_CELLS, &n, &err)) ||
            ttt_moves_replay(&rules, moves, n, &b, &err) ||
            ttt_prover_new(&rules, TABLE_MIB, false, &p, &err)) {
            fprintf(stderr, "prove8: %s\n", err.msg);
            return 1;
        }
        const int att = side[0] == 'O' || side[0] == 'o' ? TTT_O : TTT_X;
        const bool att_to_move = ttt_board_to_move(&b) == att;
        uint64_t nodes = 0;
        const double t0 = cpu_seconds();
        ttt_proof r = ttt_prover_run_bits(p, &b.stones[att], &b.stones[att ^ 1], att_to_move, limit, NULL,
                                          NULL, &nodes);
        const double cpu = cpu_seconds() - t0;
        ttt_prover_free(p);
        printf("%-6s %-28s %s %-7s %12llu nodes %8.2f s\n", rules_text, moves_text, att == TTT_X ? "X" : "O",
               r == TTT_PROOF_HOLDS    ? "holds"
               : r == TTT_PROOF_FORCED ? "forced"
                                       : "unknown",
               (unsigned long long)nodes, cpu);
        fflush(stdout);
        total_nodes += nodes;
        total_cpu += cpu;
        held += r == TTT_PROOF_HOLDS;
        count++;
    }
    fclose(f);
    printf("total: %d of %d hold, %llu nodes, %.2f CPU s\n", held, count, (unsigned long long)total_nodes,
           total_cpu);
    return 0;
}
