/* cli/cmd_history.c - `ttt history`: the recorded games of the database (ttt/store.h), and replays. */
#define _GNU_SOURCE /* getopt_long */
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"

#define HISTORY_DEFAULT_LIMIT 20
#define HISTORY_MAX_LIMIT     1000000
#define HISTORY_TIME_SIZE     32

static const char help[] =
    "usage: ttt history [--db PATH] [--limit N] [--show ID] [--json]\n"
    "\n"
    "The finished games recorded in the database, newest first, or one game replayed move by move.\n"
    "('ttt train' does not record its games here: they would flood the list.)\n"
    "\n"
    "  -d, --db PATH      the database (default $XDG_DATA_HOME/ttt/ttt.db, else\n"
    "                     ~/.local/share/ttt/ttt.db); --memory PATH is the same\n"
    "  -n, --limit N      how many games to list (default 20, 0 for all)\n"
    "      --show ID      replay game ID: the board after every move\n"
    "      --json         one JSON object per game (with --show: the game)\n"
    "\n"
    "examples: ttt history\n"
    "          ttt history --show 12\n";

static const char *when(int64_t t, char *buf, size_t size)
{
    time_t tt = (time_t)t;
    struct tm tm;
    if (!localtime_r(&tt, &tm) || !strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm))
        snprintf(buf, size, "%" PRId64, t);
    return buf;
}

static void print_json(const ttt_game_record *g)
{
    json_t *o = json_pack("{s:I, s:I, s:I, s:s, s:s, s:s, s:s, s:s}", "id", (json_int_t)g->id, "started",
                          (json_int_t)g->started, "ended", (json_int_t)g->ended, "rules", g->rules, "x", g->x,
                          "o", g->o, "moves", g->moves, "result", g->result);
    if (o)
        json_dumpf(o, stdout, JSON_PRESERVE_ORDER | JSON_COMPACT);
    putchar('\n');
    json_decref(o);
}

/* "X won", "O won" or "draw", for a stored result "x", "o" or "draw". */
static const char *result_text(const char *result)
{
    return strcmp(result, "x") == 0 ? "X won" : strcmp(result, "o") == 0 ? "O won" : result;
}

/* The listing is a table: the widths of its columns are measured over the games listed (a first pass), a
 * player's column kept to HISTORY_PLAYER_WIDTH at most so that one long spec does not push every row. */
#define HISTORY_PLAYER_WIDTH 24
enum { COL_ID, COL_RULES, COL_RESULT, COL_X, COL_O, NCOLS };
static const char *const column_names[NCOLS] = {"game", "rules", "result", "X", "O"};

typedef struct listing {
    bool json, measure;
    int width[NCOLS];
} listing;

static void widen(int *width, int len, int cap)
{
    if (len > *width)
        *width = len < cap ? len : cap;
}

static int list_one(const ttt_game_record *g, void *user)
{
    listing *l = user;
    if (l->json) {
        print_json(g);
        return 0;
    }
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, g->id);
    if (l->measure) {
        widen(&l->width[COL_ID], (int)strlen(id), INT32_MAX);
        widen(&l->width[COL_RULES], (int)strlen(g->rules), INT32_MAX);
        widen(&l->width[COL_RESULT], (int)strlen(result_text(g->result)), INT32_MAX);
        widen(&l->width[COL_X], (int)strlen(g->x), HISTORY_PLAYER_WIDTH);
        widen(&l->width[COL_O], (int)strlen(g->o), HISTORY_PLAYER_WIDTH);
        return 0;
    }
    char t[HISTORY_TIME_SIZE];
    const int *w = l->width;
    printf("%*s  %s  %-*s  %-*s  %-*s  %-*s  %s\n", w[COL_ID], id, when(g->ended, t, sizeof t), w[COL_RULES],
           g->rules, w[COL_RESULT], result_text(g->result), w[COL_X], g->x, w[COL_O], g->o, g->moves);
    return 0;
}

/* The header of the table, over the columns as list_one measured them. */
static void list_header(const listing *l)
{
    const int *w = l->width;
    printf("%*s  %-*s  %-*s  %-*s  %-*s  %-*s  moves\n", w[COL_ID], column_names[COL_ID],
           (int)strlen("2026-01-01 12:00:00"), "ended", w[COL_RULES], column_names[COL_RULES], w[COL_RESULT],
           column_names[COL_RESULT], w[COL_X], column_names[COL_X], w[COL_O], column_names[COL_O]);
}

static int show_game(ttt_store *store, int64_t id, bool json)
{
    ttt_game_record g;
    ttt_error err;
    ttt_status st = ttt_store_get_game(store, id, &g, &err);
    if (st)
        return cli_status_exit(st) == CLI_USAGE ? cli_usage("history", "%s", err.msg)
                                                : cli_runtime("history", "%s", err.msg);
    if (json) {
        print_json(&g);
        return CLI_OK;
    }
    ttt_rules rules;
    ttt_move moves[TTT_MAX_CELLS];
    int n;
    ttt_board b;
    if (ttt_rules_parse(g.rules, &rules, &err) ||
        ttt_moves_parse(g.moves, &rules, moves, TTT_MAX_CELLS, &n, &err))
        return cli_runtime("history", "game %" PRId64 " is damaged: %s", id, err.msg);
    char t[HISTORY_TIME_SIZE];
    printf("game %" PRId64 ", %s, %s: X %s, O %s\n\n", g.id, when(g.ended, t, sizeof t), g.rules, g.x, g.o);
    ttt_board_init(&b, &rules);
    for (int i = 0; i < n; i++) {
        if (ttt_board_play_checked(&b, moves[i], &err))
            return cli_runtime("history", "game %" PRId64 " is damaged: move %d: %s", id, i + 1, err.msg);
        char mt[TTT_MOVE_TEXT_SIZE];
        printf("%d. %s %s\n", i + 1, i % 2 ? "O" : "X", ttt_move_format(&rules, moves[i], mt, sizeof mt));
        cli_draw_board(stdout, &b);
        putchar('\n');
    }
    return CLI_OK;
}

int cmd_history(int argc, char **argv)
{
    static const struct option longopts[] = {{"db", required_argument, NULL, 'd'},
                                             {"memory", required_argument, NULL, 'd'},
                                             {"limit", required_argument, NULL, 'n'},
                                             {"show", required_argument, NULL, 'S'},
                                             {"json", no_argument, NULL, 'j'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    const char *memory = NULL;
    uint64_t limit = HISTORY_DEFAULT_LIMIT, show = 0;
    bool json = false, have_show = false;
    optind = 0;
    for (int c; (c = cli_getopt("history", argc, argv, "d:n:h", longopts)) != -1;) {
        switch (c) {
        case 'd': memory = optarg; break;
        case 'n':
            if (cli_parse_uint("history", "--limit", optarg, 0, HISTORY_MAX_LIMIT, "a number of games",
                               &limit))
                return CLI_USAGE;
            break;
        case 'S':
            if (cli_parse_uint("history", "--show", optarg, 1, INT64_MAX, "a game id", &show))
                return CLI_USAGE;
            have_show = true;
            break;
        case 'j': json = true; break;
        case 'h': fputs(help, stdout); return CLI_OK;
        default: return CLI_USAGE;
        }
    }
    if (optind < argc)
        return cli_usage("history", "unexpected argument '%s'", argv[optind]);
    if (cli_check_db("history", memory))
        return CLI_USAGE;
    ttt_store *store;
    ttt_error err;
    ttt_status st = ttt_store_open_existing(memory, &store, &err);
    if (st == TTT_ESTATE && !have_show) { /* nothing recorded yet, and nothing is created to say so */
        if (!json)
            printf("no games recorded (%s)\n", err.msg);
        return CLI_OK;
    }
    if (st)
        return cli_store_error("history", st, &err, memory != NULL, NULL);
    int rc = CLI_OK;
    if (have_show)
        rc = show_game(store, (int64_t)show, json);
    else {
        int64_t count = 0;
        listing l = {.json = json, .measure = !json};
        for (int c = 0; c < NCOLS; c++)
            l.width[c] = (int)strlen(column_names[c]);
        if (ttt_store_count_games(store, &count, &err) ||
            (!json && ttt_store_list_games(store, (int)limit, list_one, &l, &err)))
            rc = cli_runtime("history", "%s", err.msg);
        else if (count == 0 && !json)
            printf("no games recorded in %s\n", ttt_store_path(store));
        else {
            if (!json)
                list_header(&l);
            l.measure = false;
            if (ttt_store_list_games(store, (int)limit, list_one, &l, &err))
                rc = cli_runtime("history", "%s", err.msg);
        }
    }
    ttt_store_close(store);
    return rc;
}
