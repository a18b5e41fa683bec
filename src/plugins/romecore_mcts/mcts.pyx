# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""UCT (Kocsis and Szepesvari, 2006) over the kernel table, for any number of players.

* Decision nodes are expanded whole on their second visit; an unvisited child is tried
  first, then UCB1 on the mover's mean reward.  Each edge backs up the reward of the
  player who chose it, so every player maximises their own return.
* Chance nodes are explicit: an outcome is drawn with the kernel's probabilities and its
  child created the first time it comes up.
* Rollouts are uniformly random (or epsilon-greedy by the evaluator) and may be cut off
  after ``cutoff`` turns, the evaluator standing in for the rest (only where a turn ends).
* ``expand=turn``: an iteration that reaches a new node in the middle of the mover's turn
  expands on to the turn's end.  ``bias``/``widen``: progressive bias and widening from
  the evaluator's one-decision priors, children kept in prior order; ``imm`` settles a
  prior to the best known end of the mover's turn (``TreeAgent._settle``).
* Hidden information: the state handed to ``step`` is already a world consistent with
  the player's knowledge; ``pimc=N`` searches N fresh resamples instead (the budget split
  evenly) and the worlds vote.
* Tree reuse: the tree is kept between moves; the next move looks for its position among
  the old tree's nodes (replaying visited edges) and keeps that subtree.
"""
from libc.stdint cimport int32_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memcmp

from romecore_search.core cimport tree_expand, NODE_EXPANDED
from romecore_search.tree cimport TreeAgent
from romecore.errors import AgentSpecError
from romecore.spec import param_values
from romecore_search import PIMC_PARAMS, TREE_PARAMS

#: The parameters and their defaults (the ``mcts`` spec's table; ``workers`` is added there).
PARAMS = {
    **TREE_PARAMS,
    **PIMC_PARAMS,
    "determinize": (int, 1, "1 (the only value): search determinized worlds; the one handed to "
                            "step unless pimc > 1"),
    "reuse": (bool, True, "keep the tree between moves and reuse the subtree of the new position"),
    "reuse_states": (int, 4096, "positions replayed when looking for the new root in the old tree"),
}


cdef class MCTSAgent(TreeAgent):
    """Monte Carlo tree search (UCT); parameters and defaults: :data:`PARAMS`."""

    def __init__(self, game, seed=None, **params):
        p = param_values("mcts", PARAMS, params)
        self._configure_tree(game, seed, p)
        self._configure_pimc(p["pimc"])
        if p["determinize"] != 1:
            raise AgentSpecError("mcts always searches determinized worlds (determinize=1): the one "
                                 "handed to step, or pimc=N resamples; ismcts searches information sets")
        self.reuse = p["reuse"] and self.worlds == 1
        self.reuse_states = p["reuse_states"]
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
        return TreeAgent._forget(self)

    cdef int32_t _search(self, int player) except -2:
        cdef int32_t node = -1
        self._setup_budget(1000)
        if self.worlds > 1:
            self.have_tree = False
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
        return self._tree_result()

    cdef int32_t _search_world(self, const void *world, int player) except -2:
        """One PIMC world: a fresh tree; its most visited action."""
        self._tree_reset()
        self._run(world, player)
        return self._tree_choice()

    cdef list _world_scores(self):
        """Visits (the tie-break) and summed rewards per root action."""
        return self._root_stats()

    cdef int32_t _descend(self, void *s, int32_t node, int p, int player) except -2 nogil:
        """Expands a node whole on its second visit (the root at once; children in prior
        order when priors are on); an unvisited child first, then UCB1.  Stops at a leaf seen for
        the first time (unless the walk is extending the mover's turn), or when the arena is full."""
        cdef int32_t child
        cdef int n, i
        if not (self.tree.nodes[node].flags & NODE_EXPANDED):
            if self.tree.nodes[node].visits == 0 and node != self.root_node and not self.extending:
                return -1  # a leaf seen for the first time: roll out from it
            n = self.k.legal_actions(s, self.acts)
            if self.use_priors:
                self._priors(s, self.acts, n, p)
                self._sort_by_prior(self.acts, n)
            if tree_expand(&self.tree, node, self.acts, n, p) < 0:
                return -1  # the arena is full: roll out from here
            if self.use_priors:
                child = self.tree.nodes[node].first_child
                i = 0
                while child >= 0:
                    self._set_prior(child, i)
                    child = self.tree.nodes[child].next_sibling
                    i += 1
        child = self._select_ucb(node)
        self.k.apply(s, <int32_t>self.tree.nodes[child].key)
        self._push(child)
        return -1 if self.tree.nodes[child].visits == 0 else child
