/* engines/level.c - the difficulty levels: named aliases for engine specs (ttt/engine.h), weakest first. */
#include <string.h>

#include "ttt/engine.h"

/* Provisional definitions, to be measured (README: each level's record against random and minimax). */
static const ttt_level levels[] = {
    {"easy", "montecarlo:trials=20", "a beginner: sees some wins and blocks, often misses"},
    {"medium", "montecarlo:trials=300", "a club player: rarely misses a threat, falls for forks"},
    {"hard", "minimax:depth=4", "looks four moves ahead: hard to beat, not perfect on big boards"},
    {"perfect", "minimax", "perfect play wherever the board can be solved in time"},
};
#define NLEVELS ((int)(sizeof levels / sizeof levels[0]))

int ttt_level_count(void) { return NLEVELS; }

const ttt_level *ttt_level_at(int index) { return index >= 0 && index < NLEVELS ? &levels[index] : NULL; }

const ttt_level *ttt_level_find(const char *name, size_t len)
{
    for (int i = 0; i < NLEVELS; i++)
        if (strlen(levels[i].name) == len && strncmp(levels[i].name, name, len) == 0)
            return &levels[i];
    return NULL;
}
