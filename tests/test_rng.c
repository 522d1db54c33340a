/* Unit tests for ttt/rng.h: splitmix64 and the seeded xoshiro256** generator. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "ttt/ttt.h"

/* splitmix64 as published by Sebastiano Vigna (https://prng.di.unimi.it/splitmix64.c). */
static uint64_t reference_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static void test_splitmix64_matches_reference(void **state)
{
    (void)state;
    uint64_t a = 0, b = 0;
    /* the first output for state 0 is the well-known 0xe220a8397b1dcdaf */
    uint64_t first = ttt_splitmix64(&a);
    assert_true(first == UINT64_C(0xe220a8397b1dcdaf));
    assert_true(first == reference_splitmix64(&b));
    assert_true(a == b);
    uint64_t seeds[] = {1, 42, UINT64_MAX, UINT64_C(0x123456789abcdef0)};
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        a = b = seeds[i];
        for (int j = 0; j < 100; j++) {
            assert_true(ttt_splitmix64(&a) == reference_splitmix64(&b));
            assert_true(a == b);
        }
    }
}

static void test_same_seed_same_stream(void **state)
{
    (void)state;
    uint64_t seeds[] = {0, 1, 7, UINT64_MAX};
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        ttt_rng a, b;
        ttt_rng_seed(&a, seeds[i]);
        ttt_rng_seed(&b, seeds[i]);
        for (int j = 0; j < 1000; j++) {
            assert_true(ttt_rng_next(&a) == ttt_rng_next(&b));
        }
        for (int j = 0; j < 1000; j++) {
            assert_int_equal(ttt_rng_below(&a, 1000), ttt_rng_below(&b, 1000));
        }
    }
}

static void test_different_seeds_differ(void **state)
{
    (void)state;
    enum { N = 64 };
    uint64_t first[N][4];
    for (int s = 0; s < N; s++) {
        ttt_rng rng;
        ttt_rng_seed(&rng, (uint64_t)s);
        for (int j = 0; j < 4; j++) {
            first[s][j] = ttt_rng_next(&rng);
        }
    }
    for (int s = 0; s < N; s++) {
        for (int t = 0; t < s; t++) {
            assert_false(memcmp(first[s], first[t], sizeof first[s]) == 0);
            assert_true(first[s][0] != first[t][0]);
        }
    }
}

/* Seed 0 must not leave xoshiro in its all-zero state, which would output zeros forever. */
static void test_seed_zero_is_a_valid_stream(void **state)
{
    (void)state;
    ttt_rng rng;
    ttt_rng_seed(&rng, 0);
    assert_false(rng.s[0] == 0 && rng.s[1] == 0 && rng.s[2] == 0 && rng.s[3] == 0);
    int zeros = 0;
    uint64_t all_or = 0;
    for (int i = 0; i < 100; i++) {
        uint64_t v = ttt_rng_next(&rng);
        zeros += v == 0;
        all_or |= v;
    }
    assert_true(zeros < 2);
    assert_true(all_or == UINT64_MAX);
}

static void test_below_stays_in_range(void **state)
{
    (void)state;
    ttt_rng rng;
    ttt_rng_seed(&rng, 12345);
    uint32_t limits[] = {1, 2, 3, 7, 9, 10, 100, 255, 256, 1000, 65537, UINT32_MAX / 3 + 7, UINT32_MAX};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        for (int j = 0; j < 20000; j++) {
            uint32_t v = ttt_rng_below(&rng, limits[i]);
            assert_true(v < limits[i]);
        }
    }
    for (int j = 0; j < 100; j++) {
        assert_int_equal(ttt_rng_below(&rng, 1), 0);
    }
}

static void test_below_hits_every_value(void **state)
{
    (void)state;
    ttt_rng rng;
    ttt_rng_seed(&rng, 99);
    for (uint32_t n = 1; n <= 64; n++) {
        int hits[64] = {0};
        for (uint32_t j = 0; j < 200 * n; j++) {
            hits[ttt_rng_below(&rng, n)]++;
        }
        for (uint32_t v = 0; v < n; v++) {
            assert_true(hits[v] > 0);
        }
    }
}

/* Pearson's chi-square for 10 equally likely buckets over 100000 draws. With 9 degrees of freedom the
 * statistic exceeds 27.88 with probability 0.001; the seeds are fixed, so the result is deterministic. */
static void test_below_is_roughly_uniform(void **state)
{
    (void)state;
    uint64_t seeds[] = {1, 2, 3};
    for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
        ttt_rng rng;
        ttt_rng_seed(&rng, seeds[s]);
        enum { BUCKETS = 10, DRAWS = 100000 };
        long counts[BUCKETS] = {0};
        for (int i = 0; i < DRAWS; i++) {
            counts[ttt_rng_below(&rng, BUCKETS)]++;
        }
        double expected = (double)DRAWS / BUCKETS, chi2 = 0;
        for (int b = 0; b < BUCKETS; b++) {
            double d = (double)counts[b] - expected;
            chi2 += d * d / expected;
        }
        assert_true(chi2 < 27.88);
    }
}

/* A bound that is not a power of two and close to 2^32 shows modulo bias if it is there: with n = 3 * 2^30,
 * a plain `next % n` would make the lower third twice as likely as the rest. */
static void test_below_has_no_modulo_bias(void **state)
{
    (void)state;
    ttt_rng rng;
    ttt_rng_seed(&rng, 5);
    const uint32_t n = UINT32_C(3) << 30;
    long low = 0;
    const long draws = 300000;
    for (long i = 0; i < draws; i++) {
        low += ttt_rng_below(&rng, n) < n / 3;
    }
    /* expected draws / 3 = 100000, standard deviation about 258 */
    assert_in_range(low, 97000, 103000);
}

static void test_double_in_unit_interval(void **state)
{
    (void)state;
    ttt_rng rng;
    ttt_rng_seed(&rng, 31337);
    double sum = 0, lo = 1, hi = 0;
    const int draws = 100000;
    int below_tenth = 0;
    for (int i = 0; i < draws; i++) {
        double d = ttt_rng_double(&rng);
        assert_true(d >= 0.0);
        assert_true(d < 1.0);
        sum += d;
        lo = d < lo ? d : lo;
        hi = d > hi ? d : hi;
        below_tenth += d < 0.1;
    }
    double mean = sum / draws;
    assert_true(mean > 0.49 && mean < 0.51);
    assert_true(lo < 0.001);
    assert_true(hi > 0.999);
    assert_in_range(below_tenth, 9400, 10600);
}

static void test_double_is_deterministic(void **state)
{
    (void)state;
    ttt_rng a, b;
    ttt_rng_seed(&a, 8);
    ttt_rng_seed(&b, 8);
    for (int i = 0; i < 100; i++) {
        assert_true(ttt_rng_double(&a) == ttt_rng_double(&b));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_splitmix64_matches_reference),
        cmocka_unit_test(test_same_seed_same_stream),
        cmocka_unit_test(test_different_seeds_differ),
        cmocka_unit_test(test_seed_zero_is_a_valid_stream),
        cmocka_unit_test(test_below_stays_in_range),
        cmocka_unit_test(test_below_hits_every_value),
        cmocka_unit_test(test_below_is_roughly_uniform),
        cmocka_unit_test(test_below_has_no_modulo_bias),
        cmocka_unit_test(test_double_in_unit_interval),
        cmocka_unit_test(test_double_is_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
