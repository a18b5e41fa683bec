# cython: language_level=3
"""Tree search on top of :class:`SearchAgent`: the node arena, the iteration loop under the
budget, one iteration's walk (chance sampled, then a rollout and backpropagation), UCB
selection, the root statistics and tree reuse (finding the new root in the old tree by
replaying its edges).  MCTS and ISMCTS differ in how a decision descends (``_descend``) and
in what an iteration's world and chance edges are (``_enter_world``, ``_chance_key``)."""
from libc.stdint cimport int32_t, uint32_t, int64_t, uint8_t
from romecore.core.evaluator cimport Evaluator
from romecore_search.core cimport SearchAgent, rc_tree, rc_node


cdef class TreeAgent(SearchAgent):
    cdef rc_tree tree
    cdef int32_t root_node
    cdef readonly double c            # UCB exploration constant
    cdef readonly int32_t max_nodes
    cdef int32_t *path                # node indices of the iteration in progress
    cdef int32_t path_len
    cdef double *rewards
    cdef readonly bint turn_walk      # expand the rest of the mover's turn in one iteration
    cdef bint extending               # _descend: the walk goes on through a fresh node
    cdef readonly double bias         # progressive bias: weight of prior / (visits + 1)
    cdef readonly double widen        # progressive widening exponent (0: off)
    cdef readonly double widen_k      # children considered: ceil(widen_k * (visits + 1) ** widen)
    cdef readonly double prior_visits # virtual visits of a child's prior value (0: off)
    cdef readonly double imm          # weight of a child's settled prior in its score (0: off)
    cdef readonly bint imm_reply      # imm settles across turns too (two players)
    cdef readonly double mix          # weight of the evaluator's value of a leaf in its reward (0: off)
    cdef bint use_priors              # children get evaluator priors when created
    cdef readonly Evaluator prior_evaluator  # judges the priors (the evaluator unless ``prior`` names another)
    cdef readonly Evaluator policy_evaluator  # judges the priors by its policy head (``policy``); else None
    cdef double *pri                  # scratch: priors of the legal actions at a node
    cdef uint8_t *pri_settled         # scratch: pri[i] was judged where the mover's turn ends

    cdef int _tree_reset(self) except -1
    cdef void _push(self, int32_t node) noexcept nogil
    cdef int32_t _chance_child(self, int32_t node, uint32_t key) noexcept nogil
    cdef int32_t _tree_choice(self) noexcept nogil
    cdef int32_t _tree_result(self) except -2
    cdef int _run(self, const void *start, int player) except -1
    cdef int _iterate(self, const void *start, int player) except -1 nogil
    cdef void _enter_world(self, void *s, int player) noexcept nogil
    cdef uint32_t _chance_key(self, const void *s, int player, int32_t a) noexcept nogil
    cdef int32_t _descend(self, void *s, int32_t node, int p, int player) except -2 nogil
    cdef int32_t _select_ucb(self, int32_t node) noexcept nogil
    cdef double _score(self, const rc_node *nd, double lg) noexcept nogil
    cdef int32_t _widen_limit(self, int32_t visits) noexcept nogil
    cdef int _priors(self, const void *s, const int32_t *acts, int n, int p) except -1 nogil
    cdef void _sort_by_prior(self, int32_t *acts, int n) noexcept nogil
    cdef void _set_prior(self, int32_t child, int i) noexcept nogil
    cdef void _settle(self) noexcept nogil
    cdef void _backprop(self) noexcept nogil
    cdef list _root_stats(self)
    cdef int32_t _find_state(self, const void *tree_state, const void *target, int32_t max_states) except -2
    cdef int _reroot(self, int32_t node) except -1
