/* cli/main.c - the `ttt` command: dispatch to subcommands. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const cli_command commands[] = {
    {"play", cmd_play, "play a game in the terminal (you against an engine, two people, or two engines)"},
    {"move", cmd_move, "print an engine's move for a position"},
    {"show", cmd_show, "draw a position and say whose turn it is or how the game ended"},
    {"solve", cmd_solve, "the value of a position and of every move, solved exactly"},
    {"verify", cmd_verify, "check a certificate that ttt solve --certificate wrote, on its own code"},
    {"count", cmd_count, "count reachable positions and complete games exactly"},
    {"table", cmd_table, "build a move table from random games, for the table engine"},
    {"arena", cmd_arena, "play engines against each other: a round robin or a gauntlet, with Elo"},
    {"train", cmd_train, "the learner plays an opponent and learns from every game"},
    {"memory", cmd_memory, "the learner's memory: stats, export, import"},
    {"history", cmd_history, "recorded games: list them, replay one move by move"},
    {"bench", cmd_bench, "a fixed set of searches and playouts: speed figures and a signature"},
    {"engines", cmd_engines, "list the engines and their options"},
    {"serve", cmd_serve, "serve the game page and its JSON API over HTTP (play in the browser)"},
    {"brain", cmd_brain, "a Gomocup (Piskvork) brain on stdin/stdout, for tournament managers and GUIs"},
};
#define NCOMMANDS ((int)(sizeof commands / sizeof commands[0]))

static void usage(FILE *f)
{
    fprintf(f, "usage: ttt COMMAND [OPTIONS] [ARGUMENTS]\n       ttt --help | --version\n\n"
               "tic-tac-toe and m,n,k-games: play, analyse, count, compare engines.\n\ncommands:\n");
    for (int i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fprintf(
        f, "\nEvery command takes --help ('ttt help COMMAND [ACTION]' is the same). Options go before or "
           "after the\n"
           "arguments; '--' ends them. Rules are written MxN[kK][-misere]: 3x3, 4x4k3, 15x15k5, 3x3-misere.\n"
           "Positions are rows top to bottom, e.g. x.o/.x./..o; moves are a1 (column letter, row number\n"
           "from the top) or, on 3x3, the digits 1-9 in reading order.\n");
}

/* "unknown command 'solv'; did you mean 'solve'?" and where to look. */
static int unknown_command(const char *name)
{
    const char *names[NCOMMANDS];
    for (int i = 0; i < NCOMMANDS; i++)
        names[i] = commands[i].name;
    char hint[CLI_HINT_SIZE];
    cli_did_you_mean(name, names, NCOMMANDS, hint, sizeof hint);
    fprintf(stderr, "ttt: unknown command '%s'%s\n", name, hint[0] ? hint : " (see 'ttt --help')");
    return CLI_USAGE;
}

/* The output reaches its file or the command fails: a full disk or a closed pipe (with SIGPIPE ignored)
 * must not pass for success with the results lost. Returns rc, or CLI_RUNTIME with a one-line error when
 * the command succeeded but its output was not written (a command that failed has said why already). */
static int finish_output(int rc)
{
    errno = 0;
    bool flushed = fflush(stdout) == 0;
    if (rc != CLI_OK || (flushed && !ferror(stdout)))
        return rc;
    fprintf(stderr, "ttt: cannot write the output: %s\n",
            flushed || errno == 0 ? "write error" : strerror(errno));
    return CLI_RUNTIME;
}

/* "help", "--help" or "-h". */
static bool is_help(const char *word)
{
    return strcmp(word, "--help") == 0 || strcmp(word, "-h") == 0 || strcmp(word, "help") == 0;
}

static int run(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char *name = argv[1];
    if (is_help(name)) {
        /* "ttt help table build" and "ttt --help move" are "ttt table build --help" and "ttt move --help";
         * "ttt help help" (or "ttt help --help") is this help. */
        if (argc > 2 && !is_help(argv[2])) {
            for (int i = 0; i < NCOMMANDS; i++)
                if (strcmp(commands[i].name, argv[2]) == 0) {
                    enum { MAX_WORDS = 8 };
                    char help_flag[] = "--help";
                    char *help_argv[MAX_WORDS + 2];
                    int n = 0;
                    for (int j = 2; j < argc && n < MAX_WORDS; j++)
                        help_argv[n++] = argv[j];
                    help_argv[n++] = help_flag;
                    help_argv[n] = NULL;
                    return commands[i].run(n, help_argv);
                }
            return unknown_command(argv[2]);
        }
        usage(stdout);
        return CLI_OK;
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0 || strcmp(name, "version") == 0) {
        printf("ttt %s\n", TTT_CLI_VERSION);
        return CLI_OK;
    }
    cli_table_notes();
    for (int i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    if (name[0] == '-') {
        static const char *const options[] = {"--help", "--version"};
        char hint[CLI_HINT_SIZE];
        cli_did_you_mean(name, options, 2, hint, sizeof hint);
        fprintf(stderr, "ttt: unknown option '%s'%s%s\n", name, hint,
                hint[0] ? " (a command comes first: see 'ttt --help')"
                        : ": a command comes first (see 'ttt --help')");
        return CLI_USAGE;
    }
    return unknown_command(name);
}

int main(int argc, char **argv) { return finish_output(run(argc, argv)); }
