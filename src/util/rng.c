/* util/rng.c - xoshiro256** (Blackman and Vigna) seeded through splitmix64. */
#include "ttt/rng.h"

#include <assert.h>

/* splitmix64's increment and finaliser constants. */
#define SPLITMIX_GAMMA UINT64_C(0x9e3779b97f4a7c15)
#define SPLITMIX_MUL1  UINT64_C(0xbf58476d1ce4e5b9)
#define SPLITMIX_MUL2  UINT64_C(0x94d049bb133111eb)

uint64_t ttt_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += SPLITMIX_GAMMA);
    z = (z ^ (z >> 30)) * SPLITMIX_MUL1;
    z = (z ^ (z >> 27)) * SPLITMIX_MUL2;
    return z ^ (z >> 31);
}

void ttt_rng_seed(ttt_rng *rng, uint64_t seed)
{
    /* splitmix64 never yields four zero words in a row, so the xoshiro state is never all zero. */
    for (int i = 0; i < 4; i++)
        rng->s[i] = ttt_splitmix64(&seed);
}

uint32_t ttt_rng_below(ttt_rng *rng, uint32_t n)
{
    assert(n > 0);
    uint64_t m = (uint64_t)(uint32_t)(ttt_rng_next(rng) >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)(uint32_t)(ttt_rng_next(rng) >> 32) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

double ttt_rng_double(ttt_rng *rng) { return (double)(ttt_rng_next(rng) >> 11) * 0x1.0p-53; }
