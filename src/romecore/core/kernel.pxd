# cython: language_level=3
"""Cython declarations of the C-level game interface (include/rc_kernel.h), the RNG
(include/rc_rng.h) and the bit helpers (include/rc_bits.h).

Kernels ``cimport`` this to fill an ``rc_kernel`` table; search plugins ``cimport`` it to
drive any game through that table without touching Python objects.
"""
from libc.stdint cimport uint8_t, int32_t, int64_t, uint32_t, uint64_t
from cpython.pycapsule cimport PyCapsule_New

cdef extern from "rc_rng.h" nogil:
    ctypedef struct rc_rng:
        uint64_t s[4]
    void rc_rng_seed(rc_rng *r, uint64_t seed)
    uint64_t rc_rng_next(rc_rng *r)
    uint32_t rc_rng_below(rc_rng *r, uint32_t n)
    void rc_shuffle_u8(uint8_t *xs, int n, rc_rng *r)
    void rc_sample_front_i32(int32_t *xs, int n, int k, rc_rng *r)
    double rc_rng_double(rc_rng *r)
    void rc_rng_split(rc_rng *r, rc_rng *child)

cdef extern from "rc_bits.h" nogil:
    int rc_popcount64(uint64_t x)
    int rc_popcount32(uint32_t x)
    int rc_lsb64(uint64_t x)
    int rc_lsb32(uint32_t x)
    int rc_pop_lsb64(uint64_t *x)
    int rc_pop_lsb32(uint32_t *x)
    int rc_nth_bit64(uint64_t x, int n)
    int rc_bits_has(const uint64_t *w, int i)
    void rc_bits_add(uint64_t *w, int i)
    void rc_bits_del(uint64_t *w, int i)
    int rc_bits_count(const uint64_t *w, int nwords)
    ctypedef struct rc_set128:
        uint64_t w[2]
    int rc_s128_has(const rc_set128 *s, int i)
    void rc_s128_add(rc_set128 *s, int i)
    void rc_s128_del(rc_set128 *s, int i)
    int rc_s128_count(const rc_set128 *s)
    int rc_s128_empty(const rc_set128 *s)
    int rc_s128_nth(const rc_set128 *s, int n)
    int rc_s128_pop(rc_set128 *s)
    uint32_t rc_nonzero_bytes(uint64_t x)
    uint64_t rc_bytes_of_bits(uint32_t bits)
    uint64_t rc_bytes_eq8(const uint8_t *bytes, uint8_t z)
    uint32_t rc_bytes_eq16(const uint8_t *bytes, uint8_t z)
    void rc_s128_where(rc_set128 *out, const uint8_t *bytes, int n, uint8_t z)

cdef extern from "rc_kernel.h" nogil:
    enum:
        RC_ABI_VERSION
        RC_CHANCE
        RC_TERMINAL
        RC_MAX_PLAYERS
        RC_MAX_PARAMS
    const uint32_t RC_HIDDEN

    ctypedef struct rc_kernel:
        uint32_t abi_version
        uint32_t state_size
        uint32_t state_version
        int32_t num_actions
        int32_t max_legal
        int32_t max_game_length
        void (*init)(void *s, const int32_t *params) noexcept nogil
        int (*num_players)(const void *s) noexcept nogil
        int (*current_player)(const void *s) noexcept nogil
        int (*legal_actions)(const void *s, int32_t *out) noexcept nogil
        int (*chance_outcomes)(const void *s, int32_t *actions, double *probs) noexcept nogil
        int32_t (*sample_chance)(const void *s, rc_rng *rng) noexcept nogil
        void (*apply)(void *s, int32_t action) noexcept nogil
        void (*returns)(const void *s, double *out) noexcept nogil
        void (*scores)(const void *s, int32_t *out) noexcept nogil
        void (*resample)(void *s, int player, rc_rng *rng) noexcept nogil
        uint32_t (*observe_action)(const void *s, int observer, int32_t action) noexcept nogil
        const char *(*validate)(const void *s) noexcept nogil
        int32_t max_tensor_size
        int32_t (*tensor_size)(const int32_t *params) noexcept nogil
        void (*observation_tensor)(const void *s, int player, float *out) noexcept nogil
        int (*apply_legal)(void *s, int32_t action, int32_t *out) noexcept nogil

    int32_t rc_sample_chance(const rc_kernel *k, const void *s, rc_rng *rng,
                             int32_t *actions, double *probs)
    int32_t rc_random_step(const rc_kernel *k, void *s, rc_rng *rng,
                           int32_t *actions, double *probs)
    int32_t rc_random_step_listed(const rc_kernel *k, void *s, rc_rng *rng,
                                  int32_t *actions, double *probs, int *listed)
    int rc_playout(const rc_kernel *k, void *s, rc_rng *rng, int32_t *actions, double *probs)
    void rc_share_wins(const int64_t *key, int n, double *out)
    uint64_t rc_hash_bytes(const void *data, uint32_t size)
    const char *rc_check_padding(const void *start, const void *end)


cdef inline object rc_kernel_capsule(rc_kernel *k):
    """The capsule a GameSpec carries: the address of a game's kernel table, under the
    name ``romecore.rc_kernel`` that Game checks."""
    return PyCapsule_New(<void *>k, "romecore.rc_kernel", NULL)
