# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The base class of every C-level search agent, and the built-in playout evaluator.

An agent subclass implements ``_search(player)``: search from the struct at ``self.root``
within ``self.budget`` and return an action.  :meth:`SearchAgent.step` does the rest the
same way for every agent: argument checks, the one-legal-action shortcut, the per-move RNG
(seeded from the agent's seed and the position, so a move is a pure function of seed,
position and iteration budget), the budget, statistics and a final legality check.

Threads: an agent's search state (tree, scratch structs, RNG, budget) lives in the
object, so ``step`` and ``restart`` hold the agent's lock: one agent shared between
threads serialises its calls.  The search itself runs with the GIL released (it reads
only the agent's own buffers, the kernel table and a C evaluator's constant parameters;
a Python evaluator takes the GIL back for each call), so separate agents in separate
threads run in parallel.
"""

from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset, memcmp
from libc.math cimport sqrt, tanh
from cpython.pythread cimport (
    PyThread_allocate_lock, PyThread_free_lock, PyThread_acquire_lock, PyThread_release_lock,
    PyThread_get_thread_ident, WAIT_LOCK, NOWAIT_LOCK,
)

from romecore.core.kernel cimport (
    rc_kernel, rc_rng, rc_rng_seed, rc_rng_below, rc_rng_double, rc_sample_front_i32,
    rc_sample_chance, rc_playout, rc_hash_bytes, RC_CHANCE, RC_TERMINAL, RC_MAX_PLAYERS,
)
from romecore.core.state cimport Game, State, to_seed64
from romecore.core.evaluator cimport Evaluator, rc_evaluate

from romecore.core.evaluator import PyEvaluator
from romecore.errors import AgentSpecError, IllegalActionError, RomecoreError, UsageError

ROLLOUTS = {"random": ROLLOUT_RANDOM, "greedy": ROLLOUT_GREEDY}
#: What a ``time`` budget measures: elapsed time, or the searching thread's CPU time (a fair
#: budget on a shared machine, where other processes would shorten a wall-clock one).
CLOCKS = {"wall": CLOCK_MONOTONIC, "cpu": CLOCK_THREAD_CPUTIME_ID}


# ---------------------------------------------------------------------------------------
# The playout evaluator: the mean returns of a few random playouts (any game)

ctypedef struct playout_params:
    const rc_kernel *k
    int playouts
    int nplayers


cdef void playout_eval(const void *s, const void *vp, double *out) noexcept nogil:
    """Averages the returns of random playouts from s.  The RNG is seeded from the
    position, so a state always gets the same value (search stays deterministic).  The
    parameters are read only and the scratch is the call's own, so agents in several
    threads may share one evaluator."""
    cdef const playout_params *pp = <const playout_params *>vp
    cdef const rc_kernel *k = pp.k
    cdef double ret[RC_MAX_PLAYERS]
    cdef rc_rng rng
    cdef int _i, j
    # One block: the struct first (malloc's alignment, which its 8-byte fields need: after
    # an odd number of int32 actions it sat 4 bytes off), then the probabilities (from the
    # next 8-byte boundary), then the action list.
    cdef size_t ml = <size_t>k.max_legal
    cdef size_t sz = (<size_t>k.state_size + 7) & ~(<size_t>7)
    cdef char *mem = <char *>malloc(sz + ml * (sizeof(double) + sizeof(int32_t)))
    cdef char *buf = mem
    cdef double *probs = <double *>(mem + sz)
    cdef int32_t *acts = <int32_t *>(mem + sz + ml * sizeof(double))
    for j in range(pp.nplayers):
        out[j] = 1.0 / pp.nplayers  # out of memory: no opinion (a draw)
    if mem == NULL:
        return
    rc_rng_seed(&rng, rc_hash_bytes(s, k.state_size))
    for j in range(pp.nplayers):
        out[j] = 0.0
    for _i in range(pp.playouts):
        memcpy(buf, s, k.state_size)
        rc_playout(k, buf, &rng, acts, probs)
        k.returns(buf, ret)
        for j in range(pp.nplayers):
            out[j] += ret[j]
    for j in range(pp.nplayers):
        out[j] /= pp.playouts
    free(mem)


cdef class PlayoutEvaluator(Evaluator):
    """Any game's fallback evaluator: the mean returns of ``playouts`` uniformly random
    playouts.  Slow and noisy next to a heuristic, but needs nothing from the game."""

    cdef playout_params pp
    cdef readonly int playouts

    def __init__(self, Game game, int playouts=8):
        if playouts < 1:
            raise ValueError("playouts must be at least 1")
        self.playouts = playouts
        self.pp.k = game.k
        self.pp.playouts = playouts
        self.pp.nplayers = game.num_players()
        self.fn = playout_eval
        self.params = &self.pp
        self.game_id = game.game_id
        self.name = f"playout:{playouts}"


def resolve_evaluator(Game game, spec, playouts=8):
    """The evaluator an agent parameter names.

    ``None``/``"none"``: none; ``"default"``: the first one registered for the game, else
    the playout evaluator; ``"playout"`` (or ``"playout8"``): random playouts; any other
    name: the registered evaluator of that name; an Evaluator or a callable: itself (an
    Evaluator only where it fits the game, see ``Evaluator.fits``: AgentSpecError otherwise).
    """
    if spec is None:
        return spec
    if isinstance(spec, Evaluator):
        return _fitting(spec, game)
    if callable(spec) and not isinstance(spec, str):
        return PyEvaluator(spec, game.game_id, getattr(spec, "__name__", "python"))
    if not isinstance(spec, str):
        raise AgentSpecError(f"evaluator must be a name, got {type(spec).__name__}")
    name = spec.strip()
    if name in ("", "none"):
        return None
    if name.startswith("playout"):
        n = name[len("playout"):].lstrip(":")
        try:
            return PlayoutEvaluator(game, int(n) if n else playouts)
        except ValueError:
            raise AgentSpecError(f"evaluator {spec!r}: expected playout or playout<N>") from None
    from romecore.plugins import registry
    if name == "default":
        if not registry.evaluators(game.game_id):
            return PlayoutEvaluator(game, playouts)
        name = None
    ev = registry.evaluator(game.game_id, name).factory(game=game)
    if not isinstance(ev, Evaluator):
        raise AgentSpecError(f"evaluator {spec!r} for {game.game_id} is not a romecore Evaluator")
    return _fitting(ev, game)


def _fitting(Evaluator ev, Game game):
    """``ev`` where it may judge ``game``'s states; AgentSpecError otherwise (a C evaluator
    handed another game's state would read that struct as its own game's)."""
    why = ev.misfit(game)
    if why is not None:
        raise AgentSpecError(why)
    return ev


# ---------------------------------------------------------------------------------------

cdef class SearchAgent:
    """Base of the C-level agents.  See the module docstring; subclasses implement
    ``_search`` and call :meth:`_configure` from their ``__init__``.  One agent may be
    shared between threads (its calls serialise); separate agents search in parallel."""

    def __cinit__(self, *args, **kwargs):
        # C fields start zeroed (NULL buffers, no limits); Python ones None.
        self.stats = {}
        self.worlds = 1
        self.lock = PyThread_allocate_lock()
        if self.lock == NULL:
            raise MemoryError()

    def _configure(self, Game game, seed, int64_t limit, double time, evaluator, clock="wall"):
        """Common parameters: budget (``limit`` iterations and/or ``time`` seconds per
        move on ``clock``, wall or cpu) and evaluator; allocates the scratch buffers."""
        if not isinstance(game, Game):
            raise TypeError("game must be a romecore Game")
        if limit < 0 or time < 0:
            raise AgentSpecError("budgets must not be negative")
        if clock not in CLOCKS:
            raise AgentSpecError(f"clock={clock!r}: choose one of {', '.join(CLOCKS)}")
        self.clock = clock
        self.game = game
        self.k = game.k
        self.nplayers = game.num_players()
        self.seed = to_seed64(seed)
        self.iter_limit = limit
        self.time_limit = time
        self.evaluator = resolve_evaluator(game, evaluator)
        cdef int ml = self.k.max_legal
        self.acts = <int32_t *>malloc(sizeof(int32_t) * ml)
        self.probs = <double *>malloc(sizeof(double) * ml)
        self.root = <char *>malloc(self.k.state_size)
        self.scratch = <char *>malloc(self.k.state_size)
        self.scratch2 = <char *>malloc(self.k.state_size)
        self.world = <char *>malloc(self.k.state_size)
        cdef size_t nt = <size_t>self.k.max_tensor_size if self._has_tensor() else 1
        self.next_state = <char *>malloc(self.k.state_size)
        self.next_seen = <float *>malloc(sizeof(float) * nt)
        self.seen = <float *>malloc(sizeof(float) * nt)
        self.next_acts = <int32_t *>malloc(sizeof(int32_t) * ml)
        if (self.acts == NULL or self.probs == NULL or self.root == NULL or self.scratch == NULL
                or self.scratch2 == NULL or self.world == NULL or self.next_state == NULL
                or self.next_seen == NULL or self.seen == NULL or self.next_acts == NULL):
            raise MemoryError()

    def _configure_rollouts(self, rollout, double eps, int cutoff, int sample=0, double margin=0.0):
        """Rollout policy (``random``, or ``greedy`` by the evaluator with exploration
        ``eps``: the game's default evaluator when none is set; a tree search's ``prior``
        may name another, see :attr:`rollout_evaluator`), ``cutoff`` (turn ends
        after which the evaluator replaces the rest of the playout; 0 plays to the end),
        ``sample`` (a greedy step judges that many legal actions drawn at random; 0: all)
        and ``margin`` (the weight of the winning margin in a final reward, see
        :meth:`_final`).  After :meth:`_configure`."""
        if not 0.0 <= margin <= 1.0:
            raise AgentSpecError(f"margin={margin} is a weight between 0 and 1")
        self.margin = margin
        if cutoff < 0:
            raise AgentSpecError("cutoff must not be negative")
        if sample < 0:
            raise AgentSpecError(f"sample={sample} must not be negative")
        if not 0.0 <= eps <= 1.0:
            raise AgentSpecError(f"eps={eps} is not in [0, 1]")
        if rollout not in ROLLOUTS:
            raise AgentSpecError(f"rollout={rollout!r}: choose one of {', '.join(ROLLOUTS)}")
        self.rollout_policy = ROLLOUTS[rollout]
        self.rollout_eps = eps
        self.rollout_sample = sample
        self.cutoff = cutoff
        if self.rollout_policy == ROLLOUT_GREEDY and self.evaluator is None:
            self.evaluator = resolve_evaluator(self.game, "default")
        self.rollout_evaluator = self.evaluator

    def _configure_pimc(self, int pimc):
        """PIMC: ``pimc`` resampled worlds per move (0 or 1: the world handed in)."""
        if pimc < 0:
            raise AgentSpecError("pimc must be >= 0")
        self.worlds = pimc if pimc > 1 else 1

    def __dealloc__(self):
        free(self.acts)
        free(self.probs)
        free(self.root)
        free(self.scratch)
        free(self.scratch2)
        free(self.world)
        free(self.next_state)
        free(self.next_seen)
        free(self.seen)
        free(self.next_acts)
        if self.lock != NULL:
            PyThread_free_lock(self.lock)

    # -- the lock ------------------------------------------------------------------------
    cdef int _lock(self) except -1:
        """Takes the agent's lock, waiting without the GIL (the holder may need it back
        for a Python evaluator).  A call from inside the agent's own search (a Python
        evaluator stepping the agent that calls it) would wait forever: it raises."""
        cdef unsigned long me = PyThread_get_thread_ident()
        if not PyThread_acquire_lock(self.lock, NOWAIT_LOCK):
            if self.owner == me:
                raise RomecoreError(f"{type(self).__name__}: step or restart called from inside "
                                    f"this agent's own search")
            with nogil:
                PyThread_acquire_lock(self.lock, WAIT_LOCK)
        self.owner = me
        return 0

    cdef void _unlock(self) noexcept:
        self.owner = 0
        PyThread_release_lock(self.lock)

    # -- the Python API ----------------------------------------------------------------
    def step(self, State state):
        """The action to play for the player to move in ``state`` (what that player may
        know).  Raises ``IllegalActionError`` at a chance node or at the end."""
        if state is None or state.game != self.game:
            raise ValueError(f"{type(self).__name__} plays {self.game!r}, not "
                             f"{None if state is None else state.game!r}")
        cdef int p = self.k.current_player(state.s)
        if p < 0:
            raise IllegalActionError(f"{type(self).__name__}.step: no player is to move "
                                     f"({'chance node' if p == RC_CHANCE else 'the game is over'})")
        self._lock()
        try:
            return self._step(state, p)
        finally:
            self._unlock()

    cdef object _step(self, State state, int p):
        """``step`` with the lock held."""
        if state.busy:  # another thread's playout works on the struct without the GIL
            raise UsageError(f"{type(self).__name__}.step: this State is in use by another thread "
                             f"(State.playout); hand each thread its own clone()")
        cdef int n = self.k.legal_actions(state.s, self.acts)
        cdef int32_t a
        cdef int moved = state.move_number()
        if n == 1:
            a = self.acts[0]
            self.stats = {"iterations": 0, "seconds": 0.0, "root": [(a, 0, 0.0)], "forced": True}
            return a
        memcpy(self.root, state.s, self.k.state_size)
        self._seed_move(self.root, p)
        cdef double t0 = rc_now()
        self.stats = {}
        a = self._search(p)
        self.stats["seconds"] = rc_now() - t0
        self.stats.setdefault("iterations", self.budget.used)
        if self.budget.deadline > 0:
            self.stats["clock_reads"] = self.budget.reads
        if state.busy or state.move_number() != moved:
            raise UsageError(f"{type(self).__name__}.step: the State changed in another thread while the "
                             f"agent searched it; hand each thread its own clone()")
        if not state._is_legal(a):
            raise RuntimeError(f"{type(self).__name__} chose action {a}, which is not legal here "
                               f"(a bug in the agent; please report it)")
        return a

    def restart(self):
        """Forgets anything kept between moves (called between games)."""
        self._lock()
        try:
            self._forget()
        finally:
            self._unlock()

    def reseed(self, seed):
        """Replaces the agent's seed (root-parallel workers get one per worker); a search
        under way in another thread finishes with the old one."""
        cdef uint64_t s = to_seed64(seed)
        self._lock()
        self.seed = s
        self._unlock()

    def stop(self):
        """Asks a search under way in another thread to end at its next look at the budget;
        it then returns the best move found so far.  Takes no lock (that is its point) and
        does nothing when no search runs; a search that starts after it is not stopped,
        so a caller waiting for a step to end asks again until it has (the web app does
        when a game ends, is resigned or is left)."""
        self.budget.expired = 1

    @property
    def budget(self):
        """``(iterations, seconds)`` per move; 0 means no limit of that kind."""
        return (self.iter_limit, self.time_limit)

    def __repr__(self):
        return f"<{type(self).__name__} {self.spec or ''} for {self.game.game_id}>"

    # -- what subclasses use -----------------------------------------------------------
    cdef int _setup_budget(self, int64_t default_limit) except -1:
        """Starts the move's budget: the iteration limit, else ``default_limit`` when no
        time limit is set either; the deadline when a time limit is set."""
        cdef double now
        self.budget.used = 0
        self.budget.expired = 0
        self.budget.reads = 0
        self.budget.limit = self.iter_limit
        if self.iter_limit == 0 and self.time_limit == 0:
            self.budget.limit = default_limit
        self.budget.clock = CLOCKS[self.clock]
        now = rc_clock(self.budget.clock)
        self.budget.deadline = now + self.time_limit if self.time_limit > 0 else 0.0
        budget_start(&self.budget, now)
        self.margin_n = 0.0
        self.margin_sq = 0.0
        return 0

    cdef int _forget(self) except -1:
        """What ``restart`` drops (the lock held): the position kept for the next
        decision (subclasses drop what they keep, then call this)."""
        self.have_next = False
        return 0

    # -- the decisions of one turn -------------------------------------------------------
    # A kernel may split one player's move into several decisions (a tile, then its site).
    # A search may keep what it learnt for the next of them: _keep_after records where the
    # move just chosen leads when the same player decides next, and _take_next tells whether
    # the position handed to the next call is that one, as the player knows it.  A view
    # handed in is a fresh resample, so whole positions differ where anything is hidden:
    # they are compared by the player's observation tensor (exactly what the player knows)
    # and legal actions, or byte for byte where the kernel has no tensor.

    cdef bint _has_tensor(self) noexcept nogil:
        return self.k.observation_tensor != NULL and self.k.max_tensor_size > 0

    cdef void _seen_by(self, const void *s, int player, float *into) noexcept nogil:
        """What ``player`` knows of ``s`` (its observation tensor), into ``into``."""
        memset(into, 0, sizeof(float) * <size_t>self.k.max_tensor_size)
        self.k.observation_tensor(s, player, into)

    cdef bint _keep_after(self, int32_t a, int player) noexcept nogil:
        """Keeps the root after ``a`` (``next_state``) when ``player`` decides there next,
        with nothing drawn in between; whether it did."""
        cdef const rc_kernel *k = self.k
        self.have_next = False
        memcpy(self.next_state, self.root, k.state_size)
        k.apply(self.next_state, a)
        if k.current_player(self.next_state) != player:
            return False
        if self._has_tensor():
            self._seen_by(self.next_state, player, self.next_seen)
        self.next_player = player
        self.have_next = True
        return True

    cdef bint _take_next(self, const void *s, int player) noexcept nogil:
        """Whether ``player`` at ``s`` stands where ``_keep_after`` left off: the same
        observation tensor and legal actions (the same bytes without a tensor).  The kept
        position serves this one call: it is forgotten either way."""
        cdef const rc_kernel *k = self.k
        cdef int n
        if not self.have_next or player != self.next_player:
            return False
        self.have_next = False
        if not self._has_tensor():
            return memcmp(s, self.next_state, k.state_size) == 0
        self._seen_by(s, player, self.seen)
        if memcmp(self.seen, self.next_seen, sizeof(float) * <size_t>k.max_tensor_size) != 0:
            return False
        n = k.legal_actions(s, self.acts)
        return (k.legal_actions(self.next_state, self.next_acts) == n
                and memcmp(self.acts, self.next_acts, sizeof(int32_t) * n) == 0)

    cdef void _seed_move(self, const void *s, int player) noexcept nogil:
        rc_rng_seed(&self.rng, self.seed ^ rc_hash_bytes(s, self.k.state_size)
                    ^ (<uint64_t>(player + 1) * 0x9E3779B97F4A7C15ULL))

    cdef int32_t _search(self, int player) except -2:
        raise NotImplementedError(f"{type(self).__name__} does not implement _search")

    cdef int32_t _first_legal(self) noexcept nogil:
        """The root's first legal action: the move when a search found none."""
        self.k.legal_actions(self.root, self.acts)
        return self.acts[0]

    cdef int32_t _search_worlds(self, int player) except -2:
        """PIMC (for ``worlds`` > 1, the budget started): searches that many resamples of
        the root from ``player``'s knowledge, each with an even share of the budget; each
        world votes for its move.  Most votes win, then the highest sum over the worlds of
        the first score of :meth:`_world_scores`, then the lower action.  ``stats``:
        ``votes`` and ``root``, the summed scores per action."""
        cdef int w, W = self.worlds
        cdef int64_t limit = self.budget.limit, used = 0
        cdef double t0 = rc_clock(self.budget.clock), deadline = self.budget.deadline
        cdef int32_t a
        votes = {}
        totals = {}
        for w in range(W):
            memcpy(self.world, self.root, self.k.state_size)
            self.k.resample(self.world, player, &self.rng)
            self.budget.used = 0
            self.budget.expired = 0
            self.budget.limit = max(1, limit // W) if limit > 0 else 0
            if deadline > 0:
                self.budget.deadline = t0 + (deadline - t0) * (w + 1) / W
                budget_start(&self.budget, rc_clock(self.budget.clock))
            a = self._search_world(self.world, player)
            used += self.budget.used
            if a < 0:
                continue
            votes[a] = votes.get(a, 0) + 1
            for act, *scores in self._world_scores():
                t = totals.get(act)
                if t is None:
                    totals[act] = scores
                else:
                    for i, x in enumerate(scores):
                        t[i] += x
        self.budget.used = used
        self.stats["votes"] = votes
        self.stats["root"] = sorted((act, *t) for act, t in totals.items())
        if not votes:
            return self._first_legal()
        return max(votes, key=lambda x: (votes[x], totals[x][0] if x in totals else 0, -x))

    cdef int32_t _search_world(self, const void *world, int player) except -2:
        """One PIMC world's search (the budget set): its move, or -1 for none."""
        raise NotImplementedError(f"{type(self).__name__} does not implement PIMC")

    cdef list _world_scores(self):
        """After :meth:`_search_world`: ``[(action, score, ...), ...]``, summed over the
        worlds (the first score breaks ties between equal votes)."""
        return []

    cdef void _final(self, const void *s, double *out) noexcept nogil:
        """The rewards of a finished game s: its returns, or with ``margin`` the returns
        blended at that weight with a bonus for the winning margin (the quality-based
        rewards of Pepels, Tak, Lanctot and Winands 2014): 0.5 + 0.5 tanh(lead / rms), a
        player's lead being their score minus the best other player's, and rms the
        root-mean-square lead of the games finished so far in this move's search (so the
        bonus needs no scale of points per game)."""
        cdef int32_t sc[RC_MAX_PLAYERS]
        cdef double lead[RC_MAX_PLAYERS]
        cdef double rms, bonus
        cdef int i, top = 0, second = -1
        self.k.returns(s, out)
        if self.margin <= 0:
            return
        self.k.scores(s, sc)
        for i in range(1, self.nplayers):   # the two best scores' seats
            if sc[i] > sc[top]:
                second, top = top, i
            elif second < 0 or sc[i] > sc[second]:
                second = i
        for i in range(self.nplayers):      # each lead over the best other player
            lead[i] = <double>(sc[i] - sc[second if i == top else top]) if second >= 0 else 0.0
            self.margin_sq += lead[i] * lead[i]
        self.margin_n += self.nplayers
        rms = sqrt(self.margin_sq / self.margin_n)
        for i in range(self.nplayers):
            bonus = 0.5 + 0.5 * tanh(lead[i] / rms) if rms > 0 else 0.5
            out[i] = (1.0 - self.margin) * out[i] + self.margin * bonus

    cdef int _evaluate(self, const void *s, double *out) except -1 nogil:
        """Values in [0, 1] per player: the final rewards at the end (:meth:`_final`),
        else the evaluator's estimate (a draw between everyone when there is no
        evaluator)."""
        return self._evaluate_by(self.evaluator, s, out)

    cdef int _evaluate_by(self, Evaluator ev, const void *s, double *out) except -1 nogil:
        """:meth:`_evaluate` with evaluator ``ev`` (None: a draw) in place of the agent's."""
        cdef int i
        if self.k.current_player(s) == RC_TERMINAL:
            self._final(s, out)
            return 0
        if ev is None:
            for i in range(self.nplayers):
                out[i] = 1.0 / self.nplayers
            return 0
        if ev.fn != NULL:
            ev.fn(s, ev.params, out)
            return 0
        return rc_evaluate(ev, self.game, s, self.nplayers, out)

    cdef int32_t _greedy_action(self, Evaluator ev, const void *s, const int32_t *acts, int n,
                                int player) except -2 nogil:
        """Among ``acts[:n]`` (legal at s), the action whose result ``ev`` rates best for
        ``player`` (ties: the first).  Uses scratch2."""
        cdef double vals[RC_MAX_PLAYERS]
        cdef double best = -1.0
        cdef int32_t a = acts[0]
        cdef int i
        for i in range(n):
            memcpy(self.scratch2, s, self.k.state_size)
            self.k.apply(self.scratch2, acts[i])
            self._evaluate_by(ev, self.scratch2, vals)
            if vals[player] > best:
                best = vals[player]
                a = acts[i]
        return a

    cdef int _rollout(self, void *s, int last, double *out) except -1 nogil:
        """Plays s on by the rollout policy and writes each player's reward: the returns
        at the end, or the evaluator's estimate once ``cutoff`` turns have ended.  ``last``
        is the player whose decision led to s (-1: chance or none).  A turn ends where a
        player's run of consecutive decisions stops (another player or chance is next, or
        the end), so the evaluator never judges a half-made move."""
        cdef const rc_kernel *k = self.k
        cdef int p, n, turns = 0
        cdef int32_t a
        cdef bint use_cutoff = self.cutoff > 0 and self.evaluator is not None
        cdef bint greedy = self.rollout_policy == ROLLOUT_GREEDY
        while True:
            p = k.current_player(s)
            if p == RC_TERMINAL:
                self._final(s, out)
                return 0
            if last >= 0 and p != last:
                turns += 1
                if use_cutoff and turns >= self.cutoff:
                    return self._evaluate(s, out)
            if p == RC_CHANCE:
                a = rc_sample_chance(k, s, &self.rng, self.acts, self.probs)
                last = -1
            else:
                n = k.legal_actions(s, self.acts)
                if n == 1:
                    a = self.acts[0]
                elif greedy and rc_rng_double(&self.rng) >= self.rollout_eps:
                    if 0 < self.rollout_sample < n:
                        rc_sample_front_i32(self.acts, n, self.rollout_sample, &self.rng)
                        n = self.rollout_sample
                    a = self._greedy_action(self.rollout_evaluator, s, self.acts, n, p)
                else:
                    a = self.acts[rc_rng_below(&self.rng, n)]
                last = p
            k.apply(s, a)
