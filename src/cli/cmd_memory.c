/* cli/cmd_memory.c - `ttt memory`: what the learner's memory holds; JSON export and import. */
#define _GNU_SOURCE /* getopt_long */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/cli.h"

/* The largest import file read (bytes). */
#define MEMORY_IMPORT_MAX_BYTES ((size_t)1 << 31)

static const char help[] =
    "usage: ttt memory ACTION [--db PATH]\n"
    "\n"
    "The learner's memory: every game it learned, in canonical form, with how often it was played.\n"
    "\n"
    "actions:\n"
    "  stats                 the file (size, schema version, integrity check) and, per rules, the games\n"
    "                        learned, the sequences and the prefixes (the nodes of the learner's tree)\n"
    "  export [--out FILE]   the memory as JSON (format 'ttt-memory', version 1) on stdout or into FILE\n"
    "  import FILE           adds the counts of an exported file ('-': standard input) to the memory;\n"
    "                        everything is checked first, and nothing is written when anything is wrong;\n"
    "                        the same contents a second time are refused unless --force\n"
    "\n"
    "  -d, --db PATH         the database (default $XDG_DATA_HOME/ttt/ttt.db, else\n"
    "                        ~/.local/share/ttt/ttt.db); --memory PATH is the same\n"
    "      --force           import: add the counts again, even when the same contents were imported\n"
    "\n"
    "examples: ttt memory stats\n"
    "          ttt memory export --out memory.json\n"
    "          ttt memory import memory.json --db other.db\n"
    "          ssh host ttt memory export | ttt memory import -\n";

static int open_store(const char *path, ttt_store **out)
{
    ttt_error err;
    ttt_status st = ttt_store_open(path, out, &err);
    return st ? cli_store_error("memory", st, &err, path != NULL, NULL) : CLI_OK;
}

/* --- stats ---------------------------------------------------------------------------------------------- */

static int print_stats(const ttt_store_memory_stats *m, void *user)
{
    (void)user;
    char games[CLI_COUNTED_SIZE], x[CLI_COUNT_SIZE], o[CLI_COUNT_SIZE], d[CLI_COUNT_SIZE],
        seqs[CLI_COUNTED_SIZE], prefixes[CLI_COUNTED_SIZE];
    printf("%s: %s learned (X won %s, O won %s, drawn %s), %s, %s\n", m->rules,
           cli_counted((uint64_t)m->games, "game", "games", games, sizeof games),
           cli_count((uint64_t)m->x_wins, x, sizeof x), cli_count((uint64_t)m->o_wins, o, sizeof o),
           cli_count((uint64_t)m->draws, d, sizeof d),
           cli_counted((uint64_t)m->sequences, "sequence", "sequences", seqs, sizeof seqs),
           cli_counted((uint64_t)m->prefixes, "prefix", "prefixes", prefixes, sizeof prefixes));
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
    char size[CLI_COUNT_SIZE], wal_size[CLI_COUNT_SIZE], recorded[CLI_COUNTED_SIZE];
    printf("database %s: %s bytes (WAL %s), schema %d, integrity %s, %s recorded\n", ttt_store_path(store),
           cli_count((uint64_t)file_size(ttt_store_path(store)), size, sizeof size),
           cli_count((uint64_t)file_size(wal), wal_size, sizeof wal_size), ttt_store_schema_version(store),
           check ? "FAILED" : "ok", cli_counted((uint64_t)games, "game", "games", recorded, sizeof recorded));
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

static int export_one(const ttt_store_sequence *s, void *user)
{
    export_ctx *x = user;
    const char *rules = s->rules_text;
    json_t *last =
        json_array_size(x->memories) ? json_array_get(x->memories, json_array_size(x->memories) - 1) : NULL;
    if (!last || strcmp(json_string_value(json_object_get(last, "rules")), rules) != 0) {
        x->current = json_array();
        last = json_pack("{s:s, s:o}", "rules", rules, "sequences", x->current);
        if (!last || json_array_append_new(x->memories, last))
            return x->failed = true;
    }
    json_t *seq = json_pack("{s:s, s:s, s:I}", "moves", s->moves_text, "result", s->result, "count",
                            (json_int_t)s->count);
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
    json_t *root = json_pack("{s:s, s:i, s:o}", "format", TTT_STORE_EXPORT_FORMAT, "version",
                             TTT_STORE_EXPORT_VERSION, "memories", x.memories);
    FILE *f = out ? fopen(out, "w") : stdout;
    if (!f) {
        json_decref(root);
        return cli_usage("memory", "--out '%s': %s", out, strerror(errno));
    }
    errno = 0;
    int bad = json_dumpf(root, f, JSON_PRESERVE_ORDER | JSON_COMPACT) != 0 || fputc('\n', f) == EOF;
    int why = errno;
    if (out && fclose(f) != 0 && !bad) {
        bad = 1;
        why = errno;
    } else if (!out && fflush(f) != 0 && !bad) {
        bad = 1;
        why = errno;
    }
    json_decref(root);
    if (!bad)
        return CLI_OK;
    return out ? cli_runtime("memory", "--out '%s': cannot write: %s", out,
                             why ? strerror(why) : "write error")
               : cli_runtime("memory", "cannot write the output: %s", why ? strerror(why) : "write error");
}

/* --- import --------------------------------------------------------------------------------------------- */

/* The whole file into a new buffer (*text, *len; the caller frees). CLI_OK or the exit status of the error.
 */
static int read_file(const char *path, char **text, size_t *len)
{
    bool in = strcmp(path, "-") == 0;
    FILE *f = in ? stdin : fopen(path, "rb");
    if (!f)
        return cli_usage("memory", "import '%s': %s", path, strerror(errno));
    char *buf = NULL;
    size_t size = 0, n = 0;
    int rc = CLI_OK;
    for (;;) {
        if (n == size) {
            char *grown = size < MEMORY_IMPORT_MAX_BYTES ? realloc(buf, size ? size * 2 : BUFSIZ) : NULL;
            if (!grown) {
                rc = size < MEMORY_IMPORT_MAX_BYTES
                         ? cli_runtime("memory", "import '%s': out of memory", path)
                         : cli_usage("memory", "import '%s': larger than %zu bytes", path,
                                     MEMORY_IMPORT_MAX_BYTES);
                break;
            }
            buf = grown;
            size = size ? size * 2 : BUFSIZ;
        }
        errno = 0;
        size_t got = fread(buf + n, 1, size - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f))
                rc = cli_runtime("memory", "import '%s': cannot read it: %s", path,
                                 errno ? strerror(errno) : "read error");
            break;
        }
    }
    if (!in)
        fclose(f);
    if (rc) {
        free(buf);
        return rc;
    }
    *text = buf;
    *len = n;
    return CLI_OK;
}

/* Reads and checks the whole file first (ttt_store_import_parse), then opens (or creates) the memory and adds
 * it in one transaction: nothing is written, and no database made, when anything is wrong. */
static int memory_import(const char *memory, const char *path, bool force)
{
    char *text = NULL;
    size_t len = 0;
    int rc = read_file(path, &text, &len);
    if (rc)
        return rc;
    ttt_store_import *imp;
    ttt_error err;
    ttt_status st = ttt_store_import_parse(text, len, &imp, &err);
    free(text);
    if (st)
        return cli_status_exit(st) == CLI_USAGE ? cli_usage("memory", "import '%s': %s", path, err.msg)
                                                : cli_runtime("memory", "import '%s': %s", path, err.msg);
    ttt_store *store;
    if ((rc = open_store(memory, &store)) != CLI_OK) {
        ttt_store_import_free(imp);
        return rc;
    }
    int64_t when = 0;
    if (!force && (st = ttt_store_import_seen(store, imp, &when, &err)) != TTT_OK)
        rc = cli_runtime("memory", "%s", err.msg);
    else if (when) {
        char date[sizeof "2026-01-01 12:00"];
        time_t t = (time_t)when;
        struct tm tm;
        strftime(date, sizeof date, "%Y-%m-%d %H:%M", localtime_r(&t, &tm));
        rc = cli_usage("memory",
                       "import '%s': the same contents were imported into %s on %s: nothing written "
                       "(--force adds the counts again)",
                       path, ttt_store_path(store), date);
    } else if ((st = ttt_store_import_apply(store, imp, &err)) != TTT_OK)
        rc = cli_runtime("memory", "%s", err.msg);
    if (!rc) {
        char seqs[CLI_COUNTED_SIZE], games[CLI_COUNTED_SIZE];
        printf("imported %s, %s, into %s\n",
               cli_counted((uint64_t)ttt_store_import_sequences(imp), "sequence", "sequences", seqs,
                           sizeof seqs),
               cli_counted((uint64_t)ttt_store_import_games(imp), "game", "games", games, sizeof games),
               ttt_store_path(store));
    }
    ttt_store_import_free(imp);
    ttt_store_close(store);
    return rc;
}

int cmd_memory(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"db", required_argument, NULL, 'd'},  {"memory", required_argument, NULL, 'd'},
        {"out", required_argument, NULL, 'o'}, {"force", no_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},      {NULL, 0, NULL, 0}};
    const char *memory = NULL, *out = NULL;
    bool force = false, want_help = false;
    optind = 0;
    for (int c; (c = cli_getopt("memory", argc, argv, "d:h", longopts)) != -1;) {
        switch (c) {
        case 'd': memory = optarg; break;
        case 'o': out = optarg; break;
        case 'f': force = true; break;
        case 'h': want_help = true; break;
        default: return CLI_USAGE;
        }
    }
    static const char *const actions[] = {"stats", "export", "import"};
    /* An action named with --help is checked first: 'ttt help memory expotr' is a typo to point out. */
    if (want_help && (optind >= argc || strcmp(argv[optind], "stats") == 0 ||
                      strcmp(argv[optind], "export") == 0 || strcmp(argv[optind], "import") == 0)) {
        fputs(help, stdout);
        return CLI_OK;
    }
    if (cli_check_db("memory", memory))
        return CLI_USAGE;
    if (optind >= argc)
        return cli_usage("memory",
                         "no action given: expected stats, export or import (see 'ttt memory --help')");
    const char *action = argv[optind++];
    bool stats = strcmp(action, "stats") == 0, export = strcmp(action, "export") == 0,
         import = strcmp(action, "import") == 0;
    if (!stats && !export && !import) {
        char hint[CLI_HINT_SIZE];
        return cli_usage("memory", "unknown action '%s'%s: expected stats, export or import", action,
                         cli_did_you_mean(action, actions, 3, hint, sizeof hint));
    }
    if (out && !export)
        return cli_usage("memory", "--out is for export");
    if (force && !import)
        return cli_usage("memory", "--force is for import");
    const char *file = NULL;
    if (import) {
        if (optind >= argc)
            return cli_usage("memory", "import: no file given (ttt memory import FILE)");
        file = argv[optind++];
    }
    if (optind < argc)
        return cli_usage("memory", "unexpected argument '%s'", argv[optind]);
    if (import)
        return memory_import(memory, file, force);
    ttt_store *store;
    ttt_error err;
    ttt_status st = ttt_store_open_existing(memory, &store, &err);
    if (st == TTT_ESTATE && stats) { /* nothing learnt yet, and nothing is created to say so */
        printf("memory: empty (%s)\n", err.msg);
        return CLI_OK;
    }
    if (st)
        return cli_store_error("memory", st, &err, memory != NULL, NULL);
    int rc;
    rc = stats ? memory_stats(store) : memory_export(store, out);
    ttt_store_close(store);
    return rc;
}
