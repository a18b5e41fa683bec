/* rc_rng.h - the engine's random number generator.
 *
 * xoshiro256** (Blackman and Vigna), seeded through splitmix64.  Only fixed-width
 * integer arithmetic is used, so a seed gives the same stream on every platform.
 * Everything is static inline: kernels and search plugins each compile their own copy
 * and no call leaves C.
 */
#ifndef RC_RNG_H
#define RC_RNG_H

#include <stdint.h>

typedef struct rc_rng {
    uint64_t s[4];
} rc_rng;

static inline uint64_t rc_splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline void rc_rng_seed(rc_rng *r, uint64_t seed) {
    uint64_t x = seed;
    r->s[0] = rc_splitmix64(&x);
    r->s[1] = rc_splitmix64(&x);
    r->s[2] = rc_splitmix64(&x);
    r->s[3] = rc_splitmix64(&x);
}

static inline uint64_t rc_rotl64(uint64_t v, int k) {
    return (v << k) | (v >> (64 - k));
}

static inline uint64_t rc_rng_next(rc_rng *r) {
    uint64_t *s = r->s;
    uint64_t result = rc_rotl64(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rc_rotl64(s[3], 45);
    return result;
}

/* Uniform integer in [0, n), n >= 1; Lemire's multiply-shift with rejection (unbiased). */
static inline uint32_t rc_rng_below(rc_rng *r, uint32_t n) {
    uint64_t m = (uint64_t)(uint32_t)(rc_rng_next(r) >> 32) * (uint64_t)n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)(uint32_t)(rc_rng_next(r) >> 32) * (uint64_t)n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* Shuffles xs[0..n) in place (Fisher-Yates, every order equally likely). */
static inline void rc_shuffle_u8(uint8_t *xs, int n, rc_rng *r) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rc_rng_below(r, (uint32_t)(i + 1));
        uint8_t tmp = xs[i];
        xs[i] = xs[j];
        xs[j] = tmp;
    }
}

/* Moves k of xs[0..n), drawn without replacement, to the front (a partial Fisher-Yates
   shuffle: xs[0..k) is a uniform sample, in random order; k <= n). */
static inline void rc_sample_front_i32(int32_t *xs, int n, int k, rc_rng *r) {
    for (int i = 0; i < k; i++) {
        int j = i + (int)rc_rng_below(r, (uint32_t)(n - i));
        int32_t tmp = xs[i];
        xs[i] = xs[j];
        xs[j] = tmp;
    }
}

/* Uniform double in [0, 1) with 53 random bits. */
static inline double rc_rng_double(rc_rng *r) {
    return (double)(rc_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* A child stream: seeds a new generator from this one (for per-worker or per-world RNGs). */
static inline void rc_rng_split(rc_rng *r, rc_rng *child) {
    rc_rng_seed(child, rc_rng_next(r));
}

#endif
