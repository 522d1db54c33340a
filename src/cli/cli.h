/*
 * cli/cli.h - what the subcommands of `ttt` share.
 *
 * Exit status: CLI_OK (0) success; CLI_RUNTIME (1) a failure at run time; CLI_USAGE (2) bad usage or bad
 * input, with one line on stderr that says what was wrong.
 */
#ifndef TTT_CLI_CLI_H
#define TTT_CLI_CLI_H

#include <pthread.h>
#include <stdio.h>

#include "ttt/ttt.h"

enum { CLI_OK = 0, CLI_RUNTIME = 1, CLI_USAGE = 2 };

/* Width of a progress bar, in characters. */
#define CLI_PROGRESS_WIDTH 30

typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the subcommand's name */
    const char *summary;
} cli_command;

/* Prints "ttt CMD: message" on stderr and returns CLI_USAGE (or CLI_RUNTIME). */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cli_runtime(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The exit status that fits a library status: CLI_USAGE for bad input, CLI_RUNTIME otherwise. */
int cli_status_exit(ttt_status status);

/* The value of a numeric option, text (optarg): a decimal whole number from min to max, digits only (no sign,
 * no spaces). On success stores it in *out and returns CLI_OK. Otherwise leaves *out alone, prints one line,
 * "ttt CMD: OPTION 'TEXT': expected WHAT from MIN to MAX" (with "out of range, " before "expected" when the
 * text is a number outside min..max, however many digits it has), and returns CLI_USAGE. what names the
 * quantity: "a whole number", "MiB", "a port". */
int cli_parse_uint(const char *cmd, const char *option, const char *text, uint64_t min, uint64_t max,
                   const char *what, uint64_t *out);

/* n with its digits in groups of three, for people: "1,234,567". In buf (CLI_COUNT_SIZE is enough). */
#define CLI_COUNT_SIZE 32
const char *cli_count(uint64_t n, char *buf, size_t size);

/* A duration for people, its unit chosen by its size: "0.42 ms", "12 ms", "21.7 s", "3 min 05 s",
 * "2 h 03 min". In buf (CLI_DURATION_SIZE is enough). */
#define CLI_DURATION_SIZE 32
const char *cli_duration(double ms, char *buf, size_t size);

/* one when n is 1, else many: "1 game", "2 games", "0 draws". */
const char *cli_plural(uint64_t n, const char *one, const char *many);

/* n grouped and its noun in the right number: "1 draw", "1,785 wins". In buf (CLI_COUNTED_SIZE is enough for
 * nouns of up to 30 letters). */
#define CLI_COUNTED_SIZE 64
const char *cli_counted(uint64_t n, const char *one, const char *many, char *buf, size_t size);

/* Draws a progress bar on stderr, in place: "[#####     ]  50%  500/1000 games  0:12 elapsed, ~0:12 left" and
 * extra (may be ""). The times count from the last cli_progress_begin. For terminals only (callers check
 * isatty(STDERR_FILENO)). */
void cli_progress(uint64_t done, uint64_t total, const char *extra);

/* cli_progress counting something else than games ("moves written"). */
void cli_progress_unit(uint64_t done, uint64_t total, const char *unit, const char *extra);

/* Starts the clock of a new bar. */
void cli_progress_begin(void);

/* Draws the bar full (total of total) and then clears its line, for the output that follows. */
void cli_progress_end(uint64_t total);

/* cli_progress with no extra, in the shape of the library's progress callbacks (user is ignored). */
void cli_progress_games(uint64_t done, uint64_t total, void *user);

struct option; /* <getopt.h> */

/* getopt_long as every command reads its options: options and positionals in any order (GNU permutation: when
 * it returns -1 the positionals are argv[optind..argc-1], in their order), and "--" ends the options.
 * shortopts is as for getopt_long, without a leading '+', '-' or ':'. Start each parse with optind = 0.
 * Returns the option's value, -1 at the end, or '?' after printing the one-line reason on stderr (the caller
 * then returns CLI_USAGE): "--rules needs a value", "--json takes no value", "unknown option '--jsn' (did you
 * mean
 * '--json'?)". */
int cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts, const struct option *longopts);

/* The entry of names[0..n-1] closest to word by edit distance (an adjacent swap is one edit, as git counts)
 * when it is close enough to be a slip of the fingers, else NULL: ttt_suggest (src/util/suggest.h). */
const char *cli_closest(const char *word, const char *const *names, int n);

/* "; did you mean 'NAME'?" for cli_closest's answer, or "" when there is none; in buf. */
#define CLI_HINT_SIZE 96
const char *cli_did_you_mean(const char *word, const char *const *names, int n, char *buf, size_t size);

/* The one report of a database that cannot be opened, the same in every command: "ttt CMD: " and the
 * library's message ("database 'F': ..."), then, when the path was the default one (given is false), "(--db
 * PATH for another file" and without (may be NULL: "--no-record to play without"); when it was given, only
 * without. Returns CLI_RUNTIME when the file or the machine failed (TTT_EIO: a read-only file, a failing disk;
 * TTT_ENOMEM), CLI_USAGE when what was named is wrong (not a database, no such directory, none there yet). */
int cli_store_error(const char *cmd, ttt_status status, const ttt_error *err, bool given,
                    const char *without);

/* A database path given as an option value: "" is refused (it would mean the default database) with one line,
 * "--db '': expected the path of a database file", and CLI_USAGE; else CLI_OK. */
int cli_check_db(const char *cmd, const char *path);

/* Rules and position from the usual options. rules_text may be NULL (3x3, or the shape of the position);
 * position_text and moves_text may be NULL (the empty board); both given is an error. On failure prints the
 * one-line reason and returns CLI_USAGE. */
int cli_position(const char *cmd, const char *rules_text, const char *position_text, const char *moves_text,
                 ttt_board *out);

/* Draws the board with coordinates, then a line on whose turn it is or how the game ended. */
void cli_draw_board(FILE *f, const ttt_board *b);

/* "X to move", "X wins", "O wins (X completed a line)", "draw". */
const char *cli_status_line(const ttt_board *b, char *buf, size_t size);

/* The exit status after Ctrl-C, as shells report a process killed by SIGINT (128 + 2). */
#define CLI_INTERRUPTED 130

/* Catches SIGINT from now on: the first one sets what cli_interrupted reads, a second one ends the process as
 * SIGINT does (for a job that does not stop). Until cli_interrupt_release. */
void cli_interrupt_catch(void);

/* Whether SIGINT arrived since the last cli_interrupt_catch. Safe from any thread. */
bool cli_interrupted(void);

/* SIGINT's default action again; cli_interrupted still answers for the catch that ended. */
void cli_interrupt_release(void);

/* From now on SIGINT ends the process at once with CLI_INTERRUPTED after clearing the progress line (when
 * clear) and writing "ttt CMD: interrupted: MESSAGE" on stderr: for a phase that keeps nothing, which the
 * process cannot leave otherwise. The line is formatted now, the handler only writes it. */
void cli_interrupt_exit(const char *cmd, const char *message, bool clear);

/* How often a ticker redraws its bar, in milliseconds: its clock moves even when nothing finishes. */
#define CLI_TICK_MS 250

/* A progress bar (cli_progress_unit) that a thread of its own redraws every CLI_TICK_MS with the latest count,
 * so that it shows at once and its clock runs between games. Updates and notes may come from any thread. */
typedef struct cli_ticker {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t thread;
    bool running, threaded;
    uint64_t done, total;
    const char *unit;
    char extra[128];
} cli_ticker;

/* Starts the bar's clock (cli_progress_begin), draws it at 0 of total at once, and starts its thread (without
 * one, when it cannot be started, the bar is redrawn by each update only). */
void cli_ticker_start(cli_ticker *t, uint64_t total, const char *unit);

/* The count to show from now on, and extra after the times ("" for none; copied). Does not draw. */
void cli_ticker_update(cli_ticker *t, uint64_t done, const char *extra);

/* A line of its own above the bar (a warning as it happens): the bar is cleared, the line written, the bar
 * drawn again. The line takes no newline. */
void cli_ticker_note(cli_ticker *t, const char *line);

/* Stops the thread; the bar stays on the line for the caller to end (cli_progress_end) or clear. */
void cli_ticker_stop(cli_ticker *t);

/* Subcommands. */
int cmd_move(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_count(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_engines(int argc, char **argv);
int cmd_table(int argc, char **argv);
/* Has a line printed on stderr whenever an engine builds a missing default table (ttt_table_acquire). */
void cli_table_notes(void);
int cmd_arena(int argc, char **argv);
int cmd_train(int argc, char **argv);
int cmd_memory(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_brain(int argc, char **argv);
int cmd_verify(int argc, char **argv);

#endif
