/* util/memory.h - large tables in memory (internal). */
#ifndef TTT_UTIL_MEMORY_H
#define TTT_UTIL_MEMORY_H

#include <stddef.h>

/* Asks the system to back the whole huge pages inside [p, p + bytes) with huge pages, where it gives them
 * (Linux's transparent huge pages, also in their "madvise" mode): a table probed at random places misses the
 * address translation's cache besides the data's with small pages (misère 5x5k4's solve: 20.2-21.9 s of CPU,
 * 15.3-15.5 s with them). Best called before the memory is first written (as on calloc's fresh memory). A
 * hint: no effect on the contents, never an error, nothing elsewhere or on blocks smaller than a huge page. */
void ttt_memory_huge(void *p, size_t bytes);

#endif
