/* util/suggest.h - "did you mean": the known name closest to a mistyped one (internal; the CLI uses it too). */
#ifndef TTT_UTIL_SUGGEST_H
#define TTT_UTIL_SUGGEST_H

#include <stddef.h>

/* How many edits a slip of the fingers may make: "minmax" for "minimax", "slove" for "solve". */
#define TTT_SUGGEST_DISTANCE 2

/* The edit distance between a[0..la-1] and b[0..lb-1] as git counts it (Damerau, optimal string alignment):
 * inserting, deleting or changing a letter, and swapping two adjacent letters, are one edit each. Anything over
 * cap is answered as cap + 1 (words longer than 64 characters too). */
int ttt_edit_distance(const char *a, size_t la, const char *b, size_t lb, int cap);

/* The entry of names[0..n-1] closest to word[0..len-1] when it is close enough to be a slip (at most
 * TTT_SUGGEST_DISTANCE edits, and fewer edits than word has letters), the first of equals; else NULL. */
const char *ttt_suggest(const char *word, size_t len, const char *const *names, int n);

#endif
