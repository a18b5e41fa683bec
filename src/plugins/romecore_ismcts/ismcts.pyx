# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Single-Observer Information Set MCTS (Cowling, Powley and Whitehouse, 2012).

Every iteration draws a fresh world from the searching player's information state
(``kernel.resample``), then walks one tree whose edges are what the searching player
observes of each action (``kernel.observe_action``: the action itself, or RC_HIDDEN and its
public part for a move the player cannot see).  Nodes therefore stand for the searching
player's information sets.  Only the children whose edge is legal in this iteration's world
compete; each keeps an availability count (how often it could have been chosen), and UCB
uses it in place of the parent's visits.  A hidden edge is played as a uniformly random
action of those that look like it.  Chance outcomes are drawn with the kernel's
probabilities and keyed by what the observer sees of them.

Tree reuse within a turn (``reuse``): when the action played leaves the same player to
decide (a turn of several decisions, nothing drawn in between), the chosen child's subtree
is kept, and the next call starts from it if the position handed in is that same
information set for the player (``SearchAgent._take_next``: the same observation tensor and
legal actions).  Across other players' moves nothing is kept: the handed-in view says
nothing about what was observed on the way.  Off by default: at 0.1 s a move it neither
won nor lost games (bench/archive/turn-aware-search.md), and without it a move depends only
on the seed and the position.

Turns: with ``expand=turn`` (shared with MCTS, see ``romecore_search.tree``) a new node in
the middle of the mover's turn is expanded on to the turn's end, and a ``cutoff`` judges
only where turns end.  With priors on (``bias``, ``widen``, ``prior_visits``, ``imm``) the
untried edge expanded is the one the evaluator rates best one decision on; ``imm`` settles
a prior to the best known end of the mover's turn (``TreeAgent._settle``).
"""
from libc.stdint cimport uint8_t, int32_t, uint32_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset
from libc.math cimport log

from romecore.core.kernel cimport rc_kernel, rc_rng_below, RC_HIDDEN
from romecore_search.core cimport rc_node, tree_add_child, tree_find_child
from romecore_search.tree cimport TreeAgent
from romecore.spec import param_values
from romecore_search import TREE_PARAMS

#: The parameters and their defaults (the ``ismcts`` spec's table; ``workers`` is added there).
PARAMS = {
    **TREE_PARAMS,
    "reuse": (bool, False, "keep the chosen action's subtree while the same player decides again "
                           "(the decisions of one turn)"),
}


cdef class ISMCTSAgent(TreeAgent):
    """SO-ISMCTS; parameters as MCTS (no PIMC: every iteration already samples a world;
    tree reuse only within the mover's turn, see the module docstring); defaults:
    :data:`PARAMS`."""

    def __init__(self, game, seed=None, **params):
        p = param_values("ismcts", PARAMS, params)
        self._configure_tree(game, seed, p)
        self.reuse = p["reuse"]
        cdef int ml = self.k.max_legal
        self.keys = <uint32_t *>malloc(sizeof(uint32_t) * ml)
        self.hidden = <uint32_t *>malloc(sizeof(uint32_t) * ml)
        self.hidden_seen = <uint8_t *>malloc(ml)
        self.pick = <int32_t *>malloc(sizeof(int32_t) * ml)
        self.cand = <int32_t *>malloc(sizeof(int32_t) * ml)
        self.mark = <uint32_t *>malloc(sizeof(uint32_t) * self.k.num_actions)
        if (self.keys == NULL or self.hidden == NULL or self.hidden_seen == NULL
                or self.pick == NULL or self.cand == NULL or self.mark == NULL):
            raise MemoryError()
        memset(self.mark, 0, sizeof(uint32_t) * self.k.num_actions)

    def __dealloc__(self):
        free(self.keys)
        free(self.hidden)
        free(self.hidden_seen)
        free(self.pick)
        free(self.cand)
        free(self.mark)

    cdef int32_t _search(self, int player) except -2:
        cdef int32_t a
        cdef bint kept = self._take_next(self.root, player)
        self._setup_budget(1000)
        if kept:
            self._reroot(self.next_node)
        else:
            self._tree_reset()
        self.stats["reused_visits"] = self.tree.nodes[self.root_node].visits
        self.observer = player
        self._run(self.root, player)
        a = self._tree_result()
        if self.reuse:
            self._keep_turn(a, player)
        return a

    cdef int _keep_turn(self, int32_t a, int player) except -1:
        """After choosing ``a`` at the root: keeps its child for the next call when the same
        player decides right after it."""
        cdef int32_t ch = tree_find_child(&self.tree, self.root_node, <uint32_t>a)
        if ch >= 0 and self.tree.nodes[ch].visits > 0 and self._keep_after(a, player):
            self.next_node = ch
        return 0

    cdef int _hidden_index(self, uint32_t key, int nh) noexcept nogil:
        cdef int j
        for j in range(nh):
            if self.hidden[j] == key:
                return j
        return -1

    cdef int _first_with(self, uint32_t key, int n) noexcept nogil:
        """The index of the first legal action the observer sees as ``key``."""
        cdef int i
        for i in range(n):
            if self.keys[i] == key:
                return i
        return 0

    cdef int32_t _concrete(self, uint32_t key, int n) noexcept nogil:
        """An action of this world that the observer sees as ``key``."""
        cdef int i, m = 0
        if not (key & RC_HIDDEN):
            return <int32_t>key
        for i in range(n):
            if self.keys[i] == key:
                self.pick[m] = i
                m += 1
        return self.acts[self.pick[rc_rng_below(&self.rng, m) if m > 1 else 0]]

    cdef void _enter_world(self, void *s, int player) noexcept nogil:
        """A fresh world from the searching player's information state."""
        self.k.resample(s, player, &self.rng)

    cdef uint32_t _chance_key(self, const void *s, int player, int32_t a) noexcept nogil:
        """What the searching player sees of the outcome."""
        return self.k.observe_action(s, player, a)

    cdef int32_t _descend(self, void *s, int32_t node, int p, int player) except -2 nogil:
        """Among the edges legal in this world: an untried one (expanded, then the walk
        stops), else UCB with availability counts; a hidden edge is played as a random
        action that looks like it.  Without priors the untried edge is a random one.  With
        priors on, every edge legal here without a child gets one at once with the
        evaluator's prior (each edge is judged once, not at every expansion of its
        parent), and the untried edge taken is the unvisited child of best prior, while
        progressive widening allows another."""
        cdef const rc_kernel *k = self.k
        cdef rc_node *nodes
        cdef int32_t ch, best, a, fresh = -1
        cdef uint32_t key, S
        cdef int n, i, j, nh, untried, m
        cdef double v, bv
        # The observer's view of this world's legal actions.
        n = k.legal_actions(s, self.acts)
        if self.stamp >= 0xFFFFFFF0u:
            memset(self.mark, 0, sizeof(uint32_t) * k.num_actions)
            self.stamp = 0
        self.stamp += 2
        S = self.stamp
        nh = 0
        for i in range(n):
            key = <uint32_t>self.acts[i] if p == player else k.observe_action(s, player, self.acts[i])
            if key >= <uint32_t>k.num_actions and not (key & RC_HIDDEN):
                key |= RC_HIDDEN  # out of contract: never index the mark table with it
            self.keys[i] = key
            if key & RC_HIDDEN:
                if self._hidden_index(key, nh) < 0:
                    self.hidden[nh] = key
                    self.hidden_seen[nh] = 0
                    nh += 1
            else:
                self.mark[key] = S
        # Availability: every existing child whose edge is legal here.  ``m`` counts the
        # visited ones (what widening limits); ``fresh`` is the best-prior unvisited one.
        nodes = self.tree.nodes
        ch = nodes[node].first_child
        m = 0
        while ch >= 0:
            key = nodes[ch].key
            if self._legal_child(key, nh, S):
                nodes[ch].avail += 1
                if nodes[ch].visits > 0:
                    m += 1
                elif fresh < 0 or nodes[ch].prior > nodes[fresh].prior:
                    fresh = ch
            ch = nodes[ch].next_sibling
        # Untried edges: legal here, no child yet.
        untried = 0
        for i in range(n):
            if not (self.keys[i] & RC_HIDDEN) and self.mark[self.keys[i]] == S:
                self.pick[untried] = i
                untried += 1
        for j in range(nh):
            if not self.hidden_seen[j]:
                self.pick[untried] = -1 - j
                untried += 1
        if untried and self.use_priors:
            fresh = self._add_with_priors(s, node, p, n, untried, fresh)
            nodes = self.tree.nodes
            if fresh >= 0:
                untried = 0  # else the arena is full: a random untried edge, no child
        if fresh >= 0 and self.prior_visits > 0:
            fresh = -1  # by prior: the unvisited children compete in UCB below
        if (untried or fresh >= 0) and (m == 0 or m < self._widen_limit(nodes[node].visits)):
            if fresh >= 0:
                ch = fresh
                key = nodes[ch].key
            else:
                j = self.pick[rc_rng_below(&self.rng, untried) if untried > 1 else 0]
                key = self.keys[j] if j >= 0 else self.hidden[-1 - j]
                ch = tree_add_child(&self.tree, node, key, p)
                if ch >= 0:
                    self.tree.nodes[ch].avail = 1
            a = self._concrete(key, n)
            k.apply(s, a)
            if ch >= 0:
                self._push(ch)
            return -1
        # Every legal edge has a visited child, or widening allows no more: UCB with
        # availability counts over the visited ones legal here (by prior: over every child
        # legal here, and an unvisited one chosen is this iteration's expansion).
        best = -1
        bv = -1e300
        ch = nodes[node].first_child
        while ch >= 0:
            key = nodes[ch].key
            # (a child made by _add_with_priors in this visit is still marked S)
            if ((nodes[ch].visits > 0 or self.prior_visits > 0)
                    and ((self.mark[key] >= S) if not (key & RC_HIDDEN)
                         else (self._hidden_index(key, nh) >= 0))):
                v = self._score(&nodes[ch], log(<double>nodes[ch].avail))
                if v > bv:
                    bv = v
                    best = ch
            ch = nodes[ch].next_sibling
        a = self._concrete(nodes[best].key, n)
        k.apply(s, a)
        self._push(best)
        return best if nodes[best].visits > 0 else -1

    cdef bint _legal_child(self, uint32_t key, int nh, uint32_t S) noexcept nogil:
        """Whether a child's edge is legal in this world, for the availability pass of
        the visit stamped ``S``: an open edge is marked from ``S`` (legal, no child seen
        yet) to ``S + 1`` (legal, has a child); a hidden edge is legal while its key is
        among this world's hidden keys, and is marked as having a child."""
        cdef int j
        if key & RC_HIDDEN:
            j = self._hidden_index(key, nh)
            if j < 0:
                return False
            self.hidden_seen[j] = 1
            return True
        if self.mark[key] == S:
            self.mark[key] = S + 1
            return True
        return False

    cdef int32_t _add_with_priors(self, void *s, int32_t node, int p, int n, int untried,
                                  int32_t fresh) except -2 nogil:
        """Gives every untried edge (``pick``) a child with its evaluator prior, best
        first, available once; returns the best-prior unvisited legal child (``fresh``
        or a new one).  Stops quietly where the arena is full; -2 where the evaluator
        raised."""
        cdef int i, j
        cdef int32_t ch
        cdef uint32_t key
        for i in range(untried):  # one concrete action per candidate edge
            j = self.pick[i]
            self.cand[i] = self.acts[j] if j >= 0 else self.acts[self._first_with(self.hidden[-1 - j], n)]
        self._priors(s, self.cand, untried, p)
        self._sort_by_prior(self.pick, untried)  # best first, so a full arena keeps the best
        for i in range(untried):
            j = self.pick[i]
            key = self.keys[j] if j >= 0 else self.hidden[-1 - j]
            ch = tree_add_child(&self.tree, node, key, p)
            if ch < 0:
                break
            self.tree.nodes[ch].avail = 1
            self._set_prior(ch, i)
            if fresh < 0 or self.tree.nodes[ch].prior > self.tree.nodes[fresh].prior:
                fresh = ch
        return fresh
