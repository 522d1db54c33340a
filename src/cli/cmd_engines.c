/* cli/cmd_engines.c - `ttt engines`: the registry, and the levels beside it. */
#define _GNU_SOURCE /* getopt_long */
#include <getopt.h>
#include <string.h>

#include "cli/cli.h"

static const char help[] =
    "usage: ttt engines\n"
    "\n"
    "Lists every engine with what it is good for and its options, then the levels.\n"
    "An engine is named by a spec NAME[:key=value,...], e.g. random:seed=7; a level\n"
    "(easy, medium, hard, perfect) is a name for a spec, and is accepted wherever one is\n"
    "(ttt play --level hard, --o easy, ttt move --engine perfect).\n";

int cmd_engines(int argc, char **argv)
{
    static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    optind = 0;
    for (int c; (c = cli_getopt("engines", argc, argv, "h", longopts)) != -1;) {
        switch (c) {
        case 'h': fputs(help, stdout); return CLI_OK;
        default: return CLI_USAGE;
        }
    }
    if (optind < argc)
        return cli_usage("engines", "unexpected argument '%s'", argv[optind]);
    for (int i = 0; i < ttt_engine_count(); i++) {
        const ttt_engine_about *a = ttt_engine_about_at(i);
        printf("%s\n  %s\n  options:\n", a->name, a->summary);
        const char *p = a->options;
        while (*p) {
            const char *nl = strchr(p, '\n');
            int len = nl ? (int)(nl - p) : (int)strlen(p);
            printf("    %.*s\n", len, p);
            p += len + (nl ? 1 : 0);
        }
    }
    printf("\nlevels (names for engine specs, weakest first; --level in ttt play, or a spec anywhere):\n");
    int width = 0;
    for (int i = 0; i < ttt_level_count(); i++) {
        int len = (int)strlen(ttt_level_at(i)->spec);
        width = len > width ? len : width;
    }
    for (int i = 0; i < ttt_level_count(); i++) {
        const ttt_level *l = ttt_level_at(i);
        printf("  %-8s %-*s  %s\n", l->name, width, l->spec, l->about);
    }
    return CLI_OK;
}
