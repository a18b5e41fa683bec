/* rc_bits.h - bit helpers shared by the kernels: popcount, lowest bit, and a 128-bit set
 * (two 64-bit words) for card zones over more than 64 card ids. */
#ifndef RC_BITS_H
#define RC_BITS_H

#include <stdint.h>

static inline int rc_popcount64(uint64_t x) { return __builtin_popcountll(x); }
static inline int rc_popcount32(uint32_t x) { return __builtin_popcount(x); }
/* Index of the lowest set bit; x must be non-zero. */
static inline int rc_lsb64(uint64_t x) { return __builtin_ctzll(x); }
static inline int rc_lsb32(uint32_t x) { return __builtin_ctz(x); }
/* Removes and returns the lowest set bit's index; *x must be non-zero. */
static inline int rc_pop_lsb64(uint64_t *x) { int i = __builtin_ctzll(*x); *x &= *x - 1; return i; }
static inline int rc_pop_lsb32(uint32_t *x) { int i = __builtin_ctz(*x); *x &= *x - 1; return i; }
/* Index of the n-th (0-based) set bit of x; n < popcount(x). */
static inline int rc_nth_bit64(uint64_t x, int n) {
    while (n-- > 0) x &= x - 1;
    return __builtin_ctzll(x);
}

typedef struct rc_set128 { uint64_t w[2]; } rc_set128;

static inline int rc_s128_has(const rc_set128 *s, int i) { return (int)((s->w[i >> 6] >> (i & 63)) & 1u); }
static inline void rc_s128_add(rc_set128 *s, int i) { s->w[i >> 6] |= (1ULL << (i & 63)); }
static inline void rc_s128_del(rc_set128 *s, int i) { s->w[i >> 6] &= ~(1ULL << (i & 63)); }
static inline int rc_s128_count(const rc_set128 *s) { return __builtin_popcountll(s->w[0]) + __builtin_popcountll(s->w[1]); }
static inline int rc_s128_empty(const rc_set128 *s) { return (s->w[0] | s->w[1]) == 0; }
/* Index of the n-th (0-based) member; n < count. */
static inline int rc_s128_nth(const rc_set128 *s, int n) {
    int c0 = __builtin_popcountll(s->w[0]);
    if (n < c0) return rc_nth_bit64(s->w[0], n);
    return 64 + rc_nth_bit64(s->w[1], n - c0);
}

#endif
