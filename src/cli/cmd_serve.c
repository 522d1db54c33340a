/* cli/cmd_serve.c - `ttt serve`: the page and the JSON API over HTTP (src/web/). */
#define _GNU_SOURCE /* getopt_long */
#include <arpa/inet.h>
#include <getopt.h>
#include <libgen.h>
#include <netdb.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "web/engines.h"
#include "web/server.h"

#define SERVE_DEFAULT_HOST      "127.0.0.1"
#define SERVE_DEFAULT_PORT      8080
#define SERVE_MAX_PORT          65535
#define SERVE_MAX_GAMES         1000000       /* --max-games at most */
#define SERVE_MAX_IDLE_S        (86400 * 365) /* --idle-expiry at most: a year */
#define SERVE_MAX_CONNS         1000000 /* --max-connections at most (the open file limit bounds it too) */
#define SERVE_SPARE_FDS         64      /* files the server keeps open besides connections (database, ...) */
#define SERVE_ADDRESS_NOTE_SIZE 64      /* "on 127.0.0.1, " after the URL of a host name */
#define SERVE_MAX_TABLE_MIB     (1 << 20) /* --table-memory at most: 1 TiB */
/* --engine-budget at most: every engine slot for the whole window (more would be no budget at all). */
#define SERVE_MAX_BUDGET_MS (WEB_BUDGET_WINDOW_S * 1000 * WEB_MAX_ENGINE_JOBS)

static const char help[] =
    "usage: ttt serve [--host HOST] [--port N] [--db PATH] [--no-record] [--max-games N] [--idle-expiry S]\n"
    "                 [--max-connections N] [--per-address N] [--table-memory MIB] [--engine-budget MS]\n"
    "\n"
    "Serves the game page and its JSON API (README: 'ttt serve') until Ctrl-C or SIGTERM.\n"
    "Prints the URL once it listens.\n"
    "\n"
    "  -H, --host HOST      where to listen: an address or a name (default 127.0.0.1; localhost, ::1;\n"
    "                       0.0.0.0 or :: for every interface)\n"
    "  -p, --port N         port (default 8080; 0 picks a free one, printed in the URL)\n"
    "  -d, --db PATH        record finished games here (default $XDG_DATA_HOME/ttt/ttt.db; see ttt history)\n"
    "      --no-record      do not record the games\n"
    "      --max-games N    games kept in memory (default 1000; the least recently used idle one makes "
    "room)\n"
    "      --idle-expiry S  seconds after which an untouched game is dropped (default 1800)\n"
    "      --max-connections N\n"
    "                       open connections in all (default 1024; more wait to be accepted)\n"
    "      --per-address N  open connections from one client address (default 32; more are refused)\n"
    "                       and its API requests at once (8; more get 429); 0: no limits per address,\n"
    "                       e.g. behind a reverse proxy, where every request comes from the proxy\n"
    "      --table-memory MIB\n"
    "                       move tables (engine 'table') kept in memory, in all (default 256); one\n"
    "                       client address owns at most a quarter (the least recently used go first)\n"
    "      --engine-budget MS\n"
    "                       engine milliseconds one client address may use per minute (default 120000:\n"
    "                       two engines thinking all the time; more gets 429; 0: no budget)\n"
    "\n"
    "A request's head and body must arrive within 10 s. Failures that no answer carries (a finished\n"
    "game that could not be recorded, or not learned) are reported on stderr.\n"
    "\n"
    "example: ttt serve --port 8080, then open http://127.0.0.1:8080/\n";

/* cli_parse_uint into an int (max at most INT_MAX). */
static int parse_int(const char *option, const char *text, int min, int max, const char *what, int *out)
{
    uint64_t v;
    if (cli_parse_uint("serve", option, text, (uint64_t)min, (uint64_t)max, what, &v))
        return CLI_USAGE;
    *out = (int)v;
    return CLI_OK;
}

/* The server's log (web_log_fn): one line on stderr with the time. */
static void serve_log(void *ctx, const char *line)
{
    (void)ctx;
    char stamp[32];
    time_t now = time(NULL);
    struct tm tm;
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
    fprintf(stderr, "%s ttt serve: %s\n", stamp, line);
}

/* Makes room for max_connections open connections besides SERVE_SPARE_FDS other files: raises the soft open
 * file limit up to the hard one. Returns false with the most that fit in *fit when even that is too low
 * (then the limit is as high as it goes). */
static bool room_for_connections(unsigned max_connections, unsigned *fit)
{
    struct rlimit lim;
    if (getrlimit(RLIMIT_NOFILE, &lim) != 0)
        return true; /* unknown: the daemon refuses connections it has no descriptor for */
    rlim_t need = (rlim_t)max_connections + SERVE_SPARE_FDS;
    if (lim.rlim_cur != RLIM_INFINITY && lim.rlim_cur < need) {
        lim.rlim_cur = lim.rlim_max == RLIM_INFINITY || lim.rlim_max > need ? need : lim.rlim_max;
        setrlimit(RLIMIT_NOFILE, &lim);
        getrlimit(RLIMIT_NOFILE, &lim);
    }
    if (lim.rlim_cur != RLIM_INFINITY && lim.rlim_cur < need) {
        *fit = lim.rlim_cur > SERVE_SPARE_FDS ? (unsigned)(lim.rlim_cur - SERVE_SPARE_FDS) : 0;
        return false;
    }
    return true;
}

/* A path the store can write: an existing writable regular file, or a new name in a writable directory. */
static bool writable_path(const char *path, char *why, size_t size)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        if (!S_ISREG(st.st_mode))
            return snprintf(why, size, "not a regular file"), false;
        if (access(path, W_OK) != 0)
            return snprintf(why, size, "not writable"), false;
        return true;
    }
    char *copy = strdup(path);
    if (!copy)
        return snprintf(why, size, "out of memory"), false;
    const char *dir = dirname(copy);
    bool ok = stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && access(dir, W_OK | X_OK) == 0;
    if (!ok)
        snprintf(why, size, "directory '%s' does not exist or is not writable", dir);
    free(copy);
    return ok;
}

int cmd_serve(int argc, char **argv)
{
    enum {
        OPT_MAX_GAMES = 256,
        OPT_IDLE_EXPIRY,
        OPT_NO_RECORD,
        OPT_MAX_CONNS,
        OPT_PER_ADDRESS,
        OPT_TABLE_MEMORY,
        OPT_ENGINE_BUDGET
    };
    static const struct option longopts[] = {{"host", required_argument, NULL, 'H'},
                                             {"port", required_argument, NULL, 'p'},
                                             {"db", required_argument, NULL, 'd'},
                                             {"no-record", no_argument, NULL, OPT_NO_RECORD},
                                             {"max-games", required_argument, NULL, OPT_MAX_GAMES},
                                             {"idle-expiry", required_argument, NULL, OPT_IDLE_EXPIRY},
                                             {"max-connections", required_argument, NULL, OPT_MAX_CONNS},
                                             {"per-address", required_argument, NULL, OPT_PER_ADDRESS},
                                             {"table-memory", required_argument, NULL, OPT_TABLE_MEMORY},
                                             {"engine-budget", required_argument, NULL, OPT_ENGINE_BUDGET},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    web_server_config config = {.host = SERVE_DEFAULT_HOST,
                                .port = SERVE_DEFAULT_PORT,
                                .max_connections = WEB_MAX_CONNECTIONS_DEFAULT,
                                .max_per_address = WEB_PER_ADDRESS_DEFAULT,
                                .api = {.max_games = WEB_MAX_GAMES_DEFAULT,
                                        .idle_expiry_s = WEB_IDLE_EXPIRY_S_DEFAULT,
                                        .table_mib = WEB_TABLE_MIB_DEFAULT,
                                        .engine_budget_ms = WEB_BUDGET_MS_DEFAULT,
                                        .store = NULL,
                                        .log = serve_log}};
    int max_conns = WEB_MAX_CONNECTIONS_DEFAULT, per_address = WEB_PER_ADDRESS_DEFAULT;
    bool conns_given = false;
    const char *db_path = NULL;
    bool record = true;
    optind = 0;
    for (int c; (c = cli_getopt("serve", argc, argv, "H:p:d:h", longopts)) != -1;) {
        switch (c) {
        case 'H': config.host = optarg; break;
        case 'p':
            if (parse_int("--port", optarg, 0, SERVE_MAX_PORT, "a port", &config.port))
                return CLI_USAGE;
            break;
        case 'd': db_path = optarg; break;
        case OPT_NO_RECORD: record = false; break;
        case OPT_MAX_GAMES:
            if (parse_int("--max-games", optarg, 1, SERVE_MAX_GAMES, "a number of games",
                          &config.api.max_games))
                return CLI_USAGE;
            break;
        case OPT_IDLE_EXPIRY:
            if (parse_int("--idle-expiry", optarg, 1, SERVE_MAX_IDLE_S, "seconds", &config.api.idle_expiry_s))
                return CLI_USAGE;
            break;
        case OPT_MAX_CONNS:
            if (parse_int("--max-connections", optarg, 1, SERVE_MAX_CONNS, "a number of connections",
                          &max_conns))
                return CLI_USAGE;
            conns_given = true;
            break;
        case OPT_PER_ADDRESS:
            if (parse_int("--per-address", optarg, 0, SERVE_MAX_CONNS, "a number of connections",
                          &per_address))
                return CLI_USAGE;
            break;
        case OPT_TABLE_MEMORY:
            if (parse_int("--table-memory", optarg, 1, SERVE_MAX_TABLE_MIB, "MiB", &config.api.table_mib))
                return CLI_USAGE;
            break;
        case OPT_ENGINE_BUDGET:
            if (parse_int("--engine-budget", optarg, 0, SERVE_MAX_BUDGET_MS, "milliseconds",
                          &config.api.engine_budget_ms))
                return CLI_USAGE;
            break;
        case 'h': fputs(help, stdout); return CLI_OK;
        default: return CLI_USAGE;
        }
    }
    if (optind < argc)
        return cli_usage("serve", "unexpected argument '%s'", argv[optind]);
    char host_err[256];
    struct addrinfo *addresses = web_host_resolve(config.host, host_err, sizeof host_err);
    if (!addresses)
        return cli_usage("serve", "%s", host_err);
    freeaddrinfo(addresses);
    config.max_connections = (unsigned)max_conns;
    config.max_per_address = (unsigned)per_address;
    if (!per_address) { /* behind a proxy every request is one client's: no share, no budget of its own */
        config.api.table_shares = 1;
        config.api.engine_budget_ms = 0;
    }
    unsigned fit;
    if (!room_for_connections(config.max_connections, &fit)) {
        if (conns_given || fit == 0)
            return cli_runtime("serve", "%d connections: the open file limit allows at most %u (ulimit -n)",
                               max_conns, fit);
        fprintf(stderr, "ttt serve: at most %u connections, as the open file limit allows (ulimit -n)\n",
                fit);
        config.max_connections = fit;
    }
    char why[256];
    if (cli_check_db("serve", db_path))
        return CLI_USAGE;
    if (db_path && !writable_path(db_path, why, sizeof why))
        return cli_usage("serve", "database '%s': %s", db_path, why);
    ttt_error store_err;
    ttt_status store_st;
    /* Lazily: the file (and the default path's directories) is made by the first game recorded. */
    if (record && (store_st = ttt_store_open_lazy(db_path, &config.api.store, &store_err)) != TTT_OK)
        return cli_store_error("serve", store_st, &store_err, db_path != NULL,
                               "--no-record to serve without");

    /* SIGINT and SIGTERM are blocked before the server's threads start (they inherit the mask), so that only
     * this thread receives them, in sigwait. */
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
    signal(SIGPIPE, SIG_IGN);

    char err[256];
    web_server *server = web_server_start(&config, err, sizeof err);
    if (!server) {
        ttt_store_close(config.api.store);
        return cli_runtime("serve", "%s", err);
    }
    bool v6 = strchr(config.host, ':') != NULL;
    const char *address = web_server_address(server);
    char on[SERVE_ADDRESS_NOTE_SIZE] = "";
    if (strcmp(address, config.host) != 0) /* a name: say which of its addresses */
        snprintf(on, sizeof on, "on %s, ", address);
    printf("ttt serve: http://%s%s%s:%d/ (%sCtrl-C to stop)\n", v6 ? "[" : "", config.host, v6 ? "]" : "",
           web_server_port(server), on);
    fflush(stdout);
    int sig = 0;
    sigwait(&stop_signals, &sig);
    web_server_stop(server);
    ttt_store_close(config.api.store);
    printf("ttt serve: stopped (%s)\n", sig == SIGINT ? "interrupt" : "terminated");
    return CLI_OK;
}
