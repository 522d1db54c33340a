/* cli/cmd_show.c - `ttt show`: draw a position. */
#define _GNU_SOURCE /* getopt_long */
#include <getopt.h>
#include <jansson.h>

#include "cli/cli.h"

static const char help[] =
    "usage: ttt show [--rules R] [--moves \"a1 b2 ...\"] [--json] [POSITION]\n"
    "\n"
    "Draws the board with its coordinates and says whose turn it is, or how the game ended.\n"
    "\n"
    "  -r, --rules R     MxN[kK][-misere] (default 3x3, or the shape of POSITION)\n"
    "  -m, --moves LIST  show the position these moves reach from the empty board\n"
    "      --json        {\"position\": ..., \"to_move\": \"x\", \"outcome\": \"ongoing\", ...}\n"
    "\n"
    "example: ttt show x.o/.x./..o\n";

int cmd_show(int argc, char **argv)
{
    static const struct option longopts[] = {{"rules", required_argument, NULL, 'r'},
                                             {"moves", required_argument, NULL, 'm'},
                                             {"json", no_argument, NULL, 'j'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    const char *rules_text = NULL, *moves_text = NULL;
    bool json = false;
    optind = 0;
    for (int c; (c = cli_getopt("show", argc, argv, "r:m:h", longopts)) != -1;) {
        switch (c) {
        case 'r': rules_text = optarg; break;
        case 'm': moves_text = optarg; break;
        case 'j': json = true; break;
        case 'h': fputs(help, stdout); return CLI_OK;
        default: return CLI_USAGE;
        }
    }
    if (argc - optind > 1)
        return cli_usage("show", "one position expected, got %d arguments", argc - optind);
    ttt_board b;
    int rc = cli_position("show", rules_text, optind < argc ? argv[optind] : NULL, moves_text, &b);
    if (rc)
        return rc;
    if (!json) {
        cli_draw_board(stdout, &b);
        return CLI_OK;
    }
    char pos[TTT_POSITION_TEXT_SIZE], rules[TTT_RULES_TEXT_SIZE];
    ttt_outcome outcome = ttt_board_outcome(&b);
    json_t *line = json_array();
    ttt_move cells[TTT_MAX_SIDE];
    int n = ttt_board_line_cells(&b, cells);
    for (int i = 0; i < n; i++) {
        char m[TTT_MOVE_TEXT_SIZE];
        json_array_append_new(line, json_string(ttt_move_format(&b.rules, cells[i], m, sizeof m)));
    }
    json_t *o =
        json_pack("{s:s, s:s, s:s?, s:s, s:i, s:o}", "position", ttt_position_format(&b, pos, sizeof pos),
                  "rules", ttt_rules_format(&b.rules, rules, sizeof rules), "to_move",
                  outcome == TTT_ONGOING ? (ttt_board_to_move(&b) == TTT_X ? "x" : "o") : NULL, "outcome",
                  ttt_outcome_name(outcome), "ply", b.ply, "line", line);
    if (!o || json_dumpf(o, stdout, JSON_COMPACT | JSON_REAL_PRECISION(6)) != 0)
        return cli_runtime("show", "could not write JSON");
    putchar('\n');
    json_decref(o);
    return CLI_OK;
}
