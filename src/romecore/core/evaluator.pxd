# cython: language_level=3
"""Evaluators at C level: a function from a state struct to one value per player.

Convention: values estimate each player's return, so they lie in [0, 1] and sum to about
1 (winners share 1.0, as in State.returns()).  A heuristic built from expected final
scores turns them into such shares (for example a softmax over score differences).
Search code calls ``rc_evaluate``; it takes the C function when there is one and the
Python callable (holding the GIL) otherwise.  An evaluator may also judge moves
(``policy_fn``, C only: a learned net's policy head); tree searches can order a node's
children by it, one call for all of them.
"""
from libc.math cimport exp
from libc.stdint cimport int32_t

ctypedef void (*rc_eval_fn)(const void *state, const void *params, double *out) noexcept nogil
# A move judge: the probabilities, summing to 1, that ``player`` (to move at ``state``)
# should take each of ``acts[:n]`` (legal there), written to ``out[:n]``.
ctypedef void (*rc_policy_fn)(const void *state, const void *params, int player,
                              const int32_t *acts, int n, double *out) noexcept nogil

cdef class Evaluator:
    cdef rc_eval_fn fn          # NULL for an evaluator written in Python
    cdef rc_policy_fn policy_fn # NULL unless the evaluator also judges moves (a policy head)
    cdef const void *params     # the C function's parameters, owned by the subclass
    cdef readonly str game_id
    cdef readonly int nplayers  # the player count it was made for (0: any, as the heuristics)
    cdef readonly str name
    cdef object py_fn           # callable(state) -> sequence of floats, Python evaluators

cdef int rc_evaluate(Evaluator ev, object game, const void *state, int nplayers, double *out) except -1 nogil


cdef inline void rc_softmax_shares(const double *est, int n, double temperature,
                                   double *out) noexcept nogil:
    """Turns expected final scores into return estimates: a softmax over players at the
    given temperature (in points), so they lie in [0, 1] and sum to 1."""
    cdef double hi = est[0], total = 0.0
    cdef int p
    for p in range(1, n):
        if est[p] > hi:
            hi = est[p]
    for p in range(n):
        out[p] = exp((est[p] - hi) / temperature)
        total += out[p]
    for p in range(n):
        out[p] /= total
