# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""UCT (Kocsis and Szepesvari, 2006) over the kernel table, for any number of players.

* Decision nodes are expanded whole on their second visit; an unvisited child is tried
  first, then UCB1 on the mover's mean reward.  Each edge backs up the reward of the
  player who chose it, so every player maximises their own return.
* Chance nodes are explicit: an outcome is drawn with the kernel's probabilities and its
  child created the first time it comes up.
* Rollouts are uniformly random (or epsilon-greedy by the evaluator) and may be cut off
  after ``cutoff`` steps, the evaluator standing in for the rest.
* Hidden information: the state handed to ``step`` is already a world consistent with
  the player's knowledge; ``pimc=N`` searches N fresh resamples instead (the budget split
  evenly) and the worlds vote.
* Tree reuse: the tree is kept between moves; the next move looks for its position among
  the old tree's nodes (replaying visited edges) and keeps that subtree.
"""
from libc.stdint cimport int32_t, uint32_t, int64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memcmp

from romecore.core.kernel cimport (
    rc_kernel, rc_sample_chance, RC_CHANCE, RC_TERMINAL,
)
from romecore_search.core cimport (
    rc_node, rc_now, tree_add_child, tree_find_child, tree_expand, tree_best_root_child,
)
from romecore_search.tree cimport TreeAgent
from romecore.errors import AgentSpecError


cdef class MCTSAgent(TreeAgent):
    """Monte Carlo tree search (UCT); see the module docstring for the parameters."""

    def __cinit__(self, *args, **kwargs):
        self.tree_state = NULL
        self.have_tree = False

    def __init__(self, game, seed=None, int simulations=0, double time=0.0, double c=0.7,
                 rollout="random", double eps=0.1, int cutoff=0, evaluator="auto",
                 int pimc=1, int determinize=1, bint reuse=True, int reuse_states=4096,
                 int max_nodes=1000000):
        if evaluator == "auto":
            evaluator = "default" if (cutoff > 0 or rollout == "greedy") else None
        self._configure(game, seed, simulations, time, evaluator, rollout, eps, cutoff)
        self._configure_tree(c, max_nodes)
        if pimc < 0:
            raise AgentSpecError("pimc must be >= 0")
        if determinize != 1:
            raise AgentSpecError("mcts always searches determinized worlds (determinize=1): the one "
                                 "handed to step, or pimc=N resamples; ismcts searches information sets")
        self.worlds = pimc if pimc > 1 else 1
        self.reuse = reuse and self.worlds == 1
        self.reuse_states = reuse_states
        self.tree_state = <char *>malloc(self.k.state_size)
        if self.tree_state == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.tree_state)

    cdef int _forget(self) except -1:
        """Drops the kept tree (``restart``)."""
        self.have_tree = False
        self.tree.n = 0
        self.root_node = -1
        return 0

    cdef int32_t _search(self, int player) except -2:
        cdef int32_t best, node = -1
        self._setup_budget(1000)
        if self.worlds > 1:
            return self._search_worlds(player)
        if self.reuse and self.have_tree:
            if memcmp(self.tree_state, self.root, self.k.state_size) == 0:
                node = self.root_node
            else:
                node = self._find_state(self.tree_state, self.root, self.reuse_states)
                if node >= 0:
                    self._reroot(node)
        if node < 0:
            self._tree_reset()
        self.stats["reused_visits"] = self.tree.nodes[self.root_node].visits
        memcpy(self.tree_state, self.root, self.k.state_size)
        self.have_tree = self.reuse
        self._run(self.root, player)
        best = tree_best_root_child(&self.tree, self.root_node)
        self.stats["root"] = self._root_stats()
        self.stats["tree_nodes"] = self.tree.n
        if best < 0:  # the arena could not hold the root's children
            self.k.legal_actions(self.root, self.acts)
            return self.acts[0]
        return <int32_t>self.tree.nodes[best].key

    def _search_worlds(self, int player):
        """PIMC: one tree per resampled world; each world votes for its most visited
        action; most votes win, then most visits overall."""
        cdef int w, W = self.worlds
        cdef int64_t limit = self.budget.limit, used = 0
        cdef double t0 = rc_now(), deadline = self.budget.deadline
        cdef int32_t best
        votes = {}
        totals = {}
        for w in range(W):
            memcpy(self.scratch2, self.root, self.k.state_size)
            self.k.resample(self.scratch2, player, &self.rng)
            memcpy(self.tree_state, self.scratch2, self.k.state_size)
            self.budget.used = 0
            self.budget.expired = 0
            self.budget.limit = max(1, limit // W) if limit > 0 else 0
            if deadline > 0:
                self.budget.deadline = t0 + (deadline - t0) * (w + 1) / W
            self._tree_reset()
            self._run(self.tree_state, player)
            used += self.budget.used
            best = tree_best_root_child(&self.tree, self.root_node)
            if best < 0:
                continue
            key = self.tree.nodes[best].key
            votes[key] = votes.get(key, 0) + 1
            for a, n, v in self._root_stats():
                t = totals.setdefault(a, [0, 0.0])
                t[0] += n
                t[1] += v
        self.have_tree = False
        self.budget.used = used
        self.stats["votes"] = votes
        self.stats["root"] = sorted((a, n, v) for a, (n, v) in totals.items())
        if not votes:
            self.k.legal_actions(self.root, self.acts)
            return self.acts[0]
        return max(votes, key=lambda a: (votes[a], totals[a][0], -a))

    cdef int _iterate(self, const void *start, int player) except -1 nogil:
        cdef const rc_kernel *k = self.k
        cdef void *s = self.scratch
        cdef int32_t node = self.root_node, child, a
        cdef int p, n
        memcpy(s, start, k.state_size)
        self.path[0] = node
        self.path_len = 1
        while True:
            p = k.current_player(s)
            if p == RC_TERMINAL:
                break
            if p == RC_CHANCE:
                a = rc_sample_chance(k, s, &self.rng, self.acts, self.probs)
                k.apply(s, a)
                child = tree_find_child(&self.tree, node, <uint32_t>a)
                if child < 0:
                    child = tree_add_child(&self.tree, node, <uint32_t>a, -1)
                    if child >= 0:
                        self.path[self.path_len] = child
                        self.path_len += 1
                    break
                node = child
                self.path[self.path_len] = node
                self.path_len += 1
                continue
            if not self.tree.nodes[node].expanded:
                if self.tree.nodes[node].visits == 0 and node != self.root_node:
                    break  # a leaf seen for the first time: roll out from it
                n = k.legal_actions(s, self.acts)
                if tree_expand(&self.tree, node, self.acts, n, p) < 0:
                    break  # the arena is full: roll out from here
            child = self._select_ucb(node)
            k.apply(s, <int32_t>self.tree.nodes[child].key)
            node = child
            self.path[self.path_len] = node
            self.path_len += 1
            if self.tree.nodes[node].visits == 0:
                break
        self._rollout(s, self.rewards)
        self._backprop()
        return 0
