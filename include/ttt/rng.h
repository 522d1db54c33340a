/*
 * ttt/rng.h - the random number generator: xoshiro256** seeded through splitmix64.
 *
 * Every random choice in the library draws from a ttt_rng that its owner seeded explicitly, so that the same
 * seed gives the same games. There is no global generator.
 */
#ifndef TTT_RNG_H
#define TTT_RNG_H

#include "ttt/common.h"

typedef struct ttt_rng {
    uint64_t s[4];
} ttt_rng;

/* One step of splitmix64: advances *state and returns the next output. Also a good 64-bit mixer. */
uint64_t ttt_splitmix64(uint64_t *state);

/* Seeds the generator; every seed (0 included) gives a valid, distinct stream. */
void ttt_rng_seed(ttt_rng *rng, uint64_t seed);

/* The next 64 random bits. */
static inline uint64_t ttt_rng_next(ttt_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t x = s[1] * 5;
    uint64_t result = ((x << 7) | (x >> 57)) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return result;
}

/* A uniform integer in [0, n), without modulo bias (Lemire's multiply-and-reject). Requires n > 0. */
uint32_t ttt_rng_below(ttt_rng *rng, uint32_t n);

/* A uniform double in [0, 1). */
double ttt_rng_double(ttt_rng *rng);

#endif
