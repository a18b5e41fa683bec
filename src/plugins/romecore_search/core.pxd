# cython: language_level=3
"""The search machinery every search plugin shares, written once against the kernel table.

* ``rc_budget``: a per-move budget in iterations (simulations or nodes) and/or seconds.
* ``rc_tree``: a node arena (nodes referenced by index, so growth may move it) with
  first-child / next-sibling links, visit, value and availability counts, and UCB.
* ``rc_stack``: a state arena, one fixed-size struct per slot (memcpy in, apply on it).
* :class:`SearchAgent`: the base class of every C-level agent: ``step(state)``, budget
  parsing, the per-move RNG, scratch buffers, evaluator calls and rollouts, and the lock
  that makes one agent safe to share between threads (its calls serialise).

Everything below marked ``inline`` is compiled into each plugin that cimports it, so the
hot loops of MCTS, ISMCTS, alpha-beta and greedy never leave C.
"""
from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t, INT32_MAX
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy
from libc.math cimport sqrt, log
from cpython.pythread cimport PyThread_type_lock

from romecore.core.kernel cimport (
    rc_kernel, rc_rng, rc_rng_seed, rc_rng_next, rc_rng_below, rc_rng_double,
    rc_sample_chance, rc_hash_bytes, RC_CHANCE, RC_TERMINAL, RC_MAX_PLAYERS, RC_HIDDEN,
)
from romecore.core.state cimport Game, State
from romecore.core.evaluator cimport Evaluator

cdef extern from "<time.h>" nogil:
    ctypedef long time_t
    struct timespec:
        time_t tv_sec
        long tv_nsec
    int clock_gettime(int clk_id, timespec *tp)
    enum:
        CLOCK_MONOTONIC
        CLOCK_THREAD_CPUTIME_ID


cdef inline double rc_clock(int clock) noexcept nogil:
    """Seconds on ``clock``: CLOCK_MONOTONIC (wall) or CLOCK_THREAD_CPUTIME_ID (this
    thread's CPU time, which a loaded machine does not shorten)."""
    cdef timespec ts
    clock_gettime(clock, &ts)
    return <double>ts.tv_sec + 1e-9 * <double>ts.tv_nsec


cdef inline double rc_now() noexcept nogil:
    """Monotonic (wall) seconds."""
    return rc_clock(CLOCK_MONOTONIC)


# ---------------------------------------------------------------------------------------
# Budgets

ctypedef struct rc_budget:
    int64_t limit        # iterations (simulations / nodes); 0: no limit
    double deadline      # rc_clock(clock) value after which to stop; 0: none
    int32_t clock        # the clock the deadline is on (CLOCK_MONOTONIC or CLOCK_THREAD_CPUTIME_ID)
    int64_t used
    int32_t check_every  # look at the clock every this many ticks (a power of two; budget_pace)
    int32_t expired      # sticky: set once the deadline or the limit is reached
    double read_time     # the clock at the last look (budget_start sets it)
    int64_t read_used    # ``used`` at the last look
    int64_t reads        # looks at the clock this move (``stats["clock_reads"]``)


cdef enum:
    BUDGET_MAX_CHECK_EVERY = 1024   # ticks between clock reads, at most
    BUDGET_PACE_SHARE = 16          # a read at most every 1/16 of the time left


cdef inline void budget_start(rc_budget *b, double now) noexcept nogil:
    """Marks ``now`` (on the budget's clock) as the last look, with nothing used yet, and
    reads the clock at the next tick again."""
    b.read_time = now
    b.read_used = b.used
    b.check_every = 1
    b.reads += 1


cdef inline void budget_pace(rc_budget *b, double now) noexcept nogil:
    """After a look at the clock at ``now``: the next comes after the largest power of two
    of ticks (at most BUDGET_MAX_CHECK_EVERY) that, at the pace since the last look, take
    at most 1/BUDGET_PACE_SHARE of the time left.  Why: reading a thread's CPU clock is a
    system call (about 0.4-0.7 us on these machines, the cost of a cheap iteration), so
    reading it every tick spent up to a fifth of a cheap search's time; reads come closer
    together as the deadline nears, so the overrun stays a small fraction of one share."""
    cdef int64_t ticks = b.used - b.read_used
    cdef double per_tick, share
    cdef int32_t k = 1
    if ticks > 0 and now > b.read_time:
        per_tick = (now - b.read_time) / ticks
        share = (b.deadline - now) / BUDGET_PACE_SHARE
        while k < BUDGET_MAX_CHECK_EVERY and 2 * k * per_tick <= share:
            k *= 2
        b.check_every = k
    b.read_time = now
    b.read_used = b.used


cdef inline bint budget_done(rc_budget *b) noexcept nogil:
    """True once the budget is spent (counts nothing; see ``budget_tick``)."""
    cdef double now
    if b.expired:
        return True
    if b.limit > 0 and b.used >= b.limit:
        b.expired = 1
    elif b.deadline > 0 and (b.used & (b.check_every - 1)) == 0:
        now = rc_clock(b.clock)
        b.reads += 1
        if now >= b.deadline:
            b.expired = 1
        else:
            budget_pace(b, now)
    return b.expired != 0


cdef inline bint budget_tick(rc_budget *b) noexcept nogil:
    """Counts one unit of work; True once the budget is spent."""
    b.used += 1
    return budget_done(b)


# ---------------------------------------------------------------------------------------
# Node arena (search trees)

cdef enum:
    NODE_EXPANDED = 1     # every child of this node exists (MCTS decision nodes)
    NODE_SETTLED = 2      # ``prior`` is judged where the mover's turn ends (or is the best
                          # such value among the children, see TreeAgent._settle)

ctypedef struct rc_node:
    uint32_t key          # the action (or observed action) on the edge from the parent
    int32_t first_child   # -1: none
    int32_t next_sibling  # -1: none
    int32_t visits
    int32_t avail         # times this edge was available when its parent was visited
    int8_t mover          # the player who chose the edge (-1: chance)
    uint8_t flags         # NODE_EXPANDED, NODE_SETTLED
    uint16_t prior        # the edge's prior for ``mover`` (progressive bias), x 65535
    double value          # summed rewards of ``mover``

ctypedef struct rc_tree:
    rc_node *nodes
    int32_t n
    int32_t cap
    int32_t max_nodes     # the arena never grows beyond this; adds then fail (-1)


cdef inline int tree_init(rc_tree *t, int32_t max_nodes) noexcept nogil:
    t.n = 0
    t.cap = 1024 if max_nodes > 1024 else max_nodes
    t.max_nodes = max_nodes
    t.nodes = <rc_node *>malloc(sizeof(rc_node) * t.cap)
    return 0 if t.nodes != NULL else -1


cdef inline void tree_free(rc_tree *t) noexcept nogil:
    free(t.nodes)
    t.nodes = NULL
    t.n = 0
    t.cap = 0


cdef inline int arena_grow(void **data, int32_t *cap, size_t item, int32_t max_cap) noexcept nogil:
    """Doubles an arena of ``*cap`` items of ``item`` bytes, to at most ``max_cap``; -1
    (the arena unchanged) when it is at ``max_cap`` already or memory runs out."""
    cdef int32_t c = cap[0]
    cdef void *grown
    if c >= max_cap:
        return -1
    c = c * 2 if c <= max_cap // 2 else max_cap
    grown = realloc(data[0], item * <size_t>c)
    if grown == NULL:
        return -1
    data[0] = grown
    cap[0] = c
    return 0


cdef inline int32_t tree_new(rc_tree *t, uint32_t key, int mover) noexcept nogil:
    """A fresh unlinked node; -1 when the arena is full (the caller then stops growing)."""
    cdef rc_node *nd
    if t.n >= t.cap and arena_grow(<void **>&t.nodes, &t.cap, sizeof(rc_node), t.max_nodes) < 0:
        if t.cap < t.max_nodes:
            t.max_nodes = t.cap  # out of memory: stop growing, keep searching
        return -1
    nd = &t.nodes[t.n]
    nd.key = key
    nd.first_child = -1
    nd.next_sibling = -1
    nd.visits = 0
    nd.avail = 0
    nd.mover = <int8_t>mover
    nd.flags = 0
    nd.prior = 0
    nd.value = 0.0
    t.n += 1
    return t.n - 1


cdef inline int32_t tree_add_child(rc_tree *t, int32_t parent, uint32_t key, int mover) noexcept nogil:
    """Creates and links a child of ``parent`` (-1 when the arena is full)."""
    cdef int32_t c = tree_new(t, key, mover)
    if c >= 0:
        t.nodes[c].next_sibling = t.nodes[parent].first_child
        t.nodes[parent].first_child = c
    return c


cdef inline int32_t tree_find_child(const rc_tree *t, int32_t parent, uint32_t key) noexcept nogil:
    cdef int32_t c = t.nodes[parent].first_child
    while c >= 0:
        if t.nodes[c].key == key:
            return c
        c = t.nodes[c].next_sibling
    return -1


cdef inline int tree_expand(rc_tree *t, int32_t parent, const int32_t *acts, int n, int mover) noexcept nogil:
    """Adds one child per action, in the given order; 0, or -1 when the arena is full
    (then nothing is added)."""
    cdef int i
    cdef int32_t c, prev = -1
    if t.n + n > t.max_nodes:
        return -1
    for i in range(n - 1, -1, -1):
        c = tree_new(t, <uint32_t>acts[i], mover)
        if c < 0:
            return -1  # cannot happen after the size check, unless memory ran out
        t.nodes[c].next_sibling = prev
        prev = c
    t.nodes[parent].first_child = prev
    t.nodes[parent].flags |= NODE_EXPANDED
    return 0


cdef inline double ucb(double value, int32_t visits, double log_parent, double c) noexcept nogil:
    """UCB1 of a child visited at least once: mean reward plus c * sqrt(ln N / n)."""
    return value / visits + c * sqrt(log_parent / visits)


cdef inline int32_t tree_best_root_child(const rc_tree *t, int32_t root) noexcept nogil:
    """The most visited child (ties: the higher mean, then the lower key); -1 if none."""
    cdef int32_t c = t.nodes[root].first_child, best = -1
    cdef double bm = -1.0, m
    while c >= 0:
        if t.nodes[c].visits > 0:
            m = t.nodes[c].value / t.nodes[c].visits
            if best < 0 or t.nodes[c].visits > t.nodes[best].visits or (
                    t.nodes[c].visits == t.nodes[best].visits and (
                        m > bm or (m == bm and t.nodes[c].key < t.nodes[best].key))):
                best = c
                bm = m
        c = t.nodes[c].next_sibling
    return best


# ---------------------------------------------------------------------------------------
# State arena: a stack of fixed-size structs (alpha-beta's plies, BFS frontiers)

ctypedef struct rc_stack:
    char *data
    uint32_t size        # bytes per state
    int32_t n
    int32_t cap


cdef inline int stack_init(rc_stack *st, uint32_t size, int32_t cap) noexcept nogil:
    st.size = size
    st.n = 0
    st.cap = cap if cap > 0 else 1
    st.data = <char *>malloc(<size_t>size * st.cap)
    return 0 if st.data != NULL else -1


cdef inline void stack_free(rc_stack *st) noexcept nogil:
    free(st.data)
    st.data = NULL
    st.cap = 0
    st.n = 0


cdef inline void *stack_at(rc_stack *st, int32_t i) noexcept nogil:
    return st.data + <size_t>st.size * i


cdef inline int32_t stack_push(rc_stack *st, const void *s) noexcept nogil:
    """Copies s into a new slot; its index, or -1 when memory runs out."""
    if st.n >= st.cap and arena_grow(<void **>&st.data, &st.cap, st.size, INT32_MAX) < 0:
        return -1
    memcpy(st.data + <size_t>st.size * st.n, s, st.size)
    st.n += 1
    return st.n - 1


cdef inline void play_chance(const rc_kernel *k, void *s, rc_rng *rng, int32_t *acts,
                             double *probs) noexcept nogil:
    """Plays s's pending chance events (outcomes drawn from ``rng``) up to the next
    decision or the end; ``acts`` and ``probs`` are scratch lists of max_legal entries."""
    while k.current_player(s) == RC_CHANCE:
        k.apply(s, rc_sample_chance(k, s, rng, acts, probs))


# ---------------------------------------------------------------------------------------
# Agents

cdef enum:
    ROLLOUT_RANDOM = 0
    ROLLOUT_GREEDY = 1   # epsilon-greedy by the evaluator, one ply


cdef class SearchAgent:
    cdef readonly Game game
    cdef const rc_kernel *k
    cdef readonly int nplayers
    cdef readonly uint64_t seed
    cdef rc_rng rng               # the per-move search RNG (see _seed_move)
    cdef int64_t iter_limit       # simulations / nodes per move; 0: none
    cdef readonly double time_limit  # seconds per move; 0: none
    cdef readonly str clock       # what time_limit measures: "wall" or "cpu"
    cdef rc_budget budget         # the move in progress
    cdef int32_t *acts            # scratch lists of max_legal entries
    cdef double *probs
    cdef char *root               # the struct being searched from
    cdef char *scratch            # a second struct (rollouts, probes)
    cdef char *scratch2
    cdef char *world              # the resampled world a PIMC search is in
    cdef readonly int worlds      # 1: search the world handed in; N: PIMC over N resamples
    cdef readonly Evaluator evaluator   # None: none needed or none registered
    # greedy rollouts' steps (the evaluator unless a tree search's ``prior`` names another)
    cdef readonly Evaluator rollout_evaluator
    cdef int rollout_policy
    cdef double rollout_eps
    cdef int32_t rollout_sample   # greedy rollout steps judge this many actions; 0: all
    cdef int32_t cutoff           # rollout turns before the evaluator stands in; 0: play out
    cdef double margin            # weight of the winning-margin bonus in a final reward; 0: off
    cdef double margin_n          # leads seen this move, and the sum of their squares (_final)
    cdef double margin_sq
    cdef public object spec
    cdef public dict stats        # what the last search did (iterations, seconds, ...)
    cdef bint have_next           # a position is kept for the next decision (see _keep_after)
    cdef int next_player          # who decides there
    cdef char *next_state         # the position after the move just chosen
    cdef float *next_seen         # what next_player knows there (observation tensor)
    cdef float *seen              # scratch: the same of a position handed in
    cdef int32_t *next_acts       # scratch: legal actions, compared
    cdef PyThread_type_lock lock  # held by the call using the fields above (step, restart)
    cdef unsigned long owner      # the thread holding ``lock`` (0: none)

    cdef int _lock(self) except -1
    cdef void _unlock(self) noexcept
    cdef int _forget(self) except -1
    cdef object _step(self, State state, int p)

    cdef int _setup_budget(self, int64_t default_limit) except -1
    cdef void _seed_move(self, const void *s, int player) noexcept nogil
    cdef int32_t _search(self, int player) except -2
    cdef int32_t _first_legal(self) noexcept nogil
    cdef int32_t _search_worlds(self, int player) except -2
    cdef int32_t _search_world(self, const void *world, int player) except -2
    cdef list _world_scores(self)
    cdef void _final(self, const void *s, double *out) noexcept nogil
    cdef int _evaluate(self, const void *s, double *out) except -1 nogil
    cdef int _evaluate_by(self, Evaluator ev, const void *s, double *out) except -1 nogil
    cdef int _rollout(self, void *s, int last, double *out) except -1 nogil
    cdef bint _has_tensor(self) noexcept nogil
    cdef void _seen_by(self, const void *s, int player, float *into) noexcept nogil
    cdef bint _keep_after(self, int32_t a, int player) noexcept nogil
    cdef bint _take_next(self, const void *s, int player) noexcept nogil
    cdef int32_t _greedy_action(self, Evaluator ev, const void *s, const int32_t *acts, int n,
                                int player) except -2 nogil
