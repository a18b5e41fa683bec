# cython: language_level=3
from libc.stdint cimport int8_t, uint8_t, int16_t, int32_t, uint32_t, int64_t, uint64_t
from romecore_search.core cimport SearchAgent, rc_stack


ctypedef struct ab_entry:
    uint64_t key
    float value
    int16_t depth
    uint8_t flag          # TT_EXACT, TT_LOWER or TT_UPPER
    uint8_t gen           # search generation; another generation reads as empty
    int32_t move          # best move found here, -1 none


cdef class AlphaBetaAgent(SearchAgent):
    cdef readonly bint brs              # best-reply search, else paranoid
    cdef readonly int chance_mode       # CH_STAR1, CH_STAR2 or CH_SAMPLE
    cdef readonly int chance_samples
    cdef readonly bint ordering
    cdef readonly int max_depth
    cdef int root_player
    cdef bint aborted
    cdef rc_stack states                # one position per ply
    cdef uint64_t *hashes               # Zobrist key per ply
    cdef int8_t *brs_player             # per ply: the opponent whose reply is searched
    cdef uint32_t *brs_default          # per ply: opponents that play their default move
    cdef int8_t *movers                 # per ply: the player whose move led here (-1: chance)
    cdef int8_t *exts                   # per ply: horizon extensions on the path so far
    cdef readonly int extend            # most extension plies on one path (0: none)
    cdef int32_t *ply_acts              # per ply: move list
    cdef double *ply_probs              # per ply: chance probabilities / ordering scores
    cdef double *ply_lo                 # per ply: lower / upper bounds of chance outcomes
    cdef double *ply_hi
    cdef int max_ply
    cdef uint64_t *zobrist              # state_size x 256 keys
    cdef ab_entry *tt
    cdef uint64_t tt_mask
    cdef uint8_t gen
    cdef readonly bint partial          # play the best of an unfinished iteration's searched moves
    cdef readonly bint pvs              # principal variation search (null windows after the first move)
    cdef readonly int lmr               # late move reductions: the first move index reduced (0: off)
    cdef readonly bint reuse            # go on in the turn's world (and its table) while the mover decides again
    cdef int64_t leaf_evals
    cdef int64_t leaf_hits
    cdef bint _fixed_depth

    cdef void _new_world(self) noexcept nogil
    cdef double _cached_chance_leaf(self, int ply) except? -2.0 nogil
    cdef double _ab(self, int ply, int depth, double alpha, double beta) except? -2.0 nogil
    cdef double _chance(self, int ply, int depth, double alpha, double beta) except? -2.0 nogil
    cdef double _child(self, int ply, int depth, int32_t a, double alpha, double beta, int bp,
                       uint32_t dm) except? -2.0 nogil
    cdef void _enter(self, int ply, int32_t a, int bp, uint32_t dm) noexcept nogil
    cdef bint _extends(self, int ply, int p) noexcept nogil
    cdef double _chance_leaf(self, int ply) except? -2.0 nogil
    cdef double _leaf(self, const void *s) except? -2.0 nogil
    cdef int _order(self, int ply, int n, bint maximize, int32_t first, bint by_eval) except -1 nogil
    cdef int32_t _default_move(self, int ply, int n, int mover) except -2 nogil
    cdef uint64_t _rehash(self, int ply) noexcept nogil
    cdef uint64_t _rehash_from(self, int ply) noexcept nogil
    cdef uint64_t _hash(self, int ply) noexcept nogil
    cdef void _store(self, uint64_t key, double v, int depth, int flag, int32_t move) noexcept nogil
    cdef uint64_t _key(self, int ply) noexcept nogil
    cdef int _probe(self, int ply, int depth, double *lo, double *hi) except -1 nogil
    cdef int32_t _iterate(self, const void *start, int player) except -2
