/* cli/cmd_play.c - `ttt play`: a game in line mode (board as text, moves typed at a prompt). */
#define _GNU_SOURCE /* getopt_long */
#include <ctype.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"

/* The strongest engine there is: the default opponent. */
#define PLAY_DEFAULT_ENGINE "minimax"
#define HUMAN               "human"
#define LINE_MAX_LEN        256

static const char help[] =
    "usage: ttt play [--rules R] [--x SPEC|human] [--o SPEC|human] [--seed S]\n"
    "\n"
    "Plays one game. By default you are X (and move first) against the strongest engine.\n"
    "Type a move (b2, or 1-9 on 3x3) at the prompt; 'q' or end of input quits.\n"
    "\n"
    "  -r, --rules R     MxN[kK][-misere] (default 3x3)\n"
    "  -x, --x WHO       who plays X: 'human' or an engine spec (default human)\n"
    "  -o, --o WHO       who plays O: 'human' or an engine spec (default " PLAY_DEFAULT_ENGINE ")\n"
    "  -s, --seed S      seed for engines whose spec has no seed= (default: from the clock; printed)\n"
    "\n"
    "examples: ttt play\n"
    "          ttt play --rules 4x4k3 --x random --o human\n";

typedef struct player {
    const char *who; /* "human" or an engine spec */
    ttt_engine *engine;
} player;

/* Makes the engine for a side, giving it the session seed unless its spec names one. */
static int make_player(player *p, const char *who, const ttt_rules *rules, uint64_t seed)
{
    p->who = who;
    p->engine = NULL;
    if (strcmp(who, HUMAN) == 0)
        return CLI_OK;
    char spec[TTT_SPEC_TEXT_SIZE];
    if (strstr(who, "seed="))
        snprintf(spec, sizeof spec, "%s", who);
    else
        snprintf(spec, sizeof spec, "%s%cseed=%" PRIu64, who, strchr(who, ':') ? ',' : ':', seed);
    ttt_error err;
    ttt_status st = ttt_engine_new(spec, rules, &p->engine, &err);
    return st ? (st == TTT_EINVAL ? cli_usage("play", "%s", err.msg) : cli_runtime("play", "%s", err.msg))
              : CLI_OK;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* Asks until a legal move is typed. Returns false at end of input or on 'q'. */
static bool ask_move(const ttt_board *b, ttt_move *out)
{
    char line[LINE_MAX_LEN];
    for (;;) {
        printf("%s, your move (e.g. b2%s, q quits): ", ttt_board_to_move(b) == TTT_X ? "X" : "O",
               b->rules.rows == 3 && b->rules.cols == 3 ? " or 1-9" : "");
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin)) {
            putchar('\n');
            return false;
        }
        char *text = trim(line);
        if (!*text)
            continue;
        if (strcmp(text, "q") == 0 || strcmp(text, "quit") == 0)
            return false;
        ttt_error err;
        ttt_move m;
        ttt_board next;
        if (ttt_move_parse(text, &b->rules, &m, &err) == TTT_OK &&
            ttt_board_result(b, m, &next, &err) == TTT_OK) {
            *out = m;
            return true;
        }
        printf("%s\n", err.msg);
    }
}

int cmd_play(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"rules", required_argument, NULL, 'r'}, {"x", required_argument, NULL, 'x'},
        {"o", required_argument, NULL, 'o'},     {"seed", required_argument, NULL, 's'},
        {"help", no_argument, NULL, 'h'},        {NULL, 0, NULL, 0}};
    const char *rules_text = "3x3", *xwho = HUMAN, *owho = PLAY_DEFAULT_ENGINE;
    uint64_t seed = (uint64_t)time(NULL);
    optind = 0;
    opterr = 0;
    for (int c; (c = getopt_long(argc, argv, "+r:x:o:s:h", longopts, NULL)) != -1;) {
        switch (c) {
        case 'r': rules_text = optarg; break;
        case 'x': xwho = optarg; break;
        case 'o': owho = optarg; break;
        case 's': {
            char *end;
            seed = strtoull(optarg, &end, 10);
            if (!isdigit((unsigned char)*optarg) || *end)
                return cli_usage("play", "--seed '%s': expected an unsigned integer", optarg);
            break;
        }
        case 'h': fputs(help, stdout); return CLI_OK;
        default: return cli_bad_option("play", argc, argv);
        }
    }
    if (optind < argc)
        return cli_usage("play", "unexpected argument '%s'", argv[optind]);
    ttt_rules rules;
    ttt_error err;
    if (ttt_rules_parse(rules_text, &rules, &err))
        return cli_usage("play", "%s", err.msg);
    player players[2];
    int rc = make_player(&players[TTT_X], xwho, &rules, seed);
    if (rc == CLI_OK && (rc = make_player(&players[TTT_O], owho, &rules, seed + 1)) != CLI_OK)
        ttt_engine_free(players[TTT_X].engine);
    if (rc)
        return rc;
    char rt[TTT_RULES_TEXT_SIZE];
    printf("ttt %s: X is %s, O is %s (seed %" PRIu64 ")\n\n", ttt_rules_format(&rules, rt, sizeof rt), xwho,
           owho, seed);
    ttt_board b;
    ttt_board_init(&b, &rules);
    cli_draw_board(stdout, &b);
    bool quit = false;
    while (!ttt_board_terminal(&b) && !quit) {
        player *p = &players[ttt_board_to_move(&b)];
        ttt_move m;
        if (p->engine) {
            ttt_search_info info;
            if (ttt_engine_choose(p->engine, &b, &m, &info, &err)) {
                rc = cli_runtime("play", "%s", err.msg);
                break;
            }
            char name[TTT_MOVE_TEXT_SIZE];
            printf("\n%s (%s) plays %s\n", ttt_board_to_move(&b) == TTT_X ? "X" : "O",
                   ttt_engine_name(p->engine), ttt_move_format(&rules, m, name, sizeof name));
        } else if (!ask_move(&b, &m)) {
            quit = true;
            break;
        }
        ttt_board_play(&b, m);
        putchar('\n');
        cli_draw_board(stdout, &b);
    }
    if (quit)
        printf("game abandoned\n");
    ttt_engine_free(players[TTT_X].engine);
    ttt_engine_free(players[TTT_O].engine);
    return rc;
}
