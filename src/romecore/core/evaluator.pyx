# cython: language_level=3
"""Evaluator objects: the C-level ones that kernels' heuristic plugins define (each game's
hand-written heuristic is a ``HeuristicEvaluator``: its own weights and estimates, the
shared softmax here), and a wrapper that lets a Python function serve as an evaluator
(the slow path)."""
from libc.stdint cimport int32_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from romecore.core.state cimport Game, State
from romecore.core.kernel cimport RC_MAX_PLAYERS
import warnings

from romecore.errors import ArgumentTypeError, EvaluatorError, InvalidArgumentError


cdef class Evaluator:
    """Maps a state to one value per player (see the module's convention).

    Subclasses in Cython set ``fn`` and ``params``; ``PyEvaluator`` wraps a Python
    function.  Calling an evaluator on a :class:`romecore.State` returns a list.
    """

    def __cinit__(self):
        self.fn = NULL
        self.policy_fn = NULL
        self.params = NULL
        self.py_fn = None
        self.game_id = ""
        self.nplayers = 0
        self.name = ""

    def __call__(self, state):
        if not isinstance(state, State):
            raise ArgumentTypeError(f"an evaluator takes a romecore State, got {type(state).__name__}")
        cdef State st = <State>state
        cdef int n = st.k.num_players(st.s), i
        cdef double out[RC_MAX_PLAYERS]
        self._check(st)
        if self.fn != NULL:
            self.fn(st.s, self.params, out)
            return [out[i] for i in range(n)]
        if self.py_fn is None:
            raise NotImplementedError("evaluator has neither a C nor a Python function")
        return [float(v) for v in self.py_fn(state)]

    def misfit(self, game):
        """Why the evaluator may not judge ``game``'s states, or None where it may: it
        must be of the same game (a C evaluator must name one, as it reads the state's
        struct as its own game's) and, where it was made for one, the same player count."""
        if self.fn != NULL and not self.game_id:
            return f"evaluator {self.name!r} runs in C but names no game"
        if self.game_id and self.game_id != game.game_id:
            return f"evaluator {self.name!r} is made for {self.game_id}, not {game.game_id}"
        if self.nplayers and self.nplayers != game.num_players():
            return f"evaluator {self.name!r} is made for {self.nplayers} players, not {game.num_players()}"
        return None

    def fits(self, game):
        """Whether the evaluator may judge ``game``'s states (see :meth:`misfit`)."""
        return self.misfit(game) is None

    def _check(self, State st):
        """EvaluatorError unless ``st`` is of a game the evaluator fits."""
        why = self.misfit(st.game)
        if why is not None:
            raise EvaluatorError(why)

    @property
    def is_native(self):
        """True when the evaluator runs in C (no Python call per evaluation)."""
        return self.fn != NULL

    @property
    def has_policy(self):
        """True when the evaluator also judges moves (see :meth:`policy`)."""
        return self.policy_fn != NULL

    def policy(self, state):
        """``{action: probability}`` over the legal actions of ``state`` for the player to
        move, by the evaluator's move judge (the C pass a tree search's priors use)."""
        if not isinstance(state, State):
            raise ArgumentTypeError(f"an evaluator takes a romecore State, got {type(state).__name__}")
        cdef State st = <State>state
        self._check(st)
        if self.policy_fn == NULL:
            raise EvaluatorError(f"evaluator {self.name!r} does not judge moves (no policy head)")
        cdef int p = st.k.current_player(st.s), n, i
        if not 0 <= p < st.k.num_players(st.s):
            raise EvaluatorError("the policy judges a player's decision; no player is to move here")
        cdef int32_t *acts = <int32_t *>malloc(sizeof(int32_t) * st.k.max_legal)
        cdef double *out = <double *>malloc(sizeof(double) * st.k.max_legal)
        try:
            if acts == NULL or out == NULL:
                raise MemoryError()
            n = st.k.legal_actions(st.s, acts)
            self.policy_fn(st.s, self.params, p, acts, n, out)
            return {int(acts[i]): out[i] for i in range(n)}
        finally:
            free(acts)
            free(out)

    def __repr__(self):
        kind = "C" if self.fn != NULL else "Python"
        return f"<Evaluator {self.name!r} for {self.game_id} ({kind})>"


cdef class PyEvaluator(Evaluator):
    """An evaluator written in Python: ``fn(state) -> [value per player]``.

    Search plugins accept it like a C evaluator; each call re-enters Python, so it is
    much slower, but it lets research code try a heuristic without compiling anything.
    """

    def __init__(self, fn, game_id="", name="python"):
        if not callable(fn):
            raise ArgumentTypeError(f"PyEvaluator needs a callable, got {type(fn).__name__}")
        self.py_fn = fn
        self.game_id = game_id
        self.name = name


cdef void rc_heuristic_values(const void *state, const void *params, double *out) noexcept nogil:
    """A hand-written heuristic's values (``params`` is its ``rc_heuristic``): the exact
    returns at the end, else return estimates in [0, 1] summing to 1, the softmax of the
    expected final scores at a temperature that shrinks as the game nears its end."""
    cdef const rc_heuristic *h = <const rc_heuristic *>params
    cdef double est[RC_MAX_PLAYERS]
    cdef int n
    if h.is_over(state):
        h.returns(state, out)
        return
    n = h.estimates(state, h.weights, est)
    rc_softmax_shares(est, n, h.temperature + h.temperature_left * h.time_left(state, h.weights), out)


cdef class HeuristicEvaluator(Evaluator):
    """A game's hand-written evaluator (C): the game's subclass merges its weights into its
    own struct and hands it, with its C functions, to :meth:`set_heuristic`; the values
    are ``rc_heuristic_values``'s, the same formula for every game."""

    def __cinit__(self):
        memset(&self.heur, 0, sizeof(rc_heuristic))
        self.weights = {}

    cdef set_heuristic(self, str game_id, dict weights, const void *weights_struct,
                       rc_estimates_fn estimates, rc_time_left_fn time_left,
                       rc_is_over_fn is_over, rc_returns_fn returns):
        """Makes the evaluator ``game_id``'s heuristic on ``weights`` (merged, with the
        ``temperature`` and ``temperature_left`` every heuristic has), whose C copy
        ``weights_struct`` the subclass owns."""
        self.heur.estimates = estimates
        self.heur.time_left = time_left
        self.heur.is_over = is_over
        self.heur.returns = returns
        self.heur.weights = weights_struct
        self.heur.temperature = weights["temperature"]
        self.heur.temperature_left = weights["temperature_left"]
        self.weights = weights
        self.fn = rc_heuristic_values
        self.params = &self.heur
        self.game_id = game_id
        self.name = "heuristic"

    def estimates(self, state):
        """Each player's expected final score (the numbers behind the values)."""
        cdef double est[RC_MAX_PLAYERS]
        cdef int n, p
        if self.heur.estimates == NULL:
            raise EvaluatorError(f"evaluator {self.name!r} has no estimates (no game set it up)")
        cdef State st = checked_state(state, self.game_id)
        n = self.heur.estimates(st.s, self.heur.weights, est)
        return [est[p] for p in range(n)]


def checked_state(state, str game_id):
    """``state`` if it is a State of ``game_id`` (an evaluator's extra methods read its
    struct); a romecore error otherwise, never a read of another object's memory."""
    if not isinstance(state, State):
        raise ArgumentTypeError(f"expected a {game_id} State, got {type(state).__name__}")
    if (<State>state).game.game_id != game_id:
        raise InvalidArgumentError(f"this evaluator is for {game_id}, not {(<State>state).game.game_id}")
    return state


def merge_weights(dict defaults, dict overrides, game, str game_id, dict renamed=None):
    """A heuristic's weights: its defaults with the caller's overrides (floats), refusing
    unknown names, a game other than its own, and softmax temperatures out of range
    (``temperature`` > 0, each ``temperature_*`` increment >= 0).  ``renamed`` maps a
    weight's former names to its name: still accepted, with a DeprecationWarning."""
    if renamed:
        overrides = dict(overrides)
        for old, new in renamed.items():
            if old in overrides:
                warnings.warn(f"weight {old!r} is now {new!r}", DeprecationWarning, stacklevel=3)
                overrides[new] = overrides.pop(old)
    unknown = set(overrides) - set(defaults)
    if unknown:
        raise EvaluatorError(f"unknown heuristic weights: {', '.join(sorted(unknown))} "
                             f"(weights: {', '.join(defaults)})")
    if game is not None and game.game_id != game_id:
        raise EvaluatorError(f"this evaluator is for {game_id}, not {game.game_id}")
    merged = dict(defaults)
    for k, v in overrides.items():
        try:
            merged[k] = float(v)
        except (TypeError, ValueError):
            raise EvaluatorError(f"heuristic weight {k} must be a number, got {type(v).__name__}") from None
    if merged.get("temperature", 1.0) <= 0 or any(
            v < 0 for k, v in merged.items() if k.startswith("temperature_")):
        raise EvaluatorError("temperatures must be positive")
    return merged


cdef int rc_evaluate(Evaluator ev, object game, const void *state, int nplayers, double *out) except -1 nogil:
    """Evaluates a raw state struct; ``game`` is the Game the struct belongs to (needed
    only to wrap the struct for a Python evaluator)."""
    cdef int i
    if ev.fn != NULL:
        ev.fn(state, ev.params, out)
        return 0
    with gil:
        st = (<Game>game)._new_state()
        memcpy((<State>st).s, state, (<Game>game).k.state_size)
        vals = ev.py_fn(st)
        if len(vals) != nplayers:
            raise EvaluatorError(f"evaluator returned {len(vals)} values for {nplayers} players")
        for i in range(nplayers):
            out[i] = float(vals[i])
    return 0
