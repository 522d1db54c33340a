/*
 * fuzz_brain - the whole loop of `ttt brain` (src/cli/cmd_brain.c, compiled in here as it is): Gomocup lines
 * read from a manager, parsed, and driving an engine through games (START, BEGIN, TURN, BOARD ... DONE,
 * TAKEBACK, INFO with the extension keys, RESTART, END).
 *
 * Input: a first byte that picks the engine among work-bounded specs (never a time: the same input gives the
 * same answers), then the brain's standard input. Invariants: the brain ends with exit status 0 and
 * answers only lines of the protocol: OK, a move "x,y" on a board of at most 20 a side, ERROR, UNKNOWN,
 * MESSAGE, DEBUG or the ABOUT line, each one line of printable text.
 */
#define _GNU_SOURCE /* fmemopen, open_memstream; and what cli.c and cmd_brain.c use */
#include "fuzz.h"

/* The command's own code, compiled here whole (cli.c: its option and error helpers). clang asks of cli.c's
 * error printer, which takes a va_list, what gcc does not. */
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wformat-nonliteral"
#include "cli/cli.c"
#pragma clang diagnostic pop
#include "cli/cmd_brain.c"

/* Engines whose every move is bounded by work and whose memory is set by their spec (INFO max_memory does
 * not resize them), so that any input stays fast. The table engine and the learner are left out: they keep
 * files of their own. */
static const char *const specs[] = {
    "minimax:depth=2,time=0,tt=1",
    "minimax:nodes=400,time=0,tt=1",
    "mcts:iterations=48,time=0,tree=4096,seed=1",
    "montecarlo:trials=24,time=0",
    "gomoku:nodes=200,time=0,vcf=100,vct=100,leaf=4",
    "heuristic:guard=1",
    "random:seed=3",
};
#define SPECS (sizeof specs / sizeof specs[0])

/* One line of the brain's answers is a line of the protocol. */
static void check_answer(const char *line)
{
    for (const char *p = line; *p; p++)
        FUZZ_CHECK((unsigned char)*p >= ' ' && *p != 0x7f);
    int x, y, end = 0;
    if (sscanf(line, "%d,%d%n", &x, &y, &end) == 2 && line[end] == '\0') {
        FUZZ_CHECK(x >= 0 && x < TTT_MAX_SIDE && y >= 0 && y < TTT_MAX_SIDE);
        return;
    }
    static const char *const kinds[] = {"ERROR ", "UNKNOWN ", "MESSAGE ", "DEBUG ", "name=\""};
    bool known = strcmp(line, "OK") == 0;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0] && !known; i++)
        known = strncmp(line, kinds[i], strlen(kinds[i])) == 0;
    if (!known)
        fprintf(stderr, "not a line of the protocol: '%s'\n", line);
    FUZZ_CHECK(known);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) /* an engine, and a byte of input at least (fmemopen takes no empty buffer) */
        return 0;
    const char *spec = specs[data[0] % SPECS];
    FILE *in = fmemopen((void *)(uintptr_t)(data + 1), size - 1, "r");
    char *said = NULL;
    size_t said_len = 0;
    FILE *out = open_memstream(&said, &said_len);
    FUZZ_CHECK(in != NULL && out != NULL);
    FILE *saved_in = stdin, *saved_out = stdout;
    stdin = in;
    stdout = out;
    char name[] = "brain", engine[] = "--engine", think[] = "--think", spec_arg[TTT_SPEC_TEXT_SIZE];
    snprintf(spec_arg, sizeof spec_arg, "%s", spec);
    char *argv[] = {name, engine, spec_arg, think, NULL};
    int code = cmd_brain(4, argv);
    stdin = saved_in;
    stdout = saved_out;
    fclose(in);
    fclose(out);
    FUZZ_CHECK(code == CLI_OK);
    for (char *line = said, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        FUZZ_CHECK(next != NULL); /* every answer ends its line */
        *next++ = '\0';
        check_answer(line);
    }
    free(said);
    return 0;
}
