/* util/suggest.c - edit distance with adjacent swaps, and the closest known name. */
#include "util/suggest.h"

#include <string.h>

/* The longest word compared; longer ones are never a slip of a known name. */
#define SUGGEST_MAX_WORD 64

int ttt_edit_distance(const char *a, size_t la, const char *b, size_t lb, int cap)
{
    if (la > SUGGEST_MAX_WORD || lb > SUGGEST_MAX_WORD)
        return cap + 1;
    /* Three rows of the table: d[i-2], d[i-1] and d[i]; the oldest one is needed for a swap. */
    int rows[3][SUGGEST_MAX_WORD + 1];
    int *before = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int best = prev[j - 1] + (a[i - 1] != b[j - 1]);
            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && before[j - 2] + 1 < best)
                best = before[j - 2] + 1;
            cur[j] = best;
        }
        int *oldest = before;
        before = prev;
        prev = cur;
        cur = oldest;
    }
    return prev[lb] > cap ? cap + 1 : prev[lb];
}

const char *ttt_suggest(const char *word, size_t len, const char *const *names, int n)
{
    const char *best = NULL;
    int best_d = TTT_SUGGEST_DISTANCE + 1;
    for (int i = 0; i < n; i++) {
        int d = ttt_edit_distance(word, len, names[i], strlen(names[i]), TTT_SUGGEST_DISTANCE);
        if (d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    return best && (size_t)best_d < len ? best : NULL;
}
