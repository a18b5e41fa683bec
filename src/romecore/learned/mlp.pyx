# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The learned evaluator's forward pass in C: a ReLU multi-layer perceptron over the
kernel's observation tensor, one value head per seat, and where the weights have one a
policy head over the game's actions (``ln_policy``, the evaluator's ``policy_fn``: a tree
search's priors for all of a node's children in one pass, on the mover's view).

Whose tensor: the player to move's.  The net was trained on every seat's view (see
:mod:`romecore.learned.selfplay`), so any view is in its distribution; the mover's is the
one a search's choice at that node turns on, and one view costs one pass.  At a chance node
there is no mover, so the values are the mean over every seat's view; at the end they are
the exact returns.  The head's outputs are seat-relative (viewer first, then p+1, ...), a
softmax turns them into shares in [0, 1] summing to 1, written back to absolute seats.
A residual net first asks its base evaluator's C function for the position's values and
adds ``base_scale * log(value)`` (rotated to the viewer) to each logit before the softmax;
at a chance node the base is asked once for all the views.

Memory: the weights are contiguous float32 arrays the evaluator owns and never writes after
construction; each call keeps its tensor and activations on its own C stack (at most
MAX_INPUT + 2 * MAX_HIDDEN floats, 33 KB), so nothing is allocated per call and two threads
searching with one evaluator share only read-only memory.  Layers skip zero inputs (the
tensor is mostly zeros, ReLU outputs often are), so the first layer costs about
(non-zero inputs) x (first hidden width) multiply-adds.
"""
from libc.math cimport exp, log
from libc.stdint cimport int32_t

from romecore.core.evaluator cimport Evaluator, rc_eval_fn
from romecore.core.kernel cimport RC_MAX_PLAYERS, RC_TERMINAL, rc_kernel
from romecore.core.state cimport Game, State

import os

import numpy as np

from romecore.errors import ArgumentTypeError, EvaluatorError, SerializationError
from romecore.learned.weights import BASE_FLOOR as _BASE_FLOOR
from romecore.learned.weights import MAX_HIDDEN as _PY_MAX_HIDDEN
from romecore.learned.weights import MAX_INPUT as _PY_MAX_INPUT
from romecore.learned.weights import MAX_LAYERS as _PY_MAX_LAYERS
from romecore.learned.weights import Weights, check_weights, load_weights

cdef enum:
    LN_MAX_LAYERS = 5       # hidden layers (MAX_LAYERS) + the value head
    LN_MAX_HIDDEN = 256
    LN_MAX_INPUT = 8192

assert _PY_MAX_LAYERS + 1 == LN_MAX_LAYERS and _PY_MAX_HIDDEN == LN_MAX_HIDDEN \
    and _PY_MAX_INPUT == LN_MAX_INPUT, "weights.py and mlp.pyx disagree on the bounds"


cdef struct ln_params:
    const rc_kernel *k
    int nplayers
    int nlayers
    int sizes[LN_MAX_LAYERS + 1]     # sizes[0]: tensor floats; sizes[i + 1]: outputs of layer i
    const float *W[LN_MAX_LAYERS]    # (sizes[i], sizes[i + 1]) row-major
    const float *b[LN_MAX_LAYERS]
    rc_eval_fn base_fn               # a residual net's base evaluator; NULL for a plain net
    const void *base_params
    double base_scale
    double base_floor
    int nactions                     # the policy head's outputs (0: no policy head)
    const float *PWt                 # (nactions, last hidden) row-major: the head transposed
    const float *Pb


cdef inline void ln_layer(const float *x, int nin, const float *W, const float *b, int nout,
                          float *y) noexcept nogil:
    """y = x @ W + b, skipping zero inputs (rows of W are contiguous)."""
    cdef int i, j
    cdef float v
    cdef const float *row
    for j in range(nout):
        y[j] = b[j]
    for i in range(nin):
        v = x[i]
        if v != 0.0:
            row = W + <size_t>i * nout
            for j in range(nout):
                y[j] += v * row[j]


cdef inline const float *ln_trunk(const ln_params *P, const void *s, int p, float *x, float *h) noexcept nogil:
    """Seat p's tensor of s (into ``x``, MAX_INPUT floats) through the hidden layers
    (activations in ``h``, 2 * MAX_HIDDEN floats); returns the last hidden layer's
    activations, the input of both heads."""
    cdef const float *inp = x
    cdef float *y
    cdef int L, j
    P.k.observation_tensor(s, p, x)
    for L in range(P.nlayers - 1):
        y = h + (L & 1) * LN_MAX_HIDDEN
        ln_layer(inp, P.sizes[L], P.W[L], P.b[L], P.sizes[L + 1], y)
        for j in range(P.sizes[L + 1]):
            if y[j] < 0.0:
                y[j] = 0.0
        inp = y
    return inp


cdef void ln_view(const ln_params *P, const void *s, int p, const double *base, double *out) noexcept nogil:
    """The values of every seat (absolute) as seat p's view of s judges them; ``base``: the
    base evaluator's values of s (absolute seats), read only by a residual net."""
    cdef float x[LN_MAX_INPUT]
    cdef float h[2 * LN_MAX_HIDDEN]
    cdef float v[RC_MAX_PLAYERS]
    cdef int j, n = P.nplayers, last = P.nlayers - 1
    cdef double z[RC_MAX_PLAYERS]
    cdef const float *hid = ln_trunk(P, s, p, x, h)
    ln_layer(hid, P.sizes[last], P.W[last], P.b[last], n, v)
    for j in range(n):
        z[j] = v[j]
        if P.base_fn != NULL:
            z[j] += P.base_scale * log(base[(p + j) % n] if base[(p + j) % n] > P.base_floor else P.base_floor)
    ln_softmax(z, n)
    for j in range(n):
        out[(p + j) % n] = z[j]


cdef inline void ln_softmax(double *z, int n) noexcept nogil:
    """z[:n] becomes softmax(z[:n]), in place."""
    cdef double hi = z[0], total = 0.0
    cdef int j
    for j in range(1, n):
        if z[j] > hi:
            hi = z[j]
    for j in range(n):
        z[j] = exp(z[j] - hi)
        total += z[j]
    for j in range(n):
        z[j] /= total


cdef void ln_policy(const void *s, const void *params, int p, const int32_t *acts, int n,
                    double *out) noexcept nogil:
    """The rc_policy_fn: the policy head's softmax over ``acts[:n]`` on seat p's view (an
    action outside the head's range gets probability 0).  One trunk pass, then one dot
    product per action over the head's transposed (contiguous) column."""
    cdef const ln_params *P = <const ln_params *>params
    cdef float x[LN_MAX_INPUT]
    cdef float h[2 * LN_MAX_HIDDEN]
    cdef const float *hid = ln_trunk(P, s, p, x, h)
    cdef const float *col
    cdef int i, j, m = P.sizes[P.nlayers - 1]
    cdef int32_t a
    cdef float z
    if n <= 0:
        return
    for i in range(n):
        a = acts[i]
        if 0 <= a < P.nactions:
            col = P.PWt + <size_t>a * m
            z = P.Pb[a]
            for j in range(m):
                z += hid[j] * col[j]
            out[i] = z
        else:
            out[i] = -1e30
    ln_softmax(out, n)


cdef void ln_evaluate(const void *s, const void *params, double *out) noexcept nogil:
    """The rc_eval_fn: the mover's view; the mean of all views at a chance node; the
    returns at the end."""
    cdef const ln_params *P = <const ln_params *>params
    cdef int cp = P.k.current_player(s), p, j, n = P.nplayers
    cdef double tmp[RC_MAX_PLAYERS]
    cdef double base[RC_MAX_PLAYERS]
    if cp == RC_TERMINAL:
        P.k.returns(s, out)
        return
    if P.base_fn != NULL:
        P.base_fn(s, P.base_params, base)
    if 0 <= cp < n:
        ln_view(P, s, cp, base, out)
        return
    for j in range(n):
        out[j] = 0.0
    for p in range(n):
        ln_view(P, s, p, base, tmp)
        for j in range(n):
            out[j] += tmp[j] / n


cdef class LearnedEvaluator(Evaluator):
    """The learned evaluator of one game: ``LearnedEvaluator(game, path)`` loads and checks a
    weights file (:mod:`romecore.learned.weights`); a :class:`Weights` object works too."""

    cdef ln_params P
    cdef list _keep
    cdef readonly object weights
    cdef readonly object base
    cdef readonly str path

    def __init__(self, game, weights):
        if not isinstance(game, Game):
            raise ArgumentTypeError(f"a learned evaluator needs a romecore Game, got {type(game).__name__}")
        if isinstance(weights, (str, os.PathLike)):
            self.path = os.fspath(weights)
            weights = load_weights(self.path, game)
        elif isinstance(weights, Weights):
            self.path = ""
            check_weights(weights, game)
        else:
            raise ArgumentTypeError(f"weights must be a path or a Weights, got {type(weights).__name__}")
        cdef Game g = <Game>game
        self.weights = weights
        self._keep = []
        self.P.k = g.k
        self.P.nplayers = g.num_players()
        self.P.nlayers = len(weights.layers)
        self.P.sizes[0] = weights.tensor_size
        cdef float[:, ::1] wv
        cdef float[::1] bv
        for i, (w, b) in enumerate(weights.layers):
            w = np.ascontiguousarray(w, dtype=np.float32)
            b = np.ascontiguousarray(b, dtype=np.float32)
            self._keep += [w, b]
            wv = w
            bv = b
            self.P.W[i] = &wv[0, 0]
            self.P.b[i] = &bv[0]
            self.P.sizes[i + 1] = w.shape[1]
        self.game_id = g.game_id
        self.nplayers = g.num_players()
        self.name = "learned"
        self.P.base_fn = NULL
        self.base = None
        if weights.base is not None:
            self._set_base(game, weights)
        self.P.nactions = 0
        cdef float[:, ::1] pv
        if weights.policy is not None:
            pw = np.ascontiguousarray(np.asarray(weights.policy[0], dtype=np.float32).T)
            pb = np.ascontiguousarray(weights.policy[1], dtype=np.float32)
            self._keep += [pw, pb]
            pv = pw
            bv = pb
            self.P.PWt = &pv[0, 0]
            self.P.Pb = &bv[0]
            self.P.nactions = pw.shape[0]
            self.policy_fn = ln_policy
        self.fn = ln_evaluate
        self.params = &self.P

    def _set_base(self, game, weights):
        """Makes the residual net's base evaluator; an error names the file when it cannot."""
        from romecore.errors import RomecoreError
        from romecore.learned import residual_base

        where = f"weights file {self.path}" if self.path else "weights"
        err = SerializationError if self.path else EvaluatorError
        try:
            ev = residual_base(game, weights.base)
        except RomecoreError as e:
            raise err(f"{where}: base evaluator {weights.base!r} cannot serve for {self.game_id}: {e}") from None
        cdef Evaluator b = ev  # (a checked assignment: residual_base gives an Evaluator)
        self.base = b
        self.P.base_fn = b.fn
        self.P.base_params = b.params
        self.P.base_scale = weights.base_scale
        self.P.base_floor = _BASE_FLOOR

    def view_values(self, state, int player):
        """The values of every seat as ``player``'s view of ``state`` judges them (the C pass
        the evaluator runs for the mover), for tests and tools."""
        if not isinstance(state, State):
            raise ArgumentTypeError(f"expected a State, got {type(state).__name__}")
        cdef State st = <State>state
        self._check(st)
        if not 0 <= player < self.P.nplayers:
            raise EvaluatorError(f"player {player} is not a seat of a {self.P.nplayers}-player game")
        cdef double out[RC_MAX_PLAYERS]
        cdef double base[RC_MAX_PLAYERS]
        with nogil:
            if self.P.base_fn != NULL:
                self.P.base_fn(st.s, self.P.base_params, base)
            ln_view(&self.P, st.s, player, base, out)
        return [out[j] for j in range(self.P.nplayers)]

    def rate(self, state, int calls=100000):
        """Evaluations per second of ``state`` through the C function (no Python per call)."""
        if not isinstance(state, State):
            raise EvaluatorError(f"expected a {self.game_id} {self.P.nplayers}-player State")
        cdef State st = <State>state
        self._check(st)
        if calls < 1:
            raise EvaluatorError("calls must be at least 1")
        cdef double out[RC_MAX_PLAYERS]
        cdef int _i
        import time
        t0 = time.perf_counter()
        with nogil:
            for _i in range(calls):
                ln_evaluate(st.s, &self.P, out)
        return calls / max(time.perf_counter() - t0, 1e-9)

    def __repr__(self):
        where = self.path or "in memory"
        over = f", residual over {self.weights.base}" if self.weights.base else ""
        return f"<LearnedEvaluator for {self.game_id} {self.P.nplayers}p, hidden {self.weights.hidden}{over} ({where})>"
