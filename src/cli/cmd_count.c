/* cli/cmd_count.c - `ttt count`: exact counts of positions and games. */
#define _GNU_SOURCE /* getopt_long */
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>

#include "cli/cli.h"

static const char help[] =
    "usage: ttt count [--rules R] [--json] [--limit N]\n"
    "\n"
    "Counts exactly every position reachable from the empty board (per ply, with the finished ones split\n"
    "into X won, O won and drawn) and every complete game (split the same way, by length), then both again\n"
    "up to the board's symmetries. Instant on 3x3; 4x4 takes seconds; boards over 64 cells are refused.\n"
    "\n"
    "  -r, --rules R   MxN[kK][-misere] (default 3x3)\n"
    "  -l, --limit N   stop when one ply has more than N positions (default 50000000)\n"
    "  -j, --json      the same figures as JSON\n"
    "\n"
    "example: ttt count --rules 4x4\n";

static json_t *tally_json(const ttt_count_tally *t, bool positions)
{
    json_t *o =
        json_pack("{s:I, s:I, s:I, s:I}", "total", (json_int_t)t->total, "x_wins", (json_int_t)t->x_wins,
                  "o_wins", (json_int_t)t->o_wins, "draws", (json_int_t)t->draws);
    if (positions)
        json_object_set_new(o, "terminal", json_integer((json_int_t)(t->x_wins + t->o_wins + t->draws)));
    return o;
}

static json_t *section_json(const ttt_counts *c, const ttt_count_tally *by_ply, const ttt_count_tally *all,
                            bool positions)
{
    json_t *o = tally_json(all, positions);
    json_t *plies = json_array();
    for (int p = 0; p < c->plies; p++) {
        json_t *row = tally_json(&by_ply[p], positions);
        json_object_set_new(row, "ply", json_integer(p));
        json_array_append_new(plies, row);
    }
    json_object_set_new(o, "by_ply", plies);
    return o;
}

static void print_row(const char *label, const ttt_count_tally *t, const ttt_count_tally *sym, bool positions)
{
    uint64_t term = t->x_wins + t->o_wins + t->draws, sterm = sym->x_wins + sym->o_wins + sym->draws;
    if (positions)
        printf("%5s %16" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %8" PRIu64 " | %13" PRIu64
               " %9" PRIu64 " %8" PRIu64 " %8" PRIu64 " %7" PRIu64 "\n",
               label, t->total, term, t->x_wins, t->o_wins, t->draws, sym->total, sterm, sym->x_wins,
               sym->o_wins, sym->draws);
    else
        printf("%5s %16" PRIu64 " %16" PRIu64 " %16" PRIu64 " %16" PRIu64 " | %15" PRIu64 "\n", label,
               t->total, t->x_wins, t->o_wins, t->draws, sym->total);
}

int cmd_count(int argc, char **argv)
{
    static const struct option longopts[] = {{"rules", required_argument, NULL, 'r'},
                                             {"limit", required_argument, NULL, 'l'},
                                             {"json", no_argument, NULL, 'j'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    const char *rules_text = "3x3";
    uint64_t limit = 0;
    bool json = false;
    optind = 0;
    for (int c; (c = cli_getopt("count", argc, argv, "r:l:jh", longopts)) != -1;) {
        switch (c) {
        case 'r': rules_text = optarg; break;
        case 'l': {
            char *end;
            unsigned long long v = strtoull(optarg, &end, 10);
            if (*optarg < '0' || *optarg > '9' || *end || v == 0)
                return cli_usage("count", "--limit '%s': expected a positive integer", optarg);
            limit = v;
            break;
        }
        case 'j': json = true; break;
        case 'h': fputs(help, stdout); return CLI_OK;
        default: return CLI_USAGE;
        }
    }
    if (optind < argc)
        return cli_usage("count", "unexpected argument '%s'", argv[optind]);
    ttt_rules rules;
    ttt_error err;
    if (ttt_rules_parse(rules_text, &rules, &err))
        return cli_usage("count", "%s", err.msg);
    if (ttt_rules_cells(&rules) > TTT_COUNT_MAX_CELLS)
        return cli_usage("count", "%s has %d cells; boards of more than %d cells are too big to count",
                         rules_text, ttt_rules_cells(&rules), TTT_COUNT_MAX_CELLS);
    ttt_counts *c = malloc(sizeof *c);
    if (!c)
        return cli_runtime("count", "out of memory");
    double start = ttt_clock_ms();
    ttt_status st = ttt_count(&rules, limit, c, &err);
    double ms = ttt_clock_ms() - start;
    if (st) {
        free(c);
        return st == TTT_EINVAL ? cli_usage("count", "%s", err.msg) : cli_runtime("count", "%s", err.msg);
    }
    char rt[TTT_RULES_TEXT_SIZE];
    ttt_rules_format(&rules, rt, sizeof rt);
    if (json) {
        json_t *o = json_pack("{s:s, s:o, s:o, s:o, s:o, s:f}", "rules", rt, "positions",
                              section_json(c, c->positions, &c->all_positions, true), "positions_sym",
                              section_json(c, c->positions_sym, &c->all_positions_sym, true), "games",
                              section_json(c, c->games, &c->all_games, false), "games_sym",
                              section_json(c, c->games_sym, &c->all_games_sym, false), "ms", ms);
        int bad = !o || json_dumpf(o, stdout, JSON_COMPACT | JSON_REAL_PRECISION(6)) != 0;
        json_decref(o);
        free(c);
        if (bad)
            return cli_runtime("count", "could not write JSON");
        putchar('\n');
        return CLI_OK;
    }
    printf("%s: %d in a row%s\n\n", rt, rules.k, rules.misere ? ", misere (a line loses)" : "");
    printf("Reachable positions by stones on the board%*s| up to symmetry\n", 38, "");
    printf("%5s %16s %10s %10s %10s %8s | %13s %9s %8s %8s %7s\n", "ply", "positions", "finished", "X won",
           "O won", "drawn", "positions", "finished", "X won", "O won", "drawn");
    for (int p = 0; p < c->plies; p++) {
        char label[16];
        snprintf(label, sizeof label, "%d", p % (TTT_MAX_CELLS + 1));
        print_row(label, &c->positions[p], &c->positions_sym[p], true);
    }
    print_row("all", &c->all_positions, &c->all_positions_sym, true);
    printf("\nComplete games by length%*s| up to symmetry\n", 50, "");
    printf("%5s %16s %16s %16s %16s | %15s\n", "moves", "games", "X won", "O won", "drawn", "games");
    for (int p = 0; p < c->plies; p++) {
        if (c->games[p].total == 0)
            continue;
        char label[16];
        snprintf(label, sizeof label, "%d", p % (TTT_MAX_CELLS + 1));
        print_row(label, &c->games[p], &c->games_sym[p], false);
    }
    print_row("all", &c->all_games, &c->all_games_sym, false);
    printf("\nup to symmetry, games split: X won %" PRIu64 ", O won %" PRIu64 ", drawn %" PRIu64 "\n",
           c->all_games_sym.x_wins, c->all_games_sym.o_wins, c->all_games_sym.draws);
    printf("counted in %.0f ms\n", ms);
    free(c);
    return CLI_OK;
}
