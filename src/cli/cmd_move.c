/* cli/cmd_move.c - `ttt move`: an engine's move for a position. */
#define _GNU_SOURCE /* getopt_long */
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "cli/cli.h"

/* "ms" in --json: rounded to MOVE_MS_SCALE ths (a microsecond), printed with enough digits for any time. */
#define MOVE_MS_SCALE       1000.0
#define MOVE_JSON_PRECISION 15

static const char help[] =
    "usage: ttt move [--rules R] --engine SPEC [--moves \"a1 b2 ...\"] [--json] [POSITION]\n"
    "\n"
    "Prints the move the engine chooses for the side to move, e.g. b2.\n"
    "\n"
    "  -r, --rules R     MxN[kK][-misere] (default 3x3, or the shape of POSITION)\n"
    "  -e, --engine SPEC NAME[:key=value,...], e.g. random:seed=7 (see 'ttt engines')\n"
    "  -m, --moves LIST  reach the position by these moves from the empty board instead\n"
    "      --json        {\"move\": \"b2\", \"row\": 1, \"col\": 1, ...} with 0-based row and column\n"
    "  POSITION          rows top to bottom, e.g. x.o/.x./..o (default: the empty board)\n"
    "\n"
    "example: ttt move --engine random:seed=3 x.o/.x./...\n";

int cmd_move(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"rules", required_argument, NULL, 'r'}, {"engine", required_argument, NULL, 'e'},
        {"moves", required_argument, NULL, 'm'}, {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},        {NULL, 0, NULL, 0}};
    const char *rules_text = NULL, *spec = NULL, *moves_text = NULL;
    bool json = false;
    optind = 0;
    for (int c; (c = cli_getopt("move", argc, argv, "r:e:m:h", longopts)) != -1;) {
        switch (c) {
        case 'r': rules_text = optarg; break;
        case 'e': spec = optarg; break;
        case 'm': moves_text = optarg; break;
        case 'j': json = true; break;
        case 'h': fputs(help, stdout); return CLI_OK;
        default: return CLI_USAGE;
        }
    }
    if (!spec)
        return cli_usage("move", "--engine is required, e.g. --engine random (see 'ttt engines')");
    if (argc - optind > 1)
        return cli_usage("move", "one position expected, got %d arguments", argc - optind);
    ttt_board b;
    int rc = cli_position("move", rules_text, optind < argc ? argv[optind] : NULL, moves_text, &b);
    if (rc)
        return rc;
    if (ttt_board_terminal(&b)) {
        char status[128];
        return cli_usage("move", "the game is over (%s): there is no move to make",
                         cli_status_line(&b, status, sizeof status));
    }
    ttt_engine *engine;
    ttt_error err;
    ttt_status st = ttt_engine_new(spec, &b.rules, &engine, &err);
    if (st)
        return cli_status_exit(st) == CLI_USAGE ? cli_usage("move", "%s", err.msg)
                                                : cli_runtime("move", "%s", err.msg);
    ttt_move move;
    ttt_search_info info;
    st = ttt_engine_choose(engine, &b, &move, &info, &err);
    char spec_text[TTT_SPEC_TEXT_SIZE];
    ttt_engine_spec(engine, spec_text, sizeof spec_text);
    ttt_engine_free(engine);
    if (st)
        return cli_runtime("move", "%s", err.msg);
    char name[TTT_MOVE_TEXT_SIZE];
    ttt_move_format(&b.rules, move, name, sizeof name);
    if (!json) {
        printf("%s\n", name);
        return CLI_OK;
    }
    /* ms to the microsecond (the clock says no more); depth only from an engine that searches by depth */
    json_t *o = json_pack("{s:s, s:i, s:i, s:i, s:s, s:I, s:f}", "move", name, "row", move / b.rules.cols,
                          "col", move % b.rules.cols, "cell", move, "engine", spec_text, "nodes",
                          (json_int_t)info.nodes, "ms", round(info.ms * MOVE_MS_SCALE) / MOVE_MS_SCALE);
    if (o && info.depth > 0 && json_object_set_new(o, "depth", json_integer(info.depth)) != 0) {
        json_decref(o);
        o = NULL;
    }
    if (!o || json_dumpf(o, stdout, JSON_COMPACT | JSON_REAL_PRECISION(MOVE_JSON_PRECISION)) != 0)
        return cli_runtime("move", "could not write JSON");
    putchar('\n');
    json_decref(o);
    return CLI_OK;
}
