/* rc_bits.h - bit helpers shared by the kernels: popcount, lowest bit, and a 128-bit set
 * (two 64-bit words) for card zones over more than 64 card ids. */
#ifndef RC_BITS_H
#define RC_BITS_H

#include <stdint.h>
#include <string.h>

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

/* Bit i set where bytes[i] == z, i < 8: eight bytes compared at once (SWAR).  A byte of
 * v = word ^ z is zero exactly where it matched; its top bit after the carry-free test
 * below marks that, and the multiply gathers the eight top bits into one byte. */
static inline uint64_t rc_bytes_eq8(const uint8_t *bytes, uint8_t z) {
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL;
    uint64_t v, t;
    memcpy(&v, bytes, 8);
    v ^= 0x0101010101010101ULL * z;
    t = ~(((v & low7) + low7) | v | low7);
    return ((t >> 7) * 0x0102040810204080ULL) >> 56;
}

/* The set of i < n (n <= 128) where bytes[i] == z: card ids in one zone, from a
 * card -> zone table, without a branch per card.  Reads bytes[0 .. n - 1] only. */
static inline void rc_s128_where(rc_set128 *out, const uint8_t *bytes, int n, uint8_t z) {
    int i = 0;
    out->w[0] = out->w[1] = 0;
    for (; i + 8 <= n; i += 8)
        out->w[i >> 6] |= rc_bytes_eq8(bytes + i, z) << (i & 63);
    for (; i < n; i++)
        if (bytes[i] == z) out->w[i >> 6] |= 1ULL << (i & 63);
}

#endif
