/* cli/cmd_table.c - `ttt table`: move tables learned from random games (ttt/table.h). One action: build. */
#define _GNU_SOURCE /* getopt_long */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

/* A JSON table file may take about this many bytes per move entry, plus one per cell of the board (measured:
 * 4x4 82 bytes per entry, 7x7k5 131); a binary one about TABLE_ENTRY_BINARY_BYTES (4x4: 11.1 MB for 0.8M
 * entries, 14 bytes each). */
#define TABLE_ENTRY_FILE_BYTES   80
#define TABLE_ENTRY_BINARY_BYTES 16
/* Builds whose file may be larger than this get a warning before they start. */
#define TABLE_WARN_FILE_BYTES (50.0 * 1000 * 1000)

static void write_progress(uint64_t done, uint64_t total, void *user)
{
    (void)user;
    cli_progress_unit(done, total, "moves written", "");
}

/* The note when an engine builds a missing default table: one line on stderr, so that the first use of the
 * table engine is not a silent pause and a file that appears in the data directory is explained. */
static void note_built(const ttt_table_built *b, void *user)
{
    (void)user;
    char rt[TTT_RULES_TEXT_SIZE], games[CLI_COUNT_SIZE], took[CLI_DURATION_SIZE];
    ttt_rules_format(&b->rules, rt, sizeof rt);
    cli_count(b->games, games, sizeof games);
    cli_duration(b->ms, took, sizeof took);
    if (b->saved)
        fprintf(stderr, "ttt: built the default %s table (%s random games, %s), saved as %s (%.1f MB)\n", rt,
                games, took, b->path, (double)b->bytes / 1e6);
    else
        fprintf(stderr, "ttt: built the default %s table (%s random games, %s); could not save it%s%s\n", rt,
                games, took, b->path[0] ? " as " : "", b->path);
}

void cli_table_notes(void) { ttt_table_set_built_listener(note_built, NULL); }

static const char help[] =
    "usage: ttt table ACTION [OPTIONS]\n"
    "\n"
    "Move tables learned from uniformly random games, for the 'table' engine.\n"
    "\n"
    "actions:\n"
    "  build     play random games and write the table (see 'ttt table build --help')\n";

static const char build_help[] =
    "usage: ttt table build [--rules R] --games N [--seed S] [--out FILE] [--jobs J]\n"
    "\n"
    "Plays N uniformly random games and scores every move from the mover's side: +10 when it wins, -10 when\n"
    "it lets the opponent win with the next move, +1 when the mover went on to win, -1 otherwise. Each\n"
    "position (in canonical form) keeps the sum and count of its moves' scores; the 'table' engine plays "
    "the\n"
    "move with the best average. The table is written atomically in a compact binary format (ttt/table.h),\n"
    "or as JSON (format 'ttt-table', version 1) when FILE ends in .json: both load with file=.\n"
    "The same rules, games and seed give the same table, whatever --jobs is. Ctrl-C during the games\n"
    "writes nothing (exit 130); during the write, the write is finished first.\n"
    "\n"
    "  -r, --rules R   MxN[kK][-misere], boards of up to 64 cells (default 3x3)\n"
    "  -g, --games N   how many random games to play (required)\n"
    "  -s, --seed S    the build seed, 0 to 9223372036854775807 (default 0)\n"
    "      --out FILE  where to write (default $XDG_DATA_HOME/ttt/tables/RULES.tbl, else\n"
    "                  ~/.local/share/ttt/tables/RULES.tbl: the table the engine uses without file=)\n"
    "  -j, --jobs J    threads (default: the number of processors)\n"
    "\n"
    "examples: ttt table build --games 1000000\n"
    "          ttt table build --rules 4x4k3 --games 100000 --out 4x4k3.tbl\n"
    "          ttt table build --rules 4x4k3 --games 100000 --out 4x4k3.json   (JSON, to read)\n"
    "          ttt move --engine table:file=4x4k3.tbl --rules 4x4k3\n";

/* Refuses early what would make the write fail after a long build: an existing file that is not a table,
 * or a directory that cannot be written. */
static int check_out(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) == 0 && (!S_ISREG(sb.st_mode) || !ttt_table_file_looks_like_table(path)))
        return cli_usage("table", "'%s' exists and is not a ttt table: not overwriting it", path);
    char *copy = strdup(path);
    if (!copy)
        return cli_runtime("table", "out of memory");
    const char *dir = dirname(copy);
    int rc = access(dir, W_OK) == 0 ? CLI_OK
                                    : cli_usage("table", "cannot write in '%s': %s", dir, strerror(errno));
    free(copy);
    return rc;
}

/* `ttt table [OPTIONS] build [OPTIONS]`: argv[0] is "table", the action is among the positionals. */
static int table_build(int argc, char **argv)
{
    static const struct option longopts[] = {{"rules", required_argument, NULL, 'r'},
                                             {"games", required_argument, NULL, 'g'},
                                             {"seed", required_argument, NULL, 's'},
                                             {"out", required_argument, NULL, 'o'},
                                             {"jobs", required_argument, NULL, 'j'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    const char *rules_text = NULL, *out = NULL;
    uint64_t games = 0, seed = 0, jobs = 0;
    bool have_games = false, want_help = false;
    optind = 0;
    for (int c; (c = cli_getopt("table", argc, argv, "r:g:s:j:h", longopts)) != -1;) {
        switch (c) {
        case 'r': rules_text = optarg; break;
        case 'g':
            if (cli_parse_uint("table", "--games", optarg, 1, TTT_TABLE_MAX_GAMES, "a whole number", &games))
                return CLI_USAGE;
            have_games = true;
            break;
        case 's':
            if (cli_parse_uint("table", "--seed", optarg, 0, TTT_TABLE_MAX_SEED, "a whole number", &seed))
                return CLI_USAGE;
            break;
        case 'o': out = optarg; break;
        case 'j':
            if (cli_parse_uint("table", "--jobs", optarg, 1, TTT_TABLE_MAX_JOBS, "a number of threads",
                               &jobs))
                return CLI_USAGE;
            break;
        case 'h': want_help = true; break;
        default: return CLI_USAGE;
        }
    }
    static const char *const actions[] = {"build"};
    /* The action is checked before the help is chosen: 'ttt help table biuld' is a typo to point out, not a
     * request for the help of 'table'. */
    if (want_help && optind >= argc) {
        fputs(help, stdout);
        return CLI_OK;
    }
    if (optind >= argc)
        return cli_usage("table", "no action given: expected 'build' (see 'ttt table --help')");
    if (strcmp(argv[optind], "build") != 0) {
        char hint[CLI_HINT_SIZE];
        return cli_usage("table", "unknown action '%s'%s: expected 'build' (see 'ttt table --help')",
                         argv[optind], cli_did_you_mean(argv[optind], actions, 1, hint, sizeof hint));
    }
    if (optind + 1 < argc)
        return cli_usage("table", "unexpected argument '%s'", argv[optind + 1]);
    if (want_help) {
        fputs(build_help, stdout);
        return CLI_OK;
    }
    if (!have_games)
        return cli_usage("table", "--games is required, e.g. --games 1000000 (see 'ttt table build --help')");
    ttt_rules rules = ttt_rules_default();
    ttt_error err;
    if (rules_text && ttt_rules_parse(rules_text, &rules, &err))
        return cli_usage("table", "%s", err.msg);
    if (ttt_rules_cells(&rules) > TTT_TABLE_MAX_CELLS)
        return cli_usage("table", "rules '%s': tables hold boards of up to %d cells", rules_text,
                         TTT_TABLE_MAX_CELLS);
    char default_out[TTT_ERROR_SIZE * 4];
    if (!out) {
        ttt_status st = ttt_table_default_path(&rules, true, default_out, sizeof default_out, &err);
        if (st)
            return cli_runtime("table", "%s", err.msg);
        out = default_out;
    }
    int rc = check_out(out);
    if (rc)
        return rc;
    if (jobs == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = n < 1 ? 1 : n > TTT_TABLE_MAX_JOBS ? TTT_TABLE_MAX_JOBS : (uint64_t)n;
    }
    size_t out_len = strlen(out);
    bool json_out = out_len >= 5 && strcmp(out + out_len - 5, ".json") == 0;
    double size =
        (double)ttt_table_max_entries(&rules, games) *
        (json_out ? (double)(TABLE_ENTRY_FILE_BYTES + ttt_rules_cells(&rules)) : TABLE_ENTRY_BINARY_BYTES);
    char counted[CLI_COUNTED_SIZE];
    if (size > TABLE_WARN_FILE_BYTES)
        fprintf(stderr,
                "ttt table: warning: %s may write a file of up to %.0f MB to %s (fewer --games make it "
                "smaller)\n",
                cli_counted(games, "game", "games", counted, sizeof counted), size / 1e6, out);
    bool bar = isatty(STDERR_FILENO);
    if (bar)
        cli_progress_begin();
    ttt_table_build_options opt = {
        .games = games, .seed = seed, .jobs = (int)jobs, .progress = bar ? cli_progress_games : NULL};
    ttt_table *t;
    double start = ttt_clock_ms();
    /* The build cannot be asked to stop, and nothing of it is on disk yet: Ctrl-C ends the process. */
    cli_interrupt_exit("table", "nothing written", bar);
    ttt_status st = ttt_table_build(&rules, &opt, &t, &err);
    /* The write goes to a temporary file renamed at the end: ending it halfway would leave that file. */
    cli_interrupt_catch();
    double build_ms = ttt_clock_ms() - start;
    if (bar)
        cli_progress_end(games);
    if (st) {
        cli_interrupt_release();
        return cli_runtime("table", "%s", err.msg);
    }
    if (bar)
        cli_progress_begin();
    st = ttt_table_save_progress(t, out, bar ? write_progress : NULL, NULL, &err);
    cli_interrupt_release();
    if (bar)
        fputs("\r\033[K", stderr);
    double total_ms = ttt_clock_ms() - start;
    if (st) {
        ttt_table_free(t);
        return cli_runtime("table", "%s", err.msg);
    }
    if (cli_interrupted()) {
        ttt_table_free(t);
        fprintf(stderr, "ttt table: interrupted: the table was built, so its write was finished: wrote %s\n",
                out);
        return CLI_INTERRUPTED;
    }
    /* The build uses no more threads than there are chunks of games. */
    uint64_t chunks = (games + TTT_TABLE_CHUNK_GAMES - 1) / TTT_TABLE_CHUNK_GAMES;
    if (jobs > chunks)
        jobs = chunks ? chunks : 1;
    char rt[TTT_RULES_TEXT_SIZE], positions[CLI_COUNTED_SIZE], moves[CLI_COUNTED_SIZE],
        build_took[CLI_DURATION_SIZE], total_took[CLI_DURATION_SIZE];
    printf("%s: %s (seed %" PRIu64 "), %s, %s, built in %s with %d job%s, %s in all\nwrote %s\n",
           ttt_rules_format(&rules, rt, sizeof rt),
           cli_counted(games, "game", "games", counted, sizeof counted), seed,
           cli_counted(ttt_table_positions(t), "position", "positions", positions, sizeof positions),
           cli_counted(ttt_table_entries(t), "move", "moves", moves, sizeof moves),
           cli_duration(build_ms, build_took, sizeof build_took), (int)jobs, jobs == 1 ? "" : "s",
           cli_duration(total_ms, total_took, sizeof total_took), out);
    ttt_table_free(t);
    return CLI_OK;
}

int cmd_table(int argc, char **argv)
{
    return table_build(argc, argv); /* the only action; table_build reads and checks it */
}
