# cython: language_level=3
from libc.stdint cimport uint8_t, int32_t, uint32_t
from romecore_search.tree cimport TreeAgent


cdef class ISMCTSAgent(TreeAgent):
    cdef uint32_t *keys        # observed key of each legal action at the node in hand
    cdef uint32_t *hidden      # the distinct hidden keys there
    cdef uint8_t *hidden_seen  # whether each hidden key already has a child
    cdef uint32_t *mark        # per action id: stamp of the node visit that saw it legal
    cdef uint32_t stamp
    cdef int32_t *pick         # scratch: candidate indices
    cdef int32_t *cand         # scratch: a concrete action per candidate edge (priors)
    cdef int observer          # the searching player
    cdef readonly bint reuse   # keep the chosen child's subtree within the mover's turn
    cdef int32_t next_node     # the kept child (the root's child of the action played)

    cdef int _hidden_index(self, uint32_t key, int nh) noexcept nogil
    cdef int _first_with(self, uint32_t key, int n) noexcept nogil
    cdef int32_t _concrete(self, uint32_t key, int n) noexcept nogil
    cdef bint _legal_child(self, uint32_t key, int nh, uint32_t S) noexcept nogil
    cdef int _keep_turn(self, int32_t a, int player) except -1
    cdef int32_t _add_with_priors(self, void *s, int32_t node, int p, int n, int untried,
                                  int32_t fresh) except -2 nogil
