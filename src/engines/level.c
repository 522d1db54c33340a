/* engines/level.c - the difficulty levels: named aliases for engine specs (ttt/engine.h), weakest first. */
#include <string.h>

#include "ttt/engine.h"

/* Every level is the perfect player that, on a share of its moves, plays a uniformly random move instead
 * (minimax's blunder=): a blunder can only lose value, so each level is weaker than the next on every board
 * and under either rule, and a person sees the same opponent make more or fewer mistakes. The lower levels
 * also think for less time, which only matters where the board cannot be solved (bigger than 4x4). Measured
 * on 3x3, 1,000 games each with the sides alternating (README, `ttt play --x LEVEL --o random --games 1000`):
 *
 *   level    vs random W/D/L   vs minimax W/D/L
 *   easy       668/132/200       0/400/600
 *   medium     779/137/ 84       0/704/296
 *   hard       852/135/ 13       0/918/ 82
 *   perfect    863/137/  0       0/1000/0
 */
static const ttt_level levels[] = {
    {"easy", "minimax:blunder=50,time=100", "a beginner: every other move is random; easy to beat"},
    {"medium", "minimax:blunder=20,time=300", "a casual player: one move in five is random; beatable"},
    {"hard", "minimax:blunder=5", "a strong player: perfect but for one move in twenty; rarely beaten"},
    {"perfect", "minimax", "perfect play wherever the board can be solved in time (3x3: never loses)"},
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
