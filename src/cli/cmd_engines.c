/* cli/cmd_engines.c - `ttt engines`: the registry. */
#include <string.h>

#include "cli/cli.h"

int cmd_engines(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        puts("usage: ttt engines\n\nLists every engine with what it is good for and its options.\n"
             "An engine is named by a spec NAME[:key=value,...], e.g. random:seed=7.");
        return CLI_OK;
    }
    if (argc > 1)
        return cli_usage("engines", "unexpected argument '%s'", argv[1]);
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
    return CLI_OK;
}
