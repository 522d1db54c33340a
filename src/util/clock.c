/* util/clock.c - the monotonic clock. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <time.h>

#include "ttt/common.h"

double ttt_clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}
