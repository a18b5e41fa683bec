# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The greedy agent: one move of look-ahead, judged by an evaluator.

For each legal action it applies the action and asks the evaluator how good the result is
for the player who moved; chance events that follow are resolved by sampling (``samples``
draws, averaged).  A move that the kernel splits into several consecutive decisions of one
player (in The Great City of Rome: take a card, choose a building, choose its cell,
produce, end the turn) is searched as a whole by default (``lookahead=turn``), so the
evaluator judges a finished move, not half of one; ``lookahead=action`` looks one decision
ahead only.  Ties go to a seeded random choice.
"""
from libc.stdint cimport int32_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy

from romecore.core.kernel cimport (
    rc_kernel, rc_rng_below, RC_CHANCE, RC_TERMINAL, RC_MAX_PLAYERS,
)
from romecore_search.core cimport (
    SearchAgent, stack_init, stack_free, stack_at, budget_tick, budget_done, play_chance,
)
from romecore.errors import AgentSpecError
from romecore.spec import param_values
from romecore_search import BUDGET_PARAMS

#: The parameters and their defaults (the ``greedy`` spec's table).
PARAMS = {
    "nodes": (int, 0, "evaluations per move (0: 20000 unless time is given)"),
    **BUDGET_PARAMS,
    "evaluator": (str, "default", "evaluator name (default: the game's first, else playouts)"),
    "samples": (int, 1, "chance outcomes sampled after a move, averaged"),
    "lookahead": (str, "turn", "turn: search the mover's consecutive decisions together; action: one"),
    "max_depth": (int, 12, "most consecutive decisions searched in one move"),
}


cdef class GreedyAgent(SearchAgent):
    """One-move look-ahead by an evaluator (see the module docstring); parameters and
    defaults: :data:`PARAMS`."""

    def __init__(self, game, seed=None, **params):
        p = param_values("greedy", PARAMS, params)
        lookahead, evaluator = p["lookahead"], p["evaluator"]
        cdef int samples = p["samples"], max_depth = p["max_depth"]
        if samples < 1:
            raise AgentSpecError("samples must be at least 1")
        if lookahead not in ("turn", "action"):
            raise AgentSpecError(f"lookahead={lookahead!r}: choose turn or action")
        if not 1 <= max_depth <= 64:
            raise AgentSpecError("max_depth must lie in 1..64")
        if evaluator in (None, "none"):
            raise AgentSpecError("greedy needs an evaluator")
        self._configure(game, seed, p["nodes"], p["time"], evaluator, p["clock"])
        self.samples = samples
        self.whole_turn = lookahead == "turn"
        self.max_depth = max_depth if self.whole_turn else 1
        self.depth_acts = <int32_t *>malloc(sizeof(int32_t) * self.k.max_legal * (max_depth + 1))
        self.values = <double *>malloc(sizeof(double) * self.k.max_legal)
        if (self.depth_acts == NULL or self.values == NULL
                or stack_init(&self.states, self.k.state_size, max_depth + 2) < 0):
            raise MemoryError()

    def __dealloc__(self):
        stack_free(&self.states)
        free(self.depth_acts)
        free(self.values)

    cdef int32_t _search(self, int player) except -2:
        cdef const rc_kernel *k = self.k
        cdef int n, i, ties = 0
        cdef int32_t *acts = self.depth_acts
        cdef double *values = self.values
        cdef double v, best = -1.0
        cdef int32_t choice
        self._setup_budget(20000)
        memcpy(stack_at(&self.states, 0), self.root, k.state_size)
        n = k.legal_actions(self.root, acts)
        choice = acts[0]
        with nogil:
            for i in range(n):
                memcpy(stack_at(&self.states, 1), self.root, k.state_size)
                k.apply(stack_at(&self.states, 1), acts[i])
                v = self._value(1, player)
                values[i] = v
                if v > best + 1e-12:
                    best = v
                    choice = acts[i]
                    ties = 1
                elif v > best - 1e-12:
                    ties += 1  # reservoir sampling among equal values
                    if rc_rng_below(&self.rng, ties) == 0:
                        choice = acts[i]
        self.stats["values"] = [(acts[i], values[i]) for i in range(n)]
        self.stats["iterations"] = self.budget.used
        return choice

    cdef double _value(self, int depth, int mover) except? -1.0 nogil:
        """Worth for ``mover`` of the position at ``depth`` of the state stack."""
        cdef const rc_kernel *k = self.k
        cdef void *s = stack_at(&self.states, depth)
        cdef void *buf
        cdef double vals[RC_MAX_PLAYERS]
        cdef double total, v, best
        cdef int p = k.current_player(s), n, i, _j
        cdef int32_t *acts
        if p == RC_TERMINAL:
            k.returns(s, vals)
            return vals[mover]
        if p == RC_CHANCE:
            buf = stack_at(&self.states, depth + 1)
            total = 0.0
            for _j in range(self.samples):
                memcpy(buf, s, k.state_size)
                play_chance(k, buf, &self.rng, self.acts, self.probs)
                budget_tick(&self.budget)
                self._evaluate(buf, vals)
                total += vals[mover]
            return total / self.samples
        if p == mover and self.whole_turn and depth < self.max_depth and not budget_done(&self.budget):
            acts = self.depth_acts + self.k.max_legal * depth
            n = k.legal_actions(s, acts)
            best = -1.0
            for i in range(n):
                memcpy(stack_at(&self.states, depth + 1), s, k.state_size)
                k.apply(stack_at(&self.states, depth + 1), acts[i])
                v = self._value(depth + 1, mover)
                if v > best:
                    best = v
            return best
        budget_tick(&self.budget)
        self._evaluate(s, vals)
        return vals[mover]
