/*
 * cli/cmd_play.c - `ttt play`: options, then one of three front ends over a ttt_game session: the terminal UI
 * (cli/tui.c, when stdin and stdout are a terminal), the line mode (board as text, moves typed at a prompt;
 * also how scripts drive a game), and engine-only matches with a summary (--games N).
 */
#define _GNU_SOURCE /* getopt_long */
#include <ctype.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/play.h"
#include "cli/tui.h"

/* The default opponent: the strongest level. */
#define PLAY_DEFAULT_LEVEL "perfect"
#define LINE_MAX_LEN       256
/* Line mode's board with hints: cells this wide ("W12*"), and the legend's text. */
#define PLAY_HINT_CELL_W 4
#define LINE_LEGEND_SIZE 256
/* The most games one command plays. */
#define PLAY_MAX_GAMES 10000000

static const char help[] =
    "usage: ttt play [--rules R] [--x SPEC|human] [--o SPEC|human] [--level LEVEL] [--games N] [--plain]\n"
    "                [--db PATH] [--record | --no-record]\n"
    "\n"
    "Plays tic-tac-toe or an m,n,k-game. By default you are X (and move first) against the perfect engine.\n"
    "Naming one side picks the other: --x ENGINE makes you O, --o human (or --x human) leaves the other "
    "side\n"
    "to the level's engine; name both for two people (human, human) or two engines.\n"
    "\n"
    "On a terminal it is a full-screen game: arrows, WASD, or j k l (H for left) move the cursor, Enter or\n"
    "Space plays, and so does a click; 1-9 play a cell of 3x3; u undo, h hints, n new game (sides\n"
    "swapped), ? help, q quit; between two engines p pauses and . plays one move. An unknown TERM falls\n"
    "back to the line mode.\n"
    "Otherwise (or with --plain) it reads moves at a prompt: b2 (or 1-9 on 3x3); u undo, h hints, ? help,\n"
    "q or end of input quits.\n"
    "\n"
    "  -r, --rules R     MxN[kK][-misere] (default 3x3)\n"
    "  -x, --x WHO       who plays X: 'human' or an engine spec or level (default human)\n"
    "  -o, --o WHO       who plays O: 'human' or an engine spec or level (default: the level's engine)\n"
    "  -l, --level L     the engine's strength: easy, medium, hard or perfect (default " PLAY_DEFAULT_LEVEL
    ")\n"
    "  -g, --games N     play N games, sides swapped after each; two engines print a win/draw/loss summary\n"
    "      --plain       line mode even on a terminal\n"
    "  -v, --verbose     the engines' full specs in the header; with two engines and --games: one line per\n"
    "                    game\n"
    "  -s, --seed S      seed for engines whose spec has no seed= (default: from the clock; printed)\n"
    "  -d, --db PATH     record finished games here (default $XDG_DATA_HOME/ttt/ttt.db; see ttt history)\n"
    "      --no-record   do not record the games\n"
    "      --record      record games between two engines too (by default only games with a person are)\n"
    "\n"
    "examples: ttt play\n"
    "          ttt play --level easy --rules 4x4k3\n"
    "          ttt play --x hard --o random --games 1000\n";

static const char line_help[] =
    "moves: a column letter and a row number (b2), or 1-9 on 3x3\n"
    "  u  take back your last move (and the engine's reply)\n"
    "  h  hints on/off: every empty cell's value on the board before each of your\n"
    "     moves, the best marked " PLAY_BEST_MARK ", with a legend of the values shown\n"
    "  ?  this help\n"
    "  q  quit (so does the end of input)\n";

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

static const char *side_name(ttt_player p) { return p == TTT_X ? "X" : "O"; }

/* Who plays: "X is you, O is perfect"; verbose adds an engine's full spec where the name does not say it all
 * ("O is perfect = minimax:time=1000,...,seed=7"). */
static void print_players(ttt_game *g, bool verbose)
{
    for (ttt_player s = TTT_X; s <= TTT_O; s++) {
        ttt_game_player *p = ttt_game_side(g, s);
        if (p->engine)
            printf("%s is %s%s%s%s", side_name(s), p->who, verbose && strcmp(p->who, p->spec) ? " = " : "",
                   verbose && strcmp(p->who, p->spec) ? p->spec : "", s == TTT_X ? ", " : "\n");
        else
            printf("%s is %s%s", side_name(s), ttt_game_humans(g) == 1 ? "you" : TTT_HUMAN,
                   s == TTT_X ? ", " : "\n");
    }
}

/* The board of the turn: stones and dots; with a hint (not NULL), every empty cell's value in wider cells
 * and the best move marked with PLAY_BEST_MARK. */
static void print_board(const ttt_game *g, const ttt_analysis *hint)
{
    const ttt_rules *r = &g->rules;
    char text[TTT_MAX_CELLS][PLAY_EVAL_TEXT_SIZE + sizeof PLAY_BEST_MARK];
    for (int c = 0; c < g->board.cells; c++)
        snprintf(text[c], sizeof text[c], "%s",
                 ttt_board_at(&g->board, c) == TTT_X   ? "X"
                 : ttt_board_at(&g->board, c) == TTT_O ? "O"
                                                       : ".");
    int width = 1;
    if (hint) {
        width = PLAY_HINT_CELL_W;
        for (int i = 0; i < hint->count; i++)
            play_eval_text(&hint->moves[i], PLAY_DIGITS, text[hint->moves[i].move], PLAY_EVAL_TEXT_SIZE);
        if (hint->count)
            strcat(text[hint->moves[0].move], PLAY_BEST_MARK);
    }
    printf("\n    ");
    for (int c = 0; c < r->cols; c++) /* no padding after the last column */
        printf(" %-*c", c < r->cols - 1 ? width : 1, 'a' + c);
    putchar('\n');
    for (int row = 0; row < r->rows; row++) {
        printf(" %2d ", row + 1);
        for (int c = 0; c < r->cols; c++)
            printf(" %-*s", c < r->cols - 1 ? width : 1, text[row * r->cols + c]);
        putchar('\n');
    }
}

/* The status line of a finished game: "X wins (line a1 b1 c1)", "draw: the board is full". */
static void print_result(const ttt_game *g)
{
    char status[128];
    printf("%s", cli_status_line(&g->board, status, sizeof status));
    ttt_move line[TTT_MAX_SIDE];
    int n = ttt_board_line_cells(&g->board, line);
    for (int i = 0; i < n; i++) {
        char m[TTT_MOVE_TEXT_SIZE];
        printf("%s%s", i ? " " : " (line ", ttt_move_format(&g->rules, line[i], m, sizeof m));
    }
    printf("%s\n", n ? ")" : "");
}

/* The line a parse failure prints: the library's reason, or a plain "not a move" for text that is not one. */
static void print_bad_move(const ttt_rules *r, const char *text, const ttt_error *err)
{
    if (strstr(err->msg, "expected a column letter") || strstr(err->msg, "no row number") ||
        strstr(err->msg, "a column is one letter"))
        printf("not a move: '%.16s' (expected a1..%c%d%s; u h ? q)\n", text, 'a' + r->cols - 1, r->rows,
               r->rows == 3 && r->cols == 3 ? " or 1-9" : "");
    else
        printf("%s\n", err->msg);
}

typedef enum turn_result { TURN_MOVED, TURN_QUIT, TURN_REDRAW } turn_result;

/* A person's turn: asks until a legal move is typed, or u/h/? are handled. TURN_REDRAW: the board is to be
 * shown again (after an undo, or hints turned on) before the next prompt. */
static turn_result human_turn(ttt_game *g, bool *hints)
{
    char line[LINE_MAX_LEN];
    for (;;) {
        const ttt_rules *r = &g->rules;
        printf("%s, your move (b2%s; u undo, h hints %s, ? help, q quit): ",
               side_name(ttt_board_to_move(&g->board)), r->rows == 3 && r->cols == 3 ? " or 1-9" : "",
               *hints ? "off" : "on");
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin)) {
            putchar('\n');
            return TURN_QUIT;
        }
        if (!strchr(line, '\n') && !feof(stdin)) { /* a line too long for the buffer: drop the rest */
            int ch;
            while ((ch = getchar()) != EOF && ch != '\n')
                ;
            printf("not a move: the line is longer than %d characters\n", LINE_MAX_LEN - 2);
            continue;
        }
        char *text = trim(line);
        if (!*text)
            continue;
        if (strcmp(text, "q") == 0 || strcmp(text, "quit") == 0)
            return TURN_QUIT;
        if (strcmp(text, "?") == 0 || strcmp(text, "help") == 0) {
            fputs(line_help, stdout);
            continue;
        }
        if (strcmp(text, "h") == 0 || strcmp(text, "hint") == 0) {
            *hints = !*hints;
            if (*hints)
                return TURN_REDRAW;
            printf("hints off\n");
            continue;
        }
        if (strcmp(text, "u") == 0 || strcmp(text, "undo") == 0) {
            int n = ttt_game_undo(g);
            if (n == 0) {
                printf("nothing to undo\n");
                continue;
            }
            printf("took back %d move%s\n", n, n == 1 ? "" : "s");
            return TURN_REDRAW;
        }
        ttt_error err;
        ttt_move m;
        if (ttt_move_parse(text, r, &m, &err)) {
            print_bad_move(r, text, &err);
            continue;
        }
        if (ttt_game_play(g, m, &err)) {
            printf("%s\n", err.msg);
            continue;
        }
        return TURN_MOVED;
    }
}

/* One game in line mode: one board per turn (before a person's prompt, after each move of an engine playing
 * an engine, at the end; none before an engine's first move), the engine's move on one line under it, and one status line: the prompt, or the
 * result. Returns false when the player quit. */
static bool line_game(ttt_game *g, const play_config *cfg, play_hinter *hinter, bool *hints, int *rc)
{
    char said[TTT_SPEC_TEXT_SIZE + 64] = ""; /* the engine's last move, shown under the next board */
    bool redraw = true;
    for (;;) {
        bool over = ttt_board_terminal(&g->board);
        ttt_engine *e = ttt_game_engine_to_move(g);
        /* An empty board says nothing before an engine's first move: its move comes with the first board. */
        bool empty = g->board.ply == 0;
        if ((over || !e || ttt_game_humans(g) == 0 || redraw) && !(e && empty)) {
            ttt_analysis a;
            ttt_error err;
            bool hinted = *hints && !over && !e;
            if (hinted && play_hint(hinter, g, cfg->seed, &a, &err)) {
                printf("no hint: %s\n", err.msg);
                hinted = false;
            }
            print_board(g, hinted ? &a : NULL);
            if (*said)
                printf("%s\n", said);
            said[0] = '\0';
            if (hinted) {
                char legend[LINE_LEGEND_SIZE];
                printf("hint for %s (%s): %s\n", side_name(ttt_board_to_move(&g->board)), a.method,
                       play_hint_legend(&g->rules, &a, PLAY_DIGITS, PLAY_BEST_MARK, legend, sizeof legend));
            }
            redraw = false;
        }
        if (over) {
            print_result(g);
            return true;
        }
        if (e) {
            ttt_player side = ttt_board_to_move(&g->board);
            ttt_error err;
            ttt_move m;
            if (ttt_engine_choose(e, &g->board, &m, NULL, &err) || ttt_game_play(g, m, &err)) {
                *rc = cli_runtime("play", "%s", err.msg);
                return true;
            }
            char name[TTT_MOVE_TEXT_SIZE];
            snprintf(said, sizeof said, "%s (%s) plays %s", side_name(side), ttt_game_side(g, side)->who,
                     ttt_move_format(&g->rules, m, name, sizeof name));
            continue;
        }
        turn_result t = human_turn(g, hints);
        if (t == TURN_QUIT)
            return false;
        redraw = t == TURN_REDRAW;
    }
}

/* Line mode: the games of the session in turn. Returns the exit status. */
static int line_mode(ttt_game *g, const play_config *cfg)
{
    play_hinter hinter = {0};
    int games = cfg->games ? cfg->games : 1, rc = CLI_OK, unsaved = 0;
    bool quit = false, hints = false;
    for (int n = 1; n <= games && !quit && rc == CLI_OK; n++) {
        if (n > 1) {
            ttt_game_next(g, true);
            printf("\ngame %d of %d, sides swapped: ", n, games);
            print_players(g, cfg->verbose);
        }
        quit = !line_game(g, cfg, &hinter, &hints, &rc);
        if (ttt_board_terminal(&g->board)) {
            ttt_error err;
            if (play_finished(g, cfg, &err)) {
                fprintf(stderr, "ttt play: %s\n", err.msg);
                unsaved++;
            }
            if (games > 1) {
                char score[PLAY_SCORE_TEXT_SIZE];
                printf("score after %d game%s: %s\n", n, n == 1 ? "" : "s",
                       play_score_text(g, score, sizeof score));
            }
        }
    }
    if (quit) {
        printf("game abandoned\n");
        play_print_session_score(g); /* as the terminal UI leaves it */
    }
    play_hinter_free(&hinter);
    return rc == CLI_OK && unsaved ? play_unsaved_exit(unsaved) : rc;
}

/* Two engines, cfg->games games with the sides swapped after each: a summary (and with --verbose a line per
 * game). Returns the exit status. */
static int engine_match(ttt_game *g, const play_config *cfg)
{
    char rt[TTT_RULES_TEXT_SIZE];
    int unsaved = 0;
    for (int n = 1; n <= cfg->games; n++) {
        if (n > 1)
            ttt_game_next(g, true);
        ttt_error err;
        while (!ttt_board_terminal(&g->board)) {
            ttt_move m;
            if (ttt_engine_choose(ttt_game_engine_to_move(g), &g->board, &m, NULL, &err) ||
                ttt_game_play(g, m, &err))
                return cli_runtime("play", "game %d: %s", n, err.msg);
        }
        if (play_finished(g, cfg, &err)) {
            fprintf(stderr, "ttt play: game %d: %s\n", n, err.msg);
            unsaved++;
        }
        if (cfg->verbose) {
            printf("game %d: X %s, O %s:", n, ttt_game_side(g, TTT_X)->who, ttt_game_side(g, TTT_O)->who);
            for (int i = 0; i < g->count; i++) {
                char name[TTT_MOVE_TEXT_SIZE];
                printf(" %s", ttt_move_format(&g->rules, g->moves[i], name, sizeof name));
            }
            char status[128];
            printf(": %s\n", cli_status_line(&g->board, status, sizeof status));
        }
    }
    printf("%d game%s of %s, sides swapped after every game (seed %" PRIu64 "):\n", cfg->games,
           cfg->games == 1 ? "" : "s", ttt_rules_format(&g->rules, rt, sizeof rt), cfg->seed);
    char a[TTT_SPEC_TEXT_SIZE + 8], b[TTT_SPEC_TEXT_SIZE + 8];
    play_player_name(g, 0, a, sizeof a);
    play_player_name(g, 1, b, sizeof b);
    char wa[CLI_COUNTED_SIZE], wb[CLI_COUNTED_SIZE], dr[CLI_COUNTED_SIZE];
    printf("%s: %s, %s: %s, %s\n", a, cli_counted((uint64_t)g->players[0].wins, "win", "wins", wa, sizeof wa),
           b, cli_counted((uint64_t)g->players[1].wins, "win", "wins", wb, sizeof wb),
           cli_counted((uint64_t)g->draws, "draw", "draws", dr, sizeof dr));
    for (int i = 0; i < 2; i++) {
        const ttt_game_player *p = &g->players[i];
        printf("  %s (%s): as X %d won, %d drawn, %d lost; as O %d won, %d drawn, %d lost\n", i ? b : a,
               p->spec, p->won_as[TTT_X], p->drawn_as[TTT_X], p->lost_as[TTT_X], p->won_as[TTT_O],
               p->drawn_as[TTT_O], p->lost_as[TTT_O]);
    }
    return unsaved ? play_unsaved_exit(unsaved) : CLI_OK;
}

/* True when the full-screen UI can run: stdin and stdout are a terminal that is not "dumb". */
static bool can_use_tui(void)
{
    const char *term = getenv("TERM");
    return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) && term && *term && strcmp(term, "dumb") != 0;
}

int cmd_play(int argc, char **argv)
{
    static const struct option longopts[] = {{"rules", required_argument, NULL, 'r'},
                                             {"x", required_argument, NULL, 'x'},
                                             {"o", required_argument, NULL, 'o'},
                                             {"level", required_argument, NULL, 'l'},
                                             {"games", required_argument, NULL, 'g'},
                                             {"plain", no_argument, NULL, 'p'},
                                             {"verbose", no_argument, NULL, 'v'},
                                             {"seed", required_argument, NULL, 's'},
                                             {"help", no_argument, NULL, 'h'},
                                             {"db", required_argument, NULL, 'd'},
                                             {"no-record", no_argument, NULL, 'N'},
                                             {"record", no_argument, NULL, 'R'},
                                             {NULL, 0, NULL, 0}};
    const char *rules_text = "3x3", *xwho = NULL, *owho = NULL, *level = PLAY_DEFAULT_LEVEL;
    play_config cfg = {.games = 0, .verbose = false, .seed = (uint64_t)time(NULL)};
    bool plain = false, record = true, record_engines = false, level_given = false;
    const char *db = NULL;
    optind = 0;
    for (int c; (c = cli_getopt("play", argc, argv, "r:x:o:l:g:vs:d:h", longopts)) != -1;) {
        switch (c) {
        case 'r': rules_text = optarg; break;
        case 'x': xwho = optarg; break;
        case 'o': owho = optarg; break;
        case 'l':
            if (!ttt_level_find(optarg, strlen(optarg))) {
                enum { MAX_LEVELS = 16 };
                const char *names[MAX_LEVELS];
                int n = 0;
                for (; n < ttt_level_count() && n < MAX_LEVELS; n++)
                    names[n] = ttt_level_at(n)->name;
                char hint[CLI_HINT_SIZE];
                return cli_usage("play", "--level '%s': expected easy, medium, hard or perfect%s", optarg,
                                 cli_did_you_mean(optarg, names, n, hint, sizeof hint));
            }
            level = optarg;
            level_given = true;
            break;
        case 'g': {
            uint64_t n;
            if (cli_parse_uint("play", "--games", optarg, 1, PLAY_MAX_GAMES, "a number of games", &n))
                return CLI_USAGE;
            cfg.games = (int)n;
            break;
        }
        case 'p': plain = true; break;
        case 'v': cfg.verbose = true; break;
        case 'd': db = optarg; break;
        case 'N': record = false; break;
        case 'R': record_engines = true; break;
        case 's':
            if (cli_parse_uint("play", "--seed", optarg, 0, UINT64_MAX, "a whole number", &cfg.seed))
                return CLI_USAGE;
            break;
        case 'h':
            fputs(help, stdout);
            printf("\nlevels (engine specs too: --o hard, ttt move --engine easy):\n");
            for (int i = 0; i < ttt_level_count(); i++)
                printf("  %-8s %-28s %s\n", ttt_level_at(i)->name, ttt_level_at(i)->spec,
                       ttt_level_at(i)->about);
            return CLI_OK;
        default: return CLI_USAGE;
        }
    }
    if (optind < argc)
        return cli_usage("play", "unexpected argument '%s'", argv[optind]);
    /* Naming one side picks the other: an engine's opponent is you, a person's is the level's engine. */
    /* The level only picks the engine of a side nobody named: say which option wins when both name it. */
    if (level_given && xwho && owho)
        fprintf(stderr, "ttt play: warning: --level %s is ignored: --x %s and --o %s name both players\n",
                level, xwho, owho);
    else if (level_given && (xwho || owho) && strcmp(xwho ? xwho : owho, TTT_HUMAN) != 0 &&
             strcmp(xwho ? xwho : owho, level) != 0)
        fprintf(stderr, "ttt play: warning: --level %s is ignored: --%s %s is the engine, you play %s\n",
                level, xwho ? "x" : "o", xwho ? xwho : owho, xwho ? "O" : "X");
    if (db && !record)
        fprintf(stderr, "ttt play: warning: --db %s is ignored: --no-record records nothing\n", db);
    if (!xwho && !owho)
        xwho = TTT_HUMAN;
    if (!xwho)
        xwho = strcmp(owho, TTT_HUMAN) == 0 ? level : TTT_HUMAN;
    if (!owho)
        owho = strcmp(xwho, TTT_HUMAN) == 0 ? level : TTT_HUMAN;
    if (record_engines && !record)
        return cli_usage("play", "--record and --no-record contradict each other: pick one");
    if (cli_check_db("play", db))
        return CLI_USAGE;
    ttt_rules rules;
    ttt_error err;
    if (ttt_rules_parse(rules_text, &rules, &err))
        return cli_usage("play", "%s", err.msg);
    ttt_game *g;
    ttt_status st = ttt_game_new(&rules, xwho, owho, cfg.seed, &g, &err);
    if (st)
        return st == TTT_EINVAL ? cli_usage("play", "%s", err.msg) : cli_runtime("play", "%s", err.msg);
    /* Games with a person in them are recorded; engine matches only when asked (they would flood the
     * history). */
    if (ttt_game_humans(g) == 0 && !record_engines) {
        if (db && record)
            fprintf(stderr,
                    "ttt play: warning: --db %s is ignored: games between two engines are recorded only with "
                    "--record\n",
                    db);
        record = false;
    }
    if (record && (st = ttt_store_open_lazy(db, &cfg.store, &err)) != TTT_OK) {
        ttt_game_free(g);
        return cli_store_error("play", st, &err, db != NULL, "--no-record to play without");
    }
    int rc = TUI_UNUSABLE;
    char why[TUI_WHY_SIZE] = "";
    if (ttt_game_humans(g) == 0 && cfg.games > 0)
        rc = engine_match(g, &cfg);
    else if (!plain && can_use_tui())
        rc = tui_play(g, &cfg, why, sizeof why);
    if (rc == TUI_UNUSABLE) {
        if (*why) /* a terminal, but one the full-screen game cannot drive */
            fprintf(stderr, "ttt play: %s: playing in line mode\n", why);
        char rt[TTT_RULES_TEXT_SIZE];
        printf("ttt %s (seed %" PRIu64 "): ", ttt_rules_format(&rules, rt, sizeof rt), cfg.seed);
        print_players(g, cfg.verbose);
        rc = line_mode(g, &cfg);
    }
    ttt_game_free(g);
    ttt_store_close(cfg.store);
    return rc;
}
