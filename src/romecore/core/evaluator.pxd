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


# A hand-written heuristic is one game's C functions over its own struct and weights
# (``rc_heuristic``'s hooks); the rest, the same for every game, is ``rc_heuristic_values``:
# the kernel's exact returns at the end, else the estimates' softmax at a temperature of
# ``temperature + temperature_left * time_left``.
# Each player's expected final score, written to est[:n]; returns n, the players.
ctypedef int (*rc_estimates_fn)(const void *state, const void *weights, double *est) noexcept nogil
# How much of the game is left, in the unit ``temperature_left`` is per (a share, rounds).
ctypedef double (*rc_time_left_fn)(const void *state, const void *weights) noexcept nogil
ctypedef bint (*rc_is_over_fn)(const void *state) noexcept nogil
ctypedef void (*rc_returns_fn)(const void *state, double *out) noexcept nogil

cdef struct rc_heuristic:
    rc_estimates_fn estimates
    rc_time_left_fn time_left
    rc_is_over_fn is_over
    rc_returns_fn returns       # the kernel's own: winners share 1.0
    const void *weights         # the game's weights struct, owned by the evaluator
    double temperature          # the softmax temperature at the end of the game
    double temperature_left     # + this per unit of time left

cdef void rc_heuristic_values(const void *state, const void *params, double *out) noexcept nogil

cdef class HeuristicEvaluator(Evaluator):
    cdef rc_heuristic heur
    cdef readonly dict weights
    cdef set_heuristic(self, str game_id, dict weights, const void *weights_struct,
                       rc_estimates_fn estimates, rc_time_left_fn time_left,
                       rc_is_over_fn is_over, rc_returns_fn returns)


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
