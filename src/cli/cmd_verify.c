/* cli/cmd_verify.c - `ttt verify`: checks a certificate (ttt/verify.h) and says what it proves. */
#define _GNU_SOURCE /* getopt_long */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"

static const char help[] =
    "usage: ttt verify [--json] FILE\n"
    "\n"
    "Checks a certificate that 'ttt solve --certificate FILE' wrote: a strategy for the side that reaches\n"
    "the value (for a draw, one for each side), down to leaves checked on their own (the game over, a win\n"
    "in one, a pairing, under misere a mirror or a count, a position proven before). The checker shares no\n"
    "code with the solver's search. Prints the rules, the position the proof starts from (when it is not\n"
    "the empty board) and the value it proves, the nodes checked and the time, and exits 0; a certificate\n"
    "that proves nothing gets one line naming the first bad node, and exit status 1. FILE may be a pipe.\n"
    "\n"
    "      --json   {\"valid\": true, \"rules\": \"7x7k5\", \"to_move\": \"X\", \"value\": \"draw\",\n"
    "               \"position\": \".../...\", \"nodes\": N, \"ms\": T, ...}\n"
    "\n"
    "example: ttt solve --rules 4x4 --certificate 4x4.cert && ttt verify 4x4.cert\n";

int cmd_verify(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"json", no_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    bool json = false;
    optind = 0;
    for (int c; (c = cli_getopt("verify", argc, argv, "h", longopts)) != -1;) {
        switch (c) {
        case 'j': json = true; break;
        case 'h': fputs(help, stdout); return CLI_OK;
        default: return CLI_USAGE;
        }
    }
    if (argc - optind != 1)
        return cli_usage("verify", "one certificate file expected, got %d arguments", argc - optind);
    const char *path = argv[optind];
    FILE *f = fopen(path, "rb");
    if (!f)
        return cli_usage("verify", "cannot open %s: %s", path, strerror(errno));
    /* A directory opens for reading and fails at the first read: said as what it is. A pipe or a device is
     * read as a stream (ttt solve --certificate >(ttt verify /dev/stdin)). */
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
        fclose(f);
        return cli_usage("verify", "%s is a directory, not a certificate", path);
    }
    ttt_verify_report r;
    ttt_error err;
    ttt_status st = ttt_verify_certificate(f, &r, &err);
    fclose(f);
    char rt[TTT_RULES_TEXT_SIZE];
    if (st == TTT_EIO || st == TTT_ENOMEM) /* the file could not be checked: it is not shown invalid */
        return cli_runtime("verify", "%s: %s", path, err.msg);
    if (st) {
        if (json) {
            json_t *o =
                json_pack("{s:b, s:s, s:I}", "valid", 0, "error", err.msg, "nodes", (json_int_t)r.nodes);
            if (o)
                json_dumpf(o, stdout, JSON_COMPACT);
            json_decref(o);
            putchar('\n');
        }
        return cli_runtime("verify", "%s: invalid: %s", path, err.msg);
    }
    const char *side = ttt_bits_count(&r.x) == ttt_bits_count(&r.o) ? "X" : "O";
    /* The start the value is of: a certificate proves its own header's position, which need not be the
     * empty board the reader has in mind. */
    ttt_board start;
    ttt_board_from_bits(&start, &r.rules, &r.x, &r.o);
    char pos[TTT_POSITION_TEXT_SIZE];
    ttt_position_format(&start, pos, sizeof pos);
    if (json) {
        printf(
            "{\"valid\":true,\"rules\":\"%s\",\"to_move\":\"%s\",\"value\":\"%s\",\"position\":\"%s\","
            "\"halves\":%d,\"nodes\":%llu,"
            "\"wins\":%llu,\"pairings\":%llu,\"mirrors\":%llu,\"avoids\":%llu,\"seen\":%llu,\"bytes\":%llu,"
            "\"ms\":%.3f}\n",
            ttt_rules_format(&r.rules, rt, sizeof rt), side, ttt_result_name(r.value), pos, r.halves,
            (unsigned long long)r.nodes, (unsigned long long)r.wins, (unsigned long long)r.pairings,
            (unsigned long long)r.mirrors, (unsigned long long)r.avoids, (unsigned long long)r.seen,
            (unsigned long long)r.bytes, r.ms);
        return CLI_OK;
    }
    int stones = ttt_bits_count(&r.x) + ttt_bits_count(&r.o);
    printf("%s: valid: %s, %s to move (%d stone%s): %s%s%s\n", path,
           ttt_rules_format(&r.rules, rt, sizeof rt), side, stones, stones == 1 ? "" : "s",
           ttt_result_name(r.value), stones ? ", from " : "", stones ? pos : "");
    char n[CLI_COUNT_SIZE], pa[CLI_COUNT_SIZE], mi[CLI_COUNT_SIZE], av[CLI_COUNT_SIZE], se[CLI_COUNT_SIZE],
        wi[CLI_COUNT_SIZE], by[CLI_COUNT_SIZE];
    /* The figures grouped as ttt solve --certificate prints the same ones. */
    printf("%s nodes checked (%s pairings, %s mirrors, %s counting leaves, %s transpositions; %s wins in one "
           "found), %s bytes, in %.3f ms\n",
           cli_count(r.nodes, n, sizeof n), cli_count(r.pairings, pa, sizeof pa),
           cli_count(r.mirrors, mi, sizeof mi), cli_count(r.avoids, av, sizeof av),
           cli_count(r.seen, se, sizeof se), cli_count(r.wins, wi, sizeof wi),
           cli_count(r.bytes, by, sizeof by), r.ms);
    return CLI_OK;
}
