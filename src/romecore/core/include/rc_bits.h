/* rc_bits.h - bit helpers shared by the kernels: popcount, lowest bit, multi-word bitsets
 * (arrays of 64-bit words, for boards and card ids over 64), and the 128-bit set (two words)
 * for card zones over more than 64 card ids. */
#ifndef RC_BITS_H
#define RC_BITS_H

#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

/* Multi-word bitsets: member i is bit (i % 64) of word w[i / 64]; i >= 0, and the caller
 * sizes w for its largest member (RC_BITS_WORDS). */
#define RC_WORD_BITS 64
#define RC_BITS_WORDS(n) (((n) + RC_WORD_BITS - 1) / RC_WORD_BITS)

static inline int rc_bits_has(const uint64_t *w, int i) { return (int)((w[i >> 6] >> (i & 63)) & 1u); }
static inline void rc_bits_add(uint64_t *w, int i) { w[i >> 6] |= (1ULL << (i & 63)); }
static inline void rc_bits_del(uint64_t *w, int i) { w[i >> 6] &= ~(1ULL << (i & 63)); }
static inline int rc_bits_count(const uint64_t *w, int nwords) {
    int c = 0;
    for (int k = 0; k < nwords; k++) c += __builtin_popcountll(w[k]);
    return c;
}

typedef struct rc_set128 { uint64_t w[2]; } rc_set128;

static inline int rc_s128_has(const rc_set128 *s, int i) { return rc_bits_has(s->w, i); }
static inline void rc_s128_add(rc_set128 *s, int i) { rc_bits_add(s->w, i); }
static inline void rc_s128_del(rc_set128 *s, int i) { rc_bits_del(s->w, i); }
static inline int rc_s128_count(const rc_set128 *s) { return rc_bits_count(s->w, 2); }
static inline int rc_s128_empty(const rc_set128 *s) { return (s->w[0] | s->w[1]) == 0; }
/* Removes and returns the lowest member; the set must be non-empty. */
static inline int rc_s128_pop(rc_set128 *s) {
    if (s->w[0]) return rc_pop_lsb64(&s->w[0]);
    return 64 + rc_pop_lsb64(&s->w[1]);
}
/* Index of the n-th (0-based) member; n < count. */
static inline int rc_s128_nth(const rc_set128 *s, int n) {
    int c0 = __builtin_popcountll(s->w[0]);
    if (n < c0) return rc_nth_bit64(s->w[0], n);
    return 64 + rc_nth_bit64(s->w[1], n - c0);
}

/* Bit i set where byte i of x is non-zero, i < 8 (SWAR: adding 0x7F to a byte's low
 * seven bits carries into its top bit unless they are all zero, and never into the next
 * byte; the multiply gathers the eight top bits into one byte). */
static inline uint32_t rc_nonzero_bytes(uint64_t x) {
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL;
    uint64_t t = (((x & low7) + low7) | x) & ~low7;
    return (uint32_t)(((t >> 7) * 0x0102040810204080ULL) >> 56);
}

/* The inverse spread: byte i of the result is 0xFF where bit i of bits is set, else 0. */
static inline uint64_t rc_bytes_of_bits(uint32_t bits) {
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL;
    uint64_t x = ((uint64_t)(bits & 0xFFu) * 0x0101010101010101ULL) & 0x8040201008040201ULL;
    uint64_t t = (((x & low7) + low7) | x) & ~low7;
    return (t >> 7) * 0xFFULL;
}

/* Bit i set where bytes[i] == z, i < 8: eight bytes compared at once. */
static inline uint64_t rc_bytes_eq8(const uint8_t *bytes, uint8_t z) {
    uint64_t v;
    memcpy(&v, bytes, 8);
    return ~rc_nonzero_bytes(v ^ (0x0101010101010101ULL * z)) & 0xFFu;
}

/* Bit i set where bytes[i] == z, i < 16: one SSE2 compare where the compiler has it
 * (every x86-64), else two rc_bytes_eq8. */
static inline uint32_t rc_bytes_eq16(const uint8_t *bytes, uint8_t z) {
#if defined(__SSE2__)
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)bytes);
    return (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8((char)z)));
#else
    return (uint32_t)(rc_bytes_eq8(bytes, z) | (rc_bytes_eq8(bytes + 8, z) << 8));
#endif
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
