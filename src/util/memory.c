/* util/memory.c - large tables in memory (see memory.h). */
#define _DEFAULT_SOURCE /* madvise */
#include "util/memory.h"

#include <stdint.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* Bytes of a huge page (x86-64 Linux; on others the advice covers pages of this size, which is harmless). */
#define MEMORY_HUGE_PAGE ((uintptr_t)2 << 20)

void ttt_memory_huge(void *p, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t from = ((uintptr_t)p + MEMORY_HUGE_PAGE - 1) & ~(MEMORY_HUGE_PAGE - 1),
                    to = ((uintptr_t)p + bytes) & ~(MEMORY_HUGE_PAGE - 1);
    if (p && to > from)
        (void)madvise((void *)from, to - from, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}
