/* cli/cmd_memory.c - `ttt memory`: what the learner's memory holds; JSON export and import. */
#define _GNU_SOURCE /* getopt_long */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"

#define MEMORY_FORMAT_NAME    "ttt-memory"
#define MEMORY_FORMAT_VERSION 1
/* The largest count an imported sequence may carry (exact in a JSON number). */

static const char help[] =
    "usage: ttt memory ACTION [--memory PATH]\n"
    "\n"
    "The learner's memory: every game it learned, in canonical form, with how often it was played.\n"
    "\n"
    "actions:\n"
    "  stats                 the file (size, schema version, integrity check) and, per rules, the games\n"
    "                        learned, the sequences and the prefixes (the nodes of the learner's tree)\n"
    "  export [--out FILE]   the memory as JSON (format 'ttt-memory', version 1) on stdout or into FILE\n"
    "  import FILE           adds the counts of an exported file to the memory; everything is checked\n"
    "                        first, and nothing is written when anything is wrong\n"
    "\n"
    "  -m, --memory PATH     the database (default $XDG_DATA_HOME/ttt/ttt.db, else\n"
    "                        ~/.local/share/ttt/ttt.db)\n"
    "\n"
    "examples: ttt memory stats\n"
    "          ttt memory export --out memory.json\n"
    "          ttt memory import --memory other.db memory.json\n";

static int open_store(const char *path, ttt_store **out)
{
    ttt_error err;
    ttt_status st = ttt_store_open(path, out, &err);
    return st ? cli_usage("memory", "%s", err.msg) : CLI_OK;
}

/* --- stats ---------------------------------------------------------------------------------------------- */

static int print_stats(const ttt_store_memory_stats *m, void *user)
{
    (void)user;
    printf("%s: %" PRId64 " games learned (X won %" PRId64 ", O won %" PRId64 ", drawn %" PRId64 "), %" PRId64
           " sequences, %" PRId64 " prefixes\n",
           m->rules, m->games, m->x_wins, m->o_wins, m->draws, m->sequences, m->prefixes);
    return 0;
}

static long long file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (long long)sb.st_size : 0;
}

static int memory_stats(ttt_store *store)
{
    ttt_error err;
    ttt_status check = ttt_store_check(store, &err);
    char wal[TTT_STORE_PATH_SIZE + 8];
    snprintf(wal, sizeof wal, "%s-wal", ttt_store_path(store));
    int64_t games = 0;
    ttt_store_count_games(store, &games, &err);
    printf("memory %s: %lld bytes (WAL %lld), schema %d, integrity %s, %" PRId64 " game records\n",
           ttt_store_path(store), file_size(ttt_store_path(store)), file_size(wal),
           ttt_store_schema_version(store), check ? "FAILED" : "ok", games);
    if (check)
        return cli_runtime("memory", "%s", err.msg);
    if (ttt_store_memory_stats_each(store, print_stats, NULL, &err))
        return cli_runtime("memory", "%s", err.msg);
    return CLI_OK;
}

/* --- export --------------------------------------------------------------------------------------------- */

typedef struct export_ctx {
    json_t *memories, *current;
    bool failed;
} export_ctx;

static int export_one(const char *rules, const char *moves, const char *result, int64_t count, void *user)
{
    export_ctx *x = user;
    json_t *last =
        json_array_size(x->memories) ? json_array_get(x->memories, json_array_size(x->memories) - 1) : NULL;
    if (!last || strcmp(json_string_value(json_object_get(last, "rules")), rules) != 0) {
        x->current = json_array();
        last = json_pack("{s:s, s:o}", "rules", rules, "sequences", x->current);
        if (!last || json_array_append_new(x->memories, last))
            return x->failed = true;
    }
    json_t *seq = json_pack("{s:s, s:s, s:I}", "moves", moves, "result", result, "count", (json_int_t)count);
    if (!seq || json_array_append_new(x->current, seq))
        return x->failed = true;
    return 0;
}

static int memory_export(ttt_store *store, const char *out)
{
    export_ctx x = {json_array(), NULL, false};
    ttt_error err;
    ttt_status st = ttt_store_sequences(store, NULL, export_one, &x, &err);
    if (st || x.failed) {
        json_decref(x.memories);
        return st ? cli_runtime("memory", "%s", err.msg) : cli_runtime("memory", "out of memory");
    }
    json_t *root = json_pack("{s:s, s:i, s:o}", "format", MEMORY_FORMAT_NAME, "version",
                             MEMORY_FORMAT_VERSION, "memories", x.memories);
    FILE *f = out ? fopen(out, "w") : stdout;
    if (!f) {
        json_decref(root);
        return cli_usage("memory", "--out '%s': %s", out, strerror(errno));
    }
    int bad = json_dumpf(root, f, JSON_PRESERVE_ORDER | JSON_COMPACT) != 0 || fputc('\n', f) == EOF;
    bad |= out ? fclose(f) != 0 : fflush(f) != 0;
    json_decref(root);
    return bad ? cli_runtime("memory", "cannot write '%s'", out ? out : "stdout") : CLI_OK;
}

/* --- import --------------------------------------------------------------------------------------------- */

typedef struct import_entry {
    char rules[TTT_RULES_TEXT_SIZE];
    char moves[TTT_MOVES_TEXT_SIZE];
    const char *result;
    int64_t count;
} import_entry;

/* Checks one sequence and writes its canonical form into e. */
static bool check_sequence(json_t *seq, const ttt_rules *rules, import_entry *e, char *why, size_t size)
{
    json_t *jm = json_object_get(seq, "moves"), *jr = json_object_get(seq, "result"),
           *jc = json_object_get(seq, "count");
    if (!json_is_string(jm) || !json_is_string(jr) || !json_is_integer(jc)) {
        snprintf(why, size, "expected {\"moves\": text, \"result\": text, \"count\": number}");
        return false;
    }
    ttt_move moves[TTT_MAX_CELLS], canon[TTT_MAX_CELLS];
    int n;
    ttt_board b;
    ttt_error err;
    if (ttt_moves_parse(json_string_value(jm), rules, moves, TTT_MAX_CELLS, &n, &err) ||
        ttt_moves_replay(rules, moves, n, &b, &err)) {
        snprintf(why, size, "%s", err.msg);
        return false;
    }
    ttt_outcome oc = ttt_board_outcome(&b);
    if (oc == TTT_ONGOING) {
        snprintf(why, size, "the game '%s' is not finished", json_string_value(jm));
        return false;
    }
    e->result = oc == TTT_X_WINS ? "x" : oc == TTT_O_WINS ? "o" : "draw";
    if (strcmp(json_string_value(jr), e->result) != 0) {
        snprintf(why, size, "result '%s': the game ends '%s'", json_string_value(jr), e->result);
        return false;
    }
    e->count = (int64_t)json_integer_value(jc);
    if (e->count < 1 || e->count > TTT_STORE_MAX_COUNT) {
        snprintf(why, size, "count %" PRId64 ": expected 1 to %" PRId64, e->count, TTT_STORE_MAX_COUNT);
        return false;
    }
    ttt_sym_sequence_canonical(rules, moves, n, canon);
    ttt_moves_format(rules, canon, n, e->moves, sizeof e->moves);
    ttt_rules_format(rules, e->rules, sizeof e->rules);
    return true;
}

/* Reads and checks the whole file into *entries (caller frees). CLI_OK or the exit status of the error. */
static int read_import(const char *path, import_entry **entries, size_t *count)
{
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr);
    if (!root)
        return cli_usage("memory", "import '%s': not valid JSON: %s (line %d)", path, jerr.text, jerr.line);
    int rc = CLI_OK;
    json_t *memories = json_object_get(root, "memories");
    if (!json_is_string(json_object_get(root, "format")) ||
        strcmp(json_string_value(json_object_get(root, "format")), MEMORY_FORMAT_NAME) != 0)
        rc = cli_usage("memory", "import '%s': not a ttt memory export (no \"format\": \"%s\")", path,
                       MEMORY_FORMAT_NAME);
    else if (json_integer_value(json_object_get(root, "version")) != MEMORY_FORMAT_VERSION)
        rc = cli_usage("memory",
                       "import '%s': version %" JSON_INTEGER_FORMAT " is not supported (expected %d)", path,
                       json_integer_value(json_object_get(root, "version")), MEMORY_FORMAT_VERSION);
    else if (!json_is_array(memories))
        rc = cli_usage("memory", "import '%s': \"memories\" must be an array", path);
    size_t total = 0, i, j;
    json_t *m, *seq;
    json_array_foreach(memories, i, m) total += json_array_size(json_object_get(m, "sequences"));
    *entries = rc ? NULL : calloc(total ? total : 1, sizeof **entries);
    *count = 0;
    if (!rc && !*entries)
        rc = cli_runtime("memory", "out of memory");
    json_array_foreach(memories, i, m)
    {
        if (rc)
            break;
        ttt_rules rules;
        ttt_error err;
        json_t *jr = json_object_get(m, "rules"), *seqs = json_object_get(m, "sequences");
        if (!json_is_string(jr) || !json_is_array(seqs)) {
            rc = cli_usage("memory",
                           "import '%s': memories[%zu]: expected {\"rules\": text, \"sequences\": [...]}",
                           path, i);
            break;
        }
        if (ttt_rules_parse(json_string_value(jr), &rules, &err)) {
            rc = cli_usage("memory", "import '%s': memories[%zu]: %s", path, i, err.msg);
            break;
        }
        json_array_foreach(seqs, j, seq)
        {
            char why[TTT_ERROR_SIZE];
            if (!check_sequence(seq, &rules, &(*entries)[*count], why, sizeof why)) {
                rc = cli_usage("memory", "import '%s': memories[%zu].sequences[%zu]: %s", path, i, j, why);
                break;
            }
            (*count)++;
        }
    }
    json_decref(root);
    if (rc) {
        free(*entries);
        *entries = NULL;
    }
    return rc;
}

/* Checks the whole file first, then opens (or creates) the memory and adds it in one transaction: nothing is
 * written when anything is wrong. */
static int memory_import(const char *memory, const char *path)
{
    import_entry *entries;
    size_t n;
    int rc = read_import(path, &entries, &n);
    if (rc)
        return rc;
    ttt_store *store;
    if ((rc = open_store(memory, &store)) != CLI_OK) {
        free(entries);
        return rc;
    }
    ttt_error err;
    ttt_status st = ttt_store_begin(store, &err);
    int64_t games = 0;
    for (size_t i = 0; i < n && !st; i++) {
        st = ttt_store_learn(store, entries[i].rules, entries[i].moves, entries[i].result, entries[i].count,
                             &err);
        games =
            games > TTT_STORE_MAX_COUNT - entries[i].count ? TTT_STORE_MAX_COUNT : games + entries[i].count;
    }
    if (st)
        ttt_store_rollback(store);
    else
        st = ttt_store_commit(store, &err);
    free(entries);
    if (st) {
        ttt_store_close(store);
        return cli_runtime("memory", "%s", err.msg);
    }
    printf("imported %zu sequences, %" PRId64 " games, into %s\n", n, games, ttt_store_path(store));
    ttt_store_close(store);
    return CLI_OK;
}

int cmd_memory(int argc, char **argv)
{
    if (argc < 2)
        return cli_usage("memory",
                         "no action given: expected stats, export or import (see 'ttt memory --help')");
    const char *action = argv[1];
    if (strcmp(action, "--help") == 0 || strcmp(action, "-h") == 0) {
        fputs(help, stdout);
        return CLI_OK;
    }
    bool stats = strcmp(action, "stats") == 0, export = strcmp(action, "export") == 0,
         import = strcmp(action, "import") == 0;
    if (!stats && !export && !import)
        return cli_usage("memory", "unknown action '%s': expected stats, export or import", action);
    static const struct option longopts[] = {{"memory", required_argument, NULL, 'm'},
                                             {"out", required_argument, NULL, 'o'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    const char *memory = NULL, *out = NULL;
    optind = 0;
    opterr = 0;
    argc--;
    argv++;
    for (int c; (c = getopt_long(argc, argv, "+m:o:h", longopts, NULL)) != -1;) {
        switch (c) {
        case 'm': memory = optarg; break;
        case 'o':
            if (!export)
                return cli_usage("memory", "--out is for export");
            out = optarg;
            break;
        case 'h': fputs(help, stdout); return CLI_OK;
        default: return cli_bad_option("memory", argc, argv);
        }
    }
    const char *file = NULL;
    if (import) {
        if (optind >= argc)
            return cli_usage("memory", "import: no file given (ttt memory import FILE)");
        file = argv[optind++];
    }
    if (optind < argc)
        return cli_usage("memory", "unexpected argument '%s'", argv[optind]);
    if (import)
        return memory_import(memory, file);
    ttt_store *store;
    ttt_error err;
    ttt_status st = ttt_store_open_existing(memory, &store, &err);
    if (st == TTT_ESTATE && stats) { /* nothing learnt yet, and nothing is created to say so */
        printf("memory: empty (%s)\n", err.msg);
        return CLI_OK;
    }
    if (st)
        return cli_usage("memory", "%s", err.msg);
    int rc;
    rc = stats ? memory_stats(store) : memory_export(store, out);
    ttt_store_close(store);
    return rc;
}
