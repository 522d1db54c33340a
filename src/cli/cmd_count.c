/* cli/cmd_count.c - `ttt count`: exact counts of positions and games. */
#define _GNU_SOURCE /* getopt_long */
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

#define MIB_BYTES (1024.0 * 1024.0)
#define GIB_BYTES (1024.0 * MIB_BYTES)
/* The largest --max-memory, in MiB (1 PiB). */
#define COUNT_MAX_MEMORY_MIB (UINT64_C(1) << 30)

/* The memory available to a new process, in bytes: MemAvailable of /proc/meminfo, else the free pages. */
static double available_memory(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (f) {
        char line[256];
        unsigned long long kib;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1) {
                fclose(f);
                return (double)kib * 1024.0;
            }
        fclose(f);
    }
    long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (double)pages * (double)size : 0.0;
}

/* "3.1 GB", "250 MB". */
static const char *size_text(double bytes, char *buf, size_t size)
{
    if (bytes >= GIB_BYTES)
        snprintf(buf, size, "%.1f GB", bytes / GIB_BYTES);
    else
        snprintf(buf, size, "%.0f MB", bytes / MIB_BYTES);
    return buf;
}

typedef struct count_watch {
    int plies;
    double start;
} count_watch;

/* The live line on a terminal: one redraw per layer. */
static void count_progress(int pass, int ply, uint64_t positions, void *user)
{
    const count_watch *w = user;
    fprintf(stderr, "\r\033[Kcounting %s: ply %d of %d, %" PRIu64 " positions, %.1f s",
            pass == 1 ? "positions (pass 1 of 2)" : "up to symmetry (pass 2 of 2)", ply, w->plies - 1,
            positions, (ttt_clock_ms() - w->start) / 1000.0);
    fflush(stderr);
}

static const char help[] =
    "usage: ttt count [--rules R] [--json] [--limit N] [--max-memory MIB]\n"
    "\n"
    "Counts exactly every position reachable from the empty board (per ply, with the finished ones split\n"
    "into X won, O won and drawn) and every complete game (split the same way, by length), then both again\n"
    "up to the board's symmetries. Instant on 3x3; 4x4 takes seconds; boards over 64 cells are refused.\n"
    "A board whose largest layer might not fit in memory (the estimate counts every way of placing the\n"
    "stones of a ply) is refused before counting; on a terminal a line shows the layer being counted.\n"
    "The counts are known only at the end: Ctrl-C keeps nothing (exit 130).\n"
    "\n"
    "  -r, --rules R   MxN[kK][-misere] (default 3x3)\n"
    "      --limit N   stop when one ply has more than N positions (default 50000000)\n"
    "      --json      the same figures as JSON\n"
    "      --max-memory MIB  refuse boards estimated to need more (default: the memory available now;\n"
    "                  0 = count anyway)\n"
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

/* A table of counts, its columns as wide as their widest figure (digits grouped: 1,281,016,086,768), a bar
 * before the columns up to symmetry. The first row is the header. */
enum { COUNT_MAX_COLS = 11, COUNT_MAX_ROWS = TTT_MAX_CELLS + 3 };
typedef struct count_table {
    char cell[COUNT_MAX_ROWS][COUNT_MAX_COLS][CLI_COUNT_SIZE];
    int rows, cols, sym_from; /* the first column up to symmetry */
} count_table;

static void table_row(count_table *t, const char *label, const uint64_t *values)
{
    snprintf(t->cell[t->rows][0], CLI_COUNT_SIZE, "%s", label);
    for (int c = 1; c < t->cols; c++)
        cli_count(values[c - 1], t->cell[t->rows][c], CLI_COUNT_SIZE);
    t->rows++;
}

static void tally_row(count_table *t, const char *label, const ttt_count_tally *a, const ttt_count_tally *sym,
                      bool positions)
{
    uint64_t term = a->x_wins + a->o_wins + a->draws, sterm = sym->x_wins + sym->o_wins + sym->draws;
    if (positions)
        table_row(t, label,
                  (const uint64_t[]){a->total, term, a->x_wins, a->o_wins, a->draws, sym->total, sterm,
                                     sym->x_wins, sym->o_wins, sym->draws});
    else
        table_row(t, label, (const uint64_t[]){a->total, a->x_wins, a->o_wins, a->draws, sym->total});
}

/* Prints the title (its "| up to symmetry" over the bar) and the table. */
static void table_print(const count_table *t, const char *title)
{
    int width[COUNT_MAX_COLS] = {0};
    for (int r = 0; r < t->rows; r++)
        for (int c = 0; c < t->cols; c++)
            if ((int)strlen(t->cell[r][c]) > width[c])
                width[c] = (int)strlen(t->cell[r][c]);
    int left = 0;
    for (int c = 0; c < t->sym_from; c++)
        left += width[c] + (c ? 2 : 0);
    int pad = left + 1 - (int)strlen(title);
    printf("%s%*s| up to symmetry\n", title, pad > 1 ? pad : 1, "");
    for (int r = 0; r < t->rows; r++) {
        for (int c = 0; c < t->cols; c++)
            printf("%s%*s", c == 0 ? "" : c == t->sym_from ? " | " : "  ", width[c], t->cell[r][c]);
        putchar('\n');
    }
}

int cmd_count(int argc, char **argv)
{
    enum { OPT_MAX_MEMORY = 256 };
    static const struct option longopts[] = {
        {"rules", required_argument, NULL, 'r'}, {"max-memory", required_argument, NULL, OPT_MAX_MEMORY},
        {"limit", required_argument, NULL, 'l'}, {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},        {NULL, 0, NULL, 0}};
    const char *rules_text = "3x3";
    uint64_t limit = 0, max_memory_mib = UINT64_MAX;
    bool json = false;
    optind = 0;
    for (int c; (c = cli_getopt("count", argc, argv, "r:h", longopts)) != -1;) {
        switch (c) {
        case 'r': rules_text = optarg; break;
        case 'l':
            if (cli_parse_uint("count", "--limit", optarg, 1, UINT64_MAX, "a number of positions", &limit))
                return CLI_USAGE;
            break;
        case 'j': json = true; break;
        case OPT_MAX_MEMORY:
            if (cli_parse_uint("count", "--max-memory", optarg, 0, COUNT_MAX_MEMORY_MIB, "MiB",
                               &max_memory_mib))
                return CLI_USAGE;
            break;
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
    char rt[TTT_RULES_TEXT_SIZE];
    ttt_rules_format(&rules, rt, sizeof rt);
    uint64_t largest;
    double need = (double)ttt_count_memory_estimate(&rules, &largest);
    double have = max_memory_mib == UINT64_MAX ? available_memory() : (double)max_memory_mib * MIB_BYTES;
    if (max_memory_mib != 0 && have > 0 && need > have) {
        char a[32], b[32];
        return cli_usage("count",
                         "%s may need about %s of memory (a layer of up to %.3g positions) and %s %s; "
                         "--max-memory 0 counts anyway",
                         rt, size_text(need, a, sizeof a), (double)largest, size_text(have, b, sizeof b),
                         max_memory_mib == UINT64_MAX ? "is available" : "is allowed");
    }
    if (!json) {
        printf("%s: %d in a row%s\n\n", rt, rules.k,
               !ttt_rules_line_wins(&rules) ? ", misere (a line loses)" : "");
        fflush(stdout);
    }
    ttt_counts *c = malloc(sizeof *c);
    if (!c)
        return cli_runtime("count", "out of memory");
    double start = ttt_clock_ms();
    count_watch watch = {.plies = ttt_rules_cells(&rules) + 1, .start = start};
    bool bar = isatty(STDERR_FILENO);
    /* The count cannot be asked to stop and has nothing to show before its end: Ctrl-C ends the process. */
    cli_interrupt_exit("count", "nothing counted (the counts are known only at the end)", bar);
    ttt_status st = ttt_count_progress(&rules, limit, bar ? count_progress : NULL, &watch, c, &err);
    cli_interrupt_release();
    double ms = ttt_clock_ms() - start;
    if (bar)
        fputs("\r\033[K", stderr);
    if (st) {
        free(c);
        return st == TTT_EINVAL ? cli_usage("count", "%s", err.msg) : cli_runtime("count", "%s", err.msg);
    }
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
    count_table *t = malloc(sizeof *t);
    if (!t) {
        free(c);
        return cli_runtime("count", "out of memory");
    }
    static const char *const position_heads[] = {"ply",   "positions", "finished",  "X won",
                                                 "O won", "drawn",     "positions", "finished",
                                                 "X won", "O won",     "drawn"};
    static const char *const game_heads[] = {"moves", "games", "X won", "O won", "drawn", "games"};
    *t = (count_table){.cols = 11, .sym_from = 6, .rows = 1};
    for (int h = 0; h < t->cols; h++)
        snprintf(t->cell[0][h], CLI_COUNT_SIZE, "%s", position_heads[h]);
    for (int p = 0; p < c->plies; p++) {
        char label[16];
        snprintf(label, sizeof label, "%d", p % (TTT_MAX_CELLS + 1));
        tally_row(t, label, &c->positions[p], &c->positions_sym[p], true);
    }
    tally_row(t, "all", &c->all_positions, &c->all_positions_sym, true);
    table_print(t, "Reachable positions by stones on the board");
    *t = (count_table){.cols = 6, .sym_from = 5, .rows = 1};
    for (int h = 0; h < t->cols; h++)
        snprintf(t->cell[0][h], CLI_COUNT_SIZE, "%s", game_heads[h]);
    for (int p = 0; p < c->plies; p++) {
        if (c->games[p].total == 0)
            continue;
        char label[16];
        snprintf(label, sizeof label, "%d", p % (TTT_MAX_CELLS + 1));
        tally_row(t, label, &c->games[p], &c->games_sym[p], false);
    }
    tally_row(t, "all", &c->all_games, &c->all_games_sym, false);
    putchar('\n');
    table_print(t, "Complete games by length");
    free(t);
    char xw[CLI_COUNT_SIZE], ow[CLI_COUNT_SIZE], dr[CLI_COUNT_SIZE], took[CLI_DURATION_SIZE];
    printf("\nup to symmetry, games split: X won %s, O won %s, drawn %s\n",
           cli_count(c->all_games_sym.x_wins, xw, sizeof xw),
           cli_count(c->all_games_sym.o_wins, ow, sizeof ow),
           cli_count(c->all_games_sym.draws, dr, sizeof dr));
    printf("counted in %s\n", cli_duration(ms, took, sizeof took));
    free(c);
    return CLI_OK;
}
